"""The sources manifest (`sources/sources.toml`): which documents to ingest and what they are."""
from __future__ import annotations

import re
import tomllib
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

from ingest.classify.checks import ABBREV, SLUG
from ingest.classify.declared import declared
from ingest.errors import IngestError, InvalidEntry, invalid_toml
from ingest.shapes import AUTO, SHAPES
from model import values
from model.kinds import KINDS
from model.refs import MAX_ABBREV

_REQUIRED = ("id", "file", "game", "title", "kind", "language", "shape")
_OPTIONAL = ("author", "version", "date", "section", "lines", "strip", "tables", "gaps", "abbrev", "scope")


@dataclass(frozen=True)
class TableSpec:
    """A table flattened into running text: where it starts and ends, and how to read one row."""

    name: str
    start: str
    end: str
    columns: tuple[str, ...]
    row: str


@dataclass(frozen=True)
class SourceEntry:
    """One document to ingest, as the manifest describes it."""

    id: str
    file: str
    game: str
    title: str
    author: str
    kind: str
    language: str
    shape: str
    version: str = ""
    date: str = ""
    section: str = ""
    lines: tuple[int, int | None] | None = None
    strip: tuple[str, ...] = ()
    tables: tuple[TableSpec, ...] = field(default=())
    # Gaps a reader found that no parser can: (what is missing, a phrase of the document locating it).
    gaps: tuple[tuple[str, str], ...] = field(default=())
    abbrev: str = ""  # the start of its rulings' refs ("DD Magic"); "" derives one from the game's name
    scope: str = ""   # what the document covers, where it says so ("magic": Part Two of a FAQ)


@dataclass(frozen=True)
class Manifest:
    path: Path
    games: dict[str, dict]
    sources: tuple[SourceEntry, ...]

    @property
    def folder(self) -> Path:
        return self.path.parent


def _line_of(text: str, needle: str) -> int | None:
    index = text.find(needle)
    return text.count("\n", 0, index) + 1 if index >= 0 else None


def load_manifest(path: Path) -> Manifest:
    """Read and validate the manifest; an IngestError names the file, the line and the field at fault."""
    try:
        raw_text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise IngestError(str(path), "manifest not found") from None
    try:
        data = tomllib.loads(raw_text)
    except tomllib.TOMLDecodeError as exc:
        raise invalid_toml(path, exc) from None
    games = data.get("games", {})
    if not isinstance(games, dict) or not games:
        raise IngestError(str(path), "no [games.<slug>] tables")
    for slug, game in games.items():
        if not SLUG.match(slug) or not isinstance(game, dict) or not game.get("name"):
            raise IngestError(str(path), f"game {slug!r} needs a slug of a-z, 0-9, - and . and a name",
                              _line_of(raw_text, f"[games.{slug}]"))
    entries: list[SourceEntry] = []
    ids: set[str] = set()
    for number, raw in enumerate(data.get("source", []), start=1):
        line = _line_of(raw_text, f'id = "{raw.get("id")}"') if isinstance(raw, dict) else None
        entries.append(_manifest_entry(raw, number, games, ids, str(path), line, raw_text))
        ids.add(entries[-1].id)
    if not entries:
        raise IngestError(str(path), "no [[source]] entries")
    return Manifest(path, games, tuple(entries))


def _manifest_entry(raw: dict, number: int, games: dict, taken: set[str], path: str, line: int | None,
                    text: str) -> SourceEntry:
    """One [[source]] table as a SourceEntry; an error names the manifest and the line of the bad field."""
    def fail(message: str, key: str | None = None) -> IngestError:
        return IngestError(path, f"source #{number} ({raw.get('id', '?')}): {message}", _field_line(key))

    def _field_line(key: str | None) -> int | None:
        """The line of `key = ...` inside this entry, else the entry's own line."""
        if key is None or line is None:
            return line
        for offset, row in enumerate(text.split("\n")[line - 1:], start=line):
            if offset > line and row.startswith("[["):
                break
            name, equals, _ = row.partition("=")
            if equals and name.strip() == key:
                return offset
        return line

    try:
        entry = source_entry(raw, games)
    except InvalidEntry as exc:
        raise fail(exc.message, exc.field) from None
    # The manifest records who wrote every document; `rulings add` does not ask.
    if not isinstance(raw.get("author"), str) or not raw["author"].strip():
        raise fail("field 'author' is missing or empty", "author")
    if entry.id in taken:
        raise fail(f"field 'id': {entry.id!r} is already the id of another source", "id")
    return entry


