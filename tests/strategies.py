"""Shared hypothesis strategies for Hexforge's tests.

Strategies are built with ``st.builds`` / ``.map`` / ``.flatmap`` so that every drawn value is valid by
construction; ``.filter`` would waste examples and can starve hypothesis on narrow conditions.
"""

from __future__ import annotations

import os

from hypothesis import strategies as st

from forge.hexgrid import Cell, Grid, GridKind, LabelScheme, Orientation, Parity

kinds = st.sampled_from(list(GridKind))
orientations = st.sampled_from(list(Orientation))
parities = st.sampled_from(list(Parity))
label_schemes = st.sampled_from(list(LabelScheme))


def examples(quick: int, thorough: int) -> int:
    """A property's ``max_examples``: ``quick`` in the everyday run, ``thorough`` with HYPOTHESIS_PROFILE=thorough
    (tests/conftest.py registers the profiles)."""
    return thorough if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else quick


def _grid(
    kind: GridKind,
    columns: int,
    rows: int,
    orientation: Orientation,
    parity: Parity,
    labels: LabelScheme,
    first_column: int,
    first_row: int,
) -> Grid:
    # A letter axis has no letter for 0, so lift its first number to 1 instead of discarding the example.
    if labels is LabelScheme.LETTER_ROW:
        first_row = max(first_row, 1)
    if labels is LabelScheme.LETTER_COLUMN:
        first_column = max(first_column, 1)
    return Grid(kind, columns, rows, orientation, parity, labels, first_column, first_row)


def grids(
    kinds: st.SearchStrategy[GridKind] = kinds,
    max_columns: int = 12,
    max_rows: int = 12,
    labels: st.SearchStrategy[LabelScheme] = label_schemes,
) -> st.SearchStrategy[Grid]:
    """Any valid grid up to the given size; first numbers 0..2 so offsets and xxyy widths get exercised."""
    return st.builds(
        _grid,
        kinds,
        st.integers(1, max_columns),
        st.integers(1, max_rows),
        orientations,
        parities,
        labels,
        st.integers(0, 2),
        st.integers(0, 2),
    )


def small_grids(kinds: st.SearchStrategy[GridKind] = kinds) -> st.SearchStrategy[Grid]:
    """Grids small enough to walk every cell and side inside one example."""
    return grids(kinds, max_columns=7, max_rows=7)


def label_grids() -> st.SearchStrategy[Grid]:
    """Grids that sometimes pass 99 columns or rows, where xxyy labels widen to three digits."""
    return st.one_of(grids(), grids(max_columns=130, max_rows=130))


def cells_on(grid: Grid) -> st.SearchStrategy[Cell]:
    """Cells on the map of ``grid``."""
    return st.builds(Cell, st.integers(0, grid.columns - 1), st.integers(0, grid.rows - 1))


def cells_near(grid: Grid, margin: int = 3) -> st.SearchStrategy[Cell]:
    """Cells on the map or up to ``margin`` cells beyond any edge."""
    return st.builds(
        Cell,
        st.integers(-margin, grid.columns - 1 + margin),
        st.integers(-margin, grid.rows - 1 + margin),
    )


cells = st.builds(Cell, st.integers(-40, 40), st.integers(-40, 40))
"""Cells anywhere, for the map-independent properties (distance, axial coordinates)."""


def grid_and_cells(
    n: int, grid_strategy: st.SearchStrategy[Grid] | None = None, *, on_map: bool = True
) -> st.SearchStrategy[tuple[Grid, list[Cell]]]:
    """A grid together with ``n`` cells of it (on the map, or near it with ``on_map=False``)."""
    base = grids() if grid_strategy is None else grid_strategy
    return base.flatmap(
        lambda g: st.tuples(
            st.just(g), st.lists(cells_on(g) if on_map else cells_near(g), min_size=n, max_size=n)
        )
    )


# Characters that cannot appear in any label scheme, even with blanks stripped ('-' would make a col,row
# label negative and letters could lengthen a letter label, so neither is here).
_JUNK = "#!?;/_.*@+:"


def _wrap(label: str, junk: str, front: bool) -> str:
    return junk + label if front else label + junk


def _digits_of_wrong_length(digits: str, width: int) -> str:
    # Lengthening by one is enough to leave the only length an xxyy label can have.
    return digits + "0" if len(digits) == width else digits


def garbage_labels(grid: Grid) -> st.SearchStrategy[str]:
    """Strings that are not a label of ``grid`` in its scheme, on or off the map."""
    cw, rw = grid._digit_widths()
    return st.one_of(
        # Every scheme needs an ASCII digit.
        st.text(st.characters(exclude_categories=["Nd"]), max_size=8),
        # A real label with junk glued to one end.
        st.builds(_wrap, cells_on(grid).map(grid.label), st.sampled_from(_JUNK), st.booleans()),
        # Two different letters: AB is not a wargame letter (AA, BB are); also no label in the other schemes.
        st.builds(
            lambda i, k, n: chr(65 + i) + chr(65 + (i + k) % 26) + str(n),
            st.integers(0, 25),
            st.integers(1, 25),
            st.integers(0, 99),
        ),
        # Bare digits: never a letter or col,row label, and the wrong length for xxyy.
        st.text("0123456789", min_size=1, max_size=9).map(lambda d: _digits_of_wrong_length(d, cw + rw)),
        # A col,row label with a part missing.
        st.integers(0, 99).map(lambda n: f"{n},"),
        st.integers(0, 99).map(lambda n: f",{n}"),
        st.integers(0, 99).map(lambda n: f"{n},,{n}"),
    )
