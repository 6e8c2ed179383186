"""The invariants every cut keeps (ingest.invariants, issue 42): each one named with a count and examples where a
cut breaks it, on small documents written to break exactly one; the audit's verdict "good" only when all hold;
and the cleaning fixes they led to (a word a line's end broke at a hyphen, two tables of one name)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest
from support.documents import COLLECTED, every_document

from ingest import audit, clean, invariants
from ingest.changeset import read_document
from ingest.refs import ruling_refs
from ingest.text import MappedText


def _read(tmp_path: Path, name: str, text: str, game: str = "test-game") -> tuple:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return read_document(path, game)


def _broken(tmp_path: Path, name: str, text: str, game: str = "test-game") -> dict[str, dict]:
    """The invariants the document's cut breaks, by name, as `rulings add` audits it."""
    entry, parsed = _read(tmp_path, name, text, game)
    refs = {k: v.partition(" ")[2] for k, v in ruling_refs(list(parsed.rulings), "_").items()}
    found = invariants.check(invariants.Cut(parsed.original_text, parsed.rulings, refs, entry.title, entry.file,
                                            parsed.found.get("game_name") or ""))
    assert [i["name"] for i in found] == list(invariants.NAMES)
    return {i["name"]: i for i in found if i["count"]}


def _rules(count: int, first: int = 1) -> str:
    return "\n\n".join(f"{n}.{m} A player may move one unit {n}{m} squares when the round starts."
                       for n in range(first, first + count) for m in (1, 2))


def test_a_well_cut_numbered_document_breaks_no_invariant_and_audits_good(tmp_path):
    text = "# Skirmish Rules\n\nSkirmish is a game for two players.\n\n" + _rules(12)
    assert _broken(tmp_path, "skirmish.md", text, "skirmish") == {}
    entry, parsed = _read(tmp_path, "skirmish.md", text, "skirmish")
    assert audit.audit(parsed.cleaned_text, parsed.rulings, parsed.original_text, title=entry.title,
                       file_name=entry.file)["verdict"] == "good"


def test_a_running_header_repeated_on_every_page_of_a_browser_print_is_named_as_furniture():
    # A browser's print: a date-time and title line heads each page; the rules run on below it.
    header = "11/28/26, 9:14 PM Skirmish Rules - Example Site"
    pages = [f"{header}\n" + "\n".join(f"{p}.{m} Each unit in squad {p}{m} may move two squares and then fight."
                                        for m in range(1, 9)) for p in range(1, 9)]
    text = "\n".join(pages)
    glued = [_Ruling(f"r{n}", "Skirmish", f"{n}.1", "", f"Each unit may move. {header}", "rule", n)
             for n in range(3)]
    found = invariants.check(invariants.Cut(text, glued, {r.id: r.label for r in glued}))
    furniture = next(i for i in found if i["name"] == "furniture")
    assert furniture["count"] == 3 and "skirmish rules - example site" in furniture["examples"][0]


def test_a_three_page_prints_footer_counting_its_pages_is_named_as_furniture_but_a_thrice_said_line_is_not():
    # Seen only three times, a line is a running footer when its page count rises by one each time.
    body = "\n".join(f"Rule {n}: each unit may move two squares and then fight an adjacent unit." for n in range(30))
    footer = "file:///tmp/print/skirmish.html {page}/3"
    said = "Then the round ends and the next player takes a turn."
    text = "\n".join(f"{body}\n{said}\n{footer.format(page=page)}" for page in (1, 2, 3))
    rulings = [_Ruling("r1", "Rules", "1", "", f"Each unit may move. {footer.format(page=2)}", "rule", 1),
               _Ruling("r2", "Rules", "2", "", f"Each unit may move. {said}", "rule", 2)]
    found = invariants.check(invariants.Cut(text, rulings, {r.id: r.label for r in rulings}))
    assert next(i for i in found if i["name"] == "furniture")["examples"] == ["1: 'file:///tmp/print/skirmish.html #/#'"]


