"""The outline segmenter: rules, examples, items, articles, headings, questions, glossaries and front matter
become the right units, on small documents and on real rulebooks and FAQs (../shared/corpora)."""
import re
from pathlib import Path

import pytest

from ingest.shapes.outline import parse_outline
from ingest.text import MappedText

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
# The running footer of every page of the Lorcana rules; ingest/furniture.py removes it in the product.
LORCANA_FOOTER = re.compile(r'^\s*(?:disneylorcana\.com|©Disney(?:/Pixar)?|Based on the "Winnie the Pooh" .*)\s*$')


def segment(text):
    """The blocks of `text`, each with its text and its examples' texts."""
    doc = MappedText.of(text)
    found = parse_outline(doc, ("Rules",))
    for block in found:
        block.text = " ".join(" ".join(doc.text[s:e].split()) for s, e in block.pieces)
        block.example_texts = [" ".join(" ".join(doc.text[s:e].split()) for s, e in pieces)
                               for _, pieces in block.examples]
    return found


def by_label(blocks):
    return {b.label: b for b in blocks}


def corpus(name):
    path = CORPORA / name
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return path.read_text(encoding="utf-8")


def lorcana_lines(*, footers=False):
    lines = corpus("lorcana-comprehensive-rules-2.2.0.txt").split("\n")
    del lines[31:69]  # the contents page (lines 32-69)
    return "\n".join(line if footers or not LORCANA_FOOTER.match(line) else "" for line in lines)


@pytest.fixture(scope="module")
def lorcana():
    return segment(lorcana_lines())


@pytest.fixture(scope="module")
def set_notes_text():
    text = corpus("lorcana-first-chapter-set-notes.txt")
    return re.sub(r"(?m)^\s*(?:TRADING CARD GAME|August 28, 2023\s+\d+|©Disney)\s*$", "", text)


# a. Decimal rules

CHAPTERS = """\
1.      CONCEPTS
   1.1. General
        1.1.1. The game is played by two or more players. Each player needs a deck
               of cards (see 1.10, "Materials").
        1.1.2. Each player tracks their lore.
   1.9. Damage
        1.9.4. Damage being dealt occurs because of a challenge or a resolving effect.
            1.9.4.1. First, determine the base damage.
            1.9.4.2. Second, apply any damage modifiers.
6. ABILITIES, EFFECTS, AND RESOLVING
   6.1. General
        6.1.1. Abilities apply only while their source is in play.
702.11 Hexproof is a keyword ability.
702.11b Hexproof on a permanent means it can't be the target of spells.
100.1a In a multiplayer variant, each opponent is a separate team.
"""


def test_decimal_rules_of_any_depth_are_rulings_labelled_with_their_number():
    blocks = segment(CHAPTERS)
    assert [b.label for b in blocks] == ["1.1.1", "1.1.2", "1.9.4", "1.9.4.1", "1.9.4.2", "6.1.1", "702.11",
                                         "702.11b", "100.1a"]
    assert {b.kind for b in blocks} == {"rule"}
    rules = by_label(blocks)
    assert rules["1.1.1"].text == ('The game is played by two or more players. Each player needs a deck of cards '
                                   '(see 1.10, "Materials").')


def test_a_decimal_line_naming_what_follows_is_a_section_shown_with_its_number():
    rules = by_label(segment(CHAPTERS))
    assert rules["1.1.2"].section == ("Rules", "Concepts", "1.1 General")
    assert rules["1.9.4.1"].section == ("Rules", "Concepts", "1.9 Damage")
    assert "1.1" not in rules and "1.9" not in rules


def test_an_all_caps_numbered_chapter_with_commas_is_a_chapter_heading():
    rules = by_label(segment(CHAPTERS))
    assert rules["6.1.1"].section == ("Rules", "Abilities, Effects, and Resolving", "6.1 General")


def test_the_short_last_item_of_a_list_is_a_rule_not_a_heading_over_nothing():
    # A league's pause conditions: the last, "6.3.3 Hardware or software malfunction", right over 6.4 read as a
    # heading with nothing under it, and was in no ruling (three rules of one document lost so).
    blocks = segment("6.3 Cease Fire. Pausing is only allowed given the following conditions are met:\n"
                     "  6.3.1 An admin asks for a pause for gameplay purposes\n  6.3.2 An unintentional disconnection\n"
                     "  6.3.3 Hardware or software malfunction\n6.4 Resuming Play. Play can be resumed after 10 minutes.\n")
    rules = by_label(blocks)
    assert [b.label for b in blocks] == ["6.3", "6.3.1", "6.3.2", "6.3.3", "6.4"]
    assert rules["6.3.3"].text == "Hardware or software malfunction" and rules["6.3.3"].parent == "6.3"


def test_lettered_items_under_an_items_lead_in_are_its_subrules_whatever_their_names():
    # "4. Skills are of three basic types:" over "a. Once per Round skills – …": the lead-in was taken for a name
    # ("1) Stoneskin (2 points): …"), its items cited "4.A" under a section of that name; "2." over "a." read 2a.
    blocks = segment("1. Skills are represented by tokens.\n2. At the start, players have none.\n"
                     "   a. Players put the tokens face up.\n4. Skills are of three basic types:\n"
                     "   a. Once per Round skills – tokens with a symbol can be used once a Round.\n"
                     "   b. Regular skills – tokens without symbols can be used once each turn.\n")
    assert [(b.label, b.parent) for b in blocks][-3:] == [("4", None), ("4a", "4"), ("4b", "4")]
    assert {b.section for b in blocks} == {("Rules",)}


@pytest.mark.parametrize("letters", [("A)", "B)"), ("A.", "B.")])
def test_lettered_titles_over_numbered_lists_head_their_lists_inside_the_chapter(letters):
    # "A) Deck Size" was a rule "3a" and its list 3.1, 3.2; "B) Card Limits" then a rule "3.2b" under 3.2, its
    # list "3.1 #2", "3.2 #2"; "A. Deck Size" was an answer's "A." with no question: text.
    first, second = letters
    blocks = segment(f"3. DECK CONSTRUCTION\n{first} Deck Size\n1. A deck holds at least 40 cards.\n"
                     f"2. A deck holds no more than 60 cards.\n{second} Card Limits\n1. No more than three copies.\n"
                     "4. PLAY\n4.1 Players shake hands.\n")
    assert [(b.label, b.section[-1]) for b in blocks] == [
        ("A.1", f"{first} Deck Size"), ("A.2", f"{first} Deck Size"), ("B.1", f"{second} Card Limits"), ("4.1", "Play")]
    assert blocks[0].section[-2] == "Deck Construction"


COLON_TITLED = ("In Mossflower you play a novice adventurer.\nSetup:\nAt the start of the game:\n1. Deal a Champion to "
                 "each player.\n2. Give each player a bag.\nGameplay:\nDraw cubes from your bag one at a time.\n"
                 "Day Structure:\nA round is a single Day.\n")


def test_names_closed_by_a_colon_head_a_plain_text_that_marks_no_other_heading():
    # A Google Docs text's "Setup:", "Gameplay:", "Day Structure:": every unit sat under no section, its steps
    # "1", "2" colliding with the next list's.
    assert [(b.label, b.section[1:]) for b in segment(COLON_TITLED)][1:] == [
        ("at-the-start-of-the-game", ("Setup",)), ("1", ("Setup",)), ("2", ("Setup",)), ("3", ("Gameplay",)),
        ("4", ("Day Structure",))]


@pytest.mark.parametrize("text", [
    COLON_TITLED.replace("Gameplay:", "Old Text:").replace("Day Structure:", "Old Text:"),  # a label said again
    COLON_TITLED.replace("Gameplay:", "Competitors may not:"),                             # a sentence's lead-in
    "GAME RULES\n" + COLON_TITLED,                                     # the text capitalises its headings
])
def test_a_name_closed_by_a_colon_heads_nothing_where_it_is_a_label_a_lead_in_or_the_text_has_headings(text):
    assert not {b.section[-1] for b in segment(text)} & {"Setup", "Gameplay", "Day Structure"}


def test_rules_numbered_in_the_thousands_are_read_as_those_in_the_hundreds():
    # A card game's comprehensive rules run to 1400: "1101. General" / "1101.1. …" were one paragraph each
    # ("FoW 1100 ¶1", 289 words), where "901." / "901.1." were rules.
    blocks = segment("### 1100. Keyword and Keyword Skill\n\n- 1101. General\n   - 1101.1. Keywords are icons.\n"
                     "   - 1101.2. Keyword skills are abilities.\n- 1104. First Strike\n   - 1104.1. It is continuous.\n"
                     "      - 1104.1a. It deals damage first.\n   - 1104.2. It is a keyword.\n")
    assert [(b.label, b.section[-1]) for b in blocks if b.kind == "rule"] == [
        ("1101.1", "1101. General"), ("1101.2", "1101. General"), ("1104.1", "1104. First Strike"),
        ("1104.1a", "1104. First Strike"), ("1104.2", "1104. First Strike")]


def test_a_statutes_articles_head_their_paragraphs_whatever_their_titles_stop():
    # A German tournament handbook's "Art. 2 Spieltisch." / "§ 1 Keine Strafe ohne Tat.": never read, several
    # articles ran into one ruling; "Rule 7.02(a)." ending a sentence stays no heading.
    blocks = segment("Art. 2 Spieltisch.\n(1) Der Aufbau ist auf Abbildung 1 beschrieben.\nArt. 3 Spielgerät.\n"
                     "(1) Spielgerät ist der Redcup.\n§ 1 Keine Strafe ohne Tat.\nEine Tat wird nur bestraft, wenn sie "
                     "verboten war.\n")
    assert [b.section[-1] for b in blocks] == ["Art. 2 Spieltisch.", "Art. 3 Spielgerät.", "§ 1 Keine Strafe ohne Tat."]
    blocks = segment("7.01 Rain checks are issued by the club, as set out in\nRule 7.02(a).\n7.02 Games may be suspended.\n")
    assert all("Rule 7.02(a)." not in b.section for b in blocks)


def test_a_plain_texts_table_header_opening_with_its_number_column_heads_nothing():
    # "   #  Dia  Grav Class  Diff  LSN  Atmosphere" over a scan's rows read as a heading "# …": 782 of a play-by-mail
    # game's 850 rulings sat under it.
    blocks = segment("2.2 PLANETS\nHere is a sample scan:\n   #  Dia  Grav Class  Diff  LSN  Atmosphere\n"
                     "   1    5  0.28  23    0.37   42  Cl2(100%)\n2.2.1 PLANET NUMBER\nEach planet has a number.\n")
    assert all("Dia" not in part for b in blocks for part in b.section)


def test_the_next_rule_printed_mid_paragraph_after_a_finished_sentence_is_its_own_rule():
    # A card game's Google Docs rules print "9.4.1 Effects resolve… specified. 9.4.2 Once an effect…" in one
    # paragraph: five rules were one; a reference to a rule inside a sentence stays text.
    blocks = segment("9.4 Resolution Order\n9.4.1 Effects resolve one at a time, unless otherwise\nspecified. 9.4.2 Once "
                     "an effect begins, it cannot be interrupted. 9.4.3 If an effect\nfails, see 9.4.4 Rules for what "
                     "happens.\n")
    assert [b.label for b in blocks] == ["9.4.1", "9.4.2", "9.4.3"]
    assert blocks[-1].text.endswith("see 9.4.4 Rules for what happens.")


def test_a_glossary_heading_with_a_note_opens_the_glossary_and_an_examples_wrapped_number_is_its_text():
    # "Glossary (partial; expandable)" after rule 112.2: its 31 terms were "112.2 ¶1…¶31"; "Example: … reduces X
    # to" / "0. At the end of the turn…" was a rule 8.8.1.0.
    blocks = segment("112.2 Keywords are defined in the Glossary.\nGlossary (partial; expandable)\nAbility: A mechanic "
                     "written on a card.\nAttack: An action performed in the Attack Phase.\nBattle: One round of play.\n")
    assert [(b.kind, b.label) for b in blocks][1:] == [("glossary", "ability"), ("glossary", "attack"),
                                                      ("glossary", "battle")]
    blocks = segment("8.8.1.4. A temporary effect ends.\nExample: A Creature loses Fire 15 until the end of turn. "
                     "This reduces X to\n0. At the end of the turn the value of Fire X returns to 10.\n8.8.2. Replacement\n")
    assert [b.label for b in blocks] == ["8.8.1.4", "8.8.2"]


def test_capital_letters_a_lead_in_opens_are_items_though_their_sentences_wrap_back_to_the_margin():
    # A card game's print: "…with the following hints:" / "A. Keep the score cards…" / "wrapped line" / "B. …":
    # eight hints were one paragraph of 236 words (a roman-numbered document keeps its capitals as text).
    text = ("Hints for Play\nIn playing this game, the following hints may be helpful:\n"
            "A. Keep the score cards and the guide cards on the table so\nthat everyone can see them.\n"
            "B. At the beginning of a hand, it is usually better to get a Roll card.\n"
            "C. It is usually better to save your Safety Cards to play\nas Coup Fourres.\n"
            "D. Do not hold cards in your hand that are of no value to you.\n"
            "E. Try to remember which cards have been played so far.\n"
            "F. Do not forget to take an extra turn after a Safety Card.\n")
    assert [b.label for b in segment(text)][-6:] == ["a", "b", "c", "d", "e", "f"]


def test_a_heading_at_a_pages_foot_heads_the_text_past_the_break_that_names_it():
    # A browser print: "Gorgon (Stone Gaze)" the page's last line, its text past the page's break: the Gorgon's
    # power was cited under the Ettin. A credit line at a page's foot ("Antoine Bauza") names nothing after it.
    blocks = segment("Ettin (Multiple Heads)\nWhen you activate the Ettin's power, you may play a second card.\n"
                     "Gorgon (Stone Gaze)\n\nWhen you activate the Gorgon's special power, you may name a creature.\n")
    assert [b.section[-1] for b in blocks] == ["Ettin (Multiple Heads)", "Gorgon (Stone Gaze)"]
    blocks = segment("Ettin (Multiple Heads)\nWhen you activate the Ettin's power, you may play a second card.\n"
                     "Antoine Bauza\n\nEach player then draws two cards from the deck.\n")
    assert {b.section[-1] for b in blocks} == {"Ettin (Multiple Heads)"}


def test_a_lettered_item_that_is_a_sentence_stays_a_subrule():
    blocks = segment("5.1 The attacker rolls:\na) one die for a melee attack.\nb) two dice for a charge.\n")
    assert [b.label for b in blocks] == ["5.1", "5.1a", "5.1b"]


def test_the_next_part_after_a_chapter_and_its_rules_closes_the_chapter():
    # "11. Springs and flywheels" over 11.1–11.2, then "12. Forbidden Weapons and Materials. The following…" over
    # 12.1: part 12 was cited "11.12", an item of chapter 11, its rules under "Springs and flywheels".
    blocks = segment("11. Springs and flywheels\n11.1. Springs used in small robots are excepted.\n"
                     "11.2. Any large spring must have a way of loading.\n"
                     "12. Forbidden Weapons and Materials. The following weapons are forbidden:\n"
                     "12.1. Weapons designed to cause invisible damage.\n")
    rules = by_label(blocks)
    assert [b.label for b in blocks] == ["11.1", "11.2", "12", "12.1"]
    assert rules["11.2"].section == ("Rules", "Springs and flywheels") and rules["12"].section == ("Rules",)


def test_a_numbered_title_with_an_abbreviations_stop_heads_its_rules():
    # "808. Team vs. Team Variant" (the stop of "vs.") was read as rule 807.808 of the variant before it, and its
    # rules 808.1… sat under no section.
    blocks = segment("807. Grand Melee Variant\n807.1. The Grand Melee variant is played.\n"
                     "808. Team vs. Team Variant\n808.1. Team vs. Team games are played with teams.\n")
    rules = by_label(blocks)
    assert [b.label for b in blocks] == ["807.1", "808.1"]
    assert rules["808.1"].section[-1].endswith("Team vs. Team Variant")


def test_a_short_line_whose_sentence_the_next_line_carries_on_is_no_heading():
    # A browser print on narrow pages: page 2 opened "We recognize that these two companies are currently" /
    # "engaged in creating a product…", and that first line was made a section over its own sentence.
    blocks = segment("# Summary\n\nThe campaign uses the VBAM ruleset.\n\n"
                     "We recognize that these two companies are currently\n"
                     "engaged in creating a product. It has no release date.\n")
    assert [b.section for b in blocks] == [("Rules", "Summary")] * 2
    assert blocks[-1].text.startswith("We recognize that these two companies are currently engaged")


def test_a_line_in_capitals_over_counted_rows_is_a_tables_header_not_a_heading():
    # A rulebook's critical tables: "BLADED CRITICAL" / "D6 RESULT EFFECT" / "1 Gash +d4 damage" / "2 Bleed…": each
    # table's header was the section its rows sat under, and every table's own heading was lost.
    text = "".join(f"{name} CRITICAL\nD6 RESULT EFFECT\n1 Gash +d4 damage\n2 Bleed 2 damage per activation\n"
                   f"3 Hamstrung -1 movement\n" for name in ("BLADED", "BLUNT"))
    blocks = segment(text)
    assert [b.section[-1] for b in blocks] == ["Bladed Critical", "Blunt Critical"]
    assert blocks[0].text.startswith("D6 RESULT EFFECT 1 Gash +d4 damage 2 Bleed")


def test_a_name_in_capitals_with_its_cost_in_brackets_heads_its_profile():
    # Sample profiles "BRUTE [12]" / "VETERAN [12]" / "GUNNER [12]" mid-page: only a page's first was a heading, the
    # others ran into its ruling (161 words, three profiles).
    text = "".join(f"{name} [12]\n14 HEALTH , 3\" MOVE\n▸ Combat 2d8, Defense 2d6\n▸ Can wear Heavy armor\n"
                   for name in ("BRUTE", "VETERAN", "GUNNER"))
    blocks = segment(text)
    assert [b.section[-1] for b in blocks] == ["Brute [12]", "Veteran [12]", "Gunner [12]"]


def test_items_under_headings_numbered_in_roman_take_each_headings_number():
    # "## I. Metal Weapons" over "1." gave I.1; "## II. Head Protection" over "1." gave a bare "1", a number no
    # heading prints (II was read as no number).
    blocks = segment("## I. Metal Weapons\n\n   1. Check the blade.\n\n## II. Head Protection\n\n   1. Wear a mask.\n\n"
                     "## IV. Gloves\n\n   1. Wear gloves.\n")
    assert [b.label for b in blocks] == ["I.1", "II.1", "IV.1"]


def test_a_keyword_heading_numbered_in_roman_heads_its_part():
    # A club's constitution: "Article I: Name", "Article III: Membership" were cover lines and paragraphs, their
    # sections filed under no article; a tennis appendix's "APPENDIX I" over "The Ball" lost its number.
    blocks = segment("Article I: Name\n\nThe name of this organization shall be the Club.\n\n"
                     "Article III: Membership\n\nMembership is open to all students.\n\n"
                     "APPENDIX I\nThe Ball\n\nThe ball shall have a uniform outer surface.\n")
    assert [b.section for b in blocks] == [("Rules", "Article I: Name"), ("Rules", "Article III: Membership"),
                                           ("Rules", "APPENDIX I The Ball")]


def test_an_articles_sections_running_into_their_sentences_are_its_parts():
    # A club's constitution: "Article III: Membership" / "Section 1 Membership is open to…" / "Section 2 …": the
    # sections were paragraphs of the article or, wrapped, headings titled by their half-sentences.
    blocks = segment("Article II: Purpose\n\nSection 1 The purpose of the club is to foster a community for\n"
                     "students interested in competitive play.\n\nArticle III: Membership\n"
                     "Section 1 Membership is open to all currently enrolled students.\n"
                     "Section 2 Membership shall be granted after the registration process.\n")
    assert [(b.section, b.text) for b in blocks] == [
        (("Rules", "Article II: Purpose", "Section 1"),
         "The purpose of the club is to foster a community for students interested in competitive play."),
        (("Rules", "Article III: Membership", "Section 1"), "Membership is open to all currently enrolled students."),
        (("Rules", "Article III: Membership", "Section 2"), "Membership shall be granted after the registration process.")]


def test_a_tables_row_of_a_label_and_its_figures_is_no_heading():
    # A rulebook's team-size table, "PLAYERS 5 6 7 8 9 10" / "EVIL 2 2 3 3 3 4", in capitals: each row a section,
    # every later section nested under "Evil 2 2 3 3 3 4".
    blocks = segment("SETUP\nChoose the board for your number of players.\nPLAYERS 5 6 7 8 9 10\nEVIL 2 2 3 3 3 4\n"
                     "Shuffle the character cards and deal one to each player.\n\nTHE GAME\nThe game has rounds.\n")
    assert [b.section for b in blocks] == [("Rules", "Setup"), ("Rules", "The Game")]


def test_headings_numbered_on_with_roman_parts_nest_under_their_number():
    # A FAQ's "### 4.6" / "### 4.6.i" / "### 4.6.ii" / "### 4.6.iii" / "### 4.7": 4.6.ii read as no number, closing
    # 4.6, and 4.7 was filed under 4.6.iii.
    blocks = segment("## Section 4\n\n### 4.6\n\nPlant Explosives.\n\n### 4.6.i\n\nCan tokens be copied?\n\n"
                     "### 4.6.ii\n\nAre tokens friendly?\n\n### 4.6.iii\n\nDoes a model gain one?\n\n"
                     "### 4.7\n\nLeave Your Mark.\n")
    assert [b.section[2:] for b in blocks] == [("4.6",), ("4.6", "4.6.i"), ("4.6", "4.6.ii"), ("4.6", "4.6.iii"),
                                               ()]  # 4.7 is the rule its heading numbers


