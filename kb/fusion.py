"""Fusing the two rankings into one: a weighted sum of each list's standard scores.

BM25 scores and cosines live on different scales, and so do the spreads of their top candidates: cosines of
the best 50 passages sit close together while BM25 scores fan out, so dividing each list by its best lets
full text decide most orders. Standard scores (how many deviations above its list's mean) give both lists
the same spread; a ruling only one list found takes that list's score and the other list's lowest. The
weight was chosen by leave-one-set-out cross-validation over every question set (docs/search.md, "How search
works").
"""
from __future__ import annotations

import math

LEXICAL_WEIGHT = 0.5  # equal say for words and meaning
# A game recognised by its vocabulary only (no name given) is preferred, not imposed: its rulings gain half a
# standard deviation, enough to settle near-ties, never enough to bury a clearly better match.
VOCABULARY_BOOST = 0.5
# The rules that define a glossary term the question uses gain as much: a hint, settled by the rankings.
GLOSSARY_BOOST = 0.5


def standard_scores(ranking: list[tuple[str, float]]) -> dict[str, float]:
    """Each ruling's score as deviations from its list's mean (0 for every ruling of a list without spread)."""
    if not ranking:
        return {}
    values = [score for _, score in ranking]
    # Plain float arithmetic: statistics.pstdev computes exactly with fractions, a millisecond per question.
    mean = math.fsum(values) / len(values)
    spread = math.sqrt(math.fsum((value - mean) ** 2 for value in values) / len(values))
    return {ruling_id: (score - mean) / spread if spread else 0.0 for ruling_id, score in ranking}


def combine(lexical: list[tuple[str, float]], semantic: list[tuple[str, float]],
            weight: float = LEXICAL_WEIGHT) -> list[tuple[str, float]]:
    """`weight` × the lexical standard score + (1 − `weight`) × the semantic one, best first; a ruling missing
    from a list counts that list's lowest score."""
    fused: dict[str, float] = {}
    lists = [(standard_scores(lexical), weight), (standard_scores(semantic), 1.0 - weight)]
    ids = list(dict.fromkeys([ruling_id for ruling_id, _ in lexical] + [ruling_id for ruling_id, _ in semantic]))
    for scores, share in lists:
        floor = min(scores.values(), default=0.0)
        for ruling_id in ids:
            fused[ruling_id] = fused.get(ruling_id, 0.0) + share * scores.get(ruling_id, floor)
    return sorted(fused.items(), key=lambda item: -item[1])


def prefer_game(ranked: list[tuple[str, float]], game: str) -> list[tuple[str, float]]:
    """`ranked` re-sorted with the scores of `game`'s rulings raised by VOCABULARY_BOOST."""
    return sorted(((rid, score + (VOCABULARY_BOOST if rid.startswith(game + "/") else 0.0))
                   for rid, score in ranked), key=lambda item: -item[1])


def prefer_rulings(ranked: list[tuple[str, float]], ids: set[str]) -> list[tuple[str, float]]:
    """`ranked` with the rulings `ids` raised by GLOSSARY_BOOST, those neither list found entering at the
    lowest score: the rules that define a glossary term the question uses are candidates even when their
    own words differ from the question's."""
    if not ids:
        return ranked
    floor = min((score for _, score in ranked), default=0.0)
    scores = dict(ranked)
    for ruling_id in ids:
        scores[ruling_id] = scores.get(ruling_id, floor) + GLOSSARY_BOOST
    return sorted(scores.items(), key=lambda item: -item[1])
