"""Zones of control from data (``rules.zoc``): which hexes a side's units control, on any :class:`~forge.hexgrid.Grid`.

Builds on :mod:`forge.rules.zoc` (a zone is the cells next to a unit) and adds what games vary: the unit's own
hex, unit types that exert none, hexsides a zone does not cross (a major river), states in which nobody exerts
one (storm), and negation by friendly units.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ... import model as m
from ...hexgrid import Cell, Grid, Hexside
from .. import zoc as _zoc

__all__ = ["active", "controlled", "exerts", "middle", "zone_size"]


def active(rules: m.ZocRules | None, states: Iterable[str] = ()) -> bool:
    """Do zones exist in these states (``not_when``: storm)?"""
    return rules is not None and not (set(states) & set(rules.not_when))


def exerts(rules: m.ZocRules, unit_type: str | None) -> bool:
    """Does a unit of this type exert a zone?"""
    return unit_type is None or unit_type not in {str(t) for t in rules.not_exerted_by}


def controlled(
    grid: Grid,
    rules: m.ZocRules | None,
    units: Mapping[Cell, Iterable[str | None]] | Iterable[Cell],
    *,
    hexsides: Mapping[Hexside, Iterable[str]] | None = None,
    states: Iterable[str] = (),
    friendly: Iterable[Cell] = (),
) -> set[Cell]:
    """The cells in the zone of units standing in ``units`` (cell -> their unit types, or just cells).

    ``hexsides``: terrain features by hexside (a zone does not cross ``blocked_by``); ``friendly``: cells holding
    the other side's units (they cancel the zone there when ``negated_by_friendly``).
    """
    states = set(states)
    if not active(rules, states):
        return set()
    assert rules is not None
    hexsides = hexsides or {}
    blocked = set(rules.blocked_by)
    cells = units.items() if isinstance(units, Mapping) else ((c, [None]) for c in units)
    sources = [c for c, types in cells if any(exerts(rules, t) for t in types)]

    def reach(c: Cell) -> list[Cell]:
        return [n for n in grid.neighbours(c) if not (set(hexsides.get(grid.side(c, n), ())) & blocked)]

    zone = _zoc.zone_of(sources, reach)
    if rules.own_hex:
        zone.update(sources)
    if rules.negated_by_friendly:
        zone -= set(friendly)
    return zone


def zone_size(grid: Grid, rules: m.ZocRules) -> int:
    """How many hexes one unit controls in the open (away from the map edge): the claim "a ZOC is six hexes".

    >>> from forge.hexgrid import Grid
    >>> zone_size(Grid("hex", 5, 5), m.ZocRules()), zone_size(Grid("square", 5, 5), m.ZocRules(own_hex=True))
    (6, 5)
    """
    return len(controlled(grid, rules, [middle(grid)]))


def middle(grid: Grid) -> Cell:
    """The cell nearest the map's centre (all its neighbours are on the map when the map is big enough)."""
    return Cell(grid.columns // 2, grid.rows // 2)
