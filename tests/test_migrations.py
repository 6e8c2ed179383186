"""Schema migrations: a database of an older release opens and upgrades, every reader refuses a schema it does
not know with what to do, and migrating twice changes nothing."""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.migrations import upgrade
from kb.store import connect
from model import schema
from model.errors import FileError
from service.cli import cli

# The committed rulings.db as releases up to 2026-11-24 wrote it: schema version 1.
VERSION_1 = Path(__file__).parent / "fixtures" / "schema-v1.db"
QUESTION = "Can a reserve army double its magic?"


def rows(path: Path, table: str, without: tuple[str, ...] = (), where: str = "") -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        columns = [row[1] for row in conn.execute(f"pragma table_info([{table}])") if row[1] not in without]
        return conn.execute(f"select {', '.join(f'[{c}]' for c in columns)} from [{table}] {where} "
                            "order by rowid").fetchall()
    finally:
        conn.close()


def _columns(path: Path, table: str, names: tuple[str, ...], where: str = "") -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(f"select {', '.join(names)} from {table} {where} order by source, version").fetchall()
    finally:
        conn.close()


def _sources_of_version_1() -> str:
    """A where clause keeping the rows of the sources the version 1 database holds (a fresh build has more)."""
    ids = [row[0] for row in sqlite3.connect(VERSION_1).execute("select id from sources")]
    return f"where source in ({', '.join(repr(i) for i in ids)})"


@pytest.fixture
def old(tmp_path) -> Path:
    path = tmp_path / "old.db"
    shutil.copy(VERSION_1, path)
    return path


def test_a_reader_refuses_an_older_database_and_names_the_command_that_upgrades_it(old):
    with pytest.raises(schema.SchemaError, match=r"schema version 1 is older .* `rulings migrate --db"):
        connect(old)


# What migration 4 adds to a ruling: where its passage ends and its page in a PDF, and the citation by page.
PAGES = ("page_end", "pdf_page", "citation")
FLAT = "paths-of-the-lance-rules"  # its printed pages come only from reading the document again


def test_the_committed_version_1_database_upgrades_keeping_every_row(old):
    assert upgrade(old) == [2, 3, 4, 5, 6]
    conn = connect(old)
    assert schema.version(conn) == schema.SCHEMA_VERSION
    for table in ("sources", "rulings", "examples", "xrefs", "gaps", "rule_tables", "spells", "lexicon",
                  "embeddings", "verifications"):
        assert rows(old, table, without=PAGES) == rows(VERSION_1, table, without=PAGES), table
    log = conn.execute("select action, source from changesets").fetchall()
    assert [tuple(row) for row in log] == [("migrate to schema 6", "")]


def test_an_upgraded_database_keeps_what_its_formats_readers_declare_as_a_fresh_build_does(old, built_db):
    upgrade(old)
    sql = "select * from formats where name in (select format from source_versions) order by name"
    declared = sqlite3.connect(old).execute(sql).fetchall()
    assert [row[0] for row in declared] == ["text"]  # its sources are text files
    assert declared == [row for row in sqlite3.connect(built_db).execute(sql) if row[0] == "text"]


def test_an_upgraded_database_cites_pages_as_a_fresh_build_does(old, built_db):
    upgrade(old)
    sql = (f"select id, citation, page_end, pdf_page from rulings {_sources_of_version_1()} and source != '{FLAT}' "
           "order by id")
    assert sqlite3.connect(old).execute(sql).fetchall() == sqlite3.connect(built_db).execute(sql).fetchall()


