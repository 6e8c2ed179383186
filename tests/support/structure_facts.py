"""Structure measured against facts a careful reader wrote down (issue 30): each document of
../shared/corpora/structure/ (its `<name>.facts.toml`) and the Magic comprehensive rules
(benchmarks/structure_facts/), added as a new user adds it (`rulings add FILE --game G`, nothing else) to a
copy of a small database, then compared with its facts. Used by tests/test_structure_facts.py and
benchmarks/structure.py; never shipped.

Labels. A document's label is read the way a reader reads it: after markdown bullets, bold and heading marks,
HTML tags and list glyphs, an optional word ("Rule", "Law", "Article", "Section", "§"), then a number in
parts ("1-2-1.", "702.19b", "9f12c", "ST.3", "(1.2)", "7.1 (c) iv.", "Interpretation 2 Rule 7.4 (b)") or a
letter or roman numeral closed by "." or ")" ("a.", "iv.", "(b)"), or a lower-case letter before a capitalised word
("a If two abilities…", a subrule lettered without a stop). A label's *canonical form* (`canonical`)
drops the introducing word, a trailing "." or ")" and enclosing parentheses, lower-cases, and writes every
other break between parts (spaces, parentheses, a digit meeting a letter) as "."; hyphens are kept, so
"1-2-1." is "1-2-1" and never "1.2.1", while "7.4 (b)", "7.4b" and "7.4.b" are all "7.4.b". A ref *carries*
a label (`carries`) when its part after the source's abbreviation, in canonical form, is the label's or
ends with "." and the label's: "Lorcana 4.3.6.1" carries "4.3.6.1."; "AL2 (1.2)" and "AL2 1.2" carry
"(1.2)"; "Netrunner 1.4.6a" carries "a." (a sub-rule the document prints as "a." under 1.4.6); "Mtg 55"
carries nothing of a glossary entry.

A unit's *own label* is the label the document prints where the unit starts: just before the unit's first
character on its line, at that character, or on the line above when that line is the label alone (a PDF's
"1.4.6." over its text) or the label and the unit's title (a heading over the unit's text, whole when wrapped
over lines); for a unit opening an item of an HTML ordered list, the number a browser prints for it ("3.").
"""
from __future__ import annotations

import html
import re
import shutil
import sqlite3
import tomllib
import unicodedata
from collections import Counter
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from tempfile import TemporaryDirectory

from support import CORPORA, ROOT
from training.corpus import READ_SECONDS, without_vectors

STRUCTURE = CORPORA / "structure"
OWN_FACTS = ROOT / "benchmarks" / "structure_facts"  # facts written here for corpus documents without any
LONG_WORDS = 300
GLOSSARY_TOLERANCE = 0.02
NUMBERED_TARGET = 0.95
HEADER_KINDS = ("title", "front-matter", "changelog")  # numbered apart ("front 2") by design

# Markup before a line's label: spaces, HTML tags, markdown bullets, heading marks, bold/italic marks,
# escapes, and the glyphs PDF and text dumps leave for bullets ("•", "?", "ï").
_MARKUP = r"(?:\s|<[^>]*>|[-*+•●▪◦?ï](?=\s)|#{1,6}(?=\s)|\*\*|__|\\)*"
_WORD = r"(?:rule|law|article|section|step|§)"  # "STEP 1-DETERMINE SPEAKER" numbers its step too
# 1-2-1, 702.19b, 9f12c, ST.3, and outlines that letter a level of their own: 3.A.1.a, B1.A.2 (a prefix without a
# stop only in capitals: "e4" is a square, never a label).
_NUMBER = r"(?:(?-i:[A-Z]{1,3})\.?|[A-Z]{1,3}\.)?\d+(?:[.\-](?:\d+|[a-z]{1,2}(?![a-z])))*(?:[a-z]\d*)*"
_LETTER = r"(?:[ivxlc]{1,6}|[IVXLC]{1,6}|[a-zA-Z])"
# A part after a number: "(b)", " iv." ("7.1 (c) iv.").
_AFTER = rf"(?:\s*\([0-9a-zA-Z]{{1,4}}\))*(?:\s+[ivxlc]{{1,6}}\.(?=\s|$))?"
_CORE = (rf"(?:\(\s*(?:{_NUMBER}|{_LETTER})\s*\)"  # (1.2), (b)
         rf"|{_NUMBER}{_AFTER}(?:\.\)|[.)])?"  # 3.  3)  3.)
         rf"|{_LETTER}[.)]"  # a.  iv.  B)
         r"|(?-i:[a-z](?=[\t ]+(?:[A-Z\"“(]|$))))")  # a subrule lettered without a stop: "a If two abilities…"
