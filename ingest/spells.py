"""Structured spell records from spell-list rulings ("MAGIC MISSILES (A) Up to two 6s can be used to...")."""
from __future__ import annotations

import re

from model.records import Ruling, Spell

_TYPED = re.compile(r"^(?:[A-Z][A-Z '’-]+ )?\((?P<type>[A-Z](?:/[A-Z])*)\)\s*(?P<body>.*)$", re.S)
# The dice pattern is what a spell is cast with: "Use <pattern> to <effect>" or "<pattern> can be used to <effect>".
_USE = re.compile(r"^(?:Use\s+)?(?P<pattern>.+?)(?<!\b[Uu]p)\s+(?:can be used\s+)?to\s+(?P<effect>.+)$", re.S)


def extract(rulings: list[Ruling]) -> list[Spell]:
    """One Spell per ruling of kind "spell" whose text opens with its type letters in brackets."""
    spells = []
    for ruling in rulings:
        if ruling.kind != "spell":
            continue
        typed = _TYPED.match(ruling.text)
        if not typed:
            continue
        body = typed.group("body")
        use = _USE.match(body)
        pattern, effect = (use.group("pattern"), use.group("effect")) if use else ("", body)
        spells.append(Spell(ruling.id, ruling.id, ruling.game, ruling.title, typed.group("type"),
                            pattern.strip(), effect.strip()))
    return spells
