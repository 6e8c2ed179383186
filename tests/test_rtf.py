"""RTF (.rtf) read as the document it shows, not as its control words: headings (outline levels, heading styles),
lists (Word's list text, pandoc's hanging numbers), tables and bold lines, into the same outline as the same
document in HTML, cited by paragraph, the file kept; recognised by its suffix and by its opening `{\\rtf`."""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from ingest.errors import IngestError
from ingest.formats import read
from ingest.limits import Limits
from test_docx import HTML_TWIN, TITLE, add_house_rules

# The harbor FAQ of test_docx as Word saves it as RTF: a stylesheet naming the Title and heading styles, list items
# after the text Word writes for their numbers ({\listtext …}), bold questions, a table, curly quotes as \'hh and \u.
WORD_RTF = r"""{\rtf1\ansi\ansicpg1252\deff0\uc1{\fonttbl{\f0\froman Times New Roman;}{\f1\fnil Symbol;}}
{\colortbl;\red0\green0\blue0;}
{\stylesheet{\s0 Normal;}{\s1\outlinelevel0\b\fs32 heading 1;}{\s2\outlinelevel1\b\fs28 heading 2;}
{\s15\b\fs56 Title;}{\*\cs10 Default Paragraph Font;}}
{\info{\title Harbor Lights}{\author Someone}}
{\header\pard\plain Harbor Lights League \endash  page \chpgn\par}
\pard\plain\s15\b\fs56 Harbor Lights League: House Rules and FAQ\par
\pard\plain\s0 Version 1.2, agreed by the league on 14 March 2026. These house rules replace the rulebook where they differ.\par
\pard\plain\s1\outlinelevel0\b Setup\par
\pard\plain\s0\ls1\ilvl0{\listtext\pard\plain 1.\tab}Each player shuffles their fleet deck and draws seven cards.\par
\pard\plain\s0\ls1\ilvl1{\listtext\pard\plain a.\tab}A player whose hand holds no ship may show it and draw a new hand, once.\par
\pard\plain\s0\ls1\ilvl1{\listtext\pard\plain b.\tab}A player who redraws keeps the second hand, whatever it holds.\par
\pard\plain\s0\ls1\ilvl0{\listtext\pard\plain 2.\tab}The player who most recently sailed goes first.\par
\pard\plain\s0\ls1\ilvl0{\listtext\pard\plain 3.\tab}Each player places their flagship in their home harbour.\par
\pard\plain\s1 Frequently Asked Questions\par
\pard\plain\s2 Movement\par
\pard\plain\s0{\b Q: Can a ship move through a harbour held by an opponent?}\par
\pard\plain\s0 A: No. A harbour held by an opponent blocks movement; the ship must stop in the sea zone before it.\par
\pard\plain\s0\b Q: Does a storm card end the movement of every ship in its zone?\b0\par
\pard\plain\s0 A: Yes, but only ships that entered the zone this turn. Ships that started the turn there may leave.{\footnote\pard\plain {\super\chftn} Storms are rare.}\par
\pard\plain\s2 Combat\par
\pard\plain\s0{\b Q: Are ties in a broadside resolved in favour of the defender?}\par
\pard\plain\s0 A: Yes. On a tie the attacker retreats one sea zone and the defender takes no damage.\par
\pard\plain\s0\par
\pard\plain\s1 Scoring\par
\pard\plain\s0 At the end of the game each player scores their delivered cargo:\par
\trowd\cellx3000\cellx6000
\pard\intbl Cargo\cell Points\cell\row
\trowd\cellx3000\cellx6000
\pard\intbl Spice\cell 3\cell\row
\trowd\cellx3000\cellx6000
\pard\intbl Silk\cell 2\cell\row
\trowd\cellx3000\cellx6000
\pard\intbl Timber\cell 1\cell\row
\pard\plain\s0\ls2{\listtext\pard\plain\f1 \'b7\tab}A player with no delivered cargo scores nothing, whatever their fleet holds.\par
\pard\plain\s0\ls2{\listtext\pard\plain\f1 \'b7\tab}Ties go to the player with more ships afloat.\par
}"""


