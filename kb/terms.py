"""A page per term: what a game's documents say of one of its terms, in one place.

A judge asked "what does Bodyguard do?" wants the glossary entry, the rules that define the term, every other
ruling that uses it and how those rules changed across editions, the way a keyword's page gathers them on
Scryfall or Academy Ruins. A game's terms are
- the titles of its glossary entries ("Ward", "Bodyguard"; an entry that only sends the reader elsewhere too), and
- the names of its numbered sections that define what they are named for: a section "702.21 Ward" or "10.3
  Bodyguard" whose first rule uses its own name, so that a rulebook with no glossary still has its keywords.
"""
from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass

from kb.cache import per_database_version
from kb.lexicon import WORD, load_lexicon, spaced_words
from kb.rulebook import rule_anchor
from kb.rulings import results

# A section named for a term: a number, then a name of at most MAX_NAME_WORDS words ("702.21 Ward").
MAX_NAME_WORDS = 4
_NUMBERED_NAME = re.compile(r"^[\w.-]*\d[\w.-]*\s+(?P<name>[^\d\W][^>]*)$")
# The other rulings that use a term, at most: a word every rule uses is no keyword worth a page of mentions.
MAX_MENTIONS = 200
# The rules that define a term shown on its page, at most: a keyword's rule and its subrules are a few dozen
# (Magic's longest keyword sections, about 20); a bigger section continues on the rulebook page.
MAX_RULES = 40
ENTRY_KINDS = ("glossary", "redirect")


@dataclass(frozen=True)
class Term:
    """One of a game's terms: its name as the document writes it, its slug in the page's address, the glossary
    entries that name it and the sections named for it (their section paths)."""
    name: str
    slug: str
    entries: tuple[str, ...]
    sections: tuple[str, ...]


def term_slug(name: str) -> str:
    """A term's slug: its words, lower case, joined by hyphens ("Shift (keyword)" → "shift-keyword")."""
    return "-".join(WORD.findall(name.lower()))


@per_database_version
def _terms(conn: sqlite3.Connection) -> dict[str, dict[str, Term]]:
    """Game → term slug → Term, every game's, read once per version of the database."""
    names: dict[tuple[str, str], dict] = {}

    def add(game: str, name: str, entry: str | None = None, section: str | None = None) -> None:
        slug = term_slug(name)
        if not slug:
            return
        found = names.setdefault((game, slug), {"name": name, "entries": [], "sections": []})
        if entry:
            found["entries"].append(entry)
            found["name"] = name  # a glossary's spelling before a heading's
        if section and section not in found["sections"]:
            found["sections"].append(section)

    for ruling_id, game, title in conn.execute(
            f"select id, game, title from rulings where kind in ({', '.join('?' * len(ENTRY_KINDS))}) "
            "order by source, position", ENTRY_KINDS):
        add(game, re.sub(r"\s*\([^)]*\)\s*$", "", title or "").strip(), entry=ruling_id)
    # A numbered section's first rule (in document order) says whether the section defines its own name.
    firsts: dict[tuple[str, str], str] = {}
    for game, section, text in conn.execute("select game, section, text from rulings where kind not in "
                                            f"({', '.join('?' * len(ENTRY_KINDS))}) order by source, position",
                                            ENTRY_KINDS):
        firsts.setdefault((game, section or ""), text or "")
    for (game, section), text in firsts.items():
        match = _NUMBERED_NAME.match(section.rsplit(" > ", 1)[-1])
        if not match:
            continue
        name = match["name"].strip()
        if len(WORD.findall(name)) <= MAX_NAME_WORDS and spaced_words(name) in spaced_words(text):
            add(game, name, section=section)
    by_game: dict[str, dict[str, Term]] = {}
    for (game, slug), found in sorted(names.items(), key=lambda item: item[0][1]):
        by_game.setdefault(game, {})[slug] = Term(found["name"], slug, tuple(found["entries"]),
                                                  tuple(found["sections"]))
    return by_game


def terms(conn: sqlite3.Connection, game: str) -> list[Term]:
    """A game's terms, A to Z."""
    return list(_terms(conn).get(game, {}).values())


def terms_in(conn: sqlite3.Connection, ruling: dict) -> list[Term]:
    """The terms of its game a ruling's text uses, A to Z, but the one it is the glossary entry or a rule of."""
    spaced = spaced_words(ruling["text"] or "")
    return [term for term in terms(conn, ruling["game"]) if spaced_words(term.name) in spaced
            and ruling["id"] not in term.entries and ruling["section"] not in term.sections]


