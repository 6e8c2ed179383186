"""Page furniture: running headers and footers, page numbers, contents pages and front matter.

A document converted from print keeps its page layout in the text: lines repeated on every page (a web
address, a copyright notice, a date and the page number), contents pages, and the cover's title, version
and date lines. None of it is a ruling. `strip_furniture` finds all of it by general means (repetition
across pages, the shape of contents lines, the shape of version and date lines), removes it from the
MappedText and returns what it learned: the page of every character, the contents entries and the
front-matter metadata.

Pages are the document's own when it has them (form feeds, or the page starts a PDF reader gives);
otherwise the furniture itself marks them: a block of lines recurring at page-length intervals is where one
page ends and the next begins.
"""
from __future__ import annotations

import bisect
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date
from itertools import pairwise

from ingest import titles
from ingest.classify import BULLET, KEYWORD_HEADING, KEYWORD_WORDS, WORD_RUN, row_cells, title_case
from ingest.classify.furniture import (
    ADDRESS,
    BULLETED,
    BYLINE,
    CHANGING_NUMBER,
    CONTENTS_HEADING,
    CONTENT_LINE,
    COPYRIGHT,
    DATE_IN_LINE,
    DATE_LINE,
    DATES,
    EDGE_NUMBER,
    ENTRY_NUMBER,
    FIELD,
    GLUED_FOLIO,
    INDEX_ENTRY,
    INDEX_HEADING,
    IN_FORCE,
    LABEL_ALONE,
    LABEL_HEAD,
    LEADER_REVERSED,
    LEADER_TAIL,
    LETTER_OR_MARK,
    LISTED_LEADER,
    MERGED_COLUMN,
    NUMBERED_ENTRY,
    OPENS_UNIT,
    PAGE,
    PAGE_NUMBER,
    PRINT_HEADER,
    SECTION_HEADING,
    SPACED_ENTRY,
    SUBLABELS,
    TIMESTAMP,
    TITLE_VERSION,
    VERSION_LINE,
)
from ingest.text import MappedText, after_each
from model.text import ROW

_MARGIN = 5  # non-blank lines at the top and at the bottom of a page where headers and footers sit
_SENTENCE_WORDS = 5  # a whole sentence of this many words is running text
_HEAD_WORDS = 12  # the most words of a running head that carries the page's number
_TEMPLATE_LINES = 12  # how near two recurring lines with text between stand in a template's sections
_SENTENCE_END = ".!?:;\"”’)]"
_NOTICE = frozenset("©®™")  # the marks of a notice, which a page may repeat whole
_EDGE_SHARE = 0.75  # the least share of pages a sentence opens or closes for it to be the pages' notice

_NOTE_CLOSES = {"[": "]", "(": ")"}
_INDEX_ENTRIES = 5  # the fewest lines pointing to rules or pages under "Index" for it to be an index
_INDEX_GAP = 6  # lines in a row pointing nowhere that end an index
_INDEX_WORDS = 16  # an index's line is never longer (a term, its sub-terms and where they are)
_INDEX_RUN = 12  # the fewest terms in a row, each with its leader and page, in alphabetical order, for an untitled index
_IN_ORDER = 0.8  # the least share of those terms whose first letter follows the one before's in the alphabet
_SPACED_WORDS = 10  # the most words of a contents entry whose page follows after one space
_NOTE_LINES = 6  # the most lines an opening editor's note runs over
_LABEL_WORDS = 4  # the most words of a list's label ("Draw Encounters:")
_TITLE_WORDS = 8  # the most words of a numbered chapter's title ("3. DECK CONSTRUCTION")
_GLUED_WORDS = 3  # the fewest words of a running line glued to a page's last line of text ("MALIFAUX FAQ 2025")
_GLUED_PAGES = 3  # and the fewest pages it is glued on
_GLUED_CHARS = 160  # the most characters of a running line and its page's number
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


@dataclass(frozen=True)
class PageMap:
    """Which page each character of the original document is on."""

    starts: list[int]  # original offsets where pages 2, 3, ... start; empty when the document has no pages
    numbers: list[int | None]  # the number of each page: the one printed on it, else counted from its neighbours

    def page_of(self, offset: int) -> int | None:
        """The page number of the character at `offset` in the original document (None without pages, or
        on a page numbered apart, such as front matter in roman numerals)."""
        if not self.numbers:
            return None
        return self.numbers[bisect.bisect_right(self.starts, offset)]


@dataclass(frozen=True)
class Furniture:
    """A document with its furniture removed, and what the furniture said."""

    text: MappedText
    removed: Counter  # removed line -> count: headers, footers, page numbers by form (numbers as '#'),
    # front-matter version, date and copyright lines as written
    pages: PageMap
    contents: list[tuple[str, str]]  # (section number or "", title) of each contents entry, in reading order
    metadata: dict[str, str]  # "title", "version", "date", "date_iso" when found


def normalise(line: str) -> str:
    """A line's form for comparing it across pages: spaces collapsed, every number written '#'."""
    return " ".join(CHANGING_NUMBER.sub("#", SUBLABELS.sub("", line)).split())


def strip_furniture(doc: MappedText, page_starts: list[int] | None = None) -> Furniture:
    """Remove running headers and footers, page numbers, the contents and the front-matter version, date
    and copyright lines from `doc`.

    `page_starts`: original offsets where pages 2, 3, ... start, when the reader knows them; otherwise form
    feeds in the text are the page breaks, and without those the pages are found from the furniture.
    Returns the cleaned text with the page map, contents entries, metadata and counts of what went.
    """
    doc, glued = _strip_glued_running_lines(doc)
    lines = _lines(doc.text)
    breaks = _explicit_breaks(doc, page_starts)
    layout = _paged_furniture(doc.text, lines, breaks) if breaks else _inferred_furniture(doc.text, lines)
    numbers = _page_numbers(layout)
    dropped = [doc.text[slice(*lines[i])] for i in sorted(layout.drop)] + glued
    starts = sorted(page_starts) if page_starts else [doc.offsets[b] for b in layout.breaks]
    pages = PageMap(starts, numbers) if layout.paged else PageMap([], [])
    doc = _close_up(doc, lines, layout.drop)
    doc, contents = _strip_contents(doc, pages.starts)
    doc = _strip_index(doc)
    # What a contents heading did not lead to (the contents ran past a page break, or has no heading).
    doc, listed = _strip_listed_headings(doc)
    contents += listed
    doc, metadata, front_lines = _strip_front_matter(doc)
    if printed := _print_title(dropped):  # the page's own title, as the browser printed it on every page
        metadata["title"] = printed
    if "date" not in metadata:
        metadata.update(_running_date(dropped) or _in_force_date(doc.text))
    removed = Counter(normalise(line) for line in dropped) + Counter(front_lines)
    return Furniture(doc, removed, pages, contents, metadata)


# --- pages and their furniture ---