def source_entry(fields: dict, games: Collection[str] | None = None) -> SourceEntry:
    """A validated SourceEntry from fields spelled as in the manifest (`lines` as "1-5" or "6-", `tables` and
    `gaps` as lists of tables): the one check of an entry, for the manifest and for `rulings add`.

    `games` holds the slugs the entry may name; None allows any slug (a game `rulings add` creates).
    Raises InvalidEntry naming the field at fault.
    """
    for key in _REQUIRED:
        if not isinstance(fields.get(key), str) or not fields[key].strip():
            raise InvalidEntry(f"field '{key}' is missing or empty", key)
    if not SLUG.match(fields["id"]):
        raise InvalidEntry(f"field 'id' must be a slug such as 'dragon-dice-faq' (not {fields['id']!r})", "id")
    if games is not None and fields["game"] not in games:
        raise InvalidEntry(f"field 'game': unknown game {fields['game']!r}; known: {', '.join(sorted(games))}",
                           "game")
    if not SLUG.match(fields["game"]):
        raise InvalidEntry(f"field 'game' must be a slug such as 'dragon-dice' (not {fields['game']!r})", "game")
    for key, allowed in (("kind", KINDS), ("shape", (AUTO, *SHAPES))):
        if fields[key] not in allowed:
            raise InvalidEntry(f"field '{key}' must be one of {', '.join(allowed)} (not {fields[key]!r})", key)
    lines = None
    if "lines" in fields:
        first, dash, last = str(fields["lines"]).partition("-")
        if not (dash and first.isdecimal() and (last.isdecimal() or not last)):
            raise InvalidEntry("field 'lines' must look like '1-5' or '6-'", "lines")
        lines = (int(first), int(last) if last else None)
    strip = tuple(fields.get("strip", ()))
    for pattern in strip:
        try:
            declared(pattern)
        except re.error as exc:
            raise InvalidEntry(f"field 'strip': bad pattern {pattern!r}: {exc}", "strip") from None
    tables = []
    for spec in fields.get("tables", ()):
        try:
            declared(spec["row"])
            tables.append(TableSpec(spec["name"], spec["start"], spec["end"], tuple(spec["columns"]), spec["row"]))
        except (KeyError, TypeError, re.error) as exc:
            raise InvalidEntry(f"table {spec.get('name', '?')!r} needs name, start, end, columns and a valid row "
                               f"pattern ({exc})") from None
    gaps = []
    for gap in fields.get("gaps", ()):
        if not isinstance(gap, dict) or not isinstance(gap.get("description"), str) or not gap["description"]:
            raise InvalidEntry("each [[source.gaps]] needs a 'description' (and optionally 'at', a phrase "
                               "locating it)", "description")
        gaps.append((gap["description"], str(gap.get("at", ""))))
    for key in ("abbrev", "scope"):
        if key in fields and not isinstance(fields[key], str):
            raise InvalidEntry(f"field '{key}' must be a string", key)
    abbrev = fields.get("abbrev") or ""
    if abbrev and (not ABBREV.match(abbrev) or len(abbrev) > MAX_ABBREV):
        raise InvalidEntry(f"field 'abbrev' must be at most {MAX_ABBREV} letters, digits and single spaces, "
                           f"such as 'DD Magic' (not {abbrev!r})", "abbrev")
    written_date = str(fields.get("date", "")).strip()
    if written_date and values.stored_date(written_date) != written_date:
        raise InvalidEntry(f"field 'date' must be a calendar date written YYYY-MM-DD (or YYYY-MM, YYYY), not "
                           f"{written_date!r}", "date")
    written_version = str(fields.get("version", ""))
    if values.version(written_version) != written_version.strip():
        raise InvalidEntry(f"field 'version' must be one line of at most {values.MAX_VERSION} visible characters "
                           f"(not {written_version[:100]!r})", "version")
    unknown = set(fields) - set(_REQUIRED) - set(_OPTIONAL)
    if unknown:
        raise InvalidEntry(f"unknown field(s) {', '.join(sorted(unknown))}")
    return SourceEntry(
        id=fields["id"], file=fields["file"], game=fields["game"], title=fields["title"],
        author=fields.get("author", ""), kind=fields["kind"], language=fields["language"], shape=fields["shape"],
        version=written_version.strip(), date=written_date, section=fields.get("section", ""),
        lines=lines, strip=strip, tables=tuple(tables), gaps=tuple(gaps), abbrev=abbrev,
        scope=" ".join((fields.get("scope") or "").split()),
    )
