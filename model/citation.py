"""Citation text, one way for every reader: the stored one-line form, the line range, and the full citation a
judge pastes."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

from model.refs import numbering


class Locator(NamedTuple):
    """How citations name the places of a document of one format, as its reader declares them (ingest.formats)
    and the database keeps them (the `formats` table): a line of its text and several ("line", "lines"; where
    the text holds one paragraph a line, "paragraph", "paragraphs"), and where the file has pages of its own, what one is called where no page
    number is printed on it ("PDF page") and the fragment that opens the file at page N ("#page={page}")."""

    line: str = "line"
    lines: str = "lines"
    sheet: str = ""       # "" where the file has no pages of its own
    sheet_link: str = ""  # "" where the file cannot be opened at a page

    @classmethod
    def of(cls, row: Mapping, prefix: str = "") -> Locator:
        """The locator a database row carries in its columns `{prefix}line`, ...; the default (lines, no pages of
        the file) where it has none (a source whose format has no `formats` row)."""
        found = {field: row[prefix + field] for field in cls._fields if row[prefix + field] is not None}
        return cls(**found)

    def link(self, page: int | None) -> str:
        """The fragment opening the file at its page `page`; "" for none."""
        return self.sheet_link.replace("{page}", str(page)) if page and self.sheet_link else ""


LINES = Locator()


def line_range(first: int, last: int, locator: Locator = LINES) -> str:
    """"line 12" or "lines 26–31" (or as `locator` names them: "paragraphs 26–31"): the lines a citation points
    at."""
    return f"{locator.line} {first}" if first == last else f"{locator.lines} {first}–{last}"


def edition(version: str, effective: str = "") -> str:
    """An edition as a citation names it: its date ("2025-10-31"), its version ("v1.44"), or both
    ("v2.2.0 of 2025-01-17")."""
    shown = f"v{version}" if re.match(r"\d", version or "") and not _DATE.fullmatch(version) else version or ""
    if effective and effective != version:
        return f"{shown} of {effective}" if shown else effective
    return shown


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def place(first: int, last: int, page: int | None = None, page_end: int | None = None,
          sheet: int | None = None, locator: Locator = LINES) -> str:
    """Where in its source a passage stands, as a judge finds it: the printed page ("page 21", "pages 4–5") in
    a document with pages, the file's own page `sheet` where none is printed on it ("PDF page 3", as `locator`
    names it), else the lines (`line_range`)."""
    if page is not None:
        return f"page {page}" if page_end in (None, page) else f"pages {page}–{page_end}"
    if sheet is not None and locator.sheet:
        return f"{locator.sheet} {sheet}"
    return line_range(first, last, locator)


def short(source_title: str, first: int, last: int, page: int | None = None, page_end: int | None = None,
          sheet: int | None = None, locator: Locator = LINES) -> str:
    """"Official Dragon Dice FAQ ..., lines 26–31", "Comprehensive Rules, page 21": what a judge reads out,
    stored with each ruling (see `place`)."""
    return f"{source_title}, {place(first, last, page, page_end, sheet, locator)}"


def full(ref: str, abbrev: str, game: str, source_title: str, version: str, section: str, label: str, title: str,
         place: str, effective: str = "") -> str:
    """The citation a judge pastes into a ruling ("DD Magic A — Dragon Dice, Official Dragon Dice FAQ ..., v1.44,
    General Rules A, lines 26–31"; "Lorcana 4.3.6 — Disney Lorcana, Comprehensive Rules, 2025-10-31, Challenge
    4.3.6, page 21"): the ref, the game, the source and its edition, where in it (the section and the ref's
    label where the document numbers the ruling, else its title), and `place` (see `place`)."""
    version = edition(version, effective)
    leaf = section.rsplit(" > ", 1)[-1]
    numbered = ref.removeprefix(abbrev).strip() if numbering(label) and ref.startswith(abbrev) else ""
    where = f"{leaf} {numbered}" if numbered else f"{leaf}: {title}" if leaf else title
    named = source_title if game.casefold() in source_title.casefold() else f"{game}, {source_title}"
    parts = [named, version, where.strip(), place]
    return f"{ref} — " + ", ".join(part for part in parts if part)
