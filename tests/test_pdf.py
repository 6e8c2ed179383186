"""Reading PDFs (ingest/formats/pdf.py): every page in order with its number and printed label, the text of
each page whole and in reading order, pages joined by form feeds, offsets mapped back to pages, and one clear
IngestError naming the file for a PDF that cannot be read."""
from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from support.pdfs import pdf_bytes

pypdf = pytest.importorskip("pypdf", reason="pypdf (the PDF reader) is not installed")

from ingest.errors import IngestError
from ingest.formats.pdf import PAGE_BREAK, normalise, read_pdf

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
LATEST = CORPORA / "lorcana-comprehensive-rules-2025-10-31.pdf"
RULEBOOKS = {  # file: pages (the 2024 edition is shorter)
    "lorcana-comprehensive-rules-2024-08-09.pdf": 45,
    "lorcana-comprehensive-rules-2025-02-28.pdf": 48,
    "lorcana-comprehensive-rules-2025-10-31.pdf": 48,
}
RULE_START = re.compile(r"^(\d+(?:\.\d+)+)\.\s+\S", re.MULTILINE)

def needs_corpora(test):
    """A test of the real documents of ../shared/corpora (marked corpus), skipped when they are not there."""
    skip = pytest.mark.skipif(not LATEST.exists(), reason=f"the real PDFs are not in {CORPORA}")
    return pytest.mark.corpus(skip(test))


@pytest.fixture(scope="module")
def latest():
    if not LATEST.exists():
        pytest.skip(f"the real PDFs are not in {CORPORA}")
    return read_pdf(LATEST)


@needs_corpora
@pytest.mark.parametrize("name, pages", sorted(RULEBOOKS.items()))
def test_every_page_is_read_in_order_with_its_printed_label(name, pages):
    document = read_pdf(CORPORA / name)
    assert [page.number for page in document.pages] == list(range(1, pages + 1))
    assert [page.label for page in document.pages] == ["i", "ii", "iii"] + [str(n) for n in range(1, pages - 2)]
    assert document.empty_pages == []


@needs_corpora
def test_the_latest_rulebook_has_48_pages(latest):
    assert len(latest.pages) == 48
    assert latest.path == str(LATEST)


@needs_corpora
def test_a_rule_is_found_on_the_page_it_is_printed_on(latest):
    # The PDF's page 17 carries the printed number 14 and rule 6.1.2.1, with its icons as {S} and {W}.
    page = latest.pages[16]
    assert (page.number, page.label) == (17, "14")
    assert "\n6.1.2.1. A character has a {S} value and a {W} value.\n" in page.text
    first = latest.pages[3]
    assert (first.number, first.label) == (4, "1")
    assert "\n1.1.1. Disney Lorcana cards are published in multiple languages." in first.text


@needs_corpora
def test_rule_numbers_start_their_lines_in_document_order(latest):
    body = PAGE_BREAK.join(page.text for page in latest.pages[3:35])  # the rules, before the glossary
    numbers = [tuple(map(int, m.group(1).split("."))) for m in RULE_START.finditer(body)]
    assert numbers[:8] == [(1, 1), (1, 1, 1), (1, 1, 2), (1, 1, 3), (1, 1, 4), (1, 1, 5), (1, 1, 6), (1, 2)]
    assert len(set(numbers)) > 400
    assert [(a, b) for a, b in itertools.pairwise(numbers) if b < a] == []


@needs_corpora
def test_the_contents_page_keeps_its_two_columns_apart(latest):
    contents = latest.pages[1].text.splitlines()
    assert "1. CONCEPTS" in contents and "5. CONDITIONS" in contents
    assert not any(re.search(r"\S\s+\d+\.\d*\.?\s+[A-Z]", line) for line in contents), "columns interleaved"


@needs_corpora
def test_every_page_keeps_its_running_footer(latest):
    # Headers and footers are removed later, by their repetition across pages: here they must all be there.
    for page in latest.pages:
        lines = page.text.splitlines()
        assert "disneylorcana.com" in lines and "©Disney" in lines, page.number
        assert page.label in lines, page.number


@needs_corpora
def test_pages_are_joined_with_one_form_feed_between_them(latest):
    text = latest.text
    assert text.count(PAGE_BREAK) == len(latest.pages) - 1
    assert text.split(PAGE_BREAK) == [page.text for page in latest.pages]
    assert not text.startswith(PAGE_BREAK) and not text.endswith(PAGE_BREAK)


