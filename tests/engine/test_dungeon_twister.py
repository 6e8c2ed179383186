"""Dungeon Twister engine: the rules clarifications, behaviour by behaviour."""
import pytest

from engine import dungeon_twister as dt
from engine.calculators import CalcError, run

SWORD = {"name": "Sword", "kind": "weapon", "bonus": 1}
ARMOR = {"name": "Armor", "kind": "armor", "bonus": 2}


def facts(game: str, calc: str, params: dict) -> dict:
    """The facts a calculator answers with (its JSON `result`)."""
    return run(game, calc, params)["result"]


# --- combat totals ----------------------------------------------------------------------------------------

def test_weapons_count_only_when_attacking():
    attacking = dt.combat([{"name": "A", "strength": 2, "items": [SWORD]}], [{"name": "D", "strength": 2}], 0, 0)
    defending = dt.combat([{"name": "A", "strength": 2}], [{"name": "D", "strength": 2, "items": [SWORD]}], 0, 0)
    assert (attacking.attack_total, attacking.winner) == (3, "attacker")
    assert (defending.defence_total, defending.winner, defending.unused_items) == (2, "tie", ("Sword",))


def test_armor_counts_only_when_defending():
    attacking = dt.combat([{"name": "A", "strength": 2, "items": [ARMOR]}], [{"name": "D", "strength": 2}], 1, 1)
    defending = dt.combat([{"name": "A", "strength": 2}], [{"name": "D", "strength": 2, "items": [ARMOR]}], 1, 1)
    assert attacking.attack_total == 3 and attacking.unused_items == ("Armor",)
    assert defending.defence_total == 5 and defending.winner == "defender"


def test_wounded_character_fights_at_zero_but_keeps_armor():
    result = dt.combat([{"name": "A", "strength": 1}],
                       [{"name": "Troll", "strength": 4, "wounded": True, "items": [ARMOR]}], 3, 0)
    assert result.defence_total == 2 and result.winner == "attacker"


def test_several_attackers_add_their_strengths():
    result = dt.combat([{"name": "A", "strength": 2}, {"name": "B", "strength": 3}],
                       [{"name": "D", "strength": 4}], 1, 1)
    assert (result.attack_total, result.defence_total) == (6, 5)


def test_dragon_slayer_kills_dragon_only_when_attacking():
    slayer = {"name": "Warrior", "strength": 2, "items": ["Dragon Slayer"]}
    dragon = {"name": "Dragon", "strength": 6}
    assert dt.combat([slayer], [dragon], 0, 0).slain == ("Dragon",)
    defending = dt.combat([dragon], [slayer], 0, 0)
    assert defending.slain == () and defending.defence_total == 2


def test_dragon_slayer_adds_four_against_anyone_when_attacking():
    result = dt.combat([{"name": "W", "strength": 2, "items": ["Dragon Slayer"]}], [{"name": "Goblin", "strength": 1}],
                       0, 0)
    assert result.attack_total == 2 + dt.DRAGON_SLAYER_BONUS and result.slain == ()


def test_potion_works_in_either_role():
    potion = {"name": "Potion of Strength", "kind": "potion", "bonus": 1}
    assert dt.item_works(potion, "attacker") and dt.item_works(potion, "defender")


def test_combat_refuses_impossible_inputs():
    with pytest.raises(ValueError, match="at least one"):
        dt.combat([], [{"name": "D", "strength": 1}], 0, 0)
    with pytest.raises(ValueError, match="card"):
        dt.combat([{"name": "A", "strength": 1}], [{"name": "D", "strength": 1}], -1, 0)
    with pytest.raises(ValueError, match="unknown item"):
        dt.combat([{"name": "A", "strength": 1, "items": ["Vorpal Blade"]}], [{"name": "D", "strength": 1}], 0, 0)
    with pytest.raises(ValueError, match="kind"):
        dt.item_works({"name": "Hat", "kind": "hat"}, "attacker")
    with pytest.raises(ValueError, match="role"):
        dt.item_works(SWORD, "bystander")


# --- combat order -------------------------------------------------------------------------------------

def test_combat_order_accepts_the_ruled_sequence():
    assert dt.combat_order([list(s) for s in dt.COMBAT_STEPS]) == {"legal": True, "problem": ""}


