"""Questions in the outline dialect beyond "Q:"/"A:" pairs: a paragraph that asks, a question run over several
lines (a PDF breaks its lines at each card name), and the next question asked inside an answer (bulleted questions
flattened onto one line, each answered past a wide gap, are split apart among the document's facts).
"""
from __future__ import annotations

from ingest.classify import rhetorical
from ingest.segment import Block
from ingest.shapes.facts import Facts

_QUESTION_LINES = 16  # the most lines a question runs on over (a PDF breaks its lines at each card name)
# The most words a question runs to before it asks (an FAQ's longest, a few sentences setting a case out, are under
# 70): a longer passage that ends a line asking is prose asking on its way ("…At what points… actually occurred?").
_QUESTION_WORDS = 100


class Questions:
    """A document's questions beyond "Q:"/"A:" pairs, with their own state: how many so far (labelled q1, q2…),
    the lines the open question runs on over, the line it ends on, and whether the open heading's questions
    follow right under it (an FAQ's). The builder asks it where a question ends, opens one, and whether an
    answer asks the next."""

    def __init__(self, facts: Facts):
        self.facts = facts
        self.count = 0
        self.asking: set[int] = set()  # the lines a question runs on over, text of it, never headings
        self.asked = -1                # the line the open question ends on: its answer follows
        self.faq = False

    def label(self) -> str:
        """The next question's label ("q7"), counting it."""
        self.count += 1
        return f"q{self.count}"

    def ends_on(self, index: int) -> int | None:
        """The line a question opening at line `index` ends on: the text runs, over a few lines of its paragraph
        (past blank lines only where they stand between all lines), to a line ending asking, no line before it
        ending a sentence or being a heading, a numbered unit or an aside in parentheses ("What happens if the
        raider plays" / "Swap" / " to trade places with" / "Ada Sterling" / "?"), within `_QUESTION_WORDS`; None
        when it does not."""
        facts = self.facts
        at: int | None = index
        words = 0
        for _ in range(_QUESTION_LINES):
            if at is None:
                return None
            line, reading = facts.line(at).strip(), facts.readings[at]
            words += len(line.split())
            if words > _QUESTION_WORDS or at != index and (facts.item.match(line) or reading.marked) or reading.aside:
                return None
            if reading.ends_asking:
                return None if rhetorical(line) else at
            if reading.ends_clause and not facts.carried_on(at):  # "Gotcha!" / ", and the roll…" goes on
                return None
            following = facts.following[at]
            if following is not None and following > at + 1 and not facts.spaced_out:
                return None  # a blank line ends a paragraph
            at = following
        return None

    def open(self, index: int, section: tuple[str, ...], heading_line: int, answering: bool) -> Block:
        """A question opening at line `index` in `section` (`answering`: the current unit is a question); the
        lines it runs on over are its text."""
        end = self.ends_on(index)
        above = self.facts.preceding[index]
        if above >= 0 and self.facts.readings[above].aside:
            above = self.facts.preceding[above]
        self.faq = above == heading_line or self.faq and answering
        self.asked = end if end is not None else index
        self.asking.update(range(index + 1, self.asked + 1))
        return Block(section, self.label(), "", [], kind="question")

    def asks_again(self, index: int, answering: bool) -> bool:
        """Inside an answer (`answering`), does line `index` ask the next question about the same heading: after
        a finished sentence of the answer, text or a bullet running to a line that asks ("No. Resting is not
        healing." / "Does resting at camp … count" / "…?", or "• If I defeat a Hero…?")?"""
        previous, reading = self.facts.preceding[index], self.facts.readings[index]  # past the open question's last
        return answering and previous > self.asked and self.facts.readings[previous].ends_sentence \
            and (reading.opens_sentence or reading.bullet is not None) and self.ends_on(index) is not None
