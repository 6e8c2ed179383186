"""Headings plain text underlines or marks with "=" (reStructuredText and AsciiDoc sources added as they are),
read as marked headings mapped into the file, and the cut they make."""
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.formats import read
from ingest.formats.underlines import underlined_headings
from ingest.text import MappedText

RST = """\
==========
Card Types
==========

WTactics has several card types.

Creatures
---------

Creatures fight.

Life & Death
~~~~~~~~~~~~

If all damage is dealt, the creature dies.

Quests
------

**Quest Expiration** When a Quest expires it is removed from the game.
"""


def test_underlined_titles_are_headings_at_the_levels_their_styles_are_first_used(tmp_path):
    path = tmp_path / "card-types.rst"
    path.write_text(RST, encoding="utf-8")
    doc = read(path)
    assert doc.format == "text"  # never markdown: its indented blocks are no code
    assert doc.text.text == ("# Card Types\n\nWTactics has several card types.\n\n## Creatures\n\nCreatures fight.\n\n"
                             "### Life & Death\n\nIf all damage is dealt, the creature dies.\n\n## Quests\n\n"
                             "Quest Expiration When a Quest expires it is removed from the game.\n")  # no raw marks
    life = doc.text.text.index("Life & Death")
    assert RST[doc.text.offsets[life]:].startswith("Life & Death")  # cited on the file's own line


def test_titles_centred_between_rules_are_headings_at_the_lines_start(tmp_path):
    # A text file boxes each section's centred title between two rules of dashes: the "#" went after the centring
    # spaces, where no heading stands, and the whole rules were one ruling of 226 words.
    rule = "-" * 40
    text = (f"{rule}\n          Basic Rules of play\n{rule}\nScrabble is a game for 2 players.\n\n"
            f"{rule}\n               To Begin\n{rule}\nEnter the number of players.\n")
    doc = underlined_headings(MappedText.of(text))
    assert doc.text == "# Basic Rules of play\nScrabble is a game for 2 players.\n\n# To Begin\nEnter the number of players.\n"
    assert text[doc.offsets[doc.text.index("To Begin")]:].startswith("To Begin")


def test_a_bold_run_in_opening_a_line_of_text_heads_nothing(tmp_path):
    from ingest.manifest import source_entry
    from ingest.pipeline import parse_source
    (tmp_path / "card-types.rst").write_text(RST, encoding="utf-8")
    entry = source_entry({"id": "doc", "file": "card-types.rst", "game": "test", "title": "Card Types",
                          "kind": "rulebook", "language": "en", "shape": "auto", "section": ""})
    rulings = parse_source(entry, tmp_path).rulings
    quest = next(r for r in rulings if "Quest Expiration" in r.text)
    assert quest.section.endswith("Quests") and quest.text.startswith("Quest Expiration When a Quest expires")
    assert next(r for r in rulings if r.text.startswith("If all damage")).section.endswith("Creatures > Life & Death")


def test_titles_stacked_under_one_another_each_keep_their_line():
    # "Second" stands right under the first title's underline, which is no overline of it.
    text = "Title\n=====\nSecond\n======\n\nText here.\n\nThird\n-----\n"
    doc = underlined_headings(MappedText.of(text))
    assert doc.text == "# Title\n# Second\n\nText here.\n\n## Third\n"
    assert all(0 <= offset <= len(text) for offset in doc.offsets)
    assert text[doc.offsets[doc.text.index("Second")]:].startswith("Second")


def test_a_lone_underline_a_separator_or_a_bracketed_line_is_no_title():
    one = "Rules\n-----\n\nPlay fair.\n"
    assert underlined_headings(MappedText.of(one)).text == one  # one underline makes no document of them
    text = "Scoring ends.\n-------------\n\n[NOTE]\n======\n\nA note.\n\nSetup\n=====\n\nShuffle.\n\nPlay\n====\n"
    assert underlined_headings(MappedText.of(text)).text == (
        "Scoring ends.\n-------------\n\n[NOTE]\n======\n\nA note.\n\n# Setup\n\nShuffle.\n\n# Play\n")


def test_asciidoc_sections_are_headings_and_its_block_markup_goes(tmp_path):
    source = ("= Player's Guide\n\n== Combat\n\n[NOTE]\n====\nRoll high.\n====\n\n=== Reserved Actions\n\n"
              "A reserved action waits.\n")
    path = tmp_path / "guide.adoc"
    path.write_text(source, encoding="utf-8")
    assert read(path).text.text == ("# Player's Guide\n\n## Combat\n\n\n\nRoll high.\n\n\n### Reserved Actions\n\n"
                                    "A reserved action waits.\n")
    # A converted text's page markers are no sections, though they open with "=".
    pages = "=== Page 1 ===\nRules of the game.\n=== Page 2 ===\nMore rules.\n== Page 3 ==\n"
    assert underlined_headings(MappedText.of(pages)).text == pages


