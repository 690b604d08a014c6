"""The play engine for odds-CRT hex-and-counter games: coded results, movement points, zones of control, movement
modes along lines, weather, replacements, control of places, victory -- all from the data.

Nothing asks which game it is. The engine reads: the grid and terrain (``map``, ``terrain``), the units (their
strength-and-movement faces, full first, and their ``entry``), the sequence of play (``sequence``: each phase's
``side`` or ``each_side`` and its ``activities``; ``rules.play.phases`` limits a phase to some units, movement modes
or turns), the turn track (``turns.turns``: the weather of each turn and the replacement points of each side),
movement through :mod:`forge.rules.kit.movement` (allowances with the weather's ``when``, a ``hexes`` cap a move may
not pass, terrain, hexside and path costs by mobility class, per-move terrain limits) and the movement modes of
``rules.movement.modes`` (rail: along the line only, from a hex of it, a fixed number of hexes or a rate), zones of
control through :mod:`forge.rules.kit.zoc` (stop on entering, locking, costs to enter and leave), combat through
:mod:`forge.rules.combat` (an odds or differential CRT of ``code`` cells, its ``below``/``above`` ends, terrain
shifts and multipliers, ``combat.modifiers`` and ``combat.shifts`` whose conditions hold in the attack's
:func:`situation`, ``combat.shift_caps``, ``combat.attacks_per_unit``/``attacks_per_defender``, the legend
``combat.results``: steps, retreats, eliminations, exchanges in steps or strength points, who advances), retreats
through :mod:`forge.rules.kit.retreat`, advance after combat (the results' ``advance``, else
``rules.retreat.advance*``), stacking through
:mod:`forge.rules.kit.stacking`, communication through :mod:`forge.rules.kit.supply`, replacements
(``rules.play.replacements``), control of places (``rules.play.control``) and victory (``victory`` points and levels
through :mod:`forge.rules.kit.victory`, ``rules.play.hold``). :func:`problems` lists what a game's data lacks;
:func:`initial` refuses such a game.

Driving a game (the same shape as :mod:`forge.rules.engine`)::

    state = initial(game)
    dice = Dice(seed=1)
    while state.result is None:
        action = choose(legal_actions(state))
        apply(state, action, dice)            # in place; returns the state; state.copy() to branch

Phases with nothing to decide pass by themselves.  Decisions:

* Reinforcement: :class:`Restore` (a step back for a reduced unit), :class:`Return` (an eliminated unit placed
  again), :class:`EndPhase` (unused points are lost unless ``carry_over``).  Arrivals are placed at their entry
  hex when the phase begins.
* Movement: :class:`Move` (one move per unit per phase, ordinary or in a mode), :class:`EndPhase`.
* Combat: :class:`Attack` (one hex, any set of adjacent units that may still attack this phase, on a hex that may
  still be attacked; :func:`legal_actions` lists every eligible unit together and each alone), then
  the results' decisions: :class:`LoseStep` (which unit pays a loss or an exchange), :class:`Retreat` (a unit's
  whole retreat path), :class:`Advance` / :class:`EndAdvance`; :class:`EndPhase`.

The module exposes the interface ``forge play`` registers (:data:`ENGINE`): ``problems(game)``,
``initial(game, assume)``, ``legal_actions(state)``, ``apply(state, action, dice)`` and ``state.result``.

Readings where the data is silent are marked "Reading:" below.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from .. import model as m
from ..hexgrid import Cell, Grid
from ..notation import Strength, fraction
from .. import conditions as _vocab
from . import combat as _combat
from .board import UnplayableGameError
from .dice import Dice, DiceSource, ScriptedDice
from .kit import conditions as _conds
from .kit import movement as mk
from .kit import retreat as kr
from .kit import setup as kit_setup
from .kit import stacking as ks
from .kit import supply as ksup
from .kit import victory as kv
from .kit import zoc as kz

__all__ = [
    "ENGINE",
    "Action",
    "Advance",
    "Attack",
    "Dice",
    "EndAdvance",
    "EndPhase",
    "IllegalAction",
    "LoseStep",
    "Move",
    "Restore",
    "Result",
    "Retreat",
    "Return",
    "ScriptedDice",
    "State",
    "apply",
    "initial",
    "legal_actions",
    "problems",
    "selects",
]

ORDINARY = "ordinary"
"""The name :class:`Move` gives a move in no mode."""


class IllegalAction(ValueError):
    """An action that is not legal in the state it was applied to."""


# ================================================================================================== dice
# ================================================================================================ actions
@dataclass(frozen=True, slots=True)
class EndPhase:
    """End the current phase."""

    def __str__(self) -> str:
        return "end phase"


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``unit`` to ``to`` (a hex label) in ``mode`` (``ordinary`` or a ``rules.movement.modes`` id)."""

    unit: str
    to: str
    mode: str = ORDINARY

    def __str__(self) -> str:
        return f"move {self.unit} to {self.to}" + ("" if self.mode == ORDINARY else f" by {self.mode}")


@dataclass(frozen=True, slots=True)
class Attack:
    """Attack the units in ``target`` with ``attackers``."""

    target: str
    attackers: tuple[str, ...]

    def __str__(self) -> str:
        return f"attack {self.target} with {'+'.join(self.attackers)}"


@dataclass(frozen=True, slots=True)
class LoseStep:
    """``unit`` pays one step of the loss (or exchange) being taken."""

    unit: str

    def __str__(self) -> str:
        return f"{self.unit} loses a step"


@dataclass(frozen=True, slots=True)
class Retreat:
    """``unit`` retreats along ``path`` (hex labels, the unit's hex excluded)."""

    unit: str
    path: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.unit} retreats to {'-'.join(self.path)}"


@dataclass(frozen=True, slots=True)
class Advance:
    """``unit`` advances into ``to``, the hex the defenders left."""

    unit: str
    to: str

    def __str__(self) -> str:
        return f"{self.unit} advances to {self.to}"


@dataclass(frozen=True, slots=True)
class EndAdvance:
    """No (further) unit advances."""

    def __str__(self) -> str:
        return "no advance"


@dataclass(frozen=True, slots=True)
class Restore:
    """Spend replacement points on one step of the reduced ``unit``."""

    unit: str

    def __str__(self) -> str:
        return f"restore a step of {self.unit}"


@dataclass(frozen=True, slots=True)
class Return:
    """Spend replacement points to put the eliminated ``unit`` back on the map at ``hex``."""

    unit: str
    hex: str

    def __str__(self) -> str:
        return f"return {self.unit} at {self.hex}"


Action = EndPhase | Move | Attack | LoseStep | Retreat | Advance | EndAdvance | Restore | Return


@dataclass(frozen=True)
class Result:
    """The end of the game: each side's VP (in ``game.sides`` order), the winner (None: a draw or no level), the
    victory level's id when one matched, and why."""

    vp: tuple[int, ...]
    winner: str | None
    level: str | None
    reason: str

    def __str__(self) -> str:
        return f"{self.winner or 'nobody'} wins ({self.reason}; VP {', '.join(str(v) for v in self.vp)})"


# ============================================================================================ compiled game
@dataclass(frozen=True)
class Piece:
    """One counter in play (a unit with ``copies`` gives several, ``id``, ``id.2`` ...)."""

    uid: str
    unit: m.Unit
    faces: tuple[Strength, ...]
    mobility: str

    @property
    def side(self) -> str:
        return self.unit.side

    @property
    def full(self) -> int:
        return len(self.faces)

    def face(self, steps_left: int) -> Strength:
        return self.faces[max(0, min(self.full - steps_left, self.full - 1))]


@dataclass(frozen=True)
class Slot:
    """A phase of one turn: the sequence's phase, the side that plays it and what it does."""

    phase: m.Phase
    side: str | None
    kind: Literal["movement", "combat", "reinforcement", "other"]
    rule: m.PhaseRule | None


