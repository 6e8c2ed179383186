"""Building rulings.db: one write path, atomic (a temp file next to the target, then os.replace)."""
from __future__ import annotations

import fcntl
import re
import json
import os
import stat
import tempfile
from collections import Counter
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import sqlite_utils

from ingest.errors import IngestError, InvalidEntry
from ingest.manifest import Manifest, SourceEntry, load_manifest, source_entry
from ingest.pipeline import assign_refs, link_names, parse_manifest
from ingest.records import ParsedSource, as_row
from ingest.refs import HEADER_KINDS, TERM_KINDS
from ingest.shapes import AUTO
from kb.paths import DEFAULT_DB, DEFAULT_MANIFEST
from kb.rulings import line_range
from kb.verify import record_statuses

SCHEMA_VERSION = 1


@contextmanager
def write_lock(target: Path):
    """Hold an exclusive lock on `target`'s lock file; a second writer fails at once with a clear message.

    The lock dies with its process (even on SIGKILL), so temp files left by a killed writer are stale
    and are removed once the lock is held, and a lock file it left is taken over. The holder removes the
    lock file before it lets go of it, so a finished writer leaves nothing behind.
    """
    lock_path = target.with_name(target.name + ".lock")
    with _locked_file(lock_path, target) as lock:
        lock.seek(0)
        lock.truncate()
        lock.write(str(os.getpid()))
        lock.flush()
        for stale in target.parent.glob(f".{target.name}.*.tmp"):
            stale.unlink(missing_ok=True)
        try:
            yield
        finally:
            lock_path.unlink(missing_ok=True)  # still held, so no other writer can have locked this path


def _locked_file(lock_path: Path, target: Path):
    """`lock_path` opened and exclusively locked, or IngestError naming the writer that holds it."""
    while True:
        lock = open(lock_path, "a+")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            holder = lock.read().strip() or "?"
            lock.close()
            raise IngestError(str(target), f"another ingest (pid {holder}) is writing this database; "
                              "try again when it has finished") from None
        try:
            if os.path.samestat(os.fstat(lock.fileno()), os.stat(lock_path)):
                return lock
        except FileNotFoundError:
            pass
        # A writer removed this file as it finished, after we opened it: locking it excludes no one.
        lock.close()


@contextmanager
def atomic_database(target: Path, start_from: Path | None = None):
    """Yield a sqlite_utils.Database on a temp file beside `target`; replace `target` only on success.

    Holds the write lock throughout. With `start_from`, the temp file starts as a copy of that database.
    On any exception the temp file is removed and `target` is left exactly as it was.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    with write_lock(target), _temp_database(target, start_from) as db:
        yield db


@contextmanager
def _temp_database(target: Path, start_from: Path | None):
    handle, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    # mkstemp makes the file private; once it replaces the database it must have the database's mode.
    os.fchmod(handle, _database_mode(target))
    os.close(handle)
    temp = Path(temp_name)
    try:
        if start_from is not None:
            temp.write_bytes(Path(start_from).read_bytes())
        db = sqlite_utils.Database(temp)
        yield db
        db.conn.commit()
        db.conn.execute("VACUUM")
        db.conn.close()
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def _database_mode(target: Path) -> int:
    """The permissions `target` has, or for a new database those any new file gets (0666 less the umask)."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)  # the umask can only be read by setting it: put it straight back
        os.umask(umask)
        return 0o666 & ~umask


