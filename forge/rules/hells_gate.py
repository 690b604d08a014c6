"""Hell's Gate as a playable engine: the sequence of play, phase by phase, driven by ``data/hells_gate.yaml``.

Everything that is data comes from the :class:`forge.model.Game`: the map (hexes, terrain, rivers, supply
sources, names), the units and their reinforcement turns, the CRT, shifts, shift caps and strength modifiers
(read through :mod:`forge.rules.combat`), the defender limits, the mandatory-retreat rule, the mud table, the
breakout threshold, the victory points and the handicap, and the turns on which each special rule applies
(``special_rules[*].turns``).  Rule-specific logic that the format cannot express lives here and cites its
rule; the hexes it needs are looked up by name on the map (Korsun, Yanovka, Shenderovka, Tichonovka) or read
from the reinforcement's condition (the A2-A6 of 6.2).

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

* Supply: :class:`Reinforce` (6.1: equally near entry hexes, or the 24th Panzer's unstated hex),
  :class:`Rebuild` (11.4), :class:`EndPhase`.
* Combat: build an attack with :class:`Declare` (one attacker at a time, 7.1), roll it with :class:`Resolve`
  (optionally all-out, naming the unit flipped, 7.3); :class:`Attack` does both in one action (accepted by
  :func:`apply`, not listed by :func:`legal_actions`).  The defender then absorbs hits with :class:`LoseStep`
  and :class:`Retreat` (7.5, 7.6), one unit at a time.  :class:`EndPhase` ends the combat phase.
* Movement: :class:`Move` (8.0, 8.2; one move per unit), :class:`EndPhase`; on turn 8 then :class:`Breakout`
  (11.5) for each unit that tries, and :class:`EndPhase`.

Interpretations where the rules are silent are marked "Reading:" in the docstrings below.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from ..model import CellFormat, Crt, Game, Modifier, Shift, ShiftCap, TerrainKind, UnitSize, UnitType
from . import combat
from .state import Board, CombatRecord, GameResult, PendingHits, Phase, State, UnitStatus
from .supply import supplied_cells
from .kit import movement as _mk
from .zoc import zone_of

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
    "supplied_units",
]

SOVIET = "soviet"
GERMAN = "german"
MUD = "mud"
"""The weather state that is mud (11.2): one-hex movement, one column left."""
WOODS = "woods"
"""8.2: tanks may not enter two woods hexes in one two-hex move."""
OVERCONCENTRATION = 5
"""7.4: a hex with this many unretreated units or more takes the all-out result of every attack."""
BREAKOUT_RADIUS = 2
"""11.5: refuge hexes lie within two hexes."""


class IllegalAction(ValueError):
    """An action that is not legal in the state it was applied to."""


# ================================================================================================== dice
class DiceSource(Protocol):
    """Where die rolls come from."""

    def roll(self) -> int: ...


class Dice:
    """Six-sided (or ``faces``-sided) dice from a seedable ``random.Random``; ``history`` keeps every roll."""

    def __init__(self, seed: int | None = None, *, faces: int = 6) -> None:
        self.rng = random.Random(seed)
        self.faces = faces
        self.history: list[int] = []

    def roll(self) -> int:
        r = self.rng.randint(1, self.faces)
        self.history.append(r)
        return r


class ScriptedDice:
    """Fixed rolls in order, for tests and replays; raises when they run out (a test expected fewer)."""

    def __init__(self, rolls: Iterable[int]) -> None:
        self.rolls = list(rolls)
        self.history: list[int] = []

    def roll(self) -> int:
        if not self.rolls:
            raise IndexError("the scripted dice have run out of rolls")
        r = self.rolls.pop(0)
        self.history.append(r)
        return r


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
    """Add ``unit`` to the attack on ``target`` being built (opens it if none is; 7.1)."""

    unit: str
    target: str

    def __str__(self) -> str:
        return f"declare {self.unit} on {self.target}"


@dataclass(frozen=True, slots=True)
class Resolve:
    """Roll the attack declared so far; ``all_out`` names the two-step unit flipped for an all-out attack
    (7.3)."""

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
    """The defender absorbs one hit with a step of ``unit`` (7.5)."""

    unit: str

    def __str__(self) -> str:
        return f"lose step {self.unit}"


@dataclass(frozen=True, slots=True)
class Retreat:
    """The defender absorbs the final hit by retreating; ``unit`` goes to ``to``.  Once one unit has
    retreated, every other unretreated defender of the hex must retreat too (7.6)."""

    unit: str
    to: str

    def __str__(self) -> str:
        return f"retreat {self.unit} to {self.to}"


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``unit`` to ``to`` (8.0); ``via`` names the middle hex of a two-hex move (8.2).

    :func:`legal_actions` lists moves without ``via``; the engine then takes a legal route that enters no hex
    that would trip a Soviet trigger (6.2, 11.2) if there is one.  Give ``via`` to choose the route yourself.
    """

    unit: str
    to: str
    via: str | None = None

    def __str__(self) -> str:
        return f"move {self.unit} to {self.to}" + ("" if self.via is None else f" via {self.via}")


@dataclass(frozen=True, slots=True)
class Reinforce:
    """Place the arriving ``unit`` in ``to`` when the owner has a choice (6.1)."""

    unit: str
    to: str

    def __str__(self) -> str:
        return f"reinforce {self.unit} at {self.to}"


@dataclass(frozen=True, slots=True)
class Rebuild:
    """Flip a supplied, reduced corps back to full strength (11.4)."""

    unit: str

    def __str__(self) -> str:
        return f"rebuild {self.unit}"


@dataclass(frozen=True, slots=True)
class Breakout:
    """An unsupplied unit that did not move tries to break out to friendly lines (11.5)."""

    unit: str

    def __str__(self) -> str:
        return f"break out {self.unit}"


Action = EndPhase | Declare | Resolve | Attack | LoseStep | Retreat | Move | Reinforce | Rebuild | Breakout

