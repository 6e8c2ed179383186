"""Errors every layer may raise about a file: it names the file and, where it applies, the line."""
from __future__ import annotations


class FileError(Exception):
    """A document, manifest or database cannot be read or written as asked; names the file and, where it
    applies, the line."""

    def __init__(self, path: str, message: str, line: int | None = None):
        self.path = path
        self.line = line
        self.message = message
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {message}")
