"""A game the rules engine does not implement carries no "not checked" badge on every ruling: its page says so
once; a game with an engine keeps each ruling's status, whatever it is."""
import pytest
from click.testing import CliRunner

from service.app import create_app
from service.cli import cli

RULEBOOK = """Ember Rules

1. Fire
1.1 A fire spreads one space each turn.
1.2 Water puts out a fire in its space.
"""


@pytest.fixture(scope="module")
def ember_db(seeds_plus):
    return seeds_plus("ember", RULEBOOK)


@pytest.fixture(scope="module")
def client(ember_db):
    return create_app(ember_db).test_client()


def test_a_game_without_an_engine_shows_no_badge_and_says_why_once(client):
    page = client.get("/games/ember").get_data(as_text=True)
    assert "The rules engine does not implement" in page and 'class="badge' not in page
    answer = client.get("/", query_string={"q": "Does water put out a fire?", "game": "ember"}).get_data(as_text=True)
    assert "Not checked" not in answer and 'class="badge' not in answer


def test_a_game_with_an_engine_keeps_its_rulings_status(client):
    page = client.get("/games/dragon-dice").get_data(as_text=True)
    assert "The rules engine does not implement" not in page and 'class="badge' in page


def test_the_cli_says_nothing_of_checking_a_game_without_an_engine(ember_db):
    result = CliRunner().invoke(cli, ["ask", "fire spreads one space each turn", "--game", "ember",
                                      "--db", str(ember_db)])
    assert "not checked" not in result.output and "Fire" in result.output
