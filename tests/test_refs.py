"""Refs a judge reads aloud ("DD Magic A", "PotL B.3"), links inside rulings' texts, each answer's provenance
(kind and scope of its source), and game pages and handbooks that show a source's front matter as its header."""
from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from markupsafe import Markup

from ingest.errors import InvalidEntry
from ingest.links import name_references, name_targets
from ingest.manifest import source_entry
from ingest.refs import abbreviation, assign_abbrevs, ruling_refs
from kb.lexicon import load_lexicon
from kb.query import direct_hit
from kb.rulings import official_first
from kb.search import ask
from model import records
from model.refs import MAX_REF, ref_key
from service.app import create_app
from service.cli import cli
from support import documents

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
OFFICIAL = "dragon-dice/magic/general/m"
RESERVE = ("A reserve army magic action may NEVER result in doubled points. This ALSO means that black magic "
           "CANNOT be doubled from a reserve army.")


@pytest.fixture(scope="module")
def client(built_db):
    return create_app(built_db, datasette_url="http://datasette.test").test_client()


@pytest.fixture
def db(built_db, tmp_path):
    copy = tmp_path / "rulings.db"
    shutil.copy(built_db, copy)
    return copy


def add(db: Path, text: str, *options: str, name: str = "doc.txt"):
    (db.parent / name).write_text(text, encoding="utf-8")
    return CliRunner().invoke(cli, ["add", str(db.parent / name), *options, "--db", str(db), "--json"])


def refs_of(db: Path, source: str) -> dict[str, str]:
    return dict(sqlite3.connect(db).execute("select id, ref from rulings where source = ? order by position",
                                            [source]))


def html(response) -> str:
    return response.get_data(as_text=True)


# --- refs --------------------------------------------------------------------------------------------------

def test_every_seed_ruling_has_a_unique_ref_of_at_most_24_characters(conn):
    refs = [ref for (ref,) in conn.execute("select ref from rulings")]
    assert all(refs) and max(map(len, refs)) <= MAX_REF
    assert len({ref_key(ref) for ref in refs}) == len(refs)


@pytest.mark.parametrize("ruling_id, ref", [
    ("dragon-dice/magic/general/a", "DD Magic A"),            # the manifest's abbrev, the document's letter
    ("dragon-dice/magic/earth/stoneskin/a", "DD Magic 1.A"),  # under its heading "1. Stoneskin"
    ("paths-of-the-lance/new-rules/b/3", "PotL B.3"),         # the game's initials, small words in lower case
    ("paths-of-the-lance/optional-rules/b/1", "PotL Optional B.1"),  # a letter New Rules already used
    ("paths-of-the-lance/house-rules/1", "PotL HR 1"),        # a second source of the game adds its kind
    ("dungeon-twister/clarifications/the-rope", "DT The Rope"),  # no numbering: its own heading names it
    ("dungeon-twister/clarifications/front-matter/about", "DT front 1"),  # the header, numbered apart
])
def test_refs_are_built_from_the_documents_own_numbering(conn, ruling_id, ref):
    assert conn.execute("select ref from rulings where id = ?", [ruling_id]).fetchone()[0] == ref


@pytest.mark.corpus
@pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not beside the clone")
@pytest.mark.parametrize("name, sample", [
    ("lorcana-comprehensive-rules-2.2.0.txt", "Lorcana 1.9.4.2"),
    ("lorcana-comprehensive-rules-2025-10-31.pdf", "Lorcana 4.3.6.6"),
    ("lorcana-first-chapter-set-notes.txt", "Lorcana Costs 1"),
    ("fide-laws-of-chess.md", "Lorcana E.2.3.1"),
    ("riftbound-core-rules-2026-03-30.txt", "Lorcana 727.1.c.3.a"),  # numbered from the top, dotted letters
    ("imperial-assault-rules-reference.md", "Lorcana Attacks ¶1.3"),  # step 3 of "Steps of an Attack", its ¶1
    ("imperial-assault-rules-reference.md", "Lorcana Winning the Game ¶2"),  # a term whole, its place kept
])
def test_refs_of_real_documents_are_unique_short_and_mostly_their_own_numbers(name, sample):
    rulings = documents.parsed(CORPORA / name).rulings  # parsed as `rulings add FILE --game test` parses it
    refs = ruling_refs(rulings, "Lorcana", name).values()
    assert max(map(len, refs)) <= MAX_REF and len({ref_key(ref) for ref in refs}) == len(rulings)
    assert sample in refs
    assert sum("#" in ref for ref in refs) <= 0.06 * len(rulings)  # a restated rule's number is taken


def _rulings(*units: tuple[str, str, str, str]) -> list[records.Ruling]:
    """Rulings of one source from (section, label, title, kind) tuples, in document order."""
    citation = records.Citation("doc", 1, 1, 0, 1, 1, 1)
    return [records.Ruling(f"doc/{n}", "test", "doc", section, label, title, f"{title} text.", kind, n, citation)
            for n, (section, label, title, kind) in enumerate(units, start=1)]


def _numbered_rulebook(*extra: tuple[str, str, str, str]) -> list[records.Ruling]:
    """A rulebook that numbers its units (rules 1.1 to 1.24 under "1 Basics"), with `extra` units after them."""
    rules = [("Rules > 1 Basics", f"1.{n}", f"Rule {n}", "rule") for n in range(1, 25)]
    return _rulings(*rules, *extra)


