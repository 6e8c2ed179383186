"""Steps a document numbers after a word it repeats ("STEP 1-DETERMINE SPEAKER: Randomly…", "STEP 2-CHOOSE
FACTIONS: Each…"): which words number steps, and the unit each step opens.
"""
from __future__ import annotations

from ingest.classify import KEYWORDS, STEP
from ingest.segment import Block
from ingest.shapes.dialect import section_title

_KEYWORDS = {word.casefold() for word in KEYWORDS}  # folded, as `stepped` compares words
# How many lines a word must number, counting up from 1, to be the word the document numbers its steps after.
_STEPS = 3


def stepped(lines: list[tuple[int, str]]) -> set[str]:
    """The words (folded) the document numbers steps after: each opens lines numbered 1, 2, 3… and naming the
    step (`_STEPS` at least, in order, a restart at 1 allowed), as "STEP 1-DETERMINE SPEAKER: Randomly…",
    "STEP 2-CHOOSE FACTIONS: Each…" do."""
    counted: dict[str, int] = {}
    last: dict[str, int] = {}
    for _, line in lines:
        step = STEP.match(line)
        if not step or not step.group("title"):  # a step names what it does; "Note 1: If…", "Example 2: The…" don't
            continue
        word, number = step.group("word").casefold(), int(step.group("n"))
        if number == 1 or number > last.get(word, 0):
            counted[word] = counted.get(word, 0) + 1
        last[word] = number
    # The words a heading's number follows number sections and rules, never steps.
    return {word for word, count in counted.items()
            if count >= _STEPS and word not in _KEYWORDS}


class StepReader:
    """The outline reader's steps (mixed into its reader, whose section and units it sets)."""

    def _step(self, pos: int, line: str) -> bool:
        """A step numbered after a word the document repeats ("STEP 7-PLACE GAME BOARD TOKENS: Place the…"): a
        unit numbered so, titled by what it names, its roman items under it."""
        step = STEP.match(line)
        if not step or step.group("word").casefold() not in self.facts.steps:
            return False
        title = section_title(step.group("title")) if step.group("title") else ""
        block = Block(self.section, step.group("n"), title, [], kind="rule")
        self.items, self.case, self.named = [], block, None
        self._start(block, pos + step.start("body"), pos + len(line))
        return True
