"""Tiling a sheet larger than the paper: the tile pages with their crop and registration marks, overlap strips,
headers and footers, and the assembly page.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from ... import tiling
from ...pdf import (
    FONT,
    FONT_BOLD,
    text_width,
)
from .. import fit
from ..fit import fit_line
from .base import INCH, MIN_PT, _fit, _inches, _wrap
from .sheet import _compact_title_box, _sheet_caption

if TYPE_CHECKING:
    from .base import Pen, _Ctx
    from .sheet import MapLayout


def _occupied(ctx: _Ctx, lay: MapLayout, page: int) -> list[tiling.Rect]:
    """What is printed on a chart sheet: its title line and its chart items (tiles missing all are blank)."""
    out = [_compact_title_box(ctx, lay, page)[2]]
    out += [tiling.Rect(p.x, p.y, p.w, p.item.height) for p in lay.pages[page].placed]
    return out


def _printed_tiles(ctx: _Ctx, lay: MapLayout, tplan: tiling.TilePlan, page: int) -> list[tiling.Tile]:
    """The tiles of a sheet worth a page: those that hold something.  On a map sheet that is the grid, the charts
    and the title; a stated sheet larger than what the data draws on it (Escape from Hell's Gate's partial map on
    its 22x34 in sheet) leaves tiles of bare paper, which the assembly plan marks "blank: not printed"."""
    if lay.pages[page].kind == "map":
        g = lay.geometry
        gw, gh = g.grid.extent(g.size)
        used = [tiling.Rect(g.ox, g.oy, gw, gh)]
        used += [tiling.Rect(p.x, p.y, p.w, p.item.height) for p in lay.pages[page].placed]
        if not lay.title_on_map:
            used.append(_compact_title_box(ctx, lay, page)[2])
    else:
        used = _occupied(ctx, lay, page)
    return [t for t in tplan.tiles if any(_own_part(t).intersection(r) is not None for r in used)]


def _own_part(tile: tiling.Tile) -> tiling.Rect:
    """The part of a tile no earlier tile prints: its source less the strips it shares with the tiles to its left
    and above (content there is on those tiles too, so it alone does not make this tile worth a page)."""
    r = tile.source
    x0, y0, x1, y1 = r.x, r.y, r.x + r.w, r.y + r.h
    for strip in tile.strips:
        if strip.side == "left":
            x0 = max(x0, strip.rect.x + strip.rect.w)
        elif strip.side == "top":
            y0 = max(y0, strip.rect.y + strip.rect.h)
    return tiling.Rect(x0, y0, x1 - x0, y1 - y0)


CROP_CLEAR = 4.0
"""Room kept between a tile's vertical crop mark and the header or footer text beside it."""


def _crop_marks(pen: Pen, x: float, y: float, w: float, h: float, paper_w: float, paper_h: float) -> None:
    """Crop marks at a tile's corners, outside it: each as long as 0.22 in allows before the printer margin
    (``tiling.PRINTABLE_MARGIN``) of the paper edge it points to."""
    gap = 0.06 * INCH
    keep = tiling.PRINTABLE_MARGIN
    for cx, sx in ((x, -1), (x + w, 1)):
        for cy, sy in ((y, -1), (y + h, 1)):
            room_x = (cx if sx < 0 else paper_w - cx) - keep - gap
            room_y = (cy if sy < 0 else paper_h - cy) - keep - gap
            lx, ly = min(0.22 * INCH, room_x), min(0.22 * INCH, room_y)
            if lx > 0:
                x0, x1 = sorted((cx + sx * gap, cx + sx * (gap + lx)))
                with pen.frame("mark", x0, cy - 0.175, x1 - x0, 0.35, "crop mark"):
                    pen.polyline([(x0, cy), (x1, cy)], stroke="crop", width=0.35, cap=0)
            if ly > 0:
                y0, y1 = sorted((cy + sy * gap, cy + sy * (gap + ly)))
                with pen.frame("mark", cx - 0.175, y0, 0.35, y1 - y0, "crop mark"):
                    pen.polyline([(cx, y0), (cx, y1)], stroke="crop", width=0.35, cap=0)


