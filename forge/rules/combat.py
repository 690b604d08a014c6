"""The combat engine: CRT columns, column shifts, strengths and exact outcome distributions.

Pure and data-driven: everything comes from the model (:class:`forge.model.Crt`, :class:`~forge.model.Shift`,
:class:`~forge.model.ShiftCap`, :class:`~forge.model.Modifier`), and all arithmetic is exact
(:class:`fractions.Fraction`).  Nothing here knows a particular game; where a game's rule is not in the model
(magnitude thresholds, halving only once) it is a keyword argument with the default documented.

Four systems are covered:

* **odds** CRTs: :func:`column_for_odds`, then :func:`apply_shifts`;
* **differential** CRTs, optionally with terrain sections: :func:`column_for_diff`;
* **magnitude** CRTs: a primary die read as a result code plus secondary dice read as
  attacker/defender losses: :func:`magnitude_distribution`;
* **dice pools**: :mod:`forge.rules.dicepool`.

Outcomes are distributions ``{outcome: probability}`` that sum to exactly 1.  A CRT cell is "better for the
attacker" than another when it is no worse on every count (defender steps and retreat not lower, attacker steps and
retreat not higher; an elimination counts as every step and any retreat, an exchange as what the defender lost):
:func:`compare_for_attacker`, a partial order.

What an engine calls around one combat: :func:`applicable_shifts` (the shifts a combat's facts apply, conditions
read by :mod:`forge.rules.kit.conditions`), :func:`combat_strength` (modifiers, rounded per unit or on the total),
:func:`column_for_odds` / :func:`column_for_diff` and :func:`apply_shifts` (the CRT's ``below``/``above``: an
automatic result, a column, or :data:`NO_EFFECT`), then for the result :func:`attacker_choices`,
:func:`exchange_losses`, :func:`advance_after`, and before an attack :func:`may_attack`.

>>> from forge.model import Crt
>>> crt = Crt(columns=["1:1", "2:1", "3:1+"], rows=["1-3", "4-6"], cells=[["0/0", "0/1", "1/2"], ["0/1", "1/1", "1/2"]],
...           cell_format="hits-normal/all-out")
>>> column_for_odds(crt, 7, 3).label
'2:1'
>>> apply_shifts(crt.columns, 1, [2]).label
'3:1+'
>>> distribution(crt, "2:1")
{0: Fraction(1, 2), 1: Fraction(1, 2)}
"""

from __future__ import annotations

import functools
import math
import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, NamedTuple

from ..model import (
    AutoResult,
    CellFormat,
    Crt,
    DieModifier,
    LeaderEffect,
    Modifier,
    Phase,
    ResultCode,
    ResultConversion,
    Reroll,
    Shift,
    ShiftCap,
    TerrainType,
    Unknown,
)
from ..notation import DiffColumn, OddsColumn, fraction, row_range  # row_range: re-exported
from .kit.conditions import Situation, UnitFacts, holds

Attack = Literal["normal", "all-out"]
Role = Literal["attacking", "defending"]
Number = int | Fraction

UNKNOWN_CELL = "?"

MAGNITUDE_STEPS: tuple[tuple[int, int], ...] = ((1, 1), (4, 2), (6, 3))
"""Default magnitude thresholds (a magnitude CRT's usual dice rule): fewest steps on either side 1-3 -> 1 die,
4-5 -> 2, 6+ -> 3."""


class UnknownValueError(ValueError):
    """A computation needs a value the rulebook does not give (a ``?`` cell, an unknown strength or loss)."""


# ====================================================================================================== columns
@dataclass(frozen=True)
class ColumnPick:
    """Where a combat lands on the CRT, before or after shifts.

    ``index``/``label`` name the column (None when the combat is off the table).  ``off`` says ``"below"`` or
    ``"above"`` when the combat fell off an end of the table; ``result`` is then the automatic result the CRT gives
    there (``AL1``, ``DL1+DR``), and ``index`` the column it is resolved on if the CRT says so (``above:
    {column: 5-1}``).  ``ratio`` is attack/defence (odds CRTs) or the differential.
    """

    index: int | None
    label: str | None
    ratio: Fraction | None = None
    off: Literal["below", "above"] | None = None
    result: str | None = None
    note: str = ""

    @property
    def automatic(self) -> bool:
        """True when no die is rolled: the CRT gives a result off its end."""
        return self.result is not None


def odds_ratio(attack: Number, defense: Number) -> Fraction:
    """attack/defense as an exact fraction.

    >>> odds_ratio(27, 7)
    Fraction(27, 7)
    """
    if defense <= 0:
        raise ValueError(f"a defence strength must be positive to form odds, not {defense}")
    if attack < 0:
        raise ValueError(f"an attack strength cannot be negative, not {attack}")
    return Fraction(attack) / Fraction(defense)


def _open_ended(label: str) -> bool:
    s = label.strip()
    return s.endswith("+") or s.endswith("or more")


def _odds_upper(col: OddsColumn) -> Fraction:
    """Exclusive upper end of a last column that is not open (``7:1``, ``6:1-7:1``): the next odds step."""
    body = col.label.strip().lstrip("<").rstrip("+").strip()
    top = col.low
    if ":" in body and "-" in body:
        top = OddsColumn.parse(body.split("-", 1)[1]).low
    elif body.count("-") == 3:
        top = OddsColumn.parse("-".join(body.split("-")[2:])).low
    if top >= 1:
        return Fraction(math.floor(top) + 1)
    # 1:3 -> 1:2, 1:2 -> 1:1: the next ratio of the form 1:n
    n = math.ceil(1 / top)
    return Fraction(1, n - 1) if n > 1 else Fraction(2)


NO_EFFECT = "no effect"
"""The :attr:`ColumnPick.result` of an attack off the table that has no effect (``no_effect`` of
:class:`~forge.model.AutoResult`)."""


def _auto(end: AutoResult | None, columns: Sequence[str], side: Literal["below", "above"]) -> ColumnPick | None:
    if end is None:
        return None
    if end.no_effect:
        return ColumnPick(None, None, off=side, result=NO_EFFECT, note=f"{side} the table: the attack has no effect")
    if end.column is not None and end.column in columns:
        i = list(columns).index(end.column)
        return ColumnPick(
            i, end.column, off=side, result=end.result, note=f"{side} the table: resolved on {end.column}"
        )
    if end.result is not None:
        return ColumnPick(None, None, off=side, result=end.result, note=f"{side} the table: automatic {end.result}")
    return None


def _off(crt: Crt, side: Literal["below", "above"], ratio: Fraction | None) -> ColumnPick:
    end = crt.below if side == "below" else crt.above
    pick = _auto(end, crt.columns, side)
    if pick is not None:
        return ColumnPick(pick.index, pick.label, ratio, pick.off, pick.result, pick.note)
    i = 0 if side == "below" else len(crt.columns) - 1
    return ColumnPick(
        i,
        crt.columns[i],
        ratio,
        side,
        None,
        f"{side} the table, which gives no result there: clamped to {crt.columns[i]}",
    )


@functools.lru_cache(maxsize=64)
def _odds_columns(labels: tuple[str, ...]) -> tuple[OddsColumn, ...]:
    """The parsed headings of an odds CRT (parsed once: the play engine asks for a new ratio's column mid-game)."""
    return tuple(OddsColumn.parse(c) for c in labels)


def column_for_odds(crt: Crt, attack: Number, defense: Number) -> ColumnPick:
    """The odds column a combat of ``attack`` against ``defense`` falls in, before shifts.

    Odds round down: the ratio falls in the highest column whose lower odds it reaches (``4:1-5:1`` covers 4 up to
    the next column's 6).  A ``<1:1`` first column takes every ratio under 1.  Above an open last column (``8:1+``)
    everything stays in it; above a closed one (``7:1``) and below the first, the CRT's ``above``/``below`` decide:
    an automatic result, a column to use, or -- when the data gives neither -- the end column, said in the note.
    A defence of 0 counts as above the table.

    >>> from forge.model import Crt
    >>> crt = Crt(columns=["1:2", "1:1", "2:1", "7:1"], rows=["1"], cells=[["AS", "DR", "DR", "DE"]],
    ...           below={"result": "AL1"}, above={"result": "DL1+DR"})
    >>> [column_for_odds(crt, a, 4).label for a in (2, 3, 4, 9, 28)]
    ['1:2', '1:2', '1:1', '2:1', '7:1']
    >>> column_for_odds(crt, 1, 4).result, column_for_odds(crt, 32, 4).result
    ('AL1', 'DL1+DR')
    """
    cols = _odds_columns(tuple(crt.columns))
    if defense == 0:
        return _off(crt, "above", None)
    ratio = odds_ratio(attack, defense)
    best: int | None = None
    for i, c in enumerate(cols):
        if not c.below and ratio >= c.low:
            best = i
    if best is None:
        if cols[0].below:
            return ColumnPick(0, crt.columns[0], ratio)
        return _off(crt, "below", ratio)
    last = len(cols) - 1
    if best == last and not _open_ended(crt.columns[last]) and ratio >= _odds_upper(cols[last]):
        return _off(crt, "above", ratio)
    return ColumnPick(best, crt.columns[best], ratio)


