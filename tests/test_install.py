"""The project installed with `pip install` (not editable) into a fresh virtual environment and run from another
folder: `rulings ask`, `serve`, `browse` and `add` work against the database RULINGS_DB names, with the
templates, static files, OpenAPI description and Datasette configuration read from the installed package.

Why the dependencies are shared: installing torch, sentence-transformers, Datasette and the rest into a new
environment would take minutes and the network. So only the project is installed (`pip install --no-deps
--no-build-isolation`, with the running environment's pip and setuptools), and a .pth file in the new
environment's site-packages lists the running environment's site-packages. A path line in a .pth file only
appends that folder to sys.path, after the new environment's own site-packages; the .pth files there, such as
the editable install's finder, are never run. So the project's modules come from the new environment (asserted
below), never from the checkout. What is installed is a copy of the checkout's packaging files (pyproject.toml,
README.md, the packages), so that the build writes nothing into the checkout (and no stale build/ folder there
can add files to the wheel). The question model is the running environment's export (RULINGS_ONNX_MODEL),
since exporting it again would need torch for a minute.
"""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sysconfig
import tomllib
import venv
from pathlib import Path
from urllib.request import urlopen

import pytest

from kb.onnx_embedder import onnx_path
from support import REPO_DB, ROOT
from support.servers import running_server

pytestmark = pytest.mark.slow

QUESTION = "Can a reserve army double its magic?"
RESERVE = "dragon-dice/magic/general/m"
PACKAGING = ("pyproject.toml", "README.md")


