"""A source's editions on the web and in the API: its versions, the `from` and `to` of a diff checked, a diff
laid out section by section in document order, and what a ruling's page says of its history."""
from __future__ import annotations

import sqlite3

from flask import request
from werkzeug.exceptions import NotFound

from kb.editions import UnknownEdition, diff, history, versions
from kb.store import dicts
from model.editions import word_diff


def source_versions(conn: sqlite3.Connection, source_id: str) -> list[dict]:
    """`kb.editions.versions` of the source, oldest first; NotFound if there is no such source."""
    try:
        return versions(conn, source_id)
    except UnknownEdition as exc:
        raise NotFound(str(exc)) from None


def requested_diff(conn: sqlite3.Connection, source_id: str, listed: list[dict]) -> dict:
    """`kb.editions.diff` between the request's `from` and `to` versions (missing or empty: the version before
    `to`, and the current one) of the source whose versions are `listed` (`source_versions`). A version the source
    does not have is NotFound (no such diff), naming the parameter."""
    names = [edition["version"] for edition in listed]
    chosen = {}
    for param in ("from", "to"):
        chosen[param] = request.args.get(param) or None
        if chosen[param] is not None and chosen[param] not in names:
            raise NotFound(f"parameter '{param}': {source_id} has no version {chosen[param]!r} "
                           f"(versions: {', '.join(names)})")
    return diff(conn, source_id, chosen["from"], chosen["to"])


def diff_sections(conn: sqlite3.Connection, found: dict) -> list[dict]:
    """A diff (`kb.editions.diff`) as the document reads: its sections, each `{"title", "entries"}`, in the order
    of the later edition, a removed rule where it stood among the rules that remain. Each entry is `{"change":
    "added" | "removed" | "changed", "id", "ref", "text", "diff" (changed: word runs), "moved_from"` (an added
    rule whose text a removed one had: that one's ref), `"moved_to"` (the reverse), `"exists"` (the ruling has a
    page: it is in the current edition)}."""
    source = found["source"]
    after = _order(conn, source, found["to"])
    existing = {row["id"] for row in dicts(conn, "select id from rulings where source = ?", [source])}
    moved_to = {row["moved_from"]: row["ref"] for row in found["added"] if row.get("moved_from")}
    entries = [{"change": "added", "id": row["ruling_id"], "ref": row["ref"], "section": row["section"],
                "text": row["text"], "moved_from": row.get("moved_from"), "at": (after[row["ruling_id"]], 0)}
               for row in found["added"]]
    entries += [{"change": "changed", "id": row["id"], "ref": row["ref"], "section": row["section"],
                 "text": row["after"], "diff": row["diff"], "at": (after[row["id"]], 0)} for row in found["changed"]]
    entries += [{"change": "removed", "id": row["ruling_id"], "ref": row["ref"], "section": row["section"],
                 "text": row["text"], "moved_to": moved_to.get(row["ref"]), "at": at}
                for row, at in _removed_places(conn, found, after)]
    sections: dict[str, list[dict]] = {}
    for entry in sorted(entries, key=lambda entry: entry.pop("at")):
        entry["exists"] = entry["id"] in existing
        sections.setdefault(entry["section"], []).append(entry)
    return [{"title": title, "entries": members} for title, members in sections.items()]


def _order(conn: sqlite3.Connection, source: str, version: str) -> dict[str, int]:
    """Ruling id -> its place in one edition of the source."""
    ids = conn.execute("select ruling_id from ruling_history where source = ? and version = ? order by rowid",
                       [source, version])
    return {row[0]: place for place, row in enumerate(ids)}


def _removed_places(conn: sqlite3.Connection, found: dict, after: dict[str, int]):
    """Each removed rule with its place among the later edition's: just after the last rule before it in the
    earlier edition that the later one still has (removed rules in a row keep their order)."""
    removed = {row["ruling_id"]: row for row in found["removed"]}
    anchor = -1
    for place, ruling_id in enumerate(_order(conn, found["source"], found["from"])):
        if ruling_id in after:
            anchor = after[ruling_id]
        elif ruling_id in removed:
            yield removed[ruling_id], (anchor, 1, place)


def edition_count(conn: sqlite3.Connection, source_id: str) -> int:
    """How many editions of the source the database keeps."""
    return conn.execute("select count(*) from source_versions where source = ?", [source_id]).fetchone()[0]


def ruling_change(conn: sqlite3.Connection, ruling_id: str) -> dict | None:
    """What a ruling's page says of its history: None when it reads the same in every edition of its source
    since the first; else its latest change `{"change": "changed" | "added", "version", "effective", "earlier",
    "diff"}`, with for a changed one the edition before (`earlier`: its version, effective date and text) and
    the word runs from that text to this one (else both None)."""
    found = history(conn, ruling_id)
    latest = next((place for place in reversed(range(len(found))) if found[place]["change"] in {"added", "changed"}),
                  None)
    if latest is None:
        return None
    now = found[latest]
    earlier = found[latest - 1] if now["change"] == "changed" else None
    return {"change": now["change"], "version": now["version"], "effective": now["effective"], "earlier": earlier,
            "diff": word_diff(earlier["text"], now["text"]) if earlier else None}
