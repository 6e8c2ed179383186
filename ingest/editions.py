"""A new edition of a stored source: which of its rulings are rulings the source already had (so that they keep
their ids), and its rows given those ids.

A rule is known by what it says, not by its number: rulebooks renumber (a keyword inserted before the others
moves every later keyword down one number), so a number holding another rule in the new edition is a rule
removed and a rule added, never one rule changed. Across two editions a rule (a unit the document numbers) is
the same rule, in this order:
1. when its text, without its number, is the same (whitespace aside), wherever it is numbered;
2. when it is at least NEAR alike word for word (difflib's ratio), wherever it is numbered, the closest first;
3. when it stands at the same place (its last number) in the section of the same title ("10.2 Bodyguard" and
   "10.3 Bodyguard" are one section), and is at least EDITED alike: one rule, edited;
4. when it has the same number and is at least EDITED alike.
A glossary entry is the same when its term is; a reprint in an update summary is matched among reprints only.
A unit the document does not number (a paragraph, a question) is the same when its text is, whitespace aside,
or else when it is of the same kind and at least SIMILAR alike. Anything else is a ruling added in the new
edition, and an old one left unmatched was removed. The thresholds were measured on three editions of a real
rulebook (docs/editions.md).
"""
from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass
from itertools import chain, count

from ingest.classify.references import SECTION_OWN_NUMBER
from ingest.classify.words import WORD_CHARS
from ingest.segment import section_slug, slugify
from model.kinds import TERM_KINDS
from model.records import Ruling
from model.refs import numbering

# Alike enough, wherever numbered, to be one rule: a word or two changed. Measured on three editions of a
# rulebook: two different rules reach 0.87 ("[Classification] Shift means…" and "Universal Shift means…").
NEAR = 0.9
# Alike enough, in the section of the same title or at the same number, to be one rule edited rather than
# another rule there; or saying at least CONTAINED of what the other says (of _CONTAINED_WORDS words or more).
EDITED = 0.5
CONTAINED = 0.85
_CONTAINED_WORDS = 6
SIMILAR = 0.8
# Pairs compared word for word at most per step: beyond, only equal texts (and places, numbers) match.
_MAX_PAIRS = 250_000


@dataclass(frozen=True)
class _Unit:
    """A ruling as the matching sees it (a new Ruling or an old history row)."""

    id: str
    kind: str
    family: str           # "rule" | "term" | "restated" | "unnumbered": units only match within a family
    number: str           # the number the document gives it ("" if none)
    words: tuple          # what it says (a glossary entry: its term and text), as words
    section: tuple        # its section's titles without their numbers
    place: str            # its number's last part ("4" of 10.3.4)

    @classmethod
    def of(cls, ruling) -> "_Unit":
        get = ruling.get if isinstance(ruling, dict) else lambda key: getattr(ruling, key)
        kind, label = get("kind"), get("label") or ""
        number = numbering(label)
        family = ("term" if kind in TERM_KINDS else "unnumbered" if kind in ("paragraph", "question") or not number
                  else "restated" if kind == "restated" else "rule")
        title, text = get("title") or "", get("text") or ""
        words = tuple(WORD_CHARS.findall((text if family != "term" and text.strip() else f"{title} {text}").casefold()))
        if family == "term":
            number = " ".join(title.split()).casefold()
        section = tuple(SECTION_OWN_NUMBER.sub("", part).strip().casefold()
                        for part in (get("section") or "").split(" > "))
        return cls(get("ruling_id") if isinstance(ruling, dict) else ruling.id, kind, family, number, words,
                   section, number.replace("-", ".").rpartition(".")[2])


def match(new: list[Ruling], old: list[dict], trace: dict[str, str] | None = None) -> dict[str, str]:
    """New ruling id -> the id of the old ruling it is (`old`: an edition's history rows, in document order),
    as the module says. `trace`, when given, gets new ruling id -> the step that matched it ("equal", "near",
    "section", "number", "term", "similar")."""
    found: dict[str, str] = {}
    news, olds = [_Unit.of(r) for r in new], [_Unit.of(row) for row in old]
    for family, steps in _STEPS.items():
        left_new = [u for u in news if u.family == family]
        left_old = [u for u in olds if u.family == family]
        for step in steps:
            pairs = step(left_new, left_old)
            for new_unit, old_unit in pairs:
                found[new_unit.id] = old_unit.id
                if trace is not None:
                    trace[new_unit.id] = step.__name__.strip("_")
            done, taken = {n.id for n, _ in pairs}, {o.id for _, o in pairs}
            left_new = [u for u in left_new if u.id not in done]
            left_old = [u for u in left_old if u.id not in taken]
    return found


