"""What a reader is told of the engine's checks: plain words, the number of agreeing examples, and the reason
a ruling cannot be checked, quieter than the ruling itself."""
import shutil
import sqlite3

import pytest

from kb.rulings import STATUS_LABELS, proof
from kb.verify import verify
from service.app import create_app

CHECKED = "dragon-dice/magic/general/m"
WINTER = "paths-of-the-lance/optional-rules/b"


@pytest.fixture(scope="module")
def verified_db(built_db, tmp_path_factory):
    path = tmp_path_factory.mktemp("proof") / "rulings.db"
    shutil.copy(built_db, path)
    verify(path)
    return path


@pytest.fixture(scope="module")
def client(verified_db):
    return create_app(verified_db).test_client()


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.get_data(as_text=True)


@pytest.mark.parametrize("status, reason, tests, said", [
    ("passed", None, 3, "Checked by the engine: 3 examples agree"),
    ("passed", None, 1, "Checked by the engine: 1 example agrees"),
    ("passed", None, None, "Checked by the engine"),
    ("failed", None, 2, "The engine disagrees"),
    ("not-executable", "Credits only.", 0, "Not checkable: Credits only."),
    ("unlinked", None, 0, "Not checked: no example yet"),
])
def test_proof_says_what_the_engine_found_in_plain_words(status, reason, tests, said):
    assert proof(status, reason, tests) == said


def test_no_status_label_speaks_of_tests():
    for labels in STATUS_LABELS.values():
        for label in labels.values():
            assert "test" not in label.lower() and "executable" not in label.lower(), label


def test_a_checked_ruling_says_how_many_examples_agree(client, verified_db):
    tests = sqlite3.connect(verified_db).execute(
        "select tests from ruling_status where ruling_id = ? and status = 'passed'", [CHECKED]).fetchone()[0]
    assert tests >= 2
    said = f'<span class="badge badge-passed">Checked by the engine: {tests} examples agree</span>'
    assert said in page(client, f"/r/{CHECKED}")
    assert said in page(client, "/?q=Can+a+reserve+army+double+its+magic%3F")
    assert said in page(client, "/handbook/dragon-dice")


def test_an_introduction_is_not_checkable_and_says_why_once(client):
    text = page(client, f"/r/{WINTER}")
    assert '<span class="badge badge-not-executable">Not checkable</span>' in text
    assert text.count("each effect (frozen rivers") == 1
    assert "Not checkable: Introduces the winter rules" in text
    assert "Test passes" not in text and "Not executable" not in text


def test_the_status_is_quieter_than_the_ruling():
    css = (create_app().static_folder + "/style.css")
    with open(css, encoding="utf-8") as f:
        rule = next(line for line in f if line.startswith(".badge {"))
    # No filled box and a smaller type than the ruling's text.
    assert "background" not in rule and "font-size: .85rem" in rule
