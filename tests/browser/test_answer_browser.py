"""What a judge reads of an answer, in a real browser: a shared link answers as it says, whatever game the form
remembers (shown beside the form with one click to clear it); in a family of rules, the ruling marked closest is
the first shown; the closest rulings claim no coverage the evidence does not back, and a question about a game
the library does not hold says so."""
import pytest
from harness import CHROMIUM, launch, servers

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import expect, sync_playwright  # noqa: E402

# A rule with two lettered subrules: asked about the first subrule in its game, all three are results, the parent
# rule among them but not the closest.
TIDES = """Tarn Comprehensive Rules

200. Tides

200.1 The tide rises one step at the start of each round, and falls one step when a storm ends.
200.1a A flooded harbour keeps every boat moored in it until the tide falls again.
200.1b A boat launched from a beach is swept one space inland by a rising tide.
200.2 Each player starts with three boats in their harbour.
"""
FAMILY_QUESTION = "Can a boat leave a flooded harbour before the tide falls?"
SUBRULE = "tarn/tides/200.1a"
README_EXAMPLE = "Can a reserve army double its magic?"


@pytest.fixture(scope="module")
def urls(seeds_plus):
    """Both servers over the seeds with the Tarn rules added."""
    with servers(seeds_plus("tarn", TIDES)) as found:
        yield found


@pytest.fixture
def page(urls):
    """A fresh browser: no game remembered yet."""
    with sync_playwright() as playwright:
        browser = launch(playwright)
        context = browser.new_context(viewport={"width": 1100, "height": 900})
        context.set_default_timeout(30_000)
        yield context.new_page()
        browser.close()


def ask(page, question: str, game: str) -> None:
    page.fill("#q", question)
    page.select_option("#game", game)
    page.click("form.ask button[type=submit]")


def test_a_shared_link_answers_as_it_says_and_the_remembered_game_stays_with_the_form(page, urls):
    page.goto(urls[0] + "/")
    ask(page, "How much damage does a fireball do?", "wizard-dice")
    expect(page.locator("#results-heading")).to_be_visible()
    # The README's own example, shared as a link without game=: answered in the game it is about, not Wizard Dice.
    page.goto(urls[0] + "/?q=" + README_EXAMPLE.replace(" ", "+").replace("?", "%3F"))
    expect(page.locator("#results-heading")).to_have_text(f"Rulings for “{README_EXAMPLE}”")
    expect(page.locator("article.ruling .ref").first).to_have_text("DD Magic M")
    # The form still offers the remembered game for the next question, and says so, with a link to clear it.
    expect(page.locator("#game")).to_have_value("wizard-dice")
    expect(page.locator(".remembered")).to_contain_text("Wizard Dice")
    page.click("a.clear-game")
    expect(page.locator("#game")).to_have_value("")
    expect(page.locator(".remembered")).to_have_count(0)
    page.goto(urls[0] + "/")
    expect(page.locator("#game")).to_have_value("")


def test_in_a_family_the_ruling_marked_closest_is_the_first_shown(page, urls):
    page.goto(urls[0] + "/")
    ask(page, FAMILY_QUESTION, "tarn")
    family = page.locator("li.family").first
    expect(family.locator("article.ruling")).to_have_count(3)  # the parent rule and both subrules
    expect(family.locator("article.ruling").first).to_have_attribute("id", SUBRULE)
    expect(family.locator(".best article.ruling")).to_have_attribute("id", SUBRULE)
    expect(family.locator(".best-tag")).to_have_count(1)


def test_the_closest_rulings_claim_no_coverage_and_a_game_not_held_is_named_missing(page, urls):
    page.goto(urls[0] + "/")
    ask(page, "What rating does a player need to be awarded the grandmaster title?", "")
    expect(page.locator("#results-heading")).to_contain_text("Closest rulings — check them")
    note = page.locator(".outcome-note")
    expect(note).to_have_text("The evidence does not say whether any of these rulings settles it: read them, best "
                              "first.")
    ask(page, "In Settlers of Catan, can I trade resources with the bank at four to one?", "")
    expect(page.locator("#results-heading")).to_contain_text("Not covered")
    expect(note).to_contain_text("The library holds no rules for Settlers of Catan")
