"""Glossary terms lead to the rules that define them: the rules a glossary entry cites, and the rules under
a heading that is the term itself."""

import json
from pathlib import Path

import pytest

from kb.fusion import GLOSSARY_BOOST, prefer_rulings
from kb.lexicon import glossary_terms, load_lexicon, spaced_words
from kb.query import glossary_rulings
from kb.search import ask
from kb.store import connect
from model.refs import MAX_REF

# "Fading" is defined only by a citation: rule 3.1 never uses the word. (A document needs ten numbered rules
# before "See 3.1" is read as a rule number rather than a quantity.)
RULEBOOK = """Quill Comprehensive Rules

1. Concepts

1.1 Scribing
1.1.1 A player may inscribe one rune onto a tablet during their turn.
1.1.2 A rune is inscribed face up, so every player can read it.
1.1.3 A player who cannot inscribe a rune passes instead.
1.2 Smudge Check
1.2.1 After any action resolves, each tablet holding four or more runes loses its oldest rune.
1.2.2 Runes lost this way go to the bottom of the rune pile.

2. Tablets

2.1 Tablet-Owning
2.1.1 Each player starts the game with two empty tablets.
2.1.2 A player may never hold more than five tablets.
2.1.3 A tablet given away keeps its runes.

3. Time

3.1 Rune Decay
3.1.1 At the end of each round, every rune older than three rounds is wiped from its tablet.

9. Glossary

Fading
What happens to old runes at the end of a round. See 3.1.
Smudge check
The moment after each action when crowded tablets lose runes.
Tablet owning
Who holds which tablets; unlike Fading, it never removes runes.
"""
DECAY, SMUDGE = "quill/time/3.1-rune-decay/3.1.1", "quill/concepts/1.2-smudge-check/1.2.1"


@pytest.fixture(scope="module")
def quill_db(seeds_plus):
    return seeds_plus("quill", RULEBOOK)


def test_a_glossary_entry_leads_to_the_rules_it_cites_and_to_the_heading_named_like_it(quill_db):
    terms = glossary_terms(connect(quill_db))
    assert terms["fading"] == [DECAY]
    assert SMUDGE in terms["smudge check"]
    # "Tablet owning" names the heading "2.1 Tablet-Owning": both are read as the same words. Its definition
    # mentions Fading, which links there, but a mention is not a citation.
    assert connect(quill_db).execute("select count(*) from xrefs where from_id = 'quill/glossary/tablet-owning' "
                                     "and to_id = 'quill/glossary/fading'").fetchone()[0] == 1
    assert terms["tablet owning"] == [f"quill/tablets/2.1-tablet-owning/2.1.{n}" for n in (1, 2, 3)]


def test_a_question_using_a_glossary_term_reaches_the_rule_the_entry_cites(quill_db):
    conn = connect(quill_db)
    question = "When does fading happen to my runes?"
    assert glossary_rulings(question, load_lexicon(conn).terms, "quill") == {DECAY}
    ranked = [r["id"] for r in ask(conn, question, game="quill", k=3)["results"]]
    assert DECAY in ranked


def test_glossary_terms_are_matched_as_whole_words_of_the_chosen_game():
    terms = {"fading": ["quill/time/3.1.1"], "draw": ["other/draw/1"]}
    assert glossary_rulings("Is a faded rune gone?", terms, None) == set()
    assert glossary_rulings("When does FADING happen?", terms, "other") == set()
    assert glossary_rulings("Can I draw after fading?", terms, None) == {"quill/time/3.1.1", "other/draw/1"}


def test_preferred_rulings_gain_the_boost_and_missing_ones_enter_at_the_lowest_score():
    ranked = [("a", 3.0), ("b", 2.8), ("c", 1.0)]
    assert prefer_rulings(ranked, set()) == ranked
    boosted = dict(prefer_rulings(ranked, {"b", "z"}))
    assert boosted["b"] == pytest.approx(2.8 + GLOSSARY_BOOST)
    assert boosted["z"] == pytest.approx(1.0 + GLOSSARY_BOOST)
    assert [rid for rid, _ in prefer_rulings(ranked, {"b"})][:2] == ["b", "a"]