def test_a_passage_each_rule_repeats_mid_page_is_no_running_line_but_a_page_edge_line_is():
    # A PDF's pages (form feeds between them): a footer on each page's last line, and each rule's penalty
    # clause, wrapped alike, in the middle of its page.
    clause = "impact, the referee may assess a major penalty and game misconduct"
    moves = [f"Each unit in squad {p}{m} may move two squares and fight." for p in range(1, 9) for m in range(8)]
    pages = ["\n".join([*moves[8 * p:8 * p + 4], f"Rule {p}.1 A player who checks an opponent causing an injury by the",
                         clause, *moves[8 * p + 4:8 * p + 8], f"SKIRMISH PLAYING RULES 2024 - page {p}"])
             for p in range(8)]
    text = "\f\n".join(pages)
    rulings = [_Ruling(f"r{p}", "Rules", f"{p}.1", "", f"A player who checks… by the {clause} penalty.", "rule", p)
               for p in range(1, 9)] + [_Ruling("f", "Rules", "9.1", "", "Fight. SKIRMISH PLAYING RULES 2024 - page 3",
                                                "rule", 9)]
    found = invariants.check(invariants.Cut(text, rulings, {r.id: r.label for r in rulings}))
    assert next(i for i in found if i["name"] == "furniture")["examples"] == ["9.1: 'skirmish playing rules # - page #'"]


def test_a_page_number_glued_after_a_sentence_is_named_as_furniture_but_a_numbered_figure_is_not():
    glued = [_Ruling("r1", "Setup", "1", "", "Shuffle the deck and deal five cards. 14", "rule", 1),
             _Ruling("r2", "Setup", "2", "", "The batter's box is drawn as shown. DIAGRAM NO. 1", "rule", 2)]
    found = invariants.check(invariants.Cut("", glued, {"r1": "1", "r2": "2"}))
    assert next(i for i in found if i["name"] == "furniture")["examples"] == ["1: 'Shuffle the deck and deal five cards. 14'"]


def test_a_contents_entry_kept_as_a_ruling_is_named_with_or_without_dot_leaders():
    rulings = [_Ruling("c1", "Rules", "", "", "1.2. The Golden Rules", "title", 1),
               _Ruling("c2", "Rules", "", "", "Combat . . . . . . . . 12", "paragraph", 2),
               _Ruling("r1", "Rules > 1.2. The Golden Rules", "1.2.1", "", "The rules on a card win.", "rule", 3)]
    found = invariants.check(invariants.Cut("", rulings, {r.id: r.label or r.id for r in rulings}))
    contents = next(i for i in found if i["name"] == "contents")
    assert contents["count"] == 2


def test_a_list_of_tables_run_together_into_a_ruling_is_named_by_its_leaders():
    # A LaTeX rulebook's "List of Tables" kept as one paragraph: its leaders sit inside the text, not at a line's end.
    text = ("1 Imagine all the possibilities. . . . . . . . . . . 13 2 Maybe you don't love dice. . . . . . . 15 "
            "3 It's harder to hit, but so satisfying! . . . . . . . 18 and the rules go on here")
    rulings = [_Ruling("t1", "List of Tables", "", "", text, "paragraph", 1)]
    found = invariants.check(invariants.Cut("", rulings, {r.id: r.id for r in rulings}))
    assert next(i for i in found if i["name"] == "contents")["count"] == 1


def test_leaders_inside_a_long_line_are_looked_for_in_linear_time():
    # Searching the whole line with the leader pattern read a 40,000-character run of ". " in seconds, from each dot.
    for line in (". " * 200_000 + "x", ". . . . x" * 50_000, "....x" * 100_000):
        rulings = [_Ruling("t1", "Rules", "", "", line, "paragraph", 1)]
        found = invariants.check(invariants.Cut("", rulings, {"t1": "t1"}))
        assert next(i for i in found if i["name"] == "contents")["count"] == 0


@pytest.mark.parametrize("heading", ["Points | Length | Cards", "Figure 3 A unit in cover", "and then the other",
                                     ("If a player cannot draw a card from their deck at the start of their turn"
                                      " then they lose the game at once and the"), "the round ends,",
                                     "Uniforms, Organization, and History of the", "HISTORY OF THE", "If An",
                                     "Make a Claim Map for the Crew. Sample claims include:",
                                     "The player rolls the dice** and we judge the result.",
                                     "*** Penalty can be negated if using a crossbow from a prepared position.",
                                     "M LP A D SP MD"])
def test_a_table_row_caption_or_sentence_fragment_as_a_heading_is_named(heading):
    rulings = [_Ruling("r1", f"Rules > {heading}", "", "", "Units move.", "paragraph", 1)]
    found = invariants.check(invariants.Cut("", rulings, {"r1": "Units 1"}))
    assert next(i for i in found if i["name"] == "headings")["count"] == 1


