"""What every game's calculators share: one naming scheme, a description and typed, documented parameters."""
import inspect
import typing

import pytest

from engine.calculators import calculators
from engine.registry import GAMES, load_module

CALCULATORS = [(game, name, function) for game in GAMES for name, function in calculators(game).items()]
IDS = [f"{game}:{name}" for game, name, _ in CALCULATORS]


@pytest.mark.parametrize("game, name, function", CALCULATORS, ids=IDS)
def test_a_calculator_is_its_rules_function_or_calc_and_its_name(game, name, function):
    python_name = name.replace("-", "_")
    assert function.__name__ in (python_name, f"calc_{python_name}")
    assert getattr(load_module(game), function.__name__) is function


@pytest.mark.parametrize("game, name, function", CALCULATORS, ids=IDS)
def test_a_calculator_has_a_docstring_and_annotated_parameters(game, name, function):
    assert inspect.getdoc(function)
    hints = typing.get_type_hints(function, include_extras=True)
    for param in inspect.signature(function).parameters:
        assert typing.get_origin(hints[param]) is typing.Annotated, param
