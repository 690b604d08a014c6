"""The hex grid: its geometry at true scale, terrain fills and patterns, feature symbols, hexsides (rivers),
paths (roads, railways), hex labels and names, the set-up zone marks, and what runs into the bleed.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import Canvas

from ... import model as m
from ... import units as U
from ...canvas import PdfCanvas
from ...hexgrid import Cell, Grid, GridKind, Hexside, Orientation
from ...pdf import (
    FONT,
    FONT_BOLD,
    compact_code,
    compact_code_after,
    text_width,
)
from ..style import DEFAULT_COLORS, Palette, mix
from .base import _HEX_REST, MIN_PT, PATTERN_MAX, Pen, _Ctx, _fit, _maybe

if TYPE_CHECKING:
    from ...canvas import Canvas as DrawCanvas
    from .sheet import MapLayout


# ==================================================================================================== geometry
@dataclass(frozen=True)
class MapGeometry:
    """Where the grid sits on the sheet: every position the map is drawn at comes from here."""

    grid: Grid
    size: float
    """Cell size across the flats, points (``game.map.hex_size``)."""
    ox: float
    """Sheet x of the grid's bounding box (points, from the sheet's left edge)."""
    oy: float
    """Sheet y of the grid's bounding box (points, down from the sheet's top edge)."""

    def center(self, c: Cell) -> tuple[float, float]:
        x, y = self._grid_center(c)
        return self.ox + x, self.oy + y

    def _grid_center(self, c: Cell) -> tuple[float, float]:
        """``grid.center(c, size)``; for hexes (a million of them on a large map) its arithmetic written out."""
        hexes = self._hex_centring
        if hexes is None:
            return self.grid.center(c, self.size)
        pointy, radius, shifts = hexes
        size = self.size
        if pointy:
            return size * (c.col + 0.5 + shifts[c.row & 1]), radius * (1 + 1.5 * c.row)
        return radius * (1 + 1.5 * c.col), size * (c.row + 0.5 + shifts[c.col & 1])

    @functools.cached_property
    def _hex_centring(self) -> tuple[bool, float, tuple[float, float]] | None:
        """For a hex grid: pointy or not, the centre-to-corner radius and the half-cell shift of an even and of an
        odd row (pointy) or column (flat), as ``Grid.center`` works them out; None for square grids."""
        if self.grid.kind is not GridKind.HEX:
            return None
        self.grid.center(Cell(0, 0), self.size)  # its check of the size
        shifts = (self.grid._half_shift(0), self.grid._half_shift(1))  # depends on the index's parity alone
        return self.grid.orientation is Orientation.POINTY, self.size / math.sqrt(3.0), shifts

    def corners(self, c: Cell) -> list[tuple[float, float]]:
        offsets = self._hex_offsets
        if offsets is None:
            return [(self.ox + x, self.oy + y) for x, y in self.grid.corners(c, self.size)]
        # Hexes (every corner of every hex of a large map): Grid.corners' own sums, written out once.
        x, y = self._grid_center(c)
        ox, oy = self.ox, self.oy
        return [(ox + (x + dx), oy + (y + dy)) for dx, dy in offsets]

    @functools.cached_property
    def _hex_offsets(self) -> tuple[tuple[float, float], ...] | None:
        """The six corner offsets from a hex's centre, in ``Grid.corners``' order and arithmetic (each corner
        there is ``(x + dx, y + dy)`` with these ``dx`` and ``dy``, ``-dx`` written as a subtraction; the same
        float either way); None for square grids."""
        if self.grid.kind is not GridKind.HEX:
            return None
        size = self.size
        h, radius = size / 2, size / math.sqrt(3.0)
        if self.grid.orientation is Orientation.POINTY:
            return ((0.0, -radius), (h, -(radius / 2)), (h, radius / 2), (0.0, radius), (-h, radius / 2),
                    (-h, -(radius / 2)))
        return ((radius, 0.0), (radius / 2, h), (-(radius / 2), h), (-radius, 0.0), (-(radius / 2), -h),
                (radius / 2, -h))

    def pdf_polygon(self, c: Cell, top: float) -> tuple[float, float, Iterator[float], str, str] | None:
        """:meth:`_Corners.pdf_polygon`: the corners of ``c`` are ``(ox + (x + dx), top - (oy + (y + dy)))`` in
        reportlab's space, ``(x, y)`` its centre; their numbers are kept per ``x`` and per ``y``."""
        offsets = self._hex_offsets
        if offsets is None:
            return None
        x, y = self._grid_center(c)
        cache = self._pdf_corners
        if cache[0] != top:
            cache[:] = [top, {}, {}]
        xs, ys = cache[1].get(x), cache[2].get(y)
        if xs is None:
            xs = cache[1][x] = _pdf_axis([self.ox + (x + dx) for dx, _ in offsets])
        if ys is None:
            ys = cache[2][y] = _pdf_axis([top - (self.oy + (y + dy)) for _, dy in offsets])
        return xs[0], ys[0], map(math.hypot, xs[1], ys[1]), f"{xs[2][0]} {ys[2][0]}", _HEX_REST.format(*xs[2], *ys[2])

    @functools.cached_property
    def _pdf_corners(self) -> list[Any]:
        """:meth:`pdf_polygon`'s numbers: ``[top, per x, per y]``."""
        return [None, {}, {}]

    def side_segment(self, s: Hexside) -> tuple[tuple[float, float], tuple[float, float]]:
        (ax, ay), (bx, by) = self.grid.side_segment(s, self.size)
        return (self.ox + ax, self.oy + ay), (self.ox + bx, self.oy + by)

    @property
    def extent(self) -> tuple[float, float]:
        return self.grid.extent(self.size)

    @property
    def inner(self) -> float:
        """Radius of the circle inscribed in a cell."""
        return self.size / 2


