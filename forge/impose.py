"""Pure placement of printed pieces (no drawing): counter sheets, duplex backs, cut lines and crop marks.

Every coordinate is in points, **y-down**, with the origin at the top-left corner of the page as the printer
sees it (the same convention as :mod:`forge.hexgrid`).  Renderers convert to reportlab's y-up space in one
place.

Duplex model.  A sheet is printed on both sides; the back page is the PDF page after the front.  When the
paper is turned over along its **long** edge (portrait paper: around the vertical axis), a point ``(x, y)`` of
the back page lies behind the front point ``(W - x, y)``; turned over along its **short** edge (around the
horizontal axis), it lies behind ``(x, H - y)``.  Counter grids are centred on the page, so the mirror of a
slot is again a slot.

>>> lay = counter_sheet(612, 792, 45, margin=36)
>>> lay.columns, lay.rows, lay.pitch
(12, 16, 45.0)
>>> back_position(Slot(0, 0), lay, flip="long"), back_position(Slot(0, 0), lay, flip="short")
(Slot(col=11, row=0), Slot(col=0, row=15))
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

Flip = Literal["long", "short"]
FLIPS: tuple[Flip, ...] = ("long", "short")
T = TypeVar("T")

_EPS = 1e-9


@dataclass(frozen=True, order=True)
class Slot:
    """A place on a counter sheet: column from the left, row from the top (0-based)."""

    col: int
    row: int


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle, y-down: ``(x, y)`` is its top-left corner."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)

    def expanded(self, d: float) -> Rect:
        return Rect(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)

    def shifted(self, dx: float, dy: float) -> Rect:
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    def contains(self, other: Rect, tol: float = 1e-6) -> bool:
        return (
            other.x >= self.x - tol
            and other.y >= self.y - tol
            and other.right <= self.right + tol
            and other.bottom <= self.bottom + tol
        )

    def intersection(self, other: Rect, tol: float = 1e-9) -> Rect | None:
        """The common part of two rectangles, None when they do not overlap with a positive area."""
        x0, y0 = max(self.x, other.x), max(self.y, other.y)
        x1, y1 = min(self.right, other.right), min(self.bottom, other.bottom)
        if x1 - x0 <= tol or y1 - y0 <= tol:
            return None
        return Rect(x0, y0, x1 - x0, y1 - y0)

    def overlaps(self, other: Rect, tol: float = 1e-6) -> bool:
        """True when the interiors intersect (touching edges do not overlap)."""
        return (
            self.x < other.right - tol
            and other.x < self.right - tol
            and self.y < other.bottom - tol
            and other.y < self.bottom - tol
        )


Point = tuple[float, float]
Segment = tuple[Point, Point]


@dataclass(frozen=True)
class SheetLayout:
    """Where counters go on one side of a sheet of paper."""

    paper_w: float
    paper_h: float
    counter: float
    """Edge of one counter at its trim line."""
    margin_x: float
    """Nothing is printed closer than this to the left and right paper edges (bleed included)."""
    margin_y: float
    """Nothing is printed closer than this to the top and bottom paper edges (bleed included)."""
    gutter: float
    """Space between neighbouring counters' trim lines (0: they butt together and one cut separates them)."""
    bleed: float
    """Colour printed past each trim line (0: none)."""
    columns: int
    rows: int
    origin: Point
    """Top-left corner of slot (0, 0)'s trim box."""

    @property
    def pitch(self) -> float:
        """Distance between the same edge of neighbouring counters."""
        return self.counter + self.gutter

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    def slots(self) -> list[Slot]:
        """Every slot, row by row from the top, each row left to right: the order :func:`place` fills."""
        return [Slot(c, r) for r in range(self.rows) for c in range(self.columns)]

    def trim(self, slot: Slot) -> Rect:
        """The counter's trim box (its cut outline)."""
        ox, oy = self.origin
        return Rect(ox + slot.col * self.pitch, oy + slot.row * self.pitch, self.counter, self.counter)

    def bleed_box(self, slot: Slot) -> Rect:
        """The area the counter's colour covers: the trim box grown by the bleed."""
        return self.trim(slot).expanded(self.bleed)

    def grid(self) -> Rect:
        """The trim boxes' bounding box."""
        ox, oy = self.origin
        return Rect(
            ox,
            oy,
            self.columns * self.counter + (self.columns - 1) * self.gutter,
            self.rows * self.counter + (self.rows - 1) * self.gutter,
        )

    def extent(self) -> Rect:
        """Everything the counters print on (bleed included)."""
        return self.grid().expanded(self.bleed)

    def printable(self) -> Rect:
        """The area inside the margins."""
        return Rect(
            self.margin_x, self.margin_y, self.paper_w - 2 * self.margin_x, self.paper_h - 2 * self.margin_y
        )


