"""Short references a judge can read aloud ("CR 702.19b", "DT 12", "PotL B.3"): a source abbreviation and a
label built from the document's own numbering, unique across the database and at most 24 characters."""
from __future__ import annotations

import string
from collections import Counter
from collections.abc import Iterable
from itertools import chain, count

from ingest import labels
from ingest.labels import within
from ingest.classify import KEYWORD_WORDS, MONTHS, WORD_RUN
from ingest.classify.references import (
    HEADING_LABEL,
    HEADING_OWN_NUMBER,
    LABEL_PART_START,
    OPENING_KEYWORD,
    PARENTHESISED,
    UP_TO_LAST_BREAK,
    word_boundary,
)

from model.kinds import AUTHORITY, HEADER_KINDS, KIND_SUFFIX, TERM_KINDS, UNKNOWN_AUTHORITY
from model.records import Ruling
from model.refs import MAX_ABBREV, MAX_REF, numbering, ref_key

_SMALL = frozenset({"a", "an", "and", "for", "in", "of", "on", "the", "to", "with", "&"})
# Marks a unit the document does not number, in a document that numbers its units, by its place under its
# nearest labelled heading ("ST.2 ¶1"): never mistaken for a rule number.
PARAGRAPH = "¶"
_YEARS = (1900, 2099)  # a four-digit number opening a heading between these is its year, no label
_LIST_SHARE = 3  # a list numbering under a third of a document's units is steps among its text, not its numbering
_MARKS = {"paragraph": PARAGRAPH, "question": "Q"}  # "Q3": the third question under its heading


def abbreviation(name: str, slug: str = "") -> str:
    """A short abbreviation of a game or document name: the initials, small words in lower case ("Paths of the
    Lance" -> "PotL", "Dungeon Twister" -> "DT"); a one-word name is kept whole when it is short ("Riftbound"),
    else its capitals ("StarCraft" -> "SC") or initial, never cut mid-word. A part in parentheses is dropped
    ("Paths of the Lance (Dragons of Glory expansion)"). Where the game's `slug` spells a stretch of the name
    (small words aside), that stretch is abbreviated: the words the user calls the game by ("Disney Lorcana",
    slug "lorcana" -> "Lorcana")."""
    words = WORD_RUN.findall(PARENTHESISED.sub(" ", name)) or WORD_RUN.findall(name)
    words = _slug_stretch(words, slug) or words
    if len(words) == 1:
        word = words[0].capitalize() if words[0].islower() else words[0]
        if len(word) <= MAX_ABBREV:
            return word
        capitals = "".join(c for c in word if c.isupper())
        return capitals[:MAX_ABBREV] if len(capitals) > 1 else word[0].upper()
    # An ordinal gives its number ("13th Age" -> "13A").
    initials = "".join(w[0].lower() if w.lower() in _SMALL else _initial(w) for w in words)
    return initials[:MAX_ABBREV]


def _initial(word: str) -> str:
    number = len(word) - len(word.lstrip("0123456789"))
    return word[:number] if 0 < number < len(word) else word[0].upper()  # an ordinal's number: "13th"


