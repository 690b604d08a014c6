"""A playable engine for games of hits: the sequence of play, phase by phase, driven by the data (an odds CRT of
normal/all-out hits on a hex grid, or dice-pool combat on a square grid; see docs/FORMAT.md, "Play").

Everything that is data comes from the :class:`forge.model.Game`, and nothing asks which game it is: the grid
(hex or square, through :mod:`forge.hexgrid`), the map (hexes, terrain, rivers, supply sources, names), the units
and their reinforcement turns, the sequence of play (phase kinds from ``activities``, player turns from
``each_side``), the combat system by ``combat.kind`` (an odds CRT of normal/all-out hits with its shifts, shift
caps and strength modifiers, read through :mod:`forge.rules.combat`, and its all-out rules, ``combat.crt.all_out``;
or dice-pool combat through :mod:`forge.rules.dicepool`), the conditions of shifts and modifiers decided through
the shared vocabulary (:mod:`forge.rules.kit.conditions`) from the facts of each attack, the defender limits,
the mandatory-retreat rule, two-hex moves from the movement kit (``rules.movement``), retreats from the retreat
kit (``rules.retreat``), stacking from ``rules.stacking``, the weather table, the breakout threshold, the victory
points (by their ``per`` keys) and the handicap, and the turns on which each special rule applies
(``special_rules[*].turns``).  Special rules apply through their ``effects`` (:class:`forge.model.RuleEffect`,
compiled by :mod:`forge.rules.effects`), never by their number; the places and hexes an effect acts on are in the
data.  Side roles follow the turn order.  :func:`problems` lists what a game's
data lacks for play; :meth:`State.initial` raises
:class:`~forge.rules.board.UnplayableGameError` with that list.

Driving a game::

    state = State.initial(game, strengths=assumed)     # refuses unknown strengths unless you assume them
    dice = Dice(seed=1)
    while not state.result:
        action = choose(legal_actions(state))          # frozen dataclasses with readable str()
        apply(state, action, dice)                     # in place; returns the state; state.copy() to branch

The engine stops at every decision and plays the rest itself: phases with nothing to decide (recovery,
housekeeping, a supply phase with no choices, a combat or movement phase with nothing that can attack or move)
pass automatically, rolling the dice they need.

Decisions:

* Supply: :class:`Reinforce` (equally near entry hexes, or a reinforcement whose entry hex the data does not give),
  :class:`Rebuild` (a rebuild effect), :class:`EndPhase`.
* Combat: build an attack with :class:`Declare` (one attacker at a time), roll it with :class:`Resolve`
  (optionally all-out, naming the unit flipped); :class:`Attack` does both in one action (accepted by
  :func:`apply`, not listed by :func:`legal_actions`).  The defender then absorbs hits with :class:`LoseStep`
  and :class:`Retreat`, one unit at a time.  :class:`EndPhase` ends the combat phase.
* Movement: :class:`Move` (one move per unit, one hex or two for fast units), :class:`EndPhase`; on a turn with a
  breakout effect then :class:`Breakout` for each unit that tries, and :class:`EndPhase`.

Interpretations where the rules are silent are marked "Reading:" in the docstrings below.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from .. import conditions as _vocab
from ..model import (
    CellFormat,
    CombatKind,
    Condition,
    Crt,
    Game,
    Modifier,
    Shift,
    ShiftCap,
    TerrainKind,
    Unknown,
    UnitType,
)
from . import combat, dicepool
from .bitboard import HEXES, Masks, hexes, mask_of
from .bitboard import flood as flood_mask
from .board import (
    Board,
    CombatRecord,
    GameResult,
    PendingHits,
    Phase,
    UnitStatus,
    UnplayableGameError,
    _phase_kind,
    board_problems,
)
from .dice import Dice, DiceSource, ScriptedDice
from .effects import Effects, compile_effects, effect_problems
from .kit import conditions as _kc
from .kit import movement as _mk
from .kit import retreat as _kr
from .kit import stacking as _ks

if TYPE_CHECKING:
    from .state import State

# Enum members as module globals for the hot paths: `Phase.COMBAT` is a lookup through the enum class that costs
# about ten times a global's (CPython), and play compares phase kinds and statuses at every decision.
_COMBAT = Phase.COMBAT
_HOUSEKEEPING = Phase.HOUSEKEEPING
_MOVEMENT = Phase.MOVEMENT
_RECOVERY = Phase.RECOVERY
_SUPPLY = Phase.SUPPLY
_BROKEN_OUT = UnitStatus.BROKEN_OUT
_DESTROYED = UnitStatus.DESTROYED
_LOST = UnitStatus.LOST
_ON_MAP = UnitStatus.ON_MAP
_PENDING = UnitStatus.PENDING
_WITHDRAWN = UnitStatus.WITHDRAWN

__all__ = [
    "Action",
    "Attack",
    "AttackPreview",
    "Breakout",
    "Declare",
    "Dice",
    "DiceSource",
    "EndPhase",
    "IllegalAction",
    "LoseStep",
    "Move",
    "Rebuild",
    "Reinforce",
    "Resolve",
    "Retreat",
    "ScriptedDice",
    "apply",
    "legal_actions",
    "parse_action",
    "preview_attack",
    "problems",
    "supplied_units",
]

class IllegalAction(ValueError):
    """An action that is not legal in the state it was applied to."""


# ================================================================================================== dice
class _NoDice:
    def roll(self) -> int:
        raise ValueError("this step needs a die roll: pass dice to apply()")


# ================================================================================================ actions
@dataclass(frozen=True, slots=True)
class EndPhase:
    """End the current phase (or the current step of it: declining a rebuild, ending breakouts)."""

    def __str__(self) -> str:
        return "end phase"


@dataclass(frozen=True, slots=True)
class Declare:
    """Add ``unit`` to the attack on ``target`` being built (opens it if none is)."""

    unit: str
    target: str

    def __str__(self) -> str:
        return f"declare {self.unit} on {self.target}"


@dataclass(frozen=True, slots=True)
class Resolve:
    """Roll the attack declared so far; ``all_out`` names the two-step unit flipped for an all-out attack."""

    all_out: str | None = None

    def __str__(self) -> str:
        return "resolve" if self.all_out is None else f"resolve all-out flipping {self.all_out}"


@dataclass(frozen=True, slots=True)
class Attack:
    """A whole attack at once: :class:`Declare` each attacker, then :class:`Resolve` (a convenience for
    scripts)."""

    target: str
    attackers: tuple[str, ...]
    all_out: str | None = None

    def __str__(self) -> str:
        tail = "" if self.all_out is None else f" all-out flipping {self.all_out}"
        return f"attack {self.target} with {'+'.join(self.attackers)}{tail}"


@dataclass(frozen=True, slots=True)
class LoseStep:
    """The defender absorbs one hit with a step of ``unit``."""

    unit: str

    def __str__(self) -> str:
        return f"lose step {self.unit}"


@dataclass(frozen=True, slots=True)
class Retreat:
    """The defender absorbs the final hit by retreating; ``unit`` goes to ``to``.  Once one unit has
    retreated, every other unretreated defender of the hex must retreat too."""

    unit: str
    to: str

    def __str__(self) -> str:
        return f"retreat {self.unit} to {self.to}"


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``unit`` to ``to``; ``via`` names the middle hex of a two-hex move.

    :func:`legal_actions` lists moves without ``via``; the engine then takes a legal route that enters no hex
    that would trip a trigger of the special rules' effects (an entry they remember) if there is one.  Give
    ``via`` to choose the route yourself.
    """

    unit: str
    to: str
    via: str | None = None

    def __str__(self) -> str:
        return f"move {self.unit} to {self.to}" + ("" if self.via is None else f" via {self.via}")


@dataclass(frozen=True, slots=True)
class Reinforce:
    """Place the arriving ``unit`` in ``to`` when the owner has a choice."""

    unit: str
    to: str

    def __str__(self) -> str:
        return f"reinforce {self.unit} at {self.to}"


@dataclass(frozen=True, slots=True)
class Rebuild:
    """Flip a supplied, reduced unit back to full strength (a rebuild effect)."""

    unit: str

    def __str__(self) -> str:
        return f"rebuild {self.unit}"


@dataclass(frozen=True, slots=True)
class Breakout:
    """An unsupplied unit that did not move tries to break out to friendly lines (a breakout effect)."""

    unit: str

    def __str__(self) -> str:
        return f"break out {self.unit}"


Action = EndPhase | Declare | Resolve | Attack | LoseStep | Retreat | Move | Reinforce | Rebuild | Breakout

_ID = r"[a-z0-9][a-z0-9_.\-]*"
_HEX = r"[A-Za-z]*[0-9]+"
_PARSERS: list[tuple[re.Pattern[str], Any]] = [
    (re.compile(r"end phase"), lambda m: EndPhase()),
    (re.compile(rf"declare ({_ID}) on ({_HEX})"), lambda m: Declare(m[1], m[2])),
    (re.compile(rf"resolve(?: all-out flipping ({_ID}))?"), lambda m: Resolve(m[1])),
    (
        re.compile(rf"attack ({_HEX}) with ({_ID}(?:\+{_ID})*)(?: all-out flipping ({_ID}))?"),
        lambda m: Attack(m[1], tuple(m[2].split("+")), m[3]),
    ),
    (re.compile(rf"lose step ({_ID})"), lambda m: LoseStep(m[1])),
    (re.compile(rf"retreat ({_ID}) to ({_HEX})"), lambda m: Retreat(m[1], m[2])),
    (re.compile(rf"move ({_ID}) to ({_HEX})(?: via ({_HEX}))?"), lambda m: Move(m[1], m[2], m[3])),
    (re.compile(rf"reinforce ({_ID}) at ({_HEX})"), lambda m: Reinforce(m[1], m[2])),
    (re.compile(rf"rebuild ({_ID})"), lambda m: Rebuild(m[1])),
    (re.compile(rf"break out ({_ID})"), lambda m: Breakout(m[1])),
]


def parse_action(text: str) -> Action:
    """Inverse of ``str(action)``.

    >>> parse_action("attack C6 with sov-75rc+sov-20tc all-out flipping sov-20tc")
    Attack(target='C6', attackers=('sov-75rc', 'sov-20tc'), all_out='sov-20tc')
    >>> str(parse_action(" move sov-29tc to B6 via C6 "))
    'move sov-29tc to B6 via C6'
    """
    s = " ".join(str(text).split())
    for pattern, make in _PARSERS:
        if m := pattern.fullmatch(s):
            action: Action = make(m)
            return action
    raise ValueError(f"{text!r} is not an action (e.g. 'move sov-29tc to B6', 'declare sov-48rc on B7', 'resolve')")


