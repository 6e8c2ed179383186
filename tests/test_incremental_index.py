"""Adds and removes derive their own games only (issue 45): the full-text index follows `rulings` by triggers, the
lexicon and the vectors of the games a change touches are derived again, and what they hold then equals what a
whole derivation gives."""
import shutil
import sqlite3
from pathlib import Path

import pytest
import sqlite_utils

from kb.build import add_document, remove_source
from kb.lexicon import load_lexicon
from kb.query import fts_query
from kb.retrieval import fts_ranking
from kb.store import connect
from kb.writer import enable_search

ERRATA = ("1. MAGIC\n"
          "1.1. An army under Stoneskin (SS) keeps it when it moves to another terrain.\n"
          "1.2. Transmute Rock to Mud ends when its army leaves the terrain. See Stoneskin (SS).\n")
VARIANT = ("1. SETUP\n"
           "1.1. Each player takes a Dragon Horde (DH) of three dice.\n"
           "1.2. A Dragon Horde (DH) is never a reserve army.\n")
QUESTIONS = ("Does stoneskin stay when the army moves?", "reserve army magic doubled", "dragon horde setup dice")


def derived(path: Path) -> dict:
    """Everything search reads that a write derives: the full-text index's every token, BM25 rankings, the lexicon
    as search loads it, and the vectors."""
    conn = connect(path)
    conn.execute("create virtual table temp.tokens using fts5vocab(main, rulings_fts, instance)")
    found = {"tokens": sorted(tuple(row) for row in conn.execute("select term, doc, col, offset from temp.tokens")),
             "rankings": [fts_ranking(conn, fts_query(q), None, 50) for q in QUESTIONS],
             "lexicon": load_lexicon(conn),
             "vectors": sorted(tuple(row) for row in conn.execute(
                 "select ruling_id, kind, text, vector from embeddings")),
             "statuses": sorted(tuple(row) for row in conn.execute("select id, status from rulings"))}
    conn.close()
    return found


def rebuilt(path: Path, tmp_path: Path) -> dict:
    """`derived` of a copy of `path` whose index, lexicon and vectors are derived whole (the vectors reused)."""
    copy = tmp_path / "rebuilt.db"
    shutil.copy(path, copy)
    db = sqlite_utils.Database(copy)
    enable_search(db, path)
    db.conn.commit()
    db.close()
    return derived(copy)


@pytest.fixture
def library(built_db, tmp_path) -> Path:
    """A copy of the seeds (built by this release: with the triggers) with a document of a new game added, and one
    more to add to a game it holds."""
    path = tmp_path / "rulings.db"
    shutil.copy(built_db, path)
    for name, text in (("errata.txt", ERRATA), ("variant.txt", VARIANT)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    add_document(path, tmp_path / "variant.txt", "dragon-dice-variant")
    return path


def test_an_add_derives_what_a_whole_derivation_gives(library, tmp_path):
    add_document(library, tmp_path / "errata.txt", "dragon-dice")
    assert derived(library) == rebuilt(library, tmp_path)


def test_a_remove_derives_what_a_whole_derivation_gives(library, tmp_path):
    report = add_document(library, tmp_path / "errata.txt", "dragon-dice")
    remove_source(library, report["source"])
    assert derived(library) == rebuilt(library, tmp_path)
    remove_source(library, "dragon-dice-faq-magic")
    assert derived(library) == rebuilt(library, tmp_path)


def test_an_add_indexes_its_rulings_for_search(library, tmp_path):
    add_document(library, tmp_path / "errata.txt", "dragon-dice")
    conn = connect(library)
    ranked = [rid for rid, _ in fts_ranking(conn, fts_query("stoneskin terrain moves"), "dragon-dice", 5)]
    assert any(rid.startswith("dragon-dice/") and "1.1" in rid for rid in ranked)
    assert not conn.execute("select 1 from rulings r where r.game = 'dragon-dice' and r.id like '%1.1' and not exists "
                            "(select 1 from embeddings e where e.ruling_id = r.id)").fetchone()


def test_the_triggers_keep_the_index_to_the_indexed_columns(library):
    conn = sqlite3.connect(library)
    before = conn.execute("select count(*) from rulings_fts_data").fetchone()
    conn.execute("update rulings set status = 'failed'")
    assert conn.execute("select count(*) from rulings_fts_data").fetchone() == before