def test_asciidoc_listing_blocks_stay_preformatted_and_its_inline_markup_goes(tmp_path):
    breaks = ("'" * 3, "<" * 3)  # a thematic break and a page break
    source = ("= EC4X Player Manual\nMason A. Green\n:toc: left\n// :sectnums:\n\n== Units\n\n=== Raiders\n\n"
              f"image::raider.png[align=\"center\"]\n*Example Detection Scenario*:\n\n----\nRaider:\n  CLK 4\n----\n\n{breaks[0]}\n\n"
              f"See <<prestige,Section 10.4>> and <<combat>>.\n\n{breaks[1]}\n\n=== Starbases\n\nStarbases are forts.\n")
    path = tmp_path / "manual.adoc"
    path.write_text(source, encoding="utf-8")
    assert read(path).text.text == (
        "# EC4X Player Manual\nMason A. Green\n\n\n\n## Units\n\n### Raiders\n\n\nExample Detection Scenario:\n\n"
        "```\nRaider:\n  CLK 4\n```\n\n\n\nSee Section 10.4 and combat.\n\n\n\n### Starbases\n\nStarbases are forts.\n")


def test_asciidoc_ordered_lists_are_numbered_as_it_numbers_them_and_a_bold_line_heads_what_follows(tmp_path):
    # A larp's rulebook: ". Have I had any water recently?" items were one garbled unit titled "."; a line all in
    # bold was a ruling of its own rather than the heading over its paragraphs.
    source = ("= Safety\n\n== Self Check\n\nAsk yourself:\n\n. Have I had water?\n. Am I warm enough?\n"
              ".. Is my coat dry?\n.. Are my socks dry?\n. Do I need rest?\n\nThen go on.\n\n. A new list.\n\n"
              "== Following the Rules\n\n*Marshals Have Final Say*\n\nA marshal's call stands.\n")
    path = tmp_path / "safety.adoc"
    path.write_text(source, encoding="utf-8")
    assert read(path).text.text == (
        "# Safety\n\n## Self Check\n\nAsk yourself:\n\n1. Have I had water?\n2. Am I warm enough?\n"
        "  a. Is my coat dry?\n  b. Are my socks dry?\n3. Do I need rest?\n\nThen go on.\n\n1. A new list.\n\n"
        "## Following the Rules\n\n### Marshals Have Final Say\n\nA marshal's call stands.\n")


def test_restructured_text_markup_reads_as_the_text_it_shows(tmp_path):
    source = (".. -*- coding: utf-8 -*-\n.. :Progetto:  SoL\n..\n\n==============================\n"
              " International Laws of Carrom\n==============================\n\n.. contents:: Contents\n   :local:\n\n"
              "Interpretations\n===============\n\n.. glossary::\n\n   Laws\n     shall mean the Laws of Carrom.\n\n"
              ".. note:: Words implying singular shall include plural.\n\nToss\n====\n\n13. The toss is by spin of coin.\n")
    path = tmp_path / "laws.rst"
    path.write_text(source, encoding="utf-8")
    text = read(path).text.text
    assert not any(line.lstrip().startswith("..") for line in text.split("\n"))  # no comment, directive or option
    assert "Contents" not in text and "SoL" not in text
    assert "# International Laws of Carrom" in text and "## Interpretations" in text
    assert "   Laws\n     shall mean the Laws of Carrom." in text
    assert "Note: Words implying singular shall include plural." in text


def test_restructured_text_roles_literals_and_auto_numbered_items_read_as_they_show(tmp_path):
    # A Sphinx rules site: "#. :hoverxref:`Amazonia <homeland-amazonia>` - … the ``Foraging`` skill": the fourteen
    # homelands one unit holding "#." and the roles raw.
    source = ("Characters\n==========\n\nHomeland\n--------\n\nChoose one:\n\n#. :hoverxref:`Amazonia <homeland-amazonia>` - "
              "begin with the ``Foraging`` skill.\n#. :ref:`Argos` - begin with ``Sailing``.\n\nThen:\n\n#. Roll.\n")
    path = tmp_path / "characters.rst"
    path.write_text(source, encoding="utf-8")
    text = read(path).text.text
    assert "1. Amazonia - begin with the Foraging skill.\n2. Argos - begin with Sailing." in text
    assert "\n1. Roll." in text and ":" + "ref:" not in text and "``" not in text


def test_restructured_text_links_and_strong_text_read_as_they_show(tmp_path):
    # A game jam's rules: "`OSI-approved open source license` / "<https://opensource.org/licenses>`_", "Gravatar_",
    # "**must**" and anonymous targets ("__ http://…") were rule text, and "open source" was joined as "opensource".
    source = ("The Rules\n=========\n\nEntries **must** be licensed under an `OSI-approved open source license\n"
              "<https://opensource.org/licenses>`_ and set a Gravatar_ or ask Richard__.\n\n"
              "__ http://www.fsf.org/licensing/licenses\n\nJoin us on `Discord <https://discord.gg/x>`__.\n")
    path = tmp_path / "rules.rst"
    path.write_text(source, encoding="utf-8")
    text = read(path).text.text
    assert ("Entries must be licensed under an OSI-approved open source license and set a Gravatar or ask Richard."
            in " ".join(text.split()))
    assert "Join us on Discord." in text and "fsf.org" not in text and "`" not in text


LINES = ["Title", "Second title", "A sentence ends here.", "", "=====", "------", "~~~~", "== Combat", "[NOTE]",
         "====", "- item", "1. Rule", "   indented", "#", "Roll dice", "----", ":toc: left", "*Bold* and <<x,y>>"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LINES), max_size=30).map("\n".join), st.booleans())
def test_underlined_headings_never_fail_and_map_inside_the_text(text, asciidoc):
    doc = underlined_headings(MappedText.of(text), asciidoc)
    assert len(doc.offsets) == len(doc.text) + 1
    assert all(0 <= offset <= len(text) for offset in doc.offsets)