@pytest.fixture(scope="module")
def harbor(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("rtf") / "harbor-lights-faq.rtf"
    path.write_text(WORD_RTF, encoding="ascii")
    return path


def test_an_rtf_reads_as_the_same_outline_as_the_same_document_in_html(harbor, tmp_path):
    page = tmp_path / "harbor-lights-faq.html"
    page.write_text(HTML_TWIN, encoding="utf-8")
    rtf, html = read(harbor), read(page)
    assert rtf.format == "rtf" and rtf.metadata["title"] == TITLE and rtf.file == harbor.read_bytes()
    assert rtf.text.text == html.text.text
    assert "\\" not in rtf.original and "Storms are rare" not in rtf.original and "page" not in rtf.original
    assert rtf.original.splitlines()[3:6] == [
        "1. Each player shuffles their fleet deck and draws seven cards.",
        "   a. A player whose hand holds no ship may show it and draw a new hand, once.",
        "   b. A player who redraws keeps the second hand, whatever it holds."]


def test_pandocs_rtf_lists_hanging_numbers_and_bold_lines_are_read(tmp_path):
    # fbkl's rules as pandoc writes RTF: "1.\tx360\tab" hanging items nested by their left indent, bold lines,
    # quotes as \u with a fallback character, a non-breaking space
    source = (r"{\rtf1\ansi\deff0{\fonttbl{\f0 \fswiss Helvetica;}}" "\n"
              r"{\pard \ql \f0 \sa180 \li0 \fi0 {\b 1. Summary}\par}" "\n"
              r"{\pard \ql \f0 \sa180 \li360 \fi-360 1.\tx360\tab League Configuration\par}" "\n"
              r"{\pard \ql \f0 \sa180 \li720 \fi-360 a.\tx360\tab FBKL is a 12-team league.\par}" "\n"
              r"{\pard \ql \f0 \sa180 \li720 \fi-360 b.\tx360\tab There is an annual Veteran Auction.\sa180\par}" "\n"
              r"{\pard \ql \f0 \sa180 \li360 \fi-360 2.\tx360\tab Scoring\par}" "\n"
              r"{\pard \ql \f0 \sa180 \li0 \fi0 \u8220\'93Contract\u8221\'94 refers to years\u160?kept.\par}" "\n}")
    path = tmp_path / "rules.rtf"
    path.write_text(source, encoding="ascii")
    document = read(path)
    assert document.original.splitlines() == ["1. Summary", "1. League Configuration",
                                              "   a. FBKL is a 12-team league.",
                                              "   b. There is an annual Veteran Auction.", "2. Scoring",
                                              "“Contract” refers to years kept."]
    assert document.text.text.startswith("1. Summary\n\n1. League Configuration\n   a. FBKL")


def test_rtf_is_recognised_by_its_opening_whatever_its_name(harbor, tmp_path):
    renamed = tmp_path / "house-rules.txt"
    shutil.copy(harbor, renamed)
    assert read(renamed).format == "rtf"


@pytest.mark.parametrize("source, limits, says", [
    (r"{\rtf1 " + "{" * 300 + "text" + "}" * 301, None, "RTF groups nested too deep: past the limit depth=200"),
    (r"{\rtf1 " + r"{\b x}\par " * 60 + "}", Limits(elements=50), "too many paragraphs and cells"),
    (r"{\rtf1{\fonttbl{\f0 Arial;}}}", None, "has no text"),
])
def test_a_crafted_or_empty_rtf_is_refused_naming_the_file(tmp_path, source, limits, says):
    path = tmp_path / "rules.rtf"
    path.write_text(source, encoding="ascii")
    with pytest.raises(IngestError) as refused:
        read(path, limits)
    assert str(path) in str(refused.value) and says in str(refused.value)


def test_rulings_add_an_rtf_cites_its_paragraphs(built_db, harbor, tmp_path):
    db = tmp_path / "rulings.db"
    add_house_rules(built_db, harbor, db)
    conn = sqlite3.connect(db)
    source = conn.execute("select id from sources where format = 'rtf'").fetchone()[0]
    assert conn.execute("select citation from rulings where source = ? and ref = 'HL Combat 1'",
                        [source]).fetchone() == (f"{TITLE}, paragraphs 16–17",)
