"""This project's hybrid search against plain FTS5 search through Datasette's own JSON API, side by side on
the dev questions: recall@1, recall@5, MRR (first correct ruling within the top 10) and latency.

    python benchmarks/compare.py [--db rulings.db] [--questions tests/dev_questions.jsonl]

Ours: `kb.search.ask` in process (hybrid, and fts mode for reference) and `rulings serve`'s /api/search over
HTTP. Datasette: `rulings browse` (Datasette 0.65 over the same database, its metadata naming rulings_fts as
the rulings table's fts_table), queried over HTTP on loopback:

- the *Search rulings* canned query (`/rulings/search.json?q=Q`): our hybrid ranking, through the project's
  Datasette plugin (`service/datasette_plugin.py`, `rulings_search(:q, :game)`).
- table API, `_search` as documented: `/rulings/rulings.json?_search=Q&_size=10&_shape=objects`. Datasette's
  own escaping quotes each word and FTS5 ANDs them, so a question in natural language would match nothing;
  the plugin's escaping ORs them. The table API filters by `rowid in (fts match)` and does not order by
  relevance: rows come in primary-key order.
- the same with `_searchmode=raw` and the question's words quoted and OR-ed (a fairer baseline; still not
  ranked by relevance).
- the SQL API (`/rulings.json?sql=...`): `rulings_fts match` the OR-ed words, `order by rank` (FTS5 BM25),
  the fairest plain full-text baseline Datasette can give.

Correctness is `kb.evaluate.is_correct` (the ruling's text or one of its examples contains an expected
phrase); for Datasette rows the examples are read with `kb.store.examples_of`, outside the timed request.
Latency is per question (one warm-up request first); HTTP figures include the round trip on loopback.
The database is read through a snapshot in a temporary folder; nothing is written to --db.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the packages, and the helpers in tests/support

from benchmarks.speed import snapshot
from kb.evaluate import is_correct, load_questions
from kb.search import ask
from kb.store import connect, examples_of
from support.load import percentile
from support.servers import free_port, running_server, start, stop

TOP = 10
_WORD = re.compile(r"\w+")
RANKED_SQL = ("select r.id, r.text from rulings_fts join rulings r on r.rowid = rulings_fts.rowid "
              "where rulings_fts match :q order by rank limit 10")


def or_query(question: str) -> str:
    """The question's words, each quoted, OR-ed: plain FTS5 syntax, no stopwords or stemming of our own."""
    return " OR ".join(f'"{w}"' for w in dict.fromkeys(_WORD.findall(question.lower())))


class Http:
    """One keep-alive connection to a loopback server; `get_json(path)` returns (milliseconds, decoded body)."""

    def __init__(self, port: int):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def get_json(self, path: str, query: dict) -> tuple[float, dict]:
        start = time.perf_counter()
        self.conn.request("GET", path + "?" + urllib.parse.urlencode(query))
        response = self.conn.getresponse()
        body = response.read()
        elapsed = (time.perf_counter() - start) * 1000
        if response.status != 200:
            raise RuntimeError(f"GET {path} {query} -> {response.status}: {body[:300]!r}")
        return elapsed, json.loads(body)

    def close(self) -> None:
        self.conn.close()


def score(search: Callable[[str], tuple[float, list[dict]]], questions: list[dict]) -> dict:
    """Recall@1, recall@5, MRR over the top 10, latency percentiles and empty answers of one search."""
    search(questions[0]["question"])  # warm-up, untimed
    ranks, times, empty = [], [], 0
    for item in questions:
        elapsed, results = search(item["question"])
        times.append(elapsed)
        empty += not results
        ranks.append(next((n for n, r in enumerate(results[:TOP], start=1) if is_correct(r, item["expect"])), None))
    n = len(questions)
    return {"n": n, "recall@1": sum(r == 1 for r in ranks) / n, "recall@5": sum(bool(r and r <= 5) for r in ranks) / n,
            "mrr": sum(1 / r for r in ranks if r) / n, "p50_ms": statistics.median(times),
            "p95_ms": percentile(times, 95), "empty": empty}


def in_process(conn, mode: str):
    def search(question: str) -> tuple[float, list[dict]]:
        start = time.perf_counter()
        answer = ask(conn, question, k=TOP, mode=mode)
        return (time.perf_counter() - start) * 1000, answer["results"]
    return search


def api_search(client: Http):
    def search(question: str) -> tuple[float, list[dict]]:
        elapsed, body = client.get_json("/api/search", {"q": question, "k": TOP})
        return elapsed, body["results"]
    return search


def with_examples(conn, rows: list[dict]) -> list[dict]:
    """Datasette rows (id, text) with their examples, as is_correct needs them."""
    examples = examples_of(conn, [r["id"] for r in rows])
    return [{"id": r["id"], "text": r["text"], "examples": examples[r["id"]]} for r in rows]


def datasette_table(client: Http, conn, raw: bool):
    def search(question: str) -> tuple[float, list[dict]]:
        query = {"_search": or_query(question) if raw else question, "_size": TOP, "_shape": "objects"}
        if raw:
            query["_searchmode"] = "raw"
        elapsed, body = client.get_json("/rulings/rulings.json", query)
        return elapsed, with_examples(conn, body["rows"])
    return search


