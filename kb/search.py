"""Answering questions with rulings: the steps of a search, in order.

A question that is a ruling ref, id or label goes straight to that ruling (`kb.query`). Any other goes
through STEPS, named functions applied in turn to the `Search` they refine: the game the question names
is recognised, full text and meaning each rank candidates (`kb.retrieval`), the two rankings are fused
(`kb.fusion`) and tilted towards the game whose vocabulary the question speaks and the rules defining the
glossary terms it uses; a rule comes before its reprint and, of rulings that answer alike, the official
source's first (`kb.rulings`); and the outcome is decided: an answer, the closest rulings to check, or not
covered (`kb.answered`), a question about a game the library does not hold never answered (`kb.unheld`). A step
can be added, dropped or measured alone: `ask(..., steps=...)`. The answer is laid out once, as every surface
shows it (`kb.rulings.as_shown`): the web page, the API, `rulings ask` and Datasette's search render it as it is.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from kb import asof
from kb.answered import ANSWER, CLOSEST, NOT_COVERED, OUTCOMES, Evidence, confidence, is_answered, outcome, said
from kb.cache import reading
from kb.fusion import LEXICAL_WEIGHT, combine, prefer_game, prefer_rulings
from kb.gaps import matching_gaps
from kb.lexicon import Lexicon, load_lexicon
from kb.lookup import lookup
from kb.onnx_embedder import question_vector
from kb.query import (
    content_terms,
    coverage,
    direct_hit,
    fts_query,
    glossary_rulings,
    named_game,
    term_games,
    unused,
    vocabulary_game,
    without_game_name,
)
from kb.retrieval import dense_ranking, fts_ranking
from kb.rulings import as_shown, official_first, originals_first, results
from kb.unheld import unheld_game

MAX_K = 50
DEFAULT_K = 5  # how many rulings an answer shows unless asked for more, on every surface
MODES = ("hybrid", "fts", "dense")
CANDIDATES = 50
CANDIDATES_FOR_GAPS = 10


@dataclass
class Search:
    """A question on its way through the steps: what they read, and what each leaves for the next."""
    conn: sqlite3.Connection
    question: str
    lexicon: Lexicon
    game: str | None       # the game searched: given, or named by the question
    mode: str              # one of MODES
    weight: float          # the full-text share of the fusion (benchmarks vary it to choose it)
    searched: str = ""     # the question without the game's name
    lexical: list[tuple[str, float]] = field(default_factory=list)   # (ruling id, BM25) best first
    semantic: list[tuple[str, float]] = field(default_factory=list)  # (ruling id, cosine) best first
    ranked: list[tuple[str, float]] = field(default_factory=list)    # the ranking so far, best first
    cosines: dict[str, float] = field(default_factory=dict)          # each candidate's (none in fts mode)
    usage: dict[str, dict[str, int]] = field(default_factory=dict)   # `kb.query.term_games` of its words
    in_force: frozenset[str] | None = None  # the rulings in force on the date asked about (None: the current)
    preferred: str | None = None       # the game whose vocabulary the question speaks, when it names none
    evidence: Evidence | None = None   # what the outcome's decision weighed (hybrid mode)
    confidence: float | None = None    # the answer model's probability (hybrid mode)
    gaps: list[dict] = field(default_factory=list)  # recorded gaps of the sources searched that the question names
    unheld: str | None = None          # a game the question names that the library does not hold (`kb.unheld`)
    outcome: str = NOT_COVERED         # one of kb.answered.OUTCOMES


def recognise_game(search: Search) -> None:
    """The game the question names, when none is given, and the question without that name."""
    search.game = search.game or named_game(search.question, search.lexicon.games)
    search.searched = without_game_name(search.question, search.lexicon.games, search.game) or search.question


def retrieve(search: Search) -> None:
    """The candidates by full text and by meaning, as the mode needs them."""
    if search.mode not in MODES:
        raise ValueError(f"unknown search mode {search.mode!r}; one of {', '.join(MODES)}")
    if search.mode != "dense":
        search.lexical = fts_ranking(search.conn, fts_query(search.searched, search.lexicon.acronyms),
                                     search.game, CANDIDATES)
    if search.mode != "fts":
        search.semantic = dense_ranking(search.conn, question_vector(search.searched), search.game, CANDIDATES)


def fuse(search: Search) -> None:
    """One ranking: the two fused in hybrid mode, else the mode's own; each candidate's cosine kept."""
    if search.mode == "hybrid":
        search.ranked = combine(search.lexical, search.semantic, search.weight)
    else:
        search.ranked = search.lexical if search.mode == "fts" else search.semantic
    search.cosines = dict(search.semantic)


def prefer_vocabulary_game(search: Search) -> None:
    """When the question names no game, the rulings of the game whose vocabulary it speaks raised."""
    search.usage = term_games(search.conn, content_terms(search.searched))
    search.preferred = None if search.game else vocabulary_game(search.usage)
    if search.preferred:
        search.ranked = prefer_game(search.ranked, search.preferred)


def prefer_glossary_rulings(search: Search) -> None:
    """The rules that define a glossary term the question uses raised (hybrid mode: the boost is in standard
    deviations, and only fused scores are on that scale)."""
    if search.mode == "hybrid":
        search.ranked = prefer_rulings(search.ranked, glossary_rulings(search.searched, search.lexicon.terms,
                                                                       search.game or search.preferred))


def prefer_originals(search: Search) -> None:
    """A rule before an update summary's reprint of it (`kb.rulings.originals_first`)."""
    search.ranked = originals_first(search.conn, search.ranked)


