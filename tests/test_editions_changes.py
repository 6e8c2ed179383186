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
