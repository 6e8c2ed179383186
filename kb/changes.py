"""What changed about a subject: a question asking what changed ("What changed about X?", "Is X new?", "Errata
for X") answered from the editions' history: the rulings about X (found as `kb.search.ask` finds them) whose
text changed, was added or moved between editions, each with its earlier and its current text."""
from __future__ import annotations

import re
import sqlite3

from collections.abc import Callable

from kb.editions import history
from model.kinds import HEADER_KINDS

# The question's subject after the words that ask what changed about it.
_ASKS = (re.compile(r"^\s*(?:what|which\s+rules?)\s+(?:has\s+|have\s+)?changed\s+(?:about|in|for|with|on)\s+"
                    r"(?P<subject>.+?)[\s?.!]*$", re.IGNORECASE),
         re.compile(r"^\s*(?:is|are)\s+(?P<subject>.+?)\s+new[\s?.!]*$", re.IGNORECASE),
         re.compile(r"^\s*(?:errata|changes?)\s+(?:for|on|to|of)\s+(?P<subject>.+?)[\s?.!]*$", re.IGNORECASE))
# Rulings about the subject looked at: the best few the search finds.
CANDIDATES = 10


def subject(question: str) -> str | None:
    """What a question asking what changed asks about ("the number of ink types in a deck"), else None."""
    for pattern in _ASKS:
        found = pattern.match(question)
        if found:
            return found["subject"]
    return None


def changes_about(conn: sqlite3.Connection, question: str, game: str | None, ask: Callable[..., dict]) -> dict:
    """`{"subject", "changes"}`: the subject of a question asking what changed (the whole question if it does
    not read as one) and, of the rulings the search finds about it, best first, each whose history has a
    change: `{"id", "ref", "change" ("changed" | "added" | "moved"), "version", "effective", "earlier"
    (the text in the edition before, None for one added), "earlier_version", "earlier_ref", "now" (its text
    in that edition)}`, one entry per change, latest first. `ask` is `kb.search.ask`, which finds the rulings
    (passed in: search answers what-changed questions with this module)."""
    about = subject(question) or question
    found = []
    for result in ask(conn, about, game, CANDIDATES)["results"]:
        if result["kind"] not in HEADER_KINDS and result["kind"] != "restated":  # a reprint is no rule
            found += ruling_changes(conn, result["id"])
    return {"subject": about, "changes": found}


def ruling_changes(conn: sqlite3.Connection, ruling_id: str) -> list[dict]:
    """A ruling's changes between its source's editions, latest first, as `changes_about` gives them: changed,
    added, or moved (renumbered with its text unchanged)."""
    found = []
    steps = history(conn, ruling_id)
    for before, now in reversed(list(zip([None, *steps], steps))):
        moved = before is not None and before["ref"] != now["ref"] and now["change"] == "same"
        if now["change"] not in ("changed", "added") and not moved:
            continue
        found.append({"id": ruling_id, "ref": now["ref"], "change": "moved" if moved else now["change"],
                      "version": now["version"], "effective": now["effective"],
                      "earlier": before["text"] if before and now["change"] != "added" else None,
                      "earlier_version": before["version"] if before else None,
                      "earlier_ref": before["ref"] if before else None, "now": now["text"]})
    return found
