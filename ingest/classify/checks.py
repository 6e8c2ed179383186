"""What the checks of a cut look for: in the invariants, a cut's lost or split text, its furniture, contents,
questions, run-in headings and list items; in the audit, the labels and headings a document shows; in the report
and the manifest, numbers, references and names (`ingest.invariants`, `audit`, `report`, `manifest`, `errors`
read them by these)."""
from __future__ import annotations

import re

from ingest.classify import ASKING_WORD

# A line citing a rule ("Interpretation 2 Rule 7.4 (b)", "see section 4") recurs as content does.
CITING_LINE = re.compile(r"^(?:interpretation|rule|section|article|law|chapter|step|part|see)\b")

# Digits, which a line recurring as furniture changes from page to page.
DIGITS = re.compile(r"\d++")

# A page number alone on its line ("12", "- 12 -", "Page 3 of 17").
PAGE_ALONE = re.compile(r"(?i)^(?:page[ \t]++)?[-–—(]?[ \t]*+\d{1,4}+(?:[ \t]*+(?:/|of)[ \t]*+\d{1,4}+)?[ \t]*+[-–—)]?$")
# A page number glued after a sentence's end: "… ends the game. 14"; not a number a "No." or "Fig." introduces
# ("DIAGRAM NO. 1").
GLUED_PAGE = re.compile(r"(?<!\b[Nn][Oo])(?<!\b[Ff][Ii][Gg])(?<!\b[Pp])[.!?)”\"][ \t]++\d{1,3}+$")
# A contents entry: dot leaders, or an ellipsis, before a page number, or a spaced dot leader alone (its page
# number set apart).
LEADERS = re.compile(r"(?:\.[ \t]?){4,}+[ \t]*+\d{1,4}+[ \t]*+$|…[ \t]*+\d{1,4}+[ \t]*+$|(?:\.[ \t]){3,}+\.[ \t]*+$")

# HTML's block tags, which part paragraphs (a table's rows and cells do not: a table is one paragraph), and any tag.
BLOCK_TAG = re.compile(r"(?i)<(?:/?(?:p|li|h[1-6]|div|dd|dt|blockquote|ul|ol)\b|br\b)[^<>]{0,500}+>")
TAG = re.compile(r"<[^<>]{0,500}+>")
# A paragraph that is a question of its own: an asking word first, asking before its first sentence ends.
ASKED = re.compile(rf"^(?=[A-Z])(?i:{ASKING_WORD.pattern})[^.!?\n]{{4,400}}+\?")
# A run-in sub-heading opening a line of markup, after a bullet perhaps: a bold label ended by a colon or a stop,
# inside or after the bold ("**Relays:** You have…", "- **Disarming**: You knock…", "<b>Line of Sight.</b> A unit…").
RUN_IN_LABEL = re.compile(r"^[ \t]*+(?:[-*+•][ \t]++)?(?:\*\*|__|<(?:b|strong)>)(?P<label>[^*_<>:.\n]{2,60}+)"
                          r"(?:[:.](?:\*\*|__|</(?:b|strong)>)|(?:\*\*|__|</(?:b|strong)>)[ \t]*+[:.])")

# A list's item opening a line: a bullet, a number, a letter, pandoc's "#." or a bracketed letter or numeral.
LIST_ITEM = re.compile(r"^[ \t]*+(?:[-*+•]|\d{1,3}+[.)]|[A-Za-z#][.)]|\((?:[a-z]|[ivx]{1,5}+|\d{1,3}+)\))[ \t]")
# A figure's or a table's caption ("Figure 3", "Table 1"): no heading.
CAPTION_LINE = re.compile(r"(?i)^(?:figure|fig\.|diagram|image|illustration|table)[ \t]++\d")

LEADER_RUN = re.compile(r"[….]{2,}+[….\s]{0,200}+\d*+")  # a contents entry's dot leader and page (linear)
# A rule's label opening a part of a line ("4.3.2 ", "A.1-2 "): a rule, never a fragment of one.
RULE_PART = re.compile(r"^(?:[A-Z]{1,3}+\.)?\d{1,4}+(?:[.\-]\w{1,4}+)*+\.?[ \t]")

