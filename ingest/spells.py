"""Structured spell records from spell-list rulings ("MAGIC MISSILES (A) Up to two 6s can be used to...")."""
from __future__ import annotations


from ingest.classify.words import SPELL_TYPE, SPELL_USE
from model.records import Ruling, Spell


def extract(rulings: list[Ruling]) -> list[Spell]:
    """One Spell per ruling of kind "spell" whose text opens with its type letters in brackets."""
    spells = []
    for ruling in rulings:
        if ruling.kind != "spell":
            continue
        typed = SPELL_TYPE.match(ruling.text)
        if not typed:
            continue
        body = typed.group("body")
        use = SPELL_USE.match(body)
        pattern, effect = (use.group("pattern"), use.group("effect")) if use else ("", body)
        spells.append(Spell(ruling.id, ruling.id, ruling.game, ruling.title, typed.group("type"),
                            pattern.strip(), effect.strip()))
    return spells
