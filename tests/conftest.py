"""Shared fixtures: a database freshly built from the real sources (once per test session)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def built_db(tmp_path_factory) -> Path:
    """rulings.db built by `kb.build.build` from sources/sources.toml into a temp folder."""
    from kb.build import build
    path = tmp_path_factory.mktemp("db") / "rulings.db"
    build(path)
    return path


@pytest.fixture(scope="session")
def conn(built_db):
    from kb.store import connect
    connection = connect(built_db)
    yield connection
    connection.close()
