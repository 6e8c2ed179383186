"""Paths of the Lance engine: the expansion's rules as functions, and its tables checked against rulings.db."""
import json
import re
import sqlite3
from pathlib import Path

import pytest

from engine import paths_of_the_lance as pol
from engine.calculators import CalcError, run

DB = Path(__file__).resolve().parents[2] / "rulings.db"
GAME = "paths-of-the-lance"


def facts(game: str, calc: str, params: dict) -> dict:
    """The facts a calculator answers with (its JSON `result`)."""
    return run(game, calc, params)["result"]


def stored_rows(table: str) -> list[dict]:
    conn = sqlite3.connect(f"file:{DB}?mode=ro", uri=True)
    try:
        rows = conn.execute("select cells from rule_table_rows where table_id = ? order by row",
                            (f"paths-of-the-lance/{table}",)).fetchall()
    finally:
        conn.close()
    assert rows, f"no stored rows for {table}"
    return [json.loads(cells) for (cells,) in rows]


# --- constants agree with the tables ingest stored ----------------------------------------------------

def test_activation_numbers_match_stored_table():
    rows = stored_rows("new-rules/b/3/table/nation-activation-numbers")
    stored = [(tuple(n.strip() for n in r["nations"].split(",")), int(r["hl"]), int(r["ws"])) for r in rows]
    assert stored == [(a.nations, a.hl, a.ws) for a in pol.ACTIVATION_NUMBERS]


def test_invasion_bonus_bands_match_stored_table():
    side = None
    parsed = []
    for row in stored_rows("new-rules/b/3/table/invasion-strength-bonus"):
        low, high = re.fullmatch(r"(\d+)(?:-(\d+)|\+)", row["strength"]).groups()
        amount, named = re.fullmatch(r"\+?(\d+)(?: to (HL|WS) roll)?", row["bonus"]).groups()
        side = named or side   # "+1" and "+2" rows continue the side named in the row above
        parsed.append((int(low), int(high) if high else None, (side if int(amount) else None, int(amount))))
    assert parsed == [(b.low, b.high, b.value) for b in pol.INVASION_BONUS]


def test_berem_chart_matches_stored_table():
    rows = stored_rows("new-rules/d/table/berem-placement")
    assert {int(r["roll"]): r["location"].rstrip("*") for r in rows} == pol.BEREM_TABLE


def test_highlord_replacements_match_stored_table():
    rows = stored_rows("new-rules/a/table/highlord-replacement")
    assert [r["wing"] for r in rows] == list(pol.WING_HIGHLORDS)
    for row in rows:
        original = pol.WING_HIGHLORDS[row["wing"]]
        assert row["original"].startswith(original)
        assert pol.REPLACEMENTS[original] in row["replacement"].replace("’", "'")


# --- eras, hands, turn ----------------------------------------------------------------------------------

@pytest.mark.parametrize("status, expected", [(0, 1), (1, 1), (14, 1), (15, 2), (29, 2), (30, 3), (45, 3)])
def test_era_changes_at_war_status_15_and_30(status, expected):
    assert pol.era(status) == expected


def test_negative_war_status_is_refused():
    with pytest.raises(ValueError):
        pol.era(-1)


def test_hand_grows_by_one_card_per_era():
    assert [pol.replenish_hand(e, 0)["hand_size"] for e in (1, 2, 3)] == [5, 6, 7]


def test_replenishing_never_draws_a_negative_number():
    assert pol.replenish_hand(1, 6) == {"hand_size": 5, "draw": 0}


def test_there_is_no_fourth_era():
    with pytest.raises(ValueError):
        pol.replenish_hand(4, 0)


def test_each_side_does_both_phases_once_in_steps_4_to_7():
    steps = pol.turn_sequence("HL", "move", "move")[3:7]
    assert [(s.side, s.action) for s in steps] == [("HL", "move"), ("WS", "move"), ("HL", "cards"), ("WS", "cards")]


def test_turn_sequence_refuses_unknown_phase_choice():
    with pytest.raises(ValueError):
        pol.turn_sequence("HL", "fight", "cards")
    with pytest.raises(ValueError):
        pol.turn_step(12)


def test_discarding_a_card_not_in_hand_is_refused():
    with pytest.raises(ValueError):
        pol.end_of_turn_discard(["A"], ["B"])


def test_no_discard_is_allowed():
    assert pol.end_of_turn_discard(["A"], []) == {"allowed": True, "hand": ["A"], "to_deck": []}


# --- cards ----------------------------------------------------------------------------------------------

def test_card_value_is_never_split_between_ap_and_rp():
    assert pol.play_card("ap", 2, 4) == {"ap": 2, "rp": 0, "fate": "discarded"}
    assert pol.play_card("rp", 2, 4) == {"ap": 0, "rp": 4, "fate": "discarded"}


