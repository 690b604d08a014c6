"""The map: hex grid at true printed scale, turn record track, terrain effects chart and key, tiled for home paper.

``render(game, options)`` returns the PDF.  What it holds:

- **The sheet** (``game.map.sheet``, e.g. 17x11 in; sized to fit when the game gives none): the grid with
  ``game.map.hex_size`` across the flats, terrain fills with greyscale-safe patterns, feature symbols, rivers on
  their exact hexsides, roads and railways through hex centres, hex labels in the game's own scheme, place names,
  supply sources, victory points and setup codes; beside it (where there is room, else on further sheets of the
  same size) the title block with the map's status, the turn record track and the terrain effects chart with the
  map key.
- **Tiles**: when the sheet is larger than ``options.paper``, each sheet is cut into overlapping tiles
  (:mod:`forge.tiling`), one page each at true scale with crop and registration marks, followed by an assembly
  page.  When the sheet fits the paper, each sheet is one page of the sheet's own size.

Everything is drawn through :class:`forge.canvas.Canvas` in sheet coordinates with y pointing down (as
:mod:`forge.hexgrid` computes them); :class:`Pen` adds the palette.  A :class:`forge.canvas.Recorder` passed to
:func:`draw` notes every text, symbol and mark with its container, for :mod:`forge.layout`.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, overload

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import Canvas

from .. import model as m
from .. import tiling
from .. import units as U
from ..canvas import Anchor, Cap, FrameKind, PdfCanvas, Recorder
from ..canvas import Canvas as DrawCanvas
from ..hexgrid import Cell, Grid, GridKind, Hexside, LabelScheme, Orientation
from ..errors import Where, warn
from ..pdf import (
    FONT,
    FONT_BOLD,
    FONT_ITALIC,
    compact_code,
    compact_code_after,
    end_form_sealed,
    page_bleed,
    render_pdf,
    text_width,
)
from . import fit
from .fit import fit_line
from .style import DEFAULT_COLORS, Palette, combat_facts, grey, mix

__all__ = ["MapGeometry", "MapLayout", "draw", "page_size", "render", "sheet_layout", "sheet_pdf"]

INCH = 72.0
MIN_PT = 5.0
"""Smallest text size at print size (the house rule); longer text is abbreviated, never shrunk further."""

SHEET_MARGIN = 0.25 * INCH
"""Clear border inside a stated sheet."""
AUTO_MARGIN = 0.5 * INCH
"""Border around the grid when the game gives no sheet size and the sheet is sized to fit."""
BLEED_TOLERANCE = 0.25 * INCH
"""A grid may run this much past a stated sheet (in total per axis) and be trimmed at the sheet's edge, as the
edge hexes of printed maps are: Hell's Gate's seven rows of 1.75 in hexes are 11.11 in tall on an 11 in sheet."""
GAP = 0.16 * INCH
"""Space between blocks of the charts panel and between the grid and the panel."""
PANEL_MIN_W = 2.8 * INCH
"""Narrowest column the charts are laid out in."""
PANEL_MAX_W = 4.6 * INCH
PANEL_AUTO_W = 3.5 * INCH
BOTTOM_MIN_H = 2.0 * INCH
"""Shortest strip under the grid worth putting charts in."""
AUTO_MIN_H = 8.0 * INCH
TURN_BOX_MIN_W = 1.3 * INCH
TILE_HEADER = 0.4 * INCH
TEC_MIN_COMBAT = 1.1 * INCH
"""Narrowest combat-effect column of the terrain effects chart."""
PATTERN_MAX = 1.5 * INCH
"""Patterns scale with the cell up to this cell size; bigger cells (10 cm squares) keep this texture."""
TITLE_STRIP = 0.3 * INCH
"""Room kept above the grid on an enlarged sheet for the one-line title."""


# ================================================================================================== text helpers
def _fit(
    text: str, width: float, size: float, font: str = FONT, *, where: Where = (), what: str = "map"
) -> tuple[str, float]:
    """``text`` on one line ``width`` wide at the largest size <= ``size`` (>= :data:`MIN_PT`); what cannot
    fit even then is cut, marked and reported (:func:`forge.render.fit.fit_line`)."""
    return fit_line(text, max(width, 0.0), size, font=font, minimum=MIN_PT, where=where, what=what)


def _wrap(text: str, width: float, size: float, font: str = FONT) -> list[str]:
    """Greedy word wrap of ``text`` into lines no wider than ``width``; over-long words are broken."""
    return [ln for ln in fit.wrap(str(text), width, size, font) if ln] if str(text).strip() else []


def _clip_lines(
    lines: list[str],
    limit: int,
    width: float,
    size: float,
    font: str = FONT,
    *,
    where: Where = (),
    what: str = "map",
    text: str = "",
) -> list[str]:
    """At most ``limit`` lines; when some were dropped the last kept line ends in an ellipsis and the cut is
    reported (:func:`forge.errors.warn`)."""
    if len(lines) <= limit:
        return lines
    kept = lines[: max(limit, 1)]
    last = kept[-1]
    while last and text_width(last + " …", size, font) > width:
        last = last[:-1]
    kept[-1] = last.rstrip() + " …"
    value = text or " ".join(lines)
    short = value if len(value) <= 40 else value[:37] + "..."
    warn(where, f"{what}: {short!r} needs {len(lines)} lines where {limit} fit; it is printed cut short (shorten it)")
    return kept


_VULGAR = {(1, 2): "½", (1, 4): "¼", (3, 4): "¾"}


def _num(value: float | int) -> str:
    """A number as a chart prints it: ``1``, ``½``, ``1½``, ``1/3``, ``2.35``.

    >>> [_num(v) for v in (2, 2.0, 0.5, 1.5, 1 / 3, 2.35)]
    ['2', '2', '½', '1½', '1/3', '2.35']
    """
    if isinstance(value, int) or float(value).is_integer():
        return str(int(value))
    frac = Fraction(value).limit_denominator(8)
    if abs(float(frac) - value) >= 1e-9:
        return f"{value:g}"
    whole, part = divmod(frac, 1)
    tail = _VULGAR.get((part.numerator, part.denominator), f"{part.numerator}/{part.denominator}")
    if whole == 0:
        return tail
    return f"{whole}{tail}" if len(tail) == 1 else f"{whole} {tail}"


def _maybe(value: Any) -> str:
    """A count, VP or scale as printed: ``?`` when unknown, decimals as given (``6.8``)."""
    if value is None or isinstance(value, m.Unknown):
        return "?"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


# ========================================================================================================= pen
_CAP_NAMES: dict[int, Cap] = {0: "butt", 1: "round", 2: "square"}
_ALIGN: dict[str, Anchor] = {"left": "start", "centre": "middle", "right": "end"}


class Pen:
    """The map's palette on a :class:`forge.canvas.Canvas` (sheet coordinates, points, y down): colours are
    given by role (``ink``, ``paper``: :data:`~forge.render.style.DEFAULT_COLORS`) or as ``#rrggbb`` and printed
    grey with ``options.greyscale``; corners are round.  ``text=False`` draws no text (the assembly page's
    thumbnail of the sheet)."""

    def __init__(self, canvas: DrawCanvas, options: Any, colors: dict[str, str], *, text: bool = True) -> None:
        self.c = canvas
        self.options = options
        self.colors = colors
        self.text_enabled = text
        self._grey = bool(getattr(options, "greyscale", False))

    def col(self, name: str) -> str:
        """A role name or colour as the ``#rrggbb`` printed."""
        hex_colour = self.colors.get(name, self.colors.get(name.lower(), name))
        return grey(hex_colour) if self._grey else hex_colour

    def _col(self, name: str | None) -> str | None:
        return None if name is None else self.col(name)

    def polygon(
        self,
        points: Sequence[tuple[float, float]],
        *,
        fill: str | None = None,
        stroke: str | None = None,
        width: float = 0.5,
        dash: Sequence[float] | None = None,
    ) -> None:
        self.c.polygon(points, fill=self._col(fill), stroke=self._col(stroke), width=width, dash=dash, join="round")

    def polygons(
        self,
        polys: Sequence[Sequence[tuple[float, float]]],
        *,
        fill: str | None = None,
        stroke: str | None = None,
        width: float = 0.5,
    ) -> None:
        """Several polygons painted as one path (a few PDF operators for all of them)."""
        self.c.polygons(polys, fill=self._col(fill), stroke=self._col(stroke), width=width, join="round")

    def polyline(
        self,
        points: Sequence[tuple[float, float]],
        *,
        stroke: str,
        width: float,
        dash: Sequence[float] | None = None,
        cap: int = 1,
    ) -> None:
        self.c.polyline(points, stroke=self.col(stroke), width=width, dash=dash, cap=_CAP_NAMES[cap], join="round")

    def circle(
        self, x: float, y: float, r: float, *, fill: str | None = None, stroke: str | None = None, width: float = 0.5
    ) -> None:
        self.c.circle(x, y, r, fill=self._col(fill), stroke=self._col(stroke), width=width)

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: str | None = None,
        stroke: str | None = None,
        width: float = 0.5,
        radius: float = 0.0,
        dash: Sequence[float] | None = None,
        alpha: float | None = None,
    ) -> None:
        a = 1.0 if alpha is None else alpha
        f, s = self._col(fill), self._col(stroke)
        if radius > 0:
            self.c.rounded_rect(x, y, w, h, radius, fill=f, stroke=s, width=width, dash=dash, join="round", alpha=a)
        else:
            self.c.rect(x, y, w, h, fill=f, stroke=s, width=width, dash=dash, join="round", alpha=a)

    def text(
        self,
        x: float,
        y: float,
        s: str,
        *,
        size: float,
        font: str = FONT,
        fill: str = "ink",
        align: str = "left",
        angle: float = 0.0,
    ) -> None:
        """``s`` with its baseline at ``y``; ``align`` left, centre or right of ``x``; ``angle`` degrees
        counter-clockwise."""
        if not self.text_enabled or not s:
            return
        if angle:
            with self.c.saved():
                self.c.translate(x, y)
                self.c.rotate(-angle)
                self.c.text(0.0, 0.0, s, size=size, font=font, fill=self.col(fill), anchor=_ALIGN[align])
        else:
            self.c.text(x, y, s, size=size, font=font, fill=self.col(fill), anchor=_ALIGN[align])

    def knockout(self, x: float, y: float, w: float, h: float, *, fill: str) -> None:
        """A patch of ``fill`` that keeps patterns off the text about to be printed on it (no text, no patch)."""
        if self.text_enabled:
            self.rect(x, y, w, h, fill=fill, radius=min(w, h) * 0.2)

    def line_v(self, x: float, y: float, h: float) -> None:
        """A thin vertical rule (chart cell borders)."""
        self.polyline([(x, y), (x, y + h)], stroke="ink", width=0.5, cap=0)

    def pattern(
        self, polys: Sequence[Sequence[tuple[float, float]]], pattern: m.Pattern, ink: str, cell: float
    ) -> None:
        """``pattern`` inside each of the polygons ``polys``."""
        self.c.pattern(polys, pattern, self.col(ink), cell)

    def clip_rect(self, x: float, y: float, w: float, h: float) -> None:
        self.c.clip_rect(x, y, w, h)

    def frame(
        self, kind: FrameKind, x: float, y: float, w: float, h: float, label: str = "", *, cover: bool = False
    ) -> AbstractContextManager[None]:
        """What is drawn inside the ``with`` belongs to this container, symbol or mark (recorded for
        :mod:`forge.layout`; nothing when the canvas does not record)."""
        return self.c.frame(kind, x, y, w, h, label, cover=cover)


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


