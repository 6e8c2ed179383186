"""The plain form a ruling's text is stored in: prose on one line, lists, tables and code kept line by line.

A document's line breaks are mostly wrapping, so prose lines join into one. Lines that are structure keep
their own line: list items ("- item", "• item", "3. item", "b) item") and table rows ("| a | b |"), each only
where a passage holds two or more of them (one numbered line is a paragraph that starts with a number), and
the lines of a code block (between the readers' FENCE lines, which go: an order list "England:" / "F North
Sea - Picardy"). Markdown's "|---|" rule rows go. kb.layout reads this form back into paragraphs, lists and
tables.
"""
from __future__ import annotations

from ingest.classify import CLOSES
from ingest.formats import FENCE
from model.text import ITEM, ROW


def _rule_row(line: str) -> bool:
    """Is `line` (its spaces collapsed) a table's rule line: only `|`, `:`, dashes and spaces, three dashes in a
    row among them?"""
    return "---" in line and not line.strip(" :|-")


def flow(text: str) -> str:
    """`text` (a span of a cleaned document) in the stored form: whitespace runs collapsed, prose lines
    joined (a line opening with closing punctuation, "?" or "’s", right after the last word), list items and table rows
    on lines of their own. An item's wrapped continuation joins the item;
    prose after a list or table starts a line of its own."""
    lines = [" ".join(line.split()) for line in text.split("\n")]
    lines = [line for line in lines if not _rule_row(line)]
    items = sum(bool(ITEM.match(line)) for line in lines)
    rows = sum(bool(ROW.match(line)) for line in lines)
    out: list[list[str]] = []  # the lines written, each as the source lines it joins
    last, blank = None, False  # the kind of the last line written; whether blank lines came since
    code = False  # inside a code block
    for line in lines:
        if line == FENCE:
            code, last = not code, "code"
            continue
        if not line:
            blank = True
            continue
        kind = "code" if code else "row" if rows >= 2 and ROW.match(line) else \
            "item" if items >= 2 and ITEM.match(line) else "prose"
        if out and kind == "prose" and last not in ("row", "code") and not (last == "item" and blank):
            if CLOSES.match(line):  # "Ada Sterling" / "?", "Overdrive" / "’s": a PDF broke the line there
                out[-1][-1] += line
            else:
                out[-1].append(line)
        else:
            out.append([line])
            last = kind
        blank = False
    return "\n".join(" ".join(joined) for joined in out)
