"""Rulings cut by meaning in HTML and markdown documents: a test case or a heading numbered like a rule is one
ruling with the document's number, a question keeps its whole answer, the numbering decides parents, and code
blocks, footnotes and tables never become headings. The fixtures in tests/fixtures are excerpts written after
public documents (the Diplomacy Adjudicator Test Cases page, the Flesh and Blood comprehensive rules page, a
markdown conversion of the Lorcana rules, an HTML wargame FAQ, markdown league rules), parsed as `rulings add`
parses them (shape found, not given)."""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from ingest.manifest import source_entry
from ingest.pipeline import parse_source
from ingest.refs import abbreviation, ruling_refs
from ingest.segment import asks, first_sentence

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@cache
def parsed(name: str, folder: Path = FIXTURES):
    entry = source_entry({"id": "doc", "file": name, "game": "test", "title": name, "kind": "rulebook",
                          "language": "en", "shape": "auto", "section": ""})
    return parse_source(entry, folder)


def by_label(name: str, folder: Path = FIXTURES) -> dict:
    return {r.label: r for r in parsed(name, folder).rulings}


def refs(name: str, abbrev: str) -> dict[str, str]:
    source = parsed(name)
    return {r.label: ref for r, ref in zip(source.rulings, ruling_refs(source.rulings, abbrev).values(), strict=True)}


# -- test cases numbered in their headings (DATC) -------------------------------------------------------------

DATC = "datc-test-cases.html"
CASES = [f"6.A.{n}" for n in range(1, 13)] + [f"6.B.{n}" for n in range(1, 4)]


def test_each_test_case_is_one_ruling_with_its_description_orders_and_outcome():
    rulings = by_label(DATC)
    assert [label for label in rulings if label.startswith("6.")] == ["6.A", *CASES[:12], "6.B", *CASES[12:]]
    case = rulings["6.A.1"]
    assert case.kind == "rule" and case.title == "Test Case, Moving to An Area That Is Not a Neighbour"
    assert case.text == ("Check if an illegal move (without convoy) will fail.\nEngland:\nF North Sea - Picardy\n"
                         "Order should fail.")
    two_powers = rulings["6.A.5"].text
    assert "Germany:\nF London - Yorkshire\n" in two_powers and two_powers.endswith("army in Yorkshire.")
    assert rulings["6.B.1"].text.endswith("(see issue 4.B.1). I prefer that the move fails.")
    assert len(parsed(DATC).rulings) == 23  # front line, 2 intro paragraphs, 1.1, 2 of section 5, 6.A, 6.B, 15 cases


def test_a_test_case_sits_in_its_section_and_its_ref_is_the_documents_number():
    rulings = by_label(DATC)
    assert {rulings[label].section.rsplit(" > ", 1)[-1] for label in CASES[:12]} == {"6.A. Basic Checks"}
    assert rulings["6.B.3"].section.endswith("6. Test Cases > 6.B. Coastal Issues")
    assert rulings["6.A"].text.startswith("This section contains some basic checks")  # the section's own text
    found = refs(DATC, abbreviation("Diplomacy Adjudicator Test Cases"))
    assert [found[label] for label in ("6.A", "6.A.1", "6.A.12", "6.B.3")] == [
        "DATC 6.A", "DATC 6.A.1", "DATC 6.A.12", "DATC 6.B.3"]
    assert rulings["1.1"].title == "Notation"  # "1.1. NOTATION" over its paragraph is rule 1.1


def test_lines_of_a_code_block_are_never_headings_and_stay_with_the_text_that_introduces_them():
    source = parsed(DATC)
    sections = {part for r in source.rulings for part in r.section.split(" > ")}
    assert not sections & {"Loop", "End Loop", "End If", "End For"}
    assert not any(r.title.rstrip(":") in ("England", "Germany", "Italy", "Austria", "France") for r in source.rulings)
    loop = next(r for r in source.rulings if "END LOOP" in r.text)
    assert loop.title.startswith("An adjudicator that resolves the orders one by one")
    assert "\n# Resolve every order" in loop.text and loop.text.endswith("END IF\nEND LOOP")
    assert "Kruijswijk" not in source.rulings[-1].text  # the page's <address> is no rule


def test_a_test_case_in_plain_text_is_one_rule_titled_by_its_heading_line(tmp_path):
    rulings = text_rulings(tmp_path,
        "6.A. BASIC CHECKS\n\n6.A.1. TEST CASE, MOVE ARMY TO SEA\n\nCheck if an army could not be moved to open "
        "sea.\n\nEngland:\nA Liverpool - Irish Sea\n\nOrder should fail.\n\n6.A.2. TEST CASE, MOVE FLEET TO LAND\n\n"
        "Check whether a fleet can not move to land.\n\nGermany:\nF Kiel - Munich\n\nOrder should fail.\n")
    assert [(r.label, r.title, r.section) for r in rulings] == [
        ("6.A.1", "Test Case, Move Army to Sea", "6.A Basic Checks"),
        ("6.A.2", "Test Case, Move Fleet to Land", "6.A Basic Checks")]
    assert rulings[0].text.endswith("England: A Liverpool - Irish Sea Order should fail.")


