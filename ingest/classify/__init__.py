"""The classifier: every pattern the readers read a line or a run of text with, and each line's readings.

The outline reader works in three stages (docs/ingest.md, "The reader in three stages"): the facts about a
document, computed once; each line's possible readings, classified here; and a builder that turns readings into
units and sections without a pattern of its own. `labels` (the label grammar), `segment`, the outline's facts and
concerns, the other shapes (`ingest.shapes`) and the helpers that read a ruling's text (`parts`, `structure`,
`tables`) read text through the patterns below and `Reading`, never a pattern of their own. The rest of `ingest/`
reads text through the submodules, one for each kind of text: `furniture` (page furniture and contents pages),
`markup` (what the format readers recognise in a file), `words`, `references`, `checks` (what the audit and its
invariants look for) and `declared` (the patterns a manifest declares). This module imports none of them.
"""
from __future__ import annotations

import re
import string
from dataclasses import dataclass

from model.text import ROW

# Words a line is read with.
# Capitalised words that open a sentence rather than belonging to a heading before them.
SENTENCE_STARTERS = frozenset(
    "a an the this that these those if when once while since unless after before at any each every some "
    "all none no it its you your players player there here in on for as use to note".split()
)
# Small words allowed inside a title-case heading ("Magic Combat with Dice Rules", "Banned & Restricted").
HEADING_CONNECTORS = frozenset({"with", "of", "and", "&", "to", "for", "the", "a", "in", "on", "-"})
# Small words a numbered title may have in lower case ("Playing the Game", "Playing or Activating Abilities").
TITLE_SMALL = frozenset(HEADING_CONNECTORS | {"or", "at", "by", "from", "as", "vs", "per", "into", "onto"})
# The small words a title's second line opens with only where the title goes on ("OF MIDDLE-EARTH"; "THE RING" may be
# a heading of its own)
TITLE_GOES_ON = TITLE_SMALL - {"the", "a"}


def title_case(title: str, numbers: bool = False) -> bool:
    """Is every word of `title` capitalised but the small ones ("Defensive Throwing (Marking) Fouls"), or with
    `numbers` a number ("Learn Pluck in 60 Seconds")?"""
    return all(word.strip("“”\"'()")[:1].isupper() or word.lower() in TITLE_SMALL
               or numbers and word[:1].isdigit() for word in title.split())


# Labels as lines open with them, and the words a document numbers its parts after.
# A number in parts joined by "." or "-" opening a line, after the markup a bullet or bold leaves:
# "1-2-1. When…", "**2-3-4.** If…", "- 4.3.6 Challenge".
LABEL_OPENING = re.compile(r"^\s*(?:[-*+•]\s+)?(?:\*\*|__)?(?P<label>\d{1,4}(?:[.\-]\d{1,4})+)\.?(?:\*\*|__)?(?:\s|$)")

# Words a document puts before the number of a part of it ("Article 4", "Section 7") or of a rule ("Rule 7.11",
# "§ 4", a section sign over an article's title).
SECTION_WORDS = ("Article", "Section", "Chapter", "Part", "Appendix")

KEYWORDS = SECTION_WORDS + ("Rule", "Law", "§", "Art.")  # "Art. 2 Spieltisch.": a statute's article
KEYWORD_WORDS = frozenset(word.casefold() for word in KEYWORDS)  # folded, as words are compared

# A line a hard-wrapped text dump opens with a rule's label in parts, closed by a stop or not, before its title or
# text: "3.A.1.a. Sideline players…", "1.3.1 Map Spaces. Map spaces…", "2.0 SEQUENCE OF PLAY" (never "2.5 points",
# a number in a sentence that wrapped before it).
LABELLED_LINE = re.compile(r"(?:[A-Z]{1,3}+)?\d{1,4}+(?:\.(?:\d{1,4}+|[A-Za-z]{1,2}+(?![A-Za-z]))){1,8}+"
                           r"(?:\.[ \t]|[ \t](?=[A-Z“\"(]))")
# A line a hard-wrapped text dump opens with a bullet symbol ("• Provinces that would touch…"): an item of its own
# (markdown's own list marks, "-", "*", "+", start a list wherever they stand).
BULLET_LINE = re.compile(r"[•◦▪‣∙●○■□►➢➤◆❖✓][ \t]")
# A line opening with a lettered or roman item's label and a sentence ("a. Said items blocked…", "(ii) The player…"):
# a list markdown does not know, set under a numbered item without a blank line, each item a line of its own.
LETTERED_LINE = re.compile(r"(?:\(?(?:[a-z]|[ivx]{2,4})\)|(?:[a-z]|[ivx]{2,4})\.)[ \t]++(?=[A-Z“\"(])")

# "Article", "ARTICLE", "Rule"…: as a heading writes them, never lower case ("see rule 4.2.2e" is a reference).
KEYWORD_FORMS = f"(?:{'|'.join(re.escape(form) for word in KEYWORDS for form in (word, word.upper()))})"

# An item a flattening ran into one line with the others: "1. Pick a Character - Each player… 2. Token Tray -".
INLINE_ITEM = re.compile(r"(?:^|(?<=\s))(?P<label>\d{1,2}|[A-Za-z])\.\s+(?=[A-Z“\"(])")

# "a If two abilities…": a subrule lettered without a stop.
BARE_LETTER = re.compile(r"^\s*([a-z])\s+[A-Z“\"(]")
# "C. Serious offenses include…": a capital letter and a stop opening a line, its words after it (a lettered item
# only where the document letters a list so: `labels.capital_letters`).
CAPITAL_LETTER = re.compile(r"^([ \t]*+)([A-Z])\.[ \t]++(\S.*)$")


def glued_label(joint: str) -> re.Pattern:
    """A label joined by `joint` inside a line, closed by a full stop and followed by a capitalised word (the
    label a conversion glued onto the end of the previous unit's line: "…(See 2-3-5-4-1) 2-3-4-2. If…")."""
    return re.compile(rf"(?<=\s)(\d{{1,4}}(?:{re.escape(joint)}\d{{1,4}})+)\.\s+(?=[A-Z“\"(【])")


# A decimal label a document prints mid-paragraph after a finished sentence ("…unless otherwise specified. 9.4.2
# Once an effect begins resolving…"), its stop optional, a capitalised word after it.
SENTENCE_LABEL = re.compile(r"(?<=[.!?;)] )(\d{1,4}(?:\.\d{1,4})+)\.?\s+(?=[A-Z“\"(])")

# "727.", "1.4.6.", "1-2-1." or "a." alone on its line, its text on the next ones.
LONE_LABEL = re.compile(r"^\s*(?:\d{1,3}(?:[.\-]\d+|\.[a-z])*\.?|[a-z]\.)\s*$")

