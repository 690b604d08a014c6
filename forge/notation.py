"""Small notations with ``parse(str)`` and ``str(x)``: odds columns, differential columns, strengths.

Every notation round-trips: ``str(X.parse(s)) == s`` for the canonical spelling, and ``repr`` is valid Python.
"""

from __future__ import annotations

import difflib
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

PRINT_COLOURS: dict[str, str] = {
    "red": "#c8102e",
    "blue": "#0033a0",
    "green": "#007a33",
    "yellow": "#ffd100",
    "orange": "#e87722",
    "white": "#ffffff",
    "black": "#000000",
}
"""The colours a printed number may be named by (``red:8``); any ``#rrggbb`` is accepted too."""

STRENGTH_FORMS: dict[str, tuple[str, ...]] = {
    "single": ("strength",),
    "attack-defense": ("attack", "defense"),
    "attack-defense-movement": ("attack", "defense", "movement"),
    "strength-movement": ("strength", "movement"),
}
"""Each printed notation (``game.strength_format``) and what its numbers are, in print order: ``strength`` is one
combat strength that both attacks and defends."""

STRENGTH_EXAMPLES: dict[str, str] = {
    "single": "'6' (or '[6]', '(6)')",
    "attack-defense": "'4-3'",
    "attack-defense-movement": "'4-3-6'",
    "strength-movement": "'8-4'",
}
"""A face written in each notation, for messages."""

class ColourError(ValueError):
    """A printed number's colour is not one :data:`PRINT_COLOURS` names, nor ``#rrggbb``."""


_FIGURE = re.compile(rf"(?:(#[0-9a-fA-F]{{6}}|[a-z]+):)?([\[(]?){_NUM}([\])]?)")
_CLOSE = {"": "", "[": "]", "(": ")"}


