"""Plain records that ingest produces and the knowledge base stores."""
from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field


@dataclass
class Citation:
    """Where a ruling or example stands in its source: document line numbers, the characters
    [char_start, char_end) of the text the source shows (ParsedSource.selected_text, stored as
    sources.original_text), and the page."""

    source: str
    line_start: int
    line_end: int
    char_start: int
    char_end: int
    file_line_start: int
    file_line_end: int
    page: int | None = None  # the page it starts on, where the document has pages (PDF, footers, form feeds)
    page_end: int | None = None  # the page it ends on (the same page, or a later one)
    pdf_page: int | None = None  # in a PDF, the index of the page it starts on (what `#page=` opens)


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
    parent: str | None = None  # the id of the rule this one is a subrule of (1.9.4 for 1.9.4.2)
    ref: str = ""              # the short reference a judge reads aloud ("PotL B.3"), given at build time
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
    kind: str = "see"      # see ("see X"), number ("rule 1.10") or name (a name another ruling is titled)
    # Where `target` stands in the referring ruling's text, to link it there (None: in an example).
    start: int | None = None
    end: int | None = None


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
    """Everything one document yields, with the text it was read from (each file is read once per build)."""

    rulings: list[Ruling]
    original_text: str            # the whole file, decoded
    selected_text: str            # the lines the entry covers, as a source page shows them
    first_line: int               # the file line selected_text starts at
    # Per line of selected_text, the number citations give it: a web listing's own number (None on its
    # header), else the file line.
    line_numbers: list[int | None]
    cleaned_text: str
    tables: list[Table] = field(default_factory=list)
    gaps: list[Gap] = field(default_factory=list)
    xrefs: list[CrossRef] = field(default_factory=list)
    spells: list[Spell] = field(default_factory=list)
    shape: str = ""               # the segmenter used (given, or chosen by measuring)
    # What reading found: "title", "version", "date" (front matter, or what the format declares), and for
    # the ingest report "format", "pages", "furniture" (removed line -> count), "contents", "doubt".
    found: dict = field(default_factory=dict)
    original_file: bytes | None = None  # the file as it came where its text is not the file itself (a PDF)

    @property
    def sha256(self) -> str:
        """The hex SHA-256 of the whole decoded file (UTF-8), whatever part of it the entry covers."""
        return hashlib.sha256(self.original_text.encode("utf-8")).hexdigest()


def as_row(record) -> dict:
    """A record as a flat dict for a database row (citation fields inlined, examples dropped)."""
    row = asdict(record)
    row.pop("examples", None)
    citation = row.pop("citation", None)
    if citation:
        row.update({k: v for k, v in citation.items() if k != "source"})
    return row
