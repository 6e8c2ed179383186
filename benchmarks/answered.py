"""Fitting the "answered" decision (`kb.answered`) on every question set, and checking it by leaving one set out.

    python benchmarks/answered.py --db DB [--json]

DB is a database holding the seeds and every document of ../shared/corpora (`python benchmarks/corpora.py
--keep DIR` builds one). Every question of every set is asked once in hybrid mode with its evidence
(`kb.search.ask(..., explain=True)`); the label is 1 when the question is answerable and its first ruling is
right, 0 otherwise (a wrong first ruling, an uncovered or off-topic question). A logistic regression on the
standardised evidence (L2-regularised, every set weighing equally whatever its size) gives the weights; the
threshold is the probability that maximises the mean over sets of the decision's worth, where an answer that
is right gains 1, a wrong one shown as an answer loses WRONG_COST, and "not covered" counts 0. Leave-one-set-out:
the model and threshold are fitted on the other sets and scored on the held-out one (its answered rate and
precision, or its unanswered rate for sets with nothing to answer). Prints the held-out table and the weights
to put in `kb/answered.py` (on the raw evidence, so search needs no standardising).
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import fields
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.corpora import question_sets, unanswerable_sets  # noqa: E402
from kb.answered import Evidence  # noqa: E402
from kb.evaluate import first_correct  # noqa: E402
from kb.search import ask  # noqa: E402
from kb.store import connect  # noqa: E402

FEATURES = tuple(f.name for f in fields(Evidence))
WRONG_COST = 2.0  # a wrong answer shown as an answer is worse than "not covered"
L2 = 1.0
THRESHOLDS = tuple(round(0.05 * n, 2) for n in range(2, 20))


def observations(conn, sets: dict[str, list[dict]]) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Set → (evidence matrix, labels, answerable flags) of its questions (a question without evidence, as a
    ref asked directly, is left out: it is always answered)."""
    found = {}
    for name, questions in sets.items():
        rows, labels, answerable = [], [], []
        for item in questions:
            answer = ask(conn, item["question"], k=1, explain=True)
            if answer["evidence"] is None:
                continue
            right = "expect" in item and first_correct(answer["results"], item["expect"]) == 1
            rows.append([answer["evidence"][f] for f in FEATURES])
            labels.append(1.0 if right else 0.0)
            answerable.append("expect" in item)
        found[name] = (np.array(rows), np.array(labels), np.array(answerable))
    return found


def fit(data: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """Weights and bias on standardised features (Newton's method, each set's questions weighing 1 in all),
    with the features' means and spreads."""
    x = np.vstack([d[0] for d in data])
    y = np.concatenate([d[1] for d in data])
    weight = np.concatenate([np.full(len(d[1]), 1 / len(d[1])) for d in data])
    mean, spread = x.mean(0), x.std(0) + 1e-9
    z = np.hstack([(x - mean) / spread, np.ones((len(x), 1))])
    beta = np.zeros(z.shape[1])
    penalty = np.diag([L2 / len(data)] * (z.shape[1] - 1) + [0.0])
    for _ in range(50):
        p = 1 / (1 + np.exp(-z @ beta))
        gradient = z.T @ (weight * (p - y)) + penalty @ beta
        hessian = (z * (weight * p * (1 - p))[:, None]).T @ z + penalty
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return beta[:-1], float(beta[-1]), mean, spread


def probabilities(x: np.ndarray, model) -> np.ndarray:
    coef, bias, mean, spread = model
    return 1 / (1 + np.exp(-(((x - mean) / spread) @ coef + bias)))


def worth(p: np.ndarray, y: np.ndarray, threshold: float) -> float:
    """The mean worth of answering where p ≥ threshold: +1 right, −WRONG_COST wrong, 0 unanswered."""
    answered = p >= threshold
    return float(np.mean(np.where(answered, np.where(y == 1, 1.0, -WRONG_COST), 0.0))) if len(y) else 0.0


def choose_threshold(data: list[tuple[np.ndarray, np.ndarray]], model) -> float:
    """The threshold with the best mean worth over the sets (each set weighing equally)."""
    return max(THRESHOLDS, key=lambda t: np.mean([worth(probabilities(x, model), y, t) for x, y in data]))


def figures(p: np.ndarray, y: np.ndarray, answerable: np.ndarray, threshold: float) -> dict:
    """Answered rate and precision over the answerable questions, unanswered rate over the others."""
    answered = p >= threshold
    known = answerable.astype(bool)
    rate = float(answered[known].mean()) if known.any() else None
    precision = float(y[known & answered].mean()) if (known & answered).any() else None
    unanswered = float((~answered[~known]).mean()) if (~known).any() else None
    return {"n": int(len(y)), "answered_rate": rate, "answered_precision": precision, "unanswered_rate": unanswered,
            "right_first": float(y[known].mean()) if known.any() else None}


def cross_validate(found: dict) -> dict:
    """Leave-one-set-out: fitted on the others, scored on the held-out set; then fitted on all."""
    held_out = {}
    for name, (x, y, answerable) in found.items():
        others = [(fx, fy) for other, (fx, fy, _) in found.items() if other != name and len(fy)]
        model = fit(others)
        threshold = choose_threshold(others, model)
        held_out[name] = {**figures(probabilities(x, model), y, answerable, threshold), "threshold": threshold}
    everything = [(x, y) for x, y, _ in found.values() if len(y)]
    model = fit(everything)
    threshold = choose_threshold(everything, model)
    coef, bias, mean, spread = model
    raw = coef / spread
    return {"held_out": held_out, "threshold": threshold,
            "weights": {f: round(float(w), 4) for f, w in zip(FEATURES, raw)},
            "bias": round(float(bias - (coef * mean / spread).sum()), 4),
            "in_sample": {name: figures(probabilities(x, model), y, a, threshold) for name, (x, y, a) in found.items()}}


def _cell(value) -> str:
    return "–" if value is None else f"{value:.3f}"


def markdown(report: dict) -> str:
    lines = ["| held-out set | n | right first | answered | precision | unanswered | threshold |",
             "|---|---|---|---|---|---|---|"]
    for name, row in report["held_out"].items():
        lines.append(f"| {name} | {row['n']} | {_cell(row['right_first'])} | {_cell(row['answered_rate'])} | "
                     f"{_cell(row['answered_precision'])} | {_cell(row['unanswered_rate'])} | {row['threshold']:.2f} |")
    lines += ["", f"Fitted on every set: WEIGHTS = {report['weights']}, BIAS = {report['bias']}, "
              f"THRESHOLD = {report['threshold']}"]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="a database with the seeds and every corpus document")
    parser.add_argument("--questions", type=Path, default=ROOT.parent / "shared" / "eval" / "corpora_dev_questions.jsonl")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    conn = connect(args.db)
    sets = {**question_sets(args.questions), **unanswerable_sets(args.questions.parent)}
    report = cross_validate(observations(conn, sets))
    print(json.dumps(report, indent=2) if args.json else markdown(report))


if __name__ == "__main__":
    main()
