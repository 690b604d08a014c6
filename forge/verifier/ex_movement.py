"""Movement and zone-of-control examples, recomputed with the movement kit (:mod:`forge.rules.kit.movement`,
:mod:`forge.rules.kit.zoc`) from ``terrain.*.movement``, ``rules.movement`` and ``rules.zoc``.

Paths the example names are measured on the map; claims about the rules in general ("marsh costs 3", "leaving a
ZOC costs 2") are measured on a small open test board of the game's own grid, built from the game's clear terrain,
so that the number comes out of the same procedure a real move uses.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from .. import model as m
from ..hexgrid import Cell
from ..rules.kit import movement as mk
from ..rules.kit import zoc as kz
from .core import Acc, Context, gap, handles, num
from .sites import hex_sites, movement_sites, records

K = m.ExampleKind

__all__ = ["ex_movement", "ex_movement_claims", "open_board"]


# ============================================================================================== helpers
def open_terrain(game: m.Game) -> str | None:
    """The terrain of open ground: the map's default, else the first hex terrain of the table (clear/open)."""
    if game.map.default_terrain:
        return game.map.default_terrain
    return next((t for t, tt in game.terrain.items() if tt.kind is m.TerrainKind.HEX), None)


def open_board(game: m.Game, terrain: str | None = None, size: int = 9) -> mk.Board:
    """A ``size`` x ``size`` board of the game's grid kind, every cell of ``terrain`` (open ground by default)."""
    grid = replace(game.map.grid.grid(), columns=size, rows=size)
    return mk.Board(grid, default=terrain or open_terrain(game))


def _states(ctx: Context, acc: Acc) -> set[str]:
    """The states an example's ``given`` sets: ``weather``/``ground``, the turn's weather, ``in_supply``,
    ``movement`` (mode), ``states`` (a list of further words), ``bridge`` (``interdicted``)."""
    g = acc.ex.given
    st: set[str] = set()
    for key in ("weather", "ground", "bridge"):
        if acc.has(key):
            st.add(str(g[key]))
    if acc.has("turn"):
        t = next((t for t in ctx.game.turns.turns if t.number == int(g["turn"])), None)
        if t is not None and t.weather:
            st.add(str(t.weather))
    if acc.has("in_supply"):
        st.add("in-supply" if g["in_supply"] else "out-of-supply")
    if acc.has("states"):
        st.update(str(s) for s in g["states"])
    return st


def _max_hexes(
    ctx: Context,
    mv: mk.Mover,
    states: set[str],
    *,
    terrain: str | None = None,
    hexside: str | None = None,
    mode: str | None = None,
) -> int | None:
    """The farthest (in hexes) ``mv`` gets in one move on an open board (all ``terrain``, or a ``hexside`` feature
    on every side): Dijkstra with the unit's allowance and the per-move limits."""
    mp = mk.allowance(ctx.game, mv, states, mode)
    if mp is None:
        return None
    board = open_board(ctx.game, terrain)
    if hexside is not None:
        board.sides = {s: {hexside} for s in board.grid.sides()}
    start = kz.middle(board.grid)
    reach = mk.reachable(ctx.game, board, mv, start, mp, states)
    return max(board.grid.distance(start, c) for c in reach)


def _movers(ctx: Context, acc: Acc) -> list[mk.Mover]:
    """The movers an example names: a ``unit``/``units``, ``unit_types``, ``unit_class``/``mobility``."""
    g, game = acc.ex.given, ctx.game
    out: list[mk.Mover] = []
    for key in ("unit", "units"):
        if acc.has(key):
            ids = g[key] if isinstance(g[key], list) else [g[key]]
            out += [mk.mover(game, ctx.units[str(u)]) for u in ids if str(u) in ctx.units]
            acc.use(*(f"unit:{u}" for u in ids if str(u) in ctx.units))
    if acc.has("unit_types"):
        out += [mk.mover(game, unit_type=str(t)) for t in g["unit_types"]]
    if acc.has("unit_class"):
        out.append(mk.mover(game, unit_type=str(g["unit_class"])))
    if acc.has("mobility"):
        out.append(mk.Mover(str(g["mobility"])))
    return out


def _side_of(ctx: Context, acc: Acc) -> str | None:
    for mv in _movers(ctx, acc):
        if mv.side:
            return mv.side
    return str(acc.ex.given["side"]) if acc.has("side") else None


