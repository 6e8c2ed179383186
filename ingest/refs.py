"""Short references a judge can read aloud ("CR 702.19b", "DT 12", "PotL B.3"): a source abbreviation and a
label built from the document's own numbering, unique across the database and at most 24 characters."""
from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import chain, count

from ingest import labels

from model.kinds import AUTHORITY, HEADER_KINDS, KIND_SUFFIX, TERM_KINDS, UNKNOWN_AUTHORITY
from model.records import Ruling
from model.refs import MAX_ABBREV, MAX_REF, numbering, ref_key

# Kinds whose numeric labels are counts the reader made, not the document's numbering.
_COUNTED_KINDS = frozenset({"paragraph", "question"})
# Where a part of a number starts, past its first: "305|.2|a", "1|-2|-1", "9|f|12|c".
_PART_START = re.compile(r"[.\-)](?=\w)|(?<=\d)(?=[A-Za-z])|(?<=[A-Za-z])(?=\d)")
# A heading's own number ("1.2 Golden Rules", "4. Card Types", "1-2 Deck"), as a section part shows it.
_HEADING_NUMBER = re.compile(r"^(\d+(?:[.\-](?:\d+|[A-Za-z]\b))*[a-z]?)\.?\s")
# A word a heading's number may follow ("Rule 7.11 Instigator & Aggressor").
_KEYWORD = f"(?:{'|'.join(labels.KEYWORDS)}|§)"
_SMALL = frozenset({"a", "an", "and", "for", "in", "of", "on", "the", "to", "with", "&"})


def abbreviation(name: str, slug: str = "") -> str:
    """A short abbreviation of a game or document name: the initials, small words in lower case ("Paths of the
    Lance" -> "PotL", "Dungeon Twister" -> "DT"); a one-word name is kept whole when it is short ("Riftbound"),
    else its capitals ("StarCraft" -> "SC") or initial, never cut mid-word. A part in parentheses is dropped
    ("Paths of the Lance (Dragons of Glory expansion)"). Where the game's `slug` spells a stretch of the name
    (small words aside), that stretch is abbreviated: the words the user calls the game by ("Disney Lorcana",
    slug "lorcana" -> "Lorcana")."""
    words = re.findall(r"[^\W_]+", re.sub(r"\([^)]*\)", " ", name)) or re.findall(r"[^\W_]+", name)
    words = _slug_stretch(words, slug) or words
    if len(words) == 1:
        word = words[0].capitalize() if words[0].islower() else words[0]
        if len(word) <= MAX_ABBREV:
            return word
        capitals = "".join(c for c in word if c.isupper())
        return capitals[:MAX_ABBREV] if len(capitals) > 1 else word[0].upper()
    initials = "".join(w[0].lower() if w.lower() in _SMALL else w[0].upper() for w in words)
    return initials[:MAX_ABBREV]


def _slug_stretch(words: list[str], slug: str) -> list[str] | None:
    """The stretch of `words` that spells every word of `slug` in order, small words between them aside."""
    wanted = [w for w in re.split(r"[\W_]+", slug.lower()) if w]
    lower = [w.lower() for w in words]
    for start in range(len(words)):
        at, end = 0, start
        while end < len(words) and at < len(wanted):
            if lower[end] == wanted[at]:
                at += 1
            elif lower[end] not in _SMALL or end == start:
                break
            end += 1
        if wanted and at == len(wanted):
            return words[start:end]
    return None


def assign_abbrevs(sources: Iterable[dict], taken: Iterable[str] = ()) -> dict[str, str]:
    """Source id -> its abbreviation, unique (case-insensitively) beside `taken` and each other.

    Each source is a dict with id, kind, game_name, optionally game (its slug) and abbrev (what the manifest or
    `rulings add` asked for, kept as given). Without one, a source takes its game's initials (see `abbreviation`);
    the most authoritative source of a game (rulebook, official FAQ) gets them first, the next adds its kind
    ("PotL HR"), then a number.
    ValueError if an abbreviation asked for is taken.
    """
    used = {ref_key(a) for a in taken}
    found: dict[str, str] = {}
    # sorted is stable: sources of equal standing keep their order
    ordered = sorted(sources, key=lambda s: (not s.get("abbrev"), AUTHORITY.get(s["kind"], UNKNOWN_AUTHORITY)))
    for source in ordered:
        base = source.get("abbrev") or abbreviation(source["game_name"], source.get("game", ""))
        if source.get("abbrev") and ref_key(base) in used:
            raise ValueError(f"source {source['id']}: abbreviation {base!r} is already another source's")
        candidates = [base] if source.get("abbrev") else [base, f"{base} {KIND_SUFFIX.get(source['kind'], '')}"]
        candidates += [f"{candidates[-1].strip()} {n}" for n in range(2, 100)]
        chosen = next(c.strip() for c in candidates if ref_key(c) not in used)
        used.add(ref_key(chosen))
        found[source["id"]] = chosen
    return found


