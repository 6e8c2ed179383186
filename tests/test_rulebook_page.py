"""/rules/<source>: a source read as a rulebook, every rule at its number's anchor, subrules nested under their rule,
headings addressable, cross-references linked both ways on the page, linked from the source, game and ruling
pages."""
from __future__ import annotations

from html.parser import HTMLParser

import pytest
from markupsafe import escape

from kb.rulebook import rule_anchor, rulebook
from kb.store import connect
from service.app import create_app

POTL = "paths-of-the-lance-rules"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Ids(HTMLParser):
    """Every element id of a page in document order, each with the ids of the elements it stands inside, and
    every link's href with the id it stands inside."""

    def __init__(self):
        super().__init__()
        self.open: list[str | None] = []
        self.order: list[str] = []
        self.inside: dict[str, list[str]] = {}
        self.links: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and "href" in attrs:
            self.links.append((attrs["href"], next((i for i in reversed(self.open) if i), None)))
        if tag in VOID:
            return
        if attrs.get("id"):
            self.order.append(attrs["id"])
            self.inside[attrs["id"]] = [i for i in self.open if i]
        self.open.append(attrs.get("id"))

    def handle_endtag(self, tag):
        if tag not in VOID and self.open:
            self.open.pop()


@pytest.fixture(scope="module")
def client(built_db):
    return create_app(built_db, datasette_url="http://datasette.test").test_client()


@pytest.fixture(scope="module")
def page(client):
    response = client.get(f"/rules/{POTL}")
    assert response.status_code == 200
    parsed = Ids()
    parsed.feed(response.get_data(as_text=True))
    return response.get_data(as_text=True), parsed


def test_every_rule_stands_at_its_number_in_document_order(page, conn):
    _, ids = page
    rows = conn.execute("select r.id, r.ref, s.abbrev from rulings r join sources s on s.id = r.source "
                        "where r.source = ? order by r.position", [POTL]).fetchall()
    anchors = [rule_anchor(row["id"], row["ref"], row["abbrev"]) for row in rows]
    # The document numbers none of its first sections: each rule is anchored by its id's tail.
    assert anchors[:4] == ["introduction", "new-sequence-of-play", "new-sequence-of-play/1", "new-sequence-of-play/2"]
    assert "B.1" in anchors and "optional-rules/b/1" in anchors  # "PotL Optional B.1": no one number, the id's tail
    assert [i for i in ids.order if i in set(anchors)] == anchors


def test_subrules_are_nested_under_their_rule_and_rules_under_their_heading(page):
    _, ids = page
    assert "B" in ids.inside["B.1"] and "new-sequence-of-play" in ids.inside["new-sequence-of-play/11"]
    assert "optional-rules/b" in ids.inside["optional-rules/b/5"]
    assert "new-rules" in ids.inside["A"]  # the heading "New Rules", addressable by its slug
    assert "B" not in ids.inside["C"]


def test_cross_references_link_to_anchors_on_the_page_both_ways(page):
    _, ids = page
    # Step 3 of the New Sequence of Play says "see pg. 2, Using the Event Cards, section 1": that section's rule 1,
    # linked in its text and back.
    step, event = "new-sequence-of-play/3", "using-the-event-cards/1"
    assert (f"#{event}", step) in ids.links
    assert (f"#{step}", event) in ids.links
    assert ("#H", "using-the-event-cards/4") in ids.links and ("#using-the-event-cards/4", "H") in ids.links


def test_each_rule_links_to_its_own_page(page):
    _, ids = page
    assert ("/r/paths-of-the-lance/new-rules/b/2", "B.2") in ids.links


def test_the_text_is_escaped(page):
    html, _ = page
    assert "rolls &lt;= (1 for each nation" in html and "rolls <= (1" not in html


def test_the_page_names_the_version_it_shows(page):
    html, _ = page
    assert "version 2014" in html and "42 rules" in html


def test_front_matter_is_addressable_but_apart_from_the_rules(client):
    html = client.get("/rules/dragon-dice-faq-magic").get_data(as_text=True)
    ids = Ids()
    ids.feed(html)
    assert html.index('id="magic/front-matter/1"') < html.index('<div class="rulebook">')
    assert html.index('<div class="rulebook">') < html.index('id="A"')
    assert "M" in ids.order and "1.A" in ids.inside and "1" in ids.inside["1.A"]


def test_an_unknown_source_is_a_404_naming_it(client):
    response = client.get("/rules/no-such-source")
    assert response.status_code == 404 and "no-such-source" in response.get_data(as_text=True)


