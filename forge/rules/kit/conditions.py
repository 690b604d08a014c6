"""Whether a shift's or a modifier's condition holds in a combat: the facts of the combat
(:class:`Situation`, one :class:`UnitFacts` per unit) read against the vocabulary of :mod:`forge.conditions`
(mappings of facts, and the keys that name them), for the odds computation (:mod:`forge.rules.combat`) and for
``forge verify``.  A fact that is not known leaves the verdict unknown, with the reason: a condition is never taken to
hold, or not, on a guess.

>>> from forge.model import Condition
>>> mud = Situation(weather="mud")
>>> holds(Condition(weather=["mud"]), mud).value, holds(Condition(weather=["mud"]), Situation(weather="snow")).value
(True, False)
>>> holds(Condition(weather=["mud"]), Situation()).value is None
True
>>> oos = Situation(attackers=(UnitFacts(supplied=False), UnitFacts(supplied=True)))
>>> holds(resolve("attacker-some-unsupplied"), oos).value, holds(resolve("attacker-all-unsupplied"), oos).value
(True, False)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ...conditions import (
    ALIASES,
    DECLARED,
    RIVER,
    TERRAIN_GIVES,
    UNIT_FACTS,
    accepted_forms,
    problems,
    resolve,
    river_features,
)
from ...model import Condition

__all__ = [
    "ALIASES",
    "DECLARED",
    "RIVER",
    "TERRAIN_GIVES",
    "Situation",
    "UnitFacts",
    "Verdict",
    "accepted_forms",
    "holds",
    "problems",
    "resolve",
    "river_features",
    "unit_facts",
]


@dataclass(frozen=True)
class UnitFacts:
    """What a condition may ask about one unit in the combat (None: not known)."""

    side: str | None = None
    unit_type: str | None = None
    mobility: str | None = None
    supplied: bool | None = None
    across: frozenset[str] | None = None
    """The hexside features between this unit and the defender (attackers)."""


@dataclass(frozen=True)
class Situation:
    """The facts of one combat that conditions read; None where not known."""

    weather: str | None = None
    phase: str | None = None
    attacker_side: str | None = None
    defender_side: str | None = None
    defender_terrain: frozenset[str] | None = None
    attackers: tuple[UnitFacts, ...] | None = None
    defenders: tuple[UnitFacts, ...] | None = None
    terrain_shifts: frozenset[str] | None = None
    """Ids of the shifts the defender's terrain gives (for ``defender-terrain`` shifts)."""
    declared: frozenset[str] | None = None
    """The :data:`DECLARED` facts (or shift/modifier ids) that hold; None: not known which do."""


class Verdict(NamedTuple):
    """Whether a condition holds: True, False, or None (with the reason) when the facts are not known."""

    value: bool | None
    why: str = ""


def _unit_fact(c: Condition, u: UnitFacts) -> bool | None:
    """Whether one unit meets the condition's unit facts (None: a fact about it is not known)."""
    verdicts: list[bool | None] = []
    if c.supply is not None:
        verdicts.append(None if u.supplied is None else (u.supplied == (c.supply == "supplied")))
    if c.across:
        verdicts.append(None if u.across is None else bool(set(c.across) & u.across))
    if c.unit_types:
        verdicts.append(None if u.unit_type is None else u.unit_type in {t.value for t in c.unit_types})
    if c.mobility:
        verdicts.append(None if u.mobility is None else u.mobility in c.mobility)
    if any(v is False for v in verdicts):
        return False
    return None if any(v is None for v in verdicts) else True


def _count(c: Condition, group: Sequence[UnitFacts]) -> bool | None:
    facts = [_unit_fact(c, u) for u in group]
    yes = sum(1 for v in facts if v)
    maybe = sum(1 for v in facts if v is None)
    n = len(facts)

    def test(k: int) -> bool:
        if c.units == "all":
            return n > 0 and k == n
        if c.units == "any":
            return k > 0
        if c.units == "some-not-all":
            return 0 < k < n
        return k > 0 and 2 * k >= n

    outcomes = {test(k) for k in range(yes, yes + maybe + 1)}
    return outcomes.pop() if len(outcomes) == 1 else None


def holds(
    condition: Condition | str | None,
    situation: Situation,
    *,
    ident: str | None = None,
    unit: UnitFacts | None = None,
    role: str | None = None,
) -> Verdict:
    """Whether ``condition`` (resolved, :func:`resolve`) holds in ``situation``.

    ``unit``: the one unit a per-unit modifier changes (its facts answer the unit facts); ``role``: a modifier's
    role (the default of the condition's); ``ident``: the shift's id (``defender-terrain`` shifts)."""
    if condition is None:
        return Verdict(True)
    if isinstance(condition, str):
        if condition == TERRAIN_GIVES:
            if unit is not None or role is not None:  # a modifier: its own ``terrain`` list decides
                return Verdict(True)
            if situation.terrain_shifts is None:
                return Verdict(None, "the defender's hex or its terrain is not known")
            return Verdict(ident in situation.terrain_shifts)
        if condition in DECLARED:
            if situation.declared is None:
                return Verdict(None, f"whether {DECLARED[condition]} is not given")
            return Verdict(condition in situation.declared or (ident is not None and ident in situation.declared))
        if condition in ALIASES:
            return holds(resolve(condition), situation, ident=ident, unit=unit, role=role)
        return Verdict(None, f"condition {condition!r} is not one a rule reads")
    c = condition
    unknown: list[str] = []

    def need(ok: bool | None, what: str) -> bool:
        if ok is None:
            unknown.append(what)
            return True
        return ok

    if c.weather and not need(
        None if situation.weather is None else situation.weather.lower() in {w.lower() for w in c.weather},
        "the weather is not known",
    ):
        return Verdict(False)
    if c.phase and not need(
        None if situation.phase is None else situation.phase.lower() in {p.lower() for p in c.phase},
        "the phase is not known",
    ):
        return Verdict(False)
    for side, have in ((c.attacker_side, situation.attacker_side), (c.defender_side, situation.defender_side)):
        if side is not None and not need(None if have is None else have == side, "the sides are not known"):
            return Verdict(False)
    if c.terrain and not need(
        None if situation.defender_terrain is None else bool(set(c.terrain) & situation.defender_terrain),
        "the defender's hex or its terrain is not known",
    ):
        return Verdict(False)
    if any(getattr(c, f) not in (None, []) for f in UNIT_FACTS):
        if unit is not None:
            ok = _unit_fact(c, unit)
            if not need(ok, "a fact about the unit (its supply, type or position) is not known"):
                return Verdict(False)
        else:
            who = c.role or role
            group = situation.attackers if who == "attacker" else situation.defenders if who == "defender" else None
            ok = None if group is None else _count(c, group)
            if not need(ok, f"the {who or 'units'}' supply, types or positions are not known"):
                return Verdict(False)
    if unknown:
        return Verdict(None, "; ".join(dict.fromkeys(unknown)))
    return Verdict(True)


def unit_facts(
    units: Iterable[tuple[str | None, str | None, str | None]],
    *,
    supplied: Collection[bool | None] | None = None,
    across: Collection[frozenset[str] | None] | None = None,
) -> tuple[UnitFacts, ...]:
    """Unit facts from (side, unit type, mobility) triples and, in the same order, supply and crossings."""
    us = list(units)
    sup = list(supplied) if supplied is not None else [None] * len(us)
    acr = list(across) if across is not None else [None] * len(us)
    return tuple(
        UnitFacts(side=s, unit_type=t, mobility=mb, supplied=sp, across=ac)
        for (s, t, mb), sp, ac in zip(us, sup, acr, strict=True)
    )
