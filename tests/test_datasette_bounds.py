"""Datasette hardened: our SQL functions keep its time limit (and a slow query cannot hold a light page), the
functions that leak the process's addresses are refused, a bad table parameter is a 400, and every answer
carries a Content-Security-Policy that allows exactly the inline scripts Datasette's pages run."""
import asyncio
import base64
import hashlib
import json
import re
import sqlite3
import threading
import time
from urllib.error import HTTPError
from urllib.parse import urlencode
from urllib.request import urlopen

import pytest

from kb.search import ask
from kb.store import connect
from service.browse import datasette
from service.browse import settings as datasette_settings
from service.sql_bounds import bound
from support.servers import running_server, searching

pytestmark = pytest.mark.serial

TIME_LIMIT = datasette_settings()["sql_time_limit_ms"] / 1000
# The issue's measure: a hostile query gets its answer or its error within 2 s. Queries stopped at the time limit
# get 1.5 s of margin past it for a loaded machine.
WITHIN = 2.0
STOPPED_WITHIN = TIME_LIMIT + 1.5
AS_WRITTEN = "select rulings_search('x', null) from rulings"
# Thousands of calls (146 rulings squared in the test database), each a different question: tens of seconds of
# searching if nothing stops it.
DISTINCT_CALLS = "select rulings_search(a.title || b.id, null) from rulings a, rulings b"
ROWS = "with recursive n(i) as (select 1 union all select i + 1 from n where i < {}) "


@pytest.fixture(scope="module")
def browse(built_db, tmp_path_factory):
    """A real `rulings browse` over the test database for the module: its base URL."""
    log = tmp_path_factory.mktemp("browse") / "browse.log"
    with running_server(built_db, ("browse",), log) as (port, _):
        searching(port)  # the question model loaded: no search below spends its time limit on that
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def ds(built_db):
    return datasette(built_db)


def fetch(url: str) -> tuple[int, bytes, dict, float]:
    """(status, body, headers with lower-case names, seconds) of a GET."""
    start = time.monotonic()
    try:
        with urlopen(url, timeout=60) as response:
            status, body, headers = response.status, response.read(), response.headers
    except HTTPError as error:
        status, body, headers = error.code, error.read(), error.headers
    return status, body, {k.lower(): v for k, v in headers.items()}, time.monotonic() - start


def sql_url(base: str, sql: str, extension: str = ".json") -> str:
    return f"{base}/rulings{extension}?" + urlencode({"sql": sql, "_size": "max"})


def get(ds, path: str, **params):
    """GET a Datasette path through its in-process client."""
    return asyncio.run(ds.client.get(path, params=params))


# --- the time limit holds for our functions ---------------------------------------------------------------

def test_the_issues_query_as_written_gets_the_right_answer_within_2_s(browse, built_db):
    status, body, _, seconds = fetch(sql_url(browse, AS_WRITTEN))
    assert status == 200 and seconds < WITHIN, (status, seconds)
    conn = connect(built_db)
    expected = json.dumps([ruling["id"] for ruling in ask(conn, "x", None)["results"]])
    count = conn.execute("select count(*) from rulings").fetchone()[0]
    conn.close()
    assert json.loads(body)["rows"] == [[expected]] * count


@pytest.mark.parametrize("extension", [".json", "", ".csv"])
def test_thousands_of_distinct_searches_stop_at_the_time_limit_with_a_4xx(browse, extension):
    status, body, _, seconds = fetch(sql_url(browse, DISTINCT_CALLS, extension))
    assert status == 400 and b"took too long" in body and seconds < STOPPED_WITHIN, (status, seconds, body[:300])
    assert b"Traceback" not in body


def test_three_hostile_queries_at_once_leave_a_light_page_answering(browse):
    answers = []
    hostile = [threading.Thread(target=lambda: answers.append(fetch(sql_url(browse, DISTINCT_CALLS))))
               for _ in range(3)]
    for thread in hostile:
        thread.start()
    time.sleep(0.2)  # all three running: Datasette's three SQL threads are taken
    status, body, _, seconds = fetch(f"{browse}/rulings/games.json?_shape=array")
    for thread in hostile:
        thread.join()
    assert status == 200 and json.loads(body) and seconds < STOPPED_WITHIN, (status, seconds)
    assert [(answer[0], answer[3] < STOPPED_WITHIN) for answer in answers] == [(400, True)] * 3, answers


def slow(value):
    """A function of 5 ms a call."""
    time.sleep(0.005)
    return value


