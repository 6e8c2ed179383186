"""What a question's search may claim: an answer, the closest rulings to check, or that the documents don't
cover it.

Each outcome is a claim a judge acts on, so each needs its own evidence:
- **Answer**: the first ruling settles the question. The evidence for the first ruling, weighed together:
  - **lead**: its fused score (kb.fusion: standard deviations above the candidates' mean, words and meaning);
  - **margin**: how far it stands above the second ruling (a near tie between siblings is a guess);
  - **cosine**: how close its best passage is in meaning to the question;
  - **coverage**: the share of the question's content words it uses, rare words weighing more.
- **Not covered**: the documents do not speak of it. Evidence of absence, not of doubt:
  - **unknown**: the share of the question's content words (rarer words weighing more) that no ruling of the
    game searched uses at all ("infraction", "grandmaster", "backgammon");
  - **nearest**: how close in meaning the closest passage of any ruling searched is;
  - a recorded gap of the sources searched (`kb.gaps`) that the question names.
- **Closest rulings**: neither claim can be backed; the rulings are shown best first for the reader to check,
  with no claim either way: not even that the documents speak of the subject (a ban list, a tournament
  penalty: the evidence cannot tell them from a rule).
A question naming a game the library does not hold (`kb.unheld`), and no game it holds, is never answered (the
rulings found are another game's): not covered, or with a game chosen at most the closest rulings. `said` words
each outcome for every reader.
Each claim is a logistic model on its evidence, weights and thresholds fitted by `benchmarks/answered.py` on
every question set (the uncovered and off-topic ones included) and checked by leaving one set out
(docs/search.md). The full-text-only and meaning-only modes, kept for comparison, use the simple rule below
(`is_answered`) and never claim "not covered" without a gap.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

ANSWER, CLOSEST, NOT_COVERED = "answer", "closest", "not-covered"
OUTCOMES = (ANSWER, CLOSEST, NOT_COVERED)

SURE_COSINE = 0.45
MIN_COSINE = 0.25
MAX_UNKNOWN_WORDS = 0.25


@dataclass(frozen=True)
class Evidence:
    """What a hybrid ranking says for its first ruling, and for the question's subject being there at all
    (see the module's docstring)."""
    lead: float
    margin: float
    cosine: float
    coverage: float
    unknown: float = 0.0
    nearest: float = 0.0


# Fitted by `python benchmarks/answered.py` (logistic regressions on standardised features, every set weighing
# equally). The answer's threshold maximises right answers with a wrong one costing nine (answering pays only
# at 90% precision); the absence model weighs answerable and unanswerable sets equally, and its threshold is the
# one labelling most unanswerable questions "not covered" while labelling at most 5% of every answerable set so.
ANSWER_WEIGHTS = {"lead": 0.3598, "margin": 0.2193, "cosine": 3.8914, "coverage": 1.9822}
ANSWER_BIAS = -4.4624
THRESHOLD = 0.825
ABSENT_WEIGHTS = {"unknown": 2.4747, "nearest": -9.1666}
ABSENT_BIAS = 3.6878
ABSENT_THRESHOLD = 0.825


def _probability(evidence: Evidence, weights: dict[str, float], bias: float) -> float:
    z = bias + sum(weight * getattr(evidence, name) for name, weight in weights.items())
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, z))))


def confidence(evidence: Evidence) -> float:
    """The answer model's probability that the first ruling settles the question (0 to 1)."""
    return _probability(evidence, ANSWER_WEIGHTS, ANSWER_BIAS)


def absence(evidence: Evidence) -> float:
    """The absence model's probability that the documents searched do not speak of the question (0 to 1)."""
    return _probability(evidence, ABSENT_WEIGHTS, ABSENT_BIAS)


def outcome(evidence: Evidence | None, gaps: int) -> str:
    """The claim the evidence backs: ANSWER when the first ruling is sure enough; else NOT_COVERED when a recorded
    gap names the question or the evidence of absence is strong; else CLOSEST. Nothing found is not covered."""
    if evidence is None:
        return NOT_COVERED
    if confidence(evidence) >= THRESHOLD:
        return ANSWER
    return NOT_COVERED if gaps or absence(evidence) >= ABSENT_THRESHOLD else CLOSEST


def said(found: str, gaps: int, unheld: str | None) -> str | None:
    """What an outcome claims, in a judge's words, the same on every surface: none for an answer (the ruling
    says it); for the closest rulings, that the evidence does not say whether any settles it (never that the
    documents speak of it); for not covered, why: the game named that the library does not hold, a recorded gap,
    or the question's words and meaning. `gaps`: how many recorded gaps the question names; `unheld`: the name of
    a game the question names that the library does not hold."""
    missing = f"The library holds no rules for {unheld}" if unheld else None
    if found == ANSWER:
        return None
    if found == CLOSEST:
        return (f"{missing}. " if missing else "") + \
            "The evidence does not say whether any of these rulings settles it: read them, best first."
    if missing:
        return f"{missing}: the rulings below are the nearest of the games it holds, for reference."
    return "The documents don't appear to cover this: " + (
        "a source records it as missing." if gaps else "the question's words and meaning are not in them.")


def unknown_share(usage: dict[str, dict[str, int]]) -> float:
    """The share of the question's content words that no ruling uses (`usage` from `kb.query.term_games`)."""
    return sum(1 for games in usage.values() if not games) / len(usage) if usage else 1.0


def is_answered(ranked: list, best_cosine: float | None, usage: dict[str, dict[str, int]]) -> bool:
    """The comparison modes' rule: answered when the best passage is close in meaning; when it is only
    loosely close (or there is no cosine, in fts mode), only if at most a quarter of the question's words
    are unknown to every ruling."""
    if not ranked:
        return False
    if best_cosine is not None and best_cosine >= SURE_COSINE:
        return True
    close_enough = best_cosine is None or best_cosine >= MIN_COSINE
    return close_enough and unknown_share(usage) <= MAX_UNKNOWN_WORDS
