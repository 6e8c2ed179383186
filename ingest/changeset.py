"""Documents into changesets: parse → refs → name links → rows, without touching a database (kb.writer applies
what this returns). A whole manifest makes a build; one document makes an addition to a database whose
relevant contents (model.changeset.Stored) the caller read."""
from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from itertools import chain, count
from pathlib import Path

from ingest import editions, formats, scenarios, titles
from ingest.classify.references import FILE_EDITION
from ingest.errors import IngestError, InvalidEntry
from ingest.manifest import SourceEntry, load_manifest, source_entry
from ingest.pipeline import assign_refs, link_names, parse_manifest, parse_source
from ingest.report import ingest_report
from ingest.segment import slugify
from ingest.shapes import AUTO
from model import citation, values
from model.changeset import Changeset, Edition, Stored
from model.editions import compare, history_rows, version_of, version_row
from model.records import ParsedSource, as_row


def source_rows(entry: SourceEntry, parsed: ParsedSource, abbrev: str) -> dict[str, list[dict]]:
    """The rows of one parsed source (its rulings' refs starting with `abbrev`) and everything it yielded, with
    what its format's reader declares (the `formats` row its source's `format` names)."""
    read_as = formats.named(parsed.found["format"])
    rows: dict[str, list[dict]] = {"formats": [read_as.row()], "sources": [{
        "id": entry.id, "game": entry.game, "title": entry.title, "author": entry.author, "version":
        entry.version or parsed.found.get("version", ""), "date": entry.date or parsed.found.get("date", ""),
        "kind": entry.kind, "abbrev": abbrev, "scope": entry.scope, "language": entry.language,
        "file": entry.file, "format": read_as.stored, "shape": parsed.shape,
        "lines": f"{entry.lines[0]}-{entry.lines[1] or ''}" if entry.lines else "",
        "sha256": parsed.sha256, "rulings": len(parsed.rulings),
        "original_text": parsed.selected_text, "cleaned_text": parsed.cleaned_text,
        "first_line": parsed.first_line, "line_numbers": json.dumps(parsed.line_numbers),
    }], "rulings": [], "examples": [], "rule_tables": [], "rule_table_rows": []}
    for ruling in parsed.rulings:
        row = as_row(ruling)
        row["citation"] = citation.short(entry.title, row["line_start"], row["line_end"], row["page"],
                                         row["page_end"], row["pdf_page"], read_as.locator)
        # Searched with the ruling: examples name the cards, units and situations questions are asked about.
        row["examples_text"] = " ".join(example.text for example in ruling.examples)
        rows["rulings"].append(row)
        rows["examples"] += [dict(as_row(example), kind="source") for example in ruling.examples]
    _reprint_refs(rows["rulings"], abbrev, rows["sources"][0]["date"] or rows["sources"][0]["version"])
    rows["xrefs"] = [as_row(x) for x in parsed.xrefs]
    rows["gaps"] = [as_row(g) for g in parsed.gaps]
    for table in parsed.tables:
        row = as_row(table)
        row["columns"] = json.dumps(row["columns"])
        cells = row.pop("rows")
        rows["rule_tables"].append(row)
        rows["rule_table_rows"] += [{"table_id": table.id, "row": n, "cells": json.dumps(c, ensure_ascii=False)}
                                    for n, c in enumerate(cells, start=1)]
    rows["spells"] = [as_row(s) for s in parsed.spells]
    if parsed.original_file is not None:
        rows["originals"] = [{"source": entry.id, "version": version_of(rows["sources"][0]),
                              "file": values.file_name(entry.file),
                              "media_type": read_as.media_type,
                              "content": parsed.original_file}]
    return rows


def _reprint_refs(rulings: list[dict], abbrev: str, when: str) -> None:
    """A rule an update summary reprints is no rule: its ref says what it is, the rule's number and where it is
    reprinted ("Lorcana 5.1.11, update summary 2025-10-31"), where that names it alone."""
    taken = {row["ref"] for row in rulings}
    for row in rulings:
        if row["kind"] != "restated" or not row["ref"]:
            continue
        where = (row["section"] or "").split(" > ")[0].strip().lower()
        ref = f"{abbrev} {row['label']}, {where or 'reprinted'}{' ' + when if when else ''}"
        if ref not in taken:
            taken.add(ref)
            row["ref"] = ref


def _merged(parts: list[dict[str, list[dict]]]) -> dict[str, list[dict]]:
    """Rows of several parts, table by table, in the order of the parts."""
    merged: dict[str, list[dict]] = {}
    for part in parts:
        for table, rows in part.items():
            merged.setdefault(table, []).extend(rows)
    return merged


