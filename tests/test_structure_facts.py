"""Issue 30's measurement harness: ten real documents of ../shared/corpora/structure/ and the Magic comprehensive
rules, each added as a new user adds it (`rulings add FILE --game G`) to a copy of the seeds' database and
measured against the facts a careful reader wrote down (tests/support/structure_facts.py).

Two kinds of test. Floors: what each document reads right today stays right (a sample found stays found, a
count never moves away from its facts). Targets: the issue's "done when", one test per document and measure;
those not met today are strict xfails, so meeting one fails the run with "target met: raise the floor": then
update TODAY and UNMET below. All eleven are added once per module without vectors (the embedding model does not
touch structure): about 30 s.
"""
from __future__ import annotations

from typing import NamedTuple

import pytest

from support import CORPORA
from support.structure_facts import (MEASURES, STRUCTURE, add, canonical, carries, facts_files, is_label, load_facts,
                                     measure, shape, targets)

pytestmark = pytest.mark.corpus


class Today(NamedTuple):
    """What a document reads right today: before issue 30 (commit 2930f6d), raised as the work met targets."""

    numbered: int
    samples: tuple[str, ...]
    glossary: int
    qa: int
    long: int
    ordinals: int
    collisions: int
    title: bool


TODAY = {
    # "(2.10) Characters contributing their STR", one rule of an introduction, four bullets and an example (before
    # issue 30, each paragraph a unit with an ordinal ref), is cut in two parts at a bullet since issue 42
    # (ingest/parts.py): none over 300 words.
    # 35 over the facts' 24: the items of its two HTML ordered lists print "1." … as its chapters do.
    "agot-lcg-faq-4.1": Today(
        35, ('Choose', '(1.2)', '(1.7)', '(2.3)', '(2.9)', '(3.4)',
             'If I play a limited card as a duplicate, does it count as my limited card',
             'Does the effect on Time of Plenty (Lions of Casterly Rock, 51) increase'), 5, 26, 0, 0, 0, True),
    "arkham-horror-lcg-rules-reference": Today(
        30, ('A, An', 'Aloof', 'Exile', 'The letter "X"', '2.2.1', '4.5', 'ST.3',
         'Does a concealed mini-card count as an enemy for the purposes'), 183, 8, 24, 0, 0, False),
    # 574 since 2026-11-30: "Action Steps)", the end of "(See 8. Action Steps)" wrapped onto a line of its own, no
    # longer heads rules 6-6-3…, so "6-6 End Phase" is counted once, not again under it.
    "gundam-card-game-comprehensive-rules-1.0": Today(
        574, ('1-2-2-1', '2-3-4-2', '2-3-5-4-1-1', '4-17-1', '5-1-1', '7-6-2-4', '10-5-1', '11-2-1-1'),
        19, 0, 0, 0, 0, True),
    # Its interpretations units of their own since 2026-11-29; its 6 questions against the facts' 3, which miss
    # "QUESTION:" in capitals and one asked without the labels (docs/ingest.md, the facts' shortfalls).
    "hockey-canada-playing-rules-2024-26-section-7": Today(
        131, ('Rule 7.1', '7.1 (a)', '7.1 (c) iv.', '7.3 (d)',
              'What penalty is assessed to a player who cross-checks an opponent from behind', '7.10 (e) iii.',
              'Interpretation 7 Rule 7.10 (d)', '7.11 viii.'), 0, 6, 0, 0, 0, True),
    "marvel-champions-rules-reference": Today(
        115, ('ABILITY', 'OVERKILL', 'STALWART', '“WOULD”', '5', '12b',
         'In the Core Set, there are 19 Aggression, Justice, and Protection aspect cards',
         'When does the villain “initiate” an attack against Spider-Man?'), 237, 76, 0, 0, 0, True),
    # 1,533 since its PDF's links stay on their printed lines and an item's label alone on its line is never a
    # running line (issue 42): 82 lettered items it lost as furniture, or under the wrong rule, are read. 1,531 since
    # 2026-12-01: "13." / "Appendix: Previous Revision Summary" heads chapter 13, where it was counted twice as a rule
    # "12.4.13" the document never prints (a unit and its section).
    "netrunner-comprehensive-rules-1.4": Today(
        1531, ('1.2.2', '1.4.6a', '3.5.1b', '4.7.8h', '6.9.6b', '9.8', '10.8.5', '11.2.30a'), 0, 0, 0, 0, 0, True),
    # Read by the outline since its questions run over the lines the PDF breaks at each card name (before, the
    # "glued" shape read it: 193 units, 12 over 300 words, no question). Its prose chapters are paragraphs now,
    # named by their heading and count since issue 42 ("Netrunner Style Updates 3"), so none collides any more with
    # the "1." … a wrapped sentence ("…plus" / "1.") sets at a line's start. 144 questions, one over the facts' 143:
    # "When you play Targeted Marketing, what happens? The first sentence…" asks and answers in one paragraph,
    # which the facts' count (bold questions) leaves out and issue 42's invariant types as a question. Since its
    # PDF's links stay on their printed lines (issue 42), no sentence is cut at a card's name into a false heading
    # ("While", "Data", "Gang"), and the 143 bold questions are all read: the "end the run" question under "Ganked!"
    # was an answer's text; a passage that asks on its way ("Removed Rules: Composite Effects", 144 words to its "?")
    # is a paragraph, no question. 16 ordinal refs, for 304. Since 2026-11-30 the 143 and no more: "When you play
    # Targeted Marketing, what happens?", asked alone among the rules update's prose, asks the reader.
    "netrunner-uprising-release-notes": Today(
        0, ('What happens if the Runner plays Rebirth to switch their identity with',
            'Can the Runner trash Moshing itself as one of the 3 cards',
            'Are cards set aside with Gachapon faceup or facedown?',
            'Does the run need to be successful for the Runner to gain credits?',
            'Does discarding cards to maximum hand size allow the Runner to trigger',
            'Does Tranquility Home Grid meet its trigger condition from the Corp',
            'Can the Corp play Digital Rights Management on the first turn of the game?',
            'This card is a reprint. Has anything changed about how False Lead works?'), 0, 143, 0, 16, 0, True),
    # Its FAQ page's bulleted questions, run into the page's one line, are read one unit each (the sidebar
    # question of The Defect's page is not); the FAQ heading they open ends the rule that ran over the pages. Its
    # pages, one line each, after a page closing on a list's last step are paragraphs of their own (seven of over
    # 300 words, each one paragraph of the document), no longer that step's text (setup step 12 held seven pages).
    "slay-the-spire-board-game-rulebook": Today(
        24, ('Is there a maximum hand size?', 'Does Buffer prevent all HP loss from a multi-hit?'), 0, 19, 8, 9, 0,
        True),
    "twilight-imperium-4-living-rules-reference-2.0": Today(
        790, ('ABILITIES', '1.6', '1.6a', 'AGENDA CARD', '36.2', '58.4', '78.5e', '101.4b'), 100, 69, 1, 0, 0,
        True),
    "warhammer-40000-conquest-rules-reference": Today(
        36, ('Actions', 'Bloodied', 'Limit 1 Relic per Player', 'The letter "X"', '2.5', '4.7'),
        110, 0, 0, 0, 0, True),
    # 2,654, not the 2,682 counted before the glossary held: 28 numbered senses of glossary entries ("1.", "2.")
    # were ordinal paragraphs whose refs ended in a number; they are parts of their terms' entries now.
    "mtg-comprehensive-rules-2022-04-29": Today(
        2654, ('100.1a', '305', '305.2b', '606.5', 'Abandon', 'Encounter', 'Skulk', 'Zone-Change Triggers'),
        622, 0, 0, 0, 0, True),
}
# The issue's targets each document does not meet today.
UNMET = {
    "agot-lcg-faq-4.1": (),
    "arkham-horror-lcg-rules-reference": ('numbered', 'long', 'title'),
    "gundam-card-game-comprehensive-rules-1.0": (),
    "hockey-canada-playing-rules-2024-26-section-7": ('qa',),
    "marvel-champions-rules-reference": (),
    "netrunner-comprehensive-rules-1.4": (),
    "netrunner-uprising-release-notes": (),
    "slay-the-spire-board-game-rulebook": ('numbered', 'samples', 'glossary', 'qa', 'long', 'ordinals'),
    "twilight-imperium-4-living-rules-reference-2.0": ('qa', 'long'),
    "warhammer-40000-conquest-rules-reference": ('samples',),
    "mtg-comprehensive-rules-2022-04-29": (),
}
NAMES = list(TODAY)


