"""Prose documents whose headings are lines or glued into running text: blog posts, HTML-stripped pages,
converted word-processor files. All of them become a list of (heading, paragraph) units, which
`assemble` turns into blocks the same way for every shape.
"""
from __future__ import annotations

import re
import string
from dataclasses import dataclass
from itertools import islice

from ingest.classify import (
    COMMENTS,
    DATE_LINE,
    DEFINED_TERM,
    GLUED_HEADING,
    HEADING_CONNECTORS,
    INLINE_NUMBER,
    NON_SPACE,
    ROUND,
    SENTENCE_STARTERS,
    SPELL,
)
from ingest.segment import (
    Block,
    consecutive_numbers,
    continues_topic,
    first_sentence,
    slugify,
    topic_slug,
    trim,
)
from ingest.text import MappedText

_LONGEST_RUN = 12  # words: no heading is longer


@dataclass
class Unit:
    heading: str | None
    start: int
    end: int
    heading_at: int = -1  # where the heading itself starts, when there is one


def _heading_split(words: list[tuple[str, int]], next_char: str) -> int:
    """Given title-case words ending on a line, how many belong to the heading (the rest open the body)."""
    if not words:
        return 0
    last = words[-1][0]
    if next_char.islower() or not next_char.isalnum() or last.endswith("."):
        return len(words) - 1
    return len(words)


def _title_word(word: str, first: bool) -> bool:
    bare = word.strip("“”\"'(),")
    if not bare:
        return word in ("&", "-", "–")
    return bare[:1].isupper() or bare[:1].isdigit() or (not first and bare.lower() in HEADING_CONNECTORS)


def glued_units(doc: MappedText) -> tuple[MappedText, list[Unit]]:
    """HTML-stripped text: headings glued to the text ("How To AttackThe"), or left at line ends.

    A heading is a run of title-case words after a sentence end that ends a line; if the text after
    it starts in lower case, the run's last word already opens the paragraph ("Partial Hit Target" +
    "takes half damage"). A run with no heading words before such a word still marks a paragraph break.
    """
    doc = doc.sub(GLUED_HEADING, "\n")  # "AttackThe" -> "Attack\nThe"
    text = doc.text
    tokens = [(m.group(0), m.start(), m.end()) for m in NON_SPACE.finditer(text)]
    units: list[Unit] = []
    heading, start, heading_at = None, 0, -1
    index, sentence_start = 0, True
    while index < len(tokens):
        word, pos, end = tokens[index]
        if sentence_start:
            run: list[tuple[str, int]] = []
            line_end = -1
            j = index
            while j < len(tokens) and j - index < _LONGEST_RUN and _title_word(tokens[j][0], j == index):
                run.append((tokens[j][0], tokens[j][1]))
                if "\n" in text[tokens[j][2]:tokens[j + 1][1] if j + 1 < len(tokens) else len(text)]:
                    line_end = len(run)
                if tokens[j][0].endswith((".", "!", "?", ":")):
                    break
                j += 1
            if line_end > 0:
                run = run[:line_end]
                after = index + line_end
                next_char = tokens[after][0][0] if after < len(tokens) else "a"
                keep = _heading_split(run, next_char)
                body_pos = run[keep][1] if keep < len(run) else (tokens[after][1] if after < len(tokens) else len(text))
                if pos > start:
                    units.append(Unit(heading, start, pos, heading_at))
                heading = " ".join(w for w, _ in run[:keep]) or None
                heading_at = pos
                start = body_pos
                index = index + keep + (1 if keep < len(run) else 0)
                sentence_start = False
                continue
        sentence_start = word.endswith((".", "!", "?", ":")) or (word.endswith(")") and word[-2:-1] == ".")
        index += 1
    units.append(Unit(heading, start, len(text), heading_at))
    return doc, [u for u in units if text[u.start:u.end].strip() or u.heading]


