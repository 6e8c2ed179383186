"""Hybrid search answers the dev questions as a judge would, and says so when nothing answers."""
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from kb import search
from kb.embeddings import DIMENSIONS, MODEL_NAME
from kb.evaluate import EvalFileError, evaluate, load_questions
from kb.lexicon import load_lexicon
from kb.query import fts_query
from service.cli import cli

TESTS = Path(__file__).resolve().parent
DEV = TESTS / "dev_questions.jsonl"
OFF_TOPIC = TESTS / "offtopic_questions.jsonl"


@pytest.fixture(scope="module")
def figures(conn):
    questions = load_questions(DEV)
    return {mode: evaluate(conn, questions, mode, k=10) for mode in search.MODES}


def test_hybrid_meets_the_recall_and_mrr_targets(figures):
    hybrid = figures["hybrid"]
    assert hybrid["n"] == 40
    assert hybrid["recall@1"] >= 0.80, hybrid["misses"]
    assert hybrid["recall@5"] >= 0.95, hybrid["misses"]
    assert hybrid["mrr"] >= 0.85, hybrid["misses"]


def test_hybrid_beats_full_text_and_dense_alone_on_mrr(figures):
    assert figures["hybrid"]["mrr"] > figures["fts"]["mrr"]
    assert figures["hybrid"]["mrr"] > figures["dense"]["mrr"]


def test_each_outcome_is_true_answers_right_nine_times_in_ten_and_covered_questions_rarely_not_covered(conn):
    figures = evaluate(conn, load_questions(DEV))
    # A wrong answer is worse than none (kb.answered weighs it nine times), so the decision gives up right
    # first rulings to keep its answers right: those are shown as the closest rulings, never as not covered.
    # docs/search.md gives the figures per set.
    assert figures["answered_precision"] >= 0.90
    assert figures["answered_rate"] >= 0.20
    assert figures["not_covered_rate"] <= 0.05, figures["misses"]


def test_questions_no_source_covers_are_not_answered(conn):
    for line in OFF_TOPIC.read_text().splitlines():
        question = json.loads(line)["question"]
        answer = search.ask(conn, question)
        assert answer["outcome"] != "answer" and answer["answered"] is False, question
        assert answer["results"], "the nearest rulings are still given, for the reader to judge"
    outcomes = [search.ask(conn, json.loads(line)["question"])["outcome"] for line in OFF_TOPIC.read_text().splitlines()]
    # 11 of 12 with the seeds alone; with the Laws of Chess among the sources, the Uno question ("a matching
    # colour") finds a chess ruling on colours close enough to be offered as the closest: still unanswered.
    assert outcomes.count("not-covered") >= 0.80 * len(outcomes), outcomes


def test_a_ruling_id_goes_straight_to_that_ruling(conn):
    answer = search.ask(conn, "dragon-dice/magic/earth/stoneskin/b")
    assert [r["id"] for r in answer["results"]] == ["dragon-dice/magic/earth/stoneskin/b"]
    assert answer["answered"] is True


def test_an_unambiguous_id_suffix_goes_straight_to_that_ruling(conn):
    answer = search.ask(conn, "stoneskin/b")
    assert [r["id"] for r in answer["results"]] == ["dragon-dice/magic/earth/stoneskin/b"]


def test_a_question_naming_a_game_keeps_to_that_game(conn):
    answer = search.ask(conn, "In Wizard Dice, what does a shield do?", k=10)
    assert answer["game"] == "wizard-dice"
    assert {r["game"] for r in answer["results"]} == {"wizard-dice"}


def test_a_question_naming_no_game_finds_the_right_games_ruling(conn):
    answer = search.ask(conn, "Can a reserve army double its magic?")
    assert answer["results"][0]["id"] == "dragon-dice/magic/general/m"


def test_a_question_asked_again_skips_the_model_and_gets_the_same_answer(conn):
    from kb.onnx_embedder import question_vector
    question = "if my army is in reserve can it cast spells twice?"
    first = search.ask(conn, question)
    before = question_vector.cache_info()
    assert search.ask(conn, question) == first
    after = question_vector.cache_info()
    assert (after.hits, after.misses) == (before.hits + 1, before.misses)
    with pytest.raises(ValueError):  # shared by every caller, so no caller may change it
        question_vector(question)[0] = 1.0


