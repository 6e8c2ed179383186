"""What words look like in running text: a word, a hyphenated or broken word, a doubled one, stray spaces and
control characters, glyphs a conversion left, names and acronyms in a title, a spell's type and use (`ingest.clean`,
`text`, `titles`, `spells`, `editions` read words by these)."""
from __future__ import annotations

import re

# What a unit says, as words: case and punctuation aside ("challenges." is "challenges" followed by more).
WORD_CHARS = re.compile(r"\w+")

# Spaces of other widths (no-break, thin, ideographic…) and tabs, which become plain spaces.
ODD_SPACES = re.compile(r"[\u00a0\u2000-\u200a\u202f\u205f\u3000\t]")
# A run of letters: a word as the vocabulary counts it, and the pieces split words are rejoined from.
LETTER_RUN = re.compile(r"[^\W\d_]+")
# A word a line's end broke at a hyphen ("non-" over "icebreaker"); a label after it ("ii.") is no half. Both
# patterns start only at a word's start: from inside a 9 MB word each start would read it to its end again.
# A PDF's text runs may stand a blank line apart ("non-" / "" / "virus").
BROKEN_WORD = re.compile(r"(?<![^\W\d_])(?P<left>[^\W\d_]++)-[ \t]*+\n(?:[ \t]*+\n)?[ \t]*+(?P<right>[^\W\d_]{2,}+)(?P<stop>[.)]?)")
HYPHENATED = re.compile(r"(?<![^\W\d_-])[^\W\d_]++(?:-[^\W\d_]++)++")

# Tokens are bounded so that a long run of non-space text cannot make the match backtrack quadratically.
DOUBLED_WORD = re.compile(r"(?<!\S)(\S{0,40}[A-Za-z]\S{0,40})((?:[ \t]+|[ \t]*\n[ \t]*)\1)+(?!\S)")

# A gap between two words on a line (indentation is not a gap).
WORD_GAP = re.compile(r"(?<=\S) +(?=\S)")
# In a double-spaced text, a lone space before punctuation is where a font change split the line ("Riftbound ,").
SPLIT_PUNCTUATION = re.compile(r"(?<=[^\s.]) (?=[.,;:!?)]+(?:\s|$)|['’]s\b)", re.M)

# A soft hyphen is an invisible break point inside a word ("exam\u00adple" is "example"); typed between
# numbers or words ("6\u00ad10 players", "Gold \u00ad Silver") it stands for a dash (`dash`). A zero-width space,
# word joiner, stray byte-order mark or an embedded object's placeholder (a converted document's "\ufffc(d) draw up
# minutes…") shows nothing either ("1.\u200b Randomly deal…", a word processor's text), but after a list's label it
# stands where the label's tab was ("10.\u200bThe Player…": `space`).
SOFT_HYPHEN = re.compile("(?P<dash>(?<=\\d)\u00ad(?=\\d)|(?<=\\s)\u00ad|\u00ad(?=\\s))"
                         "|(?P<space>(?<=[.)])\u200b(?=\\w))|[\u00ad\u200b\u2060\ufeff\ufffc]")

# Spaces ending a line (the lookbehind keeps long space runs linear).
TRAILING_SPACES = re.compile(r"(?<! )[ ]+$", re.M)

# Small words, which a name or a title writes in lower case ("Slay the Spire").
SMALL_WORDS = frozenset("a an and at by for from in of on or the to with vs".split())

# A word of a title, an apostrophe inside ("Player's").
TITLE_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
# A number, a version ("v1.4", "2.0"), a roman numeral or a single letter: they name no game either.
TITLE_COUNTER = re.compile(r"(?:v(?:er)?)?\d[\d.,/-]*|[ivxlc]+|[a-z]", re.I)
# A run of capitalised words as names are written: small words and a colon inside ("Magic: The Gathering",
# "Slay the Spire", "Warhammer 40,000: Conquest"), digits after the first word.
_NAME_WORD = r"(?:[A-Z][\w'’&.-]*[\w]|[A-Z])"
NAME_RUN = re.compile(rf"{_NAME_WORD}(?:(?::[^\S\n]+|[^\S\n]+(?:(?:{'|'.join(sorted(SMALL_WORDS))})[^\S\n]+)*)"
                      rf"(?:{_NAME_WORD}|\d[\d,.]*\d|\d))*")

# A word in capitals after a lower-case word on the same line: two to five letters, a plural "s" ("GM", "NPCs").
ACRONYM = re.compile(r"(?<=[a-z,;] )[A-Z]{2,5}s?\b(?=[ ,.;:!?)])")
# A word of letters, an apostrophe inside ("Player's"): the words a title in capitals is recased by.
LETTERED_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
# The name a document calls itself by after "the" or "this": up to four capitalised words ("the Rules Reference").
SELF_NAMING = re.compile(rf"\b(?:[Tt]he|[Tt]his)\s+((?:{_NAME_WORD}\s+){{0,3}}{_NAME_WORD})")


def phrase(words: list[str]) -> re.Pattern:
    """`words` (each a run of word characters) written in a text, in any case, apart by any space ("Ticket to
    Ride" in "ticket  to ride"), each whole."""
    return re.compile(r"\b" + r"\s+".join(map(re.escape, words)) + r"\b", re.IGNORECASE)


# A spell-list entry's type letters in brackets, after its name perhaps ("MAGIC MISSILES (A) Up to…"), and its text.
SPELL_TYPE = re.compile(r"^(?:[A-Z][A-Z '’-]+ )?\((?P<type>[A-Z](?:/[A-Z])*)\)\s*(?P<body>.*)$", re.S)
# The dice pattern is what a spell is cast with: "Use <pattern> to <effect>" or "<pattern> can be used to <effect>".
SPELL_USE = re.compile(r"^(?:Use\s+)?(?P<pattern>.+?)(?<!\b[Uu]p)\s+(?:can be used\s+)?to\s+(?P<effect>.+)$", re.S)

# The label an example opens with in the document ("Example:", "Examples -").
EXAMPLE_LEAD_IN = re.compile(r"^Examples?\s*[:.–-]\s*(?=\S)", re.I)
