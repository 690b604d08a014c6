"""Small notations with ``parse(str)`` and ``str(x)``: odds columns, differential columns, strengths.

Every notation round-trips: ``str(X.parse(s)) == s`` for the canonical spelling, and ``repr`` is valid Python.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction


def _shown(text: object) -> str:
    """``text`` for a message: whole when short, else its start and its length (a 5,000-digit typo stays readable)."""
    s = str(text)
    return repr(text) if len(s) <= 40 else f"{s[:30]!r}... ({len(s):,} characters)"

UNKNOWN_MARK = "?"


def _ratio(text: str, sep: str) -> Fraction:
    a, b = text.split(sep)
    if len(a) + len(b) > 24:
        raise ValueError(f"{_shown(text)} has too many digits (expected an odds ratio such as '3:2')")
    if Fraction(b) == 0:
        raise ValueError(
            f"{_shown(text)} divides by zero (expected a ratio with a positive second number, such as '3:2')"
        )
    return Fraction(a) / Fraction(b)


@dataclass(frozen=True)
class OddsColumn:
    """A column heading of an odds-ratio CRT: ``1:1``, ``3:2``, ``4:1-5:1`` (merged), ``8:1+``, ``<1:1``, ``1.5-1``.

    ``low`` is the smallest ratio the column covers (inclusive); ``below`` marks a ``<x`` column, which covers
    everything under ``low``.  A column's upper end is the next column's ``low``: the CRT knows that, not the label.

    >>> OddsColumn.parse("4:1-5:1").low
    Fraction(4, 1)
    >>> OddsColumn.parse("1.5-1").low, OddsColumn.parse("1-3").low
    (Fraction(3, 2), Fraction(1, 3))
    >>> str(OddsColumn.parse("8:1+"))
    '8:1+'
    """

    label: str
    low: Fraction
    below: bool = False

    _PART = r"\d+(?:\.\d+)?"

    @classmethod
    def parse(cls, text: str) -> OddsColumn:
        s = str(text).strip()
        body = s
        below = body.startswith("<")
        if below:
            body = body[1:].strip()
        body = body.rstrip("+").strip()
        sep = ":" if ":" in body else "-"
        first = body
        if sep == ":" and "-" in body:
            first = body.split("-")[0]
        elif sep == "-" and body.count("-") == 3:  # "4-1-5-1": a merged column in dash notation
            first = "-".join(body.split("-")[:2])
        if not re.fullmatch(rf"{cls._PART}{re.escape(sep)}{cls._PART}", first):
            raise ValueError(
                f"{_shown(text)} is not an odds column (expected '3:2', '4:1-5:1', '8:1+', '<1:1' or '1.5-1')"
            )
        low = _ratio(first, sep)
        if low <= 0:
            raise ValueError(f"{_shown(text)}: odds must be positive")
        return cls(s, low, below)

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True)
class DiffColumn:
    """A column heading of a differential CRT: ``-3``, ``0``, ``+2``, ``+10+`` or ``<=-4`` (open ends).

    >>> DiffColumn.parse("+5").low, DiffColumn.parse("<=-4").below
    (5, True)
    """

    label: str
    low: int
    below: bool = False

    @classmethod
    def parse(cls, text: str) -> DiffColumn:
        s = str(text).strip()
        m = re.fullmatch(r"(<=|≤|<)?\s*([+-]?\d{1,12})\s*(\+|or more)?", s)
        if not m:
            raise ValueError(
                f"{_shown(text)} is not a differential column (expected '-3', '0', '+2', '+10+' or '<=-4')"
            )
        low = int(m.group(2))
        below = m.group(1) is not None
        if m.group(1) == "<":
            low -= 1
        return cls(s, low, below)

    def __str__(self) -> str:
        return self.label


_NUM = r"(\d{1,12}|\?)"  # at most 12 digits, as every number of the format (docs/FORMAT.md, Bounds)


@dataclass(frozen=True)
class Strength:
    """A unit's printed strengths on one face, in the game's own form.

    ``"3"`` single combat strength; ``"[2]"`` Hell's Gate's bracketed tank strength (multiplied when attacking);
    ``"4-3-7"`` attack-defence-movement; ``"4-3"`` attack-defence.  ``?`` marks a number the rulebook does not give.

    >>> Strength.parse("[2]")
    Strength(attack=2, defense=2, movement=None, bracketed=True)
    >>> str(Strength.parse("4-?-7"))
    '4-?-7'
    """

    attack: int | None
    defense: int | None
    movement: int | None = None
    bracketed: bool = False
    form: str = "single"

    def __repr__(self) -> str:
        return (
            f"Strength(attack={self.attack!r}, defense={self.defense!r}, movement={self.movement!r}, "
            f"bracketed={self.bracketed!r})"
        )

    @staticmethod
    def _n(s: str) -> int | None:
        return None if s == UNKNOWN_MARK else int(s)

    @classmethod
    def parse(cls, text: str | int) -> Strength:
        s = str(text).strip()
        if m := re.fullmatch(rf"\[{_NUM}\]", s):
            v = cls._n(m.group(1))
            return cls(v, v, None, True, "single")
        if m := re.fullmatch(_NUM, s):
            v = cls._n(m.group(1))
            return cls(v, v, None, False, "single")
        if m := re.fullmatch(rf"{_NUM}-{_NUM}-{_NUM}", s):
            return cls(cls._n(m.group(1)), cls._n(m.group(2)), cls._n(m.group(3)), False, "attack-defense-movement")
        if m := re.fullmatch(rf"{_NUM}-{_NUM}", s):
            return cls(cls._n(m.group(1)), cls._n(m.group(2)), None, False, "attack-defense")
        raise ValueError(
            f"{_shown(text)} is not a strength (expected '3', '[2]' for a bracketed tank strength, '4-3' or '4-3-7'; "
            "'?' for a number the rulebook does not give)"
        )

    @property
    def known(self) -> bool:
        """True when every number this form carries is given."""
        nums = [self.attack, self.defense] + ([self.movement] if self.form == "attack-defense-movement" else [])
        return all(n is not None for n in nums)

    def __str__(self) -> str:
        def f(n: int | None) -> str:
            return UNKNOWN_MARK if n is None else str(n)

        if self.form == "single":
            return f"[{f(self.defense)}]" if self.bracketed else f(self.defense)
        if self.form == "attack-defense":
            return f"{f(self.attack)}-{f(self.defense)}"
        return f"{f(self.attack)}-{f(self.defense)}-{f(self.movement)}"


def fraction(text: str | int | float) -> Fraction:
    """Parse a multiplier: ``3``, ``"1/2"``, ``"x2"``, ``"×1/2"``.

    >>> fraction("x1/2"), fraction(3)
    (Fraction(1, 2), Fraction(3, 1))
    """
    s = str(text).strip().lstrip("x×*").strip()
    try:
        value = Fraction(s)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{_shown(text)} is not a multiplier (expected 3, '1/2' or 'x2')") from None
    if value <= 0:
        raise ValueError(f"{_shown(text)}: a multiplier must be positive")
    return value


_ROW_NUMBER = re.compile(r"-?\d+")
_ROW_RANGE = re.compile(r"^\s*(-?\d+)\s*[-–]\s*(-?\d+)\s*$")
_ROW_AT_LEAST = re.compile(r"^\s*(?:≥|>=)\s*(-?\d+)\s*$|^\s*(-?\d+)\s*(?:\+|or more)\s*$")
_ROW_AT_MOST = re.compile(r"^\s*(?:≤|<=)\s*(-?\d+)\s*$|^\s*(-?\d+)\s*(?:-|or less)\s*$")


def row_range(label: str) -> tuple[int | None, int | None]:
    """Die values a CRT row covers, inclusive, None for an open end: ``"3"``, ``"2-4"``, ``"≥6"``, ``"6+"``, ``"≤1"``.
    (Here, not in the combat engine, so that ``forge check`` reads the die-row labels without importing the engine.)

    >>> row_range("2-4"), row_range("≥6"), row_range("1 or less")
    ((2, 4), (6, None), (None, 1))
    """
    s = label.strip()
    if _ROW_NUMBER.fullmatch(s):
        return int(s), int(s)
    if m := _ROW_RANGE.match(s):
        return int(m.group(1)), int(m.group(2))
    if m := _ROW_AT_LEAST.match(s):
        return int(m.group(1) or m.group(2)), None
    if m := _ROW_AT_MOST.match(s):
        return None, int(m.group(1) or m.group(2))
    raise ValueError(f"{label!r} is not a die-roll row (expected '3', '2-4', '≥6', '6+' or '≤1')")
