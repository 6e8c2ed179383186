"""Errors raised while ingesting documents."""
from __future__ import annotations


class IngestError(Exception):
    """A document or manifest entry cannot be ingested; names the file and, where it applies, the line."""

    def __init__(self, path: str, message: str, line: int | None = None):
        self.path = path
        self.line = line
        self.message = message
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {message}")


class InvalidEntry(ValueError):
    """A source entry's field is missing or wrong; `field` names it (None when no single field is at fault)."""

    def __init__(self, message: str, field: str | None = None):
        self.message = message
        self.field = field
        super().__init__(message)
