"""The facts about a document in the outline dialect (the reader's first stage, docs/ingest.md, "The reader in
three stages"): its label grammar, its lines as read with it, the neighbours and upcoming numbers of each line, and
what the document does throughout (numbers its rules from the top, prints labels alone, sets a blank line between
all lines…). Computed once, before a line is cut, and frozen: the builder reads them and never writes them.
"""
from __future__ import annotations

import re
import string
from collections import Counter
from dataclasses import dataclass, field

from ingest import labels
from ingest.classify import (
    ASKS,
    BULLET,
    CODE_LABEL,
    INLINE_ASKS,
    INLINE_BULLET,
    KEYWORD_WORDS,
    LONGEST_HEADING,
    SENTENCE_BREAK,
    SENTENCE_END,
    STEP,
    Reading,
    colon_title,
    heading_asks,
    heading_number,
    item_pattern,
    names_a_value,
    run_in_heading,
    read_lines,
    rhetorical,
    title_words,
)
from ingest.formats import FENCE
from ingest.shapes.dialect import (
    indent_of,
    names_a_topic,
    next_nonblank,
    numbered_lines,
    previous_nonblank,
)

_SHORT_LINE = 0.8  # a line shorter than this share of the text's width ended there on purpose
_INLINE_QUESTIONS = 2  # how many bulleted questions make a line of them
_RUN = 3  # how many paragraphs in a row that ask and answer, or open with a name, make a list of them
_QUESTION_LINES = 3  # the most lines a question set on lines of its own runs over
_ANSWER_LINES = 16  # the most lines from one such question to the next in their run
# An alphabetical run of this many sibling headings, over this many letters, is a glossary's entries.
_ALPHABETICAL_RUN = 8
_ALPHABETICAL_LETTERS = 4
# How many lines a word must number, counting up from 1, to be the word the document numbers its steps after.
_STEPS = 3
# Labels over titles in a row, this many of them siblings, are a contents page; a title wraps over a few lines.
_CONTENTS_RUN = 3
_WRAPPED_TITLE = 3
_SIBLING_LINES = 200  # how far a numbered step's next sibling is looked for
_CODES = 3  # the fewest rules a manual prints under codes ("<C01>") for a code to read as a rule's label
_ANNOTATIONS = 2  # notes numbered with one word under the rules they cite, for that word to number notes
# Fewer than one marked heading in this many asking: the document's lone asking headings are titles, no questions.
_ASKING_SHARE = 10

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
    entries: dict[int, int]            # marked headings in an alphabetical run (a glossary's entries): its length
    sequenced: frozenset[int]          # headings numbered without a stop, counting 1, 2, 3… ("3 BASIC RULES")
    width: int                         # a full line's length: a line ending well short of it ended on purpose
    # Numbering its rules from the top (`103.` a rule as much as `103.2.a.1.`): plain numbers are its rules and
    # title lines, counting up through the document, never list items numbered after a heading.
    top_rules: bool
    lone: bool                         # printing its labels alone on their lines ("1.4.6." over its text)
    steps: frozenset[str]              # words it numbers its steps after ("STEP 7-PLACE…"), folded
    listed: frozenset[int]             # the labels of a contents page ("1.2." over "The Golden Rules")
    spaced_out: bool                   # a blank line between all lines (as some PDFs read)
    # Its headings marked ("## Rules"): a markup's text, whose readers set a list item's paragraphs indented under
    # it, so a paragraph back at the list's margin after a blank line is no part of the list.
    marked: bool = False
    # Paragraphs that ask and answer ("Can I gain a Mastery in Scenario 0? No. Scenario 0 is…"), where the document
    # has several: an FAQ's questions set in bold, the bold lost.
    answered: frozenset[int] = frozenset()
    # Paragraphs opening with the name of what they are about ("Claws: The morph has…", "Scenario 8 - The number
    # should be 65"), in a run of such paragraphs: a list of named things (weapons, errata by card), each named.
    named: dict[int, str] = field(default_factory=dict)
    # Notes numbered under the rules they cite ("Interpretation 1  Rule 7.1 (a)"), and the lines that head a run of
    # them ("INTERPRETATIONS", True): headings under the rule they sit in.
    annotations: dict[int, bool] = field(default_factory=dict)
    # Every decimal rule number and chapter number the document prints ("5.1" of "5.1 Main Competition"), with the
    # least margin it is printed at.
    printed: dict[str, int] = field(default_factory=dict)
    coded: dict[int, tuple[str, int]] = field(default_factory=dict)  # line -> (its rule's code, where its text starts)
    # Decimal labels opening more than one line: a contents page's entry left over, then the rule itself.
    twice: frozenset[str] = frozenset()
    # Marked headings titled with a question in a rules text ("### Why Succeed on a Failed Roll?"): headings.
    titles_asking: frozenset[int] = frozenset()
    # Names closed by a colon alone on their lines ("Setup:", "Day Structure:") over what they name, where a text
    # without marked headings sets `_RUN` or more so: its headings.
    colon_titles: frozenset[int] = frozenset()

    def line(self, index: int) -> str:
        """The text of line `index`."""
        return self.lines[index][1]

    def parts_paragraphs(self, index: int) -> bool:
        """Does the blank line at `index` part paragraphs? Never inside a sentence: after a line that wraps (see
        `wraps`) onto a line carrying it on in lower case, or in the middle of a list ("…System Seizure and" /
        "Gebrselassie to clarify…"); in text with a blank line between all lines, only after a paragraph's last
        line: a finished sentence ending short of the text's width (or an aside)."""
        previous = self.preceding[index]
        before = self.line(previous).strip() if previous >= 0 else ""
        if before and self.wraps(previous) and (self.carried_on(previous) or self.readings[previous].goes_on):
            return False
        return not self.spaced_out or not before or self.readings[previous].aside or (
            self.readings[previous].ends_sentence and len(self.line(previous).rstrip()) < _SHORT_LINE * self.width)

    def wraps(self, index: int) -> bool:
        """Does line `index` run to the text's width without ending a clause, its sentence wrapping onto the next
        line ("…now that terms like "using"" / "and "instruction" are used…")? A heading ends short."""
        return len(self.line(index).rstrip()) >= _SHORT_LINE * self.width and not self.readings[index].ends_clause

    def mid_sentence(self, index: int) -> bool:
        """Is line `index` words set on a line of their own inside a sentence, as PDFs set a term in capitals
        ("A" / "ZONE" / "is a place…"): the line above it (past blank lines) ends no clause, and the line
        below carries the sentence on?"""
        previous = self.preceding[index]
        return previous >= 0 and not self.readings[previous].ends_clause and self.carried_on(index)

    def ends_sentence_above(self, index: int) -> bool:
        """Is the label alone on line `index` the last word of the sentence above, wrapped onto a line of its own
        ("…See section" / "6." / "c.")? The line above (past blank lines) wraps (see `wraps`: a heading over a
        label ends short), and the label has no text of its own: the next line opens a label too, or there is
        none."""
        previous, following = self.preceding[index], self.following[index]
        return previous >= 0 and self.wraps(previous) and (
            following is None or self.readings[following].item is not None
            or self.readings[following].lone)

    def carried_on(self, index: int) -> bool:
        """Does the next line carry the sentence of line `index` on ("Section 9.1.6" / "details the cases…",
        "FLAVOR TEXT" / ", and has no effect…")?"""
        following = self.following[index]
        opening = self.line(following).lstrip()[:1] if following is not None else ""
        return bool(opening) and (opening.islower() or opening in ",;:).")

    def numbered_under(self, index: int, number: str, zero: bool = False) -> bool:
        """Is the next rule numbered after line `index` (see `numbers`) one numbered under `number`, deeper than
        it (4.1 after "4. Combat"; with `zero`, 6.1 after "6.0 Weather")?"""
        return under(self.numbers[index] or "", number, zero=zero)

    def following_item(self, index: int) -> re.Match | None:
        """The label the next line not blank after line `index` opens with, if any."""
        following = self.following[index]
        return None if following is None else self.readings[following].item

    def heads_rules(self, index: int, number: str, zero: bool = False) -> bool:
        """Is the decimal line at `index` followed by rules numbered under it (`zero` as `numbered_under` takes it),
        or by questions?"""
        following = self.following_item(index)
        return bool(following and following.group("question")) or self.numbered_under(index, number, zero)

    def stands_empty(self, index: int, number: str) -> bool:
        """Is the decimal title at `index` ("5.0 General") a heading with nothing under it: followed by a heading
        or by a rule the numbering puts after it, not under it ("5.1 ..."), at a shallower level ("2.3 Scoring" /
        "3.1 …"), or over its next sibling when in capitals ("1.10 COSTS" / "1.11 Some abilities…"), printed
        again (a contents page's entry left over) or a section ("6.1 Structure of the Game" / "6.2 …")? Else a
        title three levels deep right over its next sibling ("3.1.3. Shuffling (rotational cam operated legs)" /
        "3.1.4. …") is a short rule of a list, no heading."""
        following = self.following[index]
        if following is None:
            return False
        reading = self.readings[following]
        later = reading.item and reading.item.group("decimal")
        title = self.readings[index].decimal
        return bool(reading.marked or reading.chapter()
                    or later and not labels.within(later, number) and labels.follows(later, number)
                    and (labels.zeroed(number) or labels.depth(later) < labels.depth(number) or number in self.twice
                         or labels.depth(number) < 3 or bool(title) and title.group("title").isupper()))

    def nests_right_under(self, index: int, level: int) -> bool:
        """Is the line after the marked heading at `index` (at `level`) a heading the markup sets deeper?"""
        following = self.following[index]
        marked = self.readings[following].marked if following is not None else None
        return marked is not None and len(marked.group("hashes") or "#") > level

    def has_parts(self, index: int, number: str | None, level: int) -> bool:
        """Do rules numbered under the marked heading at `index` (numbered `number`, at `level`), questions, or
        headings under it, follow before its next sibling heading?"""
        for later in range(index + 1, len(self.lines)):
            marked, item = self.readings[later].marked, self.readings[later].item
            if marked:
                inner = heading_number(marked.group("star") or marked.group("hash"))
                deeper = len(marked.group("hashes") or "#") > level
                if labels.numeric(inner) and labels.numeric(number):
                    # the markup nests it right under ("### 3.1 Unit Attributes" / "#### 3.11 Nationality", a
                    # numbering whose third level drops its stop), or deeper as the first of parts counted afresh
                    # ("## 9.7 Land Battles" / "### 1. Battle Preparations"): a part, whatever the numbers say
                    return under(inner, number, zero=deeper) or self.nests_right_under(index, level) or (
                        deeper and inner == "1" and number != "1")
                return deeper
            inner = item and item.group("decimal")
            if item and item.group("question") or inner and under(inner, number):
                return True
            if not item and labels.numeric(number) and (later in self.answered
                                                         or ASKS.match(self.lines[later][1].strip())):
                return True  # "### 3.1 Masteries" over its questions: a numbered FAQ's section
        return False

    def among_steps(self, index: int, number: str, indent: int) -> bool:
        """Is the numbered item at `index` followed, before the next heading and within a few lines, by its next
        sibling (the next number at its indentation), and does that sibling not ask?"""
        if not number.isdigit():
            return False
        for later in range(index + 1, min(index + _SIBLING_LINES, len(self.lines))):
            line, item = self.line(later), self.readings[later].item
            if self.readings[later].marked:
                return False
            if item and item.group("number") and indent_of(line) == indent:  # the list's next item decides
                return item.group("number") == str(int(number) + 1) and not ASKS.match(line[item.end():])
        return False