@needs_corpora
def test_an_offset_of_the_joined_text_maps_to_its_page(latest):
    text = latest.text
    for page in latest.pages:
        start = latest.start_of(page.number)
        assert text[start:start + len(page.text)] == page.text
        assert latest.page_at(start) is page
        assert latest.page_at(start + len(page.text) - 1) is page
        assert latest.page_at(start + len(page.text)) is page  # the form feed that ends it
    assert latest.page_starts == [m.end() for m in re.finditer(PAGE_BREAK, text)]
    assert latest.page_at(text.index("6.1.2.1. A character has")).number == 17
    assert latest.page_at(len(text)) is latest.pages[-1]
    for outside in (-1, len(text) + 1):
        with pytest.raises(IndexError):
            latest.page_at(outside)


@needs_corpora
def test_the_text_is_normalised_for_line_by_line_work(latest):
    text = latest.text
    assert "\r" not in text and "\xa0" not in text and "\u00ad" not in text
    assert not re.search("[\ue000-\uf8ff\ufffd\ufb00-\ufb06]", text)
    assert not re.search(r"[ \t]\n", text)


@pytest.mark.parametrize("raw, clean", [
    ("one\r\ntwo\rthree\u2028four", "one\ntwo\nthree\nfour"),
    ("a\xa0b\u202fc\u2009d", "a b c d"),
    ("\ufb01nd the \ufb02ag, o\ufb00er", "find the flag, offer"),
    ("exam\u00ad\nple and hy\u00adphen", "exam-\nple and hy\u00adphen"),  # the cleaner reads the second
    ("tab\there\x00\x07 zero\u200bwidth\ufeff", "tab\there zerowidth"),
    ("page\fbreak\x0b inside", "pagebreak inside"),
    ("trailing   \nspaces \t\n\n", "trailing\nspaces"),
    ("\n\n  indented first line", "  indented first line"),
    ("½ ™ x² … “quoted” – {S}", "½ ™ x² … “quoted” – {S}"),  # only ligatures are decomposed
])
def test_normalise_repairs_what_pdf_text_needs_and_nothing_else(raw, clean):
    assert normalise(raw) == clean


@needs_corpora
def test_printed_page_numbers_are_found_without_declared_page_labels(tmp_path):
    # Two rulebooks merged into one file: it declares no page labels, so they come from the printed footers,
    # and the second book's numbering starts again.
    writer = pypdf.PdfWriter()
    writer.append(str(CORPORA / "lorcana-comprehensive-rules-2024-08-09.pdf"))
    writer.append(str(LATEST))
    merged = tmp_path / "merged.pdf"
    writer.write(merged)
    assert "/PageLabels" not in pypdf.PdfReader(merged).trailer["/Root"]
    document = read_pdf(merged)
    front = ["i", "ii", "iii"]
    assert [page.label for page in document.pages] == (
        front + [str(n) for n in range(1, 43)] + front + [str(n) for n in range(1, 46)])
    assert [page.number for page in document.pages] == list(range(1, 94))


def _spans_pdf(path: Path, lines: list[list[bytes]]) -> Path:
    """A one-page PDF drawn as a word processor exports links and coloured spans: each piece of a line in a
    block of its own (40 units right of the last, or at the x a piece `(x, text)` gives), under a flipped text
    matrix, and byte 1 a zero-width space (its ToUnicode map)."""
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Spans def "
            b"1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfchar <01> <200B> endbfchar "
            b"1 beginbfrange <20> <7E> <0020> endbfrange endcmap CMapName currentdict /CMap defineresource pop end end")
    drawing = b"1 0 0 -1 0 792 cm " + b" ".join(
        b"q .75 0 0 .75 0 0 cm BT /F1 16 Tf 1 0 0 -1 0 0 Tm %d -%d Td (%s) Tj ET Q" % (
            *(piece if isinstance(piece, tuple) else (72 + 40 * at, piece))[:1], 120 + 30 * row,
            (piece if isinstance(piece, tuple) else (0, piece))[1])
        for row, pieces in enumerate(lines) for at, piece in enumerate(pieces))
    path.write_bytes(pdf_bytes([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> "
        b"/Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(drawing), drawing),
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(cmap), cmap),
    ]))
    return path


