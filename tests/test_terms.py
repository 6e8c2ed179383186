"""A page per term: a game's terms (its glossary entries and the sections named for what they define), and for
each its entry, the rules that define it, every other ruling that uses it and its history, on the web and in
the API."""
import pytest

from kb.store import connect
from kb.terms import MAX_RULES, named_term, term_page, term_slug, terms
from service.app import create_app

# A rulebook with a keyword chapter ("5.2 Shroud" defines Shroud; "5.1 General" defines nothing) and a
# glossary whose "Lantern" entry cites the rule that defines it; rules elsewhere mention both.
RULEBOOK = """Gloam Comprehensive Rules

1. Turn

1.1 Phases
1.1.1 Each turn has a lighting phase, then a moving phase.
1.1.2 In the lighting phase the active player may light one lantern.
1.1.3 A figure with Shroud may move during the lighting phase.
1.2 Moving
1.2.1 Each figure may move up to two spaces.
1.2.2 A figure may not move through a lit space unless it has Shroud.

5. Keywords

5.1 General
5.1.1 Keywords are abilities printed in bold on a figure's card.
5.1.2 A figure may have several keywords.
5.2 Shroud
5.2.1 Shroud is a static ability: a figure with Shroud cannot be chosen by an opponent's lantern.
5.2.2 A figure loses Shroud while it stands in a lit space.
5.3 Flicker
5.3.1 Flicker is a triggered ability: when a lantern is lit next to this figure, move it one space.

9. Glossary

Lantern
A token that lights its space and the spaces next to it. See 1.1.2.
Lit space
A space holding a lantern or next to one.
"""
SHROUD_RULES = ["gloam/keywords/5.2-shroud/5.2.1", "gloam/keywords/5.2-shroud/5.2.2"]


@pytest.fixture(scope="module")
def gloam_db(seeds_plus):
    return seeds_plus("gloam", RULEBOOK)


@pytest.fixture(scope="module")
def client(gloam_db):
    return create_app(gloam_db).test_client()


def test_a_games_terms_are_its_glossary_entries_and_the_sections_named_for_what_they_define(gloam_db):
    names = [term.name for term in terms(connect(gloam_db), "gloam")]
    assert names == ["Flicker", "Lantern", "Lit space", "Shroud"]  # A to Z; "5.1 General" defines nothing
    assert terms(connect(gloam_db), "dragon-dice") == []


def test_a_term_page_gathers_the_rules_that_define_it_and_every_other_ruling_using_it_by_section(gloam_db):
    page = term_page(connect(gloam_db), "gloam", "shroud")
    assert page["term"] == "Shroud" and page["entries"] == []
    assert [r["id"] for r in page["rules"]] == SHROUD_RULES
    mentioned = {group["section"]: [r["ref"] for r in group["rulings"]] for group in page["mentions"]}
    assert [ref.split()[-1] for refs in mentioned.values() for ref in refs] == ["1.1.3", "1.2.2"]
    assert all(r["id"] not in SHROUD_RULES for group in page["mentions"] for r in group["rulings"])
    assert page["history"] == [], "one edition: nothing changed"


def test_a_glossary_terms_page_shows_its_entry_and_the_rule_the_entry_cites(gloam_db):
    page = term_page(connect(gloam_db), "gloam", term_slug("Lantern"))
    assert [r["title"] for r in page["entries"]] == ["Lantern"]
    assert [r["id"] for r in page["rules"]] == ["gloam/turn/1.1-phases/1.1.2"]


def test_a_question_asking_what_a_term_is_or_does_names_it(gloam_db):
    conn = connect(gloam_db)
    for question in ("What is Shroud?", "what does shroud do", "Shroud"):
        assert named_term(conn, "gloam", question).slug == "shroud", question
    assert named_term(conn, "gloam", "Can a figure with Shroud move through a lit space on its first turn?") is None
    assert named_term(conn, None, "What is Shroud?") is None


def test_the_term_page_and_its_json_show_definition_rules_and_mentions(client):
    page = client.get("/terms/gloam/shroud").get_data(as_text=True)
    assert "<h1>Shroud</h1>" in page and "Rules that define it" in page and "Other rulings that use it" in page
    assert page.index("5.2.1") < page.index("Other rulings that use it") < page.index("1.2.2")
    found = client.get("/api/terms/gloam/shroud").get_json()
    assert [r["id"] for r in found["rules"]] == SHROUD_RULES and found["url"].endswith("/terms/gloam/shroud")
    assert found["more"] is None and "more-rules" not in page
    assert [t["slug"] for t in client.get("/api/terms/gloam").get_json()] == ["flicker", "lantern", "lit-space",
                                                                              "shroud"]


