"""Choosing a ranking constant by leave-one-set-out cross-validation, never on one small set.

Each question set (a seed game, a rulebook, an FAQ) is held out in turn: the candidate value with the best
mean score on the other sets is chosen, and its score on the held-out set is what the choice is worth on
questions it never saw. A constant that is only good on the set it was tuned on shows up as a low held-out
score.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from statistics import mean


@dataclass(frozen=True)
class CrossValidation:
    """The outcome of `cross_validate`."""
    chosen: dict[str, Hashable]            # held-out set → the candidate chosen on the other sets
    held_out: dict[str, float]             # held-out set → that candidate's score on it
    best: Hashable                         # the candidate with the best mean score over all sets
    scores: dict[Hashable, dict[str, float]]  # candidate → set → score

    @property
    def mean_held_out(self) -> float:
        """The mean held-out score over the sets: what choosing by cross-validation is worth."""
        return mean(self.held_out.values())


def cross_validate(sets: Mapping[str, Sequence], candidates: Sequence[Hashable],
                   score: Callable[[Hashable, Sequence], float]) -> CrossValidation:
    """Leave-one-set-out selection among `candidates` of `score(candidate, questions)` (higher is better).

    Sets weigh equally in a mean, whatever their size, so a large set cannot outvote the others. Each
    (candidate, set) pair is scored once; ties go to the earlier candidate.
    """
    if len(sets) < 2:
        raise ValueError("cross-validation needs at least two question sets")
    if not candidates:
        raise ValueError("no candidates to choose from")
    scores = {c: {name: score(c, questions) for name, questions in sets.items()} for c in candidates}

    def best_on(names: list[str]) -> Hashable:
        return max(candidates, key=lambda c: mean(scores[c][n] for n in names))  # max keeps the first of ties

    chosen = {held: best_on([name for name in sets if name != held]) for held in sets}
    return CrossValidation(chosen=chosen, held_out={held: scores[c][held] for held, c in chosen.items()},
                           best=best_on(list(sets)), scores=scores)
