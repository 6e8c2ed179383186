"""A rulebook's update summary reprints the rules it changed: its parts stay inside it (kind `changelog` or
`restated`, never merged into the section before it), what it lists raises no false gap, and a reprint never
outranks the rule it reprints."""
import sqlite3

from ingest.shapes.outline import parse_outline
from ingest.text import MappedText
import kb.rulings
from kb.rulings import originals_first, results
from kb.store import connect

RULEBOOK = """\
1. CONCEPTS
1.1. General
1.1.1. Each player starts the game with twenty coins in their treasury.
1.1.2. A player who has no coins left at the end of a round is out of the game.
2. TRADING
2.1. Markets
2.1.1. A market opens at the start of each round and closes when every player has passed.
2.1.2. A player may sell goods at a market only while it is open.
2.2. Caravans
2.2.1. A caravan carries up to three goods from one market to another.
2.2.2. A caravan that is raided loses every good it carries.
3. HARBOURS
3.1. Ships
3.1.1. A ship carries up to five goods across the sea, one sea space per coin spent.
3.1.2. A ship in a storm space must return to its harbour at the end of the round.
3.2. Pirates
3.2.1. A pirate ship that ends its move beside a ship takes one good from it.
3.2.2. A pirate ship can never enter a harbour.
4. SCORING
4.1. General
4.1.1. At the end of the game each player scores one point per coin and two points per good.
4.1.2. Ties are won by the player with more ships.
UPDATE SUMMARY
March 3, 2026
The following updates were made to these rules.
◊ New Rule: Pirates
◊ 2.2.2. Caravans that are raided now lose every good.
Pirates
Added rules for pirate ships.
3. HARBOURS
3.2. Pirates
3.2.1. A pirate ship that ends its move beside a ship takes one good from it.
3.2.2. A pirate ship can never enter a harbour.
General Updates
◊ 2.2.2. Caravans that are raided now lose every good.
"""


def test_an_update_summary_keeps_what_it_reprints_inside_it():
    blocks = parse_outline(MappedText.of(RULEBOOK), ())
    summary = [b for b in blocks if b.section[0] == "Update Summary"]
    assert summary and all(b.kind in ("changelog", "restated") for b in summary)
    reprints = [b for b in summary if b.kind == "restated"]
    assert [b.label for b in reprints] == ["3.2.1", "3.2.2"]
    assert all(b.section[:2] == ("Update Summary", "Harbours") for b in reprints)
    before = [b for b in blocks if b.section[0] != "Update Summary"]
    assert {b.kind for b in before} == {"rule"} and before[-1].label == "4.1.2"
    assert not any("UPDATE" in RULEBOOK[s:e] for b in before for s, e in b.pieces)


def test_an_update_summary_naming_rules_that_exist_raises_no_gap(seeds_plus):
    conn = sqlite3.connect(seeds_plus("caravans", RULEBOOK))
    assert conn.execute("select count(*) from gaps where source = 'caravans'").fetchone()[0] == 0
    kinds = dict(conn.execute("select label, kind from rulings where source = 'caravans' and section like "
                              "'Update Summary%' and label like '3.2.%'").fetchall())
    assert kinds == {"3.2.1": "restated", "3.2.2": "restated"}


def test_a_reprint_is_folded_into_the_rule_it_reprints_at_the_better_place(seeds_plus):
    conn = sqlite3.connect(seeds_plus("caravans", RULEBOOK))
    ids = dict(conn.execute("select label || '/' || kind, id from rulings where source = 'caravans'").fetchall())
    reprint, rule, other = ids["3.2.2/restated"], ids["3.2.2/rule"], ids["1.1.1/rule"]
    # The reprint ranked above its rule: the rule takes its place and score, and stands once.
    assert originals_first(conn, [(reprint, 3.0), (other, 2.0), (rule, 1.0)]) == [(rule, 3.0), (other, 2.0)]
    # The rule not ranked at all: it stands for its reprint.
    assert originals_first(conn, [(other, 3.0), (reprint, 2.0)]) == [(other, 3.0), (rule, 2.0)]
    # Already above its reprint: the reprint leaves.
    assert originals_first(conn, [(rule, 3.0), (reprint, 2.0)]) == [(rule, 3.0)]


def test_a_rules_result_says_where_an_update_summary_reprints_it(seeds_plus):
    conn = connect(seeds_plus("caravans", RULEBOOK))
    ids = dict(conn.execute("select label || '/' || kind, id from rulings where source = 'caravans'").fetchall())
    found = results(conn, [(ids["3.2.2/rule"], 1.0), (ids["1.1.1/rule"], 0.5)])
    assert [p["id"] for p in found[0]["reprints"]] == [ids["3.2.2/restated"]] and found[1]["reprints"] == []


def test_reprints_found_among_the_kept_reprints_are_those_every_source_gives(seeds_plus, monkeypatch):
    conn = connect(seeds_plus("caravans", RULEBOOK))
    ids = dict(conn.execute("select label || '/' || kind, id from rulings where source = 'caravans'").fetchall())
    assert kb.rulings._stored_reprints(conn) == {ids["3.2.1/restated"]: "caravans", ids["3.2.2/restated"]: "caravans"}
    seeds = [row[0] for row in conn.execute("select id from rulings where source != 'caravans' limit 3")]
    ranked = [(ruling_id, float(-n)) for n, ruling_id in enumerate([ids["3.2.2/restated"], *seeds, ids["3.2.2/rule"],
                                                                    ids["3.2.1/rule"]])]
    kept = originals_first(conn, ranked), results(conn, ranked)
    monkeypatch.setattr(kb.rulings, "_stored_reprints", lambda conn: None)  # every source read, as on a dated one
    assert (originals_first(conn, ranked), results(conn, ranked)) == kept
    assert [p["id"] for p in kept[1][-2]["reprints"]] == [ids["3.2.2/restated"]]


def test_a_list_number_used_again_elsewhere_is_no_reprint(seeds_plus):
    text = ("Winter\n1. Rivers freeze and can be crossed anywhere.\n2. Fleets move at a third of their speed.\n\n"
            "Command\n1. Any army can be commanded by a lord of its side.\n2. Dragons obey only their riders.\n")
    conn = sqlite3.connect(seeds_plus("seasons", text))
    rows = conn.execute("select id, kind from rulings where source = 'seasons' order by position").fetchall()
    ranked = [(ruling_id, float(-n)) for n, (ruling_id, _) in enumerate(reversed(rows))]
    assert originals_first(conn, ranked) == ranked

