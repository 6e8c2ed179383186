"""The README's calculator reference is generated from the engine's declarations."""
import re
from pathlib import Path

from engine.calculators import reference_markdown

ROOT = Path(__file__).resolve().parent.parent


def test_readme_calculator_reference_matches_the_declarations():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"<!-- calculators -->\n(.*?)\n<!-- /calculators -->", readme, re.DOTALL).group(1)
    assert section == reference_markdown(), "update the README with `rulings calc --markdown`"
