"""From a question to what search looks for: its content words, a safe full-text query, the game it names
or whose vocabulary it speaks, and the ruling it designates by id or label."""
from __future__ import annotations

import math
import re
import sqlite3
import unicodedata

from kb.cache import derived, per_database_version
from kb.lexicon import WORD, Lexicon, spaced_words, word_runs
from kb.retrieval import phrases_matched
from model.refs import ref_key
from model.text import STOPWORDS

# A game recognised by its vocabulary speaks words that several of its rulings use, not one stray ruling.
VOCABULARY_RULINGS = 2


def content_terms(question: str) -> list[str]:
    """The question's words that carry meaning (no stopwords), in order, once each."""
    words = (t.replace("'", "") for t in WORD.findall(question.lower()))
    return [w for w in dict.fromkeys(words) if w not in STOPWORDS]


def fts_query(question: str, acronyms: dict[str, str] | None = None) -> str:
    """A safe FTS5 query from free text: its content words, quoted, OR-ed (no FTS syntax gets through).

    An acronym the rulings use also searches the name it stands for, and the name its acronym.
    """
    terms = content_terms(question)
    spaced = spaced_words(question)
    for acronym, name in (acronyms or {}).items():
        if acronym in terms:
            terms += [w for w in name.split() if w not in STOPWORDS]
        elif f" {name} " in spaced:
            terms.append(acronym)
    return " OR ".join(f'"{t}"' for t in list(dict.fromkeys(terms))[:64])


def named_game(question: str, games: dict[str, str]) -> str | None:
    """The game a question names ("In Dungeon Twister, ..."), when it names exactly one of `games`
    (a name for a game → its slug)."""
    text = " " + re.sub(r"[^\w]+", " ", unicodedata.normalize("NFKC", question).casefold()) + " "
    named = {slug for alias, slug in games.items() if f" {alias} " in text}
    return named.pop() if len(named) == 1 else None


# Words that only say "in this game" once the game is known ("in the game", "this game", "the rules").
_GAME_WORDS = re.compile(r"\b(?:in\s+)?(?:the|this)\s+game\b|\bthe\s+rules\b", re.IGNORECASE)


def without_game_name(question: str, games: dict[str, str], game: str | None) -> str:
    """The question with the chosen game's names and "in the game" dropped: once the game is chosen they
    only match rulings that happen to repeat the game's name ("Dragon Dice" is in every Dragon Dice FAQ
    title)."""
    if game is None:
        return question
    for alias in sorted((a for a, slug in games.items() if slug == game), key=len, reverse=True):
        words = r"[\W_]+".join(re.escape(w) for w in alias.split())
        question = re.sub(rf"(?:\b(?:in|for|of|at)\s+)?(?<!\w){words}(?!\w)", " ", question, flags=re.IGNORECASE)
    return " ".join(_GAME_WORDS.sub(" ", question).split())


def direct_hit(question: str, lexicon: Lexicon) -> str | None:
    """The ruling a question designates by ref (`DD Magic A`, case and spaces aside), id or label
    (`dragon-dice/magic/general/m`, `general/m`, `100.1a`)."""
    key = question.strip().strip("[]<>\"'").lower()
    if hit := lexicon.refs.get(ref_key(key)):
        return hit
    if not key or " " in key:
        return None
    if key in lexicon.rulings:
        return key
    matches = lexicon.labels.get(key, [])
    return matches[0] if len(matches) == 1 else None


def glossary_rulings(question: str, terms: dict[str, list[str]], game: str | None) -> set[str]:
    """The rules that define the glossary terms a question uses ("does a game state check happen…" → the
    rules of 1.8), of `game` when one is chosen. `terms` is the lexicon's glossary terms, in spaced words: a term
    is used when it is a run of the question's words (`spaced_words` has " {term} " in it), looked up run by run."""
    words = WORD.findall(question.lower())  # spaced_words(question) is them between single spaces
    longest, by_game = derived(terms, _terms_by_game)
    # A question of no words is " " twice, where only an empty term stands.
    used = [run for run in word_runs(words, longest) if run in terms] if words else [t for t in ("",) if t in terms]
    return {ruling_id for term in used for ruling_id in (terms[term] if game is None else by_game[term].get(game, ()))}