def _slug_stretch(words: list[str], slug: str) -> list[str] | None:
    """The stretch of `words` that spells every word of `slug` in order, small words between them aside."""
    wanted = WORD_RUN.findall(slug.lower())
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
    root = _shared_root(rulings, root)
    headings = _headings(rulings)
    kinds = {r.id: r.kind for r in rulings}
    ordinals = {r.id for r in counted(rulings)}
    # Paragraphs and questions a numbered document leaves unnumbered (a paragraph heading others too: its count
    # is no number of theirs) are marked as such, apart from the sections' labels and claims.
    unnumbered = {r.id for r in rulings if r.kind in _MARKS and (r.id in ordinals or _ordinal(r))}
    marked = unnumbered if _numbers_its_units(rulings, ordinals) else _under_labels(rulings, unnumbered)
    sections: dict[str, list[Ruling]] = {}
    for ruling in rulings:
        sections.setdefault("\0front" if ruling.kind in HEADER_KINDS else ruling.section, []).append(ruling)
    restarted, recounted = _restarted(sections, marked)
    lists = _lists(sections, marked, len(rulings))
    # the sections with parts whose headings print numbers ("Turns > 1. Initiative Phase"): their own paragraphs are
    # marked apart from those numbers
    parted = {parent for section in sections for parent, _, part in [section.rpartition(" > ")]
              if parent and _printed(part).isdigit()}
    labels: dict[str, str] = {}
    titled: set[str] = set()  # the rulings named by their title: a term's clipping, not a number's
    claimed: set[str] = set()
    recounted_keys = {ref_key(number) for number in recounted}  # bare, a recounted number names no one unit
    seen: dict[tuple[str, str], int] = {}  # (anchor, mark) -> the marked units labelled under it so far
    for section, members in sections.items():  # in order of first use: a heading comes before its section
        if section == "\0front":
            for n, ruling in enumerate(members, start=1):
                labels[ruling.id] = f"front {numbering(ruling.label) or n}"
            continue
        labels.update(_marked_labels([r for r in members if r.id in marked], labels, headings, marked, root, seen))
        members = [r for r in members if r.id not in marked]
        above = headings.get(_split_section(section), "")
        heading = labels.get(above)
        base = _own_labels(members)
        if not heading:
            base = _named(members, base, section, titled, section in parted)
        if heading:
            # Under a glossary entry, or a heading named by its title, its parts and steps read after its name:
            # "Attacks 1", "Campaign Setup 3".
            joint = " " if kinds[above] in TERM_KINDS or above in titled else "."
            base = [own if own.startswith(heading + joint) or r.kind in TERM_KINDS else f"{heading}{joint}{own}"
                    for own, r in zip(base, members, strict=True)]
        # Then the label the section's heading prints ("Appendix III 1" when "Appendix 1" is Appendix I's); last,
        # under a heading that prints none, its whole title before each letter or number that only counts within
        # it ("Expenditures for Combat A" when another section has an "A"): the heading a reader finds the unit
        # under, never its place in the source.
        below = _below_root(section, root, keep_last=False)
        printed = [label for part in reversed(below) if (label := _printed(part))][:1]
        # A label opening with the qualifier already is not qualified again ("Master Master Cards 1"). A list
        # counted afresh is never bare: its heading's label, else its title ("Make a Bane Attack 2"), tells it.
        restart = section in restarted and not heading
        qualifiers = (*printed, *_qualifiers(section, root)) if restart else ("", *_qualifiers(section, root), *printed)
        # A number the labels already open with tells them apart from nothing ("2 2.1", "5 5.06f").
        choices = [[own if own.startswith(f"{qualifier} ") else f"{qualifier} {own}".strip() for own in base]
                   for qualifier in qualifiers
                   if not qualifier or not all(within(own, qualifier, zero=True) for own in base)]  # "1.0 1.1" too
        if below and not heading and (restart or not printed):
            title = " ".join(below[-1].split()).rstrip(".:")
            # In a list counted afresh, or a list among prose ("1."…"7." under "Attacks and Parries"), a number counts
            # only under its heading, its items' items too ("Fate Cards 4.1"); elsewhere one of more parts is the
            # document's ("2.4").
            counts_under = (restart or section in lists) and not title[-1:].isdigit()  # "CPU: 3 2" would read as one
            under = [f"{title} {own}" if counts_under and own == r.label and _in_list(own, members)
                     else _under_title(title, own)
                     for own, r in zip(base, members, strict=True)]
            # the heading right over the list names it: by its label when it prints one ("Appendix I 2"), else by
            # its title ("Scenario Card Anatomy Key 2", under "Appendix IV: Card Anatomy")
            if restart:
                choices.insert(1 if _printed(below[-1]) else 0, under)
            elif counts_under and all(_clip_term(f"{abbrev} {label}", MAX_REF) for label in under):
                choices.insert(0, under)
            else:
                choices.append(under)
        # A list's steps ("1"…"16", "12c") take no number another list counts too; a section's rules ("2", "2.1")
        # keep the document's numbers.
        listed = all(own.rstrip(string.ascii_lowercase).isdigit() for own in base)
        held = claimed | recounted_keys if listed else claimed
        for tried in choices:
            if not {ref_key(label) for label in tried} & held:
                base = tried
                break
        for ruling, label in zip(members, base, strict=True):
            labels[ruling.id] = label
            claimed.add(ref_key(label))
    numbers = document_numbers(rulings, labels)
    strays = _strays(rulings, labels, ordinals)
    for ruling in counted(rulings) + strays:
        label = labels[ruling.id]
        if ref_key(label) in numbers:  # "" when no qualifier tells it from the number: its place in the source
            labels[ruling.id] = next((f"{q} {label}" for q in _qualifiers(ruling.section, root)
                                      if ref_key(f"{q} {label}") not in claimed | numbers),
                                     label if ruling in strays else "")  # a number the document gives stays
            claimed.add(ref_key(labels[ruling.id]))
    used = _keys_beside(taken, abbrev)
    refs: dict[str, str] = {}
    printings: Counter[str] = Counter()  # each ref key asked for -> the units that asked for it so far
    tailed: set[str] = set()  # the sections whose units' refs are cut at the front (see `_tail`)
    for position, ruling in enumerate(rulings, start=1):
        # Lazily: the first candidate almost always serves, and building a thousand per ruling cost a second
        # per 5,000 rulings.
        label = labels[ruling.id]
        # a heading that opens with the abbreviation names it once: "FIDE Laws of Chess ¶1", never "FIDE FIDE Laws…"
        own = "" if not label else label if label.startswith(f"{abbrev} ") else f"{abbrev} {label}"
        clip = _clip if ruling.kind in TERM_KINDS or ruling.id in titled else _clip_term
        clipped = clip(own, MAX_REF)
        printings[ref_key(clipped or own)] += 1
        # A label the document prints again, or one clipped as another is, is told apart by which printing it
        # is ("4.03c #2", the second unit printed "4.03c"): the label stays, no place in the source replaces it.
        again = _again(own, printings[ref_key(clipped or own)], clip) if own else ""
        # headings sharing their front ("Karrakin Trade Baronies Page 128, Black Thumb", "…, House Guard") are told
        # apart by their ends before any "#2"
        tail = _tail(own, abbrev, MAX_REF) if clip is _clip_term else ""
        cuts = [tail, clipped] if ruling.section in tailed else [clipped, tail]  # a section's units cut alike
        candidates = chain((*filter(None, [own, *cuts, again]), f"{abbrev} #{position}"),
                           (f"{abbrev} #{position}.{n}" for n in range(2, 1000)))
        ref = next(c for c in candidates if len(c) <= MAX_REF and ref_key(c) not in used)
        if tail and ref == tail:
            tailed.add(ruling.section)
        used.add(ref_key(ref))
        refs[ruling.id] = ref
    return refs


