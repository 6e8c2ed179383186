"""A game a question names that the library does not hold ("In Settlers of Catan, …"): the closest rulings of the
games it does hold answer another game, so an answer says which game it has no rules for.

A question names its game in the frames players use: "In Catan, …" or "For Uno: …" opening it, "… in Uno when …",
"… playing Monopoly …", "Scrabble's rules", "the rules of Cluedo", the name written as names are (capitalised
words, "of", "the", "&" inside). Such a name is a game the library does not hold when it is none of the library's
names for its games and one of its words is in none of the library's rulings: the documents never use it, so
they speak of nothing it names. A name the documents use ("In Standard, …", "In Commander, …") is their own term,
never a missing game. No list of games is kept: any game the library lacks is found the same way.
"""
from __future__ import annotations

import re
import sqlite3
import unicodedata

from kb.cache import derived
from kb.lexicon import word_runs

# A name as names are written: capitalised words ("of", "the", "&" inside), a version ("5e") after them.
_NAME = r"(?P<name>[A-Z][\w&-]*+(?:[ \t]++(?:(?:of|the|and|&)[ \t]++)?+[A-Z0-9][\w&-]*+){0,4}+)"
_FRAMES = (
    re.compile(rf"^[ \t]*+(?:[Ii]n|[Ff]or|[Pp]laying)[ \t]++(?:a[ \t]++game[ \t]++of[ \t]++)?+{_NAME}[ \t]*+[,:]"),
    re.compile(rf"^[ \t]*+{_NAME}[ \t]*+:"),  # "D&D 5e: does a bonus action…"
    re.compile(rf"\b(?:in|playing)[ \t]++{_NAME}(?=[ \t]++(?:when|if|while|after|before|during|can|do|does|is)\b|[,?.])"),
    re.compile(rf"{_NAME}['’]s[ \t]++rules?\b"),
    re.compile(rf"\brules?[ \t]++(?:of|for)[ \t]++{_NAME}"),
)
# Words a name may hold that tell no game apart.
_COMMON = frozenset("the of and a an game games card cards board rules rule edition my your our".split())


def _spaced(text: str) -> str:
    """Text as lower-case words between single spaces, with a space at each end ("D&D 5e" → " d d 5e ")."""
    return " " + re.sub(r"[^\w]+", " ", unicodedata.normalize("NFKC", text).casefold()).strip() + " "


def named_games(question: str) -> list[str]:
    """The names the question gives a game in, in the frames of the module's docstring, each once."""
    found: dict[str, None] = {}
    for frame in _FRAMES:
        for match in frame.finditer(question[:500]):
            found[match.group("name").strip(" '’")] = None
    return list(found)


def unheld_game(conn: sqlite3.Connection, question: str, held: dict[str, str]) -> str | None:
    """The game the question names that the library does not hold, when it names exactly one such game and no
    game the library holds; else None. `held`: the library's names for its games (lower case) → slug, as
    `kb.lexicon.Lexicon.games`."""
    text = _spaced(question)
    names, longest = derived(held, _held_names)
    # A held name stands in the text exactly when it is a run of its words (or both are empty).
    if any(f" {run} " in names for run in word_runs(text.split(), longest)) or (text == "  " and text in names):
        return None
    missing = [name for name in named_games(question)
               if " or " not in _spaced(name) and _spaced(name) not in names and _unused_word(conn, name)]
    return missing[0] if len(missing) == 1 else None


def _held_names(held: dict[str, str]) -> tuple[frozenset[str], int]:
    """The names and slugs of `held` (`unheld_game`'s), spaced as `_spaced` writes text, and the most words one
    has."""
    names = frozenset({_spaced(alias) for alias in held} | {_spaced(slug.replace("-", " ")) for slug in held.values()})
    return names, max((len(name.split()) for name in names), default=0)


def _unused_word(conn: sqlite3.Connection, name: str) -> bool:
    """Does a word of `name` (one that tells a game apart) appear in none of the library's rulings?"""
    words = [w for w in _spaced(name).split() if w not in _COMMON and len(w) > 1]
    try:
        return any(conn.execute("select 1 from rulings_fts where rulings_fts match ? limit 1",
                                [f'"{word}"']).fetchone() is None for word in words)
    except sqlite3.OperationalError:  # a library without its search index: claim nothing
        return False