def test_a_paragraph_a_numbered_rulebook_leaves_unnumbered_is_referred_to_by_its_place_under_its_heading():
    rulings = _numbered_rulebook(("Rules > 1 Basics", "25", "Flavour text", "paragraph"),
                                 ("Rules > 1 Basics", "26", "More flavour", "paragraph"),
                                 ("Rules > Appendix II: Timing", "3", "How to read the chart", "paragraph"),
                                 ("Rules > Credits", "4", "Design: someone", "paragraph"),
                                 ("Rules > Credits", "5", "Art: someone else", "paragraph"))
    refs = list(ruling_refs(rulings, "X", "Rules").values())
    assert refs[:2] == ["X 1.1", "X 1.2"]  # the document's own numbers, as before
    # never "X 1", "X 2": what "rule 1" would wrongly answer; under a heading that prints no label, its title
    # names the place (never a bare "X ¶1")
    assert refs[24:] == ["X 1 ¶1", "X 1 ¶2", "X Appendix II ¶1", "X Credits ¶1", "X Credits ¶2"]


def test_a_question_a_numbered_rulebook_leaves_unnumbered_is_its_place_among_questions():
    rulings = _numbered_rulebook(("Rules > FAQ", "q1", "Can I pass?", "question"),
                                 ("Rules > FAQ", "ability", "Ability", "glossary"),
                                 ("Rules > FAQ > Ability", "q2", "Does it stack?", "question"))
    refs = list(ruling_refs(rulings, "X", "Rules").values())
    assert refs[24:] == ["X FAQ Q1", "X Ability", "X Ability Q1"]


def test_items_under_a_part_numbered_in_roman_are_cited_under_its_numeral():
    rulings = _rulings(("Rules > III. Rules of Debate", "III.1", "Preparation time", "rule"),
                       ("Rules > III. Rules of Debate", "III.2", "Observers", "rule"),
                       ("Rules > IV. Rules of Congress", "IV.3", "Duties", "rule"),
                       ("Rules > IV. Rules of Congress > IV.3 Duties", "IV.3.1", "Guide the group", "rule"))
    assert list(ruling_refs(rulings, "X", "Rules").values()) == ["X III.1", "X III.2", "X IV.3", "X IV.3.1"]


def test_an_unnumbered_paragraph_heading_steps_is_marked_and_its_steps_read_after_it():
    rulings = _numbered_rulebook(("Rules > Glossary", "attacks", "Attacks", "glossary"),
                                 ("Rules > Glossary > Attacks", "steps", "Steps of an Attack", "paragraph"),
                                 *[("Rules > Glossary > Attacks > Steps of an Attack", str(n), f"Step {n}", "rule")
                                   for n in (1, 2)])
    refs = list(ruling_refs(rulings, "X", "Rules").values())
    assert refs[24:] == ["X Attacks", "X Attacks ¶1", "X Attacks ¶1.1", "X Attacks ¶1.2"]


def test_a_prose_rulebook_names_its_paragraphs_by_their_heading_and_count():
    # No number the document prints, so no bare count either (issue 42): the heading it sits under, then its count.
    rulings = _rulings(*[("Rules > Setup", str(n), f"Paragraph {n}", "paragraph") for n in range(1, 30)],
                       ("Rules > Setup > Steps", "1", "Shuffle", "rule"))
    refs = list(ruling_refs(rulings, "X", "Rules").values())
    assert refs[:3] == ["X Setup 1", "X Setup 2", "X Setup 3"] and not any("¶" in ref for ref in refs)


def test_steps_counted_afresh_in_each_appendix_take_the_label_their_heading_prints():
    # Steps numbered 1, 2 again in each appendix count only within it: none is bare ("X 1" reads as rule 1).
    steps = lambda section: [(section, str(n), f"Step {n}", "clarification") for n in (1, 2)]
    rulings = _numbered_rulebook(*steps("Rules > Appendix I: Setup"), *steps("Rules > Appendix III: Play"),
                                 *steps("Rules > Appendix IV: Tear down"))
    refs = list(ruling_refs(rulings, "X", "Rules").values())
    assert refs[24:] == ["X Appendix I 1", "X Appendix I 2", "X Appendix III 1", "X Appendix III 2",
                         "X Appendix IV 1", "X Appendix IV 2"]
    assert not any("#" in ref for ref in refs)


def test_a_step_numbered_like_a_topic_it_does_not_head_is_told_apart_by_its_section():
    rulings = _rulings(("Setup", "25", "This section describes the setup", "paragraph"),
                       *[("Setup", str(n), f"Step {n}", "rule") for n in (1, 2)],
                       *[("Glossary", f"1.{n}", f"Abilities rule {n}", "rule") for n in range(1, 25)])
    refs = list(ruling_refs(rulings, "X", "").values())
    assert refs[:3] == ["X Setup ¶1", "X Setup 1", "X Setup 2"]  # "rule 1" names topic 1 (its rules 1.1…)


