"""Approximate nearest neighbours against the exact dense scan (issue 45): recall@50 and time per question of
hnswlib and usearch (float32 and int8 vectors) over a library's passages, and the exact scan in float32 and float16;
then, on growing prefixes of the passages, the dense ranking of a question naming no game by the float32 scan and
by the int8 scan with exact rescoring (kb.retrieval), their times, whether they agree, and the share of the exact
ranking's rulings that the int8 scan's first candidates already hold.

    pip install --target /tmp/ann usearch hnswlib   # candidates only: neither is a dependency of the project
    PYTHONPATH=/tmp/ann python benchmarks/ann.py --db build/scale/x10.db [--no-graphs]

Recall is printed two ways. By id: the share of the exact top 50 passages returned. With ties: a returned passage
counts when its exact cosine is at least the exact 50th best's (less 1e-6, float rounding): the copies of
benchmarks/scale.py hold identical vectors, so which copy of a tie is returned does not matter, and by id a tied
copy counts as a miss. The questions: every set that benchmarks/scale.py asks, embedded once.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

K = 50


def timed(questions, search) -> tuple[list, float, float]:
    """What `search` finds for each question, and its p50 and p95 in ms."""
    found, times = [], []
    for question in questions:
        start = time.perf_counter()
        found.append(search(question))
        times.append((time.perf_counter() - start) * 1000)
    ordered = sorted(times)
    return found, statistics.median(times), ordered[round(0.95 * (len(ordered) - 1))]


def main() -> None:
    import numpy as np
    from scale import load_questions
    from threadpoolctl import threadpool_limits

    from kb.retrieval import passages
    from kb.onnx_embedder import embedder
    from kb.store import connect

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--efs", default="64,256,512", help="the search breadths tried")
    parser.add_argument("--no-graphs", action="store_true", help="the scans only, no graph index built")
    args = parser.parse_args()
    threadpool_limits(1, user_api="blas")
    library = passages(connect(args.db))
    vectors = np.ascontiguousarray(library.vectors)
    questions = np.array([embedder().embed(q["question"]) for q in load_questions()], dtype=np.float32)
    print(f"{len(vectors)} passages, {len(questions)} questions")

    def exact(question):
        scores = vectors @ question
        top = np.argpartition(-scores, K)[:K]
        return top[np.argsort(-scores[top])]

    timed(questions, exact)  # warm
    truth, p50, p95 = timed(questions, exact)
    print(f"exact float32 scan: p50 {p50:.2f} ms, p95 {p95:.2f} ms")
    halves = vectors.astype(np.float16)
    _, p50, p95 = timed(questions[:20], lambda q: halves @ q.astype(np.float16))
    print(f"exact float16 scan (numpy has no float16 BLAS): p50 {p50:.2f} ms")

    def recall(found) -> str:
        """Recall@50 by id, then with ties."""
        by_id, tied = [], []
        for question, mine, best in zip(questions, found, truth):
            mine = [int(i) for i in list(mine)[:K]]
            last = float(vectors[best[-1]] @ question)
            by_id.append(len(set(mine) & {int(i) for i in best}) / K)
            tied.append(sum(float(vectors[i] @ question) >= last - 1e-6 for i in mine) / K)
        return f"{statistics.mean(by_id):.4f} by id, {statistics.mean(tied):.4f} with ties"

    compact_scans(library, questions)
    if args.no_graphs:
        return
    efs = [int(ef) for ef in args.efs.split(",")]
    import hnswlib
    start = time.perf_counter()
    index = hnswlib.Index(space="ip", dim=vectors.shape[1])
    index.init_index(max_elements=len(vectors), ef_construction=100, M=16)
    index.set_num_threads(1)
    index.add_items(vectors, np.arange(len(vectors)))
    print(f"hnswlib M=16: built in {time.perf_counter() - start:.1f} s")
    for ef in efs:
        index.set_ef(ef)
        found, p50, p95 = timed(questions, lambda q: index.knn_query(q, k=K)[0][0])
        print(f"  ef={ef}: recall@50 {recall(found)}, p50 {p50:.2f} ms, p95 {p95:.2f} ms")
    from usearch.index import Index
    for dtype in ("f32", "i8"):
        start = time.perf_counter()
        index = Index(ndim=vectors.shape[1], metric="ip", dtype=dtype, connectivity=16, expansion_add=128)
        index.add(np.arange(len(vectors)), vectors, threads=1)
        print(f"usearch {dtype}: built in {time.perf_counter() - start:.1f} s, {index.memory_usage / 2**20:.0f} MB")
        for ef in efs:
            index.expansion_search = ef
            found, p50, p95 = timed(questions, lambda q: index.search(q, K, threads=1).keys)
            print(f"  ef={ef}: recall@50 {recall(found)}, p50 {p50:.2f} ms, p95 {p95:.2f} ms")


def compact_scans(library, questions) -> None:
    """The float32 scan against the int8 scan with exact rescoring, on prefixes of `library`'s passages."""
    import numpy as np

    from kb.retrieval import (
        COMPACT_CANDIDATES,
        Compact,
        Passages,
        _best_rulings,
        _compact_ranking,
        _exact_ranking,
        quantised,
    )
    from kb.search import CANDIDATES

    total = len(library.rulings)
    for size in sorted({n for n in (5_000, 10_000, 20_000, 40_000, 80_000) if n < total} | {total}):
        data = Passages(library.rulings[:size], {}, library.vectors[:size])
        start = time.perf_counter()
        pack = Compact.of(data.vectors)
        made = time.perf_counter() - start
        exact, p50, p95 = timed(questions, lambda q, data=data, size=size: _exact_ranking(
            data, slice(0, size), q, CANDIDATES))
        found, c50, c95 = timed(questions, lambda q, data=data, pack=pack: _compact_ranking(
            data, pack, q, CANDIDATES))
        shares = []
        for question, truth in zip(questions, exact):
            approx = pack.dots(quantised(question)[0]) * pack.scales  # as search orders its first candidates
            first = np.argpartition(-approx, COMPACT_CANDIDATES * CANDIDATES)[:COMPACT_CANDIDATES * CANDIDATES]
            held = {rid for rid, _ in _best_rulings(data, first, data.vectors[first] @ question, len(first))[0]}
            shares.append(len(held & {rid for rid, _ in truth}) / len(truth))
        print(f"{size} passages: float32 scan p50 {p50:.2f} ms, p95 {p95:.2f} ms; int8 scan with exact rescoring "
              f"p50 {c50:.2f} ms, p95 {c95:.2f} ms; rankings differing {sum(a != b for a, b in zip(found, exact))} "
              f"of {len(exact)}; the exact top {CANDIDATES} rulings in the first {COMPACT_CANDIDATES * CANDIDATES} "
              f"int8 candidates: {statistics.mean(shares):.4f}; int8 copy made in {made:.2f} s, "
              f"{pack.packed.nbytes / 2**20:.0f} MB")


if __name__ == "__main__":
    main()
