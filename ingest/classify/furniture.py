"""What page furniture looks like: page numbers, running heads, bylines, copyright and version lines, dates, and
a contents page's headings, entries and dot leaders (`ingest.furniture` finds them by these)."""
from __future__ import annotations

import re

# Numbers that change from page to page: digit runs, and lower-case roman numerals (front-matter pages).
CHANGING_NUMBER = re.compile(r"\d+|(?<![\w#])(?=[ivx])x{0,3}(?:ix|iv|v?i{0,3})(?!\w)")
# A rule's sub-labels in parentheses, set right after its number, which change in number and kind with the rule
# from page to page ("Rule 7.01 to 7.01(b)(2)", "Rule 9.05(b)(1) to 9.06(b)" head pages of rules).
SUBLABELS = re.compile(r"(?<=\w)(?:\([A-Za-z\d]{1,3}\))+")
# Lines that are content however often they recur: numbered rules and items (a label alone on its line too, its
# text set on the next: "b." recurs on many pages' edges), Q/A, headings, table rows, bullets.
CONTENT_LINE = re.compile(r"^(?:\d+(?:\.\d+)*[.)](?:\s|$)|\d+(?:\.\d+)+\s|[A-Za-z][.)](?:\s|$)|[QA][:.]|#{1,6}\s|\||[-*•◊]\s)")
# A markdown conversion may mark a page number as a heading ("## 10").
PAGE_NUMBER = re.compile(  # "12", "- 12 -", "Page 12", "pg. 12", "p. 12", "iv", "3/17", "Page 3 of 17", "- ii / v -"
    r"^(?:#{1,6}\s+)?(?:(?:page|pg\.?|p\.)\s*+)?[-–—(]?\s*(\d{1,4}|(?=[ivx])x{0,3}(?:ix|iv|v?i{0,3}))"
    r"(?:\s*+(?:/|of)\s*+(?:\d{1,4}+|[ivx]{1,6}+))?\s*[-–—)]?$", re.I)
BYLINE = re.compile(r"^(?:(?:written|designed|edited|created|compiled|illustrated|translated)\s+)?by\s", re.I)
LETTER_OR_MARK = re.compile(r"[^\W\d_]|[©®™]")
# A web or mail address or a file's name, which a running line may open in lower case ("disneylorcana.com").
ADDRESS = re.compile(r"://|www\.|@|\.(?:com|org|net|html?|pdf|docx?)\b", re.I)

# A page's number opening or closing a running head: "16 CHAPTER 2. …", "… CALIFORNIA LOWBALL 17", "2—What is this
# game?", "Combat | 13" (set apart by a space, a dash, a bar or a dot).
EDGE_NUMBER = re.compile(r"^(?:(\d{1,4})(?:\s+|\s*+[—–|·•]\s*+)(?=\D))?.*?(?:(?<=[\s—–|·•])(\d{1,4}))?$")

# A line's number in the gutter of a line-numbered text (a standard's draft, a legal text: "0091 1.1 Purpose").
GUTTER_NUMBER = re.compile(r"^(\d{3,6}+)(?: |$)", re.M)

# A page's number and its running line glued to the end of the page's last line of text by a conversion that joined
# them ("…does not matter. 1 MALIFAUX FOURTH EDITION • FREQUENTLY ASKED QUESTIONS • OCTOBER 2025"): where a number
# set apart by spaces opens what may be the running line.
GLUED_FOLIO = re.compile(r"(?<=[.!?)”\"’'] )(\d{1,4}+)[ \t]++(?=\S)")

# "Contents", "Table of Contents", and the lists of a LaTeX book's tables and figures after it.
# Either may carry its page column's label ("INDEX          PAGE", "Contents   Page").
CONTENTS_HEADING = re.compile(r"^(?:#{1,6}\s*)?(?:\d{1,2}(?:\.\d{1,2})*\.?[ \t]+)?"  # numbered as a part: "1.2 Table of contents"
                              r"(?:[^\W\d][\w ]{0,40}?[ \t]+[—–:-][ \t]+)?"  # or named for its book: "Rules of Play — Table of Contents"
                              r"(?:(?:table\s+of\s+)?contents|list\s+of\s+(?:tables|figures))(?:\s+pages?)?:?$", re.I)
