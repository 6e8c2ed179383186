"""Citation text, one way for every reader: the stored one-line form, the line range, and the full citation a
judge pastes."""
from __future__ import annotations

import re

from model.refs import numbering


def line_range(first: int, last: int) -> str:
    """"line 12" or "lines 26–31": the lines a citation points at."""
    return f"line {first}" if first == last else f"lines {first}–{last}"


def edition(version: str, effective: str = "") -> str:
    """An edition as a citation names it: its date ("2025-10-31"), its version ("v1.44"), or both
    ("v2.2.0 of 2025-01-17")."""
    shown = f"v{version}" if re.match(r"\d", version or "") and not _DATE.fullmatch(version) else version or ""
    if effective and effective != version:
        return f"{shown} of {effective}" if shown else effective
    return shown


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def short(source_title: str, page: int | None, first: int, last: int) -> str:
    """"Official Dragon Dice FAQ ..., lines 26–31" (", page 4, lines 26–31" where the document has pages): what
    a judge reads out, stored with each ruling."""
    pages = f"page {page}, " if page is not None else ""
    return f"{source_title}, {pages}{line_range(first, last)}"


def full(ref: str, abbrev: str, source_title: str, version: str, section: str, label: str, title: str,
         lines: str, page: int | None = None, effective: str = "") -> str:
    """The citation a judge pastes into a ruling ("DD Magic A — Official Dragon Dice FAQ ..., v1.44, General
    Rules A, lines 26–31"; "Lorcana 4.3.6 — Comprehensive Rules, 2025-10-31, Challenge 4.3.6, p. 21"): the
    ref, the source and its edition, where in it (the section and the ref's label where the document numbers
    the ruling, else its title), the page and the lines."""
    version = edition(version, effective)
    leaf = section.rsplit(" > ", 1)[-1]
    numbered = ref.removeprefix(abbrev).strip() if numbering(label) and ref.startswith(abbrev) else ""
    where = f"{leaf} {numbered}" if numbered else f"{leaf}: {title}" if leaf else title
    parts = [source_title, version, where.strip(), f"p. {page}" if page else "", lines]
    return f"{ref} — " + ", ".join(part for part in parts if part)