# ============================================================================================ compiled rules
@dataclass(frozen=True, eq=False)
class _Rules:
    """A game's rule data, compiled once per Board from the Game, with the tables and memos that make play fast
    (every State of the game shares them, as :attr:`State.rules`; nothing in them changes a game).  The special
    rules apply through their effects (:attr:`effects`), only when the data has them."""

    pool: dicepool.Pool | None
    """Dice-pool combat (``combat.dice_pool``); None for an odds CRT of hits."""
    crt: Crt | None
    n_columns: int
    """The odds CRT's number of columns (0 for dice-pool combat)."""
    shifts: tuple[Shift, ...]
    caps: tuple[ShiftCap, ...]
    modifiers: tuple[Modifier, ...]
    max_per_hexside: int
    max_defenders: tuple[int, ...]
    mandatory_side: int
    mandatory_min_hits: int
    retreat_absorbs: int
    """Hits a retreat absorbs (rules.retreat.loss_reduction_max; without it the final hit)."""
    effects: Effects
    """The special rules' effects (``special_rules[*].effects``) as tables by turn and side."""
    fast: tuple[bool, ...]
    """Units the movement kit gives more than one hex while supplied in some weather (fast units)."""
    two_hex: dict[str, tuple[bool, ...]]
    """Weather state -> units that may make a two-hex move in it while supplied (rules.movement.allowances)."""
    routes: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    """Per unit, from each hex, the (middle, end) pairs of the two-hex moves a unit of its type may make (within the
    movement kit's per-move limits for the type; units of one type share one table)."""
    middles: tuple[tuple[dict[int, tuple[int, ...]], ...], ...]
    """Per unit, :attr:`routes` by end hex: from each hex, end -> the middles of the routes to it, in route order."""
    ends_by_middle: tuple[tuple[dict[int, tuple[int, ...]], ...], ...]
    """Per unit, its two-hex routes (:attr:`routes`) by middle hex: from each hex, middle -> the ends of the routes
    through it, in route order (routes are listed middle by middle)."""
    adjacent: tuple[frozenset[int], ...]
    """The neighbours of each hex as a set (the Board's table, for zones of control and supply lines)."""
    enterable: tuple[tuple[tuple[int, ...], ...], ...]
    """Per unit, from each hex: its neighbours in table order without those the unit may never enter
    (:attr:`no_entry`)."""
    side_units: tuple[tuple[int, ...], ...]
    type_value: tuple[str, ...]
    combat_terrain: tuple[frozenset[str], ...]
    terrain_owned: tuple[frozenset[str], ...]
    """Per hex, the ids of the ``defender-terrain`` shifts its terrain gives (by id, or the one of that size)."""
    hex_class: tuple[int, ...]
    """Per hex, a small number shared by the hexes whose combat terrain and terrain shifts are the same."""
    shift_conds: tuple[Condition | str, ...]
    """Each shift's condition as the vocabulary reads it (:func:`forge.conditions.resolve`: aliases expanded)."""
    cond_modifiers: bool
    """Some strength modifier has a condition (totals then depend on the facts of the attack)."""
    fact_class: tuple[int, ...]
    """Per unit, a small number shared by the units of the same side, type and mobility class."""
    unit_facts: tuple[tuple[str, str, str], ...]
    """Per unit: its side id, unit type and mobility class (what conditions ask about it besides supply)."""
    crossing: dict[tuple[int, int], int]
    """(attacker's hex, defender's hex) -> index in :attr:`crossings` of the hexside features between them."""
    crossings: tuple[frozenset[str], ...]
    """The sets of hexside features an attack may cross (``river`` added when one is river-like); 0 is none."""
    phase_names: tuple[str, ...]
    """Per step of the sequence of play, its phase's name in ``sequence`` (what a condition's ``phase`` names)."""
    fact_needs: frozenset[str]
    """What the game's conditions read: ``weather``, ``step`` (the phase or the sides), ``terrain``, ``supply``,
    ``across``, ``class`` (a unit's side, type or mobility class); the memo key of :func:`_odds` holds these alone."""
    unit_code: tuple[int, ...]
    """Per unit, the part of its code in :func:`_odds`'s facts key that never changes (its class, when read)."""
    code_bits: int
    """Bits per unit code in the counts of the facts key (enough for every unit of the game in one code)."""
    shift_reads: tuple[tuple[int, ...], ...]
    """Per shift, the parts of the facts key its condition reads (0 weather, 1 step, 2 terrain, 3 attackers,
    4 defenders)."""
    oos_weight: int
    """1 when a condition reads supply (a unit's out-of-supply marker is part of its code), else 0."""
    key_crossing: dict[tuple[int, int], int]
    """:attr:`crossing` when a condition reads the hexsides attacked across, else empty."""
    n_crossings: int
    """How many crossing sets a unit code tells apart (1 when no condition reads them)."""
    defender_bits: tuple[tuple[int, int], ...]
    """Per unit, what it adds to the defenders' count in the facts key, supplied and out of supply: ``1 << (bits *
    code)`` worked out once (:attr:`unit_code`, :attr:`code_bits`, :attr:`oos_weight`)."""
    attacker_bits: tuple[tuple[tuple[int, ...], ...], ...]
    """Per unit, out of supply or not, and crossing set (:attr:`key_crossing`), what it adds to the attackers' count
    in the facts key."""
    key_reads: tuple[bool, bool, bool]
    """Whether :attr:`fact_needs` holds ``weather``, ``step`` and ``terrain`` (the first three parts of the key)."""
    crowded: int
    """A target holding this many unretreated units or more takes the all-out result (combat.crt.all_out)."""
    flip_first: tuple[UnitType, ...]
    """Unit types flipped first for an all-out attack, in order of preference (combat.crt.all_out.flip_first)."""
    flip_rank: tuple[int, ...]
    """Per unit, the place of its type in :attr:`flip_first` (its length when not there): the lowest place among
    the full two-step attackers gives the units that may be flipped."""
    initial_weather: str
    weather_table: dict[int, str]
    roll_turns: frozenset[int]
    fixed_weather: dict[int, str]
    per_unit_modifiers: bool
    """Every strength modifier multiplies single units (no stack bonuses): totals are sums of unit values."""
    hits: dict[int, list[tuple[int, int]]]
    """Die roll -> column -> (normal, all-out) hits, read from the CRT through :mod:`forge.rules.combat`."""
    retreat: Any
    """rules.retreat (:class:`forge.model.RetreatRules`): where a defender may retreat, through the kit."""
    sources: tuple[frozenset[int], ...]
    stacking: Any
    """rules.stacking (:class:`forge.model.StackingRules`) when it limits stacks, else None."""
    no_entry: tuple[frozenset[int], ...]
    """Per unit: hexes whose terrain (or a feature) its mobility class may not enter (movement ``prohibited``)."""
    any_no_entry: bool
    eliminate_unsupplied_at_end: bool
    """rules.supply.unsupplied_eliminated_at_end."""
    memo: dict[tuple[Any, ...], Any]
    """Memoised strength totals and odds columns (their inputs are few small numbers)."""
    turn_caps: dict[int, tuple[int, ...]]
    """Turn -> the indices of the shift caps whose turns include it (all turns when a cap names none): a memo."""
    starts: dict[tuple[Any, ...], State]
    """The opening State of each (strengths, scenario) started so far (:func:`remembered_start`); never changed,
    only copied."""
    actions: _ActionCache
    """Every Declare, Move, Retreat, LoseStep and Resolve of the game, built once and reused."""
    picks: dict[tuple[Any, ...], tuple[int, ...]]
    """Memo: the facts of an attack that conditions read (the key :func:`_odds` builds) -> the indices of the shifts
    that apply."""
    arrivals: dict[tuple[int, int], tuple[int, ...]]
    """(turn, side) -> the side's units whose entry turn it is, in unit order."""
    masks: Masks
    """The board's hex sets as bit masks (:mod:`forge.rules.bitboard`): each hex's bit and neighbours, spreads."""
    source_mask: tuple[int, ...]
    """:attr:`sources` as bit masks."""
    step_masks: tuple[tuple[int, ...], ...]
    """:attr:`enterable` as bit masks: per unit, from each hex, the neighbours it may enter."""
    far_ends: tuple[tuple[dict[int, int], ...], ...]
    """:attr:`ends_by_middle` as bit masks, without the ends the unit may never enter (:attr:`no_entry`): per unit,
    from each hex, middle -> the mask of the ends of the two-hex routes through it."""
    step_moves: tuple[_StepMoves, ...]
    """Per unit, its one-hex moves by the mask of the hexes it may enter (a memo)."""

    @property
    def odds_crt(self) -> Crt:
        """The odds CRT (only the odds combat code asks for it)."""
        assert self.crt is not None, "dice-pool combat has no CRT"
        return self.crt


def _condition_problems(game: Game, cond: Condition | str | None, what: str) -> list[str]:
    """Why the engine cannot decide ``cond`` from a position ([] when it can): every condition of the vocabulary
    (:mod:`forge.conditions`) is decided from the weather, the phase, the sides, the defender's terrain, the
    hexsides crossed and each unit's side, type, class and supply, except a fact only a player declares."""
    if cond is None:
        return [f"{what}: its condition is in words only (give a condition the engine reads)"]
    try:
        c = _vocab.resolve(cond, game.terrain)
    except KeyError:
        return [f"{what}: {cond!r} is not a condition a rule reads"]
    if isinstance(c, str) and c in _vocab.DECLARED:
        return [f"{what}: whether {_vocab.DECLARED[c]} is declared by a player, which the engine does not play"]
    return []


def terrain_owners(game: Game, shifts: Sequence[Shift], terrain: set[str] | frozenset[str]) -> set[str] | None:
    """The ids of the ``defender-terrain`` shifts a hex of ``terrain`` (its terrain and features) gives: for each of
    its terrain types with a column shift, the shift of that id, else the one such shift of that size (preferring
    those not named after a terrain); None when that is ambiguous or no shift has the size."""
    given = [sh for sh in shifts if sh.condition == _vocab.TERRAIN_GIVES]
    ids = {sh.id for sh in given}
    owners: set[str] = set()
    for tid in sorted(terrain):
        t = game.terrain.get(tid)
        if t is None or not t.combat.shift or t.kind is TerrainKind.HEXSIDE:
            continue
        if tid in ids:
            owners.add(tid)
            continue
        same = [sh.id for sh in given if sh.shift == t.combat.shift and sh.id not in game.terrain]
        same = same or [sh.id for sh in given if sh.shift == t.combat.shift]
        if len(same) != 1:
            return None
        owners.add(same[0])
    return owners


def _crt_cells(crt: Crt, *, hits: bool = False) -> tuple[int, int]:
    """How many cells the CRT has (every terrain section counted) and how many of them the data does not give."""
    per = len(crt.rows) * len(crt.columns)
    grids: list[list[list[str]] | Unknown] = (
        list(crt.cells.values()) if isinstance(crt.cells, dict) else [crt.cells]
    )
    n = per * len(grids)
    unknown = 0
    for g in grids:
        if isinstance(g, Unknown):
            unknown += per
            continue
        for row in g:
            for x in row:
                if (combat.hits_of(x, "all-out") is None) if hits else x.strip() in ("?", ""):
                    unknown += 1
    return n, unknown


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def problems(game: Game) -> list[str]:
    """Everything the data lacks for the engine to play ``game``, each naming the key path that would give it
    ([] when it can be played).  Never branches on which game it is: each check asks the data."""
    out = board_problems(game)
    c = game.combat
    if c.kind is CombatKind.DICE_POOL:
        if c.dice_pool is None:
            out.append("dice-pool combat without its parameters (combat.dice_pool)")
    elif c.kind is CombatKind.ODDS and c.crt is not None and c.crt.cell_format is CellFormat.HITS_NORMAL_ALLOUT:
        n, unknown = _crt_cells(c.crt, hits=True)
        if unknown:
            out.append(f"the CRT's {_count(unknown, 'cell')} of {n} are unknown (combat.crt.cells)")
        if c.crt.all_out is None:
            out.append(
                "how an attack is made all-out is not given: which attackers are flipped first and how many units "
                "crowd a target into the all-out result (combat.crt.all_out: flip_first, crowded_units)"
            )
        for k, sh in enumerate(c.shifts):
            out += _condition_problems(game, sh.condition, f"shift {sh.id!r} (combat.shifts[{k}].condition)")
        for tid, t in game.terrain.items():
            if t.kind is not TerrainKind.HEXSIDE and t.combat.shift and terrain_owners(game, c.shifts, {tid}) is None:
                out.append(
                    f"terrain {tid!r}: which defender-terrain shift gives its column shift of {t.combat.shift} is not "
                    "clear (a combat.shifts entry with condition defender-terrain, named after the terrain or the only "
                    "one of that size)"
                )
    else:
        crt = c.crt
        if crt is not None:
            n, unknown = _crt_cells(crt)
            if unknown:
                out.append(f"the CRT's {unknown} of {n} cells are unknown (combat.crt.cells)")
        fmt = "" if crt is None else f" with {crt.cell_format} cells"
        out.append(
            f"the engine plays odds CRTs of normal/all-out hits and dice-pool combat, not this {c.kind} CRT{fmt} "
            "(combat.kind)"
        )
    if c.kind in (CombatKind.DICE_POOL, CombatKind.ODDS):
        for k, mod in enumerate(c.modifiers):
            if mod.condition is not None:
                out += _condition_problems(
                    game, mod.condition, f"modifier {mod.id!r} (combat.modifiers[{k}].condition)"
                )
    if isinstance(c.max_attackers_per_hexside, Unknown):
        out.append("the most attackers per hexside is unknown (combat.max_attackers_per_hexside)")
    if game.rules.retreat is None:
        out.append("no retreat rules (rules.retreat)")
    sr = game.rules.supply
    if sr is None:
        out.append("no supply rules (rules.supply)")
    elif (sr.enemy_units, sr.enemy_zoc, sr.enemy_sources) != ("always", "unless-friendly", "unless-friendly") or (
        sr.trace is not None or sr.trace_by_side
    ):
        out.append(
            "the engine traces supply lines of any length that avoid enemy units, and enemy zones and enemy sources "
            "unless friendly-held; rules.supply asks for other lines"
        )
    if not game.units:
        out.append("the game has no units (units)")
    elif not any(u.setup or u.setup_zone for u in game.units) and not (
        any(sc.setup for sc in game.scenarios) or any(z.units for z in game.map.setup_zones.values())
    ):
        who = _count(len(game.units), "unit")
        out.append(
            f"none of the {who} has a set-up hex or zone (units[*].setup, units[*].setup_zone, scenarios[*].setup)"
        )
    pooled = [u.id for u in game.units if u.pool is not None]
    if pooled:
        out.append(
            f"this engine plays no off-map pool of units (units[*].pool: {', '.join(pooled[:3])}"
            f"{' ...' if len(pooled) > 3 else ''})"
        )
    for side in game.game.sides:
        if not any(h.supply == side.id for h in game.map.hexes.values()):
            out.append(f"the map has no supply source of the {side.id} side (map.hexes[*].supply)")
    weather = game.turns.weather
    if weather is not None and weather.table is not None and not any(t.id == weather.table for t in game.tables):
        out.append(f"the weather table {weather.table!r} is missing (tables)")
    out += effect_problems(game)
    played = {uid for sr in game.special_rules for e in sr.effects for uid in e.units}
    for u in game.units:
        if u.entry is not None and u.entry.condition and u.id not in played:
            out.append(
                f"unit {u.id!r} arrives on a condition no effect plays (units[*].entry.condition; an "
                "arrival-if-entered effect in special_rules[*].effects)"
            )
    return out