# The outline dialect's line shapes: a marked heading, a labelled item, a bullet, a title, a sentence's end.
# "## Golden Rules", "***GENERAL RULES": a heading the markup marks. One "#" before "of", or over a line in lower
# case with columns or a run of figures, is the number sign of a line of text ("# of players   Pods", "# cards 2 3
# 4", a table's header in a PDF; "# idclip          No clipping", a row a note's sign marks), not a mark; else it
# marks a heading whatever its case ("# end of the game", "# phAse 5: recAll", a publisher's titles set large in lower
# case or small capitals), as two or more do ("## exert", a glossary's term). A bold run-in opening a line of text
# ("**Quest Expiration** When a Quest expires…") marks no heading.
MARKED = re.compile(r"^(?:\*{2,}\s*(?P<star>[^*](?:[^*]|\*(?!\*))*?)\s*\**|(?P<hashes>#{1,6})\s+"
                    r"(?P<hash>(?:(?<!^#\s)|(?![a-z])|(?!of\b)(?!.*?\S(?: {3}|\t))(?!.*?\d\s+\d)).+?))\s*$")

# A title block's credits under its title, which finish what stands above them as a sentence does: its authors'
# names ("Jesse Clifton, Elijah Cohen, James Krause", "A. N. Author and B. Writer") or its date ("January 3, 2015").
_NAME = r"[A-Z][a-z]*+\.?(?:[ \t][A-Z]\.)?+(?:[ \t][A-Z][a-z'’-]++){1,2}"
_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
MONTHS = frozenset(_MONTHS.casefold().split("|"))  # a date's month, which a day's number before it is no label of
CREDIT = re.compile(rf"^(?:{_NAME}(?:(?:,[ \t]*+|[ \t]++and[ \t]++){_NAME}){{1,7}}"
                    rf"|(?:{_MONTHS})[ \t]++\d{{1,2}},[ \t]*+\d{{4}})$")

# "GENERAL RULES": a line in capitals, which may head a section.
# a line in capitals, accented ones too ("ATTAQUE LATÉRALE", "ÜBERSICHT"); "FORTIFICATIONS, CITIES," wraps
CAPS_LINE = re.compile(r"^(?P<caps>[A-ZÀ-ÖØ-ÞŒ][A-ZÀ-ÖØ-ÞŒ0-9 :&/,'’-]{2,60}[A-ZÀ-ÖØ-ÞŒ0-9],?)$")

# A rule's code as a competition manual prints it before the rule's text: "<C01> Teams must…", "<SG4> Robots…",
# "[R12] Each…", or bare, "G201 ROBOTS may not…", "A3. The arbiter shall…" (letters, then a number; one digit after
# one letter only with its stop; its text opens as a sentence, never as a citation wrapped to the line's start does:
# "<RS03> for a list of…").
CODE_LABEL = re.compile(r"[ \t]*+(?:<(?P<angled>[A-Z]{1,3}\d{1,3})>|\[(?P<square>[A-Z]{1,3}\d{1,3})\]"
                        r"|(?P<bare>[A-Z]{1,3}\d{2,3}|[A-Z]\d(?=\.))\.?)[ \t]++(?=[A-Z“\"(])")

LONGEST_HEADING = 120
# A heading the markup marks may ask at length (an FAQ's "### If a card requires me to lower…?").
LONGEST_MARKED = 3 * LONGEST_HEADING

# A lettered part of a rule number: "103.2.a.1", "727.1.c.3.a".
_DOT_LETTER = r"\.[a-z](?![a-z])"

# A capital letter part: "6.A.1" (test cases, appendices numbered under a chapter).
_DOT_CAPITAL = r"\.[A-Z](?![A-Za-z])"

# An appendix's letter before its numbers: "B1.A.2" (rule A.2 of part 1 of appendix B), or a part's before its
# rules' ("A.1.4)", rule 1.4 of part A).
_PREFIX = r"(?:[A-Z]\.?(?=\d))?"

# A chapter's lettered parts: "1A.1.1", "2B.6.8" (rule 6.8 of part B of chapter 2).
_LETTERED_CHAPTER = r"(?:[A-Z](?=\.\d))?"


# A decimal number's parts are taken possessively: else "1.1.1...1x" would be split between the two groups
# every way there is before failing. Its numbers are joined by the separators the document numbers with
# (`labels.separators`): "." always, "-" in a document numbered "1-2-1.".
# A document may letter a rule's subrules without a stop ("a If two abilities…" under "1.6 If an ability…"):
# then `bare` reads them.
def item_pattern(joints: str = ".", bare: bool = False, capitals: bool = False) -> re.Pattern:
    """The pattern of a line's opening label (a decimal rule, a roman, plain or lettered item, "Q:", "A:",
    "Example:"), its numbers joined by `joints`, its subrules lettered without a stop when `bare`, its items
    lettered in capitals with a stop ("C. Serious offenses…") when `capitals`."""
    joint = "[" + re.escape(joints) + "]"
    letters = r"|(?P<bare>[a-z])\s+(?=[A-Z“\"(])" if bare else ""
    dotted = "A-Za-z" if capitals else "a-z"
    return re.compile(
        r"^\s*(?:"
        rf"(?P<decimal>{_PREFIX}\d+{_LETTERED_CHAPTER}(?:(?:{joint}\d+)++[a-z]?|{_DOT_LETTER}|{_DOT_CAPITAL})"
        rf"(?:{joint}\d+|{_DOT_LETTER}|{_DOT_CAPITAL})*+)(?:\s?\((?P<sub>[a-z])\))?[.)]?\s+"
        r"|(?P<roman>(?=[ivx]{2})x{0,3}(?:ix|iv|v?i{0,3}))\.\s+"
        r"|(?P<number>\d{1,4}[a-z]?)(?:\.\)|[).])\s+"  # 3.  3)  3.)  "1101." of a rules document in the thousands
        # "v. 2.1-140, 28 August 2015" is a version, no item v
        rf"|\(?(?P<letter>[A-Za-z])\)\s+|(?P<dotted>(?![vV]\.\s*+\d)[{dotted}])\.\s+"
        rf"{letters}"
        r"|(?P<question>(?:\[[A-Za-z ]{1,20}\][ \t]*)?Q(?:uestion)?\s*\d*\s*[:.)])\s*"  # "[FAQ] Question:"
        r"|(?P<answer>A(?:nswer)?\s*\d*\s*[:.])\s*"
        r"|(?P<example>(?:EXAMPLES?|Examples?)(?:\s+(?:\d+|[A-Z]))?\s*:)\s*"
        r")"
    )


ITEM = item_pattern()

BULLET = re.compile(r"^\s*(?:[•◦▪‣∙●○■□►➢➤◊◆❖✓*–—-]|o(?=\s+[A-Z“\"(]))\s+")

# The number a heading gives the plain items under it: "Article 4: ...", "3 Movement", "A. Rapidplay".
_HEADING_NUMBER = re.compile(rf"^(?:{KEYWORD_FORMS}\s+(?P<named>\d+(?:\.\d+)*)\b"
                             r"|\((?P<bracketed>\d{1,3}(?:\.\d+)+)\)(?=\s)"  # "(1.2) Duplicates"
                             r"|(?P<n>\d{1,4}(?:\.(?:\d+|[A-Za-z](?![A-Za-z])|[ivx]{2,4}(?![A-Za-z])))*)(?=[.:)]?(?:\s|$))"
                             r"|(?P<letter>[A-Z]|[IVX]{2,5})[.:](?=\s))")  # "A. Rapidplay", "II. Head Protection"

