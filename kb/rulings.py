"""The read side: how a ruling is shaped for output (text, examples, status, citation), for every reader.

Search results, `rulings ask`, the JSON API and the web pages all take their rulings from here.
"""
from __future__ import annotations

import json
import re
import sqlite3
from collections import Counter
from urllib.parse import quote, urlencode
from collections.abc import Mapping

from kb.cache import per_database_version
from kb.lexicon import load_lexicon
from kb.store import FILE_KEPT, FORMAT_COLUMNS, WITH_FORMAT, UnknownRuling, dicts, examples_of, game, gaps, one
from model import citation as citations
from model.citation import Locator
from model.editions import version_of
from model.kinds import AUTHORITY, HEADER_KINDS, UNKNOWN_AUTHORITY

# What each verification status says, in a judge's words: on a web page, after a ruling in `rulings ask`, and as
# why `rulings verify` does not count a ruling as checked (a not-checkable ruling gives its own reason). "error"
# is a single example's status only: the engine raised instead of answering.
STATUS_LABELS = {
    "badge": {"passed": "Checked by the engine", "failed": "The engine disagrees", "error": "The engine failed",
              "not-run": "Not checked yet", "not-executable": "Not checkable", "unlinked": "Not checked"},
    "cli": {"passed": "checked by the engine", "failed": "THE ENGINE DISAGREES", "error": "THE ENGINE FAILED",
            "not-run": "not checked yet", "not-executable": "not checkable", "unlinked": "not checked"},
    "unproved": {"failed": "the engine disagrees with one of its examples",
                 "not-run": "its examples have not been run through the engine",
                 "unlinked": "no example for the engine to check and no stated reason"},
}


def says_nothing(status: str | None, game: str) -> bool:
    """Whether a ruling's status would only say that no engine checks it, its game having no engine at all: such a
    badge is left out (every ruling of the game would carry it), and the game's page says it once."""
    from engine.registry import games  # the engine's modules, only when a page shows a status
    return status == "unlinked" and game not in games()


def proof(status: str, reason: str | None = None, tests: int | None = None) -> str:
    """A verification status in plain words: "Checked by the engine: 3 examples agree", "The engine disagrees",
    "Not checkable: <reason>", "Not checked: no example yet".

    `reason` is a not-checkable ruling's reason; `tests` how many examples the engine checked (None: not said).
    """
    label = STATUS_LABELS["badge"].get(status, status)
    if status == "passed" and tests:
        return f"{label}: {tests} example{'s agree' if tests > 1 else ' agrees'}"
    if status == "not-executable" and reason:
        return f"{label}: {reason}"
    if status == "unlinked":
        return f"{label}: no example yet"
    return label


# A ruling with what its citation says of its source: title, version, kind, scope and game, whether the file of
# its current edition is kept, and what its format's reader declares (how citations name its places).
_WITH_SOURCE = ("select r.*, s.title as source_title, s.version as source_version, s.date as source_date, "
                "s.kind as source_kind, s.scope as source_scope, s.abbrev as source_abbrev, g.name as game_name, "
                f"{FILE_KEPT} as source_original, {FORMAT_COLUMNS} "
                f"from rulings r join sources s on s.id = r.source join games g on g.slug = r.game {WITH_FORMAT} ")
# The columns of _WITH_SOURCE that are the source's, not the ruling's.
_SOURCE_COLUMNS = ("source_title", "source_version", "source_date", "source_kind", "source_scope", "source_abbrev",
                   "game_name", "source_original", "format_label", "format_file_kept", "format_line",
                   "format_lines", "format_sheet", "format_sheet_link")


