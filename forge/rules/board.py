"""The frozen side of a game in play: a :class:`Board` (the :class:`forge.model.Game` compiled for play), the kinds
of phase and unit status, and the records the engine writes (combats, pending hits, the result).

:mod:`forge.rules.state` holds the mutable :class:`~forge.rules.state.State` and re-exports these names; the
engine (:mod:`forge.rules.engine`) builds on this module and on State's methods, and State.initial() calls the
engine, so the import graph runs state -> engine -> board without a cycle.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..hexgrid import Grid
from ..model import Game, PhaseActivity, Unit, UnitType, Unknown
from ..model import Phase as SeqPhase


class UnknownStrengthError(ValueError):
    """The engine was asked to play with strengths the rulebook does not give and nobody assumed."""

    def __init__(self, missing: Mapping[str, list[int]]) -> None:
        self.missing = dict(missing)
        listed = ", ".join(
            f"{u} (step{'s' if len(s) > 1 else ''} {', '.join(str(i + 1) for i in s)})"
            for u, s in sorted(self.missing.items())
        )
        super().__init__(
            f"{len(self.missing)} unit(s) have unknown strengths: {listed}; pass strengths={{unit_id: [full, "
            "reduced, ...]}} with values you assume (and say so)"
        )


class Phase(enum.Enum):
    """Kinds of phase in the sequence of play."""

    SUPPLY = "supply"
    """Supply and Reinforcement."""
    COMBAT = "combat"
    MOVEMENT = "movement"
    RECOVERY = "recovery"
    HOUSEKEEPING = "housekeeping"
    GAME_OVER = "game over"

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


class UnitStatus(enum.Enum):
    """Where a unit is in the life of a game."""

    PENDING = "pending"
    """A reinforcement not yet arrived."""
    ON_MAP = "on map"
    DESTROYED = "destroyed"
    """In its side's destroyed box: all its steps count for the enemy."""
    BROKEN_OUT = "broken out"
    """Removed by a successful breakout: not destroyed; a reduced unit still counts as reduced.
    """
    WITHDRAWN = "withdrawn"
    """A conditional reinforcement whose condition failed: it never appears and scores nothing."""
    LOST = "lost"
    """A reinforcement with nowhere to arrive.  Reading: it scores nothing (books seldom say)."""

    def __repr__(self) -> str:
        return f"UnitStatus.{self.name}"


class UnplayableGameError(ValueError):
    """The engine was asked to play a game whose data lacks what play needs: every missing piece is named, each
    with the key path of the data that would give it (e.g. ``combat.crt.cells``)."""

    def __init__(self, game_id: str, missing: Sequence[str]) -> None:
        self.game_id = game_id
        self.missing = tuple(missing)
        super().__init__(f"cannot play {game_id}: " + "; ".join(self.missing))


_ACTIVITY_KIND = {
    PhaseActivity.SUPPLY: Phase.SUPPLY,
    PhaseActivity.REINFORCEMENT: Phase.SUPPLY,
    PhaseActivity.COMBAT: Phase.COMBAT,
    PhaseActivity.MOVEMENT: Phase.MOVEMENT,
    PhaseActivity.RECOVERY: Phase.RECOVERY,
    PhaseActivity.HOUSEKEEPING: Phase.HOUSEKEEPING,
}


def _phase_kind(phase: SeqPhase) -> Phase | None:
    """The kind of a phase of the sequence of play: its first ``activities`` entry that names one; None when the
    data gives none (never read from the words of its name: :func:`board_problems` names such a phase)."""
    for act in phase.activities:
        if act in _ACTIVITY_KIND:
            return _ACTIVITY_KIND[act]
    return None


def _vp_values(game: Game) -> tuple[int, int, int, int]:
    """VP per destroyed step, per reduced unit, per enemy supply source held, per step lost by a unit still in play
    (enemy combat strength lost), from each item's ``per`` key: an item that says what it counts only in words is
    refused, never read from its text."""
    per_step = per_reduced = per_source = per_lost = 0
    if game.victory is None:
        return 0, 0, 0, 0
    for item in game.victory.points:
        if isinstance(item.vp, Unknown):
            raise ValueError(f"victory points for {item.text!r} are unknown: the engine cannot score")
        if item.per == "enemy-source":
            per_source = item.vp
        elif item.per == "enemy-cs":
            per_step = per_lost = item.vp
        elif item.per == "enemy-step":
            per_step = item.vp
        elif item.per == "enemy-reduced":
            per_reduced = item.vp
        elif item.per is None:
            raise ValueError(
                f"victory-point item {item.text!r} says what it counts only in words (expected per: enemy-step, "
                "enemy-cs, enemy-source or enemy-reduced)"
            )
        else:
            raise ValueError(
                f"victory-point item {item.text!r} counts {item.per!r}, which this engine does not score (expected "
                "per: enemy-step, enemy-cs, enemy-source or enemy-reduced)"
            )
    return per_step, per_reduced, per_source, per_lost


