"""Finding games and engine modules by name (the engine's own and installed plugins'), resolving scenario
calls, and the plain form of engine results."""
import dataclasses
import enum
import re
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine import calculators, dice, dragon_dice, registry
from engine.registry import GameError, games, load_module, plain, resolve_call
from kb.verify import run_scenario
from service.cli import cli


def test_the_games_are_the_engine_modules_that_declare_one():
    assert games() == ("chess", "dragon-dice", "dungeon-twister", "magic-combat-dice", "paths-of-the-lance",
                       "wizard-dice")
    for game in games():
        assert load_module(game).GAME == game


def test_a_game_slug_and_its_module_name_load_the_same_module():
    assert load_module("dragon-dice") is load_module("dragon_dice") is dragon_dice


def test_every_game_has_an_engine_module_with_calculators():
    for game in games():
        assert load_module(game).CALCULATORS, game


def test_shared_modules_load_by_name():
    assert load_module("dice") is dice


def test_a_call_resolves_to_the_engine_function_it_names():
    assert resolve_call("dragon_dice.saves") is dragon_dice.saves


@pytest.mark.parametrize("call, error", [("dragon_dice.nothing", AttributeError),
                                         ("no_such_game.saves", ModuleNotFoundError),
                                         ("saves", ValueError)])
def test_a_call_naming_nothing_in_the_engine_raises(call, error):
    with pytest.raises(error):
        resolve_call(call)


class Colour(enum.Enum):
    RED = "red"


@dataclasses.dataclass(frozen=True)
class Result:
    colours: tuple
    seen: frozenset


def test_plain_turns_results_into_json_data():
    result = {1: Result((Colour.RED, 2), frozenset({"b", "a"}))}
    assert plain(result) == {"1": {"colours": ["red", 2], "seen": ["a", "b"]}}



# -- plugin games: a distribution installed on the path, found through the `rulings.games` entry point ---------

KNIGHTFALL = '''
    """Knightfall, a game a third party adds to the engine."""
    from typing import Annotated

    from engine.calculators import Calculator, Param

    GAME = "knightfall"


    def charge(lances: Annotated[int, Param("lances in the charge", min=1, max=6)],
               braced: Annotated[bool, Param("the defenders braced their spears")] = False) -> dict:
        """The hits a charge scores."""
        return {"hits": 0 if braced else 2 * lances}


    CALCULATORS = {
        "charge": Calculator(charge, ("knightfall/rules/charge",),
                             lambda inputs, result: f"The charge scores {result['hits']} hits."),
    }
'''


def install_plugin(folder, monkeypatch, name: str, files: dict[str, str], games: dict[str, str]) -> None:
    """Write distribution `name` into `folder` as pip would install it: its `files` (path → source) and a
    .dist-info whose entry points name the modules of `games` (slug → module) in the rulings.games group;
    then put `folder` on the path (importlib.metadata reads the .dist-info there)."""
    for path, source in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(textwrap.dedent(source), encoding="utf-8")
    info = folder / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[rulings.games]\n" + "".join(f"{slug} = {module}\n" for slug, module in games.items()), encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))
    for module in games.values():  # imported afresh, forgotten afterwards
        for loaded in [m for m in sys.modules if m == module or module.startswith(m + ".")]:
            monkeypatch.delitem(sys.modules, loaded)


def install_module(folder, monkeypatch, module: str, source: str) -> None:
    """A plugin distribution of one module, named after it."""
    install_plugin(folder, monkeypatch, module, {f"{module}.py": source}, {module: module})


@pytest.fixture
def discovery():
    """Games discovered afresh in the test, and again (without its plugins) after it."""
    registry._games.cache_clear()
    calculators.describe.cache_clear()
    yield
    registry._games.cache_clear()
    calculators.describe.cache_clear()


@pytest.fixture
def knightfall(tmp_path, monkeypatch, discovery):
    install_module(tmp_path, monkeypatch, "knightfall", KNIGHTFALL)


