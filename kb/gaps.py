"""The recorded gaps of the sources searched that a question is about: what a source promises but lacks.

When no ruling answers a question, the reason may be on record: the Paths of the Lance contents promise
"New Rules E. Supply", the Magic Combat with Dice Attack Table never gives its thresholds. A gap matches a
question when the question names the gap's *subject* — the quoted or capitalised names in its description
("Revised Ash Storm/Palsy Penalties", "Supply", "Attack Table", "Partial Hit"), not its wording ("promised
in the contents but absent") — weighting each word by how rare it is among the rulings, so that "supply
lines" finds "E. Supply" while "the new rules" finds nothing. Words are compared by their porter stems, as
the full-text index compares them.
"""
from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Iterable

from kb.lexicon import load_lexicon
from kb.query import content_terms, rarity, ruling_count, term_games, without_game_name
from kb.store import dicts
from model.text import STOPWORDS

# A subject is named when the question carries at least this share of its words' weight...
MIN_SHARE = 0.5
# ...and those words weigh at least this much: a word no ruling uses weighs 1, a word every ruling uses 0; a
# word used by 2% of the rulings about 0.8 ("supply", "partial"), by a quarter about 0.3 ("attack", "new").
MIN_WEIGHT = 0.75

_QUOTED = re.compile(r"“([^”]*)”|\"([^\"]*)\"")
_ASIDE = re.compile(r"\([^()]*\)")
# A run of capitalised words ("The Attack Table's", "New Rules E", "Historical Scenario Adjustments").
_NAME = re.compile(r"[A-Z][\w’'-]*(?:[ \t]+[A-Z][\w’'-]*)*")
# What separates the items of a named list ("Ash Storm/Palsy", "Partial Hit, Hit and Critical Hit").
_ITEMS = re.compile(r"\s*(?:/|,|;|\(|\)|\band\b|\bor\b)\s*")


def subjects(description: str) -> list[str]:
    """The names a gap's description gives its subject, each list item apart: its quoted names, then its
    capitalised ones, asides in parentheses left out ("The Attack Table's … Partial Hit, Hit and Critical Hit
    (only Critical Miss …)" → "Attack Table", "Partial Hit", "Hit", "Critical Hit"); a description naming
    nothing is its own subject."""
    text = _ASIDE.sub(" ", description)
    quoted = [a or b for a, b in _QUOTED.findall(text)]
    rest = _QUOTED.sub(" | ", text)
    names = []
    for run in _NAME.findall(rest):
        words = re.sub(r"[’']s$", "", run).split()
        while words and words[0].lower() in STOPWORDS:  # "The Attack Table" opens a sentence
            words.pop(0)
        names.append(" ".join(words))
    found = [item.strip(" .…") for phrase in quoted + names for item in _ITEMS.split(phrase) if _words(item)]
    return list(dict.fromkeys(found)) or [description]


def _words(text: str) -> list[str]:
    """A phrase's content words: no stopwords, single letters ("E." of "New Rules E. Supply") or numbers."""
    return [w for w in content_terms(text) if len(w) > 1 and not w.isdigit()]


def stems(words: Iterable[str]) -> dict[str, str]:
    """Each word's porter stem, as the full-text index (FTS5's porter tokenizer) stems it."""
    words = list(dict.fromkeys(words))
    mem = sqlite3.connect(":memory:")
    try:
        mem.execute("create virtual table t using fts5(word, tokenize='porter')")
        mem.executemany("insert into t(rowid, word) values (?, ?)", enumerate(words))
        mem.execute("create virtual table v using fts5vocab(t, 'instance')")
        found: dict[str, str] = {}
        for term, row in mem.execute("select term, doc from v order by doc, offset"):
            found.setdefault(words[row], term)  # "re-building" → its first stem
        return found
    finally:
        mem.close()


def weights(conn: sqlite3.Connection, words: Iterable[str]) -> dict[str, float]:
    """How rare each word is among the rulings, from 0 (every ruling uses it) to 1 (none does): its inverse
    document frequency, stemmed as the full-text index matches it, over that of a word no ruling uses."""
    total = ruling_count(conn)
    return {word: value / math.log(total + 1)
            for word, value in rarity(term_games(conn, list(dict.fromkeys(words))), total).items()}


def matching_gaps(conn: sqlite3.Connection, question: str, games: Iterable[str]) -> list[dict]:
    """The recorded gaps of the sources of `games` (the games searched) whose subject the question names,
    best match first: `{"id", "source", "source_title", "kind", "description", "line", "subject",
    "citation": {"source", "source_title", "line_start", "line_end", "text"}}`, the citation pointing at
    the line where the source shows the gap (its contents entry, its list of changes, where it breaks off).
    `subject` is the name the question matched.

    A subject is named when the question's words (the searched games' own names aside) carry at least
    MIN_SHARE of the weight of its words and that weight is at least MIN_WEIGHT (see `weights`).
    """
    games = [game for game in dict.fromkeys(games) if game]
    if not games:
        return []
    # The games' sources first, then their gaps by index (joined on the game, SQLite scans every gap of the library).
    found = dicts(conn, f"select g.id, g.source, s.title as source_title, g.kind, g.description, g.line "
                        f"from gaps g join sources s on s.id = g.source where g.source in "
                        f"(select id from sources where game in ({','.join('?' * len(games))})) "
                        f"order by s.title, g.line, g.id", games)
    if not found:
        return []
    names = load_lexicon(conn).games
    for game in games:
        question = without_game_name(question, names, game) or question
    asked = _words(question)
    named = {gap["id"]: [(subject, _words(subject)) for subject in subjects(gap["description"])] for gap in found}
    words = asked + [w for subjects_ in named.values() for _, ws in subjects_ for w in ws]
    stem, weight = stems(words), weights(conn, words)
    asked_stems = {stem.get(w, w) for w in asked}
    scored = []
    for gap in found:
        best = None
        for subject, subject_words in named[gap["id"]]:
            weighed = {stem.get(w, w): weight[w] for w in subject_words}
            total = sum(weighed.values())
            carried = sum(value for s, value in weighed.items() if s in asked_stems)
            if total and carried / total >= MIN_SHARE and carried >= MIN_WEIGHT and (best is None or carried > best[0]):
                best = (carried, subject)
        if best:
            scored.append((best[0], gap, best[1]))
    scored.sort(key=lambda item: -item[0])  # stable: equal matches stay in source and line order
    return [_shaped(gap, subject) for _, gap, subject in scored]


def _shaped(gap: dict, subject: str) -> dict:
    line = gap["line"]
    return {**gap, "subject": subject,
            "citation": {"source": gap["source"], "source_title": gap["source_title"], "line_start": line,
                         "line_end": line, "text": f"{gap['source_title']}, line {line}"}}
