"""The sources manifest (`sources/sources.toml`): which documents to ingest and what they are."""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ingest.errors import IngestError

KINDS = ("official-faq", "designer-clarifications", "variant-rules", "rulebook", "house-rules")
SHAPES = ("outline", "blog", "glued", "doc", "flat", "paragraphs")
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_REQUIRED = ("id", "file", "game", "title", "author", "kind", "language", "shape")


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
        at = re.search(r"at line (\d+)", str(exc))
        raise IngestError(str(path), f"invalid TOML: {exc}", int(at.group(1)) if at else None) from None
    games = data.get("games", {})
    if not isinstance(games, dict) or not games:
        raise IngestError(str(path), "no [games.<slug>] tables")
    for slug, game in games.items():
        if not _SLUG.match(slug) or not isinstance(game, dict) or not game.get("name"):
            raise IngestError(str(path), f"game {slug!r} needs a slug of a-z, 0-9 and - and a name",
                              _line_of(raw_text, f"[games.{slug}]"))
    entries = []
    seen: set[str] = set()
    for number, raw in enumerate(data.get("source", []), start=1):
        line = _line_of(raw_text, f'id = "{raw.get("id")}"') if isinstance(raw, dict) else None
        entries.append(_entry(raw, number, games, seen, str(path), line, raw_text))
    if not entries:
        raise IngestError(str(path), "no [[source]] entries")
    return Manifest(path, games, tuple(entries))


def _entry(raw: dict, number: int, games: dict, seen: set[str], path: str, line: int | None,
           text: str) -> SourceEntry:
    def fail(message: str, key: str | None = None) -> IngestError:
        return IngestError(path, f"source #{number} ({raw.get('id', '?')}): {message}", _field_line(key))

    def _field_line(key: str | None) -> int | None:
        """The line of `key = ...` inside this entry, else the entry's own line."""
        if key is None or line is None:
            return line
        for offset, row in enumerate(text.split("\n")[line - 1:], start=line):
            if offset > line and row.startswith("[["):
                break
            if re.match(rf"{key}\s*=", row.strip()):
                return offset
        return line

    for key in _REQUIRED:
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise fail(f"field '{key}' is missing or empty", key)
    if not _SLUG.match(raw["id"]) or raw["id"] in seen:
        raise fail("field 'id' must be a unique slug", "id")
    seen.add(raw["id"])
    if raw["game"] not in games:
        raise fail(f"field 'game': unknown game {raw['game']!r}; known: {', '.join(sorted(games))}", "game")
    if raw["kind"] not in KINDS:
        raise fail(f"field 'kind' must be one of {', '.join(KINDS)}", "kind")
    if raw["shape"] not in SHAPES:
        raise fail(f"field 'shape' must be one of {', '.join(SHAPES)}", "shape")
    lines = None
    if "lines" in raw:
        match = re.fullmatch(r"(\d+)-(\d*)", str(raw["lines"]))
        if not match:
            raise fail("field 'lines' must look like '1-5' or '6-'", "lines")
        lines = (int(match.group(1)), int(match.group(2)) if match.group(2) else None)
    strip = tuple(raw.get("strip", ()))
    for pattern in strip:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise fail(f"field 'strip': bad pattern {pattern!r}: {exc}", "strip") from None
    tables = []
    for spec in raw.get("tables", ()):
        try:
            re.compile(spec["row"])
            tables.append(TableSpec(spec["name"], spec["start"], spec["end"], tuple(spec["columns"]), spec["row"]))
        except (KeyError, TypeError, re.error) as exc:
            raise fail(f"table {spec.get('name', '?')!r} needs name, start, end, columns and a valid row "
                       f"pattern ({exc})") from None
    gaps = []
    for gap in raw.get("gaps", ()):
        if not isinstance(gap, dict) or not isinstance(gap.get("description"), str) or not gap["description"]:
            raise fail("each [[source.gaps]] needs a 'description' (and optionally 'at', a phrase locating it)",
                       "description")
        gaps.append((gap["description"], str(gap.get("at", ""))))
    known = set(_REQUIRED) | {"version", "date", "section", "lines", "strip", "tables", "gaps"}
    unknown = set(raw) - known
    if unknown:
        raise fail(f"unknown field(s) {', '.join(sorted(unknown))}")
    return SourceEntry(
        id=raw["id"], file=raw["file"], game=raw["game"], title=raw["title"], author=raw["author"],
        kind=raw["kind"], language=raw["language"], shape=raw["shape"], version=str(raw.get("version", "")),
        date=str(raw.get("date", "")), section=raw.get("section", ""), lines=lines, strip=strip,
        tables=tuple(tables), gaps=tuple(gaps),
    )
