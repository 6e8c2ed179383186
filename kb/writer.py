"""Applying a changeset to an open database (in one transaction kb.atomic commits, or on a new file it swaps in):
sources removed with every row that is theirs, rows inserted, then the derived tables brought up to date."""
from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import sqlite_utils

from kb.verify import record_statuses
from model.changeset import TABLES, Changeset, Edition, Stored
from model.editions import EDITION_ORDER
from model.errors import FileError


def apply(db: sqlite_utils.Database, changeset: Changeset, previous: Path | None = None) -> dict[str, int]:
    """Write `changeset` into `db` (whose schema is this release's) and bring statuses, the full-text index, the
    lexicon and the vectors up to date (reusing those `db` holds, and those of `previous`, the database a new one
    replaces, for every passage whose text is unchanged): in a database that has them, those of the games the
    changeset touches only, so that a write costs what its games cost, not the library. Returns what the
    database then holds, table by table."""
    from kb.lexicon import lexicon_rows
    games = touched_games(db, changeset) if _searchable(db) else None
    stale = lexicon_rows(db.conn, games) if games is not None else ()
    removed = sum(_remove(db, source) for source in changeset.remove)
    removed += sum(_remove(db, source, editions=False) for source in changeset.replace)
    for source, version in changeset.remove_editions:
        db.execute("delete from ruling_history where source = ? and version = ?", [source, version])
        db.execute("delete from source_versions where source = ? and version = ?", [source, version])
        db.execute("delete from originals where source = ? and version = ?", [source, version])
    db.execute("delete from formats where name not in (select format from source_versions)")  # none reads it
    for table in TABLES:
        rows = changeset.rows.get(table, [])
        if table == "games":
            db[table].upsert_all(rows, pk="slug")  # a game stored keeps its publisher, and its name unless renamed
        elif table == "formats":
            db[table].upsert_all(rows, pk="name")  # what this release's reader declares
        else:
            db[table].insert_all(rows)
    touched = [r["source"] for r in changeset.rows.get("source_versions", [])] + changeset.remove + \
        [source for source, _ in changeset.remove_editions]
    log(db, changeset.action, list(dict.fromkeys(touched)), changeset.count("rulings"), removed)
    record_statuses(db.conn, games)
    enable_search(db, previous, games, stale)
    return {table: db[table].count for table in ("sources", "rulings", "examples", "gaps", "xrefs")}


def log(db: sqlite_utils.Database, action: str, sources: list[str] = (), added: int = 0, removed: int = 0) -> None:
    """Record a change in the `changesets` log: what was done, to which sources, when, and how many rulings
    came and went."""
    db["changesets"].insert({"action": action, "source": ", ".join(sources),
                             "applied_at": datetime.now(UTC).isoformat(timespec="seconds"),
                             "rulings_added": added, "rulings_removed": removed})


def enable_search(db: sqlite_utils.Database, previous: Path | None = None, games: list[str] | None = None,
                  stale: list[tuple[str, str, str]] = ()) -> None:
    """Both indexes and the lexicon: full text over rulings' title, section path, text and examples (porter
    stemming) — the path carries the name of the spell or topic a lettered clarification sits under — kept up to
    date by triggers on `rulings` from then on; the lexicon (`kb.lexicon.write_lexicon`); and a vector per passage
    (reusing those `db` holds, and those of `previous`, the database a new one replaces, where the text is
    unchanged). With `games`, the full text is already up to date, and the lexicon (less `stale`, its rows
    before the change) and vectors of those games only are derived again; without, everything is."""
    from kb.embeddings import write_embeddings
    from kb.lexicon import write_lexicon
    if games is None or not _searchable(db):
        games = None
        db["rulings"].enable_fts(FTS_COLUMNS, tokenize="porter", replace=True)
        for trigger in FTS_TRIGGERS:
            db.execute(trigger)
        # enable_fts leaves an index it finds already configured as it was: rebuild it from the table.
        db["rulings"].rebuild_fts()
    write_lexicon(db, games, stale)
    write_embeddings(db, previous, games)


FTS_COLUMNS = ["title", "section", "text", "examples_text"]
_OLD = ", ".join(f"old.{column}" for column in FTS_COLUMNS)
_NEW = ", ".join(f"new.{column}" for column in FTS_COLUMNS)
_DELETE = f"insert into rulings_fts (rulings_fts, rowid, {', '.join(FTS_COLUMNS)}) values ('delete', old.rowid, {_OLD});"
_INSERT = f"insert into rulings_fts (rowid, {', '.join(FTS_COLUMNS)}) values (new.rowid, {_NEW});"
# The full-text index follows `rulings` row by row, so that an add or a remove indexes its own rulings only. Not
# sqlite-utils' triggers: theirs fire on any column's update, and every write updates every ruling's status.
FTS_TRIGGERS = (
    f"create trigger if not exists rulings_fts_insert after insert on rulings begin {_INSERT} end",
    f"create trigger if not exists rulings_fts_delete after delete on rulings begin {_DELETE} end",
    (f"create trigger if not exists rulings_fts_update after update of {', '.join(FTS_COLUMNS)} on rulings "
     f"begin {_DELETE} {_INSERT} end"),
)


