"""OpenDocument text (.odt), LibreOffice's own format: headings, lists numbered as LibreOffice shows them, tables and
bold lines read into the same outline as the same document in HTML or Word, cited by paragraph, the file kept;
notes, comments, headers and generated contents are no text; a crafted file is refused naming the file. The files
are written here as LibreOffice writes them: a zip whose first entry is its stored `mimetype`, then content.xml and
styles.xml."""
from __future__ import annotations

import sqlite3
import shutil
import zipfile
from pathlib import Path

import pytest

from ingest.errors import IngestError
from ingest.formats import read
from ingest.limits import Limits
from test_docx import HTML_TWIN, TITLE, add_house_rules

NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
      'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
      'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
      'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
      'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"')
STYLES = f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document-styles {NS} office:version="1.2"><office:styles>
<style:style style:name="Standard" style:family="paragraph"/>
<style:style style:name="Title" style:family="paragraph" style:parent-style-name="Standard">
<style:text-properties fo:font-size="28pt" fo:font-weight="bold"/></style:style>
<style:style style:name="Strong_20_Emphasis" style:display-name="Strong Emphasis" style:family="text">
<style:text-properties fo:font-weight="bold"/></style:style>
<text:outline-style style:name="Outline"><text:outline-level-style text:level="1" style:num-format=""/>
<text:outline-level-style text:level="2" style:num-format=""/></text:outline-style>
</office:styles><office:master-styles><style:master-page style:name="Standard">
<style:header><text:p>Harbor Lights League – house rules</text:p></style:header>
<style:footer><text:p>Page <text:page-number>1</text:page-number></text:p></style:footer>
</style:master-page></office:master-styles></office:document-styles>"""
LISTS = """<text:list-style style:name="L1">
<text:list-level-style-number text:level="1" style:num-suffix="." style:num-format="1"/>
<text:list-level-style-number text:level="2" style:num-suffix="." style:num-format="a"/></text:list-style>
<text:list-style style:name="L2"><text:list-level-style-bullet text:level="1" text:bullet-char="•"/></text:list-style>"""


def content(body: str, automatic: str = "") -> str:
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content {NS} office:version="1.2">'
            f'<office:automatic-styles>{LISTS}<style:style style:name="P1" style:family="paragraph" '
            f'style:parent-style-name="Standard"><style:text-properties fo:font-weight="bold"/></style:style>'
            f'{automatic}</office:automatic-styles><office:body><office:text>{body}</office:text></office:body>'
            f'</office:document-content>')


def write_odt(path: Path, body: str, styles: str = STYLES, mimetype: str = "application/vnd.oasis.opendocument.text",
              automatic: str = "") -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), mimetype)  # first, stored: how every OpenDocument file opens
        archive.writestr("content.xml", content(body, automatic) if "<office:document-content" not in body else body)
        archive.writestr("styles.xml", styles)
        archive.writestr("META-INF/manifest.xml", '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:'
                         'opendocument:xmlns:manifest:1.0"/>')
    return path


def p(text: str, style: str = "Standard") -> str:
    return f'<text:p text:style-name="{style}">{text}</text:p>'


def h(text: str, level: int) -> str:
    return f'<text:h text:outline-level="{level}">{text}</text:h>'


def items(*texts: str, style: str = "L1", attrs: str = "") -> str:
    return f'<text:list text:style-name="{style}" {attrs}>' + "".join(
        f"<text:list-item>{text if text.startswith('<') else p(text)}</text:list-item>" for text in texts) + \
        "</text:list>"


# The harbor FAQ of test_docx as LibreOffice writes it: its Title, headings, a numbered list with lettered items
# nested in an item, bold questions (a bold paragraph style, or every span bold), a table and a bulleted list.
HARBOR = "".join([
    p(TITLE, "Title"),
    p("Version 1.2, agreed by the league on 14 March 2026. These house rules replace the rulebook where they "
      "differ."),
    h("Setup", 1),
    items(p("Each player shuffles their fleet deck and draws seven cards.")
          + items("A player whose hand holds no ship may show it and draw a new hand, once.",
                  "A player who redraws keeps the second hand, whatever it holds."),
          "The player who most recently sailed goes first.",
          "Each player places their flagship in their home harbour."),
    h("Frequently Asked Questions", 1),
    h("Movement", 2),
    p("Q: Can a ship move through a harbour held by an opponent?", "P1"),
    p("A: No. A harbour held by an opponent blocks movement; the ship must stop in the sea zone before it."),
    p('<text:span text:style-name="Strong_20_Emphasis">Q: Does a storm card end the movement of every ship</text:span>'
      '<text:s/><text:span text:style-name="Strong_20_Emphasis">in its zone?</text:span>'),
    p("A: Yes, but only ships that entered the zone this turn.<text:soft-page-break/> Ships that started the turn "
      "there may leave."),
    h("Combat", 2),
    p("Q: Are ties in a broadside resolved in favour of the defender?", "P1"),
    p("A: Yes. On a tie the attacker retreats one sea zone and the defender takes no damage."),
    p(""),
    h("Scoring", 1),
    p("At the end of the game each player scores their delivered cargo:"),
    '<table:table table:name="Cargo"><table:table-column table:number-columns-repeated="2"/>'
    + "".join(f"<table:table-row><table:table-cell>{p(a)}</table:table-cell><table:table-cell>{p(b)}"
              f"</table:table-cell></table:table-row>"
              for a, b in [("Cargo", "Points"), ("Spice", "3"), ("Silk", "2"), ("Timber", "1")])
    + "</table:table>",
    items("A player with no delivered cargo scores nothing, whatever their fleet holds.",
          "Ties go to the player with more ships afloat.", style="L2"),
])


@pytest.fixture(scope="module")
def harbor(tmp_path_factory) -> Path:
    return write_odt(tmp_path_factory.mktemp("odt") / "harbor-lights-faq.odt", HARBOR)


def test_an_odt_reads_as_the_same_outline_as_the_same_document_in_html(harbor, tmp_path):
    page = tmp_path / "harbor-lights-faq.html"
    page.write_text(HTML_TWIN, encoding="utf-8")
    odt, html = read(harbor), read(page)
    assert odt.format == "odt" and odt.metadata["title"] == TITLE and odt.file == harbor.read_bytes()
    assert odt.text.text == html.text.text


def test_an_odts_text_is_one_paragraph_a_line_as_libreoffice_shows_it_and_its_outline_maps_into_it(harbor):
    document = read(harbor)
    lines = document.original.splitlines()
    assert lines[:6] == [TITLE, "Version 1.2, agreed by the league on 14 March 2026. These house rules replace the "
                         "rulebook where they differ.", "Setup",
                         "1. Each player shuffles their fleet deck and draws seven cards.",
                         "   a. A player whose hand holds no ship may show it and draw a new hand, once.",
                         "   b. A player who redraws keeps the second hand, whatever it holds."]
    assert "Cargo | Points" in lines and lines[-1] == "• Ties go to the player with more ships afloat."
    assert "Page 1" not in document.original and "house rules</" not in document.original  # no header or footer
    text = document.text.text
    for line_start in [0, *(i + 1 for i, c in enumerate(text) if c == "\n")]:
        line = text[line_start:text.find("\n", line_start) if "\n" in text[line_start:] else len(text)]
        body = line.lstrip(" #-|").split(". ", 1)[-1] if line.lstrip()[:3].rstrip(" ").endswith(".") else \
            line.lstrip(" #-|")
        at = line_start + line.find(body) if body else line_start
        wrong = [(char, document.original[document.text.offsets[at + i]]) for i, char in enumerate(body)
                 if char.strip() and char != "|" and document.original[document.text.offsets[at + i]] != char]
        assert not wrong, line


def test_odt_lists_are_numbered_as_libreoffice_counts_them(tmp_path):
    # Picture This!'s steps: a numbered list broken by bullets (lists of their own, an item holding only a deeper
    # list) and continued (text:continue-list), restarted at a new phase (text:start-value), a level showing two
    # levels' numbers ("2.1)"), a list continuing by its style (text:continue-numbering) and a list header.
    automatic = """<text:list-style style:name="L3">
