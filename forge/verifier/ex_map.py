"""Map examples: hexes and names (retreats, supply lines and victory points are in :mod:`.ex_rules`)."""

from __future__ import annotations

from .. import model as m
from .core import Acc, Context, handles
from .crosscheck import check_places

K = m.ExampleKind


@handles(K.HEX)
def ex_hex(ctx: Context, acc: Acc) -> None:
    """A hex and its facts: the place a name stands for and the name of a hex, both ways (with a multi-hex place
    of ``map.places``), a unit's arrival or presence on a turn (:func:`.crosscheck.check_places`), the hex's
    terrain and river hexsides, distances, and the setup hexes of units."""
    g, st = acc.ex.given, acc.ex.states
    if acc.has("hex") and ctx.cell(str(g["hex"])) is None:
        raise ValueError(f"{g['hex']!r} is not a hex on the map")
    check_places(ctx, acc)
    if acc.has("hex"):
        label = str(g["hex"])
        c = ctx.cell(label)
        assert c is not None
        info = ctx.game.map.hexes.get(label)
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
