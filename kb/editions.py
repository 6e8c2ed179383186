"""Reading a source's editions: which there are, what changed between two, and one ruling's history."""
from __future__ import annotations

import sqlite3

from kb.store import dicts
from model.editions import EDITION_ORDER, compare, rewritten, unnumbered


class UnknownEdition(LookupError):
    """No such source, or no such version of it."""


def versions(conn: sqlite3.Connection, source: str) -> list[dict]:
    """The editions of `source`, oldest first: `{"version", "effective", "current", "title", "file",
    "added_at", "rulings", "added", "changed", "removed", "moved"}`, the last four against the edition before
    (None for the first). UnknownEdition if there is no such source."""
    found = dicts(conn, "select version, effective, current, title, file, added_at, rulings from source_versions "
                        f"where source = ? {EDITION_ORDER}", [source])
    if not found:
        known = ", ".join(row[0] for row in conn.execute("select id from sources order by id")) or "none"
        raise UnknownEdition(f"no source {source!r} (sources: {known})")
    before = None
    for edition in found:
        edition["current"] = bool(edition["current"])
        now = _rulings(conn, source, edition["version"])
        changes = compare(before, now, words=False) if before is not None else None
        edition.update({key: len(changes[key]) if changes else None
                        for key in ("added", "changed", "removed", "moved")})
        before = now
    return found


def diff(conn: sqlite3.Connection, source: str, since: str | None = None, until: str | None = None) -> dict:
    """What changed in `source` from edition `since` (default: the one before `until`) to `until` (default: the
    current one): `{"source", "from", "to", "added", "removed", "moved", "changed"}` (model.editions.compare),
    a moved or changed rule with its text before and after and a word-level diff. UnknownEdition for a version
    the source does not have."""
    listed = versions(conn, source)
    names = [edition["version"] for edition in listed]
    until = until or next(e["version"] for e in listed if e["current"])
    for version in (since, until):
        if version is not None and version not in names:
            raise UnknownEdition(f"{source} has no version {version!r} (versions: {', '.join(names)})")
    since = since or (names[names.index(until) - 1] if names.index(until) else until)
    changes = compare(_rulings(conn, source, since), _rulings(conn, source, until))
    return {"source": source, "from": since, "to": until, **changes}


def history(conn: sqlite3.Connection, ruling_id: str) -> list[dict]:
    """A ruling through its source's editions, oldest first: `{"version", "effective", "change", "text",
    "title", "ref"}` where change is "first" (in the source's first edition), "added" (in a later one),
    "changed", "same" or "removed" (text None). A ruling that rewrote a rule of the edition before it
    (`model.editions.rewritten`, as a diff shows it) continues that rule's history, "changed" where it appears."""
    source = conn.execute("select source from ruling_history where ruling_id = ? limit 1", [ruling_id]).fetchone()
    if source is None:
        return []
    found: list[dict] = []
    before: str | None = None  # the text in the edition before, None where it was absent
    editions = dicts(conn, f"select version, effective from source_versions where source = ? {EDITION_ORDER}",
                     [source[0]])
    for n, edition in enumerate(editions):
        row = conn.execute("select text, title, ref from ruling_history where ruling_id = ? and version = ?",
                           [ruling_id, edition["version"]]).fetchone()
        if row is None:
            if before is not None:
                found.append({**edition, "change": "removed", "text": None, "title": None, "ref": None})
            before = None
            continue
        if before is None and n and not found:
            earlier = _rewrote(conn, source[0], editions[n - 1]["version"], edition["version"], ruling_id)
            if earlier is not None:
                found = [step for step in history(conn, earlier) if step["version"] in
                         {e["version"] for e in editions[:n]}]
                before = found[-1]["text"] if found else None
        change = ("first" if n == 0 else "added") if before is None else \
            "same" if _words(before) == _words(row[0]) else "changed"
        found.append({**edition, "change": change, "text": row[0], "title": row[1], "ref": row[2]})
        before = row[0]
    return found


