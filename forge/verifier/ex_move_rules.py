"""What a move does beyond its cost: off-map links (units that leave the map at one edge hex and come back at
another) and the disruption a move leaves a unit in.

Inputs read from ``given`` (docs/FORMAT.md, "Examples and claims"):

* ``movement`` examples with ``from``, ``to`` (one hex or a list), ``movement`` (the mode) and ``side``, stating
  ``legal``: the move through :attr:`forge.model.MovementRules.off_map`;
* ``movement`` examples with ``unit`` (and ``movement``, the mode), stating ``disrupted_if_hexes_over``: the first
  entry of :attr:`forge.model.MovementRules.disrupts` that covers the unit and counts hexes.
"""

from __future__ import annotations

from typing import Any

from .. import model as m
from ..rules.kit import stacking as sk
from .core import Acc, Context, handles

K = m.ExampleKind

__all__ = ["covers"]


def covers(sel: m.UnitSelector, unit: m.Unit) -> bool:
    """Does the selector cover the unit?  A selector that names no units, types or sizes covers every unit (of its
    side)."""
    if sel.side is not None and unit.side != sel.side:
        return False
    if not sel.units and not sel.types and not sel.sizes:
        return True
    return sk.matches(sel, unit)


def _as_list(v: Any) -> list[str]:
    return [str(x) for x in v] if isinstance(v, list) else [str(v)]


def _on_edge(ctx: Context, label: str) -> bool:
    c = ctx.cell(label)
    if c is None:
        raise ValueError(f"{label!r} is not a hex on the map")
    return any(not ctx.grid.contains(n) for n in ctx.grid.all_neighbours(c))


@handles(K.MOVEMENT)
def ex_off_map(ctx: Context, acc: Acc) -> None:
    """A move that leaves the map and comes back: legal when an off-map link of the mode and side joins the two
    hexes (either way round when the link says so) and both are map-edge hexes."""
    if "legal" not in acc.ex.states or not acc.has("movement") or not acc.has("from") or not acc.has("to"):
        return
    mr = ctx.game.rules.movement
    mode, side = str(acc.given("movement")), acc.given("side")
    frm, tos = str(acc.given("from")), _as_list(acc.given("to"))
    acc.use("path:rules.movement.off_map")
    of_mode = [lk for lk in (mr.off_map if mr else []) if lk.mode == mode]
    if not any(frm in lk.exits or frm in lk.returns for lk in of_mode):
        return  # a move on the map (the movement kit's), not one through an off-map link
    links = [lk for lk in of_mode if lk.side is None or lk.side == side]
    why: list[str] = []
    for to in tos:
        joined = [
            lk
            for lk in links
            if (frm in lk.exits and to in lk.returns) or (lk.both_ways and frm in lk.returns and to in lk.exits)
        ]
        if not joined:
            why.append(f"no off-map {mode} link for {side or 'either side'} from {frm} to {to}")
        for h in (frm, to):
            if not _on_edge(ctx, h):
                why.append(f"{h} is not on the map edge")
    legal = not why
    note = (
        "; ".join(dict.fromkeys(why))
        if why
        else f"rules.movement.off_map: {mode} from {frm} off the map and back at {', '.join(tos)}"
    )
    acc.check("legal", legal, note, how="data")


@handles(K.MOVEMENT)
def ex_move_disruption(ctx: Context, acc: Acc) -> None:
    """How many hexes a unit may move before the move disrupts it (``rules.movement.disrupts``)."""
    key = "disrupted_if_hexes_over"
    if key not in acc.ex.states or not acc.has("unit"):
        return
    uid = str(acc.given("unit"))
    unit = ctx.units.get(uid)
    if unit is None:
        raise KeyError(f"unit {uid!r} is not in the data")
    mode = acc.given("movement")
    mr = ctx.game.rules.movement
    acc.use(f"path:units[{uid}].type", f"path:units[{uid}].side", "path:rules.movement.disrupts")
    hit = next(
        (
            d
            for d in (mr.disrupts if mr else [])
            if d.over_hexes is not None and (d.mode is None or d.mode == mode) and covers(d, unit)
        ),
        None,
    )
    if hit is None:
        acc.check(
            key, "never", f"no entry of rules.movement.disrupts covers {uid}: moving does not disrupt it", how="data"
        )
    else:
        acc.check(
            key,
            hit.over_hexes,
            f"rules.movement.disrupts ({hit.rule or 'no rule'}): more than {hit.over_hexes} hex(es)"
            + (f" in the {hit.phase}" if hit.phase else ""),
            how="data",
        )


@handles(K.HEX)
def ex_rail_repair(ctx: Context, acc: Acc) -> None:
    """A rail line repaired at once when railheads reach its ends: true only if none of its hexes is one the map
    marks for repair, and the rail net is on the map, which the data describes only where the book cites a hex."""
    if "instant_repair" in acc.ex.states and ctx.game.map.status is not m.MapStatus.COMPLETE:
        acc.skip(
            "instant_repair",
            "whether the line between these hexes needs no repair of its own depends on which of its rail hexes the "
            f"map marks for repair; the map is {ctx.game.map.status.value} and the book prints no rail net",
            "book",
        )
    if "inner_river_ignored" in acc.ex.states:
        acc.skip(
            "inner_river_ignored",
            "the map data holds rivers on hexsides only: a river drawn inside a hex is not modelled, so nothing "
            "recomputes that it is ignored",
        )