def datasette_sql(client: Http, conn):
    def search(question: str) -> tuple[float, list[dict]]:
        elapsed, body = client.get_json("/rulings.json", {"sql": RANKED_SQL, "q": or_query(question),
                                                           "_shape": "objects"})
        return elapsed, with_examples(conn, body["rows"])
    return search


def datasette_canned(client: Http, conn):
    """The `search` canned query of `rulings browse`: our hybrid ranking through the project's plugin."""
    def search(question: str) -> tuple[float, list[dict]]:
        elapsed, body = client.get_json("/rulings/search.json", {"q": question, "game": "", "k": TOP, "_shape": "objects"})
        return elapsed, with_examples(conn, body["rows"][:TOP])
    return search


def start_datasette(db: Path) -> tuple[int, subprocess.Popen]:
    port = free_port()
    return port, start(["browse"], port, db)


ROWS = [
    ("hybrid", "ours: hybrid, `kb.search.ask` in process"),
    ("hybrid_http", "ours: hybrid, `/api/search` over HTTP"),
    ("fts", "ours: `--mode fts` in process (for reference)"),
    ("ds_canned", "`rulings browse`: the *Search rulings* canned query (our plugin's `rulings_search`)"),
    ("ds_plain", "Datasette table API `_search` (any word, through our plugin; unranked)"),
    ("ds_raw_or", "Datasette table API `_searchmode=raw`, words OR-ed (unranked)"),
    ("ds_sql_bm25", "Datasette SQL API, words OR-ed, `order by rank` (BM25)"),
]
DATASETTE = ("ds_canned", "ds_plain", "ds_raw_or", "ds_sql_bm25")


def ratio(ours: float, theirs: float) -> str:
    if theirs == 0:
        return "∞" if ours else "-"
    return f"{ours / theirs:.2f}×"


def markdown(figures: dict[str, dict], n: int) -> str:
    lines = [(f"Search on the {n} dev questions (`benchmarks/compare.py`; MRR counts the first correct ruling "
              f"in the top {TOP}; latency per question, warm):"), "",
             "| search | recall@1 | recall@5 | MRR | p50 ms | p95 ms | no result |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for key, label in ROWS:
        f = figures[key]
        lines.append(f"| {label} | {f['recall@1']:.3f} | {f['recall@5']:.3f} | {f['mrr']:.3f} | {f['p50_ms']:.1f} | "
                     f"{f['p95_ms']:.1f} | {f['empty']} |")
    lines += ["", ("Hybrid over HTTP (`/api/search`) against each Datasette search, as ratios (ours / Datasette: "
                   "for quality, above 1 means ours finds more; for latency, above 1 means ours is slower):"), "",
              "| against | recall@1 | recall@5 | MRR | p50 latency | p95 latency |", "|---|---:|---:|---:|---:|---:|"]
    ours = figures["hybrid_http"]
    for key, label in ROWS:
        if key in DATASETTE:
            f = figures[key]
            cells = [ratio(ours[m], f[m]) for m in ("recall@1", "recall@5", "mrr", "p50_ms", "p95_ms")]
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += ["", ("Datasette's own table search quotes each word and FTS5 then needs every word, so a question in "
              "natural language finds nothing; our plugin makes it match any word, but the table API returns "
              "matches in primary-key order, not by relevance (so does `_searchmode=raw`). A custom SQL query "
              "ordered by FTS5 `rank` gives a ranked plain full-text search, and the *Search rulings* canned query "
              "gives the web app's own ranking inside Datasette. Datasette's table requests also count the matches "
              "and compute the table's configured facets.")]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, default=ROOT / "rulings.db", help="read only: a snapshot is used")
    parser.add_argument("--questions", type=Path, default=ROOT / "tests" / "dev_questions.jsonl")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    questions = load_questions(args.questions)
    figures: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="rulings-compare-") as temp:
        db = snapshot(args.db, Path(temp) / "rulings.db")
        conn = connect(db)
        figures["hybrid"] = score(in_process(conn, "hybrid"), questions)
        figures["fts"] = score(in_process(conn, "fts"), questions)
        with running_server(db) as (port, _server):
            client = Http(port)
            figures["hybrid_http"] = score(api_search(client), questions)
            client.close()
        port, datasette = start_datasette(db)
        try:
            client = Http(port)
            figures["ds_canned"] = score(datasette_canned(client, conn), questions)
            figures["ds_plain"] = score(datasette_table(client, conn, raw=False), questions)
            figures["ds_raw_or"] = score(datasette_table(client, conn, raw=True), questions)
            figures["ds_sql_bm25"] = score(datasette_sql(client, conn), questions)
            client.close()
        finally:
            stop(datasette)
        conn.close()
    print("<!-- compare -->")
    print(markdown(figures, len(questions)))
    print("<!-- /compare -->")
    print(json.dumps({key: {k: round(v, 4) if isinstance(v, float) else v for k, v in f.items()}
                      for key, f in figures.items()}))


if __name__ == "__main__":
    main()