# "Make a Claim Map for the Crew. Sample claims include": a sentence ends inside (never "vs. Defense", "St. Lazarus").
SENTENCE_ENDS_INSIDE = re.compile(r"[a-z]{3}[.!?]\s+[A-Z][a-z]")
# A label relative to its rule's ("a", "(iv)", "3.", "B)"): a subrule's or an item's, not a rule's own number.
RELATIVE = re.compile(r"^\(?(?:[a-z]|[ivx]{1,5}+|[A-Z]|\d{1,3}+)[.)]?$")
# A ref's label the reader counted ("#3", "12", "front 2"), not the document's.
COUNTED_LABEL = re.compile(r"^(?:#\d++(?:\.\d++)?|\d++|front \d++)$")
# Two words, only spaces between; the first may be the letter after an apostrophe ("player's team").
WORDS_APART = re.compile(r"(?=(?:\b([^\W\d_]{2,}+)|(?<=['’])([^\W\d_]))[ \t\n]++([^\W\d_]{2,}+))")
# A word split at a hyphen and a space ("excur- sion").
SPLIT_AT_HYPHEN = re.compile(r"\b([^\W\d_]{2,}+)- ([^\W\d_]{2,}+)\b")

# A word a line's end broke at a hyphen ("excur-" over "sion"): the document writes it whole.
BROKEN_AT_LINE = re.compile(r"(?<![^\W\d_])([^\W\d_]++)-[ \t]*+\n[ \t]*+([^\W\d_]++)")

# A label numbered in parts ("4.3.2", "A1.2."), as a rule's own number is.
IN_PARTS = re.compile(r"^(?:[A-Z]{1,3}+)?\d{1,4}+(?:\.\d{1,4}+)++\.?$")

# Markup before a line's label: spaces, HTML tags, markdown bullets, heading and bold marks, escapes, glyphs.
_MARKUP = r"(?:[ \t]|<[^>\n]{0,200}+>|[-*+•●▪◦](?=[ \t])|#{1,6}+(?=[ \t])|\*\*|__|\\)*+"
# A word the document repeats before its numbers, capitalised as a heading writes it ("section 3.1" mid-
# sentence is a cross-reference a PDF line break left at a line's start).
_WORD = r"(?:Rule|RULE|Law|LAW|Article|ARTICLE|Section|SECTION|Chapter|CHAPTER|Part|PART|§)"
_PART = r"\d{1,4}+(?:[a-z]{1,2}+\d{0,3}+)*+"  # 1, 702, 11b, 9f12c
_PREFIX = r"(?:[A-Z]{1,3}+\.?)?"  # A3b1, ST.3
# A part past the first may be a letter of its own ("3.A.1.a", "B1.A.2"): outlines that letter a level.
_LATER = rf"(?:{_PART}|[A-Za-z]{{1,2}}+(?![A-Za-z]))"
_NUMBER = rf"{_PREFIX}{_PART}(?:[.\-]{_LATER})*+"  # 7, 1.4.6, 1-2-1, 702.11b, 3.A.1.a
# Without "." or ")" after it a number needs parts to be a label ("1.4.6", "9f12c"): "12" alone is a page.
_PARTED = (rf"(?:[A-Z]{{1,3}}+\.?{_PART}(?:[.\-]{_PART})*+|{_PART}(?:[.\-]{_PART})++"
           r"|\d{1,4}+(?:[a-z]{1,2}+\d{0,3}+)++)")
