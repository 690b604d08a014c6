"""Shared drawing style of the printed components: colour roles, greyscale, terrain fill patterns.

The public API is deliberately small so that every renderer draws terrain and colours the same way:

- :data:`DEFAULT_COLORS` -- named colour roles (``#rrggbb``) for what is not a game colour;
- :func:`grey` -- a ``#rrggbb`` colour's luminance as a grey ``#rrggbb``;
- :func:`colour` -- a game (or role) colour as a reportlab ``Color``, grey when ``options.greyscale``;
- :func:`mix` -- blend two ``#rrggbb`` colours (ink for a pattern drawn over its fill);
- :func:`draw_pattern` -- a terrain :class:`forge.model.Pattern` drawn inside a polygon on a reportlab canvas.

>>> grey("#ff0000")
'#4c4c4c'
>>> mix("#000000", "#ffffff", 0.5)
'#808080'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import Canvas

from ..model import Pattern

__all__ = ["DEFAULT_COLORS", "colour", "draw_pattern", "grey", "mix"]

DEFAULT_COLORS: dict[str, str] = {
    "paper": "#ffffff",  # sheet background
    "ink": "#1a1a1a",
    "hex_edge": "#555555",
    "label": "#333333",
    "name": "#111111",
    "halo": "#ffffff",
    "river": "#2f6fc4",
    "road": "#a0522d",
    "railway": "#1a1a1a",
    "mark": "#c8102e",  # special-rule reminders: red on a real turn track
    "vp": "#b0001e",
    "unknown": "#8a8a8a",  # hatching of hexes whose terrain the rulebook does not give
    "reconstructed": "#6a3d9a",
    "panel": "#fbf8ef",  # background of the charts and the turn track
    "panel_edge": "#3a3a3a",
    "panel_head": "#3a3a3a",  # header bars of charts (white text on them)
    "overlap": "#9a9a9a",
    "crop": "#000000",
}
"""Colour roles (``#rrggbb``); a renderer takes a ``colors`` mapping that overrides any of them."""


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    if len(h) != 6:
        raise ValueError(f"{hex_colour!r} is not a colour (expected #rrggbb)")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _hex(r: float, g: float, b: float) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(max(0, min(255, round(v))) for v in (r, g, b)))


def grey(hex_colour: str) -> str:
    """The grey of the same luminance (ITU-R BT.601 weights, as a greyscale printer sees it)."""
    r, g, b = _rgb(hex_colour)
    y = 0.299 * r + 0.587 * g + 0.114 * b
    return _hex(y, y, y)


def mix(a: str, b: str, t: float) -> str:
    """``a`` blended towards ``b`` by ``t`` (0: ``a``, 1: ``b``)."""
    ra, ga, ba = _rgb(a)
    rb, gb, bb = _rgb(b)
    return _hex(ra + (rb - ra) * t, ga + (gb - ga) * t, ba + (bb - ba) * t)


def colour(game_colour: str, options: Any = None) -> Color:
    """``game_colour`` (``#rrggbb``) as a reportlab colour, converted to grey when ``options.greyscale``.

    ``options`` is anything with a ``greyscale`` attribute (a :class:`forge.build.BuildOptions`) or None.
    """
    if options is not None and getattr(options, "greyscale", False):
        game_colour = grey(game_colour)
    return HexColor(game_colour)


