"""The rules in force on a date: a read-only connection on which each source reads as its edition in force then.

Each source with an edition in force on the date that is not its current one, and each source with no edition
yet, is swapped or dropped in TEMP tables that shadow the stored ones (SQLite reads `temp` first): `sources`,
`rulings` and their full-text index, `examples`, `xrefs`, `gaps` and the `ruling_status` view. The rows come
from the edition's own (`source_versions.rows`). The question's vector is compared with that edition's own passage
vectors (`edition_embeddings`, in `asof_vectors`) in place of its source's current ones.
"""
from __future__ import annotations

import sqlite3

from kb.cache import open_readonly
from model import schema, values
from model.editions import edition_rows, version_of
from model.refs import ref_key

# The tables an edition's rows shadow, with the column that ties a row to its source's rulings or the source.
_SHADOWED = {"rulings": "source", "examples": "ruling_id", "xrefs": "from_id", "gaps": "source"}


class BadDate(ValueError):
    """Not a date as YYYY-MM-DD."""


def in_force(conn: sqlite3.Connection, as_of: str) -> dict[str, dict | None]:
    """Source -> its edition in force on `as_of` (a `source_versions` row), for each source whose current edition
    was not: None for a source with no edition yet on that date. An edition without a date counts as in force
    since always."""
    if not values.is_day(as_of):
        raise BadDate(f"as of {as_of!r}: not a calendar date written YYYY-MM-DD (e.g. 2025-01-01)")
    found: dict[str, dict | None] = {}
    editions: dict[str, list[dict]] = {}
    for row in conn.execute("select * from source_versions order by source, effective, added_at"):
        editions.setdefault(row["source"], []).append(dict(row))
    for source, listed in editions.items():
        then = [e for e in listed if (e["effective"] or "") <= as_of]
        chosen = then[-1] if then else None
        if chosen is None or not chosen["current"]:
            found[source] = chosen
    return found


def connection(db_path: str, as_of: str) -> tuple[sqlite3.Connection, frozenset[str] | None]:
    """A read-only connection to the database at `db_path` on which every source reads as its edition in force
    on `as_of` (rows as sqlite3.Row, like kb.store.connect's), and the ids of the rulings it reads where they
    are not the stored current ones (None: every source's current edition was in force)."""
    conn = open_readonly(db_path)
    conn.row_factory = sqlite3.Row
    conn.execute("begin")  # its tables are copied, and read, from one version of the database
    schema.check(conn, db_path)
    swapped = in_force(conn, as_of)
    if not swapped:
        return conn, None
    marks = ",".join("?" * len(swapped))
    gone = list(swapped)
    rulings_of = f"(select id from main.rulings where source in ({marks}))"
    for table, column in _SHADOWED.items():
        owner = f"{column} in ({marks})" if column == "source" else f"{column} in {rulings_of}"
        conn.execute(f"create temp table {table} as select * from main.{table} where not ({owner})", gone)
    conn.execute(f"create temp table sources as select * from main.sources where id not in ({marks})", gone)
    for edition in filter(None, swapped.values()):
        rows = edition_rows(edition)
        source = rows["sources"][0]
        source["version"], source["date"] = version_of(source), edition["effective"]
        _insert(conn, "sources", [source])
        for table in _SHADOWED:
            _insert(conn, table, rows.get(table, []))
    conn.execute("create virtual table temp.rulings_fts using fts5(title, section, text, examples_text, "
                 "content='rulings', tokenize='porter')")
    conn.execute("insert into temp.rulings_fts (rulings_fts) values ('rebuild')")
    conn.execute(f"create temp view ruling_status as {schema.RULING_STATUS}")
    # The question is compared with each swapped edition's own passages (kb.retrieval.dense_ranking).
    conn.execute("create temp table asof_sources (source text)")
    conn.executemany("insert into temp.asof_sources values (?)", [[source] for source in swapped])
    conn.execute("create temp table asof_vectors as select ruling_id, vector from main.edition_embeddings where 0")
    for source, edition in swapped.items():
        if edition is not None:
            conn.execute("insert into temp.asof_vectors select ruling_id, vector from main.edition_embeddings "
                         "where source = ? and version = ? order by id", [source, edition["version"]])
    return conn, frozenset(row[0] for row in conn.execute("select id from rulings"))


def _insert(conn: sqlite3.Connection, table: str, rows: list[dict]) -> None:
    """Rows into a temp table, by the columns it has."""
    columns = [row[1] for row in conn.execute(f"pragma temp.table_info({table})")]
    conn.executemany(f"insert into temp.{table} ({', '.join(columns)}) values ({', '.join('?' * len(columns))})",
                     [[row.get(column) for column in columns] for row in rows])



def ref_hit(conn: sqlite3.Connection, question: str) -> str | None:
    """The ruling a question that is a ref names among the rulings this connection reads (a ref the current
    editions no longer have included), or None."""
    key = ref_key(question)
    return next((rid for rid, ref in conn.execute("select id, ref from rulings where ref is not null")
                 if ref_key(ref) == key), None)
