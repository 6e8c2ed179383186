"""OpenDocument text (.odt, LibreOffice's own format), read with the standard library: headings, lists, tables.

`read(path)` is the OpenDocument format's reader (`ingest.formats.FORMATS`). An .odt file is a zip of XML parts; the
body is `content.xml`, the styles its paragraphs name are there and in `styles.xml`. As for a Word file
(`formats.docx`), the text is not the file: the Document's `original` is the document's text as LibreOffice shows
it, one paragraph a line in document order (an empty paragraph left out; a list item after the number or bullet
it shows, indented by its level; a table row one line, its cells between ` | `), and its outline is written through
an `Outline` mapped into that text. Citations name those lines as paragraphs, and the source page shows them.

What the document marks is what the outline gets:
- a `text:h` is a heading at its outline level, after the number the outline numbering (styles.xml) gives it; a
  paragraph in the Title style is the document's title and a first-level heading, the headings under it one down;
- a `text:list` is a list: each item at its nesting level, after the number its list style shows (`style:num-format`
  1, a, A, i, I with its prefix, suffix and the levels it displays: "1.", "2.3)", "(b)"), counted as LibreOffice
  counts (a list continuing another, `text:continue-list` or `text:continue-numbering`, goes on counting; an item's
  `text:start-value` restarts it), or a bullet; an item holding only a deeper list shows nothing of its own;
- a table is its rows; a paragraph wholly in bold (by its style, or every span's) may be a heading (`Outline.bold`).
Not text: headers and footers (styles.xml's master pages, never read), footnotes and endnotes, comments, tracked
deletions, frames (pictures, text boxes), soft page breaks, and the tables of contents and indexes LibreOffice
generates from the headings.

Limits: the file is read whole within `pdf_mb`, its parts may inflate to `inflated_mb` together (what they inflate
to is counted as they are read, never trusted from the zip's directory), they may hold `elements` XML elements
and nest `depth` deep; a document type declaration (entities: "billion laughs") is refused, as no OpenDocument
file has one. A zip that is no OpenDocument text (a spreadsheet, slides), a damaged or encrypted one is refused
saying what to do.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
import zipfile
from dataclasses import dataclass, field

from ingest.classify.markup import XML_DECLARATION, XML_SPACES
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

_NS = {"office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
       "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
       "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
       "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
       "fo": "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0",
       "xml": "http://www.w3.org/XML/1998/namespace"}


def _q(name: str) -> str:
    """A qualified name in ElementTree's spelling: "text:p" -> "{urn:…:text:1.0}p"."""
    prefix, local = name.split(":")
    return f"{{{_NS[prefix]}}}{local}"


_TEXT_MIME = "application/vnd.oasis.opendocument.text"
_MIMES = {"application/vnd.oasis.opendocument.spreadsheet": "an OpenDocument spreadsheet (.ods)",
          "application/vnd.oasis.opendocument.presentation": "OpenDocument slides (.odp)",
          "application/vnd.oasis.opendocument.graphics": "an OpenDocument drawing (.odg)",
          "application/epub+zip": "an EPUB e-book"}
_CHUNK = 1 << 16
_INDENT = "   "  # per list level, in the text the source page shows
_HEADING_STYLE = "Heading_20_"  # LibreOffice's name for Word's "Heading 2" (a space is "_20_")
_MOST_SPACES = 100  # text:s may say text:c="1000000": no line shows more

# Elements whose text is never the document's: notes, comments, tracked deletions, frames and the tables of
# contents and indexes generated from the headings.
_DROPPED = {_q(name) for name in (
    "text:note", "office:annotation", "office:annotation-end", "text:tracked-changes", "text:table-of-content",
    "text:alphabetical-index", "text:illustration-index", "text:table-index", "text:object-index",
    "text:user-index", "text:bibliography", "text:sequence-decls", "text:variable-decls", "text:user-field-decls",
    "office:forms", "office:scripts", "text:soft-page-break", "text:bookmark", "text:bookmark-start",
    "text:bookmark-end", "text:reference-mark", "text:reference-mark-start", "text:reference-mark-end",
    "text:change", "text:change-start", "text:change-end", "text:toc-mark", "text:alphabetical-index-mark",
    "text:number")}
