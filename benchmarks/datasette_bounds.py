"""Issue 29's Datasette case against a real `rulings browse`: `rulings_search` called on every row, alone and
several at once, with a light page asked meanwhile: a markdown table of each request's status and seconds, for
docs/web.md ("Limits on one query"). Then issue 44's facets (N2): a facet repeated hundreds of times in one GET,
more facets than a page shows, facets of long values: each request's status, seconds, megabytes returned and the
server's peak memory (VmHWM) after it.

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
FACETS = {
    "200 × _facet=text": "/{database}/rulings.json?" + "&".join(["_facet=text"] * 200),
    "600 × _facet=text": "/{database}/rulings.json?" + "&".join(["_facet=text"] * 600),
    "600 × _facet=text, HTML": "/{database}/rulings?" + "&".join(["_facet=text"] * 600),
    "6 different facets": "/{database}/rulings.json?" + "&".join(
        f"_facet={column}" for column in ("section", "label", "title", "text", "kind", "page")),
    "_facet=original_text&_facet_size=max on sources": "/{database}/sources.json?_facet=original_text&_facet_size=max",
    "5 facets, _facet_size=max": "/{database}/rulings.json?_facet_size=max&" + "&".join(
        f"_facet={column}" for column in ("section", "label", "title", "text", "citation")),
}


def timed(url: str) -> tuple[int, float]:
    """(status, seconds) of a GET."""
    status, _, seconds = fetched(url)
    return status, seconds


def fetched(url: str) -> tuple[int, int, float]:
    """(status, bytes of the body, seconds) of a GET."""
    start = time.monotonic()
    try:
        with urlopen(url, timeout=300) as response:
            size, status = len(response.read()), response.status
    except HTTPError as error:
        size, status = len(error.read()), error.code
    return status, size, time.monotonic() - start


def peak_mb(pid: int) -> float:
    """A process's peak resident memory so far (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=ROOT / "rulings.db")
    parser.add_argument("--at-once", type=int, nargs="*", default=[3, 6], help="hostile queries sent together")
    args = parser.parse_args()
    database = args.db.stem
    with running_server(args.db, ("browse",)) as (port, server):
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
        print(f"\nServer peak memory before the facets: {peak_mb(server.pid):.0f} MB\n")
        print("| facets | status | seconds | MB returned | server peak memory after |")
        print("|---|---|---:|---:|---:|")
        for name, path in FACETS.items():
            status, size, seconds = fetched(base + path.format(database=database))
            print(f"| {name} | {status} | {seconds:.2f} | {size / 1e6:.1f} | {peak_mb(server.pid):.0f} MB |")


if __name__ == "__main__":
    main()
