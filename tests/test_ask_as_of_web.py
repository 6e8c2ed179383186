"""The ask page takes a date as the CLI and API do: every source answers from its edition in force then."""
import pytest

from service.app import create_app
from support import CORPORA, LORCANA_EDITIONS

FIRST, _, LAST = LORCANA_EDITIONS


@pytest.fixture(scope="module")
def client(built_db):
    return create_app(built_db).test_client()


def test_the_ask_form_has_a_date_field_kept_with_the_question(client):
    page = client.get("/", query_string={"q": "magic", "as_of": "2001-01-01"}).get_data(as_text=True)
    assert '<input type="date" id="as_of" name="as_of" value="2001-01-01">' in page
    assert "As of 2001-01-01" in page


def test_a_date_that_is_no_date_is_a_400_naming_the_field(client):
    response = client.get("/", query_string={"q": "magic", "as_of": "yesterday"})
    assert response.status_code == 400 and "as_of" in response.get_data(as_text=True)


@pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not beside the clone")
def test_an_answer_as_of_an_earlier_date_quotes_the_edition_then_in_force(editions_db):
    client = create_app(editions_db).test_client()
    earlier = client.get("/", query_string={"q": "rule 4.3.6.1", "game": "lorcana", "as_of": FIRST})
    current = client.get("/", query_string={"q": "rule 4.3.6.1", "game": "lorcana"})
    assert f"As of {FIRST}" in earlier.get_data(as_text=True)
    assert f"version={FIRST}" in earlier.get_data(as_text=True)
    assert f"version={FIRST}" not in current.get_data(as_text=True)
