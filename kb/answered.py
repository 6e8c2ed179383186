"""Deciding whether a question is answered, rather than merely shown the least distant rulings.

A wrong answer shown as an answer is worse than "not covered": a judge acts on it. So a hybrid ranking's
first ruling is an answer only when the evidence for it, taken together, says so:
- **lead**: its fused score (kb.fusion: standard deviations above the candidates' mean, words and meaning);
- **margin**: how far it stands above the second ruling (a near tie between siblings is a guess);
- **cosine**: how close its best passage is in meaning to the question;
- **coverage**: the share of the question's content words it uses, rare words weighing more (a question
  about "tournament penalties" answered by a rule that says nothing of tournaments covers little).
They are weighed by a logistic model whose weights and threshold are fitted by `benchmarks/answered.py` on
every question set, the uncovered and off-topic ones included, and checked by leave-one-set-out
cross-validation (docs/search.md, "How search works", with the held-out figures). The full-text-only and
meaning-only modes, kept for comparison, use the simple rule below (`is_answered`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

SURE_COSINE = 0.45
MIN_COSINE = 0.25
MAX_UNKNOWN_WORDS = 0.25


@dataclass(frozen=True)
class Evidence:
    """What a hybrid ranking says for its first ruling (see the module's docstring)."""
    lead: float
    margin: float
    cosine: float
    coverage: float


# Fitted by `python benchmarks/answered.py` (logistic regression on standardised features, every set weighing
# equally; the threshold maximises right decisions with a wrong answer costing twice a missed one).
WEIGHTS = {"lead": 0.3443, "margin": 0.3962, "cosine": 5.7949, "coverage": 3.0884}
BIAS = -6.3378
THRESHOLD = 0.75


def confidence(evidence: Evidence) -> float:
    """The model's probability that the first ruling settles the question (0 to 1)."""
    z = BIAS + sum(weight * getattr(evidence, name) for name, weight in WEIGHTS.items())
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, z))))


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
