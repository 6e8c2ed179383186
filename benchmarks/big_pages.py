"""The pages of a big rulebook: generated rulebooks of 1,000, 2,000 and 4,000 numbered sections (two rules each,
tests/support/rulebooks.py), each added to its own copy of the database, then `rulings serve`'s time to answer
/games/<slug>, /handbook/<slug>, /sources/<id> and /rules/<id>, and each page's size.

    python benchmarks/big_pages.py [--db rulings.db] [--sections 1000 2000 4000] [--rules 2] [--loads 3]

Target (issue 29): /games/<slug> of a 4,000-section rulebook under 2 s; every page linear in what it shows (twice
the sections, about twice the time).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the packages, and the helpers in tests/support

from benchmarks.corpora import add  # noqa: E402
from benchmarks.rulebook_page import served  # noqa: E402
from benchmarks.speed import snapshot  # noqa: E402
from support.rulebooks import sectioned_rulebook  # noqa: E402
from support.servers import running_server  # noqa: E402

GAME = "big"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=ROOT / "rulings.db", help="read only: copies get the rulebooks")
    parser.add_argument("--sections", type=int, nargs="+", default=[1000, 2000, 4000])
    parser.add_argument("--rules", type=int, default=2, help="rules in each section")
    parser.add_argument("--loads", type=int, default=3, help="requests of each page measured, after one warm-up")
    args = parser.parse_args()
    print("| sections | rulings | page | server time, median (max) | HTML size |\n|---|---|---|---|---|")
    for sections in args.sections:
        with tempfile.TemporaryDirectory(prefix="rulings-big-pages-") as temp:
            work = Path(temp)
            db = snapshot(args.db, work / "rulings.db")
            book = work / f"big-rules-{sections}.md"
            book.write_text(sectioned_rulebook(sections, args.rules), encoding="utf-8")
            added = add(book, GAME, db)
            if added["exit"]:
                raise SystemExit(f"rulings add failed: {added['error']}")
            source = f"big-rules-{sections}"  # the id `rulings add` gives the file
            with running_server(db) as (port, _):
                for page in (f"/games/{GAME}", f"/handbook/{GAME}", f"/sources/{source}", f"/rules/{source}"):
                    found = served(f"http://127.0.0.1:{port}{page}", args.loads)
                    print(f"| {sections:,} | {sections * args.rules:,} | `{page.replace(source, '<id>')}` | "
                          f"{found['median_s']:.2f} s ({found['max_s']:.2f} s) | {found['bytes'] / 2**20:.1f} MB |",
                          flush=True)


if __name__ == "__main__":
    main()