class Rules:
    """The game compiled once for play (shared by every copy of a state)."""

    def __init__(self, game: m.Game) -> None:
        self.game = game
        self.grid: Grid = game.map.grid.grid()
        self.sides = [s.id for s in game.game.sides]
        first = game.game.first_side
        self.order = [first, *[s for s in self.sides if s != first]] if isinstance(first, str) else self.sides
        mr = game.rules.movement or m.MovementRules()
        self.modes = {md.id: md for md in mr.modes}
        self.board = mk.Board.of(game)
        # Reading: a path kind with no movement cost of its own (a railway only trains use: ``movement: none``, or
        # no costs given) does not change what an ordinary step costs; it is followed only in a mode.
        costly = {k for k, t in game.terrain.items() if t.kind is m.TerrainKind.PATH and t.costs}
        self.ordinary_board = mk.Board(
            self.board.grid,
            self.board.base,
            self.board.features,
            self.board.sides,
            {e: ks_ & costly for e, ks_ in self.board.paths.items() if ks_ & costly},
            self.board.default,
        )
        self.cells = list(self.grid.cells())
        self.labels = {c: self.grid.label(c) for c in self.cells}
        self.index = {c: i for i, c in enumerate(self.cells)}
        self.scale = _scale(game)
        self.nbrs = {c: self.grid.neighbours(c) for c in self.cells}
        self.pieces: dict[str, Piece] = {}
        for u in game.units:
            for k in range(u.copies):
                uid = u.id if k == 0 else f"{u.id}.{k + 1}"
                self.pieces[uid] = Piece(uid, u, tuple(u.strengths()), mk.mobility_of(game, str(u.type)))
        self.starts = {st.piece: st for st in kit_setup.starts(game)}
        """How each piece starts (forge.rules.kit.setup), by (unit id, copy)."""
        self.pool_from = {
            uid: st.from_turn or 1
            for uid, pc in self.pieces.items()
            if (st := self.starts.get(_piece_key(uid, pc))) is not None and st.how == "pool"
        }
        """Pieces that start in the off-map pool, and the first turn each may come back as a replacement."""
        play = game.rules.play or m.PlayRules()
        self.play = play
        self.phase_rules = {r.phase: r for r in play.phases}
        self.slots: list[Slot] = []
        seq = game.sequence
        i = 0
        while i < len(seq):
            if seq[i].each_side:
                j = i
                while j < len(seq) and seq[j].each_side:
                    j += 1
                for side in self.order:
                    self.slots += [self._slot(p, side) for p in seq[i:j]]
                i = j
            else:
                self.slots.append(self._slot(seq[i], seq[i].side))
                i += 1
        self.turns = {t.number: t for t in game.turns.turns}
        self.last_turn = max(self.turns)
        self.first_turn = min(self.turns)
        self.tracked: set[Cell] = set()
        ctl = play.control
        if ctl is not None:
            places = set(ctl.places)
            for label, info in game.map.hexes.items():
                if places & ({info.terrain} | set(info.features)):
                    self.tracked.add(self.grid.parse(label))
            self.tracked |= {self.grid.parse(h) for h in ctl.hexes}
            for hexes in ctl.initial.values():
                self.tracked |= {self.grid.parse(h) for h in hexes}
        for hw in play.hold:
            self.tracked |= {self.grid.parse(h) for h in hw.hexes}
        for label in game.map.hexes:
            if kv.hex_vp(game, label):
                self.tracked.add(self.grid.parse(label))
        self.edge_cost: dict[tuple[str, frozenset[str]], dict[tuple[Cell, Cell], Any]] = {}
        self.stack_memo: dict[tuple[tuple[str, int], ...], bool] = {}
        self.by_index: dict[tuple[str, frozenset[str]], list[list[tuple[int, Any]]]] = {}
        self.zoc_cost: dict[tuple[Any, ...], Any] = {}
        """Step costs in and out of enemy zones: they depend only on whether each end is in one."""
        self.zone_memo: dict[tuple[Any, ...], frozenset[Cell]] = {}
        combat = game.combat
        self.modifiers = list(combat.modifiers)
        self.shifts = list(combat.shifts)
        self.result_advance = any(rc.advance is not None for rc in combat.results.values())
        """The legend says who advances after which result (``combat.results[].advance``); else the retreat rules
        (``rules.retreat.advance``, ``advance_after``) say it for every result."""
        self.needs_supply = any(_asks_supply(sh.condition, game.terrain) for sh in combat.shifts) or any(
            _asks_supply(mod.condition, game.terrain) for mod in combat.modifiers
        )
        """Does a shift's or a modifier's condition ask whether units are in supply?"""
        self.rivers = frozenset(_conds.river_features(game.terrain))
        self.terrain_memo: dict[Cell, frozenset[str]] = {}
        self.supply_memo: dict[tuple[int, str], frozenset[Cell]] = {}

    def _slot(self, p: m.Phase, side: str | None) -> Slot:
        acts = set(p.activities)
        kind: Literal["movement", "combat", "reinforcement", "other"] = "other"
        if m.PhaseActivity.MOVEMENT in acts:
            kind = "movement"
        elif m.PhaseActivity.COMBAT in acts:
            kind = "combat"
        elif m.PhaseActivity.REINFORCEMENT in acts:
            kind = "reinforcement"
        return Slot(p, side, kind, self.phase_rules.get(p.name))

    def costs_by_index(self, mv: mk.Mover, states: frozenset[str]) -> list[list[tuple[int, Any]]]:
        """:meth:`costs` as, for each hex number, its neighbours' numbers with the step's cost."""
        key = ("#" + mv.mobility + "|" + (mv.unit_type or ""), states)
        got = self.by_index.get(key)
        if got is None:
            table = self.costs(mv.mobility, mv, states)
            got = [[(self.index[b], table[a, b]) for b in self.nbrs[a]] for a in self.cells]
            self.by_index[key] = got
        return got

    def costs(self, mobility: str, mv: mk.Mover, states: frozenset[str]) -> dict[tuple[Cell, Cell], Any]:
        """Every ordinary step's cost for a mobility class in ``states``, without zones (kit.movement.step_cost),
        in units of 1/:attr:`scale` MP (None: prohibited or not given)."""
        key = (mv.mobility + "|" + (mv.unit_type or ""), states)
        table = self.edge_cost.get(key)
        if table is None:
            table = {}
            for a in self.cells:
                for b in self.nbrs[a]:
                    c = mk.step_cost(self.game, self.ordinary_board, mv, a, b, states)
                    table[a, b] = _scaled(c, self.scale) if isinstance(c, Fraction) else None
            self.edge_cost[key] = table
        return table


def _asks_supply(cond: m.Condition | str | None, terrain: Mapping[str, m.TerrainType]) -> bool:
    try:
        c = _vocab.resolve(cond, terrain)
    except KeyError:
        return False
    return isinstance(c, m.Condition) and c.supply is not None


# ================================================================================================ state
@dataclass
class Task:
    """A decision a combat result leaves open."""

    kind: Literal["loss", "exchange", "retreat", "advance"]
    side: str
    units: tuple[str, ...]
    amount: int = 0
    """Steps to lose, strength to match, or hexes to retreat."""
    target: Cell | None = None
    step_instead: bool = False


@dataclass
class Fight:
    """The combat being resolved."""

    target: Cell
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    defender_strength_lost: int = 0
    """The printed defence strength the defenders lost (an exchange in strength points)."""
    defender_retreated: bool = False
    cell: str = ""
    """The result (the CRT cell, or the automatic result)."""
    defender_steps_lost: int = 0
    """The steps the defenders lost (an exchange in steps)."""


@dataclass
class State:
    """A position of the game in play (mutable; :meth:`copy` to branch)."""

    rules: Rules
    turn: int
    slot: int
    pos: dict[str, Cell | None]
    steps: dict[str, int]
    status: dict[str, Literal["waiting", "map", "eliminated"]]
    control: dict[Cell, str]
    points: dict[str, int] = field(default_factory=dict)
    moved: set[str] = field(default_factory=set)
    attacked: dict[str, int] = field(default_factory=dict)
    """Attacks each unit has made this phase."""
    hit_hexes: dict[Cell, int] = field(default_factory=dict)
    """Attacks made on each hex this phase."""
    tasks: list[Task] = field(default_factory=list)
    fight: Fight | None = None
    lost_steps: dict[str, int] = field(default_factory=dict)
    """Steps each side has lost (eliminated units' steps included; steps restored or returned are taken off)."""
    result: Result | None = None
    log: list[str] = field(default_factory=list)
    version: int = 0
    """Bumped by every change: :func:`legal_actions` keeps its last answer for one version."""
    legal_cache: tuple[int, list[Action]] | None = None
    move_cache: dict[str, list[tuple[Cell, Move]]] = field(default_factory=dict)
    """Where each unit may move this phase, before stacking (enemy units do not move in one's own phase)."""
    occ_cache: tuple[int, dict[Cell, list[str]]] | None = None

    @property
    def game(self) -> m.Game:
        return self.rules.game

    @property
    def current(self) -> Slot:
        return self.rules.slots[self.slot]

    @property
    def weather(self) -> str | None:
        t = self.rules.turns.get(self.turn)
        return t.weather if t is not None else None

    @property
    def states(self) -> frozenset[str]:
        return frozenset({self.weather} if self.weather else set())

    @property
    def to_act(self) -> str | None:
        """The side whose decision the game waits for."""
        if self.result is not None:
            return None
        if self.tasks:
            return self.tasks[0].side
        return self.current.side

    def copy(self) -> State:
        return State(
            self.rules,
            self.turn,
            self.slot,
            dict(self.pos),
            dict(self.steps),
            dict(self.status),
            dict(self.control),
            dict(self.points),
            set(self.moved),
            dict(self.attacked),
            dict(self.hit_hexes),
            [Task(t.kind, t.side, t.units, t.amount, t.target, t.step_instead) for t in self.tasks],
            None
            if self.fight is None
            else Fight(
                self.fight.target,
                self.fight.attackers,
                self.fight.defenders,
                self.fight.defender_strength_lost,
                self.fight.defender_retreated,
                self.fight.cell,
                self.fight.defender_steps_lost,
            ),
            dict(self.lost_steps),
            self.result,
            list(self.log),
            self.version,
            None,
            dict(self.move_cache),
        )

    def digest(self) -> str:
        """A hash of the position (for determinism checks)."""
        g = self.rules.grid
        parts = [
            f"t{self.turn}s{self.slot}",
            *(
                f"{u}:{self.status[u]}:{g.label(c) if (c := self.pos[u]) is not None else '-'}:{self.steps[u]}"
                for u in sorted(self.pos)
            ),
            *(f"{g.label(c)}={s}" for c, s in sorted(self.control.items(), key=lambda x: g.label(x[0]))),
            str(self.result),
        ]
        return hashlib.sha256("\n".join(parts).encode()).hexdigest()

    # -- views
    def on_map(self, side: str | None = None) -> list[str]:
        return [u for u, s in self.status.items() if s == "map" and (side is None or self.rules.pieces[u].side == side)]

    def occupancy(self) -> dict[Cell, list[str]]:
        """Hex -> the units in it (kept for one :attr:`version`)."""
        if self.occ_cache is not None and self.occ_cache[0] == self.version:
            return self.occ_cache[1]
        occ: dict[Cell, list[str]] = {}
        for u in sorted(self.pos):
            c = self.pos[u]
            if c is not None and self.status[u] == "map":
                occ.setdefault(c, []).append(u)
        self.occ_cache = (self.version, occ)
        return occ

    def at(self, c: Cell) -> list[str]:
        return list(self.occupancy().get(c, ()))

    def cells_of(self, side: str) -> dict[Cell, list[str]]:
        pieces = self.rules.pieces
        return {c: us for c, us in self.occupancy().items() if pieces[us[0]].side == side}

    def enemy_of(self, side: str) -> str:
        return next(s for s in self.rules.sides if s != side)

    def face(self, uid: str) -> Strength:
        return self.rules.pieces[uid].face(self.steps[uid])

    def label(self, c: Cell) -> str:
        got = self.rules.labels.get(c)
        return got if got is not None else self.rules.grid.label(c)


