"""`rulings verify`: run every executable example through the engine and record the results."""
from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from engine.registry import plain, resolve_call
from kb.atomic import atomic_database
from kb.rulings import STATUS_LABELS
from model import schema


def run_call(call: str, args: dict):
    """Call `engine.<module>.<function>(**args)` and return its result as plain data."""
    return plain(resolve_call(call)(**args))


def run_scenario(call: str, args: dict, expected) -> tuple[str, object, str]:
    """(status, actual, detail): 'passed' when the engine returns exactly the expected value."""
    try:
        actual = run_call(call, args)
    except Exception as exc:  # noqa: BLE001 -- a scenario that crashes the engine is a failed test, reported as such
        return "error", None, f"{type(exc).__name__}: {exc}"
    if actual == plain(expected):
        return "passed", actual, ""
    return "failed", actual, f"expected {json.dumps(plain(expected))}, got {json.dumps(actual)}"


def record_statuses(conn: sqlite3.Connection, games: list[str] | None = None) -> None:
    """Copy each ruling's verification status (the `ruling_status` view) into `rulings.status` (of `games`' rulings;
    every game's when None): Datasette can facet a table by its own columns only, and the rulings table is where a
    reader filters by status."""
    where = "1" if games is None else f"game in ({', '.join('?' * len(games))})"
    conn.execute("update rulings set status = (select s.status from ruling_status s where s.ruling_id = rulings.id) "
                 f"where {where}", games or [])


def verify(db_path: Path) -> dict:
    """Run all scenarios in the database, store each result, and summarise coverage.

    Returns `{"examples", "passed", "failed", "rulings", "linked", "unlinked": [{"id", "reason"}]}` where
    linked rulings have at least one scenario and all of them pass.
    """
    now = datetime.now(UTC).isoformat(timespec="seconds")
    # Like every write, on a copy that replaces the file when complete: it waits for (and never undoes) an add
    # running at the same time, and a reader reads the results all or none.
    with atomic_database(db_path, start_from=db_path) as db:
        conn = db.conn
        schema.check(conn, str(db_path))
        rows = []
        for test_id, ruling_id, call, inputs, expected in conn.execute(
                "select id, ruling_id, call, inputs, expected from examples where kind = 'scenario'"):
            status, actual, detail = run_scenario(call, json.loads(inputs), json.loads(expected))
            rows.append((test_id, ruling_id, status, json.dumps(actual), detail, now))
        conn.execute("delete from verifications")
        conn.executemany("insert into verifications values (?, ?, ?, ?, ?, ?)", rows)
        record_statuses(conn)
        statuses = {ruling_id: (status, reason) for ruling_id, status, reason in
                    conn.execute("select ruling_id, status, reason from ruling_status")}
    unlinked = []
    for ruling_id, (status, reason) in statuses.items():
        if status == "passed":
            continue
        why = STATUS_LABELS["unproved"].get(status, reason)
        unlinked.append({"id": ruling_id, "reason": why})
    passed = sum(1 for r in rows if r[2] == "passed")
    return {"examples": len(rows), "passed": passed, "failed": len(rows) - passed, "rulings": len(statuses),
            "linked": len(statuses) - len(unlinked), "unlinked": unlinked}
