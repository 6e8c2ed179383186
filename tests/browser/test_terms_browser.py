"""A judge's desk in a real browser, with the Lorcana comprehensive rules (the publisher's three PDFs) added, at a
desktop's and a phone's width: "What is Bodyguard?" leads to the term's page, which shows the rules that define
it, the other rulings that use it and its history; the game page of that big rulebook is its contents, small
and quick, each section opening at its place in the rulebook page."""
import pytest
from harness import CHROMIUM, launch, servers

from support import CORPORA, LORCANA_RULES

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)
if not CORPORA.is_dir():
    pytest.skip(f"{CORPORA} is not beside the clone", allow_module_level=True)

from playwright.sync_api import expect, sync_playwright  # noqa: E402

WIDTHS = {"desktop": {"width": 1100, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def urls(editions_db):
    with servers(editions_db) as found:
        yield found


@pytest.fixture(scope="module", params=WIDTHS, ids=WIDTHS)
def page(request):
    with sync_playwright() as playwright:
        browser = launch(playwright)
        context = browser.new_context(viewport=WIDTHS[request.param])
        context.set_default_timeout(30_000)
        yield context.new_page()
        browser.close()


def fits_the_width(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_what_is_a_keyword_leads_to_its_term_page_with_its_rules_and_mentions(page, urls):
    page.goto(f"{urls[0]}/?q=What+does+Bodyguard+do%3F&game=lorcana")
    page.locator(".term-link a").click()
    expect(page).to_have_url(f"{urls[0]}/terms/lorcana/bodyguard")
    expect(page.locator("h1")).to_have_text("Bodyguard")
    rules = page.locator("section.term-rules article.ruling")
    assert rules.count() >= 2
    expect(rules.first).to_contain_text("Bodyguard")
    expect(page.locator("section.term-mentions")).to_contain_text("Other rulings that use it")
    expect(page.locator("section.term-history")).to_be_visible()
    assert fits_the_width(page)


def test_the_big_games_page_is_small_quick_and_opens_each_section_in_the_rulebook(page, urls):
    response = page.goto(f"{urls[0]}/games/lorcana")
    assert len(response.body()) < 500_000, len(response.body())  # its time: benchmarks/big_pages.py
    link = page.locator("nav.contents-only a[href*='#']").nth(3)
    href = link.get_attribute("href")
    assert href.startswith(f"/rules/{LORCANA_RULES}#")
    link.click()
    anchor = href.split("#", 1)[1]
    expect(page.locator(f'[id="{anchor}"]')).to_be_visible()
    assert fits_the_width(page)


def test_contents_lists_show_no_counter_beside_the_rules_own_numbers(page, urls):
    for path in ("/games/lorcana", "/handbook/dragon-dice", "/games/dragon-dice"):
        page.goto(urls[0] + path)
        lists = page.locator("nav.toc ol")
        assert lists.count(), path
        assert lists.first.evaluate("ol => getComputedStyle(ol).listStyleType") == "none", path
