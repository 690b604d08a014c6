"""The layout of a sheet (where the grid and the chart columns go, over as many sheets as they take) and the
drawing of one sheet.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ... import model as m
from ... import tiling
from ... import units as U
from ...pdf import (
    FONT_BOLD,
    text_width,
)
from ...errors import warn
from .. import fit
from ..style import DEFAULT_COLORS, Palette
from .base import (
    MIN_PT,
    AUTO_MARGIN,
    AUTO_MIN_H,
    BLEED_TOLERANCE,
    BOTTOM_MIN_H,
    GAP,
    INCH,
    PANEL_AUTO_W,
    PANEL_MAX_W,
    PANEL_MIN_W,
    PATTERN_MAX,
    SHEET_MARGIN,
    TILE_HEADER,
    TITLE_STRIP,
    _Ctx,
    _fit,
    _inches,
    _paper_name,
    _whole,
)
from .grid import (
    MapGeometry,
    _bleed_spans,
    _bleed_strips,
    _draw_bleed_lines,
    _draw_bleed_paths,
    _draw_grid,
    _ink,
    _terrain_fill,
    _trim_edges,
)
from .panels import _Key, _Single, _Tec, _title_item, _TurnTrack

if TYPE_CHECKING:
    from .base import Pen
    from .panels import Block, Item


# ======================================================================================================= layout
@dataclass
class Placed:
    x: float
    y: float
    w: float
    item: Item


@dataclass
class SheetPage:
    """One sheet of the map: the first holds the grid, later ones only charts."""

    kind: str
    """``map`` or ``charts``."""
    placed: list[Placed] = field(default_factory=list)


@dataclass
class MapLayout:
    """The sheet size, where the grid sits, and which charts go where on which sheet."""

    sheet_w: float
    sheet_h: float
    geometry: MapGeometry
    pages: list[SheetPage]
    sheet_note: str | None = None
    """Why the printed sheet differs from the game's stated one (turned or enlarged), if it does."""
    title_on_map: bool = True
    """False when the map sheet has no room for the title block (a compact title is printed on the map)."""


@dataclass
class _Region:
    page: int
    x: float
    y: float
    w: float
    h: float


def _columns_in(x: float, y: float, w: float, h: float, page: int, *, max_w: float = PANEL_MAX_W) -> list[_Region]:
    if w < PANEL_MIN_W - 1e-6 or h <= 0:
        return []
    k = max(1, math.ceil((w + GAP) / (max_w + GAP)))
    while k > 1 and (w - (k - 1) * GAP) / k < PANEL_MIN_W:
        k -= 1
    cw = (w - (k - 1) * GAP) / k
    return [_Region(page, x + i * (cw + GAP), y, cw, h) for i in range(k)]


def _blocks(ctx: _Ctx, lay: MapLayout) -> list[Block]:
    size = lay.geometry.size
    return [
        _Single(lambda w, h: _title_item(ctx, lay, w, h)),
        _TurnTrack(ctx),
        _Tec(ctx, size),
        _Key(ctx),
    ]


Seam = tuple[float, float]
"""The top and bottom (sheet y) of an overlap strip where the sheet is cut into tiles: printed on both tiles."""


def _seams(options: Any, sheet_w: float, sheet_h: float) -> list[Seam]:
    """The horizontal overlap strips of a sheet ``sheet_w`` x ``sheet_h`` cut into tiles on ``options``' paper
    (none when it prints whole)."""
    if options is None or _whole(options):
        return []
    paper_w, paper_h = U.paper(_paper_name(options))
    if tiling.fits(sheet_w, sheet_h, paper_w, paper_h):
        return []
    tplan = tiling.plan(sheet_w, sheet_h, paper_w, paper_h)
    return sorted({(s.rect.y, s.rect.y + s.rect.h) for t in tplan.tiles for s in t.strips if s.side == "bottom"})


