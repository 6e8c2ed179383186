"""`rulings add` of a judge-sized rulebook: about 3,000 numbered rules in 800 KB, in the layout of the big
trading-card-game comprehensive rules (`1. Chapter`, `100. Rule`, `100.1 text`, `100.1a text`), built
reproducibly from the real sentences of ../shared/corpora's Lorcana comprehensive rules; then the server's
memory and /api/search latency with it added.

    python benchmarks/large_rulebook.py [--db rulings.db] [--rules 3000] [--kilobytes 800]

Targets (issue 12): the add in < 60 s on this machine, embedding only the new passages; the server under
500 MB and /api/search p95 ≤ 40 ms with the rulebook added.
"""
from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.corpora import SHARED, add  # noqa: E402
from benchmarks.speed import service, snapshot  # noqa: E402

SOURCE = SHARED / "corpora" / "lorcana-comprehensive-rules-2.2.0.txt"
_RULE = re.compile(r"^\s*\d+(?:\.\d+)+\.?\s+(?P<text>[A-Z].{30,})$")
_HEADING = re.compile(r"^\s*\d+(?:\.\d+)*\.?\s+(?P<title>[A-Z][A-Za-z ,’'-]{3,40})$")


def rulebook(rules: int, kilobytes: int, seed: int = 0) -> str:
    """A comprehensive rulebook of `rules` numbered rules in about `kilobytes` KB: real rule sentences and
    headings, renumbered; nine chapters of three-digit rules with lettered subrules."""
    lines = SOURCE.read_text(encoding="utf-8").splitlines()
    sentences = [m.group("text").strip() for line in lines if (m := _RULE.match(line))]
    titles = sorted({m.group("title").strip() for line in lines if (m := _HEADING.match(line))})
    pick = random.Random(seed)
    per_rule = kilobytes * 1024 // rules
    out, count, number = [f"Synthetic Comprehensive Rules (built from {SOURCE.name})", ""], 0, 100
    while count < rules:
        if number % 100 == 0:
            out += [f"{number // 100}. {pick.choice(titles)}", ""]
        out += [f"{number}. {pick.choice(titles)}", ""]
        for rule in range(1, pick.randint(3, 8)):
            for letter in [""] + list("abcdefg"[:pick.randint(0, 5)]):
                text = pick.choice(sentences)
                while len(text) < per_rule:
                    text += " " + pick.choice(sentences)
                out.append(f"{number}.{rule}{letter} {text[:per_rule].rsplit(' ', 1)[0]}")
                count += 1
        out.append("")
        number += 1
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=ROOT / "rulings.db", help="read only: a copy gets the rulebook")
    parser.add_argument("--rules", type=int, default=3000)
    parser.add_argument("--kilobytes", type=int, default=800)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rulings-large-") as temp:
        work = Path(temp)
        db = snapshot(args.db, work / "rulings.db")
        book = work / "synthetic-comprehensive-rules.txt"
        book.write_text(rulebook(args.rules, args.kilobytes), encoding="utf-8")
        size_kb = book.stat().st_size / 1024
        added = add(book, "synthetic", db)
        if added["exit"]:
            raise SystemExit(f"rulings add failed: {added['error']}")
        served = service(db, requests=400, sequential=300, warmup=30)
    stored = re.search(r"(\d+) rulings", str(added["report"]))
    units = stored.group(1) if stored else "?"
    print(f"| measure | value | target |\n|---|---|---|\n"
          f"| rulebook | {size_kb:.0f} KB, {args.rules} numbered rules | 800 KB, 3,000 rules |\n"
          f"| rulings stored | {units} | - |\n"
          f"| `rulings add` wall time | {added['seconds']:.1f} s | < 60 s |\n"
          f"| `rulings add` peak memory | {added['peak_mb']:.0f} MB | - |\n"
          f"| /api/search p50, 1 client | {served['one_client']['p50_ms']} ms | - |\n"
          f"| /api/search p95, 1 client | {served['one_client']['p95_ms']} ms | ≤ 40 ms |\n"
          f"| server RSS after load | {served['rss_mb_after']} MB | < 500 MB |")


if __name__ == "__main__":
    main()
