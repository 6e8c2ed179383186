"""Every executable example in sources/examples/ is a test whose id holds the ruling id it proves."""
from pathlib import Path

import pytest

from ingest.errors import IngestError
from ingest.scenarios import load_file, load_folder
from kb.verify import run_scenario
from support import REPO_MANIFEST

EXAMPLES = Path(__file__).resolve().parent.parent / "sources" / "examples"
SCENARIOS, REASONS = load_folder(EXAMPLES)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_ruling_holds_in_the_engine(scenario):
    status, actual, detail = run_scenario(scenario.call, scenario.args, scenario.expect)
    assert status == "passed", f"{scenario.file}:{scenario.line}: {detail}"


def test_scenario_naming_an_unknown_ruling_fails_ingest(tmp_path, built_db):
    import shutil

    from kb.build import build
    folder = tmp_path / "sources"
    shutil.copytree(REPO_MANIFEST.parent, folder)
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


def test_a_scenario_on_a_ruling_declared_not_checkable_fails_ingest(tmp_path):
    from ingest.scenarios import check_links
    bad = tmp_path / "both.toml"
    bad.write_text('[[unexecutable]]\nruling = "g/intro"\nreason = "Introduces the rules under it."\n\n'
                   '[[scenario]]\nid = "x"\nruling = "g/intro"\ncall = "dice.roll"\nexpect = 1\n')
    scenarios, reasons = load_file(bad)
    with pytest.raises(IngestError, match="not checkable") as error:
        check_links(scenarios, reasons, {"g/intro"}, set(), tmp_path)
    assert "both.toml:6" in str(error.value)


def test_every_scenario_says_in_words_what_it_checks():
    assert all(len(s.description) > 20 for s in SCENARIOS), [s.id for s in SCENARIOS if len(s.description) <= 20]


@pytest.mark.parametrize("ruling", ["paths-of-the-lance/optional-rules/b", "paths-of-the-lance/new-sequence-of-play"])
def test_an_introduction_whose_points_are_rulings_of_their_own_is_not_checkable(ruling):
    # "The winter turn affects several aspects of the fighting" states nothing an example could check; each
    # aspect is a ruling under it with its own scenarios.
    assert ruling in REASONS and not [s for s in SCENARIOS if s.ruling == ruling]
    assert [s for s in SCENARIOS if s.ruling.startswith(ruling + "/")]
