"""Reading the text layer of a PDF page by page, with each page's number and printed label.

`read(path)` is the PDF format's reader (`ingest.formats.FORMATS`): the `Document` of a PDF, its pages
joined by form feeds, with where pages 2, 3, ... start and their printed labels. `read_pdf(path)` returns a
`PdfText`: its pages in order, each with its 1-based page number (the page's index in the PDF), the page
label printed on it if one is found, and its text in reading order with its line breaks. `PdfText.text` is
the whole document with a form feed between pages and `PdfText.page_at(offset)` tells which page a
character of it is on.

Text comes from pypdf (chosen by `benchmarks/pdf_readers.py`: on the rulebooks measured it loses no
numbered rule and glues no words, keeps a page's columns apart, and is pure Python). What pypdf gives is
normalised so that later steps can work line by line: line breaks become `\\n`, odd spaces (NBSP, thin
spaces) plain spaces, ligatures (`ﬁ`) their letters, a soft hyphen that ends a line a hyphen (the others are
read by `ingest.clean.soft_hyphens`); control and zero-width characters are dropped and so are trailing spaces.
A heading a layout program draws after the text printed under it goes before that text (`_in_printed_order`).
Nothing else is changed: running headers and footers stay in each page's text (a later step removes them by their
repetition across pages).

Encrypted, damaged and image-only (scanned) PDFs raise `IngestError` naming the file and what to do.
"""
from __future__ import annotations

import bisect
import io
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import pypdf
from pypdf.errors import DependencyError, LimitReachedError

from ingest.classify import LIGATURE, LONE_LABEL, TITLE_SMALL
from ingest.classify.furniture import PRINTED_PAGE_NUMBER, ROMAN
from ingest.classify.markup import (
    BROKEN_AT_SOFT_HYPHEN,
    LINE_BREAKS,
    PRINT_JOB_NAME,
    SITE_SUFFIX,
    SPACES_BEFORE_BREAK,
    WRITTEN_TITLE,
)
from ingest.errors import IngestError
from ingest.formats.document import Document, PastLimit
from ingest.limits import Limits, current
from ingest.text import MappedText, read_bounded

PAGE_BREAK = "\f\n"  # the form feed ends a page's last line: the next page starts a line of its own

# Characters a text layer never needs, dropped: C0/C1 controls (the form feed too: it separates pages here),
# zero-width spaces, word joiner and byte-order mark; and the spaces of other widths, each a plain space.
_CHARACTERS = str.maketrans(
    dict.fromkeys([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0), 0x200B, 0x2060, 0xFEFF])
    | dict.fromkeys([0xA0, 0x1680, *range(0x2000, 0x200B), 0x202F, 0x205F, 0x3000], " "))
_EDGE_LINES = 3  # how many lines at the top and at the bottom of a page may hold its printed number
# A page pypdf sets one word to a line (at least this many lines, this share of them a single word) was drawn a
# word at a time: its words on one baseline are one printed line.
_WORD_LINES = 10
_BY_WORD = 0.6
_SAME_LINE = 1.0  # points between two pieces' baselines that still lie on one printed line
# A character's mean width, as a share of the font's size (a piece's end is estimated from its length), and the most
# space (in sizes) between the end of one piece and the start of the next on its line: a word's space, never a column's
_MEAN_WIDTH = 0.5
_CAPITAL_WIDTH = 0.7
_RUN_GAP = 2.0
_WORD_SPACE = 0.2  # the least space between two words, in sizes
_PAST_SHARE = 0.6  # how far past the last piece's start (a share of its estimated width) the next starts on its line
_LABEL_CHARACTERS = 12  # the longest label a piece may hold alone ("11.2.30a.")
_CLOSING = ",.;:!?)]”’"  # what a piece opens with that follows the word before it without a space
_SHADOWS = 8  # how many earlier drawings of a line's text are looked at for one at its place (a shadow's)
_UNDER_LINES = 64  # the most lines under a heading looked at for its text (a page's cost stays linear)
_HEADING_SPACE = 4.0  # the most space (in a heading's sizes) between a heading's baseline and its text's first
_HEADING_SIZE = 1.12  # a line this much larger than a page's text (by characters) is set as a heading
_HEADING_SHARE = 0.1  # a size holding more than this share of the text's characters sets text (a sidebar), no headings
_HEADING_WORDS = 12  # the most words of a heading's line
_HEADING_LINES = 3  # the most lines a heading wraps over
_LABEL_WORDS = 2  # the most words of a chapter's label printed over its title ("CHAPTER I:")
_NUMBERED_LINES = 20  # a document opening this many lines with a decimal label numbers its rules
_COVER_PAGES = 2  # a document of more pages than this may have a cover, set in sizes of its own
# A page this share of whose text (by characters) lies outside its box is drawn in places pypdf did not transform,
# not cut from a spread (whose other page's text is about half)
_OUTSIDE_SHARE = 0.9
_COLUMN_GAP = "   "  # how a gap as wide as a column's is written: spaces the outline reads as columns


