"""Dragon Dice magic engine: icons to colours, terrain and burial doubling, spending, resolving, saves."""
import pytest

from engine import dragon_dice as dd
from engine.calculators import CalcError, describe, run

COASTLAND = ["blue", "green"]
EXAMPLE_G_ROLL = [{"colours": ["gold", "red"], "icon": "magic", "count": 4},
                  {"colours": ["green", "blue"], "icon": "magic", "count": 4}]


def facts(game: str, calc: str, params: dict) -> dict:
    """The facts a calculator answers with (its JSON `result`)."""
    return run(game, calc, params)["result"]


# --- rule A and C ---------------------------------------------------------------------------------

def test_magic_icon_forces_magic_but_allows_no_action():
    assert dd.magic_action("magic") is dd.MagicAction.MAGIC_OR_NOTHING


def test_eighth_face_lets_the_army_choose_magic():
    assert dd.magic_action("eighth") is dd.MagicAction.MAGIC_ALLOWED


@pytest.mark.parametrize("icon", ["melee", "missile"])
def test_melee_and_missile_faces_allow_no_magic(icon):
    assert dd.magic_action(icon) is dd.MagicAction.NO_MAGIC


def test_unknown_terrain_icon_is_refused():
    with pytest.raises(ValueError, match="terrain icon"):
        dd.magic_action("dragon")


def test_only_melee_is_counterattacked():
    assert [dd.counterattack(a) for a in ("melee", "missile", "magic")] == [True, False, False]


# --- icons, roll modifiers, colours, terrain ----------------------------------------------------

def test_id_and_cantrip_icons_count_as_magic_but_other_icons_do_not():
    rolled = [{"colours": ["blue", "gold"], "icon": icon, "count": 2}
              for icon in ("magic", "cantrip", "id", "melee", "missile", "save", "maneuver")]
    assert dd.icon_points(rolled) == {"blue/gold": 6}


def test_dice_of_the_same_colours_pool_whatever_order_their_colours_are_given():
    rolled = [{"colours": ["red", "gold"], "icon": "magic", "count": 1},
              {"colours": ["gold", "red"], "icon": "magic", "count": 2}]
    assert dd.icon_points(rolled) == {"gold/red": 3}


def test_unit_with_one_colour_is_refused_unless_dragonmaster():
    with pytest.raises(ValueError, match="two colours"):
        dd.Rolled(("gold",), "magic", 1)
    assert dd.Rolled(("gold",), "magic", 1, dragonmaster=True).group == "gold"


def test_unit_with_no_colour_is_refused_even_for_a_dragonmaster():
    with pytest.raises(ValueError, match="at least one colour"):
        dd.Rolled((), "magic", 1, dragonmaster=True)


def test_penalty_can_fall_on_either_set_of_icons():
    points = {"gold/red": 4, "blue/green": 4}
    assert dd.apply_roll_modifier(points, -4, {"blue/green": -4}) == {"gold/red": 4, "blue/green": 0}
    assert dd.apply_roll_modifier(points, -4, {"gold/red": -1, "blue/green": -3}) == {"gold/red": 3, "blue/green": 1}


def test_penalty_split_must_add_up():
    with pytest.raises(ValueError, match="do not add up"):
        dd.apply_roll_modifier({"gold/red": 4, "blue/green": 4}, -4, {"gold/red": -2})


def test_penalty_split_is_needed_with_several_groups():
    with pytest.raises(ValueError, match="caster chooses"):
        dd.apply_roll_modifier({"gold/red": 4, "blue/green": 4}, -4)


def test_group_cannot_give_up_more_icons_than_it_rolled():
    with pytest.raises(ValueError, match="more icons"):
        dd.apply_roll_modifier({"gold/red": 1, "blue/green": 4}, -2, {"gold/red": -2})


def test_penalty_larger_than_the_roll_wipes_it_out():
    assert dd.apply_roll_modifier({"gold/red": 1, "blue/green": 2}, -5,
                                  {"gold/red": -1, "blue/green": -2}) == {"gold/red": 0, "blue/green": 0}