def test_a_guarded_function_stops_its_statement_at_the_deadline_and_the_next_statement_has_its_own():
    conn = sqlite3.connect(":memory:")
    deadline = bound(conn, None, 0.3)
    conn.create_function("slow", 1, deadline.guard(slow))
    for _ in range(2):  # the same statement again (SQLite's cached one) gets a new deadline too
        start = time.monotonic()
        with pytest.raises(sqlite3.OperationalError, match="interrupted"):
            conn.execute(ROWS.format(1000) + "select slow(i) from n").fetchall()  # 5 s of calls
        assert time.monotonic() - start < 0.3 + 0.5
        assert conn.execute(ROWS.format(10) + "select sum(slow(i)) from n").fetchone() == (55,)


def test_sqlites_functions_replaced_in_python_stop_at_the_deadline_too():
    conn = sqlite3.connect(":memory:")
    bound(conn, None, 0.3)
    start = time.monotonic()
    with pytest.raises(sqlite3.OperationalError, match="interrupted"):  # seconds of printf calls
        conn.execute(ROWS.format(10**6) + "select printf('%d', i), instr(i, '7') from n").fetchall()
    assert time.monotonic() - start < 0.3 + 0.5


def test_a_question_asked_again_in_one_statement_is_answered_from_memory(ds):
    # A thousand rows (Datasette's most), each searching for its ruling's game: a handful of questions, each
    # searched once (a thousand searches would take seconds).
    start = time.monotonic()
    response = get(ds, "/rulings.json", sql="select b.game, rulings_search(b.game) as found from rulings a, rulings b",
                   _shape="array")
    assert response.status_code == 200 and time.monotonic() - start < WITHIN
    found = {}
    for row in response.json():
        found.setdefault(row["game"], set()).add(row["found"])
    assert all(len(answers) == 1 for answers in found.values())


# --- functions refused ------------------------------------------------------------------------------------

@pytest.mark.parametrize("sql", ["select fts3_tokenizer('simple')", "select hex(FTS3_TOKENIZER('porter'))",
                                 "select fts3_tokenizer('mine', x'0000000000000000')",
                                 "select 1 from sqlite_master where fts3_tokenizer('simple') is not null"])
@pytest.mark.parametrize("database", ["/rulings.json", "/_memory.json"])
def test_fts3_tokenizer_is_refused_in_both_its_forms(ds, database, sql):
    response = get(ds, database, sql=sql)
    assert response.status_code == 400
    assert response.json()["error"].lower() == "not authorized to use function: fts3_tokenizer"


# --- bad table parameters: a 400 naming them --------------------------------------------------------------

# Each answered a 500 before: the parameter our message names. The first ones are read by every table page;
# facets and _json_infinity by its JSON only.
OURS = [("_sort=nope", "_sort"), ("_sort=rowid", "_sort"), ("_sort_desc=nope", "_sort_desc"),
        ("_sort=id&_sort_desc=title", "_sort"), ("_where=1; select 1", "_where"), ("_where=\x00", "_where"),
        ("_through=nope", "_through"), ("_through={}", "_through"), ("_through=[]", "_through"),
        ('_through={"table": "x", "column": "y", "value": 1}', "_through"), ("_timelimit=abc", "_timelimit"),
        ("_facet={}", "_facet"), ('_facet={"simple": 1}', "_facet"), ("_facet_array={}", "_facet_array"),
        ("_facet_date=\x00", "_facet_date"), ("_json_infinity=maybe", "_json_infinity"),
        ("id__in=[1,2", "id__in"), ("game__gt=99999999999999999999", "game__gt")]
# Datasette's own 400s.
DATASETTES = ["_facet=nope", "_col=nope", "_nocol=nope", "_nocol=id", "_size=-1", "_size=99999999999",
              "_size=abc", "_where=nope", "_where=)", "_search=\"&_searchmode=raw", "_search_nope=x"]


def table_get(ds, path: str, query: str):
    """GET `path` with the parameters of `query` (name=value pairs joined by &, values as they are)."""
    return get(ds, path, **dict(part.split("=", 1) for part in query.split("&")))


EVERY_PAGE = OURS[:11] + OURS[-2:]


@pytest.mark.parametrize("query, name", OURS, ids=[query for query, _ in OURS])
def test_a_bad_table_parameter_is_a_400_naming_it(ds, query, name):
    response = table_get(ds, "/rulings/rulings.json", query)
    assert response.status_code == 400, response.text[:300]
    assert f"Bad {name} parameter" in response.json()["error"]


@pytest.mark.parametrize("path", ["/rulings/rulings", "/rulings/rulings.csv"])
@pytest.mark.parametrize("query, name", EVERY_PAGE, ids=[query for query, _ in EVERY_PAGE])
def test_a_bad_table_parameter_is_a_400_naming_it_on_the_html_page_and_the_csv_export(ds, path, query, name):
    response = table_get(ds, path, query)
    assert response.status_code == 400, response.text[:300]
    assert f"Bad {name} parameter" in response.text and "Traceback" not in response.text