def under(label: str, outer: str | None, zero: bool = False) -> bool:
    """Does the numbering put `label` under `outer`, deeper than it (4.1 under "4. Combat"), never its namesake
    ("## 5. Ending the Game" is no part of "### 5. Discard Phase")? `zero` as `labels.within` takes it."""
    return labels.within(label, outer, zero=zero) and label != outer


def document_facts(text: str) -> Facts:
    """The facts of `text`, a document in the outline dialect."""
    lines = list(numbered_lines(text))
    # The document's own numbering: the separators its labels join numbers with, and the lines it numbers.
    joints = labels.separators(line for _, line in lines)
    item = item_pattern(joints)
    lines = labels.unglue(lines, joints[-1], item)
    lines, inline_asked = split_asked(lines)
    bare, capitals = labels.bare_letters(lines, item), labels.capital_letters(lines)
    if bare or capitals:
        item = item_pattern(joints, bare=bare, capitals=capitals)
    code = _fenced(lines)
    lines = [(pos, FENCE if index in code else line) for index, (pos, line) in enumerate(lines)]
    readings = read_lines(lines, item)
    following = next_nonblank(lines)
    numbers, printed = _numbering(lines, readings, item)
    lone = labels.printed_alone(lines, item)
    lengths = sorted(len(line.rstrip()) for _, line in lines if line.strip())
    decimals = Counter(reading.item.group("decimal") for reading in readings if reading.item)
    return Facts(
        text=text, item=item, lines=tuple(lines), code=code, inline_asked=frozenset(inline_asked),
        readings=tuple(readings), following=tuple(following), preceding=tuple(previous_nonblank(lines)),
        numbers=tuple(numbers), entries=alphabetical_headings(lines, readings),
        sequenced=frozenset(_sequenced_headings(lines, readings, numbers)),
        width=lengths[int(0.9 * (len(lengths) - 1))] if lengths else 0,
        top_rules=numbers_rules_from_the_top(readings, numbers), lone=lone, steps=frozenset(stepped(lines)),
        listed=frozenset(contents_pairs(lines, readings, following) if lone else ()),
        spaced_out=_spaced_out(lines, readings), marked=any(reading.marked for reading in readings),
        answered=_answered(lines, readings) | _asked_on_lines(lines, readings), named=_named(lines, readings),
        printed=printed, coded=_coded(lines),
        twice=frozenset(label for label, count in decimals.items() if label and count > 1),
        annotations=_annotations(lines, readings, following), titles_asking=_titles_asking(readings),
        colon_titles=_colon_titles(lines, readings, following))