def test_an_unknown_term_or_game_is_a_404_that_says_where_the_terms_are(client):
    response = client.get("/terms/gloam/nope")
    assert response.status_code == 404 and "/games/gloam" in response.get_data(as_text=True)
    assert client.get("/api/terms/gloam/nope").status_code == 404
    assert client.get("/api/terms/nogame").status_code == 404


def test_the_game_page_lists_its_terms_and_an_answer_about_a_term_links_to_its_page(client):
    game = client.get("/games/gloam").get_data(as_text=True)
    assert 'id="terms"' in game and 'href="/terms/gloam/lit-space"' in game
    answer = client.get("/", query_string={"q": "What is Shroud?", "game": "gloam"}).get_data(as_text=True)
    assert 'class="term-link"' in answer and 'href="/terms/gloam/shroud"' in answer


def test_a_rulings_page_links_the_terms_its_text_uses_but_its_own(client):
    page = client.get("/r/gloam/turn/1.2-moving/1.2.2").get_data(as_text=True)  # "...a lit space unless ... Shroud"
    used = page[page.index('class="terms-used"'):]
    used = used[:used.index("</p>")]
    assert 'href="/terms/gloam/shroud"' in used and 'href="/terms/gloam/lit-space"' in used
    own = client.get("/r/gloam/keywords/5.2-shroud/5.2.1").get_data(as_text=True)
    assert 'href="/terms/gloam/shroud"' not in own.split('class="terms-used"')[-1].split("</p>")[0]


# A keyword whose section holds far more rules than a term's page shows (issue 44: a section of 5,000 rules made a
# 9.2 s, 4.2 MB page), mentioned by one rule elsewhere.
CROWDED_RULES = MAX_RULES + 25
CROWDED = "Crowd Comprehensive Rules\n\n1. Play\n\n1.1 Moving\n1.1.1 A figure with Swarm moves last.\n\n" \
          "5. Keywords\n\n5.2 Swarm\n" + "".join(f"5.2.{n} Swarm case {n}: a figure with Swarm counts {n} allies.\n"
                                                for n in range(1, CROWDED_RULES + 1))


@pytest.fixture(scope="module")
def crowded_db(seeds_plus):
    return seeds_plus("crowd", CROWDED)


def test_a_term_whose_section_is_huge_shows_its_first_rules_and_where_the_rest_follow(crowded_db):
    page = term_page(connect(crowded_db), "crowd", "swarm")
    assert [r["ref"].split()[-1] for r in page["rules"]] == [f"5.2.{n}" for n in range(1, MAX_RULES + 1)]
    more = page["more"]
    assert more["count"] == CROWDED_RULES - MAX_RULES and more["anchor"] == f"5.2.{MAX_RULES + 1}"
    assert more["ref"].endswith(f" 5.2.{MAX_RULES + 1}") and more["id"].startswith("crowd/")
    assert [r["ref"].split()[-1] for group in page["mentions"] for r in group["rulings"]] == ["1.1.1"]
    assert term_page(connect(crowded_db), "crowd", "swarm")["more"] == more


def test_a_huge_terms_page_links_the_rest_one_click_away_in_the_rulebook(crowded_db):
    client = create_app(crowded_db).test_client()
    page = client.get("/terms/crowd/swarm").get_data(as_text=True)
    more = term_page(connect(crowded_db), "crowd", "swarm")["more"]
    href = f"/rules/{more['source']}#{more['anchor']}"
    assert f'href="{href}"' in page and f"{CROWDED_RULES - MAX_RULES} more rules define it" in page
    assert f"counts {MAX_RULES} allies" in page and f"counts {MAX_RULES + 1} allies" not in page
    assert f'id="{more["anchor"]}"' in client.get(href.split("#")[0]).get_data(as_text=True)
    found = client.get("/api/terms/crowd/swarm").get_json()
    assert len(found["rules"]) == MAX_RULES and found["more"]["url"].endswith(href)
