"""Parsers that cannot explode (issue 23): each reader refuses a document past its limits (`ingest.limits`)
with one IngestError naming the file and the limit, and reads an odd but legitimate one in time linear in its
size. No test here times anything: the inputs are sized so that the old quadratic (or exponential) code takes
minutes to hours on them and the linear code well under a second, so a regression shows as a hung test.
The end-to-end hostile corpus (`rulings add`, time, memory, exit status) is tests/test_hostile_documents.py's."""
from __future__ import annotations

import zlib
from pathlib import Path

import pytest

from ingest import clean, tables
from ingest.errors import IngestError
from ingest.formats import Outline, detect, html, markdown, read
from ingest.formats.data import json_value
from ingest.formats.pdf import _printed_labels, normalise
from ingest.furniture import strip_furniture
from ingest.limits import Limits
from ingest.manifest import SourceEntry
from ingest.pipeline import clean_document, parse_source
from ingest.shapes import SHAPES
from ingest.structure import flow
from ingest.text import MappedText
from support.pdfs import pdf_bytes

RUN = 350_000  # characters in a hostile run: quadratic work on it is ~10^11 steps, linear well under a second
DEEP = 10_000  # levels of nesting: Python's own recursion limit is 1,000


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def refused(path: Path, limits: Limits | None = None) -> str:
    """The one-line message `formats.read` refuses `path` with (it must refuse), checked to name the file."""
    with pytest.raises(IngestError) as caught:
        read(path, limits)
    message = str(caught.value)
    assert message.startswith(str(path)) and "\n" not in message
    return message


ENTRY = SourceEntry(id="doc", file="doc.txt", game="game", title="Doc", author="", kind="rulebook", language="en",
                    shape="auto")


def parse(tmp_path: Path, text: str):
    """The rulings `rulings add` would make of `text` saved as a text file."""
    write(tmp_path, ENTRY.file, text)
    return parse_source(ENTRY, tmp_path)


# -- HTML -----------------------------------------------------------------------------------------------------

def test_html_lists_nested_past_the_depth_limit_are_refused(tmp_path):
    page = "<html><body>" + "<ul><li>x" * DEEP + "</li></ul>" * DEEP + "</body></html>"
    message = refused(write(tmp_path, "nested.html", page))
    assert ":1: lists nested too deep: past the limit depth=200" in message and "--limit depth=N" in message


def test_html_lists_nested_within_the_depth_limit_are_read_with_bounded_indentation():
    out = Outline()
    html.read("<ul><li>x" * 150 + "</li></ul>" * 150, out)
    lines = out.mapped(0).text.splitlines()
    assert len(lines) == 150 and max(len(line) for line in lines) < 70  # indentation stops deepening


def test_html_of_more_elements_than_the_limit_is_refused(tmp_path):
    page = "<html><body>" + "<p>A rule.</p>" * 1_000 + "</body></html>"
    assert "too many elements: past the limit elements=500" in refused(write(tmp_path, "big.html", page),
                                                                      Limits(elements=500))
    assert read(write(tmp_path, "fits.html", page), Limits(elements=2_000)).format == "html"


