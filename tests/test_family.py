"""Rule families: each result names its parent rule (`family`), and subrules of one rule show together under it."""
import json
import re

import pytest
from click.testing import CliRunner

from kb.rulings import family_groups, group_by_family
from kb.search import ask as search
from kb.store import connect
from service.app import create_app
from service.cli import cli
from service.db import get_db

# A small decimal rulebook: 100.1 has two lettered subrules, 100.2 and 101.1 have none.
RULEBOOK = """Quarrel Comprehensive Rules

100. Cards

100.1 Exerting a card turns it sideways to show that it has been used this turn.
100.1a An exerted card cannot attack or quest until its owner readies it at the start of their next turn.
100.1b A card exerted to pay a cost stays exerted until its owner's ready step.
100.2 Each player shuffles a deck of exactly sixty cards before the game begins.

101. Winning

101.1 A player who reaches twenty lore wins the game at once.
"""
QUESTION = "Can an exerted card attack or quest?"
PARENT, FIRST, SECOND = "quarrel/cards/100.1", "quarrel/cards/100.1a", "quarrel/cards/100.1b"
HEADING = "quarrel/cards"  # the section "100 Cards" its rules' ids start with
OFF_TOPIC = "What is the capital of France?"


@pytest.fixture(scope="module")
def family_db(seeds_plus):
    """The seeds' database with the small rulebook added (game `quarrel`)."""
    return seeds_plus("quarrel", RULEBOOK)


@pytest.fixture(scope="module")
def client(family_db):
    return create_app(family_db).test_client()


def ask(db, *args):
    return CliRunner().invoke(cli, ["ask", *args, "--db", str(db)])


def result(rid: str, family: str | None = None) -> dict:
    return {"id": rid, "family": family}


def ids(groups: list[dict]) -> list[list[str]]:
    return [[r["id"] for r in group["results"]] for group in groups]


def test_ask_json_gives_each_result_the_id_of_its_parent_rule(family_db):
    answer = json.loads(ask(family_db, QUESTION, "--json").output)
    families = {r["id"]: r["family"] for r in answer["results"]}
    assert families[FIRST] == families[SECOND] == PARENT
    # 100.1 itself sits under the heading "100 Cards", a parent rule that is only a heading.
    assert families[PARENT] == HEADING and all("family" in r for r in answer["results"])


def test_api_search_and_api_ruling_give_the_family(client):
    found = client.get("/api/search", query_string={"q": QUESTION}).get_json()["results"]
    assert {r["id"]: r["family"] for r in found}[FIRST] == PARENT
    assert client.get(f"/api/rulings/{SECOND}").get_json()["family"] == PARENT
    assert client.get(f"/api/rulings/{PARENT}").get_json()["family"] == HEADING


def test_siblings_are_grouped_under_their_parent_in_the_place_of_their_best_member():
    found = [result("a"), result("r/1b", "r/1"), result("b"), result("r/1a", "r/1")]
    groups = group_by_family(found)
    assert ids(groups) == [["a"], ["r/1b", "r/1a"], ["b"]]
    assert groups[1]["family"] == "r/1" and groups[1]["best"] == "r/1b"


def test_a_result_with_no_family_or_no_sibling_stands_alone():
    groups = group_by_family([result("a"), result("r/1a", "r/1"), result("r/2a", "r/2")])
    assert ids(groups) == [["a"], ["r/1a"], ["r/2a"]]
    assert [group["family"] for group in groups] == [None, None, None]


def test_the_closest_member_of_a_family_is_its_first_even_before_its_parent_rule():
    groups = group_by_family([result("r/1a", "r/1"), result("a"), result("r/1", "r"), result("r/1b", "r/1")])
    assert ids(groups) == [["r/1a", "r/1", "r/1b"], ["a"]]
    assert groups[0]["family"] == "r/1" and groups[0]["best"] == "r/1a" == groups[0]["results"][0]["id"]


def test_a_parent_rule_that_is_the_closest_leads_its_family():
    groups = group_by_family([result("r/1", "r"), result("r/1b", "r/1"), result("a"), result("r/1a", "r/1")])
    assert ids(groups) == [["r/1", "r/1b", "r/1a"], ["a"]]


def test_family_groups_read_every_parent_heading_in_one_query(family_db):
    conn = connect(family_db)
    statements = []
    conn.set_trace_callback(statements.append)
    found = [result(FIRST, PARENT), result("quarrel/winning/101.1"), result(SECOND, PARENT)]
    groups = family_groups(conn, found)
    conn.close()
    assert groups[0]["heading"] == {"id": PARENT, "label": "100.1", "title": (
        "Exerting a card turns it sideways to show that it has been used this turn.")}
    assert groups[1]["heading"] is None
    assert len(statements) == 1


