"""Shared fixtures: a database freshly built from the real sources (once per test session)."""
from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

import pytest

from support import CORPORA, EVAL, LORCANA_EDITIONS, LORCANA_RULES, REPO_MANIFEST

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")



@pytest.fixture(scope="session")
def built_db(tmp_path_factory) -> Path:
    """rulings.db built by `kb.build.build` from the checkout's sources/sources.toml into a temp folder."""
    from kb.build import build
    path = tmp_path_factory.mktemp("db") / "rulings.db"
    build(path, REPO_MANIFEST)
    return path


@pytest.fixture(scope="session")
def conn(built_db):
    from kb.store import connect
    connection = connect(built_db)
    yield connection
    connection.close()


@pytest.fixture(scope="module")
def seeds_library(conn):
    """The question corpus's documents that rulings.db holds (its own sources), read as its checker reads a library
    (`training.questions.Library`)."""
    from training.questions import Library, documents
    conn.execute("create temp table if not exists question_documents (doc text primary key, source text)")
    conn.execute("delete from temp.question_documents")
    conn.executemany("insert into temp.question_documents values (?, ?)",
                     [(d.doc, d.source) for d in documents() if d.source])
    yield Library(conn)
    conn.execute("drop table temp.question_documents")


@pytest.fixture(scope="session")
def seeds_plus(built_db, tmp_path_factory):
    """`seeds_plus(game, text)`: a copy of the seeds' database with one more document (`text`, added as game
    `game` with `rulings add`'s library function), its path."""
    import shutil

    from kb.build import add_document

    def add(game: str, text: str) -> Path:
        folder = tmp_path_factory.mktemp(game)
        path = folder / "rulings.db"
        shutil.copy(built_db, path)
        (folder / f"{game}.txt").write_text(text, encoding="utf-8")
        add_document(path, folder / f"{game}.txt", game)
        return path
    return add


@pytest.fixture(scope="session")
def editions_db(built_db, tmp_path_factory) -> Path:
    """A copy of the seeds' database with the three editions of the Lorcana comprehensive rules (the publisher's
    PDFs in ../shared/corpora) added in date order: one source, LORCANA_RULES, with three versions. Skips when
    ../shared is not beside the clone."""
    import shutil

    from kb.build import add_document
    if not CORPORA.is_dir():
        pytest.skip(f"{CORPORA} is not beside the clone")
    path = tmp_path_factory.mktemp("editions") / "rulings.db"
    shutil.copy(built_db, path)
    for edition in LORCANA_EDITIONS:
        add_document(path, CORPORA / f"{LORCANA_RULES}-{edition}.pdf", "lorcana")
    return path


@pytest.fixture(scope="session")
def corpora_db(built_db, tmp_path_factory) -> Path:
    """A copy of the seeds' database with every document the corpus development questions are about
    (../shared/eval/corpora_dev_questions.jsonl; the files of ../shared/corpora) added as `rulings add FILE --game
    GAME` adds it: the library those questions are asked of. Skips when ../shared is not beside the clone."""
    import shutil

    from kb.build import add_document
    from support.documents import question_documents
    if not CORPORA.is_dir() or not EVAL.is_dir():
        pytest.skip(f"{CORPORA} or {EVAL} is not beside the clone")
    from ingest.limits import from_environment
    path = tmp_path_factory.mktemp("corpora") / "rulings.db"
    shutil.copy(built_db, path)
    # A library to ask, not a test of reading time: a machine busy with other work must not fail its adds.
    patient = from_environment().with_settings({"seconds": "600"})
    for file, game in question_documents(EVAL / "corpora_dev_questions.jsonl"):
        add_document(path, file, game, limits=patient)
    return path


def _letters(text: str) -> str:
    return re.sub(r"[\W\d_]", "", unicodedata.normalize("NFKC", text)).lower()  # a ligature "ﬁ" cites "fi"


@pytest.fixture(scope="session")
def span_fault():
    """A check that a cited span holds its ruling: `span_fault(original, start, end, text)` is None when
    original[start:end] opens with the text's first letters (give or take a doubled word) and holds all its letters in order (cleaning only
    removes: page furniture, doubled words, the spaces of split words, list and table markup; a table's header
    may be column names a manifest gave), else why not."""
    def fault(original: str, start: int, end: int, text: str) -> str | None:
        lines = text.split("\n")
        text = "\n".join(line for before, line in zip([""] + lines, lines)  # without each table's header row
                          if not (line.startswith("|") and not before.startswith("|")))
        span, want = _letters(original[start:end]), _letters(text)
        if not 0 <= start <= end <= len(original):
            return f"span {start}-{end} is outside the text ({len(original)} characters)"
        if want[:12] not in span[:36]:  # a doubled word may open the span ("PARALYSIS PARALYSIS –")
            return f"the span opens {original[start:start + 40]!r}, not {text[:40]!r}"
        remaining = iter(span)
        if not all(letter in remaining for letter in want):
            return "the span does not hold the whole text"
        return None
    return fault
