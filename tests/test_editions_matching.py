"""Which rule of one edition is which rule of the next (ingest.editions.match and lineage), on small editions
written here: a rule is known by what it says wherever it is numbered, a number holding another rule is a
rule removed and one added, a rule edited in its section is one rule, and ids follow the rule for life; a diff
(model.editions.compare) shows a rule rewritten about the same subject in its section as changed."""
from ingest.editions import lineage, match
from model.editions import compare


def edition(*rules: tuple[str, str, str, str]) -> list[dict]:
    """History rows of an edition: (id, number, section, text) each."""
    return [{"ruling_id": rid, "label": label, "section": section, "kind": "rule", "title": "", "text": text}
            for rid, label, section, text in rules]


BODYGUARD = "The Bodyguard keyword represents two abilities."
CHALLENGER = "The Challenger keyword represents a static ability that functions while a character is challenging."
ALERT = "The Alert keyword represents a static ability that ignores the challenging restriction of Evasive."
FIRST = edition(("g/kw/1.1-bodyguard/1.1.1", "1.1.1", "Keywords > 1.1 Bodyguard", BODYGUARD),
                ("g/kw/1.2-challenger/1.2.1", "1.2.1", "Keywords > 1.2 Challenger", CHALLENGER),
                ("g/kw/1.2-challenger/1.2.2", "1.2.2", "Keywords > 1.2 Challenger",
                 "Seventh, effects that would trigger are added to the bag."))
# Alert inserted first: each keyword one number down; a sentence added to a rule; ids as number matching gave.
SECOND = edition(("g/kw/1.1-bodyguard/1.1.1", "1.1.1", "Keywords > 1.1 Alert", ALERT),
                 ("g/kw/1.2-challenger/1.2.1", "1.2.1", "Keywords > 1.2 Bodyguard", BODYGUARD),
                 ("g/kw/1.3-challenger/1.3.1", "1.3.1", "Keywords > 1.3 Challenger", CHALLENGER),
                 ("g/kw/1.3-challenger/1.3.2", "1.3.2", "Keywords > 1.3 Challenger",
                  "Seventh, effects that would trigger are added to the bag. This includes effects of abilities."))


def test_a_renumbered_rule_is_the_rule_that_says_the_same_and_its_old_number_holds_another_rule():
    found = match(SECOND, FIRST)
    assert found == {"g/kw/1.2-challenger/1.2.1": "g/kw/1.1-bodyguard/1.1.1",
                     "g/kw/1.3-challenger/1.3.1": "g/kw/1.2-challenger/1.2.1",
                     "g/kw/1.3-challenger/1.3.2": "g/kw/1.2-challenger/1.2.2"}


def test_a_number_holding_a_different_rule_is_never_matched_by_its_number():
    renamed = edition(("a", "1.1.1", "Keywords > 1.1 Alert", ALERT))
    assert match(renamed, edition(("b", "1.1.1", "Keywords > 1.1 Bodyguard", BODYGUARD))) == {}


def test_a_rule_reworded_at_its_number_is_one_rule_changed():
    before = edition(("a", "2.1", "Deck", "The deck can contain cards of up to two ink types."))
    after = edition(("a2", "2.1", "Deck", "The deck can’t contain more than two ink types."))
    assert match(after, before) == {"a2": "a"}


def test_ids_follow_the_rule_and_a_rule_new_at_a_taken_id_gets_one_of_its_own_section():
    first, second = lineage([FIRST, SECOND])
    assert first == {row["ruling_id"]: row["ruling_id"] for row in FIRST}
    assert second == {"g/kw/1.2-challenger/1.2.1": "g/kw/1.1-bodyguard/1.1.1",
                      "g/kw/1.3-challenger/1.3.1": "g/kw/1.2-challenger/1.2.1",
                      "g/kw/1.3-challenger/1.3.2": "g/kw/1.2-challenger/1.2.2",
                      "g/kw/1.1-bodyguard/1.1.1": "g/keywords/1.1-alert/1.1.1"}


def rows(*rules: tuple[str, str, str, str]) -> dict[str, dict]:
    """An edition as `compare` takes it: ruling id -> history row (ref "G <number>")."""
    return {row["ruling_id"]: {**row, "ref": f"G {row['label']}"} for row in edition(*rules)}


READY = "Ready – Cards enter play ready. A player can’t use any of an exerted card’s abilities that include {E}."
REWRITTEN = ("Ready – When a card is readied, it’s turned upright and is known as a ready card. Characters and items "
             "enter play ready.")
EXERTED = "Exerted – A card that is turned sideways is exerted."


def test_a_rule_rewritten_in_its_section_about_the_same_subject_is_changed_not_removed_and_added():
    before = rows(("g/cards/5.1-conditions/5.1.1", "5.1.1", "Cards > 5.1 Conditions", READY),
                  ("g/cards/5.1-conditions/5.1.2", "5.1.2", "Cards > 5.1 Conditions", EXERTED))
    after = rows(("g/conditions/5.1-general/5.1.1", "5.1.1", "Conditions > 5.1 General", REWRITTEN),
                 ("g/cards/5.1-conditions/5.1.2", "5.1.2", "Conditions > 5.1 General", EXERTED))
    assert match(list(after.values()), list(before.values())) == {
        "g/cards/5.1-conditions/5.1.2": "g/cards/5.1-conditions/5.1.2"}  # too rewritten to be one rule by its words
    found = compare(before, after)
    assert found["added"] == found["removed"] == found["moved"] == []
    [changed] = found["changed"]
    assert (changed["from_id"], changed["id"], changed["ref"]) == ("g/cards/5.1-conditions/5.1.1",
                                                                   "g/conditions/5.1-general/5.1.1", "G 5.1.1")
    assert changed["diff"][0] == {"op": "same", "text": "Ready –"} and changed["before"] == READY


def test_a_number_holding_a_rule_about_another_subject_is_still_one_removed_and_one_added():
    found = compare(rows(("b", "1.1.1", "Keywords > 1.1 Bodyguard", BODYGUARD)),
                    rows(("a", "1.1.1", "Keywords > 1.1 Alert", ALERT)))
    assert [row["ruling_id"] for row in found["added"] + found["removed"]] == ["a", "b"]
    assert found["changed"] == found["moved"] == []