# A comprehensive rulebook laid out as the big card games' are: rules numbered in the hundreds (302.6, 702.19b)
# under chapters ("3. Card Types" over "302. Creatures"), then a bare "Glossary" line and its entries, each a
# term alone on its line over its definition, blank lines between, definitions citing rules ("See rule
# 702.19"), then the credits. Slang is named in quotes ("summoning sickness", "mana burn", "legend rule").
WYRM = """Wyrmcards Comprehensive Rules

1. Game Concepts

100. General

100.1. These rules apply to every game of Wyrmcards with two or more players.

100.2. Each player needs a deck of at least forty cards and a way to track life.

3. Card Types

302. Creatures

302.1. A player may cast a creature card from their hand during their own main phase while the stack is empty.

302.2. A creature enters the battlefield untapped unless an effect says otherwise.

302.6. A creature can't attack, and its abilities with the tap symbol in their costs can't be activated, unless
its controller has controlled it continuously since the start of their most recent turn. This rule is often
called the "summoning sickness" rule.

5. Turn Structure

500. General

500.1. A turn consists of five phases: beginning, first main, combat, second main and ending.

500.4. When a step or phase ends, unspent mana empties from each player's mana pool. Long ago a player lost
one life for each mana emptied this way; this was called "mana burn."

7. Additional Rules

702. Keyword Abilities

702.19. Trample

702.19a Trample is a static ability that changes how an attacking creature assigns its combat damage.

702.19b An attacking creature with trample assigns lethal damage to each creature blocking it, then may assign
the rest of its damage to the player it is attacking.

704. State-Based Actions

704.5. The state-based actions are these:

704.5a A player with 0 or less life loses the game.

704.5j If one player controls two or more legendary permanents with the same name, that player keeps one of
them and puts the others into their owners' graveyards. This is known as the "legend rule."

Glossary

Ability
1. Text on a card that says what the card does.
2. An activated or triggered ability waiting on the stack.
See rule 302.2.

Excess Damage
Damage an attacker assigns beyond what its blockers need. See rule 702.19, “Trample.”

Legendary
A supertype. Legendary permanents are bound by the legend rule. See rule 704.5j.

Mana Pool
Where a player's unspent mana waits until the step ends. See rule 500.4.

Summoning Sickness Rule
Informal name for the rule that a creature can't attack or tap for abilities on the turn it arrives. See rule
302.6.

Trample
A keyword ability that lets excess combat damage through to the player. See rule 702.19, “Trample.”

Credits

Game design: the Wyrmcards team, with thanks to every playtester who ever argued about blocking.
"""
WYRM_TRAMPLE = "wyrm/keyword-abilities/702.19-trample/702.19b"
WYRM_SICKNESS = "wyrm/creatures/302.6"
WYRM_MANA = "wyrm/general/500.4"
WYRM_LEGEND = "wyrm/state-based-actions/704.5j"


@pytest.fixture(scope="module")
def wyrm_db(seeds_plus):
    return seeds_plus("wyrm", WYRM)


def test_a_glossary_of_term_lines_is_one_glossary_ruling_per_term_linked_to_the_rules_it_cites(wyrm_db):
    conn = connect(wyrm_db)
    entries = conn.execute("select id, title, ref, text from rulings where game = 'wyrm' and kind = 'glossary' "
                           "order by position").fetchall()
    assert [title for _, title, _, _ in entries] == ["Ability", "Excess Damage", "Legendary", "Mana Pool",
                                                     "Summoning Sickness Rule", "Trample"]
    refs = [ref for _, _, ref, _ in entries]
    assert refs[1] == "Wyrm Excess Damage" and all(len(ref) <= MAX_REF for ref in refs)
    assert entries[0][3].startswith("1. Text on a card") and "2. An activated" in entries[0][3]
    cited = dict(conn.execute("select r.title, group_concat(x.to_id) from xrefs x join rulings r on r.id = x.from_id "
                              "where r.game = 'wyrm' and r.kind = 'glossary' and x.kind = 'number' group by r.id"))
    assert cited["Summoning Sickness Rule"] == WYRM_SICKNESS
    assert cited["Excess Damage"] == "wyrm/keyword-abilities/702.19-trample/702.19a"
    # The credits after the glossary are neither a term nor inside the glossary.
    assert not conn.execute("select 1 from rulings where game = 'wyrm' and (title = 'Credits' or "
                            "(text like '%playtester%' and section like '%Glossary%'))").fetchall()
    # A chapter numbered by its hundreds ("3. Card Types" over "302. Creatures") is a heading, not a rule.
    assert not conn.execute("select 1 from rulings where game = 'wyrm' and text like 'Card Types%'").fetchall()


def test_a_glossary_term_leads_to_every_rule_numbered_under_the_rule_it_cites(wyrm_db):
    terms = load_lexicon(connect(wyrm_db)).terms
    assert WYRM_TRAMPLE in terms["excess damage"]
    assert terms["summoning sickness"] == [WYRM_SICKNESS]  # "Summoning Sickness Rule" said without "rule"


