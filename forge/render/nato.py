"""NATO unit symbols (APP-6 land-unit icons, friendly frame) drawn in a box at a local origin, and size marks.

Geometry follows the conventions of APP-6 and the milsymbol library: icons are given in a 200-unit design
space whose friendly frame runs from ``(25, 50)`` to ``(175, 150)`` (y down), i.e. a 3:2 box.
:func:`draw_symbol` maps that space onto a box of any size whose top-left corner is ``(x, y)`` on a
:class:`forge.canvas.Canvas` (y down too), so the same code draws into a PDF and into an SVG.

Types and their icons:

==============  =========================================================================
infantry        the cross (frame diagonals)
armour          the oval (track)
mechanised      cross and oval
motorised       cross with a vertical line (wheels)
cavalry         one diagonal slash
recon           slash and oval (armoured reconnaissance)
artillery       filled dot
anti-tank       inverted V
engineer        the bridge (a bar with three legs)
hq              bar across the top of the frame and a staff down from its lower-left corner
garrison        cross with battlements along the foot (static, fortified)
air             fixed-wing propeller
support         bar across the lower part of the frame (combat service support)
airborne        cross with the parachute canopy
mountain        cross with the mountain triangle
security        the letters SEC
leader          a star
==============  =========================================================================
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypeAlias

from ..canvas import Canvas, Path
from ..model import UnitSize, UnitType
from ..pdf import FONT_BOLD, text_width

Ink: TypeAlias = str
"""A ``#rrggbb`` colour."""

_FRAME_X0, _FRAME_Y0, _FRAME_W, _FRAME_H = 25.0, 50.0, 150.0, 100.0


class _Pen:
    """Draws in the 200-unit icon space (y down, like the canvas), mapped onto a box on the canvas."""

    def __init__(self, c: Canvas, x: float, y: float, w: float, h: float, ink: Ink, line_width: float) -> None:
        self.c, self.x, self.y, self.w, self.h = c, x, y, w, h
        self.sx, self.sy = w / _FRAME_W, h / _FRAME_H
        self.ink, self.lw = ink, line_width

    def p(self, gx: float, gy: float) -> tuple[float, float]:
        return (self.x + (gx - _FRAME_X0) * self.sx, self.y + (gy - _FRAME_Y0) * self.sy)

    def polyline(self, *pts: tuple[float, float], close: bool = False, fill: bool = False) -> None:
        points = [self.p(*q) for q in pts]
        if fill:
            self.c.polygon(points, fill=self.ink)
        elif close:
            self.c.polygon(points, stroke=self.ink, width=self.lw)
        else:
            self.c.polyline(points, stroke=self.ink, width=self.lw)

    def stadium(self, x1: float, y1: float, x2: float, y2: float) -> None:
        """The armour oval: straight top and bottom, half-round ends (as APP-6 draws it, with Bézier ends)."""
        r = (y2 - y1) / 2
        path = Path().move_to(*self.p(x2 - r, y1))
        path.curve_to(*self.p(x2 + r * 0.25, y1), *self.p(x2 + r * 0.25, y2), *self.p(x2 - r, y2))
        path.line_to(*self.p(x1 + r, y2))
        path.curve_to(*self.p(x1 - r * 0.25, y2), *self.p(x1 - r * 0.25, y1), *self.p(x1 + r, y1))
        path.close()
        self.c.path(path, stroke=self.ink, width=self.lw)

    def dot(self, gx: float, gy: float, r: float) -> None:
        cx, cy = self.p(gx, gy)
        self.c.circle(cx, cy, r * min(self.sx, self.sy), fill=self.ink)

    def arc_canopy(self) -> None:
        """Airborne: two half-round arcs side by side at the foot of the frame."""
        path = Path().move_to(*self.p(75, 142))
        path.curve_to(*self.p(75, 126), *self.p(100, 126), *self.p(100, 142))
        path.curve_to(*self.p(100, 126), *self.p(125, 126), *self.p(125, 142))
        self.c.path(path, stroke=self.ink, width=self.lw)


def _cross(p: _Pen) -> None:
    p.polyline((25, 50), (175, 150))
    p.polyline((25, 150), (175, 50))


def _oval(p: _Pen) -> None:
    p.stadium(55, 78, 145, 122)


def _slash(p: _Pen) -> None:
    p.polyline((25, 150), (175, 50))


def _infantry(p: _Pen) -> None:
    _cross(p)


def _armour(p: _Pen) -> None:
    _oval(p)


def _mechanised(p: _Pen) -> None:
    _cross(p)
    _oval(p)


def _motorised(p: _Pen) -> None:
    _cross(p)
    p.polyline((100, 50), (100, 150))


def _cavalry(p: _Pen) -> None:
    _slash(p)


def _recon(p: _Pen) -> None:
    _slash(p)
    _oval(p)


def _artillery(p: _Pen) -> None:
    p.dot(100, 100, 17)


def _anti_tank(p: _Pen) -> None:
    p.polyline((25, 150), (100, 52), (175, 150))


def _engineer(p: _Pen) -> None:
    p.polyline((60, 122), (60, 80), (140, 80), (140, 122))
    p.polyline((100, 80), (100, 112))


def _hq(p: _Pen) -> None:
    p.polyline((25, 78), (175, 78))  # the staff below the frame is drawn by draw_symbol, outside the clip


