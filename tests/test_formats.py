"""Reading documents by format: markdown, HTML and Q/A data become the outline dialect, every character
mapped back into the source; the format is told by the extension, else by the content."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.errors import IngestError
from ingest.formats import FENCE, FORMATS, Outline, detect, html, markdown, read
from ingest.text import LineIndex

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
FIDE = CORPORA / "fide-laws-of-chess.md"
# What the outline dialect puts before a line's own text: indentation, heading, item and row markers.
_PREFIX = re.compile(r"^\s*(?:#+ |\d+\. |[a-z]+\. |- |[QA]: )?")


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def unmapped(doc) -> list[tuple[str, str]]:
    """(character, source character it maps to) wherever they differ, markers, code fences and table bars aside."""
    wrong = []
    position = 0
    for line in doc.text.text.split("\n"):
        start = len(line) if line.strip() == FENCE else _PREFIX.match(line).end()
        for index in range(start, len(line)):
            char = line[index]
            source = doc.original[doc.text.offsets[position + index]]
            if char.strip() and char != "|" and source != char:
                wrong.append((char, source))
        position += len(line) + 1
    return wrong


def section(text: str, heading: str) -> list[str]:
    """The lines under `heading` up to the next heading."""
    lines = text.split("\n")
    start = lines.index(heading) + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("#")), len(lines))
    return [line for line in lines[start:end] if line]


@pytest.fixture(scope="module")
def fide():
    if not FIDE.exists():
        pytest.skip(f"the FIDE laws are not in {CORPORA}")
    return read(FIDE)


# -- format detection -----------------------------------------------------------------------------------------

def test_the_extension_names_the_format(tmp_path):
    assert read(write(tmp_path, "a.md", "# Rules\n\nText.\n")).format == "markdown"
    assert read(write(tmp_path, "a.htm", "<p>Text.</p>")).format == "html"
    assert read(write(tmp_path, "a.json", '[{"q": "Why?", "a": "Because."}]')).format == "data"
    assert read(write(tmp_path, "a.txt", "1. A rule.\n")).format == "text"


def test_a_txt_file_is_read_by_what_its_content_is(tmp_path):
    markdown = "# Rules\n\n" + "".join(f"## Part {n}\n\nSee [rule {n}](#r{n}) and **note {n}**.\n\n" for n in range(4))
    html = "<html><body><h1>Rules</h1><p>One.</p></body></html>"
    assert read(write(tmp_path, "md.txt", markdown)).format == "markdown"
    assert read(write(tmp_path, "page.txt", html)).format == "html"
    assert read(write(tmp_path, "faq", '{"faq": [{"question": "Why?", "answer": "Because."}]}')).format == "data"
    assert read(write(tmp_path, "plain.txt", "GENERAL\n\n1. Roll the dice.\n2. Count the hits.\n")).format == "text"


def test_a_pdfs_tex_glyph_codes_are_read_as_the_letters_and_marks_they_stand_for(tmp_path):
    # pdftotext of a TeX PDF whose fonts map no glyph to Unicode: its ligatures, quotes and dashes are written as
    # their T1 codes, control characters. The words are the document's ("field", "Offside"), never "eld".
    lines = ["Law 11 \x15 O\x1bside", "The \x1celd of play is marked with \x1dags and e\x1eciently drawn lines.",
             "A goal is \x10scored\x11 when the ball crosses the line."] * 20
    document = read(write(tmp_path, "laws.txt", "\n".join(lines) + "\n"))
    assert document.original.startswith("Law 11 – Offside\nThe field of play is marked with flags and efficiently")
    assert "“scored”" in document.original and not any(ord(c) < 32 and c not in "\n\t\f" for c in document.original)


def test_a_md_file_without_any_markdown_is_read_as_the_text_it_is(tmp_path):
    # A page saved as text under a .md name: headings and rules a line each, no blank line between. Read as markdown
    # its lines would run into one paragraph, headings and all.
    text = ("Storm Phase\nThis is the first phase of the turn.\nSTORM MOVEMENT: Players dial a number from 1 to 3.\n"
            "STORM DESTRUCTION: Forces in the storm are destroyed.\nBidding Phase\nPlayers bid for cards.\n")
    document = read(write(tmp_path, "rules.md", text))
    assert document.format == "text" and document.text.text == text
    assert read(write(tmp_path, "marked.md", "# Storm Phase\n" + text)).format == "markdown"


def test_a_text_faq_of_q_and_a_lines_stays_text():
    faq = "Q: Can I move twice?\nA: No.\n\nQ: Can I attack twice?\nA: Only with Haste.\n"
    assert detect(faq) == "text"


def test_html_tags_in_quantity_make_html_without_a_doctype():
    page = "\n".join(f"<h2>Rule {n}</h2>\n<p>Text of rule {n}.</p>" for n in range(5))
    assert detect(page) == "html"
    assert detect("A rule about the <p> tag, mentioned once.\n") == "text"


def test_a_pdf_is_recognised_by_its_bytes_whatever_its_name(tmp_path):
    pypdf = pytest.importorskip("pypdf")
    writer = pypdf.PdfWriter()
    writer.add_blank_page(width=200, height=200)
    path = tmp_path / "scan.dat"
    with path.open("wb") as handle:
        writer.write(handle)
    with pytest.raises(IngestError, match="no text layer"):  # the PDF reader's verdict, not "binary file"
        read(path)


def test_each_suffix_names_one_format_and_every_reader_imports():
    suffixes = [suffix for found in FORMATS for suffix in found.suffixes]
    assert len(suffixes) == len(set(suffixes))
    assert FORMATS[-1].name == "text" and FORMATS[-1].reader is None  # what nothing else recognises
    for found in FORMATS[:-1]:
        assert callable(found.load()), found.name


def test_a_mixed_page_opening_as_html_is_html_though_it_shows_markdown():
    """An unmistakable opening (the first pass over the table) outweighs markup shown in quantity."""
    links = "".join(f"[rule {n}](#r{n}) **note {n}**\n" for n in range(6))
    assert detect("<!doctype html>\n" + links) == "html"
    assert detect(links) == "markdown"


def _zip_saying(path: Path, mimetype: str) -> Path:
    import zipfile
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), mimetype)
        archive.writestr("content.opf", "<package/>")
    return path


@pytest.mark.parametrize("name, make, what", [
    ("rules.epub", lambda path: _zip_saying(path, "application/epub+zip"), "an EPUB e-book"),
    ("slides.odp", lambda path: _zip_saying(path, "application/vnd.oasis.opendocument.presentation"),
     "OpenDocument slides (.odp)"),
    ("scores.xlsx", lambda path: path.write_bytes(b"PK\x03\x04[Content_Types].xml" + b"\0" * 100),
     "an Excel spreadsheet (.xlsx)"),
    ("rules.doc", lambda path: path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600),
     "an older Word file (.doc"),
    ("book", lambda path: _zip_saying(path, "application/epub+zip"), "an EPUB e-book"),  # by its bytes alone
    ("rules.txt", lambda path: path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 50), "a PNG image"),
    ("rules.dat", lambda path: path.write_bytes(b"\x01\x02\x00\x03" * 300), "a binary file"),
])
def test_a_binary_format_no_reader_reads_is_refused_naming_it_and_the_formats_read(tmp_path, name, make, what):
    path = tmp_path / name
    make(path)
    with pytest.raises(IngestError) as refused:
        read(path)
    message = str(refused.value)
    assert message.startswith(f"{path}: is {what}") and "not a text document" not in message
    assert "binary format rulings does not read" in message and "PDF (.pdf), Word document (.docx), OpenDocument " \
        "text (.odt), RTF document (.rtf)" in message


def test_program_source_is_refused(tmp_path):
    with pytest.raises(IngestError, match="program source"):
        read(write(tmp_path, "rules.js", "const rules = ['Roll the dice.'];\n"))


# -- markdown ---------------------------------------------------------------------------------------------------

def test_fide_article_two_keeps_counting_after_its_table(fide):
    items = [line for line in section(fide.text.text, "### Article 2: The initial position of the pieces on the "
                                                      "chessboard") if re.match(r"\d+\. ", line)]
    assert [item.split(" ")[0] for item in items] == ["1.", "2.", "3.", "4."]
    assert items[2].startswith("3. The initial position of the pieces on the chessboard is as follows")


def test_fide_headings_and_nested_lists(fide):
    lines = fide.text.text.split("\n")
    assert "## PREFACE" in lines
    assert "### Article 4: The act of moving the pieces" in lines
    article3 = section(fide.text.text, "### Article 3: The moves of the pieces")
    assert "7. Pawn moves" in article3
    assert any(line.startswith("   4. A pawn attacking a square crossed") for line in article3)
    assert "      2. with a rook that has already moved." in article3  # two levels deep


def test_a_rule_set_under_its_parent_without_a_blank_line_is_a_line_of_its_own(tmp_path):
    # Markdown joins the two lines into one paragraph; the document prints 3.A.1.a as a rule of its own.
    text = read(write(tmp_path, "rules.md", "# Rules\n\n3.A.1. Players may seek the perspective of others.\n"
                                            "3.A.1.a. Sideline players should not offer it unasked.\n"
                                            "Their view counts\n2.5 points of it.\n")).text.text
    assert "3.A.1. Players may seek the perspective of others.\n" in text
    assert "\n3.A.1.a. Sideline players should not offer it unasked. Their view counts 2.5 points of it." in text


def test_a_hard_wrapped_dump_in_markdown_keeps_its_rules_titles_and_bullets_on_lines_of_their_own(tmp_path):
    # A rulebook's text dump saved as markdown, the PDF's line breaks kept and no blank line between rules: markdown
    # reads it as one paragraph; the document prints a title line, rules numbered in parts with run-in titles (no
    # stop after the label) and bulleted items, each on a line of its own. A number in a wrapped sentence stays.
    text = read(write(tmp_path, "rules.md", "# Rules\n\n1.3 The Map\nThe map shows the spaces.\n"
                                            "1.3.1 Map Spaces. Map spaces include Provinces,\nCities and LoCs.\n"
                                            "• Provinces that would touch.\n• LoCs separated by Towns.\n"
                                            "Each costs\n2.5 points and\n1.3 more.\n")).text.text
    assert [line for line in text.split("\n") if line][1:] == [
        "1.3 The Map", "The map shows the spaces.", "1.3.1 Map Spaces. Map spaces include Provinces, Cities and LoCs.",
        "• Provinces that would touch.", "• LoCs separated by Towns. Each costs 2.5 points and 1.3 more."]


def test_fide_tables_are_rows_without_the_rule_line(fide):
    lines = fide.text.text.split("\n")
    assert "| Piece | Symbol |" in lines
    assert "| O-O | castling with rook h1 or rook h8 (kingside castling) |" in lines
    assert not any(re.match(r"\|\s*:?-{3,}", line) for line in lines)


def test_fide_text_has_no_markup_debris(fide):
    for debris in ("<a name", "![", "](", "**", "\\.", "<br", "images/"):
        assert debris not in fide.text.text


def test_fide_contents_list_is_metadata_not_text(fide):
    assert fide.metadata["title"] == "FIDE Laws of Chess"
    assert "Article 4: The act of moving the pieces" in fide.metadata["contents"]
    assert fide.text.text.count("Article 4: The act of moving the pieces") == 1  # the heading only


def test_a_contents_heading_over_its_links_alone_heads_no_section_and_a_front_matter_missing_its_opening_is_read(
        tmp_path):
    # A site's export lost the front matter's opening "---", and heads its contents with a setext heading: the
    # fields read as a heading, and every section of the rules sat under "Table of Contents".
    source = ("title: The Underwater Robot Challenge Rulebook\nversion: \"6.1.0\"\n---\n\nTable of Contents\n"
              "=================\n\n- [Objectives](#objectives)\n- [Tasks](#tasks)\n  - [Points](#points)\n\n"
              "## Objectives\n\nBuild a robot.\n\n## Tasks\n\n### Points\n\nEach gate scores 100 points.\n")
    doc = read(write(tmp_path, "robot-rules.md", source))
    assert doc.text.text == ("## Objectives\n\nBuild a robot.\n\n## Tasks\n\n### Points\n\n"
                             "Each gate scores 100 points.\n")
    assert doc.metadata == {"title": "The Underwater Robot Challenge Rulebook", "version": "6.1.0",
                            "contents": ["Objectives", "Tasks", "Points"]}
    # A contents heading over more than the links keeps them: its text is no contents alone.
    kept = read(write(tmp_path, "kept.md", "# Contents\n\n- [Tasks](#tasks)\n\nRead every task.\n\n## Tasks\n"))
    assert kept.text.text.startswith("# Contents\n")
    # Two lines over a rule of dashes that are no front matter stay a heading.
    assert read(write(tmp_path, "setext.md", "Game: Chess\nPlayers: 2\n---\n\nText.\n")).text.text.startswith(
        "## Game: Chess Players: 2\n")


def test_lettered_items_set_under_a_list_item_without_a_blank_line_stay_lines_of_their_own(tmp_path):
    # "2. In player order, each player resolves the following:" / "  a. The villain activates…" / "  b. Each minion…":
    # markdown knows no lettered list, joins the lines, and (a) and (b) were glued into item 2 (item 3's three letters
    # were split out of the text; one or two never were).
    source = ("1. Shots that strike garb do not count unless:\n   a. Said items blocked a blow.\n   b. The shot is "
              "Engulfing.\n2. A wounded arm's shot counts, as (a) below says, if it lands in time.\n")
    text = read(write(tmp_path, "combat.md", source)).text.text
    assert "unless:\n" in text and "\na. Said items blocked a blow.\n" in text.replace("   ", "")
    assert "counts, as (a) below says" in text  # a label inside a sentence's line is no item


def test_a_paragraph_of_links_within_the_page_and_their_separators_is_navigation(tmp_path):
    # A tournament page converted to markdown: "[INTRODUCTION](#INTRODUCTION) - [RULES](#RULES) - [SAMPLE GAME]…"
    # was a ruling of its own; links to other pages, or links among words, are text.
    source = ("# Tournament Rules\n\n[INTRODUCTION](#INTRODUCTION) - [RULES](#RULES) - [SAMPLE\nGAME](#SAMPLE) | "
              "[EPILOGUE](#EPILOGUE)\n\nSee [the rules](#RULES) before play.\n\n[Download](rules.pdf) - "
              "[Print](print.htm)\n")
    text = read(write(tmp_path, "tournament.md", source)).text.text
    assert "INTRODUCTION" not in text and "EPILOGUE" not in text
    assert "See the rules before play." in text and "Download - Print" in text


def test_a_bold_lettered_part_a_heads_its_text_as_b_does_and_a_bold_answer_stays_text(tmp_path):
    # A wargame's "**A. Mandated Offensive Phase**" read as an answer's "A." mark: glued into 6.0's text, while
    # "**B. Action Phase**" and the rest headed their phases.
    source = ("## 6.0 Sequence of Play\n\nPlay is in turns.\n\n**A. Mandated Offensive Phase**\n\nEach player rolls.\n\n"
              "**B. Action Phase**\n\nEach player acts.\n\n## FAQ\n\n**Q. Can I pass?**\n\n**A. Yes**\n\nThen play on.\n")
    text = read(write(tmp_path, "sequence.md", source)).text.text
    assert "### A. Mandated Offensive Phase\n" in text and "### B. Action Phase\n" in text
    assert "\nA. Yes\n" in text


def test_a_table_of_contents_in_groups_under_bold_labels_goes_whole(tmp_path):
    # An SRD's contents: "**Framework**" / links / "**Licensing**" / links: the labels were three rulings.
    source = ("# Liminal Horror\n\n## Table of Contents\n\n**Framework**\n\n- [Setting and Place](#setting)\n\n"
              "**Core Rules**\n\n- [Overview](#overview)\n\n## Setting and Place\n\nThe spaces matter.\n")
    doc = read(write(tmp_path, "liminal.md", source))
    assert "Framework" not in doc.text.text and "Core Rules" not in doc.text.text
    assert doc.metadata["contents"] == ["Setting and Place", "Overview"]


def test_a_hugo_sites_toml_front_matter_gives_the_title_and_is_no_text(tmp_path):
    # A wiki built with Hugo opens each page with "+++" / `title = "…"` / "+++": the block was a ruling of kind
    # title and the document was titled by its file's name.
    source = ('+++\ntitle = "Japanese mahjong"\nwiki_id = "50"\ntags = ["Game rules"]\n[params]\n  weight = 3\n'
              "+++\n\n### Furiten\n\nA player is furiten when a winning tile is in their discards.\n")
    doc = read(write(tmp_path, "riichi-wiki.md", source))
    assert doc.metadata["title"] == "Japanese mahjong"
    assert doc.text.text.strip() == "### Furiten\n\nA player is furiten when a winning tile is in their discards."


def test_a_contents_heading_over_a_list_a_site_generator_replaces_heads_nothing_and_its_markup_goes(tmp_path):
    # kramdown writes the contents as a placeholder list that `{:toc}` replaces, the heading marked `{: .no_toc}`:
    # every section of a quizbowl federation's rules sat under "Table of Contents", and the markup was text.
    source = ("# Table of Contents\n{: .no_toc}\n* A list which will be replaced with the ToC\n{:toc}\n\n"
              "## A. Definitions\n\n1. A tournament is a set of matches.\n")
    doc = read(write(tmp_path, "gameplay.md", source))
    assert doc.text.text == "## A. Definitions\n\n1. A tournament is a set of matches.\n"
    # A game's "Contents" is what is in its box: kept.
    box = read(write(tmp_path, "box.md", "## Contents\n\n- 1 game board\n- 60 cards\n\n## Setup\n\nDeal.\n"))
    assert "- 60 cards" in box.text.text


def test_fide_every_character_maps_to_its_source_character(fide):
    assert unmapped(fide) == []


def test_fide_items_cite_their_own_source_lines(fide):
    lines = LineIndex(fide.original)
    text = fide.text.text
    for phrase in ("The initial position of the pieces on the chessboard is as follows",
                   "The offer of a draw shall be marked as (=).",
                   "Chess960 allows each player to castle once per game"):
        at = text.index(phrase)
        assert lines.line_of(fide.text.offsets[at]) == lines.line_of(fide.original.index(phrase))


MARKDOWN = """---
title: Sample Rules
version: 2.1
---