TITLE_LINE = re.compile(r"^(?P<title>[\u2190-\u2bff]?[A-Z][\w'’&/ ,.()!–—-]{1,68}[\w)!](?:\s\[\w{1,8}\])?"
                        r"|[A-Z]\.[ \t][A-Z][\w'’&/ ,.()!:–—-]{1,64}[\w)!])$")  # a lettered part's: "D. Components: Taking"

SENTENCE_END = re.compile(r"[.!?。！？][”\"')\]）」』]*(?:\s+\d+)?$")  # a page number may follow


def ends_clause(text: str) -> bool:
    """Does `text` (stripped) end a sentence or a clause (a colon, a semicolon), closing quotes and brackets
    after it? A full-width script's stops too ("。", "：")."""
    return text.rstrip("”\"')]）」』").endswith((".", "!", "?", ":", ";", "。", "！", "？", "：", "；"))


# "Can a unit retreat twice?": text whose first sentence asks; an abbreviation's stops ("i.e.", "U.S.") and a
# number's ("3.5") end no sentence.
ASKS = re.compile(r"^(?:[^.!?。！？]|(?<![A-Za-z]{2})(?<=[A-Za-z])\.|\.(?=\w)){3,}+[?？]")


def ends_asking(text: str) -> bool:
    """Does `text` (stripped) end asking, its last sentence a question ("… still apply?", "… “Skip a turn”?")?"""
    return text.rstrip("”\"'’)]）」』").endswith(("?", "？"))


# Prose that ends asking without the document asking: a character's words, a question quoted after "says," or a
# colon ("Amanda says, “So, what are you trying to avoid here?”"), or a statement closed by a question tag
# ("Still, it's better than being taken out, right?"). A word quoted inside a question ("count as “accessed?”") is
# no speech.
_SPOKEN = re.compile(r"[,:][ \t]*+[“\"][A-Z][^“”\"?]{0,400}+\?[”\"][ \t]*+$")
_TAGGED = re.compile(r",[ \t]*+(?:right|eh|isn[’']t it|aren[’']t (?:they|you)|don[’']t you|won[’']t you)\?$",
                     re.IGNORECASE)


# The words of a sentence presenting a question it goes on to quote ("The central question a traditional RPG asks
# is:").
PRESENTS_QUESTION = frozenset({"question", "questions", "ask", "asks", "asked", "asking"})


def rhetorical(text: str) -> bool:
    """Does `text`, ending asking, ask as prose does rather than as the document asking: a character's quoted
    question or a statement closed by a question tag?"""
    text = text.rstrip()
    # Only the quotation's last 440 characters can match: the pattern runs from each comma or colon, so it is
    # tried on the text's tail alone.
    return bool(_SPOKEN.search(text[-440:]) or _TAGGED.search(text[-40:]))


def aside(text: str) -> bool:
    """Is `text` (stripped) wholly in parentheses, none inside ("(STER-ling)")?"""
    return len(text) >= 2 and text[0] == "(" and text[-1] == ")" and "(" not in text[1:-1] and ")" not in text[1:-1]


def closes_unopened(text: str) -> bool:
    """Does `text` close a parenthesis it never opened, past a label's ("Action Steps)", the end of "(See 8.
    Action Steps)" wrapped onto its own line; not "A) Setup")? Such a line goes on from the line before."""
    close = text.find(")")
    return close > 2 and "(" not in text[:close]


def column_names(text: str) -> bool:
    """Is `text` a table's header row of abbreviations ("M LP A D SP MD", "Bb Rb Gb Yb"): four words or more, each of
    one or two letters or digits; or a row's label and four such values or more ("PLAYERS 5 6 7 8 9 10", "EVIL 2 2
    3 3 3 4")? No heading or title is made so."""
    words = text.split()
    short = [1 <= sum(c.isalnum() for c in word) <= 2 for word in words]
    return len(words) >= 4 and all(short) or len(words) >= 5 and all(short[1:])


_ORDINAL_ENDINGS = frozenset({"st", "nd", "rd", "th"})  # "1st", "2nd", "3rd", "4th"

# What a sentence opens with: a capital, a quotation mark or a parenthesis.
_SENTENCE_OPENERS = frozenset(string.ascii_uppercase + "“\"‘'(")


def heading_number(title: str) -> str | None:
    """The number a heading gives the plain items under it ("4" for "Article 4: ...", "A" for "A. Rapidplay")."""
    match = _HEADING_NUMBER.match(title.strip(" *#"))
    return match and (match.group("named") or match.group("bracketed") or match.group("n") or match.group("letter"))


def colon_title(stripped: str) -> bool:
    """Is a line a short name in title case closed by a colon with nothing after it ("Setup:", "Day Structure:"),
    as a plain text sets a section's name? A lead-in's word ("Note:", "Example:") introduces, it heads nothing; a
    sentence's lead-in ("At the start of the game:", "Competitors may not:") is no title."""
    words = stripped[:-1].split()  # a name, no clause: "Knifed says, in part:" quotes
    return stripped.endswith(":") and 0 < len(words) <= _COLON_TITLE_WORDS and not any(c in ":,;" for c in stripped[:-1]) \
        and title_case(stripped[:-1]) and words[0].casefold() not in _LEAD_WORDS and words[-1].casefold() not in _SMALL


def heading_asks(marked: re.Match) -> bool:
    """Does a marked heading (`marked_heading`'s match) ask, past its number ("## 1. What is a Hand?", "Can a unit
    retreat twice?", a statement before the question: "Flight mentions only straight lines… How does this work?")?"""
    raw = (marked.group("star") or marked.group("hash")).strip(" *#")
    return bool(ASKS.match(without_number(raw, heading_number(raw)))) or ends_asking(raw)


_HEADER_GAPS = 2  # columns set apart by two spaces or more, this many times: a table's header, no heading


def marked_heading(line: str) -> re.Match | None:
    """`line` (stripped) as a marked heading ("## Golden Rules"); a line too long for a heading is none (and
    is not matched: the heading pattern backtracks over long runs of spaces)."""
    marked = MARKED.match(line) if len(line) <= LONGEST_MARKED else None
    # Stars left open mark a title ("***GENERAL RULES"); over a sentence they are a footnote's mark ("**For semi-final
    # matches, at events with 20 or less Team select…", a PDF's note under a table), no heading.
    if marked and marked.group("star") and not line.endswith("**") and not title_case(marked.group("star")):
        return None
    # "#  Dia  Grav Class  Diff  LSN": a plain text's table header, its first column "#", its columns set apart
    if marked and marked.group("hash") and marked.group("hash").count("  ") >= _HEADER_GAPS:
        return None
    return marked


def capitalised(word: str) -> str:
    """`word` in title case, its letters any alphabet's ("DOTYCZĄCA" -> "Dotycząca", "ÉQUIPEMENT" -> "Équipement")."""
    return _LETTERS_RUN.sub(lambda m: m.group().capitalize(), word.lower())


_LETTERS_RUN = re.compile(r"(?:[^\W\d_]|['’])++")