_DRAWING = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"  # frames: pictures, shapes, text boxes
_P, _H, _LIST, _ITEM, _HEADER = _q("text:p"), _q("text:h"), _q("text:list"), _q("text:list-item"), _q("text:list-header")
_TABLE, _ROW, _CELL = _q("table:table"), _q("table:table-row"), _q("table:table-cell")
_SPAN_BREAKS = {_q("text:tab"): " ", _q("text:line-break"): " "}
_S = _q("text:s")
_BOLD = {"bold", "600", "700", "800", "900"}


def read(path, limits: Limits | None = None) -> Document:
    """The Document of the OpenDocument text at `path`: its text paragraph by paragraph, its outline, its title
    (the Title paragraph, else its first heading) and the file as read. Raises Unreadable (PastLimit past
    `limits`, default those in force) for a file that is no readable OpenDocument text."""
    limits = limits or current()
    data = read_bounded(path, limits.pdf_mb, "pdf_mb")
    content, styles = _parts(data, limits)
    reader = _Reader(_Styles(styles, content), limits)
    body = content.find("office:body/office:text", _NS)
    if body is None:
        raise Unreadable("not an OpenDocument text (its content.xml holds no text body): download or export it "
                         "again")
    reader.shift = int(any(reader.styles.title(p.get(_q("text:style-name"))) for p in body.iter(_P)))
    reader.blocks(body)
    return typed_document(reader, data, "odt", "OpenDocument text")


def _parts(data: bytes, limits: Limits) -> tuple[ET.Element, ET.Element | None]:
    """content.xml and styles.xml (None when the file has none) of the OpenDocument file `data`, parsed within
    `limits`; Unreadable for a file that is none."""
    archive, members = zip_parts(data, limits, "an OpenDocument text", ".odt", "an OpenDocument file")
    names = {member.filename for member in members}
    mime = _head(archive, "mimetype").decode("ascii", "replace").strip() if "mimetype" in names else ""
    if "META-INF/manifest.xml" in names and b"encryption-data" in _head(archive, "META-INF/manifest.xml", _CHUNK):
        raise Unreadable("an OpenDocument file protected with a password: save it without one and add that")
    if mime and mime != _TEXT_MIME and not mime.startswith(_TEXT_MIME + "-"):  # -template, -master
        raise Unreadable(f"not an OpenDocument text but {_MIMES.get(mime, mime)}: save the rules as a text "
                         "document (.odt), PDF or Word (.docx) and add that")
    if "content.xml" not in names:
        raise Unreadable("not an OpenDocument text (the zip holds no content.xml): download or export it again")
    budget = [int(limits.inflated_mb * 2**20)]
    content = _xml(archive, "content.xml", budget, limits)
    styles = _xml(archive, "styles.xml", budget, limits) if "styles.xml" in names else None
    return content, styles


def _head(archive: zipfile.ZipFile, name: str, most: int = 200) -> bytes:
    """The first `most` bytes of a part, however far it would inflate."""
    try:
        with archive.open(name) as part:
            return part.read(most)
    except (zipfile.BadZipFile, RuntimeError, EOFError, OSError, NotImplementedError):
        return b""


def _xml(archive: zipfile.ZipFile, name: str, budget: list[int], limits: Limits) -> ET.Element:
    """One XML part of the archive, parsed as it inflates: what it inflates to is taken from `budget` (the bytes
    the parts may still inflate to), its elements counted and its nesting measured against `limits`."""
    parser = ET.XMLPullParser(events=("start", "end"))
    elements = depth = 0
    root = None
    try:
        with archive.open(name) as part:
            tail = b""
            while chunk := part.read(_CHUNK):
                budget[0] -= len(chunk)
                if budget[0] < 0:
                    raise PastLimit("an OpenDocument file whose parts inflate too far", limits, "inflated_mb")
                if XML_DECLARATION.search(tail + chunk):
                    raise Unreadable(f"damaged OpenDocument file: its {name} declares a document type or entities, "
                                     "which no OpenDocument file does")
                tail = chunk[-16:]
                parser.feed(chunk)
                for event, element in parser.read_events():
                    if event == "start":
                        elements += 1
                        depth += 1
                        if root is None:
                            root = element
                        if elements > limits.elements:
                            raise PastLimit("an OpenDocument text of too many elements", limits, "elements")
                        if depth > limits.depth:
                            raise PastLimit("an OpenDocument text nested too deep", limits, "depth")
                    else:
                        depth -= 1
            parser.close()
            for _ in parser.read_events():
                pass
    except ET.ParseError as exc:
        raise Unreadable(f"damaged OpenDocument file, its {name} is no XML ({exc}): download or export it "
                         "again") from None
    except (zipfile.BadZipFile, RuntimeError, EOFError, OSError, NotImplementedError) as exc:
        # RuntimeError: an encrypted part (a password); the others: a damaged archive or a method zipfile lacks
        raise Unreadable(f"damaged or password-protected OpenDocument file, its {name} cannot be read "
                         f"({type(exc).__name__}: {exc}); save it without a password and add that") from None
    if root is None:
        raise Unreadable(f"damaged OpenDocument file: its {name} is empty")
    return root