@dataclass(frozen=True)
class PdfPage:
    """One page of a PDF: its 1-based index in the file, its printed label if found, and its text."""

    number: int
    label: str | None
    text: str


@dataclass(frozen=True)
class PdfText:
    """The text of a PDF, page by page, in page order."""

    path: str
    pages: tuple[PdfPage, ...]
    title: str | None = None  # the title the file declares (/Title), when it reads as one
    data: bytes = field(default=b"", repr=False, compare=False)  # the file, as read
    _starts: list[int] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        starts, position = [], 0
        for page in self.pages:
            starts.append(position)
            position += len(page.text) + len(PAGE_BREAK)
        object.__setattr__(self, "_starts", starts)

    @cached_property
    def text(self) -> str:
        """The whole document: the pages' texts joined with a form feed and a line break (`\\f\\n`) between pages."""
        return join_pages(self.pages)

    def page_at(self, offset: int) -> PdfPage:
        """The page holding character `offset` of `text` (the form feed after a page belongs to that page;
        `len(text)` belongs to the last page). IndexError outside `0..len(text)`."""
        end = self._starts[-1] + len(self.pages[-1].text) if self.pages else 0
        if not self.pages or not 0 <= offset <= end:
            raise IndexError(f"offset {offset} is outside the text (0..{end})")
        return self.pages[bisect.bisect_right(self._starts, offset) - 1]

    def start_of(self, number: int) -> int:
        """Offset in `text` where page `number` (1-based) begins."""
        return self._starts[number - 1]

    @property
    def page_starts(self) -> list[int]:
        """Offsets in `text` where pages 2, 3, ... begin (each right after a form feed)."""
        return self._starts[1:]

    @property
    def empty_pages(self) -> list[int]:
        """Numbers of the pages with no text (pictures, blank pages, or scanned pages without OCR)."""
        return [page.number for page in self.pages if not page.text.strip()]


def join_pages(pages) -> str:
    """Pages' texts joined with a form feed between consecutive pages."""
    return PAGE_BREAK.join(page.text for page in pages)


def normalise(text: str) -> str:
    """A page's text as later steps want it; see the module docstring. Never joins or reorders lines."""
    text = LINE_BREAKS.sub("\n", text)
    text = BROKEN_AT_SOFT_HYPHEN.sub("-\n", text)  # any other soft hyphen: `clean.soft_hyphens`
    text = text.translate(_CHARACTERS)
    text = LIGATURE.sub(lambda m: unicodedata.normalize("NFKC", m.group()[0]), text)  # NFKC gives their letters
    text = SPACES_BEFORE_BREAK.sub("\n", text)
    return text.strip("\n").rstrip()


