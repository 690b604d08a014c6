"""What every part of the map draws with: the sizes, the text helpers, the :class:`Pen` (a canvas with the
palette), and :class:`_Ctx`, what the drawing needs derived once from the game.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ... import model as m
from ...canvas import Anchor, Cap, FrameKind
from ...canvas import Canvas as DrawCanvas
from ...errors import Where, warn
from ...hexgrid import Cell, Grid
from ...pdf import (
    FONT,
    text_width,
)
from .. import fit
from ..fit import fit_line
from ..style import grey

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

    @property
    def greyscale(self) -> bool:
        """Colours print as their greys (``--greyscale``): a feature told apart by its hue needs a pattern."""
        return self._grey

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
            from ...rules.kit import setup as _setup

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


def _inches(points: float) -> str:
    """``17in``, ``6.35in``: inches to two decimals at most, for notes printed on the map."""
    return f"{points / INCH:.2f}".rstrip("0").rstrip(".") + "in"


# ====================================================================================================== pages
def _paper_name(options: Any) -> str:
    return str(getattr(options, "paper", "letter") or "letter")


def _whole(options: Any) -> bool:
    """Each sheet printed whole at its own size, never tiled (``--no-tile``: the print-shop preset)."""
    return not getattr(options, "tile", True)