def test_combat_order_allows_a_side_without_decisions():
    steps = [["attacker", "lay card"], ["defender", "lay card"], ["both", "reveal"]]
    assert dt.combat_order(steps)["legal"]


def test_combat_order_rejects_a_second_card_and_unknown_steps():
    twice = [["attacker", "lay card"], ["attacker", "lay card"], ["defender", "lay card"], ["both", "reveal"]]
    assert dt.combat_order(twice)["problem"] == "['attacker', 'lay card'] happens only once"
    assert not dt.combat_order([["referee", "decide"]])["legal"]


def test_combat_order_requires_the_reveal_even_when_cards_are_overridden():
    result = dt.combat_order([["attacker", "decide"]], card_laying_overridden=True)
    assert result == {"legal": False, "problem": "missing [['both', 'reveal']]"}


def test_nothing_happens_after_the_reveal():
    steps = [list(s) for s in dt.COMBAT_STEPS] + [["defender", "decide"]]
    assert not dt.combat_order(steps)["legal"]


# --- revealing a room ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("kind", "owner", "placed_by"), [
    ("character", "Blue", "Blue"), ("character", "Yellow", "Blue"),
    ("object", "Blue", "Yellow"), ("object", "Yellow", "Blue"),
    ("cursed item", "Blue", "Blue"), ("cursed item", "Yellow", "Yellow"),
    ("torch", "Blue", "Blue"), ("torch", "Yellow", "Blue"),
])
def test_who_places_each_piece_when_blue_reveals(kind, owner, placed_by):
    assert dt.placer({"name": "x", "kind": kind, "owner": owner}, "Blue", "Yellow") == placed_by


def test_reveal_lists_revealer_first_and_skips_empty_steps():
    only_objects = [{"name": "Blue Rope", "kind": "object", "owner": "Blue"}]
    assert dt.reveal_room("Blue", "Yellow", only_objects) == [{"player": "Yellow", "places": ["Blue Rope"]}]
    assert dt.reveal_room("Blue", "Yellow", []) == []


def test_reveal_refuses_strangers_and_unknown_kinds():
    with pytest.raises(ValueError, match="neither"):
        dt.placer({"name": "x", "kind": "object", "owner": "Red"}, "Blue", "Yellow")
    with pytest.raises(ValueError, match="kind"):
        dt.placer({"name": "x", "kind": "trap", "owner": "Blue"}, "Blue", "Yellow")
    with pytest.raises(ValueError, match="different"):
        dt.reveal_room("Blue", "Blue", [])


# --- board --------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("b", "expected"), [([1, 2], True), ([3, 2], True), ([2, 1], True), ([2, 3], True),
                                             ([1, 1], False), ([3, 3], False), ([2, 2], False), ([2, 4], False)])
def test_adjacency_has_no_diagonals(b, expected):
    assert dt.adjacent([2, 2], b) is expected


def test_promo_diagonal_reaches_only_one_square_away():
    assert dt.adjacent([2, 2], [1, 3], diagonal_allowed=True)
    assert not dt.adjacent([2, 2], [4, 4], diagonal_allowed=True)


def test_shots_follow_rows_and_columns_only():
    assert dt.in_line([0, 0], [0, 4]) and dt.in_line([0, 0], [4, 0])
    assert not dt.in_line([0, 0], [1, 2]) and not dt.in_line([1, 1], [1, 1])


def test_rope_anchor_rule_of_thumb_and_exceptions():
    assert dt.rope_anchor_problem({"pos": [0, 0]}) == ""
    assert dt.rope_anchor_problem({"pos": [0, 0], "occupant": "enemy"}) == ""
    for disarmer in dt.DISARMERS:
        assert dt.rope_anchor_problem({"pos": [0, 0], "obstacle": True, "disarmed_by": disarmer}) == ""
    assert dt.rope_anchor_problem({"pos": [0, 0], "obstacle": True}) == "an obstacle"


def test_rope_anchors_must_touch_the_obstacle_orthogonally():
    result = dt.rope_crossing({"pos": [1, 1]}, {"pos": [2, 2], "obstacle": True}, [{"pos": [1, 1]}, {"pos": [2, 3]}])
    assert result == {"valid": False, "problems": ["anchor [1, 1] is not adjacent to the obstacle"]}


