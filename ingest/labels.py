"""The label grammar: how a document numbers its units, whatever separators it numbers them with.

A label is a run of parts (numbers, letters, roman numerals) joined by a separator the document chooses: "702.11b",
"1-2-1", "6.A.1", "9f12c". What follows from a label follows from its parts, never from one typography: which
label it extends (its parent: "1-2-1" under "1-2", "702.11b" under "702.11"), which labels may come after it
(its first subrule, its next sibling, the next sibling of a label above it), and its order. Which separators a
document numbers with is read from the document itself (`separators`): a separator is the document's when enough
of its lines open with labels joined by it that follow one another as numbering does, so "2-4 players" opening
one line of a dotted rulebook is text, while "1-2-1." in a hyphenated one is a rule.
"""
from __future__ import annotations

import re
import string
from collections.abc import Iterable, Sequence
from itertools import groupby

# KEYWORDS and SECTION_WORDS: the words a label follows, which refs reads here.
from ingest.classify import (  # noqa: F401
    BARE_LETTER,
    CAPITAL_LETTER,
    INLINE_ITEM,
    KEYWORDS,
    LABEL_OPENING,
    LONE_LABEL,
    SECTION_WORDS,
    SENTENCE_LABEL,
    glued_label,
)

# The separators a label may join its parts with.
_JOINTS = ".-"
# How many lines must open with labels joined by a separator, following one another, for it to be the document's.
EVIDENCE = 5


def parts(label: str) -> list[str]:
    """The parts of a label in order: "702.11b" -> 702, 11, b; "1-2-1" -> 1, 2, 1; "9f12c" -> 9, f, 12, c."""
    return ["".join(run) for kind, run in groupby(label, _part_kind) if kind]


def _part_kind(char: str) -> str:
    """What part of a label `char` may belong to: a number, a letter, or none (a separator)."""
    return "number" if char.isdecimal() else "letter" if char in string.ascii_letters else ""


def key(label: str) -> tuple[int, ...]:
    """A label's order: its parts as numbers, a letter counting from a = 1 ("4.3b" -> 4, 3, 2)."""
    return tuple(int(part) if part.isdigit() else ord(letter.lower()) - 96
                 for part in parts(label) for letter in ([part] if part.isdigit() else part))


def separator(label: str) -> str:
    """The separator a label joins its numbers with ("-" for "1-2-1"), "." when it has none of its own."""
    return next((char for char in label if char in _JOINTS), ".")


def parent(label: str) -> str:
    """The label `label` extends, its last part and the separator before it cut off ("1-2" for "1-2-1",
    "702.11" for "702.11b", "9f12" for "9f12c"), or "" for a label of one part."""
    last = parts(label)[-1:]
    if not last or not label.endswith(last[0]):
        return ""
    head = label[:-len(last[0])]
    return head[:-1] if head.endswith(tuple(_JOINTS)) else head


def zeroed(number: str | None) -> bool:
    """Is `number` a chapter's number with a zero part ("7.0", "3-0", "4.00"), which its rules 7.1, 7.2 may sit
    under?"""
    _, joint, last = (number or "").replace("-", ".").rpartition(".")
    return bool(joint and last) and not last.strip("0")


def unzeroed(number: str) -> str:
    """The chapter a zeroed number (see `zeroed`) numbers: "7" for "7.0", "4" for "4.00"."""
    return number.rstrip("0")[:-1]


def within(label: str, outer: str | None, zero: bool = False) -> bool:
    """Does the numbering put `label` under `outer`, or is it `outer` (4.3.7 under 4.3, 702.11b under 702.11,
    1-2-1 under 1-2, never 4.30 under 4.3)? With `zero` (the markup sets `label` deeper), "3.0" is chapter 3,
    over 3.1; else "5.0 General" is 5.1's sibling."""
    while zero and label != outer and zeroed(outer):
        outer = unzeroed(outer)  # "## 3.0 Gameplay" over "### 3.1 Masteries" is chapter 3
    if not outer or not label.startswith(outer):
        return False
    rest = label[len(outer):]
    return not rest or rest[0] in ".-" or (rest.isalpha() and outer[-1].isdigit())


