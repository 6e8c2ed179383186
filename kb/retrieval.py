"""The two retrievers: full-text (FTS5 BM25) and dense (cosine over the stored passage vectors).

BM25 finds the ruling that uses the question's own words; the dense ranking finds the one that means the
same thing in other words ("the bigger cure spell" → Cure Heavy Wounds). Each returns (ruling id, score)
pairs, best first; `kb.fusion` combines them.
"""
from __future__ import annotations

import re
import sqlite3
import threading
from dataclasses import dataclass, field

from kb.cache import per_database_version, reading

# Kinds of ruling that never answer a question: a document's title, version, date and credit lines, and a
# glossary entry that only sends the reader elsewhere ("Bleed: see Conditions"), whose term leads to its target.
UNANSWERABLE = "'title', 'redirect'"
# BM25 as every full-text ranking computes it: title and section weigh double the text and the examples.
BM25 = "bm25(rulings_fts, 2.0, 2.0, 1.0, 1.0)"
# A query as kb.query.fts_query writes it: quoted words, OR-ed.
PHRASES = re.compile(r'"[^"]+"(?: OR "[^"]+")*')
# The phrases' matches kept per version of the file, at most this many (16 bytes each); past it the phrases used
# least recently are dropped (and read again from FTS5 when a question uses them).
POSTINGS_MEMO = 20_000_000
# From this many passages a question naming no game scans int8 copies of the vectors and scores its candidates,
# the best COMPACT_CANDIDATES × limit passages by the copies, in float32 (benchmarks/ann.py: the float32 scan is
# faster at 5,000 passages, slower from 10,000; docs/performance.md).
COMPACT_FROM = 10_000
COMPACT_CANDIDATES = 4


@dataclass(frozen=True)
class Passages:
    """Every embedded passage in memory: its ruling, its game and its vector (row i of each)."""
    rulings: list[str]
    games: dict[str, slice]  # game → its passages' rows (stored game by game, so a view, not a copy)
    vectors: object          # numpy float32 matrix, one normalised row per passage


