"""`rulings remove SOURCE`: a source goes atomically with everything that is its own, leaving the database as
if it had never been added."""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.build import add_document, remove_source
from model.errors import FileError
from service.cli import cli

ERRATA = ("Dragon Dice errata\n\n"
          "1. An army under Stoneskin keeps it when it moves to another terrain.\n\n"
          "2. Transmute Rock to Mud ends when its army leaves the terrain.\n")
# Tables whose every row a source's removal must restore; the log of changes and build facts aside.
CONTENT = ("games", "sources", "rulings", "examples", "xrefs", "gaps", "rule_tables", "rule_table_rows", "spells",
           "unexecutable", "verifications", "lexicon", "embeddings", "rulings_fts")


# Derived rows' own numbers say only when they were derived: an add or a remove derives its games' rows anew.
DERIVED = {"lexicon": "kind, key, value", "embeddings": "ruling_id, kind, text, vector"}


def content(path: Path) -> dict[str, list[tuple]]:
    conn = sqlite3.connect(path)
    try:
        return {table: sorted(conn.execute(f"select {DERIVED.get(table, '*')} from [{table}]").fetchall(), key=repr)
                for table in CONTENT}
    finally:
        conn.close()


@pytest.fixture
def seeds(built_db, tmp_path) -> Path:
    path = tmp_path / "rulings.db"
    shutil.copy(built_db, path)
    (tmp_path / "errata.txt").write_text(ERRATA, encoding="utf-8")
    return path


def test_removing_an_added_document_restores_every_row_of_the_database(seeds):
    before = content(seeds)
    report = add_document(seeds, seeds.parent / "errata.txt", "dragon-dice")
    added = content(seeds)
    names = [row for row in added["xrefs"] if row[5] == "name" and row not in before["xrefs"]]
    assert names, "the errata's spell names should link to the FAQ's rulings"
    removed = remove_source(seeds, report["source"])
    assert removed == {"source": report["source"], "title": report["title"], "game": "dragon-dice", "version": None,
                       "current": None,
                       "rulings": report["rulings"]}
    assert content(seeds) == before


def test_removing_the_last_source_of_a_game_removes_the_game(seeds):
    report = add_document(seeds, seeds.parent / "errata.txt", "dragon-dice-variant")
    remove_source(seeds, report["source"])
    games = [slug for (slug,) in sqlite3.connect(seeds).execute("select slug from games")]
    assert "dragon-dice-variant" not in games and "dragon-dice" in games


def test_every_change_is_logged_in_order(seeds):
    report = add_document(seeds, seeds.parent / "errata.txt", "dragon-dice")
    remove_source(seeds, report["source"])
    log = sqlite3.connect(seeds).execute("select action, source, rulings_added, rulings_removed from changesets "
                                         "order by id").fetchall()
    assert [row[0] for row in log] == ["build", "add", "remove"]
    assert log[1:] == [("add", report["source"], report["rulings"], 0),
                       ("remove", report["source"], 0, report["rulings"])]


def test_an_unknown_source_is_refused_naming_the_sources_and_the_database_is_untouched(seeds):
    before = seeds.read_bytes()
    with pytest.raises(FileError, match=r"no source 'errata' \(sources: dragon-dice-faq-magic, "):
        remove_source(seeds, "errata")
    assert seeds.read_bytes() == before
    assert sorted(p.name for p in seeds.parent.iterdir()) == ["errata.txt", "rulings.db"]


def test_rulings_remove_says_what_went(seeds):
    report = add_document(seeds, seeds.parent / "errata.txt", "dragon-dice")
    result = CliRunner().invoke(cli, ["remove", report["source"], "--db", str(seeds)])
    assert result.exit_code == 0, result.output
    assert result.output == (f"Removed {report['title']!r} ({report['source']}, dragon-dice): "
                             f"{report['rulings']} rulings\n")
    again = CliRunner().invoke(cli, ["remove", report["source"], "--db", str(seeds), "--json"])
    assert again.exit_code == 1 and f"no source {report['source']!r}" in again.output


def test_rulings_remove_json_lists_what_went(seeds):
    report = add_document(seeds, seeds.parent / "errata.txt", "dragon-dice")
    result = CliRunner().invoke(cli, ["remove", report["source"], "--db", str(seeds), "--json"])
    assert json.loads(result.output)["rulings"] == report["rulings"]
