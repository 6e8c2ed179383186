"""Titles and game names read from the documents themselves (ingest/titles.py): a title that names no game is
joined with the game's name as the document writes it, a section heading is never a title, and a game added
without --game-name is named by its document, never by its title-cased slug."""
import shutil
import sqlite3
import tomllib
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from ingest.changeset import read_document
from ingest.refs import abbreviation
from ingest.titles import as_written, document_title, is_generic, is_section_heading, self_named
from service.cli import cli

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
STRUCTURE = CORPORA / "structure"
def needs_corpora(test):
    """A test of the real documents of ../shared/corpora (marked corpus), skipped when they are not there."""
    skip = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not beside the clone")
    return pytest.mark.corpus(skip(test))


@cache
def read(name: str, game: str) -> tuple[str, str | None, str]:
    """(title, game name, source id) `rulings add` gives the corpus document `name` of `game`."""
    entry, parsed = read_document(CORPORA / name, game)
    return entry.title, parsed.found.get("game_name"), entry.id


def test_rulebook_vocabulary_alone_is_generic_and_one_name_is_not():
    assert is_generic("COMPREHENSIVE RULES") and is_generic("Rulebook") and is_generic("FAQ v1.2")
    assert not is_generic("NISEI Comprehensive Rules Document") and not is_generic("Uprising Release Notes")
    # A word the document itself writes in lower case is a common word, not a name.
    assert is_generic("PHYSICAL FOULS", "Physical fouls are penalised: a physical foul is ...")
    assert not is_generic("Riftbound Core Rules", "Riftbound is a game. Riftbound Core Rules apply.")


def test_section_headings_are_never_titles():
    assert all(map(is_section_heading, ("Introduction", "Table of Contents", "CONTENTS", "SECTION 7", "Glossary")))
    # a Word rulebook printing no title opens on its first part: "Setup" was its title
    assert all(map(is_section_heading, ("Setup", "Components", "OBJECTIVE")))
    assert not is_section_heading("Comprehensive Rules") and not is_section_heading("Rules of Ultimate")


def test_shouting_is_title_cased_and_other_casing_kept():
    assert as_written("COMPREHENSIVE  RULES OF THE GAME") == "Comprehensive Rules of the Game"
    assert as_written("NISEI Comprehensive Rules Document") == "NISEI Comprehensive Rules Document"
    assert as_written("Mossflower Game Rulebook:") == "Mossflower Game Rulebook"  # a colon leads into the text


def test_a_slug_spelling_part_of_the_name_abbreviates_that_part():
    assert abbreviation("Disney Lorcana", "lorcana") == "Lorcana"  # refs stay "Lorcana 4.3.6.1"
    assert abbreviation("Magic: The Gathering", "mtg") == "MtG"
    assert abbreviation("Magic Combat with Dice", "magic-combat-dice") == "MCwD"  # the seeds' as before


@needs_corpora
def test_the_lorcana_pdf_titled_comprehensive_rules_is_named_disney_lorcana():
    # Its cover says only "COMPREHENSIVE RULES"; its text calls the game "Disney Lorcana" throughout.
    assert read("lorcana-comprehensive-rules-2025-10-31.pdf", "lorcana") == (
        "Disney Lorcana Comprehensive Rules", "Disney Lorcana", "lorcana-comprehensive-rules")


@needs_corpora
def test_magic_is_named_as_the_document_names_it_not_by_its_slug():
    assert read("mtg-comprehensive-rules-2022-04-29.txt", "mtg")[:2] == (
        "Magic: The Gathering Comprehensive Rules", "Magic: The Gathering")


@needs_corpora
def test_a_generic_title_is_joined_with_the_game_name_the_document_writes():
    assert read("structure/slay-the-spire-board-game-rulebook.txt", "slay-the-spire-board-game")[:2] == (
        "Slay the Spire Rulebook", "Slay the Spire")


@needs_corpora
def test_a_contents_heading_is_no_title_the_name_the_document_calls_itself_is():
    # No <title>; the first <h1> is "Table of Contents"; the text says "the Rules Reference".
    title, name, source = read("structure/arkham-horror-lcg-rules-reference.html", "arkham-horror-lcg")
    assert (title, name) == ("Arkham Horror: The Card Game Rules Reference", "Arkham Horror: The Card Game")
    assert source == "arkham-horror-lcg-rules-reference"