def test_a_lead_ins_numbered_items_opening_in_lower_case_are_its_subrules():
    # Beach volleyball's "it is improper to request a time-out:" / "15.5.1 during a rally…," / "15.5.2 by a
    # non-authorised team member,": the items were read as a sentence wrapped at a number, all in 15.5's text.
    blocks = segment("15.5 IMPROPER REQUESTS\nAmong others, it is improper to request a time-out:\n"
                     "15.5.1 during a rally or after the whistle to serve,\n15.5.2 by a non-authorised team member,\n"
                     "15.5.3 after having exhausted the authorized time-outs.\n"
                     "15.5.4 The first improper request shall be rejected.\n")
    assert [b.label for b in blocks] == ["15.5", "15.5.1", "15.5.2", "15.5.3", "15.5.4"]
    assert by_label(blocks)["15.5.2"].text == "by a non-authorised team member,"


def test_a_list_of_examples_ends_where_the_rules_next_labelled_paragraph_begins():
    # A penalty guide: "Examples:" over "1." – "2.", then "Philosophy: …", "Penalty: Caution. …": the philosophy and
    # the penalty a judge looks for were stored as examples, the ruling only its definition.
    blocks = segment("### 2.1. Missed Mandatory Effect\n\nDefinition: A player fails to apply a mandatory effect.\n\n"
                     "Examples:\n\n1. A player forgets to burn 1 pool.\n2. A player bleeds before hunting.\n\n"
                     "Philosophy: Players are expected to track their own effects.\n\n"
                     "Penalty: Caution. Upgraded to a Warning if it creates an advantage.\n")
    rule = by_label(blocks)["2.1"]
    assert rule.text.endswith("Penalty: Caution. Upgraded to a Warning if it creates an advantage.")
    assert rule.example_texts == ["1. A player forgets to burn 1 pool. 2. A player bleeds before hunting."]


def test_parts_counted_afresh_under_a_chapter_stay_in_it_whatever_their_numbers():
    # A rulebook's "## 4. Detailed Turn Sequence" over "### 1. Unlock Phase" … "### 5. Discard Phase": phase 5
    # left chapter 4 for the top, beside "## 5. Ending the Game", both cited "5 ¶n".
    blocks = segment("## 4. Detailed Turn Sequence\n\nEach phase is described below.\n\n### 1. Unlock Phase\n\n"
                     "Unlock your cards.\n\n### 5. Discard Phase\n\nDiscard a card.\n\n## 5. Ending the Game\n\n"
                     "The last player wins.\n")
    assert [b.section[1:] for b in blocks] == [
        ("4. Detailed Turn Sequence",), ("4. Detailed Turn Sequence", "1. Unlock Phase"),
        ("4. Detailed Turn Sequence", "5. Discard Phase"), ("5. Ending the Game",)]


def test_steps_counted_afresh_under_a_decimal_section_with_text_of_its_own_are_its_parts():
    # A wargame's "## 9.7 Land Battles" (a sentence of its own) over "### 1. Battle Preparations" … and "## 9.9
    # Naval Battles" over its own "### 1." …: 9.7 and 9.9 were rules, every step filed under the chapter, the naval
    # steps counted on from the land ones ("1 ¶4").
    blocks = segment("# 9. Warfare\n\nWar is the last resort.\n\n## 9.7 Land Battles\n\nA battle starts when armies meet.\n\n"
                     "### 1. Battle Preparations\n\nAppoint a general.\n\n### 2. Roll Battle Dice\n\nRoll three dice.\n\n"
                     "## 9.9 Naval Battles\n\nA naval battle starts when fleets meet.\n\n### 1. Battle Preparations\n\n"
                     "Defenders may not appoint admirals.\n")
    sections = {b.text: b.section[1:] for b in blocks}
    assert sections["Appoint a general."] == ("9. Warfare", "9.7 Land Battles", "1. Battle Preparations")
    assert sections["Roll three dice."] == ("9. Warfare", "9.7 Land Battles", "2. Roll Battle Dice")
    assert sections["Defenders may not appoint admirals."] == ("9. Warfare", "9.9 Naval Battles",
                                                              "1. Battle Preparations")


def test_a_number_closing_a_parenthesis_the_line_above_opened_is_text():
    # "…and 5 points (Set" / "3) played.": a rule 18.2.3 "played." was made before 18.2.2.
    blocks = segment("18.2.1 The teams switch after every 7 points (Set 1 and 2) and 5 points (Set\n3) played.\n"
                     "18.2.2 During court switches the teams must change immediately.\n")
    assert [b.label for b in blocks] == ["18.2.1", "18.2.2"]
    assert blocks[0].text.endswith("and 5 points (Set 3) played.")


def test_a_chapter_titled_with_an_ordinal_heads_its_rules():
    # "22 1st REFEREE" / "22.1 LOCATION …": glued onto the rule before it, 22.1 under no section.
    blocks = segment("21 REFEREEING TEAM\n21.1 The refereeing team is two referees.\n22 1st REFEREE\n"
                     "22.1 The 1st referee stands at one end of the net.\n23 2nd REFEREE\n"
                     "23.1 The 2nd referee stands near the post.\n")
    assert [b.section[-1] for b in blocks] == ["21 Refereeing Team", "22 1st REFEREE", "23 2nd REFEREE"]
    assert blocks[0].text == "The refereeing team is two referees."


def test_items_under_a_lettered_part_of_a_numbered_rule_carry_both_labels():
    # A penalty guide's "### 5.3. Force Majeure" / "**A. Tournament Cannot Continue**" / "1. Safety First…": cited
    # "A.1", an appendix's label the same game's rules print elsewhere.
    blocks = segment("### 5.3. Force Majeure\n\nThe Head Judge must halt all games.\n\n"
                     "#### A. Tournament Cannot Continue\n\n1. No further play if the venue is unsafe.\n"
                     "2. Players keep the VPs of the last round.\n")
    assert [b.label for b in blocks][-2:] == ["5.3.A.1", "5.3.A.2"]


def test_a_subrule_records_the_rule_it_belongs_to():
    rules = by_label(segment(CHAPTERS))
    assert rules["1.9.4.2"].parent == "1.9.4"
    assert rules["702.11b"].parent == "702.11"
    assert rules["1.1.1"].parent is None  # 1.1 is a section heading, not a rule
    assert rules["1.9.4"].parent is None


def test_a_rule_number_wrapped_to_the_start_of_a_line_continues_the_sentence():
    blocks = segment("1.2.1. If the text of a card contradicts a game rule, the rule in section\n"
                     "4.3.2 specifies that the card wins.\n1.2.2. The next rule.\n")
    assert [b.label for b in blocks] == ["1.2.1", "1.2.2"]
    assert blocks[0].text.endswith("the rule in section 4.3.2 specifies that the card wins.")



def test_a_rules_sentence_wrapped_onto_the_next_line_is_no_section_title():
    # A browser print wraps "1.2.2. Matches are always scheduled for Mondays and Wednesdays" / "at 10:00pm ET…":
    # read as a section over 1.2.2.1, the rule's text began mid-sentence and its first line was only a title.
    blocks = segment("1.2.1. Players may play under any registered account.\n1.2.2. Matches are always scheduled "
                     "for Mondays and Wednesdays\nat 10:00pm ET, except playoff matches.\n1.2.2.1. Players often "
                     "absent may be removed.\n1.2.3. Members report broken rules.\n")
    rules = by_label(blocks)
    assert rules["1.2.2"].kind == "rule" and rules["1.2.2"].text == (
        "Matches are always scheduled for Mondays and Wednesdays at 10:00pm ET, except playoff matches.")
    assert rules["1.2.2.1"].parent == "1.2.2"


def test_a_rule_a_sentence_cites_at_a_lines_end_is_its_text_not_a_new_rule():
    # A law's sentence ends on the word that cites a rule ("…under Law", "(see Rule"), or in a list of the
    # rules it cites, and its number wraps onto the next line's start: no rule starts there.
    blocks = segment(
        "4.1 Fair play\n"
        "4.1.1 The referee shall award a free kick to the other team, except for fouls under Law\n"
        "12.3 (Handling the ball) and shall inform the captain of the team at fault.\n"
        "4.1.2 Players may play in a safe and responsible way at any time (see Rule\n"
        "6.4b Exception).\n"
        "4.1.3 A keeper may not wear gloves for the purposes of Laws 9.1 (Catching), 10 (Saves),\n"
        "11.2 (Goal kicks) and 11.4 (Penalties) unless the umpire agrees.\n"
        "4.2 Substitutes\n"
        "4.2.1 A team may name three substitutes.\n")
    assert [b.label for b in blocks] == ["4.1.1", "4.1.2", "4.1.3", "4.2.1"]
    rules = by_label(blocks)
    assert rules["4.1.1"].text.endswith("under Law 12.3 (Handling the ball) and shall inform the captain of the team "
                                        "at fault.")
    assert rules["4.1.2"].text.endswith("(see Rule 6.4b Exception).")
    assert rules["4.1.3"].text.endswith("11.2 (Goal kicks) and 11.4 (Penalties) unless the umpire agrees.")

# a'. Rules numbered from the top ("103.", "103.2.a.1."), with numbered title lines as headings

TOP_NUMBERED = """\
Skirmish Core Rules

000. Golden Rules
001. Card text supersedes rules text.
100. Game Concepts
101. Deck Construction
102. A player brings one deck.
103. A deck has a Main Deck and a Rune Deck.
103.1. Main Deck
103.1.a. At least 40 cards.
103.1.a.1. Cards must match the deck's domain.
103.1.b. Up to 3 copies of a card.
103.2. Rune Deck
103.2.a. 12 rune cards.
104. Setup
105. Zones
106. The play area is made of zones.
107. The Board
107.1. Each player has a base.
108. Each player draws 4.
109.

Players then mulligan up to two cards.
110. Decide who goes first with any fair method.
111. Start Phase
111.1. Ready everything.
111.2. Draw a card.
200. Playing the Game
201. Play Steps
202. 1. Remove the card from your hand.
202.1. It goes onto the chain.
203. 2. Make choices.
3. Pay costs.
204. Combat
204.1. Units deal damage.
205. A unit with damage equal to its might is killed.
206. Keywords can be granted.
Keywords Can Be Lost
207. Shield
207.1. Shield is a passive keyword.
"""


def test_every_number_and_lettered_child_of_a_top_numbered_document_is_its_own_rule():
    blocks = segment(TOP_NUMBERED)
    assert [b.label for b in blocks if b.kind == "rule"] == [
        "001", "102", "103", "103.1", "103.1.a", "103.1.a.1", "103.1.b", "103.2", "103.2.a", "106", "107.1", "108",
        "109", "110", "111.1", "111.2", "202", "202.1", "203", "204.1", "205", "206", "207.1"]
    rules = by_label(blocks)
    assert rules["103.1.a.1"].text == "Cards must match the deck's domain."
    assert rules["109"].text == "Players then mulligan up to two cards."


def test_a_top_numbered_rule_knows_the_rule_it_is_part_of():
    rules = by_label(segment(TOP_NUMBERED))
    assert [(label, rules[label].parent) for label in ("103.1.a.1", "103.1.a", "103.1", "103", "202.1", "107.1")] == [
        ("103.1.a.1", "103.1.a"), ("103.1.a", "103.1"), ("103.1", "103"), ("103", None), ("202.1", "202"),
        ("107.1", None)]  # 107 is a heading, not a rule


def test_numbered_title_lines_are_the_headings_rules_sit_under():
    rules = by_label(segment(TOP_NUMBERED))
    assert rules["001"].section == ("Rules", "000 Golden Rules")
    assert rules["102"].section == ("Rules", "100 Game Concepts", "101 Deck Construction")
    assert rules["103.2.a"].section == ("Rules", "100 Game Concepts", "101 Deck Construction")
    assert rules["106"].section == ("Rules", "100 Game Concepts", "104 Setup", "105 Zones")
    assert rules["107.1"].section == ("Rules", "100 Game Concepts", "107 The Board")
    assert rules["111.1"].section == ("Rules", "100 Game Concepts", "111 Start Phase")
    assert rules["202"].section == ("Rules", "200 Playing the Game", "201 Play Steps")
    assert rules["204.1"].section == ("Rules", "200 Playing the Game", "204 Combat")


def test_lines_without_a_number_or_out_of_sequence_are_text_of_the_rule_above():
    blocks = segment(TOP_NUMBERED)
    rules = by_label(blocks)
    assert rules["203"].text == "2. Make choices. 3. Pay costs."
    assert rules["206"].text == "Keywords can be granted. Keywords Can Be Lost"
    assert rules["202"].title == "Remove the card from your hand."  # a numbered step is titled by its step
    (front,) = [b for b in blocks if b.kind != "rule"]
    assert (front.kind, front.text) == ("front-matter", "Skirmish Core Rules")


def test_a_short_numbered_list_under_a_heading_is_not_read_as_rules_numbered_from_the_top():
    blocks = segment("Combat\n1. The attacker rolls.\n2. The defender rolls.\n3. Compare.\n"
                     "7. Movement\n1. Units move.\n")
    assert [b.label for b in blocks] == ["1", "2", "3", "7.1"]


# b. Examples

def test_examples_attach_to_their_rule_and_end_where_the_next_rule_or_heading_begins():
    blocks = segment("""\
   1.2. Golden Rules
        1.2.1. If the text of a card contradicts a game rule, the card text supersedes that rule.
               Example: Mufasa has an ability that reads, "When this character is banished,
               you may reveal the top card of your deck."
        1.2.2. If an effect prevents something, it supersedes effects that allow it.
               Example A: Tiana stops actions.
               EXAMPLE 2: Genie can't play actions.
   1.3. Players
        1.3.1. Each person playing is a player.
               Examples: one player, two players.
GLOSSARY
""")
    rules = by_label(blocks)
    assert rules["1.2.1"].example_texts == [('Mufasa has an ability that reads, "When this character is banished, '
                                            'you may reveal the top card of your deck."')]
    assert rules["1.2.1"].text == "If the text of a card contradicts a game rule, the card text supersedes that rule."
    assert rules["1.2.2"].example_texts == ["Tiana stops actions.", "Genie can't play actions."]
    assert rules["1.3.1"].example_texts == ["one player, two players."]
    assert rules["1.3.1"].section == ("Rules", "1.3 Players")


# c. Suffixed items and lettered sub-cases

def test_suffixed_items_are_items_of_their_own():
    blocks = segment("36. A unit may move.\n36a. A unit may not move twice.\n36b) A routed unit may not move.\n"
                     "37. Combat follows movement.\n")
    assert [b.label for b in blocks] == ["36", "36a", "36b", "37"]
    assert blocks[1].parent == "36"
    assert blocks[2].text == "A routed unit may not move."


def test_lettered_sub_cases_of_a_numbered_rule_are_its_sub_rulings():
    blocks = segment("7.4.1 The attacker rolls two dice.\na. On a 6 the defender retreats.\n"
                     "b) On a 1 nothing happens.\n7.4.2 The defender rolls one die.\n")
    assert [(b.label, b.parent) for b in blocks] == [("7.4.1", None), ("7.4.1a", "7.4.1"), ("7.4.1b", "7.4.1"),
                                                     ("7.4.2", None)]
    assert blocks[1].text == "On a 6 the defender retreats."


def test_a_lettered_list_inside_an_answer_stays_in_the_answer():
    blocks = segment("Q: Which terrains block movement?\nA: These do:\na) forest\nb) swamp\nc) river\n"
                     "Q: Can units stack?\nA: Yes.\n")
    assert [b.label for b in blocks] == ["q1", "q2"]
    assert blocks[0].text == "Which terrains block movement? A: These do: a) forest b) swamp c) river"


# d. Articles and numbered headings

def test_an_articles_plain_items_take_the_article_number():
    blocks = segment("### Article 4: The act of moving the pieces\n\n1. Each move is made with one hand.\n\n"
                     "2. The player may adjust a piece first.\n")
    assert [b.label for b in blocks] == ["4.1", "4.2"]
    assert blocks[0].section == ("Rules", "Article 4: The act of moving the pieces")
    assert blocks[1].text == "The player may adjust a piece first."


def test_a_keyword_heading_alone_takes_the_title_line_under_it():
    # A sports law prints "LAW 1" over its title in capitals; a PDF's columns leave runs of spaces.
    blocks = segment("LAW 1\n\nTHE PLAYERS\n\n1.1 Number of players\nA match is played between two sides.\n"
                     "1.2 Captains\nEach side names a captain.\n\nLAW 2     THE UMPIRES\n\n"
                     "2.1 Appointment\nTwo umpires shall be appointed.\n\nLAW 3\n\n3.1 Scorers\nTwo scorers record runs.\n")
    assert [(b.label, b.section[-1]) for b in blocks] == [
        ("1.1", "LAW 1 The Players"), ("1.2", "LAW 1 The Players"), ("2.1", "LAW 2 THE UMPIRES"), ("3.1", "LAW 3")]
    assert not any("PLAYERS" in b.text for b in blocks)  # the title heads, and is no paragraph of its own
    # A case book's closing citation ("Rule 4.5.1") takes no heading under it for its title.
    cases = segment("1.3 May the captain ask for a line-up check?\nYes.\nRule 4.5.1\n\nCAPTAIN\n\n"
                    "1.4 May the captain speak to the referee?\nOnly the game captain.\n")
    assert all("Rule 4.5.1 Captain" not in b.section for b in cases)


def test_any_numbered_heading_numbers_the_plain_items_under_it():
    blocks = segment("Article 4 - Moving\n1. One hand only.\n2. Adjust first.\n"
                     "7. Combat\n1. The attacker rolls.\n2. The defender rolls.\n"
                     "### 3 Movement\n\n1. Units move.\n\n"
                     "Section 9.2 Supply\n4. Trace a line.\n")
    assert [b.label for b in blocks] == ["4.1", "4.2", "7.1", "7.2", "3.1", "9.2.4"]
    assert blocks[2].section == ("Rules", "7. Combat")  # no decimal rule under it: the part shows its number


def test_an_indented_list_under_an_item_is_numbered_under_it():
    blocks = segment("### Article 5: The completion of the game\n\n1. Wins\n   1. Checkmate wins.\n"
                     "   2. Resignation wins.\n2. Draws\n   1. Stalemate draws.\n")
    assert [(b.label, b.parent) for b in blocks] == [("5.1", None), ("5.1.1", "5.1"), ("5.1.2", "5.1"),
                                                     ("5.2", None), ("5.2.1", "5.2")]


def test_a_short_numbered_list_stays_a_list():
    blocks = segment("Setup\n1. Shuffle\n2. Deal\n3. Play\n")
    assert [(b.label, b.text) for b in blocks] == [("1", "Shuffle"), ("2", "Deal"), ("3", "Play")]



def test_a_marked_documents_numbered_list_heads_no_sections():
    # A tournament's format listed as "1. Stage 1" … "3. Playoffs": read as sections, every heading after the list
    # fell under "3 Playoffs" and the headings above it were lost.
    blocks = segment("## Format\n\n### Major Format\n\n1. Stage 1\n   - Swiss bracket\n2. Stage 2\n   - Swiss bracket\n"
                     "3. Playoffs\n   - Top 8 from Stage 2\n\n### Seeding\n\nTeams are seeded by ranking.\n")
    assert [(b.label, b.section[1:]) for b in blocks] == [
        ("1", ("Format", "Major Format")), ("2", ("Format", "Major Format")), ("3", ("Format", "Major Format")),
        ("1", ("Format", "Seeding"))]


def test_a_paragraph_back_at_a_marked_lists_margin_leaves_the_list():
    # A markup's readers indent an item's own paragraphs under it: a paragraph at the list's margin after a
    # blank line (a run-in "Cyclical." note, a note on every step) is the section's, not the last item's; a
    # lead-in ending in a colon still introduces what the item goes on with.
    blocks = segment("## Structure of Play\n\n"
                     "1. Play begins in free play.\n"
                     "2. Then the preparation phase begins.\n"
                     "   It is handled out of character.\n"
                     "3. When showtime is over, downtime begins.\n\n"
                     "Cyclical. After downtime, everyone returns to free play.\n\n"
                     "## Setup\n\n"
                     "1. Each player takes sixteen pieces.\n\n"
                     "These pieces are as follows:\n\n"
                     "| Piece | Count |\n")
    texts = [(b.label, b.kind, b.text) for b in blocks]
    assert texts[1] == ("2", "clarification", "Then the preparation phase begins. It is handled out of character.")
    assert texts[2] == ("3", "clarification", "When showtime is over, downtime begins.")
    assert texts[3][1:] == ("paragraph", "Cyclical. After downtime, everyone returns to free play.")
    assert texts[4][2].startswith("Each player takes sixteen pieces. These pieces are as follows: | Piece")
    # In plain text, whose readers indent nothing, a rule's paragraphs stand at its margin.
    plain = segment("Setup\n1. Each player takes sixteen pieces.\n\nThe pieces are kept in a bag.\n")
    assert [(b.label, b.text) for b in plain] == [("1", "Each player takes sixteen pieces. The pieces are kept in a bag.")]

