"""Hostile documents and interrupted ingests: rulings or one clear IngestError, never a traceback, a hang,
unbounded memory or a damaged database."""
import multiprocessing
import os
import random
import re
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest.errors import IngestError
from ingest.manifest import SourceEntry
from ingest.pipeline import parse_source
from ingest.shapes import SHAPES
from kb.atomic import atomic_database
from kb.locks import write_lock
from kb.build import add_document, build
from support import REPO_MANIFEST

ROOT = Path(__file__).resolve().parent.parent
SHAPE_NAMES = list(SHAPES)


def parse_bytes(tmp_path: Path, data: bytes, shape: str):
    path = tmp_path / f"doc-{shape}.txt"
    path.write_bytes(data)
    entry = SourceEntry(id="doc", file=path.name, game="game", title="Doc", author="", kind="rulebook",
                        language="en", shape=shape)
    return parse_source(entry, tmp_path)


def parses_or_refuses(tmp_path, data: bytes, shape: str) -> None:
    try:
        parsed = parse_bytes(tmp_path, data, shape)
    except IngestError as error:
        assert "doc-" in str(error)  # names the file
        return
    for ruling in parsed.rulings:
        assert ruling.text.strip()
        assert 0 <= ruling.citation.char_start <= ruling.citation.char_end


LINE = st.one_of(
    st.text(max_size=80),
    st.sampled_from(["A) ", "1) ", "100.1a ", "Q: ", "A: ", "EXAMPLE: ", "***", "# ", "Page 1 of 2", "  12. ",
                     "Table of Contents", "Intro……1", "see Nowhere", "(see pg. 3 under X)", "Round 1", "- "]).flatmap(
        lambda prefix: st.text(max_size=40).map(lambda rest: prefix + rest)),
)


@settings(max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(LINE, max_size=40), shape=st.sampled_from(SHAPE_NAMES))
def test_random_documents_give_rulings_or_a_clear_error(tmp_path, lines, shape):
    parses_or_refuses(tmp_path, "\n".join(lines).encode("utf-8", "surrogatepass"), shape)


@settings(max_examples=60, deadline=2000, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=2000), shape=st.sampled_from(SHAPE_NAMES))
def test_random_bytes_give_rulings_or_a_clear_error(tmp_path, data, shape):
    parses_or_refuses(tmp_path, data, shape)