def test_the_documents_one_list_is_named_by_the_heading_it_counts_under():
    # Steps "1." to "3." under "Damage" were "X 1" to "X 3": numbers that name nothing in the document.
    rulings = _rulings(("Game System > Damage", "1", "An attack deals damage", "paragraph"),
                       *[("Game System > Damage", str(n), f"Step {n}", "clarification") for n in (1, 2, 3)],
                       *[("Game System > Healing", str(n), f"Wounds heal {n}", "paragraph") for n in range(5, 12)])
    refs = list(ruling_refs(rulings, "X", "Game System").values())
    # the paragraph over the list is marked, never counted on as a fourth step ("X Damage 4")
    assert refs[:5] == ["X Damage ¶1", "X Damage 1", "X Damage 2", "X Damage 3", "X Healing 1"]


def test_lists_among_prose_are_each_named_by_their_heading_with_their_items_items():
    # "The Deck" and "Fate Cards" each list "1."…, the second with items under its item 4: the first list was cited
    # bare ("X 1", rule 1 of nothing), the second "X Fate 1", and the intro paragraphs "X The Deck 4", "X Fate Cards 6".
    rulings = _rulings(("Guide > The Deck", "1", "The deck has 54 cards", "paragraph"),
                       *[("Guide > The Deck", str(n), f"Deck {n}", "clarification") for n in (1, 2, 3)],
                       ("Guide > Fate Cards", "5", "Fate cards are a chance", "paragraph"),
                       *[("Guide > Fate Cards", str(n), f"Fate {n}", "clarification") for n in (1, 2, 3, 4)],
                       *[("Guide > Fate Cards", f"4.{n}", f"Use {n}", "rule") for n in (1, 2)],
                       ("Guide > Fate Cards", "5", "Fate 5", "clarification"),
                       *[("Guide > Play", str(n), f"Play {n}", "paragraph") for n in range(15, 45)])
    refs = list(ruling_refs(rulings, "X", "Guide").values())
    assert refs[:12] == ["X The Deck ¶1", "X The Deck 1", "X The Deck 2", "X The Deck 3", "X Fate Cards ¶1",
                         "X Fate Cards 1", "X Fate Cards 2", "X Fate Cards 3", "X Fate Cards 4", "X Fate Cards 4.1",
                         "X Fate Cards 4.2", "X Fate Cards 5"]


def test_lists_counted_afresh_with_lettered_items_are_each_named_by_their_heading():
    # A rulebook's "Using Skills" and "Interacting with Locals" each list "1.", "2." with "a."… under "2.": their items
    # were cited "MK 1", "MK 2a #2", numbers no judge finds, told apart by their place.
    rulings = _rulings(*[("Rules > Using Skills", label, f"Skill {label}", "rule") for label in ("1", "2", "2a", "2b")],
                       *[("Rules > Interacting with Locals", label, f"Locals {label}", "rule")
                         for label in ("1", "2", "2a", "2b", "2c")])
    refs = list(ruling_refs(rulings, "X", "Rules").values())
    assert refs == ["X Using Skills 1", "X Using Skills 2", "X Using Skills 2a", "X Using Skills 2b",
                    "X Interacting with Locals 1", "X Interacting with Locals 2", "X Interacting with Locals 2a",
                    "X Interacting with Locals 2b", "X Interacting with Locals 2c"]


def test_a_part_numbered_afresh_under_a_numbered_chapter_is_cited_under_its_number():
    # "4. Detailed Turn Sequence > 5. Discard Phase" and "5. Ending the Game" both cited "5 ¶n", one count.
    rulings = _numbered_rulebook(("Rules > 4. Turn Sequence > 1. Unlock Phase", "25", "Unlock", "paragraph"),
                                 ("Rules > 4. Turn Sequence > 5. Discard Phase", "26", "Discard", "paragraph"),
                                 ("Rules > 5. Ending the Game", "27", "Ousted", "paragraph"))
    refs = list(ruling_refs(rulings, "X", "Rules").values())
    assert refs[-3:] == ["X 4.1 ¶1", "X 4.5 ¶1", "X 5 ¶1"]
    # and a lettered part of a numbered rule ("6.0 Sequence of Play > A. Mandated Offensive Phase"): 6.0.A, never A
    lettered = _numbered_rulebook(("Rules > 6.0 Sequence of Play > A. Mandated Offensive Phase", "25", "Roll", "paragraph"))
    assert list(ruling_refs(lettered, "X", "Rules").values())[-1] == "X 6.0.A ¶1"
    # and steps counted afresh under decimal sections ("9.7 Land Battles > 1. Battle Preparations", and 9.9's
    # naval steps): 9.7.1 and 9.9.1, never one count "1 ¶1" … "1 ¶4" over both
    steps = _numbered_rulebook(("Rules > 9.7 Land Battles > 1. Battle Preparations", "25", "Appoint", "paragraph"),
                               ("Rules > 9.9 Naval Battles > 1. Battle Preparations", "26", "Admirals", "paragraph"))
    assert list(ruling_refs(steps, "X", "Rules").values())[-2:] == ["X 9.7.1 ¶1", "X 9.9.1 ¶1"]


def test_a_headings_numbers_in_parts_under_a_restarted_list_stay_the_documents():
    # Lists "1." "2." restart under each numbered heading, but "3.3.1" under "3.3 Scenario" is the document's own
    # number: never "3.3 Scenario 3.3.1".
    rulings = _rulings(*[("Rules > 3.3 Scenario", f"3.3.{n}", f"Arena {n}", "rule") for n in (1, 2)],
                       *[("Rules > 3.3 Scenario", str(n), f"Step {n}", "clarification") for n in (1, 2)],
                       *[("Rules > 3.4 Tests", str(n), f"Test {n}", "clarification") for n in (1, 2)])
    refs = list(ruling_refs(rulings, "X", "Rules").values())
    assert refs[:2] == ["X 3.3.1", "X 3.3.2"]