def _expand_sequence(game: Game, sides: Sequence[str]) -> list[tuple[Phase | None, int, str, frozenset[str]]]:
    """The phases in play order as (kind, acting side index or -1, name, activities): a run of ``each_side`` phases
    is played whole by each side in turn, the first side first."""
    out: list[tuple[Phase | None, int, str, frozenset[str]]] = []
    seq = list(game.sequence)
    i = 0
    while i < len(seq):
        if seq[i].each_side:
            j = i
            while j < len(seq) and seq[j].each_side:
                j += 1
            for si, side in enumerate(sides):
                out.extend(
                    (_phase_kind(p), si, f"{_side_name(game, side)} {p.name}", frozenset(map(str, p.activities)))
                    for p in seq[i:j]
                )
            i = j
            continue
        p = seq[i]
        out.append(
            (_phase_kind(p), sides.index(p.side) if p.side in sides else -1, p.name, frozenset(map(str, p.activities)))
        )
        i += 1
    return out


def _side_name(game: Game, side: str) -> str:
    return next((s.name for s in game.game.sides if s.id == side), side)


def board_problems(game: Game) -> list[str]:
    """What the data lacks for a Board to be built (each with the key path that would give it); [] when nothing."""
    out: list[str] = []
    first = game.game.first_side
    if not isinstance(first, str):
        out.append("the side that moves first is unknown (game.first_side)")
    if len(game.game.sides) != 2:
        out.append(f"the engine plays two sides, the game has {len(game.game.sides)} (game.sides)")
    grid = game.map.grid.grid()
    n_cells = sum(1 for _ in grid.cells())
    if game.map.default_terrain is None:
        known = sum(1 for lab in (grid.label(c) for c in grid.cells()) if (h := game.map.hexes.get(lab)) and h.terrain)
        if known < n_cells:
            out.append(
                f"the terrain of {n_cells - known} of the map's {n_cells} hexes is unknown (map.hexes, "
                "map.default_terrain)"
            )
    if not game.sequence:
        out.append("the game has no sequence of play (sequence)")
    sides = [s.id for s in game.game.sides]
    for i, p in enumerate(game.sequence):
        if _phase_kind(p) is None:
            out.append(
                f"phase {p.name!r} does not say what happens in it (expected sequence[{i}].activities, any of: "
                + ", ".join(a.value for a in _ACTIVITY_KIND)
                + ")"
            )
        if p.side is None and not p.each_side and _phase_kind(p) not in (Phase.HOUSEKEEPING, None):
            out.append(f"phase {p.name!r} has no acting side (sequence[{i}].side or sequence[{i}].each_side)")
        if p.side is not None and p.each_side:
            out.append(f"phase {p.name!r} has both a side and each_side (sequence[{i}])")
        if p.side is not None and p.side not in sides:
            out.append(f"phase {p.name!r} names no side of the game (sequence[{i}].side)")
    try:
        _vp_values(game)
    except ValueError as e:
        out.append(f"{e} (victory.points)")
    if game.victory is None or not game.victory.points:
        out.append("no victory points are given: the engine cannot score (victory.points)")
    return out