def follows(label: str, earlier: str) -> bool:
    """Does `label` come after `earlier` in the numbering (4.3.7 after 4.3.6, 5.1 after 4.3, 1-3 after 1-2-4)?"""
    return key(label) > key(earlier)


def successors(label: str) -> set[str]:
    """The labels that may come next after `label` when all its parts are numbers: its first subrule, numbered
    or lettered, its next sibling, or the next sibling of a label above it ("1.3" -> 1.3.1, 1.3a, 1.4, 2; "1-2" ->
    1-2-1, 1-2a, 1-3, 2); after a lettered subrule, the next letter or what follows its rule ("105.3a" -> 105.3b,
    105.4, 106)."""
    if len(label) > 1 and label[-1] in string.ascii_lowercase[:-1] and label[-2].isdigit():
        rule = label[:-1]
        return {rule + chr(ord(label[-1]) + 1)} | (successors(rule) - {rule + separator(rule) + "1", rule + "a"})
    joint = separator(label)
    numbers = label.split(joint)
    if not all(part.isdigit() for part in numbers):
        return set()
    return {f"{label}{joint}1", f"{label}a"} | {joint.join(numbers[:depth] + [str(int(numbers[depth]) + 1)])
                                                for depth in range(len(numbers))}


def separators(lines: Iterable[str]) -> str:
    """The separators the document numbers its units with: "." always, and each other separator ("-") when at
    least `EVIDENCE` lines open with numbers joined by it that follow on from a number before them (a next
    sibling, a first subrule, the next of a number above: "1-2-1." after "1-2.") rather than standing alone."""
    found: dict[str, list[str]] = {}
    for line in lines:
        match = LABEL_OPENING.match(line) if len(line) > 2 and line.lstrip()[:1] in "0123456789-*+•_" else None
        if match and len(set(match.group("label")) & set(_JOINTS)) == 1:  # not "1.2-3", a range or a date
            found.setdefault(separator(match.group("label")), []).append(match.group("label"))
    return "." + "".join(joint for joint, run in found.items() if joint != "." and chained(run) >= EVIDENCE)


def chained(found: Iterable[str]) -> int:
    """How many of the labels `found` (in document order) follow on from one before them: a next sibling, a
    first subrule, the next of a label above (see `successors`)."""
    seen: set[str] = set()
    count = 0
    for label in found:
        if seen and any(label in successors(earlier) for earlier in (parent(label), *_previous(label)) if earlier
                        and earlier in seen):
            count += 1
        seen.add(label)
    return count


def _previous(label: str) -> list[str]:
    """The labels `label` would directly follow: its previous sibling, or (a first subrule) its parent."""
    joint = separator(label)
    numbers = label.split(joint)
    if not numbers[-1].isdigit():
        return []
    if int(numbers[-1]) > 1:
        return [joint.join(numbers[:-1] + [str(int(numbers[-1]) - 1)])]
    return [parent(label)]


def glued(line: str, last: str, joint: str) -> int | None:
    """Where a label that a conversion glued onto the end of the previous unit's line starts in `line`
    ("…\\(See 2-3-5-4-1\\) 2-3-4-2. If “Pilot card”…", "5-1. Preparing a Deck 5-1-1. Before the game…"):
    a label joined by `joint` that may come next after `last` (see `successors`), closed by a full stop and
    followed by a capitalised word, past the line's own start (the first subrule of a successor too: "5.
    Preparing to Play 5-1. Preparing a Deck" after 4-19-2); None when there is none."""
    if not last:
        return None
    wanted = successors(last)
    wanted |= {f"{label}{joint}1" for label in wanted}  # "5-1" after "4-19-2", its chapter "5." glued before it
    # where "." joins the numbers, only after a finished sentence ("…specified. 9.4.2 Once an effect…"): a
    # reference to the next rule ("as in 9.4.2. Then…") follows no sentence's end
    for match in (SENTENCE_LABEL if joint == "." else glued_label(joint)).finditer(line):
        if match.group(1) in wanted and match.start() > 0:
            return match.start()
    return None