def test_a_sentence_heading_at_the_top_of_a_document_added_without_a_root_is_named():
    # `rulings add` gives a document no root section: its own first headings open the sections, and one that is a
    # sentence ("Chapter 2 offered…") closing the title heading is a heading like any other.
    sentence = "Chapter 2 offered the following types of outcomes as some of the possibilities for adding a twist to a success:"
    rulings = [_Ruling("r1", "Chapter 7: Combat > Starting Combat", "", "", "Roll for initiative.", "paragraph", 1),
               _Ruling("r2", f"{sentence} > Waste Time", "", "", "Melchior stalls.", "paragraph", 2)]
    found = invariants.check(invariants.Cut("", rulings, {"r1": "Starting Combat 1", "r2": "Waste Time 1"}))
    assert next(i for i in found if i["name"] == "headings")["count"] == 1
    # A root every section shares is the document's, no heading of it.
    rooted = [_Ruling("r1", f"{sentence} > Starting Combat", "", "", "Roll for initiative.", "paragraph", 1)]
    found = invariants.check(invariants.Cut("", rooted, {"r1": "Starting Combat 1"}))
    assert not next(i for i in found if i["name"] == "headings")["count"]


@pytest.mark.parametrize("heading", ["Attach To", "Find Something You Weren’t Looking For", "Zone of Control (abbr. ZOC)",
                                     "Attack vs. Defense", "St. Lazarus", "Serving.",
                                     "Rules of Play for the Tournament of the Realm."])
def test_a_title_case_heading_ending_on_a_capitalised_small_word_is_a_heading(heading):
    rulings = [_Ruling("r1", f"Rules > {heading}", "", "", "Units move.", "paragraph", 1)]
    found = invariants.check(invariants.Cut("", rulings, {"r1": "Units 1"}))
    assert not next(i for i in found if i["name"] == "headings")["count"]


def test_a_unit_over_300_words_of_several_paragraphs_is_named_but_one_long_paragraph_is_not():
    paragraph = " ".join(["word"] * 160)
    rulings = [_Ruling("r1", "Combat", "1", "", f"{paragraph}\n{paragraph}", "rule", 1),
               _Ruling("r2", "Combat", "2", "", " ".join(["word"] * 320), "rule", 2)]
    found = invariants.check(invariants.Cut("", rulings, {"r1": "1", "r2": "2"}))
    assert next(i for i in found if i["name"] == "long")["examples"] == ["1"]
    # a front matter of many paragraphs too: a site's whole game read before any heading it could see
    front = [_Ruling("f1", "Front Matter", "", "", f"{paragraph}\n{paragraph}", "front-matter", 1),
             _Ruling("t1", "", "", "", f"{paragraph}\n{paragraph}", "title", 2)]
    found = invariants.check(invariants.Cut("", front, {"f1": "front 1", "t1": "title"}))
    assert next(i for i in found if i["name"] == "long")["examples"] == ["front 1"]


def test_a_unit_a_reader_ran_onto_one_line_from_many_paragraphs_of_the_document_is_named():
    # A back-of-book index: an entry a line, its letters parted by blank lines; a cut that ran it into one line
    # of 340 words made no paragraph of the document that long. A table of as many words is one paragraph.
    from model.records import Citation
    groups = ["\n".join(f"entry {letter}{n} of the index, {n}.{n}" for n in range(12)) for letter in "ABCDEF"]
    text = "Rules\n\n" + "\n\n".join(groups) + "\n\n" + "\n".join(f"| row {n} | a b c d e f g h i j |" for n in range(30))
    lines = text.split("\n")
    index = _Ruling("r1", "Index", "", "", " ".join(" ".join(g.split("\n")) for g in groups), "paragraph", 1)
    table = _Ruling("r2", "Chart", "", "", "\n".join(lines[-30:]), "paragraph", 2)
    index.citation = Citation("s", 3, len(lines) - 31, 0, 0, 3, len(lines) - 31)
    table.citation = Citation("s", len(lines) - 29, len(lines), 0, 0, len(lines) - 29, len(lines))
    assert len(index.text.split()) > 300 and "\n" not in index.text and len(table.text.split()) > 300
    found = invariants.check(invariants.Cut(text, [index, table], {"r1": "Index 1", "r2": "Chart 1"}))
    assert next(i for i in found if i["name"] == "long")["examples"] == ["Index 1"]


