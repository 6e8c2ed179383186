"""Real servers and a real browser for the browser tests and the README screenshots."""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from support import ROOT
from support.servers import free_port, start, stop

ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@contextmanager
def servers(db_path: Path, name: str = ""):
    """Start `rulings serve` (waitress) and `rulings browse` (Datasette) on free ports; yield their base URLs.
    Their logs are test-artifacts/serve[-name].log and browse[-name].log."""
    ARTIFACTS.mkdir(exist_ok=True)
    app_port, datasette_port = free_port(), free_port()
    app_url, datasette_url = f"http://127.0.0.1:{app_port}", f"http://127.0.0.1:{datasette_port}"
    commands = {"serve": (["serve", "--datasette-url", datasette_url], app_port),
                "browse": (["browse", "--app-url", app_url], datasette_port)}
    processes = []
    try:
        for command, (args, port) in commands.items():
            processes.append(start(args, port, db_path, log=ARTIFACTS / f"{command}{'-' + name if name else ''}.log"))
        yield app_url, datasette_url
    finally:
        for process in processes:
            stop(process)


def launch(playwright):
    """Debian's headless chromium, driven by Playwright (no browser download)."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