def blog_units(doc: MappedText) -> tuple[MappedText, list[Unit], str]:
    """A blog post: a heading is a short unpunctuated line directly followed by text; paragraphs are
    separated by blank lines. The date line and the title go; reader comments at the end go."""
    comments = COMMENTS.search(doc.text)
    if comments:
        before = doc.text[:comments.start()].rstrip()  # the blank lines before the comments go with them
        doc = doc.slice(0, doc.text.find("\n", len(before)) + 1 if before else 0)
    text = doc.text
    units: list[Unit] = []
    lines = []
    pos = 0
    for line in text.split("\n"):
        lines.append((pos, line))
        pos += len(line) + 1
    title = ""
    paragraph_start: int | None = None
    heading: str | None = None
    heading_at = -1
    for i, (pos, line) in enumerate(lines):
        stripped = line.strip()
        following = lines[i + 1][1].strip() if i + 1 < len(lines) else ""
        if not stripped:
            if paragraph_start is not None:
                units.append(Unit(heading, paragraph_start, pos, heading_at))
                heading, paragraph_start = None, None
            continue
        if paragraph_start is None and not units and not title and DATE_LINE.match(stripped):
            continue
        if paragraph_start is None and _is_heading_line(stripped) and not following and not units and not title:
            title = stripped  # a lone short line before any text is the post's title
            continue
        if paragraph_start is None and _is_heading_line(stripped) and following:
            heading, heading_at = stripped, pos
            continue
        if paragraph_start is None:
            paragraph_start = pos
    if paragraph_start is not None:
        units.append(Unit(heading, paragraph_start, len(text), heading_at))
    return doc, units, title


def _is_heading_line(line: str) -> bool:
    return (len(line) <= 60 and len(line.split()) <= 8 and not line.endswith((".", ":", ";", ",", "!", "?"))
            and (line[:1].isupper() or line[:1].isdigit()) and not line.startswith(("-", "•")))


def assemble(doc: MappedText, units: list[Unit], root: tuple[str, ...], front_kind: str = "front-matter") -> list[Block]:
    """Turn (heading, paragraph) units into blocks: headed topics, unheaded paragraphs that start a new
    topic, defined terms, spell entries and numbered steps inside a paragraph, and example-of-play rounds."""
    text = doc.text
    blocks: list[Block] = []
    current: Block | None = None
    topic_heading = ""
    previous = ""
    for unit in units:
        start, end = trim(text, unit.start, unit.end)
        body = text[start:end]
        if unit.heading:
            topic_heading = unit.heading
            if "example" in unit.heading.lower():
                current = _example_block(doc, root, unit, start, end)
                blocks.append(current)
            else:
                current = Block(root, unit.heading, unit.heading, [], slug=slugify(unit.heading))
                blocks.append(current)
                blocks.extend(_inner_blocks(doc, current, start, end))
        elif current is None:
            current = Block(root + ("Front Matter",), "about", first_sentence(body), [(start, end)], kind=front_kind)
            blocks.append(current)
        elif current.kind == front_kind or continues_topic(body, topic_heading, previous):
            blocks.extend(_inner_blocks(doc, current, start, end))
        else:
            topic_heading = ""
            current = Block(root, topic_slug(body), first_sentence(body), [])
            blocks.append(current)
            blocks.extend(_inner_blocks(doc, current, start, end))
        previous = body
    return [b for b in blocks if b.pieces]


def _inner_blocks(doc: MappedText, parent: Block, start: int, end: int) -> list[Block]:
    """Add [start, end) to `parent`, splitting off spell entries, defined terms and numbered steps."""
    text = doc.text
    cuts: list[tuple[int, str, str, str]] = []  # (offset, label, title, kind)
    for match in _from(SPELL, text, start, end):
        cuts.append((match.start(), slugify(match.group("name")), match.group("name").title(), "spell"))
    if not cuts:
        for match in _from(DEFINED_TERM, text, start, end):
            term = match.group("term")
            if term.lower() not in SENTENCE_STARTERS:
                cuts.append((match.start(), slugify(term), term.title() if term.isupper() else term, "clarification"))
        for match in consecutive_numbers(text, INLINE_NUMBER, start, end):
            after = text[match.end():end]
            cuts.append((match.start(), match.group(1), first_sentence(after, 60).rstrip("…."), "clarification"))
    cuts.sort()
    edges = [start] + [c[0] for c in cuts] + [end]
    head = trim(text, edges[0], edges[1])
    if head[0] < head[1]:
        parent.pieces.append(head)
    children = []
    section = parent.section + (parent.title,)
    for (offset, label, title, kind), stop in zip(cuts, edges[2:]):
        span = trim(text, offset, stop)
        if span[0] < span[1]:
            children.append(Block(section, label, title, [span], kind=kind))
    return children


def _from(body: tuple[re.Pattern, re.Pattern], text: str, start: int, end: int) -> list[re.Match]:
    """Matches in text[start:end] of a pattern `body` (see `classify._at_or_after`): one at `start` itself, then
    any preceded by what it must follow."""
    at, after = body
    found = [m for m in after.finditer(text, start, end) if m.start() > start]
    first = at.match(text, start, end)
    return ([first] if first else []) + found


