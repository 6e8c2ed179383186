"""Figures about the knowledge base, for the README and the `rulings stats` command."""
from __future__ import annotations

import sqlite3


def source_summary(conn: sqlite3.Connection) -> list[dict]:
    """Per source: how many rulings, examples, tables and gaps it yielded."""
    return [dict(r) for r in conn.execute("""
        select s.id as source, s.game, s.language,
          (select count(*) from rulings r where r.source = s.id) as rulings,
          (select count(*) from examples e join rulings r on r.id = e.ruling_id
             where r.source = s.id and e.kind = 'source') as examples,
          (select count(*) from rule_tables t where t.source = s.id) as tables,
          (select count(*) from gaps g where g.source = s.id) as gaps
        from sources s order by s.rowid""")]


def markdown_table(rows: list[dict]) -> str:
    """Rows of dicts as a Markdown table (keys of the first row as columns)."""
    if not rows:
        return ""
    columns = list(rows[0])
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    lines += ["| " + " | ".join(str(row[c]) for c in columns) + " |" for row in rows]
    return "\n".join(lines)