def test_a_paragraph_after_a_list_set_a_line_an_item_goes_on_the_rule_whose_list_it_is():
    # "1.7" leads into its steps, one line each; the paragraph after them is 1.7's again, not its last step's (in
    # plain text, where an item's paragraphs may stand at its margin) nor a paragraph of the chapter (in markdown,
    # or where the steps are set in)
    steps = "1. Combat orders\n2. Pre-departure orders\n3. Jump orders\n"
    after = "When your turn is processed, all combat orders are processed first.\n"
    for text in (f"1.7 TURN PROCESSING\n\nEach turn is processed in steps. These are:\n\n{steps}\n{after}\n"
                 "1.8 REPORTS\n\nA report is sent after each turn.\n",
                 f"1.7 Each turn is processed in steps. These are:\n\n{steps}\n{after}\n1.8 A report is sent.\n",
                 "1.7 TURN PROCESSING\n\nEach turn is processed in steps. These are:\n\n"
                 + "".join(f"\t{line}\n" for line in steps.splitlines()) + f"\n{after}"):
        blocks = by_label(segment(text))
        assert blocks["1.7.3"].text == "Jump orders"
        assert blocks["1.7"].text.endswith("These are: When your turn is processed, all combat orders are processed "
                                           "first.")
        assert [b.label for b in segment(text)][:5] == ["1.7", "1.7.1", "1.7.2", "1.7.3", "1.8"][:len(blocks)]
    # a list of the section's own: the paragraph after it is the section's
    blocks = segment(f"Orders\n\nThe sections are:\n\n{steps}\n{after}")
    assert (blocks[-2].label, blocks[-2].text) == ("3", "Jump orders")
    assert (blocks[-1].kind, blocks[-1].text) == ("paragraph", after.strip())


def test_rules_after_a_list_of_one_paragraph_items_and_its_example_are_no_part_of_its_last_item():
    # items a blank line apart, each one paragraph: the paragraphs after the last (an example of it between) are the
    # section's, not the last item's nor its example's; so after lettered cases under a lead-in
    blocks = segment("CORE RULES\n\nThe basic loop is as follows.\n\n1. The GM sets the scene.\n\n"
                     "2. The GM narrates the result.\n\nExample: You roll a 7 and succeed.\n\n"
                     "Critical successes always succeed.\n\nCOMBAT\n\nEach round is one second.\n")
    item = next(b for b in blocks if b.label == "2" and b.kind != "paragraph")
    assert (item.text, item.example_texts) == ("The GM narrates the result.", ["You roll a 7 and succeed."])
    assert [b.text for b in blocks if b.section == ("Rules", "Core Rules")][-1] == "Critical successes always succeed."
    blocks = segment("TRANSPORT\n\nThe following rules apply to loading.\n\na. Tanks may carry a unit.\n\n"
                     "b. Infantry may be carried.\n\nThe following rules apply when a unit is carrying another.\n\n"
                     "a. Carried units cannot fire.\n")
    assert [b.text for b in blocks] == ["The following rules apply to loading.", "Tanks may carry a unit.",
                                        "Infantry may be carried.",
                                        "The following rules apply when a unit is carrying another.",
                                        "Carried units cannot fire."]
    # a heading that is a rule keeps its text after its lettered cases: it runs on to the next heading
    blocks = segment("## 3.4 Fire\n\nFires a weapon. Only if:\n\n(a) you have a gun\n(b) you have not fought\n\n"
                     "If you have two guns, choose one.\n\n## 3.5 Fight\n\nStrike an adjacent enemy.\n")
    assert by_label(blocks)["3.4"].text == "Fires a weapon. Only if: If you have two guns, choose one."
    assert by_label(blocks)["3.4b"].text == "you have not fought"


def test_names_a_lead_in_lists_over_rules_numbered_under_them_are_the_sections_outline():
    # "…the following additional information:" over "1. Extemporaneous Speaking" and its own rules "1.", "2." set
    # under it: the names head rules, no list of names the paragraph keeps as its text
    blocks = segment("### B. Speech Events\n\nSpeech events follow these rules:\n\n1. Extemporaneous Speaking\n"
                     "   1. Topics shall be phrased as questions.\n   2. The event has two divisions.\n"
                     "2. The Interpretation Events\n   1. Speakers may not use the same material twice.\n")
    assert [(b.label, b.text) for b in blocks][1:] == [
        ("B.1", "Extemporaneous Speaking"), ("B.1.1", "Topics shall be phrased as questions."),
        ("B.1.2", "The event has two divisions."), ("B.2", "The Interpretation Events"),
        ("B.2.1", "Speakers may not use the same material twice.")]
    # a list of names stays the paragraph's
    blocks = segment("### Setup\n\nThe steps are as follows:\n\n1. Destroy Bases\n2. Lose Resource Cards\n")
    assert [b.text for b in blocks] == ["The steps are as follows: 1. Destroy Bases 2. Lose Resource Cards"]


def test_a_numbered_heading_marked_a_level_too_deep_is_the_sibling_its_number_makes_it():
    # "### 4. Teams" after "## 3. Player Eligibility" and its "### 3.1.": part 4, beside 3, not inside it
    blocks = segment("# Global Ruleset\n\n## 3. Player Eligibility\n\n### 3.1. Player Requirements\n\nEach player needs "
                     "an account.\n\n### 4. Teams\n\n### 4.1. Team Aliases\n\nAliases must be appropriate.\n\n"
                     "## 5. Matches\n\n### 5.1. Scheduling\n\nMatches are played on Mondays.\n")
    sections = {b.label: b.section[1:3] for b in blocks}
    assert sections["4.1"] == ("Global Ruleset", "4. Teams")
    assert sections["5.1"] == ("Global Ruleset", "5. Matches")
    # parts a chapter numbers afresh stay its parts: "## 4. Turn Sequence" over "### 1." … "### 5."
    blocks = segment("## 4. Turn Sequence\n\n### 1. Unlock\n\nUnlock a card.\n\n### 2. Draw\n\nDraw a card.\n\n"
                     "### 5. Cleanup\n\nDiscard your hand.\n")
    assert all(b.section[1] == "4. Turn Sequence" for b in blocks)


def test_lines_set_in_under_a_lead_in_are_what_it_shows_and_head_nothing():
    # "For example:" over two commands set in (by a tab the cleaning made a space): no heading "Attack SP Klingon"
    # over the rules after them
    blocks = segment("8.2 COMBAT\n\nUse one or more ENGAGE commands. For example:\n\n Attack SP Klingon\n"
                     " ATT SP Romulan\n\nThe above says that you will attack two species: the Klingons and the "
                     "Romulans.\n\n8.3 RETREAT\n\nA ship may retreat when it loses half its hull.\n")
    assert [(b.label, b.section) for b in blocks] == [("8.2", ("Rules",)), ("8.3", ("Rules",))]
    assert blocks[0].text.endswith("two species: the Klingons and the Romulans.")


def test_a_chapter_numbered_with_two_zeros_and_a_long_dash_heads_its_rules():
    # "4.00–GAME PRELIMINARIES" over "4.01 Umpire Duties": chapter 4's heading, as "4.0 Game Preliminaries" is
    blocks = segment("4.00–GAME PRELIMINARIES\n4.01 Umpire Duties\nBefore the game begins the umpire shall:\n"
                     "(a) Require strict observance of all rules;\n4.02 Field Manager\nEach team names a manager.\n")
    assert {b.label: b.section for b in blocks if b.kind == "rule"}["4.02"] == ("Rules", "4.00 Game Preliminaries")


# e. Headings

def test_a_heading_directly_over_a_question_or_numbered_rule_is_a_section_not_a_tail():
    blocks = segment("Q: Can the Eyrie build?\nA: Yes. Laws: 6.2.2\n6.2.3 Eyrie Dynasties\nQ: Can they recruit?\n"
                     "A: No.\nMovement\n1. Units move up to their speed.\n")
    assert [b.label for b in blocks] == ["q1", "q2", "1"]
    assert blocks[0].text == "Can the Eyrie build? A: Yes. Laws: 6.2.2"
    assert blocks[1].section == ("Rules", "6.2.3 Eyrie Dynasties")
    assert blocks[2].section == ("Rules", "Movement")


def test_captions_of_diagrams_and_tables_are_never_sections():
    blocks = segment("Movement\nUnits move.\n\nDiagram 3: Moving a unit\nThe unit moves two hexes.\n\n"
                     "### Table 2 - Terrain costs\n| forest | 2 |\n\nFigure 1\n")
    assert {b.section for b in blocks} == {("Rules", "Movement")}
    assert "Diagram 3: Moving a unit" in " ".join(b.text for b in blocks)


def test_diagram_labels_inside_a_numbered_chapter_are_not_sections():
    blocks = segment("4. TURN ACTIONS\n   4.6. Challenge\n      4.6.1. The challenger deals damage.\n"
                     "             Example B: Marshmallow challenges.\n\n"
                     "                            CHALLENGE EXAMPLE B\n                  BANISHED\n\n"
                     "   4.7. Move a Character\n      4.7.1. A player moves only their characters.\n")
    assert [b.section for b in blocks] == [("Rules", "Turn Actions", "4.6 Challenge"),
                                           ("Rules", "Turn Actions", "4.7 Move a Character")]


# f. Questions and answers

def test_each_question_is_one_ruling_under_the_topic_or_card_heading_above_it():
    blocks = segment("""\
GENERAL RULES

Challenges

Q: Are abilities that trigger on banishing part of the challenge?
   A: They happen during the challenge (see rule 4.6.9).
      Example: Cheshire Cat banishes Marshmallow.

Q: Does a shifted stack count once?
   A: Yes.

SPECIFIC CARDS

Belle – Strange but Special

Q: Can I use Read a Book twice?
   A: Each copy of Belle can apply her ability once per turn.
""")
    assert [(b.label, b.section) for b in blocks] == [
        ("q1", ("Rules", "General Rules", "Challenges")), ("q2", ("Rules", "General Rules", "Challenges")),
        ("q3", ("Rules", "Specific Cards", "Belle – Strange but Special"))]
    assert blocks[0].text.endswith("A: They happen during the challenge (see rule 4.6.9).")
    assert blocks[0].example_texts == ["Cheshire Cat banishes Marshmallow."]


# A PDF's summary of changes: a bullet alone on its line over its text, a blank line after most lines, even inside a
# sentence that wraps from a full line.
WRAPPED_SUMMARY = """Harbour Rules Reference

Summary of Changes

●
Added our address.

●
Rewrote the trading rules so that every port trades the same goods in the same order, now that ships

carry more than one kind of good (section 4).

●
Removed the storm rules.

1. Ships

A ship holds at most four goods and moves before it trades, whatever the port it starts its turn in, unless

a storm holds it in port.

1.1 A ship in port may not be attacked.
"""


def test_a_blank_line_after_a_full_line_whose_sentence_goes_on_parts_no_paragraph():
    blocks = segment(WRAPPED_SUMMARY)
    texts = [b.text for b in blocks]
    assert "● Rewrote the trading rules so that every port trades the same goods in the same order, now that ships " \
           "carry more than one kind of good (section 4)." in texts
    assert any(text.endswith("unless a storm holds it in port.") for text in texts)
    assert "● Added our address." in texts and "● Removed the storm rules." in texts  # short lines end their bullet


def test_text_left_of_an_answers_margin_after_a_blank_line_ends_the_answer():
    blocks = segment("Q: Does shifting remove damage?\n   A: No, any damage remains.\n\n"
                     "Support (Whenever this character quests, add its strength.)\n")
    assert [b.kind for b in blocks] == ["question", "paragraph"]
    assert blocks[0].text == "Does shifting remove damage? A: No, any damage remains."



def test_a_paragraph_ending_in_a_question_is_one_with_its_context_sentences():
    blocks = segment("### Knights\n\nI attack with both knights. Can each of them charge?\n\n"
                     "Yes. Each knight resolves its own charge.\n")
    assert [b.kind for b in blocks] == ["question"]
    assert blocks[0].text.startswith("I attack with both knights.")
    assert blocks[0].text.endswith("Each knight resolves its own charge.")
    # Where blank lines part paragraphs, a question never runs back over one.
    apart = segment("### Movement\n\nUnits move one hex at a time, in any direction\n\nCan a unit move twice?\n\nNo.\n")
    assert [b.text for b in apart if b.kind == "question"] == ["Can a unit move twice? No."]


def test_a_characters_quoted_question_or_a_tag_question_is_prose_but_a_quoted_word_in_a_question_asks():
    blocks = segment("### Conceding\n\nAmanda says, “So, what are you trying to avoid here?”\n\n"
                     "Lenny says, “Well, I don’t want to get killed.”\n\n"
                     "Still, it’s better than being taken out, right?\n\nCynere takes the hit.\n")
    assert not [b for b in blocks if b.kind == "question"]
    asked = segment("### Cards\n\nDoes a card trashed facedown count as “accessed?”\n\nNo.\n")
    assert [b.kind for b in asked] == ["question"]


def test_a_list_under_an_unnumbered_heading_is_not_numbered_within_the_documents_numbered_title():
    # "# Chapter 7: Combat" numbers the chapter the document is; the steps of "Make an Attack" under it are 1, 2.
    steps = segment("# Chapter 7: Combat\n\n## Attacks\n\n### Make an Attack\n\nAn attack goes so.\n\n"
                    "1. **Aim.** Pick a target.\n2. **Roll.** Roll the dice.\n")
    assert [b.label for b in steps if b.kind != "paragraph"] == ["1", "2"]
    # An appendix's unnumbered part numbers its list within the appendix: C.1, C.2.
    appendix = segment("# Laws\n\n## C. Notation\n\n### Description\n\n1. Each piece is a letter.\n"
                       "2. Pawns are not lettered.\n")
    assert [b.label for b in appendix if b.kind != "paragraph"] == ["C.1", "C.2"]


def test_a_numbered_step_that_asks_among_steps_that_do_not_is_a_step():
    blocks = segment("### Using Abilities\n\nThe player checks the following in order:\n\n"
                     "1. Check the timing: may the ability be used now?\n"
                     "2. Pay its cost.\n3. Resolve its effect.\n")
    assert not [b for b in blocks if b.kind == "question"]
    numbered = segment("### Movement\n\n1. Can a unit move twice?\nNo, once a turn.\n\n"
                       "2. May a unit retreat after moving?\nYes.\n")
    assert [b.kind for b in numbered] == ["question", "question"]


# A PDF read with a blank line between all its lines, broken at each card name set in italics.
SPACED_FAQ = """Cards FAQ

Ada Sterling [31]

(AY-da STER-ling)

What happens if the raider plays

Swap

 to trade places with

Ada Sterling

?

Ada enters play with her

Old Guard

 side faceup.

If the raider ends a raid with no cards taken, does

Ada Sterling

 flip at the end of the turn?

No, at least 1 card must be taken to flip her.

Watchtower

 still sees it. Too bad!

Boarded! [33]

Can the raider board a ship in port?

No. A ship in port is safe.

♦Night Raid [32]

Can the raider discard

Night Raid

 itself as one of the cards discarded for its extra cost?

No. An event leaves the hand before its cost is paid.
""" + "\nand more text of the last answer that runs on\n" * 40


def test_a_question_over_several_lines_of_a_spaced_out_pdf_is_one_unit_under_its_card():
    questions = [b for b in segment(SPACED_FAQ) if b.kind == "question"]
    assert [(b.section[-1], b.text[:30]) for b in questions] == [
        ("Ada Sterling [31]", "What happens if the raider pla"),
        ("Ada Sterling [31]", "If the raider ends a raid with"),
        ("Boarded! [33]", "Can the raider board a ship in"),  # a card's "!" is part of its name
        ("♦Night Raid [32]", "Can the raider discard Night R")]
    assert "Ada enters play with her Old Guard side faceup." in questions[0].text
    assert questions[1].text.endswith("Watchtower still sees it. Too bad!")  # no heading inside an answer


# Release notes read from a spaced-out PDF: an essay whose long paragraph asks on its way, a line ending at its "?",
# then an FAQ whose question sets its case out in two sentences first.
ESSAY_THEN_FAQ = """Release Notes

These notes explain the new rules.

Dropped Rules: Old Timing

Before this update, the rules said that two effects joined by a word resolved together. This was called the

joined effects rule, and it was a simple way of making sure both effects happened at once: there was no moment

at which one effect had happened without the other, so any reaction had to wait until both were done. The trouble

was that doing two things together was never defined, above all when a quick effect was joined to a long one with

steps of its own, like a raid that takes many turns to finish and lets players act in between. When has the quick

effect happened?

The new system needs no such rule, since every part of an instruction now shares one window.

Harbour Master [12]

Suppose the raider holds two ships in port. One ship is sunk by a storm. Can the raider still

trade with the harbour?

Yes. The harbour trades with any ship in port.
""" + "\nand more text of the last answer that runs on\n" * 40


def test_a_long_passage_that_asks_on_its_way_is_a_paragraph_and_a_question_setting_its_case_out_is_one():
    blocks = segment(ESSAY_THEN_FAQ)
    assert [b.kind for b in blocks if b.kind == "question"] == ["question"]
    question = next(b for b in blocks if b.kind == "question")
    assert question.section[-1] == "Harbour Master [12]" and question.text.startswith("Suppose the raider holds")
    assert any("When has the quick effect happened?" in b.text for b in blocks if b.kind != "question")

def test_questions_a_flattened_page_runs_together_as_bullets_are_one_unit_each():
    blocks = segment("Combat ends when all enemies are down.\n\n"
                     "Common Questions •   Is there a turn limit?    No, play goes on until one side wins.  "
                     "•   I cast Fireball twice. What happens?   Each cast deals its damage once. 18\n\n"
                     "Copies When a spell is copied, each copy is a separate spell.\n")
    questions = [b for b in blocks if b.kind == "question"]
    assert [(b.section[-1], b.text) for b in questions] == [
        ("Common Questions", "Is there a turn limit? No, play goes on until one side wins."),
        ("Common Questions", "I cast Fireball twice. What happens? Each cast deals its damage once. 18")]
    assert blocks[-1].kind == "paragraph"  # the next page is no part of the last answer

def test_a_heading_in_capitals_set_over_two_lines_is_one_heading():
    # A publisher's chapter heads run over two lines: "THE POLITICS" / "OF MIDDLE-EARTH" kept only its last line,
    # "FORTIFICATIONS, CITIES," was glued into the rules before it, "THE HUNT FOR" was lost.
    blocks = segment("SETUP\nPlace the board on the table.\n\n"
                     "THE POLITICS\nOF MIDDLE-EARTH\nEach Nation has a position on the political track.\n\n"
                     "FORTIFICATIONS, CITIES,\nSTRONGHOLDS, AND SIEGES\nA Stronghold can be besieged.\n\n"
                     "THE HUNT FOR\nTHE RING\nThe Shadow player hunts the Fellowship each turn.\n\n"
                     "THE ONE RING AND THE\nQUEST FOR\nMOUNT DOOM\nThe Fellowship may enter Mordor.\n\n"
                     "COMBAT\nROLL ONE DIE PER UNIT\nHits are taken as casualties.\n\n"
                     "4. RULES FOR THE FINAL ROUND\nOF THE COMPETITION\n4.1 Eight teams play the final round.\n")
    assert [(b.section[-1], b.text) for b in blocks] == [
        ("Setup", "Place the board on the table."),
        ("The Politics of Middle-Earth", "Each Nation has a position on the political track."),
        ("Fortifications, Cities, Strongholds, and Sieges", "A Stronghold can be besieged."),
        ("The Hunt for the Ring", "The Shadow player hunts the Fellowship each turn."),
        ("The One Ring and the Quest for Mount Doom", "The Fellowship may enter Mordor."),
        ("Roll One Die Per Unit", "Hits are taken as casualties."),
        ("Rules for the Final Round of the Competition", "Eight teams play the final round.")]


def test_a_heading_in_capitals_with_accented_capitals_is_a_heading():
    # A French rulebook's "CARTES ÉVÉNEMENT" and "ATTAQUE LATÉRALE" were text of the section before them, while
    # "CARTES PERSONNAGE" headed its own.
    blocks = segment("CARTES PERSONNAGE\n\nLes personnages sont placés sur la scène.\n\n"
                     "CARTES ÉVÉNEMENT\n\nUn événement est joué depuis la main.\n\n"
                     "ATTAQUE LATÉRALE\n\nLe défenseur perd des âmes.\n\nÜBERSICHT\n\nJeder Spieler zieht.\n")
    assert [(b.section[-1], b.text) for b in blocks] == [
        ("Cartes Personnage", "Les personnages sont placés sur la scène."),
        ("Cartes Événement", "Un événement est joué depuis la main."),
        ("Attaque Latérale", "Le défenseur perd des âmes."),
        ("Übersicht", "Jeder Spieler zieht.")]


def test_questions_set_on_lines_of_their_own_each_answered_under_them_are_one_unit_each():
    # A PDF FAQ whose bold questions lost their bold and the space between them: 14 questions and answers were two
    # paragraphs of 293 and 230 words.
    blocks = segment("Frequently Asked Questions\n"
                     "The following are some questions that typically come up.\n"
                     "Can I move diagonally? Can the Dictator place militia diago-\n"
                     "nally?\n"
                     "Adjacency always means orthogonally (up, down, left right),\n"
                     "never diagonal.\n"
                     "Can militia do _____?\n"
                     "No. The only thing militia can do is defend your sector against\n"
                     "enemy combatants.\n"
                     "It seems impossible for a MERC to take out a group of mili-\n"
                     "tia. Is there some trick to it?\n"
                     "Militia are meant to be tough.\n"
                     "Don't forget teamwork.\n")
    assert [(b.kind, b.text) for b in blocks] == [
        ("paragraph", "The following are some questions that typically come up."),
        ("question", "Can I move diagonally? Can the Dictator place militia diago- nally? Adjacency always means "
         "orthogonally (up, down, left right), never diagonal."),
        ("question", "Can militia do _____? No. The only thing militia can do is defend your sector against enemy "
         "combatants."),
        ("question", "It seems impossible for a MERC to take out a group of mili- tia. Is there some trick to it? "
         "Militia are meant to be tough. Don't forget teamwork.")]


