"""Full text at scale (issue 45): a question is ranked from its phrases' matches kept in memory, a game's from the
slices of them in its runs of rowids, and every ranking equals the one FTS5 gave by scoring every game's matches
(tests/support/fts_reference)."""
import json
from pathlib import Path

from support.fts_reference import reference_fts_ranking

from kb.lexicon import load_lexicon
from kb.query import fts_query, without_game_name
from kb import retrieval
from kb.retrieval import fts_ranking, game_runs, phrases_matched
from kb.store import connect

QUESTIONS = Path(__file__).parent / "dev_questions.jsonl"
# A second document of a game already stored: its rulings come after every other game's, in a run of their own.
SECOND_DOCUMENT = ("1. MAGIC\n"
                   "1.1. A magic action may be taken by any army, including a reserve army.\n"
                   "1.2. Doubled magic points count once for each die that rolled the magic icon.\n")


def test_every_full_text_ranking_equals_the_one_that_scored_every_game(seeds_plus):
    conn = connect(seeds_plus("dragon-dice", SECOND_DOCUMENT))
    assert len(game_runs(conn)["dragon-dice"]) == 2
    lexicon = load_lexicon(conn)
    games = [None, *game_runs(conn)]
    for line in QUESTIONS.read_text(encoding="utf-8").splitlines():
        question = json.loads(line)["question"]
        for game in games:
            query = fts_query(without_game_name(question, lexicon.games, game) or question, lexicon.acronyms)
            for limit in (5, 50):
                assert fts_ranking(conn, query, game, limit) == reference_fts_ranking(conn, query, game, limit), \
                    (question, game, limit)


def test_a_game_scoped_ranking_finds_the_rulings_of_each_of_its_documents(seeds_plus):
    conn = connect(seeds_plus("dragon-dice", SECOND_DOCUMENT))
    ranked = [rid for rid, _ in fts_ranking(conn, fts_query("doubled magic points reserve army"), "dragon-dice", 50)]
    sources = {conn.execute("select source from rulings where id = ?", [rid]).fetchone()[0] for rid in ranked}
    assert len(sources) >= 2 and all(rid.startswith("dragon-dice/") for rid in ranked)


def test_a_question_ranks_the_same_when_its_kept_matches_start_again(conn, monkeypatch):
    monkeypatch.setattr(retrieval, "POSTINGS_MEMO", 1)  # every phrase read past the budget drops every other
    for question in ("Can a reserve army double its magic?", "stoneskin terrain moves", "Is it?"):
        query = fts_query(question)
        for game in (None, "dragon-dice", "chess"):
            assert fts_ranking(conn, query, game, 50) == reference_fts_ranking(conn, query, game, 50), (question, game)


def test_past_the_budget_the_phrases_used_least_recently_are_dropped(conn, monkeypatch):
    held = retrieval.postings(conn)
    sizes = {phrase: len(retrieval._phrase(conn, held, phrase)[0]) for phrase in ('"magic"', '"army"', '"terrain"')}
    held.phrases.clear()
    held.held = 0
    monkeypatch.setattr(retrieval, "POSTINGS_MEMO", sizes['"magic"'] + sizes['"army"'] + sizes['"terrain"'] - 1)
    for phrase in ('"magic"', '"army"', '"magic"', '"terrain"'):  # "army" is then the one used least recently
        retrieval._phrase(conn, held, phrase)
    assert list(held.phrases) == ['"magic"', '"terrain"'] and held.dropped >= 1
    assert held.held == sizes['"magic"'] + sizes['"terrain"']


def test_a_full_text_query_of_any_other_form_ranks_as_fts5_ranks_it(conn):
    for query in ('"reserve" AND "magic"', "stoneskin*", '"double" OR magic'):
        for game in (None, "dragon-dice"):
            assert fts_ranking(conn, query, game, 20) == reference_fts_ranking(conn, query, game, 20), (query, game)


def test_a_game_the_library_does_not_hold_has_no_full_text_ranking(conn):
    assert fts_ranking(conn, fts_query("Can a reserve army double its magic?"), "no-such-game", 50) == []


def test_the_phrases_a_ruling_matches_from_the_kept_matches_are_those_fts5_matches(conn):
    phrases = ['"reserve"', '"magic"', '"army"', '"stoneskin"', '"castle"', '"zzzunused"']
    sql = "select count(*) from rulings_fts where rulings_fts match ? and rowid = ?"
    rulings = conn.execute("select rowid, id from rulings where rowid % 7 = 0").fetchall()
    assert rulings
    for rowid, ruling_id in rulings:
        assert phrases_matched(conn, phrases, ruling_id) == [
            bool(conn.execute(sql, [phrase, rowid]).fetchone()[0]) for phrase in phrases], ruling_id
    assert phrases_matched(conn, phrases, "no/such/ruling") == [False] * len(phrases)
