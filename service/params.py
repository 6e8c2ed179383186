"""The query parameters of a search request (`q`, `game`, `k`, `as_of`), validated for the pages and the API
alike."""
from __future__ import annotations

import re

from flask import request
from werkzeug.exceptions import BadRequest

from kb import store
from kb.search import DEFAULT_K, MAX_K
from model import values
from service.db import get_db

MAX_QUERY = 1000
DIGITS = re.compile(r"[0-9]+")  # ASCII digits only: int() also reads "+5", " 5", "5_0", "５" and "٥"


def search_args(require_query: bool) -> tuple[str, str | None, int]:
    """The validated `q`, `game` and `k` of a search request; BadRequest names the bad parameter."""
    question = request.args.get("q", "").strip()
    if require_query and not question:
        raise BadRequest("parameter 'q' (the question) is required")
    if len(question) > MAX_QUERY:
        raise BadRequest(f"parameter 'q' is too long: at most {MAX_QUERY} characters")
    game = game_arg()
    k = request.args.get("k", str(DEFAULT_K))
    if not DIGITS.fullmatch(k):
        raise BadRequest("parameter 'k' must be a whole number, written in the digits 0-9")
    if len(k) > len(str(MAX_K)) + 3 or not 1 <= int(k) <= MAX_K:  # a long one is out of range before int() reads it
        raise BadRequest(f"parameter 'k' must be between 1 and {MAX_K}")
    return question, game, int(k)


def game_arg() -> str | None:
    """The validated `game` of a request: a game's slug (None when absent or empty)."""
    game = request.args.get("game") or None
    if game is not None and store.game(get_db(), game) is None:
        raise BadRequest(f"parameter 'game': unknown game {game!r}")
    return game


def as_of_arg() -> str | None:
    """The validated `as_of` of a search request: a date, YYYY-MM-DD (None when absent or empty)."""
    value = request.args.get("as_of") or None
    if value is not None and not values.is_day(value):
        raise BadRequest("parameter 'as_of' must be a date, YYYY-MM-DD (e.g. 2025-01-01)")
    return value
