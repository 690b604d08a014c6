"""Tests of forge.hexgrid: properties with hypothesis, worked examples from real games, and the doctests."""

from __future__ import annotations

import doctest
import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import forge.hexgrid
from forge.hexgrid import Cell, Grid, GridKind, Hexside, LabelScheme, Orientation, Parity

try:  # pytest puts tests/ on sys.path while it has no __init__.py; tests.strategies once it becomes a package
    from strategies import (
        cells,
        cells_near,
        garbage_labels,
        grid_and_cells,
        grids,
        label_grids,
        small_grids,
    )
except ImportError:  # pragma: no cover
    from tests.strategies import (
        cells,
        cells_near,
        garbage_labels,
        grid_and_cells,
        grids,
        label_grids,
        small_grids,
    )

HEXLIKE = st.sampled_from([GridKind.HEX, GridKind.OFFSET_SQUARE])
SIZES = st.sampled_from([1.0, 10.0, 72.0, 0.75 * 72, 13.37])
EPS = 1e-6


def hells_gate() -> Grid:
    return Grid(GridKind.HEX, 7, 7, Orientation.POINTY, Parity.EVEN, LabelScheme.LETTER_ROW)


def close(p: tuple[float, float], q: tuple[float, float], size: float = 1.0) -> bool:
    return math.dist(p, q) <= EPS * max(size, 1.0)


# --------------------------------------------------------------------------------------------- labels
@given(label_grids().flatmap(lambda g: st.tuples(st.just(g), cells_near(g))))
def test_label_parse_round_trip(gc: tuple[Grid, Cell]) -> None:
    grid, cell = gc
    if grid.contains(cell):
        assert grid.parse(grid.label(cell)) == cell
        return
    # Off the map a scheme may have no name for the cell (row before A); if it has one, it must round-trip.
    try:
        text = grid.label(cell)
    except ValueError:
        return
    assert grid.parse(text) == cell


@given(grid_and_cells(1))
def test_parse_ignores_blanks_and_case(gc: tuple[Grid, list[Cell]]) -> None:
    grid, (cell,) = gc
    assert grid.parse(f"  {grid.label(cell).lower()}\t") == cell


@given(grids().flatmap(lambda g: st.tuples(st.just(g), garbage_labels(g))))
def test_parse_rejects_garbage(gt: tuple[Grid, str]) -> None:
    grid, text = gt
    with pytest.raises(ValueError, match=r"is not a (hex|square) label in scheme"):
        grid.parse(text)


def test_parse_error_message() -> None:
    with pytest.raises(ValueError, match=r"^'AB7' is not a hex label in scheme letter-row \(e\.g\. 'A1'"):
        hells_gate().parse("AB7")
    square = Grid(GridKind.SQUARE, 10, 10, labels=LabelScheme.XXYY)
    expected = r"'123' is not a square label in scheme xxyy \(e\.g\. '0101': 2-digit column"
    with pytest.raises(ValueError, match=expected):
        square.parse("123")


def test_well_formed_off_map_label_parses() -> None:
    grid = hells_gate()
    assert grid.parse("Z9") == Cell(8, 25)
    assert not grid.contains(grid.parse("Z9"))


def test_wargame_letters() -> None:
    grid = Grid(GridKind.HEX, 5, 60, labels=LabelScheme.LETTER_ROW)
    labels = [grid.label(Cell(0, r)) for r in (0, 25, 26, 27, 51, 52)]
    assert labels == ["A1", "Z1", "AA1", "BB1", "ZZ1", "AAA1"]
    column_letters = Grid(GridKind.SQUARE, 30, 5, labels=LabelScheme.LETTER_COLUMN)
    assert column_letters.label(Cell(27, 4)) == "BB5"
    assert column_letters.parse("bb5") == Cell(27, 4)


