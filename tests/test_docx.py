"""Word files (.docx), as fan FAQs and house rules travel: headings, numbered lists with their sub-items, bullets
and tables read into the same outline as the same document in HTML, added with `rulings add`, cited by
paragraph, the file kept and served as it came. The files are made here with python-docx, as Word writes them."""
from __future__ import annotations

import shutil
import sqlite3
import zipfile
from pathlib import Path

import docx
import pytest
from click.testing import CliRunner
from docx.oxml import OxmlElement
from docx.oxml.ns import qn

from ingest.errors import IngestError
from ingest.formats import read
from ingest.limits import Limits
from service.app import create_app
from service.cli import cli

WORD_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
SOURCE = "harbor-lights-league-house-rules-and-faq"
TITLE = "Harbor Lights League: House Rules and FAQ"
# The FAQ as an HTML page: the same headings, lists, questions and table.
HTML_TWIN = f"""<!doctype html>
<html><head><title>{TITLE}</title></head><body>
<h1>{TITLE}</h1>
<p>Version 1.2, agreed by the league on 14 March 2026. These house rules replace the rulebook where they differ.</p>
<h2>Setup</h2>
<ol>
<li>Each player shuffles their fleet deck and draws seven cards.
<ol type="a"><li>A player whose hand holds no ship may show it and draw a new hand, once.</li>
<li>A player who redraws keeps the second hand, whatever it holds.</li></ol></li>
<li>The player who most recently sailed goes first.</li>
<li>Each player places their flagship in their home harbour.</li>
</ol>
<h2>Frequently Asked Questions</h2>
<h3>Movement</h3>
<p><b>Q: Can a ship move through a harbour held by an opponent?</b></p>
<p>A: No. A harbour held by an opponent blocks movement; the ship must stop in the sea zone before it.</p>
<p><b>Q: Does a storm card end the movement of every ship in its zone?</b></p>
<p>A: Yes, but only ships that entered the zone this turn. Ships that started the turn there may leave.</p>
<h3>Combat</h3>
<p><b>Q: Are ties in a broadside resolved in favour of the defender?</b></p>
<p>A: Yes. On a tie the attacker retreats one sea zone and the defender takes no damage.</p>
<h2>Scoring</h2>
<p>At the end of the game each player scores their delivered cargo:</p>
<table><tr><td>Cargo</td><td>Points</td></tr><tr><td>Spice</td><td>3</td></tr><tr><td>Silk</td><td>2</td></tr>
<tr><td>Timber</td><td>1</td></tr></table>
<ul><li>A player with no delivered cargo scores nothing, whatever their fleet holds.</li>
<li>Ties go to the player with more ships afloat.</li></ul>
</body></html>
"""


def _set(parent, tag: str, value: str):
    child = OxmlElement(tag)
    child.set(qn("w:val"), value)
    parent.append(child)
    return child


def numbering(document, levels: list[tuple[str, str]], num_id: str = "90", restart: dict[int, int] | None = None) -> str:
    """A numbering definition of `levels` (numFmt, lvlText), as Word writes its numbered lists ("decimal", "%1.");
    its list instance `num_id` (restarting the levels `restart` names at their number); returns `num_id`."""
    root = document.part.numbering_part.element
    abstract_id = str(int(num_id) + 100)
    if not any(a.get(qn("w:abstractNumId")) == abstract_id for a in root.findall(qn("w:abstractNum"))):
        abstract = OxmlElement("w:abstractNum")
        abstract.set(qn("w:abstractNumId"), abstract_id)
        for level, (fmt, text) in enumerate(levels):
            lvl = OxmlElement("w:lvl")
            lvl.set(qn("w:ilvl"), str(level))
            _set(lvl, "w:start", "1")
            _set(lvl, "w:numFmt", fmt)
            _set(lvl, "w:lvlText", text)
            abstract.append(lvl)
        root.insert(0, abstract)  # the definitions come before the list instances
    num = OxmlElement("w:num")
    num.set(qn("w:numId"), num_id)
    _set(num, "w:abstractNumId", abstract_id)
    for level, start in (restart or {}).items():
        override = OxmlElement("w:lvlOverride")
        override.set(qn("w:ilvl"), str(level))
        _set(override, "w:startOverride", str(start))
        num.append(override)
    root.append(num)
    return num_id


def item(document, text: str, num_id: str, level: int = 0):
    """A list item as Word's numbering button makes one: its own numbering properties, list and level."""
    paragraph = document.add_paragraph(text)
    numbered = OxmlElement("w:numPr")
    _set(numbered, "w:ilvl", str(level))
    _set(numbered, "w:numId", num_id)
    paragraph._p.get_or_add_pPr().append(numbered)
    return paragraph


