"""Supply, data-driven: sources (map hexes and edge runs), the length of a line, what blocks it, and who is
supplied in a position.  The search itself is :func:`forge.rules.supply.supplied_cells`; this module turns a
game's ``rules.supply`` and a position into its inputs.

A *position* maps hex labels to the side whose units stand there (one side per hex).

>>> from forge.hexgrid import Grid, Cell
>>> g = Grid.parse_grid("hex 4x3 pointy even")
>>> [g.label(c) for c in edge_cells(g, ["north"])]
['0101', '0201', '0301', '0401']
>>> [g.label(c) for c in edge_between(g, "0101", "0103")]
['0101', '0102', '0103']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ... import model as m
from ...hexgrid import Cell, Grid
from .. import supply as _supply
from .. import zoc as _zoc

__all__ = [
    "blocked_cells",
    "edge_between",
    "edge_cells",
    "entry_hexes",
    "line_limit",
    "petrol_must_roll",
    "source_hexes",
    "supplied",
]


def edge_cells(grid: Grid, edges: Sequence[str]) -> list[Cell]:
    """The map's cells on the named edges (``north``, ``south``, ``east``, ``west``: first or last row or column
    of the grid), each once, in :meth:`Grid.cells` order."""
    last_col, last_row = grid.columns - 1, grid.rows - 1
    test = {
        "north": lambda c: c.row == 0,
        "south": lambda c: c.row == last_row,
        "west": lambda c: c.col == 0,
        "east": lambda c: c.col == last_col,
    }
    bad = [e for e in edges if e not in test]
    if bad:
        raise ValueError(f"no map edge {bad[0]!r} (north, south, east, west)")
    return [c for c in grid.cells() if any(test[e](c) for e in edges)]


def edge_between(grid: Grid, first: str, last: str) -> list[Cell]:
    """The cells of the one column or row from ``first`` to ``last`` (a straight run along an edge)."""
    a, b = grid.parse(first), grid.parse(last)
    if a.col == b.col:
        return [Cell(a.col, r) for r in range(min(a.row, b.row), max(a.row, b.row) + 1)]
    if a.row == b.row:
        return [Cell(c, a.row) for c in range(min(a.col, b.col), max(a.col, b.col) + 1)]
    raise ValueError(f"{first} and {last} are not in one row or column")


def source_hexes(game: m.Game, side: str) -> set[Cell]:
    """A side's supply sources: map hexes with ``supply: side`` and the edge runs of ``rules.supply.edges``."""
    grid = game.map.grid.grid()
    out = {grid.parse(label) for label, info in game.map.hexes.items() if info.supply == side}
    rules = game.rules.supply
    for e in rules.edges if rules is not None else ():
        if e.side == side and e.role == "source":
            out.update(edge_cells(grid, e.edges))
    return out


def entry_hexes(game: m.Game, side: str) -> set[Cell]:
    """Where a side's reinforcements may enter: edge runs with ``role: entry`` and the units' own entry hexes."""
    grid = game.map.grid.grid()
    out: set[Cell] = set()
    rules = game.rules.supply
    for e in rules.edges if rules is not None else ():
        if e.side == side and e.role == "entry":
            out.update(edge_cells(grid, e.edges) if e.edges else edge_between(grid, e.first, e.last))
    for u in game.units:
        if u.side == side and u.entry is not None and u.entry.hex:
            out.add(grid.parse(u.entry.hex))
    return out


def line_limit(rules: m.SupplyRules | None, side: str, *, to_hq: bool = False, overland: bool = False) -> int | None:
    """The longest supply line ``side`` may trace in hexes (None: no limit, or the book does not give one).

    ``overland`` asks for the off-road part of a line (``to_hq``: of a line to a headquarters)."""
    if rules is None:
        return None
    v = (rules.overland_to_hq if to_hq else rules.overland) if overland else rules.trace_by_side.get(side, rules.trace)
    return v if isinstance(v, int) else None


def blocked_cells(
    grid: Grid, rules: m.SupplyRules | None, side: str, position: Mapping[str, str], enemy_sources: set[Cell]
) -> tuple[set[Cell], set[Cell], set[Cell]]:
    """(enemy-held cells a line never enters, cells it enters only when friendly-held, friendly-held cells)."""
    r = rules or m.SupplyRules()
    for name in ("enemy_units", "enemy_zoc", "enemy_sources"):
        if getattr(r, name) is None:
            raise ValueError(f"rules.supply.{name} is not given: the book does not say what it does to a line")
    cells = {grid.parse(h): s for h, s in position.items()}
    friendly = {c for c, s in cells.items() if s == side}
    enemy = {c for c, s in cells.items() if s != side}
    never: set[Cell] = set()
    unless: set[Cell] = set()
    for kind, area in (
        (r.enemy_units, enemy),
        (r.enemy_zoc, _zoc.zone_of(enemy, grid.neighbours)),
        (r.enemy_sources, enemy_sources),
    ):
        if kind == "always":
            never |= area
        elif kind == "unless-friendly":
            unless |= area
    return never, unless, friendly


def supplied(game: m.Game, side: str, position: Mapping[str, str], *, max_length: int | None = None) -> dict[str, int]:
    """Hex label -> length of the shortest supply line ``side`` can trace from it in ``position`` (hexes from
    which no line can be traced are absent).  ``max_length`` overrides the rules' own limit."""
    grid = game.map.grid.grid()
    rules = game.rules.supply
    others = [s.id for s in game.game.sides if s.id != side]
    enemy_sources: set[Cell] = set()
    for o in others:
        enemy_sources |= source_hexes(game, o)
    never, unless, friendly = blocked_cells(grid, rules, side, position, enemy_sources)
    limit = max_length if max_length is not None else line_limit(rules, side)
    terrain_block = set(rules.blocking_terrain) if rules is not None else set()
    if terrain_block:
        for label, info in game.map.hexes.items():
            if ({info.terrain} | set(info.features)) & terrain_block:
                never.add(grid.parse(label))
    dist = _supply.supplied_cells(
        source_hexes(game, side),
        grid.neighbours,
        enemy_occupied=never,
        friendly_occupied=friendly,
        blocked=unless,
        max_length=limit,
    )
    return {grid.label(c): d for c, d in sorted(dist.items())}


def petrol_must_roll(rules: m.SupplyRules | None, unit: m.Unit, distance: int) -> bool | None:
    """Whether ``unit``, ``distance`` hexes from its nearest source, must roll for petrol (None: no such rule)."""
    if rules is None or rules.petrol is None:
        return None
    p = rules.petrol
    return unit.type in p.unit_types and distance > p.beyond
