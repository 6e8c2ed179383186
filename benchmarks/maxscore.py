"""Tried and not kept (issue 45): MaxScore pruning of the full-text ranking of a question naming no game, done with
SQL over FTS5. The question's words are ordered by the most each can add to a ruling's BM25 (its IDF × (k1 + 1));
the rulings using one of the rarest are scored with the whole query; once the words left out could not lift any
other ruling past the 50th, the ranking is complete. Prints whether every ranking equals the reference
(tests/support/fts_reference.py), both p50/p95, and the candidates a question keeps.

    python benchmarks/maxscore.py [--db build/scale/x10.db]
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from support.fts_reference import reference_fts_ranking

from benchmarks.scale import load_questions, percentile
from kb.lexicon import load_lexicon
from kb.query import fts_query
from kb.retrieval import UNANSWERABLE
from kb.store import connect

K1 = 1.2  # FTS5's bm25()
SCORED = ("select r.id, bm25(rulings_fts, 2.0, 2.0, 1.0, 1.0) as rank, rulings_fts.rowid from rulings_fts "
          f"join rulings r on r.rowid = rulings_fts.rowid where rulings_fts match ? and r.kind not in ({UNANSWERABLE}) ")


def pruned_ranking(conn, query: str, limit: int, total: int, hits: dict, kept: list) -> list[tuple[str, float]]:
    """The reference ranking of `query` with no game, by MaxScore; how many rulings it scored appended to `kept`
    (`total` when it had to score every match)."""
    bounds = []
    for phrase in query.split(" OR "):
        if phrase not in hits:
            hits[phrase] = conn.execute("select count(*) from rulings_fts where rulings_fts match ?", [phrase]).fetchone()[0]
        idf = math.log((total - hits[phrase] + 0.5) / (hits[phrase] + 0.5))
        bounds.append((max(idf, 1e-6) * (K1 + 1) * (1 + 1e-9), phrase))  # a hair above, for rounding
    bounds.sort(reverse=True)
    essential = 1
    while True:
        if essential >= len(bounds):
            found = conn.execute(SCORED + "order by rank limit ?", [query, limit]).fetchall()
            kept.append(total)
            break
        words = " OR ".join(phrase for _, phrase in bounds[:essential])
        candidates = [row[0] for row in conn.execute("select rowid from rulings_fts where rulings_fts match ?", [words])]
        found = sorted(conn.execute(SCORED + f"and rulings_fts.rowid in ({','.join('?' * len(candidates))})",
                                    [query, *candidates]).fetchall(), key=lambda row: (row[1], row[2]))
        threshold = -found[limit - 1][1] if len(found) >= limit else 0.0
        if sum(bound for bound, _ in bounds[essential:]) < threshold:
            kept.append(len(candidates))
            break
        while essential < len(bounds) and sum(bound for bound, _ in bounds[essential:]) >= threshold:
            essential += 1
    return [(row[0], -row[1]) for row in found[:limit]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, default=ROOT / "build" / "scale" / "x10.db")
    args = parser.parse_args()
    conn = connect(args.db)
    lexicon = load_lexicon(conn)
    total = conn.execute("select count(*) from rulings").fetchone()[0]
    queries = [fts_query(q["question"], lexicon.acronyms) for q in load_questions()]
    hits, kept, differing, pruned, reference = {}, [], 0, [], []
    for timed in (False, True):
        for query in queries:
            start = time.perf_counter()
            found = pruned_ranking(conn, query, 50, total, hits, kept)
            middle = time.perf_counter()
            expected = reference_fts_ranking(conn, query, None, 50)
            if timed:
                pruned.append((middle - start) * 1000)
                reference.append((time.perf_counter() - middle) * 1000)
                differing += found != expected
    timed_kept = kept[len(queries):]
    print(f"{args.db}: {len(queries)} questions, {differing} rankings differ; MaxScore p50 "
          f"{statistics.median(pruned):.1f} ms, p95 {percentile(pruned, 0.95):.1f} ms; scoring every match p50 "
          f"{statistics.median(reference):.1f} ms, p95 {percentile(reference, 0.95):.1f} ms; every match scored "
          f"anyway for {sum(n == total for n in timed_kept)}, else candidates scored, median "
          f"{statistics.median([n for n in timed_kept if n != total] or [0]):.0f}")


if __name__ == "__main__":
    main()
