"""Editions of a source: the rows that record one (its `source_versions` row and its rulings' `ruling_history`
rows), and what changed between two (rules added, removed, changed, with a word-level diff)."""
from __future__ import annotations

import difflib
import json
import re

from model.kinds import HEADER_KINDS
from model.refs import numbering

# A source's editions in order: by the date each takes effect; one without a date was the newest when added
# (model: changeset.for_edition), and follows every dated one.
EDITION_ORDER = "order by effective = '', effective, added_at"
# A source's own rows, kept with each edition so that it can become current again. Links to names other sources
# define are not its own: they are made afresh whenever it becomes current.
OWN_TABLES = ("rulings", "examples", "xrefs", "gaps", "rule_tables", "rule_table_rows", "spells")
# Kept in the edition's own columns, not again in its rows.
_TEXTS = ("original_text", "cleaned_text", "line_numbers")
_HISTORY = ("ref", "label", "title", "section", "kind", "text", "line_start", "line_end", "char_start", "char_end",
            "page", "page_end", "pdf_page", "citation")


def version_of(source: dict) -> str:
    """The version string of a source row: what the document calls its version, else its date, else "1"."""
    return source.get("version") or source.get("date") or "1"


def own_rows(rows: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """The rows of one source that are its own (OWN_TABLES, without links to other sources' names)."""
    own = {table: list(rows.get(table, ())) for table in OWN_TABLES}
    own["xrefs"] = [x for x in own["xrefs"] if x.get("kind") != "name"]
    return own


def version_row(source: dict, rows: dict[str, list[dict]], added_at: str, current: bool) -> dict:
    """The `source_versions` row of the edition whose `sources` row is `source` and whose rows are `rows`."""
    return {"source": source["id"], "version": version_of(source), "effective": source.get("date") or "",
            "current": int(current), "title": source["title"], "file": source["file"], "format": source["format"],
            "sha256": source["sha256"], "rulings": len(rows.get("rulings", ())), "added_at": added_at,
            "original_text": source["original_text"], "cleaned_text": source["cleaned_text"],
            "first_line": source["first_line"], "line_numbers": source["line_numbers"],
            "rows": json.dumps({"sources": [{k: v for k, v in source.items() if k not in _TEXTS}], **own_rows(rows)},
                               ensure_ascii=False)}


def edition_rows(edition: dict) -> dict[str, list[dict]]:
    """The rows an edition kept (its `source_versions` row's `rows`), its `sources` row whole again."""
    rows = json.loads(edition["rows"])
    rows["sources"][0].update({key: edition[key] for key in _TEXTS})
    return rows


def history_rows(source: dict, rulings: list[dict]) -> list[dict]:
    """The `ruling_history` rows of one edition: each ruling as it gives it."""
    version, effective = version_of(source), source.get("date") or ""
    return [{"ruling_id": r["id"], "source": source["id"], "version": version, "effective": effective,
             **{key: r.get(key) for key in _HISTORY}} for r in rulings]


def compare(before: dict[str, dict], after: dict[str, dict], words: bool = True) -> dict[str, list[dict]]:
    """What changed from one edition to the next, each given as {ruling id: its history row}: rules added and
    removed (their rows), moved (the same ruling at another number: `{"id", "ref", "from_ref", "label",
    "from_label", "from_id", "section", "title", "before", "after", "diff"}`, `diff` None when its text is
    unchanged) and changed in place (the same keys but the `from_` ones, `from_id` aside), each list in the later
    edition's order (removed: the earlier's). A rule rewritten (`rewritten`) is changed or moved, not removed and
    added: its `from_id` is the earlier edition's id for it (else None). What the document says of itself (title,
    credits, its update summary and the rules it reprints there) is no rule. Without `words`, a `diff` is None
    (what changed is counted, not shown)."""
    before, after = _rules(before), _rules(after)
    was = {rid: rid for rid in after if rid in before}
    was.update(rewritten({rid: row for rid, row in before.items() if rid not in after},
                         {rid: row for rid, row in after.items() if rid not in before}))
    moved, changed = [], []
    for rid, row in after.items():
        if rid not in was:
            continue
        old = before[was[rid]]
        edited = _says(old) != _says(row)
        entry = {"id": rid, "ref": row["ref"], "label": row["label"], "section": row["section"],
                 "title": row["title"], "before": old["text"], "after": row["text"],
                 "from_id": was[rid] if was[rid] != rid else None,
                 "diff": word_diff(old["text"], row["text"]) if words and edited else None}
        if numbering(old["label"] or "") != numbering(row["label"] or ""):
            moved.append({**entry, "from_ref": old["ref"], "from_label": old["label"], "edited": edited})
        elif edited:
            changed.append(entry)
    kept = set(was.values())
    removed = [row for rid, row in before.items() if rid not in kept]
    added = [row for rid, row in after.items() if rid not in was]
    return {"added": added, "removed": removed, "moved": moved, "changed": changed}


# What a rule is about where it opens with a term set off by a dash ("Ready – When a card is readied…").
_LEAD_TERM = re.compile(r"^\s*([^\W\d_][\w’'/ ()-]{0,30}?)\s+[–—-]\s+\S")
# Else the words it opens with, this many: with its number, what says which rule it is.
_OPENING_WORDS = 4


def rewritten(removed: dict[str, dict], added: dict[str, dict]) -> dict[str, str]:
    """Rules the later edition rewrote so that they are no longer matched as one rule (ingest.editions keeps ids
    by what rules say): added rule id -> removed rule id, for a removed and an added rule in the same section (the
    same number before their own, "5.1" of 5.1.1, or the same section titles, numbers aside) with the same subject:
    the same term they open with ("Ready – …"), or, at the same number, the same first words. Each rule pairs
    once, and only where its subject is its section's only one on both sides. What a document says of itself is
    no rule (as in `compare`)."""
    removed, added = _rules(removed), _rules(added)

    def keys(row: dict) -> list[tuple]:
        number = numbering(row["label"] or "")
        if not number:
            return []
        term = _LEAD_TERM.match(row["text"] or "")
        opening = " ".join(_WORD.findall((row["text"] or "").casefold())[:_OPENING_WORDS])
        subjects = [("term", term[1].casefold().strip())] if term else [("opening", number, opening)]
        places = [("number", number.rpartition(".")[0])] if "." in number else []
        places.append(("titles", tuple(unnumbered(row["section"]))))
        return [(place, subject) for place in places for subject in subjects]

    olds: dict[tuple, list[str]] = {}
    for rid, row in removed.items():
        for key in keys(row):
            olds.setdefault(key, []).append(rid)
    news: dict[tuple, list[str]] = {}
    for rid, row in added.items():
        for key in keys(row):
            news.setdefault(key, []).append(rid)
    found: dict[str, str] = {}
    for key, members in news.items():
        if len(members) == 1 and len(olds.get(key, ())) == 1 and members[0] not in found \
                and olds[key][0] not in found.values():
            found[members[0]] = olds[key][0]
    return found


def unnumbered(section: str | None) -> list[str]:
    """A section's titles without their numbers: "Keywords > 10.8 Shift" is "Keywords > 10.10 Shift"."""
    return [" ".join(word for word in part.split() if not any(c.isdigit() for c in word))
            for part in (section or "").split(" > ")]


def _rules(rows: dict[str, dict]) -> dict[str, dict]:
    return {rid: row for rid, row in rows.items() if row["kind"] not in HEADER_KINDS and row["kind"] != "restated"}


def _says(row: dict) -> tuple[str, str]:
    """What a ruling says, whitespace aside: its title and text."""
    return " ".join((row["title"] or "").split()), " ".join((row["text"] or "").split())


_WORD = re.compile(r"\S+")
# Pairs of words (or of sentences) one diff may compare: difflib's matcher takes time up to the product of the two
# lengths (a 40,000-word rule, changed, took 18 s), about 0.1 s at this many. A longer changed stretch is compared
# sentence by sentence, and where even that is too long, shown removed and added whole.
_PAIRS = 1_000_000
_SENTENCE_END = re.compile(r"[.!?;:]['’\")\]]*$")


def word_diff(before: str, after: str) -> list[dict]:
    """`before` to `after` word by word: runs of {"op": "same" | "removed" | "added", "text"}. Time is bounded
    (about linear in the words, see _PAIRS): the words both share at the start and the end are not compared."""
    old, new = _WORD.findall(before or ""), _WORD.findall(after or "")
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    runs: list[dict] = []
    for op, words in [("same", old[:head]), *_changes(old[head:len(old) - tail], new[head:len(new) - tail]),
                      ("same", old[len(old) - tail:])]:
        if not words:
            continue
        if runs and runs[-1]["op"] == op:
            runs[-1]["text"] += " " + " ".join(words)
        else:
            runs.append({"op": op, "text": " ".join(words)})
    return runs


def _changes(old: list[str], new: list[str]) -> list[tuple[str, list[str]]]:
    """(op, words) from `old` to `new`: word by word within _PAIRS; else sentence by sentence, the sentences that
    differ word by word within _PAIRS; else all removed and all added."""
    if len(old) * len(new) <= _PAIRS:
        return _runs(old, new)
    before, after = _sentences(old), _sentences(new)
    if len(before) * len(after) > _PAIRS:
        return [("removed", old), ("added", new)]
    found: list[tuple[str, list[str]]] = []
    for op, i1, i2, j1, j2 in _opcodes(before, after):
        removed = [word for sentence in before[i1:i2] for word in sentence]
        added = [word for sentence in after[j1:j2] for word in sentence]
        if op == "equal":
            found.append(("same", removed))
        elif len(removed) * len(added) <= _PAIRS:
            found += _runs(removed, added)
        else:
            found += [("removed", removed), ("added", added)]
    return found


def _runs(old: list[str], new: list[str]) -> list[tuple[str, list[str]]]:
    found: list[tuple[str, list[str]]] = []
    for op, i1, i2, j1, j2 in _opcodes(old, new):
        found += [("same", old[i1:i2])] if op == "equal" else [("removed", old[i1:i2]), ("added", new[j1:j2])]
    return found


def _opcodes(old: list, new: list) -> list[tuple[str, int, int, int, int]]:
    return difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()


def _sentences(words: list[str]) -> list[tuple[str, ...]]:
    """Words as sentences: each ends at a word that ends one ("rule.", "this:", "(see 4.3)."), the last at the end."""
    found, start = [], 0
    for at, word in enumerate(words):
        if _SENTENCE_END.search(word):
            found.append(tuple(words[start:at + 1]))
            start = at + 1
    return found + [tuple(words[start:])] if start < len(words) else found