# -- headings carrying rule numbers (FaB, Lorcana in markdown) --------------------------------------------

FAB = "fab-comprehensive-rules.html"
LORCANA_MD = "lorcana-turn-structure.md"


def test_a_heading_numbered_like_a_rule_is_that_rule_with_its_paragraphs_and_sub_items():
    rulings = by_label(FAB)
    assert [(label, rulings[label].title) for label in ("8.3.3", "8.3.4", "8.3.5", "8.3.6")] == [
        ("8.3.3", "Dominate"), ("8.3.4", "Go again"), ("8.3.5", "Intimidate"), ("8.3.6", "Opt")]
    assert rulings["8.3.4"].text.startswith("Go again is a resolution ability")  # both its paragraphs
    assert rulings["8.3.4"].text.endswith("does not give its controller the action point.")
    # its a. and b. are its subrules, cited as the rules cite them
    assert rulings["8.3.6"].text.endswith("on the top and/or bottom of your deck in any order.\"")
    assert [(rulings[label].text[:14], rulings[label].parent) for label in ("8.3.6a", "8.3.6b")] == [
        ("If a player is", rulings["8.3.6"].id), ("If a player's ", rulings["8.3.6"].id)]
    assert rulings["8.3"].kind == "paragraph" and rulings["8.3"].text.startswith("An ability keyword is")
    found = refs(FAB, abbreviation("Flesh and Blood"))
    assert [found[label] for label in ("8.3", "8.3.4", "8.3.5")] == ["FaB 8.3", "FaB 8.3.4", "FaB 8.3.5"]
    assert all(r.section.endswith("8 Keywords > 8.3 Ability Keywords") for label, r in rulings.items()
               if label.startswith("8.3.") and label[-1].isdigit())
    assert rulings["8.3.6a"].section.endswith("8.3 Ability Keywords > 8.3.6 Opt")


def test_a_heading_whose_number_is_only_in_its_anchor_carries_it():
    intimidate = by_label(FAB)["8.3.5"]  # <h4 id="8.3.5">Intimidate</h4>
    original = parsed(FAB).original_text
    assert original[intimidate.citation.char_start:].startswith("Intimidate is an effect")
    assert '<h4 id="8.3.5">' in original


def test_an_empty_numbered_heading_is_a_heading_and_no_ruling(tmp_path):
    rulings = by_label(FAB)
    assert "5.0" not in rulings
    assert rulings["5.1.1"].section.endswith("5 Layers, Cards, & Abilities > 5.1 Playing Cards")
    text = "4.3.8. A character can quest.\n\n5.0 General\n\n5.1 Layers\n\n5.1.1. A layer is an object.\n"
    assert not any(r.label == "5.0" or "General" in r.section for r in text_rulings(tmp_path, text))


def test_a_subrule_is_the_latest_rule_of_its_parents_number_before_it(tmp_path):
    # A constitution numbers each article's sections afresh: Article V's "2." and its items are not Article
    # III's, whose "2.1" the numbers would name first.
    (tmp_path / "constitution.md").write_text(
        "# League Constitution\n\n## Article III\n\n1. The Commissioner is hereby established.\n"
        "2. The Commissioner shall:\n   1. serve as the league's officer;\n   2. appoint deputies.\n\n"
        "## Article V\n\n1. Games are scored online.\n2. Scoring categories:\n   1. Passing categories:\n"
        "      1. Passing yards (0.05)\n      2. Passing touchdowns (4)\n", encoding="utf-8")
    rulings = parsed("constitution.md", tmp_path).rulings
    passing = next(r for r in rulings if r.text.startswith("Passing yards"))
    parent = next(r for r in rulings if r.id == passing.parent)
    assert parent.text == "Passing categories:" and "> Article V >" in parent.section
    assert "> Article V >" in passing.section and "Article III" not in passing.section


def text_rulings(folder: Path, text: str, name: str = "rules.txt"):
    """The rulings of a small document written to `folder` as `name` (plain text, else as its suffix says)."""
    (folder / name).write_text(text, encoding="utf-8")
    return parsed(name, folder).rulings


