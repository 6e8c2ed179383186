"""Wizard Dice engine: spell patterns (multiset-correct), the five-phase round, allies, continuation, calculators."""
import pytest

from engine import wizard_dice as wd
from engine.calculators import CalcError, run
from engine.dice import fixed, seeded
from engine.registry import plain

NOTHING = [1, 2, 4, 5, 6, 6]  # a roll the tests cast nothing from


def facts(game: str, calc: str, params: dict) -> dict:
    """The facts a calculator answers with (its JSON `result`)."""
    return run(game, calc, params)["result"]


def duel(a=20, b=20, a_allies=(), b_allies=(), **kw):
    return [wd.Wizard("Drew", a, tuple(wd.Ally(k, h) for k, h in a_allies), **kw), wd.Wizard("Rick", b,
            tuple(wd.Ally(k, h) for k, h in b_allies))]


def health(result):
    return [w.health for w in result.wizards]


# --- spell patterns ------------------------------------------------------------------------------------

def test_spells_calculator_lists_each_castable_spell_once():
    assert facts("wizard-dice", "spells", {"dice": "1,2,3,4,4,6"}) == {"spells": [
        {"spell": "magic-missiles", "dice": [6]},
        {"spell": "poison-arrow", "dice": [1]},
        {"spell": "cure-light-wounds", "dice": [1, 2, 3, 4]},
        {"spell": "shield", "dice": [4, 4, 6]},
        {"spell": "counterspell", "dice": [2, 3, 4, 6]},
        {"spell": "magic-shell", "dice": [1, 2, 3, 4, 4]},
    ]}


def test_spell_slugs_match_the_source_list():
    assert list(wd.SPELLS) == ["magic-missiles", "poison-arrow", "cause-wounds", "paralysis", "lightning-bolt",
                               "fireball", "finger-of-death", "cure-light-wounds", "cure-heavy-wounds", "shield",
                               "counterspell", "magic-shell", "magic-mirror", "summon-ogre", "summon-troll"]


def test_six_of_a_kind_also_holds_every_smaller_kind():
    cast = {c["spell"]: c["dice"] for c in wd.castable([3] * 6)}
    assert cast == {"paralysis": [3, 3, 3], "lightning-bolt": [3] * 4, "fireball": [3] * 5,
                    "finger-of-death": [3] * 6, "shield": [3, 3, 3]}


def test_full_house_needs_a_pair_of_another_face():
    assert wd.ways("cause-wounds", [4, 4, 4, 4, 4, 2]) == []
    assert wd.ways("cause-wounds", [4, 4, 4, 2, 2]) == [[4, 4, 4, 2, 2]]


def test_full_house_from_two_triples_can_go_either_way():
    assert wd.ways("cause-wounds", [3, 3, 3, 5, 5, 5]) == [[5, 5, 5, 3, 3], [3, 3, 3, 5, 5]]


def test_shield_extra_die_cannot_reuse_a_pair_die():
    assert wd.ways("shield", [4, 4]) == []
    assert wd.ways("shield", [4, 4, 1]) == [[4, 4, 1]]


def test_shield_and_counterspell_pick_the_highest_extra_die():
    assert wd.ways("shield", [2, 2, 1, 5])[0] == [2, 2, 5]
    assert wd.ways("counterspell", [1, 2, 3, 3, 6])[0] == [1, 2, 3, 6]


def test_two_pair_and_three_pair_need_different_faces():
    assert wd.ways("summon-ogre", [3, 3, 3, 3]) == []
    assert wd.ways("summon-troll", [1, 1, 2, 2, 2, 2]) == []
    assert wd.ways("summon-ogre", [3, 3, 4, 4, 5, 5]) == [[5, 5, 4, 4], [5, 5, 3, 3], [4, 4, 3, 3]]


def test_up_to_spells_offer_every_count_most_first():
    assert wd.ways("magic-missiles", [6, 6, 6]) == [[6, 6], [6]]
    assert wd.ways("poison-arrow", [1, 1, 1, 1]) == [[1, 1, 1], [1, 1], [1]]