def _headings(rulings: list[Ruling]) -> dict[tuple[str, str], str]:
    """(section, title) -> the id of the ruling that heads the units of section "section > title": the one right
    before the first of them. A ruling of that title elsewhere heads nothing (a chapter's overview names "Combat
    Actions: …" in a list long before its heading "Combat Actions", whose paragraphs are no parts of that item)."""
    first: dict[str, int] = {}  # a section -> the place of the first ruling in it or under it
    for place, ruling in enumerate(rulings):
        parts = _parts(ruling.section)
        for depth in range(1, len(parts) + 1):
            first.setdefault(" > ".join(parts[:depth]), place)
    return {(r.section, r.title): r.id for place, r in enumerate(rulings) if r.kind not in HEADER_KINDS
            and first.get(f"{r.section} > {r.title}" if r.section else r.title) == place + 1}


def _restarted(sections: dict[str, list[Ruling]], marked: set[str]) -> tuple[set[str], set[str]]:
    """The sections whose units are numbered by a list counted afresh in another section too ("1. Determine
    attribute…" under "Make a Damaging Attack", again under "Make a Bane Attack"), and the numbers so counted:
    there a number counts only within its heading, and bare ("OL 2") it would read as the document's rule 2."""
    seen: dict[str, set[str]] = {}
    for section, members in sections.items():
        listed = [r for r in members if r.id not in marked and r.kind not in HEADER_KINDS and not _ordinal(r)]
        if listed and all(_in_list(r.label, listed) for r in listed):  # a list's numbers, no rule numbers among them
            for ruling in listed:
                if ruling.label.isdigit():
                    seen.setdefault(ruling.label, set()).add(section)
    again = {number: found for number, found in seen.items() if len(found) > 1}
    return {section for found in again.values() for section in found}, set(again)


