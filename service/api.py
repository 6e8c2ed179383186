"""The JSON API (described by service/openapi.json, served at /api/openapi.json)."""
from __future__ import annotations

import json
from pathlib import Path

from flask import Blueprint, abort, current_app, jsonify, redirect, request, url_for
from werkzeug.exceptions import BadRequest

from kb.editions import history, redirected
from kb.lookup import find, names, number_in
from kb.rulings import results, ruling
from kb.search import MAX_K, ask
from kb.store import UnknownRuling, games
from kb.terms import term_page, terms
from service.db import get_db
from service.editions import requested_diff, source_versions
from service.pages import ruling_links
from service.params import as_of_arg, game_arg, search_args

api = Blueprint("api", __name__)
OPENAPI = Path(__file__).resolve().parent / "openapi.json"


@api.route("/search")
def search():
    """The answer to `q` (from the editions in force on `as_of`, if given): the same JSON as `rulings ask --json`."""
    question, game, k = search_args(require_query=True)
    return jsonify(ask(get_db(), question, game, k, as_of=as_of_arg()))


@api.route("/terms/<game>")
def terms_json(game: str):
    """A game's terms, A to Z, each with its name, slug and page."""
    if not any(g["slug"] == game for g in games(get_db())):
        abort(404, f"No game has the slug {game!r}.")
    return jsonify([{"term": t.name, "slug": t.slug, "url": absolute(url_for("pages.term", game=game, term=t.slug))}
                    for t in terms(get_db(), game)])


@api.route("/terms/<game>/<term>")
def term_json(game: str, term: str):
    """A term's page as JSON: its glossary entries, defining rules (the rest counted, with where they follow in the
    rulebook page), mentions by section and history."""
    found = term_page(get_db(), game, term)
    if found is None:
        abort(404, f"No term {term!r} in {game!r}: /api/terms/{game} lists its terms.")
    if found["more"]:
        found["more"]["url"] = absolute(url_for("pages.rules", source_id=found["more"]["source"],
                                                _anchor=found["more"]["anchor"]))
    return jsonify({**found, "url": absolute(url_for("pages.term", game=game, term=term))})


@api.route("/rulings/lookup")
def lookup_json():
    """The rule or heading a number names (`number`: "4.3.6", "rule 4.3.3", "CR 10.15"; within `game`): what
    it is and its rulings, shaped as search results."""
    asked = request.args.get("number", "").strip()
    game = game_arg()
    number, named_game, source = number_in(asked, names(get_db()))
    found = find(get_db(), number, game or named_game, source) if number else None
    if found is None:  # no number at all is no rule either: a 404, as the OpenAPI description says
        abort(404, f"No rule or heading is numbered {asked!r}" + (f" in {game}." if game else ".")
              + " Give a number as a judge says it, e.g. 4.3.6 or rule 4.3.3.")
    return jsonify({**{key: value for key, value in found.items() if key != "ids"},
                    "results": results(get_db(), [(rid, 1.0) for rid in found["ids"]])})


@api.route("/rulings/<path:ruling_id>")
def ruling_json(ruling_id: str):
    """One ruling with its examples, verification status, permalink and history through its source's editions."""
    try:
        found = ruling(get_db(), ruling_id)
    except UnknownRuling:
        moved = redirected(get_db(), ruling_id)
        if moved:
            return redirect(url_for("api.ruling_json", ruling_id=moved), 301)
        abort(404, f"No ruling has the id {ruling_id!r}.")
    found["url"] = absolute(url_for("pages.ruling", ruling_id=ruling_id))
    found["history"] = history(get_db(), ruling_id)
    return jsonify(found)


@api.route("/sources/<source_id>/versions", merge_slashes=False)
def versions_json(source_id: str):
    """A source's editions, oldest first, each with what it changed (the same JSON as `rulings versions --json`)."""
    return jsonify(source_versions(get_db(), source_id))


@api.route("/sources/<source_id>/diff", merge_slashes=False)
def diff_json(source_id: str):
    """What changed between two editions (`from`, `to`): the same JSON as `rulings diff --json`."""
    return jsonify(requested_diff(get_db(), source_id, source_versions(get_db(), source_id)))


@api.route("/games")
def games_json():
    """Every game with its number of rulings."""
    return jsonify(games(get_db()))


@api.route("/calc/<game>", merge_slashes=False)
def calculators_json(game: str):
    """A game's calculators, each with its description, typed parameters and deciding rulings."""
    from engine.calculators import UnknownCalculator, describe, find_game
    try:
        return jsonify(describe()[find_game(game)])
    except UnknownCalculator as exc:
        abort(404, str(exc))


@api.route("/calc/<game>/<calc>", merge_slashes=False)
def calc_json(game: str, calc: str):
    """Run one judge's calculator; its parameters are the query string. The answer comes in words and as
    facts, with the rulings that decide it."""
    from engine.calculators import CalcError, UnknownCalculator, run
    try:
        answer = run(game, calc, request.args.to_dict())
    except UnknownCalculator as exc:
        abort(404, str(exc))
    except CalcError as exc:
        raise BadRequest(str(exc)) from None
    answer["rulings"] = [{**link, "url": absolute(link["url"])} for link in ruling_links(answer["rulings"])]
    return jsonify(answer)


def absolute(path: str) -> str:
    """The URL of `path` on this server: the configured base URL (never the request's Host) followed by it."""
    return current_app.config["BASE_URL"] + path


@api.route("/openapi.json")
def openapi():
    """The OpenAPI 3 description of this API: its `game` parameters list the games of the served database,
    its `k` parameter states the limit search enforces (the file's {max_k})."""
    spec = json.loads(OPENAPI.read_text(encoding="utf-8"))
    slugs = [""] + [found["slug"] for found in games(get_db())]  # "": every game
    for param in spec["paths"]["/rulings/lookup"]["get"]["parameters"]:
        if param["name"] == "game":
            param["schema"]["enum"] = slugs
    for param in spec["paths"]["/search"]["get"]["parameters"]:
        if param["name"] == "game":
            param["schema"]["enum"] = slugs
        elif param["name"] == "k":
            param["schema"]["maximum"] = MAX_K
            param["description"] = param["description"].format(max_k=MAX_K)
    calculators(spec)
    return jsonify(spec)


def calculators(spec: dict) -> None:
    """Put every calculator's declaration (description, typed parameters, rulings) into the OpenAPI description
    of the calculate operation, as `x-calculators`: game → calculator → declaration."""
    from engine.calculators import describe
    spec["paths"]["/calc/{game}/{calc}"]["get"]["x-calculators"] = describe()
