"""The README's figures are the database's."""
import re
import sqlite3

from kb.build import DEFAULT_DB
from kb.report import engine_summary, markdown_table, source_summary
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_source_table_matches_the_database():
    conn = sqlite3.connect(DEFAULT_DB)
    conn.row_factory = sqlite3.Row
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = re.search(r"<!-- stats -->\n(.*?)\n<!-- /stats -->", readme, re.S).group(1)
    assert table == markdown_table(source_summary(conn)), "update the README table with `rulings stats`"


def test_readme_engine_table_matches_the_database():
    conn = sqlite3.connect(DEFAULT_DB)
    conn.row_factory = sqlite3.Row
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = re.search(r"<!-- engine -->\n(.*?)\n<!-- /engine -->", readme, re.S).group(1)
    assert table == markdown_table(engine_summary(conn)), "update the README table with `rulings stats`"
