"""Stacking: which units may share a hex, from ``rules.stacking`` (:class:`forge.model.StackingRules`).

A stack is a list of ``(unit, steps left)``.  Units are sorted into classes (``combat``, ``support``, ``artillery``
...), exempt units (HQs, leaders, garrisons) are dropped, and the side's limit is legal when one of its allowances
covers the count of each class.  :func:`legal` answers True, False, or None when the data cannot decide (unknown
steps, a unit whose effect on the limit the rules give only in words).

>>> from forge import model as m
>>> rules = m.StackingRules(limits=[m.StackLimit(allow=[m.StackAllowance(max={"total": 1})])])
>>> u = m.Unit(id="a", side="red", name="A", label="A", type="infantry", steps=["2"])
>>> legal(rules, [(u, 1)]), legal(rules, [(u, 1), (u, 1)])
(True, False)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ... import model as m

__all__ = [
    "Verdict",
    "classify",
    "counts",
    "covers",
    "full_steps",
    "largest",
    "legal",
    "limit_for",
    "matches",
    "stacks",
    "verdict",
]

Stack = Sequence[tuple[m.Unit, int | None]]
"""Units in one hex with the steps each has left (None: not known)."""


def matches(sel: m.UnitSelector, unit: m.Unit) -> bool:
    """Does the selector cover the unit?"""
    if sel.side is not None and unit.side != sel.side:
        return False
    if unit.id in sel.units:
        return True
    if not sel.types and not sel.sizes:
        return False
    return (not sel.types or unit.type in sel.types) and (not sel.sizes or unit.size in sel.sizes)


def classify(rules: m.StackingRules, unit: m.Unit) -> str | None:
    """The unit's stacking class, or None when it has no stacking value."""
    if any(matches(s, unit) for s in rules.exempt):
        return None
    return next((c.id for c in rules.classes if matches(c, unit)), rules.default_class)


def limit_for(rules: m.StackingRules, side: str) -> m.StackLimit | None:
    """The side's own limit, else the limit for both sides, else None (no limit given)."""
    own = [lim for lim in rules.limits if lim.side == side]
    both = [lim for lim in rules.limits if lim.side is None]
    return (own or both)[0] if own or both else None


def counts(rules: m.StackingRules, limit: m.StackLimit, stack: Stack) -> Counter[str] | None:
    """Units (or steps) of each class in the stack; None when steps are counted and one is not known."""
    out: Counter[str] = Counter()
    for unit, steps in stack:
        cls = classify(rules, unit)
        if cls is None:
            continue
        if limit.measure == "steps":
            if steps is None:
                return None
            out[cls] += steps
        else:
            out[cls] += 1
    return out


def covers(allow: m.StackAllowance, count: Counter[str]) -> bool:
    """Does one allowance admit these class counts?"""
    only_total = set(allow.max) <= {"total"}
    for cls, n in count.items():
        if n == 0:
            continue
        if cls not in allow.max and not only_total:
            return False
        if cls in allow.max and n > allow.max[cls]:
            return False
    if "total" in allow.max and sum(count.values()) > allow.max["total"]:
        return False
    return all(count.get(cls, 0) >= n for cls, n in allow.min.items())


@dataclass(frozen=True)
class Verdict:
    """A stack judged against the rules: ``legal`` True/False/None (cannot tell), the class counts, and why."""

    legal: bool | None
    counts: dict[str, int]
    reason: str


def verdict(rules: m.StackingRules, stack: Stack) -> Verdict:
    """Judge one stack (all units of one side, or of both when the rules let enemies share a hex)."""
    sides = sorted({u.side for u, _ in stack})
    if len(sides) > 1 and not rules.enemy_together:
        return Verdict(False, {}, "opposing units in one hex")
    if rules.unlimited or not stack:
        return Verdict(True, {}, "no stacking limit" if rules.unlimited else "empty")
    limit = limit_for(rules, sides[0])
    if limit is None:
        return Verdict(None, {}, f"no stacking limit is given for {sides[0]}")
    count = counts(rules, limit, stack)
    if count is None:
        # Steps left unknown: illegal only if the stack breaks the limit even at one step a unit.
        least = counts(rules, limit, [(u, 1 if s is None else s) for u, s in stack])
        assert least is not None
        if any(covers(a, least) for a in limit.allow):
            return Verdict(None, dict(least), "depends on the steps the units have left")
        count = least
    if any(covers(a, count) for a in limit.allow):
        return Verdict(True, dict(count), "within the limit")
    if any(matches(s, u) for s in rules.exceptions for u, _ in stack):
        return Verdict(None, dict(count), "over the limit, but a unit present changes it in ways given only in words")
    return Verdict(False, dict(count), f"over the stacking limit ({_show(limit)})")


def legal(rules: m.StackingRules, stack: Stack) -> bool | None:
    """True when the stack may end a phase in one hex, False when it may not, None when the data cannot tell."""
    return verdict(rules, stack).legal


def largest(rules: m.StackingRules, side: str, cls: str, *, given: dict[str, int] | None = None) -> int | None:
    """The most units (or steps) of class ``cls`` a legal stack of ``side`` can hold alongside ``given`` (class ->
    count); None when there is no limit.  Computed from the allowances, so it is what :func:`legal` accepts."""
    if rules.unlimited:
        return None
    limit = limit_for(rules, side)
    if limit is None:
        return None
    given = dict(given or {})
    best = -1
    for allow in limit.allow:
        cap = allow.max.get(cls, allow.max.get("total", 0) if set(allow.max) <= {"total"} else 0)
        if "total" in allow.max:
            cap = min(cap, allow.max["total"] - sum(v for k, v in given.items() if k != cls))
        for n in range(cap, -1, -1):
            if covers(allow, Counter({**given, cls: n})):
                best = max(best, n)
                break
    return best if best >= 0 else None


def _show(limit: m.StackLimit) -> str:
    return " or ".join(", ".join(f"{k} {v}" for k, v in a.max.items()) for a in limit.allow) + f" {limit.measure}"


def full_steps(unit: m.Unit) -> int | None:
    """The unit's steps at full strength when the data gives every step's strength, else None (a placeholder
    ``?`` step may stand for several)."""
    try:
        return len(unit.steps) if all(s.known for s in unit.strengths()) else None
    except ValueError:
        return None


def stacks(placed: Iterable[tuple[m.Unit, str, int | None]]) -> dict[str, list[tuple[m.Unit, int | None]]]:
    """Group ``(unit, hex, steps)`` by hex."""
    out: dict[str, list[tuple[m.Unit, int | None]]] = {}
    for unit, where, steps in placed:
        out.setdefault(where, []).append((unit, steps))
    return out