# ============================================================================================== paths
def _path_facts(ctx: Context, path: Sequence[str]) -> dict[str, Any]:
    cells = [ctx.cell(h) for h in path]
    if any(c is None for c in cells):
        raise ValueError(f"path {path} leaves the map")
    cs = [c for c in cells if c is not None]
    adjacent = all(ctx.grid.adjacent(cs[i - 1], cs[i]) for i in range(1, len(cs)))
    rivers = sum(ctx.river_between(cs[i - 1], cs[i]) for i in range(1, len(cs)))
    entered: dict[str, int] = defaultdict(int)
    for label in path[1:]:
        for t in ctx.terrain_ids(label) or ():
            entered[t] += 1
    return {"adjacent": adjacent, "rivers": rivers, "entered": entered, "hexes": len(path) - 1, "cells": cs}


def _verdict(ctx: Context, acc: Acc, cells: list[Cell]) -> mk.Verdict:
    """The movement kit's verdict on a path: the unit's allowance from the states the example and the map give
    (in supply when it starts on a friendly supply source, 5.1-style; the turn's weather), the enemy hexes the
    example names (``enemy_hexes``; unknown when it names none)."""
    game = ctx.game
    movers = _movers(ctx, acc)
    if not movers:
        return mk.Verdict(None, "the example names no unit")
    mv = movers[0]
    states = _states(ctx, acc)
    start = ctx.game.map.hexes.get(ctx.grid.label(cells[0]))
    if not states & {"in-supply", "out-of-supply"} and start is not None and start.supply == mv.side:
        states.add("in-supply")
    enemy = None
    if acc.has("enemy_hexes"):
        enemy = [c for h in acc.ex.given["enemy_hexes"] if (c := ctx.cell(h)) is not None]
    mode = str(acc.ex.given["movement"]) if acc.has("movement") else None
    board = mk.Board.of(game)
    acc.use(*movement_sites(game))
    v = mk.path_verdict(game, board, mv, cells, states, mode=mode, enemy=enemy)
    if v.legal is None and not states & {"in-supply", "out-of-supply"}:
        both = {
            mk.path_verdict(game, board, mv, cells, states | {s}, mode=mode, enemy=enemy).legal
            for s in ("in-supply", "out-of-supply")
        }
        if len(both) == 1 and None not in both:
            return mk.Verdict(both.pop(), "the same in and out of supply")
        return mk.Verdict(None, f"{v.why}; the unit's supply state is not known")
    return v


@handles(K.MOVEMENT)
def ex_movement(ctx: Context, acc: Acc) -> None:
    st = acc.ex.states
    acc.given("unit")
    acc.given("units")
    paths = acc.given("paths")
    path = acc.given("path")
    if paths is None and path is not None:
        paths = [path]
    if not paths:
        return
    single = path is not None and acc.given("paths") is None
    facts = [_path_facts(ctx, [str(h) for h in p]) for p in paths]
    for p in paths:
        for h in p[1:]:
            acc.use(*hex_sites(ctx, str(h)))

    def pick(values: list[Any]) -> Any:
        return values[0] if single else values

    acc.check(
        "rivers_crossed",
        pick([f["rivers"] for f in facts]),
        "river hexsides in map.hexsides",
        partial_map=ctx.partial_map,
    )
    for key in st:
        mt = re.fullmatch(r"(\w+)_entered", key)
        tid = None
        if mt:
            stem = mt.group(1)
            tid = stem if stem in ctx.game.terrain else stem[:-1] if stem[:-1] in ctx.game.terrain else None
        if tid is not None:
            acc.check(
                key,
                pick([f["entered"].get(tid, 0) for f in facts]),
                "terrain of the hexes entered",
                partial_map=ctx.partial_map,
            )
    acc.check("hexes", pick([f["hexes"] for f in facts]))
    if "legal" in st:
        stated = st["legal"] if isinstance(st["legal"], list) else [st["legal"]]
        for k, f in enumerate(facts):
            key = "legal" if single else f"legal[{k}]"
            s = stated[k] if k < len(stated) else None
            if not f["adjacent"]:
                acc.check_value(key, s, False, "the path jumps between hexes that are not adjacent")
                continue
            v = _verdict(ctx, acc, f["cells"])
            if v.legal is None:
                acc.skip(key, f"the path is continuous; {v.why}", gap(v.why))
            else:
                acc.check_value(key, s, v.legal, f"rules.movement: {v.why}")
        if not single and all(f"legal[{k}]" not in acc.unchecked for k in range(len(facts))):
            acc.unchecked.pop("legal", None)


