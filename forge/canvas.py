"""A small drawing surface in points, y down, with two backends: PDF (reportlab) and SVG (svgwrite).

Renderers that draw through :class:`Canvas` draw the same picture into a PDF page and into an SVG file (and from
there, with cairosvg, into a PNG).  The coordinate system is the one :mod:`forge.hexgrid` and :mod:`forge.impose`
use: origin at the top-left, x to the right, y *down*, lengths in points; :meth:`Canvas.rotate` turns clockwise as
seen on the page.

Style is given per call, never left behind as state: ``fill`` and ``stroke`` are ``#rrggbb`` colours or None
(don't paint); ``width`` is the stroke width in points; ``dash`` an on/off pattern in points; ``cap`` and ``join``
the line ends and corners (butt and mitre unless asked).  Only transforms and clips live in the save/restore state.

Both backends share one front (:class:`Canvas`): it checks the style, skips what paints nothing and records what is
placed (below), then hands the shape to the backend's few primitives (``_rect``, ``_ellipse``, ``_lines``,
``_path``, ``_text``, ``_pattern``).

**Recording.**  A canvas made with a :class:`Recorder` notes every text and every symbol it places, with its box
in page coordinates (after transforms and clips) and the frame it was placed in: a counter face, a tile's
printable area, a hex, a badge.  :mod:`forge.layout` checks the record (text inside its frame, no text over other
text or a symbol, marks clear of content, nothing in the printer margin).  Without a recorder (the default)
:meth:`Canvas.frame` is a no-op and nothing is computed.

>>> svg = SvgCanvas(20, 10)
>>> svg.rect(0, 0, 20, 10, fill="#ff0000")
>>> svg.text(10, 8, "29", size=6, anchor="middle")
>>> b'<rect fill="#ff0000" height="10" stroke="none" width="20" x="0" y="0" />' in svg.tobytes()
True
"""

from __future__ import annotations

import contextvars
import functools
import io
import math
import re
import struct
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field, fields
from typing import Any, Literal, NamedTuple, TypeAlias

from reportlab.lib.colors import HexColor
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase.pdfmetrics import getFont
from reportlab.pdfgen.canvas import Canvas as ReportlabCanvas

from .pdf import FONT, FONT_BOLD, FONT_ITALIC, end_form_sealed, place_form, register_fonts, text_width

__all__ = [
    "SVG_FONT_FAMILY",
    "Anchor",
    "Box",
    "Canvas",
    "Cap",
    "Colour",
    "FrameKind",
    "Join",
    "Path",
    "PdfCanvas",
    "Placed",
    "Point",
    "Recorder",
    "SvgCanvas",
    "ink_extent",
    "paints",
    "text_only",
]

Colour: TypeAlias = str | None
"""``#rrggbb``, or None for "don't paint"."""
Point: TypeAlias = tuple[float, float]
Anchor = Literal["start", "middle", "end"]
"""Where ``(x, y)`` sits on a text's baseline: its start, its middle or its end."""
Cap = Literal["butt", "round", "square"]
Join = Literal["miter", "round", "bevel"]
FrameKind = Literal["container", "symbol", "mark"]
"""What :meth:`Canvas.frame` declares: an area text must stay inside (a counter face, a hex, a chart cell), a
symbol (text drawn inside it is *on* it, by design; other text must keep off it), or a printer's mark (crop or
registration: it must cover nothing)."""

SVG_FONT_FAMILY = "'DejaVu Sans', 'Bitstream Vera Sans', sans-serif"
"""The PDF embeds DejaVu Sans (forge/fonts/); Bitstream Vera, its ancestor, has the same Latin metrics, so fitted
text still fits where only Vera is installed.  SVG names the family: the viewer's own copy draws it."""
_SVG_FONTS: dict[str, tuple[str | None, str | None]] = {
    FONT: (None, None),
    FONT_BOLD: ("bold", None),
    FONT_ITALIC: (None, "italic"),
}
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
_CAPS: dict[str, int] = {"butt": 0, "round": 1, "square": 2}
_JOINS: dict[str, int] = {"miter": 0, "round": 1, "bevel": 2}


def _hex(colour: str) -> str:
    if not _HEX.match(colour):
        raise ValueError(f"{colour!r} is not a colour (expected #rrggbb or None)")
    return colour.lower()


def _font(font: str) -> str:
    if font not in _SVG_FONTS:
        raise ValueError(f"unknown font {font!r} (expected one of {', '.join(_SVG_FONTS)})")
    return font


class Path:
    """An outline built from moves, straight lines and cubic Béziers, drawn by :meth:`Canvas.path`.

    >>> Path().move_to(0, 0).line_to(10, 0).curve_to(12, 0, 12, 5, 10, 5).close().svg_d()
    'M 0 0 L 10 0 C 12 0 12 5 10 5 Z'
    """

    def __init__(self) -> None:
        self.ops: list[tuple[str, tuple[float, ...]]] = []

    def move_to(self, x: float, y: float) -> Path:
        self.ops.append(("M", (x, y)))
        return self

    def line_to(self, x: float, y: float) -> Path:
        self.ops.append(("L", (x, y)))
        return self

    def curve_to(self, x1: float, y1: float, x2: float, y2: float, x: float, y: float) -> Path:
        """A cubic Bézier to ``(x, y)`` with control points ``(x1, y1)`` and ``(x2, y2)``."""
        self.ops.append(("C", (x1, y1, x2, y2, x, y)))
        return self

    def close(self) -> Path:
        self.ops.append(("Z", ()))
        return self

    def svg_d(self) -> str:
        return " ".join(" ".join([op, *map(_num, args)]) for op, args in self.ops)


