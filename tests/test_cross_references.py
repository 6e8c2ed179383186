"""Cross-references as a judge follows them: "see X" resolves to the ruling X names, however the reference
words its place ("on page 9", "Step 3 of …"); a "Related Topics:" line is links of its unit, never a ruling;
a glossary entry that only says "See X" sends the reader there and answers nothing itself; a gap only for a
reference whose target is truly absent; and a rule number counts as restated only where the document prints
it again, never where two lists both number their steps 1, 2, 3."""
from __future__ import annotations

from ingest.links import cross_reference_line, only_reference
from ingest.manifest import source_entry
from ingest.pipeline import parse_source
from ingest.refs import ruling_refs


def entry(term: str) -> str:
    return f"### {term}\n\nWhat {term.lower()} does.\n\n"


# A markdown rules reference: its glossary entries are "###" headings in alphabetical order after "## Timing".
REFERENCE = ("# Skirmish Reference\n\n## Glossary\n\nEvery rule in alphabetical order.\n\n"
             "## Timing\n\nResolve mission rules first.\n\n"
             + entry("Abilities") + entry("Accuracy")
             + "### Attacks\n\nFigures attack hostile figures.\n\n"
             "#### Steps of an Attack\n\nResolve these steps:\n\n"
             "1. **Declare Target:** Choose a target.\n2. **Rerolls:** Reroll dice now.\n"
             "3. **Deal Damage:** The target suffers damage (see \"Damage\" on page 9).\n\n"
             "Related Topics: Blast, Damage, Health\n\n"
             "### Bleed\n\nSee \"Damage\" on page 9.\n\n"
             + entry("Blast")
             + "### Campaign Setup\n\nBefore a campaign, perform these steps.\n\n"
             "1. **Choose Roles:** Pick the Imperial player.\n2. **Choose Heroes:** Each Rebel picks a hero.\n\n"
             "Related Topics: Attacks\n\n"
             + "".join(entry(term) for term in ("Cleave", "Damage", "Exhaust", "Focus", "Health"))
             + "### Reroll\n\nSee Step 2 of \"Attacks\" on page 5.\n\n"
             "### Zone\n\nSee \"Zone of Control\" on page 30.\n")


def parse(tmp_path, text, name="reference.md"):
    (tmp_path / name).write_text(text, encoding="utf-8")
    entry = source_entry({"id": "ref", "file": name, "game": "sk", "title": "Ref", "kind": "rulebook",
                          "language": "en", "shape": "auto", "section": ""})
    return parse_source(entry, tmp_path)


def test_a_see_reference_resolves_to_the_name_it_quotes_whatever_place_it_gives(tmp_path):
    source = parse(tmp_path, REFERENCE)
    by_id = {r.id: r for r in source.rulings}
    see = {(by_id[x.from_id].title, x.target): by_id[x.to_id].title if x.to_id else None
           for x in source.xrefs if x.kind == "see"}
    assert see[("Deal Damage", "Damage")] == "Damage"
    assert see[("Bleed", "Damage")] == "Damage"
    assert see[("Reroll", "Step 2 of Attacks")] == "Rerolls"  # the step, inside the entry's sub-heading
    # The quoted name is what links in the text, not the place the reference gives.
    (deal,) = [x for x in source.xrefs if x.kind == "see" and by_id[x.from_id].title == "Deal Damage"]
    assert by_id[deal.from_id].text[deal.start:deal.end] == "Damage"


def test_a_gap_only_for_a_reference_whose_target_is_absent(tmp_path):
    gaps = [g.description for g in parse(tmp_path, REFERENCE).gaps]
    assert len(gaps) == 1 and "“Zone of Control”" in gaps[0]


def test_a_related_topics_line_is_links_of_its_entry_and_never_a_ruling(tmp_path):
    source = parse(tmp_path, REFERENCE)
    by_id = {r.id: r for r in source.rulings}
    assert not [r.id for r in source.rulings if "Related Topics" in r.text]
    related = [(by_id[x.from_id].title, x.text, by_id[x.to_id].title) for x in source.xrefs if x.kind == "related"]
    assert related == [("Attacks", "Related Topics: Blast", "Blast"), ("Attacks", "Related Topics: Damage", "Damage"),
                       ("Attacks", "Related Topics: Health", "Health"),
                       ("Campaign Setup", "Related Topics: Attacks", "Attacks")]
    assert {x.start for x in source.xrefs if x.kind == "related"} == {None}  # no place in the unit's text


def test_an_entry_that_only_sends_the_reader_elsewhere_is_a_redirect(tmp_path):
    kinds = {r.title: r.kind for r in parse(tmp_path, REFERENCE).rulings}
    assert (kinds["Bleed"], kinds["Reroll"], kinds["Zone"]) == ("redirect", "redirect", "redirect")
    assert kinds["Damage"] == "glossary"
    assert only_reference('See "Conditions" on page 9.') and only_reference("See Step 3 of “Attacks”.")
    assert not only_reference('See "Conditions" on page 9. A bleeding figure suffers 1 damage.')


def test_numbered_steps_of_two_lists_are_no_restatement_and_read_after_their_entry(tmp_path):
    source = parse(tmp_path, REFERENCE)
    assert "restated" not in {r.kind for r in source.rulings}
    refs = {(r.title, ref) for r in source.rulings for ref in [ruling_refs(source.rulings, "SK")[r.id]]}
    assert {("Attacks", "SK Attacks"), ("Steps of an Attack", "SK Attacks 1"), ("Rerolls", "SK Attacks 1.2"),
            ("Choose Heroes", "SK Campaign Setup 2"), ("Bleed", "SK Bleed")} <= refs


def test_a_rule_number_the_document_prints_again_is_restated(tmp_path):
    text = ("# Rules\n\n## Turns\n\n4.3.1 Draw a card.\n\n4.3.2 Play a card.\n\n"
            "## Update Notes\n\n4.3.2 Play a card, then draw.\n")
    kinds = [(r.label, r.kind) for r in parse(tmp_path, text).rulings]
    assert kinds == [("4.3.1", "rule"), ("4.3.2", "rule"), ("4.3.2", "restated")]


def test_a_cross_reference_line_lists_names_not_sentences():
    lead, names = cross_reference_line("Related Topics: Attacks, Line of Sight; Miss")
    assert lead == "Related Topics" and [name for name, _, _ in names] == ["Attacks", "Line of Sight", "Miss"]
    line = "See also: Morale"
    assert [line[s:e] for _, s, e in cross_reference_line(line)[1]] == ["Morale"]
    assert cross_reference_line("Related rules: the attacker rolls first. Then the defender rolls.") is None
    assert cross_reference_line("Related topics are listed after each entry.") is None


def test_a_name_is_linked_whole_longest_first_with_its_small_words_in_any_case():
    from types import SimpleNamespace

    from ingest.links import name_references
    targets = {"Lord of Atlantis": "lord", "Lord": "lord-word", "Dragon": "dragon", "Anti": "anti"}
    texts = {"a": "Your Lord OF  Atlantis pumps merfolk.", "b": "The Dragon's breath, not an Anti-Dragon ward.",
             "c": "A Lordly gift; Dragon."}
    rulings = [SimpleNamespace(id=i, title="", text=t, kind="rule") for i, t in texts.items()]
    found = {(r.from_id, r.text, r.to_id) for r in name_references(rulings, targets, {})}
    assert found == {("a", "Lord OF  Atlantis", "lord"), ("b", "Dragon", "dragon")}