@dataclass(frozen=True)
class Figure:
    """One number printed on a counter face: its value (None: the rulebook does not give it), the mark around it
    (``[`` brackets, ``(`` parentheses, ``""`` none) and the colour it is printed in (None: the counter's ink;
    a name of :data:`PRINT_COLOURS` or ``#rrggbb``).  What a mark means is the game's rules' business; the counter
    prints it as the book does.

    >>> Figure.parse("red:[6]")
    Figure(value=6, mark='[', colour='red')
    >>> str(Figure(None, "("))
    '(?)'
    """

    value: int | None
    mark: str = ""
    colour: str | None = None

    @classmethod
    def parse(cls, text: str) -> Figure:
        m = _FIGURE.fullmatch(text)
        if not m or _CLOSE[m.group(2)] != m.group(4):
            raise ValueError(
                f"{_shown(text)} is not a printed number (expected '6', '[6]', '(6)', '?' for one the rulebook does "
                "not give, and 'red:6' for one printed in a colour)"
            )
        colour = m.group(1)
        if colour is not None and not colour.startswith("#") and colour not in PRINT_COLOURS:
            close = difflib.get_close_matches(colour, PRINT_COLOURS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ColourError(
                f"{colour!r} is not a print colour{hint} (expected one of {', '.join(PRINT_COLOURS)} or '#rrggbb', "
                "as in 'red:6')"
            )
        return cls(None if m.group(3) == UNKNOWN_MARK else int(m.group(3)), m.group(2), colour)

    @property
    def hex_colour(self) -> str | None:
        """The colour as ``#rrggbb`` (None: the counter's ink)."""
        if self.colour is None:
            return None
        return PRINT_COLOURS.get(self.colour, self.colour)

    def plain(self) -> str:
        """The number as printed (its mark, no colour): ``[6]``, ``(?)``."""
        n = UNKNOWN_MARK if self.value is None else str(self.value)
        return f"{self.mark}{n}{_CLOSE[self.mark]}"

    def __str__(self) -> str:
        return self.plain() if self.colour is None else f"{self.colour}:{self.plain()}"


@dataclass(frozen=True)
class Strength:
    """A unit's printed values on one face, in the game's notation (:data:`STRENGTH_FORMS`): ``"6"`` a single
    combat strength; ``"4-3"`` attack-defence; ``"4-3-6"`` attack-defence-movement; ``"8-4"`` strength-movement
    (one combat strength, then the movement allowance).  Any number may be bracketed (``[2]``, Hell's Gate's tank
    strength), in parentheses (``(4)``) or printed in a colour (``red:8``); ``?`` marks a number the rulebook
    does not give.

    >>> s = Strength.parse("8-4", "strength-movement")
    >>> s.attack, s.defense, s.movement
    (8, 8, 4)
    >>> Strength.parse("8-4").form
    'attack-defense'
    >>> str(Strength.parse("red:[6]-?-(7)"))
    'red:[6]-?-(7)'
    """

    figures: tuple[Figure, ...]
    form: str = "single"

    def _role(self, role: str) -> int | None:
        roles = STRENGTH_FORMS[self.form]
        if role in roles:
            return self.figures[roles.index(role)].value
        if role in ("attack", "defense") and "strength" in roles:
            return self.figures[roles.index("strength")].value
        return None

    @property
    def attack(self) -> int | None:
        return self._role("attack")

    @property
    def defense(self) -> int | None:
        return self._role("defense")

    @property
    def movement(self) -> int | None:
        """The movement allowance printed on the face (None where the notation prints none, or it is unknown)."""
        return self._role("movement")

    @property
    def bracketed(self) -> bool:
        """The combat strength (the first number) is printed in brackets."""
        return self.figures[0].mark == "["

    @classmethod
    def parse(cls, text: str | int, form: str | None = None) -> Strength:
        """Read ``text`` in the notation ``form`` (a key of :data:`STRENGTH_FORMS`); None: by its shape, with two
        numbers read as attack-defence."""
        s = str(text).strip()
        parts = s.split("-")
        try:
            figures = tuple(Figure.parse(p) for p in parts)
        except ColourError as e:
            raise ValueError(f"{_shown(text)}: {e}") from None
        except ValueError:
            raise ValueError(
                f"{_shown(text)} is not a strength (expected {cls._expected(form)}; each number may be '[6]', '(6)', "
                "'red:6', or '?' for one the rulebook does not give)"
            ) from None
        if form is None:
            by_count = {1: "single", 2: "attack-defense", 3: "attack-defense-movement"}
            if len(figures) not in by_count:
                raise ValueError(f"{_shown(text)} is not a strength (expected {cls._expected(None)})")
            return cls(figures, by_count[len(figures)])
        if form not in STRENGTH_FORMS:
            raise ValueError(f"{form!r} is not a strength notation (expected one of {', '.join(STRENGTH_FORMS)})")
        if len(figures) != len(STRENGTH_FORMS[form]):
            raise ValueError(
                f"{_shown(text)} is not a strength in the {form} notation (expected {STRENGTH_EXAMPLES[form]}: "
                f"{len(STRENGTH_FORMS[form])} number{'s' if len(STRENGTH_FORMS[form]) > 1 else ''}, "
                f"{' - '.join(STRENGTH_FORMS[form])})"
            )
        return cls(figures, form)

    @staticmethod
    def _expected(form: str | None) -> str:
        if form in STRENGTH_EXAMPLES:
            return STRENGTH_EXAMPLES[form]
        return "'3', '[2]' for a bracketed tank strength, '4-3', '8-4' or '4-3-7'"

    @property
    def known(self) -> bool:
        """True when every number this form carries is given."""
        return all(f.value is not None for f in self.figures)

    def plain(self) -> str:
        """The face as printed, without colours: ``[6]-4``."""
        return "-".join(f.plain() for f in self.figures)

    def runs(self) -> list[tuple[str, str | None]]:
        """The printed text in runs of one colour (``#rrggbb``; None: the counter's ink), in print order.

        >>> Strength.parse("red:8-4").runs()
        [('8', '#c8102e'), ('-4', None)]
        """
        out: list[tuple[str, str | None]] = []
        for i, f in enumerate(self.figures):
            for text, colour in ((("-", None),) if i else ()) + ((f.plain(), f.hex_colour),):
                if out and out[-1][1] == colour:
                    out[-1] = (out[-1][0] + text, colour)
                else:
                    out.append((text, colour))
        return out

    @property
    def coloured(self) -> bool:
        """Some number is printed in a colour of its own."""
        return any(f.colour is not None for f in self.figures)

    def __str__(self) -> str:
        return "-".join(str(f) for f in self.figures)


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
