"""Judges' calculators: declared once (typed, ranged parameters, deciding rulings, answers in words), refusing
what the game does not have, and forgiving about names when they are unambiguous."""
import inspect
import re
import sqlite3
from typing import Annotated

import pytest

from engine.calculators import (
    CalcError,
    Calculator,
    DeclarationError,
    Param,
    UnknownCalculator,
    calculators,
    deciding,
    describe,
    for_ruling,
    label,
    run,
    specs,
)
from engine.registry import games, load_module
from support import REPO_DB

CALCULATORS = [(game, name, calc) for game in games() for name, calc in calculators(game).items()]
IDS = [f"{game}:{name}" for game, name, _ in CALCULATORS]

# One ordinary question per calculator, as a judge would type it.
EXAMPLES = {
    ("wizard-dice", "spells"): {"dice": "1,2,3,4,4,6"},
    ("wizard-dice", "allocate"): {"dice": "1,3,3,4,4,6", "spells": "summon-ogre,magic-missiles"},
    ("wizard-dice", "dice"): {"allies": "1", "paralysed": "1"},
    ("wizard-dice", "set-aside"): {"spell_dice": "3", "allies": "1"},
    ("dragon-dice", "saves"): {"rolled": "7", "frosted": "true", "stoneskins": "3"},
    ("dragon-dice", "magic-points"): {"blue": "4", "gold": "2", "terrain_colours": "blue,green"},
    ("dragon-dice", "black-magic"): {"black_points": "4", "dead_units": "1,3", "bury_points": "3"},
    ("magic-combat-dice", "damage"): {"power": "3", "result": "critical-hit", "after_roll": "2"},
    ("magic-combat-dice", "attack"): {"roll": "12", "power": "3", "partial_hit": "5", "hit": "10",
                                      "critical_hit": "18", "blockers": "2,3"},
    ("magic-combat-dice", "heal"): {"toughness": "1", "legal_toughness": "3"},
    ("magic-combat-dice", "mulligan"): {"hand_size": "7", "mulligans": "2"},
    ("dungeon-twister", "combat"): {"attacker_strengths": "3", "defender_strengths": "2", "attacker_card": "2",
                                    "defender_card": "1", "defender_weapon_bonus": "2"},
    ("dungeon-twister", "bridge"): {"strength": "3", "bonus": "2"},
    ("dungeon-twister", "death"): {"players": "3", "controller": "1"},
    ("dungeon-twister", "reveal"): {"characters": "3", "revealer_objects": "1", "opponent_objects": "1"},
    ("dungeon-twister", "adjacency"): {"square_a": "1,1", "square_b": "2,2"},
    ("dungeon-twister", "action-points"): {"steps": "Wizard:move,Wizard:Torch,Wizard:move"},
    ("paths-of-the-lance", "invasion"): {"nation": "Tarsis", "strength": "20"},
    ("paths-of-the-lance", "victory"): {"points": "14"},
    ("paths-of-the-lance", "hand-size"): {"war_status": "16"},
    ("paths-of-the-lance", "knight-activation"): {"conquered_by_hl": "2", "knights_activated": "1",
                                                  "war_status": "20"},
    ("paths-of-the-lance", "trade"): {"drawn_total": "3", "discard_total": "3"},
    ("paths-of-the-lance", "leader-escape"): {"combat_rating": "3", "roll": "2"},
    ("paths-of-the-lance", "berem"): {"rolls": "4"},
    ("paths-of-the-lance", "highlord-replacement"): {"highlord": "Kitiara"},
    ("paths-of-the-lance", "winter-movement"): {"kind": "fleet", "movement": "7"},
    ("chess", "claim"): {"pgn": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8", "claim": "threefold"},
    ("chess", "position"): {"fen": "k7/8/1Q6/8/8/8/8/7K b - - 0 1"},
    ("chess", "move"): {"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "move": "Bc4"},
}

# At least one value per calculator that the game does not have, and the parameter the refusal names.
IMPOSSIBLE = [
    ("wizard-dice", "spells", {"dice": "1,2,7"}, "dice"),
    ("wizard-dice", "spells", {"dice": "1,2,3,4,5,6,6"}, "dice"),
    ("wizard-dice", "allocate", {"dice": "1,1,1", "spells": "fireball,teleport"}, "spells"),
    ("wizard-dice", "dice", {"allies": "9"}, "allies"),
    ("wizard-dice", "dice", {"carried": "3"}, "carried"),
    ("wizard-dice", "set-aside", {"spell_dice": "7"}, "spell_dice"),
    ("dragon-dice", "saves", {"rolled": "-1"}, "rolled"),
    ("dragon-dice", "magic-points", {"blue": "2", "terrain_colours": "black"}, "terrain_colours"),
    ("dragon-dice", "magic-points", {"blue": "2", "terrain_colours": "blue,green,red"}, "terrain_colours"),
    ("dragon-dice", "black-magic", {"black_points": "3", "dead_units": "5", "bury_points": "1"}, "dead_units"),
    ("magic-combat-dice", "damage", {"power": "3", "result": "glancing-blow"}, "result"),
    ("magic-combat-dice", "attack", {"roll": "21", "power": "3", "partial_hit": "5", "hit": "10",
                                     "critical_hit": "18"}, "roll"),
    ("magic-combat-dice", "heal", {"toughness": "1", "legal_toughness": "0"}, "legal_toughness"),
    ("magic-combat-dice", "mulligan", {"hand_size": "-7", "mulligans": "0"}, "hand_size"),
    ("dungeon-twister", "combat", {"attacker_strengths": "3", "defender_strengths": "2", "attacker_card": "9",
                                   "defender_card": "1"}, "attacker_card"),
    ("dungeon-twister", "combat", {"attacker_strengths": "3", "defender_strengths": "2", "attacker_card": "1",
                                   "defender_card": "1", "defender_wounded": "true,false"}, "defender_wounded"),
    ("dungeon-twister", "bridge", {"strength": "-2"}, "strength"),
    ("dungeon-twister", "death", {"players": "5"}, "players"),
    ("dungeon-twister", "death", {"players": "2", "killer": "3"}, "killer"),
    ("dungeon-twister", "reveal", {"characters": "three"}, "characters"),
    ("dungeon-twister", "adjacency", {"square_a": "1", "square_b": "2,2"}, "square_a"),
    ("dungeon-twister", "action-points", {"steps": "Troll:eat a sandwich"}, "steps"),
    ("paths-of-the-lance", "invasion", {"nation": "Mordor", "strength": "5"}, "nation"),
    ("paths-of-the-lance", "victory", {"points": "-3"}, "points"),
    ("paths-of-the-lance", "hand-size", {"war_status": "-1"}, "war_status"),
    ("paths-of-the-lance", "knight-activation", {"conquered_by_hl": "1", "knights_activated": "0",
                                                 "war_status": "3"}, "war_status"),
    ("paths-of-the-lance", "trade", {"drawn_total": "-1", "discard_total": "2"}, "drawn_total"),
    ("paths-of-the-lance", "leader-escape", {"combat_rating": "3", "roll": "7"}, "roll"),
    ("paths-of-the-lance", "berem", {"rolls": "11"}, "rolls"),
    ("paths-of-the-lance", "highlord-replacement", {"highlord": "Ariakas"}, "highlord"),
    ("paths-of-the-lance", "winter-movement", {"kind": "cavalry", "movement": "4"}, "kind"),
    ("chess", "claim", {"pgn": "1. e4 e5 2. Ke3", "claim": "threefold"}, "pgn"),
    ("chess", "claim", {"pgn": "1. e4", "claim": "fivefold"}, "claim"),
    ("chess", "claim", {"pgn": "1. e4", "claim": "threefold", "move": "Ke7"}, "move"),
    ("chess", "position", {"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, "fen"),
    ("chess", "move", {"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "move": "e4"}, "fen"),
    ("chess", "move", {"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "move": "Zz9"}, "move"),
]


@pytest.mark.parametrize("game, name, calc", CALCULATORS, ids=IDS)
def test_a_calculator_is_kebab_case_and_its_parameters_snake_case(game, name, calc):
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name)
    assert all(re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", param) for param in specs(calc.function))
    python_name = name.replace("-", "_")
    assert calc.function.__name__ in (python_name, f"calc_{python_name}")
    assert getattr(load_module(game), calc.function.__name__) is calc.function


@pytest.mark.parametrize("game, name, calc", CALCULATORS, ids=IDS)
def test_a_calculator_declares_its_description_typed_parameters_and_rulings(game, name, calc):
    assert inspect.getdoc(calc.function) and calc.rulings
    for spec in specs(calc.function).values():
        assert isinstance(spec.param, Param) and spec.param.help


def test_every_declared_ruling_is_in_the_database_and_of_its_game():
    conn = sqlite3.connect(REPO_DB)
    known = dict(conn.execute("select id, game from rulings"))
    missing = [(game, name, ruling) for game, name, calc in CALCULATORS for ruling in calc.rulings
               if known.get(ruling) != game]
    assert missing == []


def test_the_description_gives_each_parameter_type_requirement_range_choices_and_help():
    leader = describe()["paths-of-the-lance"]["leader-escape"]
    assert leader["rulings"] == ["paths-of-the-lance/new-rules/c"]
    assert leader["params"]["roll"] == {"label": "Roll", "type": "integer", "required": True, "default": None,
                                        "min": 1, "max": 6, "choices": None, "count": None, "length": None,
                                        "help": "the d6 rolled"}
    winter = describe()["paths-of-the-lance"]["winter-movement"]["params"]
    assert winter["kind"]["choices"] == ["fleet", "air", "ground"]
    assert winter["winter"] == {"label": "Winter", "type": "boolean", "required": False, "default": True,
                                "min": None, "max": None, "choices": None, "count": None, "length": None,
                                "help": "this is a winter turn"}
    assert describe()["wizard-dice"]["spells"]["params"]["dice"]["type"] == "integer list"


def test_every_calculator_has_an_example_and_an_impossible_value():
    declared = {(game, name) for game, name, _ in CALCULATORS}
    assert set(EXAMPLES) == declared
    assert {(game, name) for game, name, _, _ in IMPOSSIBLE} == declared


@pytest.mark.parametrize("game, calc, params, param", IMPOSSIBLE,
                         ids=[f"{g}:{c}:{p}" for g, c, _, p in IMPOSSIBLE])
def test_an_impossible_value_is_refused_naming_the_parameter(game, calc, params, param):
    with pytest.raises(CalcError) as refused:
        run(game, calc, params)
    assert refused.value.param == param
    assert f"parameter {param!r}" in str(refused.value)


@pytest.mark.parametrize("game, calc", EXAMPLES, ids=[f"{g}:{c}" for g, c in EXAMPLES])
def test_every_answer_reads_as_words_with_the_same_facts_in_json(game, calc):
    answer = run(game, calc, EXAMPLES[game, calc])
    assert set(answer) == {"game", "calculator", "inputs", "result", "answer", "rulings"}
    words = answer["answer"]
    assert re.fullmatch(r"[A-Z0-9].*\.", words), words
    assert not re.search(r"\b[a-z]+_[a-z_]+\b|\btrue\b|\bfalse\b|[{}\[\]]", words), words
    declared = calculators(game)[calc].rulings
    assert answer["rulings"] and set(answer["rulings"]) <= set(declared)


@pytest.mark.parametrize("game, calc, params, words", [
    ("dungeon-twister", "bridge", {"strength": "3", "bonus": "2"},
     "The bridge holds: a strength-3 character may cross; only the printed strength counts (bonuses don't count)."),
    ("dragon-dice", "saves", {"rolled": "7", "frosted": "yes", "stoneskins": "3"},
     ("The army has 6 saves: 7 saves rolled, halved for frost (rounding down) to 3, then +3 for Stoneskin on the "
     "result.")),
    ("dungeon-twister", "death", {"players": "2"},
     ("Player 2 scores the Victory Point: in a 2-player game it always goes to the controller's opponent, whoever "
     "caused the death.")),
    ("dungeon-twister", "reveal", {"characters": "3", "revealer_objects": "1"},
     ("The revealer places 3 characters; then the opponent places the revealer's 1 Object (the revealer places "
     "everything he may first).")),
])
def test_answers_say_what_a_judge_would(game, calc, params, words):
    assert run(game, calc, params)["answer"] == words


def test_a_value_is_matched_forgivingly_when_it_means_one_name():
    steps = run("dungeon-twister", "action-points", {"steps": "Troll:potion,Troll:move,Troll:attack"})
    assert steps["inputs"]["steps"] == ["Troll:potion", "Troll:move", "Troll:attack"]
    assert steps["result"] == {"action_points": 2, "actions": [["Troll", ["move"]], ["Troll", ["fight"]]],
                               "free_items": [["Troll", "Potion of Strength"]]}
    assert run("paths-of-the-lance", "invasion", {"nation": "tarsis", "strength": "20"})["inputs"]["nation"] == "Tarsis"
    assert run("paths-of-the-lance", "highlord-replacement", {"highlord": "kit"})["result"]["replacement"] == "Bakaris"
    assert run("wizard-dice", "allocate", {"dice": "3,3,4,4", "spells": "ogre"})["inputs"]["spells"] == ["summon-ogre"]


def test_an_ambiguous_value_lists_the_candidates():
    with pytest.raises(CalcError, match="could be summon-ogre, summon-troll"):
        run("wizard-dice", "allocate", {"dice": "3,3,4,4", "spells": "summon"})
    with pytest.raises(CalcError, match="could be critical-miss, critical-hit"):
        run("magic-combat-dice", "damage", {"power": "3", "result": "critical"})


def test_a_game_is_matched_forgivingly_but_a_calculator_name_exactly_with_a_hint():
    assert run("Dragon Dice", "saves", {"rolled": "2"})["game"] == "dragon-dice"
    with pytest.raises(UnknownCalculator, match="kebab-case, use 'set-aside'"):
        run("wizard-dice", "set_aside", {"spell_dice": "2"})
    with pytest.raises(UnknownCalculator, match="calculators: saves, magic-points, black-magic"):
        run("dragon-dice", "moves", {})
    with pytest.raises(UnknownCalculator, match="unknown game 'backgammon'; one of chess, dragon-dice"):
        run("backgammon", "moves", {})


def test_a_parameter_in_an_old_spelling_gets_the_new_one():
    with pytest.raises(CalcError, match="snake_case, use 'after_roll'"):
        run("magic-combat-dice", "damage", {"power": "3", "result": "hit", "after-roll": "2"})


def test_missing_and_unknown_parameters_say_what_the_calculator_accepts():
    with pytest.raises(CalcError, match="missing parameter 'rolled'; dragon-dice saves accepts rolled"):
        run("dragon-dice", "saves", {})
    with pytest.raises(CalcError, match="unknown parameter 'colour'"):
        run("dragon-dice", "saves", {"rolled": "1", "colour": "red"})


def test_a_ruling_knows_the_calculators_it_decides():
    assert for_ruling("dungeon-twister/clarifications/the-small-bridge") == [
        {"game": "dungeon-twister", "name": "bridge",
         "description": "Small bridge: may the character move onto it, and does it break (printed base strength 4 "
                        "or more)?"}]
    assert for_ruling("dragon-dice/magic/general/a") == []


def test_a_label_keeps_an_acronym_as_the_help_writes_it():
    chess = describe()["chess"]
    assert chess["claim"]["params"]["pgn"]["label"] == "PGN" and chess["move"]["params"]["fen"]["label"] == "FEN"
    assert describe()["dungeon-twister"]["combat"]["params"]["attacker_card"]["label"] == "Attacker card"
    declared = specs(calculators("chess")["move"].function)["move"]
    assert label("move", declared) == "Move"  # its help says SAN, which is no word of the name


def test_an_answer_decided_by_a_ruling_its_calculator_does_not_declare_is_a_declaration_error():
    def calc_sum(a: Annotated[int, Param("a number", min=0, max=9)]) -> dict:
        """Add nothing."""
        return {"sum": a}

    declared = Calculator(calc_sum, ("game/rule-1",), lambda inputs, r: "Nothing.", lambda inputs, r: ("game/rule-2",))
    with pytest.raises(DeclarationError, match="decided by game/rule-2, which it does not declare"):
        deciding(declared, {"a": 1}, {"sum": 1})
