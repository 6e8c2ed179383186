"""What search keeps in memory from a database: loaded once per version of the file, shared by connections."""
from __future__ import annotations

import sqlite3
from collections.abc import Callable
from functools import lru_cache, wraps
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def per_database_version(load: Callable[[sqlite3.Connection], T]) -> Callable[[sqlite3.Connection], T]:
    """Wrap `load(conn)` so that it runs once per database file version (path, mtime, size).

    The wrapped function takes any connection to the database; `load` itself reads through a read-only
    connection of its own, so what it returns does not depend on the caller's connection. A rebuilt or
    extended file (a new mtime or size) is loaded afresh.
    """
    @lru_cache(maxsize=4)
    def cached(path: Path, version: tuple[int, int]) -> T:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return load(conn)
        finally:
            conn.close()

    @wraps(load)
    def loaded(conn: sqlite3.Connection) -> T:
        path = Path(conn.execute("pragma database_list").fetchone()[2])
        stat = path.stat()
        return cached(path, (stat.st_mtime_ns, stat.st_size))

    return loaded
