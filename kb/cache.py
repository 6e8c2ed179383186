"""What search keeps in memory from a database: loaded once per version of the file, shared by connections.

Adds and removes write the file in place, one transaction each (kb.atomic), and every write records a new
`write_id` in `meta` in that transaction; a full ingest replaces the file with a new one. A request reads inside
one read transaction (`reading`): in SQLite's rollback mode a writer commits only once no transaction reads, so a
request sees one version from start to end. What is kept is keyed by the version the caller's connection reads,
inside its transaction, never by whatever file the path names at the moment of asking, and a request never mixes
one version's memory with another's rows.
"""
from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from pathlib import Path
from typing import TypeVar
from urllib.parse import quote

from kb.locks import clear_stale
from model.errors import FileError

T = TypeVar("T")

# Versions kept per cached function: the current file, and the one requests that began before it still read.
KEPT = 4
# The `meta` row every write sets to a new random id (kb.atomic), in the write's own transaction.
WRITE_ID = "write_id"
# How long a reader waits, in seconds, for a writer's commit to finish (a commit waits for the reads under way,
# and new reads wait for it): a commit of an add takes a fraction of a second, of a whole ingest a rename.
READ_WAIT = 60.0


class WriteInterrupted(FileError):
    """The database holds a write a killed writer left half done, which a read-only connection cannot roll
    back (kb.locks.clear_stale does, where the folder can be written)."""


class VersionedConnection(sqlite3.Connection):
    """A read-only connection that knows which file it opened (`file`: `file_version` of it)."""
    file: tuple[int, ...]


def file_version(stat: os.stat_result) -> tuple[int, ...]:
    """A file's identity and state: its device and inode (a replaced database is a new file), mtime and size."""
    return stat.st_dev, stat.st_ino, stat.st_mtime_ns, stat.st_size


def open_readonly(path: Path | str) -> VersionedConnection:
    """A read-only connection (any thread may use it) to the database file at `path`, knowing which file it
    opened even when a full ingest replaces the file meanwhile; it waits up to READ_WAIT for a writer's commit."""
    path = Path(path).resolve()
    while True:
        # If the path names one file both before and after SQLite opens it, SQLite opened that file (a full
        # ingest only ever moves a new file to the path). Never a descriptor of our own on the file to tell:
        # closing any descriptor of a file drops every POSIX lock the process holds on it, its other
        # connections' too, and a write in place would then commit under their reads.
        before = os.stat(path)
        conn = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True, check_same_thread=False,
                               timeout=READ_WAIT, factory=VersionedConnection)
        after = os.stat(path)
        if file_version(before)[:2] == file_version(after)[:2]:
            conn.file = file_version(after)
            _first_read(conn, path)
            return conn
        conn.close()  # replaced while it opened: open the new file


def _first_read(conn: sqlite3.Connection, path: Path) -> None:
    """Read `conn`'s database once. A write a killed writer left half done (its journal is hot) is rolled back
    first, which a read-only connection cannot do (SQLite would say "attempt to write a readonly database" at
    every read): kb.locks.clear_stale does, unless a writer is running or the folder cannot be written;
    WriteInterrupted, saying what to do, when it could not."""
    for attempt in range(2):
        try:
            conn.execute("pragma schema_version").fetchone()
            return
        except sqlite3.Error as exc:
            if getattr(exc, "sqlite_errorname", "") != "SQLITE_READONLY_ROLLBACK":
                return  # a damaged file, or one that is no database: the caller's reads meet it and say so
        if attempt == 0:
            clear_stale(path)
    conn.close()
    raise WriteInterrupted(str(path), f"a write to it was interrupted, and must be rolled back (from "
                                      f"{path.name}-journal) before it can be read, which needs write access to "
                                      "its folder: run any rulings command on it as a user who may write there")


@contextmanager
def reading(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One read transaction on `conn`: everything read inside reads one version of the database, since a write
    commits only once no transaction reads (and waits for it, see kb.atomic.in_place). Inside a transaction `conn`
    already has open, nothing more: that one's version is read."""
    if conn.in_transaction:
        yield conn
        return
    conn.execute("begin")
    try:
        yield conn
    finally:
        conn.rollback()  # a read changes nothing: this only ends the transaction (and drops temp rows it made)


def version_of(conn: sqlite3.Connection, path: Path) -> tuple:
    """The version of the database `conn` reads (the file at `path`), read through `conn`, so inside its
    transaction: the file's device and inode with its `write_id`; for a file no write of this release has
    made or changed, which nothing changes in place, the file's state (of the file `conn` opened, for a
    VersionedConnection; else of the file at `path` now)."""
    stat = getattr(conn, "file", None) or file_version(path.stat())
    try:
        row = conn.execute("select value from main.meta where key = ?", [WRITE_ID]).fetchone()
    except sqlite3.OperationalError:  # no meta table: not a rulings database (yet)
        row = None
    return (*stat[:2], row[0]) if row else stat


# (id(source), derive) → (source, what derive made of it): kept while held, so that the id names no other object.
_DERIVED: dict[tuple[int, Callable], tuple[object, object]] = {}


def derived(source: object, derive: Callable[[object], T]) -> T:
    """`derive(source)`, worked out once per `source` object: for what search derives from a part of the lexicon
    (`kb.lexicon.load_lexicon`, which hands every question of a version of the file the same objects) rather
    than once per question, which would cost a pass over every game or term of the library each time."""
    found = _DERIVED.get((id(source), derive))
    if found is None or found[0] is not source:
        if len(_DERIVED) >= 16:
            _DERIVED.clear()
        found = _DERIVED[id(source), derive] = (source, derive(source))
    return found[1]


def per_database_version(load: Callable[[sqlite3.Connection], T]) -> Callable[[sqlite3.Connection], T]:
    """Wrap `load(conn)` so that it runs once per version of a database file.

    The wrapped function takes any connection to the database. `load` itself reads through a read-only
    connection of its own (so what it returns never depends on the caller's temp tables or open transaction)
    to the version the caller reads (`version_of`). While the caller reads inside a transaction (`reading`), no
    write can commit, so that connection reads the caller's version; when it does not (the caller reads outside
    one, or a full ingest replaced the file it reads), `load` reads a copy of the caller's database taken
    through the caller's connection.
    """
    kept: dict[tuple, T] = {}  # (path, version) -> loaded, oldest first
    lock = threading.Lock()  # one load per version, however many requests ask for it at once

    @wraps(load)
    def loaded(conn: sqlite3.Connection) -> T:
        path = Path(conn.execute("pragma database_list").fetchone()[2])
        key = (path, version_of(conn, path))
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
          version: tuple) -> T:
    own = open_readonly(path)
    try:
        with reading(own):
            if version_of(own, path) == version:
                return load(own)
    finally:
        own.close()
    copy = sqlite3.connect(":memory:")
    try:
        conn.backup(copy)  # the caller's main database as it reads it: a rare race, worth a copy to be right
        return load(copy)
    finally:
        copy.close()
