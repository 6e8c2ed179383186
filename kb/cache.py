"""What search keeps in memory from a database: loaded once per version of the file, shared by connections.

Every write replaces the file with a new one (kb.atomic), and a connection goes on reading the file it opened:
a request that began before an add reads the old file to its end, one that begins after reads the new. So
what is kept is keyed by the version the caller's connection reads, never by whatever file the path names
at the moment of asking, and a request never mixes one version's memory with another's rows.
"""
from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import TypeVar
from urllib.parse import quote

T = TypeVar("T")

# Versions kept per cached function: the current file, and the one requests that began before it still read.
KEPT = 4


class VersionedConnection(sqlite3.Connection):
    """A read-only connection that knows which version of its file it reads (`version`, see `version_of`)."""
    version: tuple[int, ...]


def version_of(stat: os.stat_result) -> tuple[int, ...]:
    """A file's version: its device and inode (a replaced database is a new file), mtime and size."""
    return stat.st_dev, stat.st_ino, stat.st_mtime_ns, stat.st_size


def open_readonly(path: Path | str) -> VersionedConnection:
    """A read-only connection (any thread may use it) to the database file at `path`, with the `version` of
    the very file it opened, even when a write replaces the file meanwhile."""
    path = Path(path).resolve()
    while True:
        # Held open, the file's inode cannot be reused: if the path names it both before and after SQLite
        # opens the path, SQLite opened this file (a write only ever moves a new file to the path).
        pin = os.open(path, os.O_RDONLY)
        try:
            conn = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True, check_same_thread=False,
                                   factory=VersionedConnection)
            pinned, named = os.fstat(pin), os.stat(path)
        finally:
            os.close(pin)
        if version_of(pinned) == version_of(named):
            conn.version = version_of(pinned)
            return conn
        conn.close()  # replaced while it opened: open the new file


def per_database_version(load: Callable[[sqlite3.Connection], T]) -> Callable[[sqlite3.Connection], T]:
    """Wrap `load(conn)` so that it runs once per version of a database file.

    The wrapped function takes any connection to the database. `load` itself reads through a read-only
    connection of its own (so what it returns never depends on the caller's temp tables or open transaction)
    to the version the caller reads: a VersionedConnection's `version`; for any other connection, the file
    at its path now. When a write has replaced the caller's version since it opened, `load` reads a copy of
    the caller's database taken through the caller's connection.
    """
    kept: dict[tuple, T] = {}  # (path, version) -> loaded, oldest first
    lock = threading.Lock()  # one load per version, however many requests ask for it at once

    @wraps(load)
    def loaded(conn: sqlite3.Connection) -> T:
        path = Path(conn.execute("pragma database_list").fetchone()[2])
        key = (path, getattr(conn, "version", None) or version_of(path.stat()))
        found = kept.get(key, _MISSING)
        if found is not _MISSING:
            return found
        with lock:
            if key not in kept:
                kept[key] = _load(load, conn, path, key[1])
                while len(kept) > KEPT:
                    del kept[next(iter(kept))]
            return kept[key]

    return loaded


_MISSING = object()


def _load(load: Callable[[sqlite3.Connection], T], conn: sqlite3.Connection, path: Path,
          version: tuple[int, ...]) -> T:
    own = open_readonly(path)
    if own.version != version:
        own.close()
        own = sqlite3.connect(":memory:")
        conn.backup(own)  # the caller's main database as it reads it: a rare race, worth a copy to be right
    try:
        return load(own)
    finally:
        own.close()
