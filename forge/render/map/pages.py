"""The map component's pages: each sheet whole when it fits the paper, else its tiles and an assembly page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from reportlab.pdfgen.canvas import Canvas

from ... import model as m
from ... import tiling
from ... import units as U
from ...canvas import PdfCanvas, Recorder
from ...pdf import (
    page_bleed,
    render_pdf,
)
from ..style import DEFAULT_COLORS, Palette
from . import grid
from .base import Pen, _Ctx, _paper_name, _whole
from .grid import FAST_DEFLATE
from .sheet import _draw_charts, _draw_sheet, sheet_layout
from .tiles import _assembly_page, _printed_tiles, _tile_page, mark_obstacles

if TYPE_CHECKING:
    from .sheet import MapLayout


def render(
    game: m.Game, options: Any, *, colors: dict[str, str] | None = None, recorder: Recorder | None = None
) -> bytes:
    """The map component as PDF bytes: sheets at their true size when they fit ``options.paper``, else tiles of
    the paper (true scale) and an assembly page per sheet."""
    lay = sheet_layout(game, options, colors=colors)
    title = f"{game.game.title} — map"
    size = page_size(game, options, lay)
    return render_pdf(size, lambda c: draw(c, game, options, colors=colors, layout=lay, recorder=recorder), title=title)


def sheet_pdf(game: m.Game, options: Any, *, layout: MapLayout | None = None) -> bytes:
    """The map's first sheet (the grid and the charts beside it) as a one-page PDF of the sheet's own size, never
    tiled, whatever ``options.paper``: for an image of the whole board (the VASSAL export).  ``layout`` is
    :func:`sheet_layout`'s, when already made; the grid sits at its ``geometry``."""
    palette = {**DEFAULT_COLORS, **Palette.of(game, options).mapping()}
    ctx = _Ctx.build(game, options, palette)
    lay = layout or sheet_layout(game, options)

    def paint(c: Canvas) -> None:
        _draw_sheet(Pen(PdfCanvas(c, top=lay.sheet_h), options, palette), ctx, lay, 0)
        c.showPage()

    return render_pdf((lay.sheet_w, lay.sheet_h), paint, title=f"{game.game.title} — map sheet")


def charts_pdf(game: m.Game, options: Any) -> bytes:
    """Each sheet's charts alone (title block, turn track, terrain chart, key), one page per sheet of the sheet's
    size, drawn where and as :func:`draw` draws them on the sheet (the same calls, :func:`._draw_charts`), without
    the grid: the read-back of a tiled map reads its turn track here.  Every tile of a tiled map places the whole
    sheet, clipped, so a PDF reader parses every hex's drawing to read any tile (a tile of a 1,000 x 100 map of
    0.25 in hexes: tens of seconds and over a gigabyte, issue 25, item 31)."""
    palette = {**DEFAULT_COLORS, **Palette.of(game, options).mapping()}
    lay = sheet_layout(game, options)

    def paint(c: Canvas) -> None:
        for i in range(len(lay.pages)):
            _draw_charts(Pen(PdfCanvas(c, top=lay.sheet_h), options, palette), lay, i)
            c.showPage()

    return render_pdf((lay.sheet_w, lay.sheet_h), paint, title=f"{game.game.title} — map charts")


def page_size(game: m.Game, options: Any, layout: MapLayout | None = None) -> tuple[float, float]:
    """Size of the map's pages: the sheet's own when it fits ``options.paper``, else the paper as tiled."""
    lay = layout or sheet_layout(game, options)
    paper_w, paper_h = U.paper(_paper_name(options))
    if _whole(options) or tiling.fits(lay.sheet_w, lay.sheet_h, paper_w, paper_h):
        return (lay.sheet_w, lay.sheet_h)
    tplan = tiling.plan(lay.sheet_w, lay.sheet_h, paper_w, paper_h)
    return (tplan.paper_w, tplan.paper_h)


def page_count(game: m.Game, options: Any, *, set_code: str | None = None) -> int:
    """Pages :func:`draw` draws, worked out from the layout without drawing: each sheet whole when it fits the
    paper, else the tiles that hold something (:func:`._printed_tiles`) and an assembly page, per sheet."""
    palette = {**DEFAULT_COLORS, **Palette.of(game, options).mapping()}
    lay = sheet_layout(game, options, set_code=set_code)
    paper_w, paper_h = U.paper(_paper_name(options))
    if _whole(options) or tiling.fits(lay.sheet_w, lay.sheet_h, paper_w, paper_h):
        return len(lay.pages)
    tplan = tiling.plan(lay.sheet_w, lay.sheet_h, paper_w, paper_h)
    ctx = _Ctx.build(game, options, palette, set_code)
    return sum(len(_printed_tiles(ctx, lay, tplan, i)) + 1 for i in range(len(lay.pages)))