def test_asterisk_only_saves_event_plays():
    assert pol.play_card("ap", 1, 1, asterisk=True)["fate"] == "discarded"
    assert pol.play_card("event", 1, 1)["fate"] == "removed"
    with pytest.raises(ValueError):
        pol.play_card("movement", 1, 1)


def test_non_activation_card_is_always_kept():
    assert pol.deal_card(["Tarsis"])["kept"] is True


def test_war_status_card_goes_to_its_side_not_the_initiative_side():
    assert pol.event_phase_card("HL", 6, 6, war_status="WS")["claimant"] == "WS"
    assert pol.event_phase_card("HL", 6, 6)["claimant"] == "HL"


def test_trade_requires_equal_ap_rp_totals():
    assert pol.trade(6, 6) == {"allowed": True}
    assert pol.trade(6, 7) == {"allowed": False}
    with pytest.raises(ValueError):
        pol.trade(-1, 0)


def test_event_phase_activation_needs_a_second_roll_after_a_failure():
    with pytest.raises(ValueError):
        pol.event_phase_activation("HL", {"HL": 1, "WS": 1}, [9])


def test_event_phase_activation_rejects_impossible_faces():
    with pytest.raises(ValueError):
        pol.event_phase_activation("HL", {"HL": 1, "WS": 1}, [11])


def test_stack_sending_no_counters_needs_no_ap():
    assert pol.assault_points([], [0, 0]) == {"ap": 0, "needed": 0, "allowed": True}


# --- re-building -----------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", sorted(pol.UNREBUILDABLE))
def test_unrebuildable_kinds_are_refused(kind):
    with pytest.raises(ValueError, match="may not be re-built"):
        pol.rebuild(kind, 3, 1)


def test_hl_cannot_rebuild_before_dark_temple():
    with pytest.raises(ValueError, match="Dark Temple"):
        pol.rebuild("army", 3, 1, side="HL")


def test_knights_rebuild_in_any_knight_nation():
    assert pol.rebuild("knight", 2, 4)["placed"] == "any knight nation"


def test_unknown_unit_kind_is_refused():
    with pytest.raises(ValueError):
        pol.replenish_site_ok("wizard", "city", True)


def test_mercenary_replenished_in_neraka_outside_home_borders():
    assert pol.replenish_site_ok("mercenary", "other", False, site_name="Neraka") is True
    assert pol.replenish_site_ok("mercenary", "other", False, site_name="Tarsis") is False


def test_ordinary_army_not_replenished_in_knight_nation():
    assert pol.replenish_site_ok("army", "other", False, knight_nation=True) is False


def test_single_rp_card_larger_than_need_is_allowed_but_loses_surplus():
    assert pol.rp_cards([5], 2) == {"allowed": True, "rp": 5, "used": 2, "lost": 3}


def test_rp_cards_with_nothing_to_build_are_refused():
    assert pol.rp_cards([1], 0)["allowed"] is False


# --- highlords -----------------------------------------------------------------------------------------

def test_highlords_cap_at_six():
    full = ["Ariakas", "Kitiara", "Salah Kahn", "Bolas", "Feal-Thas", "Toede"]
    with pytest.raises(ValueError):
        pol.highlord_enters("red", full)
    assert pol.MAX_HIGHLORDS == 6


def test_wing_whose_replacement_is_in_play_cannot_bring_original_back():
    with pytest.raises(ValueError, match="already"):
        pol.highlord_enters("blue", ["Ariakas", "Bakaris"])


def test_ariakas_has_no_listed_replacement():
    with pytest.raises(ValueError, match="Ariakas"):
        pol.highlord_replacement("Ariakas")


def test_curly_apostrophe_names_are_accepted():
    assert pol.highlord_replacement("As’p Tueng") == {"replacement": "none"}


def test_toede_counter_ratings():
    assert pol.TOEDE_RATINGS == {"combat": 1, "movement": 10}


def test_two_highlords_without_ariakas_cannot_stack():
    assert pol.highlords_may_stack(["Kitiara", "Bakaris"]) is False
    assert pol.highlords_may_stack(["Kitiara"]) is True


# --- activation ------------------------------------------------------------------------------------

def test_only_one_diplomatic_coup_per_attempt():
    with pytest.raises(ValueError, match="one Diplomatic Coup"):
        pol.card_activation(3, 5, coup_modifiers=[1, 1])


def test_knights_not_before_second_era():
    with pytest.raises(ValueError, match="second era"):
        pol.knight_activation(2, 0, war_status=14)


