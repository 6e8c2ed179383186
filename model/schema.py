"""The database's schema: every table with its columns, keys and indexes, the version number a database
records, and the check every reader makes before it reads (kb.migrations brings older databases up to it).

Version 1 is what every release up to 2026-11-24 wrote (its columns grew without the number changing);
version 2 adds the `changesets` log, declares the derived `lexicon` and `embeddings` tables here, and indexes
what removing a source looks up; version 3 keeps every edition of a source (`source_versions`) and every
ruling's text in each (`ruling_history`); version 4 keeps the original file of a PDF (`originals`) and cites
pages as a reader finds them (`page_end`, `pdf_page`); version 5 gives a source's rulings the ids of what they
say across its editions (kb.reidentify), keeps the ids no ruling has any more (`ruling_redirects`) and the
vectors of every edition's passages (`edition_embeddings`); version 6 keeps what the reader of each format
stored declares (`formats`), so that what reads the database never tests a format's name.
"""
from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # only an annotation: importing sqlite-utils costs a reader's cold start 0.4 s
    import sqlite_utils

SCHEMA_VERSION = 6


class Table(NamedTuple):
    columns: dict[str, type]
    pk: str | tuple[str, ...]
    foreign_keys: tuple[tuple[str, str, str], ...] = ()


TABLES: dict[str, Table] = {
    "meta": Table({"key": str, "value": str}, "key"),
    "games": Table({"slug": str, "name": str, "publisher": str}, "slug"),
    # What the reader of each format a source was read in declares (ingest.formats), keyed by sources.format:
    # what the file is called ("PDF"), whether the file is kept as it came (`originals`: its text is not the
    # file), and how citations name its places (model.citation.Locator: line, lines, sheet, sheet_link).
    "formats": Table({"name": str, "label": str, "file_kept": int, "line": str, "lines": str, "sheet": str,
                      "sheet_link": str}, "name"),
    "sources": Table({
        "id": str, "game": str, "title": str, "author": str, "version": str, "date": str, "kind": str,
        # abbrev starts its rulings' refs; scope is what the document covers, where its manifest entry says.
        "abbrev": str, "scope": str, "language": str, "file": str, "format": str, "shape": str, "lines": str,
        "sha256": str, "rulings": int, "original_text": str, "cleaned_text": str, "first_line": int,
        # JSON, one entry per line of original_text: the number citations give it (null: none shown).
        "line_numbers": str,
    }, "id", (("game", "games", "slug"),)),
    "rulings": Table({
        "id": str, "game": str, "source": str, "section": str, "label": str, "title": str, "text": str,
        "kind": str, "position": int, "line_start": int, "line_end": int, "char_start": int, "char_end": int,
        "file_line_start": int, "file_line_end": int, "page": int, "page_end": int, "pdf_page": int, "parent": str,
        "citation": str,
        "examples_text": str, "ref": str,
        "status": str,  # a copy of ruling_status.status (kb.verify.record_statuses), for Datasette's facets
    }, "id", (("game", "games", "slug"), ("source", "sources", "id"), ("parent", "rulings", "id"))),
    # kind "source": an example printed in the source; kind "scenario": an executable example
    # (sources/examples/<game>.toml) with the engine call, its inputs and the expected result as JSON.
    "examples": Table({
        "id": str, "ruling_id": str, "label": str, "kind": str, "text": str, "line_start": int, "line_end": int,
        "char_start": int, "char_end": int, "file_line_start": int, "file_line_end": int, "page": int,
        "page_end": int, "pdf_page": int, "call": str, "inputs": str, "expected": str, "encodes": str,
    }, "id", (("ruling_id", "rulings", "id"),)),
    # Rulings that state nothing an engine can check, and why (history, credits, deck-building policy...).
    "unexecutable": Table({"ruling_id": str, "reason": str}, "ruling_id", (("ruling_id", "rulings", "id"),)),
    # Written by `rulings verify`, not by ingest: the last result of each scenario's test.
    "verifications": Table({"test_id": str, "ruling_id": str, "status": str, "actual": str, "detail": str,
                            "ran_at": str}, "test_id",
                           (("test_id", "examples", "id"), ("ruling_id", "rulings", "id"))),
    # kind: see, number, name or related; start and end: where the target stands in the referring ruling's text.
    "xrefs": Table({"id": int, "from_id": str, "text": str, "target": str, "to_id": str, "kind": str,
                    "start": int, "end": int}, "id", (("from_id", "rulings", "id"), ("to_id", "rulings", "id"))),
    "gaps": Table({"id": int, "source": str, "kind": str, "description": str, "line": int}, "id",
                  (("source", "sources", "id"),)),
    "rule_tables": Table({
        "id": str, "source": str, "ruling_id": str, "name": str, "columns": str, "line_start": int,
        "line_end": int, "char_start": int, "char_end": int, "file_line_start": int, "file_line_end": int,
        "page": int, "page_end": int, "pdf_page": int,
    }, "id", (("source", "sources", "id"), ("ruling_id", "rulings", "id"))),
    "rule_table_rows": Table({"table_id": str, "row": int, "cells": str}, ("table_id", "row"),
                             (("table_id", "rule_tables", "id"),)),
    "spells": Table({"id": str, "ruling_id": str, "game": str, "name": str, "type": str, "pattern": str,
                     "effect": str}, "id", (("ruling_id", "rulings", "id"),)),
    # Derived from the rulings at every write (kb.lexicon): acronyms, game names, labels, terms and refs.
    "lexicon": Table({"id": int, "kind": str, "key": str, "value": str}, "id"),
    # Derived at every write (kb.embeddings): a vector per passage of a ruling, example, spell or table.
    "embeddings": Table({"id": int, "ruling_id": str, "kind": str, "text": str, "vector": bytes}, "id",
                        (("ruling_id", "rulings", "id"),)),
    # Derived at every write (kb.embeddings): the vectors of the passages of every edition that is not current,
    # so that a question asked as of a date is compared with that edition's own text (kb.asof).
    "edition_embeddings": Table({"id": int, "source": str, "version": str, "ruling_id": str, "kind": str,
                                 "text": str, "vector": bytes}, "id"),
    # Every edition of a source, the current one (what `sources` and `rulings` hold) marked: its version and the
    # date it took effect, its file and text (citations of its rulings index into original_text), and `rows`,
    # the JSON of every row it gave (model.changeset.TABLES), from which it becomes current again when a newer
    # edition is removed.
    "source_versions": Table({
        "source": str, "version": str, "effective": str, "current": int, "title": str, "file": str, "format": str,
        "sha256": str, "rulings": int, "added_at": str, "original_text": str, "cleaned_text": str,
        "first_line": int, "line_numbers": str, "rows": str,
    }, ("source", "version"), (("source", "sources", "id"),)),
    # Each ruling as each edition of its source gives it (a ruling keeps its id across editions): a ruling
    # added, changed or removed in an edition is told by comparing it with the edition before.
    "ruling_history": Table({
        "ruling_id": str, "source": str, "version": str, "effective": str, "ref": str, "label": str, "title": str,
        "section": str, "kind": str, "text": str, "line_start": int, "line_end": int, "char_start": int,
        "char_end": int, "page": int, "page_end": int, "pdf_page": int, "citation": str,
    }, ("ruling_id", "version"), (("source", "sources", "id"),)),
    # The file of each edition whose text is not the file itself (a PDF), served as it came for citations to
    # open at their page; a text document's original is source_versions.original_text.
    "originals": Table({"source": str, "version": str, "file": str, "media_type": str, "content": bytes},
                       ("source", "version"), (("source", "sources", "id"),)),
    # An id no ruling has any more (its ruling's lineage across editions has another: kb.reidentify) and the id
    # of that ruling, so that a permalink keeps working.
    "ruling_redirects": Table({"old_id": str, "new_id": str}, "old_id"),
    # Every change applied to the database, in order: a build, a document added or a source removed.
    "changesets": Table({"id": int, "action": str, "source": str, "applied_at": str, "rulings_added": int,
                         "rulings_removed": int}, "id"),
}
INDEXES = (("rulings", ("game",)), ("rulings", ("source",)), ("examples", ("ruling_id",)),
           ("verifications", ("ruling_id",)), ("xrefs", ("from_id",)), ("xrefs", ("to_id",)), ("gaps", ("source",)),
           ("rule_tables", ("source",)), ("spells", ("ruling_id",)), ("embeddings", ("ruling_id",)),
           ("ruling_history", ("source", "version")), ("edition_embeddings", ("source", "version")),
           ("lexicon", ("kind", "key")))
