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
    names = held_names(held)
    if any(name in text for name in names):
        return None
    missing = [name for name in named_games(question)
               if " or " not in _spaced(name) and _spaced(name) not in names and _unused_word(conn, name)]
    return missing[0] if len(missing) == 1 else None


# id(held) → (held, its names spaced): kept while held, so that its id names no other dict meanwhile.
_HELD_NAMES: dict[int, tuple[dict[str, str], frozenset[str]]] = {}


def held_names(held: dict[str, str]) -> frozenset[str]:
    """The names and slugs of `held` (`unheld_game`'s), spaced as `_spaced` writes text: worked out once per
    lexicon, which search hands every question of a version of the file, rather than once per question (a
    millisecond or more per question in a library of a few hundred games)."""
    found = _HELD_NAMES.get(id(held))
    if found is None or found[0] is not held:
        if len(_HELD_NAMES) >= 8:
            _HELD_NAMES.clear()
        names = frozenset({_spaced(alias) for alias in held} | {_spaced(slug.replace("-", " ")) for slug in held.values()})
        found = _HELD_NAMES[id(held)] = (held, names)
    return found[1]


def _unused_word(conn: sqlite3.Connection, name: str) -> bool:
    """Does a word of `name` (one that tells a game apart) appear in none of the library's rulings?"""
    words = [w for w in _spaced(name).split() if w not in _COMMON and len(w) > 1]
    try:
        return any(conn.execute("select 1 from rulings_fts where rulings_fts match ? limit 1",
                                [f'"{word}"']).fetchone() is None for word in words)
    except sqlite3.OperationalError:  # a library without its search index: claim nothing
        return False