def test_a_link_between_zero_width_spaces_stays_on_its_printed_line(tmp_path):
    # pypdf sets each piece on a line of its own ("via \n\u200b\nemail\n\u200b\n or"); the page prints one line,
    # and the next printed line, opening with a link, still starts a line.
    zero = b"\\001"
    document = read_pdf(_spans_pdf(tmp_path / "rules.pdf", [
        [b"Ask us via ", zero, b"email", zero, b" or Twitter."],
        [zero, b"Each player", zero, b" draws two cards."]]))
    assert document.pages[0].text == "Ask us via email or Twitter.\nEach player draws two cards."


def test_a_page_drawn_a_word_at_a_time_keeps_its_printed_lines(tmp_path):
    # A Google Docs export draws each word in a block of its own; pypdf set each on a line, and every word of a
    # rulebook became a ruling of its own.
    rows = [[b"Rule", b"%d:" % n, b"each", b"player", b"draws", b"two", b"cards."] for n in range(1, 13)]
    document = read_pdf(_spans_pdf(tmp_path / "rules.pdf", rows))
    assert document.pages[0].text == "\n".join(f"Rule {n}: each player draws two cards." for n in range(1, 13))


def test_a_link_a_page_drawn_a_word_at_a_time_opens_with_a_zero_width_space_keeps_the_space_before_it(tmp_path):
    # A Google Docs export's links open with a zero-width space drawn where the link's first word starts: "See
    # section 7.1" was stored "Seesection 7.1" (eight times in one rulebook).
    zero = b"\\001"
    rows = [[b"Rule", b"%d:" % n, b"each", b"player", b"draws", b"two", b"cards."] for n in range(1, 12)]
    rows.append([(72, b"See"), (140, zero), (140, b"section"), (220, b"7.1.")])
    document = read_pdf(_spans_pdf(tmp_path / "rules.pdf", rows))
    assert document.pages[0].text.split("\n")[-1] == "See section 7.1."


def _runs_pdf(path: Path, lines: list[list[tuple[int, bytes]]]) -> Path:
    """A one-page PDF drawn as a word processor draws styled runs: each run of a line in a block of its own, at the
    x its text starts (in points, 12-point Helvetica)."""
    drawing = b" ".join(b"BT /F1 12 Tf %d %d Td (%s) Tj ET" % (x, 700 - 20 * row, run)
                        for row, runs in enumerate(lines) for x, run in runs)
    path.write_bytes(pdf_bytes(_helvetica_page(drawing)))
    return path


def _helvetica_page(drawing: bytes) -> list[bytes]:
    """The objects of a one-page PDF drawing `drawing` in Helvetica (its font object 4, its content 5)."""
    return [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> "
        b"/Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(drawing), drawing),
    ]


def test_the_styled_runs_of_a_printed_line_are_one_line(tmp_path):
    # A Google Docs rulebook draws each bold run apart; pypdf set "the" / "START OF DAY" / "phase, which…" on
    # lines of their own, and every heading after a page's first was read as part of the text before it.
    document = read_pdf(_runs_pdf(tmp_path / "rules.pdf", [
        [(72, b"Each day is the "), (153, b"START OF DAY"), (240, b" phase, in turn order.")],
        [(72, b"Movement")]]))
    assert document.pages[0].text.split("\n") == ["Each day is the START OF DAY phase, in turn order.", "Movement"]


def test_a_page_of_whole_lines_keeps_pypdfs_lines(tmp_path):
    # Pieces of one baseline on a page pypdf reads as whole lines (columns side by side) are not joined.
    rows = [[b"Each player draws two cards.", b"Play passes to the left."] for _ in range(12)]
    lines = read_pdf(_spans_pdf(tmp_path / "rules.pdf", rows)).pages[0].text.split("\n")
    assert lines == ["Each player draws two cards.", "Play passes to the left."] * 12


def _drawn_lines(folder: Path, drawing: bytes) -> list[str]:
    """The lines read from a one-page Helvetica PDF drawing `drawing`."""
    path = folder / "rules.pdf"
    path.write_bytes(pdf_bytes(_helvetica_page(drawing)))
    return read_pdf(path).pages[0].text.split("\n")