# ============================================================================================== rule claims
_CAPS = re.compile(r"max_(\w+)")


def _zoc_step_costs(ctx: Context) -> tuple[Fraction, Fraction] | None:
    """(extra MPs to enter, extra MPs to leave) an enemy zone, measured on an open board: an enemy unit in the
    middle, a unit stepping in from two hexes away and then out again."""
    game = ctx.game
    if game.rules.zoc is None:
        return None
    board = open_board(game)
    g = board.grid
    enemy = kz.middle(g)
    ezoc = kz.controlled(g, game.rules.zoc, [enemy], hexsides=board.sides)
    inside = g.neighbours(enemy)[0]
    outside = next(n for n in g.neighbours(inside) if n not in ezoc and n != enemy)
    mv = mk.Mover(game.game.mobility_classes[0])
    plain_in = mk.step_cost(game, board, mv, outside, inside)
    plain_out = mk.step_cost(game, board, mv, inside, outside)
    zoc_in = mk.step_cost(game, board, mv, outside, inside, ezoc=ezoc, enemy={enemy})
    zoc_out = mk.step_cost(game, board, mv, inside, outside, ezoc=ezoc, enemy={enemy})
    vals = (plain_in, plain_out, zoc_in, zoc_out)
    if not all(isinstance(v, Fraction) for v in vals):
        return None
    return zoc_in - plain_in, zoc_out - plain_out  # type: ignore[operator]


def _path_rate(ctx: Context, kind: str) -> Fraction | None:
    """MPs per hex along a path terrain (road, trail) between two hexes of open ground, from a path of three
    hexes on the open board."""
    game = ctx.game
    board = open_board(
        game,
        next((t for t, tt in game.terrain.items() if tt.kind is m.TerrainKind.HEX and t != open_terrain(game)), None),
    )
    g = board.grid
    a = kz.middle(g)
    b = g.neighbours(a)[0]
    c = next(n for n in g.neighbours(b) if n != a and not g.adjacent(n, a))
    board.paths = {g.side(a, b): {kind}, g.side(b, c): {kind}}
    mv = mk.Mover(game.game.mobility_classes[0])
    cost = mk.path_cost(game, board, mv, [a, b, c])
    return cost / 2 if isinstance(cost, Fraction) else None


def _free_zone_cost(ctx: Context, side: str | None) -> Fraction | None:
    """MPs to move two hexes inside a free zone (a KG's range) on the open board, with a marker in the middle."""
    game = ctx.game
    zones = game.rules.movement.free_zones if game.rules.movement else []
    if not zones:
        return None
    z = zones[0]
    board = open_board(game)
    g = board.grid
    mid = kz.middle(g)
    free = mk.free_cells(game, board, [mid], side or z.side, set(), set())
    a = g.neighbours(mid)[0]
    b = next(n for n in g.neighbours(mid) if g.adjacent(n, a))
    cost = mk.path_cost(game, board, mk.Mover(game.game.mobility_classes[-1], side=z.side), [a, mid, b], free=free)
    return cost if isinstance(cost, Fraction) else None