def create_schema(db: sqlite_utils.Database) -> None:
    """Create every table with its keys and foreign keys (empty)."""
    db["meta"].create({"key": str, "value": str}, pk="key")
    db["games"].create({"slug": str, "name": str, "publisher": str}, pk="slug")
    db["sources"].create({
        "id": str, "game": str, "title": str, "author": str, "version": str, "date": str, "kind": str,
        # abbrev starts its rulings' refs; scope is what the document covers, where its manifest entry says.
        "abbrev": str, "scope": str, "language": str, "file": str, "format": str, "shape": str, "lines": str, "sha256": str, "rulings": int,
        "original_text": str, "cleaned_text": str, "first_line": int,
        # JSON, one entry per line of original_text: the number citations give it (null: none shown).
        "line_numbers": str,
    }, pk="id", foreign_keys=[("game", "games", "slug")])
    db["rulings"].create({
        "id": str, "game": str, "source": str, "section": str, "label": str, "title": str, "text": str,
        "kind": str, "position": int, "line_start": int, "line_end": int, "char_start": int, "char_end": int,
        "file_line_start": int, "file_line_end": int, "page": int, "parent": str, "citation": str,
        "examples_text": str, "ref": str,
        "status": str,  # a copy of ruling_status.status (kb.verify.record_statuses), for Datasette's facets
    }, pk="id", foreign_keys=[("game", "games", "slug"), ("source", "sources", "id"),
                              ("parent", "rulings", "id")])
    # kind "source": an example printed in the source; kind "scenario": an executable example
    # (sources/examples/<game>.toml) with the engine call, its inputs and the expected result as JSON.
    db["examples"].create({
        "id": str, "ruling_id": str, "label": str, "kind": str, "text": str, "line_start": int, "line_end": int,
        "char_start": int, "char_end": int, "file_line_start": int, "file_line_end": int, "page": int,
        "call": str, "inputs": str, "expected": str, "encodes": str,
    }, pk="id", foreign_keys=[("ruling_id", "rulings", "id")])
    # Rulings that state nothing an engine can check, and why (history, credits, deck-building policy...).
    db["unexecutable"].create({"ruling_id": str, "reason": str}, pk="ruling_id",
                              foreign_keys=[("ruling_id", "rulings", "id")])
    # Written by `rulings verify`, not by ingest: the last result of each scenario's test.
    db["verifications"].create({"test_id": str, "ruling_id": str, "status": str, "actual": str, "detail": str,
                                "ran_at": str}, pk="test_id",
                               foreign_keys=[("test_id", "examples", "id"), ("ruling_id", "rulings", "id")])
    db.create_view("ruling_status", """
        select r.id as ruling_id, r.game,
          case when exists (select 1 from verifications v where v.ruling_id = r.id and v.status != 'passed')
                 then 'failed'
               when exists (select 1 from verifications v where v.ruling_id = r.id) then 'passed'
               when exists (select 1 from examples e where e.ruling_id = r.id and e.kind = 'scenario')
                 then 'not-run'
               when u.ruling_id is not null then 'not-executable'
               else 'unlinked' end as status,
          u.reason as reason,
          (select count(*) from examples e where e.ruling_id = r.id and e.kind = 'scenario') as tests
        from rulings r left join unexecutable u on u.ruling_id = r.id""")
    # kind: see, number or name; start and end: where the target stands in the referring ruling's text.
    db["xrefs"].create({"id": int, "from_id": str, "text": str, "target": str, "to_id": str, "kind": str,
                        "start": int, "end": int},
                       pk="id", foreign_keys=[("from_id", "rulings", "id"), ("to_id", "rulings", "id")])
    db["gaps"].create({"id": int, "source": str, "kind": str, "description": str, "line": int},
                      pk="id", foreign_keys=[("source", "sources", "id")])
    db["rule_tables"].create({
        "id": str, "source": str, "ruling_id": str, "name": str, "columns": str, "line_start": int,
        "line_end": int, "char_start": int, "char_end": int, "file_line_start": int, "file_line_end": int,
        "page": int,
    }, pk="id", foreign_keys=[("source", "sources", "id"), ("ruling_id", "rulings", "id")])
    db["rule_table_rows"].create({"table_id": str, "row": int, "cells": str}, pk=("table_id", "row"),
                                 foreign_keys=[("table_id", "rule_tables", "id")])
    db["spells"].create({"id": str, "ruling_id": str, "game": str, "name": str, "type": str, "pattern": str,
                         "effect": str}, pk="id", foreign_keys=[("ruling_id", "rulings", "id")])
    for table, column in (("rulings", "game"), ("rulings", "source"), ("examples", "ruling_id"),
                          ("verifications", "ruling_id"),
                          ("xrefs", "from_id"), ("xrefs", "to_id"), ("gaps", "source")):
        db[table].create_index([column])
    db["rulings"].create_index(["ref"], unique=True)


