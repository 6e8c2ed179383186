"""The reads behind the web pages: plain dicts from rulings.db, no HTML and no Flask."""
from __future__ import annotations

import json
import sqlite3

from kb.rulings import citation
from kb.store import examples_of, ruling


def _dicts(conn: sqlite3.Connection, sql: str, params=()) -> list[dict]:
    return [dict(row) for row in conn.execute(sql, params)]


def _one(conn: sqlite3.Connection, sql: str, params=()) -> dict | None:
    row = conn.execute(sql, params).fetchone()
    return dict(row) if row else None


def statuses(conn: sqlite3.Connection, ruling_ids: list[str]) -> dict[str, dict]:
    """Each ruling's verification status (passed, failed, not-run, not-executable, unlinked) and reason."""
    marks = ",".join("?" * len(ruling_ids))
    return {row["ruling_id"]: row for row in _dicts(
        conn, f"select ruling_id, status, reason, tests from ruling_status where ruling_id in ({marks})",
        ruling_ids)}


def game(conn: sqlite3.Connection, slug: str) -> dict | None:
    """One game with its sources, or None."""
    found = _one(conn, "select * from games where slug = ?", [slug])
    if found:
        found["sources"] = _dicts(conn, "select id, title, kind, author, version, date, rulings from sources "
                                        "where game = ? order by title", [slug])
    return found


def game_rulings(conn: sqlite3.Connection, slug: str) -> list[dict]:
    """Every ruling of a game in document order, shaped like a search result, plus `status` and `source_title`."""
    rows = conn.execute("select r.*, s.title as source_title, st.status, st.reason "
                        "from rulings r join sources s on s.id = r.source "
                        "join ruling_status st on st.ruling_id = r.id "
                        "where r.game = ? order by s.title, r.position", [slug]).fetchall()
    examples = examples_of(conn, [r["id"] for r in rows])
    return [{"id": r["id"], "game": r["game"], "title": r["title"], "text": r["text"], "examples": examples[r["id"]],
             "citation": citation(r), "source_title": r["source_title"], "section": r["section"],
             "status": {"status": r["status"], "reason": r["reason"]}} for r in rows]


def source(conn: sqlite3.Connection, source_id: str) -> dict | None:
    """One source with its text, game name, rulings (id, label, title, lines) and gaps, or None."""
    found = _one(conn, "select s.*, g.name as game_name from sources s join games g on g.slug = s.game "
                       "where s.id = ?", [source_id])
    if found:
        found["rulings_list"] = _dicts(conn, "select id, label, title, line_start, line_end, file_line_start "
                                             "from rulings where source = ? order by position", [source_id])
        found["gaps"] = _dicts(conn, "select * from gaps where source = ? order by line, id", [source_id])
    return found


def ruling_page(conn: sqlite3.Connection, ruling_id: str) -> dict:
    """Everything the ruling page shows; raises kb.store.UnknownRuling."""
    found = ruling(conn, ruling_id)
    examples = _dicts(conn, "select id, label, text, line_start, line_end from examples "
                            "where ruling_id = ? and kind = 'source' order by rowid", [ruling_id])
    for example in examples:
        example["citation"] = _cite(found["source"], example)
    neighbour = ("select id, title, section from rulings where source = ? and position {} ? "
                 "order by position {} limit 1")
    return {
        "ruling": found,
        "source": _one(conn, "select id, title, game from sources where id = ?", [found["source"]]),
        "game": _one(conn, "select * from games where slug = ?", [found["game"]]),
        "status": statuses(conn, [ruling_id])[ruling_id],
        "previous": _one(conn, neighbour.format("<", "desc"), [found["source"], found["position"]]),
        "next": _one(conn, neighbour.format(">", "asc"), [found["source"], found["position"]]),
        "section_rulings": _dicts(conn, "select id, label, title from rulings where source = ? and section = ? "
                                        "order by position", [found["source"], found["section"]]),
        "cite": _cite(found["source"], found, found["citation"]),
        "source_examples": examples,
        "tests": _dicts(conn, "select e.id, e.label, e.text, e.call, e.inputs, e.expected, v.status, v.actual, "
                              "v.detail, v.ran_at from examples e left join verifications v on v.test_id = e.id "
                              "where e.ruling_id = ? and e.kind = 'scenario' order by e.rowid", [ruling_id]),
        "refers_to": _dicts(conn, "select x.text, x.target, x.to_id, r.title as to_title from xrefs x "
                                  "left join rulings r on r.id = x.to_id where x.from_id = ? order by x.id",
                            [ruling_id]),
        "referred_by": _dicts(conn, "select x.text, x.from_id, r.title as from_title from xrefs x "
                                    "join rulings r on r.id = x.from_id where x.to_id = ? order by x.id",
                              [ruling_id]),
        "tables": rule_tables(conn, ruling_id),
        "gaps": _dicts(conn, "select * from gaps where source = ? order by line, id", [found["source"]]),
    }


def _cite(source_id: str, row: dict, text: str | None = None) -> dict:
    """A citation dict (as in search results) for a row with line_start and line_end."""
    first, last = row["line_start"], row["line_end"]
    return {"source": source_id, "line_start": first, "line_end": last,
            "text": text or (f"line {first}" if first == last else f"lines {first}–{last}")}


def rule_tables(conn: sqlite3.Connection, ruling_id: str) -> list[dict]:
    """The rule tables a ruling contains, each with its column names and rows of cells (JSON decoded)."""
    tables = _dicts(conn, "select id, name, columns from rule_tables where ruling_id = ? order by rowid",
                    [ruling_id])
    for table in tables:
        table["columns"] = json.loads(table["columns"])
        table["rows"] = [json.loads(r["cells"]) for r in conn.execute(
            "select cells from rule_table_rows where table_id = ? order by row", [table["id"]])]
    return tables
