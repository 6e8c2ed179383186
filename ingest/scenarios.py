"""Executable examples: `sources/examples/<game>.toml` scenarios that prove rulings through the engine.

A file holds `[[scenario]]` tables — `id`, `ruling` (the ruling it proves), `call` (`module.function` in
`engine`), `args` (keyword arguments), `expect` (the result), optional `encodes` (the id of the source
example it replays) and `description` — and `[[unexecutable]]` tables giving, for rulings that state
nothing an engine can check, the `reason` (with `ruling` or a list `rulings`).

A scenario links only to a ruling whose own statement it checks: an introduction or summary whose points are
the rulings under it is not checkable (its reason says so), and each point's scenarios link to that point.
"""
from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ingest.classify.references import DOTTED_CALL
from ingest.errors import IngestError, invalid_toml


@dataclass(frozen=True)
class Scenario:
    id: str            # "<ruling id>::<scenario id>", also the test id
    ruling: str
    call: str
    args: dict
    expect: object
    description: str
    encodes: str | None
    file: str
    line: int


def _line(text: str, needle: str) -> int:
    index = text.find(needle)
    return text.count("\n", 0, index) + 1 if index >= 0 else 1


def load_file(path: Path) -> tuple[list[Scenario], dict[str, str]]:
    """Scenarios and unexecutable reasons of one file; IngestError naming file and line on a bad entry."""
    text = path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise invalid_toml(path, exc) from None
    scenarios, seen = [], set()
    for raw in data.get("scenario", []):
        line = _line(text, f'id = "{raw.get("id")}"')
        for key in ("id", "ruling", "call"):
            if not isinstance(raw.get(key), str) or not raw[key]:
                raise IngestError(str(path), f"scenario needs a '{key}'", line)
        if "expect" not in raw:
            raise IngestError(str(path), f"scenario {raw['id']!r} needs an 'expect'", line)
        if not DOTTED_CALL.match(raw["call"]):
            raise IngestError(str(path), f"scenario {raw['id']!r}: call must be 'module.function'", line)
        full_id = f"{raw['ruling']}::{raw['id']}"
        if full_id in seen:
            raise IngestError(str(path), f"duplicate scenario {full_id!r}", line)
        seen.add(full_id)
        scenarios.append(Scenario(full_id, raw["ruling"], raw["call"], dict(raw.get("args", {})), raw["expect"],
                                  raw.get("description", ""), raw.get("encodes"), str(path), line))
    reasons: dict[str, str] = {}
    for raw in data.get("unexecutable", []):
        ids = raw.get("rulings") or ([raw["ruling"]] if raw.get("ruling") else [])
        line = _line(text, ids[0]) if ids else 1
        if not ids or not raw.get("reason"):
            raise IngestError(str(path), "an [[unexecutable]] entry needs 'ruling' (or 'rulings') and 'reason'",
                              line)
        for ruling_id in ids:
            reasons[ruling_id] = raw["reason"]
    return scenarios, reasons


def load_folder(folder: Path) -> tuple[list[Scenario], dict[str, str]]:
    """Every scenario and unexecutable reason under `folder` (sorted by file name)."""
    scenarios, reasons = [], {}
    for path in sorted(Path(folder).glob("*.toml")):
        found, why = load_file(path)
        scenarios += found
        reasons.update(why)
    return scenarios, reasons


def check_links(scenarios: list[Scenario], reasons: dict[str, str], ruling_ids: set[str],
                example_ids: set[str], folder: Path) -> None:
    """Fail on a scenario or reason whose ruling (or encoded example) does not exist, and on a scenario linked
    to a ruling that an [[unexecutable]] entry says states nothing checkable (one of the two is wrong)."""
    for scenario in scenarios:
        if scenario.ruling not in ruling_ids:
            raise IngestError(scenario.file, f"scenario {scenario.id!r}: no ruling {scenario.ruling!r}", scenario.line)
        if scenario.ruling in reasons:
            raise IngestError(scenario.file, f"scenario {scenario.id!r} checks ruling {scenario.ruling!r}, which "
                              "[[unexecutable]] says is not checkable", scenario.line)
        if scenario.encodes and scenario.encodes not in example_ids:
            raise IngestError(scenario.file, f"scenario {scenario.id!r}: no source example {scenario.encodes!r}",
                              scenario.line)
    for ruling_id in reasons:
        if ruling_id not in ruling_ids:
            raise IngestError(str(folder), f"[[unexecutable]] names unknown ruling {ruling_id!r}")


def example_row(scenario: Scenario) -> dict:
    """The scenario as a row of the examples table (kind 'scenario')."""
    return {
        "id": scenario.id, "ruling_id": scenario.ruling, "label": scenario.id.split("::", 1)[1],
        "kind": "scenario", "text": scenario.description, "call": scenario.call,
        "inputs": json.dumps(scenario.args, sort_keys=True), "expected": json.dumps(scenario.expect, sort_keys=True),
        "encodes": scenario.encodes,
    }
