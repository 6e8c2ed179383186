"""Reading source files and editing their text without losing track of where each character came from.

Every cleaning step works on a `MappedText`: the current text plus, for each of its characters, the offset
of the character of the original file it came from. Citations are computed from those offsets, so they
always point at the original document, however much cleaning happened in between.
"""
from __future__ import annotations

import bisect
import re
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ingest.errors import IngestError

# Control characters that never occur in a text document; a file full of them is binary.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


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
        for encoding in ("utf-8-sig", "cp1252", "latin-1"):
            try:
                text = data.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
    if (nul := text.find("\x00")) >= 0:  # further on, or UTF-16 that encodes one: no ruling may hold it
        raise IngestError(path, "holds a NUL character, which no text document does: a damaged or binary file",
                          line=text.count("\n", 0, nul) + 1)
    if not text.strip():  # e.g. a byte-order mark and nothing else
        raise IngestError(path, "file is empty (no text after decoding)")
    bad = _CONTROL.findall(text[:65536])
    if len(bad) > max(8, len(text[:65536]) // 200):
        raise IngestError(path, "binary or undecodable file (too many control characters)")
    # Unicode's line and paragraph separators break lines as a line feed does.
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\u2028", "\n").replace("\u2029", "\n")


MAX_BYTES = 10 * 1024 * 1024  # a rules document is never this large; refuse rather than exhaust memory


def read_document(path: Path) -> str:
    """Read and decode one source document, with an IngestError naming the file on any failure."""
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise IngestError(str(path), f"file is too large ({size / 2**20:.1f} MB; the limit is "
                              f"{MAX_BYTES // 2**20} MB)")
        data = path.read_bytes()
    except FileNotFoundError:
        raise IngestError(str(path), "file not found") from None
    except IsADirectoryError:
        raise IngestError(str(path), "is a directory, not a document") from None
    except OSError as exc:
        raise IngestError(str(path), f"cannot be read: {exc.strerror}") from None
    return decode(data, str(path))


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

    def sub(self, pattern: str | re.Pattern, repl: str | Callable[[re.Match], str], flags: int = 0) -> "MappedText":
        """Like re.sub; replacement characters map to the start of what they replace."""
        regex = re.compile(pattern, flags) if isinstance(pattern, str) else pattern
        return self.edit((m.start(), m.end(), repl(m) if callable(repl) else m.expand(repl))
                         for m in regex.finditer(self.text))

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


class LineIndex:
    """Turns character offsets of the original text into 1-based line numbers."""

    def __init__(self, original: str):
        self._starts = [0] + [m.end() for m in re.finditer("\n", original)]

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset)

    def line_start(self, line: int) -> int:
        return self._starts[line - 1]

    def __len__(self) -> int:
        """The number of lines."""
        return len(self._starts)
