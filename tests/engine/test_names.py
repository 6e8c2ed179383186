"""Forgiving name matching: one meaning is taken, several or none are refused with the candidates."""
import pytest

from engine.names import UnknownName, resolve
from engine.registry import games

GAMES = games()


@pytest.mark.parametrize("typed", ["dragon-dice", "Dragon Dice", "dragondice", "DRAGON_DICE", "dragon dise"])
def test_spacing_case_and_one_slip_find_the_name(typed):
    assert resolve(typed, GAMES, "game") == "dragon-dice"


def test_part_of_one_name_finds_it():
    assert resolve("potion", ("Torch", "Potion of Strength")) == "Potion of Strength"
    assert resolve("lance", GAMES) == "paths-of-the-lance"


def test_an_ambiguous_name_lists_what_it_could_be():
    with pytest.raises(UnknownName, match="'dice' is ambiguous: it could be dragon-dice, magic-combat-dice") \
            as refused:
        resolve("dice", GAMES, "game")
    assert refused.value.candidates == ["dragon-dice", "magic-combat-dice", "wizard-dice"]


def test_an_unknown_name_lists_every_name():
    with pytest.raises(UnknownName, match="unknown game 'backgammon'; one of chess, dragon-dice, dungeon-twister"):
        resolve("backgammon", GAMES, "game")
    with pytest.raises(UnknownName):
        resolve("", GAMES, "game")


def test_aliases_resolve_to_their_name_and_agreeing_aliases_are_not_ambiguous():
    aliases = {"dragon-dice": "dragon-dice", "Dragon Dice": "dragon-dice", "Wizard Dice": "wizard-dice"}
    assert resolve("dragon", aliases) == "dragon-dice"
