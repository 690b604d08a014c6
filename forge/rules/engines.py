"""Which engine plays a game, chosen from its data: :func:`engine_for`.

An engine is an object with a small interface (:class:`Engine`): what a game's data lacks for it
(``problems``), a game's opening state under stated assumptions (``initial``), the legal actions of a state, applying
one with dice, the outcome once the game is over, and a ranking of actions for the greedy policy of ``forge play``.
:data:`ENGINES` lists the engines in order of preference, each with the test on the data that says it plays the
game; the first that accepts it plays it.  A game no engine accepts gets the first engine, whose ``problems`` say
what it lacks.  Nothing here asks for a game's id.

Driving any engine::

    engine = engine_for(game)
    if engine.problems(game): ...                      # what the data lacks; initial() would refuse it
    state = engine.initial(game, Assumptions(strength=3))
    dice = engine.dice(seed)
    while engine.outcome(state) is None:
        engine.apply(state, choose(engine.legal_actions(state)), dice)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import eq
from types import MappingProxyType
from typing import Any, Protocol

from ..model import CellFormat, CombatKind, Game
from ..notation import Strength
from . import engine as _hits
from .bitboard import hexes
from .board import Board, Phase, UnknownStrengthError, resolve_strengths
from .state import State

_MOVEMENT, _COMBAT = Phase.MOVEMENT, Phase.COMBAT  # (module globals: an enum member's lookup costs ten times more)

__all__ = ["ENGINES", "Assumptions", "Engine", "Outcome", "engine_for"]


@dataclass(frozen=True)
class Assumptions:
    """Values a player assumes where the data says unknown (the output of ``forge play`` names them)."""

    strength: int | None = None
    """Every strength the data leaves unknown (attack and defence of every such step), or None: assume nothing."""

    def strengths(self, game: Game) -> dict[str, list[tuple[int, int]]] | None:
        """The strengths to pass for ``game``: the printed values kept, :attr:`strength` for every unknown one
        (None when nothing is assumed or nothing is unknown)."""
        if self.strength is None:
            return None
        try:
            resolve_strengths(game)
            return None
        except UnknownStrengthError as e:
            missing = e.missing
        out: dict[str, list[tuple[int, int]]] = {}
        n = self.strength
        for u in game.units:
            if u.id in missing:
                printed = [Strength.parse(s) for s in u.steps]
                out[u.id] = [
                    (n if p.attack is None else p.attack, n if p.defense is None else p.defense) for p in printed
                ]
        return out

    def unknown_faces(self, game: Game) -> int:
        """How many unit faces have a strength the data does not give (0: the assumption is not needed)."""
        try:
            resolve_strengths(game)
        except UnknownStrengthError as e:
            return sum(len(v) for v in e.missing.values())
        return 0

    def __str__(self) -> str:
        return "nothing" if self.strength is None else f"strength={self.strength}"


@dataclass(frozen=True)
class Outcome:
    """How a finished game came out."""

    winner: str | None
    """The winning side's id, or None for a draw."""
    vp: Mapping[str, int]
    """Each side's final victory points."""
    turn: int
    """The turn the game ended on."""


class Engine(Protocol):
    """What ``forge play`` (and any driver) needs from an engine."""

    name: str
    """A short name for messages ("odds or dice-pool hits")."""

    def problems(self, game: Game) -> list[str]:
        """What the data lacks for this engine to play ``game`` ([] when it can), each naming the key path."""
        ...

    def initial(self, game: Game, assume: Assumptions) -> Any:
        """The opening state; raises (with :meth:`problems`' list) when the game cannot be played."""
        ...

    def legal_actions(self, state: Any) -> Sequence[Any]:
        """The actions the side to act may take, in a fixed order (empty once the game is over)."""
        ...

    def apply(self, state: Any, action: Any, dice: Any) -> Any:
        """Apply ``action`` in place with ``dice`` (from :meth:`dice`) and play on to the next decision."""
        ...

    def dice(self, seed: int) -> Any:
        """Seeded dice for :meth:`apply`."""
        ...

    def outcome(self, state: Any) -> Outcome | None:
        """The outcome once the game is over, else None."""
        ...

    def rank(self, state: Any, actions: Sequence[Any]) -> list[float]:
        """A score per action for the greedy policy (higher is preferred; ties are broken at random)."""
        ...

    def score(self, state: Any) -> Mapping[str, int]:
        """Each side's victory points as the state stands (``forge analyze`` follows them turn by turn)."""
        ...


