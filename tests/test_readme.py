"""The README's figures are the database's."""
import re
import sqlite3
from pathlib import Path

import pytest

from kb.report import engine_summary, markdown_table, source_summary
from support import REPO_DB

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("marker, summary", [("stats", source_summary), ("engine", engine_summary)])
def test_readme_tables_match_the_database(marker, summary):
    conn = sqlite3.connect(REPO_DB)
    conn.row_factory = sqlite3.Row
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = re.search(rf"<!-- {marker} -->\n(.*?)\n<!-- /{marker} -->", readme, re.S).group(1)
    assert table == markdown_table(summary(conn)), "update the README tables with `rulings stats`"
