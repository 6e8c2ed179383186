"""A snapshot of what users see, to prove a refactor changed nothing: `rulings ask --json` for every dev and
off-topic question, and the HTML of every page (ask, each ruling, game, handbook, source, calculators).

    python benchmarks/snapshot.py OUT_DIR [--db rulings.db]
    diff -r before/ after/
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.search import ask  # noqa: E402
from kb.store import connect  # noqa: E402
from service.app import create_app  # noqa: E402

QUESTION_FILES = ("dev_questions.jsonl", "offtopic_questions.jsonl")


def answers(db: Path) -> dict[str, dict]:
    """question id → the JSON `rulings ask --json` prints for it."""
    conn = connect(db)
    found = {}
    for name in QUESTION_FILES:
        for line in (ROOT / "tests" / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                found[item.get("id") or item["question"]] = ask(conn, item["question"])
    return found


def pages(db: Path) -> dict[str, str]:
    """URL → the page's HTML, for every page the web app has for this database."""
    conn = connect(db)
    client = create_app(db).test_client()
    urls = ["/", "/?q=Can+a+reserve+army+double+its+magic%3F"]
    urls += [f"/r/{r[0]}" for r in conn.execute("select id from rulings order by id")]
    for (slug,) in conn.execute("select slug from games order by slug"):
        urls += [f"/games/{slug}", f"/handbook/{slug}", f"/calc/{slug}"]
    urls += [f"/sources/{s[0]}" for s in conn.execute("select id from sources order by id")]
    urls += [f"/api/rulings/{r[0]}" for r in conn.execute("select id from rulings order by id limit 20")]
    return {url: client.get(url).get_data(as_text=True) for url in urls}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--db", type=Path, default=ROOT / "rulings.db")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "answers.json").write_text(json.dumps(answers(args.db), indent=1, ensure_ascii=False))
    for n, (url, html) in enumerate(sorted(pages(args.db).items())):
        (args.out / f"page-{n:04d}.html").write_text(f"<!-- {url} -->\n{html}")
    print(f"snapshot written to {args.out}")


if __name__ == "__main__":
    main()
