"""Errors raised while ingesting documents."""
from __future__ import annotations

import tomllib
from pathlib import Path

from ingest.classify.checks import TOML_LINE
from model.errors import FileError


class IngestError(FileError):
    """A document or manifest entry cannot be ingested; names the file and, where it applies, the line."""


def invalid_toml(path: Path, exc: tomllib.TOMLDecodeError) -> IngestError:
    """The error of a file that is no valid TOML, at the line the parser's message names ("… (at line 3, column
    5)")."""
    at = TOML_LINE.search(str(exc))
    return IngestError(str(path), f"invalid TOML: {exc}", int(at.group(1)) if at else None)


class InvalidEntry(ValueError):
    """A source entry's field is missing or wrong; `field` names it (None when no single field is at fault)."""

    def __init__(self, message: str, field: str | None = None):
        self.message = message
        self.field = field
        super().__init__(message)
