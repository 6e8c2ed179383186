"""Tables that a flattening turned into running text, recovered row by row as the manifest describes."""
from __future__ import annotations

import re

from ingest.errors import IngestError
from ingest.manifest import SourceEntry
from ingest.records import Ruling, Table
from ingest.segment import slugify
from ingest.text import MappedText


def extract(entry: SourceEntry, doc: MappedText, rulings: list[Ruling], cite) -> list[Table]:
    """Rows of every table the entry declares; each table belongs to the ruling whose text holds it."""
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
        citation = cite([(start, end)])
        owner = next((r for r in rulings if r.citation.char_start <= citation.char_start < r.citation.char_end),
                     rulings[0])
        found.append(Table(f"{owner.id}/table/{slugify(spec.name)}", entry.id, owner.id, spec.name,
                           list(spec.columns), rows, citation))
    return found