def _colon_titles(lines: list[Line], readings: list[Reading], following: list[int | None]) -> frozenset[int]:
    """The lines naming what follows by a short name and a colon (`classify.colon_title`), after a blank line or a
    finished sentence, over a line opening a sentence or an item, where the document sets `_RUN` or more so and
    marks, numbers or capitalises no heading otherwise: a plain text's section headings ("Setup:" over "At the start
    of the game:" and its steps)."""
    if any(reading.marked or reading.caps or reading.keyword or reading.decimal for reading in readings):
        return frozenset()
    found = []
    for index, (_, line) in enumerate(lines):
        reading, below = readings[index], following[index]
        if reading.item or reading.bullet or below is None or not colon_title(line.strip()):
            continue
        above = lines[index - 1][1].strip() if index else ""
        opens = readings[below].item or readings[below].bullet or lines[below][1].strip()[:1].isupper()
        if opens and (not above or readings[index - 1].ends_sentence or colon_title(above)):
            found.append(index)
    # a name said again and again is a label leading each ("Old text:" / "New text:" over each card's errata)
    names = {index: " ".join(lines[index][1].split()).casefold() for index in found}
    said = Counter(names.values())
    found = [index for index in found if said[names[index]] == 1]
    return frozenset(found) if len(found) >= _RUN else frozenset()


