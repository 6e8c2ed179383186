"""Editions of a source: the rows that record one (its `source_versions` row and its rulings' `ruling_history`
rows), and what changed between two (rules added, removed, changed, with a word-level diff)."""
from __future__ import annotations

import difflib
import json
import re

from model.kinds import HEADER_KINDS

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


def compare(before: dict[str, dict], after: dict[str, dict]) -> dict[str, list[dict]]:
    """What changed from one edition to the next, each given as {ruling id: its history row}: rules added and
    removed (their rows; an added rule whose text a removed one had says so, `moved_from` its ref), and changed
    ones (`{"id", "ref", "section", "title", "before", "after", "diff"}`), each list in document order. What the
    document says of itself (title, credits, its update summary and the rules it reprints there) is no rule."""
    before, after = _rules(before), _rules(after)
    changed = [{"id": rid, "ref": row["ref"], "section": row["section"], "title": row["title"],
                "before": before[rid]["text"], "after": row["text"],
                "diff": word_diff(before[rid]["text"], row["text"])}
               for rid, row in after.items() if rid in before and _says(before[rid]) != _says(row)]
    removed = [row for rid, row in before.items() if rid not in after]
    was = {_says(row)[1]: row["ref"] for row in removed}
    added = [{**row, "moved_from": was.get(_says(row)[1])} for rid, row in after.items() if rid not in before]
    return {"added": added, "removed": removed, "changed": changed}


def _rules(rows: dict[str, dict]) -> dict[str, dict]:
    return {rid: row for rid, row in rows.items() if row["kind"] not in HEADER_KINDS and row["kind"] != "restated"}


def _says(row: dict) -> tuple[str, str]:
    """What a ruling says, whitespace aside: its title and text."""
    return " ".join((row["title"] or "").split()), " ".join((row["text"] or "").split())


_WORD = re.compile(r"\S+")


def word_diff(before: str, after: str) -> list[dict]:
    """`before` to `after` word by word: runs of {"op": "same" | "removed" | "added", "text"}."""
    old, new = _WORD.findall(before or ""), _WORD.findall(after or "")
    runs: list[dict] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op == "equal":
            runs.append({"op": "same", "text": " ".join(old[i1:i2])})
            continue
        if i2 > i1:
            runs.append({"op": "removed", "text": " ".join(old[i1:i2])})
        if j2 > j1:
            runs.append({"op": "added", "text": " ".join(new[j1:j2])})
    return runs
