"""What a reference looks like: a "see" reference and what it names, a rule cited by its number, a line listing
what else to read, a name as rulings are called; a heading's number and label as refs are made from them; and
the words editions, change sets and scenarios are named by (`ingest.links`, `refs`, `editions`, `changeset`,
`scenarios` read them by these)."""
from __future__ import annotations

import re

from ingest.classify import KEYWORDS, SECTION_WORDS

# "(see Breath of Life)", "see pg. 3 under Activating Neutral Nations", "See Section H under New Rules",
# "(see pg. 2, Using the Event Cards, section 1)".
SEE = re.compile(r"\b[Ss]ee\s+(?P<target>[^().;\n]{0,80}?(?:pg\.\s*\d+[^().;\n]{0,80}?)?)(?=[).;]|$)")
VAGUE = re.compile(r"^(?:above|below|the chart above|the above|here|also|if|whether|how|what|that|why)\b", re.I)
SECTION_LETTER = re.compile(r"^Section\s+(?P<letter>[A-Z])\s+under\s+(?P<under>.+)$", re.I)
SECTION_NUMBER_UNDER = re.compile(r"^(?P<under>.+?),?\s+section\s+(?P<number>\d+)$", re.I)
# The number a heading opens with ("4.3 Play a Card"): a word of letters, digits and dots with a digit in it.
HEADING_NUMBER_WORD = re.compile(r"^(?=[\w.]*\d)[\w.]*+\s+")

# A rule number an update summary's item cites: "6.1.2.2.", "8.2.4.–8.2.4.1." (each number without its stop); a
# ruling labelled so is numbered in parts ("702.11b").
CITED_NUMBER = re.compile(r"\b\d+(?:\.\d+)+[a-z]?\b(?!\.\d)")

IMPRINT = re.compile(r"©|\(c\)|copyright|all rights reserved|trademark|www\.|https?://|\.(?:com|org|net)\b", re.I)

# Where a reference says its target stands, which names nothing: "on page 9", "(p. 4)", "on the right".
PLACE = re.compile(r"\s*,?\s*(?:(?:on|at|in)\s+)?(?:\(\s*)?(?:pages?|pg\.|pp?\.)\s*\d+(?:\s*[-–]\s*\d+)?\s*\)?\s*$"
                   r"|\s+(?:on|at)\s+the\s+(?:right|left|next\s+page|opposite\s+page|facing\s+page|top|bottom)\s*$",
                   re.IGNORECASE)
# A name a reference quotes ('see "Counting Spaces" on page 9'), with the numbered part of it a reference
# may name first ('see Step 3 of "Attacks"').
QUOTED_TARGET = re.compile(r"(?:(?P<part>\b(?:[Ss]tep|[Ii]tem|[Pp]oint|[Pp]art|[Pp]aragraph)\s+\d+[a-z]?\s+(?:of|in)\s+))?"
                    r"[“\"](?P<name>[^“”\"\n]{1,80}?)[.,]?[”\"]")
# "Step 3 of Attacks": the unit numbered 3 in what the name designates.
PART_OF = re.compile(r"^(?:step|item|point|part|paragraph)\s+(?P<n>\d+[a-z]?)\s+(?:of|in)\s+(?P<under>.+)$", re.I)

# "Related Topics: Attacks, Deplete, Exhaust", "See also: Conditions": a line that only lists what else to read.
CROSS_REFERENCE_LINE = re.compile(
    r"^(?P<lead>(?:see\s+also|related(?:\s+(?:topics?|rules?|entries|sections?|terms|articles?))?"
    r"|cross[- ]references?)\s*:)\s*(?P<names>\S.*?)\s*\.?$", re.IGNORECASE)

# "see 1.10", "section 4.3.2", "rule 702.11b", "in 5.3.3.2", "Laws: 6.2.2", "(8.7.5)": a rule by its number.
NUMBER_REF = re.compile(r"(?:\b(?:[Ss]ee|[Ss]ections?|[Rr]ules?|in|under|per|Laws?:|[Aa]rticles?)\s+|\()"
                        r"(?P<number>\d+(?:\.\d+)+[a-z]?)(?![\d.]*\d)"
                        # "See rule 113, “Abilities”": a rule numbered in the hundreds, whose rules are 113.1...
                        r"|\b[Rr]ules?\s+(?P<whole>\d{3,4})(?![\d.]*\d)")
# A "see" target that is a rule by number ("see rule 702.19, “Trample”"), read as a number reference.
NUMBERED_TARGET = re.compile(r"^(?:(?:rules?|sections?|articles?)\s+)?\d", re.IGNORECASE)

