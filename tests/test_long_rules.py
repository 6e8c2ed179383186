"""A question answered by one sentence inside a long rule finds that rule, among siblings about the same step."""
from kb.search import ask
from kb.store import connect

FILLER = ("The defending player looks at each attacking creature in turn and considers which of their own "
          "creatures could stand in its way, how much damage each would take and deal, and which abilities "
          "would trigger when it blocks or becomes blocked. ")
RULEBOOK = f"""Skirmish Comprehensive Rules

5. Combat

509. Declare Blockers Step

509.1. First, the defending player declares blockers. This turn-based action doesn't use the stack. To declare blockers, the defending player follows the steps below, in order.
509.1a The defending player chooses which creatures they control, if any, will block. {FILLER}The chosen creatures must be untapped. {FILLER}{FILLER}For each of the chosen creatures, the defending player chooses one creature for it to block that's attacking that player or a planeswalker they control.
509.1b The defending player checks each creature they control to see whether it's affected by any restrictions, such as an ability saying a creature can't block alone. {FILLER}
509.1c The defending player checks each creature they control to see whether it's affected by any requirements, such as an ability saying a creature blocks each combat if able. {FILLER}
509.2. Second, for each attacking creature that's become blocked, the active player announces that creature's damage assignment order. {FILLER}

510. Combat Damage Step

510.1. Each attacking creature and each blocking creature assigns combat damage equal to its power. {FILLER}
510.2. Second, all combat damage that's been assigned is dealt simultaneously. {FILLER}
"""


def test_a_sentence_inside_a_long_rule_is_found(seeds_plus):
    db = seeds_plus("skirmish", RULEBOOK)
    conn = connect(db)
    rule = conn.execute("select id, length(text) from rulings where game = 'skirmish' and label like '509.1a%'").fetchone()
    assert rule and rule[1] > 900, "the rule is long: the sentence is a small part of it"
    answer = ask(conn, "Do the creatures I block with have to be untapped?", game="skirmish")
    assert answer["results"][0]["id"] == rule[0]
