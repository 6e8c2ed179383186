"""The Datasette plugin `rulings browse` loads: the web app's search inside Datasette's SQL, and links between
Datasette's rows and the web app's pages.

- `rulings_answer(q[, game[, k]])`: the answer the web app, the API and `rulings ask` give a plain-words question
  (`kb.search.ask`), as JSON: its outcome and its claim, its rulings in the order shown and their rule families;
  the "Search rulings" canned query lists it row by row. `rulings_search(q[, game[, k]])` gives the ids of its
  rulings in that order (a JSON array, for `json_each`), `rulings_outcome(...)` its outcome; `k` is 5 when not
  given. The question model, and what search keeps of each database, load before Datasette answers anything (the
  startup hook; `rulings browse` runs it before it listens), so that no search spends its time limit loading
  them; without the model, these fail and everything else works.
- `rulings_diff(source, from, to)`: what changed between two editions of a source as the web app's diff page
  and `rulings diff` list it (`kb.editions.diff`, section by section), a JSON array of `{"change", "id", "ref",
  "from_ref", "section", "before", "after"}` for `json_each`; the "What changed" canned query lists it.
- `escape_fts(q)`, which Datasette's table search calls on what is typed in its search box, needs every content
  word typed (`every_word`: a part in double quotes is a phrase, the last word typed also matches the words it
  begins, stopwords are left out as the web app leaves them out; each term quoted, so no FTS syntax gets
  through). It reads up to the web app's limit on a question's length (MAX_QUERY characters).
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
- A status column (`status_columns` in the metadata) reads in the web app's words on pages, in its cells and
  its facet (templates/_facet_results.html, whose values also wrap between words, never inside one); JSON, CSV and
  SQL keep the stored value. A CSV answer is a download (an attachment named after the table or query).
- A request asking for a facet more than once is answered as if asked once; more than MAX_FACETS facets, or a
  facet of a column whose values do not fit a cell, is a 400 naming the parameter. Datasette's debugging pages
  (DEBUG_PAGES: versions, threads, allow-debug, ...) are not served.
- Every answer carries a Content-Security-Policy (scripts only from Datasette's own files, and the inline scripts
  its templates and this plugin write, by hash), `X-Content-Type-Options: nosniff` and a Referrer-Policy.
"""
from __future__ import annotations

import asyncio
import base64
import functools
import hashlib
import html
import json
import re
import sqlite3
import sys
from pathlib import Path
from urllib.parse import quote, unquote_plus

import datasette as datasette_package
import jinja2
from datasette import hookimpl
from datasette.database import QueryInterrupted
from datasette.utils import tilde_decode
from datasette.utils.asgi import NotFound, Request
from datasette.views.base import DatasetteError
from markupsafe import Markup, escape

from kb.locks import clear_stale
from kb.cache import READ_WAIT, reading
from kb.editions import UnknownEdition, by_section, diff
from kb.lexicon import WORD
from kb.onnx_embedder import embedder
from kb.rulings import STATUS_LABELS
from kb.search import DEFAULT_K, MAX_K, ask
from kb.store import connect
from model.text import STOPWORDS
from service.params import MAX_QUERY
from service.sql_bounds import Deadline, bound, value_lengths

NAME = "rulings"
# Tables whose rows have a page in the web app: the column that links there, and the page's path (filled in with
# the row's columns).
APP_PAGES = {"rulings": ("title", "/r/{id}"), "sources": ("title", "/sources/{id}"),
             "source_versions": ("version", "/sources/{source}/diff?to={version}"),
             "ruling_history": ("ruling_id", "/r/{ruling_id}")}
# A verification status in the web app's words ("Not checked" for unlinked).
STATUS_WORDS = STATUS_LABELS["badge"]
FIELD = re.compile(r"\{(\w+)\}")
# What is typed in a search box: a part in double quotes (its closing quote may be missing), or a run of anything
# else.
TYPED = re.compile(r'"([^"]*)"?|([^"]+)')
MAX_TERMS = 64  # as many terms as the web app's full-text query takes
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


def every_word(text: str | None) -> str:
    """An FTS5 query for what is typed in Datasette's search box (up to MAX_QUERY characters) that every content word
    of it must match: a part in double quotes is a phrase, its words in that order (stopwords too); the last word
    typed, when it stands outside quotes, also matches the words it begins; stopwords outside quotes are left out,
    as the web app leaves them out. Nothing else of FTS syntax gets through (each term is quoted). A query that
    matches nothing when `text` holds no content word."""
    parts = TYPED.findall((text or "")[:MAX_QUERY])
    terms = []
    for phrase, bare in parts:
        if bare:
            terms += [f'"{word}"' for word in WORD.findall(bare.lower()) if word not in STOPWORDS]
        elif WORD.search(phrase):
            terms.append('"' + " ".join(WORD.findall(phrase.lower())) + '"')
    typed_last = WORD.findall(parts[-1][1].lower()) if parts else []
    if typed_last and typed_last[-1] not in STOPWORDS:  # the last term is that word: a prefix too
        terms[-1] += "*"
    kept = list(dict.fromkeys(terms))[:MAX_TERMS]
    return " ".join(kept) or '""'


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
        with reading(opened[0]):  # the diff and its sections from one version of the database
            try:
                found = diff(opened[0], source or "", since or None, until or None)
            except UnknownEdition as exc:
                raise ValueError(str(exc)) from None
            sections = by_section(opened[0], found)
        before = {row["ruling_id"]: row["text"] for row in found["removed"]}
        before.update({row["id"]: row["before"] for row in found["moved"] + found["changed"]})
        return json.dumps([{"change": entry["change"], "id": entry["id"], "ref": entry["ref"],
                            "from_ref": entry.get("from_ref"), "section": entry["section"],
                            "before": before.get(entry["id"]), "after": None if entry["change"] == "removed"
                            else entry["text"]} for section in sections for entry in section["entries"]],
                          ensure_ascii=False)
    return rulings_diff


