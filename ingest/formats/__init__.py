"""Reading a rules document in the format people have it: PDF, Word, OpenDocument, RTF, markdown, HTML, Q/A data or
plain text.

`FORMATS` is the one table of formats, and the one place that knows them: each names the suffixes that say
it, the tests that recognise its content when the suffix says nothing, its reader, and what the rest of the
project asks of a format instead of testing its name: its media type, what people call its file, whether the
file is kept beside its text, and how citations name its places (`model.citation.Locator`: lines or
paragraphs, the file's own pages and the fragment that opens the file at one). Ingest asks `named`; what
reads the database asks the `formats` table, which `row` fills. A text format's reader writes the document to an
`Outline` (the outline dialect, mapped into the source: `ingest.formats.document`) and returns the metadata
it found, raising `Unreadable` for what it cannot read; a binary format's reader gets the file and returns
the `Document`. Readers are imported when a document needs them (markdown-it, PyYAML, pypdf and python-docx
cost time)
and import nothing from this package, so imports go one way (package -> readers).
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ingest.classify.markup import (
    HTML_BLOCK_TAG,
    HTML_START,
    LONGEST_LINE,
    LONG_LINE,
    MARKDOWN,
    MD_FENCE,
    MD_HEADING,
    MD_LINK,
    MD_STRONG,
    MD_TABLE_RULE,
)
from ingest.errors import IngestError
from ingest.formats.document import FENCE, Document, Outline, PastLimit, Unreadable
from ingest.formats.underlines import ASCIIDOC, RST, plain_markup
from ingest.limits import Limits, current
from ingest.text import LineIndex, MappedText, read_document
from model.citation import LINES, Locator

__all__ = ["FENCE", "FORMATS", "Document", "Format", "Outline", "PastLimit", "Unreadable", "detect", "named",
           "read"]


@dataclass(frozen=True)
class Format:
    """A document format: how it is recognised and what reads it.

    Content is recognised in two passes over the table, in its order: first a format the content `opens`
    as unmistakably (a JSON value, `<!doctype html>`), then one whose markup it `shows` in quantity; else
    it is plain text. A `binary` format is recognised from the file's first kilobyte, before decoding; its
    text is not the file, which is kept beside it (`Document.file`) and served as it came, as `media_type`.
    """
    name: str
    media_type: str
    label: str                        # what people call such a file: "the original PDF"
    suffixes: tuple[str, ...] = ()
    opens: Callable | None = None     # (text, limits) -> bool; binary: (the first kilobyte's bytes) -> bool
    shows: Callable[[str, Limits], bool] | None = None
    reader: str | None = None         # "module:function"; None: the text is kept as it is
    binary: bool = False
    document: str | None = None       # the Document's `format` when not `name` (JSON and YAML are "data")
    locator: Locator = LINES          # how citations name its places
    # Its text as the author typed it, never laid out by a printer or read back from print: no line's end splits
    # or hyphenates a word ("set up" is two words even where "setup" is one), so no join repairs one.
    typed: bool = False
    # Its spaces as the author typed them, though a line's end may have hyphenated a word (a print converted to
    # markdown): only reading a printed page's glyphs back sets a space inside a word ("spe ll"), so no join of two
    # words ("a way", "face down", "infortuni o") repairs one.
    spaced: bool = False

    def load(self) -> Callable:
        """The reader function, imported now."""
        module, function = self.reader.split(":")
        return getattr(importlib.import_module(module), function)

    @property
    def stored(self) -> str:
        """The name a Document, and the database (`sources.format`), give the format."""
        return self.document or self.name

    @property
    def verbatim(self) -> bool:
        """Whether the text read is the file itself, line for line (a manifest entry may select its lines)."""
        return self.reader is None

    def row(self) -> dict:
        """The format's row of the database's `formats` table (model.schema): what a reader of the database
        needs to know of it."""
        return {"name": self.stored, "label": self.label, "file_kept": int(self.binary), **self.locator._asdict()}


# Program source is never a rules document, however much it looks like text.
_CODE = {".js", ".mjs", ".cjs", ".ts", ".py", ".css", ".java", ".c", ".h", ".cpp", ".cs", ".go", ".rs", ".rb",
         ".php", ".sh"}
_SNIFF_BYTES = 1024  # how much of a file a binary format's `opens` sees
# Files people keep rules in that no reader reads, by suffix: what they are called.
_UNREAD = {".epub": "an EPUB e-book", ".mobi": "a Kindle e-book", ".azw3": "a Kindle e-book",
           ".odp": "OpenDocument slides (.odp)", ".ods": "an OpenDocument spreadsheet (.ods)",
           ".odg": "an OpenDocument drawing (.odg)", ".xlsx": "an Excel spreadsheet (.xlsx)",
           ".xls": "an Excel spreadsheet (.xls)", ".pptx": "PowerPoint slides (.pptx)", ".ppt": "PowerPoint slides (.ppt)",
           ".doc": "an older Word file (.doc; Word saves it as a .docx)",
           ".pages": "an Apple Pages document", ".key": "Apple Keynote slides", ".numbers": "an Apple Numbers spreadsheet",
           ".zip": "a zip archive", ".png": "an image", ".jpg": "an image", ".jpeg": "an image", ".gif": "an image",
           ".webp": "an image", ".tif": "an image", ".tiff": "an image", ".djvu": "a DjVu scan", ".cbz": "a comic archive"}
# ... and by their first bytes, where the suffix says nothing: (opening bytes, what the file is).
_UNREAD_OPENINGS = ((b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"), (b"GIF8", "a GIF image"),
                    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an older Office file (.doc, .xls or .ppt)"),
                    (b"AT&TFORM", "a DjVu scan"), (b"PK\x03\x04", "a zip archive"))
# What an OpenDocument or EPUB zip says it is, in its first entry (`mimetype`).
_MIMETYPES = {b"application/vnd.oasis.opendocument.spreadsheet": "an OpenDocument spreadsheet (.ods)",
              b"application/vnd.oasis.opendocument.presentation": "OpenDocument slides (.odp)",
              b"application/vnd.oasis.opendocument.graphics": "an OpenDocument drawing (.odg)",
              b"application/epub+zip": "an EPUB e-book"}

_HTML_TAGS_PER_LINE = 1 / 20
_HTML_MIN_TAGS = 5
_MD_EVIDENCE = 10  # a heading or fence line counts 1, a link or bold span 2, a table rule 5


def _opens_as_pdf(head: bytes) -> bool:
    """`%PDF-` within the first kilobyte. Bytes only: importing the PDF reader (pypdf, cryptography) would
    cost every text file a tenth of a second."""
    return b"%PDF-" in head


def _opens_as_json(text: str, limits: Limits) -> bool:
    """A JSON object or array; one past the limits is one too (its reader refuses it)."""
    if text.lstrip()[:1] not in ("{", "["):
        return False
    from ingest.formats.data import json_value
    try:
        return isinstance(json_value(text, limits), (dict, list))
    except PastLimit:
        return True
    except Unreadable:
        return False


def _opens_as_html(text: str, limits: Limits) -> bool:
    return bool(HTML_START.match(text))


def _shows_html(text: str, limits: Limits) -> bool:
    tags = len(HTML_BLOCK_TAG.findall(text))
    return tags >= max(_HTML_MIN_TAGS, text.count("\n") * _HTML_TAGS_PER_LINE)


def _shows_markdown(text: str, limits: Limits) -> bool:
    markup = (2 * len(MD_LINK.findall(text)) + 2 * len(MD_STRONG.findall(text))
              + 5 * len(MD_TABLE_RULE.findall(text)) + len(MD_FENCE.findall(text)))
    return bool(markup) and markup + len(MD_HEADING.findall(text)) >= _MD_EVIDENCE


def _opens_as_docx(head: bytes) -> bool:
    """A zip archive (`PK\\x03\\x04`) of Office Open XML parts (`[Content_Types].xml`, the first entry Word and
    python-docx write): a Word file, or a spreadsheet or slides its reader refuses as no Word document. Bytes
    only, as `_opens_as_pdf`."""
    return head.startswith(b"PK\x03\x04") and b"[Content_Types].xml" in head


def _zip_mimetype(head: bytes) -> bytes:
    """What a zip archive's first entry says when it is a `mimetype` stored as it is, as every OpenDocument and
    EPUB file opens ("application/vnd.oasis.opendocument.text"); b"" for any other file."""
    if not head.startswith(b"PK\x03\x04") or len(head) < 30:
        return b""
    named, extra = int.from_bytes(head[26:28], "little"), int.from_bytes(head[28:30], "little")
    if head[30:30 + named] != b"mimetype":
        return b""
    return head[30 + named + extra:].split(b"PK", 1)[0][:100]


def _opens_as_odt(head: bytes) -> bool:
    """An OpenDocument text (or its template), by the `mimetype` it opens with: bytes only, as `_opens_as_pdf`."""
    return _zip_mimetype(head) in (b"application/vnd.oasis.opendocument.text",
                                   b"application/vnd.oasis.opendocument.text-template")


def _opens_as_rtf(head: bytes) -> bool:
    """`{\\rtf`, as every RTF file opens, whatever it is named (a .txt, a .doc Word saved as RTF)."""
    return head.lstrip().startswith(b"{\\rtf")


def _shows_yaml_data(text: str, limits: Limits) -> bool:
    from ingest.formats.data import is_yaml_data
    return is_yaml_data(text, limits)


FORMATS = (
    # A PDF's pages are the file's own: a passage on a page printing no number is cited by its index in the
    # file, and the browser's viewer opens the file there (RFC 8118's `#page=`).
    Format("pdf", "application/pdf", "PDF", (".pdf",), opens=_opens_as_pdf, reader="ingest.formats.pdf:read",
           binary=True, locator=Locator(sheet="PDF page", sheet_link="#page={page}")),
    # A Word file has no pages of its own (Word lays them out as it shows them): its text holds one paragraph
    # a line, and citations name those paragraphs.
    Format("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "Word document",
           (".docx",), opens=_opens_as_docx, reader="ingest.formats.docx:read", binary=True,
           locator=Locator(line="paragraph", lines="paragraphs"), typed=True),
    # An OpenDocument text (LibreOffice's own format) is read as a Word file is: one paragraph a line.
    Format("odt", "application/vnd.oasis.opendocument.text", "OpenDocument text", (".odt", ".ott"),
           opens=_opens_as_odt, reader="ingest.formats.odt:read", binary=True,
           locator=Locator(line="paragraph", lines="paragraphs"), typed=True),
    # RTF is text, but not the text it shows: read as a Word file is, one paragraph a line, the file kept.
    Format("rtf", "application/rtf", "RTF document", (".rtf",), opens=_opens_as_rtf, reader="ingest.formats.rtf:read",
           binary=True, locator=Locator(line="paragraph", lines="paragraphs"), typed=True),
    Format("json", "application/json", "Q/A data", (".json",), opens=_opens_as_json,
           reader="ingest.formats.data:read_json", document="data", typed=True),
    Format("markdown", "text/markdown", "markdown", (".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".mdx"),
           shows=_shows_markdown, reader="ingest.formats.markdown:read", spaced=True),
    Format("html", "text/html", "HTML page", (".html", ".htm", ".xhtml"), opens=_opens_as_html, shows=_shows_html,
           reader="ingest.formats.html:read", spaced=True),
    Format("yaml", "application/yaml", "Q/A data", (".yaml", ".yml"), shows=_shows_yaml_data,
           reader="ingest.formats.data:read_yaml", document="data", typed=True),
    # What nothing else recognises (.txt says nothing: a .txt file may hold markdown). reStructuredText and AsciiDoc
    # sources are text whose headings are underlined or marked with "=" (`formats.underlines`), never markdown.
    Format("text", "text/plain", "text", (*RST, *ASCIIDOC)),
)
_BY_SUFFIX = {suffix: found for found in FORMATS for suffix in found.suffixes}
_BY_NAME = {found.name: found for found in FORMATS}
_BY_STORED = {found.stored: found for found in reversed(FORMATS)}  # "data": the first that stores it (JSON)


def named(name: str) -> Format:
    """The format a Document's (or a stored source's) `format` names; KeyError for none."""
    return _BY_STORED[name]


def read(path: Path, limits: Limits | None = None) -> Document:
    """Read one rules document, its format told by its suffix or, when that says nothing, its content.

    Markdown, HTML and Q/A data (JSON, YAML) become the outline dialect mapped into their source; text is
    kept as it is; a PDF's text is extracted with its page starts, a Word, OpenDocument or RTF file's paragraph by
    paragraph. Raises IngestError, naming the file, for anything that cannot be read as a rules document (a binary
    format no reader reads: what it is, and the formats read), or that goes past `limits` (default: those in
    force, `ingest.limits.current`: a command's --limit, else the environment's).
    """
    path = Path(path)
    limits = limits or current()
    suffix = path.suffix.lower()
    if suffix in _CODE:
        raise IngestError(str(path), f"is program source ({suffix}), not a rules document; give the rules as "
                                     f"{supported()}")
    if suffix in _UNREAD:
        raise _unread(path, _UNREAD[suffix])
    head = _head(path)
    found = _BY_SUFFIX.get(suffix) or _binary_format(head)
    if found is None and b"\x00" in head and not head.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16 is text
        raise _unread(path, _unread_opening(head))
    try:
        if found is not None and found.binary:
            document = found.load()(path, limits)
        else:
            source = read_document(path)
            found = found or _BY_NAME[detect(source, limits)]
            if found.name == "markdown" and not MARKDOWN.search(source):
                # text saved as .md (a page saved as text: a heading and its lines, no blank line between): read as
                # markdown its lines would run into one paragraph, headings and all
                found = _BY_NAME["text"]
            document = _read_text(source, found, limits, path.suffix.lower())
    except Unreadable as exc:
        raise IngestError(str(path), exc.message, exc.line) from None
    long = LONG_LINE.search(document.text.text)
    if long:
        line = LineIndex(document.original).line_of(document.text.offsets[long.start()])
        raise IngestError(str(path), f"a paragraph of more than {LONGEST_LINE:,} characters, which no rules "
                          "document has: did the file lose its line breaks?", line)
    return document


def _read_text(source: str, found: Format, limits: Limits, suffix: str = "") -> Document:
    """The Document of a text format's `source`, its file named with `suffix` (an AsciiDoc source's sections are
    marked with "=", a reStructuredText source's markup is read as the text it shows)."""
    if found.verbatim:
        return Document(original=source, text=plain_markup(MappedText.of(source), suffix), format=found.stored)
    out = Outline()
    metadata = found.load()(source, out, limits)
    return Document(original=source, text=out.mapped(len(source)), format=found.stored, metadata=metadata)


