"""A document's record of its own revisions in the outline dialect ("UPDATE SUMMARY", "Revision History"): where
one opens, and the chapters and rules it reprints, which nest under it rather than open the document's own
sections again.
"""
from __future__ import annotations

from ingest.classify import CHANGELOG
from ingest.shapes.dialect import Heading
from ingest.shapes.facts import Facts


class Changelog:
    """The update summary open in the document, if any, and whether it runs to the end (it starts past the
    middle): the builder tells it each heading it opens, and asks whether what it reads is restated there."""

    def __init__(self, facts: Facts):
        self.facts = facts
        self.open: Heading | None = None  # the open update summary: what it reprints nests under it
        self.closing = False

    def enter(self, heading: Heading, index: int, headings: list[Heading], known: bool) -> Heading | None:
        """Keep an update summary's parts inside it, `heading` opening at line `index` under the open `headings`
        (`known`: its number is one the document has used already). An update summary opens a changelog; in one
        that runs to the end of the document, the chapters and rules it reprints ("5. CONDITIONS", "10.2.
        Alert", "Alert Keyword Ability") are its sub-sections, not the document's own sections again, until a
        marked heading at its level or a heading numbered with a number the document has not used. Returns the
        summary's heading when the document's own numbering resumes past it ("CHANGE LOG" / dated entries / "## 1.
        Getting Ready"): the rules are no part of it."""
        if CHANGELOG.match(heading.title):
            if self.open is not None and self.open.kind != "marked":
                heading.level = self.open.level  # "Previous Update Summary" after "Update Summary"
            self.open, self.closing = heading, self.facts.lines[index][0] > len(self.facts.text) // 2
            return None
        region = self.open
        if region is None:
            return None
        new_number = heading.number is not None and not known
        if (not self.closing or new_number or heading.kind == "marked" and heading.level <= region.level
                or region not in headings):
            self.open = None
            return region if new_number else None
        if heading.kind == "titled":  # a topic of the summary ("Alert Keyword Ability"), whatever was open
            heading.kind, heading.level = "caps", region.level + 1
        else:
            heading.level += region.level
