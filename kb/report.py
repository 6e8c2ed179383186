"""Figures about the knowledge base, for the README, docs/engine.md and the `rulings stats` command."""
from __future__ import annotations

import sqlite3

from engine.registry import games


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


def engine_summary(conn: sqlite3.Connection) -> list[dict]:
    """Per game: rulings, how many the engine checks (every example agrees), how many are not checkable (with
    a reason), how many are not checked or disagree, and the scenarios run (as of the last `rulings verify`);
    for a game the engine does not have, "no engine for this game"."""
    engines = set(games())
    rows = [dict(r) for r in conn.execute("""
        select g.slug as game, count(st.ruling_id) as rulings,
          sum(st.status = 'passed') as checked,
          sum(st.status = 'not-executable') as "not checkable",
          sum(st.status not in ('passed', 'not-executable')) as "not checked or disagreeing",
          (select count(*) from examples e join rulings r on r.id = e.ruling_id
             where r.game = g.slug and e.kind = 'scenario') as scenarios,
          printf('%d%%', 100 * sum(st.status = 'passed') / count(st.ruling_id)) as linked
        from games g join ruling_status st on st.game = g.slug group by g.slug order by g.rowid""")]
    with_engine = [row for row in rows if row["game"] in engines]
    for row in rows:
        if row["game"] not in engines:  # nothing could check its rulings: say so rather than count them unchecked
            row.update({key: "-" for key in ("checked", "not checkable", "scenarios", "linked")},
                       **{"not checked or disagreeing": "no engine for this game"})
    if with_engine:
        total = {key: sum(r[key] for r in with_engine) for key in with_engine[0] if key not in ("game", "linked")}
        label = "all" if len(with_engine) == len(rows) else "all with an engine"
        rows.append({"game": label, **total, "linked": f"{100 * total['checked'] // total['rulings']}%"})
    return rows


def markdown_table(rows: list[dict]) -> str:
    """Rows of dicts as a Markdown table (keys of the first row as columns)."""
    if not rows:
        return ""
    columns = list(rows[0])
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    lines += ["| " + " | ".join(str(row[c]) for c in columns) + " |" for row in rows]
    return "\n".join(lines)
