"""The Datasette plugin `rulings browse` loads: the web app's search inside Datasette's SQL, and links between
Datasette's rows and the web app's pages.

- `rulings_answer(q[, game[, k]])`: the answer the web app, the API and `rulings ask` give a plain-words question
  (`kb.search.ask`), as JSON: its outcome and its claim, its rulings in the order shown and their rule families;
  the "Search rulings" canned query lists it row by row. `rulings_search(q[, game[, k]])` gives the ids of its
  rulings in that order (a JSON array, for `json_each`), `rulings_outcome(...)` its outcome; `k` is 5 when not
  given. The question model loads in the background when Datasette starts; without it, these fail and
  everything else works.
- `rulings_diff(source, from, to)`: what changed between two editions of a source as the web app's diff page
  and `rulings diff` list it (`kb.editions.diff`, section by section), a JSON array of `{"change", "id", "ref",
  "from_ref", "section", "before", "after"}` for `json_each`; the "What changed" canned query lists it.
- `escape_fts(q)`, which Datasette's table search calls on what is typed in its search box, matches ANY of the
  question's content words (quoted, so no FTS syntax gets through), as the web app's full-text step does:
  Datasette's own version needs every word, so a question in plain words found nothing. Both read a question up
  to the web app's limit on its length (MAX_QUERY characters).
- Every connection is bounded (service/sql_bounds.py): no query can take more than a bounded memory, and each of
  our functions checks Datasette's time limit itself (SQLite's check, between instructions, cannot stop a
  hundred calls of tens of milliseconds); `rulings_search` answers a question it was asked before in the same
  statement from memory.
- A query's `game` parameter is a choice of the database's games (templates/query.html), not free text.
- A ruling's or a source's title cell links to its page in the web app (`app_url` in the plugin's metadata), a
  source version's version to what changed in it, a ruling history row's ruling id to the ruling's page.
- A table's column descriptions fold into a "What each column means" disclosure, so the rows come first.
- A table page's parameter Datasette cannot use (`_sort` by no such column, `_where` of two statements, ...) is a
  400 naming it, not a server error.
- Every answer carries a Content-Security-Policy (scripts only from Datasette's own files, and the inline scripts
  its templates and this plugin write, by hash), `X-Content-Type-Options: nosniff` and a Referrer-Policy.
"""
from __future__ import annotations

import base64
import hashlib
import html
import json
import re
import sqlite3
import sys
import threading
from pathlib import Path
from urllib.parse import quote

import datasette as datasette_package
import jinja2
from datasette import hookimpl
from datasette.database import QueryInterrupted
from datasette.views.base import DatasetteError
from markupsafe import Markup, escape

from kb.editions import UnknownEdition, by_section, diff
from kb.onnx_embedder import embedder
from kb.query import fts_query
from kb.search import DEFAULT_K, MAX_K, ask
from kb.store import connect
from service.params import MAX_QUERY
from service.sql_bounds import Deadline, bound

NAME = "rulings"
# Tables whose rows have a page in the web app: the column that links there, and the page's path (filled in with
# the row's columns).
APP_PAGES = {"rulings": ("title", "/r/{id}"), "sources": ("title", "/sources/{id}"),
             "source_versions": ("version", "/sources/{source}/diff?to={version}"),
             "ruling_history": ("ruling_id", "/r/{ruling_id}")}
FIELD = re.compile(r"\{(\w+)\}")
# Datasette's input for a query parameter named game (its template writes each parameter so).
GAME_INPUT = re.compile(r'<input type="text" id="(qp\d+)" name="game" value="([^"]*)">')
FOLD_DESCRIPTIONS = """
document.querySelectorAll("dl.column-descriptions").forEach(function (dl) {
  var details = document.createElement("details"), summary = document.createElement("summary");
  summary.textContent = "What each column means";
  dl.replaceWith(details);
  details.append(summary, dl);
});
"""


def any_words(text: str | None) -> str:
    """An FTS5 query matching any content word of `text` (up to MAX_QUERY characters); one that matches nothing if
    it has none."""
    return fts_query((text or "")[:MAX_QUERY]) or '""'