def _pdf_axis(values: list[float]) -> tuple[float, list[float], list[str]]:
    """One axis of a hex's six corners (reportlab's space) as :meth:`MapGeometry.pdf_polygon` keeps it: the first
    corner's, the differences from each corner to the next (the last back to the first: ``math.dist``'s, whose
    sign does not count) and each one's ``fp_str``."""
    diffs = [a - b for a, b in zip(values, [*values[1:], values[0]], strict=True)]
    return values[0], diffs, [fp_str(v) for v in values]


# ================================================================================================ map symbols
def _star(cx: float, cy: float, r: float, points: int = 5) -> list[tuple[float, float]]:
    out = []
    for i in range(points * 2):
        rr = r if i % 2 == 0 else r * 0.42
        a = -math.pi / 2 + i * math.pi / points
        out.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return out


def _supply_symbol(pen: Pen, x: float, y: float, r: float, side: m.Side) -> None:
    """A supply source: a disc in the side's colour with a ring and the side's initial (reads in grey)."""
    with pen.frame("symbol", x - r, y - r, 2 * r, 2 * r, f"{side.name} supply source"):
        pen.circle(x, y, r, fill=side.colour, stroke="ink", width=0.7)
        pen.circle(x, y, r * 0.78, stroke=side.text_colour, width=max(0.5, r * 0.08))
        letter = side.name[:1].upper()
        size = max(MIN_PT, r * 1.05)
        pen.text(x, y + size * 0.36, letter, size=size, font=FONT_BOLD, fill=side.text_colour, align="centre")


def _vp_symbol(pen: Pen, x: float, y: float, value: str, size: float) -> None:
    text = f"{value} VP"
    w = text_width(text, size, FONT_BOLD) + 4
    h = size * 1.4
    with pen.frame("symbol", x - w / 2, y - h / 2, w, h, "VP badge"):
        pen.rect(x - w / 2, y - h / 2, w, h, fill="paper", stroke="vp", width=0.9, radius=h / 2)
        pen.text(x, y + size * 0.36, text, size=size, font=FONT_BOLD, fill="vp", align="centre")


def _setup_symbol(pen: Pen, x: float, y: float, code: str, size: float) -> None:
    w = text_width(code, size, FONT_BOLD) + 4
    h = size * 1.35
    with pen.frame("symbol", x - w / 2, y - h / 2, w, h, "setup code"):
        pen.rect(x - w / 2, y - h / 2, w, h, fill="paper", stroke="ink", width=0.5, dash=(1.2, 0.8))
        pen.text(x, y + size * 0.36, code, size=size, font=FONT_BOLD, align="centre")


def _zone_shape(symbol: m.ZoneSymbol, x: float, y: float, r: float) -> list[tuple[float, float]] | None:
    """The outline of a set-up zone's mark (None: a circle)."""
    if symbol is m.ZoneSymbol.CROSS:
        a = r * 0.36
        return [
            (x - a, y - r), (x + a, y - r), (x + a, y - a), (x + r, y - a), (x + r, y + a), (x + a, y + a),
            (x + a, y + r), (x - a, y + r), (x - a, y + a), (x - r, y + a), (x - r, y - a), (x - a, y - a),
        ]  # fmt: skip
    if symbol is m.ZoneSymbol.TRIANGLE:
        return [(x, y - r), (x + r * 0.94, y + r * 0.72), (x - r * 0.94, y + r * 0.72)]
    if symbol is m.ZoneSymbol.SQUARE:
        a = r * 0.82
        return [(x - a, y - a), (x + a, y - a), (x + a, y + a), (x - a, y + a)]
    if symbol is m.ZoneSymbol.STAR:
        return _star(x, y, r * 1.1)
    if symbol is m.ZoneSymbol.DIAMOND:
        return [(x, y - r), (x + r * 0.8, y), (x, y + r), (x - r * 0.8, y)]
    return None


def _zone_colours(ctx: _Ctx, zone: m.SetupZone) -> tuple[str, str]:
    """Fill and outline of a zone's mark: the side's colour outlined in ink (ink outlined in paper without a
    side); the shape, not the colour, tells zones apart in greyscale."""
    side = ctx.side(zone.side) if zone.side else None
    return (side.colour, "ink") if side is not None else ("ink", "paper")


def _zone_symbol(pen: Pen, ctx: _Ctx, zid: str, x: float, y: float, r: float) -> None:
    zone = ctx.game.map.setup_zones[zid]
    fill, stroke = _zone_colours(ctx, zone)
    with pen.frame("symbol", x - r, y - r, 2 * r, 2 * r, f"set-up zone {zid}"):
        shape = _zone_shape(zone.symbol, x, y, r)
        if shape is None:
            pen.circle(x, y, r * 0.9, fill=fill, stroke=stroke, width=0.6)
        else:
            pen.polygon(shape, fill=fill, stroke=stroke, width=0.6)


def zone_name(game: m.Game, zid: str) -> str:
    """What the map key and the set-up sheet call a set-up zone."""
    zone = game.map.setup_zones[zid]
    if zone.name:
        return zone.name
    side = next((s for s in game.game.sides if s.id == zone.side), None)
    own = zid.replace("-", " ").replace("_", " ").capitalize()
    if side is None:
        return own
    shared = sum(1 for z in game.map.setup_zones.values() if z.side == zone.side and not z.name) > 1
    return f"{side.name} set-up" + (f": {own}" if shared else "")


def _reconstructed_mark(pen: Pen, x: float, y: float, r: float) -> None:
    with pen.frame("symbol", x - r, y - r, 2 * r, 2 * r, "reconstructed mark"):
        pen.polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], fill="paper", stroke="reconstructed", width=0.7)


def _unknown_swatch(pen: Pen, x: float, y: float, r: float, grid: Grid) -> None:
    pts, _ = _cell_shape(grid, x, y, r)
    pen.polygon(pts, fill=_UNKNOWN_FILL)
    pen.pattern([pts], m.Pattern.HATCH, "unknown", r * 2.2)
    pen.polygon(pts, stroke="hex_edge", width=0.4)


