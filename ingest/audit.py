"""A structure audit: the cut measured against the document it was cut from, never against outside facts.

Whatever the numbering scheme, a document shows its labels at the start of its lines ("1.4.6.", "**1-2-1.**",
"- 9f12c", "Rule 7.4 (b)", "a."). The audit reads those lines and asks how many of them became a unit or a
heading carrying that label; which invariants every cut keeps it breaks (ingest.invariants); how many
refs are counts where the document numbers its units; how many refs collide with a number the document
gives; and whether the glossary holds as many entries as the document shows term/definition pairs. Every
pattern here is linear (bounded or possessive repetitions): documents run to thousands of rules and some are
hostile.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ingest import invariants
from ingest.classify import LABEL_PARTS, LETTERS, aside
from ingest.classify.checks import (
    CONTENTS_TAIL,
    GLOSSARY_HEADING,
    HEADING_TITLE,
    LABEL_WORD,
    PAGE_AT_END,
    SHOWN_LABEL,
    SHOWN_NUMBER,
    TERM_INLINE,
    TERM_LINE,
)
from ingest.refs import PARAGRAPH, colliding, counted, ruling_refs
from model.kinds import HEADER_KINDS, TERM_KINDS

# Past these the audit calls the cut poor: the share of numbered lines read, of units with ordinal refs where
# the document numbers them, of glossary pairs read as entries (any broken invariant is poor whatever its count).
READ_FLOOR = 0.9
ORDINAL_CEILING = 0.1
NUMBERED_PART = 0.25
GLOSSARY_FLOOR = 0.8
# Too few numbered lines (or pairs) say nothing about a scheme: a list of steps in a prose rulebook.
MIN_LINES = 20
MIN_PAIRS = 10
MIN_HEADINGS = 3  # numbered headings: fewer could be a numbered list set as lines
EXAMPLES = 5

_TAIL = 100  # a contents entry's leaders and page number are at its end: searching only there keeps it linear
HEADING_WORDS = 8


def label_of(line: str) -> str:
    """The label `line` opens with (after markup, an introducing word), as printed, or "": a bare number with
    nothing after it ("12") is a page number or a count, and "1st" is a word."""
    match = SHOWN_LABEL.match(line)
    if not match:
        return ""
    label = match.group("label")
    number = label.rstrip(".)")
    return "" if number.endswith(("st", "nd", "rd", "th")) and number[-3:-2].isdecimal() else label


def key(label: str) -> tuple[str, ...]:
    """A label's parts, whatever joins them: "1-2-1." and "1.2.1" are (1, 2, 1), "Rule 7.4 (b)" and "7.4b"
    are (7, 4, b), "9f12c" is (9, f, 12, c)."""
    label = LABEL_WORD.sub("", label.strip())
    return tuple(part.lower() for part in LABEL_PARTS.findall(label))


_FAQ_MARKS = 3  # questions marked "Q." that make the "Q." and "A." of a document marks, not labels


def numbered_lines(text: str) -> list[tuple[int, str, str]]:
    """(line number, label, line) for each line of `text` that opens with a label (`label_of`), but for table
    rows and contents entries (dot leaders, or a short title ending in its page number)."""
    found = []
    lines = text.split("\n")
    # "Q." and "A." are an FAQ's marks of a question and its answer, no numbering, where questions are so marked
    marks = sum(label_of(line).rstrip(".:)") == "Q" for line in lines) >= _FAQ_MARKS
    for number, line in enumerate(lines, start=1):
        if line.lstrip().startswith("|") or line.count("\t") >= 2:
            continue
        label = label_of(line)
        if not label or marks and label.rstrip(".:)") in ("Q", "A"):
            continue
        rest = line[line.find(label) + len(label):].strip(" \t*:")
        if CONTENTS_TAIL.search(line[-_TAIL:]) or rest and len(rest.split()) <= 8 and PAGE_AT_END.search(rest) \
                and not rest[0].islower():
            continue
        found.append((number, label, line.strip()))
    return found


def _suffixes(parts: tuple[str, ...]) -> Iterable[tuple[str, ...]]:
    """(7, 5, 11, b), (5, 11, b), (11, b), (b): a rule numbered within its chapter carries its short label."""
    return (parts[i:] for i in range(len(parts)))


def _carried(units: Sequence, refs: dict[str, str] | None) -> Counter:
    """How many units or headings carry each label key (as their label, ref or heading number, whole or as
    their last parts; a number units are numbered under counts as a heading once). A count the document does
    not give (an ordinal) carries nothing, and neither does a unit that is its label alone (its text cut away
    from it)."""
    ordinals = {r.id for r in counted(units)}
    carried: Counter = Counter()
    headings: set[tuple[str, ...]] = set()
    above: set[tuple[str, ...]] = set()  # the numbers units are numbered under: "7" and "7.4" of "7.4.b"
    for unit in units:
        section = tuple(unit.section.split(" > "))
        headings.update(section[:i + 1] for i in range(len(section)))
        if unit.kind in HEADER_KINDS | TERM_KINDS or unit.id in ordinals \
                or not LETTERS.search(unit.text.replace(unit.label, "", 1)):
            continue
        own = {key(unit.label)} | ({key(refs[unit.id].partition(" ")[2])} if refs else set())
        carried.update({suffix for parts in own for suffix in _suffixes(parts) if suffix})
        above.update(parts[:i] for parts in own for i in range(1, len(parts)))
    carried.update(above)  # a heading's number, once, however many units it has under it
    for path in headings:
        # A heading shown with its number before its title ("1 The Deck" for "1) The Deck") prints that number.
        label = label_of(path[-1]) or (found.group(1) if (found := SHOWN_NUMBER.match(path[-1])) else "")
        if label:
            carried.update(set(_suffixes(key(label))) - {()})
    return carried


def _said(text: str, unit) -> str:
    """What a unit says: a ruling's text, a block's pieces of `text`."""
    return unit.text if hasattr(unit, "text") else " ".join(text[start:end] for start, end in unit.pieces)


class _Unit(NamedTuple):
    """A block of a shape as the ruling it would become, for what `refs.counted` reads of a ruling."""

    id: str
    section: str
    label: str
    title: str
    kind: str
    text: str


def as_units(text: str, blocks: Sequence) -> list[_Unit]:
    """The blocks a shape cut from `text` as rulings-to-be, to audit a shape before its rulings are made."""
    return [_Unit(str(n), " > ".join(b.section), b.label, b.title, b.kind, _said(text, b))
            for n, b in enumerate(blocks)]


def numbering(text: str, units: Sequence, refs: dict[str, str] | None = None) -> dict:
    """How much of the document's numbering the cut read: its numbered lines (`numbered_lines`), how many
    of them became a unit or heading carrying the label (matched by label key, as often as the document
    prints it), and the first lines that did not. `units` are rulings (with `refs`, ruling id -> ref) or
    blocks `as_units`."""
    lines = numbered_lines(text)
    carried = _carried(units, refs)
    missed, headings, headings_missed = [], 0, 0
    for number, label, line in lines:
        parts = key(label)
        heading = _numbered_heading(line, label)
        headings += heading
        if carried[parts] > 0:
            carried[parts] -= 1
        else:
            missed.append((number, line[:60]))
            headings_missed += heading
    read = len(lines) - len(missed)
    return {"lines": len(lines), "read": read, "share": round(read / len(lines), 3) if lines else 1.0,
            "missed": [{"line": n, "text": t} for n, t in missed[:EXAMPLES]],
            "headings": headings, "headings_read": headings - headings_missed}


def _numbered_heading(line: str, label: str) -> bool:
    """Does `line` head what follows with its number ("1) The Deck", "## 3. Scoring"): a short capitalised
    title after the label, ending in no sentence's stop? A step ("1. Draw two cards.") is a sentence."""
    rest = line[line.find(label) + len(label):].strip(" \t*#_")
    return bool(HEADING_TITLE.match(rest)) and len(rest.split()) <= HEADING_WORDS