@hookimpl(trylast=True)  # after Datasette's own escape_fts, which this one replaces
def prepare_connection(conn, database, datasette):
    # Datasette also prepares connections to databases it does not list (the "_memory" one /-/versions.json
    # opens), and ones without a file (_memory, _internal): only a database file has rulings to search.
    db = datasette.databases.get(database)
    if db is not None and db.path:
        clear_stale(Path(db.path))  # a write a killed writer left half done is rolled back before any read
        # A statement waits for a write's commit as the web app's reads do (Datasette's own wait is 5 s; a rare
        # compaction of a big library holds its lock for seconds).
        conn.execute(f"pragma busy_timeout = {int(READ_WAIT * 1000)}")
    deadline = bound(conn, db.path if db is not None else None, datasette.setting("sql_time_limit_ms") / 1000)
    conn.create_function("escape_fts", 1, deadline.guard(every_word), deterministic=True)
    if db is not None and db.path:
        # Deterministic: SQLite calls it once for a question that is the same on every row of a statement, and a
        # statement reads one version of the database (a write commits only once no statement reads).
        for name, function in searcher(db.path, deadline).items():
            guarded = deadline.guard(function)
            for arity in (1, 2, 3):
                conn.create_function(name, arity, guarded, deterministic=True)
        conn.create_function("rulings_diff", 3, deadline.guard(differ(db.path)), deterministic=True)


@hookimpl
def startup(datasette):
    # The question model, and what search keeps of each database, load before Datasette answers anything
    # (`rulings browse` runs this before it listens): loaded by the first search instead, they took its SQL time
    # limit, and on a busy machine the first search failed. In a thread, so that the event loop is free meanwhile.
    async def warm() -> None:
        await asyncio.to_thread(warm_up, [db.path for db in datasette.databases.values() if db.path])
    return warm


def warm_up(db_paths: list[str]) -> None:
    """Load the question model and answer a question on each database at `db_paths` (which loads what search
    keeps of it); if that fails, say that plain-words search is unavailable (the rest of Datasette works without
    it)."""
    try:
        embedder().embed("warm up")
        for path in db_paths:
            conn = connect(path)
            try:
                ask(conn, "warm up")
            finally:
                conn.close()
    except Exception as exc:  # whatever stops the model (not exported, a broken file) stops only the search
        print(f"rulings browse: plain-words search (rulings_search, rulings_answer, the \"Search rulings\" query) is unavailable: "
              f"{exc}", file=sys.stderr, flush=True)


@hookimpl
def render_cell(row, value, column, table, database, datasette):
    config = datasette.plugin_config(NAME, database=database) or {}
    if column in config.get("status_columns", ()) and isinstance(value, str) and value in STATUS_WORDS:
        return Markup(f'<span title="stored as {escape(value)}">{escape(STATUS_WORDS[value])}</span>')
    page = APP_PAGES.get(table)
    if page is None or column != page[0] or value is None:
        return None
    app_url = config.get("app_url")
    if not app_url:
        return None
    needed = FIELD.findall(page[1])
    if not set(needed) <= set(row.keys()):  # a column the path needs is hidden (?_nocol=)
        return None
    # A table page gives a foreign key as {"value", "label"}.
    fields = {key: row[key]["value"] if isinstance(row[key], dict) else row[key] for key in needed}
    href = app_url.rstrip("/") + page[1].format_map({key: quote(str(found), safe="/") for key, found in fields.items()})
    return Markup(f'<a href="{escape(href)}" title="Open in the web app">{escape(value)}</a>')