_HEX_REST = " ".join([f"{{{i}}} {{{6 + i}}} l" for i in range(1, 6)] + ["{0} {6} l", "h"])
"""A hex's path after its ``m``, from its six x tokens then its six y tokens (``_polygon_code(6, False)``)."""


# ===================================================================================================== context
_REPLAY_SKIP = frozenset({"_code", "_formsinuse", "_codeStack", "_doc"})


class _GridReplay:
    """The terrain fills, textures and hex lines of a sheet form, kept for the thumbnail form drawn next (the same
    sheet without text): those operators do not depend on text, so the thumbnail takes them as they are instead
    of drawing a million hexes again.  Kept are the operators (the very strings of the sheet form), the forms they
    use, and what they leave changed on the reportlab canvas; nothing is kept unless :func:`draw` arms it."""

    def __init__(self) -> None:
        self.armed = False
        self.saved: tuple[list[str], list[str], dict[str, Any]] | None = None

    def clear(self) -> None:
        self.armed, self.saved = False, None

    def start(self, rl: Any) -> tuple[dict[str, Any], int, int, Any, Any]:
        return dict(rl.__dict__), len(rl._code), len(rl._formsinuse), dict(rl._colorsUsed), rl._extgstate.getState()

    def finish(self, rl: Any, snap: tuple[dict[str, Any], int, int, Any, Any]) -> None:
        before, n_code, n_forms, colours, gstate = snap
        if dict(rl._colorsUsed) != colours or rl._extgstate.getState() != gstate:
            return  # changed in place: not kept (the thumbnail draws its own)
        changed = {k: v for k, v in rl.__dict__.items() if k not in _REPLAY_SKIP and before.get(k, rl) is not v}
        self.saved = (rl._code[n_code:], rl._formsinuse[n_forms:], changed)

    def replay(self, rl: Any) -> bool:
        """Put the kept operators on ``rl`` (once); False when there are none."""
        if self.saved is None:
            return False
        code, forms, changed = self.saved
        self.saved = None
        rl._code.extend(code)
        rl._formsinuse.extend(forms)
        rl.__dict__.update(changed)
        return True


class _TerrainOf(Mapping[Cell, str | None]):
    """The base terrain id of every cell of the grid (None when unknown): the listed hexes' own, else the map's
    default.  Only the listed hexes are stored: a 1,000 x 1,000 map lists a few thousand."""

    def __init__(self, game: m.Game, grid: Grid, hexes: dict[Cell, m.HexInfo]) -> None:
        default = game.map.default_terrain
        self._grid = grid
        self._default = default if default in game.terrain else None
        self._known: dict[Cell, str | None] = {}
        for cell, info in hexes.items():
            tid = info.terrain if info.terrain else default
            self._known[cell] = tid if tid in game.terrain else None

    def __getitem__(self, cell: Cell) -> str | None:
        return self._known.get(cell, self._default)

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._grid.cells())

    def __len__(self) -> int:
        return self._grid.columns * self._grid.rows

    def any_unknown(self) -> bool:
        """Whether any cell's terrain is unknown, without going through every cell: a listed one's, or the
        default's when a cell is not listed."""
        return None in self._known.values() or (self._default is None and len(self._known) < len(self))