@pytest.mark.parametrize("unfinished", ["<a ", "<a/", '<a x="', "<!--"])
def test_html_ending_inside_a_tag_or_comment_is_read_in_linear_time(unfinished):
    # Python 3.11's html.parser re-read the rest of the input from every `<` of an unfinished construct.
    out = Outline()
    html.read("<p>Each player draws a card.</p>" + unfinished * (RUN // len(unfinished)), out)
    assert out.mapped(0).text.startswith("Each player draws a card.")


# -- markdown -------------------------------------------------------------------------------------------------

def test_markdown_emphasis_nested_past_the_depth_limit_is_refused_not_a_recursion_error(tmp_path):
    message = refused(write(tmp_path, "stars.md", "*" * DEEP + "a" + "*" * DEEP + "\n"))
    assert ":1: markup nested too deep: past the limit depth=200" in message


def test_markdown_of_more_elements_than_the_limit_is_refused(tmp_path):
    text = "# Rules\n\n" + "".join(f"{n}. Rule {n}.\n" for n in range(1, 400))
    assert "past the limit elements=1000" in refused(write(tmp_path, "rules.md", text), Limits(elements=1_000))


def test_a_markdown_list_deeper_than_markdown_nests_is_read_flat():
    out = Outline()
    markdown.read("".join("  " * level + "- item\n" for level in range(100)), out)
    assert max(len(line) for line in out.mapped(0).text.splitlines()) < 70


@pytest.mark.parametrize("line", ["<div " + "markdown=1 " * (RUN // 11), "<main " * (RUN // 6) + "</main"])
def test_a_markdown_block_tag_or_a_page_of_main_tags_is_read_in_linear_time(line):
    # "markdown=" tried again to the line's end from each occurrence read 20,000 of them in seconds.
    out = Outline()
    markdown.read(line + "\n\nA rule.\n", out)
    html.read(line, Outline())
    assert "A rule." in out.mapped(0).text


# -- JSON and YAML --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, text", [
    ("deep.json", "[" * DEEP + "]" * DEEP),
    ("deep.txt", "[" * DEEP + "]" * DEEP),  # told by its content
    ("faq.json", '{"faq": [{"question": "Q?", "answer": "A."}], "notes": ' + "[" * DEEP + "]" * DEEP + "}"),
])
def test_json_nested_past_the_depth_limit_is_refused_not_a_recursion_error(tmp_path, name, text):
    assert ":1: JSON nested too deep: past the limit depth=200" in refused(write(tmp_path, name, text))


def test_json_of_more_values_than_the_limit_is_refused():
    with pytest.raises(ValueError, match="too many values: past the limit elements=100"):
        json_value("[" + ",".join(["1"] * 200) + "]", Limits(elements=100))


def test_an_unclosed_json_string_full_of_escaped_quotes_is_refused_in_linear_time():
    with pytest.raises(ValueError, match="invalid JSON"):
        json_value('["' + '\\"' * (RUN // 2), Limits())


BILLION_LAUGHS = 'a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n' + "".join(
    f"{name}: &{name} [{', '.join(['*' + before] * 9)}]\n" for before, name in zip("abcdefgh", "bcdefghi"))


@pytest.mark.parametrize("name", ["laughs.yaml", "laughs.txt"])
def test_yaml_whose_aliases_expand_past_the_limit_is_refused_named_yaml_or_not(tmp_path, name):
    # 81 aliases in 342 bytes that expand to 387 million values: counted as they expand, never expanded.
    assert "YAML whose aliases expand too many times: past the limit aliases=10000" in refused(
        write(tmp_path, name, BILLION_LAUGHS))


def test_yaml_expanding_to_more_values_than_the_limit_is_refused(tmp_path):
    text = "a: &a [" + ", ".join(["x"] * 100) + "]\nb: [*a, *a, *a]\n"
    assert "past the limit elements=250" in refused(write(tmp_path, "data.yaml", text), Limits(elements=250))


def test_yaml_nested_past_the_depth_limit_is_refused(tmp_path):
    assert "YAML nested too deep: past the limit depth=200" in refused(
        write(tmp_path, "deep.yaml", "---\n" + "[" * DEEP + "]" * DEEP + "\n"))


def test_a_yaml_alias_inside_its_own_value_is_refused(tmp_path):
    assert "alias stands inside its own value" in refused(write(tmp_path, "loop.yaml", "a: &a [x, *a]\n"))


def test_yaml_questions_sharing_an_answer_by_alias_are_still_read(tmp_path):
    text = ("faq:\n  - question: Can a unit move twice?\n    answer: &no No, once a turn.\n"
            "  - question: Can a unit attack twice?\n    answer: *no\n")
    document = read(write(tmp_path, "faq.yaml", text))
    assert document.text.text.count("A: No, once a turn.") == 2


def test_a_control_character_in_yaml_is_one_line_of_refusal_and_no_yaml_in_a_text_file(tmp_path):
    assert read(write(tmp_path, "odd.txt", "0:\x1f")).format == "text"
    assert refused(write(tmp_path, "faq.yaml", "faq:\n  - q: a\x1f\n    a: b\n")).endswith(
        "invalid YAML: unacceptable character #x001f: special characters are not allowed")


# -- text -----------------------------------------------------------------------------------------------------

def test_a_nul_byte_past_the_first_8_kb_is_refused_naming_its_line(tmp_path):
    text = "1. A rule.\n" * 1_000 + "2. A rule with a \x00 in it.\n"
    assert ":1001: holds a NUL character" in refused(write(tmp_path, "rules.txt", text))


def test_unicode_paragraph_separators_break_lines(tmp_path):
    document = read(write(tmp_path, "rules.txt", "1. Draw a card.\u20292. Play a card.\u2028"))
    assert document.original == "1. Draw a card.\n2. Play a card.\n"


@pytest.mark.parametrize("name, line", [("flat.txt", "the player may move. "), ("flat.md", "the player may move. "),
                                        ("flat.html", "<p>the player may move. ")])
def test_a_paragraph_of_megabytes_is_refused_as_a_file_that_lost_its_line_breaks(tmp_path, name, line):
    text = "Rules\n\n" + line + "the player may move. " * 50_000
    assert ":3: a paragraph of more than 1,000,000 characters" in refused(write(tmp_path, name, text))


# -- PDF ------------------------------------------------------------------------------------------------------

def _pdf(pages: int, content: bytes, form: bytes | None = None) -> bytes:
    """A PDF of `pages` pages sharing one compressed content stream (and, with `form`, one form XObject)."""
    def stream(data: bytes, extra: bytes = b"") -> bytes:
        packed = zlib.compress(data)
        return b"<< /Length %d /Filter /FlateDecode%s >>\nstream\n%s\nendstream" % (len(packed), extra, packed)
    resources = b"/Font << /F1 3 0 R >>" + (b" /XObject << /X1 5 0 R >>" if form else b"")
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % (6 + n) for n in range(pages)),
                                                            pages),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
               stream(content),
               stream(form or b"", b" /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << "
                      + resources + b" >>")]
    objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << %s >> /Contents 4 0 R >>"
                % resources] * pages
    return pdf_bytes(objects)


TEXT = b"BT /F1 12 Tf 72 700 Td (Each player draws two cards.) Tj ET\n"


def test_pdf_pages_sharing_a_stream_that_inflates_past_the_limit_are_refused_before_parsing(tmp_path):
    # 2,000 pages, each parsing the same 2 MB of content: 4 GB of parsing from a 20 kB file.
    path = write(tmp_path, "bomb.pdf", _pdf(2_000, TEXT + b" " * 2**21))
    message = refused(path, Limits(inflated_mb=10))
    assert ": page 5: the PDF's content streams inflate too far by this page: past the limit inflated_mb=10" \
        in message


def test_a_form_painted_on_every_page_counts_each_time_it_is_painted(tmp_path):
    path = write(tmp_path, "forms.pdf", _pdf(1, b"/X1 Do\n" * 1_000, form=TEXT + b" " * 20_000))
    assert ": page 1: the PDF's content streams inflate too far" in refused(path, Limits(inflated_mb=10))


def test_a_pdf_within_the_inflation_limit_is_read(tmp_path):
    document = read(write(tmp_path, "rules.pdf", _pdf(3, TEXT)))
    assert document.format == "pdf" and document.original.count("Each player draws two cards.") == 3


# -- cleaners and segmenters: long runs and long lines --------------------------------------------------------

HOSTILE_LINES = [  # each against the pattern that once read it quadratically (or worse)
    "a" + " " * RUN + "b",                      # the readers' tidy: whitespace before a [cite: ...]
    "-" * RUN + "x",                            # a table's rule line
    "1." * (RUN // 2) + "x",                    # a decimal rule number
    "1. a" + " " * RUN + "b",                   # a numbered rule's text
    "Article 1" + " " * RUN + "!",              # a keyword heading
    "a" + " " * (RUN // 2) + "b" + "c" * (RUN // 2),  # columns of a table
    "x. " + " ".join(chr(65 + n % 26) + chr(65 + n // 26 % 26) for n in range(RUN // 3)),  # names in capitals
    "page" + " " * RUN + "x",                   # a printed page number
    ". " * (RUN // 2) + "x1",                   # a contents entry's dot leader
]


@pytest.mark.slow
@pytest.mark.parametrize("line", HOSTILE_LINES, ids=lambda line: repr(line[:12]))
def test_cleaners_and_segmenters_read_a_hostile_line_in_linear_time(line):
    doc = MappedText.of(f"Contents\n{line}\n\n1. A rule.\n")
    cleaned = clean_document(doc, doc.text, ENTRY, clean.vocabulary(doc.text))
    found = strip_furniture(cleaned)
    read_down, _ = tables.read_down(found.text, found.pages.page_of)
    for shape in SHAPES.values():
        shape(read_down, ())
    assert flow(line) and normalise(line) and _printed_labels([line, line])


@pytest.mark.slow
@pytest.mark.parametrize("text", [
    "\n" * RUN + "A rule.",                     # no blog's reader comments after blank lines
    "Contents" + "\n" * RUN,                    # a flattened contents, its entries after blank lines
])
def test_segmenters_read_many_blank_lines_in_linear_time(text):
    doc = MappedText.of(text)
    for shape in SHAPES.values():
        assert shape(doc, ()) is not None


def test_a_long_column_of_numbers_without_column_names_is_no_table_and_read_in_linear_time():
    doc = MappedText.of("1\n" * (RUN // 2))
    assert tables.read_down(doc, lambda offset: None) == (doc, [])


@pytest.mark.parametrize("text", [
    "x" + "[" * RUN,                            # a link's text with no end
    "\t" * RUN + "\n",                          # a table rule that is only spaces
    " __1" * (RUN // 4),                        # bold spans that never close
    "<!-- -->" * 100 + "x",                     # comments before no <html> (exponential)
])
def test_format_detection_reads_hostile_text_in_linear_time(text):
    assert detect(text) == "text"


@pytest.mark.slow
def test_many_rulings_with_the_same_id_and_references_are_made_in_linear_time(tmp_path):
    repeated = "".join(f"{n // 50 + 1}.{n % 50 + 1} Rule text. See Movement.\n" for n in range(5_000))
    parsed = parse(tmp_path, repeated + "1. a\n" * 10_000)
    assert len(parsed.rulings) > 5_000 and len({ruling.id for ruling in parsed.rulings}) == len(parsed.rulings)
    assert sum(xref.target == "Movement" for xref in parsed.xrefs) == 5_000