def test_no_diplomatic_coup_for_knight_nations():
    with pytest.raises(ValueError, match="Diplomatic Coup"):
        pol.knight_activation(2, 0, war_status=20, diplomatic_coup=True)


@pytest.mark.parametrize("strength, ws, hl", [(1, 4, 4), (6, 4, 4), (7, 3, 4), (12, 3, 4), (13, 2, 4),
                                              (16, 2, 4), (17, 2, 5), (22, 2, 5), (23, 2, 6), (99, 2, 6)])
def test_invasion_bonus_band_edges(strength, ws, hl):
    assert pol.invasion("Khur", strength) == {"ws_target": ws, "hl_target": hl}


def test_invasion_needs_strength_and_a_known_nation():
    with pytest.raises(ValueError):
        pol.invasion("Tarsis", 0)
    with pytest.raises(ValueError, match="no activation numbers"):
        pol.invasion("Atlantis", 10)


def test_flagged_knight_nation_joins_whitestone():
    assert pol.invasion("Solanthus", 30, knight_nation=True) == {"joins": "Whitestone"}


def test_coup_modifier_raises_the_ws_target_only():
    assert pol.resolve_invasion("Tarsis", 20, [7], ws_modifier=5)["joins"] == "WS"   # 7 <= 2 + 5
    with pytest.raises(ValueError, match="ran out"):   # WS 9 > 7, and HL's 6 stays over its unmodified 5
        pol.resolve_invasion("Tarsis", 20, [9, 6], ws_modifier=5)


def test_knight_rolls_stop_when_no_knight_nations_remain():
    result = pol.advance_war_status(["activation", "activation"], 15, knight_squares=[16], knight_nations_left=0)
    assert result["knight_rolls"] == []


def test_unknown_war_status_event_is_refused():
    with pytest.raises(ValueError):
        pol.advance_war_status(["earthquake"], 5)


def test_non_aggression_pact_never_takes_war_status_below_zero():
    assert pol.advance_war_status(["non-aggression pact"], 0)["war_status"] == 0


def test_war_status_starts_at_one():
    assert pol.advance_war_status([])["war_status"] == 1


def test_era_change_ignores_a_sides_own_cards():
    hand = [{"name": "Dark Temple", "war_status": "HL", "value": 2, "playable": True}]
    assert pol.era_change_reveal(hand, [])["vp_penalty"] == {"HL": 0, "WS": 0}


# --- leaders, Berem ----------------------------------------------------------------------------------

def test_leader_escape_uses_a_d6():
    with pytest.raises(ValueError):
        pol.leader_escape(3, 7)


def test_berem_rerolls_run_out():
    with pytest.raises(ValueError):
        pol.berem([9, 10], neutral_cities=False)


def test_berem_ws_choice():
    assert pol.berem([9])["chooser"] == "WS"


def test_berem_cannot_arrive_among_both_sides():
    with pytest.raises(ValueError):
        pol.berem_arrival(["HL", "WS"])


def test_berem_moves_only_with_his_captor():
    assert pol.berem_move("WS", captor="HL")["allowed"] is False
    assert pol.berem_move("WS", captor="WS", into_dark_temple=True) == {"allowed": True, "automatic_victory": "none"}


# --- dragon-to-fleet ---------------------------------------------------------------------------------

def test_dragons_moving_over_half_cannot_assault_fleets():
    with pytest.raises(ValueError, match="half"):
        pol.dragon_fleet_combat([4], [[1]], [[1]], moved=3, movement=5)


def test_dragon_fleet_combat_ends_after_two_rounds():
    with pytest.raises(ValueError, match="two rounds"):
        pol.dragon_fleet_combat([4], [[1], [1], [1]], [[1], [1], [1]])


def test_only_a_one_hits_for_fleets():
    result = pol.dragon_fleet_combat([1], [[10]], [[2, 2, 1]])
    assert result["fleet_hits"] == 1 and result["dragon_hits"] == 0


def test_can_attack_covers_only_dragons_and_fleets():
    with pytest.raises(ValueError):
        pol.can_attack("army", "fleet")


# --- victory ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("points, level", [(0, "none"), (1, "minor"), (12, "minor"), (13, "major"),
                                           (24, "major"), (25, "total"), (40, "total")])
def test_victory_level_bands(points, level):
    assert pol.victory(points) == {"level": level}


def test_negative_victory_points_refused():
    with pytest.raises(ValueError):
        pol.victory(-1)


def test_25_vp_at_end_wins_before_the_scored_result():
    assert pol.game_result(-25, 30) == {"over": True, "winner": "WS", "level": "total"}


def test_berem_victory_is_automatic():
    assert pol.automatic_victory(-10, hl_berem_in_dark_temple=True) == {"winner": "HL", "level": "total"}


