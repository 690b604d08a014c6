"""Special rules' effects (``special_rules[*].effects``), compiled for play: which hexes a side may not enter on
a turn, whose units stay put, how long a supply line may be, which units move or attack, which shift caps hold
where, whose arrival waits on an entry, who rebuilds and who breaks out.

Each effect kind (:class:`forge.model.EffectKind`) is one general mechanism with its parameters in the data; this
module turns the effects of a game into tables by (turn, side index) and by unit that the engine consults.
Nothing here knows a game, a place or a rule number: places are the names the data gives, resolved on the
board, and a rule's number is only used to find the data that cites it (its shift caps, its turn-track marks).
:func:`effect_problems` lists what stops the effects from being compiled (an unknown place, side, unit or
table); :func:`compile_effects` builds :class:`Effects`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..model import EffectKind, Game, RuleEffect, SpecialRule
from .bitboard import mask_of
from .board import Board

__all__ = ["Effects", "compile_effects", "effect_problems", "place_hexes"]

TurnSide = tuple[int, int]


def place_hexes(game: Game, name: str) -> list[str] | None:
    """The labels of the hexes a place name stands for: hexes printed with the name, or a key of
    ``map.places`` (None when the map has no such place)."""
    found = [lab for lab, info in game.map.hexes.items() if info.name == name]
    found += [lab for lab in game.map.places.get(name, []) if lab not in found]
    return found or None


def _labels(game: Game, e: RuleEffect) -> tuple[list[str], list[str]]:
    """The hex labels an effect's ``places`` and ``hexes`` stand for, and the place names the map lacks."""
    out: list[str] = []
    missing: list[str] = []
    for name in e.places:
        got = place_hexes(game, name)
        if got is None:
            missing.append(name)
        else:
            out += got
    return out + list(e.hexes), missing


def _where(sr: SpecialRule, i: int, e: RuleEffect) -> str:
    return f"special rule {sr.rule} ({sr.title}), effect {e.kind} (special_rules[*].effects[{i}])"


def effect_problems(game: Game) -> list[str]:
    """What the special rules' effects name that the game lacks (a side, place, hex, unit or table), each
    naming the effect; [] when every effect can be applied."""
    out: list[str] = []
    sides = {s.id for s in game.game.sides}
    units = {u.id for u in game.units}
    grid = game.map.grid.grid()
    for sr in game.special_rules:
        for i, e in enumerate(sr.effects):
            at = _where(sr, i, e)
            for key in ("side", "released_by"):
                v = getattr(e, key)
                if v is not None and v not in sides:
                    out.append(f"{at}: {key} {v!r} is not a side of the game ({', '.join(sorted(sides))})")
            labels, missing = _labels(game, e)
            if e.holds is not None and place_hexes(game, e.holds) is None:
                missing.append(e.holds)
            out += [f"{at}: the map names no place {name!r} (map.hexes[*].name, map.places)" for name in missing]
            for lab in labels:
                try:
                    ok = grid.contains(grid.parse(lab))
                except ValueError:
                    ok = False
                if not ok:
                    out.append(f"{at}: {lab!r} is not a hex of the map")
            out += [f"{at}: {u!r} is not a unit of the game (units)" for u in e.units if u not in units]
            if e.kind is EffectKind.CAPS_WHILE_HOLDING and not any(
                c.rule == sr.rule for c in game.combat.shift_caps
            ):
                out.append(f"{at}: no shift cap cites rule {sr.rule} (combat.shift_caps[*].rule)")
            if e.kind is EffectKind.BREAKOUT:
                table = next((t for t in game.tables if t.id == e.table), None)
                if table is None:
                    out.append(f"{at}: the game has no table {e.table!r} (tables)")
                elif not any(c.rstrip("+").isdigit() and c.endswith("+") for c in table.columns):
                    out.append(f"{at}: table {e.table!r} has no column 'N+' giving the roll that escapes")
    return out