_LETTER = r"(?:[ivxlc]{1,6}+|[IVXLC]{1,6}+|[a-zA-Z])"
_AFTER = r"(?:[ \t]?\([0-9a-zA-Z]{1,4}+\))*+"  # "7.4 (b)"
SHOWN_LABEL = re.compile(
    rf"^{_MARKUP}(?P<label>{_WORD}[ \t]{{0,3}}+{_NUMBER}{_AFTER}[.)]?"   # Rule 7, Article 1, § 3
    rf"|\((?:{_NUMBER}|{_LETTER})\)"                                       # (1.2) (b)
    rf"|{_NUMBER}{_AFTER}(?:\.\)|[.)])"                                   # 7.  1.4.6.  1-2-1.  9f12c)  3.)
    rf"|{_PARTED}{_AFTER}"                                                 # 1.4.6  9f12c  7.4 (b)
    rf"|{_LETTER}[.)])"                                                    # a.  iv.  B)
    rf"(?=[ \t]|$|\*|<|:)")
LABEL_WORD = re.compile(rf"^{_WORD}")  # that word opening a label ("Rule 7.4 (b)")
# A contents entry: dot leaders, or a short title ending in its page number ("1.6 Starting the Game 12").
CONTENTS_TAIL = re.compile(r"(?:\.[ \t]?){3,}+[ \t]*\d{1,4}+[ \t]*$|…[ \t]*\d{1,4}+[ \t]*$")

# A page number ending a contents line's short title.
PAGE_AT_END = re.compile(r"[ \t]\d{1,4}+[ \t]*$")
# A glossary's heading ("## Glossary", "Key Terms", "Index of Terms").
GLOSSARY_HEADING = re.compile(r"^[#* \t]*(?:glossary|definitions|keywords? glossary|(?:key |game )?terms(?: index)?|"
                              r"index of (?:key )?terms)\b[*: \t]*$", re.I)
# A heading's number without a stop before its title ("12 Combat").
SHOWN_NUMBER = re.compile(r"^(\d{1,4}+)[ \t]++(?=[A-Z])")
# A heading's title: capitalised, no sentence's punctuation.
HEADING_TITLE = re.compile(r"^[A-Z“\"'][^.!?;:,\n]{0,80}+$")

# A glossary term on a line of its own: capitalised, short, no sentence's punctuation.
TERM_LINE = re.compile(r"^[*_ \t]*[A-Z“\"][^.!?:;\n]{0,60}+$")
# "**Term**: its definition", "Term — its definition", "Term: its definition".
TERM_INLINE = re.compile(
    r"^[-*+ \t]*(?:\*\*[^*\n]{1,60}+\*\*|[A-Z][^:\n—–.]{0,50}+)[ \t]*(?::|—|–)[ \t]*[A-Z]")

# Signs that a ruling was cut wrong: another unit's number inside it ("... 1.2.3. If ..." mid-text).
INNER_NUMBER = re.compile(r"(?<=[a-z,;.] )(\d+\.\d+(?:\.\d+)*\.?) +[A-Z]")
# A number after these words is a cross-reference ("See rule 103.3. Rune Deck", "in section 6.1.8. Then"), not
# another rule run into this one.
REFERENCE_BEFORE = re.compile(r"\b(?:see|rules?|sections?|articles?|laws?|steps?|chapters?|paragraphs?|and|or|to|"
                              r"through)\s*$", re.IGNORECASE)

OWN_NUMBER = re.compile(r"[\w.]*\d[\w.]*|[A-Za-z]")  # "1.9.4.2", "702.11b", "36a", "B": the document's numbering
# A ruling opening by sending the reader elsewhere ("See also: …", "Related topics: …").
CROSS_REFERENCE_LEAD = re.compile(r"^(?:related topics|see also|see)\b", re.IGNORECASE)

# Words of a-z and 0-9 joined by "-"; dots inside a word as in ruling ids ("100.1a", "errata-1.2").
SLUG = re.compile(r"^[a-z0-9]+(?:[.-][a-z0-9]+)*$")

# A source abbreviation starts every ref of its rulings ("DD Magic A"): short, letters, digits and spaces.
ABBREV = re.compile(r"^[A-Za-z0-9]+(?: [A-Za-z0-9]+)*$")

# The line a TOML parser's message names ("… (at line 3, column 5)").
TOML_LINE = re.compile(r"at line (\d+)")