def ratio(a: tuple, b: tuple) -> float:
    """How alike two texts (as words) are, 0 to 1 (difflib's ratio)."""
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def _equal(new: list[_Unit], old: list[_Unit]) -> list[tuple[_Unit, _Unit]]:
    """Units that say the same: the same number first among those saying it, then in document order."""
    by_words: dict[tuple, list[_Unit]] = {}
    for unit in old:
        by_words.setdefault((unit.kind if unit.family == "unnumbered" else "", unit.words), []).append(unit)
    pairs = []
    wanting = {}
    for unit in new:
        wanting.setdefault((unit.kind if unit.family == "unnumbered" else "", unit.words), []).append(unit)
    for key, members in wanting.items():
        candidates = by_words.get(key, [])
        for unit in list(members):
            same = next((o for o in candidates if o.number == unit.number), None)
            if same:
                pairs.append((unit, same))
                candidates.remove(same)
                members.remove(unit)
        pairs += zip(members, candidates)
    return pairs


def _closest(new: list[_Unit], old: list[_Unit], alike, floor: float) -> list[tuple[_Unit, _Unit]]:
    """Pairs at least `floor` alike (`alike(new, old)`, 0 to 1), the closest first (at equal scores, those at the
    same place), each unit once."""
    if len(new) * len(old) > _MAX_PAIRS:
        return []
    scored = []
    for n in new:
        for o in old:
            score = alike(n, o, floor)
            if score >= floor:
                scored.append((-score, n.place != o.place, n, o))
    pairs, done, taken = [], set(), set()
    for *_, n, o in sorted(scored, key=lambda item: item[:2]):
        if n.id not in done and o.id not in taken:
            pairs.append((n, o))
            done.add(n.id)
            taken.add(o.id)
    return pairs


def _ratio(n: _Unit, o: _Unit, floor: float) -> float:
    """How alike two units' words are (difflib's ratio), 0 where cheaper bounds show it is below `floor`."""
    matcher = difflib.SequenceMatcher(None, n.words, o.words, autojunk=False)
    if matcher.real_quick_ratio() < floor or matcher.quick_ratio() < floor:
        return 0.0
    return matcher.ratio()


def _edited(n: _Unit, o: _Unit, floor: float = EDITED) -> float:
    """How alike two units are as one rule edited: their ratio, or, when one says all (CONTAINED) the other
    said and more (a rule extended by a sentence, a word or two changed in a short rule), that share."""
    matcher = difflib.SequenceMatcher(None, n.words, o.words, autojunk=False)
    shorter = min(len(n.words), len(o.words))
    if shorter >= _CONTAINED_WORDS:
        kept = sum(block.size for block in matcher.get_matching_blocks()) / shorter
        if kept >= CONTAINED:
            return kept
    return matcher.ratio()


def _near(new, old):
    return _closest(new, old, _ratio, NEAR)


def _similar(new, old):
    return _closest(new, old, lambda n, o, floor: _ratio(n, o, floor) if n.kind == o.kind else 0.0, SIMILAR)


def _section(new, old):
    """In sections of the same title, the rules alike enough to be one rule edited."""
    return _closest(new, old, lambda n, o, floor: _edited(n, o) if n.section == o.section else 0.0, EDITED)


def _number(new, old):
    """Rules of the same number (it unique on both sides) alike enough to be one rule edited."""
    once_new, once_old = _once(u.number for u in new), _once(u.number for u in old)
    olds = {o.number: o for o in old if o.number in once_old}
    return [(n, olds[n.number]) for n in new if n.number in once_new and n.number in olds
            and _edited(n, olds[n.number]) >= EDITED]


def _term(new, old):
    """Glossary entries of the same term (it unique on both sides)."""
    once_new, once_old = _once(u.number for u in new), _once(u.number for u in old)
    olds = {o.number: o for o in old if o.number in once_old}
    return [(n, olds[n.number]) for n in new if n.number in once_new and n.number in olds]


def _once(keys) -> set:
    """The keys that occur once."""
    return {key for key, n in Counter(keys).items() if n == 1}