_ID = r"[a-z0-9][a-z0-9_.\-]*"
_HEX = r"[A-Za-z]+[0-9]+"
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
    """Hell's Gate's rule data, compiled once per Board from the Game (and the rule numbers it cites)."""

    soviet: int
    german: int
    crt: Crt
    shifts: tuple[Shift, ...]
    caps: tuple[ShiftCap, ...]
    modifiers: tuple[Modifier, ...]
    max_per_hexside: int
    max_defenders: tuple[int, ...]
    mandatory_side: int
    mandatory_min_hits: int
    turns_11_1: frozenset[int]
    turns_11_2: frozenset[int]
    freeze_turns: frozenset[int]
    rebuild_turns: frozenset[int]
    breakout_turns: frozenset[int]
    korsun: int
    next_to_korsun: frozenset[int]
    tichonovka: int
    pocket: frozenset[int]
    """11.3: Korsun, Yanovka and Shenderovka."""
    trigger_6_2: frozenset[int]
    t1_german_attackers: frozenset[int]
    t1_soviet_movers: frozenset[int]
    fast: tuple[bool, ...]
    cavalry: tuple[bool, ...]
    corps: tuple[bool, ...]
    woods: tuple[bool, ...]
    tank_routes: tuple[tuple[tuple[int, int], ...], ...]
    """8.2: from each hex, the (middle, end) pairs of two-hex moves a tank may make (one woods, one river)."""
    cavalry_routes: tuple[tuple[tuple[int, int], ...], ...]
    side_units: tuple[tuple[int, ...], ...]
    type_value: tuple[str, ...]
    river: frozenset[tuple[int, int]]
    """Ordered pairs of hexes with a river (any hexside terrain) between them."""
    combat_terrain: tuple[frozenset[str], ...]
    terrain_shift: tuple[bool, ...]
    """The defender's hex has a terrain or feature with a column shift (woods, Cherkassy: 7.2)."""
    within2: tuple[tuple[int, ...], ...]
    weather_table: dict[int, str]
    roll_turns: frozenset[int]
    fixed_weather: dict[int, str]
    breakout_target: int
    supply_limit_turn2: int
    """11.2: Soviet supply lines at most this many hexes on turn 2."""
    per_unit_modifiers: bool
    """Every strength modifier multiplies single units (no stack bonuses): totals are sums of unit values."""
    hits: dict[int, list[tuple[int, int]]]
    """Die roll -> column -> (normal, all-out) hits, read from the CRT through :mod:`forge.rules.combat`."""
    memo: dict[tuple[Any, ...], Any]
    """Memoised strength totals and odds columns (their inputs are few small numbers)."""


def _rule_turns(game: Game, rule: str) -> frozenset[int]:
    for sr in game.special_rules:
        if sr.rule == rule:
            return frozenset(sr.turns)
    raise ValueError(f"the data has no special rule {rule}; the engine needs its turns")


def _hexes_in_text(board: Board, text: str) -> frozenset[int]:
    """Hex labels named in a sentence (6.2's condition lists A2-A6 in words)."""
    found: set[int] = set()
    for token in re.findall(r"\b[A-Za-z]+[0-9]+\b", text):
        if token.upper() in board.hex_index:
            found.add(board.hex_index[token.upper()])
    return frozenset(found)


