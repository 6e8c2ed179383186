"""One writer of a database file at a time: a lock file beside it, which a second writer waits for (a bounded
time), and what a killed writer left beside the file cleared once the lock is held: its temp files, its lock
file, and the write it left half done in the file (its hot journal), rolled back. Readers clear them too
(`clear_stale`) where they can write the folder and no writer is running."""
from __future__ import annotations

import fcntl
import os
import re
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from model.errors import FileError

# How long a writer waits for another to finish, in seconds: an add takes seconds, a whole ingest minutes.
LOCK_WAIT = 120.0
LOCK_WAIT_VARIABLE = "RULINGS_LOCK_WAIT"


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
    journals, the lock file) is stale and is removed once the lock is held, and the database's own journal,
    a killed in-place write's, is rolled back (`_roll_back`). The holder removes the lock file before it lets
    go of it, so a finished writer leaves nothing behind.
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
        _roll_back(target)
        try:
            yield
        finally:
            lock_path.unlink(missing_ok=True)  # still held, so no other writer can have locked this path


def clear_stale(target: Path) -> None:
    """Remove what a killed writer left beside `target`, if anything, and roll back the write it left half
    done, unless a writer is running now (its temp file and journal are not stale) or the folder cannot be
    written (a reader's business is to read: reading a half-done write then fails, kb.cache.WriteInterrupted)."""
    if not _leftovers(target) and not journal(target).exists():
        return
    try:
        with write_lock(target, wait=0):
            pass
    except (FileError, OSError):
        pass


def journal(target: Path) -> Path:
    """The rollback journal SQLite keeps beside `target` while a transaction writes it (gone at its commit)."""
    return target.with_name(target.name + "-journal")


def _roll_back(target: Path) -> None:
    """Roll back the write a killed writer left half done in `target` (its journal is hot), with the write lock
    held: a read-write connection's first read does it (never delete a hot journal instead: it holds the pages
    the write had overwritten). A journal SQLite finds not hot, a writer's killed before it wrote to the file,
    is removed. FileError naming the file when it cannot be opened for writing."""
    if not journal(target).exists():
        return
    try:
        conn = sqlite3.connect(f"file:{quote(str(target))}?mode=rw", uri=True, isolation_level=None)
        try:
            conn.execute("begin immediate")  # rolls back a hot journal; then no other connection may write
            journal(target).unlink(missing_ok=True)  # so what is left is no journal of a write under way
            conn.execute("rollback")
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise FileError(str(target), f"a write to it was interrupted and cannot be rolled back ({exc}): run any "
                                     "rulings command on it as a user who may write its folder") from exc


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