INDEX_HEADING = re.compile(r"^(?:#{1,6}\s*)?index(?:\s+of\s+\w+)?(?:\s+pages?)?:?$", re.I)
# An index entry: a term and the rules or pages it is at ("Abort Procedure ....28.9, See Air Missions", "Apparel
# 2.G", "11.M; 11.L.3", "rules Section 8"): a dot leader inside it, or a number or a rule's label closing it.
INDEX_ENTRY = re.compile(r"(?:\.[ \t]?){4,}+|(?:^|[ \t])\d[\w.]*+[ \t]*+$")
_ENTRY_NUMBER = r"(?:\d+(?:[A-Z](?![A-Za-z]))?(?:\.\d+)*\.?|[A-Z]\.|[IVX]+\.)"  # "2A.1": a chapter's lettered part
ENTRY_NUMBER = re.compile(_ENTRY_NUMBER)
NUMBERED_ENTRY = re.compile(rf"^(?P<number>{_ENTRY_NUMBER})\s+(?P<title>\S.*)$")
# An entry whose page follows its title after one space, as LaTeX sets a chapter's or an appendix's: "Preface 5",
# "1 Betting Formats and Variations 7", "A Lowball Scales 65".
SPACED_ENTRY = re.compile(r"^(?:(?P<number>[A-Z]|\d{1,3})\s+)?(?P<title>[A-Z“\"‘'][^.!?:;]*?)\s\d{1,4}$")
# A contents entry's dot leader and page number ("Setup . . . . 4", "Setup   4"), or a dot leader alone where the
# extraction set the page numbers apart in a column of their own ("1.1 RoboCup . . . . ."), matched on the entry
# reversed (see `_leader`).
LEADER_REVERSED = re.compile(r"(?:\d+|[ivxlc]+)(?:\s*(?:\s?[.·…_]){2,}\s*|\s{2,})|\s*(?:[.·_]\s?){4,}")
PAGE = re.compile(r"(?:[Pp]age\s*|[Pp]g\.?\s*|[Pp]\.\s*)?(?:\d+|[ivxlc]+)")  # "12", "Page 12", "pg. 12", "xii"
FIELD = re.compile(r"\S+(?:\s{1,2}\S+)*")  # layout columns are three or more spaces apart
MERGED_COLUMN = re.compile(r"(?<=\S)\s+(?=\d+(?:\.\d+)*\.\s+[A-Z])")  # "1.1. General 5.1. General"

_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
          r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_WEEKDAY = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?"
_DATE_FORMS = (  # (pattern, order of its year, month, day groups)
    (rf"{_WEEKDAY}({_MONTH})\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})", "mdy"),
    (rf"{_WEEKDAY}(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH}),?\s+(\d{{4}})", "dmy"),
    (rf"({_MONTH}),?\s+(\d{{4}})", "my"),
    (r"(\d{4})-(\d{1,2})-(\d{1,2})", "ymd"),
    (r"(\d{1,2})/(\d{1,2})/(\d{4})", "mdy"),
    (r"(\d{1,2})\.(\d{1,2})\.(\d{4})", "dmy"),
)
# Each form compiled, to read a date's parts by (`furniture.read_date`).
DATES = tuple((re.compile(pattern, re.I), order) for pattern, order in _DATE_FORMS)
_DATE = "|".join(f"(?:{re.sub(r'[(](?![?])', '(?:', pattern)})" for pattern, _ in _DATE_FORMS)
_DATE_PREFIX = (r"(?:(?:(?:official\s+|current\s+)?(?:version|edition|rules|document)\s+)?"
                r"(?:effective|last\s+updated?|updated|revised|published|released|dated?|as\s+of|valid\s+from)"
                r"(?:\s+(?:on|as\s+of|from))?\s*:?\s*)?")
DATE_IN_LINE = re.compile(rf"\b(?:{_DATE})\b", re.I)  # a date anywhere in a line ("August 28, 2023  1")
DATE_LINE = re.compile(rf"^{_DATE_PREFIX}(?P<date>{_DATE})[\s.]*$", re.I)
VERSION_LINE = re.compile(rf"^(?:version|ver\.|v|revision|rev\.|release)\s*:?\s*(?P<version>\d+(?:\.\d+)*[a-z]?)"
                          rf"(?:[\s,;:–—-]+{_DATE_PREFIX}(?P<date>{_DATE}))?[\s.]*$", re.I)
# A version inside the title line: "Riftbound Core Rules v1.2", "Comprehensive Rules – Version 2025.3".
TITLE_VERSION = re.compile(r"(?:^|[\s(–—-])(?:version|ver\.|v)\s?(?P<version>\d+(?:\.\d+)+[a-z]?)\b", re.I)
COPYRIGHT = re.compile(r"^(?:©|\(c\)|copyright\b)|all rights reserved", re.I)
# A clock time beside a year: when a file was made or printed ("File created on Tue 10 Apr 19:59:07 AEST 2018").
TIMESTAMP = re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\b.{0,40}?\b(?:19|20)\d{2}\b|\b(?:19|20)\d{2}\b.{0,40}?\b\d{1,2}:\d{2}\b")

# "…coming into force on 1 July 2009", "These rules take effect from March 1, 2024": when the rules apply.
IN_FORCE = re.compile(rf"\b(?:(?:comes?|coming|came|enters?|entering|entered|goes|going|went)\s+into\s+(?:force|effect)"
                      rf"|takes?\s+effect|(?:is|are|become|becomes|became)\s+effective|in\s+(?:force|effect))"
                      rf"\s+(?:on|from|as\s+of)?\s*(?P<date>{_DATE})", re.I)