# ================================================================================================ problems
def problems(game: m.Game) -> list[str]:
    """Everything the data lacks (or gives in a form this engine does not play) for play, each with the key path
    that would give it; [] when the game can be played."""
    out: list[str] = []
    first = game.game.first_side
    if not isinstance(first, str):
        out.append("the side that moves first is unknown (game.first_side)")
    if game.map.default_terrain is None:
        out.append("the terrain of hexes not listed is unknown (map.default_terrain)")
    c = game.combat
    if c.kind not in (m.CombatKind.ODDS, m.CombatKind.DIFFERENTIAL) or c.crt is None:
        out.append(f"the engine plays odds or differential CRTs, not {c.kind} combat (combat.kind, combat.crt)")
    else:
        crt = c.crt
        if crt.cell_format is not m.CellFormat.CODE:
            out.append(f"the engine reads CRT cells of result codes, not {crt.cell_format} (combat.crt.cell_format)")
        elif isinstance(crt.cells, (m.Unknown, dict)):
            out.append("the CRT's cells are unknown or in terrain sections (combat.crt.cells)")
        else:
            codes = {p.strip() for row in crt.cells for cell in row for p in cell.split("+")}
            for end in (crt.below, crt.above):
                if end is not None and end.result:
                    codes |= {p.strip() for p in end.result.split("+")}
            for code in sorted(codes):
                rc = c.results.get(code)
                if rc is None:
                    out.append(f"result {code!r} is not in the legend (combat.results)")
                    continue
                # a count may be unknown where the code eliminates that side or is an exchange: it is not read
                free = {
                    "attacker_steps": rc.attacker_eliminated or rc.exchange is not None,
                    "defender_steps": rc.defender_eliminated,
                    "defender_retreat": rc.defender_eliminated,
                    "attacker_retreat": rc.attacker_eliminated,
                }
                if any(isinstance(getattr(rc, f), m.Unknown) and not ok for f, ok in free.items()):
                    out.append(f"result {code!r} has an unknown count (combat.results.{code})")
                out += _result_problems(code, rc)
        try:
            _combat.dice_spec(crt.dice)
        except ValueError:
            out.append(f"the CRT's dice {crt.dice!r} are not a dice spec (combat.crt.dice)")
    for k, sh in enumerate(c.shifts):
        if sh.condition is None:
            out.append(f"shift {sh.id!r}: its condition is in words only (combat.shifts[{k}].condition)")
        else:
            out += _condition_problems(game, sh.condition, f"shift {sh.id!r} (combat.shifts[{k}].condition)")
    for k, mod in enumerate(c.modifiers):
        if mod.condition is not None:
            out += _condition_problems(game, mod.condition, f"modifier {mod.id!r} (combat.modifiers[{k}].condition)")
    for k, cap in enumerate(c.shift_caps):
        if cap.when:
            out.append(f"a shift cap's condition in words is not played (combat.shift_caps[{k}].when)")
    for what in (
        "dice_pool", "leaders", "rerolls", "die_modifiers", "conversions", "alone_defense", "max_defenders"
    ):
        if getattr(c, what):
            out.append(f"the engine does not play combat.{what}")
    if c.crt is not None and (c.crt.mandatory_retreat or c.crt.high_odds):
        out.append("the engine does not play combat.crt.mandatory_retreat or combat.crt.high_odds")
    for tid, tt in game.terrain.items():
        if tt.combat.shift_when or tt.combat.by_side or tt.combat.crt_row:
            out.append(
                f"terrain {tid!r}: a combat effect with a condition or a side is not played (terrain.{tid}.combat)"
            )
    for u in game.units:
        for s in u.strengths():
            if s.attack is None or s.defense is None or s.movement is None:
                out.append(f"unit {u.id!r}: a face without its attack, defence and movement ({u.steps})")
                break
        if u.entry is not None and (not isinstance(u.entry.turn, int) or u.entry.hex is None):
            out.append(f"unit {u.id!r}: a reinforcement without its turn and hex (units[{u.id}].entry)")
    starts = {st.unit: st for st in kit_setup.starts(game) if st.copy == 0}
    for u in game.units:
        st = starts.get(u.id)
        if st is None or st.how == "unknown":
            out.append(
                f"unit {u.id!r}: neither a set-up hex, a set-up zone, an entry nor the pool "
                f"(units[{u.id}].setup, setup_zone, entry, pool)"
            )
    mr = game.rules.movement
    if mr is None or not mr.allowances:
        out.append("no movement allowances (rules.movement.allowances)")
    else:
        for what in ("crossing_rolls", "free_zones", "mobile_assault", "off_map", "disrupts", "bonuses"):
            if getattr(mr, what):
                out.append(f"the engine does not play rules.movement.{what}")
        for md in mr.modes:
            if md.hexes is None and md.rate is None:
                out.append(f"movement mode {md.id!r} gives neither hexes nor a rate (rules.movement.modes)")
            if isinstance(md.hexes, m.Unknown):
                out.append(f"movement mode {md.id!r}: its hexes are unknown (rules.movement.modes)")
    out += mk.problems(game)
    zr = game.rules.zoc
    if zr is not None and zr.infiltration and any(i.cost is None and i.fraction is None for i in zr.infiltration):
        out.append("an infiltration entry gives no cost (rules.zoc.infiltration)")
    rr = game.rules.retreat
    if rr is None or rr.enemy_units is None or rr.enemy_zoc is None or rr.enemy_sources is None:
        out.append("the retreat rules do not say what enemy units, zones and sources do (rules.retreat)")
    elif rr.limits or rr.extra_if_overstacked or rr.rally_stop_after or rr.loss_reduction_max or rr.allowed_if:
        out.append("the engine does not play retreat limits, overstacking, rallies or loss reduction (rules.retreat)")
    if game.rules.stacking is None:
        out.append("no stacking rules (rules.stacking)")
    seq_names = {p.name for p in game.sequence}
    if not game.sequence:
        out.append("the game has no sequence of play (sequence)")
    for i, p in enumerate(game.sequence):
        if p.side is None and not p.each_side and {"movement", "combat", "reinforcement"} & set(p.activities):
            out.append(f"phase {p.name!r} has no acting side (sequence[{i}].side or each_side)")
    play = game.rules.play or m.PlayRules()
    modes = {ORDINARY} | {md.id for md in (mr.modes if mr else [])}
    for pr in play.phases:
        for md_id in pr.modes:
            if md_id not in modes:
                out.append(f"rules.play.phases: {pr.phase!r} names mode {md_id!r}, not one of {sorted(modes)}")
        if pr.phase not in seq_names:
            out.append(f"rules.play.phases: no phase {pr.phase!r} in the sequence ({', '.join(sorted(seq_names))})")
    for md in mr.modes if mr else []:
        for ph in md.phases:
            if ph not in seq_names:
                out.append(f"movement mode {md.id!r}: no phase {ph!r} in the sequence")
    sides = {s.id for s in game.game.sides}
    if play.score != "difference" and play.score not in sides:
        out.append(f"rules.play.score: {play.score!r} is neither 'difference' nor a side ({', '.join(sorted(sides))})")
    ws = game.turns.weather
    for t in game.turns.turns:
        if ws is not None and t.weather is None:
            out.append(
                f"turn {t.number}: the weather is not given (turns.turns[].weather; rolled weather is not played)"
            )
        if t.weather is not None and ws is not None and t.weather not in ws.states:
            out.append(f"turn {t.number}: weather {t.weather!r} is not a state of turns.weather.states")
        for side, n in t.replacements.items():
            if isinstance(n, m.Unknown):
                out.append(f"turn {t.number}: {side}'s replacements are unknown (turns.turns[].replacements)")
            if play.replacements is None:
                out.append(f"turn {t.number} gives replacements but rules.play.replacements says nothing of them")
                break
    rep = play.replacements
    if rep is not None and rep.communication:
        sr = game.rules.supply
        if sr is None or None in (sr.enemy_units, sr.enemy_zoc, sr.enemy_sources):
            out.append("replacements need communication, and rules.supply does not say what blocks a line")
    v = game.victory
    for item in v.points if v else []:
        if item.per not in ("hex", "enemy-step") or isinstance(item.vp, m.Unknown):
            out.append(f"victory item {item.text!r}: the engine scores `per: hex` and `per: enemy-step` items")
    return out


def _result_problems(code: str, rc: m.ResultCode) -> list[str]:
    """What the engine does not play in one result of the legend."""
    at = f"combat.results.{code}"
    out = []
    if rc.exchange is not None and rc.exchange_strength == "current":
        out.append(f"result {code!r}: an exchange in current (modified) strength is not played "
                   f"({at}.exchange_strength)")
    if rc.attacker_choice:
        out.append(f"result {code!r}: the attacker's choice of results is not played ({at}.attacker_choice)")
    if rc.advance in ("defender", "either"):
        out.append(f"result {code!r}: the defender's advance is not played ({at}.advance)")
    if rc.advance_hexes is not None and (not isinstance(rc.advance_hexes, int) or rc.advance_hexes > 1):
        out.append(f"result {code!r}: an advance beyond the vacated hex is not played ({at}.advance_hexes)")
    return out


def _condition_problems(game: m.Game, cond: m.Condition | str, what: str) -> list[str]:
    """Why a position cannot decide ``cond`` (a fact the engine does not know); [] when it can."""
    try:
        c = _vocab.resolve(cond, game.terrain)
    except KeyError:
        return [f"{what}: {cond!r} is not a condition a rule reads"]
    if c is None:
        return []
    if isinstance(c, str):
        if c in _vocab.DECLARED:
            return [f"{what}: whether {_vocab.DECLARED[c]} is declared by a player, which the engine does not play"]
        return []
    out = []
    if c.weather and not any(t.weather for t in game.turns.turns):
        out.append(f"{what}: a condition on the weather, and no turn gives its weather (turns.turns[].weather)")
    if c.supply is not None:
        sr = game.rules.supply
        if sr is None or None in (sr.enemy_units, sr.enemy_zoc, sr.enemy_sources):
            out.append(f"{what}: a condition on supply, and rules.supply does not say what blocks a line")
    return out


