"""`rulings eval`: how often search answers, how often an answer is right, off-topic sets; and choosing a
ranking constant by leave-one-set-out cross-validation."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb import search
from kb.evaluate import EvalFileError, evaluate, is_correct, load_questions
from service.cli import cli
from support.tuning import cross_validate

TESTS = Path(__file__).resolve().parent
DEV = TESTS / "dev_questions.jsonl"
OFF_TOPIC = TESTS / "offtopic_questions.jsonl"
BANANA = "What is a good recipe for banana bread?"


@pytest.fixture(scope="module")
def dev():
    return load_questions(DEV)


def test_answered_rate_is_the_share_of_questions_marked_answered(conn, dev):
    figures = evaluate(conn, dev)
    answers = [search.ask(conn, q["question"], k=10) for q in dev]
    assert figures["answered_rate"] == round(sum(a["answered"] for a in answers) / len(dev), 4)


def test_answered_precision_is_the_share_of_answered_questions_whose_first_ruling_is_right(conn, dev):
    figures = evaluate(conn, dev)
    answered = [(q, a) for q in dev if (a := search.ask(conn, q["question"], k=10))["answered"]]
    right = sum(1 for q, a in answered if is_correct(a["results"][0], q["expect"]))
    assert figures["answered_precision"] == round(right / len(answered), 4)


def test_the_existing_figures_are_kept_beside_the_new_ones(conn, dev):
    figures = evaluate(conn, dev, "fts")
    assert {"n", "recall@1", "recall@5", "mrr", "p50_ms", "p95_ms", "misses",
            "answered_rate", "answered_precision", "unanswered_rate"} <= set(figures)
    assert figures["n"] == 40
    assert figures["unanswered_rate"] is None, "a set with expected phrases has no off-topic questions"


def test_an_answered_question_whose_first_ruling_is_wrong_lowers_precision_and_is_a_miss(conn, dev):
    wrong = {**dev[8], "expect": dev[1]["expect"]}  # d009's question (answered), judged against d002's ruling
    figures = evaluate(conn, [wrong])
    assert (figures["answered_rate"], figures["answered_precision"]) == (1.0, 0.0)
    assert figures["misses"][0]["id"] == "d009" and figures["misses"][0]["answered"] is True


def test_answered_precision_is_null_when_no_question_is_answered(conn):
    figures = evaluate(conn, [{"id": "x", "question": BANANA, "expect": ["banana"]}])
    assert figures["answered_rate"] == 0.0
    assert figures["answered_precision"] is None
    assert figures["recall@1"] == 0.0


def test_an_off_topic_file_loads_without_expected_phrases(conn):
    questions = load_questions(OFF_TOPIC)
    assert len(questions) == 12 and not any("expect" in q for q in questions)


def test_off_topic_questions_count_only_as_should_be_unanswered(conn):
    figures = evaluate(conn, load_questions(OFF_TOPIC))
    assert figures["n"] == 12
    assert figures["unanswered_rate"] == 1.0
    assert figures["misses"] == []
    assert all(figures[key] is None for key in
               ("recall@1", "recall@5", "mrr", "answered_rate", "answered_precision"))


def test_an_answered_off_topic_question_is_a_miss(conn, dev):
    covered = {"id": "covered", "question": dev[8]["question"]}  # answered, but no expect: nothing should answer it
    figures = evaluate(conn, [covered])
    assert figures["unanswered_rate"] == 0.0 and figures["not_covered_unanswerable"] == 0.0
    assert figures["misses"] == [{"id": "covered", "answerable": False, "rank": None, "outcome": "answer",
                                  "answered": True,
                                  "got": search.ask(conn, covered["question"])["results"][0]["id"]}]


def test_a_mixed_list_counts_each_kind_apart(conn, dev):
    figures = evaluate(conn, dev[:4] + [{"id": "o", "question": BANANA}])
    alone = evaluate(conn, dev[:4])
    assert figures["n"] == 5
    assert figures["unanswered_rate"] == 1.0
    assert {k: figures[k] for k in ("recall@1", "mrr", "answered_rate", "answered_precision")} == \
        {k: alone[k] for k in ("recall@1", "mrr", "answered_rate", "answered_precision")}


@pytest.mark.parametrize("lines, message", [
    (['{"question": "a?", "expect": ["x"]}', '{"question": "b?"}'], r"q.jsonl:2: 'expect' missing here but given on line 1"),
    (['', '{"question": "a?"}', '{"question": "b?", "expect": ["x"]}'], r"q.jsonl:3: 'expect' given here but missing on line 2"),
    (['{"question": "a?", "expect": []}'], r"q.jsonl:1: 'expect' must be a non-empty list"),
])
def test_a_file_mixing_off_topic_and_answerable_questions_is_refused_naming_the_line(tmp_path, lines, message):
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(EvalFileError, match=message):
        load_questions(path)


def test_eval_cli_shows_the_answered_figures(built_db):
    result = CliRunner().invoke(cli, ["eval", str(DEV), "--mode", "fts", "--db", str(built_db)])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output.splitlines()[0])
    assert 0 < figures["answered_precision"] <= 1 and 0 < figures["answered_rate"] <= 1


def test_eval_cli_reports_the_unanswered_rate_of_an_off_topic_file(built_db):
    result = CliRunner().invoke(cli, ["eval", str(OFF_TOPIC), "--json", "--db", str(built_db)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["unanswered_rate"] == 1.0


def test_eval_cli_names_an_answered_off_topic_question(built_db, dev, tmp_path):
    path = tmp_path / "covered.jsonl"
    path.write_text(json.dumps({"id": "covered", "question": dev[8]["question"]}) + "\n")
    result = CliRunner().invoke(cli, ["eval", str(path), "--db", str(built_db)])
    assert "covered: answered with " in result.output and "nothing should answer it" in result.output


# Cross-validation on synthetic scores: candidate → set → score.
TABLE = {
    "low":  {"a": 0.6, "b": 0.6, "c": 0.6},
    "mid":  {"a": 0.7, "b": 0.8, "c": 0.5},
    "high": {"a": 0.9, "b": 0.1, "c": 0.95},
}
SETS = {"a": ["qa"], "b": ["qb"], "c": ["qc"]}


def table_score(candidate, questions):
    return TABLE[candidate][questions[0][1]]


def test_each_held_out_set_gets_the_candidate_best_on_the_other_sets():
    result = cross_validate(SETS, list(TABLE), table_score)
    # a out: mean on b, c — low .6, mid .65, high .525; b out: high .925; c out: mid .75, high .5
    assert result.chosen == {"a": "mid", "b": "high", "c": "mid"}
    assert result.held_out == {"a": 0.7, "b": 0.1, "c": 0.5}
    assert result.mean_held_out == pytest.approx(1.3 / 3)


def test_the_best_candidate_on_all_sets_weighs_each_set_equally():
    assert cross_validate(SETS, list(TABLE), table_score).best == "mid"  # .667 against .65 (high), .6 (low)
    big = {"a": ["qa"] * 100, "b": ["qb"], "c": ["qc"]}  # pooled question by question, "high" would win
    assert cross_validate(big, list(TABLE), table_score).best == "mid", "a set's size gives it no more say"


def test_a_tie_goes_to_the_earlier_candidate():
    result = cross_validate(SETS, ["first", "second"], lambda c, q: 0.5)
    assert result.best == "first" and set(result.chosen.values()) == {"first"}


def test_each_candidate_is_scored_once_per_set():
    calls = []
    cross_validate(SETS, list(TABLE), lambda c, q: calls.append((c, q[0])) or 0.0)
    assert sorted(calls) == sorted((c, s[0]) for c in TABLE for s in SETS.values())


def test_cross_validation_needs_two_sets_and_a_candidate():
    with pytest.raises(ValueError, match="two question sets"):
        cross_validate({"a": ["q"]}, ["x"], lambda c, q: 1.0)
    with pytest.raises(ValueError, match="no candidates"):
        cross_validate(SETS, [], lambda c, q: 1.0)
