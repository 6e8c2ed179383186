"""The outline dialect's lines as the builder uses them: a document's lines with their neighbours, whether a
title names a topic, a heading's title as a section shows it, and the heading a reader keeps open (the shapes one
line takes are the classifier's, `ingest.classify`).

The outline reader (`outline`), its facts and the readers of its concerns (`glossary`, `questions`, `steps`,
`top_numbering`) all read lines through these, so that a line is a heading or an item the same way for each.
"""
from __future__ import annotations

import string
from dataclasses import dataclass

from ingest.classify import HEADING_CONNECTORS, ITEM, NAVIGATION, TITLE_SMALL, capitalised
from ingest.segment import Block


@dataclass
class Heading:
    """A heading the reader keeps open, and what it has learnt about it."""
    level: int
    title: str          # as the section path shows it
    number: str | None  # what plain items under it are numbered after ("4" for Article 4)
    kind: str           # "marked" (#, ***), "caps", "numbered" or "titled"
    glossary: bool = False
    entry: bool = False  # a glossary entry's heading ("### Accuracy"): its text defines the term
    part: bool = False   # a sub-heading inside an entry ("#### Steps of an Attack"): a unit of the entry
    sibling: bool = False  # did a heading of its level close when it opened (one section among others)?
    holds_run: bool | None = None  # does it hold the alphabetical run of entries that follows it?
    owner: Block | None = None  # an entry's or part's unit, which its own text goes to (started on its first line)
    rule: bool = False   # numbered like a rule ("## 4.3 Main Phase") over its rules: its own text takes its number
    # The section path shown for it when it differs from its title: with its number, under the chapter it numbers
    # in the hundreds of ("3 Card Types", "305 Lands"); the ids keep its title, so they stay as they were.
    shown: tuple[str, ...] = ()
    afresh: bool = False  # numbered, its parts numbered from 1 on their own ("## 4." over "### 1. Unlock Phase")
    runs_on: int = 0  # where its own text begins in its line, when that runs on ("Rule 7.8 Kneeing is the act…")
    inside: str | None = None  # the rule a title line stands in the text of ("Monsoon Weather Effects" in rule 6.0's)
    # the markup sets a heading right under it ("### 3.1 Unit Attributes" / "#### 3.11 Nationality"): its parts are
    # those the markup sets under it, whatever their numbers say
    nests: bool = False


def numbered_lines(text: str):
    """Each line of `text` with the offset it starts at."""
    pos = 0
    for line in text.split("\n"):
        yield pos, line
        pos += len(line) + 1


def next_nonblank(lines: list[tuple[int, str]]) -> list[int | None]:
    """For each line, the index of the next non-blank line after it (None at the end)."""
    following: list[int | None] = [None] * len(lines)
    upcoming = None
    for index in range(len(lines) - 1, -1, -1):
        following[index] = upcoming
        if lines[index][1].strip():
            upcoming = index
    return following


def previous_nonblank(lines: list[tuple[int, str]]) -> list[int]:
    """For each line, the index of the last non-blank line before it (-1 at the start)."""
    preceding: list[int] = []
    last = -1
    for index, (_, line) in enumerate(lines):
        preceding.append(last)
        if line.strip():
            last = index
    return preceding


# What a topic's name may open with: a capital, a digit, a quotation mark or a parenthesis.
_TOPIC_OPENERS = string.ascii_uppercase + string.digits + "“\"'("
_WORD = 20  # the longest word looked at for small capitals
_GARBLED = 2  # capitals between small letters that make a title one set in small capitals (one is a name's: "McKay")


def names_a_topic(title: str) -> bool:
    """Is `title` the name of a topic ("Deck Construction", "Step 1: Finalize", "1v1 (Duel)") rather than a
    rule's sentence or a numbered step ("1. Activate the Ability"): a few title-case words (one lower-case word
    besides connectors), no final stop?"""
    words = title.split()
    if len(words) > 7 or title[-1] in ".,;:!?" or title[0] not in _TOPIC_OPENERS or ITEM.match(title):
        return False
    lower = [w for w in words if w.strip("“”\"'()")[:1].islower() and w.lower() not in TITLE_SMALL]
    return len(lower) <= 1


def indent_of(line: str) -> int:
    """How far `line` is indented."""
    return len(line) - len(line.lstrip())


def section_title(raw: str) -> str:
    """A heading's title as a section path shows it: its markup stripped, a link back to the index set on its line
    dropped, an ALL-CAPS title in title case."""
    raw = NAVIGATION.sub("", raw.strip(" *#:")).strip(" *#:")
    if _small_capitals(raw) >= _GARBLED:
        raw = raw.upper()  # "phAse 2: plAyer turns": small capitals whose text layer lowered some, read as capitals
    if not raw.isupper() or len(raw) in (2, 3) and raw.isascii() and raw.isalpha():  # "XP", "LOS": no shouting
        return raw
    if any(char.isalpha() and not char.isupper() for char in raw):  # letters without case ("カードQ&A"): none shouts
        return raw
    words = raw.split()
    return " ".join(word if not index and _roman_label(word)  # "II. RULES OF SPEECH" is part II's, no "Ii."
                    else word.lower() if index and word.lower() in HEADING_CONNECTORS else capitalised(word)
                    for index, word in enumerate(words))


def _small_capitals(title: str) -> int:
    """How often `title` shows a word set in small capitals that a PDF's text layer lowered but for some ("phAse",
    "AnAtomy"): a capital between small letters, in a word, not in words a conversion ran together
    ("KonstellationenderElo-Berechnung")."""
    return sum(a.islower() and b.isupper() and c.islower() for word in title.split() if len(word) <= _WORD
               for a, b, c in zip(word, word[1:], word[2:]))


def _roman_label(word: str) -> bool:
    """Is `word` a label in roman numerals, closed as labels are ("II.", "IV:", "XII)")?"""
    return len(word) > 1 and word[-1] in ".:)" and not word[:-1].strip("IVXLC")