@dataclass
class _Ctx:
    """What the drawing needs, derived once from the game."""

    game: m.Game
    options: Any
    colors: dict[str, str]
    grid: Grid
    hexes: dict[Cell, m.HexInfo]
    terrain_of: Mapping[Cell, str | None]
    """Base terrain id per cell; None when unknown."""
    set_code: str | None = None
    """The class set the map belongs to (``S01``), printed on every page of it; None outside a handout."""
    replay: _GridReplay = field(default_factory=_GridReplay)
    """The sheet form's grid, kept for its thumbnail form (:func:`draw`)."""
    zones_at: dict[Cell, list[str]] = field(default_factory=dict)
    """The set-up zones (``map.setup_zones`` ids) each cell belongs to, in the file's order."""

    @classmethod
    def build(cls, game: m.Game, options: Any, colors: dict[str, str], set_code: str | None = None) -> _Ctx:
        grid = game.map.grid.grid()
        hexes: dict[Cell, m.HexInfo] = {}
        for label, info in sorted(game.map.hexes.items()):
            try:
                cell = grid.parse(label)
            except ValueError:
                continue
            if grid.contains(cell):
                hexes[cell] = info
        ctx = cls(game, options, colors, grid, hexes, _TerrainOf(game, grid, hexes), set_code)
        if game.map.setup_zones:
            from ..rules.kit import setup as _setup

            for zid, labels in _setup.zones(game).items():
                for label in labels:
                    ctx.zones_at.setdefault(grid.parse(label), []).append(zid)
        return ctx

    def side(self, side_id: str) -> m.Side | None:
        return next((s for s in self.game.game.sides if s.id == side_id), None)

    @property
    def any_unknown(self) -> bool:
        if isinstance(self.terrain_of, _TerrainOf):
            return self.terrain_of.any_unknown()
        return any(t is None for t in self.terrain_of.values())

    @property
    def any_reconstructed(self) -> bool:
        return any(h.reconstructed for h in self.hexes.values())

    @property
    def any_vp(self) -> bool:
        return any(h.vp is not None for h in self.hexes.values())

    @property
    def any_setup(self) -> bool:
        return any(h.setup for h in self.hexes.values())

    def supply_sides(self) -> list[m.Side]:
        ids = {h.supply for h in self.hexes.values() if h.supply}
        return [s for s in self.game.game.sides if s.id in ids]


# ======================================================================================================= blocks
DrawFn = Callable[[Pen, float, float, float], None]


@dataclass(frozen=True)
class Item:
    """A piece of the charts panel: its height at the width it was built for, and how to draw it at
    ``(x, y_top, width)``."""

    height: float
    draw: DrawFn


class Block:
    """A run of items laid out top to bottom, possibly across columns and pages; built lazily per width."""

    def peek(self, width: float, max_height: float) -> Item | None:  # pragma: no cover - interface
        raise NotImplementedError

    def advance(self) -> None:  # pragma: no cover - interface
        raise NotImplementedError


def _head_bar(pen: Pen, x: float, y: float, w: float, title: str, rule: str | None) -> float:
    """A dark title bar across a chart; returns its height."""
    h = 13.0
    pen.rect(x, y, w, h, fill="panel_head")
    right = f"({rule})" if rule else ""
    rw = text_width(right, 6.5, FONT) + 6 if right else 0
    t, s = _fit(title.upper(), w - 8 - rw, 8.0, FONT_BOLD)
    pen.text(x + 4, y + 9.3, t, size=s, font=FONT_BOLD, fill="#ffffff")
    if right:
        pen.text(x + w - 4, y + 9.3, right, size=6.5, fill="#ffffff", align="right")
    return h


class _Single(Block):
    def __init__(self, build: Callable[[float, float], Item]) -> None:
        self._build = build
        self._done = False

    def peek(self, width: float, max_height: float) -> Item | None:
        return None if self._done else self._build(width, max_height)

    def advance(self) -> None:
        self._done = True


# ------------------------------------------------------------------------------------------------ title block
def _noun(grid: Grid) -> str:
    """What the game calls its spaces: ``hex`` or ``square``."""
    return "hex" if grid.kind is GridKind.HEX else "square"


def _status_text(ctx: _Ctx) -> str:
    many = "hexes" if ctx.grid.kind is GridKind.HEX else "squares"
    status = ctx.game.map.status
    if status is m.MapStatus.COMPLETE:
        return f"Every {_noun(ctx.grid)} as printed in the game."
    if status is m.MapStatus.RECONSTRUCTED:
        return (
            f"{many.capitalize()} the rulebook names are placed as stated; the rest is reconstructed. "
            f"{many.capitalize()} marked with a small diamond are inferred, not stated."
        )
    return f"Only the {many} the rulebook names are known. Hatched {many}: terrain unknown, not invented."


def _scale_text(game: m.Game) -> str:
    sc = game.game.scale
    n = _noun(game.map.grid.grid())
    days = sc.days_per_turn
    unit = "day" if days == 1 or str(days) == "1" else "days"
    return f"1 {n} = {_maybe(sc.km_per_hex)} km  ·  1 turn = {_maybe(days)} {unit}"


def _size_text(game: m.Game, lay: MapLayout) -> str:
    """Cell and sheet size as the game states them (``1.75in``, ``10cm``), the sheet in inches if changed."""
    grid = game.map.grid.grid()
    cells = "Hexes" if grid.kind is GridKind.HEX else "Squares"
    across = " across the flats" if grid.kind is GridKind.HEX else " a side"
    stated = game.map.sheet
    same = stated is not None and U.size(stated) == (lay.sheet_w, lay.sheet_h)
    sheet = stated if same and stated else f"{_inches(lay.sheet_w)} x {_inches(lay.sheet_h)}"
    return f"{cells} {game.map.hex_size}{across}  ·  sheet {sheet}"


