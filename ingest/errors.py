"""Errors raised while ingesting documents."""
from __future__ import annotations

from model.errors import FileError


class IngestError(FileError):
    """A document or manifest entry cannot be ingested; names the file and, where it applies, the line."""


class InvalidEntry(ValueError):
    """A source entry's field is missing or wrong; `field` names it (None when no single field is at fault)."""

    def __init__(self, message: str, field: str | None = None):
        self.message = message
        self.field = field
        super().__init__(message)
