"""The vocabulary of conditions: when a column shift or a strength modifier applies (``combat.shifts[].condition``,
``combat.modifiers[].condition``).  Defined once, here; :mod:`forge.rules.kit.conditions` decides whether a condition
holds in a combat, and ``forge check`` refuses, with :func:`problems`, any condition no rule reads.

A condition is either a mapping of facts (:class:`forge.model.Condition`: weather, the defender's terrain, a hexside
feature attacked across, the sides, unit types and mobility classes, supply, the phase) or one of the keys below.
A key is a name for a mapping (:data:`ALIASES`), or a fact the engine reads from its own position:
``defender-terrain`` (the defender's terrain gives the shift: the terrain table decides which one) and the
:data:`DECLARED` facts, which hold only where a position or an example says so (an example's list of ``shifts``).
Nothing else is accepted, so that a rule never goes silently unapplied.

>>> resolve("mud").weather, resolve("half-across-river").units
(['mud'], 'at-least-half')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .errors import suggest
from .model import Condition, Game, TerrainKind, TerrainType

__all__ = [
    "ALIASES",
    "DECLARED",
    "FIELDS",
    "KEYS",
    "RIVER",
    "TERRAIN_GIVES",
    "UNIT_FACTS",
    "accepted_forms",
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

UNIT_FACTS = ("supply", "across", "unit_types", "mobility")
"""The fields of a condition that are facts about units."""


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
    if shift and c.role is None and any(getattr(c, f) not in (None, []) for f in UNIT_FACTS):
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