def _compile(board: Board) -> _Rules:
    game = board.game
    c = game.combat
    if c.crt is None or c.crt.cell_format is not CellFormat.HITS_NORMAL_ALLOUT:
        raise ValueError("Hell's Gate needs an odds CRT of normal/all-out hits")
    soviet, german = board.side(SOVIET), board.side(GERMAN)
    known = {
        "defender-all-unsupplied",
        "defender-some-unsupplied",
        "attacker-all-unsupplied",
        "attacker-some-unsupplied",
        "mud",
        "defender-terrain",
        "half-across-river",
        "all-across-river",
    }
    for sh in c.shifts:
        if sh.condition not in known:
            raise ValueError(f"shift {sh.id!r}: the engine cannot evaluate condition {sh.condition!r}")
    mp = c.max_attackers_per_hexside
    if not isinstance(mp, int):
        raise ValueError("the most attackers per hexside (7.1.1) is unknown")
    mand = c.crt.mandatory_retreat
    korsun = board.named("Korsun")[0]
    pocket = frozenset(board.named("Korsun") + board.named("Yanovka") + board.named("Shenderovka"))
    trigger: set[int] = set()
    for u in board.units:
        if u.entry is not None and u.entry.condition:
            trigger |= _hexes_in_text(board, u.entry.condition)
    t11_1 = _rule_turns(game, "11.1")
    present_t1 = {u.id for u in board.units if u.setup is not None or (u.entry and u.entry.turn in t11_1)}
    armour = [UnitType.ARMOUR]
    t1_att = frozenset(
        i for i, u in enumerate(board.units) if board.unit_side[i] == german and u.type in armour and u.id in present_t1
    )
    t1_move = frozenset(i for i, u in enumerate(board.units) if board.unit_side[i] == soviet and u.type in armour)
    hexside_kinds = frozenset(k for k, t in game.terrain.items() if t.kind is TerrainKind.HEXSIDE)
    river = frozenset(k for k, f in board.hexside_features.items() if f & hexside_kinds)
    shifting = {
        k for k, t in game.terrain.items() if t.kind in (TerrainKind.HEX, TerrainKind.FEATURE) and t.combat.shift != 0
    }
    combat_terrain = []
    for h in range(len(board.labels)):
        feats = board.features[h]
        # Reading (7.1.2): a feature with its own combat effect (Cherkassy's city) stands in for the hex's
        # base terrain, so a tank attacking Cherkassy is doubled, not doubled and tripled.
        strong = {f for f in feats if f in shifting}
        combat_terrain.append(feats if strong else feats | {board.terrain[h]})
    grid = board.grid
    cells = list(grid.cells())
    within2 = tuple(
        tuple(j for j in range(len(cells)) if 0 < grid.distance(cells[i], cells[j]) <= BREAKOUT_RADIUS)
        for i in range(len(cells))
    )
    weather = game.turns.weather
    table: dict[int, str] = {}
    if weather is not None and weather.table is not None:
        t = next(x for x in game.tables if x.id == weather.table)
        for col, cell in zip(t.columns, t.rows[0].cells, strict=True):
            table[int(col)] = cell
    fixed = {t.number: t.weather for t in game.turns.turns if t.weather is not None}
    roll_turns = frozenset(t.number for t in game.turns.turns if t.weather is None)
    bt = next((x for x in game.tables if x.rule == "11.5"), None)
    target = 5
    if bt is not None:
        plus = [col for col in bt.columns if col.endswith("+")]
        if plus:
            target = int(plus[0].rstrip("+"))
    rebuild = frozenset(t.number for t in game.turns.turns if "11.4" in t.marks) or _rule_turns(game, "11.4")
    if WOODS not in game.terrain:
        raise ValueError(f"8.2 needs the terrain {WOODS!r}")
    woods = tuple(t == WOODS for t in board.terrain)
    nb = board.neighbours
    two = tuple(tuple((n, m) for n in nb[h] for m in nb[n] if m != h) for h in range(len(nb)))
    # 8.2's two-hex routes, filtered by the movement kit's per-move limits (rules.movement.limits: one woods hex
    # and one river hexside for tanks and mechanized; none for cavalry).
    kb = _mk.Board.of(game)
    kcells = list(board.grid.cells())

    def routes(unit_type: UnitType) -> tuple[tuple[tuple[int, int], ...], ...]:
        mv = _mk.mover(game, unit_type=str(unit_type))
        return tuple(
            tuple((n, m) for n, m in two[h] if _mk.within_limits(game, kb, mv, [kcells[h], kcells[n], kcells[m]]))
            for h in range(len(nb))
        )

    cav = routes(UnitType.CAVALRY)
    tank = routes(UnitType.ARMOUR)
    # 8.2's fast units: those the kit's allowances give more than one hex on dry ground while supplied.
    dry = {w for w in (game.turns.weather.states if game.turns.weather else ()) if w != MUD}
    fast = tuple(
        (_mk.allowance(game, _mk.mover(game, unit_type=str(t)), {*dry, "in-supply"}) or 0) > 1 for t in board.unit_type
    )
    n_faces = combat.dice_spec(c.crt.dice)[1]
    hits: dict[int, list[tuple[int, int]]] = {}
    for die in range(1, n_faces + 1):
        row = combat.row_for_die(c.crt.rows, die)
        if row is None:
            raise ValueError(f"the CRT has no row for a roll of {die}")
        cols = []
        for j in range(len(c.crt.columns)):
            cell = combat.column_cells(c.crt, j)[row]
            normal, allout = combat.hits_of(cell, "normal"), combat.hits_of(cell, "all-out")
            if normal is None or allout is None:
                raise combat.UnknownValueError(f"CRT cell {c.crt.columns[j]}/{die} is unknown")
            cols.append((normal, allout))
        hits[die] = cols
    return _Rules(
        soviet=soviet,
        german=german,
        crt=c.crt,
        shifts=tuple(c.shifts),
        caps=tuple(c.shift_caps),
        modifiers=tuple(c.modifiers),
        max_per_hexside=mp,
        max_defenders=tuple(c.max_defenders.get(s, 10**6) for s in board.sides),
        mandatory_side=board.side(mand.side) if mand is not None else -1,
        mandatory_min_hits=mand.min_hits if mand is not None else 10**6,
        turns_11_1=t11_1,
        turns_11_2=_rule_turns(game, "11.2"),
        freeze_turns=_rule_turns(game, "11.2") | _rule_turns(game, "11.3"),
        rebuild_turns=rebuild,
        breakout_turns=_rule_turns(game, "11.5"),
        korsun=korsun,
        next_to_korsun=frozenset(board.neighbours[korsun]),
        tichonovka=board.named("Tichonovka")[0],
        pocket=pocket,
        trigger_6_2=frozenset(trigger),
        t1_german_attackers=t1_att,
        t1_soviet_movers=t1_move,
        fast=fast,
        cavalry=tuple(t is UnitType.CAVALRY for t in board.unit_type),
        corps=tuple(u.size is UnitSize.CORPS for u in board.units),
        woods=woods,
        tank_routes=tank,
        cavalry_routes=cav,
        side_units=tuple(
            tuple(u for u in range(len(board.units)) if board.unit_side[u] == x) for x in range(len(board.sides))
        ),
        type_value=tuple(t.value for t in board.unit_type),
        river=river,
        combat_terrain=tuple(combat_terrain),
        terrain_shift=tuple(
            bool((set(board.features[h]) | {board.terrain[h]}) & shifting) for h in range(len(board.labels))
        ),
        within2=within2,
        weather_table=table,
        roll_turns=roll_turns,
        fixed_weather=fixed,
        breakout_target=target,
        supply_limit_turn2=3,
        per_unit_modifiers=all(m.add is None and m.per_unit for m in c.modifiers),
        hits=hits,
        memo={},
    )


def rules_of(board: Board) -> _Rules:
    """The compiled rules of ``board``'s game (built on first use)."""
    try:
        r: _Rules = board.extra["hells_gate"]
    except KeyError:
        r = board.extra["hells_gate"] = _compile(board)
    return r


# ================================================================================================= supply
def _supplied_hexes(s: State, side: int, max_length: int | None = None) -> dict[int, int]:
    """Hexes from which ``side`` can trace supply now (5.1)."""
    b = s.board
    mine, theirs = s.count[side], s.count[1 - side]
    enemy = {h for h, n in enumerate(theirs) if n}
    friendly = {h for h, n in enumerate(mine) if n}
    blocked = zone_of(enemy, b.neighbours.__getitem__) | set(b.sources[1 - side])
    return supplied_cells(
        b.sources[side],
        b.neighbours.__getitem__,
        enemy_occupied=enemy,
        friendly_occupied=friendly,
        blocked=blocked,
        max_length=max_length,
    )


def supplied_units(state: State, side: str, *, max_length: int | None = None) -> list[str]:
    """Ids of ``side``'s units on the map that can trace supply now (5.1), whatever their markers say."""
    si = state.board.side(side)
    ok = _supplied_hexes(state, si, max_length)
    return [state.board.unit_ids[u] for u in state.on_map(si) if state.pos[u] in ok]


def _judge_supply(s: State, side: int) -> None:
    """5.0, 5.2: mark the side's units in or out of supply (11.2: Soviet lines of three hexes on turn 2)."""
    r = rules_of(s.board)
    limit = r.supply_limit_turn2 if side == r.soviet and s.turn in r.turns_11_2 else None
    ok = _supplied_hexes(s, side, limit)
    for u in s.on_map(side):
        s.oos[u] = s.pos[u] not in ok
    if s.log is not None:
        out = [s.board.unit_ids[u] for u in s.on_map(side) if s.oos[u]]
        s._note(f"out of supply: {', '.join(out) or 'none'}")


# ================================================================================================ helpers
def _enter_hex(s: State, u: int, h: int) -> None:
    """Put ``u`` in ``h`` and note the Soviet triggers of 6.2 and 11.2/11.3."""
    if s.pos[u] >= 0:
        s._lift(u)
    s._place(u, h)
    _trip(s, u, h)


def _trip(s: State, u: int, h: int) -> None:
    r = rules_of(s.board)
    if s.board.unit_side[u] == r.soviet:
        if h in r.trigger_6_2:
            s.soviet_entered_a2_a6 = True
        if h in r.next_to_korsun:
            s.soviet_entered_next_to_korsun = True


