"""The label grammar (ingest/labels.py) and the outline reading each document's numbering by it: separators,
labels alone on their lines, contents pages of them, letters without a stop, bracketed letters, roman items,
rule headings introduced by a word, numbered steps and questions set as paragraphs. The documents here are
invented, each in a layout the code reads by evidence, not by a pattern made for it."""
import pytest

from ingest import labels
from model.refs import numbering
from test_outline import by_label, segment


@pytest.mark.parametrize("label, parent", [("1-2-1", "1-2"), ("702.11b", "702.11"), ("103.2.a", "103.2"),
                                           ("9f12c", "9f12"), ("6.A.1", "6.A"), ("7.1c.iv", "7.1c"), ("12", "")])
def test_a_label_s_parent_is_the_label_without_its_last_part(label, parent):
    assert labels.parent(label) == parent


def test_what_may_follow_a_label_keeps_its_separator():
    assert labels.successors("1-2") == {"1-2-1", "1-2a", "1-3", "2"}
    assert labels.successors("4.3.6") == {"4.3.6.1", "4.3.6a", "4.3.7", "4.4", "5"}
    # a lettered subrule goes on to the next letter, or to what follows its rule (a comprehensive rules page's
    # bulleted "105.3a." after "105.3." was text of 105.3, and 268 such subrules went uncited)
    assert labels.successors("702.11b") == {"702.11c", "702.12", "703"}
    assert labels.successors("702.11z") == set()


def test_within_follows_the_parts_not_the_characters():
    assert labels.within("4.3.7", "4.3") and labels.within("702.11b", "702.11") and labels.within("1-2-1", "1-2")
    assert not labels.within("4.30", "4.3") and not labels.within("1-20", "1-2")
    assert labels.follows("1-3", "1-2-4") and labels.follows("5.1", "4.3")


def test_hyphens_are_a_separator_only_where_lines_number_in_succession_with_them():
    numbered = ["1-1. Setup", "1-1-1. Each team takes", "1-1-2. The referee", "1-2. Turns", "1-2-1. A turn",
                "1-2-2. Play passes", "1-2-3. A pass"]
    assert labels.separators(numbered) == ".-"
    prose = ["2-4 players may play.", "1. Setup", "1.1 Each team takes", "3-5 minutes a round", "1.2 Then"]
    assert labels.separators(prose) == "."


def test_a_label_glued_onto_the_line_before_starts_where_the_numbering_expects_it():
    line = "3-2-1. Each scout moves one hex (see 5-1). 3-2-2. A scout that ends next to a foe stops."
    assert line[labels.glued(line, "3-2-1", "-"):].startswith("3-2-2. A scout")
    assert labels.glued("3-2-1. Scouts may move into 7-4. Hills block them.", "3-2-1", "-") is None


def test_refs_read_hyphenated_compact_and_roman_labels_but_not_slugs():
    for label in ("1-2-1", "9f12c", "7.1c.iv", "7.11viii", "702.19b"):
        assert numbering(label) == label
    for slug in ("2-player", "the-game", "civil"):
        assert numbering(slug) == ""


HYPHENATED = """Rulebook of Skyward Lanes

1. Setup

1-1. The Board

1-1-1. Lay out the six lane tiles in a ring.

1-1-2. Each player takes a harbour tile.

1-2. Crews

1-2-1. Each player drafts three crew cards. (See 2-1-1) 1-2-2. A crew card may not be drafted twice.

1-2-2-1. A captain counts as two crew cards for this rule.

2. Play

2-1. Turns

2-1-1. Play passes clockwise.
"""


def test_a_hyphen_numbered_rulebook_gives_each_rule_its_own_label_and_parent():
    blocks = by_label(segment(HYPHENATED))
    assert {"1-1-1", "1-1-2", "1-2-1", "1-2-2", "1-2-2-1", "2-1-1"} <= set(blocks)
    assert blocks["1-2-2"].text.startswith("A crew card may not be drafted twice")  # split off its line
    assert blocks["1-2-2-1"].parent == "1-2-2"
    assert blocks["1-2-1"].text.endswith("(See 2-1-1)")


