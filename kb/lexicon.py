"""The words questions use for things the corpus names: acronyms, labels, game names and glossary terms.

They are derived from the whole corpus, which is too slow for a question, so the build derives them once
and stores them in the `lexicon` table (kind, key, value — one row per pair, browsable in Datasette);
search reads that table back, once per version of the database file.
"""
from __future__ import annotations

import re
import sqlite3
from collections import Counter
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


def labels(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """Lower-case keys that may designate a ruling → its ids: every tail of its id, and its label when
    that is more than one letter."""
    found: dict[str, list[str]] = {}
    for (ruling_id,) in conn.execute("select id from rulings"):
        parts = ruling_id.lower().split("/")
        for n in range(1, len(parts)):
            found.setdefault("/".join(parts[n:]), []).append(ruling_id)
    for ruling_id, label in conn.execute("select id, label from rulings"):
        if label and (len(label) > 1 or label.isdigit()):
            found.setdefault(label.lower(), []).append(ruling_id)
    return {key: sorted(set(v)) for key, v in found.items()}


def refs(conn: sqlite3.Connection) -> dict[str, str]:
    """Every ruling's ref (as `ref_key` writes it) → its id."""
    return {ref_key(ref): ruling_id for ruling_id, ref in conn.execute("select id, ref from rulings where ref != ''")}


def acronyms(conn: sqlite3.Connection) -> dict[str, str]:
    """Acronyms a game's rulings use for names they also spell out: "FOD" for "Finger of Death".

    An acronym is an upper-case word the game's rulings never write in lower case (so shouted words such
    as "NEVER" are not); its name is the capitalised phrase with those initials that those rulings use
    most, if they use it twice or as a ruling's title.
    """
    found: dict[str, str] = {}
    for game, text in conn.execute("select game, group_concat(title || ' ' || text, ' ') from rulings group by game"):
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
                found[acronym.lower()] = name
    return found


# A word as search reads it: letters and digits, with an inner apostrophe ("player's").
WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")


def spaced_words(text: str) -> str:
    """`text` as its lower-case words, one space between and either side (" end of turn phase "): a phrase
    stands in it as a whole exactly when its own spaced words are a substring."""
    return " " + " ".join(WORD.findall(text.lower())) + " "


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


def _cited(conn: sqlite3.Connection) -> dict[str, list[tuple[str, str]]]:
    """Glossary entry id → the rulings it cites, each with how (`see`, `number`): the targets of its
    references (not of the names its text mentions, nor of the topics a "Related Topics" line lists) and, for a
    rule cited by number, the rules numbered under it ("702.19" → 702.19a, 702.19b…)."""
    sql = (f"select g.id, x.to_id, x.target, t.source, t.label, x.kind from rulings g join xrefs x on x.from_id = g.id "
           f"join rulings t on t.id = x.to_id where g.kind in ({_ENTRY_KINDS}) "
           f"and coalesce(x.kind, '') not in ('name', 'related') order by x.id")
    rows = conn.execute(sql).fetchall()
    family: dict[tuple[str, str], list[str]] = {}  # (source, rule number) → the rules numbered under it
    if rows:
        for rid, source, label in conn.execute("select id, source, label from rulings order by source, position"):
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


def glossary_terms(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """Glossary term → the rules that define it: the rules its entry cites ("see 1.8", "rule 4.2"; through an
    entry it cites, "see Trample", to the rules that one cites by number), what an entry that only sends the
    reader elsewhere leads to ("Bleed: see Conditions" → the Conditions entry), and the rules directly under a
    heading of the same game that is the term itself ("3.3 Main Phase" for "Main Phase"); and a name the
    rulebook gives in quotes ('this was called "mana burn"') → the rule that gives it (or, in a glossary entry,
    the rules the entry cites). A question using the term then reaches the rules, not just the one-line
    definition."""
    under: dict[tuple[str, str], list[str]] = {}
    for ruling_id, game, section in conn.execute(f"select id, game, section from rulings where kind not in "
                                                 f"({_ENTRY_KINDS}) order by source, position"):
        heading = re.sub(r"^[\w.]*\d[\w.]*\s+", "", (section or "").rsplit(" > ", 1)[-1])
        under.setdefault((game, spaced_words(heading).strip()), []).append(ruling_id)
    # What an entry cites is a reference ("see 1.8"), not a name its definition mentions ("Main Phase" in the
    # entry for "phase"), which the text links to as well (xrefs of kind "name").
    cited = _cited(conn)
    entries = {rid: (game, title, kind) for rid, game, title, kind in conn.execute(
        f"select id, game, title, kind from rulings where kind in ({_ENTRY_KINDS}) order by source, position")}

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
                                              "('title', 'front-matter', 'changelog') order by source, position"):
        for name in quoted_names(text or ""):
            targets = (rules(ruling_id) or [ruling_id]) if kind == "glossary" else [ruling_id]
            found.setdefault(name, []).extend(targets)
    return {term: list(dict.fromkeys(ids)) for term, ids in found.items()}


def write_lexicon(db: sqlite_utils.Database) -> None:
    """(Re)derive the lexicon from the rulings and games in `db` and store it in its `lexicon` table.

    Rows keep the order of derivation (`id`): an acronym's place decides where its name's words fall in
    the full-text query.
    """
    pairs = [("acronym", key, value) for key, value in acronyms(db.conn).items()]
    pairs += [("game", key, value) for key, value in game_aliases(db.conn).items()]
    pairs += [("label", key, value) for key, ids in labels(db.conn).items() for value in ids]
    pairs += [("term", key, value) for key, ids in glossary_terms(db.conn).items() for value in ids]
    pairs += [("ref", key, value) for key, value in refs(db.conn).items()]
    db["lexicon"].delete_where()
    db["lexicon"].insert_all({"id": n, "kind": kind, "key": key, "value": value}
                             for n, (kind, key, value) in enumerate(pairs, start=1))


@per_database_version
def load_lexicon(conn: sqlite3.Connection) -> Lexicon:
    """The lexicon stored in this connection's database."""
    found: dict[str, dict] = {kind: {} for kind in KINDS}
    for kind, key, value in conn.execute("select kind, key, value from lexicon order by id"):
        if kind in ("label", "term"):
            found[kind].setdefault(key, []).append(value)
        else:
            found[kind][key] = value
    ids = frozenset(r[0] for r in conn.execute("select id from rulings"))
    return Lexicon(found["acronym"], found["game"], found["label"], ids, found["term"], found["ref"])
