"""A judge studies what a new edition changed, in a real browser: from a source's versions to the diff, added
rules in green, removed ones struck through, a changed rule's words marked; two other versions chosen; a rule
followed to its page, which says in which version it changed and shows the earlier text on a click; all of it
fits a phone's width; a rule's page and a term's page show each rule by its current number, never by the older
one its stable id keeps."""
import re

import pytest
from harness import ARTIFACTS, CHROMIUM

from kb.editions import diff
from kb.store import connect
from support import CORPORA, LORCANA_EDITIONS, LORCANA_RULES

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)
if not CORPORA.is_dir():
    pytest.skip(f"{CORPORA} is not beside the clone", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

FIRST, MIDDLE, LAST = LORCANA_EDITIONS
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def urls(editions_urls):
    """Both servers over the database with three editions of the Lorcana rules."""
    return editions_urls


@pytest.fixture(scope="module")
def changes(editions_db) -> dict:
    """What changed from the second edition to the third (kb.editions.diff)."""
    conn = connect(editions_db)
    try:
        return diff(conn, LORCANA_RULES, MIDDLE, LAST)
    finally:
        conn.close()


def test_the_diff_shows_added_removed_and_changed_rules_marked_and_links_to_each(page, urls, changes):
    app_url, _ = urls
    page.goto(f"{app_url}/sources/{LORCANA_RULES}")
    page.get_by_role("link", name="every version and what changed").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Versions of")
    expect(page.locator("table.versions tbody tr")).to_have_count(3)
    expect(page.locator("tr.current")).to_contain_text(LAST)
    page.get_by_role("link", name=f"Changes from {MIDDLE}").click()

    expect(page.locator(".summary")).to_contain_text(
        f"{len(changes['added'])} added, {len(changes['removed'])} removed, {len(changes['moved'])} moved, "
        f"{len(changes['changed'])} changed")
    added, removed, moved, changed = (page.locator(f"ul.diff > li.change-{kind}")
                                      for kind in ("added", "removed", "moved", "changed"))
    edited = [row for row in changes["moved"] if row["diff"]]  # those moved with their text unchanged: hidden
    expect(moved).to_have_count(len(edited))
    expect(moved.first).to_contain_text(f"(was {edited[0]['from_ref']}")
    expect(added).to_have_count(len(changes["added"]))
    expect(removed).to_have_count(len(changes["removed"]))
    expect(changed).to_have_count(len(changes["changed"]))
    # Added in green, removed struck through, a changed rule's words struck through and inserted.
    green = added.first.evaluate("e => getComputedStyle(e).backgroundColor")
    red, green_value, _ = (int(x) for x in green.removeprefix("rgb(").rstrip(")").split(", "))
    assert green_value > red, green
    assert "line-through" in removed.first.locator("del").evaluate("e => getComputedStyle(e).textDecorationLine")
    first_changed = changed.first
    expect(first_changed.locator("del, ins").first).to_be_visible()
    page.screenshot(path=ARTIFACTS / "editions-diff.png")

    # A changed rule's link opens its page, which says in which version it changed; the earlier text is a click away.
    rule = changes["changed"][0]
    first_changed.get_by_role("link", name=rule["ref"]).click()
    expect(page).to_have_url(f"{app_url}/r/{rule['id']}")
    note = page.locator(".edition-change")
    expect(note).to_contain_text(f"Changed in {LAST}")
    earlier = note.locator("details.earlier")
    expect(earlier.locator("blockquote")).not_to_be_visible()
    earlier.locator("summary").click()
    expect(earlier.locator("blockquote")).to_be_visible()
    expect(earlier).to_contain_text(rule["before"].split("\n")[0][:40])
    page.screenshot(path=ARTIFACTS / "editions-ruling.png", full_page=True)

    # Back from the ruling to its place among the changes.
    note.get_by_role("link", name="everything that changed in this version").click()
    expect(page.locator(f'[id="{rule["id"]}"]')).to_be_in_viewport()


def test_rules_moved_with_their_text_unchanged_are_hidden_and_one_click_shows_them(page, urls, changes):
    app_url, _ = urls
    page.goto(f"{app_url}/sources/{LORCANA_RULES}/diff")
    unchanged = [row for row in changes["moved"] if row["diff"] is None]
    moved = page.locator("ul.diff > li.change-moved")
    expect(moved).to_have_count(len(changes["moved"]) - len(unchanged))
    expect(page.locator("p.renumbered")).to_contain_text(f"{len(unchanged)} rules moved to a new number with their "
                                                         "text unchanged are not listed")
    page.get_by_role("link", name="Show them").click()
    expect(moved).to_have_count(len(changes["moved"]))
    expect(page.locator(f'[id="{unchanged[0]["id"]}"]')).to_contain_text("text unchanged")
    page.get_by_role("link", name="Hide them").click()
    expect(moved).to_have_count(len(changes["moved"]) - len(unchanged))


def test_two_other_versions_can_be_chosen(page, urls):
    app_url, _ = urls
    page.goto(f"{app_url}/sources/{LORCANA_RULES}/diff")
    page.select_option("#from", FIRST)
    page.select_option("#to", MIDDLE)
    page.get_by_role("button", name="Compare").click()
    expect(page).to_have_url(f"{app_url}/sources/{LORCANA_RULES}/diff?from={FIRST}&to={MIDDLE}")
    expect(page.locator(".summary")).to_contain_text(f"From {FIRST} to {MIDDLE}")
    expect(page.locator("ul.diff > li").first).to_be_visible()


# What a page shows but its record of changes ("it was Lorcana 10.2.3", "moved from ..."): the text a judge reads.
WITHOUT_HISTORY = """main => { const copy = main.cloneNode(true);
  copy.querySelectorAll('.edition-change, .term-history').forEach(part => part.remove()); return copy.innerText; }"""


def test_a_renumbered_rules_page_shows_its_current_ref_not_the_number_in_its_id(page, urls, editions_db):
    conn = connect(editions_db)
    # Bodyguard was 10.2 until the last edition, 10.3 since: its rules keep the ids they were first read with.
    ruling_id, ref = conn.execute("select id, ref from rulings where ref = 'Lorcana 10.3.3'").fetchone()
    conn.close()
    assert ruling_id.endswith("/10.2.3")
    page.goto(f"{urls[0]}/r/{ruling_id}")
    expect(page.locator("h1 .ref")).to_have_text(ref)
    expect(page.locator(".edition-change")).to_contain_text("it was Lorcana 10.2.3")
    shown = page.locator("main").evaluate(WITHOUT_HISTORY)
    assert "10.3.3" in shown and "10.2.3" not in shown and "10.2-bodyguard" not in shown


def test_a_terms_page_shows_its_rules_by_their_current_numbers_each_with_its_subrules(page, urls):
    page.goto(f"{urls[0]}/terms/lorcana/shift")
    refs = page.locator(".term-rules article.ruling .ref")
    expect(refs.first).to_have_text("Lorcana 10.10.1")
    # Shift was 10.8 until the last edition: none of its rules shows that number, and the parts of 10.10.9 (its
    # two variants) stand with it.
    assert all(ref.startswith("Lorcana 10.10.") for ref in refs.all_inner_texts())
    assert {"Lorcana 10.10.9", "Lorcana 10.10.9.1", "Lorcana 10.10.9.2"} <= set(refs.all_inner_texts())
    assert not re.search(r"(?<![\d.])10\.8\b", page.locator("main").evaluate(WITHOUT_HISTORY))


@pytest.mark.parametrize("path", [f"/sources/{LORCANA_RULES}/versions", f"/sources/{LORCANA_RULES}/diff?from={FIRST}"])
def test_the_versions_and_diff_pages_fit_a_phone(browser_context_phone, urls, path):
    app_url, _ = urls
    phone = browser_context_phone
    phone.goto(app_url + path)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot(path=ARTIFACTS / f"editions-phone-{path.split('/')[3].split('?')[0]}.png")


@pytest.fixture
def browser_context_phone(page):
    """A page of the same browser at a phone's width."""
    context = page.context.browser.new_context(viewport=PHONE)
    yield context.new_page()
    context.close()
