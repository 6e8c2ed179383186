"""Cross-references between rulings, and the gaps a source leaves: what it promises but does not contain."""
from __future__ import annotations

import re
from collections.abc import Sequence

from ingest.classify.references import (
    CITED_NUMBER,
    CLAUSE_BREAK,
    CROSS_REFERENCE_LINE,
    HEADING_NUMBER_WORD,
    IMPRINT,
    LISTED_NAME,
    NAME_GAP,
    NAME_RUN,
    NAME_START,
    NAME_WORD,
    NUMBERED_TARGET,
    NUMBER_REF,
    PAGE_FIRST,
    PART_OF,
    PLACE,
    QUOTED_TARGET,
    SECTION_LETTER,
    SECTION_NUMBER_UNDER,
    SECTION_NUMBERS,
    SEE,
    VAGUE,
)
from ingest.segment import content_stems
from model.kinds import HEADER_KINDS
from model.records import CrossRef, Gap, Ruling
from model.text import STOPWORDS

_CHANGELOG_GENERIC = {"revis", "new", "clari", "remin", "rules", "rule", "spell", "timin", "updat", "chang",
                      "penal", "fixed", "added", "gener", "gloss", "quali", "life"}
_REFERENCE_WORDS = {"speci", "rules", "rule", "secti", "notes", "detai", "under", "below", "above"}
_TERMINAL = ("." , "!", "?", '"', "”", ")", "'", ":")


def truncation_gaps(source: str, rulings: list[Ruling]) -> list[Gap]:
    """A source whose last ruling (or example) stops mid-sentence was cut off."""
    body = [r for r in rulings if r.kind not in HEADER_KINDS]
    if not body:
        return []
    last = body[-1]
    tail, citation = (last.examples[-1].text, last.examples[-1].citation) if last.examples else (last.text, last.citation)
    # A copyright, trademark or web address line ends many a document without ending a sentence.
    if tail.rstrip().endswith(_TERMINAL) or IMPRINT.search(tail.rstrip().rsplit("\n", 1)[-1][-200:]):
        return []
    words = " ".join(tail.split()[-6:])
    return [Gap(source, "truncated", f"the source is cut off mid-sentence after “…{words}” ({last.id})",
                citation.line_end)]


def _clean_target(raw: str) -> str:
    target = PAGE_FIRST.sub("", raw.strip()).strip(" ,")
    return PLACE.sub("", target)


def _targets(raw: str) -> list[tuple[str, int, int]]:
    """What a "see" reference names, with where each name stands in `raw`: the names it quotes ('see
    "Large Figures" on page 16 and "Appendix II" on page 27'; 'Step 3 of "Attacks"' as "Step 3 of Attacks"),
    else the reference without the place it gives ("on page 9"); none when it gives only a place ("see
    page 7")."""
    quoted = [(f"{m.group('part') or ''}{m.group('name').strip()}", m.start("part" if m.group("part") else "name"),
               m.end("name")) for m in QUOTED_TARGET.finditer(raw)]
    if quoted:
        return quoted
    target = _clean_target(raw)
    start = raw.find(target) if target else -1
    return [(target, start, start + len(target))] if start >= 0 else []


def only_reference(text: str) -> bool:
    """Is `text` nothing but one "see X" reference ('See "Conditions" on page 9.'): an entry that only sends
    the reader elsewhere?"""
    sentence = text.strip()
    match = SEE.match(sentence)
    return (match is not None and len(sentence.split()) <= 20
            and not sentence[match.end():].strip(" .)\n") and bool(_targets(match.group("target"))))


_LISTED_WORDS = 8  # a name such a line lists has at most this many words; a longer one is a sentence


def cross_reference_line(line: str) -> tuple[str, list[tuple[str, int, int]]] | None:
    """A line that only lists what else to read ("Related Topics: Attacks, Line of Sight"), as its lead
    ("Related Topics") and each name with its place in the line; None for any other line."""
    match = CROSS_REFERENCE_LINE.match(line)
    if match is None:
        return None
    names = []
    for part in LISTED_NAME.finditer(match.group("names")):
        name = part.group().strip(" “”\"'")
        if not name:
            continue
        if len(name.split()) > _LISTED_WORDS or CLAUSE_BREAK.search(name):
            return None
        start = match.start("names") + part.start() + part.group().index(name)
        names.append((name, start, start + len(name)))
    return (match.group("lead").rstrip(" :"), names) if names else None