# ================================================================================================== recording
@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle in page coordinates (points, y down): ``x0 <= x1``, ``y0 <= y1``."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def w(self) -> float:
        return self.x1 - self.x0

    @property
    def h(self) -> float:
        return self.y1 - self.y0

    def cut(self, other: Box | None) -> Box | None:
        """The part of this box inside ``other`` (all of it when ``other`` is None); None when nothing is."""
        if other is None:
            return self
        x0, y0 = max(self.x0, other.x0), max(self.y0, other.y0)
        x1, y1 = min(self.x1, other.x1), min(self.y1, other.y1)
        return Box(x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None

    def overlap(self, other: Box) -> float:
        """How far the two boxes overlap: the smaller of the overlap's width and height (<= 0: they don't)."""
        return min(min(self.x1, other.x1) - max(self.x0, other.x0), min(self.y1, other.y1) - max(self.y0, other.y0))

    def inside(self, other: Box, eps: float = 0.05) -> bool:
        return (
            self.x0 >= other.x0 - eps
            and self.y0 >= other.y0 - eps
            and self.x1 <= other.x1 + eps
            and self.y1 <= other.y1 + eps
        )

    def __str__(self) -> str:
        return f"({self.x0:.1f}, {self.y0:.1f})-({self.x1:.1f}, {self.y1:.1f}) pt"


@dataclass(frozen=True)
class Placed:
    """One thing a recording canvas placed: a text, a symbol, a mark or a container, on page ``page``."""

    kind: Literal["text", "container", "symbol", "mark"]
    box: Box
    """Where it is on the page (the visible part, when a clip cuts it)."""
    label: str
    """The text itself, or what the frame is (``counter 1 front``, ``hex 0304``, ``registration mark``)."""
    page: int
    parent: int | None
    """Index (in :attr:`Recorder.items`) of the innermost frame it was placed in, None for the page itself."""
    cover: bool = False
    """A frame that lies over the content below it on purpose (a label patch on an overlap strip, whose content
    the neighbouring tile prints in full): what is placed in it may overlap what was placed before, outside it."""
    clipped: bool = False
    """A clip cut part of it away (map content at a tile's trim line)."""


@dataclass
class _Page:
    width: float
    height: float
    name: str
    printable: Box | None
    """Where anything may be printed (the paper less the printer margin); None: no margin rule (artwork of a
    page that is trimmed, or an image)."""


class _Surface(NamedTuple):
    height: float
    items: list[Placed]
    page: int


_FORM_CELL = 72.0
"""Side, in points, of the cells :meth:`Recorder.use_form` sorts a form's records into."""


@dataclass
class Recorder:
    """What a recording canvas placed, page by page.  The renderer says when a page starts (:meth:`page`); forms
    (:meth:`Canvas.begin_form`) are recorded once and placed again, transformed and clipped, wherever used.

    With a ``sink``, each page's records are handed to it when the page is done (the next :meth:`page`, or
    :meth:`close`, which the caller must call after the last page) and then dropped: :attr:`items` holds the
    current page's records only, and a record's ``parent`` indexes them.  A map tiled in hundreds of pages, each
    placing thousands of the sheet's records, is then held one tile at a time (issue 25, item 31)."""

    component: str = ""
    sink: Callable[[Recorder], None] | None = None
    items: list[Placed] = field(default_factory=list)
    pages: list[_Page] = field(default_factory=list)
    forms: dict[str, list[Placed]] = field(default_factory=dict)
    _grids: dict[str, dict[tuple[int, int], list[int]]] = field(default_factory=dict)
    """Per form, its records by cell of :data:`_FORM_CELL` points (built when a form is first placed clipped)."""
    _stack: list[_Surface] = field(default_factory=list)
    _frames: list[int] = field(default_factory=list)
    _page_frames: list[list[int]] = field(default_factory=list)

    def page(self, width: float, height: float, name: str = "", *, margin: float | None = None) -> None:
        """A new page ``width`` x ``height`` starts; ``margin`` is the printer margin nothing may be printed in
        (None: none checked)."""
        printable = None if margin is None else Box(margin, margin, width - margin, height - margin)
        self._flush()
        self.pages.append(_Page(width, height, name or f"page {len(self.pages) + 1}", printable))
        self._frames = []

    def take(self, other: Recorder) -> None:
        """Hold what ``other`` recorded instead of what this one did (a renderer that lays a component out more than
        one way, each on its own recorder, keeps the way it prints).  Neither may have a ``sink``."""
        if self.sink is not None or other.sink is not None:
            raise ValueError("a streaming recorder (with a sink) cannot take another's records")
        for f in fields(self):
            if f.name not in ("component", "sink"):
                setattr(self, f.name, getattr(other, f.name))

    def close(self) -> None:
        """With a ``sink``: hand it the last page's records, and drop the forms' (nothing is placed after)."""
        if self.sink is not None:
            self._flush()
            self.forms.clear()
            self._grids.clear()

    def _flush(self) -> None:
        if self.sink is not None and self.items:
            self.sink(self)
            self.items = []

    # -- used by the canvases
    @property
    def _target(self) -> _Surface:
        if self._stack:
            return self._stack[-1]
        if not self.pages:
            self.page(0.0, 0.0, "page 1")
        p = self.pages[-1]
        return _Surface(p.height, self.items, len(self.pages) - 1)

    @property
    def surface_height(self) -> float:
        """Height of the page (or form) being drawn; 0 before the first page."""
        if self._stack:
            return self._stack[-1].height
        return self.pages[-1].height if self.pages else 0.0

    def add(
        self,
        kind: Literal["text", "container", "symbol", "mark"],
        box: Box | None,
        label: str,
        *,
        cover: bool = False,
        clipped: bool = False,
    ) -> int | None:
        """Note one thing placed on the current page (or form) in the current frame; returns its index (None when
        a clip hid all of it)."""
        if box is None:
            return None
        t = self._target
        parent = self._frames[-1] if self._frames else None
        t.items.append(Placed(kind, box, label, t.page, parent, cover, clipped))
        return len(t.items) - 1

    def begin_form(self, name: str, height: float) -> None:
        self.forms[name] = []
        self._grids.pop(name, None)
        self._stack.append(_Surface(height, self.forms[name], -1))
        self._page_frames.append(self._frames)
        self._frames = []

    def end_form(self) -> None:
        self._stack.pop()
        self._frames = self._page_frames.pop()

    def use_form(self, name: str, m: _Matrix, clip: Box | None) -> None:
        """Place the records of form ``name`` again, mapped to the page by ``m`` and cut by ``clip``.

        A map sheet drawn once as a form and placed on each of its tiles holds every hex's records: only those
        in cells the clip reaches are mapped (a tile sees a few per cent of them), by a grid of the form's
        records built once; the others would be cut away whole, and a record whose parent was cut away has none,
        as when every record was mapped."""
        items = self.forms.get(name, [])
        t = self._target
        index: dict[int, int | None] = {}
        base = self._frames[-1] if self._frames else None
        for i in self._reached(name, items, m, clip):
            it = items[i]
            box = _apply(m, it.box)
            seen = box.cut(clip)
            if seen is None:
                continue
            # A parent frame is an earlier record of the form (None when it was cut away), or outside the form.
            parent = base if it.parent is None or it.parent < 0 else index.get(it.parent)
            t.items.append(Placed(it.kind, seen, it.label, t.page, parent, it.cover, it.clipped or seen != box))
            index[i] = len(t.items) - 1

    def _reached(self, name: str, items: list[Placed], m: _Matrix, clip: Box | None) -> Iterable[int]:
        """The indices, in order, of the records of form ``name`` that may show inside ``clip`` (all of them unless
        the form is placed unrotated and clipped)."""
        a, b, c, d, e, f = m
        if clip is None or b != 0 or c != 0 or a == 0 or d == 0 or len(items) < 64:
            return range(len(items))
        # The clip in the form's own coordinates, a point wider all round (the grid only narrows the search:
        # every record it returns is still cut exactly).
        xs = sorted(((clip.x0 - e) / a, (clip.x1 - e) / a))
        ys = sorted(((clip.y0 - f) / d, (clip.y1 - f) / d))
        grid = self._grids.get(name)
        if grid is None:
            grid = self._grids[name] = defaultdict(list)
            for i, it in enumerate(items):
                bx = it.box
                for gx in range(math.floor(bx.x0 / _FORM_CELL), math.floor(bx.x1 / _FORM_CELL) + 1):
                    for gy in range(math.floor(bx.y0 / _FORM_CELL), math.floor(bx.y1 / _FORM_CELL) + 1):
                        grid[(gx, gy)].append(i)
        found: set[int] = set()
        for gx in range(math.floor((xs[0] - 1) / _FORM_CELL), math.floor((xs[1] + 1) / _FORM_CELL) + 1):
            for gy in range(math.floor((ys[0] - 1) / _FORM_CELL), math.floor((ys[1] + 1) / _FORM_CELL) + 1):
                found.update(grid.get((gx, gy), ()))
        return sorted(found)

    def push(self, i: int | None) -> None:
        self._frames.append(-1 if i is None else i)

    def pop(self) -> None:
        self._frames.pop()


class _GlyphExtents:
    """Per character code of one face: the top and bottom of its glyph's outline above the baseline, in ems (read
    from the font's ``glyf`` table when a character is first asked for; None for a character without an outline, as
    a space, or not in the face).  Read one character at a time: a run uses a few dozen of the face's 6,000, and
    reading them all took about 8 ms a face, every process."""

    def __init__(self, font: str) -> None:
        from reportlab.pdfbase import pdfmetrics

        register_fonts()
        f = pdfmetrics.getFont(font).face  # the registered face: the file is not parsed again
        self._data = f._ttf_data
        self._glyf = f.table["glyf"]["offset"]
        self._em = float(f.unitsPerEm)
        self._pos = f.glyphPos
        self._gid = f.charToGlyph
        self._known: dict[int, tuple[float, float] | None] = {}

    def get(self, code: int) -> tuple[float, float] | None:
        known = self._known
        if code in known:
            return known[code]
        gid, pos = self._gid.get(code), self._pos
        if gid is None or gid + 1 >= len(pos) or pos[gid] == pos[gid + 1]:
            e = None  # not in the face, or no outline (a space)
        else:
            at = self._glyf + pos[gid]
            _, _, y_min, _, y_max = struct.unpack(">hhhhh", self._data[at : at + 10])
            e = (y_max / self._em, y_min / self._em)
        known[code] = e
        return e


@functools.cache
def _glyph_extents(font: str) -> _GlyphExtents:
    """The outline extents of ``font``'s characters (:class:`_GlyphExtents`), one reader per face."""
    return _GlyphExtents(font)


def ink_extent(s: str, font: str, size: float) -> tuple[float, float]:
    """How far the outlines of ``s`` reach above (positive) and below (negative) the baseline, in points; (0, 0)
    for blank text.

    >>> top, bottom = ink_extent("Ag", FONT, 10)
    >>> 7 < top < 8, -3 < bottom < -2
    (True, True)
    """
    table = _glyph_extents(font)
    hi, lo = -math.inf, math.inf
    for ch in s:
        e = table.get(ord(ch))
        if e is not None:
            if e[0] > hi:
                hi = e[0]
            if e[1] < lo:
                lo = e[1]
    if hi == -math.inf:
        return 0.0, 0.0
    return hi * size, lo * size


# ==================================================================================================== protocol
class _Style(NamedTuple):
    fill: str | None
    stroke: str | None
    width: float
    dash: tuple[float, ...]
    cap: int
    join: int
    alpha: float


def _style(
    fill: Colour,
    stroke: Colour,
    width: float,
    dash: Sequence[float] | None,
    cap: str = "butt",
    join: str = "miter",
    alpha: float = 1.0,
) -> _Style | None:
    """The checked paint of one shape, or None when it paints nothing."""
    if fill is None and stroke is None:
        return None
    return _Style(
        None if fill is None else _hex(fill),
        None if stroke is None else _hex(stroke),
        float(width),
        tuple(float(d) for d in dash) if dash else (),
        _CAPS[cap],
        _JOINS[join],
        float(alpha),
    )


_Matrix: TypeAlias = tuple[float, float, float, float, float, float]
_IDENTITY: _Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _times(m: _Matrix, n: _Matrix) -> _Matrix:
    """``m`` then ``n`` applied first: the matrix of drawing in ``n``'s space inside ``m``'s."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + c * b2,
        b * a2 + d * b2,
        a * c2 + c * d2,
        b * c2 + d * d2,
        a * e2 + c * f2 + e,
        b * e2 + d * f2 + f,
    )


def _apply(m: _Matrix, box: Box) -> Box:
    a, b, c, d, e, f = m
    x0, y0, x1, y1 = box.x0, box.y0, box.x1, box.y1
    # The four corners, each coordinate computed as a general matrix computes it (the same floats, in the same
    # order, as a loop over the corners; this runs once per record of a map tile).
    p, q, r, s = a * x0 + c * y0 + e, a * x1 + c * y0 + e, a * x0 + c * y1 + e, a * x1 + c * y1 + e
    t, u, v, w = b * x0 + d * y0 + f, b * x1 + d * y0 + f, b * x0 + d * y1 + f, b * x1 + d * y1 + f
    return Box(min(p, q, r, s), min(t, u, v, w), max(p, q, r, s), max(t, u, v, w))


class Canvas:
    """What a renderer may ask of a drawing surface (points, y down, clockwise rotation): the front both backends
    (:class:`PdfCanvas`, :class:`SvgCanvas`) share, with the style checks, the save/restore stack of the
    recorder's view (transform and clip, y down, in page coordinates) and the recording itself; each backend
    supplies the primitives (the methods whose names begin with an underscore)."""

    def __init__(self, recorder: Recorder | None) -> None:
        self.recorder = recorder
        self._m: _Matrix = _IDENTITY
        """Local y-down coordinates to the surface's (page or form) y-down coordinates; kept when recording."""
        self._clip: Box | None = None
        self._states: list[tuple[_Matrix, Box | None]] = []

    # -- backend primitives
    def _save(self) -> None:
        raise NotImplementedError

    def _restore(self) -> None:
        raise NotImplementedError

    def _translate(self, dx: float, dy: float) -> None:
        raise NotImplementedError

    def _rotate(self, degrees: float) -> None:
        raise NotImplementedError

    def _scale(self, f: float) -> None:
        raise NotImplementedError

    def _clip_rect(self, x: float, y: float, w: float, h: float) -> None:
        raise NotImplementedError

    def _rect(self, x: float, y: float, w: float, h: float, r: float, st: _Style) -> None:
        raise NotImplementedError

    def _ellipse(self, cx: float, cy: float, rx: float, ry: float, st: _Style) -> None:
        raise NotImplementedError

    def _lines(self, polys: Sequence[Sequence[Point]], closed: bool, batch: bool, st: _Style) -> None:
        raise NotImplementedError

    def _path(self, path: Path, st: _Style) -> None:
        raise NotImplementedError

    def _pattern(self, polys: list[Sequence[Point]], pattern: Any, ink: str, cell: float) -> None:
        raise NotImplementedError

    def _text(self, x: float, y: float, s: str, font: str, size: float, anchor: Anchor, fill: str) -> None:
        raise NotImplementedError

    def _begin_form(self, name: str, w: float, h: float) -> None:
        raise NotImplementedError

    def _end_form(self) -> None:
        raise NotImplementedError

    def _use_form(self, name: str) -> tuple[float, float]:
        """Place the form; return its size."""
        raise NotImplementedError

    # -- state
    def save(self) -> None:
        """Push the transform and clip; :meth:`restore` pops them."""
        self._save()
        if self.recorder is not None:
            self._states.append((self._m, self._clip))

    def restore(self) -> None:
        self._restore()
        if self.recorder is not None:
            self._m, self._clip = self._states.pop()

    @contextmanager
    def saved(self) -> Iterator[None]:
        """``with canvas.saved():`` save on entry, restore on exit."""
        self.save()
        try:
            yield
        finally:
            self.restore()

    def translate(self, dx: float, dy: float) -> None:
        self._translate(dx, dy)
        if self.recorder is not None:
            self._m = _times(self._m, (1.0, 0.0, 0.0, 1.0, dx, dy))

    def rotate(self, degrees: float) -> None:
        """Turn what is drawn next clockwise (as seen on the page) about the current origin."""
        self._rotate(degrees)
        if self.recorder is not None:
            t = math.radians(degrees)
            co, si = math.cos(t), math.sin(t)
            self._m = _times(self._m, (co, si, -si, co, 0.0, 0.0))  # y down: positive turns clockwise

    def scale(self, f: float) -> None:
        """Scale what is drawn next by ``f`` about the current origin."""
        self._scale(f)
        if self.recorder is not None:
            self._m = _times(self._m, (f, 0.0, 0.0, f, 0.0, 0.0))

    def clip_rect(self, x: float, y: float, w: float, h: float) -> None:
        """Clip what is drawn next (until :meth:`restore`) to a rectangle."""
        self._clip_rect(x, y, w, h)
        if self.recorder is not None:
            box = _apply(self._m, Box(x, y, x + w, y + h))
            self._clip = box.cut(self._clip) or Box(box.x0, box.y0, box.x0, box.y0)

    # -- recording
    def _page_box(self, x0: float, y0: float, x1: float, y1: float) -> Box:
        return _apply(self._m, Box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))

    def frame(
        self, kind: FrameKind, x: float, y: float, w: float, h: float, label: str = "", *, cover: bool = False
    ) -> AbstractContextManager[None]:
        """Declare a container, symbol or mark at ``(x, y, w, h)``: what is drawn inside the ``with`` belongs to
        it.  Only a recording canvas notes it; otherwise a no-op."""
        if self.recorder is None:
            return nullcontext()
        return self._frame(self.recorder, kind, x, y, w, h, label, cover)

    @contextmanager
    def _frame(
        self, rec: Recorder, kind: FrameKind, x: float, y: float, w: float, h: float, label: str, cover: bool
    ) -> Iterator[None]:
        box = self._page_box(x, y, x + w, y + h)
        seen = box.cut(self._clip)
        i = rec.add(kind, seen, label, cover=cover, clipped=seen is not None and seen != box)
        rec.push(i)
        try:
            yield
        finally:
            rec.pop()

    def _record_text(self, rec: Recorder, x: float, y: float, s: str, font: str, size: float, anchor: Anchor) -> None:
        if not s.strip():
            return
        w = text_width(s, size, font)
        x0 = x - (w if anchor == "end" else w / 2 if anchor == "middle" else 0.0)
        top, bottom = ink_extent(s, font, size)
        box = self._page_box(x0, y - top, x0 + w, y - bottom)
        seen = box.cut(self._clip)
        rec.add("text", seen, s, clipped=seen is not None and seen != box)

    # -- shapes
    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
        join: Join = "miter",
        alpha: float = 1.0,
    ) -> None:
        """A rectangle whose top-left corner is ``(x, y)``; ``alpha`` is the fill's opacity."""
        self.rounded_rect(x, y, w, h, 0.0, fill=fill, stroke=stroke, width=width, dash=dash, join=join, alpha=alpha)

    def rounded_rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        r: float,
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
        join: Join = "miter",
        alpha: float = 1.0,
    ) -> None:
        """:meth:`rect` with corners rounded to radius ``r`` (0: square corners)."""
        st = _style(fill, stroke, width, dash, join=join, alpha=alpha)
        if st is not None:
            self._rect(x, y, w, h, r, st)

    def line(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        *,
        stroke: Colour = "#000000",
        width: float = 1.0,
        dash: Sequence[float] | None = None,
        cap: Cap = "butt",
    ) -> None:
        st = _style(None, stroke, width, dash, cap)
        if st is not None:
            self._lines([[(x1, y1), (x2, y2)]], False, False, st)

    def polyline(
        self,
        points: Sequence[Point],
        *,
        stroke: Colour = "#000000",
        width: float = 1.0,
        dash: Sequence[float] | None = None,
        cap: Cap = "butt",
        join: Join = "miter",
    ) -> None:
        """An open chain of straight lines."""
        st = _style(None, stroke, width, dash, cap, join)
        if st is not None and points:
            self._lines([points], False, False, st)

    def polygon(
        self,
        points: Sequence[Point],
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
        join: Join = "miter",
    ) -> None:
        """A closed outline."""
        st = _style(fill, stroke, width, dash, join=join)
        if st is not None and points:
            self._lines([points], True, False, st)

    def polygons(
        self,
        polys: Sequence[Sequence[Point]],
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        join: Join = "miter",
    ) -> None:
        """Several closed outlines painted as one path (a few operators for all of them: every hex of a map)."""
        st = _style(fill, stroke, width, None, join=join)
        polys = [p for p in polys if p]
        if st is not None and polys:
            self._lines(polys, True, True, st)

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        self.ellipse(cx, cy, r, r, fill=fill, stroke=stroke, width=width, dash=dash)

    def ellipse(
        self,
        cx: float,
        cy: float,
        rx: float,
        ry: float,
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        st = _style(fill, stroke, width, dash)
        if st is not None:
            self._ellipse(cx, cy, rx, ry, st)

    def path(
        self,
        path: Path,
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
        cap: Cap = "butt",
        join: Join = "miter",
    ) -> None:
        st = _style(fill, stroke, width, dash, cap, join)
        if st is not None and path.ops:
            self._path(path, st)

    def pattern(self, polys: Sequence[Sequence[Point]], pattern: Any, ink: str, cell: float) -> None:
        """A terrain fill pattern (:class:`forge.model.Pattern`) in ``ink`` inside each of ``polys``, its marks
        scaled for a cell ``cell`` points across and anchored to the origin, so that neighbouring cells join."""
        kept = [q for q in polys if len(q) >= 3]
        if kept and str(getattr(pattern, "value", pattern)) != "none":
            self._pattern(kept, pattern, _hex(ink), cell)

    def text(
        self,
        x: float,
        y: float,
        s: str,
        *,
        font: str = FONT,
        size: float,
        anchor: Anchor = "start",
        fill: Colour = "#000000",
    ) -> None:
        """``s`` on the baseline ``y``; ``anchor`` says which point of the baseline ``x`` is.  ``font`` is one of
        :data:`forge.pdf.FONT`, ``FONT_BOLD``, ``FONT_ITALIC`` (DejaVu Sans)."""
        if fill is None:
            return
        self._text(x, y, s, _font(font), size, anchor, _hex(fill))
        if self.recorder is not None:
            self._record_text(self.recorder, x, y, s, font, size, anchor)

    def text_line(
        self, x: float, y: float, runs: Sequence[tuple[float, str, str, float, str]], *, word_space: float = 0.0
    ) -> None:
        """Texts on one baseline ``y``, each ``(dx, s, font, size, fill)`` starting ``dx`` points after ``x`` where
        the one before it ends (a paragraph's line of bold, italic and coloured runs): one text object in a PDF, so
        that a reader takes the line as one, as it does reportlab's paragraphs.  ``word_space`` is added to every
        space (negative: a line drawn a little narrower than its text's width)."""
        kept = [(dx, s, _font(font), size, _hex(fill)) for dx, s, font, size, fill in runs if s]
        if not kept:
            return
        self._text_line(x, y, kept, word_space)
        if self.recorder is not None:
            for dx, s, font, size, _ in kept:
                if word_space and " " in s.strip():
                    for wx, word in _words_at(s, size, font, word_space):
                        self._record_text(self.recorder, x + dx + wx, y, word, font, size, "start")
                else:
                    self._record_text(self.recorder, x + dx, y, s, font, size, "start")

    def _text_line(
        self, x: float, y: float, runs: Sequence[tuple[float, str, str, float, str]], word_space: float
    ) -> None:
        for dx, s, font, size, fill in runs:
            if not word_space:
                self._text(x + dx, y, s, font, size, "start", fill)
                continue
            for wx, word in _words_at(s, size, font, word_space):
                self._text(x + dx + wx, y, word, font, size, "start", fill)

    # -- forms
    def begin_form(self, name: str, w: float, h: float) -> None:
        """Draw what follows (until :meth:`end_form`) once into a reusable picture ``w`` x ``h``, origin at its
        top-left, instead of onto the page."""
        self._begin_form(name, w, h)
        if self.recorder is not None:
            self._states.append((self._m, self._clip))
            self._m, self._clip = _IDENTITY, None
            self.recorder.begin_form(name, h)

    def end_form(self) -> None:
        self._end_form()
        if self.recorder is not None:
            self.recorder.end_form()
            self._m, self._clip = self._states.pop()

    def use_form(self, name: str, *, record: bool = True) -> None:
        """Place form ``name`` with its top-left at the current origin (``record=False``: a thumbnail, whose
        records are not placed again)."""
        self._use_form(name)
        if self.recorder is not None and record:
            m = self._m
            self.recorder.use_form(name, m, self._clip)


def _words_at(s: str, size: float, font: str, word_space: float) -> list[tuple[float, str]]:
    """The words of ``s`` each with its x from the start of ``s``, every space ``word_space`` wider than its glyph."""
    out: list[tuple[float, str]] = []
    x = 0.0
    for i, word in enumerate(s.split(" ")):
        if i:
            x += text_width(" ", size, font) + word_space
        if word:
            out.append((x, word))
        x += text_width(word, size, font)
    return out


# ------------------------------------------------------------------------------------------------------- PDF
@functools.lru_cache(maxsize=256)
def _text_colour(fill: str) -> Any:
    """``HexColor(fill)``, made once per colour (every hex label of a map sets its colour)."""
    return HexColor(fill)


def _text_code(
    c: ReportlabCanvas, x: float, y: float, s: str, anchor: Anchor, subset: int | None = None
) -> tuple[str, int] | None:
    """The operators reportlab's ``drawString`` (``drawCentredString``, ``drawRightString`` for ``anchor`` middle
    and end) writes for ``s`` at ``(x, y)`` in the canvas's font, formatted here without a text object: the same
    string, and the same characters registered, in the same order, with the font's subsets (``splitString``),
    and the subset it ends in.  With ``subset`` (the font subset a text object is in), the operators that continue
    that text object instead: no ``BT``, the font only when the subset changes, no ``T*``.  None when reportlab
    would take another road (a font that is not TrueType, a top-down canvas), and when the canvas outlines its text
    (``--outline-text``: its text objects draw it): draw it there.  Every hex label of a map passes here."""
    font = getFont(c._fontname)
    if not font._dynamicFont or not c.bottomup or getattr(c, "outline_text", False):
        return None
    if anchor != "start":
        width = font.stringWidth(s, c._fontsize)
        x = x - 0.5 * width if anchor == "middle" else x - width
    doc = c._doc
    tf = f"{fp_str(c._fontsize)} Tf {fp_str(c._leading)} TL"
    parts = []
    current = -1 if subset is None else subset
    for part, t in font.splitString(s, doc):
        if part != current:
            parts.append(f"{font.getSubsetInternalName(part, doc)} {tf}")
            current = part
        parts.append(f"({c._escape(t)}) Tj")
    if subset is not None:
        return f"1 0 0 1 {fp_str(x, y)} Tm {' '.join(parts)} ET", current
    return f"BT 1 0 0 1 {fp_str(x, y)} Tm {' '.join(parts)} T* ET", current


_PAINTS: contextvars.ContextVar[bool] = contextvars.ContextVar("forge_canvas_paints", default=True)


@contextmanager
def text_only() -> Iterator[None]:
    """Every :class:`PdfCanvas` made inside the block writes its text, forms, clips and transforms into the PDF
    but paints no shape (rectangles, circles, lines, paths and patterns drawn through it leave no operator):
    for ``forge verify``'s in-memory copies, which are read back for their text alone.  A recorder still notes
    every shape, as drawn (:mod:`forge.layout` checks them), and the text is drawn as ever, in the embedded font
    subsets, so the read-back still reads the real text of the page.  Outside the block every shape is painted;
    a written file is never made inside it."""
    token = _PAINTS.set(False)
    try:
        yield
    finally:
        _PAINTS.reset(token)


def paints() -> bool:
    """False inside :func:`text_only`: for what a renderer draws on the reportlab canvas itself (a sheet's cut
    lines and crop marks), which it then records and does not paint, as a PdfCanvas does."""
    return _PAINTS.get()


class PdfCanvas(Canvas):
    """Draws on a reportlab canvas, whose space is y *up*.

    ``top`` is the reportlab y of this canvas' origin: ``PdfCanvas(c, top=page_height)`` draws a whole page with
    the origin at its top-left corner; ``PdfCanvas(c)`` (top 0) puts the origin at reportlab's current origin,
    for a component the caller has already translated to its top-left corner.  Every y-down to y-up conversion
    is in :meth:`_y`, :meth:`_translate`, :meth:`_rotate` and :meth:`_scale`.

    A recording canvas starts from where the caller's reportlab transform has put its origin on the page.
    """

    def __init__(self, c: ReportlabCanvas, *, top: float = 0.0, recorder: Recorder | None = None) -> None:
        register_fonts()
        super().__init__(recorder)
        self.c = c
        self.top = top
        self._tops: list[float] = []
        self._form_names: list[str] = []
        self.seal: tuple[int, bool] = (-1, True)
        """How each form's stream is compressed when it ends (:func:`forge.pdf.end_form_sealed`'s ``level`` and
        ``ascii85``): reportlab's own settings, the same bytes as its ``endForm``; a map of a million hexes takes a
        lower level and no ASCII85."""
        self.join_text = False
        """Let a text drawn right after another in the same font, size and colour continue its text object (one
        ``BT``/``ET`` and one colour for a run of hex labels: a large map's, see :func:`_text_code`).  The page
        looks the same; its operators are not reportlab's."""
        self._run: tuple[list[str], str, str, float, str, int] | None = None
        """The text object :attr:`join_text` may continue: the operator list, its last operator (the text), the
        font, size and colour, and the font subset it ends in."""
        self.paints = _PAINTS.get()
        """False inside :func:`text_only`: shapes are recorded, not painted."""
        if recorder is not None:
            # reportlab's matrix maps its y-up user space to the surface's y-up space; ours is y down on both.
            a, b, cc, d, e, f = c._currentMatrix
            hh = recorder.surface_height
            self._m = (a, -b, -cc, d, e + cc * top, hh - f - d * top)

    def _y(self, y: float) -> float:
        return self.top - y

    def _translate(self, dx: float, dy: float) -> None:
        self.c.translate(dx, -dy)

    def _about_origin(self, op: Any) -> None:
        if self.top:
            self.c.translate(0, self.top)
        op()
        if self.top:
            self.c.translate(0, -self.top)

    def _rotate(self, degrees: float) -> None:
        self._about_origin(lambda: self.c.rotate(-degrees))  # clockwise on the page is negative in y-up space

    def _scale(self, f: float) -> None:
        self._about_origin(lambda: self.c.scale(f, f))

    def _save(self) -> None:
        self.c.saveState()

    def _restore(self) -> None:
        self.c.restoreState()

    def _clip_rect(self, x: float, y: float, w: float, h: float) -> None:
        p = self.c.beginPath()
        p.rect(x, self._y(y + h), w, h)
        self.c.clipPath(p, stroke=0, fill=0)

    def _paint(self, st: _Style) -> tuple[int, int]:
        """Set the paint of the next shape (all of it, every time: the wrapped canvas may be shared); return
        reportlab's ``stroke`` and ``fill`` flags."""
        if st.fill is not None:
            self.c.setFillColor(_text_colour(st.fill))  # made once per colour, as a text's
            if st.alpha != 1.0:  # after the colour: setting a colour resets reportlab's fill alpha
                self.c.setFillAlpha(st.alpha)
        if st.stroke is not None:
            self.c.setStrokeColor(_text_colour(st.stroke))
            self.c.setLineWidth(st.width)
            if st.dash:
                self.c.setDash(list(st.dash), 0)
            else:
                self.c.setDash()
            self.c.setLineCap(st.cap)
            self.c.setLineJoin(st.join)
        return (1 if st.stroke is not None else 0), (1 if st.fill is not None else 0)

    def _unpaint(self, st: _Style) -> None:
        if st.fill is not None and st.alpha != 1.0:
            self.c.setFillAlpha(1)

    def _rect(self, x: float, y: float, w: float, h: float, r: float, st: _Style) -> None:
        if not self.paints:
            return
        s, f = self._paint(st)
        if r > 0:
            self.c.roundRect(x, self._y(y + h), w, h, r, stroke=s, fill=f)
        else:
            self.c.rect(x, self._y(y + h), w, h, stroke=s, fill=f)
        self._unpaint(st)

    def _ellipse(self, cx: float, cy: float, rx: float, ry: float, st: _Style) -> None:
        if not self.paints:
            return
        s, f = self._paint(st)
        y = self._y(cy)
        if rx == ry:
            self.c.circle(cx, y, rx, stroke=s, fill=f)
        else:
            self.c.ellipse(cx - rx, y - ry, cx + rx, y + ry, stroke=s, fill=f)

    def _lines(self, polys: Sequence[Sequence[Point]], closed: bool, batch: bool, st: _Style) -> None:
        if not self.paints:
            return
        s, f = self._paint(st)
        if batch:  # paint in batches of bounded length (pdfium drops the rest of a huge path)
            from .render.style import PathBatch

            pb = PathBatch(self.c, stroke=bool(s), fill=bool(f))
            top = self.top  # self._y inlined: every corner of every hex of a large map passes here
            for pts in polys:
                own = getattr(pts, "pdf_polygon", None)  # a polygon that works out its own numbers (a map's hex)
                parts = own(top) if own is not None else None
                if parts is not None:
                    pb.polygon_of(*parts)
                    continue
                flat: list[float] = []
                for x, y in pts:
                    flat += (x, top - y)
                pb.polygon(flat)
            pb.flush()
            return
        p = self.c.beginPath()
        for pts in polys:
            p.moveTo(pts[0][0], self._y(pts[0][1]))
            for x, y in pts[1:]:
                p.lineTo(x, self._y(y))
            if closed:
                p.close()
        self.c.drawPath(p, stroke=s, fill=f)

    def _path(self, path: Path, st: _Style) -> None:
        if not self.paints:
            return
        s, f = self._paint(st)
        p = self.c.beginPath()
        for op, a in path.ops:
            if op == "M":
                p.moveTo(a[0], self._y(a[1]))
            elif op == "L":
                p.lineTo(a[0], self._y(a[1]))
            elif op == "C":
                p.curveTo(a[0], self._y(a[1]), a[2], self._y(a[3]), a[4], self._y(a[5]))
            else:
                p.close()
        self.c.drawPath(p, stroke=s, fill=f)

    def _pattern(self, polys: list[Sequence[Point]], pattern: Any, ink: str, cell: float) -> None:
        if not self.paints:
            return
        from .render.style import draw_pattern

        draw_pattern(self.c, [[(x, self._y(y)) for x, y in q] for q in polys], pattern, HexColor(ink), cell)

    def _text(self, x: float, y: float, s: str, font: str, size: float, anchor: Anchor, fill: str) -> None:
        ops: list[str] = self.c._code
        run = self._run if self.join_text else None
        # Nothing drawn since the last text, in this font and colour: the text object goes on.
        if run is not None and ops and ops[-1] is run[1] and run[0] is ops and run[2:5] == (font, size, fill):
            joined = _text_code(self.c, x, self._y(y), s, anchor, run[5])
            if joined is not None:
                ops[-1] = run[1][:-3]  # without its " ET"
                ops.append(joined[0])
                self._run = (ops, joined[0], font, size, fill, joined[1])
                return
        self.c.setFillColor(_text_colour(fill))
        self.c.setFont(font, size)
        code = _text_code(self.c, x, self._y(y), s, anchor)
        if code is not None:
            self.c._code.append(code[0])
            self._run = (self.c._code, code[0], font, size, fill, code[1]) if self.join_text else None
            return
        draw = {"start": self.c.drawString, "middle": self.c.drawCentredString, "end": self.c.drawRightString}
        draw[anchor](x, self._y(y), s)

    def _text_line(
        self, x: float, y: float, runs: Sequence[tuple[float, str, str, float, str]], word_space: float
    ) -> None:
        t = self.c.beginText(x + runs[0][0], self._y(y))
        if word_space:
            t.setWordSpace(word_space)
        at = runs[0][0]
        for i, (dx, s, font, size, fill) in enumerate(runs):
            if abs(dx - at) > 1e-6:  # not where the run before it ends
                t.setTextOrigin(x + dx, self._y(y))
            t.setFillColor(_text_colour(fill))
            t.setFont(font, size)
            if i == len(runs) - 1:
                t.textLine(s)  # the line ends (T*), as a paragraph's does: a reader starts a new line after it
            else:
                t.textOut(s)
            at = dx + text_width(s, size, font) + word_space * s.count(" ")
        if word_space:
            t.setWordSpace(0)
        self.c.drawText(t)
        self._run = None

    # -- forms: reportlab form XObjects, their sizes kept on the reportlab canvas (one per document)
    def _forms(self) -> dict[str, tuple[float, float]]:
        forms: dict[str, tuple[float, float]] = self.c.__dict__.setdefault("_hexforge_forms", {})
        return forms

    def has_form(self, name: str) -> bool:
        """Whether form ``name`` is already drawn in this document (so that it can be placed again)."""
        return name in self._forms()

    def _begin_form(self, name: str, w: float, h: float) -> None:
        self._forms()[name] = (w, h)
        self._tops.append(self.top)
        self._form_names.append(name)
        self.c.beginForm(name, 0, 0, w, h)
        self.top = h

    def _end_form(self) -> None:
        # the stream compressed and encoded here, to the bytes reportlab's save() would write (forge.pdf.end_form)
        level, ascii85 = self.seal
        end_form_sealed(self.c, self._form_names.pop(), self.c.endForm, level=level, ascii85=ascii85)
        self.top = self._tops.pop()

    def _use_form(self, name: str) -> tuple[float, float]:
        w, h = self._forms()[name]
        place_form(self.c, name, [(0, self.top - h)])  # saveState, translate, doForm, restoreState: their bytes
        return w, h


# ------------------------------------------------------------------------------------------------------- SVG
def _num(v: float) -> str:
    """Fixed formatting: at most three decimals (a thousandth of a point), no trailing zeros, no ``-0``.

    >>> _num(1.0), _num(0.12349), _num(-0.0001), _num(45)
    ('1', '0.123', '0', '45')
    """
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


class _SvgMarks:
    """A stand-in for reportlab's path object, so :mod:`forge.render.style`'s pattern marks can be drawn into an
    SVG path (``d``) as they are into a PDF one."""

    def __init__(self) -> None:
        self.d: list[str] = []

    def moveTo(self, x: float, y: float) -> None:
        self.d.append(f"M {_num(x)} {_num(y)}")

    def lineTo(self, x: float, y: float) -> None:
        self.d.append(f"L {_num(x)} {_num(y)}")

    def curveTo(self, x1: float, y1: float, x2: float, y2: float, x3: float, y3: float) -> None:
        self.d.append("C " + " ".join(_num(v) for v in (x1, y1, x2, y2, x3, y3)))

    def circle(self, x: float, y: float, r: float) -> None:
        self.arc(x - r, y - r, x + r, y + r, 0, 360)
        self.d.append("Z")

    def arc(self, x1: float, y1: float, x2: float, y2: float, startAng: float = 0, extent: float = 90) -> None:
        from reportlab.pdfgen import pdfgeom

        curves = pdfgeom.bezierArc(x1, y1, x2, y2, startAng, extent)
        self.moveTo(curves[0][0], curves[0][1])
        for c in curves:
            self.curveTo(*c[2:8])

    def close(self) -> None:
        self.d.append("Z")

    def flush(self) -> None:
        pass


class SvgCanvas(Canvas):
    """Draws into an svgwrite ``Drawing`` ``width`` x ``height`` points (a viewBox in points).

    Output is deterministic: attributes sorted, numbers formatted with :func:`_num`, element ids sequential
    (``<id_prefix>clip1``, ``clip2``, ...) and no dates.  Text is real text in :data:`SVG_FONT_FAMILY`.
    Transforms become nested groups; :meth:`save` / :meth:`restore` open and close them.
    """

    def __init__(self, width: float, height: float, *, id_prefix: str = "", recorder: Recorder | None = None) -> None:
        super().__init__(recorder)
        self.width, self.height = width, height
        import svgwrite  # only SVG output needs it: keep PDF builds' start-up light

        self.dwg = svgwrite.Drawing(
            size=(f"{_num(width)}pt", f"{_num(height)}pt"),
            viewBox=f"0 0 {_num(width)} {_num(height)}",
            debug=False,
        )
        self._prefix = id_prefix
        self._ids = 0
        self._groups: list[object] = [self.dwg]
        self._frames: list[int] = [0]
        """Per save: how many groups it opened (popped again on restore)."""
        self._fresh: object | None = None
        """The transform group opened last, while still empty: a further transform joins its attribute."""
        self._form_stack: list[tuple[list[object], list[int]]] = []
        self._form_ids: dict[str, tuple[str, float, float]] = {}
        self._patterns: dict[tuple[str, str, float], str] = {}

    def _next_id(self, kind: str) -> str:
        self._ids += 1
        return f"{self._prefix}{kind}{self._ids}"

    def _open(self, **attrs: str) -> object:
        g = self.dwg.g(**attrs)
        self._add(g)
        self._groups.append(g)
        self._frames[-1] += 1
        return g

    def _add(self, element: object) -> None:
        self._groups[-1].add(element)  # type: ignore[attr-defined]
        self._fresh = None

    # -- state
    def _save(self) -> None:
        self._frames.append(0)
        self._fresh = None

    def _restore(self) -> None:
        if len(self._frames) == 1:
            raise RuntimeError("restore() without save()")
        for _ in range(self._frames.pop()):
            self._groups.pop()
        self._fresh = None

    def _transform(self, t: str) -> None:
        if self._fresh is not None:
            g = self._fresh
            g.attribs["transform"] += " " + t  # type: ignore[attr-defined]
            return
        g = self._open(transform=t)
        self._fresh = g

    def _translate(self, dx: float, dy: float) -> None:
        self._transform(f"translate({_num(dx)} {_num(dy)})")

    def _rotate(self, degrees: float) -> None:
        self._transform(f"rotate({_num(degrees)})")  # SVG's y-down rotation is already clockwise

    def _scale(self, f: float) -> None:
        self._transform(f"scale({_num(f)})")

    def _clip_rect(self, x: float, y: float, w: float, h: float) -> None:
        cid = self._next_id("clip")
        cp = self.dwg.defs.add(self.dwg.clipPath(id=cid))
        cp.add(self.dwg.rect(insert=(_num(x), _num(y)), size=(_num(w), _num(h))))
        self._open(clip_path=f"url(#{cid})")

    # -- shapes
    @staticmethod
    def _attrs(st: _Style) -> dict[str, str]:
        a = {"fill": "none" if st.fill is None else st.fill, "stroke": "none" if st.stroke is None else st.stroke}
        if st.fill is not None and st.alpha != 1.0:
            a["fill_opacity"] = _num(st.alpha)
        if st.stroke is not None:
            a["stroke_width"] = _num(st.width)
            if st.dash:
                a["stroke_dasharray"] = ",".join(_num(d) for d in st.dash)
            if st.cap:
                a["stroke_linecap"] = ("butt", "round", "square")[st.cap]
            if st.join:
                a["stroke_linejoin"] = ("miter", "round", "bevel")[st.join]
        return a

    def _rect(self, x: float, y: float, w: float, h: float, r: float, st: _Style) -> None:
        a = self._attrs(st)
        if r > 0:
            a["rx"] = a["ry"] = _num(r)
        self._add(self.dwg.rect(insert=(_num(x), _num(y)), size=(_num(w), _num(h)), **a))

    def _ellipse(self, cx: float, cy: float, rx: float, ry: float, st: _Style) -> None:
        a = self._attrs(st)
        if rx == ry:
            self._add(self.dwg.circle(center=(_num(cx), _num(cy)), r=_num(rx), **a))
        else:
            self._add(self.dwg.ellipse(center=(_num(cx), _num(cy)), r=(_num(rx), _num(ry)), **a))

    @staticmethod
    def _pts(points: Sequence[Point]) -> list[tuple[str, str]]:
        return [(_num(x), _num(y)) for x, y in points]

    def _lines(self, polys: Sequence[Sequence[Point]], closed: bool, batch: bool, st: _Style) -> None:
        a = self._attrs(st)
        if len(polys) > 1 or batch:
            d = []
            for pts in polys:
                d.append("M " + " L ".join(f"{_num(x)} {_num(y)}" for x, y in pts) + (" Z" if closed else ""))
            self._add(self.dwg.path(d=" ".join(d), **a))
        elif closed:
            self._add(self.dwg.polygon(points=self._pts(polys[0]), **a))
        elif len(polys[0]) == 2:
            del a["fill"]
            (x1, y1), (x2, y2) = polys[0]
            self._add(self.dwg.line(start=(_num(x1), _num(y1)), end=(_num(x2), _num(y2)), **a))
        else:
            self._add(self.dwg.polyline(points=self._pts(polys[0]), **a))

    def _path(self, path: Path, st: _Style) -> None:
        self._add(self.dwg.path(d=path.svg_d(), **self._attrs(st)))

    def _pattern(self, polys: list[Sequence[Point]], pattern: Any, ink: str, cell: float) -> None:
        from .model import Pattern
        from .render.style import _PATTERNS

        p = Pattern(pattern)
        s = max(cell, 4.0)
        key = (p.value, ink, round(s, 4))
        if key not in self._patterns:
            draw, width, period = _PATTERNS[p]
            px, py = period(s)
            tw, th = max(1, math.ceil(s / px)) * px, max(1, math.ceil(s / py)) * py
            pid = self._next_id("pattern")
            # The PDF draws the marks y up from the origin; the same marks, flipped, look the same in SVG.
            pat = self.dwg.pattern(
                id=pid, patternUnits="userSpaceOnUse", size=(_num(tw), _num(th)), patternTransform="scale(1 -1)"
            )
            strokes, fills = _SvgMarks(), _SvgMarks()
            draw(strokes, fills, [(0.0, 0.0, tw, th)], s, (tw, th))  # type: ignore[arg-type]
            if strokes.d:
                pat.add(self.dwg.path(d=" ".join(strokes.d), fill="none", stroke=ink, stroke_width=_num(width(s)),
                                      stroke_linecap="round", stroke_linejoin="round"))  # fmt: skip
            if fills.d:
                pat.add(self.dwg.path(d=" ".join(fills.d), fill=ink, stroke="none"))
            self.dwg.defs.add(pat)
            self._patterns[key] = pid
        d = " ".join("M " + " L ".join(f"{_num(x)} {_num(y)}" for x, y in q) + " Z" for q in polys)
        self._add(self.dwg.path(d=d, fill=f"url(#{self._patterns[key]})", stroke="none"))

    def _text(self, x: float, y: float, s: str, font: str, size: float, anchor: Anchor, fill: str) -> None:
        weight, style = _SVG_FONTS[font]
        a = {"font_family": SVG_FONT_FAMILY, "font_size": _num(size), "fill": fill}
        if anchor != "start":
            a["text_anchor"] = anchor
        if weight:
            a["font_weight"] = weight
        if style:
            a["font_style"] = style
        self._add(self.dwg.text(s, insert=(_num(x), _num(y)), **a))

    # -- forms: groups in <defs>, placed with <use>
    def _begin_form(self, name: str, w: float, h: float) -> None:
        fid = f"{self._prefix}form-{name}"
        g = self.dwg.g(id=fid)
        self.dwg.defs.add(g)
        self._form_ids[name] = (fid, w, h)
        self._form_stack.append((self._groups, self._frames))
        self._groups, self._frames = [g], [0]
        self._fresh = None

    def _end_form(self) -> None:
        self._groups, self._frames = self._form_stack.pop()
        self._fresh = None

    def _use_form(self, name: str) -> tuple[float, float]:
        fid, w, h = self._form_ids[name]
        self._add(self.dwg.use(f"#{fid}"))
        return w, h

    # -- output
    def tobytes(self) -> bytes:
        """The finished SVG document (UTF-8, with its XML declaration)."""
        buf = io.StringIO()
        self.dwg.write(buf, pretty=False)
        return buf.getvalue().encode("utf-8")