def bold(document, text: str) -> None:
    document.add_paragraph().add_run(text).bold = True


def harbor_faq(path: Path) -> Path:
    """A league's house rules and FAQ as Word writes it: a Title, Heading 1 and 2 sections, a numbered list with
    lettered sub-items, bold questions over their answers, a table and a bulleted list (List Bullet style)."""
    document = docx.Document()
    document.add_paragraph(TITLE, style="Title")
    document.add_paragraph("Version 1.2, agreed by the league on 14 March 2026. These house rules replace the "
                           "rulebook where they differ.")
    document.add_heading("Setup", level=1)
    steps = numbering(document, [("decimal", "%1."), ("lowerLetter", "%2."), ("lowerRoman", "%3.")])
    item(document, "Each player shuffles their fleet deck and draws seven cards.", steps)
    item(document, "A player whose hand holds no ship may show it and draw a new hand, once.", steps, 1)
    item(document, "A player who redraws keeps the second hand, whatever it holds.", steps, 1)
    item(document, "The player who most recently sailed goes first.", steps)
    item(document, "Each player places their flagship in their home harbour.", steps)
    document.add_heading("Frequently Asked Questions", level=1)
    document.add_heading("Movement", level=2)
    bold(document, "Q: Can a ship move through a harbour held by an opponent?")
    document.add_paragraph("A: No. A harbour held by an opponent blocks movement; the ship must stop in the sea "
                           "zone before it.")
    bold(document, "Q: Does a storm card end the movement of every ship in its zone?")
    document.add_paragraph("A: Yes, but only ships that entered the zone this turn. Ships that started the turn "
                           "there may leave.")
    document.add_heading("Combat", level=2)
    bold(document, "Q: Are ties in a broadside resolved in favour of the defender?")
    document.add_paragraph("A: Yes. On a tie the attacker retreats one sea zone and the defender takes no damage.")
    document.add_paragraph("")  # an empty paragraph, as Word files are full of: no paragraph of the text
    document.add_heading("Scoring", level=1)
    document.add_paragraph("At the end of the game each player scores their delivered cargo:")
    table = document.add_table(rows=4, cols=2)
    for row, cells in zip(table.rows, [("Cargo", "Points"), ("Spice", "3"), ("Silk", "2"), ("Timber", "1")]):
        for cell, text in zip(row.cells, cells):
            cell.text = text
    document.add_paragraph("A player with no delivered cargo scores nothing, whatever their fleet holds.",
                           style="List Bullet")
    document.add_paragraph("Ties go to the player with more ships afloat.", style="List Bullet")
    document.save(path)
    return path


@pytest.fixture(scope="module")
def faq(tmp_path_factory) -> Path:
    return harbor_faq(tmp_path_factory.mktemp("word") / "harbor-lights-faq.docx")


def add_house_rules(built_db: Path, document: Path, db: Path) -> str:
    """Copy the seed database to `db` and add `document` to it by `rulings add` as the Harbor Lights league's house
    rules; what the command printed."""
    shutil.copy(built_db, db)
    result = CliRunner().invoke(cli, ["add", str(document), "--game", "harbor-lights", "--game-name", "Harbor Lights",
                                      "--kind", "house-rules", "--db", str(db)])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def added(built_db, faq, tmp_path_factory) -> Path:
    """The seed database with the FAQ added by `rulings add`, as a league's house rules."""
    db = tmp_path_factory.mktemp("word-db") / "rulings.db"
    assert f"Added '{TITLE}' as {SOURCE} (docx, shape outline)" in add_house_rules(built_db, faq, db)
    return db


def test_a_word_faq_added_gives_its_rulings_refs_kinds_and_citations_by_paragraph(added):
    rows = sqlite3.connect(added).execute(
        "select ref, kind, substr(text, 1, 40), citation, section from rulings where source = ? order by position",
        [SOURCE]).fetchall()
    cited = f"{TITLE}, "
    root = TITLE
    assert rows == [
        ("HL Harbor Lights League: House Rules… 1", "paragraph", "Version 1.2, agreed by the league on 14 ", cited + "paragraph 2", root),
        ("HL 1", "clarification", "Each player shuffles their fleet deck an", cited + "paragraph 4", f"{root} > Setup"),
        ("HL 1a", "rule", "A player whose hand holds no ship may sh", cited + "paragraph 5", f"{root} > Setup"),
        ("HL 1b", "rule", "A player who redraws keeps the second ha", cited + "paragraph 6", f"{root} > Setup"),
        ("HL 2", "clarification", "The player who most recently sailed goes", cited + "paragraph 7", f"{root} > Setup"),
        ("HL 3", "clarification", "Each player places their flagship in the", cited + "paragraph 8", f"{root} > Setup"),
        ("HL Movement 1", "question", "Can a ship move through a harbour held b", cited + "paragraphs 11–12",
         f"{root} > Frequently Asked Questions > Movement"),
        ("HL Movement 2", "question", "Does a storm card end the movement of ev", cited + "paragraphs 13–14",
         f"{root} > Frequently Asked Questions > Movement"),
        ("HL Combat 1", "question", "Are ties in a broadside resolved in favo", cited + "paragraphs 16–17",
         f"{root} > Frequently Asked Questions > Combat"),
        # the table is the text of the paragraph that introduces it ("…scores their delivered cargo:")
        ("HL Scoring 1", "paragraph", "At the end of the game each player score", cited + "paragraphs 19–25",
         f"{root} > Scoring"),
    ]


