"""A source's editions on the web, in the API and in Datasette, over a database holding three editions of the
Lorcana comprehensive rules: the versions page and JSON, the diff page (by section, in document order, added,
removed and changed rules marked, each linked where it still has a page) and JSON, what a ruling's page says of
its history, and the errors for an unknown source or version."""
import asyncio
import html
import re

import pytest
from markupsafe import escape

from kb.editions import diff, history, versions
from kb.store import connect
from service.app import create_app
from service.browse import APP_URL, datasette
from support import CORPORA, LORCANA_EDITIONS, LORCANA_RULES

pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not beside the clone")

FIRST, MIDDLE, LAST = LORCANA_EDITIONS
SEEDS_SOURCE = "dragon-dice-faq-magic"  # a source with one version
ITEM = re.compile(r'<li class="change-(added|removed|moved|changed)" id="([^"]+)">(.*?)</li>', re.DOTALL)


@pytest.fixture(scope="module")
def app(editions_db):
    return create_app(editions_db, datasette_url="http://datasette.test")


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def db(editions_db):
    connection = connect(editions_db)
    yield connection
    connection.close()


def page_of(response) -> str:
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    return response.get_data(as_text=True)


def items(page: str) -> dict[str, tuple[str, str]]:
    """The diff page's rules: id -> (change, the item's markup)."""
    return {html.unescape(rid): (change, body) for change, rid, body in ITEM.findall(page)}


def test_the_versions_page_lists_each_edition_with_its_counts_current_marked_and_a_link_to_its_diff(client, db):
    page = page_of(client.get(f"/sources/{LORCANA_RULES}/versions"))
    rows = re.findall(r"<tr( class=\"current\")?>\s*<th scope=\"row\">(.*?)</tr>", page, re.DOTALL)
    assert [re.match(r"[^ <]+", row)[0] for _, row in rows] == list(LORCANA_EDITIONS)
    assert [bool(current) for current, _ in rows] == [False, False, True]
    assert '<span class="tag">current</span>' in rows[2][1]
    assert "first version" in rows[0][1]
    for (_, row), edition, before in zip(rows[1:], versions(db, LORCANA_RULES)[1:], LORCANA_EDITIONS):
        cells = re.findall(r"<td>(.*?)</td>", row, re.DOTALL)
        assert cells[:6] == [edition["effective"], str(edition["rulings"]), str(edition["added"]),
                             str(edition["changed"]), str(edition["removed"]), str(edition["moved"])]
        assert f'href="/sources/{LORCANA_RULES}/diff?to={edition["version"]}">Changes from {before}</a>' in cells[6]


def test_the_source_page_links_to_its_versions_only_when_it_has_more_than_one(client):
    assert f'href="/sources/{LORCANA_RULES}/versions"' in page_of(client.get(f"/sources/{LORCANA_RULES}"))
    assert "/versions" not in page_of(client.get(f"/sources/{SEEDS_SOURCE}"))


def test_the_diff_page_marks_every_added_removed_and_changed_rule_and_links_those_that_have_a_page(client, db):
    found = diff(db, LORCANA_RULES, FIRST)
    page = page_of(client.get(f"/sources/{LORCANA_RULES}/diff", query_string={"from": FIRST}))
    assert (f"{len(found['added'])} added</span>,\n  <span class=\"count-removed\">{len(found['removed'])} removed"
            f"</span>,\n  <span class=\"count-moved\">{len(found['moved'])} moved</span>,\n  "
            f"<span class=\"count-changed\">{len(found['changed'])} changed") in page
    listed = items(page)
    expected = {**{row["ruling_id"]: "added" for row in found["added"]},
                **{row["ruling_id"]: "removed" for row in found["removed"]},
                **{row["id"]: "moved" for row in found["moved"] if row["diff"]},
                **{row["id"]: "changed" for row in found["changed"]}}
    assert {rid: change for rid, (change, _) in listed.items()} == expected
    current = {row[0] for row in db.execute("select id from rulings where source = ?", [LORCANA_RULES])}
    for rid, (change, body) in listed.items():
        link = f'<a class="ref" href="/r/{rid}">' in html.unescape(body)
        assert link == (rid in current), (rid, change)
    assert all(change != "removed" or "<del>" in body for change, body in listed.values())