# A name is a title of one to four words, each significant word capitalised ("Stoneskin", "Fireball Wand",
# "Finger of Death"): what a spell, item, unit or keyword is called. Small words may differ in case.
NAME_WORD = re.compile(r"[A-Z][\w'’-]*|[0-9][\w'’-]*")

# Where a name may start (nothing word-like before it: a name may follow an apostrophe) and the run of its first
# word; the run of any of its words; the space between them.
NAME_START = re.compile(r"(?<![\w-])(?=(\w[\w'’-]*))")
NAME_RUN = re.compile(r"[\w'’-]+|&")
NAME_GAP = re.compile(r"\s+")

# A reference's page before the name it gives ("pg. 3 under Activating…", "pg. 2, Using the Event Cards").
PAGE_FIRST = re.compile(r"^pg\.\s*\d+\s*(?:,|under)?\s*")
# Each name a cross-reference line lists, between commas or semicolons.
LISTED_NAME = re.compile(r"[^,;]+")
# A sentence's or a clause's end inside a text: a listed "name" so broken is a sentence.
CLAUSE_BREAK = re.compile(r"[.!?:]\s")
# The numbers of the headings a ruling's section path runs through ("4 Play > 4.3 Play a Card").
SECTION_NUMBERS = re.compile(r"(?:^|> )(\d+(?:\.\d+)+) ")

# Where a part of a number starts, past its first: "305|.2|a", "1|-2|-1", "9|f|12|c".
LABEL_PART_START = re.compile(r"[.\-)](?=\w)|(?<=\d)(?=[A-Za-z])|(?<=[A-Za-z])(?=\d)")
# A heading's own number ("1.2 Golden Rules", "4. Card Types", "1-2 Deck"), as a section part shows it.
HEADING_OWN_NUMBER = re.compile(r"^(\d+(?:[.\-](?:\d+|[A-Za-z]\b))*[a-z]?)\.?\s")
# A word a heading's number may follow ("Rule 7.11 Instigator & Aggressor").
_KEYWORD = f"(?:{'|'.join(map(re.escape, KEYWORDS))})"

# The label a heading prints, after a word naming a part or a rule ("Appendix II: Timing", "Rule 7.10 Fighting",
# "ST.2 Commit cards", "I. Mythos phase", "1.1 General"); a letter or roman numeral only closed by ".", ":" or ")".
HEADING_LABEL = re.compile(
    rf"^(?:(?P<word>(?i:{'|'.join(SECTION_WORDS)}))\s+(?P<part>[IVXLCivxlc]+|[A-Za-z])(?=[.:)]?(?:\s|$))"
    rf"|(?i:{'|'.join(map(re.escape, KEYWORDS))})?\s*(?P<label>(?:[A-Z]{{1,3}}\.)?\d+(?:[.\-](?:\d+|[A-Za-z]\b))*[a-z]?"
    r"(?=[.:)]?(?:\s|$))|[IVXLC]+(?=[.:)]\s)|[A-Z](?=[.:)]\s)))")

OPENING_KEYWORD = re.compile(rf"{_KEYWORD}\s*", re.IGNORECASE)

# A part in parentheses ("Paths of the Lance (Dragons of Glory expansion)"), which an abbreviation leaves out.
PARENTHESISED = re.compile(r"\([^)]*\)")
# A text up to its last space, slash or dash: where a ref is cut after a whole word.
UP_TO_LAST_BREAK = re.compile(r"(.*)[ /-]")

# A section's own number before its title ("10.3 Bodyguard", "B. Activating", "702.19"): not part of its name.
SECTION_OWN_NUMBER = re.compile(r"^\s*(?:[A-Z]|\d+)(?:\.\w+)*\.?\s+(?=\S)")

# A file name's edition ("-2025-10-31", "_v1.2", "-2.2.0"): an edition's source keeps one id across editions.
FILE_EDITION = re.compile(r"[-_ ](?:\d{4}-\d{2}-\d{2}|\d{8}|v?\d+(?:\.\d+)+)$", re.IGNORECASE)

# A scenario's call, a module's function by its dotted name ("refs.abbreviation").
DOTTED_CALL = re.compile(r"^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$")


def word_boundary(text: str, at: int) -> bool:
    """Is `at` a word's boundary in `text`, a word character on one side of it only (as `\\b` reads, a word
    character being a letter, a digit or "_")?"""
    def word(char: str) -> bool:
        return char.isalnum() or char == "_"
    return (0 < at <= len(text) and word(text[at - 1])) != (at < len(text) and word(text[at]))