def _page_text(page: pypdf.PageObject) -> tuple[str, list[float]]:
    """The page's text as pypdf extracts it, but for the line breaks it puts between two pieces of one printed
    line: around a zero-width space ("ask us via email or Twitter", each link between two zero-width spaces, is
    one line of the page, not five), and on a page set one word at a time (a Google Docs export draws each word
    in a block of its own, and pypdf sets each on a line: "Appendix" / "A:" / "Sportsmanship"); and the size each
    of its lines is set in (the smallest of its pieces; none where pypdf's pieces and lines disagree)."""
    pieces: list[tuple[str, float, float, float]] = []  # each piece of text pypdf shows: where it starts, its
    # baseline and its size

    def visit(text, cm, tm, font, size):  # pypdf's visitor signature: font unused
        scale = abs(tm[0] * cm[0]) or 1.0
        pieces.append((text, tm[4] * cm[0] + tm[5] * cm[2] + cm[4], tm[4] * cm[1] + tm[5] * cm[3] + cm[5],
                       size * scale))
    text = page.extract_text(visitor_text=visit) or ""
    if "".join(piece for piece, *_ in pieces) != text:  # pieces and text disagree: keep pypdf's lines
        return text, []
    pieces = _in_printed_order(pieces)
    text = "".join(piece for piece, *_ in pieces)
    # A page cut from a two-page spread still holds the other page's text, drawn outside its box (at x = -560): no
    # text a reader sees on the page. (A printer's slug in the bleed, past the page's trim but on its media, stays:
    # the furniture reader reads the page's number from it.)
    box = page.mediabox
    unseen = {at for at, (piece, x, baseline, size) in enumerate(pieces) if piece.strip() and (
        x > float(box.right) or x + size * _MEAN_WIDTH * len(piece) < float(box.left)
        or not float(box.bottom) - size < baseline < float(box.top) + size)}
    # Most of the page's text outside its box is no other page's text but pypdf's places without a transform it
    # does not apply (a page drawn as one form scaled down, its text scaled up inside it): all of it is the page's.
    if sum(len(pieces[at][0].strip()) for at in unseen) > _OUTSIDE_SHARE * sum(len(p.strip()) for p, *_ in pieces):
        unseen = set()
    lines = [line for line in text.split("\n") if line.strip(" \u200b")]
    by_word = len(lines) >= _WORD_LINES and sum(len(line.split()) == 1 for line in lines) >= len(lines) * _BY_WORD
    shown = [at for at, (piece, *_) in enumerate(pieces) if piece.strip(" ") and piece != "\n" and at not in unseen]
    out = [piece if at not in unseen else "" for at, (piece, *_) in enumerate(pieces)]
    for before, after in zip(shown, shown[1:]):
        breaks = [at for at in range(before + 1, after) if pieces[at][0] == "\n"]
        if not breaks:
            continue
        (left, x, baseline, size), (right, x_after, baseline_after, _) = pieces[before], pieces[after]
        spacer = "\u200b" in left or "\u200b" in right
        # where the last piece's text ends: where pypdf's next piece on its baseline starts, else as its letters run
        ends = [at_x for piece, at_x, at_baseline, _ in pieces[before + 1:breaks[0]]
                if piece != "\n" and at_x > x and abs(at_baseline - baseline) < _SAME_LINE]
        width = size * sum(_CAPITAL_WIDTH if c.isupper() else _MEAN_WIDTH for c in left)
        end = max(ends) if ends else x + width
        column = x_after - end > size * _RUN_GAP
        # a word processor draws each styled run of a line apart ("the" / "START OF DAY" / "phase, which…"): a
        # piece right of the last one's text on its baseline, not over it (two columns a page draws side by side,
        # line by line, keep pypdf's lines), goes on its printed line, a column's gap kept wide; a label drawn apart
        # from its rule's text keeps its line, which the reader knows
        after_it = x_after > x + _PAST_SHARE * (end - x if ends else width) and not _label(left)
        if abs(baseline - baseline_after) < _SAME_LINE and (spacer or x_after > x and (by_word or after_it)):
            # the breaks go; a space stands between two words unless a piece brings one (or a zero-width space
            # stands for none, but on a page drawn a word at a time, for a link's opening one drawn a space right
            # of the word before it: "See" / "\u200bsection 7.1")
            opens_link = by_word and right[:1] == "\u200b" and x_after - end >= size * _WORD_SPACE
            spaced = spacer and not opens_link or left[-1:].isspace() or right[:1].isspace() \
                or right[:1] in _CLOSING or any(pieces[at][0].isspace() and pieces[at][0] != "\n"
                                                for at in range(before + 1, after))
            for at in breaks:
                out[at] = ""
            out[breaks[0]] = _COLUMN_GAP if column and not (by_word or spacer) else "" if spaced else " "
        elif by_word:  # the next printed line: one break, not a line of the space drawn at this one's end
            out[before + 1:after] = [""] * (after - before - 1)
            out[breaks[0]] = "\n"
    lines = _sized_lines(out, pieces)
    # the lines of text off the page go with it
    lines = [(line, size) for line, size in lines if line.strip()] if unseen else lines
    return "\n".join(line for line, _ in lines), [size for _, size in lines]


