"""Where the project keeps its files by default: `rulings.db` and `sources/sources.toml` in the current
directory, the database overridable with the RULINGS_DB environment variable. Nothing here depends on where
the package is installed. A module of its own so that reading the database (`rulings ask`) does not import
the ingest machinery just to learn where `rulings.db` is."""
import os
from pathlib import Path

DB_ENV = "RULINGS_DB"
DEFAULT_DB = Path("rulings.db")
DEFAULT_MANIFEST = Path("sources") / "sources.toml"


def default_db() -> Path:
    """The database to use when none is named: $RULINGS_DB, else rulings.db in the current directory."""
    return Path(os.environ.get(DB_ENV) or DEFAULT_DB)