def _compile(board: Board) -> _Rules:
    game = board.game
    found = problems(game)
    if found:
        raise UnplayableGameError(game.game.id, found)
    c = game.combat
    pool = dicepool.Pool.of(c.dice_pool) if c.kind is CombatKind.DICE_POOL else None
    mp = c.max_attackers_per_hexside
    crt = c.crt if pool is None else None
    mand = crt.mandatory_retreat if crt is not None else None
    shifting = {
        k for k, t in game.terrain.items() if t.kind in (TerrainKind.HEX, TerrainKind.FEATURE) and t.combat.shift != 0
    }
    combat_terrain = []
    for h in range(len(board.labels)):
        feats = board.features[h]
        # Reading: a feature with its own combat effect (a city) stands in for the hex's base terrain, so a tank
        # attacking a city is multiplied once, by the city's multiplier, not by both.
        strong = {f for f in feats if f in shifting}
        combat_terrain.append(feats if strong else feats | {board.terrain[h]})
    weather = game.turns.weather
    table: dict[int, str] = {}
    if weather is not None and weather.table is not None:
        t = next(x for x in game.tables if x.id == weather.table)
        for col, cell in zip(t.columns, t.rows[0].cells, strict=True):
            table[int(col)] = cell
    fixed = {t.number: t.weather for t in game.turns.turns if t.weather is not None}
    roll_turns = frozenset(t.number for t in game.turns.turns if t.weather is None)
    nb = board.neighbours
    two = tuple(tuple((n, m) for n in nb[h] for m in nb[n] if m != h) for h in range(len(nb)))
    # The two-hex routes of each unit type, filtered by the movement kit's per-move limits for it
    # (rules.movement.limits: e.g. at most one hex of some terrain, or one hexside feature crossed, per move).
    kb = _mk.Board.of(game)
    kcells = list(board.grid.cells())

    def routes(unit_type: UnitType) -> tuple[tuple[tuple[int, int], ...], ...]:
        mv = _mk.mover(game, unit_type=str(unit_type))
        return tuple(
            tuple((n, m) for n, m in two[h] if _mk.within_limits(game, kb, mv, [kcells[h], kcells[n], kcells[m]]))
            for h in range(len(nb))
        )

    type_routes = {t: routes(t) for t in sorted(set(board.unit_type), key=str)}
    # Two-hex moves: units the kit's allowances give more than one hex in a weather state while supplied.
    states = list(weather.states) if weather is not None else [""]
    two_hex = {
        w: tuple(
            (_mk.allowance(game, _mk.mover(game, unit_type=str(t)), {w, "in-supply"} - {""}) or 0) > 1
            for t in board.unit_type
        )
        for w in states
    }
    fast = tuple(any(v[u] for v in two_hex.values()) for u in range(len(board.units)))
    hits: dict[int, list[tuple[int, int]]] = {}
    if crt is not None:
        n_faces = combat.dice_spec(crt.dice)[1]
        for die in range(1, n_faces + 1):
            row = combat.row_for_die(crt.rows, die)
            if row is None:
                raise ValueError(f"the CRT has no row for a roll of {die}")
            cols = []
            for j in range(len(crt.columns)):
                cell = combat.column_cells(crt, j)[row]
                normal, allout = combat.hits_of(cell, "normal"), combat.hits_of(cell, "all-out")
                if normal is None or allout is None:
                    raise combat.UnknownValueError(f"CRT cell {crt.columns[j]}/{die} is unknown")
                cols.append((normal, allout))
            hits[die] = cols
    stacking = game.rules.stacking
    rr = game.rules.retreat
    closed: dict[str, frozenset[int]] = {}
    for ut in board.unit_type:
        mob = _mk.mobility_of(game, str(ut))
        if mob not in closed:
            closed[mob] = frozenset(
                h
                for h in range(len(board.labels))
                if any(_mk.terrain_cost(game, x, mob) == _mk.PROHIBITED for x in {board.terrain[h], *board.features[h]})
            )
    no_entry = tuple(closed[_mk.mobility_of(game, str(ut))] for ut in board.unit_type)
    enterable = {ne: tuple(tuple(n for n in nb[h] if n not in ne) for h in range(len(nb))) for ne in set(no_entry)}
    by_middle = {t: _ends_by_middle(rt) for t, rt in type_routes.items()}
    type_middles = {t: _middles_by_end(rt) for t, rt in type_routes.items()}
    step_masks = {ne: tuple(map(mask_of, steps)) for ne, steps in enterable.items()}
    far_ends: dict[tuple[UnitType, frozenset[int]], tuple[dict[int, int], ...]] = {}
    for ut, ne in zip(board.unit_type, no_entry, strict=True):
        if (ut, ne) not in far_ends:
            far_ends[(ut, ne)] = tuple(
                {n: mask_of(m for m in ends if m not in ne) for n, ends in groups.items()} for groups in by_middle[ut]
            )
    sr = game.rules.supply
    arrivals: dict[tuple[int, int], tuple[int, ...]] = {}
    for i, u in enumerate(board.units):
        if u.entry is not None and isinstance(u.entry.turn, int):
            key = (u.entry.turn, board.unit_side[i])
            arrivals[key] = (*arrivals.get(key, ()), i)
    actions = _ActionCache(board)
    # The facts conditions read (forge.conditions): each hex's combat terrain and terrain shifts, each unit's
    # side, type and class, the hexside features between two hexes, the phases' names.
    owned = []
    for h in range(len(board.labels)):
        got = terrain_owners(game, c.shifts, board.features[h] | {board.terrain[h]}) if pool is None else set()
        owned.append(frozenset(got or ()))
    classes: dict[tuple[frozenset[str], frozenset[str]], int] = {}
    hex_class = tuple(classes.setdefault((ct, ow), len(classes)) for ct, ow in zip(combat_terrain, owned, strict=True))
    facts = tuple(
        (board.sides[board.unit_side[u]], board.unit_type[u].value, _mk.mobility_of(game, str(board.unit_type[u])))
        for u in range(len(board.units))
    )
    kinds: dict[tuple[str, str, str], int] = {}
    fact_class = tuple(kinds.setdefault(f, len(kinds)) for f in facts)
    rivers = _vocab.river_features(game.terrain)
    crossings: dict[frozenset[str], int] = {frozenset(): 0}
    crossing = {
        pair: crossings.setdefault(f | ({_vocab.RIVER} if f & rivers else set()), len(crossings))
        for pair, f in board.hexside_features.items()
    }
    all_out = crt.all_out if crt is not None else None
    flip_first = tuple(all_out.flip_first) if all_out is not None else ()
    shift_conds = tuple(_resolved(sh.condition, game) for sh in c.shifts) if pool is None else ()
    needs = _fact_needs([*(sh.condition for sh in c.shifts), *(mo.condition for mo in c.modifiers)], game)
    unit_code = tuple(2 * k if "class" in needs else 0 for k in fact_class)
    code_bits = max(8, len(board.units).bit_length() + 1)
    oos_weight = 1 if "supply" in needs else 0
    n_crossings = len(crossings) if "across" in needs else 1
    return _Rules(
        pool=pool,
        crt=crt,
        n_columns=len(crt.columns) if crt is not None else 0,
        shifts=tuple(c.shifts),
        caps=tuple(c.shift_caps),
        modifiers=tuple(c.modifiers),
        max_per_hexside=mp if isinstance(mp, int) else 10**6,
        max_defenders=tuple(c.max_defenders.get(s, 10**6) for s in board.sides),
        mandatory_side=board.side(mand.side) if mand is not None else -1,
        mandatory_min_hits=mand.min_hits if mand is not None else 10**6,
        retreat_absorbs=rr.loss_reduction_max if rr is not None and rr.loss_reduction_max else 1,
        effects=compile_effects(board),
        fast=fast,
        two_hex=two_hex,
        routes=tuple(type_routes[t] for t in board.unit_type),
        middles=tuple(type_middles[t] for t in board.unit_type),
        ends_by_middle=tuple(by_middle[t] for t in board.unit_type),
        adjacent=tuple(frozenset(x) for x in nb),
        enterable=tuple(enterable[ne] for ne in no_entry),
        side_units=tuple(
            tuple(u for u in range(len(board.units)) if board.unit_side[u] == x) for x in range(len(board.sides))
        ),
        type_value=tuple(t.value for t in board.unit_type),
        combat_terrain=tuple(combat_terrain),
        terrain_owned=tuple(owned),
        hex_class=hex_class,
        shift_conds=shift_conds,
        cond_modifiers=any(m.condition is not None for m in c.modifiers),
        fact_class=fact_class,
        unit_facts=facts,
        crossing=crossing,
        crossings=tuple(crossings),
        phase_names=_phase_names(game, len(board.sides)),
        fact_needs=needs,
        unit_code=unit_code,
        code_bits=code_bits,
        shift_reads=tuple(_reads(cond) for cond in shift_conds),
        oos_weight=oos_weight,
        key_crossing=crossing if "across" in needs else {},
        n_crossings=n_crossings,
        defender_bits=tuple((1 << (code_bits * k), 1 << (code_bits * (k + oos_weight))) for k in unit_code),
        attacker_bits=tuple(
            tuple(
                tuple(1 << (code_bits * ((k + o * oos_weight) * n_crossings + x)) for x in range(n_crossings))
                for o in (0, 1)
            )
            for k in unit_code
        ),
        key_reads=("weather" in needs, "step" in needs, "terrain" in needs),
        crowded=(all_out.crowded_units or 10**6) if all_out is not None else 10**6,
        flip_first=flip_first,
        flip_rank=tuple(flip_first.index(t) if t in flip_first else len(flip_first) for t in board.unit_type),
        initial_weather=weather.initial if weather is not None else "",
        weather_table=table,
        roll_turns=roll_turns,
        fixed_weather=fixed,
        per_unit_modifiers=all(m.add is None and m.per_unit for m in c.modifiers),
        hits=hits,
        retreat=rr,
        sources=tuple(frozenset(x) for x in board.sources),
        stacking=stacking if stacking is not None and not stacking.unlimited else None,
        no_entry=no_entry,
        any_no_entry=any(no_entry),
        eliminate_unsupplied_at_end=sr is not None and sr.unsupplied_eliminated_at_end,
        memo={},
        turn_caps={},
        starts={},
        actions=actions,
        picks={},
        arrivals=arrivals,
        masks=Masks.of(nb),
        source_mask=tuple(mask_of(x) for x in board.sources),
        step_masks=tuple(step_masks[ne] for ne in no_entry),
        far_ends=tuple(far_ends[(t, ne)] for t, ne in zip(board.unit_type, no_entry, strict=True)),
        step_moves=tuple(map(_StepMoves, actions.moves)),
    )


def _resolved(cond: Condition | str | None, game: Game) -> Condition | str:
    """A condition as :func:`forge.rules.kit.conditions.holds` reads it (``problems`` refused the others)."""
    got = _vocab.resolve(cond, game.terrain)
    assert got is not None, "problems() refuses a shift whose condition is in words"
    return got


def _fact_needs(conds: Sequence[Condition | str | None], game: Game) -> frozenset[str]:
    """Which facts of an attack the conditions ``conds`` read (see :attr:`_Rules.fact_needs`)."""
    out: set[str] = set()
    for cond in conds:
        c = None if cond is None else _vocab.resolve(cond, game.terrain)
        if isinstance(c, str):  # the terrain gives the shift
            out.add("terrain")
        elif c is not None:
            for need, fields in (
                ("weather", (c.weather,)),
                ("step", (c.phase, c.attacker_side, c.defender_side)),
                ("terrain", (c.terrain,)),
                ("supply", (c.supply,)),
                ("across", (c.across,)),
                ("class", (c.unit_types, c.mobility)),
            ):
                if any(f not in (None, []) for f in fields):
                    out.add(need)
    return frozenset(out)


def _reads(cond: Condition | str) -> tuple[int, ...]:
    """The parts of :func:`_odds`'s facts key a resolved condition reads (see :attr:`_Rules.shift_reads`)."""
    if isinstance(cond, str):  # the terrain gives the shift
        return (2,)
    out = set()
    if cond.weather:
        out.add(0)
    if cond.phase or cond.attacker_side or cond.defender_side:
        out.add(1)
    if cond.terrain:
        out.add(2)
    if any(getattr(cond, f) not in (None, []) for f in _vocab.UNIT_FACTS):
        out |= {3} if cond.role == "attacker" else {4} if cond.role == "defender" else {3, 4}
    return tuple(sorted(out))


def _phase_names(game: Game, n_sides: int) -> tuple[str, ...]:
    """The name in ``sequence`` of the phase of each step of play (a run of ``each_side`` phases played whole by
    each side in turn, as the Board expands it; phases of no kind are not steps)."""
    out = []
    seq = list(game.sequence)
    i = 0
    while i < len(seq):
        j = i + 1
        if seq[i].each_side:
            while j < len(seq) and seq[j].each_side:
                j += 1
            out += seq[i:j] * n_sides
        else:
            out.append(seq[i])
        i = j
    return tuple(p.name for p in out if _phase_kind(p) is not None)


