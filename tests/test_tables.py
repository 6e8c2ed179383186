"""Tables as tables: those a PDF extraction read down their columns (ingest/tables.py `read_down`), found by their
shape, written back as rows under the sentence that introduces them, every cell citing its number (lists are
never tables); and those a reader wrote as rows (markdown, HTML), each a table record of the rule it sits in."""
from ingest.manifest import source_entry
from ingest.pipeline import parse_source
from ingest.tables import read_down
from ingest.text import MappedText

PAGE = """\
Route Scoring Table
When a player claims a route, he scores points on the track:
Game End
When a player has two trains left, each player gets one final turn.
1
Route Length Points Scored
2
3
4
1
2
4
4
Credits
"""


def on_one_page(_offset):
    return 4


def test_a_table_read_down_its_columns_becomes_rows_under_the_sentence_introducing_it():
    doc, [table] = read_down(MappedText.of(PAGE), on_one_page)
    assert table.spec.columns == ("Route Length", "Points Scored")
    assert table.rows == [{"Route Length": "1", "Points Scored": "1"}, {"Route Length": "2", "Points Scored": "2"},
                          {"Route Length": "3", "Points Scored": "4"}, {"Route Length": "4", "Points Scored": "4"}]
    assert doc.text == ("Route Scoring Table\nWhen a player claims a route, he scores points on the track:\n"
                        "| Route Length | Points Scored |\n| 1 | 1 |\n| 2 | 2 |\n| 3 | 4 |\n| 4 | 4 |\n"
                        "Game End\nWhen a player has two trains left, each player gets one final turn.\nCredits\n")
    assert doc.text[table.start:table.end] == table.markup()
    # Every number cites its own line of the page: the fourth row's points are the last "4"; a column may
    # repeat a value (4, 4), its first column (the key) never does.
    assert doc.offsets[doc.text.index("| 4 | 4 |") + 6] == PAGE.rindex("4\n")


def test_without_pages_or_an_introducing_sentence_the_table_stays_where_it_stands():
    doc, [table] = read_down(MappedText.of(PAGE), lambda _offset: None)
    assert doc.text.index("| Route Length") > doc.text.index("final turn.")
    assert table.rows[2] == {"Route Length": "3", "Points Scored": "4"}


def test_numbered_lists_counts_and_unordered_numbers_are_no_tables():
    for text in ("Steps\n1. Draw\n2. Play\n3. Score\n",  # list items hold text
                 "The box holds\n110\nTrain Car cards\n30\n",  # too few numbers for two columns
                 "1\nScore Bonus\n5\n2\n9\n1\n3\n"):  # no column rises or falls throughout
        assert read_down(MappedText.of(text), on_one_page) == (MappedText.of(text), [])


def test_a_table_the_reader_wrote_as_rows_is_a_table_of_its_rule(tmp_path):
    (tmp_path / "rules.md").write_text(
        "# Skirmish\n\n## Scoring\n\n1. Each city held scores points:\n\n"
        "| Cities | Points |\n|---|---|\n| 1 | 2 |\n| 2 | 5 |\n| 3 |  |\n\n2. Ties go to the defender.\n",
        encoding="utf-8")
    entry = source_entry({"id": "rules", "file": "rules.md", "game": "skirmish", "title": "Skirmish",
                          "kind": "rulebook", "language": "en", "shape": "auto"})
    parsed = parse_source(entry, tmp_path)
    [table] = parsed.tables
    assert table.columns == ["Cities", "Points"]
    assert table.rows == [{"Cities": "1", "Points": "2"}, {"Cities": "2", "Points": "5"}, {"Cities": "3", "Points": ""}]
    owner = next(r for r in parsed.rulings if r.id == table.ruling_id)
    assert owner.label.endswith("1") and "| 2 | 5 |" in owner.text
    assert not [r for r in parsed.rulings if r.label in ("1.1", "2.5")]  # cells are never rule numbers


def test_numbers_in_a_tables_first_column_are_never_rule_numbers():
    from ingest.shapes.outline import parse_outline
    text = ("8. SCORING\n"
            "8.1. Each game is scored by the table below.\n"
            "Result      Points      Tiebreak\n"
            "0.5         Draw        1\n"
            "1.0         Win         2\n"
            "4.5         Sweep       3\n"
            "8.2. Ties are broken by the tiebreak column.\n")
    blocks = parse_outline(MappedText.of(text), ())
    assert [b.label for b in blocks] == ["8.1", "8.2"]
    scored = blocks[0]
    assert "4.5         Sweep" in "".join(text[s:e] for s, e in scored.pieces)