def _terms_by_game(terms: dict[str, list[str]]) -> tuple[int, dict[str, dict[str, list[str]]]]:
    """The most words a term of `terms` has, and each term's rules by game: under every part of the id before a
    slash, as a game's rules are those whose id starts with the game and a slash."""
    by_game: dict[str, dict[str, list[str]]] = {}
    for term, ids in terms.items():
        by_game[term] = {}
        for ruling_id in ids:
            for slash in re.finditer("/", ruling_id):
                by_game[term].setdefault(ruling_id[:slash.start()], []).append(ruling_id)
    return max((term.count(" ") + 1 for term in terms), default=0), by_game


# Terms whose usage is remembered per version of the database file; past it the memo starts again.
USAGE_MEMO = 50_000


@per_database_version
def _usage_memo(conn: sqlite3.Connection) -> dict[str, dict[str, int]]:
    """Term → game → how many rulings use it, filled as questions use terms: a term's usage only changes
    with the file, and most questions share words ("character", "turn"), a full-text count each."""
    return {}


def term_games(conn: sqlite3.Connection, terms: list[str]) -> dict[str, dict[str, int]]:
    """For each term: game → how many of its rulings use the term (stemmed, as FTS matches it)."""
    sql = ("select r.game, count(*) from rulings_fts join rulings r on r.rowid = rulings_fts.rowid "
           "where rulings_fts match ? group by r.game")
    # A kb.asof connection's temp tables shadow the stored rulings: its counts are of another day's library, and
    # must not be kept as the file's.
    dated = conn.execute("select 1 from temp.sqlite_master where name = 'rulings_fts'").fetchone() is not None
    memo = {} if dated else _usage_memo(conn)
    for term in terms:
        if term not in memo:
            if len(memo) >= USAGE_MEMO:
                memo.clear()
            memo[term] = dict(conn.execute(sql, [f'"{term}"']).fetchall())
    return {term: memo[term] for term in terms}


def vocabulary_game(usage: dict[str, dict[str, int]]) -> str | None:
    """The game whose own vocabulary the question speaks: at least two of its words are each used by
    several rulings of that one game and by no other game ("stoneskin", "burial"), and no word is
    distinctive of another game. `usage` is what `term_games` returns."""
    votes: dict[str, int] = {}
    for games in usage.values():
        if len(games) == 1:
            (game, rulings), = games.items()
            if rulings >= VOCABULARY_RULINGS:
                votes[game] = votes.get(game, 0) + 1
    return next(iter(votes)) if len(votes) == 1 and sum(votes.values()) >= 2 else None


@per_database_version
def ruling_count(conn: sqlite3.Connection) -> int:
    """How many rulings the database holds."""
    return conn.execute("select count(*) from rulings").fetchone()[0]


def rarity(usage: dict[str, dict[str, int]], total: int) -> dict[str, float]:
    """Each term's inverse document frequency among `total` rulings (`usage` from `term_games`): 0 for a term
    every ruling uses, log(total + 1) for one none uses."""
    return {term: math.log((total + 1) / (sum(games.values()) + 1)) for term, games in usage.items()}


def unused(conn: sqlite3.Connection, usage: dict[str, dict[str, int]], game: str | None) -> float:
    """The share of a question's content words (`usage`, from `term_games`) that no ruling of `game` (of any game
    when None) uses, each word weighted by its rarity as in `coverage`: "infraction" unknown to a rulebook says
    the question is about something else; "card" unknown would say more, but never is. 1 for no words."""
    if not usage:
        return 1.0
    weights = {term: value + 1 for term, value in rarity(usage, ruling_count(conn)).items()}
    missing = sum(weights[term] for term, games in usage.items() if not (games.get(game) if game else games))
    return missing / sum(weights.values())


def coverage(conn: sqlite3.Connection, ruling_id: str, usage: dict[str, dict[str, int]]) -> float:
    """The share of a question's content words (`usage`, from `term_games`) that a ruling uses (stemmed, in
    its title, section, text or examples), each word weighted by its rarity across the rulings (inverse
    document frequency), so "tournament" missing counts for more than "card" missing. Only words some ruling
    of the ruling's game uses count: a word the game never uses (a typo, a player's slang) says nothing about
    which of its rulings answers."""
    game = ruling_id.split("/")[0]
    known = {term: games for term, games in usage.items() if games.get(game)}
    if not known:
        return 0.0
    weights = {term: value + 1 for term, value in rarity(known, ruling_count(conn)).items()}
    matched = phrases_matched(conn, [f'"{term}"' for term in weights], ruling_id)
    return sum(weight for weight, used in zip(weights.values(), matched) if used) / sum(weights.values())