def by_section(conn: sqlite3.Connection, found: dict) -> list[dict]:
    """A diff (`diff`) as the rulebook reads: its sections, each `{"title", "entries"}`, in the later edition's
    order, a removed rule where it stood among the rules that remain (just after the last rule before it that
    the later edition still has). Each entry is `{"change": "added" | "removed" | "moved" | "changed", "id",
    "ref", "from_ref" (moved: its number before), "section", "text", "diff" (moved or changed: word runs, None
    for a rule moved with its text unchanged)}`."""
    source = found["source"]
    after = _order(conn, source, found["to"])
    entries = [{"change": "added", "id": row["ruling_id"], "ref": row["ref"], "section": row["section"],
                "text": row["text"], "at": (after[row["ruling_id"]], 0)} for row in found["added"]]
    entries += [{"change": change, "id": row["id"], "ref": row["ref"], "from_ref": row.get("from_ref"),
                 "section": row["section"], "text": row["after"], "diff": row["diff"], "at": (after[row["id"]], 0)}
                for change in ("moved", "changed") for row in found[change]]
    removed = {row["ruling_id"]: row for row in found["removed"]}
    # A removed rule reads in the section of the rule before it that remains (a renumbered section is one).
    sections_after = dict(conn.execute("select ruling_id, section from ruling_history where source = ? and "
                                       "version = ?", [source, found["to"]]).fetchall())
    anchor, anchor_section = -1, None
    for place, ruling_id in enumerate(_order(conn, source, found["from"])):
        if ruling_id in after:
            anchor, anchor_section = after[ruling_id], sections_after[ruling_id]
        elif ruling_id in removed:
            row = removed[ruling_id]
            same = anchor_section is not None and unnumbered(anchor_section) == unnumbered(row["section"])
            entries.append({"change": "removed", "id": ruling_id, "ref": row["ref"], "text": row["text"],
                            "section": anchor_section if same else row["section"], "at": (anchor, 1, place)})
    sections: dict[str, list[dict]] = {}
    for entry in sorted(entries, key=lambda entry: entry.pop("at")):
        sections.setdefault(entry["section"], []).append(entry)
    return [{"title": title, "entries": members} for title, members in sections.items()]


def _rewrote(conn: sqlite3.Connection, source: str, earlier: str, later: str, ruling_id: str) -> str | None:
    """The id of the rule of edition `earlier` that ruling `ruling_id`, new in edition `later`, rewrote, else None."""
    def only(version: str, other: str) -> dict[str, dict]:
        return {row["ruling_id"]: row for row in dicts(
            conn, "select * from ruling_history where source = ? and version = ? and ruling_id not in "
                  "(select ruling_id from ruling_history where source = ? and version = ?) order by rowid",
            [source, version, source, other])}
    return rewritten(only(earlier, later), only(later, earlier)).get(ruling_id)


def _order(conn: sqlite3.Connection, source: str, version: str) -> dict[str, int]:
    """Ruling id -> its place in one edition of the source."""
    ids = conn.execute("select ruling_id from ruling_history where source = ? and version = ? order by rowid",
                       [source, version])
    return {row[0]: place for place, row in enumerate(ids)}


# Redirects followed for one old id, at most: each edition renames an id once, so a real chain is short.
MAX_REDIRECTS = 64


def redirected(conn: sqlite3.Connection, ruling_id: str) -> str | None:
    """The id of the ruling an id no ruling has any more now names (`ruling_redirects`, followed through the ids
    renamed since to one a ruling has), else None: also where the redirects go round in a loop, end at an id no
    ruling has, or run past MAX_REDIRECTS, so that a permalink never redirects forever."""
    seen = {ruling_id}
    at = ruling_id
    for _ in range(MAX_REDIRECTS):
        found = conn.execute("select new_id from ruling_redirects where old_id = ?", [at]).fetchone()
        if found is None or found[0] in seen:
            return None
        at = found[0]
        if conn.execute("select 1 from rulings where id = ?", [at]).fetchone():
            return at
        seen.add(at)
    return None


def _words(text: str) -> list[str]:
    return (text or "").split()


def _rulings(conn: sqlite3.Connection, source: str, version: str) -> dict[str, dict]:
    """Ruling id -> its history row in one edition, in document order."""
    return {row["ruling_id"]: row for row in dicts(
        conn, "select * from ruling_history where source = ? and version = ? order by rowid", [source, version])}
