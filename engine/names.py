"""Forgiving name matching: what a judge types ("potion", "Dragon Dice", "dragondice") to the one name it means.

A name matches when it is the same once case, spaces and punctuation are ignored; failing that, when it is the
start of one name's words or part of one name only ("potion" → "Potion of Strength"); failing that, when it is
one close misspelling away from one name. Anything matching several names, or none, is refused with the
candidates listed, so a guess is never silently wrong.
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping


class UnknownName(ValueError):
    """A name matched nothing, or several things: the message lists the candidates."""

    def __init__(self, message: str, candidates: list[str]):
        super().__init__(message)
        self.candidates = candidates


def squash(text: str) -> str:
    """A name reduced to its letters and digits, lower case: "Dragon Dice", "dragon-dice" → "dragondice"."""
    return re.sub(r"[\W_]+", "", text.casefold())


def same_name(wanted: str, names: Iterable[str]) -> str | None:
    """The name among `names` that is `wanted` spelled with other separators or case ("set_aside" for
    "set-aside"), or None."""
    return next((name for name in names if squash(name) == squash(wanted)), None)


def resolve(value: str, names: Iterable[str] | Mapping[str, str], what: str = "name") -> str:
    """The one name `value` means among `names` (or, given a mapping of aliases to names, the name its alias
    means); UnknownName when it means none or several, listing the candidates."""
    aliases = dict(names) if isinstance(names, Mapping) else {name: name for name in names}
    canonical = list(dict.fromkeys(aliases.values()))
    wanted = squash(value)
    for test in (lambda alias: squash(alias) == wanted,
                 lambda alias: bool(wanted) and wanted in squash(alias)):
        found = list(dict.fromkeys(name for alias, name in aliases.items() if test(alias)))
        if len(found) == 1:
            return found[0]
        if found:
            raise UnknownName(f"{what} {value!r} is ambiguous: it could be {_listed(found)}", found)
    close = difflib.get_close_matches(wanted, {squash(alias): name for alias, name in aliases.items()}, n=3,
                                      cutoff=0.8)
    found = list(dict.fromkeys({squash(alias): name for alias, name in aliases.items()}[c] for c in close))
    if len(found) == 1:
        return found[0]
    raise UnknownName(f"unknown {what} {value!r}; one of {_listed(canonical)}", canonical)


def _listed(names: list[str]) -> str:
    return ", ".join(names)
