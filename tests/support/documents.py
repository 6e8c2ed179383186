"""Real documents (../shared/corpora) read and parsed once per test run, for every test module that reads them: a
PDF takes seconds to read, and the same few are asked about by many modules. What is returned is shared: read it,
never change it."""
from __future__ import annotations

from functools import cache
from pathlib import Path

from ingest import formats
from ingest.manifest import SourceEntry, source_entry
from ingest.pipeline import parse_source
from model.records import ParsedSource


def entry(name: str, shape: str = "auto") -> SourceEntry:
    """The manifest entry of file `name` as `rulings add FILE --game test` makes it (its shape found by measuring
    unless given)."""
    return source_entry({"id": "doc", "file": name, "game": "test", "title": name, "kind": "rulebook",
                         "language": "en", "shape": shape, "section": name})


def document(path: Path) -> formats.Document:
    """The file as `formats.read` reads it."""
    return _document(Path(path).resolve())


def parsed(path: Path, shape: str = "auto") -> ParsedSource:
    """The file parsed as `rulings add FILE --game test` parses it (`entry`)."""
    return _parsed(Path(path).resolve(), shape)


@cache
def _document(path: Path) -> formats.Document:
    return formats.read(path)


@cache
def _parsed(path: Path, shape: str) -> ParsedSource:
    return parse_source(entry(path.name, shape), path.parent, document=_document(path))