# (in lower case whatever the pattern's flags: "A character may…" opens a sentence, not subrule "a")
_LABEL = re.compile(
    rf"(?P<label>(?:interpretation\s+\d+\s+)?(?:{_WORD}\s*)?{_CORE})(?=\s|$|\*|<|[:\-–—])", re.IGNORECASE)
_LEADING = re.compile(rf"^{_MARKUP}{_LABEL.pattern}", re.IGNORECASE)
_BARE = re.compile(r"\d+")  # a bare number opening a line ("7", "1 ABILITIES") is a page or a count, not a label


def _label_at(text: str) -> str:
    """The label opening `text` (after markup), as printed, or "": a bare number without "." or ")" after
    it is not one unless a word introduces it ("Rule 7")."""
    match = _LEADING.match(text)
    if not match:
        return ""
    label = match.group("label").strip()
    return "" if _BARE.fullmatch(label) else label


def canonical(label: str) -> str:
    """The label as compared (see the module docstring): "1-2-1." → "1-2-1", "(1.2)" → "1.2", "7.1 (c) iv."
    → "7.1.c.iv", "Rule 7.4" → "7.4", "1.4.6a" → "1.4.6.a", "9f12c" → "9.f.12.c"."""
    text = unicodedata.normalize("NFKC", label).lower()
    text = re.sub(rf"(?<!\w){_WORD}(?!\w)", " ", text)
    text = re.sub(r"(?<=\d)(?=[a-z])|(?<=[a-z])(?=\d)", ".", text)
    text = re.sub(r"[\s()]+", ".", text)
    return re.sub(r"\.{2,}", ".", text).strip(".")


def carries(tail: str, label: str) -> bool:
    """Whether a ref's part after its abbreviation shows `label` (see the module docstring); a paragraph of a
    labelled heading's own text ("9 ¶1" under "9) Running Total…") shows the heading's label."""
    ref, own = canonical(re.sub(r"\s+¶\d+$", "", tail)), canonical(label)
    return bool(own) and (ref == own or ref.endswith("." + own))


def is_label(text: str) -> bool:
    """Whether `text` is all a label (a sample's "1-2-2-1", "(1.2)", "12b", "5", "B"), not a term or a
    question."""
    text = text.strip()
    return bool(_BARE.fullmatch(text)) or bool(_LEADING.fullmatch(text)) or bool(
        re.fullmatch(rf"{_NUMBER}{_AFTER}", text))


def shape(label: str) -> str:
    """The numbering style of a label, whatever its depth: digits "9", letter runs "a"/"A", a leading word
    "K": "1-2-2-1." → "9-9.", "305.2b" → "9.9a", "1.4.6." → "9.9.", "(1.1)" → "(9.9)", "Rule 7.4" → "K9.9",
    "iv." → "a."."""
    text = unicodedata.normalize("NFKC", label).strip()
    word = re.match(rf"{_WORD}\s*", text, re.IGNORECASE)
    text = re.sub(r"[a-z]+", "a", re.sub(r"[A-Z]+", "A", re.sub(r"\d+", "9", text[word.end() if word else 0:])))
    text = ("K" if word else "") + text
    text = re.sub(r"9([.\-])9(?:[.\-]9)*", r"9\g<1>9", text)
    return re.sub(r"(?:9a)+", "9a", re.sub(r"\s+", " ", text))


