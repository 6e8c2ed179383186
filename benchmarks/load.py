"""Load test of the JSON API on loopback: start `rulings serve`, send bounded concurrent /api/search
requests, print throughput, latency percentiles, errors and the server's memory before and after.

    python benchmarks/load.py [--clients 8] [--requests 5000] [--warmup 50]

Traffic goes to 127.0.0.1 only; the run is bounded in count and stops by itself.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MB (from /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_server(port: int, db: Path) -> subprocess.Popen:
    """`rulings serve` on loopback; returns once it answers."""
    server = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--host", "127.0.0.1", "--port",
                               str(port), "--db", str(db)], cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    return wait_for_port(port, server)


def wait_for_port(port: int, process: subprocess.Popen, timeout: float = 60) -> subprocess.Popen:
    """Wait until `process` accepts connections on 127.0.0.1:`port`; kill it and raise if it never does."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    process.wait()
    raise RuntimeError(f"server on port {port} did not start within {timeout:g} s (exit code {process.returncode})")


def questions() -> list[str]:
    lines = (ROOT / "tests" / "dev_questions.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["question"] for line in lines]


def run_load(port: int, total: int, clients: int, qs: list[str]) -> tuple[list[float], int]:
    """Send `total` GET /api/search requests from `clients` threads (keep-alive); (latencies ms, errors)."""
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    counter = iter(range(total))

    def client() -> None:
        nonlocal errors
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for n in counter:
            path = "/api/search?" + urllib.parse.urlencode({"q": qs[n % len(qs)], "k": 5})
            start = time.perf_counter()
            try:
                conn.request("GET", path)
                response = conn.getresponse()
                body = response.read()
                ok = response.status == 200 and b'"results"' in body
            except (OSError, http.client.HTTPException):
                ok = False
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            elapsed = (time.perf_counter() - start) * 1000
            with lock:
                latencies.append(elapsed)
                errors += 0 if ok else 1
        conn.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, errors


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def stop(process: subprocess.Popen) -> None:
    """Terminate a server, killing it if it does not stop within 10 s."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def running_server(db: Path) -> Iterator[tuple[int, subprocess.Popen]]:
    """`rulings serve` on a free loopback port for the duration of the block: yields (port, process)."""
    port = free_port()
    server = start_server(port, db)
    try:
        yield port, server
    finally:
        stop(server)


def measure(port: int, total: int, clients: int, qs: list[str]) -> dict:
    """Send `total` requests from `clients` threads; throughput, latency percentiles and errors."""
    start = time.perf_counter()
    latencies, errors = run_load(port, total, clients, qs)
    wall = time.perf_counter() - start
    return {
        "requests": total, "clients": clients, "errors": errors,
        "throughput_rps": round(total / wall, 1),
        "p50_ms": round(percentile(latencies, 50), 2), "p95_ms": round(percentile(latencies, 95), 2),
        "p99_ms": round(percentile(latencies, 99), 2), "mean_ms": round(statistics.mean(latencies), 2),
    }


def load_test(requests: int, clients: int, warmup: int, db: Path) -> dict:
    """Run the whole benchmark; returns the figures it prints."""
    with running_server(db) as (port, server):
        qs = questions()
        memory_before = rss_mb(server.pid)
        run_load(port, warmup, 1, qs)
        memory_warm = rss_mb(server.pid)
        figures = measure(port, requests, clients, qs)
        return {**figures, "rss_mb_start": round(memory_before, 1), "rss_mb_warm": round(memory_warm, 1),
                "rss_mb_after": round(rss_mb(server.pid), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--db", type=Path, default=ROOT / "rulings.db")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    print(json.dumps(load_test(args.requests, args.clients, args.warmup, args.db), indent=2))


if __name__ == "__main__":
    main()
