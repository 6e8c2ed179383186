"""Every executable example in sources/examples/ is a test whose id holds the ruling id it proves."""
from pathlib import Path

import pytest

from ingest.errors import IngestError
from ingest.scenarios import load_file, load_folder
from kb.verify import run_scenario

EXAMPLES = Path(__file__).resolve().parent.parent / "sources" / "examples"
SCENARIOS, REASONS = load_folder(EXAMPLES)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_ruling_holds_in_the_engine(scenario):
    status, actual, detail = run_scenario(scenario.call, scenario.args, scenario.expect)
    assert status == "passed", f"{scenario.file}:{scenario.line}: {detail}"


def test_scenario_naming_an_unknown_ruling_fails_ingest(tmp_path, built_db):
    import shutil
    from kb.build import DEFAULT_MANIFEST, build
    folder = tmp_path / "sources"
    shutil.copytree(Path(DEFAULT_MANIFEST).parent, folder)
    (folder / "examples").mkdir(exist_ok=True)
    (folder / "examples" / "zz-bad.toml").write_text(
        '[[scenario]]\nid = "ghost"\nruling = "dragon-dice/no/such/ruling"\ncall = "dice.roll"\nexpect = 1\n')
    with pytest.raises(IngestError) as error:
        build(tmp_path / "x.db", folder / "sources.toml")
    assert "zz-bad.toml:2" in str(error.value) and "dragon-dice/no/such/ruling" in str(error.value)
    assert not (tmp_path / "x.db").exists()


def test_scenario_file_entries_need_their_fields(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[scenario]]\nid = "x"\nruling = "a/b"\ncall = "not a call"\nexpect = 1\n')
    with pytest.raises(IngestError, match="module.function"):
        load_file(bad)