def test_a_heading_holding_the_paths_separator_keeps_its_whole_name(tmp_path):
    # "#### History < subject > (Wis)" was cited "(Wis) 1" and "Usage die" / "**d20 > d12 > d10**" read as a chain
    # of three headings: " > " is what parts a section's path.
    text = "# Skills\n\n#### History < subject > (Wis)\n\nKnowledge about past events.\n"
    rulings = text_rulings(tmp_path, text, "skills.md")
    assert [r.section for r in rulings] == ["Skills > History ‹ subject › (Wis)"]
    assert list(ruling_refs(rulings, "A").values()) == ["A History ‹ subject › (Wis) 1"]


def test_a_paragraph_beside_numbered_parts_is_marked_apart_from_them(tmp_path):
    # "## Turns" over two paragraphs and "### 1. Initiative Phase" … "### 2. Fate Phase": the paragraphs were cited
    # "Turns 1" and "Turns 2", the phases "Turns 1 ¶1" and "Turns 2 ¶1" (a judge asking for Turns 2 read "Each turn
    # follows this structure:").
    text = ("# Game Rules\n\n## Turns\n\nA battle has four turns.\n\nEach turn follows this structure:\n\n"
            "### 1. Initiative Phase\n\nBoth players roll a die.\n\n"
            "### 2. Fate Phase\n\nEach player rolls Fate Dice.\n")
    rulings = text_rulings(tmp_path, text, "rules.md")
    assert list(ruling_refs(rulings, "G").values()) == ["G Turns ¶1", "G Turns ¶2", "G 1 ¶1", "G 2 ¶1"]


def test_a_paragraph_of_one_glyph_is_no_ruling(tmp_path):
    # An icon font's letters beside each heading ("<span class='title-icon'>C</span>") and a flow chart's "↓"
    # were rulings of their own: "C", "b", "↓".
    page = ("<h1><span class='title-icon'>C</span></h1><h2>Exploration</h2><div>b</div><p>Each Seeker takes one "
            "role.</p><div class='flow-arrow'>↓</div><p>Then the Archivist rolls.</p>")
    assert [r.text for r in text_rulings(tmp_path, page, "exploration.html")] == [
        "Each Seeker takes one role.", "Then the Archivist rolls."]
    # nor is a page's number alone, which a conversion left between the paragraphs
    assert [r.text for r in text_rulings(tmp_path, "Roll two dice.\n\n17\n\nMove that far.\n")] == [
        "Roll two dice.", "Move that far."]


def test_the_numbering_decides_parents_whatever_the_heading_markup():
    rulings = by_label(LORCANA_MD)
    main = "4. Turn Structure > 4.3. Main Phase"
    assert rulings["4.3.6.1"].section.endswith(main + " > 4.3.6 Challenge")  # "## 4.3.6" under "### 4.3."
    assert rulings["4.3.7"].section.endswith(main) and rulings["4.3.8"].section.endswith(main)
    assert rulings["4.3.5.1"].section.endswith(main + " > 4.3.5 Quest")
    assert rulings["5.1.1"].section.endswith("5. Cards and Card Types > 5.1. Card Parts")


# -- questions and their answers ------------------------------------------------------------------------------

FAQ = "wargame-faq.html"


def test_an_faq_answers_own_lettered_list_stays_in_its_question():
    rulings = by_label(FAQ)
    assert not {label for label in rulings if re.fullmatch(r"54[a-h]", label)}
    answer = rulings["54"]
    assert answer.kind == "question" and answer.title == "What may a unit do in the Exploitation Phase?"
    assert "(a) move up to its full Movement Allowance" in answer.text and "(h) do nothing." in answer.text
    assert answer.text.endswith("See also rule 4.3b.")
    assert [rulings[n].kind for n in ("52", "53", "55")] == ["question"] * 3
    assert "| 3 or more | 2 | 4.5 |" in rulings["55"].text  # the table is part of the answer


def test_a_heading_that_asks_is_a_question_with_its_whole_answer():
    question = next(r for r in parsed(FAQ).rulings if r.title == "Does a defender in a city double its strength?")
    assert question.kind == "question" and question.section.endswith("Combat")
    assert question.text.startswith("Does a defender in a city double its strength? Only against")
    assert "- a major city hex triples it." in question.text
    assert [e.text for e in question.examples] == [
        "a 4-strength infantry unit in Berlin defends at 12 against an attack that includes armor."]


def test_a_numbered_question_keeps_its_answers_numbered_list(tmp_path):
    text = ("FAQ\n\n12. How do I set up the board?\nIn this order:\n1. Lay out the map.\n2. Place the units.\n\n"
            "13. Who moves first?\nThe Axis player.\n")
    rulings = {r.label: r for r in text_rulings(tmp_path, text)}
    assert sorted(rulings) == ["12", "13"]
    assert rulings["12"].text.endswith("1. Lay out the map.\n2. Place the units.")


