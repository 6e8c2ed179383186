"""The database file's writes: one writer at a time (a lock file), and every change made on a copy beside the
file that replaces it only when the change is complete (os.replace), so a failed or killed write leaves the
previous database exactly as it was."""
from __future__ import annotations

import fcntl
import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path

import sqlite_utils

from model.errors import FileError


@contextmanager
def write_lock(target: Path):
    """Hold an exclusive lock on `target`'s lock file; a second writer fails at once with a clear message.

    The lock dies with its process (even on SIGKILL), so temp files left by a killed writer are stale
    and are removed once the lock is held, and a lock file it left is taken over. The holder removes the
    lock file before it lets go of it, so a finished writer leaves nothing behind.
    """
    lock_path = target.with_name(target.name + ".lock")
    with _locked_file(lock_path, target) as lock:
        lock.seek(0)
        lock.truncate()
        lock.write(str(os.getpid()))
        lock.flush()
        for stale in target.parent.glob(f".{target.name}.*.tmp"):
            stale.unlink(missing_ok=True)
        try:
            yield
        finally:
            lock_path.unlink(missing_ok=True)  # still held, so no other writer can have locked this path


def _locked_file(lock_path: Path, target: Path):
    """`lock_path` opened and exclusively locked, or FileError naming the writer that holds it."""
    while True:
        lock = open(lock_path, "a+")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            holder = lock.read().strip() or "?"
            lock.close()
            raise FileError(str(target), f"another write (pid {holder}: an ingest, add, remove or migrate) is "
                            "changing this database; try again when it has finished") from None
        try:
            if os.path.samestat(os.fstat(lock.fileno()), os.stat(lock_path)):
                return lock
        except FileNotFoundError:
            pass
        # A writer removed this file as it finished, after we opened it: locking it excludes no one.
        lock.close()


@contextmanager
def atomic_database(target: Path, start_from: Path | None = None):
    """Yield a sqlite_utils.Database on a temp file beside `target`; replace `target` only on success.

    Holds the write lock throughout. With `start_from`, the temp file starts as a copy of that database.
    On any exception the temp file is removed and `target` is left exactly as it was.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    with write_lock(target), _temp_database(target, start_from) as db:
        yield db


@contextmanager
def _temp_database(target: Path, start_from: Path | None):
    handle, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    # mkstemp makes the file private; once it replaces the database it must have the database's mode.
    os.fchmod(handle, _database_mode(target))
    os.close(handle)
    temp = Path(temp_name)
    try:
        if start_from is not None:
            temp.write_bytes(Path(start_from).read_bytes())
        db = sqlite_utils.Database(temp)
        yield db
        db.conn.commit()
        db.conn.execute("VACUUM")
        db.conn.close()
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def _database_mode(target: Path) -> int:
    """The permissions `target` has, or for a new database those any new file gets (0666 less the umask)."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)  # the umask can only be read by setting it: put it straight back
        os.umask(umask)
        return 0o666 & ~umask