# Headings, separators, tables, captions and footnotes the outline reader tells apart.
# A line a list's items run on after, its sentence unfinished: a comma, a semicolon, "or", "and".
LIST_GOES_ON = re.compile(r"(?:[,;]|\b(?:or|and))$")
# A line ending on the word that cites a rule ("…except for Penalty runs under Law", "(see Rule", "(art."), or
# in a list of the rules it cites ("…see Laws 33.2 (A fair catch), 39 (Stumped),"): the number opening the next
# line is a rule it cites, not one that starts there. Read on a line's end only (`CITED_TAIL` characters).
_CITING = r"\b(?:see|laws?|rules?|art\.|articles?|sections?|§§?|paras?\.|paragraphs?|clauses?|regulations?)"
CITES = re.compile(rf"(?:{_CITING}|§§?)$|{_CITING}\s+\d[^;:!?]*(?:,|\band|\bor)$", re.IGNORECASE)
CITED_TAIL = 160
# A sentence ending inside a line: no topic's name.
SENTENCE_INSIDE = re.compile(r"[.!?]\s")
# A separator: a rule of dashes, or a few words framed by dashes ("- The End –").
RULE_LINE = re.compile(r"^\s*(?:[-=_*]{5,}|[-–—]\s*[^\W\d_][\w ]{0,20}?\s*[-–—])\s*$")


# The rights to a document, which its back matter states.
RIGHTS = re.compile(r"©|\bcopyrights?\b|\ball rights reserved\b|\blicen[cs](?:e|ed)\b|\btrademarks?\b", re.IGNORECASE)

# A page's link back to its index set on a heading's line, which a PDF or a print reads as the heading's last words
# ("2. Movement          Back to the Index", "Combat Return to top of page").
NAVIGATION = re.compile(r"[ \t]++(?:back|return|go)[ \t]++to[ \t]++(?:the[ \t]++)?"
                        r"(?:top|index|contents|table[ \t]++of[ \t]++contents)(?:[ \t]++of[ \t]++(?:the[ \t]++)?page)?"
                        r"[ \t]*+$", re.IGNORECASE)

# "Stoneskin (2 points): Add one..." - a numbered item that names something.
NAMED = re.compile(r"^(?P<name>[A-Z][\w'’ /-]{1,40}?)\s*(?:\([^)]*\))?\s*(?::|\s[-–]\s)")

# Captions of diagrams and tables name a picture, never a section.
# A line all in brackets is an editor's note or a picture's placeholder ("[Image to come. -Site editor]").
CAPTION = re.compile(r"^(?:#{1,6}\s+)?(?:(?:[Dd]iagram|DIAGRAM|[Tt]able|TABLE|[Ff]ig(?:ure|\.)|FIG(?:URE|\.)|"
                      r"[Ii]llustration|ILLUSTRATION|[Cc]hart|CHART)\s*(?:\d+[a-z]?|[A-Z])\b"
                      r"|(?:\[[^\[\]\n]*+\][ \t]*+)++$)")

# "1.2. Golden Rules": a decimal line that names what follows (a heading when deeper rules follow it); "A.1: General
# World and Game Creation", a part's letter before it and a colon after it; "2.3 – Registration", a dash after it
# ("4.00–GAME PRELIMINARIES", a long dash joining them). "17.1. Dangerous Play:" names its subrules too, when every
# word of it is capitalised.
DECIMAL_TITLE = re.compile(r"^(?P<n>(?:[A-Z]\.\d+|\d+(?=\.\w))(?:\.(?:\d+|[A-Z](?![A-Za-z])))*[a-z]?)"
                           r"(?:[.:]?\s+(?:[-–—]\s+)?|[–—](?=[A-Z]))"
                            r"(?P<title>[A-Z“\"'(][^.;:!?]{0,60}?[^.;:!?,])(?P<colon>:)?$")

# Keywords that name a part of a document, never one rule: "Section 7.2" heads a section however numbered.
KEYWORD_PART = re.compile(f"^(?:{'|'.join(SECTION_WORDS)})\\b", re.IGNORECASE)

# "Interpretation 1  Rule 7.1 (a)", "Case 2 – Law 12.3": a note numbered under the rule it cites, on a line of its own
# over its text (a rulebook's official interpretations, a case book's cases); a heading only where the document
# numbers several so (`Facts.annotations`).
ANNOTATION = re.compile(rf"^(?P<word>[A-Z][a-z]{{3,}})\s+(?P<n>\d{{1,2}})(?:\s*+[:.–—-])?\s+"
                        rf"(?P<cites>(?:{KEYWORD_FORMS}\s+)?\d+(?:\.\d+)*(?:\s*\([a-z0-9]{{1,4}}\))*)$")

KEYWORD_HEADING = re.compile(rf"^{KEYWORD_FORMS}\s+(?P<n>(?:[A-Z](?=\d))?\d+(?:\.\d+)*|[IVX]{{1,5}}(?=[:.–—-]|\s*$))(?!\.?\d)"
                              r"\s*+(?:[:.–—-]\s*+)?(?:[^.!?]*|[^\W\d_][^.!?:]{0,40}\.)$")  # a statute's short title ends in a stop

# "Section 1 The name of this organization shall be…": a keyword's number running into its part's sentence (a
# constitution's or bylaws' sections under their articles).
KEYWORD_SENTENCE = re.compile(rf"^{KEYWORD_FORMS}[ \t]++(?P<n>\d{{1,3}}(?:\.\d{{1,3}})*)\.?[ \t]++(?=[A-Z“\"(])")

# "♦Iron Ward [13]": a symbol and a card's number in brackets may frame it.
FRAMING = re.compile(r"^[\u2190-\u2bff]|\s\[\w{1,8}\]$")

# "[^1]: A judge is any staff member...": a footnote, as the readers write one.
FOOTNOTE = re.compile(r"^\s*\[\^[^\]\s]+\]:\s*")


def without_number(title: str, number: str | None) -> str:
    """A heading's title without the number it starts with and the stop or dash after it ("6.A.1. Test Case, ..."
    -> "Test Case, ...", "Rule 7.11 Instigator" -> "Instigator", "4.6 - Race Chat Rules" -> "Race Chat Rules")."""
    if not number:
        return title
    return re.sub(rf"^(?:{KEYWORD_FORMS}\s+)?\(?{re.escape(number)}[.:)]?\s*(?:[-–—]\s+)?", "", title) or title


def without_pointer(title: str) -> str:
    """`title` without the rule it points to in parentheses at its end ("Spin Serves (4.A.5)": "Spin Serves")."""
    cited = title[title.rfind(" (") + 2:-1] if title.endswith(")") and " (" in title else ""
    return title[:title.rindex(" (")] if any(c.isdigit() for c in cited) else title


def title_words(line: str) -> bool:
    """Is `line` (a part of) a title as a contents page lists it: a few words, no sentence, no label?"""
    stripped = line.strip()
    return (0 < len(stripped.split()) <= 7 and stripped[-1] not in ".,;:!?"
            and not LONE_LABEL.match(line) and not ITEM.match(stripped))


def table_cells(line: str) -> re.Match | None:
    """`line` as a row of a table laid out in columns: a number, then cells set apart by wide gaps (a row is
    short: a long line is none, and is not matched, the pattern backtracking over long runs of spaces)."""
    return _TABLE_ROW.match(line) if len(line) <= _LONGEST_ROW else None


COLUMNS = re.compile(r"\S(?>(?: {3,}|\t)\s*)\S.*\S(?: {3,}|\t)\s*\S")  # three cells or more, set apart

