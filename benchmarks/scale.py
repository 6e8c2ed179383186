"""How search and writes cost as a library grows: a real multi-game library copied N times by SQL (every game,
source, ruling and id renamed; the vectors copied, nothing re-embedded), then, on each copy, search p50/p95 per
mode with and without the game given, whether the full-text rankings equal the reference ranking (today's query,
tests/support/fts_reference.py; each timed alone too), add and remove times of a ~200-ruling document, the searching process's peak
memory and the file's size.

    python benchmarks/scale.py [--library build/training/questions-vectors.db] [--factors 1,10] [--keep build/scale]

--library is `python -m training.questions library --vectors`'s (copied from /work/main/build when this clone has
none). The questions: every set of ../shared/eval and the off-topic set, each asked once to warm up, then timed
twice: asked again (its vector kept) and as a new question (its vector embedded again); with the game given, the
answerable ones with the game their set names (a copy's questions are asked of the original games: the copies
only add rulings). Each library is measured in its own process, so its peak
memory (VmHWM) is its own. A copy is built once into --keep and reused.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

QUESTION_SETS = [*sorted((ROOT.parent / "shared" / "eval").glob("*.jsonl")), ROOT / "tests" / "offtopic_questions.jsonl"]
LIBRARY = ROOT / "build" / "training" / "questions-vectors.db"
SHARED_LIBRARY = Path("/work/main/build/training/questions-vectors.db")
DOCUMENT = ROOT / "documents" / "bwf-laws-of-badminton-2019.md"  # 213 numbered laws: a ~200-ruling document
DOCUMENT_GAME = "badminton"

# The columns of each table that hold a game slug, a source id or an id under a game ("dragon-dice/magic/…"),
# renamed in each copy; integer keys are left to SQLite, derived tables (lexicon, full text) rebuilt.
RENAMED = {
    "games": ("slug",), "sources": ("id", "game"), "rulings": ("id", "game", "source", "parent"),
    "examples": ("id", "ruling_id"), "unexecutable": ("ruling_id",), "verifications": ("test_id", "ruling_id"),
    "xrefs": ("from_id", "to_id"), "gaps": ("source",), "rule_tables": ("id", "source", "ruling_id"),
    "rule_table_rows": ("table_id",), "spells": ("id", "ruling_id", "game"), "embeddings": ("ruling_id",),
    "edition_embeddings": ("source", "ruling_id"), "source_versions": ("source",),
    "ruling_history": ("ruling_id", "source"), "originals": ("source",), "ruling_redirects": ("old_id", "new_id"),
}
FRESH_KEYS = {"xrefs": "id", "gaps": "id", "embeddings": "id", "edition_embeddings": "id"}


def scale_library(library: Path, factor: int, out: Path) -> Path:
    """`library` with `factor` − 1 renamed copies of every game added (none for 1), at `out`, its full-text index and
    lexicon derived."""
    import sqlite_utils

    from kb.lexicon import write_lexicon
    from kb.writer import FTS_TRIGGERS

    temp = out.with_suffix(".partial")
    shutil.copyfile(library, temp)
    conn = sqlite3.connect(temp)
    names = {row[0] for row in conn.execute("select slug from games union select id from sources")}

    def renamed(value, copy):
        if not isinstance(value, str):
            return value
        if value in names:
            return f"{value}-c{copy}"
        head, slash, rest = value.partition("/")
        return f"{head}-c{copy}/{rest}" if slash and head in names else value

    conn.create_function("renamed", 2, renamed, deterministic=True)
    conn.execute("attach database ? as original", [str(library)])
    for copy in range(2, factor + 1):
        for table, columns in RENAMED.items():
            every = [row[1] for row in conn.execute(f"pragma table_info({table})") if row[1] != FRESH_KEYS.get(table)]
            values = []
            for column in every:
                if column in columns:
                    values.append(f"renamed({column}, {copy})")
                elif (table, column) == ("games", "name"):
                    values.append(f"name || ' Copy{copy}'")
                elif column in ("ref", "abbrev") and table in ("rulings", "sources", "ruling_history"):
                    values.append(f"case when {column} is null or {column} = '' then {column} "
                                  f"else 'C{copy} ' || {column} end")
                else:
                    values.append(column)
            conn.execute(f"insert into main.{table} ({', '.join(every)}) select {', '.join(values)} "
                         f"from original.{table}")
        conn.commit()
    conn.close()
    db = sqlite_utils.Database(temp)
    for trigger in FTS_TRIGGERS:  # as a library made or written by this release has them
        db.execute(trigger)
    db.execute("insert into rulings_fts(rulings_fts) values ('rebuild')")
    write_lexicon(db)
    db.conn.commit()
    db.conn.execute("vacuum")
    db.conn.close()
    os.replace(temp, out)
    return out


def load_questions() -> list[dict]:
    """Every question of QUESTION_SETS, each with the set it comes from."""
    from kb.evaluate import load_questions as load
    return [{**item, "set": path.stem} for path in QUESTION_SETS for item in load(path)]


def percentile(times: list[float], share: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def measure(db: Path, given_only: bool = False) -> dict:
    """Search p50/p95 per mode, with and without the game (with it only, if `given_only`): the warm-up pass ("first
    pass": the first mode's reads each word's matches and usage from the file, the vectors and the int8 copy are
    made in it), then two ways: "a new question" (the kept question vectors emptied before each, so it
    is embedded as a player's new question is; the vectors, their int8 copy, the kept full-text matches and the
    word counts stay warm, as in a server that has answered for a while) and "asked again" (its vector kept);
    whether every full-text ranking equals the reference; how many phrases' matches are kept after the searches
    (and how many were dropped to stay within kb.retrieval.POSTINGS_MEMO); this process's peak memory after the
    searches (what a server answering them holds) and at the end."""
    from support.fts_reference import reference_fts_ranking

    from kb.lexicon import load_lexicon
    from kb.onnx_embedder import question_vector
    from kb.query import fts_query, without_game_name
    from kb.retrieval import fts_ranking, postings
    from kb.search import CANDIDATES, MODES, ask
    from kb.store import connect

    conn = connect(db)
    questions = load_questions()
    figures: dict = {}
    for mode in MODES:
        for given in (True,) if given_only else (False, True):
            asked = [(q["question"], q.get("game") if given else None) for q in questions
                     if not given or q.get("game")]
            times = []
            for question, game in asked:  # warm: the model, the vectors, the pages, each word's usage
                start = time.perf_counter()
                ask(conn, question, game=game, mode=mode)
                times.append((time.perf_counter() - start) * 1000)
            figures[f"{mode}, {'game given' if given else 'no game'}, first pass"] = {
                "n": len(times), "p50_ms": round(statistics.median(times), 2),
                "p95_ms": round(percentile(times, 0.95), 2)}
            for asking in ("asked again", "a new question"):  # again first: the warm pass kept every vector
                times = []
                for question, game in asked:
                    if asking == "a new question":
                        question_vector.cache_clear()  # embedded again, as a player's new question is
                    start = time.perf_counter()
                    ask(conn, question, game=game, mode=mode)
                    times.append((time.perf_counter() - start) * 1000)
                figures[f"{mode}, {'game given' if given else 'no game'}, {asking}"] = {
                    "n": len(times), "p50_ms": round(statistics.median(times), 2),
                    "p95_ms": round(percentile(times, 0.95), 2)}
    held = postings(conn)
    figures["kept full-text matches"] = held.held
    figures["kept phrases"] = len(held.phrases)
    figures["kept phrases dropped (least recently used)"] = getattr(held, "dropped", None)  # None: a tree before it
    figures["peak memory MB, after the searches"] = round(peak_mb(), 1)
    lexicon = load_lexicon(conn)
    differing = 0
    for given in (True,) if given_only else (False, True):
        asked = [(fts_query(without_game_name(q["question"], lexicon.games, q.get("game")) or q["question"],
                            lexicon.acronyms) if given else fts_query(q["question"], lexicon.acronyms),
                  q.get("game") if given else None) for q in questions if not given or q.get("game")]
        found = {}
        for name, rank in (("full-text ranking alone", fts_ranking), ("its reference", reference_fts_ranking)):
            for _ in range(2):  # warm, then timed
                found[name], times = [], []
                for query, game in asked:
                    start = time.perf_counter()
                    found[name].append(rank(conn, query, game, CANDIDATES))
                    times.append((time.perf_counter() - start) * 1000)
            figures[f"{name}, {'game given' if given else 'no game'}"] = {
                "n": len(times), "p50_ms": round(statistics.median(times), 2),
                "p95_ms": round(percentile(times, 0.95), 2)}
        differing += sum(a != b for a, b in zip(found["full-text ranking alone"], found["its reference"]))
    figures["full-text rankings differing from the reference"] = differing
    if not given_only:  # the scans rank every game's passages: no part of a game's question
        figures.update(dense_scans(conn, questions))
    figures["peak memory MB"] = round(peak_mb(), 1)
    return figures


def dense_scans(conn, questions: list[dict]) -> dict:
    """The dense ranking with no game as search makes it, the exact float32 scan and the int8 scan with exact
    rescoring, each timed alone (warm); how many of the first two's rankings differ from the exact scan's.
    (What the int8 copy costs to make: benchmarks/ann.py.)"""
    from kb import retrieval
    from kb.onnx_embedder import embedder
    from kb.search import CANDIDATES

    vectors = [embedder().embed(q["question"]) for q in questions]
    figures, found, configured = {}, {}, retrieval.COMPACT_FROM
    for name, compact_from in (("dense ranking alone, no game", configured), ("exact float32 scan, no game", 10**12),
                               ("int8 scan with exact rescoring, no game", 0)):
        retrieval.COMPACT_FROM = compact_from
        for _ in range(2):  # warm, then timed
            found[name], times = [], []
            for vector in vectors:
                start = time.perf_counter()
                found[name].append(retrieval.dense_ranking(conn, vector, None, CANDIDATES))
                times.append((time.perf_counter() - start) * 1000)
        figures[name] = {"n": len(times), "p50_ms": round(statistics.median(times), 2),
                         "p95_ms": round(percentile(times, 0.95), 2)}
    retrieval.COMPACT_FROM = configured
    exact = found["exact float32 scan, no game"]
    for name in ("dense ranking alone, no game", "int8 scan with exact rescoring, no game"):
        figures[f"{name.split(',')[0]}: rankings differing from the exact scan"] = sum(
            a != b for a, b in zip(found[name], exact))
    return figures


def peak_mb() -> float:
    """This process's peak resident memory (VmHWM), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def writes(db: Path) -> dict:
    """Wall time of adding DOCUMENT to a copy of `db`, then of removing it, each in a new process as a user runs
    `rulings add` / `rulings remove`."""
    found = {}
    with tempfile.TemporaryDirectory(dir=db.parent) as folder:
        copy = Path(folder) / "rulings.db"
        shutil.copyfile(db, copy)
        added = _timed(found, "add", ["add", str(DOCUMENT), "--game", DOCUMENT_GAME, "--json"], copy)
        found["rulings added"] = added["rulings"]
        _timed(found, "remove", ["remove", added["source"], "--json"], copy)
    return found


