"""Fitting the three outcomes of a search (`kb.answered`: answer, closest rulings, not covered) on every question
set, and checking them by leaving one set out.

    python benchmarks/answered.py --db DB [--json]

DB is a database holding the seeds and every document of ../shared/corpora (`python benchmarks/corpora.py
--keep DIR` builds one). Every question of every set is asked once in hybrid mode with its evidence
(`kb.search.ask(..., explain=True)`), the game never given. Two logistic regressions on standardised evidence
(L2-regularised, Newton's method):
- **answer**: label 1 when the question is answerable and its first ruling right; every set weighing equally;
  the threshold maximises the mean over sets of the answers' worth, a right answer gaining 1 and a wrong one
  losing WRONG_COST (9: answering pays only where nine in ten answers are right).
- **absence**: label 1 for a question no document answers (the uncovered and off-topic sets); the answerable
  sets and the unanswerable ones weighing half each; the threshold labels the most unanswerable questions "not
  covered" (that the answer model leaves unanswered, a matched gap counting as not covered) while labelling at
  most MAX_FALSE_ABSENT of the questions of every answerable set so.
Leave-one-set-out: both models and thresholds fitted on the other sets and scored on the held-out one: answer
rate and precision, the share of answerable questions labelled not covered, and for the unanswerable sets the
shares labelled not covered and answered. Prints the held-out table and the constants for `kb/answered.py` (on
the raw evidence, so search needs no standardising).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.corpora import question_sets, unanswerable_sets  # noqa: E402
from kb.evaluate import first_correct  # noqa: E402
from kb.search import ask  # noqa: E402
from kb.store import connect  # noqa: E402

ANSWER_FEATURES = ("lead", "margin", "cosine", "coverage")
ABSENT_FEATURES = ("unknown", "nearest")
WRONG_COST = 9.0
MAX_FALSE_ABSENT = 0.05
L2 = 1.0
THRESHOLDS = tuple(round(0.025 * n, 3) for n in range(2, 40))


def observations(conn, sets: dict[str, list[dict]]) -> dict[str, dict[str, np.ndarray]]:
    """Set → its questions' evidence as arrays: "answer" and "absent" (feature matrices), "right" (answerable and
    first ruling right), "answerable", "gaps" (a recorded gap matched). A question without evidence (a ref asked
    directly) is left out: it is always answered."""
    found = {}
    for name, questions in sets.items():
        rows = []
        for item in questions:
            answer = ask(conn, item["question"], k=1, explain=True)
            if answer["evidence"] is None:
                continue
            right = "expect" in item and first_correct(answer["results"], item["expect"]) == 1
            rows.append((answer["evidence"], right, "expect" in item, bool(answer["gaps"])))
        found[name] = {"answer": np.array([[e[f] for f in ANSWER_FEATURES] for e, *_ in rows]).reshape(-1, 4),
                       "absent": np.array([[e[f] for f in ABSENT_FEATURES] for e, *_ in rows]).reshape(-1, 2),
                       "right": np.array([r for _, r, _, _ in rows], dtype=float),
                       "answerable": np.array([a for _, _, a, _ in rows], dtype=bool),
                       "gaps": np.array([g for *_, g in rows], dtype=bool)}
    return found


def fit(data: list[tuple[np.ndarray, np.ndarray, float]]) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """Weights and bias on standardised features from (features, labels, the set's total weight) per set, each
    set's questions sharing its weight; with the features' means and spreads."""
    x = np.vstack([d[0] for d in data])
    y = np.concatenate([d[1] for d in data])
    weight = np.concatenate([np.full(len(d[1]), d[2] / len(d[1])) for d in data])
    weight /= weight.sum()
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
    return 1 / (1 + np.exp(-(((x - mean) / spread) @ coef + bias))) if len(x) else np.zeros(0)


class Decision:
    """Both models and thresholds, fitted on some sets; `outcomes` labels a set's questions."""

    def __init__(self, found: dict[str, dict[str, np.ndarray]], wrong_cost: float = WRONG_COST,
                 max_false_absent: float = MAX_FALSE_ABSENT):
        sets = [s for s in found.values() if len(s["right"])]
        self.wrong_cost = wrong_cost
        self.answer = fit([(s["answer"], s["right"], 1.0) for s in sets])
        self.answer_threshold = max(THRESHOLDS, key=lambda t: np.mean([self._worth(s, t) for s in sets]))
        answerable = [s for s in sets if s["answerable"].all()]
        unanswerable = [s for s in sets if not s["answerable"].any()]
        self.absent = fit([(s["absent"], (~s["answerable"]).astype(float),
                            0.5 / len(answerable if s["answerable"].all() else unanswerable)) for s in sets])
        self.absent_threshold = 1.0
        best = -1.0
        for t in THRESHOLDS:
            self.absent_threshold = t
            if all(np.mean(self.outcomes(s) == "not-covered") <= max_false_absent for s in answerable):
                caught = np.mean([np.mean(self.outcomes(s) == "not-covered") for s in unanswerable])
                if caught > best:
                    best, chosen = caught, t
        self.absent_threshold = chosen if best >= 0 else 1.0

    def _worth(self, s: dict, threshold: float) -> float:
        answered = probabilities(s["answer"], self.answer) >= threshold
        return float(np.mean(np.where(answered, np.where(s["right"] == 1, 1.0, -self.wrong_cost), 0.0)))

    def outcomes(self, s: dict) -> np.ndarray:
        """"answer", "closest" or "not-covered" for each of the set's questions, as `kb.answered.outcome`."""
        answered = probabilities(s["answer"], self.answer) >= self.answer_threshold
        absent = s["gaps"] | (probabilities(s["absent"], self.absent) >= self.absent_threshold)
        return np.where(answered, "answer", np.where(absent, "not-covered", "closest"))

    def constants(self) -> dict:
        """The constants for kb/answered.py, on the raw evidence."""
        def raw(model, names):
            coef, bias, mean, spread = model
            return ({n: round(float(w), 4) for n, w in zip(names, coef / spread)},
                    round(float(bias - (coef * mean / spread).sum()), 4))
        (answer_weights, answer_bias), (absent_weights, absent_bias) = \
            raw(self.answer, ANSWER_FEATURES), raw(self.absent, ABSENT_FEATURES)
        return {"ANSWER_WEIGHTS": answer_weights, "ANSWER_BIAS": answer_bias, "THRESHOLD": self.answer_threshold,
                "ABSENT_WEIGHTS": absent_weights, "ABSENT_BIAS": absent_bias,
                "ABSENT_THRESHOLD": self.absent_threshold}


def figures(s: dict, labels: np.ndarray) -> dict:
    """Per set: answer rate and precision and false "not covered" share over its answerable questions; the
    shares of the others labelled not covered and answered."""
    known, answered, absent = s["answerable"], labels == "answer", labels == "not-covered"

    def share(mask, of):
        return float(mask[of].mean()) if of.any() else None
    return {"n": int(len(labels)), "right_first": share(s["right"] == 1, known), "answered_rate": share(answered, known),
            "answered_precision": share(s["right"] == 1, known & answered),
            "not_covered_answerable": share(absent, known), "not_covered_unanswerable": share(absent, ~known),
            "answered_unanswerable": share(answered, ~known)}


def cross_validate(found: dict) -> dict:
    """Leave-one-set-out: fitted on the others, scored on the held-out set; then fitted on all."""
    held_out = {}
    for name, s in found.items():
        decision = Decision({other: t for other, t in found.items() if other != name})
        held_out[name] = {**figures(s, decision.outcomes(s)), "threshold": decision.answer_threshold,
                          "absent_threshold": decision.absent_threshold}
    decision = Decision(found)
    return {"held_out": held_out, "constants": decision.constants(),
            "in_sample": {name: figures(s, decision.outcomes(s)) for name, s in found.items()}}


def _cell(value) -> str:
    return "–" if value is None else f"{value:.2f}"


def markdown(report: dict) -> str:
    lines = ["| held-out set | n | right first | answer rate | answer precision | answerable: not covered | "
             "unanswerable: not covered | unanswerable: answered | thresholds |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, row in report["held_out"].items():
        lines.append(f"| {name} | {row['n']} | {_cell(row['right_first'])} | {_cell(row['answered_rate'])} | "
                     f"{_cell(row['answered_precision'])} | {_cell(row['not_covered_answerable'])} | "
                     f"{_cell(row['not_covered_unanswerable'])} | {_cell(row['answered_unanswerable'])} | "
                     f"{row['threshold']:.3f} / {row['absent_threshold']:.3f} |")
    lines += ["", "Fitted on every set: " + ", ".join(f"{k} = {v}" for k, v in report["constants"].items())]
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
