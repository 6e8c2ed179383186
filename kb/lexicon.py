"""The words questions use for things the corpus names: acronyms, labels, game names and glossary terms.

They are derived from the whole corpus, which is too slow for a question, so the build derives them once
and stores them in the `lexicon` table (kind, key, value — one row per pair, browsable in Datasette);
search reads that table back, once per version of the database file.
"""
from __future__ import annotations

import re
import sqlite3
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kb.cache import per_database_version
from model.refs import ref_key
from model.text import STOPWORDS

if TYPE_CHECKING:  # only the build writes; importing sqlite-utils would slow every cold `rulings ask`
    import sqlite_utils

KINDS = ("acronym", "game", "label", "term", "ref")


@dataclass(frozen=True)
class Lexicon:
    """The stored lexicon in memory, with the ruling ids a question may also name."""
    acronyms: dict[str, str]         # acronym (lower case) → the name it stands for, lower case
    games: dict[str, str]            # a name for a game (lower case) → game slug
    labels: dict[str, list[str]]     # label or id suffix (lower case) → ruling ids
    rulings: frozenset[str]
    terms: dict[str, list[str]] = field(default_factory=dict)  # glossary term (lower case) → its rules
    refs: dict[str, str] = field(default_factory=dict)  # ref without case or spaces ("ddmagica") → ruling id


def game_aliases(conn: sqlite3.Connection) -> dict[str, str]:
    """Names a question may use for a game: its name, any name in parentheses, its slug spelled out."""
    aliases = {}
    for slug, name in conn.execute("select slug, name from games"):
        aliases[slug.replace("-", " ")] = slug
        for part in re.split(r"[()]", name):
            words = [w for w in part.lower().split() if w not in {"expansion", "to", "for"}]
            if len(words) >= 2:
                aliases[" ".join(words)] = slug
    return aliases


def _of(games: list[str] | None, column: str = "game") -> tuple[str, list[str]]:
    """An SQL condition keeping the rows of `games` (every row when None), and its parameters."""
    if games is None:
        return "1", []
    return f"{column} in ({', '.join('?' * len(games))})", list(games)


def labels(conn: sqlite3.Connection, games: list[str] | None = None) -> dict[str, list[str]]:
    """Lower-case keys that may designate a ruling → its ids: every tail of its id, and its label when
    that is more than one letter (of the rulings of `games`; every game's when None)."""
    where, params = _of(games)
    found: dict[str, list[str]] = {}
    for (ruling_id,) in conn.execute(f"select id from rulings where {where}", params):
        parts = ruling_id.lower().split("/")
        for n in range(1, len(parts)):
            found.setdefault("/".join(parts[n:]), []).append(ruling_id)
    for ruling_id, label in conn.execute(f"select id, label from rulings where {where}", params):
        if label and (len(label) > 1 or label.isdigit()):
            found.setdefault(label.lower(), []).append(ruling_id)
    return {key: sorted(set(v)) for key, v in found.items()}


def refs(conn: sqlite3.Connection, games: list[str] | None = None) -> dict[str, str]:
    """Every ruling's ref (as `ref_key` writes it) → its id (of the rulings of `games`; every game's when None)."""
    where, params = _of(games)
    return {ref_key(ref): ruling_id for ruling_id, ref in
            conn.execute(f"select id, ref from rulings where ref != '' and {where}", params)}


def acronyms(conn: sqlite3.Connection, games: list[str] | None = None) -> dict[str, str]:
    """Acronyms a game's rulings use for names they also spell out: "FOD" for "Finger of Death".

    An acronym is an upper-case word the game's rulings never write in lower case (so shouted words such
    as "NEVER" are not); its name is the capitalised phrase with those initials that those rulings use
    most, if they use it twice or as a ruling's title. Of `games` (every game when None), in the order of
    `canonical_acronyms`, so that the acronyms of some games add up with the others' to those of all.
    """
    found: list[tuple[str, str]] = []
    where, params = _of(games)
    for game, text in conn.execute(f"select game, group_concat(title || ' ' || text, ' ') from rulings where {where} "
                                   "group by game", params):
        titles = {t.lower() for (t,) in conn.execute("select title from rulings where game = ?", [game])}
        lower = set(re.findall(r"\b[a-z]+\b", text))
        shouted = {a for a in re.findall(r"\b([A-Z]{2,5})(?:'?s)?\b", text) if a.lower() not in lower}
        if not shouted:  # no acronym to spell out: spare the scan of every phrase (seconds on a huge document)
            continue
        words = re.findall(r"[A-Za-z]+", text)
        phrases: dict[str, Counter] = {}
        for n in range(2, 6):
            for i in range(len(words) - n + 1):
                phrase = words[i:i + n]
                initials = "".join(w[0] for w in phrase).upper()
                if initials in shouted and not any(w.isupper() for w in phrase) \
                        and all(w[0].isupper() or w in ("of", "the") for w in phrase):
                    phrases.setdefault(initials, Counter())[" ".join(phrase).lower()] += 1
        for acronym, counts in phrases.items():
            name, count = counts.most_common(1)[0]
            if count >= 2 or name in titles:
                found.append((acronym.lower(), name))
    return canonical_acronyms(found)