_UNKNOWN_FILL = "#eeeeee"


def _feature_symbol(pen: Pen, kind: str, x: float, y: float, r: float, fill: str) -> None:
    """A map symbol of half-size ``r`` centred on ``(x, y)``."""
    with pen.frame("symbol", x - r, y - r, 2 * r, 2 * r, kind):
        _draw_feature_symbol(pen, kind, x, y, r, fill)


def _draw_feature_symbol(pen: Pen, kind: str, x: float, y: float, r: float, fill: str) -> None:
    ink = "ink"
    w = max(0.5, r / 14)
    if kind == "city":
        # A built-up area: an irregular block outline with streets of small buildings in it.
        area = [(-1.0, -0.45), (-0.55, -0.95), (0.35, -0.9), (1.0, -0.35), (0.9, 0.55), (0.3, 1.0), (-0.7, 0.85)]
        pen.polygon([(x + ax * r, y + ay * r) for ax, ay in area], fill=fill, stroke=ink, width=w * 1.3)
        blocks = [
            (-0.7, -0.4), (-0.25, -0.65), (0.2, -0.6), (0.55, -0.2), (-0.55, 0.1),
            (-0.1, -0.15), (0.35, 0.2), (-0.3, 0.5), (0.15, 0.6),
        ]  # fmt: skip
        for bx, by in blocks:
            pen.rect(x + (bx - 0.14) * r, y + (by - 0.14) * r, 0.28 * r, 0.28 * r, fill=_ink(fill), stroke=None)
    elif kind == "town":
        for bx, by, bw, bh in ((-0.7, -0.45, 0.75, 0.75), (0.05, -0.2, 0.65, 0.65)):
            pen.rect(x + bx * r, y + by * r, bw * r, bh * r, fill=fill, stroke=ink, width=w)
    elif kind == "village":
        pen.rect(x - 0.35 * r, y - 0.35 * r, 0.7 * r, 0.7 * r, fill=fill, stroke=ink, width=w)
        pen.circle(x, y, 0.12 * r, fill=ink)
    elif kind == "airfield":
        pen.circle(x, y, r, fill=fill, stroke=ink, width=w)
        s = r * 0.8
        plane = [
            (0, -s),
            (0.12 * s, -0.7 * s),
            (0.12 * s, -0.2 * s),
            (0.9 * s, 0.15 * s),
            (0.9 * s, 0.32 * s),
            (0.12 * s, 0.12 * s),
            (0.1 * s, 0.6 * s),
            (0.38 * s, 0.8 * s),
            (0.38 * s, 0.92 * s),
            (0, 0.84 * s),
        ]
        pts = plane + [(-px, py) for px, py in reversed(plane[1:-1])]
        pen.polygon([(x + px, y + py) for px, py in pts], fill=ink)
    elif kind in ("fort", "fortified", "fortified_locality", "fortress"):
        pts = _star(x, y, r, 5)
        pts = [(x + (px - x) * 1.0, y + (py - y) * 1.0) for px, py in pts]
        pen.polygon(pts, fill=fill, stroke=ink, width=w * 1.4)
        pen.circle(x, y, r * 0.22, fill=ink)
    elif kind == "supply":
        pen.polygon(_star(x, y, r), fill=fill, stroke=ink, width=w)
    else:
        pen.rect(x - r * 0.7, y - r * 0.7, r * 1.4, r * 1.4, fill=fill, stroke=ink, width=w)
        t, s = _fit(kind[:3].upper(), r * 1.3, max(MIN_PT, r * 0.7), FONT_BOLD)
        pen.text(x, y + s * 0.36, t, size=s, font=FONT_BOLD, align="centre")


def _symbol_kind(tid: str, t: m.TerrainType) -> str:
    if t.symbol:
        return t.symbol
    low = f"{tid} {t.name}".lower()
    for key in ("city", "town", "village", "airfield", "fort", "supply"):
        if key in low:
            return key
    return tid


def _cell_shape(
    grid: Grid, cx: float, cy: float, r: float
) -> tuple[list[tuple[float, float]], tuple[tuple[float, float], tuple[float, float]]]:
    """A legend cell of the grid's kind (a pointy hex or a square) around ``(cx, cy)``, and its right side."""
    if grid.kind is GridKind.HEX:
        pts = [(cx + r * math.cos(a), cy + r * math.sin(a)) for a in (math.pi / 6 + i * math.pi / 3 for i in range(6))]
        return pts, (pts[5], pts[0])
    h = r * 0.87
    pts = [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]
    return pts, (pts[1], pts[2])


def _swatch(pen: Pen, ctx: _Ctx, tid: str, t: m.TerrainType, x: float, y: float, s: float, cell: float) -> None:
    """The chart's sample of a terrain, ``s`` points square with its top-left at ``(x, y)``."""
    with pen.frame("symbol", x, y, s, s, f"{tid} sample"):
        _draw_swatch(pen, ctx, tid, t, x, y, s, cell)


