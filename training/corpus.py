"""The training library: the project's own sources and every document of ../shared/corpora, ingested into one
database the way `rulings add` ingests them, so the pairs come from the structure ingest finds.

The game of a document the corpus questions cover is the questions' `game` (the held-out unit of the
evaluation: a game's documents leave training together); any other document's game is its file name without
its date or version. An older edition of a document already in the library (a file whose name differs only
by its date or version) is skipped: its rules would repeat the current edition's.
"""
from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import replace
from pathlib import Path

from kb.evaluate import load_questions

FORMATS = {".txt", ".md", ".html", ".pdf"}
_VERSION = re.compile(r"(?:[-_ ]v?\d+(?:[.-]\d+)*)+$")
# The read's time limit, raised: the 128-page Netrunner PDF reads in ~10 s of its 17 s alone, and over it on two
# cores shared with other work; building the library (or measuring structure) measures no speed.
READ_SECONDS = 120


def name_key(path: Path) -> str:
    """A document's name without its date or version ("rules-2025-02-28" and "rules-2.2.0" → "rules")."""
    return _VERSION.sub("", path.stem)


def library(corpora: Path, corpus_questions: Path) -> list[tuple[Path, str]]:
    """(file, game) of every document of `corpora` (its subfolders included), one edition of each."""
    games = {item["doc"]: item["game"] for item in load_questions(corpus_questions)}
    files = sorted((p for p in corpora.rglob("*") if p.suffix in FORMATS and p.name.lower() != "readme.md"),
                   key=lambda p: (p.stem not in games, p.suffix == ".pdf", p.name))
    chosen: dict[str, tuple[Path, str]] = {}
    for path in files:
        chosen.setdefault(name_key(path), (path, games.get(path.stem, name_key(path))))
    return sorted(chosen.values())


@contextmanager
def without_vectors() -> Iterator[None]:
    """Ingest with zero vectors instead of the model's: the structure is the same and the add 3-4x faster (pairs,
    and the structure measures, need only the structure)."""
    import numpy as np

    import kb.embeddings
    real = kb.embeddings.encode
    kb.embeddings.encode = lambda texts: np.zeros((len(texts), kb.embeddings.DIMENSIONS), np.float32)
    try:
        yield
    finally:
        kb.embeddings.encode = real


def build(base: Path, target: Path, documents: list[tuple[Path, str]], vectors: bool = False) -> dict[Path, dict]:
    """A copy of database `base` at `target` with every document added (with zero vectors unless `vectors`); each
    document's ingest report. A document that fails to read is reported on stdout and left out."""
    from ingest.errors import IngestError
    from ingest.limits import from_environment
    from kb.build import add_document

    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(base, target)
    limits = replace(from_environment(), seconds=READ_SECONDS)
    reports = {}
    with nullcontext() if vectors else without_vectors():
        for path, game in documents:
            try:
                reports[path] = add_document(target, path, game, limits=limits)
                print(json.dumps({"document": path.name, "game": game, "rulings": reports[path].get("rulings")}))
            except IngestError as error:
                print(json.dumps({"document": path.name, "game": game, "error": str(error)}))
    return reports
