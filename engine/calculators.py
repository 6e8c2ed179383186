"""Judges' calculators: typed engine functions run from `key=value` strings (CLI, web form, JSON API).

Each game module lists its calculators in a `CALCULATORS` dict: kebab-case name → `Calculator` (the function,
the rulings that may decide its answers, how an answer is said in words and, optionally, which of those rulings
decide one answer). A calculator's parameters are declared once, in its function's signature:
`Annotated[type, Param(help, min, max, choices, count)]`, the type saying how a string is read (int, bool, str,
a `Literal` of choices, or a comma-separated `list[int]` / `list[str]`), a default making it optional.
Everything else comes from that declaration: the CLI's listing, the API's description, the web form's inputs
and labels (an acronym as its help writes it: "PGN"), and the validation that refuses a value the game does not
have, naming the parameter and what is allowed. Choices are matched forgivingly (`engine.names`).

Every input is bounded by its declaration, so no request can make a calculator work without limit: an integer
declares its `min` and `max`, a list the most items it takes, free text its `length` (`specs` refuses a
declaration without them). A value's text longer than its bounds allow is refused before it is parsed.
"""
from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import Literal, get_args, get_origin

from engine.names import UnknownName, resolve, same_name
from engine.registry import games, load_module, plain

TRUE_WORDS = ("true", "yes", "1", "on", "y")  # what a yes/no parameter (or a ticked web form box) may say
_FALSE = {"false", "no", "0", "off", "n"}
TYPE_NAMES = {int: "integer", bool: "boolean", str: "string"}
SPACING = 16  # characters a value's text may have beyond its longest allowed value: spaces around it, a sign
SHOWN = 40    # characters of a refused value quoted back in the error


class CalcError(ValueError):
    """A calculator was given an unknown, missing or impossible parameter; `param` names it (None: the call)."""

    def __init__(self, message: str, param: str | None = None):
        super().__init__(message)
        self.param = param


class UnknownCalculator(CalcError):
    """No such game or calculator: the message lists what there is."""


class DeclarationError(TypeError):
    """A calculator's parameter is declared without the bounds every input needs (a bug in its module)."""


@dataclass(frozen=True)
class Param:
    """What a calculator parameter means and which values the game allows (for a list, each item's).

    `choices` are the names the game has (matched forgivingly); `count` is how many items a list takes
    (lowest, highest); `length` the most characters of free text (text without choices). An integer must
    declare `min` and `max`, a list its `count`, free text its `length`: `specs` refuses them otherwise.
    """
    help: str
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    count: tuple[int, int] | None = None
    length: int | None = None


@dataclass(frozen=True)
class Calculator:
    """A judge's calculator: `function` (Param-annotated, returning a dict of facts), the ids of the rulings
    that may decide its answers, `say(inputs, result)`, the answer as a judge would say it, and
    `decided_by(inputs, result)`, the ids of the rulings (among `rulings`) that decide this one answer, when
    different answers rest on different rules (None: every answer rests on all of `rulings`)."""
    function: Callable[..., dict]
    rulings: tuple[str, ...]
    say: Callable[[dict, dict], str]
    decided_by: Callable[[dict, dict], tuple[str, ...]] | None = None

    def __post_init__(self):
        specs(self.function)  # an unbounded parameter is refused when its module is imported, not when first run

    @property
    def description(self) -> str:
        return inspect.getdoc(self.function).split("\n")[0]


@dataclass(frozen=True)
class Spec:
    """One parameter as read from the signature: its type (a list's item type in `item`), whether it is
    required, its default and its Param."""
    kind: type
    item: type | None
    required: bool
    default: object
    param: Param


def calculators(game: str) -> dict[str, Calculator]:
    """The calculators of `game` (a slug of `engine.registry.games()`); none when its module declares none."""
    return dict(getattr(load_module(game), "CALCULATORS", {}))


@cache
def specs(function: Callable) -> dict[str, Spec]:
    """name → Spec of a calculator function's parameters, from its annotations; DeclarationError when one
    lacks a bound (an integer's min and max, a list's count, free text's length)."""
    hints = typing.get_type_hints(function, include_extras=True)
    found = {}
    for name, parameter in inspect.signature(function).parameters.items():
        kind, param = get_args(hints[name])
        item = None
        if get_origin(kind) is list:
            kind, item = list, get_args(kind)[0]
        if get_origin(item or kind) is Literal:   # a Literal is a str with its choices
            param = replace(param, choices=tuple(map(str, get_args(item or kind))))
            kind, item = (list, str) if item else (str, None)
        required = parameter.default is inspect.Parameter.empty
        found[name] = Spec(kind, item, required, None if required else parameter.default, param)
        missing = _unbounded(found[name])
        if missing:
            raise DeclarationError(f"{function.__module__}.{function.__qualname__}: parameter {name!r} declares "
                                   f"no {missing}; every calculator input is bounded")
    return found