def _draw_swatch(pen: Pen, ctx: _Ctx, tid: str, t: m.TerrainType, x: float, y: float, s: float, cell: float) -> None:
    cx, cy = x + s / 2, y + s / 2
    r = s / 2
    hexpts, right_side = _cell_shape(ctx.grid, cx, cy, r)
    base = _base_fill(ctx)
    if t.kind is m.TerrainKind.HEX:
        pen.polygon(hexpts, fill=t.colour)
        pen.pattern([hexpts], t.pattern, _ink(t.colour), s * 1.6)
        if t.symbol:
            _feature_symbol(pen, t.symbol, cx, cy, r * 0.45, mix(t.colour, "#ffffff", 0.3))
        pen.polygon(hexpts, stroke="hex_edge", width=0.5)
    elif t.kind is m.TerrainKind.FEATURE:
        pen.polygon(hexpts, fill=base)
        _feature_symbol(pen, _symbol_kind(tid, t), cx, cy, r * 0.55, t.colour)
        pen.polygon(hexpts, stroke="hex_edge", width=0.5)
    elif t.kind is m.TerrainKind.HEXSIDE:
        pen.polygon(hexpts, fill=base)
        pen.polygon(hexpts, stroke="hex_edge", width=0.5)
        _draw_hexside(pen, ctx, tid, t, right_side, cell)
    else:
        pen.polygon(hexpts, fill=base)
        pen.polygon(hexpts, stroke="hex_edge", width=0.5)
        _draw_path(pen, tid, t, [(x - 1, cy + r * 0.3), (cx, cy), (x + s + 1, cy - r * 0.3)], cell)


def draw_terrain_sample(
    c: Canvas | DrawCanvas, game: m.Game, options: Any, tid: str, s: float, x: float = 0.0, y: float = 0.0
) -> None:
    """The terrain chart's sample of ``tid`` (its cell with the fill and pattern, symbol or line the map draws),
    ``s`` points square: on a :class:`forge.canvas.Canvas` with its top-left corner at ``(x, y)`` (y down), on a
    reportlab canvas with its lower-left corner at the origin (y up).  The cards draw exactly what the map's
    legend shows, in the same palette."""
    from ...canvas import Canvas as Surface

    palette = {**DEFAULT_COLORS, **Palette.of(game, options).mapping()}
    ctx = _Ctx(game, options, palette, game.map.grid.grid(), {}, {})
    cell = min(U.length(game.map.hex_size), PATTERN_MAX)
    pen = Pen(c if isinstance(c, Surface) else PdfCanvas(c, top=s), options, palette)
    _swatch(pen, ctx, tid, game.terrain[tid], x, y, s, cell)


def _base_fill(ctx: _Ctx) -> str:
    dt = ctx.game.map.default_terrain
    if dt and dt in ctx.game.terrain:
        return ctx.game.terrain[dt].colour
    return "#f4f1e6"


def _ink(fill: str) -> str:
    """Pattern ink over a fill: the fill darkened, so a pattern keeps its terrain's hue and reads in grey."""
    return mix(fill, "#000000", 0.38)


def _is_river(tid: str, t: m.TerrainType) -> bool:
    low = f"{tid} {t.name}".lower()
    return any(k in low for k in ("river", "stream", "canal", "creek", "water")) or t.pattern is m.Pattern.WAVES


def _wave(ax: float, ay: float, bx: float, by: float, width: float) -> list[tuple[float, float]]:
    """Points of a wave along the segment from a to b, inside a band ``width`` wide: whole periods, ends on the
    line (so that neighbouring hexsides join)."""
    ln = math.hypot(bx - ax, by - ay)
    if ln == 0:
        return [(ax, ay), (bx, by)]
    ux, uy = (bx - ax) / ln, (by - ay) / ln
    periods = max(1, round(ln / (width * 3.2)))
    steps = periods * 12
    amp = width * 0.22
    out = []
    for i in range(steps + 1):
        t = ln * i / steps
        off = amp * math.sin(2 * math.pi * periods * i / steps)
        out.append((ax + ux * t - uy * off, ay + uy * t + ux * off))
    return out


def _draw_hexside(
    pen: Pen,
    ctx: _Ctx,
    tid: str,
    t: m.TerrainType,
    seg: tuple[tuple[float, float], tuple[float, float]],
    cell: float,
) -> None:
    (ax, ay), (bx, by) = seg
    low = f"{tid} {t.name}".lower()
    if "bridge" in low:
        # Two short brackets across the hexside, like a printed bridge.
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = bx - ax, by - ay
        ln = math.hypot(dx, dy) or 1.0
        ux, uy = dx / ln, dy / ln
        nx, ny = -uy, ux
        half, off = cell * 0.1, cell * 0.05
        for sgn in (-1, 1):
            ox, oy = mx + sgn * off * ux, my + sgn * off * uy
            pen.polyline(
                [
                    (ox - nx * half + sgn * ux * 2, oy - ny * half + sgn * uy * 2),
                    (ox - nx * half, oy - ny * half),
                    (ox + nx * half, oy + ny * half),
                    (ox + nx * half + sgn * ux * 2, oy + ny * half + sgn * uy * 2),
                ],
                stroke="ink",
                width=max(0.8, cell / 90),
            )
        return
    if _is_river(tid, t):
        major = "major" in low or "wide" in low
        width = max(2.2, cell * (0.06 if major else 0.04))
        river = t.colour if t.colour.lower() != "#ffffff" else pen.colors["river"]
        pen.polyline([(ax, ay), (bx, by)], stroke=river, width=width)
        if major:  # a darker bank line keeps major rivers apart from minor ones in greyscale
            pen.polyline([(ax, ay), (bx, by)], stroke=mix(river, "#ffffff", 0.55), width=width * 0.3)
        elif pen.greyscale:  # its blue gone, a river would be a plain thick hexside: a wave along it says water
            pen.polyline(_wave(ax, ay, bx, by, width), stroke="#ffffff", width=max(0.5, width * 0.22))
        return
    dash = (4.0, 2.0, 1.0, 2.0) if "border" in low else None
    pen.polyline(
        [(ax, ay), (bx, by)],
        stroke=_ink(t.colour) if t.colour.lower() == "#ffffff" else t.colour,
        width=max(1.8, cell * 0.03),
        dash=dash,
    )


