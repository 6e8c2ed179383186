"""The database file's writes: one writer at a time (a lock file; a second writer waits its turn, for a bounded
time), and every change made on a copy beside the file that replaces it only when the change is complete
(os.replace), so a failed or killed write leaves the previous database exactly as it was, and a reader goes
on reading the file it opened (kb.cache)."""
from __future__ import annotations

import fcntl
import os
import re
import shutil
import stat
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from kb.integrity import intact
from model.errors import FileError

# How long a writer waits for another to finish, in seconds: an add takes seconds, a whole ingest minutes.
LOCK_WAIT = 120.0
LOCK_WAIT_VARIABLE = "RULINGS_LOCK_WAIT"
# The share of a written file's pages that may be free before it is compacted (VACUUM).
VACUUM_SHARE = 0.25


def lock_wait(target: Path) -> float:
    """How long a writer of `target` waits for the lock: RULINGS_LOCK_WAIT seconds, else LOCK_WAIT."""
    given = os.environ.get(LOCK_WAIT_VARIABLE)
    if given is None:
        return LOCK_WAIT
    try:
        wait = float(given)
    except ValueError:
        wait = -1.0
    if not 0 <= wait < float("inf"):
        raise FileError(str(target), f"{LOCK_WAIT_VARIABLE}={given!r} is not a number of seconds")
    return wait


@contextmanager
def write_lock(target: Path, wait: float | None = None):
    """Hold an exclusive lock on `target`'s lock file, waiting up to `wait` seconds (default `lock_wait`) for
    another writer to finish; past that, FileError naming the writer.

    The lock dies with its process (even on SIGKILL), so what a killed writer left (temp files, their
    journals, the lock file) is stale and is removed once the lock is held. The holder removes the lock
    file before it lets go of it, so a finished writer leaves nothing behind.
    """
    target = Path(target)
    lock_path = target.with_name(target.name + ".lock")
    with _locked_file(lock_path, target, lock_wait(target) if wait is None else wait) as lock:
        lock.seek(0)
        lock.truncate()
        lock.write(str(os.getpid()))
        lock.flush()
        for stale in _leftovers(target):
            if stale != lock_path:
                stale.unlink(missing_ok=True)
        try:
            yield
        finally:
            lock_path.unlink(missing_ok=True)  # still held, so no other writer can have locked this path


def clear_stale(target: Path) -> None:
    """Remove what a killed writer left beside `target`, if anything, unless a writer is running now (its
    temp file is not stale) or the folder cannot be written (a reader's business is to read)."""
    if not _leftovers(target):
        return
    try:
        with write_lock(target, wait=0):
            pass
    except (FileError, OSError):
        pass


def _leftovers(target: Path) -> list[Path]:
    """The lock file, temp files and their journals of writers of `target` (none of another file's)."""
    # mkstemp's random part has no dot, so `.rulings.db.old.x1y2.tmp` (a temp of rulings.db.old) is not one.
    own = re.compile(rf"\.{re.escape(target.name)}\.[^.]+\.tmp(?:-journal|-wal|-shm)?|{re.escape(target.name)}\.lock")
    try:
        names = os.listdir(target.parent)
    except OSError:
        return []
    return [target.parent / name for name in names if own.fullmatch(name)]


@contextmanager
def _locked_file(lock_path: Path, target: Path, wait: float):
    """`lock_path` opened and exclusively locked, waiting up to `wait` seconds; else FileError naming the
    writer that holds it."""
    deadline, pause = time.monotonic() + wait, 0.01
    while True:
        try:
            lock = open(lock_path, "a+")
        except OSError as error:
            raise FileError(str(target), f"cannot write its lock file beside it ({error.strerror})") from None
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            holder = lock.read().strip() or "?"
            lock.close()
            left = deadline - time.monotonic()
            if left <= 0:
                raise FileError(str(target), f"another write (pid {holder}: an ingest, add, remove, verify or "
                                f"migrate) is changing this database and did not finish within {wait:g} s; try "
                                f"again when it has, or wait longer with {LOCK_WAIT_VARIABLE}=<seconds>") from None
            time.sleep(min(pause, left))
            pause = min(pause * 2, 0.2)
            continue
        try:
            if os.path.samestat(os.fstat(lock.fileno()), os.stat(lock_path)):
                break
        except FileNotFoundError:
            pass
        # A writer removed this file as it finished, after we opened it: locking it excludes no one.
        lock.close()
    with lock:
        yield lock


@contextmanager
def atomic_database(target: Path, start_from: Path | None = None):
    """Yield a sqlite_utils.Database on a temp file beside `target`; replace `target` only on success.

    Holds the write lock throughout, so with `start_from` (the temp file starts as a copy of that database)
    a writer that waited for another starts from what the other wrote. On any exception the temp file is
    removed and `target` is left exactly as it was.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    with write_lock(target), _temp_database(target, start_from) as db:
        yield db


@contextmanager
def _temp_database(target: Path, start_from: Path | None):
    # Imported here: readers import this module for clear_stale, and sqlite-utils would slow every cold start.
    import sqlite_utils

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
        # files with the readers still reading the file it replaces.
        db.conn.execute("PRAGMA journal_mode = DELETE")
        yield db
        db.conn.commit()
        # VACUUM rewrites the whole file, seconds for a big library: worth it only once a share of the file is free
        # pages (what removes leave), not after every add.
        free, pages = (db.conn.execute(f"pragma {name}").fetchone()[0] for name in ("freelist_count", "page_count"))
        if free > pages * VACUUM_SHARE:
            db.conn.execute("VACUUM")
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