def _registration(pen: Pen, x: float, y: float, r: float) -> None:
    with pen.frame("mark", x - r * 1.35, y - r * 1.35, r * 2.7, r * 2.7, "registration mark"):
        pen.circle(x, y, r, stroke="crop", width=0.35)
        pen.circle(x, y, r * 0.45, stroke="crop", width=0.35)
        pen.polyline([(x - r * 1.35, y), (x + r * 1.35, y)], stroke="crop", width=0.35, cap=0)
        pen.polyline([(x, y - r * 1.35), (x, y + r * 1.35)], stroke="crop", width=0.35, cap=0)


REG_RADIUS = 0.09 * INCH
"""Radius of a registration mark's outer circle; its cross reaches 1.35 times as far."""
REG_REACH = 1.35 * REG_RADIUS


class Obstacles(list[tiling.Rect]):
    """:func:`mark_obstacles`' rectangles, with a bucket index: :meth:`near` finds those about a strip without
    going through every hex of the sheet (a 1,000 x 1,000 map has a million labels and thousands of strips)."""

    BUCKET = 72.0

    def __init__(self, rects: Sequence[tiling.Rect] = ()) -> None:
        super().__init__(rects)
        self._index: dict[tuple[int, int], list[int]] | None = None
        self.strips: dict[tuple[float, float, float, float, bool], list[tuple[list[float], list[float]]]] = {}
        """:func:`_strip_clearances` of a strip one tile has asked for and its neighbour has not yet."""

    def _cells(self, r: tiling.Rect) -> Iterator[tuple[int, int]]:
        b = self.BUCKET
        for gx in range(math.floor(r.x / b), math.floor((r.x + r.w) / b) + 1):
            for gy in range(math.floor(r.y / b), math.floor((r.y + r.h) / b) + 1):
                yield gx, gy

    def near(self, box: tiling.Rect) -> list[tiling.Rect]:
        """Every rectangle that may overlap ``box`` (and some that do not), in their order here."""
        if self._index is None:
            self._index = {}
            for i, r in enumerate(self):
                for key in self._cells(r):
                    self._index.setdefault(key, []).append(i)
        found: set[int] = set()
        for key in self._cells(box):
            found.update(self._index.get(key, ()))
        return [self[i] for i in sorted(found)]


def mark_obstacles(ctx: _Ctx, lay: MapLayout, page: int) -> Obstacles:
    """What a registration mark must not cover on a sheet, in sheet coordinates: every hex label, the symbols,
    names and badges of every hex that has them, the charts and the title box."""
    out = Obstacles([tiling.Rect(p.x, p.y, p.w, p.item.height) for p in lay.pages[page].placed])
    if not lay.title_on_map or lay.pages[page].kind != "map":
        out.append(_compact_title_box(ctx, lay, page)[2])
    if lay.pages[page].kind != "map":
        return out
    geom = lay.geometry
    ri = geom.inner
    lsize = min(8.0, max(MIN_PT, geom.size * 0.055))
    for cell in geom.grid.cells():
        cx, cy = geom.center(cell)
        lw = text_width(ctx.grid.label(cell), lsize, FONT) + 4
        out.append(tiling.Rect(cx - lw / 2, cy - 0.70 * ri - lsize * 0.9, lw, lsize * 1.2))
        info = ctx.hexes.get(cell)
        if info is not None and (info.name or info.features or info.supply or info.vp is not None or info.setup):
            out.append(tiling.Rect(cx - 0.9 * ri, cy - 0.48 * ri, 1.8 * ri, 1.38 * ri))
        elif ctx.terrain_of[cell] is None:  # the "?" of a hex the rules do not describe
            out.append(tiling.Rect(cx - 0.1 * ri, cy - 0.1 * ri, 0.2 * ri, 0.3 * ri))
    return out


