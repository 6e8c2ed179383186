"""A judge using a calculator form in a real browser: a select, a checkbox, the answer in words, its rulings."""
import pytest
from harness import ARTIFACTS, CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import expect


@pytest.fixture(scope="module")
def app_url(urls):
    return urls[0]


def test_a_judge_fills_a_form_with_a_select_and_a_checkbox_and_reads_the_answer(page, app_url):
    page.goto(f"{app_url}/calc/paths-of-the-lance")
    form = page.locator("form#calc-winter-movement")
    form.locator("select[name=kind]").select_option("fleet")
    form.locator("input[name=movement]").fill("7")
    expect(form.locator("input[type=checkbox][name=winter]")).to_be_checked()
    form.get_by_role("button", name="Calculate").click()
    expect(page.locator("p.answer")).to_have_text("A fleet moves 2 in winter (a third, rounded down, from 7).")
    page.screenshot(path=ARTIFACTS / "calculator.png", full_page=True)

    form = page.locator("form#calc-winter-movement")
    expect(form.locator("select[name=kind]")).to_have_value("fleet")
    form.locator("input[type=checkbox][name=winter]").uncheck()
    form.get_by_role("button", name="Calculate").click()
    expect(page.locator("p.answer")).to_have_text("A fleet moves its full 7 outside winter.")

    page.locator(".calc-result ul.deciding a").first.click()
    expect(page).to_have_url(f"{app_url}/r/paths-of-the-lance/optional-rules/b")
    page.locator("ul.calculators a", has_text="winter-movement").click()
    expect(page).to_have_url(f"{app_url}/calc/paths-of-the-lance#calc-winter-movement")


def test_the_browser_refuses_a_number_outside_the_games_range(page, app_url):
    page.goto(f"{app_url}/calc/paths-of-the-lance")
    form = page.locator("form#calc-leader-escape")
    form.locator("input[name=combat_rating]").fill("3")
    roll = form.locator("input[name=roll]")
    roll.fill("7")
    form.get_by_role("button", name="Calculate").click()
    assert roll.evaluate("input => input.validity.rangeOverflow")
    expect(page.locator("p.answer")).to_have_count(0)
    roll.fill("2")
    form.get_by_role("button", name="Calculate").click()
    expect(page.locator("p.answer")).to_contain_text("The leader escapes to the nearest friendly stack")
