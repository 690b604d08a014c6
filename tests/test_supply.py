"""Zones of control and supply lines (forge.rules.zoc, forge.rules.supply): properties on random maps and
positions, the Hell's Gate map, and the doctests.

Properties:

* ZOC is mutual (4.3): ``a`` is in the zone of a unit at ``b`` exactly when ``b`` is in the zone of one
  at ``a``; the zone of a set of units is the union of their neighbours.
* Adding a friendly unit never cuts a supply line; removing an enemy unit (and the zone it exerted) never cuts
  one; a longer allowed length never cuts one (5.1, 11.2).
* Every supplied cell has a line (``supply_path``) whose every cell is passable, of the reported length, and
  every cell with a line is supplied: the two searches agree.
"""

from __future__ import annotations

import doctest

from hypothesis import given, settings
from hypothesis import strategies as st

import forge.rules.supply
import forge.rules.zoc
from forge.hexgrid import Cell, Grid, GridKind
from forge.rules.supply import passable, supplied_cells, supply_path
from forge.rules.zoc import in_zone, mutually_adjacent, zone_of
import itertools

try:  # pytest puts tests/ on sys.path while it has no __init__.py
    from strategies import small_grids
except ImportError:  # pragma: no cover
    from tests.strategies import small_grids


def test_doctests() -> None:
    for module in (forge.rules.zoc, forge.rules.supply):
        assert doctest.testmod(module).failed == 0


# ------------------------------------------------------------------------------------------ positions A
# position: a grid, friendly cells, enemy cells (disjoint) and friendly supply sources, all drawn by index so
# every example is valid by construction (no .filter).
Position = tuple[Grid, set[Cell], set[Cell], list[Cell], set[Cell], int | None]


def _position(grid: Grid, roles: list[int], max_length: int | None) -> Position:
    cells = list(grid.cells())
    friendly, enemy, enemy_sources = set(), set(), set()
    sources: list[Cell] = []
    for c, role in zip(cells, roles, strict=False):
        # roles: 0 empty, 1 friendly, 2 enemy, 3 friendly source (empty), 4 friendly source held, 5 enemy
        # source
        if role == 1:
            friendly.add(c)
        elif role == 2:
            enemy.add(c)
        elif role in (3, 4):
            sources.append(c)
            if role == 4:
                friendly.add(c)
        elif role == 5:
            enemy_sources.add(c)
    return grid, friendly, enemy, sources, enemy_sources, max_length


positions = small_grids(st.sampled_from([GridKind.HEX, GridKind.SQUARE, GridKind.OFFSET_SQUARE])).flatmap(
    lambda g: st.builds(
        _position,
        st.just(g),
        st.lists(
            st.sampled_from([0, 0, 0, 1, 2, 3, 4, 5]),
            min_size=g.columns * g.rows,
            max_size=g.columns * g.rows,
        ),
        st.one_of(st.none(), st.integers(0, 6)),
    )
)


def _supplied(
    p: Position, friendly: set[Cell] | None = None, enemy: set[Cell] | None = None
) -> dict[Cell, int]:
    grid, f, e, sources, enemy_sources, max_length = p
    f = f if friendly is None else friendly
    e = e if enemy is None else enemy
    blocked = zone_of(e, grid.neighbours) | enemy_sources
    return supplied_cells(
        sources,
        grid.neighbours,
        enemy_occupied=e,
        friendly_occupied=f,
        blocked=blocked,
        max_length=max_length,
    )


# ----------------------------------------------------------------------------------------------- ZOC
@given(small_grids(), st.data())
def test_zoc_is_mutual(grid: Grid, data: st.DataObject) -> None:
    cells = list(grid.cells())
    a = data.draw(st.sampled_from(cells))
    b = data.draw(st.sampled_from(cells))
    assert in_zone(a, {b}, grid.neighbours) == in_zone(b, {a}, grid.neighbours)
    assert mutually_adjacent(a, b, grid.neighbours) == mutually_adjacent(b, a, grid.neighbours)


@given(positions)
def test_zone_is_the_union_of_neighbours(p: Position) -> None:
    grid, _, enemy, *_ = p
    zone = zone_of(enemy, grid.neighbours)
    for c in grid.cells():
        assert (c in zone) == in_zone(c, enemy, grid.neighbours) == any(grid.adjacent(c, e) for e in enemy)


# -------------------------------------------------------------------------------------------- supply
@given(positions, st.data())
def test_adding_a_friendly_unit_never_cuts_supply(p: Position, data: st.DataObject) -> None:
    grid, friendly, enemy, *_ = p
    free = [c for c in grid.cells() if c not in enemy]
    extra = data.draw(st.sampled_from(free)) if free else None
    before = _supplied(p)
    after = _supplied(p, friendly=friendly | ({extra} if extra is not None else set()))
    assert set(before) <= set(after)
    assert all(after[c] <= d for c, d in before.items())


@given(positions, st.data())
def test_removing_an_enemy_unit_never_cuts_supply(p: Position, data: st.DataObject) -> None:
    _, _, enemy, *_ = p
    if not enemy:
        return
    gone = data.draw(st.sampled_from(sorted(enemy)))
    before = _supplied(p)
    after = _supplied(p, enemy=enemy - {gone})
    assert set(before) <= set(after)


@given(positions)
def test_longer_lines_never_cut_supply(p: Position) -> None:
    grid, f, e, sources, es, limit = p
    shorter = _supplied((grid, f, e, sources, es, 0 if limit is None else limit))
    longer = _supplied((grid, f, e, sources, es, None))
    assert set(shorter) <= set(longer)


@settings(max_examples=60)
@given(positions)
def test_every_supplied_cell_has_a_passable_line_and_vice_versa(p: Position) -> None:
    grid, friendly, enemy, sources, enemy_sources, max_length = p
    blocked = zone_of(enemy, grid.neighbours) | enemy_sources
    dist = _supplied(p)
    kw = {"enemy_occupied": enemy, "friendly_occupied": friendly, "blocked": blocked}
    for c in grid.cells():
        path = supply_path(c, set(sources), grid.neighbours, max_length=max_length, **kw)
        assert (path is not None) == (c in dist), c
        if path is None:
            continue
        assert path[0] == c
        assert path[-1] in sources
        assert len(path) - 1 == dist[c]
        assert all(passable(x, **kw) for x in path)
        assert all(grid.adjacent(x, y) for x, y in itertools.pairwise(path))
        assert c not in enemy


def test_a_vacant_source_in_an_enemy_zone_supplies_nobody() -> None:
    line = {0: [1], 1: [0, 2], 2: [1]}.__getitem__
    # an enemy at 2 controls 1: the source 0 still supplies its own cell
    assert supplied_cells([0], line, enemy_occupied={2}, friendly_occupied=set(), blocked={1}) == {0: 0}
    # 0 itself in the enemy zone and vacant: no supply at all; held by a friendly unit: supplied
    assert supplied_cells([0], line, enemy_occupied={1}, friendly_occupied=set(), blocked={0, 2}) == {}
    assert supplied_cells([0], line, enemy_occupied={1}, friendly_occupied={0}, blocked={0, 2}) == {0: 0}


def test_an_enemy_source_is_passable_only_with_a_friendly_unit() -> None:
    line = {0: [1], 1: [0, 2], 2: [1]}.__getitem__
    assert 2 not in supplied_cells([0], line, enemy_occupied=set(), friendly_occupied={2}, blocked={1})
    assert 2 in supplied_cells([0], line, enemy_occupied=set(), friendly_occupied={1, 2}, blocked={1})