@pytest.mark.parametrize("url", ["/sources/paths-of-the-lance-rules", "/games/paths-of-the-lance"])
def test_source_and_game_pages_link_to_the_rulebook(client, url):
    assert f'href="/rules/{POTL}"' in client.get(url).get_data(as_text=True)


@pytest.mark.parametrize("ruling, href", [
    ("paths-of-the-lance/new-rules/b/2", f"/rules/{POTL}#B.2"),
    ("paths-of-the-lance/optional-rules/b/1", f"/rules/{POTL}#optional-rules/b/1"),
])
def test_a_ruling_page_links_to_its_place_in_the_rulebook(client, ruling, href):
    html = client.get(f"/r/{ruling}").get_data(as_text=True)
    assert f'class="in-rulebook" href="{href}"' in html


def test_a_rule_the_document_only_heads_a_section_with_is_the_rule_not_a_heading(conn):
    book = rulebook(conn, POTL)
    top = [(node["anchor"], node["heading"]) for node in book["tree"]]
    # "New Sequence of Play" is both a rule (PotL New Sequence of…) and its subrules' section: one node, the rule.
    assert top[:3] == [("introduction", False), ("new-sequence-of-play", False), ("using-the-event-cards", False)]
    assert [child["anchor"] for child in book["tree"][1]["children"]][:2] == ["new-sequence-of-play/1",
                                                                              "new-sequence-of-play/2"]


def test_numbered_headings_are_anchored_at_their_numbers(editions_db):
    with connect(editions_db) as conn:
        html = create_app(editions_db).test_client().get("/rules/lorcana-comprehensive-rules").get_data(as_text=True)
        book = rulebook(conn, "lorcana-comprehensive-rules")
    ids = Ids()
    ids.feed(html)
    assert book["source"]["editions"] == 3
    assert "1.1" in ids.order and "1.1" in ids.inside["1.1.1"]  # heading "1.1 General" over rule 1.1.1
    assert "4.3.6" in ids.order  # the heading "4.3.6 Challenge", addressable though no rule has that number
    assert "the current of 3 editions" in html


def test_each_printed_page_is_marked_where_it_begins_and_a_pdf_page_opens_the_file_there(editions_db, page):
    html = create_app(editions_db).test_client().get("/rules/lorcana-comprehensive-rules").get_data(as_text=True)
    ids = Ids()
    ids.feed(html)
    marks = [(href, inside) for href, inside in ids.links if "/original?" in href and "#page=" in href]
    # Printed page 8 is the PDF's 11th page (three pages of front matter before page 1); it begins within 4.3.5.
    assert ("/sources/lorcana-comprehensive-rules/original?version=2025-10-31#page=11", "4.3.5.3") in marks
    numbers = [int(href.rsplit("=", 1)[1]) for href, _ in marks]
    assert numbers == sorted(set(numbers)) and len(numbers) > 30
    assert '<span class="page-mark">page 2</span>' in page[0]  # a flattened book's printed pages, not a PDF's


@pytest.mark.parametrize("asked, anchor", [("B.2", "B.2"), ("rule B.2", "B.2"), ("PotL B.2.", "B.2"),
                                           ("b.2", "B.2")])
def test_go_to_rule_without_script_redirects_to_the_rules_place_on_the_page(client, asked, anchor):
    response = client.get(f"/rules/{POTL}/go", query_string={"rule": asked})
    assert response.status_code == 302 and response.headers["Location"] == f"/rules/{POTL}#{anchor}"


def test_go_to_rule_finds_a_heading_by_its_number_and_a_subrule_by_its_own(editions_db):
    client = create_app(editions_db).test_client()
    for asked, anchor in (("4.3.6", "4.3.6"), ("Lorcana 1.6.1.1", "1.6.1.1"), ("rule 4.3", "4.3")):
        response = client.get("/rules/lorcana-comprehensive-rules/go", query_string={"rule": asked})
        assert response.headers["Location"] == f"/rules/lorcana-comprehensive-rules#{anchor}", asked


@pytest.mark.parametrize("asked", ["999.9z", "Bodyguard", "DD Magic M"])
def test_go_to_an_unknown_rule_is_a_404_that_says_so(client, asked):
    response = client.get(f"/rules/{POTL}/go", query_string={"rule": asked})
    assert response.status_code == 404
    assert f"has no rule or heading numbered {escape(repr(asked))}" in response.get_data(as_text=True)


def test_the_rulebook_page_has_a_go_to_rule_box_that_works_without_script(page):
    html, _ = page
    assert f'<form class="goto" action="/rules/{POTL}/go" method="get"' in html
    assert 'id="goto" name="rule"' in html and 'placeholder="e.g. ' in html
