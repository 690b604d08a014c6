"""How many steps a unit may start with (:class:`forge.model.StepRules`): at most ``max``, or one of the counts of
the first ``more`` entry that covers the unit, and up to ``max`` as well unless the entry says ``only`` (a book where
only one side's divisions have more than two steps: four, six or eight).

>>> from forge import model as m
>>> rules = m.StepRules(max=2, more=[m.StepCount(id="div", side="german", sizes=["XX"], counts=[4, 6, 8])])
>>> allowed(rules, m.Unit(id="a", side="german", name="A", label="A", type="armour", size="XX", steps=["1-1"]))
[1, 2, 4, 6, 8]
>>> allowed(rules, m.Unit(id="b", side="soviet", name="B", label="B", type="armour", size="XX", steps=["1-1"]))
[1, 2]
"""

from __future__ import annotations

from collections.abc import Iterable

from ... import model as m
from .stacking import matches

__all__ = ["allowed", "entry_for", "step_count", "violations"]


def entry_for(rules: m.StepRules, unit: m.Unit) -> m.StepCount | None:
    """The first ``more`` entry that covers the unit, else None."""
    return next((e for e in rules.more if matches(e, unit)), None)


def allowed(rules: m.StepRules, unit: m.Unit) -> list[int] | None:
    """The step counts the unit may start with; None when the rules set no limit for it."""
    e = entry_for(rules, unit)
    base = list(range(1, rules.max + 1)) if rules.max is not None else None
    if e is None:
        return base
    if e.only or base is None:
        return sorted(set(e.counts))
    return sorted(set(base) | set(e.counts))


def step_count(unit: m.Unit) -> int | None:
    """The unit's number of steps as the data gives it; None when it is not given.  A data file that does not know a
    unit's steps writes one placeholder step (``?-?``): a single step whose every factor is unknown says nothing about
    the count, while a list of several steps (known or not) gives it."""
    strengths = unit.strengths()
    if len(strengths) == 1 and not any(v is not None for v in (strengths[0].attack, strengths[0].defense)):
        return None
    return len(strengths)


def violations(rules: m.StepRules, units: Iterable[m.Unit]) -> list[tuple[m.Unit, int, list[int]]]:
    """``(unit, steps, allowed counts)`` for every unit whose known step count the rules do not allow."""
    out = []
    for u in units:
        n = step_count(u)
        ok = allowed(rules, u)
        if n is not None and ok is not None and n not in ok:
            out.append((u, n, ok))
    return out
