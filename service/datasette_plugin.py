"""The Datasette plugin `rulings browse` loads: the web app's search inside Datasette's SQL, and links between
Datasette's rows and the web app's pages.

- `rulings_search(q)` / `rulings_search(q, game)`: the rulings the web app's search finds for a plain-words
  question (full text and meaning, fused), best first, as a JSON array of ids; a canned query joins it with
  `json_each` to list them in that order. The question model loads in the background when Datasette starts;
  without it, `rulings_search` fails and everything else works.
- `escape_fts(q)`, which Datasette's table search calls on what is typed in its search box, matches ANY of the
  question's content words (quoted, so no FTS syntax gets through), as the web app's full-text step does:
  Datasette's own version needs every word, so a question in plain words found nothing. Both read a question up
  to the web app's limit on its length (MAX_QUERY characters).
- Every connection is bounded (service/sql_bounds.py): no query can take more than a bounded memory, or run far
  past Datasette's time limit inside one function call.
- A query's `game` parameter is a choice of the database's games (templates/query.html), not free text.
- A ruling's or a source's title cell links to its page in the web app (`app_url` in the plugin's metadata), a
  source version's version to what changed in it, a ruling history row's ruling id to the ruling's page.
- A table's column descriptions fold into a "What each column means" disclosure, so the rows come first.
"""
from __future__ import annotations

import html
import json
import re
import sys
import threading
from urllib.parse import quote

from datasette import hookimpl
from markupsafe import Markup, escape

from kb.onnx_embedder import embedder
from kb.query import fts_query
from kb.search import MAX_K, ask
from kb.store import connect
from service.params import MAX_QUERY
from service.sql_bounds import bound

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


def searcher(db_path: str):
    """`rulings_search(q[, game])` over the database at `db_path`, opened read-only on first use."""
    opened = []

    def rulings_search(question: str | None, game: str | None = None) -> str:
        if not question or not question.strip():
            return "[]"
        if not opened:
            opened.append(connect(db_path))
        answer = ask(opened[0], question[:MAX_QUERY], game or None, MAX_K)
        return json.dumps([ruling["id"] for ruling in answer["results"]])

    return rulings_search


@hookimpl(trylast=True)  # after Datasette's own escape_fts, which this one replaces
def prepare_connection(conn, database, datasette):
    conn.create_function("escape_fts", 1, any_words, deterministic=True)
    # Datasette also prepares connections to databases it does not list (the "_memory" one /-/versions.json
    # opens), and ones without a file (_memory, _internal): only a database file has rulings to search.
    db = datasette.databases.get(database)
    bound(conn, db.path if db is not None else None)
    if db is not None and db.path:
        search = searcher(db.path)
        conn.create_function("rulings_search", 1, search)
        conn.create_function("rulings_search", 2, search)


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
        print(f"rulings browse: plain-words search (rulings_search, the \"Search rulings\" query) is unavailable: "
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


@hookimpl
def handle_exception(datasette, request, exception):
    # SQLite's memory is capped (sql_bounds.limit_heap): a query that needs more is refused as too big, as a
    # query error is, rather than a server error.
    if isinstance(exception, MemoryError):
        from datasette.handle_exception import handle_exception as answer
        from datasette.views.base import DatasetteError
        return answer(datasette, request, DatasetteError(
            "This query needs more memory than the server gives one query: ask for fewer rows or columns, or "
            "shorter values (e.g. substr(text, 1, 1000)).", title="Query too big", status=400))
    return None


@hookimpl
def extra_body_script(view_name):
    return FOLD_DESCRIPTIONS if view_name == "table" else None