def _draw_path(pen: Pen, tid: str, t: m.TerrainType, pts: list[tuple[float, float]], cell: float) -> None:
    low = f"{tid} {t.name}".lower()
    if "rail" in low.replace("trail", ""):
        w = max(1.0, cell / 90)
        pen.polyline(pts, stroke="railway", width=w)
        # Cross ties along the line.
        step = max(4.0, cell / 14)
        for (ax, ay), (bx, by) in itertools.pairwise(pts):
            ln = math.hypot(bx - ax, by - ay)
            if ln == 0:
                continue
            ux, uy = (bx - ax) / ln, (by - ay) / ln
            k = 1
            while k * step < ln:
                px, py = ax + ux * k * step, ay + uy * k * step
                pen.polyline(
                    [(px - uy * w * 2, py + ux * w * 2), (px + uy * w * 2, py - ux * w * 2)],
                    stroke="railway",
                    width=w * 0.8,
                    cap=0,
                )
                k += 1
        return
    colour_ = t.colour if t.colour.lower() != "#ffffff" else pen.colors["road"]
    w = max(1.4, cell * 0.022)
    if "trail" in low or "track" in low:
        pen.polyline(pts, stroke=colour_, width=w * 0.8, dash=(w * 2, w * 1.5), cap=0)
        return
    pen.polyline(pts, stroke="ink", width=w + 1.0)
    pen.polyline(pts, stroke=colour_, width=w)


# ================================================================================================ map drawing
def _terrain_fill(ctx: _Ctx, tid: str | None) -> str:
    return ctx.game.terrain[tid].colour if tid is not None else _UNKNOWN_FILL


class _Corners(Sequence[tuple[float, float]]):
    """A cell's corners, worked out when read (the last cell read keeps them): the polygons of a million hexes
    held as a million small objects, not six million points."""

    __slots__ = ("cell", "geom")
    _last: tuple[_Corners | None, list[tuple[float, float]]] = (None, [])

    def __init__(self, geom: MapGeometry, cell: Cell) -> None:
        self.geom, self.cell = geom, cell

    def _points(self) -> list[tuple[float, float]]:
        last = _Corners._last
        if last[0] is self:
            return last[1]
        points = self.geom.corners(self.cell)
        _Corners._last = (self, points)
        return points

    def __len__(self) -> int:
        return len(self._points())

    @overload
    def __getitem__(self, i: int) -> tuple[float, float]: ...
    @overload
    def __getitem__(self, i: slice) -> list[tuple[float, float]]: ...
    def __getitem__(self, i: int | slice) -> tuple[float, float] | list[tuple[float, float]]:
        last = _Corners._last  # read five times a polygon as it is drawn: no second call
        return last[1][i] if last[0] is self else self._points()[i]

    def __iter__(self) -> Iterator[tuple[float, float]]:
        return iter(self._points())

    def __bool__(self) -> bool:
        return True

    def pdf_polygon(self, top: float) -> tuple[float, float, Iterator[float], str, str] | None:
        """What :meth:`forge.render.style.PathBatch.polygon_of` needs to draw this hex on a PDF canvas whose
        origin is ``top`` (reportlab's y of sheet y 0): the numbers and strings its polygon path would work out
        from the corners, the same to the last bit, from those of its column and its row (a hex's corners share
        their x with its column's, their y with its row's); None for a square grid."""
        return self.geom.pdf_polygon(self.cell, top)


COMPACT_EVERY = 2048
"""Hexes drawn between two joins of the PDF operators drawn so far (:func:`forge.pdf.compact_code`)."""
FAST_PATHS_ABOVE = 20_000
"""A map of more hexes than this is written faster, to other bytes for the same picture: its two forms are
compressed at :data:`FAST_DEFLATE` and left binary (no ASCII85), and runs of hex labels share their text objects
(:attr:`forge.canvas.PdfCanvas.join_text`).  tests/test_map_fastpaths.py holds both to the plain path's pixels."""
FAST_DEFLATE = 2
"""zlib's level for a large map's forms: about three times as fast as reportlab's (zlib's default, 6), for a
sixth more bytes."""


