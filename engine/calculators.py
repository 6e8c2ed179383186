"""Judges' calculators: named engine functions run from `key=value` strings (CLI, web form, JSON API).

Each game module lists its calculators in a `CALCULATORS` dict (name → function). A calculator's
parameters are typed with `Annotated[type, "help"]`; the type says how a string value is read (int, float,
bool, str, a `Literal` of choices, or a comma-separated `list[int]` / `list[str]`), the help says what it
means, and the first line of the docstring describes the calculator.

Naming: a rules function whose annotated signature already suits judges is registered as it is, under its
own name (`paths_of_the_lance.hand_size` for "hand-size", `dragon_dice.saves` for "saves"); any other
calculator is a function written for judges and named `calc_` + the calculator's name with `-` as `_`
(`dragon_dice.calc_magic_points` for "magic-points").
"""
from __future__ import annotations

import inspect
import typing
from functools import cache
from typing import Annotated, Literal, get_args, get_origin

from engine.registry import GAMES, load_module, plain

_TRUE = {"true", "yes", "1", "on"}
_FALSE = {"false", "no", "0", "off"}


class CalcError(ValueError):
    """A calculator was asked for with unknown, missing or malformed parameters."""


def calculators(game: str) -> dict[str, typing.Callable]:
    """The calculators of `game` (empty for a game the engine does not model)."""
    if game not in GAMES:
        return {}
    return dict(getattr(load_module(game), "CALCULATORS", {}))


def _type_name(kind) -> str:
    if get_origin(kind) is Literal:
        return "one of " + ", ".join(str(c) for c in get_args(kind))
    if get_origin(kind) is list:
        return f"comma-separated {get_args(kind)[0].__name__}s"
    return {int: "whole number", float: "number", bool: "true or false", str: "text"}.get(kind, str(kind))


def _params(function) -> dict[str, tuple[object, str, bool]]:
    """name → (type, help, required) of a calculator's parameters."""
    hints = typing.get_type_hints(function, include_extras=True)
    params = {}
    for name, param in inspect.signature(function).parameters.items():
        hint = hints.get(name, str)
        kind, help_text = (get_args(hint)[0], get_args(hint)[1]) if get_origin(hint) is Annotated else (hint, "")
        params[name] = (kind, help_text, param.default is inspect.Parameter.empty)
    return params


def _describe(function) -> dict:
    params = {param: f"{help_text} ({_type_name(kind)}{'' if required else ', optional'})".strip()
              for param, (kind, help_text, required) in _params(function).items()}
    return {"description": inspect.getdoc(function).split("\n")[0], "params": params}


@cache
def describe() -> dict[str, dict[str, dict]]:
    """game → calculator → {"description", "params": {name: help}}: what every calculator accepts."""
    return {game: {name: _describe(function) for name, function in calculators(game).items()} for game in GAMES}


def _convert(name: str, raw: str, kind):
    value = raw.strip()
    try:
        if get_origin(kind) is Literal:
            choices = [str(c) for c in get_args(kind)]
            if value not in choices:
                raise ValueError
            return value
        if get_origin(kind) is list:
            item = get_args(kind)[0]
            return [item(v.strip()) for v in value.split(",") if v.strip()]
        if kind is bool:
            if value.lower() not in _TRUE | _FALSE:
                raise ValueError
            return value.lower() in _TRUE
        return kind(value)
    except ValueError:
        raise CalcError(f"parameter '{name}': {raw!r} is not {_type_name(kind)}") from None


def usage(game: str, calc: str) -> str:
    """One line listing what a calculator accepts."""
    params = _describe(calculators(game)[calc])["params"]
    return f"{game} {calc} accepts " + "; ".join(f"{k}: {v}" for k, v in params.items())


def run(game: str, calc: str, params: dict[str, str]) -> dict:
    """Run calculator `calc` of `game` on string parameters; CalcError names what is wrong and what is accepted."""
    available = calculators(game)
    if not available:
        raise CalcError(f"no calculators for the game {game!r}; games: {', '.join(GAMES)}")
    if calc not in available:
        raise CalcError(f"no calculator {calc!r} for {game}; calculators: {', '.join(available)}")
    function = available[calc]
    spec = _params(function)
    unknown = sorted(set(params) - set(spec))
    if unknown:
        raise CalcError(f"unknown parameter {', '.join(map(repr, unknown))}; {usage(game, calc)}")
    missing = [name for name, (_, _, required) in spec.items() if required and name not in params]
    if missing:
        raise CalcError(f"missing parameter {', '.join(map(repr, missing))}; {usage(game, calc)}")
    kwargs = {name: _convert(name, value, spec[name][0]) for name, value in params.items()}
    try:
        return plain(function(**kwargs))
    except ValueError as exc:  # the engine refuses impossible inputs (a d6 showing 7, an unknown nation...)
        raise CalcError(f"{exc}; {usage(game, calc)}") from None
