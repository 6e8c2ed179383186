"""Specific rulings of every source: ids, labels, titles, cleaned text, examples, tables, gaps, links."""
import hashlib
import json
import re
import shutil
import sqlite3

from ingest.clean import listing_numbers
from kb.build import build
from support import REPO_MANIFEST

SOURCES = REPO_MANIFEST.parent


def ruling(conn, ruling_id):
    row = conn.execute("select * from rulings where id = ?", [ruling_id]).fetchone()
    assert row is not None, f"missing ruling {ruling_id}"
    return dict(row)


def examples(conn, ruling_id):
    return [r["text"] for r in conn.execute("select text from examples where ruling_id = ? and kind = 'source' "
                                             "order by rowid", [ruling_id])]


def test_dragon_dice_general_rules_are_lettered_rulings_with_original_line_numbers(conn):
    d = ruling(conn, "dragon-dice/magic/general/d")
    assert d["label"] == "d" and d["section"] == "Magic > General Rules"
    assert (d["line_start"], d["line_end"]) == (39, 45)  # the listing's own numbers, not file lines
    assert (d["file_line_start"], d["file_line_end"]) == (43, 49)
    assert d["text"].startswith("The effect of doubling magic due to a terrain bonus or because of buried units")
    labels = [r["label"] for r in conn.execute(
        "select label from rulings where id like 'dragon-dice/magic/general/%' order by position")]
    assert labels == list("abcdefghijklmno")


def test_dragon_dice_spell_clarifications_nest_under_their_spell(conn):
    spell = ruling(conn, "dragon-dice/magic/earth/stoneskin")
    assert spell["title"] == "Stoneskin"
    assert spell["text"] == ("Stoneskin (2 points): Add one automatic save to ANY target army until the beginning "
                             "of YOUR next turn.")
    a = ruling(conn, "dragon-dice/magic/earth/stoneskin/a")
    assert a["text"] == ("This spell applies to an entire ARMY only. You may target any army in the game, "
                         "including opponents (for example, in a multiplayer game).")
    assert a["section"] == "Magic > Earth: Gold Magic > Stoneskin"


def test_dragon_dice_examples_attach_to_the_ruling_they_illustrate(conn):
    assert conn.execute("select count(*) from rulings where text like 'EXAMPLE:%'").fetchone()[0] == 0
    (frost,) = examples(conn, "dragon-dice/magic/earth/stoneskin/c")
    assert frost.startswith("Let's take an army which is FROSTED")
    assert "for a final result of *6*" in frost
    assert len(examples(conn, "dragon-dice/magic/general/k")) == 1
    total = conn.execute("select count(*) from examples e join rulings r on r.id = e.ruling_id "
                         "where r.game = 'dragon-dice' and e.kind = 'source'").fetchone()[0]
    assert total == 7


def test_dragon_dice_front_matter_and_changes_list_are_kept(conn):
    notice = ruling(conn, "dragon-dice/magic/front-matter/2")
    assert "Permission to copy and distribute the information contained in this document is granted" in notice["text"]
    changes = ruling(conn, "dragon-dice/magic/front-matter/new-in-this-version")
    assert changes["kind"] == "changelog"
    assert changes["text"].split("\n")[1:] == [
        "Black Magic Doubling Exclusion Reminder", "Revised Magical Movement Rules",
        "Resurrection Spell Timing Clarification (see Breath of Life)", "Revised Ash Storm/Palsy Penalties"]


def test_dragon_dice_gaps_name_the_cut_off_and_the_missing_spells(conn):
    gaps = {(g["kind"], g["description"]) for g in conn.execute(
        "select * from gaps where source = 'dragon-dice-faq-magic'")}
    kinds = [k for k, _ in gaps]
    assert kinds.count("truncated") == 1
    text = " ".join(d for _, d in gaps)
    for missing in ("Breath of Life", "Ash Storm/Palsy", "Magical Movement"):
        assert missing in text
    assert "Black Magic Doubling" not in text  # rules I and M cover it


def test_dungeon_twister_headed_and_unheaded_topics(conn):
    room = ruling(conn, "dungeon-twister/clarifications/revealing-a-room")
    assert room["title"] == "Revealing A Room"
    assert "The player who reveals the room will always place Torches." in room["text"]
    assert "Even with the exceptions, the order remains the same" in room["text"]
    weapons = ruling(conn, "dungeon-twister/clarifications/weapons-grant-bonus-other-special")
    assert weapons["text"].startswith("All weapons grant their bonus")
    assert weapons["section"] == "Clarifications"
    diagonal = ruling(conn, "dungeon-twister/clarifications/game-diagonal-effects-exception-one")
    assert diagonal["text"].endswith('"In contact with" should in all instances be read as "Adjacent to."')
    vp = conn.execute("select id from rulings where text like 'A good rule of thumb to follow for awarding VP%'"
                      ).fetchone()
    assert vp is not None, "the victory-points paragraph starts a topic of its own"


