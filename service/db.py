"""The database connection of a request: opened read-only on first use, in a read transaction that the request
ends when it closes it, so that it reads one version of the database throughout (an add or a remove commits in
place, and waits for it)."""
from __future__ import annotations

import sqlite3

from flask import current_app, g

from kb.store import connect


def get_db() -> sqlite3.Connection:
    """This request's read-only connection to the database, opened on first use, reading inside one transaction."""
    if "db" not in g:
        g.db = connect(current_app.config["DB_PATH"])
        g.db.execute("begin")
    return g.db


def close_db(_exc=None) -> None:
    """Close this request's connection, if it opened one (the app's teardown)."""
    db = g.pop("db", None)
    if db is not None:
        db.close()
