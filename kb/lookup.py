"""A rule by any of its names: "4.3.6", "Lorcana 4.3.6", "rule 4.3.3", "CR 10.15.1", "section 5", "article
12.3", "law 7", also asked for ("What is rule 4.3.3?", "what does CR 10.15 say"), in any case or spacing,
with or without a source's abbreviation or the game's name; a rule's number or a heading's, including numbers
a document gives only in headings (they head a section, not a ruling): the rulings it names, in document
order."""
from __future__ import annotations

import re
import sqlite3

from kb.cache import per_database_version
from model.kinds import AUTHORITY, UNKNOWN_AUTHORITY

# Words that say "what follows is a number": "rule 4.3", "CR 702.19b", "section 5", "art. 12", "§ 3".
_NAMED = re.compile(r"^(?:rules?|cr|sections?|sect\.?|articles?|art\.?|laws?|§|no\.?|number)\s*", re.IGNORECASE)
# A question that only asks for a rule: "What is rule 4.3.3?", "what does CR 702.19b say", "show me 4.3.6".
_ASKING = re.compile(r"^(?:(?:what|which)(?:'s|\s+is|\s+does|\s+says)?|show(?:\s+me)?|read|quote|explain|find|"
                     r"open|look\s*up|go\s+to)\s+(?:the\s+)?", re.IGNORECASE)
_SAYING = re.compile(r"\s+(?:say|says|mean|means|state|states|read|reads)$", re.IGNORECASE)
_NOT_RULES = "'title', 'front-matter', 'changelog', 'restated'"
# A number a document gives a rule or heading: "4.3.6", "702.19b", "100.1a", "12", "B.3", "6.A.1".
NUMBER = re.compile(r"(?:\d+|[A-Z])(?:\.(?:\d+|[A-Za-z]))*[a-z]?", re.IGNORECASE)


def number_in(question: str, names: list[tuple[str, str | None, str | None]]) -> tuple[str, str | None, str | None]:
    """The number a question asks for ("" when it asks for none), and the game and source its prefix names.
    `names`: (a name lower case, its game, its source) for every source abbreviation and game name."""
    text = " ".join(question.strip().strip("?!\"'[]<>“”").split())
    text = _SAYING.sub("", _ASKING.sub("", text)).strip("?!\"'[]<>“” ")
    game = source = None
    lowered = text.lower()
    for name, its_game, its_source in names:
        if lowered.startswith(name) and lowered[len(name):len(name) + 1] in (" ", ":"):
            text, game, source = text[len(name) + 1:].lstrip(" :"), its_game, its_source
            break
    text = _NAMED.sub("", text).rstrip(".")
    # A bare letter ("A") or word is no number; one with a digit or a dot is.
    return (text if NUMBER.fullmatch(text) and re.search(r"[\d.]", text) else ""), game, source


def names(conn: sqlite3.Connection) -> list[tuple[str, str | None, str | None]]:
    """Every source abbreviation and game name, lower case, the longest first (so "DD Magic" before "DD"): read
    once per version of the file (a question naming a number would read every source and game of the library),
    except on a kb.asof connection, whose sources are another day's (temp tables of its own)."""
    dated = conn.execute("select 1 from sqlite_temp_master where name = 'sources'").fetchone()
    return _names(conn) if dated else _kept_names(conn)


def _names(conn: sqlite3.Connection) -> list[tuple[str, str | None, str | None]]:
    """`names`, read from `conn`."""
    found = [(abbrev.lower(), game, source) for source, game, abbrev in
             conn.execute("select id, game, abbrev from sources where abbrev != ''")]
    found += [(name.lower(), slug, None) for slug, name in conn.execute("select slug, name from games")]
    return sorted(found, key=lambda item: -len(item[0]))


_kept_names = per_database_version(_names)


