"""Glossary terms lead to the rules that define them: the rules a glossary entry cites, and the rules under
a heading that is the term itself."""

import pytest

from kb.fusion import GLOSSARY_BOOST, prefer_rulings
from kb.lexicon import glossary_terms, load_lexicon
from kb.query import glossary_rulings
from kb.search import ask
from kb.store import connect

# "Fading" is defined only by a citation: rule 3.1 never uses the word. (A document needs ten numbered rules
# before "See 3.1" is read as a rule number rather than a quantity.)
RULEBOOK = """Quill Comprehensive Rules

1. Concepts

1.1 Scribing
1.1.1 A player may inscribe one rune onto a tablet during their turn.
1.1.2 A rune is inscribed face up, so every player can read it.
1.1.3 A player who cannot inscribe a rune passes instead.
1.2 Smudge Check
1.2.1 After any action resolves, each tablet holding four or more runes loses its oldest rune.
1.2.2 Runes lost this way go to the bottom of the rune pile.

2. Tablets

2.1 Tablet-Owning
2.1.1 Each player starts the game with two empty tablets.
2.1.2 A player may never hold more than five tablets.
2.1.3 A tablet given away keeps its runes.

3. Time

3.1 Rune Decay
3.1.1 At the end of each round, every rune older than three rounds is wiped from its tablet.

9. Glossary

Fading
What happens to old runes at the end of a round. See 3.1.
Smudge check
The moment after each action when crowded tablets lose runes.
Tablet owning
Who holds which tablets; unlike Fading, it never removes runes.
"""
DECAY, SMUDGE = "quill/time/3.1-rune-decay/3.1.1", "quill/concepts/1.2-smudge-check/1.2.1"


@pytest.fixture(scope="module")
def quill_db(seeds_plus):
    return seeds_plus("quill", RULEBOOK)


def test_a_glossary_entry_leads_to_the_rules_it_cites_and_to_the_heading_named_like_it(quill_db):
    terms = glossary_terms(connect(quill_db))
    assert terms["fading"] == [DECAY]
    assert SMUDGE in terms["smudge check"]
    # "Tablet owning" names the heading "2.1 Tablet-Owning": both are read as the same words. Its definition
    # mentions Fading, which links there, but a mention is not a citation.
    assert connect(quill_db).execute("select count(*) from xrefs where from_id = 'quill/glossary/tablet-owning' "
                                     "and to_id = 'quill/glossary/fading'").fetchone()[0] == 1
    assert terms["tablet owning"] == [f"quill/tablets/2.1-tablet-owning/2.1.{n}" for n in (1, 2, 3)]


def test_a_question_using_a_glossary_term_reaches_the_rule_the_entry_cites(quill_db):
    conn = connect(quill_db)
    question = "When does fading happen to my runes?"
    assert glossary_rulings(question, load_lexicon(conn).terms, "quill") == {DECAY}
    ranked = [r["id"] for r in ask(conn, question, game="quill", k=3)["results"]]
    assert DECAY in ranked


def test_glossary_terms_are_matched_as_whole_words_of_the_chosen_game():
    terms = {"fading": ["quill/time/3.1.1"], "draw": ["other/draw/1"]}
    assert glossary_rulings("Is a faded rune gone?", terms, None) == set()
    assert glossary_rulings("When does FADING happen?", terms, "other") == set()
    assert glossary_rulings("Can I draw after fading?", terms, None) == {"quill/time/3.1.1", "other/draw/1"}


def test_preferred_rulings_gain_the_boost_and_missing_ones_enter_at_the_lowest_score():
    ranked = [("a", 3.0), ("b", 2.8), ("c", 1.0)]
    assert prefer_rulings(ranked, set()) == ranked
    boosted = dict(prefer_rulings(ranked, {"b", "z"}))
    assert boosted["b"] == pytest.approx(2.8 + GLOSSARY_BOOST)
    assert boosted["z"] == pytest.approx(1.0 + GLOSSARY_BOOST)
    assert [rid for rid, _ in prefer_rulings(ranked, {"b"})][:2] == ["b", "a"]
