"""Line-oriented documents: FAQs and rulebooks whose structure is in line prefixes.

Reads the outline dialect the readers produce. Headings: `# Combat`, `***GENERAL RULES`, an ALL-CAPS line, a
numbered chapter (`6. ABILITIES, EFFECTS, AND RESOLVING`), a decimal title over deeper-numbered rules or
questions (`1.2. Golden Rules`), `Article 4: ...`, a short title line over text, questions or numbered units.
Units: decimal rules of any depth (`1.9.4.2`, `702.11b`, knowing their parent rule); numbered and suffixed
items (`1)`, `36a.`), numbered after the heading above them (`Article 4` + `6.` = `4.6`) or the item they are
indented under; lettered sub-cases (`a.`, `A)`); `Q:`/`A:` pairs; glossary terms, one unit each. `Example:`
blocks attach to the unit they follow and end where the next unit or heading begins. Bullets, captions and
any other line are text of the unit they sit in; paragraphs before the first heading or unit are front matter.
A marked heading numbered like a rule (`#### 6.A.1. TEST CASE...`, `## 4.3.6 Challenge`) is that rule: its
text, code blocks and lists are one unit, or, when rules numbered under it follow, its own text is; the
document's numbering, not the heading markup, decides what a numbered heading or rule sits under. A marked
heading that asks a question is a question with its whole answer. Lines between FENCE lines (code) and
footnotes (`[^1]: ...`) are text, never headings or units.
"""
from __future__ import annotations

import re
import string

from ingest import labels, links
from ingest.classify import (
    ASKING_WORD,
    ASKS,
    BULLET,
    CAPTION,
    CHANGELOG,
    COLUMNS,
    FRAMING,
    GLOSSARY,
    KEYWORD_PART,
    KEYWORD_SENTENCE,
    KEYWORD_WORDS,
    LONGEST_HEADING,
    NAMED,
    PRESENTS_QUESTION,
    RIGHTS,
    SENTENCE_INSIDE,
    TITLE_GOES_ON,
    TITLE_SMALL,
    WORD,
    Reading,
    ends_asking,
    heading_asks,
    heading_number,
    rhetorical,
    row_cells,
    table_header,
    title_case,
    without_number,
    without_pointer,
)
from ingest.formats import FENCE
from ingest.segment import Block, first_sentence, slugify, trim
from ingest.shapes.changelog import Changelog
from ingest.shapes.dialect import (
    Heading,
    indent_of,
    names_a_topic,
    section_title,
)
from ingest.shapes.facts import Facts, document_facts, under
from ingest.shapes.glossary import Entries, Glossary, Term
from ingest.shapes.questions import Questions
from ingest.shapes.steps import step_unit
from ingest.shapes.top_numbering import TopNumbering
from ingest.text import MappedText

# What body text under a heading opens with: a capital, a quotation mark or a parenthesis.
_BODY_OPENERS = string.ascii_uppercase + "“\"("
_WRAPPED_WORDS = 6  # a line of this many words ending no clause wraps a sentence onto the next
_DASHES = ("- ", "– ", "— ")  # a dash setting a title apart from its number
# The least share of a paragraph's words on lines stating the document's rights for it to state them.
_BACK_MATTER_SHARE = 0.25
_BACK_MATTER_BLOCKS = 12  # a credits and licence section runs to a few paragraphs, never to a chapter of rules
_PARAGRAPH_LINES = 40  # the most lines of a paragraph looked up over for the item it opens with
_LISTED_WORDS = 6  # the most words of a name in a list a paragraph introduces ("1. Destroy Bases and Transports")
_SENTENCE_WORDS = 8  # a line marked as a heading this long, ending on a full stop, is a sentence
_STEM = 4  # the fewest letters of a heading's word the text under it must name
_AFTER_LABEL = " \t.:)–—"  # what sets a label's text apart from it ("Section 1.  The club…", "Rule 7.8 – Kneeing")
_LABEL_WORDS = 3  # the most words of a picture's label ("US Military", "OP marker")
_LABELS = 2  # the fewest such labels on either side of a line in capitals that make it one of them


def _unfinished(title: str) -> bool:
    """Does a heading's title stop on a comma or a small word ("SECTION 4 – THE SERVE, SERVICE SEQUENCE, AND"),
    its words going on over the next line?"""
    return bool(title) and (title[-1] == "," or title.split()[-1].casefold() in TITLE_SMALL)


def parse_outline(doc: MappedText, root: tuple[str, ...]) -> list[Block]:
    """Cut a line-oriented document into blocks (see the module docstring for the shapes it knows)."""
    return _Outline(document_facts(doc.text), root).read()


