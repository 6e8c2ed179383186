"""Hostile requests to both servers: every input gets an answer or a 4xx (never a 500 or a traceback), echoed
input is escaped, the database is only ever read, and no path reaches a file outside it."""
import asyncio
import json
import re
import shutil
import sqlite3
import time
from pathlib import Path
from urllib.error import HTTPError
from urllib.parse import quote, unquote, urlencode
from urllib.request import urlopen

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from kb.search import MAX_K
from service.api import OPENAPI
from service.app import BASE_URL, create_app
from service.browse import datasette
from service.browse import settings as datasette_settings
from service.db import get_db
from service.params import MAX_QUERY
from service.sql_bounds import MAX_ROWS_SIZE, MAX_SQL, MAX_VALUE
from support.servers import running_server, searching

SCRIPT = '<script>alert("x")</script>'
# The one script a page loads: this server's copy-citation file.
OWN_SCRIPT = '<script src="/static/copy.js" defer></script>'
# Each of these, percent-encoded, goes into every input of every route.
HOSTILE = {
    "empty": "",
    "100000 characters": "x" * 100_000,
    "control characters": "magic\x00\x01\x08\x1b[31m\x7f\u202e",
    "fts quote": '"',
    "fts star": "*",
    "fts near": "NEAR(",
    "fts operator": "OR",
    "fts column filter": "text: magic AND ^reserve",
    "sql injection": "'; drop table rulings; --",
    "html": SCRIPT,
    "attribute breakout": '"><img src=x onerror=alert(1)>',
    "path separators": "../../etc/passwd",
}
# Invalid UTF-8 can only be written percent-encoded; these go into the URL as they are.
RAW = {"invalid utf-8": "%FF%FE", "overlong utf-8": "%C0%AE%C0%AE", "nul": "%00", "lone surrogate": "%ED%A0%80"}
ENCODED = {**{name: quote(value, safe="") for name, value in HOSTILE.items()}, **RAW}

# Every route that takes user input, with {} where the input goes.
PAGES = ["/?q={}", "/?q=magic&game={}", "/?q=magic&k={}", "/r/{}", "/r/dragon-dice/{}", "/games/{}",
         "/handbook/{}", "/sources/{}", "/sources/dragon-dice-faq-magic?lines={}", "/rules/{}", "/calc/{}",
         "/calc/dragon-dice?calc={}", "/calc/dragon-dice?calc=saves&rolled={}", "/calc/dragon-dice?calc=saves&{}=1",
         "/sources/{}/versions", "/sources/{}/diff", "/rules/dragon-dice-faq-magic/go?rule={}", "/rules/{}/go?rule=1",
         "/sources/dragon-dice-faq-magic/diff?moved={}", "/sources/dragon-dice-faq-magic/diff?from={}",
         "/sources/dragon-dice-faq-magic/diff?to={}", "/terms/{}/x", "/terms/dragon-dice/{}",
         "/calc/chess?calc=claim&claim=threefold&pgn={}", "/calc/chess?calc=position&fen={}"]
API = ["/api/search?q={}", "/api/search?q=magic&game={}", "/api/search?q=magic&k={}", "/api/search?q=magic&as_of={}",
       "/api/rulings/{}", "/api/calc/{}/saves", "/api/calc/dragon-dice/{}", "/api/calc/dragon-dice/saves?rolled={}",
       "/api/calc/dragon-dice/saves?{}=1", "/api/calc/chess/claim?claim=threefold&pgn={}",
       "/api/calc/chess/claim?claim=threefold&pgn=1.%20e4&move={}", "/api/calc/chess/move?move=e4&fen={}", "/api/sources/{}/versions", "/api/sources/{}/diff", "/api/terms/{}",
       "/api/terms/dragon-dice/{}",
       "/api/sources/dragon-dice-faq-magic/diff?from={}", "/api/sources/dragon-dice-faq-magic/diff?to={}"]


@pytest.fixture(scope="module")
def app(built_db):
    return create_app(built_db)


@pytest.fixture
def client(app):
    return app.test_client()


def assert_handled(response) -> str:
    """An answer or a client error, never a server error; returns the body."""
    body = response.get_data(as_text=True)
    assert response.status_code in {200, 400, 404}, (response.status_code, body[:300])
    assert "Traceback" not in body
    return body