def _searchable(db: sqlite_utils.Database) -> bool:
    """Whether `db` has the full-text index with the triggers that keep it up to date (a new database has
    neither; one made before issue 45, no triggers)."""
    found = {row[0] for row in db.execute("select name from sqlite_master where name in "
                                          "('rulings_fts', 'rulings_fts_insert', 'rulings_fts_delete', "
                                          "'rulings_fts_update')")}
    return len(found) == 4


def touched_games(db: sqlite_utils.Database, changeset: Changeset) -> list[str]:
    """The games whose rulings `changeset` adds, removes or replaces, as `db` holds them before it is applied."""
    sources = [*changeset.remove, *changeset.replace, *(source for source, _ in changeset.remove_editions)]
    marks = ", ".join("?" * len(sources))
    games = [row[0] for row in db.execute(f"select game from sources where id in ({marks})", sources)]
    games += [row["game"] for table in ("sources", "rulings") for row in changeset.rows.get(table, [])]
    return sorted(set(games))


def stored(db: sqlite_utils.Database, game: str, source: str) -> Stored:
    """What a new document `source` of `game` depends on in `db` (model.changeset.Stored)."""
    def column(sql: str) -> list:
        return [value for (value,) in db.execute(sql)]

    rulings = tuple(SimpleNamespace(**row) for row in db.query(
        "select id, game, title, text, kind from rulings where game = ? and source != ?", [game, source]))
    spans: dict[str, list[tuple[int, int]]] = {}
    for row in db.query("select x.from_id, x.start, x.end from xrefs x join rulings r on r.id = x.from_id "
                        "where r.game = ? and x.start is not null", [game]):
        spans.setdefault(row["from_id"], []).append((row["start"], row["end"]))
    found = db["games"].rows_where("slug = ?", [game])
    return Stored(source_ids=frozenset(column("select id from sources")),
                  ruling_ids=frozenset(column("select id from rulings")),
                  abbrevs=tuple(column("select abbrev from sources where abbrev is not null")),
                  refs=tuple(column("select ref from rulings where ref is not null")),
                  game_name=next((g["name"] for g in found), None), rulings=rulings, spans=spans,
                  editions=tuple(_edition(db, row) for row in db.query(
                      "select id, title, abbrev from sources where game = ? order by id", [game])))


def _edition(db: sqlite_utils.Database, source: dict) -> Edition:
    """A stored source as a new document may take it up: its editions and each one's rulings."""
    versions = tuple(db.query("select version, effective, sha256, current from source_versions where source = ? "
                              f"{EDITION_ORDER}", [source["id"]]))
    history: dict[str, list[dict]] = {v["version"]: [] for v in versions}
    for row in db.query("select h.* from ruling_history h where source = ? order by rowid", [source["id"]]):
        history[row["version"]].append(row)
    rows = [row for found in history.values() for row in found]
    return Edition(source["id"], source["title"], source["abbrev"], versions, history,
                   frozenset(r["ruling_id"] for r in rows), frozenset(r["ref"] for r in rows))


def _remove(db: sqlite_utils.Database, source: str, editions: bool = True) -> int:
    """Delete `source` and every row that is its own or points at one of its rulings (the derived tables are
    rebuilt after); its editions too, and its game when no other source is left in it, unless `editions` is
    false (a new edition takes its place). Returns how many rulings went; FileError if there is no such
    source."""
    row = next(db["sources"].rows_where("id = ?", [source]), None)
    if row is None:
        known = ", ".join(sorted(value for (value,) in db.execute("select id from sources"))) or "none"
        raise FileError(str(db.conn.execute("pragma database_list").fetchone()[2]),
                        f"no source {source!r} (sources: {known})")
    rulings = "(select id from rulings where source = :source)"
    tables = "(select id from rule_tables where source = :source)"
    for sql in (f"delete from verifications where ruling_id in {rulings}",
                f"delete from unexecutable where ruling_id in {rulings}",
                f"delete from examples where ruling_id in {rulings}",
                f"delete from xrefs where from_id in {rulings} or to_id in {rulings}",
                f"delete from spells where ruling_id in {rulings}",
                f"delete from rule_table_rows where table_id in {tables}",
                "delete from rule_tables where source = :source",
                "delete from gaps where source = :source"):
        db.execute(sql, {"source": source})
    count = db.execute("delete from rulings where source = :source", {"source": source}).rowcount
    if not editions:
        db.execute("delete from sources where id = :source", {"source": source})
        db.execute("update source_versions set current = 0 where source = :source", {"source": source})
        return count
    db.execute("delete from ruling_history where source = :source", {"source": source})
    db.execute("delete from source_versions where source = :source", {"source": source})
    db.execute("delete from originals where source = :source", {"source": source})
    db.execute("delete from sources where id = :source", {"source": source})
    db.execute("delete from games where slug = :game and not exists (select 1 from sources where game = :game)",
               {"game": row["game"]})
    return count