def _middles_by_end(routes: tuple[tuple[tuple[int, int], ...], ...]) -> tuple[dict[int, tuple[int, ...]], ...]:
    """The (middle, end) two-hex routes from each hex grouped by end hex: end -> the middles, in route order."""
    out = []
    for pairs in routes:
        groups: dict[int, tuple[int, ...]] = {}
        for n, m in pairs:
            groups[m] = (*groups.get(m, ()), n)
        out.append(groups)
    return tuple(out)


def _ends_by_middle(routes: tuple[tuple[tuple[int, int], ...], ...]) -> tuple[dict[int, tuple[int, ...]], ...]:
    """The (middle, end) two-hex routes from each hex grouped by middle hex: middle -> the ends, in route order."""
    out = []
    for pairs in routes:
        groups: dict[int, tuple[int, ...]] = {}
        for n, m in pairs:
            groups[n] = (*groups.get(n, ()), m)
        out.append(groups)
    return tuple(out)


def rules_of(board: Board) -> _Rules:
    """The compiled rules of ``board``'s game (built on first use)."""
    try:
        r: _Rules = board.extra["engine"]
    except KeyError:
        r = board.extra["engine"] = _compile(board)
    return r


_MAX_STARTS = 32
"""At most this many opening states are kept per game (callers that vary the strengths endlessly pay as before)."""


def remembered_start(game: Game, key: tuple[Any, ...] | None) -> State | None:
    """The opening State :meth:`State.initial` built earlier for ``game`` and ``key`` (its strengths and scenario),
    or None.  Only a game whose rules are compiled has one: compiling them checked that it can be played."""
    board = Board.built(game)
    rules: _Rules | None = None if board is None or key is None else board.extra.get("engine")
    return None if rules is None else rules.starts.get(key)  # type: ignore[arg-type]


def remember_start(state: State, key: tuple[Any, ...] | None) -> None:
    """Keep a fresh State (with its log) as the opening of its game for ``key`` (None: not kept)."""
    starts = rules_of(state.board).starts
    if key is not None and len(starts) < _MAX_STARTS:
        starts[key] = state


# ================================================================================================= supply
def _supplied_mask(s: State, side: int, max_length: int | None = None) -> int:
    """The hexes from which ``side`` can trace supply now, as a bit mask."""
    r = s.rules
    enemy = s.held_mask[1 - side]
    spread = r.masks.spread
    # supplied_cells' three tests merged into one mask of hexes a line may not enter (see supply.reachable): the
    # enemy's zone (the neighbours of its hexes) and sources unless friendly-held, and enemy units
    blocked = ((spread(enemy) | r.source_mask[1 - side]) & ~s.held_mask[side]) | enemy
    return flood_mask(r.source_mask[side], ~blocked, spread, max_length)


def _supplied_hexes(s: State, side: int, max_length: int | None = None) -> set[int]:
    """Hexes from which ``side`` can trace supply now."""
    return set(hexes(_supplied_mask(s, side, max_length)))


def supplied_units(state: State, side: str, *, max_length: int | None = None) -> list[str]:
    """Ids of ``side``'s units on the map that can trace supply now, whatever their markers say."""
    si = state.board.side(side)
    ok = _supplied_mask(state, si, max_length)
    return [state.board.unit_ids[u] for u in state.on_map(si) if ok >> state.pos[u] & 1]


def _judge_supply(s: State, side: int) -> None:
    """Mark the side's units in or out of supply (a supply-max-length effect shortens the lines)."""
    r = s.rules
    limit = r.effects.supply_length.get((s.turn, side))
    ok = _supplied_mask(s, side, limit)
    pos, oos = s.pos, s.oos
    for u in r.side_units[side]:
        if pos[u] >= 0:
            oos[u] = not ok >> pos[u] & 1
    if s.log is not None:
        out = [s.board.unit_ids[u] for u in s.on_map(side) if s.oos[u]]
        s._note(f"out of supply: {', '.join(out) or 'none'}")


# ================================================================================================ helpers
def _enter_hex(s: State, u: int, h: int) -> None:
    """Put ``u`` in ``h`` and note the triggers of the special rules' effects it trips."""
    if s.pos[u] >= 0:
        s._relocate(u, h)
    else:
        s._place(u, h)
    _trip(s, u, h)


def _trip(s: State, u: int, h: int) -> None:
    """Remember that a unit of ``u``'s side has entered ``h`` for every trigger (:attr:`Effects.triggers`) that
    watches it."""
    ef = s.rules.effects
    if not ef.trip_mask >> h & 1:
        return
    side = s.board.unit_side[u]
    for i, (who, watched) in enumerate(ef.triggers):
        if who == side and h in watched:
            s.tripped[i] = True


def _eliminate(s: State, u: int) -> None:
    if s.log is not None:
        s._note(f"{s.board.unit_ids[u]} eliminated")
    s._set_status(u, _DESTROYED)


# ================================================================================================= combat
def _declarable(s: State) -> list[Action]:
    """The units that may be added to the attack being built, as Declare actions (adjacent, not yet attacked nor
    retreated, within the hexside limit and any only-types-attack effect): by
    target hex, then the target's neighbours in table order, then the units of each in the order they entered it.

    With an attack being declared its target is the only one; else every enemy-held hex not yet attacked this
    phase is a candidate.
    """
    b = s.board
    r = s.rules
    a = s.active
    attackers, target, pos = s.attackers, s.attack_target, s.pos
    only = r.effects.attackers.get((s.turn, a))  # only-types-attack effects (None: no such limit now)
    side, attacked, retreated, occupants = b.unit_side, s.attacked, s.retreated, s.occupants
    around = r.masks.neighbours
    out: list[Action] = []
    if target >= 0:
        on_target = r.actions.declares_on[target]
        limit = r.max_per_hexside
        taken = list(map(pos.__getitem__, attackers))
        for n in HEXES[around[target] & s.held_mask[a]]:  # the target's neighbours holding units of the side
            if taken and taken.count(n) >= limit:
                continue  # the most attackers across one hexside
            for u in occupants[n]:
                if (
                    side[u] == a
                    and not attacked[u]
                    and not retreated[u]
                    and u not in attackers
                    and (only is None or u in only)
                ):
                    out.append(on_target[u])
        return out
    return _open_declarable(s)[0]


def _open_declarable(s: State) -> tuple[list[Action], list[tuple[int, int]]]:
    """:func:`_declarable` with no attack open (every enemy-held hex not attacked yet is a candidate), with the
    (unit, target) of each action beside it."""
    b = s.board
    r = s.rules
    a = s.active
    only = r.effects.attackers.get((s.turn, a))  # only-types-attack effects (None: no such limit now)
    side, attacked, retreated, occupants = b.unit_side, s.attacked, s.retreated, s.occupants
    out: list[Action] = []
    pairs: list[tuple[int, int]] = []
    # (Sets here, not masks: a spread of the side's hexes and a loop over the bits of the targets cost more than
    # these few set operations; see docs/PERFORMANCE.md.)
    mine = s.count[a]
    declares_on, nbrs = r.actions.declares_on, b.neighbours
    for t in sorted(s.held[1 - a] - s.attacked_hexes):
        on_target = declares_on[t]
        for n in nbrs[t]:
            if mine[n]:
                for u in occupants[n]:
                    if side[u] == a and not attacked[u] and not retreated[u] and (only is None or u in only):
                        out.append(on_target[u])
                        pairs.append((u, t))
    return out, pairs


def _may_join(s: State, r: _Rules, u: int, t: int, attackers: Sequence[int]) -> bool:
    """Whether ``u`` may join an attack by ``attackers`` on ``t``, a target trusted to be legal (as
    :func:`_declarable`, for one unit)."""
    b = s.board
    h = s.pos[u]
    if h < 0 or b.unit_side[u] != s.active or h not in r.adjacent[t]:
        return False
    if s.attacked[u] or s.retreated[u] or u in attackers:
        return False
    only = r.effects.attackers.get((s.turn, s.active))  # only-types-attack effects (None: no limit now)
    if only is not None and u not in only:
        return False
    pos = s.pos
    return not attackers or list(map(pos.__getitem__, attackers)).count(h) < r.max_per_hexside


def _openings(s: State) -> list[Action]:
    """:func:`_declarable` with no attack open (the ways to open one), kept in ``state.scratch`` with the combat
    phase's state it was computed in: the turn, the phase, how many hexes have been attacked in it and the hexes
    the enemy held.  Within a combat phase only a resolved attack changes what may open one, and each adds its
    target to ``attacked_hexes``; the openings after it are those before it less what it ruled out
    (:func:`_after_attack`).  :func:`_has_choice` asks first, :func:`legal_actions` reuses the list
    (tests/test_engine_incremental.py checks it against a fresh :func:`_declarable` all through random games)."""
    return _kept_openings(s)[1]


def _kept_openings(s: State) -> tuple[tuple[int, int, int], list[Action], int, list[tuple[int, int]]]:
    """:func:`_openings` as kept: (turn, phase, hexes attacked), the actions, the enemy's hexes (a mask) and each
    action's (unit, target)."""
    got = s.scratch.get("openings")
    n = len(s.attacked_hexes)
    if got is None or got[0][2] != n or got[0][1] != s.step or got[0][0] != s.turn:
        enemy = s.held_mask[1 - s.active]
        if got is not None and got[0][1] == s.step and got[0][0] == s.turn and not enemy & ~got[2]:
            openings, pairs = _after_attack(s, got[1], got[3])
        else:
            openings, pairs = _open_declarable(s)
        got = s.scratch["openings"] = ((s.turn, s.step, n), openings, enemy, pairs)
    return got


def _after_attack(
    s: State, before: list[Action], pairs: list[tuple[int, int]]
) -> tuple[list[Action], list[tuple[int, int]]]:
    """The openings of a combat phase once an attack has been resolved, from the openings ``before`` it (with
    their (unit, target) ``pairs``), when the enemy holds no hex it did not hold then.

    An attack changes what may open one in three ways: its attackers have attacked (and in pool combat may be
    destroyed), its target has been attacked, and its defenders' losses and retreats change the hexes the enemy
    holds.  Each only removes openings, except a retreat into a hex the enemy did not hold (a new target), which
    the caller computes afresh.  Nothing else changes in a combat phase: the side's own units stay where they
    are, and their markers change only by attacking (a unit destroyed attacking has attacked too).  So the
    openings are those before less the ones whose unit has attacked or whose target is no longer an enemy-held
    hex not attacked yet, in the same order.
    """
    attacked, held, attacked_hexes = s.attacked, s.held[1 - s.active], s.attacked_hexes
    out: list[Action] = []
    kept: list[tuple[int, int]] = []
    for x, p in zip(before, pairs, strict=True):
        u, t = p
        if not attacked[u] and t in held and t not in attacked_hexes:
            out.append(x)
            kept.append(p)
    return out, kept


def _flip_choices(s: State, attackers: Sequence[int], target: int) -> list[int]:
    """Units that may be flipped for an all-out attack: full two-step attackers, those of the first type of
    ``combat.crt.all_out.flip_first`` that has one if any does."""
    b = s.board
    r = s.rules
    pool = r.pool
    if pool is not None:  # a dice pool's all-out attack: the named unit pays its cost first
        return sorted(attackers) if pool.all_out != (0, 0) else []
    if _crowded(s, target):
        return []  # a crowded target gives the all-out result anyway: flipping would only cost a step
    chosen: list[int] = []
    best = len(r.flip_first)
    max_steps, steps, rank = b.max_steps, s.steps, r.flip_rank
    for u in attackers:  # (loops, not comprehensions: this runs at every decision of an attack)
        if max_steps[u] == 2 and steps[u] == 2:
            k = rank[u]
            if k < best:
                best = k
                chosen = [u]
            elif k == best:
                chosen.append(u)
    return chosen


def _crowded(s: State, h: int) -> bool:
    """Whether hex ``h`` holds enough unretreated units to take the all-out result (combat.crt.all_out)."""
    occupants = s.occupants[h]
    crowded = s.rules.crowded
    if len(occupants) < crowded:
        return False
    retreated = s.retreated
    return len(occupants) - sum(map(retreated.__getitem__, occupants)) >= crowded


@dataclass(frozen=True)
class AttackPreview:
    """An attack as it would be resolved: strengths, columns, shifts and the exact hit distributions."""

    attack: Fraction | int
    defense: Fraction | int
    defenders: tuple[str, ...]
    base_column: str
    shifts: tuple[str, ...]
    net_shift: int
    column: str
    column_index: int
    overconcentrated: bool
    normal: dict[int, Fraction]
    """Hits distribution of a normal attack (the all-out one when overconcentrated)."""
    all_out: dict[int, Fraction]