def test_maelstrom_stands_while_a_fleet_remains():
    assert pol.maelstrom_conquered(1) is False


# --- stacking, winter, command ---------------------------------------------------------------------

def test_negative_fleet_count_is_not_a_stack():
    assert pol.fleets_may_stack(-1) is False


def test_winter_fleet_rounding_down():
    assert [pol.winter_movement("fleet", m)["movement"] for m in (2, 3, 5, 6)] == [0, 1, 1, 2]


def test_air_half_rounding_is_a_parameter():
    assert pol.winter_movement("air", 7)["movement"] == 3
    assert pol.winter_movement("air", 7, air_round_up=True)["movement"] == 4


def test_humans_get_no_winter_mountain_change():
    assert pol.crossing("mountain hexside", "attack", race="human", winter=True, base_allowed=False) == \
        {"allowed": False, "modifier": 0}


def test_winter_dwarf_penalty_adds_to_base_modifier():
    assert pol.crossing("mountain hexside", "attack", race="dwarf", winter=True, base_modifier=-1)["modifier"] == -3


def test_outside_winter_crossings_follow_base_game():
    assert pol.crossing("mountain pass", "move", winter=False, base_modifier=-1) == {"allowed": True, "modifier": -1}
    with pytest.raises(ValueError):
        pol.crossing("river", "swim", winter=True)


def test_knight_leader_cannot_command_hl_army():
    assert pol.can_command("knight", 5, "army", "HL", 1) is False


def test_knight_leader_cannot_command_draconians_or_maelstrom():
    assert pol.can_command("knight", 5, "draconian", "WS", 1) is False
    assert pol.can_command("maelstrom", 5, "maelstrom fleet", "HL", 6) is False   # out of range


def test_unknown_leader_kind_refused():
    with pytest.raises(ValueError):
        pol.can_command("wizard", 3, "army", "WS", 1)


# --- calculators ---------------------------------------------------------------------------------

def test_invasion_calculator_tarsis():
    assert facts(GAME, "invasion", {"nation": "Tarsis", "strength": "20"}) == {"ws_target": 2, "hl_target": 5}


def test_invasion_calculator_knight_nation():
    assert facts(GAME, "invasion", {"nation": "gunthar", "strength": "4"}) == {"joins": "Whitestone"}
    assert facts(GAME, "invasion", {"nation": "Tarsis", "strength": "4", "knight_nation": "yes"}) == \
        {"joins": "Whitestone"}


def test_victory_calculator_major():
    assert facts(GAME, "victory", {"points": "14"}) == {"level": "major"}


def test_other_calculators():
    assert facts(GAME, "hand-size", {"war_status": "15"}) == {"era": 2, "hand_size": 6}
    assert facts(GAME, "knight-activation", {"conquered_by_hl": "2", "knights_activated": "1",
                                           "war_status": "18", "vp_bonus": "1"}) == {"target": 4}
    assert facts(GAME, "trade", {"drawn_total": "6", "discard_total": "6"}) == {"allowed": True}
    assert facts(GAME, "leader-escape", {"combat_rating": "2", "roll": "2"})["escapes"] is True
    assert facts(GAME, "berem", {"rolls": "9,3", "neutral_cities": "false"})["location"] == "Fortress SW of Qualinesti"
    assert facts(GAME, "highlord-replacement", {"highlord": "Salah Kahn"})["replacement"] == "Topus"
    assert facts(GAME, "winter-movement", {"kind": "fleet", "movement": "7"}) == {"movement": 2}


@pytest.mark.parametrize("calc, params, message", [
    ("invasion", {"nation": "Atlantis", "strength": "5"}, "unknown nation 'Atlantis'; one of Blode"),
    ("invasion", {"nation": "Tarsis", "strength": "lots"}, "parameter 'strength'"),
    ("invasion", {"nation": "Tarsis"}, "missing parameter"),
    ("victory", {"points": "-3"}, "from 0 to 60"),
    ("hand-size", {"war_status": "-1"}, "from 0 to 30"),
    ("knight-activation", {"conquered_by_hl": "2", "knights_activated": "0", "war_status": "10"}, "from the second era"),
    ("leader-escape", {"combat_rating": "2", "roll": "7"}, "d6"),
    ("highlord-replacement", {"highlord": "Raistlin"}, "unknown highlord"),
    ("winter-movement", {"kind": "cavalry", "movement": "4"}, "one of"),
    ("berem", {"rolls": "10", "neutral_cities": "no"}, "rolled again"),
    ("victory", {"points": "3", "side": "HL"}, "unknown parameter"),
])
def test_calculators_refuse_bad_input(calc, params, message):
    with pytest.raises(CalcError, match=message):
        facts(GAME, calc, params)