def _crosses(y: float, h: float, seams: list[Seam]) -> Seam | None:
    """The seam that cuts an item from ``y`` to ``y + h``: one across either edge of the strip (the lower tile's
    top edge, the upper tile's foot), so that it is sliced on one tile.  An item above the strip, below it, or
    inside it (printed whole on both tiles) is not cut."""
    eps = 1e-6
    for a, b in seams:
        if y + h <= a + eps or y >= b - eps or (y >= a - eps and y + h <= b + eps):
            continue
        return (a, b)
    return None


def _clear_of_seams(y: float, h: float, seams: list[Seam]) -> float:
    """Where an item ``h`` tall meant for ``y`` goes so that no seam cuts it: moved down into the strip that
    would cut it when it fits there (whole on both tiles), else below the strip (whole on the lower tile); left
    where it is when it is too tall for any move to help."""
    at = y
    for _ in range(len(seams)):
        cut = _crosses(at, h, seams)
        if cut is None:
            return at
        a, b = cut
        at = max(at, a if at < a and h <= b - a + 1e-6 else b)
    return at if _crosses(at, h, seams) is None else y


def _flow(
    blocks: list[Block],
    regions: list[_Region],
    extra: Callable[[int], list[_Region]],
    pages: list[SheetPage],
    *,
    spread: bool = False,
    seams: list[Seam] | None = None,
) -> None:
    """Place the blocks' items top to bottom in ``regions``, then on extra sheets made by ``extra(page)``;
    then spread each column's blocks apart a little so that a column is filled, not top-heavy.  With
    ``spread``, each block starts a fresh column when its sheet has one left (a wide strip under the grid or
    a chart sheet reads better as side-by-side charts than as one tall stack).  An item that a tile ``seams``
    would cut is moved below it, and spreading never moves one onto a seam."""
    seams = seams or []
    queue = list(regions)
    if not queue:
        pages.append(SheetPage("charts"))
        queue = extra(len(pages) - 1)
    ri = 0
    used = 0.0
    columns: dict[int, list[tuple[Placed, bool]]] = {}
    for block in blocks:
        starting = True
        if spread and used > 0 and ri + 1 < len(queue) and queue[ri + 1].page == queue[ri].page:
            ri, used = ri + 1, 0.0
        while True:
            region = queue[ri]
            gap = GAP if starting and used > 0 else 0.0
            item = block.peek(region.w, region.h)
            if item is None:
                break
            gap = _clear_of_seams(region.y + used + gap, item.height, seams) - region.y - used
            if used + gap + item.height <= region.h + 1e-6 or used == 0:
                placed = Placed(region.x, region.y + used + gap, region.w, item)
                pages[region.page].placed.append(placed)
                columns.setdefault(ri, []).append((placed, starting and used > 0))
                used += gap + item.height
                block.advance()
                starting = False
                continue
            ri += 1
            used = 0.0
            if ri >= len(queue):
                pages.append(SheetPage("charts"))
                queue += extra(len(pages) - 1)
    for index, placed_items in columns.items():
        region = queue[index]
        gaps = sum(1 for _, starts in placed_items if starts)
        last = placed_items[-1][0]
        spare = region.y + region.h - (last.y + last.item.height)
        if gaps == 0 or spare <= 0:
            continue
        add = min(spare / gaps, 0.35 * INCH)
        shift = 0.0
        moved = []
        for placed, starts in placed_items:
            shift += add if starts else 0.0
            moved.append(placed.y + shift)
        if any(
            _crosses(y, p.item.height, seams) and not _crosses(p.y, p.item.height, seams)
            for y, (p, _) in zip(moved, placed_items, strict=True)
        ):
            continue  # spread apart, some item would land on a seam: the column stays as it was packed
        for y, (placed, _) in zip(moved, placed_items, strict=True):
            placed.y = y