def test_a_numbered_title_naming_its_topic_before_a_colon_heads_the_rules_numbered_under_it():
    # "9.  Challenge 1: simple navigation challenge" over 9.1 … 9.6 was a rule "8 9" of the chapter before, and its
    # rules sat under no section.
    blocks = segment("8.  Competition Committee\nThe committee has three members.\n"
                     "9.  Challenge 1: simple navigation challenge\n9.1.  Objective\nThe car completes one lap.\n"
                     "9.2.  Traffic signals\nNo signals are used.\n"
                     "10.  Note: the jury decides\n")
    assert [(b.label, b.section) for b in blocks][:3] == [
        ("1", ("Rules", "8. Competition Committee")),
        ("9.1", ("Rules", "Challenge 1: simple navigation challenge")),
        ("9.2", ("Rules", "Challenge 1: simple navigation challenge"))]


def test_a_number_set_apart_from_its_title_by_a_dash_heads_like_one_without():
    # An expansion's AI rules number their parts "1 - Use Common Sense", "2 - Setup" over "2.1 - No Hand": parts 1,
    # 3 and 4 were no headings, their text glued to the rule before them (a judge citing 3.6 read part 4's preamble).
    blocks = segment("1 - Use Common Sense\nAssume the Dictator makes the best choice.\n"
                     "2 - Setup\nHere is how to set up the AI.\n2.1 - No Hand\nThe Dictator has no hand.\n"
                     "3 - MERC Actions\nFollow the rules in order.\n3.1 - If his MERCs are not equipped\n"
                     "His MERCs will explore.\n4 - Special Events\nSome events need handling.\n")
    assert [(b.section[-1], b.text) for b in blocks if b.kind != "rule"] == [
        ("1 Use Common Sense", "Assume the Dictator makes the best choice."),
        ("2 Setup", "Here is how to set up the AI."),
        ("3 MERC Actions", "Follow the rules in order."),
        ("4 Special Events", "Some events need handling.")]


def test_bulleted_questions_each_answered_on_the_lines_under_them_are_one_unit_each():
    # A publisher's FAQ page: each question a bullet, its answer on the lines under it at the margin (a PDF keeps no
    # indent). All eight questions and answers were one "question" of 466 words.
    blocks = segment("Frequently Asked Questions\n"
                     "• What if a card conflicts with the Instructions?\n"
                     "If the Ability on a card violates a rule in the Instructions, the card takes precedence.\n"
                     "• If I defeat a Hero during my turn and action symbols are uncovered, may I perform those\n"
                     "actions on this turn?\n"
                     "Yes. If an action symbol at your location is uncovered during your turn, you may perform\n"
                     "the action.\n"
                     "• If multiple Heroes are at one location, do I have to defeat them in order?\n"
                     "No. You may choose which Hero to defeat.\n")
    assert [(b.kind, b.section[-1], b.text) for b in blocks] == [
        ("question", "Frequently Asked Questions", "What if a card conflicts with the Instructions? If the Ability "
         "on a card violates a rule in the Instructions, the card takes precedence."),
        ("question", "Frequently Asked Questions", "If I defeat a Hero during my turn and action symbols are "
         "uncovered, may I perform those actions on this turn? Yes. If an action symbol at your location is "
         "uncovered during your turn, you may perform the action."),
        ("question", "Frequently Asked Questions", "If multiple Heroes are at one location, do I have to defeat "
         "them in order? No. You may choose which Hero to defeat.")]


# g. Glossary

def test_a_glossary_becomes_one_ruling_per_term():
    blocks = segment("""\
1.1.1 Play nice.

Glossary
ability
Special rules explaining what the card can do.
alter a starting hand
When a player chooses to modify their starting hand at the beginning of the game after each player has
drawn their starting hand.
banish/banished
When a character is put from play into their discard.
Draw step
The third step of the Start-of-Turn Phase.
""")
    terms = [b for b in blocks if b.kind == "glossary"]
    assert [(b.title, b.label) for b in terms] == [
        ("ability", "ability"), ("alter a starting hand", "alter-a-starting-hand"),
        ("banish/banished", "banish-banished"), ("Draw step", "draw-step")]
    assert terms[1].text.endswith("after each player has drawn their starting hand.")
    assert {b.section for b in terms} == {("Rules", "Glossary")}


def test_a_glossary_of_one_line_definitions_gives_one_ruling_per_term():
    blocks = segment("## Definitions\n\nHex: one space of the map.\n\nZone of control: the hexes around a unit.\n")
    assert [(b.kind, b.title, b.text) for b in blocks] == [("glossary", "Hex", "one space of the map."),
                                                           ("glossary", "Zone of control", "the hexes around a unit.")]


def test_an_appendix_of_definitions_is_a_glossary_whatever_part_number_heads_it():
    # Tournament rules' "## Appendix B - Definition of Terms": 19 "**Term:** definition" entries cited "¶1"…"¶19".
    blocks = segment("## Appendix B - Definition of Terms\n\nRating: a value the network publishes.\n\n"
                     "Round: the period of play.\n")
    assert [(b.kind, b.title) for b in blocks] == [("glossary", "Rating"), ("glossary", "Round")]


# A comprehensive rulebook's glossary: each term alone on its line, its definition on the next, blank lines
# between entries, a bare "Glossary" line over them and "Credits" after them.
TERM_LINES = """\
704.5j If two or more legendary permanents with the same name are controlled by the same player, that player
chooses one of them, and the rest are put into their owners' graveyards. This is called the "legend rule."

Glossary

Ability
1. Text on an object that explains what that object does or can do.
2. An activated or triggered ability on the stack.
See rule 113, “Abilities.”

Excess Damage
Damage dealt to a creature beyond lethal damage. See rule 702.19, “Trample.”

Legend Rule
A state-based action that causes a player who controls two or more legendary permanents with the same
name to choose one of them.
Others go. See rule 704.5j.

Trample
A keyword ability that modifies how a creature assigns combat damage. See rule 702.19, “Trample.”

Credits

Original Game Design: Richard Garfield, with thanks to the many playtesters and rules editors involved.
"""


def test_a_glossary_of_term_lines_and_blank_lines_gives_one_ruling_per_term():
    blocks = segment(TERM_LINES)
    terms = [b for b in blocks if b.kind == "glossary"]
    assert [b.title for b in terms] == ["Ability", "Excess Damage", "Legend Rule", "Trample"]
    assert {b.section for b in terms} == {("Rules", "Glossary")}
    # Numbered senses belong to their term; the definition's opening word is not a doubled word.
    assert terms[0].text.startswith("1. Text on an object") and terms[0].text.endswith("“Abilities.”")
    assert terms[1].text.startswith("Damage dealt to a creature")
    assert terms[2].text.endswith("See rule 704.5j.")


def test_a_term_line_out_of_alphabetical_order_ends_the_glossary():
    credits = [b for b in segment(TERM_LINES) if "Garfield" in b.text]
    assert [(b.kind, b.section) for b in credits] == [("paragraph", ("Rules", "Credits"))]


def test_a_glossary_line_in_a_list_of_contents_opens_no_glossary():
    blocks = segment("Contents\n\n1. Game Concepts\n100. General\nGlossary\nCredits\n\n"
                     "1. Game Concepts\n\n100. General\n\n100.1. These rules apply to any game.\n")
    assert not [b for b in blocks if b.kind == "glossary" or "Glossary" in b.section]


def test_glossary_lines_of_term_then_dash_colon_or_full_stop():
    blocks = segment("Definitions\n\nHex. One space of the map.\nStack: cards waiting to resolve.\n"
                     "Zone of control — the hexes around a unit.\n")
    assert [(b.kind, b.title, b.text) for b in blocks] == [
        ("glossary", "Hex", "One space of the map."), ("glossary", "Stack", "cards waiting to resolve."),
        ("glossary", "Zone of control", "the hexes around a unit.")]


def test_markdown_headings_under_a_glossary_are_its_terms_and_never_terms_themselves():
    blocks = segment("## Glossary\n\n### Fading\n\nWhat happens to old runes.\n\nIt is slow.\n\n"
                     "### Rune\n\nA mark on a tablet.\n- It cannot be moved.\n\n## Golden Rules\n\n"
                     "Cards override this guide.\n")
    assert [(b.kind, b.title, b.section[-1]) for b in blocks] == [
        ("glossary", "Fading", "Glossary"), ("glossary", "Rune", "Glossary"),
        ("paragraph", "Cards override this guide.", "Golden Rules")]
    assert blocks[0].text == "What happens to old runes. It is slow."  # the whole definition, up to the next heading
    assert blocks[1].text == "A mark on a tablet. - It cannot be moved."


def test_a_two_column_table_under_a_glossary_heading_is_one_entry_per_row_in_the_tables_order():
    blocks = segment("## Definitions\n\n| Terms | Definitions |\n| Player | Any person playing the game. |\n"
                     "| Match | The basic contest between opposing sides. |\n\nThe clauses in italics apply to Para only.\n\n"
                     "## Court\n\nThe court shall be a rectangle.\n")
    assert [(b.kind, b.title, b.text) for b in blocks] == [
        ("glossary", "Player", "Any person playing the game."),
        ("glossary", "Match", "The basic contest between opposing sides."),  # out of alphabetical order
        ("paragraph", "The clauses in italics apply to Para only.", "The clauses in italics apply to Para only."),
        ("paragraph", "The court shall be a rectangle.", "The court shall be a rectangle.")]


def test_an_alphabetical_run_of_headings_is_a_glossary_even_without_a_glossary_heading():
    words = ["Abilities", "Accuracy", "Blast", "Cleave", "Damage", "Exhaust", "Focus", "Health", "Push"]
    text = "## Reference\n\n" + "".join(f"### {w}\n\nWhat {w.lower()} does.\n\n" for w in words)
    assert [(b.kind, b.title) for b in segment(text)] == [("glossary", w) for w in words]
    shuffled = "## Reference\n\n" + "".join(f"### {w}\n\nWhat {w.lower()} does.\n\n" for w in reversed(words))
    assert {b.kind for b in segment(shuffled)} == {"paragraph"}



# A markdown rules reference (in the outline dialect the reader writes) laid out as the real ones are: front sections, a "## Glossary" heading with only an
# introduction, more front sections, then the entries as "###" headings in alphabetical order (after "## Timing",
# which the markdown nesting would make their parent), each with paragraphs, bullet lists, "####" sub-headings,
# numbered steps and a closing "Related Topics" line.
REFERENCE_WORDS = ["Abilities", "Accuracy", "Blast", "Cleave", "Damage", "Exhaust", "Focus", "Health"]
# Further entries, after "Health": with REFERENCE's, a rules reference's run of thirty.
LONGER_REFERENCE_WORDS = [f"{w} {n}" for w in ("Hidden", "Jump", "Knockdown", "Loot", "Melee", "Ranged", "Stun")
                          for n in range(1, 4)]
REFERENCE = ("# Skirmish Reference\n\n## Glossary\n\nThis section lists every rule in alphabetical order.\n\n"
             "## Timing\n\nResolve mission rules first.\n\n"
             "### Attacks\n\nFigures attack hostile figures.\n\nEach attack has a type.\n\n"
             "- A figure attacks once.\n  - Unless an ability says otherwise.\n\n"
             "#### Steps of an Attack\n\nResolve these steps:\n\n"
             "1. Declare Target: Choose a target.\n2. Roll Dice: Roll the dice.\n"
             "   - Each die may be rerolled once.\n3. Deal Damage: The target suffers damage.\n\n"
             "- Attacks by objects skip step 1.\n\nAfter the last step the attack ends.\n\n"
             "Related Topics: Blast, Damage\n\n"
             + "".join(f"### {w}\n\nWhat {w.lower()} does.\n\nRelated Topics: Attacks\n\n" for w in REFERENCE_WORDS))


def test_an_alphabetical_run_of_entries_sits_in_the_glossary_not_under_the_section_before_it():
    blocks = segment(REFERENCE)
    entries = [b for b in blocks if b.kind == "glossary"]
    assert [b.title for b in entries] == ["Attacks", *REFERENCE_WORDS]
    assert {b.section for b in entries} == {("Rules", "Skirmish Reference", "Glossary")}
    assert [b.section[-1] for b in blocks if b.text == "Resolve mission rules first."] == ["Timing"]
    # Without a glossary heading a rules reference's run (thirty entries or more) sits at the document's root,
    # beside the section it follows (one of the document's sections), not in it.
    longer = "".join(f"### {w}\n\nWhat {w.lower()} does.\n\n" for w in LONGER_REFERENCE_WORDS)
    plain = segment(REFERENCE.replace("## Glossary\n\nThis section lists every rule in alphabetical order.",
                                      "## Golden Rules\n\nCards override this guide.") + longer)
    assert {b.section for b in plain if b.kind == "glossary"} == {("Rules", "Skirmish Reference")}
    # A few headings in alphabetical order under a section with text of its own are its parts, no glossary.
    parts = segment(REFERENCE.replace("## Glossary\n\nThis section lists every rule in alphabetical order.",
                                      "## Golden Rules\n\nCards override this guide."))
    assert not any(b.kind == "glossary" for b in parts)
    assert {b.section[:3] for b in parts if b.text.startswith("What")} == {("Rules", "Skirmish Reference", "Timing")}
    # A section with no text of its own right over the run holds it ("## Cards", then the card entries).
    held = segment(REFERENCE.replace("## Timing\n\nResolve mission rules first.", "## Cards"))
    assert {b.section for b in held if b.kind == "glossary"} == {("Rules", "Skirmish Reference", "Glossary")}
    held = segment(REFERENCE.replace("## Glossary\n\nThis section lists every rule in alphabetical order.",
                                     "## Golden Rules\n\nCards override this guide.")
                   .replace("## Timing\n\nResolve mission rules first.", "## Cards"))
    assert {b.section for b in held if b.kind == "glossary"} == {("Rules", "Skirmish Reference", "Cards")}


def test_an_entry_holds_its_whole_definition_and_its_sub_headings_and_steps_are_units_of_it():
    blocks = segment(REFERENCE)
    attacks, steps, *numbered = [b for b in blocks if "Attacks" in (b.title, *b.section)]
    assert attacks.text == ("Figures attack hostile figures. Each attack has a type. - A figure attacks once. "
                            "- Unless an ability says otherwise.")
    assert (steps.title, steps.section[-1], steps.parent) == ("Steps of an Attack", "Attacks", attacks.label)
    # The list after the steps and the paragraph after it come back to the sub-heading's unit, not to step 3.
    assert steps.text == "Resolve these steps: - Attacks by objects skip step 1. After the last step the attack ends."
    assert [(b.label, b.kind, b.section[-1], b.parent) for b in numbered] == [
        (n, "rule", "Steps of an Attack", steps.label) for n in ("1", "2", "3")]
    assert numbered[1].text == "Roll Dice: Roll the dice. - Each die may be rerolled once."
    assert numbered[2].text == "Deal Damage: The target suffers damage."


def test_a_related_topics_line_is_a_link_of_its_entry_never_text():
    doc = MappedText.of(REFERENCE)
    blocks = parse_outline(doc, ("Rules",))
    assert not [b for b in blocks for s, e in b.pieces if "Related Topics" in doc.text[s:e]]
    attacks = next(b for b in blocks if b.title == "Attacks")
    assert [doc.text[s:e] for s, e in attacks.related] == ["Related Topics: Blast, Damage"]  # after its steps too
    assert sum(len(b.related) for b in blocks) == 1 + len(REFERENCE_WORDS)
    # Outside a glossary a "See also:" line belongs to the unit it follows.
    (rule,) = parse_outline(MappedText.of("## Combat\n\nUnits fight.\n\nSee also: Morale, Retreat\n"), ("Rules",))
    assert len(rule.related) == 1 and rule.pieces == [(11, 23)]  # "Units fight." alone


def test_a_glossary_letter_heading_groups_entries_and_an_acronym_heading_keeps_its_capitals():
    blocks = segment("## Glossary\n\n### A\n\n#### Attack\n\nA roll against a target.\n\n"
                     "### X\n\n#### XP\n\nExperience points.\n")
    assert [(b.kind, b.title, b.section[-1]) for b in blocks] == [
        ("glossary", "Attack", "A"), ("glossary", "XP", "X")]


# h. Change lists

def test_rule_numbers_in_a_bulleted_change_list_are_bullet_text_not_rulings():
    blocks = segment("1. RULES\n   1.1. General\n      1.1.1. A rule.\n      4.3.4.2. Another rule.\n\n"
                     "Update Summary\nThe following updates were made.\n\n"
                     "•    4.3.4.2. Added language lining up triggered abilities.\n"
                     "•    1.1.1. Adjusted the wording.\n")
    assert [b.label for b in blocks if b.kind == "rule"] == ["1.1.1", "4.3.4.2"]
    (changes,) = [b for b in blocks if b.kind != "rule"]
    assert changes.text.endswith("• 4.3.4.2. Added language lining up triggered abilities. "
                                 "• 1.1.1. Adjusted the wording.")


# i. Front matter

def test_paragraphs_before_the_first_heading_or_rule_are_front_matter():
    blocks = segment("Skirmish rules, version 2.0.\nEffective July 9, 2026.\n\nBy the Skirmish team.\n\n"
                     "1.1 The game is played by two players.\n")
    assert [(b.kind, b.section) for b in blocks] == [("front-matter", ("Rules", "Front Matter")),
                                                     ("front-matter", ("Rules", "Front Matter")),
                                                     ("rule", ("Rules",))]


# The Lorcana comprehensive rules (pdftotext -layout)

def numbered_rules(text):
    """The rule numbers the document shows: numbered lines that are not bullets and not section titles."""
    found = set()
    for match in re.finditer(r"(?m)^\s{0,16}(\d+\.\d+(?:\.\d+)*)\.?\s+(\S.*)$", text):
        body = match.group(2).strip()
        if re.search(r"[.:;!?]", body) or len(body.split()) > 8:
            found.add(match.group(1))
    return found


def test_every_numbered_lorcana_rule_is_its_own_ruling(lorcana):
    expected = numbered_rules(lorcana_lines())
    labels = [b.label for b in lorcana if b.kind == "rule"]
    assert len(labels) == len(set(labels))
    assert len(set(labels) ^ expected) <= len(expected) // 100, sorted(set(labels) ^ expected)
    assert len(expected) > 450


def test_no_lorcana_ruling_holds_the_start_of_another_rule(lorcana):
    for block in lorcana:
        for text in [block.text, *block.example_texts]:
            for match in re.finditer(r"\s\d+\.\d+\.\d+\.\s+[A-Z]", text):
                before = text[max(0, match.start() - 12):match.start()]
                # a cross-reference ("see 1.10", "in section 6.1.8.") or a changelog bullet, never a rule
                assert re.search(r"(?:section|see|rule|in|and|through|•)$", before, re.IGNORECASE), (block.label, text)


def test_a_lorcana_rules_example_holds_its_own_example_and_not_the_next_rule(lorcana):
    rules = by_label(lorcana)
    (mufasa,) = rules["1.2.1"].example_texts
    assert mufasa.startswith("Mufasa – Betrayed Leader has an ability called The Sun Will Set")
    assert mufasa.endswith("superseding that rule.")
    assert "1.2.2" not in mufasa and "Tiana" not in mufasa
    assert rules["1.2.1"].section == ("Rules", "Concepts", "1.2 Golden Rules")
    examples = sum(len(b.examples) for b in lorcana)
    assert examples == len(re.findall(r"(?m)^\s*Example(?: [A-Z])?:", lorcana_lines()))


def test_lorcana_keyword_rules_are_rulings_under_their_keyword(lorcana):
    rules = by_label(lorcana)
    for keyword, labels in (("8.3 Bodyguard", ["8.3.1", "8.3.2", "8.3.3"]), ("8.6 Evasive", ["8.6.1"]),
                            ("8.11 Singer", ["8.11.1", "8.11.2", "8.11.3"])):
        for label in labels:
            assert rules[label].section == ("Rules", "Keywords", keyword)
    assert rules["8.3.1"].text == "The Bodyguard keyword represents two abilities."
    assert rules["6.1.1"].section == ("Rules", "Abilities, Effects, and Resolving", "6.1 General")
    assert rules["1.9.4.2"].parent == "1.9.4"


def test_the_lorcana_glossary_is_one_ruling_per_term(lorcana):
    terms = {b.title: b for b in lorcana if b.kind == "glossary"}
    assert len(terms) > 95
    assert terms["alter a starting hand"].text.startswith("When a player chooses to modify their starting hand")
    assert terms["bag"].text.startswith("A non-physical zone where triggered abilities wait")
    assert terms["challenge"].text.endswith("to the other character or the location.")
    assert terms["Willpower #"].text == "How much damage it takes to banish a character or location."
    assert all(len(b.text) < 1000 for b in terms.values())


def test_stray_page_footers_do_not_break_rules_or_terms():
    blocks = segment(lorcana_lines(footers=True))
    labels = {b.label for b in blocks if b.kind == "rule"}
    expected = numbered_rules(lorcana_lines())
    assert len(labels ^ expected) <= len(expected) // 100
    assert sum(b.kind == "glossary" for b in blocks) > 95


# The Lorcana set notes (Q:/A: under topics and card names)

