"""Long units cut at their parts (ingest.parts, issue 42): a unit over 300 words that the document sets as several
paragraphs is cut at its run-in sub-headings, then between its paragraphs and items; a table, a question with its
answer, a lead-in with its list and one long paragraph stay whole. Read as `rulings add` reads a document."""
from __future__ import annotations

from pathlib import Path

from ingest import invariants
from ingest.changeset import read_document
from ingest.classify import run_in_heading
from ingest.parts import LONG_WORDS
from ingest.refs import ruling_refs

POINT = "a player who {0} must first check every card in play for an ability that changes how {0} resolves"


def _read(tmp_path: Path, text: str, name: str = "skirmish.md"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    _, parsed = read_document(path, "skirmish")
    return parsed.rulings


def _units(rulings) -> list:
    return [r for r in rulings if r.kind not in ("title", "front-matter")]


TERMS = {"Blocking": "A unit that blocks stops one attacker until the end of the round.",
         "Charging": "A charging unit moves up to twice its speed toward an enemy.",
         "Drawing": "Players draw cards from the top of their own deck.",
         "Exhausting": "An exhausted card is turned sideways and cannot be used again this round.",
         "Moving": "A unit moves a number of spaces up to its speed.",
         "Scoring": "Players score victory points at the end of each round.",
         "Tapping": "Tapping a card means turning it sideways to use it.",
         "Winning": "The first player with ten victory points wins."}


def _glossary(entry_body: str) -> str:
    others = "\n\n".join(f"### {term}\n\n{definition}" for term, definition in TERMS.items())
    rules = "\n\n".join(f"### {n}. {term}\n\n{definition} {POINT.format(term.lower()).capitalize()}. "
                        f"{POINT.format('it').capitalize()} again." for n, (term, definition) in enumerate(TERMS.items(), 1))
    return (f"# Skirmish Rules Reference\n\n## Rules\n\n{rules}\n\n## Glossary\n\n### Ability\n\n{entry_body}\n\n"
            f"{others}\n")


def _bullets(verbs) -> str:
    return "\n".join(f"- {POINT.format(verb)}." for verb in verbs)


VERBS = ("attacks", "defends", "draws", "scores", "passes", "moves", "blocks", "charges")


def test_a_long_entry_is_cut_at_its_run_in_sub_headings_each_part_titled_by_its_own(tmp_path):
    body = (f"An ability is the text of a card.\n\n{_bullets(VERBS[:4])}\n\n"
            f"Constant Abilities — A constant ability is always active.\n{_bullets(VERBS)}\n\n"
            f"Triggered Abilities — A triggered ability resolves when its trigger happens. {_bullets(VERBS)}"
            f"\n\nTiming — Forced abilities resolve first, then the others.")
    assert len(body.split()) > LONG_WORDS
    rulings = _units(_read(tmp_path, _glossary(body)))
    entry = next(r for r in rulings if r.title == "Ability")
    parts = [r for r in rulings if r.parent == entry.id]
    assert [p.title for p in parts] == ["Constant Abilities", "Triggered Abilities", "Timing"]
    assert entry.text.startswith("An ability is the text of a card.") and "Constant Abilities" not in entry.text
    assert parts[0].text.startswith("Constant Abilities — A constant ability") and "Triggered" not in parts[0].text
    assert all(len(r.text.split()) <= LONG_WORDS for r in [entry, *parts])
    # Every word of the entry is in exactly one of its parts, in order.
    assert " ".join(" ".join(r.text.split("\n")) for r in [entry, *parts]).split() == \
        " ".join(body.replace("\n", " ").split()).split()
    refs = ruling_refs(list(rulings), "SR")
    assert [refs[p.id] for p in parts] == ["SR Ability 1", "SR Ability 2", "SR Ability 3"]


def test_a_long_list_is_cut_between_items_in_parts_of_about_equal_length_never_after_a_lead_in(tmp_path):
    verbs = [f"{verb} {n}" for n in range(3) for verb in VERBS]
    body = ("An ability is the text of a card. These rules hold for every ability:\n\n" + _bullets(verbs))
    rulings = _units(_read(tmp_path, _glossary(body)))
    entry = next(r for r in rulings if r.title == "Ability")
    parts = [entry, *(r for r in rulings if r.parent == entry.id)]
    sizes = [len(r.text.split()) for r in parts]
    assert len(parts) == 2 and max(sizes) <= LONG_WORDS and min(sizes) >= max(sizes) / 2, sizes
    assert entry.text.split("\n")[1].startswith("- a player who attacks 0"), "the lead-in keeps its list"
    assert parts[1].title == "Ability (continued)" and parts[1].text.startswith("- a player who")


def test_a_table_a_question_with_its_answer_and_one_long_paragraph_stay_whole(tmp_path):
    rows = "\n".join(f"| {verb} | {POINT.format(verb)} |" for verb in VERBS * 2)
    table = f"Each action, as the table sets it out.\n\n| Action | What happens |\n|---|---|\n{rows}\n"
    question = (f"Can a player who {POINT.format('passes')} still score?\n\n"
                f"Yes. {' '.join(POINT.format(verb).capitalize() + '.' for verb in VERBS)}")
    paragraph = " ".join(POINT.format(verb).capitalize() + "." for verb in VERBS * 2)
    text = (f"# Skirmish Rules\n\n## Actions\n\n{table}\n## Questions\n\n{question}\n\n"
            f"## Turns\n\n{paragraph}\n")
    rulings = _units(_read(tmp_path, text))
    table_unit = next(r for r in rulings if "| Action |" in r.text)
    assert all(f"| {verb} |" in table_unit.text for verb in VERBS), "the table is one unit"
    assert next(r for r in rulings if r.text.startswith("Can a player")).text.endswith("charges resolves.")
    assert any(len(r.text.split()) > LONG_WORDS and "\n" not in r.text for r in rulings), "one paragraph stays"


def test_kramdown_attribute_lists_are_no_text_and_end_their_paragraph(tmp_path):
    questions = "\n\n".join(f"Can a unit {verb} twice in one round?\n{{: .entry-title}}\n\n"
                              f"No, once per round.\n{{: .entry-note}}" for verb in VERBS)
    rulings = _units(_read(tmp_path, f"# Skirmish FAQ\n\n## Rounds\n\n{questions}\n"))
    assert not any("{:" in r.text for r in rulings)
    assert [r.kind for r in rulings] == ["question"] * len(VERBS)
    assert rulings[0].text == "Can a unit attacks twice in one round? No, once per round."


def test_run_in_sub_headings_are_told_from_sentences_and_lead_ins():
    assert run_in_heading("Constant Abilities — A constant ability is always active.") == "Constant Abilities"
    assert run_in_heading("**Attacking.** When you attack, roll two dice.") == "Attacking"
    assert run_in_heading("Move X Spaces: If an ability moves a figure, it ignores terrain.") == "Move X Spaces"
    assert run_in_heading("Line of Sight. Figures see along straight lines.") == "Line of Sight"
    # a word in parentheses: "Round (or Combat Turn) —" and "Strength (STR):" glued into the part before them
    assert run_in_heading("Round (or Combat Turn) — A round is six seconds.") == "Round (or Combat Turn)"
    assert run_in_heading("Strength (STR): Physicality, brawn and endurance.") == "Strength (STR)"
    for sentence in ("A figure cannot target an empty space.", "Note: this applies to allies too.",
                     "Players alternate turns. The first player is chosen at random.",
                     "Example: Ada attacks Bo.", "If the roll fails: discard the card."):
        assert run_in_heading(sentence) == "", sentence


def test_a_lead_in_and_the_list_it_opens_stay_in_one_part_where_they_fit_in_one(tmp_path):
    # Floor rules: "3.D" over two long paragraphs, then "…the following procedure, moving to each subsequent
    # step:" over five tiebreak steps: the steps were cut after the first, 2 to 5 a "continued" part of their own.
    prose = " ".join(POINT.format(verb).capitalize() + "." for verb in VERBS[:5])
    steps = "\n".join(f"{n}. The player with the most {thing} {POINT.format('wins')}." for n, thing in
                      enumerate(("control", "influence", "bullets", "cards", "pull"), 1))
    text = (f"# Floor Rules\n\n## 3.D End-of-Match Procedure\n\n{prose}\n\n{prose}\n\n"
            f"The winner is found by the following steps, in order:\n\n{steps}\n\n{prose}\n")
    rulings = _units(_read(tmp_path, text))
    holding = [r for r in rulings if "most control" in r.text or "most pull" in r.text]
    assert len(holding) == 1 and all(f"most {thing}" in holding[0].text for thing in ("influence", "bullets"))
    assert "following steps, in order:" in holding[0].text
    assert all(len(r.text.split()) <= LONG_WORDS for r in rulings)


def test_a_long_front_matter_of_many_paragraphs_is_cut_into_front_matter_parts(tmp_path):
    # A comprehensive rulebook's summary of changes before its first heading: 423 words of bullets in one unit.
    bullets = "\n".join(f"- {POINT.format(verb).capitalize()}." for verb in VERBS * 2)
    rulings = _read(tmp_path, f"Changes from the last version are highlighted.\n\n{bullets}\n\n# Rules\n\n## Play\n\nPlay.\n")
    front = [r for r in rulings if r.kind == "front-matter"]
    assert len(front) >= 2 and all(len(r.text.split()) <= LONG_WORDS for r in front)
    refs = list(ruling_refs(front, "SK").values())
    assert len(set(refs)) == len(refs) and not any("#" in ref for ref in refs)


def test_a_short_list_of_errata_each_naming_its_card_is_cut_at_the_names(tmp_path):
    # An FAQ's balance changes: "- **Lantern**: reduced to 2 Ducats." … one unit of four cards' errata, the
    # card a judge looks for its title nowhere.
    errata = ("- **Lantern**: reduced to 2 Ducats. Also removes Hidden counters.\n- **Gondola**: reduced to 4 Ducats.\n"
              "- **Intercepted Documents**: reduced to 4 Ducats.\n- **Poison**: gives the Poisoned ability for one attack.")
    rulings = _units(_read(tmp_path, f"# Skirmish FAQ\n\n## Balance Changes\n\n### Equipment\n\n{errata}\n"))
    assert [r.title for r in rulings][1:] == ["Gondola", "Intercepted Documents", "Poison"]
    assert rulings[0].text.startswith("- Lantern: reduced to 2 Ducats.") and "Gondola" not in rulings[0].text
    assert rulings[2].text.startswith("- Intercepted Documents: reduced to 4 Ducats.")


def test_a_list_of_values_stays_one_unit(tmp_path):
    # A talent's profile: "- Type: basic" / "- Path: rogue" / "- Sourcebook: Grimwild", no parts.
    rulings = _units(_read(tmp_path, "# Skirmish Rules\n\n## Aegis\n\n- Type: basic\n- Path: rogue\n- Sourcebook: Grimwild\n"))
    assert len(rulings) == 1 and all(word in rulings[0].text for word in ("basic", "rogue", "Grimwild"))


def test_a_field_each_part_names_again_is_no_parts_heading(tmp_path):
    # Six stances, each a bold name over its bullets and a "Trigger:" line: cut at each "Trigger", six parts titled
    # "Trigger", each the end of one stance and the name of the next.
    stances = "\n".join(f"- **{name}**\n    - You gain a benefit while in the {name.lower()} stance.\n"
                        f"    - Trigger: When you deal {n}+ damage in a single attack." for n, name in
                        enumerate(("Defensive", "Aggressive", "Focused", "Quick"), 2))
    rulings = _units(_read(tmp_path, f"# Skirmish\n\n## Stance\n\nStances give a benefit.\n\n{stances}\n"))
    assert not any(r.title.startswith("Trigger") for r in rulings)