@pytest.fixture(scope="module")
def measured(built_db, tmp_path_factory):
    """Document name → its Measured, each added alone to a copy of the seeds' database."""
    if not STRUCTURE.is_dir():
        pytest.skip(f"{STRUCTURE} is not beside the clone")
    folder = tmp_path_factory.mktemp("structure")
    found = {}
    for path in facts_files():
        facts = load_facts(path)
        found[facts.name] = measure(add(facts, built_db, folder, vectors=False), facts)
    return found


def test_every_facts_file_has_its_floor_and_eight_samples():
    if not STRUCTURE.is_dir():
        pytest.skip(f"{STRUCTURE} is not beside the clone")
    facts = [load_facts(path) for path in facts_files()]
    assert sorted(f.name for f in facts) == sorted(TODAY)
    assert all(len(f.samples) == 8 for f in facts)
    assert all(f.styles() for f in facts if f.numbered_units)  # a numbering the measures can recognise
    assert (CORPORA / "mtg-comprehensive-rules-2022-04-29.txt").is_file()


@pytest.mark.parametrize("name", NAMES)
def test_no_document_loses_what_it_reads_right_today(measured, name):
    result, today = measured[name], TODAY[name]
    facts = result.facts
    assert result.numbered >= today.numbered
    assert set(today.samples) <= {r.sample.label for r in result.samples if r.found}
    assert abs(result.glossary - facts.glossary_terms) <= abs(today.glossary - facts.glossary_terms)
    assert abs(result.qa - facts.qa_pairs) <= abs(today.qa - facts.qa_pairs)
    assert result.long <= today.long
    assert result.ordinals <= today.ordinals
    assert result.collisions <= today.collisions
    assert result.title_matches or not today.title