# A markdown heading below the document's title ("## 1. Scope"): where its body, past its opening prose, begins.
SECTION_HEADING = re.compile(r"\n#{2,6}\s")

# A browser's running header: the date and time of printing, then the page's title ("11/28/26, 9:49 PM Pluck Rules").
PRINT_HEADER = re.compile(r"^[ \t]*+\d{1,2}+/\d{1,2}+/\d{2,4}+,?[ \t]++\d{1,2}+:\d{2}+(?:[ \t]*+[AaPp][Mm])?+[ \t]++"
                          r"(?P<title>[^\W\d_].{0,120}+)$")
PRINT_HEADER_LINE = re.compile(PRINT_HEADER.pattern, re.M)  # the same, as a line of a text

# A dot leader and page number ending a contents line, or a long dot leader alone (the pages set apart in a column
# of their own): ". . . . 12", "…12", ". . . . . ."; never a sentence's ellipsis.
LISTED_LEADER = re.compile(r"(?:\.[ \t]?){3,}+[ \t]*+\d{1,4}+[ \t]*+$|…[ \t]*+\d{1,4}+[ \t]*+$|(?:\.[ \t]){3,}+\.[ \t]*+$|\.{6,}+[ \t]*+$")
LEADER_TAIL = re.compile(r"(?:[ \t]*+(?:\.[ \t]?){2,}+|[ \t]*+…++|[ \t]{2,}+)[ \t]*+\d{1,4}+[ \t]*+$|[ \t]++\d{1,4}+[ \t]*+$"
                         r"|[ \t]*+(?:\.[ \t]?){4,}+[ \t]*+$")
LABEL_HEAD = re.compile(r"^(?:(?:chapter|section|part|appendix)[ \t]++)?(?:[A-Z]{1,3}+\.)?\d{1,3}+(?:\.\d{1,3}+)*+\.?[ \t]++"
                        r"|^[A-Z]\.[ \t]++", re.IGNORECASE)
LABEL_ALONE = re.compile(r"^[ \t]*+(?:[A-Z]{1,3}+\.)?\d{1,3}+(?:\.\d{1,3}+)*+\.?[ \t]*+$")

BULLETED = re.compile(r"^[ \t]*+[-*+•][ \t]")

# A question or a numbered rule opening a line ("Q1:", "Question", "3.2 Setup"); a rule's number has at most three
# digits ("2023 Edition" is a year).
OPENS_UNIT = re.compile(r"(?:Q\d*[:.]|Question\b|\d{1,3}(?:\.\d+)*[.)]?\s+\S)")

# "Page 3 of 17", a .doc export's file name beside it, a folio set between dashes ("- 10 -"), and a browser's footer
# ("file:///rules.html 1/3": the page's address and its count of pages).
# A line ending with its page's number ("DBMM List Clarifications v3.1 20th February 2017 p. 30"): furniture when it
# also dates or versions the document (`clean.drop_page_footers`), even printed once.
PAGE_MARKED_LINE = re.compile(r"^[^\n]{1,100}?\b(?:p|pg|page)\.?[ \t]*+\d{1,4}+[ \t]*+$", re.M | re.I)
PAGE_FOOTER = re.compile(r"^[ \t]*(?:Page \d+ of \d+|[\w-]+\.(?:doc|docx|rtf|pdf|odt)|[-–—] ?\d{1,4} ?[-–—]"
                         r"|(?:file|https?)://\S{1,300}+[ \t]++\d{1,4}/\d{1,4})[ \t]*$",
                         re.M | re.I)

# Words after which a number counts something rather than being a page number.
_COUNTING_WORDS = ("of", "a", "at", "to", "step", "pg.", "page", "era", "turn", "than", "roll", "rolls", "with")
_NOT_COUNTING = "".join(rf"(?<!\b[{word[0]}{word[0].upper()}]{re.escape(word[1:])} )" for word in _COUNTING_WORDS)
# A page number a flattening glued into a sentence ("removed from the game). 1 Assault"): a lone number after a
# sentence's end before a capitalised word, or between two lower-case words, counting nothing.
GLUED_PAGE_NUMBER = re.compile(rf"(?<=[.)!?] )(\d{{1,2}}) (?=[A-Z][a-z])|(?<=[a-z] ){_NOT_COUNTING}(\d{{1,2}}) (?=[a-z])")

# A printed page number alone on a line: "12", "- 12 -", "Page 12", "12 of 48", "xiv".
PRINTED_PAGE_NUMBER = re.compile(
    r"(?:page\s++)?[-–—]?\s*+(\d{1,4}|[ivxlcdm]{1,7})\s*+[-–—]?(?:\s*+(?:of|/)\s*+(?:\d{1,4}|[ivxlcdm]{1,7}))?",
    re.IGNORECASE)
# A roman numeral ("xiv"), as front matter numbers its pages.
ROMAN = re.compile(r"m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})", re.IGNORECASE)