def test_an_answer_keeps_its_numbered_list_and_a_table_cell_heads_nothing(tmp_path):
    text = ("Setup\n\nQ: How do I set up?\nA: In this order:\n1. Lay out the map.\n2. Place the units.\n\n"
            "Q: Who moves first?\nA: The Axis player.\n")
    rulings = text_rulings(tmp_path, text)
    assert [r.kind for r in rulings] == ["question", "question"]
    assert rulings[0].text.endswith("1. Lay out the map.\n2. Place the units.")
    (tmp_path / "table.md").write_text("## Turn\n\nPhases:\n\n| END PHASE | Discard |\n|---|---|\n| DRAW | 2 |\n\n"
                                       "Play passes left.\n", encoding="utf-8")
    assert {r.section for r in parsed("table.md", tmp_path).rulings} == {"Turn"}

# -- headings whatever their case; footnotes and tables never headings -------------------------------------

LEAGUE = "league-tournament-rules.md"


def test_markdown_and_bold_headings_are_headings_whatever_their_case():
    sections = {r.section.rsplit(" > ", 1)[-1] for r in parsed(LEAGUE).rulings}
    assert {"3 BASIC RULES and what you can do", "Rule Disputes/Tie Votes", "Late Arrival"} <= sections
    faq_sections = {r.section.rsplit(" > ", 1)[-1] for r in parsed(FAQ).rulings}
    assert "Rule Disputes/Tie Votes" in faq_sections


def test_a_footnote_is_no_heading_and_parents_nothing():
    for name, note in ((LEAGUE, "A judge is any staff member wearing a red shirt."),
                       (FAQ, "Except for the scenario special rules, which always win."),
                       (FAB, "A player's hero is also called their “hero card” in older printings.")):
        rulings = parsed(name).rulings
        footnote = next(r for r in rulings if r.text.startswith(note))
        assert footnote.kind == "paragraph" and footnote.text == note
        assert not any(note[:20] in r.section for r in rulings)
        assert not any(re.search(r"\[\^\d\]|[a-z]\.\d\b|↩", r.text) for r in rulings)  # no marks or back links
    assert "8.3.6.1" not in by_label(FAB)  # a footnote list is not rules numbered under the last heading


def test_a_code_block_in_markdown_stays_in_the_paragraph_that_introduces_it():
    rulings = parsed(LEAGUE).rulings
    decklist = next(r for r in rulings if r.title.startswith("Decklists are handed in"))
    assert decklist.text.endswith("# Main deck (60)\n4 Lightning Bolt\n4 Counterspell\n# Sideboard (15)\n"
                                  "3 Pyroblast\nEND OF LIST")
    assert not any(part in ("Main deck (60)", "Sideboard (15)", "End of List") for r in rulings
                   for part in r.section.split(" > "))
    table = next(r for r in rulings if "| Win | 3 |" in r.text)
    assert table.section.endswith("Rule Disputes/Tie Votes")


# -- abbreviations --------------------------------------------------------------------------------------------

def test_an_abbreviation_is_initials_or_a_whole_word_never_a_cut_one():
    assert [abbreviation(name) for name in ("Diplomacy", "Emberfall", "Diplomacy Adjudicator Test Cases",
                                            "Flesh and Blood")] == ["Diplomacy", "Emberfall", "DATC", "FaB"]


def test_a_numbered_question_heading_keeps_its_number_and_a_blank_code_line_is_no_fence(tmp_path):
    (tmp_path / "faq.md").write_text("## Movement\n\n### 54. What may a unit do?\n\nAny of these:\n\n(a) move;\n\n"
                                     "(b) attack.\n\n## Notes\n\nA log:\n\n```\nturn 1\n\nturn 2\n```\n",
                                     encoding="utf-8")
    rulings = parsed("faq.md", tmp_path).rulings
    assert [(r.label, r.kind, r.title) for r in rulings[:1]] == [("54", "question", "What may a unit do?")]
    assert rulings[0].text == "What may a unit do? Any of these: (a) move; (b) attack."
    (tmp_path / "log.txt").write_text("Notes\n\nA log:\n```\nturn 1\n\nturn 2\n```\nEnd of the log.\n",
                                      encoding="utf-8")
    assert parsed("log.txt", tmp_path).rulings[-1].text == "A log:\nturn 1\nturn 2\nEnd of the log."


# -- parents within their headings; questions put to the reader ----------------------------------------------

def test_a_subrule_is_no_part_of_a_rule_of_its_number_under_other_headings(tmp_path):
    rulings = {r.label: r for r in text_rulings(
        tmp_path, "# Glossary\n\n## Dealing Damage\n\n1. Assign damage: place the tokens beside the cards.\n\n"
        "2. Apply damage: move the tokens onto the cards.\n\n# Appendix: Timing\n\n## Mythos phase\n\n"
        "1.1 Round begins. This step begins the round.\n\n1.2 Place 1 doom on the agenda.\n", "rules.md")}
    assert rulings["1.1"].parent is None and rulings["1.1"].section == "Appendix: Timing > Mythos phase"
    assert rulings["1.2"].section == "Appendix: Timing > Mythos phase"


