"""The web service: `create_app()` builds the Flask app (HTML pages and the JSON API) over rulings.db."""
from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from flask import Flask, jsonify, redirect, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError, ServiceUnavailable

from kb.cache import WriteInterrupted
from kb.paths import default_db
from kb.integrity import damaged
from kb.store import DatabaseMissing
from service.api import api
from service.db import close_db
from service.gate import install as install_gate
from service.pages import pages

# Where `make serve` runs the web app and Datasette.
BASE_URL = "http://127.0.0.1:5000"
DATASETTE_URL = "http://127.0.0.1:8001"
# Pages are HTML and CSS from this server: the one script is this server's copy-citation file (no inline
# script runs), nothing loads from elsewhere.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; "
                               "form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
log = logging.getLogger(__name__)


def create_app(db_path: Path | str | None = None, datasette_url: str = DATASETTE_URL,
               base_url: str = BASE_URL) -> Flask:
    """The Flask app serving `db_path` (default $RULINGS_DB, else rulings.db in the current directory), linking
    rows to Datasette at `datasette_url`; the absolute URLs it writes start with `base_url`, never with the Host
    a request names. Its templates and static files are package data beside this module."""
    app = Flask(__name__)
    app.config.update(DB_PATH=Path(db_path or default_db()), DATASETTE_URL=datasette_url.rstrip("/"),
                      BASE_URL=base_url.rstrip("/"))
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    app.register_blueprint(pages)
    app.register_blueprint(api, url_prefix="/api")
    app.teardown_appcontext(close_db)
    install_gate(app)  # long requests cannot hold every thread
    app.after_request(secure)
    app.after_request(relative_redirect)
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(DatabaseMissing, lambda exc: handle_http_error(ServiceUnavailable(str(exc))))
    app.register_error_handler(WriteInterrupted, lambda exc: handle_http_error(ServiceUnavailable(str(exc))))
    app.register_error_handler(sqlite3.DatabaseError, handle_database_error)
    app.register_error_handler(Exception, handle_unexpected)
    return app


def secure(response):
    for name, value in SECURITY_HEADERS.items():  # a view may set a stricter policy of its own (an original file)
        response.headers.setdefault(name, value)
    return response


def relative_redirect(response):
    """A redirect werkzeug writes absolute (to merge a path's slashes) names the request's Host: the same
    redirect, to the path alone (the client stays on the server it asked)."""
    if response.location and response.location.startswith(request.host_url):
        return redirect("/" + response.location.removeprefix(request.host_url), response.status_code)
    return response


def wants_json() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def handle_http_error(exc: HTTPException):
    """A JSON error body under /api, an HTML error page elsewhere; never a traceback."""
    if wants_json():
        response = jsonify(error={"status": exc.code, "title": exc.name, "message": exc.description})
        response.status_code = exc.code
        return response
    return render_template("error.html", error=exc), exc.code


def handle_database_error(exc: sqlite3.DatabaseError):
    """A damaged database file is the server's state, not a bug: a 503 that says so (and is logged)."""
    if not damaged(exc):
        return handle_unexpected(exc)
    log.error("the database is damaged (%s) on %s", exc, request.path)
    return handle_http_error(ServiceUnavailable(
        f"The database is damaged ({exc}): restore a copy, or rebuild it with `rulings ingest`."))


def handle_unexpected(exc: Exception):
    """Log the traceback; the client gets a plain 500."""
    log.exception("unhandled error on %s", request.path)
    return handle_http_error(InternalServerError())