def column_for_diff(crt: Crt, diff: int) -> ColumnPick:
    """The differential column for attack minus defence ``diff``: the highest column whose value it reaches.

    ``<=-4`` (a first ``below`` column) takes everything at or under -4; ``+10+`` everything from 10 up.  Past a
    closed end the CRT's ``below``/``above`` decide, as in :func:`column_for_odds`.

    >>> from forge.model import Crt
    >>> crt = Crt(columns=["<=-2", "-1", "0", "+1", "+3+"], rows=["1"], cells=[["A1", "A1", ".", "D2", "DE"]])
    >>> [column_for_diff(crt, d).label for d in (-7, -1, 0, 2, 12)]
    ['<=-2', '-1', '0', '+1', '+3+']
    """
    cols = [DiffColumn.parse(c) for c in crt.columns]
    best: int | None = None
    for i, c in enumerate(cols):
        if not c.below and diff >= c.low:
            best = i
    if best is None:
        if cols[0].below and diff <= cols[0].low:
            return ColumnPick(0, crt.columns[0], Fraction(diff))
        if cols[0].below:  # between the below column and the next one: a gap in the table
            return ColumnPick(0, crt.columns[0], Fraction(diff), note="in a gap after the first column")
        return _off(crt, "below", Fraction(diff))
    last = len(cols) - 1
    if best == last and not _open_ended(crt.columns[last]) and diff > cols[last].low:
        return _off(crt, "above", Fraction(diff))
    return ColumnPick(best, crt.columns[best], Fraction(diff))


def column_index(crt: Crt, column: str | int) -> int:
    """Index of a column given by label or index."""
    if isinstance(column, int):
        if not 0 <= column < len(crt.columns):
            raise IndexError(f"column {column} is not on a CRT of {len(crt.columns)} columns")
        return column
    try:
        return list(crt.columns).index(column)
    except ValueError:
        raise ValueError(f"{column!r} is not a column of the CRT ({', '.join(crt.columns)})") from None


# ======================================================================================================= shifts
@dataclass(frozen=True)
class ShiftResult(ColumnPick):
    """A column after shifts.  ``raw`` is the plain sum of the shifts, ``net`` the sum after caps, ``capped`` the
    caps that cut it (rule and columns removed), ``overflow`` how many columns the net shift ran past an end of the
    table (a game may count those towards an automatic high-odds result)."""

    raw: int = 0
    net: int = 0
    capped: tuple[str, ...] = ()
    overflow: int = 0


def _cap_applies(cap: ShiftCap, *, turn: int | None, party: str, given_role: str, side: str | None) -> bool:
    """Whether ``cap`` protects ``party`` (attacking or defending) in this combat."""
    if cap.turns is not None and (turn is None or turn not in cap.turns):
        return False
    if cap.role != "both" and cap.role != party:
        return False
    if cap.side is None:
        return True
    if side is None:
        return False  # the cap protects one side and we do not know who fights: be conservative, do not cap
    # ``side`` fights in ``given_role``; the other party is the other side
    return cap.side == side if party == given_role else cap.side != side


def apply_shifts(
    columns: Sequence[str],
    start_index: int,
    shifts: Iterable[Shift | int | tuple[str, int]],
    caps: Iterable[ShiftCap] = (),
    *,
    turn: int | None = None,
    side: str | None = None,
    role: Role = "attacking",
    below: AutoResult | None = None,
    above: AutoResult | None = None,
) -> ShiftResult:
    """Move ``start_index`` by the **sum** of ``shifts`` (positive = right, towards the attacker).

    Shifts are summed before they move the column, then clamped once: +2 and -3 from the last column net one
    column left, which clamping after each shift would get wrong.

    ``caps`` limit the columns a group of shift ids can move the odds against one party.  A shift to the left is
    adverse to the attacker, a shift to the right adverse to the defender; a cap with ``role`` attacking limits the
    group's leftward total, defending the rightward total, both limits each.  ``side``/``role`` say who fights:
    ``side`` is the side that is ``role`` (``side="german", role="attacking"``); the other party is taken to be the
    other side (two-sided games).  A cap naming a side applies only when ``side`` is given; a cap limited to turns
    only when ``turn`` is.  Caps whose condition exists only in words (``when``) are the caller's to filter.

    Ends: shifting past the right end gives ``above``'s result or column if the CRT has one, else the last column;
    past the left end ``below``'s (an odds CRT whose ``below`` is ``AL1`` gives ``AL1`` when shifted off its left
    end), else the first column.  ``overflow`` counts the columns that ran off.

    >>> cols = ["<1:1", "1:1", "3:2", "2:1", "3:1", "4:1-5:1", "6:1-7:1", "8:1+"]
    >>> r = apply_shifts(cols, 7, [2, -1, -1, -1])
    >>> r.label, r.net
    ('6:1-7:1', -1)
    >>> cap = ShiftCap(shifts=["oos"], max_columns=1, turns=[1], side="german", role="attacking")
    >>> apply_shifts(cols, 3, [("oos", -2), ("woods", -1)], [cap], turn=1, side="german").label
    '1:1'
    """
    values: list[tuple[str, int]] = []
    for k, s in enumerate(shifts):
        if isinstance(s, Shift):
            values.append((s.id, s.shift))
        elif isinstance(s, tuple):
            values.append((str(s[0]), int(s[1])))
        else:
            values.append((f"#{k}", int(s)))
    raw = sum(v for _, v in values)
    effective = [v for _, v in values]
    notes: list[str] = []
    for cap in caps:
        members = set(cap.shifts)
        for party, sign in (("attacking", -1), ("defending", 1)):
            if not _cap_applies(cap, turn=turn, party=party, given_role=role, side=side):
                continue
            idx = [i for i, (sid, _) in enumerate(values) if sid in members and effective[i] * sign > 0]
            total = sum(effective[i] for i in idx) * sign
            excess = total - cap.max_columns
            if excess <= 0:
                continue
            # take the excess off the largest members first (deterministic, and the sum is what counts)
            for i in sorted(idx, key=lambda i: (-abs(effective[i]), i)):
                cut = min(excess, abs(effective[i]))
                effective[i] -= sign * cut
                excess -= cut
                if excess == 0:
                    break
            notes.append(f"{cap.rule or 'cap'}: {', '.join(sorted(members))} limited to {cap.max_columns} column(s)")
    net = sum(effective)
    target = start_index + net
    last = len(columns) - 1
    if 0 <= target <= last:
        return ShiftResult(target, columns[target], raw=raw, net=net, capped=tuple(notes))
    side_off: Literal["below", "above"] = "below" if target < 0 else "above"
    overflow = -target if target < 0 else target - last
    pick = _auto(below if target < 0 else above, columns, side_off)
    if pick is None:
        i = 0 if target < 0 else last
        pick = ColumnPick(i, columns[i], off=side_off, note=f"shifted {side_off} the table: clamped to {columns[i]}")
    return ShiftResult(
        pick.index,
        pick.label,
        None,
        pick.off,
        pick.result,
        pick.note,
        raw=raw,
        net=net,
        capped=tuple(notes),
        overflow=overflow,
    )


@dataclass(frozen=True)
class ShiftVerdicts:
    """Which shifts a combat's facts apply (:func:`applicable_shifts`)."""

    apply: tuple[str, ...]
    skip: tuple[str, ...]
    unknown: dict[str, str]
    """Shift id -> why its condition cannot be decided (a fact not known, a condition only in words)."""