def _titles_asking(readings: list[Reading]) -> frozenset[int]:
    """The marked headings that ask as a rules text's titles do ("Why QuestWorlds?", "> #### Twist or Failure?"):
    where fewer than one heading in `_ASKING_SHARE` asks, those whose neighbouring headings do not ask. An FAQ's
    question headings come in runs, and an FAQ at a rulebook's end is a run of them."""
    marked = [(index, heading_asks(reading.marked)) for index, reading in enumerate(readings) if reading.marked]
    asking = [at for at, (_, asks) in enumerate(marked) if asks]
    if len(asking) * _ASKING_SHARE >= len(marked):
        return frozenset()
    return frozenset(marked[at][0] for at in asking
                     if not (at and marked[at - 1][1]) and not (at + 1 < len(marked) and marked[at + 1][1]))


def _annotations(lines: list[Line], readings: list[Reading], following: list[int | None]) -> dict[int, bool]:
    """The lines that are notes numbered under the rules they cite, where the document numbers at least
    `_ANNOTATIONS` with one word (not a keyword numbering sections and rules), and (True) the lines in capitals
    naming that word that stand over the first of a run ("INTERPRETATIONS" over "Interpretation 1  Rule 7.1 (a)")."""
    words = Counter(reading.annotation.group("word") for reading in readings if reading.annotation)
    notes = {index for index, reading in enumerate(readings) if reading.annotation
             and words[word := reading.annotation.group("word")] >= _ANNOTATIONS
             and word.casefold() not in KEYWORD_WORDS}
    groups = {index for index, reading in enumerate(readings)
              if reading.caps and following[index] == index + 1 and index + 1 in notes
              and readings[index + 1].annotation.group("word").upper() in lines[index][1].upper()}
    return {index: index in groups for index in notes | groups}


