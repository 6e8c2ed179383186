"""Markdown documents, read through markdown-it-py (CommonMark, with tables and strikethrough).

The parser gives every block its source lines. The text of each inline token is found literally in those
lines, searching forward from where the previous one ended, so every character of the outline text maps
to the markdown character it came from. What the parser resolved (a backslash escape, an entity) maps to
its source form; what cannot be found maps to the start of its line. Ordered lists keep the numbers the
document shows; a table of contents (a list of links to the document's own anchors) is structure, not
text, and goes to the metadata. A paragraph wholly in bold may be a heading (`Outline.bold`).
"""
from __future__ import annotations

from array import array

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

from ingest.classify import BULLET_LINE, DECIMAL_TITLE, ITEM, LABELLED_LINE, LETTERED_LINE, NAVIGATION
from ingest.classify.markup import (
    ADMONITION,
    ATTRIBUTES,
    BREAK_TAG,
    EMPTY_EMPHASIS,
    FRONT_FIELD,
    FRONT_MATTER,
    MARKDOWN_BLOCK,
    MDX_MODULE,
    TEMPLATE_TAGS,
    image_alt,
)
from ingest.formats.document import Outline, PastLimit
from ingest.formats.html import read as read_html
from ingest.limits import Limits
from ingest.text import LineIndex, MappedText

# text_join would merge escapes and entities into the text around them and lose their source form.
_PARSER = MarkdownIt("commonmark").enable(["table", "strikethrough"]).disable("text_join")
_FRONT_KEYS = {"title": "title", "version": "version", "date": "date", "updated": "date",
               "last_modified": "date", "effective": "date"}
_LABEL_WORDS = 3  # a paragraph this short without closing punctuation is a label ("Notes") of the list after it
_FRONT_SPAN = 2000  # how far into a file a front matter's closing `---` is looked for when its opening is lost
_TIGHT_HEADINGS = 2  # lines of "#"s and a word with no space between that make a document written so


def read(source: str, out: Outline, limits: Limits | None = None) -> dict:
    """Write markdown `source` to `out`; return the metadata found.

    Metadata: "title" (front matter, else the first `#` heading), "version"/"date" from front matter,
    "contents" (the entries of a table of contents, which is left out of the text). Raises PastLimit past
    `limits` (default `Limits()`): more tokens than `elements`, markup nested deeper than `depth`.
    """
    limits = limits or Limits()
    reader = _Reader(source, out, limits)
    body = source
    front = FRONT_MATTER.match(source)
    end = front.end() if front and _read_front_matter(front.group("body"), reader.metadata) else \
        _unopened_front_matter(source, reader.metadata)
    if end:
        body = "\n" * source[:end].count("\n") + source[end:]  # same line numbers, no front matter
    tokens = _PARSER.parse(_spaced_headings(_admonitions(_markdown_blocks(_without_code(ATTRIBUTES.sub(
        lambda found: " " * len(found.group()), body))))))
    _within(tokens, limits)
    reader.blocks(SyntaxTreeNode(tokens).children, 0)
    return reader.metadata


def _without_code(body: str) -> str:
    """`body` with MDX's code blanked, line for line and space for character: its modules' imports and exports and
    its comments (`{/* GENERATED … do not edit */}`, over one line or more), which a page never shows. Its
    components' tags (`<TalentRank rank={1}>`) are HTML's, and read as such: their text stays."""
    lines = body.split("\n")
    comment = False
    for number, line in enumerate(lines):
        stripped = line.strip()
        comment = comment or stripped.startswith("{/*")
        if comment or MDX_MODULE.fullmatch(stripped):
            lines[number] = " " * len(line)
        comment = comment and not stripped.endswith("*/}")
    return "\n".join(lines)


