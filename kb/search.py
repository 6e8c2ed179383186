"""Answering questions with rulings: the steps of a search, in order.

A question that is a ruling ref, id or label goes straight to that ruling (`kb.query`); otherwise it is ranked
by full text and by meaning (`kb.retrieval`), the two rankings fused (`kb.fusion`), kept to the game it
names or tilted towards the game whose vocabulary it speaks, and judged answered or not (`kb.answered`);
of rulings that answer alike, the official source's comes first (`kb.rulings.official_first`).
"""
from __future__ import annotations

import sqlite3
from dataclasses import asdict

from kb.answered import THRESHOLD, Evidence, confidence, is_answered
from kb.fusion import LEXICAL_WEIGHT, combine, prefer_game, prefer_rulings
from kb.gaps import answer_gaps
from kb.lexicon import load_lexicon
from kb.onnx_embedder import embedder
from kb.query import (
    content_terms,
    coverage,
    direct_hit,
    fts_query,
    glossary_rulings,
    named_game,
    term_games,
    vocabulary_game,
    without_game_name,
)
from kb.retrieval import dense_ranking, fts_ranking
from kb.rulings import official_first, originals_first, results

MAX_K = 50
MODES = ("hybrid", "fts", "dense")
CANDIDATES = 50


def rank(conn: sqlite3.Connection, question: str, game: str | None = None, mode: str = "hybrid",
         limit: int = CANDIDATES, weight: float = LEXICAL_WEIGHT) -> tuple[list[tuple[str, float]], dict[str, float]]:
    """The ranked (ruling id, score) list for a question, and each candidate's cosine (none in fts mode);
    `weight` is the full-text share of the fusion (benchmarks vary it to choose it)."""
    if mode not in MODES:
        raise ValueError(f"unknown search mode {mode!r}; one of {', '.join(MODES)}")
    lexical = fts_ranking(conn, fts_query(question, load_lexicon(conn).acronyms), game, limit) \
        if mode != "dense" else []
    if mode == "fts":
        return lexical, {}
    semantic = dense_ranking(conn, embedder().embed(question), game, limit)
    if mode == "dense":
        return semantic, dict(semantic)
    return combine(lexical, semantic, weight), dict(semantic)


def evidence(conn: sqlite3.Connection, ranked: list[tuple[str, float]], cosines: dict[str, float],
             usage: dict[str, dict[str, int]]) -> Evidence | None:
    """What a fused ranking says for its first ruling (`kb.answered.Evidence`); None when it found nothing."""
    if not ranked:
        return None
    first, lead = ranked[0]
    return Evidence(lead=lead, margin=lead - ranked[1][1] if len(ranked) > 1 else lead,
                    cosine=cosines.get(first, min(cosines.values(), default=0.0)),
                    coverage=coverage(conn, first, usage))


def ask(conn: sqlite3.Connection, question: str, game: str | None = None, k: int = 5,
        mode: str = "hybrid", weight: float = LEXICAL_WEIGHT, explain: bool = False) -> dict:
    """The answer to a question: `{"query", "answered", "confidence", "game", "results", "gaps"}`, best ruling
    first.

    `game` restricts the search; without it, a game the question names does, and a game whose vocabulary
    the question speaks is preferred. `game` in the answer is the game searched or recognised (or None).
    `answered` is false when the first ruling does not settle the question (`kb.answered`): the results are
    then the nearest rulings, for the reader to judge, and `gaps` the recorded gaps of the sources searched
    that the question names (`kb.gaps.answer_gaps`). `confidence` is the answered model's probability
    (hybrid mode; 1 for a ruling asked by its ref). `explain` adds `evidence`, what the decision weighed.
    """
    k = max(1, min(k, MAX_K))
    lexicon = load_lexicon(conn)
    hit = direct_hit(question, lexicon)
    if hit and (game is None or hit.split("/")[0] == game):
        return {"query": question, "answered": True, "confidence": 1.0, "game": hit.split("/")[0],
                "results": results(conn, [(hit, 1.0)]), "gaps": []}
    game = game or named_game(question, lexicon.games)
    searched = without_game_name(question, lexicon.games, game) or question
    ranked, cosines = rank(conn, searched, game, mode, weight=weight)
    usage = term_games(conn, content_terms(searched))
    preferred = None if game else vocabulary_game(usage)
    if preferred:
        ranked = prefer_game(ranked, preferred)
    if mode == "hybrid":  # a boost in standard deviations: only fused scores are on that scale
        ranked = prefer_rulings(ranked, glossary_rulings(searched, lexicon.terms, game or preferred))
    ranked = official_first(conn, originals_first(conn, ranked))
    if mode == "hybrid":
        found = evidence(conn, ranked, cosines, usage)
        sure = round(confidence(found), 3) if found else 0.0
        answered = sure >= THRESHOLD
    else:  # the comparison modes have no fused scores to weigh
        found, sure = None, None
        answered = is_answered(ranked, max(cosines.values(), default=None), usage)
    answer = {"query": question, "answered": answered, "confidence": sure, "game": game or preferred,
              "results": results(conn, ranked[:k])}
    answer["gaps"] = answer_gaps(conn, answer)
    return {**answer, "evidence": asdict(found) if found else None} if explain else answer