@pytest.mark.parametrize("path", ["/rulings/rulings", "/rulings/rulings.json"])
@pytest.mark.parametrize("query", DATASETTES)
def test_other_bad_table_parameters_stay_datasettes_400(ds, path, query):
    response = table_get(ds, path, query)
    assert response.status_code == 400 and "Traceback" not in response.text


@pytest.mark.parametrize("path, query", [("/rulings/ruling_status.json", "_next=nope"),
                                         ("/rulings/ruling_status.json", "_next=99999999999999999999")])
def test_a_bad_next_page_on_a_table_without_a_primary_key_is_a_400(ds, path, query):
    response = table_get(ds, path, query)
    assert response.status_code == 400 and "Bad _next parameter" in response.text


@pytest.mark.parametrize("query", ["_next=garbage", "_search=\"", "_search=NEAR(", "_facet_size=-5"])
def test_odd_values_datasette_can_read_are_answered(ds, query):
    response = table_get(ds, "/rulings/rulings.json", query)
    assert response.status_code == 200


# --- facets: merged, capped, short values only ----------------------------------------------------------

def test_a_facet_asked_for_600_times_is_computed_once(browse):
    once_status, once, _, _ = fetch(f"{browse}/rulings/rulings.json?_facet=section")
    status, body, _, seconds = fetch(f"{browse}/rulings/rulings.json?" + "&".join(["_facet=section"] * 600))
    assert (once_status, status) == (200, 200) and seconds < WITHIN, (status, seconds)
    facets = json.loads(body)["facet_results"]
    assert "section" in facets and "section_2" not in facets
    assert len(body) < 1.5 * len(once)


@pytest.mark.parametrize("path", ["/rulings/rulings.json", "/rulings/rulings", "/rulings/rulings.csv"])
def test_more_facets_than_a_page_shows_is_a_400_naming_the_parameter(ds, path):
    asked = "&".join(f"_facet={column}" for column in ("game", "section", "label", "title", "kind", "page"))
    response = asyncio.run(ds.client.get(f"{path}?{asked}"))
    assert response.status_code == 400
    assert "Bad _facet parameter: a page shows at most 5 facets besides its own, not 6." in response.text
    assert "content-security-policy" in response.headers
    assert asyncio.run(ds.client.get(f"{path}?" + "&".join(asked.split("&")[:5]))).status_code == 200


@pytest.mark.parametrize("query", ["_facet=original_text", '_facet={"simple": "cleaned_text"}',
                                   "_facet_array=line_numbers"])
def test_a_facet_of_a_column_of_long_values_is_a_400_naming_it(ds, query):
    response = table_get(ds, "/rulings/sources.json", query)
    assert response.status_code == 400, response.text[:300]
    error = response.json()["error"]
    assert error.startswith(f"Bad {query.split('=')[0]} parameter") and "bytes" in error
    assert table_get(ds, "/rulings/sources.json", "_facet=kind").status_code == 200


# --- security headers -------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/rulings/rulings", "/rulings/rulings.json", "/-/static/app.css",
                                  "/-/static/table.js", "/nope", "/rulings/rulings.json?_sort=nope"])
def test_every_answer_carries_the_security_headers(browse, path):
    _, _, headers, _ = fetch(browse + path)
    assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"] == "same-origin"
    policy = headers["content-security-policy"]
    assert "script-src 'self' 'sha256-" in policy and "'unsafe-inline'" not in policy.split("style-src")[0]
    assert "object-src 'none'" in policy and "frame-ancestors 'none'" in policy


# Every kind of page Datasette serves, errors too.
PAGES = ["/", "/rulings", "/rulings/rulings", "/rulings/rulings?_facet=section",
         "/rulings/rulings/dragon-dice~2Fmagic~2Fgeneral~2Fm", "/rulings?sql=select+1", "/rulings/search?q=army",
         "/rulings/ruling_status", "/-/settings", "/-/versions", "/nope", "/rulings/rulings?_sort=nope",
         "/rulings?" + urlencode({"sql": DISTINCT_CALLS})]


@pytest.mark.parametrize("path", PAGES)
def test_the_policy_allows_each_inline_script_a_page_runs_and_no_other(ds, path):
    response = asyncio.run(ds.client.get(path))
    policy = response.headers["content-security-policy"]
    allowed = set(re.findall(r"'sha256-([^']+)'", policy))
    scripts = re.findall(r"<script(?: type=\"module\")?>(.*?)</script>", response.text, re.S)
    for script in scripts:
        assert base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() in allowed, script[:200]
    injected = "<script>alert(1)</script>"[8:-9]
    assert base64.b64encode(hashlib.sha256(injected.encode()).digest()).decode() not in allowed