def sheet_layout(
    game: m.Game, options: Any = None, *, colors: dict[str, str] | None = None, set_code: str | None = None
) -> MapLayout:
    """Decide the sheet size, the grid's place on it and where the charts go.

    A stated sheet is used as given (turned if only then the grid fits; enlarged, with a note, if the grid does
    not fit it either way).  Without a stated sheet the sheet is the grid plus margins plus the charts beside it.
    ``set_code`` (a class handout's ``S01``) is printed in the title box.
    """
    palette = {**DEFAULT_COLORS, **Palette.of(game, options).mapping(), **(colors or {})}
    ctx = _Ctx.build(game, options, palette, set_code)
    grid = ctx.grid
    size = U.length(game.map.hex_size)
    gw, gh = grid.extent(size)
    note: str | None = None
    regions: list[_Region] = []

    if game.map.sheet is not None:
        sw, sh = U.size(game.map.sheet)
        margin = SHEET_MARGIN

        def fits(w: float, h: float) -> bool:
            return gw <= w + BLEED_TOLERANCE and gh <= h + BLEED_TOLERANCE

        if not fits(sw, sh):
            if fits(sh, sw):
                sw, sh = sh, sw
                note = f"Sheet turned to {_inches(sw)} x {_inches(sh)} so the grid fits."
            else:
                stated = game.map.sheet
                # Enlarged sheets keep a strip above the grid for the one-line title.
                options_ = [
                    (max(w, gw + 2 * margin), max(h, gh + 2 * margin + TITLE_STRIP)) for w, h in ((sw, sh), (sh, sw))
                ]
                sw, sh = min(options_, key=lambda wh: (wh[0] * wh[1], options_.index(wh)))
                note = (
                    f"The grid ({grid.columns}x{grid.rows} cells of {game.map.hex_size}) is "
                    f"{_inches(gw)} x {_inches(gh)}, larger than the stated {stated} sheet: printed on a "
                    f"{_inches(sw)} x {_inches(sh)} sheet."
                )
        right_w = sw - (margin + gw) - GAP - margin
        bottom_h = sh - (margin + gh) - GAP - margin
        use_right = right_w >= PANEL_MIN_W
        use_bottom = bottom_h >= BOTTOM_MIN_H
        ox = margin if use_right else (sw - gw) / 2
        oy = margin if use_bottom else (sh - gh) / 2
        if use_right:
            regions += _columns_in(margin + gw + GAP, margin, right_w, sh - 2 * margin, 0)
        if use_bottom:
            bw = gw if use_right else sw - 2 * margin
            regions += _columns_in(margin, margin + gh + GAP, bw, bottom_h, 0)
    else:
        margin = AUTO_MARGIN
        sh = max(gh + 2 * margin, AUTO_MIN_H)
        # Lay the charts out in as many columns beside the grid as they need.
        probe = MapLayout(0, 0, MapGeometry(grid, size, 0, 0), [SheetPage("map")])
        col_h = sh - 2 * margin
        used_cols = _count_columns(ctx, probe, col_h)
        sw = margin + gw + used_cols * (GAP + PANEL_AUTO_W) + margin
        ox = margin
        oy = (sh - gh) / 2
        regions = [
            _Region(0, margin + gw + GAP + i * (PANEL_AUTO_W + GAP), margin, PANEL_AUTO_W, col_h)
            for i in range(used_cols)
        ]

    geom = MapGeometry(grid, size, ox, oy)
    lay = MapLayout(sw, sh, geom, [SheetPage("map")], note, title_on_map=bool(regions))

    def extra(page: int) -> list[_Region]:
        return _columns_in(margin, margin + TILE_HEADER, sw - 2 * margin, sh - 2 * margin - TILE_HEADER, page)

    if not extra(1):  # a sheet too narrow for a chart column: one column the sheet's width

        def extra(page: int) -> list[_Region]:
            return [_Region(page, margin, margin + TILE_HEADER, sw - 2 * margin, sh - 2 * margin - TILE_HEADER)]

    seams = _seams(options, sw, sh)
    _flow(_blocks(ctx, lay), regions, extra, lay.pages, spread=game.map.sheet is not None, seams=seams)
    lay.title_on_map = bool(lay.pages[0].placed)
    return lay