def selects(game: m.Game) -> bool:
    """Whether this engine (rather than the hits engine) plays ``game``: an odds or differential CRT whose cells
    are result codes of ``combat.results``."""
    crt = game.combat.crt
    return (
        game.combat.kind in (m.CombatKind.ODDS, m.CombatKind.DIFFERENTIAL)
        and crt is not None
        and crt.cell_format is m.CellFormat.CODE
    )


# ================================================================================================ start
_COMPILED: dict[int, tuple[m.Game, Rules]] = {}


def _piece_key(uid: str, pc: Piece) -> tuple[str, int]:
    """The set-up kit's (unit id, copy) of a piece: ``id`` is copy 0, ``id.2`` copy 1 ..."""
    return (pc.unit.id, 0 if uid == pc.unit.id else int(uid.rsplit(".", 1)[1]) - 1)


def _rules_for(game: m.Game) -> Rules:
    """The compiled rules of ``game``, kept for the last few games (their costs and zones are memoised)."""
    got = _COMPILED.get(id(game))
    if got is not None and got[0] is game:
        return got[1]
    if len(_COMPILED) >= 8:
        _COMPILED.clear()
    rules = Rules(game)
    _COMPILED[id(game)] = (game, rules)
    return rules


def initial(game: m.Game, assume: Mapping[str, Any] | None = None) -> State:
    """The position before the first phase of the first turn (then played on to the first decision).  ``assume``
    is accepted for the shared interface; this engine needs no assumed values (:func:`problems` must be empty)."""
    del assume
    missing = problems(game)
    if missing:
        raise UnplayableGameError(game.game.id, missing)
    rules = _rules_for(game)
    pos: dict[str, Cell | None] = {}
    status: dict[str, Literal["waiting", "map", "eliminated"]] = {}
    steps: dict[str, int] = {}
    # Fixed hexes, set-up zones (the set-up kit's legal placement), reduced starts and the off-map pool.
    placed = kit_setup.place(game)
    for uid, pc in rules.pieces.items():
        piece = _piece_key(uid, pc)
        st = rules.starts.get(piece)
        where = placed.get(piece)
        pos[uid] = rules.grid.parse(where) if where else None
        status[uid] = "map" if where else "eliminated" if st is not None and st.how == "pool" else "waiting"
        steps[uid] = min(pc.full, st.steps_left) if st is not None else pc.full
    control: dict[Cell, str] = {}
    ctl = rules.play.control
    for side, hexes in (ctl.initial if ctl else {}).items():
        for h in hexes:
            control[rules.grid.parse(h)] = side
    s = State(
        rules,
        rules.first_turn,
        0,
        pos,
        steps,
        status,
        control,
        lost_steps=dict.fromkeys(rules.sides, 0),
    )
    _enter_slot(s)
    _settle(s)
    return s


# ================================================================================================ moving
def _zone(s: State, side: str) -> set[Cell]:
    """The enemy zone ``side``'s units move through."""
    enemy = s.enemy_of(side)
    cells = {c: [str(s.rules.pieces[u].unit.type) for u in us] for c, us in s.cells_of(enemy).items()}
    zr = s.game.rules.zoc
    friendly = frozenset(s.cells_of(side)) if zr is not None and zr.negated_by_friendly else frozenset()
    key = (frozenset((c, tuple(t)) for c, t in cells.items()), friendly, s.states)
    memo = s.rules.zone_memo
    got = memo.get(key)
    if got is None:
        if len(memo) > 4096:
            memo.clear()
        got = memo[key] = frozenset(
            kz.controlled(s.rules.grid, zr, cells, hexsides=s.rules.board.sides, states=s.states, friendly=friendly)
        )
    return set(got)


def _mover(s: State, uid: str) -> mk.Mover:
    pc = s.rules.pieces[uid]
    f = s.face(uid)
    return mk.Mover(pc.mobility, str(pc.unit.type), pc.side, Fraction(f.movement) if f.movement is not None else None)


def _may_act(s: State, uid: str) -> bool:
    """Does the phase's rule let the unit move or attack?"""
    pr = s.current.rule
    if pr is None:
        return True
    pc = s.rules.pieces[uid]
    if pr.mobility and pc.mobility not in pr.mobility:
        return False
    return not pr.unit_types or pc.unit.type in pr.unit_types


def _stack_ok(s: State, uid: str, c: Cell, leaving: str | None = None) -> bool:
    rules = s.game.rules.stacking
    if rules is None:
        return True
    there = [u for u in s.occupancy().get(c, ()) if u not in (leaving, uid)]
    key = tuple(sorted((s.rules.pieces[u].unit.id, s.steps[u]) for u in [*there, uid]))
    got = s.rules.stack_memo.get(key)
    if got is None:
        stack = [(s.rules.pieces[u].unit, s.steps[u]) for u in [*there, uid]]
        got = s.rules.stack_memo[key] = ks.legal(rules, stack) is not False
    return got


def ordinary_moves(s: State, uid: str) -> dict[Cell, Fraction]:
    """Where ``uid`` may end an ordinary move, with its cost: the kit's allowance in the turn's weather, its
    ``hexes`` cap, terrain, hexside and path costs, zones of control (stop, locking, costs), per-move terrain
    limits, and enemy units.  Stacking at the end is not checked here."""
    game = s.game
    mv = _mover(s, uid)
    states = s.states
    entry = mk.allowance_entry(game, mv, states)
    if entry is None:
        return {}
    mp = mk.allowance(game, mv, states)
    cap = entry.hexes if isinstance(entry.hexes, int) else None
    if mp is None and cap is None:
        return {}
    budget = mp if mp is not None else Fraction(10**6)
    start = s.pos[uid]
    assert start is not None
    side = mv.side or ""
    enemy = set(s.cells_of(s.enemy_of(side)))
    ezoc = _zone(s, side)
    r = game.rules.movement
    if r is None or not any(mk.binds(lim, mv) for lim in r.limits):
        return _search_fast(s, mv, start, budget, cap, states, enemy, ezoc)
    return _search(s, mv, start, budget, cap, states, enemy, ezoc)


def _search_fast(
    s: State,
    mv: mk.Mover,
    start: Cell,
    budget: Fraction,
    cap: int | None,
    states: frozenset[str],
    enemy: set[Cell],
    ezoc: set[Cell],
) -> dict[Cell, Fraction]:
    """:func:`_search` for a mover no per-move terrain limit binds: whether a move stops in a hex depends on the hex
    alone (an enemy zone stops every move that enters it), so Dijkstra over (hex, hexes made) -- just the hex when
    there is no ``hexes`` cap -- on integer hex numbers gives the same answer, several times faster."""
    import heapq

    game = s.game
    rules = s.rules
    board = rules.ordinary_board
    r = game.rules.movement or m.MovementRules()
    zr = game.rules.zoc
    zones = zr is not None and zr.affects_movement and kz.active(zr, states)
    stop_in = zones and zr is not None and zr.stop_on_enter
    locking = zones and zr is not None and zr.locking
    base = rules.costs_by_index(mv, states)
    idx = rules.index
    cells = rules.cells
    scale = rules.scale
    cap_mp = _scaled(budget, scale)
    zmemo = rules.zoc_cost
    z = {idx[c] for c in ezoc}
    foes = {idx[c] for c in enemy if c in idx} if r.enemy_hexes_prohibited else set()
    s0 = idx[start]
    heap: list[tuple[Any, int, int]] = [(0, 0, s0)]
    seen: set[tuple[int, int]] = set()
    best: dict[int, Any] = {}
    while heap:
        cost, n, i = heapq.heappop(heap)
        key = (i, n if cap is not None else 0)
        if key in seen:
            continue
        seen.add(key)
        if i not in best:
            best[i] = cost
        if (stop_in and i in z and i != s0) or (cap is not None and n >= cap):
            continue
        for j, c in base[i]:
            if j in foes:
                continue
            if zones and (i in z or j in z):
                if locking and i in z and j in z:
                    continue
                zkey = (mv, states, cells[i], cells[j], i in z, j in z)
                if zkey in zmemo:
                    c = zmemo[zkey]
                else:
                    fc = mk.step_cost(game, board, mv, cells[i], cells[j], states, ezoc=ezoc, enemy=enemy)
                    c = zmemo[zkey] = _scaled(fc, scale) if isinstance(fc, Fraction) else None
            if c is None or cost + c > cap_mp:
                continue
            heapq.heappush(heap, (cost + c, n + 1, j))
    best.pop(s0, None)
    return {cells[i]: Fraction(v) / scale for i, v in best.items()}