@dataclass(frozen=True, eq=False)
class Board:
    """A :class:`Game` compiled for play: hexes and units numbered 0..n-1, and the tables the engine reads.

    Build with :meth:`Board.of`, which caches one Board per Game object.
    """

    game: Game
    grid: Grid
    labels: tuple[str, ...]
    """Hex index -> label, row by row from the top."""
    hex_index: Mapping[str, int]
    neighbours: tuple[tuple[int, ...], ...]
    """On-map neighbours of each hex."""
    terrain: tuple[str, ...]
    """Base terrain id of each hex."""
    features: tuple[frozenset[str], ...]
    """Terrain ids of kind feature in each hex (city, airfield)."""
    hexside_features: Mapping[tuple[int, int], frozenset[str]]
    """Features of the side between two hexes, keyed by both orders."""
    names: Mapping[str, tuple[int, ...]]
    """Hexes by their printed name (a name may cover several hexes)."""
    sides: tuple[str, ...]
    """Side ids; index 0 moves first (``game.first_side``)."""
    source_of: tuple[int, ...]
    """Index of the side whose supply source each hex is, or -1."""
    sources: tuple[tuple[int, ...], ...]
    """Supply-source hexes of each side."""
    units: tuple[Unit, ...]
    unit_ids: tuple[str, ...]
    unit_index: Mapping[str, int]
    unit_side: tuple[int, ...]
    unit_type: tuple[UnitType, ...]
    max_steps: tuple[int, ...]
    sequence: tuple[tuple[Phase, int], ...]
    """The sequence of play: phase kind and acting side index (-1 for both/none), from ``game.sequence`` (a run of
    ``each_side`` phases is expanded into one run per side)."""
    phase_names: tuple[str, ...]
    """The name of each phase of :attr:`sequence`."""
    phase_activities: tuple[frozenset[str], ...]
    """What each phase of :attr:`sequence` does (``game.sequence[*].activities``; empty: the data does not say)."""
    first_turn: int
    last_turn: int
    vp_per_step: int
    vp_per_reduced: int
    vp_per_source: int
    vp_per_lost_step: int
    """VP per step lost by a unit still in play (enemy combat strength lost; 0 when nothing scores it)."""
    handicap: tuple[int, ...]
    """VP added to each side's final score (a handicap)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Cache for engines: each rules module keeps its compiled rule data here under its own key."""

    @staticmethod
    def of(game: Game) -> Board:
        """The Board of ``game``, built on first use and cached for the life of the Game object."""
        cached = _BOARDS.get(id(game))
        if cached is not None and cached.game is game:
            return cached
        board = _build_board(game)
        _BOARDS[id(game)] = board
        return board

    @staticmethod
    def built(game: Game) -> Board | None:
        """The Board of ``game`` if :meth:`of` has built it, else None (builds nothing)."""
        cached = _BOARDS.get(id(game))
        return cached if cached is not None and cached.game is game else None

    def hex(self, label: str) -> int:
        """Index of the hex ``label`` (``"C6"``); KeyError with the label when it is not on the map."""
        try:
            return self.hex_index[label.strip().upper()]
        except KeyError:
            raise KeyError(f"{label!r} is not a hex of the map") from None

    def unit(self, unit_id: str) -> int:
        """Index of the unit ``unit_id``; KeyError when the game has no such unit."""
        try:
            return self.unit_index[unit_id]
        except KeyError:
            raise KeyError(f"{unit_id!r} is not a unit of {self.game.game.title}") from None

    def side(self, side_id: str) -> int:
        return self.sides.index(side_id)

    def named(self, name: str) -> tuple[int, ...]:
        """Hexes printed with ``name``; ValueError when the map has none (the engine needs it)."""
        found = self.names.get(name)
        if not found:
            raise ValueError(f"the map names no hex {name!r}; the rules need it")
        return found

    def river_between(self, a: int, b: int, hexside_kinds: frozenset[str]) -> bool:
        """True when the side between adjacent hexes ``a`` and ``b`` has one of ``hexside_kinds``."""
        feats = self.hexside_features.get((a, b))
        return bool(feats and feats & hexside_kinds)


_BOARDS: dict[int, Board] = {}


