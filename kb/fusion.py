"""Fusing the two rankings into one: a convex combination of their scores, each divided by its list's best.

Dividing by the best puts both lists on 0..1 ("how close to the best match") while keeping how far ahead
the best match is, which reciprocal-rank fusion throws away: many questions have one clearly right ruling
in one list and nothing in the other. The README gives the measured comparison.
"""
from __future__ import annotations

LEXICAL_WEIGHT = 0.5  # equal say for words and meaning: nothing is tuned to the dev questions
# A game recognised by its vocabulary only (no name given) is preferred, not imposed: its rulings' scores
# are raised by a quarter, enough to settle near-ties, never enough to bury a clearly better match.
VOCABULARY_BOOST = 1.25


def combine(lexical: list[tuple[str, float]], semantic: list[tuple[str, float]],
            weight: float = LEXICAL_WEIGHT) -> list[tuple[str, float]]:
    """Convex combination of the two lists' scores, each divided by its list's best (cosines below 0 count 0)."""
    fused: dict[str, float] = {}
    for ranking, share in ((lexical, weight), (semantic, 1.0 - weight)):
        top = max((score for _, score in ranking), default=0.0)
        for ruling_id, score in ranking:
            fused[ruling_id] = fused.get(ruling_id, 0.0) + share * (max(score, 0.0) / top if top > 0 else 0.0)
    return sorted(fused.items(), key=lambda item: -item[1])


def prefer_game(ranked: list[tuple[str, float]], game: str) -> list[tuple[str, float]]:
    """`ranked` re-sorted with the scores of `game`'s rulings raised by VOCABULARY_BOOST."""
    return sorted(((rid, score * (VOCABULARY_BOOST if rid.startswith(game + "/") else 1.0))
                   for rid, score in ranked), key=lambda item: -item[1])