def citation(row: Mapping, text: str | None = None) -> dict:
    """The citation a judge reads out: source, section, line range and pages, plus a one-line form; the
    ruling's ref, the full citation to paste (`full`: game, source, edition, section, and the page or lines),
    the source's kind and scope (what it covers, or ""), and the edition cited: its `version` and the date it
    took `effective` (None where the document gives none).

    `row` has the columns of _WITH_SOURCE; the one-line form is `text`, by default the ruling's stored
    citation (its source's title and its page or lines). `start` and `end` are the characters of the source's
    original text (`sources.original_text`) that hold exactly the cited passage; `page` and `page_end` are the
    printed pages it starts and ends on (None where the document marks no pages), `pdf_page` the index in the
    file of the page it starts on (where the file has pages of its own: a PDF), `original` whether the database
    keeps the source's document, `original_url` its path then (`original_url`, opening the file at `pdf_page`
    where its format can be opened at a page; None otherwise), and `original_label` what the original is called
    ("PDF", "Word document").
    """
    locator = Locator.of(row, "format_")
    return {
        "ref": row["ref"],
        "kind": row["source_kind"],
        "scope": row["source_scope"] or "",
        "full": citations.full(row["ref"], row["source_abbrev"], row["game_name"], row["source_title"],
                              row["source_version"], row["section"], row["label"], row["title"],
                              citations.place(row["line_start"], row["line_end"], row["page"], row["page_end"],
                                              row["pdf_page"], locator), row["source_date"] or ""),
        "version": version_of({"version": row["source_version"], "date": row["source_date"]}),
        "effective": row["source_date"] or None,
        "source": row["source"],
        "source_title": row["source_title"],
        "section": row["section"],
        "line_start": row["line_start"],
        "line_end": row["line_end"],
        "start": row["char_start"],
        "end": row["char_end"],
        "page": row["page"],
        "page_end": row["page_end"],
        "pdf_page": row["pdf_page"],
        "original": bool(row["source_original"]),
        "original_url": original_url(row["source"], version_of({"version": row["source_version"],
                                                                "date": row["source_date"]}),
                                     locator.link(row["pdf_page"])) if row["source_original"] else None,
        "original_label": row["format_label"],
        "text": text or row["citation"],
    }


def original_url(source: str, version: str | None, fragment: str = "") -> str:
    """The path of a source's document as it came, of the edition cited (so that the citation keeps opening it
    when a newer one is added; the current one without `version`), opened where `fragment` says (a page of a
    PDF: model.citation.Locator.link): what the web app serves at /sources/<id>/original."""
    url = f"/sources/{quote(source, safe='')}/original" + (f"?{urlencode({'version': version})}" if version else "")
    return url + fragment


def statuses(conn: sqlite3.Connection, ruling_ids: list[str]) -> dict[str, dict]:
    """Each ruling's verification status (passed, failed, not-run, not-executable, unlinked), reason and
    number of tests."""
    marks = ",".join("?" * len(ruling_ids))
    # Filtering the view itself (not joining it) lets SQLite compute the status of these rulings only.
    return {row["ruling_id"]: row for row in dicts(
        conn, f"select ruling_id, status, reason, tests from ruling_status where ruling_id in ({marks})",
        ruling_ids)}


def _summaries(conn: sqlite3.Connection, rows: list[sqlite3.Row],
               scores: dict[str, float] | None = None) -> list[dict]:
    """Rulings (rows of _WITH_SOURCE) as readers list them, in the order given, each with its search score
    if `scores` are given."""
    ids = [row["id"] for row in rows]
    examples, status, links = examples_of(conn, ids), statuses(conn, ids), links_of(conn, ids)
    found = []
    for row in rows:
        summary = {"id": row["id"], "ref": row["ref"], "game": row["game"], "title": row["title"],
                   "text": row["text"],
                   # header: the source's title, credits or changes, shown with the source, not as a ruling
                   "kind": row["kind"], "header": row["kind"] in HEADER_KINDS,
                   "examples": examples[row["id"]], "citation": citation(row),
                   "family": family(row), "links": links[row["id"]]}
        summary.update(version=summary["citation"]["version"], effective=summary["citation"]["effective"])
        if scores is not None:
            summary["score"] = round(scores[row["id"]], 4)
        summary.update(status=status[row["id"]]["status"], status_reason=status[row["id"]]["reason"],
                       status_tests=status[row["id"]]["tests"])
        found.append(summary)
    return found


def links_of(conn: sqlite3.Connection, ruling_ids: list[str]) -> dict[str, list[dict]]:
    """Where each ruling's text links to another ruling ("see X", a rule number, a name the game's rulings
    define): `{"start", "end", "to_id", "kind"}` in text order."""
    found: dict[str, list[dict]] = {ruling_id: [] for ruling_id in ruling_ids}
    if not ruling_ids:
        return found
    for row in dicts(conn, f"select from_id, start, end, to_id, kind from xrefs where to_id is not null and "
                           f"start is not null and from_id in ({','.join('?' * len(ruling_ids))}) "
                           f"order by from_id, start", ruling_ids):
        found[row.pop("from_id")].append(row)
    return found