def test_a_list_numbering_much_of_the_document_keeps_its_bare_numbers():
    # House rules "1", "1a", "2", "3" under "Setup" in a short FAQ: the document's rule numbers, cited bare.
    rulings = _rulings(("Rules > Setup", "1", "Shuffle", "clarification"), ("Rules > Setup", "1a", "Redraw", "rule"),
                       *[("Rules > Setup", str(n), f"Step {n}", "clarification") for n in (2, 3)],
                       *[("Rules > Play", str(n), f"Play {n}", "paragraph") for n in (5, 6, 7)])
    refs = list(ruling_refs(rulings, "X", "Rules").values())
    assert refs[:4] == ["X 1", "X 1a", "X 2", "X 3"]


def test_an_item_titled_like_a_later_heading_heads_none_of_its_paragraphs():
    # An overview's run-in item "Combat Actions: …" long before the heading "Combat Actions": the heading's
    # paragraphs were counted as the item's parts ("X Combat Actions 7"), from the document's count.
    rulings = _rulings(("Combat", "1", "Combat is a feature", "paragraph"),
                       ("Combat", "combat-actions", "Combat Actions", "paragraph"),
                       ("Combat > Rounds", "3", "A round is five seconds", "paragraph"),
                       ("Combat > Combat Actions", "4", "Actions cost a point", "paragraph"),
                       ("Combat > Combat Actions", "5", "Some are free", "paragraph"))
    refs = list(ruling_refs(rulings, "X", "").values())
    assert refs[3:] == ["X Combat Actions 1", "X Combat Actions 2"]


def test_paragraphs_under_headings_that_print_numbers_are_cited_by_those_numbers():
    # "1) The Deck", "2) Pick Dealer": a judge cites section 1, never "1 The Deck 2".
    rulings = _rulings(("Rules", "1", "Welcome", "paragraph"),  # the paragraphs' own counts are no headings' numbers
                       ("Rules > 1 The Deck", "2", "Take a deck", "paragraph"),
                       ("Rules > 1 The Deck", "3", "Remove the twos", "paragraph"),
                       ("Rules > 2 Pick Dealer", "4", "Each player draws", "paragraph"),
                       ("Rules > Credits", "5", "Design: someone", "paragraph"))
    refs = list(ruling_refs(rulings, "X", "Rules").values())
    assert refs[1:] == ["X 1 ¶1", "X 1 ¶2", "X 2 ¶1", "X Credits 1"]


def test_a_one_word_game_name_is_never_cut_mid_word():
    assert [abbreviation(name) for name in ("riftbound", "Riftbound", "Lorcana", "StarCraftTheBoardGame",
                                            "Carcassonnes")] == ["Riftbound", "Riftbound", "Lorcana", "SCTBG", "C"]



def test_a_ref_never_holds_a_cut_word():
    def ruling(n, section, label, title="", kind="rule"):
        return records.Ruling(id=f"g/{n}", game="g", source="s", section=section, label=label, title=title,
                              text="text", kind=kind, position=n, citation=records.Citation("s", n, n, 0, 1, n, n))
    rulings = [ruling(1, "Doc > Glossary", "t1", "challenging/challenged character of the other player", "glossary"),
               ruling(2, "Doc > Glossary", "t2", "Supercalifragilisticexpialidociously-wonderful", "glossary"),
               ruling(3, "Doc > Adjudication", "1"), ruling(4, "Doc > Adjudication Notes of the Tournament", "1")]
    assert list(ruling_refs(rulings, "Lorcana", root="Doc").values()) == [
        "Lorcana challenging/challenged…", "Lorcana #2", "Lorcana Adjudication 1",
        "Lorcana Adjudication Notes of the… 1"]  # no "Supercalifr…", no "Adjudication Notes of t 1"


def test_a_label_another_section_printed_is_told_apart_by_the_heading_it_sits_under():
    rulings = _rulings(("Rules > Movement Costs", "a", "Roads cost half", "clarification"),
                       *[("Rules > Expenditures for Combat and Supply in Desert", label, text, kind) for label, text, kind
                         in (("4", "A unit pays for combat", "paragraph"), ("a", "It barrages", "clarification"),
                             ("b", "It is barraged", "clarification"))])
    refs = list(ruling_refs(rulings, "X", "Rules").values())
    # "Expenditures" is too long a word to qualify by: the heading's title is, clipped to whole words.
    assert refs == ["X A", "X Expenditures for Combat and Supply… 1", "X Expenditures for Combat and Supply… A",
                    "X Expenditures for Combat and Supply… B"]


def test_a_paragraph_beside_numbered_items_is_marked_apart_from_their_numbers():
    rulings = _rulings(("Rules > Movement Costs", "1", "Roads cost half", "clarification"),
                       ("Rules > Commonwealth Fleet", "7", "The Axis player may bombard", "paragraph"),
                       *[("Rules > Commonwealth Fleet", str(n), f"Item {n}", "clarification") for n in (1, 2)],
                       ("Rules > Commonwealth Fleet", "8", "Ignore this case", "paragraph"))
    refs = list(ruling_refs(rulings, "X", "Rules").values())
    # Never a second "Commonwealth… 1" (which took the paragraph's ref to its place, "X #2"), nor a count past the
    # items ("Commonwealth… 3") that reads as a third item.
    assert refs[1:] == ["X Commonwealth Fleet ¶1", "X Commonwealth Fleet 1", "X Commonwealth Fleet 2",
                        "X Commonwealth Fleet ¶2"]