def _unbounded(spec: Spec) -> str:
    """The bound a parameter's declaration lacks, in words ("" when it has them all)."""
    p, kind = spec.param, spec.item or spec.kind
    if spec.kind is list and (p.count is None or p.count[1] is None):
        return "count=(lowest, highest)"
    if kind is int and None in (p.min, p.max):
        return "min and max"
    if kind is str and not p.choices and p.length is None:
        return "length of its text"
    return ""


def _longest(spec: Spec, item: bool = False) -> int:
    """The most characters a parameter's text may have (a list: all its items and commas, or with `item` one
    of them); longer text is refused unread."""
    p, kind = spec.param, spec.item or spec.kind
    if p.choices:
        one = max(map(len, p.choices))
    elif kind is bool:
        one = max(map(len, (*TRUE_WORDS, *_FALSE)))
    elif kind is int:
        one = max(len(str(p.min)), len(str(p.max)))
    else:
        one = p.length
    one += SPACING
    return (one + 1) * p.count[1] if spec.kind is list and not item else one


def label(name: str, spec: Spec) -> str:
    """A parameter's name as a form labels it: words for its underscores, the first capitalised, and a word its
    help writes in capitals kept so (an acronym: `pgn` whose help says "PGN" is labelled "PGN")."""
    capitals = set(re.findall(r"\b[A-Z][A-Z0-9]+\b", spec.param.help))
    words = [word.upper() if word.upper() in capitals else word for word in name.split("_")]
    return " ".join([words[0][:1].upper() + words[0][1:], *words[1:]])


def _type_name(spec: Spec) -> str:
    return f"{TYPE_NAMES[spec.item]} list" if spec.kind is list else TYPE_NAMES[spec.kind]


def allowed(spec: Spec) -> str:
    """What a parameter accepts, in words: "a whole number from 0 to 6", "one of fleet, air, ground"."""
    kind = spec.item or spec.kind
    p = spec.param
    if p.choices:
        one = "one of " + ", ".join(p.choices)
    elif kind is bool:
        one = "true or false"
    elif kind is int:
        one = f"a whole number from {p.min} to {p.max}"
    else:
        one = f"text of at most {p.length} characters"
    if spec.kind is not list:
        return one
    low, high = p.count
    return f"a comma-separated list of {low if low == high else f'{low} to {high}'} items, each {one}"


def _describe_param(name: str, spec: Spec) -> dict:
    p = spec.param
    return {"label": label(name, spec), "type": _type_name(spec), "required": spec.required,
            "default": plain(spec.default), "min": p.min, "max": p.max, "choices": list(p.choices) or None,
            "count": list(p.count) if p.count else None, "length": p.length, "help": p.help}


def _describe(calculator: Calculator) -> dict:
    return {"description": calculator.description,
            "params": {name: _describe_param(name, spec) for name, spec in specs(calculator.function).items()},
            "rulings": list(calculator.rulings)}


@cache
def describe() -> dict[str, dict[str, dict]]:
    """game → calculator → {"description", "params": {name: {"label", "type", "required", "default", "min",
    "max", "choices", "count", "length", "help"}}, "rulings": [ruling id]}: what every calculator accepts."""
    return {game: {name: _describe(calc) for name, calc in calculators(game).items()} for game in games()}


def for_ruling(ruling_id: str) -> list[dict]:
    """The calculators whose answers this ruling decides: `[{"game", "name", "description"}]`."""
    return [{"game": game, "name": name, "description": calc.description}
            for game in games() for name, calc in calculators(game).items() if ruling_id in calc.rulings]


def find_game(game: str) -> str:
    """The game slug `game` means ("Dragon Dice", "dragondice" → "dragon-dice"); UnknownCalculator lists the
    games."""
    try:
        return resolve(game, games(), "game")
    except UnknownName as exc:
        raise UnknownCalculator(str(exc), "game") from None


def find(game: str, calc: str) -> tuple[str, str, Calculator]:
    """(game slug, calculator name, Calculator) for a game named forgivingly and a calculator named exactly;
    an old spelling (`set_aside`) is refused with the kebab-case name to use instead."""
    game = find_game(game)
    available = calculators(game)
    if calc in available:
        return game, calc, available[calc]
    hint = same_name(calc, available)
    if hint:
        raise UnknownCalculator(f"no calculator {calc!r} for {game}: calculator names are kebab-case, "
                                f"use {hint!r}", "calc")
    raise UnknownCalculator(f"no calculator {calc!r} for {game}; calculators: {', '.join(available)}", "calc")


def usage(game: str, calc: str) -> str:
    """One line listing what a calculator accepts."""
    _, calc, calculator = find(game, calc)
    return f"{game} {calc} accepts " + "; ".join(
        f"{name}{'' if spec.required else ' (optional)'}: {spec.param.help} ({allowed(spec)})"
        for name, spec in specs(calculator.function).items())


