"""Issue 29's Datasette case against a real `rulings browse`: `rulings_search` called on every row, alone and
several at once, with a light page asked meanwhile: a markdown table of each request's status and seconds, for
docs/web.md ("Limits on one query").

    python benchmarks/datasette_bounds.py [--db rulings.db] [--at-once 3 6]
"""
from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path
from urllib.error import HTTPError
from urllib.parse import urlencode
from urllib.request import urlopen

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the packages, and the helpers in tests/support

from support.servers import running_server  # noqa: E402

QUERIES = {
    "the issue's, as written": "select rulings_search('x', null) from rulings",
    "a different question on every row": "select rulings_search(a.title || b.id, null) from rulings a, rulings b",
}
LIGHT = "/{database}/games.json?_shape=array"


def timed(url: str) -> tuple[int, float]:
    """(status, seconds) of a GET."""
    start = time.monotonic()
    try:
        with urlopen(url, timeout=300) as response:
            response.read()
            status = response.status
    except HTTPError as error:
        status = error.code
    return status, time.monotonic() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=ROOT / "rulings.db")
    parser.add_argument("--at-once", type=int, nargs="*", default=[3, 6], help="hostile queries sent together")
    args = parser.parse_args()
    database = args.db.stem
    with running_server(args.db, ("browse",)) as (port, _):
        base = f"http://127.0.0.1:{port}"
        print("| query | at once | statuses | seconds (slowest) | light page meanwhile |")
        print("|---|---:|---|---:|---|")
        for name, sql in QUERIES.items():
            url = f"{base}/{database}.json?" + urlencode({"sql": sql, "_size": "max"})
            for count in [1, *args.at_once]:
                answers: list[tuple[int, float]] = []
                threads = [threading.Thread(target=lambda: answers.append(timed(url))) for _ in range(count)]
                for thread in threads:
                    thread.start()
                time.sleep(0.2)
                light = timed(base + LIGHT.format(database=database))
                for thread in threads:
                    thread.join()
                print(f"| {name} | {count} | {', '.join(sorted({str(status) for status, _ in answers}))} | "
                      f"{max(seconds for _, seconds in answers):.2f} | {light[0]} in {light[1]:.2f} s |")


if __name__ == "__main__":
    main()
