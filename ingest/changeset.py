"""Documents into changesets: parse → refs → name links → rows, without touching a database (kb.writer applies
what this returns). A whole manifest makes a build; one document makes an addition to a database whose
relevant contents (model.changeset.Stored) the caller read."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from ingest import formats, scenarios
from ingest.errors import IngestError, InvalidEntry
from ingest.manifest import SourceEntry, load_manifest, source_entry
from ingest.pipeline import assign_refs, link_names, parse_manifest, parse_source
from ingest.report import ingest_report
from ingest.segment import slugify
from ingest.shapes import AUTO
from model import citation
from model.changeset import Changeset, Stored
from model.records import ParsedSource, as_row


def source_rows(entry: SourceEntry, parsed: ParsedSource, abbrev: str) -> dict[str, list[dict]]:
    """The rows of one parsed source (its rulings' refs starting with `abbrev`) and everything it yielded."""
    rows: dict[str, list[dict]] = {"sources": [{
        "id": entry.id, "game": entry.game, "title": entry.title, "author": entry.author, "version":
        entry.version or parsed.found.get("version", ""), "date": entry.date or parsed.found.get("date", ""),
        "kind": entry.kind, "abbrev": abbrev, "scope": entry.scope, "language": entry.language,
        "file": entry.file, "format": parsed.found.get("format", "text"), "shape": parsed.shape,
        "lines": f"{entry.lines[0]}-{entry.lines[1] or ''}" if entry.lines else "",
        "sha256": parsed.sha256, "rulings": len(parsed.rulings),
        "original_text": parsed.selected_text, "cleaned_text": parsed.cleaned_text,
        "first_line": parsed.first_line, "line_numbers": json.dumps(parsed.line_numbers),
    }], "rulings": [], "examples": [], "rule_tables": [], "rule_table_rows": []}
    for ruling in parsed.rulings:
        row = as_row(ruling)
        row["citation"] = citation.short(entry.title, row["page"], row["line_start"], row["line_end"])
        # Searched with the ruling: examples name the cards, units and situations questions are asked about.
        row["examples_text"] = " ".join(example.text for example in ruling.examples)
        rows["rulings"].append(row)
        rows["examples"] += [dict(as_row(example), kind="source") for example in ruling.examples]
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
    return rows


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
                   + [source_rows(entry, source, abbrevs[entry.id]) for entry, source in parsed]
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
    named = title or document.metadata.get("title") or file.stem.replace("_", " ").replace("-", " ")
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


def for_document(entry: SourceEntry, parsed: ParsedSource, stored: Stored, where: str,
                 database: str = "the database") -> Changeset:
    """The changeset that adds one parsed document to `database`, which holds `stored`; IngestError, naming
    `where`, if its source or ruling ids are taken there."""
    if entry.id in stored.source_ids:
        raise IngestError(where, f"a source with id {entry.id!r} is already in {database}")
    clash = [r.id for r in parsed.rulings if r.id in stored.ruling_ids]
    if clash:
        raise IngestError(where, f"ruling ids already in the database: {', '.join(clash[:5])}")
    game_name = stored.game_name or entry.game.replace("-", " ").title()
    abbrevs = assign_refs([(entry, parsed)], {entry.game: game_name}, where, stored.abbrevs, stored.refs)
    rows = source_rows(entry, parsed, abbrevs[entry.id])
    rows["xrefs"] += [as_row(x) for x in link_names([(entry, parsed)], stored.rulings, stored.spans)]
    if stored.game_name is None:
        rows["games"] = [{"slug": entry.game, "name": game_name, "publisher": ""}]
    return Changeset("add", rows, report=ingest_report(entry, parsed))
