"""Primitives every game shares: injected dice, multiset pools of faces, and range tables.

A `Roller` is any callable that, given a die's number of sides, returns the face rolled. Games never call
`random` themselves: tests pass `fixed([...])`, play passes `seeded(n)`.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

Roller = Callable[[int], int]
T = TypeVar("T")


def fixed(faces: Iterable[int]) -> Roller:
    """A roller that returns `faces` in order (and fails loudly when a test runs out of them)."""
    remaining = iter(faces)

    def roll(sides: int) -> int:
        try:
            face = next(remaining)
        except StopIteration:
            raise RuntimeError("fixed roller: more dice rolled than faces given") from None
        if not _on_die(face, sides):
            raise ValueError(f"fixed roller: face {face} is not on a d{sides}")
        return face
    return roll


def _on_die(face: int, sides: int) -> bool:
    return 1 <= face <= sides


def check_face(face: int, sides: int) -> int:
    """`face` when a d`sides` can show it; ValueError otherwise."""
    if not _on_die(face, sides):
        raise ValueError(f"a d{sides} cannot show {face}")
    return face


def check_faces(faces: Iterable[int], sides: int) -> list[int]:
    """`faces` as a list when a d`sides` can show each of them; ValueError naming every one it cannot."""
    faces = list(faces)
    bad = [f for f in faces if not _on_die(f, sides)]
    if bad:
        raise ValueError(f"faces {bad} are not on a d{sides}")
    return faces


def seeded(seed: int) -> Roller:
    """A reproducible pseudo-random roller."""
    rng = random.Random(seed)
    return lambda sides: rng.randint(1, sides)


def roll(count: int, sides: int, roller: Roller) -> list[int]:
    """Roll `count` dice of `sides` sides."""
    return [roller(sides) for _ in range(count)]


def pool(faces: Iterable) -> Counter:
    """A multiset of faces (dice are interchangeable; only how many of each face counts)."""
    return Counter(faces)


def take(available: Counter, wanted: Iterable) -> Counter | None:
    """`available` minus `wanted` as multisets, or None when `wanted` needs a die that is not there.

    This is what keeps one die from being used twice by the same pattern.
    """
    need = Counter(wanted)
    if any(available[face] < n for face, n in need.items()):
        return None
    rest = available.copy()
    rest.subtract(need)
    return +rest


def half_down(value: int) -> int:
    """Half, rounded down (the usual rounding of 'half damage' rules)."""
    return value // 2


@dataclass(frozen=True)
class Band(Generic[T]):
    """One row of a range table: `low`..`high` inclusive (None: unbounded) gives `value`."""
    low: int | None
    high: int | None
    value: T

    def holds(self, x: int) -> bool:
        return (self.low is None or x >= self.low) and (self.high is None or x <= self.high)


def lookup(table: Sequence[Band[T]], x: int) -> T:
    """The value of the first band holding `x`; ValueError when none does."""
    for band in table:
        if band.holds(x):
            return band.value
    raise ValueError(f"{x} is outside the table")