def _clear_of(x: float, y: float, boxes: Sequence[tuple[float, float, float, float]]) -> float:
    """:func:`_clearance` to boxes given as ``(x0, y0, x1, y1)``: the same distance, to the last bit, faster (a
    large map asks it millions of times)."""
    best = math.inf
    for x0, y0, x1, y1 in boxes:
        dx = x0 - x if x0 > x else (x - x1 if x > x1 else 0.0)
        if dx >= best:
            continue
        dy = y0 - y if y0 > y else (y - y1 if y > y1 else 0.0)
        if dy >= best:
            continue
        d = math.hypot(dx, dy)  # never below dx or dy
        if d < best:
            best = d
    return best


def _clearance(x: float, y: float, rects: Sequence[tiling.Rect]) -> float:
    """Distance from a point to the nearest of ``rects`` (0 inside one)."""
    best = math.inf
    for r in rects:
        dx = max(r.x - x, 0.0, x - (r.x + r.w))
        dy = max(r.y - y, 0.0, y - (r.y + r.h))
        best = min(best, math.hypot(dx, dy))
    return best


def _overlap_label(strip: tiling.Strip, tile: str) -> tuple[str, float, float]:
    """The label of the overlap strip that tile ``tile`` shares with ``strip.neighbour``: text, size, and length
    along the strip.  One label a strip, whichever of its two tiles asks: the tile whose strip goes under the
    other (its strip on its right or bottom) prints it, naming that other tile; the other tile prints none, but
    measures the same one (:func:`registration_points`)."""
    r = strip.rect
    along = r.h if strip.side in ("left", "right") else r.w
    under = strip.neighbour if strip.side in ("right", "bottom") else tile
    t, s = _fit(f"overlap — glue under tile {under}", along - 0.6 * INCH, 6.5, FONT_BOLD)
    return t, s, text_width(t, s, FONT_BOLD) + 6


def _overlap_label_box(strip: tiling.Strip, tile: str) -> tiling.Rect:
    """Where :func:`_overlap_label`'s patch lies, in sheet coordinates: at the strip's middle."""
    r = strip.rect
    _, size, tw = _overlap_label(strip, tile)
    if strip.side in ("left", "right"):
        return tiling.Rect(r.x + r.w / 2 - size * 0.75, r.y + r.h / 2 - tw / 2, size * 1.5, tw)
    return tiling.Rect(r.x + r.w / 2 - tw / 2, r.y + r.h / 2 - size * 0.75, tw, size * 1.5)


def registration_points(
    strip: tiling.Strip, obstacles: Sequence[tiling.Rect] = (), *, tile: str
) -> list[tuple[float, float]]:
    """Sheet positions of the registration marks in an overlap strip of tile ``tile``: two on its centre line, one
    in each half, each where it stands clearest of ``obstacles`` (:func:`mark_obstacles`: labels, symbols, names,
    charts) and of the strip's label, the point nearest the quarter mark when several are clear.  The positions
    depend only on the sheet and on the strip's one label (:func:`_overlap_label`: the label the tile that owns
    the strip prints, not one per tile), so both tiles that share the strip print them at the same place."""
    r = strip.rect
    vertical = strip.side in ("left", "right")
    length = r.h if vertical else r.w
    label = _overlap_label_box(strip, tile)

    def at(t: float) -> tuple[float, float]:
        return (r.x + r.w / 2, r.y + t) if vertical else (r.x + t, r.y + r.h / 2)

    # Beyond ``enough`` any point is clear enough, so a point need only be measured against the obstacles within
    # ``enough`` of it along the strip (bins of that length): the others are farther, and change nothing.  The
    # label is measured apart: a clearance is the least distance to any obstacle, however they are grouped.
    enough = 4 * REG_REACH
    start = r.y if vertical else r.x
    a0, a1 = (label.y, label.y + label.h) if vertical else (label.x, label.x + label.w)
    k0, k1 = math.floor((a0 - start - enough) / enough), math.floor((a1 - start + enough) / enough)
    box = ((label.x, label.y, label.x + label.w, label.y + label.h),)
    best: list[tuple[float, float]] = []  # (clearance, position along the strip), one per half
    for (_, _, quarter), (ts, clears) in zip(_HALVES, _strip_clearances(r, vertical, obstacles), strict=True):
        best_t, best_key = quarter * length, (-math.inf, 0.0)
        for t, clear in zip(ts, clears, strict=True):
            if k0 <= math.floor(t / enough) <= k1:
                clear = min(clear, _clear_of(*at(t), box))
            key = (clear, -abs(t - quarter * length))
            if key > best_key:
                best_t, best_key = t, key
        best.append((best_key[0], best_t))
    # A mark that would cover something is left out when the strip's other mark is clear (one mark and the hex
    # lines still line the tiles up); a strip with no clear point keeps its clearer mark.
    kept = [(c, t) for c, t in best if c >= REG_REACH]
    return [at(t) for _, t in (kept or [max(best)])]


