"""The engine's games, discovered, and its modules found by name: a game's slug, a module's name, a scenario's call.

A game's engine is a module that declares the game's slug (`GAME = "dragon-dice"`) and its calculators
(`CALCULATORS`, see `engine.calculators`). The games are discovered, never listed: the modules of this package
that declare a GAME, and the modules installed packages name in the `rulings.games` entry point group, so a
third party adds a game, its calculators and its scenarios' calls without editing this repository
(docs/plugins.md). Calculators and `rulings verify` both reach the engine by name, so this is the one place
that imports engine modules by name, and `plain` is the one form their results take outside the engine.
"""
from __future__ import annotations

import dataclasses
import enum
import importlib
import pkgutil
from collections.abc import Callable
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType

ENTRY_POINTS = "rulings.games"  # the entry point group of plugin games: name = the game's slug, value = its module


class GameError(ImportError):
    """An installed game cannot be used: its module does not import, declares no GAME, or takes a slug
    another module has."""


def games() -> tuple[str, ...]:
    """The slugs of every game with an engine, the engine's own and the plugins', in alphabetical order."""
    return tuple(_games())


def load_module(name: str) -> ModuleType:
    """The engine module for a game slug (`dragon-dice`), its module name (`dragon_dice`) or a shared module
    of the engine (`dice`)."""
    found = _games().get(name.replace("_", "-"))
    return found if found is not None else importlib.import_module(f"engine.{name}")


def resolve_call(call: str) -> Callable:
    """The engine function a scenario's call names as `module.function` (`dragon_dice.saves`)."""
    module_name, function_name = call.split(".")
    return getattr(load_module(module_name), function_name)


@cache
def _games() -> dict[str, ModuleType]:
    """slug → module of every game, sorted by slug; GameError names a plugin that cannot be used."""
    found: dict[str, ModuleType] = {}
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        module = importlib.import_module(f"{__package__}.{info.name}")
        if hasattr(module, "GAME"):
            found[module.GAME] = module
    for point in entry_points(group=ENTRY_POINTS):
        where = f"plugin game {point.name!r} ({point.value}, entry point group {ENTRY_POINTS})"
        try:
            module = point.load()
        except Exception as exc:  # noqa: BLE001 -- a broken plugin may raise anything on import
            raise GameError(f"{where} cannot be imported: {type(exc).__name__}: {exc}") from exc
        slug = getattr(module, "GAME", None)
        if not isinstance(slug, str):
            raise GameError(f"{where} declares no GAME = \"<slug>\"")
        if slug in found and found[slug] is not module:
            raise GameError(f"{where} declares GAME = {slug!r}, which {found[slug].__name__} already is")
        found[slug] = module
    return dict(sorted(found.items()))


def plain(value):
    """Engine results as JSON-comparable data: dataclasses to dicts, tuples and sets to lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return plain(dataclasses.asdict(value))
    if isinstance(value, enum.Enum):
        return plain(value.value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(plain(v) for v in value)
    return value