def _coded(lines: list[Line]) -> dict[int, tuple[str, int]]:
    """Line index -> (code, where its text starts) of the rules a manual prints under codes ("<C01> Teams must…",
    "G201 ROBOTS may not…"), each code's first printing: where the document opens at least `_CODES` lines with codes
    of one form (twice as many bare ones, which a grid's squares or a model's names could be), mostly distinct,
    each run of letters numbering two of them on average ("C01", "C02", "RG01"…)."""
    found: dict[bool, dict[int, tuple[str, int]]] = {False: {}, True: {}}
    for index, (_, line) in enumerate(lines):
        if (match := CODE_LABEL.match(line)) and not (match.group("bare") and names_a_topic(line[match.end():].strip())):
            # a bare code over a topic's name heads it ("B1. Components of the Misconduct System" over "B1.A …")
            code = match.group("angled") or match.group("square") or match.group("bare")
            found[match.group("bare") is not None][index] = (code, match.end())
    coded: dict[int, tuple[str, int]] = {}
    for bare, group in found.items():
        codes = [code for code, _ in group.values()]
        letters = Counter(code.rstrip(string.digits) for code in codes)
        if len(codes) >= _CODES * (1 + bare) and len(set(codes)) >= 0.8 * len(codes) and len(letters) * 2 <= len(codes):
            first: dict[str, tuple[int, int]] = {}  # a code -> (its first line, where its text starts there)
            for index, (code, end) in group.items():
                first.setdefault(code, (index, end))
            coded |= {index: (code, end) for code, (index, end) in first.items()}
    return coded


def _answered(lines: list[Line], readings: list[Reading]) -> frozenset[int]:
    """The paragraphs whose first or second sentence asks and that answer it after ("Can I…? No. Scenario 0 is…",
    "I cannot find tile 8. Am I missing a board? No - …"), in runs (see `_runs`): an FAQ whose questions were set
    in bold, the bold lost."""
    def answers(line: str) -> bool:
        asked = ASKS.match(line)
        if asked is None and (stop := SENTENCE_BREAK.search(line)):
            rest = line[stop.end():].lstrip()
            asked, line = ASKS.match(rest), rest
        return asked is not None and bool(line[asked.end():].strip())
    return frozenset(_runs(lines, readings, answers, across_headings=True))