def _title_item(ctx: _Ctx, lay: MapLayout, width: float, max_height: float = 1e9) -> Item:
    """The title box: title and subtitle wrap onto two lines each, the credits onto three, the map's note onto
    what the column leaves (at least seven lines); text that does not fit even at 5 pt is cut and reported."""
    g = ctx.game.game
    pad = 6.0
    inner = width - 2 * pad
    what = "map title box"
    tfit = fit.fit(
        g.title,
        inner,
        2 * 20.0 * 1.05,
        20.0,
        font=FONT_BOLD,
        leading=1.05,
        shrink=0.5,  # one line down to 10 pt, as printed titles are
        where=("game", "title"),
        what=what,
    )
    tsize = tfit.size
    sub = (
        fit.fit(
            g.subtitle, inner, 2 * 10.5, 9.0, font=FONT_ITALIC, leading=10.5 / 9, where=("game", "subtitle"), what=what
        )
        if g.subtitle
        else None
    )
    sub_lines, sub_size = (list(sub.lines), sub.size) if sub else ([], 9.0)
    credits = [x for x in (f"Design: {g.designer}" if g.designer else "", g.publisher or "") if x]
    cfit = fit.fit(
        "  ·  ".join(credits), inner, 3 * 7.2, 6.0, leading=1.2, shrink=1.0, where=("game", "designer"), what=what
    )
    credit_lines = [ln for ln in cfit.lines if ln]
    scale = _scale_text(ctx.game)
    sheet = _size_text(ctx.game, lay)
    status_word = f"MAP: {ctx.game.map.status.value.upper()}"
    set_word = f"CLASS SET {ctx.set_code}" if ctx.set_code else ""
    if set_word and text_width(status_word, 7.5, FONT_BOLD) + text_width(set_word, 7.5, FONT_BOLD) + 28 > inner:
        status_word = f"{status_word}  ·  {set_word}"  # no room beside it: one box says both
        set_word = ""
    status_lines = _wrap(_status_text(ctx), inner, 6.0)
    warn_lines = _wrap(lay.sheet_note, inner, 6.0, FONT_BOLD) if lay.sheet_note else []
    h = pad + tsize * 1.05 * len(tfit.lines) + len(sub_lines) * 10.5 + 4
    h += 9 * 2  # scale and sheet lines
    h += len(credit_lines) * 7.2
    h += 4 + 12 + len(status_lines) * 7.2 + len(warn_lines) * 7.2 + pad
    note_lines: list[str] = []
    note_size = 5.5
    if ctx.game.map.note:
        room = max(max_height - h, 7 * 6.6)
        nfit = fit.fit(
            ctx.game.map.note,
            inner,
            room,
            5.5,
            font=FONT_ITALIC,
            leading=1.2,
            shrink=1.0,  # body text: wrapped at its size, not shrunk onto one line
            where=("map", "note"),
            what=what,
        )
        note_lines, note_size = list(nfit.lines), nfit.size
    note_lead = note_size * 1.2
    h += len(note_lines) * note_lead

    def draw(pen: Pen, x: float, y: float, w: float) -> None:
        pen.rect(x, y, w, h, fill="paper", stroke="ink", width=1.4)
        pen.rect(x + 2.2, y + 2.2, w - 4.4, h - 4.4, stroke="ink", width=0.4)
        yy = y + pad + tsize * 0.85
        for i, line in enumerate(tfit.lines):
            pen.text(x + w / 2, yy + i * tsize * 1.05, line, size=tsize, font=FONT_BOLD, align="centre")
        yy += tsize * 1.05 * (len(tfit.lines) - 1)
        yy += tsize * 0.2
        for line in sub_lines:
            yy += 10.5
            pen.text(x + w / 2, yy - 2, line, size=sub_size, font=FONT_ITALIC, align="centre")
        yy += 4
        for line in (scale, sheet):
            yy += 9
            t, s = _fit(line, inner, 6.8, what=what)
            pen.text(x + w / 2, yy, t, size=s, align="centre")
        for line in credit_lines:
            yy += 7.2
            pen.text(x + w / 2, yy, line, size=cfit.size, align="centre", fill="label")
        yy += 4
        sw = text_width(status_word, 7.5, FONT_BOLD) + 10
        pen.rect(x + pad, yy, sw, 11, fill="ink")
        pen.text(x + pad + 5, yy + 8, status_word, size=7.5, font=FONT_BOLD, fill="#ffffff")
        if set_word:  # a class handout's set code, boxed at the right of the status row
            cw = text_width(set_word, 7.5, FONT_BOLD) + 10
            pen.rect(x + w - pad - cw, yy, cw, 11, fill="paper", stroke="ink", width=0.8)
            pen.text(x + w - pad - cw / 2, yy + 8, set_word, size=7.5, font=FONT_BOLD, align="centre")
        yy += 12
        for line in status_lines:
            yy += 7.2
            pen.text(x + pad, yy, line, size=6.0)
        for line in note_lines:
            yy += note_lead
            pen.text(x + pad, yy, line, size=note_size, font=FONT_ITALIC, fill="label")
        for line in warn_lines:
            yy += 7.2
            pen.text(x + pad, yy, line, size=6.0, font=FONT_BOLD, fill="mark")

    return Item(h, draw)


# ---------------------------------------------------------------------------------------------- turn track
@dataclass
class _Line:
    height: float
    draw: Callable[[Pen, float, float, float], None]
    """Draws at (x, y_top, width)."""


def _text_line(
    text: str, size: float, *, font: str = FONT, fill: str = "ink", lead: float = 1.2, indent: float = 0.0
) -> _Line:
    def draw(pen: Pen, x: float, y: float, w: float) -> None:
        t, s = _fit(text, w - indent, size, font)
        pen.text(x + indent, y + size * 0.92, t, size=s, font=font, fill=fill)

    return _Line(size * lead, draw)


def _luminance(hex_colour: str) -> float:
    return int(grey(hex_colour)[1:3], 16) / 255


def _unit_colour(ctx: _Ctx, u: m.Unit) -> tuple[str, str]:
    """Fill and ink of a unit's chip: its group's colour (else its side's) and the side's text colour, unless
    that would not read on the fill (black on a black panzer group): then black or white, whichever reads."""
    side = ctx.side(u.side)
    fill = side.colour if side else "#ffffff"
    if side and u.group and u.group in side.groups:
        fill = side.groups[u.group]
    ink = side.text_colour if side else "#000000"
    if abs(_luminance(fill) - _luminance(ink)) < 0.4:
        ink = "#000000" if _luminance(fill) > 0.5 else "#ffffff"
    return fill, ink


def _chip(pen: Pen, ctx: _Ctx, u: m.Unit, x: float, y: float, w: float, h: float) -> None:
    """A miniature counter: the unit's colours and its label."""
    fill, ink = _unit_colour(ctx, u)
    with pen.frame("symbol", x, y, w, h, f"counter {u.label}"):
        pen.rect(x, y, w, h, fill=fill, stroke="ink", width=0.4, radius=1.2)
        t, s = _fit(u.label, w - 2, 5.8, FONT_BOLD)
        pen.text(x + w / 2, y + h / 2 + s * 0.36, t, size=s, font=FONT_BOLD, fill=ink, align="centre")


def _chip_width(u: m.Unit) -> float:
    return max(15.0, min(text_width(u.label, 5.8, FONT_BOLD) + 4, 34.0))