def _base_odds(
    r: _Rules, att_in: list[tuple[int, str]], def_in: list[tuple[int, str]], terrain: frozenset[str]
) -> tuple[Fraction | int, Fraction | int, int]:
    """Attack and defence totals (strength modifiers such as tank multipliers, through
    :mod:`forge.rules.combat`) and the odds column before shifts, memoised: the inputs are a few small numbers
    that recur all game.

    When every modifier is a per-unit multiplier (no stack bonuses), a side's total is the sum of its units'
    values, and each unit's value is memoised on its own; otherwise the whole line-up is the key.
    """
    if r.per_unit_modifiers:
        memo = r.memo
        att: Fraction | int = 0
        for x, t in att_in:
            v = memo.get((x, t, terrain, True))
            att += v if v is not None else _unit_value(r, x, t, terrain, True)
        dfn: Fraction | int = 0
        for x, t in def_in:
            v = memo.get((x, t, terrain, False))
            dfn += v if v is not None else _unit_value(r, x, t, terrain, False)
    else:
        att_key, def_key = tuple(sorted(att_in)), tuple(sorted(def_in))
        key = (att_key, def_key, terrain)
        got = r.memo.get(key)
        if got is None:
            a = combat.attack_strength(
                [combat.Fighter(x, t) for x, t in att_key], r.modifiers, defender_terrain=terrain
            ).total
            d = combat.defense_strength(
                [combat.Fighter(x, t) for x, t in def_key], r.modifiers, defender_terrain=terrain
            ).total
            assert a is not None
            assert d is not None
            got = r.memo[key] = (_whole(a), _whole(d))
        att, dfn = got
    return att, dfn, _column(r, att, dfn)


def _column(r: _Rules, att: Fraction | int, dfn: Fraction | int) -> int:
    """The odds CRT's column for these totals, remembered per pair."""
    ckey = ("column", att, dfn)
    col = r.memo.get(ckey)
    if col is None:
        pick = combat.column_for_odds(r.odds_crt, att, dfn)
        assert pick.index is not None
        col = r.memo[ckey] = pick.index
    return col


def _whole(x: Fraction) -> Fraction | int:
    return int(x) if x.denominator == 1 else x


def _unit_value(r: _Rules, strength: int, unit_type: str, terrain: frozenset[str], attacking: bool) -> Fraction | int:
    key = (strength, unit_type, terrain, attacking)
    v = r.memo.get(key)
    if v is None:
        fighter = [combat.Fighter(strength, unit_type)]
        total = (
            combat.attack_strength(fighter, r.modifiers, defender_terrain=terrain)
            if attacking
            else combat.defense_strength(fighter, r.modifiers, defender_terrain=terrain)
        ).total
        assert total is not None
        v = r.memo[key] = _whole(total)
    return v


def _odds(
    s: State, target: int, attackers: Sequence[int]
) -> tuple[Fraction | int, Fraction | int, list[int], int, tuple[str, ...], int, int, bool]:
    """attack, defence, counted defenders, base column, ids of the shifts applied, final column, net shift,
    overconcentrated."""
    b = s.board
    r = s.rules
    a = s.active
    steps, strength, maxs, tv = s.steps, s.strength, b.max_steps, r.type_value
    retreated, oos, pos = s.retreated, s.oos, s.pos
    # The facts conditions read, as counts of unit codes (see _Rules.fact_needs), summed into the memo key of the
    # shifts that apply; each unit's part of the counts is in a table.  (plain loops, not comprehensions: this runs
    # at every attack)
    dbits, abits, cross = r.defender_bits, r.attacker_bits, r.key_crossing
    defenders: list[int] = []
    dk = 0
    for u in s.occupants[target]:
        if not retreated[u]:
            defenders.append(u)
            dk += dbits[u][oos[u]]
    # the strongest units defend, up to the side's limit
    limit = r.max_defenders[1 - a]
    counted = defenders
    if len(defenders) > limit:
        dfs = {u: strength[u][maxs[u] - steps[u]][1] if steps[u] > 0 else 0 for u in defenders}
        counted = sorted(defenders, key=lambda u: (-dfs[u], u))[:limit]
    def_in: list[tuple[int, str]] = []
    for u in counted:
        def_in.append((strength[u][maxs[u] - steps[u]][1] if steps[u] > 0 else 0, tv[u]))
    att_in: list[tuple[int, str]] = []
    ak = 0
    for u in attackers:
        att_in.append((strength[u][maxs[u] - steps[u]][0], tv[u]))
        ak += abits[u][oos[u]][cross.get((pos[u], target), 0)] if cross else abits[u][oos[u]][0]
    weather, step, terrain = r.key_reads
    fkey = (
        s.weather if weather else None,
        s.step if step else a,
        r.hex_class[target] if terrain else 0,
        ak,
        dk,
    )
    if r.cond_modifiers:
        att, dfn, base = _base_odds_in(s, target, attackers, counted, defenders, att_in, def_in, fkey)
    else:
        att, dfn, base = _base_odds(r, att_in, def_in, r.combat_terrain[target])
    over = len(defenders) >= r.crowded
    picked = r.picks.get(fkey)
    if picked is None:
        picked = r.picks[fkey] = _pick_shifts(s, target, attackers, defenders, fkey)
    if not picked:
        return att, dfn, counted, base, (), base, 0, over
    holding = r.effects.caps_holding
    if holding:
        in_force: tuple[bool, ...] = tuple([_holds(s, x[0], x[1], x[2], target, attackers) for x in holding])
    else:
        in_force = ()
    # The net shift does not depend on the base column (combat.apply_shifts sums the shifts and applies the caps
    # before it moves the column, then clamps once at the table's ends), and the turn matters only through the
    # caps limited to turns: one memo entry per set of shifts, caps in force, caps of the turn and side serves every
    # base column and every turn with those caps.
    turn_caps = r.turn_caps.get(s.turn)
    if turn_caps is None:
        turn_caps = r.turn_caps[s.turn] = tuple(i for i, c in enumerate(r.caps) if c.turns is None or s.turn in c.turns)
    key = ("shift", picked, in_force, turn_caps, a)
    got = r.memo.get(key)
    if got is None:
        aside = r.effects.caps_set_aside(in_force)
        caps = [cap for i, cap in enumerate(r.caps) if i not in aside]
        shifts = [r.shifts[i] for i in picked]
        res = combat.apply_shifts(r.odds_crt.columns, 0, shifts, caps, turn=s.turn, side=b.sides[a], role="attacking")
        got = r.memo[key] = (res.net, tuple(sh.id for sh in shifts))
    net = got[0]
    final = base + net
    if final < 0:  # past an end of the table: clamped to it (the engine's odds CRTs give no result off the ends)
        final = 0
    elif final >= r.n_columns:
        final = r.n_columns - 1
    return att, dfn, counted, base, got[1], final, net, over


def _pick_shifts(
    s: State, target: int, attackers: Sequence[int], defenders: Sequence[int], fkey: tuple[Any, ...]
) -> tuple[int, ...]:
    """The indices of the shifts whose conditions hold in an attack (:func:`forge.rules.kit.conditions.holds` on
    :func:`_situation`), each verdict memoised on the parts of the facts key ``fkey`` its condition reads
    (:attr:`_Rules.shift_reads`), so that a new combination of facts costs only the conditions it changes."""
    r = s.rules
    memo = r.memo
    sit: _kc.Situation | None = None
    out = []
    for i, reads in enumerate(r.shift_reads):
        key = ("verdict", i, *[fkey[j] for j in reads])
        v = memo.get(key)
        if v is None:
            if sit is None:
                sit = _situation(s, target, attackers, defenders)
            v = memo[key] = _kc.holds(r.shift_conds[i], sit, ident=r.shifts[i].id).value is True
        if v:
            out.append(i)
    return tuple(out)


def _situation(s: State, target: int, attackers: Sequence[int], defenders: Sequence[int]) -> _kc.Situation:
    """The facts of an attack that conditions read (:mod:`forge.rules.kit.conditions`): the weather, the phase, the
    sides, the target's combat terrain and the terrain shifts it gives, and each unit's side, type, mobility class,
    supply (its out-of-supply marker) and, for attackers, the hexside features between it and the target."""
    r = s.rules
    sides = s.board.sides
    a = s.active

    def facts(u: int, across: frozenset[str]) -> _kc.UnitFacts:
        side, unit_type, mobility = r.unit_facts[u]
        return _kc.UnitFacts(side, unit_type, mobility, not s.oos[u], across)

    none: frozenset[str] = frozenset()
    return _kc.Situation(
        weather=s.weather,
        phase=r.phase_names[s.step],
        attacker_side=sides[a],
        defender_side=sides[1 - a],
        defender_terrain=r.combat_terrain[target],
        attackers=tuple(facts(u, r.crossings[r.crossing.get((s.pos[u], target), 0)]) for u in attackers),
        defenders=tuple(facts(u, none) for u in defenders),
        terrain_shifts=r.terrain_owned[target],
        declared=none,
    )


def _base_odds_in(
    s: State,
    target: int,
    attackers: Sequence[int],
    counted: Sequence[int],
    defenders: Sequence[int],
    att_in: list[tuple[int, str]],
    def_in: list[tuple[int, str]],
    fkey: tuple[Any, ...],
) -> tuple[Fraction | int, Fraction | int, int]:
    """:func:`_base_odds` when some strength modifier has a condition: the totals through
    :func:`forge.rules.combat.combat_strength` with the facts of the attack (:func:`_situation`), memoised on the
    strengths and those facts."""
    r = s.rules
    oos, pos, fc, crossing = s.oos, s.pos, r.fact_class, r.crossing
    a_facts = [(fc[u], oos[u], crossing.get((pos[u], target), 0)) for u in attackers]
    d_facts = [(fc[u], oos[u]) for u in counted]
    key = (
        "conditioned",
        fkey,
        tuple(sorted(zip(att_in, a_facts, strict=True))),
        tuple(sorted(zip(def_in, d_facts, strict=True))),
    )
    got = r.memo.get(key)
    if got is None:
        sit = _situation(s, target, attackers, defenders)
        assert sit.attackers is not None
        assert sit.defenders is not None
        dfacts = dict(zip(defenders, sit.defenders, strict=True))
        terrain = r.combat_terrain[target]
        fa = [combat.Fighter(v, t, facts=f) for (v, t), f in zip(att_in, sit.attackers, strict=True)]
        fd = [combat.Fighter(v, t, facts=dfacts[u]) for (v, t), u in zip(def_in, counted, strict=True)]
        at = combat.combat_strength(fa, r.modifiers, role="attacker", defender_terrain=terrain, situation=sit).total
        dt = combat.combat_strength(fd, r.modifiers, role="defender", defender_terrain=terrain, situation=sit).total
        assert at is not None, "problems() admits only conditions a position decides"
        assert dt is not None, "problems() admits only conditions a position decides"
        got = r.memo[key] = (_whole(at), _whole(dt))
    att, dfn = got
    return att, dfn, _column(r, att, dfn)


def _evaluate(s: State, target: int, attackers: Sequence[int]) -> AttackPreview:
    b = s.board
    r = s.rules
    att, dfn, counted, base, shifts, final, net, over = _odds(s, target, attackers)
    allout = combat.distribution(r.odds_crt, final, attack="all-out")
    normal = allout if over else combat.distribution(r.odds_crt, final, attack="normal")
    return AttackPreview(
        attack=att,
        defense=dfn,
        defenders=tuple(b.unit_ids[u] for u in counted),
        base_column=r.odds_crt.columns[base],
        shifts=shifts,
        net_shift=net,
        column=r.odds_crt.columns[final],
        column_index=final,
        overconcentrated=over,
        normal=normal,
        all_out=allout,
    )


def _holds(
    s: State, side: int, held: frozenset[int], where: frozenset[int], target: int, attackers: Sequence[int]
) -> bool:
    """Whether a caps-while-holding effect's caps are in force for this attack: its side holds one of the ``held``
    hexes, and its units attack from, or defend in, the ``where`` hexes.  (The data's caps apply by turn and side
    as well: combat.apply_shifts checks those.)"""
    count = s.count[side]
    for h in held:  # (loops, not any() over generators or maps: this runs at every attack, over a few hexes)
        if count[h]:
            break
    else:
        return False
    if s.active == side:
        pos = s.pos
        for u in attackers:
            if pos[u] in where:
                break
        else:
            return False
        return True
    return target in where


def preview_attack(state: State, target: str, attackers: Sequence[str]) -> AttackPreview:
    """What an attack by ``attackers`` on ``target`` would be, without changing anything (legality not
    checked).  Odds CRTs only: dice-pool combat has no columns (:func:`forge.rules.dicepool.hit_difference` gives
    its exact outcomes)."""
    b = state.board
    if state.rules.pool is not None:
        raise ValueError("preview_attack reads an odds CRT; this game's combat is a dice pool")
    return _evaluate(state, b.hex(target), [b.unit(x) for x in attackers])


