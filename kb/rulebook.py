"""A source read as a rulebook: its rules in document order under their headings, subrules nested under their
rule, each rule and heading with the anchor it is addressed by (`/rules/<source>#4.3.6`), and the
cross-references between them both ways. Built in one pass over a handful of queries, for the rulebook page."""
from __future__ import annotations

import re
import sqlite3

from kb.lookup import find, names, number_in
from kb.rulings import links_of
from kb.store import FILE_KEPT, FORMAT_COLUMNS, WITH_FORMAT, dicts, one
from model.citation import Locator
from model.editions import version_of
from model.kinds import HEADER_KINDS

# A heading that starts with its number ("4.3.6 Challenge", "1. Concepts", "702.11b Hexproof").
_NUMBERED = re.compile(r"(\d+(?:\.\d+)*[a-z]?)\.?\s")
_WORDS = re.compile(r"[^\W_]+")  # letters and digits, any script
# A rule number (with a digit: "4.3.6", "100.1a", "B.1") or a letter ("b"), not a word or a slug.
_NUMBER = re.compile(r"(?=[^\d]*\d)[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*|[A-Za-z0-9]")


def _is_number(text: str) -> bool:
    """A rule number or letter ("4.3.6", "100.1a", "B.1", "b"), not a word or a slug."""
    return bool(_NUMBER.fullmatch(text))


def rule_anchor(ruling_id: str, ref: str, abbrev: str) -> str:
    """The anchor a rule is addressed by on its source's rulebook page: its number, the ref without the source's
    abbreviation ("Lorcana 4.3.6" → "4.3.6", "PotL B.1" → "B.1"), where that is a number; else the tail of its
    id after the game ("optional-rules/b/1", "ability"). Refs are unique and so are ids: so are the anchors."""
    number = ref.removeprefix(f"{abbrev} ")
    return number if _is_number(number) else ruling_id.split("/", 1)[-1]


def _slug(steps: list[str]) -> str:
    """A heading's anchor where it has no number: its section path as words ("new-rules", "rules/setup")."""
    return "/".join("-".join(_WORDS.findall(step.lower().replace("’", "").replace("'", ""))) or "s"
                    for step in steps)


def _names(rule: dict) -> set[str]:
    """What a section step that is this rule itself may say: its label, title, or both ("1.6.1 There are…")."""
    label, title = rule["label"] or "", rule["title"] or ""
    return {label, title, f"{label} {title}", f"{label}. {title}"} - {""}


def _is_rule_step(step: str, rule: dict) -> bool:
    number = _NUMBERED.match(step)
    return step in _names(rule) or bool(number and rule["label"] and number[1] == rule["label"].rstrip("."))


def _number(row: dict, abbrev: str) -> str:
    """The number a rule is shown with: its ref's number, else its label where that is a number or letter ("1",
    "b" of "PotL Optional B.1"), else none (a glossary entry, a passage: its title names it)."""
    return next((n for n in (row["ref"].removeprefix(f"{abbrev} "), row["label"] or "") if _is_number(n)), "")


