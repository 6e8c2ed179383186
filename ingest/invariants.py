"""Invariants every cut keeps, on any document: each checked against the document itself (its text as read,
before cleaning) and reported by name, with a count and examples, by the structure audit on every add.

A count is never zero by luck of a threshold: each invariant names units a reader would call wrong. They are:

- furniture: no running header, footer or page number as a ruling or heading, or glued to a ruling's text;
- contents: no line of a contents page as a ruling or heading;
- headings: no table row, figure caption or sentence fragment as a heading;
- long: no unit over 300 words unless it is one paragraph of the document (of its stored text and of the
  document over its lines);
- run-ins: a section whose parts open with run-in sub-headings ("**Relays:** You have…", "<b>Disarming.</b>") is
  cut at them: no unit holds three of its parts;
- nesting: a unit the document labels within its parent ("c." under "6." under "3.2") is cited under it;
- counters: no bare count or place as a ref, nor a place telling apart two units given one label (the document's
  label, else the heading the unit sits under, else its own title);
- words: the words as the document has them (no join of words it separates, no split of words it joins);
- title: the title as the document prints it, naming the game, never the file's name;
- questions: a question the document asks is typed as a question, never run on into another unit;
- text: every line of the text the rulings were cut from is in a ruling (its text, title, section or examples).

Every pattern it reads by (`ingest.classify.checks`) is linear (bounded or possessive repetitions): documents run to thousands of rules and some are
hostile.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise

from ingest import links, titles
from ingest.classify import EXTENSION, LABEL_PARTS, LETTERS, WORD_RUN, column_names, row_cells
from ingest.classify.checks import (
    ASKED,
    BLOCK_TAG,
    BROKEN_AT_LINE,
    CAPTION_LINE,
    CITING_LINE,
    COUNTED_LABEL,
    DIGITS,
    GLUED_PAGE,
    IN_PARTS,
    LEADERS,
    LEADER_RUN,
    LIST_ITEM,
    PAGE_ALONE,
    RELATIVE,
    RULE_PART,
    RUN_IN_LABEL,
    SENTENCE_ENDS_INSIDE,
    SPLIT_AT_HYPHEN,
    TAG,
    WORDS_APART,
)
from ingest.parts import LONG_WORDS, RUN_INS
from ingest.refs import counted
from ingest.segment import asks, rhetorical
from model.kinds import HEADER_KINDS, TERM_KINDS
from model.text import ROW

EXAMPLES = 5
# A line that recurs this often, spread over most of a document, is its furniture (headers and footers repeat
# on every page; a rule's phrase does not recur as a whole line that often).
_RECURS = 4
_SPREAD = 0.5
_MAX_FURNITURE_WORDS = 14
_GAP_SPREAD = 0.5
# Where a text keeps its pages ("\f" between them), a running line stands among a page's first or last lines.
_EDGE = 3

_MARKS = "#>*_ \t-"  # markdown's heading, quote, emphasis and bullet marks around a line
_TAIL = 120
_RUN_IN_WORDS = 6  # a label longer than this is a bold sentence, no sub-heading
_RUN_INS_READ = 50  # the run-in sub-headings of a unit looked for in its text
_SMALL_END = frozenset({"a", "an", "and", "as", "at", "by", "for", "from", "if", "in", "is", "of", "on", "or", "the",
                        "that", "to", "with", "which", "when", "are", "be", "but", "its", "their"})
_HEADING_WORDS = 16
_SENTENCE_WORDS = 8  # a heading this long ending in a stop, its words in lower case, is a sentence
_EXAMPLE_WORDS = 3 * LONG_WORDS
# Text no ruling holds: runs of this many words of the cut text, each lost when at most `_HELD_SHARE` of its runs
# of `_GRAM` words are in the rulings (a passage a ruling holds, its words joined anew at its ends, keeps most).
_LOST_WORDS = 12
_HELD_SHARE = 0.0
_GRAM = 4  # three words are common enough in a long rulebook to be held by chance
_COUNTED_KINDS = frozenset({"paragraph", "question"})  # their numbers are counts the reader made, not labels
_SUSPENDED = frozenset({"and", "or", "to", "nor", "und"})  # "pre- and post-game" suspends the hyphen


@dataclass(frozen=True)
class Cut:
    """What an invariant is checked on: the document's text as read (`original`), its rulings, each ruling's
    ref after the source's abbreviation (`refs`), the title given, the file's name and the game's name."""

    original: str
    rulings: Sequence
    refs: dict[str, str]
    title: str = ""
    file_name: str = ""
    game_name: str = ""
    cleaned: str = ""  # the text the rulings were cut from (furniture and contents gone), when known

    @cached_property
    def lines(self) -> list[str]:
        """The document's lines as read, split once for every invariant that reads a ruling's lines of the file."""
        return self.original.split("\n")


