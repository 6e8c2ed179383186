"""Search measured on the question corpus by leaving whole games out: today's ranker beside a question encoder, a
learned reranker and the outcome refitted, each fitted without the games it is measured on.

    python benchmarks/ranker.py --library build/training/questions-vectors.db [--work build/ranker]
                                [--negatives library|game|both] [--json]
    python benchmarks/ranker.py --library build/training/questions-vectors.db --latency

The library is every document of training/questions/documents.toml in one database with the packaged model's
vectors (`python -m training.questions library --vectors --out ...`). The games (Magic aside) are dealt into
FOLDS folds. For each fold an encoder is trained (`training.encoder`) on the answerable questions of the other
folds' games only, and the fold's questions are asked with it, the game never given: the corpus's answerable,
uncovered and off-topic questions (off-topic ones dealt to the folds by their ids), and the reference questions of
../shared/eval and tests/offtopic_questions.jsonl of the fold's games. Magic's questions (held out of everything)
are asked with the encoder trained on every other game. Today's ranker (the packaged model, today's weight and
outcome constants) is asked the same questions in the same library, the game not given and given.

Every constant is chosen without the fold it is used on: the fusion weight for a fold is the one with the best
MRR over the other folds' held-out answers; the reranker (`training.rerank`'s features, a pairwise logistic model)
and the outcome models (`benchmarks/answered.Decision`, a wrong "Answer" costing WRONG_COST) are fitted on the
other folds' held-out observations. Runs: today; today with the game given; today with the outcome refitted;
today + reranker; encoder; encoder + reranker. Per set and pooled: n, r@1, r@5, MRR, the share first of those
found in the first 20, "Answer" rate and precision, "not covered" shares. Markdown, or JSON; also the constants
each run would ship with. --latency times today's search on the library instead (warm p50/p95 without and with
the game, a cold `rulings ask`).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the packages, and the helpers in tests/support

import numpy as np  # noqa: E402

import kb.search  # noqa: E402
from benchmarks.answered import ABSENT_FEATURES, ANSWER_FEATURES, Decision  # noqa: E402
from kb.evaluate import first_correct, is_correct, load_questions  # noqa: E402
from kb.query import ruling_count  # noqa: E402
from training.rerank import DEPTH, FEATURES, game_features  # noqa: E402
from kb.fusion import LEXICAL_WEIGHT  # noqa: E402
from kb.onnx_embedder import embedder as packaged  # noqa: E402
from kb.onnx_embedder import question_vector  # noqa: E402
from kb.store import connect  # noqa: E402
from training.questions import corpus, documents  # noqa: E402

SHARED = ROOT.parent / "shared"
FOLDS = 5
K = 20
WEIGHTS = (0.2, 0.3, 0.4, 0.5, 0.6)
HELDOUT_GAME = "magic"
# A wrong "Answer" costs nineteen right ones: answering pays only where 19 in 20 answers are right (issue 41 asks
# precision 0.95 on every document).
WRONG_COST = 19.0


def question_sets() -> dict[str, list[dict]]:
    """Set name → questions. Answerable: `<doc>` (the corpus), `eval:<doc or game>` (../shared/eval); then
    `uncovered:<game>` and `offtopic` (corpus and reference questions together)."""
    found = corpus()
    sets: dict[str, list[dict]] = defaultdict(list)
    for item in found["answerable"] + found["heldout"]:
        sets[item["doc"]].append(item)
    for item in load_questions(SHARED / "eval" / "dev_questions.jsonl"):
        sets[f"eval:{item['game']}"].append(item)
    for item in load_questions(SHARED / "eval" / "corpora_dev_questions.jsonl"):
        sets[f"eval:{item['doc']}"].append(item)
    for item in found["uncovered"] + load_questions(SHARED / "eval" / "uncovered_dev_questions.jsonl"):
        sets[f"uncovered:{item['game']}"].append(item)
    sets["offtopic"] = found["offtopic"] + load_questions(ROOT / "tests" / "offtopic_questions.jsonl")
    return dict(sets)


def folds(sets: dict[str, list[dict]]) -> list[list[str]]:
    """The games other than Magic dealt into FOLDS folds of similar question counts (largest game first)."""
    counts: dict[str, int] = defaultdict(int)
    for questions in sets.values():
        for item in questions:
            if item.get("game") and item["game"] != HELDOUT_GAME:
                counts[item["game"]] += 1
    dealt: list[list[str]] = [[] for _ in range(FOLDS)]
    load = [0] * FOLDS
    for game in sorted(counts, key=lambda g: (-counts[g], g)):
        lightest = load.index(min(load))
        dealt[lightest].append(game)
        load[lightest] += counts[game]
    return dealt


def train_fold(conn, games_out: set[str], out: Path, negatives: str) -> Path:
    """The encoder trained without `games_out` and Magic at `out` (trained once, then kept)."""
    from training.encoder import Settings, fit
    if not (out / "training.json").is_file():
        record = fit(conn, corpus()["answerable"], out, frozenset(games_out), Settings(negatives=negatives),
                     log=lambda m: print(m, file=sys.stderr))
        print(json.dumps(record), file=sys.stderr)
    return out


class Capture:
    """A search step that keeps what the reranker reads of the ranking it is given (`training.rerank`), and
    what the outcome's evidence needs to be weighed again on another order."""

    def __init__(self):
        self.last: dict | None = None

    def __call__(self, search) -> None:
        from kb.query import glossary_rulings
        from training.rerank import candidate_features
        defining = glossary_rulings(search.searched, search.lexicon.terms, search.game or search.preferred)
        self.last = {"features": candidate_features(search.conn, search.searched, search.ranked, search.lexical,
                                                    search.semantic, defining),
                     "ranked": search.ranked[:DEPTH], "cosines": search.cosines, "usage": search.usage,
                     "game": search.game or search.preferred}