def test_text_off_the_page_is_no_text_of_the_page(tmp_path):
    # A rulebook's pages cut from two-page spreads keep the other page's text outside their box (x = -560, or past
    # the right edge): its rules came out twice, its running head glued into the page's.
    drawing = (b"BT /F1 12 Tf 72 700 Td (Components Overview) Tj ET "
               b"BT /F1 12 Tf -560 700 Td (4 War of the Ring Second Edition) Tj ET "
               b"BT /F1 12 Tf 72 680 Td (This rulebook explains every rule.) Tj ET "
               b"BT /F1 12 Tf 700 680 Td (Place the game board on a suitable surface.) Tj ET "
               b"BT /F1 12 Tf 72 660 Td (Each player takes a screen.) Tj ET")
    assert _drawn_lines(tmp_path, drawing) == [
        "Components Overview", "This rulebook explains every rule.", "Each player takes a screen."]


def test_a_page_drawn_inside_a_scaled_form_keeps_its_text(tmp_path):
    # A re-saved rulebook draws each page as one form scaled down ("0.1 0 0 0.1 0 0 cm /X1 Do"), its text scaled up
    # inside it; pypdf gives the text's place without the outer scale, past the page's edge, and the whole book
    # was refused as "no text layer" (a page drawn so among others went missing without a word).
    inner = b"q 10 0 0 10 0 0 cm BT /F1 14 Tf 72 700 Td (ADJACENCY) Tj ET " \
            b"BT /F1 10 Tf 72 680 Td (Spaces are adjacent if they share an edge.) Tj ET Q"
    page = b"q 0.1 0 0 0.1 0 0 cm /X1 Do Q"
    objects = _helvetica_page(page)
    objects[2] = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /X1 6 0 R >> >> "
                  b"/Contents 5 0 R >>")
    objects.append(b"<< /Type /XObject /Subtype /Form /BBox [0 0 6120 7920] /Resources << /Font << /F1 4 0 R >> >> "
                   b"/Length %d >>\nstream\n%s\nendstream" % (len(inner), inner))
    path = tmp_path / "rules.pdf"
    path.write_bytes(pdf_bytes(objects))
    assert read_pdf(path).pages[0].text.split("\n") == ["ADJACENCY", "Spaces are adjacent if they share an edge."]


def test_a_heading_drawn_after_the_text_under_it_stands_over_that_text(tmp_path):
    # A publisher's rulebook draws its headings after the page's body: "SETUP" came after the setup rules and
    # "I: EXPLORE" after the explore rules, so each page's rules were filed under the heading before. A margin
    # note drawn after them (text size) and the page number drawn first keep pypdf's order.
    drawing = (b"BT /F1 9 Tf 300 40 Td (2) Tj ET "
               b"BT /F1 9 Tf 72 700 Td (Place twelve chips per player.) Tj ET "
               b"BT /F1 9 Tf 72 688 Td (Deal six cards to each player.) Tj ET "
               b"BT /F1 9 Tf 72 640 Td (Action: each player draws two cards.) Tj ET "
               b"BT /F1 9 Tf 72 628 Td (Keep one of them.) Tj ET "
               b"BT /F1 9 Tf 400 700 Td (Set out the chips.) Tj ET "
               b"BT /F1 14 Tf 72 720 Td (SETUP) Tj ET "
               b"BT /F1 14 Tf 72 668 Td (I: EXPLORE) Tj ET "
               b"BT /F1 14 Tf 72 654 Td (AND DRAW) Tj ET")
    assert _drawn_lines(tmp_path, drawing) == [
        "2", "SETUP", "Place twelve chips per player.", "Deal six cards to each player.", "I: EXPLORE", "AND DRAW",
        "Action: each player draws two cards.", "Keep one of them.", "Set out the chips."]


def test_a_heading_a_little_larger_than_its_text_drawn_after_it_stands_over_it(tmp_path):
    # A rulebook's action names, 16 points over 14-point text, drawn last on each page: every action's name headed
    # the next action's text ("Commission: This action requires 3 Workers (1 Merchant…", the Fortify rule).
    drawing = (b"BT /F1 14 Tf 72 700 Td (This action requires two Workers.) Tj ET "
               b"BT /F1 14 Tf 72 680 Td (It costs four Silver.) Tj ET "
               b"BT /F1 16 Tf 72 722 Td (Develop) Tj ET")
    assert _drawn_lines(tmp_path, drawing) == [
        "Develop", "This action requires two Workers.", "It costs four Silver."]