def test_the_set_notes_give_one_ruling_per_question_under_its_heading(set_notes_text):
    blocks = segment(set_notes_text)
    questions = [b for b in blocks if b.kind == "question"]
    assert len(questions) == len(re.findall(r"(?m)^\s*Q[:.]", set_notes_text))
    assert questions[0].section == ("Rules", "General Rules", "Challenges")
    belle = [b for b in questions if b.section[-1] == "Belle – Strange but Special"]
    assert len(belle) == 2
    assert belle[0].example_texts[0].startswith("If you have 2 copies of Belle")
    facilier = [b for b in questions if b.section[-1] == "Dr. Facilier – Agent Provocateur"]
    assert facilier[0].text.startswith("If I control Dr. Facilier")


# g. Text extracted from a word processor's or DTP's PDF: no blank lines, no markup

PDF_RULEBOOK = """\
Components
• 1 Board map of the routes
• 45 Trains
Setting up the Game
Place the board in the center of the table and give each player the trains of one colour.
Example 1
To claim the route from Toronto
to Montreal, a player plays three cards.
You are now ready to begin.
The Game Turn
The player who is the most experienced traveler goes first, then play passes clockwise.
Each turn a player draws cards, claims a route or draws tickets, and never more than one of
Claiming Routes
as the rule above puts it; a claimed route is closed to others.
1 Summary
card
The caption ends the page.
Game End
When a player has two trains left, each player gets one final turn.
"""


def test_title_case_headings_are_found_by_evidence_in_text_without_blank_lines():
    sections = [b.section[-1] for b in segment(PDF_RULEBOOK)]
    # "Claiming Routes" carries the sentence above on (it ends with "of"), "Example 1" is over a caption
    # fragment, "1 Summary"/"card" stack as a picture's labels: none is a heading.
    assert list(dict.fromkeys(sections)) == ["Components", "Setting up the Game", "The Game Turn", "Game End"]


def test_headings_numbered_without_a_stop_are_found_by_their_sequence_whatever_their_case():
    text = ("League rules for the season.\n1 INTRODUCTION\nThese rules govern every game played in the league.\n"
            "2 Equipment\nEach player brings a painted army and dice, and the tools the rules call for.\n"
            "3 BASIC RULES and what you can do\nYou may move, shoot and assault in each turn, in that order.\n")
    assert [b.section for b in segment(text)][1:] == [
        ("Rules", "1 Introduction"), ("Rules", "2 Equipment"), ("Rules", "3 BASIC RULES and what you can do")]
    counts = "The box holds:\n1 Board\nof the map\n30 Tickets\nand 2 Summary cards.\n"
    assert {b.section for b in segment(counts)} == {("Rules", "Front Matter")}


def test_a_chapter_with_no_rules_under_it_heads_its_text_between_chapters_that_have_them():
    # Chapter 1's heading is lost (a drawing's scrap above it), so the count starts at chapter 2, over its 2.1.
    text = ("]@ F JF\n1 Introduction\nThe game is played over several days of a summer camp.\n"
            "2 Players\n2.1 Goal\nEach player has a goal of their own.\n3 Events\n3.1 Death\n"
            "A player may kill another player with an item.\n4 Factions\nA faction is a group of players.\n"
            "The Dark Army. Creatures serving the first general of darkness.\n5 Items\n5.1 Stones\n"
            "These items are not labelled.\n")
    factions = [b for b in segment(text) if "4 Factions" in b.section]
    assert [b.text for b in factions] == [
        "A faction is a group of players. The Dark Army. Creatures serving the first general of darkness."]


def test_a_list_counted_from_zero_is_items_under_its_lead_in_not_a_heading():
    text = "# Basic Rules\n\n### Capacity\n\nGritty Settings\n\n0. Weightless\n1. Up to 100 lbs\n2. Up to 200 lbs\n\n" \
           "### Falling\n\nYou fall 20 spaces at the end of each of your turns.\n"
    sections = {b.text: b.section for b in segment(text)}
    assert sections["Weightless"] == sections["Up to 100 lbs"] == ("Rules", "Basic Rules", "Capacity", "Gritty Settings")
    assert sections["You fall 20 spaces at the end of each of your turns."] == ("Rules", "Basic Rules", "Falling")


def test_a_numbered_part_under_headings_the_markup_marks_is_a_part_of_the_last():
    text = "# Bonuses\n\n### Conditional Bonuses\n\nCost: 1 Boon per bonus.\n\n1. Avenger\n\n" \
           "- An ally is unconscious.\n\n2. Berserk\n\n- You are at half your Hit Points.\n\n# Gear\n\nBuy gear.\n"
    sections = {b.text: b.section for b in segment(text)}
    assert sections["- You are at half your Hit Points."] == ("Rules", "Bonuses", "Conditional Bonuses", "2. Berserk")
    assert sections["Buy gear."] == ("Rules", "Gear")


def test_the_next_numbered_part_is_a_sibling_of_the_last_whatever_decimals_opened_under_it():
    text = ("# Regatta\n\n1. General\n   1.1. All members of a team are participants.\n   1.2 Acceptance of the rules\n"
            "   1.2.1. By taking part, each competitor accepts these rules.\n2. Boats\n   2.1. Students build the boats.\n")
    sections = {b.label: b.section for b in segment(text)}
    assert sections["1.2.1"] == ("Rules", "Regatta", "General", "1.2 Acceptance of the rules")
    assert sections["2.1"] == ("Rules", "Regatta", "Boats")


def test_a_question_tagged_in_brackets_before_its_label_is_a_question():
    text = ("Kill Team Core Rules FAQ\n"
            "[FAQ] Question: Does each secondary target of a Blast receive an improved cover save\n"
            "too? Answer: Yes.\n"
            "[FAQ] Question: Can something be wholly within a territory while on the centreline?\n"
            "Answer: Yes, but not within the other territory.\n")
    blocks = segment(text)
    assert [b.kind for b in blocks] == ["question", "question"]
    assert blocks[1].text == ("Can something be wholly within a territory while on the centreline? "
                              "Answer: Yes, but not within the other territory.")


def test_run_ins_after_a_numbered_rules_text_are_parts_of_that_rule():
    text = ("### 1.4 Higher Authorities\n\nEach side has an authority over the Lords.\n\n#### 1.4.2 Novgorod Veche\n\n"
            "The Russians have a box on the map for the Veche.\n\nEFFECTS: The Veche can help Muster Lords.\n\n"
            "WASTAGE: The Veche box holds at most eight markers.\n\nCONQUERED: If Novgorod falls, remove all Coin.\n\n"
            "#### 1.4.3 Metropolitan\n\nThe Russians also have a Metropolitan.\n")
    assert [(b.label, b.parent) for b in segment(text)] == [
        ("1.4", None), ("1.4.2", "1.4"), ("1.4.2 EFFECTS", "1.4.2"), ("1.4.2 WASTAGE", "1.4.2"),
        ("1.4.2 CONQUERED", "1.4.2"), ("1.4.3", "1.4")]


def test_chapters_titled_in_a_script_without_capitals_head_their_rules():
    text = ("大会ルールブック\n1 大会運営\n1.1 運営責任者\n運営は三名で行う。\n1.2 本大会について\n本大会は完全非公式大会である。\n"
            "2 日時\n2.1 開催日\n本大会の開催日は以下の二日間とする。\n3 優勝商品\n• ギフト券を五人分とする。\n"
            "4 参加資格\n4.1 チーム\n一チームは五人とする。\n")
    sections = [(b.label, b.section[-1]) for b in segment(text) if b.kind != "front-matter"]
    assert sections == [("1.1", "1 大会運営"), ("1.2", "1 大会運営"), ("2.1", "2 日時"), ("2", "3 優勝商品"),
                        ("4.1", "4 参加資格")]


def test_questions_asked_with_a_full_width_question_mark_are_questions():
    text = ("## 追加されたQ&A\n\n### Q: 相手のバトル場にコバルオンexがいるとき、ワザ「せおいなげ」のダメージはいくつになりますか？\n\n"
            "「120」ダメージになります。\n\n### Q: 同じ番の中で、手札からスタジアムを出すことはできますか？\n\nはい、できます。\n")
    assert [b.kind for b in segment(text)] == ["question", "question"]


def test_a_name_in_title_case_after_a_bullet_run_to_the_width_is_a_heading():
    text = ("Direction Gesture\nThe client points in a direction to tell the artist which way to draw next.\n"
            "• Pointing right relative to the artist stands for, “draw right”\n"
            "• Pointing down-left relative to the artist stands for, “draw down-left”\n"
            "Straight Line Gesture\n"
            "When the client swings their arms up-and-down twice, followed by a Direction\n"
            "Gesture, this informs their artist to draw a straight line.\n")
    assert [b.section[-1] for b in segment(text)] == ["Direction Gesture", "Straight Line Gesture"]


def test_a_number_alone_over_lettered_items_indented_under_it_is_their_parent():
    text = ("How to Strike\n\n10. While taking the stroke, the hand may touch the playing surface.\n\n11.\n\n"
            "   (a) The elbow of the playing hand shall not come within the\n       playing surface.\n\n"
            "   (b) The hand may, however, cross the arrow.\n\n12.\n\n   (a) Taking support of the Stool is not "
            "permissible.\n\n13. The toss is made by the Umpire.\n")
    blocks = segment(text)
    assert [(b.label, b.parent) for b in blocks] == [("10", None), ("11", None), ("11a", "11"), ("11b", "11"),
                                                     ("12", None), ("12a", "12"), ("13", None)]
    assert by_label(blocks)["11b"].text == "The hand may, however, cross the arrow."


def test_a_tables_row_of_abbreviations_heads_nothing():
    text = ("5.1 Kingdoms of Men\nThe kingdoms are loosely united by the high king.\nUnits\nM LP A D SP MD\n"
            "Peassant 4 5 D6 D4 D4 D4\nKnight 6 12 D8 D10 D6 D8\n5.2 Bloodmages\nBloodmages walk a dark path.\n")
    assert {b.section for b in segment(text)} == {("Rules",)}
    # rows of a table of abbreviations laid out in two columns, their numbers those of chapters printed later
    listed = ("1. List of Abbreviations:\nNo. Abbreviation Full form  No. Abbreviation Full form\n"
              "4 BB Blue Block  20 RN Regular Node\n5 CN Central Node  21 S Supply\n"
              "2. Introduction:\nAnts keep the jungle going.\n5. Hardware:\n5.1. Use only the kit's parts.\n")
    assert not any("Supply" in part for b in segment(listed) for part in b.section)


def test_short_rules_listed_under_a_rule_are_rules_and_a_title_closed_by_a_colon_heads_its_rules():
    text = ("3. Mobility\n\n3.1. All robots must have easily visible mobility. Methods include:\n\n"
            "3.1.1. Rolling (wheels or tracks)\n\n3.1.2. Shuffling (rotational cam operated legs)\n\n"
            "3.1.3. Flying (helium balloons)\n\n4. Robot control requirements:\n\n"
            "4.1. Tele-operated robots must be radio controlled.\n\n4.2. Tethered control is not allowed.\n")
    blocks = segment(text)
    assert [(b.label, b.text) for b in blocks if b.label.startswith("3.1.")] == [
        ("3.1.1", "Rolling (wheels or tracks)"), ("3.1.2", "Shuffling (rotational cam operated legs)"),
        ("3.1.3", "Flying (helium balloons)")]
    assert by_label(blocks)["4.2"].section == ("Rules", "Robot control requirements")
    assert "3.4" not in by_label(blocks)


def test_a_units_profile_is_one_unit_under_its_heading_and_named_errata_stay_named():
    text = ('### Troops\n\n- Base cost: 5\n- Health Rank: 2/5\n- Armor: 1/2\n- Movement: 4"/10"\n- Bravery: 5/10\n\n'
            "### Errata\n\n- Sun: R-50, R-51\n- Circles: R-44, R-45\n- Eclipse: R-46, C-81\n")
    blocks = segment(text)
    assert [b.label for b in blocks] == ["1", "Sun", "Circles", "Eclipse"]
    assert blocks[0].text.endswith("Bravery: 5/10")


def test_a_title_in_capitals_of_any_alphabet_reads_in_title_case_and_one_without_case_as_printed():
    from ingest.shapes.dialect import section_title
    assert section_title("KLAUZULA INFORMACYJNA DOTYCZĄCA") == "Klauzula Informacyjna Dotycząca"
    assert section_title("ÉQUIPEMENT DES JOUEURS") == "Équipement Des Joueurs"
    assert section_title("ポケモンカードQ&Aサイレント修正一覧") == "ポケモンカードQ&Aサイレント修正一覧"
    # a part's label in roman numerals stays as printed: "II. Rules of Speech", never "Ii."
    assert section_title("II. RULES OF SPEECH") == "II. Rules of Speech"
    assert section_title("CIVIL WAR") == "Civil War"
    # small capitals a PDF's text layer lowered but for some read as the capitals they are; a name's capital stays
    assert section_title("phAse 2: plAyer turns") == "Phase 2: Player Turns"
    assert section_title("clArIFIcAtIons") == "Clarifications"
    assert section_title("McKay Rules") == "McKay Rules"


def test_chapters_counted_under_the_documents_title_head_their_text_with_or_without_rules_numbered_under_them():
    text = ("Tiny Skirmish Rules\n1 The battlefield\nThe battle is fought on a hex grid.\n1.1 Terrain\n"
            "Terrain blocks movement.\n2 Setup\nEach player places their units.\n3 Card anatomy\n"
            "Initiative marks when the card will resolve.\n4 The turn\nEach turn has three phases.\n4.1 Planning\n"
            "Five cards are drawn.\n5 Deck Construction\nEach deck must have exactly 20 cards.\n")
    sections = {b.text: b.section[-1] for b in segment(text)}
    assert sections["Each player places their units."] == "2 Setup"
    assert sections["Each deck must have exactly 20 cards."] == "5 Deck Construction"
    assert sections["Terrain Terrain blocks movement."] == "1 The battlefield"


def test_a_paragraph_sign_over_a_title_heads_its_article():
    text = ("REGULAMIN\n\n§ 1\n\n## Organizator\n\nOrganizatorem konkursu jest ośrodek w Wodzisławiu.\n\n§ 2\n\n"
            "## Cel konkursu\n\nCelem konkursu jest napisanie aplikacji.\n")
    sections = {b.text: b.section for b in segment(text)}
    assert sections["Organizatorem konkursu jest ośrodek w Wodzisławiu."][-2:] == ("§ 1", "Organizator")
    assert sections["Celem konkursu jest napisanie aplikacji."][-2:] == ("§ 2", "Cel konkursu")


def test_a_set_name_over_a_card_name_over_its_questions_files_them_under_the_card():
    text = ("Summon Indiglow Creeper\nQ: Can I place the status token on the new Seedling?\nA: No. It is not in play yet.\n"
            "The Children of Blackcloud\nBrennen Blackcloud\nQ: What is the cost of Spirit Burn?\n"
            "A: Spirit Burn has no cost.\n")
    sections = {b.text.split("?")[0]: b.section[-1] for b in segment(text)}
    assert sections["What is the cost of Spirit Burn"] == "Brennen Blackcloud"
    assert sections["Can I place the status token on the new Seedling"] == "Summon Indiglow Creeper"


def test_a_numbered_chapter_title_with_commas_heads_the_rules_numbered_under_it():
    blocks = segment("3. Equipment\n3.1. Any disc may be used.\n4. Point, Goal and Game\n"
                     "4.1. A game consists of a number of points.\n")
    assert [(b.label, b.section) for b in blocks] == [("3.1", ("Rules", "Equipment")),
                                                      ("4.1", ("Rules", "Point, Goal and Game"))]
    listed = segment("Steps\n1. Roll, then move\n2. Attack\n")  # a list item with a comma stays an item
    assert [b.label for b in listed] == ["1", "2"]


def test_a_title_case_rule_closed_by_a_colon_heads_its_subrules_and_a_sentence_does_not():
    blocks = segment("8. State of Play\n8.1. Play is dead, and no turnover is possible:\n"
                     "8.1.1. After the start of a point.\n17. Fouls\n17.1. Dangerous Play:\n"
                     "17.1.1. Reckless actions are fouls.\n")
    assert [(b.label, b.section[-1]) for b in blocks] == [
        ("8.1", "State of Play"), ("8.1.1", "State of Play"), ("17.1.1", "17.1 Dangerous Play")]
    assert by_label(blocks)["8.1.1"].parent == "8.1"


def test_subrules_in_lower_case_are_rules_of_their_own_when_their_number_comes_next():
    blocks = segment(
        "1.3. Players should be mindful of the fact that they are acting as referees. Players must:\n"
        "1.3.1. know and abide by the rules;\n1.3.2. be truthful; and\n"
        "1.4. If players cannot agree, or it is not clear and obvious what happened in the play:\n"
        "1.4.1. what occurred, or\n1.4.2. what would most likely have occurred,\n"
        "the disc must be returned to the last non-disputed thrower, as the rules on calls describe it here.\n"
        "1.5. A call is made as soon as the infraction is noticed, as described in section\n"
        "1.4.2 below, and never later than the next throw has been released by the thrower on offence.\n")
    rules = by_label(blocks)
    assert [b.label for b in blocks] == ["1.3", "1.3.1", "1.3.2", "1.4", "1.4.1", "1.4.2", "1.5"]
    assert [rules[label].parent for label in ("1.3.1", "1.3.2", "1.4.2")] == ["1.3", "1.3", "1.4"]
    assert rules["1.3.2"].text == "be truthful; and"
    # The line finishing 1.4's sentence after its list is 1.4's; "1.4.2 below" is a reference, not a rule.
    assert rules["1.4"].text.endswith("in the play: the disc must be returned to the last non-disputed thrower, "
                                      "as the rules on calls describe it here.")
    assert rules["1.4.2"].text == "what would most likely have occurred,"
    assert "1.4.2 below" in rules["1.5"].text


TWO_COLUMN_DEFINITIONS = """\
Definitions
Affect the play  A breach affects the play if the outcome may have been different.
Catch A non-spinning disc trapped between two body parts.
If a player then drops the disc, the initial catch is deemed to have ended.
Goal line The line separating the central zone from each end zone. It is not part of the
end zone
Ground The ground consists of all substantial solid objects.
Making a play on the
disc
When the disc is in the air and a player is attempting to make contact with it.
Out-of-bounds (OB) Everything that is not part of the playing field.
Pivot Location The point where the thrower is required to establish a pivot.
Possession of the
disc
A player establishes possession of a pass when:
- they catch a pass and maintain that catch
Contact with an opponent's arms during a catch is never minor contact, whatever the throw was.
Legal License
This Work is licensed under a Creative Commons Attribution 4.0 license by its author and licensor.
"""


def test_definitions_set_beside_their_terms_give_one_glossary_ruling_per_term():
    blocks = segment(TWO_COLUMN_DEFINITIONS)
    terms = [(b.title, b.text) for b in blocks if b.kind == "glossary"]
    assert [term for term, _ in terms] == [
        "Affect the play", "Catch", "Goal line", "Ground", "Making a play on the disc", "Out-of-bounds (OB)",
        "Pivot Location", "Possession of the disc"]
    text = dict(terms)
    assert text["Catch"].endswith("the initial catch is deemed to have ended.")  # a second paragraph
    assert text["Goal line"].endswith("It is not part of the end zone")  # a lower-case line carries on
    # A line out of alphabetical order carries the definition on ("Contact…" after "Possession"), unless it
    # is a short line over text: then it heads what follows the glossary.
    assert text["Possession of the disc"].endswith("whatever the throw was.")
    assert blocks[-1].section == ("Rules", "Legal License")


def test_a_last_section_stating_the_documents_rights_is_back_matter():
    text = ("Scoring\nA goal is worth one point, scored by catching the disc in the end zone.\n\n"
            "Credits\nGame design by A. Author, art by B. Artist.\n© 2015 Acme Games. All rights reserved.\n")
    assert [(b.section[-1], b.kind) for b in segment(text)] == [("Scoring", "paragraph"), ("Credits", "title")]
    plain = "Scoring\nA goal is worth one point.\n\nVariants\nPlay to ten points in a short game.\n"
    assert [b.kind for b in segment(plain)] == ["paragraph", "paragraph"]


def test_parts_numbered_afresh_right_under_a_decimal_heading_are_its_parts():
    # A print's "1. In Good Standing" right under "2.5.1 Standing": a part of 2.5.1, not a chapter that closes it.
    text = ("2.5 Membership\n2.5.1 Standing\n1. In Good Standing\na. A club that paid its dues is in good standing.\n"
            "b. Only a club in good standing may vote.\n2. Temporary Suspension\na. The commissioner may suspend a "
            "club.\n3. Leave of Absence\na. A club may take one season off.\n2.5.1.1 Change of Status\n"
            "A suspended club may appeal.\n2.5.2 Discipline\nThe league disciplines its clubs.\n2.5.2.1 Authority\n"
            "The commissioner acts for the league.\n")
    blocks = segment(text)
    assert {b.section for b in blocks if b.text.startswith(("A club", "Only", "The commissioner may"))} == {
        ("Rules", "2.5 Membership", "2.5.1 Standing", part) for part in
        ("In Good Standing", "Temporary Suspension", "Leave of Absence")}
    assert next(b for b in blocks if b.label == "2.5.2.1").section[:3] == ("Rules", "2.5 Membership", "2.5.2 Discipline")