def _example_block(doc: MappedText, root: tuple[str, ...], unit: Unit, start: int, end: int) -> Block:
    """An example-of-play section: a ruling named for it (its heading and any introduction), whose
    examples are its rounds (or the whole section as one example)."""
    text = doc.text
    heading = unit.heading or ""
    rounds = [m for m in ROUND.finditer(text, start, end)]
    block = Block(root, heading, heading, [], kind="example-of-play", slug=slugify(heading))
    intro_end = rounds[0].start() if rounds else start
    block.pieces.append(trim(text, unit.heading_at if unit.heading_at >= 0 else start, max(intro_end, start)))
    edges = [m.start() for m in rounds] + [end]
    for match, stop in zip(rounds, edges[1:]):
        block.examples.append((f"round-{match.group(1)}", [trim(text, match.start(), stop)]))
    if not rounds:
        block.examples.append(("example-1", [trim(text, start, end)]))
    return block


def doc_units(doc: MappedText) -> tuple[MappedText, list[Unit]]:
    """A converted word-processor file: one paragraph per line, each opening with its heading, some
    behind a running header (the document title repeated at the top of each page). Lines after an
    example heading, which carry no heading of their own, stay with the example."""
    text = doc.text
    lines = []
    pos = 0
    for line in text.split("\n"):
        if line.strip():
            lines.append((pos, pos + len(line)))
        pos += len(line) + 1
    if _hard_wrapped([text[a:b] for a, b in lines]):
        return doc, []  # a paragraph per line this is not: its lines wrap sentences (a scan's text, a PDF's)
    header = _running_header([text[a:b] for a, b in lines])
    units: list[Unit] = []
    for start, end in lines:
        if header and text.startswith(header + " ", start):
            start += len(header) + 1
        words = [(m.group(0), m.start()) for m in islice(NON_SPACE.finditer(text, start, end), _LONGEST_RUN)]
        keep = _line_heading([w for w, _ in words])
        if keep:
            units.append(Unit(" ".join(w for w, _ in words[:keep]).removesuffix(":"), words[keep][1], end, words[0][1]))
        elif units and units[-1].heading and "example" in units[-1].heading.lower():
            units[-1].end = end
        else:
            units.append(Unit(None, start, end))
    return doc, units


_DOC_CONNECTORS = frozenset({"and", "of", "&", "with"})
_WORD_LETTERS = string.ascii_letters + "'’"  # what a heading's word is made of, opening with a letter


def _line_heading(words: list[str]) -> int:
    """How many opening words of a paragraph are its heading (0 if it has none).

    The heading is a title-case run (no digits or punctuation) cut at a sentence opener ("The", "When")
    or a word in capitals; if the word after the run is lower case or a number, the run's last word
    already belongs to the text ("Attack Spells Attack spells are...").
    """
    run = 0
    for index, word in enumerate(words):
        if index and run == index and index + 1 < len(words) and word.endswith(":") and word[:1].isupper() \
                and not word[:-1].strip(_WORD_LETTERS):
            return index + 1  # "New Rule: when you take…": a colon closes the heading, its last word too
        if not (word[:1].isascii() and word[:1].isalpha() and not word.strip(_WORD_LETTERS)):
            break
        if index and (word.lower() in SENTENCE_STARTERS or (word.isupper() and len(word) > 1)):
            break
        if not (word[0].isupper() or (index and word in _DOC_CONNECTORS)):
            break
        run += 1
    if run == 0 or run >= len(words):
        return 0
    following = words[run][0]
    keep = run if following.isupper() else run - 1
    return keep if keep >= 1 and words[keep][0].isupper() else 0


# The share of lines a sentence runs on from (the next line opening in lower case) that makes a text hard-wrapped.
_WRAPPED_SHARE = 0.3


def _hard_wrapped(lines: list[str]) -> bool:
    """Do the text's lines wrap its sentences, the next line carrying one on in lower case, as a scan's or a PDF's
    text does, rather than each hold a paragraph?"""
    carried = sum(line.lstrip()[:1].islower() for line in lines[1:])
    return len(lines) > 1 and carried >= _WRAPPED_SHARE * (len(lines) - 1)


def _running_header(lines: list[str]) -> str:
    """Words that open the document and at least two more paragraphs, each going on with a capital (the text
    or heading the page starts): a page header the conversion glued onto the paragraphs that start a page. A
    sentence's opening repeated ("These rules are…", "These are…") is none."""
    if not lines:
        return ""
    first = lines[0].split()
    for n in (3, 2, 1):
        prefix = " ".join(first[:n]) + " "
        if len(first) > n and prefix[:1].isupper() and sum(
                line.startswith(prefix) and line[len(prefix):][:1].isupper() for line in lines) >= 3:
            return prefix.strip()
    return ""