def test_a_heading_drawn_before_its_text_keeps_its_place(tmp_path):
    # A picture's large label drawn after the text beside it, and a heading over text drawn after it, stay put.
    drawing = (b"BT /F1 14 Tf 72 720 Td (SETUP) Tj ET "
               b"BT /F1 9 Tf 72 700 Td (Place twelve chips per player.) Tj ET "
               b"BT /F1 9 Tf 72 688 Td (Deal six cards to each player.) Tj ET "
               b"BT /F1 14 Tf 400 600 Td (Start world) Tj ET")
    assert _drawn_lines(tmp_path, drawing) == [
        "SETUP", "Place twelve chips per player.", "Deal six cards to each player.", "Start world"]


# ---------------------------------------------------------------- PDFs that cannot be read

def test_headings_the_type_sets_apart_are_marked_as_markdown_marks_them(tmp_path):
    # A browser print: "Character types and changed information" (h3, sentence case) printed last on its page was
    # glued to the rule before it, its four rules filed under "Day Phase". A heading numbered as rules are ("1.1." /
    # "General") is left to the numbering; a page number and a figure's letters are never headings, nor a sentence
    # set large.
    body = b" ".join(b"BT /F1 10 Tf 72 %d Td (%s) Tj ET" % (690 - 6 * n, line) for n, line in enumerate((
        b"During the day you may talk about what happened.", b"Death is not the end for you.",
        b"You still have much to gain by participating.", b"The Demon kills someone each night.",
        b"The town will choose to execute someone each day.", b"Most of you will be dead by the end.") * 5))
    drawing = (b"BT /F1 24 Tf 72 740 Td (Game Explanation) Tj ET "
               b"BT /F1 16 Tf 72 700 Td (Day Phase) Tj ET " + body +
               b" BT /F1 10 Tf 72 500 Td (Done.) Tj ET BT /F1 16 Tf 72 486 Td (Character types and changed information) Tj ET"
               b" BT /F1 16 Tf 72 460 Td (A) Tj ET BT /F1 16 Tf 72 440 Td (Keep your token secret.) Tj ET"
               b" BT /F1 10 Tf 72 420 Td (The character reference shows four types.) Tj ET"
               b" BT /F1 10 Tf 300 40 Td (2) Tj ET")
    lines = _drawn_lines(tmp_path, drawing)
    assert [line for line in lines if line.startswith("#")] == [
        "# Game Explanation", "# Day Phase", "# Character types and changed information"]
    assert "A" in lines and "Keep your token secret." in lines and "2" in lines
    assert "1.2 Character types and changed information" in _drawn_lines(tmp_path, drawing.replace(
        b"(Character types", b"(1.2 Character types"))
    assert "Character types and changed information" in _drawn_lines(tmp_path, drawing.replace(b"(Done.)", b"(1.1.)"))


def test_a_sidebar_set_larger_than_the_text_is_no_heading(tmp_path):
    sidebar = b" ".join(b"BT /F1 12 Tf 72 %d Td (Designer note line %d about the scoring) Tj ET" % (700 - 16 * n, n)
                        for n in range(30))
    body = b" ".join(b"BT /F1 10 Tf 72 %d Td (Each player draws a card and plays one card) Tj ET" % (200 - 12 * n)
                     for n in range(12))
    assert not any(line.startswith("#") for line in _drawn_lines(tmp_path, sidebar + b" " + body))


def _fails(path: Path, *phrases: str) -> IngestError:
    with pytest.raises(IngestError) as caught:
        read_pdf(path)
    error = caught.value
    assert error.path == str(path) and str(path) in str(error)
    for phrase in phrases:
        assert phrase in error.message
    return error


@needs_corpora
@pytest.mark.parametrize("keep", [0.5, 0.99])
def test_a_truncated_pdf_is_refused_as_damaged(tmp_path, keep):
    data = LATEST.read_bytes()
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(data[:int(len(data) * keep)])
    _fails(cut, "damaged PDF", "again")


@needs_corpora
def test_a_pdf_with_garbage_inside_is_refused_as_damaged(tmp_path):
    data = bytearray(LATEST.read_bytes())
    data[1000:200_000] = b"x" * 199_000
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(bytes(data))
    error = _fails(broken, "damaged PDF")
    assert len(error.message) < 300


