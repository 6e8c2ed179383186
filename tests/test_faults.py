"""Faults: a `rulings add` killed at any moment, two adds at once, adds while `rulings serve` answers load.

The database is always the one before a write or the one after it, never a third; whatever a killed writer
left beside it is gone once the next command runs; a second writer waits its turn; and a reader never mixes
what it keeps in memory of one version of the file with the rows of another.
"""
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

from kb.locks import clear_stale, write_lock
from kb.build import add_document
from kb.cache import WriteInterrupted, open_readonly, reading
from kb.migrations import upgrade
from kb.search import ask
from kb.store import connect
from support import REPO_DB, ROOT
from support.load import run_load
from support.servers import RULINGS, raw_get, running_server

ZORBLAX = ("A) Zorblax tokens: a zorblax token counts as a quokka for every quokka rule.\n"
           "B) A zorblax token that leaves play returns to its owner's zorblax pool.\n"
           "C) No player may hold more than three zorblax tokens at once.\n")
QUESTION = "can a zorblax token count as a quokka"


@pytest.fixture
def database(tmp_path) -> Path:
    """A copy of the committed database, alone in its folder (documents go elsewhere)."""
    folder = tmp_path / "db"
    folder.mkdir()
    shutil.copy(REPO_DB, folder / "rulings.db")
    return folder / "rulings.db"


def document(tmp_path: Path, name: str, text: str = ZORBLAX) -> Path:
    path = tmp_path / f"{name}.txt"
    path.write_text(text, encoding="utf-8")
    return path


def beside(db: Path) -> list[str]:
    """Every file in the database's folder but the database: temp files, journals, lock files."""
    return sorted(name for name in os.listdir(db.parent) if name != db.name)


def source_ids(db: Path, rolled_back: bool = False) -> set[str]:
    """The sources `db` holds (read-only; `rolled_back`: read-write, rolling back a killed write's journal)."""
    conn = sqlite3.connect(db) if rolled_back else sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        assert conn.execute("pragma integrity_check").fetchone()[0] == "ok"
        return {row[0] for row in conn.execute("select id from sources")}
    finally:
        conn.close()


def rulings(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*RULINGS, *args], cwd=ROOT, capture_output=True, text=True, check=False,
                          env={**os.environ, **(env or {})})


def add_command(db: Path, doc: Path, game: str = "zorb") -> list[str]:
    return [*RULINGS, "add", str(doc), "--game", game, "--title", doc.stem.title(), "--db", str(db)]


# Moments of an add's run, each seen from outside as soon as it happens: (folder, the database's stat before) ->
# reached. It writes in place: its journal holds what it overwrites until it commits.
MOMENTS = {
    "the lock is taken": lambda folder, before: "rulings.db.lock" in os.listdir(folder),
    "the journal is open": lambda folder, before: "rulings.db-journal" in os.listdir(folder),
    "the database is being written": lambda folder, before: (
        os.stat(folder / "rulings.db").st_mtime_ns != before.st_mtime_ns),
}


def kill_at(command: list[str], db: Path, moment) -> int:
    """Run `command` and SIGKILL it at `moment` (a MOMENTS entry, or a delay in seconds); its exit status."""
    before = db.stat()
    child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if callable(moment):
        while child.poll() is None and not moment(db.parent, before):
            time.sleep(0.0005)
    else:
        time.sleep(moment)
    child.send_signal(signal.SIGKILL)
    return child.wait()


def as_read_next(db: Path, folder: Path) -> set[str]:
    """The sources the database holds as the next command reads it (a killed write rolled back), read from a
    copy of it and of its journal in `folder`, so that the database itself is left for that command."""
    folder.mkdir()
    for name in (db.name, db.name + "-journal"):
        if (db.parent / name).exists():
            shutil.copy(db.parent / name, folder / name)
    return source_ids(folder / db.name, rolled_back=True)


