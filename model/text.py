"""Stored text: the words search and linking ignore, and the line forms a stored ruling keeps (ingest writes
them, kb reads them back)."""
from __future__ import annotations

import re

STOPWORDS = frozenset(
    "a an and are as at be been but by can do does for from has have he her his how i if in into is it its "
    "may must no not of on or our she so such that the their them then there these they this those to "
    "was we were what when where which while who will with you your all any each every".split()
)
# A list item ("- item", "• item", "3. item", "b) item") and a table row ("| a | b |"), each on a line of its own.
ITEM = re.compile(r"^(?:[-*•◦▪–]|\d{1,3}[.)]|[a-z][.)])\s+\S")
ROW = re.compile(r"^\|.*\|$")
