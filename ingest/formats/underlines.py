"""Headings plain text underlines: a title over a line of one punctuation mark repeated ("Life & Death" over
"~~~~~~~~~~~~"), maybe over one too, as reStructuredText (Sphinx sources), setext and typed rulebooks set them;
or a title after "=" marks ("== General Skill Rules"), as AsciiDoc sets them. Read as marked headings ("## Life &
Death"), underlined ones at levels in the order the document first uses each style, as reStructuredText ranks
them; the rules' lines are left as they are, and every character still maps to the file.
"""
from __future__ import annotations

from ingest.classify.markup import (
    ASCIIDOC_ATTRIBUTE,
    ASCIIDOC_BOLD,
    ASCIIDOC_MACRO,
    ASCIIDOC_ORDERED,
    ASCIIDOC_XREF,
    RST_AUTO_ITEM,
    RST_COMMENT,
    RST_DIRECTIVE,
    RST_LITERAL,
    RST_OPTION,
    RST_REFERENCE,
)
from ingest.formats.document import FENCE
from ingest.formats.html import numeral
from ingest.text import MappedText, after_each

# The marks reStructuredText allows for a title's adornment (a space, a letter or a digit is none).
_MARKS = frozenset("=-~^\"'*+#_:.`!$%&,/;<>?@\\|")
_SHORTEST = 3  # an adornment's fewest marks
_SLACK = 2  # how much shorter than its title an underline may be
_LONGEST_TITLE = 120
_HEADINGS = 2  # how many underlined titles make a document that underlines its headings
_DEEPEST = 6
_DELIMITER = 4  # an AsciiDoc block's delimiter: four marks or more ("====", "----")
_BREAKS = ("'" * 3, "<" * 3)  # AsciiDoc's thematic break and page break
_STYLES = "1aiAI"  # how AsciiDoc numbers an ordered list's items at each depth (`html.numeral`'s styles)


def _adornment(line: str) -> str | None:
    """The mark a line repeats and nothing else ("~~~~~~~~"), or None."""
    stripped = line.rstrip()
    return stripped[0] if len(stripped) >= _SHORTEST and stripped[0] in _MARKS and \
        stripped == stripped[0] * len(stripped) else None


def _attribute(line: str) -> bool:
    """Is `line` wholly in brackets: an AsciiDoc block's attributes or anchor ("[NOTE]", "[[combat]]")?"""
    stripped = line.strip()
    return stripped.startswith("[") and stripped.endswith("]")


ASCIIDOC = (".adoc", ".asciidoc")  # the suffixes of AsciiDoc sources, whose "=" marks head sections


def underlined_headings(doc: MappedText, asciidoc: bool = False) -> MappedText:
    """`doc` with each underlined title written as a marked heading and its adornment lines gone, where it
    underlines at least `_HEADINGS` titles; else, in an AsciiDoc source, its "=" section titles (a converted
    text's "=== Page 2 ===" is no title); else `doc` as it is."""
    lines = doc.text.split("\n")
    starts = [0, *after_each(doc.text, "\n")]
    found = []  # (title line, level style, overlined)
    underlines: set[int] = set()
    for index in range(1, len(lines)):
        mark = _adornment(lines[index])
        title = lines[index - 1].strip()
        if mark is None or not title or len(title) > _LONGEST_TITLE or _adornment(title) or _attribute(title) \
                or title.endswith((".", ",", ";", ":")) or len(lines[index].rstrip()) < len(title) - _SLACK:
            continue
        # an overline, unless it underlines the title before ("Title" / "=====" / "Second" / "======")
        over = index >= 2 and _adornment(lines[index - 2]) == mark and index - 2 not in underlines
        if not over and index >= 2 and lines[index - 2].strip() and index - 2 not in underlines:
            continue  # a title stands apart from the text above it: this underlines a paragraph's last line
        found.append((index - 1, (mark, over)))
        underlines.add(index)
    if len(found) < _HEADINGS:
        return _equals_headings(doc, lines, starts) if asciidoc else doc
    styles: list[tuple[str, bool]] = []
    edits = []
    for title, style in found:
        if style not in styles:
            styles.append(style)
        level = min(styles.index(style) + 1, _DEEPEST)
        if style[1]:  # the overline goes, with its line break
            edits.append((starts[title - 1], starts[title], ""))
        # a title centred between its rules ("      Basic Rules of play") is marked at the line's start, its
        # centring gone: an indented "#" is no heading
        edits.append((starts[title], starts[title] + len(lines[title]) - len(lines[title].lstrip()), "#" * level + " "))
        edits.append((starts[title] + len(lines[title]), starts[title + 1] + len(lines[title + 1]), ""))
    return doc.edit(edits)


