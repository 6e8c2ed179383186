"""HTML documents, read with the standard library's html.parser.

html.parser reports the line and column of every tag, text chunk and entity, so each character of the
outline text maps to its offset in the HTML source (lxml and selectolax parse faster but give text no
position). Headings, paragraphs, lists (an `ol`'s `start` and `type`, an `li`'s `value`) and tables become
the outline dialect; navigation, banners, footers, addresses, scripts, forms and hidden elements are
dropped. A heading whose number sits only in its anchor (`<h4 id="8.3.5">Intimidate</h4>`) is written with
it, mapped to the anchor's characters; a paragraph wholly in bold may be a heading (`Outline.bold`);
footnotes (a footnotes list, a block opening with `<sup>1</sup>`, small print opening with a mark) are
written as `[^1]: note`, their reference marks (`<sup>1</sup>`) and back links (`↩`) dropped.
"""
from __future__ import annotations

from array import array
from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser

from ingest.classify import ITEM
from ingest.classify.markup import (
    BACK_LINK,
    BOLD_STYLE,
    HIDDEN_STYLE,
    NOTES_MARK,
    NOTE_ID,
    NOTE_MARK,
    NUMBER_ANCHOR,
    SMALL_NOTE,
    TEMPLATE_TAGS,
    attribute,
    image_alt,
)
from ingest.formats.document import Outline, PastLimit
from ingest.limits import Limits
from ingest.text import LineIndex, MappedText

# An address is the page's or article's contact information, never its rules; a figure's caption names a picture
# the rulings do not show; struck-out text is what a revision removed ("each friendly <s>unit</s><mark>Corps</mark>"), no longer a rule.
_DROPPED = {"script", "style", "nav", "form", "noscript", "template", "head", "svg", "iframe",
            "object", "canvas", "button", "select", "address", "del", "s", "strike", "figcaption"}
_DROPPED_ROLES = {"navigation", "banner", "contentinfo"}
# Text for screen readers alone, which a page never shows ("⤦" + "Return home" on a link), in the classes of
# Bootstrap, Tailwind, WordPress and the like.
_SCREEN_READERS = {"visually-hidden", "sr-only", "screen-reader-text", "screenreader-only", "visuallyhidden"}
# The chrome a site generator's theme wraps a page in, by the classes of the common ones (Bootstrap's and MkDocs'
# navbar and sidebar, Sphinx's sidebar, related links and footer, Material's and Read the Docs' header, sidebars and
# footer buttons, a search dialog): navigation and notices, never the rules; a theme's own page furniture.
_CHROME = {"navbar", "footer", "site-footer", "page-footer", "bs-sidebar", "sphinxsidebar", "related", "relations",
           "breadcrumb", "breadcrumbs", "modal", "md-header", "md-sidebar", "md-footer", "wy-nav-side", "wy-nav-top",
           "rst-footer-buttons", "headerlink",
           # MediaWiki's: the "Jump to" links, edit links, the print footer ("Retrieved from…"), the categories
           "mw-jump", "mw-jump-link", "mw-editsection", "printfooter", "catlinks", "noprint", "navbox",
           "sf-hidden"}  # what a page saved with SingleFile marks as hidden on the page
# The same chrome a wiki marks by id: its tagline under the title ("From HexWiki") and its notes there.
_CHROME_IDS = {"siteSub", "contentSub", "jump-to-nav", "catlinks", "mw-navigation", "mw-head", "mw-panel"}
# A picture's caption, as the common themes mark it: it names a picture no ruling shows ("Picture of the Arena
# from 2017 Competition"), as a `<figcaption>` does.
_CAPTIONS = {"image-caption", "img-caption", "figure-caption", "wp-caption-text", "caption-text"}
_NOT_SHOWN = _SCREEN_READERS | _CHROME | _CAPTIONS  # classes marking no text of the page's own
# A table of contents a site generator writes (kramdown's `<ul id="markdown-toc">` under `<h1
# id="table-of-contents">`, a theme's `<div class="toc">`): links to the headings that follow, none of the rules.
_CONTENTS_MARKS = {"toc", "markdown-toc", "table-of-contents", "tableofcontents"}
# A header, footer or aside is the page's banner, footer or sidebar unless it belongs to an article or section
# (HTML's own rule for the banner, contentinfo and complementary roles): an article's header holds its title, its
# asides its boxed rules, notes and options ("<aside>Important—Lords may Share…</aside>"), all kept.
_LANDMARKS = {"header", "footer", "aside"}
_SECTIONING = {"article", "main", "section"}
_HEAD_TAGS = {"title", "meta", "link", "style", "script", "base", "noscript", "template"}  # what a head holds
# The start tags that end an open paragraph (HTML lets a `<p>` go unclosed before them): a dropped paragraph left open
# ("<p class="breadcrumbs">" / "<h1>RAINBOW SIX SIEGE</h1>") ends there, not at the page's end.
_ENDS_PARAGRAPH = {"address", "article", "aside", "blockquote", "details", "dialog", "div", "dl", "fieldset",
                   "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup",
                   "hr", "main", "menu", "nav", "ol", "p", "pre", "section", "table", "ul"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track",
         "wbr"}
