"""What kinds of sources and rulings there are, and what each kind means to a reader."""
from __future__ import annotations

from typing import NamedTuple


class SourceKind(NamedTuple):
    """A kind of source: its name, how much its word weighs (0 first), the suffix that tells two sources of
    a game apart in refs ("PotL HR"), and what a reader calls it."""

    name: str
    authority: int
    suffix: str
    label: str


# The publisher's word before anyone else's: a rulebook and an official FAQ, then the designer, a variant,
# a house rule.
SOURCE_KINDS = (
    SourceKind("official-faq", 0, "FAQ", "Official FAQ"),
    SourceKind("designer-clarifications", 1, "DC", "Designer's clarification"),
    SourceKind("variant-rules", 2, "VR", "Variant"),
    SourceKind("rulebook", 0, "RB", "Rulebook"),
    SourceKind("house-rules", 3, "HR", "House rule"),
)
KINDS = tuple(kind.name for kind in SOURCE_KINDS)
AUTHORITY = {kind.name: kind.authority for kind in SOURCE_KINDS}
KIND_SUFFIX = {kind.name: kind.suffix for kind in SOURCE_KINDS}
KIND_LABELS = {kind.name: kind.label for kind in SOURCE_KINDS}
# Ranked after every known kind (a database may hold a kind this release does not know).
UNKNOWN_AUTHORITY = 9

# Rulings in which the source says something about itself rather than rules: its title, credits,
# copyright, "new in this version".
HEADER_KINDS = frozenset({"title", "front-matter", "changelog"})
# Rulings labelled by their term: a glossary entry, and one that only sends the reader to another ruling.
TERM_KINDS = frozenset({"glossary", "redirect"})