def _asked_on_lines(lines: list[Line], readings: list[Reading]) -> frozenset[int]:
    """The lines opening a question set on lines of its own (at most `_QUESTION_LINES`, after a finished sentence,
    ending a line asking) and answered on the next line ("…never diagonal." / "Can militia do _____?" / "No. The only
    thing…"), in runs of `_RUN` or more with no blank line, each within `_ANSWER_LINES` of the last: an FAQ a PDF set
    with its bold questions' bold and the space between them lost."""
    def asked(index: int) -> bool:
        if not readings[index].opens_sentence or index and lines[index - 1][1].strip() and not (
                readings[index - 1].ends_sentence):
            return False
        for end in range(index, min(index + _QUESTION_LINES, len(lines) - 1)):
            reading = readings[end]
            if not lines[end][1].strip() or reading.item or reading.bullet or reading.marked:
                return False
            if reading.ends_asking:
                return not rhetorical(lines[end][1]) and readings[end + 1].opens_sentence \
                    and not readings[end + 1].ends_asking
            if reading.ends_sentence:
                return False
        return False

    found, run = [], []
    for index, (_, line) in enumerate(lines):
        # a blank line ends a run: where paragraphs are spaced, a question opens one (`_answered`)
        if not line.strip() or run and index - run[-1] > _ANSWER_LINES:
            found, run = found + (run if len(run) >= _RUN else []), []
        if line.strip() and asked(index):
            run.append(index)
    return frozenset(found + (run if len(run) >= _RUN else []))


def _named(lines: list[Line], readings: list[Reading]) -> dict[int, str]:
    """Line index -> the run-in name a paragraph opens with ("Claws: The morph has…", "Scenario 8 - The number
    should be 65"), for the paragraphs of each run (see `_runs`): a list of named things, each a unit. A word
    opening `_RUN` of them or more names nothing: it leads each ("Score: If a player plays a card…"); nor does a
    name over a value alone ("Armor: 1/2", a unit's profile)."""
    named = {index: run_in_heading(lines[index][1]) for index in _runs(lines, readings, run_in_heading)}
    named |= {index: run_in_heading(lines[index][1][readings[index].bullet.end():])
              for index in _named_bullets(lines, readings)}
    counts = Counter(name.casefold() for name in named.values())
    return {index: name for index, name in named.items()
            if counts[name.casefold()] < _RUN and not names_a_value(lines[index][1], name)}


def _named_bullets(lines: list[Line], readings: list[Reading]) -> list[int]:
    """The bullets of a list, at its margin, that each open with a run-in name ("- Relays: You have mobile…",
    a markdown "**Relays:**" its bold gone), in runs of `_RUN` or more in a row: a section's parts, each a unit
    named so. A bullet indented under one is part of it; any other line ends the run."""
    found: list[int] = []
    run: list[int] = []
    margin: int | None = None
    for index, (_, line) in enumerate(lines):
        if not line.strip():
            continue  # a loose list's blank lines
        bullet = readings[index].bullet
        if bullet is not None and margin is not None and indent_of(line) > margin:
            continue
        if bullet is not None and run_in_heading(line[bullet.end():]):
            margin = indent_of(line) if margin is None else margin
            run.append(index)
            continue
        found += run if len(run) >= _RUN else []
        run, margin = [], (indent_of(line) if bullet is not None else None)
    return found + (run if len(run) >= _RUN else [])


def _runs(lines: list[Line], readings: list[Reading], opens, across_headings: bool = False) -> list[int]:
    """The paragraphs (each after a blank line; no item, bullet or heading) whose stripped line `opens` says yes
    to, in runs of `_RUN` or more with no other paragraph (and unless `across_headings`, no heading) between
    them, unless a paragraph ending in a colon leads into the run (then it is that paragraph's list)."""
    found: list[int] = []
    run: list[int] = []
    led = False
    for index, (_, line) in enumerate(lines):
        stripped = line.strip()
        if not stripped or index and lines[index - 1][1].strip() or readings[index].marked and across_headings:
            continue
        if not (readings[index].item or readings[index].bullet) and opens(stripped) and (run or not led):
            run.append(index)
            continue
        found += run if len(run) >= _RUN else []
        run, led = [], stripped.endswith(":")
    return found + (run if len(run) >= _RUN else [])


def _spaced_out(lines: list[Line], readings: list[Reading]) -> bool:
    """Does a blank line stand between nearly all lines of the text, lines that mostly wrap a sentence (a PDF
    whose reader set one after each line), so that blank lines do not part paragraphs? (Paragraphs of a line
    each end their sentences.)"""
    text = [index for index, (_, line) in enumerate(lines[:-1]) if line.strip()]
    # Of the lines of running text (no heading, item or bullet: a markdown page's headings end no sentence either)
    plain = [index for index in text if not (readings[index].marked or readings[index].item or readings[index].bullet)]
    return (len(text) >= 50 and sum(not lines[index + 1][1].strip() for index in text) >= 0.9 * len(text)
            and sum(readings[index].ends_sentence for index in plain) <= 0.6 * len(plain))


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


