"""Rich Text Format (.rtf), read with the standard library: headings, bold lines, lists and tables kept.

`read(path)` is the RTF format's reader (`ingest.formats.FORMATS`). An RTF file is text, but not the text it
shows: control words (`\\par`, `\\b`, `\\'e9`, `\\u8217`) and groups (`{\\fonttbl …}`) around it. As for a Word file
(`formats.docx`), the Document's `original` is the document's text as a word processor shows it, one paragraph a
line (an empty paragraph left out; a list item after the number or bullet it shows, indented by its level; a table
row one line, its cells between ` | `), and its outline is written through an `Outline` mapped into that text;
citations name its lines as paragraphs, and the file is kept and served as it came.

What the document marks is what the outline gets:
- a paragraph with an outline level (`\\outlinelevelN`, its own or its style's) or in a style named "heading N" is
  a heading at that level; one in the Title style is the document's title and a first-level heading;
- a list item is a paragraph with the text Word writes for its number or bullet (`{\\listtext 1.\\tab}`, the older
  `{\\pntext …}`) at its level (`\\ilvlN`), or, as pandoc and older writers set lists, a hanging paragraph (a
  negative first-line indent) opening with a number or bullet and a tab ("1.\\tab League Configuration"), nested by
  its left indent;
- a table (`\\cell`, `\\row`) is its rows; a paragraph wholly in bold (`\\b`, or its style's) may be a heading
  (`Outline.bold`).
Not text: the font, colour, style and list tables, the document's information, pictures and objects, headers and
footers, footnotes and annotations, hidden text (`\\v`), field instructions (a field's result is kept) and every
group marked ignorable (`{\\*\\…}`).

Limits: the file is read whole within `pdf_mb` (it may hold pictures), its groups may nest `depth` deep and it may
hold `elements` paragraphs and cells.
"""
from __future__ import annotations

import codecs
from dataclasses import dataclass, field, replace

from ingest.classify.markup import RTF_HEADING_STYLE, RTF_LIST_MARKER, RTF_TOKEN
from ingest.formats.document import Document, Outline, PastLimit, Unreadable, typed_document, write_line, write_row
from ingest.limits import Limits, current
from ingest.text import read_bounded

# Destinations whose text is never the document's (a group opening with `\*` is skipped too).
_SKIPPED = {b"fonttbl", b"colortbl", b"info", b"pict", b"object", b"objdata", b"header", b"headerl", b"headerr",
            b"headerf", b"footer", b"footerl", b"footerr", b"footerf", b"footnote", b"annotation", b"atnid",
            b"atnauthor", b"atrfstart", b"atrfend", b"xe", b"tc", b"tcn", b"fldinst", b"listtable",
            b"listoverridetable", b"revtbl", b"rsidtbl", b"filetbl", b"pn", b"pntxta", b"pntxtb", b"themedata",
            b"colorschememapping", b"datastore", b"latentstyles", b"generator", b"mmathPr", b"xmlnstbl",
            b"nonshppict", b"shppict", b"shp", b"shpinst", b"sp", b"sn", b"sv", b"bkmkstart", b"bkmkend",
            b"template", b"userprops", b"docvar", b"pgdsctbl", b"wgrffmtfilter", b"fchars", b"lchars"}
_CHARACTERS = {b"emdash": "—", b"endash": "–", b"lquote": "‘", b"rquote": "’", b"ldblquote": "“",
               b"rdblquote": "”", b"bullet": "•", b"emspace": " ", b"enspace": " ", b"qmspace": " ", b"tab": "\t",
               b"line": " ", b"zwj": "", b"zwnj": "", b"ltrmark": "", b"rtlmark": ""}
_SYMBOLS = {b"~": " ", b"-": "", b"_": "-", b"\\": "\\", b"{": "{", b"}": "}", b"\n": None, b"\r": None, b"|": "", b"*": "",
            b":": ""}
_BULLETS = set("•·▪◦o-–*")
_INDENT = "   "


@dataclass
class _State:
    """What a group sets for the text inside it (RTF's character and paragraph properties)."""

    skip: bool = False
    bold: bool = False
    hidden: bool = False
    uc: int = 1
    target: str = "text"  # where its text goes: "text", "marker" (a list item's shown number), "style" (a name)
    level: int | None = None  # \outlinelevel
    style: int = 0
    indent: int = 0  # \li, twips
    first: int = 0  # \fi, twips
    in_table: bool = False
    list_level: int = 0  # \ilvl


@dataclass
class _Style:
    name: str = ""
    level: int | None = None
    bold: bool = False


@dataclass
class _Paragraph:
    pieces: list[tuple[str, bool]] = field(default_factory=list)  # text, bold
    marker: list[str] = field(default_factory=list)