def prefer_official(search: Search) -> None:
    """Of rulings that answer alike, the more authoritative source's first (`kb.rulings.official_first`)."""
    search.ranked = official_first(search.conn, search.ranked)


def decide_outcome(search: Search) -> None:
    """What the search may claim (`kb.answered`): the fitted models on the hybrid ranking's evidence and the
    recorded gaps the question names; the comparison modes, which have no fused scores to weigh, an answer by
    their simple rule, else not covered only where a gap says so."""
    games = [search.game or search.preferred] if search.game or search.preferred else \
        list(dict.fromkeys(rid.split("/")[0] for rid, _ in search.ranked[:CANDIDATES_FOR_GAPS]))
    search.gaps = matching_gaps(search.conn, search.question, games)
    if search.mode == "hybrid":
        search.evidence = evidence(search.conn, search.ranked, search.cosines, search.usage, search.game
                                   or search.preferred)
        search.confidence = round(confidence(search.evidence), 3) if search.evidence else 0.0
        search.outcome = outcome(search.evidence, len(search.gaps))
    elif is_answered(search.ranked, max(search.cosines.values(), default=None), search.usage):
        search.outcome = ANSWER
    else:
        search.outcome = NOT_COVERED if search.gaps or not search.ranked else CLOSEST
    search.unheld = unheld_game(search.conn, search.question, search.lexicon.games)
    # The rulings found are another game's: never an answer, and not covered unless a game was chosen (a question
    # naming no game the library holds recognises none, so `game` is the one chosen).
    if search.unheld:
        search.outcome = max(search.outcome, CLOSEST, key=OUTCOMES.index) if search.game else NOT_COVERED


def keep_in_force(search: Search) -> None:
    """Of the candidates, those in force on the date asked about: stored passage vectors and the lexicon are the
    current editions', which may name rulings added since or leave out ones removed since."""
    if search.in_force is not None:
        search.semantic = [pair for pair in search.semantic if pair[0] in search.in_force]
        search.ranked = [pair for pair in search.ranked if pair[0] in search.in_force]


Step = Callable[[Search], None]
STEPS: tuple[Step, ...] = (recognise_game, retrieve, keep_in_force, fuse, prefer_vocabulary_game,
                           prefer_glossary_rulings, prefer_originals, prefer_official, keep_in_force,
                           decide_outcome)


def evidence(conn: sqlite3.Connection, ranked: list[tuple[str, float]], cosines: dict[str, float],
             usage: dict[str, dict[str, int]], game: str | None = None) -> Evidence | None:
    """What a fused ranking says for its first ruling and for the question's subject being in `game` (the game
    searched, else the first ruling's) at all (`kb.answered.Evidence`); None when it found nothing."""
    if not ranked:
        return None
    first, lead = ranked[0]
    return Evidence(lead=lead, margin=lead - ranked[1][1] if len(ranked) > 1 else lead,
                    cosine=cosines.get(first, min(cosines.values(), default=0.0)),
                    coverage=coverage(conn, first, usage),
                    unknown=unused(conn, usage, game or first.split("/")[0]),
                    nearest=max(cosines.values(), default=0.0))