def _markdown_blocks(body: str) -> str:
    """`body` with the lines that open and close a block of markdown inside HTML blanked ("<div class="faq"
    markdown="1">" … "</div>": an erratum's box on a Jekyll site, whose content CommonMark would read as raw HTML
    up to its first blank line); line for line and space for character, so every position stays the source's."""
    lines = body.split("\n")
    open_blocks = 0
    for number, line in enumerate(lines):
        stripped = line.strip()
        # a tag alone on its line, closed at its end (else the pattern would try each "markdown=" to the line's end)
        if stripped[:1] == "<" and stripped[-1:] == ">" and MARKDOWN_BLOCK.fullmatch(stripped):
            open_blocks += 1
        elif open_blocks and stripped.startswith("</") and stripped.endswith(">") and " " not in stripped:
            open_blocks -= 1
        else:
            continue
        lines[number] = " " * len(line)
    return "\n".join(lines)


def _admonitions(body: str) -> str:
    """`body` with each admonition read as its text run in after its title ('!!! warning "Ban Penalty"' over
    "    Players who…" is "**Ban Penalty** Players who…"; a box without a title is titled by its kind, "Note"): the
    opening line blanked, the text under it out of the indent CommonMark would read as code, a closing ":::" line
    blanked. Line for line, so the parser's line numbers still map to the file."""
    lines = body.split("\n")
    title, indented, fenced = None, False, False
    for number, line in enumerate(lines):
        opening = ADMONITION.fullmatch(line) if line[:1] in "!?:" else None
        if opening:
            title = (opening.group("title") or opening.group("name") or "").strip() or \
                (opening.group("kind") or opening.group("fenced")).replace("-", " ").capitalize()
            indented, fenced = bool(opening.group("indented")), not opening.group("indented")
            lines[number] = ""
        elif fenced and line.strip() == ":::":
            lines[number], fenced = "", False
        elif indented and line.strip() and not line.startswith(("    ", "\t")):
            indented = False  # the box ended at the first line back at the margin
        elif indented:
            lines[number] = line[1:] if line.startswith("\t") else line[4:]
        if title is not None and not opening and lines[number].strip():
            lines[number] = f"**{title}** {lines[number].lstrip()}"
            title = None
    return "\n".join(lines)


def _spaced_headings(body: str) -> str:
    """`body` with a space after the "#"s of its headings where it writes every heading without one ("##Section 1:
    Tournament administration", "#####1.1 Staff", as Python-Markdown and GitHub once read them; CommonMark reads
    a paragraph). Line for line, so the parser's line numbers still map to the file; code fences are left."""
    lines = body.split("\n")
    fenced, tight, spaced = False, [], False
    for number, line in enumerate(lines):
        if line.startswith(("```", "~~~")):
            fenced = not fenced
        text = line.lstrip("#")
        if fenced or not 1 <= len(line) - len(text) <= 6 or not text:
            continue
        spaced = spaced or text[0] in " \t"
        if text[0].isalnum():
            tight.append(number)
    if spaced or len(tight) < _TIGHT_HEADINGS:
        return body
    for number in tight:
        marks = len(lines[number]) - len(lines[number].lstrip("#"))
        lines[number] = lines[number][:marks] + " " + lines[number][marks:]
    return "\n".join(lines)


def _within(tokens, limits: Limits) -> None:
    """Refuse tokens past `limits`, before the syntax tree (built recursively) and the reader (linear in them)."""
    count = len(tokens)
    for token in tokens:
        for child in token.children or ():
            count += 1
            if token.level + child.level >= limits.depth:  # emphasis nests without bound ("***...a...***")
                raise PastLimit("markup nested too deep", limits, "depth", line=token.map[0] + 1 if token.map else None)
    if count > limits.elements:
        raise PastLimit("markdown of too many elements", limits, "elements")