def _build_board(game: Game) -> Board:
    grid = game.map.grid.grid()
    cells = list(grid.cells())
    labels = tuple(grid.label(c) for c in cells)
    at = {c: i for i, c in enumerate(cells)}
    hex_index = {lab.upper(): i for i, lab in enumerate(labels)}
    neighbours = tuple(tuple(sorted(at[n] for n in grid.neighbours(c))) for c in cells)
    problems = board_problems(game)
    if problems:
        raise UnplayableGameError(game.game.id, problems)
    first = game.game.first_side
    assert isinstance(first, str)
    sides = [first] + [s.id for s in game.game.sides if s.id != first]
    terrain: list[str] = []
    features: list[frozenset[str]] = []
    source_of: list[int] = []
    names: dict[str, list[int]] = {}
    for i, lab in enumerate(labels):
        info = game.map.hexes.get(lab)
        t = info.terrain if info is not None and info.terrain is not None else game.map.default_terrain
        if t is None:
            raise ValueError(f"the terrain of hex {lab} is unknown (no entry and no default_terrain)")
        terrain.append(t)
        features.append(frozenset(info.features) if info is not None else frozenset())
        owner = info.supply if info is not None else None
        source_of.append(sides.index(owner) if owner is not None else -1)
        if info is not None and info.name:
            names.setdefault(info.name, []).append(i)
    sides_feats: dict[tuple[int, int], frozenset[str]] = {}
    for hs in game.map.hexsides:
        a, b = hex_index[hs.between[0].upper()], hex_index[hs.between[1].upper()]
        f = frozenset(hs.features) | sides_feats.get((a, b), frozenset())
        sides_feats[(a, b)] = sides_feats[(b, a)] = f
    units = tuple(game.units)
    expanded = _expand_sequence(game, sides)
    sequence = tuple((k, si) for k, si, _, _ in expanded if k is not None)
    turns = [t.number for t in game.turns.turns]
    per_step, per_reduced, per_source, per_lost = _vp_values(game)
    handicap = game.victory.handicap if game.victory is not None else {}
    return Board(
        game=game,
        grid=grid,
        labels=labels,
        hex_index=hex_index,
        neighbours=neighbours,
        terrain=tuple(terrain),
        features=tuple(features),
        hexside_features=sides_feats,
        names={k: tuple(v) for k, v in names.items()},
        sides=tuple(sides),
        source_of=tuple(source_of),
        sources=tuple(tuple(i for i, o in enumerate(source_of) if o == s) for s in range(len(sides))),
        units=units,
        unit_ids=tuple(u.id for u in units),
        unit_index={u.id: i for i, u in enumerate(units)},
        unit_side=tuple(sides.index(u.side) for u in units),
        unit_type=tuple(u.type for u in units),
        max_steps=tuple(len(u.steps) for u in units),
        sequence=sequence,
        phase_names=tuple(n for _, _, n, _ in expanded),
        phase_activities=tuple(a for _, _, _, a in expanded),
        first_turn=min(turns),
        last_turn=max(turns),
        vp_per_step=per_step,
        vp_per_reduced=per_reduced,
        vp_per_source=per_source,
        vp_per_lost_step=per_lost,
        handicap=tuple(handicap.get(s, 0) for s in sides),
    )