def _fit(avail: float, counter: float, gutter: float, bleed: float) -> int:
    # n counters take n*counter + (n-1)*gutter + 2*bleed.
    return math.floor((avail - 2 * bleed + gutter) / (counter + gutter) + _EPS)


def counter_sheet(
    paper_w: float,
    paper_h: float,
    counter: float,
    *,
    margin: float | tuple[float, float],
    gutter: float = 0.0,
    bleed: float = 0.0,
) -> SheetLayout:
    """The largest centred grid of ``counter``-sized squares that fits inside the margins.

    Without bleed the counters butt together (pitch == counter) so one straight cut separates two of them.
    With ``bleed > 0`` each counter's colour runs ``bleed`` past its trim line, so neighbours are kept apart
    by a gutter of at least ``2 * bleed``.  ``margin`` is one number or ``(horizontal, vertical)``.  The grid
    is centred on the page, which makes the duplex mirror of every slot a slot.

    >>> lay = counter_sheet(612, 792, 45, margin=36, bleed=9)
    >>> lay.gutter, lay.pitch, lay.columns
    (18.0, 63.0, 8)
    """
    mx, my = (margin, margin) if isinstance(margin, int | float) else margin
    if counter <= 0:
        raise ValueError(f"counter edge must be positive (got {counter})")
    if bleed < 0 or gutter < 0 or mx < 0 or my < 0:
        raise ValueError("margin, gutter and bleed cannot be negative")
    gutter = max(float(gutter), 2.0 * bleed)
    cols = _fit(paper_w - 2 * mx, counter, gutter, bleed)
    rows = _fit(paper_h - 2 * my, counter, gutter, bleed)
    if cols < 1 or rows < 1:
        raise ValueError(
            f"a {counter:g}pt counter does not fit on {paper_w:g}x{paper_h:g}pt paper "
            f"inside {mx:g}/{my:g}pt margins"
        )
    grid_w = cols * counter + (cols - 1) * gutter
    grid_h = rows * counter + (rows - 1) * gutter
    origin = ((paper_w - grid_w) / 2, (paper_h - grid_h) / 2)
    return SheetLayout(
        float(paper_w),
        float(paper_h),
        float(counter),
        float(mx),
        float(my),
        gutter,
        float(bleed),
        cols,
        rows,
        origin,
    )


@dataclass(frozen=True)
class Page(Generic[T]):
    """One sheet's worth of placed items."""

    number: int
    """0-based sheet number."""
    items: tuple[tuple[Slot, T], ...]
    """``(slot, item)`` in the order the items were given."""


def place(items: Sequence[T | None], layout: SheetLayout) -> list[Page[T]]:
    """Lay ``items`` out row by row, left to right, page after page.  ``None`` keeps a slot empty (to start a
    new row, say).  Pages holding no item are dropped.  The result depends only on the order of ``items``.

    >>> lay = counter_sheet(200, 200, 50, margin=0)
    >>> [[s for s, _ in p.items] for p in place(["a", None, "b"], lay)][0]
    [Slot(col=0, row=0), Slot(col=2, row=0)]
    """
    per = layout.per_page
    order = layout.slots()
    pages: list[Page[T]] = []
    for start in range(0, len(items), per):
        chunk = items[start : start + per]
        placed = tuple((order[i], item) for i, item in enumerate(chunk) if item is not None)
        if placed:
            pages.append(Page(len(pages), placed))
    return pages


def back_position(front_slot: Slot, layout: SheetLayout, flip: Flip = "long") -> Slot:
    """The slot on the back page that lies behind ``front_slot`` once the sheet is printed double-sided.

    Long-edge flip: column ``c`` backs onto column ``cols - 1 - c`` of the same row.  Short-edge flip: row
    ``r`` backs onto row ``rows - 1 - r`` of the same column, **and the back is drawn rotated 180°** so that a
    counter turned over sideways (the way players flip counters) shows its back upright.
    """
    if flip == "long":
        return Slot(layout.columns - 1 - front_slot.col, front_slot.row)
    if flip == "short":
        return Slot(front_slot.col, layout.rows - 1 - front_slot.row)
    raise ValueError(f"flip must be 'long' or 'short' (got {flip!r})")


def back_rotation(flip: Flip) -> int:
    """Degrees a back face is turned within its slot: 0 for long-edge flip, 180 for short-edge flip."""
    return 0 if flip == "long" else 180


