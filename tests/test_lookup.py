"""Any rule by any of its names: a rule's number, a heading's number, a ref, or "rule X" / "CR X" / "section X" /
"article X" / "law X", with or without the source's abbreviation or the game's name, in any case or spacing, and
asked for in a sentence that asks for nothing else ("What is rule 4.3.3?")."""
from __future__ import annotations

import pytest

from kb.lookup import names, number_in
from kb.search import ask
from kb.store import connect
from service.app import create_app


@pytest.fixture(scope="module")
def lorcana(editions_db):
    return connect(editions_db)


@pytest.mark.parametrize("question, number", [
    ("4.3.6", "4.3.6"), ("rule 4.3.3", "4.3.3"), ("Rule 4.3.3.", "4.3.3"), ("CR 10.15.1", "10.15.1"),
    ("section 5", "5"), ("Article 12.3", "12.3"), ("law 7", "7"), ("  rule   702.19b ", "702.19b"),
    ("What is rule 4.3.3?", "4.3.3"), ("what does CR 10.15 say", "10.15"), ("show me 4.3.6", "4.3.6"),
    ("How does rule 4.3.6 work with Ward?", ""), ("What is a reserve army?", ""),
    ("rule", ""), ("Can a unit retreat?", ""), ("A", ""),
])
def test_a_number_is_read_however_a_judge_writes_it(question, number):
    assert number_in(question, [])[0] == number


def test_a_source_abbreviation_or_game_name_before_the_number_chooses_the_source(lorcana):
    assert number_in("Lorcana 4.3.6", names(lorcana)) == ("4.3.6", "lorcana", "lorcana-comprehensive-rules")
    assert number_in("lorcana rule 4.3.3", names(lorcana))[:2] == ("4.3.3", "lorcana")


@pytest.mark.parametrize("question", ["rule 4.3.3", "Lorcana 4.3.3", "lorcana   4.3.3", "4.3.3", "CR 4.3.3",
                                      "What is rule 4.3.3?", "What's Lorcana 4.3.3?"])
def test_a_rule_number_goes_to_that_rule(lorcana, question):
    answer = ask(lorcana, question, "lorcana")
    assert answer["answered"] and answer["results"][0]["ref"] == "Lorcana 4.3.3"


def test_a_number_the_document_gives_only_to_a_heading_goes_to_its_rules(lorcana):
    answer = ask(lorcana, "Lorcana 4.3.6", k=50)
    assert answer["lookup"] == {"kind": "heading", "number": "4.3.6", "title": "Challenge",
                                "source": "lorcana-comprehensive-rules"}
    refs = [r["ref"] for r in answer["results"]]
    assert refs[:2] == ["Lorcana 4.3.6.1", "Lorcana 4.3.6.2"] and all(ref.startswith("Lorcana 4.3.6.") for ref in refs)
    assert ask(lorcana, "CR 10.15")["lookup"]["title"] == "Ward"


def test_a_number_within_another_game_is_not_looked_up_there(lorcana):
    answer = ask(lorcana, "rule 4.3.3", "dragon-dice")
    assert all(r["game"] == "dragon-dice" for r in answer["results"])


def test_the_api_looks_a_rule_up_by_number(editions_db):
    client = create_app(editions_db).test_client()
    found = client.get("/api/rulings/lookup?number=rule+4.3.3&game=lorcana").get_json()
    assert (found["kind"], found["number"], found["results"][0]["ref"]) == ("rule", "4.3.3", "Lorcana 4.3.3")
    heading = client.get("/api/rulings/lookup?number=Lorcana+4.3.6").get_json()
    assert heading["kind"] == "heading" and heading["title"] == "Challenge"
    assert client.get("/api/rulings/lookup?number=99.99.99").status_code == 404
    assert client.get("/api/rulings/lookup?number=what+is+this").status_code == 404
    assert client.get("/api/rulings/lookup?number=4.3.3&game=nope").status_code == 400


def test_refs_of_the_seeds_still_go_straight_to_their_ruling(built_db):
    conn = connect(built_db)
    for question in ("PotL B.3", "potl  b.3", "DD Magic A"):
        assert ask(conn, question)["results"][0]["ref"].lower().replace(" ", "") == question.lower().replace(" ", "")
