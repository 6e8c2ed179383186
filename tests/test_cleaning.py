"""Each cleaning step fixes its damage and leaves real text alone."""
import pytest

from ingest import clean
from ingest.text import MappedText


def run(step, text, *args):
    return step(MappedText.of(text), *args).text


@pytest.mark.parametrize("damaged, fixed", [
    ("a wizard who has 20 Hit Points Points (or 10", "a wizard who has 20 Hit Points (or 10"),
    ("COUNTERSPELL COUNTERSPELL - When casting a COUNTERSPELL, COUNTERSPELL, you must",
     "COUNTERSPELL - When casting a COUNTERSPELL, you must"),
    ("for a shorter game!), game!), represented represented either", "for a shorter game!), represented either"),
    ("PARALYSIS PARALYSIS – Generally", "PARALYSIS – Generally"),
    ("a three-health unit unit in his/her dead unit area", "a three-health unit in his/her dead unit area"),
    ("decide where the the penalty will go", "decide where the penalty will go"),
])
def test_doubled_words_are_collapsed(damaged, fixed):
    assert run(clean.collapse_doubled_words, damaged) == fixed


@pytest.mark.parametrize("real", [
    "Roll - 1 3 3 4 4 6", "Rick - Health 10 Roll - 1 1 1 2 3 4", "he had had enough", "that that rule applies",
    "Magic Missile - 66 Poison Arrow - 11",
    "Choose from Dark Eldar, Eldar, Grey Knights.",  # a list naming two factions, one inside the other's name
    "lethal damage.\n\nExcess Damage\nDamage dealt to a creature",  # a glossary term over its definition
    # a PDF's rule heading over its first sentence, no blank line between (Hockey Canada's Rule 7.4)
    "push, or shove\nan opponent.\nRule 7.4 Charging\nCharging is when a player:",
    "and Jar Jar Binks has none of his dice",  # a name that doubles a word
    "7\n3 Micro\nMicro is a skirmish game.",  # a numbered heading under a page's number
    "Peassant 4 5 D6 D4 D4 D4", "Town-guard rolls D6 D6 when it attacks",  # dice a unit rolls
    "Pass the pass the pass the ball",  # not a doubled word
    "the Yes Yes Yes chant",  # a word printed three times
])
def test_real_repetitions_are_kept(real):
    assert run(clean.collapse_doubled_words, real) == real


CORPUS = clean.vocabulary("the spell you wish to counter an attack original caster at an ally heal below each "
                          "also casts spells pair cast spell spell pair heal")


@pytest.mark.parametrize("damaged, fixed", [
    ("the target of the spe ll you wish", "the target of the spell you wish"),
    ("to counter a n attack spell", "to counter an attack spell"),
    ("reflected against their o riginal caster", "reflected against their original caster"),
    ("you can never hea l an ally", "you can never heal an ally"),
    ("when it is cast a t an ally", "when it is cast at an ally"),
    ("for ea ch 1 used", "for each 1 used"),
    ("if they a lso had an ogre", "if they also had an ogre"),
    ("Rick c asts Counterspell", "Rick casts Counterspell"),
    ("no healing s pells cast", "no healing spells cast"),
    ("a straight of 3 plus any pa ir", "a straight of 3 plus any pair"),
])
def test_split_words_are_rejoined(damaged, fixed):
    assert run(clean.rejoin_split_words, damaged, CORPUS) == fixed


@pytest.mark.parametrize("real", [
    "cast a spell at an ally", "a source as inspiration", "roll a die", "replacement säännöistä",
    "the odds may be low", "I t-shirt", "flip to side 1B and resolve", "White pawn on e2, black queen on g6",
    "Metal 0's top command", "the Ogre’s top ability",
    "quand il s'arrête sur une case bloquée s'il peut", "le pion s’arrête",  # French elision ("ils" is a word)
])
def test_real_word_pairs_are_not_joined(real):
    vocab = CORPUS | clean.vocabulary("be low below replacements be low odds band one queen stop top ils bloquées")
    assert run(clean.rejoin_split_words, real, vocab) == real


