"""Glossaries in the outline dialect: where one opens ("Glossary", "Definitions and Terms"; an alphabetical run
of marked headings is a fact of the document, `Facts.entries`), the shapes its terms take (a term line over its
definition, "term: definition", "Term. Definition", "Term Definition" side by side, a topic the document numbers:
"4 ACTIVE PLAYER"), the alphabetical order that tells a term from a heading after the glossary, and the entries
whose headings hold a whole definition.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ingest import labels
from ingest.classify import (
    DOTTED_TERM,
    GLOSSARY,
    INLINE_TERM,
    QUOTED_TERM,
    LETTER_GROUP,
    NAMES_TERMS,
    NUMBERED_TOPIC,
    SENTENCE_STARTERS,
    heading_number,
    opens_definition,
    spaced_term,
    table_term,
    term_fragment,
    term_line,
)
from ingest.segment import Block, slugify
from ingest.shapes.dialect import Heading, indent_of, section_title
from ingest.shapes.facts import Facts

_TERM_WORDS = 7
# How far from the next number a numbered glossary topic may stand: a PDF's columns can set "11 ASTEROID FIELD"
# and "12 ATTACH" before "10 ANTI-FIGHTER BARRAGE".
_TOPIC_REORDER = 3
# An alphabetical run of headings after a section with text of its own is a glossary when it is this long (a rules
# reference's: 105 to 237 entries measured); a shorter one is that section's parts (13 and 19 measured).
_SECTIONS_RUN = 30


@dataclass
class Term:
    """A glossary term read at a line: its unit; the text it opens with (a definition beside the term, or a
    numbered topic's name when no definition follows it); whether that text is a definition beside the term
    ("Term: definition"), which starts the unit as any unit starts; and the line its definition starts on (the
    lines before it are read with the term)."""

    block: Block
    text: tuple[int, int] | None
    beside: bool
    definition: int
    whole: bool = False  # the definition beside it is all of it (a table's row): the text after it is not


class Glossary:
    """A document's glossary with its own state: the headings down to its glossary heading, the order and shape
    of the terms read under the open heading (each heading starts them again), and the topics the document
    numbers. The builder asks it whether a line opens a glossary, reads terms with it, and tells it each term's
    unit and each heading opened."""

    def __init__(self, facts: Facts):
        self.facts = facts
        self.headings: list[Heading] | None = None  # the headings down to the document's glossary heading
        self.topics: dict[str, str] = {}  # a numbered glossary topic's number ("1 ABILITIES") -> its unit's label
        self.restart()

    def restart(self) -> None:
        """Forget the terms read so far: under each heading they keep an order and a shape of their own."""
        self.letter = ""                  # the first letter of the latest term
        self.last_term = ""               # the latest term, folded
        self.dotted: bool | None = None   # are the terms "Term. Definition" lines (None: no term yet)?
        self.spaced: bool | None = None   # or "Term Definition" lines, two columns side by side?

    def opens(self, index: int) -> bool:
        """Is a "Glossary" or "Definitions" line followed by a glossary entry (a term line over its definition,
        or "term: definition"), rather than by a list of contents?"""
        term = self.facts.following[index]
        line = self.facts.line(term).strip() if term is not None else ""  # the next line not blank
        if not line or self.facts.item.match(line) or self.facts.readings[term].marked:
            return False
        if INLINE_TERM.match(line) or DOTTED_TERM.match(line) or QUOTED_TERM.match(line):
            return True
        definition = self.facts.following[term]
        return term_line(line) and definition is not None and opens_definition(self.facts.line(definition))

    def numbered_term(self, index: int, label: str, own: str, headings: list[Heading]) -> bool:
        """Is the rule numbered `label` at `index` a glossary entry that keeps its number: a few words, no
        sentence ("4-1. Effect", "4-19. / (Forward Slash)"), over rules numbered under it (its definitions),
        numbered right under a chapter of `headings` whose title names terms ("4. Essential Game Terminology")?"""
        return (bool(own) and len(own.split()) <= _TERM_WORDS and own[-1] not in ".,;:!?"
                and self.facts.numbered_under(index, label)
                and any((h.glossary or NAMES_TERMS.search(h.title)) and labels.parent(label) == (h.number or "")
                        for h in headings))

    def term(self, index: int, pos: int, line: str, section: tuple[str, ...], heading_line: int,
             heading: Heading) -> Term | Heading | None:
        """A glossary term opens a unit: a short line without a full stop after a finished definition, over
        its own definition; or "term: definition", "term — definition", "Term. Definition" on one line. A
        glossary is alphabetical: a term line out of that order ("Credits" after "Zone") is the heading of
        what follows the glossary, at the level of the open `heading` (the latest, on `heading_line`); None
        when line `index` (at `pos`, in `section`) is no term."""
        stripped = line.strip()
        if self.facts.readings[index].marked:
            return None  # a marked heading ("## Golden Rules") is never a term
        if self.facts.readings[index].row:
            return self._table_term(pos, line, section, index)
        previous = self.facts.preceding[index]  # a heading line is never blank: it stops there
        # A definition set beside its term may end without a full stop: there, order and shape decide.
        if self.spaced and not stripped[:1].isupper():
            return None  # its terms are capitalised: "end zone" carries the definition above on
        # A line right under unfinished text carries it on; past a blank line the entry above has ended, with
        # or without its full stop ('See rule 702.141, "Encore"' then "Encounter").
        topic = self._next_topic(index, stripped)  # "4 ACTIVE PLAYER", the topic the numbering expects next
        if (previous == index - 1 and previous != heading_line and topic is None
                and not self.facts.readings[previous].ends_sentence and not self.spaced):
            return None
        if topic is not None:
            term, following = topic
            # no definition, its rules right under it: its name is its text
            name = (pos, self.facts.lines[following - 1][0] + len(self.facts.line(following - 1))) \
                if self.facts.readings[following].item else None
            return Term(_term_block(section, term), name, False, following)
        inline = INLINE_TERM.match(stripped) or QUOTED_TERM.match(stripped)
        if not (inline and len(inline.group("term").split()) <= 5):
            # "Hex. One space…" only in a glossary written so from its first entry: elsewhere a line may
            # open with a short sentence ("Legendary permanents are bound. See rule 704.5j.").
            inline = DOTTED_TERM.match(stripped) if self.dotted in (None, True) else None
            if inline and inline.group("term").split()[0].lower() in SENTENCE_STARTERS:
                inline = None
            if self.dotted is None:
                self.dotted = inline is not None
        if inline:
            beside = inline.group("term"), inline.start("definition")
        else:  # "Attacking end zone The end zone in which…": the glossary's columns side by side, from its first entry
            beside = spaced_term(stripped) if self.spaced in (None, True) else None
            if self.spaced is None:
                self.spaced = beside is not None
        if beside and self._in_order(beside[0]):
            definition = pos + indent_of(line) + beside[1]
            return Term(_term_block(section, beside[0]), (definition, pos + len(line)), True, index + 1)
        # a term on one line out of order is none; in a glossary of numbered topics, an unnumbered short line is a
        # picture's label, text
        if inline or self.topics:
            return None
        following, term = self.facts.following[index], stripped
        while following is not None and term_fragment(self.facts.line(following)):  # "Making a play on the / disc"
            term += " " + self.facts.line(following).strip()
            following = self.facts.following[following]
        # A term standing apart, a blank line above it and its definition right under it, may be as long as a
        # title ("Remove from the Game, Removed, Removed-from-the-Game Zone (Obsolete)").
        apart = previous != index - 1 and following == index + 1
        if not term_line(stripped, apart) or following is None or not opens_definition(self.facts.line(following)):
            return None
        if not self._in_order(term):
            return Heading(heading.level, section_title(stripped), heading_number(stripped), heading.kind)
        return Term(_term_block(section, term), None, False, following)

    def _next_topic(self, index: int, stripped: str) -> tuple[str, int] | None:
        """A glossary topic the document numbers, when its number is one not used yet near the one that comes
        next ("4 ACTIVE PLAYER" after topic 3, even right under a rule; "7" alone over "AGENDA CARD"; "11" before
        "10" where a PDF's columns set it so), over its definition:
        (the term, the index of the line its definition starts on), else None."""
        topic = self.facts.readings[index].topic()
        if topic is None or not self.topics or topic.group("n") in self.topics \
                or abs(int(topic.group("n")) - max(map(int, self.topics)) - 1) > _TOPIC_REORDER:
            return None
        term, following = stripped, self.facts.following[index]
        if not topic.group("title"):  # the number alone, its title on the next line
            if following is None or not self.facts.readings[following].caps:
                return None
            term = f"{stripped} {self.facts.line(following).strip()}"
            following = self.facts.following[following]
        if following is None:
            return None
        rule = self.facts.readings[following].item
        under = bool(rule and rule.group("decimal") and labels.within(rule.group("decimal"), topic.group("n")))
        # over its definition, or its first rule
        return (term, following) if under or opens_definition(self.facts.line(following)) else None

    def _table_term(self, pos: int, line: str, section: tuple[str, ...], index: int) -> Term | None:
        """A row of a two-column table of terms and definitions ("| Player | Any person playing Badminton. |"):
        a term beside its definition, in whatever order the table lists them, and all of it (`Term.whole`);
        None for its header row, whose cells name the columns, and for any other row."""
        row = table_term(line)
        if row is None:
            return None
        start = pos + len(line) - len(line.lstrip()) + row.start("definition")
        return Term(_term_block(section, row.group("term")), (start, start + len(row.group("definition"))), True,
                    index + 1, whole=True)

    def _in_order(self, term: str) -> bool:
        """Does `term` keep the glossary's alphabetical order so far: by first letter, and in a glossary of
        terms set beside their definitions (where order is what tells a term from a wrapped line) by the
        whole term?"""
        letter = next((c for c in term.casefold() if c.isalpha()), None)
        # "40-Days" before "Active": a term opening with a number sorts before the letters
        if term[:1].isdigit() or letter is None or not letter.isascii():
            return True
        key = " ".join(term.casefold().split())
        if self.letter and letter < self.letter or self.spaced and key < self.last_term:
            return False
        self.letter, self.last_term = letter, key
        return True

    def number_topic(self, block: Block) -> None:
        """Remember a glossary topic the document numbers ("1 ABILITIES"): its rules (1.1, 1.2…) sit under it."""
        number = NUMBERED_TOPIC.match(block.title) if block.kind == "glossary" else None
        if number:
            self.topics[number.group(1)] = block.label


class Entries:
    """Glossary entries whose headings hold a whole definition ("### Accuracy" over its text): which marked
    headings are entries, or parts of the entry above them, and the unit each one's own text goes to (an entry's
    heading, its parts and its numbered steps). The builder tells it each marked heading it opens and asks it for
    the open entry's unit, passing it the open headings: one unit holds an entry's whole definition, up to the next
    heading; a sub-heading inside it is a unit of the entry; its numbered steps are units of their own under it."""

    def __init__(self, facts: Facts, glossary: Glossary):
        self.facts = facts
        self.glossary = glossary

    def place(self, heading: Heading, index: int, headings: list[Heading], texted: bool) -> list[Heading]:
        """Mark the marked heading at `index` as a glossary entry (under a glossary heading, or one of an
        alphabetical run of sibling headings) or as a part of the entry above it; the open `headings` it goes
        under, putting a run's entries in the glossary: the document's glossary heading where it has one, else the
        headings around the section the run follows when that is one section among others with text of its own
        (`texted`: "## Timing", its rules, then "### Abilities", "### Accuracy"…: the run is no part of Timing;
        "## Cards" right over its entries holds them)."""
        parents = [h for h in headings if not LETTER_GROUP.match(h.title)]  # "## A" only groups entries
        if LETTER_GROUP.match(heading.title):
            return headings
        glossary = bool(parents) and parents[-1].glossary
        run = self.facts.entries.get(index, 0)
        if run and not glossary:
            if self.glossary.headings and self.glossary.headings[-1].level < heading.level:
                headings = list(self.glossary.headings)
            elif headings and headings[-1].sibling:
                above = headings[-1]
                if above.holds_run is None:  # decided at the run's first entry: did text come under `above`?
                    above.holds_run = not texted
                if not above.holds_run and run >= _SECTIONS_RUN:
                    headings = headings[:-1]
                elif not above.holds_run:
                    # "## Action: Do Something Else", its text, then "### Climbing", "### Crafting"…: a few
                    # sections of that one in alphabetical order, not a glossary after it
                    run = 0
        # a glossary of its own under the document's glossaries ("World of Darkness Glossary") is no entry
        heading.entry = glossary and not GLOSSARY.match(heading.title) or bool(run)
        heading.part = not heading.entry and bool(parents) and (parents[-1].entry or parents[-1].part)
        return headings

    def unit(self, headings: list[Heading], section: tuple[str, ...]) -> tuple[Block | None, bool]:
        """The unit the open entry's (or part's) own text goes to, in `section`, and whether it starts here, on
        the text's first line: the entry's term, or the part's title, over it (in the section of the heading
        above); None outside an entry."""
        heading = headings[-1] if headings else None
        if heading is None or not (heading.entry or heading.part):
            return None, False
        if heading.owner is not None:
            return heading.owner, False
        if heading.entry:
            heading.owner = _term_block(section[:-1], heading.title)
        else:
            above = next((h.owner for h in reversed(headings[:-1]) if h.owner), None)
            heading.owner = Block(section[:-1], slugify(heading.title), heading.title, [], kind="paragraph",
                                  parent=above.label if above else None)
        return heading.owner, True

    def leaves_steps(self, index: int, line: str, bullet: re.Match | None, headings: list[Heading],
                     margin: int | None) -> bool:
        """Inside an entry, does `line` (at `index`) come back from the entry's numbered steps (at `margin`, None
        when none is open) to its own text: at the list's margin or left of it, after a blank line or as a list of
        its own? (A line indented under a step, or carrying on its last line, is the step's.)"""
        heading = headings[-1] if headings else None
        if margin is None or heading is None or not (heading.entry or heading.part):
            return False
        after_blank = not self.facts.line(index - 1).strip()
        return indent_of(line) <= margin and (after_blank or bullet is not None)


def _term_block(section: tuple[str, ...], term: str) -> Block:
    return Block(section, slugify(term), term, [], kind="glossary")
