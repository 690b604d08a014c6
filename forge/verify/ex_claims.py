"""Claims and scale: numbers the book states about its own rules and components, compared with the encoded
rules, and the book's arithmetic (days, distances, ground scale) redone."""

from __future__ import annotations

import datetime as _dt
from fractions import Fraction

from .. import model as m
from .core import Acc, Context, handles, num

K = m.ExampleKind


@handles(K.SCALE)
def ex_scale(ctx: Context, acc: Acc) -> None:
    g, st = acc.ex.given, acc.ex.states
    sc = ctx.game.game.scale
    km_per_mile = Fraction(1609344, 1000000)
    turns = acc.given("turns")
    dpt = acc.given("days_per_turn")
    if dpt is None and not isinstance(sc.days_per_turn, m.Unknown):
        dpt = sc.days_per_turn
    if "days_per_turn" in st:
        acc.check(
            "days_per_turn",
            None if isinstance(sc.days_per_turn, m.Unknown) else sc.days_per_turn,
            "game.scale.days_per_turn",
        )
    if "km_per_hex" in st:
        if acc.has("miles_per_hex"):
            acc.check("km_per_hex", num(g["miles_per_hex"]) * km_per_mile, "1 mile = 1.609 km", approx=True)  # type: ignore[operator]
        else:
            acc.check("km_per_hex", None if isinstance(sc.km_per_hex, m.Unknown) else sc.km_per_hex)
    if "miles_per_hex" in st and not isinstance(sc.km_per_hex, m.Unknown):
        acc.check(
            "miles_per_hex",
            Fraction(str(sc.km_per_hex)) / km_per_mile,
            f"game.scale.km_per_hex {sc.km_per_hex} / 1.609",
            approx=True,
        )
    if "days" in st and turns is not None and dpt is not None:
        acc.check("days", Fraction(int(turns)) * Fraction(str(dpt)))
    if "last_turn" in st:
        acc.check("last_turn", len(ctx.game.turns.turns), "turns on the track")
    if "turns" in st and not acc.has("turns"):
        acc.check("turns", len(ctx.game.turns.turns), "turns on the track")
    if "end" in st and acc.has("start") and "days" in st:
        start = _date(str(g["start"]))
        if start is not None:
            end = start + _dt.timedelta(days=int(num(st["days"]) or 0) - 1)
            acc.check("end", end.strftime("%-d %b %Y"), "the last day counted inclusively")
    if "ground_scale" in st and acc.has("km_per_hex") and acc.has("hex_size"):
        from ..units import length

        cm = Fraction(str(length(str(g["hex_size"])))) / Fraction(72) * Fraction(254, 100)
        ratio = Fraction(str(g["km_per_hex"])) * 100000 / cm
        acc.check("ground_scale", f"1:{round(ratio):,}", "km per cell / cell size")
    if "cs_total" in st and acc.has("cs_per_side") and acc.has("sides"):
        acc.check("cs_total", int(g["cs_per_side"]) * int(g["sides"]))


@handles(K.CLAIM)
def ex_claim(ctx: Context, acc: Acc) -> None:
    st = acc.ex.states
    c = ctx.combat
    if "max_defenders" in st:
        acc.check("max_defenders", dict(c.max_defenders) or None, "combat.max_defenders")
    for key in ("max_attackers_per_hexside", "max_attackers_per_square"):
        if key in st:
            v = c.max_attackers_per_hexside
            acc.check(key, None if v is None or isinstance(v, m.Unknown) else v, "combat.max_attackers_per_hexside")
    if "handicap" in st and ctx.game.victory is not None:
        acc.check("handicap", dict(ctx.game.victory.handicap) or None)


def _date(text: str) -> _dt.date | None:
    for fmt in ("%d %b %Y", "%d %B %Y", "%Y-%m-%d"):
        try:
            return _dt.datetime.strptime(text.strip(), fmt).date()
        except ValueError:
            continue
    return None