def _in_list(label: str, members: list[Ruling]) -> bool:
    """Is `label` a list's number among `members`: "4", or an item's item ("4.1", "4a" where "4" is one of theirs,
    in a list counted from "1"), never a number in parts of the document's own ("3.3.1" under "3.3 Scenario"; "2.1"
    under rule "2")?"""
    first, _, rest = label.partition(".")
    lettered = first.rstrip(string.ascii_lowercase)
    if not rest and lettered != first:
        first, rest = lettered, first[len(lettered):]
    return first.isdigit() and (not rest or (rest.isdigit() or rest.isalpha())
                                and {first, "1"} <= {r.label for r in members})


def _lists(sections: dict[str, list[Ruling]], marked: set[str], total: int) -> set[str]:
    """The sections holding units the document numbers "1", "2"… (two or more; not the `marked` paragraphs nor a
    count of ours), when such a list is a small part of the document (steps among prose): there its numbers count
    only under its heading, which names them. Numbers that run on across sections, or that with their subitems
    ("1a") number a third of the document's `total` rulings or more, are the document's own: then none."""
    def listed(ruling: Ruling) -> bool:
        return ruling.id not in marked and ruling.kind not in HEADER_KINDS and not _ordinal(ruling)
    lists = {section for section, members in sections.items()
             if section != "\0front" and sum(listed(r) and r.label.isdigit() for r in members) > 1}
    numbered = sum(listed(r) and r.label[:1].isdigit() for section in lists for r in sections[section])
    return lists if numbered * _LIST_SHARE < total else set()


def _under_labels(rulings: list[Ruling], unnumbered: set[str]) -> set[str]:
    """The `unnumbered` rulings (paragraphs, questions) right under a heading that prints a label, in a document
    whose headings print labels ("1) The Deck", "2) Pick Dealer"): those are marked under it ("Pluck 1 ¶2"), the
    number a judge cites, never the heading's whole title and a count ("Pluck 1 The Deck 2")."""
    labelled = {section for section in {r.section for r in rulings} if _printed(section.rpartition(" > ")[2])}
    return {r.id for r in rulings if r.id in unnumbered and r.section in labelled} if len(labelled) > 1 else set()


def _numbers_its_units(rulings: list[Ruling], ordinals: set[str]) -> bool:
    """Does the document number its units: at least 20 rulings, and a quarter of those not glossary entries,
    carry a number it gives them (not one of `ordinals`, the ids of those labelled by a count)? A prose rulebook
    with a list of steps does not."""
    units = [r for r in rulings if r.kind not in HEADER_KINDS | TERM_KINDS]
    numbered = sum(r.id not in ordinals and bool(numbering(r.label)) for r in units)
    return numbered >= max(20, len(units) / 4)


def _marked_labels(marked: list[Ruling], labels: dict[str, str], headings: dict, skip: set[str], root: str,
                   seen: dict[tuple[str, str], int]) -> dict[str, str]:
    """Ruling id -> the label of each of the `marked` rulings, paragraphs and questions a document that numbers
    its units leaves unnumbered: its place among those of its kind (`seen` so far) under its nearest labelled
    heading, marked with the kind ("ST.2 ¶2", "Ability ¶1", "Appendix II ¶3", "Q4" under none), unique by
    construction and never passing for a rule number."""
    found: dict[str, str] = {}
    for ruling in marked:
        # under no labelled heading, the heading it sits under names it ("Pair ¶1", never a bare "¶2")
        anchor = _anchor(ruling.section, labels, headings, skip, root) or " ".join(
            (_below_root(ruling.section, root)[-1:] or [""])[0].split())
        mark = _MARKS[ruling.kind]
        seen[anchor, mark] = seen.get((anchor, mark), 0) + 1
        found[ruling.id] = f"{anchor} {mark}{seen[anchor, mark]}".strip()
    return found


