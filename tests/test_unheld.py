"""A question about a game the library does not hold: named as missing, never answered with another game's rules."""
from kb.search import ask
from kb.unheld import unheld_game

HELD = {"dragon dice": "dragon-dice", "chess": "chess"}


def test_a_game_the_library_does_not_hold_is_named():
    assert unheld_game("In Settlers of Catan, can I trade with the bank at four to one?", HELD) == "Catan"
    assert unheld_game("D&D 5e: does a bonus action spell stop me casting a cantrip?", HELD) == "Dungeons & Dragons"


def test_no_game_is_named_missing_beside_a_game_the_library_holds_or_by_an_everyday_word():
    assert unheld_game("Is Dragon Dice's magic like Magic: The Gathering's?", HELD) is None
    assert unheld_game("In chess, can a pawn capture backwards?", HELD) is None
    assert unheld_game("Can I go back and risk a bridge crossing?", HELD) is None
    assert unheld_game("Catan or Monopoly: which lets me trade?", HELD) is None  # two games: which one is asked about?


def test_a_question_about_a_game_not_held_is_not_covered_and_says_so(conn):
    answer = ask(conn, "In Settlers of Catan, can I trade resources with the bank at four to one?")
    assert answer["unheld"] == "Catan" and answer["outcome"] == "not-covered"
    assert answer["said"].startswith("The library holds no rules for Catan")


def test_with_a_game_chosen_a_question_about_another_game_is_never_an_answer(conn):
    answer = ask(conn, "In Monopoly, can a reserve army double its magic?", "dragon-dice")
    assert answer["unheld"] == "Monopoly" and answer["outcome"] != "answer"
    assert answer["said"].startswith("The library holds no rules for Monopoly. ")
