"""Claims and scale: numbers the book states about its own rules and components, compared with the encoded
rules, and the book's arithmetic (days, distances, ground scale) redone."""

from __future__ import annotations

import datetime as _dt
import re
from fractions import Fraction

from .. import model as m
from .. import turnlength as TL
from .core import Acc, Context, handles, num, show

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
        acc.use("path:game.scale.days_per_turn")
        acc.check(
            "days_per_turn",
            None if isinstance(sc.days_per_turn, m.Unknown) else sc.days_per_turn,
            "game.scale.days_per_turn",
            how="data",
        )
    if "km_per_hex" in st:
        if acc.has("miles_per_hex"):
            acc.check("km_per_hex", num(g["miles_per_hex"]) * km_per_mile, "1 mile = 1.609 km", approx=True)  # type: ignore[operator]
        else:
            acc.use("path:game.scale.km_per_hex")
            acc.check("km_per_hex", None if isinstance(sc.km_per_hex, m.Unknown) else sc.km_per_hex, how="data")
    if "miles_per_hex" in st and not isinstance(sc.km_per_hex, m.Unknown):
        acc.use("path:game.scale.km_per_hex")
        acc.check(
            "miles_per_hex",
            Fraction(str(sc.km_per_hex)) / km_per_mile,
            f"game.scale.km_per_hex {sc.km_per_hex} / 1.609",
            approx=True,
        )
    if "days" in st and turns is not None and not acc.has("days_per_turn") and TL.turns_that_differ(ctx.game):
        # turns of different lengths: the first `turns` turns of the track, each as long as it says
        _duration(ctx, acc, "days", int(turns))
    elif "days" in st and turns is not None and dpt is not None:
        if not acc.has("days_per_turn"):
            acc.use("path:game.scale.days_per_turn")
        acc.check("days", Fraction(int(turns)) * Fraction(str(dpt)))
    if "duration" in st:
        _duration(ctx, acc, "duration", None if turns is None else int(turns))
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
        acc.check("cs_total", int(g["cs_per_side"]) * int(g["sides"]), how="arithmetic")
    _scale_words(ctx, acc)


def _duration(ctx: Context, acc: Acc, key: str, turns: int | None) -> None:
    """How long the game (or its first ``turns`` turns) lasts, summed turn by turn over the track: a turn's own
    ``length`` or else ``game.scale.days_per_turn``.  ``days`` states a number of days, ``duration`` a number of
    days or a text (``10 days``, ``36 hours``, ``2 days 12 hours``)."""
    track = sorted(ctx.game.turns.turns, key=lambda t: t.number)
    if turns is not None and turns > len(track):
        acc.skip(key, f"the track has {len(track)} turns, not {turns}: no length for the others", "book")
        return
    span = track if turns is None else track[:turns]
    stated = TL.parse(acc.ex.states[key])
    if stated is None:
        acc.skip(key, "not a duration: expected days (a number), or a text such as '10 days' or '36 hours'", "book")
        return
    total = TL.duration(ctx.game, span)
    if total is None:
        acc.skip(key, "the length of a turn is not known (game.scale.days_per_turn or the turn's length)", "book")
        return
    acc.use(*(f"path:turns.turns[{t.number}].length" for t in span if t.length is not None))
    if any(t.length is None for t in span):
        acc.use("path:game.scale.days_per_turn")
    note = f"the {len(span)} turns of the track, each as long as it says"
    # compared in exact hours; the value shown is the book's own form when they agree, else the track's total
    computed = acc.ex.states[key] if stated == total else TL.text(total)
    acc.check_value(key, acc.ex.states[key], computed, note)


def _scale_words(ctx: Context, acc: Acc) -> None:
    """Scale claims that are sizes of the map, ranges of typical games, or round figures: computed where the data
    can, else unchecked with the reason."""
    st, g = acc.ex.states, acc.ex.given
    grid = ctx.game.map.grid
    for key, cells in (("width_km", grid.columns), ("height_km", grid.rows)):
        if key not in st:
            continue
        km = num(g.get("km_per_hex")) if acc.has("km_per_hex") else None
        if km is None:
            acc.skip(key, "no km per cell given", "book")
        elif ctx.game.map.status is not m.MapStatus.COMPLETE:
            acc.skip(
                key,
                f"the data's grid gives {show(cells * km)} km, but the map is {ctx.game.map.status.value}: its grid "
                "size is not the printed map's, so it is no independent check",
                "book",
            )
        else:
            acc.check(key, cells * km, "map.grid cells x km per cell", approx=bool(st.get("approximate")), how="data")
    if "approximate" in st:
        acc.skip("approximate", "a qualifier of the other values ('about'), nothing to compute", "context")
    for key in ("turns_min", "turns_max"):
        if key in st:
            acc.skip(
                key,
                "a range for typical games, not a rule of this one: no scenario in the data fixes a length",
                "context",
            )
    for key in ("men_per_point", "elite_bonus"):
        if key in st:
            acc.skip(key, "a guideline for building an order of battle; the book gives none to test it on", "book")
    if "men" in st and acc.has("cs_per_side") and acc.has("sides") and acc.has("men_per_point"):
        men = int(g["cs_per_side"]) * int(g["sides"]) * int(g["men_per_point"])
        acc.skip("men", f"stated only as a round figure; the book's own numbers give {men:,} men", "context")
    if "dates" in st:
        dated = [t.date for t in ctx.game.turns.turns if t.date]
        acc.skip(
            "dates",
            "historical dates of the operation: the turn track prints no dates"
            if not dated
            else "historical dates of the operation, not the span of the turn track",
            "context",
        )


