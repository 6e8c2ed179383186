"""The JSON API (described by service/openapi.json, served at /api/openapi.json)."""
from __future__ import annotations

import json
from pathlib import Path

from flask import Blueprint, abort, jsonify, request, url_for
from werkzeug.exceptions import BadRequest

from kb.rulings import ruling
from kb.search import MAX_K, ask
from kb.store import UnknownRuling, games
from service.db import get_db
from service.params import search_args

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
    try:
        found = ruling(get_db(), ruling_id)
    except UnknownRuling:
        abort(404, f"No ruling has the id {ruling_id!r}.")
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
    """The OpenAPI 3 description of this API: its `game` parameter lists the games of the served database,
    its `k` parameter states the limit search enforces (the file's {max_k})."""
    spec = json.loads(OPENAPI.read_text(encoding="utf-8"))
    for param in spec["paths"]["/search"]["get"]["parameters"]:
        if param["name"] == "game":
            param["schema"]["enum"] = [""] + [found["slug"] for found in games(get_db())]  # "": every game
        elif param["name"] == "k":
            param["schema"]["maximum"] = MAX_K
            param["description"] = param["description"].format(max_k=MAX_K)
    return jsonify(spec)
