"""Reading a document stays within its budget (ingest.budget, ingest.limits): every hostile document of issue 23
ends `rulings add` within 60 s and 1 GB with one line naming the file and the limit, exit status 2 and the
database byte-identical, or (an odd but legitimate document) is added within those bounds; the limits are
settable; no failure of `rulings add` is a traceback."""
from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner

from ingest import limits
from ingest.budget import read_within
from ingest.errors import IngestError
from ingest.limits import Limits
from ingest.text import read_bounded
from service.cli import cli
from support import REPO_DB, REPO_MANIFEST, ROOT
from support.hostile import FIFO, GAME, cases, names_the_file, run, says_the_limit, write

CASES = [case.name for case in cases(Path("corpus"))]
PARALLEL = 2  # the slowest cases take their whole time budget: two side by side fit in a few minutes


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    """`rulings add` of every hostile document, each into its own copy of the committed database: {name:
    (outcome, the database's bytes before, the copy's path)}."""
    folder = tmp_path_factory.mktemp("hostile")
    before = REPO_DB.read_bytes()

    def add(case):
        db = folder / "databases" / f"{case.name}.db"
        db.parent.mkdir(exist_ok=True)
        db.write_bytes(before)
        return case.name, (run(case, db, timeout=120), before, db)

    with ThreadPoolExecutor(PARALLEL) as pool:
        return dict(pool.map(add, write(folder / "documents")))


@pytest.mark.slow
@pytest.mark.parametrize("name", CASES)
def test_a_hostile_document_is_refused_in_one_line_or_added_within_60_s_and_1_gb(outcomes, name):
    outcome, before, db = outcomes[name]
    assert outcome.seconds < 60, outcome
    assert outcome.peak_mb < 1024, outcome
    assert "Traceback" not in outcome.stderr, outcome.stderr
    if outcome.status == 0 and outcome.case.legitimate:
        with closing(sqlite3.connect(db)) as conn:
            added = conn.execute("select group_concat(text, '') from rulings where game = ?", [GAME]).fetchone()[0]
        assert added and "\x00" not in added
        return
    assert outcome.status == 2, outcome
    assert len(outcome.stderr.strip().splitlines()) == 1, outcome.stderr
    assert names_the_file(outcome) and says_the_limit(outcome), outcome.stderr
    assert db.read_bytes() == before


def _document(tmp_path: Path, text: str = "1. Movement\n1.1 A unit moves two squares.\n") -> Path:
    path = tmp_path / "rules.txt"
    path.write_text(text)
    return path


def test_reading_past_the_time_limit_is_refused_naming_the_file_and_how_to_raise_it(tmp_path):
    path = _document(tmp_path)
    with pytest.raises(IngestError, match=r"rules.txt: reading it took more than 1 s .*--limit seconds="):
        read_within(Limits(seconds=1, seconds_per_mb=0), [path], time.sleep, 120)


def test_reading_past_the_memory_limit_is_refused_naming_the_limit(tmp_path):
    path = _document(tmp_path)
    with pytest.raises(IngestError, match=r"rules.txt: reading it needed more than 300 MB of memory .*memory_mb"):
        read_within(Limits(memory_mb=300), [path], lambda: bytearray(400 * 2**20))


def test_reading_that_recurses_without_end_is_refused_as_nested_too_deeply(tmp_path):
    def deeper(n):
        return deeper(n + 1) + 1

    with pytest.raises(IngestError, match="nested too deeply"):
        read_within(Limits(), [_document(tmp_path)], deeper, 0)


def test_a_readers_refusal_and_result_come_back_from_the_reading_process(tmp_path):
    path = _document(tmp_path)

    def refuse():
        raise IngestError(str(path), "no rulings found", 3)

    with pytest.raises(IngestError) as refused:
        read_within(Limits(), [path], refuse)
    assert (refused.value.path, refused.value.message, refused.value.line) == (str(path), "no rulings found", 3)
    assert read_within(Limits(), [path], os.getpid) != os.getpid()
    assert read_within(Limits(depth=7), [path], lambda: limits.current().depth) == 7


def test_a_readers_bug_comes_back_as_an_error_with_its_traceback(tmp_path):
    with pytest.raises(RuntimeError, match=r"rules.txt: reading it failed: KeyError: 'x'") as bug:
        read_within(Limits(), [_document(tmp_path)], lambda: {}["x"])
    assert "Traceback" in "".join(bug.value.__notes__)


def test_what_the_reading_writes_on_stdout_or_stderr_is_not_shown(tmp_path, capfd):
    def chatty():
        os.write(1, b"chatter\n")
        os.write(2, b"Ignoring wrong pointing object 1 0\n")
        return "read"

    assert read_within(Limits(), [_document(tmp_path)], chatty) == "read"
    assert capfd.readouterr() == ("", "")


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/urandom", FIFO])
def test_devices_and_pipes_are_refused_without_reading_them(tmp_path, path):
    if path == FIFO:
        path = tmp_path / FIFO
        os.mkfifo(path)
    with pytest.raises(IngestError, match="not a regular file"):
        read_bounded(Path(path), 10, "text_mb")
    with pytest.raises(IngestError, match="not a regular file"):
        read_within(Limits(), [Path(path)], lambda: None)