def _count_columns(ctx: _Ctx, probe: MapLayout, col_h: float) -> int:
    """How many chart columns of :data:`PANEL_AUTO_W` the charts fill when each is ``col_h`` tall."""
    regions = [_Region(0, i * (PANEL_AUTO_W + GAP), 0, PANEL_AUTO_W, col_h) for i in range(256)]
    pages = [SheetPage("map")]
    _flow(_blocks(ctx, probe), regions, lambda page: [], pages)
    xs = {round(p.x, 3) for p in pages[0].placed}
    return max(1, len(xs))


def _draw_sheet(pen: Pen, ctx: _Ctx, lay: MapLayout, page: int, bleed: float = 0.0) -> None:
    """One whole sheet in sheet coordinates; with a page ``bleed`` (a page a print shop trims), the paper and the
    hexes the trim cuts run on past it by that much (:func:`_bleed_strips`), with the hex lines and hexside
    features that cross the trim (:func:`_draw_bleed_lines`) and the roads that leave it (:func:`_draw_bleed_paths`);
    nothing inside the trim moves."""
    sheet = lay.pages[page]
    if bleed > 0:
        pen.rect(-bleed, -bleed, lay.sheet_w + 2 * bleed, lay.sheet_h + 2 * bleed, fill="paper")
    else:
        pen.rect(0, 0, lay.sheet_w, lay.sheet_h, fill="paper")
    if sheet.kind == "map" and bleed > 0:
        with pen.c.saved():
            pen.clip_rect(-bleed, -bleed, lay.sheet_w + 2 * bleed, lay.sheet_h + 2 * bleed)
            edges = _trim_edges(lay.sheet_w, lay.sheet_h, bleed)
            spans = _bleed_spans(lay.geometry, lay.sheet_w, lay.sheet_h, bleed)
            strips = _bleed_strips(ctx, spans, edges, bleed)
            texture = min(lay.geometry.size, PATTERN_MAX)
            for tid in [t for t in ctx.game.terrain if t in strips] + ([None] if None in strips else []):
                pattern = ctx.game.terrain[tid].pattern if tid is not None else m.Pattern.HATCH
                ink = _ink(ctx.game.terrain[tid].colour) if tid is not None else "unknown"
                pen.polygons(strips[tid], fill=_terrain_fill(ctx, tid))
                pen.pattern(strips[tid], pattern, ink, texture)
            _draw_bleed_lines(pen, ctx, lay, spans, bleed)
            _draw_grid(pen, ctx, lay.geometry)
            _draw_bleed_paths(pen, ctx, lay, bleed)
        if not lay.title_on_map:
            _compact_title(pen, ctx, lay, page)
    elif sheet.kind == "map":
        with pen.c.saved():
            pen.clip_rect(0, 0, lay.sheet_w, lay.sheet_h)
            _draw_grid(pen, ctx, lay.geometry)
        if not lay.title_on_map:
            _compact_title(pen, ctx, lay, page)
    else:
        _compact_title(pen, ctx, lay, page)
    _draw_charts(pen, lay, page)


def _draw_charts(pen: Pen, lay: MapLayout, page: int) -> None:
    """The charts placed on sheet ``page`` (title block, turn track, terrain chart, key), in sheet coordinates."""
    for p in lay.pages[page].placed:
        with pen.frame("container", p.x, p.y, p.w, p.item.height, "chart"):
            p.item.draw(pen, p.x, p.y, p.w)