def results(conn: sqlite3.Connection, ranked: list[tuple[str, float]]) -> list[dict]:
    """Search results for ranked (ruling id, score) pairs, best first: each ruling shaped for output, with
    `reprints`, where update summaries reprint it (`reprints_of`)."""
    if not ranked:
        return []
    ids = [ruling_id for ruling_id, _ in ranked]
    rows = {row["id"]: row for row in conn.execute(
        _WITH_SOURCE + f"where r.id in ({','.join('?' * len(ids))})", ids)}
    reprinted = reprints_of(conn, ids)
    return [{**found, "reprints": reprinted.get(found["id"], [])}
            for found in _summaries(conn, [rows[ruling_id] for ruling_id in ids], dict(ranked))]


# Scores this close (relative) answer alike: the more authoritative source's ruling goes first.
TIE = 0.05


def official_first(conn: sqlite3.Connection, ranked: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """Ranked (ruling id, score) pairs, best first, where a ruling whose score is within TIE of the one just
    above it moves above it if its source has more authority: a rulebook or official FAQ before a designer's
    clarification, a variant, then a house rule. Rulings of equal authority never move."""
    if not ranked:
        return ranked
    ids = [ruling_id for ruling_id, _ in ranked]
    if conn.execute("select 1 from sqlite_temp_master where name in ('rulings', 'sources')").fetchone():
        # A kb.asof connection: its rulings and sources are another day's (temp tables of its own).
        kinds = dict(conn.execute(f"select r.id, s.kind from rulings r join sources s on s.id = r.source "
                                  f"where r.id in ({','.join('?' * len(ids))})", ids).fetchall())
        weight = {ruling_id: AUTHORITY.get(kinds.get(ruling_id), UNKNOWN_AUTHORITY) for ruling_id in ids}
    else:
        common, other = _authorities(conn)
        stored = load_lexicon(conn).rulings
        weight = {ruling_id: other.get(ruling_id, common) if ruling_id in stored else UNKNOWN_AUTHORITY
                  for ruling_id in ids}
    found: list[tuple[str, float]] = []
    for pair in ranked:
        at = len(found)
        while at and weight[found[at - 1][0]] > weight[pair[0]] and _tied(found[at - 1][1], pair[1]):
            at -= 1
        found.insert(at, pair)
    return found


@per_database_version
def _authorities(conn: sqlite3.Connection) -> tuple[int, dict[str, int]]:
    """The authority of the source most rulings of this version of the file come from, and each other ruling's
    (few: a library is mostly rulebooks): what `official_first` weighs, rather than each candidate's row read at
    every question. A ruling whose source is missing has UNKNOWN_AUTHORITY, as the join gives it."""
    kinds = dict(conn.execute("select id, kind from sources").fetchall())
    counted = conn.execute("select source, count(*) from rulings group by source").fetchall()
    totals: Counter[int] = Counter()
    for source, count in counted:
        totals[AUTHORITY.get(kinds.get(source), UNKNOWN_AUTHORITY)] += count
    common = max(totals, key=totals.__getitem__, default=UNKNOWN_AUTHORITY)
    other: dict[str, int] = {}
    for source, _ in counted:
        authority = AUTHORITY.get(kinds.get(source), UNKNOWN_AUTHORITY)
        if authority != common:  # "is": a missing (null) source too
            rows = conn.execute("select id from rulings where source is ?", [source])
            other.update((row[0], authority) for row in rows)
    return common, other


def originals_first(conn: sqlite3.Connection, ranked: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """Ranked pairs with each update summary's reprint of a rule (kind `restated`) folded into the rule itself:
    the rule stands at the better of the two places, with that place's score, and the reprint leaves the list
    (the rule's result says where it is reprinted: `reprints_of`)."""
    reprints = _reprinted(conn, [ruling_id for ruling_id, _ in ranked])
    if not reprints:
        return ranked
    found: list[tuple[str, float]] = []
    placed: set[str] = set()
    for ruling_id, score in ranked:
        rule = reprints.get(ruling_id, ruling_id)
        if rule not in placed:
            placed.add(rule)
            found.append((rule, score))
    return found


def _reprinted(conn: sqlite3.Connection, ids: list[str]) -> dict[str, str]:
    """Of `ids`, each update summary's reprint (kind `restated`) → the rule it reprints: the rule of its number
    earlier in the same source whose words it repeats."""
    stored = _stored_reprints(conn)
    if stored is not None:
        ids = [ruling_id for ruling_id in ids if ruling_id in stored]
    pairs = conn.execute(
        "select r.id, o.id, r.text, o.text from rulings r join rulings o on o.source = r.source "
        "and o.label = r.label and o.kind not in ('restated', 'changelog') and o.position < r.position "
        f"where r.kind = 'restated' and r.id in ({','.join('?' * len(ids))}) order by o.position desc",
        ids).fetchall() if ids else []
    # A reprint says what its rule says (perhaps amended); a list number used again elsewhere does not.
    return {reprint: original for reprint, original, text, said in pairs if _reprints(text, said)}


def reprints_of(conn: sqlite3.Connection, rule_ids: list[str]) -> dict[str, list[dict]]:
    """Rule id → the update summaries' reprints of it, `{"id", "ref", "section"}` each, in document order."""
    stored = _stored_reprints(conn)
    sources = None if stored is None else sorted(set(stored.values()))
    if not rule_ids or sources == []:
        return {}
    # Only a source holding reprints is read for them: the join reads every ruling of the rule's source.
    among = "" if sources is None else f"and o.source in ({','.join('?' * len(sources))}) "
    rows = conn.execute(
        "select o.id, r.id, r.ref, r.section, r.text, o.text from rulings o join rulings r on r.source = o.source "
        "and r.label = o.label and r.kind = 'restated' and r.position > o.position "
        f"where o.id in ({','.join('?' * len(rule_ids))}) {among}order by r.position",
        [*rule_ids, *(sources or [])]).fetchall()
    found: dict[str, list[dict]] = {}
    for rule, reprint, ref, section, text, said in rows:
        if _reprints(text, said):
            found.setdefault(rule, []).append({"id": reprint, "ref": ref, "section": section})
    return found


def _stored_reprints(conn: sqlite3.Connection) -> dict[str, str] | None:
    """`_reprint_sources` of the file `conn` reads; None on a kb.asof connection, whose rulings are another day's
    (temp tables of its own), so that every ruling is looked at."""
    dated = conn.execute("select 1 from sqlite_temp_master where name = 'rulings'").fetchone()
    return None if dated else _reprint_sources(conn)


@per_database_version
def _reprint_sources(conn: sqlite3.Connection) -> dict[str, str]:
    """Each update summary's reprint (kind `restated`) of this version of the file → its source: few (none in most
    libraries), and the only rulings a search's candidates need be looked up among, read once instead of every
    candidate's whole source at every question."""
    return dict(conn.execute("select id, source from rulings where kind = 'restated'").fetchall())


def _reprints(text: str, original: str) -> bool:
    words, said = set(text.lower().split()), set(original.lower().split())
    return len(words & said) >= 0.5 * min(len(words), len(said))


def _tied(above: float, below: float) -> bool:
    return abs(above - below) <= TIE * max(abs(above), abs(below))


_RULE_NUMBER = re.compile(r"\d+(?:\.\d+)+[a-z]?")
_NUMBERS = re.compile(r"\d|^[A-Za-z]$")  # a label the document numbers with ("4.3", "36a", "B"), not a slug


def family(row: Mapping) -> str | None:
    """The id of a ruling's parent rule: its stored `parent`; or, for a numbered rule whose parent rule is only
    a heading ("1.1 General" over 1.1.1 and 1.1.2, "702.11 Hexproof" over 702.11b), that heading's section
    path, which the rule's id starts with; else None."""
    if row["parent"]:
        return row["parent"]
    label = row["label"] or ""
    if not _RULE_NUMBER.fullmatch(label) or "/" not in row["id"]:
        return None
    number = re.sub(r"(?:\.\d+|[a-z])$", "", label)  # 1.1.1 → 1.1, 702.11b → 702.11
    heading = (row["section"] or "").rsplit(" > ", 1)[-1]
    return row["id"].rsplit("/", 1)[0] if re.match(rf"{re.escape(number)}\.? ", heading) else None


def _heading(section: str) -> dict:
    """A heading-only parent rule as a family's heading: `{"id": None, "label", "title"}` from the last
    step of a member's section ("1.1 General")."""
    label, _, title = section.rsplit(" > ", 1)[-1].partition(" ")
    return {"id": None, "label": label.rstrip("."), "title": title}


def group_by_family(found: list[dict]) -> list[dict]:
    """Search results (best first) gathered by rule family, so that a near miss shows beside the right rule.

    Results that share a parent rule (their `family`), with that parent rule when it is itself a result,
    form one group `{"family": parent id, "best": id of the best member, "results": [the members, best first]}`,
    in the place of its best member: the member marked closest is the first shown, the parent rule among the
    others in its own place. Any other result stands alone as `{"family": None, "best": its id, "results": [it]}`.
    """
    heads = {result["family"] for result in found if result["family"]}
    groups: dict[str, dict] = {}
    for result in found:
        # A result that is another result's parent rule keys its own family's group.
        key = result["id"] if result["id"] in heads else result["family"] or result["id"]
        groups.setdefault(key, {"family": key, "best": result["id"], "results": []})["results"].append(result)
    for group in groups.values():
        if len(group["results"]) == 1:
            group["family"] = None
    return list(groups.values())


def family_groups(conn: sqlite3.Connection, found: list[dict]) -> list[dict]:
    """`group_by_family(found)`, each group of a family headed by its parent rule's `{"id", "label", "title"}`
    (`"heading"`, None for a result alone), the parent rules read in one query; a parent rule that is only a
    heading has the id None."""
    groups = group_by_family(found)
    families = [group["family"] for group in groups if group["family"]]
    # A glossary entry heading its parts and steps is named by its term (its title), not by its label's slug.
    headings = {row["id"]: {**row, "label": row["label"] if _NUMBERS.search(row["label"] or "") else ""}
                for row in dicts(conn, f"select id, label, title from rulings where id in "
                                       f"({','.join('?' * len(families))})", families)}
    return [{**group, "heading": headings.get(group["family"]) or _heading(group["results"][0]["citation"]["section"])
             if group["family"] else None} for group in groups]


def as_shown(conn: sqlite3.Connection, found: list[dict]) -> dict:
    """Search results (best first) as every reader shows them: `{"results", "groups"}`, the results in the order
    shown (`family_groups`: a family's members together in the place of its best, best first, so the first
    ruling stays the first found) and the groups as plain data, `{"family", "heading", "best", "ids"}`."""
    groups = family_groups(conn, found)
    return {"results": [result for group in groups for result in group["results"]],
            "groups": [{"family": group["family"], "heading": group["heading"], "best": group["best"],
                        "ids": [result["id"] for result in group["results"]]} for group in groups]}


def grouped(answer: dict) -> list[dict]:
    """An answer's groups (`as_shown`) with their rulings in place of their ids, `"results"`, for a page or a
    command's text to lay out."""
    by_id = {result["id"]: result for result in answer["results"]}
    return [{**group, "results": [by_id[ruling_id] for ruling_id in group["ids"]]} for group in answer["groups"]]


def game_rulings(conn: sqlite3.Connection, slug: str) -> list[dict]:
    """Every ruling of a game in document order (sources by title), shaped like a search result without
    the score."""
    return _summaries(conn, conn.execute(_WITH_SOURCE + "where r.game = ? order by s.title, r.position",
                                         [slug]).fetchall())


def game_contents(conn: sqlite3.Connection, slug: str) -> list[dict]:
    """A game's contents without its rulings' texts, for a game too big to show whole: per source (by title),
    `{"id", "title", "abbrev", "header", "sections": [{"title", "total", "first_id", "first_ref"}]}` in document
    order, a section the document returns to listed once with every part counted; `header` the source's title,
    credits and changes shaped like search results."""
    found: dict[str, dict] = {}
    for source in dicts(conn, "select id, title, abbrev from sources where game = ? order by title", [slug]):
        found[source["id"]] = {**source, "header": [], "sections": []}
    kinds = ", ".join("?" * len(HEADER_KINDS))
    seen: dict[tuple[str, str], dict] = {}
    for source, section, rid, ref in conn.execute(
            f"select source, section, id, ref from rulings where game = ? and kind not in ({kinds}) "
            "order by source, position", [slug, *sorted(HEADER_KINDS)]):
        key = (source, section or "")
        if key not in seen:
            seen[key] = {"title": section or "", "total": 0, "first_id": rid, "first_ref": ref}
            found[source]["sections"].append(seen[key])
        seen[key]["total"] += 1
    header = conn.execute(_WITH_SOURCE + f"where r.game = ? and r.kind in ({kinds}) order by s.title, r.position",
                          [slug, *sorted(HEADER_KINDS)]).fetchall()
    for ruling in _summaries(conn, header):
        found[ruling["citation"]["source"]]["header"].append(ruling)
    return list(found.values())


def _row(conn: sqlite3.Connection, sql: str, ruling_id: str) -> dict:
    found = one(conn, sql, [ruling_id])
    if found is None:
        raise UnknownRuling(ruling_id)
    return found


def ruling(conn: sqlite3.Connection, ruling_id: str) -> dict:
    """One ruling as stored (its parent rule's id named `family`, as in search results), with its citation
    as search results give it, its links, its examples' texts and its status; UnknownRuling if absent."""
    found = _row(conn, _WITH_SOURCE + "where r.id = ?", ruling_id)
    found["citation"] = citation(found)
    found["version"], found["effective"] = found["citation"]["version"], found["citation"]["effective"]
    for key in _SOURCE_COLUMNS:
        del found[key]
    found["family"] = family(found)
    del found["parent"]
    found["links"] = links_of(conn, [ruling_id])[ruling_id]
    found["examples"] = examples_of(conn, [ruling_id])[ruling_id]
    found["status"] = statuses(conn, [ruling_id])[ruling_id]
    return found


def details(conn: sqlite3.Connection, ruling_id: str) -> dict:
    """Everything known about one ruling: the ruling, its source, game, status and citation, its examples
    (each cited), tests, neighbours, section, cross-references, tables and its source's gaps.
    UnknownRuling if absent."""
    found = _row(conn, _WITH_SOURCE + "where r.id = ?", ruling_id)
    examples = dicts(conn, "select id, label, text, line_start, line_end, char_start, char_end, page, page_end, "
                           "pdf_page from examples where ruling_id = ? and kind = 'source' order by rowid", [ruling_id])
    for example in examples:  # cited in its ruling's source and section, at its own page or lines
        place = citations.place(example["line_start"], example["line_end"], example["page"], example["page_end"],
                                example["pdf_page"], Locator.of(found, "format_"))
        example["citation"] = citation({**found, **example}, place)
    neighbour = ("select id, title, section from rulings where source = ? and position {} ? "
                 "order by position {} limit 1")
    return {
        "ruling": found,
        "source": one(conn, "select id, title, game from sources where id = ?", [found["source"]]),
        "game": game(conn, found["game"]),
        "status": statuses(conn, [ruling_id])[ruling_id],
        "previous": one(conn, neighbour.format("<", "desc"), [found["source"], found["position"]]),
        "next": one(conn, neighbour.format(">", "asc"), [found["source"], found["position"]]),
        "section_rulings": dicts(conn, "select id, label, title from rulings where source = ? and section = ? "
                                       "order by position", [found["source"], found["section"]]),
        "cite": citation(found),
        "links": links_of(conn, [ruling_id])[ruling_id],
        "source_examples": examples,
        "tests": dicts(conn, "select e.id, e.label, e.text, e.call, e.inputs, e.expected, v.status, v.actual, "
                             "v.detail, v.ran_at from examples e left join verifications v on v.test_id = e.id "
                             "where e.ruling_id = ? and e.kind = 'scenario' order by e.rowid", [ruling_id]),
        "refers_to": dicts(conn, "select x.text, x.target, x.to_id, r.title as to_title, r.ref as to_ref "
                                 "from xrefs x left join rulings r on r.id = x.to_id where x.from_id = ? "
                                 "order by x.id",
                           [ruling_id]),
        "referred_by": dicts(conn, "select x.text, x.from_id, r.title as from_title, r.ref as from_ref "
                                   "from xrefs x join rulings r on r.id = x.from_id where x.to_id = ? "
                                   "order by x.id",
                             [ruling_id]),
        "tables": _tables(conn, ruling_id),
        "gaps": gaps(conn, found["source"]),
    }


def _tables(conn: sqlite3.Connection, ruling_id: str) -> list[dict]:
    """The rule tables a ruling contains, each with its column names and rows of cells (JSON decoded)."""
    tables = dicts(conn, "select id, name, columns from rule_tables where ruling_id = ? order by rowid", [ruling_id])
    for table in tables:
        table["columns"] = json.loads(table["columns"])
        table["rows"] = [json.loads(r["cells"]) for r in conn.execute(
            "select cells from rule_table_rows where table_id = ? order by row", [table["id"]])]
    return tables