@dataclass(frozen=True, eq=False)
class Effects:
    """A game's special-rule effects as tables the engine reads (``(turn, side)`` keys use side indices)."""

    no_entry: dict[TurnSide, tuple[frozenset[int], int]]
    """Hexes the side's units may not enter on the turn (no-entry), as a set and a bit mask."""
    supply_length: dict[TurnSide, int]
    """The longest supply line of the side when its supply is judged on the turn (supply-max-length)."""
    movers: dict[TurnSide, tuple[frozenset[int] | None, int | None]]
    """The side's units that may move on the turn (None: any) and how many of its units may move at most
    (None: any) (only-types-move)."""
    attackers: dict[TurnSide, frozenset[int]]
    """The side's units that may attack on the turn (only-types-attack)."""
    apart: dict[TurnSide, tuple[int, ...]]
    """The side's units that must end their moves in different hexes on the turn (end-apart)."""
    freezes: dict[TurnSide, tuple[tuple[frozenset[int], int], ...]]
    """Per turn and side: (the hexes whose units of the side stay put, the trigger that releases them) (freeze)."""
    triggers: tuple[tuple[int, frozenset[int]], ...]
    """(side, hexes): entries that are remembered for the rest of the game once a unit of the side makes one."""
    trip_mask: int
    """Every trigger's hexes as one bit mask."""
    arrival: dict[int, int]
    """Unit -> the trigger that must have been tripped before it arrives (arrival-if-entered)."""
    caps_holding: tuple[tuple[int, frozenset[int], frozenset[int], frozenset[int]], ...]
    """(side, hexes to hold, hexes fought from or in, indices of the shift caps) (caps-while-holding)."""
    rebuild: dict[TurnSide, frozenset[int]]
    """The side's units that may be rebuilt in its supply phase of the turn (rebuild)."""
    breakout: dict[int, tuple[int, tuple[tuple[int, ...], ...]]]
    """Turn -> (the roll that escapes, the hexes within the refuge radius of each hex) (breakout)."""
    interacting_turns: frozenset[int]
    """Turns on which one unit's move changes what the others may do (end-apart, a cap on the units that move)."""

    def caps_set_aside(self, holds: Iterable[bool]) -> frozenset[int]:
        """Indices of the shift caps set aside when the caps-while-holding effects hold as ``holds`` says."""
        out: set[int] = set()
        for (_, _, _, caps), ok in zip(self.caps_holding, holds, strict=True):
            if not ok:
                out |= caps
        return frozenset(out)


def _turns(sr: SpecialRule, e: RuleEffect) -> list[int]:
    return list(e.turns) if e.turns is not None else list(sr.turns)


def _around(board: Board, hexes: Iterable[int], radius: int) -> set[int]:
    """``hexes`` and every hex within ``radius`` steps of one of them."""
    out = set(hexes)
    ring = set(out)
    for _ in range(radius):
        ring = {n for h in ring for n in board.neighbours[h]} - out
        out |= ring
    return out