def _eliminate(s: State, u: int) -> None:
    if s.log is not None:
        s._note(f"{s.board.unit_ids[u]} eliminated")
    s._set_status(u, UnitStatus.DESTROYED)


# ================================================================================================= combat
def _declarable(
    s: State, attackers: Sequence[int] | None = None, target: int | None = None
) -> Iterator[tuple[int, int]]:
    """(unit, target hex) pairs that may be added to the attack being built (7.1, 7.1.1, 7.1.3, 11.1).

    ``attackers`` and ``target`` default to the attack being declared; with no target, every enemy-held hex
    not yet attacked this phase is a candidate.  A given ``target`` is trusted to be a legal one.
    """
    b = s.board
    r = rules_of(b)
    a = s.active
    mine = s.count[a]
    attackers = s.attackers if attackers is None else attackers
    if target is None:
        target = s.attack_target
    targets: Iterable[int]
    if target >= 0:
        targets = (target,)
    else:
        pos = s.pos
        targets = sorted({pos[v] for v in r.side_units[1 - a] if pos[v] >= 0} - s.attacked_hexes)
    # 11.1: on turn 1 only the four named panzer units attack for the Germans.
    only = r.t1_german_attackers if s.turn in r.turns_11_1 and a == r.german else None
    side, attacked, retreated, occupants = b.unit_side, s.attacked, s.retreated, s.occupants
    limit = r.max_per_hexside
    for t in targets:
        for n in b.neighbours[t]:
            if not mine[n]:
                continue
            if attackers and sum(1 for x in attackers if s.pos[x] == n) >= limit:
                continue  # 7.1.1: two units at most across one hexside
            for u in occupants[n]:
                if (
                    side[u] == a
                    and not attacked[u]
                    and not retreated[u]
                    and u not in attackers
                    and (only is None or u in only)
                ):
                    yield u, t


def _any_attack(s: State) -> bool:
    """Whether any attack can be opened: as ``next(_declarable(s), None) is not None``, cheaper."""
    b = s.board
    r = rules_of(b)
    a = s.active
    theirs = s.count[1 - a]
    pos, attacked, retreated, done = s.pos, s.attacked, s.retreated, s.attacked_hexes
    only = r.t1_german_attackers if s.turn in r.turns_11_1 and a == r.german else None
    nbrs = b.neighbours
    for u in r.side_units[a]:
        h = pos[u]
        if h < 0 or attacked[u] or retreated[u] or (only is not None and u not in only):
            continue
        for n in nbrs[h]:
            if theirs[n] and n not in done:
                return True
    return False


def _flip_choices(s: State, attackers: Sequence[int], target: int) -> list[int]:
    """Units that may be flipped for an all-out attack (7.3): full two-step attackers, tanks if any."""
    b = s.board
    if _overconcentrated(s, target):
        return []  # 7.4 gives the all-out result anyway: flipping would only cost a step
    full = [u for u in attackers if b.max_steps[u] == 2 and s.steps[u] == 2]
    tanks = [u for u in full if b.unit_type[u] is UnitType.ARMOUR]
    return tanks or full


def _overconcentrated(s: State, h: int) -> bool:
    return sum(1 for u in s.occupants[h] if not s.retreated[u]) >= OVERCONCENTRATION


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
    """Attack and defence totals (7.1.2: tank multipliers, through :mod:`forge.rules.combat`) and the odds
    column before shifts (7.0 step 3), memoised: the inputs are a few small numbers that recur all game.

    When every modifier is a per-unit multiplier (Hell's Gate's are), a side's total is the sum of its units'
    values, and each unit's value is memoised on its own; otherwise the whole line-up is the key.
    """
    if r.per_unit_modifiers:
        att: Fraction | int = 0
        for x, t in att_in:
            att += _unit_value(r, x, t, terrain, True)
        dfn: Fraction | int = 0
        for x, t in def_in:
            dfn += _unit_value(r, x, t, terrain, False)
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
    ckey = ("column", att, dfn)
    col = r.memo.get(ckey)
    if col is None:
        pick = combat.column_for_odds(r.crt, att, dfn)
        assert pick.index is not None
        col = r.memo[ckey] = pick.index
    return att, dfn, col


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
) -> tuple[Fraction | int, Fraction | int, list[int], int, list[Shift], int, int, bool]:
    """attack, defence, counted defenders, base column, shifts applied, final column, net shift,
    overconcentrated."""
    b = s.board
    r = rules_of(b)
    a = s.active
    d = 1 - a
    steps, strength, maxs, tv = s.steps, s.strength, b.max_steps, r.type_value
    retreated, oos, pos = s.retreated, s.oos, s.pos
    defenders = [u for u in s.occupants[target] if not retreated[u]]

    def dfs(u: int) -> int:
        return strength[u][maxs[u] - steps[u]][1] if steps[u] > 0 else 0

    # 7.1.1: the strongest units defend, up to the side's limit
    limit = r.max_defenders[d]
    counted = sorted(defenders, key=lambda u: (-dfs(u), u))[:limit] if len(defenders) > limit else defenders
    att_in = [(strength[u][maxs[u] - steps[u]][0], tv[u]) for u in attackers]
    att, dfn, base = _base_odds(r, att_in, [(dfs(u), tv[u]) for u in counted], r.combat_terrain[target])
    # 7.2
    n_def, n_att = len(defenders), len(attackers)
    d_oos = a_oos = across = 0
    for u in defenders:
        if oos[u]:
            d_oos += 1
    river = r.river
    for u in attackers:
        if oos[u]:
            a_oos += 1
        if (pos[u], target) in river:
            across += 1
    shifts: list[Shift] = []
    for sh in r.shifts:
        c = sh.condition
        if c == "defender-all-unsupplied":
            ok = n_def > 0 and d_oos == n_def
        elif c == "defender-some-unsupplied":
            ok = 0 < d_oos < n_def
        elif c == "attacker-all-unsupplied":
            ok = n_att > 0 and a_oos == n_att
        elif c == "attacker-some-unsupplied":
            ok = 0 < a_oos < n_att
        elif c == "mud":
            ok = s.weather == MUD
        elif c == "defender-terrain":
            ok = r.terrain_shift[target]
        elif c == "half-across-river":
            ok = across > 0 and 2 * across >= n_att
        else:  # all-across-river
            ok = n_att > 0 and across == n_att
        if ok:
            shifts.append(sh)
    over = n_def >= OVERCONCENTRATION  # 7.4
    if not shifts:
        return att, dfn, counted, base, shifts, base, 0, over
    caps = [cap for cap in r.caps if _cap_in_force(s, cap, target, attackers)]
    key = ("shift", base, tuple(sh.id for sh in shifts), tuple(id(c) for c in caps), s.turn, a)
    got = r.memo.get(key)
    if got is None:
        res = combat.apply_shifts(r.crt.columns, base, shifts, caps, turn=s.turn, side=b.sides[a], role="attacking")
        assert res.index is not None
        got = r.memo[key] = (res.index, res.net)
    return att, dfn, counted, base, shifts, got[0], got[1], over


