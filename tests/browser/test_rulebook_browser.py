"""A judge reads the Lorcana comprehensive rules as a rulebook in a real browser: a rule opened at its number from
a link, its subrules shown under it, a heading opened from the contents (never under the sticky filter), the rules
narrowed to those with some words, a cross-reference followed to its rule on the same page; "What does Bodyguard
do?" leading to the term's page; the big game's page as its contents; at a desktop's and a phone's width."""
import re

import pytest
from harness import CHROMIUM

from support import CORPORA, LORCANA_RULES

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)
if not CORPORA.is_dir():
    pytest.skip(f"{CORPORA} is not beside the clone", allow_module_level=True)

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

WIDTHS = {"desktop": {"width": 1100, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def urls(editions_urls):
    """Both servers over the database with the Lorcana rules added."""
    return editions_urls


@pytest.fixture(scope="module", params=WIDTHS, ids=WIDTHS)
def page(request, browser):
    context = browser.new_context(viewport=WIDTHS[request.param])
    context.set_default_timeout(30_000)
    yield context.new_page()
    context.close()


def rulebook(urls) -> str:
    return f"{urls[0]}/rules/{LORCANA_RULES}"


IN_VIEW = """(selector) => {
    const box = document.querySelector(selector).getBoundingClientRect();
    return box.top >= 0 && box.top < window.innerHeight; }"""
# The element's top stands below the sticky filter bar and inside the window.
BELOW_THE_BAR = """(selector) => {
    const bar = document.querySelector(".rulebook-filter").getBoundingClientRect();
    const top = document.querySelector(selector).getBoundingClientRect().top;
    return top >= bar.bottom - 1 && top < window.innerHeight; }"""


def in_view(page, selector: str) -> bool:
    """Whether the element's top comes into the window: a jump scrolls once the page has loaded, and again once
    the sticky bar's height is known, so this waits for it (up to 5 s) rather than looking once."""
    return settles(page, IN_VIEW, selector)


def settles(page, condition: str, selector: str, timeout: float = 5_000) -> bool:
    """Whether the JavaScript `condition` on the element comes to hold within `timeout` ms."""
    try:
        page.wait_for_function(condition, arg=selector, timeout=timeout)
    except PlaywrightTimeoutError:
        return False
    return True


def fits_the_width(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_ruling_page_opens_the_rulebook_at_the_rule_with_its_subrules_nested_under_it(page, urls):
    page.goto(f"{urls[0]}/r/lorcana/concepts/1.6-types-of-abilities/1.6.1")
    page.locator("a.in-rulebook").click()
    expect(page).to_have_url(re.compile(re.escape(f"/rules/{LORCANA_RULES}#1.6.1") + "$"))
    rule = page.locator('[id="1.6.1"]')
    expect(rule).to_be_visible()
    assert in_view(page, '[id="1.6.1"]')
    sub = rule.locator('.sub [id="1.6.1.1"]')
    expect(sub).to_be_visible()
    expect(sub).to_contain_text("Keywords are words or shortened phrases")
    # The subrule stands indented under its rule.
    assert sub.bounding_box()["x"] > rule.bounding_box()["x"]
    assert fits_the_width(page)


def test_a_heading_is_addressable_and_opened_from_the_contents(page, urls):
    page.goto(rulebook(urls))
    page.locator("details.contents > summary").click()
    # The chapter's entry opens on its marker (its title is a link to the chapter), showing its sections.
    chapter = page.locator('details.contents details:has(> ol a[href="#4.3"]) > summary').first
    chapter.click(position={"x": 4, "y": 10})
    page.locator('details.contents a[href="#4.3"]').first.click()
    expect(page).to_have_url(re.compile("#4\\.3$"))
    heading = page.locator('section[id="4.3"] > :is(h2, h3, h4)')
    expect(heading).to_contain_text("Main Phase")
    assert in_view(page, '[id="4.3"]')
    page.goto(rulebook(urls) + "#4.3.6")
    expect(page.locator('[id="4.3.6"]')).to_be_visible()
    assert in_view(page, '[id="4.3.6"]')


def test_the_filter_narrows_to_rules_with_every_word_and_clearing_it_shows_all(page, urls):
    page.goto(rulebook(urls))
    every = page.locator(".rulebook .rule").count()
    page.fill("#filter", "bodyguard exerted")
    expect(page.locator("#filter-count")).to_contain_text("match")
    shown = page.locator(".rulebook .rule:visible")
    hits = page.locator(".rulebook .rule:not(.context):visible")
    assert 0 < hits.count() < 10 < every
    for text in hits.evaluate_all("rules => rules.map(r => r.querySelector(':scope > .text').textContent.toLowerCase())"):
        assert "bodyguard" in text and "exerted" in text
    assert shown.count() >= hits.count()
    assert fits_the_width(page)
    page.fill("#filter", "")
    expect(page.locator(".rulebook .rule:visible")).to_have_count(every)


def test_a_cross_reference_goes_to_its_rule_on_the_same_page(page, urls):
    page.goto(rulebook(urls) + "#1.6.1.2")
    link = page.locator('[id="1.6.1.2"] > .text a.xref').first
    target = link.get_attribute("href")
    assert target.startswith("#")
    link.click()
    expect(page).to_have_url(re.compile(re.escape(target) + "$"))
    assert in_view(page, f'[id="{target[1:]}"]')
    # And back: the rule it refers to lists 1.6.1.2 among the rules that refer to it.
    expect(page.locator(f'[id="{target[1:]}"] > .cited-by a[href="#1.6.1.2"]')).to_be_visible()


@pytest.mark.parametrize("anchor", ["4.3.6", "4.3"])
def test_a_rule_or_heading_jumped_to_stands_below_the_sticky_filter_not_under_it(page, urls, anchor):
    page.goto(rulebook(urls) + "#" + anchor)
    target = page.locator(f'[id="{anchor}"]')
    expect(target).to_be_visible()
    settles(page, BELOW_THE_BAR, f'[id="{anchor}"]')  # the bar's height measured, the anchor scrolled to again
    bar = page.locator(".rulebook-filter").bounding_box()
    top = target.bounding_box()["y"]
    assert top >= bar["y"] + bar["height"] - 1, (top, bar)
    assert in_view(page, f'[id="{anchor}"]')


def test_what_is_a_keyword_leads_to_its_term_page_with_its_rules_and_mentions(page, urls):
    page.goto(f"{urls[0]}/?q=What+does+Bodyguard+do%3F&game=lorcana")
    page.locator(".term-link a").click()
    expect(page).to_have_url(f"{urls[0]}/terms/lorcana/bodyguard")
    expect(page.locator("h1")).to_have_text("Bodyguard")
    rules = page.locator("section.term-rules article.ruling")
    expect(rules.nth(1)).to_be_visible()
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


def test_go_to_rule_jumps_to_a_rule_by_its_number_with_the_keyboard_alone(page, urls):
    page.goto(rulebook(urls))
    page.keyboard.press("Tab")  # the skip link, then the site's links, then the page's: Tab until the box
    for _ in range(40):
        if page.evaluate("document.activeElement.id") == "goto":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "goto"
    page.keyboard.type("rule 4.3.6.5")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(re.escape(f"/rules/{LORCANA_RULES}#4.3.6.5") + "$"))
    assert settles(page, BELOW_THE_BAR, '[id="4.3.6.5"]')
    # The focus is on the rule's number: Tab goes on from there, to its link to the ruling's page.
    assert page.evaluate("document.activeElement.closest('.rule')?.id") == "4.3.6.5"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "go"
    expect(page.locator("#goto-said")).to_have_text("")
    assert fits_the_width(page)


def test_go_to_an_unknown_number_says_so_and_stays_put(page, urls):
    page.goto(rulebook(urls))
    page.fill("#goto", "99.99z")
    page.press("#goto", "Enter")
    expect(page.locator("#goto-said")).to_have_text("No rule or heading is numbered 99.99z in this rulebook.")
    assert page.url == rulebook(urls)


def test_go_to_clears_a_filter_that_hides_the_rule(page, urls):
    page.goto(rulebook(urls))
    page.fill("#filter", "bodyguard exerted")
    page.fill("#goto", "1.6.1")
    page.press("#goto", "Enter")
    expect(page.locator('[id="1.6.1"]')).to_be_visible()
    assert page.input_value("#filter") == "" and in_view(page, '[id="1.6.1"]')


def test_go_to_rule_works_without_script(browser, urls):
    context = browser.new_context(java_script_enabled=False, viewport=WIDTHS["desktop"])
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        page.goto(rulebook(urls))
        expect(page.locator("#filter")).to_be_hidden()  # the filter needs the script; the box does not
        page.fill("#goto", "4.3.6")
        page.press("#goto", "Enter")
        expect(page).to_have_url(re.compile(re.escape(f"/rules/{LORCANA_RULES}#4.3.6") + "$"))
        expect(page.locator('[id="4.3.6"] > :is(h2, h3, h4)')).to_be_in_viewport()
        response = page.goto(f"{urls[0]}/rules/{LORCANA_RULES}/go?rule=99.99z")
        assert response.status == 404
        expect(page.locator("main")).to_contain_text("has no rule or heading numbered '99.99z'")
    finally:
        context.close()
