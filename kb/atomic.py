"""The database file's writes: one writer at a time (kb.locks), each all or nothing, so that a failed or killed
write leaves the database as it was.

An add or a remove writes in place, in one SQLite transaction on the file itself (`in_place`; rollback journal):
it costs what it changes, not the file's size. A killed one leaves a hot journal, which the next writer or
reader rolls back (kb.locks) before anything reads the file. A reader reads inside a read
transaction (kb.cache.reading), which the writer's commit waits for. A whole ingest, a migration and a verify
rewrite everything anyway: they write a copy beside the file that replaces it when complete (`atomic_database`).
Every write records a new `write_id` (kb.cache), by which readers key what they keep in memory.
"""
from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import tempfile
import uuid
from contextlib import contextmanager
from pathlib import Path

import sqlite_utils

from kb.cache import WRITE_ID
from kb.integrity import intact
from kb.locks import write_lock
from model.errors import FileError

# The share of a written file's pages that may be free before it is compacted (VACUUM).
VACUUM_SHARE = 0.25
# How long an in-place write waits, in seconds, for the reads under way to end before it commits (a read is a
# request: milliseconds; new reads wait for the commit meanwhile).
COMMIT_WAIT = 60.0
# Pages an in-place write keeps in memory before it writes any to the file (4 KB each: 256 MB): SQLite writes
# them early only under an exclusive lock, which would stop every reader until the write commits.
SPILL_PAGES = 65536


@contextmanager
def atomic_database(target: Path, start_from: Path | None = None):
    """Yield a sqlite_utils.Database on a temp file beside `target`; replace `target` only on success.

    Holds the write lock throughout, so with `start_from` (the temp file starts as a copy of that database)
    a writer that waited for another starts from what the other wrote. On any exception the temp file is
    removed and `target` is left exactly as it was. For writes that rewrite the whole file (an ingest, a
    migration, a verify); an add or a remove writes `in_place`.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    with write_lock(target), _temp_database(target, start_from) as db:
        yield db


@contextmanager
def in_place(target: Path):
    """Yield a sqlite_utils.Database on the file `target` itself, in one transaction committed only on success.

    Holds the write lock throughout (a writer that waited for another starts from what the other wrote). On any
    exception, or if the process is killed, the transaction is rolled back (by SQLite's rollback journal; a
    killed one's by the next reader or writer) and `target` holds what it held. Readers go on reading meanwhile;
    the commit waits up to COMMIT_WAIT for the reads under way to end.
    """
    target = Path(target)
    with write_lock(target):
        db = sqlite_utils.Database(sqlite3.connect(target, timeout=COMMIT_WAIT))
        try:
            db.conn.execute(f"pragma cache_spill = {SPILL_PAGES}")
            db.conn.execute("begin immediate")
            yield db
            _new_write_id(db.conn)
            db.conn.commit()
        except BaseException:
            db.conn.rollback()
            raise
        else:
            _compact_when_free(db.conn)
        finally:
            db.conn.close()


def _new_write_id(conn: sqlite3.Connection) -> None:
    """Record that this transaction makes a new version of the database (kb.cache keys memory by it), in a
    rulings database (one with a `meta` table)."""
    if conn.execute("select 1 from sqlite_master where type = 'table' and name = 'meta'").fetchone():
        conn.execute("insert or replace into meta (key, value) values (?, ?)", [WRITE_ID, uuid.uuid4().hex])


def _compact_when_free(conn: sqlite3.Connection) -> None:
    """VACUUM the database `conn` has written (and committed) once a share of it is free pages (what removes
    leave): it rewrites the whole file (11 s for 878 MB here; in place, readers wait for its commit), so not after
    every write. It keeps every row and rowid, so the version readers keep memory of stays valid."""
    free, pages = (conn.execute(f"pragma {name}").fetchone()[0] for name in ("freelist_count", "page_count"))
    if free > pages * VACUUM_SHARE:
        conn.execute("VACUUM")


@contextmanager
def _temp_database(target: Path, start_from: Path | None):
    handle, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    # mkstemp makes the file private; once it replaces the database it must have the database's mode.
    os.fchmod(handle, _database_mode(target))
    os.close(handle)
    temp, db = Path(temp_name), None
    try:
        if start_from is not None:
            shutil.copyfile(start_from, temp)
        db = sqlite_utils.Database(temp)
        if start_from is not None:  # a write onto a damaged copy would carry the damage on, or fail half-way
            intact(db.conn, start_from)
        # A rollback journal, never WAL: the file that replaces the database must not share `-wal` and `-shm`
        # files with the readers still reading the file it replaces, and a WAL database cannot be read in a
        # folder the reader cannot write.
        db.conn.execute("PRAGMA journal_mode = DELETE")
        yield db
        _new_write_id(db.conn)
        db.conn.commit()
        _compact_when_free(db.conn)
        db.conn.close()
        _replace(temp, target)
    except BaseException:
        if db is not None:
            db.conn.close()  # rolls back what the failed write began, and so removes the temp file's journal
        temp.unlink(missing_ok=True)
        raise
    _sync_folder(target.parent)


def _replace(temp: Path, target: Path) -> None:
    """Move the finished temp file onto `target`; FileError naming `target` (not the temp file, which the caller
    removes) when it cannot be replaced, e.g. an immutable file (chattr +i)."""
    try:
        os.replace(temp, target)
    except OSError as exc:
        raise FileError(str(target), f"cannot be replaced ({exc.strerror or exc}): it is left as it was; "
                                     "make it writable (chattr -i if it is immutable) and try again") from exc


def _sync_folder(folder: Path) -> None:
    """Make a rename in `folder` durable (SQLite has synced the file's own contents)."""
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _database_mode(target: Path) -> int:
    """The permissions `target` has, or for a new database those any new file gets (0666 less the umask)."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)  # the umask can only be read by setting it: put it straight back
        os.umask(umask)
        return 0o666 & ~umask
