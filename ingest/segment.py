"""Shared machinery for cutting a cleaned document into blocks (future rulings).

A `Block` is a ruling before it has an id: a section path, a label, a title and the spans of the cleaned
text it covers. The source-shape modules in `ingest.shapes` find blocks with the helpers below.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ingest.classify import (
    ASKS_AND_ANSWERS,
    LEAD_IN,
    POINTS_BACK,
    SENTENCE_BREAK,
    SENTENCE_STARTERS,
    SLUG_WORD,
    WORD,
    run_in_heading,
)
from model.text import ROW, STOPWORDS


@dataclass
class Block:
    """A future ruling: where it sits, what it is called, and which spans of the cleaned text it covers."""

    section: tuple[str, ...]
    label: str
    title: str
    pieces: list[tuple[int, int]]
    kind: str = "clarification"
    examples: list[tuple[str, list[tuple[int, int]]]] = field(default_factory=list)
    slug: str | None = None  # overrides slugify(label) in the ruling id
    id_section: tuple[str, ...] | None = None  # section path for the id, when it differs from `section`
    # label of the unit this one is part of: the rule it is a subrule of (1.9.4 for 1.9.4.2, 702.11 for 702.11b),
    # or the glossary entry a sub-heading or step of it belongs to
    parent: str | None = None
    # spans of the cross-reference lines ("Related Topics: A, B") attached to it: links, not its text
    related: list[tuple[int, int]] = field(default_factory=list)

    @property
    def start(self) -> int:
        return self.pieces[0][0]

    @property
    def end(self) -> int:
        return self.pieces[-1][1]


def slugify(text: str, max_words: int = 8) -> str:
    """"EARTH: GOLD MAGIC" -> "earth-gold-magic"; keeps letters, digits and dots (rule numbers like 100.1a)."""
    words = SLUG_WORD.findall(text.lower().replace("’", "").replace("'", ""))
    return "-".join(words[:max_words])


# Adjectives that mean nothing without the "rules" after them ("New Rules", "Optional Rules").
_NEEDS_NOUN = frozenset({"new", "optional", "basic", "advanced", "special", "house", "additional", "tournament"})


def section_slug(title: str) -> str:
    """Slug of a section title: the part before a colon, without a trailing "rules" ("GENERAL RULES" -> "general")."""
    head = title.split(":")[0]
    words = slugify(head).split("-")
    if len(words) > 1 and words[-1] in ("rules", "rule") and words[-2] not in _NEEDS_NOUN:
        words = words[:-1]
    return "-".join(words)


def topic_slug(text: str, words: int = 5) -> str:
    """A label for an unlabelled paragraph: its first few content words ("all-weapons-grant-bonus")."""
    content = [w for w in slugify(text, 40).split("-") if w and w not in STOPWORDS]
    return "-".join(content[:words]) or "paragraph"


def _break_outside_parentheses(text: str) -> re.Match | None:
    """The first sentence break of `text` outside a parenthesis ("Anglo-Egyptian Royal Engineers (Royal Eng. 5-3-8):
    These units…" ends after "units…", never at "Eng."); the parentheses counted once, from break to break."""
    depth, counted = 0, 0
    for found in SENTENCE_BREAK.finditer(text):
        depth += text.count("(", counted, found.start()) - text.count(")", counted, found.start())
        counted = found.start()
        if depth <= 0:
            return found
    return None


def first_sentence(text: str, limit: int = 90) -> str:
    """The first sentence of `text` (or its lead-in title), clipped at a word boundary to about `limit` characters;
    of a table, the cells of its first row ("D6, Result" for "| D6 | Result |")."""
    first = text.lstrip().split("\n", 1)[0].strip()
    if ROW.match(first):
        text = ", ".join(cell for cell in (c.strip(" *_") for c in first.strip("|").split("|")) if cell.strip("-: "))
    text = " ".join(text.split())
    lead_in = LEAD_IN.match(text)
    if lead_in:
        return lead_in.group(1)
    match = _break_outside_parentheses(text)
    sentence = text[:match.start()] if match else text
    if len(sentence) > limit and (head := run_in_heading(text)):
        return head  # "Maelstrom of Battle: At the end of your move, roll…": the part it heads, not a clipped sentence
    if len(sentence) > limit:
        sentence = sentence[:limit].rsplit(" ", 1)[0] + "…"
    return sentence


def content_stems(text: str) -> set[str]:
    """Five-letter stems of the content words of `text`, for comparing topics cheaply."""
    return {w.lower()[:5] for w in WORD.findall(text) if w.lower() not in STOPWORDS and len(w) > 2}


_CONTINUATION_OPENERS = ("first", "next", "then", "finally", "also", "even", "note", "however", "so", "thus",
                         "it", "it's", "they", "otherwise", "instead", "likewise", "-", "•", "*")
_PRONOUN_VERBS = frozenset("is are was were means allows applies includes happens works can may will should "
                           "does has".split())


def continues_topic(paragraph: str, heading: str, previous: str) -> bool:
    """Does an unheaded paragraph continue the current topic, or start a new one?

    It continues when it shares a content word with the topic's heading, follows a paragraph that ends
    with a colon (a list), opens with a sequencing word ("Then", "Finally") or points back with a
    demonstrative pronoun ("This is...", "...exceptions to this:").
    """
    if previous.rstrip().endswith(":"):
        return True
    if heading and content_stems(paragraph) & content_stems(heading):
        return True
    words = paragraph.split()
    if not words:
        return True
    if words[0].lower().strip(",:") in _CONTINUATION_OPENERS:
        return True
    sentence = first_sentence(paragraph, 400)
    for match in POINTS_BACK.finditer(sentence):
        punctuation, following = match.groups()
        # "...exceptions to this:" ending the paragraph points back; "...is this: Whenever..." points ahead.
        if punctuation.strip() == ":" and match.end(1) < len(paragraph.rstrip()):
            continue
        if punctuation.strip() or not following or following.lower() in _PRONOUN_VERBS:
            return True
    return False


def consecutive_numbers(text: str, pattern: re.Pattern, start: int = 0, end: int | None = None) -> list[re.Match]:
    """Matches of `pattern` (group 1 a number) that count 1, 2, 3... in order; stray numbers are skipped."""
    found: list[re.Match] = []
    expected = 1
    for match in pattern.finditer(text, start, len(text) if end is None else end):
        if int(match.group(1)) == expected:
            found.append(match)
            expected += 1
    return found if len(found) >= 2 else []


def sub_heading(text: str) -> str:
    """The short heading that opens a numbered subsection ("Card play activations An activation card...")."""
    words = text.split()
    run: list[str] = []
    for index, word in enumerate(words[:8]):
        bare = word.strip(",;:")
        if index and bare.lower() in SENTENCE_STARTERS and bare[:1].isupper():
            break
        if index and bare[:1].isupper() and run and run[-1][:1].islower():
            break  # sentence case ended: "activations Knight nations..."
        run.append(bare)
        if word.endswith((".", ":", ";", ",")):
            break
    if len(run) == len(words[:8]):
        return first_sentence(text, 60)
    return " ".join(run)


def trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrink [start, end) to exclude surrounding whitespace."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def asks(text: str) -> bool:
    """Does `text` ask a question and answer it ("How does rolling work? Roll three dice…", "Q: …")?"""
    return bool(ASKS_AND_ANSWERS.match(text))


# How many units on either side of a paragraph that asks and answers another question must stand for it to be
# one of an FAQ's (a card's question in an FAQ, where every card's heading has one or two).
_ASKED_NEAR = 8
# The share of a document's units below which its questions are asides of a rulebook, wherever they stand.
_RARE_ASKED = 0.05
_PARAGRAPHS = ("paragraph", "clarification")


def _marked(text: str) -> bool:
    """Does `text` open with a question's mark ("Q:", "Question:")?"""
    opening = text.lstrip()
    return opening[:2].upper() in ("Q:", "Q.") or opening[:8].lower() == "question"


def rhetorical(units: list[tuple[tuple[str, ...] | str, str, str]]) -> set[int]:
    """The indexes of the paragraphs and unmarked questions, among `units` (section, kind, text) in document order,
    that ask and answer with two or more paragraphs asking nothing in their section, and no other question within
    _ASKED_NEAR units or questions rare in the document (fewer than _RARE_ASKED of its units): an explanation's
    question to the reader ("When you play Targeted Marketing, what happens? The first sentence…", "Are conditions
    bad? Conditions are…"), a sidebar's ("Why Succeed on a Failed Roll?"), never an FAQ's. Typed as paragraphs, the
    audit asks the same."""
    asking = [kind == "question" or (kind in _PARAGRAPHS and asks(text)) for _, kind, text in units]
    # A question the document marks so ("Q: …") is one wherever it stands.
    put = [kind in _PARAGRAPHS or (kind == "question" and not _marked(text)) for _, kind, text in units]
    prose: dict = {}
    for (section, kind, _), asked in zip(units, asking):
        if kind in _PARAGRAPHS and not asked:
            prose[section] = prose.get(section, 0) + 1
    at = [index for index, asked in enumerate(asking) if asked]
    rare = len(at) < _RARE_ASKED * len(units)  # a rulebook's sidebars and asides, near each other or not

    def alone(n: int) -> bool:
        return (n == 0 or at[n] - at[n - 1] > _ASKED_NEAR) and (n + 1 == len(at) or at[n + 1] - at[n] > _ASKED_NEAR)
    return {index for n, index in enumerate(at)
            if put[index] and prose.get(units[index][0], 0) >= 2 and (rare or alone(n))}