@needs_corpora
def test_a_password_protected_pdf_is_refused_with_what_to_do(tmp_path):
    writer = pypdf.PdfWriter(clone_from=str(LATEST))
    writer.encrypt("secret", algorithm="RC4-128")
    locked = tmp_path / "locked.pdf"
    writer.write(locked)
    _fails(locked, "encrypted with a password", "unprotected copy")


@needs_corpora
def test_a_pdf_encrypted_without_a_user_password_is_read(tmp_path):
    pytest.importorskip("cryptography", reason="AES needs the cryptography package")
    writer = pypdf.PdfWriter(clone_from=str(LATEST))
    writer.encrypt(user_password="", owner_password="owner", algorithm="AES-256")
    restricted = tmp_path / "restricted.pdf"
    writer.write(restricted)
    document = read_pdf(restricted)
    assert len(document.pages) == 48
    assert "6.1.2.1. A character has a {S} value" in document.pages[16].text


def test_a_pdf_of_blank_pages_has_no_text_layer(tmp_path):
    writer = pypdf.PdfWriter()
    writer.add_blank_page(612, 792)
    writer.add_blank_page(612, 792)
    blank = tmp_path / "blank.pdf"
    writer.write(blank)
    _fails(blank, "no text layer", "OCR")


def _image_only_pdf(path: Path) -> Path:
    """A one-page PDF whose page is a grey-scale picture and nothing else, as a scanner makes them."""
    width, height = 85, 110
    pixels = bytearray(b"\xff" * width * height)
    pixels[20 * width:23 * width] = b"\x00" * 3 * width  # a dark band where a line of print would be
    drawing = b"q 612 0 0 792 0 0 cm /Im0 Do Q"
    path.write_bytes(pdf_bytes([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 4 0 R >> >> "
         b"/Contents 5 0 R >>"),
        (b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 "
         b"/Length %d >>\nstream\n%s\nendstream" % (width, height, len(pixels), bytes(pixels))),
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(drawing), drawing),
    ]))
    return path


def test_a_scanned_pdf_is_refused_with_a_pointer_to_ocr(tmp_path):
    scan = _image_only_pdf(tmp_path / "scan.pdf")
    assert list(pypdf.PdfReader(scan).pages[0]["/Resources"]["/XObject"]) == ["/Im0"]
    _fails(scan, "no text layer", "OCR")


@pytest.mark.parametrize("content, phrase", [
    (b"", "file is empty"),
    (b"Just some text, not a PDF at all.\n", "not a PDF"),
    (b"\x89PNG\r\n\x1a\n" + bytes(2000), "not a PDF"),
])
def test_a_file_that_is_not_a_pdf_is_refused(tmp_path, content, phrase):
    fake = tmp_path / "fake.pdf"
    fake.write_bytes(content)
    _fails(fake, phrase)


def test_a_missing_pdf_is_refused(tmp_path):
    _fails(tmp_path / "nowhere.pdf", "file not found")


def _text_pdf(path: Path, title: bytes) -> Path:
    """A one-page PDF with a line of text and the document information /Title `title`."""
    drawing = b"BT /F1 12 Tf 72 700 Td (Each player draws two cards.) Tj ET"
    path.write_bytes(pdf_bytes([*_helvetica_page(drawing), b"<< /Title (%s) >>" % title], info=6))
    return path


@pytest.mark.parametrize("declared, title", [
    (b"WFDF Rules of Ultimate", "WFDF Rules of Ultimate"),
    (b"[T2R] rules EN reprint 2015_TTR2 rules US", None),  # a print job's name
    (b"Microsoft Word - rules.docx", None),
    (b"", None),
    (b"Hadrian's Wall Rulebook - 1jour-1jeu.com", "Hadrian's Wall Rulebook"),  # a download site's stamp
    (b"Rules - Version 2.0", "Rules - Version 2.0"),
    (b"vbsf-campaign-rules-a5.html", None),  # a browser's print of a page without a title of its own
])
def test_the_declared_title_is_read_when_it_reads_as_a_title(tmp_path, declared, title):
    document = read_pdf(_text_pdf(tmp_path / "rules.pdf", declared))
    assert document.pages[0].text == "Each player draws two cards."
    assert document.title == title
