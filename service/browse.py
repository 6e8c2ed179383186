"""Datasette over rulings.db: immutable and read-only, described by service/datasette/ (metadata, settings and
templates), with our plugin (service/datasette_plugin.py) for plain-words search and links to the web app."""
from __future__ import annotations

import json
from pathlib import Path

from datasette.app import Datasette
from datasette.plugins import pm
from datasette.utils import parse_metadata

from service import datasette_plugin

CONFIG = Path(__file__).resolve().parent / "datasette"
METADATA = CONFIG / "metadata.yml"
SETTINGS = CONFIG / "settings.json"
TEMPLATES = CONFIG / "templates"
APP_URL = "http://127.0.0.1:5000"


def metadata(app_url: str = APP_URL) -> dict:
    """The metadata file as a dict, its links to the web app pointing at `app_url`."""
    text = METADATA.read_text(encoding="utf-8").replace(APP_URL, app_url.rstrip("/"))
    return parse_metadata(text)


def settings() -> dict:
    """Datasette settings (SQL time limit, page sizes)."""
    return json.loads(SETTINGS.read_text(encoding="utf-8"))


def datasette(db_path: Path, app_url: str = APP_URL) -> Datasette:
    """A Datasette serving `db_path` immutable (opened read-only, never written) with our metadata."""
    # Imported here, after datasette.app: imported first, it would miss being registered as a plugin.
    from datasette import handle_exception
    # When rich is importable (transformers brings it), Datasette prints every error with its locals, and for a
    # URL no route matches it calls rich outside an `except` block, which raises: the 404 became a 500. Without
    # rich it still logs the traceback of a real 500.
    handle_exception.rich = None
    if not pm.is_registered(datasette_plugin):
        pm.register(datasette_plugin, name=datasette_plugin.NAME)
    return Datasette(immutables=[str(db_path)], metadata=metadata(app_url), settings=settings(),
                     template_dir=str(TEMPLATES))


def serve(db_path: Path, host: str = "127.0.0.1", port: int = 8001, app_url: str = APP_URL) -> None:
    """Run Datasette on host:port until interrupted (uvicorn, as `datasette serve` does)."""
    import asyncio

    import uvicorn

    ds = datasette(db_path, app_url)
    asyncio.run(ds.invoke_startup())
    uvicorn.run(ds.app(), host=host, port=port, log_level="warning", lifespan="on")