_BLOCKS = {"address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "details", "dialog", "div",
           "dl", "dt", "fieldset", "figcaption", "figure", "footer", "header", "hr", "html", "legend", "main", "p",
           "section", "summary"}
# The blocks a list may open in and be left unclosed: their end closes it, as a browser closes what an end tag's element
# holds ("<aside><ul><li>…</aside>"; the rest of the page is no item of that list).
_HOLDERS = {"article", "aside", "blockquote", "body", "center", "details", "dialog", "div", "fieldset", "figure",
            "footer", "header", "main", "section"}
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_LISTS = {"ol", "ul", "menu"}
_META = {"date": "date", "dcterms.date": "date", "dc.date": "date", "dcterms.modified": "date",
         "dcterms.created": "date", "article:published_time": "date", "article:modified_time": "date",
         "version": "version", "dcterms.hasversion": "version"}
_STYLES = {"b": "bold", "strong": "bold", "u": "bold", "small": "small"}  # a line underlined stands out as bold does
# A footnote's mark or back link is never longer; longer text inside <sup> or <a> is not looked at as one.
_MARK_CHARS = 40
# A cell spanning rows below (`rowspan`) is read again in each of them, as a reader sees it beside each row, when
# it is a short value ("RED", "2 points"); HTML caps the rows a cell may span at 65,534.
_ROWSPAN = 65_534
_SPANNED_CHARS = 200
_TITLE_SEPARATORS = tuple("-|–—:·•")  # what sets a site's name apart after a page's title
_LAYOUT_CELL = 600  # a cell holding this much text is a passage of the page, set out by a table laying it out
_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
          (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))


def _skips(tag: str, attributes: dict) -> bool:
    """Is an element a page's link past its navigation ("Skip to content": `<a class="md-skip" href="#top">`,
    "skip-link", "skipToContent"), which a theme shows keyboard users only?"""
    return tag == "a" and (attributes.get("href") or "").startswith("#") \
        and "skip" in (attributes.get("class") or "").lower()


def _marks_contents(attributes: dict) -> bool:
    """Does an element's id or class name it a table of contents (`_CONTENTS_MARKS`)?"""
    names = (attributes.get("class") or "").split() + [attributes.get("id") or ""]
    return not _CONTENTS_MARKS.isdisjoint(name.lower() for name in names)


def read(source: str, out: Outline, limits: Limits | None = None, base: int = 0, depth: int = 0) -> dict:
    """Write HTML `source` to `out`; return the metadata found.

    `base` is the offset of `source` in the document (HTML inside markdown), `depth` the list nesting it
    sits at. Metadata: "title" (`<title>`, else the first `<h1>`), "date" and "version" from `<meta>`.
    Raises Unreadable past `limits` (default `Limits()`): more elements than `elements`, lists nested
    deeper than `depth`.
    """
    shown = _main_only(source)
    reader = _Reader(source, out, base, depth, limits or Limits(), *_scan(shown))
    reader.feed(shown)
    reader.close()
    reader.end_row()
    reader.flush(item=True)
    title = reader.metadata.get("title", "")
    # "Bridg-It - HexWiki": a page's title after its heading and its site's name; the heading is the title
    if reader.first_h1 and (not title or title.startswith(reader.first_h1)
                            and title[len(reader.first_h1):].lstrip()[:1] in _TITLE_SEPARATORS):
        reader.metadata["title"] = reader.first_h1
    elif not title and reader.opening:  # a page's fragment, no title and no h1: its first heading over its text
        reader.metadata["title"] = reader.opening
    return reader.metadata


def _main_only(source: str) -> str:
    """`source` with what its body holds outside its one `<main>` element blanked, space for character, line for
    line: HTML's main is the page's own content, and a theme's contact list, site title or links beside it are no
    rules (a league's "- Email - GitHub" was its first ruling). Unchanged without exactly one `<main>` inside a
    `<body>`."""
    lower = source.lower()
    opens = [at for at in _starts(lower, "<main") if lower[at + 5:at + 6] in (">", " ", "\t", "\n", "\r")]
    closes = list(_starts(lower, "</main"))
    body = lower.rfind("<body", 0, opens[0]) if opens else -1
    if len(opens) != 1 or len(closes) != 1 or closes[0] < opens[0] or body < 0:
        return source
    body = lower.find(">", body) + 1  # the title, the metadata and the body's tag itself stay
    after = lower.find(">", closes[0]) + 1 or len(source)

    def blank(text: str) -> str:
        return "".join(c if c in "\r\n" else " " for c in text)
    return source[:body] + blank(source[body:opens[0]]) + source[opens[0]:after] + blank(source[after:])


