"""Real documents nobody here wrote come through `rulings add`'s parsing as the right rulings: the Lorcana
comprehensive rules as converted text and as the publisher's PDF, the Lorcana set notes (Q/A under card
names), the FIDE Laws of Chess in markdown, the Riftbound core rules (numbered from the top, `103.2.a.1.`,
extracted from a PDF with doubled spaces and ligatures), and two PDFs from a DTP layout and a word processor:
the Ticket to Ride rules (title-case headings, a table read down its columns, symbol-font glyphs, a print
slug) and the WFDF Rules of Ultimate (decimal rules, two-column definitions, a licence). Nothing here is
specific to these files in the product."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ingest.refs import abbreviation, ruling_refs
from support import documents

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
pytestmark = [pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not beside the clone"),
              pytest.mark.corpus]

RULES_TXT = "lorcana-comprehensive-rules-2.2.0.txt"
RULES_PDF = "lorcana-comprehensive-rules-2025-10-31.pdf"
SET_NOTES = "lorcana-first-chapter-set-notes.txt"
FIDE = "fide-laws-of-chess.md"
RIFTBOUND = "riftbound-core-rules-2026-03-30.txt"
# A rule number opening a line of the document, as its own numbering shows it ("1.9.4.2.", "8.3 Bodyguard").
NUMBERED_LINE = re.compile(r"(?m)^\s{0,16}(\d+\.\d+(?:\.\d+)*)\.?\s+\S")
FURNITURE = ("Winnie the Pooh", "disneylorcana.com", "©Disney", "TRADING CARD GAME", "August 28, 2023")


def parsed(name: str):
    """The file parsed exactly as `rulings add FILE --game test` parses it (shape found, not given), once a run."""
    return documents.parsed(CORPORA / name)


def document_numbers(name: str) -> list[str]:
    """Every rule number the document itself shows at the start of a line, once each, contents excluded."""
    text = documents.document(CORPORA / name).original
    body = text[text.index("1.1.1"):]  # the contents pages list section numbers, not rules
    return list(dict.fromkeys(NUMBERED_LINE.findall(body)))


def section_numbers(source) -> set[str]:
    """Numbers of the section headings rulings sit under ("Concepts > 1.2 Golden Rules" → 1.2)."""
    return {m.group(1) for r in source.rulings for m in re.finditer(r"(?:^|> )(\d+(?:\.\d+)+) ", r.section)}


@pytest.mark.parametrize("name", [RULES_TXT, RULES_PDF])
def test_every_numbered_rule_of_the_comprehensive_rules_is_its_own_ruling(name):
    source = parsed(name)
    labels = [r.label for r in source.rulings if r.kind == "rule"]
    assert len(labels) == len(set(labels)), "a rule number became two rulings"
    numbers = set(document_numbers(name))
    rules = numbers - section_numbers(source)
    assert len(rules) > 300
    assert len(rules - set(labels)) <= 0.01 * len(rules), sorted(rules - set(labels))[:20]
    assert source.shape == "outline"


@pytest.mark.parametrize("name", [RULES_TXT, RULES_PDF])
def test_no_rule_holds_the_start_of_another_numbered_rule(name):
    # A number that starts a sentence of its own, not one a sentence refers to ("see 1.10", "section 6.1.8.").
    inner = re.compile(r"(?<![\d.])(?<![Ss]ee )(?<!section )(?<!sections )(?<!rule )(?<!rules )(?<!and )"
                       r"(?<!\bin )(\d+\.\d+\.\d+(?:\.\d+)*)\. +[A-Z]")
    offenders = [(r.label, m.group(1)) for r in parsed(name).rulings if r.kind == "rule"
                 for m in inner.finditer(r.text) if m.group(1) != r.label]
    assert offenders == []


@pytest.mark.parametrize("name", [RULES_TXT, RULES_PDF, SET_NOTES])
def test_no_ruling_holds_running_header_or_footer_text(name):
    source = parsed(name)
    leaks = [(r.id, phrase) for r in source.rulings for phrase in FURNITURE
             if phrase in r.text or phrase in r.title or any(phrase in e.text for e in r.examples)]
    assert leaks == []
    assert sum(source.found["furniture"].values()) >= 15


@pytest.mark.parametrize("name", [RULES_TXT, RULES_PDF])
def test_contents_and_front_matter_are_not_rulings(name):
    source = parsed(name)
    assert source.found["contents"] >= 50
    texts = [r.text for r in source.rulings]
    assert not [t for t in texts if re.search(r"Golden Rules\s+\d+\.\d+\.?\s+[A-Z]", t)], "a contents line"
    assert not [t for t in texts if re.search(r"^(?:Version \d|Effective [A-Z][a-z]+ \d)", t)], "a version line"


def test_the_version_and_date_of_the_rules_are_the_sources_metadata():
    assert parsed(RULES_TXT).found["version"] == "2.2.0"
    assert parsed(RULES_TXT).found["date"] == "2026-07-09"
    assert parsed(RULES_PDF).found["date"] == "2025-10-31"


def test_pdf_rulings_carry_the_printed_page_they_start_on():
    rulings = {r.label: r for r in parsed(RULES_PDF).rulings}
    assert sum(r.citation.page is not None for r in rulings.values()) >= 0.98 * len(rulings)
    assert rulings["1.1.1"].citation.page == 1
    assert rulings["6.1.2.1"].citation.page == 14


def test_converted_text_rulings_carry_the_page_its_footer_prints():
    rulings = {r.label: r for r in parsed(RULES_TXT).rulings}
    assert rulings["1.1.1"].citation.page == 3


def test_an_example_belongs_to_the_rule_it_follows_and_ends_at_the_next():
    rulings = {r.label: r for r in parsed(RULES_TXT).rulings}
    (example,) = rulings["1.2.1"].examples
    assert "Mufasa" in example.text and "prevents something" not in example.text
    assert rulings["1.2.2"].text.startswith("If an effect prevents something from happening")


def test_keyword_rules_are_rulings_under_their_keyword_and_know_their_parent():
    rulings = {r.label: r for r in parsed(RULES_TXT).rulings}
    for label, keyword in (("8.3.1", "Bodyguard"), ("8.6.1", "Evasive"), ("8.11.1", "Singer")):
        assert keyword in rulings[label].section
    parents = {r.id: r.label for r in parsed(RULES_TXT).rulings}
    assert parents[rulings["1.4.2.1"].parent] == "1.4.2"


def test_a_glossary_becomes_one_ruling_per_term():
    glossary = {r.title: r for r in parsed(RULES_TXT).rulings if r.kind == "glossary"}
    assert len(glossary) >= 90
    assert glossary["bag"].text.startswith("A non-physical zone where triggered abilities wait")
    assert "alter a starting hand" in glossary


def test_fide_articles_keep_their_numbers():
    rulings = {r.label: r for r in parsed(FIDE).rulings}
    assert rulings["4.6"].text.startswith("When, as a legal move or part of a legal move, a piece has been released")
    assert rulings["3.7"].title and "Article 3" in rulings["3.7"].section
    assert rulings["2.3"].text.startswith("The initial position of the pieces")
    assert not [r.id for r in parsed(FIDE).rulings if re.search(r"/\d+-\d+$", r.id)]
    markup = ("<a name", "![", "](", "**", "\\.")
    assert not [r.id for r in parsed(FIDE).rulings for m in markup if m in r.text or m in r.title]


def test_the_set_notes_give_one_ruling_per_question_under_its_card():
    source = parsed(SET_NOTES)
    questions = [r for r in source.rulings if r.kind == "question"]
    asked = len(re.findall(r"(?m)^\s*Q[:.]", (CORPORA / SET_NOTES).read_text(encoding="utf-8")))
    assert len(questions) == asked
    sections = {r.section.split(" > ")[-1] for r in questions}
    assert "Challenges" in sections
    assert any("–" in section for section in sections), "card names (Name – Title) are sections"
    assert all("A:" not in r.title for r in questions)


def test_references_to_rules_by_number_resolve_to_those_rules():
    source = parsed(RULES_TXT)
    by_id = {r.id: r for r in source.rulings}
    links = {(by_id[x.from_id].label, x.target): x.to_id for x in source.xrefs}
    assert "1.10 Materials" in by_id[links[("1.1.1", "1.10")]].section  # "see 1.10, “Materials”"
    assert by_id[links[("character", "5.3.3.2")]].label == "5.3.3.2"  # a glossary entry cites a rule
    assert by_id[links[("1.2.1", "4.3.2")]].label == "4.3.2"  # from inside an example's rule


def test_a_subrule_carries_its_rules_heading_in_its_searchable_section():
    rulings = {r.label: r for r in parsed(RULES_TXT).rulings}
    assert " > 1.4.2 " in rulings["1.4.2.1"].section
    assert rulings["8.3.2"].section.endswith("8.3 Bodyguard"), "a section heading is already the rule's"


@pytest.mark.parametrize("name", [RULES_TXT, RULES_PDF, SET_NOTES, FIDE, RIFTBOUND, "imperial-assault-rules-reference.md"])
def test_every_citation_span_holds_its_ruling_in_the_documents_original_text(name, span_fault):
    source = parsed(name)
    cited = [(r.id, r.citation, r.text) for r in source.rulings]
    cited += [(e.id, e.citation, e.text) for r in source.rulings for e in r.examples]
    faults = {key: span_fault(source.selected_text, c.char_start, c.char_end, text) for key, c, text in cited}
    assert {key: why for key, why in faults.items() if why} == {}


def test_pdf_and_converted_text_citations_carry_pages_markdown_none():
    for name in (RULES_PDF, RULES_TXT, SET_NOTES):
        rulings = parsed(name).rulings
        assert sum(r.citation.page is not None for r in rulings) >= 0.98 * len(rulings), name
    assert {r.citation.page for r in parsed(FIDE).rulings} == {None}


def test_markdown_lists_and_tables_keep_their_lines():
    rulings = {r.label: r for r in parsed(FIDE).rulings}
    assert "provided they:\n- do not conflict in any way" in next(
        r.text for r in parsed(FIDE).rulings if "more detailed rules provided they" in r.text)
    rows = [line for line in rulings["2.2"].text.split("\n") if line.startswith("|")]
    assert rows[0] == "| Piece | Symbol |" and "| Eight black pawns | |" in rows and len(rows) == 13


def test_every_numbered_line_of_a_rulebook_numbered_from_the_top_is_a_ruling_or_a_heading():
    source = parsed(RIFTBOUND)
    numbered = re.findall(r"(?m)^(\d{1,4}(?:\.(?:\d+|[a-z]))*)\.?(?:\s|$)", (CORPORA / RIFTBOUND).read_text("utf-8"))
    labels = [r.label for r in source.rulings if r.kind == "rule"]
    headings = {m.group(1) for r in source.rulings for m in re.finditer(r"(?:^|> )(\d{3}) ", r.section)}
    assert len(labels) == len(set(labels)), "a rule number became two rulings"
    assert set(numbered) - set(labels) - headings <= {"5"}  # "5." alone: a wrapped column's number
    assert len(headings) > 100 and len(labels) > 0.9 * (len(numbered) - len(headings))
    assert max(len(r.text) for r in source.rulings) < 1500, "a rule swallowed its subrules"


def test_a_lettered_subrule_is_its_own_ruling_under_its_rule():
    rulings = {r.label: r for r in parsed(RIFTBOUND).rulings}
    by_id = {r.id: r for r in parsed(RIFTBOUND).rulings}
    assert rulings["103.2.a.1"].text == "This will be placed in the Champion Zone at the start of the game."
    assert by_id[rulings["103.2.a.1"].parent].label == "103.2.a"
    assert by_id[rulings["103.2.a"].parent].label == "103.2"
    assert by_id[rulings["727.1.c.3.a"].parent].label == "727.1.c.3"


def test_numbered_title_lines_are_headings_and_top_level_rules_keep_their_own_number():
    source = parsed(RIFTBOUND)
    rulings = {r.label: r for r in source.rulings}
    refs = ruling_refs(source.rulings, abbreviation("Riftbound"), RIFTBOUND)
    assert refs[rulings["167"].id] == "Riftbound 167" and refs[rulings["103.2.a.1"].id] == "Riftbound 103.2.a.1"
    assert rulings["165"].section.endswith("> 164 Rune Pools")
    assert rulings["429.1"].section.endswith("> 429 Add")
    assert rulings["102"].section.endswith("> 100 Game Concepts > 101 Deck Construction")
    assert rulings["002"].section.endswith("> 000 Golden and Silver Rules > 001 Golden Rule")
    assert not [r.id for r in source.rulings if "Golden and Silver Rules" in r.text or r.label in ("000", "429")]
    sections = {r.section.split(" > ")[-1] for r in source.rulings}
    assert not {"Create", "Illustration", "Basic Runes", "Ending Phase"} & sections


def test_ligatures_and_doubled_spaces_of_a_pdf_extraction_are_not_in_rulings():
    source = parsed(RIFTBOUND)
    stored = [text for r in source.rulings for text in (r.text, r.title, r.section)]
    assert not [t for t in stored if re.search("[ﬀ-ﬆ]|  ", t)]
    assert source.found["title"] == "Riftbound Core Rules"
    rulings = {r.label: r for r in source.rulings}
    assert [rulings[label].citation.page for label in ("002", "103.1.a", "826.6")] == [1, 2, 97]  # "=== PAGE n ==="


LORCANA_PDFS = {"lorcana-comprehensive-rules-2025-10-31.pdf": 36, "lorcana-comprehensive-rules-2025-02-28.pdf": 70,
                "lorcana-comprehensive-rules-2024-08-09.pdf": 60}  # rules each edition's update summaries reprint


@pytest.mark.parametrize("name, reprinted", LORCANA_PDFS.items())
def test_an_update_summary_keeps_its_reprints_inside_it_as_restated_rules(name, reprinted):
    rulings = parsed(name).rulings
    summary = [r for r in rulings if re.search(r"(?:^|> )(?:Previous )?Update Summary", r.section)]
    assert {r.kind for r in summary} == {"restated", "changelog"}
    assert sum(r.kind == "restated" for r in rulings) == reprinted
    assert all(r.kind == "restated" for r in summary if re.fullmatch(r"\d+(\.\d+)+", r.label))
    # The summary is never merged into the last section of the rules before it ("5.1 General" reprinted).
    assert not [r for r in rulings if r.kind in ("restated", "changelog") and r.citation.page
                and r.citation.page < summary[0].citation.page]


def test_a_glossary_after_the_last_chapter_is_a_glossary_not_text_of_that_chapter():
    rulings = parsed("lorcana-comprehensive-rules-2024-08-09.pdf").rulings
    assert sum(r.kind == "glossary" for r in rulings) == 77
    last_rule = max((r for r in rulings if r.kind == "rule"), key=lambda r: len(r.text))
    assert "Willpower" not in last_rule.text


@pytest.mark.parametrize("name", [RULES_TXT, SET_NOTES, FIDE, RIFTBOUND, *LORCANA_PDFS,
                                  "wfdf-rules-of-ultimate-2025-2028.pdf", "ticket-to-ride-rules-2015.pdf"])
def test_a_document_whose_references_all_resolve_reports_no_gap(name):
    assert parsed(name).gaps == []


def test_a_bullet_glyph_after_a_rule_number_is_not_the_rules_text():
    rulings = parsed(RIFTBOUND).rulings
    assert next(r for r in rulings if r.label == "053.1").text.startswith("Units and legends say")
    assert not [r.label for r in rulings if re.match(r"[*•◦▪]\s", r.text)]


# The Imperial Assault reference: golden rules, card interpretations and timing, then 124 "###" glossary
# entries in alphabetical order (under "## Timing" by the markdown nesting), 12 of them only 'See "X" on page
# N', 25 "####" sub-headings inside entries, 7 numbered step lists (38 steps), 112 "Related Topics:" lines
# listing 431 topics, 30 "see" references. Counted by hand in the file.
IMPERIAL = "imperial-assault-rules-reference.md"


def imperial():
    source = parsed(IMPERIAL)
    return source, {r.id: r for r in source.rulings}


def test_every_glossary_entry_is_one_ruling_in_the_glossary_with_its_whole_definition():
    source, _ = imperial()
    entries = [r for r in source.rulings if r.kind in ("glossary", "redirect")]
    headings = re.findall(r"(?m)^### (.+)$", (CORPORA / IMPERIAL).read_text(encoding="utf-8"))
    assert [r.title for r in entries] == headings and len(headings) == 124
    assert sum(r.kind == "redirect" for r in entries) == 12
    assert {r.section.split(" > ")[-1] for r in entries} == {"Glossary"}  # not "Timing", the section before them
    # An entry over 300 words of several paragraphs (issue 42) is cut at its items: the entry, then its parts under
    # it, hold its whole definition in order.
    abilities = next(r for r in entries if r.title == "Abilities")
    whole = "\n".join(r.text for r in source.rulings if r is abilities or r.parent == abilities.id)
    assert abilities.text.startswith("All text on cards and hero sheets") and "- Deplete: The player must" in whole \
        and whole.endswith("does not count toward a figure's attack limitations.")
    assert all(len(r.text.split()) <= 300 for r in source.rulings if r is abilities or r.parent == abilities.id)
    # 17 paragraphs, 25 parts the document heads, 8 parts of long units (7 entries and one entry's sub-heading), and
    # the four types of Agenda cards, each a bullet opening with its name ("- **Side Mission:** …", issue 42); and
    # since the eighteenth session the named items of a short list, each its own part (issue 42: a section whose
    # parts open with run-in sub-headings is cut at them): Abilities' six kinds ("- Action: …"), the three
    # Attributes, Hidden Information's four kinds, Movement's "Move X Spaces"
    assert len(source.rulings) == 232 and sum(r.kind == "paragraph" for r in source.rulings) == 70


def test_an_entrys_sub_headings_and_steps_are_units_under_it_and_no_step_is_restated():
    source, by_id = imperial()
    parts = [r for r in source.rulings if r.parent and by_id[r.parent].kind == "glossary" and r.kind == "paragraph"]
    # 25 sub-headings the document prints; 19 parts of long entries or of lists of named items (ingest/parts.py): 14
    # named items ("Action", "Strength", "Tokens"), 5 continuations
    assert len(parts) == 44
    assert len([r for r in parts if r.title.endswith("(continued)")]) == 5
    steps = [r for r in source.rulings if r.kind in ("rule", "clarification")]
    assert len(steps) == 38 and not [r for r in source.rulings if r.kind == "restated"]
    attack_steps = [r for r in steps if r.section.endswith("> Attacks > Steps of an Attack")]
    assert [r.title for r in attack_steps][2] == "Rerolls" and by_id[attack_steps[2].parent].title == "Steps of an Attack"
    # The paragraph after a numbered list is the entry's, not swallowed into the last step.
    mission_stage = next(r for r in source.rulings if r.title == "Mission Stage")
    cleanup = next(r for r in steps if r.title == "Post-Mission Cleanup")
    assert "After resolving \"Post-Mission Cleanup,\"" in mission_stage.text
    assert "After resolving \"Post-Mission" not in cleanup.text and "non-agenda Side Mission" in cleanup.text


def test_related_topics_lines_are_links_and_see_references_resolve_without_false_gaps():
    source, by_id = imperial()
    assert not [r.id for r in source.rulings if "Related Topics" in r.text]
    related = [x for x in source.xrefs if x.kind == "related"]
    assert len(related) == 431 and all(x.to_id for x in related)
    assert len({x.from_id for x in related}) == 112
    see = [x for x in source.xrefs if x.kind == "see"]
    assert len(see) == 30 and all(x.to_id for x in see)
    assert source.gaps == []
    reroll = next(x for x in see if by_id[x.from_id].title == "Reroll")  # 'See Step 3 of "Attacks" on page 5.'
    assert by_id[reroll.to_id].title == "Rerolls"


def test_glossary_refs_are_the_term_and_steps_read_after_their_entry():
    source, _ = imperial()
    found = ruling_refs(source.rulings, "IA", IMPERIAL)
    refs = {r.title: found[r.id] for r in source.rulings}
    # The document numbers its units, not the part "Steps of an Attack": its place, marked, never a bare count.
    assert refs["Attacks"] == "IA Attacks" and refs["Steps of an Attack"] == "IA Attacks ¶1"
    assert refs["Rerolls"] == "IA Attacks ¶1.3" and refs["Choose Heroes"] == "IA Campaign Setup 2"
    assert refs["Bleed"] == "IA Bleed" and refs["XP"] == "IA XP"
    entries = [found[r.id] for r in source.rulings if r.kind in ("glossary", "redirect")]
    assert not [ref for ref in entries if re.search(r"#|\d", ref)]  # a named entry never falls back to a number


def test_the_laws_of_chess_came_into_force_on_1_july_2009_and_restate_nothing():
    source = parsed(FIDE)
    assert (source.found["title"], source.found["date"]) == ("FIDE Laws of Chess", "2009-07-01")
    assert not [r.label for r in source.rulings if r.kind == "restated"]


TICKET = "ticket-to-ride-rules-2015.pdf"
WFDF = "wfdf-rules-of-ultimate-2025-2028.pdf"


def place(ruling) -> str:
    """A ruling's section path below the document's own name (`parsed` files rulings under it)."""
    return ruling.section.split(" > ", 1)[1]


def headings_in_order(source) -> list[str]:
    """The top-level sections rulings sit under, in the order the document gives them."""
    return list(dict.fromkeys(place(r).split(" > ")[0] for r in source.rulings))


def test_title_case_headings_of_a_pdf_without_blank_lines_each_head_their_section():
    # Counted by hand on the four pages; captions ("Example 1", "1 Summary", "Bonus card") are no headings. The back
    # page's own heading, set as large as the rules' ("Register your boardgame"), is one since headings are read by
    # their type size; it stays back matter with the credits before it.
    assert headings_in_order(parsed(TICKET)) == [
        "Front Matter", "Components", "Setting up the Game", "Object of the Game", "The Game Turn",
        "Train Car Cards", "Claiming Routes", "Route Scoring Table", "Drawing Destination Ticket Cards",
        "Game End", "Calculating Scores", "Credits", "Register your boardgame"]
    assert len(parsed(TICKET).rulings) == 14


def test_a_table_read_down_its_columns_is_one_table_of_rows_in_the_section_that_introduces_it():
    source = parsed(TICKET)
    [table] = source.tables
    owner = next(r for r in source.rulings if r.id == table.ruling_id)
    assert place(owner) == "Route Scoring Table" and table.name == "Route Scoring Table"
    assert table.columns == ["Route Length", "Points Scored"]
    assert [(row["Route Length"], row["Points Scored"]) for row in table.rows] == [
        ("1", "1"), ("2", "2"), ("3", "4"), ("4", "7"), ("5", "10"), ("6", "15")]
    assert owner.text.endswith("on the Scoring Track:\n| Route Length | Points Scored |\n| 1 | 1 |\n| 2 | 2 |\n"
                               "| 3 | 4 |\n| 4 | 7 |\n| 5 | 10 |\n| 6 | 15 |")
    # No number of the table is a rule number (the document numbers none), or a line of another ruling's text.
    assert not [r.label for r in source.rulings if r.kind == "rule"]
    assert not [r.id for r in source.rulings if r is not owner and re.search(r"(?m)^\d+$|\| \d+ \|", r.text)]


def test_a_print_slug_bullet_glyphs_callout_marks_and_a_drop_cap_are_not_in_rulings():
    source = parsed(TICKET)
    texts = [text for r in source.rulings for text in (r.text, r.title, r.section)]
    assert not [t for t in texts if re.search(r"(?m)\[T2R\]|Page\d|TTR2|[∂∑∫∏πª]|^u ", t)]
    assert source.found["furniture"] == {"[T#R] rules EN reprint #_TTR# rules US #/#/# #:# Page#": 4}
    assert source.rulings[0].text.startswith("On a blustery autumn evening")
    components = next(r for r in source.rulings if place(r) == "Components")
    assert components.text.splitlines()[0] == "• 1 Board map of North American train routes"
    assert "• 5 Wooden Scoring Markers (1 for each player in Blue, Red, Green, Yellow and Black)" in components.text
    # Each page is cited by the number its slug prints, the cover bound last too ("Page1" on the fourth).
    assert [r.citation.page for r in source.rulings if place(r) in ("Components", "Claiming Routes",
                                                                   "Calculating Scores")] == [3, 4, 1]


def test_the_title_is_the_name_the_document_gives_itself_not_its_file_name_or_print_job():
    # The PDF's /Title is the print job ("[T2R] rules EN reprint 2015_TTR2 rules US"); the text names the game.
    assert parsed(TICKET).found["title"] == "Ticket to Ride"
    assert parsed(WFDF).found["title"] == "WFDF Rules of Ultimate 2025-2028"  # more than /Title says


def test_credits_and_a_licence_ending_a_document_are_back_matter_never_an_answer():
    assert {r.kind for r in parsed(TICKET).rulings if place(r) == "Credits"} == {"title"}
    licence = [r for r in parsed(WFDF).rulings if place(r) == "Legal License"]
    assert len(licence) == 4 and {r.kind for r in licence} == {"title"}


def test_every_chapter_the_contents_lists_is_a_heading():
    contents = re.findall(r"(?m)^(?:\d+\. )?([A-Z][^.\n]*?) \.{3,}", documents.document(CORPORA / WFDF).original)
    assert len(contents) == 23  # Introduction, 20 numbered chapters, Definitions, Legal License
    assert headings_in_order(parsed(WFDF)) == ["Front Matter", *contents]


def test_every_numbered_rule_of_the_ultimate_rules_is_its_own_ruling_or_titles_its_subrules():
    source = parsed(WFDF)
    original = documents.document(CORPORA / WFDF).original
    numbers = re.findall(r"(?m)^(\d+(?:\.\d+)+)\.\s", original)
    labels = [r.label for r in source.rulings if r.kind == "rule"]
    assert len(labels) == len(set(labels)) == 354
    titles = set(numbers) - set(labels)  # "17.1. Dangerous Play:", "19.1. Injury Stoppage"
    assert titles == {f"17.{n}" for n in range(1, 10)} | {"18.1", "18.2", "18.3", "19.1", "19.2"}
    assert all(any(place(r).startswith(f"Fouls > 17.{n} ") for r in source.rulings) for n in range(1, 10))
    rulings = {r.label: r for r in source.rulings}
    by_id = {r.id: r for r in source.rulings}
    # Lower-case list items numbered 1.3.1-1.3.10 are rules of their own under 1.3, like 1.2.1 under 1.2.
    assert [by_id[rulings[f"1.3.{n}"].parent].label for n in range(1, 11)] == ["1.3"] * 10
    assert rulings["1.3.3"].text == "be truthful;"
    # The line finishing a rule's sentence after its list is the rule's.
    assert rulings["1.12"].text.endswith("obvious: the disc must be returned to the last non-disputed thrower.")
    assert rulings["1.12.2"].text == "what would most likely have occurred in a play,"


def test_definitions_set_beside_their_terms_become_one_glossary_ruling_per_term():
    glossary = [r for r in parsed(WFDF).rulings if r.kind in ("glossary", "redirect")]
    terms = [r.title for r in glossary]
    assert len(terms) == 40  # counted by hand on pages 15-16
    assert [r.title for r in glossary if r.kind == "redirect"] == ["Act of throwing"]  # "See throwing motion."
    assert terms == sorted(terms, key=str.casefold)
    assert {"Act of throwing", "Making a play on the disc", "Out-of-bounds (OB)", "Pivot", "Pivot Location",
            "Play", "Possession of the disc", "Where the disc stops"} <= set(terms)
    text = {r.title: r.text for r in glossary}
    assert text["Attacking end zone"] == "The end zone in which the team in question is currently attempting to score."
    assert text["Catch"].endswith("that initial catch is deemed to have ended.")  # its second paragraph
    assert text["Goal line"].endswith("It is not part of the end zone")  # no full stop, and "end zone" no term
    assert text["Where the disc stops"].endswith("stopped from rolling or sliding.")  # "- The End –" is no text
    assert {place(r) for r in glossary} == {"Definitions"}


def test_a_markdown_table_is_one_table_of_the_rule_it_sits_in():
    tables = parsed(FIDE).tables
    pieces = next(t for t in tables if t.columns == ["Piece", "Symbol"])
    assert len(pieces.rows) == 12 and pieces.rows[0]["Piece"] == "A white king"
    assert pieces.ruling_id.endswith("/2.2")

@pytest.mark.parametrize("name", [RULES_TXT, RULES_PDF, FIDE])
def test_a_numbered_rule_sits_only_under_headings_its_number_descends_from(name):
    # Checked by hand: before, 4.3.7 and 4.3.8 with their 10 subrules sat under "4.3.6 Challenge" in the PDF and
    # 6.3.4 under "6.3.3 Songs"; in the text 4.6.5 to 4.6.9.2 under "4.6.4"/"4.6.6" steps and 5.4.5 under
    # "5.4.4 Songs" (13 and 10 rulings). The document's numbering puts them in 4.3, 4.6, 5.4 and 6.3.
    misplaced = [(r.label, m.group(1)) for r in parsed(name).rulings
                 if r.kind == "rule" and re.fullmatch(r"\d+(?:\.\d+)+[a-z]?", r.label)
                 for m in re.finditer(r"(?:^|> )(\d+(?:\.\d+)*)\.? ", r.section)
                 if not (r.label == m.group(1) or r.label.startswith(m.group(1) + "."))]
    assert misplaced == []
    if name == RULES_PDF:
        main = {r.label: r.section for r in parsed(name).rulings}
        assert main["4.3.7"].endswith("> 4.3 Main Phase") and main["4.3.8"].endswith("> 4.3 Main Phase")


def test_a_code_block_is_text_of_the_lead_in_it_follows_not_a_restated_rule():
    rulings = parsed(FIDE).rulings
    sample = [r for r in rulings if "1. e4 e5 2. Nf3" in r.text]
    # Before: a restated "C.1" ("e4 e5 2."). The sample game follows C.13's list at the appendix's margin, after the
    # abbreviations' table: the appendix's, one unit with its lead-in, no part of the rule on offering a draw.
    assert [(r.label, r.kind) for r in sample] == [("sample-game", "paragraph")]
    assert sample[0].text.endswith("Sample game:\n1. e4 e5 2. Nf3 Nf6 3. d4 exd4 4. e5 Ne4 5. Qxd4 d5 6. exd6e.p.\n"
                                   "Nxd6 7. Bg5 Nc6 8. Qe3+ Be7 9. Nbd2 0-0 10. 0-0-0 Re8 11. Kb1 (=)")