def test_penalty_may_exceed_the_roll_only_by_emptying_every_group():
    with pytest.raises(ValueError, match="do not add up"):
        dd.apply_roll_modifier({"gold/red": 1, "blue/green": 2}, -5, {"gold/red": -1, "blue/green": -1})
    assert dd.apply_roll_modifier({"gold/red": 2}, -5) == {"gold/red": 0}


def test_share_with_the_wrong_sign_is_refused():
    with pytest.raises(ValueError, match="sign"):
        dd.apply_roll_modifier({"gold/red": 4, "blue/green": 4}, -2, {"gold/red": -3, "blue/green": 1})


def test_colour_must_belong_to_the_group():
    with pytest.raises(ValueError, match="cannot cast blue"):
        dd.choose_colours({"gold/red": 4}, {"gold/red": {"blue": 4}})


def test_every_point_gets_a_colour():
    with pytest.raises(ValueError, match="4 points to colour, not 3"):
        dd.choose_colours({"gold/red": 4}, {"gold/red": {"gold": 3}})


def test_group_emptied_by_a_penalty_needs_no_colour_choice():
    assert dd.choose_colours({"gold/red": 0, "blue/green": 4}, {"blue/green": {"blue": 4}}) == {"blue": 4}


def test_terrain_doubles_after_the_penalty_not_before():
    # 4 blue/green icons, -2 penalty: 2 points doubled to 4 (doubling the roll first would leave 6)
    rolled = [{"colours": ["blue", "green"], "icon": "magic", "count": 4}]
    assert dd.magic_points(rolled, {"blue/green": {"blue": 2}}, COASTLAND, roll_modifier=-2) == {"blue": 4}


def test_coastland_example_every_choice():
    for chosen, expected in [({"blue": 4}, {"blue": 8}), ({"green": 4}, {"green": 8}),
                             ({"blue": 2, "green": 2}, {"blue": 4, "green": 4})]:
        assert dd.magic_points(EXAMPLE_G_ROLL, {"blue/green": chosen}, COASTLAND, -4,
                               {"gold/red": -4}) == expected
    assert dd.magic_points(EXAMPLE_G_ROLL, {"gold/red": {"gold": 4}}, COASTLAND, -4,
                           {"blue/green": -4}) == {"gold": 4}


def test_black_magic_never_doubles_even_if_a_terrain_listed_black():
    assert dd.terrain_bonus({"black": 3, "gold": 1}, ["black", "gold"]) == {"black": 3, "gold": 2}


def test_reserve_army_never_doubles_magic():
    assert dd.terrain_bonus({"blue": 3, "green": 1}, COASTLAND, reserve=True) == {"blue": 3, "green": 1}


def test_unknown_colour_is_refused():
    with pytest.raises(ValueError, match="colour"):
        dd.terrain_bonus({"purple": 2}, COASTLAND)


# --- black magic ----------------------------------------------------------------------------------

def test_burial_must_use_as_much_health_as_possible():
    assert dd.legal_burials([1, 3], 3) == [[3]]
    assert dd.legal_burials([1, 3], 4) == [[1, 3]]
    assert dd.legal_burials([1, 2, 3], 3) == [[1, 2], [3]]


def test_nothing_to_bury_leaves_one_empty_option():
    assert dd.legal_burials([], 3) == [[]]
    assert dd.legal_burials([2], 0) == [[]]


def test_burial_of_negative_points_or_zero_health_is_refused():
    with pytest.raises(ValueError):
        dd.legal_burials([1], -1)
    with pytest.raises(ValueError):
        dd.legal_burials([0], 1)


def test_several_burial_problems_are_reported_together():
    assert dd.burial_problems(0, {"a": 1, "b": 1}, reserve=True) == [
        "reserve-army", "black-magic-not-cast", "more-than-one-player"]


def test_no_burial_asked_is_never_a_problem():
    assert dd.burial_problems(0, {}, reserve=True) == []


