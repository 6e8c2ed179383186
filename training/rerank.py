"""What a learned reranker of the first candidates reads (issue 41: measured by `benchmarks/ranker.py`, not kept).

The fused ranking (`kb.fusion`) weighs words and meaning; what it cannot see is the shape of the rulebook around a
candidate: whether a candidate is the parent rule its neighbours among the candidates hang from, whether it defines
a term the question uses, how deep its number is, its kind and length, whether the question names its heading;
and, with no game given, what the candidates say of its game. `benchmarks/ranker.py` fits a linear model over
these features and the two rankings' own scores (pairwise logistic loss: each settling ruling against each other
candidate of its question), every game measured left out of the fit that scores it.
"""
from __future__ import annotations

import math
import re
import sqlite3

from kb.fusion import standard_scores
from kb.rulings import family

DEPTH = 20
CANDIDATE_FEATURES = ("fused", "lexical", "semantic", "cosine", "reciprocal_rank", "defines", "parent_of",
                      "child_of", "depth", "words", "heading", "glossary", "question", "paragraph")
# What the candidates say of the candidate's game: with no game given, a question about one card game lands among
# rulings of several, and the game whose rulings use the question's words is the likelier one.
GAME_FEATURES = ("game_words", "game_words_behind", "game_share", "top_game", "game_behind")
FEATURES = CANDIDATE_FEATURES + GAME_FEATURES
_WORD = re.compile(r"[a-z0-9]+")


def _stems(text: str) -> set[str]:
    """Lower-case words without a plural's s: "Characters" and "character" meet."""
    return {w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
            for w in _WORD.findall(text.lower())}


def game_features(ranked: list[tuple[str, float]], usage: dict[str, dict[str, int]],
                  total: int) -> list[list[float]]:
    """One row of GAME_FEATURES per candidate of `ranked` (its first DEPTH): the share of the question's words
    (rarer ones weighing more, as `kb.query.unused` weighs them) its game's rulings use, and how far behind the
    best game's share; the share of the candidates that are its game's; whether its game is the first
    candidate's; how far its game's best score is behind the first."""
    from kb.query import rarity

    top = ranked[:DEPTH]
    if not top:
        return []
    weights = {term: value + 1 for term, value in rarity(usage, total).items()}
    whole = sum(weights.values())
    games = [rid.split("/")[0] for rid, _ in top]
    words = {game: sum(w for term, w in weights.items() if usage[term].get(game)) / whole if whole else 0.0
             for game in set(games)}
    best = {}
    for game, (_, score) in zip(games, top):
        best.setdefault(game, score)
    lead = top[0][1]
    return [[words[game], max(words.values()) - words[game], games.count(game) / len(games),
             float(game == games[0]), lead - best[game]] for game in games]


def candidate_features(conn: sqlite3.Connection, question: str, ranked: list[tuple[str, float]],
                       lexical: list[tuple[str, float]], semantic: list[tuple[str, float]],
                       defining: set[str]) -> list[list[float]]:
    """One row of CANDIDATE_FEATURES per candidate of `ranked` (its first DEPTH), in order."""
    top = [rid for rid, _ in ranked[:DEPTH]]
    if not top:
        return []
    rows = {row[0]: row for row in conn.execute(
        "select id, kind, label, parent, section, title, text from rulings "
        f"where id in ({','.join('?' * len(top))})", top)}
    lex, sem = standard_scores(lexical), standard_scores(semantic)
    lex_floor, sem_floor = min(lex.values(), default=0.0), min(sem.values(), default=0.0)
    cosines = dict(semantic)
    parents = {rid: family({"id": rid, "parent": rows[rid][3], "label": rows[rid][2], "section": rows[rid][4]})
               for rid in top}
    asked = _stems(question)
    found = []
    for place, (rid, score) in enumerate(ranked[:DEPTH]):
        _, kind, label, _, section, title, text = rows[rid]
        heading = _stems(f"{title} {(section or '').rsplit(' > ', 1)[-1]}")
        found.append([
            score, lex.get(rid, lex_floor), sem.get(rid, sem_floor), cosines.get(rid, 0.0), 1 / (place + 1),
            float(rid in defining),
            float(sum(1 for other in top if parents[other] == rid or (other != rid and other.startswith(rid + "/")))
                  > 0),
            float(parents[rid] in top),
            float(len(re.findall(r"[.\-]\w", label or ""))),
            math.log1p(len(text.split())),
            len(asked & heading) / len(asked) if asked else 0.0,
            float(kind == "glossary"), float(kind in ("question", "clarification")), float(kind == "paragraph"),
        ])
    return found