def _resolve(s: State, flip: int | None, dice: DiceSource) -> None:
    b = s.board
    r = s.rules
    if r.pool is not None:
        _resolve_pool(s, r.pool, flip, dice)
        return
    t = s.attack_target
    attackers = s.attackers
    att, dfn, counted, base, shifts, final, net, over = _odds(s, t, attackers)
    die = dice.roll()
    if die not in r.hits:
        raise ValueError(f"a die roll of {die} is not on the CRT ({', '.join(r.odds_crt.rows)})")
    if flip is not None:  # the all-out attack costs the flipped unit a step, whatever the roll
        s._set_steps(flip, s.steps[flip] - 1)
    hits = r.hits[die][final][1 if (flip is not None or over) else 0]
    for u in attackers:
        s.attacked[u] = True
    s.attacked_hexes.add(t)
    s.last_combat = rec = CombatRecord(
        b,
        t,
        tuple(attackers),
        tuple(counted),
        att,
        dfn,
        base,
        shifts,
        net,
        final,
        flip,
        over,
        die,
        hits,
    )
    if s.log is not None:
        s._note(str(rec))
    s.attack_target = -1
    s.attackers = []
    if hits <= 0:
        return
    s.hit_hexes.add(t)
    steps, retreated = s.steps, s.retreated
    defending = 0  # the defenders' steps
    for u in s.occupants[t]:
        if not retreated[u]:
            defending += steps[u]
    if hits > defending:
        for u in list(s.occupants[t]):  # more hits than steps: the whole hex is eliminated, retreated units included
            _eliminate(s, u)
        return
    d = 1 - s.active
    s.hits = PendingHits(t, hits, hits, d == r.mandatory_side and hits >= r.mandatory_min_hits)
    s.to_act = d


def _pool_strength(s: State, u: int, target: int, role: Literal["attacker", "defender"]) -> int:
    """A unit's modified strength in dice-pool combat: every applicable multiplier, rounded once.  A modifier's
    condition reads the facts of the attack (:func:`_situation`) with this unit as the whole of its side."""
    r = s.rules
    attacking = role == "attacker"
    across = r.crossing.get((s.pos[u], target), 0) if attacking else 0
    base = s.unit_strength(u, attack=attacking)
    key = ("pool", base, r.fact_class[u], s.oos[u], across, r.hex_class[target], role, s.weather, s.step)
    got = r.memo.get(key)
    if got is None:
        assert r.pool is not None
        sit = _situation(s, target, [u] if attacking else [], [] if attacking else [u])
        group = sit.attackers if attacking else sit.defenders
        assert group is not None
        total = combat.combat_strength(
            [combat.Fighter(base, r.type_value[u], facts=group[0])],
            r.modifiers,
            role=role,
            defender_terrain=r.combat_terrain[target],
            rounding=r.pool.rounding,
            situation=sit,
        ).total
        assert total is not None
        got = r.memo[key] = int(total)
    return int(got)


def _pool_hits(strength: int, pool: dicepool.Pool, dice: DiceSource) -> int:
    """One unit's hits: a sure hit per full ``automatic_hit_every``, a roll for the remainder."""
    every = pool.automatic_hit_every
    sure, rest = divmod(strength, every) if every else (0, strength)
    if rest <= 0:
        return sure
    if rest >= pool.die:
        return sure + 1
    return sure + (1 if dice.roll() <= rest else 0)


def _resolve_pool(s: State, pool: dicepool.Pool, flip: int | None, dice: DiceSource) -> None:
    """Dice-pool combat: each attacker and each counted defender rolls; the side with fewer
    hits loses the difference; an all-out attack and a crowded target add their losses.  Reading: the attacker's
    losses are spread by the engine, always from the unit with most steps left (the named all-out unit first
    among equals), so every unit is down to one before any is destroyed; the defender absorbs its own as hits,
    one step at a time, and may retreat to absorb up to ``rules.retreat.loss_reduction_max`` of the last of them.
    """
    b = s.board
    r = s.rules
    t = s.attack_target
    attackers = list(s.attackers)
    d = 1 - s.active
    defenders = [u for u in s.occupants[t] if not s.retreated[u]]
    limit = r.max_defenders[d]
    dstr = {u: _pool_strength(s, u, t, "defender") for u in defenders}
    counted = sorted(defenders, key=lambda u: (-dstr[u], u))[:limit]
    att_hits = sum(_pool_hits(_pool_strength(s, u, t, "attacker"), pool, dice) for u in attackers)
    def_hits = sum(_pool_hits(dstr[u], pool, dice) for u in counted)
    a_loss, d_loss = dicepool.combat_losses(
        att_hits - def_hits, pool, all_out=flip is not None, units_in_target=len(s.occupants[t])
    )
    for u in attackers:
        s.attacked[u] = True
    s.attacked_hexes.add(t)
    s.last_combat = rec = CombatRecord(
        b, t, tuple(attackers), tuple(counted), att_hits, def_hits, -1, (), 0, -1, flip, False, 0, d_loss
    )
    rec.attacker_losses = a_loss
    if s.log is not None:
        s._note(str(rec))
    s.attack_target = -1
    s.attackers = []
    order = ([flip] if flip is not None else []) + [u for u in attackers if u != flip]
    for _ in range(a_loss):
        alive = [u for u in order if s.steps[u] > 0 and s.pos[u] >= 0]
        if not alive:
            break
        u = max(alive, key=lambda x: (s.steps[x], -order.index(x)))
        s._set_steps(u, s.steps[u] - 1)
        if s.steps[u] <= 0:
            _eliminate(s, u)
    if d_loss <= 0:
        return
    s.hit_hexes.add(t)
    if d_loss > sum(s.steps[u] for u in defenders):
        for u in list(s.occupants[t]):  # losses beyond the defenders' strength destroy the square
            _eliminate(s, u)
        return
    s.hits = PendingHits(t, d_loss, d_loss, False)
    s.to_act = d


def _retreat_hexes(s: State, h: int, side: int, unit: int = -1) -> list[int]:
    """Where units of ``side`` in ``h`` may retreat: rules.retreat through the kit (its limits by turn included),
    minus the hexes no-entry effects close to the side and hexes a unit could not stack in (rules.stacking)."""
    b = s.board
    r = s.rules
    ban = _banned(r, s.turn, side)
    nb = b.neighbours
    first = [n for n in nb[h] if n not in ban and (unit < 0 or (n not in r.no_entry[unit] and _stack_ok(s, unit, n)))]

    def neighbours(x: int) -> Sequence[int]:
        return first if x == h else nb[x]

    return _kr.retreat_hexes(
        r.retreat,
        h,
        b.sides[side],
        neighbours,
        friendly=s.held[side],
        enemy=s.held[1 - side],
        own_sources=r.sources[side],
        enemy_sources=r.sources[1 - side],
        hit=s.hit_hexes,
        turn=s.turn,
        during=b.sides[s.active],
    )


def _may_end_in(s: State, u: int, h: int) -> bool:
    """Whether unit ``u`` may end a move or retreat in ``h``: terrain it may enter, a stack it may join."""
    return h not in s.rules.no_entry[u] and _stack_ok(s, u, h)


def _stack_ok(s: State, u: int, h: int) -> bool:
    """Whether unit ``u`` may join the units of its side in ``h`` (rules.stacking; True when there is no limit, or
    when the data cannot tell)."""
    r = s.rules
    if r.stacking is None:
        return True
    units = s.board.units
    stack = [(units[v], s.steps[v]) for v in s.occupants[h] if v != u] + [(units[u], s.steps[u])]
    return _ks.legal(r.stacking, stack) is not False


def _hit_actions(s: State) -> list[Action]:
    """The ways to absorb the next hit (a step loss or a retreat).  Kept in ``state.scratch`` for the pending hits
    they were computed for, with the retreat hexes of the defending side when they were needed, until
    :func:`_apply_hit` changes the state (legal_actions and apply's check both ask)."""
    ph = s.hits
    assert ph is not None
    got = s.scratch.get("hit actions")
    if got is None or got[0] is not ph:
        got = s.scratch["hit actions"] = (ph, *_compute_hit_actions(s, ph))
    actions: list[Action] = got[1]
    return actions


def _compute_hit_actions(s: State, ph: PendingHits) -> tuple[list[Action], list[int] | None]:
    """The actions, and the defending side's retreat hexes (None when they were not needed)."""
    b = s.board
    cache = _cache(b)
    units = sorted(u for u in s.occupants[ph.hex] if not s.retreated[u])
    out: list[Action] = []
    r = s.rules
    if ph.destinations is not None:
        for u in units:
            out.extend(cache.retreat(u, d) for d in ph.destinations if _may_end_in(s, u, d))
        return out, None
    known = _retreat_hexes(s, ph.hex, b.unit_side[units[0]]) if ph.remaining <= r.retreat_absorbs and units else None
    dests = known or []
    alike = r.stacking is None and not r.any_no_entry
    per_unit = {u: dests if alike else _retreat_hexes(s, ph.hex, b.unit_side[u], u) for u in units}
    if not (dests and ph.mandatory_retreat):
        two = [u for u in units if s.steps[u] >= 2]
        out.extend(map(cache.loses.__getitem__, two or units))
    for u in units:
        out.extend(map(cache.retreats[u].__getitem__, per_unit[u]))
    return out, known


def _finish_hits(s: State) -> None:
    ph = s.hits
    assert ph is not None
    occ = s.occupants[ph.hex]
    if occ and all(s.retreated[u] for u in occ):
        for u in list(occ):  # retreated units left alone in the hex are eliminated
            _eliminate(s, u)
    s.hits = None
    s.to_act = s.active


# =============================================================================================== movement
def _movers(s: State) -> list[int]:
    """Units of the side to move that may still move: on the map, not moved, not retreated, and allowed by the
    only-types-move effects (and their cap on how many units move) and not held by a freeze effect."""
    r = s.rules
    a = s.active
    pos, moved, retreated = s.pos, s.moved, s.retreated
    units = [u for u in r.side_units[a] if pos[u] >= 0 and not moved[u] and not retreated[u]]
    ef = r.effects
    limit = ef.movers.get((s.turn, a))
    if limit is not None:
        allowed, most = limit
        if most is not None and sum(map(moved.__getitem__, r.side_units[a])) >= most:
            return []
        if allowed is not None:
            units = [u for u in units if u in allowed]
    for frozen, release in ef.freezes.get((s.turn, a), ()):
        if not s.tripped[release]:
            units = [u for u in units if pos[u] not in frozen]
    return units


def _routes(s: State, u: int) -> dict[int, list[int]]:
    """Destinations of ``u`` with the middle hexes of the two-hex routes to each (-1 for a one-hex move)."""
    b = s.board
    r = s.rules
    side = b.unit_side[u]
    theirs = s.count[1 - side]
    h = s.pos[u]
    ban = _banned(r, s.turn, side)
    others = _apart_from(s, u, side)
    out: dict[int, list[int]] = {}
    ne = r.no_entry[u]
    for n in b.neighbours[h]:
        if not theirs[n] and n not in ban and n not in others and n not in ne:
            out[n] = [-1]
    if r.two_hex[s.weather][u] and not s.oos[u]:  # the two-hex moves of fast units
        for n, m in r.routes[u][h]:
            ok = not theirs[n] and not theirs[m] and n not in ban and m not in ban and m not in others
            if ok and n not in ne and m not in ne:
                out.setdefault(m, []).append(n)
    return out


def _middles(s: State, u: int, to: int) -> list[int]:
    """The middle hexes of ``u``'s two-hex routes to ``to``, a legal destination not next to it: as
    ``_routes(s, u)[to]``, without the other destinations."""
    b = s.board
    r = s.rules
    side = b.unit_side[u]
    theirs = s.count[1 - side]
    ban = _banned(r, s.turn, side)
    if to in ban:
        return []
    others = _apart_from(s, u, side)
    ne = r.no_entry[u]
    if theirs[to] or to in others or to in ne:
        return []
    middles = r.middles[u][s.pos[u]].get(to, ())
    return [n for n in middles if not theirs[n] and n not in ban and n not in ne]


_NOTHING: tuple[frozenset[int], int] = (frozenset(), 0)


def _banned(r: _Rules, turn: int, side: int) -> frozenset[int]:
    """The hexes ``side``'s units may not enter on ``turn`` (no-entry effects)."""
    return r.effects.no_entry.get((turn, side), _NOTHING)[0]


def _apart_from(s: State, u: int, side: int) -> set[int] | tuple[()]:
    """Where the other units that must end apart from ``u`` stand (end-apart effects; empty when none)."""
    apart = s.rules.effects.apart.get((s.turn, side))
    if apart is None or u not in apart:
        return ()
    return {s.pos[v] for v in apart if v != u}


_Options = dict[int, tuple[Sequence[Action], Sequence[int]]]


class _StepMoves(dict[int, tuple[tuple[Move, ...], tuple[int, ...]]]):
    """One unit's one-hex moves by the mask of the hexes it may enter (filled on first use, at most one entry per
    subset of each hex's neighbours): mask -> (its Move actions, its hexes), in table order."""

    def __init__(self, moves: Sequence[Move]) -> None:
        super().__init__()
        self.moves = moves

    def __missing__(self, mask: int) -> tuple[tuple[Move, ...], tuple[int, ...]]:
        dests = HEXES[mask]
        got = self[mask] = (tuple(map(self.moves.__getitem__, dests)), dests)
        return got