def _sized_lines(out: list[str], pieces: list[tuple[str, float, float, float]]) -> list[tuple[str, float]]:
    """The lines of the text written as `out` (each piece as it goes out), each with the smallest size of the
    pieces that show text on it (0.0 for none)."""
    lines: list[tuple[str, float]] = []
    line, size = "", 0.0
    for written, (*_, piece_size) in zip(out, pieces, strict=True):
        parts = written.split("\n")
        for at, part in enumerate(parts):
            if at:
                lines.append((line, size))
                line, size = "", 0.0
            line += part
            if part.strip():
                size = min(size, piece_size) if size else piece_size
    lines.append((line, size))
    return lines


def _in_printed_order(pieces: list[tuple[str, float, float, float]]) -> list[tuple[str, float, float, float]]:
    """The pieces with each heading the page draws after the text printed under it moved to stand over that text.

    A publisher's layout program draws a page's headings after its body (their own layer or frames), so pypdf sets
    "SETUP" after the setup rules it heads, and the rules land under the heading before. A line set larger than the
    page's text whose nearest line printed under it, in its column, was drawn before it goes before that line. Only
    such lines move: every other line keeps pypdf's order."""
    lines, start = [], 0  # each line's pieces, as pypdf ends them with a line break
    for at, (piece, *_) in enumerate(pieces):
        if "\n" in piece[:-1]:  # a break inside a piece: no line to move whole
            return pieces
        if piece.endswith("\n") or at == len(pieces) - 1:
            lines.append(pieces[start:at + 1])
            start = at + 1
    shown = [[piece for piece in line if piece[0].strip()] for line in lines]
    sizes = Counter()
    for line in shown:
        for piece, _, _, size in line:
            sizes[round(size, 1)] += len(piece.strip())
    if not sizes:
        return pieces
    body = sizes.most_common(1)[0][0]
    texts = ["".join(piece for piece, *_ in line) for line in shown]
    size = [max((size for *_, size in line), default=0.0) for line in shown]
    baseline = [line[0][2] if line else 0.0 for line in shown]
    # where each line's text starts and ends across the page, as its letters run
    span = [(line[0][1], line[0][1] + size[at] * _MEAN_WIDTH * len(texts[at].strip())) if line else (0.0, 0.0)
            for at, line in enumerate(shown)]
    by_height = sorted((baseline[at], at) for at, line in enumerate(shown) if line)

    def under(at):  # the line of smaller text printed nearest under line `at`, across half its width or more (a
        # heading's other lines are passed)
        (left, right), high = span[at], bisect.bisect_left(by_height, (baseline[at] - _SAME_LINE, -1))
        low = max(bisect.bisect_left(by_height, (baseline[at] - size[at] * _HEADING_SPACE, -1)), high - _UNDER_LINES)
        below = [other for _, other in by_height[low:high]
                 if size[other] * _HEADING_SIZE <= size[at]
                 and min(right, span[other][1]) - max(left, span[other][0]) >= (right - left) / 2]
        return max(below, key=lambda other: (baseline[other], -abs(span[other][0] - left)), default=None)

    drawn = {}  # each line's text: the baselines it is drawn at
    moved = {}  # each line that moves: the line it goes over
    for at, text in enumerate(texts):
        # a line set as a heading over words set as text drawn before it (not a second drawing of a line drawn
        # before it, as a shadow is drawn)
        if size[at] >= body * _HEADING_SIZE and sum(c.isalpha() for c in text) >= 2 and not any(
                abs(height - baseline[at]) < size[at] for height in drawn.get(text, [])[-_SHADOWS:]):
            below = under(at)
            if below is not None and below < at and len(texts[below].split()) >= 2:
                moved[at] = below
        drawn.setdefault(text, []).append(baseline[at])
    order, placed = list(range(len(lines))), set()
    for at in sorted(moved, key=lambda at: baseline[at]):  # the lowest first: a heading's lines, or a heading
        order.remove(at)                                   # over a heading, each go over those moved under them
        place = order.index(moved[at])
        while place and order[place - 1] in placed:
            place -= 1
        order.insert(place, at)
        placed.add(at)
    if order[-1] != len(lines) - 1 and not lines[-1][-1][0].endswith("\n"):
        lines[-1] = [*lines[-1], ("\n", *lines[-1][-1][1:])]  # the page's last line, moved up, ends as the others
    return [piece for at in order for piece in lines[at]]