_STEPS = {"rule": (_equal, _near, _section, _number), "term": (_term, _equal, _near),
          "restated": (_equal, _number), "unnumbered": (_equal, _similar)}


def lineage(editions: list[list[dict]]) -> list[dict[str, str]]:
    """A source's editions (each its `ruling_history` rows in document order, the editions oldest first as
    model.editions.EDITION_ORDER lists them) -> for each, stored ruling id -> the id of the ruling it is for
    life. The first edition's ids stay; a ruling of a later edition takes the id of the ruling of the edition
    before that it is (`match`), else keeps its own where no other ruling had it, else takes one made from its
    section and number (`fresh_id`). Editions added in any order so get the same history."""
    found: list[dict[str, str]] = []
    used: set[str] = set()  # every id given so far
    before: list[dict] | None = None
    for rows in editions:
        if before is None:
            ids = {row["ruling_id"]: row["ruling_id"] for row in rows}
        else:
            ids = match(rows, before)
            taken = used | set(ids.values())
            for row in rows:
                if row["ruling_id"] not in ids:
                    own = row["ruling_id"]
                    ids[own] = own if own not in taken else fresh_id(row, taken)
                    taken.add(ids[own])
        used |= set(ids.values())
        before = [dict(row, ruling_id=ids[row["ruling_id"]]) for row in rows]
        found.append(ids)
    return found


def fresh_id(row: dict, taken: set[str]) -> str:
    """An id for a ruling (a history row) whose own id another ruling has: the one ingest gives a ruling of
    its section and label ("lorcana/keywords/10.2-alert/10.2.1"), with a number after it where that is taken."""
    game = row["ruling_id"].split("/")[0]
    path = "/".join(filter(None, (section_slug(part) for part in (row["section"] or "").split(" > "))))
    base = "/".join(filter(None, (game, path, slugify(row["label"] or "")))) if row["label"] else row["ruling_id"]
    return next(c for c in chain([base], (f"{base}-{n}" for n in count(2))) if c not in taken)


def stable_ids(new: list[Ruling], matched: dict[str, str], taken: set[str]) -> dict[str, str]:
    """New ruling id -> the id it is stored under: the matched old ruling's, else its own unless another ruling
    (current, or of any edition) has it, then with a number after it."""
    used = set(taken) | set(matched.values())
    ids = {}
    for ruling in new:
        if ruling.id in matched:
            ids[ruling.id] = matched[ruling.id]
            continue
        candidates = chain([ruling.id], (f"{ruling.id}-{n}" for n in count(2)))
        candidate = next(c for c in candidates if c not in used)
        used.add(candidate)
        ids[ruling.id] = candidate
    return ids


def remap(rows: dict[str, list[dict]], ids: dict[str, str], source: str) -> dict[str, list[dict]]:
    """A source's rows with its rulings' ids (and the ids derived from them: examples', tables', spells') as
    `ids` gives them, and its id `source`."""
    def moved(row_id: str, owner: str | None) -> str:  # "<ruling id>/example-1" follows its ruling
        return ids.get(owner, owner) + row_id[len(owner):] if owner and row_id.startswith(owner) else row_id

    out = {table: [dict(row) for row in found] for table, found in rows.items()}
    for row in out.get("sources", []):
        row["id"] = source
    for row in out.get("originals", []):
        row["source"] = source
    for row in out.get("rulings", []):
        row.update(id=ids.get(row["id"], row["id"]), parent=ids.get(row["parent"], row["parent"]), source=source)
    for row in out.get("examples", []):
        row.update(id=moved(row["id"], row["ruling_id"]), ruling_id=ids.get(row["ruling_id"], row["ruling_id"]))
    for row in out.get("xrefs", []):
        row.update(from_id=ids.get(row["from_id"], row["from_id"]), to_id=ids.get(row["to_id"], row["to_id"]))
    for row in out.get("gaps", []):
        row["source"] = source
    tables = {}
    for row in out.get("rule_tables", []):
        tables[row["id"]] = moved(row["id"], row["ruling_id"])
        row.update(id=tables[row["id"]], ruling_id=ids.get(row["ruling_id"], row["ruling_id"]), source=source)
    for row in out.get("rule_table_rows", []):
        row["table_id"] = tables.get(row["table_id"], row["table_id"])
    for row in out.get("spells", []):
        row.update(id=moved(row["id"], row["ruling_id"]), ruling_id=ids.get(row["ruling_id"], row["ruling_id"]))
    return out
