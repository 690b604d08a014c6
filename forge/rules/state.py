"""The mutable state of a game in play, kept apart from the frozen :class:`forge.model.Game` it is played on.

As python-chess keeps its ``Board`` (mutable) apart from a ``Move`` (a value), Hexforge keeps the loaded game
(frozen, the single source of truth) apart from a :class:`State`: where each unit is, its steps, its markers,
the turn, phase and weather, the destroyed boxes and the victory-point tally.  The rules engine
(:mod:`forge.rules.hells_gate`) reads and changes a State; it never changes the Game.

A :class:`Board` is the Game compiled once for play: hexes and units numbered, adjacency, terrain, rivers and
supply sources in tables.  States share their Board.  Hexes and units are integers inside; the public
accessors take and return the game's own names (hex labels such as ``"C6"``, unit ids such as ``"sov-29tc"``).

Strengths: the rulebook leaves many strengths unknown (``?``).  :meth:`State.initial` refuses to start while
any is unknown, unless the caller supplies every missing value in ``strengths`` -- an assumption the caller
owns and should document (the tests keep theirs in ``tests/test_hells_gate.py``).
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..hexgrid import Grid
from ..model import Game, Unit, UnitType, Unknown
from ..notation import Strength


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
    """Kinds of phase in the sequence of play (3.0)."""

    SUPPLY = "supply"
    """Supply and Reinforcement (5.0, 6.0)."""
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
    """In its side's destroyed box: all its steps count for the enemy (12.0)."""
    BROKEN_OUT = "broken out"
    """Removed by a successful breakout (11.5): not destroyed; a reduced unit still counts as reduced (12.0).
    """
    WITHDRAWN = "withdrawn"
    """A conditional reinforcement whose condition failed (6.2): it never appears and scores nothing."""
    LOST = "lost"
    """A reinforcement with nowhere to arrive (6.1).  Reading: it scores nothing (6.1 does not say)."""

    def __repr__(self) -> str:
        return f"UnitStatus.{self.name}"


_PHASE_WORDS = (
    ("supply", Phase.SUPPLY),
    ("reinforce", Phase.SUPPLY),
    ("combat", Phase.COMBAT),
    ("movement", Phase.MOVEMENT),
    ("move", Phase.MOVEMENT),
    ("recovery", Phase.RECOVERY),
    ("housekeeping", Phase.HOUSEKEEPING),
    ("administrative", Phase.HOUSEKEEPING),
)


def _phase_kind(name: str) -> Phase:
    low = name.lower()
    for word, kind in _PHASE_WORDS:
        if word in low:
            return kind
    raise ValueError(
        f"phase {name!r} of the sequence of play is of no kind the engine knows "
        f"({', '.join(sorted({w for w, _ in _PHASE_WORDS}))})"
    )


