"""Map examples: hexes and names, paths and movement, retreats, supply lines and victory points."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from .. import model as m
from ..rules import combat as cb
from .core import Acc, Context, handles

K = m.ExampleKind


@handles(K.HEX)
def ex_hex(ctx: Context, acc: Acc) -> None:
    g, st = acc.ex.given, acc.ex.states
    if acc.has("name") and "hex" in st:
        found = sorted(
            h for h, info in ctx.game.map.hexes.items() if info.name and info.name.lower() == str(g["name"]).lower()
        )
        acc.check("hex", found[0] if len(found) == 1 else (found or None), "map.hexes by name")
    if acc.has("hex"):
        label = str(g["hex"])
        c = ctx.cell(label)
        if c is None:
            raise ValueError(f"{label!r} is not a hex on the map")
        info = ctx.game.map.hexes.get(label)
        if "name" in st:
            acc.check("name", info.name if info else None, "map.hexes")
        if "terrain" in st:
            t = ctx.terrain_ids(label)
            acc.check(
                "terrain", (info.terrain if info and info.terrain else ctx.game.map.default_terrain) if t else None
            )
        for key in ("river_hexsides", "rivers"):
            if key in st:
                n = sum(1 for nb in ctx.grid.all_neighbours(c) if ctx.river_between(c, nb))
                acc.check(key, n, "hexsides of the hex with a river in map.hexsides", partial_map=ctx.partial_map)
    if acc.has("from") and acc.has("to"):
        a, b = ctx.cell(g["from"]), ctx.cell(g["to"])
        if a is None or b is None:
            raise ValueError("from/to is not a hex on the map")
        acc.check("distance", ctx.grid.distance(a, b))
        acc.check("adjacent", ctx.grid.adjacent(a, b))
    if acc.has("units") and "hexes" in st:
        acc.check("hexes", [ctx.position(str(u)) for u in g["units"]], "the units' setup hexes")


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
    return {"adjacent": adjacent, "rivers": rivers, "entered": entered, "hexes": len(path) - 1}


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
        notes = []
        for k, f in enumerate(facts):
            s = stated[k] if k < len(stated) else None
            if not f["adjacent"]:
                acc.check_value(f"legal[{k}]", s, False, "the path jumps between hexes that are not adjacent")
            else:
                notes.append(k)
        if notes:
            acc.skip(
                "legal",
                "the path is continuous; whether the move is allowed depends on movement rules "
                "given in words (terrain movement notes, unit states)",
            )


@handles(K.RETREAT)
def ex_retreat(ctx: Context, acc: Acc) -> None:
    g, st = acc.ex.given, acc.ex.states
    frm = acc.given("from")
    acc.given("side")
    acc.given("turn")
    acc.given("hit_hexes")
    acc.given("unit")
    acc.given("column")
    if frm is None:
        return
    origin = ctx.cell(frm)
    if origin is None:
        raise ValueError(f"{frm!r} is not a hex on the map")
    for key in ("hexes", "normal_hexes", "to"):
        if key not in st:
            continue
        stated = st[key] if isinstance(st[key], list) else [st[key]]
        far = [h for h in stated if (c := ctx.cell(h)) is None or not ctx.grid.adjacent(c, origin)]
        if far:
            acc.mismatches.append(
                (
                    key,
                    stated,
                    f"{', '.join(map(str, far))} not next to {frm}",
                    "a retreat of one hex ends next to where it started",
                )
            )
            acc.done.add(key)
        else:
            acc.skip(
                key,
                f"next to {frm} as the rules need; which neighbours are open depends on where every "
                "unit stands at that moment (zones of control, occupied and already-hit hexes), which the "
                "data does not hold",
            )
    if g.get("column") and "result" in st and ctx.crt is not None:
        grid = cb.grid_of(ctx.crt, acc.given("section"))
        if grid is not None:
            j = cb.column_index(ctx.crt, str(g["column"]))
            cells = {row[j] for row in grid}
            acc.check(
                "result",
                st["result"] if st["result"] in cells else f"one of {sorted(cells)}",
                "no die roll given: the result must be on the column",
            )


@handles(K.SUPPLY)
def ex_supply(ctx: Context, acc: Acc) -> None:
    g = acc.ex.given
    if acc.has("from") and acc.has("supply_source"):
        a, b = ctx.cell(g["from"]), ctx.cell(g["supply_source"])
        if a is not None and b is not None:
            acc.check("distance", ctx.grid.distance(a, b))


@handles(K.VP)
def ex_vp(ctx: Context, acc: Acc) -> None:
    st = acc.ex.states
    v = ctx.game.victory
    side = acc.given("side")
    if "handicap" in st:
        acc.check("handicap", v.handicap.get(str(side), 0) if v and side else None, "victory.handicap")
    if "per_hex" in st and acc.has("hexes"):
        hx = acc.ex.given["hexes"]
        vps = [ctx.game.map.hexes[h].vp if h in ctx.game.map.hexes else None for h in hx]
        if all(isinstance(x, int) for x in vps):
            acc.check("per_hex", vps[0] if len(set(vps)) == 1 else vps, "map.hexes.*.vp")
            for s in ctx.sides:
                if s in st:
                    acc.check(s, sum(v for v in vps if isinstance(v, int)), "the hexes' VP")
