"""Reading rulings.db: connections and the lookups every consumer (CLI, search, web) shares."""
from __future__ import annotations

import sqlite3
from pathlib import Path

from kb.paths import DEFAULT_DB


class UnknownRuling(LookupError):
    """No ruling has this id."""


class DatabaseMissing(FileNotFoundError):
    """The database file does not exist (run `rulings ingest`)."""


def require(db_path: Path | str) -> Path:
    """The database's path; DatabaseMissing, naming the fix, if there is no file there."""
    path = Path(db_path)
    if not path.exists():
        raise DatabaseMissing(f"{path}: database not found; run `rulings ingest` first")
    return path


def connect(db_path: Path | str = DEFAULT_DB, *, readonly: bool = True) -> sqlite3.Connection:
    """Open the database (read-only unless asked otherwise), rows as sqlite3.Row."""
    path = require(db_path)
    uri = f"file:{path.resolve()}?mode=ro" if readonly else f"file:{path.resolve()}"
    conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    return conn


def examples_of(conn: sqlite3.Connection, ruling_ids: list[str]) -> dict[str, list[str]]:
    """The example texts of each ruling, in order."""
    if not ruling_ids:
        return {}
    marks = ",".join("?" * len(ruling_ids))
    found: dict[str, list[str]] = {rid: [] for rid in ruling_ids}
    for row in conn.execute(f"select ruling_id, text from examples where ruling_id in ({marks}) "
                            f"and kind = 'source' order by rowid", ruling_ids):
        found[row["ruling_id"]].append(row["text"])
    return found


def ruling(conn: sqlite3.Connection, ruling_id: str) -> dict:
    """One ruling as a dict, with its examples' texts; UnknownRuling if absent."""
    row = conn.execute("select * from rulings where id = ?", [ruling_id]).fetchone()
    if row is None:
        raise UnknownRuling(ruling_id)
    result = dict(row)
    result["examples"] = examples_of(conn, [ruling_id])[ruling_id]
    return result


def games(conn: sqlite3.Connection) -> list[dict]:
    """Every game with its number of rulings."""
    return [dict(r) for r in conn.execute(
        "select g.slug, g.name, g.publisher, count(r.id) as rulings from games g "
        "left join rulings r on r.game = g.slug group by g.slug order by g.name")]
