"""The command line's manners: games named forgivingly or refused with the list, empty questions refused,
calculators listed and answered in words."""
import json
import os
import subprocess
import sys

import chess
import pytest
from click.testing import CliRunner
from support import REPO_DB, ROOT

from engine.calculators import describe, reference_markdown
from service.cli import cli


def rulings(*args, db=None):
    return CliRunner().invoke(cli, [*args, *(["--db", str(db)] if db else [])])


@pytest.mark.parametrize("game", ["dragondice", "Dragon Dice", "dragon-dice"])
def test_ask_takes_a_games_name_or_near_spelling(built_db, game):
    result = rulings("ask", "Can a reserve army double its magic?", "--game", game, "--json", db=built_db)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["game"] == "dragon-dice"


@pytest.mark.parametrize("game, message", [("backgammon", "unknown game 'backgammon'; one of chess, dragon-dice"),
                                           ("dice", "could be dragon-dice, magic-combat-dice, wizard-dice")])
def test_ask_refuses_an_unknown_or_ambiguous_game_listing_the_games(built_db, game, message):
    result = rulings("ask", "magic", "--game", game, db=built_db)
    assert result.exit_code == 2 and message in result.output


@pytest.mark.parametrize("question", ["", "   "])
def test_ask_refuses_an_empty_question(built_db, question):
    result = rulings("ask", question, db=built_db)
    assert result.exit_code == 2 and "the question is empty" in result.output


def test_ask_help_lists_the_games():
    result = rulings("ask", "--help")
    assert result.exit_code == 0
    # click wraps the help wherever it likes, even after a hyphen: compared without the spaces
    assert "Games:chess,dragon-dice,dungeon-twister,magic-combat-dice,paths-of-the-lance,wizard-dice." in \
        "".join(result.output.split())


def test_calc_with_a_game_lists_its_calculators_and_parameters():
    result = rulings("calc", "dragondice")
    assert result.exit_code == 0
    assert "  saves: Saves after modifiers" in result.output
    assert "    rolled (integer 0..500; required): save results the army rolled" in result.output
    listed = json.loads(rulings("calc", "dragon-dice", "--json").output)
    assert listed == describe()["dragon-dice"]


def test_calc_answers_in_words_with_the_rulings_that_decide_it():
    result = rulings("calc", "dungeon-twister", "bridge", "strength=3", "bonus=2", db=REPO_DB)
    assert result.output.splitlines() == [
        "The bridge holds: a strength-3 character may cross; only the printed strength counts (bonuses don't count).",
        "Decided by: DT The Small Bridge"]


@pytest.mark.parametrize("args, message", [
    (["dungeon-twister", "combat", "attacker_strengths=3", "defender_strengths=2", "attacker_card=9",
      "defender_card=1"], "parameter 'attacker_card': '9' is not allowed; it must be a whole number from 0 to 6"),
    (["wizard-dice", "dice", "allies=9"], "parameter 'allies'"),
    (["dungeon-twister", "action-points", "steps=Troll:eat a sandwich"], "unknown step 'eat a sandwich'"),
    (["wizard-dice", "set_aside", "spell_dice=2"], "use 'set-aside'"),
])
def test_calc_refuses_impossible_values_with_exit_2(args, message):
    result = rulings("calc", *args)
    assert result.exit_code == 2 and message in result.output


def test_calc_markdown_is_the_readmes_calculator_reference():
    assert rulings("calc", "--markdown").output.rstrip("\n") == reference_markdown()


def test_calc_of_a_stored_game_without_calculators_says_so_and_lists_the_games_that_have_them(seeds_plus):
    db = seeds_plus("ember", "Ember Rules\n\n1. Fire\n1.1 A fire spreads one space each turn.\n")
    result = rulings("calc", "ember", db=db)
    assert result.exit_code == 2 and "unknown game" not in result.output
    assert "is in the database, but the rules engine has no calculators for it" in result.output
    assert "games with calculators: chess, dragon-dice" in result.output


@pytest.mark.parametrize("command", ["versions", "diff"])
def test_versions_and_diff_without_a_source_list_the_sources(built_db, command):
    result = rulings(command, db=built_db)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Sources (give one: rulings versions SOURCE, rulings diff SOURCE):")
    assert "  dragon-dice-faq-magic  [dragon-dice] Official Dragon Dice FAQ" in result.output


def test_changes_refuses_an_unknown_game_as_ask_does():
    result = rulings("changes", "What changed about castling?", "--game", "nosuchgame", db=REPO_DB)
    assert result.exit_code == 2 and "Nothing about" not in result.output
    assert "Invalid value for '--game': unknown game 'nosuchgame'; one of chess, dragon-dice" in result.output


def test_changes_takes_a_games_name_as_ask_does():
    result = rulings("changes", "What changed about castling?", "--game", "Chess", "--json", db=REPO_DB)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("args", [
    ["stats"], ["ask", "Can a reserve army double its magic?"], ["changes", "castling", "--game", "chess"],
    ["calc", "chess"], ["calc", "chess", "position", f"fen={chess.STARTING_FEN}"], ["versions"], ["--help"],
    ["stats", "--help"]], ids=lambda args: " ".join(args)[:40])
def test_a_closed_stdout_ends_a_command_quietly_with_exit_0(args):
    reading, writing = os.pipe()
    os.close(reading)  # the reader is gone before the first line: every write meets a closed pipe
    try:
        db = [] if "--help" in args else ["--db", str(REPO_DB)]
        done = subprocess.run([sys.executable, "-m", "service.cli", *args, *db], stdout=writing,
                              stderr=subprocess.PIPE, cwd=ROOT, timeout=120, check=False)
    finally:
        os.close(writing)
    assert (done.returncode, done.stderr.decode()) == (0, ""), done.stderr.decode()  # whole, should it ever fail
