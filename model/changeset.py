"""A changeset: everything one write does to the database, as plain rows, built by ingest without reading the
database and applied by kb.writer in one transaction on a copy of the file (kb.atomic)."""
from __future__ import annotations

from dataclasses import dataclass, field

# The tables a changeset writes, in the order their rows go in (each after the tables its rows refer to).
TABLES = ("games", "formats", "sources", "rulings", "examples", "xrefs", "gaps", "rule_tables", "rule_table_rows", "spells",
          "unexecutable", "source_versions", "ruling_history", "originals")


@dataclass
class Changeset:
    """`action` ("build", "add", "edition", "remove", "remove edition" or "unchanged") removes the sources
    `remove` names, with every row that is theirs, the current rows of the sources `replace` names (their
    editions kept: another edition becomes current) and the editions `remove_editions` names, then inserts
    `rows` (table name -> rows, the tables of TABLES; a game already stored keeps what its row leaves out:
    a row of slug and name renames it); "unchanged"
    writes nothing. The derived tables (statuses, full-text index, lexicon, vectors) are brought up to date
    after: only passages whose text has no stored vector are embedded. `report` is what the write tells the
    user."""

    action: str
    rows: dict[str, list[dict]] = field(default_factory=dict)
    remove: list[str] = field(default_factory=list)
    replace: list[str] = field(default_factory=list)
    remove_editions: list[tuple[str, str]] = field(default_factory=list)  # (source, version)
    report: dict = field(default_factory=dict)

    def count(self, table: str) -> int:
        return len(self.rows.get(table, ()))


@dataclass(frozen=True)
class Stored:
    """What a new document's changeset depends on in the database it joins, read by kb.writer.stored: ids
    and refs it must not reuse, the abbreviations taken, its game's name (None: a new game), and the
    game's rulings (objects with id, game, title, text, kind) with the spans of their texts that already
    link, to link names across sources."""

    source_ids: frozenset[str] = frozenset()
    ruling_ids: frozenset[str] = frozenset()
    abbrevs: tuple[str, ...] = ()
    refs: tuple[str, ...] = ()
    game_name: str | None = None
    rulings: tuple = ()
    spans: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    editions: tuple[Edition, ...] = ()


@dataclass(frozen=True)
class Edition:
    """A stored source of the game a new document may be an edition of: its title and abbreviation, its
    editions (`{"version", "effective", "sha256", "current"}`, oldest first), each edition's rulings
    (version -> `ruling_history` rows, in document order), and every ruling id and ref any edition used."""

    source: str
    title: str
    abbrev: str
    versions: tuple[dict, ...]
    history: dict[str, list[dict]]
    ids: frozenset[str]
    refs: frozenset[str]