def _sequenced_headings(lines: list[Line], readings: list[Reading], numbers: list[str | None]) -> set[int]:
    """Indices of headings numbered without a stop ("3 BASIC RULES and what you can do"), whatever their case:
    short lines set apart (after a blank line or a finished passage, over text) whose numbers count 1, 2, 3…
    through the document, three at least, or from a heading over its own first rule ("2 Hráči a postavy" /
    "2.1", or the next rule numbered under it, its text between), its chapter 1 the last "1 Title" before it, so
    that a chapter with no rules numbered under it ("4 Frakce" between chapters 3 and 5) still heads its text. A
    caption's count ("1 Summary", "30 Destination Tickets") keeps no such sequence."""
    chains: dict[int, list[int]] = {}  # number -> the longest chain of headings counting up to it
    first = None  # the last "1 Title" over text, whatever is above it
    for index, (_, line) in enumerate(lines):
        bare = readings[index].bare()
        if not bare or len(bare.group("title").split()) > 10:
            continue
        above = lines[index - 1][1].strip() if index else ""
        below = lines[index + 1][1].strip() if index + 1 < len(lines) else ""
        number = int(bare.group("n"))
        if not below or readings[index + 1].bare():
            continue
        first = index if number == 1 else first
        # Over its own first rule ("1 Game Boundaries" / "1.1 This version…", or its text between) it heads,
        # whatever is above it (a date line, a contents page's last entry, the document's title).
        heads = below.startswith(f"{number}.1 ") or under(numbers[index] or "", str(number))
        if above and not (readings[index - 1].ends_clause or BULLET.match(above) or heads):
            continue
        if number == 1 or number - 1 in chains or heads:
            chains[number] = chains.get(number - 1, []) + [index] if number > 1 else [index]
    longest = max(chains.values(), key=len, default=[])
    # Chapters counting from 2 have their chapter 1 before them, whatever is above it (a running head's scrap
    # left over the contents: "Obsah HF" / "1 Úvod").
    if longest and first is not None and first < longest[0] and readings[longest[0]].bare().group("n") == "2":
        longest = [first, *longest]
    return set(longest) if len(longest) >= 3 else set()


def _numbering(lines: list[Line], readings: list[Reading], item: re.Pattern) -> tuple[list[str | None], dict[str, int]]:
    """For each line, the number of the next decimal rule or numbered chapter after it (None when none follows);
    and each such number the document prints, or a marked heading's ("### 6.1. Character Build"), with the least
    margin of a line printing it (a rule's: past the first line, where it becomes the next number of the line
    above)."""
    numbers: list[str | None] = [None] * len(lines)
    printed: dict[str, int] = {}
    upcoming = None
    for index in range(len(lines) - 1, -1, -1):
        numbers[index] = upcoming
        line = lines[index][1]
        label = labels.alone(line, item) or item.match(line)
        chapter = readings[index].chapter() if len(line) <= 2 * LONGEST_HEADING else None
        number = label.group("decimal") if label and label.group("decimal") else chapter.group("n") if chapter else None
        if number and index and number != upcoming:
            printed[number] = min(printed.get(number, indent_of(line)), indent_of(line))
        upcoming = number or upcoming
    for reading in readings:
        if reading.marked and (number := heading_number(reading.marked.group("star") or reading.marked.group("hash"))):
            printed[number] = 0
    return numbers, printed


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