def test_a_file_is_read_no_further_than_its_limit(tmp_path):
    path = _document(tmp_path, "x" * 3 * 2**20)
    with pytest.raises(IngestError, match=r"rules.txt: file is too large \(3.0 MB; the limit is 2 MB: raise it "
                                          r"with --limit text_mb=\.\.\. or RULINGS_LIMIT_TEXT_MB\)"):
        read_bounded(path, 2, "text_mb")
    assert len(read_bounded(path, 3, "text_mb")) == 3 * 2**20


def add(*args: str, env: dict | None = None):
    return CliRunner().invoke(cli, ["add", *args, "--game", GAME], env=env)


@pytest.fixture
def db(tmp_path) -> Path:
    copy = tmp_path / "rulings.db"
    shutil.copy(REPO_DB, copy)
    return copy


def test_limits_are_set_by_option_or_environment_and_refusals_are_one_line_with_status_2(tmp_path, db):
    path = _document(tmp_path, "1. Movement\n" + "1.1 A unit moves two squares.\n" * 2000)
    before = db.read_bytes()
    by_option = add(str(path), "--db", str(db), "--limit", "text_mb=0.01")
    by_environment = add(str(path), "--db", str(db), env={"RULINGS_LIMIT_TEXT_MB": "0.01"})
    for result in (by_option, by_environment):
        assert result.exit_code == 2
        assert result.output.splitlines() == [f"Error: {path}: file is too large ({path.stat().st_size / 2**20:.1f} "
                                              f"MB; the limit is 0.01 MB: raise it with --limit text_mb=... or "
                                              f"RULINGS_LIMIT_TEXT_MB)"]
    assert db.read_bytes() == before
    assert add(str(path), "--db", str(db), "--limit", "text_mb=1", env={"RULINGS_LIMIT_TEXT_MB": "0.01"}).exit_code == 0


def test_ingest_reads_the_manifests_documents_within_the_limits_too(tmp_path):
    db = tmp_path / "rulings.db"
    result = CliRunner().invoke(cli, ["ingest", "--db", str(db), "--manifest", str(REPO_MANIFEST),
                                      "--limit", "text_mb=0.001"])
    assert result.exit_code == 2 and len(result.output.splitlines()) == 1
    assert "file is too large" in result.output and "--limit text_mb=" in result.output
    assert not db.exists()


@pytest.mark.parametrize("setting, says", [
    ("text_mb", "--limit 'text_mb': say NAME=VALUE"),
    ("pages=3", "--limit: unknown limit 'pages'"),
    ("depth=deep", "--limit: limit depth must be a number, not 'deep'"),
    ("seconds=0", "--limit: limit seconds must be positive"),
])
def test_a_bad_limit_is_refused_in_one_line(tmp_path, db, setting, says):
    result = add(str(_document(tmp_path)), "--db", str(db), "--limit", setting)
    assert result.exit_code == 2 and len(result.output.splitlines()) == 1 and says in result.output


def test_a_database_that_is_not_one_fails_in_one_line(tmp_path):
    broken = tmp_path / "broken.db"
    broken.write_text("not a database\n" * 100)
    result = add(str(_document(tmp_path)), "--db", str(broken))
    assert result.exit_code != 0 and len(result.output.splitlines()) == 1 and "broken.db" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.serial
def test_an_interrupted_add_says_so_in_one_line_and_leaves_no_reading_process(tmp_path, db):
    rules = "".join(f"1.{n} A unit moves {n} squares, unless another rule says otherwise.\n" for n in range(100_000))
    path = _document(tmp_path, "1. Movement\n" + rules)
    before = db.read_bytes()
    # Ctrl-C reaches a command a shell runs in the foreground; a test run started in the background by a
    # non-interactive shell ignores SIGINT, which its children would inherit.
    command = subprocess.Popen([sys.executable, "-m", "service.cli", "add", str(path), "--game", GAME, "--db",
                                str(db)], cwd=ROOT, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    reading = _child_of(command)
    command.send_signal(signal.SIGINT)  # as Ctrl-C would, but to the command alone: it must end its reading
    _, stderr = command.communicate(timeout=30)
    assert (command.returncode, stderr.splitlines()) == (130, ["Error: interrupted"])  # the message shows on failure
    assert db.read_bytes() == before
    # Gone, not left reading: an orphan the command did not wait for is reaped by init a moment after it exits.
    deadline = time.monotonic() + 2  # far shorter than reading the document takes
    while Path(f"/proc/{reading}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not Path(f"/proc/{reading}").exists()


def _child_of(command: subprocess.Popen) -> int:
    """The first process `command` starts (the one reading the document), once it has."""
    children = Path(f"/proc/{command.pid}/task/{command.pid}/children")
    while command.poll() is None:
        if found := children.read_text().split():
            return int(found[0])
        time.sleep(0.01)
    raise AssertionError(f"the command ended ({command.returncode}) before reading")
