"""Magic Combat with Dice engine: attack rolls, the Attack Table, battles, healing, mulligans, calculators."""
import pytest

from engine.calculators import CalcError, run
from engine.magic_combat_dice import (
    Creature,
    Result,
    Thresholds,
    allocator,
    attack,
    attack_mode,
    attack_total,
    band_landwalks,
    band_legal,
    battle,
    classify,
    constructed_sideboard_legal,
    damage,
    defense_power,
    heal_at_end_of_turn,
    limited_sideboard,
    may_mulligan,
    mulligan_phase,
    regenerated_toughness,
)
from engine.registry import plain

TABLE = Thresholds(partial_hit=10, hit=15, critical_hit=20)   # illustrative: the source prints no thresholds


def facts(game: str, calc: str, params: dict) -> dict:
    """The facts a calculator answers with (its JSON `result`)."""
    return run(game, calc, params)["result"]


def calc(name, **params):
    return facts("magic-combat-dice", name, {k: str(v) for k, v in params.items()})


# --- thresholds and the Attack Table ----------------------------------------------------------------------

def test_thresholds_have_no_default_because_the_source_prints_none():
    with pytest.raises(TypeError):
        Thresholds()  # type: ignore[call-arg]


def test_partial_hit_cannot_start_below_five_because_lower_totals_miss():
    with pytest.raises(ValueError, match="below 5"):
        Thresholds(partial_hit=4, hit=10, critical_hit=15)
    assert Thresholds(partial_hit=5, hit=6, critical_hit=7).partial_hit == 5


def test_thresholds_must_rise_strictly():
    with pytest.raises(ValueError, match="rise strictly"):
        Thresholds(partial_hit=10, hit=10, critical_hit=20)
    with pytest.raises(ValueError, match="rise strictly"):
        Thresholds(partial_hit=10, hit=15, critical_hit=12)


def test_thresholds_may_be_given_as_plain_data():
    assert classify(12, 12, {"partial_hit": 10, "hit": 15, "critical_hit": 20}) is Result.PARTIAL_HIT


@pytest.mark.parametrize("total, result", [
    (-3, Result.MISS), (9, Result.MISS), (10, Result.PARTIAL_HIT), (14, Result.PARTIAL_HIT),
    (15, Result.HIT), (19, Result.HIT), (20, Result.CRITICAL_HIT), (40, Result.CRITICAL_HIT),
])
def test_table_rows_start_at_their_thresholds(total, result):
    assert classify(10, total, TABLE) is result


def test_natural_one_is_a_critical_miss_whatever_the_total():
    assert classify(1, 30, TABLE) is Result.CRITICAL_MISS


def test_modified_one_is_not_a_natural_one():
    assert classify(3, 1, TABLE) is Result.MISS


@pytest.mark.parametrize("face", [0, 21, -1])
def test_a_d20_face_outside_one_to_twenty_is_refused(face):
    with pytest.raises(ValueError, match="d20"):
        attack_total(face, 3)


# --- attack totals -----------------------------------------------------------------------------------------

def test_undefended_total_is_roll_plus_power():
    assert attack_total(8, 3) == 11


def test_resisted_total_subtracts_blocker_power_and_can_go_negative():
    assert attack_total(12, 4, defense=3) == 13
    assert attack_total(2, 0, defense=6) == -4


def test_power_changed_after_the_roll_changes_the_total():
    assert attack_total(8, 3, defense=2, after_roll=1) == 10
    assert attack_total(8, 3, defense=2, after_roll=-3) == 6


def test_several_blockers_resist_with_average_power_rounded_down():
    assert defense_power([4, 1]) == 2
    assert defense_power([3, 3, 2]) == 2
    assert defense_power([-1, 0]) == -1   # rounded down, not toward zero


def test_defending_band_resists_with_summed_power():
    assert defense_power([4, 1], banded=True) == 5


def test_no_blockers_resist_nothing():
    assert defense_power([]) == 0


def test_attack_without_blockers_is_undefended_and_with_them_resisted():
    assert attack(12, 4, TABLE).total == 16
    assert attack(12, 4, TABLE, blockers=[4, 1]).total == 14
    assert attack(12, 4, TABLE, blockers=[4, 1], banded=True).total == 11


# --- damage ------------------------------------------------------------------------------------------------