def _starts(text: str, part: str):
    """Where `part` occurs in `text`."""
    at = text.find(part)
    while at >= 0:
        yield at
        at = text.find(part, at + 1)


def numeral(number: int, style: str) -> str:
    """An ordered list's number as its `type` shows it: 1, a, A, i or I."""
    if style in ("a", "A") and number > 0:
        letters = ""
        while number:
            number, rest = divmod(number - 1, 26)
            letters = chr(ord("a") + rest) + letters
        return letters.upper() if style == "A" else letters
    if style in ("i", "I") and 0 < number < 4000:
        roman = ""
        for value, digits in _ROMAN:
            count, number = divmod(number, value)
            roman += digits * count
        return roman.upper() if style == "I" else roman
    return str(number)


def _prefixed(label: str, offsets: array, run: MappedText, at: int) -> MappedText:
    """A heading's text after the `label` it does not print itself (at `offsets`), a space between them at `at`."""
    return MappedText(f"{label} {run.text}", offsets + array("i", [at]) + run.offsets)


@dataclass
class _List:
    ordered: bool
    next: int
    style: str
    under: int = 0  # how much deeper than its place it is written: one under a numbered paragraph it follows


class _Bounded(HTMLParser):
    """html.parser, bounded: an unknown `<![keyword` is skipped and an unfinished construct runs to the end of the
    input, as a browser reads them."""

    ending = False  # all the source is fed: what is unfinished now runs to its end

    def parse_marked_section(self, i: int, report: int = 1) -> int:
        # Python 3.11's parser raises AssertionError on an unknown `<![keyword`, having moved its position
        # past it; a browser skips it as a bogus comment.
        position = self.lineno, self.offset
        try:
            return super().parse_marked_section(i, report)
        except AssertionError:
            self.lineno, self.offset = position
            end = self.rawdata.find(">", i + 3)
            return -1 if end < 0 else end + 1

    def close(self) -> None:
        self.ending = True
        super().close()

    # Once all the source is fed, Python 3.11's parser handles a tag, comment or declaration that never ends
    # by re-reading the rest of the source from each `<` in it: quadratic time (CPython gh-135462). As HTML5
    # says (and later Pythons do), an unfinished construct runs to the end of the input instead.
    def parse_starttag(self, i: int) -> int:
        return self.unfinished(super().parse_starttag(i))

    def parse_endtag(self, i: int) -> int:
        return self.unfinished(super().parse_endtag(i))

    def parse_comment(self, i: int, report: int = 1) -> int:
        return self.unfinished(super().parse_comment(i, report))

    def parse_pi(self, i: int) -> int:
        return self.unfinished(super().parse_pi(i))

    def parse_html_declaration(self, i: int) -> int:
        return self.unfinished(super().parse_html_declaration(i))

    def unfinished(self, end: int) -> int:
        return len(self.rawdata) if end < 0 and self.ending else end


def _scan(source: str) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """Where (`getpos()`) the tables that lay the page out start, and where its lists of links within the page do.

    A table lays the page out when its cells hold a heading past its first row or a passage (`_LAYOUT_CELL`
    characters or more), or a table that does. Old generated and hand-made pages (FrontPage, Help & Manual, e-mail
    templates) set the whole body in a table: its cells are the page's blocks, read as such, never one row of
    thousands of words. A table of figures holds short values in its cells, and headings in its first row at most
    (a conversion's header cells: "<td><h5>Desired Location</h5></td>").

    A list of two or more items whose words are all links within the page ("<a href='#cam'>") is a table of
    contents, a section's own as well as the page's, unless a sentence ending in a colon leads into it ("The
    following formats are sanctioned:"): then it is the rules' text."""
    scan = _PageScan()
    scan.feed(source)
    scan.close()
    return scan.layout | {position for position, holds, _, rows in scan.open if holds or rows == -1}, scan.contents