@pytest.mark.parametrize("value", ENCODED.values(), ids=ENCODED.keys())
@pytest.mark.parametrize("route", API)
def test_hostile_input_to_the_api_is_answered_or_a_json_4xx(client, route, value):
    response = client.get(route.format(value))
    assert_handled(response)
    body = response.get_json()
    if response.status_code != 200:
        assert body["error"]["status"] == response.status_code and body["error"]["message"]
    elif route.startswith("/api/search"):
        assert isinstance(body["results"], list)


@pytest.mark.parametrize("value", ENCODED.values(), ids=ENCODED.keys())
@pytest.mark.parametrize("route", PAGES)
def test_hostile_input_to_a_page_is_answered_or_an_html_4xx_without_raw_markup(client, route, value):
    response = client.get(route.format(value))
    page = assert_handled(response)
    assert response.mimetype == "text/html"
    assert "<script" not in page.replace(OWN_SCRIPT, "") and "<img" not in page


@pytest.mark.parametrize("route", ["/?q={}", "/?q=magic&game={}", "/r/{}", "/games/{}", "/handbook/{}",
                                   "/sources/{}", "/rules/{}", "/calc/{}", "/terms/{}/x", "/terms/dragon-dice/{}",
                                   "/calc/dragon-dice?calc={}",
                                   "/calc/dragon-dice?calc=saves&rolled={}", "/calc/dragon-dice?calc=saves&{}=1",
                                   "/sources/{}/versions", "/sources/{}/diff", "/sources/dragon-dice-faq-magic/diff?to={}",
                                   "/rules/dragon-dice-faq-magic/go?rule={}", "/rules/{}/go?rule=1"])
def test_pages_that_echo_input_escape_it(client, route):
    opening = SCRIPT.split("</")[0]  # no slash, so it fits a path segment such as a game's slug
    page = client.get(route.format(quote(opening, safe=""))).get_data(as_text=True)
    assert "<script>" not in page
    assert "&lt;script&gt;" in page, "the input is echoed (escaped), so this route is really tested"


@pytest.mark.parametrize("url", ["/api/search", "/"])
def test_a_100000_character_query_is_a_400(client, url):
    response = client.get(url, query_string={"q": "x" * 100_000})
    assert response.status_code == 400 and f"at most {MAX_QUERY} characters" in response.get_data(as_text=True)


def test_a_query_at_the_length_limit_is_answered(client):
    response = client.get("/api/search", query_string={"q": ("magic " * MAX_QUERY)[:MAX_QUERY]})
    assert response.status_code == 200 and response.get_json()["results"]


def test_an_empty_query_is_a_400_from_the_api_and_the_bare_ask_page_from_the_site(client):
    assert client.get("/api/search?q=").status_code == 400
    page = client.get("/?q=")
    assert page.status_code == 200 and '<input type="search" id="q" name="q"' in page.get_data(as_text=True)
    assert '<article class="ruling"' not in page.get_data(as_text=True)


@pytest.mark.parametrize("url", ["/api/search", "/"])
def test_invalid_utf8_in_the_query_is_kept_percent_encoded_and_answered(client, url):
    response = client.get(url + "?q=reserve%20army%20magic%FF%FE")
    assert response.status_code == 200 and "reserve army magic%FF%FE" in response.get_data(as_text=True)


@pytest.mark.parametrize("query", ['"', "*", "NEAR(", "OR", "magic OR", 'reserve "army', "magic*", "-magic",
                                   "'; drop table rulings; --", "1=1; select * from rulings"])
def test_sql_and_fts_syntax_is_searched_as_plain_words(client, conn, query):
    response = client.get("/api/search", query_string={"q": query})
    assert response.status_code == 200 and response.get_json()["query"] == query
    assert conn.execute("select count(*) from rulings").fetchone()[0] > 0


@pytest.mark.parametrize("k, status", [("1", 200), (str(MAX_K), 200), ("007", 200), (str(MAX_K + 1), 400),
                                       ("0", 400), ("-1", 400), ("9" * 100, 400), ("9" * 5000, 400), ("1e3", 400),
                                       ("", 400), ("\uff15", 400), ("\u0665", 400), ("+5", 400), (" 5", 400),
                                       ("5_0", 400)])
def test_k_is_a_number_in_ascii_digits_and_capped(client, k, status):
    response = client.get("/api/search", query_string={"q": "magic", "k": k})
    assert response.status_code == status
    if status == 400:
        assert re.search(f"whole number, written in the digits 0-9|between 1 and {MAX_K}",
                         response.get_json()["error"]["message"])