def test_straights_do_not_wrap_around():
    assert wd.ways("cure-light-wounds", [5, 6, 1, 2]) == []


def test_mirror_needs_six_distinct_dice():
    assert wd.ways("magic-mirror", [1, 2, 3, 4, 4, 6]) == []
    assert wd.ways("magic-mirror", [1, 2, 3, 4, 4, 4]) == [[4, 4, 1, 2, 3, 4]]


def test_magic_shell_pair_may_share_a_face_with_its_straight():
    assert wd.ways("magic-shell", [1, 2, 3, 3, 3]) == [[1, 2, 3, 3, 3]]


@pytest.mark.parametrize("dice, message", [([1, 2, 7], "not on a d6"), ([0, 1], "not on a d6"),
                                           ([1] * 7, "at most 6"), ([], "no dice")])
def test_castable_refuses_impossible_rolls(dice, message):
    with pytest.raises(ValueError, match=message):
        wd.castable(dice)


def test_allocate_never_uses_a_die_twice():
    assert wd.allocate([4, 4, 4, 4, 1, 2], ["paralysis", "shield"])["castable"] is False
    assert wd.allocate([4, 4, 4, 4, 4, 1], ["paralysis", "shield"]) == {
        "castable": True, "casts": [{"spell": "paralysis", "dice": [4, 4, 4]}, {"spell": "shield", "dice": [4, 4, 1]}],
        "wasted": []}


def test_allocate_backtracks_past_the_best_way_of_an_earlier_spell():
    # Missiles' best way takes both 6s; the Shield then needs one of them as its pair, so Missiles take one.
    result = wd.allocate([6, 6, 6, 1], ["magic-missiles", "shield"])
    assert result["casts"] == [{"spell": "magic-missiles", "dice": [6]}, {"spell": "shield", "dice": [6, 6, 1]}]


# --- rolling --------------------------------------------------------------------------------------------

def test_third_roll_is_final():
    with pytest.raises(ValueError, match="only 2 re-rolls"):
        wd.roll_dice(6, [1] * 18, keeps=[[], [], []])


def test_kept_dice_must_be_showing():
    with pytest.raises(ValueError, match="cannot keep"):
        wd.roll_dice(6, [1, 2, 3, 4, 5, 6], keeps=[[6, 6]])


def test_second_keep_may_release_a_die_kept_first():
    assert wd.roll_dice(3, [6, 1, 1, 2, 2, 5, 5, 5], keeps=[[6], [2, 2]]) == [2, 2, 5]


def test_carried_dice_are_never_rolled():
    # Only 4 faces after the carried pair: rolling the carried dice would exhaust the fixed roller.
    assert wd.roll_dice(6, [1, 2, 3, 4], carried=[5, 5]) == [1, 2, 3, 4, 5, 5]
    with pytest.raises(ValueError, match="at most 2"):
        wd.roll_dice(6, [1, 2, 3], carried=[5, 5, 5])


def test_rolls_take_any_roller():
    assert wd.roll_dice(6, seeded(7)) == wd.roll_dice(6, seeded(7))
    assert wd.roll_dice(2, fixed([3, 4])) == [3, 4]


def test_dice_available_counts_allies_and_paralysis_never_below_zero():
    counts = [wd.dice_available(0), wd.dice_available(1), wd.dice_available(1, 1), wd.dice_available(5, 3)]
    assert counts == [6, 5, 4, 0]


def test_set_aside_allowance_counts_allies_and_paralysis_as_used():
    assert wd.set_aside_allowance(4) == 2
    assert wd.set_aside_allowance(2, allies=1, paralysed=1) == 2
    assert wd.set_aside_allowance(3, allies=1, paralysed=1) == 0
    with pytest.raises(ValueError, match="only 6"):
        wd.set_aside_allowance(6, allies=1)


def test_banish_returns_the_die_and_refuses_unknown_allies():
    drew = duel(a_allies=[("ogre", 2), ("troll", 3)])[0]
    start = wd.start_round(drew, banish=[2])
    assert start["dice"] == 5 and start["wizard"].allies == (wd.Ally("ogre", 2),)
    with pytest.raises(ValueError, match="cannot banish"):
        wd.start_round(drew, banish=[3])