def back_rect(
    front_slot: Slot,
    layout: SheetLayout,
    *,
    flip: Flip = "long",
    back_offset: tuple[float, float] = (0.0, 0.0),
) -> Rect:
    """Where to draw the back of the counter in ``front_slot`` on the back page (its trim box).

    ``back_offset`` ``(dx, dy)`` is the printer's measured misregistration of back pages, in the back page's
    own coordinates (x right, y down, as seen looking at the back): the printer puts back-page content ``(dx,
    dy)`` away from where the PDF says, so it is subtracted here and the printed back lands on its front.
    """
    dx, dy = back_offset
    return layout.trim(back_position(front_slot, layout, flip)).shifted(-dx, -dy)


def flip_point(point: Point, layout: SheetLayout, flip: Flip = "long") -> Point:
    """The front-page position behind a back-page point once the paper is turned over (the physical flip)."""
    x, y = point
    if flip == "long":
        return (layout.paper_w - x, y)
    return (x, layout.paper_h - y)


def flip_rect(rect: Rect, layout: SheetLayout, flip: Flip = "long") -> Rect:
    """:func:`flip_point` for a rectangle."""
    (x1, y1), (x2, y2) = (
        flip_point((rect.x, rect.y), layout, flip),
        flip_point((rect.right, rect.bottom), layout, flip),
    )
    return Rect(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1))


def offset_on_front(back_offset: tuple[float, float], flip: Flip = "long") -> Point:
    """How a back-page misregistration ``(dx, dy)`` looks from the front, held to the light (x right, y
    down)."""
    dx, dy = back_offset
    return (-dx, dy) if flip == "long" else (dx, -dy)


def cut_lines(layout: SheetLayout, slots: Iterable[Slot]) -> list[Segment]:
    """The trim edges of ``slots``, each shared edge once, sorted: the thin guide lines of a sheet without
    bleed."""
    seen: set[tuple[float, float, float, float]] = set()
    for s in slots:
        r = layout.trim(s)
        for seg in (
            (r.x, r.y, r.right, r.y),
            (r.x, r.bottom, r.right, r.bottom),
            (r.x, r.y, r.x, r.bottom),
            (r.right, r.y, r.right, r.bottom),
        ):
            seen.add(tuple(round(v, 6) for v in seg))  # type: ignore[arg-type]
    return [((a, b), (c, d)) for a, b, c, d in sorted(seen)]


def trim_lines(layout: SheetLayout) -> tuple[list[float], list[float]]:
    """x positions of every vertical trim line and y positions of every horizontal one, sorted and
    distinct."""
    ox, oy = layout.origin
    xs = {round(ox + c * layout.pitch + e, 6) for c in range(layout.columns) for e in (0.0, layout.counter)}
    ys = {round(oy + r * layout.pitch + e, 6) for r in range(layout.rows) for e in (0.0, layout.counter)}
    return sorted(xs), sorted(ys)


def crop_marks(
    layout: SheetLayout,
    slots: Iterable[Slot] | None = None,
    *,
    length: float = 12.0,
    gap: float = 3.0,
    edge: float = 18.0,
) -> list[Segment]:
    """Short ticks outside the counters along every trim line, on all four sides of the printed block.

    The block is the bounding box of ``slots`` (all slots when None).  Each tick starts ``gap`` outside the
    block (bleed included) and runs outwards for ``length``, never nearer the paper edge than ``edge`` (the
    printer's unprintable border); ticks with no room are left out.
    """
    chosen = layout.slots() if slots is None else sorted(set(slots))
    if not chosen:
        return []
    trims = [layout.trim(s) for s in chosen]
    ext = Rect(
        min(r.x for r in trims),
        min(r.y for r in trims),
        max(r.right for r in trims) - min(r.x for r in trims),
        max(r.bottom for r in trims) - min(r.y for r in trims),
    ).expanded(layout.bleed)
    xs = sorted({round(v, 6) for r in trims for v in (r.x, r.right)})
    ys = sorted({round(v, 6) for r in trims for v in (r.y, r.bottom)})
    marks: list[Segment] = []
    top_end = max(ext.y - gap - length, edge)
    bottom_end = min(ext.bottom + gap + length, layout.paper_h - edge)
    left_end = max(ext.x - gap - length, edge)
    right_end = min(ext.right + gap + length, layout.paper_w - edge)
    xs = [x for x in xs if edge <= x <= layout.paper_w - edge]
    ys = [y for y in ys if edge <= y <= layout.paper_h - edge]
    for x in xs:
        if ext.y - gap - top_end >= 2:
            marks.append(((x, ext.y - gap), (x, top_end)))
        if bottom_end - (ext.bottom + gap) >= 2:
            marks.append(((x, ext.bottom + gap), (x, bottom_end)))
    for y in ys:
        if ext.x - gap - left_end >= 2:
            marks.append(((ext.x - gap, y), (left_end, y)))
        if right_end - (ext.right + gap) >= 2:
            marks.append(((ext.right + gap, y), (right_end, y)))
    return marks
