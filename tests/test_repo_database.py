"""The committed rulings.db is exactly what `rulings ingest` builds from the committed sources."""
import sqlite3
from array import array

import pytest

from support import REPO_DB

# Written by `rulings verify`, not by ingest: a table, and columns of other tables; and when each change was
# applied, which no two ingests share.
NOT_FROM_INGEST = {"verifications"}
VERIFIED_COLUMNS = {"rulings": {"status"}, "changesets": {"applied_at"}, "source_versions": {"added_at"}}
# Rows each write sets anew: the id of the version it made (kb.cache.WRITE_ID), which no two writes share.
EVERY_WRITE_ROWS = {"meta": "key != 'write_id'"}


def columns(conn, table: str) -> str:
    """The table's columns, less those `rulings verify` writes, as a select list."""
    names = [r[1] for r in conn.execute(f"pragma table_info([{table}])")]
    return ", ".join(f"[{n}]" for n in names if n not in VERIFIED_COLUMNS.get(table, set()))


def tables(conn):
    return [r[0] for r in conn.execute(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' "
        "and name not like '%_fts%' order by name")]


def same_value(a, b) -> bool:
    if isinstance(a, bytes) and isinstance(b, bytes) and len(a) == len(b) and len(a) % 4 == 0:
        left, right = array("f", a), array("f", b)
        return all(abs(x - y) < 1e-5 for x, y in zip(left, right))  # float vectors: allow CPU rounding noise
    return a == b


@pytest.mark.slow
def test_committed_database_equals_a_fresh_ingest(fresh_build):
    # Built from nothing: every passage embedded anew (the session's built_db reuses the committed vectors).
    committed, fresh = sqlite3.connect(REPO_DB), sqlite3.connect(fresh_build[0])
    assert tables(committed) == tables(fresh)
    for table in tables(fresh):
        if table in NOT_FROM_INGEST:
            continue
        kept = EVERY_WRITE_ROWS.get(table, "1")
        left = committed.execute(f"select {columns(committed, table)} from [{table}] where {kept} order by 1, 2").fetchall()
        right = fresh.execute(f"select {columns(fresh, table)} from [{table}] where {kept} order by 1, 2").fetchall()
        assert len(left) == len(right), f"{table}: run `make ingest` and commit rulings.db"
        for row_a, row_b in zip(left, right):
            assert all(same_value(a, b) for a, b in zip(row_a, row_b)), \
                f"{table} differs at {row_a[:2]}: run `make ingest` and commit rulings.db"


def test_committed_database_has_full_text_search(built_db):
    conn = sqlite3.connect(REPO_DB)
    hits = conn.execute("select count(*) from rulings_fts where rulings_fts match 'stoneskin'").fetchone()[0]
    assert hits >= 3