def citation_text(entry: SourceEntry, row: dict) -> str:
    """"Official Dragon Dice FAQ ..., lines 26–31" (", page 4, lines 26–31" where the document has pages) —
    what a judge reads out."""
    page = f"page {row['page']}, " if row.get("page") is not None else ""
    return f"{entry.title}, {page}{line_range(row['line_start'], row['line_end'])}"


def write_source(db: sqlite_utils.Database, entry: SourceEntry, parsed: ParsedSource, abbrev: str) -> None:
    """Insert one parsed source (its rulings' refs starting with `abbrev`) and everything it yielded."""
    db["sources"].insert({
        "id": entry.id, "game": entry.game, "title": entry.title, "author": entry.author, "abbrev": abbrev,
        "scope": entry.scope,
        "version": entry.version or parsed.found.get("version", ""),
        "date": entry.date or parsed.found.get("date", ""), "kind": entry.kind, "language": entry.language,
        "file": entry.file, "format": parsed.found.get("format", "text"), "shape": parsed.shape,
        "lines": f"{entry.lines[0]}-{entry.lines[1] or ''}" if entry.lines else "",
        "sha256": parsed.sha256, "rulings": len(parsed.rulings),
        "original_text": parsed.selected_text, "cleaned_text": parsed.cleaned_text,
        "first_line": parsed.first_line, "line_numbers": json.dumps(parsed.line_numbers),
    }, alter=True)  # alter: a database built before a column was added takes new documents too
    rows, examples = [], []
    for ruling in parsed.rulings:
        row = as_row(ruling)
        row["citation"] = citation_text(entry, row)
        # Searched with the ruling: examples name the cards, units and situations questions are asked about.
        row["examples_text"] = " ".join(example.text for example in ruling.examples)
        rows.append(row)
        for example in ruling.examples:
            examples.append(dict(as_row(example), kind="source"))
    db["rulings"].insert_all(rows, alter=True)
    db["examples"].insert_all(examples, alter=True)
    db["xrefs"].insert_all([as_row(x) for x in parsed.xrefs], alter=True)
    db["gaps"].insert_all([as_row(g) for g in parsed.gaps])
    for table in parsed.tables:
        row = as_row(table)
        row["columns"] = json.dumps(row["columns"])
        cells = row.pop("rows")
        db["rule_tables"].insert(row)
        db["rule_table_rows"].insert_all(
            {"table_id": table.id, "row": n, "cells": json.dumps(c, ensure_ascii=False)}
            for n, c in enumerate(cells, start=1))
    db["spells"].insert_all([as_row(s) for s in parsed.spells])


def write_scenarios(db: sqlite_utils.Database, folder: Path) -> None:
    """Load the executable examples and unexecutable reasons; fail on any that names an unknown ruling."""
    from ingest import scenarios
    found, reasons = scenarios.load_folder(folder)
    ruling_ids = {r["id"] for r in db.query("select id from rulings")}
    example_ids = {r["id"] for r in db.query("select id from examples")}
    scenarios.check_links(found, reasons, ruling_ids, example_ids, folder)
    db["examples"].insert_all(scenarios.example_row(s) for s in found)
    db["unexecutable"].insert_all({"ruling_id": rid, "reason": why} for rid, why in sorted(reasons.items()))


def enable_search(db: sqlite_utils.Database, previous: Path | None = None) -> None:
    """Both indexes: full text over rulings' title, section path and text (porter stemming) — the path
    carries the name of the spell or topic a lettered clarification sits under — and a vector per passage
    (reusing those of `previous`, the database being replaced, where the text is unchanged)."""
    from kb.embeddings import write_embeddings
    from kb.lexicon import write_lexicon
    db["rulings"].enable_fts(["title", "section", "text", "examples_text"], tokenize="porter", replace=True)
    # enable_fts leaves an index it finds already configured as it was: rebuild it from the table.
    db["rulings"].rebuild_fts()
    write_lexicon(db)
    write_embeddings(db, previous)