_LAST_DIST: list[Any] = []
"""The last distance map :meth:`HitsEngine._distances` computed: its board, goal hexes (a bit mask) and distances
by hex (a side's moves in one phase all rank against the same enemy positions; the map is computed once for them),
then the movement phase the values below were ranked in (its options, ``state.scratch["options"][0]``, a new object
each time the engine computes a phase's options) and each ranked action's value by ``id``, for the engine's own
actions only (:attr:`forge.rules.engine._ActionCache.where` and EndPhase: objects that live as long as the board, so
an id is never reused).  Within one phase the distances are fixed (the enemy does not move) and so is the hex of
every unit that still has moves listed (a unit that has moved has none), so an action's value does not change."""


_BEST_MOVES: list[Any] = []
""":meth:`HitsEngine.best`'s values of a movement phase: its options (``state.scratch["options"][0]``, one object
per phase, shared by a copied state) and its units with moves grouped by the value of their best move, the best
value first: (value, [(unit, its moves of that value), ...] in the options' order) (the values as
:meth:`HitsEngine.rank` gives them, from the distances at the phase's first decision)."""


def top_ranked(actions: Sequence[Any], scores: Sequence[float]) -> list[Any]:
    """The ``actions`` whose ``scores`` are highest, in order (the greedy policy's choices)."""
    if not scores:
        return []
    top = max(scores)
    return list(compress(actions, map(eq, scores, repeat(top))))


