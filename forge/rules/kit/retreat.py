"""Retreat and advance after combat, data-driven (``rules.retreat``): where a defender may retreat in a
position, and how far a unit may advance.

The rules read (all fields of :class:`forge.model.RetreatRules`): enemy units and enemy zones of control block
(``always``, ``unless-friendly``, ``never``); optionally a hex outside enemy zones must be preferred; enemy
supply sources block; units on a friendly source may retreat only into another; and special ``limits`` narrow
the choice on some turns (only into friendly sources or friendly-held hexes, not into hexes hit earlier).

Cells are any hashable values and adjacency is a function, as in :mod:`forge.rules.supply`.

>>> line = {0: [1], 1: [0, 2], 2: [1, 3], 3: [2]}.__getitem__
>>> r = RetreatRules(hexes=1, enemy_units="always", enemy_zoc="unless-friendly", enemy_sources="never",
...                  prefer_outside_enemy_zoc=True)
>>> retreat_hexes(r, 1, "red", line, friendly=set(), enemy={3})   # 2 is next to the enemy in 3
[0]
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable
from collections.abc import Set as AbstractSet
from typing import TypeVar

from ...model import RetreatLimit, RetreatRules

__all__ = ["RetreatRules", "advance_length", "in_terrain", "limits_in_force", "retreat_hexes"]

H = TypeVar("H", bound=Hashable)


def limits_in_force(rules: RetreatRules, *, side: str, turn: int | None, during: str | None) -> list[RetreatLimit]:
    """The special limits that apply to ``side`` retreating on ``turn`` in ``during``'s player turn."""
    out = []
    for lim in rules.limits:
        if lim.turns and (turn is None or turn not in lim.turns):
            continue
        if lim.side is not None and lim.side != side:
            continue
        if lim.during is not None and lim.during != during:
            continue
        out.append(lim)
    return out


def retreat_hexes(
    rules: RetreatRules,
    origin: H,
    side: str,
    neighbours: Callable[[H], Iterable[H]],
    *,
    friendly: Collection[H],
    enemy: Collection[H],
    own_sources: Collection[H] = (),
    enemy_sources: Collection[H] = (),
    hit: Collection[H] = (),
    turn: int | None = None,
    during: str | None = None,
    special: bool = True,
) -> list[H]:
    """The hexes next to ``origin`` into which ``side``'s units may retreat one hex, in the order
    ``neighbours`` gives them.  ``friendly``/``enemy``: cells holding units of each side; ``hit``: cells that
    suffered a hit earlier in the phase; ``special=False`` ignores the turn's special ``limits``.

    Properties (tested): every result is next to ``origin`` and holds no enemy unit; a result in an enemy zone
    is friendly-held (``unless-friendly``); the special limits only remove hexes from the open ones (free and
    zoned), though the preference for free hexes may then fall back on zoned ones.
    """
    for name in ("enemy_units", "enemy_zoc", "enemy_sources"):
        if getattr(rules, name) is None:
            raise ValueError(f"rules.retreat.{name} is not given: the book does not say what it does to a retreat")
    limits = limits_in_force(rules, side=side, turn=turn, during=during) if special else []
    from_source = origin in own_sources
    enemy_cells = enemy if isinstance(enemy, AbstractSet) else set(enemy)
    # the rules' choices read once (every retreat of a game asks; they are fields of a pydantic model)
    units_block = rules.enemy_units != "never"
    zoc, sources = rules.enemy_zoc, rules.enemy_sources
    zoc_always, zoc_unless = zoc == "always", zoc == "unless-friendly"
    src_always, src_unless = sources == "always", sources == "unless-friendly"
    only_own = from_source and rules.from_own_source == "own-source"
    free: list[H] = []
    zoned: list[H] = []
    around = list(neighbours(origin))
    for n in around:
        held = n in friendly
        if units_block and n in enemy:
            continue
        in_zoc = not enemy_cells.isdisjoint(neighbours(n))
        if in_zoc and (zoc_always or (zoc_unless and not held)):
            continue
        if (src_always or (src_unless and not held)) and n in enemy_sources:
            continue
        if only_own and n not in own_sources:
            continue
        if limits and any(not _limit_allows(lim, n, held=held, own_sources=own_sources, hit=hit) for lim in limits):
            continue
        (zoned if in_zoc else free).append(n)
    if rules.prefer_outside_enemy_zoc:
        return free or zoned
    return [n for n in around if n in free or n in zoned]


def _limit_allows(lim: RetreatLimit, n: H, *, held: bool, own_sources: Collection[H], hit: Collection[H]) -> bool:
    if lim.not_hit and n in hit:
        return False
    if lim.only_into:
        kinds = {"own-source": n in own_sources, "friendly-occupied": held}
        return any(kinds[k] for k in lim.only_into)
    return True


def advance_length(rules: RetreatRules | None, unit_class: str) -> int | None:
    """How many hexes a unit of ``unit_class`` may advance after combat (None: the rules do not say)."""
    if rules is None:
        return None
    key = unit_class.replace("_", "-")
    for k, v in rules.advance.items():
        if k.replace("_", "-") == key:
            return v
    return None


def in_terrain(rules: RetreatRules | None, terrain: Iterable[str]) -> tuple[list[str], list[str]] | None:
    """(results a defender in ``terrain`` may ignore, results it must still retreat on); None when no
    ``in_terrain`` entry covers that terrain."""
    if rules is None:
        return None
    ts = set(terrain)
    hits = [e for e in rules.in_terrain if ts & set(e.terrain)]
    if not hits:
        return None
    return sorted({r for e in hits for r in e.may_ignore}), sorted({r for e in hits for r in e.must})