class _PageScan(_Bounded):
    def __init__(self):
        super().__init__()
        # the open tables, outermost first: where each starts, whether it lays out, its open cell's characters, and
        # how many of its rows have begun (negative once its first row holds a heading: a banner, or a header row)
        self.open: list[list] = []
        self.layout: set[tuple[int, int]] = set()
        # the open lists: where each starts, its items, its letters in links within the page and elsewhere, and
        # whether a colon led into it; the open links (whether each is within the page); the last words read
        self.lists: list[list] = []
        self.links: list[bool] = []
        self.said = ""
        self.contents: set[tuple[int, int]] = set()

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in _LISTS:
            self.lists.append([self.getpos(), 0, 0, 0, self.said.endswith(":")])
        elif tag == "li" and self.lists:
            self.lists[-1][1] += 1
        elif tag == "a":
            href = dict(attrs).get("href") or ""
            self.links.append(len(href) > 1 and href.startswith("#"))
        if tag == "table":
            self.open.append([self.getpos(), False, 0, 0])
        elif tag == "tr" and self.open:
            rows = self.open[-1][3]
            self.open[-1][3] = rows - 1 if rows < 0 else rows + 1
        elif tag in _HEADINGS and self.open:
            rows = self.open[-1][3]
            self.open[-1][1] = self.open[-1][1] or abs(rows) > 1
            self.open[-1][3] = -abs(rows)
        elif tag in ("td", "th") and self.open:
            self.open[-1][2] = 0  # the characters of the cell's text so far

    def handle_data(self, data: str) -> None:
        if self.open:
            self.open[-1][2] += len(data.strip())
            self.open[-1][1] = self.open[-1][1] or self.open[-1][2] >= _LAYOUT_CELL
        letters = sum(c.isalpha() for c in data)
        if letters:
            self.said = data.strip()
            for open_list in self.lists:
                open_list[2 if self.links and self.links[-1] else 3] += letters

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self.links:
            self.links.pop()
        elif tag in _LISTS and self.lists:
            position, items, linked, other, led = self.lists.pop()
            if items >= 2 and linked and not other and not led:
                self.contents.add(position)
        if tag == "table" and self.open:
            position, holds, _, rows = self.open.pop()
            if holds or rows == -1:  # a heading in its only row: a banner laid out in a table
                self.layout.add(position)
                if self.open:
                    self.open[-1][1] = True


