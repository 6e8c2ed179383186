"""A document's title and its game's name, read from the document itself.

A title is the document's own (what its format declares, its cover's first title line, else the name it
repeats). Many rulebooks call themselves only by what they are ("COMPREHENSIVE RULES", "Rulebook", "FAQ"): such a
title names no game, so it is joined with the game's name as the document writes it ("Disney Lorcana
Comprehensive Rules"). A section heading ("Introduction", "Table of Contents") is never a title.

Generic is judged by words, not by documents: a title is generic when each of its words is rulebook vocabulary
(`_DOCUMENT_WORDS`, `_PRODUCT_WORDS`, `_SECTION_WORDS`), a small word, a number or a version, or a common word
the document itself writes in lower case ("PHYSICAL FOULS" in a text about physical fouls). One word that is a
name ("Lorcana", "NISEI", "Uprising") makes a title the document's own.
"""
from __future__ import annotations

import re
from collections import Counter

from ingest.classify import EXTENSION, WORD_RUN
from ingest.classify.furniture import BYLINE
from ingest.classify.words import (
    ACRONYM,
    LETTERED_WORD,
    NAME_RUN,
    SELF_NAMING,
    SMALL_WORDS,
    TITLE_COUNTER,
    TITLE_WORD,
    phrase,
)

# What rulebooks call themselves and the kinds of products they are: never a name on their own.
_DOCUMENT_WORDS = frozenset("""
    comprehensive rules rule rulebook rulebooks reference references guide guidebook faq faqs frequently asked
    questions question answers errata erratum notes note release official document living core basic advanced
    complete full quick start learn play playing tournament tournaments version ver revision rev update updated
    clarification clarifications supplement addendum compendium manual handbook booklet insert sheet
    regulations regulation laws law policy procedures draft revised english new
""".split())
# What kind of product a game is: generic in a title, but part of a name ("Gundam Card Game").
_PRODUCT_WORDS = frozenset("game games card cards trading board tcg lcg ccg rpg edition expansion set".split())
# The headings of a document's parts: a title made only of these is a section's, never the document's.
_SECTION_WORDS = frozenset("""
    introduction contents table glossary index appendix appendices overview preface foreword credits
    acknowledgements acknowledgments changelog changes summary section chapter part title page welcome
    setup components objective
""".split())
_VOCABULARY = _DOCUMENT_WORDS | _PRODUCT_WORDS | _SECTION_WORDS | SMALL_WORDS
_MAX_NAME_WORDS = 6


def words(text: str) -> list[str]:
    """The words of `text` (letters and digits, an apostrophe inside), as written."""
    return TITLE_WORD.findall(text)


def is_section_heading(line: str) -> bool:
    """Whether `line` is the heading of a document's part ("Introduction", "Table of Contents", "SECTION 7"),
    which is never the document's title."""
    found = [w.lower() for w in words(line)]
    return bool(found) and any(w in _SECTION_WORDS for w in found) and all(
        w in _SECTION_WORDS or w in SMALL_WORDS or TITLE_COUNTER.fullmatch(w) for w in found)


def is_generic(title: str, text: str = "") -> bool:
    """Whether `title` names no game or product: every word is rulebook vocabulary, a small word, a number,
    or a word `text` (the document) writes in lower case at least as often as capitalised."""
    return all(_generic_word(word, text) for word in words(title))


def _generic_word(word: str, text: str) -> bool:
    lower = word.lower()
    if lower in _VOCABULARY or TITLE_COUNTER.fullmatch(word):
        return True
    if not text or not word.isalpha():
        return False
    written = Counter(phrase([lower]).findall(text))
    common = written[lower]
    return common > 0 and common >= sum(written.values()) - common


def as_written(title: str) -> str:
    """`title` with its spaces collapsed; SHOUTING (a title wholly in capitals) in title case, small words in
    lower case ("COMPREHENSIVE RULES" -> "Comprehensive Rules"); any other casing kept as the document's. A colon
    closing it leads into the text ("Mossflower Game Rulebook:"), no part of the title."""
    title = " ".join(title.split()).rstrip(":").rstrip()
    if not any(c.islower() for c in title) and sum(c.isalpha() for c in title) > 3:
        title = LETTERED_WORD.sub(_title_word, title)
        title = title[:1].upper() + title[1:]
    return title


def acronyms(text: str) -> dict[str, str]:
    """The words `text` writes in capitals inside sentences ("the GM spends Fear", "NPCs"), by their lower case:
    at least twice so, and never written as a plain word ("It" opens sentences, so "IT" is no acronym; "AND")."""
    written = Counter(ACRONYM.findall(text))
    plain = {word.lower() for word in TITLE_WORD.findall(text) if word[1:].islower()}
    return {word.lower(): word for word, count in written.items() if count >= 2 and word.lower() not in plain}