def resolve_strengths(
    game: Game, strengths: Mapping[str, Sequence[int | tuple[int, int]]] | None = None
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Attack and defence strength of every unit on every step (full first), in ``game.units`` order.

    Printed values come from the data; ``strengths`` fills the unknown ones (``{unit_id: [full, reduced]}``,
    an int per step, or an ``(attack, defense)`` pair for two-number formats).  A supplied value must agree
    with a printed one: an assumption may fill gaps, never overrule the book.  Raises
    :class:`UnknownStrengthError` naming every unit still unknown.
    """
    given = dict(strengths or {})
    ids = {u.id for u in game.units}
    stray = sorted(set(given) - ids)
    if stray:
        raise KeyError(f"strengths given for units the game does not have: {', '.join(stray)}")
    out: list[tuple[tuple[int, int], ...]] = []
    missing: dict[str, list[int]] = {}
    for u in game.units:
        printed = u.strengths()  # in the game's notation: "8-4" is one strength and a movement allowance
        assumed = given.get(u.id)
        if assumed is not None and len(assumed) != len(printed):
            raise ValueError(f"{u.id} has {len(printed)} step(s) but {len(assumed)} strength(s) were given")
        row: list[tuple[int, int]] = []
        for i, p in enumerate(printed):
            a, d = p.attack, p.defense
            if assumed is not None:
                v = assumed[i]
                ga, gd = (v, v) if isinstance(v, int) else (int(v[0]), int(v[1]))
                if (a is not None and a != ga) or (d is not None and d != gd):
                    raise ValueError(f"{u.id} step {i + 1}: the data prints {p}, the assumed strengths say {v}")
                a, d = ga, gd
            if a is None or d is None:
                missing.setdefault(u.id, []).append(i)
                continue
            if a < 0 or d < 0:
                raise ValueError(f"{u.id} step {i + 1}: strengths cannot be negative")
            row.append((a, d))
        out.append(tuple(row))
    if missing:
        raise UnknownStrengthError(missing)
    return tuple(out)


class CombatRecord:
    """What a combat was, for players, logs and tests.  Built cheaply from indices; the names are computed
    when read (``target``, ``attackers``, ``defenders``, ``base_column``, ``column``, ``all_out`` ...)."""

    __slots__ = (
        "_attackers",
        "_base",
        "_board",
        "_column",
        "_defenders",
        "_flip",
        "_target",
        "attack",
        "attacker_losses",
        "defense",
        "die",
        "hits",
        "net_shift",
        "overconcentrated",
        "shifts",
    )

    def __init__(
        self,
        board: Board,
        target: int,
        attackers: tuple[int, ...],
        defenders: tuple[int, ...],
        attack: Fraction | int,
        defense: Fraction | int,
        base: int,
        shifts: tuple[str, ...],
        net_shift: int,
        column: int,
        flip: int | None,
        overconcentrated: bool,
        die: int,
        hits: int,
    ) -> None:
        self._board = board
        self._target = target
        self._attackers = attackers
        self._defenders = defenders
        self.attack = attack
        """Total attack strength after multipliers."""
        self.defense = defense
        self._base = base
        self.shifts = shifts
        """Ids of the shifts that applied (before caps)."""
        self.net_shift = net_shift
        """Columns moved, after caps."""
        self._column = column
        self._flip = flip
        self.overconcentrated = overconcentrated
        self.die = die
        self.hits = hits
        """Hits the defender takes (dice-pool combat: its strength losses)."""
        self.attacker_losses = 0
        """Strength the attacker lost (dice-pool combat; 0 on an odds CRT of hits)."""

    @property
    def target(self) -> str:
        return self._board.labels[self._target]

    @property
    def attackers(self) -> tuple[str, ...]:
        return tuple(self._board.unit_ids[u] for u in self._attackers)

    @property
    def defenders(self) -> tuple[str, ...]:
        """The units whose strength counted (the strongest, up to the side's limit)."""
        return tuple(self._board.unit_ids[u] for u in self._defenders)

    @property
    def base_column(self) -> str:
        """The odds column before shifts ("" in dice-pool combat, which has no table)."""
        crt = self._board.game.combat.crt
        return "" if crt is None or self._base < 0 else crt.columns[self._base]

    @property
    def column(self) -> str:
        crt = self._board.game.combat.crt
        return "" if crt is None or self._column < 0 else crt.columns[self._column]

    @property
    def all_out(self) -> str | None:
        """The unit flipped for an all-out attack, if any."""
        return None if self._flip is None else self._board.unit_ids[self._flip]

    def __repr__(self) -> str:
        return f"<CombatRecord {self}>"

    def __str__(self) -> str:
        if self._column < 0:  # dice-pool combat: attack and defense are the two sides' hits
            tail = "" if self.all_out is None else f", all-out ({self.all_out} pays first)"
            return (
                f"{'+'.join(self.attackers)} vs {self.target} ({'+'.join(self.defenders)}): {self.attack} hit(s) to "
                f"{self.defense}{tail}: losses {self.attacker_losses} / {self.hits}"
            )
        kind = (
            f"all-out ({self.all_out} flipped)"
            if self.all_out
            else ("overconcentrated" if self.overconcentrated else "normal")
        )
        return (
            f"{'+'.join(self.attackers)} ({self.attack}) vs {self.target} ({self.defense}): "
            f"{self.base_column} {self.net_shift:+d} -> {self.column}, {kind}, "
            f"die {self.die}: {self.hits} hit(s)"
        )


@dataclass
class PendingHits:
    """Hits a defending hex still has to absorb."""

    hex: int
    total: int
    remaining: int
    mandatory_retreat: bool
    """The final hit must be a retreat if one is possible (the CRT's mandatory-retreat rule)."""
    destinations: tuple[int, ...] | None = None
    """Once the defender has begun retreating: where the units may go (fixed when the retreat begins)."""


@dataclass(frozen=True)
class GameResult:
    """The end of the game."""

    vp: tuple[int, ...]
    """Final score of each side, the handicap included."""
    winner: str | None
    """Side id, or None for a tie (the rules do not say what a tie is)."""
    eliminated: tuple[str, ...]
    """Units eliminated at the end for being unable to trace supply."""

    def __str__(self) -> str:
        return f"{self.winner or 'nobody'} wins ({', '.join(str(v) for v in self.vp)})"
