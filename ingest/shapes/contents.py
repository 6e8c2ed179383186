"""A contents page in the outline dialect, laid out as labels alone on their lines, each over its title ("1.2."
then "The Golden Rules"): its entries are text, never the document's own headings.
"""
from __future__ import annotations

from ingest import labels
from ingest.classify import ITEM, LONE_LABEL
from ingest.shapes.dialect import names_a_topic

# Labels over titles in a row, this many of them siblings, are a contents page; a title wraps over a few lines.
_CONTENTS_RUN = 3
_WRAPPED_TITLE = 3


def _title_words(line: str) -> bool:
    """Is `line` (a part of) a title in a contents page: a few words, no sentence, no label?"""
    stripped = line.strip()
    return (0 < len(stripped.split()) <= 7 and stripped[-1] not in ".,;:!?"
            and not LONE_LABEL.match(line) and not ITEM.match(stripped))


def contents_pairs(lines: list[tuple[int, str]], following: list[int | None]) -> set[int]:
    """Indices of the label lines of a contents page laid out as a label alone on its line over its title ("1.2."
    then "The Golden Rules"): runs of such pairs with nothing between them, numbered on from one to the next,
    that list siblings (1.1 then 1.2) `_CONTENTS_RUN` times at least, or that the document's numbering starts
    again after, from the run's first label ("1." "Basics" … "2.1." "Goods", then "1." "Basics"). A chapter,
    its first section and its first rule opening with a short phrase ("4." "Game Zones", "4.1." "Zones",
    "4.1.1." "A" / "ZONE" / "is a…") each sit under the one before: the document's own headings, no contents."""
    found: set[int] = set()
    run: list[tuple[int, str]] = []

    def close(restarted: bool = False) -> None:
        siblings = sum(not labels.within(later, earlier) for (_, earlier), (_, later) in zip(run, run[1:]))
        if siblings >= _CONTENTS_RUN or restarted and len(run) >= _CONTENTS_RUN:
            found.update(index for index, _ in run)
        run.clear()

    index = next((i for i, (_, line) in enumerate(lines) if line.strip()), None)
    while index is not None:
        title = following[index]
        if (LONE_LABEL.match(lines[index][1]) and title is not None and _title_words(lines[title][1])
                and names_a_topic(lines[title][1].strip())):
            label = lines[index][1].strip().rstrip(".")
            if run and not labels.follows(label, run[-1][1]):
                # the numbering starts again: the contents ended, and the document's own chapters begin
                close(restarted=label == run[0][1])
            run.append((index, label))
            index = following[title]
            for _ in range(_WRAPPED_TITLE):  # "Steps of Triggering / and Resolving a Conditional / Ability"
                if index is None or not _title_words(lines[index][1]):
                    break
                index = following[index]
            continue
        close()
        index = following[index]
    close()
    return found