def searcher(db_path: str, deadline: Deadline):
    """`rulings_answer(q[, game[, k]])`, the answer `kb.search.ask` gives, as JSON: the object the web app, the API
    and `rulings ask` show, its rulings in their order and groups; `rulings_search(...)`, the ids of its rulings
    in that order, as JSON; and `rulings_outcome(...)`, what it may claim (answer, closest or not-covered;
    `kb.answered`); over the database at `db_path`, opened read-only on first use. `k` is how many rulings (5, as
    everywhere, when absent or empty). Within one statement (`deadline`'s), a question asked again is answered from
    memory."""
    opened = []

    def search(question: str, game: str | None, k: int) -> dict:
        if not opened:
            opened.append(connect(db_path))
        return ask(opened[0], question, game, k)

    def answered(question: str | None, game: str | None, k: int | str | None) -> dict | None:
        if not question or not question.strip():
            return None
        key = (question[:MAX_QUERY], game or None, rulings_wanted(k))
        if game and len(game) > MAX_QUERY:  # no game is named so: not worth keeping
            return search(*key)
        return deadline.remembered(key, lambda: search(*key))

    def rulings_answer(question: str | None, game: str | None = None, k: int | str | None = None) -> str | None:
        found = answered(question, game, k)
        return json.dumps(found, ensure_ascii=False) if found else None

    def rulings_search(question: str | None, game: str | None = None, k: int | str | None = None) -> str:
        found = answered(question, game, k)
        return json.dumps([ruling["id"] for ruling in found["results"]]) if found else "[]"

    def rulings_outcome(question: str | None, game: str | None = None, k: int | str | None = None) -> str | None:
        found = answered(question, game, k)
        return found["outcome"] if found else None

    return {"rulings_answer": rulings_answer, "rulings_search": rulings_search, "rulings_outcome": rulings_outcome}


def rulings_wanted(k: int | str | None) -> int:
    """How many rulings a search asks for: `k` (a whole number from 1 to MAX_K; a query's form gives it as text),
    else DEFAULT_K; ValueError names any other value."""
    if k is None or str(k).strip() == "":
        return DEFAULT_K
    if not re.fullmatch(r"[0-9]{1,3}", str(k).strip()) or not 1 <= int(k) <= MAX_K:
        raise ValueError(f"k must be a whole number from 1 to {MAX_K}, not {str(k)[:20]!r}")
    return int(k)


def differ(db_path: str):
    """`rulings_diff(source, from, to)` over the database at `db_path`, opened read-only on first use: `from` empty
    is the edition before `to`, `to` empty the current one; no source, no entries; an unknown source or version
    fails naming it."""
    opened = []

    def rulings_diff(source: str | None, since: str | None = None, until: str | None = None) -> str:
        if not source:  # the query's form before a source is chosen
            return "[]"
        if not opened:
            opened.append(connect(db_path))
        try:
            found = diff(opened[0], source or "", since or None, until or None)
        except UnknownEdition as exc:
            raise ValueError(str(exc)) from None
        before = {row["ruling_id"]: row["text"] for row in found["removed"]}
        before.update({row["id"]: row["before"] for row in found["moved"] + found["changed"]})
        return json.dumps([{"change": entry["change"], "id": entry["id"], "ref": entry["ref"],
                            "from_ref": entry.get("from_ref"), "section": entry["section"],
                            "before": before.get(entry["id"]), "after": None if entry["change"] == "removed"
                            else entry["text"]} for section in by_section(opened[0], found)
                           for entry in section["entries"]], ensure_ascii=False)
    return rulings_diff


@hookimpl(trylast=True)  # after Datasette's own escape_fts, which this one replaces
def prepare_connection(conn, database, datasette):
    # Datasette also prepares connections to databases it does not list (the "_memory" one /-/versions.json
    # opens), and ones without a file (_memory, _internal): only a database file has rulings to search.
    db = datasette.databases.get(database)
    deadline = bound(conn, db.path if db is not None else None, datasette.setting("sql_time_limit_ms") / 1000)
    conn.create_function("escape_fts", 1, deadline.guard(any_words), deterministic=True)
    if db is not None and db.path:
        # Deterministic (the database is immutable): SQLite calls it once for a question that is the same on
        # every row.
        for name, function in searcher(db.path, deadline).items():
            guarded = deadline.guard(function)
            for arity in (1, 2, 3):
                conn.create_function(name, arity, guarded, deterministic=True)
        conn.create_function("rulings_diff", 3, deadline.guard(differ(db.path)), deterministic=True)