@dataclass
class _Layout:
    """Where a document's pages break, and which of its lines are furniture."""

    paged: bool  # whether the document shows pages at all
    breaks: list[int]  # positions in the text where pages 2, 3, ... start
    page_of_line: list[int]  # page index (from 0) of every line
    drop: set[int]  # lines to remove: headers, footers and page numbers
    # page-number candidates: (page, source, "arabic" | "roman", value, the line when it holds nothing else)
    numbered: list[tuple[int, tuple, str, int, int | None]]


def _strip_glued_running_lines(doc: MappedText) -> tuple[MappedText, list[str]]:
    """Remove a running line a conversion glued, with its page's number, to the end of each page's last line of
    text ("…does not matter. 1 MALIFAUX FOURTH EDITION • FAQ • OCTOBER 2025", "Yes. 3 MALIFAUX…"): the same words
    of a title (_GLUED_WORDS or more, most capitalised, no sentence's end) after a number rising line by line, on
    _GLUED_PAGES lines or more. Returns the text and the lines removed, as their pages printed them."""
    found: dict[str, list[tuple[int, int, int]]] = defaultdict(list)  # running line -> (number, start, end)
    for start, end in _lines(doc.text):
        line = doc.text[start:end]
        # a running line is a title's length: only a line's tail is looked at (linear on a line of a megabyte)
        for match in GLUED_FOLIO.finditer(line, max(0, len(line) - _GLUED_CHARS)):
            running = line[match.end():].rstrip()
            words = running.split()
            if len(words) >= _GLUED_WORDS and running[-1] not in ".!?:;," \
                    and sum(word[0].isupper() or not word[0].isalpha() for word in words) * 2 > len(words):
                found[running].append((int(match.group(1)), start + match.start() - 1, start + len(line)))
    edits = sorted(((start, end) for places in found.values() if len(places) >= _GLUED_PAGES
                    and all(a < b for (a, _, _), (b, _, _) in pairwise(places)) for _, start, end in places))
    return doc.edit((start, end, "") for start, end in edits), [doc.text[start + 1:end] for start, end in edits]


def _lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of every line, without its line break; a form feed breaks a line too."""
    spans, pos = [], 0
    for line in text.replace("\f", "\n").split("\n"):
        spans.append((pos, pos + len(line)))
        pos += len(line) + 1
    return spans


def _explicit_breaks(doc: MappedText, page_starts: list[int] | None) -> list[int]:
    """Positions in doc.text where pages 2, 3, ... start: from the reader's page starts, else form feeds."""
    if page_starts:  # pages before the text (it may be a part of the document) keep their place in the count
        return [bisect.bisect_left(doc.offsets, start, 0, len(doc.text)) for start in sorted(page_starts)]
    return after_each(doc.text, "\f")


def _candidate(stripped: str) -> bool:
    """Whether a line could be a header or footer: a short line with words (a notice may run twice as long: "Gracious
    Professionalism® - “Doing your best work while treating others…”") that is not a rule, Q/A or heading, nor
    running text (see `_running_text`), however often it recurs."""
    longest = 2 if _NOTICE.intersection(stripped) else 1
    return (bool(LETTER_OR_MARK.search(stripped)) and len(stripped.split()) <= 20 * longest
            and len(normalise(stripped)) <= 120 * longest
            and not CONTENT_LINE.match(stripped) and not PAGE_NUMBER.match(stripped) and not _running_text(stripped))


def _running_text(stripped: str) -> bool:
    """Is the line the document's own text, which a rulebook may print again and again (each game's "The game is
    played with a button and blinds.", a label over what follows: "New text:"), never a running head: a whole
    sentence or a line of one running on (ending in a comma: a list of names wrapped over a page's top), or a line
    ending in a colon without a number?"""
    if _NOTICE.intersection(stripped):
        return False
    if stripped.endswith(":"):
        return not any(c.isdigit() for c in stripped)  # "PAGE 12:" marks a page
    return len(stripped.split()) >= _SENTENCE_WORDS and stripped[-1] in ".!?,"


def _number_value(token: str) -> tuple[str, int]:
    """("arabic" | "roman", value) of a page-number token."""
    if token.isdigit():
        return "arabic", int(token)
    values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
    total = 0
    for char, following in zip(token.lower(), token.lower()[1:] + " "):
        total += -values[char] if values.get(following, 0) > values[char] else values[char]
    return "roman", total