def _draw_grid(pen: Pen, ctx: _Ctx, geom: MapGeometry) -> None:
    """The map proper: fills, patterns, hexsides, paths, symbols and text, in that order."""
    game, grid, size = ctx.game, ctx.grid, geom.size
    texture = min(size, PATTERN_MAX)
    rl = getattr(pen.c, "c", None)  # the reportlab canvas under a PdfCanvas
    recording = getattr(pen.c, "recorder", None) is not None
    # Without text only the listed hexes draw anything of their own (_draw_hex_content), in the grid's order.
    every = pen.text_enabled or recording
    cells = list(grid.cells()) if every else sorted(ctx.hexes, key=lambda c: (c.row, c.col))
    # A recorded sheet still leaves its fills for the thumbnail to replay (which is drawn unrecorded); a recorded
    # thumbnail draws its own, for their records.
    replay = ctx.replay if rl is not None and (not recording or pen.text_enabled) else None
    if replay is None or pen.text_enabled or not replay.replay(rl):
        snap = replay.start(rl) if replay is not None and replay.armed and pen.text_enabled else None
        # One fill and one pattern per terrain, each over all its cells: far fewer PDF operators than per hex,
        # and the texture runs on across neighbouring hexes of one terrain.
        polygons = [_Corners(geom, cell) for cell in (cells if every else grid.cells())]
        by_terrain: dict[str | None, list[_Corners]] = {}
        for poly in polygons:
            by_terrain.setdefault(ctx.terrain_of[poly.cell], []).append(poly)
        order = [t for t in game.terrain if t in by_terrain] + ([None] if None in by_terrain else [])
        for tid in order:
            polys = by_terrain[tid]
            if tid is None:
                pen.polygons(polys, fill=_UNKNOWN_FILL)
                pen.pattern(polys, m.Pattern.HATCH, "unknown", texture)
                continue
            t = game.terrain[tid]
            pen.polygons(polys, fill=t.colour)
            pen.pattern(polys, t.pattern, _ink(t.colour), texture)
        del by_terrain
        edge_w = max(0.45, size / 200)
        pen.polygons(polygons, stroke="hex_edge", width=edge_w)
        if snap is not None and replay is not None:
            replay.finish(rl, snap)
        del polygons
    # Paths under hexside lines would hide rivers' bridges; roads go over rivers as on printed maps.
    for hs in game.map.hexsides:
        try:
            a, b = grid.parse(hs.between[0]), grid.parse(hs.between[1])
            seg = geom.side_segment(Hexside.between(a, b))
        except ValueError:
            continue
        for fid in sorted(hs.features, key=lambda f: "bridge" in f):
            if fid in game.terrain:
                _draw_hexside(pen, ctx, fid, game.terrain[fid], seg, texture)
    for path in game.map.paths:
        if path.kind not in game.terrain:
            continue
        try:
            pts = [geom.center(grid.parse(h)) for h in path.hexes]
        except ValueError:
            continue
        _draw_path(pen, path.kind, game.terrain[path.kind], pts, texture)
    big = grid.columns * grid.rows > COMPACT_EVERY  # only a large map reaches into reportlab's operators (forge.pdf)
    if big:
        compact_code_after(rl)  # the batched fills and lines above are long strings already
    # A very large map's labels, drawn one after the other, share their text objects (PdfCanvas.join_text).
    joined = pen.c if isinstance(pen.c, PdfCanvas) and grid.columns * grid.rows > FAST_PATHS_ABOVE else None
    if joined is not None:
        joined.join_text = True
    for k, cell in enumerate(cells):
        if not recording:  # the hex's frame is for the layout checker only
            _draw_hex_content(pen, ctx, geom, cell)
        else:
            corners = geom.corners(cell)
            x0, y0 = min(p[0] for p in corners), min(p[1] for p in corners)
            x1, y1 = max(p[0] for p in corners), max(p[1] for p in corners)
            with pen.frame("container", x0, y0, x1 - x0, y1 - y0, f"hex {ctx.grid.label(cell)}"):
                _draw_hex_content(pen, ctx, geom, cell)
        if big and k % COMPACT_EVERY == COMPACT_EVERY - 1:
            compact_code(rl)
    if joined is not None:
        joined.join_text = False


def _draw_hex_content(pen: Pen, ctx: _Ctx, geom: MapGeometry, cell: Cell) -> None:
    zones = ctx.zones_at.get(cell)
    if not pen.text_enabled and cell not in ctx.hexes and not zones:
        return  # an unlisted hex has only its label (and "?"): nothing without text (the thumbnail form)
    game, size = ctx.game, geom.size
    cx, cy = geom.center(cell)
    ri = geom.inner
    info = ctx.hexes.get(cell)
    tid = ctx.terrain_of[cell]
    fill = _terrain_fill(ctx, tid)
    patterned = tid is None or game.terrain[tid].pattern is not m.Pattern.NONE
    # Hex label at the top, on a knock-out of the hex's own colour so patterns never cross it.
    label = ctx.grid.label(cell)
    lsize = min(8.0, max(MIN_PT, size * 0.055))
    ly = cy - 0.70 * ri
    lw = text_width(label, lsize, FONT)
    if patterned:
        pen.knockout(cx - lw / 2 - 2, ly - lsize * 0.9, lw + 4, lsize * 1.2, fill=fill)
    pen.text(cx, ly, label, size=lsize, fill="label", align="centre")
    if zones:
        # Set-up marks beside the label: left of it, then right of it (past the reconstructed mark), by turns.
        zr = max(2.5, 0.13 * ri)
        recon = 2 * max(2.0, lsize * 0.4) + 2.2 if info is not None and info.reconstructed else 0.0
        left, right = cx - lw / 2 - 1.5 - zr, cx + lw / 2 + 1.5 + recon + zr
        for i, zid in enumerate(zones):
            zx = left if i % 2 == 0 else right
            if patterned:  # a disc of paper keeps a round mark apart from a pattern's blobs (trees)
                pen.circle(zx, ly - lsize * 0.35, zr * 1.3, fill="paper")
            _zone_symbol(pen, ctx, zid, zx, ly - lsize * 0.35, zr)
            if i % 2 == 0:
                left -= 2 * zr + 1.0
            else:
                right += 2 * zr + 1.0
    if info is None:
        if tid is None:
            pen.text(cx, cy + 3, "?", size=max(MIN_PT, size * 0.1), fill="unknown", align="centre")
        return
    if info.reconstructed:
        _reconstructed_mark(pen, cx + lw / 2 + 2.2 + max(2.0, lsize * 0.4), ly - lsize * 0.3, max(2.0, lsize * 0.4))
    features = [f for f in info.features if f in game.terrain]
    base = game.terrain[tid] if tid is not None else None
    kinds: list[tuple[str, str]] = []
    if base is not None and base.symbol:
        kinds.append((base.symbol, mix(base.colour, "#ffffff", 0.3)))
    kinds += [(_symbol_kind(f, game.terrain[f]), game.terrain[f].colour) for f in features]
    side = ctx.side(info.supply) if info.supply else None
    vp_text = _maybe(info.vp) if info.vp is not None else None
    _symbol_row(pen, cx, cy - 0.1 * ri, ri, kinds, side, vp_text, min(8.0, max(MIN_PT, size * 0.055)))
    if info.name:
        nsize = min(9.0, max(MIN_PT, size * 0.068))
        t, s = _fit(info.name, size * 1.5, nsize, FONT_BOLD)
        ny = cy + 0.58 * ri
        nw = text_width(t, s, FONT_BOLD)
        if patterned:
            pen.knockout(cx - nw / 2 - 1.5, ny - s * 0.82, nw + 3, s * 1.1, fill=mix(fill, "#ffffff", 0.45))
        pen.text(cx, ny, t, size=s, font=FONT_BOLD, fill="name", align="centre")
    if info.setup:
        ssize = min(7.0, max(MIN_PT, size * 0.05))
        code, ssize = _fit(info.setup, 0.9 * size, ssize, FONT_BOLD)
        _setup_symbol(pen, cx, cy + 0.84 * ri - ssize * 0.4, code, ssize)
    if tid is None and not (kinds or side or info.name or vp_text):
        pen.text(cx, cy + 3, "?", size=max(MIN_PT, size * 0.1), fill="unknown", align="centre")


