"""The judges' calculators at their bounds, shared by tests/engine/test_calculator_bounds.py and
benchmarks/calculators.py: each calculator's largest accepted input, the inputs that take the most work, and a
measure of one run's time and peak memory."""
from __future__ import annotations

import time
import tracemalloc

from engine.calculators import CalcError, Spec, calculators, run, specs
from engine.registry import games

MOST_MOVES = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1"  # 218 legal moves for White
# The largest values that agree with each other where the largest of each alone would be refused, or would
# stop before the work: the rest of a calculator's largest input comes from its declaration.
AGREEING = {
    ("wizard-dice", "dice"): {"allies": "4", "paralysed": "0", "carried": "2"},
    ("wizard-dice", "set-aside"): {"spell_dice": "6", "allies": "0", "paralysed": "0"},
    ("dragon-dice", "black-magic"): {"reserve": "false"},
    ("magic-combat-dice", "attack"): {"partial_hit": "218", "hit": "219"},
    ("paths-of-the-lance", "knight-activation"): {"diplomatic_coup": "false"},
    ("paths-of-the-lance", "invasion"): {"knight_nation": "false"},
    # Every roll but the last is a choice with no neutral city, rolled again.
    ("paths-of-the-lance", "berem"): {"rolls": ",".join(["10"] * 19 + ["8"]), "neutral_cities": "false"},
    # Every step a new action, each naming its character in the longest text allowed.
    ("dungeon-twister", "action-points"): {"steps": ",".join(f"{f'Character {n}':<53}:attack" for n in range(100))},
    # The longest record a claim reads: 1,200 half-moves (the most allowed) of knights going back and forth,
    # every position looked up among all the earlier ones; and a position with 218 legal moves, the most known.
    ("chess", "claim"): {"pgn": " ".join(f"{n}. Nf3 Nf6 {n + 1}. Ng1 Ng8" for n in range(1, 600, 2)),
                         "claim": "threefold", "move": "Nf3",
                         "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
    ("chess", "position"): {"fen": MOST_MOVES},
    ("chess", "move"): {"fen": MOST_MOVES, "move": "Qb6xb2"},
}
# Inputs that take more work than the largest: the dead unit area whose forced burials have the most options
# (1,006 of them, 32,352 units listed).
HEAVIEST = [("most burial options", "dragon-dice", "black-magic",
             {"black_points": "500", "bury_points": "74",
              "dead_units": ",".join(["1"] * 20 + ["2"] * 16 + ["3"] * 12 + ["4"] * 12)})]
# The request of issue 29 that held a server thread for 8.4 s: refused now, its numbers out of bounds.
ISSUE_BLACK_MAGIC = {"black_points": "600", "bury_points": "600", "dead_units": ",".join("1234" * 60)}


def _largest_value(spec: Spec) -> str:
    p = spec.param
    kind = spec.item or spec.kind
    one = max(p.choices, key=len) if p.choices else "true" if kind is bool else str(p.max) if kind is int else ""
    return ",".join([one] * p.count[1]) if spec.kind is list else one


def largest(game: str, calc: str) -> dict[str, str]:
    """A calculator's largest accepted input: every number at its maximum, every list at its most items (each
    at its maximum), every yes/no true, every choice the longest name, except the values that must agree."""
    declared = {name: _largest_value(spec) for name, spec in specs(calculators(game)[calc].function).items()}
    return {**declared, **AGREEING.get((game, calc), {})}


def cases() -> list[tuple[str, str, str, dict[str, str]]]:
    """(label, game, calculator, parameters): every calculator's largest input, then the heaviest inputs."""
    return [("largest", game, calc, largest(game, calc)) for game in games() for calc in calculators(game)] + HEAVIEST


def measure(game: str, calc: str, params: dict[str, str]) -> dict:
    """One run of a calculator: {"seconds", "peak_mb" (the most memory it held at once, traced), "answered"
    (False: refused), "answer" or "refusal"}."""
    tracemalloc.start()
    started = time.perf_counter()
    try:
        outcome = {"answered": True, "answer": run(game, calc, params)["answer"]}
    except CalcError as exc:
        outcome = {"answered": False, "refusal": str(exc)}
    seconds = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"seconds": seconds, "peak_mb": peak / 2**20, **outcome}