def status_words(datasette, facet_results: list[dict], database: str) -> list[dict]:
    """A table page's `facet_results` with the values of its status columns (`status_columns` in the plugin's
    metadata) labelled in the web app's words; what a value links to stays the value."""
    columns = (datasette.plugin_config(NAME, database=database) or {}).get("status_columns", ())
    return [{**facet, "results": [{**found, "label": STATUS_WORDS.get(found["label"], found["label"])}
                                  if isinstance(found["label"], str) else found for found in facet["results"]]}
            if facet["name"] in columns else facet for facet in facet_results]


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
def prepare_jinja2_environment(env, datasette):
    env.filters["game_choices"] = game_choices
    env.filters["status_words"] = functools.partial(status_words, datasette)


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
            if scope["type"] != "http":
                await app(scope, receive, send)
                return
            csv = scope["path"].endswith(".csv")

            async def sending(message):
                if message["type"] == "http.response.start":
                    kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names]
                    if csv and message["status"] == 200:
                        kept = downloaded(kept, scope["path"])
                    message = {**message, "headers": kept + headers}
                await send(message)

            query = scope.get("query_string", b"").decode("latin-1")
            if DEBUG_PAGES.fullmatch(scope["path"]):
                await refuse(datasette, scope, receive, sending, NotFound("Page not found"))
                return
            if not query and _bare_rulings(scope["path"], datasette):
                await _redirect(send, scope["path"] + "?" + READABLE_COLUMNS, headers)
                return
            try:
                merged = facets_merged(query, table_columns(scope["path"], datasette),
                                       datasette.setting("truncate_cells_html"))
            except ValueError as exc:
                await refuse(datasette, scope, receive, sending,
                             DatasetteError(str(exc), title="Invalid parameter", status=400))
                return
            if merged != query:
                scope = {**scope, "query_string": merged.encode("latin-1")}
            await app(scope, receive, sending)
        return with_headers
    return wrap


# Datasette's pages for debugging it, not for the public: the versions of everything installed, the server's
# threads, a tool that evaluates permission rules, one that sets messages, a pattern portfolio and the
# permission checks made.
DEBUG_PAGES = re.compile(r"/-/(versions|threads|allow-debug|messages|patterns|permissions)(\.json)?/?")
FACETS = ("_facet", "_facet_array", "_facet_date")
# Facets one request may ask for beyond the table's own: each runs for up to facet_time_limit_ms and returns up to
# _facet_size values (as many as max_returned_rows), so 600 at once took two minutes and 1.2 GB.
MAX_FACETS = 5


def facets_merged(query: str, lengths: dict[str, int], longest: int) -> str:
    """A request's query string with each facet it asks for more than once (the same parameter and value) asked for
    once. ValueError naming the parameter when it asks for more than MAX_FACETS different ones, or for a facet of
    a column whose values are longer than `longest` (`lengths`: the longest value of each column of the table, in
    bytes; a column not in it is Datasette's to judge)."""
    parts, asked = [], {}
    for part in query.split("&"):
        name, _, value = part.partition("=")
        name, value = unquote_plus(name), unquote_plus(value)
        if name in FACETS:
            if (name, value) in asked:
                continue
            asked[name, value] = True
            column = facet_column(value)
            if lengths.get(column, 0) > longest:
                raise ValueError(f"Bad {name} parameter: a facet lists a column's values, so it takes a column of "
                                 f"values that fit a cell ({longest:,} bytes); {column} holds values of up to "
                                 f"{lengths[column]:,}.")
        parts.append(part)
    if len(asked) > MAX_FACETS:
        raise ValueError(f"Bad {next(iter(asked))[0]} parameter: a page shows at most {MAX_FACETS} facets besides "
                         f"its own, not {len(asked)}.")
    return "&".join(parts)


def facet_column(value: str) -> str:
    """The column a facet parameter's value names: the value, or in its JSON form ({"simple": "game"}) the first
    value of the object."""
    if value.startswith("{"):
        try:
            found = json.loads(value)
        except ValueError:
            return value
        return next((str(v) for v in found.values()), value) if isinstance(found, dict) else value
    return value


def table_columns(path: str, datasette) -> dict[str, int]:
    """The longest value of each column of the table or view a path names (`/db/table`, `.json` or `.csv`), in
    bytes; empty for any other path."""
    parts = path.strip("/").split("/")
    if len(parts) != 2:
        return {}
    db = next((db for db in datasette.databases.values() if db.route == tilde_decode(parts[0])), None)
    if db is None or not db.path:
        return {}
    return value_lengths(db.path).get(tilde_decode(re.sub(r"\.\w+$", "", parts[1])), {})


def downloaded(headers: list[tuple[bytes, bytes]], path: str) -> list[tuple[bytes, bytes]]:
    """The headers of a CSV answer at `path` made a download (Datasette's plain CSV link answers text to show,
    which a browser opens as a page): text/csv, an attachment named after the table or query. Any other answer's
    headers (an HTML trace, an attachment already) as they are."""
    found = dict(headers)
    if b"content-disposition" in found or not found.get(b"content-type", b"").startswith((b"text/plain", b"text/csv")):
        return headers
    name = re.sub(r"[^\w.-]+", "-", tilde_decode(path.rsplit("/", 1)[-1])).strip("-.") or "rows.csv"
    kept = [(k, v) for k, v in headers if k != b"content-type"]
    return kept + [(b"content-type", b"text/csv; charset=utf-8"),
                   (b"content-disposition", f'attachment; filename="{name}"'.encode())]


async def refuse(datasette, scope, receive, send, exception: Exception) -> None:
    """Answer a request with `exception`, as Datasette answers one a view raises (an HTML page, or JSON for
    .json)."""
    from datasette.handle_exception import handle_exception as answer

    await datasette.invoke_startup()  # the error page's template needs what startup prepares
    response = await answer(datasette, Request(scope, receive), exception)()
    await response.asgi_send(send)


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