<text:list-level-style-number text:level="1" style:num-suffix="." style:num-format="1"/>
<text:list-level-style-number text:level="2" style:num-suffix=")" style:num-format="1" text:display-levels="2"/>
</text:list-style><text:list-style style:name="L4">
<text:list-level-style-number text:level="1" style:num-prefix="(" style:num-suffix=")" style:num-format="i"
text:start-value="3"/></text:list-style>"""
    body = "".join([
        h("Planning Phase", 2),
        items("Agree on the time.", "Draw a card.", attrs='xml:id="list1"', style="L3"),
        items(items("Keep it hidden.", style="L2"), style="L2"),
        items("Plan the gestures.", attrs='xml:id="list2" text:continue-list="list1"', style="L3"),
        h("Drawing Phase", 2),
        '<text:list text:style-name="L3" text:continue-list="list2"><text:list-item text:start-value="1">'
        + p("Prepare the paper.") + items("Face the artist.", "Start the timer.", style="L3") + "</text:list-item>"
        + f"<text:list-header>{p('A note between the steps.')}</text:list-header>"
        + f"<text:list-item>{p('Draw.')}</text:list-item></text:list>",
        items("Roman three.", style="L4"),
        items("Roman four.", style="L4", attrs='text:continue-numbering="true"'),
    ])
    lines = read(write_odt(tmp_path / "steps.odt", body, automatic=automatic)).original.splitlines()
    assert lines == ["Planning Phase", "1. Agree on the time.", "2. Draw a card.", "   • Keep it hidden.",
                     "3. Plan the gestures.", "Drawing Phase", "1. Prepare the paper.", "   1.1) Face the artist.",
                     "   1.2) Start the timer.", "A note between the steps.", "2. Draw.", "(iii) Roman three.",
                     "(iv) Roman four."]


def test_odt_headings_take_their_outline_numbers_and_levels(tmp_path):
    styles = STYLES.replace('<text:outline-level-style text:level="1" style:num-format=""/>\n'
                            '<text:outline-level-style text:level="2" style:num-format=""/>',
                            '<text:outline-level-style text:level="1" style:num-format="1"/>'
                            '<text:outline-level-style text:level="2" style:num-format="1" text:display-levels="2"/>')
    body = h("Setup", 1) + p("Shuffle.") + h("Hands", 2) + p("Draw seven.") + h("Play", 1) + h("Turns", 2) + \
        p("Take turns.")
    document = read(write_odt(tmp_path / "numbered.odt", body, styles=styles))
    assert document.text.text == ("# 1 Setup\n\nShuffle.\n\n## 1.1 Hands\n\nDraw seven.\n\n# 2 Play\n\n## 2.1 Turns\n\n"
                                  "Take turns.\n")
    assert document.metadata["title"] == "Setup"  # its number is no part of its name


def test_paragraphs_set_in_a_heading_style_are_headings_as_word_exports_them(tmp_path):
    # A rulebook saved from Word to .odt sets its headings as plain paragraphs in "Heading 2"/"Heading 3" styles:
    # "1 : Draw Cards" and "4 : May discard cards." headed nothing, the night's steps cited on from the day's.
    automatic = ('<style:style style:name="P2" style:family="paragraph" style:parent-style-name="Heading_20_2"/>'
                 '<style:style style:name="P3" style:family="paragraph" style:parent-style-name="Heading_20_3"/>')
    styles = STYLES.replace('<style:style style:name="Standard" style:family="paragraph"/>',
                            '<style:style style:name="Standard" style:family="paragraph"/>'
                            '<style:style style:name="Heading_20_2" style:display-name="Heading 2" '
                            'style:family="paragraph" style:default-outline-level="2"/>')
    body = (p("Day Phase", "P2") + p("1 : Draw Cards", "P3") + p("All players draw.") +
            p("4 : May discard cards.", "P3") + p("Players may discard."))
    document = read(write_odt(tmp_path / "westward.odt", body, styles=styles, automatic=automatic))
    assert document.text.text == ("## Day Phase\n\n### 1 : Draw Cards\n\nAll players draw.\n\n"
                                  "### 4 : May discard cards.\n\nPlayers may discard.\n")


def test_odt_notes_comments_deletions_frames_and_generated_contents_are_no_text(tmp_path):
    body = "".join([
        '<text:table-of-content><text:index-body>' + p("Setup .......... 1") + '</text:index-body>'
        '</text:table-of-content>',
        '<text:tracked-changes><text:changed-region><text:deletion>' + p("An old rule.") +
        '</text:deletion></text:changed-region></text:tracked-changes>',
        h("Setup", 1),
        p('Shuffle the deck.<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation>'
          '<text:note-body>' + p("Sleeved or not.") + '</text:note-body></text:note> Draw'
          '<text:tab/>seven<text:line-break/>cards.<office:annotation><text:p>Check this</text:p></office:annotation>'),
        '<draw:frame draw:name="Image1"><draw:image/></draw:frame>',
        p('<draw:frame draw:name="Caption"><draw:text-box>' + p("Figure 1") + '</draw:text-box></draw:frame>'
          'The board.'),
        '<table:table><table:table-row><table:table-cell>' + p('Cargo<text:note><text:note-body>' + p("Or goods.")
                                                             + '</text:note-body></text:note>')
        + '</table:table-cell><table:table-cell>' + p("Points") + '</table:table-cell></table:table-row></table:table>',
    ])
    assert read(write_odt(tmp_path / "notes.odt", body)).original == "Setup\nShuffle the deck. Draw seven cards.\n" \
                                                                     "The board.\nCargo | Points\n"


def test_an_odt_is_recognised_by_its_bytes_whatever_its_name(harbor, tmp_path):
    renamed = tmp_path / "house-rules"
    shutil.copy(harbor, renamed)
    assert read(renamed).format == "odt"


def test_an_odt_whose_mimetype_entry_carries_an_extra_field_is_recognised_by_its_bytes(tmp_path):
    path = tmp_path / "house-rules"
    with zipfile.ZipFile(path, "w") as archive:
        entry = zipfile.ZipInfo("mimetype")
        entry.extra = b"\xfe\xca\x00\x00"  # as some zip tools write it (a "CAFE" marker)
        archive.writestr(entry, "application/vnd.oasis.opendocument.text")
        archive.writestr("content.xml", content(HARBOR))
        archive.writestr("styles.xml", STYLES)
    assert read(path).format == "odt"


def _bomb(path: Path) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text")
        with archive.open("content.xml", "w") as part:
            part.write(f"<office:document-content {NS}>".encode())
            for _ in range(3):
                part.write(b" " * 2**20)
    return path


LAUGHS = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">]>'
          f'<office:document-content {NS}><office:body><office:text><text:p>&lol2;</text:p></office:text>'
          '</office:body></office:document-content>')


@pytest.mark.parametrize("make, limits, says", [
    (lambda path: path.write_bytes(b"PK\x03\x04 this zip was cut short"), None, "not an OpenDocument text"),
    (lambda path: write_odt(path, HARBOR, mimetype="application/vnd.oasis.opendocument.presentation"), None,
     "not an OpenDocument text but OpenDocument slides"),
    (lambda path: write_odt(path, LAUGHS), None, "declares a document type or entities"),
    (lambda path: write_odt(path, "<office:document-content><text:p>unclosed"), None, "is no XML"),
    (_bomb, Limits(inflated_mb=2), "inflate too far: past the limit inflated_mb=2"),
    (lambda path: write_odt(path, HARBOR), Limits(elements=40), "too many elements: past the limit elements=40"),
    (lambda path: write_odt(path, "<text:list><text:list-item>" * 30 + "</text:list-item></text:list>" * 30),
     Limits(depth=20), "nested too deep: past the limit depth=20"),
])
def test_a_broken_or_crafted_odt_is_refused_naming_the_file(tmp_path, make, limits, says):
    path = tmp_path / "rules.odt"
    make(path)
    with pytest.raises(IngestError) as refused:
        read(path, limits)
    assert str(path) in str(refused.value) and says in str(refused.value)


def test_rulings_add_an_odt_cites_its_paragraphs_and_keeps_the_file(built_db, harbor, tmp_path):
    db = tmp_path / "rulings.db"
    add_house_rules(built_db, harbor, db)
    conn = sqlite3.connect(db)
    source = conn.execute("select id from sources where format = 'odt'").fetchone()[0]
    assert conn.execute("select ref, citation from rulings where source = ? and ref = 'HL Combat 1'",
                        [source]).fetchone() == ("HL Combat 1", f"{TITLE}, paragraphs 16–17")
    assert conn.execute("select label, file_kept, line from formats where name = 'odt'").fetchone() == (
        "OpenDocument text", 1, "paragraph")