_LONGEST_ROW = 200

# "0.5      Draw        1": a number in the first column, then at least one more cell past a wide gap.
_TABLE_ROW = re.compile(r"^\s*[-+]?\d+(?:\.\d+)?\.?(?: {2,}|\t)\s*\S[^\t]*?(?: {3,}|\t)\s*\S")

# Glossaries: where one opens, and the shapes its terms take.
# "Glossary", "Definitions and Terms", "Terms & Definitions", "Keyword Glossary": glossary words, joined
# ("Keywords" alone names a chapter of keyword rules, no glossary), after a part's number perhaps ("Appendix B -
# Definition of Terms").
_GLOSSARY_WORD = r"(?:glossary|definitions?|terms|key terms|terminology)"

GLOSSARY = re.compile(rf"^(?:(?:\d+(?:\.\d+)*[.)]?|[A-Z][.:]|(?:appendix|annex|chapter|part)[ \t]++[A-Z0-9]{{1,4}}+"
                      rf"(?:[ \t]*+[-–—:.])?)\s+)?(?:(?:keywords?\s+)?{_GLOSSARY_WORD}"
                      rf"(?:\s+(?:(?:and|&|of)\s+)?(?:{_GLOSSARY_WORD}|keywords?))*"
                      # "Key Terms and Index": a glossary whose definitions point at the rules, as an index does
                      r"(?:\s+(?:and|&)\s+index)?"
                      # "Glossaries", "World of Darkness Glossary": a glossary named for what it covers
                      rf"|(?:[\w'’:-]+\s+){{0,4}}glossar(?:y|ies))"
                      r"(?:\s*\([^()]{1,40}\))?$", re.IGNORECASE)  # a note after it: "Glossary (partial; expandable)"

# "| Player | Any person playing Badminton. |": a two-column table's row, a term and its definition; its header
# row names the columns ("| Terms | Definitions |"), its rule row only dashes.
TABLE_TERM = re.compile(r"^\|[ \t]*+(?P<term>[^|\s][^|]{0,60}?)[ \t]*+\|[ \t]*+(?P<definition>[^|\s][^|]*?)[ \t]*+\|$")
TABLE_HEADER = re.compile(rf"^(?:{_GLOSSARY_WORD}|terms?|words?|keywords?|names?|meanings?|descriptions?)$", re.IGNORECASE)

# "bag: A non-physical zone...": a glossary term and its definition on one line.
INLINE_TERM = re.compile(r"^(?P<term>[^\s:–—][^:–—]{0,40}?)\s*(?::|\s[–—]\s)\s*(?P<definition>\S.*)$")

# "“Current Car” (or “CC”) is defined as the car…", ""Team" means…": a regulation's term in quotation marks, then the
# verb that defines it; the sentence whole is its definition, the term as printed, in its quotation marks.
QUOTED_TERM = re.compile(r"^(?P<definition>(?P<term>[“\"][^”\"\n]{1,60}+[”\"])(?:[ \t]*+\([^()\n]{0,60}+\))?[ \t]++"
                         r"(?:is|are|means|shall[ \t]++mean|refers[ \t]++to)\b[^\n]*+)$")

# "Hex. One space of the map.": a capitalised term of a few words closed by a full stop, then its definition.
DOTTED_TERM = re.compile(r"^(?P<term>[A-Z][\w'’/-]{0,30}(?: [\w'’/()-]{1,30}){0,3})\.\s+(?P<definition>[A-Z“\"(].*)$")

# A heading whose last word names what a glossary holds ("Essential Game Terminology", "Game Terms").
NAMES_TERMS = re.compile(rf"\b{_GLOSSARY_WORD}$", re.IGNORECASE)

# "## A", "## B–C": a glossary's letter headings, which group its entries.
LETTER_GROUP = re.compile(r"^[A-Z](?:\s*[-–—]\s*[A-Z])?$")

# "1 ABILITIES": a glossary topic's title that opens with its number.
NUMBERED_TOPIC = re.compile(r"(\d{1,3})\s+\S")


def term_line(line: str, apart: bool = False) -> bool:
    """Could `line` (stripped) be a glossary term on a line of its own: short (as short as a title when it
    stands `apart` over its definition), not a sentence, not a unit?"""
    short = (len(line) <= 50 and len(line.split()) <= 6
             or apart and bool(TITLE_LINE.match(line)) and len(line.split()) <= 8)
    return short and line[-1] not in ".,;:?!" and not ITEM.match(line) and not marked_heading(line)


def opens_definition(line: str) -> bool:
    """Does `line` open a glossary term's definition: a sentence, or its first numbered sense ("1. Text…")?"""
    item = ITEM.match(line)
    if item and item.group("number") == "1":
        return _defines(line[item.end():].strip())
    return _defines(line.strip())


def _defines(line: str) -> bool:
    """Does `line` read as a definition (a wrapped or finished sentence, or one introducing a list: "A player
    establishes possession of a pass when:"), not a heading or another term?"""
    introduces = line.rstrip().endswith(":") and len(line.split()) >= 5
    return (len(line) > 50 or bool(SENTENCE_END.search(line)) or introduces) and not ITEM.match(line)


def term_fragment(line: str) -> bool:
    """Is `line` the end of a term wrapped onto a line of its own ("disc" under "Making a play on the")?"""
    stripped = line.strip()
    return bool(stripped) and stripped[0].islower() and len(stripped.split()) <= 3 and stripped[-1] not in ".,;:!?"


def table_term(line: str) -> re.Match | None:
    """A row of a two-column table of terms and definitions ("| Player | Any person playing Badminton. |", its
    cells `TABLE_TERM`'s "term" and "definition"), not its header row (see `table_header`); else None."""
    row = TABLE_TERM.match(line.strip())
    return None if row is None or table_header(line) else row


def row_cells(line: str) -> list[str]:
    """The cells holding text of a table row as the readers write one ("| 1. Introduction | 2 |"): no empty cell,
    no rule's ("- ", ":--")."""
    return [cell.strip() for cell in line.strip().strip("|").split("|") if cell.strip(" -:")]


def table_header(line: str) -> bool:
    """Is `line` the header row of a table of terms, its cells naming the columns ("| Terms | Definitions |")?"""
    row = TABLE_TERM.match(line.strip())
    return bool(row and TABLE_HEADER.match(row.group("term")) and TABLE_HEADER.match(row.group("definition")))


def spaced_term(line: str) -> tuple[str, int] | None:
    """(term, where its definition starts) of a "Term Definition" line ("Pivot Location The point on the
    playing field…"): the definition opens at the first capitalised word after the term's first word (past a
    parenthesis: "Out-of-bounds (OB) Everything…") or, in a run of them, at the one that opens sentences
    ("The"); the term is a short phrase not ending in a small word, the definition a few words at least."""
    words = list(NON_SPACE.finditer(line))
    if len(words) < 3 or not words[0].group()[:1].isupper():
        return None
    opening = next((i for i in range(1, len(words)) if words[i].group()[:1].isupper()), None)
    if opening is None or len(words) - opening < 2:
        return None
    run = opening
    while run + 1 < len(words) and words[run + 1].group()[:1].isupper():
        run += 1
    split = next((i for i in range(opening, run + 1) if words[i].group().lower() in SENTENCE_STARTERS), run)
    term = line[:words[split].start()].strip()
    if split > 5 or len(term) > 40 or term.split()[-1].lower() in TITLE_SMALL or term[-1] in ".,;:!?":
        return None
    return term, words[split].start()