@handles(K.CLAIM)
def ex_claim(ctx: Context, acc: Acc) -> None:
    st = acc.ex.states
    c = ctx.combat
    if "max_defenders" in st:
        acc.check("max_defenders", dict(c.max_defenders) or None, "combat.max_defenders", how="data")
    for key in ("max_attackers_per_hexside", "max_attackers_per_square"):
        if key in st:
            v = c.max_attackers_per_hexside
            acc.check(
                key,
                None if v is None or isinstance(v, m.Unknown) else v,
                "combat.max_attackers_per_hexside",
                how="data",
            )
    if "handicap" in st and ctx.game.victory is not None:
        acc.check("handicap", dict(ctx.game.victory.handicap) or None, how="data")
    _claim_words(ctx, acc)


def _claim_words(ctx: Context, acc: Acc) -> None:
    """Claims with nothing in this game's data to compare: say why, in one line."""
    st = acc.ex.states
    other = acc.given("game")
    if other is not None and str(other).lower() != ctx.game.game.title.lower():
        for key in st:
            acc.skip(key, f"an illustration from another game ({other}); nothing of it is encoded here", "context")
        return
    span = _track_span(ctx)
    for key, which in (("start", 0), ("end", 1)):
        if key in st and not acc.has(key) and _date(str(st[key])) is not None:
            if span is None:
                acc.skip(key, "a date of the history: the turn track prints no dates to compare", "context")
            else:
                got = span[which].strftime("%-d %b %Y")
                same_day = _date(str(st[key])) == span[which]
                acc.check(key, st[key] if same_day else got, "the turn track's dates", how="data")
    for key, v in st.items():
        if key not in ("start", "end") and isinstance(v, str) and _date(v) is not None:
            acc.skip(key, "a date of the history, not of the game's calendar", "context")
    for key in ("pages", "year"):
        if key in st:
            acc.skip(key, "a bibliographic reference, not a rule of the game", "context")
    if acc.has("ids"):
        for key in st:
            acc.skip(
                key,
                "how a printed ID reads (battalion/regiment, formation): the book says a unit's identifier has no "
                "bearing on play beyond naming it in set-up and reinforcements, and the data names each unit in full",
                "context",
            )
    if "allotments" in st:
        marks = [t.marks for t in ctx.game.turns.turns]
        acc.skip(
            "allotments",
            "a sample turn track of the standard rules; this game's track prints no support-fire allotments"
            + ("" if not any(marks) else " (its boxes carry only rule reminders)"),
            "context",
        )


_SPAN = re.compile(r"(\d{1,2})(?:\s+([A-Za-z]+))?(?:\s+(\d{4}))?\s*-\s*(\d{1,2})\s+([A-Za-z]+)\s+(\d{4})")


def _turn_dates(text: str) -> tuple[_dt.date, _dt.date] | None:
    """The first and last day of a turn as its box prints them: ``24-26 Jan 1944``, ``30 Jan-1 Feb 1944``,
    ``3 Feb 1944``.

    >>> _turn_dates("30 Jan-1 Feb 1944")
    (datetime.date(1944, 1, 30), datetime.date(1944, 2, 1))
    """
    if one := _date(text):
        return one, one
    mt = _SPAN.fullmatch(text.strip())
    if not mt:
        return None
    d1, m1, y1, d2, m2, y2 = mt.groups()
    end = _date(f"{d2} {m2} {y2}")
    start = _date(f"{d1} {m1 or m2} {y1 or y2}")
    return (start, end) if start and end else None


def _track_span(ctx: Context) -> tuple[_dt.date, _dt.date] | None:
    """First and last day of the turn track, when its first and last boxes print dates."""
    turns = ctx.game.turns.turns
    first = _turn_dates(turns[0].date) if turns[0].date else None
    last = _turn_dates(turns[-1].date) if turns[-1].date else None
    return (first[0], last[1]) if first and last else None


def _date(text: str) -> _dt.date | None:
    for fmt in ("%d %b %Y", "%d %B %Y", "%Y-%m-%d"):
        try:
            return _dt.datetime.strptime(text.strip(), fmt).date()
        except ValueError:
            continue
    return None
