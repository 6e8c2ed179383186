"""Every command says a fault in one line, never a traceback: a damaged database (garbage in its middle, or a file
that is no database), a full disk, an argument that is not UTF-8, a date that does not exist."""
import hashlib
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys

import pytest
from click.testing import CliRunner

from service.app import create_app
from service.cli import cli
from support import ROOT

SOURCE = "dragon-dice-faq-magic"
COMMANDS = {
    "ask": ["ask", "Can a reserve army double its magic?"],
    "eval": ["eval", str(ROOT / "tests" / "dev_questions.jsonl")],
    "verify": ["verify"],
    "versions": ["versions", SOURCE],
    "diff": ["diff", SOURCE],
    "stats": ["stats"],
    "migrate": ["migrate"],
    "remove": ["remove", SOURCE],
    "serve": ["serve", "--port", "1"],  # refused before it would listen
    "browse": ["browse", "--port", "1"],
}


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def garbled(built_db, tmp_path_factory):
    """A copy of the database with 64 KiB of garbage written over it at a quarter, a half and three quarters of its
    length: most pages still read, and wherever the tables a search reads lie in the file, some of theirs do not."""
    path = tmp_path_factory.mktemp("garbled") / "rulings.db"
    shutil.copy(built_db, path)
    size = path.stat().st_size
    with open(path, "r+b") as file:
        for at in (size // 4, size // 2, 3 * size // 4):
            file.seek(at)
            file.write(bytes(range(256)) * 256)
    return path


@pytest.fixture(scope="module")
def not_a_database(tmp_path_factory):
    path = tmp_path_factory.mktemp("text") / "rulings.db"
    path.write_text("these are my notes, not a database\n" * 100)
    return path


def one_line_refusal(result) -> str:
    """The error line of a CliRunner result that failed as a command should: exit status 1, no exception."""
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    return lines[0]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("database", ["garbled", "not_a_database"])
def test_every_command_says_in_one_line_that_the_database_is_damaged(command, database, request):
    path = request.getfixturevalue(database)
    before = digest(path)
    result = CliRunner().invoke(cli, [*COMMANDS[command], "--db", str(path)])
    line = one_line_refusal(result)
    assert f"{path}: the database is damaged" in line and "rulings ingest" in line
    assert digest(path) == before


def test_the_web_app_answers_a_damaged_database_with_a_503_that_says_so(garbled):
    client = create_app(garbled).test_client()
    response = client.get("/api/search?q=Can+a+reserve+army+double+its+magic%3F")
    assert response.status_code == 503
    assert "The database is damaged" in response.get_json()["error"]["message"]
    page = client.get("/?q=Can+a+reserve+army+double+its+magic%3F")
    assert page.status_code == 503 and b"The database is damaged" in page.data


def _disk_full_at(size: int):
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead of killing
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


def test_a_verify_on_a_full_disk_is_one_line_and_leaves_the_database(built_db, tmp_path):
    path = tmp_path / "rulings.db"
    shutil.copy(built_db, path)
    before = digest(path)
    done = subprocess.run([sys.executable, "-m", "service.cli", "verify", "--db", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          preexec_fn=_disk_full_at(path.stat().st_size // 2))
    assert done.returncode == 1, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and done.stderr.startswith("Error: "), done.stderr
    assert "Traceback" not in done.stderr
    assert digest(path) == before
    assert not [p for p in tmp_path.iterdir() if p.name != "rulings.db"]  # no temp file left


@pytest.mark.parametrize("full_at", [0.5, 0.01])
def test_a_remove_on_a_full_disk_is_one_line_and_the_next_command_reads_the_database_as_it_was(
        built_db, tmp_path, full_at):
    path = tmp_path / "rulings.db"
    shutil.copy(built_db, path)
    before = rows(path)
    # Full past half the file: the remove fails as it commits, and its rollback too (every write past the limit
    # fails, as no full disk would), which leaves its journal hot. Full at once: its journal cannot be written.
    done = subprocess.run([sys.executable, "-m", "service.cli", "remove", SOURCE, "--db", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          preexec_fn=_disk_full_at(int(path.stat().st_size * full_at)))
    assert done.returncode == 1, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and done.stderr.startswith("Error: "), done.stderr
    assert "Traceback" not in done.stderr
    read = subprocess.run([sys.executable, "-m", "service.cli", "stats", "--db", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert read.returncode == 0, read.stderr
    assert not [p for p in tmp_path.iterdir() if p.name != "rulings.db"]  # its journal rolled back, and gone
    assert rows(path) == before


def rows(path) -> list[str]:
    """Every table's rows (and the schema), as SQL."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def test_an_argument_that_is_not_utf8_is_refused_in_one_line():
    done = subprocess.run([sys.executable, "-m", "service.cli", "ask", b"caf\xe9 rules?"], cwd=ROOT,
                          capture_output=True, timeout=60, env={**os.environ, "LC_ALL": "C.UTF-8"})
    assert done.returncode == 2
    assert b"Traceback" not in done.stderr
    assert b"Error: the argument 'caf\\xe9 rules?' is not UTF-8 text" in done.stderr


@pytest.mark.parametrize("day", ["2025-02-30", "2025-13-01", "2025-1-1", "yesterday"])
def test_ask_refuses_a_date_that_does_not_exist_as_the_api_does(built_db, day):
    result = CliRunner().invoke(cli, ["ask", "Can a reserve army double its magic?", "--as-of", day,
                                      "--db", str(built_db)])
    assert result.exit_code == 2 and "--as-of" in result.stderr
    response = create_app(built_db).test_client().get(f"/api/search?q=magic&as_of={day}")
    assert response.status_code == 400
