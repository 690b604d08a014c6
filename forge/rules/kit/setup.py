"""Set-up, data-driven: where each unit may start (a fixed hex, any hex of a set-up zone, the off-map pool, a later
entry), a legal initial placement, and the check of a given one.

A *piece* is one physical unit on the table: ``(unit id, copy)``, copy 0 .. ``copies - 1``.  A zone's hexes are
the union of its ``hexes``, ``within`` and ``edges`` (:class:`forge.model.SetupZone`); a unit sets up in the zone
it names (``units[*].setup_zone``) or, with no other placement, in the zone whose ``units`` selector takes it.
At most ``per_hex`` of a zone's pieces may start in one of its hexes (pieces placed through another zone or at a
fixed hex do not count against it).

An engine's initial state calls :func:`place` (with its own chooser, or a seed) and reads each piece's hex, its
starting step (:attr:`Start.step`) and whether it starts in the pool (:attr:`Start.how`, :attr:`Start.from_turn`).

>>> from forge import model as m
>>> g = m.GridSpec(columns=4, rows=3)
>>> zone = m.SetupZone(side="red", hexes=["0101", "0201"], edges=["south"])
>>> [*_zone_labels(g.grid(), zone, {}, {})]
['0101', '0201', '0103', '0203', '0303', '0403']
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from ... import model as m
from ...hexgrid import Cell, Grid

__all__ = [
    "Chooser",
    "Initial",
    "Piece",
    "Start",
    "claiming_zones",
    "initial",
    "legal_hexes",
    "place",
    "starts",
    "validate",
    "zone_hexes",
    "zone_load",
    "zone_of",
    "zones",
]

Piece = tuple[str, int]
"""``(unit id, copy)``: one physical unit (copy 0 .. ``copies - 1``)."""

How = Literal["hex", "zone", "pool", "entry", "unknown"]


@dataclass(frozen=True)
class Start:
    """How one piece starts the game."""

    unit: str
    copy: int
    how: How
    """``hex`` a fixed hex, ``zone`` any hex of :attr:`zone`, ``pool`` off the map in the pool, ``entry`` a later
    reinforcement, ``unknown`` the data does not say."""
    hexes: tuple[str, ...]
    """The hexes it may start in (one for ``hex``, the zone's for ``zone``; empty off the map)."""
    step: int
    """Its starting step (0-based index of the unit's ``steps``)."""
    steps_left: int
    """Steps it has at the start (the unit's step count less :attr:`step`)."""
    zone: str | None = None
    from_turn: int | None = None
    """For ``pool``: the first turn it may come back as a replacement."""

    @property
    def piece(self) -> Piece:
        return (self.unit, self.copy)

    @property
    def on_map(self) -> bool:
        return self.how in ("hex", "zone")


Chooser = Callable[[Start, Sequence[str]], str]
"""Picks one hex of the open ones offered for a zone piece (they are never empty)."""


# ------------------------------------------------------------------------------------------------- zones
def _where(grid: Grid, label: str) -> Cell | None:
    try:
        c = grid.parse(label)
    except ValueError:
        return None
    return c if grid.contains(c) else None


def _named(game_map: m.Map) -> dict[str, list[str]]:
    """Hex names (``map.hexes[*].name``) -> their labels."""
    out: dict[str, list[str]] = {}
    for label, info in game_map.hexes.items():
        if info.name:
            out.setdefault(info.name, []).append(label)
    return out


def anchor(grid: Grid, of: str, places: Mapping[str, Sequence[str]], names: Mapping[str, Sequence[str]]) -> list[Cell]:
    """The cells ``of`` names: a hex label, else a place (``map.places``), else a hex name; [] when none."""
    c = _where(grid, of)
    if c is not None:
        return [c]
    labels = places.get(of) or names.get(of) or ()
    return [x for x in (_where(grid, lb) for lb in labels) if x is not None]


def _edge_cells(grid: Grid, edges: Iterable[str], depth: int) -> set[Cell]:
    test: dict[str, Callable[[Cell], bool]] = {
        "north": lambda c: c.row < depth,
        "south": lambda c: c.row >= grid.rows - depth,
        "west": lambda c: c.col < depth,
        "east": lambda c: c.col >= grid.columns - depth,
    }
    chosen = [test[e] for e in edges]
    return {c for c in grid.cells() if any(t(c) for t in chosen)} if chosen else set()


def _zone_labels(
    grid: Grid, zone: m.SetupZone, places: Mapping[str, Sequence[str]], names: Mapping[str, Sequence[str]]
) -> tuple[str, ...]:
    """The zone's on-map hexes, in :meth:`Grid.cells` order (row by row from the top), each once."""
    cells: set[Cell] = set()
    for label in zone.hexes:
        c = _where(grid, label)
        if c is not None:
            cells.add(c)
    for w in zone.within:
        for a in anchor(grid, w.of, places, names):
            cells.update(grid.within(a, w.distance))
    cells |= _edge_cells(grid, zone.edges, zone.depth)
    return tuple(grid.label(c) for c in sorted(cells, key=lambda c: (c.row, c.col)))


def zones(game: m.Game) -> dict[str, tuple[str, ...]]:
    """Every set-up zone's hexes (labels as the grid prints them), by zone id, in the file's order."""
    grid = game.map.grid.grid()
    names = _named(game.map)
    return {zid: _zone_labels(grid, z, game.map.places, names) for zid, z in game.map.setup_zones.items()}


def zone_hexes(game: m.Game, zone_id: str) -> tuple[str, ...]:
    """One zone's hexes; KeyError when the map has no such zone."""
    z = game.map.setup_zones[zone_id]
    return _zone_labels(game.map.grid.grid(), z, game.map.places, _named(game.map))


def _selects(sel: m.UnitSelector, unit: m.Unit) -> bool:
    if sel.side is not None and unit.side != sel.side:
        return False
    if unit.id in sel.units:
        return True
    if not sel.types and not sel.sizes:
        return not sel.units and sel.side is not None  # only a side: every unit of it
    return (not sel.types or unit.type in sel.types) and (not sel.sizes or unit.size in sel.sizes)


def _placed_otherwise(unit: m.Unit) -> bool:
    return unit.setup is not None or unit.setup_zone is not None or unit.entry is not None or unit.pool is not None


def claiming_zones(game: m.Game, unit: m.Unit) -> list[str]:
    """The zones whose ``units`` selector takes ``unit`` (none when the unit has a placement of its own)."""
    if _placed_otherwise(unit):
        return []
    return [zid for zid, z in game.map.setup_zones.items() if z.units is not None and _selects(z.units, unit)]


def zone_of(game: m.Game, unit: m.Unit) -> str | None:
    """The zone the unit sets up in: the one it names, else the first whose selector takes it, else None."""
    if unit.setup_zone is not None:
        return unit.setup_zone
    found = claiming_zones(game, unit)
    return found[0] if found else None


# ------------------------------------------------------------------------------------------------ starts
def _scenario(game: m.Game, scenario: str | None) -> m.Scenario | None:
    if scenario is None:
        return None
    sc = next((x for x in game.scenarios if x.id == scenario), None)
    if sc is None:
        raise KeyError(f"{scenario!r} is not a scenario of the game")
    return sc


def starts(game: m.Game, scenario: str | None = None) -> list[Start]:
    """How every piece starts, in the units' order (a scenario's ``setup`` hexes override the units' own)."""
    sc = _scenario(game, scenario)
    fixed = dict(sc.setup) if sc is not None else {}
    table = zones(game)
    out: list[Start] = []
    for u in game.units:
        for k in range(u.copies):
            step = u.start_step, len(u.steps) - u.start_step
            hx = fixed.get(u.id, u.setup)
            zid = zone_of(game, u) if u.id not in fixed else None
            if hx is not None:
                out.append(Start(u.id, k, "hex", (hx,), *step))
            elif zid is not None:
                out.append(Start(u.id, k, "zone", table.get(zid, ()), *step, zone=zid))
            elif u.pool is not None:
                out.append(Start(u.id, k, "pool", (), *step, from_turn=u.pool.from_turn))
            elif u.entry is not None:
                out.append(Start(u.id, k, "entry", (), *step))
            else:
                out.append(Start(u.id, k, "unknown", (), *step))
    return out


def legal_hexes(game: m.Game, scenario: str | None = None) -> dict[Piece, tuple[str, ...]]:
    """The hexes each piece that starts on the map may start in."""
    return {s.piece: s.hexes for s in starts(game, scenario) if s.on_map}


def zone_load(game: m.Game, scenario: str | None = None) -> dict[str, tuple[int, int | None]]:
    """Each zone's pieces and how many its hexes hold (None: no limit)."""
    table = zones(game)
    n = Counter(s.zone for s in starts(game, scenario) if s.how == "zone")
    out: dict[str, tuple[int, int | None]] = {}
    for zid, z in game.map.setup_zones.items():
        out[zid] = (n.get(zid, 0), None if z.per_hex is None else z.per_hex * len(table[zid]))
    return out


# ----------------------------------------------------------------------------------------- place, validate
def _first(start: Start, open_hexes: Sequence[str]) -> str:
    return open_hexes[0]


def place(
    game: m.Game, choose: Chooser | None = None, *, scenario: str | None = None, seed: int | None = None
) -> dict[Piece, str]:
    """A legal initial placement: every piece that starts on the map and the hex it starts in.

    Zone pieces are placed in the units' order; ``choose`` picks each one's hex from its zone's hexes that still
    have room (default: the first, in print order; with ``seed``, a seeded random pick).  The same arguments give
    the same placement.  ValueError when a zone holds fewer pieces than it must take (``forge check`` refuses such
    a file), or when ``choose`` returns a hex it was not offered.
    """
    if choose is None:
        if seed is None:
            choose = _first
        else:
            rng = random.Random(seed)

            def choose(start: Start, open_hexes: Sequence[str]) -> str:
                return rng.choice(list(open_hexes))

    per_hex = {zid: z.per_hex for zid, z in game.map.setup_zones.items()}
    used: Counter[tuple[str, str]] = Counter()
    out: dict[Piece, str] = {}
    for s in starts(game, scenario):
        if s.how == "hex":
            out[s.piece] = s.hexes[0]
        elif s.how == "zone":
            assert s.zone is not None
            cap = per_hex.get(s.zone)
            open_hexes = [h for h in s.hexes if cap is None or used[(s.zone, h)] < cap]
            if not open_hexes:
                raise ValueError(f"set-up zone {s.zone!r} has no room left for {s.unit} (copy {s.copy + 1})")
            hx = choose(s, open_hexes)
            if hx not in open_hexes:
                raise ValueError(f"the chooser put {s.unit} in {hx!r}, not one of the hexes offered")
            used[(s.zone, hx)] += 1
            out[s.piece] = hx
    return out


@dataclass(frozen=True)
class Initial:
    """Where one unit (its first copy) is when play begins: what an engine's initial state reads."""

    start: Start
    hex: str | None
    """Its hex (None: off the map -- a later entry, the pool, or a start the data does not give)."""

    @property
    def steps_left(self) -> int:
        return self.start.steps_left

    @property
    def in_pool(self) -> bool:
        return self.start.how == "pool"


def initial(
    game: m.Game, choose: Chooser | None = None, *, scenario: str | None = None, seed: int | None = None
) -> dict[str, Initial]:
    """Each unit's start by id, its first copy's (engines that play one piece per unit): :func:`place`'s hex for
    a unit on the map, its steps left (``start_step``), and whether it starts in the pool."""
    placed = place(game, choose, scenario=scenario, seed=seed)
    return {s.unit: Initial(s, placed.get(s.piece)) for s in starts(game, scenario) if s.copy == 0}


def validate(game: m.Game, placement: Mapping[Piece, str], scenario: str | None = None) -> list[str]:
    """What is wrong with ``placement`` as the game's initial placement ([] when it is legal): a piece missing or
    in a hex it may not start in, a piece placed that starts off the map, a zone hex over its limit."""
    problems: list[str] = []
    grid = game.map.grid.grid()
    by_piece = {s.piece: s for s in starts(game, scenario)}
    used: Counter[tuple[str, str]] = Counter()

    def same(a: str, b: str) -> bool:
        ca, cb = _where(grid, a), _where(grid, b)
        return ca is not None and ca == cb

    for piece, hx in placement.items():
        s = by_piece.get(piece)
        name = f"{piece[0]} (copy {piece[1] + 1})" if piece[1] else piece[0]
        if s is None:
            problems.append(f"{name} is not a unit of the game")
        elif not s.on_map:
            problems.append(f"{name} starts off the map ({s.how}), not in {hx}")
        elif not any(same(hx, h) for h in s.hexes):
            where = f"zone {s.zone!r}" if s.how == "zone" else f"hex {s.hexes[0]}"
            problems.append(f"{name} is in {hx}, outside its set-up {where}")
        elif s.how == "zone":
            assert s.zone is not None
            used[(s.zone, grid.label(grid.parse(hx)))] += 1
    for piece, s in by_piece.items():
        if s.on_map and piece not in placement:
            problems.append(f"{piece[0]}{f' (copy {piece[1] + 1})' if piece[1] else ''} is not placed")
    for (zid, hx), n in sorted(used.items()):
        cap = game.map.setup_zones[zid].per_hex
        if cap is not None and n > cap:
            problems.append(f"{n} units of zone {zid!r} in {hx} (at most {cap} to a hex)")
    return problems