def test_a_short_line_ending_on_a_small_word_carries_its_sentence_on_and_heads_nothing():
    text = ("## Joining\n\nAny person may play.\n\nAn unregistered person CAN (unless forbidden or\n"
            "prevented by the rules) register by announcement.\n\nA player CAN deregister at any time.\n")
    blocks = segment(text)
    assert {b.section for b in blocks} == {("Rules", "Joining")}
    assert any(b.text.startswith("An unregistered person CAN (unless forbidden or prevented") for b in blocks)


def test_a_lettered_sections_title_may_hold_a_colon():
    # A club's rules letter their sections; "D. Components: Taking, Returning, Reporting" was no heading, and its
    # rules were cited C.1 and C.2 again.
    blocks = segment("C. Storage & Labelling\n1. Label every box with your team name.\n2. Store parts on shelves.\n"
                     "D. Components: Taking, Returning, Reporting\n1. Log every component you take.\n"
                     "2. Return components within a week.\n")
    assert [(b.label, b.section[-1]) for b in blocks] == [
        ("C.1", "C. Storage & Labelling"), ("C.2", "C. Storage & Labelling"),
        ("D.1", "D. Components: Taking, Returning, Reporting"), ("D.2", "D. Components: Taking, Returning, Reporting")]


def test_a_chapters_lettered_parts_number_its_rules():
    # A federation's rulebook letters each chapter's parts ("1A General", "2B Competitor Rules") and numbers the
    # rules under them 1A.1, 1A.1.1; a "10k." race is an item, not a crash.
    blocks = segment("1A General\n1A.1 Scope of Rules\nThis rulebook governs all competition.\n\n1A.1.1 Unicon\n"
                     "All Unicons must abide by these rules.\n\n1A.2 How to Use This Rulebook\nIt is organized by "
                     "discipline.\n\n2B Racing\n2B.1 Distances\nThe races are:\n9. 100m\n10k. Road race\n")
    rules = by_label(blocks)
    assert {"1A.1", "1A.1.1", "1A.2", "2B.1"} <= set(rules)
    assert rules["1A.1.1"].parent == "1A.1" and rules["1A.1"].title == "Scope of Rules"
    assert rules["1A.1.1"].text == "Unicon All Unicons must abide by these rules."


def test_a_version_line_is_no_roman_item_v():
    blocks = segment("Credits\n\nDesign: Brian Train\n\nv. 2.1-140, 28 August 2015 (edits 23 Dec 2015)\n\n"
                     "Rules\n\ni. Units move.\nii. Units fight.\n")
    assert "v" not in {b.label for b in blocks}
    assert any(b.text.endswith("v. 2.1-140, 28 August 2015 (edits 23 Dec 2015)") for b in blocks)


def test_roman_items_after_a_lettered_subrule_are_that_subrules():
    # Markdown reads "a." and "i." as paragraphs at one margin: the roman items still belong to the letter above.
    text = ("5. A team has five downs.\n   a. Involvement is defined as:\n   i. a pass to a player;\n"
            "   ii. a run by a player.\n   b. These do not count as involvement:\n   i. a hand-off back;\n"
            "   ii. a tipped pass.\n6. The game ends on time.\n")
    assert [b.label for b in segment(text)] == ["5", "5a", "5a.i", "5a.ii", "5b", "5b.i", "5b.ii", "6"]


def test_a_list_under_a_chapter_never_takes_the_numbers_its_sections_print():
    text = ("5 Competition Structure\n\nThe competition aims to:\n\n1. Encourage progress towards the long-term goal.\n"
            "2. Support fair competition between teams.\n\n5.1 Main Competition\n\nTeams play in divisions.\n\n"
            "5.2 Technical Challenges\n\nTeams show a skill.\n")
    blocks = segment(text)
    assert [(b.label, b.text) for b in blocks if b.kind == "rule"] == [
        ("5.1", "Main Competition Teams play in divisions."), ("5.2", "Technical Challenges Teams show a skill.")]
    assert [b.label for b in blocks if b.text.startswith(("Encourage", "Support"))] == ["1", "2"]
    # to its last item: a rules document's turn summary "1." … "4." over its own "16.5.1 Movement" was cited 1–3,
    # then "16.5.4" (a rule the document never prints)
    steps = segment("### 16.5 Turn Flow\n\nTurn summary:\n\n1. Place a ring.\n2. Move that ring.\n3. Overtake.\n"
                    "4. Check lines.\n\n#### 16.5.1 Movement\n\nSelect a ring you control.\n")
    assert [b.label for b in steps if b.kind != "paragraph"] == ["1", "2", "3", "4", "16.5.1"]


def test_a_rule_headings_nested_list_is_its_text_not_its_siblings_numbers():
    text = ("## 3.2 Equipment\n\n#### 3.2.1 Balls\n\nUse the league ball.\n\n#### 3.2.2 Uniforms\n\n"
            "Uniforms protect the league's integrity.\n\n1. Required elements are:\n   1. a jersey and cap;\n"
            "   2. a unique number;\n   3. pants.\n2. A player may not borrow a jersey.\n3. Report violations.\n\n"
            "#### 3.2.3 Bats\n\nWooden bats only.\n")
    blocks = segment(text)
    assert [b.label for b in blocks] == ["3.2.1", "3.2.2", "3.2.3"]
    assert by_label(blocks)["3.2.2"].text.endswith("2. A player may not borrow a jersey. 3. Report violations.")


def test_a_list_an_examples_line_opens_is_the_examples_not_rules_numbered_again():
    text = ("4. A unit that retreats moves one space back:\n"
            "   1. If the space behind it is free, it moves there.\n"
            "   2. If it is blocked, the unit is destroyed.\n"
            "   Examples:\n"
            "   1. A knight in front of an empty field steps back into it.\n"
            "   2. A knight with a river behind it is destroyed.\n"
            "5. A destroyed unit leaves the board.\n")
    blocks = segment(text)
    assert [b.label for b in blocks] == ["4", "4.1", "4.2", "5"]
    # (kept with the last subrule the cut was in, within rule 4's family)
    assert [b.example_texts for b in blocks if b.example_texts] == [[
        "1. A knight in front of an empty field steps back into it. 2. A knight with a river behind it is destroyed."]]


def test_a_list_indented_under_an_examples_line_is_the_examples_however_it_is_numbered():
    # Indented under "Examples:" (not at its margin, where it must count on from 1), every item is an example.
    text = ("4. A unit that retreats moves one space back.\n"
            "Examples:\n"
            "   1. A knight in front of an empty field steps back into it.\n"
            "   3. A knight with a river behind it is destroyed.\n"
            "5. A destroyed unit leaves the board.\n")
    blocks = segment(text)
    assert [b.label for b in blocks] == ["4", "5"]
    assert blocks[0].example_texts == [
        "1. A knight in front of an empty field steps back into it. 3. A knight with a river behind it is destroyed."]


def test_a_numbered_last_section_keeps_its_rules_and_only_its_notice_is_back_matter():
    # The document numbers the section among its rules: a notice's line run on to its text does not make the
    # rules back matter; a paragraph of its own stating the licence does not make its neighbours back matter.
    text = ("1) Setup\nShuffle the deck and deal five cards to each player.\n\n"
            "2) Why It Works\nThe quota keeps every hand tense: missing it costs you a token.\n"
            "Beating it pays one.\n© 2024 Example Games\n")
    assert [b.kind for b in segment(text)] == ["paragraph", "paragraph"]
    scenario = ("1) Setup\nShuffle the deck and deal five cards to each player.\n\n2) The Long Road\nA road winds "
                "through the hills for three days.\n\nThis product is licensed under the ORC License. All rights "
                "reserved.\n")
    assert [(b.section[-1], b.kind) for b in segment(scenario)][1:] == [("2) The Long Road", "paragraph"),
                                                                       ("2) The Long Road", "title")]


def test_a_heading_joining_glossary_words_opens_a_glossary_of_the_entries_under_it():
    blocks = segment("# FAQ\n\n## Definitions and Terms\n\n### Exhaust\n\nTo exhaust a card is to turn it sideways.\n\n"
                     "### Ready\n\nTo ready a card is to turn it upright.\n\n## Terms of Service\n\nPlay fair.\n")
    assert [(b.kind, b.title) for b in blocks if b.kind == "glossary"] == [("glossary", "Exhaust"),
                                                                           ("glossary", "Ready")]
    assert next(b for b in blocks if b.text == "Play fair.").kind != "glossary"


def test_a_chapter_named_keywords_holds_keyword_rules_not_a_glossary():
    blocks = segment("8 Keywords\n\n8.1 Ability Keywords\n\n8.1.1 Go again lets the controller act again.\n")
    assert not any(b.kind == "glossary" for b in blocks)


def test_a_section_numbered_in_the_hundreds_is_shown_with_its_number_under_its_chapter_and_its_id_keeps_its_title():
    blocks = segment("3. Card Types\n\n300. General\n\n300.1. The card types are these.\n\n"
                     "305. Lands\n\n305.1. A player may play a land.\n\n"
                     "306. General\n\n306.1. Another general rule.\n")
    by_label = {b.label: b for b in blocks}
    assert by_label["305.1"].section == ("Rules", "3. Card Types", "305. Lands")
    assert by_label["305.1"].id_section == ("Rules", "Lands")
    assert by_label["300.1"].section == ("Rules", "3. Card Types", "300. General")
    assert by_label["306.1"].id_section == ("Rules", "General")
    chapters = segment("7. Combat\n\n7.1. The attacker rolls.\n\n8. Supply\n\n8.1. Trace a line.\n")
    assert [b.section for b in chapters] == [("Rules", "Combat"), ("Rules", "Supply")]  # a place, not a citation


def test_a_numbered_term_over_its_numbered_definitions_in_a_chapter_of_terms_is_a_glossary_entry_with_its_number():
    blocks = segment("4. Essential Game Terminology\n\n4-1. Effect\n\n4-1-1. An effect is text on a card.\n\n"
                     "4-2. Player\n\n4-2-1. A player owns cards.\n\n4-2-2. A player has a deck.\n\n"
                     "4-3. Active Player\n\n4-3-1. The active player takes the turn.\n\n"
                     "4-4. Rested\n\n4-4-1. A rested card is turned.\n\n"
                     "4-5. Token\n\n4-5-1. Tokens are cards made by effects.\n\n"
                     "4-5-1-1. EX Base\n\n4-5-1-1-1. An EX Base is a token.\n\n"
                     "5. Game Setup\n\n5-1. Deck\n\n5-1-1. Shuffle your deck.\n")
    kinds = {b.label: b.kind for b in blocks}
    assert [label for label, kind in kinds.items() if kind == "glossary"] == ["4-1", "4-2", "4-3", "4-4", "4-5"]
    assert kinds["4-1-1"] == kinds["4-5-1-1"] == kinds["5-1"] == "rule"
    assert next(b for b in blocks if b.label == "4-1-1").parent == "4-1"


def test_a_rule_lettered_under_an_appendix_letter_is_its_own_unit():
    blocks = by_label(segment("Appendix B\n\nB1.A. Technical Foul\n\n"
                              "B1.A.1. A technical foul can be assessed against a team for minor conduct violations.\n\n"
                              "B1.A.2. The first two technical fouls issued to a team are warnings.\n"))
    assert blocks["B1.A.2"].text.startswith("The first two technical fouls")


def test_an_item_closed_by_a_stop_and_a_parenthesis_keeps_its_number():
    found = segment("Some clarifications, as the designer wrote them:\n\n"
                    "1.) Fate deliberately stands apart from playing out every fight to the last hit point.\n\n"
                    "2.) The GM is not exempt from the concession rule, whatever the table expects.\n\n"
                    "3.) You have to justify all terms of a concession in the fiction.\n")
    assert [b.label for b in found if b.text.startswith(("Fate", "The GM", "You have"))] == ["1", "2", "3"]


def test_a_bare_numbered_heading_over_its_first_rule_heads_it_whatever_is_above():
    # "1 Game Boundaries" follows the cover's date line, not a finished sentence: its first rule "1.1" below it
    # says it is a heading, as "2 Hiding Period" and "3 Asking Questions" are.
    text = ("Hide and Seek Rules\nJanuary 30, 2026\n1 Game Boundaries\n1.1 The game is played across the city.\n"
            "1.2 The borders of the game are set by the map.\n\n2 Hiding Period\n2.1 One team hides first.\n"
            "2.2 All players start at the library.\n\n3 Asking Questions\n3.1 The seekers may ask at any time.\n")
    blocks = by_label(segment(text))
    assert blocks["1.1"].section[-1] == "1 Game Boundaries"
    assert blocks["3.1"].section[-1] == "3 Asking Questions"


def test_a_sections_name_directly_over_its_first_parts_name_makes_both_headings():
    text = ("Each player picks three special rules before the game begins and keeps them.\n"
            "Special Rules\nTorus\nDesignate a piece to use this power. It treats the board as if it wraps around.\n"
            "Nonagression Pact\nOnce during the game, you may choose two colors which may not interact.\n")
    sections = list(dict.fromkeys(b.section[-1] for b in segment(text)))
    assert sections[-2:] == ["Torus", "Nonagression Pact"]


def test_names_listed_after_a_colon_or_broken_from_a_column_are_no_stack_of_headings():
    listed = ("Changes in this version.\nNew in this version:\nBlack Magic Doubling Exclusion Reminder\n"
              "Revised Magical Items Table\nResurrection Spell Timing Clarification (see Breath of Life)\n")
    column = ("Unlimited supplies in Cairo as per the rules.\nThe Commonwealth\nPlayer has a Temporary\n"
              "Repair Facility in Tobruk and one in Mersa Matruh for all of its units.\n")
    for text in (listed, column):
        assert not [b for b in segment(text) if b.section[-1] in ("Revised Magical Items Table", "Player has a Temporary")]


CASE_BOOK = """LAW 12 FOULS
Law 12.1 Tripping
Tripping is making an opponent fall with a leg or a foot.
12.1 (a) A direct free kick is awarded when a player trips an opponent.
12.1 (b) A player who trips an opponent from behind is cautioned.
CASES
Case 1  Law 12.1 (a)
A player slides for the ball, misses it and the opponent falls over the outstretched leg. This is tripping.
Case 2  Law 12.1 (b)
Question:
Is a trip from the side "from behind"?
Answer:
No: only a trip the opponent could not see coming.
Law 12.2 Holding is the act of impeding an opponent's movement with the hands or arms, whether or
not the ball is near.
12.2 (a) A direct free kick is awarded for holding.
Case 1  Law 12.2 (a)
A goalkeeper holding an attacker at a corner kick concedes a penalty kick.
"""


def test_notes_numbered_under_the_rules_they_cite_are_units_of_their_own_under_that_rule():
    blocks = segment(CASE_BOOK)
    notes = [b for b in blocks if b.label.startswith("Case")]
    assert [(b.label, b.kind, b.parent) for b in notes] == [
        ("Case 1 Law 12.1 (a)", "clarification", "12.1"), ("Case 1 Law 12.2 (a)", "clarification", "12.2")]
    assert notes[0].text.startswith("A player slides for the ball") and notes[0].text.endswith("This is tripping.")
    assert notes[0].section[-3:] == ("Law 12.1 Tripping", "Cases", "Case 1 Law 12.1 (a)")
    question = next(b for b in blocks if b.kind == "question")
    assert question.section[-1] == "Case 2 Law 12.1 (b)" and "only a trip the opponent" in question.text
    # no subrule holds a note's text, and the numbering goes on after the notes
    assert by_label(blocks)["12.1b"].text == "A player who trips an opponent from behind is cautioned."
    assert by_label(blocks)["12.2a"].section[-1] == "Law 12.2"


def test_a_rules_heading_whose_line_runs_on_into_its_text_heads_the_rule():
    blocks = by_label(segment(CASE_BOOK))
    assert blocks["12.2"].text.startswith("Holding is the act of impeding") and blocks["12.2"].text.endswith(
        "whether or not the ball is near.")
    assert blocks["12.2a"].parent == "12.2"


def test_a_list_of_names_a_paragraphs_colon_introduces_is_that_paragraphs_text():
    text = ("# Errata\n\n## Round Summary\n\nThe round summary card lists the steps out of order. They are:\n\n"
            "1. Draw Cards\n2. Move Units\n3. Resolve Battles\n\n## Dragon Card\n\nThe Dragon costs 3, not 4.\n")
    blocks = segment(text)
    assert [(b.section[-1], b.kind) for b in blocks] == [("Round Summary", "paragraph"), ("Dragon Card", "paragraph")]
    assert blocks[0].text.endswith("They are: 1. Draw Cards 2. Move Units 3. Resolve Battles")


def test_errata_are_the_text_in_force_not_a_record_of_revisions():
    text = ("# Quarry FAQ\n\n## Questions\n\nQ: Can I pass?\n\nA: Yes.\n\n" + "Q: Can I pass twice?\n\nA: No.\n\n" * 3
            + "## Errata\n\n### Dragon Card\n\nThe Dragon costs 3, not 4.\n")
    dragon = segment(text)[-1]
    assert dragon.section[-1] == "Dragon Card" and dragon.kind == "paragraph"


def test_a_list_a_decimal_rules_text_opens_at_its_margin_is_that_rules():
    text = ("1 BETTING\n1.4 Ties and Odd Chips\nWhen a pot is split, odd chips go as follows.\n"
            "1. An odd chip is broken down into the smallest denomination in play.\n"
            "2. No player may receive more than one odd chip.\n"
            "1.5 Big Blind Ante\nSome questions about the ante include: (a) how large should it be;\n"
            "(b) should it shrink when the table is short; and (c) who posts it.\n")
    blocks = by_label(segment(text))
    assert blocks["1.4.1"].text.startswith("An odd chip") and blocks["1.4.2"].parent == "1.4"
    assert "1.5b" not in blocks and "(b) should it shrink" in blocks["1.5"].text


def test_a_number_a_sentence_wraps_onto_a_lines_start_is_no_item():
    text = ("Setup\n1. Each player takes five stones and a screen, and sets the stones behind the screen.\n"
            "Set the rest of the stones aside: they become available to the players in phase\n"
            "9. Lay out the board between the players.\n2. The youngest player goes first.\n")
    blocks = segment(text)
    assert [b.label for b in blocks] == ["1", "2"]
    assert blocks[0].text.endswith("in phase 9. Lay out the board between the players.")


def test_a_lead_in_ending_in_a_colon_keeps_the_paragraph_after_it():
    blocks = segment("# Special Rolls\n\nRoll two dice and add them.\n\nNotes:\n\nA roll that can damage a target is an "
                     "attack roll.\n\nA doubled roll is a critical success.\n")
    assert [b.text for b in blocks] == ["Roll two dice and add them.",
                                        "Notes: A roll that can damage a target is an attack roll.",
                                        "A doubled roll is a critical success."]


CHAPTERED = ("# Quarry Rules\n\n## 4. Turn Sequence\n\n### 1. Draw Phase\n\nDraw a card.\n\n### 2. Move Phase\n\n"
             "Move a stone.\n\n### Summary of a Move\n\n1. **Pick a stone:** any of your own.\n2. **Move it** one "
             "square.\n   - A blocked stone stays.\n\nA stone may never jump.\n\n### 3. End Phase\n\nPass.\n\n"
             "## 5. Ending the Game\n\nThe game ends when a player has no stones.\n")


def test_a_list_is_not_numbered_within_a_chapter_whose_parts_are_numbered_afresh():
    blocks = segment(CHAPTERED)
    assert [b.label for b in blocks if b.section[-1] == "Summary of a Move" and b.kind != "paragraph"] == ["1", "2"]


def test_a_heading_is_never_inside_the_deeper_heading_of_its_own_number():
    ending = next(b for b in segment(CHAPTERED) if b.text.startswith("The game ends"))
    assert ending.section == ("Rules", "Quarry Rules", "5. Ending the Game")


def test_a_number_and_title_over_rules_numbered_under_it_heads_them():
    blocks = segment("Players take turns until one wins the game.\n2 Players and Roles\n2.1 Goal Every player has a "
                     "goal of their own.\n2.2 Actions A player may vote or act.\n")
    assert [(b.label, b.section[-1]) for b in blocks if b.kind == "rule"] == [
        ("2.1", "2 Players and Roles"), ("2.2", "2 Players and Roles")]


def test_a_number_sign_opening_a_line_of_text_is_no_heading_mark():
    text = ("1.3 Pods\nPlayers are seated in pods of about eight.\n# of players   Pods\n6-11   1 pod\n"
            "1.4 Roles\nEvery event has an organizer.\n")
    blocks = segment(text)
    assert all(block.section == ("Rules",) for block in blocks)
    assert "# of players" in by_label(blocks)["1.3"].text
    # Two marks and more mark a heading whatever its case: a glossary's terms in lower case ("## exert").
    glossary = segment("# Glossary\n\n## exert\n\nTo turn a card sideways.\n\n## draw\n\nTo take the top card.\n")
    assert [(b.kind, b.title, b.text) for b in glossary] == [("glossary", "exert", "To turn a card sideways."),
                                                             ("glossary", "draw", "To take the top card.")]


def test_a_rules_name_on_the_line_of_its_number_titles_it():
    text = ("1.1 Event Types\nEvents are divided into two types: constructed and limited. A constructed event is\n"
            "played with decks the players built before it.\n"
            "1.2 Which Units May Take Part in\nAnti-Armor Combat\n"
            "1.3 STEP 2-FIRE: After the move, the units\nfire at the enemy.\n")
    blocks = by_label(segment(text))
    assert blocks["1.1"].title == "Event Types" and blocks["1.1"].text.startswith("Event Types Events are divided")
    assert blocks["1.2"].title != "Which Units May Take Part in"  # a name wrapped over two lines is all title
    assert not blocks["1.3"].title.endswith("the units")  # a run-in name is its sentence's