def _anchor(section: str, labels: dict[str, str], headings: dict, skip: set[str], root: str) -> str:
    """The label of the nearest heading over `section` that has one: a heading ruling's (a numbered rule, a
    glossary term; not one of `skip`), else the number the heading prints; "" when none does."""
    parts = section.split(" > ")
    for depth in range(len(parts), 0, -1):
        if depth <= len(_parts(root)) and parts[:depth] == _parts(root)[:depth]:
            break
        head = headings.get((" > ".join(parts[:depth - 1]), parts[depth - 1]))
        if head and head not in skip and labels.get(head):
            return labels[head]
        if printed := _printed(parts[depth - 1]):
            # "Education > 1. Against Your Parents' Will": a number counted afresh under a heading that prints none
            # is told by that heading's name ("Education 1 ¶1"), or the next list's "1." carries its count on
            parent = parts[depth - 2] if depth - 2 >= len(_parts(root)) else ""
            outer = _printed(parent) if parent else ""
            if printed.isdigit() and outer.replace(".", "").isdigit() or len(printed) == 1 and printed.isalpha() \
                    and "." in outer:
                # "4. Turn Sequence > 5. Discard Phase": phase 5 of chapter 4, never chapter 5; "5.3 > B. …": 5.3.B;
                # "9.7 Land Battles > 1. Battle Preparations": step 9.7.1, never the land and naval steps counted as one
                return f"{outer}.{printed}"
            named = _names(parent)[0] if printed.isdigit() and parent and not outer else ""
            return f"{named} {printed}" if named else printed
    return ""


def _printed(heading: str) -> str:
    """The label a heading prints ("Appendix II" for "Appendix Ii: Setup", "7.10" for "Rule 7.10 Fighting"), or
    "": a year ("2024 - Season XII") or a date ("15 March 2017") opening a heading prints none."""
    found = HEADING_LABEL.match(heading)
    if found and found.group("word"):
        return f"{found.group('word').capitalize()} {found.group('part').upper()}"
    label = found.group("label") if found else ""
    after = heading[found.end():].lstrip(".:)").split()[:1] if found else []
    if label.isdigit() and (len(label) == 4 and _YEARS[0] <= int(label) <= _YEARS[1]
                            or after and after[0].strip(",").casefold() in MONTHS):
        return ""
    return label


def _strays(rulings: list[Ruling], labels: dict[str, str], ordinals: set[str]) -> list[Ruling]:
    """Rulings numbered by one number that other units are numbered under elsewhere, units they do not head: a setup's step "1" where rules 1.1, 1.2… follow topic 1 ("rule 1" names the topic). A ruling heads
    the units in its own section or under it."""
    under: dict[str, set[str]] = {}  # a number's ref key -> the sections of the units numbered under it
    for ruling in rulings:
        if ruling.kind not in HEADER_KINDS | TERM_KINDS and ruling.id not in ordinals:
            label = labels[ruling.id]
            for cut in LABEL_PART_START.finditer(label):
                if cut.start():
                    under.setdefault(ref_key(label[:cut.start()]), set()).add(ruling.section)

    def heads(ruling: Ruling, sections: set[str]) -> bool:
        below = f"{ruling.section} > {ruling.title}" if ruling.section else ruling.title
        return any(s in (ruling.section, below) or s.startswith(below + " > ") for s in sections)
    return [r for r in rulings if r.kind not in HEADER_KINDS | TERM_KINDS and r.id not in ordinals
            and labels[r.id].isdigit() and labels[r.id] in under and not heads(r, under[labels[r.id]])]