def test_a_label_the_document_prints_twice_is_cited_by_which_printing_it_is():
    numbered = _numbered_rulebook(("Rules > 1 Basics", "1.3", "The court for wheelchair play", "rule"))
    refs = list(ruling_refs(numbered, "X", "Rules").values())
    assert (refs[2], refs[-1]) == ("X 1.3", "X 1.3 #2")  # never "X #25"
    # Run-in titles a table repeats ("Rnf: G(1)", "Rnf: G(2)"), each unit named by its title.
    titled = _rulings(("Rules > Record Track", "Rnf", "Rnf", "paragraph"),
                      ("Rules > Record Track", "Rnf", "Rnf", "paragraph"))
    assert list(ruling_refs(titled, "X", "Rules").values()) == ["X Rnf", "X Rnf #2"]

def test_abbreviations_are_the_initials_of_the_game_and_tell_sources_apart():
    assert [abbreviation(name) for name in ("Paths of the Lance (Dragons of Glory expansion)", "Dungeon Twister",
                                            "Magic Combat with Dice", "chess", "13th Age", "Warhammer 40,000")] == [
        "PotL", "DT", "MCwD", "Chess", "13A", "W40"]
    sources = [{"id": "house", "kind": "house-rules", "game_name": "Dragon Dice"},
               {"id": "faq", "kind": "official-faq", "game_name": "Dragon Dice"},
               {"id": "other", "kind": "rulebook", "game_name": "Dungeon Delve"}]
    assert assign_abbrevs(sources, taken=["DD RB"]) == {"faq": "DD", "house": "DD HR", "other": "DD RB 2"}
    with pytest.raises(ValueError, match="'DD' is already another source's"):
        assign_abbrevs([{"id": "x", "kind": "rulebook", "game_name": "Dice", "abbrev": "DD"}], taken=["dd"])


@pytest.mark.parametrize("abbrev", ["Far Too Long Abbrev", "DD-Magic", "two  spaces"])
def test_the_manifest_rejects_an_abbreviation_that_cannot_start_a_short_ref(abbrev):
    fields = {"id": "x", "file": "x.txt", "game": "g", "title": "X", "kind": "rulebook", "language": "en",
              "shape": "auto", "abbrev": abbrev}
    with pytest.raises(InvalidEntry) as raised:
        source_entry(fields)
    assert raised.value.field == "abbrev"


def test_rulings_add_gives_refs_unique_across_the_database(db):
    lettered = "Skirmish FAQ\n\nA) Retreating units may not shoot.\n\nB) Cover applies to ranged attacks only.\n"
    assert add(db, lettered, "--game", "dragon-dice", "--title", "Skirmish FAQ", "--abbrev", "SK").exit_code == 0
    assert list(refs_of(db, "skirmish-faq").values()) == ["SK front 1", "SK A", "SK B"]
    again = add(db, lettered, "--game", "dragon-dice", "--title", "Second FAQ", name="second.txt")
    assert again.exit_code == 0, again.output
    refs = [ref for (ref,) in sqlite3.connect(db).execute("select ref from rulings")]
    assert len({ref_key(ref) for ref in refs}) == len(refs) and max(map(len, refs)) <= MAX_REF
    assert set(refs_of(db, "second-faq").values()) == {"DD front 1", "DD A", "DD B"}  # "DD Magic" is taken
    clash = add(db, lettered, "--game", "dragon-dice", "--title", "Third FAQ", "--abbrev", "dd magic",
                name="third.txt")
    assert clash.exit_code != 0 and "field 'abbrev'" in clash.output and "third.txt" in clash.output


@pytest.mark.parametrize("question", ["DD Magic A", "dd magic a", "  DD  Magic A ", "ddmagica", "[DD Magic A]"])
def test_asking_a_ref_goes_straight_to_its_ruling(conn, question):
    assert direct_hit(question, load_lexicon(conn)) == "dragon-dice/magic/general/a"
    answer = ask(conn, question)
    assert answer["answered"] and [r["id"] for r in answer["results"]] == ["dragon-dice/magic/general/a"]


def test_the_web_search_finds_a_ref(client):
    page = html(client.get("/", query_string={"q": "potl b.3"}))
    assert re.findall(r'<article class="ruling" id="([^"]+)"', page) == ["paths-of-the-lance/new-rules/b/3"]
    assert '<span class="ref">PotL B.3</span>' in page


def test_every_result_and_page_shows_the_ref_and_a_full_citation_to_copy(client):
    answer = client.get("/api/search", query_string={"q": "Can a reserve army double its magic?"}).get_json()
    best = answer["results"][0]
    assert best["ref"] == best["citation"]["ref"] == "DD Magic M"
    full = ("DD Magic M — Official Dragon Dice FAQ and Rules Clarifications, Part Two - Magic, v1.44 of 1996-03-01, "
            "General Rules M, lines 119–120")
    assert best["citation"]["full"] == full
    page = html(client.get(f"/r/{OFFICIAL}"))
    assert '<span class="ref">DD Magic M</span>' in page
    assert f'<button type="button" class="copy-cite" data-cite="{full}"' in page
    assert client.get(f"/api/rulings/{OFFICIAL}").get_json()["citation"]["full"] == full


