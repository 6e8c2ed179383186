"""Shared fixtures: a database freshly built from the real sources, and the real documents of ../shared/corpora
added to copies of it, each built once per test session and shared read-only (a test that writes copies one).

The markers (pyproject.toml) split the suite: `browser` (tests/browser, marked here), `corpus` (the documents of
../shared/corpora, and any test using a database built from them), `slow` (a test of several seconds on its own);
`make test-fast` leaves out all three."""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from functools import cache
from pathlib import Path

import pytest

from support import CORPORA, LORCANA_EDITIONS, LORCANA_RULES, REPO_DB, REPO_MANIFEST, documents

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")


def pytest_configure(config):
    """Each real document read once per run, whichever reader and process asks (support.documents.reading_once):
    the first process of the run (xdist's controller, or pytest alone) makes the folder of reads that the workers
    it starts share, and removes it at the end."""
    from ingest import formats
    formats.read = documents.reading_once
    if not os.environ.get(documents.SHARED_READS):
        config._shared_reads = tempfile.mkdtemp(prefix="rulings-reads-")
        documents.share_reads(Path(config._shared_reads))


def pytest_unconfigure(config):
    if folder := getattr(config, "_shared_reads", None):
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop(documents.SHARED_READS, None)

# Session fixtures whose database is built from ../shared/corpora: a test using one is a corpus test.
CORPUS_FIXTURES = {"lorcana_editions", "editions_db"}


@pytest.hookimpl(tryfirst=True)  # before `-m` reads the marks
def pytest_collection_modifyitems(config, items):
    browser = Path(__file__).parent / "browser"
    for item in items:
        if Path(item.fspath).is_relative_to(browser):
            item.add_marker(pytest.mark.browser)
        if CORPUS_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.corpus)


# Under pytest-xdist (`make test`: -n 2 --dist loadscope) tests go to the workers as below (`_scope`): whatever is
# costly to make is made once, on the worker that runs every test using it.
SHARED = {
    # the Lorcana editions' database: the modules naming its fixtures, and the browser tests (servers over it)
    "editions": tuple(CORPUS_FIXTURES),
    # real documents read, parsed and added whole, once a process (support.documents, support.structure_facts)
    "documents": ("documents.parsed(", "documents.document(", "support.structure_facts import",
                  "read_document(CORPORA"),
    # the database built from nothing, every passage embedded (conftest's fresh_build)
    "fresh": ("fresh_build",),
}


@cache
def _scope(module: str) -> str:
    """The unit of work of a test module (its path from the rootdir) for xdist: its group of SHARED when its source
    names what the group shares; each test alone in a module of slow or corpus tests with no module or class
    fixture to make once (long tests spread over both workers); else the module."""
    path = Path(__file__).parent.parent / module
    source = path.read_text(encoding="utf-8") if path.is_file() else ""
    if "tests/browser/" in module:
        return "editions"
    for group, signs in SHARED.items():
        if any(sign in source for sign in signs):
            return group
    if re.search(r"mark\.slow|needs_corpora", source) and not re.search(r"scope=.(module|class)", source):
        return ""
    return module


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """With --dist loadscope: xdist's scheduling by scope, each scope as `_scope` says."""
    from xdist.scheduler import LoadScopeScheduling

    if config.getoption("dist") != "loadscope":
        return None

    class SharedScopes(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _scope(nodeid.split("::", 1)[0]) or nodeid

    return SharedScopes(config, log)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def shared(path: Path):
    """Hand out the database at `path` to every test of the session, then check that none wrote to it (a test that
    changes a database works on its own copy: shutil.copy, never a new ingest)."""
    before = _digest(path)
    yield path
    assert _digest(path) == before, f"{path}: a test wrote to this shared database; it should change a copy"


@pytest.fixture(scope="session")
def built_db(tmp_path_factory) -> Path:
    """rulings.db rebuilt by `kb.build.build` from the checkout's sources/sources.toml over a copy of the committed
    one, as `make ingest` rebuilds it: every row from the sources, the vectors of unchanged passages reused (the
    model is not loaded for them; tests/test_repo_database.py checks the committed ones against a build from
    nothing). Shared, read-only."""
    from kb.build import build
    path = tmp_path_factory.mktemp("db") / "rulings.db"
    shutil.copy(REPO_DB, path)
    build(path, REPO_MANIFEST)
    yield from shared(path)


FRESH_BUILD = ("import sys; from kb.build import build; build(sys.argv[1], sys.argv[2]); "
               "print(sorted({'torch', 'sentence_transformers', 'transformers'} & set(sys.modules)))")


@pytest.fixture(scope="session")
def fresh_build(tmp_path_factory) -> tuple[Path, str]:
    """rulings.db built by `kb.build.build` from the committed sources into an empty folder, every passage embedded
    anew (built_db reuses the committed vectors, as `make ingest` does), in a Python process of its own: (its path,
    the last line that process printed: which of torch, sentence_transformers and transformers it imported)."""
    path = tmp_path_factory.mktemp("fresh") / "rulings.db"
    run = subprocess.run([sys.executable, "-c", FRESH_BUILD, str(path), str(REPO_MANIFEST)], capture_output=True,
                         text=True, check=True, cwd=REPO_DB.parent)
    return path, run.stdout.splitlines()[-1]


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
    `game` with `rulings add`'s library function), its path. Each (game, text) is added once per session; every
    call gets its own copy of that database, to change as it likes."""
    from kb.build import add_document
    added: dict[tuple[str, str], Path] = {}

    def add(game: str, text: str) -> Path:
        folder = tmp_path_factory.mktemp(game)
        path = folder / "rulings.db"
        if (game, text) not in added:
            kept = tmp_path_factory.mktemp(f"{game}-added") / "rulings.db"
            shutil.copy(built_db, kept)
            (kept.parent / f"{game}.txt").write_text(text, encoding="utf-8")
            add_document(kept, kept.parent / f"{game}.txt", game)
            added[game, text] = kept
        shutil.copy(added[game, text], path)
        return path
    return add


@pytest.fixture(scope="session")
def lorcana_editions(built_db, tmp_path_factory) -> tuple[Path, list[dict]]:
    """A copy of the seeds' database with the three editions of the Lorcana comprehensive rules (the publisher's
    PDFs in ../shared/corpora) added in date order, vectors and all: one source, LORCANA_RULES, with three versions.
    (its path, each addition's report). Built once per session and shared, read-only. Skips when ../shared is not
    beside the clone."""
    from kb.build import add_document
    if not CORPORA.is_dir():
        pytest.skip(f"{CORPORA} is not beside the clone")
    path = tmp_path_factory.mktemp("editions") / "rulings.db"
    shutil.copy(built_db, path)
    files = [CORPORA / f"{LORCANA_RULES}-{edition}.pdf" for edition in LORCANA_EDITIONS]
    for file in files:  # read here, so that each add's forked reader, and any later add of it, finds it read
        documents.document(file)
    reports = [add_document(path, file, "lorcana") for file in files]
    for _ in shared(path):
        yield path, reports


@pytest.fixture(scope="session")
def editions_db(lorcana_editions) -> Path:
    """The path of `lorcana_editions`' database (shared, read-only)."""
    return lorcana_editions[0]


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