def read(path, limits: Limits | None = None) -> Document:
    """The Document of the RTF file at `path`: its text paragraph by paragraph, its outline, its title (the Title
    paragraph, else its first heading) and the file as read. Raises Unreadable (PastLimit past `limits`, default
    those in force) for a file that is no readable RTF."""
    limits = limits or current()
    data = read_bounded(path, limits.pdf_mb, "pdf_mb")
    if not data.lstrip().startswith(b"{\\rtf"):
        raise Unreadable("not an RTF document (it does not open with {\\rtf): save it again as RTF, or as Word "
                         "(.docx)")
    reader = _Reader(limits)
    reader.parse(data)
    return typed_document(reader, data, "rtf", "RTF document")


class _Reader:
    def __init__(self, limits: Limits):
        self.limits = limits
        self.out = Outline()
        self.lines: list[str] = []
        self.length = 0
        self.metadata: dict = {}
        self.elements = 0
        self.codec = "cp1252"
        self.styles: dict[int, _Style] = {}
        self.defining: _Style | None = None  # the style the stylesheet is defining
        self.defining_number = 0
        self.paragraph = _Paragraph()
        self.cell: list[str] = []  # the open table cell's paragraphs
        self.row: list[str] = []   # the open table row's cells
        self.high: int | None = None  # the high surrogate of a pair of \\u, awaiting its low one
        self.indents: list[int] = []  # the left indents of the hanging list items open, outermost first
        self.pending: bytes = b""  # hex bytes (\'hh) not decoded yet: a double-byte codepage's pairs
        self.skip_chars = 0  # characters left to skip after a \u (its fallback)
        self.shift = 0

    def count(self) -> None:
        self.elements += 1
        if self.elements > self.limits.elements:
            raise PastLimit("an RTF document of too many paragraphs and cells", self.limits, "elements")

    def parse(self, data: bytes) -> None:
        stack: list[_State] = []
        state = _State()
        starting = False  # a group has just opened: its first control word may name a destination
        for token in RTF_TOKEN.finditer(data):
            word, number, hexbyte, symbol, brace, text = token.groups()
            if hexbyte is None:
                self.flush_bytes(state)
            if brace == b"{":
                if len(stack) >= self.limits.depth:
                    raise PastLimit("RTF groups nested too deep", self.limits, "depth")
                stack.append(state)
                state = replace(state)
                starting = True
                self.skip_chars = 0
                continue
            if brace == b"}":
                if state.target == "style" and self.defining is not None:
                    self.end_style()
                state = stack.pop() if stack else state
                starting = False
                self.skip_chars = 0
                continue
            if self.skip_chars and (text or hexbyte or symbol or word):
                if text:
                    cut = min(self.skip_chars, len(text))
                    self.skip_chars -= cut
                    text = text[cut:]
                    if not text:
                        continue
                else:
                    self.skip_chars -= 1
                    continue
            if word is not None:
                was_starting, starting = starting, False
                self.control(word, number, state, was_starting)
            elif symbol is not None:
                starting_star, starting = starting and symbol == b"*", False
                if starting_star:
                    state.skip = True
                elif symbol in (b"\n", b"\r"):
                    self.end_paragraph(state)  # "\<newline>" is \par
                elif not state.skip:
                    self.add(_SYMBOLS.get(symbol, symbol.decode("latin-1")), state)
            elif hexbyte is not None:
                starting = False
                if not state.skip:
                    self.pending += bytes.fromhex(hexbyte.decode("ascii"))
            elif text is not None:
                starting = False
                if not state.skip:
                    self.add(text.decode(self.codec, "replace"), state)
        self.flush_bytes(state)
        self.end_paragraph(state)
        self.end_row()

    def flush_bytes(self, state: _State) -> None:
        if self.pending:
            pending, self.pending = self.pending, b""
            self.add(pending.decode(self.codec, "replace"), state)

    def control(self, word: bytes, number: bytes | None, state: _State, starting: bool) -> None:
        value = int(number) if number is not None else None
        if starting and (word in _SKIPPED or word.startswith(b"header") or word.startswith(b"footer")):
            state.skip = True
            return
        if word == b"stylesheet":
            state.target = "stylesheet"
            return
        if word in (b"listtext", b"pntext"):
            state.target = "marker"
            return
        if starting and state.target == "stylesheet":
            state.target = "style"
            self.defining = _Style()
        if word == b"ansicpg" and value:
            try:
                self.codec = codecs.lookup(f"cp{value}").name
            except LookupError:
                pass
        elif word == b"uc":
            state.uc = max(0, min(value or 0, 10))
        elif word == b"u" and value is not None:
            if not state.skip:
                self.add(self.unicode(value), state)
            self.skip_chars = state.uc
        elif word == b"b":
            state.bold = value != 0
        elif word == b"v":
            state.hidden = value != 0
        elif word == b"plain":
            state.bold = state.hidden = False
        elif word == b"pard":
            state.level, state.style, state.indent, state.first = None, 0, 0, 0
            state.in_table, state.list_level = False, 0
        elif word == b"outlinelevel" and value is not None:
            state.level = value if 0 <= value < 9 else None
        elif word == b"s" and value is not None:
            state.style = value
            if state.target == "style" and self.defining is not None:
                self.defining_number = value
        elif word == b"li" and value is not None:
            state.indent = value
        elif word == b"fi" and value is not None:
            state.first = value
        elif word == b"ilvl" and value is not None:
            state.list_level = max(0, min(value, 8))
        elif word == b"intbl":
            state.in_table = True
        elif word in (b"par", b"sect"):
            if state.target == "text" and not state.skip:
                self.end_paragraph(state)
        elif word in (b"cell", b"nestcell"):
            if not state.skip:
                self.end_cell(state)
        elif word == b"row":
            if not state.skip:
                self.end_row()
        elif word in _CHARACTERS:
            if not state.skip:
                self.add(_CHARACTERS[word], state)
        if state.target == "style" and self.defining is not None:
            if word == b"outlinelevel" and value is not None and 0 <= value < 9:
                self.defining.level = value
            elif word == b"b":
                self.defining.bold = value != 0

    def end_style(self) -> None:
        style, self.defining = self.defining, None
        style.name = style.name.strip().rstrip(";").strip()
        self.styles[self.defining_number] = style
        self.defining_number = 0

    def unicode(self, value: int) -> str:
        """The character a \\u gives (a signed 16-bit number), a pair of surrogates joined; "" for half a pair."""
        code = value % 65536
        if 0xD800 <= code < 0xDC00:
            self.high = code
            return ""
        high, self.high = self.high, None
        if 0xDC00 <= code < 0xE000:
            return chr(0x10000 + (high - 0xD800) * 0x400 + code - 0xDC00) if high is not None else ""
        return chr(code)

    def add(self, text: str, state: _State) -> None:
        if not text or state.skip or state.hidden:
            return
        if state.target == "style" and self.defining is not None:
            self.defining.name += text
        elif state.target == "marker":
            self.paragraph.marker.append(text)
        elif state.target == "text":
            self.paragraph.pieces.append((text, state.bold))

    def end_paragraph(self, state: _State) -> None:
        paragraph, self.paragraph = self.paragraph, _Paragraph()
        raw = "".join(text for text, _ in paragraph.pieces)
        props = state  # a paragraph's properties are those in force at its end
        if state.in_table:
            self.cell.append(raw)  # a cell's paragraphs, run together
            return
        self.end_row()
        text = " ".join(raw.split())
        if not text:
            return
        self.count()
        style = self.styles.get(props.style, _Style())
        named = RTF_HEADING_STYLE.match(style.name)
        level = props.level if props.level is not None else style.level
        if style.name.lower() == "title":
            start, run = self.line("", text)
            self.out.heading(1, run, start)
            self.metadata.setdefault("title", text)
            self.shift = 1
            self.indents = []
            return
        if level is not None or named:
            level = (level + 1) if level is not None else int(named.group(1))
            start, run = self.line("", text)
            self.out.heading(min(level + self.shift, 6), run, start)
            if level + self.shift == 1 and "title" not in self.metadata:
                self.metadata["title"] = text
            self.indents = []
            return
        marker = " ".join("".join(paragraph.marker).split())
        depth = props.list_level
        if not marker and props.first < 0:  # a hanging paragraph: "1.\tab League Configuration"
            head, tab, rest = raw.lstrip().partition("\t")
            if tab and RTF_LIST_MARKER.fullmatch(head.strip()) and rest.strip():
                marker, text = head.strip(), " ".join(rest.split())
                depth = self.nest(props.indent)
        if marker:
            if depth >= self.limits.depth:
                raise PastLimit("lists nested too deep", self.limits, "depth", line=len(self.lines) + 1)
            shown = "-" if marker in _BULLETS or not RTF_LIST_MARKER.fullmatch(marker) or marker[-1] in _BULLETS else marker
            start, run = self.line(_INDENT * depth + ("•" if shown == "-" else shown) + " ", text)
            self.out.item(shown, run, start, depth)
            return
        if props.indent <= 0:
            self.indents = []
        _, run = self.line("", text)
        bold = [weight for piece, weight in paragraph.pieces if piece.strip()]
        style_bold = style.bold
        (self.out.bold if bold and all(weight or style_bold for weight in bold) else self.out.paragraph)(run)

    def nest(self, indent: int) -> int:
        """The nesting depth of a hanging list item at left indent `indent`: one deeper than the items open at a
        smaller indent."""
        while self.indents and self.indents[-1] > indent:
            self.indents.pop()
        if not self.indents or self.indents[-1] < indent:
            self.indents.append(indent)
        return len(self.indents) - 1

    def end_cell(self, state: _State) -> None:
        paragraph, self.paragraph = self.paragraph, _Paragraph()
        self.count()
        self.cell.append("".join(text for text, _ in paragraph.pieces))
        self.row.append(" ".join(" ".join(self.cell).split()))
        self.cell = []

    def end_row(self) -> None:
        """The open table row ends (`\\row`, or text after it outside the table)."""
        row, self.row = self.row, []
        if self.cell:  # paragraphs of a cell that never ended
            row.append(" ".join(" ".join(self.cell).split()))
            self.cell = []
        if any(row):
            write_row(self, row)

    line = write_line