def test_a_subrule_under_its_rules_heading_is_still_its_part(tmp_path):
    rulings = text_rulings(tmp_path, "Combat\n\n7.1 Attacks. A unit attacks once a turn.\n\n"
                                     "7.1.1 A unit that moved attacks at half strength.\n")
    subrule = next(r for r in rulings if r.label == "7.1.1")
    assert subrule.parent == next(r.id for r in rulings if r.label == "7.1")
    assert subrule.section.endswith("> 7.1 Attacks.") or subrule.section.endswith("7.1 Attacks")


def test_a_line_closing_a_parenthesis_it_never_opened_heads_nothing(tmp_path):
    rulings = text_rulings(
        tmp_path, "## 6 End Phase\n\n6-6-2. Players may activate Action cards. (See 8.\n\nAction Steps)\n\n"
        "6-6-3. End Step\n\n6-6-3-1. Effects that say \"at the end of the turn\" activate.\n", "rules.md")
    assert not any("Action Steps)" in r.section for r in rulings)


def test_a_question_put_to_the_reader_among_prose_is_no_faq_question(tmp_path):
    prose = "\n\n".join(f"Rule text number {n} explains how play goes on." for n in range(1, 10))
    rulings = text_rulings(
        tmp_path, f"## Play Abilities\n\n{prose}\n\nWhen you play Targeted Marketing, what happens? The first "
        f"sentence keeps it in play.\n\n{prose}\n\n## FAQ\n\nCan a reserve army double its magic? No, only in the "
        "terrain.\n\nDoes a rout end the turn? Yes, at once.\n", "rules.md")
    kinds = {r.text.split("?")[0]: r.kind for r in rulings}
    assert kinds["When you play Targeted Marketing, what happens"] == "paragraph"
    assert kinds["Can a reserve army double its magic"] == kinds["Does a rout end the turn"] == "question"


def test_a_paragraph_asks_only_when_its_first_sentence_does():
    assert asks("If the Corp is playing Harishchandra Ent. and the Runner is tagged, can it reveal? Yes.")
    assert asks("Q: Who moves first? The Axis player.")
    assert not asks("When you roll, say what you want. How might it go wrong? Tell the table.")
    # "Question" labels a question only with its stop or colon (and maybe a number): a quiz rulebook's definition
    # "Question types are part of 1 or more question type groups…" was typed a question
    assert asks("Question 3: Who moves first? The Axis player.") and asks("Question. Who moves? White.")
    assert not asks("Question types are part of question type groups. Can a type be in two? Yes.")


def test_questions_a_rulebook_asks_rarely_are_asides_even_side_by_side(tmp_path):
    prose = "\n\n".join(f"Rule text number {n} explains how a test goes." for n in range(1, 25))
    rulings = text_rulings(
        tmp_path, f"## Tests\n\n{prose}\n\nIf a hero sneaks by a guard, should the hero make an Agility test? Yes, "
        "with the Sneak skill.\n\nA test is made with two dice.\n\nCan a hero try again? Only when the circumstances "
        f"change.\n\n## Example\n\n{prose}\n", "rules.md")
    assert not [r.text for r in rulings if r.kind == "question"]


def test_a_list_of_names_a_colon_introduces_stays_whole_though_a_later_name_runs_longer(tmp_path):
    rulings = text_rulings(
        tmp_path, "# Game Rules\n\n## Setup\n\nEach player takes a board.\n\n## Declaring the Winner\n\n"
        "On a tie, use these tiebreakers (in order):\n\n1. Number of workers\n2. Power\n3. Popularity\n"
        "4. Number of territories controlled\n5. Number of star tokens placed on board\n\n"
        "The winner may write their name.\n", "rules.md")
    assert [r.kind for r in rulings] == ["paragraph"] * 3
    assert rulings[1].text.endswith("5. Number of star tokens placed on board")


def test_rules_and_headings_numbered_under_a_parts_letter_are_read(tmp_path):
    # A speedrunning rulebook numbers "A.1.1)", "A.1.2.a)" under "A.1: General World and Game Creation": every rule
    # ran into one paragraph under one heading.
    rulings = text_rulings(tmp_path, "Speedrun Rules\n\nA: Universal Ruleset\n\nA.1: General World and Game Creation\n"
                                     "A.1.1) An allowed launcher must be used.\nA.1.2) The game must be unmodified.\n"
                                     "A.1.2.a) Resource packs are allowed.\nA.1.3) Seeds must be random.\n\n"
                                     "A.2: Timing\nA.2.1) Timing starts on world creation.\n")
    rules = {r.label: (r.text, r.section) for r in rulings if r.kind == "rule"}
    general = "A.1 General World and Game Creation"
    assert rules == {"A.1.1": ("An allowed launcher must be used.", general),
                     "A.1.2": ("The game must be unmodified.", general),
                     "A.1.2.a": ("Resource packs are allowed.", f"{general} > A.1.2 The game must be unmodified."),
                     "A.1.3": ("Seeds must be random.", general),
                     "A.2.1": ("Timing starts on world creation.", "A.2 Timing")}


