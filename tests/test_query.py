"""A question becomes content words, a safe full-text query, the game it names or speaks, or a direct hit."""
import shutil

import pytest

from kb import asof, query
from kb.lexicon import load_lexicon
from kb.store import connect


@pytest.fixture(scope="module")
def lexicon(conn):
    return load_lexicon(conn)


def test_content_terms_keep_meaningful_words_once_in_order():
    assert query.content_terms("Does the Stoneskin spell stack? Does stoneskin's effect stack?") == \
        ["stoneskin", "spell", "stack", "stoneskins", "effect"]


def test_the_full_text_query_quotes_and_ors_the_content_words():
    assert query.fts_query("Can a reserve army double its magic?") == '"reserve" OR "army" OR "double" OR "magic"'


def test_acronyms_the_rulings_use_search_their_names_and_names_their_acronyms(lexicon):
    assert lexicon.acronyms["fod"] == "finger of death"
    assert query.fts_query("Can I reflect a Finger of Death?", lexicon.acronyms).split(" OR ")[-1] == '"fod"'
    assert '"finger" OR "death"' in query.fts_query("does FOD kill?", lexicon.acronyms)


def test_a_question_naming_one_game_names_it(lexicon):
    assert query.named_game("In Dungeon Twister, can a wall be jumped?", lexicon.games) == "dungeon-twister"
    assert query.named_game("What do Dragons of Glory fleets do?", lexicon.games) == "paths-of-the-lance"


def test_a_question_naming_two_games_or_none_names_no_game(lexicon):
    assert query.named_game("Is Dragon Dice faster than Wizard Dice?", lexicon.games) is None
    assert query.named_game("Can a reserve army double its magic?", lexicon.games) is None


def test_a_ruling_id_or_an_unambiguous_id_tail_is_a_direct_hit(lexicon):
    stoneskin_b = "dragon-dice/magic/earth/stoneskin/b"
    assert query.direct_hit(stoneskin_b, lexicon) == stoneskin_b
    assert query.direct_hit(" [stoneskin/B] ", lexicon) == stoneskin_b


def test_an_ambiguous_label_or_a_sentence_is_searched_not_guessed(lexicon):
    assert query.direct_hit("a", lexicon) is None
    assert query.direct_hit("stoneskin b", lexicon) is None


def test_term_games_counts_each_games_rulings_using_a_word(conn):
    usage = query.term_games(conn, ["stoneskin", "qwertyuiop"])
    assert set(usage["stoneskin"]) == {"dragon-dice"} and usage["stoneskin"]["dragon-dice"] >= 2
    assert usage["qwertyuiop"] == {}


def test_counts_read_as_of_a_past_day_are_not_kept_for_todays_questions(built_db, tmp_path):
    # A copy: the counts kept in memory are per file, and the shared database's may already hold these words.
    db = tmp_path / "rulings.db"
    shutil.copy(built_db, db)
    dated, swapped = asof.connection(str(db), "2001-01-01")
    words = ["magic", "army", "dice"]
    then = query.term_games(dated, words)
    today = connect(db)
    stored = {word: dict(today.execute("select r.game, count(*) from rulings_fts join rulings r on r.rowid = "
                                       "rulings_fts.rowid where rulings_fts match ? group by r.game", [word]))
              for word in words}
    assert swapped and then != stored  # the day reads fewer sources than the file holds
    assert query.term_games(today, words) == stored


def test_game_vocabulary_is_recognised_without_its_name(conn):
    usage = query.term_games(conn, query.content_terms("Do stoneskins add saves to a reserve army?"))
    assert query.vocabulary_game(usage) == "dragon-dice"


def test_vocabulary_needs_two_words_of_one_game_and_none_of_another():
    stoneskin, burial = {"stoneskin": {"dragon-dice": 4}}, {"burial": {"dragon-dice": 3}}
    assert query.vocabulary_game(stoneskin) is None
    assert query.vocabulary_game({**stoneskin, **burial, "wall": {"dungeon-twister": 5}}) is None
    assert query.vocabulary_game({**stoneskin, "burial": {"dragon-dice": 1}}) is None
    assert query.vocabulary_game({**stoneskin, **burial, "army": {"dragon-dice": 9, "paths-of-the-lance": 2}}) \
        == "dragon-dice"


def test_once_the_game_is_chosen_its_name_and_in_the_game_are_not_searched(lexicon):
    question = "Does the sword count when I defend in Dungeon Twister, in the game?"
    assert query.without_game_name(question, lexicon.games, "dungeon-twister") == \
        "Does the sword count when I defend , ?"
    assert query.without_game_name(question, lexicon.games, None) == question
