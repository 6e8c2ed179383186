"""A source is reported cut off only when its last unit stops mid-sentence: a copyright, trademark or web
address line that ends a document is its imprint, not a truncation."""
import pytest

from ingest.manifest import source_entry
from ingest.pipeline import parse_source


def parsed_text(tmp_path, text: str):
    (tmp_path / "doc.txt").write_text(text, encoding="utf-8")
    return parse_source(source_entry({"id": "doc", "file": "doc.txt", "game": "g", "title": "Doc",
                                      "kind": "rulebook", "language": "en", "shape": "auto"}), tmp_path)


@pytest.mark.parametrize("ending, truncated", [
    ("Units out of supply halve their strength.\n\n© 2015 Acme Games, Inc. All Rights Reserved\n", False),
    ("Units out of supply halve their strength.\n\nWWW.ACMEGAMES.COM\n", False),
    ("Units out of supply halve their strength and may not", True),
])
def test_only_a_document_cut_off_mid_sentence_is_reported_truncated(tmp_path, ending, truncated):
    text = "Movement\nUnits move up to their speed in hexes.\n\nSupply\n" + ending
    kinds = [gap.kind for gap in parsed_text(tmp_path, text).gaps]
    assert ("truncated" in kinds) == truncated
