"""A question the documents don't cover is said to be not covered, with the recorded gaps of the sources searched
that it names (the missing Supply section, the Attack Table's missing thresholds): in kb, `rulings ask` (JSON
and plain), the API and the ask page.

Whether a question is answered is the ranking's decision (kb.answered), tuned separately: these tests pin the
gaps shown given an unanswered result, on questions unanswered today, and test `matching_gaps` directly."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from markupsafe import escape

from kb import search
from kb.answered import said
from kb.gaps import matching_gaps, stems, subjects
from service.app import create_app
from service.cli import cli, outcome_text

TESTS = Path(__file__).resolve().parent
# The shared questions no document covers, each with the recorded gap it should show (a piece of the gap's
# description), or null when none is on record.
UNCOVERED = [json.loads(line) for line in (TESTS / "uncovered_questions.jsonl").read_text().splitlines()]
DEV = [json.loads(line) for line in (TESTS / "dev_questions.jsonl").read_text().splitlines()]
# Unanswered today, with a recorded gap: the Paths of the Lance contents promise "New Rules E. Supply".
SUPPLY = "How do supply lines work for the armies?"
SUPPLY_GAP = "promised in the contents but absent: New Rules E. Supply"


def every_game(conn) -> list[str]:
    return [row[0] for row in conn.execute("select slug from games")]


def described(gaps: list[dict]) -> list[str]:
    return [gap["description"] for gap in gaps]


def test_a_gaps_subject_is_the_names_its_description_gives_asides_left_out():
    assert subjects("promised in the contents but absent: New Rules E. Supply") == ["New Rules E", "Supply"]
    assert subjects("the changes list promises “Revised Ash Storm/Palsy Penalties”, but no ruling covers it") \
        == ["Revised Ash Storm", "Palsy Penalties"]
    assert subjects("The Attack Table's d20 thresholds for Partial Hit, Hit and Critical Hit are never given "
                    "(only Critical Miss, a natural 1, and Miss, under 5)") \
        == ["Attack Table", "Partial Hit", "Hit", "Critical Hit"]
    assert subjects("the text stops here") == ["the text stops here"]


def test_words_are_compared_by_the_full_text_indexs_porter_stems():
    found = stems(["supply", "supplies", "lines", "building", "re-building"])
    assert found["supply"] == found["supplies"] and found["lines"] == "line"
    assert found["re-building"] == "re"


@pytest.mark.parametrize("question", UNCOVERED, ids=[q["id"] for q in UNCOVERED])
def test_an_uncovered_question_shows_its_sources_recorded_gap_and_no_other(conn, question):
    for games in ([question["game"]], every_game(conn)):  # its own game, or every game's nearest rulings
        found = described(matching_gaps(conn, question["question"], games))
        if question["gap"] is None:
            assert found == [], f"{question['id']} has no recorded gap but shows {found}"
        else:
            assert found and question["gap"] in found[0], f"{question['id']} shows {found}"


def test_supply_lines_find_both_missing_supply_sections_the_new_rules_first(conn):
    found = matching_gaps(conn, SUPPLY, ["paths-of-the-lance"])
    assert described(found) == [SUPPLY_GAP, "promised in the contents but absent: Optional Rules F. Supply and "
                                            "Re-building"]
    assert found[0]["subject"] == "Supply" and found[0]["kind"] == "missing-section"
    assert found[0]["citation"] == {"source": "paths-of-the-lance-rules", "source_title": found[0]["source_title"],
                                    "line_start": 6, "line_end": 6, "text": f"{found[0]['source_title']}, line 6"}


def test_answerable_questions_mostly_name_no_gap(conn):
    named = [q["id"] for q in DEV if matching_gaps(conn, q["question"], [q["game"]])]
    assert len(named) <= 2, named  # d008 asks about the changes list's resurrection timing, which is a gap


@pytest.mark.parametrize("question, game", [
    ("What are the new rules for victory?", "paths-of-the-lance"),  # "New Rules" of a missing section's name
    ("Can a reserve army double its magic?", "dragon-dice"),  # "Magical" of "Revised Magical Movement Rules"
    ("Does a hit deal damage to the blocker?", "magic-combat-dice"),  # "Hit" alone is too common a word
])
def test_common_words_of_a_gaps_name_are_not_enough(conn, question, game):
    assert matching_gaps(conn, question, [game]) == []


def test_only_the_games_searched_show_their_gaps(conn):
    assert matching_gaps(conn, SUPPLY, ["dragon-dice", "wizard-dice"]) == []
    assert matching_gaps(conn, SUPPLY, []) == []


def test_an_answered_question_shows_no_gap_and_an_unanswered_one_its_matching_gaps(conn):
    answered = search.ask(conn, "Can a reserve army double its magic?")
    assert answered["answered"] and answered["gaps"] == []
    # With no game named, the gaps of the games of the nearest rulings.
    assert described(search.ask(conn, SUPPLY)["gaps"])[0] == SUPPLY_GAP


def test_a_question_a_recorded_gap_names_is_not_covered_with_that_gap(conn):
    answer = search.ask(conn, SUPPLY)
    assert answer["outcome"] == "not-covered" and answer["answered"] is False
    assert described(answer["gaps"])[0] == SUPPLY_GAP and answer["results"]


def ask_cli(db, *args):
    return CliRunner().invoke(cli, ["ask", *args, "--db", str(db)])


def test_ask_json_carries_the_gaps_of_an_unanswered_question(built_db):
    result = ask_cli(built_db, SUPPLY, "--json")
    answer = json.loads(result.output)
    assert answer["answered"] is False and described(answer["gaps"])[0] == SUPPLY_GAP
    assert {"source", "source_title", "kind", "description", "line", "citation"} <= set(answer["gaps"][0])


def test_ask_says_plainly_it_is_not_covered_then_the_gaps_then_the_nearest_rulings_in_full(built_db):
    result = ask_cli(built_db, SUPPLY, "-k", "3")
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == "Not covered. The documents don't appear to cover this: a source records it as missing."
    assert lines[1] == (f"Recorded gap in Paths of the Lance: An Expansion to DL 11, Dragons of Glory: {SUPPLY_GAP} "
                        "(line 6)")
    nearest = lines.index("Nearest rulings, for reference:")
    answer = json.loads(ask_cli(built_db, SUPPLY, "-k", "3", "--json").output)
    first = answer["results"][0]
    assert lines[nearest + 1].startswith(first["ref"]) and first["text"].split()[0] in result.output


def test_the_not_covered_text_without_a_recorded_gap_goes_straight_to_the_nearest_rulings(conn):
    answer = search.ask(conn, "What is the capital of France?", k=2)
    text = outcome_text({**answer, "outcome": "not-covered", "said": said("not-covered", 0, None), "gaps": []})
    assert text.startswith("Not covered. The documents don't appear to cover this: the question's words and meaning "
                           "are not in them.\n\n"
                           "Nearest rulings, for reference:\n")
    assert "Recorded gap" not in text


@pytest.fixture(scope="module")
def client(built_db):
    return create_app(built_db).test_client()


def test_api_search_carries_the_gaps_like_the_cli(client, built_db):
    answer = client.get("/api/search", query_string={"q": SUPPLY}).get_json()
    assert answer["answered"] is False and described(answer["gaps"])[0] == SUPPLY_GAP
    assert answer == json.loads(ask_cli(built_db, SUPPLY, "--json").output)


def test_the_ask_page_says_not_covered_links_the_gap_to_its_source_line_then_the_nearest_rulings(client):
    page = client.get("/", query_string={"q": SUPPLY}).get_data(as_text=True)
    results = page[page.index('<section class="results outcome-not-covered nearest"'):]
    covered = results.index(escape("The documents don't appear to cover this: a source records it as missing."))
    gap = results.index(f': {SUPPLY_GAP}</li>')
    link = results.index('<a href="/sources/paths-of-the-lance-rules?lines=6-6#L6">Paths of the Lance: An '
                         'Expansion to DL 11, Dragons of Glory, line 6</a>')
    nearest = results.index('id="nearest-label">Nearest rulings, for reference</h3>')
    assert covered < link < gap < nearest < results.index('<article class="ruling"')
    assert "Answer" not in results


def test_the_ask_page_of_an_answered_question_shows_no_gap(client):
    page = client.get("/", query_string={"q": "Can a reserve army double its magic?"}).get_data(as_text=True)
    assert "Recorded gap" not in page and "gaps-found" not in page