CAPTURE = Capture()
# The product's steps with the capture where a reranker would stand: after the last re-ordering.
CAPTURED_STEPS = tuple(step for found in kb.search.STEPS
                       for step in ((found, CAPTURE) if found is kb.search.prefer_official else (found,)))


def observe(conn, item: dict, weight: float, game: str | None = None) -> dict:
    """One question asked: the rank of its first right ruling in the first K (None), its evidence and gaps, the
    outcome said, and what the reranker reads (`Capture`) with which of those candidates are right."""
    CAPTURE.last = None
    answer = kb.search.ask(conn, item["question"], game=game, k=K, weight=weight, explain=True, steps=CAPTURED_STEPS)
    rank = first_correct(answer["results"], item["expect"]) if "expect" in item else None
    captured = CAPTURE.last if answer["evidence"] else None
    if captured:
        captured["right"] = [bool("expect" in item and is_correct(r, item["expect"]))
                             for r in answer["results"][:DEPTH]]
    return {"rank": rank, "evidence": answer["evidence"], "gaps": bool(answer["gaps"]),
            "outcome": answer["outcome"], "captured": captured}


def ask_all(conn, questions: list[tuple[str, dict]], encoder, weights, given: bool) -> dict:
    """(set, question) pairs asked with `encoder` at each weight: weight → question id → observation."""
    kb.search.question_vector = encoder.embed  # the seam: how kb.search embeds a question
    return {w: {item["id"]: observe(conn, item, w, item.get("game") if given else None) for _, item in questions}
            for w in weights}


def arrays(rows: list[dict]) -> dict[str, np.ndarray]:
    """Observations as `benchmarks/answered` reads a set (questions without evidence, asked by ref, left out)."""
    rows = [r for r in rows if r["evidence"]]
    return {"answer": np.array([[r["evidence"][f] for f in ANSWER_FEATURES] for r in rows]).reshape(-1, 4),
            "absent": np.array([[r["evidence"][f] for f in ABSENT_FEATURES] for r in rows]).reshape(-1, 2),
            "right": np.array([r["rank"] == 1 for r in rows], dtype=float),
            "answerable": np.array([r["answerable"] for r in rows], dtype=bool),
            "gaps": np.array([r["gaps"] for r in rows], dtype=bool)}


def mrr(rows: list[dict]) -> float:
    return statistics.mean(1 / r["rank"] if r["rank"] else 0.0 for r in rows) if rows else 0.0


def summary(rows: list[dict]) -> dict:
    """Figures of one set's observations, each with `answerable` and its `label`."""
    known = [r for r in rows if r["answerable"]]
    unknown = [r for r in rows if not r["answerable"]]
    answered = [r for r in known if r["label"] == "answer"]
    found = [r for r in known if r["rank"]]
    share = (lambda part, whole: round(len(part) / len(whole), 3) if whole else None)
    return {"n": len(rows), "r@1": share([r for r in known if r["rank"] == 1], known),
            "r@5": share([r for r in known if r["rank"] and r["rank"] <= 5], known),
            "mrr": round(mrr(known), 3) if known else None,
            "first_of_found": share([r for r in found if r["rank"] == 1], found),
            "answered": share(answered, known), "precision": share([r for r in answered if r["rank"] == 1], answered),
            "not_covered": share([r for r in known if r["label"] == "not-covered"], known),
            "unanswerable_not_covered": share([r for r in unknown if r["label"] == "not-covered"], unknown),
            "unanswerable_answered": share([r for r in unknown if r["label"] == "answer"], unknown)}


