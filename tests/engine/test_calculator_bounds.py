"""Every calculator input bounded (issue 29): the bounds declared with the calculator and required of it, refused
before any work in the API, the web form and the CLI alike, each calculator's largest accepted input answered
within its time and memory, and a fuzz over the declared bounds finding no server error, no traceback and no
answer slower than the issue's 2 s."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Annotated

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.calculators import (
    TRUE_WORDS,
    Calculator,
    DeclarationError,
    Param,
    Spec,
    calculators,
    describe,
    specs,
)
from engine.registry import games
from service.app import create_app
from service.cli import cli
from support import REPO_DB, ROOT
from support.calcs import ISSUE_BLACK_MAGIC, cases, largest

CALCULATORS = [(game, calc) for game in games() for calc in calculators(game)]
IDS = [f"{game}:{calc}" for game, calc in CALCULATORS]
SECONDS = 2.0       # the most one request may take (the issue's bound; the real figures are milliseconds)
PEAK_MB = 200       # the most memory one calculator may hold at once (the largest takes under 1 MB)
HUGE = "9" * 4300   # the longest integer text Python parses by default: five calculators once answered 500
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}


@pytest.fixture(scope="module")
def client():
    return create_app(REPO_DB).test_client()


def api(client, game: str, calc: str, params: dict[str, str]):
    """The API's answer to one calculator request and the seconds it took."""
    started = time.perf_counter()
    response = client.get(f"/api/calc/{game}/{calc}", query_string=params)
    return response, time.perf_counter() - started


def command(game: str, calc: str, params: dict[str, str]):
    """`rulings calc` run in-process on one request, and the seconds it took."""
    started = time.perf_counter()
    result = CliRunner().invoke(cli, ["calc", game, calc, *(f"{k}={v}" for k, v in params.items()),
                                      "--db", str(REPO_DB)])
    return result, time.perf_counter() - started


def assert_refused_in_one_line(result, *says: str) -> None:
    assert result.exit_code == 2 and isinstance(result.exception, (SystemExit, type(None))), result.output
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1, result.output
    assert all(words in result.output for words in says), result.output


def integer_params(game: str, calc: str) -> list[str]:
    return [name for name, spec in specs(calculators(game)[calc].function).items()
            if (spec.item or spec.kind) is int]


# --- declared with the calculator, and required ----------------------------------------------------------

def test_every_parameter_declares_its_bounds():
    for game, declared in describe().items():
        for calc, calculator in declared.items():
            for name, p in calculator["params"].items():
                where = f"{game} {calc} {name}"
                if p["type"].startswith("integer"):
                    assert None not in (p["min"], p["max"]), where
                if p["type"].endswith("list"):
                    assert p["count"] and p["count"][1] is not None, where
                if p["type"].startswith("string") and not p["choices"]:
                    assert p["length"], where


def _open_count(n: Annotated[int, Param("n", min=0)]) -> dict:
    """An integer without a maximum."""


def _open_list(n: Annotated[list[int], Param("n", min=0, max=9)]) -> dict:
    """A list without a most items."""


def _open_text(n: Annotated[str, Param("n")]) -> dict:
    """Free text without a length."""


@pytest.mark.parametrize("function, lacks", [(_open_count, "min and max"), (_open_list, "count"),
                                             (_open_text, "length")])
def test_a_declaration_without_bounds_is_refused_when_its_calculator_is_made(function, lacks):
    with pytest.raises(DeclarationError, match=f"parameter 'n' declares no {lacks}"):
        Calculator(function, ("knightfall/rules/charge",), lambda inputs, result: "")


# --- the cases of the issue, rerun as written ----------------------------------------------------------------

ISSUE_CASES = [("dungeon-twister", "reveal", {"characters": "1000000000"}, "characters", "from 0 to 25"),
               ("dragon-dice", "black-magic", ISSUE_BLACK_MAGIC, "black_points", "from 0 to 500")]


