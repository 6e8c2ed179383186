"""Reading rulings.db: connections and the lookups every consumer (CLI, search, web) shares."""
from __future__ import annotations

import sqlite3
from functools import cache
from pathlib import Path

from kb.locks import clear_stale
from kb.cache import open_readonly
from kb.paths import DEFAULT_DB
from model import schema


class UnknownRuling(LookupError):
    """No ruling has this id."""


class DatabaseMissing(FileNotFoundError):
    """The database file does not exist (run `rulings ingest`)."""


def require(db_path: Path | str) -> Path:
    """The database's path; DatabaseMissing, naming the fix, if there is no file there."""
    path = Path(db_path)
    if not path.exists():
        raise DatabaseMissing(f"{path}: database not found; run `rulings ingest` first, or name another with "
                              f"--db or the RULINGS_DB environment variable")
    return path


def connect(db_path: Path | str = DEFAULT_DB) -> sqlite3.Connection:
    """Open the database read-only (every write is kb.atomic's), rows as sqlite3.Row; SchemaError, saying what
    to do, unless its schema is this release's. What is read together must be read inside one transaction
    (kb.cache.reading) to be of one version: an add or a remove commits between two reads outside one. A
    process's first connection to a file removes what a killed writer left beside it, unless a writer is
    running (and kb.cache.open_readonly rolls back a write a killed writer left half done)."""
    path = require(db_path)
    _tidy(path.resolve())
    conn = open_readonly(path)
    try:
        schema.check(conn, str(path))
    except schema.SchemaError:
        conn.close()
        raise
    conn.row_factory = sqlite3.Row
    return conn


def up_to_date(db_path: Path | str) -> bool:
    """Whether the database file at `db_path` records this release's schema: a read command on such a file need not
    import the migrations and the writers they call (half a second of a cold `rulings ask`)."""
    conn = open_readonly(db_path)
    try:
        return schema.version(conn) == schema.SCHEMA_VERSION
    finally:
        conn.close()


@cache
def _tidy(path: Path) -> None:
    clear_stale(path)


def dicts(conn: sqlite3.Connection, sql: str, params=()) -> list[dict]:
    """The rows a query returns, as dicts."""
    return [dict(row) for row in conn.execute(sql, params)]


def one(conn: sqlite3.Connection, sql: str, params=()) -> dict | None:
    """The first row a query returns, as a dict, or None."""
    row = conn.execute(sql, params).fetchone()
    return dict(row) if row else None


def examples_of(conn: sqlite3.Connection, ruling_ids: list[str]) -> dict[str, list[str]]:
    """The example texts of each ruling, in order."""
    if not ruling_ids:
        return {}
    marks = ",".join("?" * len(ruling_ids))
    found: dict[str, list[str]] = {rid: [] for rid in ruling_ids}
    for row in conn.execute(f"select ruling_id, text from examples where ruling_id in ({marks}) "
                            f"and kind = 'source' order by rowid", ruling_ids):
        found[row["ruling_id"]].append(row["text"])
    return found


def games(conn: sqlite3.Connection) -> list[dict]:
    """Every game with its number of rulings."""
    return dicts(conn, "select g.slug, g.name, g.publisher, count(r.id) as rulings from games g "
                       "left join rulings r on r.game = g.slug group by g.slug order by g.name")


def game(conn: sqlite3.Connection, slug: str) -> dict | None:
    """One game with its sources, or None."""
    found = one(conn, "select * from games where slug = ?", [slug])
    if found:
        found["sources"] = dicts(conn, "select id, title, kind, scope, abbrev, author, version, date, rulings "
                                       "from sources where game = ? order by title", [slug])
    return found


def gaps(conn: sqlite3.Connection, source_id: str) -> list[dict]:
    """What a source promises but lacks, in document order."""
    return dicts(conn, "select * from gaps where source = ? order by line, id", [source_id])


def original(conn: sqlite3.Connection, source_id: str, version: str | None = None) -> dict | None:
    """A source's document as it came, for one edition (`version`; default the current one): `{"file",
    "media_type", "content" (bytes), "version", "sha256", "as_file"}` (the hash of the edition's document).
    Where its format's reader keeps the file (`formats.file_kept`: a PDF, a Word file) it is that file as it
    came (`originals`, `as_file` true); else the document's text (text/plain, in UTF-8). None for no such source
    or edition, or a file the database does not keep (one added before release 4 kept files)."""
    edition = one(conn, "select v.version, v.file, v.original_text, v.sha256, coalesce(f.file_kept, 0) as file_kept "
                        "from source_versions v left join formats f on f.name = v.format "
                        "where v.source = ? and (v.version = ? or (? is null and v.current))",
                  [source_id, version, version])
    if edition is None:
        return None
    kept = one(conn, "select file, media_type, content from originals where source = ? and version = ?",
               [source_id, edition["version"]])
    if kept:
        return {**kept, "version": edition["version"], "sha256": edition["sha256"], "as_file": True}
    if edition["file_kept"]:
        return None
    return {"file": edition["file"], "media_type": "text/plain", "version": edition["version"],
            "sha256": edition["sha256"], "content": edition["original_text"].encode("utf-8"), "as_file": False}


# SQL: whether the database keeps the file of source `s`'s current edition (`originals`, by the version
# model.editions.version_of names it).
FILE_KEPT = ("exists (select 1 from originals o where o.source = s.id and o.version = "
             "coalesce(nullif(s.version, ''), nullif(s.date, ''), '1'))")


# SQL: how citations name the places of source `s` and what its file is called, as its format's reader declared
# them (the `formats` table, joined as `f`; model.citation.Locator.of reads the `format_` columns).
FORMAT_COLUMNS = ("f.label as format_label, coalesce(f.file_kept, 0) as format_file_kept, f.line as format_line, "
                  "f.lines as format_lines, f.sheet as format_sheet, f.sheet_link as format_sheet_link")
WITH_FORMAT = "left join formats f on f.name = s.format"


def source(conn: sqlite3.Connection, source_id: str) -> dict | None:
    """One source with its text, game name, whether its original document is kept (`original_kept`: its text,
    or its file where its reader keeps the file), what its format declares (FORMAT_COLUMNS), rulings (id, label,
    title, lines, first character) and gaps, or None."""
    found = one(conn, f"select s.*, g.name as game_name, {FORMAT_COLUMNS}, "
                      f"(not coalesce(f.file_kept, 0) or {FILE_KEPT}) as original_kept "
                      f"from sources s join games g on g.slug = s.game {WITH_FORMAT} where s.id = ?", [source_id])
    if found:
        found["rulings_list"] = dicts(conn, "select id, label, title, line_start, line_end, char_start "
                                            "from rulings where source = ? order by position", [source_id])
        found["gaps"] = gaps(conn, source_id)
    return found
