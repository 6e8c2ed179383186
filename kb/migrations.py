"""Schema migrations: each brings a database from the version before it to its own, in order, and may run
again without harm. Writers apply them before they write; `rulings migrate` (and a read command meeting an
older database) applies them on their own, atomically."""
from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import sqlite_utils

from kb.atomic import atomic_database
from kb.store import up_to_date
from kb.verify import record_statuses
from kb.writer import enable_search, log
from model import citation as citations
from model import schema
from model.editions import history_rows, version_row
from model.errors import FileError


def _complete_version_1(db: sqlite_utils.Database) -> None:
    """1 → 2: every table and column of the schema (releases wrote version 1 while their columns grew: an
    early one has no rulings.status, xrefs.start and end, sources.abbrev and scope), the changesets log and
    the indexes removal uses; then statuses, full-text index, lexicon and vectors derived afresh (a vector is
    computed only for a passage that has none). A database whose rulings have no refs predates them and
    cannot be completed without its documents."""
    if "ref" not in db["rulings"].columns_dict:
        raise FileError(_path(db), "built by a release before rulings had refs: rebuild it with `rulings "
                                   "ingest` (or add its documents to a new database)")
    _complete_tables(db)
    record_statuses(db.conn)
    enable_search(db)


def _complete_tables(db: sqlite_utils.Database) -> None:
    """Every table and column of the schema, added where missing."""
    for name, table in schema.TABLES.items():
        if db[name].exists():
            missing = {column: kind for column, kind in table.columns.items() if column not in db[name].columns_dict}
            for column, kind in missing.items():
                db[name].add_column(column, kind)
    schema.create(db)


def _cite_pages(db: sqlite_utils.Database) -> None:
    """3 → 4: the `originals` table (a PDF added from now on keeps its file there), and citations by page: the
    page a passage ends on, the page in the file of a passage of a file with pages of its own (its text has a
    form feed between pages), and the
    one-line citation naming the page, not lines, where the document has pages (in the current editions'
    rulings and history; a flattened document's printed pages come only from reading it again)."""
    _complete_tables(db)
    paged = {row["id"]: (row["original_text"], locator) for row in db.query("select id, format, original_text "
                                                                             "from sources")
             if (locator := _locator(row["format"])).sheet}  # a file with pages of its own (a PDF)
    with_source = "select r.*, s.title as source_title from rulings r join sources s on s.id = r.source"
    for row in list(db.query(with_source)):
        text, locator = paged.get(row["source"], (None, citations.LINES))
        pdf_page = text.count("\f", 0, row["char_start"]) + 1 if text is not None else None
        db["rulings"].update(row["id"], {
            "page_end": row["page"], "pdf_page": pdf_page,
            "citation": citations.short(row["source_title"], row["line_start"], row["line_end"], row["page"],
                                        row["page"], pdf_page, locator)})
    db.execute("""update ruling_history set (page_end, pdf_page, citation) = (
                    select page_end, pdf_page, citation from rulings r where r.id = ruling_history.ruling_id)
                  where exists (select 1 from source_versions v where v.source = ruling_history.source
                                and v.version = ruling_history.version and v.current)""")


def _record_editions(db: sqlite_utils.Database) -> None:
    """2 → 3: each source's one edition recorded (`source_versions`, its rows kept with it) and each ruling's
    text in it (`ruling_history`)."""
    schema.create(db)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    for source in db["sources"].rows:
        if db["source_versions"].count_where("source = ?", [source["id"]]):
            continue
        rows = _own_rows(db, source["id"])
        db["source_versions"].insert(version_row(source, rows, now, current=True))
        db["ruling_history"].insert_all(history_rows(source, rows["rulings"]))