def from_manifest(manifest_path: Path) -> Changeset:
    """The changeset that builds a database from the manifest: its games, every source, the names linked
    across them, and the executable examples and unexecutable reasons of sources/examples/."""
    manifest = load_manifest(Path(manifest_path))
    parsed = parse_manifest(manifest)
    abbrevs = assign_refs(parsed, {slug: g["name"] for slug, g in manifest.games.items()}, str(manifest_path))
    rows = _merged([{"games": [{"slug": slug, "name": g["name"], "publisher": g.get("publisher", "")}
                               for slug, g in manifest.games.items()]}]
                   + [_first_edition(source_rows(entry, source, abbrevs[entry.id])) for entry, source in parsed]
                   + [{"xrefs": [as_row(x) for x in link_names(parsed)]}])
    folder = manifest.folder / "examples"
    found, reasons = scenarios.load_folder(folder)
    scenarios.check_links(found, reasons, {r["id"] for r in rows["rulings"]}, {e["id"] for e in rows["examples"]},
                          folder)
    rows["examples"] += [scenarios.example_row(s) for s in found]
    rows["unexecutable"] = [{"ruling_id": rid, "reason": why} for rid, why in sorted(reasons.items())]
    return Changeset("build", rows)


def read_document(file: Path, game: str, title: str | None = None, *, shape: str = AUTO, kind: str = "rulebook",
                  language: str = "en", author: str = "", abbrev: str = "",
                  scope: str = "") -> tuple[SourceEntry, ParsedSource]:
    """One document parsed as a source of `game` (see kb.build.add_document): its entry and what it yielded.
    Without `title` its front matter names it, else its file name does."""
    file = Path(file)
    document = formats.read(file)
    declared = document.metadata.get("title")
    named = title or (declared if declared and not titles.is_section_heading(declared) else "") or values.one_line(
        FILE_EDITION.sub("", file.stem).replace("_", " ").replace("-", " "))
    try:
        entry = source_entry({"id": slugify(named) or "document", "file": file.name, "game": game, "title": named,
                              "author": author, "kind": kind, "language": language, "shape": shape,
                              "section": title, "abbrev": abbrev, "scope": scope})
    except InvalidEntry as exc:
        raise IngestError(str(file), exc.message) from None
    parsed = parse_source(entry, file.parent, document=document)
    if not title and parsed.found.get("title"):  # the front matter names the document better than its file
        entry = replace(entry, title=parsed.found["title"])
    return entry, parsed