def test_new_duel_only_20_or_10_hit_points():
    assert [w.health for w in wd.new_duel(["A", "B"], 10)] == [10, 10]
    with pytest.raises(ValueError, match="20 hit points"):
        wd.new_duel(["A", "B"], 15)


# --- resolving rounds -----------------------------------------------------------------------------------

EXAMPLE = [
    {"rolls": [[1, 3, 3, 4, 4, 6], [1, 1, 1, 2, 3, 4]],
     "casts": [[{"spell": "summon-ogre", "dice": [3, 3, 4, 4]}, {"spell": "magic-missiles", "dice": [6]},
                {"spell": "poison-arrow", "dice": [1]}],
               [{"spell": "cure-light-wounds", "dice": [1, 2, 3, 4]}, {"spell": "poison-arrow", "dice": [1, 1]}]]},
    {"rolls": [[1, 1, 5, 6, 6], [1, 1, 2, 3, 4, 4]],
     "casts": [[{"spell": "magic-missiles", "dice": [6, 6]}, {"spell": "poison-arrow", "dice": [1, 1]}],
               [{"spell": "counterspell", "dice": [1, 2, 3, 4], "counters": "poison-arrow"},
                {"spell": "poison-arrow", "dice": [1]}]]},
    {"rolls": [[2, 2, 2, 6, 6], [3, 3, 3, 4, 4, 5]],
     "casts": [[{"spell": "cause-wounds", "dice": [2, 2, 2, 6, 6]}],
               [{"spell": "shield", "dice": [4, 4, 5]}, {"spell": "paralysis", "dice": [3, 3, 3]}]]},
    {"rolls": [[1, 1, 6, 6], [4, 4, 4, 4, 1, 1]],
     "casts": [[{"spell": "summon-ogre", "dice": [1, 1, 6, 6]}],
               [{"spell": "lightning-bolt", "dice": [4, 4, 4, 4]}, {"spell": "poison-arrow", "dice": [1, 1]}]]},
]


def test_example_of_play_replays_round_by_round():
    history = wd.replay(["Drew", "Rick"], EXAMPLE, starting_health=10)
    assert [(r["health"]["Drew"], r["health"]["Rick"]) for r in history] == [(8, 7), (7, 5), (7, 3), (7, -1)]
    assert [r["allies"]["Drew"] for r in history] == [[2], [2], [2], [2, 2]]
    assert history[-1]["outcome"] == "Drew wins"


def test_no_round_after_the_duel_ends():
    with pytest.raises(ValueError, match="after the duel ended"):
        wd.replay(["Drew", "Rick"], EXAMPLE + [EXAMPLE[0]], starting_health=10)


def test_roll_must_have_the_dice_the_wizard_has():
    wizards = duel(7, 3, a_allies=[("ogre", 2)], paralysed=1)
    with pytest.raises(ValueError, match="rolls 4 dice"):
        wd.resolve_round(wizards, [[1, 1, 6, 6, 6], NOTHING], [[], []])


def test_one_die_cannot_serve_two_spells():
    with pytest.raises(ValueError, match="not left"):
        wd.resolve_round(duel(), [[4, 4, 4, 1, 2, 5], NOTHING],
                         [[{"spell": "paralysis", "dice": [4, 4, 4]}, {"spell": "shield", "dice": [4, 4, 1]}], []])


def test_declared_dice_follow_the_pattern_order():
    rick = [{"spell": "counterspell", "dice": [4, 1, 2, 3], "counters": "magic-missiles"}]
    with pytest.raises(ValueError, match="not a way to cast Counterspell"):
        wd.resolve_round(duel(), [[6, 1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 6]], [[{"spell": "magic-missiles", "dice": [6]}],
                                                                          rick])


def test_counterspell_must_name_a_spell_at_its_target():
    with pytest.raises(ValueError, match="must name"):
        wd.resolve_round(duel(), [[6, 1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 6]],
                         [[{"spell": "magic-missiles", "dice": [6]}],
                          [{"spell": "counterspell", "dice": [1, 2, 3, 4], "target": "opponent",
                            "counters": "magic-missiles"}]])