def test_xxyy_widths_grow_past_99() -> None:
    assert Grid(GridKind.HEX, 99, 99).label(Cell(98, 98)) == "9999"
    wide = Grid(GridKind.HEX, 100, 25)
    assert wide.label(Cell(0, 0)) == "00101"
    assert wide.label(Cell(99, 24)) == "10025"
    assert wide.parse("10025") == Cell(99, 24)
    with pytest.raises(ValueError, match="off the map"):
        Grid(GridKind.HEX, 10, 10).label(Cell(100, 0))


def test_first_numbers_shift_labels() -> None:
    zero = Grid(GridKind.SQUARE, 10, 10, labels=LabelScheme.COL_ROW, first_column=0, first_row=0)
    assert zero.label(Cell(3, 4)) == "3,4"
    assert zero.label(Cell(-1, 0)) == "-1,0"
    assert zero.parse("-1, 0") == Cell(-1, 0)
    b_first = Grid(GridKind.HEX, 5, 5, labels=LabelScheme.LETTER_ROW, first_row=2)
    assert b_first.label(Cell(0, 0)) == "B1"
    with pytest.raises(ValueError, match="first_row must be a whole number from 1 to 1000"):
        Grid(GridKind.HEX, 5, 5, labels=LabelScheme.LETTER_ROW, first_row=0)


def test_side_labels() -> None:
    grid = hells_gate()
    side = grid.parse_side("C7/C6")
    assert side == Hexside(Cell(5, 2), Cell(6, 2))
    assert grid.side_label(side) == "C6/C7"
    with pytest.raises(ValueError, match=r"C6 .* and C8 .* are not adjacent"):
        grid.parse_side("C6/C8")


# --------------------------------------------------------------------------------- worked examples
@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("B7", ["A6", "A7", "B6", "C6", "C7"]),
        ("C6", ["B6", "B7", "C5", "C7", "D6", "D7"]),
        ("B1", ["A1", "B2", "C1"]),
    ],
)
def test_hells_gate_neighbours(label: str, expected: list[str]) -> None:
    grid = hells_gate()
    assert grid.neighbours(grid.parse(label)) == sorted(grid.parse(e) for e in expected)


def test_xxyy_flat_hex() -> None:
    grid = Grid(GridKind.HEX, 30, 25, Orientation.FLAT, Parity.EVEN)
    assert grid.parse("0805") == Cell(7, 4)
    assert grid.label(grid.parse("0805")) == "0805"


def test_known_axial_and_distance() -> None:
    # redblobgames odd-r: (col 3, row 3) is axial (2, 3); even-q: (col 1, row 1) is axial (1, 0).
    assert Grid(GridKind.HEX, 9, 9).to_axial(Cell(3, 3)) == (2, 3)
    assert Grid(GridKind.HEX, 9, 9, Orientation.FLAT, Parity.EVEN).to_axial(Cell(1, 1)) == (1, 0)
    grid = hells_gate()
    assert grid.distance(grid.parse("A1"), grid.parse("A7")) == 6
    assert grid.distance(grid.parse("A1"), grid.parse("G1")) == 6
    assert Grid(GridKind.SQUARE, 9, 9).distance(Cell(0, 0), Cell(3, 4)) == 7
    with pytest.raises(ValueError, match="square grid has no axial"):
        Grid(GridKind.SQUARE, 9, 9).to_axial(Cell(0, 0))


# ------------------------------------------------------------------------------------- coordinates
@given(grids(HEXLIKE), cells)
def test_offset_axial_round_trip(grid: Grid, cell: Cell) -> None:
    q, r = grid.to_axial(cell)
    assert grid.from_axial(q, r) == cell
    assert grid.to_axial(grid.from_axial(cell.col, cell.row)) == (cell.col, cell.row)


@given(grids(), cells, cells, cells)
def test_distance_is_a_metric(grid: Grid, a: Cell, b: Cell, c: Cell) -> None:
    assert grid.distance(a, a) == 0
    assert grid.distance(a, b) == grid.distance(b, a)
    assert (grid.distance(a, b) == 0) == (a == b)
    assert grid.distance(a, c) <= grid.distance(a, b) + grid.distance(b, c)


