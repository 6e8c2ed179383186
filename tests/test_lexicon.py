"""Acronyms, game names and labels are derived at build time and stored; asking only reads them."""
import shutil
import sqlite3

import pytest

from kb.build import add_document
from kb.lexicon import acronyms, game_aliases, labels, load_lexicon
from kb.search import ask
from kb.store import connect


def stored(db, kind: str, key: str) -> list[str]:
    return [v for (v,) in sqlite3.connect(db).execute(
        "select value from lexicon where kind = ? and key = ? order by id", [kind, key])]


@pytest.fixture
def copy(built_db, tmp_path):
    path = tmp_path / "rulings.db"
    shutil.copy(built_db, path)
    return path


def test_acronyms_game_names_and_labels_are_stored_at_build_time(built_db):
    assert stored(built_db, "acronym", "fod") == ["finger of death"]
    assert stored(built_db, "game", "dragons of glory") == ["paths-of-the-lance"]
    assert stored(built_db, "label", "stoneskin/b") == ["dragon-dice/magic/earth/stoneskin/b"]


def test_the_stored_lexicon_is_what_the_corpus_yields_in_the_same_order(conn):
    lexicon = load_lexicon(conn)
    assert list(lexicon.acronyms.items()) == list(acronyms(conn).items())
    assert list(lexicon.games.items()) == list(game_aliases(conn).items())
    assert list(lexicon.labels.items()) == list(labels(conn).items())


def test_shouted_words_are_not_acronyms(built_db):
    assert stored(built_db, "acronym", "never") == []


def test_asking_reads_the_stored_lexicon_rather_than_mining_the_corpus(copy):
    with sqlite3.connect(copy) as writer:
        writer.execute("insert into lexicon (id, kind, key, value) values (-1, 'acronym', 'zqx', 'stoneskin')")
    answer = ask(connect(copy), "ZQX?", mode="fts")
    assert answer["results"][0]["id"].startswith("dragon-dice/magic/earth/stoneskin")


def test_a_document_added_later_updates_the_lexicon(copy, tmp_path):
    document = tmp_path / "skirmish.txt"
    document.write_text("Skirmish FAQ\n\n"
                        "A) A Shield Wall protects the front rank. A SW cannot move.\n\n"
                        "B) Only one Shield Wall may stand in a hex; a second SW breaks.\n", encoding="utf-8")
    add_document(copy, document, "skirmish", "Skirmish FAQ")
    assert stored(copy, "acronym", "sw") == ["shield wall"]
    assert stored(copy, "game", "skirmish") == ["skirmish"]
    assert stored(copy, "acronym", "fod") == ["finger of death"]
