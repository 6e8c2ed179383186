"""Rulebooks numbered from the top in the outline dialect ("103." a rule as much as "103.2.a.1."): whether a
document numbers so, the headings among its plain numbers ("101. Deck Construction", "300. Playing the Game")
and the rules the others are.
"""
from __future__ import annotations

import re

from ingest.classify import ITEM, LONE_LABEL, SENTENCE_END, TOP_NUMBER
from ingest.segment import Block, first_sentence
from ingest.shapes.dialect import Heading, indent_of, names_a_topic, section_title


class TopNumberingReader:
    """The outline reader's rules numbered from the top (mixed into its reader, whose lines, open headings and
    units it reads and sets; `top` is the last plain number of the document's sequence so far)."""

    def _top_heading(self, index: int, stripped: str) -> Heading | None:
        """In a document numbering its rules from the top, a heading is the next plain number with a title
        ("101. Deck Construction", "429. Add") over more rules; its other lines are rules or their text while
        its numbering carries on (a line among them without a number is text: "Keywords can be..." after a bare
        "727."). A round hundred ("300. Playing the Game") opens a chapter; a title right under another is a
        topic inside it; any other is a topic of the chapter."""
        top = TOP_NUMBER.match(stripped)
        if top is None:
            return None
        number, title = top.group("n"), top.group("body")
        following = self.facts.following[index]
        if int(number) <= self.top or following is None or not _opens_rule(self.facts.line(following)):
            return None
        if not names_a_topic(title):
            return None
        self.top = int(number)
        previous = self.facts.preceding[index]  # a heading line is never blank: it stops there
        if int(number) % 100 == 0:
            level = 1
        elif previous == self.heading_line and self.headings:
            level = self.headings[-1].level + 1
        else:
            level = 2
        shown = title if len(title) <= 3 else section_title(title)  # "XP" is no all-capitals heading
        return Heading(level, f"{number} {shown}", number, "numbered")

    def _top_rule(self, line: str, item: re.Match, start: int, end: int) -> bool:
        """A rule numbered from the top ("103."), when its number carries the document's sequence on; any
        other plain number ("2. Make relevant choices.") is a step in the text of the rule above it."""
        number = item.group("number")
        if not number.isdigit() or int(number) <= self.top:
            return False
        self.top = int(number)
        # A rule that is a numbered step ("401. 1. Activate or trigger the Ability") is titled by the step.
        step = self.facts.item.match(self.facts.text[start:end])
        title = first_sentence(self.facts.text[start + step.end():end]) if step and step.group("number") else ""
        block = Block(self.section, number, title, [], kind="rule")
        self.rules.add(number)
        self.items = [(indent_of(line), number, block)]
        self.case, self.named = block, None
        self._start(block, start, end)
        return True


def numbers_rules_from_the_top(lines: list[tuple[int, str]], numbers: list[str | None]) -> bool:
    """Does the document number its rules from the top level, "103." a rule as much as "103.2.a."? Then its
    plain numbers count up through the whole document, many of them are rules (a sentence, not a title) and
    many are followed by their own subrules ("103." then "103.1."): not a list restarting at 1 under each
    heading, nor a few chapters."""
    tops = [(index, match) for index, (_, line) in enumerate(lines) if (match := TOP_NUMBER.match(line))]
    if len(tops) < 20:
        return False
    values = [int(match.group("n")) for _, match in tops]
    ascending = sum(later > earlier for earlier, later in zip(values, values[1:]))
    sentences = sum(bool(SENTENCE_END.search(match.group("body"))) for _, match in tops)
    parents = sum((numbers[index] or "").startswith(match.group("n") + ".") for index, match in tops)
    return ascending >= 0.9 * (len(tops) - 1) and sentences >= 0.25 * len(tops) and parents >= 0.1 * len(tops)


def _opens_rule(line: str) -> bool:
    """Does `line` start a numbered rule ("103.", "103.2.a.", a bare "727.")?"""
    item = ITEM.match(line)
    return bool(TOP_NUMBER.match(line) or LONE_LABEL.match(line) or (item and item.group("decimal")))