class HitsEngine:
    """The engine of :mod:`forge.rules.engine`: phases from the sequence of play, an odds CRT of normal/all-out
    hits or dice-pool combat, supply lines, special rules as effects.

    Greedy ranking (:meth:`rank`): an attack is worth its attack-to-defence ratio (every unit that could join
    it counted), taken when that is at least 1; a unit joins the attack under way and the attack is resolved
    normally (never all-out); a defender retreats rather than loses a step; a move is worth how much closer it
    takes the unit to the nearest enemy unit or enemy supply source (a move that gets no closer is worth
    nothing, so movement ends when none does); rebuilds and breakouts are always tried.
    """

    name = "odds or dice-pool hits"

    def problems(self, game: Game) -> list[str]:
        return _hits.problems(game)

    def initial(self, game: Game, assume: Assumptions) -> State:
        # The assumed strengths are worked out once per game and assumption (reading every printed strength costs
        # more than playing a game from the remembered opening): kept with the game's Board, which lives as long
        # as the Game object and is built by the first State.initial.
        board = Board.built(game)
        key = f"assumed strengths: {assume.strength}"
        if board is not None and key in board.extra:
            strengths = board.extra[key]
        else:
            strengths = assume.strengths(game)
            if board is not None:
                board.extra[key] = None if strengths is None else MappingProxyType(strengths)
        return State.initial(game, strengths=strengths)

    def legal_actions(self, state: State) -> list[_hits.Action]:
        return _hits.legal_actions(state)

    def apply(self, state: State, action: _hits.Action, dice: _hits.DiceSource) -> State:
        return _hits.apply(state, action, dice)

    def dice(self, seed: int) -> _hits.Dice:
        return _hits.Dice(seed)

    def outcome(self, state: State) -> Outcome | None:
        r = state.result
        if r is None:
            return None
        return Outcome(r.winner, dict(zip(state.board.sides, r.vp, strict=True)), state.turn)

    def score(self, state: State) -> dict[str, int]:
        return state.score()

    def rank(self, state: State, actions: Sequence[_hits.Action]) -> list[float]:
        phase = state.phase
        if phase is _MOVEMENT and any(isinstance(a, _hits.Move) for a in actions):
            return self._rank_moves(state, actions)
        if phase is _COMBAT:
            return self._rank_attacks(state, actions)
        out = []
        for a in actions:
            if isinstance(a, _hits.Retreat | _hits.Rebuild | _hits.Breakout):
                out.append(1.0)
            else:
                out.append(0.0)
        return out

    def best(self, state: State) -> list[_hits.Action]:
        """The legal actions :meth:`rank` ranks highest, in legal order: what the greedy policy chooses among
        (:func:`top_ranked` of :meth:`legal_actions`, the same list), without listing and ranking every action at
        every decision where the engine knows the answer sooner.  A move's value is fixed within a movement phase
        (see :data:`_LAST_DIST`), so the moves are valued once per phase, unit by unit, and a decision only takes
        the units still to move whose best move is worth the most; a unit joins an attack under way whenever one
        may (the all-out choices, worth nothing then, are not listed)."""
        if state.result is not None:
            return []
        kind = state.board.sequence[state.step][0]
        if kind is _MOVEMENT and not state.breakout_open:
            return self._best_moves(state)
        if kind is _COMBAT and state.hits is None:
            if state.attack_target >= 0:
                joins = _hits._declarable(state)  # worth 2; else the normal roll (1), never an all-out one (0)
                return joins if joins else [_hits._RESOLVE]
            return self._best_openings(state)
        actions = self.legal_actions(state)
        return top_ranked(actions, self.rank(state, actions))

    @staticmethod
    def _best_openings(state: State) -> list[_hits.Action]:
        """:meth:`_rank_attacks` with no attack open, read from the kept openings (``engine._openings``): the
        openings on the targets of the best ratio when it is at least 1, else every action (all worth nothing).
        A target's ratio is :meth:`_ratio` of every unit that may open an attack on it, summed as they come."""
        _, opens, _, pairs = _hits._kept_openings(state)  # the openings with each one's (unit, target)
        steps, strength, maxs = state.steps, state.strength, state.board.max_steps
        att: dict[int, int] = {}
        for u, t in pairs:
            if steps[u] > 0:
                att[t] = att.get(t, 0) + strength[u][maxs[u] - steps[u]][0]
            elif t not in att:
                att[t] = 0
        top = 0.0
        best: list[int] = []
        occupants, retreated = state.occupants, state.retreated
        for t, total in att.items():
            dfn = 0
            for u in occupants[t]:
                if not retreated[u] and steps[u] > 0:
                    dfn += strength[u][maxs[u] - steps[u]][1]
            v = total / max(dfn, 1)
            if v > top:
                top, best = v, [t]
            elif v == top:
                best.append(t)
        if top < 1:
            return [*opens, _hits._END]
        if len(best) == len(att):
            return opens[:]
        tops = set(best)
        return [a for a, (_, t) in zip(opens, pairs, strict=True) if t in tops]

    @staticmethod
    def _best_moves(state: State) -> list[_hits.Action]:
        options, actions, owners = state.scratch.get("options") or _hits._move_phase(state)
        if not owners:  # no move left: every action (the end of the phase) is worth nothing
            return actions[:]
        memo = _BEST_MOVES
        if not memo or memo[0] is not options:
            dist = HitsEngine._distances(state)
            pos = state.pos
            by_value: dict[int, list[tuple[int, Sequence[_hits.Action]]]] = {}
            for u, (moves, dests) in options.items():
                if moves:  # a move is worth d0 - d when it gets closer (d < d0), else nothing
                    ds = list(map(dist.__getitem__, dests))
                    near = min(ds)
                    d0 = dist[pos[u]]
                    if near < d0:  # the moves to the nearest destinations
                        by_value.setdefault(d0 - near, []).append((u, list(compress(moves, map(eq, ds, repeat(near))))))
                    else:
                        by_value.setdefault(0, []).append((u, moves))
            # the units grouped by the value of their best move, the best group first, each in the options' order
            memo[:] = [options, sorted(by_value.items(), reverse=True)]
        # The units still to move are those of the options with moves listed that have not moved (a move cuts its
        # unit out of the kept actions and sets its flag): the first group holding one of them is the best value.
        moved = state.moved
        out: list[_hits.Action] = []
        top = 0
        for value, group in memo[1]:
            for u, moves in group:
                if not moved[u]:
                    out += moves
            if out:
                top = value
                break
        if top == 0 and actions[-1] is _hits._END:
            out.append(_hits._END)
        return out

    @staticmethod
    def _ratio(state: State, target: int, attackers: Sequence[int]) -> float:
        steps, strength, maxs = state.steps, state.strength, state.board.max_steps
        att = 0
        for u in attackers:  # (State.unit_strength inlined: this runs for every target at every combat decision)
            if steps[u] > 0:
                att += strength[u][maxs[u] - steps[u]][0]
        dfn = 0
        retreated = state.retreated
        for u in state.occupants[target]:
            if not retreated[u] and steps[u] > 0:
                dfn += strength[u][maxs[u] - steps[u]][1]
        return att / max(dfn, 1)

    def _rank_attacks(self, state: State, actions: Sequence[_hits.Action]) -> list[float]:
        if state.hits is not None:
            return [1.0 if isinstance(a, _hits.Retreat) else 0.0 for a in actions]
        declare = _hits.Declare
        if state.attack_target >= 0:  # join while anyone may, then roll a normal attack
            resolve = _hits.Resolve  # (a == Resolve(): the same class, no unit flipped)
            return [
                2.0 if isinstance(a, declare) else 1.0 if type(a) is resolve and a.all_out is None else 0.0
                for a in actions
            ]
        b = state.board
        where = _hits.rules_of(b).actions.where  # the engine's own Declare objects -> (unit, target) indices
        joiners: dict[int, list[int]] = {}
        targets: list[int] = []  # each action's target (-1: not a Declare)
        for a in actions:
            if isinstance(a, declare):
                got = where.get(id(a))
                u, t = got if got is not None else (b.unit(a.unit), b.hex(a.target))
                joiners.setdefault(t, []).append(u)
                targets.append(t)
            else:
                targets.append(-1)
        best = {t: self._ratio(state, t, us) for t, us in joiners.items()}
        out = []
        for t in targets:
            v = best[t] if t >= 0 else 0.0
            out.append(v if v >= 1 else 0.0)
        return out

    @staticmethod
    def _distances(state: State) -> list[int]:
        """Each hex's steps from the nearest hex the enemy of the side to act holds, or from its nearest supply
        source: a breadth-first search over the map, ring by ring as bit masks (:mod:`forge.rules.bitboard`),
        kept in :data:`_LAST_DIST` while the enemy stands still."""
        b = state.board
        side = state.active
        last = _LAST_DIST
        r = _hits.rules_of(b)
        # the hexes of the enemy's units on the map (its held hexes) and its supply sources
        goal = state.held_mask[1 - side] | r.source_mask[1 - side]
        if last and last[0] is b and last[1] == goal:  # the enemy has not moved since the distances were found
            dist: list[int] = last[2]
            return dist
        far = len(b.labels)
        dist = [far] * far
        _LAST_DIST[:] = [b, goal, dist, None, {}]
        spread = r.masks.spread
        ring = reached = goal
        k = 0
        while ring:
            for h in hexes(ring):
                dist[h] = k
            k += 1
            ring = spread(ring) & ~reached
            reached |= ring
        return dist

    @staticmethod
    def _rank_moves(state: State, actions: Sequence[_hits.Action]) -> list[float]:
        b = state.board
        kept = state.scratch.get("options")
        phase = kept[0] if kept is not None else None
        last = _LAST_DIST
        if phase is not None and last and last[3] is phase and last[0] is b:
            try:  # every action ranked before in this phase (whose enemy positions the distances were read from)
                return list(map(last[4].__getitem__, map(id, actions)))
            except KeyError:
                pass
        dist = HitsEngine._distances(state)
        if last[3] is not phase:  # (last is _LAST_DIST, refilled in place above)
            last[3], last[4] = phase, {}
        known: dict[int, float] = last[4]
        out = []
        pos = state.pos
        where = _hits.rules_of(b).actions.where  # the engine's own Move objects -> (unit, destination) indices
        move = _hits.Move
        end = _hits._END
        for a in actions:
            if isinstance(a, move):
                got = where.get(id(a))
                u, h = got if got is not None else (b.unit(a.unit), b.hex(a.to))
                d0 = dist[pos[u]]
                d1 = dist[h]
                v = float(d0 - d1) if d0 > d1 else 0.0
            else:
                got, v = None, 0.0
            out.append(v)
            if phase is not None and (got is not None or a is end):
                known[id(a)] = v
        return out


