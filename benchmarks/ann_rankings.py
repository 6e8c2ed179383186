"""Approximate nearest neighbours against the dense ranking search makes (issue 45): for a question naming no game,
the 50 rulings the int8 scan with exact rescoring ranks (`kb.retrieval.dense_ranking`, the exact scan's ranking by
construction) against each graph or inverted-file index's candidates rescored exactly in float32, as search would
use them: recall@50 of the rulings, how many rankings are identical, p50 and p95 per question (one thread), build
time and the index's size.

    pip install --target /tmp/ann faiss-cpu usearch   # candidates only: neither is a dependency of the project
    PYTHONPATH=/tmp/ann python benchmarks/ann_rankings.py --db build/scale/x10.db [--spread 0.5]

Recall@50 counts a ruling of an approximate ranking when its cosine reaches the exact 50th's (less 1e-6): the
copies of benchmarks/scale.py hold identical vectors, so which copy of a tie is returned does not matter.
--spread S moves every copy's vectors (not the original library's) by Gaussian noise of norm about S, then
normalises them: a synthetic library of distinct vectors near the original's (S = 0.5: a cosine of about 0.9 to the
original), to tell what the identical copies do to a graph from what its size does. hnswlib has no wheel on PyPI
for this machine (its sdist compiles), so it is left out here; benchmarks/ann.py measured it on recall by passage.
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


def main() -> None:
    import numpy as np
    from scale import load_questions, percentile
    from threadpoolctl import threadpool_limits

    from kb.onnx_embedder import embedder
    from kb.retrieval import Compact, Passages, _best_rulings, _compact_ranking, _exact, passages
    from kb.store import connect

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--spread", type=float, default=0.0, help="move the copies' vectors by this much")
    parser.add_argument("--hnsw", default="32:100:256,512,1024,2048", help="M:efConstruction:efSearch,...")
    parser.add_argument("--ivf", default="1024:16,64,256", help="lists:probes,...")
    parser.add_argument("--usearch", default="16:256,512,1024", help="connectivity:expansion,... (f32 and i8)")
    args = parser.parse_args()
    threadpool_limits(1, user_api="blas")
    library = passages(connect(args.db))
    vectors = np.array(library.vectors) if args.spread else library.vectors  # passages' matrix is read-only
    if args.spread:
        copies = np.array([any(part.startswith("c") and part[1:].isdigit() for part in rid.split("/")[0].split("-"))
                           for rid in library.rulings])
        noise = np.random.default_rng(45).standard_normal((int(copies.sum()), vectors.shape[1]), dtype=np.float32)
        moved = vectors[copies] + noise * (args.spread / np.sqrt(vectors.shape[1]))
        vectors[copies] = moved / np.linalg.norm(moved, axis=1, keepdims=True)
        library = Passages(library.rulings, library.games, vectors)
        print(f"{int(copies.sum())} copies' vectors moved by {args.spread}")
    questions = np.array([embedder().embed(q["question"]) for q in load_questions()], dtype=np.float32)
    pack = Compact.of(vectors)
    print(f"{len(vectors)} passages, {len(questions)} questions")

    def timed(search) -> tuple[list, float, float]:
        for question in questions[:20]:  # warm
            search(question)
        found, times = [], []
        for question in questions:
            start = time.perf_counter()
            found.append(search(question))
            times.append((time.perf_counter() - start) * 1000)
        return found, statistics.median(times), percentile(times, 0.95)

    truth, p50, p95 = timed(lambda q: _compact_ranking(library, pack, q, K))
    print(f"exact (int8 scan, exact rescoring): p50 {p50:.2f} ms, p95 {p95:.2f} ms")

    def rescored(question, ids) -> list:
        rows = np.sort(ids[ids >= 0].astype(np.int64))
        return _best_rulings(library, rows, _exact(vectors, rows, question), K)[0]

    def report(name: str, search) -> None:
        found, p50, p95 = timed(search)
        recall = [sum(score >= exact[-1][1] - 1e-6 for _, score in mine[:K]) / K
                  for mine, exact in zip(found, truth)]
        print(f"  {name}: recall@50 {statistics.mean(recall):.4f} (lowest {min(recall):.2f}), identical "
              f"{sum(a == b for a, b in zip(found, truth))} of {len(truth)}, p50 {p50:.2f} ms, p95 {p95:.2f} ms",
              flush=True)

    import faiss
    faiss.omp_set_num_threads(1)
    if args.hnsw:
        m, construction, efs = args.hnsw.split(":")
        start = time.perf_counter()
        index = faiss.IndexHNSWFlat(vectors.shape[1], int(m), faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = int(construction)
        index.add(vectors)
        print(f"faiss HNSW, M {m}, efConstruction {construction}: built in {time.perf_counter() - start:.1f} s",
              flush=True)
        for ef in (int(e) for e in efs.split(",")):
            index.hnsw.efSearch = ef
            report(f"efSearch {ef}, {min(ef, 1000)} rescored",
                   lambda q, ef=ef: rescored(q, index.search(q[None], min(ef, 1000))[1][0]))
    if args.ivf:
        lists, probes = args.ivf.split(":")
        start = time.perf_counter()
        quantiser = faiss.IndexFlatIP(vectors.shape[1])
        index = faiss.IndexIVFFlat(quantiser, vectors.shape[1], int(lists), faiss.METRIC_INNER_PRODUCT)
        index.cp.seed = 45
        index.train(vectors)
        index.add(vectors)
        print(f"faiss IVF, {lists} lists: built in {time.perf_counter() - start:.1f} s", flush=True)
        for probe in (int(p) for p in probes.split(",")):
            index.nprobe = probe
            report(f"{probe} lists probed, 1000 rescored",
                   lambda q: rescored(q, index.search(q[None], 1000)[1][0]))
    if args.usearch:
        from usearch.index import Index
        connectivity, expansions = args.usearch.split(":")
        for dtype in ("f32", "i8"):
            start = time.perf_counter()
            index = Index(ndim=vectors.shape[1], metric="ip", dtype=dtype, connectivity=int(connectivity),
                          expansion_add=128)
            index.add(np.arange(len(vectors)), vectors, threads=1)
            print(f"usearch {dtype}, connectivity {connectivity}: built in {time.perf_counter() - start:.1f} s, "
                  f"{index.memory_usage / 2**20:.0f} MB", flush=True)
            for ef in (int(e) for e in expansions.split(",")):
                index.expansion_search = ef
                report(f"expansion {ef}, {min(ef, 1000)} rescored",
                       lambda q, ef=ef: rescored(q, index.search(q, min(ef, 1000), threads=1).keys))


if __name__ == "__main__":
    main()