def collect(library: Path, work: Path, sets: dict[str, list[dict]], dealt: list[list[str]],
            negatives: str = "library") -> dict:
    """Fold → run → weight → question id → observation: "today" and "today_given" (the packaged model at today's
    weight, the game not given and given), "new" (the fold's encoder at each of WEIGHTS). Kept in work/ per fold."""
    import pickle

    from training.encoder import TorchEncoder
    conn = connect(library)
    today = packaged()
    found = {}
    for fold in range(FOLDS + 1):
        kept = work / f"fold-{fold}" / "observations.pickle"
        if kept.is_file():
            found[fold] = pickle.loads(kept.read_bytes())
            continue
        games_out = set(dealt[fold]) if fold < FOLDS else set()
        encoder_dir = train_fold(conn, games_out, work / f"fold-{fold}", negatives)
        mine = [(name, item) for name, questions in sets.items() for item in questions
                if membership(item, dealt) == fold]
        print(f"fold {fold}: {len(mine)} questions, games {sorted(games_out) or ['magic']}", file=sys.stderr)
        found[fold] = {"today": ask_all(conn, mine, today, (LEXICAL_WEIGHT,), False),
                       "today_given": ask_all(conn, mine, today, (LEXICAL_WEIGHT,), True),
                       "new": ask_all(conn, mine, TorchEncoder(encoder_dir), WEIGHTS, False)}
        kept.write_bytes(pickle.dumps(found[fold]))
    kb.search.question_vector = question_vector
    conn.close()
    return found


def membership(item: dict, dealt: list[list[str]]) -> int:
    """The fold a question is measured in: its game's (FOLDS for Magic's); an off-topic one's by its id."""
    game = item.get("game")
    if game == HELDOUT_GAME:
        return FOLDS
    if game:
        return next(f for f, games in enumerate(dealt) if game in games)
    return sum(map(ord, item["id"])) % FOLDS


def fit_reranker(captures: list[dict], l2: float = 1.0):
    """The reranker's weights on standardised features: pairwise logistic regression (each right candidate of a
    question against each wrong one, every question weighing the same), Newton's method; (weights, mean, spread)."""
    usable = [c for c in captures if any(c["right"]) and not all(c["right"])]
    x = np.vstack([np.array(c["features"]) for c in usable])
    mean, spread = x.mean(0), x.std(0) + 1e-9
    diffs, weight = [], []
    for c in usable:
        z = (np.array(c["features"]) - mean) / spread
        right = np.array(c["right"][:len(z)], dtype=bool)
        pairs = (z[right][:, None, :] - z[~right][None, :, :]).reshape(-1, z.shape[1])
        diffs.append(pairs)
        weight.append(np.full(len(pairs), 1 / len(pairs)))
    d, w = np.vstack(diffs), np.concatenate(weight)
    w /= w.sum()
    beta = np.zeros(d.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-d @ beta))
        gradient = -d.T @ (w * (1 - p)) + l2 / len(usable) * beta
        hessian = (d * (w * p * (1 - p))[:, None]).T @ d + l2 / len(usable) * np.eye(len(beta))
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return beta, mean, spread


def complete(observation: dict, total: int) -> dict:
    """An observation whose captured candidate features are joined by their game features (`training.rerank`), as a
    reranker would read them."""
    captured = observation["captured"]
    if not captured:
        return observation
    games = game_features(captured["ranked"], captured["usage"], total)
    return {**observation, "captured": {**captured, "features": [own + game for own, game
                                                                 in zip(captured["features"], games)]}}


def reranked(conn, observation: dict, model) -> dict:
    """An observation re-ordered by the reranker: its rank and its evidence on the new order."""
    captured = observation["captured"]
    if not captured or not captured["features"]:
        return observation
    beta, mean, spread = model
    scores = ((np.array(captured["features"]) - mean) / spread) @ beta
    order = [int(i) for i in np.argsort(-scores, kind="stable")]
    right = captured["right"]
    rank = next((n for n, i in enumerate(order, start=1) if i < len(right) and right[i]), None)
    pairs = [(captured["ranked"][i][0], float(scores[i])) for i in order]
    found = kb.search.evidence(conn, pairs, captured["cosines"], captured["usage"], captured["game"])
    return {**observation, "rank": rank, "evidence": asdict(found) if found else None}


