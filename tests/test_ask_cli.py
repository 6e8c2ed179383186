"""`rulings ask`: the best ruling with its citation, or JSON in the documented shape."""
import json

from click.testing import CliRunner

from kb.search import MAX_K
from service.cli import cli


def ask(db, *args):
    return CliRunner().invoke(cli, ["ask", *args, "--db", str(db)])


def test_ask_json_has_the_documented_shape(built_db):
    result = ask(built_db, "Can a reserve army double its magic?", "--json", "-k", "3")
    assert result.exit_code == 0
    answer = json.loads(result.output)
    assert answer["query"] == "Can a reserve army double its magic?"
    assert answer["answered"] is True
    assert len(answer["results"]) == 3
    best = answer["results"][0]
    assert {"id", "game", "title", "text", "examples", "citation", "score"} <= set(best)
    assert best["id"] == "dragon-dice/magic/general/m"
    assert best["citation"]["line_start"] == 119
    scores = [r["score"] for r in answer["results"]]
    assert scores == sorted(scores, reverse=True)


def test_ask_prints_the_ruling_with_its_citation(built_db):
    result = ask(built_db, "Can a reserve army double its magic?")
    assert result.exit_code == 0
    assert "dragon-dice/magic/general/m" in result.output
    assert "lines 119–120" in result.output


def test_ask_game_filter_keeps_to_that_game(built_db):
    answer = json.loads(ask(built_db, "magic", "--game", "wizard-dice", "--json").output)
    assert answer["results"] and {r["game"] for r in answer["results"]} == {"wizard-dice"}


def test_ask_with_a_missing_database_fails_clearly(tmp_path):
    result = ask(tmp_path / "none.db", "anything")
    assert result.exit_code != 0 and "rulings ingest" in result.output


def test_ask_k_is_capped_at_the_search_limit(built_db):
    result = ask(built_db, "magic", "-k", str(MAX_K + 1))
    assert result.exit_code == 2 and f"1<=x<={MAX_K}" in result.output