def test_dungeon_twister_reader_comment_and_blog_chrome_are_not_rulings(conn):
    texts = " ".join(r[0] for r in conn.execute("select text from rulings where game = 'dungeon-twister'"))
    for chrome in ("Great post Eric", "Ben in Seattle", "1 comment", "Wednesday, April 25, 2007"):
        assert chrome not in texts


def test_magic_combat_glued_headings_are_recovered(conn):
    titles = [r[0] for r in conn.execute(
        "select title from rulings where game = 'magic-combat-dice' order by position")]
    for heading in ("How To Attack", "Undefended Attack", "Resisted Attack", "Special Note", "Critical Miss",
                    "Miss", "Partial Hit", "Hit", "Critical Hit", "Deck Construction", "Sideboard",
                    "Banned & Restricted List", "Mulligan Rules", "History", "Walls", "Regeneration",
                    "Landwalking", "Banding", "First Strike"):
        assert heading in titles
    assert ruling(conn, "magic-combat-dice/rules/hit")["text"] == "Target takes full damage."
    assert ruling(conn, "magic-combat-dice/rules/mulligan-rules")["text"].startswith(
        "Standard “Paris” Mulligan is used for this variant.")
    banding = ruling(conn, "magic-combat-dice/rules/special-considerations/banding")
    assert banding["section"] == "Rules > Special Considerations"


def test_wizard_dice_spell_list_is_one_ruling_and_one_record_per_spell(conn):
    spells = {r["name"]: dict(r) for r in conn.execute("select * from spells where game = 'wizard-dice'")}
    assert len(spells) == 15
    shield = spells["Shield"]
    assert shield["type"] == "C"
    assert shield["pattern"] == "a pair plus any 1 dice"
    assert spells["Paralysis"]["type"] == "A/C"
    assert spells["Magic Missiles"]["pattern"] == "Up to two 6s"
    assert spells["Cause Wounds"]["effect"] == "deal 3 points of damage to a single target."
    counter = ruling(conn, "wizard-dice/rules/list-of-basic-spells/counterspell")
    assert counter["kind"] == "spell"
    assert counter["text"].startswith("COUNTERSPELL (C) Use a straight of 3 plus any 1 dice")


def test_wizard_dice_example_of_play_is_kept_round_by_round(conn):
    rounds = examples(conn, "wizard-dice/rules/example-of-play")
    assert [r.split()[1] for r in rounds] == ["1", "2", "3", "4"]
    assert rounds[3].endswith("Rick does not get to cast his lightning or Poison Arrow as he is already dead.")


def test_wizard_dice_running_header_is_not_part_of_headings(conn):
    titles = {r[0] for r in conn.execute("select title from rulings where game = 'wizard-dice'")}
    assert {"Introduction", "Gameplay", "Counter Spells", "Summoning and Allies", "Healing Spells",
            "Attack Spells", "Spell Continuation", "List of Basic Spells" if False else "Example of Play"} <= titles
    assert not any(t.startswith("Wizard Dice ") for t in titles)


def test_paths_of_the_lance_sections_follow_the_table_of_contents(conn):
    b2 = ruling(conn, "paths-of-the-lance/new-rules/b/2")
    assert b2["title"] == "Knight nation activations"
    assert b2["section"] == "New Rules > Activating Neutral Nations"
    (knight_example,) = examples(conn, "paths-of-the-lance/new-rules/b/2")
    assert knight_example.startswith("when the war status reaches 18 in turn 14")  # no doubled "Example:"
    assert knight_example.endswith("The WS player must roll a 4 or less to activate another knight nation.")
    assert "After war status reaches 30" in b2["text"]
    assert ruling(conn, "paths-of-the-lance/new-rules/j")["text"] == "Only 4 fleets may stack in one hex."
    toc = conn.execute("select count(*) from rulings where text like '%…………%'").fetchone()[0]
    assert toc == 0, "the table of contents is not a ruling"


def test_paths_of_the_lance_page_numbers_are_removed_from_sentences(conn):
    texts = " ".join(r[0] for r in conn.execute("select text from rulings where game = 'paths-of-the-lance'"))
    assert "and more and more of the continent" in texts
    assert "game. The Berem counter comes into play" in texts
    assert "removed from the game). Assault points" in texts
    assert "during Era 1, six during Era 2 and seven during Era 3" in texts


