"""What every reader works with: the `Document` it returns, the `Outline` it writes, and `Unreadable`.

Every reader writes the same line-oriented "outline dialect" (`## Heading`, `3. item`, `| a | b |`, a
paragraph on one line) through an `Outline`, and every character of it maps back to an offset in the
document's own source, so citations point at the lines of the file the user gave.
"""
from __future__ import annotations

import io
import zipfile
from array import array
from dataclasses import dataclass, field

from ingest.classify.markup import CITE_DEBRIS, NOT_A_HEADING, NOT_ONE_SPACE
from ingest.limits import Limits
from ingest.text import MappedText


@dataclass
class Document:
    """A document as read: its source, the normalised outline text mapped into it, and what was learned."""

    original: str          # stored as sources.original_text; citation offsets index into it
    text: MappedText       # the outline dialect the segmenters read; every character maps into `original`
    format: str            # the format's stored name (ingest.formats.Format.stored): "text", "pdf", "docx", "data"…
    page_starts: list[int] = field(default_factory=list)  # offsets in `original` where pages 2, 3, ... start
    metadata: dict = field(default_factory=dict)          # "title", "version", "date" when found
    file: bytes | None = None  # the file as read, where `original` is not the file itself (a PDF's text)


_INDENT = "   "  # per nesting level of a list
# Deeper lists are written at this indentation, so that what a level adds to every line stays bounded (markdown
# nests no deeper; a reader refuses lists nested past the `depth` limit).
_DEEPEST = 20
_NOTE_MARK = "*"  # a paragraph's text opening with a star the document prints (markdown escapes it: "\\*")
_NOTE = "[^*]: "  # how the dialect writes a footnote (`classify.FOOTNOTE`)
FENCE = "```"  # the line before and after a preformatted block, as in markdown: what it holds is never structure
# A paragraph wholly in bold reads as a heading when it is this short, does not close a sentence or clause
# (a question may: an FAQ's bold question heads its answer) and does not open like a list item, a Q/A or
# an example.
_BOLD_HEADING_WORDS = 12


def _lead(text: str) -> str:
    """How a paragraph opens when it opens with a label closed by a colon ("List 10: …" -> "list #"), else ""."""
    label, colon, _ = text.partition(":")
    if not colon or len(label.split()) > 3:
        return ""
    shape = ["#" if char.isdigit() else char for char in label.casefold() if not char.isspace()]
    return "".join(char for at, char in enumerate(shape) if not (char == "#" and at and shape[at - 1] == "#"))


def _indent(depth: int) -> str:
    return _INDENT * min(depth, _DEEPEST)


def _tidy(run: MappedText) -> MappedText:
    """One line of text: debris dropped, whitespace runs (line breaks included) made one space, ends trimmed."""
    run = run.sub(CITE_DEBRIS, lambda _: "").sub(NOT_ONE_SPACE, lambda _: " ")  # a function: no template parse
    start = 1 if run.text.startswith(" ") else 0
    end = len(run) - 1 if run.text.endswith(" ") and len(run) > start else len(run)
    return run.slice(start, end)


