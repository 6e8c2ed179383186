"""A judge follows a citation into a book flattened onto one line: the source page scrolls to the ruling and
highlights just its words, not the whole book; a table in a ruling reads as a table."""
import pytest
from harness import ARTIFACTS, CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

RULING = "paths-of-the-lance/new-rules/c"


def test_the_citation_of_a_flattened_book_highlights_just_the_ruling_and_scrolls_to_it(page, urls, conn):
    app_url, _ = urls
    row = conn.execute("select char_start, char_end, text from rulings where id = ?", [RULING]).fetchone()
    page.goto(f"{app_url}/r/{RULING}")
    page.locator("p.cite a.citation").click()
    marked = page.locator("mark")
    expect(marked).to_have_count(1)
    expect(page.locator("mark#cited")).to_be_in_viewport()
    assert marked.inner_text() == conn.execute("select substr(original_text, ?, ?) from sources where id = ?",
                                               [row["char_start"] + 1, row["char_end"] - row["char_start"],
                                                "paths-of-the-lance-rules"]).fetchone()[0]
    assert marked.inner_text().startswith(row["text"][:40])
    whole = page.locator("#L6").inner_text()
    assert len(marked.inner_text()) < len(whole) / 5  # the book is one line; the highlight is the ruling
    # The ruling's marker stands where it starts, not at the top of the line with every other marker.
    marker = page.locator(f'[id="r-{RULING}"]')
    assert abs(marker.bounding_box()["y"] - page.locator("mark#cited").bounding_box()["y"]) < 30
    page.screenshot(path=ARTIFACTS / "source-flattened-cited.png")


def test_a_table_in_a_ruling_reads_as_a_table(page, urls):
    app_url, _ = urls
    page.goto(f"{app_url}/r/paths-of-the-lance/new-rules/a")
    table = page.locator("blockquote.text table")
    expect(table).to_be_visible()
    expect(table.locator("tbody tr")).to_have_count(5)
    expect(table.locator("tbody tr").first).to_contain_text("Kitiara")