def compile_effects(board: Board) -> Effects:
    """The effects of ``board``'s game as tables (the game's :func:`effect_problems` must be empty)."""
    game = board.game
    no_entry: dict[TurnSide, set[int]] = {}
    supply_length: dict[TurnSide, int] = {}
    movers: dict[TurnSide, tuple[frozenset[int] | None, int | None]] = {}
    attackers: dict[TurnSide, frozenset[int]] = {}
    apart: dict[TurnSide, tuple[int, ...]] = {}
    freezes: dict[TurnSide, list[tuple[frozenset[int], int]]] = {}
    triggers: list[tuple[int, frozenset[int]]] = []
    arrival: dict[int, int] = {}
    caps_holding = []
    rebuild: dict[TurnSide, frozenset[int]] = {}
    breakout: dict[int, tuple[int, tuple[tuple[int, ...], ...]]] = {}
    interacting: set[int] = set()
    n_units = len(board.units)

    def trigger(side: int, hexes: frozenset[int]) -> int:
        key = (side, hexes)
        if key not in triggers:
            triggers.append(key)
        return triggers.index(key)

    def of_side(side: int) -> list[int]:
        return [u for u in range(n_units) if board.unit_side[u] == side]

    for sr in game.special_rules:
        for e in sr.effects:
            turns = _turns(sr, e)
            side = board.side(e.side) if e.side is not None else -1
            hexes = frozenset(board.hex(lab) for lab in _labels(game, e)[0])
            kind = e.kind
            if kind is EffectKind.NO_ENTRY:
                for t in turns:
                    no_entry.setdefault((t, side), set()).update(hexes)
            elif kind is EffectKind.SUPPLY_MAX_LENGTH:
                assert e.length is not None
                for t in turns:
                    supply_length[(t, side)] = min(e.length, supply_length.get((t, side), e.length))
            elif kind is EffectKind.ONLY_TYPES_MOVE:
                allowed = frozenset(u for u in of_side(side) if board.unit_type[u] in e.types)
                for t in turns:
                    was, cap = movers.get((t, side), (None, None))
                    most = e.max_units if cap is None else cap if e.max_units is None else min(cap, e.max_units)
                    movers[(t, side)] = (allowed if was is None else was & allowed, most)
                    if e.max_units is not None:
                        interacting.add(t)
            elif kind is EffectKind.ONLY_TYPES_ATTACK:
                allowed = frozenset(u for u in of_side(side) if board.unit_type[u] in e.types)
                for t in turns:
                    attackers[(t, side)] = attackers.get((t, side), allowed) & allowed
            elif kind is EffectKind.END_APART:
                units = tuple(u for u in of_side(side) if board.unit_type[u] in e.types)
                for t in turns:
                    apart[(t, side)] = tuple(sorted({*apart.get((t, side), ()), *units}))
                    interacting.add(t)
            elif kind is EffectKind.FREEZE:
                assert e.radius is not None
                assert e.released_by is not None
                area = frozenset(_around(board, hexes, e.radius))
                release = trigger(board.side(e.released_by), area - hexes)
                for t in turns:
                    got = freezes.setdefault((t, side), [])
                    if (area, release) not in got:
                        got.append((area, release))
            elif kind is EffectKind.ARRIVAL_IF_ENTERED:
                k = trigger(side, hexes)
                for uid in e.units:
                    arrival[board.unit(uid)] = k
            elif kind is EffectKind.CAPS_WHILE_HOLDING:
                assert e.holds is not None
                held = frozenset(board.hex(lab) for lab in place_hexes(game, e.holds) or ())
                caps = frozenset(i for i, cap in enumerate(game.combat.shift_caps) if cap.rule == sr.rule)
                caps_holding.append((side, held, hexes, caps))
            elif kind is EffectKind.REBUILD:
                sized = frozenset(u for u in of_side(side) if board.units[u].size in e.sizes)
                marked = [t.number for t in game.turns.turns if sr.rule in t.marks]
                for t in e.turns if e.turns is not None else (marked or sr.turns):
                    rebuild[(t, side)] = rebuild.get((t, side), frozenset()) | sized
            elif kind is EffectKind.BREAKOUT:
                assert e.radius is not None
                table = next(x for x in game.tables if x.id == e.table)
                target = min(int(c.rstrip("+")) for c in table.columns if c.endswith("+") and c[:-1].isdigit())
                grid = board.grid
                cells = list(grid.cells())
                radius = e.radius
                within = tuple(
                    tuple(j for j in range(len(cells)) if 0 < grid.distance(cells[i], cells[j]) <= radius)
                    for i in range(len(cells))
                )
                for t in turns:
                    breakout[t] = (target, within)
    return Effects(
        no_entry={k: (frozenset(v), mask_of(v)) for k, v in no_entry.items()},
        supply_length=supply_length,
        movers=movers,
        attackers=attackers,
        apart=apart,
        freezes={k: tuple(v) for k, v in freezes.items()},
        triggers=tuple(triggers),
        trip_mask=mask_of(h for _, hexes in triggers for h in hexes),
        arrival=arrival,
        caps_holding=tuple(caps_holding),
        rebuild=rebuild,
        breakout=breakout,
        interacting_turns=frozenset(interacting),
    )
