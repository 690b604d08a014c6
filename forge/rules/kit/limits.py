"""Limits: the counts the rules cap (``rules.limits.counts``, :class:`forge.model.Limit`), looked up, checked
against what an example lists, and worded for a reference card.

>>> from forge import model as m
>>> lim = m.Limit(id="sf", what="support markers per side", per="combat", max=2, counts=["markers"])
>>> over(lim, 3), over(lim, 2)
(True, False)
>>> card_line(lim)
'support markers per side: at most 2 per combat'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ... import model as m

__all__ = ["card_line", "card_lines", "find", "listed", "over", "value"]


def find(game: m.Game, limit_id: str) -> m.Limit | None:
    """The limit with this id, or None."""
    rules = game.rules.limits
    if rules is None:
        return None
    return next((x for x in rules.counts if x.id == limit_id), None)


def value(limit: m.Limit, bound: str = "max") -> int | None:
    """The limit's ``max``, ``min``, or ``last_turn`` (the last turn it applies on); None when not given."""
    if bound == "last_turn":
        return max(limit.turns) if limit.turns else None
    if bound not in ("max", "min"):
        raise ValueError(f"{bound!r} is not a bound of a limit (max, min, last_turn)")
    v = limit.max if bound == "max" else limit.min
    return v if isinstance(v, int) else None


def over(limit: m.Limit, n: int) -> bool:
    """Does a count of ``n`` break the limit?"""
    hi, lo = value(limit, "max"), value(limit, "min")
    return (hi is not None and n > hi) or (lo is not None and n < lo)


def listed(game: m.Game, limit: m.Limit, items: Iterable[Any]) -> int | None:
    """How many of ``items`` (marker or unit ids an example lists) the limit counts: those of its side when it
    binds one side.  None when an item's side is unknown and the limit binds a side."""
    sides: Mapping[str, str | None] = {mk.id: mk.side for mk in game.markers} | {u.id: u.side for u in game.units}
    n = 0
    for item in items:
        if limit.side is None:
            n += 1
            continue
        side = sides.get(str(item))
        if side is None:
            return None
        n += side == limit.side
    return n


def card_line(limit: m.Limit) -> str:
    """The limit in the words a reference card prints."""
    parts = []
    if value(limit, "min") is not None:
        parts.append(f"at least {limit.min}")
    if limit.max is not None:
        parts.append(f"at most {limit.max if isinstance(limit.max, int) else '?'}")
    side = f" ({limit.side})" if limit.side else ""
    return f"{limit.what}{side}: {' and '.join(parts)} per {limit.per}"


def card_lines(game: m.Game) -> list[tuple[str, str]]:
    """Every limit as ``(rule, line)``, in the data's order, for a reference card."""
    rules = game.rules.limits
    return [(x.rule or "", card_line(x)) for x in (rules.counts if rules else [])]
