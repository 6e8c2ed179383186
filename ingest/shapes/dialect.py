"""The outline dialect's lines: the shapes one line takes (a marked heading, a labelled item, a bullet, a title, a
sentence's end or question), a document's lines with their neighbours, and the heading a reader keeps open.

The outline reader (`outline`) and the readers of its concerns (`glossary`, `questions`, `steps`, `contents`) all
read lines through these, so that a line is a heading or an item the same way for each of them.
"""
from __future__ import annotations

import re
import string
from dataclasses import dataclass

from ingest import labels
from ingest.segment import HEADING_CONNECTORS, Block

# "## Golden Rules", "***GENERAL RULES": a heading the markup marks.
MARKED = re.compile(r"^(?:\*{2,}\s*(?P<star>[^*].*?)\s*\**|(?P<hashes>#{1,6})\s+(?P<hash>.+?))\s*$")
# "GENERAL RULES": a line in capitals, which may head a section.
CAPS_LINE = re.compile(r"^(?P<caps>[A-Z][A-Z0-9 :&/,'’-]{2,60}[A-Z0-9])$")
LONGEST_HEADING = 120
# A lettered part of a rule number: "103.2.a.1", "727.1.c.3.a".
_DOT_LETTER = r"\.[a-z](?![a-z])"
# A capital letter part: "6.A.1" (test cases, appendices numbered under a chapter).
_DOT_CAPITAL = r"\.[A-Z](?![A-Za-z])"
# An appendix's letter before its numbers: "B1.A.2" (rule A.2 of part 1 of appendix B).
_PREFIX = r"(?:[A-Z](?=\d))?"


# A decimal number's parts are taken possessively: else "1.1.1...1x" would be split between the two groups
# every way there is before failing. Its numbers are joined by the separators the document numbers with
# (`labels.separators`): "." always, "-" in a document numbered "1-2-1.".
# A document may letter a rule's subrules without a stop ("a If two abilities…" under "1.6 If an ability…"):
# then `bare` reads them.
def item_pattern(joints: str = ".", bare: bool = False) -> re.Pattern:
    """The pattern of a line's opening label (a decimal rule, a roman, plain or lettered item, "Q:", "A:",
    "Example:"), its numbers joined by `joints`, its subrules lettered without a stop when `bare`."""
    joint = "[" + re.escape(joints) + "]"
    letters = r"|(?P<bare>[a-z])\s+(?=[A-Z“\"(])" if bare else ""
    return re.compile(
        r"^\s*(?:"
        rf"(?P<decimal>{_PREFIX}\d+(?:(?:{joint}\d+)++[a-z]?|{_DOT_LETTER}|{_DOT_CAPITAL})"
        rf"(?:{joint}\d+|{_DOT_LETTER}|{_DOT_CAPITAL})*+)(?:\s?\((?P<sub>[a-z])\))?\.?\s+"
        r"|(?P<roman>(?=[ivx]{2})x{0,3}(?:ix|iv|v?i{0,3}))\.\s+"
        r"|(?P<number>\d{1,3}[a-z]?)(?:\.\)|[).])\s+"  # 3.  3)  3.)
        r"|\(?(?P<letter>[A-Za-z])\)\s+|(?P<dotted>[a-z])\.\s+"
        rf"{letters}"
        r"|(?P<question>Q(?:uestion)?\s*\d*\s*[:.)])\s*"
        r"|(?P<answer>A(?:nswer)?\s*\d*\s*[:.])\s*"
        r"|(?P<example>(?:EXAMPLES?|Examples?)(?:\s+(?:\d+|[A-Z]))?\s*:)\s*"
        r")"
    )


ITEM = item_pattern()
BULLET = re.compile(r"^\s*(?:[•◦▪‣∙●○■□►➢➤◊◆❖✓*–—-]|o(?=\s+[A-Z“\"(]))\s+")
# Small words a numbered title may have in lower case ("Playing the Game", "Playing or Activating Abilities").
TITLE_SMALL = frozenset(HEADING_CONNECTORS | {"or", "at", "by", "from", "as", "vs", "per", "into", "onto"})
# The number a heading gives the plain items under it: "Article 4: ...", "3 Movement", "A. Rapidplay".
_HEADING_NUMBER = re.compile(rf"^(?:{labels.KEYWORD_FORMS}\s+(?P<named>\d+(?:\.\d+)*)\b"
                             r"|\((?P<bracketed>\d{1,3}(?:\.\d+)+)\)(?=\s)"  # "(1.2) Duplicates"
                             r"|(?P<n>\d{1,3}(?:\.(?:\d+|[A-Za-z](?![A-Za-z])))*)(?=[.:)]?(?:\s|$))"
                             r"|(?P<letter>[A-Z])[.:](?=\s))")
TITLE_LINE = re.compile(r"^(?P<title>[\u2190-\u2bff]?[A-Z][\w'’&/ ,.()!–—-]{1,68}[\w)!](?:\s\[\w{1,8}\])?)$")
SENTENCE_END = re.compile(r"[.!?][”\"')\]]*(?:\s+\d+)?$")  # a page number may follow
ENDS_CLAUSE = re.compile(r"[.!?:;][”\"')\]]*$")
# "Can a unit retreat twice?": text whose first sentence asks.
ASKS = re.compile(r"^[^.!?]{3,}\?")
# "… still apply?", "… “Skip a turn”?": text whose last sentence asks.
ENDS_ASKING = re.compile(r"\?[”\"'’)\]]*$")
ASIDE = re.compile(r"\([^()]*\)")  # "(STER-ling)": a line wholly in parentheses
OPENS_SENTENCE = re.compile(r"[A-Z“\"‘'(]")


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


def heading_number(title: str) -> str | None:
    """The number a heading gives the plain items under it ("4" for "Article 4: ...", "A" for "A. Rapidplay")."""
    match = _HEADING_NUMBER.match(title.strip(" *#"))
    return match and (match.group("named") or match.group("bracketed") or match.group("n") or match.group("letter"))


def marked_heading(line: str) -> re.Match | None:
    """`line` (stripped) as a marked heading ("## Golden Rules"); a line too long for a heading is none (and
    is not matched: the heading pattern backtracks over long runs of spaces)."""
    return MARKED.match(line) if len(line) <= LONGEST_HEADING else None


def section_title(raw: str) -> str:
    """A heading's title as a section path shows it: its markup stripped, an ALL-CAPS title in title case."""
    raw = raw.strip(" *#:")
    if not raw.isupper() or len(raw) in (2, 3) and raw.isascii() and raw.isalpha():  # "XP", "LOS": no shouting
        return raw
    words = raw.split()
    return " ".join(word.lower() if index and word.lower() in HEADING_CONNECTORS else _capitalised(word)
                    for index, word in enumerate(words))


def _capitalised(word: str) -> str:
    return re.sub(r"[A-Za-z'’]+", lambda m: m.group().capitalize(), word.lower())
