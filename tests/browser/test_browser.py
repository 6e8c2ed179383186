"""A judge in a real browser: ask, follow the permalink, open the citation and Datasette, print the handbook.

Runs headless Debian chromium (/usr/bin/chromium, installed by .ci/run) against `rulings serve` and
`rulings browse` started as subprocesses. Screenshots and the PDF go to test-artifacts/.
"""
import re
import shutil
from urllib.parse import urlencode

import pytest
from harness import ARTIFACTS, CHROMIUM, servers

from kb.verify import verify

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

QUESTION = "Can a reserve army double its magic?"
BEST = "dragon-dice/magic/general/m"
# Not covered by the documents, with a recorded gap: the Paths of the Lance contents promise "New Rules E. Supply".
NOT_COVERED = "How do supply lines work for the armies?"
# Its right ruling (Stoneskin: "an entire ARMY only") comes first, but the evidence is not sure enough to say so.
UNSURE = "Can I put Stoneskin on a single unit, or on an opponent's army in a multiplayer Dragon Dice game?"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.set_default_timeout(30_000)
    yield context.new_page()
    context.close()


def test_ask_follow_the_permalink_and_open_the_row_in_datasette(page, urls):
    app_url, datasette_url = urls
    page.goto(app_url + "/")
    page.fill("#q", QUESTION)
    page.press("#q", "Enter")
    first = page.locator("article.ruling").first
    expect(first).to_have_attribute("id", BEST)
    expect(first.locator(".badge")).to_be_visible()
    page.screenshot(path=ARTIFACTS / "ask.png")

    first.locator("a.permalink").click()
    expect(page).to_have_url(f"{app_url}/r/{BEST}")
    expect(page.locator("h1")).to_have_text("DD Magic M A reserve army magic action may NEVER result in doubled points.")
    page.screenshot(path=ARTIFACTS / "ruling.png", full_page=True)

    row_link = page.locator("a.datasette")
    assert row_link.get_attribute("href").startswith(datasette_url + "/rulings/rulings/")
    row_link.click()
    expect(page).to_have_url(f"{datasette_url}/rulings/rulings/dragon-dice~2Fmagic~2Fgeneral~2Fm")
    expect(page.locator("body")).to_contain_text("This ALSO means that black magic CANNOT be doubled")
    page.screenshot(path=ARTIFACTS / "datasette-row.png")


def test_the_citation_opens_the_source_at_the_highlighted_passage(page, urls):
    app_url, _ = urls
    page.goto(f"{app_url}/r/{BEST}")
    page.locator("p.cite a.citation").click()
    expect(page).to_have_url(re.compile(rf"{app_url}/sources/dragon-dice-faq-magic\?start=\d+&end=\d+#cited"))
    expect(page.locator("mark#cited")).to_be_in_viewport()
    expect(page.locator("mark#cited")).to_contain_text("A reserve army magic action may NEVER")
    expect(page.locator("#L119")).to_contain_text("A reserve army magic action may NEVER")
    page.screenshot(path=ARTIFACTS / "source-cited.png")


def test_a_keyboard_alone_can_ask_and_open_a_ruling(page, urls):
    app_url, _ = urls
    page.goto(app_url + "/")
    page.keyboard.press("Tab")
    expect(page.locator("a.skip")).to_be_focused()
    expect(page.locator("a.skip")).to_be_in_viewport()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.locator("#q")).to_be_focused()
    page.keyboard.type(QUESTION)
    page.keyboard.press("Enter")
    expect(page.locator("article.ruling").first).to_have_attribute("id", BEST)
    title = page.locator(f'article.ruling h4 a[href="/r/{BEST}"]')
    for _ in range(40):
        if title.evaluate("link => link === document.activeElement"):
            break
        page.keyboard.press("Tab")
    expect(title).to_be_focused()
    assert title.evaluate("link => getComputedStyle(link).outlineStyle") != "none"
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{app_url}/r/{BEST}")