def next_commands(db: Path, tmp_path: Path):
    """Each command a user may run next, reading or writing the database (each ends without error)."""
    manifest = tmp_path / "manifest"
    manifest.mkdir()
    document(manifest, "house", "A) A retreating unit may not shoot.\n")
    (manifest / "sources.toml").write_text(
        '[games.house]\nname = "House"\n\n[[source]]\nid = "house"\nfile = "house.txt"\ngame = "house"\n'
        'title = "House rules"\nauthor = "us"\nkind = "house-rules"\nlanguage = "en"\nshape = "outline"\n')
    other = document(tmp_path, "errata", "A) Errata: a quokka may move twice in a turn.\n")
    first = sorted(source_ids(db))[0]  # named before any add is killed: its journal is for the command to meet

    def serve():
        with running_server(db) as (port, _):
            assert raw_get(port, "/api/games")[0] == 200

    return [lambda: rulings("ask", "can I cast a spell on an army in reserve", "--db", str(db)),
            lambda: rulings("add", str(other), "--game", "zorb", "--db", str(db)),
            lambda: rulings("remove", first, "--db", str(db)),
            serve,
            lambda: rulings("ingest", "--db", str(db), "--manifest", str(manifest / "sources.toml")),
            lambda: rulings("verify", "--db", str(db))]


@pytest.mark.slow
def test_an_add_killed_at_any_moment_leaves_the_database_whole_and_nothing_beside_it_after_the_next_command(
        database, tmp_path):
    doc = document(tmp_path, "zorblax")
    before, sources_before = database.read_bytes(), source_ids(database)
    timing = tmp_path / "timing" / "rulings.db"
    timing.parent.mkdir()
    shutil.copy(database, timing)
    start = time.monotonic()
    subprocess.run(add_command(timing, doc), cwd=ROOT, check=True, capture_output=True)
    duration = time.monotonic() - start
    rng = random.Random(23)
    moments = [*MOMENTS.items(), *((f"after {d:.2f} s", d) for d in (rng.uniform(0.3, 1.0) * duration
                                                                      for _ in range(5)))]
    commands = next_commands(database, tmp_path)
    for attempt, (name, moment) in enumerate(moments):
        status = kill_at(add_command(database, doc), database, moment)
        assert status in (-signal.SIGKILL, 0), name
        found = as_read_next(database, tmp_path / f"read-{attempt}")
        if found != sources_before:
            # Killed once it had committed (or it had finished): the database is the whole add.
            assert name not in list(MOMENTS)[:2], f"{name}: the add was visible before it committed"
            assert found == sources_before | {"zorblax"}, name
        else:
            assert status == -signal.SIGKILL, f"{name}: the add was not running at this moment"
        command = commands[attempt % len(commands)]
        done = command()
        assert done is None or done.returncode == 0, (name, done.stderr)
        assert beside(database) == [], f"killed when {name}; left after the next command"
        database.write_bytes(before)