@given(grids(), cells, cells)
def test_distance_is_shortest_path(grid: Grid, a: Cell, b: Cell) -> None:
    # Together with d(b, b) = 0 this pins distance down as the number of steps on the neighbour graph.
    if a != b:
        assert grid.distance(a, b) == 1 + min(grid.distance(n, b) for n in grid.all_neighbours(a))


@given(grids(), cells)
def test_neighbours(grid: Grid, cell: Cell) -> None:
    around = grid.all_neighbours(cell)
    assert len(set(around)) == len(around) == (4 if grid.kind is GridKind.SQUARE else 6)
    assert around == sorted(around)
    assert all(grid.distance(cell, n) == 1 and grid.adjacent(cell, n) for n in around)
    assert grid.neighbours(cell) == [n for n in around if grid.contains(n)]


@given(grids(), cells, cells)
def test_adjacency_and_sides_are_symmetric(grid: Grid, a: Cell, b: Cell) -> None:
    assert grid.adjacent(a, b) == grid.adjacent(b, a)
    if a != b:
        assert Hexside.between(a, b) == Hexside.between(b, a)
    if grid.adjacent(a, b):
        assert grid.side(a, b) == grid.side(b, a) == Hexside.between(a, b)
    else:
        with pytest.raises(ValueError, match="not adjacent"):
            grid.side(a, b)


@given(grid_and_cells(1), st.integers(-1, 5))
def test_within(gc: tuple[Grid, list[Cell]], radius: int) -> None:
    grid, (cell,) = gc
    expected = sorted(c for c in grid.cells() if grid.distance(cell, c) <= radius)
    assert grid.within(cell, radius) == expected


# -------------------------------------------------------------------------------------------- sides
@settings(max_examples=60)
@given(small_grids())
def test_sides_are_shared_by_two_on_map_cells(grid: Grid) -> None:
    sides = list(grid.sides())
    assert sides == sorted(set(sides))
    per_cell = Counter(grid.side(c, n) for c in grid.cells() for n in grid.neighbours(c))
    assert per_cell == Counter(dict.fromkeys(sides, 2))
    for s in sides:
        assert grid.contains(s.a)
        assert grid.contains(s.b)
        assert s.b in grid.neighbours(s.a)
        assert s.a in grid.neighbours(s.b)


@settings(max_examples=60)
@given(st.integers(1, 9), st.integers(1, 9), st.sampled_from(list(Parity)))
def test_pointy_side_count(columns: int, rows: int, parity: Parity) -> None:
    grid = Grid(GridKind.HEX, columns, rows, Orientation.POINTY, parity)
    count = sum(1 for _ in grid.sides())
    assert 2 * count == sum(len(grid.neighbours(c)) for c in grid.cells())
    # Closed form: C - 1 sides within each row, 2C - 1 between each pair of rows.
    assert count == rows * (columns - 1) + (rows - 1) * (2 * columns - 1)


def test_cells_row_major() -> None:
    assert list(Grid(GridKind.SQUARE, 2, 2).cells()) == [Cell(0, 0), Cell(1, 0), Cell(0, 1), Cell(1, 1)]


# ------------------------------------------------------------------------------------------ drawing
@given(grid_and_cells(1, on_map=False), SIZES)
def test_side_segment_ends_are_corners_of_both_cells(gc: tuple[Grid, list[Cell]], size: float) -> None:
    grid, (cell,) = gc
    for n in grid.all_neighbours(cell):
        p, q = grid.side_segment(grid.side(cell, n), size)
        assert not close(p, q, size)
        for end in (p, q):
            assert any(close(end, k, size) for k in grid.corners(cell, size))
            assert any(close(end, k, size) for k in grid.corners(n, size))