def _own_rows(db: sqlite_utils.Database, source: str) -> dict[str, list[dict]]:
    """A source's rows as a changeset holds them (model.editions.OWN_TABLES)."""
    rulings = "(select id from rulings where source = :source)"
    tables = "(select id from rule_tables where source = :source)"
    queries = {"rulings": "select * from rulings where source = :source order by position",
               "examples": f"select * from examples where kind = 'source' and ruling_id in {rulings} order by rowid",
               "xrefs": f"select * from xrefs where from_id in {rulings} order by id",
               "gaps": "select * from gaps where source = :source order by id",
               "rule_tables": "select * from rule_tables where source = :source order by rowid",
               "rule_table_rows": f"select * from rule_table_rows where table_id in {tables} order by rowid",
               "spells": f"select * from spells where ruling_id in {rulings} order by rowid"}
    rows = {table: list(db.query(sql, {"source": source})) for table, sql in queries.items()}
    for row in rows["rulings"]:
        row.pop("status", None)  # derived at every write
    for table in ("xrefs", "gaps"):
        for row in rows[table]:
            row.pop("id", None)  # numbered as inserted
    return rows


def _rules_by_content(db: sqlite_utils.Database) -> None:
    """4 → 5: `ruling_redirects`, and each source with several editions given the ids of what its rulings say
    (kb.reidentify: editions used to be matched by number, so a renumbered rule took another rule's id); an
    id no ruling keeps redirects to its ruling's; `edition_embeddings` for their editions' passages."""
    from kb.reidentify import reidentify
    _complete_tables(db)
    sources = [row[0] for row in db.execute("select source from source_versions group by source having count(*) > 1")]
    for source in sources:
        reidentify(db, source)
    if sources:  # and the vectors of their editions' passages (edition_embeddings)
        record_statuses(db.conn)
        enable_search(db)


def _declare_formats(db: sqlite_utils.Database) -> None:
    """5 → 6: the `formats` table, a row for each format a stored edition was read in, as its reader declares
    it (ingest.formats), so that what reads the database asks it instead of testing a format's name."""
    _complete_tables(db)
    for (name,) in db.execute("select distinct format from source_versions").fetchall():
        if (found := _format(name)) is not None:
            db["formats"].upsert(found.row(), pk="name")


def _format(name: str):
    """The reader's format (ingest.formats.Format) a stored `format` names; None for one this release has no
    reader of (its citations keep naming lines; what reads it takes its text for the file)."""
    from ingest import formats
    try:
        return formats.named(name)
    except KeyError:
        return None


def _locator(name: str) -> citations.Locator:
    """How citations name the places of a document read as `name` (model.citation.Locator)."""
    found = _format(name)
    return found.locator if found is not None else citations.LINES


# (version, migration): the migration that brings a database of the version before to this one.
MIGRATIONS: tuple[tuple[int, Callable[[sqlite_utils.Database], None]], ...] = (
    (2, _complete_version_1), (3, _record_editions), (4, _cite_pages), (5, _rules_by_content),
    (6, _declare_formats))


def _path(db: sqlite_utils.Database) -> str:
    return db.conn.execute("pragma database_list").fetchone()[2]


def migrate(db: sqlite_utils.Database, name: str) -> list[int]:
    """Apply, in order, every migration past `db`'s version (`name` in messages); the versions reached.
    FileError for a database made by a newer release, or one that is not a rulings database."""
    found = schema.version(db.conn)
    if found == 0:
        raise FileError(name, "not a rulings database (no schema version); build one with `rulings ingest`")
    if found > schema.SCHEMA_VERSION:
        raise FileError(name, f"made by a newer release of rulings (schema version {found}; this one writes "
                              f"up to {schema.SCHEMA_VERSION}): upgrade rulings")
    reached = []
    for number, step in MIGRATIONS:
        if number > found:
            step(db)
            schema.set_version(db.conn, number)
            reached.append(number)
    if reached:
        log(db, f"migrate to schema {reached[-1]}")
    return reached


def upgrade(db_path: Path) -> list[int]:
    """Migrate the database file at `db_path` to this release's schema, atomically (nothing is written when it
    is already there); the versions reached."""
    db_path = Path(db_path)
    if up_to_date(db_path):
        return []
    with atomic_database(db_path, start_from=db_path) as db:
        return migrate(db, str(db_path))