def test_the_openapi_states_the_limits_the_app_enforces(client):
    spec = client.get("/api/openapi.json").get_json()
    params = {p["name"]: p for p in spec["paths"]["/search"]["get"]["parameters"]}
    assert params["q"]["schema"]["maxLength"] == MAX_QUERY and str(MAX_QUERY) in params["q"]["description"]
    assert params["k"]["schema"]["maximum"] == MAX_K and str(MAX_K) in params["k"]["description"]


# --- schemathesis: every API operation, generated inputs, checked against the OpenAPI description ---------

OPERATIONS = [operation["operationId"] for methods in json.loads(OPENAPI.read_text(encoding="utf-8"))["paths"].values()
              for operation in methods.values()]


# schemathesis's pytest integration (from_fixture) reads pytest internals gone in pytest 9: hypothesis drives
# its strategies directly. Valid and invalid inputs both, 30 per operation, the same ones every run.
@pytest.mark.slow
@pytest.mark.parametrize("operation_id", OPERATIONS)
def test_every_api_operation_conforms_to_its_openapi_description(app, operation_id):
    operation = schemathesis.openapi.from_wsgi("/api/openapi.json", app).find_operation_by_id(operation_id)
    valid_and_invalid = st.one_of(operation.as_strategy(GenerationMode.POSITIVE),
                                  operation.as_strategy(GenerationMode.NEGATIVE))

    @given(valid_and_invalid)
    @settings(max_examples=30, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def conforms(case):
        case.call_and_validate()  # every check: no 5xx, status codes, content types, response schemas...

    conforms()


# The calculate operation's game and calculator are free strings, so the generated cases above rarely reach one
# calculator: the chess calculators, whose inputs are free text (a game's record, a FEN, a move), each get their
# own cases, the inputs generated as text of every kind and as real records, positions and moves.
CHESS_INPUTS = {
    "pgn": ["1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 4. Ke2 Ke7 5. Ke1 Ke8 6. Ke2 Ke7", "1. f3 e5 2. g4 Qh4#", "1. e4 e5 2. Ke3",
            "[Event \"x\"]\n\n1. e4 {a comment} (1. d4) e5 $1 1/2-1/2"],
    "claim": ["threefold", "fifty-moves", "fivefold"],
    "move": ["Nf3", "e2e4", "O-O", "e7e8q", "Kxe8", "0-0-0"],
    "fen": ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "k7/8/1Q6/8/8/8/8/7K b - - 0 1",
            "8/8/8/8/8/8/8/8 w - - 0 1", "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1"],
}


@pytest.mark.parametrize("calc, params", [("claim", ("pgn", "claim", "move", "fen")), ("position", ("fen",)),
                                          ("move", ("fen", "move"))])
