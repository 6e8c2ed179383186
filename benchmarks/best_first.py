"""A question naming no game ranked by full text reading each phrase's kept matches best first (Fagin's threshold
algorithm), against `kb.retrieval._kept_ranking`, which sums every match (issue 45, eleventh session: measured, not
kept; docs/search.md, "Full text at scale").

Each phrase's kept matches are read best first, DEPTH at a time (× 4 a round); every ruling met is scored whole (its
phrases' terms added in query order, as `_kept_ranking` adds them: the same doubles); a ruling none of whose matches
has been read scores at most the sum, in the same order, of each phrase's next term, and float addition is monotone,
so once the 50th best score read beats that sum the ranking is `_kept_ranking`'s. Prints both p50/p95 (warm, same
process), the rankings differing, and the median depth per phrase at which the bound first holds.

    python benchmarks/best_first.py --db build/scale/x10.db
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

DEPTH = 256
LIMIT = 50


def best_first_ranking(conn, phrases: list[str], limit: int, depth: int = DEPTH) -> tuple[list, int]:
    """`_kept_ranking(conn, phrases, None, limit)` read best first; and the depth per phrase it stopped at."""
    import numpy as np

    from kb.retrieval import _phrase, postings

    held = postings(conn)
    lists = []
    for phrase in phrases:
        rows, terms = _phrase(conn, held, phrase)
        lists.append((rows, terms, np.lexsort((rows, -terms))))
    skip = held.unanswerable
    while True:
        seen = np.unique(np.concatenate([rows[order[:depth]] for rows, _, order in lists] or [np.zeros(0, np.int64)]))
        if len(skip):
            at = np.minimum(np.searchsorted(skip, seen), len(skip) - 1)
            seen = seen[skip[at] != seen]
        scores = np.zeros(len(seen))
        bound = 0.0
        for rows, terms, order in lists:
            if not len(rows):
                continue
            at = np.minimum(np.searchsorted(rows, seen), len(rows) - 1)
            present = rows[at] == seen
            scores[present] += terms[at[present]]
            if depth < len(order):
                bound += terms[order[depth]]
        seen, scores = seen[scores != 0], scores[scores != 0]
        if all(depth >= len(order) for _, _, order in lists) or (
                len(seen) >= limit and np.partition(scores, len(seen) - limit)[len(seen) - limit] > bound):
            break
        depth *= 4
    order = np.lexsort((seen, -scores))[:limit]
    hits, scores = seen[order].tolist(), scores[order].tolist()
    ids = dict(conn.execute(f"select rowid, id from rulings where rowid in ({', '.join('?' * len(hits))})", hits))
    return [(ids[rowid], score) for rowid, score in zip(hits, scores)], depth


def main() -> None:
    from scale import load_questions, percentile

    from kb.lexicon import load_lexicon
    from kb.query import fts_query
    from kb.retrieval import _kept_ranking
    from kb.store import connect

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, required=True)
    args = parser.parse_args()
    conn = connect(args.db)
    lexicon = load_lexicon(conn)
    queries = [q for q in (fts_query(item["question"], lexicon.acronyms) for item in load_questions()) if q]
    found = {}
    for name, rank in (("kept matches summed", lambda q: _kept_ranking(conn, q.split(" OR "), None, LIMIT)),
                       ("read best first", lambda q: best_first_ranking(conn, q.split(" OR "), LIMIT)[0])):
        for _ in range(2):  # warm, then timed
            found[name], times = [], []
            for query in queries:
                start = time.perf_counter()
                found[name].append(rank(query))
                times.append((time.perf_counter() - start) * 1000)
        print(f"{name}: p50 {statistics.median(times):.2f} ms, p95 {percentile(times, 0.95):.2f} ms")
    print(f"rankings differing: {sum(a != b for a, b in zip(*found.values()))} of {len(queries)}")
    depths = [best_first_ranking(conn, q.split(" OR "), LIMIT)[1] for q in queries]
    print(f"depth per phrase where the bound held: median {statistics.median(depths):.0f}, max {max(depths)}")


if __name__ == "__main__":
    main()