def _unopened_front_matter(source: str, metadata: dict) -> int:
    """Where a front matter whose opening `---` was lost ends ("title: The … Rulebook" / "version: 6.1.0" / "---"
    opening the file), its fields read into `metadata`; 0 when the file opens with none: a few `key: value`
    lines, one a key the metadata takes, closed by `---`."""
    close = next((at for at, line in enumerate(source[:_FRONT_SPAN].split("\n")) if line.rstrip() == "---"), 0)
    block = "\n".join(source.split("\n", close + 1)[:close])
    fields = [FRONT_FIELD.match(line) for line in block.split("\n")]
    if close < 2 or not all(fields) or not any(f.group(1).lower().replace(" ", "_") in _FRONT_KEYS for f in fields):
        return 0
    _read_front_matter(block + "\n", metadata)
    return len(block) + len("\n---")


def _read_front_matter(block: str, metadata: dict) -> bool:
    """Title, version and date from a `key: value` front matter block; False when it is not one."""
    fields = []
    for line in block.splitlines():
        match = FRONT_FIELD.match(line)
        if match:
            fields.append(match.groups())
        elif line.strip() and not line[:1].isspace() and not line.lstrip().startswith(("- ", "[", "#")):
            return False  # a list's item, a TOML table's name ("[params]") and a comment are a front matter's too
    for key, value in fields:
        name = _FRONT_KEYS.get(key.lower().replace(" ", "_"))
        if name and value and name not in metadata:
            metadata[name] = value.strip("'\"")
    return True


def _introduces(paragraph: str | None) -> bool:
    """Whether a paragraph heads the list after it ("... as follows:", "Notes"), which then counts anew."""
    if paragraph is None:
        return False
    return paragraph.endswith(":") or (len(paragraph.split()) <= _LABEL_WORDS and paragraph[-1] not in ".!?;,)")


def _among_text(nodes: list[SyntaxTreeNode], index: int) -> bool:
    """Is the image `nodes[index]` set in a line of text, an icon in a sentence ("Each deck contains six <img
    alt="0 Icon">, five…") whose alternative text is what it says, not a picture on a line of its own?"""
    for step in (-1, 1):  # out from the image, each way, to the line's break
        at = index + step
        while 0 <= at < len(nodes) and nodes[at].type not in ("softbreak", "hardbreak"):
            if nodes[at].type == "text" and nodes[at].content.strip():
                return True
            at += step
    return False


def _title_line(nodes: list[SyntaxTreeNode], at: int) -> bool:
    """Is inline node `at` a line of its own (between line breaks) that is a label in parts and a title alone
    ("1.3 The Map", "2.0 SEQUENCE OF PLAY")? A line whose sentence the next line carries on in lower case ("2.1.1 To
    promote greater interest and" / "its mission…") is no title."""
    if at < 0 or nodes[at].type != "text" or at > 0 and nodes[at - 1].type not in ("softbreak", "hardbreak"):
        return False
    line = nodes[at].content.strip()
    after = nodes[at + 2].content.lstrip() if at + 2 < len(nodes) and nodes[at + 2].type == "text" else ""
    return bool(LABELLED_LINE.match(line) and DECIMAL_TITLE.match(line)) and not after[:1].islower()


def _asks_or_answers(nodes: list[SyntaxTreeNode], at: int) -> bool:
    """Does the line that inline node `at` opens begin with a question's or answer's label, its markup dropped
    ("*Question*: Can a…", "**A:** No.")?"""
    line = []
    for node in nodes[at:]:
        if node.type in ("softbreak", "hardbreak"):
            break
        line.append(_plain(node))
    found = ITEM.match("".join(line))
    return bool(found and (found.group("question") or found.group("answer")))


def _navigation(node: SyntaxTreeNode) -> bool:
    """Is an inline node only a link back within the page ("[back to index](#index)" closing each section), or
    only links within the page with separators between them ("[INTRODUCTION](#INTRODUCTION) - [RULES](#RULES) -
    …"): the site's navigation, no text of the rules?"""
    shown = [child for child in node.children if child.type not in ("softbreak", "hardbreak")
             and not (child.type == "text" and not child.content.strip(_SEPARATORS))]
    inside = all(child.type == "link" and str(child.attrs.get("href", "")).startswith("#") for child in shown)
    return bool(shown) and inside and (len(shown) > 1 or bool(
        NAVIGATION.fullmatch(" " + " ".join(_plain(shown[0]).split()))))