_FIRST_ITEMS = ("1", "A", "a")
# How many items, counting 1, 2, 3… (or A, B, C…, a, b, c…) along one line, make it a list run together.
_INLINE_RUN = 3


def run_together(line: str) -> list[int]:
    """Where the items of a list that a flattening ran into one line start, past the first ("1. Pick a
    Character - … 2. Token Tray - … 3. Player Board - …", "a. Resolve any… b. Flip… c. Resolve…"): the longest
    run of labels counting 1, 2, 3…, A, B, C… or a, b, c… along the line, `_INLINE_RUN` at least; [] when there
    is none; the first too when the line is an item the list nests under ("12. … a. … b. … c. …"). Linear in
    the labels on the line."""
    ends: dict[str, tuple] = {}  # label -> the run ending at its latest occurrence: (length, start, run before)
    best: tuple | None = None
    for match in INLINE_ITEM.finditer(line):
        label = match.group("label")
        before = None if label in _FIRST_ITEMS else ends.get(_previous_item(label))
        if label not in _FIRST_ITEMS and before is None:
            continue
        ends[label] = node = ((before[0] if before else 0) + 1, match.start(), before)
        if best is None or node[0] > best[0]:
            best = node
    found: list[int] = []
    while best is not None:
        found.append(best[1])
        best = best[2]
    if len(found) < _INLINE_RUN:
        return []
    starts = found[::-1]
    # "Loss priority if attacking: 1. BEF; 2. BEF Corps; 3. MEF/CAU.": a sentence's own list, its items parted as
    # a sentence parts them
    if all(line[a:b].rstrip().endswith((";", ",")) for a, b in zip(starts, starts[1:])):
        return []
    # The first item too when the line is an item of another kind it lists under ("12. Resolve… a. Resolve…").
    opening = INLINE_ITEM.match(line.lstrip())
    nested = opening and opening.group("label").isdigit() != line[starts[0]].isdigit()
    return starts if nested and starts[0] > 0 else starts[1:]


def _previous_item(label: str) -> str:
    return str(int(label) - 1) if label.isdigit() else chr(ord(label) - 1)


def unglue(lines: Sequence[tuple[int, str]], joint: str, opening: re.Pattern) -> list[tuple[int, str]]:
    """`lines` (start, text) with each line that runs a list's items together (see `run_together`) split at each
    item, and each line that carries a glued label (see `glued`) split in two where it starts; `opening` reads
    the label a line opens with (its group "decimal"), which the next must follow."""
    found: list[tuple[int, str]] = []
    last = ""
    for start, whole in lines:
        bounds = [0, *run_together(whole), len(whole)]
        for pos, line in ((start + a, whole[a:b]) for a, b in zip(bounds, bounds[1:])):
            while True:
                item = opening.match(line)
                if item and item.group("decimal"):
                    last = item.group("decimal")
                cut = glued(line, last, joint)
                if cut is None:
                    break
                found.append((pos, line[:cut].rstrip()))
                pos, line = pos + cut, line[cut:]
            found.append((pos, line))
    return found


def numeric(number: str | None) -> bool:
    """Is `number` a number ("4.3", "305", an appendix's "B.1.6"), not a letter ("A"), a code ("C01") or none?"""
    return bool(number) and (number[0].isdigit() or number[0].isupper() and number[1:2] in tuple(_JOINTS)
                             and number[2:3].isdigit())


def compound(number: str | None) -> bool:
    """Is `number` numbered like a rule, with parts ("4.3.6", "6.A.1"), not a chapter ("6") or a letter?"""
    return numeric(number) and any(char in _JOINTS for char in number)