def detect(text: str, limits: Limits | None = None) -> str:
    """The name of the text format a document's content shows: "json", "yaml", "html", "markdown" or "text".

    Strict on purpose: a plain-text FAQ must never be taken for data or markup, so each format needs
    markup in quantity (or a parse as JSON/YAML structure within `limits`, default `Limits()`).
    """
    limits = limits or Limits()
    text_formats = [found for found in FORMATS if not found.binary]
    for test in ("opens", "shows"):
        for found in text_formats:
            if getattr(found, test) is not None and getattr(found, test)(text, limits):
                return found.name
    return "text"


def _head(path: Path) -> bytes:
    """The file's first kilobyte; nothing where it cannot be read (reading it says why)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(_SNIFF_BYTES)
    except OSError:
        return b""


def _binary_format(head: bytes) -> Format | None:
    """The binary format whose opening a file's first kilobyte, `head`, shows, if any."""
    return next((found for found in FORMATS if found.binary and found.opens(head)), None)


def supported() -> str:
    """The formats a rules document may be given in, as a sentence names them: "PDF (.pdf), Word document
    (.docx), …, or text (.txt)"."""
    named: dict[str, list[str]] = {}
    for found in FORMATS:
        named.setdefault(found.label, []).extend(found.suffixes[:1] if found.name != "text" else [".txt"])
    shown = [f"{label} ({', '.join(suffixes)})" for label, suffixes in named.items()]
    return ", ".join(shown[:-1]) + " or " + shown[-1]


def _unread_opening(head: bytes) -> str:
    """What a binary file no reader reads is, by its first bytes: "a PNG image", "an EPUB e-book"."""
    found = _MIMETYPES.get(_zip_mimetype(head))
    if found:
        return found
    return next((what for opening, what in _UNREAD_OPENINGS if head.startswith(opening)), "a binary file")


def _unread(path: Path, what: str) -> IngestError:
    """The refusal of a file in a format no reader reads, saying which formats are read."""
    return IngestError(str(path), f"is {what}, a binary format rulings does not read; give the rules as {supported()}")