def _compact_title_box(ctx: _Ctx, lay: MapLayout, page: int) -> tuple[str, float, tiling.Rect]:
    """Text, size and place of the one-line title: in the gap above (or below) the grid when there is one,
    else over the map's top-left corner."""
    g = ctx.game.game
    n = len(lay.pages)
    what = "map" if lay.pages[page].kind == "map" else "charts"
    text = f"{g.title} — {what}, sheet {page + 1} of {n}  ·  MAP: {ctx.game.map.status.value.upper()}"
    if page == 0 and n > 1:
        text += "  ·  title, turn track and charts on sheet 2"
    if ctx.set_code:
        text += f"  ·  CLASS SET {ctx.set_code}"
    t, s = _fit(text, lay.sheet_w - 2 * SHEET_MARGIN - 8, 9.0, FONT_BOLD)
    w, h = text_width(t, s, FONT_BOLD) + 8, s * 1.6
    y = SHEET_MARGIN
    if lay.pages[page].kind == "map":
        geom = lay.geometry
        below = geom.oy + geom.extent[1]
        if geom.oy >= h + 4:
            y = geom.oy - h - 3
        elif lay.sheet_h - below >= h + 4:
            y = below + 3
        else:
            stacked = _title_beside(text, lay)
            if stacked is not None:
                return stacked
            if n > 1:
                # The grid fills the sheet, and the title block is on the charts sheet: this sheet names itself in
                # each tile's caption, so no box goes over the map (a tabletop board cut to its grid).
                return "", 0.0, tiling.Rect(SHEET_MARGIN, SHEET_MARGIN, 0.0, 0.0)
            # over the map, at the bottom where cells have the least printed on them: said at build time
            y = lay.sheet_h - SHEET_MARGIN - h
            warn(
                ("map",),
                f"title box: the sheet has no room for '{t}' off the grid; it is printed over the bottom row "
                "(give the sheet a little more height, or room beside the grid)",
            )
    return t, s, tiling.Rect(SHEET_MARGIN, y, w, h)


def _title_beside(text: str, lay: MapLayout) -> tuple[str, float, tiling.Rect] | None:
    """The one-line title set one part (the parts " · " joins) a paragraph, wrapped, in the wider gap beside the
    grid, at its foot, when the grid leaves no room above or below it; None when even at the least size it does
    not fit there."""
    geom = lay.geometry
    left, right = geom.ox, lay.sheet_w - geom.ox - geom.extent[0]
    room = max(left, right) - SHEET_MARGIN - 4 - 8
    if room < 10 * MIN_PT:
        return None
    parts = "\n".join(p.strip() for p in text.split("  ·  "))
    fitted = fit.fit(parts, room, lay.sheet_h - 2 * SHEET_MARGIN - 8, 9.0, font=FONT_BOLD, leading=1.2, report=False)
    if not fitted.complete or fitted.size < MIN_PT:
        return None
    size = fitted.size
    w = max(text_width(ln, size, FONT_BOLD) for ln in fitted.lines) + 8
    h = size * (0.6 + 1.2 * len(fitted.lines))
    x = SHEET_MARGIN if left >= right else lay.sheet_w - SHEET_MARGIN - w
    return "\n".join(fitted.lines), size, tiling.Rect(x, lay.sheet_h - SHEET_MARGIN - h, w, h)


def _compact_title(pen: Pen, ctx: _Ctx, lay: MapLayout, page: int) -> None:
    """A one-line title: on chart sheets, and on a map sheet that has no room for the title block."""
    t, s, r = _compact_title_box(ctx, lay, page)
    if not t:
        return  # no room off the grid, and the title is on another sheet
    with pen.frame("container", r.x, r.y, r.w, r.h, "title box"):
        pen.rect(r.x, r.y, r.w, r.h, fill="paper", stroke="ink", width=0.8)
        for i, line in enumerate(t.split("\n")):  # one line, or its parts stacked beside the grid
            pen.text(r.x + 4, r.y + s * 1.12 + i * s * 1.2, line, size=s, font=FONT_BOLD)


def _sheet_caption(ctx: _Ctx, lay: MapLayout, page: int) -> str:
    what = "map" if lay.pages[page].kind == "map" else "charts"
    return f"{ctx.game.game.title} — {what}, sheet {page + 1} of {len(lay.pages)}"