def build(db_path: Path = DEFAULT_DB, manifest_path: Path = DEFAULT_MANIFEST) -> dict:
    """Rebuild the database from the manifest, atomically. Returns counts of what was written."""
    manifest: Manifest = load_manifest(Path(manifest_path))
    parsed = parse_manifest(manifest)
    abbrevs = assign_refs(parsed, {slug: g["name"] for slug, g in manifest.games.items()}, str(manifest_path))
    names = link_names(parsed)
    with atomic_database(Path(db_path)) as db:
        create_schema(db)
        db["meta"].insert_all([{"key": "schema_version", "value": str(SCHEMA_VERSION)}])
        db["games"].insert_all({"slug": slug, "name": g["name"], "publisher": g.get("publisher", "")}
                               for slug, g in manifest.games.items())
        for entry, source in parsed:
            write_source(db, entry, source, abbrevs[entry.id])
        db["xrefs"].insert_all([as_row(x) for x in names])
        write_scenarios(db, manifest.folder / "examples")
        record_statuses(db.conn)
        enable_search(db, Path(db_path))
        counts = {table: db[table].count for table in ("sources", "rulings", "examples", "gaps", "xrefs")}
    return counts


def add_document(db_path: Path, file: Path, game: str, title: str | None = None, *, shape: str = AUTO,
                 kind: str = "rulebook", language: str = "en", author: str = "", abbrev: str = "",
                 scope: str = "") -> dict:
    """Ingest one more document into an existing database, atomically; returns the ingest report.

    The document may be text, markdown, HTML, PDF or Q/A data; without `title` its front matter names it
    (else its file name does); without `shape` the segmenter that explains it best is chosen. The
    document's rulings get ids under `game`; the game is created if the database lacks it. Their refs start
    with `abbrev` (else one derived from the game's name, unlike any other source's); `scope` says what the
    document covers. Names its rulings use that the game's rulings define link both ways.
    """
    from ingest import formats
    from ingest.pipeline import parse_source
    from ingest.segment import slugify

    file, db_path = Path(file), Path(db_path)
    if not db_path.exists():
        raise IngestError(str(db_path), "database not found; run `rulings ingest` first")
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
    with atomic_database(db_path, start_from=db_path) as db:
        if db["sources"].count_where("id = ?", [entry.id]):
            raise IngestError(str(file), f"a source with id {entry.id!r} is already in {db_path}")
        clash = [r.id for r in parsed.rulings if db["rulings"].count_where("id = ?", [r.id])]
        if clash:
            raise IngestError(str(file), f"ruling ids already in the database: {', '.join(clash[:5])}")
        if not db["games"].count_where("slug = ?", [game]):
            db["games"].insert({"slug": game, "name": game.replace("-", " ").title(), "publisher": ""})
        game_name = db["games"].get(game)["name"]
        abbrevs = assign_refs([(entry, parsed)], {game: game_name}, str(file), _stored(db, "sources", "abbrev"),
                              _stored(db, "rulings", "ref"))
        write_source(db, entry, parsed, abbrevs[entry.id])
        db["xrefs"].insert_all([as_row(x) for x in link_names([(entry, parsed)], *_known_rulings(db, game, entry.id))],
                               alter=True)
        if "status" not in db["rulings"].columns_dict:  # a database built before rulings had a status
            db["rulings"].add_column("status", str)
        record_statuses(db.conn)
        enable_search(db, db_path)
    return ingest_report(entry, parsed)


def _stored(db: sqlite_utils.Database, table: str, column: str) -> list[str]:
    """The values of a column (none if a database built before it lacks it)."""
    if column not in db[table].columns_dict:
        return []
    return [value for (value,) in db.execute(f"select {column} from {table} where {column} is not null")]


def _known_rulings(db: sqlite_utils.Database, game: str, new_source: str) -> tuple[list[SimpleNamespace], dict]:
    """A game's rulings stored before `new_source` (id, game, title, text, kind) and the spans of their texts
    that already link."""
    known = [SimpleNamespace(**row) for row in db.query(
        "select id, game, title, text, kind from rulings where game = ? and source != ?", [game, new_source])]
    spans: dict[str, list[tuple[int, int]]] = {}
    if "start" in db["xrefs"].columns_dict:
        for row in db.query("select x.from_id, x.start, x.end from xrefs x join rulings r on r.id = x.from_id "
                            "where r.game = ? and x.start is not null", [game]):
            spans.setdefault(row["from_id"], []).append((row["start"], row["end"]))
    return known, spans


