"""Load test of the JSON API on loopback: start `rulings serve`, send bounded concurrent /api/search
requests, print throughput, latency percentiles, errors and the server's memory before and after.

    python benchmarks/load.py [--clients 8] [--requests 5000] [--warmup 50]

Traffic goes to 127.0.0.1 only; the run is bounded in count and stops by itself.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the packages, and the helpers in tests/support

from support.load import measure, rss_mb, run_load  # noqa: E402
from support.servers import running_server  # noqa: E402


def questions() -> list[str]:
    """The dev questions, the traffic every benchmark sends."""
    lines = (ROOT / "tests" / "dev_questions.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["question"] for line in lines]


def load_test(requests: int, clients: int, warmup: int, db: Path) -> dict:
    """Run the whole benchmark; returns the figures it prints."""
    with running_server(db) as (port, server):
        qs = questions()
        memory_before = rss_mb(server.pid)
        run_load(port, warmup, 1, qs)
        memory_warm = rss_mb(server.pid)
        figures = measure(port, requests, clients, qs)
        return {**figures, "rss_mb_start": round(memory_before, 1), "rss_mb_warm": round(memory_warm, 1),
                "rss_mb_after": round(rss_mb(server.pid), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--db", type=Path, default=ROOT / "rulings.db")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    print(json.dumps(load_test(args.requests, args.clients, args.warmup, args.db), indent=2))


if __name__ == "__main__":
    main()