def test_web_listing_header_numbers_and_nbsp_are_removed():
    listing = ("home *** CD-ROM | search\nText File | 812 lines\n\n"
               "  1. Official\u00a0Dragon\u00a0Dice\n  2. \u00a0\n  3. A)\u00a0If the Magic\n  4. after your\n"
               "  5. turn.\n  6. \u00a0")
    assert clean.is_listing(listing)
    cleaned = clean.normalize_spaces(clean.strip_listing(MappedText.of(listing))).text
    assert cleaned == "Official Dragon Dice\n\nA) If the Magic\nafter your\nturn.\n"


def test_lists_counted_afresh_under_headings_are_no_web_listing():
    # A Word file of four-item lists under each heading: taken for a listing's line numbers, everything before its
    # first "1." went (the introduction and two headings) and every item lost its number.
    text = "Field of Play\nEach player checks the equipment.\nEquipment\nI. Metal Weapons\n" + "".join(
        f"{n}. Check item {n}.\n" for n in range(1, 5)) + "II. Head Protection\n" + "".join(
        f"{n}. Wear item {n}.\n" for n in range(1, 5))
    assert not clean.is_listing(text)


def test_listing_numbers_map_file_lines_to_original_lines():
    assert clean.listing_numbers("header\n\n  1. one\n  2. two") == {3: 1, 4: 2}


def test_a_character_unicode_says_is_another_is_read_as_that_one():
    doc = clean.canonical_characters(MappedText.of("1. 3 cards\u037e\n2. a 5 \u2126 resistor"))
    assert doc.text == "1. 3 cards;\n2. a 5 Ω resistor"
    assert len(doc.offsets) == len(doc.text) + 1
    assert clean.canonical_characters(MappedText.of("Café ; Ω")).text == "Café ; Ω"


def test_a_typed_texts_words_are_never_joined_as_a_prints_split_words_are():
    from types import SimpleNamespace

    from ingest.pipeline import clean_document
    text = "Setup\nPlace your castle.\nNow you're set up, it's time to play."
    entry = SimpleNamespace(strip=())
    vocab = clean.vocabulary(text)
    # "set" is seen nowhere else and "setup" is a heading: in a print that would be a word a line split
    assert "set up" in clean_document(MappedText.of(text), text, entry, vocab, typed=True).text


def test_words_a_markdown_or_html_author_spaced_are_never_joined():
    # A converted FAQ's "in such a way" was stored "in such away", "face down" "facedown", Italian "infortuni o"
    # ("injuries or") "infortunio": joins that repair a PDF's glyphs read back, wrong where the author typed spaces.
    from types import SimpleNamespace

    from ingest.pipeline import clean_document
    text = "Move it away from the rod.\nSet it down in such a way that it stays face down. A facedown card."
    entry = SimpleNamespace(strip=())
    vocab = clean.vocabulary(text)
    assert clean_document(MappedText.of(text), text, entry, vocab, spaced=True).text == text
    assert "in such away" in clean_document(MappedText.of(text), text, entry, vocab).text  # as a print's text


def test_page_footers_are_dropped():
    text = "healing spells.\n68782620.doc\nPage 2 of 4\nWizard Dice List"
    assert run(clean.drop_page_footers, text) == "healing spells.\n\n\nWizard Dice List"
    # a folio between dashes, set on a line of its own in a text conversion
    assert run(clean.drop_page_footers, "is irrelevant.\n                - 10 -\nSetup") == "is irrelevant.\n\nSetup"
    # a conversion's footer left once, dating the document and numbering its page; a rule citing a page stays
    footer = "available.\n\nDBMM List Clarifications v3.1 20th February 2017 p. 30\n"
    assert run(clean.drop_page_footers, footer) == "available.\n\n\n"
    assert run(clean.drop_page_footers, "Siege rules are on p. 30\n") == "Siege rules are on p. 30\n"
    # a one-page browser print's header and footer, printed once
    printed = "markers.\n11/30/26, 12:55 PM Rules 2023 — Greed | Student Robotics\nfile:///rules/repro.html 1/1\n"
    assert run(clean.drop_page_footers, printed) == "markers.\n\n\n"


