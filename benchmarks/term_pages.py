"""Term pages and long questions under load (issue 44): a generated rulebook whose keyword "Swarm" has a section of
5,000 rules, added (without vectors) to a copy of the committed database, then `rulings serve`: the term page's
time and size, and how long a light request (/api/games) waits while 60 term pages, or 30 searches with a
1,000-character question, are sent at once.

    python benchmarks/term_pages.py [--rules 5000]

Before (issue 44): the term page 9.2 s and 4.2 MB; 60 term pages at once kept a light request 6.5 s, 30 long
questions 2.5 s. Prints a Markdown table; asserts nothing. Traffic goes to 127.0.0.1 only.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the packages, and the helpers in tests/support

from benchmarks.bounded_requests import case, timed_get  # noqa: E402
from benchmarks.rulebook_page import served  # noqa: E402
from kb.report import markdown_table  # noqa: E402
from support import REPO_DB  # noqa: E402
from support.servers import running_server  # noqa: E402

GAME = "crowd"
QUESTION = ("Can a figure with Swarm move through a lit space when its allies are next to it? " * 13)[:1000]


def crowded(rules: int) -> str:
    """A rulebook whose section "5.2 Swarm" holds `rules` rules, and one rule elsewhere that mentions Swarm."""
    return ("Crowd Comprehensive Rules\n\n1. Play\n\n1.1 Moving\n1.1.1 A figure with Swarm moves last.\n\n"
            "5. Keywords\n\n5.2 Swarm\n" + "".join(f"5.2.{n} Swarm case {n}: a figure with Swarm counts {n} allies.\n"
                                                  for n in range(1, rules + 1)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=int, default=5000, help="rules in the term's section")
    args = parser.parse_args()
    from kb.build import add_document
    from training.corpus import without_vectors
    with tempfile.TemporaryDirectory(prefix="rulings-terms-") as folder:
        db = Path(folder) / "rulings.db"
        shutil.copy(REPO_DB, db)
        book = Path(folder) / f"{GAME}.txt"
        book.write_text(crowded(args.rules), encoding="utf-8")
        with without_vectors():
            add_document(db, book, GAME)
        term = f"/terms/{GAME}/swarm"
        with running_server(db) as (port, server):
            timed_get(port, "/api/search?q=swarm")  # warm: the model is loaded once
            page = served(f"http://127.0.0.1:{port}{term}", 3)
            rows = [{"case": f"{term} ({args.rules:,} rules in its section)", "status": "200",
                     "time": f"{page['median_s']:.2f} s (median of 3)", "size": f"{page['bytes'] / 1024:.0f} KB",
                     "light request meanwhile": "-"}]
            for name, paths in {f"60 × {term} at once": [term] * 60,
                                "30 × /api/search, 1,000-character question": [
                                    f"/api/search?q={quote(QUESTION)}"] * 30}.items():
                found = case(port, server.pid, paths, "/api/games")
                rows.append({"case": name, "status": found["status"], "time": f"{found['seconds']:.2f} s (slowest)",
                             "size": "-", "light request meanwhile": found["light"]})
    print(markdown_table(rows))


if __name__ == "__main__":
    main()
