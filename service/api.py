"""The JSON API (described by service/openapi.json, served at /api/openapi.json)."""
from __future__ import annotations

import json
from pathlib import Path

from flask import Blueprint, abort, jsonify, request, url_for
from werkzeug.exceptions import BadRequest

from kb.search import ask
from kb.store import UnknownRuling, games, ruling
from service import queries
from service.app import get_db, search_args

api = Blueprint("api", __name__)
OPENAPI = Path(__file__).resolve().parent / "openapi.json"


@api.route("/search")
def search():
    """The answer to `q`: the same JSON as `rulings ask --json`."""
    question, game, k = search_args(require_query=True)
    return jsonify(ask(get_db(), question, game, k))


@api.route("/rulings/<path:ruling_id>")
def ruling_json(ruling_id: str):
    """One ruling with its examples, verification status and permalink."""
    conn = get_db()
    try:
        found = ruling(conn, ruling_id)
    except UnknownRuling:
        abort(404, f"No ruling has the id {ruling_id!r}.")
    found["status"] = queries.statuses(conn, [ruling_id])[ruling_id]
    found["url"] = url_for("pages.ruling", ruling_id=ruling_id, _external=True)
    return jsonify(found)


@api.route("/games")
def games_json():
    """Every game with its number of rulings."""
    return jsonify(games(get_db()))


@api.route("/calc/<game>/<calc>")
def calc_json(game: str, calc: str):
    """Run one judge's calculator; its parameters are the query string."""
    from engine.calculators import CalcError, describe, run
    if calc not in describe().get(game, {}):
        abort(404, f"No calculator {calc!r} for the game {game!r}.")
    try:
        return jsonify(run(game, calc, request.args.to_dict()))
    except CalcError as exc:
        raise BadRequest(str(exc)) from None


@api.route("/openapi.json")
def openapi():
    """The OpenAPI 3 description of this API, its `game` parameter listing the games of the served database."""
    spec = json.loads(OPENAPI.read_text(encoding="utf-8"))
    for param in spec["paths"]["/search"]["get"]["parameters"]:
        if param["name"] == "game":
            param["schema"]["enum"] = [""] + [found["slug"] for found in games(get_db())]  # "": every game
    return jsonify(spec)