_MovePhase = tuple[_Options, list[Action], list[int]]
"""What the side may do in a movement phase: (options, actions, owners).  ``options``: each unit that may move at
the start of the phase, with its Move actions and destinations; ``actions``: the legal actions now, in
:func:`legal_actions`' order (the moves of the units yet to move, then EndPhase unless an end-apart effect refuses it);
``owners``: the unit of each of those moves.

Enemy units stand still during a movement phase and a unit's destinations depend only on them, so this is
computed once per phase and kept in ``state.scratch``; a move cuts the unit out of ``actions`` and ``owners`` in
place (:func:`_without`; :meth:`State.copy` gives a copy its own two lists, the options are shared), and
on a turn where other units' moves matter (:attr:`~forge.rules.effects.Effects.interacting_turns`) or with
stacking limits it is computed again.
"""


def _move_phase(s: State) -> _MovePhase:
    """The movement phase's options and actions now, kept in ``state.scratch`` (see :data:`_MovePhase`)."""
    got: _MovePhase | None = s.scratch.get("options")
    if got is None:
        options = _compute_move_options(s)
        actions: list[Action] = []
        owners: list[int] = []
        for u, (moves, _) in options.items():
            actions.extend(moves)
            owners += [u] * len(moves)
        if not _end_blocked(s, options):
            actions.append(_END)
        got = s.scratch["options"] = (options, actions, owners)
    return got


def _without(kept: _MovePhase, u: int) -> None:
    """Cut ``u``'s moves out of the kept movement phase's actions and owners (they are consecutive), in place:
    the lists belong to this State (:meth:`State.copy` gives a copy its own)."""
    options, actions, owners = kept
    n = len(options[u][0])
    if n:
        i = owners.index(u)
        del actions[i : i + n]
        del owners[i : i + n]


def _move_options(s: State) -> _Options:
    """Each unit of the side to move that may move now, with its Move actions and destinations (the phase's
    options, :func:`_move_phase`, without the units that have moved since)."""
    moved = s.moved
    return {u: option for u, option in _move_phase(s)[0].items() if not moved[u]}


def _compute_move_options(s: State) -> _Options:
    r = s.rules
    movers = _movers(s)
    out: _Options = {}
    if not movers:
        return out
    moves = r.actions.moves
    if (s.turn, s.active) in r.effects.apart:
        for u in movers:
            dests = tuple(h for h in _routes(s, u) if r.stacking is None or _stack_ok(s, u, h))
            out[u] = (tuple(moves[u][h] for h in dests), dests)
        return out
    # As _routes, for every unit at once, with hex sets as bit masks: hexes without enemy units (and not closed
    # by a no-entry effect) are open; a unit enters the open hexes next to it that its terrain allows (``steps``),
    # and a fast unit the ends of its two-hex routes through those.
    a = s.active
    open_ = ~s.held_mask[1 - a] & ~r.effects.no_entry.get((s.turn, a), _NOTHING)[1]
    two_hex = r.two_hex[s.weather]
    pos, oos = s.pos, s.oos
    steps, far_ends = r.step_masks, r.far_ends
    step_moves = r.step_moves
    stacking = r.stacking is not None
    for u in movers:
        h = pos[u]
        one = steps[u][h] & open_
        if two_hex[u] and not oos[u]:  # the ends of the open routes not reached in one hex, in route order
            dests = near = HEXES[one]  # ascending: the table order
            ends = far_ends[u][h]  # middle -> the ends of the routes through it
            free = open_ & ~one  # open and not reached yet
            for n in near:  # each end once, where its first open route puts it
                new = ends.get(n, 0) & free
                if new:
                    dests += HEXES[new]
                    free &= ~new
            out[u] = (tuple(map(moves[u].__getitem__, dests)), dests)
        else:
            out[u] = step_moves[u][one]
        if stacking:  # stacking limits bind where a move ends
            kept = [x for x in out[u][1] if _stack_ok(s, u, x)]
            out[u] = (tuple(map(moves[u].__getitem__, kept)), tuple(kept))
    return out


def _end_blocked(s: State, options: _Options) -> bool:
    """End-apart effects: the units they name end their moves in different hexes; ending is refused while two
    share a hex and one of them could still move (``options``: the units that may)."""
    apart = s.rules.effects.apart.get((s.turn, s.active))
    if apart is None:
        return False
    by_hex: dict[int, list[int]] = {}
    for u in apart:
        if s.pos[u] >= 0:
            by_hex.setdefault(s.pos[u], []).append(u)
    return any(len(us) > 1 and any(options.get(u, ((), []))[1] for u in us) for us in by_hex.values())


def _end_movement_blocked(s: State) -> bool:
    """:func:`_end_blocked` now."""
    actions = _move_phase(s)[1]
    return not actions or actions[-1] is not _END


def _breakout_candidates(s: State) -> list[tuple[int, int]]:
    """A breakout effect: (unit, refuges) for unsupplied, unmoved, unretreated units with a refuge (a hex holding
    a supplied friendly unit) within the effect's radius."""
    r = s.rules
    within = r.effects.breakout[s.turn][1]
    pos, oos = s.pos, s.oos
    units = [u for u in r.side_units[s.active] if pos[u] >= 0]
    supplied_at = {pos[u] for u in units if not oos[u]}
    out = []
    for u in units:
        if oos[u] and not s.moved[u] and not s.retreated[u]:
            n = sum(1 for h in within[pos[u]] if h in supplied_at)
            if n:
                out.append((u, n))
    return out


# ================================================================================================ phases
def _enter_phase(s: State, dice: DiceSource) -> None:
    """Do the automatic part of the phase the state has just reached."""
    kind = s.board.sequence[s.step][0]
    a = s.active
    b = s.board
    r = s.rules
    s.scratch.pop("options", None)
    if a >= 0:
        s.to_act = a
    if kind is _SUPPLY:
        does = b.phase_activities[s.step]
        if not does or "supply" in does:
            _judge_supply(s, a)
        if not does or "reinforcement" in does:
            _reinforce(s, a)
        s.rebuild_open = (s.turn, a) in r.effects.rebuild
    elif kind is _COMBAT:
        s.attacked_hexes.clear()
        attacked = s.attacked
        for u in r.side_units[a]:
            attacked[u] = False
    elif kind is _MOVEMENT:
        s.moved[:] = [False] * len(b.units)
        s.breakout_open = False
    elif kind is _RECOVERY:
        pos, retreated = s.pos, s.retreated
        for u in r.side_units[a]:  # the side's retreated units recover
            if pos[u] >= 0:
                retreated[u] = False
    elif kind is _HOUSEKEEPING:
        # A housekeeping phase that closes the turn ends the game on the last turn; elsewhere (a ground phase
        # that opens the player turn) it only rolls the weather.
        if s.turn >= b.last_turn and s.step == len(b.sequence) - 1:
            _end_game(s)
        elif s.weather == r.initial_weather and s.turn in r.roll_turns and r.weather_table:
            # The weather roll.  Reading: rolls stop once the weather has changed (a book may say the new weather
            # lasts to the end, or leave it to the scenario); a result naming no weather state ("no mud") leaves
            # the weather as it is.
            die = dice.roll()
            if die not in r.weather_table:
                raise ValueError(f"a die roll of {die} is not on the weather table")
            if r.weather_table[die] in r.two_hex:
                s.weather = r.weather_table[die]
            s._note(f"mud roll {die}: {s.weather}")  # (the words of the recorded logs: tests/play_identity.py)


def _reinforce(s: State, side: int) -> None:
    """Place the side's units due this turn (an arrival-if-entered effect may keep one away for good)."""
    b = s.board
    theirs = s.count[1 - side]
    for u in s.rules.arrivals.get((s.turn, side), ()):
        unit = b.units[u]
        e = unit.entry
        if e is None or s.status[u] is not _PENDING:
            continue
        trigger = s.rules.effects.arrival.get(u)
        if trigger is not None and not s.tripped[trigger]:
            s._set_status(u, _WITHDRAWN)  # the condition never met, the unit never comes
            s._note(f"{unit.id} does not arrive ({e.rule or 'condition'})")
            continue
        if e.hex is not None and not theirs[b.hex(e.hex)] and _may_end_in(s, u, b.hex(e.hex)):
            _arrive(s, u, b.hex(e.hex))
            continue
        # The nearest friendly supply source that is vacant or friendly-held. Reading: with no entry hex in the
        # data every such source is equally near.
        cands = [h for h in b.sources[side] if not theirs[h] and _may_end_in(s, u, h)]
        if not cands:
            s._set_status(u, _LOST)
            s._note(f"{unit.id} lost: no friendly supply source to arrive in")
            continue
        if e.hex is not None:
            origin = b.grid.parse(e.hex)
            cells = list(b.grid.cells())
            dist = {h: b.grid.distance(origin, cells[h]) for h in cands}
            best = min(dist.values())
            cands = [h for h in cands if dist[h] == best]
        if len(cands) == 1:
            _arrive(s, u, cands[0])
        else:
            s.reinforcements.append((u, tuple(cands)))


def _arrive(s: State, u: int, h: int) -> None:
    s._set_status(u, _ON_MAP)
    s._set_steps(u, s.board.max_steps[u])
    s.oos[u] = s.retreated[u] = s.attacked[u] = s.moved[u] = False
    _enter_hex(s, u, h)
    if s.log is not None:
        s._note(f"{s.board.unit_ids[u]} arrives in {s.board.labels[h]}")


def _rebuild_candidates(s: State) -> list[int]:
    """Rebuild effects: reduced, supplied units of the side to act, of the sizes the effect names, on the map."""
    max_steps, steps, pos, oos = s.board.max_steps, s.steps, s.pos, s.oos
    rebuilt = s.rules.effects.rebuild.get((s.turn, s.active), frozenset())
    out = []
    for u in s.rules.side_units[s.active]:
        if pos[u] >= 0 and u in rebuilt and max_steps[u] >= 2 and steps[u] < max_steps[u] and not oos[u]:
            out.append(u)
    return out


def _has_choice(s: State) -> bool:
    kind = s.board.sequence[s.step][0]  # the game is not over: _run asks only then
    if kind is _MOVEMENT and not s.breakout_open:  # first: most decisions of a game are moves
        return bool((s.scratch.get("options") or _move_phase(s))[2])
    if kind is _SUPPLY:
        return bool(s.reinforcements) or (s.rebuild_open and bool(_rebuild_candidates(s)))
    if kind is _COMBAT:
        return s.hits is not None or s.attack_target >= 0 or bool(_kept_openings(s)[1])
    if kind is _MOVEMENT:
        return bool(_breakout_candidates(s))
    return False


def _close_phase(s: State, dice: DiceSource) -> None:
    """End the current phase (or open its last step) and enter the next one."""
    b = s.board
    r = s.rules
    kind = b.sequence[s.step][0]  # (State.phase without its game-over test: the game is not over here)
    if kind is _MOVEMENT and not s.breakout_open and s.turn in r.effects.breakout and _breakout_candidates(s):
        s.breakout_open = True
        return
    s.rebuild_open = s.breakout_open = False
    s.step += 1
    if s.step >= len(b.sequence):
        if s.turn >= b.last_turn:
            s.step = len(b.sequence) - 1  # the game ends in the last phase of the last turn
            s.active = b.sequence[s.step][1]
            if s.result is None:
                _end_game(s)
            return
        s.step = 0
        s.turn += 1
        s.hit_hexes.clear()
        if s.turn in r.fixed_weather:
            s.weather = r.fixed_weather[s.turn]
    s.active = b.sequence[s.step][1]  # (State.active goes with the step)
    _enter_phase(s, dice)


def _run(s: State, dice: DiceSource) -> None:
    while s.result is None and not _has_choice(s):
        _close_phase(s, dice)


def start(s: State) -> None:
    """Play a fresh State's opening automatic phases (called by :meth:`State.initial`)."""
    _enter_phase(s, _NoDice())
    _run(s, _NoDice())


def _end_game(s: State) -> None:
    """The end of the game: each side, the first side first, loses every unit that cannot trace supply (when the
    data's rules.supply.unsupplied_eliminated_at_end says so); then the score."""
    b = s.board
    gone: list[str] = []
    for side in range(len(b.sides) if s.rules.eliminate_unsupplied_at_end else 0):  # the first side first
        ok = _supplied_mask(s, side)
        for u in list(s.on_map(side)):
            if not ok >> s.pos[u] & 1:
                gone.append(b.unit_ids[u])
                _eliminate(s, u)
    vp = tuple(v + h for v, h in zip(s.vp, b.handicap, strict=True))
    best = max(vp)
    winners = [b.sides[i] for i, v in enumerate(vp) if v == best]
    s.result = GameResult(vp, winners[0] if len(winners) == 1 else None, tuple(gone))
    s._note(f"game over: {s.result}")


