"""Tables that a flattening turned into running text, recovered row by row as the manifest describes."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.errors import IngestError
from ingest.manifest import SourceEntry, TableSpec
from ingest.records import Ruling, Table
from ingest.segment import slugify
from ingest.text import MappedText


@dataclass(frozen=True)
class Found:
    """A declared table where it stands in the cleaned text: [start, end) from its start phrase to its end
    phrase (exclusive), and its rows."""

    spec: TableSpec
    start: int
    end: int
    rows: list[dict]

    def markup(self) -> str:
        """The table in the stored text's form: a header of its column names ("_" read as a space), then a
        pipe row per row."""
        header = [column.replace("_", " ") for column in self.spec.columns]
        lines = [header] + [[row[column] for column in self.spec.columns] for row in self.rows]
        return "\n".join("| " + " | ".join(cells) + " |" for cells in lines)


def locate(entry: SourceEntry, doc: MappedText) -> list[Found]:
    """Every table the entry declares, found in the cleaned text and read row by row."""
    found = []
    for spec in entry.tables:
        start = doc.text.find(spec.start)
        end = doc.text.find(spec.end, start + 1) if start >= 0 else -1
        if start < 0 or end < 0:
            raise IngestError(f"{entry.file}", f"source {entry.id}: table '{spec.name}' not found "
                              f"(start {spec.start!r}, end {spec.end!r})")
        body_start = start + len(spec.start)
        rows = [{k: " ".join(v.split()) for k, v in m.groupdict().items()}
                for m in re.finditer(spec.row, doc.text[body_start:end].strip())]
        if not rows:
            raise IngestError(entry.file, f"source {entry.id}: table '{spec.name}' has no row matching its pattern")
        found.append(Found(spec, start, end, rows))
    return found


def extract(entry: SourceEntry, located: list[Found], rulings: list[Ruling], cite) -> list[Table]:
    """The located tables as records; each table belongs to the ruling whose text holds it."""
    found = []
    for table in located:
        citation = cite([(table.start, table.end)])
        owner = next((r for r in rulings if r.citation.char_start <= citation.char_start < r.citation.char_end),
                     rulings[0])
        found.append(Table(f"{owner.id}/table/{slugify(table.spec.name)}", entry.id, owner.id, table.spec.name,
                           list(table.spec.columns), table.rows, citation))
    return found