def test_a_unit_holding_a_bylaws_items_that_markdown_ran_into_one_paragraph_is_named():
    # A club's bylaws in pandoc markdown: "A." / "#." / "(i)" items, indented, no blank line between them; CommonMark
    # reads the article as one paragraph, and a cut that kept it whole (2,500 words) had made "one paragraph".
    from model.records import Citation
    items = [f"{marker}  The officer shall keep the records of the club and report on them at every meeting {n}."
             for n, marker in enumerate(["A.", "    1.", "    #.", "        a.", "        (i)", "#."] * 8)]
    text = "# Article IV. Members\n\n" + "\n".join(items) + "\n"
    article = _Ruling("r1", "Article IV. Members", "", "", " ".join(i.strip() for i in items), "paragraph", 1)
    article.citation = Citation("s", 3, 2 + len(items), 0, 0, 3, 2 + len(items))
    assert len(article.text.split()) > 300
    found = invariants.check(invariants.Cut(text, [article], {"r1": "Article IV. Members 1"}))
    assert next(i for i in found if i["name"] == "long")["examples"] == ["Article IV. Members 1"]


def test_a_unit_holding_three_parts_that_open_with_run_in_sub_headings_is_named_but_two_cases_are_not():
    from model.records import Citation
    text = ("## The Network\n\n- **The Source:** Your arsenals radiate lines.\n- **Relays:** Relays extend them.\n"
            "- **Going Offline:** A unit out of the lines goes offline.\n\n## Attacks\n\n**Melee:** Adjacent only."
            "\n\n**Ranged:** Up to three squares.\n")
    network = _Ruling("r1", "The Network", "", "", "The Source: Your arsenals… Relays: … Going Offline: …", "paragraph",
                      1)
    attacks = _Ruling("r2", "Attacks", "", "", "Melee: Adjacent only. Ranged: Up to three squares.", "paragraph", 2)
    terms = _Ruling("r3", "Glossary", "", "Network", "The Source: … Relays: … Going Offline: …", "glossary", 3)
    network.citation, terms.citation = Citation("s", 3, 5, 0, 0, 3, 5), Citation("s", 3, 5, 0, 0, 3, 5)
    attacks.citation = Citation("s", 9, 11, 0, 0, 9, 11)
    found = invariants.check(invariants.Cut(text, [network, attacks, terms],
                                            {"r1": "The Network 1", "r2": "Attacks 1", "r3": "Network"}))
    assert next(i for i in found if i["name"] == "run-ins")["examples"] == [
        "The Network 1: going offline, relays, the source"]


def test_a_short_section_of_three_run_in_parts_is_cut_at_them_and_breaks_no_run_in_invariant(tmp_path):
    # each part's text in lower case after its name, as an errata list or a language other than English writes it
    text = ("# Skirmish\n\n## The Network\n\n- **The Source:** radiates lines of supply from each arsenal.\n"
            "- **Relays:** extend the lines of supply by two squares.\n"
            "- **Going Offline:** happens to a unit out of the lines.\n\n## Attacks\n\nAttack adjacent units.\n")
    assert "run-ins" not in _broken(tmp_path, "network.md", text)


def test_an_item_cited_at_another_nesting_level_than_its_parent_is_named():
    # Item c. of 3.2.6 must be 3.2.6.c, never 4.5c.
    rulings = [_Ruling("p", "Rules", "3.2.6", "", "Some effects:", "rule", 1),
               _Ruling("c", "Rules", "c.", "", "Those that move.", "rule", 2, parent="p"),
               _Ruling("d", "Rules", "d.", "", "Those that fight.", "rule", 3, parent="p")]
    found = invariants.check(invariants.Cut("", rulings, {"p": "3.2.6", "c": "4.5c", "d": "3.2.6d"}))
    assert next(i for i in found if i["name"] == "nesting")["examples"] == ["4.5c under 3.2.6"]


def test_an_item_left_under_no_parent_between_two_sibling_rules_is_named_but_a_chapter_between_parts_is_not():
    # "3.1 Death" lists "1." (its "a." under it) before "3.2": cited "1" and "1.A", the items read as the document's
    # own chapter 1. A chapter "2." between 1.2 and 2.1 opens new numbering: no item of 1.2.
    rulings = [_Ruling("r1", "Rules", "3.1", "", "Death. A player may kill another by:", "rule", 1),
               _Ruling("r2", "Rules", "1.", "", "An ability:", "rule", 2),
               _Ruling("r3", "Rules", "a.", "", "He says who he is.", "rule", 3, parent="r2"),
               _Ruling("r4", "Rules", "3.2", "", "Trial. The camp judges.", "rule", 4),
               _Ruling("c1", "Setup", "1.2", "", "Deal the cards.", "rule", 5),
               _Ruling("c2", "Setup", "2.", "", "Play. Players take turns.", "rule", 6),
               _Ruling("c3", "Setup", "2.1", "", "The first player starts.", "rule", 7)]
    refs = {"r1": "3.1", "r2": "1", "r3": "1.A", "r4": "3.2", "c1": "1.2", "c2": "2", "c3": "2.1"}
    found = invariants.check(invariants.Cut("", rulings, refs))
    assert next(i for i in found if i["name"] == "nesting")["examples"] == ["1 within 3.1", "1.A within 3.1"]
    refs.update(r2="3.1.1", r3="3.1.1.A")
    assert not next(i for i in invariants.check(invariants.Cut("", rulings, refs)) if i["name"] == "nesting")["count"]