class Outline:
    """Writes the outline dialect into a MappedText, one line per heading, paragraph, list item or table row.

    Runs are MappedTexts whose offsets index the source. What the dialect adds (`## `, `3. `, `| `, the
    indentation of nested lists) maps to `at`, the offset of the construct it stands for. Headings and
    top-level paragraphs stand between blank lines; the lines of one list, one table or one preformatted
    block follow each other, a preformatted block between FENCE lines.
    """

    def __init__(self):
        self._text: list[str] = []
        self._offsets = array("i")
        self._group: str | None = None  # what the last line belonged to: "list", "table", "pre" or None
        self._fence: tuple[int, int] | None = None  # an open preformatted block's depth and offset
        self._level = 1  # the level of the last heading the document marked as one
        self._bold: tuple[MappedText, int] | None = None  # a bold paragraph, a heading if body text follows
        self._item: tuple[str, int, int] | None = None  # an item with no text yet: its marker, offset and depth
        self._lead = ""  # how the last top-level paragraph opens, when it opens with a label ("list #")

    def heading(self, level: int, run: MappedText, at: int) -> None:
        """A heading of `level` (1-6); nothing when its text is empty."""
        self._settle(body=False)
        run = _tidy(run)
        if run.text:
            self._line(None, at, "#" * level + " ", run)
            self._level, self._lead = level, ""

    @property
    def level(self) -> int:
        """The level of the last heading written."""
        return self._level

    def bold(self, run: MappedText, depth: int = 0) -> None:
        """A paragraph wholly in bold: a heading one level below the document's last heading when it reads as
        one ("Late Arrival", "Can a unit retreat twice?") and body text follows it, else a paragraph."""
        self._settle(body=False)
        self._bold = _tidy(run), depth

    def _settle(self, body: bool) -> None:
        """Write the bold paragraph waiting for what follows it (`body`: text, not a heading or the end), and an
        item still waiting for its text."""
        if self._item is not None:
            (marker, at, depth), self._item = self._item, None
            self._line("list", at, _indent(depth) + marker, MappedText("", array("i", [at])))
        if self._bold is None:
            return
        (run, depth), self._bold = self._bold, None
        words = run.text.split()
        # "**List 10: "Incendiary pigs"**" among "List 3: …", "List 10: …": one entry of the list set in bold
        if not body or depth or not words or len(words) > _BOLD_HEADING_WORDS or NOT_A_HEADING.search(run.text) \
                or not any(char.isalnum() for char in run.text) or run.text.strip().isdigit() \
                or (self._lead and _lead(run.text) == self._lead):  # (a page's number in bold heads nothing)
            self.paragraph(run, depth)
        else:
            self._line(None, run.offsets[0], "#" * min(self._level + 1, 6) + " ", run)

    def paragraph(self, run: MappedText, depth: int = 0) -> None:
        """A paragraph on one line; inside a list item (`depth` > 0) indented under it, or the text of the item
        over it when that has none yet (an item whose text is raw HTML: `1. <p class="online-rule">…</p>`)."""
        run = _tidy(run)
        if self._item is not None and self._item[2] + 1 == depth:
            if not run.text:
                return  # the blank text between a raw HTML block's tags
            (marker, at, depth), self._item = self._item, None
            self.item(marker, run, at, depth)
            return
        self._settle(body=True)
        if run.text.startswith(_NOTE_MARK) and not depth:
            # A note keyed by stars to a table's cells ("*** Penalty can be negated…"): its stars are the
            # document's text, never the dialect's bullet or bold heading, so it is written as a footnote.
            self._line(None, run.offsets[0], _NOTE, run)
        elif run.text:
            self._line("list" if depth else None, run.offsets[0], _indent(depth), run)
            if not depth:
                self._lead = _lead(run.text)

    def item(self, marker: str, run: MappedText, at: int, depth: int = 0) -> None:
        """A list item `marker text` ("3.", "b.", "-", "Q:"), indented by its nesting `depth`."""
        self._settle(body=True)
        run = _tidy(run)
        if not run.text:
            self._item = marker, at, depth  # its text may come as a paragraph inside it
            return
        self._line("list", at, _indent(depth) + marker + " ", run)

    def row(self, cells: list[MappedText], at: int, depth: int = 0) -> None:
        """A table row `| a | b |`; nothing when every cell is empty."""
        self._settle(body=True)
        cells = [_tidy(cell) for cell in cells]
        if any(cell.text for cell in cells):
            pieces: list[str | MappedText] = [_indent(depth) + "|"]
            for cell in cells:
                pieces += [" ", cell, " |"] if cell.text else [" |"]
            self._line("list" if depth else "table", at, *pieces)

    def line(self, run: MappedText, at: int, depth: int = 0) -> None:
        """A line of preformatted text (a code block), kept as it is but for trailing spaces."""
        self._settle(body=True)
        run = run.slice(0, len(run.text.rstrip()))
        if run.text.strip():
            group = "list" if depth else "pre"
            if self._fence is None:
                self._line(group, at, _indent(depth) + FENCE, pre=True)
            self._line(group, at, _indent(depth), run, pre=True)
            self._fence = depth, at

    def mapped(self, end: int) -> MappedText:
        """What was written; `end` is the source's length (the offset after the last character)."""
        self._settle(body=False)
        self._close_fence()
        return MappedText("".join(self._text), self._offsets + array("i", [end]))

    def _close_fence(self) -> None:
        """End an open preformatted block with its FENCE line, mapped to where its last line starts."""
        if self._fence is not None:
            depth, at = self._fence
            self._line("list" if depth else "pre", at, _indent(depth) + FENCE, pre=True)
            self._fence = None

    def _line(self, group: str | None, at: int, *pieces: str | MappedText, pre: bool = False) -> None:
        if not pre:
            self._close_fence()
        if self._text and (group is None or group != self._group):
            self._put("\n", at)
        end = at
        for piece in pieces:
            if isinstance(piece, str):
                self._put(piece, at)
            else:
                self._text.append(piece.text)
                self._offsets.extend(piece.offsets[:-1])
                end = piece.offsets[-1]
        self._put("\n", end)
        self._group = group

    def _put(self, text: str, at: int) -> None:
        self._text.append(text)
        self._offsets.extend([at] * len(text))