# --- provenance --------------------------------------------------------------------------------------------

def test_every_answer_says_what_kind_of_source_it_comes_from_and_what_it_covers(conn, client):
    result = ask(conn, "Can a reserve army double its magic?")["results"][0]
    assert (result["citation"]["kind"], result["citation"]["scope"]) == ("official-faq", "magic")
    house = ask(conn, "PotL HR 1")["results"][0]
    assert (house["citation"]["kind"], house["citation"]["scope"]) == ("house-rules", "")
    page = html(client.get("/", query_string={"q": "Can a reserve army double its magic?"}))
    assert '<span class="provenance kind-official-faq">Official FAQ · covers: magic</span>' in page


def test_an_official_ruling_ranks_before_a_house_rule_that_answers_alike(db):
    house = f"Club rules\n\nA) {RESERVE}\n\nB) Every player brings their own dice.\n"
    result = add(db, house, "--game", "dragon-dice", "--title", "Club rules", "--kind", "house-rules")
    assert result.exit_code == 0, result.output
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    found = ask(conn, "Can a reserve army double its magic?")["results"]
    ids = [r["id"] for r in found]
    house_id = next(rid for rid in ids if rid.startswith("dragon-dice/club") and rid.endswith("/a"))
    assert ids[:2] == [OFFICIAL, house_id]
    assert [r["citation"]["kind"] for r in found[:2]] == ["official-faq", "house-rules"]
    # On an exact tie, whichever came first, the official source's ruling goes first; nothing else moves.
    tied = [(house_id, 2.0), (OFFICIAL, 2.0), ("dragon-dice/magic/general/o", 1.0)]
    assert official_first(conn, tied) == [tied[1], tied[0], tied[2]]
    official = [("dragon-dice/magic/general/o", 2.0), (OFFICIAL, 2.0)]
    assert official_first(conn, official) == official


# --- links inside the text ----------------------------------------------------------------------------------

def test_a_name_another_ruling_defines_links_to_it_and_the_target_lists_what_refers_to_it(client):
    page = html(client.get("/r/dragon-dice/magic/general/o"))
    assert 'Spells with a duration (<a class="xref" href="/r/dragon-dice/magic/earth/stoneskin">Stoneskin</a>,' \
           in page
    target = html(client.get("/r/dragon-dice/magic/earth/stoneskin"))
    assert "Referred to by" in target and 'href="/r/dragon-dice/magic/general/o">DD Magic O' in target


def test_a_see_reference_links_from_inside_the_text(client):
    page = html(client.get("/r/magic-combat-dice/rules/more-than-one-creature-assigned"))
    assert '(see <a class="xref" href="/r/magic-combat-dice/rules/special-considerations/banding">banding</a>)' \
           in page


class Ruling:
    def __init__(self, id, title, text, kind="clarification"):
        self.id, self.title, self.text, self.kind, self.game = id, title, text, kind, "g"


def test_names_link_conservatively():
    rulings = [Ruling("fire", "Fireball", "Deals 3 damage."), Ruling("hit", "Hit", "A hit deals damage."),
               Ruling("wand", "Fireball Wand", "Casts a Fireball once."),
               Ruling("q", "Question", "Hit points drop when a Fireball or the Fireball Wand hits; Fireball again. "
                                       "A fireball is not a name here, nor is Fireballs.")]
    refs = name_references(rulings, name_targets(rulings), {})
    found = [(r.from_id, r.target, rulings[[x.id for x in rulings].index(r.from_id)].text[r.start:r.end])
             for r in refs]
    # Once per ruling, whole phrases only, case-matched, the longer name first, never a word starting a
    # sentence (where its capital means nothing) and never a ruling naming itself.
    assert sorted(found) == [("q", "Fireball", "Fireball"), ("q", "Fireball Wand", "Fireball Wand"),
                             ("wand", "Fireball", "Fireball")]


def test_linked_text_is_escaped_around_its_links(client):
    from service.pages import linked
    with client.application.test_request_context():
        out = linked("<b>see</b> Stoneskin & more", [{"start": 11, "end": 20, "to_id": "a/b"}])
    assert isinstance(out, Markup)
    assert str(out) == '&lt;b&gt;see&lt;/b&gt; <a class="xref" href="/r/a/b">Stoneskin</a> &amp; more'


# --- game page and handbook ----------------------------------------------------------------------------------

def contents(page: str) -> list[str]:
    toc = re.search(r'<nav aria-label="(?:Sections|Contents)".*?</nav>', page, re.DOTALL).group(0)
    return [re.sub(r"<[^>]+>", "", entry).strip() for entry in re.findall(r"<li>(.*?)</li>", toc, re.DOTALL)]


@pytest.mark.parametrize("slug", ["paths-of-the-lance", "dragon-dice", "wizard-dice", "dungeon-twister"])
def test_game_page_contents_have_no_empty_or_repeated_entries(client, slug):
    entries = contents(html(client.get(f"/games/{slug}")))
    titles = [re.sub(r"\s*\(\d+\)$", "", entry) for entry in entries]
    assert entries and all(titles) and len(titles) == len(set(titles)), entries