@needs_corpora
def test_a_section_extract_keeps_its_section_and_names_its_rulebook():
    # The cover reads "SECTION / TITLE / SECTION 7 / PHYSICAL FOULS"; every page's head "HOCKEY CANADA ...".
    title, name, _ = read("structure/hockey-canada-playing-rules-2024-26-section-7.pdf", "ice-hockey")
    assert (title, name) == ("Hockey Canada Section 7 – Physical Fouls", "Hockey Canada")


@needs_corpora
@pytest.mark.parametrize("facts", sorted(STRUCTURE.glob("*.facts.toml")) if STRUCTURE.is_dir() else [],
                         ids=lambda path: path.name.removesuffix(".facts.toml"))
def test_every_structure_document_title_names_its_game(facts):
    stem = facts.name.removesuffix(".facts.toml")
    expected = tomllib.loads(facts.read_text(encoding="utf-8"))
    file = next(f for f in STRUCTURE.iterdir() if f.stem == stem and f.suffix != ".toml" and f.suffix != ".py")
    title, _, _ = read(f"structure/{file.name}", expected["game"])
    assert not is_generic(title) and not is_section_heading(title), title
    # The facts' title is in it, but for what its extraction lost ("Living") or where the facts' is generic.
    if not is_generic(expected["title"].split("(")[0]) and "Living" not in expected["title"]:
        assert expected["title"].split(" (")[0].casefold() in title.casefold(), (title, expected["title"])


@pytest.fixture
def db(built_db, tmp_path):
    copy = tmp_path / "rulings.db"
    shutil.copy(built_db, copy)
    return copy