NAMES = ("furniture", "contents", "headings", "long", "run-ins", "nesting", "counters", "words", "title", "questions",
         "text")


def check(cut: Cut) -> list[dict]:
    """Each invariant on `cut`: {"name", "what" (the rule), "count" (units breaking it), "examples"}, in the
    module docstring's order."""
    furniture = _furniture_lines(cut)
    return [_result(name, what, found) for name, what, found in (
        ("furniture", "running headers, footers or page numbers in rulings or headings", _furniture(cut, furniture)),
        ("contents", "contents-page lines as rulings or headings", _contents(cut)),
        ("headings", "table rows, captions or sentence fragments as headings", _headings(cut)),
        ("long", f"units over {LONG_WORDS} words that are more than one paragraph", _long(cut)),
        ("run-ins", f"units holding {RUN_INS} or more parts that open with a run-in sub-heading", _run_ins(cut)),
        ("nesting", "labels cited at another nesting level than the document's", _nesting(cut)),
        ("counters", "bare counts or places as refs", _counters(cut)),
        ("words", "words joined or split against the document's text", _words(cut)),
        ("title", "a title that is the file's name or does not name the game", _title(cut)),
        ("questions", "questions the document asks, not typed as questions", _questions(cut)),
        ("text", "lines of the document's text in no ruling", _lost(cut)),
    )]


def _result(name: str, what: str, found: list[str]) -> dict:
    return {"name": name, "what": what, "count": len(found), "examples": found[:EXAMPLES]}


def _units(cut: Cut) -> list:
    return [r for r in cut.rulings if r.kind not in HEADER_KINDS]


def _shape(line: str) -> str:
    """A line as furniture repeats it: markup and spaces trimmed, every number one mark (the page changes)."""
    # str.strip, not a pattern anchored at the end: that would retry at every space of a 350k-space line.
    return DIGITS.sub("#", " ".join(line.strip(_MARKS).split())).casefold()


def _furniture_lines(cut: Cut) -> set[str]:
    """The shapes of lines that recur as a whole line at least `_RECURS` times, spread over at least half the
    document, at its pages' edges where it keeps its pages: running headers and footers, whatever the format
    kept them as."""
    where: dict[str, list[int]] = defaultdict(list)
    lines = cut.lines
    for number, line in enumerate(lines):
        shape = _shape(line)
        if shape and len(shape.split()) <= _MAX_FURNITURE_WORDS and LETTERS.search(shape):
            where[shape].append(number)
    # A passage each rule repeats recurs at about a page's interval too, but away from the pages' edges.
    edges = _page_edges(cut.original) if "\f" in cut.original else None
    return {shape for shape, at in where.items()
            if (len(at) >= _RECURS or len(at) == _RECURS - 1 and _counts_pages([lines[n] for n in at]))
            and _regular(at, _SPREAD * len(lines))
            and len(LETTERS.findall(shape)) >= 2 and not CITING_LINE.match(shape)
            and (edges is None or 2 * sum(n in edges for n in at) >= len(at))}


def _counts_pages(lines: list[str]) -> bool:
    """Do the lines carry a number that counts up by one from line to line, as a short print's "1/3", "2/3",
    "3/3" do (evidence enough for a running line seen only once a page)?"""
    numbers = [DIGITS.findall(line) for line in lines]
    return any(all(int(b[place]) - int(a[place]) == 1 for a, b in pairwise(numbers))
               for place in range(min(map(len, numbers))))