def test_an_upgraded_database_records_each_source_edition_as_a_fresh_build_does(old, built_db):
    upgrade(old)
    # Refs aside: a migrated database keeps the refs it was built with until it is ingested again (issue 42 named
    # the prose documents' counts, "DT 1" → "DT Revealing A Room").
    unpaged = ("page", "ref", *PAGES)
    seeds = _sources_of_version_1()
    assert rows(old, "ruling_history", unpaged) == rows(built_db, "ruling_history", unpaged, seeds)
    sql = f"select ruling_id, citation from ruling_history {seeds} and source != '{FLAT}' order by ruling_id"
    assert sqlite3.connect(old).execute(sql).fetchall() == sqlite3.connect(built_db).execute(sql).fetchall()
    versions = ("source", "version", "effective", "current", "sha256", "rulings", "original_text")
    assert _columns(old, "source_versions", versions) == _columns(built_db, "source_versions", versions, seeds)


def test_migrating_an_up_to_date_database_writes_nothing(old):
    upgrade(old)
    before = old.read_bytes()
    assert upgrade(old) == []
    assert old.read_bytes() == before


def test_an_early_version_1_database_without_statuses_or_link_places_is_completed(old):
    conn = sqlite3.connect(old)
    for table, column in (("rulings", "status"), ("xrefs", "start"), ("xrefs", "end"), ("sources", "scope")):
        conn.execute(f"alter table {table} drop column [{column}]")
    conn.commit()
    conn.close()
    upgrade(old)
    assert rows(old, "rulings", without=PAGES) == rows(VERSION_1, "rulings", without=PAGES)  # statuses derived again
    assert {"start", "end"} <= {row[1] for row in sqlite3.connect(old).execute("pragma table_info(xrefs)")}


def test_a_database_from_before_refs_is_refused_with_what_to_do_and_left_untouched(old):
    conn = sqlite3.connect(old)
    conn.execute("drop index if exists idx_rulings_ref")
    conn.execute("alter table rulings drop column ref")
    conn.commit()
    conn.close()
    before = old.read_bytes()
    with pytest.raises(FileError, match="before rulings had refs: rebuild it with `rulings ingest`"):
        upgrade(old)
    assert old.read_bytes() == before
    assert sorted(p.name for p in old.parent.iterdir()) == ["old.db"]


def test_a_database_from_a_newer_release_is_refused_by_readers_and_writers(old):
    upgrade(old)
    conn = sqlite3.connect(old)
    schema.set_version(conn, schema.SCHEMA_VERSION + 1)
    conn.commit()
    conn.close()
    with pytest.raises(schema.SchemaError, match="newer release of rulings"):
        connect(old)
    with pytest.raises(FileError, match="newer release of rulings"):
        upgrade(old)
    result = CliRunner().invoke(cli, ["ask", QUESTION, "--db", str(old)])
    assert result.exit_code == 1 and "newer release of rulings" in result.output


def test_a_file_that_is_no_rulings_database_is_refused(tmp_path):
    path = tmp_path / "notes.db"
    sqlite3.connect(path).execute("create table notes (text)").connection.commit()
    with pytest.raises(schema.SchemaError, match="not a rulings database"):
        connect(path)
    result = CliRunner().invoke(cli, ["migrate", "--db", str(path)])
    assert result.exit_code == 1 and "not a rulings database" in result.output


def test_rulings_ask_upgrades_an_older_database_first_and_says_so(old):
    result = CliRunner().invoke(cli, ["ask", QUESTION, "--db", str(old)])
    assert result.exit_code == 0, result.output
    assert f"upgraded to schema version {schema.SCHEMA_VERSION}" in result.stderr
    assert "DD Magic" in result.stdout


def test_rulings_migrate_says_what_it_did(old):
    first = CliRunner().invoke(cli, ["migrate", "--db", str(old)])
    again = CliRunner().invoke(cli, ["migrate", "--db", str(old)])
    assert (first.exit_code, again.exit_code) == (0, 0)
    assert f"schema version {schema.SCHEMA_VERSION}" in first.output and "already up to date" in again.output


def test_a_new_database_records_this_release_schema(built_db):
    assert schema.version(sqlite3.connect(built_db)) == schema.SCHEMA_VERSION
