"""The speed targets of the issue "a cold answer in under 1.5 s, and ahead of plain full-text search", measured
in one run, each figure printed beside its target with PASS or MISS, then one JSON line with every number.

    python benchmarks/speed.py [--db rulings.db] [--cold-runs 5] [--requests 2000]

- cold `rulings ask QUESTION` (a new process each time) under 1.5 s wall, median and max of --cold-runs runs
  after one untimed run; with its ratio to a cold `rulings ask --mode fts QUESTION` (runs interleaved);
- warm `/api/search` of `rulings serve`: p50 <= 10 ms and p95 <= 25 ms for one client at a time, and at
  least 100 requests/s with 4 concurrent keep-alive clients (latencies under that load are shown too);
- resident memory of the service after the load under 400 MB;
- `rulings ingest` of every source, embeddings included, into a new database under 30 s; a re-ingest over a
  copy of the database (unchanged vectors reused) is timed separately; `rulings verify` under 10 s.

Nothing is written to --db: the commands run on a snapshot of it in a temporary folder, which is removed.
The machine's load average is printed before and after: other work on the machine slows every figure.
"""
from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the packages, and the helpers in tests/support

from benchmarks.load import questions  # noqa: E402
from support.load import measure, rss_mb, run_load  # noqa: E402
from support.servers import running_server  # noqa: E402

RULINGS = Path(sys.executable).parent / "rulings"
QUESTION = "Can a reserve army double its magic?"
ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_HUB_DISABLE_PROGRESS_BARS": "1"}

# name: (comparison, limit): the figure must be under (<), at most (<=) or at least (>=) the limit
TARGETS = {
    "cold_ask_median_s": ("<", 1.5),
    "cold_ask_max_s": ("<", 1.5),
    "api_p50_ms": ("<=", 10.0),
    "api_p95_ms": ("<=", 25.0),
    "api_rps_4_clients": (">=", 100.0),
    "service_rss_mb": ("<", 400.0),
    "ingest_fresh_s": ("<", 30.0),
    "verify_s": ("<", 10.0),
}
COMPARE = {"<": lambda value, limit: value < limit, "<=": lambda value, limit: value <= limit,
           ">=": lambda value, limit: value >= limit}


def snapshot(db: Path, target: Path) -> Path:
    """A consistent copy of `db` (SQLite backup from a read-only connection) at `target`."""
    target.parent.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(f"file:{db.resolve()}?mode=ro", uri=True)
    copy = sqlite3.connect(target)
    try:
        source.backup(copy)
    finally:
        copy.close()
        source.close()
    return target


def run(args: list[str]) -> tuple[float, subprocess.CompletedProcess]:
    """Run a command (from the repo root); (wall seconds, completed process)."""
    start = time.perf_counter()
    done = subprocess.run(args, check=False, cwd=ROOT, env=ENV, capture_output=True, text=True)
    return time.perf_counter() - start, done


def checked(args: list[str], ok_codes: tuple[int, ...] = (0,)) -> float:
    seconds, done = run(args)
    if done.returncode not in ok_codes:
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return seconds


def cold_asks(db: Path, runs: int) -> dict:
    """Wall seconds of new `rulings ask` processes, hybrid and fts interleaved, after one untimed run of each."""
    # exit code 1 means "no ruling answers this" and still prints the nearest rulings
    commands = {mode: [str(RULINGS), "ask", "--mode", mode, "--db", str(db), QUESTION] for mode in ("hybrid", "fts")}
    for command in commands.values():
        checked(command, (0, 1))
    times: dict[str, list[float]] = {mode: [] for mode in commands}
    for _ in range(runs):
        for mode, command in commands.items():
            times[mode].append(checked(command, (0, 1)))
    return times


def service(db: Path, requests: int, sequential: int, warmup: int) -> dict:
    """Warm /api/search: one client at a time, then 4 concurrent clients; the server's RSS after the load."""
    qs = questions()
    with running_server(db) as (port, server):
        run_load(port, warmup, 1, qs)
        one = measure(port, sequential, 1, qs)
        four = measure(port, requests, 4, qs)
        return {"one_client": one, "four_clients": four, "rss_mb_after": round(rss_mb(server.pid), 1)}


def ingests(db: Path, work: Path) -> dict:
    """`rulings ingest` into a new path (everything embedded), and over a copy of `db` (vectors reused)."""
    fresh = work / "fresh" / "rulings.db"
    fresh.parent.mkdir()
    fresh_s = checked([str(RULINGS), "ingest", "--db", str(fresh)])
    conn = sqlite3.connect(f"file:{fresh}?mode=ro", uri=True)
    vectors, rulings = (conn.execute(f"select count(*) from {t}").fetchone()[0] for t in ("embeddings", "rulings"))
    conn.close()
    if not vectors:
        raise RuntimeError(f"{fresh}: the fresh ingest wrote no embeddings")
    again = snapshot(db, work / "reingest" / "rulings.db")
    reingest_s = checked([str(RULINGS), "ingest", "--db", str(again)])
    return {"ingest_fresh_s": round(fresh_s, 2), "ingest_reuse_s": round(reingest_s, 2),
            "fresh_embeddings": vectors, "fresh_rulings": rulings}


def verify(db: Path, work: Path) -> dict:
    copy = snapshot(db, work / "verify" / "rulings.db")
    seconds, done = run([str(RULINGS), "verify", "--db", str(copy)])
    if done.returncode not in (0, 1):  # 1: some example fails, which is a result, not a crash
        raise RuntimeError(f"rulings verify exited {done.returncode}:\n{done.stderr[-2000:]}")
    return {"verify_s": round(seconds, 2), "verify_summary": done.stdout.splitlines()[0] if done.stdout else ""}