def canonical_acronyms(pairs: list[tuple[str, str]]) -> dict[str, str]:
    """(acronym, name) pairs as one mapping, whatever order the games gave them in: sorted by acronym, and of two
    names for one acronym the first in alphabetical order (as every library made before issue 45 stored it: "ap",
    assault points rather than attacking player)."""
    return dict(sorted(dict(sorted(pairs, reverse=True)).items()))


# A word as search reads it: letters and digits, with an inner apostrophe ("player's").
WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")


def spaced_words(text: str) -> str:
    """`text` as its lower-case words, one space between and either side (" end of turn phase "): a phrase
    stands in it as a whole exactly when its own spaced words are a substring."""
    return " " + " ".join(WORD.findall(text.lower())) + " "


def word_runs(words: list[str], longest: int) -> Iterator[str]:
    """Every run of 1 to `longest` consecutive `words`, joined by single spaces: the phrases that stand whole in the
    words' spaced text (`spaced_words`), so that a set of phrases can be looked up in it rather than each searched."""
    for start in range(len(words)):
        for stop in range(start + 1, min(len(words), start + longest) + 1):
            yield " ".join(words[start:stop])


def _spellings(term: str) -> list[str]:
    """The ways a question writes a glossary term, as its spaced words less the outer spaces:
    "banish/banished" is two words, "action, game" (a glossary's inverted entry) is "game action", a
    remark in brackets is no part of it ("Mana Burn (Obsolete)"), and a rule's name is said without "rule"
    too ("Summoning Sickness Rule" is "summoning sickness")."""
    found = []
    for part in re.sub(r"\([^)]*\)", " ", term).split("/"):
        head, _, qualifier = part.partition(",")
        words = spaced_words(f"{qualifier} {head}").strip()
        if words:
            found.append(words)
        named = re.fullmatch(r"(.+ .+) rule", words)
        if named:
            found.append(named.group(1))
    return found


# A name the rulebook gives something in quotes: 'called "mana burn"', 'known as the "legend rule"',
# 'informally called the "summoning sickness" rule', "referred to as 'tapping'".
_QUOTED_NAME = re.compile(
    r"\b(?:called|known\s+as|referred\s+to\s+as|termed|nicknamed|dubbed)\s+(?:the\s+|a\s+|an\s+)?"
    r"[“\"‘'](?P<name>[^\W\d_][^“”\"‘’'\n]{1,40}?)[.,!?]?[”\"’'](?:\s+(?P<rule>rule)\b)?", re.IGNORECASE)
# How many words a quoted name may have; a name of one word is at least this long and no stopword.
_NAME_WORDS = 4
_SHORTEST_NAME = 4


def quoted_names(text: str) -> list[str]:
    """The names `text` introduces in quotes (player slang a rulebook names: "mana burn", "legend rule"), as
    spaced words less the outer spaces; 'the "summoning sickness" rule' gives "summoning sickness" and
    "summoning sickness rule"."""
    found = []
    for match in _QUOTED_NAME.finditer(text):
        words = spaced_words(match.group("name")).strip()
        if not words or len(words.split()) > _NAME_WORDS or all(w in STOPWORDS for w in words.split()):
            continue
        if " " not in words and (len(words) < _SHORTEST_NAME or words in STOPWORDS):
            continue
        found.append(words)
        if match.group("rule"):
            found.append(f"{words} rule")
    return list(dict.fromkeys(found))


# A citation names a rule ("see 702.19"); the rules numbered under it are what it cites (702.19a, 702.19b),
# up to this many.
_CITED_FAMILY = 12


