"""Tables that a flattening turned into running text: recovered row by row as the manifest describes, or,
where a PDF extraction read a table column by column (a header line of column names among a run of lines
holding one number each), found by their shape and written back as rows."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from ingest.classify import CELL, COLUMN_NAMES, NON_SPACE, PIPE_RUN
from ingest.classify.declared import declared
from ingest.errors import IngestError
from ingest.manifest import SourceEntry, TableSpec
from ingest.segment import slugify
from ingest.text import MappedText
from model.records import Ruling, Table


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
                for m in declared(spec.row).finditer(doc.text[body_start:end].strip())]
        if not rows:
            raise IngestError(entry.file, f"source {entry.id}: table '{spec.name}' has no row matching its pattern")
        found.append(Found(spec, start, end, rows))
    return found


def place(tables: list[Found], doc: MappedText) -> list[Found]:
    """Tables found by their shape (`read_down`), where their rows now stand in `doc` (a shape may have
    cleaned the text further)."""
    placed = []
    for table in tables:
        start = doc.text.find(table.markup())
        if start >= 0:
            placed.append(Found(table.spec, start, start + len(table.markup()), table.rows))
    return placed


def marked(doc: MappedText, located: list[Found]) -> list[Found]:
    """Tables the readers wrote as rows (`| a | b |` lines: markdown and HTML tables), each run of two or more
    such lines a table whose first row names its columns; runs inside `located` tables are theirs already.
    Their text stays as it stands: only the table record is new."""
    found = []
    for run in PIPE_RUN.finditer(doc.text):
        start, end = run.span()
        if any(table.start < end and start < table.end for table in located):
            continue
        header, *body = ([cell.strip() for cell in line.strip()[1:-1].split("|")]
                         for line in run.group().strip("\n").split("\n"))
        columns = _column_names(header)
        rows = [dict(zip(columns, cells + [""] * (len(columns) - len(cells)))) for cells in body]
        if rows:
            found.append(Found(TableSpec("", "", "", tuple(columns), ""), start, end, rows))
    return found


def _column_names(header: list[str]) -> list[str]:
    """The header's cells as column names, each unique and none empty ("column 2" for a blank one)."""
    names: list[str] = []
    for number, cell in enumerate(header, 1):
        name = cell or f"column {number}"
        names.append(name if name not in names else f"{name} {number}")
    return names


def extract(entry: SourceEntry, located: list[Found], rulings: list[Ruling], cite) -> list[Table]:
    """The located tables as records; each table belongs to the ruling whose text holds its rows, else the
    one whose citation holds its start. A table found by its shape is named after its ruling's section."""
    found, ids = [], set()
    for table in located:
        citation = cite([(table.start, table.end)])
        owner = next((r for r in rulings if table.markup() in r.text), None) or next(
            (r for r in rulings if r.citation.char_start <= citation.char_start < r.citation.char_end), rulings[0])
        name = table.spec.name or owner.section.split(" > ")[-1]
        # A ruling may hold two tables of one name (a section's tables named after it): the later ones numbered.
        base = f"{owner.id}/table/{slugify(name)}"
        id_ = next(c for c in (base, *(f"{base}-{n}" for n in range(2, len(located) + 2))) if c not in ids)
        ids.add(id_)
        found.append(Table(id_, entry.id, owner.id, name, list(table.spec.columns), table.rows, citation))
    return found


_MIN_ROWS = 2


@dataclass(frozen=True)
class _ReadDown:
    """A table read down its columns: the lines it took [start, end), where its rows go (`before`, or None:
    where it stands), its column names, rows, and per column the spans of each line it writes (names first)."""

    start: int
    end: int
    before: int | None
    columns: tuple[str, ...]
    rows: list[dict]
    cells: list[list[list[tuple[int, int]]]]


def read_down(doc: MappedText, page_of) -> tuple[MappedText, list[Found]]:
    """Tables a PDF extraction read column by column, written back as rows (`| a | b |` lines whose cells
    cite the numbers they came from), and the tables found.

    A table is a run of lines each holding one number, with one line of column names among its first
    column's numbers; the numbers divide into as many columns as the names (the fewest that fit), each
    column rising or falling (its first, the key, strictly). Numbered lists never qualify: their lines hold text. Extraction puts a
    floating table at the end of its page: the table moves up to the sentence on its page that introduces
    it (ending with a colon) where a heading, not the table, follows that sentence. `page_of(offset)` gives
    the page of an original offset (None for a document without pages: its tables stay where they are).
    """
    lines = _line_spans(doc.text)
    found: list[_ReadDown] = []
    index = 0
    while index < len(lines):
        run, named = _cell_run(doc.text, lines, index)
        table = _read_run(doc.text, lines[index:index + run]) if named else None
        if table:
            found.append(_ReadDown(lines[index][0], lines[index + run - 1][1],
                                   _introduction(doc, lines, index, page_of), *table))
        index += max(run, 1)  # a run without column names has none from any line inside it either
    if not found:
        return doc, []
    edits = []  # (start, end, replacement): each table's rows where it belongs, its cells gone
    for table in found:
        rows = _rows(doc, table.cells, table.start)
        if table.before is None:
            edits.append((table.start, table.end, rows))
        else:
            edits += [(table.before, table.before, MappedText.join([MappedText.at("\n", doc.offsets[table.start]), rows])),
                      (table.start, min(table.end + 1, len(doc.text)), MappedText.of(""))]
    parts, pos = [], 0
    for start, end, replacement in sorted(edits, key=lambda edit: edit[:2]):
        parts += [doc.slice(pos, start), replacement]
        pos = end
    doc = MappedText.join(parts + [doc.slice(pos, len(doc.text))])
    return doc, place([Found(TableSpec("", "", "", table.columns, ""), 0, 0, table.rows) for table in found], doc)