_HALVES = ((0.08, 0.5, 0.25), (0.5, 0.92, 0.75))
"""Where along a strip its two marks are looked for (fractions of its length), and the quarter mark each prefers."""


def _strip_clearances(
    r: tiling.Rect, vertical: bool, obstacles: Sequence[tiling.Rect]
) -> list[tuple[list[float], list[float]]]:
    """Per half of the strip ``r`` (:data:`_HALVES`): the positions along it that are tried (every 0.05 in) and
    each one's clearance of ``obstacles``, at most ``4 * REG_REACH`` (enough: farther is as good).  Both tiles
    that share a strip ask for it: an :class:`Obstacles` keeps the answer for the second."""
    key = (r.x, r.y, r.w, r.h, vertical)
    cache = obstacles.strips if isinstance(obstacles, Obstacles) else None
    if cache is not None and key in cache:
        return cache.pop(key)
    length = r.h if vertical else r.w
    bx0, by0, bx1, by1 = r.x - 72, r.y - 72, r.x - 72 + (r.w + 144), r.y - 72 + (r.h + 144)
    box = tiling.Rect(r.x - 72, r.y - 72, r.w + 144, r.h + 144)
    found = obstacles.near(box) if isinstance(obstacles, Obstacles) else obstacles
    enough = 4 * REG_REACH
    start = r.y if vertical else r.x
    bins: dict[int, list[tuple[float, float, float, float]]] = {}
    for o in found:
        ox1, oy1 = o.x + o.w, o.y + o.h
        # o.intersection(box) written out: a positive area in common
        if min(ox1, bx1) - max(o.x, bx0) <= 1e-9 or min(oy1, by1) - max(o.y, by0) <= 1e-9:
            continue
        a0, a1 = (o.y, oy1) if vertical else (o.x, ox1)
        for k in range(math.floor((a0 - start - enough) / enough), math.floor((a1 - start + enough) / enough) + 1):
            bins.setdefault(k, []).append((o.x, o.y, ox1, oy1))
    mid = r.x + r.w / 2 if vertical else r.y + r.h / 2
    out = []
    step = 3.6  # 0.05 in
    for lo, hi, _ in _HALVES:
        ts, clears = [], []
        t = lo * length
        while t <= hi * length:
            x, y = (mid, r.y + t) if vertical else (r.x + t, mid)
            ts.append(t)
            clears.append(min(_clear_of(x, y, bins.get(math.floor(t / enough), ())), enough))
            t += step
        out.append((ts, clears))
    if cache is not None:
        cache[key] = out
    return out


def _scale_bar(pen: Pen, x: float, y: float) -> None:
    """A 2 in bar with inch and centimetre ticks to check the printer did not scale the page."""
    length = 2 * INCH
    with pen.frame("symbol", x, y, length, 7, "scale bar"):
        pen.rect(x, y, length, 4, fill="paper", stroke="ink", width=0.5)
        pen.rect(x, y, INCH, 4, fill="ink")
        for i in range(6):
            cx = x + i * 72 / 2.54
            pen.polyline([(cx, y + 4), (cx, y + 7)], stroke="ink", width=0.4, cap=0)
    pen.text(x + length + 4, y + 4.5, "2 in = 50.8 mm at true scale (ticks: cm)", size=6.0)