@given(grid_and_cells(1, grids(st.sampled_from([GridKind.HEX, GridKind.SQUARE])), on_map=False), SIZES)
def test_neighbour_centres_are_one_size_apart(gc: tuple[Grid, list[Cell]], size: float) -> None:
    grid, (cell,) = gc
    for n in grid.all_neighbours(cell):
        assert math.isclose(math.dist(grid.center(cell, size), grid.center(n, size)), size, rel_tol=1e-9)


@given(grid_and_cells(1, grids(st.just(GridKind.OFFSET_SQUARE)), on_map=False), SIZES)
def test_brick_neighbours_share_a_full_or_half_side(gc: tuple[Grid, list[Cell]], size: float) -> None:
    grid, (cell,) = gc
    for n in grid.all_neighbours(cell):
        p, q = grid.side_segment(grid.side(cell, n), size)
        expected = size if n.row == cell.row else size / 2
        assert math.isclose(math.dist(p, q), expected, rel_tol=1e-9)


@given(grid_and_cells(1, on_map=False), SIZES)
def test_corners_are_clockwise_around_the_centre(gc: tuple[Grid, list[Cell]], size: float) -> None:
    grid, (cell,) = gc
    cx, cy = grid.center(cell, size)
    pts = grid.corners(cell, size)
    assert len(pts) == (4 if grid.kind is GridKind.SQUARE else 6)
    # Shoelace area is positive for clockwise order when y points down.
    area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1], strict=True)) / 2
    expected = size * size * (1.0 if grid.kind is not GridKind.HEX else math.sqrt(3) / 2)
    assert math.isclose(area, expected, rel_tol=1e-9)
    assert math.isclose(sum(x for x, _ in pts) / len(pts), cx, abs_tol=EPS * size)
    assert math.isclose(sum(y for _, y in pts) / len(pts), cy, abs_tol=EPS * size)
    if grid.kind is GridKind.HEX and grid.orientation is Orientation.POINTY:
        assert pts[0][1] == min(y for _, y in pts)
    if grid.kind is GridKind.HEX and grid.orientation is Orientation.FLAT:
        assert pts[0][0] == max(x for x, _ in pts)


@settings(max_examples=60)
@given(small_grids(), SIZES)
def test_extent_is_the_bounding_box_of_all_corners(grid: Grid, size: float) -> None:
    pts = [p for c in grid.cells() for p in grid.corners(c, size)]
    width, height = grid.extent(size)
    assert close((min(x for x, _ in pts), min(y for _, y in pts)), (0.0, 0.0), size)
    assert close((max(x for x, _ in pts), max(y for _, y in pts)), (width, height), size)


def test_concrete_geometry() -> None:
    radius = 1 / math.sqrt(3)
    odd = Grid(GridKind.HEX, 3, 2)
    assert odd.center(Cell(0, 0), 1) == (0.5, radius)
    assert odd.center(Cell(0, 1), 1) == (1.0, 2.5 * radius)
    assert odd.extent(1) == pytest.approx((3.5, 3.5 * radius))
    even = Grid(GridKind.HEX, 3, 2, parity=Parity.EVEN)
    assert even.center(Cell(0, 0), 1) == (1.0, radius)
    single_shoved_row = Grid(GridKind.HEX, 3, 1, parity=Parity.EVEN)
    assert single_shoved_row.center(Cell(0, 0), 1) == (0.5, radius)
    assert single_shoved_row.extent(1) == pytest.approx((3.0, 2 * radius))
    with pytest.raises(ValueError, match="cell size must be a positive number"):
        odd.center(Cell(0, 0), 0)


# ------------------------------------------------------------------------------------------ notation
@given(grids(max_columns=10_000, max_rows=10_000), cells)
def test_repr_and_str_round_trip(grid: Grid, cell: Cell) -> None:
    namespace = vars(forge.hexgrid)
    assert eval(repr(grid), namespace) == grid
    assert eval(repr(cell), namespace) == cell
    assert Grid.parse_grid(str(grid)) == grid
    assert Cell.parse(str(cell)) == cell
    for enum_member in (grid.kind, grid.orientation, grid.parity, grid.labels):
        assert eval(repr(enum_member), namespace) is enum_member
        assert type(enum_member).parse(str(enum_member)) is enum_member
    side = Hexside.between(cell, Cell(cell.col + 1, cell.row))
    assert eval(repr(side), namespace) == side
    assert Hexside.parse(str(side)) == side