def glossary_pairs(text: str) -> int:
    """Term/definition pairs the document shows after its last glossary heading (one in a contents list is
    followed by another), until a heading of that level or above or a line numbered in parts (a rule of the
    document's own hierarchy): a short term line over its definition, or "Term: definition" on one line."""
    pairs, level, term = 0, None, False
    for line in text.split("\n"):
        stripped = line.strip()
        if not stripped:
            continue
        hashes = len(stripped) - len(stripped.lstrip("#"))
        heading = hashes if hashes <= 6 and stripped[hashes:hashes + 1] in (" ", "\t") else 0  # "## Terms": 2
        if GLOSSARY_HEADING.match(stripped):
            pairs, level, term = 0, heading or 7, False
            continue
        if level is None or aside(stripped):  # a wrapped definition's reference, "(6.3.2)", numbers nothing
            continue
        if heading and heading <= level or len(key(label_of(stripped))) > 1:
            level = None
        elif TERM_INLINE.match(stripped) or term and len(stripped.split()) >= 4:
            pairs, term = pairs + 1, False
        else:
            term = bool(TERM_LINE.match(stripped)) and len(stripped.split()) <= 6
    return pairs


def audit(text: str, rulings: Sequence, original: str | None = None, *, title: str = "", file_name: str = "",
          game_name: str = "") -> dict:
    """The structure audit of `rulings` cut from `text` (the cleaned document): see the module docstring.
    Returns plain data: numbered (lines, read, share, missed), long, ordinals, colliding, glossary (entries,
    pairs), the invariants every cut keeps (ingest.invariants: name, what, count, examples; checked against
    `original`, the file as read, with the source's `title`, `file_name` and `game_name`), the problems found
    (worst first, each with a count and examples; every invariant broken is one) and a verdict, "good" only
    when there is none, else "poor: <why>". Missed lines are numbered as in `original` where they can be found
    there, else as in `text`."""
    refs = ruling_refs(list(rulings), _ABBREV)
    units = [r for r in rulings if r.kind not in HEADER_KINDS]
    found = numbering(text, rulings, refs)
    if original is not None:
        found["missed"] = _in_original(original, found["missed"])
    kept = invariants.check(invariants.Cut(text if original is None else original, rulings,
                                           {id_: _ref(refs, r) for r in rulings for id_ in [r.id]},
                                           title, file_name, game_name, text))
    long = next(i for i in kept if i["name"] == "long")
    # The document numbers its units when it prints a label for a good part of them (a cut that split it
    # into lines has more units than the document has).
    numbers_units = found["lines"] >= max(MIN_LINES, NUMBERED_PART * len(units))
    counts = counted(list(rulings))
    # A paragraph the document leaves unnumbered, referred to by its place (`refs.PARAGRAPH`), is no ordinal.
    ordinals = [r for r in counts if r.kind != "question" and PARAGRAPH not in refs[r.id]] if numbers_units else []
    clashes = colliding(list(rulings), refs, _ABBREV)
    entries = sum(r.kind in TERM_KINDS for r in rulings)
    # Pairs as the document shows them: a reader that ran a glossary's lines into one paragraph (a hard-wrapped
    # dump in markdown) leaves the cleaned text fewer, so the file's own lines count too.
    pairs = max(glossary_pairs(text), glossary_pairs(original) if original is not None else 0)
    problems = []
    if found["lines"] >= MIN_LINES and found["share"] < READ_FLOOR:
        kind, most = Counter(r.kind for r in rulings).most_common(1)[0]
        problems.append({"what": f"could not read the numbering of {found['lines'] - found['read']:,} of "
                                 f"{found['lines']:,} numbered lines",
                         "share": 1 - found["share"],
                         "examples": [f"line {m['line']} {m['text']!r}" for m in found["missed"]],
                         "instead": f"the rulings are mostly {kind} ({most:,} of {len(rulings):,}), "
                                    f"{len(counts):,} with ordinal refs"})
    # A few numbered headings say what a numbered list of steps does not: each heads a part the document
    # cites by its number ("1) The Deck"), so a cut that names the part only by its title loses the number.
    if found["lines"] < MIN_LINES and found["headings"] >= MIN_HEADINGS \
            and found["headings_read"] < READ_FLOOR * found["headings"]:
        problems.append({"what": f"cited {found['headings'] - found['headings_read']:,} of {found['headings']:,} "
                                 "numbered headings without their number",
                         "share": 1 - found["headings_read"] / found["headings"],
                         "examples": [f"line {m['line']} {m['text']!r}" for m in found["missed"]]})
    if units and len(ordinals) > ORDINAL_CEILING * len(units):
        problems.append({"what": f"{len(ordinals):,} of {len(units):,} units have ordinal refs where the document "
                                 "numbers its units", "share": len(ordinals) / len(units),
                         "examples": [_ref(refs, r) for r in ordinals[:EXAMPLES]]})
    if clashes:
        problems.append({"what": f"{len(clashes):,} refs are another unit's number", "share": len(clashes) / len(units),
                         "examples": [refs[i].partition(" ")[2] for i in clashes[:EXAMPLES]]})
    if pairs >= MIN_PAIRS and entries < GLOSSARY_FLOOR * pairs:
        problems.append({"what": f"{entries:,} glossary entries for {pairs:,} term/definition pairs",
                         "share": 1 - entries / pairs, "examples": []})
    problems.sort(key=lambda p: -p["share"])
    problems += [{"what": f"{i['count']:,} {i['what']} ({i['name']})", "share": i["count"] / max(len(units), 1),
                  "examples": i["examples"]} for i in kept if i["count"]]
    return {"numbered": found, "long": long["count"], "ordinals": len(ordinals), "colliding": len(clashes),
            "glossary": {"entries": entries, "pairs": pairs}, "invariants": kept, "problems": problems,
            "verdict": "poor: " + "; ".join(p["what"] for p in problems) if problems else "good"}


_ABBREV = "_"


def _ref(refs: dict[str, str], ruling) -> str:
    return refs[ruling.id].partition(" ")[2]


def _in_original(original: str, missed: list[dict]) -> list[dict]:
    """The missed lines numbered as in `original`: each found after the one before (they come in order);
    one not found there keeps its number in the cleaned text."""
    at, placed = 0, []
    for item in missed:
        found = original.find(item["text"], at)
        if found >= 0:
            at = found + len(item["text"])
            item = {**item, "line": original.count("\n", 0, found) + 1}
        placed.append(item)
    return placed