def _label(piece: str) -> bool:
    """Is a piece of text a list's label or bullet alone ("1.2.", "a.", "(iv)", "●"), not words?"""
    token = piece.strip()
    return 0 < len(token) <= _LABEL_CHARACTERS and " " not in token and (
        not any(c.isalpha() for c in token) or len(token.strip("().")) == 1
        or token.strip("().").lower().strip("ivx") == "")


def _printed_number(text: str) -> str | None:
    """A page number standing alone on one of the first or last lines of a page's text."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in lines[:_EDGE_LINES] + lines[-_EDGE_LINES:][::-1]:
        m = PRINTED_PAGE_NUMBER.fullmatch(line)
        if m and (m.group(1).isdigit() or ROMAN.fullmatch(m.group(1))):
            return m.group(1)
    return None


def _printed_labels(texts: list[str]) -> list[str | None]:
    """Each page's printed number, kept only when a neighbouring page carries the number next to it in the
    same style (12 after 11, iv before v): a lone number at a page's edge may be anything else."""
    found = [_printed_number(text) for text in texts]
    values = [None if label is None else (label.isdigit(), _value(label)) for label in found]
    labels: list[str | None] = []
    for i, label in enumerate(found):
        if label is None:
            labels.append(None)
            continue
        arabic, value = values[i]
        before = values[i - 1] if i > 0 else None
        after = values[i + 1] if i + 1 < len(values) else None
        agreed = before == (arabic, value - 1) or after == (arabic, value + 1) or len(texts) == 1
        labels.append(label if agreed else None)
    return labels


def _value(label: str) -> int:
    """The number an arabic or roman page number stands for."""
    if label.isdigit():
        return int(label)
    values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
    digits = [values[c] for c in label.lower()]
    return sum(-d if i + 1 < len(digits) and d < digits[i + 1] else d for i, d in enumerate(digits))


def _declared_labels(reader: pypdf.PdfReader) -> list[str | None]:
    """The page labels the PDF declares (/PageLabels), or None for every page when it declares none."""
    try:
        if "/PageLabels" in reader.trailer["/Root"]:
            return list(reader.page_labels)
    except Exception:  # noqa: BLE001, S110 - a damaged label tree only costs us the labels
        pass
    return [None] * len(reader.pages)