def test_sections_lettered_in_order_are_no_alphabetical_glossary(tmp_path):
    # A federation's rules letter their sections "A." to "I." under an "About": in alphabetical order, they read as
    # a glossary's entries, and the sections whose text opens with a paragraph became glossary terms.
    sections = "".join(f"## {letter}. {name}\n\n*An introduction to {name.lower()}.*\n\n1. A rule of {letter}.\n\n"
                       for letter, name in zip("ABCDEFGHI", ("Definitions", "Equipment", "Execution", "Tossups",
                                                            "Bonuses", "Forfeits", "Grace", "Protests", "Integrity")))
    rulings = text_rulings(tmp_path, f"## About\n\n*These are the official rules.*\n\n{sections}", "rules.md")
    assert not [r.title for r in rulings if r.kind == "glossary"]


def test_a_rule_opening_the_section_after_a_heading_ending_on_a_citing_word_is_that_rule(tmp_path):
    # "### 4.6 - Race Chat Rules" ends on "Rules", which cites a rule when a sentence wraps its number onto the
    # next line; a heading's line ends where the markup does, so "4.6.1 - …" is rule 4.6.1, titled without the dash.
    rulings = text_rulings(tmp_path, "# Event Regulations\n\n### 4.5 - Pit Lane\n\n4.5.1 - The pit lane speed is "
                                     "limited.\n\n### 4.6 - Radio Rules\n\n4.6.1 - Radio is for essential messages "
                                     "only.\n\n4.6.2 - Stewards may mute a driver.\n\n### 4.7 - Reserve Section\n\n"
                                     "Entries close a week before.\n", "rules.md")
    rules = {r.label: (r.kind, r.section, r.title) for r in rulings}
    assert rules["4.6.1"] == ("rule", "Event Regulations > 4.6 - Radio Rules", "Radio is for essential messages only.")
    assert "4.6" not in rules
    assert rules["4.7"][2] == "Reserve Section"  # a numbered heading's own text, its title past "4.7 - "


def test_notes_keyed_by_stars_under_a_table_are_its_text_and_head_nothing(tmp_path):
    # A markdown note escapes its stars ("_\*\*\* Only from cover._"); written as text, "*** Only from cover."
    # read as a bold heading, and every later section sat under it. The notes explain the table's starred cells:
    # they are the table's text.
    rulings = text_rulings(tmp_path, "# Combat\n\n## Modifiers\n\n| Situation | Grade |\n| :-- | :-- |\n"
                                     "| Wind\\* | Hard |\n| Prone\\*\\* | Formidable |\n\n_\\* Only for thrown weapons._"
                                     "\n\n_\\*\\* Only from cover._\n\n## Aiming\n\nAiming takes a turn.\n", "rules.md")
    table = [r.text for r in rulings if r.section == "Combat > Modifiers"]
    assert len(table) == 1 and table[0].endswith("| Prone** | Formidable |\n* Only for thrown weapons. ** Only from cover.")
    assert [r.section for r in rulings if r.text == "Aiming takes a turn."] == ["Combat > Aiming"]