def test_notation_errors() -> None:
    with pytest.raises(ValueError, match="is not a grid kind"):
        GridKind.parse("octagon")
    with pytest.raises(ValueError, match="is not a grid"):
        Grid.parse_grid("hex")
    with pytest.raises(ValueError, match="parity given twice"):
        Grid.parse_grid("hex 3x3 odd even")
    assert Grid.parse_grid("hex 30x25 first=0,0 xxyy flat") == Grid(
        GridKind.HEX, 30, 25, Orientation.FLAT, labels=LabelScheme.XXYY, first_column=0, first_row=0
    )
    with pytest.raises(ValueError, match="is not a cell"):
        Cell.parse("7,4")
    with pytest.raises(ValueError, match="is not a hexside"):
        Hexside.parse("(1,1)-(1,1)")


# ---------------------------------------------------------------------------------------- validation
@pytest.mark.parametrize(("columns", "rows"), [(0, 5), (5, 0), (10_001, 5), (5, -1)])
def test_grid_size_is_validated(columns: int, rows: int) -> None:
    with pytest.raises(ValueError, match="must be a whole number from 1 to 10000"):
        Grid(GridKind.HEX, columns, rows)


def test_grid_accepts_plain_strings_for_options() -> None:
    grid = Grid("hex", 3, 3, "flat", "even", "letter-row")  # type: ignore[arg-type]
    assert grid.kind is GridKind.HEX
    assert grid.orientation is Orientation.FLAT
    assert grid == Grid(GridKind.HEX, 3, 3, Orientation.FLAT, Parity.EVEN, LabelScheme.LETTER_ROW)


def test_hexside_is_canonical() -> None:
    with pytest.raises(ValueError, match="two different cells"):
        Hexside.between(Cell(1, 1), Cell(1, 1))
    with pytest.raises(ValueError, match="a < b"):
        Hexside(Cell(2, 0), Cell(1, 0))
    with pytest.raises(TypeError, match="must be an int"):
        Cell(1.0, 2)  # type: ignore[arg-type]


def test_doctests() -> None:
    result = doctest.testmod(forge.hexgrid, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


@given(st.integers(1, 30), st.integers(1, 30), st.data())
def test_rows_up_labels_round_trip_and_mirror(columns: int, rows: int, data: st.DataObject) -> None:
    """With rows_up the first printed row is the bottom one; labels still round-trip."""
    g = Grid(GridKind.HEX, columns, rows, Orientation.POINTY, Parity.EVEN, LabelScheme.LETTER_ROW, rows_up=True)
    c = Cell(data.draw(st.integers(0, columns - 1)), data.draw(st.integers(0, rows - 1)))
    assert g.parse(g.label(c)) == c
    assert g.label(Cell(0, rows - 1)) == "A1"
    assert Grid.parse_grid(str(g)) == g


def test_hells_gate_rows_up_keeps_the_example_adjacencies() -> None:
    g = Grid(GridKind.HEX, 7, 7, Orientation.POINTY, Parity.EVEN, LabelScheme.LETTER_ROW, rows_up=True)
    assert sorted(g.label(n) for n in g.neighbours(g.parse("B7"))) == ["A6", "A7", "B6", "C6", "C7"]
    assert sorted(g.label(n) for n in g.neighbours(g.parse("C6"))) == ["B6", "B7", "C5", "C7", "D6", "D7"]
    assert g.center(g.parse("G1"), 72)[1] < g.center(g.parse("A1"), 72)[1]  # north (G) is drawn at the top