def test_search_embeds_a_question_through_kb_search_question_vector_the_seam_benchmarks_swap(conn, monkeypatch):
    # benchmarks/ranker.py and models.py put a trained or another model's encoder here
    import numpy as np
    ruling, vector = conn.execute("select ruling_id, vector from embeddings where ruling_id = "
                                  "'dragon-dice/magic/general/m'").fetchone()
    monkeypatch.setattr(search, "question_vector", lambda text: np.frombuffer(vector, dtype=np.float32))
    assert search.ask(conn, "anything at all", mode="dense")["results"][0]["id"] == ruling


def test_a_question_speaking_one_games_vocabulary_prefers_that_game(conn):
    # "stoneskins" and "saves" are each used by several Dragon Dice rulings and by no other game's.
    answer = search.ask(conn, "Do stoneskins add saves to a reserve army?")
    assert answer["game"] == "dragon-dice"
    assert answer["results"][0]["game"] == "dragon-dice"


def test_the_ranking_is_named_steps_in_order():
    assert [step.__name__ for step in search.STEPS] == [
        "recognise_game", "retrieve", "keep_in_force", "fuse", "prefer_vocabulary_game", "prefer_glossary_rulings",
        "prefer_originals", "prefer_official", "keep_in_force", "decide_outcome"]


def test_a_step_added_sees_what_the_steps_before_it_left(conn):
    seen = {}

    def after_fusion(found: search.Search) -> None:
        seen.update(game=found.game, lexical=len(found.lexical), fused=list(found.ranked))

    at = search.STEPS.index(search.fuse) + 1
    question = "In Dragon Dice, can a reserve army double its magic?"
    steps = search.STEPS[:at] + (after_fusion,) + search.STEPS[at:]
    answer = search.ask(conn, question, k=search.MAX_K, steps=steps)
    assert seen["game"] == "dragon-dice" and seen["lexical"] > 0
    assert seen["fused"] and seen["fused"] == sorted(seen["fused"], key=lambda pair: -pair[1])
    assert answer == search.ask(conn, question, k=search.MAX_K)  # a step that only looks changes nothing


def test_a_step_dropped_leaves_out_only_what_it_does(conn):
    question = "Do stoneskins add saves to a reserve army?"
    steps = tuple(step for step in search.STEPS if step is not search.prefer_vocabulary_game)
    without = search.ask(conn, question, steps=steps)
    assert without["game"] is None  # no game preferred by its vocabulary
    assert search.ask(conn, question)["game"] == "dragon-dice"


@pytest.mark.parametrize("hostile", ['"', "NEAR(", "a OR b", "*", "-", "stoneskin AND NOT", "title:stoneskin",
                                     "stoneskin*", "'; drop table rulings; --", "^magic + NEAR(army reserve, 2)"])
def test_fts_syntax_in_a_question_is_only_words(conn, hostile):
    query = fts_query(hostile, load_lexicon(conn).acronyms)
    assert re.fullmatch(r'("[^\W_]+"( OR "[^\W_]+")*)?', query), query
    for mode in ("fts", "hybrid"):
        answer = search.ask(conn, hostile, mode=mode)
        assert set(answer) == {"query", "outcome", "answered", "confidence", "said", "game", "unheld", "results",
                               "groups", "gaps"}
        assert answer["query"] == hostile
        assert isinstance(answer["answered"], bool) and isinstance(answer["results"], list)
        assert isinstance(answer["gaps"], list)


def test_every_ruling_has_stored_unit_vectors_with_model_name_and_version(conn):
    meta = dict(conn.execute("select key, value from meta").fetchall())
    assert meta["embedding_model"] == MODEL_NAME
    assert meta["embedding_model_version"]
    missing = conn.execute("select count(*) from rulings where id not in (select ruling_id from embeddings)")
    assert missing.fetchone()[0] == 0
    vector = np.frombuffer(conn.execute("select vector from embeddings limit 1").fetchone()[0], dtype=np.float32)
    assert vector.shape == (DIMENSIONS,)
    assert abs(float(np.linalg.norm(vector)) - 1) < 1e-4


