"""Cleaning steps shared by every source shape. Each takes and returns a MappedText.

The steps repair damage done by conversions (web listings, HTML stripping, .doc export, wiki flattening)
and never rewrite real text: each is conservative, and tests list what every step fixes.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from itertools import pairwise

from ingest.classify import LIGATURE
from ingest.classify.furniture import (
    DATE_IN_LINE,
    GLUED_PAGE_NUMBER,
    GUTTER_NUMBER,
    PAGE_FOOTER,
    PAGE_MARKED_LINE,
    PRINT_HEADER_LINE,
    TITLE_VERSION,
)
from ingest.classify.markup import (
    DROP_CAP,
    GLYPH_BULLET,
    LINE_LETTER,
    LISTING_LINE,
    LONE_BULLET,
    glyphs_in_sentences,
)
from ingest.classify.words import (
    BROKEN_WORD,
    DOUBLED_WORD,
    HYPHENATED,
    LETTER_RUN,
    ODD_SPACES,
    SOFT_HYPHEN,
    SPLIT_PUNCTUATION,
    TRAILING_SPACES,
    WORD_GAP,
)
from ingest.text import MappedText

# Doubled words that are real English ("he had had enough", "that that rule").
_LEGIT_DOUBLES = {"had", "that", "is", "do", "can", "bye", "very", "so", "no", "ha", "knock"}
# Typographic ligatures (`LIGATURE`) are searched and read as their letters.
_LIGATURES = {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"}
_GLYPH_BULLET_LINES = 3  # how many lines the same letter must open before it is read as a marker
_GUTTER_LINES = 20  # the fewest lines a gutter numbers
_GUTTER_SHARE = 0.9  # and the least share of the text's lines


def listing_numbers(text: str) -> dict[int, int]:
    """For a web listing, map each file line (1-based) to the original line number it shows."""
    numbers = {}
    for index, line in enumerate(text.split("\n"), start=1):
        match = LISTING_LINE.match(line)
        if match:
            numbers[index] = int(match.group(1))
    return numbers


def is_listing(text: str) -> bool:
    """True when most non-empty lines carry "N. " listing numbers, from 1 and rising through the file: a list that
    counts afresh under each heading (a Word file's "1."–"4." under each) numbers its items, not the file's lines."""
    numbers = list(listing_numbers(text).values())
    lines = [line for line in text.split("\n") if line.strip()]
    return len(numbers) >= 5 and len(numbers) >= 0.6 * len(lines) and numbers[:3] == [1, 2, 3] \
        and all(later > earlier for earlier, later in pairwise(numbers))


def strip_listing(doc: MappedText) -> MappedText:
    """Drop a web listing's header (everything before line "1.") and each line's number prefix."""
    first = next((line for line in LISTING_LINE.finditer(doc.text) if line.group(1) == "1" and line.group()[-1:] == " "),
                 None)
    if first:
        doc = doc.slice(first.start(), len(doc))
    return doc.sub(LISTING_LINE, "")


def canonical_characters(doc: MappedText) -> MappedText:
    """Each character that Unicode says is another one, written as that one ("\u037e", the Greek question mark, is
    ";"; "\u2126" is "Ω"): a list item "3 cards\u037e", typed so, had read as asking. One for one, offsets kept."""
    table = {ord(char): canonical for char in set(doc.text) if char > "\u02ff"
             and len(canonical := unicodedata.normalize("NFC", char)) == 1 and canonical != char}
    return MappedText(doc.text.translate(table), doc.offsets) if table else doc


def normalize_spaces(doc: MappedText) -> MappedText:
    """NBSP, tabs and other odd spaces become plain spaces; trailing spaces go."""
    doc = doc.sub(ODD_SPACES, " ")
    return doc.sub(TRAILING_SPACES, "")


def soft_hyphens(doc: MappedText) -> MappedText:
    """Soft hyphens between numbers or words become dashes; inside a word they go, as zero-width spaces do."""
    return doc.sub(SOFT_HYPHEN, lambda hyphen: "-" if hyphen.group("dash") else " " if hyphen.group("space") else "")


def _letters(ligature: re.Match) -> str:
    return _LIGATURES[ligature.group()[0]]  # the space a text layer set after it goes (`LIGATURE`)


def unfold_ligatures(doc: MappedText) -> MappedText:
    """"ﬁrst" -> "first": each typographic ligature becomes its letters (the letters cite the ligature)."""
    return doc.sub(LIGATURE, _letters)


def undouble_spaces(doc: MappedText) -> MappedText:
    """"Core  Rules" -> "Core Rules" in a text whose extraction doubled every space between words: when most
    gaps between words are exactly two spaces, every gap becomes one space and a lone space before punctuation
    ("Riftbound ,", "Power 's") goes. Indentation, and any text whose gaps are mostly single (a layout
    conversion's columns), are left alone."""
    gaps = [len(m.group()) for m in WORD_GAP.finditer(doc.text)]
    if not gaps or gaps.count(2) < 0.5 * len(gaps):
        return doc
    return doc.sub(SPLIT_PUNCTUATION, "").sub(WORD_GAP, " ")


def drop_line_numbers(doc: MappedText) -> MappedText:
    """"0091 1.1 Purpose" -> "1.1 Purpose": the numbers of a line-numbered text's gutter, one width, rising line by
    line, on all but a few of its lines (`_GUTTER_SHARE`); a number opening a few lines is the text's own."""
    found = list(GUTTER_NUMBER.finditer(doc.text))
    lines = sum(1 for line in doc.text.split("\n") if line.strip())
    if len(found) < _GUTTER_LINES or len(found) < _GUTTER_SHARE * lines \
            or len({len(match.group(1)) for match in found}) > 1 \
            or any(int(b.group(1)) <= int(a.group(1)) for a, b in pairwise(found)):
        return doc
    return doc.edit((match.start(), match.end(), "") for match in found)


def drop_page_footers(doc: MappedText) -> MappedText:
    """Remove "Page N of M" lines and the file-name lines a .doc export prints beside them, a line ending with its
    page's number that dates or versions the document ("… v3.1 20th February 2017 p. 30", a conversion's footer
    left once), and a browser's header and footer, printed once on a one-page print ("11/30/26, 12:55 PM Rules
    2023 — Greed", "file:///rules.html 1/1")."""
    def footer(match: re.Match) -> str:
        line = match.group(0)
        return "" if DATE_IN_LINE.search(line) or TITLE_VERSION.search(line) else line
    return doc.sub(PAGE_FOOTER, "").sub(PAGE_MARKED_LINE, footer).sub(PRINT_HEADER_LINE, "")


_DOUBLING = 1  # a doubled word, no list's: the extraction doubles words


def collapse_doubled_words(doc: MappedText) -> MappedText:
    """"Hit Points Points" -> "Hit Points"; numbers ("4 4") and values holding a digit (dice a unit rolls, "D6 D6
    D4 D4"), a word printed three times or more (an extraction's damage doubles a word, it does not triple it)
    and real doubles ("had had") are kept, and so is a word ending a short line of its own that the next line
    opens with (a glossary's "Excess Damage" over its definition "Damage dealt to a creature…")."""
    text = doc.text
    doubling = sum(match.group(1)[-1] not in ",;" for match in DOUBLED_WORD.finditer(text)) >= _DOUBLING

    def keep_one(match: re.Match) -> str:
        word = match.group(1)
        # (a name a list gives twice, set apart by its commas, is two items: "Dark Eldar, Eldar, Grey Knights",
        # unless the extraction doubles words elsewhere too)
        if word.lower().strip(".,;:!?") in _LEGIT_DOUBLES or any(char.isdigit() for char in word) \
                or word[-1] in ",;" and not doubling \
                or len(match.group(0).split()) > 2 or _titles_next_line(text, match) or _a_name(text, match):
            return match.group(0)
        return word
    return doc.sub(DOUBLED_WORD, keep_one)


def _a_name(text: str, match: re.Match) -> bool:
    """Is the doubled word the first of a name that doubles it ("Jar Jar Binks", "Baden Baden Spa"): a word in
    title case, doubled once on one line, before another word in title case?"""
    word, after = match.group(1), text[match.end():match.end() + 40].split(maxsplit=1)
    return (word.istitle() and word.isalpha() and match.group(0).count(word) == 2 and "\n" not in match.group(0)
            and bool(after) and after[0][:1].isupper() and after[0].rstrip(".,;:!?)").isalpha()
            and text[match.end():match.end() + 1] == " ")


def _titles_next_line(text: str, match: re.Match) -> bool:
    """Does the doubled word end a short line standing alone (after a blank line, or in a PDF's text without them
    after a line that ends a clause, or opening with its number) over the line it opens ("an opponent." / "Rule 7.4
    Charging" / "Charging is when a player:")?"""
    if "\n" not in match.group(2):
        return False
    start = text.rfind("\n", 0, match.start()) + 1
    before = text.rfind("\n", 0, max(start - 1, 0)) + 1 if start else 0
    above = text[before:start].strip()
    line = text[start:match.end(1)].split()
    # a numbered heading is one whatever is above it (a page's number: "8" / "3 Micro" / "Micro is a skirmish…")
    alone = start == 0 or not above or above[-1] in ".!?:;" or line[0].rstrip(".").isdigit()
    return alone and len(line) <= 6


def vocabulary(*texts: str) -> Counter:
    """Lower-cased word counts of the given texts, for deciding what is a word."""
    counts: Counter = Counter()
    for text in texts:
        text = LIGATURE.sub(_letters, text)
        counts.update(token.lower() for token in LETTER_RUN.findall(text))
    return counts


def rejoin_split_words(doc: MappedText, vocab: Counter) -> MappedText:
    """"spe ll" -> "spell", "a n attack" -> "an attack": rejoin two pieces when their join is a word the
    corpus uses and one piece is not a word (a stray letter, or a fragment seen nowhere else)."""
    def is_fragment(piece: str) -> bool:
        piece = piece.lower()
        if len(piece) == 1:
            return piece not in ("a", "i")
        return vocab[piece] <= 1

    def edits():
        words = list(LETTER_RUN.finditer(doc.text))
        index = 0
        while index + 1 < len(words):
            left, right = words[index], words[index + 1]
            joined = (left.group(0) + right.group(0)).lower()
            # A letter beside a digit is part of a label or a square ("side 1B and", "pawn on e2"), never a piece of a
            # split word; nor is one after an apostrophe ("Metal 0's top command" is no "'stop").
            before = doc.text[left.start() - 1:left.start()]
            # nor is an elided word ("il s'arrête", "l'eau"): the letter before its apostrophe is a word of its own
            elided = doc.text[right.end():right.end() + 1] in ("'", "’")
            if (right.start() == left.end() + 1 and doc.text[left.end()] == " " and right.group(0).islower()
                    and not elided
                    and not before.isdigit() and before not in ("'", "’")
                    and not doc.text[right.end():right.end() + 1].isdigit() and vocab[joined] >= 1
                    and (is_fragment(left.group(0)) or is_fragment(right.group(0)))):
                yield left.start(), right.end(), left.group(0) + right.group(0)
                index += 2
            else:
                index += 1
    return doc.edit(edits())


def rejoin_broken_words(doc: MappedText, vocab: Counter) -> MappedText:
    """"non-" / "icebreaker" -> "non-icebreaker", "excur-" / "sion" -> "excursion": a word that a line's end
    broke at a hyphen is one word again. The hyphen stays when the document writes the word with it elsewhere,
    when the break goes on a compound ("out-of-" / "bounds"), or when both halves are words of the corpus (seen
    elsewhere too) and their join is not; else it goes."""
    hyphenated = {pair for m in HYPHENATED.finditer(doc.text) for parts in [m.group().lower().split("-")]
                  for pair in map("-".join, pairwise(parts))}

    def edits():
        for match in BROKEN_WORD.finditer(doc.text):
            left, right = match.group("left"), match.group("right")
            if match.group("stop") and len(right) <= 4 and not right.strip("ivxlc"):  # "ii." opens an item
                continue
            whole = f"{left}-{right}".lower()
            compound = doc.text[match.start() - 1:match.start()] == "-"  # "out-of-" / "bounds" goes on a compound
            kept = compound or whole in hyphenated or not vocab[(left + right).lower()] and all(
                vocab[half.lower()] >= 2 for half in (left, right))
            yield match.end("left"), match.start("right"), "-" if kept else ""
    return doc.edit(edits())


def running_page_numbers(doc: MappedText, last_page: int) -> list[tuple[int, int, int]]:
    """(start, end, number) of each page number a flattening glued into a sentence ("removed from the game). 1
    Assault"): the number ending its page, in document order.

    A candidate is a lone number after a sentence end before a capitalised word, or between two lower-case
    words, that is not counting something (no "of", "a", "step"... before it). Candidates are kept as page
    numbers only while they increase through the document and stay within the last page.
    """
    page = 0
    found = []
    for match in GLUED_PAGE_NUMBER.finditer(doc.text):
        value = int(match.group(1) or match.group(2))
        if page < value <= min(page + 2, last_page):
            page = value
            found.append((match.start(), match.end(), value))
    return found


def drop_running_page_numbers(doc: MappedText, last_page: int) -> MappedText:
    """Remove the page numbers a flattening glued into sentences (see `running_page_numbers`)."""
    return doc.edit((start, end, "") for start, end, _ in running_page_numbers(doc, last_page))


def mark_glyph_bullets(doc: MappedText) -> MappedText:
    """"u 1 Board map…" -> "• 1 Board map…": a lone lower-case letter opening several lines before a capital
    or a digit is the bullet of a symbol font read as a letter; it becomes a bullet (citing the letter). One
    letter opening one line ("b Foo") is left alone, and so are "a" and "i", which are words, and letters that
    mostly follow the letter before them on an earlier line (subrules "a", "b", "c" lettered without a stop)."""
    counts = Counter(match.group("marker") for match in GLYPH_BULLET.finditer(doc.text))
    # Lettered subrules are no bullets: each of their letters follows the one before it ("a", then "b", then "c").
    lettered: Counter = Counter()
    previous = ""
    for match in LINE_LETTER.finditer(doc.text):
        letter = match.group("letter")
        lettered[letter] += previous == chr(ord(letter) - 1)
        previous = letter
    markers = {letter for letter, count in counts.items()
               if count >= _GLYPH_BULLET_LINES and lettered[letter] < count / 2}
    if not markers:
        return doc
    return doc.sub(GLYPH_BULLET, lambda m: "•" if m.group("marker") in markers else m.group())


def join_lone_bullets(doc: MappedText) -> MappedText:
    """"•" / "" / "Plays the ball as it lies." -> "• Plays the ball as it lies.": a bullet set alone on its line
    opens the item the next line's text is."""
    return doc.sub(LONE_BULLET, lambda found: found.group("bullet") + " ")


def rejoin_drop_caps(doc: MappedText, vocab: Counter) -> MappedText:
    """"O\nn a blustery evening" -> "On a blustery evening": a capital alone on a line opening a paragraph,
    when it and the word opening the next line make a word the corpus uses."""
    def join(match: re.Match) -> str:
        word = (match.group("cap") + match.group("rest")).lower()
        return match.group("cap") if vocab[word] >= 1 else match.group()
    return doc.sub(DROP_CAP, join)


def drop_symbol_glyphs(doc: MappedText) -> MappedText:
    """Remove the callout marks a symbol font left: lines holding nothing but symbol glyphs ("∂", "∑ ∫",
    private-use characters, letters of another script in a Latin text), and the same glyphs where they stand
    alone in a sentence ("Start ∂ on the track", "each player ∑.")."""
    foreign = _foreign_letters(doc.text)
    glyph_lines, start = [], 0  # (start, end, stripped text) of each line of glyphs
    for line in doc.text.split("\n"):
        shown = line.strip()
        if shown and len(shown.replace(" ", "")) <= 12 and all(c == " " or _is_glyph(c, foreign) for c in shown):
            glyph_lines.append((start, start + len(line), shown))
        start += len(line) + 1
    if not glyph_lines:
        return doc
    glyphs = {c for *_, shown in glyph_lines for c in shown if c != " "}
    edits = [(first, min(last + 1, len(doc.text)), "") for first, last, _ in glyph_lines]
    edits += [(m.start(), m.end(), "") for m in glyphs_in_sentences(glyphs).finditer(doc.text)]
    edits.sort()
    kept, end = [], -1
    for edit in edits:  # an inline match inside a dropped line goes with the line
        if edit[0] >= end:
            kept.append(edit)
            end = edit[1]
    return doc.edit(kept)


# Symbols that are text, not a font's callout marks: bullets the segmenters read as list markers, signs
# written in sentences, arrows and operators.
_TEXT_SYMBOLS = frozenset("•◦▪‣∙●○■□►➢©®™°→←↑↓↔⇒⇐≤≥≠±×÷−")


def _is_glyph(char: str, foreign: frozenset[str]) -> bool:
    """A character a symbol font left in place of a picture's mark: a math or other symbol (not a bullet), a
    private-use or circled-number character, or a letter the text's own script does not use."""
    category = unicodedata.category(char)
    if char in _TEXT_SYMBOLS or char.isascii():
        return False
    return category in ("Sm", "So", "Co", "No") or char in foreign


def _foreign_letters(text: str) -> frozenset[str]:
    """Letters outside the Latin script of a text written in it (nearly all its letters Latin): "π", "ª"."""
    letters = Counter(c for c in text if c.isalpha())
    foreign = {c for c in letters if not (c.isascii() or unicodedata.category(c) in ("Lu", "Ll")
                                          and unicodedata.name(c, "").startswith("LATIN"))}
    if sum(letters[c] for c in foreign) > 0.05 * sum(letters.values()):
        return frozenset()
    return frozenset(foreign)