def shown(text: str) -> str:
    """A value quoted in an error, cut short when long."""
    return repr(text) if len(text) <= SHOWN else repr(text[:SHOWN]) + f"… ({len(text)} characters)"


def _refuse(name: str, text: str, spec: Spec) -> CalcError:
    return CalcError(f"parameter {name!r}: {shown(text)} is not allowed; it must be {allowed(spec)} — "
                     f"{spec.param.help}", name)


def _read_one(name: str, text: str, kind: type, spec: Spec):
    p = spec.param
    if p.choices:
        try:
            return resolve(text, p.choices, name.replace("_", " "))
        except UnknownName as exc:
            raise CalcError(f"parameter {name!r}: {exc}", name) from None
    if kind is bool:
        if text.lower() not in {*TRUE_WORDS, *_FALSE}:
            raise _refuse(name, text, spec)
        return text.lower() in TRUE_WORDS
    if kind is int:
        try:
            value = int(text)
        except ValueError:
            raise _refuse(name, text, spec) from None
        if not p.min <= value <= p.max:
            raise _refuse(name, text, spec)
        return value
    return text


def read(name: str, raw: str, spec: Spec):
    """A parameter's string value read and checked against its declaration; CalcError names the parameter
    and what it allows. Text longer than the declaration allows is refused before any of it is read."""
    if len(raw) > _longest(spec):
        raise _refuse(name, raw, spec)
    if spec.kind is not list:
        return _read_one(name, raw.strip(), spec.kind, spec)
    items = [item.strip() for item in raw.split(",") if item.strip()]
    too_long = next((item for item in items if len(item) > _longest(spec, item=True)), None)
    if too_long is not None:
        raise _refuse(name, too_long, spec)
    values = [_read_one(name, item, spec.item, spec) for item in items]
    low, high = spec.param.count
    if not low <= len(values) <= high:
        raise _refuse(name, raw, spec)
    return values


def run(game: str, calc: str, params: dict[str, str]) -> dict:
    """Run calculator `calc` of `game` on string parameters.

    Returns `{"game", "calculator", "inputs", "result", "answer", "rulings"}`: the inputs as read (defaults
    filled in, names resolved), the facts, the answer in words and the ids of the rulings that decide this
    answer (`deciding`).
    CalcError names what is wrong and what is accepted (UnknownCalculator: no such game or calculator).
    """
    game, calc, calculator = find(game, calc)
    spec = specs(calculator.function)
    for name in params:
        if name not in spec:
            hint = same_name(name, spec)
            why = f"parameter names are snake_case, use {hint!r}" if hint else usage(game, calc)
            raise CalcError(f"unknown parameter {shown(name)}; {why}", name)
    missing = [name for name, s in spec.items() if s.required and name not in params]
    if missing:
        raise CalcError(f"missing parameter {', '.join(map(repr, missing))}; {usage(game, calc)}", missing[0])
    inputs = {name: read(name, params[name], s) if name in params else s.default for name, s in spec.items()}
    try:
        result = plain(calculator.function(**inputs))
    except CalcError:
        raise
    except ValueError as exc:  # what only the rules can refuse: values impossible together
        raise CalcError(f"{exc}; {usage(game, calc)}") from None
    inputs = plain(inputs)
    return {"game": game, "calculator": calc, "inputs": inputs, "result": result,
            "answer": calculator.say(inputs, result), "rulings": deciding(calculator, inputs, result)}


def deciding(calculator: Calculator, inputs: dict, result: dict) -> list[str]:
    """The ids of the rulings that decide this answer of `calculator`, in its declared order; DeclarationError
    when its `decided_by` names a ruling it does not declare (the listings and ruling pages would miss it)."""
    if calculator.decided_by is None:
        return list(calculator.rulings)
    chosen = set(calculator.decided_by(inputs, result))
    undeclared = chosen - set(calculator.rulings)
    if undeclared:
        raise DeclarationError(f"{calculator.function.__module__}.{calculator.function.__qualname__}: decided by "
                               f"{', '.join(sorted(undeclared))}, which it does not declare")
    return [ruling for ruling in calculator.rulings if ruling in chosen]


def and_list(items: list[str]) -> str:
    """Items joined as a sentence says them: "a", "a and b", "a, b and c"."""
    return " and ".join(filter(None, [", ".join(items[:-1]), items[-1]])) if items else ""


def reference_markdown() -> str:
    """The calculator reference of docs/engine.md: per game, each calculator with its parameters, what they allow and
    the rulings that decide it."""
    lines = []
    for game in games():
        lines.append(f"**{game}**\n")
        for name, calculator in calculators(game).items():
            params = "; ".join(f"`{param}`{'' if spec.required else ' (optional)'}: {allowed(spec)}"
                               for param, spec in specs(calculator.function).items())
            lines.append(f"- `{name}`: {calculator.description} Parameters: {params}. "
                         f"Rulings: {', '.join(f'`{r}`' for r in calculator.rulings)}.")
        lines.append("")
    return "\n".join(lines).rstrip("\n")
