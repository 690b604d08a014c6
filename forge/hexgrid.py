"""Map geometry for hex and square wargame maps: cells, hexsides, labels, distances and drawing coordinates.

Pure geometry -- no I/O and nothing beyond the standard library -- so the loader, the rules and every
renderer share one answer to "where is C6, and what touches it?".

Coordinates.  A map space is a :class:`Cell`: 0-based *offset* coordinates ``(col, row)`` with ``Cell(0, 0)``
the top-left space, exactly as the spaces are laid out on paper.  Hex arithmetic (distance, neighbours) is
done in *axial* coordinates ``(q, r)`` -- cube coordinates ``(q, r, -q - r)`` with the redundant third axis
dropped -- after https://www.redblobgames.com/grids/hexagons/.  A brick map (:attr:`GridKind.OFFSET_SQUARE`)
has the same topology as a pointy hex map, so it shares that arithmetic.

Labels.  What the game prints in a space ("C6", "0805", "8,5") is a *label*; :meth:`Grid.label` and
:meth:`Grid.parse` convert between labels and cells.  Letters run A..Z, then AA, BB, ..., ZZ, then AAA, ...
(the wargame convention: AA is the 27th letter, BB the 28th) -- not the spreadsheet AA, AB, AC.

Drawing.  Coordinates are in points, y pointing down, for a cell ``size`` measured flat-to-flat across a hex
(the side of a square).  The whole map's bounding box is ``(0, 0)`` to :meth:`Grid.extent`.

>>> g = Grid(GridKind.HEX, 7, 7, Orientation.POINTY, Parity.EVEN, LabelScheme.LETTER_ROW)
>>> [g.label(n) for n in g.neighbours(g.parse("C6"))]
['C5', 'B6', 'D6', 'B7', 'C7', 'D7']
>>> g.distance(g.parse("A1"), g.parse("G7"))
9
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Self

MAX_CELLS_PER_AXIS = 10_000
"""Largest number of columns or rows a grid may have: far beyond any printed map, small enough to iterate."""

_MAX_DIGITS = 18
MAX_FIRST_LETTERS = 1000
"""The largest first row or column on a lettered axis (labels of at most 77 letters on a 1,000-cell axis)."""
MAX_FIRST_NUMBER = 1_000_000
"""The largest first row or column on a numbered axis."""
"""Longest number accepted in a label: longer ones can only be typos, and ``int`` of huge strings is slow."""

_SQRT3 = math.sqrt(3.0)

# Axial steps to the six hex neighbours; the order does not matter because callers sort their results.
_HEX_STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
# Orthogonal steps of a square grid: diagonal moves are not adjacency in hex-and-counter games.
_SQUARE_STEPS = ((1, 0), (0, -1), (-1, 0), (0, 1))

# The str() form of a Cell: brackets keep it apart from the 1-based "col,row" label scheme.
_CELL_TEXT = re.compile(rf"\(\s*(-?[0-9]{{1,{_MAX_DIGITS}}})\s*,\s*(-?[0-9]{{1,{_MAX_DIGITS}}})\s*\)")


class _Choice(StrEnum):
    """Base of the option enums: a ``str`` whose ``str()`` is its value as written in YAML, with a
    valid-Python ``repr`` (the default ``<GridKind.HEX: 'hex'>`` would make dataclass reprs unevaluable)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    @classmethod
    def parse(cls, text: str) -> Self:
        """Return the member whose value is ``text`` (case and surrounding blanks ignored).

        >>> GridKind.parse(" Offset-Square ")
        GridKind.OFFSET_SQUARE
        """
        try:
            return cls(str(text).strip().lower())
        except ValueError:
            noun = re.sub(r"(?<!^)(?=[A-Z])", " ", cls.__name__).lower()
            choices = ", ".join(repr(m.value) for m in cls)
            raise ValueError(f"{text!r} is not a {noun} (expected one of {choices})") from None


class GridKind(_Choice):
    """The shape of a map's spaces."""

    HEX = "hex"
    SQUARE = "square"
    """Squares in straight rows and columns; four orthogonal neighbours."""
    OFFSET_SQUARE = "offset-square"
    """Brick layout: rows shifted by half a square, so each square touches six others (hex topology)."""