def test_partial_hit_halves_rounding_down():
    assert damage(5, "partial-hit") == damage(4, Result.PARTIAL_HIT)
    assert plain(damage(5, "partial-hit")) == {"damage": 2, "to": "defender"}


def test_partial_hit_of_a_power_one_creature_deals_one():
    assert damage(1, "partial-hit").damage == 1
    assert damage(2, "partial-hit", after_roll=-1).damage == 1


def test_partial_hit_of_a_power_zero_creature_deals_nothing():
    assert damage(0, "partial-hit").damage == 0


def test_hit_deals_current_full_power():
    assert damage(4, "hit").damage == 4
    assert damage(4, "hit", after_roll=2).damage == 6


def test_critical_hit_doubles_only_the_pre_roll_power():
    assert damage(3, "critical-hit", after_roll=2).damage == 8
    assert damage(3, "critical-hit", after_roll=-2).damage == 4


def test_miss_deals_nothing_to_nobody():
    assert plain(damage(9, "miss")) == {"damage": 0, "to": "nobody"}


def test_critical_miss_hurts_the_attacker_for_half_its_power():
    assert plain(damage(5, "critical-miss")) == {"damage": 2, "to": "attacker"}
    assert damage(1, "critical-miss").damage == 0


def test_negative_power_never_deals_negative_damage():
    assert damage(3, "hit", after_roll=-5).damage == 0
    assert damage(1, "critical-hit", after_roll=-5).damage == 0
    assert damage(-2, "critical-miss").damage == 0


def test_unknown_result_is_refused():
    with pytest.raises(ValueError):
        damage(3, "glancing-blow")


# --- modes, bands, allocation ------------------------------------------------------------------------------

def test_landwalker_attacks_undefended_even_when_blocked():
    assert attack_mode(blocked=True, landwalk=True) == "undefended"
    assert attack_mode(blocked=True) == "resisted"
    assert attack_mode(blocked=False) == "undefended"


def test_attacking_band_needs_banding_on_all_but_one():
    assert band_legal([True, False], "attacking")
    assert band_legal([True, True], "attacking")
    assert not band_legal([False, False], "attacking")


def test_defending_band_needs_banding_on_one():
    assert band_legal([False, False, True], "defending")
    assert not band_legal([False, False], "defending")


def test_a_band_needs_two_creatures_and_a_side():
    with pytest.raises(ValueError, match="two creatures"):
        band_legal([True], "attacking")
    with pytest.raises(ValueError, match="side"):
        band_legal([True, True], "sideways")


def test_band_is_unblockable_only_if_every_member_landwalks():
    assert band_landwalks([True, True])
    assert not band_landwalks([True, False])


def test_only_damage_to_a_defending_band_is_allocated_by_the_defender():
    assert allocator("blockers") == "attacking player"
    assert allocator("attacking-band") == "attacking player"
    assert allocator("defending-band") == "defending player"
    with pytest.raises(ValueError):
        allocator("spectators")


# --- battles ------------------------------------------------------------------------------------------------

OGRE = {"name": "Ogre", "power": 3, "toughness": 3}
BEAR = {"name": "Bear", "power": 2, "toughness": 4}


def test_surviving_blocker_counter_strikes_with_roles_swapped():
    fight = battle([OGRE], TABLE, [9, 16], blockers=[BEAR])
    assert [(s.by, s.total, s.result) for s in fight.strikes] == [("Ogre", 10, "partial-hit"), ("Bear", 15, "hit")]
    assert fight.toughness == {"Ogre": 1, "Bear": 3}


def test_blocker_killed_by_the_attack_never_counter_strikes():
    fight = battle([OGRE], TABLE, [17], blockers=[{**BEAR, "toughness": 2}])
    assert len(fight.strikes) == 1 and fight.toughness["Bear"] == 0


def test_counter_strikes_stop_once_the_attacker_is_dead():
    blockers = [{"name": "A", "power": 3, "toughness": 9}, {"name": "B", "power": 3, "toughness": 9}]
    fight = battle([{**OGRE, "toughness": 1}], TABLE, [5, 18], blockers=blockers)
    assert [s.by for s in fight.strikes] == ["Ogre", "A"]
    assert fight.toughness["Ogre"] == 0