def _symbol_row(
    pen: Pen,
    cx: float,
    y: float,
    ri: float,
    kinds: list[tuple[str, str]],
    side: m.Side | None,
    vp: str | None,
    vp_size: float,
) -> None:
    """Supply source, feature symbols and VP badge side by side across the hex's middle, centred on ``cx``,
    shrunk together until the row fits inside the hex."""
    sr = max(5.0, 0.19 * ri)
    r = ri * (0.34 if len(kinds) <= 1 else 0.25)
    gap = 0.1 * ri
    vp_w = text_width(f"{vp} VP", vp_size, FONT_BOLD) + 4 if vp is not None else 0.0

    def total(rr: float) -> float:
        widths = ([2 * sr] if side else []) + [2 * rr] * len(kinds) + ([vp_w] if vp is not None else [])
        return sum(widths) + gap * max(0, len(widths) - 1)

    while kinds and total(r) > 1.75 * ri and r > 0.12 * ri:
        r *= 0.9
    x = cx - total(r) / 2
    if side is not None:
        _supply_symbol(pen, x + sr, y, sr, side)
        x += 2 * sr + gap
    for kind, col in kinds:
        _feature_symbol(pen, kind, x + r, y, r, col)
        x += 2 * r + gap
    if vp is not None:
        _vp_symbol(pen, x + vp_w / 2, y, vp, vp_size)


def _half_plane(poly: Sequence[tuple[float, float]], axis: int, limit: float, sign: int) -> list[tuple[float, float]]:
    """The part of ``poly`` where ``sign * (p[axis] - limit) >= 0`` (one Sutherland-Hodgman step)."""
    out: list[tuple[float, float]] = []
    for a, b in zip(poly, [*poly[1:], poly[0]], strict=True):
        da, db = sign * (a[axis] - limit), sign * (b[axis] - limit)
        if da >= 0:
            out.append(a)
        if (da >= 0) != (db >= 0):
            t = da / (da - db)
            out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
    return out


BLEED_REACH = 0.01
"""How close (points) a hex must come to the trim to count as reaching it (the tabletop grid's squares end on it)."""

_Edge = tuple[int, float, int, float, float]


def _trim_edges(w: float, h: float, bleed: float) -> tuple[_Edge, ...]:
    """The trim's four edges, top, bottom, left, right, each as (the axis across it, the trim line, the side its
    bleed lies on, the bleed's edge, the length of the trim along it)."""
    return ((1, 0.0, -1, -bleed, w), (1, h, 1, h + bleed, w), (0, 0.0, -1, -bleed, h), (0, w, 1, w + bleed, h))


def _band(edge: _Edge, bleed: float) -> tuple[float, float, float, float]:
    """The bleed band outside ``edge`` as ``x, y, w, h``, the corners included (nothing of the trim)."""
    axis, line, _sign, outer, length = edge
    a, b = sorted((line, outer))
    return (-bleed, a, length + 2 * bleed, b - a) if axis == 1 else (a, -bleed, b - a, length + 2 * bleed)


def _across(edge: _Edge, along: float, at: float) -> tuple[float, float]:
    """The point ``along`` the edge at ``at`` across it (sheet coordinates)."""
    return (along, at) if edge[0] == 1 else (at, along)


def _bleed_spans(geom: MapGeometry, w: float, h: float, bleed: float) -> list[tuple[Cell, int, float, float]]:
    """Each hex the sheet's trim cuts (or that ends on it), with the edge (an index of :func:`_trim_edges`) and the
    span of the trim line it covers, within the trim."""
    out: list[tuple[Cell, int, float, float]] = []
    r = BLEED_REACH
    edges = _trim_edges(w, h, bleed)
    for cell in geom.grid.cells():
        corners = geom.corners(cell)
        for k, (axis, line, sign, _outer, length) in enumerate(edges):
            reach = max(p[axis] for p in corners) if sign > 0 else min(p[axis] for p in corners)
            if sign * (reach - line) < -r:
                continue  # the hex does not reach this edge
            part = _half_plane(corners, axis, line - sign * r, sign)
            if not part:
                continue
            along = [p[1 - axis] for p in part]
            lo, hi = max(min(along), 0.0), min(max(along), length)
            if hi - lo > r:
                out.append((cell, k, lo, hi))
    return out


def _bleed_strips(
    ctx: _Ctx, spans: list[tuple[Cell, int, float, float]], edges: tuple[_Edge, ...], bleed: float
) -> dict[str | None, list[list[tuple[float, float]]]]:
    """Rectangles that run each hex the sheet's trim cuts (or that ends on it) straight out to the bleed's edge,
    by terrain: the cut's span of the hex, extended across a corner when it reaches the neighbouring edge.  What
    lies on the trim line continues into the bleed, so a cut that drifts outward shows no white sliver.  The
    corners belong to the top and bottom strips: no two rectangles of one terrain overlap (they are filled as
    one path, even-odd, where an overlap would be a hole)."""
    out: dict[str | None, list[list[tuple[float, float]]]] = {}
    r = BLEED_REACH
    for cell, k, lo, hi in spans:
        axis, line, _sign, outer, length = edges[k]
        if axis == 1:
            lo = -bleed if lo <= r else lo
            hi = length + bleed if hi >= length - r else hi
        a, b = sorted((line, outer))
        rect = [(lo, a), (hi, a), (hi, b), (lo, b)] if axis == 1 else [(a, lo), (b, lo), (b, hi), (a, hi)]
        out.setdefault(ctx.terrain_of[cell], []).append(rect)
    return out