def test_an_item_under_a_long_term_is_cited_by_the_terms_first_words_when_the_whole_does_not_fit():
    rulings = [_Ruling("t", "Glossary", "", "Initiating Abilities/Deploying Cards", "To deploy:", "glossary", 1),
               _Ruling("1", "Glossary", "1.", "", "Check play restrictions.", "rule", 2, parent="t"),
               _Ruling("2", "Glossary", "2.", "", "Pay the cost.", "rule", 3, parent="t"),
               _Ruling("3", "Glossary", "3.", "", "Choose targets.", "rule", 4, parent="t")]
    refs = {"t": "Initiating Abilities…", "1": "Initiating… 1", "2": "Deploying… 2", "3": "Initiating 3"}
    found = invariants.check(invariants.Cut("", rulings, refs))
    # The cut, marked "…", keeps the term's first words: the level holds; another term's words, or a head not
    # marked as cut, do not.
    assert next(i for i in found if i["name"] == "nesting")["examples"] == [
        "Deploying… 2 under Initiating Abilities…", "Initiating 3 under Initiating Abilities…"]


def test_an_unnumbered_document_names_its_units_by_their_headings_and_breaks_no_invariant(tmp_path):
    # Headings without numbers over one paragraph each: the refs were counts ("1" … "6"); they name the heading.
    answers = ["Move first.", "Roll two dice.", "Discard a card.", "Draw three.", "Pass the turn.", "Score it."]
    text = "# Skirmish FAQ\n\n" + "\n\n".join(f"## {topic}\n\n{answer}" for topic, answer in zip(
        ["Moving", "Rolling", "Discarding", "Drawing", "Passing", "Scoring"], answers, strict=True))
    assert _broken(tmp_path, "skirmish-faq.md", text, "skirmish") == {}
    _, parsed = _read(tmp_path, "skirmish-faq.md", text, "skirmish")
    refs = ruling_refs(list(parsed.rulings), "SF")
    assert [refs[r.id] for r in parsed.rulings if r.kind != "title"][:2] == ["SF Moving 1", "SF Rolling 1"]


def test_a_bare_count_under_no_heading_or_a_place_for_a_ref_is_named():
    rulings = [_Ruling("a", "", "1", "", "Units move.", "paragraph", 1),
               _Ruling("b", "", "2", "", "Units fight.", "paragraph", 2)]
    found = invariants.check(invariants.Cut("", rulings, {"a": "1", "b": "#2"}))
    assert next(i for i in found if i["name"] == "counters")["examples"] == ["1", "#2"]


def test_a_paragraph_that_asks_and_answers_is_typed_as_a_question(tmp_path):
    text = ("# Skirmish FAQ\n\n## Combat\n\nHow does rolling work? Roll three dice and keep the best.\n\n"
            "Units fight once per round.\n")
    _, parsed = _read(tmp_path, "skirmish-faq.md", text, "skirmish")
    kinds = {r.text[:8]: r.kind for r in parsed.rulings}
    assert kinds["How does"] == "question" and kinds["Units fi"] != "question"