def applicable_shifts(shifts: Iterable[Shift], situation: Situation) -> ShiftVerdicts:
    """The shifts whose conditions hold in ``situation`` (:func:`forge.rules.kit.conditions.holds`), those whose
    conditions do not, and those it cannot decide.  A shift without a condition, or with a :data:`~forge.rules.kit.
    conditions.DECLARED` fact, applies only where ``situation.declared`` names it (its id or the fact); a
    ``defender-terrain`` shift where ``situation.terrain_shifts`` does.  An engine passes what :func:`apply_shifts`
    then sums.

    >>> from forge.model import Shift
    >>> mud = Shift(id="mud", when="mud", shift=-1, condition="mud")
    >>> kg = Shift(id="kg", when="a KG marker near", shift=1)
    >>> v = applicable_shifts([mud, kg], Situation(weather="mud"))
    >>> v.apply, v.unknown
    (('mud',), {'kg': 'a condition in words'})
    >>> applicable_shifts([mud, kg], Situation(weather="snow", declared=frozenset({"kg"}))).apply
    ('kg',)
    """
    yes: list[str] = []
    no: list[str] = []
    why: dict[str, str] = {}
    for sh in shifts:
        if sh.condition is None:
            if situation.declared is None:
                why[sh.id] = "a condition in words"
            else:
                (yes if sh.id in situation.declared else no).append(sh.id)
            continue
        v = holds(sh.condition, situation, ident=sh.id)
        if v.value is None:
            why[sh.id] = v.why
        else:
            (yes if v.value else no).append(sh.id)
    return ShiftVerdicts(tuple(yes), tuple(no), why)


# ===================================================================================================== strength
@dataclass(frozen=True)
class Fighter:
    """One unit's part in a combat, for :func:`combat_strength`.

    ``strength`` is the printed value that counts (None: unknown); ``conditions`` the per-unit engine keys that
    hold for it (``across-river``, ``attacker-unsupplied`` ...)."""

    strength: Number | None
    unit_type: str | None = None
    conditions: frozenset[str] = frozenset()
    label: str = ""
    facts: UnitFacts | None = None
    """What conditions may ask about the unit (its side, supply, hexsides crossed): see
    :mod:`forge.rules.kit.conditions`."""


@dataclass(frozen=True)
class StrengthTotal:
    """A side's modified strength: per unit, the stack bonus and the total (None when any input is unknown)."""

    total: Fraction | None
    values: tuple[Fraction | None, ...]
    applied: tuple[tuple[str, ...], ...]
    """Modifier ids applied to each unit."""
    bonus: Fraction = Fraction(0)
    """Stack-wide additive bonus (already in ``total``)."""
    stack_applied: tuple[str, ...] = ()


def modifier_applies(
    mod: Modifier,
    *,
    role: Literal["attacker", "defender"],
    unit_type: str | None,
    defender_terrain: Collection[str] | None,
    conditions: Collection[str],
    situation: Situation | None = None,
    unit: UnitFacts | None = None,
) -> bool | None:
    """Whether ``mod`` changes a unit: True, False, or None when it depends on something unknown (the terrain).

    The condition holds when its key is among ``conditions`` (the facts the caller states); else, given a
    ``situation``, as :func:`forge.rules.kit.conditions.holds` finds it for ``unit`` (None: the unit's facts, or
    the situation's, are not known); without one, a key not in ``conditions`` does not hold."""
    if mod.role != role:
        return False
    if mod.unit_types is not None and (unit_type is None or unit_type not in {t.value for t in mod.unit_types}):
        return False
    cond = mod.condition
    if cond is not None and not (isinstance(cond, str) and cond in conditions):
        if situation is None:
            return False
        verdict = holds(cond, situation, unit=unit, role=role).value
        if verdict is False:
            return False
        if verdict is None:
            return None
    if mod.terrain is not None:
        if defender_terrain is None:
            return None
        if not set(mod.terrain) & set(defender_terrain):
            return False
    return True


def combat_terrain(terrain: Mapping[str, TerrainType], base: str | None, features: Iterable[str] = ()) -> set[str]:
    """The terrain ids a defender's hex fights as: its base terrain and features, except that a feature with a
    combat effect of its own (a shift or a defence change) stands in for the base terrain: tanks attacking a city
    feature in a clear hex are doubled by the city alone, not doubled and tripled.

    >>> from forge.model import TerrainType
    >>> types = {"clear": TerrainType(name="Clear"),
    ...          "city": TerrainType(name="City", kind="feature", combat={"shift": -1})}
    >>> sorted(combat_terrain(types, "clear", ["city"])), sorted(combat_terrain(types, "clear", []))
    (['city'], ['clear'])
    """
    feats = set(features)

    def strong(tid: str) -> bool:
        t = terrain.get(tid)
        return t is not None and bool(t.combat.shift or t.combat.defense_multiplier or t.combat.defense_bonus)

    if any(strong(f) for f in feats):
        return feats
    return feats | ({base} if base is not None else set())


def _round(x: Fraction, how: str) -> Fraction:
    if how == "up":
        return Fraction(math.ceil(x))
    if how == "down":
        return Fraction(math.floor(x))
    return x


def _capped_bonus(mod: Modifier, cap_groups: dict[int, Fraction]) -> Fraction:
    """``mod``'s additive bonus, limited by what its cap group has left (and charged to that group)."""
    a = Fraction(mod.add or 0)
    if mod.cap is not None:
        a = max(Fraction(0), min(a, Fraction(mod.cap) - cap_groups[mod.cap]))
        cap_groups[mod.cap] += a
    return a


def combat_strength(
    fighters: Sequence[Fighter],
    modifiers: Iterable[Modifier],
    *,
    role: Literal["attacker", "defender"],
    defender_terrain: Collection[str] | None,
    conditions: Collection[str] = (),
    rounding: Literal["up", "down", "none"] | None = None,
    distinct_multipliers: bool = False,
    bonus_cap: Fraction | None = None,
    situation: Situation | None = None,
) -> StrengthTotal:
    """A side's total strength after ``modifiers``.

    Per unit: multiply by every applicable multiplier, then round once (``rounding``, else the rounding of the
    applied modifiers -- ``up`` if any says up -- else exact); with ``distinct_multipliers`` equal multipliers count
    once (a strength is never halved twice).  Then additive modifiers: ``per_unit`` ones on each unit, the others
    once on the stack; modifiers sharing a ``cap`` add at most that much together, and ``bonus_cap`` limits all
    stack bonuses (e.g. at most twice the printed strength -- pass it).  ``conditions`` are engine keys
    that hold for every unit (a unit's own are in :attr:`Fighter.conditions`); a ``situation`` decides the other
    conditions (:func:`modifier_applies`).  A multiplier with ``per_unit`` false multiplies the side's total, which
    is then rounded once (its ``rounding``, or ``rounding``): "halved, fractions dropped, after adding up".

    >>> tank = Modifier(id="tank", role="attacker", when="tank vs clear", unit_types=["armour"], terrain=["clear"],
    ...                 multiply="3")
    >>> combat_strength([Fighter(2, "armour"), Fighter(3, "infantry")], [tank], role="attacker",
    ...                 defender_terrain={"clear"}).total
    Fraction(9, 1)
    >>> half = Modifier(id="half", role="attacker", when="halved", multiply="1/2", rounding="up")
    >>> combat_strength([Fighter(5), Fighter(5)], [half], role="attacker", defender_terrain=set()).total
    Fraction(6, 1)
    >>> whole = Modifier(id="half", role="attacker", when="halved", multiply="1/2", rounding="up", per_unit=False)
    >>> combat_strength([Fighter(5), Fighter(5)], [whole], role="attacker", defender_terrain=set()).total
    Fraction(5, 1)
    """
    mods = list(modifiers)
    values: list[Fraction | None] = []
    applied: list[tuple[str, ...]] = []
    cap_groups: dict[int, Fraction] = defaultdict(Fraction)
    unknown = False
    for f in fighters:
        conds = set(conditions) | set(f.conditions)
        facts = f.facts
        used: list[str] = []
        mult = Fraction(1)
        seen_mult: set[Fraction] = set()
        how = "none"
        add = Fraction(0)
        for mod in mods:
            if not mod.per_unit:  # a stack bonus or a multiplier of the total: below
                continue
            ok = modifier_applies(
                mod,
                role=role,
                unit_type=f.unit_type,
                defender_terrain=defender_terrain,
                conditions=conds,
                situation=situation,
                unit=facts,
            )
            if ok is None:
                unknown = True
                continue
            if not ok:
                continue
            if mod.multiply is not None:
                m = fraction(mod.multiply)
                if distinct_multipliers and m in seen_mult:
                    continue
                seen_mult.add(m)
                mult *= m
                if mod.rounding == "up" or (mod.rounding == "down" and how == "none"):
                    how = mod.rounding
            if mod.add is not None and mod.per_unit:
                add += _capped_bonus(mod, cap_groups)
            used.append(mod.id)
        applied.append(tuple(used))
        if f.strength is None:
            values.append(None)
            unknown = True
            continue
        v = _round(Fraction(f.strength) * mult, rounding or how) + add
        values.append(v)
    bonus = Fraction(0)
    stack_used: list[str] = []
    total_mult = Fraction(1)
    total_how = "none"
    for mod in mods:
        if mod.per_unit:
            continue
        ok = modifier_applies(
            mod,
            role=role,
            unit_type=None,
            defender_terrain=defender_terrain,
            conditions=set(conditions),
            situation=situation,
        )
        if mod.unit_types is not None:  # a stack modifier for unit types: applies if any unit is of the type
            found = [
                modifier_applies(
                    mod,
                    role=role,
                    unit_type=f.unit_type,
                    defender_terrain=defender_terrain,
                    conditions=set(conditions) | set(f.conditions),
                    situation=situation,
                )
                for f in fighters
            ]
            ok = True if any(found) else None if None in found else False
        if ok is None:
            unknown = True
            continue
        if not ok:
            continue
        if mod.multiply is not None:
            total_mult *= fraction(mod.multiply)
            if mod.rounding == "up" or (mod.rounding == "down" and total_how == "none"):
                total_how = mod.rounding
        if mod.add is not None:
            bonus += _capped_bonus(mod, cap_groups)
        stack_used.append(mod.id)
    if bonus_cap is not None:
        bonus = min(bonus, bonus_cap)
    summed = sum((v for v in values if v is not None), Fraction(0))
    if total_mult != 1:
        summed = _round(summed * total_mult, rounding or total_how)
    total = None if unknown else summed + bonus
    return StrengthTotal(total, tuple(values), tuple(applied), bonus, tuple(stack_used))


