"""Training pairs mined from the structure ingest already found in the documents, never from question sets.

Each pair is (anchor, positive, negative): a question-like text, the rule text that answers it, and a hard
negative from the same section, the sibling or neighbour a model confuses it with. What pairs up:

- glossary: "What is X?" and "X" → the term's definition;
- question: a FAQ's question → its answer (the only real player questions the documents hold);
- heading: a heading ("Gear", "Castling") → a rule under it;
- example: an "Example:" → the rule it illustrates, without the example;
- reference: the sentence that cites a rule ("see rule 428") → the rule cited;
- parent: a rule → its parent rule.
"""
from __future__ import annotations

import random
import re
import sqlite3
from collections import defaultdict
from dataclasses import dataclass

from kb.embeddings import WINDOW_WORDS

PER_SOURCE = 80  # pairs of one kind from one document at most: a 3,000-rule rulebook must not drown the rest,
# and two CPU cores train only a few pairs a second
_EXAMPLE = re.compile(r"\b(?:For example|Examples?)\s*[:,]\s*", re.I)
_ANSWER = re.compile(r"\s+A:\s+")
_NUMBERING = re.compile(r"^[\w.()-]*\d[\w.()-]*\s+")  # "147 Gear", "3.8.2 Castling" → "Gear", "Castling"
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True)
class Pair:
    anchor: str
    positive: str
    negative: str
    kind: str
    game: str
    source: str


@dataclass
class _Rule:
    id: str
    game: str
    source: str
    section: str
    title: str
    text: str
    kind: str
    parent: str | None


def passage(rule: _Rule, text: str | None = None) -> str:
    """The rule's text (or `text`), its first window as kb.embeddings cuts it. Without the title and section
    path the search puts before it: a heading or term found in them would teach the model to copy words, not
    to read the rule."""
    return " ".join((rule.text if text is None else text).split()[:WINDOW_WORDS])


def _heading(section: str) -> str:
    """The last heading of a section path without its number ("… > 147 Gear" → "Gear")."""
    last = section.rsplit(" > ", 1)[-1].strip()
    return _NUMBERING.sub("", last).strip(" :.")


def _rules(conn: sqlite3.Connection) -> list[_Rule]:
    rows = conn.execute("select id, game, source, section, title, text, kind, parent from rulings "
                        "where kind not in ('title', 'front-matter', 'redirect', 'changelog') "
                        "order by source, position")
    return [_Rule(*row) for row in rows]


def mine(conn: sqlite3.Connection, *, exclude_games: frozenset[str] = frozenset(), seed: int = 0) -> list[Pair]:
    """Every pair the database's documents give, but none from a game in `exclude_games` (held out), each kind
    capped at PER_SOURCE per document by a seeded sample; deterministic for a given database and seed."""
    rng = random.Random(seed)
    rules = [r for r in _rules(conn) if r.game not in exclude_games and r.text.strip()]
    by_id = {r.id: r for r in rules}
    by_source: dict[str, list[_Rule]] = defaultdict(list)
    for r in rules:
        by_source[r.source].append(r)
    index = {r.id: (r.source, n) for source in by_source.values() for n, r in enumerate(source)}

    def negative(rule: _Rule) -> str | None:
        """The nearest other rule of the same section (a sibling), else of the same document."""
        source, n = index[rule.id]
        near = by_source[source]
        candidates = [near[i] for i in (n - 1, n + 1, n - 2, n + 2) if 0 <= i < len(near)]
        siblings = [c for c in candidates if c.section == rule.section] or candidates
        siblings = [c for c in siblings if c.text != rule.text and c.id != rule.parent]
        return passage(rng.choice(siblings)) if siblings else None

    found: dict[tuple[str, str], list[Pair]] = defaultdict(list)

    def pair(anchor: str, rule: _Rule, kind: str, positive: str | None = None) -> None:
        anchor = " ".join(anchor.split())
        neg = negative(rule)
        if len(anchor) >= 3 and neg is not None:
            found[(rule.source, kind)].append(
                Pair(anchor, positive or passage(rule), neg, kind, rule.game, rule.source))

    for r in rules:
        if r.kind == "glossary":
            pair(f"What is {r.title}?", r, "glossary")
            pair(r.title, r, "glossary")
        elif r.kind == "question" and _ANSWER.search(r.text):
            question, answer = _ANSWER.split(r.text, maxsplit=1)
            pair(question, r, "question", passage(r, answer))
        if r.kind in ("rule", "paragraph", "clarification") and (heading := _heading(r.section)):
            if heading.lower() not in r.text.lower()[:len(heading) + 2]:
                pair(heading, r, "heading")
        if r.kind != "question" and (match := _EXAMPLE.search(r.text)) and match.start() > 40:
            example = r.text[match.end():]
            if len(example.split()) >= 5:
                pair(example, r, "example", passage(r, r.text[:match.start()]))
        if r.parent and (parent := by_id.get(r.parent)) and len(r.text.split()) >= 6:
            pair(r.text, parent, "parent")
    for from_id, start, end, to_id in conn.execute(
            "select from_id, start, \"end\", to_id from xrefs where to_id is not null and to_id != '' "
            "and start is not null"):
        cited, citing = by_id.get(to_id), by_id.get(from_id)
        if cited is None or citing is None or cited.id == citing.id:
            continue
        sentence = next((s for s in _sentences(citing.text) if s[0] <= start < s[1]), None)
        if sentence is not None:
            words = (citing.text[sentence[0]:start] + citing.text[end:sentence[1]]).split()
            # "See rule , ..." without its number says nothing of what it cites
            if len(words) >= 5 and words[0].lower() not in ("see", "(see"):
                pair(" ".join(words), cited, "reference")
    pairs = []
    for key in sorted(found):
        group = found[key]
        pairs += rng.sample(group, PER_SOURCE) if len(group) > PER_SOURCE else group
    return pairs


def _sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of `text`."""
    spans, start = [], 0
    for m in _SENTENCE.finditer(text):
        spans.append((start, m.start()))
        start = m.end()
    return spans + [(start, len(text))]
