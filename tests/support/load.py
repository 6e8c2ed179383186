"""A bounded HTTP load on our JSON API over loopback: concurrent keep-alive clients, latency percentiles,
errors, a process's memory. Shared by the load test and the benchmarks; never used by the servers."""
from __future__ import annotations

import http.client
import statistics
import threading
import time
import urllib.parse
from pathlib import Path


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MB (from /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


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
    """The `p`th percentile (0-100) of `values`, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


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