class _Titles:
    """What a reference may designate among a document's rulings, looked up by `resolve`. The indexes are built
    once: a pass over every ruling for each reference would be quadratic in a long rulebook."""

    def __init__(self, rulings: list[Ruling]):
        # An entry that only sends the reader elsewhere is never what a reference means.
        self.rulings = [r for r in rulings if r.kind != "redirect"]
        self.at = {r.id: r for r in self.rulings}
        self.titled: dict[bool, dict[str, Ruling]] = {}
        # "Appendix II - Movement Examples", or "Play a Card" for "4.3 Play a Card": the first ruling headed so.
        self.headed: dict[str, str] = {}
        for ruling in self.rulings:
            heading = ruling.section.rpartition(" > ")[2]
            for name in (heading, HEADING_NUMBER_WORD.sub("", heading)):
                self.headed.setdefault(name.casefold(), ruling.id)
        self.stems = [content_stems(r.title) for r in self.rulings]
        self.having: dict[str, list[int]] = {}  # stem -> the rulings whose title has it, in order
        for index, stems in enumerate(self.stems):
            for stem in stems:
                self.having.setdefault(stem, []).append(index)
        self.found: dict[tuple[str, bool], str | None] = {}

    def by_title(self, topic: bool) -> dict[str, Ruling]:
        """Title (and heading) -> ruling. A rule titled like a glossary term is what "see Trample" means,
        rather than the term's entry, unless the reference lists topics (`topic`)."""
        if topic not in self.titled:
            titled = {r.title.lower(): r for r in sorted(self.rulings, key=lambda r: (r.kind == "glossary") == topic)}
            for ruling in self.rulings:  # a heading names its section's first ruling ("see Route Scoring Table")
                titled.setdefault(ruling.section.rpartition(" > ")[2].lower(), ruling)
            self.titled[topic] = titled
        return self.titled[topic]

    def resolve(self, target: str, topic: bool = False) -> str | None:
        """The ruling `target` designates, if the source has it. `topic`: the target is one of the topics a
        cross-reference line lists, which names a glossary entry before a rule or step titled alike."""
        if (target, topic) not in self.found:
            self.found[target, topic] = self._resolve(target, topic)
        return self.found[target, topic]

    def _resolve(self, target: str, topic: bool) -> str | None:
        rulings = self.rulings
        part = PART_OF.match(target)
        if part:
            return self._part(part.group("n"), part.group("under"))
        by_title = self.by_title(topic)
        letter = SECTION_LETTER.match(target)
        if letter:
            under = letter.group("under").lower()
            for ruling in rulings:
                if ruling.label.lower() == letter.group("letter").lower() and under in ruling.section.lower():
                    return ruling.id
            return None
        number = SECTION_NUMBER_UNDER.match(target)
        if number:
            parent = self.resolve(number.group("under"))
            if parent:
                parent_title = self.at[parent].title
                for ruling in rulings:
                    if ruling.label == number.group("number") and ruling.section.endswith(parent_title):
                        return ruling.id
            return parent
        wanted = target.lower()
        if wanted in by_title:
            return by_title[wanted].id
        # "Train Car Cards for special rules for Locomotive cards": the longest title it opens with (a name it
        # quotes is its target already: _targets).
        for end in reversed([i for i, char in enumerate(wanted) if char == " " and i > 3]):
            if wanted[:end] in by_title:
                return by_title[wanted[:end]].id
        headed = self.headed.get(target.casefold())
        if headed:
            return headed
        stems = content_stems(target)
        if not stems:
            return None
        # A title naming everything the reference names ("banding" -> "Banding").
        found = self._titled(stems, lambda have: len(have) <= len(stems) + 2)
        if found:
            return rulings[found[0]].id
        # "special rules for allies" -> "Summoning and Allies": without the words that only say "a rule", the
        # subject must be in exactly one title.
        subject = stems - _REFERENCE_WORDS
        if subject and subject != stems:
            titled = self._titled(subject, lambda have: True, 2)
            if len(titled) == 1:
                return rulings[titled[0]].id
        return None

    def _titled(self, stems: set[str], fits, most: int = 1) -> list[int]:
        """The first `most` rulings (by index) whose title has every stem of `stems` and `fits` its stems."""
        rarest = min((self.having.get(stem, []) for stem in stems), key=len)
        return [index for index in rarest if stems <= self.stems[index] and fits(self.stems[index])][:most]

    def _part(self, number: str, under: str) -> str | None:
        """The unit numbered `number` inside what `under` designates ("Step 3 of Attacks": step 3 of the
        Attacks entry, under any of its headings), else that itself."""
        whole = self.resolve(under)
        if whole is None:
            return None
        found = self.at[whole]
        for ruling in self.rulings:
            if ruling.position > found.position and ruling.label == number and (
                    found.title in ruling.section.split(" > ") or ruling.parent == whole):
                return ruling.id
        return whole