def test_double_black_magic_refuses_illegal_requests_with_the_rule():
    with pytest.raises(ValueError, match="rule L"):
        dd.double_black_magic(4, {"a": [1], "b": [1]}, {"a": 2, "b": 2})
    with pytest.raises(ValueError, match="rule M"):
        dd.double_black_magic(4, {"a": [1]}, {"a": 1}, reserve=True)


def test_burial_of_unknown_player_is_refused():
    with pytest.raises(ValueError, match="no dead unit area"):
        dd.double_black_magic(4, {"a": [1]}, {"z": 1})


def test_partial_burial_doubles_only_the_health_buried():
    # 4 points at a 3-health unit: the unit is buried, 3 points doubled, the 4th point not
    assert dd.double_black_magic(4, {"a": [3]}, {"a": 4}) == dd.BlackDoubling(7, 3, [[3]])


# --- spending and resolving -----------------------------------------------------------------------

def test_overspending_a_colour_is_refused():
    with pytest.raises(ValueError, match="only 3 available"):
        dd.spend({"gold": 3}, [{"spell": "stoneskin", "army": "x"}] * 2)


def test_stoneskin_is_paid_in_gold_only():
    with pytest.raises(ValueError, match="colour gold"):
        dd.spend({"blue": 2}, [{"spell": "stoneskin", "army": "x", "colour": "blue"}])


def test_stoneskin_cannot_target_a_unit():
    with pytest.raises(ValueError, match="targets an army"):
        dd.spend({"gold": 2}, [{"spell": "stoneskin", "army": "x", "unit": "troll"}])


def test_spell_of_unstated_cost_needs_it_given():
    with pytest.raises(ValueError, match="colour and cost of hailstorm"):
        dd.spend({"blue": 5}, [{"spell": "hailstorm", "army": "x"}])
    spent = dd.spend({"blue": 5}, [{"spell": "hailstorm", "army": "x", "colour": "blue", "cost": 2}])
    assert spent == dd.Spending({"blue": 2}, {"blue": 3})


def test_may_target_knows_only_the_faq_spells():
    assert dd.may_target("lightning strike", "unit") and not dd.may_target("hailstorm", "unit")
    with pytest.raises(ValueError, match="does not say"):
        dd.may_target("fireball", "army")


def test_struck_unit_still_rolls_against_the_army_spell():
    effects = dd.resolve({"n": ["goblin", "troll"]}, [
        {"spell": "lightning strike", "army": "n", "unit": "troll", "damage": 1},
        {"spell": "hailstorm", "army": "n", "damage": 1},
    ])
    assert [e.rollers for e in effects] == [["troll"], ["goblin", "troll"]]


def test_repeated_castings_merge_into_one_stronger_spell():
    (hail,) = dd.resolve({"n": ["goblin"]}, [{"spell": "hailstorm", "army": "n", "damage": 1}] * 3)
    assert (hail.castings, hail.damage, hail.save_rolls) == (3, 3, 1)


def test_unit_spells_at_different_units_stay_apart():
    effects = dd.resolve({"n": ["a", "b"]}, [{"spell": "lightning strike", "army": "n", "unit": u, "damage": 1}
                                            for u in ("a", "b")])
    assert [(e.unit, e.castings) for e in effects] == [("a", 1), ("b", 1)]


def test_resolve_refuses_a_missing_target():
    with pytest.raises(ValueError, match="no such target"):
        dd.resolve({"n": ["a"]}, [{"spell": "lightning strike", "army": "n", "unit": "z", "damage": 1}])


# --- lasting spells and saves ---------------------------------------------------------------------

def test_stoneskin_lasts_the_casters_own_turn_and_ends_at_the_next():
    cast = [{"caster": "bob", "round": 1}]
    order = ["alice", "bob", "carol"]
    assert dd.stoneskin_bonus(cast, order, "alice", 1) == 0  # before it was cast
    assert dd.stoneskin_bonus(cast, order, "bob", 1) == 1
    assert dd.stoneskin_bonus(cast, order, "alice", 2) == 1
    assert dd.stoneskin_bonus(cast, order, "bob", 2) == 0


