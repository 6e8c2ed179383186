"""The figures the README and docs/engine.md print are the database's."""
import re
import sqlite3
from pathlib import Path

import pytest

from kb.report import engine_summary, markdown_table, source_summary
from support import REPO_DB

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("document, marker, summary", [("README.md", "stats", source_summary),
                                                        ("docs/engine.md", "engine", engine_summary)])
def test_documented_tables_match_the_database(document, marker, summary):
    conn = sqlite3.connect(REPO_DB)
    conn.row_factory = sqlite3.Row
    text = (ROOT / document).read_text(encoding="utf-8")
    table = re.search(rf"<!-- {marker} -->\n(.*?)\n<!-- /{marker} -->", text, re.S).group(1)
    assert table == markdown_table(summary(conn)), f"update the table in {document} with `rulings stats`"