def _search(
    s: State,
    mv: mk.Mover,
    start: Cell,
    budget: Fraction,
    cap: int | None,
    states: frozenset[str],
    enemy: set[Cell],
    ezoc: set[Cell],
) -> dict[Cell, Fraction]:
    """Dijkstra over (cell, per-move terrain counts, stopped, hexes made), as :func:`forge.rules.kit.movement.reachable`
    does, with the zone-free step costs computed once per class and weather."""
    import heapq

    game = s.game
    rules = s.rules
    board = rules.ordinary_board
    r = game.rules.movement or m.MovementRules()
    zr = game.rules.zoc
    zones = zr is not None and zr.affects_movement and kz.active(zr, states)
    base = rules.costs(mv.mobility, mv, states)
    limits = [lim for lim in r.limits if mk.binds(lim, mv)]
    tie = itertools.count()
    # Costs in whole units of 1/scale MP (exact: the scale is the common denominator of the data's costs).
    scale = rules.scale
    cap_mp = _scaled(budget, scale)
    zmemo = rules.zoc_cost
    heap: list[tuple[Any, int, tuple[Cell, tuple[int, ...], bool, int]]] = [
        (0, next(tie), (start, tuple(0 for _ in limits), False, 0))
    ]
    seen: set[tuple[Cell, tuple[int, ...], bool, int]] = set()
    best: dict[Cell, Any] = {}
    while heap:
        cost, _, st = heapq.heappop(heap)
        if st in seen:
            continue
        seen.add(st)
        cell, used, stopped, n = st
        if cell not in best:
            best[cell] = cost
        if stopped or (cap is not None and n >= cap):
            continue
        for nb in rules.nbrs[cell]:
            if nb in enemy and r.enemy_hexes_prohibited:
                continue
            if zones and (cell in ezoc or nb in ezoc):
                zkey = (mv, states, cell, nb, cell in ezoc, nb in ezoc)
                if zkey in zmemo:
                    c = zmemo[zkey]
                else:
                    fc = mk.step_cost(game, board, mv, cell, nb, states, ezoc=ezoc, enemy=enemy)
                    c = zmemo[zkey] = _scaled(fc, scale) if isinstance(fc, Fraction) else None
                if c is None:
                    continue
            else:
                c = base[cell, nb]
                if c is None:
                    continue
            if cost + c > cap_mp:
                continue
            nu = list(used)
            ok = True
            for k, lim in enumerate(limits):
                nu[k] += lim.terrain == board.terrain(nb) or lim.terrain in board.side_features(cell, nb)
                ok &= nu[k] <= lim.max
            if not ok:
                continue
            stop = False
            if zones and zr is not None:
                if zr.locking and cell in ezoc and nb in ezoc:
                    continue
                stop = zr.stop_on_enter and nb in ezoc
            heapq.heappush(heap, (cost + c, next(tie), (nb, tuple(nu), stop, n + 1 if cap is not None else 0)))
    best.pop(start, None)
    return {c: Fraction(v) / scale for c, v in best.items()}


def _scale(game: m.Game) -> int:
    """A common denominator of every movement cost and allowance the data gives (2 for half-point roads)."""
    import math

    dens = [1]
    for t in game.terrain.values():
        dens += [Fraction(str(v)).denominator for v in t.costs.values() if isinstance(v, int | float)]
    r = game.rules.movement
    for ch in r.changes if r else []:
        dens += [Fraction(str(v)).denominator for v in (ch.add, ch.set) if v is not None]
    for a in r.allowances if r else []:
        if isinstance(a.mp, int | float):
            dens.append(Fraction(str(a.mp)).denominator)
        if a.multiply is not None and a.rounding not in ("up", "down"):
            dens.append(fraction(a.multiply).denominator)
    for c in r.crossings if r else []:
        dens.append(Fraction(str(c.extra)).denominator)
    z = game.rules.zoc
    if z is not None:
        dens += [Fraction(str(z.enter_cost)).denominator, Fraction(str(z.leave_cost)).denominator]
    return math.lcm(*dens)


def _scaled(x: Fraction, scale: int) -> Any:
    """``x`` in units of 1/scale: an int when exact (always, for the data's own costs), else the Fraction."""
    v = x * scale
    return v.numerator if v.denominator == 1 else v


def mode_moves(s: State, uid: str, mode: m.MoveMode) -> dict[Cell, Fraction]:
    """Where ``uid`` may end a move in ``mode``: only from hex to hex of the mode's line, starting on it when the
    mode says so, ``hexes`` hexes each counting one whatever the terrain (or ``rate`` MPs a hex from the
    allowance, computed without the states the mode ignores); enemy zones as the mode says."""
    game = s.game
    states = s.states
    if set(mode.not_when) & states:
        return {}
    ph = s.current.phase.name
    if mode.phases and ph not in mode.phases:
        return {}
    start = s.pos[uid]
    assert start is not None
    board = s.rules.board
    on_line = any(mode.path in board.path_kinds(start, nb) for nb in s.rules.nbrs[start])
    if mode.start_on_path and not on_line:
        return {}
    mv = _mover(s, uid)
    side = mv.side or ""
    enemy = set(s.cells_of(s.enemy_of(side)))
    ezoc = _zone(s, side)
    zr = game.rules.zoc
    zones = zr is not None and zr.affects_movement and kz.active(zr, states)
    if mode.enemy_zoc == "no-entry" and start in ezoc:
        return {}
    if isinstance(mode.hexes, int):
        budget, step = Fraction(mode.hexes), Fraction(1)
    else:
        assert mode.rate is not None
        mp = mk.allowance(game, mv, states - set(mode.ignores))
        if mp is None:
            return {}
        budget, step = mp, Fraction(str(mode.rate))
    best: dict[Cell, Fraction] = {start: Fraction(0)}
    frontier = [start]
    stopped: set[Cell] = set()
    while frontier:
        nxt = []
        for cell in frontier:
            if cell in stopped:
                continue
            for nb in s.rules.nbrs[cell]:
                if mode.path not in board.path_kinds(cell, nb) or nb in enemy:
                    continue
                cost = best[cell] + step
                if cost > budget or (nb in best and best[nb] <= cost):
                    continue
                if nb in ezoc and mode.enemy_zoc == "no-entry":
                    continue
                if zones and zr is not None and mode.enemy_zoc == "as-movement":
                    if zr.locking and cell in ezoc and nb in ezoc:
                        continue
                    if zr.stop_on_enter and nb in ezoc:
                        stopped.add(nb)
                best[nb] = cost
                nxt.append(nb)
        frontier = nxt
    best.pop(start, None)
    if zr is not None and mode.id in zr.no_end_in_ezoc:
        best = {c: v for c, v in best.items() if c not in ezoc}
    return best


def _moves(s: State, uid: str) -> list[Move]:
    dests = s.move_cache.get(uid)
    if dests is None:
        lab = s.label
        dests = [(c, Move(uid, lab(c))) for c in sorted(ordinary_moves(s, uid), key=lab)]
        for md in s.rules.modes.values():
            dests += [(c, Move(uid, lab(c), md.id)) for c in sorted(mode_moves(s, uid, md), key=lab)]
        zr = s.game.rules.zoc
        if zr is None or not zr.negated_by_friendly:  # else friendly units change the zone as they move
            s.move_cache[uid] = dests
    occ = s.occupancy()
    here = s.pos[uid]
    alone = _stack_ok(s, uid, here, leaving=uid) if here is not None else True
    only = s.current.rule.modes if s.current.rule is not None else []
    return [
        mv for c, mv in dests if (not only or mv.mode in only) and (alone if c not in occ else _stack_ok(s, uid, c))
    ]


# ================================================================================================ combat
def defence_terrain(s: State, c: Cell) -> set[str]:
    """The terrain a defender in ``c`` fights as (:func:`forge.rules.combat.combat_terrain`)."""
    memo = s.rules.terrain_memo
    got = memo.get(c)
    if got is None:
        info = s.game.map.hexes.get(s.label(c))
        base = (info.terrain if info else None) or s.game.map.default_terrain
        got = memo[c] = frozenset(_combat.combat_terrain(s.game.terrain, base, info.features if info else ()))
    return set(got)


def _terrain_modifiers(s: State, terrain: Iterable[str]) -> list[m.Modifier]:
    """The defence multipliers and bonuses of the defender's terrain, as modifiers of the defenders' total (as
    ``forge verify`` reads the terrain chart)."""
    out = []
    for tid in sorted(terrain):
        t = s.game.terrain.get(tid)
        if t is not None and (t.combat.defense_multiplier or t.combat.defense_bonus):
            out.append(
                m.Modifier(
                    id=f"terrain-{tid}",
                    role="defender",
                    when=t.combat.text or tid,
                    multiply=t.combat.defense_multiplier,
                    add=t.combat.defense_bonus or None,
                    per_unit=False,
                    terrain=[tid],
                )
            )
    return out


def _supplied(s: State, side: str) -> set[Cell]:
    """The hexes ``side``'s units are in supply in (kit.supply), kept for one :attr:`State.version`."""
    key = (s.version, side)
    got = s.rules.supply_memo.get(key)
    if got is None:
        s.rules.supply_memo.clear()
        got = s.rules.supply_memo[key] = frozenset(_comm(s, side))
    return set(got)


def situation(s: State, target: Cell, attackers: Iterable[str]) -> _conds.Situation:
    """The facts of an attack that the conditions of shifts and modifiers read (:mod:`forge.rules.kit.conditions`):
    the turn's weather, the phase, the sides, the defender's terrain, each unit's side, type and mobility class,
    the hexside features each attacker attacks across, and each unit's supply when a condition asks about it."""
    rules = s.rules
    atts = list(attackers)
    defs = s.at(target)
    side = rules.pieces[atts[0]].side if atts else s.current.side
    dside = rules.pieces[defs[0]].side if defs else (s.enemy_of(side) if side else None)
    sup: dict[str, set[Cell]] = {}
    if rules.needs_supply:
        for sd in {side, dside} - {None}:
            assert sd is not None
            sup[sd] = _supplied(s, sd)

    def facts(uid: str, across: frozenset[str] | None) -> _conds.UnitFacts:
        pc = rules.pieces[uid]
        c = s.pos[uid]
        supplied = None if pc.side not in sup else c in sup[pc.side]
        return _conds.UnitFacts(pc.side, str(pc.unit.type), pc.mobility, supplied, across)

    def crossed(uid: str) -> frozenset[str]:
        c = s.pos[uid]
        if c is None:
            return frozenset()
        feats = rules.board.side_features(c, target)
        return frozenset(feats | ({_conds.RIVER} if feats & rules.rivers else set()))

    return _conds.Situation(
        weather=s.weather,
        phase=s.current.phase.name,
        attacker_side=side,
        defender_side=dside,
        defender_terrain=frozenset(defence_terrain(s, target)),
        attackers=tuple(facts(u, crossed(u)) for u in atts),
        defenders=tuple(facts(u, None) for u in defs),
        # Reading: the terrain chart's own shift is applied from the terrain (below); a `defender-terrain` entry
        # of combat.shifts names that shift and is not applied a second time.
        terrain_shifts=frozenset(),
    )


