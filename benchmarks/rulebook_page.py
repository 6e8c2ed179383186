"""The rulebook page of a judge-sized rulebook: the 3,000-rule benchmark rulebook (benchmarks/large_rulebook.py)
added to a copy of the database, or a source the database already holds (`--source`, e.g. the Magic comprehensive
rules added with `rulings add ../shared/corpora/mtg-comprehensive-rules-2022-04-29.txt --game mtg`), then
/rules/<source> served by `rulings serve`: the server's time to its first byte, to its first screen (the page
through its 30th rule) and to its last byte, the HTML's size and, where Playwright and /usr/bin/chromium are
installed, the browser's first paint.

    python benchmarks/rulebook_page.py [--db rulings.db] [--rules 3000] [--kilobytes 800] [--loads 10]
    python benchmarks/rulebook_page.py --db magic.db --source mtg-comprehensive-rules

Targets: first paint under a second (issue 22); the first screen of a big rulebook under 0.3 s (issue 43).
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


SCREEN_RULES = 30  # rules a first screen shows, and more: the page up to its 30th rule


def served(url: str, loads: int) -> dict:
    """GET `url` `loads` times after one warm-up: median and worst seconds to the whole body, median seconds to its
    first byte and to its first screen (through its SCREEN_RULES-th rule, or the whole body if it has fewer), and
    the body's size in bytes."""
    times, firsts, screens, size = [], [], [], 0
    for attempt in range(loads + 1):
        start = time.perf_counter()
        first = screen = None
        body, rules = b"", 0
        with urllib.request.urlopen(url) as response:
            while piece := response.read1(65536):
                first = first or time.perf_counter() - start
                if screen is None:
                    rules += piece.count(b'<div class="rule"')
                    if rules >= SCREEN_RULES:
                        screen = time.perf_counter() - start
                body += piece
        size = len(body)
        if attempt:
            times.append(time.perf_counter() - start)
            firsts.append(first)
            screens.append(screen or times[-1])
    return {"median_s": statistics.median(times), "max_s": max(times), "first_byte_s": statistics.median(firsts),
            "first_screen_s": statistics.median(screens), "bytes": size}


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
            # A light page can load before its first paint is recorded: look again for up to 5 s (the pages' CSP
            # refuses Playwright's wait_for_function).
            for _ in range(100):
                paint = page.evaluate(
                    "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null")
                if paint is not None:
                    break
                page.wait_for_timeout(50)
            nav = page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd")
            paints.append(paint)
            ready.append(nav)
            page.close()
        browser.close()
    return {"first_paint_ms": statistics.median(paints), "dom_ready_ms": statistics.median(ready)}


def measure(db: Path, source: str, loads: int) -> tuple[dict, dict | None]:
    """`served` and `painted` figures of /rules/<source> served over `db`."""
    with running_server(db) as (port, _):
        url = f"http://127.0.0.1:{port}/rules/{source}"
        return served(url, loads), painted(url, max(1, loads // 3))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=ROOT / "rulings.db", help="read only: a copy gets the rulebook")
    parser.add_argument("--source", help="a source of --db to measure as it is (no benchmark rulebook added)")
    parser.add_argument("--rules", type=int, default=3000)
    parser.add_argument("--kilobytes", type=int, default=800)
    parser.add_argument("--loads", type=int, default=10, help="requests (and a third as many page loads) measured")
    args = parser.parse_args()
    if args.source:
        source = args.source
        described = f"{source} of {args.db.name}"
        server, browser = measure(args.db, source, args.loads)
    else:
        source = SOURCE
        with tempfile.TemporaryDirectory(prefix="rulings-rulebook-") as temp:
            work = Path(temp)
            db = snapshot(args.db, work / "rulings.db")
            book = work / f"{SOURCE}.txt"
            book.write_text(rulebook(args.rules, args.kilobytes), encoding="utf-8")
            described = f"{book.stat().st_size / 1024:.0f} KB, {args.rules} numbered rules"
            added = add(book, "synthetic", db)
            if added["exit"]:
                raise SystemExit(f"rulings add failed: {added['error']}")
            server, browser = measure(db, source, args.loads)
    print(f"| measure | value | target |\n|---|---|---|\n"
          f"| rulebook | {described} | - |\n"
          f"| /rules/{source} first byte, median | {server['first_byte_s'] * 1000:.0f} ms | - |\n"
          f"| first screen (through rule {SCREEN_RULES}), median | {server['first_screen_s'] * 1000:.0f} ms "
          f"| < 300 ms |\n"
          f"| whole page, median (max) | {server['median_s'] * 1000:.0f} ms ({server['max_s'] * 1000:.0f} ms) | - |\n"
          f"| HTML size | {server['bytes'] / 1024:.0f} KB | - |")
    if browser:
        print(f"| first contentful paint, median | {browser['first_paint_ms']:.0f} ms | < 300 ms |\n"
              f"| DOMContentLoaded, median | {browser['dom_ready_ms']:.0f} ms | - |")
    else:
        print(f"| first paint | not measured: no Playwright or {CHROMIUM} | < 300 ms |")


if __name__ == "__main__":
    main()
