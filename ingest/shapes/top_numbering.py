"""Rulebooks numbered from the top in the outline dialect ("103." a rule as much as "103.2.a.1."): the
headings among a document's plain numbers ("101. Deck Construction", "300. Playing the Game")
and the rules the others are (whether a document numbers so is a fact of it,
`Facts.top_rules`).
"""
from __future__ import annotations

import re

from ingest.classify import ITEM
from ingest.segment import Block, first_sentence
from ingest.shapes.dialect import Heading, names_a_topic, section_title
from ingest.shapes.facts import Facts


class TopNumbering:
    """A document's rules numbered from the top, with their own state: the last plain number of its sequence so
    far. The builder asks it, line by line, for the headings among the plain numbers and the rules the others
    are."""

    def __init__(self, facts: Facts):
        self.facts = facts
        self.top = -1

    def heading(self, index: int, heading_line: int, headings: list[Heading]) -> Heading | None:
        """The heading at line `index`, under the open `headings` (the latest on `heading_line`): the next plain
        number with a title ("101. Deck Construction", "429. Add") over more rules; the document's other lines
        are rules or their text while its numbering carries on (a line among them without a number is text:
        "Keywords can be..." after a bare "727."). A round hundred ("300. Playing the Game") opens a chapter; a
        title right under another is a topic inside it; any other is a topic of the chapter."""
        top = self.facts.readings[index].top()
        if top is None:
            return None
        number, title = top.group("n"), top.group("title")
        following = self.facts.following[index]
        if int(number) <= self.top or following is None or not self._opens_rule(following) \
                or not names_a_topic(title):
            return None
        self.top = int(number)
        right_under = headings and self.facts.preceding[index] == heading_line  # a heading line is never blank
        level = 1 if int(number) % 100 == 0 else headings[-1].level + 1 if right_under else 2
        shown = title if len(title) <= 3 else section_title(title)  # "XP" is no all-capitals heading
        return Heading(level, f"{number} {shown}", number, "numbered")

    def rule(self, item: re.Match, start: int, end: int, section: tuple[str, ...]) -> Block | None:
        """The rule in `section` a plain number (`item`, its text from `start` to `end`) opens when the number
        carries the document's sequence on ("103."); None for any other ("2. Make relevant choices.": a step in
        the text of the rule above it)."""
        number = item.group("number")
        if not number.isdigit() or int(number) <= self.top:
            return None
        self.top = int(number)
        # A rule that is a numbered step ("401. 1. Activate or trigger the Ability") is titled by the step.
        step = self.facts.item.match(self.facts.text[start:end])
        title = first_sentence(self.facts.text[start + step.end():end]) if step and step.group("number") else ""
        return Block(section, number, title, [], kind="rule")

    def _opens_rule(self, index: int) -> bool:
        """Does line `index` start a numbered rule ("103.", "103.2.a.", a bare "727.")?"""
        reading, item = self.facts.readings[index], ITEM.match(self.facts.line(index))
        return bool(reading.top() or reading.lone or (item and item.group("decimal")))
