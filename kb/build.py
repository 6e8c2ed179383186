"""The writes that read documents: build a database from the manifest, add a document to one, remove a source
from one. Each is a changeset (ingest.changeset reads the documents into one) applied by kb.writer all or
nothing (kb.atomic): a build on a new file that replaces the database once complete, an add or a remove in
place, in one transaction. The one module of kb that imports ingest."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from ingest.budget import read_within
from ingest.changeset import for_document, from_manifest, read_document
from ingest.errors import IngestError
from ingest.limits import Limits, from_environment
from ingest.manifest import load_manifest
from ingest.pipeline import link_names
from ingest.shapes import AUTO
from kb.atomic import atomic_database, in_place
from kb.lexicon import lexicon_rows
from kb.migrations import migrate
from kb.paths import DEFAULT_DB, DEFAULT_MANIFEST
from kb.reidentify import reidentify
from kb.verify import record_statuses
from kb.writer import apply, enable_search, stored
from model import schema
from model.changeset import Changeset
from model.editions import EDITION_ORDER, edition_rows, history_rows, version_row
from model.errors import FileError
from model.records import as_row


def build(db_path: Path = DEFAULT_DB, manifest_path: Path = DEFAULT_MANIFEST, limits: Limits | None = None) -> dict:
    """Rebuild the database from the manifest, atomically. Returns counts of what was written. The documents
    are read within `limits` (default: the environment's; see ingest.limits), all together."""
    manifest_path = Path(manifest_path)
    manifest = load_manifest(manifest_path)
    documents = dict.fromkeys(manifest.folder / entry.file for entry in manifest.sources)
    changeset = read_within(limits or from_environment(), [manifest_path, *documents], from_manifest, manifest_path)
    with atomic_database(Path(db_path)) as db:
        schema.create(db)
        return apply(db, changeset, Path(db_path))


def add_document(db_path: Path, file: Path, game: str, title: str | None = None, *, shape: str = AUTO,
                 kind: str = "rulebook", language: str = "en", author: str = "", abbrev: str = "",
                 scope: str = "", replaces: str | None = None, as_new: bool = False, game_name: str | None = None,
                 limits: Limits | None = None) -> dict:
    """Ingest one more document into an existing database, atomically; returns the ingest report.

    The document may be text, markdown, HTML, PDF or Q/A data; without `title` its front matter names it
    (else its file name does); without `shape` the segmenter that explains it best is chosen. The
    document's rulings get ids under `game`; the game is created if the database lacks it, named `game_name`,
    else by the name the document gives it ("Magic: The Gathering"), else by its slug; `game_name` renames a
    game the database has (its sources keep their refs). Their refs start with `abbrev` (else one derived from
    the game's name, unlike any other source's); `scope` says what the
    document covers. Names its rulings use that the game's rulings define link both ways. A database of an
    older schema is migrated first. The document is read within `limits` (default: the environment's; see
    ingest.limits): past one, IngestError names it and the limit, and the database is untouched.

    A document with the title of one of the game's sources (or the source `replaces` names) is a new edition
    of it, unless `as_new`: it becomes the source's current edition when it is the newest, its rulings keeping
    the ids and refs of the ones they continue; the report's "edition" says what changed. Re-adding an edition
    writes nothing.
    """
    file, db_path = Path(file), Path(db_path)
    _existing(db_path)
    entry, parsed = read_within(limits or from_environment(), [file], read_document, file, game, title, shape=shape,
                                kind=kind, language=language, author=author, abbrev=abbrev, scope=scope)
    try:
        with in_place(db_path) as db:
            migrate(db, str(db_path))
            changeset = for_document(entry, parsed, stored(db, game, entry.id), str(file), replaces, as_new,
                                     game_name)
            if changeset.action == "unchanged":
                raise _Unchanged(changeset.report)
            apply(db, changeset)
            edition = changeset.report.get("edition")
            # Filed among its editions, it may join a rule of the edition before to one of the edition after.
            if edition and not edition.get("current"):
                stale = lexicon_rows(db.conn, [game])
                if reidentify(db, edition["source"]):
                    record_statuses(db.conn, [game])
                    enable_search(db, games=[game], stale=stale)
    except _Unchanged as unchanged:
        return unchanged.report
    return changeset.report


def remove_source(db_path: Path, source: str, version: str | None = None) -> dict:
    """Remove a source and everything that is its own (rulings, examples, links to and from them, tables,
    gaps, vectors, editions; its game when it was the game's last source) atomically, as if it had never been
    added; with `version`, only that edition (the edition before it becomes current again if it was). Returns
    what went: {"source", "title", "game", "rulings", "version", "current"}; FileError if there is no such
    source or edition."""
    db_path = Path(db_path)
    _existing(db_path)
    with in_place(db_path) as db:
        migrate(db, str(db_path))
        found = next(db["sources"].rows_where("id = ?", [source]), {})
        before = db["rulings"].count
        changeset = (Changeset("remove", remove=[source]) if version is None
                     else _without_edition(db, source, version, str(db_path)))
        apply(db, changeset)
        current = next(db.query("select version from source_versions where source = ? and current", [source]), {})
        return {"source": source, "title": found.get("title"), "game": found.get("game"),
                "rulings": before - db["rulings"].count, "version": version, "current": current.get("version")}


def _without_edition(db, source: str, version: str, name: str) -> Changeset:
    """The changeset that removes one edition of `source`: the whole source when it is its only one; the
    edition before it made current again (its rows as they were kept, its name links made afresh) when it was
    the current one."""
    editions = list(db.query(f"select * from source_versions where source = ? {EDITION_ORDER}",
                             [source]))
    gone = next((e for e in editions if e["version"] == version), None)
    if gone is None:
        listed = ", ".join(e["version"] for e in editions) or "none"
        raise FileError(name, f"{source} has no version {version!r} (versions: {listed})")
    if len(editions) == 1:
        return Changeset("remove", remove=[source])
    if not gone["current"]:
        return Changeset("remove edition", remove_editions=[(source, version)])
    back = [e for e in editions if e is not gone][-1]
    rows = edition_rows(back)
    restored = rows["sources"][0]
    rows["source_versions"] = [version_row(restored, rows, back["added_at"], current=True)]
    rows["ruling_history"] = history_rows(restored, rows["rulings"])
    known = stored(db, restored["game"], source)
    leaving = {row["id"] for row in db.query("select id from rulings where source = ?", [source])}
    parsed = SimpleNamespace(rulings=[SimpleNamespace(**row) for row in rows["rulings"]],
                             xrefs=[SimpleNamespace(**row) for row in rows["xrefs"]])
    spans = {rid: found for rid, found in known.spans.items() if rid not in leaving}
    rows["xrefs"] += [as_row(x) for x in link_names([(None, parsed)], known.rulings, spans)]
    return Changeset("remove edition", rows, replace=[source],
                     remove_editions=[(source, version), (source, back["version"])])


class _Unchanged(Exception):
    """Nothing to write: the transaction is rolled back and the database left as it was."""

    def __init__(self, report: dict):
        super().__init__("unchanged")
        self.report = report


def _existing(db_path: Path) -> None:
    if not db_path.exists():
        raise IngestError(str(db_path), "database not found; run `rulings ingest` first, or name another with "
                                        "--db or the RULINGS_DB environment variable")
