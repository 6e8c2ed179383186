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


SCORESHEET = ("1. e4 e5 2. Nc3 Bc5 3. Na4 Bxf2+ 4. Kxf2 Qh4+ 5. Ke3 Qf4+ 6. Kd3 d5 7. Kc3 Qxe4 8. Kb3 Na6 "
              "9. a3 Qxa4+ 10. Kxa4 Nc5+ 11. Kb4 a5+ 12. Kxc5 Ne7 13. Bb5+ Kd8 14. Bc6 b6+ 15. Kb5 Nxc6 "
              "16. Kxc6 Bb7+ 17. Kb5 Ba6+ 18. Kc6 Bb7+ 19. Kb5 Ba6+ 20. Kc6 Bb7+")


def claim_threefold_on_the_scoresheet(page, app_url) -> None:
    """Paste SCORESHEET into the claim form, claim threefold repetition and calculate, as an arbiter would."""
    page.goto(f"{app_url}/calc/chess")
    form = page.locator("form#calc-claim")
    form.locator("textarea[name=pgn]").fill(SCORESHEET)
    form.locator("select[name=claim]").select_option("threefold")
    form.get_by_role("button", name="Calculate").click()


def test_an_arbiter_pastes_a_scoresheet_and_reads_the_claims_verdict_with_the_article(page, app_url):
    claim_threefold_on_the_scoresheet(page, app_url)
    expect(page.locator("p.answer")).to_contain_text("White's threefold claim is correct: the game is drawn (FIDE 9.2.2)")
    expect(page.locator("form#calc-claim textarea[name=pgn]")).to_have_value(SCORESHEET)
    page.screenshot(path=ARTIFACTS / "chess-claim.png", full_page=True)
    page.locator(".calc-result ul.deciding a").first.click()
    expect(page).to_have_url(f"{app_url}/r/chess/fide-laws-of-chess/competition/article-9/9.2")


def test_a_bad_fen_gets_one_line_naming_what_is_wrong(page, app_url):
    page.goto(f"{app_url}/calc/chess")
    form = page.locator("form#calc-position")
    form.locator("input[name=fen]").fill("8/8/8/8/8/8/8/8 w - - 0 1")
    form.get_by_role("button", name="Calculate").click()
    expect(page.locator("p.error")).to_contain_text("parameter 'fen'")
    expect(page.locator("p.error")).to_contain_text("White has no king; Black has no king")
    expect(page.locator("p.answer")).to_have_count(0)


def test_the_chess_fields_read_pgn_and_fen_each_with_a_one_line_help(page, app_url):
    page.goto(f"{app_url}/calc/chess")
    form = page.locator("form#calc-claim")
    expect(form.get_by_label("PGN", exact=True)).to_have_attribute("name", "pgn")
    expect(form.get_by_label("FEN (optional)", exact=True)).to_have_attribute("name", "fen")
    expect(page.locator("form#calc-position").get_by_label("FEN", exact=True)).to_have_attribute("name", "fen")
    for field in ("claim-pgn", "claim-fen", "position-fen"):
        help_text = page.locator(f"#{field}-help")
        expect(help_text).to_contain_text("Notation")
        height, line = help_text.evaluate("e => [e.getBoundingClientRect().height, "
                                          "parseFloat(getComputedStyle(e).lineHeight)]")
        assert height <= line * 1.5, (field, height, line)  # one line at the form's width


def test_a_claims_verdict_is_decided_by_its_own_articles_each_with_its_number(page, app_url):
    claim_threefold_on_the_scoresheet(page, app_url)
    deciding = page.locator(".calc-result ul.deciding li")
    expect(deciding).to_have_count(3)
    expect(deciding.locator(".ref")).to_have_text(["FIDE 9.2", "FIDE 9.2.2", "FIDE 9.5.1"])
    expect(deciding.nth(2)).to_contain_text("If the claim is found to be correct, the game is immediately drawn")