- [Combat](#combat)
- [Notes](#notes)

**Effective 10/3/2023**

# Sample Rules

## 0\\. Combat

[cite_start]Roll <a name="r1"></a>*two* dice &amp; see [the table](https://x.org/t_(1)) ![die](d.png) [cite: 12].
Then count<br/>hits.

5. Fifth
6. Sixth
   - nested *bullet*
     1. deeper

Notes

1. Note one
"""


def test_markdown_markup_becomes_plain_outline_text(tmp_path):
    doc = read(write(tmp_path, "rules.md", MARKDOWN))
    assert doc.text.text == (
        "Effective 10/3/2023\n\n# Sample Rules\n\n## 0. Combat\n\n"
        "Roll two dice & see the table die. Then count hits.\n\n"  # an image in a sentence says its alternative text
        "5. Fifth\n6. Sixth\n   - nested bullet\n      1. deeper\n\nNotes\n\n1. Note one\n")
    assert doc.metadata == {"title": "Sample Rules", "version": "2.1", "contents": ["Combat", "Notes"]}



def test_headings_written_without_a_space_after_their_marks_are_headings_where_every_heading_is(tmp_path):
    # Python-Markdown and GitHub once read "##Section 1" as a heading; CommonMark reads a paragraph, and the
    # sections ran into each other.
    source = ("##Section 1: Administration\n\n#####1.1 Staff\n\nThe Director is Dragon.\n\n"
              "#####1.2 Disputes\nThe directors' decisions are final.\n\n```\n#include rules\n```\n")
    doc = read(write(tmp_path, "cup-rules.md", source))
    assert doc.text.text.startswith("## Section 1: Administration\n\n##### 1.1 Staff\n\nThe Director is Dragon.\n\n"
                                    "##### 1.2 Disputes\n\nThe directors' decisions are final.\n")
    staff = doc.text.text.index("1.1 Staff")
    assert source[doc.text.offsets[staff]:].startswith("1.1 Staff")  # mapped to the file's own line
    assert "#include rules" in doc.text.text  # code is left as written
    # One such line among headings written with a space is a paragraph, as CommonMark reads it.
    mixed = read(write(tmp_path, "mixed.md", "# Rules\n\n#1 priority is fun.\n"))
    assert "#1 priority is fun." in mixed.text.text

def test_an_admonitions_text_is_read_after_its_title_and_its_markers_are_no_text(tmp_path):
    # MkDocs' boxes ('!!! danger "Ban Penalty"' over text indented as CommonMark reads code) and Docusaurus' (":::tip
    # Timing" … ":::"): the box's text, titled by its title or its kind, with none of the markers
    source = ('# League Rules\n\n## 2.6 Playoffs\n\n!!! danger "Ban Penalty"\n    A team that forfeits twice is '
              'banned.\n\n    Bans last one season.\n\nPlayoffs have three rounds.\n\n??? note\n    Rounds are '
              'best of three.\n\n:::tip Timing\nMatches start at 8 pm.\n:::\n\nThe final is played on LAN.\n')
    doc = read(write(tmp_path, "league.md", source))
    text = doc.text.text
    assert "**" not in text and "!!!" not in text and "???" not in text and ":::" not in text
    assert "Ban Penalty A team that forfeits twice is banned.\n\nBans last one season.\n\nPlayoffs have three" in text
    assert "Note Rounds are best of three." in text and "Timing Matches start at 8 pm.\n\nThe final is played" in text
    assert source[doc.text.offsets[text.index("Bans last")]:].startswith("Bans last")  # mapped to the file


def test_markdown_characters_map_to_the_source_and_resolved_ones_to_their_escape(tmp_path):
    doc = read(write(tmp_path, "rules.md", MARKDOWN))
    assert unmapped(doc) == [(".", "\\")]  # the escaped dot maps to its backslash
    ampersand = doc.text.text.index("&")
    assert doc.original.startswith("&amp;", doc.text.offsets[ampersand])
    heading = doc.text.text.index("## 0. Combat")
    assert doc.text.offsets[heading] == doc.original.index("## 0\\. Combat")  # the marker maps to the heading


def test_an_empty_bold_a_conversion_left_is_a_space(tmp_path):
    doc = read(write(tmp_path, "rules.md", "Text.\n\n4. ** **Essential Terms\n\n4-1. Effect\n"))
    assert "4. Essential Terms" in " ".join(doc.text.text.split())
    at = doc.text.text.index("Essential")
    assert doc.original.startswith("Essential", doc.text.offsets[at])


# -- HTML -------------------------------------------------------------------------------------------------------

PAGE = """<!DOCTYPE html>
<html><head><title>Dragon &amp; Dice Rules</title><meta name="dcterms.date" content="2024-05-01">
<style>p { color: red }</style><script>document.write("<p>no</p>")</script></head>
<body>
<header><nav><a href="/">Home</a></nav><p>Site banner</p></header>
<main><article>
<header><h1>Dragon Rules</h1></header>
<h2>Combat</h2>
<p>Roll the dice &amp; count
   <b>hits</b>.<br>Then save&nbsp;&#8212; or don&rsquo;t.</p>
<ol start="3"><li>Third<ol type="a"><li>sub a</li><li>sub b</li></ol></li><li>Fourth</ol>
<ul><li><p>bullet</p></li></ul>
<table><tr><th>Roll</th><th>Result</th></tr><tr><td>1-2</td><td>Miss</td></tr></table>
<div hidden>secret</div><div role="navigation">menu</div><p style="display: none">gone</p>
</article></main>
<footer>Copyright 2024</footer>
</body></html>
"""


def test_html_becomes_outline_text_without_navigation_or_furniture(tmp_path):
    doc = read(write(tmp_path, "rules.html", PAGE))
    assert doc.text.text == (
        "# Dragon Rules\n\n## Combat\n\nRoll the dice & count hits. Then save — or don’t.\n\n"
        "3. Third\n   a. sub a\n   b. sub b\n4. Fourth\n- bullet\n\n| Roll | Result |\n| 1-2 | Miss |\n")
    assert doc.metadata == {"title": "Dragon & Dice Rules", "date": "2024-05-01"}


def test_html_characters_map_to_the_source_and_entities_to_the_entity(tmp_path):
    doc = read(write(tmp_path, "rules.html", PAGE))
    text, offsets = doc.text.text, doc.text.offsets
    assert unmapped(doc) == [("—", "&"), ("’", "&")]  # two entities; every other character is itself
    for char, entity in (("&", "&amp;"), ("—", "&#8212;"), ("’", "&rsquo;")):
        assert doc.original.startswith(entity, offsets[text.index(char)])
    assert doc.original.startswith("<li>Third", offsets[text.index("3. Third")])



def test_text_for_screen_readers_alone_and_a_bold_icon_are_no_text_or_heading(tmp_path):
    # A site's "return home" link: an arrow in bold, its name for screen readers only. It headed the rules.
    page = ('<body><div><a href="../"><span class="retbut"><b>⤦</b><span class="visually-hidden">Return home'
            '</span></span></a></div><p class="fs-1">How to play</p><h2>Terms</h2><p>A yaku is a scoring set.</p>'
            '<p>Press <span class="sr-only">the</span>Enter.</p></body>')
    text = read(write(tmp_path, "koikoi.html", page)).text.text
    assert "Return home" not in text and "# ⤦" not in text and "the" not in text.split()
    assert "How to play" in text and "## Terms" in text


def test_a_headings_permalink_mark_is_no_part_of_its_title(tmp_path):
    # Sphinx and MkDocs set a "¶" link after each heading's title: it went into every title, ref and link target.
    page = ('<h2>Ability<a class="headerlink" href="#ability">&para;</a><a href="#top">&uarr;</a></h2>'
            '<p>Related: Cost</p><h2>Cost<a class="anchor" href="#cost">#</a></h2><p>The fate cost.</p>')
    text = read(write(tmp_path, "reference.html", page)).text.text
    assert text == "## Ability\n\nRelated: Cost\n\n## Cost\n\nThe fate cost.\n"


def test_a_table_cell_spanning_rows_reads_in_each_row_it_spans(tmp_path):
    # A penalty table sets each card once beside the offences it covers: every offence after the first lost it.
    page = ("<table><tr><th>No.</th><th>Offence</th><th>1st</th><th>2nd</th></tr>"
            "<tr><td>1.1</td><td>Leaving the arena</td><td rowspan=\"3\">YELLOW</td><td rowspan=\"2\">RED</td></tr>"
            "<tr><td>1.2</td><td>Turning back</td></tr>"
            "<tr><td>1.3</td><td>Kicking</td><td>BLACK</td></tr>"
            "<tr><td>1.4</td><td>Delay</td><td>WARNING</td><td rowspan=\"99999999\">" + "long " * 60 + "</td></tr>"
            "<tr><td>1.5</td><td>Late</td><td>WARNING</td></tr></table>")
    doc = read(write(tmp_path, "penalties.html", page))
    rows = doc.text.text.splitlines()
    assert rows[2:4] == ["| 1.2 | Turning back | YELLOW | RED |", "| 1.3 | Kicking | YELLOW | BLACK |"]
    second = doc.text.text.index(rows[2]) + rows[2].index("YELLOW")
    assert doc.original.startswith("YELLOW", doc.text.offsets[second])  # mapped to the one cell it spans from
    assert rows[5] == "| 1.5 | Late | WARNING |"  # a long cell is read once, however many rows it spans


def test_a_table_laying_the_page_out_reads_as_the_pages_blocks(tmp_path):
    # Help authoring tools set the whole body in one table cell: 600 questions and 12 chapters were one table row
    # of 8,368 words, its headings lost. A table of figures beside it stays a table.
    page = ("<table><tr><td><h1>Rules</h1></td></tr></table>"
            "<table><tr><td><h1>Chapter A</h1><p>Is a Location adjacent to itself?</p><p>Yes.</p>"
            "<table><tr><td>Roll</td><td>Result</td></tr><tr><td>1</td><td>Miss</td></tr></table>"
            "</td></tr></table>")
    text = read(write(tmp_path, "rules.htm", page)).text.text
    assert text == ("# Rules\n\n# Chapter A\n\nIs a Location adjacent to itself?\n\nYes.\n\n"
                    "| Roll | Result |\n| 1 | Miss |\n")


def test_a_table_whose_header_cells_hold_headings_is_a_table_of_values(tmp_path):
    # A converted SRD sets its table's header cells as "<h5>": read as a layout table, the header became a section
    # over the rules after it and the modifiers ("+1", "+2") were lost.
    page = ("<p>Use the following table.</p><table><tr><td><h5>Desired Location</h5></td><td><h5>Modifier</h5></td>"
            "</tr><tr><td>Torso</td><td>+1</td></tr><tr><td>Head or limb</td><td>+2</td></tr></table>"
            "<p>Then make a combat test.</p>")
    text = read(write(tmp_path, "shots.html", page)).text.text
    assert text == ("Use the following table.\n\n| Desired Location | Modifier |\n| Torso | +1 |\n| Head or limb | +2 |\n\n"
                    "Then make a combat test.\n")


def test_a_line_set_bold_by_its_style_over_a_break_heads_its_text(tmp_path):
    # Word and help tools write bold as a style ("<span style='font-weight: bold'>"), and a question's cited rules
    # as a bold line over a <br>: each question ran into the one before, its rules "A.8" lost in the text.
    page = ("<h1>Chapter A</h1><p><span style='font-weight: bold;'>A.5 &amp; A7.52</span></p>"
            "<p>What is the total DRM?</p><p><span style='font-weight:700'>A.</span> +3.</p>"
            "<p><span style='font-weight: bold;'>A.8</span><br>Is a Location ADJACENT to itself?<br>"
            "<span style='font-weight: bold;'>A.</span> Yes.</p>")
    text = read(write(tmp_path, "qa.htm", page)).text.text
    assert text == ("# Chapter A\n\n## A.5 & A7.52\n\nWhat is the total DRM?\n\nA. +3.\n\n## A.8\n\n"
                    "Is a Location ADJACENT to itself? A. Yes.\n")


def test_an_mdx_page_is_markdown_without_its_code_and_its_components_tags(tmp_path):
    # A Docusaurus rules page: read as plain text, its front matter, a generator's comment and every component tag
    # ("<TalentRank rank={1}>", "</TalentRank>") were rulings of their own.
    source = ("---\nsidebar_position: 11\n---\n\nimport TalentCard from '@site/src/components/TalentCard';\n\n"
              "# Mysticism\n\n{/* GENERATED from talents.json — do not edit.\n   Edit the JSON. */}\n\n"
              "### Armor of the Faithful\n\n<TalentRank rank={1}>\n\nWhile you wear no armor, add 1 to your AV.\n\n"
              "</TalentRank>\n")
    doc = read(write(tmp_path, "mysticism.mdx", source))
    assert doc.format == "markdown"
    assert doc.text.text == "# Mysticism\n\n### Armor of the Faithful\n\nWhile you wear no armor, add 1 to your AV.\n"


def test_a_hand_made_page_in_a_table_reads_its_paragraphs_set_apart_by_two_breaks(tmp_path):
    # A club's rules page: one table cell of paragraphs set apart by "<br /><br />" was one ruling of 1,524 words.
    paragraphs = [f"Rule {n}: riders must carry lights and obey every traffic signal on the road. " * 3
                  for n in range(1, 5)]
    page = ("<table><tr><td><a href='/'>home</a></td><td><a href='/ride'>the ride</a></td></tr>"
            "<tr><td colspan='2'><span>" + "<br />\n<br />\n".join(paragraphs) + "</span></td></tr></table>")
    text = read(write(tmp_path, "rules.htm", page)).text.text
    assert text.split("\n\n")[-4:] == [p.strip() for p in paragraphs[:-1]] + [paragraphs[-1].strip() + "\n"]


def test_a_page_in_a_character_set_it_declares_reads_in_it(tmp_path):
    # An old Mac Word page declares "charset=macintosh": read as cp1252, "league’s" was "leagueÕs" in 31 rulings.
    page = "<html><head><meta http-equiv=Content-Type content='text/html; charset=macintosh'></head>" \
           "<body><p>The league’s season runs “all year”.</p></body></html>"
    path = tmp_path / "rules.htm"
    path.write_bytes(page.encode("mac_roman"))
    assert read(path).text.text == "The league’s season runs “all year”.\n"
    # a declared transform ("rot13", "base64") or a codec failing its own way ("idna") is passed over, never raised
    for declared in ("rot13", "base64", "idna", "no-such-charset"):
        path.write_bytes(f"<meta charset={declared}><p>Café rules.</p>".encode("cp1252"))
        assert read(path).text.text == "Café rules.\n", declared


@pytest.mark.parametrize("name, icons", [
    ("deck.md", 'six <img alt="0 Icon" src="0.png">, five ![-1 Icon](m1.png) and one <img alt=\'2X Icon\' src="2x.png">'),
    ("deck.html", 'six <img alt="0 Icon" src="0.png">, five <img alt="-1 Icon" src="m1.png"> and one '
                  '<img alt=\'2X Icon\' src="2x.png">'),
])
def test_an_icon_inside_a_sentence_says_its_alternative_text_and_a_picture_alone_says_nothing(tmp_path, name, icons):
    # A rulebook's attack modifier icons were dropped: "Each deck contains six , five , …" lost every value.
    picture = '![Board setup](board.png)' if name.endswith(".md") else '<p><img alt="Board setup" src="b.png"></p>'
    sentence = f"Each deck contains {icons}." if name.endswith(".md") else f"<p>Each deck contains {icons}.</p>"
    doc = read(write(tmp_path, name, f"{sentence}\n\n{picture}\n"))
    assert doc.text.text.strip() == "Each deck contains six 0 Icon, five -1 Icon and one 2X Icon."
    said = doc.text.text.index("-1 Icon")
    assert doc.original[doc.text.offsets[said]:doc.text.offsets[said + 6] + 1] == "-1 Icon"


def test_a_contents_of_parts_and_lists_that_print_their_pages_is_left_out_to_the_text(tmp_path):
    # A rulebook's markdown contents: "## Scenario Phase [p.7](#page_7)" over lists of "Loot Deck [p.16](#page_16)",
    # read as 120 rulings cited "3.3.3.1" under "Table Of Contents > …".
    page = ("# Rule Book\n\n# Table Of Contents\n\n## Getting Started [p.3](#page_3)\n1. Creating a Character "
            "[p.4](#page_4)\n\n## Scenario Phase [p.7](#page_7)\n### Beginning a Scenario [p.8](#page_8)\n"
            "1. Scenario Entries [p.10](#page_10)\n    1. Loot Deck [p.16](#page_16)\n\n"
            "<p align=\"right\">3</p>\n\n# Getting Started\n\nKeep the outpost safe.\n")
    doc = read(write(tmp_path, "rules.md", page))
    assert doc.text.text.startswith("# Rule Book\n\n") and "p.7" not in doc.text.text and "Loot" not in doc.text.text
    assert doc.text.text.endswith("# Getting Started\n\nKeep the outpost safe.\n")
    assert doc.metadata["contents"] == ["Creating a Character", "Scenario Entries", "Loot Deck"]


def test_a_pictures_caption_is_no_text_of_the_rules(tmp_path):
    # A competition's built rulebook: 18 captions ("Picture of the Arena from 2017 Competition.") were rulings.
    page = ("<h2>The Arena</h2><p>The arena is a pool 25 m long.</p><figure><img src='a.jpg'><figcaption>The pool in "
            "2017.</figcaption></figure><div class='img-container'><img src='b.jpg'></div><p class='image-caption'>"
            "Picture of the Arena.</p><p>Teams may not enter the water.</p>")
    assert read(write(tmp_path, "rules.html", page)).text.text == (
        "## The Arena\n\nThe arena is a pool 25 m long.\n\nTeams may not enter the water.\n")


def test_a_link_back_to_the_top_and_a_pages_number_in_bold_are_no_text_or_heading(tmp_path):
    # A comprehensive rules page ends each heading and title with "<a href='#toc'>Top</a>" (in 210 of its lines);
    # a converted rulebook marks each page's end with "🔝" (back to page 1) and the page's number in bold, which
    # headed the sections after it ("Creating a Character > 🔝 5").
    page = ("<h3>100. Overview <a href='#toc'>Top</a></h3><ul><li>101. General <a href='#100'>Top</a></li></ul>"
            "<p>Keep the outpost safe.</p><p><strong><a href='#page_1'>🔝</a>&nbsp; <a name='page_5'>5</a></strong>"
            "</p><p>Each player draws a card.</p>")
    assert read(write(tmp_path, "rules.html", page)).text.text == (
        "### 100. Overview\n\n- 101. General\n\nKeep the outpost safe.\n\n5\n\nEach player draws a card.\n")


def test_a_fragments_one_heading_over_its_text_titles_it_and_a_list_after_a_numbered_paragraph_is_its_own(tmp_path):
    # A billiards body's rules as a page fragment: its title an <h3> (titled by the file's name before), each rule a
    # "<p><strong>3. Mode of Play</strong>" with its lettered list (CSS letters) after it: the list's "1.", "2."
    # were read as rules 1 and 2 again ("2.3 #2"). Two parts of one level title nothing.
    page = ("<div><h3>WPBSA Snooker Game Rules</h3><p><strong>3. Mode of Play</strong> Players draw lots.</p>"
            "<ol class='alpha-list'><li>The order stays unaltered.</li><li>Sides alternate.</li></ol>"
            "<p><strong>4. End of Frame</strong></p></div>")
    doc = read(write(tmp_path, "snooker.html", page))
    assert doc.metadata["title"] == "WPBSA Snooker Game Rules"
    assert "\n   1. The order stays unaltered.\n   2. Sides alternate.\n" in doc.text.text
    parts = "<h2>General</h2><p>Dues are paid in January.</p><h2>Games</h2><p>Games start at nine.</p>"
    assert "title" not in read(write(tmp_path, "league.html", parts)).metadata


def test_a_word_processors_title_paragraph_titles_the_page(tmp_path):
    # A Google Docs export sets its title as "<p class='title'>" and has no <title>: the rules were titled by their
    # glossary's <h1> at the end ("Weiss Schwarz – Lexique"). A paragraph styled "title" past the page's first
    # text titles nothing.
    page = ("<body><p class='c15 title'><span>Weiss Schwarz - Règles FR</span></p><h2>Source</h2><p>Trial deck.</p>"
            "<p class='title'>Cartes</p><h1>Lexique</h1><p>Deck : Deck</p></body>")
    doc = read(write(tmp_path, "regle.html", page))
    assert doc.metadata["title"] == "Weiss Schwarz - Règles FR"
    assert doc.text.text.startswith("# Weiss Schwarz - Règles FR\n\n## Source\n")


def test_a_page_that_never_closes_its_head_reads_its_body(tmp_path):
    # HTML lets a page leave "</head>" out; read as still in the head, a rules chapter gave no rulings at all.
    page = ("<!DOCTYPE html><html><head><meta charset='UTF-8'><title>Seeker • Exploration</title>"
            "<style>p { margin: 0 }</style>\n<body><h1>Exploration</h1><p>Each Seeker takes one role.</p></body></html>")
    doc = read(write(tmp_path, "exploration.html", page))
    assert doc.text.text == "# Exploration\n\nEach Seeker takes one role.\n"
    assert doc.metadata["title"] == "Seeker • Exploration"


def test_a_dropped_paragraph_left_open_ends_where_html_ends_it(tmp_path):
    # A site template leaves its breadcrumbs' "<p>" unclosed before the page's "<h1>": read as open to the page's end,
    # the whole rulebook went with the breadcrumbs, one ruling left ("@extends(…)").
    page = ("<div class='hero'><p class='breadcrumbs'><h1>Siege Rules</h1></div><p>Teams field five players.</p>"
            "<p>Each map is played once.</p>")
    doc = read(write(tmp_path, "siege.html", page))
    assert doc.text.text == "# Siege Rules\n\nTeams field five players.\n\nEach map is played once.\n"


def test_a_heading_alone_in_a_numbered_list_item_carries_the_items_number(tmp_path):
    # A Word export numbers its chapters by one-item lists ("<ol start="2"><li><h3>Game settings</h3>"): the number
    # came out on a line of its own after the heading, the chapter cited by no number.
    page = ("<ol start='2'><li><h3>Game settings</h3></li></ol><p>Matches use these settings.</p>"
            "<ol start='3'><li><h3>Match length</h3></li></ol><p>Matches are best of one.</p>")
    doc = read(write(tmp_path, "settings.html", page))
    assert doc.text.text == ("### 2. Game settings\n\nMatches use these settings.\n\n### 3. Match length\n\n"
                             "Matches are best of one.\n")


def test_a_saved_wiki_page_keeps_its_article_without_the_wikis_chrome_or_name(tmp_path):
    # A MediaWiki page saved from a browser: "From HexWiki", "Jump to: navigation, search", "Retrieved from…" and
    # "Category: Other games" were rulings, and the title was "Bridg-It - HexWiki".
    page = ("<html><head><title>Bridg-It - HexWiki</title></head><body><h1 id='firstHeading'>Bridg-It</h1>"
            "<div id='bodyContent'><div id='siteSub'>From HexWiki</div><div id='jump-to-nav' class='mw-jump'>Jump "
            "to: <a href='#n'>navigation</a>, <a href='#s'>search</a></div><p>Bridg-It is a connection game.</p>"
            "<h2><span class='mw-headline'>Rules</span><span class='mw-editsection'>[edit]</span></h2>"
            "<p>The game is played on a square board.</p><div class='printfooter'>Retrieved from "
            "\"http://www.hexwiki.net/Bridg-It\"</div><div id='catlinks' class='catlinks'>Category: Other games</div>"
            "</div></body></html>")
    doc = read(write(tmp_path, "bridgit.html", page))
    assert doc.text.text == ("# Bridg-It\n\nBridg-It is a connection game.\n\n## Rules\n\n"
                             "The game is played on a square board.\n")
    assert doc.metadata["title"] == "Bridg-It"


def test_an_underlined_line_over_its_text_heads_it_as_a_bold_one_does(tmp_path):
    # A game's page underlines its sub-headings ("<u>The first pillar: the basic mechanism</u><br>"): each ran into
    # the text under it, one unit of 1,339 words.
    page = ("<h1>Mu velox</h1><p><u>The first pillar: the basic mechanism</u><br>The basic mechanism goes back to "
            "Focus.<br><br><u>Growth</u><br>A column explodes when its height passes its capacity.</p>")
    text = read(write(tmp_path, "mu.html", page)).text.text
    assert text == ("# Mu velox\n\n## The first pillar: the basic mechanism\n\nThe basic mechanism goes back to "
                    "Focus.\n\n## Growth\n\nA column explodes when its height passes its capacity.\n")


def test_a_code_block_stands_between_fence_lines_each_of_its_lines_mapped(tmp_path):
    doc = read(write(tmp_path, "cases.html", "<p>Orders:</p>\n<pre>\nEngland:\nF North Sea - Picardy\n</pre>\n"
                                               "<p>Order should fail.</p>"))
    assert doc.text.text == "Orders:\n\n```\nEngland:\nF North Sea - Picardy\n```\n\nOrder should fail.\n"
    assert unmapped(doc) == []
    fenced = read(write(tmp_path, "decklist.md", "Decklist:\n\n```\n# Main deck\n4 Bolt\n```\n"))
    assert fenced.text.text == "Decklist:\n\n```\n# Main deck\n4 Bolt\n```\n"


def test_a_headings_number_only_in_its_anchor_is_written_with_it_mapped_to_the_anchor(tmp_path):
    source = '<h4 id="8.3.5">Intimidate</h4><h4><a name="6.A.1">6.A.1. TEST CASE</a></h4><h4 id="go-again">Go</h4>'
    doc = read(write(tmp_path, "rules.html", source))
    assert doc.text.text == "#### 8.3.5 Intimidate\n\n#### 6.A.1. TEST CASE\n\n#### Go\n"
    assert doc.original.startswith('8.3.5">', doc.text.offsets[doc.text.text.index("8.3.5")])


def test_footnote_marks_and_back_links_go_and_each_note_is_labelled(tmp_path):
    source = ('<p>The FAQ wins.<sup><a href="#fn1" id="r1">1</a></sup> Later answers win.<sup>2</sup></p>'
              '<p>Reach the 1<sup>st</sup> hex.</p><ol class="footnotes"><li id="fn1">Not scenario rules. '
              '<a href="#r1">&#8617;</a></li></ol><p><small><sup>2</sup> Unless retracted.</small></p>'
              '<p><small>3. Small print.</small></p><p><small>Revised 2023.</small></p>')
    doc = read(write(tmp_path, "faq.html", source))
    assert doc.text.text == ("The FAQ wins. Later answers win.\n\nReach the 1st hex.\n\n[^1]: Not scenario rules.\n\n"
                             "[^2]: Unless retracted.\n\n[^3]: Small print.\n\nRevised 2023.\n")
    aside = '<aside class="footnotes"><ol><li>x</li></ol></aside><ol><li>Rule.</li></ol>'
    dropped = read(write(tmp_path, "aside.html", aside))
    assert dropped.text.text == "1. Rule.\n"  # a list after dropped notes is no note
    markdown = read(write(tmp_path, "rules.md", "A judge decides.[^1]\n\n[^1]: Any staff member.\n"))
    assert markdown.text.text == "A judge decides.\n\n[^1]: Any staff member.\n"


def test_a_bold_paragraph_over_body_text_is_a_heading_one_level_down(tmp_path):
    source = ("## Turn\n\n**Late Arrival**\n\nA late player loses.\n\n**Effective 2024**\n\n## Next\n\n"
              "**Q: Can I pass?**\n\nNo.\n\n**Rulings are final.**\n\nAsk a judge.\n")
    assert read(write(tmp_path, "rules.md", source)).text.text == (
        "## Turn\n\n### Late Arrival\n\nA late player loses.\n\nEffective 2024\n\n## Next\n\nQ: Can I pass?\n\nNo.\n\n"
        "Rulings are final.\n\nAsk a judge.\n")
    html = "<h2>Movement</h2><p><b>Can a unit retreat twice?</b></p><p>No.</p><p><b>54.</b> Why?</p><p>Because.</p>"
    assert read(write(tmp_path, "faq.html", html)).text.text == (
        "## Movement\n\n### Can a unit retreat twice?\n\nNo.\n\n54. Why?\n\nBecause.\n")

def test_a_bold_first_line_names_the_text_under_it_as_a_bold_paragraph_does(tmp_path):
    source = ("## Features\n\n**Debt**\nSomeone owes you something.\n\n**Cost:** 1 Boon\nper bonus.\n\n"
              "**Race Format:**\nSessions are on Thursdays.\n\n**Ability**\n: Anything you can apply.\n")
    assert read(write(tmp_path, "rules.md", source)).text.text == (
        "## Features\n\n### Debt\n\nSomeone owes you something.\n\nCost: 1 Boon per bonus.\n\n"
        "Race Format: Sessions are on Thursdays.\n\n### Ability\n\nAnything you can apply.\n")


def test_a_bold_entry_among_entries_opening_alike_is_one_of_them_not_a_heading(tmp_path):
    source = ('## Stratagems\n\nList 3: "Rathamasaula"\n\nList 10: "Anti-elephant wagons"\n\n'
              '**List 10: "Incendiary pigs"**\n\nList 31: "Incendiary pigs"\n')
    assert read(write(tmp_path, "faq.md", source)).text.text == (
        '## Stratagems\n\nList 3: "Rathamasaula"\n\nList 10: "Anti-elephant wagons"\n\nList 10: "Incendiary pigs"\n\n'
        'List 31: "Incendiary pigs"\n')


def test_a_site_generators_theme_chrome_is_no_text(tmp_path):
    html = ('<div class="navbar fixed-top"><a href="/">OpenWG</a><a href="#">Search</a></div>'
            '<div class="bs-sidebar"><ul><li><a href="#turn">Turn structure</a></li></ul></div>'
            '<div class="body"><h1>Turn structure<a class="headerlink" href="#turn">¶</a></h1>'
            '<p>A turn has four phases.</p></div><div class="related"><a href="/next">next</a></div>'
            '<div class="footer">©2023, J. P. | Powered by Sphinx 9.0.4</div>')
    assert read(write(tmp_path, "rules.html", html)).text.text == "# Turn structure\n\nA turn has four phases.\n"


def test_an_articles_asides_are_its_boxed_rules_and_a_pages_aside_its_sidebar(tmp_path):
    html = ('<aside><a href="/">Home</a> <a href="/faq">FAQ</a></aside><article><h3>1.5 Lords</h3>'
            '<p>Lords share Assets.</p><aside class="important"><b>Important—</b>Lords never trade.</aside>'
            '<aside class="option"><h4>Hidden Mats Option</h4><p>Players may hide their mats.</p></aside>'
            '<h3>1.6 Vassals</h3><p>Vassals serve.</p></article>')
    assert read(write(tmp_path, "rules.html", html)).text.text == (
        "### 1.5 Lords\n\nLords share Assets.\n\nImportant—Lords never trade.\n\n#### Hidden Mats Option\n\n"
        "Players may hide their mats.\n\n### 1.6 Vassals\n\nVassals serve.\n")  # a box's title heads its text


def test_labelled_lines_a_markdown_list_item_runs_on_over_are_lines_of_their_own(tmp_path):
    # "1.1." is no list marker, so markdown joins the lines to the item; the document numbers each
    source = ("1. General\n   1.1. All members are participants.\n   1.2 Acceptance of the rules\n"
              "   1.2.1. By taking part, each\n   competitor accepts these rules.\n")
    assert read(write(tmp_path, "rules.md", source)).text.text == (
        "1. General\n   1.1. All members are participants.\n   1.2 Acceptance of the rules\n"
        "   1.2.1. By taking part, each competitor accepts these rules.\n")


def test_a_question_and_its_answer_labelled_in_one_markdown_paragraph_are_lines_of_their_own(tmp_path):
    source = "[FAQ]\n*Question*: Does cover apply (e.g. **Blast**)?\n*Answer*: Yes.\n"
    assert read(write(tmp_path, "faq.md", source)).text.text == (
        "[FAQ]\n\nQuestion: Does cover apply (e.g. Blast)?\n\nAnswer: Yes.\n")


def test_a_definition_lists_term_and_its_definitions_are_one_line_term_colon_definition(tmp_path):
    # Nevsky's "Key Terms and Index": unclosed <dt>/<dd>, a definition's link and paragraphs inside it
    html = ("<h2>Key Terms and Index</h2><dl>\n<dt>40-Days<dd>Calendar box, a turn (<a href='#1.3.2'>1.3.2</a>).\n"
            "<dt>Active<dd>Acting on Campaign (4.0)\n<dt>Arts of War</dt> <dd><p>card, deck</p><p>3.1</p></dd>"
            "<dd>Event</dd></dl><p>After the list.</p><dl><dd>A definition without its term.</dd></dl>"
            "<dl><dt>Anglo-Allied:<dd>Coalition forces.</dl>")
    doc = read(write(tmp_path, "rules.html", html))
    assert doc.text.text == (
        "## Key Terms and Index\n\n40-Days: Calendar box, a turn (1.3.2).\n\nActive: Acting on Campaign (4.0)\n\n"
        "Arts of War: card, deck 3.1 Event\n\nAfter the list.\n\nA definition without its term.\n\n"
        "Anglo-Allied: Coalition forces.\n")  # a term closed by its own colon takes none more
    assert unmapped(doc) == [(":", "<")] * 3  # the ": " stands for the <dd> it opens


def test_a_definition_list_of_bold_terms_reads_as_markdowns_definition_list(tmp_path):
    # QuestWorlds' glossary as HTML (<dt><strong>Ability</strong>) and as markdown ("**Ability**" / ": …") read alike
    html = ("<h1>Rules</h1><h2>10.1 Glossary of Terms</h2><dl><dt><strong>Ability</strong></dt><dd>Anything you can "
            "apply.</dd><dt><strong>Advance</strong></dt><dd>A package of improvements.</dd></dl>")
    source = ("# Rules\n\n## 10.1 Glossary of Terms\n\n**Ability**\n: Anything you can apply.\n\n**Advance**\n"
              ": A package of improvements.\n")
    assert read(write(tmp_path, "rules.html", html)).text.text == read(write(tmp_path, "rules.md", source)).text.text \
        == ("# Rules\n\n## 10.1 Glossary of Terms\n\n### Ability\n\nAnything you can apply.\n\n### Advance\n\n"
            "A package of improvements.\n")


def test_a_list_left_open_in_a_box_ends_with_the_box(tmp_path):
    # Nevsky 1.5.1's hidden-mats option: "<aside><ul><li>…</aside>", the rest of the rulebook indented under it
    html = ("<article><h3>1.5 Lords</h3><aside><h4>Hidden Mats Option</h4><ul><li>Declare hidden Assets.<li>Reveal "
            "Capabilities.</aside><p>ITEMS ON MATS: place his Forces.</p></article>")
    assert read(write(tmp_path, "rules.html", html)).text.text == (
        "### 1.5 Lords\n\n#### Hidden Mats Option\n\n- Declare hidden Assets.\n- Reveal Capabilities.\n\n"
        "ITEMS ON MATS: place his Forces.\n")


def test_struck_out_text_is_what_a_revision_removed_and_no_rule(tmp_path):
    html = "<h2>Passing</h2><p>Add 1 for each friendly <s>unit</s><mark>Corps</mark> not in <del>a</del> an enemy ZoC.</p>"
    assert read(write(tmp_path, "rules.html", html)).text.text == (
        "## Passing\n\nAdd 1 for each friendly Corps not in an enemy ZoC.\n")
    source = "## Passing\n\nAdd 1 for each friendly ~~unit~~ Corps not in an enemy ZoC.\n"
    assert read(write(tmp_path, "rules.md", source)).text.text == (
        "## Passing\n\nAdd 1 for each friendly Corps not in an enemy ZoC.\n")


# -- structured data --------------------------------------------------------------------------------------------

def test_json_question_answer_records_become_q_and_a_under_sections(tmp_path):
    records = {"title": "Dragon FAQ", "version": "1.2", "faq": [
        {"section": "Combat", "question": "Can I \"double\" attack?", "answer": "No.\nNever."},
        {"section": "Combat", "q": "Second?", "a": "Yes."},
        {"card": "Elsa", "question": "Freeze?", "answer": "Caf\u00e9 rules."}]}
    doc = read(write(tmp_path, "faq.json", json.dumps(records, indent=2)))
    assert doc.format == "data"
    assert doc.text.text == ('## Combat\n\nQ: Can I "double" attack?\nA: No. Never.\nQ: Second?\nA: Yes.\n\n'
                             "## Elsa\n\nQ: Freeze?\nA: Café rules.\n")
    assert doc.metadata == {"title": "Dragon FAQ", "version": "1.2"}
    at = doc.text.text.index("Freeze?")
    assert doc.original[doc.text.offsets[at]:doc.text.offsets[at] + 7] == "Freeze?"
    accent = doc.text.text.index("é")
    assert doc.original.startswith("\\u00e9", doc.text.offsets[accent])  # json.dumps escaped it


def test_json_without_question_answer_fields_is_refused_saying_what_to_do(tmp_path):
    path = write(tmp_path, "rules.json", json.dumps({"rules": [{"id": 1, "text": "Roll the dice."}]}))
    with pytest.raises(IngestError, match="no question/answer fields") as error:
        read(path)
    assert str(path) in str(error.value)
    assert '{"question", "answer"}' in str(error.value)


def test_invalid_json_is_refused_with_its_line(tmp_path):
    with pytest.raises(IngestError, match="invalid JSON") as error:
        read(write(tmp_path, "faq.json", '[\n{"question": "Why?",\n "answer": }\n]'))
    assert error.value.line == 3


def test_yaml_question_answer_records_are_read_grouped_by_section(tmp_path):
    pytest.importorskip("yaml")
    faq = ("title: Set notes\nElsa - Snow Queen:\n  - question: Can Freeze target\n      a ready character?\n"
           "    answer: >\n      Yes, it exerts\n      the character.\n")
    doc = read(write(tmp_path, "notes.yaml", faq))
    assert doc.text.text == ("## Elsa - Snow Queen\n\nQ: Can Freeze target a ready character?\n"
                             "A: Yes, it exerts the character.\n")
    assert unmapped(doc) == []


def test_yaml_without_question_answer_fields_is_refused(tmp_path):
    pytest.importorskip("yaml")
    with pytest.raises(IngestError, match="this YAML has no question/answer fields"):
        read(write(tmp_path, "config.yml", "rules:\n  - Roll the dice.\n  - Count the hits.\n"))


# -- robustness -------------------------------------------------------------------------------------------------

FRAGMENTS = ["Roll", " ", "\n", "\n\n", "1. ", "- ", "# ", "*", "**", "_", "`", "\\", "[", "]", "(", ")", "![x](y)",
             "[a](#b)", "&amp;", "&#x27;", "&", "<", ">", "<p>", "</p>", "<li>", "<ol start=3>", "</ol>", "<table>",
             "<tr>", "<td>", "</table>", "<br>", "<pre>", "</pre>", "<!--", "-->", "<![x]>", "<script>", "<nav>",
             "</nav>", "<div hidden>", "</div>", "| a | b |\n|---|---|\n", "```\n", "    ", "\t", "> ",
             "---\ntitle: x\n---\n", "##Rules\n", "version: 2\n", "---\n", "- [Setup](#setup)\n",
             "<td rowspan=\"3\">", "</td>", "</tr>", "<a href=\"#x\">&para;</a>", "<span class=\"sr-only\">"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join))
def test_markdown_and_html_readers_never_fail_and_map_inside_the_source(source):
    for reader in (markdown.read, html.read):
        out = Outline()
        reader(source, out)
        text = out.mapped(len(source))
        assert len(text.offsets) == len(text.text) + 1
        assert all(0 <= offset <= len(source) for offset in text.offsets)


def test_a_template_engines_tags_left_in_a_saved_page_are_no_text(tmp_path):
    page = ("{% extends 'layout.html.twig' %}\n{% block body %}\n<h1>Quarry Rules</h1>\n<p>Each player takes five "
            "stones.</p>\n<p>{{ footer }}</p>\n{% endblock %}\n")
    (tmp_path / "rules.html").write_text(page, encoding="utf-8")
    text = read(tmp_path / "rules.html").text.text
    assert "Each player takes five stones." in text and "{" not in text


def test_a_blockquoted_sidebars_headings_sit_under_the_section_it_stands_in(tmp_path):
    # "> ##### Using Attributes…" boxed inside "##### Determine Attribute…" is part of it, not its sibling; the
    # next heading of the document's own level closes both.
    path = tmp_path / "combat.md"
    path.write_text("# Combat\n\n#### Make an Attack\n\n##### Determine Attribute\n\nEvery attack is a roll.\n\n"
                    "> ##### Using Attributes\n>\n> Combat is a swirl of action rolls.\n\n##### Choose Your Target\n\n"
                    "The range depends on the attack.\n", encoding="utf-8")
    text = read(path).text.text
    assert "###### Using Attributes" in text and "##### Choose Your Target" in text


def test_a_pages_table_of_contents_is_no_text_of_its_rules(tmp_path):
    # kramdown marks its contents (`<ul id="markdown-toc">` under `<h1 id="table-of-contents">`), pandoc wraps them
    # in `<div id="TOC">`; another page heads a plain list of links with a contents heading: every section of the
    # rules sat under "Table of Contents", its entries a ruling.
    links = "<li><a href='#a'>A. Definitions</a></li><li><a href='#b'>B. Equipment</a></li>"
    heading = "<h1 id='table-of-contents'>Table of Contents</h1>"
    for contents in (heading.replace("<h1", "<h1 class='no_toc'") + f"<ul id='markdown-toc'>{links}</ul>",
                     f"<div id='TOC'><ul>{links}</ul></div>", f"{heading}<ul>{links}</ul>"):
        page = (f"<html><body>{contents}<h2 id='a'>A. Definitions</h2><p>A tournament is a set of matches.</p>"
                "<h2 id='b'>B. Equipment</h2><ul><li>Buzzers.</li></ul></body></html>")
        text = read(write(tmp_path, "gameplay.html", page)).text.text
        assert "Contents" not in text and text.count("A. Definitions") == 1 and "Buzzers." in text


def test_a_sections_own_list_of_links_to_its_headings_is_no_text_of_its_rules(tmp_path):
    # A rules site opens each section with a list of links to the section's own headings: eight rulings of link
    # titles ("Characteristics 1" = "- Characteristics and Modifiers / - Maximum…"), one typed a question ("Who
    # Can Measure When?"). Links a sentence introduces stay the rules' text.
    page = ("<h3 id='c'>Characteristics</h3><ul><li><a href='#cam'>Characteristics and Modifiers</a></li>"
            "<li><a href='#max'>Maximum Values</a></li></ul><h4 id='cam'>Characteristics and Modifiers</h4>"
            "<p>A model has characteristics.</p><h4 id='max'>Maximum Values</h4><p>No value exceeds 10.</p>"
            "<p>The following formats are sanctioned:</p><ul><li><a href='#s'>Sealed</a></li>"
            "<li><a href='#d'>Draft</a></li></ul><h4 id='s'>Sealed</h4><p>Open boosters.</p>")
    text = read(write(tmp_path, "rules.html", page)).text.text
    assert text.count("Characteristics and Modifiers") == 1 and text.count("Maximum Values") == 1
    assert "- Sealed" in text and "- Draft" in text


def test_a_list_items_text_written_as_raw_html_is_the_items_text(tmp_path):
    # A federation's rules set their online-only items in a styled paragraph: each ran into the item before it
    # ("Each team has a table. 1. Online, …") and the item after it took its number again.
    source = ("## B. Equipment\n\n1. Each room has a buzzer.\n2. Each team has a table.\n"
              "    1. <p class=\"online-rule\">Online, each player needs a device.</p>\n"
              "    2. Devices must be charged.\n")
    text = read(write(tmp_path, "rules.md", source)).text.text
    assert "   1. Online, each player needs a device.\n   2. Devices must be charged.\n" in text


def test_a_list_after_a_passage_of_its_own_counts_from_its_own_one(tmp_path):
    # Steps "1."–"2.", then two paragraphs ("This repeats…", "For example…") and an example's steps "1."–"2.": the
    # example's steps were numbered 3 and 4, numbers the document prints nowhere.
    source = ("## Epic Events\n\n1. The GM draws a card.\n2. Players volunteer.\n\nThis repeats for each card.\n\n"
              "For example, a cavern shakes.\n\n1. The GM reveals a 4 of Hearts.\n2. Xena volunteers.\n")
    text = read(write(tmp_path, "rules.md", source)).text.text
    assert "\n1. The GM reveals a 4 of Hearts.\n2. Xena volunteers." in text
    # One note between two halves of a list (or a table and the paragraph introducing it) leaves the numbering going
    # on, as the document's own numbers do (FIDE's 2.3 after its table of pieces).
    broken = "1. Shuffle.\n2. Deal.\n\nA note on dealing.\n\n1. Play.\n"
    assert "\n3. Play." in read(write(tmp_path, "broken.md", broken)).text.text


def test_a_short_bold_name_closed_by_a_stop_or_a_colon_heads_what_follows(tmp_path):
    # A Word rulebook with no heading styles, its parts named in bold: "Dwarf cards." and "Setting up:" were read as
    # text, the setup's rules filed under the document's title; a bold sentence stays text.
    source = ("## Setup\n\n**Setting up the mine:**\n\nPlace the start card.\n\n**Dwarf cards.**\n\n"
              "Deal one to each player.\n\n**Rulings are final.**\n\nAsk a judge.\n")
    assert read(write(tmp_path, "rules.md", source)).text.text == (
        "## Setup\n\n### Setting up the mine:\n\nPlace the start card.\n\n### Dwarf cards.\n\n"
        "Deal one to each player.\n\nRulings are final.\n\nAsk a judge.\n")


def test_a_details_summary_leads_its_text_in_as_an_example_of_its_item(tmp_path):
    # "<summary>Example</summary>" was a heading over every rule after it (9 units of a card game's rules page).
    html = ("<h3>Special Summon</h3><ul><li>A Special Summon that resolves cannot be negated.<details>"
            "<summary>Example</summary>Solemn Judgment cannot negate it.</details></li>"
            "<li>Ritual Monsters are Ritual Summoned.</li></ul><h3>Conditions</h3><p>A monster is summoned.</p>")
    text = read(write(tmp_path, "rules.html", html)).text.text
    assert "   Example: Solemn Judgment cannot negate it.\n- Ritual Monsters are Ritual Summoned." in text


def test_a_markdown_link_back_to_the_pages_index_is_navigation_not_a_rule(tmp_path):
    # An SRD closing each section with "[back to index](#index)": seven rulings "back to index".
    text = read(write(tmp_path, "srd.md", "# Rules\n\n## Ambition\n\nEach character has one.\n\n"
                      "[back to index](#index)\n\nSee [Scars](#scars) for wounds.\n\n[Scars](#scars)\n")).text.text
    assert "back to index" not in text
    assert "See Scars for wounds." in text and text.rstrip().endswith("Scars")  # a cross-reference stays


def test_a_list_of_links_a_sentence_introduces_is_the_rules_text_not_a_contents_list(tmp_path):
    # Tournament rules' 7.1: "The VEKN sanctions the following Sealed formats:" over links to 7.3 and 7.4, dropped as
    # a table of contents; the unit read "…Sealed formats: The VEKN sanctions the following Draft formats:".
    text = read(write(tmp_path, "rules.md", "# Rules\n\n- [Setup](#setup)\n- [Play](#play)\n\n## Setup\n\n"
                      "The league sanctions the following formats:\n\n- [7.3. Sealed](#73-sealed)\n"
                      "- [7.4. Draft](#74-draft)\n\n## Play\n\nPlay.\n")).text.text
    assert "7.3. Sealed" in text and "7.4. Draft" in text
    assert "- Setup" not in text  # the page's own contents list is still no text


def test_a_site_generators_template_tag_in_markdown_is_no_text(tmp_path):
    # A Jekyll post's "{% include faqs_nav.html current=4 %}" was the FAQ's title unit and a ruling.
    text = read(write(tmp_path, "faq.md", "{% include faqs_nav_mini.html current=4 %}\n\n# FAQ\n\nQ: Can I pass?\n"
                      "A: No.\n\n{% include faqs_nav.html current=4 %}\n")).text.text
    assert "{%" not in text and "Q: Can I pass?" in text


def test_markdown_inside_a_block_marked_markdown_is_read_as_markdown(tmp_path):
    # A Jekyll FAQ's errata boxes, <div class="faq-nueva" markdown="1"> … </div>: CommonMark read each box as raw
    # HTML to its first blank line, leaving "**Rulebook p. 180 …:**" with its stars as a ruling of its own.
    source = ("# FAQ\n\n## Errata\n\n<div class=\"faq\" markdown=\"1\">\n**Rulebook p. 180 “Unstable”:**\n\n"
              "*Add to the end of the first paragraph:* “These Wounds cannot be recovered.”\n</div>\n"
              "This settles an old question.\n")
    doc = read(write(tmp_path, "faq.md", source))
    assert "**" not in doc.text.text and "<div" not in doc.text.text and "</div>" not in doc.text.text
    assert "Add to the end of the first paragraph: “These Wounds cannot be recovered.”" in doc.text.text
    assert unmapped(doc) == []


def test_a_pages_one_main_element_is_its_text_and_what_stands_beside_it_is_not(tmp_path):
    # A Jekyll theme's contact list beside <main> ("- Email - GitHub") was a league's first ruling.
    source = ("<html><head><title>Rules | Rother League</title></head><body>\n<nav><a href='/'>Home</a></nav>\n"
              "<ul class=\"contact-list\"><li><a href=\"mailto:x@example.org\">Email</a></li></ul>\n"
              "<main id=\"main\"><h1>1. Definitions</h1>\n<p>“Club” means a member club.</p></main>\n"
              "<div class=\"sidebar\"><p>Follow us</p></div></body></html>\n")
    doc = read(write(tmp_path, "rules.html", source))
    assert "Email" not in doc.text.text and "Follow us" not in doc.text.text
    assert "“Club” means a member club." in doc.text.text and doc.metadata["title"] == "Rules | Rother League"
    assert unmapped(doc) == []


def test_an_html_comment_between_two_markdown_lists_keeps_them_apart(tmp_path):
    # A rulebook writes its variant's procedure as a second list after "<!-- variant -->" (markdown's way of parting
    # two lists): its steps were cited 3 and 4, going on from the base game's 1 and 2.
    text = ("## Encounters\n\n1. Reveal the token.\n1. Remove the card.\n\n<!-- variant: Allies -->\n\n"
            "1. Draw a token from the pool.\n1. Remove the Ally card.\n")
    doc = read(write(tmp_path, "encounters.md", text))
    assert "1. Draw a token from the pool.\n2. Remove the Ally card." in doc.text.text
    # a paragraph between keeps the numbering going, as a document interrupting its list does
    going = read(write(tmp_path, "going.md", "1. Reveal the token.\n\nThe token is kept.\n\n1. Remove the card.\n"))
    assert "2. Remove the card." in going.text.text
