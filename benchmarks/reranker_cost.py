"""What a cross-encoder reranker would cost a question: one forward pass of a MiniLM-L6-sized encoder over
(question, passage) pairs of the top candidates, timed with the packaged model's ONNX graph (a cross-encoder
of that size is the same network with a one-number head, so its cost is the same to within the head).

    python benchmarks/reranker_cost.py [--db rulings.db] [--top 5,10,20] [--repeat 20]

Prints the p50 and p95 milliseconds per question for each number of candidates reranked, against the warm
`/api/search` budget of issue 32 (at most 2 ms more at p50).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from kb.onnx_embedder import OnnxEmbedder  # noqa: E402
from kb.store import connect  # noqa: E402

QUESTIONS = ("Can a character that was played this turn challenge?",
             "What happens when both players pass in a row?",
             "Does a unit keep its damage after the battle ends?")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=ROOT / "rulings.db")
    parser.add_argument("--top", default="5,10,20")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    conn = connect(args.db)
    passages = [row[0] for row in conn.execute("select text from embeddings where kind = 'ruling' "
                                               "order by length(text) desc limit 200")]
    passages = passages[len(passages) // 2:]  # middling lengths among the longer passages: a typical top ten
    model = OnnxEmbedder()
    for top in (int(n) for n in args.top.split(",")):
        times = []
        for n in range(args.repeat):
            question = QUESTIONS[n % len(QUESTIONS)]
            pairs = [f"{question} [SEP] {p}" for p in passages[n:n + top]]
            start = time.perf_counter()
            model.embed_many(pairs, batch_size=top)
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        print(f"top {top}: p50 {statistics.median(times):.1f} ms, p95 {times[int(0.95 * (len(times) - 1))]:.1f} ms")


if __name__ == "__main__":
    main()
