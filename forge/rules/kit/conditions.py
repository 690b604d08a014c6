"""The conditions of column shifts and strength modifiers: one vocabulary, read by the odds computation, by
``forge verify`` and by ``forge check``.

A condition (``combat.shifts[].condition``, ``combat.modifiers[].condition``) is either a mapping of facts
(:class:`forge.model.Condition`: weather, the defender's terrain, a hexside feature attacked across, the sides,
unit types and mobility classes, supply, the phase) or one of the keys below.  A key is a name for a mapping
(:data:`ALIASES`), or a fact the engine reads from its own position: ``defender-terrain`` (the defender's terrain
gives the shift: the terrain table decides which one) and the :data:`DECLARED` facts, which hold only where a
position or an example says so (an example's list of ``shifts``).  Nothing else is accepted: a condition no rule
reads is refused by :func:`problems`, so that a rule never goes silently unapplied.

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

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ...errors import suggest
from ...model import Condition, Game, TerrainKind, TerrainType

__all__ = [
    "ALIASES",
    "DECLARED",
    "TERRAIN_GIVES",
    "Situation",
    "UnitFacts",
    "Verdict",
    "accepted_forms",
    "holds",
    "problems",
    "resolve",
    "river_features",
]

RIVER = "river"
"""The hexside feature the legacy ``*-across-river`` keys name: any hexside feature whose id or name says river
(:func:`river_features`)."""

ALIASES: dict[str, Condition] = {
    "mud": Condition(weather=["mud"]),
    "defender-all-unsupplied": Condition(role="defender", supply="unsupplied", units="all"),
    "defender-some-unsupplied": Condition(role="defender", supply="unsupplied", units="some-not-all"),
    "attacker-all-unsupplied": Condition(role="attacker", supply="unsupplied", units="all"),
    "attacker-some-unsupplied": Condition(role="attacker", supply="unsupplied", units="some-not-all"),
    "half-across-river": Condition(role="attacker", across=[RIVER], units="at-least-half"),
    "all-across-river": Condition(role="attacker", across=[RIVER], units="all"),
    "across-river": Condition(role="attacker", across=[RIVER], units="all"),
    "attacker-unsupplied": Condition(role="attacker", supply="unsupplied", units="all"),
    "defender-unsupplied": Condition(role="defender", supply="unsupplied", units="all"),
}
"""Keys that name a mapping of facts (the keys the seed games were written with)."""

TERRAIN_GIVES = "defender-terrain"
"""The defender's terrain gives this shift or modifier: a shift when the terrain table's shift for the defender's
hex is this one (by id, or the one shift of that size), a modifier within its ``terrain`` list."""

DECLARED: dict[str, str] = {
    "concentric": "the attack is concentric",
    "air-support": "air support joins the attack",
    "artillery": "artillery supports the attack",
    "leader": "a leader joins the combat",
    "unit-present": "a particular unit takes part",
}
"""Facts the data cannot derive from a position: they hold where a position or an example says so."""

KEYS: tuple[str, ...] = (*ALIASES, TERRAIN_GIVES, *DECLARED)

FIELDS = tuple(Condition.model_fields)


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


def resolve(condition: str | Condition | None, terrain: Mapping[str, TerrainType] | None = None) -> (
    Condition | str | None
):
    """A condition as the engine reads it: a mapping (an alias expanded; ``river`` becomes every river-like
    hexside feature of ``terrain``), or the key ``defender-terrain`` or a :data:`DECLARED` key; None: always.
    KeyError for a key no rule reads."""
    if condition is None or isinstance(condition, Condition):
        return condition
    if condition in ALIASES:
        c = ALIASES[condition]
        if c.across and terrain is not None:
            c = c.model_copy(update={"across": sorted(river_features(terrain)) or [RIVER]})
        return c
    if condition == TERRAIN_GIVES or condition in DECLARED:
        return condition
    raise KeyError(condition)


def river_features(terrain: Mapping[str, TerrainType]) -> set[str]:
    """Hexside features whose id or name says river (what the legacy ``*-across-river`` keys cross)."""
    return {
        tid
        for tid, t in terrain.items()
        if t.kind is TerrainKind.HEXSIDE and ("river" in tid.lower() or "river" in t.name.lower())
    } | {RIVER}


_UNIT_FACTS = ("supply", "across", "unit_types", "mobility")


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
    if any(getattr(c, f) not in (None, []) for f in _UNIT_FACTS):
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


# ================================================================================================== forge check
def accepted_forms() -> str:
    """The forms a condition may take, for messages."""
    return (
        f"a mapping of {', '.join(FIELDS)}, or one of the keys {', '.join(KEYS)}"
    )


def problems(
    condition: str | Condition | None, game: Game, *, per_unit: bool, shift: bool = False
) -> list[tuple[tuple[str, ...], str]]:
    """What is wrong with one condition of ``game``: (key path below the condition, message) pairs, [] when
    every part names something a rule reads.  ``per_unit``: the condition belongs to a per-unit modifier;
    ``shift``: to a column shift (whose unit facts need a ``role``: a modifier's default to its own)."""
    out: list[tuple[tuple[str, ...], str]] = []
    if condition is None:
        return out
    if isinstance(condition, str):
        try:
            resolved = resolve(condition, game.terrain)
        except KeyError:
            return [((), f"{condition!r} is no condition a rule reads{suggest(condition, KEYS)} (expected "
                     f"{accepted_forms()})")]
        if isinstance(resolved, Condition) and resolved.weather:
            states = _weather_states(game)
            missing = [w for w in resolved.weather if w not in states]
            if missing:
                out.append(((), f"{condition!r} tests the weather {', '.join(missing)}, which is not a weather state "
                            f"of the game ({_listed(states)}: turns.weather.states or a turn's weather)"))
        return out
    c = condition
    states = _weather_states(game)
    for i, w in enumerate(c.weather):
        if w not in states:
            out.append((("weather", str(i)), f"{w!r} is not a weather state of the game{suggest(w, states)} "
                        f"(expected one of {_listed(states)}: turns.weather.states or a turn's weather)"))
    kinds = {"terrain": (TerrainKind.HEX, TerrainKind.FEATURE), "across": (TerrainKind.HEXSIDE,)}
    for key, allowed in kinds.items():
        ids = sorted(t for t, tt in game.terrain.items() if tt.kind in allowed)
        for i, tid in enumerate(getattr(c, key)):
            if tid not in ids:
                out.append(((key, str(i)), f"{tid!r} is not a terrain of kind {'/'.join(k.value for k in allowed)}"
                            f"{suggest(tid, ids)} (expected one of {_listed(ids)})"))
    sides = [s.id for s in game.game.sides]
    for key in ("attacker_side", "defender_side"):
        v = getattr(c, key)
        if v is not None and v not in sides:
            out.append(((key,), f"{v!r} is not a side{suggest(v, sides)} (expected one of {_listed(sides)})"))
    classes = list(game.game.mobility_classes)
    for i, mc in enumerate(c.mobility):
        if mc not in classes:
            out.append((("mobility", str(i)), f"{mc!r} is not a mobility class{suggest(mc, classes)} "
                        f"(expected one of {_listed(classes)}: game.mobility_classes)"))
    phases = [p.name for p in game.sequence]
    for i, ph in enumerate(c.phase):
        if ph not in phases:
            out.append((("phase", str(i)), f"{ph!r} is not a phase of the sequence of play{suggest(ph, phases)} "
                        f"(expected one of {_listed(phases)})"))
    if shift and c.role is None and any(getattr(c, f) not in (None, []) for f in _UNIT_FACTS):
        out.append((("role",), "a shift's facts about units need the units' role (expected role: attacker or "
                    "defender)"))
    if per_unit and c.units not in ("all", "any"):
        out.append((("units",), f"{c.units!r} counts units, but a per-unit modifier changes one unit at a time "
                    "(expected all, or per_unit: false on the modifier)"))
    if not any(getattr(c, f) not in (None, [], "all") for f in FIELDS if f != "role"):
        out.append(((), f"an empty condition holds always (expected at least one of {', '.join(FIELDS)}; "
                    "or leave the condition out)"))
    return out


def _weather_states(game: Game) -> list[str]:
    states: list[str] = []
    if game.turns.weather is not None:
        states += game.turns.weather.states
    states += [t.weather for t in game.turns.turns if t.weather is not None]
    return list(dict.fromkeys(states))


def _listed(values: Iterable[str]) -> str:
    vals = list(values)
    return ", ".join(vals) if vals else "none"


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
