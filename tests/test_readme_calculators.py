"""The calculator reference in docs/engine.md is generated from the engine's declarations."""
import re
from pathlib import Path

from engine.calculators import reference_markdown

ROOT = Path(__file__).resolve().parent.parent


def test_documented_calculator_reference_matches_the_declarations():
    text = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    section = re.search(r"<!-- calculators -->\n(.*?)\n<!-- /calculators -->", text, re.DOTALL).group(1)
    assert section == reference_markdown(), "update docs/engine.md with `rulings calc --markdown`"