def packages() -> list[str]:
    """The top-level packages pyproject.toml ships ("kb*" → kb)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return sorted({pattern.split(".")[0].rstrip("*") for pattern in
                   config["tool"]["setuptools"]["packages"]["find"]["include"]})


class Installed:
    """A virtual environment with the project installed, an empty folder to run it from, and a copy of the
    repository's database (named judge.db, so nothing can find it by the default name) for RULINGS_DB."""

    def __init__(self, root: Path):
        self.root = root
        self.venv, self.cwd, self.db = root / "venv", root / "elsewhere", root / "data" / "judge.db"
        self.cwd.mkdir()
        self.db.parent.mkdir()
        shutil.copy(REPO_DB, self.db)
        venv.create(self.venv, with_pip=False)
        self.python, self.rulings = self.venv / "bin" / "python", self.venv / "bin" / "rulings"
        self.site = Path(self.run_python("import sysconfig; print(sysconfig.get_paths()['purelib'])").strip())
        shared = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
        (self.site / "shared-dependencies.pth").write_text("\n".join(shared) + "\n", encoding="utf-8")
        source = root / "source"
        source.mkdir()
        for name in PACKAGING:
            shutil.copy(ROOT / name, source / name)
        for package in packages():
            shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__"))
        subprocess.run([self.python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                        "--no-index", "--ignore-installed", "--disable-pip-version-check", str(source)],
                       check=True, cwd=self.cwd, env=self.env(), capture_output=True)

    def env(self, db: Path | None = None) -> dict[str, str]:
        """The environment a user's shell would give: RULINGS_DB (default the copy), the model's export,
        offline; nothing pointing Python at the checkout."""
        env = {key: value for key, value in os.environ.items() if key not in {"PYTHONPATH", "PYTHONHOME"}}
        return {**env, "RULINGS_DB": str(db or self.db), "RULINGS_ONNX_MODEL": str(onnx_path()),
                "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}

    def run_python(self, code: str) -> str:
        return subprocess.run([self.python, "-c", code], check=True, cwd=self.cwd, env=self.env(),
                              capture_output=True, text=True).stdout

    def rulings_command(self, *args: str, db: Path | None = None, env: dict | None = None):
        return subprocess.run([self.rulings, *args], check=False, cwd=self.cwd, env=env or self.env(db),
                              capture_output=True, text=True, timeout=120)

    def server(self, command: str, log_name: str):
        """`rulings <command>` from the environment on a free port, with no --db: RULINGS_DB names it."""
        return running_server(None, (command,), self.root / log_name, command=(str(self.rulings),),
                              env=self.env(), cwd=self.cwd)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    return Installed(tmp_path_factory.mktemp("install"))


def get_json(url: str):
    with urlopen(url, timeout=30) as response:
        return json.load(response)


def test_the_project_is_imported_from_the_new_environment_with_its_package_data(installed):
    origins = json.loads(installed.run_python(
        f"import importlib, json; print(json.dumps({{name: importlib.import_module(name).__file__ "
        f"for name in {packages()!r}}}))"))
    assert all(Path(origin).is_relative_to(installed.site) for origin in origins.values()), origins
    data = {path.relative_to(ROOT) for package in packages() for path in (ROOT / package).rglob("*")
            if path.is_file() and path.suffix not in {".py", ".pyc"} and "__pycache__" not in path.parts}
    assert {"service/openapi.json", "service/datasette/metadata.yml"} <= {str(path) for path in data}
    assert sorted(str(path) for path in data if not (installed.site / path).is_file()) == []


def test_ask_answers_from_the_database_rulings_db_names(installed):
    asked = installed.rulings_command("ask", QUESTION, "--json")
    assert asked.returncode == 0, asked.stderr
    answer = json.loads(asked.stdout)
    assert answer["answered"] and answer["results"][0]["id"] == RESERVE
    # Without RULINGS_DB or --db, the database is rulings.db in the current folder, which has none.
    env = {key: value for key, value in installed.env().items() if key != "RULINGS_DB"}
    missing = installed.rulings_command("ask", QUESTION, env=env)
    assert missing.returncode != 0 and "rulings.db: database not found" in missing.stderr


def test_serve_answers_searches_pages_and_its_api_description(installed):
    with installed.server("serve", "serve.log") as (port, _):
        base = f"http://127.0.0.1:{port}"
        found = get_json(f"{base}/api/search?q=reserve+army+double+magic")
        assert found["results"][0]["id"] == RESERVE
        assert get_json(f"{base}/api/openapi.json")["paths"]
        with urlopen(f"{base}/r/{RESERVE}", timeout=30) as page:  # a template from the package
            assert "A reserve army magic action may NEVER" in page.read().decode()
        with urlopen(f"{base}/static/style.css", timeout=30) as css:
            assert css.status == 200 and css.read()


def test_browse_answers_the_rulings_table_with_its_facets_and_metadata(installed):
    with installed.server("browse", "browse.log") as (port, _):
        base = f"http://127.0.0.1:{port}"
        with urlopen(f"{base}/judge/ruling_status", timeout=30) as page:  # the package's facet template
            assert ">Not checkable</a>" in page.read().decode()
        table = get_json(f"{base}/judge/rulings.json?_shape=array&_search=reserve+army+magic")
        assert RESERVE in [row["id"] for row in table]
        metadata = get_json(f"{base}/-/metadata.json")  # the package's configuration, keyed by the file's name
        assert metadata["databases"]["judge"]["tables"]["rulings"]["fts_table"] == "rulings_fts"


def test_add_ingests_a_document_into_the_database_rulings_db_names(installed):
    another = installed.db.with_name("another.db")
    shutil.copy(installed.db, another)
    document = installed.cwd / "errata.txt"
    document.write_text("Errata\n\n1. A reserve army may not take a magic action during a blizzard.\n\n"
                        "2. Stoneskin lasts until the end of the caster's next turn.\n", encoding="utf-8")
    added = installed.rulings_command("add", document.name, "--game", "dragon-dice", "--title", "Errata",
                                      "--json", db=another)
    assert added.returncode == 0, added.stderr
    source = json.loads(added.stdout)["source"]
    count = "select count(*) from rulings where source = ?"
    assert sqlite3.connect(another).execute(count, [source]).fetchone()[0] >= 2
    assert sqlite3.connect(installed.db).execute(count, [source]).fetchone()[0] == 0