@per_database_version
def passages(conn: sqlite3.Connection) -> Passages:
    """The passages of this connection's database, loaded once per version of the file.

    Also keeps this process's OpenBLAS to one thread: a question's scores are one matrix-vector product,
    which a second thread slows from 0.4 ms to 12 ms (median, two busy cores) by waking and syncing."""
    import numpy as np
    from threadpoolctl import threadpool_limits

    threadpool_limits(1, user_api="blas")

    joined = f"from embeddings e join rulings r on r.id = e.ruling_id where r.kind not in ({UNANSWERABLE})"
    rulings: list[str] = []
    games: dict[str, slice] = {}
    with reading(conn):  # the count and the rows of one version
        count, width = conn.execute(f"select count(*), max(length(e.vector)) {joined}").fetchone()
        if not count:
            return Passages([], {}, np.zeros((0, 0), dtype=np.float32))
        # Read into the matrix a few thousand rows at a time: every row's blob read, then all joined, held the
        # vectors three times over for a moment (a 5.0 GB peak for 1.9 GB of vectors at a hundred copies).
        vectors = np.empty((count, width // 4), dtype=np.float32)
        cursor = conn.execute(f"select e.ruling_id, r.game, e.vector {joined} order by r.game, e.id")
        while chunk := cursor.fetchmany(4096):
            start = len(rulings)
            vectors[start:start + len(chunk)] = np.frombuffer(b"".join(row[2] for row in chunk),
                                                               dtype=np.float32).reshape(len(chunk), -1)
            for index, (ruling, game, _) in enumerate(chunk, start):
                rulings.append(ruling)
                games[game] = slice(games[game].start if game in games else index, index + 1)
    vectors.flags.writeable = False  # shared by every question, as the read-only buffer it was read into before
    return Passages(rulings, games, vectors)


def _in_force(conn: sqlite3.Connection, data: Passages) -> Passages:
    """The passages as of the date a kb.asof connection reads: each swapped source's current passages replaced
    by its edition's own (`asof_vectors`); `data` unchanged on any other connection."""
    import numpy as np

    if not conn.execute("select 1 from sqlite_temp_master where name = 'asof_vectors'").fetchone():
        return data
    gone = {row[0] for row in conn.execute("select id from main.rulings where source in "
                                           "(select source from temp.asof_sources)")}
    games = {row[0]: row[1] for row in conn.execute(f"select id, game from rulings where kind not in ({UNANSWERABLE})")}
    kept = [(data.rulings[i], game, data.vectors[i]) for game, rows in data.games.items()
            for i in range(rows.start, rows.stop) if data.rulings[i] not in gone]
    kept += [(rid, games[rid], np.frombuffer(vector, dtype=np.float32))
             for rid, vector in conn.execute("select ruling_id, vector from temp.asof_vectors") if rid in games]
    if not kept:
        return Passages([], {}, np.zeros((0, 0), dtype=np.float32))
    kept.sort(key=lambda row: row[1])
    spans: dict[str, slice] = {}
    for index, (_, game, _) in enumerate(kept):
        spans[game] = slice(spans[game].start if game in spans else index, index + 1)
    return Passages([row[0] for row in kept], spans, np.vstack([row[2] for row in kept]))


@per_database_version
def game_runs(conn: sqlite3.Connection) -> dict[str, list[tuple[int, int]]]:
    """Game → the runs of consecutive rowids its rulings take in `rulings` (and so in `rulings_fts`), first to
    last: one per batch of its sources added together, whatever lies between them."""
    found: dict[str, list[tuple[int, int]]] = {}
    for game, first, last in conn.execute(
            "select game, min(rowid), max(rowid) from (select rowid, game, sum(switch) over (order by rowid) as run "
            "from (select rowid, game, game is not lag(game) over (order by rowid) as switch from rulings)) "
            "group by run order by run"):
        found.setdefault(game, []).append((first, last))
    return found


@dataclass
class Postings:
    """What a question naming no game is ranked from: each phrase's matches and their BM25, filled as questions
    use phrases (a phrase's matches only change with the file), and the rulings that never answer."""
    last: int             # the highest rowid of `rulings`
    unanswerable: object  # numpy int64 array: the rowids of the kinds in UNANSWERABLE
    # phrase → (its matches' rowids, each one's BM25 for it alone), the phrase used least recently first
    phrases: dict = field(default_factory=dict)
    held: int = 0         # how many matches `phrases` holds
    dropped: int = 0      # how many phrases were dropped to keep `held` within POSTINGS_MEMO
    lock: object = field(default_factory=threading.Lock)  # the server's threads share one Postings


@per_database_version
def postings(conn: sqlite3.Connection) -> Postings:
    """This version of the file's `Postings`, its phrases not read yet."""
    import numpy as np

    last = conn.execute("select coalesce(max(rowid), 0) from rulings").fetchone()[0]
    rows = conn.execute(f"select rowid from rulings where kind is null or kind in ({UNANSWERABLE})").fetchall()
    return Postings(last, np.array([row[0] for row in rows], dtype=np.int64))


def _phrase(conn: sqlite3.Connection, held: Postings, phrase: str):
    """(rowids ascending, BM25 of the phrase alone) of every ruling matching `phrase`, read once per version of
    the file."""
    import numpy as np

    with held.lock:
        found = held.phrases.pop(phrase, None)
        if found is not None:
            held.phrases[phrase] = found  # the most recently used, last
            return found
    rows = conn.execute(f"select rowid, {BM25} from rulings_fts where rulings_fts match ? order by rowid",
                        [phrase]).fetchall()
    found = (np.array([row[0] for row in rows], dtype=np.int64), -np.array([row[1] for row in rows], dtype=np.float64))
    with held.lock:
        if phrase not in held.phrases:  # else another thread read it meanwhile
            while held.phrases and held.held + len(rows) > POSTINGS_MEMO:
                held.held -= len(held.phrases.pop(next(iter(held.phrases)))[0])
                held.dropped += 1
            held.phrases[phrase] = found
            held.held += len(rows)
    return found


def phrases_matched(conn: sqlite3.Connection, phrases: list[str], ruling_id: str) -> list[bool]:
    """Whether the ruling `ruling_id` matches each FTS5 phrase of `phrases` (a quoted word, as `kb.query.fts_query`
    writes them): a bisection of each phrase's kept matches (`Postings`), which a question's ranking has read,
    rather than an FTS5 seek each; FTS5's own answer on a kb.asof connection (its own full-text index)."""
    import numpy as np

    if conn.execute("select 1 from sqlite_temp_master where name = 'rulings_fts'").fetchone():
        sql = ("select count(*) from rulings_fts where rulings_fts match ? and rowid = "
               "(select rowid from rulings where id = ?)")
        return [bool(conn.execute(sql, [phrase, ruling_id]).fetchone()[0]) for phrase in phrases]
    row = conn.execute("select rowid from rulings where id = ?", [ruling_id]).fetchone()
    held = postings(conn)
    found = []
    for phrase in phrases:
        rows = _phrase(conn, held, phrase)[0]
        at = np.searchsorted(rows, row[0]) if row else len(rows)
        found.append(bool(at < len(rows) and rows[at] == row[0]))
    return found


def _kept_ranking(conn: sqlite3.Connection, phrases: list[str], runs: list[tuple[int, int]] | None,
                  limit: int) -> list[tuple[str, float]]:
    """The full-text ranking of the rulings in `runs` of rowids (first, last; None: every ruling), from each
    phrase's kept matches (`Postings`) instead of FTS5.

    FTS5's `bm25()` is a sum over the query's phrases, in their order, of each phrase's own term (0 where it is
    absent), that term being what the phrase alone scores over the whole index, whatever rows are asked for:
    adding the kept terms in the same order gives the same doubles, bit for bit, at a fraction of the cost of
    FTS5 scoring every match. A game's runs are slices of each phrase's matches (found by bisection), so its
    question costs its own matches, not the library's."""
    import numpy as np

    held = postings(conn)
    kept_rows, kept_scores = [], []
    for first, last in runs or [(0, held.last)]:
        scores = np.zeros(last - first + 1)
        for phrase in phrases:
            rows, terms = _phrase(conn, held, phrase)
            start, stop = np.searchsorted(rows, (first, last + 1))
            scores[rows[start:stop] - first] += terms[start:stop]
        start, stop = np.searchsorted(held.unanswerable, (first, last + 1))
        scores[held.unanswerable[start:stop] - first] = 0.0
        hits = np.flatnonzero(scores != 0)  # a mask first: numpy finds a float array's nonzeros more slowly
        kept_rows.append(hits + first)
        kept_scores.append(scores[hits])
    hits, scores = np.concatenate(kept_rows), np.concatenate(kept_scores)
    if len(hits) > limit:  # the `limit` best, and any tying the last of them
        best = scores >= np.partition(scores, len(hits) - limit)[len(hits) - limit]
        hits, scores = hits[best], scores[best]
    order = np.lexsort((hits, -scores))[:limit]  # ties to the ruling stored first
    hits, scores = hits[order].tolist(), scores[order].tolist()
    ids = dict(conn.execute(f"select rowid, id from rulings where rowid in ({', '.join('?' * len(hits))})", hits))
    return [(ids[rowid], score) for rowid, score in zip(hits, scores)]


def fts_ranking(conn: sqlite3.Connection, query: str, game: str | None, limit: int) -> list[tuple[str, float]]:
    """(ruling id, BM25 score) best first for an FTS5 `query` (see `kb.query.fts_query`); title and section
    weigh double the text and the examples. Ties go to the ruling stored first.

    A query as `kb.query.fts_query` writes it is ranked from its phrases' matches kept in memory
    (`_kept_ranking`): a game's question reads the slices of them in the game's runs of rowids (`game_runs`), a
    question naming no game all of them. Any other query is ranked by FTS5, a game's by seeking each of its runs.
    The scores are the same either way (docs/search.md, "Full text at scale")."""
    if not query:
        return []
    sql = (f"select r.id, {BM25} as rank, rulings_fts.rowid from rulings_fts "
           "join rulings r on r.rowid = rulings_fts.rowid where rulings_fts match ? "
           f"and r.kind not in ({UNANSWERABLE}) ")
    # A kb.asof connection's rulings are temp tables with rowids of their own: filtered by game, as they are few.
    temp = conn.execute("select 1 from sqlite_temp_master where name = 'rulings'").fetchone()
    if game is None or temp:
        if not temp and PHRASES.fullmatch(query):
            return _kept_ranking(conn, query.split(" OR "), None, limit)
        sql, params = sql + ("and r.game = ? " if game else "") + "order by rank limit ?", [query, game, limit]
        return [(r[0], -r[1]) for r in conn.execute(sql, params if game else [query, limit])]
    runs = game_runs(conn).get(game, [])
    if runs and PHRASES.fullmatch(query):
        return _kept_ranking(conn, query.split(" OR "), runs, limit)
    found = []
    for first, last in runs:
        found += conn.execute(sql + "and rulings_fts.rowid between ? and ? order by rank limit ?",
                              [query, first, last, limit]).fetchall()
    found.sort(key=lambda row: (row[1], row[2]))
    return [(r[0], -r[1]) for r in found[:limit]]


def dense_ranking(conn: sqlite3.Connection, vector, game: str | None, limit: int) -> list[tuple[str, float]]:
    """(ruling id, best cosine over its passages) best first, for a question's normalised `vector`; passages of
    equal cosine in the order they are stored."""
    data = _in_force(conn, passages(conn))
    rows = data.games.get(game) if game else slice(0, len(data.rulings))
    if rows is None or not len(data.rulings):
        return []
    if game is None and len(data.rulings) >= COMPACT_FROM and data is passages(conn):
        return _compact_ranking(data, compact(conn), vector, limit)
    return _exact_ranking(data, rows, vector, limit)


def _exact_ranking(data: Passages, rows: slice, vector, limit: int) -> list[tuple[str, float]]:
    """The float32 scan of passages `rows`: `dense_ranking`'s answer, every passage scored."""
    import numpy as np

    scores = data.vectors[rows] @ vector
    # The best passages first, a few at a time: a ruling with several passages takes several rows, so
    # fetch more until `limit` rulings are found or the passages run out (a full sort costs milliseconds
    # on a big rulebook). Every passage tied with the last one fetched is fetched too.
    wanted = limit
    while True:
        if wanted < len(scores):
            top = np.flatnonzero(scores >= np.partition(scores, len(scores) - wanted)[len(scores) - wanted])
        else:
            top = np.arange(len(scores))
        best, complete = _best_rulings(data, top + rows.start, scores[top], limit)
        if complete or len(top) == len(scores):
            return best
        wanted *= 2


def _best_rulings(data: Passages, rows, scores, limit: int) -> tuple[list[tuple[str, float]], bool]:
    """The first `limit` rulings of passages `rows` (scored `scores`) by cosine, then row; and whether `limit`
    were found. The row breaks ties so that any scan holding the same best passages ranks them alike."""
    import numpy as np

    best: dict[str, float] = {}
    for index in np.lexsort((rows, -scores)):
        best.setdefault(data.rulings[rows[index]], float(scores[index]))
        if len(best) >= limit:
            return list(best.items()), True
    return list(best.items()), False


@dataclass(frozen=True)
class Compact:
    """The passages' vectors in int8, a quarter of float32's bytes: row i is `codes[i] * scales[i]`, off the
    float32 vector by at most `errors[i]` (Euclidean), `largest` the largest of them. The codes are kept only as
    numkong packs them for its product (`packed`), which it scans faster than the plain matrix."""
    packed: object
    scales: object
    errors: object
    largest: float

    @classmethod
    def of(cls, vectors) -> Compact:
        """The int8 copy of a float32 matrix, each row scaled to its largest component."""
        import numkong
        import numpy as np

        scales = np.maximum(np.abs(vectors).max(axis=1) / 127, np.finfo(np.float32).tiny).astype(np.float32)
        codes = np.empty(vectors.shape, dtype=np.int8)
        errors = np.empty(len(vectors), dtype=np.float32)
        # A few thousand rows at a time: the whole matrix's float32 temporaries would triple the vectors' memory.
        for start in range(0, len(vectors), 4096):
            part = slice(start, start + 4096)
            codes[part] = np.rint(vectors[part] / scales[part, None])
            errors[part] = np.linalg.norm(vectors[part] - codes[part] * scales[part, None], axis=1)
        return cls(numkong.dots_pack(codes), scales, errors, float(errors.max(initial=0.0)))

    def dots(self, code):
        """The integer dot products of an int8 `code` with every row's codes (int32: exact)."""
        import numkong
        import numpy as np

        return np.asarray(numkong.dots_packed(code[None], self.packed))[0]


@per_database_version
def compact(conn: sqlite3.Connection) -> Compact:
    """The int8 copy of this connection's passages (`passages`), made once per version of the file."""
    return Compact.of(passages(conn).vectors)


def quantised(vector) -> tuple[object, float, float]:
    """A question's `vector` in int8 as `Compact` holds passages: (its codes, their scale, its error)."""
    import numpy as np

    scale = float(np.abs(vector).max()) / 127 or 1.0  # a zero vector: any scale
    code = np.rint(vector / scale).astype(np.int8)
    return code, scale, float(np.linalg.norm(vector - code * scale))


def _compact_ranking(data: Passages, pack: Compact, vector, limit: int) -> list[tuple[str, float]]:
    """What the exact scan ranks, from the int8 copy: the scan finds the candidates, their float32 vectors
    score them. Every approximate cosine is within its bound of the exact one, so every passage that could
    reach the exact ranking's last cosine is scored exactly: the ranking is the exact scan's, by construction."""
    import numpy as np

    code, scale, off = quantised(vector)
    dots = pack.dots(code)
    # The approximate cosines over the question's scale, in float32 (the dots, below 2^24, are exact in it): they
    # only order the first candidates and bound which rows the exact filter below need look at.
    keys = np.multiply(dots, pack.scales, dtype=np.float32)
    wanted = COMPACT_CANDIDATES * limit
    while True:
        top = np.argpartition(keys, len(keys) - wanted)[len(keys) - wanted:] if wanted < len(keys) \
            else np.arange(len(keys))
        best, complete = _best_rulings(data, top, _exact(data.vectors, top, vector), limit)
        if complete or len(top) == len(keys):
            break
        wanted *= 2
    if not complete:
        return best
    # The last cosine taken from these candidates is at most the exact ranking's; rounding allowed for. Integer dot
    # products, exact in float64; |q·v − q'·v'| ≤ |q·(v − v')| + |(q − q')·v'| ≤ e_v + e_q·(1 + e_v). Only rows
    # within the largest bound can pass (1e-6 more: a float32 key is off by 1.2e-7 of the cosine at most).
    floor = best[-1][1] - 1e-5
    near = np.flatnonzero(keys >= (floor - off - pack.largest * (1 + off) - 1e-6) / scale)
    approx = dots[near] * (pack.scales[near] * scale) + (pack.errors[near] + off * (1 + pack.errors[near]))
    rows = near[approx >= floor]
    return _best_rulings(data, rows, _exact(data.vectors, rows, vector), limit)[0]


def _exact(vectors, rows, vector):
    """The float32 cosines of `rows`, to the last bit as the whole scan (`vectors @ vector`) has them: OpenBLAS
    scores rows four at a time, and a row scored in another grouping can round differently."""
    import numpy as np

    whole = len(vectors) // 4 * 4  # past it, the last group of fewer than four, scored as one
    starts = np.unique(rows // 4 * 4)
    grouped = (starts[starts < whole][:, None] + np.arange(4)).ravel()
    rest = np.arange(whole, len(vectors)) if starts[-1] >= whole else np.arange(0)
    scored = np.concatenate([grouped, rest])
    scores = np.concatenate([vectors[grouped] @ vector, vectors[rest] @ vector])
    return scores[np.searchsorted(scored, rows)]