def ask(conn: sqlite3.Connection, question: str, game: str | None = None, k: int = DEFAULT_K,
        mode: str = "hybrid", weight: float = LEXICAL_WEIGHT, explain: bool = False,
        steps: tuple[Step, ...] = STEPS, as_of: str | None = None) -> dict:
    """The answer to a question, the one object every reader shows as it is (the web page, the API, `rulings ask`,
    Datasette's search): `{"query", "outcome", "answered", "confidence", "said", "game", "unheld", "results",
    "groups", "gaps"}`. A question that is a ruling's ref, id or label, or a rule's or heading's number in any of
    its spellings ("rule 4.3.3", "CR 10.15"; `kb.lookup`), goes straight to it (a heading: to its rulings, said
    in `lookup`).

    `game` restricts the search; without it, a game the question names does, and a game whose vocabulary
    the question speaks is preferred. `game` in the answer is the game searched or recognised (or None).
    `outcome` is what the evidence backs (`kb.answered`): "answer" (the first ruling settles the question),
    "closest" (the rulings to check, with no claim either way) or "not-covered" (the evidence says the documents
    don't speak of it); `answered` is outcome == "answer"; `said` is the outcome's claim in words
    (`kb.answered.said`; None for an answer). `unheld` is the name of a game the question names that the library
    does not hold (`kb.unheld`), else None. `results` are the rulings in the order shown, the first the one found
    first and decided on; `groups` gathers them by rule family (`kb.rulings.as_shown`: `{"family", "heading",
    "best", "ids"}`, a family's best member first). `gaps` are the recorded gaps of the sources searched that the
    question names (`kb.gaps.matching_gaps`), empty for an answer. `confidence` is the answer model's probability
    (hybrid mode; 1 for a ruling asked by its ref). `explain` adds `evidence`, what the decision weighed. A
    question asking what changed about a subject adds `changes` (`what_changed`).
    `steps` are applied in turn to the `Search` (STEPS; benchmarks add, drop or time one). With `as_of`
    (YYYY-MM-DD), every source answers from its edition in force on that date (`kb.asof`; BadDate for
    another form).
    """
    k = max(1, min(k, MAX_K))
    with reading(conn):  # one version of the database throughout (and no write commits meanwhile)
        if not as_of:
            return _answer(conn, question, game, k, mode, weight, explain, steps, None)
        dated, in_force = asof.connection(conn.execute("pragma database_list").fetchone()[2], as_of)
        try:
            # Only an answer about a date says which: one about the current rules is as it always was.
            return {**_answer(dated, question, game, k, mode, weight, explain, steps, in_force), "as_of": as_of}
        finally:
            dated.close()


def what_changed(conn: sqlite3.Connection, question: str, game: str | None) -> dict:
    """`{"changes": [...]}` for a question asking what changed about a subject ("What changed about X?", "Is X
    new?": `kb.changes`), its rulings' changes between editions with their earlier and current texts; else {}."""
    from kb.changes import changes_about, subject  # it searches for the subject with `ask`
    return {"changes": changes_about(conn, question, game, ask)["changes"]} if subject(question) else {}


def _answer(conn: sqlite3.Connection, question: str, game: str | None, k: int, mode: str, weight: float,
            explain: bool, steps: tuple[Step, ...], in_force: frozenset[str] | None) -> dict:
    """`ask` on a connection that reads the rulings to answer from (`in_force`: their ids where they are not
    the current ones)."""
    lexicon = load_lexicon(conn)
    hit = direct_hit(question, lexicon) if in_force is None else asof.ref_hit(conn, question)
    if hit and (game is None or hit.split("/")[0] == game):
        return _answered(conn, question, hit.split("/")[0], [(hit, 1.0)])
    named = lookup(conn, question, game)
    if named:  # a rule's or heading's number: the rule, or the heading's rules
        return {**_answered(conn, question, named["ids"][0].split("/")[0], [(rid, 1.0) for rid in named["ids"][:k]]),
                "lookup": {key: value for key, value in named.items() if key != "ids"}}
    search = Search(conn, question, lexicon, game, mode, weight, in_force=in_force)
    for step in steps:
        step(search)
    answer = {"query": question, "outcome": search.outcome, "answered": search.outcome == ANSWER,
              "confidence": search.confidence, "said": said(search.outcome, len(search.gaps), search.unheld),
              "game": search.game or search.preferred, "unheld": search.unheld,
              **as_shown(conn, results(conn, search.ranked[:k])),
              "gaps": [] if search.outcome == ANSWER else search.gaps}
    if in_force is None:
        answer.update(what_changed(conn, question, game))
    found = search.evidence
    return {**answer, "evidence": asdict(found) if found else None} if explain else answer


def _answered(conn: sqlite3.Connection, question: str, game: str, ranked: list[tuple[str, float]]) -> dict:
    """The answer to a question that names its rulings (a ref, an id, a rule's or heading's number): them."""
    return {"query": question, "outcome": ANSWER, "answered": True, "confidence": 1.0, "said": None, "game": game,
            "unheld": None, **as_shown(conn, results(conn, ranked)), "gaps": []}