def test_running_page_numbers_are_dropped_but_counts_stay():
    text = ("removed from the game). 1 Assault points. Only 4 fleets may stack. during Era 2 and seven. "
            "the original game. 3 The Berem counter. as countries fall and more 4 and more of them. "
            "ratings of 1 combat and 10 movement. subtracts 1 from war status.")
    cleaned = run(clean.drop_running_page_numbers, text, 6)
    assert "game). Assault points" in cleaned
    assert "game. The Berem" in cleaned
    assert "and more and more" in cleaned
    for kept in ("Only 4 fleets", "Era 2 and", "of 1 combat and 10 movement", "subtracts 1 from"):
        assert kept in cleaned


def test_cleaning_keeps_offsets_into_the_original():
    original = "x  1. Hit Points Points here"
    doc = clean.collapse_doubled_words(MappedText.of(original))
    start = doc.text.index("here")
    assert original[doc.offsets[start]:doc.offsets[start] + 4] == "here"


def test_ligatures_become_their_letters_and_cite_the_ligature():
    original = "the ﬁrst battleﬁeld is shufﬂed"
    doc = clean.unfold_ligatures(MappedText.of(original))
    assert doc.text == "the first battlefield is shuffled"
    start, end = doc.original_span(doc.text.index("battlefield"), doc.text.index(" is"))
    assert original[start:end] == "battleﬁeld"
    assert clean.vocabulary(original)["first"] == 1
    # an InDesign text layer sets a space after ﬁ and ﬂ inside a word ("Clariﬁ cation", "Conﬂ ict"): it goes; after
    # ﬀ a word may end ("oﬀ the")
    split = "Clariﬁ cation: the ﬁ rst Conﬂ ict is oﬀ the board, ﬁ\nnally"
    assert clean.unfold_ligatures(MappedText.of(split)).text == "Clarification: the first Conflict is off the board, fi\nnally"
    assert clean.vocabulary(split)["clarification"] == 1


def test_a_text_whose_extraction_doubled_every_space_gets_single_spaces():
    damaged = ("Riftbound  Core  Rules\n  103.  To  play  Riftbound ,  a  player  needs  Power 's  Domain  "
               "(see  Jinx ).\n103.1.  1  Champion  Legend")
    assert run(clean.undouble_spaces, damaged) == ("Riftbound Core Rules\n  103. To play Riftbound, a player needs "
                                                   "Power's Domain (see Jinx).\n103.1. 1 Champion Legend")


@pytest.mark.parametrize("layout", [
    "1.1.1. The game is played by two players.      6.1. General\n   8.2.    Alert",
    "Roll - 1 3 3 4 4 6  and  then a b c d e f g h",
])
def test_single_spaced_text_and_layout_columns_keep_their_spaces(layout):
    assert run(clean.undouble_spaces, layout) == layout


@pytest.mark.parametrize("typed, read", [
    ("For 6\u00ad10 players", "For 6-10 players"),            # between numbers: a dash, never "610"
    ("Gold \u00ad Silver", "Gold - Silver"),                  # between words
    ("a hyphen\u00ad ated word", "a hyphen- ated word"),      # before a space it still stands for something
    ("the exam\u00adple and hy\u00adphen\u00adation", "the example and hyphenation"),  # a break point inside a word
])
def test_soft_hyphens_are_dashes_between_numbers_or_words_and_nothing_inside_a_word(typed, read):
    cleaned = clean.soft_hyphens(MappedText.of(typed))
    assert cleaned.text == read
    if "-" in read:  # the dash cites the soft hyphen it was read from
        assert typed[cleaned.offsets[read.index("-")]] == "\u00ad"


@pytest.mark.parametrize("typed, read", [
    ("1.\u200b Randomly deal a Champion.", "1. Randomly deal a Champion."),  # a word processor's list label
    ("10.\u200bThe Mouse goes first.", "10. The Mouse goes first."),        # where the label's tab was
    ("\u200b\nSetup", "\nSetup"),                                           # a blank line holding one
    ("Bag\u2060building and \ufeffpush-your-luck", "Bagbuilding and push-your-luck"),
    ("\ufffc(d) draw up minutes of meetings;", "(d) draw up minutes of meetings;"),  # an embedded object's placeholder
])
def test_zero_width_spaces_show_nothing_but_after_a_label_they_part_it_from_its_text(typed, read):
    assert clean.soft_hyphens(MappedText.of(typed)).text == read


