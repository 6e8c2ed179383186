"""A source's editions on the web and in the API: its versions, the `from` and `to` of a diff checked, a diff
laid out section by section in document order, and what a ruling's page says of its history."""
from __future__ import annotations

import sqlite3

from flask import request
from werkzeug.exceptions import BadRequest, NotFound

from kb.editions import UnknownEdition, by_section, diff, history, versions
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


def diff_sections(conn: sqlite3.Connection, found: dict, renumbered: bool = True) -> list[dict]:
    """A diff (`kb.editions.diff`) as the rulebook reads, section by section (`kb.editions.by_section`), each
    entry with `"exists"` (the ruling has a page: it is in the current edition). Without `renumbered`, the rules
    moved with their text unchanged are left out, and so is a section left with nothing else."""
    existing = {row["id"] for row in dicts(conn, "select id from rulings where source = ?", [found["source"]])}
    sections = []
    for section in by_section(conn, found):
        section["entries"] = [entry for entry in section["entries"] if renumbered or not renumbered_only(entry)]
        for entry in section["entries"]:
            entry["exists"] = entry["id"] in existing
        if section["entries"]:
            sections.append(section)
    return sections


def renumbered_only(entry: dict) -> bool:
    """Whether a diff's entry is a rule moved to a new number with its text unchanged."""
    return entry["change"] == "moved" and entry["diff"] is None


def requested_renumbered() -> bool:
    """Whether the diff page is asked to show the rules moved with their text unchanged (`moved=all`; by default
    they are counted and hidden: in the Lorcana rules they were 63 of 130 entries). BadRequest for another value."""
    value = request.args.get("moved") or None
    if value not in (None, "all"):
        raise BadRequest("parameter 'moved' must be 'all' (show the rules moved with their text unchanged) or absent")
    return value == "all"


def edition_count(conn: sqlite3.Connection, source_id: str) -> int:
    """How many editions of the source the database keeps."""
    return conn.execute("select count(*) from source_versions where source = ?", [source_id]).fetchone()[0]


def ruling_change(conn: sqlite3.Connection, ruling_id: str) -> dict | None:
    """What a ruling's page says of its history: None when it reads the same at the same number in every
    edition of its source since the first; else its latest change `{"change": "changed" | "added" | "moved",
    "version", "effective", "earlier", "diff", "was"}`, with for a changed one the edition before (`earlier`:
    its version, effective date and text) and the word runs from that text to this one (else both None), and
    its ref before where that was another (`was`, else None)."""
    found = history(conn, ruling_id)

    def moved(place: int) -> bool:
        return place > 0 and found[place - 1]["ref"] not in (None, found[place]["ref"]) and \
            found[place]["change"] == "same"
    latest = next((place for place in reversed(range(len(found)))
                   if found[place]["change"] in {"added", "changed"} or moved(place)), None)
    if latest is None:
        return None
    now = found[latest]
    earlier = found[latest - 1] if now["change"] == "changed" else None
    was = found[latest - 1]["ref"] if latest and found[latest - 1]["ref"] not in (None, now["ref"]) else None
    return {"change": "moved" if moved(latest) else now["change"], "version": now["version"],
            "effective": now["effective"], "earlier": earlier, "was": was,
            "diff": word_diff(earlier["text"], now["text"]) if earlier else None}
