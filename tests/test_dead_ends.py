"""No dead ends: no link to an empty page, `rulings calc --db` names rulings by their refs, and `rulings stats`
says when a game has no engine rather than counting its rulings unchecked."""
from __future__ import annotations

import sqlite3

from click.testing import CliRunner

from service.app import create_app
from service.cli import cli

CASTLES = "Castles FAQ\n\nQ: Can a knight jump over a castle?\nA: No, castles block every move.\n"


def test_rulings_calc_takes_the_database_and_names_the_rulings_by_their_refs(built_db):
    result = CliRunner().invoke(cli, ["calc", "dragon-dice", "saves", "rolled=7", "frosted=true", "stoneskins=3",
                                      "--db", str(built_db)])
    assert result.exit_code == 0, result.output
    decided = result.output.splitlines()[-1]
    assert decided.startswith("Decided by: DD Magic ") and "dragon-dice/" not in decided


def test_rulings_calc_without_a_database_names_the_rulings_by_their_ids(tmp_path):
    result = CliRunner().invoke(cli, ["calc", "dragon-dice", "saves", "rolled=7", "--db", str(tmp_path / "none.db")])
    assert result.exit_code == 0 and "Decided by: dragon-dice/" in result.output


def test_rulings_stats_says_a_game_without_an_engine_has_none(seeds_plus):
    db = seeds_plus("castles", CASTLES)
    table = CliRunner().invoke(cli, ["stats", "--db", str(db)]).output
    assert "| castles | 1 | - | - | no engine for this game | - | - |" in table
    # the seeds' rulings, all of them games with an engine, counted apart from the castles' one
    seeds = sqlite3.connect(db).execute("select count(*) from rulings r join sources s on s.id = r.source "
                                        "where s.game != 'castles'").fetchone()[0]
    assert f"| all with an engine | {seeds} |" in table


def test_a_game_page_links_to_calculators_only_where_the_game_has_them(seeds_plus):
    client = create_app(seeds_plus("castles", CASTLES)).test_client()
    assert "Calculators</a>" not in client.get("/games/castles").get_data(as_text=True)
    assert "Calculators</a>" in client.get("/games/dragon-dice").get_data(as_text=True)
