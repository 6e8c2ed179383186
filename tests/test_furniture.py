"""Page furniture goes and what it said stays: running headers and footers found by repetition across pages
are removed, their page numbers kept for citations; contents pages become structure; the front matter's
version and date become metadata. Real text, and the rules in it, are never touched."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ingest.furniture import normalise, strip_furniture
from ingest.titles import named_by_file
from ingest.text import MappedText, read_document

ROOT = Path(__file__).resolve().parents[1]
CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
RULE_LINE = re.compile(r"^\s*\d+\.\d+(?:\.\d+)*\.\s", re.M)
QA_LINE = re.compile(r"^\s*[QA][:.]\s", re.M)


def corpus(name: str) -> str:
    path = CORPORA / name
    if not path.exists():
        pytest.skip(f"{path} is absent (the shared corpora sit beside the project)")
    return read_document(path)


def lines_of(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n") if line.strip()]


@pytest.fixture(scope="module")
def rules():
    original = corpus("lorcana-comprehensive-rules-2.2.0.txt")
    return original, strip_furniture(MappedText.of(original))


@pytest.fixture(scope="module")
def set_notes():
    original = corpus("lorcana-first-chapter-set-notes.txt")
    return original, strip_furniture(MappedText.of(original))


def test_running_footers_leave_the_rules_text(rules):
    _, found = rules
    assert [line for line in lines_of(found.text.text)
            if "Winnie the Pooh" in line or "disneylorcana.com" in line or "©Disney" in line] == []
    assert found.removed["disneylorcana.com"] == 55
    assert found.removed['Based on the "Winnie the Pooh" works by A.A. Milne and E.H. Shepard. #'] == 55


def test_every_numbered_rule_outside_the_contents_is_kept(rules):
    original, found = rules
    contents = original.index("\nCONTENTS\n")
    body = original[:contents] + original[original.index("disneylorcana.com", contents):]
    assert len(RULE_LINE.findall(found.text.text)) == len(RULE_LINE.findall(body))


def test_a_two_column_contents_becomes_entries_in_reading_order(rules):
    original, found = rules
    assert ("8.3", "Bodyguard") in found.contents
    assert ("6", "ABILITIES, EFFECTS, AND RESOLVING") in found.contents
    assert found.contents[:2] == [("1", "CONCEPTS"), ("1.1", "General")]
    assert found.contents[-1] == ("", "GLOSSARY")
    assert found.contents.index(("5.6", "Locations")) + 1 == found.contents.index(
        ("6", "ABILITIES, EFFECTS, AND RESOLVING"))
    assert len(found.contents) == 75
    contents = original.index("\nCONTENTS\n")
    page = set(lines_of(original[contents:original.index("disneylorcana.com", contents)]))
    assert page & set(lines_of(found.text.text)) == set()


def test_front_matter_version_and_date_become_metadata(rules):
    _, found = rules
    assert found.metadata == {"title": "COMPREHENSIVE RULES", "version": "2.2.0", "date": "July 9, 2026",
                              "date_iso": "2026-07-09"}
    assert not [line for line in lines_of(found.text.text) if line in ("Version 2.2.0", "Effective July 9, 2026")]


def test_a_rule_is_on_the_page_its_footer_numbers(rules):
    original, found = rules
    assert found.pages.numbers == list(range(1, 56))
    assert found.pages.page_of(original.index("1.1.1. The Disney Lorcana TCG")) == 3
    assert found.pages.page_of(original.index("8.3. Bodyguard")) == 41


def test_set_notes_lose_header_and_footer_but_keep_every_question(set_notes):
    original, found = set_notes
    kept = lines_of(found.text.text)
    assert [line for line in kept if "August 28, 2023" in line or "©Disney" in line
            or line == "TRADING CARD GAME"] == []
    assert len(QA_LINE.findall(found.text.text)) == len(QA_LINE.findall(original))
    assert dict(found.removed) == {"TRADING CARD GAME": 5, "August #, # #": 5, "©Disney": 5}
    # The cover's next title-like line is kept beside the title: it joins the title only where it names the game
    # and the title does not (titles.document_title).
    assert found.metadata == {"title": "Disney Lorcana TCG: The First Chapter Set Notes", "subtitle": "GENERAL RULES",
                              "date": "August 28, 2023", "date_iso": "2023-08-28"}
    assert found.pages.page_of(original.index("Q: Say I have an Elsa")) == 3


def test_a_page_break_inside_a_paragraph_closes_up(set_notes):
    _, found = set_notes
    text = found.text.text
    assert "of playing the song.\n\n          Inkwell\n" in text  # a paragraph ends at the break: one blank line


@pytest.mark.parametrize("name, removed", [
    ("000_088e7e94a27c7b38.txt", {}),
    ("001_ffda817ed1982c66.txt", {"Wednesday, April 25, 2007": 1}),  # the blog post's date, read as metadata
    ("002_4037a7feb80c46c0.txt", {}),
    ("003_b0b5747383715511.txt", {"#.doc": 4, "Page # of #": 4}),  # the .doc export's page footers
    ("004_f1c101e16fb3de0e.txt", {}),
])
def test_seeds_lose_nothing_but_their_furniture(name, removed):
    original = read_document(ROOT / "sources" / name)
    found = strip_furniture(MappedText.of(original))
    assert dict(found.removed) == removed
    assert found.contents == []
    assert lines_of(found.text.text) == [line for line in lines_of(original)
                                         if normalise(line) not in removed and line not in removed]


def test_the_blog_date_is_the_source_date():
    found = strip_furniture(MappedText.of(read_document(ROOT / "sources" / "001_ffda817ed1982c66.txt")))
    assert found.metadata["date_iso"] == "2007-04-25"
    assert found.metadata["title"] == "Dungeon Twister Rules Clarifications"


def paged_rulebook() -> list[str]:
    """Four pages of an excerpt printed as pages 11 to 14, each under a running header and over a footer."""
    bodies = [
        "1.1. Each player starts with seven cards.\n1.2. The first player skips their first draw.",
        "2.1. On their turn the active player\n",
        "draws a card and may play one.\n2.2. Cards in hand are private.",
        "3.1. The game ends when a player reaches 20 lore.",
    ]
    return [f"ACME QUEST RULEBOOK\n\n{body}\n\n© 2024 Acme Games    {number}\n"
            for number, body in zip(range(11, 15), bodies)]


def test_form_feed_pages_lose_header_and_footer_and_keep_printed_numbers():
    original = "\f".join(paged_rulebook())
    found = strip_furniture(MappedText.of(original))
    text = found.text.text
    assert dict(found.removed) == {"ACME QUEST RULEBOOK": 4, "© # Acme Games #": 4}
    assert "\f" not in text and "Acme" not in text and "ACME" not in text
    assert "the active player\ndraws a card" in text  # the sentence runs on across the page break
    assert found.pages.numbers == [11, 12, 13, 14]
    assert found.pages.page_of(original.index("2.2. Cards")) == 13
    assert [line for line in lines_of(text) if RULE_LINE.match(line)] == [
        line for line in lines_of(original) if RULE_LINE.match(line)]


def test_a_spreads_two_page_numbers_go_and_the_sheet_is_numbered_by_the_left_one():
    # A rulebook printed as spreads, two pages to a PDF page, its two page numbers at the top of each ("11" / "10"):
    # both stayed, glued to the first rule ("11 10 Giants are beings of enormous size…").
    bodies = ["Dwarves dig tunnels under mountains.", "Giants are beings of enormous size.",
              "Engineers were a mountain tribe.", "Swarmlings are the most sociable ones.",
              "Darklings are said to be wicked."]
    original = "\f".join(f"{2 * n + 1}\n{2 * n}\n{body}\nFaction {n} has a special ability.\n"
                         for n, body in enumerate(bodies, start=4))
    found = strip_furniture(MappedText.of(original))
    assert found.text.text.split("\n")[:2] == ["Dwarves dig tunnels under mountains.",
                                               "Faction 4 has a special ability."]
    assert not re.search(r"^\d+$", found.text.text, re.M)
    assert found.pages.numbers == [8, 10, 12, 14, 16]


def test_an_appendixs_roman_page_of_pages_footer_goes_like_an_arabic_one():
    bodies = ["A.1.1 The staff is at most 180 cm long.", "A.1.2 The chain is at most 320 cm long.",
              "A.2.1 A shield is at most 60 cm wide."]
    original = "\f".join(f"{body}\n\n- {roman} / iii -\n" for body, roman in zip(bodies, ("i", "ii", "iii")))
    text = strip_furniture(MappedText.of(original)).text.text
    assert " / iii" not in text and all(body in text for body in bodies)


def test_page_starts_from_a_reader_give_the_pages():
    pages = paged_rulebook()
    original = "".join(pages)
    starts = [sum(len(page) for page in pages[:n]) for n in range(1, len(pages))]
    found = strip_furniture(MappedText.of(original), page_starts=starts)
    assert dict(found.removed) == {"ACME QUEST RULEBOOK": 4, "© # Acme Games #": 4}
    assert found.pages.starts == starts
    assert found.pages.page_of(original.index("3.1. The game")) == 14


def test_a_page_marker_opening_every_page_numbers_the_page_below_it_even_after_the_last_text():
    pages = [f"=== PAGE {n} ===\n" + "".join(f"{n}0{rule}. A rule of page {n}, rule {rule}, in plain words.\n"
                                            for rule in range(1, 13)) for n in range(1, 7)]
    original = "\n" + "".join(pages) + "=== PAGE 7 ===\n\n"
    found = strip_furniture(MappedText.of(original))
    assert "PAGE" not in found.text.text
    assert [found.pages.page_of(original.index(f"{n}01. A rule")) for n in range(1, 7)] == [1, 2, 3, 4, 5, 6]


def test_lines_that_recur_without_a_page_rhythm_stay():
    sections = []
    for number, size in enumerate((2, 9, 1, 14, 3, 6, 1, 11), start=1):
        sections.append(f"{number}. SECTION {number}\nGeneral\n" + "".join(
            f"{number}.{rule}. A rule about step {rule} of this section, in plain words.\nExample:\n"
            f"A player does the thing of rule {number}.{rule} and it works.\n" for rule in range(1, size + 1)))
    original = "\n".join(sections)
    found = strip_furniture(MappedText.of(original))
    assert dict(found.removed) == {}
    assert found.text.text == original
    assert found.pages.page_of(0) is None


def test_a_contents_with_dot_leaders_becomes_entries():
    original = ("Table of Contents\nIntroduction ........ 3\n1. Setup ............ 4\n2. Playing .......... 7\n"
                "Glossary ............ 12\n\nIntroduction\nThis game is played by two.\n\n1. Setup\nShuffle.\n")
    found = strip_furniture(MappedText.of(original))
    assert found.contents == [("", "Introduction"), ("1", "Setup"), ("2", "Playing"), ("", "Glossary")]
    assert found.text.text.startswith("\nIntroduction\nThis game is played by two.")
    # headings closed by a colon, listed as printed, their pages set apart by spaces
    colons = ("     Table of Contents\n\n 1. List of Abbreviations:                  2\n 2. Introduction:"
              "                           3\n 3. Arena:                                 13\n\n 2.  Introduction:\n"
              "Ants keep the jungle going.\n")
    found = strip_furniture(MappedText.of(colons))
    assert found.contents == [("1", "List of Abbreviations"), ("2", "Introduction"), ("3", "Arena")]
    assert "List of Abbreviations" not in found.text.text


@pytest.mark.parametrize("top, metadata", [
    ("Official Dragon Dice FAQ\nVersion 1.44, March 1996\n",
     {"title": "Official Dragon Dice FAQ", "version": "1.44", "date": "March 1996", "date_iso": "1996-03"}),
    ("House Rules\n**Effective 10/3/2023**\nCopyright 2023 The Club. All rights reserved.\n",
     {"title": "House Rules", "date": "10/3/2023", "date_iso": "2023-10-03"}),
    ("# Tournament Rules\n\nv2.1 - Updated: 5 March 2024\n\n©Acme\n",
     {"title": "Tournament Rules", "version": "2.1", "date": "5 March 2024", "date_iso": "2024-03-05"}),

    ("Rules of Ultimate 2025-2028\n\nOfficial Version effective 2025-01-01\n",
     {"title": "Rules of Ultimate 2025-2028", "date": "2025-01-01", "date_iso": "2025-01-01"}),
    ("Skirmish Core Rules v4.0\nLast updated: March 30, 2026\n",
     {"title": "Skirmish Core Rules v4.0", "version": "4.0", "date": "March 30, 2026", "date_iso": "2026-03-30"}),
    ("Kill Team Core Rules FAQ\nLast update: 2025-09-10\n",
     {"title": "Kill Team Core Rules FAQ", "date": "2025-09-10", "date_iso": "2025-09-10"}),
    ("Comprehensive Rules – Version 2025.3\n",
     {"title": "Comprehensive Rules – Version 2025.3", "version": "2025.3"}),
])
def test_front_matter_is_read_and_only_the_title_stays(top, metadata):
    body = "\nGeneral\n1.1. A player may pass.\n"
    found = strip_furniture(MappedText.of(top + body))
    assert found.metadata == metadata
    assert lines_of(found.text.text) == [lines_of(top)[0]] + lines_of(body)


def test_a_first_section_heading_over_questions_is_not_the_documents_title():
    found = strip_furniture(MappedText.of("Old questions\n\nQ: Can a knight jump?\nA: Yes.\n"))
    assert "title" not in found.metadata


def test_a_title_over_a_numbered_chapters_title_is_the_documents_title_but_over_a_numbered_rule_it_is_not():
    # "ACME TOURNAMENT RULES" over "3. DECK CONSTRUCTION" was taken for the first section's heading, as over a
    # question, and the document was titled by its file's name.
    found = strip_furniture(MappedText.of("ACME TOURNAMENT RULES\n\n3. DECK CONSTRUCTION\n3.1 A deck holds 40 cards.\n"))
    assert found.metadata == {"title": "ACME TOURNAMENT RULES"}
    found = strip_furniture(MappedText.of("Deck Building\n\n1. Each deck holds forty cards.\n"))
    assert "title" not in found.metadata


def test_a_title_opening_with_the_figures_of_its_name_is_the_title_but_a_numbered_heading_is_not():
    # "18IrePL" over its subtitle: a LaTeX rulebook was titled by its file's name ("18irepl rules").
    found = strip_furniture(MappedText.of("18IrePL\nRules differences with 18Ireland\n\nThis is my take on it.\n"))
    assert found.metadata["title"] == "18IrePL"
    assert "title" not in strip_furniture(MappedText.of("1 Introduction\n\nThis is my take on it.\n")).metadata


def test_the_stamp_of_when_a_file_was_made_is_no_title():
    # "Mighty Kingdoms – File created on Tue 10 Apr 19:59:07 AEST 2018": a build's stamp taken for the subtitle.
    found = strip_furniture(MappedText.of("File created on Tue 10 Apr 19:59:07 AEST 2018\nMighty Kingdoms\n"
                                          "Campaign rules for hex maps\n\nEach player rules a kingdom.\n"))
    assert found.metadata["title"] == "Mighty Kingdoms" and "19:59" not in found.text.text


def test_a_running_footers_page_number_out_of_its_rhythm_still_numbers_its_page():
    # Four pages whose print slug numbers them 2, 3, 4 and 1 (the cover bound last): the last is page 1, not 5.
    bodies = ("The story of the game.", "Setting up the board.", "Taking a turn.", "Scoring and credits.")
    pages = [f"{body}\n[T2R] rules EN 06/03/15 17:36 Page{label}\n" for body, label in zip(bodies, (2, 3, 4, 1))]
    original = "\f".join(pages)
    found = strip_furniture(MappedText.of(original))
    assert found.pages.numbers == [2, 3, 4, 1]
    assert "Page" not in found.text.text


def test_a_document_without_a_title_line_is_named_as_its_text_writes_the_name_its_file_gives():
    text = "Ticket to Ride is a train game.\nTicket to Ride - the boardgame is a trademark.\nticket to ride again."
    assert named_by_file("ticket-to-ride-rules-2015.pdf", text) == "Ticket to Ride"
    assert named_by_file("rules-2015.pdf", "These rules of 2015 and these Rules 2015.") is None  # no name twice


def test_page_numbers_a_conversion_marked_as_headings_are_furniture():
    pages = "".join(f"{n}-1. " + "A rule about the game that runs on for a while. " * 8 + f"\n\n## {n}\n\n"
                    for n in range(2, 8))
    found = strip_furniture(MappedText.of(pages))
    assert "## " not in found.text.text and found.text.text.count("-1. A rule") == 6


def test_a_chapters_running_head_keeps_its_first_printing_where_it_opens_the_chapter():
    # A book set as LaTeX sets one: a chapter opens a page under its heading, and its name heads each later page.
    pages = ["4 Macro\nMacro is a card game.\n4.1 Cards\nEach card has a cost.\n17",
             "4 Macro\n4.2 Effects\nAn effect is used once.\n18", "4 Macro\n4.3 Upkeep\nPay upkeep each turn.\n19",
             "5 Factions\nEach player picks a faction.\n5.1 Men\nMen are many.\n20",
             "5 Factions\n5.2 Dwarfs\nDwarfs are few.\n21", "5 Factions\n5.3 Trolls\nTrolls are big.\n22"]
    found = strip_furniture(MappedText.of("\f".join(pages)))
    assert lines_of(found.text.text)[:2] == ["4 Macro", "Macro is a card game."]
    assert lines_of(found.text.text).count("4 Macro") == 1 and lines_of(found.text.text).count("5 Factions") == 1
    assert "5 Factions\nEach player picks a faction." in found.text.text
    # a folio beside the book's name changes its number: none of its printings is a heading
    folios = ["Acme Rules 1\nRoll a die.", "Acme Rules 2\nMove a unit.", "Acme Rules 3\nAttack a unit."]
    assert "Acme" not in strip_furniture(MappedText.of("\f".join(folios))).text.text


def test_an_item_label_set_alone_on_its_line_stays_however_often_it_opens_a_page():
    # A PDF that sets each item's label on a line over its text: "a." and "b." open and close most pages.
    pages = ["".join(f"{page}.{rule}.\nA rule of page {page} with its items.\na.\nThe first item of rule {rule}.\n"
                     f"b.\nThe second item of rule {rule}.\n" for rule in range(1, 4)) + f"- {page} -\n"
             for page in range(1, 9)]
    found = strip_furniture(MappedText.of("\f".join(pages)))
    assert "a." not in dict(found.removed) and "b." not in dict(found.removed)
    assert lines_of(found.text.text).count("b.") == 24


def test_a_list_line_running_on_over_a_pages_top_stays_however_often_it_recurs():
    # Each run category's rule lists the same advancements; the list wraps so that one of its lines opens a page
    # four times. A line ending in a comma runs on: no running head.
    wrapped = ("4.{n}.1) The advancements to obtain are: Minecraft, Stone Age, Getting an Upgrade,\n"
               "Free the End, The Next Generation, Remote Getaway, You Need a Mint,\n"
               "and Great View From Up Here.\n")
    pages = []
    for n in range(1, 5):
        head, tail = wrapped.format(n=n).split("\n", 1)
        pages.append(f"4.{n} Category {n}\nA rule of the category in plain words.\n{head}\n{n * 2}\n")
        pages.append(f"{tail}Another rule of the category, in plain words again.\n{n * 2 + 1}\n")
    found = strip_furniture(MappedText.of("\f".join(pages)))
    assert found.text.text.count("Free the End, The Next Generation") == 4


def test_a_short_prints_running_lines_go_even_though_its_last_page_ends_early():
    # A browser's print: its footer (a file address and "page/pages") closes each of three pages, the last short.
    page = "A rule of the game, set out in one plain sentence that runs on for a while.\n" * 30
    footer = "file:///tmp/print/rules.html {n}/3\n"
    last = "".join(page.splitlines(keepends=True)[:5])
    original = page + footer.format(n=1) + page + footer.format(n=2) + last + footer.format(n=3)
    found = strip_furniture(MappedText.of(original))
    assert "file:///" not in found.text.text
    assert found.text.text.count("A rule of the game") == 65


def _variant_book(pages: int = 8) -> list[str]:
    """A book of game variants, one a page, each opening with the same headings and sentence, as a poker or a
    party-game book prints its games; a running head opens each page."""
    return [f"HOUSE GAMES BOOK\n{n}. Variant {n}\nForced Bets\nThe game is played with a dealer button and blinds.\n"
            "Dealing\nEach player is dealt two cards face down, followed by a round of\nbetting at the small limit.\n"
            + "".join(f"Then rule {n}.{k} of this variant applies to every player at the table.\n" for k in range(1, 9))
            for n in range(1, pages + 1)]


def test_text_every_section_of_a_template_repeats_stays_in_a_paged_book():
    pages = _variant_book()
    found = strip_furniture(MappedText.of("\f".join(pages)))
    assert dict(found.removed) == {"HOUSE GAMES BOOK": 8}
    text = found.text.text
    assert text.count("Forced Bets\nThe game is played with a dealer button and blinds.\nDealing\n") == 8
    assert text.count("round of\nbetting at the small limit.") == 8


def test_text_every_section_of_a_template_repeats_stays_without_page_breaks():
    found = strip_furniture(MappedText.of("\n".join(pages := _variant_book())[len("HOUSE GAMES BOOK\n"):]
                                          .replace("HOUSE GAMES BOOK\n", "")))
    assert dict(found.removed) == {}
    assert found.text.text.count("Forced Bets") == len(pages)


def test_a_running_head_carrying_the_page_number_and_the_part_it_is_in_goes():
    # A LaTeX book: the even page's head names the chapter after the page's number, the odd page's the section
    # before it; neither repeats word for word.
    heads = ["{n} CHAPTER 2. BOARD GAMES", "2.{s}. VARIANT {s} {n}"]
    pages = [heads[n % 2].format(n=n + 10, s=n // 2 + 1) + "\n" + "".join(
        f"A plain sentence of the rules, number {k}, on page {n + 10}, runs on to the margin.\n" for k in range(20))
        for n in range(8)]
    found = strip_furniture(MappedText.of("\f".join(pages)))
    assert "CHAPTER" not in found.text.text and "VARIANT" not in found.text.text
    assert found.pages.numbers == list(range(10, 18))


def test_a_contents_whose_chapters_print_their_page_after_one_space_goes_whole():
    contents = ("Contents\nPreface 5\n1 Setting Up 7\n1.1 The Board . . . . . . . . . . 7\n1.2 The Pieces . . . . . . . . 8\n"
                "2 Playing 9\n2.1 A Turn . . . . . . . . . . . 9\nA Scoring Tables 12\nB The “Quiet Rule” 14\n")
    body = "Preface\nThis book holds the rules of the game.\n1 Setting Up\n1.1 The Board\nLay out the board.\n"
    found = strip_furniture(MappedText.of(contents + body))
    assert found.text.text.strip() == body.strip()
    assert ("B", "The “Quiet Rule”") in found.contents and ("", "Preface") in found.contents


def test_a_contents_heading_with_its_page_columns_label_is_a_contents_heading():
    # A league's Word rules: "INDEX          PAGE" over "1. General Rules        4" and fourteen more, each a
    # clarification ruling "Darts 1: General Rules 4".
    contents = ("INDEX          PAGE\n\nGlossary of Terms        3\n\nPLAYING RULES\n\n1. General Rules        4\n\n"
                "2. Throw          5\n\n3. Starting and Finishing      5\n\n4. Scoring         6\n\n5. Dartboards         7\n\n")
    body = "\fGLOSSARY OF TERMS\nLEG - The start and finish of a game.\n\f1. General Rules\n1.01 Darts must be thrown.\n"
    found = strip_furniture(MappedText.of(contents + body))
    assert "General Rules        4" not in found.text.text and "1.01 Darts must be thrown." in found.text.text


def test_a_contents_without_pages_ends_where_the_body_heads_its_first_part_by_another_word():
    # "SECTION 1: DEFINITIONS" is the body's first heading, printed "1. DEFINITIONS" in the contents.
    contents = ("Contents\n1. DEFINITIONS\n1.1. Event Types\n1.2. Event Levels\n2. ROLES\n2.1. Organizer\n"
                "2.2. Judge\n")
    body = ("SECTION 1: DEFINITIONS\n1.1 Event Types\nEvents are either constructed or limited.\n"
            "1.2 Event Levels\nEvents are local, regional or national.\n")
    assert _left_after_contents(contents, body) == body.strip()


def test_a_contents_of_parts_labelled_over_their_entries_goes_whole_though_it_lists_a_number_twice():
    # "SECTION 1:" over its entries, and the contents' own slip ("2.1.3" twice, under two titles): all of it goes,
    # up to the body's "SECTION 1", and none of its entries takes a rule's number
    contents = ("CONTENTS\nSECTION 1:\n1.1 Introduction\n1.1.1 About us\n1.1.2 Mission\n\nSECTION 2:\n"
                "2.1 Overview of Event\n2.1.3 Safety Requirement\n2.1.3 Technical Specifications\n\nSECTION 3:\n"
                "Challenge:\n3.1 Static Events\n3.2 Dynamic Events\n")
    body = ("SECTION 1\n1.1 Introduction\n1.1.1 About Our College\nThe college was founded in 2000 by a trust.\n")
    assert _left_after_contents(contents, body) == body.strip()


def test_a_running_head_over_a_page_number_written_pg_goes_with_it_in_text_without_page_breaks():
    sentences = [f"Rule {n} of the league: a team fields at least eight players and at most eleven, and it plays."
                 for n in range(1, 200)]
    pages = ["\n".join(sentences[k * 40:(k + 1) * 40]) for k in range(5)]
    text = "".join(f"{page}\n\n                  League – Spring 2018 Rules\n                        pg. {n}\n"
                   for n, page in enumerate(pages, start=1))
    found = strip_furniture(MappedText.of(text))
    assert "Spring 2018 Rules" not in found.text.text and "pg." not in found.text.text
    assert found.pages.numbers[:3] == [1, 2, 3]


def test_a_contents_whose_pages_are_written_page_n_goes_whole_though_a_title_repeats():
    contents = ("Table of Contents\nConduct                                  Page 6\n"
                "      Suspension                         Page 6\nUmpires                                  Page 16\n"
                "      Conduct                            Page 16\n")
    body = "Conduct\nNo player may argue with the umpire.\n"
    found = strip_furniture(MappedText.of(contents + body))
    assert found.text.text.strip() == body.strip()
    assert [title for _, title in found.contents] == ["Conduct", "Suspension", "Umpires", "Conduct"]


def test_a_contents_with_dot_leaders_goes_with_the_appendices_listed_after_it_without_leaders():
    entries = "".join(f"  1.{n} Part {n} . . . . . . . . . . . . . . . . . . . .     {n}\n" for n in range(1, 8))
    contents = f"Rules of Play\n{entries}\nA Technology                                     22\n\nB Personnel" \
               "                                      25\n\n"
    body = ("1 Introduction\nThe game is played in rounds.\n"
            + "".join(f"1.{n} Part {n}\nThe part's text.\n" for n in range(1, 8))
            + "A Technology\nEach race researches technology.\nB Personnel\nPersonnel can be hired.\n")
    found = strip_furniture(MappedText.of(contents + body))
    assert "22" not in found.text.text and found.text.text.count("A Technology") == 1


def test_a_cover_title_opening_with_a_name_in_lower_case_over_its_byline_is_the_title():
    text = "tiMEGA: Rules of Play\nwritten by David Mayans\n\n1 Introduction\nThe game is played in rounds.\n"
    assert strip_furniture(MappedText.of(text)).metadata["title"] == "tiMEGA: Rules of Play"


def test_a_contents_whose_page_numbers_stand_apart_from_its_dot_leaders_goes_whole():
    # pdftotext of a LaTeX contents: each chapter's entries end in dot leaders, their page numbers follow in a
    # column of their own; no "Contents" heading is left (it ran as the contents pages' head).
    chapters = [("1", "Introduction", ["The League", "Organization", "Awards"]),
                ("2", "General Rules", ["Registration", "Safety", "Scoring"])]
    contents = "".join(f"{n} {title}\n" + "".join(f"{n}.{m} {part} . . . . . . . . . . . . . . . . . . . .\n"
                                                  for m, part in enumerate(parts, 1)) + "\n1\n1\n2\n\n"
                       for n, title, parts in chapters)
    body = "".join(f"{n} {title}\n" + "".join(f"{n}.{m} {part}\n" + "The league sets this part here.\n" * 4
                                              for m, part in enumerate(parts, 1))
                   for n, title, parts in chapters)
    assert _left_after_contents(contents, body) == body.strip()


def test_a_contents_ends_where_the_body_heads_a_listed_part_with_its_number_glued_on():
    contents = ("Table of Contents\n1.00 —OBJECTIVES OF THE GAME  ........................  1\n"
                "2.00 —THE PLAYING FIELD\n 2.01 Layout of the Field  ........................ 2\n"
                "INDEX  ...........................................\n")
    body = ("1.00–OBJECTIVES OF THE GAME\n1.01 Baseball is a game between two teams of nine players each, under\n"
            "direction of a manager.\n")
    assert _left_after_contents(contents, body) == body.strip()


def test_each_parts_own_contents_goes_and_a_chapters_lettered_parts_are_entries():
    # A rulebook in parts opens each with its own contents ("2A Overview", "2A.1 Definition . . . 26"): all of
    # them go, not the first alone.
    parts = [("1", "General Rules", ["Scope", "Safety", "Protests"]), ("2", "Track Racing", ["Lanes", "Starts", "Dismounts"])]
    text = ""
    for n, title, entries in parts:
        text += f"Part {n}\n{title}\n\nContents\n\n{n}A Overview\n" + "".join(
            f"{n}A.{m} {entry} . . . . . . . . . . . . . . . . . {20 + m}\n" for m, entry in enumerate(entries, 1))
        text += f"\n{n}A Overview\n" + "".join(f"{n}A.{m} {entry}\nRiders must follow this rule at every event.\n"
                                               for m, entry in enumerate(entries, 1))
    left = _left_after_contents("", text)
    assert "Contents" not in left and ". . ." not in left
    assert left.count("2A.2 Starts") == 1 and "2A.2 Starts\nRiders must follow" in left


def test_a_contents_heading_goes_with_the_listed_headings_under_it():
    # Neither numbers nor pages: the entries are the headings the body prints again, and their heading goes too.
    titles = ["Overview and Objective", "Board and Setup", "Movement and Capture", "The White Piece", "Zapping",
              "Special Rules", "Torus", "Nonaggression Pact", "Double Jump", "Ending the Game"]
    contents = "Contents\n\n" + "\n".join(titles) + "\n\n"
    body = "".join(f"{title}\n" + "Each player moves one piece a turn and may capture.\n" * 3 for title in titles)
    assert _left_after_contents(contents, body) == body.strip()


def test_a_browser_prints_page_footer_of_address_and_page_of_pages_goes_and_its_header_names_the_title():
    # pdftotext of a browser's print: the date and time, then the page's title, on lines of their own at the top;
    # the page's address and "3/17" at the bottom.
    pages = [f"Section {n}\nEach fleet moves {n} hexes per turn and may fire once.\nA damaged ship moves half.\n"
             for n in range(1, 6)]
    text = "\f".join(f"11/29/26, 9:30 PM\n\nFleet Rules - Space Combat\n\n{page}\nfile:///home/me/fleet.html\n\n"
                     f"{n}/5\n" for n, page in enumerate(pages, start=1))
    found = strip_furniture(MappedText.of(text))
    assert "file:///" not in found.text.text and "/5" not in found.text.text and "PM" not in found.text.text
    assert found.metadata["title"] == "Fleet Rules - Space Combat"


def test_a_browser_prints_header_read_after_the_page_before_its_address_goes():
    # pypdf reads a browser print's header ("11/29/26, 11:59 PM Arcs Card FAQ", one line) at the page's end, just
    # over the page's address: the address opens in lower case, yet the header carries on no sentence.
    pages = [f"Card {n}\nQ: Can card {n} be stolen? A: Yes, once it has been played.\n" for n in range(1, 7)]
    text = "\f".join(f"{page}11/29/26, 11:59 PM Fleet Card FAQ\nfile:///home/me/fleet.html {n}/6\n"
                     for n, page in enumerate(pages, start=1))
    found = strip_furniture(MappedText.of(text))
    assert "PM" not in found.text.text and "file:///" not in found.text.text
    assert found.metadata["title"] == "Fleet Card FAQ"


def test_a_tag_recurring_under_headings_is_their_text_not_a_running_header():
    # A moves list tags some moves "Progress Move" under their headings, at intervals like pages': each time it
    # stands right under a heading, so it is what the heading heads.
    moves = "".join(
        f"### Move {n}\n\n" + ("Progress Move\n\n" if n % 5 == 0 else "")
        + "When you act, roll the action die and compare to the challenge dice.\n\n" * 6 for n in range(1, 31))
    kept = strip_furniture(MappedText.of(moves)).text.text
    assert kept.count("Progress Move") == 6
    footer = "".join(f"Rule {n} text goes here and on.\n" * 30 + "Moves Rulebook\n" for n in range(1, 7))
    assert "Moves Rulebook" not in strip_furniture(MappedText.of(footer)).text.text  # a running line still goes


def _left_after_contents(contents: str, body: str) -> str:
    """What a document of `contents` then `body` keeps once its furniture and contents go."""
    return strip_furniture(MappedText.of(contents + body)).text.text.strip()


def test_a_notice_footer_as_long_as_a_sentence_goes_from_every_page():
    # "Gracious Professionalism® - “Doing your best work…”", 22 words on every page of a game manual, stayed glued
    # to 30 rules: a running line is short, but a notice may run longer.
    footer = ("Gracious Professionalism® - “Doing your best work while treating others with respect and kindness - "
              "It’s what makes FIRST, first.”")
    pages = [f"{n} | Game Manual Part 1\n\n{n}.1 Each robot must pass inspection before its first match.\n{footer}\n"
             for n in range(1, 7)]
    found = strip_furniture(MappedText.of("\f".join(pages)))
    assert "Gracious" not in found.text.text
    assert "3.1 Each robot must pass inspection" in found.text.text


def test_an_index_goes_and_what_follows_it_stays():
    # A wargame's and a pickleball rulebook's index ("Abort Procedure ....28.9", "Apparel 2.G") were rulings: no rule,
    # and each line names terms a question asks about.
    text = ("36.0 Miscellaneous Hits Chart\nThe chart lists hits.\n\nIndex\nA\nAbort Procedure ........28.9, See Air Missions\n"
            "Activation ..........1.3, 3.1, 20.0\nApparel 2.G\nDead ball\ndefinition 3.A.6\nrule 11.J\n11.M; 11.L.3\n\n"
            "CREDITS\nGame Design: Mark Herman\nMap: Olivier Revenu\nCounters: Mark Simonitch\nManuals: Charles Kibler\n"
            "Production: Tony Curtis\nThe following people have been really helpful in making this game.\n")
    left = strip_furniture(MappedText.of(text)).text.text
    assert "Abort" not in left and "Apparel" not in left and "11.L.3" not in left and "Index" not in left
    assert "The chart lists hits." in left and "Map: Olivier Revenu" in left
    # a section named so over text of its own stays
    section = "Index\nThe index card shows the player's score. Each player keeps one.\nScore 3\n"
    assert strip_furniture(MappedText.of(section)).text.text == section


def test_an_index_under_another_name_goes_by_its_alphabetical_terms_and_a_price_list_stays():
    # A game manual's back-of-book index headed "APPENDIX" ("#Crossbow.....28", "AG.....3", …): cut as rulings.
    terms = ["#Crossbow", "2H", "AG", "AR/MP", "Action Phase", "Agility Rolls", "Armor", "Bear", "Behemoth", "Bow",
             "CHARGE", "Caltrops", "Clumsiness", "Dwarf", "Evade", "Fire"]
    index = "".join(f"     {term}{'.' * (40 - len(term))}{n + 3}\n" for n, term in enumerate(terms))
    text = f"Send me some mail if you have questions about the game.\n\n     APPENDIX\n\n{index}"
    left = strip_furniture(MappedText.of(text)).text.text
    assert "Crossbow" not in left and "Evade" not in left and "APPENDIX" not in left
    assert "Send me some mail" in left
    # goods and their prices, in no alphabetical order, are the rules' own
    goods = ["Sword", "Axe", "Bow", "Spear", "Arrows", "Shield", "Helmet", "Mace", "Dagger", "Lance", "Crossbow",
             "Torch", "Rope"]
    prices = "Prices\n" + "".join(f"{good}{'.' * (30 - len(good))}{n * 5 + 1}\n" for n, good in enumerate(goods))
    assert strip_furniture(MappedText.of(prices)).text.text == prices


def test_a_notice_sentence_every_page_opens_with_is_furniture():
    # A league's bylaws: "Use or disclosure of data contained on this sheet is subject to …" over the "©" line on
    # every page, 16 times inside rulings: a whole sentence, so it was read as the rules' own text.
    notice = "Use or disclosure of data contained on this sheet is subject to the restrictions on the title page."
    pages = [f"{notice}\n© 2016 Suncoast League, Inc. • All Rights Reserved\nSection {n} Rules\n"
             f"Members in good standing may vote at meeting {n}.\nDues are paid yearly.\nPage {n}" for n in range(1, 7)]
    doc = MappedText.of("\f".join(pages))
    kept = strip_furniture(doc, [m.start() + 1 for m in re.finditer("\f", doc.text)]).text.text
    assert "Use or disclosure" not in kept and "All Rights Reserved" not in kept
    assert kept.count("Members in good standing may vote") == 6


def test_a_list_of_tables_after_the_contents_is_contents_too():
    # A LaTeX rulebook's "List of Tables" (captions with dot leaders) swallowed chapter 1 as one ruling.
    text = ("Contents\n1 Introduction 5\n2 Creating Yourself 7\n3 Combat 9\n\nList of Tables\n"
            "1 Imagine all the possibilities . . . . . . . . . . . . 13\n2 Maybe you love dice . . . . . . . . . . 15\n"
            "3 It is harder to hit . . . . . . . . . . . 18\n\n1 Introduction\nWar never changes.\n")
    kept = strip_furniture(MappedText.of(text)).text.text
    assert "List of Tables" not in kept and "Imagine all" not in kept and "War never changes." in kept


def test_a_contents_set_as_a_table_goes_whole_its_titles_closed_by_stops_too():
    # A Word file saved as markdown: its contents a table, an empty header row, entries ending on a stop.
    contents = ("## Table of Contents\n\n|||\n| - | - |\n| Preface | 2 |\n| 1. Introduction | 2 |\n"
                "| 2. Definitions. | 5 |\n| 3. Playing Field | 8 |\n| Appendix C: Hand Signals. | 45 |\n\n")
    body = "## Preface\n\nThe game is played by two teams.\n\n## 1. Introduction\n\nEach team has seven players.\n"
    found = strip_furniture(MappedText.of(contents + body))
    assert found.text.text.strip() == body.strip()
    assert ("2", "Definitions") in found.contents and ("", "Appendix C: Hand Signals") in found.contents


def test_running_heads_joined_to_their_page_number_by_a_dash_go():
    # An RPG book prints "2—What is this game?" on even pages and "What is this game?—3" on odd ones, the chapter
    # changing every few pages: 71 rulings held one, 21 sections were one, one was a question.
    chapters = ["What is this game?", "What is this game?", "Create Your Hero", "Create Your Hero", "Numbers",
                "Numbers", "Combat", "Combat"]
    pages = []
    for n, chapter in enumerate(chapters, start=2):
        head = f"{n}—{chapter}" if n % 2 == 0 else f"{chapter}—{n}"
        pages.append(head + "\n" + "".join(f"A plain sentence of the rules, number {k}, on page {n}, runs on.\n"
                                           for k in range(12)))
    found = strip_furniture(MappedText.of("\f".join(pages)))
    assert "—" not in found.text.text
    assert found.pages.numbers == list(range(2, 10))


def test_a_running_line_glued_to_each_pages_last_sentence_leaves_the_text():
    # A FAQ converted to markdown: its footer and page number ran on after each page's last answer ("A: Yes. 3
    # MALIFAUX FOURTH EDITION • …"), in four answers. The same words after a rising number are the page's furniture;
    # the same words after a number that does not rise are the text's.
    footer = "SKIRMISH FOURTH EDITION • FREQUENTLY ASKED QUESTIONS • OCTOBER 2025"
    text = "".join(f"### 1.{page}\n**Q:** Can it move?\n\n**A:** Yes, it can. {page} {footer}\n\n---\n\n"
                   for page in (1, 2, 3))
    cleaned = strip_furniture(MappedText.of(text)).text.text
    assert footer not in cleaned and "**A:** Yes, it can.\n" in cleaned
    kept = "".join(f"Roll again. {count} Dice Are Rolled By Each Player\n" for count in (3, 2, 4))
    assert strip_furniture(MappedText.of(kept)).text.text == kept


def test_a_parenthesis_going_on_across_a_page_break_stays_in_its_sentence():
    # A browser print: "…until the ship is revealed" / (header, footer, page break) / "(e.g. any fire…" was cut into
    # a ruling of its own titled "(e.g. any fire or seekers…"; "(a) Any fire…" after a break still opens an item.
    page = "11/30/26, 11:01 PM Campaign Rules\nfile:///rules/campaign.html {} /3\n"
    for opening, joined in (("(e.g. any fire is announced.)", True), ("(a) Any fire is announced.", False)):
        text = (f"Option Points\nThe opponent does not know which is the ship until the ship is revealed\n"
                f"{page.format(1)}\f\n{opening}\nMore rules follow here.\n{page.format(2)}\f\nLast line.\n"
                f"{page.format(3)}")
        cleaned = strip_furniture(MappedText.of(text)).text.text
        assert ("revealed\n(" in cleaned) is joined and "11:01" not in cleaned


def test_a_bulleted_list_runs_on_across_a_page_break():
    # A browser print's sequence of play: "• The stockpile … grows" / (page break) / "Construction:" / "• Ships are
    # repaired…" was cut into two rulings at the page's end.
    page = "11/30/26, 11:01 PM Campaign Rules\nfile:///rules/campaign.html {} /3\n"
    text = (f"SEQUENCE OF PLAY\nCollect Resource Points:\n• The stockpile of EPs grows by their income\n"
            f"{page.format(1)}\f\nConstruction:\n• Ships are repaired or built\n{page.format(2)}\f\nSETUP\n"
            f"The campaign is moderated.\n{page.format(3)}")
    cleaned = strip_furniture(MappedText.of(text)).text.text
    assert "their income\nConstruction:\n• Ships" in cleaned


def test_a_contents_numbered_as_a_part_of_the_document_is_its_contents():
    # A text FAQ's "1.2 Table of contents" over its questions' labels: 21 contents lines were rules "2.1", "3.1.1",
    # and the questions themselves were cited "General 2.1" beside them.
    text = ("# 1.2 Table of contents\n\n1. About this FAQ\n  1.1 Introduction\n  1.2 Table of contents\n"
            "  1.3 Where can I get this FAQ?\n\n2. General questions\n  2.1 What is ZAngband?\n\n"
            "# 1.3 Where can I get this FAQ?\n\nThis FAQ is available from the site.\n\n"
            "# 2. General questions\n\n# 2.1 What is ZAngband?\n\nA roguelike game.\n")
    cleaned = strip_furniture(MappedText.of(text)).text.text
    assert "Table of contents" not in cleaned and "  1.1 Introduction" not in cleaned
    assert "# 1.3 Where can I get this FAQ?\n\nThis FAQ is available" in cleaned


def test_a_contents_heading_named_for_its_book_heads_the_contents():
    # A wargame's transcription: "## Rules of Play — Table of Contents" over a nested list of its chapters: 13
    # contents lines were rulings, and the real case 1.2 was cited "1.2 #2".
    contents = ("## Rules of Play — Table of Contents\n\n1. Introduction\n   1.1 General Comments\n   1.2 Game Scale\n"
                "2. Game Components\n   2.1 The Game Maps\n   2.2 Play Aids\n3. Getting Started\n\n---\n\n")
    body = "## 1) Introduction\n\n1.1) General Comments: This game simulates the battle.\n"
    cleaned = strip_furniture(MappedText.of(contents + body)).text.text
    assert "Table of Contents" not in cleaned and "1.2 Game Scale" not in cleaned
    assert "1.1) General Comments: This game simulates the battle." in cleaned


def test_a_running_head_naming_the_rules_on_its_page_goes_whatever_their_sub_labels():
    # A rulebook heads each page with the rules on it ("Rule 9.05(b)(1) to 9.06(b)"): the sub-labels in parentheses
    # change in number and kind from page to page, so the heads share no form until those are read as numbers are.
    heads = ["Rule 7.01 to 7.01(b)(2)", "Rule 7.01(b)(2) to 7.01(e)", "Rule 7.01(e) to 7.01(g)(3)",
             "Rule 7.01(g)(4) to 7.02(a)(9)", "Rule 7.02(a)(9) to 7.02(b)(4)", "Rule 7.02(b)(4) to 7.02(b)(5)"]
    pages = [f"{n + 90}\n{head}\n" + "".join(
        f"({k}) A plain sentence of the rules, number {k}, on page {n + 90}, runs on to the margin.\n"
        for k in range(12)) for n, head in enumerate(heads)]
    found = strip_furniture(MappedText.of("\f".join(pages)))
    assert "Rule 7" not in found.text.text
    assert found.text.text.count("A plain sentence") == 72
    # a line whose numbers stand apart in parentheses keeps its form: "Score: 1 (3)" is no sub-label
    assert normalise("Confidence Score: 1 (3)") != normalise("Confidence Score: 1")