def test_a_name_the_rulebook_gives_in_quotes_leads_to_the_rule_that_gives_it(wyrm_db):
    terms = load_lexicon(connect(wyrm_db)).terms
    assert terms["mana burn"] == [WYRM_MANA]
    assert terms["legend rule"] == [WYRM_LEGEND]
    assert WYRM_SICKNESS in terms["summoning sickness rule"]


@pytest.mark.parametrize("question, rule", [
    ("How does excess damage get to the player?", WYRM_TRAMPLE),
    ("Does my creature have summoning sickness the turn I cast it?", WYRM_SICKNESS),
    ("Is there still mana burn?", WYRM_MANA),
    ("What does the legend rule do when I control two copies?", WYRM_LEGEND),
])
def test_a_question_using_a_glossary_term_or_quoted_slang_reaches_the_rule(wyrm_db, question, rule):
    conn = connect(wyrm_db)
    assert rule in glossary_rulings(question, load_lexicon(conn).terms, "wyrm")
    ranked = [r["id"] for r in ask(conn, question, k=3)["results"]]
    assert rule in ranked, ranked


# A markdown rules reference whose glossary entries are "###" headings in alphabetical order, some only
# sending the reader elsewhere ("### Bleed" / 'See "Conditions" on page 9.'), each closed by related topics.
SKIRMISH = ("# Skirmish Reference\n\n## Glossary\n\nEvery rule in alphabetical order.\n\n"
            "### Attacks\n\nFigures attack hostile figures.\n\n#### Steps of an Attack\n\n"
            "1. **Declare Target:** Choose a hostile figure in line of sight.\n"
            "2. **Rerolls:** Each die may be rerolled only once per attack.\n\n"
            "Related Topics: Conditions, Damage\n\n"
            "### Bleed\n\nSee \"Conditions\" on page 9.\n\n"
            "### Conditions\n\nA figure with a condition keeps its token until it is discarded. A bleeding "
            "figure suffers 1 strain whenever it performs an action.\n\nRelated Topics: Damage\n\n"
            "### Damage\n\nA figure with damage equal to its health is defeated.\n\n"
            "### Exhaust\n\nAn exhausted card cannot be used again this round.\n\n"
            "### Focus\n\nA focused figure adds a green die to its next attack.\n\n"
            "### Health\n\nThe damage a figure can suffer before it is defeated.\n\n"
            "### Locked\n\nSee \"Doors\" on page 11.\n\n"
            "### Movement\n\nA figure spends movement points to enter spaces.\n\n"
            "### Reroll\n\nSee Step 2 of \"Attacks\" on page 5.\n\n"
            "### Strain\n\nA hero suffers strain to gain movement points.\n")
CONDITIONS = "skirmish/skirmish-reference/glossary/conditions"
REROLLS = "skirmish/skirmish-reference/glossary/attacks/steps-of-an-attack/rerolls"


@pytest.fixture(scope="module")
def skirmish_db(seeds_plus):
    return seeds_plus("skirmish", SKIRMISH)


def test_an_entry_that_only_sends_the_reader_elsewhere_leads_its_term_there_and_answers_nothing(skirmish_db):
    conn = connect(skirmish_db)
    terms = load_lexicon(conn).terms
    assert terms["bleed"] == [CONDITIONS]
    assert terms["reroll"] == [REROLLS]  # "Step 2 of Attacks": the step itself
    assert "locked" not in terms  # "Doors" is absent: the term leads nowhere (a gap says so)
    # A related topic is a link to read on, not what an entry cites: "attacks" does not lead to Conditions.
    assert CONDITIONS not in terms.get("attacks", [])
    results = ask(conn, "Does bleed make my figure suffer strain when it acts?", game="skirmish", k=5)["results"]
    assert results[0]["id"] == CONDITIONS and "redirect" not in {r["kind"] for r in results}
    gaps = [d for (d,) in conn.execute("select description from gaps where source like 'skirmish%'")]
    assert len(gaps) == 1 and "“Doors”" in gaps[0]