def _evaluate(s: State, target: int, attackers: Sequence[int]) -> AttackPreview:
    b = s.board
    r = rules_of(b)
    att, dfn, counted, base, shifts, final, net, over = _odds(s, target, attackers)
    allout = combat.distribution(r.crt, final, attack="all-out")
    normal = allout if over else combat.distribution(r.crt, final, attack="normal")
    return AttackPreview(
        attack=att,
        defense=dfn,
        defenders=tuple(b.unit_ids[u] for u in counted),
        base_column=r.crt.columns[base],
        shifts=tuple(sh.id for sh in shifts),
        net_shift=net,
        column=r.crt.columns[final],
        column_index=final,
        overconcentrated=over,
        normal=normal,
        all_out=allout,
    )


def _cap_in_force(s: State, cap: ShiftCap, target: int, attackers: Sequence[int]) -> bool:
    """The data's caps apply by turn and side (combat.apply_shifts checks those); 11.3's also needs the
    pocket: German units attacking out of or defending in Korsun, Yanovka or Shenderovka while Korsun is
    German-held."""
    if cap.rule != "11.3":
        return True
    r = rules_of(s.board)
    if not s.count[r.german][r.korsun]:
        return False
    if s.active == r.german:
        return any(s.pos[u] in r.pocket for u in attackers)
    return target in r.pocket


def preview_attack(state: State, target: str, attackers: Sequence[str]) -> AttackPreview:
    """What an attack by ``attackers`` on ``target`` would be, without changing anything (legality not
    checked)."""
    b = state.board
    return _evaluate(state, b.hex(target), [b.unit(x) for x in attackers])


def _resolve(s: State, flip: int | None, dice: DiceSource) -> None:
    b = s.board
    r = rules_of(b)
    t = s.attack_target
    attackers = s.attackers
    att, dfn, counted, base, shifts, final, net, over = _odds(s, t, attackers)
    die = dice.roll()
    if die not in r.hits:
        raise ValueError(f"a die roll of {die} is not on the CRT ({', '.join(r.crt.rows)})")
    if flip is not None:  # 7.3: the all-out attack costs the flipped unit a step, whatever the roll
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
        tuple(sh.id for sh in shifts),
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
    defenders = [u for u in s.occupants[t] if not s.retreated[u]]
    if hits > sum(s.steps[u] for u in defenders):
        for u in list(s.occupants[t]):  # 7.5 automatic elimination, retreated units included
            _eliminate(s, u)
        return
    d = 1 - s.active
    s.hits = PendingHits(t, hits, hits, d == r.mandatory_side and hits >= r.mandatory_min_hits)
    s.to_act = d


def _retreat_hexes(s: State, h: int, side: int) -> list[int]:
    """Where units of ``side`` in ``h`` may retreat (7.6, with 11.1 and 11.2)."""
    b = s.board
    r = rules_of(b)
    enemy = 1 - side
    mine, theirs = s.count[side], s.count[enemy]
    from_source = b.source_of[h] == side
    t1 = s.turn in r.turns_11_1 and side == r.german and s.active == r.soviet
    t2 = s.turn in r.turns_11_2 and side == r.german
    free: list[int] = []
    held: list[int] = []
    for n in b.neighbours[h]:
        if theirs[n]:
            continue
        friendly = mine[n] > 0
        zoc = any(theirs[m] for m in b.neighbours[n])
        if zoc and not friendly:
            continue
        if b.source_of[n] == enemy and not friendly:
            continue
        if from_source and b.source_of[n] != side:
            continue  # 7.6: from a friendly supply source only into another one
        if t1 and (n in s.hit_hexes or not (b.source_of[n] == side or friendly)):
            continue  # 11.1: German sources or German-held hexes not hit this turn
        if t2 and n == r.tichonovka:
            continue  # 11.2: no German entry into Tichonovka
        (held if zoc else free).append(n)
    # 7.6: out of enemy zones if possible; only then into friendly-held hexes in one.
    return free or held


def _hit_actions(s: State) -> list[Action]:
    ph = s.hits
    assert ph is not None
    b = s.board
    cache = _cache(b)
    units = sorted(u for u in s.occupants[ph.hex] if not s.retreated[u])
    out: list[Action] = []
    if ph.destinations is not None:
        for u in units:
            out.extend(cache.retreat(u, d) for d in ph.destinations)
        return out
    dests = _retreat_hexes(s, ph.hex, b.unit_side[units[0]]) if ph.remaining == 1 and units else []
    if not (dests and ph.mandatory_retreat):
        two = [u for u in units if s.steps[u] >= 2]
        out.extend(cache.lose(u) for u in (two or units))
    for u in units:
        out.extend(cache.retreat(u, d) for d in dests)
    return out


def _finish_hits(s: State) -> None:
    ph = s.hits
    assert ph is not None
    occ = s.occupants[ph.hex]
    if occ and all(s.retreated[u] for u in occ):
        for u in list(occ):  # 7.6: retreated units left alone in the hex are eliminated
            _eliminate(s, u)
    s.hits = None
    s.to_act = s.active


# =============================================================================================== movement
def _movers(s: State) -> list[int]:
    """Units of the side to move that may still move: on the map, not moved, not retreated (7.6), and allowed
    by 11.1 (turn 1: the Soviet tanks; one German panzer unit) and 11.2/11.3 (the Korsun freeze)."""
    b = s.board
    r = rules_of(b)
    a = s.active
    pos, moved, retreated = s.pos, s.moved, s.retreated
    units = [u for u in r.side_units[a] if pos[u] >= 0 and not moved[u] and not retreated[u]]
    if s.turn in r.turns_11_1:
        if a == r.soviet:
            return [u for u in units if u in r.t1_soviet_movers]  # 11.1: only the three Soviet tank units
        if any(moved[v] for v in r.side_units[a]):
            return []  # 11.1: one German panzer unit moves, and no other unit
        return [u for u in units if b.unit_type[u] is UnitType.ARMOUR]
    if s.turn in r.freeze_turns and a == r.german and not s.soviet_entered_next_to_korsun:
        k, near = r.korsun, r.next_to_korsun
        return [u for u in units if pos[u] != k and pos[u] not in near]  # 11.2, 11.3: the Korsun freeze
    return units


