"""Questions in the outline dialect beyond "Q:"/"A:" pairs: a paragraph that asks, a question run over several
lines (a PDF breaks its lines at each card name), the next question asked inside an answer, and bulleted questions
flattened onto one line, each answered past a wide gap.
"""
from __future__ import annotations

from ingest.classify import (
    ASIDE,
    BULLET,
    ENDS_ASKING,
    ENDS_CLAUSE,
    INLINE_ASKS,
    INLINE_BULLET,
    OPENS_SENTENCE,
    SENTENCE_END,
    marked_heading,
)
from ingest.segment import Block

_QUESTION_LINES = 16  # the most lines a question runs on over (a PDF breaks its lines at each card name)
_INLINE_QUESTIONS = 2  # how many bulleted questions make a line of them


class QuestionReader:
    """The outline reader's questions (mixed into its reader, whose lines and units it reads and sets): where a
    question ends, the question block it opens, and the next question asked inside an answer."""

    def _asks_on(self, index: int) -> int | None:
        """The line a question opening at line `index` ends on: the text runs, over a few lines of its paragraph
        (past blank lines only where they stand between all lines), to a line ending asking, no line before it
        ending a sentence or being a heading, a numbered unit or an aside in parentheses ("What happens if the
        raider plays" / "Swap" / " to trade places with" / "Ada Sterling" / "?"); None when it
        does not."""
        at: int | None = index
        for _ in range(_QUESTION_LINES):
            if at is None:
                return None
            line = self.facts.line(at).strip()
            if at != index and (self.facts.item.match(line) or marked_heading(line)) or ASIDE.fullmatch(line):
                return None
            if ENDS_ASKING.search(line):
                return at
            if ENDS_CLAUSE.search(line) and not self._carried_on(at):  # "Gotcha!" / ", and the roll…" goes on
                return None
            following = self.facts.following[at]
            if following is not None and following > at + 1 and not self.facts.spaced_out:
                return None  # a blank line ends a paragraph
            at = following
        return None

    def _question(self, index: int) -> Block:
        """A question opening at line `index`; the lines it runs on over are its text."""
        end = self._asks_on(index)
        above = self.facts.preceding[index]
        if above >= 0 and ASIDE.fullmatch(self.facts.line(above).strip()):
            above = self.facts.preceding[above]
        self.faq = above == self.heading_line or self.faq and self.current is not None \
            and self.current.kind == "question"
        self.asked = end if end is not None else index
        self.asking.update(range(index + 1, self.asked + 1))
        self.questions += 1
        return Block(self.section, f"q{self.questions}", "", [], kind="question")

    def _asks_again(self, index: int) -> bool:
        """Inside an answer, does line `index` ask the next question about the same heading: after a finished
        sentence of the answer, text running to a line that asks ("No. Resting is not healing." / "Does
        resting at camp … count" / "…?")?"""
        if self.current is None or self.current.kind != "question" or index <= self.asked:
            return False
        previous = self.facts.preceding[index]
        if previous <= self.asked or not SENTENCE_END.search(self.facts.line(previous).rstrip()):
            return False
        return bool(OPENS_SENTENCE.match(self.facts.line(index).strip())) and self._asks_on(index) is not None


def split_asked(lines: list[tuple[int, str]]) -> tuple[list[tuple[int, str]], set[int]]:
    """`lines` with each line that runs questions together as bullets, each answered after it ("•   Is there a
    turn limit?    No, play goes on…  •   Can armour stop a fall?    No. …", a page flattened onto one line),
    split at its bullets; and the indexes of the bullets that ask."""
    found: list[tuple[int, str]] = []
    asked: set[int] = set()
    for start, line in lines:
        cuts = [m.start() for m in INLINE_BULLET.finditer(line)]
        parts = [line[a:b] for a, b in zip(cuts, [*cuts[1:], len(line)])]
        asking = [bool(INLINE_ASKS.match(BULLET.sub("", part, count=1))) for part in parts]
        if sum(asking) < _INLINE_QUESTIONS:
            found.append((start, line))
            continue
        if cuts[0]:
            found.append((start, line[:cuts[0]].rstrip()))
        for cut, part, asks in zip(cuts, parts, asking, strict=True):
            if asks:
                asked.add(len(found))
            found.append((start + cut, part.rstrip()))
    return found, asked
