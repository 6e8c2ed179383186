"""Hostile requests to both servers: every input gets an answer or a 4xx (never a 500 or a traceback), echoed
input is escaped, the database is only ever read, and no path reaches a file outside it."""
import asyncio
import json
import sqlite3
from pathlib import Path
from urllib.parse import quote, unquote

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from kb.search import MAX_K
from service.api import OPENAPI
from service.app import create_app
from service.browse import datasette
from service.db import get_db
from service.params import MAX_QUERY

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
         "/sources/{}/versions", "/sources/{}/diff", "/sources/dragon-dice-faq-magic/diff?from={}",
         "/sources/dragon-dice-faq-magic/diff?to={}"]
API = ["/api/search?q={}", "/api/search?q=magic&game={}", "/api/search?q=magic&k={}", "/api/search?q=magic&as_of={}",
       "/api/rulings/{}", "/api/calc/{}/saves", "/api/calc/dragon-dice/{}", "/api/calc/dragon-dice/saves?rolled={}",
       "/api/calc/dragon-dice/saves?{}=1", "/api/sources/{}/versions", "/api/sources/{}/diff",
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
                                   "/sources/{}", "/rules/{}", "/calc/{}", "/calc/dragon-dice?calc={}",
                                   "/calc/dragon-dice?calc=saves&rolled={}", "/calc/dragon-dice?calc=saves&{}=1",
                                   "/sources/{}/versions", "/sources/{}/diff", "/sources/dragon-dice-faq-magic/diff?to={}"])
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


@pytest.mark.parametrize("k, status", [("1", 200), (str(MAX_K), 200), (str(MAX_K + 1), 400), ("0", 400),
                                       ("-1", 400), ("9" * 100, 400), ("1e3", 400), ("", 400)])
def test_k_is_capped(client, k, status):
    assert client.get("/api/search", query_string={"q": "magic", "k": k}).status_code == status


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
