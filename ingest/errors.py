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