@handles(K.MOVEMENT, K.CLAIM, K.STRENGTH)
@records(movement_sites)
def ex_movement_claims(ctx: Context, acc: Acc) -> None:
    """Claims about movement and zones of control in general, recomputed on an open board or read from the
    rules fields the engine moves with."""
    game, st, g = ctx.game, acc.ex.states, acc.ex.given
    mr = game.rules.movement
    zr = game.rules.zoc
    if mr is None and zr is None:
        return
    states = _states(ctx, acc)
    movers = _movers(ctx, acc)
    kinds = acc.ex.kind

    # --- allowances ---------------------------------------------------------------------------------------
    if kinds is K.MOVEMENT and movers:
        for key in ("mf", "ma"):
            if key in st:
                vals = {mk.allowance(game, mv, states) for mv in movers}
                acc.check(key, vals.pop() if len(vals) == 1 else None, "rules.movement.allowances", how="data")
    if "squares" in st or ("move" in st and kinds is K.STRENGTH and acc.has("in_supply")):
        key = "squares" if "squares" in st else "move"
        ms = movers or [mk.mover(game, unit_type=str(t)) for t in m.UnitType]
        far = {_max_hexes(ctx, mv, states) for mv in ms}
        acc.check(
            key,
            max(v for v in far if v is not None) if far and None not in far else None,
            "farthest cell reached on open ground (Dijkstra with the allowance)",
        )
    if "other_units" in st and acc.has("unit_types"):
        listed = {str(t) for t in g["unit_types"]}
        others = [mk.mover(game, unit_type=str(t)) for t in m.UnitType if str(t) not in listed]
        far = {_max_hexes(ctx, mv, states) for mv in others}
        acc.check(
            "other_units",
            far.pop() if len(far) == 1 else None,
            "farthest cell reached on open ground by the other unit types",
        )
    for key in st:
        mt = _CAPS.fullmatch(key)
        if not mt or kinds is not K.MOVEMENT or not movers:
            continue
        stem = mt.group(1)
        tid = stem if stem in game.terrain else stem[:-1] if stem[:-1] in game.terrain else None
        if tid is None:
            continue
        hexside = game.terrain[tid].kind is m.TerrainKind.HEXSIDE
        most = {
            _max_hexes(ctx, mv, states, terrain=None if hexside else tid, hexside=tid if hexside else None)
            for mv in movers
        }
        if None in most:
            acc.skip(key, "an allowance or a cost is not in the data")
        else:
            acc.check(
                key,
                min(v for v in most if v is not None),
                f"most {tid} a move can take on a board of it (the tightest of the units named)",
            )

    # --- extended movement and out of supply ---------------------------------------------------------------
    if "bonus_mp" in st and mr is not None and mr.bonuses:
        acc.check("bonus_mp", mk.bonus(game, mr.bonuses[0].mode, set()), "rules.movement.bonuses", how="data")
    if {"if_attacking", "if_not"} & set(st) and mr is not None and mr.bonuses:
        mv = mk.Mover(game.game.mobility_classes[0], printed_ma=Fraction(6))
        oos = {"out-of-supply"}
        acc.given("ma")
        acc.given("extended_bonus")
        acc.check("if_attacking", mk.allowance(game, mv, oos), "allowance out of supply", how="data")
        acc.check(
            "if_not",
            mk.allowance(game, mv, oos, mr.bonuses[0].mode),
            "allowance out of supply on extended movement (allowance + bonus)",
        )

    # --- terrain costs ---------------------------------------------------------------------------------------
    if acc.has("terrain") and str(g["terrain"]) in game.terrain:
        tid = str(g["terrain"])
        board = open_board(game)
        a = kz.middle(board.grid)
        b = board.grid.neighbours(a)[0]
        board.base[b] = tid
        for cls in game.game.mobility_classes:
            key = cls.replace("-", "_")
            if key in st:
                acc.check(
                    key,
                    _frac(mk.step_cost(game, board, mk.Mover(cls), a, b)),
                    f"cost of a step from open ground into {tid}",
                )
    if "extra_mp" in st and acc.has("bridge"):
        side = next(
            (
                t
                for t, tt in game.terrain.items()
                if tt.kind is m.TerrainKind.HEXSIDE
                and mr is not None
                and any(ch.terrain == t and str(g["bridge"]) in ch.when for ch in mr.changes)
            ),
            None,
        )
        if side is not None:
            diffs = set()
            for cls in game.game.mobility_classes:
                on = mk.crossing_cost(game, side, cls, {str(g["bridge"])})
                off = mk.crossing_cost(game, side, cls, set())
                diffs.add(on - off if isinstance(on, Fraction) and isinstance(off, Fraction) else None)
            acc.check("extra_mp", diffs.pop() if len(diffs) == 1 else None, f"{side} crossing cost when {g['bridge']}")
    rolls = mr.crossing_rolls if mr is not None else []
    if rolls and acc.ex.given.get("table") == rolls[0].table:
        acc.given("table")
        roll = rolls[0]
        if "extra_mf" in st:
            vals = {
                _frac(mk.crossing_cost(game, f, c, {"optional"}))
                for f in roll.hexsides
                for c in game.game.mobility_classes
            }
            acc.check("extra_mf", vals.pop() if len(vals) == 1 else None, "crossing cost under the optional rule")
        if "die_modifier" in st:
            mods = set(roll.die_modifier.values())
            acc.check(
                "die_modifier",
                mods.pop() if len(mods) == 1 else None,
                "rules.movement.crossing_rolls.die_modifier",
                how="data",
            )
        if "free_crossing_cost" in st:
            vals = {
                _frac(mk.crossing_cost(game, f, c, {s}))
                for f in roll.hexsides
                for c in game.game.mobility_classes
                for s in roll.free_when
            }
            vals |= {
                _frac(mk.crossing_cost(game, f, c, set(), features_either_side=[t]))
                for f in roll.hexsides
                for c in game.game.mobility_classes
                for t in roll.free_at
            }
            acc.check(
                "free_crossing_cost",
                vals.pop() if len(vals) == 1 else None,
                "crossing cost in the free states and at the free features",
            )
    if "road" in st or "trail" in st:
        for key in ("road", "trail"):
            if key in st and key in game.terrain and game.terrain[key].kind is m.TerrainKind.PATH:
                acc.check(key, _path_rate(ctx, key), f"MPs per hex along a {key} through other terrain")
    if "river_cost_paid" in st and mr is not None and acc.has("engineers"):
        bridged = {r for b, rs in mr.cancels.items() for r in rs}
        rivers = [t for t, tt in game.terrain.items() if tt.kind is m.TerrainKind.HEXSIDE and "river" in t]
        if rivers:
            acc.check(
                "river_cost_paid",
                not all(r in bridged for r in rivers),
                "rules.movement.cancels: a bridge cancels the river's cost",
                how="data",
            )

    # --- crossings (major rivers) ----------------------------------------------------------------------------
    if mr is not None and mr.crossings:
        for key in st:
            mt = re.fullmatch(r"(max_hexes|crossing_cost)_(\w+)", key)
            if not mt or kinds is not K.MOVEMENT:
                continue
            who = mt.group(2)
            rule = _crossing_for(game, mr, who)
            if rule is None:
                continue
            acc.check(
                key,
                rule.max_hexes if mt.group(1) == "max_hexes" else rule.extra,
                "rules.movement.crossings",
                how="data",
            )

    # --- free zones (KG) ------------------------------------------------------------------------------------
    for key in ("mp_inside_range",):
        if key in st and mr is not None and mr.free_zones:
            acc.check(key, _free_zone_cost(ctx, _side_of(ctx, acc)), "two hexes moved inside a free zone")
    if "exception" in st and mr is not None and any(z.negated_by_ezoc for z in mr.free_zones):
        acc.skip(
            "exception",
            "where the bonus does not apply depends on where the enemy units stand: the rules' exception (an enemy "
            "zone reaching any hex of the range cancels all of it) and one limited to the hexes under an enemy zone "
            "agree whenever no enemy zone reaches the range, and the example does not say where the enemy units are",
            "book",
        )

    # --- mobile assaults ------------------------------------------------------------------------------------
    ma = mr.mobile_assault if mr is not None else None
    if ma is not None:
        acc.check("base_mp", ma.cost, "rules.movement.mobile_assault.cost", how="data")
        acc.check("road_rate_into_target", ma.road_rate, "rules.movement.mobile_assault.road_rate", how="data")
        # "MA 5: one mobile assault or an Assault marker, not both; MA 6: two actions" -- how many 3-MP actions
        # (the cheapest mobile assault) fit in each side's MA
        cheapest_ma = mobile_assault_min(game)
        for s in ctx.sides:
            stated = st.get(s)
            ma_key = next((k for k in g if k.startswith(f"{s}_") and re.search(r"(^|_)ma(_|$)", k)), None)
            if not isinstance(stated, str) or ma_key is None or cheapest_ma is None:
                continue
            words = re.match(r"(one|two|three|four)\b", stated.strip().lower())
            if words is None:
                continue
            acc.given(ma_key)
            acc.given("mobile_assault_min_cost")
            acc.given("assault_marker_cost")
            actions = (num(g[ma_key]) or 0) // cheapest_ma
            n = ["one", "two", "three", "four"].index(words.group(1)) + 1
            acc.check_value(s, n, actions, f"MA {g[ma_key]} // the cheapest mobile assault ({cheapest_ma} MP)")
        if "remaining_mp" in st and acc.has("ma") and acc.has("first_cost"):
            left = (num(g["ma"]) or 0) - (num(g["first_cost"]) or 0)
            acc.check("remaining_mp", left, "MA less the first assault", how="arithmetic")
            cheapest = mobile_assault_min(game)
            acc.check(
                "second_assault",
                None if cheapest is None else left >= cheapest,
                "MPs left against the cheapest mobile assault (open ground)",
            )

    # --- zones of control -----------------------------------------------------------------------------------
    if zr is not None:
        if "zoc_hexes" in st:
            acc.check("zoc_hexes", kz.zone_size(open_board(game).grid, zr), "hexes one unit controls in the open")
        if {"enter_extra_mp", "exit_extra_mp", "exit_cost_each"} & set(st):
            d = _zoc_step_costs(ctx)
            acc.check("enter_extra_mp", d and d[0], "a step into an enemy zone less the same step without it")
            acc.check("exit_extra_mp", d and d[1], "a step out of an enemy zone less the same step without it")
            acc.check("exit_cost_each", d and d[1], "a step out of an enemy zone less the same step without it")
        if "infantry_second_hex_legal" in st and acc.has("second_hex_adjacent_to_enemy") and acc.has("movement"):
            board = open_board(game)
            gr = board.grid
            enemy = kz.middle(gr)
            ring1 = gr.neighbours(enemy)
            a = ring1[0]
            b = next(n for n in gr.neighbours(a) if n != enemy and n not in ring1)
            c = next(n for n in gr.neighbours(b) if n not in ring1 and n != a and gr.distance(n, enemy) == 3)
            path = [c, b, a] if g["second_hex_adjacent_to_enemy"] else [c, b]
            inf = mk.mover(game, unit_type="infantry")
            v = mk.path_verdict(game, board, inf, path, set(), mode=str(g["movement"]), enemy=[enemy], mp=Fraction(100))
            acc.check("infantry_second_hex_legal", v.legal, f"rules.zoc: {v.why}")