def _page_edges(original: str) -> set[int]:
    """The numbers of the lines among each page's first or last `_EDGE` lines that are not blank, in a text
    whose pages a form feed separates."""
    edges, first = set(), 0
    for page in original.split("\f"):
        rows = page.split("\n")
        body = [first + n for n, row in enumerate(rows) if row.strip()]
        edges.update(body[:_EDGE] + body[-_EDGE:])
        first += len(rows) - 1  # the next page starts on the line this one ends on
    return edges


def _regular(at: list[int], spread: float) -> bool:
    """Do the lines recur at about one interval (a page's length) over `spread` lines at least, as furniture
    does and a phrase of the rules does not? The middle half of the gaps stay within `_GAP_SPREAD` of their
    mean (a missing page doubles one gap)."""
    gaps = sorted(b - a for a, b in pairwise(at))
    middle = gaps[len(gaps) // 4:len(gaps) - len(gaps) // 4] or gaps
    mean = sum(middle) / len(middle)
    return mean > 0 and len(at) * mean >= spread and max(abs(g - mean) for g in middle) <= _GAP_SPREAD * mean


def _furniture(cut: Cut, furniture: set[str]) -> list[str]:
    found = []
    for ruling in cut.rulings:
        heading = ruling.section.rpartition(" > ")[2]
        pieces = [_shape(p) for p in ruling.text.split("\n")] + [_shape(heading)]
        text = " ".join(pieces)
        hit = next((f for f in furniture if f in text and (len(f.split()) >= 3 or "#" in f)), None)
        if hit or PAGE_ALONE.match(ruling.text.strip()) or GLUED_PAGE.search(ruling.text.rstrip()[-40:]):
            found.append(f"{cut.refs.get(ruling.id, ruling.id)}: {(hit or ruling.text.strip()[-40:])!r}")
    return found


def _entry(line: str) -> str:
    """A heading or a contents entry as the two are compared: letters and digits only, in lower case."""
    return "".join(c for c in line.casefold() if c.isalnum())


def _contents(cut: Cut) -> list[str]:
    """Rulings and headings that are lines of a contents page: with dot leaders before a page number, or a
    short line that is word for word a heading the document prints further on."""
    later: dict[str, int] = {}  # each heading -> the last position it heads a ruling at
    for ruling in cut.rulings:
        for part in ruling.section.split(" > ")[1:]:
            later[_entry(part)] = ruling.position
    found = []
    for ruling in cut.rulings:
        heading = ruling.section.rpartition(" > ")[2]
        lines = [*ruling.text.split("\n"), heading, ruling.title]
        hit = next((line for line in lines if LEADERS.search(line[-_TAIL:]) or _leader_inside(line)
                    or _listed_row(line, later, ruling.position)), None)
        short = ruling.text if len(ruling.text.split()) <= _HEADING_WORDS else ""
        if hit is None and short and _entry(short) and later.get(_entry(short), -1) > ruling.position \
                and ruling.section.rpartition(" > ")[2] != short:
            hit = short
        if hit:
            found.append(f"{cut.refs.get(ruling.id, ruling.id)}: {hit.strip()[:60]!r}")
    return found


def _listed_row(line: str, later: dict[str, int], position: int) -> bool:
    """Is `line` a contents entry set as a table's row: a heading the document prints further on, its page after it
    ("| 1. Introduction | 2 |")?"""
    cells = row_cells(line) if ROW.match(line) else []
    return len(cells) >= 2 and PAGE_ALONE.fullmatch(cells[-1]) is not None and later.get(_entry(cells[0]), -1) > position


def _leader_inside(line: str) -> bool:
    """Does a dot leader run into the line's text before a page number, as a contents page's lines run together
    keep theirs ("…not here. . . . 13 2 Maybe…")? Each run of dots is read once (a pattern searched from every
    dot of a long run would read it again from each)."""
    following = {run: line.find(run) for run in (". . . .", "....")}  # where each next starts, found moving on
    at = 0
    while True:
        for run, found in following.items():
            if 0 <= found < at:
                following[run] = line.find(run, at)
        at = min((found for found in following.values() if found >= 0), default=-1)
        if at < 0:
            return False
        while at < len(line) and line[at] in ". \t":
            at += 1
        if line[at:at + 1].isdigit():
            return True


def _fragment(heading: str) -> bool:
    """A heading no document prints: a table row, a figure's caption or an editor's note in brackets, or a piece of a
    sentence (opening in lower case, ending on a small word, a comma or a hyphen, too long for a heading, ending a
    sentence inside it or keeping a bold mark)."""
    words = heading.split()
    if not words:
        return False
    bare = heading.strip(" *_#")
    return (not any(c.isalpha() for c in bare) or bare[:1] in ",.;:)]" or bare[:1] == "[" and bare[-1:] == "]"
            or "|" in heading or "\t" in heading or "   " in bare or bool(CAPTION_LINE.match(bare)) or column_names(bare)
            or "**" in bare or bool(SENTENCE_ENDS_INSIDE.search(bare))
            or bare[:1].islower() and not RELATIVE.match(words[0])
            or bare.endswith((",", ";", "-", "–")) or _ends_on_small_word(words)
            or len(words) > _HEADING_WORDS)


def _sentence(heading: str) -> bool:
    """Is a heading a whole sentence in sentence case ("Penalty can be negated if using a crossbow from cover."):
    a note or a rule's text set apart, never a name a document heads a section with? A rule's part ("B3.B For
    PMFs and ejections, play stops…") opens with its label."""
    words = heading.strip(" *_#").split()
    capitals = sum(word[:1].isupper() for word in words)
    return len(words) >= _SENTENCE_WORDS and words[-1].endswith(".") and capitals * 3 < len(words) \
        and not any(c.isdigit() for c in words[0])


def _ends_on_small_word(words: list[str]) -> bool:
    """Does a heading end on a small word as a sentence cut short does ("History of the", "If an")? Title case
    capitalises a heading's last word whatever it is ("Attach To", "… You Weren't Looking For"); capitals
    throughout ("HISTORY OF THE") or small words only ("If An") tell nothing of it."""
    last = words[-1]
    titled = last[:1].isupper() and last[1:].islower() and any(w.casefold() not in _SMALL_END for w in words)
    return last.casefold() in _SMALL_END and not titled


def _headings(cut: Cut) -> list[str]:
    seen: dict[str, None] = {}
    # The part every section opens with is the source's root (the manifest's section, or the title heading over
    # the whole document); a document added with none opens its sections with its own first headings.
    firsts = {ruling.section.split(" > ", 1)[0] for ruling in cut.rulings}
    skip = 1 if len(firsts) == 1 else 0
    for ruling in cut.rulings:
        # A subrule's section ends with its rule ("… > 1.4.2 If a card…"): a rule, no heading.
        for part in ruling.section.split(" > ")[skip:]:
            if part not in seen and not RULE_PART.match(part) and (_fragment(part) or _sentence(part)):
                seen[part] = None
    # A front matter's lines stand as headings of the document: none may be a scrap of a sentence.
    scraps = [f"{cut.refs.get(r.id, r.id)}: {r.text[:60]!r}" for r in cut.rulings
              if r.kind == "title" and len(r.text.split()) <= _HEADING_WORDS and _fragment(r.text)]
    return [f"{part[:60]!r}" for part in seen] + scraps


def _paragraph_words(text: str) -> list[int]:
    """The words of each paragraph of a stored text: a line each, but a table's rows are one paragraph."""
    counts, table = [], False
    for line in text.split("\n"):
        row = line.startswith("|")
        if row and table:
            counts[-1] += len(line.split())
        else:
            counts.append(len(line.split()))
        table = row
    return counts


def _one_line(ruling) -> bool:
    """Does the ruling stand on one line of its file (a document flattened onto a line, whose tables a reader
    set out as rows): one paragraph of the document, however a reader lays it out?"""
    citation = getattr(ruling, "citation", None)
    return citation is not None and citation.file_line_start == citation.file_line_end


def _cited_lines(ruling, count: int) -> tuple[int, int] | None:
    """The first and last lines of its file (of `count`) that the ruling's citation gives, or None where it gives
    none within them."""
    citation = getattr(ruling, "citation", None)
    if citation is None or not 0 < citation.file_line_start <= citation.file_line_end <= count:
        return None
    return citation.file_line_start, citation.file_line_end


def _document_paragraph_words(lines: list[str], ruling) -> int | None:
    """Words in the longest paragraph of the document over the ruling's lines of its file (`lines`, the
    document's text as read): paragraphs end at blank lines, at a list's items opening lines (a bylaw's "A." /
    "1." / "a." / "(i)" that a reader ran into one paragraph are many) and at the block tags of HTML (a paragraph,
    list item, heading, division or line break; a table's rows stay one paragraph, as in the stored text). None
    where the ruling gives no lines of the file."""
    span = _cited_lines(ruling, len(lines))
    if span is None:
        return None
    longest = words = 0
    for line in lines[span[0] - 1:span[1]]:
        if LIST_ITEM.match(line):
            longest, words = max(longest, words), 0
        for at, piece in enumerate(BLOCK_TAG.split(line)):
            if at or not piece.strip(" \t\r"):  # a block tag or a blank line parts paragraphs
                longest, words = max(longest, words), 0
            words += _words_in(TAG.sub(" ", piece))
    return max(longest, words)


def _words_in(text: str) -> int:
    """The words of `text`: runs of non-spaces holding a letter or digit (a table's "|" is none)."""
    return sum(1 for token in text.split() if any(c.isalnum() or c == "_" for c in token))


def _long(cut: Cut) -> list[str]:
    """Units over LONG_WORDS words that are more than one paragraph: of the stored text (a line each, a table
    one), or of the document over the unit's lines (a reader that ran a file's paragraphs or an index's entries
    into one line does not make them one paragraph)."""
    lines = cut.lines
    # an example running on over the rules after it (a PDF's "Example:" without a blank line to end it); a
    # comprehensive rulebook's longest worked examples run to 400 words
    found = [f"{cut.refs.get(ruling.id, ruling.id)} {example.label}" for ruling in _units(cut)
             for example in getattr(ruling, "examples", ()) if _words_in(example.text) > _EXAMPLE_WORDS]
    # a front matter too: the rules a reader found no heading for end up there (a site's whole game in one unit)
    for ruling in [*_units(cut), *(r for r in cut.rulings if r.kind == "front-matter")]:
        if len(ruling.text.split()) <= LONG_WORDS or _one_line(ruling):
            continue
        if max(_paragraph_words(ruling.text)) <= LONG_WORDS:
            found.append(cut.refs.get(ruling.id, ruling.id))
        elif _words_in(ruling.text) > LONG_WORDS and (document := _document_paragraph_words(lines, ruling)) \
                is not None and document <= LONG_WORDS:
            found.append(cut.refs.get(ruling.id, ruling.id))
    return found


def _run_ins(cut: Cut) -> list[str]:
    """Units whose lines of the document hold RUN_INS or more distinct run-in sub-headings at one margin: the parts
    of a section (bulleted or not) left in one unit, none cited by its label. A glossary entry's senses are its
    own."""
    found = []
    for ruling in _units(cut):
        span = _cited_lines(ruling, len(cut.lines))
        if ruling.kind in TERM_KINDS or span is None or span[0] == span[1]:
            continue
        heads = [(len(line) - len(line.lstrip()), match.group("label").strip().casefold())
                 for line in cut.lines[span[0] - 1:span[1]]
                 if (match := RUN_IN_LABEL.match(line)) and len(match.group("label").split()) <= _RUN_IN_WORDS]
        # at the margin of the unit's outermost: a list indented under one of its parts is that part's
        margin = min((indent for indent, _ in heads), default=0)
        text = ruling.text.casefold()  # its lines span the parts split off it, when its text resumes after them
        labels: set[str] = set()
        for indent, label in heads[:_RUN_INS_READ]:  # a few are proof enough; each is looked for in the text
            if indent == margin and label not in labels and label in text:
                labels.add(label)
        if len(labels) >= RUN_INS:
            found.append(f"{cut.refs.get(ruling.id, ruling.id)}: {', '.join(sorted(labels)[:3])}")
    return found


def _parts(label: str) -> list[str]:
    return LABEL_PARTS.findall(label.casefold())


def _nesting(cut: Cut) -> list[str]:
    """Units whose label is relative to their parent's ("c.", "ii)", "(3)") but whose ref is not the parent's
    ref followed by it: item c. of item 6. of 3.2 is cited 3.2.6.c, never 4.5c."""
    by_id = {r.id: r for r in cut.rulings}
    found = []
    for ruling in _units(cut):
        if ruling.kind in _COUNTED_KINDS | TERM_KINDS or not ruling.parent or ruling.parent not in by_id \
                or not RELATIVE.match(ruling.label.strip()):
            continue
        ref, above = cut.refs.get(ruling.id, ""), _parts(cut.refs.get(ruling.parent, ""))
        own, label = _parts(ref), _parts(ruling.label)
        if own != above + label and own[-len(label):] == label and not _clipped_under(ref, label, above):
            found.append(f"{cut.refs.get(ruling.id)} under {cut.refs.get(ruling.parent)}")
    return found + _unattached(cut)


def _unattached(cut: Cut) -> list[str]:
    """Items with a label relative to a rule's ("1.", "b)") that stand, under no parent, between two rules
    numbered in parts as siblings ("3.1" … "3.2", in the same section): the document prints them inside the
    first, so they are cited under it (3.1.1, 3.1.1.b, or a heading naming it: "Rule 3.1 Comment… 1"), never as
    the document's own "1"."""
    units = sorted(_units(cut), key=lambda r: r.position)
    found, rule = [], None  # the last rule numbered in parts, and the items since it (their ids)
    items: list = []
    ids: set[str] = set()
    for ruling in units:
        label = ruling.label.strip()
        if IN_PARTS.match(label):
            if rule is not None and ruling.section == rule.section and _parts(label)[:-1] == _parts(rule.label)[:-1]:
                above = _parts(cut.refs.get(rule.id, ""))
                found += [f"{cut.refs.get(item.id)} within {cut.refs.get(rule.id)}" for item in items
                          if not _holds(_parts(cut.refs.get(item.id, "")), above)]
            rule, items, ids = ruling, [], set()
        elif rule is not None and RELATIVE.match(label) and ruling.kind not in _COUNTED_KINDS | TERM_KINDS \
                and (not ruling.parent or ruling.parent == rule.id or ruling.parent in ids):
            items.append(ruling)
            ids.add(ruling.id)
    return found


def _holds(parts: list[str], run: list[str]) -> bool:
    """Do `parts` hold `run` whole, in order ("Rule 5.10(m)(1)… A" names 5.10)?"""
    return any(parts[at:at + len(run)] == run for at in range(len(parts) - len(run) + 1))


def _clipped_under(ref: str, label: list[str], above: list[str]) -> bool:
    """Is `ref` its parent's ref (parts `above`) cut at a whole word to leave room for the `label` within a
    ref's length, the cut marked "…" ("Initiating… 1" under "Initiating Abilities/Deploying Cards"): the level
    the document gives it, in as many words as fit?"""
    head, _, tail = ref.rstrip().rpartition(" ")
    kept = _parts(head)
    return head.endswith("…") and bool(kept) and above[:len(kept)] == kept and _parts(tail) == label


def _counters(cut: Cut) -> list[str]:
    """Refs that are a count the reader made ("12", "#607"), not a number the document prints: a place in the
    source is always one, alone or telling apart two units given one label ("1.1 #2": the document prints the
    label once at each of two levels, or once where the reader put it twice); a number is one when the unit is
    counted (refs.counted)."""
    counts = {r.id for r in counted(list(cut.rulings))}
    return [cut.refs[r.id] for r in _units(cut) if _place(cut.refs.get(r.id, "").rpartition(" ")[2])
            or r.id in counts and COUNTED_LABEL.match(cut.refs.get(r.id, ""))]


def _place(word: str) -> bool:
    """Is a ref's last word a place in the source ("#607"), not a symbol a name ends with ("Willpower #")?"""
    return word.startswith("#") and word[1:].isdigit()


def _tokens(text: str) -> Counter:
    return Counter(w.casefold() for w in LETTERS.findall(text))


def _words(cut: Cut) -> list[str]:
    """Words of the rulings the document never writes whole though it writes their two halves side by side
    ("strikeout" where it has "strike out"), and words split at a hyphen the document writes unbroken
    ("out-of- bounds"). A word a line's end broke at a hyphen ("airbombard-" over "ment") is written whole."""
    written = _tokens(cut.original) + Counter(f"{a}{b}".casefold() for a, b in BROKEN_AT_LINE.findall(cut.original))
    pairs = {f"{m.group(1) or m.group(2)} {m.group(3)}".casefold() for m in WORDS_APART.finditer(cut.original)}
    spaced = {m.group() for m in SPLIT_AT_HYPHEN.finditer(" ".join(cut.original.split()))}  # split so in the document
    found: dict[str, None] = {}
    for ruling in cut.rulings:
        for word in LETTERS.findall(ruling.text):
            low = word.casefold()
            if low in written or len(low) < 5:
                continue
            # Both halves words the document writes elsewhere too ("strike", "out"), or a possessive's letter and
            # the word after it ("player'steam"): a reader joined them.
            if any(f"{low[:i]} {low[i:]}" in pairs and (i == 1 or written[low[:i]] >= 2) and written[low[i:]] >= 2
                   for i in range(1, len(low) - 1)):
                found[f"joined {word!r}"] = None
        for match in SPLIT_AT_HYPHEN.finditer(ruling.text):
            if match.group(2).casefold() not in _SUSPENDED and match.group() not in spaced:
                found[f"split {match.group()!r}"] = None
    return list(found)


def _title(cut: Cut) -> list[str]:
    """The title broken, if one is given: the file's name where the document does not print it, a title that
    names no game, or one that does not name the game the document names."""
    title = cut.title.strip()
    if not title:
        return []
    def spelled(text: str) -> str:
        return " ".join(WORD_RUN.findall(text)).casefold()
    stem, printed = spelled(EXTENSION.sub("", cut.file_name)), spelled(cut.original)
    # The title as the document prints it, after the game's name a reader may have put before it.
    own = spelled(title.removeprefix(cut.game_name)) if cut.game_name else spelled(title)
    if spelled(title) == stem and spelled(title) not in printed and own not in printed:
        return [f"{title!r} is the file's name"]
    if titles.is_generic(title):
        return [f"{title!r} names no game"]
    if cut.game_name and not titles.names_game(title, cut.game_name):
        return [f"{title!r} does not name {cut.game_name!r}"]
    return []


def _questions(cut: Cut) -> list[str]:
    """Units not typed as questions that open asking, or that hold, after their opening paragraph, a paragraph of
    the document that is a question of its own (an asking word first, ending asking within its first sentence,
    "Can a character with Flight charge from above?"): the FAQ's questions a list item ran on over."""
    units = _units(cut)
    put = {cut.rulings[at].id for at in rhetorical([(r.section, r.kind, r.text) for r in cut.rulings])}  # to the reader
    found = [cut.refs.get(r.id, r.id) for r in units
             if r.kind not in ("question", *TERM_KINDS) and asks(r.text.strip()) and r.id not in put]
    lines = cut.lines
    starts = {r.citation.file_line_start for r in units if getattr(r, "citation", None) is not None}
    for ruling in units:
        span = _cited_lines(ruling, len(lines))
        if ruling.kind in ("question", *TERM_KINDS) or span is None or span[0] == span[1] \
                or cut.refs.get(ruling.id) in found:
            continue
        paragraphs = _document_paragraphs(lines, *span)
        # Not a list's item, nor what a lead-in ending in a colon introduces ("…such as:" / "* Who's in it?").
        asked = [text for (at, text), (_, before) in zip(paragraphs[1:], paragraphs)
                 if at not in starts and ASKED.match(text) and not LIST_ITEM.match(lines[at - 1])
                 and not before.endswith(":")]
        if asked:
            found.append(f"{cut.refs.get(ruling.id, ruling.id)}: {asked[0][:60]!r}")
    return found


def _document_paragraphs(lines: list[str], first: int, last: int) -> list[tuple[int, str]]:
    """The paragraphs of the document over its lines `first` to `last` (1-based), each with the
    line it opens on and its text, markup and tags dropped (paragraphs part as in `_document_paragraph_words`)."""
    paragraphs: list[tuple[int, list[str]]] = []
    opened = True
    for number in range(first, last + 1):
        for at, piece in enumerate(BLOCK_TAG.split(lines[number - 1])):
            text = TAG.sub(" ", piece).strip(_MARKS)
            if at or not piece.strip(" \t\r"):
                opened = True
            if text:
                if opened:
                    paragraphs.append((number, []))
                    opened = False
                paragraphs[-1][1].append(text)
    return [(number, " ".join(texts)) for number, texts in paragraphs]


def _lost(cut: Cut) -> list[str]:
    """Passages of the text the rulings were cut from (furniture and contents gone) that no ruling holds: each run
    of `_LOST_WORDS` words of it (read across line breaks, as a two-column page's short lines need) of whose runs of
    `_GRAM` words at most `_HELD_SHARE` are in some ruling's text, title, section or examples (a page the reader
    skipped, a rule whose first line became a heading and was lost), named by the line at its middle."""
    if not cut.cleaned:
        return []
    # The rulings in the document's order, each after the heading it opens, read as one text: a passage a reader
    # kept over several short units (a line each) is held across their seams too.
    ordered = sorted(cut.rulings, key=lambda r: r.position)
    stream: list[str] = [w.casefold() for w in LETTERS.findall(cut.title)]  # the title the source was given
    last = None
    for ruling in ordered:
        heading = ruling.section.rpartition(" > ")[2] if ruling.section != last else ""
        last = ruling.section
        for piece in (heading, ruling.title, ruling.text, *(e.text for e in getattr(ruling, "examples", ()))):
            stream += [w.casefold() for w in LETTERS.findall(piece)]
    # and the headings and the units' short titles alone, in order, as a contents lists them
    headings = list(dict.fromkeys(part for ruling in ordered for part in (*ruling.section.split(" > "), ruling.title)
                                  if len(part.split()) <= _HEADING_WORDS))
    outline = [w.casefold() for part in headings for w in LETTERS.findall(part)]
    held = set(_grams(stream)) | set(_grams(outline))
    for ruling in cut.rulings:  # a section path's headings, whole
        words = [w.casefold() for w in LETTERS.findall(ruling.section)]
        held.update(_grams(words))
    # a "Related Topics:" line is its ruling's links, kept apart from its text
    # (nor the entries of a contents a flattened document keeps on its line: "Introduction……1 New Sequence of
    # Play……1": what stands between its dot leaders)
    lines = [f"{pieces[0]} {pieces[-1]}" if len(pieces) > 1 else line for line in cut.cleaned.split("\n")
             if not links.cross_reference_line(line.strip(_MARKS)) for pieces in [LEADER_RUN.split(line)]]
    words = [(w.casefold(), at) for at, line in enumerate(lines) for w in LETTERS.findall(line)]
    found: dict[str, None] = {}
    for start in range(0, len(words) - _LOST_WORDS + 1, _LOST_WORDS):
        chunk = [w for w, _ in words[start:start + _LOST_WORDS]]
        runs = _grams(chunk)
        if sum(run in held for run in runs) <= _HELD_SHARE * len(runs):
            found[" ".join(lines[words[start + _LOST_WORDS // 2][1]].split())[:60]] = None  # the line it is most of
    return list(found)


def _grams(words: list[str]) -> list[tuple[str, ...]]:
    """The runs of `_GRAM` words of `words`."""
    return list(zip(*(words[k:] for k in range(_GRAM))))