def _equals_headings(doc: MappedText, lines: list[str], starts: list[int]) -> MappedText:
    """`doc` with its AsciiDoc section titles ("== Combat", "=== Reserved Actions") marked as headings of their
    depth, where it has at least `_HEADINGS` of them below its title; its blocks' attribute lines ("[NOTE]"),
    delimiters ("===="), header attributes (":toc: left"), breaks (three quotes, "<<<"), comments ("// …", "////"
    blocks), block macros ("image::map.png[]") and bold marks go, being markup; a cross-reference reads as its
    text; a listing or literal block ("----") is preformatted, as a markdown fence is."""
    found = []
    for index, line in enumerate(lines):
        title = line.lstrip("=")
        marks = len(line) - len(title)
        if 1 <= marks <= _DEEPEST and title.startswith(" ") and title.strip() and len(line) <= _LONGEST_TITLE:
            found.append((index, marks))
    if sum(marks > 1 for _, marks in found) < _HEADINGS:
        return doc
    edits = [(starts[index], starts[index] + marks, "#" * marks) for index, marks in found]
    levels = dict(found)
    level = 1
    counts: list[int] = []  # the open ordered lists' items so far, outermost first
    literal = comment = False  # inside a listing or literal block ("----", "...."), or a comment block ("////")
    for index, line in enumerate(lines):
        level = levels.get(index, level)
        ordered = ASCIIDOC_ORDERED.match(line)
        if line.strip() and not ordered and not line[:1].isspace() and line.strip() != "+":
            counts = []  # a list's items may stand apart, and a "+" or an indented line carries one on
        mark = _adornment(line)
        if mark and len(line.strip()) >= _DELIMITER and not (comment and mark != "/"):
            # a listing or literal block stays as the document sets it, preformatted; a comment block goes with its
            # lines; other blocks' delimiters ("====", "****") go, being markup
            literal = not literal if mark in "-." else literal
            comment = not comment if mark == "/" else comment
            edits.append((starts[index], starts[index] + len(line), FENCE if mark in "-." else ""))
        elif literal:
            continue
        elif comment or line.startswith("//") or _attribute(line) or ASCIIDOC_ATTRIBUTE.match(line) \
                or ASCIIDOC_MACRO.match(line) or line.strip() in _BREAKS:
            edits.append((starts[index], starts[index] + len(line), ""))
        elif (bold := ASCIIDOC_BOLD.fullmatch(line.strip())) and len(line) <= _LONGEST_TITLE \
                and not line.rstrip().endswith((".", ":", ",", ";")):
            # a line all in bold ("*Marshals and Staff Have Final Say*") heads the paragraphs under it
            edits.append((starts[index], starts[index] + len(line), f"{'#' * min(level + 1, _DEEPEST)} {bold.group(1)}"))
        else:
            if ordered:  # ". Are my socks dry?": numbered as AsciiDoc numbers it (1., a., i., A., I.), deeper indented
                depth = len(ordered.group(1))
                counts = counts[:depth - 1] + [1] * (depth - 1 - len(counts)) + [
                    counts[depth - 1] + 1 if len(counts) >= depth else 1]
                label = numeral(counts[-1], _STYLES[depth - 1]) + "."
                edits.append((starts[index], starts[index] + depth, "  " * (depth - 1) + label))
            edits += [(starts[index] + found.start(), starts[index] + found.end(), found.group(2) or found.group(1))
                      for found in ASCIIDOC_XREF.finditer(line)]
            edits += [edit for found in ASCIIDOC_BOLD.finditer(line) for edit in (
                (starts[index] + found.start(), starts[index] + found.start() + 1, ""),
                (starts[index] + found.end() - 1, starts[index] + found.end(), ""))]
    return doc.edit(sorted(edits))