def ruling_refs(rulings: list[Ruling], abbrev: str, root: str = "", taken: Iterable[str] = ()) -> dict[str, str]:
    """Ruling id -> its ref: `abbrev` and a label, unique beside `taken` (refs already in the database).

    The label is the ruling's own numbering, after its heading's label ("B.3" for rule 3 under "B.
    Activating Neutral Nations"), a glossary entry's its term ("CR Trample", cut to whole words when too
    long), else its ordinal within its section ("12"); the source's header (title,
    credits, changes) is numbered apart ("front 2"). A section whose labels an earlier section already used
    is told apart by the first word of its title ("Optional B", and so "Optional B.1" under it), else of its
    part of the document; so is an ordinal that is a number the document gives another unit (a paragraph's
    "305" where rule 305 has 305.1, 305.2…): "rule 305" names that rule, never the paragraph. `root` is the
    section every ruling of the source sits under. A label that is still taken, or too long, gives way to
    the ruling's place in the source ("#12").
    """
    headings = {(r.section, r.title): r.id for r in rulings if r.kind not in HEADER_KINDS}
    kinds = {r.id: r.kind for r in rulings}
    sections: dict[str, list[Ruling]] = {}
    for ruling in rulings:
        sections.setdefault("\0front" if ruling.kind in HEADER_KINDS else ruling.section, []).append(ruling)
    labels: dict[str, str] = {}
    claimed: set[str] = set()
    for section, members in sections.items():  # in order of first use: a heading comes before its section
        if section == "\0front":
            for n, ruling in enumerate(members, start=1):
                labels[ruling.id] = f"front {numbering(ruling.label) or n}"
            continue
        above = headings.get(_split_section(section), "")
        heading = labels.get(above)
        base = _own_labels(members)
        if heading:
            # Under a glossary entry its parts and steps read after its term: "Attacks 1", "Campaign Setup 3".
            joint = " " if kinds[above] in TERM_KINDS else "."
            base = [own if own.startswith(heading + joint) or r.kind in TERM_KINDS else f"{heading}{joint}{own}"
                    for own, r in zip(base, members, strict=True)]
        for qualifier in ("", *_qualifiers(section, root)):
            tried = [f"{qualifier} {own}".strip() for own in base]
            if not {ref_key(label) for label in tried} & claimed:
                base = tried
                break
        for ruling, label in zip(members, base, strict=True):
            labels[ruling.id] = label
            claimed.add(ref_key(label))
    numbers = document_numbers(rulings, labels)
    for ruling in counted(rulings):
        label = labels[ruling.id]
        if ref_key(label) in numbers:  # "" when no qualifier tells it from the number: its place in the source
            labels[ruling.id] = next((f"{q} {label}" for q in _qualifiers(ruling.section, root)
                                      if ref_key(f"{q} {label}") not in claimed | numbers), "")
            claimed.add(ref_key(labels[ruling.id]))
    used = {ref_key(t) for t in taken}
    refs: dict[str, str] = {}
    for position, ruling in enumerate(rulings, start=1):
        # Lazily: the first candidate almost always serves, and building a thousand per ruling cost a second
        # per 5,000 rulings.
        own = f"{abbrev} {labels[ruling.id]}" if labels[ruling.id] else ""
        clipped = _clip(own, MAX_REF) if ruling.kind in TERM_KINDS else _clip_term(own, MAX_REF)
        candidates = chain((*filter(None, [own, clipped]), f"{abbrev} #{position}"),
                           (f"{abbrev} #{position}.{n}" for n in range(2, 1000)))
        ref = next(c for c in candidates if len(c) <= MAX_REF and ref_key(c) not in used)
        used.add(ref_key(ref))
        refs[ruling.id] = ref
    return refs


def document_numbers(rulings: list[Ruling], labels: dict[str, str]) -> set[str]:
    """The ref keys of every number the document gives its units: a numbered unit's label (`labels`: ruling
    id -> its label in its ref) and each number it descends from ("305.2a" -> 305.2 and 305, "1-2-1" -> 1-2
    and 1), and the numbers its headings print ("1.2 Golden Rules")."""
    ordinals = {r.id for r in counted(rulings)}
    found: set[str] = set()
    for ruling in rulings:
        if ruling.kind not in HEADER_KINDS | TERM_KINDS and ruling.id not in ordinals:
            label = labels[ruling.id]
            found.update(ref_key(label[:cut.start()]) for cut in _PART_START.finditer(label) if cut.start())
            found.add(ref_key(label))
        found.update(ref_key(m.group(1)) for part in ruling.section.split(" > ") if (m := _HEADING_NUMBER.match(part)))
    found.discard("")
    return found