# Questions bulleted onto one line.
# A bullet set inside a line, and a question it opens, answered past a wide gap ("Is there a turn limit?    No").
INLINE_BULLET = re.compile(r"(?:^|(?<=\s))[•●▪◦](?=\s)")

INLINE_ASKS = re.compile(r"\s*[^?\s][^?]{2,300}?\?[”\"’]?(?:\s{2,}\S|\s*$)")

# Steps numbered after a word.
# "STEP 7-PLACE GAME BOARD TOKENS: Place the custodians…", "Phase 2: Draw": a step numbered after a word.
STEP = re.compile(r"^\s*(?P<word>[A-Z][A-Za-z]{2,11})\s+(?P<n>\d{1,2})\s*[-–—:.]\s*"
                    r"(?:(?P<title>[A-Z][A-Z0-9 '’&/-]{2,60}[A-Z0-9])\s*:\s*)?(?P<body>\S.*)$")

# A document's record of its own revisions ("UPDATE SUMMARY", "Previous Update Summary", "Revision History"); never
# "Errata", which state the cards' and rules' text in force, the text a judge rules by.
CHANGELOG = re.compile(r"^(?:previous\s+|recent\s+|earlier\s+|rules?\s+)?(?:update\s+summar(?:y|ies)|change\s*log|"
                       r"summary\s+of\s+changes|changes\s+(?:in|since|from)\b|revision\s+history|"
                       r"version\s+history|what['’]s\s+new)", re.I)

# Words, sentences and questions in running text.
# The words of a slug: letters and digits, dotted ones kept whole (rule numbers like 100.1a).
SLUG_WORD = re.compile(r"[a-z0-9]+(?:\.[a-z0-9]+)*")
# Where a sentence ends and the next begins.
# (never after "e.g.", "i.e.", "cf." or "vs.": "(e.g. PATHFINDER Markerlights)" goes on; nor after "excl.", "incl.",
# "approx.", "esp.": "Dry Four Lights (4 lights excl. Rain)"; nor after a title, "Dr. Grey"; nor after a page's "p.",
# "pp." or "pg.": "Rulebook p. 180 “Unstable”")
SENTENCE_BREAK = re.compile(r"(?<=[.!?])(?<!\b[Ee]\.g\.)(?<!\b[Ii]\.e\.)(?<!\b[Cc]f\.)(?<!\b[Vv]s\.)(?<!\b[Pp]\.)"
                            r"(?<!\b[Pp][pg]\.)(?<!\bexcl\.)(?<!\bincl\.)(?<!\besp\.)(?<!\bapprox\.)"
                            r"(?<!\bDr\.)(?<!\bMr\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bSt\.)\s+(?=[A-Z0-9\"“(])")
# A demonstrative pointing back ("This is…", "…exceptions to this:"), with what follows it.
POINTS_BACK = re.compile(r"\b(?:this|these|that)\b(\W*)(\w*)", re.I)
WORD = re.compile(r"[A-Za-z0-9][\w'’-]*")
# A run of letters and digits: the words names, titles and file names are compared by.
WORD_RUN = re.compile(r"[^\W_]+")
# Two letters or more in a row: a word, never a number or a stray letter.
LETTERS = re.compile(r"[^\W\d_]{2,}+")
# A label's parts, whatever joins them: its numbers and its runs of letters ("7.4b": 7, 4, b).
LABEL_PARTS = re.compile(r"\d++|[A-Za-z]++")
# A file name's extension (".pdf").
EXTENSION = re.compile(r"\.\w+$")
# The typographic ligatures a PDF extraction may keep as one character ("ﬁrst"): ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ; with the space an
# InDesign text layer sets after ﬁ, ﬂ, ﬃ or ﬄ inside a word ("Clariﬁ cation", "ﬁ rst", "Conﬂ ict": no English word
# ends on one of them; "oﬀ the" does on ﬀ).
LIGATURE = re.compile("[\ufb01-\ufb04](?: (?=[a-z]))?|[\ufb00\ufb05\ufb06]")

# "Counter Spells… any spells that affect..." — a short capitalised lead-in closed by an ellipsis is a title.
LEAD_IN = re.compile(r"((?:[A-Z][\w'’-]*\s+){0,3}[A-Z][\w'’-]*)\s*(?:…|\.\.\.)\s")

# The words a question opens with ("Does" / "Watchtower Grid" / "see the tunnel…?" is no heading "Does").
ASKING_WORD = re.compile(r"(?:what|how|why|when|where|which|who|whose|can|could|do|does|did|is|are|was|were|will|"
                         r"would|should|shall|may|might|must|has|have|had|if)\b", re.IGNORECASE)

# A unit that asks and answers: "Q: …", or a question opening with an asking word, its first sentence (a stop
# inside it is an abbreviation's, "Harishchandra Ent. and…"; "When you roll, say so. How…?" is no question), then
# its answer.
ASKS_AND_ANSWERS = re.compile(rf"^(?:Q[:.][ \t]|Question(?:[ \t]*+\d{{1,4}}+)?[:.][ \t]|{ASKING_WORD.pattern}"
                              rf"(?:[^?.!\n]|[.!](?!\s+(?-i:[A-Z]))){{4,240}}+\?[”\"’]?[ \t]++\S)", re.IGNORECASE)

NON_SPACE = re.compile(r"\S+")


# The other shapes (`prose`, `flat`) and the helpers that read a ruling's text (`parts`, `structure`, `tables`).
# "How To AttackThe": a heading an HTML stripping glued to the text after it, where a capitalised word meets a
# lower-case letter.
GLUED_HEADING = re.compile(r"(?<=[a-z])(?=[A-Z][a-z])")
# Blog posts: a post's date line, and the comments under it (within their line: `\s*` would run on over blank
# lines, from each of them: quadratic).
DATE_LINE = re.compile(r"^(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, )?[A-Z][a-z]+ \d{1,2}, \d{4}$")
COMMENTS = re.compile(r"^[^\S\n]*(?:\d+ comments?:?|Post a Comment|Posted by .*|Labels?: .*)[^\S\n]*$", re.M)


def _at_or_after(body: str, after: str) -> tuple[re.Pattern, re.Pattern]:
    """`body` where a run of text starts, and `body` after `after` inside the run."""
    return re.compile(body), re.compile(f"(?<={after}){body}")


# "MAGIC MISSILES (A) Up to two...": a spell-list entry, its name in capitals and its type letters.
# A name of at most eight words: tried from every word of a run of capitals, an unbounded one would read the
# rest of the run from each (quadratic).
SPELL = _at_or_after(r"(?P<name>[A-Z]{2,}(?: [A-Z]{2,}){0,7}) \((?P<type>[A-Z](?:/[A-Z])*)\) ", r"[.!?)\w] ")
# "Walls - Any attacks...", "SHIELD - The SHIELD spell...": a defined term opening a sentence.
DEFINED_TERM = _at_or_after(r"(?P<term>[A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*){0,2}) [-–] (?=[A-Z])", r"[.!?)] ")
INLINE_NUMBER = re.compile(r"(?:^|(?<=[\s.…:]))(\d{1,2})\) ")  # "2) " inside running text
ROUND = re.compile(r"\bRound (\d+)\b")  # an example of play's rounds

