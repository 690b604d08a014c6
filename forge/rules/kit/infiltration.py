"""Infiltration: a step from one enemy-zone hex straight into an adjacent one (``rules.zoc.infiltration``).

Some games let a unit slip from one enemy zone into the next at a price in movement points instead of forbidding
it: the whole allowance (leg units), or a share of the printed allowance plus the terrain (mobile units).
:func:`forge.rules.kit.movement.step_cost` asks this module for that price.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from ... import model as m

__all__ = ["cost", "describe", "rule_for"]


def rule_for(zr: m.ZocRules, mobility: str) -> m.Infiltration | None:
    """The first infiltration entry for a mobility class, or None (the step then costs what any step costs)."""
    return next((i for i in zr.infiltration if not i.mobility or mobility in i.mobility), None)


def cost(inf: m.Infiltration, mv: Any, terrain: Any) -> Any:
    """MPs for the step: ``terrain`` is what the entered hex (and hexside) would normally cost -- a Fraction,
    ``"prohibited"`` or None.  ``mv.printed_ma`` is the unit's printed allowance (None: unknown).

    >>> from types import SimpleNamespace as N
    >>> cost(m.Infiltration(cost="all"), N(printed_ma=Fraction(7)), Fraction(2))
    Fraction(7, 1)
    >>> cost(m.Infiltration(fraction="1/2"), N(printed_ma=Fraction(9)), Fraction(1))
    Fraction(5, 1)
    """
    if terrain == "prohibited":
        return terrain
    ma = mv.printed_ma
    if ma is None:
        return None
    if inf.cost == "all":
        return Fraction(ma)
    if inf.fraction is None:
        return None
    share = Fraction(ma) * Fraction(inf.fraction)
    share = Fraction(math.floor(share) if inf.rounding == "down" else math.ceil(share))
    if not inf.plus_terrain:
        return share
    return None if terrain is None else share + terrain


def describe(costs: dict[tuple[int, int], Any]) -> str | None:
    """The rule a table of measured step costs follows, in the words a rulebook uses: ``costs`` maps (printed MA,
    terrain cost) to the MPs the engine charged.  None when no simple rule fits.

    >>> describe({(4, 1): 4, (7, 2): 7})
    'all MA'
    >>> describe({(4, 1): 3, (7, 2): 5})
    'half printed MA, rounded down, plus terrain cost'
    """
    if not costs or any(not isinstance(v, Fraction | int) for v in costs.values()):
        return None
    if all(v == ma for (ma, _), v in costs.items()):
        return "all MA"
    for rounding, fn in (("down", math.floor), ("up", math.ceil)):
        if all(v == fn(Fraction(ma, 2)) + t for (ma, t), v in costs.items()):
            return f"half printed MA, rounded {rounding}, plus terrain cost"
        if all(v == fn(Fraction(ma, 2)) for (ma, _), v in costs.items()):
            return f"half printed MA, rounded {rounding}"
    return None