NUMBERED_FAQ = ("# Official FAQ for Quarry\n\n## 1.0 Errata\n\n#### Other Errata\n\nScenario 8 - The scenario number "
                "should be 65.\n\nItems 12/13 - Both items are marked as 12.\n\nRoom 4 - The door is on the east "
                "side.\n\n## 2.0 Setup Questions\n\nI cannot find tile 8. Am I missing a board? No - there is no "
                "tile 8.\n\n## 3.0 General Questions\n\n### 3.1 Masteries\n\nCan I complete a Mastery in Scenario 0? "
                "No. Scenario 0 is intentionally easy.\n\nDo I need to complete a Mastery in one scenario? Sometimes; "
                "the Mastery says so.\n\n### 3.2 Personal Quests\n\nDo I retire before reading the section? No. Read "
                "it first.\n")


def test_an_faqs_paragraphs_that_ask_and_answer_are_questions_of_their_numbered_section():
    blocks = segment(NUMBERED_FAQ)
    asked = [b for b in blocks if b.kind == "question"]
    assert [b.text.split("?")[0] for b in asked] == [
        "I cannot find tile 8. Am I missing a board", "Can I complete a Mastery in Scenario 0",
        "Do I need to complete a Mastery in one scenario", "Do I retire before reading the section"]
    # "3.0" is chapter 3: its sections sit in it, and a numbered heading closes a deeper unnumbered one
    assert asked[1].section[-2:] == ("3.0 General Questions", "3.1 Masteries")
    assert asked[0].section[-1] == "2.0 Setup Questions"


def test_a_run_of_paragraphs_opening_with_a_name_makes_a_unit_of_each_named_so():
    blocks = segment(NUMBERED_FAQ)
    assert [b.title for b in blocks if b.section[-1] == "Other Errata"] == ["Scenario 8", "Items 12/13", "Room 4"]
    text = "## Melee Weapons\n\nThe weapons are:\n\nClaws: Retractable claws.\n\nClub: A blunt weapon.\n\nKnife: A blade.\n"
    assert not {"Claws", "Club", "Knife"} & {b.title for b in segment(text)}  # a lead-in's list is no run of names
    # A word leading each paragraph names nothing: "Score" is no card's name, nor a label of three units.
    scoring = ("## Play\n\nScore: A count of 15 scores 2 points.\n\nScore: A pair scores 2 points.\n\n"
               "Score: A run of three scores 3 points.\n")
    assert [(b.title, b.label) for b in segment(scoring)] == [
        ("Score: A count of 15 scores 2 points.", "1"), ("Score: A pair scores 2 points.", "2"),
        ("Score: A run of three scores 3 points.", "3")]


def test_a_chapter_numbered_n_0_heads_the_n_1_its_markup_sets_under_it_and_its_own_text_is_n_0():
    blocks = segment("## 5.0 Events\n\nEach Event bears a title and its text.\n\n### 5.1 Executing Events\n\n"
                     "Carry out the Event text literally and in order.\n\n#### 5.1.1 Order\n\nTop to bottom.\n")
    assert [(b.label, b.section[1:]) for b in blocks] == [
        ("5.0", ("5.0 Events",)), ("5.1", ("5.0 Events", "5.1 Executing Events")),
        ("5.1.1", ("5.0 Events", "5.1 Executing Events"))]


def test_a_markdown_page_of_headings_and_one_line_paragraphs_parts_its_paragraphs_at_blank_lines():
    # Its headings end no sentence, so most of its lines do not either; yet every paragraph is whole on its line.
    long = " ".join(["You may take this action once a turn, on your own turn or as a reaction."] * 4)
    sections = "".join(f"##### Action {n}\n\n{long}\n\nIf you delay action {n}, you act later in the round.\n\n"
                       f"##### Note {n}\n\nSee the table.\n\n##### Cost {n}\n\nOne point\n\n" for n in range(1, 10))
    blocks = [b for b in segment(f"# Combat\n\n{sections}") if b.section[-1] == "Action 1"]
    assert [b.text for b in blocks] == [long, "If you delay action 1, you act later in the round."]


def test_a_list_indented_under_a_lettered_subrule_is_that_subrules_and_the_next_letter_is_the_rules_again():
    text = ("1. CONDUCT\n   1.1. Unsportsmanlike conduct is not allowed.\n"
            "        a. Umpires need not warn first.\n        c. Serious offenses include:\n"
            "              1. Intentional contact with opposing players.\n              2. Threats of violence.\n"
            "        d. Ejected teams forfeit.\n              1. Ejected players leave the park.\n"
            "   1.2. Suspension\n        a. The league may suspend any player.\n")
    assert [(b.label, b.parent) for b in segment(text)] == [
        ("1.1", None), ("1.1a", "1.1"), ("1.1c", "1.1"), ("1.1c.1", "1.1c"), ("1.1c.2", "1.1c"), ("1.1d", "1.1"),
        ("1.1d.1", "1.1d"), ("1.2", None), ("1.2a", "1.2")]


def test_a_list_lettered_in_capitals_under_decimal_rules_is_read_at_its_level():
    rules = "".join(f"   1.{n}. Rule {n} of the league holds for every game.\n"
                    f"        A. The first case of rule {n} is this one.\n        B. The second case of rule {n} is this.\n"
                    f"              1. A detail of the second case of rule {n}.\n"
                    f"        C. The third case of rule {n} is the last.\n" for n in range(1, 4))
    blocks = segment(f"1. CONDUCT\n{rules}")
    assert [b.label for b in blocks][:6] == ["1.1", "1.1a", "1.1b", "1.1b.1", "1.1c", "1.2"]
    # A run of short titles ("A. Rapidplay" / "B. Blitz") is no lettered list.
    titles = segment("A. Rapidplay\nA rapidplay game is one played fast.\nB. Blitz\nA blitz game is faster.\n"
                     "C. Armageddon\nA game that must have a winner.\n")
    assert not any(b.label in ("a", "b", "c") for b in titles)


def test_a_title_blocks_authors_and_date_finish_what_stands_above_the_first_heading():
    text = ("Quarry Rules\nAda Stone, Ben Flint, Cy Marble\nJanuary 3, 2015\nOverview and Objective\n"
            "Each player has a team of six stones of six colours, and moves one stone a turn.\n"
            "A player wins by capturing the other player's white stone.\n")
    blocks = segment(text)
    assert blocks[-1].section[-1] == "Overview and Objective"
    assert blocks[-1].text.startswith("Each player has a team")


def test_a_sentence_opening_with_a_chapters_name_heads_nothing():
    # "Chapter 2 offered the following…" is a sentence of the section it stands in, not chapter 2: the rulings
    # after it stay under "Success with a Twist".
    blocks = segment("## Success with a Twist\n\nChapter 2 offered the following types of outcomes as some of the "
                     "possibilities for adding a twist to a success:\n\n- Expend a resource\n- Waste time\n\n"
                     "### Waste Time\n\nMelchior weaves a mighty spell, and the rodents scatter.\n")
    assert {b.section[:2] for b in blocks} == {("Rules", "Success with a Twist")}
    assert next(b for b in blocks if b.text.startswith("Melchior")).section[-1] == "Waste Time"


def test_a_long_last_section_whose_card_faces_print_a_copyright_keeps_its_rules():
    # A card list closing the rulebook: each face's text, its illustrator's "© 2022" line under it, then the
    # publisher's notice. Only the notice is back matter; the cards' rules stay rules a judge is answered with.
    cards = [f"Card {n}\n\nTrash a card from your hand and gain a card costing up to {n} more than it. Each other "
             f"player discards down to three cards in hand.\nIllustration: Artist {n} \u00a9 2022 Games"
             for n in range(1, 15)]
    text = "## Cards\n\n" + "\n\n".join(cards) + "\n\n\u00a9 2022 Games. All rights reserved.\n"
    blocks = segment(text)
    assert [b.kind for b in blocks if b.text.startswith("Trash")] == ["paragraph"] * 14
    assert [b.kind for b in blocks if b.text.startswith("\u00a9 2022 Games. All")] == ["title"]


def test_a_sections_run_in_bullets_are_units_named_by_them_but_a_rules_named_cases_stay_its_text():
    # "- **Relays:** You have…" with its bold gone: each part of the section a unit a judge finds by its name; the
    # options a numbered rule lists ("Op Only:", "Event:") are that rule's text.
    text = ("## Lines of Communication\n\nYour units rely on a network to function.\n\n"
            "- The Source: Your two Arsenals radiate lines in eight directions.\n"
            "- Relays: You have mobile Relay units that extend these lines.\n"
            "- Going Offline: If a unit is not connected, it goes offline.\n"
            "   - Offline Units: They cannot move, attack or defend.\n\n"
            "## Eligibility\n\n2.3.4 Options for Eligible Factions. The second faction's options depend on the first's:\n\n"
            "- Op Only: The second faction may execute a limited operation.\n"
            "- Op & Special Activity: The second faction may execute the event.\n"
            "- Event: The second faction may execute an operation with a special activity.\n")
    blocks = segment(text)
    assert [(b.label, b.text.split(":")[0]) for b in blocks if b.section[-1] == "Lines of Communication"][1:] == [
        ("The Source", "The Source"), ("Relays", "Relays"), ("Going Offline", "Going Offline")]
    assert "Offline Units: They cannot move" in blocks[3].text
    assert [b.label for b in blocks if b.section[-1] == "Eligibility"] == ["2.3.4"]


def test_a_link_back_to_the_index_on_a_headings_line_is_no_part_of_its_title():
    # An FAQ printed from its web page: each chapter's heading carries the page's "Back to the Index" link.
    text = ("1. Movement Back to the Index\n\nCan a model run past an enemy? No, it must stop.\n\n"
            "2. Shooting Back to the Index\n\nCan a model shoot into combat? Only with a template.\n\n"
            "3. Combat Return to top of page\n\nDoes a knocked down model strike last? Yes.\n")
    assert {b.section[-1] for b in segment(text)} == {"1. Movement", "2. Shooting", "3. Combat"}


def test_a_chapter_numbered_with_a_zero_heads_the_rules_under_its_number():
    # "7.0 The Robot" right over "7.1 Overview": 7.1 and 7.2 sat under no heading (the chapter was closed at 7.1).
    blocks = segment("6.2 Last rule of chapter six.\n\n7.0 The Robot\n7.1 Overview\nA robot is a vehicle built by a "
                     "team to do tasks in the game.\n7.2 Control\nA robot is driven by two devices.\n")
    found = by_label(blocks)
    assert found["7.1"].section == found["7.2"].section == ("Rules", "7.0 The Robot")
    assert "7.0" not in found  # a heading with no text of its own


def test_a_footnote_marked_with_stars_over_a_sentence_heads_nothing():
    # A PDF's notes under a table, "**For semi-final matches, at events…": read as bold headings, the rules after
    # them (7.1, 7.2) sat under a sentence.
    blocks = segment("*Refers to match ranking.\n**For semi-final matches, at events with 20 or less Teams select one "
                     "partner, rather than\nthe two selected at larger events.\n\n7.0 The Robot\n7.1 Overview\n"
                     "A robot is a vehicle built by a team.\n")
    assert by_label(blocks)["7.1"].section == ("Rules", "7.0 The Robot")
    # stars left open over a title still mark a heading
    assert by_label(segment("***GENERAL RULES\n1.1 Each player draws seven cards.\n"))["1.1"].section == (
        "Rules", "General Rules")


def test_a_marked_heading_asking_after_a_statement_is_a_question():
    # "### Flight mentions only straight lines… How does this work…?" in an FAQ was a section, its answer a paragraph.
    blocks = segment("## Page 63, Flight\n\n### Flight mentions only moving in straight lines, but ignores "
                     "obstructions. How does this work over obstacles?\nYou may fly over things.\n")
    assert [(b.kind, b.text) for b in blocks] == [
        ("question", "Flight mentions only moving in straight lines, but ignores obstructions. How does this work "
                     "over obstacles? You may fly over things.")]


def test_a_rules_texts_lone_heading_phrased_as_a_question_is_a_heading_and_an_faqs_run_are_questions():
    # Open Legend's combat chapter: of 77 headings, "> #### Twist or Failure?" alone asked, and became a question
    # unit whose "answer" was the sidebar's text; an FAQ's question headings come in runs and stay questions.
    sections = "".join(f"## Part {n}\n\nText {n}.\n\n" for n in range(10))
    blocks = segment(sections + "## Twist or Failure?\n\nThere is no hard and fast rule.\n\n## Last\n\nEnd.\n")
    twist = next(b for b in blocks if "no hard and fast" in b.text)
    assert twist.kind != "question" and twist.section[-1] == "Twist or Failure?"
    faq = segment(sections + "## Can I pass?\n\nYes.\n\n## Can I pass twice?\n\nNo.\n")
    assert [b.kind for b in faq if b.text.startswith("Can I")] == ["question", "question"]


def test_a_line_all_in_brackets_is_an_editors_note_and_heads_nothing():
    # Fate's "**[Your character sheet image here] [Image to come. -Site editor]**" headed 8 paragraphs of rules.
    blocks = segment("## Consequences\n\nYou have consequence slots:\n\n"
                     "#### [Your character sheet image here] [Image to come. -Site editor]\n\n"
                     "When you use a consequence slot, you reduce the shift value.\n")
    assert {b.section for b in blocks} == {("Rules", "Consequences")}
    # the note stays where it stands, without the heading marks the markdown reader gave its bold line
    assert "slots: [Your character sheet image here]" in "".join(b.text for b in blocks)
    assert "#" not in "".join(b.text for b in blocks)


def test_chapters_counting_from_two_have_their_chapter_one_whatever_is_above_it_and_whatever_its_capital():
    # A Czech LaTeX rulebook: "Obsah HF" (its contents heading and a running head's scrap) over "1 Úvod"; the
    # chapter's text went into the front matter, and "Ú" was no capital.
    blocks = segment("Obsah HF\n1 Úvod\nThe game lasts days.\n2 Hráči a postavy\n2.1 Cíl hry\nStay alive.\n"
                     "3 Události\nEvery day brings events.\n4 Frakce\nA faction shares a goal.\n")
    intro = next(b for b in blocks if "lasts days" in b.text)
    assert intro.section[-1] == "1 Úvod"


def test_two_names_stacked_over_numbered_steps_after_a_finished_passage_are_both_headings():
    # A browser print of a rulebook: "b. If not, continue…" / "Basic Game Concepts" / "Deed Cards" / "1. All cards…":
    # both names were glued into rule 5b, the Deed card rules filed under "One Round of the Game".
    blocks = segment("One Round of the Game\nRounds are either Day or Night.\nb. If not, continue the game by playing "
                     "the next Round.\nBasic Game Concepts\nDeed Cards\n1. All cards with the Deed card back are Deed "
                     "cards.\n2. Each player has a Deed deck.\n")
    deed = next(b for b in blocks if b.text.startswith("All cards with the Deed card back"))
    assert deed.section[-1] == "Deed Cards"
    assert not any("Basic Game Concepts" in b.text or "Deed Cards" in b.text for b in blocks)


def test_lettered_items_under_a_numbered_heading_are_cited_with_its_number():
    # A league's rules: "2. GOVERNANCE" / "(A) The Competition…", "4. ENTRY FEE" / "(A) Applications…": cited "A",
    # then "Entry A", never 2(A) or 4(A) as a judge cites them.
    blocks = segment("# Rules\n\n## 2. Governance\n\n(A) The Competition is the Rother League.\n\n(B) It has 50 "
                     "Clubs.\n\n## 4. Entry Fee\n\n(A) Applications are made in writing.\n")
    assert [(b.label, b.kind) for b in blocks] == [("2a", "rule"), ("2b", "rule"), ("4a", "rule")]


def test_the_next_case_whose_small_caps_title_the_text_layer_lowered_is_a_rule():
    # A wargame's InDesign PDF read by pypdf: "7.1 nObleS gO HOMe", "7.3 engliSH DiSbAnDing" after a wrapped line
    # were glued into the case before, 12 cases of 95 lost.
    blocks = segment("7.0 Wintering\nA game year ends if both players play\n7.1 nObleS gO HOMe\nNobles cannot disband.\n"
                     "First, all English nobles move to\n7.2 SCOttiSH King\nThe King may move.\nAll blocks in England "
                     "return to\n7.3 engliSH DiSbAnDing\nAll blocks in England must disband.\n")
    assert [b.label for b in blocks if b.kind == "rule"] == ["7.1", "7.2", "7.3"]


def test_a_divider_pages_keyword_and_number_on_lines_of_their_own_head_the_law():
    # The Laws of the Game: "Law" / "12" / "Fouls and Misconduct" on a divider page: "12" was a ruling under a section
    # "Law", and Law 12's parts were cited as Law 11's were ("1 ¶2").
    blocks = segment("Laws of the Game\n\nLaw\n11\nOffside\n1. Offside position\nIt is not an offence to be in an "
                     "offside position.\nLaw\n12\nFouls and Misconduct\n1. Direct free kick\nA direct free kick is "
                     "awarded for a handball offence.\n")
    assert [b.section[1:] for b in blocks if b.kind != "front-matter"] == [
        ("Law 11 Offside", "Offside position"), ("Law 12 Fouls and Misconduct", "Direct free kick")]


def test_rules_a_manual_prints_under_codes_are_units_cited_by_them():
    # A robotics game manual's "<C01> Egregious behavior…", "<RG02> …": 89 rules glued into the paragraphs around
    # them, none citable by the code the referees use.
    text = ("3.5 Competition Rules\n<C01> Egregious behavior is not tolerated at a Competition.\n"
            "<C02> Referees have final scoring authority.\na. The referees will not review any recording.\n"
            "<C03> Yellow and red cards are used to manage Teams. See rules <RE07> and\n<RS03> for details.\n"
            "<RG01> Robots must pass inspection before their first match.\n")
    found = by_label(segment(text))
    assert [label for label in found if label[0].isalpha()] == ["C01", "C02", "C02a", "C03", "RG01"]
    assert found["C02a"].text == "The referees will not review any recording."
    assert found["C03"].text.endswith("See rules <RE07> and <RS03> for details.")  # a citation wrapped, no rule
    # Two codes are no numbering (a grid's squares, a model's name): text.
    assert not any(label[0].isalpha() for label in by_label(segment("A12 Forest blocks sight.\nB12 Hills cost two.\n")))
    # Tournament rules' appendix "A3. The arbiter shall…", "B1. A rapidplay game is…": one letter, one digit, a stop;
    # a code over a topic's name is a heading ("B1. Components of the Misconduct System" over "B1.A …")
    appendix = ("APPENDIX\nA. Adjourned games\nA3. The arbiter shall check the envelope.\nA4. A draw offer after "
                "the sealed move is valid.\nA5. The clocks are stopped.\nB. Rapidplay\nB1. A rapidplay game lasts 15 "
                "to 60 minutes.\nB2. Play is governed by the Laws.\nB3. Moves need not be recorded.\nC. Blitz\n"
                "C1. A blitz game lasts under 15 minutes.\nC2. Play is governed by the rapidplay Laws.\n")
    assert [label for label in by_label(segment(appendix)) if label[0].isalpha() and label[1:2].isdigit()] == [
        "A3", "A4", "A5", "B1", "B2", "B3", "C1", "C2"]
    headed = "".join(f"{part}. {title}\n{part}.A Rule: it holds.\n" for part, title in (
        ("B1", "Components of the Misconduct System"), ("B2", "Penalties"), ("B3", "Appeals"), ("C1", "Observers"),
        ("C2", "Hand Signals"), ("C3", "Time-outs")))
    assert {b.label for b in segment(headed)} == {"B1.A", "B2.A", "B3.A", "C1.A", "C2.A", "C3.A"}


def test_a_title_line_inside_a_rules_text_heads_none_of_the_rules_after_it():
    # A wargame's "Monsoon Weather Condition Effects" over bullets in rule 6.0's text headed 6.1 and every later rule
    # (83 units), until the next such line.
    text = ("6.0 Weather\nRoll the die once for each zone during each Weather Phase.\n"
            "Fog Weather Condition Effects\n• Add 3 to the die roll when searching.\n"
            "Monsoon Weather Condition Effects\n• No air mission can be undertaken at Night.\n"
            "6.1 Random Air Mission Cancellation\nEach Fog hex containing air units is subject to cancellation.\n"
            "7.0 Strategic Intelligence\nEach player has a Strategic Intelligence Level.\n")
    found = by_label(segment(text))
    # "6.0 Weather" over its own text and 6.1 heads chapter 6, its own text the unit 6.0; the title lines in that text
    # are parts of it, never headings of 6.1
    assert found["6.0"].text.startswith("Roll the die once") and found["6.0"].section == ("Rules", "6.0 Weather")
    assert found["6.1"].section == ("Rules", "6.0 Weather")
    assert found["7.0"].section == ("Rules",)  # no rule numbered under it follows: a rule
    # a chapter's title wrapped after its colon ("22.0 Operational Intelligence:" / "Ambush CV Condition") heads none
    # of the next chapters' rules (173 units sat under it)
    wrapped = by_label(segment("22.0 Operational Intelligence:\nAmbush CV Condition\nPlayers must determine the "
                               "condition for the next operation.\n23.0 Movement\nOnly combat units can be moved.\n"
                               "23.1 Ground Unit Movement\nA ground unit spends movement points to move.\n"))
    assert wrapped["23.1"].section == ("Rules", "23.0 Movement")
    # a title line between two parts numbered apart still heads the part after it
    parts = by_label(segment("1.1 Roll a die.\n1.2 Move a piece.\n\nOptional Rules\n\n2.1 Play with two decks.\n"))
    assert parts["2.1"].section == ("Rules", "Optional Rules")


