"""Lists and tables survive ingest (ingest.structure.flow) and read back as lists and tables (kb.layout) on
the web pages and in the terminal; duplicated lead-ins and site chrome are gone."""
import re

from click.testing import CliRunner

from ingest.structure import flow
from kb.layout import blocks, plain
from service.app import create_app
from service.cli import cli

LIST = "They fall into two kinds:\n\n- 0 AP items used\n  at any time\n- 0 AP items used as an action\n\nUse of one..."


def test_list_items_keep_their_lines_and_wrapped_prose_joins():
    assert flow(LIST) == ("They fall into two kinds:\n- 0 AP items used at any time\n- 0 AP items used as an action\n"
                          "Use of one...")
    assert flow("a wrapped\nsentence   goes\non") == "a wrapped sentence goes on"
    assert flow("1) Counter Spells… first.\nThen more.") == "1) Counter Spells… first. Then more."  # one item: prose



def test_a_line_opening_with_closing_punctuation_joins_the_last_word():
    assert flow("with\n\nAda Sterling\n\n?") == "with Ada Sterling?"
    assert flow("No.\nOverdrive\n’s ability meets its trigger\n, so it resolves.") == \
        "No. Overdrive’s ability meets its trigger, so it resolves."
    assert flow("‘Twas a\n(quoted) line") == "‘Twas a (quoted) line"

def test_table_rows_keep_their_lines_and_markdown_rules_go():
    assert flow("Abbreviations\n\n| a | b |\n|---|---|\n| x | captures |\nAfter.") == \
        "Abbreviations\n| a | b |\n| x | captures |\nAfter."



def test_code_block_lines_keep_their_lines_and_their_fences_go():
    code = "Check the move.\n```\nEngland:\nF North  Sea - Picardy\n```\nOrder should\nfail."
    assert flow(code) == "Check the move.\nEngland:\nF North Sea - Picardy\nOrder should fail."

def test_the_stored_form_reads_back_as_paragraphs_lists_and_tables():
    text = flow(LIST)
    found = blocks(text)
    assert [{k: v for k, v in b.items() if k != "at"} for b in found] == [
        {"kind": "paragraph", "text": "They fall into two kinds:"},
        {"kind": "list", "numbered": False, "items": ["0 AP items used at any time", "0 AP items used as an action"]},
        {"kind": "paragraph", "text": "Use of one..."}]
    assert [text[at:at + len(item)] for item, at in zip(found[1]["items"], found[1]["at"], strict=True)] \
        == found[1]["items"]
    assert text[found[2]["at"]:].startswith("Use of one")
    assert blocks("| a | b |\n| x |") == [{"kind": "table", "rows": [["a", "b"], ["x", ""]],
                                            "at": [[2, 6], [12, None]]}]
    assert blocks("1) alone") == [{"kind": "paragraph", "text": "1) alone", "at": 0}]


def test_the_terminal_shows_a_table_as_aligned_columns():
    assert plain("Chart:\n| roll | location |\n| 1 | Fortress |\n| 10 | HL choice |", indent="") == (
        "Chart:\nroll  location\n----  ---------\n1     Fortress\n10    HL choice")


def test_seed_lists_and_tables_are_stored_line_by_line(conn):
    text = dict(conn.execute("select id, text from rulings"))
    assert "categories:\n- 0 AP items which may be used freely at any time\n- 0 AP items which must" in \
        text["dungeon-twister/clarifications/0-ap-items"]
    assert "| Kitiara | blue | Bakaris |" in text["paths-of-the-lance/new-rules/a"].split("\n")
    assert "Kitiara - blue Bakaris" not in text["paths-of-the-lance/new-rules/a"]
    hits = conn.execute("select r.id from rulings r join rulings_fts f on f.rowid = r.rowid "
                        "where rulings_fts match 'Kitiara'").fetchall()
    assert [row[0] for row in hits] == ["paths-of-the-lance/new-rules/a"]  # full text still finds the words


def test_no_example_repeats_its_lead_in(conn):
    assert conn.execute("select count(*) from examples where text like 'Example%'").fetchone()[0] == 0


def test_ruling_page_and_ask_render_lists_and_tables(built_db):
    client = create_app(built_db, datasette_url="http://datasette.test").test_client()
    page = client.get("/r/dungeon-twister/clarifications/0-ap-items").get_data(as_text=True)
    assert re.search(r"<ul><li>0 AP items which may be used freely at any time</li><li>0 AP items which must", page)
    page = client.get("/r/paths-of-the-lance/new-rules/a").get_data(as_text=True)
    assert '<th scope="col">replacement</th>' in page and "<td>Kitiara</td><td>blue</td><td>Bakaris</td>" in page
    answer = client.get("/", query_string={"q": "highlord replacement Kitiara", "game": "paths-of-the-lance"})
    assert "<td>Kitiara</td>" in answer.get_data(as_text=True)


def test_the_wizard_dice_breadcrumb_does_not_repeat_the_game_name(built_db):
    client = create_app(built_db, datasette_url="http://datasette.test").test_client()
    page = client.get("/r/wizard-dice/rules/counter-spells/shield").get_data(as_text=True)
    crumbs = page[page.index('class="crumbs"'):page.index("</nav>", page.index('class="crumbs"'))]
    assert crumbs.count("Wizard Dice") == 1


def test_ask_in_the_terminal_prints_a_table_aligned(built_db):
    result = CliRunner().invoke(cli, ["ask", "highlord replacement table Kitiara", "--game", "paths-of-the-lance",
                                      "--db", str(built_db)])
    assert re.search(r"(?m)^  Kitiara +blue +Bakaris$", result.output), result.output


def test_a_link_found_in_the_whole_text_lands_in_its_list_item_or_table_cell():
    from service.pages import linked

    text = "Spells:\n- cast Fireball first\n- then Sleep\n| name | cost |\n| Fireball | 3 |"
    links = [{"start": m, "end": m + len("Fireball"), "to_id": "g/fireball"}
             for m in (text.index("Fireball"), text.rindex("Fireball"))]
    found = blocks(text)
    items = [str(linked(item, links, True, at)) for item, at in zip(found[1]["items"], found[1]["at"], strict=True)]
    assert items == ['cast <a class="xref" href="#g/fireball">Fireball</a> first', "then Sleep"]
    table = found[2]
    assert str(linked(table["rows"][1][0], links, True, table["at"][1][0])) == \
        '<a class="xref" href="#g/fireball">Fireball</a>'
    assert str(linked("3", links, True, table["at"][1][1])) == "3"
