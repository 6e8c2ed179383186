"""Search quality and speed in one run: recall and latency of hybrid, fts and dense on the dev questions,
and the warm per-query latency of `ask` in process.

    python benchmarks/search.py [--db rulings.db] [--questions tests/dev_questions.jsonl] [--repeat 5]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.evaluate import evaluate, load_questions  # noqa: E402
from kb.search import MODES, ask  # noqa: E402
from kb.store import connect  # noqa: E402


def warm_latencies(conn, questions: list[dict], repeat: int) -> list[float]:
    """Milliseconds per `ask` call, after one warm-up pass over the questions."""
    for item in questions:
        ask(conn, item["question"])
    times = []
    for _ in range(repeat):
        for item in questions:
            start = time.perf_counter()
            ask(conn, item["question"])
            times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, default=ROOT / "rulings.db")
    parser.add_argument("--questions", type=Path, default=ROOT / "tests" / "dev_questions.jsonl")
    parser.add_argument("--repeat", type=int, default=5, help="passes over the questions for warm latency")
    args = parser.parse_args()
    conn = connect(args.db)
    questions = load_questions(args.questions)
    print(f"{'mode':8} {'n':>3} {'recall@1':>9} {'recall@5':>9} {'mrr':>7} {'p50_ms':>7} {'p95_ms':>7}")
    for mode in MODES:
        f = evaluate(conn, questions, mode, k=10)
        print(f"{mode:8} {f['n']:>3} {f['recall@1']:>9.3f} {f['recall@5']:>9.3f} {f['mrr']:>7.3f} "
              f"{f['p50_ms']:>7.2f} {f['p95_ms']:>7.2f}")
    times = sorted(warm_latencies(conn, questions, args.repeat))
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    print(json.dumps({"warm_ask_queries": len(times), "p50_ms": round(statistics.median(times), 2),
                      "p95_ms": round(p95, 2), "max_ms": round(times[-1], 2)}))


if __name__ == "__main__":
    main()
