"""Every case of issue 29 rerun as written against real servers (`rulings serve` and `rulings browse` on a copy of
the committed database, plus a Q/A document whose version and file name no header can carry): per case, the
status, the time, the server's peak memory (VmHWM), and how long a light request sent meanwhile waited.

    python benchmarks/bounded_requests.py

Targets (issue 29): a 4xx or a right answer within 2 s, the server's peak memory under 1 GB, light requests
answered meanwhile. Prints a Markdown table; asserts nothing. Traffic goes to 127.0.0.1 only.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the packages, and the helpers in tests/support

from kb.report import markdown_table  # noqa: E402
from support import REPO_DB  # noqa: E402
from support.calcs import HEAVIEST  # noqa: E402
from support.servers import RULINGS, raw_get, running_server  # noqa: E402

BURIAL = "dead_units=" + ",".join(str(health) for health in (1, 2, 3, 4) for _ in range(60))
HUGE = "9" * 4300


def peak_mb(pid: int) -> float:
    """The process's peak resident memory so far (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def timed_get(port: int, path: str) -> tuple[int, float]:
    start = time.perf_counter()
    try:
        status, _ = raw_get(port, path)
    except OSError as exc:  # a timeout or a dropped connection is a result too
        return f"failed ({type(exc).__name__})", time.perf_counter() - start
    return status, time.perf_counter() - start


def case(port: int, pid: int, paths: list[str], light: str) -> dict:
    """Send `paths` at once (one thread each) and, while they run, one light request; their worst status and
    time, the light request's time and the server's peak memory after."""
    results: list[tuple] = []
    threads = [threading.Thread(target=lambda p=p: results.append(timed_get(port, p))) for p in paths]
    for thread in threads:
        thread.start()
    time.sleep(0.05)
    light_status, light_time = timed_get(port, light)
    for thread in threads:
        thread.join()
    statuses = sorted({str(status) for status, _ in results})
    return {"status": "/".join(statuses), "seconds": max(t for _, t in results),
            "light": f"{light_status} in {light_time:.2f} s", "peak_mb": peak_mb(pid)}


def add_odd_document(db: Path, folder: Path) -> str:
    """Add a Q/A file whose version holds a quote and a dash, named with a newline; its source id."""
    path = folder / 'odd\n"faq".json'
    path.write_text(json.dumps({"title": "Odd FAQ", "version": '1.0 "beta" \u2013 June', "date": "next tuesday",
                                "faq": [{"question": "Can a scout move twice?", "answer": "No, only once."}]}))
    done = subprocess.run([*RULINGS, "add", str(path), "--game", "odd", "--db", str(db), "--json"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)["source"]


def main() -> None:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "rulings.db"
        shutil.copy(REPO_DB, db)
        odd = add_odd_document(db, Path(folder))
        with running_server(db) as (port, server):
            timed_get(port, "/api/search?q=magic")  # warm: the model is loaded once
            app_cases = {
                "reveal characters=1,000,000,000": ["/api/calc/dungeon-twister/reveal?characters=1000000000"],
                "reveal characters=10,000,000": ["/api/calc/dungeon-twister/reveal?characters=10000000"],
                "reveal form, characters=10,000,000": ["/calc/dungeon-twister?calc=reveal&characters=10000000"],
                "8 × black-magic, 60 units of each health": [
                    f"/api/calc/dragon-dice/black-magic?black_points=600&bury_points=600&{BURIAL}"] * 8,
                "8 × black-magic, its heaviest accepted input": [
                    "/api/calc/dragon-dice/black-magic?" + urlencode(HEAVIEST[0][3])] * 8,
                "24 × /games/dragon-dice at once": ["/games/dragon-dice"] * 24,
                "4,300-digit integer (saves)": [f"/api/calc/dragon-dice/saves?rolled={HUGE}"],
                "original, version with a quote and a dash": [f"/sources/{odd}/original"],
                "/games/dragon-dice": ["/games/dragon-dice"],
            }
            for name, paths in app_cases.items():
                rows.append({"server": "serve", "case": name, **case(port, server.pid, paths, "/api/games")})
        with running_server(db, ("browse",)) as (port, server):
            database = db.stem
            search = "select rulings_search('can a reserve army double its magic', null) from rulings"
            distinct = "select rulings_search(a.title || b.id, null) from rulings a, rulings b"
            browse_cases = {
                "rulings_search over every row": [f"/{database}.json?" + urlencode({"sql": search})],
                "3 × rulings_search over every row": [f"/{database}.json?" + urlencode({"sql": search})] * 3,
                "3 × a different question on every row": [f"/{database}.json?" + urlencode({"sql": distinct})] * 3,
                "fts3_tokenizer('simple')": [f"/{database}.json?" + urlencode({"sql": "select fts3_tokenizer('simple')"})],
                "?_sort=nope": [f"/{database}/rulings?_sort=nope"],
                "?_where=1; select 1": [f"/{database}/rulings?_where=" + quote("1; select 1")],
            }
            for name, paths in browse_cases.items():
                rows.append({"server": "browse", "case": name, **case(port, server.pid, paths, f"/{database}/games")})
    print(markdown_table([{"server": row["server"], "case": row["case"], "status": row["status"],
                           "time": f"{row['seconds']:.2f} s", "light request meanwhile": row["light"],
                           "server peak memory": f"{row['peak_mb']:.0f} MB"} for row in rows]))


if __name__ == "__main__":
    main()