def _routes(s: State, u: int) -> dict[int, list[int]]:
    """Destinations of ``u`` with the middle hexes of the two-hex routes to each (-1 for a one-hex move)."""
    b = s.board
    r = rules_of(b)
    side = b.unit_side[u]
    theirs = s.count[1 - side]
    h = s.pos[u]
    ban = r.tichonovka if side == r.german and s.turn in r.turns_11_2 else -1  # 11.2
    # 11.1: the Soviet tanks end turn 1's movement in different hexes
    others = {s.pos[v] for v in r.t1_soviet_movers if v != u} if side == r.soviet and s.turn in r.turns_11_1 else ()
    out: dict[int, list[int]] = {}
    for n in b.neighbours[h]:
        if not theirs[n] and n != ban and n not in others:
            out[n] = [-1]
    if r.fast[u] and s.weather != MUD and not s.oos[u]:  # 8.2
        for n, m in (r.cavalry_routes if r.cavalry[u] else r.tank_routes)[h]:
            if not theirs[n] and not theirs[m] and n != ban and m != ban and m not in others:
                out.setdefault(m, []).append(n)
    return out


_Options = dict[int, tuple[list[Action], list[int]]]


def _move_options(s: State) -> _Options:
    """Each unit of the side to move that may move now, with its Move actions and destinations.

    Enemy units stand still during a movement phase and a unit's destinations depend only on them, so the
    options are computed once per phase and kept in ``state.scratch``; :func:`apply` drops a unit once it has
    moved, and recomputes them under 11.1 (where the other tanks' moves matter).
    """
    got = s.scratch.get("options")
    if got is None:
        got = s.scratch["options"] = _compute_move_options(s)
    return got


def _compute_move_options(s: State) -> _Options:
    b = s.board
    r = rules_of(b)
    movers = _movers(s)
    out: _Options = {}
    if not movers:
        return out
    moves = _cache(b).moves
    if s.active == r.soviet and s.turn in r.turns_11_1:
        for u in movers:
            dests = list(_routes(s, u))
            out[u] = ([moves[u][h] for h in dests], dests)
        return out
    # As _routes, for every unit at once: which hexes may be entered at all (no enemy; 11.2: no Tichonovka).
    theirs = s.count[1 - s.active]
    free = [not n for n in theirs]
    if s.active == r.german and s.turn in r.turns_11_2:
        free[r.tichonovka] = False
    two_hex = s.weather != MUD
    nbrs = b.neighbours
    for u in movers:
        h = s.pos[u]
        dests = [n for n in nbrs[h] if free[n]]
        if two_hex and r.fast[u] and not s.oos[u]:  # 8.2
            seen = set(dests)
            seen.add(h)
            for n, m in (r.cavalry_routes if r.cavalry[u] else r.tank_routes)[h]:
                if m not in seen and free[n] and free[m]:
                    seen.add(m)
                    dests.append(m)
        row = moves[u]
        out[u] = ([row[x] for x in dests], dests)
    return out


def _end_movement_blocked(s: State) -> bool:
    """11.1: the Soviet tanks must end turn 1's movement in different hexes; ending is refused while two share
    a hex and one of them could still move."""
    r = rules_of(s.board)
    if not (s.turn in r.turns_11_1 and s.active == r.soviet):
        return False
    by_hex: dict[int, list[int]] = {}
    for u in r.t1_soviet_movers:
        if s.pos[u] >= 0:
            by_hex.setdefault(s.pos[u], []).append(u)
    options = _move_options(s)
    return any(len(us) > 1 and any(options.get(u, ((), []))[1] for u in us) for us in by_hex.values())


def _breakout_candidates(s: State) -> list[tuple[int, int]]:
    """11.5: (unit, refuges) for unsupplied, unmoved, unretreated units with a refuge within two hexes."""
    b = s.board
    r = rules_of(b)
    side = s.active
    supplied_at = {s.pos[u] for u in s.on_map(side) if not s.oos[u]}
    out = []
    for u in s.on_map(side):
        if s.oos[u] and not s.moved[u] and not s.retreated[u]:
            n = sum(1 for h in r.within2[s.pos[u]] if h in supplied_at)
            if n:
                out.append((u, n))
    return out


# ================================================================================================ phases
def _enter_phase(s: State, dice: DiceSource) -> None:
    """Do the automatic part of the phase the state has just reached."""
    kind = s.board.sequence[s.step][0]
    a = s.active
    b = s.board
    r = rules_of(b)
    s.scratch.pop("options", None)
    if a >= 0:
        s.to_act = a
    if kind is Phase.SUPPLY:
        _judge_supply(s, a)
        _reinforce(s, a)
        s.rebuild_open = s.turn in r.rebuild_turns and a == r.soviet
    elif kind is Phase.COMBAT:
        s.attacked_hexes.clear()
        for u in range(len(b.units)):
            if b.unit_side[u] == a:
                s.attacked[u] = False
    elif kind is Phase.MOVEMENT:
        for u in range(len(b.units)):
            s.moved[u] = False
        s.breakout_open = False
    elif kind is Phase.RECOVERY:
        for u in s.on_map(a):  # 9.0
            s.retreated[u] = False
    elif kind is Phase.HOUSEKEEPING:
        if s.turn >= b.last_turn:
            _end_game(s)
        elif s.weather != MUD and s.turn in r.roll_turns and r.weather_table:
            die = dice.roll()  # 11.2: the mud roll
            if die not in r.weather_table:
                raise ValueError(f"a die roll of {die} is not on the mud table")
            s.weather = r.weather_table[die]
            s._note(f"mud roll {die}: {s.weather}")