RST = (".rst", ".rest")  # the suffixes of reStructuredText sources
# Directives whose content is no rule (a generated contents, a picture, the index, raw markup): they go whole.
_RST_DROPPED = frozenset({"contents", "toctree", "image", "figure", "include", "raw", "meta", "index", "highlight",
                          "sectnum", "role", "default-role", "only", "code-block", "literalinclude", "rubric"})


def rst_markup(doc: MappedText) -> MappedText:
    """`doc`, a reStructuredText source, without its explicit markup: comments and link targets go with the lines
    indented under them, as do directives whose content is no rule (".. contents::", ".. image::"); an admonition
    reads as a note ("Note: Words implying singular…"); any other directive's line and options go, its content
    staying (a glossary's terms, each over its definition; a table's rows)."""
    lines = doc.text.split("\n")
    starts = [0, *after_each(doc.text, "\n")]
    edits, index = [], 0
    while index < len(lines):
        line = lines[index]
        directive = RST_DIRECTIVE.match(line)
        if not directive and not RST_COMMENT.match(line):
            index += 1
            continue
        indent = len(line) - len(line.lstrip())
        end = index + 1  # the block: the lines indented under it, and blank lines among them
        while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent):
            end += 1
        name = directive.group("name").lower() if directive else ""
        if directive and name not in _RST_DROPPED:
            # an admonition's words read as a note; any other directive's line goes (a table's caption too: no
            # heading over what follows), and so do its options (":widths: auto")
            args = directive.group("args").strip()
            shown = f"{name.capitalize()}: {args}" if name in _ADMONITIONS else ""
            options = index + 1
            while options < end and RST_OPTION.match(lines[options]):
                options += 1
            edits.append((starts[index] + indent, starts[options - 1] + len(lines[options - 1]), shown))
            index = options
        else:
            edits.append((starts[index], starts[end - 1] + len(lines[end - 1]), ""))
            index = end
    return doc.edit(edits)


_ADMONITIONS = frozenset({"note", "warning", "tip", "important", "hint", "caution", "attention", "danger", "error",
                          "seealso", "admonition"})


def rst_inline(doc: MappedText) -> MappedText:
    """`doc`, a reStructuredText source, its inline markup read as the text it shows: a role or a link as its text
    (":hoverxref:`Amazonia <homeland-amazonia>`" is "Amazonia", "`Discord <https://…>`_" is "Discord"), an inline
    literal or strong text as what it holds ("``Craft``", "**must**"), and auto-numbered items ("#.") numbered as
    they count, afresh in each list."""
    edits = []
    counts: dict[str, int] = {}  # each open list's margin -> its items so far
    starts = [0, *after_each(doc.text, "\n")]
    for start, line in zip(starts, doc.text.split("\n")):
        item = RST_AUTO_ITEM.match(line)
        margin = line[:len(line) - len(line.lstrip())]
        if item:
            counts = {m: n for m, n in counts.items() if len(m) <= len(item.group(1))}
            counts[item.group(1)] = counts.get(item.group(1), 0) + 1
            edits.append((start + len(item.group(1)), start + len(item.group(1)) + 1, str(counts[item.group(1)])))
        elif line.strip() and not any(len(margin) > len(m) for m in counts):
            counts = {}  # a line at a list's margin that is no item ends it
        edits += [(start + found.start(), start + found.end(), "".join(part for part in found.groups() if part))
                  for found in RST_LITERAL.finditer(line)]
    # a link's text may wrap onto the next line, its target after it ("`open source license` / "<https://…>`_")
    edited = [(start, end) for start, end, _ in edits]
    edits += [(found.start(), found.end(), " ".join((found.group(1) or found.group(2) or "").split()))
              for found in RST_REFERENCE.finditer(doc.text)
              if not any(start < found.end() and found.start() < end for start, end in edited)]
    return doc.edit(sorted(edits)) if edits else doc


def plain_markup(doc: MappedText, suffix: str) -> MappedText:
    """`doc`, a plain text read from a file named with `suffix`, with the markup its language shows read as the
    text it stands for: reStructuredText's explicit and inline markup (`rst_markup`, `rst_inline`), then underlined
    or AsciiDoc headings."""
    return underlined_headings(rst_inline(rst_markup(doc)) if suffix in RST else doc, suffix in ASCIIDOC)
