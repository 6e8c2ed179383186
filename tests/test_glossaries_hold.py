"""A glossary, once begun, holds to its end: every term over its definition is an entry (never a heading, never
an ordinal), on real documents; and no ref is a count where the document numbers another unit, so "rule 305"
names rule 305, never a glossary definition. Skips when ../shared/corpora is not beside the clone."""
from __future__ import annotations

import sqlite3
import tomllib
from collections import Counter

import pytest

from ingest.refs import colliding, ruling_refs
from model.refs import ref_key
from support import CORPORA, ROOT, documents
from support.structure_facts import added, load_facts

pytestmark = [pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not beside the clone"),
              pytest.mark.corpus]

MTG = CORPORA / "mtg-comprehensive-rules-2022-04-29.txt"
MTG_FACTS = ROOT / "benchmarks" / "structure_facts" / "mtg-comprehensive-rules-2022-04-29.facts.toml"
STRUCTURE = CORPORA / "structure"
# The documents of the structure corpus with a glossary, as their facts count it.
GLOSSARIES = ("warhammer-40000-conquest-rules-reference.md", "marvel-champions-rules-reference.md",
              "arkham-horror-lcg-rules-reference.html", "agot-lcg-faq-4.1.html",
              "twilight-imperium-4-living-rules-reference-2.0.txt", "slay-the-spire-board-game-rulebook.txt",
              "gundam-card-game-comprehensive-rules-1.0.md")
# Those whose every entry is read today; the others are left to the numbering scheme (see docs/ingest.md).
READ_WHOLE = GLOSSARIES[:3]


def parsed(path):
    """The file parsed as `rulings add FILE --game test` parses it (once a run)."""
    return documents.parsed(path)


def entries(path) -> dict[str, object]:
    return {r.title: r for r in parsed(path).rulings if r.kind in ("glossary", "redirect")}


def mtg_terms() -> list[str]:
    """The comprehensive rules' glossary terms as the document sets them apart: from "Glossary" to "Credits",
    each line after a blank line (one term, "Affinity", follows its neighbour's definition directly)."""
    text = MTG.read_text(encoding="utf-8-sig")
    body = text[text.rindex("\nGlossary\n"):text.rindex("\nCredits\n")].split("\n")[2:]
    return [line for above, line in zip(["", *body], body) if line and not above]


def test_the_comprehensive_rules_glossary_holds_to_its_last_term():
    terms = mtg_terms()
    found = entries(MTG)
    assert abs(len(found) - len(terms)) <= 0.02 * len(terms)
    assert set(terms) | {"Affinity"} == set(found)
    # "Encore" ends without its full stop; the terms after it are entries all the same, to the last one.
    for term in ("Encounter", "Remove from the Game, Removed, Removed-from-the-Game Zone (Obsolete)", "Skulk",
                 terms[-1]):
        assert found[term].section.endswith("Glossary")
    assert not [r for r in parsed(MTG).rulings if r.kind == "paragraph"]


@pytest.mark.parametrize("name", READ_WHOLE)
def test_every_glossary_entry_the_facts_count_is_an_entry(name):
    facts = tomllib.loads((STRUCTURE / name).with_suffix(".facts.toml").read_text(encoding="utf-8"))
    assert abs(len(entries(STRUCTURE / name)) - facts["glossary_terms"]) <= 0.02 * facts["glossary_terms"]


@pytest.mark.parametrize("path", [MTG, *(STRUCTURE / name for name in GLOSSARIES)], ids=lambda p: p.name)
def test_no_ref_is_a_count_where_the_document_numbers_another_unit(path):
    rulings = parsed(path).rulings
    refs = ruling_refs(rulings, "X", path.name)
    assert len({ref_key(ref) for ref in refs.values()}) == len(rulings)
    assert colliding(rulings, refs, "X") == []


@pytest.fixture(scope="module")
def mtg_db(built_db, tmp_path_factory):
    """The seeds' database with the comprehensive rules added as game mtg, as `rulings add` adds it, without
    vectors (refs and lookups by number read none); the same add as tests/test_structure_facts.py's, done once."""
    path, report = added(load_facts(MTG_FACTS), built_db, tmp_path_factory.mktemp("mtg"), vectors=False)
    assert report["colliding_refs"] == []
    return path


@pytest.mark.parametrize("question", ["rule 305", "305", "what is rule 305?"])
def test_asking_for_rule_305_finds_the_rules_of_lands_not_a_definition(mtg_db, question):
    from kb.lookup import lookup
    from kb.store import connect
    conn = connect(mtg_db)
    found = lookup(conn, question, "mtg")
    assert found["title"] == "Lands"
    labels = [label for (label,) in (conn.execute("select label from rulings where id = ?", [i]).fetchone()
                                     for i in found["ids"])]
    assert labels[:2] == ["305.1", "305.2"] and all(label.startswith("305.") for label in labels)


def test_stored_glossary_refs_are_their_terms_and_no_ref_is_another_units_number(mtg_db):
    rows = sqlite3.connect(mtg_db).execute(
        "select kind, label, title, ref from rulings where source = 'mtg-comprehensive-rules'").fetchall()
    refs = {title: ref for kind, _, title, ref in rows if kind in ("glossary", "redirect")}
    assert refs["Encounter"] == "MtG Encounter" and refs["Skulk"] == "MtG Skulk"
    assert refs["Zone-Change Triggers"] == "MtG Zone-Change Triggers"
    assert max(Counter(ref_key(ref) for *_, ref in rows).values()) == 1
    numbers = {label for kind, label, _, _ in rows if kind == "rule"}
    numbers |= {label.split(".")[0] for label in numbers}  # 305 of 305.1, a heading's number
    assert not [ref for kind, label, _, ref in rows
                if kind != "rule" and ref.removeprefix("MtG ") in numbers]