def _reinforce(s: State, side: int) -> None:
    """6.0-6.2: place the side's units due this turn."""
    b = s.board
    theirs = s.count[1 - side]
    for u, unit in enumerate(b.units):
        e = unit.entry
        if e is None or e.turn != s.turn or b.unit_side[u] != side or s.status[u] is not UnitStatus.PENDING:
            continue
        if e.condition and not s.soviet_entered_a2_a6:
            s._set_status(u, UnitStatus.WITHDRAWN)  # 6.2: the condition never met, the unit never comes
            s._note(f"{unit.id} does not arrive ({e.rule or 'condition'})")
            continue
        if e.hex is not None and not theirs[b.hex(e.hex)]:
            _arrive(s, u, b.hex(e.hex))
            continue
        # 6.1: the nearest friendly supply source that is vacant or friendly-held. Reading: with no entry hex
        # in the data (the 24th Panzer) every such source is equally near.
        cands = [h for h in b.sources[side] if not theirs[h]]
        if not cands:
            s._set_status(u, UnitStatus.LOST)
            s._note(f"{unit.id} lost: no friendly supply source to arrive in (6.1)")
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
    s._set_status(u, UnitStatus.ON_MAP)
    s._set_steps(u, s.board.max_steps[u])
    s.oos[u] = s.retreated[u] = s.attacked[u] = s.moved[u] = False
    _enter_hex(s, u, h)
    if s.log is not None:
        s._note(f"{s.board.unit_ids[u]} arrives in {s.board.labels[h]}")


def _rebuild_candidates(s: State) -> list[int]:
    """11.4: reduced, supplied Soviet corps on the map."""
    b = s.board
    r = rules_of(b)
    return [
        u
        for u in s.on_map(r.soviet)
        if r.corps[u] and b.max_steps[u] >= 2 and s.steps[u] < b.max_steps[u] and not s.oos[u]
    ]


def _has_choice(s: State) -> bool:
    kind = s.phase
    if kind is Phase.SUPPLY:
        return bool(s.reinforcements) or (s.rebuild_open and bool(_rebuild_candidates(s)))
    if kind is Phase.COMBAT:
        return s.hits is not None or s.attack_target >= 0 or _any_attack(s)
    if kind is Phase.MOVEMENT:
        if s.breakout_open:
            return bool(_breakout_candidates(s))
        return any(dests for _, dests in _move_options(s).values())
    return False


def _close_phase(s: State, dice: DiceSource) -> None:
    """End the current phase (or open its last step) and enter the next one."""
    b = s.board
    r = rules_of(b)
    kind = s.phase
    if kind is Phase.MOVEMENT and not s.breakout_open and s.turn in r.breakout_turns and _breakout_candidates(s):
        s.breakout_open = True
        return
    s.rebuild_open = s.breakout_open = False
    s.step += 1
    if s.step >= len(b.sequence):
        s.step = 0
        if s.turn >= b.last_turn:
            if s.result is None:
                _end_game(s)
            return
        s.turn += 1
        s.hit_hexes.clear()
        if s.turn in r.fixed_weather:
            s.weather = r.fixed_weather[s.turn]
    _enter_phase(s, dice)


def _run(s: State, dice: DiceSource) -> None:
    while s.result is None and not _has_choice(s):
        _close_phase(s, dice)


def start(s: State) -> None:
    """Play a fresh State's opening automatic phases (called by :meth:`State.initial`)."""
    _enter_phase(s, _NoDice())
    _run(s, _NoDice())


def _end_game(s: State) -> None:
    """12.0: Soviets then Germans lose every unit that cannot trace supply; then the score."""
    b = s.board
    gone: list[str] = []
    for side in range(len(b.sides)):  # first_side (the Soviets) first
        ok = _supplied_hexes(s, side)
        for u in list(s.on_map(side)):
            if s.pos[u] not in ok:
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
        self.moves = [[Move(u, h) for h in labels] for u in units]
        self.retreats = [[Retreat(u, h) for h in labels] for u in units]
        self.loses = [LoseStep(u) for u in units]
        self.resolves = [Resolve(u) for u in units]

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
    try:
        c: _ActionCache = board.extra["hells_gate.actions"]
    except KeyError:
        c = board.extra["hells_gate.actions"] = _ActionCache(board)
    return c