def test_defending_creatures_keep_full_power_for_counter_strikes():
    blockers = [{"name": "Bear", "power": 4, "toughness": 3}, {"name": "Elf", "power": 1, "toughness": 1}]
    fight = battle([{"name": "Giant", "power": 6, "toughness": 6}], TABLE, [11, 14], blockers=blockers,
                   allocations=[[2, 4]])
    assert fight.strikes[0].total == 15          # 11 + 6 - average 2
    assert fight.strikes[1].total == 12          # 14 + full 4 - 6
    assert fight.strikes[0].allocated_by == "attacking player"


def test_damage_on_several_creatures_needs_a_matching_allocation():
    blockers = [{"name": "A", "power": 1, "toughness": 5}, {"name": "B", "power": 1, "toughness": 5}]
    with pytest.raises(ValueError, match="allocation is needed"):
        battle([OGRE], TABLE, [15], blockers=blockers)
    with pytest.raises(ValueError, match="must split"):
        battle([OGRE], TABLE, [15], blockers=blockers, allocations=[[1, 1]])
    with pytest.raises(ValueError, match="must split"):
        battle([OGRE], TABLE, [15], blockers=blockers, allocations=[[4, -1]])


def test_critical_miss_hurts_the_attacker_and_the_blocker_still_strikes():
    fight = battle([{**OGRE, "power": 5, "toughness": 5}], TABLE, [1, 16], blockers=[{**BEAR, "toughness": 2}])
    assert fight.strikes[0].dealt == {"Ogre": 2}
    assert fight.strikes[1].by == "Bear"
    assert fight.toughness == {"Ogre": 2, "Bear": 2}


def test_first_strike_blocker_strikes_before_the_attack():
    knight = {"name": "Knight", "power": 2, "toughness": 2, "first_strike": True}
    fight = battle([OGRE], TABLE, [18, 5], blockers=[knight])
    assert [s.by for s in fight.strikes] == ["Knight", "Ogre"]


def test_attacker_does_not_roll_when_its_only_blocker_is_gone():
    knight = {"name": "Knight", "power": 2, "toughness": 1, "first_strike": True}
    fight = battle([OGRE], TABLE, [1], blockers=[knight])   # one face: a second roll would raise
    assert [(s.by, s.result, s.dealt) for s in fight.strikes] == [("Knight", "critical-miss", {"Knight": 1})]
    assert fight.toughness == {"Ogre": 3, "Knight": 0}


def test_first_strike_does_nothing_for_an_attacker():
    with_it = battle([{**OGRE, "first_strike": True}], TABLE, [9, 16], blockers=[BEAR])
    without = battle([OGRE], TABLE, [9, 16], blockers=[BEAR])
    assert with_it == without


def test_wall_deals_its_power_without_a_roll():
    wall = {"name": "Wall", "power": 3, "toughness": 5, "wall": True}
    fight = battle([{**OGRE, "power": 4, "toughness": 4}], TABLE, [10], blockers=[wall])
    assert plain(fight.strikes[1]) == {"by": "Wall", "at": "Ogre", "roll": 0, "total": 0, "result": "automatic",
                                       "dealt": {"Ogre": 3}, "allocated_by": ""}


def test_regenerating_creature_survives_lethal_damage_at_one_toughness():
    troll = Creature("Troll", power=1, toughness=2, regenerates=True)
    fight = battle([{**OGRE, "power": 5}], TABLE, [15, 12], blockers=[troll])
    assert fight.toughness["Troll"] == 1


def test_landwalker_ignores_blockers_and_hits_the_player():
    walker = {"name": "Walker", "power": 2, "toughness": 2, "landwalk": True}
    fight = battle([walker], TABLE, [13], blockers=[BEAR])
    assert (fight.mode, fight.player_damage, len(fight.strikes)) == ("undefended", 2, 1)


def test_band_with_a_blockable_member_is_resisted():
    band = [{"name": "W1", "power": 2, "toughness": 2, "landwalk": True, "banding": True},
            {"name": "W2", "power": 2, "toughness": 2}]
    assert battle(band, TABLE, [5, 5], blockers=[BEAR]).mode == "resisted"


def test_attacking_band_rolls_once_with_summed_power():
    band = [{"name": "Knight", "power": 2, "toughness": 2, "banding": True}, OGRE]
    fight = battle(band, TABLE, [10, 17], blockers=[BEAR], allocations=[[0, 1]])
    assert fight.strikes[0].total == 13
    assert fight.strikes[1].total == 14          # the counter strike subtracts the band's 5
    assert fight.strikes[1].allocated_by == "attacking player"


