"""The rulebook page of a judge-sized rulebook: the 3,000-rule benchmark rulebook (benchmarks/large_rulebook.py)
added to a copy of the database, then /rules/<source> served by `rulings serve`: the server's time to answer, the
HTML's size and, where Playwright and /usr/bin/chromium are installed, the browser's first paint.

    python benchmarks/rulebook_page.py [--db rulings.db] [--rules 3000] [--kilobytes 800] [--loads 10]

Target (issue 22): first paint under a second.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the packages, and the helpers in tests/support

from benchmarks.corpora import add  # noqa: E402
from benchmarks.large_rulebook import rulebook  # noqa: E402
from benchmarks.speed import snapshot  # noqa: E402
from support.servers import running_server  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
SOURCE = "synthetic-comprehensive-rules"  # the id `rulings add` gives the benchmark rulebook's file


def served(url: str, loads: int) -> dict:
    """GET `url` `loads` times after one warm-up: median and worst seconds, and the body's size in bytes."""
    times, size = [], 0
    for attempt in range(loads + 1):
        start = time.perf_counter()
        with urllib.request.urlopen(url) as response:
            size = len(response.read())
        if attempt:
            times.append(time.perf_counter() - start)
    return {"median_s": statistics.median(times), "max_s": max(times), "bytes": size}


def painted(url: str, loads: int) -> dict | None:
    """The browser's first contentful paint and DOMContentLoaded (ms from navigation, median of `loads` fresh
    pages), or None without Playwright or chromium."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if not CHROMIUM.exists():
        return None
    paints, ready = [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"])
        for _ in range(loads):
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.goto(url, wait_until="load")
            paint = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null")
            nav = page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd")
            paints.append(paint)
            ready.append(nav)
            page.close()
        browser.close()
    return {"first_paint_ms": statistics.median(paints), "dom_ready_ms": statistics.median(ready)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=ROOT / "rulings.db", help="read only: a copy gets the rulebook")
    parser.add_argument("--rules", type=int, default=3000)
    parser.add_argument("--kilobytes", type=int, default=800)
    parser.add_argument("--loads", type=int, default=10, help="requests (and a third as many page loads) measured")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rulings-rulebook-") as temp:
        work = Path(temp)
        db = snapshot(args.db, work / "rulings.db")
        book = work / f"{SOURCE}.txt"
        book.write_text(rulebook(args.rules, args.kilobytes), encoding="utf-8")
        size_kb = book.stat().st_size / 1024
        added = add(book, "synthetic", db)
        if added["exit"]:
            raise SystemExit(f"rulings add failed: {added['error']}")
        with running_server(db) as (port, _):
            url = f"http://127.0.0.1:{port}/rules/{SOURCE}"
            server = served(url, args.loads)
            browser = painted(url, max(1, args.loads // 3))
    print(f"| measure | value | target |\n|---|---|---|\n"
          f"| rulebook | {size_kb:.0f} KB, {args.rules} numbered rules | 800 KB, 3,000 rules |\n"
          f"| /rules/{SOURCE} server time, median (max) | {server['median_s'] * 1000:.0f} ms "
          f"({server['max_s'] * 1000:.0f} ms) | - |\n"
          f"| HTML size | {server['bytes'] / 1024:.0f} KB | - |")
    if browser:
        print(f"| first contentful paint, median | {browser['first_paint_ms']:.0f} ms | < 1000 ms |\n"
              f"| DOMContentLoaded, median | {browser['dom_ready_ms']:.0f} ms | - |")
    else:
        print(f"| first paint | not measured: no Playwright or {CHROMIUM} | < 1000 ms |")


if __name__ == "__main__":
    main()
