"""A question is answered when its best match is close in meaning, or loosely close in words every ruling knows."""
from kb.answered import MIN_COSINE, MIN_LEAD, SURE_COSINE, is_answered, unknown_share

KNOWN = {"stoneskin": {"dragon-dice": 4}, "army": {"dragon-dice": 9}, "magic": {"wizard-dice": 3},
         "double": {"dragon-dice": 2}}
RANKED = [("dragon-dice/magic/earth/stoneskin/b", 0.9)]


def test_unknown_share_is_the_share_of_words_no_ruling_uses():
    assert unknown_share(KNOWN) == 0
    assert unknown_share({**KNOWN, "poker": {}}) == 0.2
    assert unknown_share({}) == 1.0


def test_a_close_best_passage_is_answered_whatever_the_words():
    assert is_answered(RANKED, SURE_COSINE, {"poker": {}, "chips": {}})


def test_a_far_best_passage_is_not_answered_even_in_known_words():
    assert not is_answered(RANKED, MIN_COSINE - 0.01, KNOWN)


def test_a_loose_match_is_answered_only_when_few_words_are_unknown():
    loose = (MIN_COSINE + SURE_COSINE) / 2
    assert is_answered(RANKED, loose, {**KNOWN, "poker": {}})  # 1 in 5 unknown
    assert not is_answered(RANKED, loose, {"stoneskin": {"dragon-dice": 4}, "poker": {}, "chips": {}})


def test_without_a_cosine_the_words_decide():
    assert is_answered(RANKED, None, KNOWN)
    assert not is_answered(RANKED, None, {"poker": {}})


def test_nothing_found_is_never_answered():
    assert not is_answered([], 0.99, KNOWN)


def test_a_first_ruling_the_fused_ranking_does_not_single_out_is_no_answer():
    assert not is_answered(RANKED, 0.9, KNOWN, lead=MIN_LEAD - 0.1)
    assert is_answered(RANKED, 0.9, KNOWN, lead=MIN_LEAD)
    assert is_answered(RANKED, 0.9, KNOWN), "fts and dense rankings have no fused lead"