def keep_acronyms(title: str, known: dict[str, str]) -> str:
    """`title` with the words that title case wrote from capitals ("Core Gm Mechanics") as the document writes
    them (`acronyms`: "Core GM Mechanics")."""
    return TITLE_WORD.sub(lambda m: known.get(m.group().lower(), m.group()) if m.group().istitle() else m.group(),
                     title) if known else title


def _title_word(match: re.Match) -> str:
    word = match.group().lower()
    return word if word in SMALL_WORDS else word.capitalize()


def document_title(candidates: list[str | None], text: str, game_name: str | None,
                   subtitle: str | None = None, filed_as: str = "", known: dict[str, str] | None = None) -> str | None:
    """The document's title: the first of `candidates` (in order of trust) that is no section heading, joined
    with `game_name` when it names no game (see the module's docstring): with `subtitle` (the cover's next title
    line) instead where that names it ("Jet Lag: The Game – Hide and Seek Sydney Rules"). A document that names
    its game nowhere (no `game_name`) has a generic title joined with `filed_as`, the name of the game it is
    filed under ("Pathfinder Adventure Card Game Rules Questions"). `known`: the text's `acronyms`, when the caller
    read them already. None when there is no title."""
    # a byline ("By Alex and Sam Example") names the authors, never the document
    title = next((c for c in candidates if c and not is_section_heading(c) and not BYLINE.match(c)), None)
    if not title:
        return None
    title = keep_acronyms(as_written(_own_part(title)), acronyms(text) if known is None else known)
    if not game_name:
        return f"{filed_as} {title}" if filed_as and is_generic(title, text) else title
    if names_game(title, game_name):
        return title
    if subtitle and names_game(subtitle, game_name):
        return f"{title} – {as_written(subtitle)}"
    # A generic title reads as the game's ("Disney Lorcana Comprehensive Rules"); a named one keeps its name apart
    # ("Android: Netrunner – NISEI Comprehensive Rules Document").
    return f"{game_name} {title}" if is_generic(title, text) else f"{game_name} – {title}"


def _own_part(title: str) -> str:
    """A page's title without what a site adds to it: the part before a "|" (the site's name after it), never a
    copyright notice ("Gloomhaven: Second Edition FAQ | … © 2025 Cephalofair Games" -> "Gloomhaven: Second Edition
    FAQ")."""
    own = title.split("©")[0].split(" | ")[0].strip(" -–|")
    return own or title


def filed_name(slug: str) -> str:
    """The name a game is filed under when no document names it: its slug's words, capitalised
    ("pathfinder-adventure-card-game" -> "Pathfinder Adventure Card Game", "13th-age" -> "13th Age")."""
    return " ".join(word[:1].upper() + word[1:] for word in slug.split("-") if word)


def names_game(title: str, game_name: str) -> bool:
    """Does `title` name the game `game_name`: one of the name's own words (capitalised, not a small word) in it?"""
    own = [w for w in words(game_name) if w[:1].isupper() and w.casefold() not in SMALL_WORDS] or words(game_name)
    return any(phrase([w]).search(title) for w in own)


def self_named(text: str) -> str | None:
    """The name a document calls itself by when it has no title line: the capitalised rulebook phrase it
    writes most often after "the" or "this" ("the Rules Reference"), at least twice; in full where it writes a
    longer phrase ending in it at least twice too ("the Living Rules Reference" beside "this Rules Reference")."""
    found = Counter(
        match.group(1) for match in SELF_NAMING.finditer(text)
        if all(w.lower() in _DOCUMENT_WORDS for w in words(match.group(1))) and len(words(match.group(1))) > 1)
    best = found.most_common(1)
    if not best or best[0][1] < 2:
        return None
    return max((phrase for phrase, n in found.items() if n >= 2 and phrase.endswith(" " + best[0][0])),
               key=len, default=best[0][0])