def test_a_heading_wrapped_onto_a_second_line_keeps_its_whole_title(tmp_path):
    # A PDF's text wraps a part's heading after a connector ("…, SERVICE SEQUENCE, AND" / "SCORING RULES") and a
    # rule's name at the text's width ("… Match Scoring" / "Guidelines"): the second line was a ruling of its own.
    rulings = text_rulings(tmp_path, "Official Rulebook\n\nSECTION 4 – THE SERVE, SERVICE SEQUENCE, AND\n"
                                     "SCORING RULES\n4.A. Serving.\n4.A.1. The entire score must be called before "
                                     "the ball is served.\n4.A.2. The server must serve to the correct service "
                                     "court on the diagonal.\n4.B. Forfeit, Ejection and Retirement Scoring Rules "
                                     "for Matches\nGuidelines\n4.B.1. Actual game scores at the time of retirement "
                                     "shall be reported.\n4.B.2. The opponents are awarded all points needed to "
                                     "complete the match.\n")
    sections = {r.label: r.section for r in rulings}
    assert sections["4.A.1"] == "SECTION 4 – THE SERVE, SERVICE SEQUENCE, AND SCORING RULES > 4.A Serving."
    assert sections["4.B.1"].endswith("4.B Forfeit, Ejection and Retirement Scoring Rules for Matches Guidelines")
    assert not [r for r in rulings if r.text in ("SCORING RULES", "Guidelines")]
    # a chapter's decimal heading wrapped after a connector ("8.0 DEFCON STATUS AND" / "MILITARY OPERATIONS"): the
    # second line was a section in capitals over chapters 8 to 11
    chapters = text_rulings(tmp_path, "Twilight Rules\n\n7.6 War Events: There are five War Events in the deck.\n"
                                      "8.0 DEFCON STATUS AND\nMILITARY OPERATIONS\nStrange game. The only winning "
                                      "move is not to play.\n8.1 The DEFCON Track\n8.1.1 DEFCON status measures "
                                      "nuclear tension in the game.\n9.0 CHINA\n9.1 China has a role in the Cold "
                                      "War.\n", name="twilight.txt")
    assert [r.title for r in chapters if r.label == "8.0"] == ["Defcon Status and Military Operations"]
    assert not [r for r in chapters if "Military Operations" in r.section.split(" > ")]
    assert {r.label: r.section for r in chapters}["9.1"].endswith("9.0 China")


def test_numbered_parts_show_their_numbers_and_cite_their_paragraphs_by_them(tmp_path):
    # "1. Scope" heads rule 1.1 (a place), "2. Hits" and "3. Catches" head paragraphs: they were "Hits", "Catches"
    # (as the first part of their run was shown), their paragraphs "Hits 1", where the document prints 2 and 3.
    rulings = text_rulings(tmp_path, "Official Gameplay Rules\n\n1. Scope\n1.1. Purpose\nThis document holds the "
                                     "official gameplay rules for every event of the league.\n2. Hits\nA player hit "
                                     "by any part of an arrow, on any part of them, is eliminated from play.\n"
                                     "3. Catches\nA player who catches an arrow is not eliminated, and the shooter is "
                                     "eliminated instead.\n")
    assert [r.section for r in rulings] == ["Scope", "2. Hits", "3. Catches"]


def test_a_list_items_line_wrapped_mid_clause_goes_on_and_heads_nothing(tmp_path):
    # "○ If the player juggles an arrow…, it is" / "NOT a catch": the item's last words, not a heading.
    rulings = text_rulings(tmp_path, "Catches\n● If a player catches an arrow, the catcher is not eliminated and the "
                                     "shooter is.\n○ If the player juggles an arrow but it then drops into their hand, "
                                     "it is\nNOT a catch\n○ A catch made while standing in the neutral zone still "
                                     "counts for the team.\n")
    assert not [r for r in rulings if "NOT a catch" in r.section]
    assert any("it is NOT a catch" in r.text for r in rulings)


def test_names_pointing_to_their_rules_head_the_changes_they_summarise(tmp_path):
    # A rulebook's summary of changes: "Spin Serves (4.A.5)" over its paragraph, each change a unit of its own; all
    # ran into two paragraphs of 270 words.
    rulings = text_rulings(tmp_path, "SIGNIFICANT RULE CHANGES FOR 2022\nSpin Serves (4.A.5)\nIn 2022, the server "
                                     "shall use only one hand to release the ball to perform the serve.\n"
                                     "The Drop Serve (4.A.6)\nNo changes were made to the drop serve other than to "
                                     "remove its provisional status.\nWrong Score Called (4.K)\nA player may stop "
                                     "play to ask for a correction before the ball is served.\n")
    assert [r.section.rpartition(" > ")[2] for r in rulings] == [
        "Spin Serves (4.A.5)", "The Drop Serve (4.A.6)", "Wrong Score Called (4.K)"]


def test_a_long_question_its_markup_marks_as_a_heading_is_a_question_of_its_own(tmp_path):
    # "### If a card…?" of 126 characters was text of the question before it: two questions and answers in one unit.
    long = ("If a card tells me to lower my production of a resource by one, can I still play it when I have no "
            "production of that resource?")
    rulings = text_rulings(tmp_path, f"# Card FAQ\n\n## Cards\n\n### Can a card cost less than nothing?\n\nNo. A "
                                     f"discount stops at zero.\n\n### {long}\n\nNo. You must lower it by the full "
                                     f"amount.\n", "rules.md")
    assert [(r.kind, r.title) for r in rulings] == [("question", "Can a card cost less than nothing?"),
                                                   ("question", long)]


