"""A source's rulings given the ids they keep for life across its editions (ingest.editions.lineage), in place.

Run after an edition is filed among the others (a new edition in the middle can join a rule of the edition
before it to the rule of the one after it) and by the migration to schema 5 (databases whose editions were
matched by number). Every stored id of a ruling is renamed where the lineage gives it another: in the current
rows and everything tied to a ruling's id (examples, tables, spells, links from any source, vectors, test
results), in each edition's history and kept rows. An id no ruling has any more redirects to the ruling's id
(`ruling_redirects`), so that a permalink keeps working.
"""
from __future__ import annotations

import json

import sqlite_utils

from ingest.editions import lineage, remap
from model.editions import EDITION_ORDER

# (table, column, owner column): a column holding a ruling id; with an owner, an id made from its ruling's
# ("<ruling id>/example-1") that follows it.
_ID_COLUMNS = (("rulings", "id", None), ("rulings", "parent", None), ("examples", "id", "ruling_id"),
               ("examples", "ruling_id", None), ("unexecutable", "ruling_id", None),
               ("verifications", "test_id", "ruling_id"), ("verifications", "ruling_id", None),
               ("xrefs", "from_id", None), ("xrefs", "to_id", None),
               ("rule_tables", "id", "ruling_id"), ("rule_tables", "ruling_id", None),
               ("spells", "id", "ruling_id"), ("spells", "ruling_id", None), ("embeddings", "ruling_id", None))


def reidentify(db: sqlite_utils.Database, source: str) -> int:
    """Give `source`'s rulings, in every edition, the ids of their lineage; how many ids changed."""
    editions = list(db.query(f"select * from source_versions where source = ? {EDITION_ORDER}", [source]))
    if len(editions) < 2:
        return 0
    history = {e["version"]: list(db.query("select rowid as _rowid, * from ruling_history where source = ? "
                                           "and version = ? order by rowid", [source, e["version"]]))
               for e in editions}
    changed = [{old: new for old, new in ids.items() if old != new}
               for ids in lineage([history[e["version"]] for e in editions])]
    if not any(changed):
        return 0
    for edition, ids in zip(editions, changed):
        if not ids:
            continue
        rows = json.loads(edition["rows"])
        rows = remap(rows, ids, source)
        db.execute("update source_versions set rows = ? where source = ? and version = ?",
                   [json.dumps(rows, ensure_ascii=False), source, edition["version"]])
        _rename(db, "ruling_history", "ruling_id", {row["_rowid"]: ids[row["ruling_id"]]
                                                    for row in history[edition["version"]] if row["ruling_id"] in ids})
        if edition["current"]:
            _rename_current(db, ids)
    final = {row[0] for row in db.execute("select distinct ruling_id from ruling_history where source = ?", [source])}
    renamed = {old: new for ids in changed for old, new in ids.items()}  # the latest edition's last
    gone = {old: new for old, new in renamed.items() if old not in final}
    for old, new in list(db.execute("select old_id, new_id from ruling_redirects")):
        if new in gone:  # a redirect to an id renamed since leads to its new one
            db.execute("update ruling_redirects set new_id = ? where old_id = ?", [gone[new], old])
    for old, new in gone.items():
        db.execute("insert or replace into ruling_redirects (old_id, new_id) values (?, ?)", [old, new])
    return sum(len(ids) for ids in changed)


def _rename_current(db: sqlite_utils.Database, ids: dict[str, str]) -> None:
    """The current rows' ruling ids (and the ids made from them) renamed as `ids` says."""
    for table, column, owner in _ID_COLUMNS:
        if not db[table].exists():
            continue
        found = {}
        for row in db.query(f"select rowid as _rowid, {column} as value{f', {owner} as owner' if owner else ''} "
                            f"from {table}"):
            value = row["value"]
            if owner is None and value in ids:
                found[row["_rowid"]] = ids[value]
            elif owner and row["owner"] in ids and value and value.startswith(row["owner"]):
                found[row["_rowid"]] = ids[row["owner"]] + value[len(row["owner"]):]
        if (table, column) == ("rule_tables", "id"):  # a table's rows follow its id
            tables = {row["value"]: found[row["_rowid"]] for row in db.query(
                "select rowid as _rowid, id as value from rule_tables") if row["_rowid"] in found}
            _rename(db, "rule_table_rows", "table_id", {
                row["_rowid"]: tables[row["table_id"]] for row in db.query(
                    "select rowid as _rowid, table_id from rule_table_rows") if row["table_id"] in tables})
        _rename(db, table, column, found)


def _rename(db: sqlite_utils.Database, table: str, column: str, values: dict[int, str]) -> None:
    """Rows (by rowid) of `table` given new `column` values: first each a placeholder of its own, so that ids
    that swap (a rule's id given to another) never meet."""
    for rowid in values:
        db.execute(f"update {table} set {column} = ? where rowid = ?", [f"\0{table}:{rowid}", rowid])
    for rowid, value in values.items():
        db.execute(f"update {table} set {column} = ? where rowid = ?", [value, rowid])