class Unreadable(ValueError):
    """A reader cannot read its source as a rules document; `ingest.formats.read` names the file."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.line = line


class PastLimit(Unreadable):
    """A document goes past the reading limit `name` of `limits` (`ingest.limits.Limits`): it is refused, saying
    how to raise the limit for a genuine document."""

    def __init__(self, what: str, limits: Limits, name: str, line: int | None = None):
        value = getattr(limits, name)
        shown = f"{value:g}" if isinstance(value, float) else str(value)  # 300, 2000000: never 2e+06
        super().__init__(f"{what}: past the limit {name}={shown} (a genuine document may raise it: --limit "
                         f"{name}=N)", line)
        self.limit = name


def zip_parts(data: bytes, limits: Limits, document: str, suffix: str, file: str) -> tuple[zipfile.ZipFile, list]:
    """The zip archive a typed document's file `data` is (a Word or OpenDocument file) and its parts; Unreadable when
    it is none (`document`: what the file should be, "a Word document"; `suffix`: ".docx"), PastLimit past the
    `elements` limit in parts (`file`: "a Word file")."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except zipfile.BadZipFile:
        raise Unreadable(f"not {document} ({suffix} is a zip archive, and this is none): download or export it "
                         "again") from None
    if len(members) > limits.elements:
        raise PastLimit(f"{file} of {len(members):,} parts", limits, "elements")
    return archive, members


def typed_document(reader, data: bytes, format: str, name: str) -> Document:
    """The Document a typed document's reader (Word, OpenDocument, RTF) wrote from the file `data`, one paragraph a
    line; Unreadable when it wrote none (`name`: what the file is, "Word document")."""
    if not reader.lines:
        raise Unreadable(f"{name} has no text")
    original = "\n".join(reader.lines) + "\n"
    return Document(original=original, text=reader.out.mapped(len(original)), format=format,
                    metadata=reader.metadata, file=data)


def write_line(reader, prefix: str, text: str) -> tuple[int, MappedText]:
    """Add one line, `prefix` then `text`, to a typed document's text (`reader.lines`, `reader.length` long so far);
    where it starts, and `text` mapped to where it stands. A reader's `line` method."""
    start = reader.length
    reader.lines.append(prefix + text)
    reader.length += len(prefix) + len(text) + 1
    at = start + len(prefix)
    return start, MappedText(text, array("i", range(at, at + len(text) + 1)))


def write_row(reader, cells: list[str]) -> None:
    """Write a typed document's table row (Word, OpenDocument, RTF) as one line of `reader.lines`, its cells joined
    by " | " at `reader.length`, and as a row of `reader.out`, each cell mapped to its place in the line."""
    start = at = reader.length
    runs = []
    for index, cell in enumerate(cells):
        at += len(_TYPED_CELLS) if index else 0
        runs.append(MappedText(cell, array("i", range(at, at + len(cell) + 1))))
        at += len(cell)
    reader.lines.append(_TYPED_CELLS.join(cells))
    reader.length = at + 1
    reader.out.row(runs, start)


_TYPED_CELLS = " | "
