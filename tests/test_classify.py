"""The classifier (ingest/classify.py): a line's reading, read once, and the string tests that took the place of
patterns. The shapes a numbered line takes (a chapter, a section, a rule numbered from the top, a heading numbered
without a stop, a glossary topic) are one pattern and string tests; they read every line as the five patterns
they replaced did (issue 42, item 2), which the property tests below keep."""
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest import classify
from ingest.classify import ITEM, read_line
from ingest.tables import _number

# The five patterns the numbered shapes replaced, as they were; but a section's title may hold a colon ("9. Challenge
# 1: simple navigation", a title naming its topic before it, only over rules numbered under it: the builder's test),
# and a dash may set a title apart from a number without a stop ("1 - Use Common Sense"); a bare title holds no two
# spaces in a row (a table's row laid out in columns).
_CHAPTER = re.compile(r"^(?P<n>\d{1,3})[.)]\s+(?P<title>[A-Z][A-Z0-9 ,:&/'’()-]*[A-Z0-9)])$")
_SECTION = re.compile(r"^(?P<n>\d{1,4})[.)]\s+(?P<title>[A-Z][\w'’&/ ,:-]{1,50}[\w)])$")
_BARE = re.compile(r"^(?P<n>\d{1,2})\s+(?:[-–—]\s+(?=[^\W\d]))?(?P<title>(?!.*  )[A-Z][^.!?;:]{0,70}[^\s.!?;:,])$")
_TOPIC = re.compile(r"^(?P<n>\d{1,3})(?:\s+(?:[-–—]\s+(?=[^\W\d]))?(?P<title>[A-Z][A-Z0-9 ,'’&()/-]{1,60}))?$")
_TOP = re.compile(r"^\s*(?P<n>\d{1,3})\.\s+(?P<body>\S(?:.*\S)?)\s*$")


def _shapes(line: str) -> dict[str, tuple[str, str | None] | None]:
    reading = read_line(line, ITEM)
    found = {"chapter": reading.chapter(), "section": reading.section(), "top": reading.top(),
             "bare": reading.bare(), "topic": reading.topic()}
    return {name: match and (match.group("n"), match.group("title")) for name, match in found.items()}


@pytest.mark.parametrize("line, shapes", [
    ("6. ABILITIES, EFFECTS, AND RESOLVING", {"chapter", "section", "top"}),
    ("100. General", {"section", "top"}),
    ("103. To play, a player must draw a card.", {"top"}),
    ("1)  The Deck", {"section"}),
    ("3 BASIC RULES and what you can do", {"bare"}),
    ("4 ACTIVE PLAYER", {"bare", "topic"}),
    ("7", {"topic"}),
    ("12345. Too many digits", set()),
    ("3.1 A decimal rule", set()),
])
def test_a_numbered_line_takes_the_shapes_its_number_stop_and_title_make(line, shapes):
    assert {name for name, found in _shapes(line).items() if found} == shapes


_NUMBERED_LINES = st.builds(
    lambda lead, number, stop, space, title, tail: lead + number + stop + space + title + tail,
    st.sampled_from(["", " ", "\t"]), st.sampled_from(["", "1", "12", "123", "1234", "12345"]),
    st.sampled_from(["", ".", ")", ".)", ":"]), st.sampled_from(["", " ", "   ", "\t", "\u00a0"]),
    st.text(alphabet="ABCZ abcé019,:&/()-'’_.!?;\t²", max_size=80), st.sampled_from(["", " "]))


@settings(max_examples=600, deadline=None)
@given(_NUMBERED_LINES)
def test_the_numbered_shapes_read_a_line_as_the_five_patterns_they_replaced_did(line):
    stripped = line.strip()
    before = {"chapter": _CHAPTER.match(stripped), "section": _SECTION.match(stripped), "bare": _BARE.match(stripped),
              "topic": _TOPIC.match(stripped), "top": _TOP.match(line)}
    assert _shapes(line) == {name: match and (match.group("n"), match.group("title" if name != "top" else "body"))
                             for name, match in before.items()}


@pytest.mark.parametrize("cell, value", [("4", 4.0), ("-2", -2.0), ("–3", -3.0), ("1,5", 1.5), ("25%", 25.0),
                                         ("+10", 10.0), ("٣", 3.0)])
def test_a_table_cell_s_number_keeps_its_digits_its_point_and_its_sign(cell, value):
    assert _number(cell) == value


def test_the_patterns_of_the_other_shapes_are_the_classifier_s():
    at, after = classify.SPELL
    assert at.match("MAGIC MISSILES (A) Up to two") and after.search("range. SHIELD (B) Blocks")
    assert classify.entry_heading("“Set Up”", "B").search("see B. Set   up the board")


def test_one_number_sign_marks_a_title_in_lower_case_but_not_a_count_of_things():
    # a publisher's headings set in lower case, as the PDF reader marks them by size, its page's number perhaps after
    for title in ("# end of the game", "# scoring raids 9", "# phAse 5: recAll", "# Setup", "## exert"):
        assert classify.marked_heading(title) is not None, title
    # the number sign of a table's header: "# of players", a count over figures
    for text in ("# of players   Pods", "# cards 2 3 4", "# idclip          No clipping (you can walk through walls)"):
        assert classify.marked_heading(text) is None, text
