"""``--card-size``: card services' products by name (:data:`CARD_SIZES`) or ``WIDTHxHEIGHT``
(:func:`card_size`), and :class:`CardSizeError`, a chart that does not fit the card.  Nothing here draws."""

from __future__ import annotations

import re


CARD_SIZES: dict[str, tuple[str, str]] = {
    "poker": ("2.5in", "3.5in"),
    "tarot": ("2.75in", "4.75in"),
    "jumbo": ("3.5in", "5.5in"),
}
"""``--card-size`` names: card services' products, width x height upright.  docs/PRINTING.md (*Card sizes*) gives
each one's source; a size not listed is given as lengths (``WIDTHxHEIGHT``)."""

CARD_SIZE_RANGE = (1.5 * 72, 14 * 72)
"""The shortest and longest side a ``--card-size`` may have, in points (1.5 in to 14 in): a smaller card leaves its
charts less than an inch across (the safe zone and padding take 0.5 in), and a larger one is a sheet, not a card."""


def card_size(text: str) -> tuple[float, float]:
    """The trim (width, height; points, as given) of ``--card-size TEXT``: a name of :data:`CARD_SIZES` or two
    lengths ``WIDTHxHEIGHT`` (``70x120mm``, ``2.75inx4.75in``; a bare first number takes the second's unit).
    ValueError naming what was expected."""
    from ... import units as U

    key = text.strip().lower()
    expected = f"one of {', '.join(CARD_SIZES)}, or WIDTHxHEIGHT with a unit (70x120mm, 2.75inx4.75in)"
    if key in CARD_SIZES:
        w_text, h_text = CARD_SIZES[key]
        return U.length(w_text), U.length(h_text)
    parts = [p.strip() for p in key.replace("\u00d7", "x").split("x")]  # no unit has an x in it
    if len(parts) != 2 or not all(parts):
        raise ValueError(f"{text[:30]!r} is not a card size (expected {expected})")
    unit = re.search(r"(pt|in|mm|cm)$", parts[1])  # the second length's unit, for a bare first number
    if unit and re.fullmatch(r"[\d./]+", parts[0]):
        parts[0] += unit.group(0)
    try:
        w, h = U.length(parts[0]), U.length(parts[1])
    except ValueError as e:
        what = str(e).split(" (expected ")[0]  # the length's own "(expected ...)" would stand beside this one
        raise ValueError(f"{text[:30]!r}: {what} (expected {expected})") from None
    lo, hi = CARD_SIZE_RANGE
    if not (lo - 1e-9 <= min(w, h) and max(w, h) <= hi + 1e-9):
        raise ValueError(f"{text[:30]!r}: a card's sides are {lo / 72:g}in to {hi / 72:g}in (expected {expected})")
    return w, h


def _inches(points: float) -> str:
    return f"{points / 72:.2f}".rstrip("0").rstrip(".")


class CardSizeError(ValueError):
    """A chart that does not fit the card of ``--card-size``: ``need`` points ``direction`` ("across" or "down")
    where the card gives its charts ``have``.  The sized renderer names the chart (``block``, the heading above it)
    and where it comes from in the game file (``where``)."""

    def __init__(self, card: int, direction: str, need: float, have: float) -> None:
        super().__init__(f"reference card {card + 1}: needs {_inches(need)} in {direction}, has {_inches(have)} in")
        self.card, self.direction, self.need, self.have = card, direction, need, have
        self.block = ""
        self.where: tuple[str | int, ...] = ()
