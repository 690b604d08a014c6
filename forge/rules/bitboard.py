"""Sets of hexes as integer bit masks, the representation python-chess uses for the squares of a chess board.

A game's hexes are numbered ``0 .. n-1`` (:class:`forge.rules.board.Board`); a set of them is the int whose bit
``h`` is set for each hex ``h`` in it (``1 << h``).  Union, intersection and difference are then ``|``, ``&`` and
``& ~``, each a single operation on a machine word or two, where a Python ``set`` pays per element.  A small map of
49 hexes makes every set of its hexes one small int.

:class:`Masks` holds the tables of one board: each hex's bit (``bit[h]``, python-chess's ``BB_SQUARES``), the
mask of its neighbours (``neighbours[h]``) and :attr:`Masks.spread`, the union of the neighbours of every hex of a
mask at once.  On a grid numbered row by row (every grid the engine builds), a neighbour sits at a fixed offset
``d`` from its hex (+1: the next in the row; +-rows and +-rows+-1: the rows above and below), so the union of the
neighbours of a mask is a handful of shifts: ``(mask & has_d) << d`` for each offset ``d``, where ``has_d`` masks the
hexes that have a neighbour at offset ``d`` (which keeps the first and last column, row or hex from wrapping
around).  The offsets and their masks are read from the board's neighbour table, so the result is exactly the
table's union whatever the grid; a table with many offsets (an irregular numbering) falls back to a loop over the
mask's hexes.

With spreads, a zone of control is ``spread(enemy)`` and a supply search is a flood: the hexes reached grow
by ``spread(reached) & open`` until they stop growing (:func:`flood`), one ring per step.

>>> m = Masks.of([(1,), (0, 2), (1, 3), (2,)])          # four hexes in a row
>>> hexes(m.spread(0b0001)), hexes(m.spread(0b0101))
((1,), (1, 3))
>>> hexes(flood(0b0001, 0b1011, m.spread))               # hex 2 is closed: 3 is cut off
(0, 1)
>>> hexes(flood(0b0001, 0b1111, m.spread, max_length=2))
(0, 1, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

__all__ = ["HEXES", "Masks", "flood", "hexes", "mask_of"]

_MAX_OFFSETS = 12
"""Above this many distinct neighbour offsets, :attr:`Masks.spread` loops over the hexes of its mask instead."""


class _Hexes(dict[int, tuple[int, ...]]):
    """mask -> its hexes in ascending order, filled on first use (a game's masks recur: the same few neighbour
    sets, targets and destinations come up again and again).  Emptied when it grows past :data:`_HEXES_LIMIT`
    masks, so memory stays bounded."""

    def __missing__(self, mask: int) -> tuple[int, ...]:
        if len(self) >= _HEXES_LIMIT:
            self.clear()
        found = self[mask] = hexes(mask)
        return found


_HEXES_LIMIT = 1 << 16
HEXES = _Hexes()
"""mask -> its hexes, ascending (the order of the board's tables): ``HEXES[mask]``, a dict lookup once a mask has
been seen.  The engine's hot loops index it with masks of a bounded family (subsets of one hex's neighbours), which
recur; a mask of any hexes (the units' positions, a set of targets) is better read with :func:`hexes`."""


def hexes(mask: int) -> tuple[int, ...]:
    """The hexes of ``mask``, ascending (the order of the board's tables)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def mask_of(cells: Iterable[int]) -> int:
    """The mask of a collection of hex indices."""
    m = 0
    for h in cells:
        m |= 1 << h
    return m


@dataclass(frozen=True, eq=False)
class Masks:
    """The bit-mask tables of one board (see the module's docstring)."""

    full: int
    """Every hex of the board."""
    bit: tuple[int, ...]
    """``1 << h`` for each hex ``h``."""
    neighbours: tuple[int, ...]
    """The mask of each hex's neighbours."""
    offsets: tuple[tuple[int, int], ...]
    """(offset ``d``, mask of the hexes with a neighbour at ``h + d``), for :attr:`spread`."""
    spread: Callable[[int], int]
    """mask -> the union of the neighbours of its hexes (a hex of the mask is in it only when next to another)."""

    @classmethod
    def of(cls, neighbours: Sequence[Sequence[int]]) -> Masks:
        """The tables of a board whose hex ``h`` has the neighbours ``neighbours[h]``."""
        n = len(neighbours)
        nb = tuple(mask_of(x) for x in neighbours)
        by_offset: dict[int, int] = {}
        for h, cells in enumerate(neighbours):
            for c in cells:
                by_offset[c - h] = by_offset.get(c - h, 0) | (1 << h)
        offsets = tuple(sorted(by_offset.items()))
        spread = _shifts(offsets) if len(offsets) <= _MAX_OFFSETS else _by_hex(nb)
        return cls((1 << n) - 1, tuple(1 << h for h in range(n)), nb, offsets, spread)


def _shifts(offsets: tuple[tuple[int, int], ...]) -> Callable[[int], int]:
    """``spread`` as one expression of shifts, ``((m & has_d) << d) | ...``, with the board's offsets and masks
    written in as constants (a loop over the pairs costs half as much again as the shifts themselves).  It is
    generated, as dataclasses and namedtuple generate their methods, because the offsets are the board's."""
    terms = [f"((m & {has}) << {d})" if d > 0 else f"((m & {has}) >> {-d})" for d, has in offsets]
    source = f"def spread(m):\n    return {' | '.join(terms) or '0'}\n"
    namespace: dict[str, Callable[[int], int]] = {}
    exec(source, namespace)  # the source is built above from integers only
    return namespace["spread"]


def _by_hex(nb: tuple[int, ...]) -> Callable[[int], int]:
    """``spread`` for a board whose numbering has too many offsets for shifts: one OR per hex of the mask."""

    def spread(m: int) -> int:
        out = 0
        for h in hexes(m):
            out |= nb[h]
        return out

    return spread


def flood(sources: int, open_: int, spread: Callable[[int], int], max_length: int | None = None) -> int:
    """The hexes of ``open_`` reached from the open hexes of ``sources`` by steps between neighbours that stay in
    ``open_`` (:func:`forge.rules.supply.reachable` without the distances), at most ``max_length`` steps when
    given.  Each round adds the open neighbours of everything reached so far: a ring of hexes."""
    if max_length is not None and max_length < 0:
        raise ValueError(f"max_length must be >= 0, not {max_length}")
    reached = sources & open_
    if max_length is None:
        while True:
            grown = (spread(reached) & open_) | reached
            if grown == reached:
                return reached
            reached = grown
    for _ in range(max_length):
        grown = (spread(reached) & open_) | reached
        if grown == reached:
            break
        reached = grown
    return reached
