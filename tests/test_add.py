"""`rulings add`: a new document of a common shape becomes rulings without code changes."""
import json
import shutil
import sqlite3

import pytest
from click.testing import CliRunner

from service.cli import cli, report_text

DOCS = {
    "lettered.txt": (
        "Skirmish FAQ\n\n"
        "A) A unit that retreats may not shoot in the same turn.\n"
        "   It may still cast spells.\n\n"
        "B) Cover applies to ranged attacks only.\n\n"
        "EXAMPLE: an archer behind a wall shoots at a unit in the open: no cover.\n\n"
        "C) Ties go to the defender.\n"),
    "decimal.txt": (
        "100. General\n\n"
        "100.1 The game is played by two players.\n"
        "100.1a In a multiplayer variant, each opponent is a separate team.\n"
        "100.2 A player who cannot draw loses the game.\n"),
    "qa.txt": (
        "Q: Can a knight jump over a castle?\nA: No, castles block every move.\n\n"
        "Q: Does the dragon fly over water?\nA: Yes, flying ignores terrain.\n"),
    "headed.txt": (
        "Movement\n"
        "Units move up to their speed in hexes.\n\n"
        "Combat\n"
        "Roll one die per attacking unit; fives and sixes hit.\n\n"
        "SUPPLY\n"
        "Units out of supply halve their strength.\n"),
    "reported.txt": (
        "1. MOVEMENT\n"
        "1.1. Units move up to their speed in hexes.\n"
        # a number that carries on from 1.2 printed after its sentence would open rule 1.3: 1.4 does not
        "1.2. A unit may not move through an enemy unit. 1.4. Roads double a unit's speed.\n\n"
        "Scoring\n"
        "Points for each city held at the end of the game:\n\n"
        "1 2 3 4 5 6 1 2 4 7 10 15\n\n"
        "See Scoring.\n"),
}


@pytest.fixture
def db(built_db, tmp_path):
    copy = tmp_path / "rulings.db"
    shutil.copy(built_db, copy)
    for name, text in DOCS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return copy


def add(db, name, game="skirmish", title=None):
    return CliRunner().invoke(cli, ["add", str(db.parent / name), "--game", game,
                                    "--title", title or name.split(".")[0].title(), "--db", str(db), "--json"])


def rulings(db, source):
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    return {r["id"]: dict(r) for r in conn.execute("select * from rulings where source = ? order by position",
                                                   [source])}


def test_lettered_clarifications_become_rulings_with_examples(db):
    result = add(db, "lettered.txt")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["rulings"] == 4
    found = rulings(db, "lettered")
    assert found["skirmish/lettered/a"]["text"] == ("A unit that retreats may not shoot in the same turn. "
                                                     "It may still cast spells.")
    assert [r["label"] for r in found.values()] == ["1", "a", "b", "c"]
    example = sqlite3.connect(db).execute(
        "select text from examples where ruling_id = 'skirmish/lettered/b'").fetchone()[0]
    assert example.startswith("an archer behind a wall")


def test_decimal_rules_keep_their_numbers_as_labels(db):
    assert add(db, "decimal.txt", game="duel").exit_code == 0
    found = rulings(db, "decimal")
    labels = [r["label"] for r in found.values()]
    assert labels == ["100.1", "100.1a", "100.2"]
    assert "duel/decimal/general/100.1a" in found


def test_question_answer_pairs_become_one_ruling_each(db):
    assert add(db, "qa.txt", game="castles").exit_code == 0
    found = list(rulings(db, "qa").values())
    assert [r["label"] for r in found] == ["q1", "q2"]
    assert found[0]["text"] == "Can a knight jump over a castle? A: No, castles block every move."


def test_headed_sections_become_rulings(db):
    assert add(db, "headed.txt", game="hexes").exit_code == 0
    found = rulings(db, "headed")
    sections = {r["section"] for r in found.values()}
    assert sections == {"Headed > Movement", "Headed > Combat", "Headed > Supply"}


