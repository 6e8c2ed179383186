"""A researcher in Datasette, in a real browser: ask in plain words, read a row, go to the web app and back.

Runs headless Debian chromium against `rulings serve` and `rulings browse` started as subprocesses
(tests/browser/harness.py). Screenshots go to test-artifacts/.
"""
import pytest
from harness import ARTIFACTS, CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

QUESTION = "can I cast a spell on an army in reserve"
RESERVE = "dragon-dice/magic/general/m"
ROW = "/rulings/rulings/dragon-dice~2Fmagic~2Fgeneral~2Fm"


def test_a_plain_words_question_in_the_search_query_finds_the_ruling(page, urls):
    app_url, datasette_url = urls
    page.goto(f"{datasette_url}/rulings/search")
    expect(page.locator("#sql-query")).to_have_count(0)  # the form, not the SQL
    page.fill("input[name=q]", QUESTION)
    page.select_option("select[name=game]", label="Dragon Dice")
    page.locator("form.sql input[type=submit]").click()
    expect(page.locator("td.col-ref").first).to_be_visible()
    page.wait_for_load_state()  # the whole table parsed, not only its first row
    assert set(page.locator("td.col-game").all_inner_texts()) == {"Dragon Dice"}
    links = [link.get_attribute("href") for link in page.locator("td.col-link a").all()[:3]]
    assert f"{app_url}/r/{RESERVE}" in links
    expect(page.locator("select[name=game]")).to_have_value("dragon-dice")
    page.screenshot(path=ARTIFACTS / "datasette-search.png")


def test_the_table_search_box_finds_the_rulings_holding_every_word(page, urls):
    _, datasette_url = urls
    page.goto(f"{datasette_url}/rulings/rulings")
    page.fill("input#_search", "reserve army mag")  # the last word still being typed
    page.press("input#_search", "Enter")
    expect(page.locator(f'a[href$="{ROW}"]')).to_have_count(1)
    expect(page.locator("td.col-text")).to_have_count(2)  # the two rulings that hold all three


def test_facet_values_wrap_between_words_never_inside_one(page, urls):
    _, datasette_url = urls
    page.goto(f"{datasette_url}/rulings/rulings?_facet=section")
    # Each word (between spaces) of every facet value lies on one line: its characters' boxes share a top.
    split = page.evaluate("""() => {
        const split = [];
        for (const link of document.querySelectorAll(".facet-info li a:not(.cross)")) {
            const text = link.firstChild, value = text.textContent;
            let start = 0;
            for (const word of value.split(" ")) {
                const range = document.createRange();
                range.setStart(text, start); range.setEnd(text, start + word.length);
                const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                if (tops.size > 1) split.push(word);
                start += word.length + 1;
            }
        }
        return split;
    }""")
    wrapped = page.evaluate("""() => [...document.querySelectorAll(".facet-info li a:not(.cross)")]
                               .filter(a => a.getClientRects().length > 1).length""")
    assert wrapped > 0, "no facet value is long enough to wrap: the check would prove nothing"
    assert split == []
    page.screenshot(path=ARTIFACTS / "datasette-facets.png")


def test_a_status_facet_reads_in_plain_words_and_filters_by_it(page, urls):
    _, datasette_url = urls
    page.goto(f"{datasette_url}/rulings/ruling_status")
    facet = page.locator('.facet-info[data-column="status"]')
    expect(facet).not_to_contain_text("unlinked")
    facet.get_by_role("link", name="Not checked", exact=True).click()
    expect(page.locator("td.col-status").first).to_have_text("Not checked")


def test_the_csv_link_downloads_a_file(page, urls):
    _, datasette_url = urls
    page.goto(f"{datasette_url}/rulings/games")
    with page.expect_download() as download:
        page.get_by_role("link", name="CSV", exact=True).click()
    assert download.value.suggested_filename == "games.csv"
    assert download.value.path().read_text(encoding="utf-8").startswith("slug,name")


def test_a_row_reads_down_the_page_and_links_to_the_web_app_and_back(page, urls):
    app_url, datasette_url = urls
    page.goto(datasette_url + ROW)
    text = page.locator("td.col-text")
    # The ruling's text wraps in a readable column, its column's name above it, not squeezed beside ten others.
    assert text.bounding_box()["width"] > 500
    assert text.evaluate("td => getComputedStyle(td, '::before').content") == '"text"'
    page.screenshot(path=ARTIFACTS / "datasette-row-readable.png", full_page=True)

    page.locator(f'td.col-title a[href="{app_url}/r/{RESERVE}"]').click()
    expect(page).to_have_url(f"{app_url}/r/{RESERVE}")
    page.locator("a.datasette").click()
    expect(page).to_have_url(datasette_url + ROW)


def test_the_data_comes_before_the_column_descriptions(page, urls):
    _, datasette_url = urls
    page.goto(f"{datasette_url}/rulings/rulings")
    expect(page.locator("details > summary", has_text="What each column means")).to_be_visible()
    expect(page.locator("dl.column-descriptions")).to_be_hidden()
    for facet in ("game", "source", "kind"):  # facets by default, above the fold
        expect(page.locator(f'.facet-info[data-column="{facet}"]')).to_be_in_viewport()
    page.screenshot(path=ARTIFACTS / "datasette-table.png")


def test_datasettes_pages_run_their_scripts_under_the_content_security_policy(page, urls):
    _, datasette_url = urls
    refused = []
    page.on("console", lambda message: refused.append(message.text)
            if "Content Security Policy" in message.text else None)
    for path in ["/", "/rulings", "/rulings/rulings", ROW, "/rulings/search", "/-/settings"]:
        page.goto(datasette_url + path)
    assert refused == []
    page.goto(f"{datasette_url}/rulings?sql=select+1")
    expect(page.locator(".CodeMirror")).to_have_count(1)  # the SQL editor, from Datasette's own scripts
    page.goto(f"{datasette_url}/rulings/rulings")
    page.locator("th.col-game svg").first.click()  # table.js's column menu
    expect(page.locator(".dropdown-menu")).to_be_visible()
    assert refused == []
