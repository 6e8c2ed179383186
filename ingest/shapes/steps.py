"""Steps a document numbers after a word it repeats ("STEP 1-DETERMINE SPEAKER: Randomly…", "STEP 2-CHOOSE
FACTIONS: Each…"): the unit each step opens (which words number steps is a fact of the document,
`Facts.steps`).
"""
from __future__ import annotations

from ingest.classify import STEP
from ingest.segment import Block
from ingest.shapes.dialect import section_title


def step_unit(line: str, words: frozenset[str], section: tuple[str, ...]) -> tuple[Block, int] | None:
    """A step numbered after one of `words`, the words the document numbers its steps after ("STEP 7-PLACE GAME
    BOARD TOKENS: Place the…"): a unit in `section` numbered so, titled by what it names, and where in `line`
    its text starts; None when `line` is no such step."""
    step = STEP.match(line)
    if not step or step.group("word").casefold() not in words:
        return None
    title = section_title(step.group("title")) if step.group("title") else ""
    return Block(section, step.group("n"), title, [], kind="rule"), step.start("body")