def document_numbers(rulings: list[Ruling], labels: dict[str, str]) -> set[str]:
    """The ref keys of every number the document gives its units: a numbered unit's label (`labels`: ruling
    id -> its label in its ref) and each number it descends from ("305.2a" -> 305.2 and 305, "1-2-1" -> 1-2
    and 1), and the numbers its headings print ("1.2 Golden Rules")."""
    ordinals = {r.id for r in counted(rulings)}
    found: set[str] = set()
    for ruling in rulings:
        if ruling.kind not in HEADER_KINDS | TERM_KINDS and ruling.id not in ordinals:
            label = labels[ruling.id]
            found.update(ref_key(label[:cut.start()]) for cut in LABEL_PART_START.finditer(label) if cut.start())
            found.add(ref_key(label))
        found.update(ref_key(m.group(1)) for part in ruling.section.split(" > ") if (m := HEADING_OWN_NUMBER.match(part)))
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
    headings = _headings(rulings)
    heads = {headings.get(_split_section(r.section)) for r in rulings}
    return [r for r in rulings if r.kind not in HEADER_KINDS and _ordinal(r) and r.id not in heads]


def _ordinal(ruling: Ruling) -> bool:
    """Is the ruling's label a count rather than a number the document gives it: a paragraph's ("7"), a
    question's ("q12"), or any label that does not number (a slug)? A paragraph that is a numbered heading's own
    text ("6.A" under "6.A. Basic Checks", "7.11" under "Rule 7.11 Instigator") carries the heading's number, a
    question numbered in the document its number ("1" for "## 1. What is a Hand?"), and a glossary entry its
    term."""
    if ruling.kind in TERM_KINDS or _printed_heading(ruling):
        return False
    if not numbering(ruling.label):
        return True  # "q7": a question's count
    # A question's number is the document's ("## 1. What is a Hand?"); a paragraph's is its count, but where its
    # heading prints it.
    return ruling.kind == "paragraph" and not _heads_with(ruling.section.rpartition(" > ")[2], ruling.label)


def _heads_with(heading: str, label: str) -> bool:
    """Does `heading` open with `label`, whole (a word boundary after it), after a keyword or not ("Rule 7.11")?
    Compared in place, not by a pattern made for each label: a document of 200,000 units would compile 200,000."""
    starts = {0} | {match.end() for match in [OPENING_KEYWORD.match(heading)] if match}
    return any(heading[start:start + len(label)].lower() == label.lower()
               and word_boundary(heading, start + len(label)) for start in starts)


def _own_labels(members: list[Ruling]) -> list[str]:
    """Each ruling's label within its section: its numbering, a glossary entry's term, else the next ordinal
    its section's numbers leave free (a question after paragraphs "2" to "6" is "7", not a second "6")."""
    numbers = {numbering(r.label) for r in members}
    ordinals = (str(n) for n in count(1) if str(n) not in numbers)
    # A glossary entry the document numbers ("4-1. Effect") keeps its number.
    return [(numbering(r.label) if r.label[:1].isdigit() else "") or _term(r) or numbering(r.label)
            or (r.label if _printed_heading(r) else "") or next(ordinals) for r in members]


def _printed_heading(ruling: Ruling) -> bool:
    """Is the ruling a heading's own text, labelled as the heading prints it ("Interpretation 1 Rule 7.1 (a)")?"""
    return bool(ruling.label) and ruling.section.rpartition(" > ")[2] == ruling.label