@dataclass
class _Level:
    """How one level of a list style shows an item: a bullet, or its number's format ("1", "a", "i", "" for
    none), prefix, suffix, how many levels' numbers it shows and where counting starts."""

    bullet: str | None = "•"
    format: str = ""
    prefix: str = ""
    suffix: str = ""
    shown: int = 1
    start: int = 1


class _Styles:
    """What the document's styles say: which paragraph and text styles are bold, which is the Title, how each
    list style and the outline (the headings' numbering) show their levels."""

    def __init__(self, styles: ET.Element | None, content: ET.Element):
        self.parents: dict[tuple[str, str], str | None] = {}
        self.bold: dict[tuple[str, str], bool | None] = {}  # (family, name) -> its own weight, None: unset
        self.levels: dict[str, int] = {}  # a paragraph style -> the outline level it sets (a heading style's)
        self.lists: dict[str, dict[int, _Level]] = {}
        self.outline: dict[int, _Level] = {}
        for root in (styles, content):  # automatic styles in content.xml after the common ones
            if root is None:
                continue
            for style in root.iter(_q("style:style")):
                key = (style.get(_q("style:family")) or "", style.get(_q("style:name")) or "")
                self.parents[key] = style.get(_q("style:parent-style-name"))
                props = style.find("style:text-properties", _NS)
                weight = props.get(_q("fo:font-weight")) if props is not None else None
                self.bold[key] = None if weight is None else weight in _BOLD
                level = _number(style.get(_q("style:default-outline-level")), 0)
                if level > 0 and key[0] == "paragraph":
                    self.levels[key[1]] = level
            for list_style in root.iter(_q("text:list-style")):
                self.lists[list_style.get(_q("style:name")) or ""] = _levels(list_style)
            for outline in root.iter(_q("text:outline-style")):
                self.outline = _levels(outline)

    def based_on(self, family: str, name: str | None):
        """A style's name, then those of the styles it is based on, each once (a crafted loop ends)."""
        seen = set()
        while name and name not in seen:
            seen.add(name)
            yield name
            name = self.parents.get((family, name))

    def is_bold(self, family: str, name: str | None) -> bool | None:
        """Whether a style (through those it is based on) sets its text bold; None when none says."""
        return next((weight for style in self.based_on(family, name)
                     if (weight := self.bold.get((family, style))) is not None), None)

    def heading(self, name: str | None) -> int | None:
        """The outline level of a heading style ("Heading 2", LibreOffice's "Heading_20_2", through the styles it is
        based on) a plain paragraph is set in, as Word's exports set their headings; None for none."""
        for style in self.based_on("paragraph", name):
            if style in self.levels:
                return self.levels[style]
            if style.startswith(_HEADING_STYLE) and style[len(_HEADING_STYLE):].isdigit():
                return int(style[len(_HEADING_STYLE):]) or None
        return None

    def title(self, name: str | None) -> bool:
        """Is a paragraph style the Title style, or based on it?"""
        return "Title" in self.based_on("paragraph", name)


def _levels(list_style: ET.Element) -> dict[int, _Level]:
    """The levels of a list style (or the outline style) by their number, 1 up."""
    levels = {}
    for level in list_style:
        number = _number(level.get(_q("text:level")), 1)
        kind = level.tag.rsplit("}", 1)[-1]
        if kind == "list-level-style-bullet":
            levels[number] = _Level(bullet=(level.get(_q("text:bullet-char")) or "•")[:1] or "•")
        elif kind in ("list-level-style-number", "outline-level-style"):
            levels[number] = _Level(bullet=None, format=level.get(_q("style:num-format")) or "",
                                    prefix=level.get(_q("style:num-prefix")) or "",
                                    suffix=level.get(_q("style:num-suffix")) or "",
                                    shown=_number(level.get(_q("text:display-levels")), 1),
                                    start=_number(level.get(_q("text:start-value")), 1))
        else:  # a picture for a bullet
            levels[number] = _Level()
    return levels


