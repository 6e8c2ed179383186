"""`rulings add` of every hostile document of issue 23 (tests/support/hostile.py), one at a time, each into its
own copy of --db: a markdown table of each case's wall time, peak memory (the largest resident set of the
command and the process reading the document), exit status, whether the database is unchanged, and the
message, for the closing note and docs/ingest.md ("Limits").

    python benchmarks/hostile.py [--db rulings.db] [--only NAME ...] [--json]
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the packages, and the helpers in tests/support

from support.hostile import run, write  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=ROOT / "rulings.db", help="read only: each case adds to a copy")
    parser.add_argument("--only", nargs="*", default=[], help="only the cases whose names contain one of these")
    parser.add_argument("--json", action="store_true", help="one JSON object per case instead of the table")
    args = parser.parse_args()
    before = args.db.read_bytes()
    with tempfile.TemporaryDirectory() as folder:
        chosen = [case for case in write(Path(folder) / "documents")
                  if not args.only or any(part in case.name for part in args.only)]
        if not args.json:
            print("| case | time | peak memory | exit | database | message |")
            print("|---|---:|---:|---:|---|---|")
        for case in chosen:
            db = Path(folder) / "rulings.db"
            db.write_bytes(before)
            outcome = run(case, db)
            row = {"case": case.name, "seconds": round(outcome.seconds, 1), "peak_mb": round(outcome.peak_mb),
                   "exit": outcome.status, "unchanged": db.read_bytes() == before,
                   "message": " ".join(outcome.stderr.replace(folder, "").split())}
            if args.json:
                print(json.dumps(row, ensure_ascii=False))
            else:
                print(f"| {row['case']} | {row['seconds']} s | {row['peak_mb']} MB | {row['exit']} | "
                      f"{'unchanged' if row['unchanged'] else 'added to'} | {row['message'][:160]} |", flush=True)


if __name__ == "__main__":
    main()