def test_rope_needs_two_different_anchors_over_a_real_obstacle():
    result = dt.rope_crossing({"pos": [1, 2]}, {"pos": [2, 2]}, [{"pos": [1, 2]}, {"pos": [1, 2]}])
    assert result["problems"][:2] == ["[2, 2] is not an obstacle square", "the rope needs two different anchor squares"]


def test_small_bridge_threshold_is_printed_strength_four():
    assert [dt.small_bridge(s, pushed_by_ring=True).breaks for s in (0, 3, 4, 6)] == [False, False, True, True]
    assert [dt.small_bridge(s).may_move_onto for s in (3, 4)] == [True, False]


def test_bonuses_never_break_the_small_bridge():
    assert not dt.small_bridge(2, strength_bonus=5, pushed_by_ring=True).breaks
    with pytest.raises(ValueError):
        dt.small_bridge(-1)


# --- actions and items ------------------------------------------------------------------------------

def test_moves_of_different_characters_are_separate_actions():
    result = dt.action_points([["A", "move"], ["B", "move"], ["A", "move"]])
    assert result["action_points"] == 3


def test_other_actions_cost_one_and_end_movement():
    result = dt.action_points([["A", "move"], ["A", "open door"], ["A", "move"]])
    assert result["action_points"] == 3


def test_free_item_of_another_character_does_not_interrupt_a_move():
    result = dt.action_points([["A", "move"], ["B", "Potion of Strength"], ["A", "move"]])
    assert result == {"action_points": 1, "actions": [["A", ["move", "move"]]],
                      "free_items": [["B", "Potion of Strength"]]}


def test_zero_ap_item_categories_can_be_supplied():
    custom = {"Lantern": dt.AS_ACTION}
    assert dt.action_points([["A", "move"], ["A", "Lantern"], ["A", "move"]], custom)["action_points"] == 2
    with pytest.raises(ValueError, match="free"):
        dt.action_points([["A", "Lantern"]], {"Lantern": "sometimes"})


def test_item_users_outside_the_ruling_are_not_guessed():
    assert not dt.may_use_item("Scroll", "Troll", magic_user=False)
    with pytest.raises(ValueError, match="do not say"):
        dt.may_use_item("Rope", "Troll", magic_user=False)


def test_undead_suicide_needs_undead_and_unknown_means_refused():
    assert not dt.may_kill_own_character("Sacred Tomb", "Cleric")
    assert not dt.may_kill_own_character("Fireball Wand", "Goblin")


# --- scoring ------------------------------------------------------------------------------------------

def test_terrain_death_without_killer_in_multiplayer_scores_all_opponents():
    assert dt.death_points("Blue", ["Blue", "Red", "Green"]) == {"Red": 1, "Green": 1}


def test_death_points_refuse_bad_tables():
    with pytest.raises(ValueError):
        dt.death_points("Blue", ["Blue"])
    with pytest.raises(ValueError):
        dt.death_points("Blue", ["Blue", "Yellow"], killer="Red")
    with pytest.raises(ValueError):
        dt.death_points("Red", ["Blue", "Yellow"])


def test_multiplayer_suicide_token_place_is_not_invented():
    with pytest.raises(ValueError, match="not ruled"):
        dt.tokens_behind_lines(["Blue", "Red", "Green"],
                               [{"event": "death", "player": "Blue", "token": "Blue Goblin", "controller": "Blue"}])


def test_tokens_refuse_unknown_events_and_players():
    with pytest.raises(ValueError, match="event"):
        dt.tokens_behind_lines(["Blue", "Yellow"], [{"event": "nap", "player": "Blue"}])
    with pytest.raises(ValueError, match="not a player"):
        dt.tokens_behind_lines(["Blue", "Yellow"], [{"event": "treasure out", "player": "Red"}])


def test_zombie_limit_counts_the_dead():
    assert dt.may_summon_zombie(0, 0) and dt.may_summon_zombie(2, 0)
    assert not dt.may_summon_zombie(0, 3)
    with pytest.raises(ValueError):
        dt.may_summon_zombie(-1, 0)


# --- calculators ----------------------------------------------------------------------------------