def legal_actions(state: State) -> list[Action]:
    """Every action the side to act may take now, in a fixed order (empty once the game is over)."""
    s = state
    if s.result is not None:
        return []
    b = s.board
    cache = _cache(b)
    kind = s.phase
    out: list[Action] = []
    if kind is Phase.SUPPLY:
        if s.reinforcements:
            for u, hexes in s.reinforcements:
                out.extend(Reinforce(b.unit_ids[u], b.labels[h]) for h in hexes)
            return out
        if s.rebuild_open:
            out.extend(Rebuild(b.unit_ids[u]) for u in _rebuild_candidates(s))
        out.append(_END)
        return out
    if kind is Phase.COMBAT:
        if s.hits is not None:
            return _hit_actions(s)
        declares = cache.declares
        out.extend([declares[u][t] for u, t in _declarable(s)])
        if s.attack_target >= 0:
            out.append(cache.resolve(-1))
            out.extend(cache.resolve(u) for u in _flip_choices(s, s.attackers, s.attack_target))
        else:
            out.append(_END)
        return out
    if kind is Phase.MOVEMENT:
        if s.breakout_open:
            out.extend(Breakout(b.unit_ids[u]) for u, _ in _breakout_candidates(s))
            out.append(_END)
            return out
        for moves, _ in _move_options(s).values():
            out.extend(moves)
        if not _end_movement_blocked(s):
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

    ``dice`` supplies every roll this needs (combat, breakout, the mud roll of the housekeeping phase that may
    follow); :class:`IllegalAction` when the action is not legal now (the state is then unchanged).
    """
    s = state
    if s.result is not None:
        raise IllegalAction("the game is over")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction(f"{action!r} is not a Hell's Gate action")
    d: DiceSource = dice if dice is not None else _NoDice()
    if handler(s, action, d):
        _run(s, d)
    return s


def _illegal(action: Action, why: str) -> IllegalAction:
    return IllegalAction(f"{action}: {why}")


def _apply_end(s: State, action: Action, d: DiceSource) -> bool:
    kind = s.phase
    if kind is Phase.SUPPLY and s.reinforcements:
        raise _illegal(action, "arriving units must be placed first (6.1)")
    if kind is Phase.COMBAT and (s.hits is not None or s.attack_target >= 0):
        raise _illegal(action, "finish the attack under way first")
    if kind is Phase.MOVEMENT and not s.breakout_open and _end_movement_blocked(s):
        raise _illegal(action, "11.1: the Soviet tank units must end turn 1's movement in different hexes")
    _close_phase(s, d)
    return True


def _check_target(s: State, action: Action, t: int) -> None:
    if not (s.count[1 - s.active][t] > 0 and t not in s.attacked_hexes):
        raise _illegal(action, "7.1: the target must be an enemy-held hex not attacked this turn")


def _apply_declare(s: State, action: Declare, d: DiceSource) -> bool:
    b = s.board
    if s.phase is not Phase.COMBAT or s.hits is not None:
        raise _illegal(action, "attacks are declared in the combat phase, not while absorbing hits")
    u, t = _unit(b, action.unit), _hex(b, action.target)
    if s.attack_target < 0:
        _check_target(s, action, t)
    elif t != s.attack_target:
        raise _illegal(action, f"an attack on {b.labels[s.attack_target]} is being declared")
    if (u, t) not in set(_declarable(s, target=t)):
        raise _illegal(action, "that unit cannot join an attack on that hex now (7.1, 7.1.1, 11.1)")
    s.attack_target = t
    s.attackers.append(u)
    return False  # a declared attack is always a decision point


def _apply_resolve(s: State, action: Resolve, d: DiceSource) -> bool:
    if s.phase is not Phase.COMBAT or s.hits is not None or s.attack_target < 0:
        raise _illegal(action, "no attack is declared")
    flip = None if action.all_out is None else _unit(s.board, action.all_out)
    if flip is not None and flip not in _flip_choices(s, s.attackers, s.attack_target):
        raise _illegal(action, "7.3: flip a full-strength two-step attacker (a tank if one attacks)")
    _resolve(s, flip, d)
    return True


def _apply_attack(s: State, action: Attack, d: DiceSource) -> bool:
    b = s.board
    if s.phase is not Phase.COMBAT or s.hits is not None or s.attack_target >= 0:
        raise _illegal(action, "not while another attack is open")
    t = _hex(b, action.target)
    _check_target(s, action, t)
    chosen: list[int] = []
    for x in action.attackers:
        u = _unit(b, x)
        if (u, t) not in set(_declarable(s, chosen, t)):
            raise _illegal(action, f"{x} cannot attack {action.target} now (7.1, 7.1.1, 11.1)")
        chosen.append(u)
    if not chosen:
        raise _illegal(action, "an attack needs attackers")
    flip = None if action.all_out is None else _unit(b, action.all_out)
    if flip is not None and flip not in _flip_choices(s, chosen, t):
        raise _illegal(action, "7.3: not a unit that may be flipped")
    s.attack_target, s.attackers = t, chosen
    _resolve(s, flip, d)
    return True


def _apply_hit(s: State, action: LoseStep | Retreat, d: DiceSource) -> bool:
    ph = s.hits
    if s.phase is not Phase.COMBAT or ph is None:
        raise _illegal(action, "no hits to absorb")
    if action not in _hit_actions(s):
        raise _illegal(action, "not a legal way to absorb this hit (7.5, 7.6)")
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
        ph.destinations = tuple(_retreat_hexes(s, ph.hex, b.unit_side[u]))
        ph.remaining = 0
    _enter_hex(s, u, _hex(b, action.to))
    s.retreated[u] = True
    if s.log is not None:
        s._note(f"{action.unit} retreats to {action.to}")
    if all(s.retreated[x] for x in s.occupants[ph.hex]):
        _finish_hits(s)
    return True


def _apply_move(s: State, action: Move, d: DiceSource) -> bool:
    if s.phase is not Phase.MOVEMENT or s.breakout_open:
        raise _illegal(action, "not in a movement phase")
    b = s.board
    r = rules_of(b)
    u, to = _unit(b, action.unit), _hex(b, action.to)
    option_map = _move_options(s)
    option = option_map.get(u)
    if option is None:
        raise _illegal(action, "that unit may not move now (8.0, 7.6, 11.1-11.3)")
    if to not in option[1]:
        raise _illegal(action, "not a legal destination (8.0-8.2, 11.1, 11.2)")
    # a legal destination next door is always reachable in one hex; only two-hex moves need their routes
    next_door = action.via is None and to in b.neighbours[s.pos[u]]
    routes = [-1] if next_door else _routes(s, u)[to]
    if action.via is not None:
        via = _hex(b, action.via)
        if via not in routes:
            raise _illegal(action, "no legal two-hex route through that hex (8.2)")
    elif -1 in routes:
        via = -1
    else:  # Reading: a route that trips no Soviet trigger when there is one (the owner's obvious choice)
        quiet = [v for v in routes if v not in r.trigger_6_2 and v not in r.next_to_korsun]
        via = (quiet or routes)[0]
    if via >= 0:
        _trip(s, u, via)
    _enter_hex(s, u, to)
    s.moved[u] = True
    if s.turn in r.turns_11_1:
        s.scratch.pop("options", None)
    else:
        rest = dict(option_map)
        del rest[u]
        s.scratch["options"] = rest
    if s.log is not None:
        s._note(str(action))
    return True


def _apply_reinforce(s: State, action: Reinforce, d: DiceSource) -> bool:
    b = s.board
    if s.phase is not Phase.SUPPLY or not s.reinforcements:
        raise _illegal(action, "no reinforcement is waiting")
    u, to = _unit(b, action.unit), _hex(b, action.to)
    entry = next((i for i, (x, hs) in enumerate(s.reinforcements) if x == u and to in hs), None)
    if entry is None:
        raise _illegal(action, "not a legal arrival hex (6.1)")
    s.reinforcements.pop(entry)
    _arrive(s, u, to)
    return True


def _apply_rebuild(s: State, action: Rebuild, d: DiceSource) -> bool:
    b = s.board
    if s.phase is not Phase.SUPPLY or s.reinforcements or not s.rebuild_open:
        raise _illegal(action, "no rebuild now (11.4)")
    u = _unit(b, action.unit)
    if u not in _rebuild_candidates(s):
        raise _illegal(action, "11.4: a reduced, supplied corps on the map")
    s._set_steps(u, b.max_steps[u])
    if s.log is not None:
        s._note(f"{action.unit} rebuilt")
    s.rebuild_open = False
    return True


def _apply_breakout(s: State, action: Breakout, d: DiceSource) -> bool:
    b = s.board
    if s.phase is not Phase.MOVEMENT or not s.breakout_open:
        raise _illegal(action, "no breakouts now (11.5)")
    u = _unit(b, action.unit)
    refuges = dict(_breakout_candidates(s)).get(u)
    if refuges is None:
        raise _illegal(action, "11.5: an unsupplied unit that did not move, with a refuge hex")
    die = d.roll()
    out = die + refuges >= rules_of(b).breakout_target
    s._set_status(u, UnitStatus.BROKEN_OUT if out else UnitStatus.DESTROYED)
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