def _target_cases():
    for name in NAMES:
        for measure_name in MEASURES:
            marks = [pytest.mark.xfail(strict=True, reason=(
                f"issue 30 target not met on main before the work; when it passes, raise {name}'s floor in TODAY "
                f"and drop {measure_name!r} from UNMET"))] if measure_name in UNMET[name] else []
            yield pytest.param(name, measure_name, marks=marks, id=f"{name}-{measure_name}")


@pytest.mark.parametrize(("name", "measure_name"), list(_target_cases()))
def test_each_document_meets_issue_30s_target(measured, name, measure_name):
    assert targets(measured[name])[measure_name], measured[name].examples.get(measure_name) or [
        (r.sample.label, r.closest, r.lacks) for r in measured[name].samples if not r.found]


def test_a_ref_carries_a_label_in_the_documents_own_form():
    assert carries("4.3.6.1", "4.3.6.1.") and carries("2 1-2-1", "1-2-1.")
    assert carries("1.2", "(1.2)") and carries("(1.2)", "(1.2)")
    assert carries("1.4.6a", "a.") and carries("7.4b", "7.4 (b)") and carries("Rule 7.4", "Rule 7.4")
    assert not carries("1.2.1", "1-2-1.") and not carries("55", "Skulk") and not carries("149", "1-2-1.")
    assert canonical("7.1 (c) iv.") == "7.1.c.iv" and canonical("9f12c") == "9.f.12.c"


def test_a_numbering_style_is_the_same_at_any_depth():
    assert shape("1-2-1.") == shape("2-3-5-4-1-1.") != shape("1.2.1.")
    assert shape("305.2b") == shape("1.4.6a") and shape("Rule 7.4") != shape("7.4")
    assert is_label("12b") and is_label("(1.2)") and is_label("ST.3") and not is_label("A, An")


def test_a_units_own_label_is_read_as_a_reader_sees_it():
    from support.structure_facts import _label_at, _own_label
    assert _label_at("a If two abilities trigger") == "a" and _label_at("A character may contribute its STR") == ""
    listing = '<h3>Setup</h3>\n<ol start="3">\n  <li>Shuffle.</li>\n  <li><b>Deal</b> five cards.</li>\n</ol>'
    assert _own_label(listing, listing.index("Shuffle"), "Shuffle.") == "3."
    assert _own_label(listing, listing.index("<b>Deal"), "Deal five cards.") == "4."
    heading = '<h4 id="x">(2.5) The Word &quot;You&quot; in Game\n    Areas</h4>\n\n<p>If a card ability…</p>'
    assert _own_label(heading, heading.index("If a card"), 'The Word "You" in Game Areas') == "(2.5)"
    step = "STEP 1-DETERMINE SPEAKER: Randomly determine one player"
    assert _own_label(step, step.index("Randomly"), "Determine Speaker") == "STEP 1"
    assert _own_label(step, step.index("one player"), "Determine Speaker") == ""
