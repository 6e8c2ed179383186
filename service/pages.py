"""The HTML pages: ask, ruling, game, source, calculators and the printable handbook."""
from __future__ import annotations

import json
import re
from itertools import groupby
from urllib.parse import urlencode

from datasette.utils import tilde_encode
from flask import Blueprint, abort, current_app, render_template, request, url_for
from werkzeug.exceptions import BadRequest

from kb import store
from kb.rulings import details, family_groups, game_rulings, proof
from kb.search import MAX_K, ask
from service.db import get_db
from service.params import MAX_QUERY, search_args

pages = Blueprint("pages", __name__)
LINES = re.compile(r"(\d{1,7})(?:-(\d{1,7}))?")


@pages.app_template_global()
def cite_url(source_id: str, line_start: int, line_end: int) -> str:
    """The source page opened at a citation's lines, with those lines highlighted."""
    return url_for("pages.source", source_id=source_id, lines=f"{line_start}-{line_end}", _anchor=f"L{line_start}")


@pages.app_template_global()
def datasette_url(table: str | None = None, pk: str | None = None, **query) -> str:
    """A Datasette URL for the database, one of its tables or one row (primary keys are tilde-encoded)."""
    parts = [current_app.config["DATASETTE_URL"], current_app.config["DB_PATH"].stem]
    if table:
        parts.append(table)
    if pk:
        parts.append(tilde_encode(pk))
    url = "/".join(parts)
    if query:
        url += "?" + urlencode(query)
    return url


@pages.app_template_global()
def proof_text(status: str, reason: str | None = None, tests: int | None = None) -> str:
    """What a page says of a verification status, in plain words (kb.rulings.proof)."""
    return proof(status, reason, tests)


def by_section(rulings: list[dict]) -> list[tuple[str, str, list[dict]]]:
    """Rulings (in document order) grouped as (source title, section, rulings)."""
    return [(source, section, list(group)) for (source, section), group in
            groupby(rulings, key=lambda r: (r["citation"]["source_title"], r["citation"]["section"]))]


@pages.route("/")
def index():
    question, game, k = search_args(require_query=False)
    conn = get_db()
    answer = ask(conn, question, game, k) if question else None
    groups = family_groups(conn, answer["results"]) if answer else []
    known = store.games(conn)
    return render_template("index.html", question=question, game=game, k=k, games=known, answer=answer,
                           groups=groups, game_names={g["slug"]: g["name"] for g in known}, max_k=MAX_K,
                           max_query=MAX_QUERY)


@pages.route("/r/<path:ruling_id>")
def ruling(ruling_id: str):
    try:
        page = details(get_db(), ruling_id)
    except store.UnknownRuling:
        abort(404, f"No ruling has the id {ruling_id!r}.")
    return render_template("ruling.html", **page)


@pages.route("/games/<slug>")
def game(slug: str):
    found = store.game(get_db(), slug) or abort(404, f"No game has the slug {slug!r}.")
    return render_template("game.html", game=found, sections=by_section(game_rulings(get_db(), slug)))


@pages.route("/handbook/<slug>")
def handbook(slug: str):
    found = store.game(get_db(), slug) or abort(404, f"No game has the slug {slug!r}.")
    return render_template("handbook.html", game=found, sections=by_section(game_rulings(get_db(), slug)))


@pages.route("/sources/<source_id>")
def source(source_id: str):
    found = store.source(get_db(), source_id) or abort(404, f"No source has the id {source_id!r}.")
    cited = cited_lines(request.args.get("lines"))
    markers: dict[int, list[dict]] = {}
    for row in found["rulings_list"]:
        markers.setdefault(row["file_line_start"] - found["first_line"], []).append(row)
    return render_template("source.html", source=found, lines=numbered_lines(found), cited=cited,
                           markers=markers)


def cited_lines(value: str | None) -> range:
    """The `lines=26-31` (or `lines=26`) parameter as a range of document line numbers."""
    if value is None:
        return range(0)
    match = LINES.fullmatch(value)
    if not match:
        raise BadRequest("parameter 'lines' must look like 26 or 26-31")
    first = int(match[1])
    last = int(match[2] or first)
    if last < first:
        raise BadRequest("parameter 'lines': the range ends before it starts")
    return range(first, last + 1)


def numbered_lines(found: dict) -> list[tuple[int | None, str]]:
    """The source's original lines, each with the line number its citations use (None: a listing's header)."""
    return list(zip(json.loads(found["line_numbers"]), found["original_text"].split("\n"), strict=True))


@pages.route("/calc/<game>")
def calc(game: str):
    """A form per calculator, generated from its declaration; with `calc=<name>`, that calculator's answer."""
    from engine.calculators import (
        CalcError,
        UnknownCalculator,
        allowed,
        calculators,
        describe,
        find_game,
        run,
        specs,
    )
    try:
        game = find_game(game)
    except UnknownCalculator as exc:
        abort(404, str(exc))
    declared = describe()[game]
    chosen = request.args.get("calc")
    # A checkbox sends "true" after its hidden "false": the last value of a parameter is the one that counts.
    params = {key: request.args.getlist(key)[-1] for key in request.args if key != "calc"}
    params = {key: value for key, value in params.items() if value != ""}
    answer = error = None
    if chosen is not None:
        try:
            answer = run(game, chosen, params)
        except UnknownCalculator as exc:
            raise BadRequest(f"parameter 'calc': {exc}") from None
        except CalcError as exc:
            error = str(exc)
        else:
            answer["rulings"] = ruling_links(answer["rulings"])
    found = store.game(get_db(), game)
    return render_template(
        "calc.html", game=game, game_name=found["name"] if found else game, calculators=declared,
        allowed={name: {param: allowed(spec) for param, spec in specs(calc.function).items()}
                 for name, calc in calculators(game).items()},
        rulings={name: ruling_links(calc["rulings"]) for name, calc in declared.items()},
        chosen=chosen, answer=answer, error=error, params=params), 400 if error else 200


def ruling_links(ruling_ids: list[str], external: bool = False) -> list[dict]:
    """The rulings with these ids as `{"id", "title", "url"}`, in the given order (title None if not in the
    database)."""
    marks = ",".join("?" * len(ruling_ids))
    titles = {row["id"]: row["title"] for row in
              store.dicts(get_db(), f"select id, title from rulings where id in ({marks})", ruling_ids)}
    return [{"id": ruling_id, "title": titles.get(ruling_id),
             "url": url_for("pages.ruling", ruling_id=ruling_id, _external=external)} for ruling_id in ruling_ids]


@pages.app_template_global()
def ruling_calculators(ruling_id: str) -> list[dict]:
    """The calculators a ruling decides, each with the URL of its form."""
    from engine.calculators import for_ruling
    return [{**found, "url": url_for("pages.calc", game=found["game"], _anchor=f"calc-{found['name']}")}
            for found in for_ruling(ruling_id)]
