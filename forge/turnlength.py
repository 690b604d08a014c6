"""Turns of different lengths: how long each turn on the track lasts, and how long a run of turns lasts.

A turn lasts ``game.scale.days_per_turn`` unless its ``length`` says otherwise (``{days: 2}``, ``{hours: 12}``).
Lengths are exact :class:`~fractions.Fraction` hours, so that ``{hours: 12}`` twice is one day, not 0.99999.
Pure functions of the model: read by the turn track (forge.render.map.panels), the turn record (forge.render.cards)
and the duration claims of ``forge verify`` (forge.verifier.ex_claims).

>>> text(Fraction(36))
'1 day 12 hours'
>>> parse("2 days 12 hours")
Fraction(60, 1)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction

from . import model as m

__all__ = ["differs", "duration", "hours_of", "parse", "text", "turn_hours", "turns_that_differ"]

HOURS_PER_DAY = 24


def hours_of(length: m.TurnLength) -> Fraction | None:
    """A stated length in hours (None when its value is unknown)."""
    if length.days is not None:
        return None if isinstance(length.days, m.Unknown) else Fraction(str(length.days)) * HOURS_PER_DAY
    if length.hours is not None and not isinstance(length.hours, m.Unknown):
        return Fraction(str(length.hours))
    return None


def default_hours(game: m.Game) -> Fraction | None:
    """``game.scale.days_per_turn`` in hours (None when the book does not give it)."""
    dpt = game.game.scale.days_per_turn
    return None if isinstance(dpt, m.Unknown) else Fraction(str(dpt)) * HOURS_PER_DAY


def turn_hours(game: m.Game, turn: m.Turn) -> Fraction | None:
    """How long ``turn`` lasts, in hours: its own length, else the scale's days per turn; None when unknown."""
    return hours_of(turn.length) if turn.length is not None else default_hours(game)


def differs(game: m.Game, turn: m.Turn) -> bool:
    """Does the turn say a length other than the default (so that the track prints it)?"""
    return turn.length is not None and turn_hours(game, turn) != default_hours(game)


def turns_that_differ(game: m.Game) -> list[m.Turn]:
    """The turns whose length is not the default, in track order."""
    return [t for t in sorted(game.turns.turns, key=lambda t: t.number) if differs(game, t)]


def duration(game: m.Game, turns: Iterable[m.Turn]) -> Fraction | None:
    """The total length of ``turns`` in hours; None when any of them has an unknown length."""
    total = Fraction(0)
    for t in turns:
        h = turn_hours(game, t)
        if h is None:
            return None
        total += h
    return total


def text(hours: Fraction) -> str:
    """A length as players say it: ``3 days``, ``12 hours``, ``1 day 12 hours``, ``1.5 hours``."""
    days, rest = divmod(hours, HOURS_PER_DAY)
    parts = []
    if days:
        parts.append(f"{int(days)} day" + ("" if days == 1 else "s"))
    if rest or not days:
        shown = str(int(rest)) if rest.denominator == 1 else f"{float(rest):g}"
        parts.append(f"{shown} hour" + ("" if rest == 1 else "s"))
    return " ".join(parts)


_PART = re.compile(r"(\d+(?:\.\d+)?)\s*(days?|hours?|h|d)\b", re.IGNORECASE)


def parse(value: object) -> Fraction | None:
    """A stated duration in hours: a number (days), ``"10 days"``, ``"36 hours"``, ``"2 days 12 hours"``; None when
    it is none of these."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return Fraction(str(value)) * HOURS_PER_DAY
    s = str(value).strip()
    if re.fullmatch(r"\d+(?:\.\d+)?", s):
        return Fraction(s) * HOURS_PER_DAY
    parts = _PART.findall(s)
    if not parts or re.sub(r"\band\b|[\s,]", "", _PART.sub("", s)):
        return None
    total = Fraction(0)
    for n, unit in parts:
        total += Fraction(n) * (HOURS_PER_DAY if unit.lower().startswith("d") else 1)
    return total