def _numbered(rulings: list[Ruling]) -> dict[str, str]:
    """Rule number -> the ruling it designates: the ruling labelled with it, else the first ruling of the
    section headed by it ("4.3 Play a Card" for "see 4.3")."""
    found: dict[str, str] = {}
    for ruling in rulings:
        if CITED_NUMBER.fullmatch(ruling.label):
            found.setdefault(ruling.label, ruling.id)
    for ruling in rulings:
        for number in SECTION_NUMBERS.findall(ruling.section):
            found.setdefault(number, ruling.id)
    for ruling in rulings:  # "rule 113": the first of the rules numbered 113.1, 113.2...
        whole, _, part = ruling.label.partition(".")
        if 3 <= len(whole) <= 4 and whole.isdecimal() and part[:1].isdecimal():
            found.setdefault(whole, ruling.id)
    return found


def _number_references(rulings: list[Ruling]) -> list[CrossRef]:
    """References to rules by number (in a ruling or its examples), in a document that numbers its rules."""
    numbered = _numbered(rulings)
    if len(numbered) < 10:  # a stray "1.5" in a document without numbered rules is a quantity, not a rule
        return []
    refs = []
    for ruling in rulings:
        for text in (ruling.text, *(e.text for e in ruling.examples)):
            for match in NUMBER_REF.finditer(text):
                group = "number" if match.group("number") else "whole"
                number = match.group(group)
                to_id = numbered.get(number)
                if group == "whole" and to_id is None:
                    continue  # "rule 100" in a document without rules 100.1...: not a rule number
                if number != ruling.label and to_id != ruling.id:
                    at = match.span(group) if text is ruling.text else (None, None)
                    refs.append(CrossRef(ruling.id, match.group(0).strip("( "), number, to_id, "number", *at))
    return refs


def cross_references(rulings: list[Ruling], related: dict[str, list[str]] | None = None
                     ) -> tuple[list[CrossRef], list[Gap]]:
    """Find "see X" references in rulings and resolve them to the ruling titled X (or headed X), where it
    exists, and references to rules by number ("see 1.10", "rule 702.11b") to the rule of that number.
    `related`: ruling id -> the cross-reference lines attached to it ("Related Topics: A, B"), whose names
    become links of kind "related" (not in its text: no place in it)."""
    refs: list[CrossRef] = _number_references(rulings)
    gaps: list[Gap] = []
    numbers = bool(refs)  # a numbered rulebook: "see 1.10" was read as a number reference

    titles = _Titles(rulings)

    def add(ruling: Ruling, text: str, target: str, kind: str, at: tuple[int | None, int | None]) -> None:
        to_id = titles.resolve(target, topic=kind == "related")
        if to_id == ruling.id:
            return
        refs.append(CrossRef(ruling.id, text, target, to_id, kind, *at))
        if to_id is None and target[:1].isupper():
            gaps.append(Gap(ruling.source, "unresolved-reference",
                            f"{ruling.id} refers to “{target}”, which the source does not contain",
                            ruling.citation.line_start))

    for ruling in rulings:
        for match in SEE.finditer(ruling.text):
            for target, start, end in _targets(match.group("target")):
                if VAGUE.match(target) or len(target) > 60 or numbers and NUMBERED_TARGET.match(target):
                    continue
                at = match.start("target")
                add(ruling, match.group(0).strip(), target, "see", (at + start, at + end))
        for line in (related or {}).get(ruling.id, ()):
            lead, names = cross_reference_line(line) or ("", [])
            for name, _, _ in names:
                add(ruling, f"{lead}: {name}", name, "related", (None, None))
    return refs, gaps


