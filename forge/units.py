"""Physical lengths: ``"16mm"``, ``"0.75in"``, ``"9pt"``, ``"3/4in"`` -> points. The only converter."""

from __future__ import annotations

import re
from fractions import Fraction

POINTS_PER = {
    "pt": Fraction(1),
    "in": Fraction(72),
    "mm": Fraction(72 * 10, 254),
    "cm": Fraction(72 * 100, 254),
}
_LENGTH = re.compile(r"^\s*(\d+(?:\.\d+)?|\d+/\d+)\s*(pt|in|mm|cm)\s*$")
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?|\d+/\d+)\s*[xX×]\s*(\d+(?:\.\d+)?|\d+/\d+)\s*(pt|in|mm|cm)\s*$")

MAX_LENGTH = 100 * 72
"""The longest length or sheet edge in points (100 in): larger is no sheet anyone prints."""
HEX_MIN, HEX_MAX = 18, 6 * 72
"""Hex sizes in points: 0.25 in to 6 in across."""

COUNTER_SIZES = ("1/2in", "9/16in", "5/8in", "3/4in")
"""The counter edges printers and players expect (DESIGN.md print conventions)."""

PAPER = {
    "letter": ("8.5in", "11in"),
    "a4": ("210mm", "297mm"),
    "tabloid": ("11in", "17in"),
    "a3": ("297mm", "420mm"),
    "arch-b": ("12in", "18in"),
}
"""Portrait paper sizes by name.  ``arch-b`` is 12 x 18 in, the press sheet of print-on-demand card and counter
printers (Print & Play Games' card sheets, docs/PRINTING.md)."""


MAX_DIGITS = 12
"""A length or size has at most this many digits per number: nothing printable needs more (see FORMAT.md, Bounds)."""


def _shown(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:30]) + f"... ({len(text)} characters)"


def _number(number: str, text: str) -> Fraction:
    if sum(c.isdigit() for c in number) > MAX_DIGITS:
        raise ValueError(f"{_shown(text)} has too many digits (expected at most {MAX_DIGITS} digits per number)")
    try:
        return Fraction(number)
    except ZeroDivisionError:
        raise ValueError(f"{_shown(text)} divides by zero (expected a fraction such as '3/4in')") from None


def length(text: str) -> float:
    """Parse a length with its unit and return points.

    >>> length("1in"), length("3/4in"), length("25.4mm"), length("9pt")
    (72.0, 54.0, 72.0, 9.0)
    """
    m = _LENGTH.match(str(text))
    if not m:
        raise ValueError(f"{text!r} is not a length (expected a number and a unit: '16mm', '0.75in', '3/4in', '9pt')")
    value = _number(m.group(1), str(text)) * POINTS_PER[m.group(2)]
    if value <= 0:
        raise ValueError(f"{text!r} must be greater than zero")
    if value > MAX_LENGTH:
        raise ValueError(f"{text!r} is longer than {fmt(MAX_LENGTH)} (expected a physical length up to that)")
    return float(value)


def size(text: str) -> tuple[float, float]:
    """Parse ``"11x17in"`` (width x height) into points.

    >>> size("11x17in")
    (792.0, 1224.0)
    """
    m = _SIZE.match(str(text))
    if not m:
        raise ValueError(f"{text!r} is not a size (expected width x height with a unit: '11x17in', '297x420mm')")
    unit = POINTS_PER[m.group(3)]
    w, h = _number(m.group(1), str(text)) * unit, _number(m.group(2), str(text)) * unit
    if w <= 0 or h <= 0:
        raise ValueError(f"{text!r} must be greater than zero in both directions")
    if w > MAX_LENGTH or h > MAX_LENGTH:
        raise ValueError(f"{text!r} is larger than {fmt(MAX_LENGTH)} in a direction (expected a sheet up to that)")
    return float(w), float(h)


def paper(name: str) -> tuple[float, float]:
    """Portrait paper size in points by name (letter, a4, tabloid, a3, arch-b)."""
    try:
        w, h = PAPER[name.lower()]
    except KeyError:
        raise ValueError(f"unknown paper {name!r} (expected one of {', '.join(PAPER)})") from None
    return length(w), length(h)


def fmt(points: float) -> str:
    """Format points as the shortest exact-looking inch string, for messages."""
    return f"{points / 72:g}in"
