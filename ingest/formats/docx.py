"""Word documents (.docx), read through python-docx: headings, numbered and bulleted lists, tables.

`read(path)` is the Word format's reader (`ingest.formats.FORMATS`). A Word file is a zip of XML parts, so its
text is not the file: the Document's `original` is the document's text as Word shows it, one paragraph a line
in document order (an empty paragraph left out; a list item after its printed number, indented by its level; a
table row one line, its cells between ` | `), and its outline is written through an `Outline` mapped into that
text. Citations name those lines as paragraphs (the format's `Locator`), and the source page shows them.

What Word marks is what the outline gets:
- the Title style is the document's title and a first-level heading, the Heading 1-6 styles (or a style based
  on one, or a paragraph or style with an outline level) the headings under it;
- a paragraph with numbering (its own `w:numPr`, or its style's: List Number, List Bullet) is a list item at
  its level (`w:ilvl`; a style "List Number 2" without one: level 2), after the number Word prints for it,
  counted from the numbering definitions (`%1.%2.`, decimal, letters, roman numerals), or a bullet; where
  the definition says nothing recoverable the item keeps its level under a bullet;
- a table is its rows; a paragraph wholly in bold may be a heading (`Outline.bold`).

Limits: the file is read whole within `pdf_mb` (the limit of a file read into memory whole), its parts may
inflate to `inflated_mb` together, and it may hold `elements` paragraphs and table cells. An older Word file
(.doc), a password-protected one, or a zip that is no Word document is refused saying what to do.
"""
from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass

import docx
from docx.opc.exceptions import PackageNotFoundError
from docx.oxml.ns import qn
from docx.table import Table
from docx.text.paragraph import Paragraph

from ingest.classify.markup import LEVELLED_STYLE, LEVEL_FIELD
from ingest.formats.document import (
    Document,
    Outline,
    PastLimit,
    Unreadable,
    typed_document,
    write_line,
    write_row,
    zip_parts,
)
from ingest.formats.html import numeral
from ingest.limits import Limits, current
from ingest.text import read_bounded

_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # a compound file: an older Word file (.doc), or an encrypted .docx
# A paragraph's soft breaks and tabs, each a space: it stays on one line.
_BREAKS = str.maketrans(dict.fromkeys("\r\n\t\v\f\u2028\u2029", " "))
# How a level shows its number, as html.numeral's styles ("decimalZero": two digits at least).
_NUMERALS = {"decimal": "1", "decimalZero": "01", "lowerLetter": "a", "upperLetter": "A", "lowerRoman": "i",
             "upperRoman": "I"}
_INDENT = "   "  # per list level, in the text the source page shows


def read(path, limits: Limits | None = None) -> Document:
    """The Document of the Word file at `path`: its text paragraph by paragraph, its outline, its title (the
    Title paragraph, else its first heading) and the file as read. Raises Unreadable (PastLimit past `limits`,
    default those in force) for a file that is no readable Word document."""
    limits = limits or current()
    data = read_bounded(path, limits.pdf_mb, "pdf_mb")
    word = _open(data, limits)
    reader = _Reader(word, limits)
    reader.body()
    return typed_document(reader, data, "docx", "Word document")


def _open(data: bytes, limits: Limits):
    """The python-docx document of `data`, refused (Unreadable) when it is none or would inflate past `limits`."""
    if data.startswith(_OLE):
        raise Unreadable("an older Word file (.doc) or one protected with a password: save it in Word as a .docx "
                         "without a password and add that")
    _, members = zip_parts(data, limits, "a Word document", ".docx", "a Word file")
    if sum(member.file_size for member in members) > limits.inflated_mb * 2**20:
        raise PastLimit("a Word file whose parts inflate too far", limits, "inflated_mb")
    try:
        return docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, KeyError, zipfile.BadZipFile):
        raise Unreadable("not a Word document (the zip holds no word/document.xml): download or export it "
                         "again") from None
    except ValueError as exc:  # python-docx: "file '...' is not a Word file, content type is ..."
        raise Unreadable(f"not a Word document ({exc})") from None
    except Exception as exc:  # noqa: BLE001 - lxml and python-docx raise many kinds on a damaged part
        raise Unreadable(f"damaged Word document, cannot be read ({type(exc).__name__}: {exc}); download or "
                         "export it again") from None


@dataclass(frozen=True)
class _Level:
    """One level of a numbering definition: the number it starts at, how it is shown, and its text ("%1.")."""

    start: int
    format: str
    text: str | None