_NAME_SMALL = frozenset({"a", "an", "and", "at", "for", "in", "of", "on", "or", "the", "to", "with", "&"})
# Kinds that define a name rather than comment on it: the target when several rulings share a title.
_DEFINING = ("spell", "rule")


def _name_pattern(title: str) -> str | None:
    """A regex matching `title` as a name, case-matched but for its small words; None if it is not a name."""
    words = title.split()
    if not 1 <= len(words) <= 4 or not NAME_WORD.fullmatch(words[0]):
        return None
    parts = []
    for word in words:
        if word.lower() in _NAME_SMALL:
            parts.append(f"(?i:{re.escape(word)})")
        elif NAME_WORD.fullmatch(word) and len(word) > 1:
            parts.append(re.escape(word))
        else:
            return None
    return r"\s+".join(parts)


def name_targets(rulings: Sequence) -> dict[str, str]:
    """A game's names -> the ruling each designates: rulings whose title is a name (a spell, item, unit or
    keyword). Of several rulings with one title, one that defines it (a spell, a rule) is chosen, else the
    first; the source's header, restated rules and redirecting entries name nothing."""
    found: dict[str, object] = {}
    for ruling in rulings:
        if ruling.kind in HEADER_KINDS or ruling.kind in ("restated", "redirect") or not _name_pattern(ruling.title):
            continue
        held = found.get(ruling.title)
        if held is None or held.kind not in _DEFINING and ruling.kind in _DEFINING:
            found[ruling.title] = ruling
    return {title: ruling.id for title, ruling in found.items()}


def _sentence_starts(text: str, at: int) -> bool:
    """Does a sentence start at `at`: nothing but space before it, or a full stop (or ! ? : ;) and closing
    quotes or brackets? Looks back from `at` only, not over the whole text before it."""
    end = at
    while end and text[end - 1].isspace():
        end -= 1
    if not end:
        return True
    while end and text[end - 1] in "'\"”’)":
        end -= 1
    return end > 0 and text[end - 1] in ".!?:;"


def name_references(rulings: Sequence, targets: dict[str, str], taken: dict[str, list[tuple[int, int]]],
                    among: set[str] | None = None) -> list[CrossRef]:
    """Names the rulings' texts use that other rulings of the game define, each linked at its first use in a
    ruling (a name of one word not where a sentence starts, where capitals mean nothing).

    `rulings` have id, title, text and kind; `targets` is `name_targets` of the whole game; `taken` holds the
    spans of each ruling's text that already link (a "see X" or a rule number). With `among`, only links
    from or to those ruling ids are returned (the rulings a `rulings add` brings).
    """
    if not targets:
        return []
    names = _Names(targets)
    refs = []
    for ruling in rulings:
        spans = list(taken.get(ruling.id, ()))
        named = set()
        for title, start, end in names.find(ruling.text):
            to_id = targets[title]
            if to_id == ruling.id or title in named or any(s < end and start < e for s, e in spans) \
                    or among is not None and not {ruling.id, to_id} & among:
                continue
            if " " not in title and _sentence_starts(ruling.text, start):
                continue  # a capital at a sentence's start says nothing
            named.add(title)
            spans.append((start, end))
            refs.append(CrossRef(ruling.id, ruling.text[start:end], title, to_id, "name", start, end))
    return refs