def alphabetical_headings(lines: list[tuple[int, str]], readings: list[Reading]) -> dict[int, int]:
    """Indices of marked headings ("### Accuracy") that are entries of an alphabetical glossary, each with the
    length of its run: a run of sibling headings whose first letters never go back, long enough not to be
    chance, and not lettered in order ("A. Definitions", "B. Equipment": sections, their letters their numbers)."""
    found: dict[int, int] = {}
    # level -> the run of its headings open so far: each one's index, first letter and whether it opens with a label
    runs: dict[int, list[tuple[int, str, bool]]] = {}

    def close(level: int) -> None:
        run = runs.pop(level, [])
        if len(run) >= _ALPHABETICAL_RUN and len({letter for _, letter, _ in run}) >= _ALPHABETICAL_LETTERS \
                and 2 * sum(labelled for *_, labelled in run) < len(run):
            found.update((index, len(run)) for index, *_ in run)

    for index, (_, line) in enumerate(lines):
        marked = readings[index].marked if line[:1] in "#*" else None
        if not marked:
            continue
        level = len(marked.group("hashes") or "#")
        for deeper in [at for at in runs if at > level]:
            close(deeper)
        name = marked.group("star") or marked.group("hash")
        letter = next((c for c in name.casefold() if c.isalpha()), "")
        run = runs.get(level, [])
        if run and (not letter or letter < run[-1][1]):
            close(level)
        if letter:
            runs.setdefault(level, []).append((index, letter, bool(heading_number(name))))
    for level in list(runs):
        close(level)
    return found


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
            if count >= _STEPS and word not in KEYWORD_WORDS}


def numbers_rules_from_the_top(readings: list[Reading], numbers: list[str | None]) -> bool:
    """Does the document number its rules from the top level, "103." a rule as much as "103.2.a."? Then its
    plain numbers count up through the whole document, many of them are rules (a sentence, not a title) and
    many are followed by their own subrules ("103." then "103.1."): not a list restarting at 1 under each
    heading, nor a few chapters."""
    tops = [(index, match) for index, reading in enumerate(readings) if (match := reading.top())]
    if len(tops) < 20:
        return False
    values = [int(match.group("n")) for _, match in tops]
    ascending = sum(later > earlier for earlier, later in zip(values, values[1:]))
    sentences = sum(bool(SENTENCE_END.search(match.group("title"))) for _, match in tops)
    parents = sum((numbers[index] or "").startswith(match.group("n") + ".") for index, match in tops)
    return ascending >= 0.9 * (len(tops) - 1) and sentences >= 0.25 * len(tops) and parents >= 0.1 * len(tops)


def contents_pairs(lines: list[tuple[int, str]], readings: list[Reading], following: list[int | None]) -> set[int]:
    """Indices of the label lines of a contents page laid out as a label alone on its line over its title ("1.2."
    then "The Golden Rules"): runs of such pairs with nothing between them, numbered on from one to the next,
    that list siblings (1.1 then 1.2) `_CONTENTS_RUN` times at least, or that the document's numbering starts
    again after, from the run's first label ("1." "Basics" … "2.1." "Goods", then "1." "Basics"). A chapter,
    its first section and its first rule opening with a short phrase ("4." "Game Zones", "4.1." "Zones",
    "4.1.1." "A" / "ZONE" / "is a…") each sit under the one before: the document's own headings, no contents."""
    found: set[int] = set()
    run: list[tuple[int, str]] = []

    def close(restarted: bool = False) -> None:
        siblings = sum(not labels.within(later, earlier) for (_, earlier), (_, later) in zip(run, run[1:]))
        if siblings >= _CONTENTS_RUN or restarted and len(run) >= _CONTENTS_RUN:
            found.update(index for index, _ in run)
        run.clear()

    index = next((i for i, (_, line) in enumerate(lines) if line.strip()), None)
    while index is not None:
        title = following[index]
        if (readings[index].lone and title is not None and not readings[title].lone
                and names_a_topic(lines[title][1].strip())):
            label = lines[index][1].strip().rstrip(".")
            if run and not labels.follows(label, run[-1][1]):
                # the numbering starts again: the contents ended, and the document's own chapters begin
                close(restarted=label == run[0][1])
            run.append((index, label))
            index = following[title]
            for _ in range(_WRAPPED_TITLE):  # "Steps of Triggering / and Resolving a Conditional / Ability"
                if index is None or not title_words(lines[index][1]):
                    break
                index = following[index]
            continue
        close()
        index = following[index]
    close()
    return found