def _value(element, tag: str) -> str | None:
    child = element.find(qn(tag)) if element is not None else None
    return child.get(qn("w:val")) if child is not None else None


def _number(text: str | None, default: int) -> int:
    """A numbering attribute's number; `default` for none, or one no document writes (a crafted run of digits)."""
    return int(text) if text and text.lstrip("-").isdigit() and len(text) < 10 else default


class _Numbering:
    """The numbers Word prints before list items, counted as it counts them: each list (abstract numbering)
    counts at each level, a level starting again below a higher one; a list instance may restart a level."""

    def __init__(self, word):
        self.levels: dict[str, dict[int, _Level]] = {}
        self.lists: dict[str, tuple[str, dict[int, int]]] = {}  # numId -> (abstract id, {level: start})
        self.counts: dict[str, dict[int, int]] = {}  # abstract id -> {level: the last number printed}
        self.restarted: set[str] = set()  # the list instances whose restarts were applied
        try:
            root = word.part.numbering_part.element
        except (KeyError, NotImplementedError):  # no numbering part: every item keeps its level
            return
        for abstract in root.findall(qn("w:abstractNum")):
            self.levels[abstract.get(qn("w:abstractNumId"))] = {
                _number(level.get(qn("w:ilvl")), 0): _Level(_number(_value(level, "w:start"), 1),
                                                            _value(level, "w:numFmt") or "decimal",
                                                            _value(level, "w:lvlText"))
                for level in abstract.findall(qn("w:lvl"))}
        for num in root.findall(qn("w:num")):
            restarts = {_number(override.get(qn("w:ilvl")), 0): _number(_value(override, "w:startOverride"), 1)
                        for override in num.findall(qn("w:lvlOverride")) if _value(override, "w:startOverride")}
            self.lists[num.get(qn("w:numId"))] = (_value(num, "w:abstractNumId"), restarts)

    def marker(self, num_id: str, level: int) -> str:
        """The number Word prints before an item of list `num_id` at `level` ("3.", "b)", "1.2."), counting it;
        "-" for a bullet or a number it does not say how to print."""
        abstract, restarts = self.lists.get(num_id, (None, {}))
        levels = self.levels.get(abstract, {})
        shown = levels.get(level)
        if shown is None:
            return "-"
        counts = self.counts.setdefault(abstract, {})
        if num_id not in self.restarted:  # a list instance's own start, the first time it is used
            self.restarted.add(num_id)
            for restarted in restarts:
                counts.pop(restarted, None)
        counts[level] = counts[level] + 1 if level in counts else restarts.get(level, shown.start)
        for deeper in [key for key in counts if key > level]:
            del counts[deeper]
        if shown.format not in _NUMERALS or not shown.text:  # a bullet, or a number shown some other way
            return "-"

        def number(found: re.Match) -> str:
            at = int(found.group(1)) - 1
            of = levels.get(at, _Level(1, "decimal", None))
            count = counts.get(at, of.start)
            return f"{count:02d}" if of.format == "decimalZero" else numeral(count, _NUMERALS.get(of.format, "1"))

        return LEVEL_FIELD.sub(number, shown.text).strip() or "-"