def _name_key(word: str) -> str:
    """A name's word as names are compared: small words in any case ("of", "Of"), the others exactly."""
    return word.lower() if word.lower() in _NAME_SMALL else word


def _last_words(run: str) -> list[str]:
    """What a name's last word may be in a run of word characters: the run, or what comes before an apostrophe in
    it ("Dragon" of "Dragon's"), since a name ends where no word character or hyphen follows."""
    return [run] + [run[:i] for i, c in enumerate(run) if c in "'’" and i]


class _Names:
    """The titles of `targets` found in a text as `_name_pattern` reads each (whole words, case-matched but for
    small words, any space between words), the longest title first where several start at one place, and no
    match inside another: one alternation of every title would try each at every place (25 s for the 3,000
    rules of Magic), where a lookup of the words at each place costs the same for any number of titles."""

    def __init__(self, titles):
        self.rank: dict[tuple[str, ...], tuple[int, str]] = {}
        for rank, title in enumerate(sorted(titles, key=lambda title: -len(title))):
            self.rank.setdefault(tuple(_name_key(word) for word in title.split()), (rank, title))
        self.most = max(len(key) for key in self.rank)
        self.firsts = {key[0] for key in self.rank}

    def find(self, text: str):
        """(title, start, end) of each name found in `text`, left to right."""
        end = 0
        for start in NAME_START.finditer(text):
            at, word = start.start(), start.group(1)
            if at < end or not any(_name_key(first) in self.firsts for first in _last_words(word)):
                continue
            found = self._at(text, at)
            if found:
                (_, title), end = found
                yield title, at, end

    def _at(self, text: str, at: int):
        """The first title in rank order that starts at `at`, and where it ends; None where none does."""
        best, words, place = None, [], at
        while len(words) < self.most and (run := NAME_RUN.match(text, place)):
            word = run.group()
            for last in _last_words(word):
                hit = self.rank.get((*words, _name_key(last)))
                if hit and (best is None or hit < best[0]):
                    best = (hit, run.start() + len(last))
            words.append(_name_key(word))
            gap = NAME_GAP.match(text, run.end())
            if gap is None:
                break
            place = gap.end()
        return best


def changelog_gaps(rulings: list[Ruling]) -> list[Gap]:
    """Items of a "new in this version" list whose subject appears in no ruling of the source. An item citing
    rule numbers ("◊ 8.5.2. Modified language…") promises those rules; a sentence about the update ("To
    prepare for the release of…, the following updates were made") promises nothing."""
    gaps = []
    bodies = [_singular(content_stems(r.text)) for r in rulings if r.kind != "changelog"]
    numbers = _numbered([r for r in rulings if r.kind != "changelog"])  # a heading's number counts
    for ruling in rulings:
        if ruling.kind != "changelog":
            continue
        for item in ruling.text.split("\n")[1:] or [ruling.text]:
            cited = CITED_NUMBER.findall(item)
            if cited:
                if not any(n == c or n.startswith(c + ".") for c in cited for n in numbers):
                    gaps.append(Gap(ruling.source, "missing-content",
                                    f"the changes list names rule {cited[0]}, which the source does not contain",
                                    ruling.citation.line_start))
                continue
            if item.rstrip().rstrip("”\"')]").endswith((".", "!", "?", ":")):
                continue
            words = _singular({s for s in content_stems(item) if s not in _CHANGELOG_GENERIC and s not in STOPWORDS})
            if not words:
                continue
            best = max((len(words & body) for body in bodies), default=0)
            if best * 3 < len(words) * 2:
                gaps.append(Gap(ruling.source, "missing-content",
                                f"the changes list promises “{item.strip()}”, but no ruling covers it",
                                ruling.citation.line_start))
    return gaps


def _singular(stems: set[str]) -> set[str]:
    """Stems with a plural's "s" dropped, so "Loops" is covered by a rule on a "loop"."""
    return {stem[:-1] if len(stem) > 3 and stem.endswith("s") else stem for stem in stems}
