"""The writes that read documents: build a database from the manifest, add a document to one, remove a source
from one. Each is a changeset (ingest.changeset reads the documents into one) applied by kb.writer on a copy
of the file that replaces it only once complete (kb.atomic). The one module of kb that imports ingest."""
from __future__ import annotations

from pathlib import Path

from ingest.changeset import for_document, from_manifest, read_document
from ingest.errors import IngestError
from ingest.shapes import AUTO
from kb.atomic import atomic_database
from kb.migrations import migrate
from kb.paths import DEFAULT_DB, DEFAULT_MANIFEST
from kb.writer import apply, stored
from model import schema
from model.changeset import Changeset


def build(db_path: Path = DEFAULT_DB, manifest_path: Path = DEFAULT_MANIFEST) -> dict:
    """Rebuild the database from the manifest, atomically. Returns counts of what was written."""
    changeset = from_manifest(Path(manifest_path))
    with atomic_database(Path(db_path)) as db:
        schema.create(db)
        return apply(db, changeset, Path(db_path))


def add_document(db_path: Path, file: Path, game: str, title: str | None = None, *, shape: str = AUTO,
                 kind: str = "rulebook", language: str = "en", author: str = "", abbrev: str = "",
                 scope: str = "") -> dict:
    """Ingest one more document into an existing database, atomically; returns the ingest report.

    The document may be text, markdown, HTML, PDF or Q/A data; without `title` its front matter names it
    (else its file name does); without `shape` the segmenter that explains it best is chosen. The
    document's rulings get ids under `game`; the game is created if the database lacks it. Their refs start
    with `abbrev` (else one derived from the game's name, unlike any other source's); `scope` says what the
    document covers. Names its rulings use that the game's rulings define link both ways. A database of an
    older schema is migrated first.
    """
    file, db_path = Path(file), Path(db_path)
    _existing(db_path)
    entry, parsed = read_document(file, game, title, shape=shape, kind=kind, language=language, author=author,
                                  abbrev=abbrev, scope=scope)
    with atomic_database(db_path, start_from=db_path) as db:
        migrate(db, str(db_path))
        changeset = for_document(entry, parsed, stored(db, game, entry.id), str(file), str(db_path))
        apply(db, changeset, db_path)
    return changeset.report


def remove_source(db_path: Path, source: str) -> dict:
    """Remove a source and everything that is its own (rulings, examples, links to and from them, tables,
    gaps, vectors; its game when it was the game's last source) atomically, as if it had never been added.
    Returns what went: {"source", "title", "game", "rulings"}; FileError if there is no such source."""
    db_path = Path(db_path)
    _existing(db_path)
    with atomic_database(db_path, start_from=db_path) as db:
        migrate(db, str(db_path))
        found = next(db["sources"].rows_where("id = ?", [source]), {})
        before = db["rulings"].count
        apply(db, Changeset("remove", remove=[source]), db_path)
        return {"source": source, "title": found.get("title"), "game": found.get("game"),
                "rulings": before - db["rulings"].count}


def _existing(db_path: Path) -> None:
    if not db_path.exists():
        raise IngestError(str(db_path), "database not found; run `rulings ingest` first, or name another with "
                                        "--db or the RULINGS_DB environment variable")