def _line_spans(text: str) -> list[tuple[int, int]]:
    spans, pos = [], 0
    for line in text.split("\n"):
        spans.append((pos, pos + len(line)))
        pos += len(line) + 1
    return spans


def _cell_run(text: str, lines: list[tuple[int, int]], index: int) -> tuple[int, bool]:
    """How many lines from `index` hold a number each or column names (one such line at most), and whether
    one held the names."""
    run = headers = 0
    for start, end in (lines[i] for i in range(index, len(lines))):  # no copy of the rest of the lines
        line = text[start:end].strip()
        if CELL.fullmatch(line):
            run += 1
        elif run and not headers and COLUMN_NAMES.fullmatch(line):
            headers += 1
            run += 1
        else:
            break
    return run, bool(headers)


def _read_run(text: str, run: list[tuple[int, int]]):
    """(column names, rows, cell spans by column) of a run read down its columns, or None."""
    stripped = [(text[start:end].strip(), start + len(text[start:end]) - len(text[start:end].lstrip()))
                for start, end in run]
    header_at = next(i for i, (line, _) in enumerate(stripped) if not CELL.fullmatch(line))
    cells = [(value, at) for i, (value, at) in enumerate(stripped) if i != header_at]
    words = [(m.group(), stripped[header_at][1] + m.start()) for m in NON_SPACE.finditer(stripped[header_at][0])]
    for width in range(2, len(words) + 1):
        height = len(cells) // width
        if len(cells) % width or len(words) % width or height < _MIN_ROWS or header_at > height:
            continue
        columns = [cells[c * height:(c + 1) * height] for c in range(width)]
        if not all(_monotonic([_number(value) for value, _ in column], strict=not c)
                   for c, column in enumerate(columns)):
            continue
        per = len(words) // width
        names = tuple(" ".join(word for word, _ in words[c * per:(c + 1) * per]) for c in range(width))
        if len(set(names)) < width:
            continue
        # Per column, per line of the rows written back (its name first), the spans of the words it holds.
        spans = [[[(at, at + len(word)) for word, at in words[c * per:(c + 1) * per]]]
                 + [[(at, at + len(value))] for value, at in columns[c]] for c in range(width)]
        rows = [{names[c]: columns[c][r][0] for c in range(width)} for r in range(height)]
        return names, rows, spans
    return None


def _number(cell: str) -> float:
    return float("".join(c for c in cell.replace(",", ".") if c.isdecimal() or c == ".") or 0) * (-1 if cell[:1] in "-–" else 1)


def _monotonic(values: list[float], strict: bool) -> bool:
    """Do the values rise or fall throughout (strictly: a key column; else they may repeat: 1, 2, 2, 4)?"""
    steps = [b - a for a, b in pairwise(values)]
    if strict:
        return all(step > 0 for step in steps) or all(step < 0 for step in steps)
    return all(step >= 0 for step in steps) or all(step <= 0 for step in steps)


def _introduction(doc: MappedText, lines: list[tuple[int, int]], index: int, page_of) -> int | None:
    """Where a table read at line `index` belongs: the end of the last line before it on its page that
    introduces something (ends with a colon) and is followed by a heading-like line (short, unpunctuated),
    so that what it introduced is missing there; None when there is none."""
    page = page_of(doc.offsets[lines[index][0]])
    if page is None:
        return None
    following = None
    for position in range(index - 1, -1, -1):
        start, end = lines[position]
        line = doc.text[start:end].strip()
        if not line:
            continue
        if page_of(doc.offsets[start]) != page:
            return None
        if line.rstrip("”\"')]").endswith(":") and following is not None and _heading_like(following):
            return end
        following = line
    return None


def _heading_like(line: str) -> bool:
    """A short line without final punctuation that opens with a capital (after a heading's marks, "## Game End"):
    what follows a finished passage."""
    line = line.lstrip("#").lstrip()
    return len(line.split()) <= 8 and line[:1].isupper() and not line.endswith(tuple(".,;:!?"))


def _rows(doc: MappedText, cells: list[list[list[tuple[int, int]]]], at: int) -> MappedText:
    """The table as `| a | b |` lines, its column names first: every word and number cites its place in the
    document; the pipes and spaces between words cite the table's start `at`."""
    pipe, space, pipe_after, newline = (MappedText.at(mark, doc.offsets[at]) for mark in ("|", " ", " |", "\n"))
    parts: list[MappedText] = []
    for row in range(len(cells[0])):
        if parts:
            parts.append(newline)
        parts.append(pipe)
        for column in cells:
            words = [doc.slice(start, end) for start, end in column[row]]
            parts += [piece for word in words for piece in (space, word)] + [pipe_after]
    return MappedText.join(parts)