# Signs that a ruling was cut wrong: another unit's number inside it ("... 1.2.3. If ..." mid-text).
_INNER_NUMBER = re.compile(r"(?<=[a-z,;.] )(\d+\.\d+(?:\.\d+)*\.?) +[A-Z]")
_SHORT, _LONG = 40, 4000


def ingest_report(entry: SourceEntry, parsed: ParsedSource) -> dict:
    """What one document yielded, for a user to see at a glance whether it came through: units by kind,
    the headings found, tables, numbering coverage (the share of units the document numbers or names itself,
    rather than ordinals), examples, pages, furniture removed, front matter read, and the suspicious rulings,
    the likeliest wrong cuts first (holding another unit's number, mostly numbers, only a cross-reference,
    very long, very short)."""
    kinds = Counter(r.kind for r in parsed.rulings)
    suspicious = sorted((item for item in map(_suspicion, parsed.rulings) if item),
                        key=lambda item: _SUSPICIONS.index(item["why"].split(" (")[0]))
    units = [r for r in parsed.rulings if r.kind not in HEADER_KINDS]
    own = sum(r.kind in TERM_KINDS or r.kind not in ("paragraph", "question") and bool(_OWN_NUMBER.fullmatch(r.label))
              for r in units)
    skip = 1 if entry.section else 0  # the root every section starts with
    # A subrule's section ends with its rule ("… > 053 Cards refer to themselves…"): a rule, not a heading.
    paths = (r.section.split(" > ")[skip:len(r.section.split(" > ")) - bool(r.parent)] for r in parsed.rulings)
    headings = [part for part in dict.fromkeys(part for path in paths for part in path) if part != "Front Matter"]
    found = parsed.found
    return {
        "source": entry.id, "title": entry.title, "format": found.get("format"), "shape": parsed.shape,
        "rulings": len(parsed.rulings), "kinds": dict(kinds.most_common()),
        "sections": len({r.section for r in parsed.rulings}),
        "headings": len(headings), "heading_titles": headings[:12],
        "tables": len(parsed.tables),
        "numbered": {"units": len(units), "own": own, "share": round(own / len(units), 3) if units else 0.0},
        "examples": sum(len(r.examples) for r in parsed.rulings), "gaps": len(parsed.gaps),
        "pages": found.get("pages", 0),
        "furniture_removed": sum(found.get("furniture", {}).values()),
        "furniture": dict(sorted(found.get("furniture", {}).items(), key=lambda item: -item[1])[:8]),
        "contents_entries": found.get("contents", 0),
        "front_matter": {key: found[key] for key in ("title", "version", "date") if found.get(key)},
        "doubt": found.get("doubt"),
        "suspicious": suspicious,
    }


# What makes a ruling suspicious, the likeliest wrong cut first.
_SUSPICIONS = ("holds another number", "mostly numbers", "only a cross-reference", "very long", "very short")
_OWN_NUMBER = re.compile(r"[\w.]*\d[\w.]*|[A-Za-z]")  # "1.9.4.2", "702.11b", "36a", "B": the document's numbering
_CROSS_REFERENCE = re.compile(r"^(?:related topics|see also|see)\b", re.IGNORECASE)


def _suspicion(ruling) -> dict | None:
    """Why `ruling` looks wrongly cut, or None (never for a glossary entry read as sending the reader on,
    which is what it is meant to do)."""
    if ruling.kind == "redirect":
        return None
    text = ruling.text
    words = text.split()
    inner = _INNER_NUMBER.search(text)
    numeric = sum(bool(re.fullmatch(r"[\d.,/%-]+", word)) for word in words)
    why = (f"holds another number ({inner.group(1)})" if inner and ruling.kind == "rule"
           else "mostly numbers (a flattened table?)" if len(words) >= 6 and numeric >= 0.6 * len(words)
           else "only a cross-reference" if _CROSS_REFERENCE.match(text) and len(words) <= 30
           else "very long" if len(text) > _LONG else "very short" if len(text) < _SHORT else None)
    return {"id": ruling.id, "why": why, "chars": len(text)} if why else None