"""A document's record of its own revisions in the outline dialect ("UPDATE SUMMARY", "Revision History"): where
one opens, and the chapters and rules it reprints, which nest under it rather than open the document's own
sections again.
"""
from __future__ import annotations

from ingest.classify import CHANGELOG
from ingest.shapes.dialect import Heading


class ChangelogReader:
    """The outline reader's update summaries (mixed into its reader, whose open headings it reads and sets)."""

    def _enter_changelog(self, heading: Heading, index: int) -> None:
        """Keep an update summary's parts inside it. An update summary opens a changelog; in one that runs to the
        end of the document (it starts past its middle), the chapters and rules it reprints ("5. CONDITIONS",
        "10.2. Alert", "Alert Keyword Ability") are its sub-sections, not the document's own sections again,
        until a marked heading at its level or a heading numbered with a number the document has not used."""
        if CHANGELOG.match(heading.title):
            if self.changelog is not None and self.changelog.kind != "marked":
                heading.level = self.changelog.level  # "Previous Update Summary" after "Update Summary"
            self.changelog, self.closing = heading, self.facts.lines[index][0] > len(self.facts.text) // 2
            return
        region = self.changelog
        if region is None:
            return
        new_number = heading.number is not None and heading.number not in self.heading_numbers.keys() | self.rules
        if (not self.closing or new_number or heading.kind == "marked" and heading.level <= region.level
                or region not in self.headings):
            self.changelog = None
            return
        if heading.kind == "titled":  # a topic of the summary ("Alert Keyword Ability"), whatever was open
            heading.kind, heading.level = "caps", region.level + 1
        else:
            heading.level += region.level
