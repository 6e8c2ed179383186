"""A question about a game the library does not hold: named as missing, never answered with another game's rules.
No list of games decides it: a name the question gives its game whose words the library's rulings never use."""
from kb.search import ask
from kb.unheld import named_games, unheld_game

HELD = {"dragon dice": "dragon-dice", "chess": "chess"}


def test_a_question_names_its_game_in_the_frames_players_use():
    assert named_games("In Settlers of Catan, can I trade with the bank at four to one?") == ["Settlers of Catan"]
    assert named_games("Can you play a wild card in Uno when you have a matching colour?") == ["Uno"]
    assert named_games("D&D 5e: does a bonus action spell stop me casting a cantrip?") == ["D&D 5e"]
    assert named_games("What do Azul's rules say about the floor line?") == ["Azul"]
    assert named_games("Can a reserve army double its magic?") == []


def test_a_game_whose_words_the_library_never_uses_is_named_missing(conn):
    assert unheld_game(conn, "In Settlers of Catan, can I trade with the bank at four to one?", HELD) == \
        "Settlers of Catan"
    assert unheld_game(conn, "In Azul, can I take tiles from the centre first?", HELD) == "Azul"
    assert unheld_game(conn, "D&D 5e: does a bonus action spell stop me casting a cantrip?", HELD) == "D&D 5e"


def test_no_game_is_named_missing_beside_a_held_game_by_a_word_the_library_uses_or_between_two(conn):
    assert unheld_game(conn, "Is Dragon Dice's magic like Magic: The Gathering's?", HELD) is None
    assert unheld_game(conn, "In chess, can a pawn capture backwards?", HELD) is None
    assert unheld_game(conn, "Can I go back and risk a bridge crossing?", HELD) is None
    # The seeds' own words: a term of theirs, not a game.
    assert unheld_game(conn, "In Magic, can a reserve army double its spells?", HELD) is None
    assert unheld_game(conn, "Catan or Monopoly: which lets me trade?", HELD) is None  # which one is asked about?


def test_a_question_about_a_game_not_held_is_not_covered_and_says_so(conn):
    answer = ask(conn, "In Settlers of Catan, can I trade resources with the bank at four to one?")
    assert answer["unheld"] == "Settlers of Catan" and answer["outcome"] == "not-covered"
    assert answer["said"].startswith("The library holds no rules for Settlers of Catan")


def test_with_a_game_chosen_a_question_about_another_game_is_never_an_answer(conn):
    answer = ask(conn, "In Monopoly, can a reserve army double its magic?", "dragon-dice")
    assert answer["unheld"] == "Monopoly" and answer["outcome"] != "answer"
    assert answer["said"].startswith("The library holds no rules for Monopoly. ")