class _Outline:
    """The builder: where the segmenter is in the document (open headings, the unit lines go to, the numbering so
    far), reading the document's `Facts` and never writing them. Its concerns keep their own state and are asked
    through their methods: the glossary (`Glossary`), questions (`Questions`), update summaries (`Changelog`),
    rules numbered from the top (`TopNumbering`), glossary entries whose headings hold a definition (`Entries`)."""

    def __init__(self, facts: Facts, root: tuple[str, ...]):
        self.facts = facts
        self.root = root
        self.blocks: list[Block] = []
        self.headings: list[Heading] = []
        self.heading_line = -1
        self.section = root + ("Front Matter",)
        # Each section entered, as shown (see `Heading.shown`), with how many blocks came before it.
        self.shown: list[tuple[int, tuple[str, ...], tuple[str, ...]]] = []
        self.in_front = True
        self.current: Block | None = None   # the unit text lines go to
        # The latest item of a numbered list, and the margin its number stands at (see `_leaves_list`).
        self.list_item: Block | None = None
        self.list_margin = 0
        # Whether the item before the latest was one paragraph, and how many paragraphs the latest has ended so far.
        self.list_short, self.list_paragraphs = False, 0
        self.last: Block | None = None      # the section's latest unit, which a bullet list after a blank continues
        self.example: list[tuple[int, int]] | None = None
        # The margin of an "Examples:" line with nothing after it, and how many items of the list of examples it
        # opens were read: that list (numbered from 1 at its margin, or indented under it) is the examples.
        self.example_list: int | None = None
        self.example_items = 0
        self.lettered: Block | None = None  # the open rule's last lettered subrule ("5a"), whose roman items follow
        # Lettered lines of an answer (or of a rule heading's text) are its list, not sub-rulings, and so are
        # its own list numbered from 1. The open answer's margin (None: no answer is open).
        self.answer_indent: int | None = None
        self.answer_items = 0               # the last number of that list
        self.answer_margin = 0              # and its margin
        self.own_number: str | None = None  # the open rule-numbered heading's, until a unit begins under it
        self.own: Block | None = None       # its own text
        self.items: list[tuple[int, str, Block]] = []  # open numbered units: indentation, number; outermost first
        self.case: Block | None = None      # the numbered unit lettered sub-cases belong to
        self.named: Block | None = None     # a named item ("1) Stoneskin (2 points): ...") lettered items nest under
        self.name_list: tuple[Block, int] | None = None  # the paragraph whose list of names is open, and its margin
        self.rule_heading: Block | None = None  # the last marked heading read as a rule, its text to the next heading
        self.rules: set[str] = set()
        self.last_rule = ""                 # the latest decimal rule's number
        self.decimal_rules: dict[str, Block] = {}
        self.skip: set[int] = set()         # lines read already (the end of a term wrapped over two lines)
        self.paragraphs = 0
        self.heading_numbers: dict[str, Heading] = {}  # the latest heading of each number
        # The concerns, each keeping its own state.
        self.glossary = Glossary(facts)
        self.questions = Questions(facts)
        self.changelog = Changelog(facts)
        self.numbering = TopNumbering(facts)  # rules numbered from the top
        self.entries = Entries(facts, self.glossary)

    def read(self) -> list[Block]:
        for index, (pos, line) in enumerate(self.facts.lines):
            if index in self.facts.code:  # a fence goes with the code, which the stored text keeps line by line
                # a line of a code block, or a FENCE around it: text of the unit or paragraph before it, which
                # introduces it
                self.current = self.current or self.last
                code = self.facts.code[index]
                self._text(index, pos, code, code=self.facts.code.get(index + 1, "") if code.strip() == FENCE else code)
                continue
            stripped = line.strip()
            reading = self.facts.readings[index]
            if index in self.skip:
                continue
            if index in self.questions.asking:
                self._text(index, pos, line)
                continue
            if not stripped or reading.separator:
                leaves = self._leaves_list(index)
                self.list_paragraphs += self.current is self.list_item
                if self.facts.parts_paragraphs(index) and not self._leads_in() and (
                        self.in_front or self.current is not None and (
                        self.current.kind == "paragraph" or self.current is self._owner()
                        or self.facts.preceding[index] in self.facts.inline_asked  # a bullet's answer ends with it
                        or leaves)):
                    self.example = None
                    self.current = self._resumed_by(self.facts.following[index]) if leaves else None
                continue
            if reading.footnote:
                self._footnote(pos, line, reading.footnote)
                continue
            if self._cross_reference(pos, line):
                continue
            if reading.row and self._row_rule(index, pos, line):
                continue
            if self._marked_sentence(index):
                # "##### Thus, Alaric has a slight edge over his opponents.": a sentence a conversion marked as a
                # heading, no heading of what follows (nor of nothing, its words lost): text, without its marks
                marks = _marks(reading)
                self._text(index, pos + marks, line[marks:])
                continue
            if reading.row and self.current is None and not self.in_front:
                self.current = self.last  # a table, as a code block, is the text of the unit that introduces it
            bullet = reading.bullet
            if index in self.facts.inline_asked:  # "•   Is there a turn limit?    No, play goes on…"
                self.items, self.case, self.named = [], None, None
                self._start(self._question(index), pos + bullet.end(), pos + len(line))
                continue
            if bullet and self.headings and self.headings[-1].glossary \
                    and self._term(index, pos + bullet.end(), line[bullet.end():]):
                continue  # "- Acting Minion: The minion performing the current action."
            if bullet and self._numbered_bullet(index, pos, line, bullet):
                continue
            if bullet or reading.caption:
                marks = _marks(reading)  # a caption the markup marks as a heading ("#### Figure 3"): text
                self._text(index, pos + marks, line[marks:], bullet)
                continue
            if index in self.facts.annotations:
                self._open(self._annotation(index, stripped), index)
                continue
            if index in self.facts.coded:  # a rule a manual prints under its code ("<C01> Teams must…"), cited by it
                code, start = self.facts.coded[index]
                rule = Block(self.section, code, "", [], kind="rule")  # its lettered, numbered items its own: "C01a"
                self._begin_rule(rule, indent_of(line), pos + start, pos + len(line))
                continue
            item = reading.item
            if item and self._lists_examples(line, item):
                self._text(index, pos, line)  # "Examples:" / "1. There are two knights…": an example, no rule
                continue
            step = step_unit(line, self.facts.steps, self.section)
            if step:
                self.items, self.case, self.named = [], step[0], None
                self._start(step[0], pos + step[1], pos + len(line))
                continue
            if reading.lone and (self.facts.top_rules or self.facts.lone or self._over_its_items(index)):
                item = labels.alone(line, self.facts.item)  # a number whose text is on the next lines
                listed = index in self.facts.listed  # an entry of a contents page ("1.2." over "The Golden Rules")
                over = self._label_over_title(index, stripped) if self.facts.lone and item and not listed else None
                if over is not None:
                    self._open(over, index)
                    continue
                if listed or item and not self.facts.top_rules and (self.facts.ends_sentence_above(index) or (
                        item.group("decimal") and (not self._continues(item.group("decimal"))
                                                   or self.facts.carried_on(index) and not stripped.endswith(".")))):
                    # or a rule number a PDF set on a line of its own mid-sentence ("section" / "4.7.8" / ",
                    # respectively"; "See section" / "6." over the next item's label): text
                    self._text(index, pos, line)
                    continue
            if self.headings and self.headings[-1].glossary:
                if reading.row and table_header(line):
                    continue  # "| Terms | Definitions |" names a table's columns: no entry, no text
                if not item and self._term(index, pos, line):
                    continue
                # "1. Text on an object…": a numbered sense of the entry's term; and a glossary of numbered topics
                # holds to its end: an unnumbered line ("Gravity Rift" under a picture) is text, no heading.
                sense = item and (item.group("number") or item.group("dotted")) and self.example is None \
                    and self.current is not None and self.current.kind == "glossary"
                if sense or self.glossary.topics and not item and not reading.marked:
                    self._text(index, pos, line)
                    continue
            heading = self._heading(index, stripped, item)
            if heading:
                if not self._heading_unit(index, pos, line, heading):
                    self._open(heading, index)
                    if heading.runs_on:
                        cut = line.index(stripped) + heading.runs_on
                        cut += len(line[cut:]) - len(line[cut:].lstrip(_AFTER_LABEL))  # "Section 1.  This club…"
                        self._text(index, pos + cut, line[cut:])
            elif not (item and self._unit(index, pos, line, item)):
                self.current = self._resumed(index, stripped) or self.current
                self._text(index, pos, line)
        self._back_matter()
        self._show_sections()
        return self.blocks

    def _term(self, index: int, pos: int, line: str) -> bool:
        """A glossary term at line `index` opens its unit, or, out of the glossary's order, the heading of what
        follows the glossary (see `Glossary.term`); False when the line is no term."""
        found = self.glossary.term(index, pos, line, self.section, self.heading_line, self.headings[-1])
        if isinstance(found, Heading):
            self._open(found, index)
        elif isinstance(found, Term) and found.beside:
            self._start(found.block, *found.text)
            if found.whole:
                self.current = None
        elif isinstance(found, Term):
            self.skip.update(range(index + 1, found.definition))
            if found.text:
                self._extend(found.block.pieces, *found.text)
            self.glossary.number_topic(found.block)
            self.blocks.append(found.block)
            self.current, self.last, self.example = found.block, found.block, None
        return found is not None

    def _lists_examples(self, line: str, item: re.Match) -> bool:
        """Is the numbered `item` one of the list an "Examples:" line opens (indented under it, or at its margin
        numbered on from 1), not the next rule?"""
        if self.example is None or self.example_list is None or indent_of(line) < self.example_list:
            return False
        if indent_of(line) == self.example_list:
            if item.group("number") != str(self.example_items + 1):
                return False
            self.example_items += 1
        return True

    def _back_matter(self) -> None:
        """The document's last section, when it holds no rules but the rights to the document (a licence,
        a copyright or trademark notice, with the credits beside it), is back matter: kind "title", never an
        answer. A section the document numbers among its rules ("11) Why This Version Works") holds rules: only
        its paragraphs that state the rights are back matter, not one that runs a notice's line on."""
        depth = len(self.root) + 1
        if not self.blocks or len(self.blocks[-1].section) < depth:
            return
        # the last section, or the credits before a back page's own heading after them ("CREDITS" / "Register your
        # boardgame"): from the last section stating rights within a back matter's length of the end
        starts = [at for at, block in enumerate(self.blocks)
                  if not at or block.section[:depth] != self.blocks[at - 1].section[:depth]]
        for first in reversed([at for at in starts if len(self.blocks) - at <= _BACK_MATTER_BLOCKS] or starts[-1:]):
            tail = self.blocks[first:]
            texts = [[line for start, end in block.pieces for line in self.facts.text[start:end].split("\n")]
                     for block in tail]
            if any(RIGHTS.search(line) for lines in texts for line in lines):
                break
        if any(block.kind != "paragraph" for block in tail):
            return
        # Still open at the document's end: the section's heading, with the number it was printed with. A long
        # section holds rules however its last lines end (a card list whose faces print "© 2022…"): there too only
        # the paragraphs stating the rights go.
        numbered = any(heading.number and heading.title == tail[-1].section[depth - 1] for heading in self.headings)
        # The only section a document has is no back matter of it (a short page with its licence line among its
        # first paragraphs: "This content is licensed under CC-BY-SA 4.0").
        whole = not numbered and len(tail) <= _BACK_MATTER_BLOCKS and len(tail) < len(self.blocks) \
            and any(RIGHTS.search(line) for lines in texts for line in lines)
        for block, lines in zip(tail, texts):
            if whole or _states_rights(lines):
                block.kind = "title"

    def _resumed(self, index: int, stripped: str) -> Block | None:
        """The rule whose sentence a line finishes after its list of numbered subrules ("If players cannot
        agree: 1.12.1. what occurred, or 1.12.2. what would have occurred, / the disc must be returned…"):
        a lower-case line after a subrule of that rule (which ends with a colon) whose line ends short of the
        text's width with a list's comma, semicolon, "or" or "and"."""
        current = self.current
        if current is None or current.kind != "rule" or not stripped[:1].islower():
            return None
        parent = self.decimal_rules.get(current.parent or "")
        above = self.facts.line(index - 1).rstrip()
        if parent is None or len(above) >= 0.75 * self.facts.width or not self.facts.readings[index - 1].goes_on:
            return None
        return parent if self.facts.text[parent.pieces[-1][0]:parent.pieces[-1][1]].rstrip().endswith(":") else None

    # Headings

    def _heading(self, index: int, stripped: str, item: re.Match | None) -> Heading | None:
        reading = self.facts.readings[index]
        marked = reading.marked
        if len(stripped) > LONGEST_HEADING and not marked:  # a marked heading's length is `marked_heading`'s
            return None
        following = self.facts.following[index]
        if COLUMNS.search(stripped) and following is not None and self.facts.readings[following].cells:
            return None  # "Result      Points      Tiebreak" over its rows: a table's header
        if item and self._table_row(index, item):
            return None  # "4.5      Sweep      3": a table's last row, no heading of what follows
        if marked:
            title = marked.group("star") or marked.group("hash")
            # "### Serious Wound (Hit Location is Zero Hit Points or" / "### Below)": a title a conversion wrapped
            # into two headings of one level, the first unfinished (a parenthesis open, a small word last)
            below = self.facts.readings[following].marked if following is not None else None
            if below is not None and below.group("hashes") == marked.group("hashes") and (
                    title.count("(") > title.count(")") or title.split()[-1].casefold() in TITLE_SMALL):
                self.skip.add(following)
                title = f"{title} {below.group('star') or below.group('hash')}"
            return Heading(len(marked.group("hashes") or "#"), section_title(title), heading_number(title), "marked")
        # A divider page's "Law" over "11" over "Offside": the keyword and its number on lines of their own
        if stripped.casefold() in KEYWORD_WORDS and following is not None \
                and self.facts.line(following).strip().isdigit():
            number = self.facts.line(following).strip()
            self.skip.add(following)
            below = self._title_below(following)
            return Heading(0, f"{stripped} {number}" + (f" {section_title(below)}" if below else ""), number,
                           "numbered")
        # A line carrying on the sentence above ("...follow the rules in\nSection 6.5.") is no heading.
        carried = index and self.facts.line(index - 1).strip() and not self.facts.readings[index - 1].ends_clause
        sentence = KEYWORD_SENTENCE.match(stripped)
        if sentence and (not carried or self.heading_line == index - 1) \
                and (part := self._keyword_part(stripped, sentence)) is not None:
            return part
        keyword = reading.keyword
        rest = stripped[keyword.end("n"):].strip(" :.–—-") if keyword else ""
        named = keyword and names_a_topic(rest or "-")
        if keyword and rest[:1].islower() and len(rest.split()) > 3:
            keyword = None  # "Chapter 2 offered the following types of outcomes…": a sentence citing a chapter
        number = keyword and keyword.group("n")
        # "Rule 7.11 Instigator & Aggressor": a rule's heading, its own text the rule
        rule = labels.compound(number) and not KEYWORD_PART.match(stripped)
        if keyword and (named or not carried) and not self.facts.carried_on(index):
            title = " ".join(stripped.split())  # "LAW 28     THE FIELDER", a PDF's columns
            # "LAW 1" over "THE PLAYERS", a part's number alone, takes its title from the line under it; "Rule 4.5.1",
            # a case book's closing citation, takes none
            # "SECTION 4 – THE SERVE, SERVICE SEQUENCE, AND" over "SCORING RULES": a title wrapped after a
            # connector or a comma goes on there too
            wrapped = _unfinished(rest)
            below = None if rest and not wrapped or labels.compound(number) else self._title_below(index)
            if below is not None:
                title = f"{title} {below if wrapped else section_title(below)}"  # a wrapped title keeps its case
            return Heading(labels.depth(number), title, number, "numbered", rule=rule)
        if keyword and not carried and self.facts.wraps(index) and self._continues(number):
            # "Rule 7.8 Kneeing is the act of a player…": the next rule's heading, its text running on in the line
            return Heading(labels.depth(number), stripped[:keyword.end("n")], number, "numbered", rule=rule,
                           runs_on=keyword.end("n"))
        if self.facts.top_rules and (reading.top() or self.facts.numbers[index] is not None):
            return self.numbering.heading(index, self.heading_line, self.headings)
        chapter = reading.chapter()
        if chapter and self._in_rule_heading():
            return None  # "### 6.1 Game Play Outline" over "1. DETERMINE PATROL ASSIGNMENT" / "- A. …": its outline
        if chapter:
            return Heading(1, section_title(self._whole_title(index, chapter.group("title"))), chapter.group("n"),
                           "numbered")
        decimal = reading.decimal
        if decimal and decimal.group("colon") and not title_case(decimal.group("title")):
            decimal = None
        # "1.2.2. Matches are always scheduled for Mondays and Wednesdays" / "at 10:00pm ET…": a rule's sentence
        # wrapped onto the next line names no section, whatever rules follow it
        # "6.0 Weather" over its own text and 6.1, no chapter "6" open: chapter 6's heading (its text is 6.0)
        zero = decimal is not None and labels.zeroed(n := decimal.group("n")) and not any(
            h.number == labels.unzeroed(n) for h in self.headings)
        if decimal and len(decimal.group("title").split()) <= 8 and not self.facts.carried_on(index) and (
                self.facts.heads_rules(index, n, zero) or self.facts.stands_empty(index, n) and not self._last_item(index, n)):
            number, title = decimal.group("n"), decimal.group("title")
            # "12.F.6. Forfeit, Ejections and Retirement Match Scoring" run to the text's width over "Guidelines",
            # or "8.0 DEFCON STATUS AND" over "MILITARY OPERATIONS": one title wrapped
            below = self._title_below(index) if self.facts.wraps(index) or _unfinished(title) else None
            if below is not None:
                title = f"{title} {below}"
            # "5.0 EVENTS" over its text and 5.1: its own text is 5.0; "7.0 The Robot" right over 7.1, no text of its
            # own, is chapter 7's heading, its rules under it
            chapter = labels.zeroed(number) and self.facts.stands_empty(index, number)
            return Heading(labels.depth(number), f"{number} {section_title(title)}", number,
                           "numbered", rule=labels.compound(number) and not self.facts.top_rules and not chapter)
        numbered = reading.section() or (  # "4. Robot control requirements:" over 4.1
            (lead := reading.section(colon=True)) and self.facts.numbered_under(index, lead.group("n")) and lead)
        # a title with a comma or a colon heads only rules numbered under it, naming its topic (before the colon:
        # "9. Challenge 1: simple navigation challenge" over 9.1; "10. Note: the jury decides" is an item)
        title = numbered.group("title").rstrip(":") if numbered else ""
        if ("," in title or ":" in title) and not (
                names_a_topic(title.partition(":")[0]) and self.facts.numbered_under(index, numbered.group("n"))):
            numbered = None
        # "…a strength of at least" / "9. Your Warrior begins the game with ten" / "survival points…": a sentence
        # wrapped at a number, no part
        if numbered and self._heads_section(index, numbered.group("n")) and not (
                self.facts.mid_sentence(index) and not self.facts.following_item(index)):  # "a. A club…" is an item
            number = numbered.group("n")
            title = section_title(self._whole_title(index, numbered.group("title")).rstrip(":"))
            # A number in the hundreds is how the document cites the section ("rule 305"), not its place among
            # chapters: shown with it, under the chapter whose hundreds it numbers ("3. Card Types > 305. Lands").
            # A part with no rules numbered under it is cited by the number it prints ("2. Hits", "1) The Deck"),
            # so shows it, whatever its siblings do; a chapter with rules under it ("7. Combat" over 7.1) is a place.
            chapter = self.heading_numbers.get(number[:-2]) if len(number) > 2 else None
            # shown as printed, its stop kept ("1) The Deck", "305. Lands")
            shown = (*((chapter.shown[-1:] or (f"{chapter.number} {chapter.title}",)) if chapter else ()),
                     f"{number}{numbered.group('stop')} {title}")
            return Heading(self._part_level(index, number), title, number, "numbered",
                           shown=shown if len(number) > 2 or self._cites_part(index, int(number)) else ())
        lettered = item and self._lettered_title(index, item)
        if lettered:
            return lettered
        if index in self.facts.colon_titles:  # "Day Structure:" over its text, a plain text's heading
            return Heading(0, section_title(stripped[:-1].rstrip()), None, "titled")
        if item or self.facts.mid_sentence(index):
            return None  # a unit, or words set on a line of their own mid-sentence ("The" / "INSTALL COST" / "of a…")
        # A glossary or an update summary closes the chapters before it, even when the summary then reprints
        # rules numbered in the last one; any other capitalised line inside a chapter is a label of its text.
        if self._inside_chapter(index) and not (reading.caps and (
                CHANGELOG.match(stripped) or GLOSSARY.match(stripped) and self.glossary.opens(index))):
            return None
        bare = reading.bare()
        if index in self.facts.sequenced or bare and self.facts.numbered_under(index, bare.group("n")):
            # counting 1, 2, 3 through the document, or over rules numbered under it ("2 Hráči a postavy" / "2.1")
            return Heading(1, f"{bare.group('n')} {section_title(bare.group('title'))}", bare.group("n"), "numbered")
        if reading.caps and (self._heads_rows(index) or self._among_labels(index)):
            # "D6 RESULT EFFECT" over "1 Gash +d4 damage" / "2 Bleed …": a table's header; "Back" / "DEFCON" /
            # "Status": a picture's labels: no heading
            return None
        if reading.caps:
            # a line in capitals stopping on a comma over no more of its title heads nothing
            stripped = self._whole_title(index, stripped)
            if stripped.endswith(","):
                return None
            # under a heading the markup marks, a line in capitals is a part of it ("### What are…?" / "TODO"), never
            # a chapter over the document's own levels
            levels = [heading.level for heading in self.headings if heading.kind == "marked"]
            return Heading(levels[-1] + 1 if levels else 1, section_title(stripped), heading_number(stripped), "caps")
        if self._titled(index, stripped) or (not carried and GLOSSARY.match(stripped)
                                             and self.glossary.opens(index)):
            return Heading(0, section_title(stripped), heading_number(stripped), "titled")
        return None

    def _lettered_title(self, index: int, item: re.Match) -> Heading | None:
        """A capital letter naming a part over the list numbered in it ("A) Deck Size" / "1. A deck holds…"; "A.
        Deck Size", where no question is open to answer): a heading lettered as printed, in the order of the
        letters, its items numbered within it ("A.1")."""
        answer = item.group("answer") if self.current is None or self.current.kind != "question" else None
        letter = (item.group("letter") or answer or "").rstrip(".")
        following = self.facts.following[index]
        below = self.facts.readings[following].item if following is not None else None
        title = self.facts.line(index)[item.end():].strip()
        if len(letter) != 1 or not letter.isupper() or below is None or not below.group("number") \
                or len(title.split()) > _LISTED_WORDS or not title_case(title) or title[-1:] in ".,;:?!":
            return None
        if not self._letters_on(letter):
            return None
        return Heading(0, section_title(self.facts.line(index).strip()), letter, "titled")

    def _among_labels(self, index: int) -> bool:
        """Is line `index` one of a stack of a picture's labels ("Reminder" / "Back" / "DEFCON" / "Status" /
        "Action"): amid `_LABELS` lines on either side of a few words each that end no clause and open no unit?"""
        def label(at: int) -> bool:
            reading = self.facts.readings[at]
            line = self.facts.line(at).strip()
            return 0 < len(line.split()) <= _LABEL_WORDS and not (
                reading.ends_clause or reading.item or reading.bullet or reading.marked)
        return _LABELS <= index < len(self.facts.lines) - _LABELS and all(
            label(index + step) for step in range(-_LABELS, _LABELS + 1) if step)

    def _letters_on(self, letter: str) -> bool:
        """Does capital `letter` open a run of lettered parts ("A") or follow the open part lettered before it?"""
        return letter == "A" or letter.isupper() and any(
            h.kind == "titled" and h.number == chr(ord(letter) - 1) for h in self.headings)

    def _last_item(self, index: int, number: str) -> bool:
        """Is the decimal line at `index` the last of a list whose items were read as rules, a shallower label
        next ("6.3.2 An unintentional disconnection" / "6.3.3 Hardware or software malfunction" / "6.4 Resuming
        Play…"): a rule as its siblings are, however short, never a heading over nothing (its words lost)?"""
        following = self.facts.following_item(index)
        later = following and following.group("decimal")
        return bool(later) and labels.depth(later) < labels.depth(number) and self.last_rule in self.decimal_rules \
            and labels.parent(number) == labels.parent(self.last_rule) and number in labels.successors(self.last_rule)

    def _heads_rows(self, index: int) -> bool:
        """Is the line at `index` over rows counted on line by line ("1 Gash +d4 damage" / "2 Bleed…", or "5 …" /
        "6+ …" where a print repeats a table's header on its next page): a table's header?"""
        first = self.facts.following[index]
        second = self.facts.following[first] if first is not None else None
        counts = [self.facts.line(at).split()[0].rstrip("+") for at in (first, second) if at is not None]
        return len(counts) == 2 and all(count.isdigit() for count in counts) and int(counts[1]) == int(counts[0]) + 1

    def _keyword_part(self, stripped: str, sentence: re.Match) -> Heading | None:
        """"Section 1 The purpose of the club is…" under "Article II: Purpose": a part the keyword numbers, its
        sentence its own text, one level under the open part another keyword numbers (an article's sections);
        None when what follows the number names a topic (a heading's title) or no other keyword's part is open."""
        word = stripped.split()[0].casefold()
        rest = stripped[sentence.end():]
        outer = next((h for h in reversed(self.headings) if h.kind == "numbered" and h.title.split()[0].casefold()
                      in KEYWORD_WORDS and h.title.split()[0].casefold() != word), None)
        if outer is None or names_a_topic(rest) or len(rest.split()) < _WRAPPED_WORDS:
            return None
        return Heading(outer.level + 1, stripped[:sentence.end("n")], sentence.group("n"), "numbered", rule=True,
                       runs_on=sentence.end("n"))

    def _part_level(self, index: int, number: str) -> int:
        """The level of a part heading "N. Title": 1, but under headings the markup marks one below the last, under
        a decimal heading right above it ("2.5.1 Standing
        and Membership Status" / "1. In Good Standing"), one below that, and so its next siblings ("2. Temporary
        Suspension")."""
        last = self.headings[-1] if self.headings else None
        if last is None or last.kind != "numbered" or not last.number:
            part = self._part_before(number, "marked")
            if part is not None:  # "### 2. Game settings" / "#### 2.5 Map-pool" / "3. Match length": its sibling
                return part.level
            # under headings the markup marks and no numbered one, a part of the last ("### Conditional Bonuses" /
            # "**1. Avenger**"), as a line in capitals is; a heading the markup marks keeps its own level
            marked = [h.level for h in self.headings if h.kind == "marked"]
            return marked[-1] + 1 if marked and not self.facts.readings[index].marked \
                and not any(h.kind == "numbered" for h in self.headings) else 1
        if number == "1" and "." in last.number and self.facts.preceding[index] == self.heading_line:
            return last.level + 1
        # the next part after the one open, whatever decimals opened under it ("1. General" / "1.2 Acceptance" /
        # "2. Boats"): its sibling
        part = self._part_before(number, "numbered")
        return part.level if part is not None and part.level > 1 else 1

    def _part_before(self, number: str, kind: str) -> Heading | None:
        """The open heading of `kind` numbered last in whole numbers, when part `number` comes right after it (a
        round hundred's next number is its first part: "100. Overview" / "101. General")."""
        part = next((h for h in reversed(self.headings) if h.kind == kind and (h.number or "").isdigit()), None) \
            if number.isdigit() else None
        return part if part is not None and int(number) == int(part.number) + 1 and not (
            kind == "marked" and part.number.endswith("00")) else None

    def _annotation(self, index: int, stripped: str) -> Heading:
        """A note numbered under the rule it cites ("Interpretation 1  Rule 7.1 (a)"), or the line over a run of them
        ("INTERPRETATIONS"): a heading inside the rule it sits in, the note's own text a unit labelled as printed."""
        group = self.facts.annotations[index]
        kinds = ("annotation", "annotations") if group else ("annotation",)
        base = next((h.level for h in reversed(self.headings) if h.kind not in kinds), 0)
        if group:
            return Heading(base + 1, section_title(stripped), None, "annotations")
        label = " ".join(stripped.split())
        return Heading(base + 1, label, label, "annotation", rule=True)

    def _cites_part(self, index: int, number: int) -> bool:
        """Is part `number` at `index` cited by its number: no rule numbered under it follows (a chapter "7. Combat"
        over 7.1 is a place, its rules the citation), and no numbered heading but its earlier siblings is open above
        it ("1. Compliance" under "5. Equipment" is part 1 of that)?"""
        return not labels.within(self.facts.numbers[index] or "", str(number)) and not any(
            labels.numeric(heading.number) and not ((heading.number or "").isdigit() and int(heading.number) < number)
            for heading in self.headings)

    def _numbered_bullet(self, index: int, pos: int, line: str, bullet: re.Match) -> bool:
        """Read a bullet that prints a rule number carrying the numbering on ("  - 4.5.2.1 A person may be
        denied…" after 4.5.2, or after 4.5.1 when 4.5.2 is printed empty) as that rule; False when it prints none,
        or one the document prints again unbulleted
        (a list of its sections, "- 6.1. Character Build"), or in an update summary (a change, no rule)."""
        rest = line[bullet.end():]
        item = self.facts.item.match(rest)
        decimal = item.group("decimal") if item else None
        title = rest[item.end():].strip() if item and item.group("number") else ""
        if title and len(title.split()) <= _LISTED_WORDS + 2 and title[-1] not in ".!?;," \
                and self._bullets_under(index, item.group("number")):
            # "- 1104. [First Strike]" over "   - 1104.1. …": the part its bulleted rules are numbered under
            number = item.group("number")
            self._open(Heading(self._part_level(index, number), section_title(title), number, "numbered",
                               shown=(f"{number}. {section_title(title)}",)), index)
            return True
        # "- 5.8.6." left empty, then "  - 5.8.6.1. After the…": the subrule carries the numbering on too
        if not decimal or decimal in self.facts.printed or self.changelog.open is not None \
                or not (self._continues(decimal) or self._continues(labels.parent(decimal))):
            return False
        return self._unit(index, pos + bullet.end(), rest, item)

    def _bullets_under(self, index: int, number: str) -> bool:
        """Is the line after the bullet at `index` a bulleted rule numbered under `number` ("   - 1104.1. …")?"""
        below = self.facts.following[index]
        bullet = self.facts.readings[below].bullet if below is not None else None
        item = bullet and self.facts.item.match(self.facts.line(below)[bullet.end():])
        return bool(item and item.group("decimal") and under(item.group("decimal"), number))

    def _continues(self, label: str) -> bool:
        """Does `label` carry the numbering on: a successor of the last rule (see `labels.successors`), or the
        first rule or next topic under an open numbered heading?"""
        numbers = [h.number for h in self.headings if labels.numeric(h.number)]
        return any(label in labels.successors(number) for number in (self.last_rule, *numbers) if number)

    def _whole_title(self, index: int, title: str) -> str:
        """The title of the heading at line `index` with the lines in capitals it goes on over: a title set over
        lines ("THE HUNT FOR" / "THE RING", "THE POLITICS" / "OF MIDDLE-EARTH", "4. RULES FOR THE FINAL ROUND" /
        "OF THE COMPETITION") stops on a comma or a small word, or its next line opens with one."""
        at = index
        while (below := self.facts.following[at]) is not None and self.facts.readings[below].caps and (
                _unfinished(title) or self.facts.line(below).split()[0].casefold() in TITLE_GOES_ON) and (
                more := self._title_below(at)):
            title, at = f"{title} {more}", below
        return title

    def _title_below(self, index: int) -> str | None:
        """The line under a heading that is only a keyword and its number ("LAW 1" over "THE PLAYERS", "Article 4"
        over "Equipment"), or under a title that wraps, when it names a topic, in capitals or title case, no label or
        heading of its own: the heading's title (or the rest of it), read with the heading; else None."""
        below = self.facts.following[index]
        reading = self.facts.readings[below] if below is not None else None
        if reading is None or not (reading.caps or reading.title) or not names_a_topic(self.facts.line(below).strip()) \
                or reading.item or reading.keyword or reading.marked or reading.bullet or reading.numbered:
            return None
        self.skip.add(below)
        return " ".join(self.facts.line(below).split())

    def _label_over_title(self, index: int, stripped: str) -> Heading | None:
        """A label alone on its line over a topic's name ("1.4." then "Deck Construction"): the heading of the
        rules numbered under it that follow (its title line is read with it), or the next chapter after the open one
        ("13." / "Appendix: Previous Revision Summary" after chapter 12); None when neither, or the line under the
        label is no title (then it is the label's own rule text: "1.10.1." over "A", "CREDIT", "([c]) is the basic
        unit…")."""
        title_at = self.facts.following[index]
        if title_at is None:
            return None
        title = self.facts.line(title_at).strip()
        number = stripped.rstrip(".")
        if not names_a_topic(title) or not number[:1].isdigit() or not (
                self.facts.numbered_under(title_at, number) or self._part_before(number, "numbered") is not None):
            return None
        self.skip.add(title_at)
        return Heading(labels.depth(number), f"{number} {section_title(title)}", number, "numbered")

    def _inside_chapter(self, index: int) -> bool:
        """Does the open numbered chapter's numbering carry on after line `index`? Then an unnumbered title
        there (a diagram's labels: "BANISHED", "READY   EXERTED") is text inside the chapter, no section."""
        # ("7.0 The Robot" over 7.1 heads its rules, but any title after them is its own: a glossary's terms)
        chapter = next((h.number for h in self.headings if h.kind == "numbered" and not labels.zeroed(h.number)), None)
        following = self.facts.numbers[index]
        return chapter is not None and following is not None and (
            following.split(".")[0] == chapter.split(".")[0])

    def _over_its_items(self, index: int) -> bool:
        """Is the label alone on line `index` ("11.") over lettered items indented under it ("   (a) The elbow…"),
        its parts, whatever the document does elsewhere?"""
        below = self.facts.following[index]
        item = self.facts.readings[below].item if below is not None else None
        return item is not None and bool(item.group("letter") or item.group("roman")) \
            and indent_of(self.facts.line(below)) > indent_of(self.facts.line(index))

    def _heads_section(self, index: int, number: str) -> bool:
        """Is "N. Title" at `index` a heading rather than a short list item? An item follows its previous
        sibling and is followed by its next one or by a list indented under it; a heading is followed by its
        own numbering, starting again at 1."""
        indent, previous = indent_of(self.facts.line(index)), str(int(number) - 1)
        above = self.facts.preceding[index]
        item = self.facts.readings[above].item if above >= 0 else None
        # the list's next name ("10. Pass the First Player Token" after "9. Discard Combat Cards", open or above)
        if any(at == indent and label == previous for at, label, _ in self.items) or item is not None \
                and item.group("number") == previous and indent_of(self.facts.line(above)) == indent:
            return False
        below = self.facts.following[index]
        if below is not None and self.facts.readings[below].bullet and indent_of(self.facts.line(below)) > indent:
            return False  # a bulleted list indented under it ("1. Stage 1" / "   - Swiss bracket")
        following = self.facts.following_item(index)
        if following is None or not following.group("number"):
            return True
        # "3. Card Types" over "300. General": sections numbered in the hundreds of their chapter; "0. Weightless"
        # over "1. Up to 100 lbs" is a list counted from 0, its next item no child.
        child = following.group("number")
        return indent_of(self.facts.line(below)) <= indent and child != str(int(number) + 1) and (
            child == "1" or labels.in_hundreds(child, number))

    def _titled(self, index: int, stripped: str) -> bool:
        """A short unpunctuated line, after a blank line over text or questions and numbered units (past
        blank lines too), or after a finished sentence directly over a question or numbered unit: a plain
        section heading."""
        # "An Unregistered person CAN (unless explicitly forbidden or": a sentence's line, no title
        if len(stripped.split()) > 8 or not self.facts.readings[index].title or stripped.split()[-1] in TITLE_SMALL:
            return False
        # "We recognize that these two companies are currently" / "engaged in creating…": the first line of a
        # page's paragraph, its sentence carried on below
        if self.facts.carried_on(index):
            return False
        name = FRAMING.sub("", stripped)  # "♦Iron Ward [13]" names "Iron Ward"
        # A card's number framing it marks a name, whose "!" is part of it ("Ganked! [119]"), not an exclamation.
        asking = ASKING_WORD.match(name) or not names_a_topic(name.rstrip("!") if name != stripped else name)
        if asking and self.questions.ends_on(index) is not None:
            return False  # a line running on into a question ("What happens if the raider plays" / …?) is its text
        following = self.facts.following[index]
        lead = self.facts.preceding[index]
        if following is None or lead >= 0 and self.facts.line(lead).rstrip().endswith(":") \
                and indent_of(self.facts.line(index)) > indent_of(self.facts.line(lead)):
            return False  # "…For example:" / "" / "\tAttack\tSP Klingon": what a lead-in shows, set in under it
        item = self.facts.readings[following].item
        opens = bool(item and (item.group("question") or item.group("decimal") or item.group("number")))
        # a card or topic over the questions asked about it ("Night Raid [12]" over "Can the raider discard…?"),
        # its name's pronunciation perhaps between them
        under = self.facts.following[following] if self.facts.readings[following].aside else following
        opens = opens or not asking and under is not None and self.questions.ends_on(under) is not None \
            and self.facts.readings[under].opens_sentence
        previous = self.facts.line(index - 1).strip() if index else ""
        if previous:
            return (opens and following == index + 1 and (self.facts.readings[index - 1].ends_sentence
                                                           or self._stacked(index - 1))
                    or self._stacked(index) or self._stands_apart(index, stripped))
        if self.facts.spaced_out:
            # Blank lines say nothing: a topic's name over a sentence it does not carry on, never right under a
            # question, and inside an FAQ's answers only a heading over more questions.
            above = self.facts.preceding[index]
            answering = self.questions.faq and self._answering()
            return opens or (not item and not answering and not asking and not SENTENCE_INSIDE.search(stripped)
                             and self.facts.readings[following].opens_sentence
                             and (above < 0 or not self.facts.readings[above].ends_asking))
        return opens or (following == index + 1 and not item)

    def _stacked(self, top: int) -> bool:
        """Is line `top` a title after a finished sentence, right over another title right over a question (an
        FAQ's set name over a card's name over the card's questions: "The Children of Blackcloud" / "Brennen
        Blackcloud" / "Q: What is the cost of Spirit Burn?")? Both are headings; a title wrapped onto two lines
        ends on a small word ("History of the" / "Game") or runs over text, no question."""
        if top < 1 or top + 2 >= len(self.facts.lines):
            return False
        readings, line = self.facts.readings, self.facts.line(top).split()
        item = readings[top + 2].item
        return bool(readings[top].title and readings[top + 1].title and readings[top - 1].ends_sentence
                    and item and item.group("question") and line and line[-1] not in TITLE_SMALL)

    def _names_heading(self, title: str, index: int) -> bool:
        """Does the sentence opening at line `index` name what `title` names, by one of its words (its first five
        letters: "Gorgon (Stone Gaze)" and "…the Gorgon's special power")?"""
        def stems(text: str) -> set[str]:  # "Gorgon’s" is the Gorgon's
            return {word.casefold().replace("’", "'").split("'")[0][:5] for word in WORD.findall(text)
                    if len(word) >= _STEM}
        return bool(stems(title) & stems(self.facts.line(index)))

    def _stands_apart(self, index: int, stripped: str, under_heading: bool = False) -> bool:
        """In text without blank lines (a PDF's), a heading by the evidence around it: a topic's name in title
        case ("Setting up the Game"), unnumbered like the document's other plain headings, after a finished
        passage (a sentence, a list item) and over body text (a sentence or a list), neither carrying on a
        sentence nor one of a stack of short lines (a picture's caption: "Example 1", "1 Summary"). Two such names
        may stand one over the other, a section's over its first part's ("Special Rules" / "Torus" / "Designate a
        piece…"): the lower one stands `under_heading`, the upper one over it."""
        stripped = without_pointer(stripped)  # "Spin Serves (4.A.5)": a name, and the rule it points to
        words = stripped.split()
        if not names_a_topic(stripped) or any(c.isdigit() for c in words[0] + words[-1]):
            return False
        under_heading = under_heading or (
            self.heading_line == index - 1 and self.headings[-1].kind in ("titled", "caps"))
        above = self.facts.readings[index - 1]
        # a list item run to the text's width mid-clause ("○ …drops into their hand, it is" / "NOT a catch") goes on,
        # but not into a name in title case ("• …stands for, “draw down-left”" / "Straight Line Gesture") unless
        # its words run on ("• …Repair and" / "Return Box")
        if not (under_heading or above.ends_clause or above.row or above.credit or above.bullet and (
                not self.facts.wraps(index - 1) or len(words) > 1 and title_case(stripped)
                and self.facts.line(index - 1).split()[-1].casefold() not in TITLE_SMALL)):
            return False
        below = index + 1 if index + 1 < len(self.facts.lines) else None
        if below is not None and not self.facts.line(below).strip() and not (self.facts.spaced_out or above.lone):
            # a heading at a page's foot, the page's break after it ("Gorgon (Stone Gaze)" / "" / "When you activate
            # the Gorgon's special power…"): the text past the break names what it heads
            past = self.facts.following[index]
            below = past if past is not None and self._names_heading(stripped, past) else below
        body = self.facts.line(below) if below is not None else ""
        if body and (self.facts.readings[below].bullet or self.facts.readings[below].item):
            # a part's name directly over a bulleted list is a list's line, over numbered steps their heading
            # ("Basic Game Concepts" / "Deed Cards" / "1. All cards with the Deed card back…")
            item = self.facts.readings[below].item
            return not under_heading or bool(item and item.group("number") == "1")
        body = body.strip()
        if (not under_heading and body and len(words) > 1 and (above.ends_sentence or above.credit)
                and all(title_case(line, numbers=True) and line.count("(") == line.count(")") for line in (stripped, body))
                and below == index + 1 and self._stands_apart(below, body, under_heading=True)):
            # after a finished sentence, not a colon's list of names ("New in this version:"), neither name a
            # fragment of a column's line ("Points (see Case", "The Commonwealth" / "Player has a Temporary")
            return True
        return (bool(body) and body[0] in _BODY_OPENERS and not names_a_topic(body)
                and (len(body.split()) >= 8 or self.facts.readings[below].ends_sentence and len(body.split()) >= 4))

    def _open(self, heading: Heading, index: int) -> None:
        self._enter_changelog(heading, index)
        if heading.kind == "titled":
            # A title line is a topic inside the marked or capitalised heading above it, never inside a numbered one
            # but a chapter's own text ("Monsoon Weather Condition Effects" in "6.0 Weather"'s, before 6.1), or a
            # lettered part of it ("3. Deck Construction" / "A) Deck Size"), whose items it numbers within: its
            # letters run from "A" there
            lettered = bool(heading.number) and len(heading.number) == 1 and self._letters_on(heading.number)
            self._close_while(lambda h: h.kind == "titled" or h.kind == "numbered" and not lettered and not (
                h.rule and labels.zeroed(h.number)))
            heading.level = self.headings[-1].level + 1 if self.headings else 1
            heading.inside = self.last_rule or None
        else:
            # The document's numbering decides what a numbered heading sits under, whatever its markup level:
            # "## 4.3.6 Challenge" is inside "### 4.3. Main Phase", "### 5.0 General" is not inside "## 4.3".
            # (a part numbered afresh under a decimal heading, "3. Indefinite Suspension" under 2.5.1, sits where
            # its level puts it: see `_part_level`)
            nested = heading.kind == "numbered" and heading.level > 1 and (heading.number or "").isdigit()
            number = heading.number if heading.kind in ("marked", "numbered") and not self.facts.top_rules \
                and not nested else None
            closed = self._close_parts_of_text(number) + self._close_while(lambda h: h.level >= heading.level and not (
                labels.numeric(number) and under(number, h.number)))
            heading.sibling = heading.sibling or any(h.level == heading.level for h in closed)
            self._leave_sections_outside(number, heading.level if heading.kind == "marked" else None)
            # "### 4. Teams" marked a level too deep under "## 3. Player Eligibility" and its parts: 3's sibling (not
            # under a heading of no part of 3's, nor a rule in 3's hundreds: "### 901. General" under "## 900.")
            before = next((h for h in self.headings if (number or "").isdigit() and h.number == str(int(number) - 1)
                           and h.level < heading.level and not h.afresh and not h.number.endswith("00")),
                          None)
            if before is not None and not all(labels.within(h.number or "", before.number)
                                              for h in self.headings[self.headings.index(before):]):
                before = None
            if before is not None:
                self._close_while(lambda h: h.level >= before.level)
                heading.level, heading.sibling = before.level, True
                self._enter_section()
            if self.headings and labels.numeric(number) and under(number, self.headings[-1].number):
                heading.level = max(heading.level, self.headings[-1].level + 1)
        if labels.numeric(heading.number):
            for outer in self.headings:  # "### 1. Unlock Phase" under "## 4. Turn Sequence": 4's parts count afresh
                outer.afresh = outer.afresh or labels.numeric(outer.number) and not labels.within(heading.number,
                                                                                                   outer.number)
        heading.glossary = bool(GLOSSARY.match(heading.title))
        if heading.number:
            self.heading_numbers[heading.number] = heading
        if heading.kind == "marked":
            self.headings = self.entries.place(heading, index, self.headings, self.last is not None)
        self.glossary.restart()
        self.headings.append(heading)
        if heading.glossary:
            self.glossary.headings = list(self.headings)
        self.heading_line = index
        self._enter_section()
        self.in_front, self.answer_indent = False, None
        self.current = self.last = self.example = self.case = self.named = None
        self.items = []
        self.own_number, self.own = (heading.number if heading.rule else None), None
        if heading.rule and labels.zeroed(heading.number):
            self.last_rule = heading.number  # "6.0 Weather" over its text: the rule a title line there stands in

    def _enter_section(self) -> None:
        self.section = self.root + tuple(h.title for h in self.headings)
        self.shown.append((len(self.blocks), self.section,
                           self.root + tuple(part for h in self.headings for part in h.shown or (h.title,))))

    def _show_sections(self) -> None:
        """Each block's section as shown (numbered sections with their numbers, see `Heading.shown`), its id
        keeping the titles: a section's latest showing when the block was made (titles repeat: "General")."""
        showing: dict[tuple[str, ...], tuple[str, ...]] = {}
        entered = iter(self.shown)
        upcoming = next(entered, None)
        for count, block in enumerate(self.blocks):
            while upcoming is not None and upcoming[0] <= count:
                showing[upcoming[1]] = upcoming[2]
                upcoming = next(entered, None)
            inside = next((n for n in range(len(block.section), 0, -1) if block.section[:n] in showing), 0)
            if inside and showing[block.section[:inside]] != block.section[:inside]:
                block.id_section = block.section if block.id_section is None else block.id_section
                block.section = showing[block.section[:inside]] + block.section[inside:]

    def _heading_unit(self, index: int, pos: int, line: str, heading: Heading) -> bool:
        """Read a marked heading that is a unit of its own: numbered like a rule ("6.A.1. TEST CASE, ...",
        "8.3.5 Go again") with no rules or headings under it, its text, code and lists following until the next
        heading; or asking a question ("Can a unit retreat twice?"), its whole answer following. A rule-numbered
        heading with rules under it is a section whose own text takes its number."""
        if heading.kind != "marked":
            return False
        rule = labels.compound(heading.number)
        marked = self.facts.readings[index].marked
        raw = (marked.group("star") or marked.group("hash")).strip(" *#")
        number = heading.number if labels.numeric(heading.number) else None
        asked = heading_asks(marked) and index not in self.facts.titles_asking
        if not (rule or asked) or self.facts.has_parts(index, heading.number, heading.level):
            heading.rule = rule and not self.facts.top_rules
            heading.nests = self.facts.nests_right_under(index, heading.level)
            return False
        self._enter_changelog(heading, index)  # a rule an update summary reprints is restated there
        # "## 1. What is a Hand?" is no part of "## Table of Contents" before it, "## 2.0 Setup" none of "#### Errata"
        if self._close_while(lambda h: h.kind == "marked" and not (number and under(number, h.number))
                             and (h.level >= heading.level if asked else h.level > heading.level)):
            self._enter_section()
        # then the numbered siblings the deeper headings stood over ("#### 3.1.6" after "##### 3.1.5a")
        self._leave_sections_outside(number, heading.level)
        title = without_number(heading.title, number)
        if asked:
            block = Block(self.section, number or self.questions.label(), title, [], kind="question")
            # The question is part of its unit, as after "Q:" or "54.".
            start = pos + line.find(raw) + len(raw) - len(without_number(raw, number))
        else:
            block = self.rule_heading = Block(self.section, number, title, [], kind="rule", parent=self._parent_of(number))
            self.rules.add(number)
            self.last_rule = number  # "### 1.1. Signing-up" then "- 1.1.1. Players must…": its rules carry it on
            start = pos + len(line)  # the number and title are the ruling's label and title
        # a rule heading's lettered items are its subrules ("## 4.2 Scoring" / "(a) Killing Opponents" is 4.2a); an
        # answer's are its text
        self.items, self.case, self.named = [], None if asked else block, None
        self._start(block, start, pos + len(line))
        self.answer_indent, self.answer_items = 0, 0
        return True

    def _in_rule_heading(self) -> bool:
        """Is the text being read that of a heading numbered like a rule with nothing numbered under it, whose text
        runs to the next heading the markup marks (see `_heading_unit`)?"""
        return self.current is not None and self.current is self.rule_heading

    def _leave_sections_outside(self, number: str | None, level: int | None = None) -> None:
        """Close the open numbered headings that the document's numbering puts `number` after, not under
        ("4.3.6 Challenge" for rule 4.3.7), down to the first it sits under or that is not numbered. A marked
        heading at `level` stays inside a "N.0" chapter its markup sets it under ("## 3.0 …" / "### 3.1 …")."""
        if self.facts.top_rules or not labels.numeric(number):
            return
        notes = self._close_while(lambda h: h.kind in ("annotation", "annotations"))  # end as the numbering goes on
        if self._close_while(lambda h: labels.numeric(h.number) and labels.follows(number, h.number) and not (
                labels.within(number, h.number, zero=level is not None and h.kind == "marked" and h.level < level
                              or h.kind == "numbered" and (not h.rule or labels.zeroed(h.number)))
                or level is not None and (h.nests or h.afresh) and h.level < level)) \
                or notes:
            self._enter_section()
            self.own_number = self.own = None

    def _close_parts_of_text(self, number: str | None) -> list[Heading]:
        """Close the title lines standing in a rule's text that rule `number` ends ("Monsoon Weather Condition
        Effects" over bullets in rule 6.0's text heads neither 6.1 nor 7.0: see `_ends_text`)."""
        return self._close_while(lambda h: h.kind == "titled" and h.inside is not None and labels.numeric(number)
                                 and _ends_text(h.inside, number)) if number else []

    def _close_while(self, closes) -> list[Heading]:
        """Close the innermost open headings while `closes` says so of the last; the headings closed."""
        closed = []
        while self.headings and closes(self.headings[-1]):
            closed.append(self.headings.pop())
        return closed

    # Units

    def _unit(self, index: int, pos: int, line: str, item: re.Match) -> bool:
        """Start the unit `item` opens; False when the line is only text of the current one."""
        start, end = pos + item.end(), pos + len(line)
        glyph = BULLET.match(line[item.end():])  # "053.1. * Units and legends say…": the bullet is no text
        if glyph:
            start += glyph.end()
        if item.group("question"):
            self.items, self.case, self.named = [], None, None
            counted = self.questions.label()
            # "Q1. How do I…?": the number the document prints, as it prints it
            printed = "".join(c for c in item.group("question") if c.isdigit())
            self._start(Block(self.section, f"Q{printed}" if printed else counted, "", [], kind="question"), start, end)
            return True
        if item.group("answer"):
            if self.current is None or (item.group("answer").endswith(".") and self.current.kind != "question"):
                return False
            self.example, self.answer_indent, self.answer_items = None, indent_of(line), 0
            self._extend(self.current.pieces, pos, end)
            return True
        if item.group("example"):
            if self.current is None:
                return False
            self.example = []
            self.example_list, self.example_items = None if line[item.end():].strip() else indent_of(line), 0
            self.current.examples.append((f"example-{len(self.current.examples) + 1}", self.example))
            self._extend(self.example, start, end)
            return True
        if item.group("decimal"):
            if self._table_row(index, item):
                return False  # "0.5    Draw    1 point": a row of a table, text of what holds the table
            return self._decimal(index, line, item, start, end)
        if item.group("number"):
            if self.facts.top_rules:
                block = self.numbering.rule(item, start, end, self.section)
                if block is not None:
                    self._begin_rule(block, indent_of(line), start, end)
                return block is not None
            number = item.group("number")
            if self._wrapped_number(index, number):
                return False
            if self._names_listed(index, start, end):
                self.current = self.current or self.last  # past the blank line before the list
                return False
            if self.answer_indent is not None and not ASKS.match(self.facts.text[start:end]) \
                    and self._answers_list(number, indent_of(line)):
                return False
            self._numbered(index, line, item, start, end)
            return True
        if self.answer_indent is not None and (self.case is None or self.case is not self.rule_heading):
            return False
        roman = item.group("roman") or (item.group("dotted") if item.group("dotted") in ("i", "v", "x") else None)
        if roman and (item.group("roman") or self._next_letter() != roman):
            return self._roman(roman, start, end)
        bare = item.groupdict().get("bare")
        if bare and (self.case is None or bare != self._next_letter()):
            return False  # "a Space Dock…" carrying a sentence on, not the subrule that comes next
        letter = (item.group("letter") or item.group("dotted") or bare).lower()
        last = self.blocks[-1].label.lower() if self.blocks else ""
        if letter != "a" and letter != self._next_letter() and not last.endswith(chr(ord(letter) - 1)) \
                and self.facts.text[start:start + 1].islower() and index \
                and not self.facts.readings[index - 1].ends_sentence:
            return False  # "(b) should the size…": a sentence's inline list, its "(a)" inside the line above
        if self.named is not None:
            block = Block(self.section + (self.named.title,), letter, "", [])
        elif self.case is not None:
            self._close_deeper(indent_of(line))
            block = Block(self.section, self.case.label + letter, "", [], kind="rule", parent=self.case.label)
            self.items.append((indent_of(line), letter, block))  # a list indented under it is its ("1.1c.1")
            self.rules.add(block.label)
            self.lettered = block
        else:
            # lettered under a numbered heading, no rule open ("2. Governance" / "(A) The Competition…"): 2a
            prefix = self._list_prefix()
            block = Block(self.section, prefix + letter, "", [], kind="rule") if labels.numeric(prefix) \
                else Block(self.section, letter, "", [])
        self._start(block, start, end)
        self._listed(block, index, indent_of(line))
        return True

    def _answers_list(self, number: str, indent: int) -> bool:
        """Is a numbered item of an answer (or of a rule heading's own text) the answer's list: numbered on from 1
        at one margin (each of its lists from 1 again), or nested deeper under one of its items ("1. Required
        elements are:" / "   1. A cap;")?"""
        if self.answer_items and indent > self.answer_margin:
            return True
        if number == "1" and self.answer_items:  # another list of its own, after a paragraph leading into it
            self.answer_items = 0
        if number != str(self.answer_items + 1) or self.answer_items and indent != self.answer_margin:
            return False
        self.answer_items, self.answer_margin = self.answer_items + 1, indent
        return True

    def _close_deeper(self, indent: int) -> None:
        """Before a lettered subrule at `indent`: close the items indented deeper (a list under the letter before,
        "c." / "1." / "2." then "d.") and a sibling letter, so that its rule is the open case again."""
        while self.items and (self.items[-1][0] > indent
                              or self.items[-1][0] == indent and self.items[-1][1].isalpha()):
            self.items.pop()
        if self.items and self.items[-1][0] < indent and not self.items[-1][1].isalpha():
            self.case = self.items[-1][2]

    def _leaves_list(self, index: int) -> bool:
        """Does the paragraph after the blank line at `index` leave the numbered list whose item is the current
        unit: in a markup's text (see `Facts.marked`), a paragraph back at the item's margin (in plain text left of
        it), no item, bullet or heading ("3. When showtime is over…" / "" / "**Cyclical.** The structure of play…"),
        nor a lead-in to what follows ("These pieces are as follows:" over the item's table)? A numbered question's
        answer follows it at its margin."""
        following = self.facts.following[index]
        if following is None or self.current is None or self.current is not self.list_item \
                or self.current.kind == "question":
            return False
        below, line = self.facts.readings[following], self.facts.line(following)
        # in plain text an item's paragraphs may stand at its number's margin: only one left of it leaves the list
        # ("\t6. Strike orders" / "" / "When your turn is processed…"), or one after a list of one paragraph an item
        # ("2. Pre-departure orders" / "3. Jump orders" / "" / "When your turn…"), an example perhaps between
        short = self.list_short and self.list_paragraphs <= (self.example is not None)
        margin = self.list_margin if self.facts.marked or short else self.list_margin - 1
        return indent_of(line) <= margin and not line.rstrip().endswith(":") and not (
            below.item or below.bullet or below.marked or below.row)

    def _listed(self, block: Block, index: int, indent: int) -> None:
        """Note the unit just started at line `index` as the latest item of a list at `indent` (see `_leaves_list`)."""
        self.list_item, self.list_margin = block, indent
        self.list_short, self.list_paragraphs = self._item_above(index, indent), 0

    def _item_above(self, index: int, indent: int) -> bool:
        """Is the paragraph right above the item at line `index` (past a blank line) a sibling item at its margin,
        one paragraph all of it ("2. Pre-departure orders" over "3. Jump orders"; "1. The GM sets the scene." / "" /
        "2. The GM narrates…")?"""
        top = self.facts.preceding[index]
        for _ in range(_PARAGRAPH_LINES):
            if top <= 0 or not self.facts.line(top - 1).strip() or self.facts.readings[top].item:
                break
            top -= 1
        item = self.facts.readings[top].item if top >= 0 else None
        return bool(item and (item.group("number") or item.group("letter") or item.group("dotted"))) \
            and indent_of(self.facts.line(top)) == indent

    def _resumed_by(self, following: int) -> Block | None:
        """The unit a paragraph that leaves a list at line `following` goes on: the rule or item whose list it
        was, set left of the paragraph ("1.7 TURN PROCESSING" over its steps "1." to "6.", then "When your turn is
        processed…" is 1.7's); none for a list of the section's own."""
        indent = indent_of(self.facts.line(following))
        found = next((block for at, _, block in reversed(self.items) if at < indent and block is not self.list_item),
                     None)
        # the lettered cases of a heading's own text, or of a heading that is a rule ("### 3.4 'Fire'" / "Fires a
        # weapon… only if…" / "(a)"…"(c)"), whose text runs on to the next heading
        case = self.case
        heading = case is not None and (case is self.own or case is self.rule_heading)
        return found or (case if heading and self.list_item.parent == case.label else None)

    def _leads_in(self) -> bool:
        """Is the current unit, so far, only a short lead-in ending in a colon ("Notes:", "Example:") or a caption
        ("DIAGRAM A"), which the paragraph after it answers or shows?"""
        if self.current is None or len(self.current.pieces) != 1:
            return False
        lead = self.facts.text[slice(*self.current.pieces[0])].strip()
        return (lead.endswith(":") or bool(CAPTION.match(lead))) and len(lead.split()) <= _LISTED_WORDS

    def _wrapped_number(self, index: int, number: str) -> bool:
        """Is the number opening line `index` one a sentence wrapped onto the line's start ("…available to form
        corporations in phase" / "9. Lay out the cards…"): not 1, after a line of a few words that ends no clause
        and opens no label, no heading, continuing no open list?"""
        above = self.facts.readings[index - 1] if index else None
        # "…and 5 points (Set" / "3) played.": the number closes the parenthesis the line above left open
        line, previous = self.facts.line(index).lstrip(), self.facts.line(index - 1) if index else ""
        if line[len(number):len(number) + 1] == ")" and previous.count("(") > previous.count(")"):
            return True
        # (an example's line opens with its label, no list's: "Example: … This reduces X to" / "0. At the end…")
        return (number != "1" and above is not None and not above.ends_clause
                and (above.item is None or above.item.group("example"))
                and len(previous.split()) >= _WRAPPED_WORDS and self.heading_line != index - 1
                and not any(previous_item == str(int(number.rstrip(string.ascii_lowercase)) - 1)  # "10k." as 10
                            for _, previous_item, _ in self.items))

    def _names_listed(self, index: int, start: int, end: int) -> bool:
        """Is the numbered line at `index` (its text `start`..`end`) one of a list of names that a paragraph's colon
        introduces ("The steps are as follows:" / "1. Destroy Bases and Transports" / "2. Lose Resource Cards"): a
        few words, no sentence, the line above the colon or the list's item before? Then the list is the
        paragraph's text, not a unit each."""
        body = self.facts.text[start:end].strip()
        unit = self.current or self.last
        if unit is None or unit.kind != "paragraph" or not body:
            return False
        margin = indent_of(self.facts.line(index))
        if self.name_list is not None and self.name_list[0] is unit and self.name_list[1] == margin:
            return True  # the next name of the paragraph's list, past the points set under the one before
        previous = self.facts.preceding[index]
        above = self.facts.line(previous).strip() if previous >= 0 else ""
        if unit.pieces[-1][1] < self.facts.lines[previous][0] or not (
                above.endswith(":") or self.facts.readings[previous].item is not None):
            return False
        # The first name shows the list is one of names, and the list is read whole: a name after it may run longer
        # ("6. Number of star tokens placed on board" after "5. Number of territories controlled"), or be a sentence
        # ("3. Spend keys to steal, if you rolled raid dice" after "2. Ransack the Court").
        # A name over items numbered under it ("1. Extemporaneous Speaking" / "   1. Topics shall be…") heads them:
        # the list is the section's outline of rules, no list of names.
        below = self.facts.following[index]
        nested = below is not None and self.facts.readings[below].item is not None \
            and bool(self.facts.readings[below].item.group("number")) and indent_of(self.facts.line(below)) > margin
        listed = not nested and (not above.endswith(":")
                                 or len(body.split()) <= _LISTED_WORDS and body[-1] not in ".!?;:")
        if listed:
            self.name_list = (unit, margin)
        return listed

    def _roman(self, numeral: str, start: int, end: int) -> bool:
        """An item numbered in roman ("iv. Using a helmet…") under the numbered rule or subrule above it (label
        "7.1c.iv" under "7.1 (c)", "7.11viii" under rule 7.11's own text, "5a.iii" after "5. …" / "a. …"), else an
        item of its own ("ii")."""
        above = self.case.label if self.case is not None else None
        if above and self.lettered is not None and self.lettered.parent == above:
            above = self.lettered.label  # "5. …" / "a. Involvement is:" / "iii. …": 5a.iii, never 5iii (or b.'s)
        if above:
            joint = "." if above[-1].isalpha() else ""
            block = Block(self.section, f"{above}{joint}{numeral}", "", [], kind="rule", parent=above)
        else:
            block = Block(self.section, numeral, "", [])
        self._start(block, start, end)
        return True

    def _next_letter(self) -> str:
        """The letter the next subrule of the open numbered rule (or of the list under the open numbered heading:
        "24. Player Loses Point" / "h." / "i." is 24i, no roman one) takes: "a" after the rule, "c" after its "b"."""
        last = self.blocks[-1].label if self.blocks else ""
        above = self.case.label if self.case is not None else self._list_prefix() or ""
        own = last[len(above):] if last.startswith(above) else ""
        return chr(ord(own) + 1) if len(own) == 1 and own.isalpha() and own < "z" else "a"

    def _marked_sentence(self, index: int) -> bool:
        """Is line `index`, marked as a heading, a sentence of text: no label opening it, `_SENTENCE_WORDS` words or
        more ending on a full stop, heading nothing (the next line is a heading as high or higher)?"""
        marked = self.facts.readings[index].marked
        title = marked.group("hash") if marked else None
        if not title or not title.rstrip().endswith(".") or len(title.split()) < _SENTENCE_WORDS \
                or any(c.isdigit() for c in title.split()[0]):
            return False
        following = self.facts.following[index]
        below = self.facts.readings[following].marked if following is not None else None
        return following is None or below is not None and len(below.group("hashes") or "") <= len(marked.group("hashes"))

    def _row_rule(self, index: int, pos: int, line: str) -> bool:
        """Read a table's row of two cells, a rule's number carrying the numbering on and its text ("| 6.7 | (a)
        During the game… |": a web page setting its rules in a table for their margin), as that rule."""
        bare = line.rstrip().removesuffix("|").rstrip().replace("|", " ")  # as long as the line up to its text's end
        item = self.facts.item.match(bare)
        decimal = item.group("decimal") if item else None
        cells = row_cells(line) if decimal else []
        if len(cells) != 2 or cells[0].rstrip(".") != decimal or not self._continues(decimal):
            return False
        return self._unit(index, pos, bare, item)

    def _table_row(self, index: int, item: re.Match) -> bool:
        """Is the decimal number opening line `index` the first cell of a table's row rather than a rule's
        number: the line and a neighbour are rows laid out in columns, and the number does not carry the
        document's rule numbering on from the last rule (point values 0.5, 1.0, 4.5 in a scoring table)?"""
        near = [self.facts.readings[at] for at in (index - 1, index + 1) if 0 <= at < len(self.facts.lines)]
        return self.facts.readings[index].cells and item.group("decimal") not in labels.successors(self.last_rule) \
            and any(reading.cells for reading in near)

    def _decimal(self, index: int, line: str, item: re.Match, start: int, end: int) -> bool:
        label = item.group("decimal") + (item.group("sub") or "")  # "7.1 (a)" is subrule 7.1a
        # A number that a wrapped sentence put at the start of a line ("...the rule in section\n4.3.2 says"),
        # unless it is the number that comes next, written as the rules' numbers are ("1.3.1. know and abide…"
        # under "1.3. … Players must:").
        # So too past the blank lines a PDF sets between all its lines ("…as of version" / "2.1 we count both…").
        previous = self.facts.preceding[index]
        above = self.facts.readings[previous] if previous >= 0 else None
        wrapped = (self.current is not None and self.facts.line(index - 1).strip()
                   or above is not None and not above.ends_clause)
        # Nor the rule a sentence cites, wrapped onto the line's start ("…except for Penalty runs under Law" / "28.3
        # (Protective helmets…)", "(see Rule" / "6.4b Exception)."): the line above is a sentence's, a few words
        # ending on the citing word (a title, or a heading the markup marks, "### 4.6 - Race Chat Rules", cites none).
        cited = above is not None and above.cites and not above.title and not above.marked \
            and len(self.facts.line(previous).split()) >= _WRAPPED_WORDS
        # A title in small caps whose capitals a PDF's text layer lowered but for some ("7.3 engliSH DiSbAnDing")
        # opens the next rule as a stop after its number does.
        text = line[item.end():]
        mixed = any(c.isupper() for c in text.split(maxsplit=1)[0][1:]) if text.strip() else False
        # So is a list's item after its lead-in or the item before ("…to request a time-out:" / "15.5.1 during a
        # rally…," / "15.5.2 by a non-authorised team member,"), numbered on from the rule or heading open.
        listed = self.facts.line(index - 1).rstrip().endswith((":", ",", ";"))
        if (wrapped and text[:1].islower()
                and not (self._continues(label) and (item.group().rstrip().endswith(".") or mixed or listed))
                or cited):
            return False
        self.last_rule = label
        self._leave_sections_outside(label)
        if self._close_parts_of_text(label):
            self._enter_section()
        # "6.A.1. TEST CASE, MOVING TO AN AREA..." standing apart over its text: the rule's title.
        own = line[item.end():].strip()
        if own[:2] in _DASHES:  # "2.1 – General": the dash parts the number from the title
            own = own[2:].lstrip()
        following = self.facts.following[index]
        titled = following is not None and (own.isupper() and following > index + 1 or self._names_its_text(
            index, own, following))
        term = not titled and self.glossary.numbered_term(index, label, own, self.headings)
        block = Block(self.section, label, own if term else section_title(own) if titled else "", [],
                      kind="glossary" if term else "rule", parent=self._parent_of(label))
        self.decimal_rules[label] = block
        # A list its text opens is the rule's, however far the list is indented: a PDF sets "1.4 Ties" and
        # "1. An odd chip…" at one margin, and the item is 1.4.1.
        self._begin_rule(block, indent_of(line) - 1, start, end)
        return True

    def _names_its_text(self, index: int, own: str, following: int) -> bool:
        """"1.1 Tournament Types" over "Disney Lorcana TCG tournaments are…": a rule's name on the line of its
        number, short of the text's width (no sentence wrapped there), its text opening on the next line."""
        below, text = self.facts.readings[following], self.facts.line(following).strip()
        # A name wrapped over two lines ("Which Units May Participate in" / "Anti-Armor Combat") is all title, and
        # a run-in name is its sentence's ("STEP 2-SPACE CANNON OFFENSE: After the…").
        return (any(c.isalpha() for c in own) and names_a_topic(own) and ":" not in own
                and own.split()[-1].casefold() not in TITLE_SMALL
                and len(self.facts.line(index).rstrip()) < 0.75 * self.facts.width
                and (below.opens_sentence or bool(below.bullet)) and not below.item and not below.marked
                and not names_a_topic(text.lstrip("•-*–— ")))

    def _begin_rule(self, block: Block, indent: int, start: int, end: int) -> None:
        """Start a rule at the head of its own numbering: the items and lettered sub-cases that follow are its."""
        self.rules.add(block.label)
        self.items = [(indent, block.label, block)]
        self.case, self.named = block, None
        self._start(block, start, end)

    def _numbered(self, index: int, line: str, item: re.Match, start: int, end: int) -> None:
        number, indent = item.group("number"), indent_of(line)
        siblings = False
        while self.items and self.items[-1][0] >= indent:
            siblings = self.items.pop()[0] == indent or siblings
        if self.items and number != "1" and not siblings:  # a list nests from 1; else a sibling shifted right
            self.items.pop()
        if self.items:
            label = f"{self.items[-1][2].label}.{number}"
        else:
            prefix = self._list_prefix()
            label = f"{prefix}.{number}" if prefix else number
            if prefix and prefix.isdigit() and number.isdigit() and int(number) == int(prefix) + 1 \
                    and f"{prefix}.1" in self.rules and self.facts.numbered_under(index, number):
                # "12. Forbidden Weapons. The following…" over 12.1, after "11. Springs" and its 11.1–11.4: the next
                # part, closing 11's heading
                label = number
                self._close_while(lambda h: labels.within(h.number or "", prefix))
                self._enter_section()
            elif prefix and prefix.isdigit() and number.isdigit() and int(number) > int(prefix) \
                    and f"{prefix}.1" not in self.rules \
                    and (int(number) == int(prefix) + 1 or self.last is not None and self.last.label == str(int(number) - 1)):
                # "1. Introduction" / "2. What is going on here?" / "3. …": the next parts, no items of the first
                label = number
            elif prefix and min(self.facts.printed.get(at, indent + 1) for at in (label, f"{prefix}.1")) <= indent:
                # "5 Competition" / "1. Encourage progress…" before the document's own "5.1 Main Competition":
                # a list counted from 1, not the rules the document numbers 5.1, 5.2 (nor 3.3.2 after them), to its
                # last item (a step "4." is no 16.5.4 where the document's 16.5.1 follows the steps); a label
                # printed deeper is the item's own ("1. The court…" / "    1.1 For wheelchairs…")
                label = number
        body = self.facts.text[start:end]
        named = NAMED.match(body)
        title = named.group("name").strip() if named else first_sentence(body)
        numbered = "." in label
        # "54. What may a unit do...?": a question, its answer's list its own; but a step that asks among steps
        # that do not ("1. Check the timing: may the ability be used now?" over "2. Pay its cost.").
        asks = bool(ASKS.match(body)) and not self.facts.among_steps(index, number, indent)
        kind = "question" if asks else "rule" if named or numbered else "clarification"
        owner = self._owner()  # a step of a glossary entry is a unit of that entry
        block = Block(self.section, label, title, [], kind=kind,
                      slug=slugify(title) if named and not numbered else None,
                      parent=self._parent_of(label) or (owner.label if owner else None))
        self.rules.add(label)
        self.items.append((indent, number, block))
        self.case = block
        self._listed(block, index, indent)
        # lettered items under a name with its text ("1) Stoneskin (2 points): Add one…") are its; under a lead-in
        # ("4. Skills are of three basic types:") they are the item's own subrules, 4a, 4b
        self.named = block if named and not numbered and body[named.end():].strip() else None
        self._start(block, start, end)
        if asks:
            self.answer_indent, self.answer_items = indent, 0

    def _list_prefix(self) -> str | None:
        """The number a list opening under the open headings numbers within: the nearest numbered heading's
        ("Appendix C" > "Description" / "1." is C.1), but not the document's top heading's seen through the
        unnumbered ones under it: its number is the chapter's the document is ("# Chapter 7: Combat" > "Make an
        Attack" / "1." is no 7.1); nor one's whose parts the document numbers afresh, seen through another heading
        ("## 4. Turn Sequence" over "### 1. Unlock Phase" … "### Summary of an Action" / "1." is no 4.1)."""
        above = next((h for h in reversed(self.headings) if h.number), None)
        through = above is not None and above is not self.headings[-1]
        top = through and above is self.headings[0] and above.level == 1
        if top or through and above.afresh or above is None:
            return None
        # "5.3. Force Majeure" > "**A. Tournament Cannot Continue**" / "1.": 5.3.A.1, a part of 5.3's, never A.1
        outer = next((h.number for h in reversed(self.headings[:self.headings.index(above)]) if h.number), None)
        lettered = len(above.number) == 1 and above.number.isalpha()
        return f"{outer}.{above.number}" if lettered and labels.compound(outer) else above.number

    def _parent_of(self, label: str) -> str | None:
        """The rule `label` is a subrule of, when that rule is a unit (702.11 for 702.11b, 1.9.4 for 1.9.4.2), or
        the glossary topic numbered so ("1.6" under "1 ABILITIES")."""
        parent = labels.parent(label)
        return parent if parent in self.rules else self.glossary.topics.get(parent)

    # Text

    def _owner(self) -> Block | None:
        """The unit of the open glossary entry or part heading, if its text has begun."""
        return self.headings[-1].owner if self.headings else None

    def _own_unit(self) -> Block | None:
        """The unit the open entry's (or part's) own text goes to (see `Entries.unit`), started on its first line."""
        unit, new = self.entries.unit(self.headings, self.section)
        if new:
            self.blocks.append(unit)
            self.last = unit
        return unit

    def _start(self, block: Block, start: int, end: int) -> None:
        self.own_number = None
        self.glossary.number_topic(block)
        if self.changelog.open is not None and block.kind == "rule":
            block.kind = "restated"  # what an update summary prints is a record of a change, not the rule
        if self.in_front:
            block.section = self.root + block.section[len(self.section):]
            self.in_front, self.section = False, self.root
        self.blocks.append(block)
        self.current = self.last = block
        self.example = self.answer_indent = None
        self._extend(block.pieces, start, end)

    def _question(self, index: int) -> Block:
        """The question opening at line `index` (see `Questions.open`)."""
        return self.questions.open(index, self.section, self.heading_line, self._answering())

    def _answering(self) -> bool:
        """Is the current unit a question (so what follows answers it)?"""
        return self.current is not None and self.current.kind == "question"

    def _enter_changelog(self, heading: Heading, index: int) -> None:
        """Tell the update summaries of `heading`, opening at line `index` (see `Changelog.enter`)."""
        known = heading.number in self.heading_numbers or heading.number in self.rules
        passed = self.changelog.enter(heading, index, self.headings, known)
        if passed is not None and passed.kind != "marked" and passed in self.headings:
            self.headings = self.headings[:self.headings.index(passed)]  # a heading in capitals over no numbers

    def _footnote(self, pos: int, line: str, marker: re.Match) -> None:
        """A footnote: a paragraph of its own where it stands, never a heading, a unit or a parent; but a note keyed
        by a star right after the unit that prints its star ("N/A*" in a table's cell) is that unit's text."""
        owner = self.current or self.last
        if owner is not None and "*" in marker.group() and any("*" in self.facts.text[start:end]
                                                               for start, end in owner.pieces):
            self.current = owner
            self._extend(owner.pieces, pos + marker.end(), pos + len(line))
            return
        self.paragraphs += 1
        block = Block(self.section, str(self.paragraphs), first_sentence(line[marker.end():]), [],
                      kind="front-matter" if self.in_front else "paragraph")
        self.blocks.append(block)
        self.current, self.last, self.example = block, None, None
        self._extend(block.pieces, pos + marker.end(), pos + len(line))

    def _text(self, index: int, pos: int, line: str, bullet: re.Match | None = None, code: str | None = None) -> None:
        end = pos + len(line)
        if self.answer_indent is not None and not self.facts.line(index - 1).strip() \
                and indent_of(line) < self.answer_indent:
            # Past a blank line and left of the answer's margin: the answer has ended.
            self.current = self.example = self.answer_indent = None
        if self.example is not None and self.example_list is not None and len(self.example) > 1 and not bullet \
                and indent_of(line) <= self.example_list and not self.facts.line(index - 1).strip():
            # "**Examples:**" over its list, then "**Philosophy:** Players are…" past a blank line at the label's
            # margin: the list of examples has ended, the rule goes on (a penalty guide's penalties were examples)
            self.example = self.example_list = None
        if self.example is not None:
            self._extend(self.example, pos, end)
            return
        if self.entries.leaves_steps(index, line, bullet, self.headings, self.items[0][0] if self.items else None):
            self.current, self.items, self.case, self.named = self._own_unit(), [], None, None
        # the next question in an answer, or a paragraph that asks and answers ("Can I…? No. …") in an FAQ's run
        if self.questions.asks_again(index, self._answering()) or index in self.facts.answered:
            self.current = self.last = self._question(index)
            self.blocks.append(self.current)
            pos += self._asked_bullet(index, bullet)
        elif index in self.facts.named and not self.in_front and index != self.heading_line and not (
                bullet and (owner := self.current or self.last) is not None and owner.kind != "paragraph") and not (
                self.current is not None and self.current.kind == "rule" and not self.current.pieces):
            # (a rule heading with no text yet, "### 5.1 Axis Setup" / "**Germany:** Place 6 Cadres…", takes the
            # first as its text, the rest its parts: else it is left empty, in no ruling, its parts under its parent)
            # "Claws: The morph has…": a unit named so; a numbered rule's own list of named cases stays its text
            name = self.facts.named[index]
            self.paragraphs += 1
            # after a numbered rule's text, in its section, a part of that rule ("1.4.2 Novgorod Veche" / its text /
            # "EFFECTS: …", "WASTAGE: …"): cited under it
            last = self.last
            rule = (last.label if last.kind == "rule" and labels.numeric(last.label) else last.parent if last.slug
                    and last.kind == "paragraph" else None) if last is not None and last.section == self.section else None
            self.current = self.last = Block(self.section, f"{rule} {name}" if rule else name, name, [],
                                             kind="paragraph", slug=slugify(name), parent=rule)
            self.blocks.append(self.current)
            pos += bullet.end() if bullet else 0  # "- Relays: You have…": the unit opens at its name
        if self.current is None:
            self.current = self._own_unit()
        if self.current is None and bullet and self.last is not None:
            self.current = self.last  # a list after a blank line belongs to the paragraph that introduces it
        if self.current is None and self.own_number is not None:
            if self.own is None:  # "6.A. BASIC CHECKS" over its test cases: its own text is 6.A
                # a note's text is a clarification of the rule it sits in ("Interpretation 2  Rule 7.1 (e)")
                note = self.headings[-1].kind == "annotation"
                rule = next((h.number for h in reversed(self.headings) if h.rule and h.kind != "annotation"
                             and h.number in self.rules), None) if note else None
                self.own = Block(self.section, self.own_number,
                                 without_number(self.headings[-1].title, self.own_number), [],
                                 kind="clarification" if note else "paragraph", parent=rule)
                self.blocks.append(self.own)
                self.rules.add(self.own_number)
                self.case = self.own  # its lettered and roman items are its subrules
            self.current = self.last = self.own
        if self.current is None:
            stripped = line[bullet.end():].strip() if bullet else line.strip()
            self.paragraphs += 1
            kind = "front-matter" if self.in_front else "changelog" if self.changelog.open else "paragraph"
            if code is not None:  # a code block of its own, titled by its first line
                block = Block(self.section, str(self.paragraphs), first_sentence(code), [], kind=kind)
            elif stripped.endswith(":") and len(stripped.split()) <= 6:
                block = Block(self.section, slugify(stripped), stripped.rstrip(":"), [],
                              kind="changelog" if self.in_front else kind)
            elif kind == "paragraph" and (ends_asking(stripped) and not rhetorical(stripped)
                                          or self.questions.ends_on(index) is not None) and not self._quoted(index):
                # A paragraph that ends asking ("If I retreat after moving, does it…?", "I attack
                # with both knights. Can each…?"), on this line or over the next: a question, the paragraphs
                # after it its answer.
                block = self._question(index)
                pos += self._asked_bullet(index, bullet)
            else:
                block = Block(self.section, str(self.paragraphs), first_sentence(stripped), [], kind=kind)
            self.blocks.append(block)
            self.current = self.last = block
        self._extend(self.current.pieces, pos, end)

    def _asked_bullet(self, index: int, bullet: re.Match | None) -> int:
        """How far into line `index` the question just opened there starts: past its bullet when the bullet asks it
        ("• If I defeat a Hero…?" over its lines), not when the question runs on over other bullets (a list)."""
        return bullet.end() if bullet and not any(
            self.facts.readings[at].bullet for at in range(index + 1, self.questions.asked + 1)) else 0

    def _quoted(self, index: int) -> bool:
        """Is the paragraph at line `index` one a sentence of prose presents as a question, with a colon ("The central
        question a traditional RPG asks is:" / "Will the heroes get the information they need?"): a question the
        text discusses, not one it asks and answers? (A case set out before a question's options, "When a squad
        fails to Rally:" / "A Is it Reduced?", is the question's.)"""
        previous = self.facts.preceding[index]
        above = self.facts.line(previous).strip() if previous >= 0 else ""
        return above.endswith(":") and len(above.split()) > _LISTED_WORDS and any(
            word.strip(string.punctuation).casefold() in PRESENTS_QUESTION for word in above.split())

    def _cross_reference(self, pos: int, line: str) -> bool:
        """A "Related Topics: A, B" or "See also: A" line attaches to its unit as links, never its text: to the
        open entry's unit (it closes the entry, whatever part it follows), else the current or last unit."""
        if not links.cross_reference_line(line.strip()):
            return False
        entry = next((h.owner for h in reversed(self.headings) if h.entry and h.owner), None)
        unit = entry or self.current or self.last
        if unit is None:
            return False
        unit.related.append(trim(self.facts.text, pos, pos + len(line)))
        return True

    def _extend(self, target: list[tuple[int, int]], start: int, end: int) -> None:
        start, end = trim(self.facts.text, start, end)
        if start < end and target and self.facts.text[target[-1][1]:start] == "\n" and self.facts.text[start].islower():
            target[-1] = (target[-1][0], end)  # a wrapped line ("and Black)") joins its line: a list item's too
        elif start < end:
            target.append((start, end))


def _marks(reading: Reading) -> int:
    """Where the text of a line the markup marks as a heading ("#### Figure 3") starts past its marks; 0 when none
    marks it so."""
    return reading.marked.start("hash") if reading.marked and reading.marked.group("hash") else 0


def _ends_text(inside: str, label: str) -> bool:
    """Does rule `label` end the text of rule `inside` (a title line there is part of it): a rule under it, or its
    sibling; any rule after a chapter's own text ("22.0 Operational Intelligence:" is chapter 22's)?"""
    if labels.zeroed(inside):
        return True
    parent = labels.parent(inside)
    return labels.within(label, inside) or bool(parent) and labels.within(label, parent)


def _states_rights(lines: list[str]) -> bool:
    """Does a paragraph state the document's rights (a copyright, licence or trademark notice) on lines holding at
    least _BACK_MATTER_SHARE of its words, rather than carry a notice's line after its text?"""
    rights = sum(len(line.split()) for line in lines if RIGHTS.search(line))
    return rights > 0 and rights >= _BACK_MATTER_SHARE * sum(len(line.split()) for line in lines)
