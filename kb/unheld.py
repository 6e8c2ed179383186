"""Games a question may name that the library does not hold ("In Settlers of Catan, ..."): the closest rulings of
the games it does hold answer another game, so an answer says which game it has no rules for.

KNOWN holds games judges and players name, each with the names a question may use for it. Only names that say
the game and nothing else are listed: "Go", "Risk", "bridge" and "Clue" are everyday words, and "Magic" is a
Dragon Dice term, so they are not. A game of the list the library holds (its name or slug is one of the
library's game names, `kb.lexicon.game_aliases`) is not unheld.
"""
from __future__ import annotations

import re
import unicodedata

KNOWN: dict[str, tuple[str, ...]] = {
    "Catan": ("catan", "settlers of catan"),
    "Monopoly": ("monopoly",),
    "Scrabble": ("scrabble",),
    "Cluedo": ("cluedo",),
    "Uno": ("uno",),
    "backgammon": ("backgammon",),
    "poker": ("poker", "texas hold em", "hold em"),
    "blackjack": ("blackjack",),
    "cribbage": ("cribbage",),
    "mahjong": ("mahjong", "mah jong"),
    "checkers": ("checkers", "draughts"),
    "Stratego": ("stratego",),
    "Carcassonne": ("carcassonne",),
    "Gloomhaven": ("gloomhaven",),
    "Wingspan": ("wingspan",),
    "Terraforming Mars": ("terraforming mars",),
    "Twilight Imperium": ("twilight imperium",),
    "Warhammer": ("warhammer", "warhammer 40k", "warhammer 40 000"),
    "Dungeons & Dragons": ("dungeons dragons", "dungeons and dragons", "d d", "dnd"),
    "Pokémon TCG": ("pokemon", "pokémon", "pokemon tcg", "pokémon tcg"),
    "Yu-Gi-Oh!": ("yu gi oh", "yugioh"),
    "Magic: The Gathering": ("magic the gathering", "mtg"),
    "Chess": ("chess",),
    "Disney Lorcana": ("lorcana", "disney lorcana"),
    "Riftbound": ("riftbound",),
    "Ticket to Ride": ("ticket to ride",),
    "Star Wars: Imperial Assault": ("imperial assault",),
}


def _spaced(text: str) -> str:
    """Text as lower-case words between single spaces, with a space at each end ("D&D 5e" → " d d 5e ")."""
    return " " + re.sub(r"[^\w]+", " ", unicodedata.normalize("NFKC", text).casefold()).strip() + " "


def unheld_game(question: str, held: dict[str, str]) -> str | None:
    """The name of the game of KNOWN a question names that the library does not hold, when it names exactly one
    such game and none the library holds; else None. `held`: the library's names for its games (lower case) →
    slug, as `kb.lexicon.Lexicon.games`."""
    text = _spaced(question)
    names = {_spaced(alias) for alias in held} | {_spaced(slug.replace("-", " ")) for slug in held.values()}
    if any(name in text for name in names):
        return None
    named = [game for game, aliases in KNOWN.items()
             if not any(_spaced(alias) in names for alias in aliases)
             and any(_spaced(alias) in text for alias in aliases)]
    return named[0] if len(named) == 1 else None
