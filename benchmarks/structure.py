"""How `rulings add` reads the structure of real documents, against facts a careful reader wrote down (issue 30):
each document of ../shared/corpora/structure/ and the Magic comprehensive rules (facts in
benchmarks/structure_facts/), added alone to a copy of --db with `rulings add FILE --game G` and nothing else,
then measured by tests/support/structure_facts.py.

    python benchmarks/structure.py [--db rulings.db] [--only NAME] [--no-vectors] [--keep DIR]

Prints one Markdown table, a row per document and a column per measure (✗: the issue's target not met), then
per document the samples no unit matches (with the closest unit and what it lacks) and a few refs behind each
count. --no-vectors skips the embedding model (the structure is the same, the adds 3-4x faster); --keep DIR
keeps each database as DIR/<name>.db.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the packages, and the helpers in tests/support

from support import REPO_DB  # noqa: E402
from support.structure_facts import MEASURES, Measured, add, facts_files, load_facts, measure, row  # noqa: E402

HEADINGS = {"numbered": "numbered units", "samples": "samples", "glossary": "glossary", "qa": "Q/A",
            "long": ">300 words", "ordinals": "ordinal refs", "collisions": "colliding refs", "title": "title"}


def table(results: list[Measured]) -> str:
    """The Markdown table: a row per document, a column per measure."""
    lines = ["| document | units | " + " | ".join(HEADINGS[m] for m in MEASURES) + " |",
             "|---|---|" + "---|" * len(MEASURES)]
    for measured in results:
        cells = row(measured)
        lines.append(f"| {measured.facts.name} | {measured.units} | "
                     + " | ".join(cells[m].replace("|", "\\|") for m in MEASURES) + " |")
    return "\n".join(lines)


def misses(measured: Measured) -> list[str]:
    """The document's samples no unit matches, and a few refs behind its counts, as Markdown list lines."""
    lines = []
    for result in measured.samples:
        if not result.found:
            closest = f"closest {result.closest!r} lacks {', '.join(result.lacks)}" if result.closest else "no unit"
            lines.append(f"- sample {result.sample.label!r} (parent {result.sample.parent!r}): {closest}")
    for name, refs in measured.examples.items():
        lines.append(f"- {name}: {', '.join(refs)}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, default=REPO_DB, help="the database each document is added to a copy of")
    parser.add_argument("--only", default="", help="only documents whose name holds this")
    parser.add_argument("--no-vectors", action="store_true", help="skip the embedding model")
    parser.add_argument("--keep", type=Path, help="keep each database here")
    args = parser.parse_args()
    facts = [load_facts(path) for path in facts_files() if args.only in path.name]
    if not facts:
        raise SystemExit("no facts files (is ../shared/corpora beside the clone?)")
    results = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for fact in facts:
            started = time.perf_counter()
            db = add(fact, args.db, folder, vectors=not args.no_vectors)
            results.append(measure(db, fact))
            print(f"{fact.name}: added and measured in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    print(table(results))
    for measured in results:
        lines = misses(measured)
        if lines:
            print(f"\n**{measured.facts.name}**\n" + "\n".join(lines))


if __name__ == "__main__":
    main()