def test_ask_prints_siblings_under_their_parent_rule_heading(family_db):
    output = ask(family_db, QUESTION).output
    assert "No ruling" not in output
    assert "Under 100.1 Exerting a card turns it sideways" in output
    assert "Also under 100.1:" in output
    assert output.index("Under 100.1") < output.index(f"[{FIRST}]") < output.index(f"[{SECOND}]")
    assert output.count(f"[{PARENT}]") == 1, "the parent rule is listed once, in its place, not again as the heading"


def test_ask_page_shows_the_family_under_its_parent_rule_the_closest_first_and_marked(client):
    page = client.get("/", query_string={"q": QUESTION}).get_data(as_text=True)
    family = page[page.index('<li class="family">'):]
    family = family[:family.index("</ol>")]
    # The closest member is the first shown, marked; the parent rule, a result too, follows in its own place, once.
    shown = re.findall(r'<article class="ruling" id="([^"]+)"', family)
    assert shown[0] == FIRST and set(shown) == {FIRST, SECOND, PARENT} and page.count(f'id="{PARENT}">') == 1
    assert '<span class="rule-label">100.1</span>' in family
    best = family[family.index('<li class="best">'):]
    assert best.index("Answer") < best.index(f'id="{FIRST}"') < best.index("</li>")


def test_the_parent_headings_are_read_once_per_request(family_db):
    app = create_app(family_db)
    statements = []
    app.before_request(lambda: get_db().set_trace_callback(statements.append))
    assert app.test_client().get("/", query_string={"q": QUESTION}).status_code == 200
    assert sum("select id, label, title from rulings" in sql for sql in statements) == 1


def test_a_question_not_covered_lists_the_nearest_rulings_for_reference_the_first_in_full(family_db, client):
    answer = json.loads(ask(family_db, OFF_TOPIC, "--json").output)
    assert answer["outcome"] == "not-covered" and answer["answered"] is False and answer["results"]
    output = ask(family_db, OFF_TOPIC)
    assert output.exit_code == 1
    assert "Nearest rulings, for reference:" in output.output
    first, *others = answer["results"]
    assert f"{first['ref']}  {first['title']}  [{first['id']}]" in output.output
    for nearest in others:
        assert f"[{nearest['id']}] ({nearest['citation']['text']})" in output.output
    page = client.get("/", query_string={"q": OFF_TOPIC}).get_data(as_text=True)
    assert '<section class="results outcome-not-covered nearest"' in page and "Nearest rulings, for reference" in page


# A rulebook whose rules sit under numbered headings with no text of their own ("1.1 General"), as most of a
# comprehensive rulebook does: the heading is the parent rule, though it is no ruling.
HEADINGS = """Quire Comprehensive Rules

1. Concepts

1.1 Inking
1.1.1 A scribe inks one page of a quire during their turn, never more.
1.1.2 An inked page of a quire stays inked until the quire is burned.
1.2 Binding
1.2.1 A quire of eight inked pages is bound at the end of the turn.
"""
INK_QUESTION = "How many pages of a quire can a scribe ink during their turn, and how long do they stay inked?"


@pytest.fixture(scope="module")
def headings_db(seeds_plus):
    return seeds_plus("quire", HEADINGS)


def test_rules_under_a_heading_only_rule_share_it_as_their_family(headings_db):
    conn = connect(headings_db)
    found = search(conn, INK_QUESTION, game="quire", k=3)["results"]
    first, second = (next(r for r in found if r["id"].endswith(f"/{label}")) for label in ("1.1.1", "1.1.2"))
    assert first["family"] == second["family"] == first["id"].rsplit("/", 1)[0]
    assert next(r for r in found if r["id"].endswith("/1.2.1"))["family"] != first["family"]
    group = next(g for g in family_groups(conn, found) if g["family"] == first["family"])
    assert group["heading"] == {"id": None, "label": "1.1", "title": "Inking"}
    assert {r["id"] for r in group["results"]} == {first["id"], second["id"]}


def test_a_heading_only_family_shows_its_heading_without_a_link(headings_db):
    page = create_app(headings_db).test_client().get("/", query_string={"q": INK_QUESTION, "game": "quire"})
    family = page.get_data(as_text=True)
    family = family[family.index('<li class="family">'):]
    assert '<h4 class="family-head"><span class="rule-label">1.1</span> Inking</h4>' in family
    output = ask(headings_db, INK_QUESTION, "--game", "quire").output
    assert "1.1 Inking\n" in output and "[quire/concepts/1.1-inking]" not in output  # no ruling to point at


def test_a_family_among_the_nearest_rulings_marks_its_nearest_member_not_a_closest_match(client):
    page = client.get("/", query_string={"q": OFF_TOPIC, "game": "quarrel", "k": 5}).get_data(as_text=True)
    assert '<section class="results outcome-not-covered nearest"' in page and '<li class="family">' in page
    assert "Closest of these" in page and "Answer" not in page
