"""Claims about infiltration (a step from one enemy zone straight into the next) and about a side's organisational
groups, recomputed with the rules kit.

* A claim whose ``states`` key is a mobility class with a ``rules.zoc.infiltration`` entry (``leg: "all MA"``) is
  measured on an open board: units of that class with printed allowances 2..10 step from one enemy-zone hex into
  an adjacent one, :func:`forge.rules.kit.movement.step_cost` charges them, and the rule the charges follow is
  put in a rulebook's words (:func:`forge.rules.kit.infiltration.describe`).
* ``given.groups_of: {states key: side}`` counts the side's organisational groups (``game.sides[].groups``, whose
  colours the counters print).
"""

from __future__ import annotations

from fractions import Fraction

from .. import model as m
from ..rules.kit import infiltration as kinf
from ..rules.kit import movement as mk
from ..rules.kit import zoc as kz
from .core import Acc, Context, handles, show
from .ex_movement import open_board

K = m.ExampleKind

__all__ = ["ex_activation", "ex_groups", "ex_infiltration", "infiltration_costs"]


def infiltration_costs(game: m.Game, mobility: str, mas: range = range(2, 11)) -> dict[tuple[int, int], object]:
    """(printed MA, terrain cost) -> MPs the kit charges a unit of ``mobility`` to step from an enemy-zone hex into
    an adjacent enemy-zone hex of open ground (an enemy unit in the middle of an open board)."""
    board = open_board(game)
    g = board.grid
    zr = game.rules.zoc or m.ZocRules()
    enemy = kz.middle(g)
    ezoc = kz.controlled(g, zr, [enemy], hexsides=board.sides)
    ring = g.neighbours(enemy)
    a = ring[0]
    b = next(n for n in ring if n != a and g.adjacent(a, n))
    out: dict[tuple[int, int], object] = {}
    for ma in mas:
        mv = mk.Mover(mobility, printed_ma=Fraction(ma))
        plain = mk.step_cost(game, board, mv, a, b)
        if not isinstance(plain, Fraction):
            continue
        out[(ma, int(plain))] = mk.step_cost(game, board, mv, a, b, ezoc=ezoc, enemy={enemy})
    return out


@handles(K.CLAIM)
def ex_infiltration(ctx: Context, acc: Acc) -> None:
    zr = ctx.game.rules.zoc
    if zr is None or not zr.infiltration:
        return
    for key, stated in acc.ex.states.items():
        if key not in ctx.game.game.mobility_classes or kinf.rule_for(zr, key) is None:
            continue
        costs = infiltration_costs(ctx.game, key)
        got = kinf.describe(costs)
        acc.use("path:rules.zoc.infiltration", "terrain:*:movement")
        acc.check_value(
            key,
            stated,
            got,
            "a step from one enemy-zone hex into the next on open ground, for printed MAs 2-10: "
            + ", ".join(f"MA {ma}: {show(v)}" for (ma, _), v in sorted(costs.items())[:4])
            + " ...",
        )


@handles(K.CLAIM)
def ex_groups(ctx: Context, acc: Acc) -> None:
    if not acc.has("groups_of"):
        return
    for key, side in dict(acc.ex.given["groups_of"]).items():
        sides = {s.id: s for s in ctx.game.game.sides}
        if side not in sides:
            acc.skip(key, f"no side {side!r}")
            continue
        acc.use(f"path:game.sides[{side}].groups")
        acc.check(key, len(sides[side].groups), f"organisational groups of game.sides[{side}]", how="data")


@handles(K.CLAIM)
def ex_activation(ctx: Context, acc: Acc) -> None:
    """``activated``: what contact with a held unit frees at once (``special_rules[].activates`` of the example's
    rule), in words; ``given.group_word`` is the book's name for an organisational group (``corps``)."""
    if "activated" not in acc.ex.states:
        return
    rules = [r for r in ctx.game.special_rules if r.rule == acc.ex.rule]
    if len(rules) != 1:
        acc.skip("activated", f"no single special rule {acc.ex.rule} in special_rules")
        return
    sr = rules[0]
    word = str(acc.given("group_word", "group"))
    words = {"unit": "only that unit", "group": f"all units of that {word}", "all": "all units the rule holds"}
    acc.use(f"path:special_rules[{sr.rule}].activates")
    acc.check(
        "activated",
        words.get(sr.activates or "", "nothing (contact frees no unit)"),
        f"special_rules[{sr.rule}].activates: {sr.activates or 'none'}",
        how="data",
    )


# ============================================================================================== reasons
_HISTORY = "history of the battle told in the background, not a rule or component of the game"

_WHY: dict[str, tuple[str, str]] = {
    "fronts_met": (_HISTORY, "context"),
    "comparison": (_HISTORY, "context"),
    "eliminated_rebuild_steps": ("which eliminated units may come back is a condition in words; the book gives no "
    "order of battle (the encircled infantry and their steps) to apply it to", "book"),
    "combat_penalty": ("a judgement in words ('severe'); the x1/2 it stands for is recomputed (values), and the "
    "data's doubt shows it is mild for small units", "context"),
    "row_without_engineer": ("7.4 applies only the defender's best terrain; whether the river row beats the clear "
    "row is read from CRT rows the book does not print, so no engine procedure picks the row", "book"),
    "row_used": ("7.4 applies only the defender's best terrain; whether the bridge row beats the clear row is read "
    "from CRT rows the book does not print, so no engine procedure picks the row", "book"),
    "troops_min": ("how many men a counter stands for: the design's scale, which no rule uses", "context"),
    "troops_max": ("how many men a counter stands for: the design's scale, which no rule uses", "context"),
    "without_c1": ("the column of the attack without the C1 divisions needs the strengths of the units in B1, C1 "
    "and B2, which the rulebook does not give", "book"),
}
"""Why a claim's key stays unchecked when no handler recomputed it (the reason and its category), keyed by the
``states`` key."""


@handles(*K)
def ex_reasons(ctx: Context, acc: Acc) -> None:
    """Give the keys no handler recomputed so far a precise reason (a later handler that recomputes one still wins)."""
    st = acc.ex.states
    axes = [k for k in st if k.startswith("column_axis")]
    for key in st:
        if key in acc.done:
            continue
        if key in _WHY:
            acc.skip(key, *_WHY[key])
        elif key in axes or (key == "examples" and axes):
            acc.skip(
                key,
                "how the book's words read the CRT's axes: the book contradicts itself (see the doubt), and the CRT "
                "is not printed, so the data cannot decide between them",
                "book",
            )
        elif key == "benefit" and acc.has("hex_terrain"):
            t = str(acc.ex.given["hex_terrain"])
            acc.skip(
                key,
                (
                    f"this game's data has no {t} terrain (the standard rules' illustration); "
                    if t not in ctx.game.terrain
                    else ""
                )
                + "which terrain benefits the defender more is read from CRT rows the book does not print",
                "book",
            )