def test_added_rulings_are_searchable_and_the_game_is_created(db):
    add(db, "qa.txt", game="castles")
    result = CliRunner().invoke(cli, ["ask", "Can a knight jump over a castle?", "--json", "--db", str(db)])
    assert json.loads(result.output)["results"][0]["game"] == "castles"
    assert sqlite3.connect(db).execute("select name from games where slug = 'castles'").fetchone() == ("Castles",)


def test_adding_the_same_document_twice_says_so_and_changes_nothing(db):
    assert add(db, "qa.txt", game="castles").exit_code == 0
    before = db.read_bytes()
    again = add(db, "qa.txt", game="castles")
    assert again.exit_code == 0
    assert json.loads(again.output)["edition"] == {"source": "qa", "version": "1", "unchanged": True}
    assert report_text(json.loads(again.output)) == \
        "'Qa' is already in the database as version 1 of qa: nothing changed"
    assert db.read_bytes() == before


def test_adding_a_missing_file_fails_clearly(db):
    result = add(db, "nowhere.txt")
    assert result.exit_code != 0 and "nowhere.txt" in result.output and "not found" in result.output


@pytest.mark.parametrize("option, value, message", [
    ("--shape", "scroll", "field 'shape' must be one of auto, outline, blog, glued, doc, flat, paragraphs (not 'scroll')"),
    ("--kind", "rumour", ("field 'kind' must be one of official-faq, designer-clarifications, variant-rules, "
                          "rulebook, house-rules (not 'rumour')")),
    ("--game", "Dragon Dice", "field 'game' must be a slug such as 'dragon-dice' (not 'Dragon Dice')"),
])
def test_a_bad_option_fails_naming_the_file_and_changes_nothing(db, option, value, message):
    before = db.read_bytes()
    options = {"--game": "castles", option: value}
    result = CliRunner().invoke(cli, ["add", str(db.parent / "qa.txt"), "--title", "Qa", "--db", str(db),
                                      *(part for pair in options.items() for part in pair)])
    assert result.exit_code != 0
    assert f"{db.parent / 'qa.txt'}: {message}" in result.output
    assert db.read_bytes() == before


def test_a_title_with_a_version_number_gives_a_dotted_source_id(db):
    result = add(db, "qa.txt", game="castles", title="Castles FAQ 1.2")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["source"] == "castles-faq-1.2"


def test_the_ingest_report_counts_headings_tables_and_numbering_and_lists_the_likeliest_wrong_cuts_first(db):
    result = add(db, "reported.txt", game="hexes")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["headings"] == 2 and report["heading_titles"] == ["Movement", "Scoring"]
    assert report["tables"] == 0
    assert report["numbered"]["own"] == 2 and report["numbered"]["units"] > 2
    whys = [item["why"].split(" (")[0] for item in report["suspicious"]]
    assert whys[:3] == ["holds another number", "mostly numbers", "only a cross-reference"]
    assert "headings: 2 (Movement, Scoring); tables: 0; numbered by the document: 2 of" in report_text(report)


def test_a_rule_citing_another_rule_is_no_suspicious_cut_nor_is_a_short_numbered_rule():
    from ingest.report import _suspicion
    from model.records import Ruling
    fields = Ruling.__dataclass_fields__

    def ruling(text: str, kind: str = "rule", label: str = "4.1") -> Ruling:
        values = {name: "" for name in fields}
        return Ruling(**{**values, "id": "g/s/4.1", "kind": kind, "label": label, "text": text})
    for cited in ("A player reads it. See rule 103.3. Rune Deck for more.",
                  "They follow the rules listed in section 3.3.2.1. Once they do so, play goes on.",
                  "It is adjusted according to Article 6.13. The game then goes on."):
        assert _suspicion(ruling(cited)) is None, cited
    glued = _suspicion(ruling("A player draws at the end of the turn. 4.2. The next player then plays."))
    assert glued["why"] == "holds another number (4.2.)"
    assert _suspicion(ruling("on a square.")) is None
    assert _suspicion(ruling("on a square.", kind="paragraph", label=""))["why"] == "very short"
    assert _suspicion(ruling("Anyone playing the game.", kind="glossary", label="player")) is None
    assert _suspicion(ruling("See rule 708 for more information.")) is None
    assert _suspicion(ruling("See rule 708.", kind="paragraph", label=""))["why"] == "only a cross-reference"