@dataclass(frozen=True)
class Odds:
    """An attack's strengths and shifts as the engine computed them."""

    attack: Fraction
    defense: Fraction
    shifts: tuple[tuple[str, int], ...]
    """(id, columns) of every shift applied: the terrain's (id ``terrain-<id>``) and those of ``combat.shifts``."""
    modifiers: tuple[str, ...]
    """Ids of the ``combat.modifiers`` applied (either side)."""


def assess(s: State, target: Cell, attackers: Iterable[str]) -> Odds:
    """An attack's total strengths and shifts: the units' current faces changed by ``combat.modifiers`` whose
    conditions hold (:func:`forge.rules.combat.combat_strength`: per unit or on the total, rounded as each says),
    the defence by the terrain's multipliers and bonuses; the terrain's shifts and the ``combat.shifts`` whose
    conditions hold in the attack's :func:`situation` (:func:`forge.rules.combat.applicable_shifts`)."""
    rules = s.rules
    atts = list(attackers)
    defs = s.at(target)
    sit = situation(s, target, atts)
    terrain = defence_terrain(s, target)
    assert sit.attackers is not None
    assert sit.defenders is not None
    fa = [
        _combat.Fighter(s.face(u).attack or 0, str(rules.pieces[u].unit.type), facts=f)
        for u, f in zip(atts, sit.attackers, strict=True)
    ]
    fd = [
        _combat.Fighter(s.face(u).defense or 0, str(rules.pieces[u].unit.type), facts=f)
        for u, f in zip(defs, sit.defenders, strict=True)
    ]
    mods = rules.modifiers
    att = _combat.combat_strength(fa, mods, role="attacker", defender_terrain=terrain, situation=sit)
    dfs = _combat.combat_strength(
        fd, [*mods, *_terrain_modifiers(s, terrain)], role="defender", defender_terrain=terrain, situation=sit
    )
    # problems() admits only conditions a position decides
    assert att.total is not None, "an attack strength the engine cannot decide"
    assert dfs.total is not None, "a defence strength the engine cannot decide"
    shifts = [
        (f"terrain-{tid}", t.combat.shift)
        for tid in sorted(terrain)
        if (t := s.game.terrain.get(tid)) and t.combat.shift
    ]
    if rules.shifts:
        verdicts = _combat.applicable_shifts(rules.shifts, sit)
        assert not verdicts.unknown, verdicts.unknown
        shifts += [(sh.id, sh.shift) for sh in rules.shifts if sh.id in verdicts.apply]
    used = [*(x for u in att.applied for x in u), *att.stack_applied, *(x for u in dfs.applied for x in u)]
    used += [x for x in dfs.stack_applied if not x.startswith("terrain-")]
    return Odds(att.total, dfs.total, tuple(shifts), tuple(dict.fromkeys(used)))


def odds(s: State, target: Cell, attackers: Iterable[str]) -> tuple[Fraction, Fraction, int]:
    """(attack strength, defence strength, net column shift before caps) of an attack (:func:`assess`)."""
    o = assess(s, target, attackers)
    return o.attack, o.defense, sum(n for _, n in o.shifts)


def crt_cell(s: State, target: Cell, attackers: Iterable[str], dice: DiceSource) -> tuple[str, str]:
    """The result code(s) of an attack, and the column (or the automatic result's note); ``""`` when the attack
    has no effect (the CRT's ``below``/``above`` say ``no_effect``)."""
    crt = s.game.combat.crt
    assert crt is not None
    atts = list(attackers)
    o = assess(s, target, atts)
    if s.game.combat.kind is m.CombatKind.DIFFERENTIAL:
        pick = _combat.column_for_diff(crt, math.floor(o.attack - o.defense))
    else:
        pick = _combat.column_for_odds(crt, o.attack, o.defense)
    if pick.index is not None and (o.shifts or s.game.combat.shift_caps):
        pick = _combat.apply_shifts(
            crt.columns,
            pick.index,
            list(o.shifts),
            s.game.combat.shift_caps,
            turn=s.turn,
            side=s.rules.pieces[atts[0]].side,
            role="attacking",
            below=crt.below,
            above=crt.above,
        )
    if pick.index is None:
        if pick.result is None:
            return "", pick.note or "no effect"
        return pick.result, pick.note
    n, _faces = _combat.dice_spec(crt.dice)
    die = sum(dice.roll() for _ in range(n))
    row = _combat.row_for_die(crt.rows, die)
    grid = _combat.grid_of(crt)
    assert row is not None
    assert grid is not None
    return grid[row][pick.index], f"{pick.label}, die {die}"


def _attack_limits(s: State) -> tuple[int, int]:
    """(attacks a unit may make, attacks a hex may take) this phase: ``combat.attacks_per_unit`` and
    ``combat.attacks_per_defender``.  Reading: where the rules do not say, once each."""
    c = s.game.combat
    return c.attacks_per_unit or 1, c.attacks_per_defender or 1


def _attacks(s: State) -> list[Attack]:
    side = s.current.side
    assert side is not None
    per_unit, per_hex = _attack_limits(s)
    enemy = s.cells_of(s.enemy_of(side))
    out = []
    for c in sorted(enemy, key=s.label):
        if s.hit_hexes.get(c, 0) >= per_hex:
            continue
        near = sorted(
            u
            for nb in s.rules.nbrs[c]
            for u in s.at(nb)
            if s.rules.pieces[u].side == side
            and s.attacked.get(u, 0) < per_unit
            and _may_act(s, u)
            and (s.face(u).attack or 0) > 0
        )
        if not near:
            continue
        out.append(Attack(s.label(c), tuple(near)))
        if len(near) > 1:
            out += [Attack(s.label(c), (u,)) for u in near]
    return out


def _check_attack(s: State, a: Attack) -> Cell:
    side = s.current.side
    g = s.rules.grid
    target = g.parse(a.target)
    defenders = s.at(target)
    if not defenders or s.rules.pieces[defenders[0]].side == side:
        raise IllegalAction(f"no enemy unit in {a.target}")
    if not a.attackers or len(set(a.attackers)) != len(a.attackers):
        raise IllegalAction("an attack needs distinct attackers")
    per_hex: dict[Cell, int] = {}
    for u in a.attackers:
        pc = s.rules.pieces.get(u)
        if pc is None or pc.side != side or s.status[u] != "map":
            raise IllegalAction(f"{u} is not a unit of the phasing side on the map")
        c = s.pos[u]
        assert c is not None
        if not g.adjacent(c, target):
            raise IllegalAction(f"{u} is not next to {a.target}")
        if not _may_act(s, u) or not (s.face(u).attack or 0):
            raise IllegalAction(f"{u} may not attack now")
        per_hex[c] = per_hex.get(c, 0) + 1
    per_unit, per_defender = _attack_limits(s)
    ok, why = _combat.may_attack(
        m.Combat(kind=m.CombatKind.ODDS, attacks_per_unit=per_unit, attacks_per_defender=per_defender),
        unit_attacks={u: s.attacked.get(u, 0) for u in a.attackers},
        hex_attacks=s.hit_hexes.get(target, 0),
    )
    if not ok:
        raise IllegalAction(why)
    cap = s.game.combat.max_attackers_per_hexside
    if isinstance(cap, int) and any(n > cap for n in per_hex.values()):
        raise IllegalAction(f"at most {cap} attackers across one hexside")
    return target


def _resolve(s: State, a: Attack, dice: DiceSource) -> None:
    target = _check_attack(s, a)
    side = s.current.side
    assert side is not None
    enemy = s.enemy_of(side)
    defenders = tuple(sorted(s.at(target)))
    cell, how = crt_cell(s, target, a.attackers, dice)
    s.log.append(f"T{s.turn} {side}: {a} -> {cell or 'no effect'} ({how})")
    for u in a.attackers:
        s.attacked[u] = s.attacked.get(u, 0) + 1
    s.hit_hexes[target] = s.hit_hexes.get(target, 0) + 1
    results = s.game.combat.results
    parts = [c.strip() for c in cell.split("+") if c.strip()]
    codes = [results[c] for c in parts]
    fight = Fight(target, tuple(a.attackers), defenders, cell=cell)
    s.fight = fight
    d_has = sum(s.steps[u] for u in defenders)
    loss = _losses(parts, results, d_has)
    tasks: list[Task] = []
    if any(rc.defender_eliminated for rc in codes):
        for u in defenders:
            _record_loss(s, u, all_steps=True)
    elif loss.defender:
        tasks.append(Task("loss", enemy, defenders, loss.defender))
    retreat_codes = [c for c in parts if results[c].defender_retreat]
    if loss.retreat and not _ignores_retreat(s, target, retreat_codes):
        step_instead = any(rc.step_instead_of_retreat for rc in codes)
        tasks += [Task("retreat", enemy, (u,), loss.retreat, step_instead=step_instead) for u in defenders]
    if any(rc.attacker_eliminated for rc in codes):
        for u in a.attackers:
            _eliminate(s, u)
    else:
        if any(rc.exchange is not None for rc in codes):
            tasks.append(Task("exchange", side, tuple(a.attackers)))
        elif loss.attacker:
            tasks.append(Task("loss", side, tuple(a.attackers), loss.attacker))
        if loss.attacker_retreat:
            tasks += [Task("retreat", side, (u,), loss.attacker_retreat) for u in a.attackers]
    tasks.append(Task("advance", side, tuple(a.attackers), target=target))
    s.tasks = tasks


def _losses(codes: list[str], results: Mapping[str, m.ResultCode], defender_has: int) -> _combat.Losses:
    """The counts of a result, as :func:`forge.rules.combat.code_losses` reads them, except that a count the
    legend leaves unknown where the code eliminates that side (or is an exchange) counts 0: the elimination or
    the exchange decides it."""
    total = _combat.Losses(0, 0)

    def n(v: Any) -> int:
        return v if isinstance(v, int) else 0

    for code in codes:
        rc = results[code]
        a = n(rc.attacker_steps)
        if rc.attacker_steps_if_defender_has is not None and defender_has < rc.attacker_steps_if_defender_has:
            a = 0
        total = total.plus(_combat.Losses(a, n(rc.defender_steps), n(rc.defender_retreat), n(rc.attacker_retreat)))
    return total