LONE = """Harbour Rules Reference

Contents

1.
Basics

1.1.
Ships

1.2.
Ports

2.
Trade

2.1.
Goods

1.
Basics

1.1.
Ships

1.1.1.
A ship holds at most four goods.

1.1.2.
A ship in a port may not be attacked, see section
1.2.3
, respectively.

a.
A ship leaving a port may be attacked at once.

b.
A sunk ship returns its goods to the bank.

1.1.3.
Ships move before trading.

1.2.
Ports

1.2.1.
Each port trades two goods.
"""


def test_labels_alone_on_their_lines_head_or_number_what_follows_them_and_a_contents_page_stays_text():
    blocks = segment(LONE)
    found = by_label(blocks)
    assert found["1.1.1"].text == "A ship holds at most four goods."
    assert found["1.1.2a"].parent == "1.1.2" and found["1.1.2b"].text.startswith("A sunk ship")
    assert found["1.1.2"].text.endswith("respectively.")  # "1.2.3" set apart mid-sentence is no rule
    assert "1.2.3" not in found
    assert found["1.1.3"].section[-1] == "1.1 Ships" and found["1.2.1"].section[-1] == "1.2 Ports"
    assert [b.label for b in blocks if b.label in ("1.1", "1.2", "2.1")] == []  # the contents' entries


# Labels alone on their lines, where a sentence's last word, a section number, wrapped onto a line of its own over
# the next item's label: "see section" / "2.1.3." / "b.".
WRAPPED = """Market Rules Reference

1.
Markets

1.1.
Prices

1.1.1.
A good is sold at its market price.

a.
A market's price rises when a good is bought. Prices are kept as in section

1.1.2.

b.
A market's price falls when a good is sold. See section

2.

c.
A good nobody buys is discarded.

1.1.2.
Prices

a.
Each market starts at a price of three.

1.1.3.
A market closes when its last good is sold.

1.1.4.
A closed market opens again at the next round.

2.
Fees

2.1.

2.1.1.
A fee is paid in goods.

2.1.2.
A fee is paid once a round.
"""


def test_a_section_number_ending_a_wrapped_sentence_is_its_text_and_the_next_item_stays_with_its_rule():
    found = by_label(segment(WRAPPED))
    assert found["1.1.1a"].text.endswith("as in section 1.1.2.") and found["1.1.1b"].text.endswith("See section 2.")
    assert found["1.1.1b"].parent == "1.1.1" and found["1.1.1c"].parent == "1.1.1"
    assert found["1.1.2"].text == "Prices" and found["1.1.2a"].text == "Each market starts at a price of three."
    assert "1.1.2b" not in found and "1.1.1.2" not in found and "2" not in found
    # A label under a heading's short line is no sentence's end, though no text of its own follows it.
    assert not any(block.text.endswith("2.1.") for block in found.values())

LETTERED = """Colony Rules

1 PLANETS
1.1 A planet is controlled by the player with the most settlers on it.
a If two players tie, neither controls the planet.
b A planet nobody controls scores nothing.
1.2 Settlers cannot leave a planet in the turn they land.
a Scouts are not settlers.
c This line is no subrule: its letter is not the next.
1.3 A planet with a Space Dock produces ships.
a A Space Dock is destroyed when its planet is lost.
b Ships a Space Dock produces start in its system.
"""


def test_subrules_lettered_without_a_stop_are_read_when_their_letters_come_in_sequence():
    found = by_label(segment(LETTERED))
    assert found["1.1a"].parent == "1.1" and found["1.1b"].text.startswith("A planet nobody controls")
    assert found["1.2a"].text == "Scouts are not settlers. c This line is no subrule: its letter is not the next."
    assert "1.2c" not in found and found["1.3a"].parent == "1.3"


KEYWORDED = """SECTION 4 - CONDUCT

Rule 4.1 Delay of Game
A player who delays the game is warned.
4.1 (a) A second delay costs one point:
i. in a timed round;
ii. in a final.
4.1 (b) A third delay loses the game.
Rule 4.2 Equipment
Every player brings a rulebook.
i. A torn rulebook may be replaced.
"""