def attack_strength(
    fighters: Sequence[Fighter],
    modifiers: Iterable[Modifier],
    *,
    defender_terrain: Collection[str] | None,
    conditions: Collection[str] = (),
    rounding: Literal["up", "down", "none"] | None = None,
    distinct_multipliers: bool = False,
) -> StrengthTotal:
    """The attackers' total: :func:`combat_strength` with ``role="attacker"``."""
    return combat_strength(
        fighters,
        modifiers,
        role="attacker",
        defender_terrain=defender_terrain,
        conditions=conditions,
        rounding=rounding,
        distinct_multipliers=distinct_multipliers,
    )


def defense_strength(
    fighters: Sequence[Fighter],
    modifiers: Iterable[Modifier],
    *,
    defender_terrain: Collection[str] | None,
    conditions: Collection[str] = (),
    rounding: Literal["up", "down", "none"] | None = None,
    bonus_cap: Fraction | None = None,
) -> StrengthTotal:
    """The defenders' total: :func:`combat_strength` with ``role="defender"``."""
    return combat_strength(
        fighters,
        modifiers,
        role="defender",
        defender_terrain=defender_terrain,
        conditions=conditions,
        rounding=rounding,
        bonus_cap=bonus_cap,
    )


def magnitude(attacker_steps: int, defender_steps: int, steps: Sequence[tuple[int, int]] = MAGNITUDE_STEPS) -> int:
    """Dice rolled in a magnitude combat: by the fewest steps on either side (``steps``: (at least, dice) pairs).

    >>> [magnitude(a, 9) for a in (1, 3, 4, 5, 6, 12)]
    [1, 1, 2, 2, 3, 3]
    """
    fewest = min(attacker_steps, defender_steps)
    dice = 0
    for low, n in sorted(steps):
        if fewest >= low:
            dice = n
    return max(dice, 1)


# ======================================================================================================== cells
class Losses(NamedTuple):
    """What one combat outcome costs: attacker steps, defender steps (or hits), defender retreat and attacker
    retreat in hexes."""

    attacker: int
    defender: int
    retreat: int = 0
    attacker_retreat: int = 0
    defender_eliminated: bool = False
    """Every defender is eliminated, whatever its steps: worse for the defender than any step loss or retreat."""
    attacker_eliminated: bool = False
    exchange: Literal["steps", "strength"] | None = None
    """The attacker also loses at least what the defender lost (in steps or strength points): ``attacker`` is
    then the least it loses in steps, and in ``strength`` it may be more."""

    def __repr__(self) -> str:
        """The fields that differ from their defaults after the four counts (a plain result reads as before)."""
        extra = [
            f"{k}={getattr(self, k)!r}"
            for k in ("defender_eliminated", "attacker_eliminated", "exchange")
            if getattr(self, k) not in (False, None)
        ]
        counts = (
            f"attacker={self.attacker!r}, defender={self.defender!r}, retreat={self.retreat!r}, "
            f"attacker_retreat={self.attacker_retreat!r}"
        )
        return f"Losses({', '.join([counts, *extra])})"

    def plus(self, other: Losses) -> Losses:
        """Both losses together (``+`` would concatenate the tuples)."""
        return Losses(
            self.attacker + other.attacker,
            self.defender + other.defender,
            self.retreat + other.retreat,
            self.attacker_retreat + other.attacker_retreat,
            self.defender_eliminated or other.defender_eliminated,
            self.attacker_eliminated or other.attacker_eliminated,
            self.exchange or other.exchange,
        )


_HITS = re.compile(r"^\s*(\d+|\?)\s*/\s*(\d+|\?)\s*$")


def parse_hits(cell: str) -> tuple[int | None, int | None]:
    """A hits cell ``"0/1"``: defender hits in a normal and an all-out attack (None for ``?``).

    >>> parse_hits("1/2"), parse_hits("?")
    ((1, 2), (None, None))
    """
    if cell.strip() == UNKNOWN_CELL:
        return None, None
    m = _HITS.match(cell)
    if not m:
        raise ValueError(f"{cell!r} is not a hits cell (normal/all-out like '0/1')")
    a, b = m.groups()
    return (None if a == "?" else int(a)), (None if b == "?" else int(b))


def hits_of(cell: str, attack: Attack = "normal") -> int | None:
    """Hits from a hits cell for a normal or an all-out attack."""
    normal, allout = parse_hits(cell)
    return normal if attack == "normal" else allout


def parse_losses(cell: str) -> Losses | None:
    """A losses cell ``"1/1"`` or ``"-/1"`` (attacker/defender steps; ``-`` is none); None when unknown.

    >>> parse_losses("-/1")
    Losses(attacker=0, defender=1, retreat=0, attacker_retreat=0)
    """
    s = cell.strip()
    if s == UNKNOWN_CELL:
        return None
    m = re.match(r"^\s*(\d+|-|–|\?)\s*/\s*(\d+|-|–|\?)\s*$", s)
    if not m:
        raise ValueError(f"{cell!r} is not a losses cell (attacker/defender like '1/1' or '-/1')")
    a, d = m.groups()
    if "?" in (a, d):
        return None
    return Losses(0 if a in "-–" else int(a), 0 if d in "-–" else int(d))


def code_losses(cell: str, results: Mapping[str, ResultCode], *, defender_has: int | None = None) -> Losses | None:
    """A code cell (``DL1+DR``) as losses through the legend; None when the cell or any count is unknown.

    ``defender_has``: the steps the defender had; a result whose attacker loss needs more
    (:attr:`~forge.model.ResultCode.attacker_steps_if_defender_has`) costs the attacker nothing.

    >>> legend = {"DR2X": ResultCode(meaning="x", attacker_steps=1, defender_steps=2, defender_retreat=2,
    ...                              attacker_steps_if_defender_has=2)}
    >>> code_losses("DR2X", legend).attacker, code_losses("DR2X", legend, defender_has=1).attacker
    (1, 0)
    """
    return _losses(cell, results, defender_has=defender_has, ranking=False)


def rank_losses(cell: str, results: Mapping[str, ResultCode]) -> Losses | None:
    """A code cell as losses for ranking results (:func:`compare_for_attacker`): like :func:`code_losses`, but the
    unknown step count of a side the result eliminates reads as 0 (the elimination stands for it), and so does
    the attacker's unknown step count in a strength exchange.

    >>> legend = {"DE": ResultCode(meaning="x", defender_steps={"unknown": "all"}, defender_eliminated=True)}
    >>> code_losses("DE", legend) is None, rank_losses("DE", legend).defender_eliminated
    (True, True)
    """
    return _losses(cell, results, defender_has=None, ranking=True)


