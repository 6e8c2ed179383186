"""A new edition of a stored source: which of its rulings are rulings the source already had (so that they keep
their ids and refs), and its rows given those ids.

A ruling is the same ruling in two editions when the document keeps its number: a rule numbered by the
document ("4.3.6", "702.19b", "B.3") or a glossary term has the same ref label in both. A unit the document
does not number (a paragraph, a question) is the same when its text is, whitespace aside, or else when it is
close enough: of the same kind, and at least SIMILAR alike word for word (difflib's ratio), the closest pairs
first. Anything else is a ruling added in the new edition, and an old one left unmatched was removed.
"""
from __future__ import annotations

import difflib
from collections import Counter
from itertools import chain, count

from model.kinds import TERM_KINDS
from model.records import Ruling
from model.refs import numbering, ref_key

SIMILAR = 0.8
# Pairs compared word for word at most: beyond, unnumbered units match by equal text only (bounded time).
_MAX_PAIRS = 250_000


def _numbered(ruling) -> bool:
    """The document numbers (or names) this unit itself, rather than it taking an ordinal (a Ruling or a
    history row)."""
    kind, label = (ruling["kind"], ruling["label"]) if isinstance(ruling, dict) else (ruling.kind, ruling.label)
    return kind in TERM_KINDS or kind not in ("paragraph", "question") and bool(numbering(label))


def _words(title: str, text: str) -> list[str]:
    return f"{title or ''} {text or ''}".split()


def match(new: list[Ruling], refs: dict[str, str], old: list[dict]) -> dict[str, str]:
    """New ruling id -> the id of the old ruling it is (`old`: an edition's history rows; `refs`: the refs the
    new rulings would get on their own). A numbered unit matches by its number where the number is unique in
    both editions (else by its ref), an unnumbered one by its text."""
    found: dict[str, str] = {}
    numbered_new = [r for r in new if _numbered(r)]
    numbered_old = [row for row in old if _numbered(row)]
    once_old, once_new = _once(map(_key, numbered_old)), _once(map(_key, numbered_new))
    by_number = {_key(row): row["ruling_id"] for row in numbered_old if _key(row) in once_old}
    by_ref = {ref_key(row["ref"]): row["ruling_id"] for row in numbered_old}
    matched: set[str] = set()
    for ruling in numbered_new:
        key = _key(ruling)
        old_id = (by_number.get(key) if key in once_new else None) or by_ref.get(ref_key(refs.get(ruling.id, "")))
        if old_id and old_id not in matched:
            found[ruling.id] = old_id
            matched.add(old_id)
    left_old = [row for row in old if not _numbered(row) and row["ruling_id"] not in matched]
    left_new = [r for r in new if not _numbered(r)]
    by_text: dict[tuple[str, str], str] = {}
    for row in left_old:
        by_text.setdefault((row["kind"], " ".join(_words(row["title"], row["text"]))), row["ruling_id"])
    for ruling in left_new:
        old_id = by_text.pop((ruling.kind, " ".join(_words(ruling.title, ruling.text))), None)
        if old_id:
            found[ruling.id] = old_id
    taken = set(found.values())
    left_old = [row for row in left_old if row["ruling_id"] not in taken]
    left_new = [r for r in left_new if r.id not in found]
    if len(left_old) * len(left_new) > _MAX_PAIRS:
        return found
    pairs = []
    for ruling in left_new:
        words = _words(ruling.title, ruling.text)
        for row in left_old:
            if row["kind"] != ruling.kind:
                continue
            matcher = difflib.SequenceMatcher(None, words, _words(row["title"], row["text"]), autojunk=False)
            if matcher.real_quick_ratio() >= SIMILAR and matcher.quick_ratio() >= SIMILAR:
                ratio = matcher.ratio()
                if ratio >= SIMILAR:
                    pairs.append((ratio, ruling.id, row["ruling_id"]))
    for _, new_id, old_id in sorted(pairs, key=lambda pair: -pair[0]):
        if new_id not in found and old_id not in taken:
            found[new_id] = old_id
            taken.add(old_id)
    return found


def _key(ruling) -> str:
    """What a numbered unit is known by: its number (a reprint's apart), or a glossary entry's term."""
    kind, label, title = (ruling["kind"], ruling["label"], ruling["title"]) if isinstance(ruling, dict) else \
        (ruling.kind, ruling.label, ruling.title)
    if kind in TERM_KINDS:
        return " ".join((title or "").split()).casefold()
    # A reprint in an update summary shares its rule's number; it is matched with the reprints.
    return ("restated " if kind == "restated" else "") + numbering(label).casefold()


def _once(keys) -> set[str]:
    """The keys that occur once."""
    return {key for key, n in Counter(keys).items() if n == 1}


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