def _tile_page(
    pen: Pen,
    ctx: _Ctx,
    lay: MapLayout,
    tplan: tiling.TilePlan,
    tile: tiling.Tile,
    page: int,
    form: str = "",
    obstacles: Sequence[tiling.Rect] = (),
) -> None:
    c = pen.c
    src = tile.source
    px, py = tplan.placement(tile)
    # The tile: the sheet translated so the tile's source rectangle lands at (px, py), clipped to it.
    with pen.frame("container", px, py, src.w, src.h, f"tile {tile.name}"):
        with c.saved():
            c.clip_rect(px, py, src.w, src.h)
            c.translate(px - src.x, py - src.y)
            c.use_form(f"{form}sheet{page}")
        _tile_strips(pen, tile, px, py, obstacles)
    _crop_marks(pen, px, py, src.w, src.h, tplan.paper_w, tplan.paper_h)
    # Header (above the tile's trim line) and footer (below it) run between the tile's vertical crop marks (which
    # stand above and below its corners, at x = px and px + w), never across them.
    with pen.frame("container", 0, 0, tplan.paper_w, py, "tile header"):
        _tile_header(pen, ctx, lay, tplan, tile, page)
    with pen.frame("container", 0, py + src.h, tplan.paper_w, tplan.paper_h - py - src.h, "tile footer"):
        _tile_footer(pen, ctx, tplan, tile)


def _tile_strips(pen: Pen, tile: tiling.Tile, px: float, py: float, obstacles: Sequence[tiling.Rect]) -> None:
    """A tile's overlap strips: shaded, labelled and marked for registration where they go under a neighbour (the
    glue strips); a strip that lies on top of its neighbour's is the play area of the assembled map, left clean."""
    src = tile.source

    def to_page(x: float, y: float) -> tuple[float, float]:
        return px + x - src.x, py + y - src.y

    for strip in tile.strips:
        r = strip.rect
        sx, sy = to_page(r.x, r.y)
        if strip.side in ("right", "bottom"):
            # This tile's strip goes under its right/lower neighbour: shade and label it.
            pen.rect(sx, sy, r.w, r.h, fill="overlap", alpha=0.3)
            t, s, tw = _overlap_label(strip, tile.name)
            # The label's patch lies over the strip's content, which the neighbouring tile prints whole.
            if strip.side == "right":
                lx, ly, lw, lh = sx + r.w / 2 - s * 0.75, sy + r.h / 2 - tw / 2, s * 1.5, tw
                with pen.frame("symbol", lx, ly, lw, lh, "overlap label", cover=True):
                    pen.rect(lx, ly, lw, lh, fill="paper", radius=2)
                    pen.text(sx + r.w / 2 + s * 0.35, sy + r.h / 2, t, size=s, font=FONT_BOLD, align="centre", angle=90)
            else:
                lx, ly, lw, lh = sx + r.w / 2 - tw / 2, sy + r.h / 2 - s * 0.75, tw, s * 1.5
                with pen.frame("symbol", lx, ly, lw, lh, "overlap label", cover=True):
                    pen.rect(lx, ly, lw, lh, fill="paper", radius=2)
                    pen.text(sx + r.w / 2, sy + r.h / 2 + s * 0.35, t, size=s, font=FONT_BOLD, align="centre")
            # The marks only where they are covered once the map is assembled: in the strip that goes under its
            # neighbour (the glue strip); the neighbour prints that part of the map on top, unmarked.
            for x, y in registration_points(strip, obstacles, tile=tile.name):
                _registration(pen, *to_page(x, y), REG_RADIUS)


