"""Answering questions with rulings: full-text search (FTS5, BM25) over titles and texts."""
from __future__ import annotations

import re
import sqlite3

from ingest.segment import STOPWORDS
from kb.store import examples_of

MAX_K = 50
_TERM = re.compile(r"[^\W_]+(?:'[^\W_]+)?")


def fts_query(question: str) -> str:
    """A safe FTS5 query from free text: its content words, quoted, OR-ed (no FTS syntax gets through)."""
    terms = []
    for term in _TERM.findall(question.lower()):
        term = term.replace("'", "")
        if term not in STOPWORDS and term not in terms:
            terms.append(term)
    return " OR ".join(f'"{t}"' for t in terms[:64])


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


def fts_search(conn: sqlite3.Connection, question: str, game: str | None = None, k: int = 5) -> list[dict]:
    """The k rulings that best match `question` by BM25 (title weighted double), best first."""
    query = fts_query(question)
    if not query:
        return []
    sql = ("select r.*, s.title as source_title, bm25(rulings_fts, 2.0, 1.0) as rank "
           "from rulings_fts join rulings r on r.rowid = rulings_fts.rowid join sources s on s.id = r.source "
           "where rulings_fts match ? " + ("and r.game = ? " if game else "") + "order by rank limit ?")
    params = [query] + ([game] if game else []) + [max(1, min(k, MAX_K))]
    rows = conn.execute(sql, params).fetchall()
    examples = examples_of(conn, [r["id"] for r in rows])
    return [{
        "id": r["id"], "game": r["game"], "title": r["title"], "text": r["text"],
        "examples": examples[r["id"]], "citation": citation(r), "score": round(-r["rank"], 4),
    } for r in rows]


def ask(conn: sqlite3.Connection, question: str, game: str | None = None, k: int = 5) -> dict:
    """The answer to a question: `{"query", "answered", "results"}`, best ruling first."""
    results = fts_search(conn, question, game, k)
    return {"query": question, "answered": bool(results), "results": results}
