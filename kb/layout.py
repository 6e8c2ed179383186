"""A stored ruling text read back into paragraphs, lists and tables, for the web pages and the terminal.

Ingest stores prose on one line and keeps list items ("- item", "• item", "3. item", "b) item") and table
rows ("| a | b |") on lines of their own, where a passage holds two or more of them.
"""
from __future__ import annotations

import re
import textwrap

from model.text import ITEM, ROW  # the stored form is read with the patterns that wrote it

_BULLET = re.compile(r"^[-*•◦▪–]\s+")


def _cells(line: str, start: int) -> tuple[list[str], list[int]]:
    """A table row's cells and where each starts in the text (`start`: where the row does)."""
    inner = line.strip("|")
    at = start + len(line) - len(line.lstrip("|"))
    cells, starts = [], []
    for cell in inner.split("|"):
        cells.append(cell.strip())
        starts.append(at + len(cell) - len(cell.lstrip()))
        at += len(cell) + 1
    return cells, starts


def blocks(text: str) -> list[dict]:
    """The text as blocks in order: {"kind": "paragraph", "text"}, {"kind": "list", "numbered", "items"} (a
    numbered list keeps its numbers in its items) and {"kind": "table", "rows"} (lists of cells, the first
    row the header). A lone item or row is a paragraph. Each block's `at` says where its pieces start in
    `text` (a paragraph's offset, a list's item offsets, a table's cell offsets row by row, None for a
    padding cell), so that marks made on the whole text (links) land on the right piece."""
    lines, position = [], 0
    for raw in text.split("\n"):
        if raw.strip():
            lines.append((raw.strip(), position + len(raw) - len(raw.lstrip())))
        position += len(raw) + 1
    items = sum(bool(ITEM.match(line)) for line, _ in lines)
    rows = sum(bool(ROW.match(line)) for line, _ in lines)
    found: list[dict] = []
    for line, start in lines:
        if rows >= 2 and ROW.match(line):
            cells, starts = _cells(line, start)
            if found and found[-1]["kind"] == "table":
                found[-1]["rows"].append(cells)
                found[-1]["at"].append(starts)
            else:
                found.append({"kind": "table", "rows": [cells], "at": [starts]})
        elif items >= 2 and ITEM.match(line):
            numbered = not _BULLET.match(line)
            skip = 0 if numbered else _BULLET.match(line).end()
            if found and found[-1]["kind"] == "list" and found[-1]["numbered"] == numbered:
                found[-1]["items"].append(line[skip:])
                found[-1]["at"].append(start + skip)
            else:
                found.append({"kind": "list", "numbered": numbered, "items": [line[skip:]], "at": [start + skip]})
        else:
            found.append({"kind": "paragraph", "text": line, "at": start})
    for block in found:  # every row of a table as wide as its widest
        if block["kind"] == "table":
            width = max(len(row) for row in block["rows"])
            block["rows"] = [row + [""] * (width - len(row)) for row in block["rows"]]
            block["at"] = [starts + [None] * (width - len(starts)) for starts in block["at"]]
    return found


def plain(text: str, width: int = 100, indent: str = "  ") -> str:
    """The text for a terminal: paragraphs wrapped to `width`, list items under a hanging indent, tables as
    columns aligned with spaces."""
    out: list[str] = []
    for block in blocks(text):
        if block["kind"] == "paragraph":
            out.append(textwrap.fill(block["text"], width, initial_indent=indent, subsequent_indent=indent))
        elif block["kind"] == "list":
            for item in block["items"]:
                marker = "" if block["numbered"] else "- "
                out.append(textwrap.fill(marker + item, width, initial_indent=indent,
                                         subsequent_indent=indent + "   "))
        else:
            widths = [max(len(row[column]) for row in block["rows"]) for column in range(len(block["rows"][0]))]
            for number, row in enumerate(block["rows"]):
                out.append((indent + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True))).rstrip())
                if number == 0:
                    out.append(indent + "  ".join("-" * w for w in widths))
    return "\n".join(out)