def _vp_values(game: Game) -> tuple[int, int, int]:
    """VP per destroyed step, per reduced unit, per enemy supply source held (12.0), read from
    ``victory.points`` by what their text says (the format has no machine key for the kind of a VP item yet).
    """
    per_step = per_reduced = per_source = 0
    if game.victory is None:
        return 0, 0, 0
    for item in game.victory.points:
        if isinstance(item.vp, Unknown):
            raise ValueError(f"victory points for {item.text!r} are unknown: the engine cannot score")
        text = item.text.lower()
        if "supply" in text:
            per_source = item.vp
        elif "destroyed" in text:
            per_step = item.vp
        elif "one step" in text or "reduced" in text:
            per_reduced = item.vp
        else:
            raise ValueError(f"victory-point item {item.text!r} is of no kind the engine knows")
    return per_step, per_reduced, per_source


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
    """Hexes by their printed name (``Korsun`` -> E3; a name may cover several hexes)."""
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
    """The sequence of play: phase kind and acting side index (-1 for both/none), from ``game.sequence``."""
    first_turn: int
    last_turn: int
    vp_per_step: int
    vp_per_reduced: int
    vp_per_source: int
    handicap: tuple[int, ...]
    """VP added to each side's final score (12.0: the Germans' 10)."""
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
    first = game.game.first_side
    if not isinstance(first, str):
        raise ValueError("the side that moves first is unknown: the engine cannot order the turn")
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
    sequence = tuple(
        (_phase_kind(p.name), sides.index(p.side) if p.side is not None else -1) for p in game.sequence
    )
    if not sequence:
        raise ValueError("the game has no sequence of play")
    turns = [t.number for t in game.turns.turns]
    per_step, per_reduced, per_source = _vp_values(game)
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
        first_turn=min(turns),
        last_turn=max(turns),
        vp_per_step=per_step,
        vp_per_reduced=per_reduced,
        vp_per_source=per_source,
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
        printed = [Strength.parse(s) for s in u.steps]
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
                    raise ValueError(
                        f"{u.id} step {i + 1}: the data prints {p}, the assumed strengths say {v}"
                    )
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
        """Total attack strength after multipliers (7.1.2)."""
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

    @property
    def target(self) -> str:
        return self._board.labels[self._target]

    @property
    def attackers(self) -> tuple[str, ...]:
        return tuple(self._board.unit_ids[u] for u in self._attackers)

    @property
    def defenders(self) -> tuple[str, ...]:
        """The units whose strength counted (the strongest, up to the side's limit: 7.1.1)."""
        return tuple(self._board.unit_ids[u] for u in self._defenders)

    @property
    def base_column(self) -> str:
        crt = self._board.game.combat.crt
        assert crt is not None
        return crt.columns[self._base]

    @property
    def column(self) -> str:
        crt = self._board.game.combat.crt
        assert crt is not None
        return crt.columns[self._column]

    @property
    def all_out(self) -> str | None:
        """The unit flipped for an all-out attack (7.3), if any."""
        return None if self._flip is None else self._board.unit_ids[self._flip]

    def __repr__(self) -> str:
        return f"<CombatRecord {self}>"

    def __str__(self) -> str:
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
    """Hits a defending hex still has to absorb (7.5, 7.6)."""

    hex: int
    total: int
    remaining: int
    mandatory_retreat: bool
    """The final hit must be a retreat if one is possible (Soviet forces on 2-3 hits, 7.6)."""
    destinations: tuple[int, ...] | None = None
    """Once the defender has begun retreating: where the units may go (fixed when the retreat begins)."""


@dataclass(frozen=True)
class GameResult:
    """The end of the game (12.0)."""

    vp: tuple[int, ...]
    """Final score of each side, the handicap included."""
    winner: str | None
    """Side id, or None for a tie (the rules do not say what a tie is)."""
    eliminated: tuple[str, ...]
    """Units eliminated at the end for being unable to trace supply."""

    def __str__(self) -> str:
        return f"{self.winner or 'nobody'} wins ({', '.join(str(v) for v in self.vp)})"