def _losses(cell: str, results: Mapping[str, ResultCode], *, defender_has: int | None, ranking: bool) -> Losses | None:
    """One walk over a code cell's parts for :func:`code_losses` and :func:`rank_losses` (``ranking``: an
    eliminated side's, and a strength exchange's attacker's, unknown step count reads as 0, and a step exchange
    stays a flag on the losses instead of steps added)."""
    if cell.strip() == UNKNOWN_CELL:
        return None
    total = Losses(0, 0, 0)
    for code in cell.split("+"):
        rc = results.get(code.strip())
        if rc is None:
            return None
        a, d, r, ar = rc.attacker_steps, rc.defender_steps, rc.defender_retreat, rc.attacker_retreat
        if ranking and isinstance(d, Unknown) and rc.defender_eliminated:
            d = 0
        if ranking and isinstance(a, Unknown) and (rc.attacker_eliminated or rc.exchange == "strength"):
            a = 0
        if isinstance(a, Unknown) or isinstance(d, Unknown) or isinstance(r, Unknown) or isinstance(ar, Unknown):
            return None
        need = rc.attacker_steps_if_defender_has
        if need is not None and defender_has is not None and defender_has < need:
            a = 0
        if rc.exchange == "steps" and not ranking:
            a += d  # the attacker loses as many steps as the defender
        total = total.plus(Losses(a, d, r, ar, rc.defender_eliminated, rc.attacker_eliminated, rc.exchange))
    return total


@dataclass(frozen=True)
class Exchange:
    """What an exchange costs the attacker (:func:`exchange_losses`)."""

    unit: Literal["steps", "strength"]
    """What is counted: steps, or strength points (printed or current, :attr:`~forge.model.ResultCode.
    exchange_strength`)."""
    at_least: Fraction
    """The attacker must lose at least this much: what the defender lost."""
    least: Fraction | None = None
    """The least the attacker can lose with whole units of the values given (None: no values given)."""
    removed: tuple[int, ...] = ()
    """Indices of the attacking units (in the order given) that make up ``least``, fewest first."""
    all_lost: bool = False
    """The attackers together have less than ``at_least``: every one is lost."""

    def __str__(self) -> str:
        what = "step" if self.unit == "steps" else "strength point"
        s = f"the attacker loses at least {self.at_least} {what}{'' if self.at_least == 1 else 's'}"
        if self.all_lost:
            return s + ": every attacking unit"
        if self.least is not None and self.least != self.at_least:
            s += f" ({self.least} with whole units)"
        return s


def exchange_losses(
    result: ResultCode, defender_lost: Number, attackers: Sequence[Number] | None = None
) -> Exchange:
    """The attacker's side of an exchange (:attr:`~forge.model.ResultCode.exchange`): at least what the defender
    lost (``defender_lost``, in the result's unit: steps, or the strength of the units it lost, printed or current
    as the result says); with ``attackers`` (each unit's value in that unit), the least whole-unit loss that
    reaches it, and the units that make it (fewest units, then the lowest indices).  An engine calls this after
    the defender has taken its losses; the attacker chooses among the units that reach the amount.

    >>> ex = ResultCode(meaning="exchange", exchange="strength")
    >>> e = exchange_losses(ex, 6, [4, 3, 5])
    >>> e.least, e.removed
    (Fraction(7, 1), (0, 1))
    >>> exchange_losses(ex, 10, [2, 3]).all_lost
    True
    """
    if result.exchange is None:
        raise ValueError(f"{result.meaning!r} is not an exchange (its exchange field is not set)")
    need = Fraction(defender_lost)
    if need < 0:
        raise ValueError(f"a loss cannot be negative, not {defender_lost}")
    if attackers is None:
        return Exchange(result.exchange, need)
    vals = [Fraction(v) for v in attackers]
    if sum(vals, Fraction(0)) < need:
        return Exchange(result.exchange, need, sum(vals, Fraction(0)), tuple(range(len(vals))), all_lost=True)
    if need == 0:
        return Exchange(result.exchange, need, Fraction(0))
    best: tuple[Fraction, int, tuple[int, ...]] | None = None
    n = len(vals)
    if n > 20:
        raise ValueError(f"{n} attacking units: too many to search every choice of losses")
    for mask in range(1, 1 << n):
        idx = tuple(i for i in range(n) if mask >> i & 1)
        total = sum((vals[i] for i in idx), Fraction(0))
        if total < need:
            continue
        key = (total, len(idx), idx)
        if best is None or key < best:
            best = key
    assert best is not None
    return Exchange(result.exchange, need, best[0], best[2])


def attacker_choices(cell: str, results: Mapping[str, ResultCode]) -> list[str]:
    """The results the attacker may choose between for ``cell`` (:attr:`~forge.model.ResultCode.attacker_choice`):
    the cell itself when no part of it offers a choice.

    >>> legend = {"DR": ResultCode(meaning="x", defender_retreat=1), "EX": ResultCode(meaning="x", exchange="steps"),
    ...           "C": ResultCode(meaning="DR or EX", attacker_choice=["DR", "EX"])}
    >>> attacker_choices("C", legend), attacker_choices("DR", legend)
    (['DR', 'EX'], ['DR'])
    """
    for code in cell.split("+"):
        rc = results.get(code.strip())
        if rc is not None and rc.attacker_choice:
            return list(rc.attacker_choice)
    return [cell]


def advance_after(
    cell: str, results: Mapping[str, ResultCode], default_hexes: int | None = None
) -> tuple[str | None, int | None]:
    """Who may advance after ``cell`` (``attacker``, ``defender``, ``either``; None: nobody) and how far:
    the result's ``advance_hexes``, else ``default_hexes`` (``rules.retreat.advance`` for the unit's class,
    :func:`forge.rules.kit.retreat.advance_length`), else one hex.

    >>> legend = {"DR": ResultCode(meaning="x", defender_retreat=1, advance="attacker"), "NE": ResultCode(meaning="x")}
    >>> advance_after("DR", legend), advance_after("DR", legend, 2), advance_after("NE", legend)
    (('attacker', 1), ('attacker', 2), (None, None))
    """
    for code in cell.split("+"):
        rc = results.get(code.strip())
        if rc is None or rc.advance is None:
            continue
        hexes = rc.advance_hexes if rc.advance_hexes is not None else default_hexes
        if isinstance(hexes, Unknown):
            return rc.advance, None
        return rc.advance, 1 if hexes is None else int(hexes)
    return None, None


def may_attack(combat: Any, *, unit_attacks: Mapping[str, int], hex_attacks: int) -> tuple[bool | None, str]:
    """Whether another attack is allowed this combat phase by ``combat.attacks_per_unit`` and
    ``combat.attacks_per_defender``: ``unit_attacks`` the attacks each attacking unit has already made this phase,
    ``hex_attacks`` those already made on the defender's hex.  None when the rules state neither limit.

    >>> from forge.model import Combat
    >>> c = Combat(kind="odds", attacks_per_unit=1, attacks_per_defender=1)
    >>> may_attack(c, unit_attacks={"a": 0}, hex_attacks=0)[0], may_attack(c, unit_attacks={"a": 1}, hex_attacks=0)
    (True, (False, 'a has attacked 1 time(s) this phase (at most 1)'))
    """
    per_unit, per_hex = combat.attacks_per_unit, combat.attacks_per_defender
    if per_unit is None and per_hex is None:
        return None, "the rules do not limit attacks per unit or per defender"
    if per_unit is not None:
        for uid, n in sorted(unit_attacks.items()):
            if n >= per_unit:
                return False, f"{uid} has attacked {n} time(s) this phase (at most {per_unit})"
    if per_hex is not None and hex_attacks >= per_hex:
        return False, f"the defender has been attacked {hex_attacks} time(s) this phase (at most {per_hex})"
    return True, ""


def convert_result(
    cell: str, conversions: Iterable[ResultConversion], attacker_sides: Collection[str] | None
) -> tuple[str, tuple[str, ...]]:
    """The result as read for this attacking force: each part of ``cell`` (``DRX``, or a secondary ``1/1``) that
    a conversion names becomes its replacement when every attacker is of the conversion's side.  Returns the
    cell and the rules applied.  ``attacker_sides`` None (unknown) converts nothing.

    >>> conv = [ResultConversion(result="DRX", becomes="DR1", all_attackers="blue", rule="R")]
    >>> convert_result("DRX", conv, {"blue"}), convert_result("DRX", conv, {"blue", "red"})[0]
    (('DR1', ('R',)), 'DRX')
    """
    if not attacker_sides:
        return cell, ()
    parts, used = [], []
    for part in cell.split("+"):
        p = part.strip()
        for cv in conversions:
            if p == cv.result and set(attacker_sides) == {cv.all_attackers}:
                p = cv.becomes
                used.append(cv.rule or cv.result)
                break
        parts.append(p)
    return "+".join(parts), tuple(used)


