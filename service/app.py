"""The web service: `create_app()` builds the Flask app (HTML pages and the JSON API) over rulings.db."""
from __future__ import annotations

import logging
from pathlib import Path

from flask import Flask, current_app, g, jsonify, render_template, request
from werkzeug.exceptions import BadRequest, HTTPException, InternalServerError, ServiceUnavailable

from kb.paths import DEFAULT_DB
from kb.store import DatabaseMissing, connect
from service import queries

DATASETTE_URL = "http://127.0.0.1:8001"
MAX_K = 50
MAX_QUERY = 1000
# Pages are plain HTML and CSS from this server: no script runs, nothing loads from elsewhere.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'none'; object-src 'none'; base-uri 'none'; "
                               "form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
log = logging.getLogger(__name__)


def create_app(db_path: Path | str | None = None, datasette_url: str = DATASETTE_URL) -> Flask:
    """The Flask app serving `db_path` (default rulings.db), linking rows to Datasette at `datasette_url`."""
    from service.api import api
    from service.pages import pages

    app = Flask(__name__)
    app.config.update(DB_PATH=Path(db_path or DEFAULT_DB), DATASETTE_URL=datasette_url.rstrip("/"))
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    app.register_blueprint(pages)
    app.register_blueprint(api, url_prefix="/api")
    app.teardown_appcontext(close_db)
    app.after_request(secure)
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(DatabaseMissing, lambda exc: handle_http_error(ServiceUnavailable(str(exc))))
    app.register_error_handler(Exception, handle_unexpected)
    return app


def get_db():
    """This request's read-only connection to the database, opened on first use."""
    if "db" not in g:
        g.db = connect(current_app.config["DB_PATH"], readonly=True)
    return g.db


def close_db(_exc=None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


def secure(response):
    response.headers.update(SECURITY_HEADERS)
    return response


def search_args(require_query: bool) -> tuple[str, str | None, int]:
    """The validated `q`, `game` and `k` of a search request; BadRequest names the bad parameter."""
    question = request.args.get("q", "").strip()
    if require_query and not question:
        raise BadRequest("parameter 'q' (the question) is required")
    if len(question) > MAX_QUERY:
        raise BadRequest(f"parameter 'q' is too long: at most {MAX_QUERY} characters")
    game = request.args.get("game") or None
    if game is not None and queries.game(get_db(), game) is None:
        raise BadRequest(f"parameter 'game': unknown game {game!r}")
    try:
        k = int(request.args.get("k", 5))
    except ValueError:
        raise BadRequest("parameter 'k' must be a whole number") from None
    if not 1 <= k <= MAX_K:
        raise BadRequest(f"parameter 'k' must be between 1 and {MAX_K}")
    return question, game, k


def wants_json() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def handle_http_error(exc: HTTPException):
    """A JSON error body under /api, an HTML error page elsewhere; never a traceback."""
    if wants_json():
        response = jsonify(error={"status": exc.code, "title": exc.name, "message": exc.description})
        response.status_code = exc.code
        return response
    return render_template("error.html", error=exc), exc.code


def handle_unexpected(exc: Exception):
    """Log the traceback; the client gets a plain 500."""
    log.exception("unhandled error on %s", request.path)
    return handle_http_error(InternalServerError())