def test_front_matter_is_the_sources_header_not_rulings(client, conn):
    page = html(client.get("/games/dragon-dice"))
    front = [rid for (rid,) in conn.execute("select id from rulings where source = 'dragon-dice-faq-magic' and "
                                            "kind in ('title', 'front-matter', 'changelog')")]
    assert len(front) == 6
    header = page[page.index('<details class="front-matter">'):page.index("</details>")]
    for ruling_id in front:
        assert f'<article class="ruling" id="{ruling_id}"' not in page and f'id="{ruling_id}"' in header
    assert "Front Matter" not in "".join(contents(page))


def test_a_source_titled_as_its_game_is_named_by_its_kind_in_the_breadcrumb(client):
    crumbs = re.search(r'<nav aria-label="Breadcrumb".*?</nav>', html(client.get("/r/wizard-dice/rules/gameplay")),
                       re.DOTALL).group(0)
    assert re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", crumbs)).strip() == "Wizard Dice › Rulebook › Rules"


def test_the_printed_handbook_starts_with_contents_and_rulings(client):
    page = html(client.get("/handbook/dragon-dice"))
    assert '<nav aria-label="Contents" class="toc hb-toc">' in page
    css = client.get("/static/style.css").get_data(as_text=True)
    print_css = css[css.index("@media print"):]
    assert "nav.toc:not(.hb-toc)" in print_css and ".copy-cite" in print_css
    first_ruling = page.index('<div class="hb-ruling"')
    assert page.index("hb-toc") < first_ruling < page.index("About the sources")
    assert "Permission to copy" in page[page.index("About the sources"):]  # the front matter, after the rulings
    assert contents(page)[0] == "Magic &gt; General Rules"


def test_the_ruling_json_has_its_ref_citation_and_links(client):
    found = client.get("/api/rulings/dragon-dice/magic/general/o").get_json()
    assert found["ref"] == "DD Magic O" and found["citation"]["kind"] == "official-faq"
    assert {"to_id": "dragon-dice/magic/earth/stoneskin", "kind": "name"}.items() <= found["links"][0].items()
    assert json.dumps(found)  # plain data


def test_the_heading_every_ruling_sits_under_gives_no_qualifier():
    # The document's own title heads every section ("FIDE Laws of Chess > …"), with no root given in the
    # manifest: its first word is the abbreviation, and told nothing apart ("FIDE FIDE F.1").
    rulings = _rulings(("Laws", "P.1", "Preface", "rule"),
                       ("Laws > Appendices > F. Variant", "F.1", "Start", "rule"),
                       ("Laws > Appendices > F. Variant", "F.2", "Castle", "rule"),
                       ("Laws > Appendices > F. Variant > Recommendations", "F.1", "Record", "rule"),
                       ("Laws > Basic rules > Article 3", "3.1", "Moves", "rule"))
    refs = list(ruling_refs(rulings, "Laws", "").values())
    assert refs == ["Laws P.1", "Laws F.1", "Laws F.2", "Laws Appendices F.1", "Laws 3.1"]  # not "Laws Laws F.1"
    assert list(ruling_refs(rulings, "Laws", "Laws").values()) == refs


def test_a_label_that_opens_with_its_qualifier_is_not_qualified_again():
    rulings = _rulings(("Rules > Card Types > Master Cards", "1", "A master card is played", "paragraph"),
                       ("Rules > Library > Master Cards", "1", "Master cards cost pool", "paragraph"),
                       ("Rules > Library > Master Cards", "2", "One master card a turn", "paragraph"))
    refs = list(ruling_refs(rulings, "X", "Rules").values())
    assert refs[0] == "X Master Cards 1" and not any("Master Master" in ref for ref in refs)
    assert len(set(refs)) == 3


def test_a_heading_opening_with_a_small_word_tells_its_list_apart_by_two_words():
    rulings = _rulings(*[("Rules > Mah-Jong", str(n), f"Hand {n}", "clarification") for n in (1, 2)],
                       *[("Rules > The Goulash", str(n), f"Pass {n}", "clarification") for n in (1, 2)])
    assert list(ruling_refs(rulings, "X", "Rules").values())[2:] == ["X The Goulash 1", "X The Goulash 2"]


def test_a_list_counted_afresh_under_unlabelled_headings_is_cited_under_each_heading():
    # Step lists "1. Determine… 2. Choose… 3. Roll…" under "Make a Damaging Attack" and again under "Make a Bane
    # Attack": bare, the first list's "OL 2" reads as the document's rule 2 and the second's "OL Make 2" names
    # neither heading.
    steps = lambda heading: [(f"Combat > {heading}", str(n), f"Step {n}", "clarification") for n in (1, 2, 3)]
    rulings = _rulings(*steps("Make a Damaging Attack"), *steps("Make a Bane Attack"))
    assert list(ruling_refs(rulings, "OL", "").values()) == [
        *(f"OL Make a Damaging Attack {n}" for n in (1, 2, 3)), *(f"OL Make a Bane Attack {n}" for n in (1, 2, 3))]
    # One list alone keeps its numbers.
    assert list(ruling_refs(_rulings(*steps("Make a Damaging Attack")), "OL", "").values()) == ["OL 1", "OL 2", "OL 3"]
    # A section's rules ("2", "2.1") keep the document's numbers beside those lists.
    rules = [("Combat > Powers", label, f"Power {label}", "rule") for label in ("2", "2.1", "2.2")]
    refs = list(ruling_refs(_rulings(*rules, *steps("Make a Damaging Attack"), *steps("Make a Bane Attack")), "OL",
                            "").values())
    assert refs[:3] == ["OL 2", "OL 2.1", "OL 2.2"] and refs[3] == "OL Make a Damaging Attack 1"