def test_a_contents_without_its_heading_is_removed_and_the_body_kept(tmp_path):
    # Labels alone on their lines over titles, as a PDF sets them, and no "Contents" heading: the body prints the
    # same labels and titles again, which ends the contents.
    chapters = ["Game Concepts", "Deck Building", "Card Types", "Turn Order", "Combat Rules", "Scoring Points"]
    parts = ["General", "Setup Steps"]
    listed = "\n".join(f"{n}.\n{c}\n" + "\n".join(f"{n}.{m}.\n{p}" for m, p in enumerate(parts, 1))
                       for n, c in enumerate(chapters, 1))
    body = "\n\n".join(f"{n}.\n{c}\n\n" + "\n\n".join(
        f"{n}.{m}.\n{p}\n\n{n}.{m}.1.\nPlayers follow rule {n}{m} of {c.lower()}." for m, p in enumerate(parts, 1))
        for n, c in enumerate(chapters, 1))
    _, parsed = _read(tmp_path, "skirmish.txt", f"Skirmish Rules\n\n{listed}\n\n{body}\n", "skirmish")
    assert " ".join(parsed.cleaned_text.split()).startswith("Skirmish Rules 1. Game Concepts 1.1. General 1.1.1. Players")
    assert parsed.cleaned_text.count("Scoring Points") == 1 and parsed.found["contents"] == 18


def test_bullets_that_print_the_clause_numbers_are_the_clauses(tmp_path):
    # Bylaws in markdown: every clause a bullet that prints its number, nested as the numbers nest.
    text = ("# Club Bylaws\n\n## Article 4: Membership\n\n- **4.1 Member Rights**\n    - 4.1.1 A member may vote at "
            "the annual meeting.\n    - 4.1.2 A member may hold office.\n        - 4.1.2.1 Officers serve one year.\n"
            "- **4.2 Non-Members**\n    - 4.2.1 A non-member may not vote.\n\n## Article 5: Sections\n\n"
            "- 5.1. Dues\n\n### 5.1. Dues\n\nDues are paid yearly.\n")
    _, parsed = _read(tmp_path, "bylaws.md", text, "club")
    labels = {r.label: r.text for r in parsed.rulings if r.kind == "rule"}
    assert {"4.1.1", "4.1.2", "4.1.2.1", "4.2.1"} <= set(labels)
    assert labels["4.1.2.1"] == "Officers serve one year."
    # "- 5.1. Dues" lists a section the document heads as its own: it is no rule 5.1
    assert [r.text for r in parsed.rulings if r.label == "5.1"] == ["Dues are paid yearly."]
    # A league's rules: each section a marked heading numbered like a rule, its clauses bullets under it; a clause
    # printed empty ("- 2.1.2.") leaves its own subclauses carrying the numbering on.
    league = ("# League Rules\n\n### 1. Introduction\n\n### 2.1. Signing up\n\n- 2.1.1. Players must join the "
              "server.\n- 2.1.2.\n  - 2.1.2.1. A player may ask to leave.\n- 2.1.3. Players must play ten games.\n")
    _, parsed = _read(tmp_path, "league.md", league, "league")
    assert {r.label: r.text for r in parsed.rulings if r.kind == "rule" and r.label != "2.1"} == {
        "2.1.1": "Players must join the server. - 2.1.2.", "2.1.2.1": "A player may ask to leave.",
        "2.1.3": "Players must play ten games."}


def test_a_change_log_at_the_top_holds_its_entries_not_the_rules_after_it(tmp_path):
    text = ("# Official Game Rules\n\nCHANGE LOG\n\n(2026-02-07) Added a clarification to Rule 2.1.\n\n"
            "(2026-01-10) Corrected Rule 1.1.\n\n## 1. Getting Ready to Play\n\n**1.1** Each player brings a deck.\n\n"
            "**1.2** The game lasts an hour.\n\n## 2. Playing\n\n**2.1** Players take turns.\n")
    _, parsed = _read(tmp_path, "rules.md", text, "cardgame")
    rules = {r.label: r.section for r in parsed.rulings if r.kind == "rule"}
    assert set(rules) == {"1.1", "1.2", "2.1"}
    assert not any("Change Log" in section for section in rules.values())


def test_text_of_the_document_that_no_ruling_holds_is_named():
    lost = "Change the Venomous Bite ability name to Venomous Spray on every Doctor card printed before this"
    cleaned = (f"Doctors\nRemove Bulky from the Doctor and give it two more life points.\n{lost}\n"
               "Related Topics: Attacks, Damage, Poison, Strain, Templates, Doctors, Venom, Spray, Bite\n"
               "Add Template to Venomous Spray\n")
    rulings = [_Ruling("r1", "Doctors", "1", "", "Remove Bulky from the Doctor and give it two more life points.",
                       "paragraph", 1),
               _Ruling("r2", "Doctors > Add Template to Venomous Spray", "2", "", "Add Template.", "paragraph", 2)]
    found = invariants.check(invariants.Cut(cleaned, rulings, {"r1": "1", "r2": "2"}, cleaned=cleaned))
    # the lost erratum is named; the links line and the heading are where a reader keeps them
    assert next(i for i in found if i["name"] == "text")["examples"] == [lost[:60]]