def _why(exc: Exception) -> str:
    """An exception as a short phrase for an error message (pypdf's can quote kilobytes of the file)."""
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) <= 120 else text[:117] + "..."


def _open(path: Path) -> tuple[pypdf.PdfReader, bytes]:
    """The PDF at `path` opened, and its bytes."""
    name = str(path)
    data = read_bounded(path, current().pdf_mb, "pdf_mb")
    head, tail = data[:1024], data[-4096:]
    if not head.strip():
        raise IngestError(name, "file is empty")
    if b"%PDF-" not in head:
        raise IngestError(name, "not a PDF (it does not start with %PDF-)")
    if b"%%EOF" not in tail:
        raise IngestError(name, "damaged PDF: it has no end-of-file marker (%%EOF), so it was probably cut "
                          "short; download or export it again")
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise IngestError(name, "PDF is encrypted with a password: save an unprotected copy (e.g. "
                              "`qpdf --decrypt --password=PASSWORD in.pdf out.pdf`) and add that")
        if len(reader.pages) == 0:
            raise IngestError(name, "PDF has no pages")
    except IngestError:
        raise
    except DependencyError as exc:
        raise IngestError(name, f"PDF is encrypted and cannot be decrypted here ({exc}): install "
                          "'cryptography' or save an unprotected copy and add that") from None
    except Exception as exc:  # noqa: BLE001 - pypdf raises PdfReadError and many others on broken files
        raise IngestError(name, f"damaged PDF, cannot be read ({_why(exc)}); "
                          "download or export it again") from None
    return reader, data


def read(path: Path, limits: Limits | None = None) -> Document:
    """The Document of the PDF at `path`: its text, where pages 2, 3, ... start, their printed labels and
    its declared title. Raises IngestError as `read_pdf` does."""
    extracted = read_pdf(path, limits)
    metadata = {}
    if any(page.label for page in extracted.pages):
        metadata["page_labels"] = [page.label for page in extracted.pages]
    if extracted.title:
        metadata["title"] = extracted.title
    return Document(original=extracted.text, text=MappedText.of(extracted.text), format="pdf",
                    page_starts=extracted.page_starts, metadata=metadata, file=extracted.data)


def read_pdf(path: Path, limits: Limits | None = None) -> PdfText:
    """The text of the PDF at `path`, page by page.

    Raises IngestError, naming the file, when it cannot be read, is not a PDF, is damaged or truncated, is
    encrypted with a password, has no text layer (scanned pages: run OCR first), or when its pages' content
    inflates past `limits.inflated_mb` (default `Limits()`).
    """
    path = Path(path)
    name = str(path)
    reader, data = _open(path)
    inflation = _Inflation(limits or Limits())
    read: list[tuple[str, list[float]]] = []
    for number, page in enumerate(reader.pages, 1):
        try:
            past = inflation.add(page)
            read.append(("", []) if past else _page_text(page))
        except LimitReachedError as exc:
            raise IngestError(name, f"page {number}: {exc} (pypdf's cap on one stream, which no rulebook "
                              "reaches)") from None
        except Exception as exc:  # noqa: BLE001 - a broken content stream may raise anything
            raise IngestError(name, f"damaged PDF: the text of page {number} cannot be read "
                              f"({_why(exc)}); download or export it again") from None
        if past:
            raise IngestError(name, f"page {number}: {past.message}")
    texts = [normalise(text) for text in _marked_headings(read)]
    chars = "".join(texts)
    letters = sum(1 for c in chars if c.isalnum())
    if letters == 0:
        raise IngestError(name, "PDF has no text layer (its pages are images, e.g. a scan): run OCR on it "
                          "first (e.g. `ocrmypdf in.pdf out.pdf`) and add the result")
    unreadable = sum(1 for c in chars if unicodedata.category(c) in ("Co", "Cn") or c == "\ufffd")
    if unreadable > letters:
        raise IngestError(name, "PDF text layer is unreadable (its fonts map glyphs to no characters): "
                          "run OCR on it (e.g. `ocrmypdf --force-ocr in.pdf out.pdf`) and add the result")
    declared = _declared_labels(reader)
    printed = _printed_labels(texts)
    pages = tuple(PdfPage(number, printed[number - 1] or declared[number - 1], text)
                  for number, text in enumerate(texts, 1))
    return PdfText(name, pages, _declared_title(reader), data)