def _between_crop_marks(tplan: tiling.TilePlan, tile: tiling.Tile) -> tuple[float, float]:
    px, _ = tplan.placement(tile)
    return max(tplan.margin, px + CROP_CLEAR), min(tplan.paper_w - tplan.margin, px + tile.source.w - CROP_CLEAR)


def _tile_header(pen: Pen, ctx: _Ctx, lay: MapLayout, tplan: tiling.TilePlan, tile: tiling.Tile, page: int) -> None:
    """The sheet's caption and the tile's index above the tile."""
    _, py = tplan.placement(tile)
    left, right = _between_crop_marks(tplan, tile)
    top = py - 0.12 * INCH
    caption = _sheet_caption(ctx, lay, page)
    index = tile.describe(tplan)
    iw = text_width(index, 9.0, FONT_BOLD)
    t, s = fit_line(
        caption,
        right - left - iw - 12,
        8.0,
        font=FONT_BOLD,
        where=("game", "title"),
        what="map tile header",
        name=ctx.game.game.title,
    )
    pen.text(left, min(top, tplan.margin + 8), t, size=s, font=FONT_BOLD)
    pen.text(right, min(top, tplan.margin + 8), index, size=9.0, font=FONT_BOLD, align="right")


def _tile_footer(pen: Pen, ctx: _Ctx, tplan: tiling.TilePlan, tile: tiling.Tile) -> None:
    """The scale bar and the printing hint under the tile."""
    _, py = tplan.placement(tile)
    src = tile.source
    left, right = _between_crop_marks(tplan, tile)
    bottom = max(py + src.h + 0.3 * INCH, tplan.paper_h - tplan.margin - 10)
    bottom = min(bottom, tplan.paper_h - tplan.margin)
    if tplan.paper_h - (py + src.h) >= 24.0:  # room under the tile: the footer goes there, not over the map
        bottom = py + src.h + 12.0
    _scale_bar(pen, left, bottom - 6)
    bar_end = left + 2 * INCH + 4 + text_width("2 in = 50.8 mm at true scale (ticks: cm)", 6.0)
    hint = "Print at 100 % (actual size). Trim at the crop marks; glue each shaded strip under its neighbour."
    if ctx.set_code:  # a class handout's tile: which set it belongs to, worded so it reads as no hex or tile
        hint = f"Class set {ctx.set_code}. {hint}"
    beside = fit.fit(hint, right - bar_end - 10, 2 * 6.0 * 1.1, 6.0, leading=1.1, report=False)
    below = tplan.paper_h - tplan.margin - (bottom + 2)  # under the scale bar, to the printable edge
    if not beside.complete and below >= 6.0 * 1.1:
        # Too long for the room beside the bar: on lines of its own under it, the width between the crop marks.
        under = fit.fit(hint, right - left, below, 6.0, leading=1.1, report=False)
        if under.complete:
            first = bottom + 2 + 0.8 * under.size
            for i, line in enumerate(under.lines):
                pen.text(left, first + i * under.size * under.leading, line, size=under.size)
            return
    hfit = fit.fit(hint, right - bar_end - 10, 2 * 6.0 * 1.1, 6.0, leading=1.1, what="map tile footer")
    lead = hfit.size * hfit.leading
    last = bottom - 1
    if tplan.paper_h - (py + src.h) >= 24.0:  # under the tile: the first line clear of the tile's edge
        last = max(last, py + src.h + 3 + 0.75 * hfit.size + (len(hfit.lines) - 1) * lead)
    for i, line in enumerate(reversed(hfit.lines)):  # the last line on the footer's baseline, the first above it
        pen.text(right, last - i * lead, line, size=hfit.size, align="right")


def _paper_name(paper: str) -> str:
    """A paper size as it is written: ``A4``, ``Arch B``, ``letter``."""
    if re.fullmatch(r"[ab]\d+", paper, re.IGNORECASE):
        return paper.upper()
    return " ".join(w.capitalize() for w in paper.split("-")) if "-" in paper else paper


