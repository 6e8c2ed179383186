"""The facts about a document in the outline dialect (the reader's first stage, docs/ingest.md, "The reader in
three stages"): its label grammar, its lines as read with it, the neighbours and upcoming numbers of each line, and
what the document does throughout (numbers its rules from the top, prints labels alone, sets a blank line between
all lines…). Computed once, before a line is cut, and frozen: the builder reads them and never writes them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ingest import labels
from ingest.classify import (
    BARE_NUMBERED,
    BULLET,
    CHAPTER,
    ENDS_CLAUSE,
    LONGEST_HEADING,
    SENTENCE_END,
    Reading,
    item_pattern,
    read_lines,
)
from ingest.formats import FENCE
from ingest.shapes.contents import contents_pairs
from ingest.shapes.dialect import next_nonblank, numbered_lines, previous_nonblank
from ingest.shapes.glossary import alphabetical_headings
from ingest.shapes.questions import split_asked
from ingest.shapes.steps import stepped
from ingest.shapes.top_numbering import numbers_rules_from_the_top

Line = tuple[int, str]  # where a line starts in the text, and the line


@dataclass(frozen=True)
class Facts:
    """What holds of a document's lines before any is cut, each a fact of the whole document or of each line
    (a tuple by line index)."""

    text: str
    item: re.Pattern                   # the document's label grammar (its separators, bare letters)
    lines: tuple[Line, ...]            # its lines, a code block's as FENCE: looking around, code heads nothing
    code: dict[int, str]               # line index -> the line of a code block or of the FENCE around it
    inline_asked: frozenset[int]       # the bullets of a line of questions flattened together that ask
    readings: tuple[Reading, ...]      # each line's readings
    following: tuple[int | None, ...]  # the next line not blank
    preceding: tuple[int, ...]         # the previous line not blank (-1: none)
    numbers: tuple[str | None, ...]    # the number of the next decimal rule or numbered chapter after the line
    entries: frozenset[int]            # marked headings in an alphabetical run: a glossary's entries
    sequenced: frozenset[int]          # headings numbered without a stop, counting 1, 2, 3… ("3 BASIC RULES")
    width: int                         # a full line's length: a line ending well short of it ended on purpose
    # Numbering its rules from the top (`103.` a rule as much as `103.2.a.1.`): plain numbers are its rules and
    # title lines, counting up through the document, never list items numbered after a heading.
    top_rules: bool
    lone: bool                         # printing its labels alone on their lines ("1.4.6." over its text)
    steps: frozenset[str]              # words it numbers its steps after ("STEP 7-PLACE…"), folded
    listed: frozenset[int]             # the labels of a contents page ("1.2." over "The Golden Rules")
    spaced_out: bool                   # a blank line between all lines (as some PDFs read)

    def line(self, index: int) -> str:
        """The text of line `index`."""
        return self.lines[index][1]


def document_facts(text: str) -> Facts:
    """The facts of `text`, a document in the outline dialect."""
    lines = list(numbered_lines(text))
    # The document's own numbering: the separators its labels join numbers with, and the lines it numbers.
    joints = labels.separators(line for _, line in lines)
    item = item_pattern(joints)
    lines = labels.unglue(lines, joints[-1], item)
    lines, inline_asked = split_asked(lines)
    if labels.bare_letters(lines, item):
        item = item_pattern(joints, bare=True)
    code = _fenced(lines)
    lines = [(pos, FENCE if index in code else line) for index, (pos, line) in enumerate(lines)]
    following = next_nonblank(lines)
    numbers = _next_numbers(lines, item)
    lone = labels.printed_alone(lines, item)
    lengths = sorted(len(line.rstrip()) for _, line in lines if line.strip())
    return Facts(
        text=text, item=item, lines=tuple(lines), code=code, inline_asked=frozenset(inline_asked),
        readings=tuple(read_lines(lines, item)), following=tuple(following),
        preceding=tuple(previous_nonblank(lines)), numbers=tuple(numbers),
        entries=frozenset(alphabetical_headings(lines)), sequenced=frozenset(_sequenced_headings(lines)),
        width=lengths[int(0.9 * (len(lengths) - 1))] if lengths else 0,
        top_rules=numbers_rules_from_the_top(lines, numbers), lone=lone, steps=frozenset(stepped(lines)),
        listed=frozenset(contents_pairs(lines, following) if lone else ()), spaced_out=_spaced_out(lines))


def _spaced_out(lines: list[Line]) -> bool:
    """Does a blank line stand between nearly all lines of the text, lines that mostly wrap a sentence (a PDF
    whose reader set one after each line), so that blank lines do not part paragraphs? (Paragraphs of a line
    each end their sentences.)"""
    text = [index for index, (_, line) in enumerate(lines[:-1]) if line.strip()]
    return (len(text) >= 50 and sum(not lines[index + 1][1].strip() for index in text) >= 0.9 * len(text)
            and sum(bool(SENTENCE_END.search(lines[index][1].rstrip())) for index in text) <= 0.6 * len(text))


def _fenced(lines: list[Line]) -> dict[int, str]:
    """The lines of code blocks and the FENCE lines around them, by index (a fence left open holds nothing)."""
    found: dict[int, str] = {}
    opened = None
    for index, (_, line) in enumerate(lines):
        if line.strip() == FENCE:
            if opened is None:
                opened = index
            else:
                found.update((inside, lines[inside][1]) for inside in range(opened, index + 1))
                opened = None
    return found


def _sequenced_headings(lines: list[Line]) -> set[int]:
    """Indices of headings numbered without a stop ("3 BASIC RULES and what you can do"), whatever their case:
    short lines set apart (after a blank line or a finished passage, over text) whose numbers count 1, 2, 3…
    through the document, three at least. A caption's count ("1 Summary", "30 Destination Tickets") keeps
    no such sequence."""
    chains: dict[int, list[int]] = {}  # number -> the longest chain of headings counting up to it
    for index, (_, line) in enumerate(lines):
        bare = BARE_NUMBERED.match(line.strip())
        if not bare or len(bare.group("title").split()) > 10:
            continue
        above = lines[index - 1][1].strip() if index else ""
        below = lines[index + 1][1].strip() if index + 1 < len(lines) else ""
        number = int(bare.group("n"))
        # Over its own first rule ("1 Game Boundaries" / "1.1 This version…") it heads, whatever is above it (a
        # date line, a contents page's last entry).
        heads = below.startswith(f"{number}.1 ")
        if above and not (ENDS_CLAUSE.search(above) or BULLET.match(above) or heads) or not below \
                or BARE_NUMBERED.match(below):
            continue
        if number == 1 or number - 1 in chains:
            chains[number] = chains.get(number - 1, []) + [index] if number > 1 else [index]
    longest = max(chains.values(), key=len, default=[])
    return set(longest) if len(longest) >= 3 else set()


def _next_numbers(lines: list[Line], opening: re.Pattern) -> list[str | None]:
    """For each line, the number of the next decimal rule or numbered chapter after it (None when none follows)."""
    numbers: list[str | None] = [None] * len(lines)
    upcoming = None
    for index in range(len(lines) - 1, -1, -1):
        numbers[index] = upcoming
        line = lines[index][1]
        item = labels.alone(line, opening) or opening.match(line)
        chapter = CHAPTER.match(line.strip()) if len(line) <= 2 * LONGEST_HEADING else None
        if item and item.group("decimal"):
            upcoming = item.group("decimal")
        elif chapter:
            upcoming = chapter.group("n")
    return numbers