def _marked_headings(pages: list[tuple[str, list[float]]]) -> list[str]:
    """Each page's text with the headings its type sets apart marked as markdown marks them ("# Setup"), as a word
    processor's heading styles are: a line of a few words set 1.12 times the document's text size or more, in a size
    the document sets little else in (a sidebar set large is text); a heading wrapped over a few lines is one. All are
    marked at one level: a publisher sets one chapter's heading larger than the next's for its page's sake ("Object of
    the Game" over "The Game Turn"), no nesting. A figure's letters, a page number and a sentence are never headings,
    and a document that numbers its rules ("7.1", "1.4.6.") is read by its numbering alone, as it always was."""
    if sum(_decimal(line.split()[0]) for text, _ in pages for line in text.split("\n") if line.strip()) \
            >= _NUMBERED_LINES:
        return [text for text, _ in pages]
    chars: Counter = Counter()
    on_pages: dict[float, set[int]] = {}
    for number, (text, sizes) in enumerate(pages):
        for line, size in zip(text.split("\n"), sizes):
            chars[round(size, 1)] += len(line.strip())
            on_pages.setdefault(round(size, 1), set()).add(number)
    chars.pop(0.0, None)
    if not chars:
        return [text for text, _ in pages]
    body, most = chars.most_common(1)[0]
    # a size set on one page of a longer document is a cover's or a title's ("SECTION 7" / "PHYSICAL FOULS")
    headings = {size for size, count in chars.items() if size >= body * _HEADING_SIZE and count <= most * _HEADING_SHARE
                and (len(on_pages[size]) > 1 or len(pages) <= _COVER_PAGES)}
    out = []
    for text, sizes in pages:
        lines = text.split("\n")
        # each line's size where it may be a heading's, else None; a heading's lines are those of one size in a row
        set_in = [round(size, 1) if round(size, 1) in headings and _heading_words(line) else None
                  for line, size in zip(lines, sizes)] + [None] * (len(lines) - len(sizes))
        marked: list[str] = []
        at = 0
        while at < len(lines):
            end = at + 1
            while end < len(lines) and set_in[at] and set_in[end] == set_in[at]:
                end += 1
            # a heading numbered as rules are ("1 Game Boundaries", "1.1. General", "Rule 7.1 Boarding", its label
            # printed alone on the line before perhaps) is read by its numbering, as it always was
            words = lines[at].split()
            numbered = marked and LONE_LABEL.match(marked[-1]) and "." in marked[-1] or bool(words) and (
                words[0][0].isdigit() or any("." in word and any(c.isdigit() for c in word) for word in words[:2]))
            # a quotation set large runs on: its line stops on a small word, or the line after it opens in lower case
            last = lines[end - 1].split()
            # (a letter alone opening it is a bullet's glyph, "u 1 Board map", or an item's label, "a) The rules…")
            following = lines[end].split()[:1] if end < len(lines) else []
            runs_on = bool(last) and last[-1].casefold() in TITLE_SMALL or bool(following) \
                and following[0][:1].islower() and len(following[0]) > 1 and not following[0].endswith((")", "."))
            heading = " ".join(line.strip() for line in lines[at:end])
            # a cover's or a box's facts set large ("For 2 - 5 players ages 8 and above 30 - 60 minutes") are no heading
            counted = sum(any(c.isdigit() for c in word) for word in heading.split()) > 1
            if set_in[at] and end - at <= _HEADING_LINES and not numbered and not runs_on and not counted:
                # a chapter's word and number printed over its title ("CHAPTER I:" / "INTRODUCTION") are its own
                label = marked.pop().strip() + " " if marked and marked[-1].rstrip().endswith(":") \
                    and len(marked[-1].split()) <= _LABEL_WORDS else ""
                marked.append("# " + label + heading)
            else:
                marked += lines[at:end]
            at = end
        out.append("\n".join(marked))
    return out