def _ignores_retreat(s: State, c: Cell, codes: list[str]) -> bool:
    """Does the defender's terrain let it ignore the retreat (``combat.ignore_retreat``, ``rules.retreat.in_terrain``)?
    Reading: the defender always takes the option, as it cannot cost it anything here."""
    terrain = defence_terrain(s, c)
    if any((t := s.game.terrain.get(tid)) and t.combat.ignore_retreat for tid in terrain):
        return True
    got = kr.in_terrain(s.game.rules.retreat, terrain)
    if got is None:
        return False
    may, must = got
    return all(code in may and code not in must for code in codes)


def _eliminate(s: State, uid: str) -> None:
    s.version += 1
    side = s.rules.pieces[uid].side
    s.lost_steps[side] = s.lost_steps.get(side, 0) + s.steps[uid]
    s.steps[uid] = 0
    s.status[uid] = "eliminated"
    s.pos[uid] = None


def _lose_step(s: State, uid: str) -> int:
    """Take a step from ``uid``; returns the defence strength lost (for exchanges, the attack strength)."""
    s.version += 1
    before = s.face(uid)
    side = s.rules.pieces[uid].side
    if s.steps[uid] <= 1:
        _eliminate(s, uid)
        return before.defense or 0
    s.steps[uid] -= 1
    s.lost_steps[side] = s.lost_steps.get(side, 0) + 1
    return (before.defense or 0) - (s.face(uid).defense or 0)


def _attack_lost(s: State, uid: str) -> int:
    before = s.face(uid).attack or 0
    if s.steps[uid] <= 1:
        return before
    return before - (s.rules.pieces[uid].face(s.steps[uid] - 1).attack or 0)


def retreat_paths(s: State, uid: str, n: int) -> list[tuple[Cell, ...]]:
    """Every path of ``n`` hexes ``uid`` may retreat along (kit.retreat, hex by hex, never back into a hex it has
    left), ending where stacking allows; [] when there is none (the unit is then eliminated).

    Reading: stacking binds only the hex a retreat ends in (a unit may pass through a full friendly hex), and the
    units of a hex retreat one by one, each seeing where the others went."""
    side = s.rules.pieces[uid].side
    enemy = set(s.cells_of(s.enemy_of(side)))
    friendly = {c for c in s.cells_of(side) if s.at(c) != [uid]}
    rules = s.game.rules.retreat
    assert rules is not None
    own = ksup.source_hexes(s.game, side)
    other = ksup.source_hexes(s.game, s.enemy_of(side))
    start = s.pos[uid]
    assert start is not None
    out: list[tuple[Cell, ...]] = []

    def walk(path: tuple[Cell, ...]) -> None:
        here = path[-1] if path else start
        if len(path) == n:
            if _stack_ok(s, uid, here, leaving=uid):
                out.append(path)
            return
        for nb in kr.retreat_hexes(
            rules,
            here,
            side,
            s.rules.grid.neighbours,
            friendly=friendly,
            enemy=enemy,
            own_sources=own,
            enemy_sources=other,
            turn=s.turn,
            during=s.current.side,
        ):
            if nb != start and nb not in path:
                walk((*path, nb))

    walk(())
    return out


def _advance_length(s: State, uid: str) -> int:
    rr = s.game.rules.retreat
    pc = s.rules.pieces[uid]
    n = kr.advance_length(rr, pc.mobility)
    if n is None:
        n = kr.advance_length(rr, "all")
    return n or 0


def _advancers(s: State, t: Task) -> list[str]:
    assert t.target is not None
    fight = s.fight
    if fight is None or s.at(t.target):
        return []
    results = s.game.combat.results
    if s.rules.result_advance:  # the legend says after which results the attacker advances
        if _combat.advance_after(fight.cell, results)[0] != "attacker":
            return []

        def length(u: str) -> int:
            return _combat.advance_after(fight.cell, results, _advance_length(s, u) or None)[1] or 0
    else:  # the retreat rules say it for every result
        rr = s.game.rules.retreat
        if rr is None or not rr.advance:
            return []
        if rr.advance_after == "defender-retreat" and not fight.defender_retreated:
            return []

        def length(u: str) -> int:
            return _advance_length(s, u)
    return [
        u
        for u in t.units
        if s.status[u] == "map"
        and (c := s.pos[u]) is not None
        and s.rules.grid.adjacent(c, t.target)
        and length(u) >= 1
        and _stack_ok(s, u, t.target)
    ]


def _task_actions(s: State) -> list[Action]:
    t = s.tasks[0]
    if t.kind in ("loss", "exchange"):
        return [LoseStep(u) for u in t.units if s.status[u] == "map"]
    if t.kind == "retreat":
        u = t.units[0]
        acts: list[Action] = [Retreat(u, tuple(s.label(c) for c in p)) for p in retreat_paths(s, u, t.amount)]
        if t.step_instead:
            acts.append(LoseStep(u))
        return acts
    return [*[Advance(u, s.label(t.target)) for u in _advancers(s, t) if t.target is not None], EndAdvance()]


def _task_done(s: State) -> bool:
    """Is the head task finished (or empty)?  Settles tasks that leave no choice."""
    t = s.tasks[0]
    fight = s.fight
    alive = [u for u in t.units if s.status[u] == "map"]
    if t.kind == "loss":
        if t.amount <= 0 or not alive:
            return True
        if t.amount >= sum(s.steps[u] for u in alive):
            for u in alive:
                _record_loss(s, u, all_steps=True)
            return True
        return False
    if t.kind == "exchange":
        assert fight is not None
        if not alive:
            return True
        rc, need = _exchange_due(s, fight)
        values = [s.steps[u] if rc.exchange == "steps" else s.face(u).attack or 0 for u in alive]
        ex = _combat.exchange_losses(rc, max(0, need - t.amount), values)
        if ex.at_least <= 0:
            return True
        if ex.all_lost:
            for u in alive:
                _record_loss(s, u, all_steps=True)
            return True
        return False
    if t.kind == "retreat":
        if not alive:
            return True
        u = alive[0]
        if not retreat_paths(s, u, t.amount) and not t.step_instead:
            s.log.append(f"{u} cannot retreat and is eliminated")
            _record_loss(s, u, all_steps=True)
            return True
        return False
    return not _advancers(s, t)


def _exchange_due(s: State, fight: Fight) -> tuple[m.ResultCode, int]:
    """The exchange code of the fight's result and what the defenders lost in its unit (steps, or printed
    defence strength)."""
    results = s.game.combat.results
    rc = next(rc for c in fight.cell.split("+") if (rc := results[c.strip()]).exchange is not None)
    return rc, fight.defender_steps_lost if rc.exchange == "steps" else fight.defender_strength_lost


def _record_loss(s: State, uid: str, *, all_steps: bool = False) -> None:
    fight = s.fight
    is_defender = fight is not None and uid in fight.defenders
    steps = s.steps[uid]
    if all_steps:
        lost = s.face(uid).defense or 0
        _eliminate(s, uid)
    else:
        lost = _lose_step(s, uid)
    if is_defender and fight is not None:
        fight.defender_strength_lost += lost
        fight.defender_steps_lost += steps - s.steps[uid]


def _apply_task(s: State, a: Action) -> None:
    t = s.tasks[0]
    if isinstance(a, LoseStep) and t.kind in ("loss", "exchange") and a.unit in t.units and s.status[a.unit] == "map":
        if t.kind == "exchange":
            assert s.fight is not None
            rc, _need = _exchange_due(s, s.fight)
            t.amount += 1 if rc.exchange == "steps" else _attack_lost(s, a.unit)
            _record_loss(s, a.unit)
        else:
            _record_loss(s, a.unit)
            t.amount -= 1
        return
    if t.kind == "retreat" and a in _task_actions(s):
        if isinstance(a, LoseStep):
            _record_loss(s, a.unit)
        else:
            assert isinstance(a, Retreat)
            for label in a.path:
                _enter(s, a.unit, s.rules.grid.parse(label))
            if s.fight is not None and a.unit in s.fight.defenders:
                s.fight.defender_retreated = True
        s.tasks[0] = Task("retreat", t.side, ())
        return
    if t.kind == "advance" and a in _task_actions(s):
        if isinstance(a, EndAdvance):
            s.tasks[0] = Task("advance", t.side, (), target=t.target)
        else:
            assert isinstance(a, Advance)
            assert t.target is not None
            _enter(s, a.unit, t.target)
            s.tasks[0] = Task("advance", t.side, tuple(u for u in t.units if u != a.unit), target=t.target)
        return
    raise IllegalAction(f"{a} does not settle the pending {t.kind}")


def _enter(s: State, uid: str, c: Cell) -> None:
    s.version += 1
    s.pos[uid] = c
    if c in s.rules.tracked:
        s.control[c] = s.rules.pieces[uid].side


# ================================================================================================ replacements
def _comm(s: State, side: str) -> set[Cell]:
    """Hexes from which ``side`` traces a line to a friendly source (kit.supply)."""
    position = {}
    for sd in s.rules.sides:
        for c in s.cells_of(sd):
            position[s.label(c)] = sd
    return {s.rules.grid.parse(h) for h in ksup.supplied(s.game, side, position)}


def _replacement_actions(s: State) -> list[Action]:
    rep = s.rules.play.replacements
    side = s.current.side
    assert side is not None
    pts = s.points.get(side, 0)
    if rep is None or pts < rep.step_cost:
        return []
    comm = _comm(s, side) if rep.communication else None
    out: list[Action] = []
    if rep.restore:
        for u in sorted(s.on_map(side)):
            c = s.pos[u]
            if s.steps[u] < s.rules.pieces[u].full and (comm is None or c in comm):
                out.append(Restore(u))
    if rep.rebuild:
        places = _places(s, side, comm)
        for u in sorted(uid for uid, st in s.status.items() if st == "eliminated" and s.rules.pieces[uid].side == side):
            if s.turn < s.rules.pool_from.get(u, 1):
                continue  # in the pool, not available yet
            need = rep.step_cost * (1 if rep.returns_with == "one" else s.rules.pieces[u].full)
            if need > pts:
                continue
            out += [Return(u, s.label(c)) for c in places if _stack_ok(s, u, c)]
    return out