@hookimpl
def startup(datasette):
    # Datasette answers at once while the question model loads in the background, so that the first search
    # does not spend its SQL time limit on loading it. Not a daemon: a process ending while onnxruntime is
    # loading would abort.
    threading.Thread(target=warm_up, name="rulings-warm-up").start()


def warm_up() -> None:
    """Load the question model; if it cannot be, say that plain-words search is unavailable (the rest of
    Datasette works without it)."""
    try:
        embedder().embed("warm up")
    except Exception as exc:  # whatever stops the model (not exported, a broken file) stops only the search
        print(f"rulings browse: plain-words search (rulings_search, rulings_answer, the \"Search rulings\" query) is unavailable: "
              f"{exc}", file=sys.stderr, flush=True)


@hookimpl
def render_cell(row, value, column, table, database, datasette):
    page = APP_PAGES.get(table)
    if page is None or column != page[0] or value is None:
        return None
    app_url = (datasette.plugin_config(NAME, database=database) or {}).get("app_url")
    if not app_url:
        return None
    needed = FIELD.findall(page[1])
    if not set(needed) <= set(row.keys()):  # a column the path needs is hidden (?_nocol=)
        return None
    # A table page gives a foreign key as {"value", "label"}.
    fields = {key: row[key]["value"] if isinstance(row[key], dict) else row[key] for key in needed}
    href = app_url.rstrip("/") + page[1].format_map({key: quote(str(found), safe="/") for key, found in fields.items()})
    return Markup(f'<a href="{escape(href)}" title="Open in the web app">{escape(value)}</a>')


@hookimpl
def extra_template_vars(template, database, datasette):
    if template != "query.html":  # the one template that offers the games (templates/query.html)
        return None

    async def games():
        db = datasette.databases.get(database)
        if db is None or not await db.table_exists("games"):
            return {"games": []}
        return {"games": [(row["slug"], row["name"]) for row in
                          await db.execute("select slug, name from games order by name")]}
    return games


@hookimpl
def prepare_jinja2_environment(env):
    env.filters["game_choices"] = game_choices


def game_choices(page: str, games: list[tuple[str, str]]) -> Markup:
    """`page` (HTML) with its text input for a `game` parameter made a select of `games` ((slug, name) pairs) and
    "All games" (empty), the one it held chosen."""
    def select(found: re.Match) -> str:
        chosen = html.unescape(found.group(2))
        options = [("", "All games"), *games] + ([] if chosen in {"", *dict(games)} else [(chosen, chosen)])
        return (f'<select id="{found.group(1)}" name="game">'
                + "".join(f'<option value="{escape(slug)}"{" selected" if slug == chosen else ""}>{escape(name)}'
                          "</option>" for slug, name in options) + "</select>")
    return Markup(GAME_INPUT.sub(select, str(page))) if games else Markup(page)


# Table-page parameters (a pattern of their names) whose bad values Datasette answers with a server error: the
# errors a bad value raises there, and what the parameter takes. (A DatasetteError's status is 500 unless it says
# otherwise.)
PARAMETERS = {
    "_sort": (DatasetteError, "a column of the table (not rowid when the table has a primary key), "
                              "without _sort_desc"),
    "_sort_desc": (DatasetteError, "a column of the table, without _sort"),
    "_through": ((ValueError, LookupError, TypeError, DatasetteError),
                 'JSON {"table": ..., "column": ..., "value": ...} naming a table with a foreign key to this one'),
    "_timelimit": (ValueError, "a whole number of milliseconds"),
    "_where": (sqlite3.ProgrammingError, "one SQL condition, not more statements"),
    "_next": ((ValueError, sqlite3.IntegrityError), "the token of the next page that a page gave (its next_url)"),
    "_facet(_array|_date)?": ((LookupError, TypeError, sqlite3.ProgrammingError), "a column's name"),
    "_json_infinity": (ValueError, "on or off (1, 0, true, false)"),
    r"[^_].*__\w+": ((ValueError, OverflowError),
                     "a value for that filter: a JSON list for __in and __notin, numbers of at most 18 digits"),
}


def parameter_fault(request, exception: Exception) -> str | None:
    """What is wrong with the request, when `exception` is the error a bad value of one of its PARAMETERS
    raises in Datasette; None when it is not (a fault of the server)."""
    if isinstance(exception, DatasetteError) and exception.status != 500:
        return None
    for pattern, (errors, takes) in PARAMETERS.items():
        for name in request.args:
            if re.fullmatch(pattern, name) and isinstance(exception, errors):
                said = exception.message if isinstance(exception, DatasetteError) else str(exception)
                return f"Bad {name} parameter{f' ({said})' if said else ''}: {name} takes {takes}."
    return None