def colliding(rulings: list[Ruling], refs: dict[str, str], abbrev: str) -> list[str]:
    """The ids of rulings whose ref (`refs`: ruling id -> ref), after `abbrev`, is a number the document gives
    another unit (see `document_numbers`) while theirs is only a count: what "rule N" would wrongly answer."""
    labels = {id_: ref.removeprefix(abbrev).strip() for id_, ref in refs.items()}
    numbers = document_numbers(rulings, labels)
    return [r.id for r in counted(rulings) if ref_key(labels[r.id]) in numbers]


def counted(rulings: list[Ruling]) -> list[Ruling]:
    """The rulings labelled by a count (see `_ordinal`), but for one whose section's units are numbered after
    it ("2" over "2.1", "2.2"): that count is their number too."""
    headings = {(r.section, r.title): r.id for r in rulings if r.kind not in HEADER_KINDS}
    heads = {headings.get(_split_section(r.section)) for r in rulings}
    return [r for r in rulings if r.kind not in HEADER_KINDS and _ordinal(r) and r.id not in heads]


def _ordinal(ruling: Ruling) -> bool:
    """Is the ruling's label a count rather than a number the document gives it: a question's or a paragraph's
    ("7", "q12"), or any label that does not number (a slug)? A paragraph that is a numbered heading's own
    text ("6.A" under "6.A. Basic Checks", "7.11" under "Rule 7.11 Instigator") carries the heading's number,
    and a glossary entry its term."""
    if ruling.kind in TERM_KINDS:
        return False
    if not numbering(ruling.label):
        return True
    heading = ruling.section.rpartition(" > ")[2]
    return ruling.kind in _COUNTED_KINDS and not re.match(rf"(?:{_KEYWORD}\s*)?{re.escape(ruling.label)}\b", heading,
                                                          re.IGNORECASE)


def _own_labels(members: list[Ruling]) -> list[str]:
    """Each ruling's label within its section: its numbering, a glossary entry's term, else the next ordinal
    its section's numbers leave free (a question after paragraphs "2" to "6" is "7", not a second "6")."""
    numbers = {numbering(r.label) for r in members}
    ordinals = (str(n) for n in count(1) if str(n) not in numbers)
    # A glossary entry the document numbers ("4-1. Effect") keeps its number.
    return [(numbering(r.label) if r.label[:1].isdigit() else "") or _term(r) or numbering(r.label) or next(ordinals)
            for r in members]


def _term(ruling: Ruling) -> str:
    """A glossary entry's term as a label ("Summoning Sickness Rule"), or ""."""
    return " ".join(ruling.title.split()) if ruling.kind in TERM_KINDS else ""


def _clip(ref: str, limit: int) -> str:
    """`ref` cut after its last whole word that leaves room for "…" within `limit` characters ("Lorcana alter
    a starting…", "Lorcana challenging…" for "challenging/challenged character"); "" when not even the first
    word after the abbreviation fits, for a word is never cut."""
    if len(ref) <= limit:
        return ref
    cut = re.match(r"(.*)[ /-]", ref[:limit])
    head = cut.group(1).rstrip(" ,;:/-") if cut else ""
    return head + "…" if " " in head else ""


def _clip_term(ref: str, limit: int) -> str:
    """A ref whose label is a term and a number ("IA Winning the Game 1") with the term cut to fit and the
    number kept ("IA Winning the… 1"); any other ref as it is, and "" when no whole word of the term fits."""
    head, _, number = ref.rpartition(" ")
    if " " not in head or not numbering(number) or len(ref) <= limit:
        return ref
    cut = _clip(head, limit - len(number) - 1)
    return f"{cut} {number}" if cut else ""


def _split_section(section: str) -> tuple[str, str]:
    """("New Rules", "Activating Neutral Nations") for "New Rules > Activating Neutral Nations": the section
    a heading sits in and its title."""
    head, _, title = section.rpartition(" > ")
    return head, title


def _qualifiers(section: str, root: str) -> list[str]:
    """Words that tell a section's labels apart: the first word of its own title ("Special" for "Rules >
    Special Considerations"), then of its part of the document below the source's root; whole words of at
    most MAX_ABBREV letters only."""
    parts = [p for p in section.split(" > ") if p]
    if root and parts and parts[0] == root:
        parts = parts[1:] or parts
    firsts = [re.findall(r"[^\W_]+", part)[:1] for part in (parts[-1:] + parts[:1])]
    # A word too long to be short is no qualifier: a ref never holds a cut word ("Adjudicati").
    return list(dict.fromkeys(words[0] for words in firsts if words and len(words[0]) <= MAX_ABBREV))