def _number(text: str | None, default: int) -> int:
    """An attribute's number; `default` for none, or one no document writes (a crafted run of digits)."""
    return int(text) if text and text.isdigit() and len(text) < 7 else default


@dataclass
class _Counter:
    """The numbers of one list as LibreOffice counts them, level by level (1 up), across the lists that continue
    it."""

    counts: dict[int, int] = field(default_factory=dict)

    def count(self, level: int, start: int, restart: int | None) -> None:
        self.counts[level] = restart if restart is not None else self.counts.get(level, start - 1) + 1
        for deeper in [key for key in self.counts if key > level]:
            del self.counts[deeper]


def _marker(levels: dict[int, _Level], counter: _Counter, level: int) -> str:
    """The number an item at `level` shows ("1.", "2.3)", "b)"), "-" for a bullet or no number."""
    shown = levels.get(level, _Level())
    if shown.bullet is not None or shown.format not in ("1", "a", "A", "i", "I"):
        return "-"
    numbers = []
    for at in range(max(1, level - shown.shown + 1), level + 1):
        of = levels.get(at, _Level(bullet=None, format="1"))
        if of.format in ("1", "a", "A", "i", "I"):
            numbers.append(numeral(counter.counts.get(at, of.start), of.format))
    return f"{shown.prefix}{'.'.join(numbers)}{shown.suffix}".strip() or "-"


def _paragraphs(element: ET.Element):
    """The paragraphs and headings inside `element` (a table cell), in order, none inside a note, comment or frame."""
    for child in element:
        if child.tag in (_P, _H):
            yield child
        elif child.tag not in _DROPPED and not child.tag.startswith(f"{{{_DRAWING}}}"):
            yield from _paragraphs(child)