def test_an_example_running_on_over_the_rules_after_it_is_long():
    ruling = _Ruling("r1", "Tokens", "2.4", "", "Reveal a card to all players.", "rule", 1)
    ruling.examples = [SimpleNamespace(label="example-1",
                                       text=" ".join(["Darrin wins the story and redistributes tokens."] * 200))]
    found = invariants.check(invariants.Cut("", [ruling], {"r1": "2.4"}))
    assert next(i for i in found if i["name"] == "long")["examples"] == ["2.4 example-1"]


def test_words_joined_or_split_against_the_documents_text_are_named():
    original = "strike out the card. Strike first. The card is out of play. Play out-of-bounds."
    rulings = [_Ruling("r1", "Rules", "1", "", "Strikeout the card. Play out-of- bounds.", "rule", 1)]
    found = invariants.check(invariants.Cut(original, rulings, {"r1": "1"}))
    assert set(next(i for i in found if i["name"] == "words")["examples"]) == {
        "joined 'Strikeout'", "split 'of- bounds'"}


def test_a_possessives_letter_joined_to_the_next_word_is_named():
    # "player's team" read as "player'steam": the document never writes "steam".
    original = "Each player's team shares a life total. The team acts together. A team wins or loses."
    rulings = [_Ruling("r1", "Rules", "1", "", "Each player'steam shares a life total.", "rule", 1)]
    found = invariants.check(invariants.Cut(original, rulings, {"r1": "1"}))
    assert next(i for i in found if i["name"] == "words")["examples"] == ["joined 'steam'"]


def test_a_word_the_document_breaks_at_a_line_end_hyphen_is_one_it_writes():
    # A scan that ran "air bombardment" together once, at a line's end: the cut joining the line is no join of its own.
    original = "damaged by airbombard- \nment (see Case 39.3). Air bombardment pins units. Air strikes end a bombardment."
    rulings = [_Ruling("r1", "Rules", "1", "", "Ships may be damaged by airbombardment.", "rule", 1)]
    found = invariants.check(invariants.Cut(original, rulings, {"r1": "1"}))
    assert not next(i for i in found if i["name"] == "words")["count"]


def test_a_word_a_line_end_broke_at_a_hyphen_is_one_word_again_hyphen_kept_where_the_document_writes_it():
    text = "is printed on non-\nicebreaker programs\nand a non-icebreaker\nan excur-\nsion of the\nout-of-\nbounds.\n"
    vocab = clean.vocabulary(text + " excursion")
    assert clean.rejoin_broken_words(MappedText.of(text), vocab).text == (
        "is printed on non-icebreaker programs\nand a non-icebreaker\nan excursion of the\nout-of-bounds.\n")


def test_an_item_numbered_ii_after_a_hyphenated_line_end_stays_an_item():
    text = "the cross-\nii. next item\n"
    assert clean.rejoin_broken_words(MappedText.of(text), Counter()).text == text


def test_a_title_that_is_the_files_name_or_names_another_game_is_named():
    def title(title: str, file_name: str, original: str = "", game_name: str = "") -> int:
        found = invariants.check(invariants.Cut(original, [], {}, title, file_name, game_name))
        return next(i for i in found if i["name"] == "title")["count"]
    assert title("keyforge rulebook", "keyforge-rulebook.pdf") == 1
    assert title("FAQ", "faq.md") == 1
    assert title("Uprising Release Notes", "notes.pdf", game_name="Netrunner") == 1
    assert title("Skirmish Rules", "skirmish-rules.md", original="Skirmish Rules\nA game.") == 0
    assert title("Netrunner Uprising Release Notes", "notes.pdf", game_name="Netrunner") == 0
    # The game's name joined to a title the document prints is no file name, though the file is named so too.
    assert title("Netrunner – Uprising Release Notes", "netrunner-uprising-release-notes.pdf",
                 original="Uprising Release Notes\nThese notes…", game_name="Netrunner") == 0


def test_a_question_the_document_asks_typed_as_a_paragraph_is_named():
    rulings = [_Ruling("q", "FAQ", "1", "", "Can a unit move twice? No, once per round.", "paragraph", 1),
               _Ruling("r", "FAQ", "2", "", "Units move once.", "paragraph", 2)]
    found = invariants.check(invariants.Cut("", rulings, {"q": "FAQ 1", "r": "FAQ 2"}))
    assert next(i for i in found if i["name"] == "questions")["examples"] == ["FAQ 1"]