def test_a_glossary_of_bulleted_terms_under_a_glossary_named_for_what_it_covers_is_one_entry_a_term():
    from ingest.shapes.outline import parse_outline
    from ingest.text import MappedText
    text = ("# Rules\n\n## Card Glossary\n\n- Acting Minion: The minion performing the current action.\n"
            "- Action Card: A card a minion plays to perform a special action.\n\n### World of Darkness Glossary\n\n"
            "Some terms of the setting.\n\n- Amaranth: Killing a vampire by drinking its blood.\n"
            "- Anarchs: A sect of rebel vampires.\n")
    entries = [(b.title, b.section[-1]) for b in parse_outline(MappedText.of(text), ()) if b.kind == "glossary"]
    assert entries == [("Acting Minion", "Card Glossary"), ("Action Card", "Card Glossary"),
                       ("Amaranth", "World of Darkness Glossary"), ("Anarchs", "World of Darkness Glossary")]


def test_a_key_terms_and_index_is_a_glossary_its_numbered_terms_sorted_first():
    # Nevsky's <dl> as the HTML reader writes it: "40-Days" sorts before "Active", as an index sorts it
    from ingest.shapes.outline import parse_outline
    from ingest.text import MappedText
    text = ("# Rules of Play\n\n## Key Terms and Index\n\n40-Days: Calendar box, a turn (1.3.2).\n\n"
            "Active: Acting on Campaign (4.0)\n\nAdjacent: Linked by a Way (1.3.1).\n")
    entries = [(b.title, " ".join(text[start:end] for start, end in b.pieces))
               for b in parse_outline(MappedText.of(text), ()) if b.kind == "glossary"]
    assert entries == [("40-Days", "Calendar box, a turn (1.3.2)."), ("Active", "Acting on Campaign (4.0)"),
                       ("Adjacent", "Linked by a Way (1.3.1).")]


def test_a_numbered_glossary_heading_opens_a_glossary_of_bold_terms_over_their_definitions():
    # QuestWorlds' "10.1 Glossary of Terms": its bold <dt> terms (as its markdown's "**Ability**" / ": …") were
    # glossary entries only while they ran in alphabetical order (73 of 84), the rest headings over paragraphs
    from ingest.classify import GLOSSARY
    from ingest.shapes.outline import parse_outline
    from ingest.text import MappedText
    assert GLOSSARY.match("10.1 Glossary of Terms") and GLOSSARY.match("Key Terms and Index")
    text = ("# 9.0 Play\n\n## 9.1 Turns\n\nTake turns.\n\n## 9.2 Rounds\n\nPlay rounds.\n\n# 10.0 Appendix\n\n"
            "## 10.1 Glossary of Terms\n\n### Ability\n\nAnything you can apply.\n\n### Experience Points (XP)\n\n"
            "What you gain on defeat.\n\n### Incredible ability\n\nAn ability past human norms.\n\n### Failure\n\n"
            "Rolling over your target number.\n")
    entries = [b.title for b in parse_outline(MappedText.of(text), ()) if b.kind == "glossary"]
    assert entries == ["Ability", "Experience Points (XP)", "Incredible ability", "Failure"]


def test_the_terms_a_question_uses_are_those_that_stand_whole_in_its_spaced_words(conn):
    terms = load_lexicon(conn).terms
    questions = [json.loads(line)["question"] for line in
                 (Path(__file__).parent / "dev_questions.jsonl").read_text(encoding="utf-8").splitlines()]
    questions += [f"Is {term} the same as {term}s?" for term in list(terms)[:40]] + ["", "?!"]
    games = [None, "", *{ruling_id.split("/")[0] for ids in terms.values() for ruling_id in ids}]
    for question in questions:
        text = spaced_words(question)
        for game in games:
            assert glossary_rulings(question, terms, game) == {
                ruling_id for term, ids in terms.items() if f" {term} " in text
                for ruling_id in ids if game is None or ruling_id.startswith(game + "/")}, (question, game)


def test_a_regulations_terms_in_quotation_marks_defined_by_a_verb_are_its_glossary():
    # A federation's sporting regulations: "“Current Car” (or “CC”) is defined as…" entries in "APPENDIX B1:
    # DEFINITIONS", only the two with a colon read as terms, the rest glued into units of 112-292 words.
    from test_outline import segment
    text = ("APPENDIX B1: DEFINITIONS\n\n“Current Car” (or “CC”) is defined as the car the driver uses.\n\n"
            "“Fast Lane” means the lane closest to the pit wall.\n\n“Inner Lane”: the lane closest to the garages.\n\n"
            "“Pit Stop” is defined as the car stopping in its position.\n")
    entries = {b.title: b.text for b in segment(text) if b.kind == "glossary"}
    assert list(entries) == ["“Current Car”", "“Fast Lane”", "“Inner Lane”", "“Pit Stop”"]  # as printed
    assert entries["“Fast Lane”"] == "“Fast Lane” means the lane closest to the pit wall."