def test_a_changed_rule_shows_its_words_removed_and_added(client, db):
    found = diff(db, LORCANA_RULES, FIRST)
    listed = items(page_of(client.get(f"/sources/{LORCANA_RULES}/diff", query_string={"from": FIRST})))
    for rule in found["changed"] + [row for row in found["moved"] if row["diff"]]:
        body = listed[rule["id"]][1]
        for run in rule["diff"]:
            if run["op"] != "same":
                tag = "del" if run["op"] == "removed" else "ins"
                assert f"<{tag}>{escape(run['text'])}</{tag}>" in body


def test_a_moved_rule_is_one_entry_with_its_number_before_and_whether_its_text_changed(client, db):
    found = diff(db, LORCANA_RULES, FIRST)
    assert len(found["moved"]) > 30, "the 2025-10-31 edition renumbers keywords: many rules moved"
    listed = items(page_of(client.get(f"/sources/{LORCANA_RULES}/diff", query_string={"from": FIRST, "moved": "all"})))
    for row in found["moved"]:
        change, body = listed[row["id"]]
        unchanged = ", text unchanged" if row["diff"] is None else ""
        assert change == "moved" and f"(was {escape(row['from_ref'])}{unchanged})" in body


def test_rules_moved_with_their_text_unchanged_are_hidden_counted_and_shown_in_one_click(client, db):
    found = diff(db, LORCANA_RULES, MIDDLE, LAST)
    renumbered = {row["id"] for row in found["moved"] if row["diff"] is None}
    assert len(renumbered) == 59 and len(found["moved"]) == 63
    page = page_of(client.get(f"/sources/{LORCANA_RULES}/diff"))
    assert not renumbered & set(items(page)) and "text unchanged)" not in page
    note = re.search(r'<p class="renumbered">(.*?)</p>', page, re.DOTALL)[1]
    assert note.startswith("59 rules moved to a new number with their text unchanged are not listed.")
    show = html.unescape(re.search(r'href="([^"]+)">Show them', note)[1])
    shown = page_of(client.get(show))
    assert renumbered <= set(items(shown)) and len(items(shown)) == len(items(page)) + 59
    assert "Showing the 59 rules moved" in shown
    hide = html.unescape(re.search(r'href="([^"]+)">Hide them', shown)[1])
    assert items(page_of(client.get(hide))) == items(page)
    assert client.get(f"/sources/{LORCANA_RULES}/diff?moved=some").status_code == 400


def test_a_rule_rewritten_about_the_same_subject_in_its_section_is_changed_not_removed_and_added(client, db):
    listed = items(page_of(client.get(f"/sources/{LORCANA_RULES}/diff")))
    change, body = listed["lorcana/conditions/5.1-general/5.1.1"]  # "Ready – Cards enter play ready. …" rewritten
    assert change == "changed" and "<del>Cards</del>" in body and "<ins>When a card is readied" in body
    assert "lorcana/cards/5.1-conditions/5.1.1" not in listed
    # Its page, and its history, say so too: changed in this edition, the earlier text one click away.
    page = page_of(client.get("/r/lorcana/conditions/5.1-general/5.1.1"))
    assert f"<strong>Changed in {LAST}</strong>" in page and "Ready – Cards enter play ready." in page
    assert [step["change"] for step in history(db, "lorcana/conditions/5.1-general/5.1.1")] == ["first", "same",
                                                                                                "changed"]


def test_the_diff_page_reads_in_the_later_editions_order_section_by_section(client, db):
    page = page_of(client.get(f"/sources/{LORCANA_RULES}/diff", query_string={"from": FIRST}))
    place = {row[0]: n for n, row in enumerate(db.execute(
        "select ruling_id from ruling_history where source = ? and version = ? order by rowid", [LORCANA_RULES, LAST]))}
    headings = re.findall(r'<h2 id="ds\d+">(.*?)</h2>', page)
    assert len(headings) > 10 and len(headings) == len(set(headings)), "each section once"
    firsts = []
    for section in re.split(r'<h2 id="ds\d+">', page)[1:]:
        kept = [place[html.unescape(rid)] for change, rid, _ in ITEM.findall(section) if change != "removed"]
        assert kept == sorted(kept)
        firsts += kept[:1]
    assert firsts == sorted(firsts)


