"""A question asking what changed about a subject is read as one (kb.changes.subject)."""
import pytest

from kb.changes import subject


@pytest.mark.parametrize("question, about", [
    ("What changed about the number of ink types in a deck?", "the number of ink types in a deck"),
    ("what has changed in Shift", "Shift"), ("Is Alert new?", "Alert"), ("Errata for Bodyguard", "Bodyguard"),
    ("Which rules changed for locations?", "locations")])
def test_a_question_asking_what_changed_names_its_subject(question, about):
    assert subject(question) == about


@pytest.mark.parametrize("question", ["What does Bodyguard do?", "How many ink types can a deck contain?"])
def test_other_questions_ask_nothing_about_changes(question):
    assert subject(question) is None


def test_ask_answers_a_question_about_what_changed_with_the_changes_on_every_surface(editions_db):
    from click.testing import CliRunner

    from kb.search import ask
    from kb.store import connect
    from service.app import create_app
    from service.cli import cli
    question = "What changed about the number of ink types in a deck?"
    answer = ask(connect(editions_db), question, "lorcana")
    assert any(change["ref"].endswith("2.1.1.2") and change["earlier"] for change in answer["changes"])
    assert "changes" not in ask(connect(editions_db), "How many ink types can a deck hold?", "lorcana")
    printed = CliRunner().invoke(cli, ["ask", question, "--game", "lorcana", "--db", str(editions_db)]).output
    assert "2.1.1.2" in printed and "before (" in printed
    page = create_app(editions_db).test_client().get("/", query_string={"q": question, "game": "lorcana"})
    assert 'id="changes-heading">What changed</h3>' in page.get_data(as_text=True)


def test_the_bodyguard_term_page_shows_its_rules_and_their_history_only_bodyguards(editions_db):
    from service.app import create_app
    page = create_app(editions_db).test_client().get("/api/terms/lorcana/bodyguard").get_json()
    assert page["rules"] and all("Bodyguard" in r["text"] or r["ref"].endswith(("2", "3")) for r in page["rules"][:1])
    moves = {h["ref"]: h["changes"][0] for h in page["history"]}
    assert moves["Lorcana 10.3.1"]["change"] == "moved" and moves["Lorcana 10.3.1"]["earlier_ref"] == "Lorcana 10.2.1"
    assert all("Challenger" not in (c["earlier"] or "") + (c["now"] or "") for h in page["history"] for c in h["changes"])