@hookimpl
def handle_exception(datasette, request, exception):
    from datasette.handle_exception import handle_exception as answer

    # SQLite's memory is capped (sql_bounds.limit_heap): a query that needs more is refused as too big, as a
    # query error is, rather than a server error.
    if isinstance(exception, MemoryError):
        return answer(datasette, request, DatasetteError(
            "This query needs more memory than the server gives one query: ask for fewer rows or columns, or "
            "shorter values (e.g. substr(text, 1, 1000)).", title="Query too big", status=400))
    # A query stopped at the time limit: Datasette's own page for it runs an inline script (which the CSP would
    # refuse), and its CSV export answers it with a server error.
    if isinstance(exception, QueryInterrupted) or (isinstance(exception, DatasetteError)
                                                   and isinstance(exception.__context__, QueryInterrupted)):
        return answer(datasette, request, DatasetteError(
            f"SQL query took too long: the time limit is {datasette.setting('sql_time_limit_ms')} ms.",
            title="SQL Interrupted", status=400))
    fault = parameter_fault(request, exception)
    if fault:
        return answer(datasette, request, DatasetteError(fault, title="Invalid parameter", status=400))
    return None  # Datasette's own answer: a 500, its traceback logged


# Inline scripts in Datasette's templates (and ours) are allowed by their hash; the one that writes a value gets
# it from here.
TEMPLATE_DIRS = (Path(datasette_package.__file__).parent / "templates",
                 Path(__file__).parent / "datasette" / "templates")
INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


def inline_scripts(datasette) -> set[str]:
    """The text of every inline script Datasette's pages can hold: those its templates and ours write (one
    writes a setting, rendered as Datasette does), and this plugin's extra_body_script."""
    values = {"datasette_allow_facet": "true" if datasette.setting("allow_facet") else "false"}
    found = {FOLD_DESCRIPTIONS}
    for folder in TEMPLATE_DIRS:
        for template in folder.glob("*.html"):
            for script in INLINE_SCRIPT.findall(template.read_text(encoding="utf-8")):
                found.add(jinja2.Template(script, autoescape=True, keep_trailing_newline=True).render(values)
                          if "{{" in script else script)
    return found


def security_headers(datasette) -> list[tuple[bytes, bytes]]:
    """The headers every answer carries: scripts from this server only (and the inline scripts it writes, by their
    SHA-256), styles from it and inline (Datasette's pages write style attributes), nothing from elsewhere."""
    hashes = " ".join(sorted(f"'sha256-{base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()}'"
                             for script in inline_scripts(datasette)))
    policy = (f"default-src 'self'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; "
              "img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
    return [(b"content-security-policy", policy.encode()), (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"same-origin")]


@hookimpl
def asgi_wrapper(datasette):
    headers = security_headers(datasette)
    names = {name for name, _ in headers}

    def wrap(app):
        async def with_headers(scope, receive, send):
            if scope["type"] == "http" and not scope.get("query_string") and _bare_rulings(scope["path"], datasette):
                await _redirect(send, scope["path"] + "?" + READABLE_COLUMNS, headers)
                return

            async def sending(message):
                if message["type"] == "http.response.start":
                    kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names]
                    message = {**message, "headers": kept + headers}
                await send(message)
            await app(scope, receive, sending if scope["type"] == "http" else send)
        return with_headers
    return wrap


# The rulings table opened bare shows what a reader needs (its title links to the web app's page; the id to the row
# with every column, offsets included); any query string, such as the description's "every column" link, shows
# what it asks for.
READABLE_COLUMNS = "&".join(f"_col={c}" for c in ("ref", "title", "game", "source", "text"))


def _bare_rulings(path: str, datasette) -> bool:
    parts = path.strip("/").split("/")
    return len(parts) == 2 and parts[1] == "rulings" and parts[0] in datasette.databases


async def _redirect(send, location: str, headers: list) -> None:
    await send({"type": "http.response.start", "status": 302,
                "headers": [(b"location", location.encode()), (b"content-length", b"0"), *headers]})
    await send({"type": "http.response.body", "body": b""})


@hookimpl
def extra_body_script(view_name):
    return FOLD_DESCRIPTIONS if view_name == "table" else None
