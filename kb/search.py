"""Answering questions with rulings: the steps of a search, in order.

A question that is a ruling ref, id or label goes straight to that ruling (`kb.query`); otherwise it is ranked
by full text and by meaning (`kb.retrieval`), the two rankings fused (`kb.fusion`), kept to the game it
names or tilted towards the game whose vocabulary it speaks, and judged answered or not (`kb.answered`);
of rulings that answer alike, the official source's comes first (`kb.rulings.official_first`).
"""
from __future__ import annotations

import sqlite3

from kb.answered import is_answered
from kb.fusion import LEXICAL_WEIGHT, combine, prefer_game, prefer_rulings
from kb.gaps import answer_gaps
from kb.lexicon import load_lexicon
from kb.onnx_embedder import embedder
from kb.query import (
    content_terms,
    direct_hit,
    fts_query,
    glossary_rulings,
    named_game,
    term_games,
    vocabulary_game,
    without_game_name,
)
from kb.retrieval import dense_ranking, fts_ranking
from kb.rulings import official_first, results

MAX_K = 50
MODES = ("hybrid", "fts", "dense")
CANDIDATES = 50


def rank(conn: sqlite3.Connection, question: str, game: str | None = None, mode: str = "hybrid",
         limit: int = CANDIDATES, weight: float = LEXICAL_WEIGHT) -> tuple[list[tuple[str, float]], float | None]:
    """The ranked (ruling id, score) list for a question, and the best cosine (None in fts mode); `weight`
    is the full-text share of the fusion (benchmarks vary it to choose it)."""
    if mode not in MODES:
        raise ValueError(f"unknown search mode {mode!r}; one of {', '.join(MODES)}")
    lexical = fts_ranking(conn, fts_query(question, load_lexicon(conn).acronyms), game, limit) \
        if mode != "dense" else []
    if mode == "fts":
        return lexical, None
    semantic = dense_ranking(conn, embedder().embed(question), game, limit)
    best_cosine = semantic[0][1] if semantic else None
    if mode == "dense":
        return semantic, best_cosine
    return combine(lexical, semantic, weight), best_cosine


def ask(conn: sqlite3.Connection, question: str, game: str | None = None, k: int = 5,
        mode: str = "hybrid", weight: float = LEXICAL_WEIGHT) -> dict:
    """The answer to a question: `{"query", "answered", "game", "results", "gaps"}`, best ruling first.

    `game` restricts the search; without it, a game the question names does, and a game whose vocabulary
    the question speaks is preferred. `game` in the answer is the game searched or recognised (or None).
    `answered` is false when nothing matches or the best match is too far in meaning to be the answer
    (the results are then the nearest rulings, for the reader to judge; `gaps`: `kb.gaps.answer_gaps`).
    """
    k = max(1, min(k, MAX_K))
    lexicon = load_lexicon(conn)
    hit = direct_hit(question, lexicon)
    if hit and (game is None or hit.split("/")[0] == game):
        return {"query": question, "answered": True, "game": hit.split("/")[0],
                "results": results(conn, [(hit, 1.0)]), "gaps": []}
    game = game or named_game(question, lexicon.games)
    searched = without_game_name(question, lexicon.games, game) or question
    ranked, best_cosine = rank(conn, searched, game, mode, weight=weight)
    usage = term_games(conn, content_terms(searched))
    lead = ranked[0][1] if mode == "hybrid" and ranked else None
    preferred = None if game else vocabulary_game(usage)
    if preferred:
        ranked = prefer_game(ranked, preferred)
    if mode == "hybrid":  # a boost in standard deviations: only fused scores are on that scale
        ranked = prefer_rulings(ranked, glossary_rulings(searched, lexicon.terms, game or preferred))
    answer = {"query": question, "answered": is_answered(ranked, best_cosine, usage, lead),
              "game": game or preferred, "results": results(conn, official_first(conn, ranked)[:k])}
    return {**answer, "gaps": answer_gaps(conn, answer)}
