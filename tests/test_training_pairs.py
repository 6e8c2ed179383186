"""Training pairs come from a document's own structure (glossary, FAQ, headings, examples, references), each
with a hard negative from its section, and never from a game left out."""
from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from training.corpus import library, name_key
from training.pairs import mine
from training.train import batches

RULEBOOK = """LANTERN RUN RULEBOOK

1. Moving
1.1 On your turn, you may move your lantern bearer up to three spaces along the paths of the board.
1.2 A bearer that ends its move on a flooded space loses one oil token.
1.3 A bearer may not move through a space that holds another bearer. Example: if Ana stands on the bridge, Ben must go around by the ford.
1.4 A bearer on the ferry moves with the ferry, as described in 2.3, instead of walking.
1.5 Bearers never share a space at the end of a move.

2. Oil
2.1 Oil tokens pay for lighting beacons: each beacon costs two oil tokens to light.
2.2 A player with no oil tokens left may still move but cannot light beacons.
2.3 The ferry carries one bearer across the lake for one oil token.
2.4 Oil spilled on a flooded space is lost to the lake.
2.5 At the start of each round, every player gains one oil token.
2.6 No player may hold more than six oil tokens.

3. Frequently Asked Questions
Q: Can I light a beacon on the same turn that I lost my last oil token on a flooded space?
A: No. Lighting costs two oil tokens and you have none left, so the beacon stays dark.

Glossary
Beacon: A tower on the board that a player lights with oil tokens to score points at the end of the game.
Bearer: The figure a player moves around the board, carrying that player's lantern.
"""


@pytest.fixture(scope="module")
def pairs(seeds_plus):
    conn = sqlite3.connect(seeds_plus("lantern-run", RULEBOOK))
    mined = [p for p in mine(conn) if p.game == "lantern-run"]
    conn.close()
    return mined


def of_kind(pairs, kind):
    return [p for p in pairs if p.kind == kind]


def test_a_faq_question_pairs_with_its_answer_and_not_with_itself(pairs):
    (question,) = of_kind(pairs, "question")
    assert question.anchor.startswith("Can I light a beacon on the same turn")
    assert "stays dark" in question.positive
    assert "Can I light" not in question.positive


def test_a_glossary_term_pairs_with_its_definition_as_a_question_and_as_a_name(pairs):
    anchors = {p.anchor: p.positive for p in of_kind(pairs, "glossary")}
    assert "A tower on the board" in anchors["What is Beacon?"]
    assert anchors["Bearer"].startswith("The figure a player moves")  # no title to copy the term from


def test_an_example_pairs_with_the_rule_it_illustrates_without_the_example(pairs):
    (example,) = of_kind(pairs, "example")
    assert example.anchor.startswith("if Ana stands on the bridge")
    assert "may not move through a space" in example.positive and "Ana" not in example.positive


def test_a_reference_pairs_the_citing_sentence_with_the_rule_it_cites(pairs):
    (reference,) = of_kind(pairs, "reference")
    assert "moves with the ferry" in reference.anchor and "2.3" not in reference.anchor
    assert "carries one bearer across the lake" in reference.positive


def test_every_negative_is_another_rule_of_the_same_document(pairs):
    assert pairs
    for p in pairs:
        assert p.negative != p.positive
        assert "LANTERN" not in p.negative and "(" not in p.negative  # no title, front matter or section path
    headed = of_kind(pairs, "heading")
    assert {p.anchor for p in headed} >= {"Moving"}
    moving = {p.positive for p in headed if p.anchor == "Moving"}
    assert moving and all(p.negative in moving | {"Bearers never share a space at the end of a move."}
                          for p in headed if p.anchor == "Moving")


def test_a_held_out_game_gives_no_pairs_and_mining_is_deterministic(seeds_plus):
    conn = sqlite3.connect(seeds_plus("lantern-run", RULEBOOK))
    assert not [p for p in mine(conn, exclude_games=frozenset({"lantern-run"})) if p.game == "lantern-run"]
    assert mine(conn, seed=3) == mine(conn, seed=3)
    conn.close()


def test_no_text_repeats_within_a_training_batch(pairs):
    doubled = pairs + pairs  # every text twice: each copy must wait for another batch
    for batch in batches(doubled, 8, random.Random(0)):
        texts = [t for p in batch for t in {p.anchor, p.positive, p.negative}]
        assert len(texts) == len(set(texts))
    assert sum(len(b) for b in batches(doubled, 8, random.Random(0))) >= len(doubled) - 8


def test_the_library_keeps_one_edition_of_each_document_and_the_questions_games(tmp_path):
    for name in ("rules-2.2.0.txt", "rules-2024-08-09.pdf", "rules-2025-02-28.pdf", "notes.md", "README.md"):
        (tmp_path / name).write_text("x")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "faq-4.1.html").write_text("x")
    questions = tmp_path / "questions.jsonl"
    questions.write_text('{"id": "q", "doc": "rules-2.2.0", "game": "lantern-run", "question": "?", "expect": ["x"]}\n')
    assert name_key(Path("rules-2025-02-28.pdf")) == name_key(Path("rules-2.2.0.txt")) == "rules"
    assert [(p.name, g) for p, g in library(tmp_path, questions)] == [
        ("notes.md", "notes"), ("rules-2.2.0.txt", "lantern-run"), ("faq-4.1.html", "faq")]