def _plays_hits(game: Game) -> bool:
    """An odds CRT whose cells are normal/all-out hits, or dice-pool combat."""
    c = game.combat
    if c.kind is CombatKind.DICE_POOL:
        return True
    return c.kind is CombatKind.ODDS and c.crt is not None and c.crt.cell_format is CellFormat.HITS_NORMAL_ALLOUT


class CodesEngine:
    """The engine of :mod:`forge.rules.classic`: an odds or differential CRT whose cells are result codes
    (``combat.results``), movement points, movement modes, zones of control, retreats, advances, replacements,
    control of places and victory (the genre's standard rules as data).  Imported only when a game needs it.

    Greedy ranking (:meth:`rank`): an attack is worth its odds (attack over defence, with the terrain and the
    modifiers that apply, before column shifts), taken when
    they are at least 1:1, the larger attack first; a step is lost rather than a retreat refused; advancing is
    always taken; a move is worth how much closer it takes the unit to the nearest enemy unit or to a place the
    side does not control; restoring and returning units are always taken.
    """

    name = "odds or differential CRT with result codes"

    @staticmethod
    def _mod() -> Any:
        from . import classic

        return classic

    def problems(self, game: Game) -> list[str]:
        return list(self._mod().problems(game))

    def initial(self, game: Game, assume: Assumptions) -> Any:
        return self._mod().initial(game)

    def legal_actions(self, state: Any) -> list[Any]:
        return list(self._mod().legal_actions(state))

    def apply(self, state: Any, action: Any, dice: Any) -> Any:
        return self._mod().apply(state, action, dice)

    def dice(self, seed: int) -> Any:
        return self._mod().Dice(seed)

    def outcome(self, state: Any) -> Outcome | None:
        r = state.result
        if r is None:
            return None
        return Outcome(r.winner, dict(zip(state.rules.sides, r.vp, strict=True)), state.turn)

    def score(self, state: Any) -> dict[str, int]:
        return dict(self._mod().score(state))

    def rank(self, state: Any, actions: Sequence[Any]) -> list[float]:
        c = self._mod()
        out: list[float] = []
        goals: set[Any] | None = None
        for a in actions:
            if isinstance(a, c.Attack):
                att, dfn, _shift = c.odds(state, state.rules.grid.parse(a.target), a.attackers)
                ratio = float(att / dfn) if dfn else float(att)
                out.append(ratio + len(a.attackers) / 100 if ratio >= 1 else 0.0)
            elif isinstance(a, c.Move):
                if goals is None:
                    goals = self._goals(state)
                out.append(self._closer(state, a, goals))
            elif isinstance(a, c.LoseStep | c.Advance | c.Restore | c.Return):
                out.append(1.0)
            else:
                out.append(0.0)
        return out

    @staticmethod
    def _goals(state: Any) -> set[Any]:
        side = state.to_act
        enemy = state.enemy_of(side)
        goals = set(state.cells_of(enemy))
        goals |= {c for c in state.rules.tracked if state.control.get(c) != side}  # places that change hands
        return goals

    @staticmethod
    def _closer(state: Any, move: Any, goals: set[Any]) -> float:
        if not goals:
            return 0.0
        grid = state.rules.grid
        here = state.pos.get(move.unit)
        there = grid.parse(move.to)
        near = min(grid.distance(there, g) for g in goals)
        was = min(grid.distance(here, g) for g in goals) if here is not None else near + 1
        return float(max(0, was - near))


def _plays_codes(game: Game) -> bool:
    """An odds or differential CRT whose cells are result codes."""
    c = game.combat
    codes = c.crt is not None and c.crt.cell_format is CellFormat.CODE
    return c.kind in (CombatKind.ODDS, CombatKind.DIFFERENTIAL) and codes


ENGINES: list[tuple[Callable[[Game], bool], Engine]] = [(_plays_hits, HitsEngine()), (_plays_codes, CodesEngine())]
"""The engines in order of preference, each with the test on a game's data that says it plays it.  Register
another engine by adding ``(accepts, engine)`` here."""


def engine_for(game: Game) -> Engine:
    """The engine that plays ``game``, chosen by its data (never its id): the first of :data:`ENGINES` that
    accepts it, else the first engine (whose ``problems`` then say what the data lacks)."""
    for accepts, engine in ENGINES:
        if accepts(game):
            return engine
    return ENGINES[0][1]
