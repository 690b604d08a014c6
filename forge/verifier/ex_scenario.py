"""What a scenario puts on the map and what comes back later: markers on the map at the start, features the
scenario gives to hexes (a side's fortifications), and units that return a fixed number of turns after they are
eliminated.

Inputs read from ``given`` (docs/FORMAT.md, "Examples and claims"):

* ``scenario_markers: {states key: {scenario, marker}}`` -- ``scenarios[].markers`` (at most the marker's count);
* ``hex`` examples with ``scenario`` and ``hexes``: a states key that is a terrain id (``fortification``) states the
  side whose feature the scenario puts in those hexes (``scenarios[].features``), and ``count`` the number of hexes
  it gives that side's feature;
* ``units`` with a ``turns_later`` state -- the units' ``returns_after``.
"""

from __future__ import annotations

from typing import Any

from .. import model as m
from .core import Acc, Context, handles, show
from .ex_modifiers import check_unit_values

K = m.ExampleKind


def _scenario(ctx: Context, sid: Any) -> m.Scenario:
    sc = next((s for s in ctx.game.scenarios if s.id == str(sid)), None)
    if sc is None:
        raise KeyError(f"no scenario {sid!r}")
    return sc


@handles(K.CLAIM)
def ex_scenario_markers(ctx: Context, acc: Acc) -> None:
    """How many counters of a marker a scenario puts on the map at the start."""
    spec = acc.given("scenario_markers")
    if not isinstance(spec, dict):
        return
    markers = {mk.id: mk for mk in ctx.game.markers}
    for key, q in spec.items():
        sc = _scenario(ctx, q["scenario"])
        mid = str(q["marker"])
        if mid not in markers:
            raise KeyError(f"no marker {mid!r}")
        acc.use(f"path:scenarios[{sc.id}].markers")
        n = sc.markers.get(mid)
        count = markers[mid].count
        if isinstance(n, int) and isinstance(count, int) and n > count:
            acc.invalid.append(f"scenario {sc.id} puts {n} {mid} markers on the map; the game has only {count}")
        known = n if isinstance(n, int) else None
        acc.check(
            str(key),
            known,
            f"scenarios[{sc.id}].markers.{mid} = {show(n)}" if known is not None else f"{sc.id} gives no {mid} count",
            how="data",
        )


@handles(K.HEX)
def ex_scenario_features(ctx: Context, acc: Acc) -> None:
    """Whose feature a scenario puts in the example's hexes, and in how many hexes."""
    st = acc.ex.states
    if not acc.has("scenario") or not acc.has("hexes"):
        return
    sc = _scenario(ctx, acc.given("scenario"))
    hexes = [str(h) for h in acc.given("hexes") or []]
    feats = [k for k in st if k in ctx.game.terrain]
    acc.use(f"path:scenarios[{sc.id}].features")
    for f in sc.features:
        for h in f.hexes:
            if ctx.cell(h) is None:
                raise ValueError(f"scenario {sc.id}: {h!r} is not a hex on the map")
    for fid in feats:
        entries = [f for f in sc.features if f.feature == fid]
        sides = {str(f.side) for f in entries for h in hexes if h in f.hexes}
        bare = [h for h in hexes if not any(h in f.hexes for f in entries)]
        if bare:
            got: Any = f"no {fid} in {', '.join(bare)}"
        else:
            got = sides.pop() if len(sides) == 1 else sorted(sides)
        acc.check(fid, got, f"scenarios[{sc.id}].features: {fid} in {', '.join(hexes)}", how="data")
    if "count" in st and len(feats) == 1:
        fid = feats[0]
        side = st[fid]
        cells = {h for f in sc.features if f.feature == fid and str(f.side) == str(side) for h in f.hexes}
        acc.check("count", len(cells), f"hexes with a {side} {fid} in scenarios[{sc.id}].features", how="data")


@handles(K.CLAIM)
def ex_unit_returns(ctx: Context, acc: Acc) -> None:
    """How many turns after its elimination a unit comes back (``units[].returns_after``)."""
    key = "turns_later"
    if key not in acc.ex.states or not acc.has("units"):
        return
    check_unit_values(
        ctx, acc, key, lambda u: u.returns_after, ("returns_after",), "units' returns_after", none="never"
    )


# ================================================================================ the turn track and arrivals
@handles(K.CLAIM)
def ex_track(ctx: Context, acc: Acc) -> None:
    """Facts of the turn track and the order of arrival, read from the data's other fields: ``replacements`` on a
    ``turn`` (for a ``side``: ``turns.turns[].replacements``), and a ``unit``'s ``entry_turn`` and ``entry_hex``
    (``units[].entry``; the hex stated as a label or by the name the map gives it)."""
    st = acc.ex.states
    if "replacements" in st and acc.has("turn"):
        _replacements(ctx, acc)
    if {"entry_turn", "entry_hex"} & set(st) and acc.has("unit"):
        _entry(ctx, acc)


def _replacements(ctx: Context, acc: Acc) -> None:
    n = acc.given("turn")
    turns = ctx.game.turns.turns
    t = next((x for x in turns if x.number == n), None)
    if t is None:
        raise KeyError(f"turn {n!r} is not on the turn track")
    if not any(x.replacements for x in turns):
        acc.skip("replacements", "the turn track records no replacements on any turn (turns.turns[].replacements)")
        return
    acc.use(f"path:turns.turns[{t.number}].replacements")
    side = acc.given("side")
    got: Any
    if side is not None:
        got = t.replacements.get(str(side), 0)
        where = f"turns.turns[{t.number}].replacements.{side}"
    else:
        got = dict(t.replacements)
        where = f"turns.turns[{t.number}].replacements"
    if isinstance(got, m.Unknown) or (isinstance(got, dict) and any(isinstance(v, m.Unknown) for v in got.values())):
        acc.skip("replacements", f"{where} is unknown", "book")
        return
    acc.check("replacements", got, where, how="data")


def _entry(ctx: Context, acc: Acc) -> None:
    from .crosscheck import _canon, place_hexes

    uid = str(acc.given("unit"))
    u = ctx.units.get(uid)
    if u is None:
        raise KeyError(f"no unit {uid!r}")
    acc.use(f"unit:{u.id}")
    st = acc.ex.states
    if u.entry is None:
        for key in ("entry_turn", "entry_hex"):
            if key in st:
                acc.check(key, f"sets up ({u.setup})" if u.setup else "no entry", f"units[{u.id}]", how="data")
        return
    if "entry_turn" in st:
        if isinstance(u.entry.turn, m.Unknown):
            acc.skip("entry_turn", f"units[{u.id}].entry.turn is unknown", "book")
        else:
            acc.check("entry_turn", u.entry.turn, f"units[{u.id}].entry.turn", how="data")
    if "entry_hex" in st:
        if u.entry.hex is None:
            acc.skip("entry_hex", f"units[{u.id}].entry gives no hex", "book")
            return
        label = _canon(ctx, u.entry.hex) or u.entry.hex
        stated = st["entry_hex"]
        named = place_hexes(ctx, str(stated)) if _canon(ctx, stated) is None else set()
        acc.use(f"hex:{label}")
        got = stated if label in named else label
        acc.check(
            "entry_hex",
            got,
            f"units[{u.id}].entry.hex" + (f" ({show(stated)} on the map)" if named else ""),
            how="data",
        )