_SEPARATORS = " \t-–—|·•/,"  # what a site sets between the links of its navigation


def _all_bold(node: SyntaxTreeNode) -> bool:
    """Whether an inline node's text is all one bold span ("**Late Arrival**")."""
    shown = [child for child in node.children if child.type not in ("softbreak", "hardbreak")
             and not (child.type == "text" and not child.content.strip())
             and not (child.type == "html_inline" and BREAK_TAG.match(child.content))]  # "**Heroic Setting**<br>"
    return len(shown) == 1 and shown[0].type == "strong"


def _bold_line(nodes: list[SyntaxTreeNode], at: int) -> bool:
    """Is the line break at `at` the end of a paragraph's first line that is all one bold span, with text after it
    ("**Debt**" / "Someone owes you something."): a name over its text, as a bold paragraph of its own is? A label
    closed by a colon ("**Race Format:**" / "Sessions are…") runs in to its text, and a caption over a picture
    ("**DIAGRAM B**" / an image) names no text."""
    shown = [node for node in nodes[:at] if not (node.type == "text" and not node.content.strip())]
    return len(shown) == 1 and shown[0].type == "strong" and not _plain(shown[0]).rstrip().endswith(":") and any(
        node.type == "text" and node.content.strip() for node in nodes[at + 1:])


def _lines(run: MappedText, labelled: bool = False):
    """The lines of an inline run whose breaks `walk` kept, a definition's ": " mark dropped ("**Ability**" /
    ": Anything you can apply…"); only those a label opens when `labelled` (a list item's: its lines run on
    past a title's)."""
    start = 0
    breaks = (at for at, char in enumerate(run.text) if char == "\n" and not labelled or _labelled(run.text, at + 1))
    for end in [*breaks, len(run.text)]:
        yield run.slice(start, end)
        start = end + 1
        if run.text.startswith(": ", start):
            start += 2


def _labelled(text: str, at: int) -> bool:
    """Does the line from `at` open with a rule's label in parts, a bullet symbol, a lettered or roman item's label,
    or a question's or answer's label?"""
    line = text[at:text.find("\n", at) % (len(text) + 1)]
    found = ITEM.match(line)
    return text[at - 1] == "\n" and bool(LABELLED_LINE.match(line) or BULLET_LINE.match(line) or LETTERED_LINE.match(line)
                                          or found and (found.group("question") or found.group("answer")))


def _plain(node: SyntaxTreeNode) -> str:
    """The text of an inline node's children, markup dropped."""
    if node.type in ("text", "text_special", "code_inline"):
        return node.content
    return "".join(_plain(child) for child in node.children)