def _cited(conn: sqlite3.Connection, games: list[str] | None) -> dict[str, list[tuple[str, str]]]:
    """Glossary entry id → the rulings it cites, each with how (`see`, `number`): the targets of its
    references (not of the names its text mentions, nor of the topics a "Related Topics" line lists) and, for a
    rule cited by number, the rules numbered under it ("702.19" → 702.19a, 702.19b…). Of the entries of `games`
    (every game's when None)."""
    where, params = _of(games, "g.game")
    sql = (f"select g.id, x.to_id, x.target, t.source, t.label, x.kind from rulings g join xrefs x on x.from_id = g.id "
           f"join rulings t on t.id = x.to_id where g.kind in ({_ENTRY_KINDS}) and {where} "
           f"and coalesce(x.kind, '') not in ('name', 'related') order by x.id")
    rows = conn.execute(sql, params).fetchall()
    family: dict[tuple[str, str], list[str]] = {}  # (source, rule number) → the rules numbered under it
    if rows:
        sources = sorted({row[3] for row in rows})  # the sources cited: a rule's family is in its own
        for rid, source, label in conn.execute(f"select id, source, label from rulings where source in "
                                               f"({', '.join('?' * len(sources))}) order by source, position", sources):
            if re.fullmatch(r"\d+(?:\.\d+)+[a-z]*", label or ""):
                parts = label.rstrip("abcdefghijklmnopqrstuvwxyz").split(".")
                parents = {".".join(parts[:n]) for n in range(1, len(parts) + (label[-1].isalpha()))} - {label}
                for parent in parents:
                    family.setdefault((source, parent), []).append(rid)
    found: dict[str, list[tuple[str, str]]] = {}
    for entry, to_id, target, source, _, kind in rows:
        ids = [to_id, *family.get((source, target or ""), [])[:_CITED_FAMILY]]
        found.setdefault(entry, []).extend((rid, kind or "see") for rid in ids)
    return {entry: list(dict.fromkeys(pairs)) for entry, pairs in found.items()}


# A glossary entry, and one that only sends the reader elsewhere ("Bleed: see Conditions").
_ENTRY_KINDS = "'glossary', 'redirect'"


def glossary_terms(conn: sqlite3.Connection, games: list[str] | None = None) -> dict[str, list[str]]:
    """Glossary term → the rules that define it: the rules its entry cites ("see 1.8", "rule 4.2"; through an
    entry it cites, "see Trample", to the rules that one cites by number), what an entry that only sends the
    reader elsewhere leads to ("Bleed: see Conditions" → the Conditions entry), and the rules directly under a
    heading of the same game that is the term itself ("3.3 Main Phase" for "Main Phase"); and a name the
    rulebook gives in quotes ('this was called "mana burn"') → the rule that gives it (or, in a glossary entry,
    the rules the entry cites). A question using the term then reaches the rules, not just the one-line
    definition. Of the rulings of `games` (every game's when None): a game's terms lead to its own rules."""
    where, params = _of(games)
    under: dict[tuple[str, str], list[str]] = {}
    for ruling_id, game, section in conn.execute(f"select id, game, section from rulings where kind not in "
                                                 f"({_ENTRY_KINDS}) and {where} order by source, position", params):
        heading = re.sub(r"^[\w.]*\d[\w.]*\s+", "", (section or "").rsplit(" > ", 1)[-1])
        under.setdefault((game, spaced_words(heading).strip()), []).append(ruling_id)
    # What an entry cites is a reference ("see 1.8"), not a name its definition mentions ("Main Phase" in the
    # entry for "phase"), which the text links to as well (xrefs of kind "name").
    cited = _cited(conn, games)
    entries = {rid: (game, title, kind) for rid, game, title, kind in conn.execute(
        f"select id, game, title, kind from rulings where kind in ({_ENTRY_KINDS}) and {where} "
        "order by source, position", params)}

    def rules(entry: str, seen: frozenset[str] = frozenset()) -> list[str]:
        """What an entry cites: an entry it cites giving way to the rules that one cites by number, one that
        only sends the reader elsewhere to where it leads."""
        found = []
        for target, _ in cited.get(entry, []):
            if target in seen:
                continue
            if target not in entries:
                found.append(target)
            elif entries[target][2] == "redirect":
                found += rules(target, seen | {entry})
            else:
                found += [rule for rule, how in cited.get(target, []) if how == "number"] or [target]
        return found

    found: dict[str, list[str]] = {}
    for entry, (game, title, _) in entries.items():
        for term in _spellings(title or ""):
            targets = rules(entry) + under.get((game, term), [])
            if targets:
                found.setdefault(term, []).extend(targets)
    for ruling_id, kind, text in conn.execute("select id, kind, text from rulings where kind not in "
                                              f"('title', 'front-matter', 'changelog') and {where} "
                                              "order by source, position", params):
        for name in quoted_names(text or ""):
            targets = (rules(ruling_id) or [ruling_id]) if kind == "glossary" else [ruling_id]
            found.setdefault(name, []).extend(targets)
    return {term: list(dict.fromkeys(ids)) for term, ids in found.items()}