# A rulebook flattened onto a line: its table of contents and entries ("B. Movement ..... 12"), its items counted
# inside a sentence, its examples, and the sentences that return from an example to the rules.
CONTENTS = re.compile(r"\b(?:Table of Contents|Contents)\b")
CONTENTS_ENTRY = re.compile(r"(?P<title>(?:(?P<letter>[A-Z])\.\s+)?[^….\d][^…]{0,80}?)\s*[….]{2,}[….\s]{0,200}"
                            r"(?P<page>\d+)")
FLAT_ITEM = re.compile(r"(?:(?<=[.:)!?] )|(?<=[.:] ))(\d{1,2})\. (?=[A-Z])")
FLAT_EXAMPLE = re.compile(r"(?<=[.!?] )Example: ")
RULE_OPENER = re.compile(r"(?<=[.!?] )(?:If|After|Unless|Once|Whenever|Before|Any|None|In addition)\b")


def entry_heading(title: str, letter: str | None) -> re.Pattern:
    """The heading a contents entry titled `title` (lettered `letter`) names, as the body prints it: its words
    apart by any space, quoted or not, in any case."""
    words = r"\s+".join(re.escape(w) for w in title.strip("“”\"").split())
    prefix = rf"{letter}\.\s+" if letter else ""
    return re.compile(rf"(?:(?<=\s)|^){prefix}[“\"]?{words}[”\"]?(?=\s)", re.I)


# A run-in sub-heading: a few capitalised words (or any words in bold) closed by a full stop, a colon or a dash,
# then the part's text on the same line. "Note:" and "Example:" introduce, they do not head.
RUN_IN = re.compile(r"^(?:\*\*|__)?+(?P<head>[A-Z][^\s.:—–*_]*+(?:[ \t](?!-[ \t])[^\s.:—–*_]++){0,5}+)"
                    r"(?:\*\*|__)?+"
                    r"(?:[ \t]*+[.:]|[ \t]++[—–-])(?:\*\*|__)?+[ \t]++(?=[\"“(A-Z0-9])")
BOLD_RUN_IN = re.compile(r"^(?:\*\*|__)(?P<head>[^*_\n]{1,60}?)[.:]?(?:\*\*|__)[.:]?[ \t]++\S")
_HEAD_WORDS = 6
_COLON_TITLE_WORDS = 4
_LEAD_WORDS = frozenset({"note", "notes", "example", "examples", "exception", "exceptions", "important", "reminder",
                         "clarification", "errata", "q", "a", "question", "answer", "see", "step", "yes", "no"})
_SMALL = frozenset({"a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the", "to",
                    "vs", "with", "&", "-", "/"})


def run_in_heading(line: str, listed: bool = False) -> str:
    """The run-in sub-heading a paragraph opens with ("Constant Abilities" of "Constant Abilities — A constant
    ability is…", "Attacking" of "**Attacking.** When…"), or "". A sentence's start is none: the heading's words
    are capitalised but for small words ("Move X Spaces: If…"), or set in bold. A list's item (`listed`) may name
    its part before a colon whatever case the part opens in ("Lantern: reduced to 2 Ducats.")."""
    line = line.lstrip()
    bold = BOLD_RUN_IN.match(line)
    if bold and len(bold.group("head").split()) <= _HEAD_WORDS + 2:
        head = bold.group("head").strip(" .:")
        return head if head.casefold() not in _LEAD_WORDS else ""
    found = RUN_IN.match(line)
    named, colon, part = line.partition(": ")
    if found:
        head = found.group("head")
    elif listed and colon and part.strip() and 0 < len(named.split()) <= _HEAD_WORDS:
        head = named
    else:
        return ""
    words = head.split()
    if words[0].casefold() in _LEAD_WORDS or words[-1].casefold() in _SMALL or head.count("(") != head.count(")"):
        return ""
    # One capitalised word and a full stop is any sentence's start ("Libya. Their training…"); a colon or a dash
    # after it heads ("Timing — …").
    if found and len(words) == 1 and line[found.end("head"):].lstrip(" \t*_")[:1] == ".":
        return ""
    # a word in parentheses is as capitalised as another ("Round (or Combat Turn) —", "Earthborn (or Vatborn) -")
    if not all(w.lstrip("(")[:1].isupper() or w.lstrip("(")[:1].isdigit() or w.lstrip("(").casefold() in _SMALL
               for w in words):
        return ""
    return head


def names_a_value(line: str, name: str) -> bool:
    """Is what follows the run-in `name` on `line` only a value, figures without a word ("Armor: 1/2", "Movement:
    4\"/10\""): a line of a unit's profile, which its heading names, no named thing of its own ("Sun: R-50, R-51"
    names the cards of a class)?"""
    rest = line[line.find(name) + len(name):].strip(" :–—-*")
    return any(char.isdigit() for char in rest) and not any(char.isalpha() for char in rest)

# Punctuation that closes what comes before it: a line opening with it carries on the last word.
CLOSES = re.compile(r"[,.;:!?)\]’”](?:\s|$|s\b)")

# Two or more consecutive lines written as table rows.
PIPE_RUN = re.compile(r"(?m)^[ \t]*\|.*\|[ \t]*(?:\n[ \t]*\|.*\|[ \t]*)+$")
# One cell of a table read down its columns: a number alone on its line ("4", "10", "-2", "1.5", "25%").
CELL = re.compile(r"[-+–]?\d{1,6}(?:[.,]\d+)?%?\+?")
# The line naming the columns: a few words, no digits, no sentence punctuation ("Route Length Points Scored").
COLUMN_NAMES = re.compile(r"[A-Za-z][A-Za-z'’()/&-]*(?: [A-Za-z'’()/&-]+){1,11}")


# A line that is a number and perhaps a title: "6. ABILITIES, EFFECTS, AND RESOLVING", "100. General", "103. To
# play, a player must…", "3 BASIC RULES", "7". Its number is every digit it opens with, its title runs from the
# first character past the space after the number (or its stop) to the last; the `Reading` tells the shapes apart
# by their number, stop and title. Not `\S.*?\s*$`: quadratic.
# a number, its stop, and perhaps a title, a dash maybe setting it apart ("1 - Use Common Sense")
NUMBERED_LINE = re.compile(r"(?P<n>\d{1,4})(?P<stop>[.)]?)"
                           r"(?:(?:(?<=\d)\s+[-–—](?=\s+[^\W\d]))?\s+(?P<title>\S(?:.*\S)?))?")

_CAPITALS = frozenset(string.ascii_uppercase)
_CAPITAL_TITLE = _CAPITALS | frozenset(string.digits + " ,:&/'’()-")  # what a chapter's title is written in
_TOPIC_TITLE = _CAPITALS | frozenset(string.digits + " ,'’&()/-")     # and a numbered glossary topic's


