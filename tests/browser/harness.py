"""Real servers and a real browser for the browser tests and the README screenshots."""
from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until_up(url: str, process: subprocess.Popen, log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args} exited with {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer within {timeout}s:\n{log.read_text()}")


@contextmanager
def servers(db_path: Path):
    """Start `rulings serve` (waitress) and `rulings browse` (Datasette) on free ports; yield their base URLs."""
    ARTIFACTS.mkdir(exist_ok=True)
    app_url, datasette_url = f"http://127.0.0.1:{free_port()}", f"http://127.0.0.1:{free_port()}"
    commands = {
        "serve": ["serve", "--port", app_url.rsplit(":", 1)[1], "--datasette-url", datasette_url],
        "browse": ["browse", "--port", datasette_url.rsplit(":", 1)[1], "--app-url", app_url],
    }
    processes = []
    try:
        for name, args in commands.items():
            log = ARTIFACTS / f"{name}.log"
            with log.open("w") as out:
                processes.append(subprocess.Popen([sys.executable, "-m", "service.cli", *args, "--db", str(db_path)],
                                                  cwd=ROOT, stdout=out, stderr=subprocess.STDOUT))
            _wait_until_up((app_url if name == "serve" else datasette_url) + "/", processes[-1], log)
        yield app_url, datasette_url
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=10)


def launch(playwright):
    """Debian's headless chromium, driven by Playwright (no browser download)."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
