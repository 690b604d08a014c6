"""Dice-pool combat: every unit rolls one die and hits on its modified strength or less.

A unit's strength is multiplied by every modifier that applies and rounded once (up, by default); each full
``automatic_hit_every`` (6) of it is a hit without a roll and the remainder is rolled for: strength 8 is one sure hit
and a roll hitting on 1-2.  Both sides roll; the side with fewer hits loses the difference.  Everything is exact.

>>> unit_hits(8)
{1: Fraction(2, 3), 2: Fraction(1, 3)}
>>> d = hit_difference([3], [3])
>>> d[0], sum(d.values())
(Fraction(1, 2), Fraction(1, 1))
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from ..model import DicePool
from ..notation import fraction

Rounding = Literal["up", "down"]


@dataclass(frozen=True)
class Pool:
    """The dice-pool parameters (from :class:`forge.model.DicePool`)."""

    die: int = 6
    automatic_hit_every: int | None = 6
    rounding: Rounding = "up"
    round_once: bool = True
    all_out: tuple[int, int] = (0, 0)
    """(attacker, defender) extra losses of an all-out attack."""
    crowded_units: int | None = None
    crowded_losses: int = 0

    @classmethod
    def of(cls, model: DicePool | None) -> Pool:
        if model is None:
            return cls()
        return cls(
            model.die,
            model.automatic_hit_every,
            model.rounding,
            model.round_once,
            (model.all_out_attacker_losses, model.all_out_defender_losses),
            model.crowded_units,
            model.crowded_defender_losses,
        )


def _rounded(x: Fraction, rounding: Rounding | None) -> Fraction:
    if rounding == "up":
        return Fraction(math.ceil(x))
    if rounding == "down":
        return Fraction(math.floor(x))
    return x


def modified_strength(
    base: int | Fraction,
    multipliers: Iterable[str | int | Fraction],
    rounding: Rounding | None = "up",
    *,
    round_once: bool = True,
) -> Fraction:
    """``base`` times every multiplier, rounded once at the end (None: not rounded); with ``round_once`` False,
    rounded after each multiplier.

    >>> modified_strength(1, ["3", "1/2"])
    Fraction(2, 1)
    >>> modified_strength(1, ["3", "1/2"], None)
    Fraction(3, 2)
    >>> modified_strength(1, ["1/2", "3"], round_once=False)
    Fraction(3, 1)
    """
    x = Fraction(base)
    for m in multipliers:
        x *= m if isinstance(m, Fraction) else fraction(m) if isinstance(m, str) else Fraction(m)
        if not round_once:
            x = _rounded(x, rounding)
    return _rounded(x, rounding)


def combat_losses(
    difference: int, pool: Pool = Pool(), *, all_out: bool = False, units_in_target: int = 0
) -> tuple[int, int]:
    """(attacker, defender) strength losses for a hit ``difference`` (attacker hits minus defender hits): the
    loser takes the difference; an all-out attack and a crowded target add the pool's extra losses.

    >>> combat_losses(0, Pool(all_out=(2, 2), crowded_units=4, crowded_losses=2), all_out=True, units_in_target=4)
    (2, 4)
    >>> combat_losses(-3)
    (3, 0)
    """
    attacker = max(-difference, 0)
    defender = max(difference, 0)
    if all_out:
        attacker += pool.all_out[0]
        defender += pool.all_out[1]
    if pool.crowded_units is not None and units_in_target >= pool.crowded_units:
        defender += pool.crowded_losses
    return attacker, defender


def unit_hits(strength: int | Fraction, pool: Pool = Pool()) -> dict[int, Fraction]:
    """Distribution of one unit's hits: a sure hit per full ``automatic_hit_every``, a roll for the remainder.

    A whole number is expected (round first); a strength of 0 never hits.

    >>> unit_hits(6), unit_hits(2)
    ({1: Fraction(1, 1)}, {0: Fraction(2, 3), 1: Fraction(1, 3)})
    """
    s = Fraction(strength)
    if s.denominator != 1 or s < 0:
        raise ValueError(f"a modified strength must be a whole number >= 0 (round it first), not {strength}")
    n = int(s)
    every = pool.automatic_hit_every
    sure, rest = divmod(n, every) if every else (0, n)
    p = Fraction(min(rest, pool.die), pool.die)
    if p == 0:
        return {sure: Fraction(1)}
    if p == 1:
        return {sure + 1: Fraction(1)}
    return {sure: 1 - p, sure + 1: p}


def _convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction], sign: int = 1) -> dict[int, Fraction]:
    out: dict[int, Fraction] = defaultdict(Fraction)
    for x, p in a.items():
        for y, q in b.items():
            out[x + sign * y] += p * q
    return dict(sorted(out.items()))


def side_hits(strengths: Sequence[int | Fraction], pool: Pool = Pool()) -> dict[int, Fraction]:
    """Distribution of the total hits of units rolling together.

    >>> side_hits([3, 3])
    {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
    """
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for s in strengths:
        dist = _convolve(dist, unit_hits(s, pool))
    return dist


def hit_difference(
    attackers: Sequence[int | Fraction], defenders: Sequence[int | Fraction], pool: Pool = Pool()
) -> dict[int, Fraction]:
    """Distribution of attacker hits minus defender hits: positive, the defender loses that much; negative, the
    attacker does; 0 is a draw."""
    return _convolve(side_hits(attackers, pool), side_hits(defenders, pool), sign=-1)


@dataclass(frozen=True)
class PoolLosses:
    """Expected strength losses of each side from the hit difference (before all-out or crowding extras)."""

    attacker: Fraction
    defender: Fraction
    draw: Fraction
    """Probability of a draw."""


def expected_losses(diff: Mapping[int, Fraction]) -> PoolLosses:
    """Expected losses: the loser takes the difference.

    >>> expected_losses({-1: Fraction(1, 4), 0: Fraction(1, 2), 2: Fraction(1, 4)})
    PoolLosses(attacker=Fraction(1, 4), defender=Fraction(1, 2), draw=Fraction(1, 2))
    """
    att = sum((-d * p for d, p in diff.items() if d < 0), Fraction(0))
    dfn = sum((d * p for d, p in diff.items() if d > 0), Fraction(0))
    return PoolLosses(att, dfn, diff.get(0, Fraction(0)))


def cap_losses(diff: Mapping[int, Fraction], attacker_strength: int, defender_strength: int) -> dict[int, Fraction]:
    """The hit difference as losses limited to the strength each side has (a side cannot lose more than it has)."""
    out: dict[int, Fraction] = defaultdict(Fraction)
    for d, p in diff.items():
        out[min(d, defender_strength) if d > 0 else max(d, -attacker_strength)] += p
    return dict(sorted(out.items()))
