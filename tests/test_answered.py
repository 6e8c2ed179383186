"""A question is answered when the evidence for its first ruling, weighed together, says it settles it."""
from dataclasses import replace

from kb.answered import MIN_COSINE, SURE_COSINE, THRESHOLD, Evidence, confidence, is_answered, unknown_share

KNOWN = {"stoneskin": {"dragon-dice": 4}, "army": {"dragon-dice": 9}, "magic": {"wizard-dice": 3},
         "double": {"dragon-dice": 2}}
RANKED = [("dragon-dice/magic/earth/stoneskin/b", 0.9)]
# A paraphrase of a rule, singled out by both rankings, in the game's own words.
CLEAR = Evidence(lead=4.0, margin=1.5, cosine=0.7, coverage=0.9)
# Tournament penalties asked of a rulebook: a loose match on a few common words.
LOOSE = Evidence(lead=3.0, margin=1.0, cosine=0.3, coverage=0.25)


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
