"""The mutable state of a game in play, kept apart from the frozen :class:`forge.model.Game` it is played on.

As python-chess keeps its ``Board`` (mutable) apart from a ``Move`` (a value), Hexforge keeps the loaded game
(frozen, the single source of truth) apart from a :class:`State`: where each unit is, its steps, its markers,
the turn, phase and weather, the destroyed boxes and the victory-point tally.  The rules engine
(:mod:`forge.rules.engine`) reads and changes a State; it never changes the Game.

A :class:`Board` is the Game compiled once for play: hexes and units numbered, adjacency, terrain, rivers and
supply sources in tables.  States share their Board.  Hexes and units are integers inside; the public
accessors take and return the game's own names (hex labels such as ``"C6"``, unit ids such as ``"sov-29tc"``).
The Board and the records live in :mod:`forge.rules.board` (re-exported here), so that the engine builds on them
and State.initial() calls the engine without an import cycle.

Strengths: the rulebook leaves many strengths unknown (``?``).  :meth:`State.initial` refuses to start while
any is unknown, unless the caller supplies every missing value in ``strengths`` -- an assumption the caller
owns and should document (``forge play --assume`` prints its own).  It refuses a game whose data
lacks anything else play needs with one :class:`UnplayableGameError` naming every missing piece.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..model import Game
from .board import (
    Board,
    CombatRecord,
    GameResult,
    PendingHits,
    Phase,
    UnitStatus,
    UnknownStrengthError,
    UnplayableGameError,
    resolve_strengths,
)
from .engine import problems, remember_start, remembered_start, rules_of, start

if TYPE_CHECKING:
    from .engine import _Rules

# Enum members as module globals for the hot paths: `Phase.COMBAT` is a lookup through the enum class that costs
# about ten times a global's (CPython), and play compares phase kinds and statuses at every decision.
_GAME_OVER = Phase.GAME_OVER
_BROKEN_OUT = UnitStatus.BROKEN_OUT
_DESTROYED = UnitStatus.DESTROYED
_ON_MAP = UnitStatus.ON_MAP
_PENDING = UnitStatus.PENDING

__all__ = [
    "Board",
    "CombatRecord",
    "GameResult",
    "PendingHits",
    "Phase",
    "State",
    "UnitStatus",
    "UnknownStrengthError",
    "UnplayableGameError",
    "resolve_strengths",
]


def _start_key(
    strengths: Mapping[str, Sequence[int | tuple[int, int]]] | None, scenario: str | None
) -> tuple[Any, ...] | None:
    """A hashable copy of :meth:`State.initial`'s arguments, or None when they hold anything but ints (or pairs
    of ints) per unit: such calls are not remembered."""
    if strengths is None:
        return (scenario, None)
    rows: list[tuple[str, tuple[Any, ...]]] = []
    for unit, values in strengths.items():
        row: list[Any] = []
        for v in values:
            if type(v) is int:
                row.append(v)
            elif isinstance(v, tuple | list) and len(v) == 2 and type(v[0]) is int and type(v[1]) is int:
                row.append((v[0], v[1]))
            else:
                return None
        rows.append((unit, tuple(row)))
    return (scenario, tuple(rows))


class State:
    """One game in play.  Mutable: :func:`forge.rules.engine.apply` changes it in place; :meth:`copy`
    branches.

    Per unit (by index, see :attr:`Board.unit_ids`): ``pos`` hex index or -1, ``steps`` left, ``status``,
    ``oos`` (Out of Supply marker), ``retreated`` (Retreated marker), ``attacked`` (this player
    turn), ``moved`` (this movement phase).  Per hex: ``occupants`` (unit indices) and
    ``count[side][hex]``; per side, ``held`` (the hexes holding its units) and ``held_mask`` (the same as a bit
    mask).  Game-wide: ``turn``, ``step``
    (index into :attr:`Board.sequence`), ``weather``, ``to_act`` (side index that must decide now),
    ``attacked_hexes`` (this combat phase), ``hit_hexes`` (this turn: retreat limits may name them), the
    effects' ``tripped`` triggers, and ``vp`` -- the running tally of each side's victory points without the
    handicap, kept up to date by every change (:meth:`vp_from_scratch` recomputes it).  ``rules`` is the game's
    compiled rules, shared by every State of the game.
    """

    __slots__ = (
        "active",
        "attack_target",
        "attacked",
        "attacked_hexes",
        "attackers",
        "board",
        "breakout_open",
        "count",
        "held",
        "held_mask",
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
        "rules",
        "scratch",
        "status",
        "step",
        "steps",
        "strength",
        "to_act",
        "tripped",
        "turn",
        "vp",
        "weather",
    )

    board: Board
    rules: _Rules
    """The engine's compiled rules of the board's game (:func:`forge.rules.engine.rules_of`)."""
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
    held: list[set[int]]
    """Per side, the hexes holding its units (``count[side][hex] > 0``), kept up to date by every change."""
    held_mask: list[int]
    """:attr:`held` as bit masks (bit ``h`` set when the side holds hex ``h``; :mod:`forge.rules.bitboard`), kept up
    to date with it: the engine's zones, targets and supply lines read the masks, the rules kits the sets."""
    turn: int
    step: int
    active: int
    """Index of the side whose phase it is (the housekeeping phase belongs to nobody: -1): ``board.sequence[step][1]``,
    kept with :attr:`step` by the engine (a plain attribute: it is read at nearly every decision)."""
    weather: str
    to_act: int
    attacked_hexes: set[int]
    hit_hexes: set[int]
    tripped: list[bool]
    """Per trigger of the special rules' effects (:attr:`forge.rules.effects.Effects.triggers`): whether a unit of
    its side has entered one of its hexes at some time (a conditional arrival comes, a freeze ends)."""
    vp: list[int]
    attack_target: int
    """Hex of the attack being declared (-1: none)."""
    attackers: list[int]
    hits: PendingHits | None
    reinforcements: list[tuple[int, tuple[int, ...]]]
    """Arriving units whose owner must choose among equally near entry hexes, with the choices."""
    rebuild_open: bool
    breakout_open: bool
    last_combat: CombatRecord | None
    result: GameResult | None
    log: list[str] | None
    scratch: dict[Any, Any]
    """Engine caches derived from the state (the moves of a movement phase, the ways to absorb a pending hit);
    each entry carries the inputs it was derived from.  Code that changes a State by hand clears it."""

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
        """A new game at its first decision: units set up, full strength, the initial weather, the first turn,
        and the first automatic phases played (the first side's supply phase).

        ``strengths`` supplies every strength the data leaves unknown (:func:`resolve_strengths`);
        ``scenario`` picks one of ``game.scenarios`` (its setup overrides and first turn); ``log`` keeps a
        readable event log in :attr:`log`.

        The first start of a game with given strengths and scenario is kept in the game's compiled rules
        (:func:`forge.rules.engine.remembered_start`); later calls copy it, since the opening phases play the
        same way every time (they roll no dice).
        """
        key = _start_key(strengths, scenario)
        fresh = remembered_start(game, key)
        if fresh is None:
            fresh = cls._start(game, strengths, scenario)
            remember_start(fresh, key)
        s = fresh.copy()
        s.log = list(fresh.log or ()) if log else None
        return s

    @classmethod
    def _start(
        cls,
        game: Game,
        strengths: Mapping[str, Sequence[int | tuple[int, int]]] | None,
        scenario: str | None,
    ) -> State:
        """:meth:`initial` from scratch, with a log (the caller drops it when it was not asked for)."""
        missing: UnknownStrengthError | None = None
        try:
            strength = resolve_strengths(game, strengths)
        except UnknownStrengthError as e:
            missing, strength = e, ()
        found = problems(game)
        if found:  # one error naming every missing piece, the strengths among them
            if missing is not None:
                n = len(missing.missing)
                found.append(
                    f"{n} unit{'' if n == 1 else 's'} {'has' if n == 1 else 'have'} strengths the data "
                    "does not give (units[*].steps, or pass strengths=)"
                )
            raise UnplayableGameError(game.game.id, found)
        if missing is not None:
            raise missing
        board = Board.of(game)
        n_units, n_hexes, n_sides = len(board.units), len(board.labels), len(board.sides)
        s = cls()
        s.board = board
        s.rules = rules_of(board)
        s.strength = strength
        s.pos = [-1] * n_units
        s.steps = list(board.max_steps)
        s.status = [_PENDING] * n_units
        s.oos = [False] * n_units
        s.retreated = [False] * n_units
        s.attacked = [False] * n_units
        s.moved = [False] * n_units
        s.occupants = [[] for _ in range(n_hexes)]
        s.count = [[0] * n_hexes for _ in range(n_sides)]
        s.held = [set() for _ in range(n_sides)]
        s.held_mask = [0] * n_sides
        s.turn = board.first_turn
        s.step = 0
        s.active = board.sequence[0][1]
        weather = game.turns.weather
        s.weather = weather.initial if weather is not None else ""
        s.to_act = max(board.sequence[0][1], 0)
        s.attacked_hexes = set()
        s.hit_hexes = set()
        s.tripped = [False] * len(s.rules.effects.triggers)
        s.vp = [0] * n_sides
        s.attack_target = -1
        s.attackers = []
        s.hits = None
        s.reinforcements = []
        s.rebuild_open = False
        s.breakout_open = False
        s.last_combat = None
        s.result = None
        s.log = []
        s.scratch = {}
        if scenario is not None:
            sc = next((x for x in game.scenarios if x.id == scenario), None)
            if sc is None:
                raise KeyError(f"{scenario!r} is not a scenario of the game")
            s.turn = sc.first_turn
        # Fixed hexes, set-up zones (the kit's deterministic legal placement) and reduced starts
        # (forge.rules.kit.setup), with the scenario's set-up overrides; :func:`problems` refuses an off-map pool,
        # which this engine does not play.
        from .kit import setup as kit_setup

        init = kit_setup.initial(game, scenario=scenario)
        for u, unit in enumerate(board.units):
            st = init.get(unit.id)
            if st is None:
                continue
            s.steps[u] = min(s.steps[u], st.steps_left)
            if st.hex is not None:
                s.status[u] = _ON_MAP
                s._place(u, board.hex(st.hex))
        start(s)
        return s

    def copy(self) -> State:
        """An independent copy (the Board and strengths are shared: they never change)."""
        c = State()  # a blank State (not State.__new__(State), which mypyc cannot compile: docs/PERFORMANCE.md)
        c.board = self.board
        c.rules = self.rules
        c.strength = self.strength
        c.pos = self.pos[:]
        c.steps = self.steps[:]
        c.status = self.status[:]
        c.oos = self.oos[:]
        c.retreated = self.retreated[:]
        c.attacked = self.attacked[:]
        c.moved = self.moved[:]
        c.occupants = list(map(list.copy, self.occupants))  # (map in C: half the time of a comprehension)
        c.count = list(map(list.copy, self.count))
        c.held = [set(x) for x in self.held]
        c.held_mask = self.held_mask[:]
        c.turn = self.turn
        c.step = self.step
        c.active = self.active
        c.weather = self.weather
        c.to_act = self.to_act
        c.attacked_hexes = set(self.attacked_hexes)
        c.hit_hexes = set(self.hit_hexes)
        c.tripped = self.tripped[:]
        c.vp = self.vp[:]
        c.attack_target = self.attack_target
        c.attackers = self.attackers[:]
        h = self.hits
        c.hits = None if h is None else PendingHits(h.hex, h.total, h.remaining, h.mandatory_retreat, h.destinations)
        c.reinforcements = self.reinforcements[:]
        c.rebuild_open = self.rebuild_open
        c.breakout_open = self.breakout_open
        c.last_combat = self.last_combat
        c.result = self.result
        c.log = None if self.log is None else self.log[:]
        c.scratch = dict(self.scratch)
        kept = c.scratch.get("options")
        if kept is not None:  # a move cuts the kept movement phase's lists in place (engine._without): own copies
            c.scratch["options"] = (kept[0], kept[1][:], kept[2][:])
        return c

    # ---------------------------------------------------------------------------------------- read access
    @property
    def game(self) -> Game:
        return self.board.game

    @property
    def phase(self) -> Phase:
        """The kind of the current phase."""
        if self.result is not None:
            return _GAME_OVER
        return self.board.sequence[self.step][0]

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
        return self.board.phase_names[self.step]

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
            if st is _DESTROYED and self.board.unit_side[u] == s
        ]

    def broken_out(self, side: str) -> list[str]:
        s = self.board.side(side)
        return [
            self.board.unit_ids[u]
            for u, st in enumerate(self.status)
            if st is _BROKEN_OUT and self.board.unit_side[u] == s
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
        """VP the enemy scores for unit ``u`` as it stands: every step of a destroyed unit; a
        multi-step unit on the map or broken out with steps missing counts once as reduced."""
        st = self.status[u]
        b = self.board
        if st is _DESTROYED:
            return b.vp_per_step * b.max_steps[u]
        if (st is _ON_MAP or st is _BROKEN_OUT) and self.steps[u] < b.max_steps[u]:
            return b.vp_per_reduced + b.vp_per_lost_step * (b.max_steps[u] - self.steps[u])
        return 0

    def vp_from_scratch(self) -> list[int]:
        """Each side's VP (without the handicap) recomputed from the units and the map."""
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
            self.held[s].add(h)
            self.held_mask[s] |= 1 << h
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
            self.held[s].discard(h)
            self.held_mask[s] &= ~(1 << h)
            owner = b.source_of[h]
            if owner >= 0 and owner != s:
                self.vp[s] -= b.vp_per_source

    def _relocate(self, u: int, h: int) -> None:
        """Move unit ``u`` (on the map) to hex ``h``: :meth:`_lift` then :meth:`_place`, in one call."""
        b = self.board
        s = b.unit_side[u]
        old = self.pos[u]
        self.occupants[old].remove(u)
        count, source_of = self.count[s], b.source_of
        count[old] -= 1
        if count[old] == 0:
            self.held[s].discard(old)
            self.held_mask[s] &= ~(1 << old)
            owner = source_of[old]
            if owner >= 0 and owner != s:
                self.vp[s] -= b.vp_per_source
        self.pos[u] = h
        self.occupants[h].append(u)
        count[h] += 1
        if count[h] == 1:
            self.held[s].add(h)
            self.held_mask[s] |= 1 << h
            owner = source_of[h]
            if owner >= 0 and owner != s:
                self.vp[s] += b.vp_per_source

    def _set_steps(self, u: int, steps: int) -> None:
        before = self.unit_vp(u)
        self.steps[u] = steps
        self.vp[1 - self.board.unit_side[u]] += self.unit_vp(u) - before

    def _set_status(self, u: int, status: UnitStatus) -> None:
        """Change a unit's status; a unit leaving the map is lifted off it and loses its markers."""
        before = self.unit_vp(u)
        if status is not _ON_MAP and self.pos[u] >= 0:
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