def test_a_short_pages_licence_line_makes_none_of_it_back_matter():
    # "This content is licensed under CC-BY-SA 4.0" among a one-section page's first lines typed all of its rules
    # "title" (never an answer).
    blocks = segment("# Funnel Rules\n\n- This text gives the rules for creating characters for a funnel adventure, "
                     "which you can also find as a one-page PDF.\n- The original author is Xenio.\n"
                     "- This content is licensed under CC-BY-SA 4.0.\n\n"
                     "A funnel is a game mode where each player controls several characters.\n")
    assert {b.kind for b in blocks} == {"paragraph"}


def test_an_appendix_numbered_heading_closes_where_its_numbering_ends():
    # "B.1.6 Réservé" over B.1.6.1 stayed open over B.1.7 and every later rule of the chapter (64 units).
    text = ("B.1.5 The shooting line is marked.\n\nB.1.6 Reserved\n\nB.1.6.1 Two faces are set at 1.30 m.\n\n"
            "B.1.7 All competitors stand on one line.\n")
    found = by_label(segment(text))
    assert found["B.1.6.1"].section == ("Rules", "B.1.6 Reserved")
    assert found["B.1.7"].section == ("Rules",)


def test_a_table_after_a_paragraph_is_that_paragraphs_text_as_a_code_block_is():
    # "… roll a D6 and consult the chart below." over "| D6 | Result |": the chart was a unit of its own, titled by
    # its bars, and a judge asking what a 1 does met it without the rule that rolls on it.
    blocks = segment("## Reinforcements\n\nAt the end of your move, roll a D6 for each reserve and consult the chart "
                     "below.\n\n| D6 | Result |\n|----|--------|\n| 1 | The reserve does not arrive. |\n"
                     "| 2-6 | It arrives. |\n\nReserves yet to arrive count as on the table.\n\n"
                     "## Weather\n\n| Roll | Weather |\n|---|---|\n| 1 | Rain |\n")
    chart = next(b for b in blocks if "does not arrive" in b.text)
    assert chart.text.startswith("At the end of your move") and "| 2-6 | It arrives. |" in chart.text
    assert "yet to arrive" not in chart.text  # the paragraph after the table is a unit of its own
    weather = next(b for b in blocks if "Rain" in b.text)
    assert weather.section[-1] == "Weather" and weather.text.startswith("| Roll | Weather |")


def test_an_i_after_h_in_a_list_under_a_numbered_heading_is_the_letter_not_a_roman_one():
    # A sports federation's rules: "24. PLAYER LOSES POINT" / "h. …" / "i. …" cited "I" and typed a clarification.
    letters = "abcdefghij"
    blocks = segment("24. PLAYER LOSES POINT\nThe point is lost if:\n"
                     + "".join(f"{c}. The player does thing {c}; or\n" for c in letters)
                     + "25. A GOOD RETURN\nIt is good if:\ni. The ball touches the net; or\nii. It is blown back.\n")
    assert [b.label for b in blocks if b.kind == "rule"][:10] == [f"24{c}" for c in letters]
    assert [b.label for b in blocks if "touches the net" in b.text or "blown back" in b.text] == ["i", "ii"]


def test_a_list_of_names_a_colon_introduces_is_read_whole_though_its_last_item_is_a_sentence():
    # An FAQ: "the following happens:" / "1. Provoke Outrage" / "2. Ransack the Court" / "3. Spend keys to steal, if
    # you rolled raid dice…": the first two went into the paragraph, the third was a unit of its own, "3".
    blocks = segment("## Destroying a City\n\nWhen a city is destroyed, the following happens:\n\n1. Provoke Outrage\n"
                     "2. Ransack the Court\n3. Spend keys to steal, if you rolled raid dice and any ships remain.\n\n"
                     "As a result, the Outrage does not discard cards.\n")
    assert [b.text for b in blocks] == [
        "When a city is destroyed, the following happens: 1. Provoke Outrage 2. Ransack the Court 3. Spend keys to "
        "steal, if you rolled raid dice and any ships remain.", "As a result, the Outrage does not discard cards."]


def test_a_rule_headings_second_list_from_one_is_its_text_as_its_first_is():
    # Floor rules: "3.B. Pregame" / "…before each match:" / "1." "2." / a paragraph / "…use the following
    # procedure:" / "1." "2.": the second list was cited 3.1 and 3.2, as if Section 3's own rules.
    blocks = segment("## Section 3: Mechanics\n\n### 3.B. Pregame\n\nThe following steps happen before each match:\n\n"
                     "1. Players reveal outfits.\n2. Players shuffle.\n\nAll effects may be performed early.\n\n"
                     "If such effects conflict, use the following procedure:\n\n1. All Players choose.\n"
                     "2. Both Players open their hands.\n")
    assert [b.label for b in blocks] == ["3.B"] and blocks[0].text.endswith("2. Both Players open their hands.")


def test_a_note_keyed_by_a_star_after_the_unit_printing_the_star_is_that_units_text():
    # Floor rules: a chart's cell "N/A*" and, under the chart, "*For events of exactly 8 Players no cut is made":
    # the notes were paragraphs of the section above, far from the rule whose chart they explain.
    blocks = segment("## Section 5: Guidelines\n\n### 5.B. Rounds\n\nThe standard chart:\n\n| Players | Cut |\n"
                     "| 8 | N/A* |\n| 9-16 | Top 2** |\n\n[^*]: *For events of exactly 8 Players no cut is made\n\n"
                     "[^*]: **Players with one loss\n\n## Section 6: Judges\n\n[^1]: A note of its own.\n")
    rule = next(b for b in blocks if b.label == "5.B")
    assert rule.text.endswith("| *For events of exactly 8 Players no cut is made **Players with one loss")
    assert any(b.text == "A note of its own." for b in blocks)


def test_a_two_cell_table_row_carrying_the_numbering_on_is_that_rule():
    # An old web page set its rules with parts (a), (b) in a table for their margin: "| 6.7 | (a) During the game… |"
    # was glued into 6.6, and 6.7 never cited.
    blocks = segment("Article 6: The chess clock\n\n6.6 The player who arrives an hour late loses.\n\n"
                     "| 6.7 | (a) During the game each player shall stop his own clock. (b) A player must press it. |\n\n"
                     "6.8 A flag has fallen when the arbiter sees it.\n\n## Results\n\n| 1 | The reserve does not arrive. |\n"
                     "| 2.5 | A half point. |\n")
    found = by_label(blocks)
    assert found["6.7"].text.startswith("(a) During the game") and "stop his own clock" not in found["6.6"].text
    assert "| 2.5 | A half point. |" in found["6.8"].text or any("| 2.5 |" in b.text for b in blocks)


def test_a_sentence_wrapped_at_a_number_heads_no_part():
    # An RPG book's PDF: "A Warrior must have a strength of at least" / "9. Your Warrior begins the game with ten" /
    # "survival points…": "9. Your Warrior…" headed every paragraph after it, cited "9".
    blocks = segment("Create Your First Level Warrior\nA Warrior must have a strength of at least\n"
                     "9. Your Warrior begins the game with ten\nsurvival points, modified by endurance.\n"
                     "Your Warrior knows four weapons.\n")
    assert {b.section for b in blocks} == {("Rules", "Create Your First Level Warrior")}
    assert "at least 9. Your Warrior begins the game with ten survival points" in blocks[0].text


def test_a_title_a_conversion_wrapped_into_two_headings_of_one_level_is_one():
    # An SRD converted from PDF: "### Serious Wound (Hit Location is Zero Hit Points or" / "### Below)": the rules
    # sat under a section "Below)", the title's first half gone.
    blocks = segment("## Damage\n\n### Serious Wound (Hit Location is Zero Hit Points or\n\n### Below)\n\n"
                     "The victim receives a Serious Wound.\n\n### Stunned\n\n### Prone\n\nThe victim drops.\n")
    sections = [b.section[-1] for b in blocks]
    assert sections == ["Serious Wound (Hit Location is Zero Hit Points or Below)", "Prone"]


def test_a_sentence_a_conversion_marked_as_a_heading_over_nothing_is_text():
    # An SRD converted from PDF: "#### Alaric's Tale" over "##### Alaric has three Combat Actions whilst…" and
    # "##### Thus, Alaric has a slight edge over his opponents.": both sentences were in no ruling.
    blocks = segment("### Combat Actions\n\nCombat Actions are spent to act.\n\n#### Alaric's Tale\n\n"
                     "##### Alaric has three Combat Actions whilst the goblins have two each.\n\n"
                     "##### Thus, Alaric has a slight edge over his opponents.\n\n### Reach\n\n"
                     "#### I have some questions about closing locations.\n\nYou may close a location you are at.\n")
    tale = [b.text for b in blocks if b.section[-1] == "Alaric's Tale"]
    assert tale == ["Alaric has three Combat Actions whilst the goblins have two each.",
                    "Thus, Alaric has a slight edge over his opponents."]
    # a sentence over text of its own heads it, as an FAQ's topic does
    assert any(b.section[-1] == "I have some questions about closing locations." for b in blocks)


def test_a_rule_heading_whose_text_is_run_ins_takes_the_first_and_its_parts_the_rest():
    # A wargame's "### 5.1 Axis Setup" over "**Germany:** Place 6 Cadres…" / "**Italy:** …" / "Total: …": the run-ins
    # were units beside it under "5.0 Setup", and 5.1 itself, left without text, was in no ruling.
    blocks = segment("## 5.0 Setup\n\nEach Faction deploys its Cadres.\n\n### 5.1 Axis Setup\n\n"
                     "Germany: Place 6 Cadres in Berlin.\n\nItaly: Place 4 Cadres in Rome.\n\nTotal: 22 units.\n\n"
                     "### 5.2 West Setup\n\nBritain: Place 3 Cadres in London.\n\nFrance: Place 2 Cadres in Paris.\n\n"
                     "Total: 16 units.\n\n## 6.0 Sequence of Play\n\nThe game is played in years.\n")
    found = by_label(blocks)
    assert found["5.1"].text == "Germany: Place 6 Cadres in Berlin." and found["5.2"].text.startswith("Britain")
    assert [b.parent for b in blocks if b.text.startswith(("Italy", "France"))] == ["5.1", "5.2"]


def test_a_hash_at_the_start_of_an_indented_line_marks_no_heading():
    # A game's guidebook as nroff text: "          #    A corridor, or iron bars…" (a map's symbol) headed "4.
    # Commands" and everything after it; "#adjust" (an extended command) too.
    blocks = segment("3. What is on the screen\n\nThe map shows these symbols:\n\n          #    A corridor, or a tree.\n"
                     "          |    A wall.\n\n4. Commands\n\nCommands are typed keys.\n\n          #adjust\n"
                     "               Adjust inventory letters.\n")
    assert [b.section[-1] for b in blocks if "typed keys" in b.text or "Adjust" in b.text] == ["4. Commands"] * 2
    assert any("A corridor, or a tree." in b.text for b in blocks)


def test_a_list_of_names_with_points_under_each_is_read_whole():
    # "During Cleanup Phase:" / "1. Check Your Hand" / "   - Look at all cards…" / "2. Check Your Board" / … : names 1
    # and 2 went into the paragraph, 3 and 4 were units of their own ("Prevail 3", "Prevail 4").
    blocks = segment("### How It Works\n\nDuring Cleanup Phase:\n\n1. Check Your Hand\n   - Look at all cards in hand\n"
                     "2. Check Your Board\n   - Look at your units\n3. Find Broken Units\n   - For each unit type on "
                     "board, see if a card supports it\n4. Resolve Rout Penalties\n   - Discard a card for each routed "
                     "unit\n\n### Example\n\nYour archers rout.\n")
    assert [b.section[-1] for b in blocks] == ["How It Works", "Example"]
    assert "4. Resolve Rout Penalties" in blocks[0].text


def test_numbered_lines_in_capitals_inside_a_rule_headings_text_head_nothing():
    # A wargame's "### 6.1 Game Play Outline" over "1. DETERMINE PATROL ASSIGNMENT" / "- A. Consult…": each step
    # a chapter at the top, 6.1 left empty, and every later section lost the document's title.
    blocks = segment("# The Hunters Rulebook\n\n## 6.0 Sequence of Play\n\nPlay is monthly.\n\n### 6.1 Game Play Outline\n\n"
                     "1. DETERMINE PATROL ASSIGNMENT\n- A. Consult the table.\n\n2. CONDUCT PATROL\n- A. Check for "
                     "encounters.\n\n## 7.0 Conducting Patrols\n\nRoll on the table.\n")
    found = by_label(blocks)
    assert "1. DETERMINE PATROL ASSIGNMENT" in found["6.1"].text and "2. CONDUCT PATROL" in found["6.1"].text
    assert found["7.0"].section[:2] == ("Rules", "The Hunters Rulebook")


def test_a_numbered_heading_the_markup_nests_right_under_another_is_its_part_whatever_the_numbers_say():
    # A wargame numbering its third level without a stop: "### 3.1 Unit Attributes" / "#### 3.11 Nationality": 3.1
    # was a unit with no text, in no ruling, and 3.11 filed beside it.
    blocks = segment("## 3.0 The Units\n\nBlocks are units.\n\n### 3.1 Unit Attributes\n\n#### 3.11 Nationality\n\n"
                     "The color shows nationality.\n\n#### 3.12 Combat Value\n\nPips show strength.\n\n### 3.2 Unit Types"
                     "\n\nTypes move.\n")
    found = by_label(blocks)
    assert found["3.11"].section[-1] == found["3.12"].section[-1] == "3.1 Unit Attributes"
    assert found["3.2"].section[-1] == "3.0 The Units"


def test_items_numbered_on_from_a_numbered_headings_own_number_are_the_next_parts_not_its_items():
    # A guidebook: "1.  Introduction" / text / "2.  What is going on here?" / text / "3.  What do all those things…":
    # cited "1.2" and "1.3", as if items of the introduction.
    blocks = segment("1. Introduction\n\nYou are unfulfilled.\n\n2. What is going on here?\n\nYou have begun a game.\n\n"
                     "3. What do all those things on the screen mean?\n\nThe screen shows a map.\n")
    assert [b.label for b in blocks if b.kind != "paragraph"] == ["2", "3"]
    # a list under a numbered heading counting from 1 keeps the heading's number
    listed = segment("4. Commands\n\nThe commands are:\n\n1. Move north.\n2. Move south.\n")
    assert [b.label for b in listed if b.text.startswith("Move")] == ["4.1", "4.2"]


def test_a_question_the_document_numbers_is_cited_by_its_number():
    # A USENET FAQ: "Q1. How do I get the sources?" / "Q2. …": cited by counts under a heading, "…FAQ 9".
    blocks = segment("Frequently Asked Questions\n\nQ1. How do I get the sources?\n\nBy FTP.\n\n"
                     "Q2. Can I play on a server?\n\nYes, by telnet.\n\nQ: Is there a manual?\n\nYes.\n")
    assert [b.label for b in blocks if b.kind == "question"] == ["Q1", "Q2", "q3"]


def test_an_article_numbered_with_a_letter_heads_its_rules_whatever_closes_its_title():
    # A federation's regulations: "ARTICLE B4: LONG TERM COMPONENT SUPPLY (LTCS)" headed nothing (a title in capitals
    # closed by an abbreviation in parentheses), B4.x filed under Article B3 and glued to its last rule.
    blocks = segment("ARTICLE B3: TEAMS\nB3.1 Each team has two cars.\nARTICLE B4: LONG TERM COMPONENT SUPPLY (LTCS)\n"
                     "B4.1 A team may buy components.\n")
    found = by_label(blocks)
    assert found["B3.1"].text == "Each team has two cars."
    assert found["B4.1"].section[-1] == "ARTICLE B4: LONG TERM COMPONENT SUPPLY (LTCS)"


def test_a_part_numbered_right_after_a_marked_heading_is_its_sibling_not_its_part():
    # A tournament page: "### 2. Game settings" over "#### 2.1 Settings" … "#### 2.5 Map-pool", then "3. Match length"
    # (a plain numbered title): filed under 2 and its paragraphs cited "2.3 ¶1", the number of rule 2.3.
    blocks = segment("### 2. Game settings\n\n#### 2.1. Settings\n\nVoice chat is for the team only.\n\n"
                     "#### 2.5. Map-pool\n\nSeven maps are played.\n\n3. Match length\n\n"
                     "All matches until the quarter-finals are best of one game.\n")
    match_length = next(b for b in blocks if b.text.startswith("All matches"))
    assert match_length.section[-1] == "3. Match length"
    assert "2. Game settings" not in match_length.section
    assert match_length.label != "2.3"
    # a round hundred's next number is its first part: "### 100. Overview" / "101. General" / "101.1 …"
    chapter = segment("### 100. Overview\n\n101. General\n\n101.1. This is the game's rules document.\n")
    assert by_label(chapter)["101.1"].section[-2:] == ("100. Overview", "101. General")


def test_a_question_a_sentence_leads_into_is_prose_not_a_question_over_what_follows():
    # An SRD's "The central question a traditional RPG asks is:" / "Will the heroes get the information they
    # need?": typed a question, its "answer" every paragraph to the section's end (903 words).
    blocks = segment("## Why This Game Exists\n\nThe central question a traditional roleplaying game asks is:\n\n"
                     "Will the heroes get the information they need?\n\nThis game ensures that the heroes get the "
                     "basic clues.\n\nInvestigations are about interpreting clues.\n")
    assert [b.kind for b in blocks] == ["paragraph"] * 4
    # an FAQ's questions, each after the answer before it, are questions
    faq = segment("## Combat\n\nCan a unit retreat twice?\n\nNo, once a turn.\n\nCan it advance?\n\nYes.\n")
    assert [b.kind for b in faq] == ["question", "question"]


def test_a_pictures_labels_in_capitals_head_nothing():
    # A publisher PDF's marker picture reads as a stack of labels ("Reminder" / "Back" / "DEFCON" / "Status"): "DEFCON"
    # was a section in capitals over chapters 3 to 7, outranking their "3.0" headings.
    blocks = segment("2.2 Cards\n2.2.1 Each card shows an Event.\nReminder\nBack\nDEFCON\nStatus\nAction\nRound\n"
                     "3.0 GAME SETUP\n3.1 Shuffle the Early War cards and deal each player 8 cards.\n")
    assert by_label(blocks)["3.1"].section[-1] == "3.0 Game Setup"
    assert not [b for b in blocks if "Defcon" in b.section]
    # a heading in capitals between lines of text heads them
    chapters = segment("The game is over.\n\nCOMBAT\n\nEach attack rolls two dice and adds its strength.\n")
    assert chapters[-1].section[-1] == "Combat"


def test_a_rule_headings_lettered_items_are_its_subrules():
    # A game guide's "4.2 Scoring" (setext) over "(a) Killing Opponents" … "(c) Returning valuable items": all one
    # unit of 142 words, cited 4.2 whichever way of scoring a judge looked up.
    blocks = segment("## 4.2 Scoring\n\nPoints are gained in a number of ways.\n\n(a) Killing Opponents\nEach combatant "
                     "has a score value.\n\n(b) Survivor Bonus\nThe last team alive adds its survivors' value.\n")
    assert [(b.label, b.parent) for b in blocks] == [("4.2", None), ("4.2a", "4.2"), ("4.2b", "4.2")]
    assert by_label(blocks)["4.2b"].text == "Survivor Bonus The last team alive adds its survivors' value."
    # an answer's lettered lines stay its text
    asked = segment("## Can a unit retreat twice?\n\nNo, unless:\n\n(a) it is a cavalry unit;\n(b) it is routed.\n")
    assert len(asked) == 1 and asked[0].kind == "question"


def test_a_sections_text_on_its_label_line_opens_past_the_labels_stop():
    # Plain-text bylaws: "Section 1.  This organization shall be called…" under "Article I.  Name and Purpose": each
    # section's text began ". This organization…", and the second section onwards was a run-in named "Section 2".
    blocks = segment("Article I.  Name and Purpose\n\n     Section 1.  This organization shall be called Tech Squares, "
                     "the\nSquare and Round Dance Club.\n\n     Section 2.  The club shall regularly hold modern "
                     "Western-style\nsquare dances.\n\n     Section 3.  The club shall hold classes to introduce "
                     "beginners\nto square dancing.\n")
    assert [b.text[:8] for b in blocks] == ["This org", "The club", "The club"]
    assert [b.title for b in blocks] == ["Section 1", "Section 2", "Section 3"]


def test_a_label_alone_over_a_title_after_the_last_chapter_heads_the_next_chapter():
    # A comprehensive rules PDF ends "13." / "Appendix: Previous Revision Summary" over a list of changes: with no
    # rule 13.1 under it, it was cited as a rule "12.4.13" of the chapter before, which the document never prints.
    chapters = "".join(f"{n}.\nChapter {n}\n\n{n}.1.\nGeneral\n\n{n}.1.1.\nRule {n} one holds.\n\n"
                       f"{n}.1.2.\nRule {n} two holds.\n\n" for n in range(1, 13))
    blocks = segment(chapters + "13.\nAppendix: Revision Summary\n\nSlightly reworked the definitions of actions.\n")
    changes = next(b for b in blocks if b.text.startswith("Slightly"))
    assert changes.section[-1] == "13 Appendix: Revision Summary" and "12.4.13" not in [b.label for b in blocks]
