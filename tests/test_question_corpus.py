"""The question corpus (training/questions) is what it claims: enough questions, over enough real documents and
games, of every kind; each answerable one measurable (its phrases in its document's rulings) and no easier than
the reference questions; Magic's questions kept out of training. The phrases of the documents outside rulings.db
are checked by `python -m training.questions check` on a library of them (minutes of ingest, not a test's)."""
from __future__ import annotations

import json
import statistics
from collections import Counter
from pathlib import Path

import pytest

from training.questions import HERE, KINDS, QuestionFileError, corpus, documents, load, reference_overlaps

SHARED_EVAL = Path(__file__).resolve().parents[2] / "shared" / "eval"


@pytest.fixture(scope="module")
def questions():
    return corpus()


def test_the_corpus_has_the_questions_the_issue_asks_for(questions):
    answerable = questions["answerable"]
    assert len(answerable) >= 1500
    assert len({q["doc"] for q in answerable}) >= 20
    assert len({q["game"] for q in answerable}) >= 15
    assert len(questions["uncovered"]) >= 300
    assert len(questions["offtopic"]) >= 100
    assert len(questions["heldout"]) >= 100


def test_every_style_a_player_asks_in_is_well_represented(questions):
    styles = Counter(q["style"] for q in questions["answerable"])
    assert set(styles) == {"situation", "keyword", "can-i", "what-if", "definition"}
    assert min(styles.values()) >= 0.05 * len(questions["answerable"])


def test_magic_is_asked_about_only_for_evaluation(questions):
    heldout = {d.game for d in documents() if d.heldout}
    assert heldout == {"magic"}
    assert not [q for kind in ("answerable", "uncovered") for q in questions[kind] if q["game"] in heldout]
    assert {q["game"] for q in questions["heldout"]} == heldout


def test_no_question_is_asked_twice_or_copies_a_reference_question(questions):
    asked = [" ".join(q["question"].casefold().split()) for kind in KINDS for q in questions[kind]]
    assert len(asked) == len(set(asked))
    reference = {" ".join(json.loads(line)["question"].casefold().split())
                 for path in SHARED_EVAL.glob("*.jsonl") for line in path.read_text().splitlines() if line.strip()}
    assert not set(asked) & reference


def test_a_malformed_question_file_is_refused_naming_its_line(tmp_path):
    folder = tmp_path / "answerable"
    folder.mkdir()
    bad = folder / "x.jsonl"
    good = {"id": "x-1", "doc": "fide-laws-of-chess", "game": "chess", "question": "castling through check?",
            "expect": ["castling is illegal"], "style": "keyword"}
    bad.write_text(json.dumps(good) + "\n" + json.dumps({**good, "id": "x-2", "game": "go"}) + "\n")
    with pytest.raises(QuestionFileError, match=r"x.jsonl:2: fide-laws-of-chess is a chess document, not go"):
        load(bad)
    bad.write_text(json.dumps({**good, "style": "rhetorical"}) + "\n")
    with pytest.raises(QuestionFileError, match=r"x.jsonl:1: style 'rhetorical'"):
        load(bad)
    bad.write_text(json.dumps({k: v for k, v in good.items() if k != "expect"}) + "\n")
    with pytest.raises(QuestionFileError, match=r"x.jsonl:1: .*missing expect"):
        load(bad)


def test_every_phrase_on_the_projects_own_sources_is_in_one_of_their_rulings(questions, seeds_library):
    own = {d.doc for d in documents() if d.source}
    items = [q for q in questions["answerable"] if q["doc"] in own]
    assert len(items) >= 250
    missing = [(q["id"], p) for q in items for p in q["expect"] if not seeds_library.holders(p, q["doc"])]
    assert not missing


@pytest.mark.skipif(not SHARED_EVAL.is_dir(), reason="../shared/eval is not beside the clone")
def test_the_corpus_is_no_easier_than_the_reference_questions(questions, seeds_library):
    own = {d.doc for d in documents() if d.source}
    ours = [seeds_library.answer_overlap(q) for q in questions["answerable"] if q["doc"] in own]
    theirs = reference_overlaps(seeds_library, SHARED_EVAL)
    assert len(theirs) >= 40
    assert statistics.median(ours) <= statistics.median(theirs)
    assert statistics.mean(ours) <= statistics.mean(theirs)


def test_each_document_of_the_corpus_exists_where_documents_toml_says(conn):
    sources = {row[0] for row in conn.execute("select id from sources")}
    corpora = Path(__file__).resolve().parents[2] / "shared" / "corpora"
    for document in documents():
        if document.source:
            assert document.source in sources
        elif corpora.is_dir():
            assert (corpora / document.file).is_file(), document.file
    assert {p.stem for p in (HERE / "answerable").glob("*.jsonl")} <= {d.doc for d in documents()}


@pytest.mark.slow
def test_search_answers_the_corpus_questions_on_the_projects_own_sources_as_measured(conn, questions):
    """How players ask, on the six games rulings.db holds, the game never given: the floor under today's figures
    (r@1 0.586, MRR 0.705, "Answer" for 16% at precision 0.98 on 295 questions; 8.8% told "not covered", where
    issue 41 asks at most 2%; 46% of the 71 uncovered ones told "not covered", 97% not answered)."""
    from kb.evaluate import evaluate

    own = {d.doc for d in documents() if d.source}
    figures = evaluate(conn, [q for q in questions["answerable"] if q["doc"] in own], "hybrid", k=10)
    assert figures["recall@1"] >= 0.55 and figures["mrr"] >= 0.67, figures["misses"][:10]
    assert figures["answered_precision"] >= 0.95
    assert figures["not_covered_rate"] <= 0.10
    uncovered = [{k: v for k, v in q.items() if k != "why"} for q in questions["uncovered"] if q["doc"] in own]
    figures = evaluate(conn, uncovered, "hybrid", k=10)
    assert figures["unanswered_rate"] >= 0.95
    assert figures["not_covered_unanswerable"] >= 0.40
