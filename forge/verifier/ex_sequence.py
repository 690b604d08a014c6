"""Positions carried through a worked sequence: a rulebook's worked turn is told as steps, each an example that
``follows`` the one before, and where an earlier step puts a unit still holds in a later one unless a step in
between moves it.

A step puts a unit in a hex when it states the hex it ends in: a move's or a retreat's ``to`` for its ``unit``, or
``advance_to`` for the units ``advancing``; a step whose sentence reads several ways (``readings``) puts it there
only when every reading does.  A movement, retreat or combat step that involves the unit without
saying where it ends leaves its position unknown from there on; odds and shifts steps move nobody.

Keys: ``states.enemy_hex`` (where the enemy unit ``given.enemy`` stands at this step).
"""

from __future__ import annotations

from typing import Any

from .. import model as m
from .core import Acc, Context, handles
from .readings import reading_examples

__all__ = ["carried_position"]

K = m.ExampleKind
_MOVES = (K.MOVEMENT, K.RETREAT, K.COMBAT)
"""Kinds of step that can move a unit (the others only read positions)."""
_UNIT_LISTS = ("units", "attackers", "defenders")


def _mentions(ex: m.Example, unit: str) -> bool:
    g = ex.given
    return (
        g.get("unit") == unit
        or any(unit in (g.get(k) or ()) for k in _UNIT_LISTS)
        or unit in (ex.states.get("advancing") or ())
    )


def _ends(ex: m.Example, unit: str) -> tuple[str, str] | None:
    """(states key, hex) where this step says ``unit`` ends, or None when it says nothing of it."""
    st = ex.states
    if unit in (st.get("advancing") or ()) and "advance_to" in st:
        return "advance_to", str(st["advance_to"])
    if ex.given.get("unit") == unit and isinstance(st.get("to"), str | int):
        return "to", str(st["to"])
    return None


def carried_position(game: m.Game, ex: m.Example, unit: str) -> tuple[m.Example, str, str | None] | None:
    """Where the steps before ``ex`` leave ``unit``: (the step that decides, its states key, the hex), the hex None
    when that step moves the unit without saying where it ends; None when no earlier step involves the unit."""
    by_id = {e.id: e for e in game.examples}
    seen = {ex.id}
    step = by_id.get(ex.follows) if ex.follows else None
    while step is not None and step.id not in seen:  # `forge check` refuses cycles; never loop on bad data
        seen.add(step.id)
        ends = {_ends(e, unit) for e in reading_examples(step)}
        end = ends.pop() if len(ends) == 1 else None
        if end is not None:
            return step, end[0], end[1]
        if ends or (step.kind in _MOVES and any(_mentions(e, unit) for e in reading_examples(step))):
            return step, "", None  # the step moves the unit, or its readings put it in different hexes
        step = by_id.get(step.follows) if step.follows else None
    return None


@handles(K.MOVEMENT, K.RETREAT, K.COMBAT, K.ODDS, K.SHIFTS, K.SUPPLY, K.CLAIM)
def ex_carried(ctx: Context, acc: Acc) -> None:
    """``enemy_hex``: the enemy unit's hex at this step, carried from the earlier steps of the sequence."""
    if "enemy_hex" not in acc.ex.states:
        return
    enemy: Any = acc.given("enemy")
    if enemy is None:
        acc.skip("enemy_hex", "the example does not name the enemy unit (given enemy), so no step can place it")
        return
    if acc.ex.follows is None:
        acc.skip("enemy_hex", f"the example is not tied to earlier steps (follows), so nothing places {enemy}")
        return
    found = carried_position(ctx.game, acc.ex, str(enemy))
    if found is None:
        acc.skip("enemy_hex", f"no earlier step of the worked sequence says where {enemy} stands", "book")
        return
    step, key, where = found
    if where is None:
        if len({_ends(e, str(enemy)) for e in reading_examples(step)}) > 1:
            acc.skip("enemy_hex", f"the readings of {step.id} put {enemy} in different hexes", "book")
        else:
            acc.skip("enemy_hex", f"{step.id} moves {enemy} without saying where it ends", "book")
        return
    acc.use(f"example:{step.id}:{key}")
    moved = "advances" if key == "advance_to" else "moves" if step.kind is K.MOVEMENT else "retreats"
    acc.check(
        "enemy_hex",
        where,
        f"{step.id} {moved} {enemy} to {where}, and no later step of the worked sequence moves it",
    )