def _garrison(p: _Pen) -> None:
    _cross(p)
    # Battlements along the foot (static, fortified): a solid base with five merlons.
    pts: list[tuple[float, float]] = [(25, 150)]
    step = 150 / 9
    for i in range(9):
        y = 127 if i % 2 == 0 else 139
        pts += [(25 + i * step, y), (25 + (i + 1) * step, y)]
    pts.append((175, 150))
    p.polyline(*pts, close=True, fill=True)


def _air(p: _Pen) -> None:
    path = Path().move_to(*p.p(100, 100)).line_to(*p.p(128, 88))
    path.curve_to(*p.p(144, 88), *p.p(144, 112), *p.p(128, 112))
    path.line_to(*p.p(72, 88))
    path.curve_to(*p.p(56, 88), *p.p(56, 112), *p.p(72, 112))
    path.close()
    p.c.path(path, fill=p.ink)


def _support(p: _Pen) -> None:
    p.polyline((25, 120), (175, 120))


def _airborne(p: _Pen) -> None:
    _cross(p)
    p.arc_canopy()


def _mountain(p: _Pen) -> None:
    _cross(p)
    p.polyline((84, 150), (100, 126), (116, 150), close=True, fill=True)


def _security(p: _Pen) -> None:
    size = min(p.h * 0.5, 9.0)
    if text_width("SEC", size, FONT_BOLD) > p.w * 0.8:
        size = p.w * 0.8 / text_width("SEC", 1.0, FONT_BOLD)
    if size >= 5.0:
        cx, cy = p.p(100, 100)
        p.c.text(cx, cy + size * 0.36, "SEC", font=FONT_BOLD, size=size, anchor="middle", fill=p.ink)
    else:  # too small to letter legibly: the generic support bar instead
        _support(p)


def _leader(p: _Pen) -> None:
    cx, cy = p.p(100, 100)
    r_out = min(p.w, p.h) * 0.36
    r_in = r_out * 0.4
    points = []
    for i in range(10):
        r = r_out if i % 2 == 0 else r_in
        a = math.pi / 2 + i * math.pi / 5
        points.append((cx + r * math.cos(a), cy - r * math.sin(a)))  # y down: the first point is the top
    p.c.polygon(points, fill=p.ink)


ICONS: dict[UnitType, Callable[[_Pen], None]] = {
    UnitType.INFANTRY: _infantry,
    UnitType.ARMOUR: _armour,
    UnitType.MECHANISED: _mechanised,
    UnitType.MOTORISED: _motorised,
    UnitType.CAVALRY: _cavalry,
    UnitType.RECON: _recon,
    UnitType.ARTILLERY: _artillery,
    UnitType.ANTI_TANK: _anti_tank,
    UnitType.ENGINEER: _engineer,
    UnitType.HQ: _hq,
    UnitType.GARRISON: _garrison,
    UnitType.AIR: _air,
    UnitType.SUPPORT: _support,
    UnitType.AIRBORNE: _airborne,
    UnitType.MOUNTAIN: _mountain,
    UnitType.SECURITY: _security,
    UnitType.LEADER: _leader,
}
"""Every unit type of the model has an icon."""


def draw_symbol(
    c: Canvas,
    unit_type: UnitType,
    *,
    x: float = 0.0,
    y: float = 0.0,
    w: float,
    h: float,
    ink: Ink = "#000000",
    fill: Ink | None = None,
    line_width: float | None = None,
) -> None:
    """Draw ``unit_type``'s frame and icon in the ``w`` x ``h`` box whose top-left corner is ``(x, y)``.

    ``fill`` paints the inside of the frame first (None: leave the background showing).  The HQ staff hangs
    below the box by 30% of its height; everything else stays inside it.
    """
    lw = line_width if line_width is not None else max(0.45, min(w, h) * 0.06)
    if fill is not None:
        c.rect(x, y, w, h, fill=fill)
    pen = _Pen(c, x, y, w, h, ink, lw)
    # Icons never spill outside the frame (the HQ staff aside, drawn after the clip is released).
    with c.saved():
        c.clip_rect(x, y, w, h)
        ICONS[unit_type](pen)
    if unit_type is UnitType.HQ:
        pen.polyline((25, 150), (25, 180))
    c.rect(x, y, w, h, stroke=ink, width=lw)


_SIZE_GLYPHS: dict[UnitSize, str] = {s: s.value for s in UnitSize}


def size_mark_width(size: UnitSize, height: float) -> float:
    """Width of :func:`draw_size_mark`'s glyph row for a mark ``height`` tall."""
    glyphs = _SIZE_GLYPHS[size]
    widths = [height * (0.18 if g == "I" else 0.8) for g in glyphs]
    return sum(widths) + height * 0.32 * (len(glyphs) - 1)


def draw_size_mark(c: Canvas, size: UnitSize, *, cx: float, y: float, height: float, ink: Ink = "#000000") -> None:
    """Draw the size mark (``I`` ... ``XXXX``) as strokes, centred on ``cx`` with its foot at ``y`` (it rises
    ``height`` above it).

    Drawn as vector strokes rather than text so that the mark stays crisp at any counter size.
    """
    glyphs = _SIZE_GLYPHS[size]
    lw = max(0.4, height * 0.2)
    total = size_mark_width(size, height)
    x = cx - total / 2
    top = y - height
    for g in glyphs:
        gw = height * (0.18 if g == "I" else 0.8)
        if g == "I":
            c.line(x + gw / 2, y, x + gw / 2, top, stroke=ink, width=lw)
        else:
            c.line(x, y, x + gw, top, stroke=ink, width=lw)
            c.line(x, top, x + gw, y, stroke=ink, width=lw)
        x += gw + height * 0.32