class _Reader:
    def __init__(self, source: str, out, limits: Limits):
        self.source = source
        self.out = out
        self.limits = limits
        self.metadata: dict = {}
        self.sidebar: int | None = None  # inside a blockquote: the level of the heading it stands under
        self.lines = LineIndex(source)
        self.cursor = 0  # where the next inline text is looked for; only moves forward
        self.limit = 0   # end of the block being read
        self.chars: list[str] = []
        self.offsets = array("i")

    # -- blocks ------------------------------------------------------------------------------------------

    def blocks(self, nodes: list[SyntaxTreeNode], depth: int) -> None:
        """Write sibling blocks. An ordered list restarting at 1 after a table or paragraph continues the
        numbering of the one before it among the same siblings (the document's own numbers), unless a
        heading or an HTML comment came between, or more than one paragraph (a passage of its own: "This process
        repeats…" / "For example, an earthquake…" / "1. The GM reveals…"), or the paragraph just before introduces
        it."""
        next_number = None
        between = 0  # the paragraphs written since the last list
        before: str | None = None  # the paragraph just before, when the previous block was one
        skip = 0  # blocks of a table of contents still to pass over
        for at, node in enumerate(nodes):
            if skip or _attributes(node):  # kramdown's "{: .no_toc}", "{:toc}": the site's markup, no text
                if skip and node.type in ("bullet_list", "ordered_list"):
                    self.contents(node)  # its entries, when they are links within the page
                skip = max(skip - 1, 0)
                continue
            if node.type == "heading" and _heads_contents(nodes[at + 1:at + 3]):
                continue  # "Table of Contents" over its links alone heads nothing: no section of the rules after it
            if node.type == "heading" and (skip := _contents_under(node, nodes[at + 1:])):
                continue  # "Table of Contents" over a list a site generator replaces ("* {:toc}"): no rules
            if node.type in ("bullet_list", "ordered_list"):
                # links a sentence introduces ("The VEKN sanctions the following Sealed formats:") are its text
                said = before is not None and before.endswith(":") and len(before.split()) > _LABEL_WORDS
                if said or not self.contents(node):
                    first = int(node.attrs.get("start", 1))
                    if node.type == "ordered_list" and first == 1 and next_number and between <= 1 \
                            and not _introduces(before):
                        first = next_number
                    last = self.list(node, depth, first)
                    if node.type == "ordered_list":
                        next_number = last + 1
                before, between = None, 0
                continue
            if node.type == "heading" or node.type == "html_block" and node.content.lstrip().startswith("<!--"):
                # (an HTML comment between two lists is how markdown writes two lists apart: "<!-- variant -->"; a
                # page's number a conversion sets in HTML between two parts of one list is no such break)
                next_number = None
            written = self.block(node, depth)
            between += bool(written)  # a table, or an empty paragraph (an image), is no passage of its own
            if written is None:
                before = None
            elif written:  # an empty paragraph (an image) is passed over
                before = written

    def block(self, node: SyntaxTreeNode, depth: int) -> str | None:
        """Write one block other than a list; returns a paragraph's text, None for other blocks."""
        kind = node.type
        if kind == "heading":
            run = self.inline(node.children[0])
            level = int(node.tag[1]) if self.sidebar is None else min(6, max(int(node.tag[1]), self.sidebar + 1))
            self.out.heading(level, run, self.line_at(node.map[0]))
            if node.tag == "h1" and "title" not in self.metadata and run.text.strip():
                self.metadata["title"] = " ".join(run.text.split())
        elif kind == "paragraph":
            inline = node.children[0]
            if _navigation(inline) or TEMPLATE_TAGS.fullmatch(inline.content):
                return ""  # passed over, as an image is; "{% include nav.html %}" is a site generator's
            run = self.inline(inline)
            breaks = [at for at, child in enumerate(inline.children) if child.type in ("softbreak", "hardbreak")]
            # a paragraph all in bold, or its first line so (walk keeps that line's break)
            write = self.out.bold if _all_bold(inline) or breaks and _bold_line(inline.children, breaks[0]) \
                else self.out.paragraph
            for line in _lines(run):
                write(line, depth)  # the lines a label opens are rules of their own (walk)
                write = self.out.paragraph
            return " ".join(run.text.split())
        elif kind == "table":
            for row in (tr for part in node.children for tr in part.children):
                cells = [self.inline(cell.children[0]) if cell.children else self.empty() for cell in row.children]
                self.out.row(cells, self.line_at(row.map[0]), depth)
        elif kind in ("fence", "code_block"):
            self.preformatted(node, depth)
        elif kind == "html_block":
            self.html_block(node, depth)
        elif kind == "blockquote":
            # A sidebar: its headings sit under the section it stands in, whatever their level ("> ##### Using
            # Attributes…" boxed inside "##### Determine Attribute…" is part of it, no sibling).
            outer = self.sidebar
            self.sidebar = self.out.level if outer is None else outer
            self.blocks(node.children, depth)
            self.sidebar = outer
        return None  # a thematic break and anything unknown write nothing

    def html_block(self, node: SyntaxTreeNode, depth: int) -> None:
        """Raw HTML, read by the HTML reader on its own source lines, what markdown stripped from them (list
        indentation, `> ` quote markers) blanked out so that every position stays the source's."""
        self.enter(node.map)
        start = self.lines.line_start(node.map[0] + 1)
        content = node.content.split("\n")
        masked = []
        for index, raw in enumerate(self.source[start:self.limit].split("\n")):
            text = content[index].strip() if index < len(content) else ""
            at = raw.find(text) if text else -1
            masked.append(" " * len(raw) if at < 0 else " " * at + raw[at:])
        read_html("\n".join(masked), self.out, self.limits, base=start, depth=depth)
        self.cursor = self.limit

    def list(self, node: SyntaxTreeNode, depth: int, first: int) -> int:
        """Write a list's items (ordered ones numbered from `first`); returns the last number."""
        number = first - 1
        for item in node.children:
            number += 1
            marker = f"{number}." if node.type == "ordered_list" else "-"
            at = self.line_at(item.map[0])
            children = item.children
            if children and children[0].type == "paragraph":
                # the lines a label opens inside the item are rules of their own under it ("1. General" /
                # "   1.1. All members…", a lazy continuation markdown joins to the item): see `walk`
                lines = _lines(self.inline(children[0].children[0]), labelled=True)
                self.out.item(marker, next(lines), at, depth)
                for line in lines:
                    self.out.paragraph(line, depth + 1)
                children = children[1:]
            else:
                self.out.item(marker, self.empty(at), at, depth)
            self.blocks(children, depth + 1)
        return number

    def contents(self, node: SyntaxTreeNode) -> bool:
        """Whether a list is a table of contents (only links to anchors); if so its entries go to metadata."""
        entries = _contents_entries(node)
        if entries is None:
            return False
        self.metadata.setdefault("contents", []).extend(entries)
        return True

    def preformatted(self, node: SyntaxTreeNode, depth: int) -> None:
        """A code block line by line, each found in the source (its indentation may have been removed)."""
        self.enter(node.map)
        for line in node.content.splitlines():
            at = self.find(line) if line.strip() else -1
            offsets = range(at, at + len(line) + 1) if at >= 0 else [self.line_start(self.cursor)] * (len(line) + 1)
            self.out.line(MappedText(line, array("i", offsets)), offsets[0], depth)

    # -- inline text ---------------------------------------------------------------------------------------

    def inline(self, node: SyntaxTreeNode) -> MappedText:
        """The text of an inline node, markup dropped, each character mapped to its source offset."""
        self.enter(node.map)
        self.chars, self.offsets = [], array("i")
        self.walk(node.children)
        return self.run()

    def walk(self, nodes: list[SyntaxTreeNode]) -> None:
        for index, node in enumerate(nodes):
            kind = node.type
            if kind == "text":
                self.put_text(node.content, self.find(node.content))
            elif kind == "code_inline":
                self.put(node.content, self.find(node.content))
            elif kind == "text_special":  # an escape or entity: its character maps to the source form
                self.put(node.content, self.find(node.markup), spread=False)
            elif kind in ("softbreak", "hardbreak"):
                following = nodes[index + 1] if index + 1 < len(nodes) else None
                # A line opening with a label in parts ("3.A.1.a. Sideline players…", "1.3.1 Map Spaces. Map…") is a
                # rule of its own that the file set under its parent without a blank line, and one opening with a
                # bullet symbol an item of its own: the break is kept, as the document shows it.
                # So is the break after such a line that is a title alone ("1.3 The Map"), over the rule's text,
                # and before a question's or answer's label ("[FAQ]" / "*Question*: …" / "*Answer*: Yes.").
                kept = following is not None and following.type == "text" and (
                    LABELLED_LINE.match(following.content) or BULLET_LINE.match(following.content)
                    or LETTERED_LINE.match(following.content)) \
                    or _title_line(nodes, index - 1) or _bold_line(nodes, index) or _asks_or_answers(nodes, index + 1)
                self.put("\n" if kept else " ", self.find("\n"), spread=False)
            elif kind == "html_inline":  # tags and anchors are dropped; a line break reads as a space
                at = self.find(node.content)
                image = image_alt(node.content)
                if BREAK_TAG.match(node.content):
                    self.put(" ", at, spread=False)
                elif image and at >= 0 and _among_text(nodes, index):
                    self.put(image[0], at + image[1])
            elif kind == "image":
                start = self.find("![")
                if start >= 0:
                    if _among_text(nodes, index):  # an icon in a sentence ("six ![+1](plus-1.png) cards") says its alt
                        self.put(node.content, start + 2)
                    self.cursor = self.after_link(self.closing(start + 1, "[", "]"))
            elif kind == "link":
                self.walk(node.children)
                if node.markup != "autolink" and self.source.startswith("]", self.cursor):
                    self.cursor = self.after_link(self.cursor)
            elif kind == "s":  # struck out ("~~unit~~ Corps"): what a revision removed, no longer a rule
                self.find(node.markup)
                self.find(node.markup)
            else:  # emphasis, strong: the text without its markers
                self.find(node.markup)
                self.walk(node.children)
                self.find(node.markup)

    def put_text(self, text: str, at: int) -> None:
        """Append a text node's `text` found at `at`, an empty emphasis in it read as a space."""
        last = 0
        for empty in EMPTY_EMPHASIS.finditer(text) if at >= 0 else ():
            self.put(text[last:empty.start()], at + last)
            self.put(" ", at + empty.start(), spread=False)
            last = empty.end()
        self.put(text[last:], at + last if at >= 0 else at)

    def put(self, text: str, at: int, spread: bool = True) -> None:
        """Append `text` found at `at` (-1: not found, mapped to the start of the current line)."""
        self.chars.append(text)
        if at >= 0 and spread:
            self.offsets.extend(range(at, at + len(text)))
        else:
            self.offsets.extend([at if at >= 0 else self.line_start(self.cursor)] * len(text))

    def run(self) -> MappedText:
        end = self.offsets[-1] + 1 if self.offsets else self.cursor
        return MappedText("".join(self.chars), self.offsets + array("i", [end]))

    def empty(self, at: int | None = None) -> MappedText:
        return MappedText("", array("i", [self.cursor if at is None else at]))

    # -- source positions ----------------------------------------------------------------------------------

    def enter(self, lines: tuple[int, int] | None) -> None:
        """Start reading a block on source `lines` [start, end)."""
        if lines:
            self.cursor = max(self.cursor, self.lines.line_start(lines[0] + 1))
            self.limit = self.lines.line_start(lines[1] + 1) if lines[1] < len(self.lines) else len(self.source)

    def find(self, text: str) -> int:
        """Where `text` next occurs in the current block (moving the cursor past it), or -1."""
        at = self.source.find(text, self.cursor, self.limit) if text else -1
        if at >= 0:
            self.cursor = at + len(text)
        return at

    def line_start(self, offset: int) -> int:
        return self.lines.line_start(self.lines.line_of(offset))

    def line_at(self, line: int) -> int:
        """Offset of the first non-blank character of source line `line` (0-based)."""
        start = self.lines.line_start(line + 1)
        end = self.lines.line_start(line + 2) if line + 1 < len(self.lines) else len(self.source)
        text = self.source[start:end]
        return start + len(text) - len(text.lstrip())

    def closing(self, start: int, opening: str, closing: str) -> int:
        """Offset of the `closing` that matches the `opening` at `start` (nesting and backslash escapes
        respected), or the block's end."""
        depth = 0
        pos = start
        while pos < self.limit:
            char = self.source[pos]
            if char == "\\":
                pos += 1
            elif char == opening:
                depth += 1
            elif char == closing:
                depth -= 1
                if depth == 0:
                    return pos
            pos += 1
        return self.limit

    def after_link(self, bracket: int) -> int:
        """Offset after a link's `](destination "title")` or `][label]` tail, its `]` at `bracket`."""
        pos = bracket + 1
        if self.source.startswith("[", pos):
            end = self.source.find("]", pos, self.limit)
            return end + 1 if end >= 0 else pos
        if self.source.startswith("(", pos):
            return min(self.closing(pos, "(", ")") + 1, self.limit)
        return pos