def test_a_question_put_to_the_reader_among_prose_is_not_named():
    rulings = [_Ruling(f"p{n}", "Abilities", str(n), "", f"Rule {n} says how abilities resolve.", "paragraph", n)
               for n in range(1, 4)]
    rulings.append(_Ruling("q", "Abilities", "4", "", "When you play it, what happens? The first sentence keeps it.",
                           "paragraph", 4))
    found = invariants.check(invariants.Cut("", rulings, {r.id: f"A {r.label}" for r in rulings}))
    assert next(i for i in found if i["name"] == "questions")["count"] == 0


def test_a_question_of_its_own_run_on_into_another_unit_is_named_but_a_list_of_questions_is_not(tmp_path):
    # An FAQ in plain text whose answer opens with a number ("3. Shields…"): the cut reads it as item 3, which runs
    # on over the questions after it (plain text indents no item's paragraphs, so none leaves the list). A list of
    # questions a lead-in introduces ("such as:") asks nothing to be answered.
    faq = ("Skirmish FAQ\n\nCharacters\n\nHow much armour does a knight have?\n\n3. Shields cannot raise it "
           "above its start.\n\nCan a knight with wings charge from above?\n\nYes, although it must disengage.\n\n"
           "Do ghosts ignore water?\n\nYes.\n")
    broken = _broken(tmp_path, "skirmish-faq.txt", faq, "skirmish")
    assert broken["questions"]["examples"] == ["3: 'Can a knight with wings charge from above?'"]
    rules = ("# Skirmish Rules\n\n## Setting the Scene\n\nTalk before a fight about its circumstances, such as:\n\n"
             "  * Who is in the fight?\n  * Where is it?\n\nResolve just enough to make it clear.\n")
    assert "questions" not in _broken(tmp_path, "skirmish-rules.md", rules, "skirmish")


def test_two_tables_of_one_name_in_one_ruling_get_two_ids(tmp_path):
    table = "| Roll | Result |\n|---|---|\n| 1 | Miss |\n| 2 | Hit |\n"
    text = f"# Combat\n\nRoll on the table.\n\n{table}\nThen roll again.\n\n{table}"
    _, parsed = _read(tmp_path, "combat.md", text)
    ids = [t.id for t in parsed.tables]
    assert len(ids) == 2 and len(set(ids)) == 2


@pytest.mark.slow  # fifteen real documents, PDFs among them: most of a minute
@pytest.mark.skipif(not COLLECTED.is_dir(), reason="documents/ is missing")
def test_every_collected_document_reads_and_its_audit_names_each_invariant():
    # The documents collected for issue 42 (documents/PROVENANCE-*.md): each reads as `rulings add` reads it,
    # with unique table ids (one crashed the add before), and its audit reports all ten invariants by name.
    from ingest.report import ingest_report
    collected = [d for d in every_document() if d.file.parent == COLLECTED]
    assert len(collected) >= 12
    for document in collected:
        entry, parsed = read_document(document.file, document.game)
        assert len({t.id for t in parsed.tables}) == len(parsed.tables), document.name
        found = ingest_report(entry, parsed)["audit"]
        assert [i["name"] for i in found["invariants"]] == list(invariants.NAMES), document.name
        assert (found["verdict"] == "good") == (not found["problems"]), document.name


class _Ruling:
    """A ruling as the invariants read it: what a cut made, without the rest of a stored ruling."""

    def __init__(self, id_, section, label, title, text, kind, position, parent=None):
        self.id, self.section, self.label, self.title, self.text = id_, section, label, title, text
        self.kind, self.position, self.parent = kind, position, parent


def test_a_contents_set_as_a_table_kept_as_a_ruling_is_named():
    rulings = [_Ruling("c1", "Rules > Table of Contents", "", "", "| Preface | 2 |\n| 1. Introduction | 2 |",
                       "paragraph", 1),
               _Ruling("r1", "Rules > 1. Introduction", "1.1", "", "Each team has seven players.", "rule", 2),
               _Ruling("t1", "Rules > 1. Introduction", "", "", "| Players | 7 |\n| Substitutes | 3 |", "paragraph", 3)]
    found = invariants.check(invariants.Cut("", rulings, {r.id: r.label or r.id for r in rulings}))
    assert next(i for i in found if i["name"] == "contents")["examples"] == ["c1: '| 1. Introduction | 2 |'"]
