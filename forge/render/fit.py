"""Fitting text into a box: shrink, then wrap, then report what still does not fit.

Every renderer puts its names and notes through :func:`fit` (or :func:`fit_line` for a one-line box):

1. shrink: one line, from ``size`` down to ``shrink`` times it (never below ``minimum``; the default
   :data:`SHRINK` goes straight to wrapping, a one-line box shrinks down to ``minimum``);
2. wrap: the largest size from ``size`` down to ``minimum`` at which the text fits the box wrapped at spaces
   (or on one line);
3. at ``minimum``, a word wider than the box is broken with a hyphen (never clipped at the box's edge);
4. if it still does not fit, the lines that fit are drawn, the last one ending in "…", and a located warning
   goes to the build's warning channel (:func:`forge.errors.warn`) naming the field and the component.

No line returned is wider than the box and no more lines are returned than the box holds, so nothing is ever
drawn outside it.

>>> fit("Korsun", 100, 10, 8).lines
('Korsun',)
>>> from forge.pdf import FONT_BOLD
>>> r = fit("No German entry (turn 2)", 30, 31, 7, font=FONT_BOLD)
>>> r.complete, r.size >= MIN_TEXT_PT, all(text_width(ln, r.size, FONT_BOLD) <= 30 for ln in r.lines)
(True, True, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import Where, warn
from ..pdf import FONT, text_width

__all__ = ["LEADING", "MIN_TEXT_PT", "Fitted", "break_word", "fit", "fit_line", "soft_hyphens", "wrap"]

MIN_TEXT_PT = 5.0
"""No text is printed smaller than this (at print size)."""
LEADING = 1.12
"""Line advance as a multiple of the font size."""
SHRINK = 1.0
"""By default a text that does not fit on one line at its size is wrapped at once (a marker's words wrap rather
than become tiny); a caller passes ``shrink=0.5`` to keep a title on one line down to half its size first."""
ELLIPSIS = "…"
_STEP = 0.25
_EPS = 1e-6


@dataclass(frozen=True)
class Fitted:
    """What to draw: the lines, at ``size``, one every ``size * leading`` points."""

    lines: tuple[str, ...]
    size: float
    leading: float = LEADING
    complete: bool = True
    """Every character of the text is among the lines (else some was dropped, and reported)."""

    @property
    def text(self) -> str:
        """The first line (for a one-line box)."""
        return self.lines[0] if self.lines else ""

    @property
    def height(self) -> float:
        return len(self.lines) * self.size * self.leading


def break_word(word: str, width: float, size: float, font: str = FONT) -> list[str]:
    """``word`` cut into pieces no wider than ``width``, every piece but the last ending in a hyphen (a piece
    keeps at least one character, so a box narrower than one letter still makes progress)."""
    pieces: list[str] = []
    while text_width(word, size, font) > width + _EPS and len(word) > 1:
        lo, hi = 1, len(word) - 1  # the longest head that fits with its hyphen: binary search
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if text_width(word[:mid] + "-", size, font) <= width + _EPS:
                lo = mid
            else:
                hi = mid - 1
        pieces.append(word[:lo] + "-")
        word = word[lo:]
    pieces.append(word)
    return pieces


def wrap(text: str, width: float, size: float, font: str = FONT, *, break_words: bool = True) -> list[str]:
    """Greedy wrap of ``text`` at spaces (and at its newlines) into lines no wider than ``width``; a word wider
    than ``width`` is broken with hyphens (``break_words``) or left whole on its own line.

    >>> wrap("a Korsunskaya b", 20, 8)
    ['a', 'Kor-', 'sun-', 'ska-', 'ya b']
    """
    return [ln for ln, _ in _wrap(text, width, size, font, break_words)]


def _wrap(text: str, width: float, size: float, font: str, break_words: bool) -> list[tuple[str, bool]]:
    """:func:`wrap`, each line with whether it ends inside a word (its hyphen added by the break)."""
    lines: list[tuple[str, bool]] = []
    for paragraph in str(text).split("\n"):
        line = ""
        for word in paragraph.split():
            trial = f"{line} {word}" if line else word
            if text_width(trial, size, font) <= width + _EPS:
                line = trial
                continue
            if line:
                lines.append((line, False))
            pieces = break_word(word, width, size, font) if break_words else [word]
            lines += [(p, True) for p in pieces[:-1]]
            line = pieces[-1]
        if line:
            lines.append((line, False))
    return lines or [("", False)]


def _rest(text: str, lines: list[tuple[str, bool]]) -> str:
    """What of ``text`` follows ``lines`` (its first lines as :func:`_wrap` made them)."""
    used = sum(len(ln.replace(" ", "")) - (1 if broken else 0) for ln, broken in lines)
    for i, ch in enumerate(text):
        if used <= 0:
            return text[i:]
        if not ch.isspace():
            used -= 1
    return ""


SHY = "\xad"
LONG_WORD = 16
"""Words longer than this many letters may be broken anywhere in flowing text (:func:`soft_hyphens`)."""


def soft_hyphens(text: str, longer_than: int = LONG_WORD) -> str:
    """``text`` with a soft hyphen between the letters of each word longer than ``longer_than``: reportlab's
    paragraphs (the cards) then break such a word with a visible hyphen where a line ends, and print it whole
    elsewhere, instead of cutting it at the column's edge without a mark.

    >>> soft_hyphens("a Korsunskaya_Shevchenkovsky b", 10).count(SHY)
    25
    """
    return " ".join(SHY.join(w) if len(w) > longer_than else w for w in text.split(" "))


def _fits(
    lines: list[str], width: float, height: float, size: float, font: str, leading: float, max_lines: int | None
) -> bool:
    if max_lines is not None and len(lines) > max_lines:
        return False
    return len(lines) * size * leading <= height + _EPS and all(
        text_width(ln, size, font) <= width + _EPS for ln in lines
    )


def _sizes(size: float, minimum: float) -> list[float]:
    out = [size]
    while out[-1] > minimum + _EPS:
        out.append(max(minimum, out[-1] - _STEP))
    return out


def fit(
    text: str,
    width: float,
    height: float,
    size: float,
    *,
    font: str = FONT,
    minimum: float = MIN_TEXT_PT,
    leading: float = LEADING,
    max_lines: int | None = None,
    shrink: float = SHRINK,
    where: Where = (),
    what: str = "",
    name: str | None = None,
    report: bool = True,
) -> Fitted:
    """Fit ``text`` into a ``width`` x ``height`` box (points) at the largest size <= ``size`` (>= ``minimum``).

    ``where`` is the key path of the field the text comes from (``("units", 3, "label")``; empty for text the
    program composes) and ``what`` names the component and the place on it (``"counter face"``), both only for
    the warning given when the text cannot fit even at ``minimum`` with its words broken (``report=False``: a
    trial fit, no warning); ``shrink`` is how far (a fraction of ``size``) one line shrinks before it wraps;
    ``name`` is the value quoted in the warning when ``text`` is composed around it.
    """
    text = str(text).strip()  # spaces inside a line are kept as given ("a  ·  b"); wrapping splits at any run
    minimum = min(minimum, size)
    width = max(width, 0.0)
    if not text.strip():
        return Fitted(("",), size, leading)
    if "\n" not in text:
        for fs in _sizes(size, max(minimum, size * shrink)):
            if _fits([text], width, height, fs, font, leading, max_lines):
                return Fitted((text,), fs, leading)
    for fs in _sizes(size, minimum):
        lines = wrap(text, width, fs, font, break_words=False)
        if _fits(lines, width, height, fs, font, leading, max_lines):
            return Fitted(tuple(lines), fs, leading)
    lines = wrap(text, width, minimum, font)
    if _fits(lines, width, height, minimum, font, leading, max_lines):
        return Fitted(tuple(lines), minimum, leading)
    # Still too big: keep what the box holds, mark the cut, report it.
    room = max(1, int((height + _EPS) // (minimum * leading)))
    if max_lines is not None:
        room = min(room, max_lines)
    marked = _wrap(text, width, minimum, font, True)
    kept = [ln for ln, _ in marked[: room - 1]]
    # The last line the box holds takes as much of the rest as fits before the ellipsis that marks the cut.
    last = " ".join(_rest(text, marked[: room - 1]).split())
    while last and text_width(last + ELLIPSIS, minimum, font) > width + _EPS:
        last = last[:-1]
    kept.append(last.rstrip() + ELLIPSIS if text_width(ELLIPSIS, minimum, font) <= width + _EPS else last)
    value = text if name is None else name
    short = value if len(value) <= 40 else value[:37] + "..."
    if report:
        warn(
            where,
            f"{what + ': ' if what else ''}{short!r} does not fit even at {minimum:g} pt with its words broken; "
            f"it is printed cut short (shorten it or give it more room)",
        )
    return Fitted(tuple(kept), minimum, leading, complete=False)


def fit_line(
    text: str,
    width: float,
    size: float,
    *,
    font: str = FONT,
    minimum: float = MIN_TEXT_PT,
    where: Where = (),
    what: str = "",
    name: str | None = None,
    report: bool = True,
) -> tuple[str, float]:
    """``text`` on one line of a ``width`` wide box: (what to draw, its size); see :func:`fit`."""
    r = fit(
        text.replace("\n", " "),
        width,
        size * LEADING,
        size,
        font=font,
        minimum=minimum,
        max_lines=1,
        where=where,
        what=what,
        name=name,
        report=report,
    )
    return r.text, r.size