@pytest.mark.parametrize("shape", SHAPE_NAMES)
def test_truncated_sources_still_parse(tmp_path, shape):
    text = (ROOT / "sources" / "000_088e7e94a27c7b38.txt").read_bytes()
    for cut in (1, 17, 500, 3001, len(text) // 2, len(text) - 3):
        parses_or_refuses(tmp_path, text[:cut], shape)


def test_mixed_encodings_are_decoded(tmp_path):
    data = "Déjà vu: A) café rules.\n".encode() + "B) naïve ruling – 2€.\n".encode("cp1252")
    parsed = parse_bytes(tmp_path, data, "outline")
    # Not UTF-8 as a whole, so the file is read as cp1252: its cp1252 line exactly, its UTF-8 line as the
    # characters cp1252 gives those bytes. "A)" inside a line starts no item: line 1 is front matter.
    assert [(r.id, r.text) for r in parsed.rulings] == [
        ("game/front-matter/1", "DÃ©jÃ vu: A) cafÃ© rules."),
        ("game/b", "naïve ruling – 2€."),
    ]


def test_a_50_mb_document_is_refused_quickly(tmp_path):
    path = tmp_path / "doc-outline.txt"
    with open(path, "wb") as out:
        out.write(b"A) The same ruling again and again. " * (50 * 1024 * 1024 // 36))
    start = time.monotonic()
    with pytest.raises(IngestError, match="too large"):
        parse_bytes(tmp_path, path.read_bytes(), "outline")
    assert time.monotonic() - start < 10


@pytest.mark.slow
@pytest.mark.parametrize("shape", SHAPE_NAMES)
def test_large_pathological_documents_finish_in_bounded_time_and_memory(tmp_path, shape):
    one_line_no_spaces = "x" * 300_000
    nested = "\n".join(f"{'*' * (i % 5 + 2)} {'A) ' * (i % 7)}{i}.{i}.{i}a ((((( [[[ Q: A: EXAMPLE:"
                       for i in range(20_000))
    spaces = "** a" + " " * 200_000 + "b"
    for text in (one_line_no_spaces, nested, spaces, "Word " * 400_000, "Aa Bb. " * 200_000):
        elapsed, peak, failure = apart(parses_or_refuses, tmp_path, text.encode(), shape)
        assert failure is None, (shape, text[:20], failure)
        assert elapsed < 60, (shape, text[:20], elapsed)
        assert peak < 60 * len(text) + 50_000_000, (shape, text[:20], peak)


def _memory(field: str) -> int:
    """This process's `field` of /proc/self/status (VmRSS: resident now, VmHWM: its peak), in bytes."""
    status = Path("/proc/self/status").read_text()
    return int(re.search(rf"^{field}:\s+(\d+) kB", status, re.M).group(1)) * 1024


def _measure(send, function, args) -> None:
    try:
        before, start = _memory("VmRSS"), time.process_time()
        function(*args)
        send.send((time.process_time() - start, _memory("VmHWM") - before, None))
    except BaseException as error:  # noqa: BLE001 - the parent asserts on it
        send.send((0.0, 0, f"{type(error).__name__}: {error}"))


def apart(function, *args) -> tuple[float, int, str | None]:
    """`function(*args)` in a forked child: its CPU seconds (not wall time: a busy machine must not fail a bound,
    and a catastrophic regex or quadratic loop still takes far longer), how far its resident memory grew past
    what it had at the start (untraced: tracemalloc's tracing tripled the time), and what it raised, if
    anything."""
    receive, send = multiprocessing.get_context("fork").Pipe(duplex=False)
    child = multiprocessing.get_context("fork").Process(target=_measure, args=(send, function, args))
    child.start()
    outcome = receive.recv()
    child.join()
    return outcome


@pytest.fixture
def workspace(tmp_path, built_db):
    """A copy of sources/ and a database rebuilt from it (over a copy of the session's, whose vectors it reuses)."""
    folder = tmp_path / "sources"
    shutil.copytree(REPO_MANIFEST.parent, folder)
    db = tmp_path / "rulings.db"
    shutil.copy(built_db, db)
    build(db, folder / "sources.toml")
    return folder, db


INGEST = [sys.executable, "-c", "import sys; from kb.build import build; build(sys.argv[1], sys.argv[2])"]


def _built(db: Path) -> tuple:
    """When the database was built (its log of changes says), and how many sources and rulings it holds."""
    conn = sqlite3.connect(db)
    try:
        return (conn.execute("select applied_at from changesets where action = 'build'").fetchone(),
                *conn.execute("select (select count(*) from sources), (select count(*) from rulings)").fetchone())
    finally:
        conn.close()


@pytest.mark.slow
def test_ingest_killed_at_any_point_leaves_the_database_byte_identical(workspace):
    folder, db = workspace
    before, built = db.read_bytes(), _built(db)
    timing = db.parent / "timing.db"
    shutil.copy(db, timing)
    start = time.monotonic()
    subprocess.run(INGEST + [str(timing), str(folder / "sources.toml")], check=True, cwd=ROOT)
    duration = time.monotonic() - start
    rng = random.Random(7)
    for attempt in range(8):
        child = subprocess.Popen(INGEST + [str(db), str(folder / "sources.toml")], cwd=ROOT)
        time.sleep(rng.uniform(0.05, 1.0) * duration)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        if child.returncode == 0 or _built(db) != built:
            # It finished first, or was killed between replacing the database and exiting: the database is the
            # whole new build, whose log says when it was applied.
            assert _built(db)[1:] == _built(timing)[1:], f"attempt {attempt}"
            before, built = db.read_bytes(), _built(db)
            continue
        assert db.read_bytes() == before, f"attempt {attempt}"
    build(db, folder / "sources.toml")
    # A killed writer's temp files, their journals and its lock file are removed by the next ingest.
    assert sorted(p.name for p in db.parent.iterdir()) == ["rulings.db", "sources", "timing.db"]


@pytest.mark.slow
def test_a_second_ingest_at_once_waits_its_turn_then_gives_up_with_a_clear_message(workspace):
    folder, db = workspace
    before = db.read_bytes()
    with write_lock(db):
        result = subprocess.run([sys.executable, "-m", "service.cli", "ingest", "--db", str(db),
                                 "--manifest", str(folder / "sources.toml")], capture_output=True, text=True,
                                cwd=ROOT, check=False, env={**os.environ, "RULINGS_LOCK_WAIT": "0.5"})
    assert result.returncode != 0
    assert "another write" in result.stderr and str(os.getpid()) in result.stderr
    assert "did not finish within 0.5 s" in result.stderr
    assert db.read_bytes() == before
    assert not (db.parent / "rulings.db.lock").exists(), "neither the holder nor the refused writer leaves it"


def test_a_finished_ingest_leaves_no_lock_file(workspace):
    _, db = workspace
    assert sorted(p.name for p in db.parent.iterdir()) == ["rulings.db", "sources"]


RACER = """
import os, sys
from pathlib import Path
from kb.locks import write_lock
from model.errors import FileError
db = Path(sys.argv[1])
held = 0
for _ in range(300):
    try:
        with write_lock(db, wait=0):
            os.close(os.open(db.with_name("inside"), os.O_CREAT | os.O_EXCL))  # fails if another holds it too
            os.unlink(db.with_name("inside"))
            held += 1
    except FileError:
        pass
print(held)
"""


def test_writers_racing_for_the_lock_never_hold_it_at_once(tmp_path):
    db = tmp_path / "rulings.db"
    racers = [subprocess.Popen([sys.executable, "-c", RACER, str(db)], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outputs = [racer.communicate() for racer in racers]
    assert all(racer.returncode == 0 for racer in racers), outputs
    assert sum(int(out) for out, _ in outputs) >= 20  # taken over and over (how often, load decides), never at once
    assert not any(tmp_path.iterdir())


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.slow
def test_the_database_keeps_its_permissions_across_ingest_and_add(workspace, tmp_path):
    folder, db = workspace
    db.chmod(0o640)
    build(db, folder / "sources.toml")
    assert mode(db) == 0o640
    (tmp_path / "house.txt").write_text("A) A unit that retreats may not shoot in the same turn.\n")
    add_document(db, tmp_path / "house.txt", "house", "House rules")
    assert mode(db) == 0o640


def test_a_new_database_gets_the_permissions_of_any_new_file(tmp_path):
    umask = os.umask(0o027)
    try:
        with atomic_database(tmp_path / "new.db") as db:
            db["notes"].insert({"text": "new"})
    finally:
        os.umask(umask)
    assert mode(tmp_path / "new.db") == 0o640