@pytest.mark.parametrize("game, calc, params, param, range_", ISSUE_CASES, ids=["reveal", "black-magic"])
def test_the_issues_requests_are_refused_at_once_in_the_api_and_the_web_form(client, game, calc, params, param,
                                                                             range_):
    response, seconds = api(client, game, calc, params)
    assert response.status_code == 400 and seconds < SECONDS
    assert f"parameter {param!r}" in response.get_json()["error"]["message"]
    assert range_ in response.get_json()["error"]["message"]
    page = client.get(f"/calc/{game}", query_string={"calc": calc, **params})
    assert page.status_code == 400 and range_ in page.get_data(as_text=True)


@pytest.mark.parametrize("game, calc", [(game, calc) for game, calc in CALCULATORS if integer_params(game, calc)],
                         ids=[f"{game}:{calc}" for game, calc in CALCULATORS if integer_params(game, calc)])
def test_a_4300_digit_integer_is_refused_unread_saying_the_range(client, game, calc):
    accepted = largest(game, calc)
    for name in integer_params(game, calc):
        for huge in (HUGE, "-" + HUGE, HUGE + "9", HUGE * 30):
            response, seconds = api(client, game, calc, {**accepted, name: huge})
            assert response.status_code == 400 and seconds < SECONDS, (name, response.status_code)
            message = response.get_json()["error"]["message"]
            assert message.startswith(f"parameter {name!r}: '9999") or message.startswith(f"parameter {name!r}: '-99")
            assert "a whole number from " in message and len(message) < 2000
        result, seconds = command(game, calc, {**accepted, name: HUGE})
        assert_refused_in_one_line(result, f"parameter {name!r}", "a whole number from ")
        assert seconds < SECONDS