def test_rules_numbered_again_in_an_appendix_are_told_apart_by_its_title_never_its_number_again():
    # "2 Additional equipment" in an appendix numbers its rules 2.1, 2.2 as Law 2 does: "X 2 2.1" repeated the
    # number; its title's first word tells them apart.
    rulings = _rulings(*[("Laws > 2 Equipment", f"2.{n}", f"Law rule {n}", "rule") for n in (1, 2)],
                       *[("Appendix > 2 Additional equipment", f"2.{n}", f"Extra rule {n}", "rule") for n in (1, 2)])
    refs = list(ruling_refs(rulings, "X", "").values())
    assert refs == ["X 2.1", "X 2.2", "X Additional 2.1", "X Additional 2.2"]


def test_a_year_or_a_date_opening_a_heading_is_no_label_of_its_paragraphs():
    # A season's subtitle "2024 - Season XII" and a draft's "15 March 2017" cited their paragraphs "2024 ¶1", "15 ¶1".
    rulings = _rulings(("Rules > 2024 - Season XII", "1", "Version 46", "paragraph"),
                       ("Rules > 15 March 2017", "2", "A draft", "paragraph"),
                       *[("Rules > 3.1 Start", f"3.1.{n}", f"Rule {n}", "rule") for n in (1, 2)],
                       ("Rules > 4 Race", "3", "A race", "paragraph"), ("Rules > 5 Finish", "4", "The end", "paragraph"))
    refs = list(ruling_refs(rulings, "X", "Rules").values())
    assert refs[:2] == ["X 2024 - Season XII 1", "X 15 March 2017 1"]


def test_headings_sharing_a_long_front_are_told_apart_by_their_ends():
    # "Karrakin Trade Baronies Page 128, Black Thumb", "…, House Guard": clipped at the end, both were
    # "Karrakin Trade Baronies… 1" (the second "1 #2"); a heading's units are cut alike.
    rulings = _rulings(("FAQ > Karrakin Trade Baronies Page 128, Black Thumb", "q1", "Rodeo?", "question"),
                       ("FAQ > Karrakin Trade Baronies Page 128, House Guard", "q2", "Cover?", "question"),
                       ("FAQ > Karrakin Trade Baronies Page 128, House Guard", "q3", "Range?", "question"))
    refs = list(ruling_refs(rulings, "Lancer", "FAQ").values())
    assert refs == ["Lancer Karrakin Trade Baronies Page… 1", "Lancer …Baronies Page 128, House Guard 1",
                    "Lancer …Baronies Page 128, House Guard 2"]


def test_official_first_weighs_the_kept_authorities_as_each_rulings_source_row_gives_them(conn):
    rows = conn.execute("select id from rulings order by game, position").fetchall()
    ranked = [(row[0], float(len(rows) - n // 3)) for n, row in enumerate(rows)]  # threes tied, every source mixed
    ranked += [("no/such/ruling", 0.5), ("dragon-dice/magic/general/o", 0.5)]
    kept = official_first(conn, ranked)
    conn.execute("create temp table sources as select * from main.sources")  # as a kb.asof connection reads
    try:
        assert official_first(conn, ranked) == kept
    finally:
        conn.execute("drop table temp.sources")
    assert kept != ranked


def test_a_part_numbered_with_a_word_of_its_own_tells_its_repeated_sub_headings_apart():
    # A scenario book: each "SCENARIO 14 — RETRIEVAL" has its "Scenario Outline" and "Layout"; the second
    # scenario's were cited "Layout 1 #2", which scenario never said.
    rulings = _rulings(*((f"Matched Play > Scenario {n} – {name} > {part}", str(n), f"{part} of {name}", "paragraph")
                         for n, name in ((3, "Hold Ground"), (14, "Retrieval")) for part in ("Outline", "Layout")))
    refs = list(ruling_refs(rulings, "MP").values())
    assert refs == ["MP Outline 1", "MP Layout 1", "MP Scenario 14 Outline 1", "MP Scenario 14 Layout 1"]


def test_paragraphs_under_numbers_counted_afresh_are_told_by_the_heading_over_the_numbers():
    # An RPG's "Education > 1. Against Your Parents' Will" then "Backgrounds > 1. Alchemist": "E 1 ¶1", then the
    # Alchemist's paragraphs "E 1 ¶2", "E 1 ¶3", carrying Education 1's count on.
    rulings = _numbered_rulebook(("Rules > Education > 1. Against Your Parents' Will", "25", "You sought", "paragraph"),
                                 ("Rules > Backgrounds > 1. Alchemist", "26", "Gain Craft", "paragraph"),
                                 ("Rules > Backgrounds > 1. Alchemist", "27", "Equipment", "paragraph"))
    refs = list(ruling_refs(rulings, "E", "Rules").values())
    assert refs[-3:] == ["E Education 1 ¶1", "E Backgrounds 1 ¶1", "E Backgrounds 1 ¶2"]