def analyse(library: Path, found: dict, sets: dict[str, list[dict]], dealt: list[list[str]]) -> dict:
    """The held-out figures of every run (see the module's docstring) and the shipping constants."""
    conn = connect(library)
    names = {item["id"]: name for name, questions in sets.items() for item in questions}
    answerable = {item["id"] for questions in sets.values() for item in questions if "expect" in item}

    def rows_of(fold: int, run_name: str, weight: float) -> list[dict]:
        return [{**obs, "id": qid, "set": names[qid], "answerable": qid in answerable}
                for qid, obs in found[fold][run_name][weight].items()]

    def others(excluded: int | None) -> list[int]:
        return [f for f in range(FOLDS) if f != excluded]

    weights = {f: max(WEIGHTS, key=lambda w: mrr([r for o in others(f if f < FOLDS else None)
                                                 for r in rows_of(o, "new", w) if r["answerable"]]))
               for f in range(FOLDS + 1)}
    total = ruling_count(conn)
    bases = {"today": {f: [complete(r, total) for r in rows_of(f, "today", LEXICAL_WEIGHT)] for f in range(FOLDS + 1)},
             "encoder": {f: [complete(r, total) for r in rows_of(f, "new", weights[f])] for f in range(FOLDS + 1)}}
    models = {name: {f: fit_reranker([r["captured"] for o in others(f if f < FOLDS else None) for r in rows[o]
                                      if r["answerable"] and r["captured"]]) for f in range(FOLDS + 1)}
              for name, rows in bases.items()}
    reranks = {name: {f: [reranked(conn, r, models[name][f]) for r in rows[f]] for f in range(FOLDS + 1)}
               for name, rows in bases.items()}

    def decision(rows: dict[int, list[dict]], excluded: int | None) -> Decision:
        observations: dict[str, list[dict]] = defaultdict(list)
        for f in others(excluded):
            for r in rows[f]:
                observations[r["set"] if r["answerable"] else f"{r['set']}@{f}"].append(r)
        return Decision({name: arrays(rs) for name, rs in observations.items()}, wrong_cost=WRONG_COST)

    def labelled(rows: dict[int, list[dict]]) -> list[dict]:
        out = []
        for f in range(FOLDS + 1):
            made = decision(rows, f if f < FOLDS else None)
            by_set: dict[str, list[dict]] = defaultdict(list)
            for r in rows[f]:
                by_set[r["set"]].append(r)
            for rs in by_set.values():
                with_evidence = [r for r in rs if r["evidence"]]
                labels = made.outcomes(arrays(with_evidence)) if with_evidence else []
                out += [{**r, "label": str(label)} for r, label in zip(with_evidence, labels)]
                out += [{**r, "label": r["outcome"]} for r in rs if not r["evidence"]]
        return out

    runs = {"today": [{**r, "label": r["outcome"]} for f in range(FOLDS + 1)
                      for r in rows_of(f, "today", LEXICAL_WEIGHT)],
            "today, game given": [{**r, "label": r["outcome"]} for f in range(FOLDS + 1)
                                  for r in rows_of(f, "today_given", LEXICAL_WEIGHT)],
            "today, outcome refit": labelled(bases["today"]),
            "today + reranker": labelled(reranks["today"]),
            "encoder": labelled(bases["encoder"]), "encoder + reranker": labelled(reranks["encoder"])}
    report = {"folds": dealt, "weights": {str(f): w for f, w in weights.items()}, "sets": {}}
    for run_name, rows in runs.items():
        by_set: dict[str, list[dict]] = defaultdict(list)
        for r in rows:
            by_set[r["set"]].append(r)
        figures = {name: summary(by_set[name]) for name in sorted(by_set)}
        figures["all answerable"] = summary([r for r in rows if r["answerable"] and r["set"] != HELDOUT_DOC])
        figures["all uncovered"] = summary([r for r in rows if r["set"].startswith("uncovered:")])
        report["sets"][run_name] = figures
    report["shipping"] = {"weight": weights[FOLDS]}
    for name in bases:
        coef, mean, spread = models[name][FOLDS]
        report["shipping"][f"reranker ({name})"] = {"weights": dict(zip(FEATURES, np.round(coef, 4).tolist())),
                                                    "mean": np.round(mean, 4).tolist(),
                                                    "spread": np.round(spread, 4).tolist()}
        report["shipping"][f"outcome ({name})"] = decision(bases[name], None).constants()
        report["shipping"][f"outcome ({name} + reranker)"] = decision(reranks[name], None).constants()
    conn.close()
    return report