def rulebook(conn: sqlite3.Connection, source_id: str) -> dict | None:
    """The source as a rulebook, or None if there is no such source: `{"source": {id, title, kind, game,
    game_name, version, effective, editions, original}, "front": [header units], "tree": [nodes], "count",
    "anchors": {ruling id: its anchor}, "example": a rule's number, to show what the "go to rule" box takes}`
    (`original`: whether the database keeps the source's file, to open a page of it), with what its format
    declares (kb.store.FORMAT_COLUMNS).

    A node is a heading `{"heading": True, "anchor", "number", "title", "children"}` (a step of the rulings'
    section paths, "A > B > C") or a rule `{"heading": False, "id", "anchor", "number", "label", "title", "ref", "text",
    "page", "new_page", "pdf_page", "page_link", "links", "cited_by", "children"}` (`page_link`: the fragment
    opening the file at its page `pdf_page`, "" where it opens at none; `new_page`: the rule is the first on its
    printed page, in document order): `links` are where its text refers to other rulings (kb.rulings
    .links_of), `cited_by` the rulings that refer to it `{"id", "ref", "label", "anchor"}` (anchor None: another
    source's). A section step that names a rule (its number, or its number and title) is that rule, not a
    heading; a rule with a parent rule sits under it.
    """
    source = one(conn, "select s.id, s.title, s.kind, s.game, s.abbrev, s.version, s.date, g.name as game_name, "
                       "(select count(*) from source_versions v where v.source = s.id) as editions, "
                       f"{FILE_KEPT} as original, {FORMAT_COLUMNS} "
                       f"from sources s join games g on g.slug = s.game {WITH_FORMAT} where s.id = ?", [source_id])
    if source is None:
        return None
    locator = Locator.of(source, "format_")
    source.update(version=version_of(source), effective=source.pop("date") or None)
    rows = dicts(conn, "select id, label, title, text, section, parent, kind, ref, page, pdf_page from rulings "
                       "where source = ? order by position", [source_id])
    anchors = {row["id"]: rule_anchor(row["id"], row["ref"], source["abbrev"]) for row in rows}
    links = links_of(conn, list(anchors))
    cited_by: dict[str, list[dict]] = {ruling_id: [] for ruling_id in anchors}
    for row in dicts(conn, "select distinct x.to_id, x.from_id, r.ref, r.label from xrefs x join rulings r on "
                           "r.id = x.from_id where x.to_id in (select id from rulings where source = ?) "
                           "and x.from_id != x.to_id order by r.source != ?, r.position", [source_id, source_id]):
        cited_by[row["to_id"]].append({"id": row["from_id"], "ref": row["ref"], "label": row["label"],
                                       "anchor": anchors.get(row["from_id"])})
    used = set(anchors.values())
    suffix: dict[str, int] = {}  # a heading's anchor base -> the last number tried after it (not tried again)
    front, tree, nodes = [], [], {}
    stack: list[tuple[str, dict]] = []  # the open section steps, each with the node its members go under

    def heading(steps: list[str]) -> dict:
        number = _NUMBERED.match(steps[-1])
        title = steps[-1][number.end():].strip() if number else steps[-1]
        base = number[1] if number and number[1] not in used else _slug(steps)
        name, n = base, suffix.get(base, 1)
        while name in used:  # a heading the document returns to, or a number a rule already has
            n += 1
            name = f"{base}-{n}"
        suffix[base] = n
        used.add(name)
        return {"heading": True, "anchor": name, "number": number[1] if number else "", "title": title,
                "children": []}

    page = None
    for row in rows:
        new_page, page = row["page"] is not None and row["page"] != page, row["page"]
        node = {"heading": False, "id": row["id"], "anchor": anchors[row["id"]],
                "number": _number(row, source["abbrev"]), "label": row["label"], "title": row["title"],
                "ref": row["ref"], "text": row["text"],
                "page": row["page"], "new_page": new_page, "pdf_page": row["pdf_page"],
                "page_link": locator.link(row["pdf_page"]),
                "links": links[row["id"]], "cited_by": cited_by[row["id"]], "children": []}
        nodes[row["id"]] = node
        if row["kind"] in HEADER_KINDS:
            front.append(node)
            continue
        steps = [step.strip() for step in (row["section"] or "").split(" > ") if step.strip()]
        keep = 0
        while keep < min(len(stack), len(steps)) and stack[keep][0] == steps[keep]:
            keep += 1
        del stack[keep:]
        for depth in range(keep, len(steps)):
            siblings = stack[-1][1]["children"] if stack else tree
            last = siblings[-1] if siblings else None
            if last and not last["heading"] and _is_rule_step(steps[depth], last):
                stack.append((steps[depth], last))
            else:
                found = heading(steps[:depth + 1])
                siblings.append(found)
                stack.append((steps[depth], found))
        parent = nodes.get(row["parent"]) if row["parent"] else None
        (parent["children"] if parent else stack[-1][1]["children"] if stack else tree).append(node)
    header = {node["id"] for node in front}
    numbers = [node["number"] for node in nodes.values() if node["number"] and node["id"] not in header]
    example = next((number for number in numbers if "." in number), numbers[0] if numbers else "1")
    return {"source": source, "front": front, "tree": tree, "count": len(rows), "anchors": anchors,
            "example": example}


def place_of(conn: sqlite3.Connection, source_id: str, asked: str) -> str | None:
    """The anchor on the source's rulebook page of the rule or heading a number names ("702.19b", "rule 702.19b",
    "CR 702.19b."; `kb.lookup`), else None: a rule's anchor, or a numbered heading's own number."""
    number, _, named = number_in(asked, names(conn))
    if not number or named not in (None, source_id):
        return None
    found = find(conn, number, source=source_id)
    if found is None:
        return None
    if found["kind"] == "heading" and _is_number(number):
        return number
    row = one(conn, "select r.id, r.ref, s.abbrev from rulings r join sources s on s.id = r.source where r.id = ?",
              [found["ids"][0]])
    return rule_anchor(row["id"], row["ref"], row["abbrev"])
