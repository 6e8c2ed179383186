"""Reading source files and editing their text without losing track of where each character came from.

Every cleaning step works on a `MappedText`: the current text plus, for each of its characters, the offset
of the character of the original file it came from. Citations are computed from those offsets, so they
always point at the original document, however much cleaning happened in between.
"""
from __future__ import annotations

import bisect
import codecs
import os
import re
import stat
from array import array
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Callable

from ingest.classify.markup import DECLARED_CHARSET, TEX_GLYPH_IN_WORD
from ingest.errors import IngestError
from ingest.limits import current, how_to_raise

# Control characters that never occur in a text document (deleted by translate, to count them); a file full of
# them is binary.
_CONTROL = dict.fromkeys([*range(0x00, 0x09), 0x0B, *range(0x0E, 0x20), 0x7F])
_TEX_EVIDENCE = 3
_DECLARED_WITHIN = 4096  # how far into a file its head declares its character set
_TEX_GLYPHS = str.maketrans({"\x10": "“", "\x11": "”", "\x15": "–", "\x16": "—", "\x1b": "ff", "\x1c": "fi",
                             "\x1d": "fl", "\x1e": "ffi", "\x1f": "ffl"})


def decode(data: bytes, path: str) -> str:
    """Decode a document's bytes: UTF-8 (with or without BOM), else cp1252, else latin-1.

    Raises IngestError for empty, binary or undecodable content, naming `path`.
    """
    if not data.strip():
        raise IngestError(path, "file is empty")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise IngestError(path, f"undecodable UTF-16 text at byte {exc.start}") from None
    elif b"\x00" in data[:8192]:
        raise IngestError(path, "binary file (contains NUL bytes), not a text document")
    else:
        for encoding in ("utf-8-sig", *_declared(data), "cp1252", "latin-1"):
            try:
                text = data.decode(encoding)
                break
            except UnicodeError:  # a declared codec's own errors ("idna") too
                continue
    if (nul := text.find("\x00")) >= 0:  # further on, or UTF-16 that encodes one: no ruling may hold it
        raise IngestError(path, "holds a NUL character, which no text document does: a damaged or binary file",
                          line=text.count("\n", 0, nul) + 1)
    if not text.strip():  # e.g. a byte-order mark and nothing else
        raise IngestError(path, "file is empty (no text after decoding)")
    if len(TEX_GLYPH_IN_WORD.findall(text[:65536])) >= _TEX_EVIDENCE:
        text = text.translate(_TEX_GLYPHS)
    head = text[:65536]
    if len(head) - len(head.translate(_CONTROL)) > max(8, len(head) // 200):
        raise IngestError(path, "binary or undecodable file (too many control characters)")
    # Unicode's line and paragraph separators break lines as a line feed does.
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\u2028", "\n").replace("\u2029", "\n")


def _declared(data: bytes) -> tuple[str, ...]:
    """The character set the file's head declares, when Python knows it (an old Mac Word page's "macintosh": read
    as cp1252, its "league’s" was "leagueÕs")."""
    found = DECLARED_CHARSET.search(data[:_DECLARED_WITHIN])
    if found is None:
        return ()
    try:
        codec = codecs.lookup(found.group(1).decode("ascii"))
    except LookupError:
        return ()
    # a bytes-to-bytes or text transform ("rot13", "base64", "hex") decodes no file into text
    return (codec.name,) if getattr(codec, "_is_text_encoding", True) else ()


def read_document(path: Path) -> str:
    """Read and decode one source document, with an IngestError naming the file on any failure."""
    return decode(read_bounded(path, current().text_mb, "text_mb"), str(path))


def read_bounded(path: Path, limit_mb: float, limit: str) -> bytes:
    """The bytes of the regular file at `path`; IngestError, naming it, for anything else or past `limit_mb`
    MB (the limit named `limit`). At most the limit and one byte more are read, whatever size the file
    states (a device states 0), and nothing waits on a pipe with no writer."""
    name = str(path)
    most = int(limit_mb * 2**20)
    try:
        # O_NONBLOCK: opening a FIFO would otherwise wait for a writer, maybe forever.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise IngestError(name, "file not found") from None
    except OSError as exc:
        raise IngestError(name, f"cannot be read: {exc.strerror}") from None
    with open(fd, "rb") as handle:
        found = os.fstat(fd)
        regular_file(name, found)
        if found.st_size > most:
            raise _too_large(name, f"{found.st_size / 2**20:.1f} MB", limit_mb, limit)
        try:
            data = handle.read(most + 1)
        except OSError as exc:
            raise IngestError(name, f"cannot be read: {exc.strerror}") from None
    if len(data) > most:  # the file grew, or states no size (/proc)
        raise _too_large(name, f"more than {limit_mb:g} MB", limit_mb, limit)
    return data


def _too_large(name: str, size: str, limit_mb: float, limit: str) -> IngestError:
    return IngestError(name, f"file is too large ({size}; the limit is {limit_mb:g} MB: {how_to_raise(limit)})")


def regular_file(name: str, found: os.stat_result) -> None:
    """Refuse, naming the file, what `found` (its stat) says is no regular file: a directory, device, pipe."""
    if stat.S_ISDIR(found.st_mode):
        raise IngestError(name, "is a directory, not a document")
    if not stat.S_ISREG(found.st_mode):
        raise IngestError(name, "not a regular file (a device, pipe or socket): save the document to a file "
                                "and add that")


@dataclass(frozen=True)
class MappedText:
    """Text whose every character remembers its offset in the original document."""

    text: str
    offsets: array  # len(text) + 1 entries; the last one is the end offset

    @classmethod
    def of(cls, text: str, start: int = 0) -> "MappedText":
        return cls(text, array("i", range(start, start + len(text) + 1)))

    @classmethod
    def at(cls, text: str, offset: int) -> "MappedText":
        """Text a step adds (markup, a line break), every character citing the original `offset`."""
        return cls(text, array("i", [offset] * (len(text) + 1)))

    @classmethod
    def join(cls, parts: list["MappedText"]) -> "MappedText":
        """The parts one after another, each character keeping its offset (parts may come from anywhere)."""
        offsets = array("i")
        for part in parts:
            offsets.extend(part.offsets[:-1])
        offsets.append(parts[-1].offsets[-1] if parts else 0)
        return cls("".join(part.text for part in parts), offsets)

    def __len__(self) -> int:
        return len(self.text)

    def sub(self, pattern: re.Pattern, repl: str | Callable[[re.Match], str]) -> "MappedText":
        """Like re.sub, with a pattern of the classifier's; replacement characters map to the start of what they
        replace."""
        return self.edit((m.start(), m.end(), repl(m) if callable(repl) else m.expand(repl))
                         for m in pattern.finditer(self.text))

    def edit(self, edits) -> "MappedText":
        """Apply (start, end, replacement) edits, given in order and not overlapping."""
        parts: list[str] = []
        offsets = array("i")
        pos = 0
        for start, end, new in edits:
            if new == self.text[start:end]:
                continue
            parts.append(self.text[pos:start])
            offsets.extend(self.offsets[pos:start])
            parts.append(new)
            offsets.extend([self.offsets[start]] * len(new))
            pos = end
        if not parts:
            return self
        parts.append(self.text[pos:])
        offsets.extend(self.offsets[pos:])
        return MappedText("".join(parts), offsets)

    def slice(self, start: int, end: int) -> "MappedText":
        return MappedText(self.text[start:end], self.offsets[start:end] + self.offsets[end:end + 1])

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """Original [start, end) character range covered by self.text[start:end]."""
        if end <= start:
            return self.offsets[start], self.offsets[start]
        return self.offsets[start], self.offsets[end - 1] + 1


def after_each(text: str, char: str) -> list[int]:
    """The position after each `char` in `text`: where each line (or page) but the first starts."""
    return list(accumulate(len(piece) + 1 for piece in text.split(char)[:-1]))


class LineIndex:
    """Turns character offsets of the original text into 1-based line numbers."""

    def __init__(self, original: str):
        self._starts = [0] + after_each(original, "\n")

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset)

    def line_start(self, line: int) -> int:
        return self._starts[line - 1]

    def __len__(self) -> int:
        """The number of lines."""
        return len(self._starts)