def _bleed_sides(
    spans: list[tuple[Cell, int, float, float]], edges: tuple[_Edge, ...]
) -> list[tuple[int, float]]:
    """Where the hexes' outlines cross the trim: the sides of the strips (:func:`_bleed_strips`) that are not at a
    corner, each once, as (edge index, position along the edge), sorted."""
    r = BLEED_REACH
    sides: set[tuple[int, float]] = set()
    for _cell, k, lo, hi in spans:
        length = edges[k][4]
        sides.update((k, round(v, 6)) for v in (lo, hi) if r < v < length - r)
    return sorted(sides)


def _trim_crossing(
    a: tuple[float, float], b: tuple[float, float], edge: _Edge
) -> tuple[float, float] | None:
    """Where the segment ``a``-``b`` leaves the trim across ``edge`` (or ends on it, coming from inside), within
    the edge's length; None when it stays inside, lies along the trim line or runs wholly outside (a part past the
    trim is drawn whole there)."""
    axis, line, sign, _outer, length = edge
    r = BLEED_REACH
    da, db = sign * (a[axis] - line), sign * (b[axis] - line)  # above 0: past the trim
    if da > db:
        a, b, da, db = b, a, db, da
    if db < -r or da >= -r:
        return None
    t = 1.0 if db <= r else -da / (db - da)
    p = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
    return p if 0.0 <= p[1 - axis] <= length else None


def _is_bridge(fid: str, game: m.Game) -> bool:
    """A bridge is drawn across its hexside's middle (:func:`_draw_hexside`), not along it: nothing runs on."""
    return "bridge" in f"{fid} {game.terrain[fid].name}".lower()


def _draw_bleed_lines(
    pen: Pen, ctx: _Ctx, lay: MapLayout, spans: list[tuple[Cell, int, float, float]], bleed: float
) -> None:
    """The hex lines and hexside features (rivers, borders) that cross the trim, run straight on to the bleed's
    edge as the strips of terrain between them do (:func:`_bleed_strips`): each in its own edge's bleed band,
    so nothing inside the trim changes.  Drawn under the grid, whose hexes past the trim are drawn whole."""
    game, geom = ctx.game, lay.geometry
    edges = _trim_edges(lay.sheet_w, lay.sheet_h, bleed)
    texture = min(geom.size, PATTERN_MAX)
    sides = _bleed_sides(spans, edges)
    features: list[tuple[str, tuple[float, float], int]] = []
    for hs in game.map.hexsides:
        try:
            seg = geom.side_segment(Hexside.between(ctx.grid.parse(hs.between[0]), ctx.grid.parse(hs.between[1])))
        except ValueError:
            continue
        for k, edge in enumerate(edges):
            p = _trim_crossing(seg[0], seg[1], edge)
            if p is not None:
                features += [(fid, p, k) for fid in hs.features if fid in game.terrain and not _is_bridge(fid, game)]
    for k, edge in enumerate(edges):
        mine = [v for j, v in sides if j == k]
        theirs = [(fid, p) for fid, p, j in features if j == k]
        if not (mine or theirs):
            continue
        _axis, line, _sign, outer, _length = edge
        with pen.c.saved():
            pen.clip_rect(*_band(edge, bleed))
            for v in mine:
                pen.polyline([_across(edge, v, line), _across(edge, v, outer)], stroke="hex_edge",
                             width=max(0.45, geom.size / 200), cap=0)  # fmt: skip
            for fid, p in theirs:
                along = p[1 - edge[0]]
                _draw_hexside(pen, ctx, fid, game.terrain[fid], (p, _across(edge, along, outer)), texture)


def _draw_bleed_paths(pen: Pen, ctx: _Ctx, lay: MapLayout, bleed: float) -> None:
    """A road (any path) whose end lies past the trim, heading out, runs straight on to the bleed's edge, in that
    edge's bleed band (a path ends at a hex's centre: one past the trim is a hex drawn whole there).  A path that
    ends inside the trim ends there: it does not reach the trim, and nothing inside the trim changes."""
    game, geom = ctx.game, lay.geometry
    edges = _trim_edges(lay.sheet_w, lay.sheet_h, bleed)
    texture = min(geom.size, PATTERN_MAX)
    r = BLEED_REACH
    for path in game.map.paths:
        if path.kind not in game.terrain or len(path.hexes) < 2:
            continue
        try:
            pts = [geom.center(ctx.grid.parse(h)) for h in path.hexes]
        except ValueError:
            continue
        tips: list[tuple[float, float] | None] = []
        bands: list[_Edge] = []
        for end, prev in ((pts[-1], pts[-2]), (pts[0], pts[1])):
            dx, dy = end[0] - prev[0], end[1] - prev[1]
            run = math.hypot(dx, dy)
            tip = None
            for edge in edges if run > 0 else ():
                axis, line, sign, outer, _length = edge
                past, heading = sign * (end[axis] - line), sign * (dx, dy)[axis] / run
                reach = (outer - end[axis]) * sign / heading if past > r and heading > 0 else 0.0
                if reach > 0:  # to the bleed's edge
                    tip = (end[0] + dx / run * reach, end[1] + dy / run * reach)
                    bands.append(edge)
                    break
            tips.append(tip)
        if not bands:
            continue
        # The whole path again with its ends run on, in the bands only: there it is the same road stroke for
        # stroke, so the run-on joins it without a seam (a stroke of its own would put its end cap across it).
        longer = [*([tips[1]] if tips[1] else []), *pts, *([tips[0]] if tips[0] else [])]
        for edge in dict.fromkeys(bands):
            with pen.c.saved():
                pen.clip_rect(*_band(edge, bleed))
                _draw_path(pen, path.kind, game.terrain[path.kind], longer, texture)