# ====================================================================================== legal actions, apply
class _ActionCache:
    """Action objects are values: each is built once per Board (tables by unit and hex) and reused."""

    def __init__(self, board: Board) -> None:
        units, labels = board.unit_ids, board.labels
        self.declares = [[Declare(u, h) for h in labels] for u in units]
        self.declares_on = [[row[h] for row in self.declares] for h in range(len(labels))]
        """:attr:`declares` by target hex, then unit (the same objects)."""
        self.moves = [[Move(u, h) for h in labels] for u in units]
        self.retreats = [[Retreat(u, h) for h in labels] for u in units]
        self.loses = [LoseStep(u) for u in units]
        self.resolves = [Resolve(u) for u in units]
        self.where: dict[int, tuple[int, int]] = {}
        """id() of each Declare, Move and Retreat above -> its (unit, hex) indices (they live as long as this)."""
        tables: tuple[Sequence[Sequence[Action]], ...] = (self.declares, self.moves, self.retreats)
        for table in tables:
            for u, row in enumerate(table):
                for h, action in enumerate(row):
                    self.where[id(action)] = (u, h)

    def indices(self, board: Board, action: Declare | Move | Retreat) -> tuple[int, int]:
        """(unit, hex) of an action; IllegalAction when it names no unit or hex of the game."""
        got = self.where.get(id(action))
        if got is not None:
            return got
        return _unit(board, action.unit), _hex(board, action.to if not isinstance(action, Declare) else action.target)

    def declare(self, u: int, t: int) -> Declare:
        return self.declares[u][t]

    def resolve(self, u: int) -> Resolve:
        return _RESOLVE if u < 0 else self.resolves[u]

    def lose(self, u: int) -> LoseStep:
        return self.loses[u]

    def retreat(self, u: int, h: int) -> Retreat:
        return self.retreats[u][h]

    def move(self, u: int, h: int) -> Move:
        return self.moves[u][h]


_END = EndPhase()
_RESOLVE = Resolve()


def _cache(board: Board) -> _ActionCache:
    return rules_of(board).actions


def legal_actions(state: State) -> list[Action]:
    """Every action the side to act may take now, in a fixed order (empty once the game is over)."""
    s = state
    if s.result is not None:
        return []
    b = s.board
    kind = b.sequence[s.step][0]
    if kind is _MOVEMENT and not s.breakout_open:  # first: most decisions of a game are moves
        return (s.scratch.get("options") or _move_phase(s))[1][:]
    out: list[Action] = []
    if kind is _SUPPLY:
        if s.reinforcements:
            for u, hexes in s.reinforcements:
                out.extend(Reinforce(b.unit_ids[u], b.labels[h]) for h in hexes)
            return out
        if s.rebuild_open:
            out.extend(Rebuild(b.unit_ids[u]) for u in _rebuild_candidates(s))
        out.append(_END)
        return out
    if kind is _COMBAT:
        if s.hits is not None:
            return _hit_actions(s)[:]
        if s.attack_target >= 0:
            out = _declarable(s)
            out.append(_RESOLVE)
            resolves = s.rules.actions.resolves
            out.extend(map(resolves.__getitem__, _flip_choices(s, s.attackers, s.attack_target)))
        else:
            out = _kept_openings(s)[1][:]
            out.append(_END)
        return out
    if kind is _MOVEMENT:  # the breakouts that end it (a breakout effect)
        out.extend(Breakout(b.unit_ids[u]) for u, _ in _breakout_candidates(s))
        out.append(_END)
        return out
    return out  # pragma: no cover - automatic phases never wait for a decision


def _unit(b: Board, unit_id: str) -> int:
    try:
        return b.unit(unit_id)
    except KeyError as e:
        raise IllegalAction(str(e)) from None


def _hex(b: Board, label: str) -> int:
    try:
        return b.hex(label)
    except KeyError as e:
        raise IllegalAction(str(e)) from None


def apply(state: State, action: Action, dice: DiceSource | None = None) -> State:
    """Apply ``action`` to ``state`` **in place** and play on to the next decision; returns ``state``.

    ``dice`` supplies every roll this needs (combat, breakout, the weather roll of the housekeeping phase that may
    follow); :class:`IllegalAction` when the action is not legal now (the state is then unchanged).
    """
    s = state
    if s.result is not None:
        raise IllegalAction("the game is over")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction(f"{action!r} is not an action of this engine")
    d: DiceSource = dice if dice is not None else _NoDice()
    if handler(s, action, d):
        _run(s, d)
    return s


def _illegal(action: Action, why: str) -> IllegalAction:
    return IllegalAction(f"{action}: {why}")


def _apply_end(s: State, action: Action, d: DiceSource) -> bool:
    kind = s.board.sequence[s.step][0]  # (apply() refuses a finished game)
    if kind is _SUPPLY and s.reinforcements:
        raise _illegal(action, "arriving units must be placed first")
    if kind is _COMBAT and (s.hits is not None or s.attack_target >= 0):
        raise _illegal(action, "finish the attack under way first")
    if kind is _MOVEMENT and not s.breakout_open and _end_movement_blocked(s):
        raise _illegal(action, "units that must end apart share a hex (an end-apart effect)")
    _close_phase(s, d)
    return True


def _check_target(s: State, action: Action, t: int) -> None:
    if not (s.count[1 - s.active][t] > 0 and t not in s.attacked_hexes):
        raise _illegal(action, "the target must be an enemy-held hex not attacked this phase")


def _apply_declare(s: State, action: Declare, d: DiceSource) -> bool:
    b = s.board
    if b.sequence[s.step][0] is not _COMBAT or s.hits is not None:
        raise _illegal(action, "attacks are declared in the combat phase, not while absorbing hits")
    actions = s.rules.actions
    u, t = actions.where.get(id(action)) or actions.indices(b, action)
    if s.attack_target < 0:
        _check_target(s, action, t)
    elif t != s.attack_target:
        raise _illegal(action, f"an attack on {b.labels[s.attack_target]} is being declared")
    if not _may_join(s, s.rules, u, t, s.attackers):
        raise _illegal(action, "that unit cannot join an attack on that hex now")
    s.attack_target = t
    s.attackers.append(u)
    return False  # a declared attack is always a decision point


def _apply_resolve(s: State, action: Resolve, d: DiceSource) -> bool:
    if s.board.sequence[s.step][0] is not _COMBAT or s.hits is not None or s.attack_target < 0:
        raise _illegal(action, "no attack is declared")
    flip = None if action.all_out is None else _unit(s.board, action.all_out)
    if flip is not None and flip not in _flip_choices(s, s.attackers, s.attack_target):
        raise _illegal(action, "an all-out attack flips a full-strength two-step attacker (a tank if one attacks)")
    _resolve(s, flip, d)
    return True


def _apply_attack(s: State, action: Attack, d: DiceSource) -> bool:
    b = s.board
    if s.phase is not _COMBAT or s.hits is not None or s.attack_target >= 0:
        raise _illegal(action, "not while another attack is open")
    t = _hex(b, action.target)
    _check_target(s, action, t)
    chosen: list[int] = []
    for x in action.attackers:
        u = _unit(b, x)
        if not _may_join(s, s.rules, u, t, chosen):
            raise _illegal(action, f"{x} cannot attack {action.target} now")
        chosen.append(u)
    if not chosen:
        raise _illegal(action, "an attack needs attackers")
    flip = None if action.all_out is None else _unit(b, action.all_out)
    if flip is not None and flip not in _flip_choices(s, chosen, t):
        raise _illegal(action, "not a unit that may be flipped for an all-out attack")
    s.attack_target, s.attackers = t, chosen
    _resolve(s, flip, d)
    return True


def _apply_hit(s: State, action: LoseStep | Retreat, d: DiceSource) -> bool:
    ph = s.hits
    if s.phase is not _COMBAT or ph is None:
        raise _illegal(action, "no hits to absorb")
    if action not in _hit_actions(s):
        raise _illegal(action, "not a legal way to absorb this hit")
    known: list[int] | None = s.scratch.pop("hit actions")[2]  # the state changes now
    b = s.board
    u = _unit(b, action.unit)
    if isinstance(action, LoseStep):
        s._set_steps(u, s.steps[u] - 1)
        if s.log is not None:
            s._note(f"{action.unit} loses a step")
        if s.steps[u] <= 0:
            _eliminate(s, u)
        ph.remaining -= 1
        if ph.remaining <= 0 or all(s.retreated[x] for x in s.occupants[ph.hex]):
            _finish_hits(s)
        return True
    if ph.destinations is None:
        ph.destinations = tuple(known if known is not None else _retreat_hexes(s, ph.hex, b.unit_side[u]))
        ph.remaining = 0
    _enter_hex(s, u, _hex(b, action.to))
    s.retreated[u] = True
    if s.log is not None:
        s._note(f"{action.unit} retreats to {action.to}")
    if s.rules.stacking is not None or s.rules.any_no_entry:
        for x in list(s.occupants[ph.hex]):
            if not s.retreated[x] and not any(_may_end_in(s, x, h) for h in ph.destinations):
                _eliminate(s, x)  # Reading: a unit that must retreat and has nowhere to stack is destroyed
    if all(s.retreated[x] for x in s.occupants[ph.hex]):
        _finish_hits(s)
    return True


def _apply_move(s: State, action: Move, d: DiceSource) -> bool:
    b = s.board
    if b.sequence[s.step][0] is not _MOVEMENT or s.breakout_open:
        raise _illegal(action, "not in a movement phase")
    r = s.rules
    u, to = r.actions.where.get(id(action)) or r.actions.indices(b, action)
    kept = s.scratch.get("options") or _move_phase(s)
    option = kept[0].get(u)
    if option is None or s.moved[u]:
        raise _illegal(action, "that unit may not move now")
    if to not in option[1]:
        raise _illegal(action, "not a legal destination")
    if action.via is not None:
        via = _hex(b, action.via)
        if via not in _routes(s, u)[to]:
            raise _illegal(action, "no legal two-hex route through that hex")
        _trip(s, u, via)
    elif to not in r.adjacent[s.pos[u]]:  # a legal destination next door is reached in one hex
        routes = _middles(s, u, to)
        # Reading: a route that trips no trigger of the effects when there is one (the owner's obvious choice)
        via = routes[0]
        for v in routes:
            if not r.effects.trip_mask >> v & 1:
                via = v
                break
        _trip(s, u, via)
    s._relocate(u, to)
    if r.effects.trip_mask >> to & 1:
        _trip(s, u, to)
    s.moved[u] = True
    if s.log is not None:
        s._note(str(action))
    if s.turn in r.effects.interacting_turns or r.stacking is not None:  # others' options depend on this move
        s.scratch.pop("options", None)
        return True
    _without(kept, u)
    return not kept[2]  # False: another unit may still move (as _has_choice says)


def _apply_reinforce(s: State, action: Reinforce, d: DiceSource) -> bool:
    b = s.board
    if s.phase is not _SUPPLY or not s.reinforcements:
        raise _illegal(action, "no reinforcement is waiting")
    u, to = _unit(b, action.unit), _hex(b, action.to)
    entry = next((i for i, (x, hs) in enumerate(s.reinforcements) if x == u and to in hs), None)
    if entry is None:
        raise _illegal(action, "not a legal arrival hex")
    s.reinforcements.pop(entry)
    _arrive(s, u, to)
    return True


def _apply_rebuild(s: State, action: Rebuild, d: DiceSource) -> bool:
    b = s.board
    if s.phase is not _SUPPLY or s.reinforcements or not s.rebuild_open:
        raise _illegal(action, "no rebuild now")
    u = _unit(b, action.unit)
    if u not in _rebuild_candidates(s):
        raise _illegal(action, "not a reduced, supplied unit on the map that may be rebuilt")
    s._set_steps(u, b.max_steps[u])
    if s.log is not None:
        s._note(f"{action.unit} rebuilt")
    s.rebuild_open = False
    return True


def _apply_breakout(s: State, action: Breakout, d: DiceSource) -> bool:
    b = s.board
    if s.phase is not _MOVEMENT or not s.breakout_open:
        raise _illegal(action, "no breakouts now")
    u = _unit(b, action.unit)
    refuges = dict(_breakout_candidates(s)).get(u)
    if refuges is None:
        raise _illegal(action, "not an unsupplied unit that did not move, with a refuge hex")
    die = d.roll()
    out = die + refuges >= s.rules.effects.breakout[s.turn][0]
    s._set_status(u, _BROKEN_OUT if out else _DESTROYED)
    s.scratch.pop("options", None)
    if s.log is not None:
        s._note(f"{action.unit} breakout: {die}+{refuges}: {'out' if out else 'destroyed'}")
    return True


_HANDLERS: dict[type, Any] = {
    EndPhase: _apply_end,
    Declare: _apply_declare,
    Resolve: _apply_resolve,
    Attack: _apply_attack,
    LoseStep: _apply_hit,
    Retreat: _apply_hit,
    Move: _apply_move,
    Reinforce: _apply_reinforce,
    Rebuild: _apply_rebuild,
    Breakout: _apply_breakout,
}