def _named(members: list[Ruling], base: list[str], section: str, titled: set[str], parted: bool = False) -> list[str]:
    """Labels that are counts made into names, where the document prints no label (and no labelled heading is
    over them): a unit that is its own heading by its title ("DT Revealing A Room", added to `titled`), any
    other by the heading it sits under and its count there ("TtR Components 2"), skipping the numbers its
    section's units print; beside items numbered "1.", "2." or parts whose headings print numbers (`parted`) a
    paragraph or question is marked apart ("Fleet ¶1", never a second "Fleet 1" nor a third item "Fleet 3"). A
    count stays bare only under no heading at all."""
    heading = " ".join(section.rpartition(" > ")[2].split()).rstrip(".:")  # "Dwarf cards." names "Dwarf cards"
    printed = {own for own, ruling in zip(base, members, strict=True) if not _ordinal(ruling)}
    named, counts = [], (n for n in count(1) if str(n) not in printed)  # a count under its heading starts there
    # beside items the document numbers, a paragraph or question is marked, never counted on as one more item
    # ("Fate Cards ¶1" over items "1."…"5.", not "Fate Cards 6")
    marks = {mark: count(1) for mark in _MARKS.values()} if parted or any(own.isdigit() for own in printed) else {}
    for own, ruling in zip(base, members, strict=True):
        if numbering(own) != own or not _ordinal(ruling):
            named.append(own)  # the document's number, or a term: no count
        elif ruling.label == ruling.title and not numbering(ruling.label):
            named.append(" ".join(ruling.title.split()))
            titled.add(ruling.id)
        elif heading and _MARKS.get(ruling.kind) in marks:
            mark = _MARKS[ruling.kind]
            named.append(f"{heading} {mark}{next(marks[mark])}")
        else:
            named.append(f"{heading} {next(counts)}" if heading else own)
    return named


def _term(ruling: Ruling) -> str:
    """A glossary entry's term as a label ("Summoning Sickness Rule"), or ""."""
    return " ".join(ruling.title.split()) if ruling.kind in TERM_KINDS else ""


def _keys_beside(taken: Iterable[str], abbrev: str) -> set[str]:
    """The keys of the `taken` refs that a ref starting with `abbrev` could have: those whose key opens with the
    same character (every ref `ruling_refs` gives, clipped or not, opens as its abbreviation does). Sorted out
    before keying: keying every ref of a library of a hundred thousand rulings was most of what refs cost an
    add to it."""
    first = ref_key(abbrev)[:1]
    if not first:
        return {ref_key(t) for t in taken}
    # A ref's key opens with its first character that is not a space, casefolded ("ß" keys as "ss").
    return {ref_key(t) for t in taken if t.lstrip()[:1].casefold()[:1] == first}


def _clip(ref: str, limit: int) -> str:
    """`ref` cut after its last whole word that leaves room for "…" within `limit` characters ("Lorcana alter
    a starting…", "Lorcana challenging…" for "challenging/challenged character"); "" when not even the first
    word after the abbreviation fits, for a word is never cut."""
    if len(ref) <= limit:
        return ref
    cut = UP_TO_LAST_BREAK.match(ref[:limit])
    head = cut.group(1).rstrip(" ,;:/-") if cut else ""
    return head + "…" if " " in head else ""


def _clip_term(ref: str, limit: int) -> str:
    """A ref whose label is a term and a number ("IA Winning the Game 1") with the term cut to fit and the
    number kept ("IA Winning the… 1"); any other ref as it is, and "" when no whole word of the term fits."""
    head, _, number = ref.rpartition(" ")
    if " " not in head or not numbering(number.lstrip(PARAGRAPH + "Q")) or len(ref) <= limit:
        return ref
    cut = _clip(head, limit - len(number) - 1)
    return f"{cut} {number}" if cut else ""


def _tail(ref: str, abbrev: str, limit: int) -> str:
    """A ref of a heading and a number too long for `limit`, its heading cut at the front instead ("X …Page 128, House
    Guard 1"); "" when it fits, is no heading and number, or not even the heading's last word fits."""
    head, _, number = ref.rpartition(" ")
    words = head.removeprefix(f"{abbrev} ").split()
    if len(ref) <= limit or len(words) < 2 or not numbering(number.lstrip(PARAGRAPH + "Q")):
        return ""
    kept: list[str] = []
    for word in reversed(words):
        if len(f"{abbrev} …{' '.join([word, *kept])} {number}") > limit:
            break
        kept.insert(0, word)
    return f"{abbrev} …{' '.join(kept)} {number}" if kept else ""