def test_an_installed_plugin_game_is_listed_with_the_engines_own(knightfall):
    assert games() == ("chess", "dragon-dice", "dungeon-twister", "knightfall", "magic-combat-dice",
                       "paths-of-the-lance", "wizard-dice")
    assert calculators.find_game("Knightfall") == "knightfall"
    assert list(calculators.describe()["knightfall"]) == ["charge"]


def test_a_plugin_games_calculator_runs_and_validates(knightfall):
    answer = calculators.run("knightfall", "charge", {"lances": "3"})
    assert answer["answer"] == "The charge scores 6 hits."
    assert answer["rulings"] == ["knightfall/rules/charge"]
    with pytest.raises(calculators.CalcError, match="from 1 to 6"):
        calculators.run("knightfall", "charge", {"lances": "9"})


def test_a_plugin_games_calculator_runs_from_the_cli(knightfall):
    result = CliRunner().invoke(cli, ["calc", "knightfall", "charge", "lances=2", "braced=yes"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("The charge scores 0 hits.")
    listing = CliRunner().invoke(cli, ["calc"])
    assert "knightfall" in listing.output and "charge" in listing.output


def test_a_scenario_calls_a_plugin_games_function_by_name(knightfall):
    assert resolve_call("knightfall.charge") is load_module("knightfall").charge
    assert run_scenario("knightfall.charge", {"lances": 2}, {"hits": 4}) == ("passed", {"hits": 4}, "")


def test_a_plugin_that_declares_no_game_is_refused_naming_its_entry_point(tmp_path, monkeypatch, discovery):
    install_module(tmp_path, monkeypatch, "nameless", "CALCULATORS = {}\n")
    with pytest.raises(GameError, match=r"plugin game 'nameless' \(nameless, entry point group rulings.games\) "
                                        r"declares no GAME"):
        games()


def test_a_plugin_taking_an_engine_games_slug_is_refused(tmp_path, monkeypatch, discovery):
    install_module(tmp_path, monkeypatch, "impostor", 'GAME = "dragon-dice"\n')
    with pytest.raises(GameError, match="declares GAME = 'dragon-dice', which engine.dragon_dice already is"):
        games()


def test_a_plugin_that_fails_to_import_is_refused_with_why(tmp_path, monkeypatch, discovery):
    install_module(tmp_path, monkeypatch, "broken", "import no_such_module_anywhere\n")
    with pytest.raises(GameError, match="'broken' .* cannot be imported: ModuleNotFoundError"):
        games()


def test_a_plugin_with_an_unbounded_calculator_is_refused_naming_the_parameter(tmp_path, monkeypatch, discovery):
    install_module(tmp_path, monkeypatch, "endless", KNIGHTFALL.replace('GAME = "knightfall"', 'GAME = "endless"')
                   .replace("min=1, max=6", "min=1"))
    with pytest.raises(GameError, match="'endless' .* cannot be imported: DeclarationError: endless.charge: "
                                        "parameter 'lances' declares no min and max"):
        games()


def test_the_plugin_guides_example_is_a_working_game(tmp_path, monkeypatch, discovery):
    guide = (Path(__file__).resolve().parents[2] / "docs" / "plugins.md").read_text(encoding="utf-8")
    blocks = dict(re.findall(r"```(toml|python)\n(.*?)```", guide, re.DOTALL))
    project = tomllib.loads(blocks["toml"])["project"]
    games_declared = project["entry-points"]["rulings.games"]
    (module,) = games_declared.values()
    package = module.rpartition(".")[0]
    install_plugin(tmp_path, monkeypatch, project["name"],
                   {f"{package}/__init__.py": "", module.replace(".", "/") + ".py": blocks["python"]}, games_declared)
    (slug,) = games_declared
    assert slug in games() and load_module(slug).__name__ == module
    result = CliRunner().invoke(cli, ["calc", slug, "charge", "lances=3"])
    assert result.output == "The charge scores 6 hits.\nDecided by: knightfall/rules/charge\n"