def _bbox(points: Sequence[tuple[float, float]]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _grid_points(
    box: tuple[float, float, float, float], dx: float, dy: float, stagger: bool
) -> list[tuple[float, float]]:
    """Lattice points covering ``box`` (plus one step around it), anchored at the origin so that patterns of
    neighbouring cells line up into one continuous texture."""
    x0, y0, x1, y1 = box
    out: list[tuple[float, float]] = []
    j0, j1 = math.floor(y0 / dy) - 1, math.ceil(y1 / dy) + 1
    i0, i1 = math.floor(x0 / dx) - 1, math.ceil(x1 / dx) + 1
    for j in range(j0, j1 + 1):
        shift = dx / 2 if stagger and j % 2 else 0.0
        for i in range(i0, i1 + 1):
            out.append((i * dx + shift, j * dy))
    return out


def draw_pattern(
    canvas: Canvas,
    path: Sequence[tuple[float, float]],
    pattern: Pattern | str,
    colour: Color,
    cell_size: float,
) -> None:
    """Draw ``pattern`` in ``colour`` inside the polygon ``path`` on ``canvas``.

    ``path`` is the polygon's corners in the canvas's current (reportlab, y-up) coordinates; the pattern is
    clipped to it.  ``cell_size`` is the size of the cell being filled (a hex across its flats, a swatch's
    width): the marks scale with it, so a legend swatch and a map hex show the same texture.  The fill under
    the pattern is the caller's; ``none`` draws nothing.  Marks are anchored to the coordinate origin, so
    neighbouring cells of one terrain join into one continuous texture.
    """
    p = Pattern(pattern)
    if p is Pattern.NONE or len(path) < 3:
        return
    s = max(cell_size, 4.0)
    box = _bbox(path)
    canvas.saveState()
    clip = canvas.beginPath()
    clip.moveTo(*path[0])
    for q in path[1:]:
        clip.lineTo(*q)
    clip.close()
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.setStrokeColor(colour)
    canvas.setFillColor(colour)
    canvas.setLineCap(1)
    canvas.setLineJoin(1)
    _PATTERNS[p](canvas, box, s)
    canvas.restoreState()


def _trees(c: Canvas, box: tuple[float, float, float, float], s: float) -> None:
    step = s / 4.2
    r = step * 0.3
    c.setLineWidth(max(0.35, s / 220))
    for x, y in _grid_points(box, step, step * 0.87, stagger=True):
        c.line(x, y - r * 1.9, x, y - r * 0.6)  # trunk
        c.circle(x, y, r, stroke=0, fill=1)  # canopy


def _dots(c: Canvas, box: tuple[float, float, float, float], s: float) -> None:
    step = s / 9
    for x, y in _grid_points(box, step, step * 0.87, stagger=True):
        c.circle(x, y, step * 0.16, stroke=0, fill=1)


def _lines(c: Canvas, box: tuple[float, float, float, float], step: float, slope: int) -> None:
    x0, y0, x1, y1 = box
    h = y1 - y0
    start = math.floor((x0 - h) / step) - 1
    stop = math.ceil(x1 / step) + 1
    for i in range(start, stop + 1):
        x = i * step
        if slope > 0:
            c.line(x, y0, x + h, y1)
        else:
            c.line(x + h, y0, x, y1)


def _hatch(c: Canvas, box: tuple[float, float, float, float], s: float) -> None:
    c.setLineWidth(max(0.4, s / 150))
    _lines(c, box, s / 10, 1)


def _crosshatch(c: Canvas, box: tuple[float, float, float, float], s: float) -> None:
    c.setLineWidth(max(0.35, s / 180))
    _lines(c, box, s / 8, 1)
    _lines(c, box, s / 8, -1)


def _marsh(c: Canvas, box: tuple[float, float, float, float], s: float) -> None:
    step = s / 5
    c.setLineWidth(max(0.4, s / 160))
    w = step * 0.32
    for x, y in _grid_points(box, step, step * 0.6, stagger=True):
        c.line(x - w, y, x + w, y)  # water line
        for dx, hh in ((-w * 0.5, 0.45), (0.0, 0.7), (w * 0.5, 0.45)):  # reed tufts
            c.line(x + dx, y, x + dx * 1.3, y + w * hh)


def _hills(c: Canvas, box: tuple[float, float, float, float], s: float) -> None:
    step = s / 4
    c.setLineWidth(max(0.45, s / 140))
    r = step * 0.3
    for x, y in _grid_points(box, step, step * 0.6, stagger=True):
        c.arc(x - r, y - r * 0.7, x + r, y + r * 0.9, startAng=0, extent=180)


def _waves(c: Canvas, box: tuple[float, float, float, float], s: float) -> None:
    x0, y0, x1, y1 = box
    step = s / 7
    amp = step * 0.22
    wl = step * 1.2
    c.setLineWidth(max(0.4, s / 170))
    for j in range(math.floor(y0 / step) - 1, math.ceil(y1 / step) + 2):
        y = j * step
        p = c.beginPath()
        x = math.floor(x0 / wl) * wl - wl
        p.moveTo(x, y)
        while x < x1 + wl:
            p.curveTo(x + wl / 4, y + amp * 1.3, x + wl / 4, y + amp * 1.3, x + wl / 2, y)
            p.curveTo(x + 3 * wl / 4, y - amp * 1.3, x + 3 * wl / 4, y - amp * 1.3, x + wl, y)
            x += wl
        c.drawPath(p, stroke=1, fill=0)


def _brick(c: Canvas, box: tuple[float, float, float, float], s: float) -> None:
    x0, y0, x1, y1 = box
    bw, bh = s / 5, s / 10
    c.setLineWidth(max(0.35, s / 200))
    for j in range(math.floor(y0 / bh) - 1, math.ceil(y1 / bh) + 1):
        y = j * bh
        c.line(x0 - bw, y, x1 + bw, y)
        shift = bw / 2 if j % 2 else 0.0
        for i in range(math.floor(x0 / bw) - 1, math.ceil(x1 / bw) + 1):
            x = i * bw + shift
            c.line(x, y, x, y + bh)


_PATTERNS = {
    Pattern.TREES: _trees,
    Pattern.DOTS: _dots,
    Pattern.HATCH: _hatch,
    Pattern.CROSSHATCH: _crosshatch,
    Pattern.MARSH: _marsh,
    Pattern.HILLS: _hills,
    Pattern.WAVES: _waves,
    Pattern.BRICK: _brick,
}