def test_a_keyboard_alone_can_open_the_recorded_gap_of_a_question_not_covered(page, urls):
    app_url, _ = urls
    page.goto(app_url + "/?" + urlencode({"q": NOT_COVERED}))
    expect(page.locator("section.results.nearest")).to_contain_text("The documents don't appear to cover this: a source records it as missing.")
    gap = page.locator("ul.gaps-found a").first
    for _ in range(40):
        if gap.evaluate("link => link === document.activeElement"):
            break
        page.keyboard.press("Tab")
    expect(gap).to_be_focused()
    page.screenshot(path=ARTIFACTS / "ask-not-covered.png")
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{app_url}/sources/paths-of-the-lance-rules?lines=6-6#L6")
    expect(page.locator("#L6")).to_be_visible()


def test_each_outcome_says_only_what_the_evidence_backs(page, urls):
    app_url, _ = urls
    results, heading = page.locator("section.results"), page.locator("#results-heading")
    page.goto(app_url + "/?" + urlencode({"q": UNSURE}))
    expect(results).to_have_class(re.compile(r"\boutcome-closest\b"))
    expect(heading).to_contain_text("Closest rulings — check them")
    expect(results.locator("article.ruling").first).to_contain_text("This spell applies to an entire ARMY only")
    for claim in ("don't appear to cover", "not an answer", "Not covered"):
        expect(results).not_to_contain_text(claim)
    page.screenshot(path=ARTIFACTS / "ask-closest.png")
    page.goto(app_url + "/?" + urlencode({"q": "What is a good recipe for banana bread?"}))
    expect(results).to_have_class(re.compile(r"\boutcome-not-covered\b"))
    expect(heading).to_contain_text("Not covered")
    expect(results).to_contain_text("The documents don't appear to cover this")
    page.goto(app_url + "/?" + urlencode({"q": "DD Magic M"}))
    expect(results).to_have_class(re.compile(r"\boutcome-answer\b"))
    expect(page.locator("#answer-label")).to_have_text("Answer")
    expect(results.locator("article.ruling").first).to_have_id(BEST)


def test_the_handbook_prints_to_pdf(page, urls):
    app_url, _ = urls
    page.goto(app_url + "/handbook/dragon-dice")
    page.emulate_media(media="print")
    expect(page.locator("header.site")).to_be_hidden()
    expect(page.locator("code", has_text="DD Magic M")).to_be_visible()
    expect(page.locator("nav.hb-toc")).to_be_visible()  # the printed contents, then the rulings
    pdf = ARTIFACTS / "handbook-dragon-dice.pdf"
    page.pdf(path=pdf, format="A4")
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page\b", data)) >= 2


def test_an_unanswered_question_shows_no_green_badge(browser, built_db, tmp_path):
    verified = tmp_path / "rulings.db"
    shutil.copy(built_db, verified)
    verify(verified)  # every Dungeon Twister ruling with a test now passes it
    with servers(verified, "verified") as (app_url, _):
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.goto(f"{app_url}/?" + urlencode({"q": "What is the capital of France?", "game": "dungeon-twister"}))
        expect(page.locator("section.results.nearest")).to_contain_text("Nearest rulings, for reference")
        passed = page.locator(".badge-passed")
        assert passed.count()
        for badge in passed.all():  # shown as plain muted text, not a filled green badge
            assert badge.evaluate("b => getComputedStyle(b).backgroundColor") == "rgba(0, 0, 0, 0)"
        page.screenshot(path=ARTIFACTS / "ask-unanswered.png")
        page.close()


@pytest.mark.parametrize("path", ["/", f"/?q={QUESTION}", f"/?q={NOT_COVERED}", f"/r/{BEST}",
                                  "/r/paths-of-the-lance/new-rules/b/3",
                                  "/games/paths-of-the-lance", "/sources/wizard-dice-rules",
                                  "/handbook/dragon-dice"])
def test_every_page_fits_a_phone_screen(browser, urls, path):
    app_url, _ = urls
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    phone = context.new_page()
    phone.goto(app_url + path)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
    if path == f"/?q={QUESTION}":
        phone.screenshot(path=ARTIFACTS / "phone-ask.png")
    if path == f"/?q={NOT_COVERED}":  # a recorded gap's long source title and description wrap
        phone.screenshot(path=ARTIFACTS / "phone-not-covered.png", full_page=True)
    if path == f"/r/{BEST}":
        phone.screenshot(path=ARTIFACTS / "phone-ruling.png", full_page=True)
    context.close()
