"""Datasette over a rulings database: read-only, described by service/datasette/ (metadata,
settings and templates, package data), with our plugin (service/datasette_plugin.py) for plain-words search
and links to the web app. The configuration applies whatever the database file is called."""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urljoin

from datasette.app import Datasette
from datasette.database import Database
from datasette.plugins import pm
from datasette.utils import parse_metadata, tilde_encode

from service import datasette_plugin
from service.app import BASE_URL as APP_URL
from service.app import DATASETTE_URL
from service.sql_bounds import limit_heap

CONFIG = Path(__file__).resolve().parent / "datasette"
METADATA = CONFIG / "metadata.yml"  # its links to the web app are written with APP_URL
SETTINGS = CONFIG / "settings.json"
TEMPLATES = CONFIG / "templates"
DATABASE = "rulings"  # the database name metadata.yml is written for: rulings.db's


def database_name(db_path: Path | str) -> str:
    """The name Datasette serves a database file under, its stem (the web app's links to it use the same)."""
    return Path(db_path).stem


def metadata(app_url: str = APP_URL, database: str = DATABASE) -> dict:
    """The metadata file as a dict for a database served as `database`: its links to the web app point at
    `app_url`; its description of the database, and its links to the database's pages, follow the name."""
    text = (METADATA.read_text(encoding="utf-8").replace(APP_URL, app_url.rstrip("/"))
            .replace(f'href="/{DATABASE}/', f'href="/{tilde_encode(database)}/'))
    data = parse_metadata(text)
    data["databases"] = {database: data["databases"][DATABASE]}
    return data


def settings() -> dict:
    """Datasette settings (SQL time limit, page sizes)."""
    return json.loads(SETTINGS.read_text(encoding="utf-8"))


class Browser(Datasette):
    """Datasette whose absolute URLs (a JSON answer's next_url and facets' toggle_url, the Link header) start
    with the configured `base_url`: Datasette's own start with the Host a request names."""

    def __init__(self, *args, base_url: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.public_url = base_url.rstrip("/")

    def absolute_url(self, request, path):
        here = self.public_url + request.path + (f"?{request.query_string}" if request.query_string else "")
        return urljoin(here, path)


def datasette(db_path: Path, app_url: str = APP_URL, base_url: str = DATASETTE_URL) -> Datasette:
    """A Datasette serving `db_path` read-only with our metadata, and an empty in-memory database, _memory; its
    links to the web app start with `app_url`, its own absolute URLs with `base_url`. The file is served as
    mutable (Datasette opens it mode=ro, with SQLite's locks): an add or a remove writes it in place, which a
    connection opened immutable would read torn, and each statement then reads one version of it."""
    # Imported here, after datasette.app: imported first, it would miss being registered as a plugin.
    from datasette import handle_exception
    # When rich is importable (transformers brings it), Datasette prints every error with its locals, and for a
    # URL no route matches it calls rich outside an `except` block, which raises: the 404 became a 500. Without
    # rich it still logs the traceback of a real 500.
    handle_exception.rich = None
    if not pm.is_registered(datasette_plugin):
        pm.register(datasette_plugin, name=datasette_plugin.NAME)
    ds = Browser(files=[str(db_path)], metadata=metadata(app_url, database_name(db_path)),
                 settings=settings(), template_dir=str(TEMPLATES), base_url=base_url)
    # An in-memory database too, as `datasette --memory` adds: SQL that needs no table runs at /_memory.
    # Added after the file, so that the file stays Datasette's first database.
    ds.add_database(Database(ds, is_memory=True), name="_memory")
    return ds


def serve(db_path: Path, host: str = "127.0.0.1", port: int = 8001, app_url: str = APP_URL,
          base_url: str = DATASETTE_URL) -> None:
    """Run Datasette on host:port until interrupted (uvicorn, as `datasette serve` does), with SQLite's memory
    capped for the whole process (service/sql_bounds.py)."""
    import asyncio

    import uvicorn

    limit_heap(str(db_path))
    ds = datasette(db_path, app_url, base_url)
    asyncio.run(ds.invoke_startup())
    uvicorn.run(ds.app(), host=host, port=port, log_level="warning", lifespan="on")
