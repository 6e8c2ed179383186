"""A real `rulings serve` (waitress) on loopback: bounded concurrent load loses no request, and raw requests
that test clients would tidy up first (dot segments, bad bytes) are answered without a 500 or a leak.
Speed is the benchmarks' business (benchmarks/load.py): nothing here is timed."""
import json
from pathlib import Path

import pytest

from support.load import run_load
from support.servers import raw_get, running_server

pytestmark = pytest.mark.slow

QUESTIONS = Path(__file__).resolve().parent / "dev_questions.jsonl"


@pytest.fixture(scope="module")
def server(built_db):
    """(port, process) of `rulings serve` over the test database."""
    with running_server(built_db) as running:
        yield running


def test_four_clients_sending_400_searches_get_400_answers(server):
    port, process = server
    questions = [json.loads(line)["question"] for line in QUESTIONS.read_text(encoding="utf-8").splitlines()]
    latencies, errors = run_load(port, total=400, clients=4, qs=questions)
    assert len(latencies) == 400 and errors == 0
    assert process.poll() is None, "the server is still running"
    status, body = raw_get(port, "/api/games")
    assert status == 200 and b"dragon-dice" in body


@pytest.mark.parametrize("path", ["/static/../../../../../../etc/passwd", "/static/%2e%2e/%2e%2e/etc/passwd",
                                  "/static/..%2f..%2f..%2f..%2f..%2fetc%2fpasswd", "/static/../app.py",
                                  "/static/%2e%2e%2fapp.py", "/sources/..%2f..%2fetc%2fpasswd",
                                  "/sources/../../../../etc/passwd", "/../../../../etc/passwd",
                                  "/static/..\\..\\app.py"])
def test_no_raw_path_reaches_a_file_outside_the_database(server, path):
    status, body = raw_get(server[0], path)
    assert status in {400, 404}
    assert b"root:x:0:" not in body and b"def create_app" not in body


@pytest.mark.parametrize("query", ["q=%FF%FE", "q=magic%00%01%1b", "q=%C0%AE%ED%A0%80", "q=" + "x" * 100_000,
                                   "q=%22NEAR(%2A%20OR", "q=magic&k=%FF", "q=magic&game=%3Cscript%3E"])
def test_raw_hostile_queries_are_answered_or_a_400(server, query):
    status, body = raw_get(server[0], "/api/search?" + query)
    assert status in {200, 400} and b"Traceback" not in body