UNIQUE_INDEXES = (("rulings", ("ref",)),)
RULING_STATUS = """
    select r.id as ruling_id, r.game,
      case when exists (select 1 from verifications v where v.ruling_id = r.id and v.status != 'passed')
             then 'failed'
           when exists (select 1 from verifications v where v.ruling_id = r.id) then 'passed'
           when exists (select 1 from examples e where e.ruling_id = r.id and e.kind = 'scenario')
             then 'not-run'
           when u.ruling_id is not null then 'not-executable'
           else 'unlinked' end as status,
      u.reason as reason,
      (select count(*) from examples e where e.ruling_id = r.id and e.kind = 'scenario') as tests
    from rulings r left join unexecutable u on u.ruling_id = r.id"""


class SchemaError(RuntimeError):
    """The database's schema is not the one this release reads."""


def create(db: sqlite_utils.Database) -> None:
    """Create every table (empty) with its keys, foreign keys, indexes and views, and record the version. Tables
    and indexes that exist are left as they are."""
    for name, table in TABLES.items():
        db[name].create(table.columns, pk=table.pk, foreign_keys=list(table.foreign_keys), if_not_exists=True)
    for name, columns in INDEXES:
        db[name].create_index(list(columns), if_not_exists=True)
    for name, columns in UNIQUE_INDEXES:
        db[name].create_index(list(columns), unique=True, if_not_exists=True)
    db.create_view("ruling_status", RULING_STATUS, ignore=True)
    set_version(db.conn, SCHEMA_VERSION)


def version(conn: sqlite3.Connection) -> int:
    """The schema version the database records (0: none, not a rulings database)."""
    try:
        row = conn.execute("select value from meta where key = 'schema_version'").fetchone()
    except sqlite3.DatabaseError:
        return 0
    return int(row[0]) if row and str(row[0]).isdigit() else 0


def set_version(conn: sqlite3.Connection, number: int) -> None:
    conn.execute("insert or replace into meta (key, value) values ('schema_version', ?)", [str(number)])


def check(conn: sqlite3.Connection, name: str) -> None:
    """Raise SchemaError, with what to do, unless the database (`name` in messages) has this release's schema."""
    found = version(conn)
    if found > SCHEMA_VERSION:
        raise SchemaError(f"{name}: made by a newer release of rulings (schema version {found}; this one reads "
                          f"up to {SCHEMA_VERSION}): upgrade rulings to read it")
    if found == 0:
        raise SchemaError(f"{name}: not a rulings database (no schema version); build one with `rulings ingest`")
    if found < SCHEMA_VERSION:
        raise SchemaError(f"{name}: schema version {found} is older than this release's {SCHEMA_VERSION}: "
                          f"run `rulings migrate --db {name}` to upgrade it")