@pytest.mark.parametrize("query, since, until", [({}, MIDDLE, LAST), ({"to": MIDDLE}, FIRST, MIDDLE),
                                                 ({"from": LAST, "to": FIRST}, LAST, FIRST),
                                                 ({"from": "", "to": ""}, MIDDLE, LAST)])
def test_from_and_to_default_to_the_version_before_and_the_current_one(client, db, query, since, until):
    page = page_of(client.get(f"/sources/{LORCANA_RULES}/diff", query_string=query))
    assert f"From <strong>{since}</strong>" in page and f"to <strong>{until}</strong>" in page
    assert f'<option value="{since}" selected>' in page.split('id="to"')[0]
    assert f'<option value="{until}" selected>' in page.split('id="to"')[1]
    api = client.get(f"/api/sources/{LORCANA_RULES}/diff", query_string=query).get_json()
    assert api == diff(db, LORCANA_RULES, since, until)


def test_the_first_version_has_nothing_to_compare_with(client):
    page = page_of(client.get(f"/sources/{LORCANA_RULES}/diff", query_string={"to": FIRST}))
    assert "is the first version" in page and '<li class="change-' not in page
    assert "is the first version" in page_of(client.get(f"/sources/{SEEDS_SOURCE}/diff"))


def test_the_versions_api_gives_each_version_with_its_counts(client, db):
    listed = client.get(f"/api/sources/{LORCANA_RULES}/versions").get_json()
    assert listed == versions(db, LORCANA_RULES)
    assert [(v["version"], v["effective"], v["current"]) for v in listed] == [
        (FIRST, FIRST, False), (MIDDLE, MIDDLE, False), (LAST, LAST, True)]
    assert all(isinstance(v[key], int) for v in listed[1:] for key in ("added", "changed", "removed"))


@pytest.mark.parametrize("url", ["/sources/nope/versions", "/sources/nope/diff",
                                 f"/sources/{LORCANA_RULES}/diff?from=1999", f"/sources/{LORCANA_RULES}/diff?to=%3Cscript%3E"])
def test_an_unknown_source_or_version_is_a_404_naming_it(client, url):
    page = client.get(url)
    assert page.status_code == 404 and "<script>" not in page.get_data(as_text=True)
    api = client.get("/api" + url)
    assert api.status_code == 404
    message = api.get_json()["error"]["message"]
    assert ("'nope'" in message) if "nope" in url else re.search(r"parameter '(from|to)': .* has no version", message)


def test_a_changed_ruling_says_in_which_version_with_the_earlier_text_one_click_away(client, db):
    rule = next(r for r in diff(db, LORCANA_RULES, MIDDLE, LAST)["changed"] if r["before"] != r["after"])
    page = page_of(client.get(f"/r/{rule['id']}"))
    assert f"<strong>Changed in {LAST}</strong>" in page
    assert f'href="/sources/{LORCANA_RULES}/diff?to={LAST}#' in page
    earlier = page[page.index('<details class="earlier">'):page.index("</details>")]
    assert f"The text in {MIDDLE}, before this change" in earlier
    assert f"{escape(rule['before'])}</p></blockquote>" in earlier
    assert "<del>" in earlier or "<ins>" in earlier


def test_an_added_ruling_says_in_which_version_and_a_ruling_there_from_the_start_says_nothing(client, db):
    added = diff(db, LORCANA_RULES, MIDDLE, LAST)["added"][0]["ruling_id"]
    page = page_of(client.get(f"/r/{added}"))
    assert f"<strong>Added in {LAST}</strong>" in page and '<details class="earlier">' not in page
    steady = next(rid for (rid,) in db.execute("select id from rulings where source = ? and kind = 'rule'",
                                               [LORCANA_RULES])
                  if [entry["change"] for entry in history(db, rid)] == ["first", "same", "same"]
                  and len({entry["ref"] for entry in history(db, rid)}) == 1)
    assert 'class="edition-change"' not in page_of(client.get(f"/r/{steady}"))
    assert 'class="edition-change"' not in page_of(client.get("/r/dragon-dice/magic/general/m"))


