"""Bad documents and manifests: one clear error naming the file (and line), a non-zero exit, nothing lost."""
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ingest.errors import IngestError
from kb.build import build
from service.cli import cli
from support import REPO_MANIFEST

SOURCES = REPO_MANIFEST.parent


@pytest.fixture(scope="module")
def built_workspace(tmp_path_factory, built_db):
    """A copy of sources/ and a database rebuilt from it (over a copy of the session's, whose vectors it
    reuses), once for the module."""
    folder = tmp_path_factory.mktemp("workspace") / "sources"
    shutil.copytree(SOURCES, folder, ignore=shutil.ignore_patterns("examples"))
    db = folder.parent / "rulings.db"
    shutil.copy(built_db, db)
    build(db, folder / "sources.toml")
    return folder, db


@pytest.fixture
def workspace(tmp_path, built_workspace):
    """A copy of `built_workspace` (sources/ and the database rebuilt from it), to break things in."""
    folder, db = tmp_path / "sources", tmp_path / "rulings.db"
    shutil.copytree(built_workspace[0], folder)
    shutil.copy(built_workspace[1], db)
    return folder, db


def ingest(folder: Path, db: Path):
    return CliRunner().invoke(cli, ["ingest", "--db", str(db), "--manifest", str(folder / "sources.toml")])


@pytest.mark.parametrize("damage, message", [
    (lambda f: f.unlink(), "file not found"),
    (lambda f: f.write_bytes(b""), "file is empty"),
    (lambda f: f.write_bytes(b"   \n\n  "), "file is empty"),
    (lambda f: f.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 50), "binary"),
    (lambda f: f.write_bytes(bytes(range(1, 32)) * 400), "binary or undecodable"),
])
def test_broken_document_fails_naming_the_file_and_keeps_the_database(workspace, damage, message):
    folder, db = workspace
    before = db.read_bytes()
    damage(folder / "001_ffda817ed1982c66.txt")
    result = ingest(folder, db)
    assert result.exit_code != 0
    assert "001_ffda817ed1982c66.txt" in result.output and message in result.output
    assert db.read_bytes() == before
    assert not list(db.parent.glob(".rulings.db.*.tmp")), "no temp file is left behind"


@pytest.mark.parametrize("edit, message, marker", [
    (lambda t: t.replace('kind = "official-faq"', 'kind = "rumour"'), "field 'kind' must be one of", 'kind = "rumour"'),
    (lambda t: t.replace('game = "dungeon-twister"\n', 'game = "backgammon"\n'), "unknown game 'backgammon'", 'game = "backgammon"'),
    (lambda t: t.replace('title = "Magic Combat with Dice Rules"\n', ""), "field 'title' is missing",
     'id = "magic-combat-dice-rules"'),
    (lambda t: t.replace('shape = "doc"', 'shape = "scroll"'), "field 'shape' must be one of", 'shape = "scroll"'),
    (lambda t: t + "\n[[source]\n", "invalid TOML", "[[source]\n"),
    (lambda t: t.replace('description = "The Attack Table', 'summary = "The Attack Table'),
     "each [[source.gaps]] needs a 'description'", 'id = "magic-combat-dice-rules"'),
])
def test_bad_manifest_entry_fails_naming_the_manifest_and_line(workspace, edit, message, marker):
    folder, db = workspace
    manifest = folder / "sources.toml"
    manifest.write_text(edit(manifest.read_text(encoding="utf-8")), encoding="utf-8")
    text = manifest.read_text(encoding="utf-8")
    line = text[:text.rindex(marker)].count("\n") + 1
    before = db.read_bytes()
    result = ingest(folder, db)
    assert result.exit_code != 0
    assert message in result.output
    assert f"sources.toml:{line}:" in result.output
    assert db.read_bytes() == before


def test_manifest_error_line_points_at_the_bad_field(workspace):
    folder, _ = workspace
    text = (folder / "sources.toml").read_text(encoding="utf-8").replace('kind = "official-faq"', 'kind = "rumour"')
    (folder / "sources.toml").write_text(text, encoding="utf-8")
    from ingest.manifest import load_manifest
    with pytest.raises(IngestError) as error:
        load_manifest(folder / "sources.toml")
    assert text.splitlines()[error.value.line - 1] == 'kind = "rumour"'
    assert error.value.path.endswith("sources.toml")


@pytest.mark.parametrize("encoding", ["cp1252", "latin-1"])
def test_non_utf8_text_is_decoded_not_rejected(workspace, encoding):
    folder, db = workspace
    path = folder / "001_ffda817ed1982c66.txt"
    text = path.read_text(encoding="utf-8").replace("Last Updated", "Last Updated — café")
    path.write_bytes(text.replace("—", "-" if encoding == "latin-1" else "—").encode(encoding))
    assert ingest(folder, db).exit_code == 0
    import sqlite3
    about = sqlite3.connect(db).execute(
        "select text from rulings where id = 'dungeon-twister/clarifications/front-matter/about'").fetchone()[0]
    assert "café" in about


def test_ingest_reports_what_it_wrote(workspace):
    folder, db = workspace
    result = ingest(folder, db)
    assert result.exit_code == 0
    assert "7 sources" in result.output and "rulings" in result.output


def test_a_declared_gap_that_cannot_be_placed_fails_naming_the_document(workspace):
    folder, db = workspace
    manifest = folder / "sources.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        'at = "Attack Table to determine success"', 'at = "a phrase the rules never use"'), encoding="utf-8")
    before = db.read_bytes()
    result = ingest(folder, db)
    assert result.exit_code != 0
    assert "002_4037a7feb80c46c0.txt" in result.output and "a phrase the rules never use" in result.output
    assert db.read_bytes() == before