class _Reader:
    """Writes an OpenDocument body to an Outline and to its text, one paragraph a line."""

    def __init__(self, styles: _Styles, limits: Limits):
        self.styles = styles
        self.limits = limits
        self.out = Outline()
        self.lines: list[str] = []
        self.length = 0  # characters of the text so far, line breaks included
        self.metadata: dict = {}
        self.shift = 0  # headings go one level down when the document has a Title above them
        self.outline = _Counter()
        self.by_id: dict[str, _Counter] = {}     # a list's xml:id -> its counter (text:continue-list)
        self.by_style: dict[str, _Counter] = {}  # a list style -> the last list's counter (text:continue-numbering)

    def blocks(self, parent: ET.Element, depth: int = 0) -> None:
        """The paragraphs, headings, lists and tables inside `parent`, in document order (sections and other
        containers read through)."""
        for child in parent:
            tag = child.tag
            if tag in _DROPPED or tag.startswith(f"{{{_DRAWING}}}"):
                continue
            if tag == _P:
                self.paragraph(child, depth)
            elif tag == _H:
                self.heading(child)
            elif tag == _LIST:
                self.list(child, depth)
            elif tag == _TABLE:
                self.table(child)
            else:
                self.blocks(child, depth)

    line = write_line

    def paragraph(self, element: ET.Element, depth: int = 0) -> None:
        text, bold = self.text(element)
        if not text:
            return
        style = element.get(_q("text:style-name"))
        if self.styles.title(style):
            start, run = self.line("", text)
            self.out.heading(1, run, start)
            self.metadata.setdefault("title", text)
            return
        if (level := self.styles.heading(style)) is not None:
            self.write_heading(text, level)
            return
        _, run = self.line(_INDENT * depth, text)
        (self.out.bold if bold else self.out.paragraph)(run, depth)

    def heading(self, element: ET.Element) -> None:
        level = _number(element.get(_q("text:outline-level")), 1)
        numbered = element.get(_q("text:is-list-header")) != "true" and level in self.styles.outline
        if numbered:
            restart = element.get(_q("text:restart-numbering")) == "true"
            start = self.styles.outline[level].start
            self.outline.count(level, start, _number(element.get(_q("text:start-value")), start) if restart
                               else None)
        text, _ = self.text(element)
        if not text:
            return
        marker = _marker(self.styles.outline, self.outline, level) if numbered else "-"
        self.write_heading(text, level, "" if marker == "-" else f"{marker} ")  # "2.1 Setup": its number shows

    def write_heading(self, text: str, level: int, number: str = "") -> None:
        """A heading at its outline level, after its `number`; a first-level one names the document."""
        start, run = self.line("", number + text)
        self.out.heading(min(level + self.shift, 6), run, start)
        if level + self.shift == 1 and "title" not in self.metadata:
            self.metadata["title"] = text

    def list(self, element: ET.Element, depth: int, style: str | None = None, counter: _Counter | None = None,
             level: int = 1) -> None:
        """A list and the lists nested in its items; `style`, `counter` and `level` those of the list it is
        nested in (None: a list of its own)."""
        if depth >= self.limits.depth:
            raise PastLimit("lists nested too deep", self.limits, "depth", line=len(self.lines) + 1)
        style = element.get(_q("text:style-name")) or style or ""
        if counter is None:
            following = element.get(_q("text:continue-list"))
            if following in self.by_id:
                counter = self.by_id[following]
            elif element.get(_q("text:continue-numbering")) == "true" and style in self.by_style:
                counter = self.by_style[style]
            else:
                counter = _Counter()
            self.by_style[style] = counter
        own = element.get(_q("xml:id"))
        if own:
            self.by_id[own] = counter
        levels = self.styles.lists.get(style, {})
        for item in element:
            if item.tag not in (_ITEM, _HEADER):
                continue
            first = True
            for child in item:
                if child.tag == _LIST:
                    self.list(child, depth + 1, style, counter, level + 1)
                elif child.tag in (_P, _H) and first:
                    first = False
                    self.item(child, item, levels, counter, level, depth)
                elif child.tag in (_P, _H):
                    self.paragraph(child, depth + 1)  # a later paragraph of the item, under its first
                elif child.tag == _TABLE:
                    self.table(child)

    def item(self, paragraph: ET.Element, item: ET.Element, levels: dict[int, _Level], counter: _Counter,
             level: int, depth: int) -> None:
        """A list item's first paragraph, after the number or bullet it shows."""
        text, _ = self.text(paragraph)
        if item.tag == _HEADER:  # a list header shows no number
            if text:
                _, run = self.line(_INDENT * depth, text)
                self.out.paragraph(run, depth)
            return
        shown = levels.get(level, _Level())
        restart = item.get(_q("text:start-value"))
        counter.count(level, shown.start, _number(restart, shown.start) if restart else None)
        if not text:
            return
        marker = _marker(levels, counter, level)
        bullet = shown.bullet or "•"
        start, run = self.line(_INDENT * depth + (bullet if marker == "-" else marker) + " ", text)
        self.out.item(marker, run, start, depth)

    def table(self, element: ET.Element) -> None:
        for row in element.iter(_ROW):
            cells = [" ".join(" ".join(self.text(paragraph)[0] for paragraph in _paragraphs(cell)).split())
                     for cell in row if cell.tag == _CELL]
            if any(cells):
                write_row(self, cells)

    def text(self, element: ET.Element) -> tuple[str, bool]:
        """A paragraph's text as it shows, on one line, and whether all of it is bold."""
        pieces: list[str] = []
        weights: list[bool] = []
        paragraph_bold = bool(self.styles.is_bold("paragraph", element.get(_q("text:style-name"))))

        def add(text: str | None, bold: bool) -> None:
            if text:
                text = XML_SPACES.sub(" ", text)
                pieces.append(text)
                if text.strip():
                    weights.append(bold)

        def walk(node: ET.Element, bold: bool) -> None:
            add(node.text, bold)
            for child in node:
                tag = child.tag
                if tag in _DROPPED or tag.startswith(f"{{{_DRAWING}}}"):
                    pass
                elif tag == _S:
                    pieces.append(" " * min(_number(child.get(_q("text:c")), 1), _MOST_SPACES))
                elif tag in _SPAN_BREAKS:
                    pieces.append(_SPAN_BREAKS[tag])
                elif tag in (_P, _H, _LIST):  # a paragraph inside a paragraph (a frame's, a cell's): a space
                    pieces.append(" ")
                    walk(child, bold)
                else:
                    own = self.styles.is_bold("text", child.get(_q("text:style-name")))
                    walk(child, bold if own is None else own)
                add(child.tail, bold)

        walk(element, paragraph_bold)
        text = " ".join("".join(pieces).split())
        return text, bool(weights) and all(weights)
