"""Zones of control on any grid: the cells next to a unit.

Generic: hexes are any hashable values and adjacency is a function, so the same code serves
:class:`forge.hexgrid.Grid` cells (``grid.neighbours``) and an engine's integer hex indices
(``neighbours.__getitem__`` of a precomputed table).

The model is the commonest one: every unit controls the cells adjacent to its own, always (whatever the phase
or player turn), terrain does not matter and several zones on one cell count once, and zones are mutual because
adjacency is symmetric.

>>> nbrs = {1: [2], 2: [1, 3], 3: [2]}.__getitem__
>>> sorted(zone_of([1], nbrs))
[2]
>>> in_zone(3, enemy_cells=[1], neighbours=nbrs), in_zone(2, enemy_cells=[1], neighbours=nbrs)
(False, True)
"""

from __future__ import annotations

from collections.abc import Callable, Container, Hashable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from typing import TypeVar

H = TypeVar("H", bound=Hashable)

Neighbours = Callable[[H], Iterable[H]]
"""Adjacency: the on-map cells next to a cell (``grid.neighbours`` or ``table.__getitem__``)."""


def zone_of(occupied: Iterable[H], neighbours: Callable[[H], Iterable[H]]) -> set[H]:
    """Every cell controlled by units standing in ``occupied``: the union of their neighbours.

    A unit's own cell is not in its zone unless another of the given cells is next to it.
    """
    zone: set[H] = set()
    for cell in occupied:
        zone.update(neighbours(cell))
    return zone


def zone_of_table(occupied: Iterable[int], adjacent: Sequence[AbstractSet[int]]) -> set[int]:
    """:func:`zone_of` for an engine's integer cells with a precomputed table of neighbour sets: one union.

    >>> sorted(zone_of_table([0, 2], [{1}, {0, 2}, {1, 3}, {2}]))
    [1, 3]
    """
    return set().union(*map(adjacent.__getitem__, occupied))


def in_zone(cell: H, enemy_cells: Container[H], neighbours: Callable[[H], Iterable[H]]) -> bool:
    """True when ``cell`` is in the zone of a unit in ``enemy_cells``, i.e. next to one of them.

    Cheaper than :func:`zone_of` when only a few cells are asked about.
    """
    return any(n in enemy_cells for n in neighbours(cell))


def mutually_adjacent(a: H, b: H, neighbours: Callable[[H], Iterable[H]]) -> bool:
    """True when ``a`` and ``b`` are in each other's zone; symmetric for any symmetric adjacency."""
    return any(n == b for n in neighbours(a))