def test_a_pages_skip_link_is_navigation_not_front_matter(tmp_path):
    # A site generator's "Skip to content" link (MkDocs' `md-skip`, WordPress' `skip-link`) was the page's first ruling.
    page = ('<html><body><a href="#armor" class="md-skip">Skip to content</a><a class="skip-link" href="#main">Skip '
            'to main</a><main><h1 id="armor">Armor</h1><p>Armor reduces the damage you take by its score.</p>'
            '<h2>Thresholds</h2><p>Mark a Hit Point when damage meets your Major threshold.</p></main></body></html>')
    rulings = text_rulings(tmp_path, page, "rules.html")
    assert not [r for r in rulings if "Skip" in r.text]
    assert [r.text for r in rulings][0] == "Armor reduces the damage you take by its score."


def test_a_line_in_capitals_under_marked_headings_is_a_part_of_them_not_a_chapter_over_them(tmp_path):
    # An FAQ's unfinished answer "TODO" was read as a chapter at level 1: every later "## FAQ: …" sat under it.
    rulings = text_rulings(tmp_path, "# Card FAQ\n\n## Solo\n\n### Can I play alone?\n\nTODO\n\nFurther notes: lose "
                                     "one point a round.\n\n## Venus\n\n### Does the game end at once?\n\nNo. It ends "
                                     "after the round.\n", "rules.md")
    assert [r.section for r in rulings if r.text.startswith("No.") or "Does the game" in r.text] == ["Card FAQ > Venus"]


def test_a_numbered_heading_after_a_deeper_one_and_a_bold_name_is_its_siblings_sibling(tmp_path):
    # Tournament rules: "#### 3.1.6 Tournament Without Final" after "##### 3.1.5a" and a bold "Free Choice Method"
    # was filed under "3.1.5 Multi-Deck System".
    rulings = text_rulings(tmp_path, "### 3.1. Round Structure\n\nThree rounds.\n\n#### 3.1.5 Multi-Deck System\n\n"
                           "No changes.\n\n##### 3.1.5a Multi-Deck Finals\n\nAnnounce the method.\n\n"
                           "**Free Choice Method**\nFinalists choose.\n\n#### 3.1.6 Tournament Without Final\n\n"
                           "Small events may omit it.\n", "rules.md")
    assert next(r for r in rulings if r.label == "3.1.6").section.endswith("3.1. Round Structure")


def test_a_converted_documents_repeated_sentence_opening_is_no_running_header_and_a_colon_closes_a_heading():
    # A site's rules read as converted word-processor paragraphs: "These rules are…", "These are…", "These cards…"
    # were taken for a page header, and "These" silently deleted from each; "New Rule: when…" was headed "New".
    from ingest.shapes.prose import doc_units
    from ingest.text import MappedText
    text = ("These rules are shared by every game.\nCreate a deck of tiles.\nThese are vehicle cards.\n"
            "These cards show the location.\nNew Rule: when you take damage, take a Time Card instead.\n")
    doc, units = doc_units(MappedText.of(text))
    assert [doc.text[u.start:u.end] for u in units][:3] == [
        "These rules are shared by every game.", "Create a deck of tiles.", "These are vehicle cards."]
    assert (units[-1].heading, doc.text[units[-1].start:units[-1].end]) == (
        "New Rule", "when you take damage, take a Time Card instead.")
    # a header glued to the paragraphs that start a page, each going on with a capital, goes
    paged = "Wizard Dice Counter Spells Counter spells stop.\nAnother paragraph.\nWizard Dice Summon Spells Summon " \
            "spells call.\nWizard Dice Healing Spells Healing spells heal.\n"
    doc, units = doc_units(MappedText.of(paged))
    assert [u.heading for u in units if u.heading] == ["Counter Spells", "Summon Spells", "Healing Spells"]


def test_a_hard_wrapped_text_is_no_word_processors_paragraph_per_line():
    # A scanned rulebook's text layer, its sentences wrapped line by line: the doc shape made every printed line a
    # ruling (269 of them), "holds the Title Deed cards…" one, "and use by the players." another.
    from ingest.shapes.prose import doc_units
    from ingest.text import MappedText
    text = ("THE BANK: Besides the Bank's money, the Bank\nholds the Title Deed cards and houses prior to purchase\n"
            "and use by the players. The Bank pays salaries. It sells\nand auctions properties.\n"
            "THE PLAY: Starting with the Banker, each player throws the dice.\n")
    assert doc_units(MappedText.of(text))[1] == []


def test_a_title_never_ends_inside_a_parenthesis():
    # A wargame's "Anglo-Egyptian Royal Engineers (Royal Eng. 5-3-8): These units…" was titled "…(Royal Eng.".
    assert first_sentence("Royal Engineers (Royal Eng. 5-3-8): These units build the zariba. They move slowly.") \
        == "Royal Engineers (Royal Eng. 5-3-8): These units build the zariba."
    assert first_sentence("Roll a die (see 4.2). Then move.") == "Roll a die (see 4.2)."
