"""The full-text ranking as it was before issue 45 (every matching ruling of every game scored, the game kept after
the match): the reference a scoped ranking must equal, ruling for ruling and score for score."""
from __future__ import annotations

import sqlite3

from kb.retrieval import UNANSWERABLE


def reference_fts_ranking(conn: sqlite3.Connection, query: str, game: str | None,
                          limit: int) -> list[tuple[str, float]]:
    """(ruling id, BM25 score) best first, as `kb.retrieval.fts_ranking` gave them before issue 45."""
    if not query:
        return []
    sql = ("select r.id, bm25(rulings_fts, 2.0, 2.0, 1.0, 1.0) as rank from rulings_fts "
           "join rulings r on r.rowid = rulings_fts.rowid where rulings_fts match ? "
           f"and r.kind not in ({UNANSWERABLE}) "
           + ("and r.game = ? " if game else "") + "order by rank limit ?")
    params = [query] + ([game] if game else []) + [limit]
    return [(r[0], -r[1]) for r in conn.execute(sql, params)]