Outcome = Literal["eliminated", "reduced", "retreats", "unaffected"]


def retreat_choices(cell: str, results: Mapping[str, ResultCode]) -> list[str]:
    """What the defender may do about a result: ``retreat`` when it retreats, and ``step-loss`` when the legend
    lets it lose a step instead (:attr:`~forge.model.ResultCode.step_instead_of_retreat`); [] when it need not
    choose.

    >>> legend = {"D2": ResultCode(meaning="x", defender_retreat=2, step_instead_of_retreat=True)}
    >>> retreat_choices("D2", legend), retreat_choices("?", legend)
    (['retreat', 'step-loss'], [])
    """
    out: list[str] = []
    for code in cell.split("+"):
        rc = results.get(code.strip())
        if rc is None or isinstance(rc.defender_retreat, Unknown) or not rc.defender_retreat:
            continue
        out = ["retreat", "step-loss"] if rc.step_instead_of_retreat else ["retreat"]
    return out


def defender_outcome(
    cell: str,
    results: Mapping[str, ResultCode],
    steps_left: int | None,
    *,
    choice: str | None = None,
    can_retreat: bool | None = None,
) -> tuple[Outcome | None, str]:
    """What a result does to a defending unit with ``steps_left`` steps: eliminated, reduced, retreats or
    unaffected, with the reasoning; None when it depends on something unknown (the steps, the defender's choice).

    ``choice`` is ``retreat`` or ``step-loss`` (:func:`retreat_choices`); a unit that cannot retreat
    (``can_retreat`` False) takes the step loss if the legend allows it, else is eliminated.

    >>> legend = {"Ex": ResultCode(meaning="x", attacker_steps=1, defender_steps=1),
    ...           "De": ResultCode(meaning="x", defender_eliminated=True),
    ...           "D2": ResultCode(meaning="x", defender_retreat=2, step_instead_of_retreat=True)}
    >>> [defender_outcome(c, legend, 1)[0] for c in ("Ex", "De", "D2")]
    ['eliminated', 'eliminated', None]
    >>> defender_outcome("D2", legend, 2, choice="step-loss")[0]
    'reduced'
    >>> defender_outcome("D2", legend, 1, can_retreat=False)[0]
    'eliminated'
    """
    codes = [results.get(c.strip()) for c in cell.split("+")]
    if any(rc is None for rc in codes):
        return None, f"{cell} is not in the results legend"
    if any(rc.defender_eliminated for rc in codes if rc is not None):
        return "eliminated", f"{cell} eliminates the defender"
    loss = code_losses(cell, results, defender_has=steps_left)
    if loss is None:
        return None, f"the legend does not give {cell}'s step counts"
    options = retreat_choices(cell, results)
    why = f"{cell}: {loss.defender} step(s)"
    steps = loss.defender
    retreats = False
    if options:
        if choice is None and can_retreat is False:
            choice = "step-loss" if "step-loss" in options else "eliminated"
        if choice is None:
            return None, f"{cell} leaves the defender a choice ({' or '.join(options)})"
        if choice == "eliminated":
            return "eliminated", f"{cell}: the defender cannot retreat"
        if choice not in options:
            return None, f"{choice!r} is not open after {cell} ({' or '.join(options)})"
        if choice == "step-loss":
            steps += 1
            why += " + 1 instead of the retreat"
        else:
            retreats = True
    if steps and steps_left is None:
        return None, why + "; the defender's steps are not given"
    if steps and steps_left is not None and steps >= steps_left:
        return "eliminated", why + f", with {steps_left} step(s) left"
    if retreats:
        return "retreats", why + " and a retreat"
    return ("reduced" if steps else "unaffected"), why


def odds_after_shifts(columns: Sequence[str], base: Fraction, shifts: int) -> Fraction:
    """The odds reached by ``shifts`` whole columns from ``base``, stepping one whole ratio per column past the last
    printed one (a last column of 7-1 and three shifts is 10-1).

    >>> odds_after_shifts(["1-3", "1-2", "1-1", "3-2", "2-1", "3-1", "4-1", "5-1"], Fraction(7), 3)
    Fraction(10, 1)
    >>> odds_after_shifts(["1-3", "1-2", "1-1", "3-2", "2-1"], Fraction(1), 2)
    Fraction(2, 1)
    """
    ladder = [c for c in (OddsColumn.parse(c).low for c in columns) if c > 0]
    top = max([*ladder, base])
    while len([x for x in ladder if x >= base]) <= abs(shifts) + 1 or max(ladder) < top + abs(shifts):
        ladder.append(Fraction(math.floor(max(ladder)) + 1))
    ladder = sorted(set(ladder))
    i = max(k for k, low in enumerate(ladder) if low <= base)
    return ladder[min(max(i + shifts, 0), len(ladder) - 1)]


INFINITE = 10**9
"""Stands for "all of them" when an elimination is ranked against step counts."""


def _bounds(x: Losses) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int], tuple[int, int]]:
    """(least, most) of each count, in the direction of the attacker's interest: defender steps, defender retreat
    (both: more is better), attacker steps and attacker retreat (less is better).  An elimination is every step
    (and leaves nothing to retreat: it counts as at least any retreat); a strength exchange costs the attacker at
    least one step when the defender loses any, and an unknown number more."""
    d = (INFINITE, INFINITE) if x.defender_eliminated else (x.defender, x.defender)
    r = (INFINITE, INFINITE) if x.defender_eliminated else (x.retreat, x.retreat)
    a_lo = x.attacker
    a_hi = x.attacker
    if x.exchange is not None:
        lost = INFINITE if x.defender_eliminated else x.defender
        if x.exchange == "steps":
            a_lo = a_hi = x.attacker + lost
        else:
            a_lo, a_hi = x.attacker + (1 if lost else 0), (INFINITE if lost else x.attacker)
    a = (INFINITE, INFINITE) if x.attacker_eliminated else (a_lo, a_hi)
    ar = (INFINITE, INFINITE) if x.attacker_eliminated else (x.attacker_retreat, x.attacker_retreat)
    return d, r, a, ar


def compare_for_attacker(a: Losses, b: Losses) -> int | None:
    """1 when ``a`` is better for the attacker than ``b`` on every count, -1 when worse on every count, 0 when
    equal, None when neither dominates (``EX`` against ``DR``: one costs the attacker a step, the other does not
    make the defender lose one).  The counts: defender steps and retreat (an elimination beats any of them),
    attacker steps and retreat (an elimination is the worst; an exchange costs what the defender lost, in steps,
    or an unknown amount of at least one step in strength points).

    >>> compare_for_attacker(Losses(0, 1, 1), Losses(0, 1, 0)), compare_for_attacker(Losses(1, 1), Losses(0, 0, 1))
    (1, None)
    >>> de, drl = Losses(0, 0, defender_eliminated=True), Losses(0, 1, 1)
    >>> compare_for_attacker(de, drl), compare_for_attacker(Losses(0, 0, 1), de)
    (1, -1)
    """
    ba, bb = _bounds(a), _bounds(b)
    better = worse = True
    for i, ((alo, ahi), (blo, bhi)) in enumerate(zip(ba, bb, strict=True)):
        if i < 2:  # more is better
            better = better and alo >= bhi
            worse = worse and ahi <= blo
        else:  # less is better
            better = better and ahi <= blo
            worse = worse and alo >= bhi
    if better and worse:
        return 0
    if better:
        return 1
    if worse:
        return -1
    return None


# ======================================================================================================== dice
_DICE = re.compile(r"^\s*(\d*)\s*d\s*(\d+)\s*$", re.IGNORECASE)


def dice_spec(dice: str) -> tuple[int, int]:
    """``"1d6"`` -> (1, 6); ``"d6"`` -> (1, 6); ``"2d6"`` -> (2, 6)."""
    m = _DICE.match(dice)
    if not m:
        raise ValueError(f"{dice!r} is not a dice spec (expected '1d6', 'd6' or '2d6')")
    return int(m.group(1) or 1), int(m.group(2))