def test_illegal_attacking_band_is_refused():
    with pytest.raises(ValueError, match="all but one|every creature but one"):
        battle([OGRE, BEAR], TABLE, [10])


def test_defending_band_resists_with_sum_and_strikes_once():
    band = [{"name": "Knight", "power": 2, "toughness": 2, "banding": True},
            {"name": "Squire", "power": 3, "toughness": 3}]
    fight = battle([{"name": "Ogre", "power": 6, "toughness": 6}], TABLE, [18, 13], blockers=band,
                   defenders_banded=True, allocations=[[1, 5]])
    assert fight.strikes[0].total == 19 and fight.strikes[0].allocated_by == "defending player"
    assert [s.by for s in fight.strikes] == ["Ogre", "Knight+Squire"]


def test_defending_band_needs_a_bander_and_refuses_what_the_source_leaves_open():
    plain_pair = [{"name": "A", "power": 1, "toughness": 1}, {"name": "B", "power": 1, "toughness": 1}]
    with pytest.raises(ValueError, match="banding"):
        battle([OGRE], TABLE, [10], blockers=plain_pair, defenders_banded=True)
    with pytest.raises(ValueError, match="source does not say"):
        battle([OGRE], TABLE, [10], blockers=[{**plain_pair[0], "banding": True}, {**plain_pair[1], "wall": True}],
               defenders_banded=True)


def test_post_roll_power_counts_for_later_counter_strikes():
    fight = battle([OGRE], TABLE, [9, 16], blockers=[BEAR], after_roll=2)
    assert fight.strikes[1].total == 13          # 16 + 2 - (3 + 2)


def test_battle_needs_an_attacker_and_distinct_names():
    with pytest.raises(ValueError, match="attacker"):
        battle([], TABLE, [10])
    with pytest.raises(ValueError, match="own name"):
        battle([OGRE], TABLE, [10], blockers=[{**BEAR, "name": "Ogre"}])


def test_battle_fails_loudly_when_dice_run_out():
    with pytest.raises(RuntimeError):
        battle([OGRE], TABLE, [9], blockers=[BEAR])


# --- healing and regeneration --------------------------------------------------------------------------------

def test_damage_does_not_heal_by_itself():
    assert plain(heal_at_end_of_turn(2, 5, heal=False)) == {"toughness": 2, "controller_pays": 0, "opponent_pays": 0}


def test_healing_costs_the_missing_toughness_in_life():
    assert plain(heal_at_end_of_turn(2, 5, heal=True)) == {"toughness": 5, "controller_pays": 3, "opponent_pays": 0}


def test_opponent_prevents_healing_by_paying_the_same():
    assert plain(heal_at_end_of_turn(2, 5, heal=True, prevent=True)) == {"toughness": 2, "controller_pays": 3,
                                                                          "opponent_pays": 3}


def test_no_healing_past_legal_toughness_or_from_the_graveyard():
    assert heal_at_end_of_turn(4, 3, heal=True).controller_pays == 0
    assert heal_at_end_of_turn(0, 3, heal=True).toughness == 0


def test_regenerated_creature_gains_one_toughness_a_turn_to_its_max():
    assert [regenerated_toughness(3, t) for t in range(5)] == [1, 2, 3, 3, 3]
    with pytest.raises(ValueError):
        regenerated_toughness(0, 1)
    with pytest.raises(ValueError):
        regenerated_toughness(3, -1)


# --- mulligans and sideboards ---------------------------------------------------------------------------------

def test_each_mulligan_draws_one_card_fewer():
    assert mulligan_phase(7, ["first:mulligan", "first:keep", "second:keep"]) == {"first": 6, "second": 7}


def test_mulligans_allowed_down_to_an_empty_hand_only():
    assert mulligan_phase(2, ["first:mulligan", "first:mulligan"]) == {"first": 0, "second": 2}
    with pytest.raises(ValueError, match="no cards left"):
        mulligan_phase(1, ["first:mulligan", "first:mulligan"])


def test_second_player_waits_for_the_first_to_keep():
    with pytest.raises(ValueError, match="first player decides"):
        mulligan_phase(7, ["second:mulligan"])
    with pytest.raises(ValueError, match="first player decides"):
        mulligan_phase(7, ["first:mulligan", "second:keep"])