def _decimal(word: str) -> bool:
    """Is `word` a rule's decimal label ("7.1", "1.4.6.")?"""
    parts = word.rstrip(".").split(".")
    return len(parts) > 1 and all(part.isdigit() for part in parts)


def _heading_words(line: str) -> bool:
    """Could `line` be a heading by its words: a few, one of two letters or more, no sentence's or lead-in's
    ending, no address, no mark already?"""
    words = line.split()
    return 0 < len(words) <= _HEADING_WORDS and any(sum(c.isalpha() for c in word) >= 2 for word in words) \
        and not line.rstrip().endswith((".", ",", ";", ":")) and "://" not in line and not line.lstrip().startswith("#")


# pypdf paints at most this many form XObjects for one page's text (Configuration.xform_maximum_invocations_...).
_FORM_PAINTS = 5_000


class _Inflation:
    """What extracting the pages' text parses, counted before each page is: its content streams as inflated,
    and the form XObjects they paint, each as often as its content says `Do` (pypdf's cap on one stream's
    inflation holds for each page anew, so a small file whose pages share one compressed stream could take
    hours). `add` says why a page would take the total past `inflated_mb`."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.total = 0
        self.forms: dict[int, int] = {}  # id(form XObject) -> the bytes painting it parses

    def add(self, page) -> PastLimit | None:
        self.total += self._parsed(page["/Contents"] if "/Contents" in page else None,
                                   page.get_inherited("/Resources", None), frozenset())
        if self.total > self.limits.inflated_mb * 2**20:
            return PastLimit("the PDF's content streams inflate too far by this page", self.limits, "inflated_mb")
        return None

    def _parsed(self, contents, resources, painting: frozenset[int]) -> int:
        """The bytes of `contents` (a stream or an array of them), and of the forms of `resources` they paint."""
        contents = contents.get_object() if contents is not None else []
        streams = [stream.get_object() for stream in (contents if isinstance(contents, list) else [contents])]
        data = [stream.get_data() for stream in streams if isinstance(stream, pypdf.generic.StreamObject)]
        size = sum(len(part) for part in data)
        paints = min(sum(part.count(b"Do") for part in data), _FORM_PAINTS)
        xobjects = resources.get_object().get("/XObject") if resources is not None else None
        if not paints or xobjects is None:
            return size
        forms = [xobject.get_object() for xobject in xobjects.get_object().values()]
        costs = [self._form(form, painting) for form in forms if form.get("/Subtype") == "/Form"]
        return size + paints * max(costs, default=0)

    def _form(self, form, painting: frozenset[int]) -> int:
        key = id(form)
        if key in painting:  # a form painting itself: pypdf skips it
            return 0
        if key not in self.forms:
            self.forms[key] = self._parsed(form, form.get("/Resources"), painting | {key})
        return self.forms[key]


def _declared_title(reader: pypdf.PdfReader) -> str | None:
    """The document information's /Title when it reads as a title rather than a file's or print job's name."""
    try:
        title = SITE_SUFFIX.sub("", " ".join(str((reader.metadata or {}).get("/Title") or "").split()))
    except Exception:  # noqa: BLE001 - a damaged information dictionary only costs us the title
        return None
    if not title or "_" in title or PRINT_JOB_NAME.search(title) or not WRITTEN_TITLE.fullmatch(title):
        return None
    return title if any(c.isalpha() for c in title) and len(title) <= 120 else None