def dice_sum(n: int, faces: int) -> dict[int, Fraction]:
    """Exact distribution of the sum of ``n`` dice with ``faces`` faces.

    >>> dice_sum(2, 6)[7]
    Fraction(1, 6)
    """
    dist = {0: Fraction(1)}
    for _ in range(n):
        nxt: dict[int, Fraction] = defaultdict(Fraction)
        for s, p in dist.items():
            for f in range(1, faces + 1):
                nxt[s + f] += p / faces
        dist = dict(nxt)
    return dist


def row_for_die(rows: Sequence[str], die: int) -> int | None:
    """Index of the row that holds die result ``die`` (None when no row does)."""
    for i, label in enumerate(rows):
        lo, hi = row_range(label)
        if (lo is None or die >= lo) and (hi is None or die <= hi):
            return i
    return None


def die_faces(faces: int, reroll: Collection[int] = ()) -> dict[int, Fraction]:
    """One die's faces when the ``reroll`` faces are rolled again once and the second roll kept.

    >>> die_faces(6, [6])[6], die_faces(6, [6])[1]
    (Fraction(1, 36), Fraction(7, 36))
    """
    again = Fraction(len([f for f in set(reroll) if 1 <= f <= faces]), faces)
    return {
        f: (Fraction(0) if f in reroll else Fraction(1, faces)) + again * Fraction(1, faces)
        for f in range(1, faces + 1)
    }


def row_probabilities(
    rows: Sequence[str], dice: str = "1d6", drm: int = 0, reroll: Collection[int] = ()
) -> list[Fraction]:
    """Probability of each row for a roll of ``dice`` plus ``drm`` (each die showing a ``reroll`` face rolled
    again, :func:`die_faces`).  Rows no roll reaches get 0; a roll no row holds raises (the table would be
    incomplete).

    >>> row_probabilities(["1-2", "3-6", "7"], drm=1)
    [Fraction(1, 6), Fraction(2, 3), Fraction(1, 6)]
    >>> row_probabilities(["1-5", "6"], reroll=[6])
    [Fraction(35, 36), Fraction(1, 36)]
    """
    n, faces = dice_spec(dice)
    probs = [Fraction(0)] * len(rows)
    one = die_faces(faces, reroll)
    total: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(n):
        nxt: dict[int, Fraction] = defaultdict(Fraction)
        for s0, p0 in total.items():
            for f, pf in one.items():
                nxt[s0 + f] += p0 * pf
        total = dict(nxt)
    for value, p in sorted(total.items()):
        if not p:
            continue
        value += drm
        i = row_for_die(rows, value)
        if i is None:
            raise ValueError(f"no row of the table holds a roll of {value} on {dice} (rows: {', '.join(rows)})")
        probs[i] += p
    return probs


# ================================================================================================ distributions
def grid_of(crt: Crt, section: str | None = None) -> list[list[str]] | None:
    """The cells of the CRT (or of one terrain section); None when the rulebook does not give them."""
    cells = crt.cells
    if isinstance(cells, dict):
        if section is None:
            raise ValueError(f"this CRT has terrain sections ({', '.join(crt.sections or cells)}): name one")
        if section not in cells:
            raise ValueError(f"{section!r} is not a section of the CRT ({', '.join(cells)})")
        grid = cells[section]
        return None if isinstance(grid, Unknown) else grid
    if isinstance(cells, Unknown):
        return None
    return cells


def column_cells(crt: Crt, column: str | int, section: str | None = None) -> list[str]:
    """The cells of one column, top row first; UnknownValueError when the CRT's cells are unknown."""
    grid = grid_of(crt, section)
    if grid is None:
        raise UnknownValueError(f"the CRT's cells{' for ' + section if section else ''} are unknown")
    j = column_index(crt, column)
    return [row[j] for row in grid]


def _collect(pairs: Iterable[tuple[Any, Fraction]]) -> dict[Any, Fraction]:
    out: dict[Any, Fraction] = defaultdict(Fraction)
    for k, p in pairs:
        if p:
            out[k] += p
    return dict(sorted(out.items(), key=lambda kv: (str(type(kv[0])), _sort_key(kv[0]))))


def _sort_key(k: Any) -> Any:
    """An outcome as a sort key: a :class:`Losses` exchange that is None sorts before one that is named (None
    and a string do not compare)."""
    return tuple("" if x is None else x for x in k) if isinstance(k, tuple) else k


def distribution(
    crt: Crt,
    column: str | int,
    *,
    attack: Attack = "normal",
    section: str | None = None,
    drm: int = 0,
    reroll: Collection[int] = (),
) -> dict[Any, Fraction]:
    """Exact distribution of one roll (plus ``drm``, :func:`die_modifier`) on ``column``, by enumerating the die.

    * hits CRTs: ``{hits: P}`` for a normal or an all-out attack;
    * code CRTs: ``{cell: P}`` (the cell as printed, ``"DL1+DR"``);
    * losses CRTs: ``{Losses: P}``.

    UnknownValueError when a cell the die can reach is ``?``.

    >>> from forge.model import Crt
    >>> crt = Crt(columns=["1:1"], rows=["1-2", "3-6"], cells=[["DR"], ["AS"]])
    >>> distribution(crt, "1:1")
    {'AS': Fraction(2, 3), 'DR': Fraction(1, 3)}
    """
    cells = column_cells(crt, column, section)
    probs = row_probabilities(crt.rows, crt.dice, drm, reroll)
    pairs: list[tuple[object, Fraction]] = []
    unknown: list[str] = []
    for label, cell, p in zip(crt.rows, cells, probs, strict=True):
        if not p:
            continue
        if crt.cell_format is CellFormat.HITS_NORMAL_ALLOUT:
            h = hits_of(cell, attack)
            if h is None:
                unknown.append(label)
                continue
            pairs.append((h, p))
        elif crt.cell_format is CellFormat.LOSSES_ATTACKER_DEFENDER:
            loss = parse_losses(cell)
            if loss is None:
                unknown.append(label)
                continue
            pairs.append((loss, p))
        else:
            if cell.strip() == UNKNOWN_CELL:
                unknown.append(label)
                continue
            pairs.append((cell.strip(), p))
    if unknown:
        raise UnknownValueError(
            f"column {crt.columns[column_index(crt, column)]}: rows {', '.join(unknown)} are unknown"
        )
    return _collect(pairs)


def losses_distribution(
    crt: Crt,
    column: str | int,
    results: Mapping[str, ResultCode] | None = None,
    *,
    attack: Attack = "normal",
    section: str | None = None,
    reroll: Collection[int] = (),
    ranking: bool = False,
) -> dict[Losses, Fraction]:
    """One roll on ``column`` as :class:`Losses`: hits are defender steps (where the defender may turn the
    last hit into a retreat, so ``retreat`` stays 0); codes go through the ``results`` legend (``ranking``: as
    :func:`rank_losses` reads them, for comparing columns)."""
    dist = distribution(crt, column, attack=attack, section=section, reroll=reroll)
    if crt.cell_format is CellFormat.HITS_NORMAL_ALLOUT:
        return _collect((Losses(0, int(h), 0), p) for h, p in dist.items())
    if crt.cell_format is CellFormat.LOSSES_ATTACKER_DEFENDER:
        return dist
    pairs = []
    read = rank_losses if ranking else code_losses
    for code, p in dist.items():
        loss = read(str(code), results or {})
        if loss is None:
            raise UnknownValueError(f"result {code!r} has no known step counts in the results legend")
        pairs.append((loss, p))
    return _collect(pairs)