@pytest.mark.parametrize("cast, message", [
    ({"spell": "summon-ogre", "dice": [2, 2, 3, 3], "target": "opponent"}, "no other target"),
    ({"spell": "fireball", "dice": [2, 2, 2, 2, 2], "split": {"opponent": 3, "opponent-ally-1": 3}}, "cannot be split"),
    ({"spell": "lightning-bolt", "dice": [2, 2, 2, 2], "split": {"opponent": 3}}, "add up"),
    ({"spell": "cause-wounds", "dice": [2, 2, 2, 3, 3], "target": "the moon"}, "unknown target"),
    ({"spell": "magic-shell", "dice": [1, 2, 3, 2, 2]}, "ally_reduction"),
])
def test_impossible_declarations_are_refused(cast, message):
    roll = (cast["dice"] + [6, 6, 6, 6])[:6]
    with pytest.raises(ValueError, match=message):
        wd.resolve_round(duel(), [roll, NOTHING], [[cast], []])


def test_spell_at_a_missing_ally_is_refused():
    with pytest.raises(ValueError, match="no ally 1"):
        wd.resolve_round(duel(), [[5, 5, 5, 5, 5, 1], NOTHING],
                         [[{"spell": "fireball", "dice": [5] * 5, "target": "opponent-ally-1"}], []])


def test_dead_wizard_plays_no_round():
    with pytest.raises(ValueError, match="duel is over"):
        wd.resolve_round(duel(0, 5), [NOTHING, NOTHING], [[], []])


def test_healing_never_lowers_health_above_the_cap():
    # A heal when already at the cap gains nothing (and does not pull 21 down).
    result = wd.resolve_round(duel(21), [[1, 2, 3, 4, 6, 6], NOTHING],
                              [[{"spell": "cure-light-wounds", "dice": [1, 2, 3, 4]}], []])
    assert health(result) == [21, 20] and result.tallies[0].healed == 0


def test_shield_reduces_each_spell_once_not_each_missile():
    result = wd.resolve_round(duel(), [[6, 6, 1, 2, 4, 5], [3, 3, 1, 2, 4, 5]],
                              [[{"spell": "magic-missiles", "dice": [6, 6]}], [{"spell": "shield", "dice": [3, 3, 1]}]])
    assert health(result) == [20, 19]


def test_shield_does_not_reduce_own_spells_reflected_back():
    # Rick's Fireball at Drew comes back from Drew's Mirror; Rick's own Shield does not soften his own spell.
    result = wd.resolve_round(duel(), [[6, 6, 1, 2, 3, 4], [5, 5, 5, 5, 5, 1]],
                              [[{"spell": "magic-mirror", "dice": [6, 6, 1, 2, 3, 4]}],
                               [{"spell": "fireball", "dice": [5] * 5}]])
    assert health(result) == [20, 14] and result.reflected == ("Rick: fireball",)


def test_shields_on_one_target_do_not_add_up():
    # A free Shield (ally reduction 1) from last round's Magic Shell plus a Shield with 3rd die 2: the Troll's
    # 3 is cut by 2 (the larger), and the Missile by 1 once.
    rick = wd.Wizard("Rick", 20, shells=(1,))
    drew = wd.Wizard("Drew", 20, (wd.Ally("troll", 3),))
    result = wd.resolve_round([drew, rick], [[6, 1, 2, 4, 5], [4, 4, 2, 1, 3, 6]],
                              [[{"spell": "magic-missiles", "dice": [6]}], [{"spell": "shield", "dice": [4, 4, 2]}]])
    assert result.tallies[1] == wd.Tally(ally_damage=1, spell_damage=0)