def test_a_word_faq_keeps_its_answers_table_and_kind_and_its_paragraphs_are_the_text_shown(added):
    conn = sqlite3.connect(added)
    answer = conn.execute("select text from rulings where ref = 'HL Combat 1'").fetchone()[0]
    assert "A: Yes. On a tie the attacker retreats one sea zone" in answer
    assert conn.execute("select kind, format from sources where id = ?", [SOURCE]).fetchone() == ("house-rules", "docx")
    table = conn.execute("select columns from rule_tables where source = ?", [SOURCE]).fetchone()
    assert table == ('["Cargo", "Points"]',)
    text = conn.execute("select original_text from sources where id = ?", [SOURCE]).fetchone()[0]
    lines = text.splitlines()
    assert lines[3:6] == ["1. Each player shuffles their fleet deck and draws seven cards.",
                          "   a. A player whose hand holds no ship may show it and draw a new hand, once.",
                          "   b. A player who redraws keeps the second hand, whatever it holds."]
    assert lines[19] == "Cargo | Points" and lines[24] == "• Ties go to the player with more ships afloat."


def test_a_word_file_reads_as_the_same_outline_as_the_same_document_in_html(faq, tmp_path):
    page = tmp_path / "harbor-lights-faq.html"
    page.write_text(HTML_TWIN, encoding="utf-8")
    word, html = read(faq), read(page)
    assert word.format == "docx" and word.metadata["title"] == TITLE
    assert word.text.text == html.text.text


def test_every_character_of_a_word_files_outline_maps_to_the_same_character_of_its_text(faq):
    document = read(faq)
    wrong = []
    for line_start, line in _lines(document.text.text):
        body = line.lstrip(" #-|0123456789abcdefghijklmnopqrstuvwxyz.").lstrip() if _marked(line) else line
        at = line_start + line.find(body) if body else line_start
        for index, char in enumerate(body):
            source = document.original[document.text.offsets[at + index]]
            if char.strip() and char != "|" and source != char:
                wrong.append((line, index, char, source))
    assert wrong == []


def _marked(line: str) -> bool:
    return line.lstrip().startswith(("#", "-", "|")) or line.lstrip()[:3].rstrip(" ").endswith(".")


def _lines(text: str):
    start = 0
    for line in text.split("\n"):
        yield start, line
        start += len(line) + 1


def test_word_list_numbers_are_the_ones_word_prints_and_an_unprinted_level_keeps_its_depth(tmp_path):
    document = docx.Document()
    rules = numbering(document, [("decimal", "%1."), ("decimal", "%1.%2."), ("upperRoman", "(%3)")])
    item(document, "Setup.", rules)
    item(document, "Shuffle.", rules, 1)
    item(document, "Deal.", rules, 1)
    item(document, "Cut the deck.", rules, 2)
    item(document, "Play.", rules)
    item(document, "Draw.", rules, 1)
    item(document, "A level its list does not define.", rules, 4)
    again = numbering(document, [("decimal", "%1."), ("decimal", "%1.%2."), ("upperRoman", "(%3)")], "91",
                      restart={0: 7})
    item(document, "A second list of the same definition, starting again at 7.", again)
    document.add_paragraph("A bullet.", style="List Bullet")
    document.add_paragraph("A bullet nested by its style's name.", style="List Bullet 2")
    path = tmp_path / "numbers.docx"
    document.save(path)
    assert read(path).text.text.splitlines() == [
        "1. Setup.",
        "   1.1. Shuffle.",
        "   1.2. Deal.",
        "      (I) Cut the deck.",
        "2. Play.",
        "   2.1. Draw.",
        "            - A level its list does not define.",
        "7. A second list of the same definition, starting again at 7.",
        "- A bullet.",
        "   - A bullet nested by its style's name.",
    ]