class _Reader(_Bounded):
    def __init__(self, source: str, out, base: int, depth: int, limits: Limits,
                 layout: set[tuple[int, int]], contents: set[tuple[int, int]]):
        super().__init__(convert_charrefs=False)  # entities come one by one, each with its position
        self.out = out
        self.limits = limits
        self.elements = 0
        self.base = base
        self.depth = depth
        self.lines = LineIndex(source)
        self.metadata: dict = {}
        self.first_h1 = ""
        self.opening: str | None = ""  # the first heading, when no text comes before it (None: not a title)
        self.opening_level = 0
        self.body_seen = False
        self.title_paragraph = False  # a title paragraph is open, read as the page's h1
        self.chars: list[str] = []
        self.offsets = array("i")
        self.text_from: int | None = None  # the index in `chars` of the first that is not whitespace
        self.skip: str | None = None  # the dropped element being passed over
        self.skip_depth = 0           # how many of that element are open
        self.contents = False         # a contents heading was dropped: the list right after it is its entries
        self.sections = 0             # open article/main/section elements
        self.asides = 0               # open asides kept (an article's boxes): their headings head no section
        self.lists: list[_List] = []
        self.pending: tuple[str, int, int] | None = None  # a list item's marker, offset and depth, awaiting text
        self.heading: tuple[int, int] | None = None       # an open heading's level and offset
        self.tables = 0
        self.layout = layout  # where the tables that lay the page out start: their rows and cells are blocks
        self.link_lists = contents  # where the lists of links within the page start: tables of contents
        self.row: list[MappedText] | None = None
        self.row_at = 0
        self.in_cell = False
        self.cell_rows = 1            # how many rows the open cell spans (`rowspan`)
        self.row_spans: list[int] = []  # the rows each cell of the open row spans
        # Cells spanning down from rows above (`<td rowspan="16">RED`), by column: the rows left, and the cell.
        self.spanning: dict[int, tuple[int, MappedText]] = {}
        self.pre = 0
        self.title: list[str] | None = None
        self.anchor: tuple[str, int] | None = None  # the rule number an open heading's anchor gives, and where
        self.styles = dict.fromkeys(_STYLES.values(), 0)  # open <b>/<strong> and <small> elements (and bold spans)
        self.spans: list[bool] = []  # the open <span>s, each whether its style sets it in bold
        self.broken: int | None = None  # where in `chars` the text after the block's last line break (<br>) starts
        self.every: set[str] | None = None  # the styles all the text gathered so far is in
        self.marks: list[tuple[str, int, int, int]] = []  # open <sup>/<a>: tag, chars and offsets so far, offset
        self.notes: str | None = None  # the element holding footnotes being read
        self.notes_depth = 0
        self.numbered_paragraph = False  # the last block written is a paragraph opening with a number ("3. …")
        # A definition list's entry being gathered as one line: "term" (a <dt>'s text), then "definition" (its
        # <dd>s' after it, "Term: definition"); None outside one.
        self.entry: str | None = None
        self.holders: list[tuple[str, int]] = []  # the open `_HOLDERS`, each with the lists open where it began
        self.held: dict[str, int] = {}            # how many of each are open

    def refuse(self, what: str, limit: str) -> PastLimit:
        return PastLimit(what, self.limits, limit, line=self.getpos()[0] if not self.base else None)

    def pos(self) -> int:
        """Source offset of what is being handled."""
        line, column = self.getpos()
        return self.base + self.lines.line_start(line) + column

    # -- tags ----------------------------------------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements += 1
        if self.elements > self.limits.elements:
            raise self.refuse("too many elements", "elements")
        if self.skip in (None, "head") and tag in ("title", "meta"):
            if tag == "meta":
                self.meta(dict(attrs))
            elif "title" not in self.metadata:
                self.title = []
            return
        if self.skip == "head" and tag not in _HEAD_TAGS:
            self.skip = None  # a head left open ("<head>…<body>"): HTML ends it at the first tag a head cannot hold
        if self.skip == "p" and tag in _ENDS_PARAGRAPH:
            self.skip = None
        if self.skip:
            if tag == self.skip and tag not in _VOID:
                self.skip_depth += 1
            return
        attributes = dict(attrs)
        if tag == "p" and not (self.body_seen or self.first_h1) and "title" in (attributes.get("class") or "").split():
            # a word processor's title paragraph ("<p class='title'>", Google Docs'), before any text: the page's h1
            tag, self.title_paragraph = "h1", True
        contents, self.contents = self.contents, False
        if self.dropped(tag, attributes) or tag in _LISTS and (contents or self.getpos() in self.link_lists):
            if tag not in _VOID:
                self.skip, self.skip_depth = tag, 1
            # "<h1 id="table-of-contents">" over a list of links without a mark of its own
            self.contents = tag in _HEADINGS and _marks_contents(attributes)
            return
        if self.notes == tag and tag not in _VOID:
            self.notes_depth += 1
        elif self.notes is None and tag not in _VOID and any(
                NOTES_MARK.search(attributes.get(name) or "") for name in ("class", "id", "role")):
            self.notes, self.notes_depth = tag, 1
        if tag == "br" and not (self.in_cell or self.heading or self.pre) and self.text_from is not None \
                and ("bold" in (self.every or ()) or self.broken is not None
                     and not "".join(self.chars[self.broken:]).strip()):
            # "<p><b>A.8</b><br>Is a Location…": a line in bold over its text, as its own paragraph is; and a page
            # that sets its paragraphs apart by two breaks ("…the ride.<br><br>Riders must…") ends one at them
            self.flush()
        elif tag == "br":
            self.put(" ", self.pos(), spread=False)
            self.broken = len(self.chars)
        elif tag == "img" and self.text_from is not None and (alt := (attributes.get("alt") or "").strip()):
            self.icon(alt)
        elif tag in ("sup", "a"):
            if tag == "a" and self.heading and self.anchor is None and self.text_from is None:
                self.anchor = self.number_anchor(attributes)
            self.marks.append((tag, len(self.chars), len(self.offsets), self.pos()))
        elif tag in _STYLES:
            self.styles[_STYLES[tag]] += 1
        elif tag == "span":
            bold = bool(BOLD_STYLE.search(attributes.get("style") or ""))
            self.spans.append(bold)
            self.styles["bold"] += bold
        elif self.tables and tag not in ("table", "tr", "td", "th"):
            if tag in _BLOCKS or tag in _HEADINGS or tag in _LISTS or tag == "li":
                self.put(" ", self.pos(), spread=False)  # structure inside a table cell reads as a space
        elif tag in _HEADINGS:
            self.flush()
            self.heading = (int(tag[1]), self.pos())
            self.anchor = self.number_anchor(attributes)
        elif tag in _LISTS:
            if self.depth + len(self.lists) >= self.limits.depth:
                raise self.refuse("lists nested too deep", "depth")
            self.flush(item=True)
            start = attributes.get("start") or ""
            # "<p><strong>3. Mode of Play</strong> …<ol>…": a list right after a numbered paragraph is that rule's,
            # as the page indents it, never its next siblings ("1.", "2." where rule 3 stands)
            under = int(not self.lists and tag == "ol" and self.numbered_paragraph)
            self.lists.append(_List(tag == "ol", int(start) if start.lstrip("-").isdigit() else 1,
                                    attributes.get("type") or "1", under))
        elif tag == "li":
            self.start_item(attributes)
        elif tag == "table":
            self.flush(item=True)
            if self.tables or self.getpos() not in self.layout:
                self.tables += 1
        elif tag in ("tr", "td", "th"):
            if self.tables:
                self.start_cell(tag, attributes.get("rowspan") or "")
            else:
                self.flush(item=True)  # a layout table's row or cell: a block
        elif tag == "pre":
            self.flush()
            self.pre += 1
        elif tag in ("dt", "dd") or self.entry and tag in _BLOCKS and tag != "dl":
            self.start_entry(tag)
        else:
            if tag in _SECTIONING:
                self.sections += 1
            self.asides += tag == "aside"
            if tag in _HOLDERS:
                self.holders.append((tag, len(self.lists)))
                self.held[tag] = self.held.get(tag, 0) + 1
            if tag in _BLOCKS:
                self.flush()

    def handle_endtag(self, tag: str) -> None:
        if tag == "title" and self.title is not None:
            self.metadata["title"] = " ".join(unescape("".join(self.title)).split())
            self.title = None
            return
        if tag == "p" and self.title_paragraph:
            tag, self.title_paragraph = "h1", False
        if self.skip:
            if tag == self.skip:
                self.skip_depth -= 1
                if not self.skip_depth:
                    self.skip = None
            return
        if tag == self.notes:
            self.notes_depth -= 1
            if not self.notes_depth:
                self.notes = None
        if tag in ("sup", "a"):
            self.end_mark(tag)
            return
        if tag in _STYLES or tag == "span" and self.spans and self.spans.pop():  # a span set in bold ends
            style = _STYLES.get(tag, "bold")
            self.styles[style] = max(0, self.styles[style] - 1)
            return
        if self.tables and (tag not in ("table", "tr", "td", "th") or self.tables > 1 and tag != "table"):
            return  # inside a table only its own rows and cells end anything (a nested table's: nothing)
        if tag in _HEADINGS:
            self.flush()
        elif tag in _LISTS:
            self.flush(item=True)
            if self.lists:
                self.lists.pop()
        elif tag == "li":
            self.flush(item=True)
        elif tag in ("table", "tr", "td", "th") and not self.tables:
            self.flush(item=True)  # a layout table's, or a cell no table holds
        elif tag in ("td", "th"):
            self.end_cell()
        elif tag == "tr":
            self.end_row()
        elif tag == "table":
            if self.tables == 1:
                self.end_row()
                self.take()
                self.spanning = {}
            self.tables -= 1
        elif tag == "pre":
            self.write_pre_line()
            self.pre = max(0, self.pre - 1)
        elif self.entry and tag in _BLOCKS and tag != "dl":
            pass  # an entry runs on to the next term or the list's end (unclosed <dt>/<dd>, a <p> inside a <dd>)
        elif tag == "summary":
            # "<details><summary>Example</summary> After…": the summary leads its details in, as "Example: After…"
            # would (an example of the rule it sits in), never a heading over all that follows
            self.put(" " if "".join(self.chars).rstrip().endswith(":") else ": ", self.pos(), spread=False)
        else:
            if tag in _SECTIONING and self.sections:
                self.sections -= 1
            if tag == "aside" and self.asides:
                self.asides -= 1
            if tag in _BLOCKS:
                self.flush()
            if self.held.get(tag):
                self.close_holder(tag)

    def dropped(self, tag: str, attributes: dict) -> bool:
        """Whether an element is navigation (a table of contents too), furniture or hidden rather than the
        document's text."""
        return (tag in _DROPPED or (tag in _LANDMARKS and not self.sections)
                or "hidden" in attributes or attributes.get("aria-hidden") == "true"
                or attributes.get("role") in _DROPPED_ROLES
                or bool(HIDDEN_STYLE.search(attributes.get("style") or ""))
                or not _NOT_SHOWN.isdisjoint((attributes.get("class") or "").split())
                or attributes.get("id") in _CHROME_IDS
                or _marks_contents(attributes) or _skips(tag, attributes))

    def number_anchor(self, attributes: dict) -> tuple[str, int] | None:
        """The rule number an element's `id` or `name` gives ("6.A.1"), with its offset in the source."""
        tag = self.get_starttag_text() or ""
        for name in ("id", "name"):
            value = (attributes.get(name) or "").strip()
            if NUMBER_ANCHOR.fullmatch(value):
                found = attribute(name, value).search(tag)
                if found:
                    return value.rstrip("."), self.pos() + found.end() - len(value)
        return None

    def end_mark(self, tag: str) -> None:
        """A footnote's reference mark (`<sup>1</sup>`) or back link (`↩`) ends: dropped from the text, but a
        mark opening its block labels the footnote there (`[^1]: note`)."""
        if not self.marks or self.marks[-1][0] != tag:
            return
        _, chars, offsets, at = self.marks.pop()
        if len(self.offsets) - offsets > _MARK_CHARS:
            return
        shown = "".join(self.chars[chars:])
        if tag == "a" and BACK_LINK.fullmatch(shown) or tag == "sup" and NOTE_MARK.fullmatch(shown):
            kept = self.offsets[offsets:]
            del self.chars[chars:], self.offsets[offsets:]
            if self.text_from is not None and self.text_from >= chars:
                self.text_from = None
            if tag == "sup" and not self.heading and not self.in_cell and self.text_from is None:
                number = shown.strip().strip("[]()")
                self.put("[^", at, spread=False)
                self.put(number, kept[shown.find(number)])
                self.put("]:", at, spread=False)

    def meta(self, attributes: dict) -> None:
        name = _META.get((attributes.get("name") or attributes.get("property") or "").lower())
        content = " ".join((attributes.get("content") or "").split())
        if name and content:
            self.metadata.setdefault(name, content)

    def start_item(self, attributes: dict) -> None:
        self.flush(item=True)
        depth = self.depth + max(len(self.lists) - 1, 0) + (self.lists[0].under if self.lists else 0)
        marker = "-"
        if self.lists and self.lists[-1].ordered:
            current = self.lists[-1]
            value = attributes.get("value") or ""
            number = int(value) if value.lstrip("-").isdigit() else current.next
            current.next = number + 1
            marker = numeral(number, current.style) + "."
        note = NOTE_ID.match(attributes.get("id") or "")
        if note or self.notes:
            marker = f"[^{note.group('n') if note else marker.rstrip('.').lstrip('-') or len(self.lists)}]:"
        self.pending = (marker, self.pos(), depth)

    def close_holder(self, tag: str) -> None:
        """The open `tag` ends, and with it what was opened inside it and left open: its lists (and the holders
        inside it). Linear: each holder is passed over once, when it closes or when one around it does."""
        while self.holders:
            held, lists = self.holders.pop()
            self.held[held] -= 1
            if held == tag:
                if len(self.lists) > lists:
                    self.flush(item=True)
                    del self.lists[lists:]
                return

    def start_entry(self, tag: str) -> None:
        """A definition list's term (`<dt>`), definition (`<dd>`) or a block inside one: a term and the definitions
        after it are one line, "Term: definition", as a glossary prints it, the ": " mapped to where the first
        definition starts; a term in bold is a bold line over its definitions, as markdown's definition lists read
        ("**Ability**" / ": Anything…"); a block inside a definition reads as a space."""
        if tag == "dt":
            if self.entry != "term" or self.text_from is not None:
                self.flush()  # the entry before ends; terms of one definition stay one ("<dt>A<dt>B<dd>…")
            else:
                self.put(" ", self.pos(), spread=False)
            self.entry = "term"
        elif tag == "dd" and self.entry == "term" and self.text_from is not None and "bold" in (self.every or ()):
            self.flush()  # a term in bold names the definition under it, as markdown's "**Term**" / ": …" does
            self.entry = "definition"
        elif tag == "dd" and self.entry == "term" and self.text_from is not None:
            gathered = "".join(self.chars)
            term = gathered.rstrip()  # the whitespace after the term goes
            self.chars = [term]
            del self.offsets[len(term):]
            # "<dt>Anglo-Allied:<dd>…": a term closed by its own colon takes none more
            self.put(" " if term.endswith((":", "：")) else ": ", self.pos(), spread=False)
            self.entry = "definition"
        elif tag == "dd" and self.entry != "definition":
            self.flush()  # a definition without a term
            self.entry = None
        else:
            self.put(" ", self.pos(), spread=False)  # a second definition, or a block inside one

    def start_cell(self, tag: str, rows: str = "") -> None:
        if self.tables > 1:  # a table inside a cell: its cells read as text of the outer one
            self.put(" ", self.pos(), spread=False)
            return
        if tag == "tr":
            self.end_row()
            self.flush()  # a caption before the first row
            self.row, self.row_at, self.row_spans = [], self.pos(), []
            return
        self.end_cell()
        if self.row is None:
            self.flush()
            self.row, self.row_at, self.row_spans = [], self.pos(), []
        self.take()  # the whitespace between cells
        self.in_cell = True
        # "0" and "1" span the cell's own row only
        self.cell_rows = min(int(rows[:6]), _ROWSPAN) if rows.isascii() and rows.isdigit() else 1

    def end_cell(self) -> None:
        if self.in_cell and self.row is not None:
            self.row.append(self.take())
            self.row_spans.append(self.cell_rows)
        self.in_cell = False

    def end_row(self) -> None:
        self.end_cell()
        if self.row is not None:
            self.out.row(self.spanned(), self.row_at, self.depth + len(self.lists))
            self.row = None

    def spanned(self) -> list[MappedText]:
        """The open row's cells, with those spanning down from rows above set in their columns ("| 1.2 | Turning
        back on opponent | | YELLOW | RED |" under a row whose penalty cells span it): a row reads whole."""
        cells, own, spanning = [], iter(zip(self.row, self.row_spans)), {}
        remaining, last = len(self.row), max(self.spanning, default=-1)  # linear in the row's columns
        column = 0
        while remaining or column <= last:
            if column in self.spanning:
                left, cell = self.spanning.pop(column)
                cells.append(cell)
                if left > 1:
                    spanning[column] = (left - 1, cell)
            elif remaining:
                cell, rows = next(own)
                remaining -= 1
                cells.append(cell)
                if rows > 1 and len(cell.text) <= _SPANNED_CHARS:
                    spanning[column] = (rows - 1, cell)
            else:
                cells.append(MappedText("", array("i")))  # a column the row and the rows above leave empty
            column += 1
        self.spanning = spanning
        return cells

    # -- text ----------------------------------------------------------------------------------------------

    def handle_data(self, data: str) -> None:
        if self.title is not None:
            self.title.append(data)
        elif not self.skip and not TEMPLATE_TAGS.fullmatch(data):
            if data.strip():
                styles = {style for style, count in self.styles.items() if count}
                self.every = styles if self.every is None else self.every & styles
            self.text(data, self.pos())

    def handle_entityref(self, name: str) -> None:
        self.entity(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.entity(f"&#{name};")

    def entity(self, reference: str) -> None:
        if self.title is not None:
            self.title.append(reference)
        elif not self.skip:
            self.put(unescape(reference), self.pos(), spread=False)

    def text(self, data: str, at: int) -> None:
        if not self.pre:
            self.put(data, at)
            return
        for index, line in enumerate(data.split("\n")):
            if index:
                self.write_pre_line()
            self.put(line, at)
            at += len(line) + 1

    def icon(self, alt: str) -> None:
        """An image inside a sentence ("five <img alt="-1 Icon"> cards") says its alternative text there."""
        written = image_alt(self.get_starttag_text() or "")
        if written and written[0].strip() == alt:  # mapped character by character where the tag writes it so
            self.put(written[0], self.pos() + written[1])
        else:
            self.put(alt, self.pos(), spread=False)

    def put(self, text: str, at: int, spread: bool = True) -> None:
        if self.text_from is None and text.strip():
            self.text_from = len(self.chars)
        self.chars.append(text)
        self.offsets.extend(range(at, at + len(text)) if spread else [at] * len(text))

    def take(self) -> MappedText:
        """The text gathered since the last block boundary, and start gathering anew."""
        end = self.offsets[-1] + 1 if self.offsets else self.pos()
        run = MappedText("".join(self.chars), self.offsets + array("i", [end]))
        self.chars, self.offsets, self.every, self.text_from, self.broken = [], array("i"), None, None, None
        return run

    def flush(self, item: bool = False) -> None:
        """Write the text gathered so far as the block it belongs to (`item`: a list item ends here)."""
        if self.in_cell:
            self.put(" ", self.pos(), spread=False)
            return
        styles = self.every or set()
        run = self.take()
        self.entry = None
        self.body_seen = self.body_seen or bool(run.text.strip()) and not self.heading
        if run.text.strip():  # a paragraph opening with a rule's number: the block a list after it may be its own
            label = ITEM.match(run.text)
            self.numbered_paragraph = not (self.heading or self.pending or self.lists or self.in_cell) \
                and label is not None and label.group("number") is not None
        if self.heading and self.asides:
            # a box's own title ("<aside><h4>Hidden Mats Option</h4>…") names the box, not a section of the
            # rules after it: bold, as a box prints it
            self.heading = None
            self.out.bold(run, self.depth + len(self.lists))
        elif self.heading:
            level, at = self.heading
            self.heading = None
            run = self.numbered(run, at)
            if self.pending and self.pending[0].endswith(".") and run.text.strip():
                # "<ol start="2"><li><h3>Game settings</h3>": the item's number numbers the heading, as the page shows
                marker, start, _ = self.pending
                self.pending = None
                run = _prefixed(marker, array("i", [start] * len(marker)), run, at)
            self.out.heading(level, run, at)
            if level == 1 and not self.first_h1:
                self.first_h1 = " ".join(run.text.split())
            if self.opening == "" and not self.body_seen:  # a fragment's first heading, over all its text
                self.opening, self.opening_level = " ".join(run.text.split()), level
            elif level == self.opening_level:
                self.opening = None  # one of several parts at its level, no title over them
        elif self.pending and (item or run.text.strip()):
            marker, at, depth = self.pending
            self.pending = None
            self.out.item(marker, run, at, depth)
        elif self.pre:
            self.out.line(run, run.offsets[0], self.depth + len(self.lists))
        elif "small" in styles and SMALL_NOTE.match(run.text):  # "1. Only in tournaments." in small print
            self.out.paragraph(run.sub(SMALL_NOTE, lambda found: f"[^{found.group('mark')}]: "),
                               self.depth + len(self.lists))
        elif "bold" in styles:
            self.out.bold(run, self.depth + len(self.lists))
        else:
            self.out.paragraph(run, self.depth + len(self.lists))

    def numbered(self, run: MappedText, at: int) -> MappedText:
        """A heading's text, after the number its anchor gives when the text does not show it."""
        anchor, self.anchor = self.anchor, None
        if anchor is None or run.text.lstrip().startswith(anchor[0]):
            return run
        number, start = anchor
        return _prefixed(number, array("i", range(start, start + len(number))), run, at)

    def write_pre_line(self) -> None:
        run = self.take()
        self.out.line(run, run.offsets[0], self.depth + len(self.lists))