class Orientation(_Choice):
    """Which way hexes point; ignored by square grids."""

    POINTY = "pointy"
    """A corner at the top; hexes form straight rows and columns zig-zag."""
    FLAT = "flat"
    """A flat side at the top; hexes form straight columns and rows zig-zag."""


class Parity(_Choice):
    """Which rows (pointy hex, offset-square) or columns (flat hex) are shoved forward by half a cell.

    Counted on the 0-based index: pointy rows are shoved right, flat columns down.  ``EVEN`` is redblobgames'
    "even-r" (pointy) / "even-q" (flat); ``ODD`` is "odd-r" / "odd-q".  Ignored by plain square grids.
    """

    ODD = "odd"
    EVEN = "even"


class LabelScheme(_Choice):
    """How a game prints the names of its spaces."""

    LETTER_ROW = "letter-row"
    """``"C6"``: letters name the row (A = first row), the number the column (Hell's Gate)."""
    LETTER_COLUMN = "letter-column"
    """``"C6"``: letters name the column, the number the row."""
    XXYY = "xxyy"
    """``"0805"``: two-digit column then two-digit row; each part widens when its numbers need more digits."""
    COL_ROW = "col,row"
    """``"8,5"``: column number, comma, row number."""


@dataclass(frozen=True, order=True, slots=True)
class Cell:
    """One map space in 0-based offset coordinates: the identity of a space everywhere in Hexforge.

    A cell may lie off the map (negative, or beyond the last column); :meth:`Grid.contains` tells.
    Cells sort by column, then row.

    >>> Cell.parse("(7, 4)")
    Cell(col=7, row=4)
    >>> str(Cell(-1, 3))
    '(-1,3)'
    """

    col: int
    row: int

    def __post_init__(self) -> None:
        # A float or a bool would silently break hashing-based lookups and the parity arithmetic.
        for name in ("col", "row"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"Cell.{name} must be an int, not {value!r}")

    @classmethod
    def parse(cls, text: str) -> Cell:
        """Parse the ``str()`` form ``"(col,row)"`` (blanks allowed around the numbers)."""
        m = _CELL_TEXT.fullmatch(str(text).strip())
        if not m:
            raise ValueError(f"{text!r} is not a cell (expected 0-based '(col,row)', e.g. '(7,4)')")
        return cls(int(m.group(1)), int(m.group(2)))

    def __str__(self) -> str:
        return f"({self.col},{self.row})"


@dataclass(frozen=True, order=True, slots=True)
class Hexside:
    """The edge between two adjacent cells, stored canonically with ``a < b``.

    Build one with :meth:`between` (either order) or :meth:`Grid.side` (which also checks adjacency).

    >>> Hexside.between(Cell(1, 0), Cell(0, 0))
    Hexside(a=Cell(col=0, row=0), b=Cell(col=1, row=0))
    >>> str(Hexside.parse("(1,0)-(0,0)"))
    '(0,0)-(1,0)'
    """

    a: Cell
    b: Cell

    def __post_init__(self) -> None:
        if not (isinstance(self.a, Cell) and isinstance(self.b, Cell)):
            raise TypeError(f"Hexside needs two Cells, not {self.a!r} and {self.b!r}")
        # One edge must have one representation, or sets and dict keys of hexsides would hold duplicates.
        if not self.a < self.b:
            raise ValueError(f"Hexside needs a < b, got {self.a!r} and {self.b!r}; use Hexside.between()")

    @classmethod
    def between(cls, x: Cell, y: Cell) -> Hexside:
        """Return the side between ``x`` and ``y`` in either order; adjacency is not checked here."""
        if x == y:
            raise ValueError(f"a hexside needs two different cells, got {x!r} twice")
        return cls(min(x, y), max(x, y))

    @classmethod
    def parse(cls, text: str) -> Hexside:
        """Parse the ``str()`` form ``"(col,row)-(col,row)"``, the cells in either order."""
        s = str(text).strip()
        parts = re.fullmatch(r"(\(.*?\))\s*-\s*(\(.*\))", s)
        if not parts:
            raise ValueError(f"{text!r} is not a hexside (expected '(col,row)-(col,row)': '(0,0)-(1,0)')")
        try:
            return cls.between(Cell.parse(parts.group(1)), Cell.parse(parts.group(2)))
        except ValueError as e:
            raise ValueError(f"{text!r} is not a hexside: {e}") from None

    def __str__(self) -> str:
        return f"{self.a}-{self.b}"


