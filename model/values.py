"""Values that enter from documents and users, checked once where they enter: a date is a calendar date, a
version a short line of text, a file name a name a header can carry. What fails is left out (a document's
front matter) or refused (a manifest's field, a command's option), never stored as it came."""
from __future__ import annotations

import re
import unicodedata
from datetime import date

# An effective date as stored: a day, a month or a year (what a document may say: "June 2024" is 2024-06).
_STORED_DATE = re.compile(r"([0-9]{4})(?:-([0-9]{2})(?:-([0-9]{2}))?)?")  # ASCII digits: \d also takes "２０２５"
MAX_VERSION = 80  # longer is a sentence, not a version ("v1.44", "2.2 – June", "Comprehensive Rules 2025-10-31")
MAX_FILE_NAME = 200


def is_day(value: str) -> bool:
    """Whether `value` is a calendar day written YYYY-MM-DD (2025-02-30 is not)."""
    return re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value or "") is not None and stored_date(value) == value


def stored_date(value: str) -> str | None:
    """`value` as an effective date is stored (YYYY-MM-DD, YYYY-MM or YYYY, a real calendar date), or None when
    it is none of these."""
    match = _STORED_DATE.fullmatch((value or "").strip())
    if not match:
        return None
    year, month, day = (int(part) if part else 1 for part in match.groups())
    try:
        date(year, month, day)
    except ValueError:
        return None
    return match.group(0)


def one_line(value: str) -> str:
    """`value` as one line of visible text: control and format characters dropped, whitespace runs one space."""
    kept = "".join(" " if c.isspace() else c for c in str(value)
                   if c.isspace() or unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co", "Cn"))
    return " ".join(kept.split())


def version(value: str) -> str | None:
    """`value` as a version is stored (one line, at most MAX_VERSION characters), or None when it is too long to
    be one."""
    line = one_line(value)
    return line if len(line) <= MAX_VERSION else None


def file_name(name: str) -> str:
    """A file's name as it is stored and sent in a header: its last path part, one line of visible text, no
    quotes or backslashes, at most MAX_FILE_NAME characters (the suffix kept); "document" when nothing is left."""
    base = one_line(re.split(r"[/\\]", str(name))[-1]).replace('"', "'")
    if len(base) > MAX_FILE_NAME:
        stem, dot, suffix = base.rpartition(".")
        base = (stem[:MAX_FILE_NAME - len(suffix) - 1] + dot + suffix) if dot and len(suffix) <= 10 \
            else base[:MAX_FILE_NAME]
    return base.strip(" .") or "document"