def _attributes(node: SyntaxTreeNode) -> bool:
    """Is the block a paragraph of kramdown attribute lists only ("{: .no_toc}", "{:toc}")?"""
    if node.type != "paragraph":
        return False
    text = _plain(node.children[0]).strip()
    return text.startswith("{:") and text.endswith("}") and "}" not in text[:-1]


def _contents_under(heading: SyntaxTreeNode, after: list[SyntaxTreeNode]) -> int:
    """How many blocks after a heading titled "Table of Contents" are its contents: the lists (and attribute lists,
    and the bold labels of their groups) up to the next heading, when there is nothing else; 0 when it is no such
    heading. (A game's "Contents" lists what is in its box.)"""
    if " ".join(_plain(heading.children[0]).lower().split()) != "table of contents":
        return 0
    count, paged = 0, False
    for node in after:
        if node.type == "heading" and _paged_entry(node.children[0]) is None:
            break
        if node.type == "heading":  # "## Scenario Phase [p.7](#page_7)": a part's entry, its own above its list
            count, paged = count + 1, True
            continue
        # "**Framework**" over the links of its part: a group's label, the contents' own
        label = node.type == "paragraph" and _all_bold(node.children[0]) \
            and len(_plain(node.children[0]).split()) <= _LABEL_WORDS
        if node.type not in ("bullet_list", "ordered_list") and not _attributes(node) and not label:
            return count if paged else 0  # a contents whose parts print their pages ends where the text begins
        count += 1
    return count