def test_combat_calculator_applies_role_rules():
    result = facts("dungeon-twister", "combat", {
        "attacker_strengths": "3", "defender_strengths": "2,4", "defender_wounded": "0,1",
        "attacker_card": "2", "defender_card": "1", "attacker_weapon_bonus": "1",
        "attacker_protection_bonus": "2", "defender_weapon_bonus": "3", "defender_protection_bonus": "1"})
    assert result == {"attack_total": 6, "defence_total": 4, "winner": "attacker", "dragon_slain": False,
                      "ignored": ["attackers' armour and shields", "defenders' weapons"]}


def test_combat_calculator_dragon_slayer():
    result = facts("dungeon-twister", "combat", {
        "attacker_strengths": "2", "defender_strengths": "6", "attacker_card": "0", "defender_card": "0",
        "dragon_slayer": "yes", "defender_is_dragon": "yes"})
    assert result["attack_total"] == 6 and result["dragon_slain"] is True and result["winner"] == "tie"


def test_combat_calculator_rejects_mismatched_wounded_flags():
    with pytest.raises(CalcError, match="attacker_wounded"):
        facts("dungeon-twister", "combat", {"attacker_strengths": "2,3", "defender_strengths": "1",
                                          "attacker_card": "0", "defender_card": "0", "attacker_wounded": "1"})
    with pytest.raises(CalcError, match="missing"):
        facts("dungeon-twister", "combat", {"attacker_strengths": "2"})
    with pytest.raises(CalcError, match="defender_strengths"):
        facts("dungeon-twister", "combat", {"attacker_strengths": "2", "defender_strengths": "x",
                                          "attacker_card": "0", "defender_card": "0"})
    with pytest.raises(CalcError, match="attacker_strengths"):
        facts("dungeon-twister", "combat", {"attacker_strengths": "", "defender_strengths": "1",
                                          "attacker_card": "0", "defender_card": "0"})
    with pytest.raises(CalcError, match="attacker_strengths"):
        facts("dungeon-twister", "combat", {"attacker_strengths": "-1", "defender_strengths": "1",
                                          "attacker_card": "0", "defender_card": "0"})


def test_bridge_calculator():
    assert facts("dungeon-twister", "bridge", {"strength": "4", "bonus": "0", "pushed_by_ring": "true"}) == {
        "base_strength": 4, "combat_strength": 4, "may_move_onto": False, "breaks": True}
    assert facts("dungeon-twister", "bridge", {"strength": "3", "bonus": "3"})["may_move_onto"] is True
    with pytest.raises(CalcError, match="strength"):
        facts("dungeon-twister", "bridge", {"strength": "-2"})


def test_death_calculator():
    assert facts("dungeon-twister", "death", {"players": "3"}) == {"points": {"player 2": 1, "player 3": 1}}
    assert facts("dungeon-twister", "death", {"players": "3", "killer": "3"}) == {"points": {"player 3": 1}}
    assert facts("dungeon-twister", "death", {"players": "2", "controller": "2", "killer": "2"}) == {
        "points": {"player 1": 1}}
    with pytest.raises(CalcError, match="no player 4 in a 3-player game"):
        facts("dungeon-twister", "death", {"players": "3", "controller": "4"})


def test_reveal_calculator():
    result = facts("dungeon-twister", "reveal", {"characters": "2", "revealer_objects": "1", "opponent_objects": "1",
                                                 "opponent_cursed": "1", "torches": "1"})
    assert result == {"order": [{"player": "revealer", "places": {"characters": 2, "opponent_objects": 1,
                                                                  "torches": 1}},
                                {"player": "opponent", "places": {"revealer_objects": 1, "opponent_cursed": 1}}]}


def test_adjacency_calculator():
    assert facts("dungeon-twister", "adjacency", {"square_a": "1,1", "square_b": "2,2"}) == {
        "adjacent": False, "shot_possible": False}
    assert facts("dungeon-twister", "adjacency", {"square_a": "1,1", "square_b": "1,2"}) == {
        "adjacent": True, "shot_possible": True}
    with pytest.raises(CalcError, match="square_a"):
        facts("dungeon-twister", "adjacency", {"square_a": "1", "square_b": "1,2"})


def test_action_points_calculator():
    result = facts("dungeon-twister", "action-points", {"steps": "Wizard:move, Wizard:Torch, Wizard:move"})
    assert result["action_points"] == 2
    with pytest.raises(CalcError, match="character:what"):
        facts("dungeon-twister", "action-points", {"steps": "move"})