def test_equally_complex_counterspells_cannot_cancel_each_other():
    # Both Counterspells (4 dice) happen together: Drew's, naming Rick's, does not stop Rick's from
    # countering Drew's Missile.
    result = wd.resolve_round(duel(), [[1, 2, 3, 6, 6, 5], [2, 3, 4, 1, 5, 5]],
                              [[{"spell": "counterspell", "dice": [1, 2, 3, 6], "target": "opponent",
                                 "counters": "counterspell"}, {"spell": "magic-missiles", "dice": [6]}],
                               [{"spell": "counterspell", "dice": [2, 3, 4, 1], "counters": "magic-missiles"}]])
    assert result.countered == ("Drew: magic-missiles",) and health(result) == [20, 20]


def test_mirror_does_not_turn_its_casters_own_spells():
    result = wd.resolve_round(duel(15), [[1, 1, 2, 3, 4, 5], [1, 2, 3, 4, 6, 6]],
                              [[{"spell": "cure-heavy-wounds", "dice": [1, 2, 3, 4, 5]}],
                               [{"spell": "magic-mirror", "dice": [6, 6, 1, 2, 3, 4]}]])
    assert health(result) == [19, 20] and result.reflected == ()


def test_two_mirrors_do_not_bounce_a_spell_forever():
    result = wd.resolve_round(duel(), [[6, 6, 1, 2, 3, 4], [5, 5, 1, 2, 3, 4]],
                              [[{"spell": "magic-mirror", "dice": [6, 6, 1, 2, 3, 4]}],
                               [{"spell": "magic-mirror", "dice": [5, 5, 1, 2, 3, 4]}]])
    assert health(result) == [20, 20]


def test_mirror_turned_heal_respects_the_cap():
    result = wd.resolve_round(duel(15), [[1, 2, 3, 4, 5, 5], [6, 6, 1, 2, 3, 4]],
                              [[{"spell": "cure-heavy-wounds", "dice": [1, 2, 3, 4, 5]}],
                               [{"spell": "magic-mirror", "dice": [6, 6, 1, 2, 3, 4], "target": "opponent"}]])
    assert health(result) == [15, 21]  # Drew's 4 goes to Rick, who can only rise from 20 to 21


def test_reflected_counterspell_counters_nothing():
    # Drew's Counterspell at Rick (to stop the Mirror) is itself cast at the mirrored Rick and turned away.
    blocked = wd.resolve_round(duel(15), [[1, 2, 3, 6, 6, 6], [6, 6, 1, 2, 3, 4]],
                               [[{"spell": "counterspell", "dice": [1, 2, 3, 6], "target": "opponent",
                                  "counters": "magic-mirror"}],
                                [{"spell": "magic-mirror", "dice": [6, 6, 1, 2, 3, 4]}]])
    assert blocked.countered == () and blocked.reflected == ("Drew: counterspell",)


def test_counterspell_cancels_a_less_complex_paralysis_at_an_ally():
    result = wd.resolve_round(duel(a_allies=[("troll", 3)]), [[1, 2, 3, 4, 5], [2, 2, 2, 1, 5, 6]],
                              [[{"spell": "counterspell", "dice": [1, 2, 3, 4], "target": "ally-1",
                                 "counters": "paralysis"}],
                               [{"spell": "paralysis", "dice": [2, 2, 2], "target": "opponent-ally-1"}]])
    assert health(result) == [20, 17] and result.countered == ("Rick: paralysis",)


def test_two_paralyses_cost_two_dice():
    result = wd.resolve_round(duel(), [[2, 2, 2, 5, 5, 5], NOTHING],
                              [[{"spell": "paralysis", "dice": [2, 2, 2]}, {"spell": "paralysis", "dice": [5, 5, 5]}],
                               []])
    assert result.wizards[1].paralysed == 2 and wd.dice_available(0, result.wizards[1].paralysed) == 4


def test_finger_of_death_at_an_ally_kills_it():
    result = wd.resolve_round(duel(b_allies=[("troll", 3)]), [[2] * 6, [1, 2, 4, 5, 6]],
                              [[{"spell": "finger-of-death", "dice": [2] * 6, "target": "opponent-ally-1"}], []])
    assert result.wizards[1].allies == () and health(result) == [17, 20]