class State:
    """One game in play.  Mutable: :func:`forge.rules.hells_gate.apply` changes it in place; :meth:`copy`
    branches.

    Per unit (by index, see :attr:`Board.unit_ids`): ``pos`` hex index or -1, ``steps`` left, ``status``,
    ``oos`` (Out of Supply marker, 5.2), ``retreated`` (Retreated marker, 7.6), ``attacked`` (this player
    turn, 7.1), ``moved`` (this movement phase).  Per hex: ``occupants`` (unit indices) and
    ``count[side][hex]``. Game-wide: ``turn``, ``step`` (index into :attr:`Board.sequence`), ``weather``,
    ``to_act`` (side index that must decide now), ``attacked_hexes`` (this combat phase, 7.1), ``hit_hexes``
    (this turn, 11.1), the two Hell's Gate triggers, and ``vp`` -- the running tally of each side's victory
    points without the handicap, kept up to date by every change (:meth:`vp_from_scratch` recomputes it).
    """

    __slots__ = (
        "attack_target",
        "attacked",
        "attacked_hexes",
        "attackers",
        "board",
        "breakout_open",
        "count",
        "hit_hexes",
        "hits",
        "last_combat",
        "log",
        "moved",
        "occupants",
        "oos",
        "pos",
        "rebuild_open",
        "reinforcements",
        "result",
        "retreated",
        "scratch",
        "soviet_entered_a2_a6",
        "soviet_entered_next_to_korsun",
        "status",
        "step",
        "steps",
        "strength",
        "to_act",
        "turn",
        "vp",
        "weather",
    )

    board: Board
    strength: tuple[tuple[tuple[int, int], ...], ...]
    pos: list[int]
    steps: list[int]
    status: list[UnitStatus]
    oos: list[bool]
    retreated: list[bool]
    attacked: list[bool]
    moved: list[bool]
    occupants: list[list[int]]
    count: list[list[int]]
    turn: int
    step: int
    weather: str
    to_act: int
    attacked_hexes: set[int]
    hit_hexes: set[int]
    soviet_entered_a2_a6: bool
    """6.2: a Soviet unit has entered A2-A6 at some time (the 24th Panzer Division then arrives)."""
    soviet_entered_next_to_korsun: bool
    """11.2, 11.3: a Soviet unit has entered a hex next to Korsun (the German freeze there then ends)."""
    vp: list[int]
    attack_target: int
    """Hex of the attack being declared (-1: none)."""
    attackers: list[int]
    hits: PendingHits | None
    reinforcements: list[tuple[int, tuple[int, ...]]]
    """Arriving units whose owner must choose among equally near entry hexes (6.1), with the choices."""
    rebuild_open: bool
    breakout_open: bool
    last_combat: CombatRecord | None
    result: GameResult | None
    log: list[str] | None
    scratch: dict[Any, Any]
    """Engine caches derived from the state (legal moves); each entry carries the inputs it was derived from.
    """

    # ------------------------------------------------------------------------------------------ creation
    @classmethod
    def initial(
        cls,
        game: Game,
        *,
        strengths: Mapping[str, Sequence[int | tuple[int, int]]] | None = None,
        scenario: str | None = None,
        log: bool = False,
    ) -> State:
        """A new game at its first decision: units set up (10.0), full strength, snow, turn 1, and the first
        automatic phases played (turn 1's Soviet supply phase).

        ``strengths`` supplies every strength the data leaves unknown (:func:`resolve_strengths`);
        ``scenario`` picks one of ``game.scenarios`` (its setup overrides and first turn); ``log`` keeps a
        readable event log in :attr:`log`.
        """
        board = Board.of(game)
        strength = resolve_strengths(game, strengths)
        n_units, n_hexes, n_sides = len(board.units), len(board.labels), len(board.sides)
        s = cls.__new__(cls)
        s.board = board
        s.strength = strength
        s.pos = [-1] * n_units
        s.steps = list(board.max_steps)
        s.status = [UnitStatus.PENDING] * n_units
        s.oos = [False] * n_units
        s.retreated = [False] * n_units
        s.attacked = [False] * n_units
        s.moved = [False] * n_units
        s.occupants = [[] for _ in range(n_hexes)]
        s.count = [[0] * n_hexes for _ in range(n_sides)]
        s.turn = board.first_turn
        s.step = 0
        weather = game.turns.weather
        s.weather = weather.initial if weather is not None else ""
        s.to_act = max(board.sequence[0][1], 0)
        s.attacked_hexes = set()
        s.hit_hexes = set()
        s.soviet_entered_a2_a6 = False
        s.soviet_entered_next_to_korsun = False
        s.vp = [0] * n_sides
        s.attack_target = -1
        s.attackers = []
        s.hits = None
        s.reinforcements = []
        s.rebuild_open = False
        s.breakout_open = False
        s.last_combat = None
        s.result = None
        s.log = [] if log else None
        s.scratch = {}
        setup = {u.id: u.setup for u in board.units}
        if scenario is not None:
            sc = next((x for x in game.scenarios if x.id == scenario), None)
            if sc is None:
                raise KeyError(f"{scenario!r} is not a scenario of the game")
            setup.update(sc.setup)
            s.turn = sc.first_turn
        for u, unit in enumerate(board.units):
            where = setup.get(unit.id)
            if where is not None:
                s.status[u] = UnitStatus.ON_MAP
                s._place(u, board.hex(where))
        from .hells_gate import start  # the engine plays the opening automatic phases

        start(s)
        return s

    def copy(self) -> State:
        """An independent copy (the Board and strengths are shared: they never change)."""
        c = State.__new__(State)
        c.board = self.board
        c.strength = self.strength
        c.pos = self.pos[:]
        c.steps = self.steps[:]
        c.status = self.status[:]
        c.oos = self.oos[:]
        c.retreated = self.retreated[:]
        c.attacked = self.attacked[:]
        c.moved = self.moved[:]
        c.occupants = [o[:] for o in self.occupants]
        c.count = [x[:] for x in self.count]
        c.turn = self.turn
        c.step = self.step
        c.weather = self.weather
        c.to_act = self.to_act
        c.attacked_hexes = set(self.attacked_hexes)
        c.hit_hexes = set(self.hit_hexes)
        c.soviet_entered_a2_a6 = self.soviet_entered_a2_a6
        c.soviet_entered_next_to_korsun = self.soviet_entered_next_to_korsun
        c.vp = self.vp[:]
        c.attack_target = self.attack_target
        c.attackers = self.attackers[:]
        h = self.hits
        c.hits = (
            None
            if h is None
            else PendingHits(h.hex, h.total, h.remaining, h.mandatory_retreat, h.destinations)
        )
        c.reinforcements = self.reinforcements[:]
        c.rebuild_open = self.rebuild_open
        c.breakout_open = self.breakout_open
        c.last_combat = self.last_combat
        c.result = self.result
        c.log = None if self.log is None else self.log[:]
        c.scratch = dict(self.scratch)
        return c

    # ---------------------------------------------------------------------------------------- read access
    @property
    def game(self) -> Game:
        return self.board.game

    @property
    def phase(self) -> Phase:
        """The kind of the current phase."""
        if self.result is not None:
            return Phase.GAME_OVER
        return self.board.sequence[self.step][0]

    @property
    def active(self) -> int:
        """Index of the side whose phase it is (the housekeeping phase belongs to nobody: -1)."""
        return self.board.sequence[self.step][1]

    @property
    def active_side(self) -> str | None:
        a = self.active
        return None if a < 0 else self.board.sides[a]

    @property
    def side_to_act(self) -> str | None:
        """The side that must choose the next action (None once the game is over)."""
        return None if self.result is not None else self.board.sides[self.to_act]

    @property
    def phase_name(self) -> str:
        return self.board.game.sequence[self.step].name

    def hex_of(self, unit_id: str) -> str | None:
        """Label of the hex the unit is in (None when it is not on the map)."""
        p = self.pos[self.board.unit(unit_id)]
        return None if p < 0 else self.board.labels[p]

    def units_at(self, label: str) -> list[str]:
        """Ids of the units in a hex, in the game's unit order."""
        return [self.board.unit_ids[u] for u in sorted(self.occupants[self.board.hex(label)])]

    def steps_of(self, unit_id: str) -> int:
        return self.steps[self.board.unit(unit_id)]

    def status_of(self, unit_id: str) -> UnitStatus:
        return self.status[self.board.unit(unit_id)]

    def is_oos(self, unit_id: str) -> bool:
        return self.oos[self.board.unit(unit_id)]

    def is_retreated(self, unit_id: str) -> bool:
        return self.retreated[self.board.unit(unit_id)]

    def strength_of(self, unit_id: str, *, attack: bool = False) -> int:
        """Printed (or assumed) strength on the unit's current step."""
        return self.unit_strength(self.board.unit(unit_id), attack=attack)

    def unit_strength(self, u: int, *, attack: bool = False) -> int:
        steps = self.steps[u]
        if steps <= 0:
            return 0
        return self.strength[u][self.board.max_steps[u] - steps][0 if attack else 1]

    def destroyed(self, side: str) -> list[str]:
        """Ids of ``side``'s units in its destroyed box."""
        s = self.board.side(side)
        return [
            self.board.unit_ids[u]
            for u, st in enumerate(self.status)
            if st is UnitStatus.DESTROYED and self.board.unit_side[u] == s
        ]

    def broken_out(self, side: str) -> list[str]:
        s = self.board.side(side)
        return [
            self.board.unit_ids[u]
            for u, st in enumerate(self.status)
            if st is UnitStatus.BROKEN_OUT and self.board.unit_side[u] == s
        ]

    def score(self) -> dict[str, int]:
        """Each side's victory points now, the handicap included (the final score once the game is over)."""
        return {s: v + h for s, v, h in zip(self.board.sides, self.vp, self.board.handicap, strict=True)}

    def on_map(self, side: int | None = None) -> Iterator[int]:
        """Indices of units on the map (of one side)."""
        us = self.board.unit_side
        for u, p in enumerate(self.pos):
            if p >= 0 and (side is None or us[u] == side):
                yield u

    # --------------------------------------------------------------------------------------- victory points
    def unit_vp(self, u: int) -> int:
        """VP the enemy scores for unit ``u`` as it stands (12.0): every step of a destroyed unit; a
        multi-step unit on the map or broken out with steps missing counts once as reduced."""
        st = self.status[u]
        b = self.board
        if st is UnitStatus.DESTROYED:
            return b.vp_per_step * b.max_steps[u]
        if (st is UnitStatus.ON_MAP or st is UnitStatus.BROKEN_OUT) and self.steps[u] < b.max_steps[u]:
            return b.vp_per_reduced
        return 0

    def vp_from_scratch(self) -> list[int]:
        """Each side's VP (without the handicap) recomputed from the units and the map (12.0)."""
        b = self.board
        n = len(b.sides)
        vp = [0] * n
        for u in range(len(b.units)):
            vp[1 - b.unit_side[u] if n == 2 else 0] += self.unit_vp(u)
        for h, owner in enumerate(b.source_of):
            if owner < 0:
                continue
            for s in range(n):
                if s != owner and self.count[s][h] > 0:
                    vp[s] += b.vp_per_source
        return vp

    # ------------------------------------------------------------------------ low-level changes (engine only)
    def _place(self, u: int, h: int) -> None:
        """Put unit ``u`` (not on the map) into hex ``h``, keeping occupancy and the VP tally."""
        b = self.board
        s = b.unit_side[u]
        self.pos[u] = h
        self.occupants[h].append(u)
        self.count[s][h] += 1
        if self.count[s][h] == 1:
            owner = b.source_of[h]
            if owner >= 0 and owner != s:
                self.vp[s] += b.vp_per_source

    def _lift(self, u: int) -> None:
        """Take unit ``u`` off its hex (to move it or remove it)."""
        b = self.board
        s = b.unit_side[u]
        h = self.pos[u]
        self.pos[u] = -1
        self.occupants[h].remove(u)
        self.count[s][h] -= 1
        if self.count[s][h] == 0:
            owner = b.source_of[h]
            if owner >= 0 and owner != s:
                self.vp[s] -= b.vp_per_source

    def _set_steps(self, u: int, steps: int) -> None:
        before = self.unit_vp(u)
        self.steps[u] = steps
        self.vp[1 - self.board.unit_side[u]] += self.unit_vp(u) - before

    def _set_status(self, u: int, status: UnitStatus) -> None:
        """Change a unit's status; a unit leaving the map is lifted off it and loses its markers."""
        before = self.unit_vp(u)
        if status is not UnitStatus.ON_MAP and self.pos[u] >= 0:
            self._lift(u)
            self.oos[u] = self.retreated[u] = False
        self.status[u] = status
        self.vp[1 - self.board.unit_side[u]] += self.unit_vp(u) - before

    def _note(self, text: str) -> None:
        if self.log is not None:
            self.log.append(f"T{self.turn} {self.phase_name}: {text}")

    # ------------------------------------------------------------------------------------------- display
    def __repr__(self) -> str:
        return (
            f"<State {self.board.game.game.id} turn {self.turn} {self.phase_name!r} "
            f"to act: {self.side_to_act} vp={self.score()}>"
        )

    def describe(self) -> str:
        """A multi-line picture of the map: each occupied hex with its units, steps and markers."""
        b = self.board
        lines = [repr(self)]
        for h, occ in enumerate(self.occupants):
            if not occ:
                continue
            parts = []
            for u in sorted(occ):
                marks = (
                    ("*" if self.steps[u] < b.max_steps[u] else "")
                    + (" OOS" if self.oos[u] else "")
                    + (" R" if self.retreated[u] else "")
                )
                parts.append(f"{b.unit_ids[u]}{marks}")
            lines.append(f"  {b.labels[h]}: {', '.join(parts)}")
        return "\n".join(lines)