def find(conn: sqlite3.Connection, number: str, game: str | None = None, source: str | None = None) -> dict | None:
    """What `number` names among the rulings (of `game`, of `source`): `{"kind": "rule", "number", "ids"}` for
    the rulings it numbers, the most authoritative source's first; or `{"kind": "heading", "number", "title",
    "source", "ids"}` for a heading that gives it, with the rulings under the heading in document order. None
    if nothing has that number."""
    where = " and r.game = ?" * bool(game) + " and r.source = ?" * bool(source)
    params = [p for p in (game, source) if p]
    # The rule whose ref is its number ("Lorcana 4.3.3"), else one labelled so where its ref says more ("PotL
    # 2.4" is item 4 under heading 2, not rule 4); never the source's header or its update summary.
    for match in ("lower(r.ref) = lower(s.abbrev || ' ' || ?)", "lower(r.label) = lower(?)"):
        rows = conn.execute("select r.id, s.kind from rulings r join sources s on s.id = r.source "
                            f"where {match}{where} and r.kind not in ({_NOT_RULES}) "
                            "order by r.source, r.position", [number, *params]).fetchall()
        if rows:
            break
    if rows:
        ranked = sorted(rows, key=lambda row: AUTHORITY.get(row[1], UNKNOWN_AUTHORITY))
        return {"kind": "rule", "number": number, "ids": [row[0] for row in ranked]}
    heading = re.compile(rf"(?:^| > )({re.escape(number)}\.?\s+[^>]*?)(?: > |$)", re.IGNORECASE)
    for ruling_id, section, source_id in conn.execute(
            f"select r.id, r.section, r.source from rulings r where instr(lower(r.section), ?){where} "
            "order by r.source, r.position", [number.lower(), *params]):  # "305 Lands", "305. Lands"
        found = heading.search(section or "")
        if found:
            path = section[:found.end(1)]
            ids = [rid for (rid,) in conn.execute(
                "select id from rulings where source = ? and (section = ? or section like ?) order by position",
                [source_id, path, path + " > %"])]
            title = _past_number(found.group(1), number)
            return {"kind": "heading", "number": number, "title": title, "source": source_id, "ids": ids or [ruling_id]}
    return _numbered_under(conn, number, where, params)


def _numbered_under(conn: sqlite3.Connection, number: str, where: str, params: list[str]) -> dict | None:
    """A number the document gives only through the rules numbered under it ("305. Lands" read as the section
    "Lands" over 305.1, 305.2…): those rules, of the most authoritative source, as the heading's; None if none."""
    rows = conn.execute("select r.id, r.source, r.section, s.kind from rulings r join sources s on s.id = r.source "
                        f"where lower(r.label) like lower(?) || '.%'{where} and r.kind not in ({_NOT_RULES}) "
                        "order by r.source, r.position", [number, *params]).fetchall()
    if not rows:
        return None
    source = min(rows, key=lambda row: AUTHORITY.get(row[3], UNKNOWN_AUTHORITY))[1]
    ids = [row[0] for row in rows if row[1] == source]
    section = next(row[2] for row in rows if row[1] == source)
    heading = section.rpartition(" > ")[2]
    # a heading shown with its number ("305. Lands"), or by its title alone ("Lands")
    title = _past_number(heading, number) if heading.lower().startswith(number.lower()) else heading
    return {"kind": "heading", "number": number, "title": title or heading, "source": source, "ids": ids}


def _past_number(heading: str, number: str) -> str:
    """A heading's title past the `number` (and stop) it opens with: "Lands" for "305. Lands"."""
    return heading[len(number):].lstrip(". ").strip()


def lookup(conn: sqlite3.Connection, question: str, game: str | None = None) -> dict | None:
    """What a question that is a rule's or heading's number names (see `find`), within `game` when one is
    chosen; None for any other question."""
    if not re.search(r"[\d.]", question):  # no number can be in it: spare every other question the names
        return None
    number, named_game, source = number_in(question, names(conn))
    if not number or (game and named_game and game != named_game):
        return None
    return find(conn, number, game or named_game, source)