def _letters(number: int) -> str:
    """Spell the 1-based ``number`` in wargame letters: 1 = A, 26 = Z, 27 = AA, 28 = BB, 53 = AAA.

    >>> [_letters(n) for n in (1, 26, 27, 28, 52, 53)]
    ['A', 'Z', 'AA', 'BB', 'ZZ', 'AAA']
    """
    i = number - 1
    return chr(ord("A") + i % 26) * (i // 26 + 1)


def _letters_number(letters: str) -> int | None:
    """Inverse of :func:`_letters`; None when the letters are not one letter repeated (``"AB"``)."""
    up = letters.upper()
    if not up or len(set(up)) != 1 or not ("A" <= up[0] <= "Z"):
        return None
    return (len(up) - 1) * 26 + (ord(up[0]) - ord("A")) + 1


_LETTER_LABEL = re.compile(rf"([A-Za-z]+)([0-9]{{1,{_MAX_DIGITS}}})")
_COL_ROW_LABEL = re.compile(rf"(-?[0-9]{{1,{_MAX_DIGITS}}})\s*,\s*(-?[0-9]{{1,{_MAX_DIGITS}}})")
_DIGITS = re.compile(r"[0-9]+")
_GRID_SIZE = re.compile(r"([0-9]{1,6})\s*[xX]\s*([0-9]{1,6})")
_GRID_FIRST = re.compile(r"first=([0-9]{1,9}),([0-9]{1,9})")

Point = tuple[float, float]


@dataclass(frozen=True)
class Grid:
    """The layout of one map: kind, size, orientation, parity and label scheme.

    ``first_column`` / ``first_row`` are added to the 0-based index to get the printed number (1 by default).
    On a letter axis they shift the letters the same way: 1 makes the first row A, 2 makes it B.

    ``orientation`` matters only for hexes and ``parity`` only for hexes and offset squares; the other kinds
    ignore them (kept, not rejected, so a loader can pass every field through unchanged).

    >>> str(Grid(GridKind.HEX, 30, 25, Orientation.FLAT))
    'hex 30x25 flat odd xxyy first=1,1'
    >>> Grid.parse_grid("square 10x8 letter-column")
    Grid(kind=GridKind.SQUARE, columns=10, rows=8, orientation=Orientation.POINTY, parity=Parity.ODD, \
labels=LabelScheme.LETTER_COLUMN, first_column=1, first_row=1, rows_up=False)
    """

    kind: GridKind
    columns: int
    rows: int
    orientation: Orientation = Orientation.POINTY
    parity: Parity = Parity.ODD
    labels: LabelScheme = LabelScheme.XXYY
    first_column: int = 1
    first_row: int = 1
    rows_up: bool = False
    """Printed row numbers (or letters) grow upwards: the first row is the bottom one (Hell's Gate's row A is
    the south edge).  Only labels change; cells, geometry and drawing keep row 0 at the top."""

    def __post_init__(self) -> None:
        # Accept the plain strings a YAML loader hands over, but store real members so `is` comparisons work.
        for name, enum in (
            ("kind", GridKind),
            ("orientation", Orientation),
            ("parity", Parity),
            ("labels", LabelScheme),
        ):
            object.__setattr__(self, name, enum.parse(getattr(self, name)))
        for name in ("columns", "rows"):
            value = getattr(self, name)
            if not _is_int(value) or not 1 <= value <= MAX_CELLS_PER_AXIS:
                raise ValueError(
                    f"a grid's {name} must be a whole number from 1 to {MAX_CELLS_PER_AXIS}, not {value!r}"
                )
        letter_axis = {LabelScheme.LETTER_ROW: "first_row", LabelScheme.LETTER_COLUMN: "first_column"}
        for name in ("first_column", "first_row"):
            value = getattr(self, name)
            # Letters start at A = 1; there is no letter for 0.
            low = 1 if letter_axis.get(self.labels) == name else 0
            # Bounded, so that no label (and no message quoting one) grows without limit: letters repeat one letter
            # per 26 (a first row of 10**9 would spell labels of 38 million letters).
            high = MAX_FIRST_LETTERS if letter_axis.get(self.labels) == name else MAX_FIRST_NUMBER
            if not _is_int(value) or not low <= value <= high:
                raise ValueError(
                    f"{name} must be a whole number from {low} to {high} with labels {self.labels}, not {value!r}"
                )

    # ------------------------------------------------------------------------------------------- notation
    @classmethod
    def parse_grid(cls, text: str) -> Grid:
        """Parse the ``str()`` form: kind and size first, then any of orientation, parity, label scheme and
        ``first=C,R`` in any order (defaults as in the constructor).

        Not named ``parse``: :meth:`parse` reads a cell label, the thing callers need most.
        """
        words = str(text).split()
        example = "'hex 30x25 flat even xxyy first=1,1'"
        size = _GRID_SIZE.fullmatch(words[1]) if len(words) >= 2 else None
        if size is None:
            raise ValueError(f"{text!r} is not a grid (expected kind and COLUMNSxROWS first, e.g. {example})")
        kind = GridKind.parse(words[0])
        orientation, parity, labels = Orientation.POINTY, Parity.ODD, LabelScheme.XXYY
        first: tuple[int, int] = (1, 1)
        rows_up = False
        seen: set[str] = set()
        for word in words[2:]:
            if word.lower() == "rows-up":
                key, rows_up = "rows-up", True
            elif m := _GRID_FIRST.fullmatch(word):
                key, first = "first", (int(m.group(1)), int(m.group(2)))
            elif word.lower() in _values(Orientation):
                key, orientation = "orientation", Orientation.parse(word)
            elif word.lower() in _values(Parity):
                key, parity = "parity", Parity.parse(word)
            elif word.lower() in _values(LabelScheme):
                key, labels = "labels", LabelScheme.parse(word)
            else:
                raise ValueError(f"{text!r} is not a grid: {word!r} is no grid option (e.g. {example})")
            if key in seen:
                raise ValueError(f"{text!r} is not a grid: {key} given twice")
            seen.add(key)
        return cls(kind, int(size.group(1)), int(size.group(2)), orientation, parity, labels, *first, rows_up)

    def __str__(self) -> str:
        return (
            f"{self.kind} {self.columns}x{self.rows} {self.orientation} {self.parity} {self.labels} "
            f"first={self.first_column},{self.first_row}" + (" rows-up" if self.rows_up else "")
        )

    # ------------------------------------------------------------------------------------------- topology
    def contains(self, c: Cell) -> bool:
        """True when ``c`` is a space of this map."""
        return 0 <= c.col < self.columns and 0 <= c.row < self.rows

    def cells(self) -> Iterator[Cell]:
        """Every space of the map, row by row from the top, each row left to right."""
        for row in range(self.rows):
            for col in range(self.columns):
                yield Cell(col, row)

    def all_neighbours(self, c: Cell) -> list[Cell]:
        """The cells touching ``c``, sorted, including positions off the map: 6 for hex and offset-square
        grids, 4 for square grids."""
        if self.kind is GridKind.SQUARE:
            return sorted(Cell(c.col + dc, c.row + dr) for dc, dr in _SQUARE_STEPS)
        q, r = self.to_axial(c)
        return sorted(self.from_axial(q + dq, r + dr) for dq, dr in _HEX_STEPS)

    def neighbours(self, c: Cell) -> list[Cell]:
        """The on-map cells touching ``c``, sorted."""
        return [n for n in self.all_neighbours(c) if self.contains(n)]

    def distance(self, a: Cell, b: Cell) -> int:
        """Fewest steps between neighbours from ``a`` to ``b``, ignoring the map edge.

        Hex and offset-square grids use cube distance; square grids count orthogonal steps (Manhattan).
        """
        if self.kind is GridKind.SQUARE:
            return abs(a.col - b.col) + abs(a.row - b.row)
        aq, ar = self.to_axial(a)
        bq, br = self.to_axial(b)
        dq, dr = aq - bq, ar - br
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def adjacent(self, a: Cell, b: Cell) -> bool:
        """True when ``a`` and ``b`` touch along a side (whether or not they are on the map)."""
        return self.distance(a, b) == 1

    def side(self, a: Cell, b: Cell) -> Hexside:
        """The side ``a`` and ``b`` share; ValueError when they are not adjacent."""
        if not self.adjacent(a, b):
            raise ValueError(
                f"{self._describe(a)} and {self._describe(b)} are not adjacent on a {self.kind} grid "
                f"(they are {self.distance(a, b)} apart), so they share no side"
            )
        return Hexside.between(a, b)

    def sides(self) -> Iterator[Hexside]:
        """Every side between two on-map cells, each once, in sorted order."""
        # Walking cells in sorted (column-major) order and keeping only the larger neighbour yields the
        # sides already sorted, without collecting them first.
        for col in range(self.columns):
            for row in range(self.rows):
                c = Cell(col, row)
                for n in self.neighbours(c):
                    if n > c:
                        yield Hexside(c, n)

    def within(self, c: Cell, radius: int) -> list[Cell]:
        """On-map cells at distance ``radius`` or less from ``c`` (which may be off the map), sorted."""
        # One step changes column and row by at most one on every kind of grid, so the square box of
        # half-width `radius` holds every candidate; clipping it to the map bounds the work by the map size.
        cols = range(max(0, c.col - radius), min(self.columns, c.col + radius + 1))
        rows = range(max(0, c.row - radius), min(self.rows, c.row + radius + 1))
        return [Cell(x, y) for x in cols for y in rows if self.distance(c, Cell(x, y)) <= radius]

    # ----------------------------------------------------------------------------------------------- axial
    def _zigzag(self, index: int) -> int:
        """Whole cells by which the offset layout has drifted from axial coordinates at row (or column)
        ``index``: half the index, rounded down for odd parity and up for even parity."""
        return (index - (index & 1)) // 2 if self.parity is Parity.ODD else (index + (index & 1)) // 2

    def _rows_zigzag(self) -> bool:
        """True when rows are the shoved lines (pointy hexes, bricks); False for flat hex columns."""
        return self.kind is GridKind.OFFSET_SQUARE or self.orientation is Orientation.POINTY

    def _check_axial(self) -> None:
        if self.kind is GridKind.SQUARE:
            raise ValueError("a square grid has no axial coordinates (only hex and offset-square grids do)")

    def to_axial(self, c: Cell) -> tuple[int, int]:
        """Axial ``(q, r)`` of ``c`` (cube ``s = -q - r``); hex and offset-square grids only.

        >>> Grid(GridKind.HEX, 5, 5).to_axial(Cell(3, 3))
        (2, 3)
        """
        self._check_axial()
        if self._rows_zigzag():
            return c.col - self._zigzag(c.row), c.row
        return c.col, c.row - self._zigzag(c.col)

    def from_axial(self, q: int, r: int) -> Cell:
        """The cell at axial ``(q, r)``; inverse of :meth:`to_axial`."""
        self._check_axial()
        if self._rows_zigzag():
            return Cell(q + self._zigzag(r), r)
        return Cell(q, r + self._zigzag(q))

    # ---------------------------------------------------------------------------------------------- labels
    def _digit_widths(self) -> tuple[int, int]:
        """Digits in the column and the row part of an xxyy label: 2, or more if the last number needs it."""
        return (
            max(2, len(str(self.first_column + self.columns - 1))),
            max(2, len(str(self.first_row + self.rows - 1))),
        )

    def label(self, c: Cell) -> str:
        """The printed name of ``c`` in this grid's scheme; ValueError for an off-map cell the scheme cannot
        name (a row before A, a negative number, an xxyy number wider than the map's).

        >>> g = Grid(GridKind.HEX, 30, 25, Orientation.FLAT, labels=LabelScheme.XXYY)
        >>> g.label(Cell(7, 4))
        '0805'
        """
        col, row = c.col + self.first_column, self._printed_row(c.row) + self.first_row
        scheme = self.labels
        if scheme is LabelScheme.COL_ROW:
            return f"{col},{row}"
        if scheme is LabelScheme.XXYY:
            cw, rw = self._digit_widths()
            if 0 <= col < 10**cw and 0 <= row < 10**rw:
                return f"{col:0{cw}d}{row:0{rw}d}"
        else:
            letter, number = (row, col) if scheme is LabelScheme.LETTER_ROW else (col, row)
            if letter >= 1 and number >= 0:
                return f"{_letters(letter)}{number}"
        raise ValueError(f"{c!r} lies off the map and has no label in scheme {scheme}")

    def parse(self, text: str) -> Cell:
        """The cell named by the label ``text`` (blanks around it and letter case are ignored).

        A well-formed label of a space off the map still parses; :meth:`contains` tells whether it is on it.

        >>> g = Grid(GridKind.HEX, 7, 7, Orientation.POINTY, Parity.EVEN, LabelScheme.LETTER_ROW)
        >>> g.parse("B7"), g.contains(g.parse("Z9"))
        (Cell(col=6, row=1), False)
        >>> g.parse("AB7")
        Traceback (most recent call last):
        ...
        ValueError: 'AB7' is not a hex label in scheme letter-row (e.g. 'A1': row letters A..Z, AA, BB, ... \
then the column number)
        """
        s = str(text).strip()
        scheme = self.labels
        col: int | None = None
        row: int | None = None
        if scheme is LabelScheme.COL_ROW:
            if m := _COL_ROW_LABEL.fullmatch(s):
                col, row = int(m.group(1)), int(m.group(2))
        elif scheme is LabelScheme.XXYY:
            cw, rw = self._digit_widths()
            if _DIGITS.fullmatch(s) and len(s) == cw + rw:
                col, row = int(s[:cw]), int(s[cw:])
        elif (m := _LETTER_LABEL.fullmatch(s)) and (letter := _letters_number(m.group(1))) is not None:
            number = int(m.group(2))
            row, col = (letter, number) if scheme is LabelScheme.LETTER_ROW else (number, letter)
        if col is None or row is None:
            raise ValueError(f"{text!r} is not a {self._noun()} label in scheme {scheme} ({self._example()})")
        return Cell(col - self.first_column, self._printed_row(row - self.first_row))

    def _printed_row(self, index: int) -> int:
        """0-based printed row of a cell row (and back: the mapping is its own inverse)."""
        return self.rows - 1 - index if self.rows_up else index

    def side_label(self, s: Hexside) -> str:
        """A hexside written with the game's labels: ``"C6/C7"``, ``"0805/0806"``."""
        return f"{self.label(s.a)}/{self.label(s.b)}"

    def parse_side(self, text: str) -> Hexside:
        """Inverse of :meth:`side_label`: two labels of adjacent cells, either order, joined by ``/``."""
        parts = str(text).split("/")
        if len(parts) != 2:
            raise ValueError(f"{text!r} is not a hexside (expected two labels joined by '/', e.g. 'A1/A2')")
        return self.side(self.parse(parts[0]), self.parse(parts[1]))

    def _noun(self) -> str:
        return "hex" if self.kind is GridKind.HEX else "square"

    def _example(self) -> str:
        """A hint for error messages: the top-left label and how the scheme reads."""
        how = {
            LabelScheme.LETTER_ROW: "row letters A..Z, AA, BB, ... then the column number",
            LabelScheme.LETTER_COLUMN: "column letters A..Z, AA, BB, ... then the row number",
            LabelScheme.XXYY: "{}-digit column then {}-digit row".format(*self._digit_widths()),
            LabelScheme.COL_ROW: "column number, comma, row number",
        }[self.labels]
        return f"e.g. {self.label(Cell(0, 0))!r}: {how}"

    def _describe(self, c: Cell) -> str:
        """``c`` for messages: its label when it has one, so the user recognises the space."""
        try:
            return f"{self.label(c)} {c}"
        except ValueError:
            return str(c)

    # -------------------------------------------------------------------------------------------- drawing
    def _half_shift(self, index: int) -> float:
        """0.5 when row (or column) ``index`` is shoved forward, measured from the map's bounding box."""
        shoved = (index & 1) == (1 if self.parity is Parity.ODD else 0)
        lines = self.rows if self._rows_zigzag() else self.columns
        # A map with a single shoved row has no unshoved row to stick out past, so its box starts at that row.
        origin = 0.5 if lines == 1 and self.parity is Parity.EVEN else 0.0
        return (0.5 if shoved else 0.0) - origin

    def center(self, c: Cell, size: float) -> Point:
        """Centre of ``c`` in points (y down) for cells ``size`` points across the flats.

        The map's bounding box starts at ``(0, 0)``: with odd parity (or any square grid) that is the top-left
        cell's own box; with even parity row 0 is shoved, so the top-left cell starts half a cell in.

        >>> Grid(GridKind.SQUARE, 3, 3).center(Cell(1, 2), 10)
        (15.0, 25.0)
        """
        _check_size(size)
        if self.kind is GridKind.SQUARE:
            return size * (c.col + 0.5), size * (c.row + 0.5)
        if self.kind is GridKind.OFFSET_SQUARE:
            return size * (c.col + 0.5 + self._half_shift(c.row)), size * (c.row + 0.5)
        radius = size / _SQRT3  # centre to corner; a hex's side has this length too
        if self.orientation is Orientation.POINTY:
            return size * (c.col + 0.5 + self._half_shift(c.row)), radius * (1 + 1.5 * c.row)
        return radius * (1 + 1.5 * c.col), size * (c.row + 0.5 + self._half_shift(c.col))

    def corners(self, c: Cell, size: float) -> list[Point]:
        """Corners of ``c``, clockwise on the page (y down).

        Hexes: 6, from the top corner (pointy) or the right-most corner (flat).  Squares: 4, from the
        top-left.  Offset squares: 6, from the top-left -- the four corners plus the midpoints of the top and
        bottom sides, where the neighbouring rows' squares meet, so every one of the six sides runs corner to
        corner (the extra points are collinear, so the polygon draws as a plain square).
        """
        x, y = self.center(c, size)
        h = size / 2
        if self.kind is GridKind.SQUARE:
            return [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]
        if self.kind is GridKind.OFFSET_SQUARE:
            return [(x - h, y - h), (x, y - h), (x + h, y - h), (x + h, y + h), (x, y + h), (x - h, y + h)]
        # Written out rather than computed with cos/sin so shared corners of neighbours agree to the last bit
        # as far as the centres do.
        radius = size / _SQRT3
        if self.orientation is Orientation.POINTY:
            return [
                (x, y - radius),
                (x + h, y - radius / 2),
                (x + h, y + radius / 2),
                (x, y + radius),
                (x - h, y + radius / 2),
                (x - h, y - radius / 2),
            ]
        return [
            (x + radius, y),
            (x + radius / 2, y + h),
            (x - radius / 2, y + h),
            (x - radius, y),
            (x - radius / 2, y - h),
            (x + radius / 2, y - h),
        ]

    def side_segment(self, s: Hexside, size: float) -> tuple[Point, Point]:
        """The two corners ``s.a`` and ``s.b`` share, in the order of ``corners(s.a)``: where to draw a river.

        >>> Grid(GridKind.SQUARE, 2, 1).side_segment(Hexside(Cell(0, 0), Cell(1, 0)), 10)
        ((10.0, 0.0), (10.0, 10.0))
        """
        self.side(s.a, s.b)  # raises the adjacency error with labels in it
        theirs = self.corners(s.b, size)
        # Centres are computed independently, so shared corners may differ in the last bits.
        tolerance = 1e-6 * size
        shared = [p for p in self.corners(s.a, size) if any(math.dist(p, q) <= tolerance for q in theirs)]
        if len(shared) != 2:  # pragma: no cover - would mean the corner formulas above are wrong
            raise AssertionError(f"{s} shares {len(shared)} corners, not 2")
        return shared[0], shared[1]

    def extent(self, size: float) -> Point:
        """Width and height in points of the bounding box of the whole map, which starts at ``(0, 0)``.

        >>> Grid(GridKind.SQUARE, 4, 3).extent(10)
        (40.0, 30.0)
        """
        _check_size(size)
        stagger = 0.5 if (self.rows if self._rows_zigzag() else self.columns) > 1 else 0.0
        if self.kind is GridKind.SQUARE:
            return float(size * self.columns), float(size * self.rows)
        if self.kind is GridKind.OFFSET_SQUARE:
            return size * (self.columns + stagger), float(size * self.rows)
        radius = size / _SQRT3
        if self.orientation is Orientation.POINTY:
            return size * (self.columns + stagger), radius * (1.5 * self.rows + 0.5)
        return radius * (1.5 * self.columns + 0.5), size * (self.rows + stagger)


def _values(enum: type[_Choice]) -> set[str]:
    return {str(m.value) for m in enum}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_size(size: float) -> None:
    if not (isinstance(size, int | float) and math.isfinite(size) and size > 0):
        raise ValueError(f"a cell size must be a positive number of points, not {size!r}")