class _Reader:
    """Writes a Word document's body to an Outline and to its text, one paragraph a line."""

    def __init__(self, word, limits: Limits):
        self.word = word
        self.limits = limits
        self.out = Outline()
        self.lines: list[str] = []
        self.length = 0  # characters of the text so far, line breaks included
        self.metadata: dict = {}
        self.numbering = _Numbering(word)
        self.elements = 0
        self.shift = 0  # headings go one level down when the document has a Title above them
        self.styles: dict[str | None, _Style] = {}  # style id -> what it says (`style`)

    def body(self) -> None:
        """Every paragraph and table of the body, in document order."""
        self.shift = int(any(self.heading_level(p) == 0 for p in self.word.paragraphs))
        for block in self.word.iter_inner_content():
            if isinstance(block, Paragraph):
                self.paragraph(block)
            elif isinstance(block, Table):
                self.table(block)

    def count(self, n: int = 1) -> None:
        self.elements += n
        if self.elements > self.limits.elements:
            raise PastLimit("a Word document of too many paragraphs and cells", self.limits, "elements")

    line = write_line

    def paragraph(self, paragraph: Paragraph) -> None:
        self.count()
        text = paragraph.text.translate(_BREAKS).strip()
        if not text:
            return
        level = self.heading_level(paragraph)
        listed = self.list_item(paragraph)
        if level is not None:
            # a heading Word numbers ("I. Field of Play") prints its number, and counts: the items under it
            # count afresh
            marker = self.numbering.marker(*listed) if listed is not None else "-"
            start, run = self.line("", text if marker == "-" else f"{marker} {text}")
            self.out.heading(min(level + self.shift, 6) if level else 1, run, start)
            if (level == 0 or level + self.shift == 1) and "title" not in self.metadata:
                self.metadata["title"] = text
            return
        if listed is not None:
            num_id, depth = listed
            if depth >= self.limits.depth:
                raise PastLimit("lists nested too deep", self.limits, "depth", line=len(self.lines) + 1)
            marker = self.numbering.marker(num_id, depth)
            start, run = self.line(_INDENT * depth + ("•" if marker == "-" else marker) + " ", text)
            self.out.item(marker, run, start, depth)
            return
        _, run = self.line("", text)
        (self.out.bold if _all_bold(paragraph, self.style(paragraph)) else self.out.paragraph)(run)

    def table(self, table: Table) -> None:
        for row in table.rows:
            cells, seen = [], set()
            for cell in row.cells:
                if id(cell._tc) in seen:  # a cell merged across columns is listed once per column it spans
                    continue
                seen.add(id(cell._tc))
                self.count()
                cells.append(" ".join(p.text.translate(_BREAKS).strip() for p in cell.paragraphs).strip())
            if any(cells):
                write_row(self, cells)

    def style(self, paragraph: Paragraph) -> _Style:
        """What the paragraph's style says, read once per style (python-docx looks a style up anew each time)."""
        style_id = paragraph._p.style
        if style_id not in self.styles:
            self.styles[style_id] = _Style.of(paragraph.style)
        return self.styles[style_id]

    def heading_level(self, paragraph: Paragraph) -> int | None:
        """0 for the Title, 1-9 for a heading (its own outline level, else its style's), None for a paragraph of
        the body."""
        own = _outline_level(paragraph._p.pPr)
        return own if own is not None else self.style(paragraph).heading

    def list_item(self, paragraph: Paragraph) -> tuple[str, int] | None:
        """The list (numId) and level of a list item, from its own numbering or its style's; None for none."""
        numbered = paragraph._p.pPr.numPr if paragraph._p.pPr is not None else None
        style = self.style(paragraph)
        num_id = _value(numbered, "w:numId") or style.num_id
        level = _value(numbered, "w:ilvl") or style.level
        if num_id is None or num_id == "0":  # numId 0: numbering taken off
            return None
        return num_id, _number(level, 0)


@dataclass(frozen=True)
class _Style:
    """What a paragraph style (with the styles it is based on) says of its paragraphs: the heading level (0: the
    Title), the list and level of its numbering, and whether its text is bold."""

    heading: int | None = None
    num_id: str | None = None
    level: str | None = None
    bold: bool = False

    @classmethod
    def of(cls, style) -> _Style:
        heading = num_id = level = None
        bold = bool(style is not None and style.font.bold)
        while style is not None:
            name = style.name or ""
            named = LEVELLED_STYLE.match(name)
            if heading is None:
                heading = (0 if name.lower() == "title" else int(named["heading"]) if named and named["heading"]
                           else _outline_level(style.element.pPr))
            numbered = style.element.pPr.numPr if style.element.pPr is not None else None
            num_id = num_id or _value(numbered, "w:numId")
            if level is None and num_id is not None:
                level = _value(numbered, "w:ilvl")
                if level is None and named and named["list"]:
                    level = str(int(named["list"]) - 1)  # "List Number 2" nests by its name, its level 0
            style = style.base_style
        return cls(heading, num_id, level, bold)


def _outline_level(pPr) -> int | None:
    """The heading level (1-9) an outline level set in paragraph properties makes; None for none (9: body text)."""
    level = _value(pPr, "w:outlineLvl")
    return int(level) + 1 if level is not None and level.isdigit() and int(level) < 9 else None


def _all_bold(paragraph: Paragraph, style: _Style) -> bool:
    """Whether every run of text in the paragraph is bold (set on the run, else by its paragraph's style)."""
    runs = [run for run in paragraph.runs if run.text.strip()]
    return bool(runs) and all(run.bold or (run.bold is None and style.bold) for run in runs)