def test_paths_of_the_lance_flattened_tables_are_structured_rows(conn):
    tables = {r["name"]: dict(r) for r in conn.execute("select * from rule_tables where source = 'paths-of-the-lance-rules'")}
    assert set(tables) == {"Nation activation numbers", "Invasion strength bonus", "Berem placement",
                           "Highlord replacement"}

    def rows(name):
        return [json.loads(r[0]) for r in conn.execute(
            "select cells from rule_table_rows where table_id = ? order by row", [tables[name]["id"]])]
    assert rows("Nation activation numbers")[1] == {"nations": "Kothas, Khur, Tarsis, Lemish", "hl": "4", "ws": "2"}
    assert [r["strength"] for r in rows("Invasion strength bonus")] == ["1-6", "7-12", "13-16", "17-22", "23+"]
    assert rows("Berem placement")[9] == {"roll": "10", "location": "HL choice*"}
    assert {"original": "Feal-Thas", "wing": "white", "replacement": "(*Toede)"} in rows("Highlord replacement")
    assert tables["Berem placement"]["ruling_id"] == "paths-of-the-lance/new-rules/d"


def test_paths_of_the_lance_missing_contents_are_gaps(conn):
    gaps = [g[0] for g in conn.execute(
        "select description from gaps where source = 'paths-of-the-lance-rules' and kind = 'missing-section'")]
    assert any("E. Supply" in g for g in gaps)
    assert any("Historical Scenario Adjustments" in g for g in gaps)
    assert not any("Winter" in g for g in gaps)


def test_finnish_house_rule_is_its_own_source(conn):
    source = dict(conn.execute("select * from sources where id = 'excaliburwiki-house-rules'").fetchone())
    assert (source["language"], source["kind"], source["game"]) == ("fi", "house-rules", "paths-of-the-lance")
    house = ruling(conn, "paths-of-the-lance/house-rules/3")
    assert house["text"].startswith("Houseruleina käytetään yhdistelmää replacement säännöistä")
    texts = " ".join(r[0] for r in conn.execute(
        "select text from rulings where source = 'excaliburwiki-house-rules'"))
    assert "Siirry" not in texts and "ExcaliburWiki" not in texts


def test_cross_references_resolve_where_the_target_exists(conn):
    links = {(r["from_id"], r["target"]): r["to_id"] for r in conn.execute("select * from xrefs")}
    assert links[("paths-of-the-lance/new-rules/h", "Activating Neutral Nations")] == "paths-of-the-lance/new-rules/b"
    assert links[("paths-of-the-lance/using-the-event-cards/4", "Section H under New Rules")] == \
        "paths-of-the-lance/new-rules/h"
    assert links[("magic-combat-dice/rules/more-than-one-creature-assigned", "banding")] == \
        "magic-combat-dice/rules/special-considerations/banding"
    assert links[("dragon-dice/magic/front-matter/new-in-this-version", "Breath of Life")] is None
    assert links[("wizard-dice/rules/list-of-basic-spells/summon-troll", "special rules for allies")] == \
        "wizard-dice/rules/summoning-and-allies"


def test_every_ruling_has_text_title_and_a_stable_slug_id(conn):
    for row in conn.execute("select * from rulings"):
        assert row["text"].strip() and row["title"].strip(), row["id"]
        assert re.fullmatch(r"[a-z0-9.-]+(/[a-z0-9.-]+)+", row["id"]), row["id"]
        assert row["id"].startswith(row["game"] + "/")


def test_reingesting_the_same_text_keeps_every_id(built_db, tmp_path):
    again = tmp_path / "again.db"
    shutil.copy(built_db, again)  # a re-ingest over the previous database, as `rulings ingest` does
    build(again, REPO_MANIFEST)
    ids = lambda p: [r[0] for r in sqlite3.connect(p).execute("select id from rulings order by id")]
    assert ids(again) == ids(built_db)


def test_a_capitalised_lead_in_closed_by_an_ellipsis_is_the_title(conn):
    titles = dict(conn.execute("select label, title from rulings where id like 'wizard-dice/rules/gameplay/%'"))
    assert titles == {"1": "Counter Spells", "2": "Summon Spells", "3": "Healing Spells", "4": "Ally Damage",
                      "5": "Attack Spells"}
    from ingest.segment import first_sentence
    assert first_sentence("Counter Spells… any spells happen first.") == "Counter Spells"
    assert first_sentence("Ally Damage... allies deal damage. More.") == "Ally Damage"
    assert first_sentence("the rest... then roll. More.") == "the rest... then roll."


