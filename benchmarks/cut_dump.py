"""Every document's cut, dumped and compared: how a change to the reader is checked (issue 42). `dump` writes the
stored rulings (ref, kind, section, label, title, text) of every seed (as `rulings.db` holds them) and of every
corpora and collected document (each added alone to a copy of `--db`, without vectors, as `rulings add FILE --game
G` adds it), with each source's title, as JSON lines; `compare` prints, per document, the rows gone and new.

    python benchmarks/cut_dump.py dump OUT.jsonl [--db rulings.db] [--also FOLDER ...]
    python benchmarks/cut_dump.py compare BEFORE.jsonl AFTER.jsonl [--show 4]

A dump of every document takes about 30 s on two cores. Run `dump` before and after a change, then `compare`:
every difference should be a fix. `--also` adds the documents of folders collected for a probe (documents nobody
here had read, not committed): how a change is checked on layouts the corpora lack.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import sys
import tempfile
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the packages, and the helpers in tests/support

COLUMNS = ("ref", "kind", "section", "label", "title", "text")


def _added(job: tuple) -> list[dict]:
    """The stored rulings of one document added alone to a copy of `base`, and its source's title."""
    document, base = job
    from ingest.limits import from_environment
    from kb.build import add_document
    from training.corpus import READ_SECONDS, without_vectors
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "copy.db"
        shutil.copy(base, db)
        try:
            with without_vectors():
                report = add_document(db, document.file, document.game,
                                      limits=replace(from_environment(), seconds=READ_SECONDS))
        except Exception as exc:  # noqa: BLE001 - a document that fails is a row of the dump, not the end of it
            return [{"doc": document.name, "failed": str(exc)[:300]}]
        with sqlite3.connect(db) as conn:
            rows = conn.execute(f"SELECT {', '.join(COLUMNS)} FROM rulings WHERE source = ? ORDER BY position",
                                (report["source"],)).fetchall()
            title = conn.execute("SELECT title FROM sources WHERE id = ?", (report["source"],)).fetchone()[0]
    return [{"doc": document.name, **dict(zip(COLUMNS, row))} for row in rows] + [
        {"doc": document.name, "source_title": title, "verdict": report["audit"]["verdict"]}]


# What a folder of documents collected for development holds besides them: notes, cuts, conversions (its text files
# are told apart by their names, see `_text_document`).
_ALSO_SUFFIXES = (".pdf", ".md", ".html", ".htm", ".rst", ".adoc", ".docx", ".odt", ".rtf")


def _text_document(stem: str) -> bool:
    """Is a text file of a probe's folder a document, not a cut of one (`x.out.txt`, `x.full.txt`, `out-x.txt`),
    a conversion (`x.layout.txt`) or an error kept (`err-x.txt`)?"""
    return not stem.endswith((".out", ".full", ".layout", ".cut", ".err")) and not stem.startswith(("out-", "err-"))


def _also(folders: list[Path]) -> list:
    """The documents in `folders` (not in the repository: collected for a probe, their licences unchecked), each
    under its folder's name, its game made from its file's name."""
    from support.documents import Document
    found = sorted(path for folder in folders for path in folder.iterdir()
                   if (path.suffix in _ALSO_SUFFIXES or path.suffix == ".txt" and _text_document(path.stem))
                   and path.stem.upper() not in ("README", "PROVENANCE", "FINDINGS"))
    return [Document(f"{path.parent.name}/{path.name}", path,
                     "-".join("".join(c if c.isalnum() else " " for c in path.stem.lower()).split())[:30] or "game")
            for path in found]


def dump(out: Path, base: Path, also: list[Path] = ()) -> None:
    """Write every document's stored rulings to `out` (see the module docstring), and those of the documents in
    the folders `also`."""
    from support.documents import every_document
    with out.open("w", encoding="utf-8") as file, sqlite3.connect(base) as conn:
        for source, *row in conn.execute(f"SELECT source, {', '.join(COLUMNS)} FROM rulings "
                                         "ORDER BY source, position"):
            file.write(json.dumps({"doc": f"seed:{source}", **dict(zip(COLUMNS, row))}, ensure_ascii=False) + "\n")
        with ProcessPoolExecutor(2) as pool:
            for rows in pool.map(_added, [(document, base) for document in [*every_document(), *_also(list(also))]]):
                file.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def compare(before: Path, after: Path, show: int) -> None:
    """Print, per document whose rows differ, how many went and came, and `show` of each."""
    def load(path: Path) -> dict[str, list[str]]:
        found: dict[str, list[str]] = defaultdict(list)
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            found[row.pop("doc")].append(json.dumps(row, ensure_ascii=False, sort_keys=True))
        return found
    old, new = load(before), load(after)
    for doc in sorted(old.keys() | new.keys()):
        gone = [row for row in old.get(doc, []) if row not in set(new.get(doc, []))]
        came = [row for row in new.get(doc, []) if row not in set(old.get(doc, []))]
        if gone or came:
            print(f"== {doc}: {len(old.get(doc, []))} -> {len(new.get(doc, []))} rows; {len(gone)} gone, "
                  f"{len(came)} new")
            print("".join(f"  - {row[:200]}\n" for row in gone[:show]) + "".join(f"  + {row[:200]}\n"
                                                                                 for row in came[:show]), end="")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    dumping = commands.add_parser("dump")
    dumping.add_argument("out", type=Path)
    dumping.add_argument("--db", type=Path, default=ROOT / "rulings.db")
    dumping.add_argument("--also", type=Path, nargs="*", default=[],
                         help="folders of documents collected for development, dumped too")
    comparing = commands.add_parser("compare")
    comparing.add_argument("before", type=Path)
    comparing.add_argument("after", type=Path)
    comparing.add_argument("--show", type=int, default=4)
    args = parser.parse_args()
    if args.command == "dump":
        dump(args.out, args.db, args.also)
    else:
        compare(args.before, args.after, args.show)


if __name__ == "__main__":
    main()