def test_a_drop_cap_rejoins_its_word_and_cites_both_letters():
    text = "O\nn a blustery autumn evening five friends met.\nA\nplayer draws."
    cleaned = clean.rejoin_drop_caps(MappedText.of(text), clean.vocabulary(text + " on"))
    assert cleaned.text == "On a blustery autumn evening five friends met.\nA\nplayer draws."  # "Aplayer": no word
    assert [text[cleaned.offsets[i]] for i in range(2)] == ["O", "n"]


def test_a_bullet_alone_on_its_line_opens_the_item_under_it():
    # pdftotext sets a PDF's bullet apart, its item's text past a blank line: each "•" was a ruling of its own.
    text = "The player:\n•\n\nPlays the course as it is found, and\n  •\n   Plays the ball as it lies.\n"
    cleaned = clean.join_lone_bullets(MappedText.of(text))
    assert cleaned.text == "The player:\n• Plays the course as it is found, and\n  • Plays the ball as it lies.\n"
    assert text[cleaned.offsets[cleaned.text.index("Plays the ball")]] == "P"  # still cited where it stands
    assert clean.join_lone_bullets(MappedText.of("A list:\n• one\n• two\n")).text == "A list:\n• one\n• two\n"


def test_a_letter_opening_several_list_lines_is_a_symbol_fonts_bullet():
    listed = "Components\nu 1 Board map\nu 240 Trains\nu  5 Scoring Markers\nb Bonus card\n"
    cleaned = clean.mark_glyph_bullets(MappedText.of(listed))
    assert cleaned.text == "Components\n• 1 Board map\n• 240 Trains\n•  5 Scoring Markers\nb Bonus card\n"
    assert listed[cleaned.offsets[cleaned.text.index("•")]] == "u"
    prose = "He may claim it using\na Blue route, or\na Red one, or\na Green one.\n"  # "a" is a word
    assert run(clean.mark_glyph_bullets, prose) == prose


def test_callout_marks_of_a_symbol_font_go_as_lines_and_where_they_stand_alone_in_a_sentence():
    text = ("Place your marker on Start ∂ on the track.\nDeal 4 cards to each player ∑.\n∂\n∑∫\n  ∑ ∫\n"
            "Scores ≥ 10 win → the game ends, © Acme.\n")
    assert run(clean.drop_symbol_glyphs, text) == ("Place your marker on Start on the track.\n"
                                                   "Deal 4 cards to each player.\nScores ≥ 10 win → the game "
                                                   "ends, © Acme.\n")
    greek = "Ο κανόνας\nπ\n"  # in a text written in another script its letters are its words
    assert run(clean.drop_symbol_glyphs, greek) == greek


def test_a_pages_script_never_decides_what_is_a_word_of_its_text(tmp_path):
    from ingest.changeset import read_document
    page = ("<html><head><script>if (url.startsWith('#')) { startsWith(url); }</script></head><body>"
            "<h1>Quarry Rules</h1><p>Every player starts with 2 stones and draws more during play.</p>"
            "<p>A player with no stones left is out of the game.</p></body></html>")
    (tmp_path / "rules.html").write_text(page, encoding="utf-8")
    rulings = read_document(tmp_path / "rules.html", "quarry")[1].rulings
    assert any("Every player starts with 2 stones" in r.text for r in rulings)


def test_a_line_numbered_texts_gutter_leaves_its_lines():
    # A standard's draft numbers every line ("0091 1.1 Purpose"): its title was the file's name, its refs "0091 1.1
    # Purpose", its texts studded with line numbers. A few numbers opening lines are the text's own.
    text = "\n".join(f"{n:04d} {line}" if line else "     " for n, line in enumerate(
        ["Draft of Proposed Core War Standard", "", *[f"1.{k} Rule {k} holds." for k in range(1, 30)]], start=1))
    cleaned = clean.drop_line_numbers(MappedText.of(text)).text
    assert cleaned.startswith("Draft of Proposed Core War Standard\n") and "\n1.29 Rule 29 holds." in cleaned
    own = "1200 points of damage.\n" * 25  # the same number each line: no gutter
    assert clean.drop_line_numbers(MappedText.of(own)).text == own
