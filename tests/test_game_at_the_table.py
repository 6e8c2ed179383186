"""The game at the table: the game chosen stays chosen in the form for the next question until another is chosen,
while a link answers as it says; results come in the answer's own order with any other game's marked, and result
headings say what they are."""
from __future__ import annotations

import html
import re

import pytest

from kb.search import ask as search
from kb.store import connect
from service.app import create_app

QUESTION = "Can a reserve army double its magic?"


@pytest.fixture
def client(built_db):
    return create_app(built_db).test_client()


def selected(page: str) -> str:
    return re.search(r'<option value="([^"]*)" selected>', page).group(1) if " selected>" in page else ""


def test_the_game_chosen_is_remembered_for_the_next_question(client):
    client.get("/", query_string={"q": QUESTION, "game": "dragon-dice"})
    page = client.get("/").get_data(as_text=True)
    assert selected(page) == "dragon-dice"
    page = client.get("/", query_string={"q": "Does stoneskin stack?", "game": selected(page)}).get_data(as_text=True)
    assert 'class="other-game"' not in page


def test_a_link_without_a_game_answers_as_it_says_not_in_the_remembered_game(client):
    client.get("/", query_string={"q": "Does stoneskin stack?", "game": "wizard-dice"})
    linked = client.get("/", query_string={"q": QUESTION}).get_data(as_text=True)
    articles = re.findall(r'<article class="ruling" id="([^"]+)"', linked)
    assert articles[0] == "dragon-dice/magic/general/m" and "outcome-answer" in linked
    # The remembered game still preselects the form, said beside it, with one link to clear it.
    assert selected(linked) == "wizard-dice"
    clear = re.search(r'<a class="clear-game" href="([^"]+)">Clear</a>', linked).group(1)
    cleared = client.get(html.unescape(clear)).get_data(as_text=True)
    assert selected(cleared) == "" and 'class="clear-game"' not in cleared
    assert selected(client.get("/").get_data(as_text=True)) == ""


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


def test_with_no_game_chosen_the_order_is_the_answers_and_another_games_rulings_are_marked(client, built_db):
    question = "Can a spell be cast on an army in reserve?"
    page = client.get("/", query_string={"q": question, "k": 10, "game": ""}).get_data(as_text=True)
    articles = re.findall(r'<article class="ruling" id="([^"]+)"', page)
    answer = search(connect(built_db), question, None, 10)
    assert articles == [r["id"] for r in answer["results"]]
    others = sum(article.split("/")[0] != answer["game"] for article in articles) if answer["game"] else 0
    assert page.count('class="other-game"') == others