def game_name(text: str, game: str) -> str | None:
    """The name `text` gives the game whose slug is `game`, as it writes it. The capitalised names it repeats
    (twice at least) that hold the longest run of the slug's words it writes ("lorcana" in "Disney Lorcana"),
    else that the initials of a slug word spell ("mtg": "Magic: The Gathering"); of those, the longest written
    at least half as often as the most written ("Disney Lorcana" over "Lorcana", never "Disney Lorcana TCG" when
    that is rarer), as the document writes it in running text rather than a heading's capitals. A name holds no
    rulebook vocabulary ("Laws of Chess", "Riftbound Core Rules") and ends in no number ("… Rules 2024"). A name
    the slug spells whole counts written once, where only a part of it is written more often.
    None when the document names the game nowhere so."""
    slug = WORD_RUN.findall(game.lower())
    runs = [run.group().split() for run in NAME_RUN.finditer(text)]
    runs = [(tokens, ["".join(c for c in t if c.isalnum() or c == "_").lower() for t in tokens]) for tokens in runs]
    cores = Counter(tuple(bare[slice(*found)]) for _, bare in runs if (found := _slug_run(bare, slug)))
    core = max((c for c, n in cores.items() if n >= 2), key=len, default=None)
    # A name of several words the slug spells whole, written once (its title: "Eco Space Miner - Rulebook"), over
    # a shorter stretch of it written often ("Space Quadrant", "Space Station"): the game is what the slug says.
    whole = len(slug) > 1 and cores.get(tuple(slug)) == 1 and (core is None or len(core) < len(slug)) and not any(
        w in _DOCUMENT_WORDS or w in _PRODUCT_WORDS or w.isdigit() for w in slug)  # "us-quadball-rulebook-2024"
    core = tuple(slug) if whole else core
    spellings: dict[str, Counter[str]] = {}  # a name, case aside -> how it is written
    for tokens, bare in runs:
        for name in _names_in(tokens, bare, core, slug):
            spellings.setdefault(name.casefold(), Counter())[name] += 1
    counts = {key: n for key, written in spellings.items() if (n := sum(written.values())) >= 2 - whole}
    if not counts:
        return None
    most = max(counts.values())
    key = max((key for key, n in counts.items() if 2 * n >= most), key=lambda key: (len(key.split()), counts[key]))
    # As the document writes it in running text, rather than in a heading's capitals.
    return as_written(max(spellings[key], key=lambda name: (any(c.islower() for c in name), spellings[key][name])))


def _names_in(tokens: list[str], bare: list[str], core: tuple[str, ...] | None, slug: list[str]) -> set[str]:
    """Every stretch of a capitalised run (`tokens` as written, `bare` their lower-case words) that names the
    game: it holds the words `core`, or (without a core) a slug word's initials spell it."""
    found = set()
    for start in range(len(tokens)):
        for end in range(start + 1, min(len(tokens), start + _MAX_NAME_WORDS) + 1):
            inside = bare[start:end]
            if core and not any(tuple(inside[i:i + len(core)]) == core for i in range(len(inside) - len(core) + 1)):
                continue
            if not core and not _initials(inside, slug):
                continue
            if (inside[0] in SMALL_WORDS and core) or inside[-1] in SMALL_WORDS or inside[-1].isdigit() \
                    or any(w in _DOCUMENT_WORDS for w in inside):
                continue
            found.add(" ".join(tokens[start:end]).rstrip(":,."))
    return found


def _slug_run(bare: list[str], slug: list[str]) -> tuple[int, int] | None:
    """(start, end) of the longest run of the slug's consecutive words in `bare`, holding a word that is neither
    rulebook vocabulary nor a number ("4" of "twilight-imperium-4" names nothing alone)."""
    for length in range(len(slug), 0, -1):
        for first in range(len(slug) - length + 1):
            part = slug[first:first + length]
            if all(w in _DOCUMENT_WORDS or w in _PRODUCT_WORDS or w in SMALL_WORDS or w.isdigit() for w in part):
                continue
            for start in range(len(bare) - length + 1):
                if bare[start:start + length] == part:
                    return start, start + length
    return None


def _initials(bare: list[str], slug: list[str]) -> bool:
    """Whether the words `bare` (two or more) are spelled by the initials of a slug word ("mtg")."""
    return len(bare) > 1 and "".join(w[0] for w in bare if w) in slug


def named_by_file(file_name: str, text: str) -> str | None:
    """The name a document without a title line gives itself, as the text writes it, where its file is named
    so too: the longest run of the file name's first words (two at least) that the text writes at least twice
    as a name, every word capitalised but the small ones ("ticket-to-ride-rules-2015.pdf" -> "Ticket to Ride",
    from "Ticket to Ride is a cross-country train adventure")."""
    found = WORD_RUN.findall(EXTENSION.sub("", file_name))
    for count in range(len(found), 1, -1):
        spelled = Counter(match.group() for match in phrase(found[:count]).finditer(text)
                          if _capitalised_name(match.group()))
        if spelled and spelled.most_common(1)[0][1] >= 2:
            return spelled.most_common(1)[0][0]
    return None


def _capitalised_name(name: str) -> bool:
    """Every word of `name` capitalised but the small words inside it ("Ticket to Ride", "Days of Wonder")."""
    found = name.split()
    return all(word[:1].isupper() or word[:1].isdigit() or (0 < index < len(found) - 1 and word in SMALL_WORDS)
               for index, word in enumerate(found))
