"""Long units cut at their parts.

A unit of more than `LONG_WORDS` words that the document sets as more than one paragraph (a term defined over a
list of twenty points, a section whose parts open with run-in sub-headings) answers many questions at once, and
a judge reads past most of it to find the one asked. It is cut where the document starts a part: first at each
paragraph opening with a run-in sub-heading ("Constant Abilities — …", "**Attacking.** …", "Line of Sight: …"),
then, where a part is still long, between its paragraphs and list items, in parts of about equal length, never
between a lead-in ending in a colon, or a question, and what follows it (nor inside the list a lead-in opens, where
both fit in one part), nor inside a table or code block. One paragraph, however
long, is never cut. A unit of any length holding RUN_INS parts that open with run-in sub-headings is cut at them
(an FAQ's errata, "- Lantern: reduced to 2 Ducats." / "- Gondola: …", each cited by the card it amends).

The first part keeps the unit's label, title, kind and id. Each other part is a paragraph: under a term or a rule,
titled by its run-in sub-heading or as the term's or rule's continuation ("Ability (continued)"); beside any other
unit, as the paragraphs of its heading are.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace

from ingest.classify import BULLET, run_in_heading
from ingest.formats import FENCE
from ingest.segment import Block, slugify
from ingest.structure import flow
from model.kinds import HEADER_KINDS, TERM_KINDS
from model.text import ITEM

LONG_WORDS = 300
# A unit of this many parts opening with run-in sub-headings is cut at them however short it is: the parts of a
# section ("Lantern: reduced to 2 Ducats." / "Gondola: reduced to 4 Ducats." / …) each answer their own question.
RUN_INS = 3
# A list's item heads a part only when it is a sentence of this many words or more: "- Gondola: reduced to 4
# Ducats." does, "- Type: basic" is a value.
_ITEM_WORDS = 4
_SENTENCE_ENDS = tuple(".!?)\"”")
# A part's length may pass the even share by this much before a cut is made: a list item is never cut, so
# the parts cannot be equal, and a cut one item later is better than a part of one item at the end.
_SLACK = 1.25
# Units never cut: the document's title and change logs, and a question with its answer (a front matter of many
# paragraphs is cut as any unit is: a summary of changes, the rules a reader found no heading for).
_WHOLE_KINDS = (HEADER_KINDS - {"front-matter"}) | {"question"}
# What ends a line that ends a sentence or leads into what follows: a paragraph may end there.
_ENDINGS = tuple(".!?:;)]\"”’*_")


@dataclass(frozen=True)
class _Paragraph:
    start: int  # where it starts in the cleaned text
    words: int
    head: str  # the run-in sub-heading it opens with, or ""
    leads_in: bool  # it ends in a colon or asks: what follows belongs with it
    item: bool = False  # a list's item


def divided(blocks: list[Block], text: str) -> list[Block]:
    """`blocks` with each long one (over LONG_WORDS words, more than one paragraph of `text`, the cleaned
    document) cut at its parts, as the module says; the others as they are."""
    out: list[Block] = []
    for block in blocks:
        out += _cut(block, text) if block.kind not in _WHOLE_KINDS and block.pieces else [block]
    return out


def _paragraphs(block: Block, text: str) -> list[_Paragraph]:
    """The block's paragraphs as the document sets them: a list item, a table, a code block, or prose after a
    blank line each starts one; a wrapped line carries its paragraph on."""
    starts: list[tuple[int, str, bool]] = []  # (offset, head, a list's item)
    code, table, blank, first, ended, listed = False, False, False, True, True, False
    for start, end in block.pieces:
        blank = True  # pieces are joined as paragraphs (a table's rows may each be one)
        pos = start
        for line in text[start:end].split("\n"):
            stripped = line.strip()
            if stripped == FENCE:
                if not code:
                    starts.append((pos, "", False))
                code = not code
            elif not stripped:
                blank = True
            elif not code:
                row = stripped.startswith("|") and "|" in stripped[1:]  # a row, with or without its closing bar
                # Prose after a blank line carries on a sentence a page break cut ("… natives of" / "Libya.").
                # A number opening a line a sentence wrapped onto ("… in phase" / "9. Lay out…") starts no item.
                item = bool(ITEM.match(stripped)) and (blank or ended or listed)
                if first or item or (row and not table) or (not row and (table or blank and ended)):
                    starts.append((pos, "" if row else _head(line), item))
                table, blank, first, listed = row, False, False, item
                ended = stripped.endswith(_ENDINGS)
            pos += len(line) + 1
    ends = [start for start, _, _ in starts[1:]] + [block.end]
    paragraphs = []
    for (start, head, item), end in zip(starts, ends, strict=True):
        body = "\n".join(text[s:e] for s, e in _pieces(block, start, end))
        if item and head and (len(body.split()) < _ITEM_WORDS or not body.rstrip().endswith(_SENTENCE_ENDS)):
            head = ""  # a list of values ("- Type: basic" / "- Path: rogue"), no parts
        # A lead-in ("… as follows:") and a question keep what answers them in their part.
        # Words as the ruling will store them (structure.flow), which is what a reader counts.
        paragraphs.append(_Paragraph(start, len(flow(body).split()), head, body.rstrip().endswith((":", "?")), item))
    # a name said again is a field of each part ("- Trigger: When you deal 6+ damage." under each stance), none's own
    said = Counter(paragraph.head for paragraph in paragraphs if paragraph.head)
    return [replace(p, head="") if said[p.head] > 1 else p for p in paragraphs]


def _head(line: str) -> str:
    """The run-in sub-heading a paragraph's line opens with, after its bullet if a list's item at the margin opens
    with one ("- **Lantern**: reduced to 2 Ducats."); an item indented under another is part of it."""
    if line[:1].isspace():
        return ""
    bullet = BULLET.match(line)
    return run_in_heading(line[bullet.end():], listed=True) if bullet else run_in_heading(line)


def _cut(block: Block, text: str) -> list[Block]:
    # most units: no paragraph to read (a short unit of fewer lines than RUN_INS cannot hold that many parts)
    if sum(len(text[start:end].split()) for start, end in block.pieces) <= LONG_WORDS and \
            sum(text[start:end].count("\n") + 1 for start, end in block.pieces) < RUN_INS:
        return [block]
    paragraphs = _paragraphs(block, text)
    words = sum(p.words for p in paragraphs)
    if len(paragraphs) < 2 or words <= LONG_WORDS and sum(bool(p.head) for p in paragraphs) < RUN_INS:
        return [block]
    groups: list[list[_Paragraph]] = []
    for paragraph in paragraphs:  # at each run-in sub-heading
        if paragraph.head or not groups:
            groups.append([paragraph])
        else:
            groups[-1].append(paragraph)
    parts = [part for group in groups for part in _even(group)]
    if len(parts) < 2:
        return [block]
    # A term's or a rule's parts sit under it, where refs count them ("Ability ¶2", "1.2.1"); the parts of any other
    # unit are paragraphs beside it, counted under its heading.
    under = block.kind in TERM_KINDS or block.kind == "rule"
    titled = under and block.kind != "rule"  # a rule's parts are placed under it by its label, a term's by its title
    section = block.section + (block.title,) if titled else block.section
    id_section = block.id_section + (block.title,) if titled and block.id_section is not None else block.id_section
    own = block.slug or slugify(block.label)
    out = [replace(block, pieces=_pieces(block, parts[0][0].start, parts[1][0].start))]
    for n, part in enumerate(parts[1:], start=2):
        end = parts[n][0].start if n < len(parts) else block.end
        head = part[0].head
        title = head or (f"{block.title} (continued)" if under and block.title else "")
        # a front matter's parts are its own, numbered under it ("front 5.2")
        front = block.kind == "front-matter"
        out.append(Block(section, f"{block.label}.{n}" if front else head or f"part-{n}", title,
                         _pieces(block, part[0].start, end), kind="front-matter" if front else "paragraph",
                         slug=slugify(head) if head else f"part-{n}" if titled else f"{own}-part-{n}",
                         id_section=id_section, parent=block.label if under else None))
    return out


def _even(group: list[_Paragraph]) -> list[list[_Paragraph]]:
    """A run of paragraphs in parts of about equal length, none over LONG_WORDS words where a cut can help; a
    lead-in or a question starts the part that answers it, never ends the part before; a lead-in and the list it
    opens, where both fit in a part, are never cut apart (a cut inside the list goes before the lead-in)."""
    words = sum(p.words for p in group)
    if words <= LONG_WORDS:
        return [group]
    limit = min(LONG_WORDS, math.ceil(words / math.ceil(words / LONG_WORDS) * _SLACK))
    led: dict[int, int] = {}  # each item after the first of a list that fits with its lead-in -> the lead-in
    for lead, paragraph in enumerate(group[:-1]):
        last = lead + 1
        if paragraph.leads_in and group[last].item:
            while last + 1 < len(group) and group[last + 1].item:
                last += 1
            if sum(p.words for p in group[lead:last + 1]) <= limit:
                led.update(dict.fromkeys(range(lead + 2, last + 1), lead))
    cuts = [0]  # where each part starts
    size = 0
    for n, paragraph in enumerate(group):
        if n > cuts[-1] and size + paragraph.words > limit:
            if n in led:
                if led[n] > cuts[-1]:
                    cuts.append(led[n])
            elif not group[n - 1].leads_in:
                cuts.append(n)
            # A lead-in goes with what it leads into: it starts the next part, unless nothing else is in this one.
            elif n - 1 > cuts[-1] and not group[n - 2].leads_in:
                cuts.append(n - 1)
            size = sum(p.words for p in group[cuts[-1]:n])
        size += paragraph.words
    return [group[start:end] for start, end in zip(cuts, [*cuts[1:], len(group)], strict=True)]


def _pieces(block: Block, start: int, end: int) -> list[tuple[int, int]]:
    """The block's pieces clipped to [start, end)."""
    return [(max(s, start), min(e, end)) for s, e in block.pieces if s < end and e > start]