def test_the_chess_calculators_conform_to_the_openapi_description(app, calc, params):
    operation = schemathesis.openapi.from_wsgi("/api/openapi.json", app).find_operation_by_id("calculate")
    value = {name: st.sampled_from(CHESS_INPUTS[name]) | st.text(max_size=120) for name in params}

    @given(operation.as_strategy(GenerationMode.POSITIVE), st.fixed_dictionaries({}, optional=value))
    @settings(max_examples=30, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def conforms(case, query):
        case.path_parameters = {"game": "chess", "calc": calc}
        case.query = query
        # Every check but the acceptance of schema-valid data: these inputs are the calculator's, not the schema's,
        # and a refused one must get a 400 (asserted here).
        response = case.call_and_validate(excluded_checks=[positive_data_acceptance])
        assert response.status_code in (200, 400), (query, response.text[:300])

    conforms()


# --- read-only serving and no way out of the database ----------------------------------------------------

def test_the_web_apps_connection_refuses_writes(app, built_db):
    before = Path(built_db).read_bytes()
    with app.app_context(), pytest.raises(sqlite3.OperationalError, match="readonly"):
        get_db().execute("delete from games")
    assert Path(built_db).read_bytes() == before


def test_datasette_stops_a_runaway_query_at_its_time_limit(built_db):
    endless = "with recursive n(i) as (select 1 union all select i + 1 from n) select count(*) from n"
    response = asyncio.run(datasette(built_db).client.get("/rulings.json", params={"sql": endless}))
    assert response.status_code == 400 and "too long" in response.text


# --- URLs in answers: from the configured base URL, never from the request's Host ------------------------

EVIL = {"Host": "evil.example"}


@pytest.mark.parametrize("base_url", [None, "https://rulings.example.org"])
def test_the_apis_urls_start_with_the_configured_base_url_whatever_host_is_asked(built_db, base_url):
    client = (create_app(built_db, base_url=base_url) if base_url else create_app(built_db)).test_client()
    base = base_url or BASE_URL
    ruling = client.get("/api/rulings/dragon-dice/magic/general/m", headers=EVIL)
    assert ruling.get_json()["url"] == f"{base}/r/dragon-dice/magic/general/m"
    calc = client.get("/api/calc/paths-of-the-lance/victory", query_string={"points": "14"}, headers=EVIL)
    assert [link["url"] for link in calc.get_json()["rulings"]] == [f"{base}/r/paths-of-the-lance/new-rules/g"]
    for response in (ruling, calc):
        assert b"evil.example" not in response.get_data()


@pytest.mark.parametrize("path", ["/games//dragon-dice", "/r//dragon-dice/magic/general/m?x=1", "/api//games"])
def test_a_redirect_names_no_host(client, path):
    response = client.get(path, headers=EVIL)
    assert response.status_code == 308 and response.location == path.replace("//", "/")
    assert b"evil.example" not in response.get_data()


@pytest.mark.parametrize("path", ["/rulings/rulings.json?_size=2", "/rulings/rulings?_size=2",
                                  "/rulings/rulings.json?_facet=game&_size=1", "/rulings"])
def test_datasettes_urls_start_with_its_configured_base_url_whatever_host_is_asked(built_db, path):
    ds = datasette(built_db, base_url="https://data.example.org")
    response = asyncio.run(ds.client.get(path, headers=EVIL))
    assert response.status_code == 200 and "https://data.example.org/rulings" in response.text + str(response.headers)
    assert "evil.example" not in response.text + str(response.headers)


# --- one query on Datasette: bounded memory, ended near the time limit ----------------------------------

TIME_LIMIT = datasette_settings()["sql_time_limit_ms"] / 1000
ROWS = "with recursive n(i) as (select 1 union all select i + 1 from n where i < {}) "
# Each asks SQLite for more than a value may hold, or for work quadratic in its arguments' lengths, in one call
# of a function (which SQLite's progress handler, Datasette's time limit, never interrupts).
TOO_BIG = {
    "printf 100,000,000 x over 10 rows": ROWS.format(10) + "select printf('%.*c', 100000000, 'x') from n",
    "length of printf 900,000,000 x": "select length(printf('%.*c', 900000000, 'x'))",
    "format with a literal precision": "select length(format('%.900000000c', 'x'))",
    "zeroblob": "select length(zeroblob(900000000))",
    "instr": "select instr(printf('%.*c', 1000000, 'a'), printf('%.*c', 500000, 'a') || 'b')",
    "replace": "select replace(printf('%.*c', 1000000, 'a'), printf('%.*c', 500000, 'a') || 'b', '')",
    "trim": "select trim(printf('%.*c', 1000000, 'a'), printf('%.*c', 70000, 'b') || 'a')",
    "like": "select printf('%.*c', 1000000, 'a') like '%' || printf('%.*c', 50000, 'a') || 'b'",
    "glob": "select printf('%.*c', 1000000, 'a') glob '*' || printf('%.*c', 50000, 'a') || 'b'",
}


@pytest.fixture(scope="module")
def ds(built_db):
    return datasette(built_db)


def timed_get(ds, path: str, **params):
    """(response, seconds) of a GET through Datasette's in-process client."""
    start = time.monotonic()
    response = asyncio.run(ds.client.get(path, params=params))
    return response, time.monotonic() - start


# Datasette has Python print the traceback of every SQL function that fails: here, each refusal.
REFUSALS_PRINTED = pytest.mark.filterwarnings("ignore:Exception ignored in. <.*Builtins:"
                                              "pytest.PytestUnraisableExceptionWarning")


@REFUSALS_PRINTED
@pytest.mark.parametrize("database", ["/rulings.json", "/_memory.json"])
@pytest.mark.parametrize("sql", TOO_BIG.values(), ids=TOO_BIG.keys())
def test_a_function_asked_for_too_much_fails_at_once(ds, database, sql):
    response, seconds = timed_get(ds, database, sql=sql)
    assert response.status_code == 400 and response.json()["error"] == "string or blob too big"
    assert len(response.content) < 10_000 and seconds < TIME_LIMIT + 2


def test_rows_past_the_size_bound_fail_with_a_message(ds):
    sql = ROWS.format(MAX_ROWS_SIZE // MAX_VALUE + 1) + f"select printf('%.*c', {MAX_VALUE - 1}, 'x') from n"
    response, seconds = timed_get(ds, "/rulings.json", sql=sql, _size="max")
    assert response.status_code == 400 and f"pass {MAX_ROWS_SIZE // 2**20} MiB" in response.json()["error"]
    assert len(response.content) < 10_000 and seconds < TIME_LIMIT + 2


@pytest.mark.serial
def test_a_row_of_as_many_calls_on_long_values_as_a_statement_holds_ends_near_the_time_limit(ds):
    head, call = f"with t(x) as (select printf('%.*c', {MAX_VALUE - 1}, 'x')) select ", "length(upper(x))"
    sql = head + ", ".join([call] * ((MAX_SQL - len(head) - 10) // (len(call) + 2))) + " from t"
    response, seconds = timed_get(ds, "/rulings.json", sql=sql)
    assert response.status_code in {200, 400} and seconds < TIME_LIMIT + 5
    longer, _ = timed_get(ds, "/rulings.json", sql=sql + " " * MAX_SQL)
    assert longer.status_code == 400 and longer.json()["error"] == "query string is too large"


@REFUSALS_PRINTED
def test_a_value_the_database_holds_is_read_whole_however_long(built_db, tmp_path):
    path, long = tmp_path / "rulings.db", "x" * (MAX_VALUE * 3 // 2)
    shutil.copy(built_db, path)
    with sqlite3.connect(path) as conn:
        conn.execute("update games set publisher = ? where slug = 'dragon-dice'", (long,))
    conn.close()
    ds = datasette(path)
    response, _ = timed_get(ds, "/rulings.json", sql="select publisher from games where slug = 'dragon-dice'",
                            _shape="array")
    assert response.status_code == 200 and response.json() == [{"publisher": long}]
    refused, _ = timed_get(ds, "/rulings.json", sql=f"select printf('%.*c', {4 * len(long)}, 'x')")
    assert refused.status_code == 400 and refused.json()["error"] == "string or blob too big"


# Within the bounds, each replaced function answers as SQLite's own does.
SAME = ["printf('%5.2f|%-5s|%.*c|%%|%d|%!.3c|%,d', 3.14159, 'ab', 3, 'z', 7, 'é', 1234567)", "printf('%.0c', 'x')",
        "format('%q|%Q|%w', 'it''s', null, 'a\"b')", "printf(null)", "printf(12)", "printf('%*d', -4, 2)",
        "instr('hello', 'l')", "instr(x'0102', x'02')", "instr(null, 'a')", "instr(1234, 3)",
        "replace('aXbX', 'X', 'yy')", "replace('abc', '', 'z')", "replace(12.5, '.', ',')",
        "trim('xxaxx', 'x')", "ltrim('  a ')", "rtrim('abcc', 'c')",
        "'Abc' like 'a%'", r"'a_c' like 'a\_c' escape '\'", "'abc' glob 'a*'", "'ABC' glob 'a*'", "like('%b', 'ab')"]


@pytest.mark.parametrize("expression", SAME)
def test_bounded_functions_answer_as_sqlites_own(ds, expression):
    expected = sqlite3.connect(":memory:").execute(f"select {expression}").fetchone()[0]
    response, _ = timed_get(ds, "/_memory.json", sql=f"select {expression} as answer", _shape="array")
    assert response.status_code == 200 and response.json() == [{"answer": expected}]


def peak_memory_mb(pid: int) -> float:
    """The peak resident memory of a process so far (VmHWM), in MB."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) / 1024


@pytest.mark.serial
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads peak memory from /proc")
def test_no_query_takes_the_datasette_server_past_a_memory_bound(built_db, tmp_path):
    def row_of(value: str) -> str:  # 200 columns of 1 MiB: a row of 200 MiB
        return "select " + ", ".join(f"{value} as c{i}" for i in range(200))
    refusals = {TOO_BIG["printf 100,000,000 x over 10 rows"]: "string or blob too big",
                TOO_BIG["length of printf 900,000,000 x"]: "string or blob too big",
                ROWS.format(1000) + f"select printf('%.*c', {MAX_VALUE - 1}, 'x') from n": "the rows of this query pass",
                row_of(f"printf('%.*c', {MAX_VALUE - 1}, 'x')"): "needs more memory than the server gives",
                row_of(f"zeroblob({MAX_VALUE - 1})"): "needs more memory than the server gives"}
    with running_server(built_db, ("browse",), tmp_path / "browse.log") as (port, server):
        searching(port)  # the question model loaded (its memory counts all the same): no refusal races the load
        for sql, message in refusals.items():
            start = time.monotonic()
            with pytest.raises(HTTPError) as refused:
                urlopen(f"http://127.0.0.1:{port}/rulings.json?" + urlencode({"sql": sql, "_size": "max"}), timeout=60)
            body = refused.value.read()
            assert refused.value.code == 400 and message in json.loads(body)["error"] and len(body) < 10_000
            assert time.monotonic() - start < TIME_LIMIT + 3
        assert json.load(urlopen(f"http://127.0.0.1:{port}/_memory.json?sql=select+6*7+as+a&_shape=array")) == \
            [{"a": 42}]
        assert peak_memory_mb(server.pid) < 1024  # the model and Datasette take about 230 MB of it


# Each names a file outside the database: the system's, or our own source next to the static folder.
TRAVERSALS = ["/static/../../etc/passwd", "/static/%2e%2e/%2e%2e/etc/passwd", "/static/..%2f..%2fetc%2fpasswd",
              "/static/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/static/..%5c..%5cetc%5cpasswd",
              "/static/....//....//etc/passwd", "/static/%252e%252e/%252e%252e/etc/passwd", "/static/../app.py",
              "/static/%2e%2e/app.py", "/static//etc/passwd", "/sources/..%2f..%2fetc%2fpasswd",
              "/sources/../../etc/passwd", "/r/../../etc/passwd", "/handbook/..%2f..%2fservice%2fapp.py"]
DATASETTE_TRAVERSALS = ["/-/static/../../etc/passwd", "/-/static/%2e%2e/%2e%2e/etc/passwd",
                        "/-/static/..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd", "/-/static/../app.py",
                        "/-/static/%2e%2e/app.py", "/-/static/..%2fapp.py", "/-/static-plugins/x/..%2f..%2fapp.py",
                        "/rulings/..%2f..", "/rulings/..%2f..%2f..%2fetc%2fpasswd", "/..%2f..%2fetc%2fpasswd",
                        "/rulings/~2E~2E~2F~2E~2E~2Fetc~2Fpasswd"]
OUTSIDE = ["root:x:0:", "def create_app", "class Datasette"]


def assert_nothing_leaks(body: bytes) -> None:
    assert not any(secret.encode() in body for secret in OUTSIDE), body[:200]


@pytest.mark.parametrize("path", TRAVERSALS)
def test_no_path_on_the_web_app_reads_a_file_outside_the_database(client, path):
    response = client.get(path, follow_redirects=True)
    assert response.status_code in {400, 404}
    assert_nothing_leaks(response.get_data())


def asgi_get(app, raw_path: str) -> tuple[int, bytes, dict]:
    """GET `raw_path` sent as is (no client normalising its dots), as an ASGI server such as uvicorn would pass it."""
    messages = []
    path, _, query = raw_path.partition("?")
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": unquote(path), "raw_path": path.encode(), "query_string": query.encode(), "root_path": "",
             "headers": [(b"host", b"localhost")], "server": ("localhost", 80), "client": ("127.0.0.1", 1)}

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        messages.append(message)

    asyncio.run(app(scope, receive, send))
    start = next(m for m in messages if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body")
    return start["status"], body, {k.decode().lower(): v.decode() for k, v in start["headers"]}


@pytest.mark.parametrize("path", DATASETTE_TRAVERSALS)
def test_no_path_on_datasette_reads_a_file_outside_the_database(built_db, path):
    app = datasette(built_db).app()
    for _ in range(3):  # Datasette answers some of these with a redirect to a tilde-encoded name: follow it
        status, body, headers = asgi_get(app, path)
        assert_nothing_leaks(body)
        if status not in {301, 302}:
            break
        path = headers["location"]
    assert status in {400, 404}, (status, path)


@pytest.mark.parametrize("path", ["/a/b/c/d/e/f", "/-/static-plugins/x/y", "/-/nope"])
def test_datasette_answers_a_url_no_route_matches_with_a_404(built_db, path):
    status, body, _ = asgi_get(datasette(built_db).app(), path)
    assert status == 404 and b"Traceback" not in body