def test_poison_at_end_of_round_can_make_a_tie():
    # Drew, poisoned last round at 1 health, kills Rick with a Fireball, then the poison kills Drew.
    wizards = [wd.Wizard("Drew", 1, poison_due=1), wd.Wizard("Rick", 5)]
    result = wd.resolve_round(wizards, [[5, 5, 5, 5, 5, 1], NOTHING], [[{"spell": "fireball", "dice": [5] * 5}], []])
    assert result.outcome == "tie" and result.tallies[0].poison == 1


def test_poisoned_ally_loses_a_health_next_round():
    first = wd.resolve_round(duel(b_allies=[("troll", 3)]), [[1, 1, 1, 2, 4, 5], [1, 2, 4, 5, 6]],
                             [[{"spell": "poison-arrow", "dice": [1, 1, 1], "target": "opponent-ally-1"}], []])
    assert first.wizards[1].allies == ()  # 3 damage kills the Troll: no one left to poison
    second = wd.resolve_round(duel(b_allies=[("troll", 3)]), [[1, 1, 2, 4, 5, 6], [1, 2, 4, 5, 6]],
                              [[{"spell": "poison-arrow", "dice": [1, 1], "target": "opponent-ally-1"}], []])
    assert second.wizards[1].allies == (wd.Ally("troll", 1),)


def test_counter_order_refuses_non_counter_spells():
    with pytest.raises(ValueError, match="not a counter spell"):
        wd.counter_order([{"spell": "fireball", "dice": [1] * 5}])


def test_round_results_are_plain_data():
    result = plain(wd.resolve_round(duel(), [NOTHING, NOTHING], [[], []]))
    assert result["outcome"] == "ongoing" and result["tallies"][0] == {"healed": 0, "ally_damage": 0,
                                                                         "spell_damage": 0, "poison": 0}


# --- calculators ----------------------------------------------------------------------------------------

def test_allocate_calculator_reports_wasted_dice():
    assert facts("wizard-dice", "allocate", {"dice": "1,1,5,6,6", "spells": "magic-missiles,poison-arrow"}) == {
        "castable": True, "casts": [{"spell": "magic-missiles", "dice": [6, 6]},
                                    {"spell": "poison-arrow", "dice": [1, 1]}], "wasted": [5]}


def test_dice_calculator_for_round_four_of_the_example():
    assert facts("wizard-dice", "dice", {"allies": "1", "paralysed": "1"}) == {"dice": 4, "rolled": 4}
    assert facts("wizard-dice", "dice", {"carried": "2"}) == {"dice": 6, "rolled": 4}


def test_set_aside_calculator():
    assert facts("wizard-dice", "set-aside", {"spell_dice": "3", "allies": "1"}) == {"may_set_aside": 2}
    assert facts("wizard-dice", "set-aside", {"spell_dice": "5"}) == {"may_set_aside": 0}


@pytest.mark.parametrize("calc, params, message", [
    ("spells", {"dice": "1,2,7"}, "each a whole number from 1 to 6"),
    ("spells", {"dice": "1,1,1,1,1,1,1"}, "list of 1 to 6 items"),
    ("spells", {"dice": ""}, "list of 1 to 6 items"),
    ("spells", {"dice": "one"}, "comma-separated"),
    ("spells", {}, "missing parameter"),
    ("spells", {"dice": "1", "colour": "red"}, "unknown parameter"),
    ("allocate", {"dice": "1,2", "spells": "teleport"}, "unknown spells 'teleport'"),
    ("dice", {"allies": "5", "carried": "2"}, "carried dice must be 0 to 1"),
    ("dice", {"carried": "3"}, "parameter 'carried'"),
    ("dice", {"allies": "4", "paralysed": "3"}, "at most the wizard's 6 dice"),
    ("dice", {"allies": "-1"}, "from 0 to 6"),
    ("set-aside", {"spell_dice": "7"}, "from 0 to 6"),
    ("set-aside", {"spell_dice": "4", "allies": "3"}, "only 6"),
])
def test_calculators_refuse_bad_input(calc, params, message):
    with pytest.raises(CalcError, match=message):
        facts("wizard-dice", calc, params)
