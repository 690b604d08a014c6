"""Movement from data: allowances, the cost of a step, a path's cost and legality, the reachable set and the
cheapest path (Dijkstra) on any :class:`~forge.hexgrid.Grid`, hex or square.

Everything a game varies is read from the model: ``terrain.*.movement`` (cost by mobility class), ``map.paths``
(roads and trails), ``map.hexsides`` and ``rules.movement`` / ``rules.zoc`` (:class:`forge.model.MovementRules`,
:class:`forge.model.ZocRules`).  No function asks which game it is.  Costs are exact fractions (a road at 1/2).

A *state* is a set of words the data names in ``when`` lists: the weather or ground (``snow``, ``frost``,
``storm``), ``in-supply`` / ``out-of-supply``, the movement mode (``extended``), ``interdicted``, ``optional``.
A cost the data does not give (``unknown``, ``varies`` with no rule) makes the answer None, never a guess.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from ... import model as m
from ...hexgrid import Cell, Grid, Hexside
from ...notation import fraction
from . import infiltration as kinf
from . import zoc as kzoc

__all__ = [
    "PROHIBITED",
    "Board",
    "Mover",
    "Verdict",
    "allowance",
    "allowance_entry",
    "binds",
    "bonus",
    "cheapest",
    "crossing_cost",
    "mobile_assault_cost",
    "mobility_of",
    "mode_verdict",
    "mover",
    "on_line",
    "path_cost",
    "path_verdict",
    "problems",
    "reachable",
    "step_cost",
    "terrain_cost",
    "within_limits",
]

PROHIBITED: Literal["prohibited"] = "prohibited"
Cost = Fraction | Literal["prohibited"] | None
"""A movement cost: exact MPs, prohibited, or None when the data does not give it."""


def _rules(game: m.Game) -> m.MovementRules:
    return game.rules.movement or m.MovementRules()


def _applies(classes: Sequence[str], mobility: str) -> bool:
    return not classes or mobility in classes


def binds(lim: m.MoveLimit, mv: Mover) -> bool:
    """Does the per-move terrain limit ``lim`` bind ``mv`` (its mobility classes and unit types)?"""
    return _binds(lim, mv)


def _binds(lim: m.MoveLimit, mv: Mover) -> bool:
    if not _applies(lim.mobility, mv.mobility):
        return False
    return not lim.unit_types or (mv.unit_type is not None and mv.unit_type in {str(t) for t in lim.unit_types})


# ============================================================================================== who moves
@dataclass(frozen=True)
class Mover:
    """What the rules need to know about a moving unit or stack."""

    mobility: str
    unit_type: str | None = None
    side: str | None = None
    printed_ma: Fraction | None = None
    """The movement factor printed on the counter, where the game prints one."""


def mobility_of(game: m.Game, unit_type: str | None) -> str:
    """The mobility class of a unit type (``rules.movement.mobility``; else the default class)."""
    r = _rules(game)
    if unit_type is not None:
        for cls, types in r.mobility.items():
            if unit_type in {str(t) for t in types}:
                return cls
    return r.default_mobility or game.game.mobility_classes[0]


def mover(game: m.Game, unit: m.Unit | None = None, *, unit_type: str | None = None, step: int = 0) -> Mover:
    """A :class:`Mover` for a unit of the game (or a bare unit type)."""
    if unit is not None:
        unit_type = str(unit.type)
        ma: Fraction | None = None
        s = unit.strengths()[min(step, len(unit.steps) - 1)]
        if s.movement is not None:
            ma = Fraction(s.movement)
        return Mover(mobility_of(game, unit_type), unit_type, unit.side, ma)
    return Mover(mobility_of(game, unit_type), unit_type)


# ============================================================================================== allowance
def _matches(entry: m.MoveAllowance | m.MoveBonus, mv: Mover, states: set[str]) -> bool:
    if not set(entry.when) <= states:
        return False
    if isinstance(entry, m.MoveAllowance):
        if not _applies(entry.mobility, mv.mobility):
            return False
        if entry.unit_types and (mv.unit_type is None or mv.unit_type not in {str(t) for t in entry.unit_types}):
            return False
        if entry.side is not None and entry.side != mv.side:
            return False
    return True


def allowance(game: m.Game, mv: Mover, states: Iterable[str] = (), mode: str | None = None) -> Fraction | None:
    """The movement points ``mv`` has in ``states`` (the first matching ``rules.movement.allowances`` entry),
    plus the bonus of the movement ``mode`` (:func:`bonus`); None when the data does not give it."""
    st = set(states) | ({mode} if mode else set())
    for a in _rules(game).allowances:
        if not _matches(a, mv, st):
            continue
        base: Fraction | None
        if a.table is not None:
            base = _from_table(game, a.table, st, mv.mobility)
        elif a.mp == "printed":
            base = mv.printed_ma
        elif isinstance(a.mp, int | float):
            base = Fraction(str(a.mp))
        else:
            base = None
        if base is None:
            return None
        if a.multiply is not None:
            base = _round(base * fraction(a.multiply), a.rounding)
        if mode is not None:
            b = bonus(game, mode, st)
            return None if b is None else base + b
        return base
    return None


def allowance_entry(game: m.Game, mv: Mover, states: Iterable[str] = ()) -> m.MoveAllowance | None:
    """The ``rules.movement.allowances`` entry that gives ``mv``'s allowance in ``states`` (the first matching
    one), or None: :func:`allowance` reads its points, a play engine its ``hexes`` cap too."""
    st = set(states)
    return next((a for a in _rules(game).allowances if _matches(a, mv, st)), None)


def bonus(game: m.Game, mode: str, states: Iterable[str] = ()) -> Fraction | None:
    """The MPs a movement mode (extended movement) adds in ``states``: the first matching bonus."""
    st = set(states)
    for b in _rules(game).bonuses:
        if b.mode == mode and set(b.when) <= st:
            return None if isinstance(b.add, m.Unknown) else Fraction(str(b.add))
    return None


def _round(x: Fraction, how: str) -> Fraction:
    n = x.numerator // x.denominator
    return Fraction(n + (1 if how == "up" and n != x else 0))


def _from_table(game: m.Game, table_id: str, states: set[str], column: str) -> Fraction | None:
    t = next((t for t in game.tables if t.id == table_id), None)
    if t is None or column not in t.columns:
        return None
    j = t.columns.index(column)
    for row in t.rows:
        if row.label in states:
            try:
                return Fraction(str(row.cells[j]).strip())
            except (ValueError, ZeroDivisionError):
                return None
    return None


# ============================================================================================== the board
@dataclass
class Board:
    """The map as movement sees it: each cell's terrain and features, each side's features, path edges."""

    grid: Grid
    base: dict[Cell, str | None] = field(default_factory=dict)
    features: dict[Cell, list[str]] = field(default_factory=dict)
    sides: dict[Hexside, set[str]] = field(default_factory=dict)
    paths: dict[Hexside, set[str]] = field(default_factory=dict)
    default: str | None = None

    @classmethod
    def of(cls, game: m.Game) -> Board:
        grid = game.map.grid.grid()
        b = cls(grid, default=game.map.default_terrain)
        for label, info in game.map.hexes.items():
            c = grid.parse(label)
            b.base[c] = info.terrain or game.map.default_terrain
            b.features[c] = list(info.features)
        for hs in game.map.hexsides:
            side = grid.side(grid.parse(hs.between[0]), grid.parse(hs.between[1]))
            b.sides.setdefault(side, set()).update(hs.features)
        for p in game.map.paths:
            cells = [grid.parse(h) for h in p.hexes]
            for x, y in itertools.pairwise(cells):
                b.paths.setdefault(grid.side(x, y), set()).add(p.kind)
        return b

    def terrain(self, c: Cell) -> str | None:
        return self.base.get(c, self.default)

    def side_features(self, a: Cell, b: Cell) -> set[str]:
        return self.sides.get(Hexside.between(a, b), set())

    def path_kinds(self, a: Cell, b: Cell) -> set[str]:
        return self.paths.get(Hexside.between(a, b), set())


# ============================================================================================== costs
def _num(v: m.MoveCost | None) -> Cost:
    if v is None or isinstance(v, m.Unknown) or v == "varies":
        return None
    if v == PROHIBITED:
        return PROHIBITED
    return Fraction(str(v))


def terrain_cost(game: m.Game, tid: str | None, mobility: str, states: Iterable[str] = ()) -> Cost:
    """MPs to enter a hex of terrain ``tid`` (or cross a hexside, or follow a path of it), with the state
    changes of ``rules.movement.changes`` (``set`` replaces, ``add`` adds).  A terrain with no movement effect of its
    own (``movement: none``) adds nothing: 0 (:func:`step_cost` does not follow a path of one)."""
    if tid is None or tid not in game.terrain:
        return None
    mv = game.terrain[tid].movement
    cost = Fraction(0) if mv == "none" else _num(mv.get(mobility, mv.get("all")))
    st = set(states)
    for ch in _rules(game).changes:
        if ch.terrain == tid and set(ch.when) <= st and _applies(ch.mobility, mobility):
            if ch.set is not None:
                cost = Fraction(str(ch.set))
            if ch.add is not None and isinstance(cost, Fraction):
                cost += Fraction(str(ch.add))
    return cost


def _no_effect(game: m.Game, tid: str, mobility: str, states: set[str]) -> bool:
    """Terrain ``tid`` has no movement effect of its own (``movement: none``) that a ``rules.movement.changes``
    entry sets in these states."""
    t = game.terrain.get(tid)
    if t is None or t.movement != "none":
        return False
    return not any(
        ch.terrain == tid and ch.set is not None and set(ch.when) <= states and _applies(ch.mobility, mobility)
        for ch in _rules(game).changes
    )


def _roll_for(game: m.Game, feature: str) -> m.CrossingRoll | None:
    return next((r for r in _rules(game).crossing_rolls if feature in r.hexsides), None)


def crossing_cost(
    game: m.Game,
    feature: str,
    mobility: str,
    states: Iterable[str] = (),
    *,
    features_either_side: Iterable[str] = (),
    die: int | None = None,
) -> Cost:
    """Extra MPs to cross a hexside of terrain ``feature``: its terrain cost, or, when the game rolls for it
    (``crossing_rolls``), nothing in a ``free_when`` state or at a ``free_at`` feature, the optional rule's fixed
    cost in state ``optional``, else the table's entry for ``die`` (plus the feature's die modifier)."""
    st = set(states)
    roll = _roll_for(game, feature)
    if roll is None:
        return terrain_cost(game, feature, mobility, st)
    if set(roll.free_when) & st or set(roll.free_at) & set(features_either_side):
        return Fraction(0)
    if "optional" in st and roll.optional_cost is not None:
        return Fraction(str(roll.optional_cost))
    if die is None:
        return None
    t = next((t for t in game.tables if t.id == roll.table), None)
    if t is None:
        return None
    d = die + roll.die_modifier.get(feature, 0)
    row = next((r for r in t.rows if r.label in st), None)
    if row is None:
        return None
    for j, col in enumerate(t.columns):
        lo = int(col.rstrip("+"))
        if d == lo or (col.endswith("+") and d >= lo):
            return Fraction(str(row.cells[j]).lstrip("+"))
    return None


def _crossing_rule(game: m.Game, feature: str, mv: Mover) -> m.CrossingLimit | None:
    for c in _rules(game).crossings:
        if c.hexside != feature or not _applies(c.mobility, mv.mobility):
            continue
        if c.unit_types and (mv.unit_type is None or mv.unit_type not in {str(t) for t in c.unit_types}):
            continue
        return c
    return None


def free_cells(
    game: m.Game, board: Board, markers: Iterable[Cell], side: str | None, states: Iterable[str], ezoc: set[Cell]
) -> set[Cell]:
    """The cells where ``side``'s movement is free because of markers (``rules.movement.free_zones``) in
    ``markers``; a zone an enemy ZOC touches is lost when the rules say so."""
    st = set(states)
    out: set[Cell] = set()
    for z in _rules(game).free_zones:
        if (side is not None and z.side != side) or set(z.not_when) & st:
            continue
        for c in markers:
            cells = set(board.grid.within(c, z.radius))
            if z.negated_by_ezoc and cells & ezoc:
                continue
            out |= cells
    return out


def step_cost(
    game: m.Game,
    board: Board,
    mv: Mover,
    a: Cell,
    b: Cell,
    states: Iterable[str] = (),
    *,
    ezoc: set[Cell] = frozenset(),  # type: ignore[assignment]
    enemy: set[Cell] = frozenset(),  # type: ignore[assignment]
    free: set[Cell] = frozenset(),  # type: ignore[assignment]
    die: int | None = None,
) -> Cost:
    """MPs to move from ``a`` into the adjacent ``b``: a path's rate along a road or trail, else the terrain of
    ``b`` plus every hexside feature crossed (less those another feature cancels), plus the crossing rules; free
    inside a free zone; plus the ZOC costs of leaving ``a`` and entering ``b``."""
    r = _rules(game)
    st = set(states)
    if not board.grid.adjacent(a, b) or not board.grid.contains(b):
        return PROHIBITED
    if b in enemy and r.enemy_hexes_prohibited:
        return PROHIBITED
    cost: Cost
    # a path with no movement effect of its own (a railway only rail movement follows) gives no rate
    kinds = sorted(k for k in board.path_kinds(a, b) if not _no_effect(game, k, mv.mobility, st))
    rates = [terrain_cost(game, k, mv.mobility, st) for k in kinds]
    feats = board.side_features(a, b)
    if rates and all(isinstance(x, Fraction) for x in rates):
        cost = min(x for x in rates if isinstance(x, Fraction))
    else:
        cost = terrain_cost(game, board.terrain(b), mv.mobility, st)
        cancelled = {c for f in feats for c in r.cancels.get(f, ())}
        near = set(board.features.get(a, [])) | set(board.features.get(b, []))
        for f in sorted(feats - cancelled):
            extra = crossing_cost(game, f, mv.mobility, st, features_either_side=near, die=die)
            cost = _add(cost, extra)
    for f in sorted(feats):
        rule = _crossing_rule(game, f, mv)
        if rule is not None:
            cost = PROHIBITED if rule.prohibited else _add(cost, Fraction(str(rule.extra)))
    if cost == PROHIBITED:
        return PROHIBITED
    if b in free:
        cost = Fraction(0)
    zr = game.rules.zoc
    if zr is not None and zr.affects_movement and kzoc.active(zr, st):
        if a in ezoc and b in ezoc and (inf := kinf.rule_for(zr, mv.mobility)) is not None:
            return kinf.cost(inf, mv, cost)
        if a in ezoc:
            cost = _add(cost, Fraction(str(zr.leave_cost)))
        if b in ezoc:
            cost = _add(cost, Fraction(str(zr.enter_cost)))
    return cost


def _add(x: Cost, y: Cost) -> Cost:
    if x == PROHIBITED or y == PROHIBITED:
        return PROHIBITED
    if x is None or y is None:
        return None
    return x + y


def path_cost(
    game: m.Game, board: Board, mv: Mover, path: Sequence[Cell], states: Iterable[str] = (), **kw: Any
) -> Cost:
    """The total of :func:`step_cost` along ``path`` (prohibited if any step is)."""
    total: Cost = Fraction(0)
    for a, b in itertools.pairwise(path):
        total = _add(total, step_cost(game, board, mv, a, b, states, **kw))
    return total


def mobile_assault_cost(
    game: m.Game, mv: Mover, target_terrain: str | None, states: Iterable[str] = (), *, road: bool = False
) -> Fraction | None:
    """MPs a mobile assault into a hex of ``target_terrain`` costs (``rules.movement.mobile_assault``): its cost
    plus the terrain (a road into the hex at the assault's road rate)."""
    ma = _rules(game).mobile_assault
    if ma is None:
        return None
    extra: Cost = Fraction(0)
    if ma.plus_terrain:
        if road and ma.road_rate is not None:
            extra = Fraction(str(ma.road_rate))
        else:
            extra = terrain_cost(game, target_terrain, mv.mobility, states)
    if not isinstance(extra, Fraction):
        return None
    return Fraction(str(ma.cost)) + extra


# ============================================================================================== legality
def within_limits(
    game: m.Game, board: Board, mv: Mover, path: Sequence[Cell], *, only: m.MoveLimit | None = None
) -> bool:
    """Does ``path`` keep to the per-move terrain limits (``rules.movement.limits``, or just ``only``) that bind
    ``mv``?  Each hex entered counts its base terrain once, each hexside crossed its features."""
    counts: dict[str, int] = {}
    for x, y in itertools.pairwise(path):
        for t in {board.terrain(y)} | board.side_features(x, y):
            if t is not None:
                counts[t] = counts.get(t, 0) + 1
    limits = [only] if only is not None else _rules(game).limits
    return all(counts.get(lim.terrain, 0) <= lim.max for lim in limits if _binds(lim, mv))


@dataclass
class Verdict:
    """Whether a move is allowed: ``legal`` True/False, or None when the data cannot tell; ``why`` explains."""

    legal: bool | None
    why: str
    cost: Cost = None


def path_verdict(
    game: m.Game,
    board: Board,
    mv: Mover,
    path: Sequence[Cell],
    states: Iterable[str] = (),
    *,
    mode: str | None = None,
    enemy: Iterable[Cell] | None = None,
    ezoc: set[Cell] | None = None,
    mp: Fraction | None = None,
) -> Verdict:
    """Is moving along ``path`` allowed?  Checks, in order: adjacency, the per-move terrain limits
    (``limits``), crossing rules, ZOC stops and locking, the mode's ban on ending in an enemy zone, prohibited
    steps, and the cost against the allowance (``mp``, else :func:`allowance`).

    ``enemy``: the cells holding enemy units, when known (None: unknown -- a move that breaks no other rule
    is then undecided); ``ezoc``: the enemy zone (derived from ``enemy`` when omitted)."""
    r = _rules(game)
    st = set(states) | ({mode} if mode else set())
    g = board.grid
    for x, y in itertools.pairwise(path):
        if not g.adjacent(x, y):
            return Verdict(False, f"{g.label(x)} and {g.label(y)} are not adjacent")
    md = next((x for x in r.modes if x.id == mode), None) if mode else None
    if md is not None:
        foes = None if enemy is None else set(enemy)
        if ezoc is None and foes is not None:
            ezoc = kzoc.controlled(g, game.rules.zoc, foes, hexsides=board.sides, states=st)
        return mode_verdict(game, board, mv, md, path, st, enemy=foes, ezoc=ezoc)
    if not within_limits(game, board, mv, path):
        lim = next(x for x in r.limits if _binds(x, mv) and not within_limits(game, board, mv, path, only=x))
        return Verdict(False, f"more than {lim.max} x {lim.terrain} in one move ({lim.rule})")
    for i, (x, y) in enumerate(itertools.pairwise(path)):
        for f in board.side_features(x, y):
            c = _crossing_rule(game, f, mv)
            if c is None:
                continue
            if c.prohibited:
                return Verdict(False, f"{mv.mobility} units may not cross {f} ({c.rule})")
            if c.must_start_adjacent and i > 0:
                return Verdict(False, f"{f} may be crossed only from the starting hex ({c.rule})")
            if c.max_hexes is not None and len(path) - 1 > i + c.max_hexes:
                return Verdict(False, f"at most {c.max_hexes} hexes after crossing {f} ({c.rule})")
    enemy_set = None if enemy is None else set(enemy)
    zr = game.rules.zoc
    if ezoc is None and enemy_set is not None:
        ezoc = kzoc.controlled(g, zr, enemy_set, hexsides=board.sides, states=st)
    if zr is not None and ezoc is not None and zr.affects_movement and kzoc.active(zr, st):
        for i, (x, y) in enumerate(itertools.pairwise(path)):
            if zr.locking and x in ezoc and y in ezoc:
                return Verdict(False, f"{g.label(x)} to {g.label(y)}: enemy zone to enemy zone ({zr.rule})")
            if zr.stop_on_enter and y in ezoc and i + 2 < len(path):
                return Verdict(False, f"the move must stop on entering the enemy zone at {g.label(y)} ({zr.rule})")
        if mode in zr.no_end_in_ezoc and path[-1] in ezoc:
            return Verdict(False, f"a unit on {mode} movement may not end in an enemy zone ({zr.rule})")
    if enemy_set is not None and r.enemy_hexes_prohibited and set(path[1:]) & enemy_set:
        return Verdict(False, "the path enters a hex holding an enemy unit")
    cost = path_cost(game, board, mv, path, st, ezoc=ezoc or set(), enemy=enemy_set or set())
    if cost == PROHIBITED:
        return Verdict(False, "a step is prohibited terrain", cost)
    budget = mp if mp is not None else allowance(game, mv, st, mode)
    entry = allowance_entry(game, mv, st)
    if mp is None and entry is not None and isinstance(entry.hexes, int):
        if len(path) - 1 > entry.hexes:
            return Verdict(False, f"at most {entry.hexes} hex(es) a move ({entry.rule})", cost)
        if entry.mp is None and entry.table is None:
            budget = cost if isinstance(cost, Fraction) else None  # only the count of hexes binds
    if cost is None or budget is None:
        return Verdict(None, "a cost or the allowance is not in the data", cost)
    if cost > budget:
        return Verdict(False, f"costs {cost} MP, the allowance is {budget}", cost)
    if enemy_set is None:
        return Verdict(
            None,
            f"within the rules of movement ({cost} of {budget} MP), but where enemy units stand is not known",
            cost,
        )
    return Verdict(True, f"{cost} of {budget} MP", cost)


def on_line(board: Board, kind: str, c: Cell) -> bool:
    """Is ``c`` a hex of a path of ``kind`` (a railway)?"""
    return any(kind in board.path_kinds(c, n) for n in board.grid.neighbours(c))


def mode_verdict(
    game: m.Game,
    board: Board,
    mv: Mover,
    md: m.MoveMode,
    path: Sequence[Cell],
    states: Iterable[str] = (),
    *,
    enemy: set[Cell] | None = None,
    ezoc: set[Cell] | None = None,
) -> Verdict:
    """Is moving along ``path`` in the movement mode ``md`` (``rules.movement.modes``) allowed?  Every step must
    follow the mode's line, from a hex of it when ``start_on_path``; a ``hexes`` mode counts each hex one whatever
    its terrain, a ``rate`` mode pays that rate a hex from the allowance computed without the states it
    ``ignores``; enemy zones as ``enemy_zoc`` says (``as-movement``: ``rules.zoc``'s stops and locking).
    ``enemy`` None: where enemy units stand is not known."""
    st = set(states)
    g = board.grid
    if set(md.not_when) & st:
        return Verdict(False, f"no {md.id} movement in {', '.join(sorted(set(md.not_when) & st))} ({md.rule})")
    if md.start_on_path and not on_line(board, md.path, path[0]):
        return Verdict(False, f"a {md.id} move starts in a hex of the {md.path} ({md.rule})")
    for x, y in itertools.pairwise(path):
        if md.path not in board.path_kinds(x, y):
            return Verdict(False, f"{g.label(x)} to {g.label(y)} does not follow the {md.path} ({md.rule})")
    steps = len(path) - 1
    if isinstance(md.hexes, int):
        cost, budget = Fraction(steps), Fraction(md.hexes)
    elif md.rate is not None:
        cost = Fraction(str(md.rate)) * steps
        got = allowance(game, mv, st - set(md.ignores) - {md.id})
        if got is None:
            return Verdict(None, "the allowance is not in the data", cost)
        budget = got
    else:
        return Verdict(None, f"mode {md.id} gives neither hexes nor a rate")
    if cost > budget:
        return Verdict(False, f"{md.id}: {cost} of {budget}", cost)
    zr = game.rules.zoc
    if ezoc is not None:
        if md.enemy_zoc == "no-entry" and set(path) & ezoc:
            return Verdict(False, f"a {md.id} move may not start in or enter an enemy zone ({md.rule})", cost)
        if md.enemy_zoc == "as-movement" and zr is not None and zr.affects_movement and kzoc.active(zr, st):
            for i, (x, y) in enumerate(itertools.pairwise(path)):
                if zr.locking and x in ezoc and y in ezoc:
                    return Verdict(False, f"enemy zone to enemy zone ({zr.rule})", cost)
                if zr.stop_on_enter and y in ezoc and i + 2 < len(path):
                    return Verdict(False, f"the move must stop in the enemy zone at {g.label(y)} ({zr.rule})", cost)
        if zr is not None and md.id in zr.no_end_in_ezoc and path[-1] in ezoc:
            return Verdict(False, f"a {md.id} move may not end in an enemy zone ({zr.rule})", cost)
    if enemy is None:
        return Verdict(
            None, f"along the {md.path} ({cost} of {budget}), but where enemy units stand is not known", cost
        )
    if set(path[1:]) & enemy:
        return Verdict(False, "the path enters a hex holding an enemy unit", cost)
    return Verdict(True, f"{md.id}: {cost} of {budget}", cost)


# ============================================================================================== search
def reachable(
    game: m.Game,
    board: Board,
    mv: Mover,
    start: Cell,
    mp: Fraction,
    states: Iterable[str] = (),
    *,
    enemy: Iterable[Cell] = (),
    ezoc: set[Cell] | None = None,
    free: set[Cell] = frozenset(),  # type: ignore[assignment]
) -> dict[Cell, Fraction]:
    """Every cell ``mv`` can reach from ``start`` with ``mp`` movement points, with its cheapest cost (Dijkstra).

    Per-move terrain limits, ZOC stops and locking are part of the search state, so the answer is exact for
    them.  Steps whose cost the data does not give are not taken."""
    best = _search(game, board, mv, start, mp, states, enemy=enemy, ezoc=ezoc, free=free)
    return {c: cost for c, (cost, _) in best.items()}


def cheapest(
    game: m.Game,
    board: Board,
    mv: Mover,
    start: Cell,
    goal: Cell,
    states: Iterable[str] = (),
    *,
    mp: Fraction | None = None,
    enemy: Iterable[Cell] = (),
    ezoc: set[Cell] | None = None,
    free: set[Cell] = frozenset(),  # type: ignore[assignment]
) -> tuple[Fraction, list[Cell]] | None:
    """The cheapest path from ``start`` to ``goal`` (within ``mp`` when given) and its cost; None if none."""
    budget = mp if mp is not None else Fraction(10**9)
    best = _search(game, board, mv, start, budget, states, enemy=enemy, ezoc=ezoc, free=free)
    if goal not in best:
        return None
    return best[goal]


def _search(
    game: m.Game,
    board: Board,
    mv: Mover,
    start: Cell,
    mp: Fraction,
    states: Iterable[str],
    *,
    enemy: Iterable[Cell],
    ezoc: set[Cell] | None,
    free: set[Cell],
) -> dict[Cell, tuple[Fraction, list[Cell]]]:
    r = _rules(game)
    st = set(states)
    g = board.grid
    enemy_set = set(enemy)
    zr = game.rules.zoc
    if ezoc is None:
        ezoc = kzoc.controlled(g, zr, enemy_set, hexsides=board.sides, states=st)
    zones = zr is not None and zr.affects_movement and kzoc.active(zr, st)
    limits = [lim for lim in r.limits if _binds(lim, mv)]
    start_state = (start, tuple(0 for _ in limits), False)
    tie = itertools.count()
    heap: list[tuple[Fraction, int, tuple[Cell, tuple[int, ...], bool], list[Cell]]] = [
        (Fraction(0), next(tie), start_state, [start])
    ]
    seen: set[tuple[Cell, tuple[int, ...], bool]] = set()
    best: dict[Cell, tuple[Fraction, list[Cell]]] = {}
    while heap:
        cost, _, state, path = heapq.heappop(heap)
        if state in seen:
            continue
        seen.add(state)
        cell, used, stopped = state
        if cell not in best:
            best[cell] = (cost, path)
        if stopped:
            continue
        for n in g.neighbours(cell):
            c = step_cost(game, board, mv, cell, n, st, ezoc=ezoc if zones else set(), enemy=enemy_set, free=free)
            if not isinstance(c, Fraction) or cost + c > mp:
                continue
            nu = list(used)
            ok = True
            for k, lim in enumerate(limits):
                hit = lim.terrain == board.terrain(n) or lim.terrain in board.side_features(cell, n)
                nu[k] += hit
                ok &= nu[k] <= lim.max
            if not ok:
                continue
            stop = False
            if zones and zr is not None:
                if zr.locking and cell in ezoc and n in ezoc:
                    continue
                stop = zr.stop_on_enter and n in ezoc
            heapq.heappush(heap, (cost + c, next(tie), (n, tuple(nu), stop), [*path, n]))
    return best


# ============================================================================================== data checks
def problems(game: m.Game) -> list[str]:
    """What in ``rules.movement`` / ``rules.zoc`` names something the game does not have (a terrain, table,
    marker, side or mobility class): such an entry would silently never apply.  Empty when all is well."""
    out: list[str] = []
    r, z = game.rules.movement, game.rules.zoc
    terrain = set(game.terrain)
    tables = {t.id for t in game.tables}
    markers = {mk.id for mk in game.markers}
    sides = {s.id for s in game.game.sides}
    classes = set(game.game.mobility_classes) | {"all"}

    def need(kind: str, names: Iterable[str], known: set[str], where: str) -> None:
        for n in names:
            if n not in known:
                out.append(f"{where}: unknown {kind} {n!r} (known: {', '.join(sorted(known))})")

    if r is not None:
        need(
            "mobility class",
            [*r.mobility, *([r.default_mobility] if r.default_mobility else [])],
            classes,
            "rules.movement.mobility",
        )
        for i, a in enumerate(r.allowances):
            need("table", [a.table] if a.table else [], tables, f"rules.movement.allowances[{i}]")
            need("mobility class", a.mobility, classes, f"rules.movement.allowances[{i}]")
            need("side", [a.side] if a.side else [], sides, f"rules.movement.allowances[{i}]")
        for i, lim in enumerate(r.limits):
            need("terrain", [lim.terrain], terrain, f"rules.movement.limits[{i}]")
        for i, ch in enumerate(r.changes):
            need("terrain", [ch.terrain], terrain, f"rules.movement.changes[{i}]")
        for f, fs in r.cancels.items():
            need("terrain", [f, *fs], terrain, "rules.movement.cancels")
        for i, cr in enumerate(r.crossing_rolls):
            need(
                "terrain", [*cr.hexsides, *cr.die_modifier, *cr.free_at], terrain, f"rules.movement.crossing_rolls[{i}]"
            )
            need("table", [cr.table], tables, f"rules.movement.crossing_rolls[{i}]")
        for i, c in enumerate(r.crossings):
            need("terrain", [c.hexside], terrain, f"rules.movement.crossings[{i}]")
        for i, md in enumerate(r.modes):
            need("terrain", [md.path], terrain, f"rules.movement.modes[{i}]")
        for i, fz in enumerate(r.free_zones):
            need("marker", fz.markers, markers, f"rules.movement.free_zones[{i}]")
            need("side", [fz.side], sides, f"rules.movement.free_zones[{i}]")
    if z is not None:
        need("terrain", z.blocked_by, terrain, "rules.zoc.blocked_by")
        modes = {b.mode for b in r.bonuses} | {md.id for md in r.modes} if r is not None else set()
        need("movement mode", z.no_end_in_ezoc, modes, "rules.zoc.no_end_in_ezoc")
    return out
