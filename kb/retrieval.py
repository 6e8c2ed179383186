"""The two retrievers: full-text (FTS5 BM25) and dense (cosine over the stored passage vectors).

BM25 finds the ruling that uses the question's own words; the dense ranking finds the one that means the
same thing in other words ("the bigger cure spell" → Cure Heavy Wounds). Each returns (ruling id, score)
pairs, best first; `kb.fusion` combines them.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from kb.cache import per_database_version

# Kinds of ruling that never answer a question: a document's title, version, date and credit lines.
UNANSWERABLE = "'title'"


@dataclass(frozen=True)
class Passages:
    """Every embedded passage in memory: its ruling, its game and its vector (row i of each)."""
    rulings: list[str]
    games: object    # numpy array of game names, one per passage
    vectors: object  # numpy float32 matrix, one normalised row per passage


@per_database_version
def passages(conn: sqlite3.Connection) -> Passages:
    """The passages of this connection's database, loaded once per version of the file."""
    import numpy as np

    rows = conn.execute("select e.ruling_id, r.game, e.vector from embeddings e join rulings r on r.id = "
                        f"e.ruling_id where r.kind not in ({UNANSWERABLE}) order by e.id").fetchall()
    if not rows:
        return Passages([], np.array([]), np.zeros((0, 0), dtype=np.float32))
    vectors = np.frombuffer(b"".join(r[2] for r in rows), dtype=np.float32).reshape(len(rows), -1)
    return Passages([r[0] for r in rows], np.array([r[1] for r in rows]), vectors)


def fts_ranking(conn: sqlite3.Connection, query: str, game: str | None, limit: int) -> list[tuple[str, float]]:
    """(ruling id, BM25 score) best first for an FTS5 `query` (see `kb.query.fts_query`); title and section
    weigh double the text and the examples."""
    if not query:
        return []
    sql = ("select r.id, bm25(rulings_fts, 2.0, 2.0, 1.0, 1.0) as rank from rulings_fts "
           "join rulings r on r.rowid = rulings_fts.rowid where rulings_fts match ? "
           f"and r.kind not in ({UNANSWERABLE}) "
           + ("and r.game = ? " if game else "") + "order by rank limit ?")
    params = [query] + ([game] if game else []) + [limit]
    return [(r[0], -r[1]) for r in conn.execute(sql, params)]


def dense_ranking(conn: sqlite3.Connection, vector, game: str | None, limit: int) -> list[tuple[str, float]]:
    """(ruling id, best cosine over its passages) best first, for a question's normalised `vector`."""
    import numpy as np

    data = passages(conn)
    if not len(data.rulings):
        return []
    scores = data.vectors @ vector
    if game:
        scores = np.where(data.games == game, scores, -2.0)
    best: dict[str, float] = {}
    for index in np.argsort(-scores):
        score = float(scores[index])
        if score <= -2.0 or len(best) >= limit:
            break
        best.setdefault(data.rulings[index], score)
    return list(best.items())
