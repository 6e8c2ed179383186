"""Fusion: each ranking's standard scores, weighted and summed; a recognised game's rulings gently preferred."""
import pytest

from kb.fusion import VOCABULARY_BOOST, combine, prefer_game, standard_scores


def test_standard_scores_give_both_lists_the_same_spread():
    assert standard_scores([("a", 10.0), ("b", 5.0)]) == {"a": 1.0, "b": -1.0}
    assert standard_scores([("a", 0.61), ("b", 0.59)]) == pytest.approx({"a": 1.0, "b": -1.0})
    assert standard_scores([("a", 3.0)]) == {"a": 0.0}
    assert standard_scores([]) == {}


def test_close_cosines_weigh_as_much_as_spread_out_bm25_scores():
    # BM25 prefers a by far, meaning prefers b by a hair: with standard scores neither list dominates.
    fused = dict(combine([("a", 10.0), ("b", 5.0)], [("b", 0.61), ("a", 0.59)], weight=0.5))
    assert fused["a"] == pytest.approx(fused["b"])


def test_a_ruling_one_list_missed_takes_that_lists_lowest_score():
    fused = combine([("a", 10.0), ("b", 5.0)], [("b", 0.8), ("c", 0.4)], weight=0.5)
    # a: (1 + -1) / 2, b: (-1 + 1) / 2, c: (-1, the lexical floor, + -1) / 2
    assert dict(fused) == pytest.approx({"a": 0.0, "b": 0.0, "c": -1.0})
    assert fused[-1][0] == "c"


def test_the_weight_is_the_full_text_share():
    lexical, semantic = [("a", 2.0), ("b", 1.0)], [("b", 0.9), ("a", 0.1)]
    assert combine(lexical, semantic, weight=1.0)[0][0] == "a"
    assert combine(lexical, semantic, weight=0.0)[0][0] == "b"


def test_the_vocabulary_game_settles_a_near_tie():
    assert prefer_game([("other/x", 1.0), ("game/y", 0.9)], "game") == \
        [("game/y", 0.9 + VOCABULARY_BOOST), ("other/x", 1.0)]


def test_the_vocabulary_game_never_buries_a_clearly_better_match():
    ranked = [("other/x", 2.0), ("game/y", 0.5)]
    assert [rid for rid, _ in prefer_game(ranked, "game")] == ["other/x", "game/y"]


def test_only_rulings_of_that_very_game_are_raised():
    assert prefer_game([("game-two/x", 1.0)], "game") == [("game-two/x", 1.0)]