_WHY: dict[str, tuple[str, str]] = {
    "to": ("where the other units stand at that moment (and mostly where the unit starts) is not stated: the hex comes "
    "from the example itself (a partial map's geometry reconstructed from these same moves), so nothing "
    "independent recomputes it", "book"),
    "hexes": ("the units' start hexes and the other units' positions at that moment are not stated: the hexes come "
    "from the example itself (a partial map's geometry reconstructed from these same moves)", "book"),
    "exception": ("a statement in words (where the bonus does not apply), no value to recompute", "engine"),
    "legal": (
        "the move is not a path on the map (it leaves the map and comes back): not a move the movement kit models",
        "engine",
    ),
    "disrupted_if_hexes_over": ("what moving does to the unit afterwards (disruption) is not modelled", "engine"),
    "total_mp": ("the total includes hexes driven that only the diagram shows", "book"),
    "diagram_mp_labels": ("labels of a diagram whose units and paths are not in the text", "book"),
}
"""Why a movement example's key stays unchecked when no procedure above could recompute it (the reason and its
category)."""


@handles(K.MOVEMENT, K.CLAIM)
def ex_movement_unchecked(ctx: Context, acc: Acc) -> None:
    """Give the keys no movement procedure could recompute their reason (run after the others)."""
    for key, value in acc.ex.states.items():
        if key in acc.done:
            continue
        if acc.ex.kind is K.MOVEMENT and key in _WHY:
            acc.skip(key, *_WHY[key])
            if key == "to":
                acc.given("from")  # the start of the move whose end stays unchecked: an input of that claim alone
        elif isinstance(value, str) and re.search(r"\bMA\b", value) and ctx.game.rules.zoc is not None:
            acc.skip(
                key, "a cost in words (a share of the unit's movement allowance): no unit, so no number to recompute"
            )


def _crossing_for(game: m.Game, mr: m.MovementRules, who: str) -> m.CrossingLimit | None:
    """The crossing rule for ``cavalry`` (a unit type) or ``other_non_mechanized`` (the class's default rule)."""
    who = who.replace("_", "-")
    if who.startswith("other-"):
        cls = who[len("other-") :]
        return next((c for c in mr.crossings if cls in c.mobility and not c.unit_types), None)
    return next((c for c in mr.crossings if who in {str(t) for t in c.unit_types}), None)


def mobile_assault_min(game: m.Game) -> Fraction | None:
    """The cheapest mobile assault: into open ground."""
    vals = [mk.mobile_assault_cost(game, mk.Mover(c), open_terrain(game)) for c in game.game.mobility_classes]
    known = [v for v in vals if v is not None]
    return min(known) if known else None


def _frac(x: mk.Cost) -> Fraction | None:
    return x if isinstance(x, Fraction) else None