def named_term(conn: sqlite3.Connection, game: str | None, question: str) -> Term | None:
    """The term of `game` a question is about, when it asks what the term is or does ("What is ward?", "What
    does Bodyguard do?", "Tank"): the longest term of the game the question names that leaves at most two other
    words."""
    if not game:
        return None
    asked = spaced_words(question)
    words = len(asked.split())
    found = None
    for term in terms(conn, game):
        spelled = spaced_words(term.name)
        if spelled in asked:
            rest = words - len(spelled.split())
            if rest <= 3 and (found is None or len(term.name) > len(found.name)):
                found = term
    return found


def term_page(conn: sqlite3.Connection, game: str, slug: str) -> dict | None:
    """Everything a game's documents say of a term (None when the game has no such term): `{"game", "term",
    "slug", "entries", "rules", "more", "mentions", "history"}` where entries are its glossary entries, rules the
    rules that define it (those its entries cite, and those of the sections named for it, each followed by its
    subrules), at most MAX_RULES; `more` the rest of them, None when there is none, else `{"count", "id", "ref",
    "source", "anchor"}`: how many, and the first left out with its anchor on its source's rulebook page, where
    the rest follow it; mentions every other ruling of the game that uses it, grouped by section in document order
    (`{"section", "rulings"}`, at most MAX_MENTIONS), and history each shown defining rule's changes across its
    source's editions (`{"id", "ref", "changes"}`, only rules that changed). Rulings are shaped as search results
    (`kb.rulings.results`). Bounded: a section of 5,000 rules took 9.2 s as one page of 4.2 MB."""
    term = _terms(conn).get(game, {}).get(slug)
    if term is None:
        return None
    lexicon = load_lexicon(conn)
    cited = [rid for rid in lexicon.terms.get(spaced_words(term.name).strip(), []) if rid.startswith(game + "/")]
    named = [rid for section in term.sections for (rid,) in conn.execute(
        "select id from rulings where game = ? and section = ? order by source, position", [game, section])]
    defining = [rid for rid in dict.fromkeys(cited + named) if rid not in term.entries]
    # A defining rule's subrules (10.10.9.1 and .2 under "10.10.9 Shift has two variants") stand with it, under the
    # rule as it is numbered now, not among the mentions; those of the rules shown are looked up.
    head = defining[:MAX_RULES]
    parts: dict[str, list[str]] = {}
    for rid, parent in conn.execute(f"select id, parent from rulings where parent in ({', '.join('?' * len(head))}) "
                                    "order by source, position", head):
        parts.setdefault(parent, []).append(rid)
    defining = list(dict.fromkeys([*(found for rid in head for found in (rid, *parts.get(rid, []))), *defining]))
    shown, rest = defining[:MAX_RULES], defining[MAX_RULES:]
    # The mentions leave out the sections named for the term in SQL, the other rulings shown here in Python.
    apart = (set(defining) | set(term.entries)) - set(named)
    outside = f"and coalesce(r.section, '') not in ({', '.join('?' * len(term.sections))}) " if term.sections else ""
    mentions = [rid for (rid,) in conn.execute(
        "select r.id from rulings_fts join rulings r on r.rowid = rulings_fts.rowid "
        f"where rulings_fts match ? and r.game = ? and r.kind != 'title' {outside}order by r.source, r.position "
        "limit ?", [_phrase(term.name), game, *term.sections, MAX_MENTIONS + len(apart)])
        if rid not in apart][:MAX_MENTIONS]
    groups: list[dict] = []
    for ruling in results(conn, [(rid, 0.0) for rid in mentions]):
        section = ruling["citation"]["section"]
        if not groups or groups[-1]["section"] != section:
            groups.append({"section": section, "rulings": []})
        groups[-1]["rulings"].append(ruling)
    from kb.changes import ruling_changes  # it searches with kb.search, which a page of terms rarely needs
    rules = results(conn, [(rid, 0.0) for rid in shown])
    changed = []
    for ruling in rules:
        changes = ruling_changes(conn, ruling["id"])
        if changes:
            changed.append({"id": ruling["id"], "ref": ruling["ref"], "changes": changes})
    return {"game": game, "term": term.name, "slug": term.slug,
            "entries": results(conn, [(rid, 0.0) for rid in term.entries]),
            "rules": rules, "more": _more(conn, rest), "mentions": groups, "history": changed}


def _more(conn: sqlite3.Connection, rest: list[str]) -> dict | None:
    """The defining rules a term's page leaves out: how many, and the first with its place on its rulebook page."""
    if not rest:
        return None
    first = conn.execute("select r.id, r.ref, r.source, s.abbrev from rulings r join sources s on s.id = r.source "
                         "where r.id = ?", [rest[0]]).fetchone()
    return {"count": len(rest), "id": first[0], "ref": first[1], "source": first[2],
            "anchor": rule_anchor(first[0], first[1], first[3])}


def _phrase(name: str) -> str:
    """An FTS5 query for the term's words as a phrase (no FTS syntax gets through)."""
    return '"' + " ".join(WORD.findall(name.lower())) + '"'
