"""Dice for the play engines: seeded random dice and scripted ones, shared by every engine (one copy)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol

__all__ = ["Dice", "DiceSource", "ScriptedDice"]


class DiceSource(Protocol):
    """Where die rolls come from."""

    def roll(self) -> int: ...


class Dice:
    """Six-sided (or ``faces``-sided) dice from a seedable ``random.Random``; ``history`` keeps every roll."""

    def __init__(self, seed: int | None = None, *, faces: int = 6) -> None:
        self.rng = random.Random(seed)
        self.faces = faces
        self.history: list[int] = []

    def roll(self) -> int:
        r = self.rng.randrange(1, self.faces + 1)  # randint(1, faces), which the random module defines as this call
        self.history.append(r)
        return r


class ScriptedDice:
    """Fixed rolls in order, for tests and replays; raises when they run out (a test expected fewer)."""

    def __init__(self, rolls: Iterable[int]) -> None:
        self.rolls = list(rolls)
        self.history: list[int] = []

    def roll(self) -> int:
        if not self.rolls:
            raise IndexError("the scripted dice have run out of rolls")
        r = self.rolls.pop(0)
        self.history.append(r)
        return r
