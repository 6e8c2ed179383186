"""The ref grammar: a ref is a source's abbreviation and a label from the document's own numbering ("CR
702.19b", "DT 12", "PotL B.3"), unique across a database and at most MAX_REF characters."""
from __future__ import annotations

import re

MAX_REF = 40
MAX_ABBREV = 10
# A roman part of a label: "7.1c.iv", "7.11viii".
_ROMAN_PART = r"[ivxlc]{2,6}(?![a-z])"
# A label that numbers: "702.19b", "103.2.a.1", "1-2-1", "9f12c", "7.1c.iv", "12", "1a", "b", "iv", a manual's rule
# code and its items ("C01", "SG4a", "RG01.2") — not a title or a slug.
NUMBERING = re.compile(rf"\d+(?:[.\-]\d+)*(?:[a-z]|{_ROMAN_PART})?(?:\.(?:\d+|[a-z](?![a-z])|{_ROMAN_PART}))*"
                       r"|\d+(?:[a-z]\d+)+[a-z]?|(?-i:[A-Z]{1,3}\d{1,3}[a-z]?(?:\.\d+)*)"  # a code is in capitals
                       r"|[a-z](?:\.\d+[a-z]?)*"
                       r"|(?=[ivxlc])c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})(?:\.\d+[a-z]?)*", re.IGNORECASE)


def ref_key(ref: str) -> str:
    """How a ref is compared and looked up: case and whitespace do not matter ("dd magic a" = "DD Magic A")."""
    return re.sub(r"\s+", "", ref).casefold()


def numbering(label: str) -> str:
    """The label as a number is written ("B" for a lettered clarification "b"), or "" if it does not number."""
    if not NUMBERING.fullmatch(label or ""):
        return ""
    return label if label[0].isdigit() else label.upper() if label.isalpha() else label[0].upper() + label[1:]
