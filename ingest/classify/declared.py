"""The patterns a manifest declares: the lines a source's `strip` removes and the rows a table's `row` reads.
They are the user's, not the classifier's, and are compiled here so that every pattern of the ingest goes through
the classifier."""
from __future__ import annotations

import re


def declared(pattern: str, flags: int = 0) -> re.Pattern:
    """`pattern`, as a manifest declares it, compiled (`re.error` when it is none)."""
    return re.compile(pattern, flags)