def magnitude_distribution(
    crt: Crt,
    column: str | int,
    results: Mapping[str, ResultCode],
    *,
    dice: int = 1,
    section: str | None = None,
    reroll: Collection[int] = (),
) -> dict[Losses, Fraction]:
    """A magnitude combat (``reroll``: faces every die rolls again, :func:`reroll_faces`): the primary die reads a
    code on ``column``, each of ``dice - 1`` secondary dice reads attacker/defender losses in ``crt.secondary``
    under the same column; the losses add up, the retreat is the primary result's.

    >>> from forge.model import Crt, ResultCode
    >>> crt = Crt(columns=["3-1"], rows=["1-3", "4-6"], cells=[["C"], ["DRX"]],
    ...           secondary={"rows": ["1-3", "4-6"], "cells": [["1/1"], ["-/1"]]})
    >>> legend = {"C": ResultCode(meaning="contact"),
    ...           "DRX": ResultCode(meaning="x", attacker_steps=1, defender_steps=1, defender_retreat=2)}
    >>> d = magnitude_distribution(crt, "3-1", legend, dice=2)
    >>> d[Losses(2, 2, 2)]
    Fraction(1, 4)
    """
    primary = losses_distribution(crt, column, results, section=section, reroll=reroll)
    if dice <= 1:
        return primary
    if crt.secondary is None or isinstance(crt.secondary.cells, Unknown):
        raise UnknownValueError("the secondary-dice table is unknown")
    j = column_index(crt, column)
    sec_probs = row_probabilities(crt.secondary.rows, crt.dice, reroll=reroll)
    one: list[tuple[Losses, Fraction]] = []
    for label, row, p in zip(crt.secondary.rows, crt.secondary.cells, sec_probs, strict=True):
        if not p:
            continue
        loss = parse_losses(row[j])
        if loss is None:
            raise UnknownValueError(f"secondary table, column {crt.columns[j]}, row {label} is unknown")
        one.append((loss, p))
    dist = primary
    for _ in range(dice - 1):
        dist = _collect((a.plus(Losses(b.attacker, b.defender, 0)), pa * pb) for a, pa in dist.items() for b, pb in one)
    return dist


@dataclass(frozen=True)
class Expected:
    """Expected losses of each side (exact)."""

    attacker: Fraction
    defender: Fraction
    retreat: Fraction = field(default=Fraction(0))
    attacker_retreat: Fraction = field(default=Fraction(0))


def expected_losses(dist: Mapping[Losses, Fraction] | Mapping[int, Fraction]) -> Expected:
    """Expected attacker and defender losses (and retreat) of a distribution of Losses or of hits.

    >>> expected_losses({0: Fraction(1, 2), 2: Fraction(1, 2)})
    Expected(attacker=Fraction(0, 1), defender=Fraction(1, 1), retreat=Fraction(0, 1), attacker_retreat=Fraction(0, 1))
    """
    a = d = r = ar = Fraction(0)
    for k, p in dist.items():
        if isinstance(k, Losses):
            a += k.attacker * p
            d += k.defender * p
            r += k.retreat * p
            ar += k.attacker_retreat * p
        else:
            d += int(k) * p
    return Expected(a, d, r, ar)


def cap_losses(dist: Mapping[Losses, Fraction], attacker_steps: int, defender_steps: int) -> dict[Losses, Fraction]:
    """Losses limited to the steps present: a side cannot lose more steps than it has (excess hits
    are ignored once every defender is eliminated)."""
    return _collect(
        (Losses(min(k.attacker, attacker_steps), min(k.defender, defender_steps), k.retreat, k.attacker_retreat), p)
        for k, p in dist.items()
    )


def probability(dist: Mapping[object, Fraction], event: object) -> Fraction:
    """P(event): ``event`` is an outcome, or a predicate on outcomes."""
    if callable(event):
        return sum((p for k, p in dist.items() if event(k)), Fraction(0))
    return dist.get(event, Fraction(0))


# ================================================================================================ reachability
def unsupplied_possible(
    sequence: Sequence[Phase], side: str, attacker: str, turn: int, *, first_turn: int = 1
) -> tuple[bool | None, str]:
    """Can units of ``side`` fight with an unsupplied status in ``attacker``'s combat phase on ``turn``?

    Read from the sequence of play (:class:`~forge.model.Phase` ``activities``): a side's supply status is judged
    in its ``supply`` phase and holds until its next one, so on the first turn a side whose supply phase comes
    after the attacker's combat phase has never been judged and carries no unsupplied status (on a first turn whose
    first side fights before the second side's supply phase).  Returns (answer, reason): ``False`` when no
    position can show it, ``True`` when the status is judged after the enemy has moved (enemy zones can cut any
    line), ``None`` when the engine cannot decide (the setup position is not traced; the sequence does not say).

    >>> from forge.model import Phase
    >>> seq = [Phase(name="A supply", side="a", activities=["supply"]), Phase(name="A combat", side="a",
    ...        activities=["combat"]), Phase(name="A move", side="a", activities=["movement"]),
    ...        Phase(name="B supply", side="b", activities=["supply"]), Phase(name="B combat", side="b",
    ...        activities=["combat"])]
    >>> unsupplied_possible(seq, "b", "a", 1)[0], unsupplied_possible(seq, "b", "b", 1)[0]
    (False, True)
    >>> unsupplied_possible(seq, "a", "b", 1)[0], unsupplied_possible(seq, "b", "a", 2)[0]
    (None, True)
    """
    acts = [{a.value for a in p.activities} for p in sequence]
    combat = [i for i, p in enumerate(sequence) if "combat" in acts[i] and p.side == attacker]
    judged = [i for i, p in enumerate(sequence) if "supply" in acts[i] and p.side == side]
    if not combat or not judged:
        return None, f"the sequence of play does not say when {side} supply is judged or when {attacker} attacks"
    c = combat[0]
    before = [j for j in judged if j < c]
    if turn <= first_turn and not before:
        return False, (
            f"{side} supply is first judged in the {sequence[judged[0]].name} phase of turn {turn}, after the "
            f"{sequence[c].name} phase: no {side} unit can be marked unsupplied then"
        )
    # the phase whose verdict is in force, and the enemy movement that precedes it
    if before:
        j = before[-1]
        moved = any("movement" in acts[i] and sequence[i].side != side for i in range(j))
        if turn <= first_turn and not moved:
            return None, (
                f"on turn {turn} {side} supply is judged on the setup position, which the engine does not trace"
            )
    return True, f"{side} supply is judged after the enemy has moved: enemy zones can cut a supply line"


def find_leader(leaders: Iterable[LeaderEffect], units: Mapping[str, Any], name: Any) -> LeaderEffect | None:
    """The leader effect an example's ``leader`` names: by unit id, or by the unit's name or label (any case)."""
    if name is None:
        return None
    key = str(name).strip().lower()
    for ld in leaders:
        u = units.get(ld.unit)
        names = {ld.unit.lower()} | ({str(u.name).lower(), str(u.label).lower()} if u is not None else set())
        if key in names:
            return ld
    return None


def die_modifier(
    modifiers: Iterable[DieModifier], *, weather: str | None, bombardment: bool = False
) -> tuple[int | None, tuple[str, ...]]:
    """The total added to a combat die roll, and the modifiers that make it; None when a modifier depends on the
    weather and the weather is not known.

    >>> rain = DieModifier(id="rain", when="precipitation", add=1, weather=["precipitation"], bombardment=False)
    >>> die_modifier([rain], weather="precipitation"), die_modifier([rain], weather="precipitation", bombardment=True)
    ((1, ('rain',)), (0, ()))
    >>> die_modifier([rain], weather=None)[0] is None
    True
    """
    total, used = 0, []
    for md in modifiers:
        if bombardment and not md.bombardment:
            continue
        if md.weather is not None:
            if weather is None:
                return None, ()
            if str(weather).lower() not in {w.lower() for w in md.weather}:
                continue
        total += md.add
        used.append(md.id)
    return total, tuple(used)


def reroll_faces(
    rerolls: Iterable[Reroll],
    *,
    attacker_side: str | None,
    defender_sides: Collection[str] | None,
    group_share: Fraction | None,
) -> tuple[list[int] | None, str]:
    """The faces the attacker must roll again (:class:`~forge.model.Reroll`); None when it depends on what is not
    known (the defenders' sides, the share of the attacking steps in the rule's group).

    >>> rr = Reroll(id="r", side="soviet", faces=[6], against="german", group="guards", unless_share="1/2")
    >>> reroll_faces([rr], attacker_side="soviet", defender_sides={"german"}, group_share=Fraction(1, 3))[0]
    [6]
    >>> reroll_faces([rr], attacker_side="soviet", defender_sides={"german"}, group_share=Fraction(1, 2))[0]
    []
    >>> reroll_faces([rr], attacker_side="german", defender_sides=None, group_share=None)[0]
    []
    """
    faces: set[int] = set()
    for rr in rerolls:
        if attacker_side is None:
            return None, "the attacking side is not known"
        if rr.side != attacker_side:
            continue
        if rr.against is not None:
            if defender_sides is None:
                return None, "the defenders' sides are not known"
            if rr.against not in defender_sides:
                continue
        if rr.unless_share is not None:
            if group_share is None:
                return None, f"the share of {rr.group or 'group'} steps among the attackers is not known"
            if group_share >= fraction(rr.unless_share):
                continue
        faces.update(rr.faces)
    return sorted(faces), ""
