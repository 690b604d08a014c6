"""Map tiling: which part of a large sheet goes on which page of smaller paper.  Pure data, no drawing.

A sheet too large for the paper is cut into a grid of equal tiles.  Neighbouring tiles share an overlap strip
(``overlap`` wide, 0.5 in by default) so they can be glued; every tile fits the paper's printable area (the
paper less ``margin`` on each side, 0.4 in by default) and is printed at true scale, never scaled.  Tiles are
numbered in reading order, "tile 1" top-left, and printed as "tile 2 of 6": a name like ``A1`` or ``0101`` would
read as a hex.  The paper is turned (portrait or landscape) whichever way needs fewer tiles.

All lengths are points; rectangles are in sheet coordinates with y pointing down from the sheet's top-left.

>>> p = plan(17 * 72, 11 * 72, 8.5 * 72, 11 * 72)
>>> p.rows, p.columns, p.landscape, [t.name for t in p.tiles]
(2, 2, True, ['1', '2', '3', '4'])
>>> p.tile("2").source
Rect(x=594.0, y=0.0, w=630.0, h=414.0)
>>> p.tile("1").describe(p)
'tile 1 of 4 — row 1 of 2, column 1 of 2'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from .impose import Rect

__all__ = [
    "DEFAULT_MARGIN",
    "DEFAULT_OVERLAP",
    "PRINTABLE_MARGIN",
    "TRIM_SAFE_MARGIN",
    "Rect",
    "Strip",
    "Tile",
    "TilePlan",
    "fits",
    "plan",
]

DEFAULT_MARGIN = 0.4 * 72
"""Border around a tile's trim on every side of the paper (0.4 in): the crop marks, header and footer go there,
outside the printer margin (``PRINTABLE_MARGIN``)."""
DEFAULT_OVERLAP = 0.5 * 72
"""Width of the strip two neighbouring tiles both print, to glue one under the other (0.5 in)."""
PRINTABLE_MARGIN = 5 / 25.4 * 72
"""The printer margin every layout assumes: nothing but a map's own artwork is printed within 5 mm of a paper
edge (home inkjets and lasers print to 3-5 mm of it).  A tile's trim stands ``DEFAULT_MARGIN`` in, so its crop
marks, header and footer fit between."""
TRIM_SAFE_MARGIN = 0.125 * 72
"""The safe zone of a page a print shop trims (a page finished with a bleed: ``--print-marks``): nothing but
artwork within 1/8 in (3.175 mm) of the trim.  Services ask for 1/8 in (DriveThruCards, The Game Crafter) or
3 mm (European printers); 1/8 in meets both.  Such a page is printed on larger stock and cut, so the printer
margin of a home printer (``PRINTABLE_MARGIN``) does not apply to it; what a cut that drifts can spoil does.
The safe zone is the cut's tolerance inside the trim, not the bleed outside it: it stays 1/8 in whatever page
bleed ``--page-bleed`` sets (the 3 mm default or the 1/8 in of North American services)."""

_EPS = 1e-6

Side = Literal["left", "right", "top", "bottom"]


@dataclass(frozen=True)
class Strip:
    """An overlap strip of a tile: the part of the sheet it shares with the neighbour on ``side``."""

    side: Side
    neighbour: str
    """Name (number) of the neighbouring tile (``"2"``)."""
    rect: Rect
    """The shared part, in sheet coordinates."""


@dataclass(frozen=True)
class Tile:
    """One page of a tiled sheet."""

    name: str
    """The tile's number in reading order, from ``"1"`` top-left: never mistaken for a hex label."""
    row: int
    """0-based row."""
    column: int
    """0-based column (1 = 0)."""
    source: Rect
    """The part of the sheet printed on this page, in sheet coordinates; its edges are the trim lines."""
    strips: tuple[Strip, ...]
    """Overlap strips shared with the neighbours, in the order left, right, top, bottom."""

    def describe(self, plan: TilePlan) -> str:
        """The tile index printed on the page: ``tile 2 of 4 — row 1 of 2, column 2 of 2``."""
        return (
            f"tile {self.name} of {len(plan.tiles)} — row {self.row + 1} of {plan.rows}, "
            f"column {self.column + 1} of {plan.columns}"
        )


@dataclass(frozen=True)
class TilePlan:
    """How a sheet is cut into tiles on paper of one size and orientation."""

    sheet_w: float
    sheet_h: float
    paper_w: float
    """Width of the paper as the tiles are printed on it (after choosing the orientation)."""
    paper_h: float
    landscape: bool
    """True when the paper is turned so that it is wider than tall."""
    rows: int
    columns: int
    margin: float
    overlap: float
    tiles: tuple[Tile, ...]
    """Row by row from the top, each row left to right."""

    def tile(self, name: str) -> Tile:
        for t in self.tiles:
            if t.name == name:
                return t
        raise KeyError(f"no tile {name!r} in a {self.rows}x{self.columns} plan")

    def placement(self, tile: Tile) -> tuple[float, float]:
        """Top-left corner (y down) of ``tile``'s source rectangle on its page: centred on the paper, so the
        margins around it are equal and at least ``margin``."""
        return (self.paper_w - tile.source.w) / 2, (self.paper_h - tile.source.h) / 2