def _timed(found: dict, name: str, args: list[str], db: Path) -> dict:
    """Run `rulings ARGS --db DB` in a new process, its wall time put in `found`; what it printed."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "service.cli", *args, "--db", str(db)], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    found[f"{name} s"] = round(time.perf_counter() - start, 2)
    if done.returncode:
        raise SystemExit(f"rulings {name} failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--library", type=Path, default=LIBRARY)
    parser.add_argument("--factors", default="1,10", help="comma-separated copies of the library to measure")
    parser.add_argument("--keep", type=Path, default=ROOT / "build" / "scale")
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)  # one library, in this process
    parser.add_argument("--no-writes", action="store_true", help="skip the add and remove timings")
    parser.add_argument("--game-given-only", action="store_true",
                        help="time questions with their game only (bounded at ×100, where the others take minutes)")
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.game_given_only)))
        return
    library = args.library
    if not library.exists():
        library.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SHARED_LIBRARY, library)
    args.keep.mkdir(parents=True, exist_ok=True)
    rows = {}
    for factor in (int(f) for f in args.factors.split(",")):
        db = args.keep / f"x{factor}.db"
        if not db.exists():
            start = time.perf_counter()
            scale_library(library, factor, db)
            print(f"built ×{factor} in {time.perf_counter() - start:.1f} s", file=sys.stderr)
        probe = sqlite3.connect(db)
        row = {"rulings": probe.execute("select count(*) from rulings").fetchone()[0],
               "passages": probe.execute("select count(*) from embeddings").fetchone()[0],
               "file MB": round(db.stat().st_size / 2**20)}
        probe.close()
        done = subprocess.run([sys.executable, __file__, "--measure", str(db),
                               *(["--game-given-only"] if args.game_given_only else [])],
                              capture_output=True, text=True, check=False)
        if done.returncode:
            raise SystemExit(done.stderr[-3000:])
        row.update(json.loads(done.stdout.strip().splitlines()[-1]))
        if not args.no_writes:
            row.update(writes(db))
        rows[f"×{factor}"] = row
        print(f"×{factor}: {json.dumps(row)}", file=sys.stderr)
    print_table(rows)


def print_table(rows: dict) -> None:
    """One Markdown table: a row per measure, a column per library (and each column's growth over the first)."""
    names = list(rows)
    first = rows[names[0]]
    print("| measure | " + " | ".join(names) + " | " + " | ".join(f"{n} / {names[0]}" for n in names[1:]) + " |")
    print("|---|" + "---:|" * (2 * len(names) - 1))
    for key, value in first.items():
        if isinstance(value, dict):
            for part in ("p50_ms", "p95_ms"):
                cells = [rows[n][key][part] for n in names]
                print(f"| {key} {part.replace('_', ' ')} | " + " | ".join(str(c) for c in cells) + " | "
                      + " | ".join(f"×{c / cells[0]:.2f}" for c in cells[1:]) + " |")
        else:
            cells = [rows[n].get(key) for n in names]
            growth = [f"×{c / cells[0]:.2f}" if isinstance(c, (int, float)) and cells[0] else "" for c in cells[1:]]
            print(f"| {key} | " + " | ".join(str(c) for c in cells) + " | " + " | ".join(growth) + " |")


if __name__ == "__main__":
    main()