def test_a_kept_hand_is_final():
    with pytest.raises(ValueError, match="change his mind"):
        mulligan_phase(7, ["first:keep", "first:mulligan"])
    assert not may_mulligan("second", ["first:keep", "second:keep"], 7)


def test_malformed_mulligan_decisions_are_refused():
    with pytest.raises(ValueError, match="decision"):
        mulligan_phase(7, ["third:mulligan"])
    with pytest.raises(ValueError, match="player"):
        may_mulligan("dealer", [], 7)
    with pytest.raises(ValueError):
        mulligan_phase(-1, [])


def test_constructed_sideboard_holds_up_to_fifteen():
    assert constructed_sideboard_legal(0) and constructed_sideboard_legal(15)
    assert not constructed_sideboard_legal(16)
    with pytest.raises(ValueError):
        constructed_sideboard_legal(-1)


def test_limited_sideboard_is_the_unused_pool_counting_copies():
    assert limited_sideboard(["Bear", "Bear", "Shock"], ["Bear"]) == ["Bear", "Shock"]
    with pytest.raises(ValueError, match="not in the pool"):
        limited_sideboard(["Bear"], ["Bear", "Bear"])


# --- calculators ----------------------------------------------------------------------------------------------

def test_damage_calculator_required_example():
    assert calc("damage", power=3, result="critical-hit", after_roll=2) == {"damage": 8, "to": "defender"}


def test_damage_calculator_critical_miss_hurts_the_attacker():
    assert calc("damage", power=5, result="critical-miss") == {"damage": 2, "to": "attacker"}


def test_damage_calculator_partial_hit_and_miss():
    assert calc("damage", power=1, result="partial-hit") == {"damage": 1, "to": "defender"}
    assert calc("damage", power=7, result="miss") == {"damage": 0, "to": "nobody"}


def test_damage_calculator_rejects_unknown_result_and_bad_numbers():
    with pytest.raises(CalcError, match="result"):
        calc("damage", power=3, result="glancing")
    with pytest.raises(CalcError, match="power"):
        calc("damage", power="lots", result="hit")
    with pytest.raises(CalcError, match="missing"):
        facts("magic-combat-dice", "damage", {"power": "3"})


def test_attack_calculator_resisted_by_several_blockers():
    assert calc("attack", roll=11, power=6, partial_hit=10, hit=15, critical_hit=20, blockers="4,1") == {
        "total": 15, "result": "hit", "damage": 6, "to": "defender"}


def test_attack_calculator_undefended_and_banded():
    assert calc("attack", roll=16, power=4, partial_hit=10, hit=15, critical_hit=20)["result"] == "critical-hit"
    assert calc("attack", roll=18, power=6, partial_hit=10, hit=15, critical_hit=20, blockers="2,3",
                banded="true")["total"] == 19


def test_attack_calculator_refuses_impossible_dice_and_tables():
    with pytest.raises(CalcError, match="parameter 'roll'"):
        calc("attack", roll=21, power=3, partial_hit=10, hit=15, critical_hit=20)
    with pytest.raises(CalcError, match="parameter 'partial_hit'"):
        calc("attack", roll=10, power=3, partial_hit=3, hit=15, critical_hit=20)


def test_heal_calculator():
    assert calc("heal", toughness=2, legal_toughness=5) == {"toughness": 5, "controller_pays": 3, "opponent_pays": 0}
    assert calc("heal", toughness=2, legal_toughness=5, prevent="yes")["opponent_pays"] == 3
    with pytest.raises(CalcError, match="parameter 'legal_toughness'"):
        calc("heal", toughness=0, legal_toughness=0)
    with pytest.raises(CalcError, match="more toughness left than its legal toughness"):
        calc("heal", toughness=4, legal_toughness=3)


def test_mulligan_calculator():
    assert calc("mulligan", hand_size=7, mulligans=2) == {"hand": 5}
    assert calc("mulligan", hand_size=7, mulligans=7) == {"hand": 0}
    with pytest.raises(CalcError, match="mulligans"):
        calc("mulligan", hand_size=7, mulligans=8)
    with pytest.raises(CalcError, match="parameter 'hand_size'"):
        calc("mulligan", hand_size=-1, mulligans=0)
