"""The shared data model is the one place its facts live: every list of source kinds a reader sees is the
model's, and citations read the same wherever they are built."""
from __future__ import annotations

import json
import re
from pathlib import Path

from model import citation
from model.kinds import AUTHORITY, KIND_LABELS, KIND_SUFFIX, KINDS

SERVICE = Path(__file__).resolve().parent.parent / "service"


def test_the_api_description_offers_exactly_the_model_source_kinds():
    spec = json.loads((SERVICE / "openapi.json").read_text(encoding="utf-8"))
    enums = [node["enum"] for node in _walk(spec) if isinstance(node, dict) and "official-faq" in node.get("enum", [])]
    assert enums and all(enum == list(KINDS) for enum in enums)


def test_the_datasette_description_of_a_source_kind_names_the_model_kinds():
    metadata = (SERVICE / "datasette" / "metadata.yml").read_text(encoding="utf-8")
    line = re.search(r"^\s+kind: (official-faq.*)$", metadata, re.M).group(1)
    assert re.findall(r"[a-z]+(?:-[a-z]+)+|rulebook", line) == list(KINDS)


def test_every_source_kind_has_an_authority_a_ref_suffix_and_a_label():
    assert set(AUTHORITY) == set(KIND_SUFFIX) == set(KIND_LABELS) == set(KINDS)
    assert min(AUTHORITY, key=AUTHORITY.get) in ("rulebook", "official-faq")


def test_a_citation_names_the_page_where_there_is_one_and_else_the_lines():
    assert citation.short("Lorcana Comprehensive Rules", 1188, 1190, page=21) == "Lorcana Comprehensive Rules, page 21"
    assert citation.short("Lorcana Comprehensive Rules", 1188, 1190, page=21, page_end=22, sheet=24) == \
        "Lorcana Comprehensive Rules, pages 21–22"
    paged = citation.Locator(sheet="PDF page", sheet_link="#page={page}")  # as the PDF reader declares
    assert citation.short("Rules", 3, 4, sheet=2, locator=paged) == "Rules, PDF page 2"  # no number printed on it
    assert citation.short("House Rules", 3, 4, sheet=2) == "House Rules, lines 3–4"  # lines know no sheets
    assert citation.short("Dungeon Twister FAQ", 12, 12) == "Dungeon Twister FAQ, line 12"


def test_the_full_citation_names_the_game_and_the_edition_by_its_date_its_version_or_both():
    full = citation.full("Lorcana 4.3.6", "Lorcana", "Disney Lorcana", "Comprehensive Rules", "2025-10-31",
                         "Turn > 4.3.6 Challenge", "4.3.6", "Challenge", citation.place(1188, 1190, 21),
                         effective="2025-10-31")
    assert full == "Lorcana 4.3.6 — Disney Lorcana, Comprehensive Rules, 2025-10-31, 4.3.6 Challenge 4.3.6, page 21"
    assert citation.edition("2.2.0", "2025-01-17") == "v2.2.0 of 2025-01-17"
    assert citation.edition("", "2025-01-17") == "2025-01-17"
    assert citation.edition("Errata 3", "") == "Errata 3"


def test_the_full_citation_names_the_number_the_document_gives_or_else_the_title():
    assert citation.full("DD Magic A", "DD Magic", "Dragon Dice", "Official Dragon Dice FAQ", "1.44",
                         "Magic > General Rules", "a", "title", "lines 26–31") == \
        "DD Magic A — Official Dragon Dice FAQ, v1.44, General Rules A, lines 26–31"  # the title names the game
    assert citation.full("DT 3", "DT", "Dungeon Twister", "Clarifications", "", "Rules > Doors", "doors-open",
                         "Doors open", "line 9") == "DT 3 — Dungeon Twister, Clarifications, Doors: Doors open, line 9"


def _walk(node):
    yield node
    children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    for child in children:
        yield from _walk(child)
