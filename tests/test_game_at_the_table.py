"""The game at the table: the game chosen stays chosen for the next question until another is chosen, results of
the game a question is about come first with any other game's marked, and result headings say what they are."""
from __future__ import annotations

import re

import pytest

from service.app import create_app

QUESTION = "Can a reserve army double its magic?"


@pytest.fixture
def client(built_db):
    return create_app(built_db).test_client()


def selected(page: str) -> str:
    return re.search(r'<option value="([^"]*)" selected>', page).group(1) if " selected>" in page else ""


def test_the_game_chosen_is_remembered_for_the_next_question(client):
    client.get("/", query_string={"q": QUESTION, "game": "dragon-dice"})
    page = client.get("/", query_string={"q": "Does stoneskin stack?"}).get_data(as_text=True)
    assert selected(page) == "dragon-dice"
    assert 'class="other-game"' not in page


def test_choosing_all_games_forgets_the_game(client):
    client.get("/", query_string={"q": QUESTION, "game": "dragon-dice"})
    client.get("/", query_string={"q": QUESTION, "game": ""})
    assert selected(client.get("/", query_string={"q": QUESTION}).get_data(as_text=True)) == ""


def test_a_game_no_longer_in_the_database_is_not_remembered(client):
    client.set_cookie("game", "backgammon")
    assert selected(client.get("/", query_string={"q": QUESTION}).get_data(as_text=True)) == ""


def test_an_answer_comes_under_answer_and_the_rest_under_related_rules(client):
    page = client.get("/", query_string={"q": QUESTION, "game": "dragon-dice"}).get_data(as_text=True)
    answer, related = page.index('id="answer-label">Answer</h3>'), page.index('id="related-label">Related rules</h3>')
    assert answer < page.index('id="dragon-dice/magic/general/m"') < related


def test_with_no_game_chosen_the_game_asked_about_comes_first_and_others_are_marked(client):
    page = client.get("/", query_string={"q": "Dragon Dice: can a reserve army double its magic?", "k": 10,
                                         "game": ""}).get_data(as_text=True)
    articles = re.findall(r'<article class="ruling" id="([^"]+)"', page)
    games = [article.split("/")[0] for article in articles]
    assert games == sorted(games, key=lambda game: game != "dragon-dice")
    others = page.count('class="other-game"')
    assert others == sum(game != "dragon-dice" for game in games)