def test_a_heading_word_numbers_prints_its_number_and_its_items_count_afresh_under_it(tmp_path):
    # A tournament's rules number their Heading 2s "I.", "II." in one list with the items under them: the headings
    # lost their numbers and the items counted on, 1–4 then 5–8, where Word prints I. 1.–4. and II. 1.–4.
    document = docx.Document()
    rules = numbering(document, [("upperRoman", "%1."), ("decimal", "%2.")])
    for title, items in (("Metal Weapons", ("Check the blade.", "Check the guard.")),
                         ("Head Protection", ("Wear a mask.", "Wear a collar."))):
        item(document, title, rules).style = document.styles["Heading 2"]
        for text in items:
            item(document, text, rules, 1)
    path = tmp_path / "tournament.docx"
    document.save(path)
    assert read(path).text.text.splitlines() == [
        "## I. Metal Weapons", "", "   1. Check the blade.", "   2. Check the guard.", "",
        "## II. Head Protection", "", "   1. Wear a mask.", "   2. Wear a collar."]


def test_a_word_files_headings_follow_its_title_and_without_one_its_first_heading_names_it(tmp_path):
    document = docx.Document()
    document.add_heading("Tournament Floor Rules", level=1)
    document.add_paragraph("Judges rule on the table, not from memory.")
    document.add_heading("Clocks", level=2)
    document.add_paragraph("A clock is paused only by a judge.")
    path = tmp_path / "floor.docx"
    document.save(path)
    found = read(path)
    assert found.metadata["title"] == "Tournament Floor Rules"
    assert [line for line in found.text.text.splitlines() if line.startswith("#")] == [
        "# Tournament Floor Rules", "## Clocks"]


def test_the_word_file_is_kept_and_served_as_it_came_and_its_pages_name_it(added, faq):
    client = create_app(added).test_client()
    original = client.get(f"/sources/{SOURCE}/original")
    assert original.status_code == 200
    assert original.mimetype == WORD_TYPE and original.data == faq.read_bytes()
    assert "sandbox" not in original.headers["Content-Security-Policy"]
    page = client.get(f"/sources/{SOURCE}").get_data(as_text=True)
    assert "(the original Word document, read-only)" in page
    ruling = client.get("/api/search?q=broadside+ties+defender&game=harbor-lights").get_json()
    found = next(r for r in ruling["results"] if r["ref"] == "HL Combat 1")
    cited = found["citation"]
    assert cited["text"] == f"{TITLE}, paragraphs 16–17" and cited["full"].endswith("paragraphs 16–17")
    assert cited["original_url"] == f"/sources/{SOURCE}/original?version=1"  # no page of a Word file to open at
    assert cited["original_label"] == "Word document"
    shown = client.get(f"/r/{found['id']}").get_data(as_text=True)
    assert "paragraphs 16–17" in shown and "at this page" not in shown


@pytest.mark.parametrize("name, content, says", [
    ("old.doc.docx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, "older Word file (.doc)"),
    ("broken.docx", b"PK\x03\x04 this zip was cut short", "not a Word document"),
])
def test_an_older_or_broken_word_file_is_refused_naming_the_file(tmp_path, name, content, says):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(IngestError) as refused:
        read(path)
    assert str(path) in str(refused.value) and says in str(refused.value)


def test_a_spreadsheet_named_docx_is_refused_as_no_word_document(tmp_path):
    path = tmp_path / "scores.docx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/'
                         'package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/'
                         'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>')
        archive.writestr("xl/workbook.xml", "<workbook/>")
    with pytest.raises(IngestError, match="not a Word document"):
        read(path)


def test_a_word_file_is_recognised_by_its_bytes_whatever_its_name(faq, tmp_path):
    renamed = tmp_path / "house-rules"
    shutil.copy(faq, renamed)
    assert read(renamed).format == "docx"


def test_rulings_add_refuses_a_word_file_past_the_element_limit_leaving_the_database_untouched(built_db, faq,
                                                                                                tmp_path):
    db = tmp_path / "rulings.db"
    shutil.copy(built_db, db)
    before = db.read_bytes()
    result = CliRunner().invoke(cli, ["add", str(faq), "--game", "harbor-lights", "--limit", "elements=10",
                                      "--db", str(db)])
    assert result.exit_code == 2 and "elements=10" in result.output and str(faq) in result.output
    assert db.read_bytes() == before


def test_a_word_file_whose_parts_inflate_past_the_limit_is_refused_before_it_is_parsed(faq, tmp_path):
    padded = tmp_path / "padded.docx"
    shutil.copy(faq, padded)
    with zipfile.ZipFile(padded, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("word/media/padding.bin", b"\0" * 3 * 2**20)  # a few KB in the file, 3 MB inflated
    with pytest.raises(IngestError, match=r"inflate too far: past the limit inflated_mb=2") as refused:
        read(padded, Limits(inflated_mb=2))
    assert str(padded) in str(refused.value)
