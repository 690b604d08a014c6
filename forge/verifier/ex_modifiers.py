"""Modifiers and fixed strengths: a table's die-roll modifiers, the defence of units caught alone in a hex, and
strength totals whose terms the book does not give.

Inputs read from ``given`` (docs/FORMAT.md, "Examples and claims"):

* ``table`` with ``table_modifiers: {states key: modifier id}`` -- the ``add`` of the table's modifier
  (:attr:`forge.model.Table.modifiers`);
* ``units`` with a ``defense_alone`` state -- the defence ``combat.alone_defense`` gives each unit.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import model as m
from .core import Acc, Context, handles, show
from .ex_move_rules import covers

K = m.ExampleKind


@handles(K.CLAIM, K.PROBABILITY)
def ex_table_modifiers(ctx: Context, acc: Acc) -> None:
    """A claim about a table's die-roll modifier, compared with the table's ``modifiers``."""
    spec = acc.given("table_modifiers")
    if not isinstance(spec, dict):
        return
    tid = str(acc.given("table"))
    table = next((t for t in ctx.game.tables if t.id == tid), None)
    if table is None:
        raise KeyError(f"table_modifiers needs a table: {tid!r} is not one")
    for key, mid in spec.items():
        if key not in acc.ex.states:
            raise KeyError(f"table_modifiers names {key!r}, which the example does not state")
        md = next((x for x in table.modifiers if x.id == str(mid)), None)
        if md is None:
            raise KeyError(f"table {tid!r} has no modifier {mid!r}")
        acc.use(f"path:tables[{tid}].modifiers[{md.id}].add")
        acc.check(str(key), md.add, f"tables[{tid}].modifiers[{md.id}].add = {md.add:+d} ({md.when})", how="data")


@handles(K.CLAIM, K.STRENGTH)
def ex_alone_defense(ctx: Context, acc: Acc) -> None:
    """The defence of units caught with no other unit in their hex (``combat.alone_defense``, first entry that
    covers the unit)."""
    key = "defense_alone"
    if key not in acc.ex.states or not acc.has("units"):
        return
    def alone(unit: m.Unit) -> int | None:
        hit = next((a for a in ctx.combat.alone_defense if covers(a, unit)), None)
        return hit.defense if hit is not None else None

    acc.use("path:combat.alone_defense")
    check_unit_values(ctx, acc, key, alone, ("type", "side"), "combat.alone_defense", none="none")


def check_unit_values(
    ctx: Context,
    acc: Acc,
    key: str,
    value_of: Callable[[m.Unit], int | None],
    fields: tuple[str, ...],
    source: str,
    *,
    none: str,
) -> None:
    """Compare a value the example states for all its ``units`` with each unit's ``value_of`` (which reads the
    unit's ``fields``): the one value they share; their sorted values when they differ; ``"<none> for <units>"``
    when some have none."""
    got: dict[str, int | None] = {}
    for uid in [str(u) for u in acc.given("units") or []]:
        unit = ctx.units.get(uid)
        if unit is None:
            raise KeyError(f"unit {uid!r} is not in the data")
        acc.use(*(f"path:units[{uid}].{f}" for f in fields))
        got[uid] = value_of(unit)
    missing = [u for u, v in got.items() if v is None]
    values = sorted({v for v in got.values() if v is not None})
    note = f"{source}: " + ", ".join(f"{u} {show(v) if v is not None else none}" for u, v in got.items())
    if missing:
        acc.check(key, f"{none} for {', '.join(missing)}", note, how="data")
    elif len(values) == 1:
        acc.check(key, values[0], note, how="data")
    else:
        acc.check(key, values, note, how="data")


@handles(K.STRENGTH)
def ex_untold_terms(ctx: Context, acc: Acc) -> None:
    """A stack's defence stated as a total only, where the example breaks down the attack unit by unit but gives no
    unit's defence: the terms of the sum are not in the book (run after :func:`.ex_combat.ex_strength`)."""
    st, g = acc.ex.states, acc.ex.given
    if "defense" not in st or "defense" not in acc.unchecked:
        return
    if any(k in g for k in ("defense_values", "unit_defense", "defense_printed", "defense")):
        return
    if "values" in g and "total" in st:
        acc.skip(
            "defense",
            "the example gives each unit's attack but only the stack's total defence: no unit's defence is given, so "
            "there is nothing to add up",
            "book",
        )