def _places(s: State, side: str, comm: set[Cell] | None) -> list[Cell]:
    rep = s.rules.play.replacements
    assert rep is not None
    want = set(rep.place)
    cells: set[Cell] = set()
    for label, info in s.game.map.hexes.items():
        if want & ({info.terrain} | set(info.features)):
            cells.add(s.rules.grid.parse(label))
    if rep.place_at_entry:
        cells |= ksup.entry_hexes(s.game, side)
    enemy = set(s.cells_of(s.enemy_of(side)))
    ezoc = _zone(s, side) if rep.not_in_enemy_zoc else set()
    return sorted(
        (
            c
            for c in cells
            if c not in enemy
            and c not in ezoc
            and (not rep.controlled or s.control.get(c) == side)
            and (comm is None or c in comm)
        ),
        key=s.label,
    )


# ================================================================================================ the sequence
def legal_actions(state: State) -> list[Action]:
    """Every action the side to act may take now ([] once the game is over)."""
    s = state
    if s.result is not None:
        return []
    if s.legal_cache is not None and s.legal_cache[0] == s.version:
        return list(s.legal_cache[1])
    acts = _legal(s)
    s.legal_cache = (s.version, acts)
    return list(acts)


def _legal(s: State) -> list[Action]:
    if s.result is not None:
        return []
    if s.tasks:
        return _task_actions(s)
    slot = s.current
    side = slot.side
    if slot.kind == "movement" and side is not None:
        acts: list[Action] = []
        for u in sorted(s.on_map(side)):
            if u not in s.moved and _may_act(s, u):
                acts += _moves(s, u)
        return [*acts, EndPhase()]
    if slot.kind == "combat" and side is not None:
        return [*_attacks(s), EndPhase()]
    if slot.kind == "reinforcement" and side is not None:
        return [*_replacement_actions(s), EndPhase()]
    return [EndPhase()]


def apply(state: State, action: Action, dice: DiceSource | None = None) -> State:
    """Apply ``action`` (legal in ``state``) in place, then play on to the next decision; returns the state."""
    s = state
    if s.result is not None:
        raise IllegalAction("the game is over")
    if isinstance(action, Move | Restore | Return) and not s.tasks and action not in legal_actions(s):
        raise IllegalAction(f"{action} is not legal now")
    s.version += 1
    if s.tasks:
        _apply_task(s, action)
    elif isinstance(action, EndPhase):
        _end_slot(s)
    elif isinstance(action, Move):
        _enter(s, action.unit, s.rules.grid.parse(action.to))
        s.moved.add(action.unit)
    elif isinstance(action, Attack):
        if s.current.kind != "combat":
            raise IllegalAction("attacks are made in a combat phase")
        if dice is None:
            raise ValueError("an attack needs a die roll: pass dice to apply()")
        _resolve(s, action, dice)
    elif isinstance(action, Restore | Return):
        rep = s.rules.play.replacements
        side = s.current.side
        assert rep is not None
        assert side is not None
        s.version += 1
        # Reading: a step replaced is taken off the steps the side has lost, never below none: a unit that
        # started reduced or in the pool had lost nothing to the enemy.
        if isinstance(action, Restore):
            s.steps[action.unit] += 1
            s.points[side] -= rep.step_cost
            s.lost_steps[side] = max(0, s.lost_steps[side] - 1)
        else:
            n = 1 if rep.returns_with == "one" else s.rules.pieces[action.unit].full
            s.status[action.unit] = "map"
            s.steps[action.unit] = n
            s.points[side] -= rep.step_cost * n
            s.lost_steps[side] = max(0, s.lost_steps[side] - n)
            _enter(s, action.unit, s.rules.grid.parse(action.hex))
    else:
        raise IllegalAction(f"{action} is not an action of this phase")
    _settle(s)
    return s


def _settle(s: State) -> None:
    """Finish tasks that leave no choice, and pass phases with nothing to decide."""
    while s.result is None:
        while s.tasks and _task_done(s):
            s.tasks.pop(0)
            s.version += 1
        if s.tasks:
            return
        s.fight = None
        if legal_actions(s) != [EndPhase()]:
            return
        _end_slot(s)


def _enter_slot(s: State) -> None:
    """What happens as a phase begins: skipped on turns it is not played; arrivals and replacement points."""
    slot = s.current
    s.version += 1
    s.move_cache.clear()
    s.moved.clear()
    s.attacked.clear()
    s.hit_hexes.clear()
    if slot.rule is not None and slot.rule.turns and s.turn not in slot.rule.turns:
        return
    if slot.kind == "reinforcement" and slot.side is not None:
        side = slot.side
        t = s.rules.turns.get(s.turn)
        got = t.replacements.get(side, 0) if t is not None else 0
        rep = s.rules.play.replacements
        keep = s.points.get(side, 0) if rep is not None and rep.carry_over else 0
        s.points[side] = keep + (got if isinstance(got, int) else 0)
        enemy = set(s.cells_of(s.enemy_of(side)))
        for u in sorted(s.pos):
            pc = s.rules.pieces[u]
            e = pc.unit.entry
            if pc.side != side or s.status[u] != "waiting" or e is None or not isinstance(e.turn, int):
                continue
            if e.turn <= s.turn and e.hex is not None:
                c = s.rules.grid.parse(e.hex)
                # Reading: an entry hex held by the enemy (or full) delays the arrival to the next turn.
                if c not in enemy and _stack_ok(s, u, c):
                    s.status[u] = "map"
                    _enter(s, u, c)


def _end_slot(s: State) -> None:
    slot = s.current
    if slot.kind == "reinforcement" and slot.side is not None:
        rep = s.rules.play.replacements
        if rep is None or not rep.carry_over:
            s.points[slot.side] = 0
    s.slot += 1
    if s.slot >= len(s.rules.slots):
        s.slot = 0
        won = _holds(s, "turn-end")
        if won is not None:
            s.result = won
            return
        if s.turn >= s.rules.last_turn:
            s.result = _final(s)
            return
        s.turn += 1
    _enter_slot(s)
    slot = s.current
    if slot.rule is not None and slot.rule.turns and s.turn not in slot.rule.turns:
        _end_slot(s)


# ================================================================================================ victory
def score(s: State) -> dict[str, int]:
    """Each side's VP now: ``victory.start`` and ``handicap``, the VP of the hexes it controls (kit.victory.hex_vp),
    and ``per: enemy-step`` items for the enemy's lost steps."""
    v = s.game.victory
    out = dict.fromkeys(s.rules.sides, 0)
    if v is None:
        return out
    for sd in out:
        out[sd] += v.start.get(sd, 0) + v.handicap.get(sd, 0)
    for c, sd in s.control.items():
        vp = kv.hex_vp(s.game, s.label(c))
        if vp:
            out[sd] += vp
    for item in v.points:
        if item.per == "enemy-step" and isinstance(item.vp, int):
            for sd in out:
                if item.side in (None, sd):
                    got = item.vp * s.lost_steps.get(s.enemy_of(sd), 0)
                    out[sd] += min(got, item.max) if item.max is not None else got
    return out


def _holds(s: State, at: str) -> Result | None:
    vp = score(s)
    for hw in s.rules.play.hold:
        if hw.at != at and not (at == "end" and hw.at == "turn-end"):
            continue
        owners = {s.control.get(s.rules.grid.parse(h)) for h in hw.hexes}
        if len(owners) == 1 and (owner := owners.pop()) is not None and hw.side in (None, owner):
            where = ", ".join(hw.hexes)
            return Result(tuple(vp[sd] for sd in s.rules.sides), owner, None, f"holds {where}")
    return None


def _final(s: State) -> Result:
    won = _holds(s, "end")
    if won is not None:
        return won
    vp = score(s)
    tup = tuple(vp[sd] for sd in s.rules.sides)
    v = s.game.victory
    play = s.rules.play
    if v is not None and v.levels:
        first, second = s.rules.sides
        value = vp[first] - vp[second] if play.score == "difference" else vp[play.score]
        lv = kv.level(v, value)
        if lv is not None:
            return Result(tup, lv.side, lv.id, f"score {value}")
    a, b = (vp[sd] for sd in s.rules.sides)
    winner = None if a == b else s.rules.sides[0 if a > b else 1]
    return Result(tup, winner, None, "more VP" if winner else "equal VP")


# ================================================================================================ the interface
@dataclass(frozen=True)
class _Engine:
    """What ``forge play`` drives (forge/rules/engines.py registers it)."""

    name: str = "classic"

    def selects(self, game: m.Game) -> bool:
        return selects(game)

    def problems(self, game: m.Game) -> list[str]:
        return problems(game)

    def initial(self, game: m.Game, assume: Mapping[str, Any] | None = None) -> State:
        return initial(game, assume)

    def legal_actions(self, state: State) -> list[Action]:
        return legal_actions(state)

    def apply(self, state: State, action: Action, dice: DiceSource | None = None) -> State:
        return apply(state, action, dice)

    def result(self, state: State) -> Result | None:
        return state.result


ENGINE = _Engine()
"""The engine object ``forge.rules.engines.engine_for`` returns for games :func:`selects` accepts."""


def play_random(game: m.Game, seed: int, *, max_actions: int = 100_000) -> State:
    """A whole game of uniformly random legal actions and dice from ``seed`` (tests and benchmarks)."""
    s = initial(game)
    rng = random.Random(seed)
    dice = Dice(seed)
    n = 0
    while s.result is None:
        acts = legal_actions(s)
        apply(s, acts[rng.randrange(len(acts))], dice)
        n += 1
        if n > max_actions:
            raise RuntimeError(f"no result after {max_actions} actions")
    return s
