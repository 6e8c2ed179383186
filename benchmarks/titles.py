"""The title and game name read from every real document, beside the title its facts give.

    python benchmarks/titles.py [--json]

Each document of ../shared/corpora/structure/ (game and title from its `.facts.toml`) and of ../shared/corpora/
(game from ../shared/eval/corpora_dev_questions.jsonl, else the file name's first word: "mtg", "lorcana") is
read as `rulings add FILE --game GAME` reads it (`ingest.changeset.read_document`, nothing stored). Prints a
markdown table (for docs/ingest.md): document, game slug, the title read, the game's name read, the facts'
title, and whether the title still names no game ("generic"); or one JSON object a document with --json.
"""
from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.changeset import read_document  # noqa: E402
from ingest.titles import is_generic  # noqa: E402

SHARED = ROOT.parent / "shared"
CORPORA = SHARED / "corpora"
STRUCTURE = CORPORA / "structure"
DOCUMENTS = (".pdf", ".md", ".html", ".txt")


def documents() -> list[tuple[Path, str, str]]:
    """(file, game slug, facts title or "") of every real document."""
    found = []
    for facts in sorted(STRUCTURE.glob("*.facts.toml")):
        stem = facts.name.removesuffix(".facts.toml")
        read = tomllib.loads(facts.read_text(encoding="utf-8"))
        file = next(f for f in STRUCTURE.iterdir() if f.stem == stem and f.suffix in DOCUMENTS)
        found.append((file, read["game"], read["title"]))
    asked = {}
    questions = SHARED / "eval" / "corpora_dev_questions.jsonl"
    if questions.exists():
        for line in questions.read_text(encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                asked[item["doc"]] = item["game"]
    for file in sorted(CORPORA.iterdir()):
        if file.is_file() and file.suffix in DOCUMENTS and file.name != "README.md":
            found.append((file, asked.get(file.stem, file.stem.split("-")[0]), ""))
    return found


def measure(file: Path, game: str, facts: str) -> dict:
    """What `rulings add FILE --game GAME` would name the document and its game."""
    entry, parsed = read_document(file, game)
    return {"document": file.name, "game": game, "title": entry.title,
            "game_name": parsed.found.get("game_name", ""), "facts_title": facts,
            "generic": is_generic(entry.title)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="one JSON object a document")
    args = parser.parse_args()
    if not CORPORA.is_dir():
        raise SystemExit(f"{CORPORA} is not beside the clone")
    if not args.json:
        print("| document | game | title read | game name read | facts' title | generic |")
        print("|---|---|---|---|---|---|")
    for file, game, facts in documents():
        row = measure(file, game, facts)
        if args.json:
            print(json.dumps(row, ensure_ascii=False), flush=True)
        else:
            print(f"| `{row['document']}` | {game} | {row['title']} | {row['game_name'] or '–'} | {facts or '–'} | "
                  f"{'yes' if row['generic'] else 'no'} |", flush=True)


if __name__ == "__main__":
    main()