def _heads_contents(after: list[SyntaxTreeNode]) -> bool:
    """Do the blocks `after` a heading hold only a table of contents (a list of `#anchor` links) before the next
    heading or the document's end?"""
    return bool(after) and after[0].type in ("bullet_list", "ordered_list") \
        and _contents_entries(after[0]) is not None and (len(after) == 1 or after[1].type == "heading")


def _parts(inline: SyntaxTreeNode) -> list[SyntaxTreeNode]:
    """An inline node's children but its spaces and line breaks."""
    return [child for child in inline.children
            if not (child.type == "text" and not child.content.strip()) and child.type != "softbreak"]


def _anchor(node: SyntaxTreeNode) -> bool:
    """Is `node` a link to an anchor of the page ("[Combat](#combat)")?"""
    return node.type == "link" and str(node.attrs.get("href", "")).startswith("#")


def _paged_entry(inline: SyntaxTreeNode) -> str | None:
    """The title of a contents entry that ends with a link to its page ("Loot Deck [p.16](#page_16)"), or None."""
    parts = _parts(inline)
    page = parts[-1] if len(parts) == 2 and parts[0].type == "text" else None
    if page is None or not _anchor(page) or not any(c.isdigit() for c in _plain(page)):
        return None
    return " ".join(parts[0].content.split())


def _contents_entries(node: SyntaxTreeNode) -> list[str] | None:
    """The entries of a list made only of links to `#anchors` (nested lists too), or None."""
    entries = []
    for item in node.children:
        if not item.children or item.children[0].type != "paragraph":
            return None
        inline = item.children[0].children[0]
        parts = _parts(inline)
        entry = " ".join(_plain(parts[0]).split()) if len(parts) == 1 and _anchor(parts[0]) else _paged_entry(inline)
        if entry is None:
            return None
        entries.append(entry)
        for sub in item.children[1:]:
            nested = _contents_entries(sub) if sub.type in ("bullet_list", "ordered_list") else None
            if nested is None:
                return None
            entries += nested
    return entries
