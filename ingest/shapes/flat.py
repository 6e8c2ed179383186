"""Documents flattened onto a line or two (a wiki page wrapping a rulebook), and plain one-paragraph-per-line
notes.

A flattened rulebook keeps its table of contents, and that is what recovers its structure: every entry
is looked for, in order, in the body; what is found becomes a section, what is missing is a gap. Inside
a section, numbered items that count 1, 2, 3... become rulings of their own, and "Example:" passages
become examples of the ruling they sit in.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ingest import clean
from ingest.classify import (
    CONTENTS,
    CONTENTS_ENTRY,
    FLAT_EXAMPLE,
    FLAT_ITEM,
    RULE_OPENER,
    entry_heading,
)
from ingest.furniture import PageMap
from ingest.segment import (
    Block,
    consecutive_numbers,
    first_sentence,
    slugify,
    sub_heading,
    trim,
)
from ingest.text import MappedText


@dataclass
class _Entry:
    title: str
    letter: str | None
    page: int
    group: str | None


def _contents(text: str) -> tuple[list[_Entry], int, int]:
    """The table of contents' entries and the span it occupies (entries with letters join the group above)."""
    found = CONTENTS.search(text)
    if not found:
        return [], 0, 0
    entries: list[_Entry] = []
    pos = found.end()
    group = None
    while True:
        match = _entry(text, pos)
        if not match:
            break
        title = " ".join(match.group("title").split())
        letter = match.group("letter")
        if letter:
            title = title[2:].strip()
        else:
            group = title
        entries.append(_Entry(title, letter, int(match.group("page")), group if letter else None))
        pos = match.end()
    return entries, found.start(), pos


def printed_pages(doc: MappedText) -> PageMap | None:
    """The pages of a flattened document from the page numbers glued into its sentences, each ending its
    page (None without a table of contents giving the last page, or without such numbers). A stretch whose
    ending number follows a skipped one spans two pages and gets no page; so does what follows the last
    number when the contents know no page after it."""
    entries, _, _ = _contents(doc.text)
    if not entries:
        return None
    last_page = max(entry.page for entry in entries)
    ends = clean.running_page_numbers(doc, last_page)
    if not ends:
        return None
    numbers, before = [], 0
    for _, _, number in ends:
        numbers.append(number if number == before + 1 else None)
        before = number
    numbers.append(before + 1 if before < last_page else None)
    return PageMap([doc.offsets[end] for _, end, _ in ends], numbers)


def _entry(text: str, pos: int) -> re.Match | None:
    """A contents entry after the whitespace at `pos`: its title starts after all of it, else with its last
    character ("  12. Intro" starts at a digit, which no title may), never earlier (a longer title only fails
    sooner). Two tries, where a leading run of `\\s*` would try every length of a long run of whitespace."""
    start = pos
    while start < len(text) and text[start].isspace():
        start += 1
    return CONTENTS_ENTRY.match(text, start) or (CONTENTS_ENTRY.match(text, start - 1) if start > pos else None)


def _find_heading(text: str, entry: _Entry, start: int) -> re.Match | None:
    return entry_heading(entry.title, entry.letter).search(text, start)


def parse_flat(doc: MappedText, root: tuple[str, ...]):
    """Sections from the table of contents, numbered items, examples; missing entries are reported."""
    entries, contents_start, contents_end = _contents(doc.text)
    if entries:
        doc = clean.drop_running_page_numbers(doc, max(e.page for e in entries))
        entries, contents_start, contents_end = _contents(doc.text)
    text = doc.text
    found: list[tuple[int, int, _Entry]] = []
    missing: list[tuple[str, int]] = []
    cursor = contents_end
    for entry in entries:
        match = _find_heading(text, entry, cursor)
        if match is None:
            missing.append((f"{entry.group} {entry.letter}. {entry.title}" if entry.letter else entry.title,
                            contents_start))
            continue
        found.append((match.start(), match.end(), entry))
        cursor = match.end()
    blocks: list[Block] = []
    if not found:
        return doc, [Block(root, "1", first_sentence(text), [trim(text, 0, len(text))])], missing
    for (_, heading_end, entry), following in zip(found, found[1:] + [(len(text), 0, None)]):
        end = following[0]
        section = root + ((entry.group,) if entry.group else ())
        label = entry.letter.lower() if entry.letter else entry.title
        block = Block(section, label, entry.title, [], kind="rule", slug=None if entry.letter else slugify(entry.title))
        blocks.append(block)
        blocks.extend(_section_items(text, block, heading_end, end))
    return doc, [b for b in blocks if b.pieces], missing


def _section_items(text: str, block: Block, start: int, end: int) -> list[Block]:
    """Fill `block` with its text up to the first numbered item; each item becomes a child block."""
    items = consecutive_numbers(text, FLAT_ITEM, start, end)
    edges = [m.start() for m in items] + [end]
    _add_with_examples(text, block, start, edges[0])
    children = []
    for match, stop in zip(items, edges[1:]):
        body = text[match.end():stop]
        child = Block(block.section + (block.title,), match.group(1), sub_heading(body).rstrip("."), [],
                      kind="rule", slug=f"{block.slug or slugify(block.label)}/{match.group(1)}",
                      id_section=block.section)
        _add_with_examples(text, child, match.end(), stop)
        children.append(child)
    return children


def _add_with_examples(text: str, block: Block, start: int, end: int) -> None:
    """Add [start, end) to the block's text, moving each "Example:" passage into its examples."""
    pos = start
    for match in FLAT_EXAMPLE.finditer(text, start, end):
        back = RULE_OPENER.search(text, match.end(), end)
        stop = back.start() if back else end
        piece = trim(text, pos, match.start())
        if piece[0] < piece[1]:
            block.pieces.append(piece)
        block.examples.append((f"example-{len(block.examples) + 1}", [trim(text, match.start(), stop)]))
        pos = stop
    piece = trim(text, pos, end)
    if piece[0] < piece[1]:
        block.pieces.append(piece)


def parse_paragraphs(doc: MappedText, root: tuple[str, ...]):
    """One ruling per non-empty line (short notes such as a club's house rules)."""
    blocks = []
    pos = 0
    for line in doc.text.split("\n"):
        span = trim(doc.text, pos, pos + len(line))
        if span[0] < span[1]:
            body = doc.text[span[0]:span[1]]
            blocks.append(Block(root, str(len(blocks) + 1), first_sentence(body), [span], kind="house-rule"))
        pos += len(line) + 1
    return doc, blocks, []
