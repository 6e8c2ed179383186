"""The query parameters of a search request (`q`, `game`, `k`), validated for the pages and the API alike."""
from __future__ import annotations

from flask import request
from werkzeug.exceptions import BadRequest

from kb import store
from kb.search import MAX_K
from service.db import get_db

MAX_QUERY = 1000


def search_args(require_query: bool) -> tuple[str, str | None, int]:
    """The validated `q`, `game` and `k` of a search request; BadRequest names the bad parameter."""
    question = request.args.get("q", "").strip()
    if require_query and not question:
        raise BadRequest("parameter 'q' (the question) is required")
    if len(question) > MAX_QUERY:
        raise BadRequest(f"parameter 'q' is too long: at most {MAX_QUERY} characters")
    game = request.args.get("game") or None
    if game is not None and store.game(get_db(), game) is None:
        raise BadRequest(f"parameter 'game': unknown game {game!r}")
    try:
        k = int(request.args.get("k", 5))
    except ValueError:
        raise BadRequest("parameter 'k' must be a whole number") from None
    if not 1 <= k <= MAX_K:
        raise BadRequest(f"parameter 'k' must be between 1 and {MAX_K}")
    return question, game, k
