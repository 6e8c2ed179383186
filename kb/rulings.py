"""The read side: how a ruling is shaped for output (text, examples, status, citation), for every reader."""
from __future__ import annotations

import sqlite3

from kb.store import examples_of


def citation(row: sqlite3.Row) -> dict:
    """The citation a judge reads out: source, section and line range, plus a one-line form."""
    return {
        "source": row["source"],
        "source_title": row["source_title"],
        "section": row["section"],
        "line_start": row["line_start"],
        "line_end": row["line_end"],
        "text": row["citation"],
    }


def results(conn: sqlite3.Connection, ranked: list[tuple[str, float]]) -> list[dict]:
    """Search results for ranked (ruling id, score) pairs, best first: each ruling shaped for output."""
    ids = [ruling_id for ruling_id, _ in ranked]
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    rows = {r["id"]: r for r in conn.execute(
        f"select r.*, s.title as source_title from rulings r join sources s on s.id = r.source "
        f"where r.id in ({marks})", ids)}
    # Filtering the view itself (not joining it) lets SQLite compute the status of these rulings only.
    statuses = {r[0]: (r[1], r[2]) for r in conn.execute(
        f"select ruling_id, status, reason from ruling_status where ruling_id in ({marks})", ids)}
    examples = examples_of(conn, ids)
    return [{
        "id": ruling_id, "game": rows[ruling_id]["game"], "title": rows[ruling_id]["title"],
        "text": rows[ruling_id]["text"], "examples": examples[ruling_id], "citation": citation(rows[ruling_id]),
        "score": round(score, 4), "status": statuses[ruling_id][0], "status_reason": statuses[ruling_id][1],
    } for ruling_id, score in ranked]
