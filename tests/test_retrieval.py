"""The two retrievers: BM25 over the full-text index and the best cosine over each ruling's stored passages."""
import shutil

import numpy as np
import pytest

from kb.atomic import in_place
from kb.onnx_embedder import embedder
from kb.query import fts_query
from kb.retrieval import dense_ranking, fts_ranking, passages
from kb.store import connect


def test_full_text_ranking_puts_the_ruling_using_the_words_first(conn):
    ranked = fts_ranking(conn, fts_query("stoneskin"), None, 10)
    assert ranked[0][0].startswith("dragon-dice/magic/earth/stoneskin")
    scores = [score for _, score in ranked]
    assert scores == sorted(scores, reverse=True) and scores[-1] > 0


def test_full_text_ranking_keeps_to_a_game_and_a_limit(conn):
    ranked = fts_ranking(conn, fts_query("magic"), "wizard-dice", 3)
    assert len(ranked) == 3 and all(rid.startswith("wizard-dice/") for rid, _ in ranked)


def test_a_question_without_content_words_finds_nothing_by_full_text(conn):
    assert fts_ranking(conn, fts_query("Is it?"), None, 10) == []


def test_dense_ranking_scores_each_ruling_by_its_best_passage(conn):
    vector = embedder().embed("the bigger cure spell")
    ranked = dense_ranking(conn, vector, None, 5)
    assert len({rid for rid, _ in ranked}) == len(ranked) == 5
    best_id, best = ranked[0]
    stored = [np.frombuffer(v, dtype=np.float32) for (v,) in
              conn.execute("select vector from embeddings where ruling_id = ?", [best_id])]
    assert abs(best - max(float(v @ vector) for v in stored)) < 1e-6
    assert [score for _, score in ranked] == sorted((score for _, score in ranked), reverse=True)


def test_dense_ranking_keeps_to_a_game(conn):
    ranked = dense_ranking(conn, embedder().embed("the bigger cure spell"), "dungeon-twister", 50)
    assert ranked and all(rid.startswith("dungeon-twister/") for rid, _ in ranked)


def test_passages_are_loaded_once_per_version_of_the_database(built_db, tmp_path):
    copy = tmp_path / "rulings.db"
    shutil.copy(built_db, copy)
    first = passages(connect(copy))
    assert passages(connect(copy)) is first
    with in_place(copy) as db:  # a write, in place: the same file, a new version
        db.execute("delete from embeddings where id > (select min(e.id) from embeddings e "
                   "join rulings r on r.id = e.ruling_id where r.kind != 'title')")
    assert len(passages(connect(copy)).rulings) == 1


@pytest.mark.parametrize("candidates", [1, 4])
def test_a_library_past_the_compact_size_ranks_by_meaning_as_the_exact_scan_does(conn, monkeypatch, candidates):
    import kb.retrieval

    questions = ["the bigger cure spell", "Can a knight jump over pieces?", "what happens when the deck runs out",
                 "Does a stunned character lose its turn?"]
    vectors = [embedder().embed(question) for question in questions]
    exact = [dense_ranking(conn, vector, None, limit) for vector in vectors for limit in (5, 50)]
    # Few candidates from the int8 scan, so that the bound must bring in the rest.
    monkeypatch.setattr(kb.retrieval, "COMPACT_FROM", 0)
    monkeypatch.setattr(kb.retrieval, "COMPACT_CANDIDATES", candidates)
    assert [dense_ranking(conn, vector, None, limit) for vector in vectors for limit in (5, 50)] == exact
