"""Plain records that ingest produces and the knowledge base stores."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class Citation:
    """Where a ruling or example stands in its source: document line numbers and original characters."""

    source: str
    line_start: int
    line_end: int
    char_start: int
    char_end: int
    file_line_start: int
    file_line_end: int


@dataclass
class Example:
    id: str
    ruling_id: str
    label: str
    text: str
    citation: Citation


@dataclass
class Ruling:
    id: str
    game: str
    source: str
    section: str           # "Magic > Earth: Gold Magic > Stoneskin"
    label: str
    title: str
    text: str
    kind: str
    position: int          # order within the source
    citation: Citation
    examples: list[Example] = field(default_factory=list)


@dataclass
class Table:
    id: str
    source: str
    ruling_id: str
    name: str
    columns: list[str]
    rows: list[dict]
    citation: Citation


@dataclass
class Gap:
    source: str
    kind: str              # truncated | missing-section | missing-content | unresolved-reference | unstated
    description: str
    line: int


@dataclass
class CrossRef:
    from_id: str
    text: str              # the reference as written: "see Breath of Life"
    target: str            # what it names: "Breath of Life"
    to_id: str | None      # the ruling it resolves to, if any


@dataclass
class Spell:
    """A structured spell record (Wizard Dice style: name, type letters, dice pattern, effect)."""

    id: str
    ruling_id: str
    game: str
    name: str
    type: str
    pattern: str
    effect: str


@dataclass
class ParsedSource:
    """Everything one document yields."""

    rulings: list[Ruling]
    tables: list[Table] = field(default_factory=list)
    gaps: list[Gap] = field(default_factory=list)
    xrefs: list[CrossRef] = field(default_factory=list)
    spells: list[Spell] = field(default_factory=list)
    cleaned_text: str = ""


def flat(record) -> dict:
    """A record as a flat dict for a database row (citation fields inlined, examples dropped)."""
    row = asdict(record)
    row.pop("examples", None)
    citation = row.pop("citation", None)
    if citation:
        row.update({k: v for k, v in citation.items() if k != "source"})
    return row