def _under_title(title: str, label: str) -> str:
    """`label` after the `title` of the heading it sits under when it is one letter or number ("A", "12"),
    which counts only within that heading; a label of more parts ("2.4") is the document's whole number, and
    one named by the heading already ("Components 2") or by its own title stays as it is."""
    return f"{title} {label}" if numbering(label) == label and not LABEL_PART_START.search(label) else label


def _again(ref: str, printing: int, clip) -> str:
    """`ref` marked as the `printing`th unit that asks for it ("X 4.03c #2"), `clip`ped to leave room for the
    mark; "" for the first printing, or when no whole word fits."""
    mark = f" #{printing}"
    fit = clip(ref, MAX_REF - len(mark)) if printing > 1 else ""
    return f"{fit}{mark}" if fit else ""


def _split_section(section: str) -> tuple[str, str]:
    """("New Rules", "Activating Neutral Nations") for "New Rules > Activating Neutral Nations": the section
    a heading sits in and its title."""
    head, _, title = section.rpartition(" > ")
    return head, title


def _qualifiers(section: str, root: str) -> list[str]:
    """Words that tell a section's labels apart: the names of its own heading ("Special" for "Rules > Special
    Considerations", see `_names`), then of its part of the document below the source's root; whole words of at
    most MAX_ABBREV letters only."""
    parts = _below_root(section, root)
    # "The Goulash" is told apart by "The Goulash", never "The"
    firsts = [name for part in (parts[-1:] + parts[:1]) for name in _names(part)]
    # A word too long to be short is no qualifier: a ref never holds a cut word ("Adjudicati"); a part's number is
    # no word ("Scenario 14").
    return list(dict.fromkeys(first for first in firsts if first and len(
        first.rpartition(" ")[0] if first.rpartition(" ")[2].isdigit() else first) <= MAX_ABBREV))


def _names(heading: str) -> tuple[str, ...]:
    """The words that name a heading, first the first word of its title ("Additional" for "2 Additional Equipment",
    never a piece of its number), then the label it prints ("III" for "III. The Playoffs")."""
    printed = HEADING_LABEL.match(heading)
    if not printed:
        # "Scenario 14 – Retrieval": a part the document numbers with a word of its own ("Mission 3", "Quest 2")
        word, number = (heading.split() + ["", ""])[:2]
        number = number.rstrip(".:")
        if word.isalpha() and word[:1].isupper() and number.isdigit() and len(number) <= 3 \
                and word.casefold() not in KEYWORD_WORDS:
            return (f"{word.capitalize()} {number}",)
        return (_first_name(WORD_RUN.findall(heading)),)
    return _first_name(WORD_RUN.findall(heading[printed.end():])), _printed(heading)


def _first_name(words: list[str]) -> str:
    """A title's first word, with the next when the first is a small word ("The Goulash")."""
    return " ".join(words[:2]) if len(words) > 1 and words[0].casefold() in _SMALL else "".join(words[:1])


def _parts(section: str | None) -> list[str]:
    return [part for part in (section or "").split(" > ") if part]


def _below_root(section: str, root: str, keep_last: bool = True) -> list[str]:
    """The parts of `section` below `root` (all of them when it is not under the root; when it is the root
    itself, its last part if `keep_last`, else none)."""
    parts, top = _parts(section), _parts(root)
    if top and parts[:len(top)] == top:
        return parts[len(top):] or (parts[-1:] if keep_last else [])
    return parts


def _shared_root(rulings: list[Ruling], root: str | None) -> str:
    """The section every ruling of the source sits under: `root` (the manifest's), extended by the parts every
    ruling's section goes on with, such as the document's own title heading ("FIDE Laws of Chess" over all its
    articles). Those tell no part of the document from another: a qualifier taken from one would only repeat
    the document's name, or the abbreviation ("FIDE FIDE F.1")."""
    paths = [_parts(r.section) for r in rulings if r.kind not in HEADER_KINDS]
    if not paths or not all(paths):
        return root or ""
    shared: list[str] = []
    for parts in zip(*paths):
        if len(set(parts)) > 1:
            break
        shared.append(parts[0])
    top = _parts(root)
    return " > ".join(shared) if len(shared) > len(top) and shared[:len(top)] == top else root or ""