def add(db: Path, *options: str):
    result = CliRunner().invoke(cli, ["add", str(CORPORA / "ticket-to-ride-rules-2015.pdf"), "--game",
                                      "ticket-to-ride", *options, "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    return sqlite3.connect(db).execute("select name from games where slug = 'ticket-to-ride'").fetchone()[0]


@needs_corpora
def test_a_new_game_is_named_by_its_document_and_game_name_renames_it(db):
    assert add(db) == "Ticket to Ride"  # the document's spelling, not the slug's "Ticket To Ride"
    assert add(db, "--game-name", "Ticket to Ride: USA", "--as-new") == "Ticket to Ride: USA"
    refs = {ref for (ref,) in sqlite3.connect(db).execute("select ref from rulings where game = 'ticket-to-ride'")}
    assert refs and all(ref.startswith("TtR") for ref in refs)  # renaming keeps the refs made before


@needs_corpora
def test_game_name_names_a_new_game(db):
    assert add(db, "--game-name", "Les Aventuriers du Rail") == "Les Aventuriers du Rail"


def test_a_document_named_by_what_it_calls_itself_is_named_in_full():
    text = ("The Living Rules Reference will be updated. If this Rules Reference contradicts the booklet, this Rules "
            "Reference wins. See the Rules Reference. Added in the Living Rules Reference version 1.1.")
    assert self_named(text) == "Living Rules Reference"
    assert self_named("If this Rules Reference says so, the Rules Reference wins.") == "Rules Reference"


def _title_of(tmp_path: Path, name: str, text: str, game: str) -> str:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return read_document(tmp_path / name, game)[0].title


_RULES = "These rules explain how Quarry is played.\n\n" + "\n\n".join(
    f"{n}.{m} Each player of Quarry may move {n + m} stones when the round of Quarry starts."
    for n in range(1, 4) for m in range(1, 4))


def test_a_browser_print_is_titled_by_the_page_title_its_running_header_prints(tmp_path):
    pages = [_RULES[i:i + 300] for i in range(0, len(_RULES), 300)]
    text = "".join(f"11/28/26, 9:49 PM Quarry Rules\nQuarry The Card Game Logo\n{page}\n"
                   f"file:///tmp/print/quarry/rules.html {n}/{len(pages)}\n" for n, page in enumerate(pages, 1))
    assert _title_of(tmp_path, "quarry-browser-print.txt", text, "quarry") == "Quarry Rules"


def test_a_cover_title_over_its_year_is_the_title_the_year_no_rule(tmp_path):
    text = f"OFFICIAL QUARRY RULES\n2023 Edition\n\n{_RULES}\n"
    assert _title_of(tmp_path, "quarry-2023.txt", text, "quarry") == "Official Quarry Rules"


def test_a_named_title_that_names_another_game_is_joined_with_the_cover_line_or_the_game_it_names(tmp_path):
    # The cover's first line is the series; the next names the game: both, in the cover's order.
    text = f"Stone Age: The Series\nQuarry Sydney Rules\n\n{_RULES}\n"
    assert _title_of(tmp_path, "a.txt", text, "quarry") == "Stone Age: The Series – Quarry Sydney Rules"
    # No cover line names it: the game's name, as the document writes it, before the title the document prints.
    text = f"Stone Age Release Notes\n\n{_RULES}\n"
    assert _title_of(tmp_path, "b.txt", text, "quarry") == "Quarry – Stone Age Release Notes"


def test_a_generic_title_of_a_document_that_never_names_its_game_is_joined_with_the_name_it_is_filed_under(tmp_path):
    questions = "\n\n".join(f"## May a player move {n} stones at once?\n\nYes, once per round." for n in range(2, 6))
    text = f"# Rules Questions\n\n{questions}\n"
    assert _title_of(tmp_path, "faq.md", text, "quarry-card-game") == "Quarry Card Game Rules Questions"
    # A title that names something is the document's own: kept as it prints it.
    assert _title_of(tmp_path, "notes.md", text.replace("Rules Questions", "Stone Age Notes"),
                     "quarry-card-game") == "Stone Age Notes"
    assert _title_of(tmp_path, "faq.md", text, "13th-age") == "13th Age Rules Questions"  # never "13Th"


def test_an_editors_note_in_brackets_over_the_title_is_read_past(tmp_path):
    text = ("[This is the 2023 edition, pasted from a word processor\ninto plain text for its edit history.]\n\n"
            f"Quarry Rule Book 2023\nA. N. Author\n\n{_RULES}\n")
    assert _title_of(tmp_path, "quarry-notes.txt", text, "quarry") == "Quarry Rule Book 2023"


def test_a_title_and_headings_in_capitals_keep_the_acronyms_the_document_writes(tmp_path):
    text = ("# QUARRY GM SCREEN\n\nThe GM of Quarry decides when NPCs act. The GM rolls for the NPCs.\n\n"
            "## RUNNING NPCS IN QUARRY\n\nIt is up to the GM: any NPC acts after the players.\n")
    (tmp_path / "screen.md").write_text(text, encoding="utf-8")
    entry, parsed = read_document(tmp_path / "screen.md", "quarry")
    assert entry.title == "Quarry GM Screen"
    assert {r.section for r in parsed.rulings} >= {"Quarry GM Screen > Running NPCs in Quarry"}


def test_a_pages_title_drops_the_sites_name_after_a_bar_and_a_copyright_notice(tmp_path):
    page = ("<html><head><title>Quarry: Second Edition FAQ | Quarry Frequently Asked Questions © 2025 Stone Games, LLC"
            "</title></head><body><h1>Official FAQ for Quarry</h1><p>Can I move twice? No. One move a turn.</p>"
            "</body></html>")
    assert _title_of(tmp_path, "faq.html", page, "quarry") == "Quarry: Second Edition FAQ"


def test_a_game_the_slug_spells_whole_in_its_title_is_named_so_not_by_a_part_written_more_often():
    # "Eco Space Miner - Rulebook" over rules that say "Space Quadrant" a dozen times: the game was named "Space
    # Quadrant", every ref "SQ …".
    from ingest.titles import game_name
    text = "Eco Space Miner - Rulebook\n" + "Place a ship in a Space Quadrant. The Space Quadrant holds ore.\n" * 6
    assert game_name(text, "eco-space-miner") == "Eco Space Miner"
    assert game_name(text, "space-quadrant") == "Space Quadrant"


def test_a_byline_is_never_the_documents_title():
    # A cover's "By Matthew and Jacob Stoodley" (its name only in a picture) was the title "Bob – By Matthew…".
    assert document_title(["By Alex and Sam Example", "Deck Goes West Rules"], "text", None) == "Deck Goes West Rules"