def _assembly_page(
    pen: Pen, ctx: _Ctx, lay: MapLayout, tplan: tiling.TilePlan, page: int, paper: str, form: str = ""
) -> None:
    c = pen.c
    mg = tplan.margin
    caption = _sheet_caption(ctx, lay, page)
    printed = {t.name for t in _printed_tiles(ctx, lay, tplan, page)}
    head = (
        f"Assembly — {caption} ({_inches(lay.sheet_w)} x {_inches(lay.sheet_h)}) on {len(printed)} "
        f"{_paper_name(paper)} pages ({tplan.rows}x{tplan.columns})"
    )
    if ctx.set_code:
        head = f"Class set {ctx.set_code} — {head}"
    t, s = fit_line(
        head,
        tplan.paper_w - 2 * mg,
        11.0,
        font=FONT_BOLD,
        where=("game", "title"),
        what="map assembly page",
        name=ctx.game.game.title,
    )
    pen.text(mg, mg + 10, t, size=s, font=FONT_BOLD)
    steps = [
        "1. Print every page at 100 % (actual size, no 'fit to page'); the 2 in bar on each page must measure 2 in.",
        "2. Trim each tile at its crop marks (the corner lines).",
        "3. Lay the tiles out as in the plan above, in number order. A tile's shaded right and bottom strips go "
        "under the tile to the right and the tile below; the map is printed on both, so it runs on unbroken.",
        "4. Lay each tile's edge on the inner edge of its neighbour's shaded strip, so that no shading shows and the "
        "hex lines run on, then glue. The crossed circles in the strips end up under the tile on top.",
    ]
    lines: list[str] = []
    for st in steps:
        lines += _wrap(st, tplan.paper_w - 2 * mg, 7.0)
    y_text = tplan.paper_h - mg - 8.4 * len(lines)
    for i, ln in enumerate(lines):
        pen.text(mg, y_text + 8.4 * i + 6, ln, size=7.0)
    area_top = mg + 22
    aw, ah = tplan.paper_w - 2 * mg, y_text - 10 - area_top
    f = min(aw / lay.sheet_w, ah / lay.sheet_h)
    mw, mh = lay.sheet_w * f, lay.sheet_h * f
    mx, my = mg + (aw - mw) / 2, area_top + (ah - mh) / 2
    with c.saved():  # a thumbnail: its layout is checked at full size, on the tiles
        c.translate(mx, my)
        c.scale(f)
        c.use_form(f"{form}mini{page}", record=False)
    pen.rect(mx, my, mw, mh, stroke="ink", width=0.8)
    for tile in tplan.tiles:
        for strip in tile.strips:
            if strip.side in ("right", "bottom"):
                r = strip.rect
                pen.rect(mx + r.x * f, my + r.y * f, r.w * f, r.h * f, fill="overlap", alpha=0.35)
    for tile in tplan.tiles:
        r = tile.source
        pen.rect(mx + r.x * f, my + r.y * f, r.w * f, r.h * f, stroke="mark", width=1.2, dash=(5, 3))
        cx, cy = mx + (r.x + r.w / 2) * f, my + (r.y + r.h / 2) * f
        size = max(MIN_PT, min(16.0, 0.3 * min(r.w, r.h) * f))
        blank = tile.name not in printed
        lw = text_width(tile.name, size, FONT_BOLD) + size * 0.6
        fill = "label" if blank else "mark"
        with pen.frame("symbol", cx - lw / 2, cy - size * 0.75, lw, size * 1.4, f"tile {tile.name} badge"):
            pen.rect(cx - lw / 2, cy - size * 0.75, lw, size * 1.4, fill="paper", stroke=fill, width=1.0, radius=3)
            pen.text(cx, cy + size * 0.32, tile.name, size=size, font=FONT_BOLD, fill=fill, align="centre")
        if blank:
            pen.text(
                cx, cy + size * 1.5, "blank: not printed", size=max(MIN_PT, size * 0.45), fill="label", align="centre"
            )