@dataclass(frozen=True)
class Reading:
    """What one line of the outline dialect may be, read once with the document's label grammar (its item
    pattern); the reader asks a line's reading, never a pattern, whenever it looks at that line."""

    item: re.Match | None      # the label it opens with ("4.3.6", "a)", "Q:", "Example:")
    marked: re.Match | None    # a heading the markup marks ("## Golden Rules")
    bullet: re.Match | None    # the bullet it opens with
    footnote: re.Match | None  # the marker of a footnote ("[^1]: ")
    caption: bool              # a diagram's or table's caption ("Diagram 3"): never a heading
    separator: bool            # a rule of dashes, or words framed by dashes ("- The End –")
    numbered: re.Match | None  # a number and perhaps a title (`NUMBERED_LINE`), the line stripped
    lone: bool                 # a label alone on its line, its text on the next ones ("727.", "1.4.6.")
    caps: bool                 # in capitals ("GENERAL RULES")
    title: bool                # a title ("The Golden Rules", "♦Iron Ward [13]")
    aside: bool                # wholly in parentheses ("(STER-ling)")
    opens_sentence: bool       # opening as a sentence does (a capital, a quotation mark, a parenthesis)
    ends_sentence: bool        # ending a sentence (a page number may follow)
    ends_clause: bool          # ending a sentence or a clause (a colon, a semicolon)
    ends_asking: bool          # its last sentence asking
    goes_on: bool              # ending as a line a list's items run on after does (a comma, "or", "and")
    cells: bool                # a row of a table laid out in columns (`table_cells`)
    row: bool                  # a table row as the readers write one ("| a | b |")
    keyword: re.Match | None   # a heading a keyword numbers ("Article 4: ...", `KEYWORD_HEADING`)
    decimal: re.Match | None   # a decimal number and a title ("1.2. Golden Rules", `DECIMAL_TITLE`)
    annotation: re.Match | None  # a note numbered under the rule it cites ("Interpretation 1  Rule 7.1 (a)")
    credit: bool = False       # a title block's names or date ("Jesse Clifton, Elijah Cohen", "January 3, 2015")
    cites: bool = False        # ending on the word that cites a rule, its number wrapped on ("…under Law", `CITES`)

    def chapter(self) -> re.Match | None:
        """"1.      CONCEPTS", "6. ABILITIES, EFFECTS, AND RESOLVING": a chapter, its title in capitals."""
        line = self.numbered
        title = line and line.group("title")
        return line if (title and line.group("stop") and len(line.group("n")) <= 3 and title[0] in _CAPITALS
                        and (title[-1] in _CAPITALS or title[-1] in string.digits + ")")
                        and len(title) >= 2 and _CAPITAL_TITLE.issuperset(title)) else None

    def section(self, colon: bool = False) -> re.Match | None:
        """"100. General": a numbered line that only names what follows, in a few words (a title with commas,
        "4. Point, Goal and Game", or a colon, "9. Challenge 1: simple navigation", only over rules numbered under
        it, 4.1: the builder's test); with `colon`, one closed by a colon ("4. Robot control requirements:", a
        heading only over rules numbered under it)."""
        line = self.numbered
        title = line and line.group("title")
        if colon:
            title = title[:-1] if title and title.endswith(":") else None
        # a stop inside it ends no sentence ("808. Team vs. Team Variant")
        return line if (title and line.group("stop") and title[0] in _CAPITALS and 3 <= len(title) <= 52
                        and all(c.isalnum() or c in "_'’&/ ,-.:" for c in title[1:-1])
                        and (title[-1].isalnum() or title[-1] in "_)")
                        and all(title[at - 1].isalpha() and title[at + 1:at + 2] == " "
                                for at, c in enumerate(title) if c == ".")
                        and ("." not in title or not SENTENCE_BREAK.search(title))) else None

    def top(self) -> re.Match | None:
        """"103. To play, a player must..." / "429. Add": a plain number of a document that numbers its rules from
        the top, and its text."""
        line = self.numbered
        return line if line and line.group("title") and line.group("stop") == "." and len(line.group("n")) <= 3 \
            else None

    def bare(self) -> re.Match | None:
        """"3 BASIC RULES and what you can do": a number without a stop, then a title (a heading only in a
        sequence); not a table's row laid out in columns ("5 CN Central Node  21 S Supply")."""
        line = self.numbered
        title = line and line.group("title")
        # a title opens with a capital of any alphabet ("1 Úvod"), or a letter of one without case ("6 禁止事項");
        # a sentence's stops are a full-width script's too ("。", "：")
        # an ordinal opens one too ("22 1st REFEREE", "23 2nd REFEREE")
        opening = title.split()[0].lstrip(string.digits) if title else ""
        return line if (title and not line.group("stop") and len(line.group("n")) <= 2
                        and (title[0].isalpha() and not title[0].islower()
                             or title[0].isdigit() and opening.casefold() in _ORDINAL_ENDINGS)
                        and 2 <= len(title) <= 72 and title[-1] not in ".!?;:,。！？：；、，" and "  " not in title
                        and not any(c in ".!?;:。！？：；" for c in title[1:-1])) else None

    def topic(self) -> re.Match | None:
        """"4 ACTIVE PLAYER", "7" (its title on the next line): a glossary topic the document numbers."""
        line = self.numbered
        title = line and line.group("title")
        return line if (line and not line.group("stop") and len(line.group("n")) <= 3 and (title is None or (
            title[0] in _CAPITALS and 2 <= len(title) <= 61 and _TOPIC_TITLE.issuperset(title)))) else None


# How far a line is indented for a "#" at its start to mark no heading (markdown's: four spaces make code).
_CODE_INDENT = 4


def read_line(line: str, item: re.Pattern) -> Reading:
    """`line`'s `Reading`, its label read with `item` (the document's item pattern)."""
    stripped = line.strip()
    marked = marked_heading(stripped)
    if marked and marked.group("hashes") and line[:_CODE_INDENT].isspace():
        marked = None  # "          #    A corridor…": a map's symbol in an indented text; no heading is indented so far
    return Reading(item.match(line), marked, BULLET.match(line), FOOTNOTE.match(line),
                   bool(CAPTION.match(stripped)), bool(RULE_LINE.match(line)), NUMBERED_LINE.fullmatch(stripped),
                   # "VETERAN [12]": a name in capitals, its cost framing it
                   bool(LONE_LABEL.match(line)), bool(CAPS_LINE.match(FRAMING.sub("", stripped)))
                   and not column_names(stripped),
                   bool(TITLE_LINE.match(stripped)) and not closes_unopened(stripped) and not column_names(stripped),
                   aside(stripped), stripped[:1] in _SENTENCE_OPENERS, bool(SENTENCE_END.search(stripped)),
                   ends_clause(stripped), ends_asking(stripped), bool(LIST_GOES_ON.search(stripped)),
                   bool(table_cells(line)), bool(ROW.match(stripped)), KEYWORD_HEADING.match(stripped),
                   DECIMAL_TITLE.match(stripped), ANNOTATION.match(stripped), bool(CREDIT.match(stripped)),
                   bool(CITES.search(stripped[-CITED_TAIL:])))


def read_lines(lines: list[tuple[int, str]], item: re.Pattern) -> list[Reading]:
    """Each line's `Reading`, its labels read with `item` (the document's item pattern)."""
    return [read_line(line, item) for _, line in lines]
