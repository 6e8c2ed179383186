"""Our servers as child processes on loopback, for tests, benchmarks and screenshots: a free port, start,
wait until it answers, stop. Never used by the servers themselves."""
from __future__ import annotations

import http.client
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from support import ROOT

# How the tests and benchmarks run `rulings`: this interpreter, the checkout's package.
RULINGS = (sys.executable, "-m", "service.cli")


def raw_get(port: int, path: str) -> tuple[int, bytes]:
    """GET `path` byte for byte as given: http.client neither normalises dot segments nor re-encodes."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(args: list[str], port: int, db: Path | None, log: Path | None = None, timeout: float = 60,
          command: tuple[str, ...] = RULINGS, **popen) -> subprocess.Popen:
    """Run `rulings <args> --port <port> --db <db>` on loopback; return once it accepts connections.

    Without `db`, no --db (the server finds its database as the command line does). `command` runs `rulings`
    (default: the checkout's, with this interpreter); `popen`: more arguments for Popen (env, cwd: default the
    checkout). Output goes to `log` (else nowhere); a server that exits or never answers is killed and
    reported, with its log.
    """
    out = log.open("w") if log else subprocess.DEVNULL
    try:
        process = subprocess.Popen([*command, *args, "--host", "127.0.0.1", "--port", str(port),
                                    *(["--db", str(db)] if db else [])], stdout=out, stderr=subprocess.STDOUT,
                                   **{"cwd": ROOT, **popen})
    finally:
        if log:
            out.close()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process
        except OSError:
            time.sleep(0.1)
    stop(process)
    detail = log.read_text() if log else ""
    raise RuntimeError(f"`rulings {' '.join(args)}` on port {port} did not start within {timeout:g} s "
                       f"(exit code {process.returncode}){': ' + detail if detail else ''}")


def searching(port: int, timeout: float = 60) -> None:
    """Return once `rulings browse` on `port` answers a search (at once: it loads its question model before it
    listens)."""
    deadline = time.monotonic() + timeout
    while raw_get(port, "/rulings.json?sql=select+rulings_search(%27warm+up%27,+null)")[0] != 200:
        if time.monotonic() > deadline:
            raise RuntimeError(f"`rulings browse` on port {port} answered no search within {timeout:g} s")
        time.sleep(0.5)


def stop(process: subprocess.Popen) -> None:
    """Terminate a server, killing it if it does not stop within 10 s."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def running_server(db: Path | None, args: tuple[str, ...] = ("serve",), log: Path | None = None,
                   **options) -> Iterator[tuple[int, subprocess.Popen]]:
    """`rulings serve` (or other server `args`) on a free loopback port for the block: yields (port, process).
    `options`: more arguments for `start` (command, env, cwd)."""
    port = free_port()
    server = start(list(args), port, db, log, **options)
    try:
        yield port, server
    finally:
        stop(server)