def _first_edition(rows: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """A new source's rows with the record of its one edition."""
    source = rows["sources"][0]
    return {**rows, "source_versions": [version_row(source, rows, _now(), current=True)],
            "ruling_history": history_rows(source, rows["rulings"])}


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def for_document(entry: SourceEntry, parsed: ParsedSource, stored: Stored, where: str,
                 replaces: str | None = None, as_new: bool = False, game_name: str | None = None) -> Changeset:
    """The changeset that adds one parsed document to a database holding `stored`: a new edition of the source
    `replaces` names, or else (unless `as_new`) of the game's source with the same title; otherwise a new
    source (its id, and its rulings' ids, numbered apart from any the database has). IngestError, naming
    `where`, if `replaces` names no source of the game.

    A new game is named `game_name`, else by the document ("Magic: The Gathering"), else by its slug. A game
    the database has keeps its name unless `game_name` renames it (its sources keep their refs)."""
    changeset = _for_document(entry, parsed, stored, where, replaces, as_new, game_name)
    if game_name and stored.game_name not in (None, game_name) and changeset.action != "unchanged":
        changeset.rows["games"] = [{"slug": entry.game, "name": game_name}]
    return changeset


def _for_document(entry: SourceEntry, parsed: ParsedSource, stored: Stored, where: str, replaces: str | None,
                  as_new: bool, game_name: str | None) -> Changeset:
    if replaces and not as_new:
        edition = next((e for e in stored.editions if e.source == replaces), None)
        if edition is None:
            known = ", ".join(e.source for e in stored.editions) or "none"
            raise IngestError(where, f"--replaces {replaces!r}: no such source of {entry.game} (its sources: {known})")
        return for_edition(entry, parsed, stored, edition, where)
    same = [e for e in stored.editions if e.title.casefold() == entry.title.casefold()]
    if same and not as_new:
        return for_edition(entry, parsed, stored, same[0], where)
    # Another document may have given its id, or ids to rulings of its sections: this one's take a number after.
    source = next(c for c in chain([entry.id], (f"{entry.id}-{n}" for n in count(2))) if c not in stored.source_ids)
    ids = editions.stable_ids(parsed.rulings, {}, set(stored.ruling_ids))
    game_name = (game_name or stored.game_name or parsed.found.get("game_name")
                 or titles.filed_name(entry.game))
    abbrevs = assign_refs([(entry, parsed)], {entry.game: game_name}, where, stored.abbrevs, stored.refs)
    rows = _first_edition(editions.remap(source_rows(entry, parsed, abbrevs[entry.id]), ids, source))
    rows["xrefs"] += [as_row(x) for x in link_names([(entry, _renamed(parsed, ids))], stored.rulings, stored.spans)]
    if stored.game_name is None:
        rows["games"] = [{"slug": entry.game, "name": game_name, "publisher": ""}]
    return Changeset("add", rows, report={**ingest_report(entry, parsed), "source": source})


def for_edition(entry: SourceEntry, parsed: ParsedSource, stored: Stored, edition: Edition, where: str) -> Changeset:
    """The changeset that records `parsed` as an edition of the stored source `edition`: its rulings keep the
    ids and refs of the rulings they are (ingest.editions), it becomes current when it is the newest (by the
    date it takes effect; a document without one counts as newest), and else it is filed among the editions.
    The report says what changed against the edition before it; re-adding an edition changes nothing."""
    report = ingest_report(entry, parsed)
    entry = replace(entry, id=edition.source, abbrev=edition.abbrev)
    stated = {"version": entry.version or parsed.found.get("version", ""),
              "date": entry.date or parsed.found.get("date", "")}
    version = version_of(stated)
    same = next((v for v in edition.versions if v["sha256"] == parsed.sha256), None)
    if same:
        report["edition"] = {"source": edition.source, "version": same["version"], "unchanged": True}
        return Changeset("unchanged", report=report)
    taken = {v["version"] for v in edition.versions}
    if not any(stated.values()):  # the document states neither version nor date: it is the next by number
        version = next(str(n) for n in count(1) if str(n) not in taken)
    if version in taken:
        raise IngestError(where, f"version {version} of {edition.source} is already in the database, from another "
                                 f"file: remove it first (rulings remove {edition.source} --version {version})")
    effective = entry.date or parsed.found.get("date", "")
    newest = not effective or all(v["effective"] and v["effective"] <= effective for v in edition.versions)
    others = [ref for ref in stored.refs if ref not in edition.refs]
    current = {row["ruling_id"] for v in edition.versions if v["current"] for row in edition.history[v["version"]]}
    before, follows = _neighbour(edition, effective)
    matched = editions.match(parsed.rulings, edition.history[before["version"]])
    ids = editions.stable_ids(parsed.rulings, matched, set(stored.ruling_ids) | set(edition.ids))
    # A ruling's ref is its number in this edition (its id stays for life): refs need be unique only beside
    # the other sources'.
    assign_refs([(entry, parsed)], {entry.game: stored.game_name or entry.game}, where,
                [a for a in stored.abbrevs if a != edition.abbrev], others)
    rows = editions.remap(source_rows(entry, parsed, edition.abbrev), ids, edition.source)
    source = rows["sources"][0]
    source["version"], source["date"] = version, effective
    for row in rows.get("originals", []):
        row["version"] = version
    rows["source_versions"] = [version_row(source, rows, _now(), current=newest)]
    rows["ruling_history"] = history_rows(source, rows["rulings"])
    changes = compare({r["ruling_id"]: r for r in edition.history[before["version"]]},
                      {r["ruling_id"]: r for r in rows["ruling_history"]}) if follows else None
    report["edition"] = {"source": edition.source, "version": version, "effective": effective, "current": newest,
                         "compared_with": before["version"] if changes else None,
                         **{key: len(found) for key, found in (changes or {}).items()}}
    if not newest:
        return Changeset("edition", {table: rows.get(table, []) for table in ("source_versions", "ruling_history",
                                                                               "originals")},
                         report=report)
    known = [r for r in stored.rulings if r.id not in current]
    spans = {rid: found for rid, found in stored.spans.items() if rid not in current}
    rows["xrefs"] += [as_row(x) for x in link_names([(entry, _renamed(parsed, ids))], known, spans)]
    return Changeset("edition", rows, replace=[edition.source], report=report)


def _neighbour(edition: Edition, effective: str) -> tuple[dict, bool]:
    """The edition a new one taking effect on `effective` follows, and True; else (it precedes them all) the
    first, and False. One without a date ("") is the newest: it follows the last (model.editions.EDITION_ORDER)."""
    if not effective:
        return edition.versions[-1], True
    before = [v for v in edition.versions if v["effective"] and v["effective"] <= effective]
    return (before[-1], True) if before else (edition.versions[0], False)


def _renamed(parsed: ParsedSource, ids: dict[str, str]) -> ParsedSource:
    """`parsed` with its rulings (and its links' referring rulings) under the ids they are stored with."""
    return replace(parsed, rulings=[replace(r, id=ids[r.id]) for r in parsed.rulings],
                   xrefs=[replace(x, from_id=ids.get(x.from_id, x.from_id)) for x in parsed.xrefs])
