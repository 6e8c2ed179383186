"""A judge at the table with the Lorcana comprehensive rules (the publisher's PDF) added, in a real browser at a
desktop's and a phone's width: a rule asked for as "rule X" is the answer; its citation names the printed page,
opens that page of the PDF, and copies with the game, the source, its edition and the page; the game chosen for
one question stays chosen for the next, and no other game's ruling appears within it."""
import re

import pytest
from harness import CHROMIUM

from support import CORPORA, LORCANA_EDITIONS, LORCANA_RULES

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)
if not CORPORA.is_dir():
    pytest.skip(f"{CORPORA} is not beside the clone", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

WIDTHS = {"desktop": {"width": 1100, "height": 900}, "phone": {"width": 390, "height": 844}}
LAST = LORCANA_EDITIONS[-1]


@pytest.fixture(scope="module")
def urls(editions_urls):
    """Both servers over the database with the Lorcana rules added."""
    return editions_urls


@pytest.fixture(params=WIDTHS, ids=WIDTHS)
def page(request, browser, urls):
    """A fresh context of the browser (no remembered game) at each width, allowed to use the clipboard."""
    context = browser.new_context(viewport=WIDTHS[request.param])
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=urls[0])
    context.set_default_timeout(30_000)
    yield context.new_page()
    context.close()


def ask(page, question: str, game: str | None = None) -> None:
    page.fill("#q", question)
    if game is not None:
        page.select_option("#game", game)
    page.click("form.ask button[type=submit]")
    # The click returns once the answer's URL is committed, before its page is parsed: wait for the page itself.
    page.wait_for_url(re.compile(r"[?&]q="), wait_until="load")


def fits_the_width(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_rule_asked_for_by_its_number_is_the_answer(page, urls):
    page.goto(urls[0] + "/")
    ask(page, "What is rule 4.3.6.1?", "lorcana")
    answer = page.locator('ol[aria-labelledby="answer-label"] article.ruling').first
    expect(page.locator("#answer-label")).to_have_text("Answer")
    expect(answer.locator(".ref")).to_have_text("Lorcana 4.3.6.1")
    assert fits_the_width(page)


def test_a_pdf_citation_names_its_page_opens_the_pdf_there_and_copies_whole(page, urls):
    page.goto(urls[0] + "/?" + "q=rule+4.3.6.1&game=lorcana")
    answer = page.locator('ol[aria-labelledby="answer-label"] article.ruling').first
    expect(answer.locator("a.citation")).to_have_text("Disney Lorcana Comprehensive Rules, page 8")
    link = answer.locator("a.original")
    href = link.get_attribute("href")
    assert href == f"/sources/{LORCANA_RULES}/original?version={LAST}#page=11"
    pdf = page.request.get(urls[0] + href)
    assert pdf.ok and pdf.headers["content-type"] == "application/pdf"
    assert pdf.body() == (CORPORA / f"{LORCANA_RULES}-{LAST}.pdf").read_bytes()
    button = answer.locator("button.copy-cite")
    button.click()
    expect(button).to_have_text("Copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith("Lorcana 4.3.6.1 — Disney Lorcana Comprehensive Rules, ") and LAST in copied
    assert copied.endswith(", page 8")
    # The ruling's own page says the same and opens the same page.
    answer.locator("a.permalink").click()
    expect(page.locator("p.cite a.original")).to_have_attribute("href", href)
    assert fits_the_width(page)


def test_the_game_chosen_stays_chosen_for_the_next_question_and_keeps_other_games_out(page, urls):
    page.goto(urls[0] + "/")
    ask(page, "Can a character challenge the turn it is played?", "lorcana")
    assert "game=lorcana" in page.url
    page.goto(urls[0] + "/")  # the next question, from a fresh page
    expect(page.locator("#game")).to_have_value("lorcana")
    ask(page, "How much damage does a challenge deal?")
    assert "game=lorcana" in page.url
    expect(page.locator("article.ruling .ref").first).to_be_visible()
    refs = page.locator("article.ruling .ref").all_inner_texts()
    assert refs and all(ref.startswith("Lorcana") for ref in refs), refs
    assert not page.locator(".other-game").count()
    # "All games" is a choice too, remembered like any other.
    page.select_option("#game", "")
    ask(page, "Can a reserve army double its magic?")
    page.goto(urls[0] + "/")
    expect(page.locator("#game")).to_have_value("")
    assert fits_the_width(page)
