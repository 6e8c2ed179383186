"""Reading documents within a budget of memory and time, whatever the readers do.

The readers refuse what is past their own limits (size, depth, elements, ...); this is the backstop behind
them. `read_within` runs the reading in a forked child process whose address space may grow by the memory
limit and no more, killed once the time limit for the documents' size has passed; its result comes back
pickled. Past either limit, or when the reading fails as Python does under a crafted input (MemoryError,
RecursionError, a crash), the caller gets one IngestError naming the file and the limit, and nothing it holds
(a database) was touched. Where the system cannot fork, the reading runs in the caller's process, unbounded.
"""
from __future__ import annotations

import math
import os
import pickle
import select
import signal
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from ingest.errors import IngestError
from ingest.limits import Limits, applied, how_to_raise
from ingest.text import regular_file
from model.errors import FileError

T = TypeVar("T")


def read_within(limits: Limits, paths: Sequence[Path], read: Callable[..., T], *args, **kwargs) -> T:
    """`read(*args, **kwargs)` (which reads the documents at `paths`) within `limits`: at most
    `limits.memory_mb` of memory and `limits.time_for` each document's size. Returns what it returns; raises
    the FileError it raises, or an IngestError naming the first of `paths` and the limit it went past. Each
    document must be a regular file (a device or a pipe would read without end)."""
    seconds = sum(limits.time_for(_size(Path(path))) for path in paths)
    name = str(paths[0])
    if not hasattr(os, "fork"):
        with applied(limits):
            return read(*args, **kwargs)
    return _in_child(name, limits, seconds, lambda: read(*args, **kwargs))


def _size(path: Path) -> int:
    try:
        found = os.stat(path)
    except FileNotFoundError:
        raise IngestError(str(path), "file not found") from None
    except OSError as exc:
        raise IngestError(str(path), f"cannot be read: {exc.strerror}") from None
    regular_file(str(path), found)
    return found.st_size


# How the child ends when the reading went past what Python can give it. An exit status, not a pickled
# answer: with the memory spent (the reading's objects are still alive while the error is handled), writing
# one could fail too.
_OUT_OF_MEMORY, _TOO_DEEP = 3, 4


def _in_child(name: str, limits: Limits, seconds: float, read: Callable[[], T]) -> T:
    """`read()` in a forked child bounded by `limits.memory_mb` and `seconds`; its outcome, re-raised here."""
    readable, writable = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns, never runs the parent's clean-up (os._exit)
        status = 1
        try:
            os.close(readable)
            _quiet()
            _bound(limits.memory_mb, seconds)
            with applied(limits), open(writable, "wb") as out:
                out.write(_outcome(read))
            status = 0
        except MemoryError:
            status = _OUT_OF_MEMORY
        except RecursionError:
            status = _TOO_DEEP
        finally:
            os._exit(status)
    os.close(writable)
    payload = None
    try:
        payload = _collect(readable, time.monotonic() + seconds)
    finally:
        os.close(readable)
        if payload is None:  # out of time, or this process was interrupted
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    if payload is None:
        raise IngestError(name, f"reading it took more than {seconds:.0f} s (the time limit for its size: "
                                f"{limits.seconds:g} s and {limits.seconds_per_mb:g} s per MB; "
                                f"{how_to_raise('seconds')})")
    if payload:
        return _answer(name, pickle.loads(payload))
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == _OUT_OF_MEMORY:
        raise IngestError(name, f"reading it needed more than {limits.memory_mb:g} MB of memory (the limit; "
                                f"{how_to_raise('memory_mb')})")
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == _TOO_DEEP:
        raise IngestError(name, f"it is nested too deeply to read (the reader ran out of stack; the depth limit "
                                f"is {limits.depth})")
    ended = (f"signal {signal.Signals(os.WTERMSIG(status)).name}" if os.WIFSIGNALED(status)
             else f"exit status {os.WEXITSTATUS(status)}")
    raise IngestError(name, f"reading it failed: the process reading it ended abruptly ({ended}), as when the "
                            f"system has no memory left (the memory limit is {limits.memory_mb:g} MB)")


def _answer(name: str, answer: tuple):
    """The result the child sent back, or the error it sent raised."""
    kind, found = answer
    if kind == "result":
        return found
    if kind == "refused":
        error_type, path, message, line = found
        raise error_type(path, message, line)
    error = RuntimeError(f"{name}: reading it failed: {found[0]}")  # a bug: its traceback goes along
    error.add_note(found[1])
    raise error


def _quiet() -> None:
    """Send this (child) process's stdout and stderr to /dev/null: what the reading has to say comes back as its
    result or its error, and a library's chatter (pypdf's warnings on a damaged PDF) would only add lines to the
    command's one line of answer, or spoil its --json."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.close(devnull)


def _bound(memory_mb: float, seconds: float) -> None:
    """Limit this (child) process: its address space may grow by `memory_mb` beyond what it maps already (the
    caller's, which is not the document's doing), CPU time past `seconds` ends it should its parent be gone,
    and it dumps no core."""
    import resource  # POSIX only, as fork is: imported where a forked child needs it
    try:
        with open("/proc/self/status") as status:
            mapped = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))
    except OSError:  # no /proc (not Linux): the time limit alone bounds the reading
        mapped = None
    if mapped is not None:
        limit = mapped + int(memory_mb * 2**20)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    cpu = math.ceil(seconds) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _outcome(read: Callable[[], T]) -> bytes:
    """What `read()` came to, pickled: ("result", value), ("refused", a FileError's fields) or ("bug", (one
    line, traceback)). MemoryError and RecursionError go through."""
    try:
        return pickle.dumps(("result", read()), protocol=pickle.HIGHEST_PROTOCOL)
    except FileError as exc:
        return pickle.dumps(("refused", (type(exc), exc.path, exc.message, exc.line)))
    except (MemoryError, RecursionError):
        raise
    except Exception as exc:  # noqa: BLE001 - a reader's bug: reported to the parent, which raises it
        return pickle.dumps(("bug", (f"{type(exc).__name__}: {exc}", traceback.format_exc())))


def _collect(readable: int, deadline: float) -> bytes | None:
    """All the child writes to `readable` until it closes it; None if `deadline` passes first."""
    chunks = []
    while (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([readable], [], [], left)
        if not ready:
            continue
        chunk = os.read(readable, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
    return None