class _TurnTrack(Block):
    def __init__(self, ctx: _Ctx) -> None:
        self.ctx = ctx
        self.turns = sorted(ctx.game.turns.turns, key=lambda t: t.number)
        self.reinf = ctx.game.reinforcements()
        self.idx = 0
        self.pending = 0
        self.footer_done = False
        # Conditional entries get numbered footnotes in track order.
        self.notes: dict[str, int] = {}
        for t in self.turns:
            for u in self._units(t.number):
                if u.entry is not None and u.entry.condition:
                    self.notes[u.id] = len(self.notes) + 1

    def _units(self, turn: int) -> list[m.Unit]:
        order = {s.id: i for i, s in enumerate(self.ctx.game.game.sides)}
        return sorted(self.reinf.get(turn, []), key=lambda u: order.get(u.side, 9))

    def _weather(self, t: m.Turn) -> str | None:
        if t.weather:
            return t.weather.capitalize()
        w = self.ctx.game.turns.weather
        if w is None:
            return None
        return " / ".join(s.capitalize() for s in w.states) + (" (roll)" if w.table else "")

    def _box_lines(self, t: m.Turn, w: float, limit: int | None) -> list[_Line]:
        """Everything printed in one turn's box, below its number row."""
        lines: list[_Line] = []
        if t.date:
            for s in _clip_lines(_wrap(t.date, w, 6.5, FONT_BOLD), 2, w, 6.5, FONT_BOLD):
                lines.append(_text_line(s, 6.5, font=FONT_BOLD))
        weather = self._weather(t)
        if weather:
            lines.append(_text_line(weather, 6.0, font=FONT_ITALIC, fill="label"))
        if t.note:
            fill = "mark" if t.marks else "label"
            for s in _clip_lines(_wrap(t.note, w, 5.5, FONT_ITALIC), 3, w, 5.5, FONT_ITALIC):
                lines.append(_text_line(s, 5.5, font=FONT_ITALIC, fill=fill))
        if t.replacements:
            names = {s.id: s.name for s in self.ctx.game.game.sides}
            text = "Repl.: " + ", ".join(f"{names.get(k, k)} {_maybe(v)}" for k, v in t.replacements.items())
            for s in _wrap(text, w, 5.8):
                lines.append(_text_line(s, 5.8))
        units = self._units(t.number)
        if units:
            lines.append(_Line(2.0, lambda pen, x, y, w: None))
        shown = units if limit is None else units[:limit]
        for u in shown:
            lines.append(self._unit_line(u, w))
        if len(shown) < len(units):
            lines.append(_text_line(f"+{len(units) - len(shown)} more: see the counter sheet", 5.5, font=FONT_ITALIC))
        return lines

    def _unit_line(self, u: m.Unit, w: float) -> _Line:
        cw = _chip_width(u)
        assert u.entry is not None
        bits = [u.type.value]
        if u.size is not None:
            bits.append(u.size.value)
        if u.copies > 1:
            bits.append(f"×{u.copies}")
        where = f"hex {u.entry.hex}" if u.entry.hex else "hex ?"
        text = " ".join(bits) + f" · {where}"
        note = self.notes.get(u.id)
        if note is not None:
            text += f" *{note}"
        tw = w - cw - 3
        wrapped = _clip_lines(_wrap(text, tw, 5.8), 2, tw, 5.8)
        h = max(10.5, 7.0 * len(wrapped) + 3)

        def draw(pen: Pen, x: float, y: float, ww: float) -> None:
            _chip(pen, self.ctx, u, x, y + 0.5, cw, 9.5)
            for i, s in enumerate(wrapped):
                fill = "mark" if note is not None else "ink"
                pen.text(x + cw + 3, y + 7.2 + 7.0 * i, s, size=5.8, fill=fill)

        return _Line(h, draw)

    def _box(
        self, t: m.Turn, w: float, limit: int | None
    ) -> tuple[float, Callable[[Pen, float, float, float, float], None]]:
        pad = 3.0
        inner = w - 2 * pad
        lines = self._box_lines(t, inner, limit)
        top = 15.0
        h = pad + top + sum(ln.height for ln in lines) + pad

        def draw(pen: Pen, x: float, y: float, ww: float, hh: float) -> None:
            pen.rect(x, y, ww, hh, fill="paper", stroke="ink", width=0.8)
            num = str(t.number)
            pen.text(x + pad + 1, y + pad + 11.5, num, size=13.0, font=FONT_BOLD)
            # Special-rule marks: red badges at the top right, as a printed track shows rule reminders.
            bx = x + ww - pad
            for mark in reversed(t.marks):
                mt, ms = _fit(mark, ww / 2, 6.5, FONT_BOLD)
                bw = text_width(mt, ms, FONT_BOLD) + 5
                bx -= bw
                if bx < x + pad + text_width(num, 13.0, FONT_BOLD) + 2:
                    break
                with pen.frame("symbol", bx, y + pad + 1, bw, 10, f"turn mark {mt}"):
                    pen.rect(bx, y + pad + 1, bw, 10, fill="mark", radius=2)
                    pen.text(bx + bw / 2, y + pad + 8.6, mt, size=ms, font=FONT_BOLD, fill="#ffffff", align="centre")
                bx -= 2
            yy = y + pad + top
            for ln in lines:
                ln.draw(pen, x + pad, yy, inner)
                yy += ln.height

        return h, draw

    def _per_row(self, width: float) -> int:
        return max(1, min(len(self.turns), int((width + 3) // (TURN_BOX_MIN_W + 3))))

    def _weather_summary(self) -> list[str]:
        w = self.ctx.game.turns.weather
        if w is None:
            return []
        text = f"Weather: {' / '.join(w.states)}; starts {w.initial}."
        if w.summary:
            text += f" {w.summary}"
        if w.rule:
            text += f" ({w.rule})"
        return [text]

    def peek(self, width: float, max_height: float) -> Item | None:
        if self.idx < len(self.turns):
            n = self._per_row(width)
            row = self.turns[self.idx : self.idx + n]
            first = self.idx == 0
            head_lines = _wrap(self._weather_summary()[0], width - 6, 6.0) if first and self._weather_summary() else []
            head_h = (13.0 + 3 + 7.2 * len(head_lines) + 2) if first else 0.0
            bw = (width - 3 * (n - 1)) / n
            limit: int | None = None
            boxes = [self._box(t, bw, limit) for t in row]
            box_h = max(b[0] for b in boxes)
            # Truncate long reinforcement lists rather than overflow the column.
            while head_h + box_h > max_height and (limit is None or limit > 1):
                most = max(len(self._units(t.number)) for t in row)
                limit = (most if limit is None else limit) - 1
                if limit < 1:
                    break
                boxes = [self._box(t, bw, limit) for t in row]
                box_h = max(b[0] for b in boxes)
            self.pending = len(row)
            total = head_h + box_h + 3

            def draw(pen: Pen, x: float, y: float, w: float) -> None:
                yy = y
                if first:
                    _head_bar(pen, x, yy, w, "Turn record track", self.ctx.game.turns.rule)
                    yy += 13.0 + 3
                    for s in head_lines:
                        yy += 7.2
                        pen.text(x + 3, yy - 1.5, s, size=6.0, font=FONT_ITALIC)
                    yy += 2
                for i, (_, fn) in enumerate(boxes):
                    fn(pen, x + i * (bw + 3), yy, bw, box_h)

            return Item(total, draw)
        if not self.footer_done:
            lines = self._footer_lines(width)
            if not lines:
                self.pending = 0
                self.footer_done = True
                return None
            h = sum(ln.height for ln in lines) + 2

            def draw_footer(pen: Pen, x: float, y: float, w: float) -> None:
                yy = y
                for ln in lines:
                    ln.draw(pen, x, yy, w)
                    yy += ln.height

            return Item(h, draw_footer)
        return None

    def _footer_lines(self, width: float) -> list[_Line]:
        out: list[_Line] = []
        marks = sorted({mk for t in self.turns for mk in t.marks}, key=_rule_key)
        titles = {r.rule: r.title for r in self.ctx.game.special_rules}
        if marks:
            grey_on = getattr(self.ctx.options, "greyscale", False)  # say what the print shows
            text = (
                ("Dark grey badges" if grey_on else "Red marks")
                + ": special rules that apply on the turn — "
                + "; ".join(f"{mk} {titles[mk]}" if mk in titles else mk for mk in marks)
                + "."
            )
            out += [_text_line(s, 5.8, fill="mark") for s in _wrap(text, width, 5.8)]
        if self.reinf:
            text = "Reinforcements (from the counter data): unit, type and size, entry hex."
            out += [_text_line(s, 5.8, fill="label") for s in _wrap(text, width, 5.8)]
        for uid, n in self.notes.items():
            u = self.ctx.game.unit(uid)
            assert u.entry is not None
            rule = f" ({u.entry.rule})" if u.entry.rule else ""
            text = f"*{n} {u.label} ({u.name}), conditional entry{rule}: {u.entry.condition}."
            out += [_text_line(s, 5.8, fill="mark") for s in _wrap(text, width, 5.8)]
        return out

    def advance(self) -> None:
        if self.idx < len(self.turns):
            self.idx += self.pending
        else:
            self.footer_done = True


def _rule_key(rule: str) -> tuple[Any, ...]:
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in rule.replace("-", ".").split("."))


# --------------------------------------------------------------------------------------- terrain effects chart
_KIND_ORDER = {m.TerrainKind.HEX: 0, m.TerrainKind.FEATURE: 1, m.TerrainKind.HEXSIDE: 2, m.TerrainKind.PATH: 3}


def _cost(value: Any) -> str:
    if isinstance(value, m.Unknown) or value is None:
        return "?"
    if value == "prohibited":
        return "prohib."
    if value == "varies":
        return "varies"
    return _num(value)


def _combat_text(t: m.TerrainType, ctx: _Ctx) -> str:
    def side_name(side_id: str) -> str:
        side = ctx.side(side_id)
        return side.name if side else side_id

    c = t.combat
    parts = [c.text] if c.text else combat_facts(c, side_name)
    if c.text:
        parts += [
            f
            for f in combat_facts(c.model_copy(update={"shift": 0, "shift_when": None}), side_name)
            if "defending:" in f
        ]
    return "; ".join(parts) if parts else "—"


class _Tec(Block):
    def __init__(self, ctx: _Ctx, size: float) -> None:
        self.ctx = ctx
        self.size = size
        items = list(ctx.game.terrain.items())
        self.rows = sorted(items, key=lambda kv: _KIND_ORDER[kv[1].kind])  # stable: data order within a kind
        self.classes = list(ctx.game.game.mobility_classes)
        # Rule numbers are short ("7.2"), but some games cite sections by name ("setup.map").
        widest = max((text_width(t.rule or "—", 6.0) for _, t in self.rows), default=0.0)
        self.rule_w = min(max(24.0, widest + 6), 60.0)
        self.idx = 0

    def _columns(self, width: float) -> tuple[float, float, float, float, float]:
        """Widths: swatch, name, each movement class, combat, rule.  The combat text gets at least
        :data:`TEC_MIN_COMBAT` when the column allows it; names and costs give way first."""
        sw = 26.0
        rule = self.rule_w
        n = len(self.classes)
        move = 26.0 if n == 1 else 30.0
        rest = width - sw - rule - move * n
        name = max(48.0, rest * 0.36)
        if rest - name < TEC_MIN_COMBAT and n > 1:
            move = max(20.0, (width - sw - rule - 48.0 - TEC_MIN_COMBAT) / n)
            rest = width - sw - rule - move * n
        if rest - name < TEC_MIN_COMBAT:
            name = max(40.0, rest - TEC_MIN_COMBAT)
        return sw, name, move, rest - name, rule

    def _header(self, width: float) -> tuple[float, DrawFn]:
        sw, name, move, combat, rule = self._columns(width)
        labels = ["Move" if self.classes == ["all"] else c.replace("-", " ") for c in self.classes]
        # Class names that do not fit across their column are printed upwards, as on many printed charts.
        upright = all(text_width(lb, 5.5, FONT_BOLD) <= move - 2 for lb in labels)
        fitted = [_fit(lb, move - 2 if upright else 48.0, 5.5, FONT_BOLD) for lb in labels]
        hh = 9.0 if upright else max(text_width(t, z, FONT_BOLD) for t, z in fitted) + 5
        combat_head = _fit("Combat effect / notes", combat - 4, 5.8, FONT_BOLD)
        h = 13.0 + hh + 1

        def draw(pen: Pen, x: float, y: float, w: float) -> None:
            _head_bar(pen, x, y, w, "Terrain effects chart", None)
            yy = y + 13
            base = yy + hh - 2.5
            pen.rect(x, yy, w, hh, fill="#e6e1d3", stroke="ink", width=0.5)
            pen.text(x + 2, base, "Terrain", size=5.8, font=FONT_BOLD)
            mx = x + sw + name
            for t, z in fitted:
                if upright:
                    pen.text(mx + move / 2, base, t, size=z, font=FONT_BOLD, align="centre")
                else:
                    pen.text(mx + move / 2 + z * 0.35, base, t, size=z, font=FONT_BOLD, angle=90)
                mx += move
            pen.text(mx + 2, base, combat_head[0], size=combat_head[1], font=FONT_BOLD)
            pen.text(x + w - rule / 2, base, "Rule", size=5.8, font=FONT_BOLD, align="centre")

        return h, draw

    def _row(self, tid: str, t: m.TerrainType, width: float) -> tuple[float, DrawFn]:
        sw, name, move, combat, rule = self._columns(width)
        kind_word = {"hex": "", "feature": "in hex", "hexside": "hexside", "path": "path"}[t.kind.value]
        nfit = fit.fit(
            t.name,
            name - 4,
            3 * 7.2,
            6.4,
            font=FONT_BOLD,
            leading=7.2 / 6.4,
            where=("terrain", tid, "name"),
            what="terrain effects chart",
        )
        names, nsize = list(nfit.lines), nfit.size
        ctext = _wrap(_combat_text(t, self.ctx), combat - 4, 5.8)
        ntext = _wrap(t.movement_note, combat - 4, 5.5, FONT_ITALIC) if t.movement_note else []
        # A cost given for "all" applies to every class the game names.
        costs = [_cost(t.movement.get(c, t.movement.get("all"))) for c in self.classes]
        h = max(24.0, 7.2 * len(names) + (6.5 if kind_word else 0) + 4, 6.8 * len(ctext) + 6.4 * len(ntext) + 5)
        rule_text = t.rule or "—"

        def draw(pen: Pen, x: float, y: float, w: float) -> None:
            pen.rect(x, y, w, h, fill="paper", stroke="ink", width=0.5)
            _swatch(pen, self.ctx, tid, t, x + 2, y + (h - 22) / 2, 22.0, min(self.size, PATTERN_MAX))
            yy = y + 3
            for s in names:
                yy += 7.2
                pen.text(x + sw + 2, yy - 1, s, size=nsize, font=FONT_BOLD)
            if kind_word:
                pen.text(x + sw + 2, yy + 5.5, kind_word, size=5.5, font=FONT_ITALIC, fill="label")
            mx = x + sw + name
            for cst in costs:
                pen.line_v(mx, y, h)
                if cst == "prohib." and text_width(cst, MIN_PT, FONT_BOLD) > move - 2:
                    cst = "P"  # explained under the chart
                ct, cs = _fit(cst, move - 2, 7.0, FONT_BOLD)
                pen.text(mx + move / 2, y + h / 2 + 2.5, ct, size=cs, font=FONT_BOLD, align="centre")
                mx += move
            pen.line_v(mx, y, h)
            yy = y + 2
            for s in ctext:
                yy += 6.8
                pen.text(mx + 2, yy, s, size=5.8)
            for s in ntext:
                yy += 6.4
                pen.text(mx + 2, yy, s, size=5.5, font=FONT_ITALIC, fill="label")
            pen.line_v(x + w - rule, y, h)
            rt, rs = _fit(rule_text, rule - 2, 6.0)
            pen.text(x + w - rule / 2, y + h / 2 + 2, rt, size=rs, align="centre")

        return h, draw

    def peek(self, width: float, max_height: float) -> Item | None:
        if self.idx > len(self.rows):
            return None
        if self.idx == len(self.rows):
            text = (
                f"Costs are movement points to enter a {_noun(self.ctx.grid)} (or cross a side, or use a path); "
                "? = not given by the rulebook."
            )
            if any("prohibited" in t.movement.values() for _, t in self.rows):
                text += " P, prohib. = prohibited."
            lines = _wrap(text, width, 5.5, FONT_ITALIC)

            def draw_foot(pen: Pen, x: float, y: float, w: float) -> None:
                for i, s in enumerate(lines):
                    pen.text(x, y + 6.5 + 6.6 * i, s, size=5.5, font=FONT_ITALIC, fill="label")

            return Item(6.6 * len(lines) + 3, draw_foot)
        tid, t = self.rows[self.idx]
        rh, rdraw = self._row(tid, t, width)
        if self.idx == 0:
            hh, hdraw = self._header(width)

            def draw_first(pen: Pen, x: float, y: float, w: float) -> None:
                hdraw(pen, x, y, w)
                rdraw(pen, x, y + hh, w)

            return Item(hh + rh, draw_first)
        return Item(rh, rdraw)

    def advance(self) -> None:
        self.idx += 1


# ------------------------------------------------------------------------------------------------------ key
def _label_scheme_text(grid: Grid) -> str:
    return {
        LabelScheme.LETTER_ROW: "row letter, column number",
        LabelScheme.LETTER_COLUMN: "column letter, row number",
        LabelScheme.XXYY: "column number, then row number",
        LabelScheme.COL_ROW: "column, row",
    }[grid.labels]


def _label_icon(pen: Pen, x: float, y: float, *, text: str) -> None:
    t, size = _fit(text, 20.0, 7.0, FONT_BOLD)
    pen.text(x, y + 2.5, t, size=size, font=FONT_BOLD, align="centre", fill="label")


def _setup_icon(pen: Pen, x: float, y: float, *, code: str) -> None:
    t, size = _fit(code, 18.0, 6.0, FONT_BOLD)
    _setup_symbol(pen, x, y, t, size)


def _zone_icon(pen: Pen, x: float, y: float, *, ctx: _Ctx, zid: str) -> None:
    _zone_symbol(pen, ctx, zid, x, y, 5.5)


def _supply_icon(pen: Pen, x: float, y: float, *, r: float, side: m.Side) -> None:
    _supply_symbol(pen, x, y, r, side)


class _Key(Block):
    """The map key: what the symbols printed on the map mean (only those the map uses)."""

    def __init__(self, ctx: _Ctx) -> None:
        self.ctx = ctx
        self.entries: list[tuple[Callable[[Pen, float, float], None], str]] = []
        r = 7.5
        example = ctx.grid.label(Cell(min(2, ctx.grid.columns - 1), min(2, ctx.grid.rows - 1)))
        self.entries.append(
            (
                functools.partial(_label_icon, text=example),
                f"{_noun(ctx.grid).capitalize()} label ({_label_scheme_text(ctx.grid)})",
            )
        )
        for side in ctx.supply_sides():
            self.entries.append((functools.partial(_supply_icon, r=r, side=side), f"{side.name} supply source"))
        if ctx.any_vp:
            self.entries.append((lambda pen, x, y: _vp_symbol(pen, x, y, "n", 6.0), "Victory points for the hex"))
        if ctx.any_setup:
            code = next(h.setup for h in ctx.hexes.values() if h.setup)
            self.entries.append((functools.partial(_setup_icon, code=code), "Setup code"))
        for zid, zone in ctx.game.map.setup_zones.items():
            each = f", {zone.per_hex} unit{'s' if zone.per_hex != 1 else ''} each" if zone.per_hex else ""
            self.entries.append(
                (
                    functools.partial(_zone_icon, ctx=ctx, zid=zid),
                    f"{zone_name(ctx.game, zid)} hex{each}" + (f" ({zone.rule})" if zone.rule else ""),
                )
            )
        if ctx.any_reconstructed:
            self.entries.append(
                (lambda pen, x, y: _reconstructed_mark(pen, x, y, 3.2), "Reconstructed hex (inferred, not stated)")
            )
        if ctx.any_unknown:
            self.entries.append((functools.partial(_unknown_swatch, r=9.0, grid=ctx.grid), "Terrain unknown"))
        self.idx = 0

    def _rows(self, width: float) -> list[list[tuple[Callable[[Pen, float, float], None], str]]]:
        n = max(1, int(width // (1.55 * INCH)))
        return [self.entries[i : i + n] for i in range(0, len(self.entries), n)]

    def peek(self, width: float, max_height: float) -> Item | None:
        rows = self._rows(width)
        if self.idx >= len(rows):
            return None
        row = rows[self.idx]
        n = max(1, int(width // (1.55 * INCH)))
        cw = width / n
        first = self.idx == 0
        texts = [_clip_lines(_wrap(label, cw - 24, 5.8), 2, cw - 24, 5.8) for _, label in row]
        rh = max(18.0, max(6.8 * len(t) for t in texts) + 6)
        head = 16.0 if first else 0.0
        last = self.idx == len(rows) - 1

        def draw(pen: Pen, x: float, y: float, w: float) -> None:
            yy = y
            if first:
                _head_bar(pen, x, yy, w, "Map key", None)
                yy += 13 + 3
            pen.rect(x, yy - (3 if first else 0), w, rh + (3 if first else 0), fill="paper")
            pen.line_v(x, yy - 3 if first else yy, rh + (3 if first else 0))
            pen.line_v(x + w, yy - 3 if first else yy, rh + (3 if first else 0))
            if last:
                pen.polyline([(x, yy + rh), (x + w, yy + rh)], stroke="ink", width=0.5)
            for i, ((icon, _), lines) in enumerate(zip(row, texts, strict=True)):
                cx = x + i * cw
                icon(pen, cx + 11, yy + rh / 2)
                for j, s in enumerate(lines):
                    pen.text(cx + 22, yy + rh / 2 + 2 - 3.4 * (len(lines) - 1) + 6.8 * j, s, size=5.8)

        return Item(head + rh, draw)

    def advance(self) -> None:
        self.idx += 1


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


def _flow(
    blocks: list[Block],
    regions: list[_Region],
    extra: Callable[[int], list[_Region]],
    pages: list[SheetPage],
    *,
    spread: bool = False,
) -> None:
    """Place the blocks' items top to bottom in ``regions``, then on extra sheets made by ``extra(page)``;
    then spread each column's blocks apart a little so that a column is filled, not top-heavy.  With
    ``spread``, each block starts a fresh column when its sheet has one left (a wide strip under the grid or
    a chart sheet reads better as side-by-side charts than as one tall stack)."""
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
        for placed, starts in placed_items:
            shift += add if starts else 0.0
            placed.y += shift


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

    _flow(_blocks(ctx, lay), regions, extra, lay.pages, spread=game.map.sheet is not None)
    lay.title_on_map = bool(lay.pages[0].placed)
    return lay


def _count_columns(ctx: _Ctx, probe: MapLayout, col_h: float) -> int:
    """How many chart columns of :data:`PANEL_AUTO_W` the charts fill when each is ``col_h`` tall."""
    regions = [_Region(0, i * (PANEL_AUTO_W + GAP), 0, PANEL_AUTO_W, col_h) for i in range(256)]
    pages = [SheetPage("map")]
    _flow(_blocks(ctx, probe), regions, lambda page: [], pages)
    xs = {round(p.x, 3) for p in pages[0].placed}
    return max(1, len(xs))


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


def draw_terrain_sample(c: Canvas, game: m.Game, options: Any, tid: str, s: float) -> None:
    """The terrain chart's sample of ``tid`` (its cell with the fill and pattern, symbol or line the map draws),
    ``s`` points square with its lower-left corner at ``c``'s origin (reportlab, y up): the cards draw exactly
    what the map's legend shows, in the same palette."""
    palette = {**DEFAULT_COLORS, **Palette.of(game, options).mapping()}
    ctx = _Ctx(game, options, palette, game.map.grid.grid(), {}, {})
    cell = min(U.length(game.map.hex_size), PATTERN_MAX)
    _swatch(Pen(PdfCanvas(c, top=s), options, palette), ctx, tid, game.terrain[tid], 0.0, 0.0, s, cell)


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
    replay = ctx.replay if rl is not None and not recording else None
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
    for p in sheet.placed:
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
        else:  # over the map, at the bottom where cells have the least printed on them
            y = lay.sheet_h - SHEET_MARGIN - h
    return t, s, tiling.Rect(SHEET_MARGIN, y, w, h)


def _compact_title(pen: Pen, ctx: _Ctx, lay: MapLayout, page: int) -> None:
    """A one-line title: on chart sheets, and on a map sheet that has no room for the title block."""
    t, s, r = _compact_title_box(ctx, lay, page)
    with pen.frame("container", r.x, r.y, r.w, r.h, "title box"):
        pen.rect(r.x, r.y, r.w, r.h, fill="paper", stroke="ink", width=0.8)
        pen.text(r.x + 4, r.y + s * 1.12, t, size=s, font=FONT_BOLD)


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


def _inches(points: float) -> str:
    """``17in``, ``6.35in``: inches to two decimals at most, for notes printed on the map."""
    return f"{points / INCH:.2f}".rstrip("0").rstrip(".") + "in"


# ====================================================================================================== pages
def _paper_name(options: Any) -> str:
    return str(getattr(options, "paper", "letter") or "letter")


def _whole(options: Any) -> bool:
    """Each sheet printed whole at its own size, never tiled (``--no-tile``: the print-shop preset)."""
    return not getattr(options, "tile", True)


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


def page_size(game: m.Game, options: Any, layout: MapLayout | None = None) -> tuple[float, float]:
    """Size of the map's pages: the sheet's own when it fits ``options.paper``, else the paper as tiled."""
    lay = layout or sheet_layout(game, options)
    paper_w, paper_h = U.paper(_paper_name(options))
    if _whole(options) or tiling.fits(lay.sheet_w, lay.sheet_h, paper_w, paper_h):
        return (lay.sheet_w, lay.sheet_h)
    tplan = tiling.plan(lay.sheet_w, lay.sheet_h, paper_w, paper_h)
    return (tplan.paper_w, tplan.paper_h)


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
    # A sheet of a million hexes: each form is kept as its compressed bytes, not its text.  That reaches into
    # reportlab's internals (forge.pdf.end_form_sealed), so a map of ordinary size ends its forms the public way;
    # both give the same bytes.
    big = ctx.grid.columns * ctx.grid.rows > COMPACT_EVERY
    fast = ctx.grid.columns * ctx.grid.rows > FAST_PATHS_ABOVE

    def end_form(name: str) -> None:
        if big:
            end_form_sealed(c, name, forms.end_form, level=FAST_DEFLATE if fast else -1, ascii85=not fast)
        else:
            forms.end_form()

    for i in range(len(lay.pages)):
        # a large map's thumbnail takes the sheet's fills and hex lines (_GridReplay, which reads reportlab's
        # internals too); an ordinary one draws them again, the public way, to the same bytes
        ctx.replay.armed = big
        forms.begin_form(f"{form}sheet{i}", lay.sheet_w, lay.sheet_h)
        _draw_sheet(Pen(forms, options, palette), ctx, lay, i)
        end_form(f"{form}sheet{i}")
        forms.begin_form(f"{form}mini{i}", lay.sheet_w, lay.sheet_h)
        _draw_sheet(Pen(forms, options, palette, text=False), ctx, lay, i)
        ctx.replay.clear()
        end_form(f"{form}mini{i}")
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


def _sheet_caption(ctx: _Ctx, lay: MapLayout, page: int) -> str:
    what = "map" if lay.pages[page].kind == "map" else "charts"
    return f"{ctx.game.game.title} — {what}, sheet {page + 1} of {len(lay.pages)}"


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
    """A tile's overlap strips: shaded and labelled where they go under a neighbour, with registration marks."""
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
    hfit = fit.fit(hint, right - bar_end - 10, 2 * 6.0 * 1.1, 6.0, leading=1.1, what="map tile footer")
    lead = hfit.size * hfit.leading
    last = bottom - 1
    if tplan.paper_h - (py + src.h) >= 24.0:  # under the tile: the first line clear of the tile's edge
        last = max(last, py + src.h + 3 + 0.75 * hfit.size + (len(hfit.lines) - 1) * lead)
    for i, line in enumerate(reversed(hfit.lines)):  # the last line on the footer's baseline, the first above it
        pen.text(right, last - i * lead, line, size=hfit.size, align="right")


def _assembly_page(
    pen: Pen, ctx: _Ctx, lay: MapLayout, tplan: tiling.TilePlan, page: int, paper: str, form: str = ""
) -> None:
    c = pen.c
    mg = tplan.margin
    caption = _sheet_caption(ctx, lay, page)
    printed = {t.name for t in _printed_tiles(ctx, lay, tplan, page)}
    head = (
        f"Assembly — {caption} ({_inches(lay.sheet_w)} x {_inches(lay.sheet_h)}) on {len(printed)} "
        f"{paper} pages ({tplan.rows}x{tplan.columns})"
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
        "4. Match the registration marks (crossed circles) and the hex lines, then glue.",
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