def test_a_rule_heading_s_own_text_is_the_rule_its_bracketed_and_roman_items_under_it():
    found = by_label(segment(KEYWORDED))
    assert found["4.1"].text == "A player who delays the game is warned."
    assert found["4.1a"].parent == "4.1" and found["4.1b"].text == "A third delay loses the game."
    assert found["4.1a.ii"].parent == "4.1a" and found["4.1a.ii"].text == "in a final."
    assert found["4.2i"].parent == "4.2"


STEPS = """Game Setup

STEP 1-CHOOSE SEATS: Players sit around the table.
STEP 2-DEAL HANDS: Deal five cards to each player.
i. Each player may mulligan once.
ii. Shuffle the rest into the deck.
STEP 3-REVEAL GOALS: Turn two goal cards face up.
"""


def test_steps_numbered_after_a_word_the_document_repeats_are_units_with_their_roman_items():
    found = by_label(segment(STEPS))
    assert found["2"].title == "Deal Hands" and found["2"].text == "Deal five cards to each player."
    assert found["2ii"].parent == "2" and found["3"].title == "Reveal Goals"


ASKED = """# Card Rulings

## Bridge Keeper

Can the Bridge Keeper block a flying unit?

No. Flying units ignore blockers, as the rulebook says on page 9.

It can still block a flying unit that has landed.

## (2.4) Landing

A flying unit lands at the end of its move.
"""


def test_a_paragraph_that_only_asks_is_a_question_with_the_paragraphs_after_it_and_a_bracketed_number_a_rule():
    blocks = segment(ASKED)
    question = next(b for b in blocks if b.kind == "question")
    assert question.text.startswith("Can the Bridge Keeper block") and question.text.endswith("has landed.")
    landing = by_label(blocks)["2.4"]
    assert landing.kind == "rule" and landing.title == "Landing"


def test_a_list_a_flattening_ran_into_one_line_is_split_where_its_items_count_on():
    line = "Setup 1. Deal Cards - Each player takes five. 2. Place Tokens - Put one on each city. 3. Choose First - Roll."
    cuts = labels.run_together(line)
    assert [line[cut:cut + 14] for cut in cuts] == ["2. Place Token", "3. Choose Firs"]
    nested = "4. Score - Count points. a. Cities score two. b. Roads score one. c. Ties share."
    assert [nested[cut:cut + 2] for cut in labels.run_together(nested)] == ["a.", "b.", "c."]
    assert labels.run_together("Rules 1. Deal Cards and 2. Place Tokens only.") == []  # two are no run
    # a sentence's own list, its items parted by semicolons, stays the sentence (a wargame's "Loss priority if
    # attacking: 1. BEF; 2. BEF Corps; …" was cut into three units, "2" "BEF Corps;")
    assert labels.run_together("Loss priority if attacking: 1. BEF; 2. BEF Corps; 3. MEF/CAU; 4. AUS Corps.") == []


def test_items_run_together_become_units_of_their_own():
    found = by_label(segment("# Quick Start\n\n1. Lay Out - Put the board down. 2. Shuffle - Shuffle the deck. "
                             "3. Deal - Deal four cards each.\n"))
    assert found["2"].text.startswith("Shuffle - Shuffle the deck.") and found["3"].text.startswith("Deal -")


TOPICS = """GLOSSARY

1 BUILDINGS
A building is a structure a player places on a district.
1.1 A district holds at most two buildings.
RELATED TOPICS: Districts
3
CANALS

3.1 A canal separates two districts.
Harbour Map
2 BRIDGES
A bridge joins two districts across a canal.
2.1 A bridge may be built only beside a canal.
"""


def test_a_glossary_of_numbered_topics_holds_through_captions_and_reordered_columns():
    blocks = segment(TOPICS)
    terms = [b.title for b in blocks if b.kind == "glossary"]
    assert terms == ["1 BUILDINGS", "3 CANALS", "2 BRIDGES"]  # "3" alone over its title; 3 before 2, as columns
    found = by_label(blocks)
    parents = {b.label: b.title for b in blocks if b.kind == "glossary"}
    assert parents[found["3.1"].parent] == "3 CANALS" and parents[found["2.1"].parent] == "2 BRIDGES"
    assert found["3.1"].text.endswith("Harbour Map")  # a picture's label is text, no heading closing the glossary
    assert {b.section for b in blocks} == {("Rules", "Glossary")}