def test_long_rulings_are_embedded_in_overlapping_windows(conn):
    longest = conn.execute("select id from rulings order by length(text) desc limit 1").fetchone()[0]
    windows = conn.execute("select count(*) from embeddings where ruling_id = ? and kind = 'ruling'", [longest])
    assert windows.fetchone()[0] >= 2


def test_asking_never_imports_torch_or_sentence_transformers(built_db):
    code = ("import sys; from kb.store import connect; from kb.search import ask; "
            f"ask(connect({str(built_db)!r}), 'Does stoneskin stack?'); "
            "print(sorted(m for m in ('torch', 'sentence_transformers') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_eval_cli_prints_the_documented_figures(built_db):
    result = CliRunner().invoke(cli, ["eval", str(DEV), "--mode", "fts", "--json", "--db", str(built_db)])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert {"n", "recall@1", "recall@5", "mrr", "p50_ms", "p95_ms"} <= set(figures)


def test_eval_file_errors_name_the_line(tmp_path):
    bad = tmp_path / "q.jsonl"
    bad.write_text('{"id": "x", "question": "q?", "expect": ["a"]}\n{"id": "y", "question": "q?"}\n')
    with pytest.raises(EvalFileError, match=r"q.jsonl:2: 'expect'"):
        load_questions(bad)


def test_ask_json_marks_unanswered_questions(built_db):
    result = CliRunner().invoke(cli, ["ask", "What is a good recipe for banana bread?", "--json",
                                      "--db", str(built_db)])
    assert json.loads(result.output)["answered"] is False


def test_reingest_of_unchanged_sources_reuses_every_vector_without_loading_the_model(built_db, tmp_path):
    import shutil
    target = tmp_path / "rulings.db"
    shutil.copy(built_db, target)
    code = ("import sys; from kb.build import build; "
            f"build({str(target)!r}); print('sentence_transformers' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
    import sqlite3
    before = sqlite3.connect(built_db).execute("select text, vector from embeddings order by id").fetchall()
    after = sqlite3.connect(target).execute("select text, vector from embeddings order by id").fetchall()
    assert before == after


def test_a_game_named_in_the_question_is_not_searched_as_words(conn):
    named = search.ask(conn, "does the sword count when I defend in dungeon twister?")
    unnamed = search.ask(conn, "does the sword count when I defend?", game="dungeon-twister")
    assert named["game"] == "dungeon-twister"
    assert [r["id"] for r in named["results"]] == [r["id"] for r in unnamed["results"]]
    assert named["results"][0]["id"] == "dungeon-twister/clarifications/weapons-grant-bonus-other-special"


def test_a_documents_title_and_version_lines_are_never_returned(conn):
    titles = {r[0] for r in conn.execute("select id from rulings where kind = 'title'")}
    assert {"dragon-dice/magic/front-matter/1", "dragon-dice/magic/front-matter/5"} <= titles
    for question in ("In Dragon Dice how does a dragon attack an army at a terrain?",
                     "Official Dragon Dice FAQ and Rules Clarifications", "magic FAQ v1.44"):
        for mode in search.MODES:
            assert not titles & {r["id"] for r in search.ask(conn, question, k=50, mode=mode)["results"]}


def test_questions_the_seeds_do_not_cover_are_left_unanswered_with_their_gaps(conn):
    games = {row[0] for row in conn.execute("select slug from games")}
    uncovered = [q for q in load_questions(TESTS / "uncovered_questions.jsonl") if q["game"] in games]
    answers = {q["id"]: search.ask(conn, q["question"]) for q in uncovered}
    left = [q["id"] for q in uncovered if not answers[q["id"]]["answered"]]
    assert len(left) >= 0.9 * len(uncovered), set(answers) - set(left)
    for q in uncovered:
        if q["id"] in left and q.get("gap"):
            assert any(q["gap"] in gap["description"] for gap in answers[q["id"]]["gaps"]), q["id"]
