"""Line-oriented documents: FAQs and rulebooks whose structure is in line prefixes.

Handles the common shapes a new document arrives in: section headings (`***GENERAL RULES`, `# Combat`,
an ALL-CAPS line), lettered and numbered clarifications (`A)`, `1) Stoneskin (2 points): ...`), decimal
rules with lettered subrules (`100.1`, `100.1a`), `Q:`/`A:` pairs, and `EXAMPLE:` blocks, which attach to
the ruling they follow. Paragraphs before the first section are front matter.
"""
from __future__ import annotations

import re

from ingest.segment import Block, first_sentence, section_slug, slugify, trim
from ingest.text import MappedText

_SECTION = re.compile(r"^(?:\*{2,}\s*(?P<star>[^*].*?)\s*\**|#{1,6}\s+(?P<hash>.+?))\s*$")
_CAPS_SECTION = re.compile(r"^(?P<caps>[A-Z][A-Z0-9 :&/,'’-]{2,60}[A-Z0-9])$")
_LONGEST_HEADING = 120
_RULE_LINE = re.compile(r"^\s*[-=_*]{5,}\s*$")
_ITEM = re.compile(
    r"^\s*(?:"
    r"(?P<decimal>\d+(?:\.\d+)+[a-z]?)\.?\s+"
    r"|(?P<number>\d{1,3})[).]\s+"
    r"|\(?(?P<letter>[A-Za-z])\)\s+"
    r"|(?P<question>Q(?:uestion)?\s*\d*\s*[:.)])\s*"
    r"|(?P<answer>A(?:nswer)?\s*\d*\s*:)\s*"
    r"|(?P<example>(?:EXAMPLE|Example)\s*\d*\s*:)\s*"
    r")"
)
# "Stoneskin (2 points): Add one..." - a numbered item that names something.
_NAMED = re.compile(r"^(?P<name>[A-Z][\w'’ /-]{1,40}?)\s*(?:\([^)]*\))?\s*(?::|\s[-–]\s)")


def _lines(text: str):
    pos = 0
    for line in text.split("\n"):
        yield pos, line
        pos += len(line) + 1


def parse_outline(doc: MappedText, root: tuple[str, ...]) -> list[Block]:
    """Cut a line-oriented document into blocks (see the module docstring for the shapes it knows)."""
    blocks: list[Block] = []
    section: tuple[str, ...] = root + ("Front Matter",)
    in_front = True
    parent: Block | None = None      # numbered item that lettered items nest under
    decimal_parent: Block | None = None
    current: Block | None = None
    example: list[tuple[int, int]] | None = None
    question_count = 0
    front_count = 0
    text = doc.text

    def extend(target: list[tuple[int, int]], start: int, end: int) -> None:
        start, end = trim(text, start, end)
        if start < end:
            target.append((start, end))

    lines = list(_lines(text))
    for index, (pos, line) in enumerate(lines):
        end = pos + len(line)
        stripped = line.strip()
        following = lines[index + 1][1] if index + 1 < len(lines) else ""
        previous = lines[index - 1][1] if index else ""
        if not stripped or _RULE_LINE.match(line):
            example = None
            if in_front or (current is not None and current.kind == "paragraph"):
                current = None
            continue
        heading = len(stripped) <= _LONGEST_HEADING and (
            _SECTION.match(stripped) or _NUMBERED_SECTION.match(stripped) or (None if _ITEM.match(line) else (
                _CAPS_SECTION.match(stripped) or _titled_line(stripped, previous, following))))
        if heading:
            title = next(g for g in heading.groups() if g)
            section = root + (_section_title(title),)
            in_front, parent, decimal_parent, current, example = False, None, None, None, None
            continue
        item = _ITEM.match(line)
        if item and item.group("example") and current is not None:
            example = []
            current.examples.append((f"example-{len(current.examples) + 1}", example))
            extend(example, pos + item.end(), end)
            continue
        if example is not None:
            extend(example, pos, end)
            continue
        if item and item.group("answer") and current is not None:
            extend(current.pieces, pos, end)
            continue
        if item and not item.group("example") and not item.group("answer"):
            body_start = pos + item.end()
            body = text[body_start:end]
            if item.group("question"):
                question_count += 1
                current = Block(section, f"q{question_count}", "", [], kind="question")
            elif item.group("decimal"):
                label = item.group("decimal")
                under = decimal_parent if (decimal_parent and label[-1].isalpha()
                                           and label.rstrip("abcdefghijklmnopqrstuvwxyz") == decimal_parent.label) else None
                current = Block(section, label, "", [], kind="rule")
                if under is None:
                    decimal_parent = current
            elif item.group("number"):
                named = _NAMED.match(body)
                title = named.group("name").strip() if named else first_sentence(body)
                current = Block(section, item.group("number"), title, [], kind="rule" if named else "clarification",
                                slug=slugify(title) if named else None)
                parent = current if named else None
            else:
                letter = item.group("letter").lower()
                if parent is not None:
                    current = Block(section + (parent.title,), letter, "", [])
                else:
                    current = Block(section, letter, "", [])
            if in_front:
                current.section = root + current.section[len(section):]
                in_front, section = False, root
            blocks.append(current)
            extend(current.pieces, body_start, end)
            continue
        if current is None:
            front_count += 1
            kind = "front-matter" if in_front else "paragraph"
            if stripped.endswith(":") and len(stripped.split()) <= 6:
                label = slugify(stripped)
                current = Block(section, label, stripped.rstrip(":"), [], kind="changelog" if in_front else kind)
            else:
                current = Block(section, str(front_count), first_sentence(stripped), [], kind=kind)
            blocks.append(current)
        extend(current.pieces, pos, end)
    return blocks


# "100. General": a numbered line that only names what follows.
_NUMBERED_SECTION = re.compile(r"^\d{1,4}[.)]\s+(?P<numbered>[A-Z][\w'’&/ -]{1,40}[\w)])$")
_TITLE_LINE = re.compile(r"^(?P<title>[A-Z][\w'’&/ -]{1,58}[\w)])$")


def _titled_line(line: str, previous: str, following: str) -> re.Match | None:
    """A short unpunctuated line between a blank line and text: a plain section heading."""
    if previous.strip() or not following.strip() or _ITEM.match(following) or len(line.split()) > 8:
        return None
    return _TITLE_LINE.match(line)


def _section_title(raw: str) -> str:
    raw = raw.strip(" *#:")
    return raw.title() if raw.isupper() else raw


def section_id_part(section: tuple[str, ...]) -> str:
    return "/".join(section_slug(s) for s in section)
