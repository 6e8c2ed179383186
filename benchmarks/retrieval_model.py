"""A retrieval model trained here, measured honestly: games left out of training, measured on their questions.

    python benchmarks/retrieval_model.py --library LIBRARY.db --together DIR [--folds K] [--work DIR] [--json]

LIBRARY.db is the training library (`python -m training library`); DIR the folder `benchmarks/corpora.py
--keep DIR` left (its rulings.db holds the seeds and every document the corpus questions cover, its
alone-*.db each such document with the seeds). The games with questions are dealt into K folds (K = their
number: one game left out at a time); for each fold a model is trained from the pairs of every other game's
documents (`training.pairs.mine` with the fold's games excluded), exported to ONNX, and the fold's question
sets asked with it — everything in one database (re-embedded by the fold's model) and each document alone —
next to the packaged model asked the same way. Per set: n, r@1, r@5, MRR, answered rate and precision, "not
covered" rates; the uncovered questions of the fold's games and the off-topic questions each fold. The fusion
weight is re-chosen by leave-one-set-out cross-validation over the held-out ranks, for both models.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from benchmarks.corpora import (OFF_TOPIC, UNCOVERED, WEIGHTS, K, fusion_ranks, question_sets,  # noqa: E402
                                unanswerable_sets)
from benchmarks.speed import ENV  # noqa: E402
from kb.evaluate import summarise  # noqa: E402
from support.tuning import cross_validate  # noqa: E402

SHARED = ROOT.parent / "shared"
PACKAGED = "packaged"
TRAINED = "trained"


def folds(sets: dict[str, list[dict]], count: int) -> list[list[str]]:
    """The games with questions dealt into `count` folds, largest first, so folds hold similar numbers."""
    sizes: dict[str, int] = {}
    for questions in sets.values():
        for item in questions:
            sizes[item["game"]] = sizes.get(item["game"], 0) + 1
    games = sorted(sizes, key=lambda g: (-sizes[g], g))
    return [games[n::count] for n in range(count) if games[n::count]]


def _reembed(db: Path) -> None:
    import sqlite_utils

    from kb.embeddings import write_embeddings
    database = sqlite_utils.Database(db)
    write_embeddings(database)
    database.close()


def measure(together: Path, alone: dict[str, Path], games: list[str], corpus_questions: Path) -> dict:
    """In a process whose RULINGS_ONNX_MODEL is the model measured: re-embed the databases with it, then judge the
    questions of `games` (set name → judged outcomes, together and alone) and their fusion ranks per weight."""
    from kb.evaluate import judge
    from kb.store import connect

    sets = {name: qs for name, qs in question_sets(corpus_questions).items() if qs[0]["game"] in games}
    unanswerable = unanswerable_sets(corpus_questions.parent)
    uncovered = [q for q in unanswerable[UNCOVERED] if q["game"] in games]
    if os.environ.get("RULINGS_ONNX_MODEL"):  # the databases were embedded by the packaged model
        for db in (together, *alone.values()):
            _reembed(db)
    conn = connect(together)
    judged = {"hybrid": {}, "dense": {}, "alone": {}}
    for mode in ("hybrid", "dense"):
        for name, questions in {**sets, UNCOVERED: uncovered, OFF_TOPIC: unanswerable[OFF_TOPIC]}.items():
            judged[mode][name] = [judge(conn, item, mode, K) for item in questions]
    ranks = {name: {item["id"]: fusion_ranks(conn, item) for item in questions} for name, questions in sets.items()}
    conn.close()
    for name, questions in sets.items():
        conn = connect(alone.get(name, alone.get("seeds")))
        judged["alone"][name] = [judge(conn, item, "hybrid", K) for item in questions]
        conn.close()
    return {"judged": judged, "ranks": ranks}


def _fold_databases(source: Path, folder: Path, names: list[str]) -> tuple[Path, dict[str, Path]]:
    """Copies of the together database and of the alone databases of `names` (the seeds' as "seeds")."""
    folder.mkdir(parents=True, exist_ok=True)
    together = folder / "together.db"
    shutil.copy(source / "rulings.db", together)
    alone = {}
    for name in names:
        path = source / f"alone-{name}.db"
        alone[name if path.exists() else "seeds"] = path if path.exists() else ROOT / "rulings.db"
    copies = {}
    for name, path in alone.items():
        copies[name] = folder / f"alone-{name}.db"
        shutil.copy(path, copies[name])
    return together, copies


def run_fold(n: int, games: list[str], library: Path, source: Path, work: Path, corpus_questions: Path,
             settings) -> dict:
    """Train without `games`, then measure both models on their questions; the fold's record."""
    from kb.onnx_embedder import export, model_dir
    from kb.store import connect
    from training.pairs import mine
    from training.train import train

    folder = work / f"fold-{n}"
    names = [name for name, qs in question_sets(corpus_questions).items() if qs[0]["game"] in games]
    conn = connect(library)
    pairs = mine(conn, exclude_games=frozenset(games), seed=settings.seed)
    conn.close()
    print(f"fold {n} {games}: {len(pairs)} pairs", file=sys.stderr)
    record = train(pairs, model_dir(), folder / "model", settings, log=lambda m: print(m, file=sys.stderr))
    export(folder / "model.onnx", source=folder / "model")
    measured = {}
    for model, onnx in ((TRAINED, folder / "model.onnx"), (PACKAGED, None)):
        together, alone = _fold_databases(source, folder / model, names)
        env = {**ENV, **({"RULINGS_ONNX_MODEL": str(onnx)} if onnx else {})}
        started = time.perf_counter()
        out = subprocess.run([sys.executable, __file__, "--measure", json.dumps(
            {"together": str(together), "alone": {k: str(v) for k, v in alone.items()}, "games": games,
             "questions": str(corpus_questions)})], env=env, capture_output=True, text=True, check=True)
        measured[model] = json.loads(out.stdout)
        print(f"fold {n} measured {model} in {time.perf_counter() - started:.0f}s", file=sys.stderr)
    return {"games": games, "training": record, "measured": measured}


def report(fold_records: list[dict]) -> dict:
    """Per model: per set figures (hybrid and dense together, hybrid alone), "all" pooled, and the fusion weight
    cross-validated over the held-out ranks."""
    result = {}
    for model in (PACKAGED, TRAINED):
        figures = {}
        for view in ("hybrid", "dense", "alone"):
            judged: dict[str, list[dict]] = {}
            for fold in fold_records:
                for name, outcomes in fold["measured"][model]["judged"][view].items():
                    judged.setdefault(name, []).extend(outcomes)
            order = sorted((n for n in judged if n not in (UNCOVERED, OFF_TOPIC)), key=lambda n: -len(judged[n]))
            figures[view] = {name: _figures(judged[name]) for name in order + [n for n in (UNCOVERED, OFF_TOPIC)
                                                                             if n in judged]}
            figures[view]["all"] = _figures([o for n in order for o in judged[n]])
        ranks = {}
        for fold in fold_records:
            for name, by_id in fold["measured"][model]["ranks"].items():
                ranks[name] = {qid: {float(w): r for w, r in row.items()} for qid, row in by_id.items()}

        def mrr(weight: float, questions) -> float:
            return round(statistics.mean(1 / r if (r := row[weight]) else 0.0 for row in questions), 4)

        chosen = cross_validate({name: list(by_id.values()) for name, by_id in ranks.items()}, WEIGHTS, mrr)
        result[model] = {**figures, "fusion_weight": {"chosen": chosen.chosen, "held_out": chosen.held_out,
                                                      "best": chosen.best}}
    result["training"] = [{"games": f["games"], **f["training"]} for f in fold_records]
    return result


def _figures(outcomes: list[dict]) -> dict:
    found = summarise(outcomes)
    return {key: found[key] for key in ("n", "recall@1", "recall@5", "mrr", "answered_rate", "answered_precision",
                                         "not_covered_rate", "not_covered_unanswerable")}


def markdown(result: dict) -> str:
    """Packaged against trained, per set and view."""
    lines = []
    for view, title in (("hybrid", "hybrid, everything in one database"), ("dense", "meaning only, together"),
                        ("alone", "hybrid, each document alone")):
        lines += ["", f"### {title} (packaged → trained, held out)", "",
                  "| set | n | r@1 | r@5 | MRR | answered | precision | not covered |", "|---|---|---|---|---|---|---|---|"]
        for name, before in result[PACKAGED][view].items():
            after = result[TRAINED][view][name]
            cells = [f"{_cell(before[c])} → {_cell(after[c])}" for c in
                     ("recall@1", "recall@5", "mrr", "answered_rate", "answered_precision")]
            covered = "not_covered_unanswerable" if name in (UNCOVERED, OFF_TOPIC) else "not_covered_rate"
            cells.append(f"{_cell(before[covered])} → {_cell(after[covered])}")
            lines.append(f"| {name} | {before['n']} | " + " | ".join(cells) + " |")
    for model in (PACKAGED, TRAINED):
        fusion = result[model]["fusion_weight"]
        lines += ["", f"Fusion weight for the {model} model, leave one set out: " + ", ".join(
            f"{name} {fusion['chosen'][name]:g} → {fusion['held_out'][name]:.3f}" for name in fusion["held_out"])
            + f"; mean {statistics.mean(fusion['held_out'].values()):.3f}; best on all {fusion['best']:g}."]
    return "\n".join(lines)


def _cell(value) -> str:
    return "–" if value is None else f"{value:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", type=Path, help="the training library database")
    parser.add_argument("--together", type=Path, help="the folder benchmarks/corpora.py --keep left")
    parser.add_argument("--questions", type=Path, default=SHARED / "eval" / "corpora_dev_questions.jsonl")
    parser.add_argument("--folds", type=int, default=0, help="folds of games (default: one game per fold)")
    parser.add_argument("--work", type=Path, default=Path("/tmp/retrieval-model"))
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of Markdown")
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # worker: one model's measurements
    args = parser.parse_args()
    if args.measure:
        job = json.loads(args.measure)
        print(json.dumps(measure(Path(job["together"]), {k: Path(v) for k, v in job["alone"].items()}, job["games"],
                                 Path(job["questions"]))))
        return
    from training.train import Settings
    sets = question_sets(args.questions)
    plan = folds(sets, args.folds or len({q["game"] for qs in sets.values() for q in qs}))
    records = []
    for n, games in enumerate(plan):
        cached = args.work / f"fold-{n}" / "record.json"
        if cached.exists() and json.loads(cached.read_text())["games"] == games:
            records.append(json.loads(cached.read_text()))
            continue
        records.append(run_fold(n, games, args.library, args.together, args.work, args.questions, Settings()))
        cached.write_text(json.dumps(records[-1]))
    result = report(records)
    print(json.dumps(result, indent=1) if args.json else markdown(result))


if __name__ == "__main__":
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    main()
