"""Fusion: each ranking's scores divided by its best, averaged; a recognised game's rulings gently preferred."""
from kb.fusion import VOCABULARY_BOOST, combine, prefer_game


def test_convex_combination_normalises_each_list_by_its_best():
    fused = combine([("a", 10.0), ("b", 5.0)], [("b", 0.8), ("c", 0.4)], weight=0.5)
    assert fused == [("b", 0.75), ("a", 0.5), ("c", 0.25)]


def test_negative_cosines_count_zero():
    assert combine([], [("a", 0.5), ("b", -0.2)]) == [("a", 0.5), ("b", 0.0)]
    assert combine([], [("a", -0.1)]) == [("a", 0.0)]


def test_a_ruling_found_by_one_list_only_gets_that_lists_share():
    assert combine([("a", 4.0)], []) == [("a", 0.5)]
    assert combine([("a", 4.0)], [], weight=0.3) == [("a", 0.3)]


def test_the_vocabulary_game_settles_a_near_tie():
    assert prefer_game([("other/x", 1.0), ("game/y", 0.9)], "game") == \
        [("game/y", 0.9 * VOCABULARY_BOOST), ("other/x", 1.0)]


def test_the_vocabulary_game_never_buries_a_clearly_better_match():
    ranked = [("other/x", 1.0), ("game/y", 0.5)]
    assert [rid for rid, _ in prefer_game(ranked, "game")] == ["other/x", "game/y"]


def test_only_rulings_of_that_very_game_are_raised():
    assert prefer_game([("game-two/x", 1.0)], "game") == [("game-two/x", 1.0)]