def run(library: Path, work: Path, negatives: str = "library") -> dict:
    """Collect (or read back from `work`) every fold's observations, and analyse them."""
    sets = question_sets()
    dealt = folds(sets)
    return analyse(library, collect(library, work, sets, dealt, negatives), sets, dealt)


HELDOUT_DOC = next(d.doc for d in documents() if d.heldout)
COLUMNS = ("n", "r@1", "r@5", "mrr", "first_of_found", "answered", "precision", "not_covered",
           "unanswerable_not_covered", "unanswerable_answered")


def side_by_side(report: dict) -> str:
    """One table: each set's r@1 and MRR in every run (answerable sets), or its "not covered" share (the others)."""
    runs = list(report["sets"])
    lines = ["| set | n | " + " | ".join(f"{run} r@1 / MRR" for run in runs) + " |", "|---" * (len(runs) + 2) + "|"]
    first = report["sets"][runs[0]]
    for name, row in first.items():
        if row["mrr"] is not None:
            cells = [f"{report['sets'][run][name]['r@1']:.2f} / {report['sets'][run][name]['mrr']:.2f}" for run in runs]
        else:
            cells = [f"not covered {report['sets'][run][name]['unanswerable_not_covered']:.2f}" for run in runs]
        lines.append(f"| {name} | {row['n']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def markdown(report: dict) -> str:
    lines = [f"Folds: {report['folds']}; fusion weight per fold: {report['weights']}", "", side_by_side(report), ""]
    for run_name, figures in report["sets"].items():
        lines += [f"### {run_name}", "", "| set | " + " | ".join(COLUMNS) + " |", "|---" * (len(COLUMNS) + 1) + "|"]
        lines += [f"| {name} | " + " | ".join("–" if row[c] is None else str(row[c]) for c in COLUMNS) + " |"
                  for name, row in figures.items()]
        lines.append("")
    lines.append(f"Shipping: {json.dumps(report['shipping'])}")
    return "\n".join(lines)


def latency(library: Path, sample: int = 400) -> dict:
    """What the shipped configuration costs: warm `kb.search.ask` p50/p95 (ms) over `sample` questions of every set,
    the game not given and given, in this process; and a cold `rulings ask` (a new process, model loading
    included), the median of three."""
    import subprocess
    import time

    from benchmarks.speed import ENV, RULINGS
    from support.load import percentile
    questions = [item for questions in question_sets().values() for item in questions]
    questions = questions[::max(1, len(questions) // sample)][:sample]
    conn = connect(library)
    found = {}
    for given in (False, True):
        times = []
        kb.search.ask(conn, "warm up")
        for item in questions:
            start = time.perf_counter()
            kb.search.ask(conn, item["question"], game=item.get("game") if given else None)
            times.append((time.perf_counter() - start) * 1000)
        found["game given" if given else "no game"] = {"n": len(times), "p50_ms": round(statistics.median(times), 1),
                                                       "p95_ms": round(percentile(times, 95), 1)}
    colds = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([str(RULINGS), "ask", "can my exerted character still challenge?", "--db", str(library)],
                       env=ENV, capture_output=True, check=False)
        colds.append(time.perf_counter() - start)
    found["cold rulings ask s"] = round(statistics.median(colds), 2)
    found["rulings"] = conn.execute("select count(*) from rulings").fetchone()[0]
    found["games"] = conn.execute("select count(*) from games").fetchone()[0]
    conn.close()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", type=Path, required=True)
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "ranker")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--negatives", choices=("library", "game", "both"), default="library",
                        help="what the encoder's softmax runs over (training.encoder.Settings); a new --work for each")
    parser.add_argument("--latency", action="store_true", help="only time the shipped configuration")
    args = parser.parse_args()
    if args.latency:
        print(json.dumps(latency(args.library), indent=1))
        return
    report = run(args.library, args.work, args.negatives)
    (args.work / "report.json").write_text(json.dumps(report, indent=1))
    print(json.dumps(report, indent=2) if args.json else markdown(report))


if __name__ == "__main__":
    main()
