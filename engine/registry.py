"""The engine's modules found by name: a game's slug or a module name, and a scenario's `module.function` call.

Calculators and `rulings verify` both reach the engine by name, so this is the one place that imports engine
modules by name, and `plain` is the one form their results take outside the engine.
"""
from __future__ import annotations

import dataclasses
import enum
import importlib
from collections.abc import Callable
from types import ModuleType

GAMES = ("wizard-dice", "dragon-dice", "magic-combat-dice", "dungeon-twister", "paths-of-the-lance")


def load_module(name: str) -> ModuleType:
    """The engine module for a game slug (`dragon-dice`) or a module name (`dragon_dice`, `dice`)."""
    return importlib.import_module(f"engine.{name.replace('-', '_')}")


def resolve_call(call: str) -> Callable:
    """The engine function a scenario's call names as `module.function` (`dragon_dice.saves`)."""
    module_name, function_name = call.split(".")
    return getattr(load_module(module_name), function_name)


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
