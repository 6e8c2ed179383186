"""Adding editions of one rulebook: the three Lorcana comprehensive rules PDFs of ../shared/corpora added in date
order to a copy of the database, each `rulings add` timed in a process of its own, with the passages each had
to embed (a passage whose text an earlier edition had keeps its vector). Issue 21's target: adding the
2025-10-31 edition over the 2024-08-09 one takes less than the first add.

    python benchmarks/editions.py [--db rulings.db]

Nothing is written to --db.
"""
from __future__ import annotations

import argparse
import json
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT.parent / "shared" / "corpora"
PLANS = {"in date order": ("2024-08-09", "2025-02-28", "2025-10-31"),
         "the first, then the last": ("2024-08-09", "2025-10-31")}


def vectors(db: Path) -> set[str]:
    conn = sqlite3.connect(db)
    try:
        return {text for (text,) in conn.execute("select text from embeddings")}
    finally:
        conn.close()


def add(db: Path, date: str) -> dict:
    """One `rulings add` of an edition: wall seconds, the passages it embedded, what it changed."""
    before = vectors(db)
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "service.cli", "add",
                             str(CORPORA / f"lorcana-comprehensive-rules-{date}.pdf"), "--game", "lorcana",
                             "--json", "--db", str(db)], cwd=ROOT, capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - start
    report = json.loads(result.stdout)
    return {"edition": date, "seconds": round(seconds, 2), "embedded": len(vectors(db) - before), "changes": report.get("edition")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, default=ROOT / "rulings.db")
    args = parser.parse_args()
    print("| plan | edition | wall (s) | passages embedded | what changed |")
    print("|---|---|---|---|---|")
    for plan, dates in PLANS.items():
        with tempfile.TemporaryDirectory() as folder:
            db = Path(folder) / "rulings.db"
            shutil.copy(args.db, db)
            for date in dates:
                found = add(db, date)
                changes = found["changes"]
                said = (f"{changes['changed']} changed, {changes['added']} added, {changes['removed']} removed, "
                        f"{changes['moved']} moved "
                        f"since {changes['compared_with']}") if changes else "first edition"
                print(f"| {plan} | {date} | {found['seconds']} | {found['embedded']} | {said} |")
    print("(peak memory of any add: "
          f"{round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)} MB)")


if __name__ == "__main__":
    main()
