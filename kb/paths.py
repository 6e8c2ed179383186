"""Where the project keeps its files. A module of its own so that reading the database (`rulings ask`)
does not import the ingest machinery just to learn where `rulings.db` is."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MANIFEST = ROOT / "sources" / "sources.toml"
DEFAULT_DB = ROOT / "rulings.db"
