"""A judge in a real browser asks for a ref and copies the full citation in one click."""
import pytest
from harness import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

REF = "DD Magic M"
RULING = "dragon-dice/magic/general/m"


@pytest.fixture
def page(browser, urls):
    app_url, _ = urls
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=app_url)
    context.set_default_timeout(30_000)
    yield context.new_page()
    context.close()


def test_asking_a_ref_then_copying_its_citation_puts_the_full_citation_on_the_clipboard(page, urls):
    app_url, _ = urls
    page.goto(app_url + "/")
    page.fill("#q", REF.lower())
    page.press("#q", "Enter")
    first = page.locator("article.ruling").first
    expect(first).to_have_attribute("id", RULING)
    expect(first.locator(".ref")).to_have_text(REF)
    button = first.locator("button.copy-cite")
    full = button.get_attribute("data-cite")
    assert full.startswith(f"{REF} — Official Dragon Dice FAQ") and full.endswith("lines 119–120")
    button.click()
    expect(button).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == full

    first.locator("a.permalink").click()
    expect(page.locator("h1 .ref")).to_have_text(REF)
    page.locator("button.copy-cite").click()
    expect(page.locator("button.copy-cite")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == full