def test_stoneskin_caster_outside_turn_order_is_refused():
    with pytest.raises(ValueError, match="turn order"):
        dd.stoneskin_bonus([{"caster": "zed", "round": 1}], ["alice"], "alice", 1)


def test_move_keeps_effects_that_are_not_duration_spells():
    assert dd.effects_after_move(["stoneskin", "frosted"], "reserve", "coastland") == ["frosted"]


def test_frost_halves_the_roll_before_stoneskins_add():
    assert dd.saves(7, frosted=True, stoneskins=3) == {"saves": 6}
    assert dd.saves(0, frosted=True, stoneskins=0) == {"saves": 0}


def test_negative_saves_are_refused():
    with pytest.raises(ValueError):
        dd.saves(-1)


# --- calculators ----------------------------------------------------------------------------------

def test_saves_calculator_from_strings():
    assert facts("dragon-dice", "saves", {"rolled": "7", "frosted": "true", "stoneskins": "3"}) == {"saves": 6}
    assert facts("dragon-dice", "saves", {"rolled": "5"}) == {"saves": 5}


def test_saves_calculator_rejects_bad_input():
    with pytest.raises(CalcError, match="whole number"):
        facts("dragon-dice", "saves", {"rolled": "seven"})
    with pytest.raises(CalcError, match="parameter 'stoneskins'"):
        facts("dragon-dice", "saves", {"rolled": "3", "stoneskins": "-1"})
    with pytest.raises(CalcError, match="missing parameter 'rolled'"):
        facts("dragon-dice", "saves", {})


def test_magic_points_calculator_doubles_terrain_colours_only():
    result = facts("dragon-dice", "magic-points", {"blue": "4", "gold": "2", "black": "1", "terrain_colours": "blue,green"})
    assert result == {"points": {"black": 1, "blue": 8, "gold": 2}, "total": 11, "doubled": ["blue"]}
    in_reserve = facts("dragon-dice", "magic-points", {"blue": "4", "terrain_colours": "blue,green", "reserve": "yes"})
    assert in_reserve == {"points": {"blue": 4}, "total": 4, "doubled": []}


def test_magic_points_calculator_rejects_malformed_points():
    with pytest.raises(CalcError, match="parameter 'blue'"):
        facts("dragon-dice", "magic-points", {"blue": "4 points", "terrain_colours": "blue"})
    with pytest.raises(CalcError, match="unknown terrain colours 'purple'"):
        facts("dragon-dice", "magic-points", {"blue": "4", "terrain_colours": "purple"})


def test_black_magic_calculator_applies_forced_burial():
    result = facts("dragon-dice", "black-magic", {"black_points": "3", "dead_units": "1,3", "bury_points": "3"})
    assert result == {"points": 6, "doubled": 3, "burial_options": [[3]]}
    nothing = facts("dragon-dice", "black-magic", {"black_points": "2", "dead_units": "3", "bury_points": "2"})
    assert nothing == {"points": 2, "doubled": 0, "burial_options": [[]]}


def test_black_magic_calculator_refuses_reserve_and_overburial():
    with pytest.raises(CalcError, match="reserve army"):
        facts("dragon-dice", "black-magic",
            {"black_points": "3", "dead_units": "3", "bury_points": "3", "reserve": "true"})
    with pytest.raises(CalcError, match="rule I"):
        facts("dragon-dice", "black-magic", {"black_points": "2", "dead_units": "3", "bury_points": "3"})


def test_calculators_are_described_with_help():
    described = describe()["dragon-dice"]
    assert set(described) == {"saves", "magic-points", "black-magic"}
    assert all(help_text for calc in described.values() for help_text in calc["params"].values())


def test_burial_choices_of_a_large_dead_pool_are_counted_per_health_value():
    dead = [1, 2, 3, 4] * 40  # 160 units: trying every subset would never finish
    ways = dd.legal_burials(dead, 5)
    assert ways == [[1, 1, 1, 1, 1], [1, 1, 1, 2], [1, 1, 3], [1, 2, 2], [1, 4], [2, 3]]
    with pytest.raises(ValueError, match="1 to 4 health"):
        dd.legal_burials([5], 3)
