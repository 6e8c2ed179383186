"""Deciding whether a question is answered, rather than merely shown the least distant rulings.

MiniLM puts a paraphrase of a rule at a cosine above ~0.45 and unrelated text below ~0.3; in between, a
question about another game or another subject gives itself away by words no ruling uses ("poker",
"Scrabble", "recipe"). On top of that, a fused ranking must put its best ruling well clear of the other
candidates: a first result that neither full text nor meaning singles out is a guess, however close it is.
The lead was chosen by leave-one-set-out cross-validation over every question set (README, "Knowing when
it is unsure").
"""
from __future__ import annotations

SURE_COSINE = 0.45
MIN_COSINE = 0.25
MAX_UNKNOWN_WORDS = 0.25
# The fused score (kb.fusion: standard deviations above the candidates' mean, words and meaning averaged)
# a hybrid ranking's first ruling needs to be an answer.
MIN_LEAD = 2.5


def unknown_share(usage: dict[str, dict[str, int]]) -> float:
    """The share of the question's content words that no ruling uses (`usage` from `kb.query.term_games`)."""
    return sum(1 for games in usage.values() if not games) / len(usage) if usage else 1.0


def is_answered(ranked: list, best_cosine: float | None, usage: dict[str, dict[str, int]],
                lead: float | None = None) -> bool:
    """Is the best match an answer, rather than merely the least distant ruling?

    Not when a fused ranking's `lead` (its first ruling's fused score) is under MIN_LEAD. Otherwise yes
    when the best passage is close in meaning; when it is only loosely close (or there is no cosine, in fts
    mode), only if at most a quarter of the question's words are unknown to every ruling.
    """
    if not ranked or lead is not None and lead < MIN_LEAD:
        return False
    if best_cosine is not None and best_cosine >= SURE_COSINE:
        return True
    close_enough = best_cosine is None or best_cosine >= MIN_COSINE
    return close_enough and unknown_share(usage) <= MAX_UNKNOWN_WORDS