def draw(
    c: Canvas,
    game: m.Game,
    options: Any,
    *,
    colors: dict[str, str] | None = None,
    layout: MapLayout | None = None,
    set_code: str | None = None,
    end_page: Callable[[Canvas], None] | None = None,
    recorder: Recorder | None = None,
) -> None:
    """Draw the map's pages on ``c`` (each sets its own size), as :func:`render` does: into a class handout,
    with ``set_code`` (``S01``) on every page.  ``end_page(c)`` ends each page (default ``c.showPage()``; a
    handout also leaves each page's back blank); ``layout`` is :func:`sheet_layout`'s, when already made; a
    ``recorder`` notes what each page places (:mod:`forge.layout`)."""
    palette = {**DEFAULT_COLORS, **Palette.of(game, options).mapping(), **(colors or {})}  # greys: one palette
    ctx = _Ctx.build(game, options, palette, set_code)
    lay = layout or sheet_layout(game, options, colors=colors, set_code=set_code)
    paper_w, paper_h = U.paper(_paper_name(options))
    finish = end_page or (lambda cv: cv.showPage())
    # Form names are unique per set: a handout draws several sets' maps into one document.
    form = f"{set_code}_" if set_code else ""

    rec = recorder

    # A page a print shop trims (finished with a bleed) keeps its text in the trim's safe zone; a page printed
    # to its paper's edge keeps clear of the printer margin.
    bleed = page_bleed(c)
    margin = tiling.TRIM_SAFE_MARGIN if bleed > 0 else tiling.PRINTABLE_MARGIN

    def page(w: float, h: float, name: str) -> Pen:
        c.setPageSize((w, h))
        if rec is not None:
            rec.page(w, h, f"{set_code} {name}" if set_code else name, margin=margin)
        return Pen(PdfCanvas(c, top=h, recorder=rec), options, palette)

    if _whole(options) or tiling.fits(lay.sheet_w, lay.sheet_h, paper_w, paper_h):
        for i in range(len(lay.pages)):
            _draw_sheet(page(lay.sheet_w, lay.sheet_h, f"map sheet {i + 1}"), ctx, lay, i, bleed)
            finish(c)
        return

    tplan = tiling.plan(lay.sheet_w, lay.sheet_h, paper_w, paper_h)
    forms = PdfCanvas(c, recorder=rec)
    # Each form is kept as its compressed bytes, not its text, from its end (forge.pdf.end_form_sealed, as every
    # form PdfCanvas ends); a sheet of more than FAST_PATHS_ABOVE hexes is compressed faster, to other bytes.
    # read here: tests lower it
    fast = ctx.grid.columns * ctx.grid.rows > grid.FAST_PATHS_ABOVE
    if fast:
        forms.seal = (FAST_DEFLATE, False)

    for i in range(len(lay.pages)):
        # the thumbnail takes the sheet's fills, textures and hex lines (_GridReplay, which reads reportlab's
        # internals too) instead of drawing them again, to the same bytes (tests/test_map_fastpaths.py)
        ctx.replay.armed = True
        forms.begin_form(f"{form}sheet{i}", lay.sheet_w, lay.sheet_h)
        _draw_sheet(Pen(forms, options, palette), ctx, lay, i)
        forms.end_form()
        # The thumbnail is placed unrecorded (the assembly page): drawn unrecorded too, as a plain build draws it
        # (recording it kept a second copy of the sheet's records that nothing read).
        forms.recorder = None
        forms.begin_form(f"{form}mini{i}", lay.sheet_w, lay.sheet_h)
        _draw_sheet(Pen(forms, options, palette, text=False), ctx, lay, i)
        ctx.replay.clear()
        forms.end_form()
        forms.recorder = rec
    for i in range(len(lay.pages)):
        obstacles = mark_obstacles(ctx, lay, i)
        for tile in _printed_tiles(ctx, lay, tplan, i):
            pen = page(tplan.paper_w, tplan.paper_h, f"map sheet {i + 1}, tile {tile.name}")
            _tile_page(pen, ctx, lay, tplan, tile, i, form, obstacles)
            finish(c)
    for i in range(len(lay.pages)):
        pen = page(tplan.paper_w, tplan.paper_h, f"map sheet {i + 1}, assembly")
        _assembly_page(pen, ctx, lay, tplan, i, _paper_name(options), form)
        finish(c)