def verdict(name: str, value: float) -> str:
    comparison, limit = TARGETS[name]
    return "PASS" if COMPARE[comparison](value, limit) else "MISS"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, default=ROOT / "rulings.db", help="read only: a snapshot is used")
    parser.add_argument("--cold-runs", type=int, default=5)
    parser.add_argument("--requests", type=int, default=2000, help="requests of the 4-client load")
    parser.add_argument("--sequential", type=int, default=400, help="requests of the one-client latency run")
    parser.add_argument("--warmup", type=int, default=50)
    args = parser.parse_args()
    load_before = os.getloadavg()
    print(f"# speed: {os.cpu_count()} CPUs, load average {load_before[0]:.2f} at start; question {QUESTION!r}")
    with tempfile.TemporaryDirectory(prefix="rulings-speed-") as temp:
        work = Path(temp)
        db = snapshot(args.db, work / "snapshot" / "rulings.db")
        cold = cold_asks(db, args.cold_runs)
        api = service(db, args.requests, args.sequential, args.warmup)
        builds = ingests(db, work)
        checks = verify(db, work)
    load_after = os.getloadavg()

    hybrid, fts = cold["hybrid"], cold["fts"]
    figures = {
        "cold_ask_median_s": round(statistics.median(hybrid), 3), "cold_ask_max_s": round(max(hybrid), 3),
        "cold_fts_median_s": round(statistics.median(fts), 3), "cold_fts_max_s": round(max(fts), 3),
        "cold_ratio_hybrid_to_fts": round(statistics.median(hybrid) / statistics.median(fts), 2),
        "api_p50_ms": api["one_client"]["p50_ms"], "api_p95_ms": api["one_client"]["p95_ms"],
        "api_rps_4_clients": api["four_clients"]["throughput_rps"],
        "api_4_clients_p50_ms": api["four_clients"]["p50_ms"], "api_4_clients_p95_ms": api["four_clients"]["p95_ms"],
        "api_errors": api["one_client"]["errors"] + api["four_clients"]["errors"],
        "service_rss_mb": api["rss_mb_after"],
        **builds, **checks,
    }
    rows = [
        ("cold `rulings ask` median", "cold_ask_median_s", "s"),
        ("cold `rulings ask` max", "cold_ask_max_s", "s"),
        ("cold `rulings ask --mode fts` median", "cold_fts_median_s", "s"),
        ("cold `rulings ask --mode fts` max", "cold_fts_max_s", "s"),
        ("cold ratio hybrid / fts (medians)", "cold_ratio_hybrid_to_fts", "x"),
        ("/api/search p50, 1 client", "api_p50_ms", "ms"),
        ("/api/search p95, 1 client", "api_p95_ms", "ms"),
        ("/api/search throughput, 4 clients", "api_rps_4_clients", "req/s"),
        ("/api/search p50, 4 clients", "api_4_clients_p50_ms", "ms"),
        ("/api/search p95, 4 clients", "api_4_clients_p95_ms", "ms"),
        ("/api/search errors", "api_errors", ""),
        ("service RSS after the load", "service_rss_mb", "MB"),
        ("`rulings ingest`, new database", "ingest_fresh_s", "s"),
        ("`rulings ingest`, over a copy (reuses vectors)", "ingest_reuse_s", "s"),
        ("`rulings verify`, on a copy", "verify_s", "s"),
    ]
    print(f"\n| {'measure':48} | {'value':>12} | {'target':>12} | result |")
    print(f"|{'-' * 50}|{'-' * 14}|{'-' * 14}|--------|")
    passes = {}
    for label, key, unit in rows:
        value = figures[key]
        if key in TARGETS:
            comparison, limit = TARGETS[key]
            target = f"{comparison} {limit:g} {unit}"
            passes[key] = verdict(key, value)
            result = passes[key]
        else:
            target, result = "-", ""
        print(f"| {label:48} | {f'{value:g} {unit}':>12} | {target:>12} | {result:6} |")
    print(f"\nruns: cold hybrid {[round(t, 3) for t in hybrid]} s, cold fts {[round(t, 3) for t in fts]} s; "
          f"fresh ingest wrote {figures['fresh_embeddings']} vectors for {figures['fresh_rulings']} rulings; "
          f"verify: {figures['verify_summary']}")
    busy = max(load_before[0], load_after[0]) > 1
    print(f"load average {load_before[0]:.2f} at start, {load_after[0]:.2f} at end "
          f"({'the machine was busy: figures may be pessimistic' if busy else 'quiet'})")
    missed = [key for key, result in passes.items() if result == "MISS"]
    print(f"{len(passes) - len(missed)}/{len(passes)} targets met"
          + (f"; missed: {', '.join(missed)}" if missed else ""))
    print(json.dumps({**figures, "cold_hybrid_runs_s": [round(t, 3) for t in hybrid],
                      "cold_fts_runs_s": [round(t, 3) for t in fts], "requests_4_clients": args.requests,
                      "requests_1_client": args.sequential, "load_average": [round(load_before[0], 2),
                                                                             round(load_after[0], 2)],
                      "targets": {k: {"must_be": f"{v[0]} {v[1]:g}", "result": passes[k]} for k, v in TARGETS.items()},
                      "all_pass": not missed}))


if __name__ == "__main__":
    main()
