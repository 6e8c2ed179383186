"""Each outcome is a claim its own evidence backs: an answer when the evidence for the first ruling, weighed
together, says it settles the question; not covered when the question's words and meaning are absent from the
game's documents, or a recorded gap names it; else the closest rulings, with no claim either way."""
from dataclasses import replace

from kb.answered import (
    ABSENT_THRESHOLD,
    ANSWER,
    CLOSEST,
    MIN_COSINE,
    NOT_COVERED,
    SURE_COSINE,
    THRESHOLD,
    Evidence,
    absence,
    confidence,
    is_answered,
    outcome,
    unknown_share,
)

KNOWN = {"stoneskin": {"dragon-dice": 4}, "army": {"dragon-dice": 9}, "magic": {"wizard-dice": 3},
         "double": {"dragon-dice": 2}}
RANKED = [("dragon-dice/magic/earth/stoneskin/b", 0.9)]
# A paraphrase of a rule, singled out by both rankings, in the game's own words.
CLEAR = Evidence(lead=4.0, margin=1.5, cosine=0.7, coverage=0.9, unknown=0.0, nearest=0.7)
# Tournament penalties asked of a rulebook: a loose match on a few common words.
LOOSE = Evidence(lead=3.0, margin=1.0, cosine=0.3, coverage=0.25, unknown=0.3, nearest=0.45)
# A judge's question in the game's words, with two sibling rules close in meaning: the documents speak of it,
# but which rule settles it is not sure.
UNSURE = Evidence(lead=2.5, margin=0.2, cosine=0.5, coverage=0.6, unknown=0.1, nearest=0.5)
# Banana bread asked of a rulebook: most of its words unknown to the game, nothing close in meaning.
ABSENT = Evidence(lead=2.0, margin=0.5, cosine=0.2, coverage=0.1, unknown=0.8, nearest=0.2)


def test_unknown_share_is_the_share_of_words_no_ruling_uses():
    assert unknown_share(KNOWN) == 0
    assert unknown_share({**KNOWN, "poker": {}}) == 0.2
    assert unknown_share({}) == 1.0


def test_a_clear_paraphrase_in_the_games_words_is_an_answer():
    assert confidence(CLEAR) >= THRESHOLD


def test_a_loose_match_in_words_the_game_never_uses_is_not_covered():
    assert confidence(LOOSE) < THRESHOLD


def test_each_piece_of_evidence_raises_confidence():
    for name, more in (("lead", 1.0), ("margin", 1.0), ("cosine", 0.1), ("coverage", 0.2)):
        assert confidence(replace(LOOSE, **{name: getattr(LOOSE, name) + more})) > confidence(LOOSE), name


def test_comparison_modes_answer_a_close_best_passage_whatever_the_words():
    assert is_answered(RANKED, SURE_COSINE, {"poker": {}, "chips": {}})


def test_comparison_modes_refuse_a_far_best_passage_even_in_known_words():
    assert not is_answered(RANKED, MIN_COSINE - 0.01, KNOWN)


def test_comparison_modes_answer_a_loose_match_only_when_few_words_are_unknown():
    loose = (MIN_COSINE + SURE_COSINE) / 2
    assert is_answered(RANKED, loose, {**KNOWN, "poker": {}})  # 1 in 5 unknown
    assert not is_answered(RANKED, loose, {"stoneskin": {"dragon-dice": 4}, "poker": {}, "chips": {}})


def test_without_a_cosine_the_words_decide():
    assert is_answered(RANKED, None, KNOWN)
    assert not is_answered(RANKED, None, {"poker": {}})


def test_nothing_found_is_never_answered():
    assert not is_answered([], 0.99, KNOWN)


def test_a_clear_paraphrase_is_an_answer_whatever_a_gap_says():
    assert outcome(CLEAR, gaps=0) == outcome(CLEAR, gaps=1) == ANSWER


def test_an_unsure_question_in_the_games_words_gets_the_closest_rulings_not_a_claim_of_absence():
    assert confidence(UNSURE) < THRESHOLD and absence(UNSURE) < ABSENT_THRESHOLD
    assert outcome(UNSURE, gaps=0) == CLOSEST


def test_words_the_game_never_uses_and_nothing_close_in_meaning_are_not_covered():
    assert outcome(ABSENT, gaps=0) == NOT_COVERED


def test_a_recorded_gap_the_question_names_makes_an_unsure_question_not_covered():
    assert outcome(UNSURE, gaps=1) == NOT_COVERED


def test_absence_grows_with_unknown_words_and_falls_with_closeness_in_meaning():
    assert absence(replace(UNSURE, unknown=0.6)) > absence(UNSURE)
    assert absence(replace(ABSENT, nearest=0.5)) < absence(ABSENT)


def test_nothing_found_is_not_covered():
    assert outcome(None, gaps=0) == NOT_COVERED