def test_the_ruling_api_carries_its_history(client, db):
    rule = diff(db, LORCANA_RULES, MIDDLE, LAST)["changed"][0]["id"]
    found = client.get(f"/api/rulings/{rule}").get_json()
    assert found["history"] == history(db, rule) and found["history"][-1]["change"] == "changed"
    assert [entry["version"] for entry in found["history"]][-1] == LAST


@pytest.mark.parametrize("as_of, status", [("2025-01-01", 200), ("", 200), ("2025-02-30", 400), ("2025-1-1", 400),
                                           ("yesterday", 400), ("２０２５-01-01", 400)])
def test_search_as_of_takes_a_calendar_date_and_names_a_bad_one(client, as_of, status):
    response = client.get("/api/search", query_string={"q": "challenge", "as_of": as_of})
    assert response.status_code == status
    if status == 400:
        assert "parameter 'as_of'" in response.get_json()["error"]["message"]


def test_search_as_of_answers_from_the_edition_in_force_then(client):
    then = client.get("/api/search", query_string={"q": "How does a challenge work?", "game": "lorcana",
                                                    "as_of": "2025-01-01"}).get_json()
    now = client.get("/api/search", query_string={"q": "How does a challenge work?", "game": "lorcana"}).get_json()
    assert then["as_of"] == "2025-01-01" and "as_of" not in now
    assert {r["version"] for r in then["results"]} == {FIRST} and {r["version"] for r in now["results"]} == {LAST}


def test_datasette_lists_the_versions_faceted_and_links_each_to_its_diff(editions_db, db):
    ds = datasette(editions_db)
    data = asyncio.run(ds.client.get("/rulings/source_versions.json", params={"source": LORCANA_RULES})).json()
    assert {"source", "current"} <= set(data["facet_results"]) and len(data["rows"]) == 3
    assert "version" in asyncio.run(ds.client.get("/rulings/ruling_history.json")).json()["facet_results"]
    table = asyncio.run(ds.client.get("/rulings/source_versions", params={
        "source": LORCANA_RULES, "_nocol": ["rows", "original_text", "cleaned_text", "line_numbers"]})).text
    assert f'<a href="{APP_URL}/sources/{LORCANA_RULES}/diff?to={LAST}"' in table


def test_the_canned_query_finds_what_the_diff_finds(editions_db, db):
    ds = datasette(editions_db)
    response = asyncio.run(ds.client.get("/rulings/changes_between_versions.json", params={
        "source": LORCANA_RULES, "from": FIRST, "to": "", "_shape": "array", "_size": "max"}))
    assert response.status_code == 200, response.text
    rows = response.json()
    found = diff(db, LORCANA_RULES, FIRST)
    for change in ("added", "removed", "moved", "changed"):
        assert sorted(r["ref"] for r in rows if r["change"] == change) == sorted(r["ref"] for r in found[change])
    assert all(r["permalink"] is None if r["change"] == "removed" else r["permalink"].startswith(f"{APP_URL}/r/")
               for r in rows)


def test_a_moved_ruling_says_in_which_version_and_its_number_before(client, db):
    rule = next(r for r in diff(db, LORCANA_RULES, MIDDLE, LAST)["moved"] if r["diff"] is None)
    page = page_of(client.get(f"/r/{rule['id']}"))
    assert f"<strong>Moved in {LAST}</strong>: it was {escape(rule['from_ref'])}" in page
    # Its link to the diff shows the rules moved unchanged, this one among them.
    link = html.unescape(re.search(r'href="([^"]+)">everything that changed in this version', page)[1])
    assert "moved=all" in link and link.endswith(f"#{rule['id']}")
    assert f'id="{rule["id"]}"' in page_of(client.get(link.split("#")[0]))