def _paged_furniture(text: str, lines: list[tuple[int, int]], breaks: list[int]) -> _Layout:
    """Headers and footers of a document with known pages: lines in the top or bottom margin of many pages."""
    page_of_line = [bisect.bisect_right(breaks, start) for start, _ in lines]
    pages = len(breaks) + 1
    filled: list[list[int]] = [[] for _ in range(pages)]
    for index, (start, end) in enumerate(lines):
        if text[start:end].strip():
            filled[page_of_line[index]].append(index)
    # A page's edge: the lines at its top and at its bottom that could be furniture, up to the first that could not
    # (a rule, a heading, running text): what recurs below the game's title on every page is the game's own text.
    notices = _edge_sentences(text, lines, filled)
    margins = [list(dict.fromkeys(_edge(text, lines, page, notices) + _edge(text, lines, page[::-1], notices)))
               for page in filled]
    where: dict[str, list[int]] = defaultdict(list)
    for page in margins:
        for index in page:
            stripped = text[slice(*lines[index])].strip()
            if _candidate(stripped) or stripped in notices:
                where[normalise(stripped)].append(index)
    need = pages if pages <= 3 else max(3, -(-pages // 4))
    drop: set[int] = set()
    stripped_lines = [text[start:end].strip() for start, end in lines]
    printed = Counter(stripped_lines)
    for indices in where.values():
        on = sorted({page_of_line[i] for i in indices})
        if (len(on) >= need or _longest_run(on) >= 3) and not _in_sentences(stripped_lines, indices):
            drop.update(indices[_opening_heading(stripped_lines, indices, printed):])
    heads = _numbered_heads(stripped_lines, filled)
    drop.update(index for _, _, _, _, index in heads)
    numbered = _form_numbers(text, lines, drop, page_of_line) + heads
    numbered += [_number_line(text[slice(*lines[i])], page_of_line[i], i) for page in margins for i in page]
    return _Layout(True, breaks, page_of_line, drop, [found for found in numbered if found])


def _opening_heading(stripped: list[str], indices: list[int], printed: Counter) -> int:
    """1 when the first of a running head's printings (`indices`, in order) is the heading of the chapter it names
    ("5 Factions and Races" opening the chapter's first page, then over each of its pages, as LaTeX sets a book's),
    else 0: a numbered heading, always the same (a folio's number changes), that the document prints nowhere
    but there, over text of its own."""
    first = stripped[indices[0]]
    following = next((stripped[at] for at in range(indices[0] + 1, len(stripped)) if stripped[at]), "")
    label = LABEL_HEAD.match(first)
    title = first[label.end():] if label else ""
    return int(title[:1].isupper() and len(title.split()) <= _HEAD_WORDS and title[-1] not in ".,;:!?"
               and following != first and printed[first] == len(indices)
               and all(stripped[index] == first for index in indices))


def _numbered_heads(stripped: list[str], pages: list[list[int]]) -> list[tuple]:
    """Running heads that name the part a page is in and carry its number ("16 CHAPTER 2. HOLD'EM GAMES" on an
    even page, "2.3. CALIFORNIA LOWBALL 17" on an odd one, as LaTeX sets a book's): a page's first or last line,
    short, opening or ending with a number that runs with the pages' (its difference from the page's place the
    same on at least a third of the pages). Each as a page-number candidate (see `_Layout.numbered`)."""
    found = []
    for page, indices in enumerate(pages):
        for index in dict.fromkeys(indices[:1] + indices[-1:]):
            line = stripped[index]
            if len(line.split()) <= _HEAD_WORDS and not _running_text(line) and not PAGE_NUMBER.match(line):
                found += [(page, int(number), index) for number in EDGE_NUMBER.match(line).groups() if number]
    shifts = Counter(value - page for page, value, _ in found)
    if not shifts:
        return []
    shift, support = shifts.most_common(1)[0]
    if support < max(3, len(pages) // 3):
        return []
    return [(page, ("head",), "arabic", value, index) for page, value, index in found if value - page == shift]


def _edge_sentences(text: str, lines: list[tuple[int, int]], pages: list[list[int]]) -> set[str]:
    """Whole sentences among a page's first or last two lines on nearly every page of four or more (a notice: "Use or
    disclosure of data contained on this sheet is subject to the restrictions on the title page of this
    document."): running text elsewhere, furniture there."""
    if len(pages) < 4:
        return set()
    ends = Counter(stripped for page in pages
                   for stripped in {text[slice(*lines[index])].strip() for index in page[:2] + page[-2:]})
    return {line for line, count in ends.items() if count >= _EDGE_SHARE * len(pages) and _running_text(line)
            and len(line.split()) <= 2 * _HEAD_WORDS}


def _edge(text: str, lines: list[tuple[int, int]], page: list[int], notices: set[str]) -> list[int]:
    """The first of a page's non-blank lines (`page`, from one edge inwards, at most `_MARGIN`) up to the first
    that is no header or footer: neither a line that could be one (`_candidate`, or one of the `notices` every
    page opens or closes with) nor a page number."""
    edge = []
    for index in page[:_MARGIN]:
        stripped = text[slice(*lines[index])].strip()
        if not (_candidate(stripped) or stripped in notices or PAGE_NUMBER.match(stripped)):
            break
        edge.append(index)
    return edge


def _line_before(stripped: list[str], index: int) -> str:
    """The last line before line `index` that is not blank, or ""."""
    return next((stripped[i] for i in range(index - 1, -1, -1) if stripped[i]), "")


def _under_headings(stripped: list[str], indices: list[int]) -> bool:
    """Does a recurring line stand, each time, right under a heading the markup marks ("### Fulfill Your Vow" over
    "Progress Move"): a tag of what each heads, no page's furniture?"""
    return all(_line_before(stripped, index).startswith("#") for index in indices)


def _in_sentences(stripped: list[str], indices: list[int]) -> bool:
    """Are most of a recurring line's occurrences inside the document's sentences: opening a paragraph that runs on
    (after a finished sentence or at the start, not finishing one, the next line carrying it on in lower case:
    "Each player is dealt five cards face down, followed by a round of betting at the"), or carrying on the
    sentence of the line before ("small bet limit.")? A running head carries on no sentence of its own, and a
    line in lower case after a finished one ("posted Jul 27, 2015 | back to top") opens none."""
    def inside(index: int) -> bool:
        before = _line_before(stripped, index)
        after = next((stripped[i] for i in range(index + 1, len(stripped))  # a page's address is no sentence
                      if stripped[i] and not PAGE_NUMBER.match(stripped[i]) and not ADDRESS.search(stripped[i])), "")
        finished = not before or before.endswith(tuple(_SENTENCE_END))
        line = stripped[index]
        if line[:1].islower():
            return not finished and not ADDRESS.search(line)
        return finished and after[:1].islower() and not line.endswith(tuple(_SENTENCE_END + ","))
    return sum(map(inside, indices)) > len(indices) / 2


def _number_line(line: str, page: int, index: int) -> tuple | None:
    """The page-number candidate of a line holding nothing but a number ("12", "- 12 -", "Page 12", "iv")."""
    match = PAGE_NUMBER.match(line.strip())
    return (page, ("line",), *_number_value(match.group(1)), index) if match else None


def _longest_run(pages: list[int]) -> int:
    """The most consecutive page numbers in a sorted list."""
    best = run = 0
    for previous, page in zip([None] + pages, pages):
        run = run + 1 if previous is not None and page == previous + 1 else 1
        best = max(best, run)
    return best


def _form_numbers(text: str, lines: list[tuple[int, int]], furniture: set[int], page_of_line: list[int]) -> list[tuple]:
    """Page-number candidates carried by furniture lines: each number with its place in the line's form."""
    found = []
    for index in furniture:
        stripped = text[slice(*lines[index])].strip()
        for position, token in enumerate(CHANGING_NUMBER.findall(stripped)):
            found.append((page_of_line[index], (normalise(stripped), position), *_number_value(token), None))
    return found


def _inferred_furniture(text: str, lines: list[tuple[int, int]]) -> _Layout:
    """Headers and footers of a document without page breaks: lines recurring at page-length intervals.

    Each block of furniture lines is a page break; a form seen before any text is a header (the break comes
    before it), unless it also follows all the text and something comes before it; others are footers (the
    break comes after them).
    """
    stripped = [text[start:end].strip() for start, end in lines]
    starts = [start for start, _ in lines]
    where: dict[str, list[int]] = defaultdict(list)
    for index, line in enumerate(stripped):
        if _candidate(line):
            where[normalise(line)].append(index)
    forms = []
    for indices in where.values():
        running = len(indices) >= 3 and _running(stripped, indices)  # a page number is evidence enough for less
        if len(indices) >= (3 if running else 4) and _page_like(indices, starts, len(text), loose=running) \
                and not _in_sentences(stripped, indices) and not _under_headings(stripped, indices):
            forms.append(indices)
    templated = _templated(stripped, forms)
    furniture = {index for form, indices in enumerate(forms) if form not in templated for index in indices}
    _add_companions(stripped, where, furniture)
    if not furniture:  # page numbers alone ("pg. 7"), with what recurs beside them ("LRKA – Spring 2018 Rules")
        furniture = _page_number_chain(stripped, starts, len(text))
        _add_companions(stripped, where, furniture)
    if not furniture:
        return _Layout(False, [], [0] * len(lines), set(), [])
    blocks = _blocks(stripped, sorted(furniture))
    content = [i for i, line in enumerate(stripped) if line and i not in furniture]
    leading = {normalise(stripped[i]) for i in blocks[0] if not content or i < content[0]}
    trailing = {normalise(stripped[i]) for i in blocks[-1] if not content or i > content[-1]}
    # A form opening the document is a header even if it also closes it: nothing comes before it for a
    # footer to end, while a header may open an empty last page ("=== PAGE 98 ===" after the last rule).
    opens = not any(stripped[:blocks[0][0]])
    headers = leading if opens else leading - trailing
    first_lines = [0]
    for block in blocks:
        if content and content[0] < block[0] and block[-1] < content[-1]:
            heads = [i for i in block if normalise(stripped[i]) in headers]
            first_lines.append(heads[0] if heads else block[-1] + 1)
    page_of_line = [bisect.bisect_right(first_lines, i) - 1 for i in range(len(lines))]
    numbered = _form_numbers(text, lines, furniture, page_of_line)
    for block in blocks:  # a number beside a block numbers the page of the furniture line it stands beside
        numbered += [_number_line(stripped[i], page_of_line[block[0] if i < block[0] else block[-1]], i)
                     for i in _neighbours(stripped, block)]
    breaks = [lines[i][0] for i in first_lines[1:]]
    return _Layout(True, breaks, page_of_line, furniture, [found for found in numbered if found])


def _templated(stripped: list[str], forms: list[list[int]]) -> set[int]:
    """The forms (by their place in `forms`) most of whose occurrences stand a few lines from another recurring
    line's, with the document's text between them: both are headings of a template its sections repeat ("Forced
    Money" … "Dealing Procedure" under each game), not a page's edges: a page's furniture stands together, or a
    page apart."""
    placed = sorted((index, form) for form, indices in enumerate(forms) for index in indices)
    near: Counter = Counter()
    for (first, one), (second, other) in pairwise(placed):
        if one != other and second - first <= _TEMPLATE_LINES \
                and any(LETTER_OR_MARK.search(line) for line in stripped[first + 1:second]):
            near[one, first] = near[other, second] = 1
    counts = Counter(form for form, _ in near)
    return {form for form, indices in enumerate(forms) if counts[form] > len(indices) / 2}


def _running(stripped: list[str], indices: list[int]) -> bool:
    """Whether the lines carry a number that rises through the document by small steps (a page number)."""
    tokens = [CHANGING_NUMBER.findall(stripped[i]) for i in indices]
    for position in range(min(len(t) for t in tokens)):
        values = [_number_value(t[position])[1] for t in tokens]
        steps = [b - a for a, b in pairwise(values)]
        if sum(1 <= step <= 3 for step in steps) >= 0.8 * len(steps):
            return True
    return False


def _page_like(indices: list[int], starts: list[int], length: int, loose: bool = False) -> bool:
    """Occurrences spaced like pages: over at least half the document, at regular intervals (in lines or in
    characters) of a page's length. `loose` lets page lengths vary twice as much."""
    chars = [starts[i] for i in indices]
    gaps = [b - a for a, b in pairwise(chars)]
    if not 300 <= sorted(gaps)[len(gaps) // 2] <= 15000 or chars[-1] - chars[0] < length / 2:
        return False
    return any(_regular(_but_a_short_last([b - a for a, b in pairwise(unit)]), loose) for unit in (indices, chars))


def _but_a_short_last(gaps: list[int]) -> list[int]:
    """The gaps between a running line's pages, less the last one where it is shorter than the others' median: a
    document's last page often ends early (a three-page print's footers at 1,952, 4,789 and 5,272 of 5,336 characters)."""
    if len(gaps) > 1 and gaps[-1] < sorted(gaps[:-1])[(len(gaps) - 1) // 2]:
        return gaps[:-1]
    return gaps


def _regular(gaps: list[int], loose: bool) -> bool:
    """Whether three gaps in four are near the median gap: within a third of it, or within half and double."""
    median = sorted(gaps)[len(gaps) // 2]
    low, high = (0.5, 2) if loose else (0.65, 1.5)
    return sum(low * median <= gap <= high * median for gap in gaps) >= 0.75 * len(gaps)


def _add_companions(stripped: list[str], where: dict[str, list[int]], furniture: set[int]) -> None:
    """Add lines recurring beside accepted furniture ("©Disney" under a footer) to it. The document's first and
    last lines stand beside a page's edge: a running header opens the first page with no footer above it."""
    first = next((i for i, line in enumerate(stripped) if line), 0)
    last = max((i for i, line in enumerate(stripped) if line), default=0)
    grown = True
    while grown:
        grown = False
        for indices in where.values():
            if len(indices) < 3 or furniture.issuperset(indices):
                continue
            beside = sum(i in (first, last) or any(n in furniture for n in _neighbours(stripped, [i])) for i in indices)
            if beside >= 0.8 * len(indices):
                furniture.update(indices)
                grown = True


def _neighbours(stripped: list[str], block: list[int]) -> list[int]:
    """The nearest non-blank lines before and after a block of lines."""
    found = []
    for index, step in ((block[0] - 1, -1), (block[-1] + 1, 1)):
        while 0 <= index < len(stripped) and not stripped[index]:
            index += step
        if 0 <= index < len(stripped):
            found.append(index)
    return found


def _page_number_chain(stripped: list[str], starts: list[int], length: int) -> set[int]:
    """Lines holding nothing but a number that rises by one page after page, at page-length intervals."""
    best: dict[int, tuple[int, int]] = {}  # value -> (chain length, last line) of the longest chain ending there
    previous: dict[int, int | None] = {}
    for index, line in enumerate(stripped):
        match = PAGE_NUMBER.match(line)
        if not match or not match.group(1).isdigit():
            continue
        value = int(match.group(1))
        links = [(best[value - step][0], best[value - step][1]) for step in (1, 2, 3) if value - step in best
                 and starts[index] - starts[best[value - step][1]] >= 300]
        length_before, line_before = max(links, default=(0, None))
        if length_before + 1 > best.get(value, (0, 0))[0]:
            best[value] = (length_before + 1, index)
            previous[index] = line_before
    if not best:
        return set()
    chain_length, line = max(best.values())
    chain = []
    while line is not None:
        chain.append(line)
        line = previous[line]
    chain.reverse()
    return set(chain) if chain_length >= 4 and _page_like(chain, starts, length, loose=True) else set()


def _blocks(stripped: list[str], furniture: list[int]) -> list[list[int]]:
    """Furniture lines grouped into blocks: lines with nothing but blank lines between them."""
    blocks = [[furniture[0]]]
    for index in furniture[1:]:
        if all(not line for line in stripped[blocks[-1][-1] + 1:index]):
            blocks[-1].append(index)
        else:
            blocks.append([index])
    return blocks


def _page_numbers(layout: _Layout) -> list[int | None]:
    """The number of each page, and (into layout.drop) the page-number lines.

    A source of numbers (the page-number lines, or one number of a running footer's form) counts when most
    of its numbers differ from their page's index by the same amount; arabic numbers are the page numbers,
    roman ones number front matter. A running footer's number that breaks that rhythm on a page still numbers
    it when no other page has it (a cover bound last: "Page1" on the last of four pages). A page without a
    printed number is counted from its neighbours.
    """
    groups: dict[tuple, list[tuple[int, int, int | None]]] = defaultdict(list)
    for page, source, kind, value, line in layout.numbered:
        groups[source, kind].append((page, value, line))
    printed: dict[int, int] = {}
    roman: set[int] = set()
    for (source, kind), found in groups.items():
        shift, support = Counter(value - page for page, value, _ in found).most_common(1)[0]
        spread = _spread(found) if source == ("line",) and kind == "arabic" else None
        if spread is not None and spread[1] > support:
            # a sheet printing two pages (a spread): both its numbers go, and it is numbered by the left one
            for page, value, line in found:
                if value - 2 * page in (spread[0], spread[0] + 1):
                    printed[page] = min(printed.get(page, value), value)
                    if line is not None:
                        layout.drop.add(line)
            continue
        if support < 2 or support < len(found) / 2:
            continue
        values = Counter(value for _, value, _ in found)
        for page, value, line in found:
            if value - page != shift and (source == ("line",) or values[value] > 1
                                          or any(other + shift == value for other, _, _ in found)):
                continue
            if kind == "roman":
                roman.add(page)
            else:
                printed.setdefault(page, value)
            if line is not None:
                layout.drop.add(line)
    if not layout.paged:
        return []
    shifts = Counter(value - page for page, value in printed.items())
    shift = shifts.most_common(1)[0][0] if shifts else 1
    numbers: list[int | None] = []
    for page in range(len(layout.breaks) + 1):
        if page in printed:
            numbers.append(printed[page])
        else:
            numbers.append(page + shift if page not in roman and page + shift >= 1 else None)
    return numbers


def _spread(found: list[tuple[int, int, int | None]]) -> tuple[int, int] | None:
    """Where page numbers lines (page, value, line) are those of spreads, two pages printed on each sheet ("11" and
    "10" atop sheet 5): the shift of the left pages' numbers from twice the sheet's index, and how many numbers
    follow that rhythm (the right pages' one more); None unless most do, on two sheets or more."""
    doubled = Counter(value - 2 * page for page, value, _ in found)
    low = max(doubled, key=lambda shift: (doubled[shift] + doubled[shift + 1], -shift), default=None)
    if low is None or not doubled[low] or not doubled[low + 1]:
        return None
    support = doubled[low] + doubled[low + 1]
    return (low, support) if support >= 4 and support > len(found) / 2 else None


def _close_up(doc: MappedText, lines: list[tuple[int, int]], drop: set[int]) -> MappedText:
    """Remove the dropped lines and the page breaks (form feeds). Where a sentence runs on across a break,
    its two lines meet; elsewhere one blank line stays if there was any."""
    text = doc.text
    kept = [i for i, (start, end) in enumerate(lines) if i not in drop and text[start:end].strip()]
    edits = []
    for before, after in zip([None] + kept, kept + [None]):
        start = 0 if before is None else lines[before][1]
        end = len(text) if after is None else lines[after][0]
        run = range(0 if before is None else before + 1, len(lines) if after is None else after)
        if "\f" not in text[start:end] and not any(i in drop for i in run):
            continue
        if before is None:
            joiner = ""
        elif after is None:
            joiner = "\n"
        else:
            blank = any(i not in drop for i in run)
            ends = text[slice(*lines[before])].strip(), text[slice(*lines[after])].strip()
            joiner = "\n\n" if blank and not (_continues(*ends) or _list_goes_on(*ends)) else "\n"
        edits.append((start, end, joiner))
    return doc.edit(edits)


def _continues(before: str, after: str) -> bool:
    """Whether the text after a page break continues the sentence before it."""
    # "(e.g. any fire…" goes on in a parenthesis; "(a) Any fire…" opens an item
    return (not before.endswith(tuple(_SENTENCE_END)) and bool(after)
            and (after[0].islower() or (after[0].isdigit() and not CONTENT_LINE.match(after))
                 or after[0] in "(“\"‘'" and after[1:2].islower() and after[2:3] != ")"))


def _list_goes_on(before: str, after: str) -> bool:
    """Whether a bulleted list runs on across a page break: a bullet before it, and after it another bullet or the
    list's next label ("• The stockpile grows by their income" / "Construction:" / "• Ships are repaired…")."""
    return bool(BULLET.match(before)) and (bool(BULLET.match(after)) or after.endswith(":")
                                            and len(after.split()) <= _LABEL_WORDS)


_FRONT_PROSE = 3000  # how far into the document its opening prose is looked at


def _in_force_date(text: str) -> dict[str, str]:
    """The date the document's opening prose (before its first section heading) says its rules come into
    force: the document's date, when no line of its front matter gives one."""
    body = SECTION_HEADING.search(text)
    front = text[:min(body.start() if body else len(text), _FRONT_PROSE)]
    match = IN_FORCE.search(front)
    return read_date(match.group("date")) if match else {}


def _print_title(furniture: list[str]) -> str | None:
    """The title a browser printed in its running header, the same on every page: the page's title, after the date
    and time on its line or, as pdftotext sets them apart, on the next."""
    lines = furniture + [f"{first} {second}" for first, second in pairwise(furniture)]
    titles = Counter(found.group("title").strip() for line in lines if (found := PRINT_HEADER.match(line)))
    # a page without a title of its own is printed under its file's name ("vbsf-campaign-rules-a5.html")
    best = [(title, count) for title, count in titles.most_common() if not ADDRESS.search(title)][:1]
    return best[0][0] if best and best[0][1] >= 2 else None


def _running_date(furniture: list[str]) -> dict[str, str]:
    """The date a running header or footer carries ("August 28, 2023  1"): the document's date."""
    for line in furniture:
        match = DATE_IN_LINE.search(line)
        if match:
            return read_date(match.group())
    return {}


# --- contents ---

# A contents without its heading (`_strip_listed_headings`): where it may stand, how many entries make one.
_LISTED_FRONT = 0.3
_MIN_LED, _MIN_LISTED, _LISTED_GAPS, _TITLE_WORDS = 5, 10, 2, 8
_MARKS = "#>*_ \t"  # markdown's heading, quote and emphasis marks around a line
_LISTED_LENGTH = 300  # no contents line is longer (and patterns ending in "$" stay linear on what is)
_TAIL = 120

def _strip_contents(doc: MappedText, page_starts: list[int]) -> tuple[MappedText, list[tuple[str, str]]]:
    """Find each contents heading and the contents lines after it (a rulebook in parts may open each part with
    its own); remove them and return the entries."""
    lines = _lines(doc.text)
    edits, ordered, after = [], [], 0
    for index, (start, end) in enumerate(lines):
        if index < after or not CONTENTS_HEADING.match(doc.text[start:end].strip()):
            continue
        found = _contents_lines(doc.text, lines, index)
        entries = [entry for _, line_entries in found for entry in line_entries]
        if len(entries) < 3:
            continue
        last = found[-1][0]
        end_of_region = lines[last][1] + 1 if last + 1 < len(lines) else lines[last][1]
        edits.append((start, end_of_region, ""))
        ordered += _reading_order(doc, lines, found, page_starts)
        after = last + 1
    return (doc.edit(edits), ordered) if edits else (doc, [])


def _strip_index(doc: MappedText) -> MappedText:
    """Remove each index: a heading "Index" over short lines, at least `_INDEX_ENTRIES` of them pointing to the rules
    or pages a term is at ("Abort Procedure ....28.9", "Apparel 2.G"), to the last such line before a sentence or
    `_INDEX_GAP` lines pointing nowhere (the credits after it). No line of it is a rule, and each names terms a
    question may ask about."""
    lines = _lines(doc.text)
    edits, index = [], 0
    while index < len(lines):
        if not INDEX_HEADING.match(doc.text[slice(*lines[index])].strip()) and not _alphabetical(doc.text, lines, index):
            index += 1
            continue
        last, entries, gap = index, 0, 0
        for later in range(index + 1, len(lines)):
            line = doc.text[slice(*lines[later])].strip()
            if not line:
                continue
            if len(line.split()) > _INDEX_WORDS or line.endswith(".") and len(line.split()) >= _SENTENCE_WORDS:
                break
            if INDEX_ENTRY.search(line):
                entries, gap, last = entries + 1, 0, later
            elif (gap := gap + 1) >= _INDEX_GAP:
                break
        if entries >= _INDEX_ENTRIES:
            edits.append((lines[index][0], lines[last][1], ""))
        index = last + 1
    return doc.edit(edits) if edits else doc


def _alphabetical(text: str, lines: list[tuple[int, int]], heading: int) -> bool:
    """Is line `heading` a short title ("APPENDIX") over `_INDEX_RUN` terms or more, each with a dot leader and a
    page, in alphabetical order by their first letters, a few aside ("#Crossbow.....28" / "AG.....3" / "Action
    Phase.....30" / "Bear.....9"): an index, whatever it is called? A contents or a price list is in no such order."""
    if len(text[slice(*lines[heading])].split()) > 3:
        return False
    initials = []
    for start, end in lines[heading + 1:heading + 1 + 2 * _INDEX_RUN]:
        line = text[start:end].strip()
        if not line:
            continue
        leader = _leader(line)
        if leader is None or not (letters := _letters_of(line[:leader])):
            break
        initials.append(letters[0])
    in_order = sum(a <= b for a, b in zip(initials, initials[1:]))
    return len(initials) >= _INDEX_RUN and in_order >= _IN_ORDER * (len(initials) - 1)


def _contents_lines(text: str, lines: list[tuple[int, int]], heading: int) -> list[tuple[int, list]]:
    """(line index, entries) of the contents lines after a heading, until the body starts: a sentence, more
    than three lines without entries, or an entry the contents already listed."""
    found: list[tuple[int, list]] = []
    seen: set[str] = set()
    worded: set[str] = set()  # the entries' titles by their words alone
    previous: set[str] = set()  # the last entry's numbers
    details = blanks = 0
    for index in range(heading + 1, len(lines)):
        line = text[slice(*lines[index])]
        if ROW.match(line.strip()):  # a contents set as a table ("| 1. Introduction | 2 |"): its cells are columns
            line = "   ".join(row_cells(line))
            if not line:
                continue  # its header and rule rows
        if not line.strip():
            blanks += 1
            if blanks > 5:
                break
            continue
        blanks = 0
        entries = _entries(line)
        if entries == [] and found and PAGE.fullmatch(line.strip()):
            continue  # the entries' page numbers, set apart from them in a column of their own
        if not entries:  # a line of details ("Ready, Exerted, Damaged") under an entry, or the body
            details += 1
            if entries is None or details > 3 or not found:
                break
            continue
        # "SECTION 1: TOURNAMENT DEFINITIONS" after "1. TOURNAMENT DEFINITIONS" heads the body: a number is a
        # number however it is printed. A title listed again with its page is another part's ("Conduct  Page 16"
        # under "Umpires"); without one, it is the body's heading.
        keys = {number or (keyword.group("n") if (keyword := KEYWORD_HEADING.match(title)) else title)
                for _, number, title in entries}
        titles = {title for _, number, title in entries if not number and title in keys}
        paged = _leader(line.rstrip()) is not None or bool(PAGE.fullmatch(FIELD.findall(line)[-1]))
        # "1.00–OBJECTIVES OF THE GAME", its number glued on, after "1.00 —OBJECTIVES OF THE GAME ….. 1": the body
        # heads a part the contents listed, in the same words.
        words = {_letters_of(title) for title in titles}
        # the number of the entry right before under another title is the contents' own slip ("2.1.3 Safety
        # Requirement" / "2.1.3 Technical Specifications"), not the body heading its first part
        again = (keys - titles) & seen
        slip = again and again <= previous and not {_letters_of(title) for _, _, title in entries} & worded
        if again and not slip or (titles & seen or words & worded) and not paged:
            break
        seen |= keys
        previous = keys
        worded |= {_letters_of(title) for _, _, title in entries}
        details = 0
        found.append((index, entries))
    return found


def _letters_of(title: str) -> str:
    """A title's words, numbers and marks left out ("1.00–OBJECTIVES OF THE GAME" is "objectives of the game")."""
    return " ".join("".join(c if c.isalpha() else " " for c in title.casefold()).split())


def _entries(line: str) -> list[tuple[int, str, str]] | None:
    """(column, number, title) of each contents entry on a line (two columns side by side give two); None
    when the line holds what no contents line does (a sentence)."""
    pieces = []
    for field in FIELD.finditer(line):
        cuts = [field.start()] + [field.start() + m.end() for m in MERGED_COLUMN.finditer(field.group())]
        bounds = cuts + [field.end()]
        pieces += [(a, line[a:b].strip()) for a, b in pairwise(bounds)]
    entries: list[tuple[int, str, str]] = []
    paged = True  # whether the last entry has its page number already
    index = 0
    while index < len(pieces):
        column, piece = pieces[index]
        following = pieces[index + 1][1] if index + 1 < len(pieces) else ""
        numbered = NUMBERED_ENTRY.match(piece)
        if PAGE.fullmatch(piece) and not paged:
            paged = True  # the page number of the entry before
        elif ENTRY_NUMBER.fullmatch(piece) and _title(following):
            entries.append((column, piece.rstrip("."), _title(following)))
            index += 1
            paged = False
        elif (spaced := SPACED_ENTRY.match(piece)) and len(spaced.group("title").split()) <= _SPACED_WORDS \
                and spaced.group("title").casefold() not in KEYWORD_WORDS:  # "Chapter 1" heads the body
            entries.append((column, spaced.group("number") or "", _title(spaced.group("title"))))
            paged = True
        elif numbered and (title := _title(numbered.group("title")) or (
                PAGE.fullmatch(following) and _title(numbered.group("title").removesuffix(":").removesuffix(".")))):
            # "1. List of Abbreviations:   2", "3. Definitions.   5": a heading closed by a colon or a stop, listed
            # as it is printed
            entries.append((column, numbered.group("number").rstrip("."), title))
            paged = _leader(piece) is not None
        elif (title := _title(piece.removesuffix(".") if PAGE.fullmatch(following) else piece)) and (
                _leader(piece) is not None or PAGE.fullmatch(following) or piece.isupper() and len(piece.split()) <= 8):
            entries.append((column, "", title))  # "Appendix C: Hand Signals.   45" too
            paged = _leader(piece) is not None
        elif piece.endswith(":") and len(piece.split()) <= _LABEL_WORDS and _title(piece[:-1]) and not following:
            entries.append((column, "", _title(piece[:-1])))  # "SECTION 1:", "Challenge:": a part's label over its entries
        elif len(piece) > 160 or piece.endswith((".", "?", "!", ":")):
            return None
        index += 1
    return entries


def _leader(piece: str) -> int | None:
    """Where the dot leader and page number that end a contents entry start, or None. Read backwards from the
    end they must reach: a search forwards would try a long leader that fails from each of its characters."""
    found = LEADER_REVERSED.match(piece[::-1])
    return len(piece) - found.end() if found else None


def _title(piece: str) -> str:
    """The title of a contents entry without its dot leader and page number ("" when it is no title)."""
    title = piece[:_leader(piece)].strip()
    if not LETTER_OR_MARK.search(title) or len(title.split()) > 15 or title.endswith((".", ",", ";", ":")):
        return ""
    return title


def _strip_listed_headings(doc: MappedText) -> tuple[MappedText, list[tuple[str, str]]]:
    """A contents without a contents heading (or one the lines after it do not follow): a run of lines near the
    document's start that are word for word headings it prints further on, or that end in dot leaders and a page
    number. Removed, with their entries (number, title) in document order."""
    lines = _lines(doc.text)
    text = [doc.text[slice(*bounds)] for bounds in lines]
    keys = [_listed_key(line) for line in text]
    # Where each line's words stand last as a heading prints them: with any number it ends in ("Section 12"),
    # which in a contents line is its page.
    last = {key: index for index, line in enumerate(text) if (key := _listed_key(line, paged=False))}
    runs: list[list[int]] = []
    run: list[int] = []
    listed: set[tuple[str, str]] = set()  # (label, key) of every entry listed so far
    label, misses = "", 0  # the label alone on the line before
    for index in range(int(len(lines) * _LISTED_FRONT)):
        line = text[index]
        if not line.strip():
            continue
        if LABEL_ALONE.match(line):
            label, misses = line.strip(), 0  # a label alone ("3.4."): its title, maybe wrapped, on the next lines
            continue
        key = keys[index]
        head = LABEL_HEAD.match(line.strip(_MARKS))
        entry = ((head.group().strip() if head else label), key)
        label = ""
        if key and entry[0] and entry in listed:  # the body heads its first part as the contents listed it: they ended
            break
        title = LABEL_HEAD.sub("", line.strip(_MARKS)).lstrip("“\"'(")
        if LISTED_LEADER.search(line[-_TAIL:]) or (
                len(key) >= 4 and last.get(key, -1) > index and not BULLETED.match(line) and title[:1].isupper()
                and len(key.split()) <= _TITLE_WORDS and not line.rstrip().endswith((".", ":", ";", ","))):
            run.append(index)
            listed.add(entry)
            misses = 0
        elif run:
            misses += 1
            if misses > _LISTED_GAPS:
                runs.append(run)
                run, misses = [], 0
    runs.append(run)
    kept = [cut for cut in map(_listed_run, [text] * len(runs), runs) if cut]
    if not kept:
        return doc, []
    entries = [(number.rstrip("."), title) for run in kept for i in run
               for number, title in [_listed_entry(text[i])] if title]
    return doc.edit([(lines[_labelled_from(text, run[0])][0], min(lines[_paged_to(text, run[-1])][1] + 1,
                                                                  len(doc.text)), "")
                     for run in kept]), entries


def _paged_to(text: list[str], last: int) -> int:
    """The line a contents run ends on: its last entry's, or, when that entry ends in a dot leader without its page
    number, the last of the page numbers set apart in a column of their own after it."""
    end = last
    if not text[last].rstrip().endswith(". ."):  # a dot leader, its page number apart
        return end
    for index in range(last + 1, len(text)):
        if PAGE.fullmatch(text[index].strip()):
            end = index
        elif text[index].strip():
            break
    return end


def _labelled_from(text: list[str], first: int) -> int:
    """The line a contents run starts on: its first entry's, or the label alone on the line above it, or the
    contents heading over it (past blank lines) that the lines after it did not follow."""
    start = first - 1 if first and LABEL_ALONE.match(text[first - 1]) else first
    above = start - 1
    while above >= 0 and not text[above].strip():
        above -= 1
    return above if above >= 0 and CONTENTS_HEADING.match(text[above].strip()) else start


def _listed_run(text: list[str], run: list[int]) -> list[int]:
    """The run as a contents, or [] when it is none: five entries with dot leaders (ending at the last of them),
    or ten titles without any."""
    led = [i for i in run if LISTED_LEADER.search(text[i][-_TAIL:])]
    if len(led) >= _MIN_LED:
        # past its last dot leader, entries whose page stands apart ("A Technology      22": the appendices)
        end = run.index(led[-1]) + 1
        while end < len(run) and LEADER_TAIL.search(text[run[end]][-_TAIL:]):
            end += 1
        return run[:end]
    return list(run) if len(run) >= _MIN_LISTED and not led else []


def _listed_key(line: str, paged: bool = True) -> str:
    """A line as a contents entry and its heading are compared: its words in lower case, without markup, label,
    and (`paged`) dot leader or page number; "" for a line of no letters or too many words for a heading."""
    if len(line) > _LISTED_LENGTH:
        return ""
    line = line.strip(_MARKS)
    line = LABEL_HEAD.sub("", (LEADER_TAIL.sub("", line) if paged else line).strip())
    words = WORD_RUN.findall(line.casefold())
    return " ".join(words) if words and len(words) <= 12 and LETTER_OR_MARK.search(line) else ""


def _listed_entry(line: str) -> tuple[str, str]:
    """(number, title) of a contents line."""
    line = LEADER_TAIL.sub("", line.strip(_MARKS)).strip()
    head = LABEL_HEAD.match(line)
    return (head.group().strip(), line[head.end():].strip()) if head else ("", line)


def _reading_order(doc: MappedText, lines, found, page_starts: list[int]) -> list[tuple[str, str]]:
    """Entries page by page, the left column before the right one; decimal section numbers in their order
    (an extraction may give the columns interleaved), each unnumbered entry after the one it follows."""
    seconds = [entries[1][0] for _, entries in found if len(entries) > 1]
    right = min(seconds) - 2 if seconds else None
    by_page: dict[int, list[list[tuple[str, str]]]] = defaultdict(lambda: [[], []])
    for index, entries in found:
        page = bisect.bisect_right(page_starts, doc.offsets[lines[index][0]])
        for column, number, title in entries:
            by_page[page][right is not None and column >= right].append((number, title))
    ordered = [entry for page in sorted(by_page) for side in by_page[page] for entry in side]
    if not all(part.isdecimal() for number, _ in ordered if number for part in number.split(".")):
        return ordered
    keys, last = [], ()
    for position, (number, _) in enumerate(ordered):
        last = tuple(int(part) for part in number.split(".")) if number else last
        keys.append((last, position))
    return [entry for _, entry in sorted(zip(keys, ordered))]


# --- front matter ---

def _strip_front_matter(doc: MappedText) -> tuple[MappedText, dict[str, str], list[str]]:
    """Read the title, version and date from the lines before the body; remove the version, date and
    copyright lines. The title stays: it heads the document."""
    lines = _lines(doc.text)
    metadata: dict[str, str] = {}
    drop: list[int] = []
    seen, label, titled = 0, "", 0
    note = _opening_note(doc.text, lines)
    for index, (start, end) in enumerate(lines):
        line = doc.text[start:end].strip().lstrip("#").strip(" *_")
        if not line or index in note:
            continue
        seen += 1
        if seen > 12:
            break
        version, day = VERSION_LINE.match(line), DATE_LINE.match(line)
        if version or day:
            if version:
                metadata.setdefault("version", version.group("version"))
            written = (version or day).group("date")
            if written and "date" not in metadata:
                metadata.update(read_date(written))
            drop.append(index)
        elif (COPYRIGHT.search(line) or TIMESTAMP.search(line)) and len(line) <= 120:
            drop.append(index)  # a notice, or the stamp of when the file was made: neither title nor rules
        elif sum(c.isalnum() for c in line) < 3:  # a scrap a PDF's drawing left ("]@ F"): no title, no body
            continue
        elif "title" in metadata and "subtitle" not in metadata and titled == seen - 1 and _heads(line) \
                and not _continued(doc.text, lines, index) and not _opens_units(doc.text, lines, index):
            metadata["subtitle"] = line  # the cover's next title line: "Jet Lag: The Game" / "Hide and Seek Rules"
        elif "title" not in metadata and _heads(line) and not _continued(doc.text, lines, index) \
                and not _opens_units(doc.text, lines, index):
            if titles.is_section_heading(line):  # "SECTION 7" over the title names its part; "Introduction" no title
                label = line if any(c.isdigit() for c in line) else label
                continue
            metadata["title"] = f"{label} – {line}" if label else line
            titled = seen
            embedded = TITLE_VERSION.search(line)
            if embedded:
                metadata.setdefault("version", embedded.group("version"))
        else:
            break
    removed = [" ".join(doc.text[slice(*lines[i])].split()) for i in drop]
    return doc.edit((lines[i][0], min(lines[i][1] + 1, len(doc.text)), "") for i in drop), metadata, removed


def _opening_note(text: str, lines: list[tuple[int, int]]) -> range:
    """The lines of an editor's note in brackets the document opens with ("[This is the 2021 rulebook, converted
    …]" over the title), closed within a few lines; no title nor body of the document's own."""
    first = next((i for i, (start, end) in enumerate(lines) if text[start:end].strip()), None)
    if first is None or (opener := text[slice(*lines[first])].strip()[:1]) not in _NOTE_CLOSES \
            or COPYRIGHT.search(text[slice(*lines[first])]):
        return range(0)
    for index in range(first, min(first + _NOTE_LINES, len(lines))):
        if text[slice(*lines[index])].rstrip().endswith(_NOTE_CLOSES[opener]):
            return range(first, index + 1)
    return range(0)


def _heads(line: str) -> bool:
    """A title-like line: short, unpunctuated, opening with a capital, not a rule or a contents heading."""
    first = line.split()[0] if line.split() else ""
    # a name may open in lower case where it has capitals inside ("tiMEGA: Rules of Play"), or with figures its
    # letters run on from ("18IrePL"), where a numbered heading's number stands apart ("1 Introduction")
    capital = line[:1].isupper() or (first[:1].isalpha() or first[:1].isdigit() and first[-1:].isalpha()) \
        and any(c.isupper() for c in first)
    return (len(line.split()) <= 15 and len(line) <= 100 and capital and "|" not in line
            and not line.endswith((".", ",", ";", "!", "?")) and not CONTENT_LINE.match(line)
            and not CONTENTS_HEADING.match(line))


def _continued(text: str, lines: list[tuple[int, int]], index: int) -> bool:
    """Whether the next line carries on the same sentence (so this line is no title but a paragraph's start)."""
    following = text[slice(*lines[index + 1])].strip() if index + 1 < len(lines) else ""
    return bool(following) and following[0].islower() and not BYLINE.match(following)  # "written by …" credits


def _opens_units(text: str, lines: list[tuple[int, int]], index: int) -> bool:
    """Whether the next non-blank line opens a question or a numbered rule: then this line is the first
    section's heading ("Old questions" over "Q: …"), not the document's title."""
    following = next((text[slice(*line)].strip() for line in lines[index + 1:] if text[slice(*line)].strip()), "")
    # "ACME TOURNAMENT RULES" over "3. DECK CONSTRUCTION": a numbered chapter's title opens no unit
    number, _, name = following.partition(" ")
    chapter = number[:1].isdigit() and 0 < len(name.split()) <= _TITLE_WORDS and title_case(name) \
        and not name.rstrip().endswith((".", ",", ";", ":", "!", "?"))
    return bool(OPENS_UNIT.match(following)) and not chapter


def read_date(written: str) -> dict[str, str]:
    """{"date": as written, "date_iso": YYYY-MM-DD (YYYY-MM for a month)} of a date string."""
    result = {"date": " ".join(written.split())}
    for pattern, order in DATES:
        match = pattern.fullmatch(written.strip())
        if not match:
            continue
        parts = dict(zip(order, match.groups()))
        month = parts["m"]
        month = _MONTHS.index(month[:3].lower()) + 1 if month[:1].isalpha() else int(month)
        day = int(parts.get("d", 1))
        if order == "mdy" and month > 12:  # 25/12/2024 is day first
            month, day = day, month
        try:
            iso = date(int(parts["y"]), month, day).isoformat()
        except ValueError:
            break
        result["date_iso"] = iso if "d" in parts else iso[:7]
        break
    return result