def fits(sheet_w: float, sheet_h: float, paper_w: float, paper_h: float) -> bool:
    """True when the whole sheet fits on one sheet of the paper, turned either way (a 17x11 in map on 11x17 in
    tabloid does).  The printer's unprintable margin is not counted: a sheet the size of the paper prints as
    one page, as the game's own map does on paper that size.

    >>> fits(17 * 72, 11 * 72, 11 * 72, 17 * 72), fits(17 * 72, 11 * 72, 8.5 * 72, 11 * 72)
    (True, False)
    """
    return (sheet_w <= paper_w + _EPS and sheet_h <= paper_h + _EPS) or (
        sheet_w <= paper_h + _EPS and sheet_h <= paper_w + _EPS
    )


def _count(length: float, printable: float, overlap: float) -> int:
    """Fewest tiles of at most ``printable`` that cover ``length`` with ``overlap`` between neighbours."""
    if length <= printable + _EPS:
        return 1
    return max(1, math.ceil((length - overlap) / (printable - overlap) - 1e-9))


def _spans(length: float, n: int, overlap: float) -> list[tuple[float, float]]:
    """``n`` equal spans covering ``[0, length]``, neighbours overlapping by exactly ``overlap``."""
    if n == 1:
        return [(0.0, length)]
    size = (length + (n - 1) * overlap) / n
    step = size - overlap
    return [(i * step, size) for i in range(n)]


def _plan(sheet_w: float, sheet_h: float, paper_w: float, paper_h: float, margin: float, overlap: float) -> TilePlan:
    pw, ph = paper_w - 2 * margin, paper_h - 2 * margin
    if pw <= overlap + _EPS or ph <= overlap + _EPS:
        raise ValueError(
            f"paper {paper_w:g}x{paper_h:g} pt leaves no room for tiles with a {margin:g} pt margin and a "
            f"{overlap:g} pt overlap"
        )
    columns, rows = _count(sheet_w, pw, overlap), _count(sheet_h, ph, overlap)
    xs, ys = _spans(sheet_w, columns, overlap), _spans(sheet_h, rows, overlap)
    tiles = []
    for r, (y, h) in enumerate(ys):
        for c, (x, w) in enumerate(xs):
            src = Rect(x, y, w, h)
            strips: list[Strip] = []
            for side, dr, dc in (("left", 0, -1), ("right", 0, 1), ("top", -1, 0), ("bottom", 1, 0)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < columns:
                    other = Rect(xs[cc][0], ys[rr][0], xs[cc][1], ys[rr][1])
                    shared = src.intersection(other, tol=_EPS)
                    if shared is not None:
                        strips.append(Strip(side, str(rr * columns + cc + 1), shared))  # type: ignore[arg-type]
            tiles.append(Tile(str(r * columns + c + 1), r, c, src, tuple(strips)))
    return TilePlan(sheet_w, sheet_h, paper_w, paper_h, paper_w > paper_h, rows, columns, margin, overlap, tuple(tiles))


def plan(
    sheet_w: float,
    sheet_h: float,
    paper_w: float,
    paper_h: float,
    *,
    margin: float = DEFAULT_MARGIN,
    overlap: float = DEFAULT_OVERLAP,
) -> TilePlan:
    """Cut a ``sheet_w`` x ``sheet_h`` sheet into tiles on ``paper_w`` x ``paper_h`` paper (points).

    Both orientations of the paper are tried and the one needing fewer tiles wins; on a tie, the paper is
    turned the way the sheet is (landscape for a wide sheet).  Tiles in a row (column) all have the same
    size, spread evenly so that neighbours overlap by exactly ``overlap``.
    """
    for name, value in (("sheet_w", sheet_w), ("sheet_h", sheet_h), ("paper_w", paper_w), ("paper_h", paper_h)):
        if not (math.isfinite(value) and value > 0):
            raise ValueError(f"{name} must be a positive length in points, not {value!r}")
    if not (math.isfinite(margin) and margin >= 0 and math.isfinite(overlap) and overlap >= 0):
        raise ValueError(f"margin and overlap must be lengths >= 0, not {margin!r} and {overlap!r}")
    short, long_ = min(paper_w, paper_h), max(paper_w, paper_h)
    candidates = []
    for w, h in ((short, long_), (long_, short)):
        try:
            candidates.append(_plan(sheet_w, sheet_h, w, h, margin, overlap))
        except ValueError:
            continue
    if not candidates:
        raise ValueError(f"paper {paper_w:g}x{paper_h:g} pt is too small for a {margin:g} pt margin")
    wide_sheet = sheet_w > sheet_h
    return min(candidates, key=lambda p: (len(p.tiles), p.landscape != wide_sheet))