def depth(number: str) -> int:
    """How many parts a label joins with separators ("4.3.6" -> 3, "1-2" -> 2, "702.11b" -> 2)."""
    return sum(char in _JOINTS for char in number) + 1


def in_hundreds(number: str, chapter: str) -> bool:
    """Is `number` a section in the hundreds of `chapter` ("305" of "3", "1204" of "12")?"""
    return number.isdigit() and chapter.isdigit() and len(number) == len(chapter) + 2 and number.startswith(chapter)


def alone(line: str, opening: re.Pattern) -> re.Match | None:
    """The item a label alone on its line opens ("1.4.6.", its text on the next lines), or None."""
    return opening.match(line.rstrip() + " ") if LONE_LABEL.match(line) else None


def printed_alone(lines: list[tuple[int, str]], opening: re.Pattern) -> bool:
    """Does the document print its rule labels alone on their lines ("1.4.6." over the rule's text)? At least
    `EVIDENCE` such labels, each following on from the one before (see `successors`)."""
    found = [item.group("decimal") for _, line in lines
             if (item := alone(line, opening)) and item.group("decimal")]
    return chained(found) >= EVIDENCE


_ROMAN_PARTS = frozenset(f"{numeral}." for numeral in ("II", "III", "IV", "VI", "VII", "VIII", "IX"))


def capital_letters(lines: list[tuple[int, str]]) -> bool:
    """Does the document letter a list in capitals with a stop ("A. Umpires are not required…" / "B. For repeated
    offenses…")? At least `EVIDENCE` lines, each a sentence of four words or more after the letter that comes next
    at its margin ("B" after "A"), a line further left starting the count again. A run of short titles ("A.
    Rapidplay" / "B. Blitz", a document's appendices) is no such list. Each list counted opens right under a
    decimal rule ("1.1. Unsportsmanlike conduct…" / "A. Umpires…") or a lead-in ending in a colon: under a roman
    part ("I. Divisions" / "A. The league…" / "1." / "a.") capitals and lower-case letters are two levels that one
    reading would confuse."""
    expected: dict[int, str] = {}  # margin -> the letter that comes next there
    found = 0
    romans = any(line.split(maxsplit=1)[0] in _ROMAN_PARTS for _, line in lines if line.strip())
    previous = ""
    for _, line in lines:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        for margin in [m for m in expected if m > indent]:
            del expected[margin]
        letter = CAPITAL_LETTER.match(line)
        # opening under a decimal rule, or under a lead-in ("…with the following exceptions:" / "A. Before…") in a
        # document numbering no part in roman, whose "I." a capital's reading would take for a letter
        first = letter is not None and letter.group(2) == "A" and (
            LABEL_OPENING.match(previous) is not None or previous.rstrip().endswith(":") and not romans)
        if letter and len(letter.group(3).split()) >= 4 and (first or letter.group(2) == expected.get(indent)):
            found += letter.group(2) != "A"
            expected[indent] = chr(ord(letter.group(2)) + 1)
        elif letter or previous.rstrip()[-1:] in ".!?:" and not line.lstrip()[:1].islower():
            expected.pop(indent, None)  # (an item's sentence a PDF wrapped back to its letter's margin goes on)
        previous = line
    return found >= EVIDENCE


def bare_letters(lines: list[tuple[int, str]], opening: re.Pattern) -> bool:
    """Does the document letter its rules' subrules without a stop ("a If two abilities…" under "1.6 …")? At
    least `EVIDENCE` lines opening with a letter and a capitalised word, each the letter that comes next
    under the numbered rule just above ("a" right after it, "b" right after "a")."""
    expected, found = "", 0
    for _, line in lines:
        if not line.strip():
            continue
        item = opening.match(line)
        letter = BARE_LETTER.match(line)
        if item and item.group("decimal"):
            expected = "a"
        elif letter and letter.group(1) == expected:
            found += 1
            expected = chr(ord(expected) + 1)
        else:
            expected = ""
    return found >= EVIDENCE