def test_a_sentence_goes_on_past_a_page_abbreviation():
    # An erratum headed "**Rulebook p. 180 “Unstable / Inestable”:**" was titled "**Rulebook p."
    from ingest.segment import first_sentence
    assert first_sentence("Rulebook p. 180 “Unstable”: add the text. More.") == "Rulebook p. 180 “Unstable”: add the text."
    assert first_sentence("See pp. 12-14 and pg. 9. Then draw.") == "See pp. 12-14 and pg. 9."
    # a yaku named with what it leaves out was titled "Dry Four Lights (4 lights excl."
    assert first_sentence("Dry Four Lights (4 lights excl. Rain) - 8 points. More.") == \
        "Dry Four Lights (4 lights excl. Rain) - 8 points."
    assert first_sentence("Name: Dr. Grey Holloway. Occupation: surgeon.") == "Name: Dr. Grey Holloway."


def test_a_long_paragraph_opening_with_a_run_in_name_is_titled_by_the_name_a_short_one_by_its_sentence():
    from ingest.segment import first_sentence
    text = ("Maelstrom of Battle: At the end of your Move phase, roll a D6 for each of your warbands not on the "
            "battlefield and consult the chart. Models can't charge.")
    assert first_sentence(text) == "Maelstrom of Battle"
    assert first_sentence("Victory Score: 8") == "Victory Score: 8"  # a name over its value says both
    assert first_sentence("Format: Best of 1. The first player to score wins.") == "Format: Best of 1."


def test_a_table_is_titled_by_its_first_rows_cells_not_its_bars():
    # A chart standing alone under its heading was titled "| D6 | Result |".
    from ingest.segment import first_sentence
    assert first_sentence("| D6 | Result |\n| 1 | The warband does not arrive. |") == "D6, Result"
    assert first_sentence("| | **Attack Roll Total** | - |\n| 1 | 2 | 3 |") == "Attack Roll Total"


def test_a_sentence_goes_on_past_an_abbreviation_for_example():
    from ingest.segment import first_sentence
    assert first_sentence("Do changes (e.g. PATHFINDER Markerlights) affect it? Yes.") == \
        "Do changes (e.g. PATHFINDER Markerlights) affect it?"
    assert first_sentence("Roll again (i.e. Twice). Then stop.") == "Roll again (i.e. Twice)."


def source(conn, source_id):
    return dict(conn.execute("select * from sources where id = ?", [source_id]).fetchone())


def test_a_source_stores_the_lines_it_covers_and_the_hash_of_its_whole_file(conn):
    whole = (SOURCES / "004_f1c101e16fb3de0e.txt").read_text(encoding="utf-8")
    digest = hashlib.sha256(whole.encode("utf-8")).hexdigest()
    house, rules = source(conn, "excaliburwiki-house-rules"), source(conn, "paths-of-the-lance-rules")
    assert (house["lines"], house["first_line"], rules["lines"], rules["first_line"]) == ("1-5", 1, "6-", 6)
    assert house["original_text"] == "\n".join(whole.split("\n")[:5])
    assert rules["original_text"] == "\n".join(whole.split("\n")[5:])
    assert house["sha256"] == rules["sha256"] == digest


def test_stored_line_numbers_are_the_numbers_a_source_page_shows(conn):
    listing = source(conn, "dragon-dice-faq-magic")
    numbers = json.loads(listing["line_numbers"])
    lines = listing["original_text"].split("\n")
    assert len(numbers) == len(lines)
    shown = listing_numbers(listing["original_text"])
    assert numbers == [shown.get(n) for n in range(1, len(lines) + 1)]
    assert numbers[:5] == [None, None, None, None, 1]  # the web viewer's header lines show no number
    for source_id in ("magic-combat-dice-rules", "paths-of-the-lance-rules"):
        plain = source(conn, source_id)
        count = len(plain["original_text"].split("\n"))
        first = plain["first_line"]
        assert json.loads(plain["line_numbers"]) == list(range(first, first + count))


def test_every_citation_starts_at_the_number_its_source_page_shows(conn):
    for row in conn.execute("select r.id, r.line_start, r.file_line_start, s.first_line, s.line_numbers "
                            "from rulings r join sources s on s.id = r.source"):
        assert json.loads(row["line_numbers"])[row["file_line_start"] - row["first_line"]] == row["line_start"], \
            row["id"]