def test_the_issues_requests_are_one_line_and_exit_2_at_the_terminal():
    requests = [[game, calc, *(f"{k}={v}" for k, v in params.items())] for game, calc, params, *_ in ISSUE_CASES]
    requests.append(["magic-combat-dice", "mulligan", f"hand_size={HUGE}", "mulligans=2"])
    children = [subprocess.Popen([sys.executable, "-m", "service.cli", "calc", *args, "--db", str(REPO_DB)],
                                 cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for args in requests]
    for child, says in zip(children, ["from 0 to 25", "from 0 to 500", "from 0 to 100"]):
        out, err = child.communicate(timeout=60)
        assert child.returncode == 2 and out == ""
        assert err.startswith("Error: parameter ") and err.count("\n") == 1 and says in err, err


# --- the largest accepted input of each calculator ------------------------------------------------------------

MEASURE = """
import json
from support.calcs import cases, measure
print(json.dumps([[label, game, calc, measure(game, calc, params)] for label, game, calc, params in cases()]))
"""


@pytest.mark.serial  # each answer timed against its bound: alone, not beside the other worker
def test_the_largest_input_of_every_calculator_answers_within_its_time_and_memory(client):
    child = subprocess.run([sys.executable, "-c", MEASURE], cwd=ROOT, env=ENV, capture_output=True, text=True,
                           timeout=120)
    assert child.returncode == 0, child.stderr
    measured = json.loads(child.stdout)
    assert {(game, calc) for label, game, calc, _ in measured if label == "largest"} == set(CALCULATORS)
    for label, game, calc, figures in measured:
        assert figures["answered"], (label, game, calc, figures)
        assert figures["seconds"] < SECONDS and figures["peak_mb"] < PEAK_MB, (label, game, calc, figures)
    for label, game, calc, params in cases():  # and the same through the API
        response, seconds = api(client, game, calc, params)
        assert response.status_code == 200 and seconds < SECONDS, (label, game, calc)


# --- a fuzz over the declared bounds ------------------------------------------------------------------------

ODD = ["", " ", ",", ",,,", "1,,2", " 3 ", "+3", "-0", "1_0", "0x10", "1e3", "3.0", "٣", "５", "²", "½", "NaN",
       "∞", "true", "no", "None", "null", "[]", "{}", "'", '"', "\\", "\x00", "\u202e1", "🐉", "1;2", "%", "%00",
       "1 2", "１,２", "9" * 4301, "1," * 5000, "a" * 10000]
words = st.text(st.characters(exclude_categories=("Cs",)), max_size=30)


def _item(spec: Spec):
    """Values of one item: inside, at and just beyond the declared bounds, and what the type does not take."""
    p, kind = spec.param, spec.item or spec.kind
    if p.choices:
        inside = st.sampled_from(p.choices) | st.sampled_from(p.choices).map(str.upper) | \
            st.sampled_from(p.choices).map(lambda name: name[:3])
    elif kind is bool:
        inside = st.sampled_from(TRUE_WORDS + ("false", "no", "0", "off", "n", "maybe"))
    elif kind is int:
        inside = st.integers(p.min - 3, p.max + 3).map(str) | st.sampled_from([p.min, p.max, p.min - 1, p.max + 1,
                                                                                10 ** 9, -10 ** 9]).map(str)
    else:
        inside = st.text(max_size=p.length + 5) | st.just("Troll:move") | st.just("Wizard:potion")
    return inside | words | st.sampled_from(ODD)


def _value(spec: Spec):
    if spec.kind is not list:
        return _item(spec)
    most = spec.param.count[1]
    return st.lists(_item(spec), max_size=most + 2).map(",".join) | _item(spec) | \
        st.integers(most + 1, 3 * most).map(lambda n: ",".join(["1"] * n))


def _accepted(spec: Spec):
    """Values the declaration accepts (which the rules may still refuse together)."""
    p, kind = spec.param, spec.item or spec.kind
    if p.choices:
        one = st.sampled_from(p.choices)
    elif kind is bool:
        one = st.sampled_from(["true", "false"])
    elif kind is int:
        one = st.integers(p.min, p.max).map(str) | st.sampled_from([str(p.min), str(p.max)])
    else:
        one = st.sampled_from(["Troll:move", "Troll:attack", "Wizard:Torch", "Wizard:potion", "Thief:move"])
    return st.lists(one, min_size=p.count[0], max_size=p.count[1]).map(",".join) if spec.kind is list else one


@st.composite
def _requests(draw, game: str, calc: str) -> dict[str, str]:
    """A request: accepted values for some or all parameters, up to two of them replaced by values at, beyond or
    outside their bounds, now and then a required one missing or an unknown one added."""
    declared = specs(calculators(game)[calc].function)
    params = draw(st.fixed_dictionaries({name: _accepted(spec) for name, spec in declared.items() if spec.required},
                                        optional={name: _accepted(spec) for name, spec in declared.items()
                                                  if not spec.required}))
    for name in draw(st.lists(st.sampled_from(list(declared)), max_size=2, unique=True)):
        params[name] = draw(_value(declared[name]))
    if draw(st.integers(0, 9)) == 0:
        params.pop(draw(st.sampled_from(list(declared))), None)
    return {**params, **draw(st.sampled_from([{}] * 8 + [{"colour": "red"}, {"dead-units": "1"}]))}


@pytest.mark.slow
@pytest.mark.parametrize("game, calc", CALCULATORS, ids=IDS)
def test_a_fuzz_over_the_declared_bounds_finds_no_error_traceback_or_slow_answer(client, game, calc):
    @settings(max_examples=40, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(_requests(game, calc))
    def request(params):
        response, seconds = api(client, game, calc, params)
        body = response.get_data(as_text=True)
        assert response.status_code in (200, 400), (params, response.status_code, body[:300])
        assert "Traceback" not in body and seconds < SECONDS, params
        result, seconds = command(game, calc, params)
        assert "Traceback" not in result.output and seconds < SECONDS, (params, result.output[:300])
        if response.status_code == 200:
            assert result.exit_code == 0, (params, result.output[:300])
        else:
            assert_refused_in_one_line(result)
    request()
