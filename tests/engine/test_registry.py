"""Finding engine modules by name, resolving scenario calls, and the plain form of engine results."""
import dataclasses
import enum

import pytest

from engine import dice, dragon_dice
from engine.registry import GAMES, load_module, plain, resolve_call


def test_a_game_slug_and_its_module_name_load_the_same_module():
    assert load_module("dragon-dice") is load_module("dragon_dice") is dragon_dice


def test_every_game_has_an_engine_module_with_calculators():
    for game in GAMES:
        assert load_module(game).CALCULATORS, game


def test_shared_modules_load_by_name():
    assert load_module("dice") is dice


def test_a_call_resolves_to_the_engine_function_it_names():
    assert resolve_call("dragon_dice.saves") is dragon_dice.saves


@pytest.mark.parametrize("call, error", [("dragon_dice.nothing", AttributeError),
                                         ("no_such_game.saves", ModuleNotFoundError),
                                         ("saves", ValueError)])
def test_a_call_naming_nothing_in_the_engine_raises(call, error):
    with pytest.raises(error):
        resolve_call(call)


class Colour(enum.Enum):
    RED = "red"


@dataclasses.dataclass(frozen=True)
class Result:
    colours: tuple
    seen: frozenset


def test_plain_turns_results_into_json_data():
    result = {1: Result((Colour.RED, 2), frozenset({"b", "a"}))}
    assert plain(result) == {"1": {"colours": ["red", 2], "seen": ["a", "b"]}}