@pytest.mark.slow
def test_two_adds_at_once_both_land_one_after_the_other(database, tmp_path):
    first, second = document(tmp_path, "zorblax"), document(tmp_path, "errata", "A) A quokka may move twice.\n")
    with write_lock(database):
        # Both start while another writer holds the database, so both wait, and then one waits for the other.
        adds = [subprocess.Popen(add_command(database, doc), cwd=ROOT, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for doc in (first, second)]
        time.sleep(3)
    outputs = [add.communicate() for add in adds]
    assert [add.returncode for add in adds] == [0, 0], outputs
    # The second applied its change to the database as the first left it.
    assert {"zorblax", "errata"} <= source_ids(database)
    assert beside(database) == []


def test_an_add_waits_a_bounded_time_for_another_writer_then_says_which_holds_the_database(database, tmp_path):
    before = database.read_bytes()
    with write_lock(database):
        start = time.monotonic()
        result = rulings("add", str(document(tmp_path, "zorblax")), "--game", "zorb", "--db", str(database),
                         env={"RULINGS_LOCK_WAIT": "1"})
        waited = time.monotonic() - start
    assert result.returncode != 0 and "Traceback" not in result.stderr
    message = result.stderr.strip()
    assert len(message.splitlines()) == 1
    assert str(database) in message and f"pid {os.getpid()}" in message
    assert "did not finish within 1 s" in message and "RULINGS_LOCK_WAIT" in message
    assert waited >= 1
    assert database.read_bytes() == before and beside(database) == []


def test_a_bad_lock_wait_is_refused_with_its_name(database, tmp_path):
    result = rulings("add", str(document(tmp_path, "zorblax")), "--game", "zorb", "--db", str(database),
                     env={"RULINGS_LOCK_WAIT": "soon"})
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "RULINGS_LOCK_WAIT='soon' is not a number of seconds" in result.stderr


def test_a_reader_clears_a_killed_writers_leftovers_but_never_a_running_writers(database):
    names = [".rulings.db.k1l2m3n4.tmp", ".rulings.db.k1l2m3n4.tmp-journal"]
    with write_lock(database, wait=0):  # a writer at work: its temp file and journal are its own
        for name in names:
            (database.parent / name).write_bytes(b"partial")
        clear_stale(database)
        assert beside(database) == sorted([*names, "rulings.db.lock"])
    # Another database's temp file (rulings.db.old's) is never this one's to remove.
    (database.parent / ".rulings.db.old.p5q6r7s8.tmp").write_bytes(b"partial")
    (database.parent / "rulings.db.lock").write_text("12345")  # as a killed writer leaves it
    clear_stale(database)
    assert beside(database) == [".rulings.db.old.p5q6r7s8.tmp"]


# A writer killed while it writes the file in place: its pages spill into the file early (a cache of one page), so
# the file is half written and its journal hot.
HALF_WRITE = ("import os, signal, sqlite3, sys; conn = sqlite3.connect(sys.argv[1], isolation_level=None); "
              "conn.execute('pragma cache_size = 1'); conn.execute('begin immediate'); "
              "conn.execute(\"update rulings set text = 'torn'\"); os.kill(os.getpid(), signal.SIGKILL)")


def half_written(db: Path) -> None:
    """Leave `db` as a writer killed half-way through writing it in place leaves it."""
    subprocess.run([sys.executable, "-c", HALF_WRITE, str(db)], check=False)
    assert beside(db) == ["rulings.db-journal"]


def test_a_reader_rolls_back_a_write_a_killed_writer_left_half_done(database):
    before = rows(database)
    half_written(database)
    conn = open_readonly(database)  # its first read meets the hot journal, and rolls it back first
    try:
        assert conn.execute("select count(*) from rulings where text = 'torn'").fetchone()[0] == 0
    finally:
        conn.close()
    assert beside(database) == [] and rows(database) == before


@pytest.fixture
def immutable_folder(database):
    """`database`'s folder, made immutable (chattr +i: nothing in it may be created, even by root) once a killed
    writer has left its write half done; skipped where folders cannot be made immutable (not root)."""
    half_written(database)
    if subprocess.run(["chattr", "+i", str(database.parent)], capture_output=True, check=False).returncode:
        pytest.skip("chattr +i is not allowed here")
    yield database.parent
    subprocess.run(["chattr", "-i", str(database.parent)], check=True)


def test_a_reader_that_cannot_roll_back_a_half_done_write_says_so_naming_the_file(database, immutable_folder):
    with pytest.raises(WriteInterrupted) as raised:
        connect(database)
    assert str(raised.value).startswith(f"{database.resolve()}: a write to it was interrupted")
    assert "rulings.db-journal" in str(raised.value) and "user who may write" in str(raised.value)
    result = rulings("stats", "--db", str(database))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "a write to it was interrupted" in result.stderr
    assert beside(database) == ["rulings.db-journal"]  # left for a reader or writer who may roll it back


def rows(db: Path) -> list[str]:
    """Every table's rows (and the schema) of `db`, as SQL (read-only: never rolling a journal back)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


# A writer in place that waits half a second for the reads under way to end, then says whether it committed.
COMMIT_IN_PLACE = ("import sqlite3, sys; conn = sqlite3.connect(sys.argv[1], timeout=0.5, isolation_level=None); "
                   "conn.execute('begin immediate'); "
                   "conn.execute(\"update meta set value = value where key = 'schema_version'\"); "
                   "conn.execute('commit'); print('committed')")


def test_opening_a_connection_keeps_the_locks_of_the_reads_under_way(database):
    conn = connect(database)
    try:
        with reading(conn):
            conn.execute("select count(*) from rulings").fetchone()
            # Another request opens its connection: were a descriptor of the file closed, every lock this
            # process holds on it would go, and a writer would commit under the read above.
            connect(database).close()
            done = subprocess.run([sys.executable, "-c", COMMIT_IN_PLACE, str(database)], capture_output=True,
                                  text=True, timeout=60)
            assert "database is locked" in done.stderr and "committed" not in done.stdout
    finally:
        conn.close()


def test_a_search_after_an_add_reads_the_new_version_not_the_memory_kept_of_the_old(database, tmp_path):
    conn = connect(database)
    try:
        before = [result["id"] for result in ask(conn, QUESTION)["results"]]  # what search keeps is loaded
        assert before and not any(ruling_id.startswith("zorb/") for ruling_id in before)
        add_document(database, document(tmp_path, "zorblax"), "zorb", "Zorblax")  # in place: the same file
        assert ask(conn, QUESTION)["results"][0]["id"].startswith("zorb/")
    finally:
        conn.close()


def test_an_add_commits_only_once_the_read_under_way_has_ended_which_reads_one_version_throughout(
        database, tmp_path):
    timing = tmp_path / "timing" / "rulings.db"
    timing.parent.mkdir()
    shutil.copy(database, timing)
    start = time.monotonic()
    add_document(timing, document(tmp_path, "zorblax"), "zorb", "Zorblax")
    duration = time.monotonic() - start
    conn = connect(database)
    try:
        with reading(conn):
            first = ask(conn, QUESTION)
            adder = threading.Thread(target=add_document, args=(database, document(tmp_path, "zorblax"), "zorb",
                                                                "Zorblax"))
            adder.start()
            held = time.monotonic() + 2 * duration + 1
            while time.monotonic() < held:
                assert ask(conn, QUESTION) == first
            assert adder.is_alive(), "the add committed while a read was under way"
        adder.join()
        assert ask(conn, QUESTION)["results"][0]["id"].startswith("zorb/")
    finally:
        conn.close()
    assert source_ids(database) >= {"zorblax"} and beside(database) == []


@pytest.mark.slow
def test_adds_while_serve_answers_load_cost_no_request_and_are_served_without_a_restart(database, tmp_path):
    docs = [document(tmp_path, name, ZORBLAX.replace("zorblax", name)) for name in ("zorblax", "vexlar", "quibbet")]
    questions = [QUESTION, "can a vexlar token count as a quokka", "how many quibbet tokens may a player hold",
                 "can I cast a spell on an army in reserve", "what happens when a character moves"]
    with running_server(database) as (port, process):
        done = []
        adder = threading.Thread(target=lambda: done.extend(
            subprocess.run(add_command(database, doc, game=doc.stem), cwd=ROOT, capture_output=True, text=True)
            for doc in docs))
        adder.start()
        answered, failed = 0, 0
        while adder.is_alive() or answered < 300:
            latencies, errors = run_load(port, total=40, clients=4, qs=questions)
            answered, failed = answered + len(latencies), failed + errors
        adder.join()
        assert [add.returncode for add in done] == [0, 0, 0], [add.stderr for add in done]
        assert failed == 0, f"{failed} of {answered} requests failed"
        assert process.poll() is None
        for doc in docs:  # the server answers from the new database at once
            status, body = raw_get(port, "/api/search?" + urllib.parse.urlencode({"q": f"{doc.stem} token quokka"}))
            assert status == 200
            assert json.loads(body)["results"][0]["id"].startswith(f"{doc.stem}/"), doc.stem


def test_a_database_whose_path_holds_uri_characters_is_the_file_read(tmp_path):
    folder = tmp_path / "rules #1?%20"
    folder.mkdir()
    db = folder / "rulings.db"
    shutil.copy(REPO_DB, db)
    assert upgrade(db) == []  # read, so already this release's: nothing to write
    conn = connect(db)
    try:
        assert ask(conn, "can I cast a spell on an army in reserve")["results"][0]["id"].startswith("dragon-dice/")
    finally:
        conn.close()
    assert sorted(os.listdir(tmp_path)) == [folder.name], "no stray file at the path's first characters"
