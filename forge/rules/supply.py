"""Supply lines on any grid: a breadth-first search from friendly supply sources.

Generic like :mod:`forge.rules.zoc`: cells are any hashable values and adjacency is a function.  The tracing
rule is one many games share:

* a supply line is a chain of adjacent cells of any length from the unit to a friendly supply source (a
  unit on a source is in supply);
* it never enters a cell holding an enemy unit;
* it enters a cell in an enemy zone of control, or an enemy supply source, only if a friendly unit is there
  (friendly units "block" enemy zones and enemy sources);
* optionally, no longer than ``max_length`` steps (a special rule may shorten a side's lines on some turns).

One search answers for every unit of a side: :func:`supplied_cells` returns each cell a line can be traced
from, with the length of its shortest line.

>>> line = {0: [1], 1: [0, 2], 2: [1, 3], 3: [2]}.__getitem__   # four cells in a row
>>> supplied_cells([0], line, enemy_occupied=set(), friendly_occupied={3}, blocked={2})  # 3 holds a unit
{0: 0, 1: 1}
>>> supplied_cells([0], line, enemy_occupied=set(), friendly_occupied={2, 3}, blocked={2})
{0: 0, 1: 1, 2: 2, 3: 3}
>>> supplied_cells([0], line, enemy_occupied=set(), friendly_occupied={2, 3}, blocked={2}, max_length=2)
{0: 0, 1: 1, 2: 2}
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Container, Hashable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from typing import TypeVar

H = TypeVar("H", bound=Hashable)


def passable(
    cell: H, *, enemy_occupied: Container[H], friendly_occupied: Container[H], blocked: Container[H]
) -> bool:
    """Whether a supply line may enter ``cell``.

    ``blocked`` holds the cells a line may enter only with a friendly unit there: those in an enemy zone of
    control and the enemy's supply sources.
    """
    if cell in enemy_occupied:
        return False
    return cell in friendly_occupied or cell not in blocked


def supplied_cells(
    sources: Iterable[H],
    neighbours: Callable[[H], Iterable[H]],
    *,
    enemy_occupied: Container[H],
    friendly_occupied: Container[H],
    blocked: Container[H],
    max_length: int | None = None,
) -> dict[H, int]:
    """Every cell from which a supply line can be traced to one of ``sources``, with its shortest length.

    A source counts only when a line may enter it (:func:`passable`): an enemy-held source, or a vacant one in
    an enemy zone, supplies nobody (a vacant source supplies while no enemy unit is next to it).  A unit's own
    cell is friendly-held, so it is passable unless an enemy shares it.

    Properties (tested): adding a friendly unit never removes a cell; removing an enemy unit (from
    ``enemy_occupied`` and from the zone it exerted in ``blocked``) never removes a cell; raising
    ``max_length`` never removes a cell.
    """
    return reachable(sources, neighbours, _Closed(enemy_occupied, friendly_occupied, blocked), max_length)


class _Closed:
    """The cells a supply line may not enter, as one container: the negation of :func:`passable`."""

    __slots__ = ("blocked", "enemy", "friendly")

    def __init__(self, enemy: Container[H], friendly: Container[H], blocked: Container[H]) -> None:
        self.enemy, self.friendly, self.blocked = enemy, friendly, blocked

    def __contains__(self, cell: object) -> bool:
        return cell in self.enemy or (cell not in self.friendly and cell in self.blocked)


def reachable(
    sources: Iterable[H],
    neighbours: Callable[[H], Iterable[H]],
    closed: Container[H],
    max_length: int | None = None,
) -> dict[H, int]:
    """Every cell reached from ``sources`` through cells not in ``closed``, with its distance: the same search as
    :func:`supplied_cells` when the caller has already merged what blocks a line into one set of cells a line may
    not enter, ``enemy_occupied | (blocked - friendly_occupied)`` (an engine keeping those as sets does this in a
    few set operations, and then each step of the search asks one question instead of three).

    >>> line = {0: [1], 1: [0, 2], 2: [1, 3], 3: [2]}.__getitem__
    >>> reachable([0], line, closed={2})
    {0: 0, 1: 1}
    """
    if max_length is not None and max_length < 0:
        raise ValueError(f"max_length must be >= 0, not {max_length}")
    dist: dict[H, int] = {}
    queue: deque[H] = deque()
    for s in sources:
        if s not in dist and s not in closed:
            dist[s] = 0
            queue.append(s)
    while queue:
        cell = queue.popleft()
        d = dist[cell] + 1
        if max_length is not None and d > max_length:
            continue
        for n in neighbours(cell):
            if n not in dist and n not in closed:
                dist[n] = d
                queue.append(n)
    return dist


def flood(
    sources: AbstractSet[int],
    adjacent: Sequence[AbstractSet[int]],
    closed: AbstractSet[int],
    max_length: int | None = None,
) -> set[int]:
    """The cells of :func:`reachable` (without their distances), for an engine whose cells are integers and
    which keeps each cell's neighbours as a set in a table (``adjacent[cell]``).  Lines of any length need no
    distances, so the search is depth-first from a stack; with ``max_length`` it goes a ring at a time.

    >>> flood({0}, [{1}, {0, 2}, {1, 3}, {2}], closed={2})
    {0, 1}
    >>> sorted(flood({0}, [{1}, {0, 2}, {1, 3}, {2}], closed=set(), max_length=2))
    [0, 1, 2]
    """
    if max_length is not None and max_length < 0:
        raise ValueError(f"max_length must be >= 0, not {max_length}")
    seen = set(sources)
    seen -= closed
    if max_length is None:
        stack = list(seen)
        while stack:
            for n in adjacent[stack.pop()]:
                if n not in seen and n not in closed:
                    seen.add(n)
                    stack.append(n)
        return seen
    ring = seen
    for _ in range(max_length):
        ring = set().union(*map(adjacent.__getitem__, ring))
        ring -= seen
        ring -= closed
        if not ring:
            break
        seen |= ring
    return seen


def supply_path(
    cell: H,
    sources: Collection[H],
    neighbours: Callable[[H], Iterable[H]],
    *,
    enemy_occupied: Container[H],
    friendly_occupied: Container[H],
    blocked: Container[H],
    max_length: int | None = None,
) -> list[H] | None:
    """A shortest supply line from ``cell`` to a source (``cell`` first, the source last), or None.

    For explanations and findings; the engine itself only needs :func:`supplied_cells`.  Adjacency must be
    symmetric (it is on every grid), because the search runs from ``cell`` outwards.
    """

    def ok(c: H) -> bool:
        return passable(
            c, enemy_occupied=enemy_occupied, friendly_occupied=friendly_occupied, blocked=blocked
        )

    if not ok(cell):
        return None
    parent: dict[H, H | None] = {cell: None}
    depth = {cell: 0}
    queue: deque[H] = deque([cell])
    while queue:
        c = queue.popleft()
        if c in sources:
            path: list[H] = []
            at: H | None = c
            while at is not None:
                path.append(at)
                at = parent[at]
            return path[::-1]
        if max_length is not None and depth[c] >= max_length:
            continue
        for n in neighbours(c):
            if n not in parent and ok(n):
                parent[n] = c
                depth[n] = depth[c] + 1
                queue.append(n)
    return None
