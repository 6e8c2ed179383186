"""Which rule of one edition is which rule of the next (ingest.editions.match and lineage), on small editions
written here: a rule is known by what it says wherever it is numbered, a number holding another rule is a
rule removed and one added, a rule edited in its section is one rule, and ids follow the rule for life."""
from ingest.editions import lineage, match


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