def lexicon_rows(conn: sqlite3.Connection, games: list[str] | None = None) -> list[tuple[str, str, str]]:
    """(kind, key, value) of every lexicon row the rulings of `games` give (every game's when None), in the order
    of derivation; the game aliases are every game's."""
    pairs = [("acronym", key, value) for key, value in acronyms(conn, games).items()]
    pairs += [("game", key, value) for key, value in game_aliases(conn).items()]
    pairs += [("label", key, value) for key, ids in labels(conn, games).items() for value in ids]
    pairs += [("term", key, value) for key, ids in glossary_terms(conn, games).items() for value in ids]
    pairs += [("ref", key, value) for key, value in refs(conn, games).items()]
    return pairs


def write_lexicon(db: sqlite_utils.Database, games: list[str] | None = None,
                  stale: list[tuple[str, str, str]] = ()) -> None:
    """(Re)derive the lexicon from the rulings and games in `db` and store it in its `lexicon` table: all of it, or
    with `games` only those games' rows: `stale` (what `lexicon_rows` gave for them before the change) taken out,
    what they give now put in, so that an add costs what its game's rulings cost, not the library's.

    Either way `load_lexicon` reads what a whole derivation gives: a game's rows keep their order of derivation,
    and acronyms are read in `canonical_acronyms`' order.
    """
    if games is None:
        db["lexicon"].delete_where()
        db["lexicon"].insert_all({"id": n, "kind": kind, "key": key, "value": value}
                                 for n, (kind, key, value) in enumerate(lexicon_rows(db.conn), start=1))
        return
    # The rows looked at are found by their kind and key (a database made before the index gets it here).
    db["lexicon"].create_index(["kind", "key"], if_not_exists=True)
    db.execute("create temp table if not exists stale_lexicon (kind text, key text, value text)")
    db.execute("delete from temp.stale_lexicon")
    left = Counter(row for row in stale if row[0] != "game")
    db.conn.executemany("insert into temp.stale_lexicon values (?, ?, ?)", list(left))
    # One row for each stale one (two games may give one acronym the same name): the first n of a kind, key and
    # value for n stale ones.
    gone = []
    for row_id, *row in db.execute("select id, kind, key, value from lexicon where (kind, key) in "
                                   "(select kind, key from temp.stale_lexicon) order by id"):
        if left[tuple(row)] > 0:
            left[tuple(row)] -= 1
            gone.append((row_id,))
    db.conn.executemany("delete from lexicon where id = ?", gone)
    db.execute("delete from lexicon where kind = 'game'")
    start = db.execute("select coalesce(max(id), 0) from lexicon").fetchone()[0] + 1
    db["lexicon"].insert_all({"id": n, "kind": kind, "key": key, "value": value}
                             for n, (kind, key, value) in enumerate(lexicon_rows(db.conn, games), start=start))


@per_database_version
def load_lexicon(conn: sqlite3.Connection) -> Lexicon:
    """The lexicon stored in this connection's database."""
    found: dict[str, dict] = {kind: {} for kind in KINDS}
    pairs = []
    for kind, key, value in conn.execute("select kind, key, value from lexicon order by id"):
        if kind == "acronym":
            pairs.append((key, value))
        elif kind in ("label", "term"):
            found[kind].setdefault(key, []).append(value)
        else:
            found[kind][key] = value
    ids = frozenset(r[0] for r in conn.execute("select id from rulings"))
    # A label's rulings sorted, whichever games were derived last.
    labels = {key: sorted(set(values)) for key, values in found["label"].items()}
    return Lexicon(canonical_acronyms(pairs), found["game"], labels, ids, found["term"], found["ref"])