def normal(text: str) -> str:
    """Text as compared: NFKC, one kind of quote, no markdown emphasis or escapes, single spaces, case-folded."""
    text = unicodedata.normalize("NFKC", text or "")
    text = text.translate(str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-"}))
    text = re.sub(r"[*_`\\]", "", text)
    return " ".join(text.split()).casefold()


@dataclass(frozen=True)
class Sample:
    """A unit the facts name: the document's own label, its parent's label ("" at top level), first words."""

    label: str
    parent: str
    starts: str


@dataclass(frozen=True)
class Facts:
    """What a careful reader sees in one document (a `<name>.facts.toml`)."""

    name: str
    document: Path
    title: str
    game: str
    format: str
    numbering: str
    numbered_units: int
    glossary_terms: int
    qa_pairs: int
    samples: tuple[Sample, ...]

    def styles(self) -> frozenset[str]:
        """The shapes of the document's numbering: of its samples' labels and the labels its `numbering` quotes
        (but those of a clause it says are "not counted")."""
        examples = [s.label for s in self.samples if is_label(s.label)]
        counted = ";".join(c for c in self.numbering.split(";") if "not counted" not in c)
        for a, b in re.findall(r"'([^']+)'|`([^`]+)`", counted):
            text = a or b
            if re.fullmatch(r"[a-z]", text):  # "'a'/'b'": subrules lettered without a stop
                examples.append(text)
            while label := _label_at(text):  # every label the example opens with: "12. a." is two
                examples.append(label)
                text = text[text.index(label) + len(label):]
        return frozenset(map(shape, examples))


def facts_files() -> list[Path]:
    """Every facts file: the structure corpus's (when ../shared is beside the clone), then ours."""
    found = sorted(STRUCTURE.glob("*.facts.toml")) if STRUCTURE.is_dir() else []
    return found + sorted(OWN_FACTS.glob("*.facts.toml"))


def load_facts(path: Path) -> Facts:
    """The facts of one file; the document is the file of the same name beside it, else in ../shared/corpora."""
    data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    name = Path(path).name.removesuffix(".facts.toml")
    beside = [p for folder in (Path(path).parent, CORPORA) for p in sorted(folder.glob(f"{name}.*"))
              if not p.name.endswith((".toml", ".py"))]
    if not beside:
        raise FileNotFoundError(f"no document {name}.* beside {path} or in {CORPORA}")
    samples = tuple(Sample(s["label"], s["parent"], s["starts"]) for s in data.get("sample", []))
    return Facts(name, beside[0], data["title"], data["game"], data["format"], data["numbering"],
                 data["numbered_units"], data["glossary_terms"], data["qa_pairs"], samples)


def add(facts: Facts, base: Path, folder: Path, *, vectors: bool = True) -> Path:
    """A copy of database `base` in `folder` with the document added as `rulings add FILE --game G` adds it
    (no title, no shape); its path. `vectors=False` skips the embedding model (structure is unchanged). The
    read's time limit is raised (READ_SECONDS): this measures structure, not speed."""
    return added(facts, base, folder, vectors=vectors)[0]


_ADDED: dict[tuple, tuple[Path, dict]] = {}  # (document, game, base, vectors) → (the database kept, its report)
_KEPT: list[TemporaryDirectory] = []  # where those databases are kept, made at the first add


def added(facts: Facts, base: Path, folder: Path, *, vectors: bool = True) -> tuple[Path, dict]:
    """`add`, and the ingest report. A document is ingested once per process: asked again (same game, base and
    vectors), its database is copied from the first time's, kept apart, so each caller has its own copy."""
    from kb.build import add_document
    from ingest.limits import from_environment
    path = Path(folder) / f"{facts.name}.db"
    key = (Path(facts.document).resolve(), facts.game, Path(base).resolve(), vectors)
    if key not in _ADDED:
        shutil.copy(base, path)
        limits = replace(from_environment(), seconds=READ_SECONDS)
        with nullcontext() if vectors else without_vectors():
            report = add_document(path, facts.document, facts.game, limits=limits)
        _KEPT[:] = _KEPT or [TemporaryDirectory(prefix="structure-added-")]
        kept = Path(_KEPT[0].name) / f"{len(_ADDED)}-{facts.name}.db"
        shutil.copy(path, kept)
        _ADDED[key] = (kept, report)
        return path, report
    kept, report = _ADDED[key]
    shutil.copy(kept, path)
    return path, report


@dataclass
class Unit:
    """A stored ruling with what the measures need: the part of its ref after the abbreviation (`tail`), its
    parent ruling's tail and title, and the label the document prints where it starts (`own`)."""

    ref: str
    tail: str
    kind: str
    title: str
    text: str
    section: str
    parent_tail: str
    parent_title: str
    own: str
    char_start: int
    char_end: int


@dataclass
class SampleResult:
    """One sample: whether a unit has its label, parent and first words; else the closest unit and what it
    lacks."""

    sample: Sample
    found: bool
    closest: str = ""
    lacks: tuple[str, ...] = ()


@dataclass
class Measured:
    """One document measured against its facts (see `measure`)."""

    facts: Facts
    title: str
    units: int
    numbered: int  # units and headings whose ref carries their own label of the document's style
    glossary: int
    qa: int
    long: int  # units over LONG_WORDS words whose document paragraph is not that long
    long_excused: int  # units over LONG_WORDS words that are one paragraph of the document
    ordinals: int
    collisions: int
    samples: list[SampleResult] = field(default_factory=list)
    examples: dict[str, list[str]] = field(default_factory=dict)  # a few refs behind each count

    @property
    def numbered_share(self) -> float | None:
        """Share of the facts' numbered units found (None when the document numbers none)."""
        total = self.facts.numbered_units
        return min(self.numbered, total) / total if total else None

    @property
    def samples_found(self) -> int:
        """How many of the facts' samples a unit matches."""
        return sum(result.found for result in self.samples)

    @property
    def title_matches(self) -> bool:
        """The facts' title is the stored title, or whole words of it (a generic title joined with the game's
        name: "Slay the Spire Rulebook" holds "Rulebook")."""
        want, got = normal(self.facts.title), normal(self.title)
        return want == got or bool(re.search(rf"(?<!\w){re.escape(want)}(?!\w)", got))


def _units(conn: sqlite3.Connection, game: str) -> tuple[dict, list[Unit]]:
    source = conn.execute("select id, abbrev, title, original_text from sources where game = ? order by rowid",
                          [game]).fetchall()
    if len(source) != 1:
        raise ValueError(f"game {game!r} has {len(source)} sources; measure one document per database")
    source_id, abbrev, title, original = source[0]
    rows = conn.execute(
        "select r.ref, r.kind, r.title, r.text, r.section, p.ref, p.title, r.char_start, r.char_end "
        "from rulings r left join rulings p on p.id = r.parent where r.source = ? order by r.position",
        [source_id]).fetchall()

    def tail(ref: str | None) -> str:
        return (ref or "")[len(abbrev) + 1:] if (ref or "").startswith(abbrev + " ") else ref or ""
    units = [Unit(ref, tail(ref), kind, title or "", text or "", section or "", tail(parent), parent_title or "",
                  _own_label(original, start or 0, title or ""), start or 0, end or 0)
             for ref, kind, title, text, section, parent, parent_title, start, end in rows]
    return {"title": title, "original": original}, units


def _own_label(original: str, start: int, title: str) -> str:
    """The label the document prints where a unit starts (see the module docstring), or "": also a heading's
    on the line above when the unit's title is the heading's ("<h3>1.1 Mythos phase begins.</h3>" over the
    text of unit "Mythos phase begins.")."""
    line_start = original.rfind("\n", 0, start) + 1
    before = original[max(line_start, start - 80):start]  # a label just before the text is short
    # after a space, a tag or bold marks (the window may cut a long tag short)
    match = re.search(rf"(?:^|(?<=[\s>*])){_LABEL.pattern}{_MARKUP}$", before, re.IGNORECASE)
    if match and not _BARE.fullmatch(match.group("label")):
        return _rendered(original, line_start, match.group("label").strip())
    if re.sub(r"<[^>]*>", "", before).strip():  # words before the unit on its line: no label of its own,
        # unless they are its label and title ("STEP 1-DETERMINE SPEAKER: Randomly determine…")
        label = _label_at(before)
        rest = normal(re.sub(r"<[^>]*>", " ", before)).removeprefix(normal(label)).strip(" :.-")
        return label if label and title and rest == normal(title).strip(" :.-") else ""
    if item := _list_number(original, start):
        return item
    # the last line before, blank lines and lines of tags only ("</h4>") skipped
    before_lines = original[max(0, line_start - 2000):line_start].split("\n")
    running = _running_lines(original)
    at = next((n for n in range(len(before_lines) - 1, -1, -1) if re.sub(r"<[^>]*>", "", before_lines[n]).strip()
               and _unpaged(before_lines[n]) not in running), -1)
    above = before_lines[at] if at >= 0 else ""
    if re.search(r"</h[1-6]>\s*$", above) and not re.search(r"<h[1-6]\b", above):
        # a heading wrapped over lines ("<h4>(2.5) References to … in Game" / "Areas</h4>"): read whole
        start = next((n for n in range(at, -1, -1) if re.search(r"<h[1-6]\b", before_lines[n])), at)
        above = " ".join(before_lines[start:at + 1])
    label = _label_at(above)
    rest = normal(html.unescape(re.sub(r"<[^>]*>", " ", above))).removeprefix(normal(label)).strip()
    if label and rest == "":  # a label alone over the text ("2.4.2." over "Section 1.16 details…")
        return label
    return _label_at(original[start:start + 80]) or (label if label and rest == normal(title) else "")


def _rendered(original: str, line_start: int, label: str) -> str:
    """The number markdown shows for an ordered item written "1." after sibling items written "1." too (a list
    typed "1." for every item is shown 1, 2, 3); any other label as printed."""
    if label != "1.":
        return label
    line = original[line_start:original.find("\n", line_start) % (len(original) + 1)]
    indent = len(line) - len(line.lstrip())
    shown = 1
    for above in reversed(original[max(0, line_start - 20_000):line_start].split("\n")[:-1]):
        margin = len(above) - len(above.lstrip())
        if not above.strip() or margin > indent:
            continue  # a blank line or an item's continuation
        if margin < indent or not re.match(r"\s*\d{1,3}\.\s", above):
            break
        shown += 1
    return f"{shown}."


@cache
def _running_lines(original: str) -> frozenset[str]:
    """A print's running heads and feet: lines printed on three pages or more, the same but for a page number at
    their end ("11/28/26, 9:49 PM Pluck Rules", "file:///…/rules.html 2/3"). A reader looking for the label over a
    unit passes over them (a heading ending one page, its text opening the next)."""
    counts = Counter(_unpaged(line) for line in original.split("\n"))
    return frozenset(line for line, n in counts.items() if n >= 3 and len(line) > 12)


def _unpaged(line: str) -> str:
    return _PAGE_AT_END.sub("#", line.strip())


_PAGE_AT_END = re.compile(r"\d+(?:\s*/\s*\d+)?$")


_LIST_TAG = re.compile(r"<(/?)(ol|ul|li)\b([^>]*)>", re.IGNORECASE)


def _list_number(original: str, start: int) -> str:
    """The number a browser prints for an HTML ordered list's item a unit opens ("3." for the third `<li>` of
    an `<ol>`, after its `start`), or "" when the unit opens no such item."""
    opening = original.rfind("<li", 0, start)
    if opening < 0 or re.sub(r"<[^>]*>", "", original[opening:start]).strip():
        return ""
    depth = count = 0
    for tag in reversed(list(_LIST_TAG.finditer(original, max(0, opening - 50_000), original.find(">", opening) + 1))):
        closing, name = tag.group(1), tag.group(2).lower()
        if name == "li":
            count += not closing and depth == 0
        elif closing:
            depth += 1
        elif depth:
            depth -= 1
        else:
            first = re.search(r"start\s*=\s*[\"']?(-?\d+)", tag.group(3))
            return f"{(int(first.group(1)) if first else 1) + count - 1}." if name == "ol" else ""
    return ""


def _document_labels(original: str, styles: frozenset[str]) -> list[str]:
    """The labels of the document's numbering style opening its lines."""
    return [label for line in original.split("\n") if (label := _label_at(line)) and shape(label) in styles]


def _paragraph_words(original: str, start: int, end: int) -> int:
    """Words in the longest paragraph of the document within [start, end): paragraphs end at blank lines,
    HTML block tags, and (for dumps that put a page on one line) a sentence followed by a run of spaces or a
    bullet. An approximation of "the document's own paragraph is that long"."""
    span = original[start:end]
    pieces = re.split(r"\n\s*\n|<(?:/?(?:p|li|h\d|div|tr|td|ul|ol)\b|br)[^>]*>|(?<=[.!?:])\s{3,}|•", span)
    return max((len(re.sub(r"<[^>]*>", " ", piece).split()) for piece in pieces), default=0)


def _has_label(unit: Unit, label: str) -> bool:
    """A numbered label is carried by the ref; a term is the title (after a number the title may open with,
    before a note in parentheses: "1 ABILITIES", "Exile (added in …)"); a question opens the title or text."""
    if is_label(label):
        return carries(unit.tail, label)
    want = normal(label)
    if len(want.split()) > 4 or want.endswith("?"):  # a question
        return any(normal(text).startswith(want) for text in (unit.title, unit.text))
    title = normal(re.sub(r"^\s*\d+[.)]?\s+", "", unit.title))
    return title == want or title.startswith(want + " (")


def _segments(unit: Unit) -> list[str]:
    return [s for s in unit.section.split(" > ") if s]


def _has_parent(unit: Unit, parent: str) -> bool:
    """The unit's immediate parent (its parent ruling, else the last heading of its section) is `parent`."""
    last = (_segments(unit) or [""])[-1]
    if not parent:
        return not unit.parent_tail and not unit.parent_title
    if is_label(parent):
        # a heading may open with a bare number ("1 ABILITIES", TI4's topic 1)
        return (bool(unit.parent_tail) and carries(unit.parent_tail, parent)) or any(
            canonical(_label_at(text) or "\0") == canonical(parent)
            or re.match(rf"{re.escape(parent)}[.)]?\s", text) for text in (unit.parent_title, last))
    want = normal(parent)
    return any(re.match(rf"{re.escape(want)}(?!\w)", normal(text)) for text in (unit.parent_title, last))


def _has_start(unit: Unit, starts: str) -> bool:
    """The unit's title or text opens with `starts`, after its own label, or (a Q/A) after its question."""
    want = normal(starts)
    text = normal(unit.text)
    candidates = [normal(unit.title), text]
    label = _label_at(unit.text) or _label_at(unit.title)
    if label:
        candidates += [normal(unit.text.lstrip(" *#-")[len(label):]), normal(unit.title.lstrip(" *#-")[len(label):])]
    question = re.match(r".*?\?\s*(?:a:|answer:)?\s*", text)
    if question:
        candidates.append(text[question.end():])
    answer = re.search(r"(?:^|\s)(?:a|answer):\s*", text)
    if answer:
        candidates.append(text[answer.end():])
    return any(c.strip(" .:-").startswith(want.strip(" .:-")) for c in candidates)


def _check(sample: Sample, units: list[Unit]) -> SampleResult:
    best, best_lacks = "", ("label", "parent", "starts")
    for unit in units:
        lacks = tuple(name for name, ok in (("label", _has_label(unit, sample.label)),
                                            ("parent", _has_parent(unit, sample.parent)),
                                            ("starts", _has_start(unit, sample.starts))) if not ok)
        if not lacks:
            return SampleResult(sample, True, unit.ref)
        # The closest: one with the label first, then one with the first words.
        rank = (len(lacks), "label" in lacks, "starts" in lacks)
        if rank < (len(best_lacks), "label" in best_lacks, "starts" in best_lacks):
            best, best_lacks = unit.ref, lacks
    heading = _heading_with(sample, units)
    if heading:
        return SampleResult(sample, True, heading)
    return SampleResult(sample, False, best, best_lacks)


def _heading_with(sample: Sample, units: list[Unit]) -> str:
    """A numbered heading that is the sample (a section heading the facts sample: "9.8" "Interrupts and
    Replacement Effects", its rules following as 9.8.1…): a section path part opening with the sample's label
    and then its first words, inside a part opening with its parent's label (or at the top, for no parent),
    with a unit under it. Its path, or ""."""
    if not is_label(sample.label):
        return _titled_heading(sample, units)
    want = canonical(sample.label)
    for unit in units:
        parts = _segments(unit)
        for at, part in enumerate(parts):
            label = _label_at(part) or (m.group() if (m := re.match(r"\d+(?=\s)", part)) else "")
            if not label or canonical(label) != want:
                continue
            title = normal(part[len(label):])
            above = [_label_at(p) or (m.group() if (m := re.match(r"\d+(?=\s)", p)) else "") for p in parts[:at]]
            numbered_above = [a for a in above if a]
            parent_ok = (canonical(numbered_above[-1]) == canonical(sample.parent) if sample.parent and numbered_above
                         else not sample.parent and not numbered_above)
            if parent_ok and title.strip(" .:-").startswith(normal(sample.starts).strip(" .:-")):
                return " > ".join(parts[:at + 1])
    return ""


def _titled_heading(sample: Sample, units: list[Unit]) -> str:
    """A heading the document does not number that is the sample ("Setting the Scene" under "Conflicts", its
    paragraphs following as units): a section path part that is the sample's title, right under a part opening
    with its parent's (or at the top, for no parent), whose first unit opens with its first words. Its path,
    or ""."""
    want = normal(sample.label)
    for unit in units:
        parts = _segments(unit)
        for at, part in enumerate(parts):
            if normal(part) != want:
                continue
            above = normal(parts[at - 1]) if at else ""
            parent_ok = above.startswith(normal(sample.parent)) if sample.parent else not above
            # its first unit opens with its first words; or, a heading with no text of its own, the title of its
            # first part does ("Special Rules" over "Torus")
            opens = _has_start(unit, sample.starts) if at == len(parts) - 1 else \
                normal(parts[at + 1]).startswith(normal(sample.starts))
            if parent_ok and opens:
                return " > ".join(parts[:at + 1])
    return ""


def _ordinal(unit: Unit) -> bool:
    """The ref ends in a number the document does not print for this unit ("Mtg 55", "GCG 2 3", "#72")."""
    number = re.search(r"(?:^|[\s.#])(\d+)$", unit.tail)
    if not number:
        return False
    # Named by the heading it sits under, where the document prints no label of its own ("Setting the Scene 2",
    # "Situation Aspects… 1"): that is how issue 42 asks a unit the document leaves unnumbered to be cited.
    named = unit.tail[:number.start()].strip().removesuffix("…")
    last = (_segments(unit) or [""])[-1]
    # (a heading opening with the source's abbreviation names it once: "Pluck The Card Game… 1" under "Pluck The…")
    if not unit.own and named and normal(named) in normal(last):
        return False
    own = canonical(unit.own).split(".")[-1] if unit.own else ""
    return own != number.group(1)


def measure(db: Path, facts: Facts) -> Measured:
    """The document's units in `db` (added alone under facts.game) measured against its facts:

    - numbered: units whose own label is of the document's numbering style (`Facts.styles`) and whose ref
      carries it, plus headings (section path parts opening with such a label) with a unit under them whose
      ref extends the heading's label ("9.8" over "Netrunner 9.8.1"); a unit heading its own section is counted
      once. The facts
      give only a count, so the share is this over `numbered_units`, capped at 1: labels of that style the
      facts did not count (a chapter "1.", a glossary sense "2.") can raise it, units the cut merged away
      lower it.
    - samples: each sample found when one unit has its label (a numbered label carried by its ref; a term or
      question opening its title or text), its parent (parent ruling, else its section's last heading,
      carries or opens with the parent's label; "" = no parent) and opens with its first words (after its
      label, or its question).
    - glossary: units of kind glossary or redirect; qa: units of kind question.
    - long: units of more than 300 words but whose longest document paragraph in their span is shorter
      (`_paragraph_words`); long_excused: those whose paragraph is that long.
    - ordinals: units (not questions, not front matter) whose ref ends in a number the document does not print
      for them.
    - collisions: units whose ref (after the abbreviation) is a label the document prints for another unit or
      heading: a line opening with it in the document's style, or another unit's own label ("Mtg 305" for the
      Skulk definition while "305. Lands" opens a line).
    """
    conn = sqlite3.connect(db)
    try:
        source, units = _units(conn, facts.game)
    finally:
        conn.close()
    original, styles = source["original"] or "", facts.styles()
    body = [u for u in units if u.kind not in HEADER_KINDS]
    examples: dict[str, list[str]] = {}

    def note(name: str, ref: str) -> None:
        examples.setdefault(name, []).append(ref)

    counted: set[tuple[str, str]] = set()
    under: dict[str, list[str]] = {}  # section path → the canonical ref tails of the units at or below it
    for unit in body:
        if unit.own and shape(unit.own) in styles and carries(unit.tail, unit.own):
            counted.add((canonical(unit.own), unit.section))
        elif unit.own and shape(unit.own) in styles:
            note("numbered", unit.ref)
        parts = _segments(unit)
        for n in range(1, len(parts) + 1):
            under.setdefault(" > ".join(parts[:n]), []).append(f".{canonical(unit.tail)}")
    for path, tails in under.items():
        head, _, last = path.rpartition(" > ")
        label = _label_at(last)
        if label and shape(label) in styles and (canonical(label), head) not in counted:
            # A unit below extends the heading's label ("9.8" over "9.8.1", "4" over "4-1"), not merely repeats it.
            if any(re.search(rf"\.{re.escape(canonical(label))}[.\-]", tail) for tail in tails):  # "4" over "4-1"
                counted.add((canonical(label), head))
    long = excused = 0
    for unit in body:
        if len(unit.text.split()) > LONG_WORDS:
            if _paragraph_words(original, unit.char_start, unit.char_end) > LONG_WORDS:
                excused += 1
            else:
                long += 1
                note("long", unit.ref)
    ordinals = [u for u in body if u.kind != "question" and _ordinal(u)]
    for unit in ordinals:
        note("ordinals", unit.ref)
    numbers = {canonical(label) for label in _document_labels(original, styles)}
    numbers |= {canonical(u.own) for u in body if u.own}
    # Its own number is no collision, however the document prints it ("b." under 6.9.3 for "6.9.3b").
    collisions = [u for u in body if canonical(u.tail) in numbers and not (u.own and carries(u.tail, u.own))]
    for unit in collisions:
        note("collisions", unit.ref)
    return Measured(
        facts=facts, title=source["title"] or "", units=len(body), numbered=len(counted),
        glossary=sum(u.kind in ("glossary", "redirect") for u in body), qa=sum(u.kind == "question" for u in body),
        long=long, long_excused=excused, ordinals=len(ordinals), collisions=len(collisions),
        samples=[_check(sample, units) for sample in facts.samples],
        examples={name: refs[:5] for name, refs in examples.items()})


def targets(measured: Measured) -> dict[str, bool]:
    """Issue 30's "done when", one entry per measure: whether this document meets it."""
    facts = measured.facts
    share = measured.numbered_share
    return {
        "numbered": share is None or share >= NUMBERED_TARGET,
        "samples": measured.samples_found == len(facts.samples),
        "glossary": abs(measured.glossary - facts.glossary_terms) <= GLOSSARY_TOLERANCE * facts.glossary_terms,
        "qa": measured.qa == facts.qa_pairs,
        "long": measured.long == 0,
        "ordinals": facts.numbered_units == 0 or measured.ordinals == 0,
        "collisions": measured.collisions == 0,
        "title": measured.title_matches,
    }


MEASURES = ("numbered", "samples", "glossary", "qa", "long", "ordinals", "collisions", "title")


def row(measured: Measured) -> dict[str, str]:
    """The document's figures as table cells, one per measure (a target not met is marked ✗)."""
    facts, met = measured.facts, targets(measured)
    share = measured.numbered_share
    cells = {
        "numbered": "n/a" if share is None else f"{share:.0%} ({measured.numbered}/{facts.numbered_units})",
        "samples": f"{measured.samples_found}/{len(facts.samples)}",
        "glossary": f"{measured.glossary}/{facts.glossary_terms}",
        "qa": f"{measured.qa}/{facts.qa_pairs}",
        "long": f"{measured.long} (+{measured.long_excused} one paragraph)" if measured.long_excused
        else str(measured.long),
        "ordinals": str(measured.ordinals),
        "collisions": str(measured.collisions),
        "title": measured.title,
    }
    return {name: cell + ("" if met[name] else " ✗") for name, cell in cells.items()}
