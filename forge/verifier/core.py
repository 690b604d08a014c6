"""What every check shares: stated values compared with computed ones, the per-game :class:`Context`, and the
per-example tally :class:`Acc`.

A check never edits data.  It reads the game through the context and reports through :meth:`Context.add`; the
severity of each kind of finding is decided in one place, :mod:`forge.verifier.policy`.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

from .. import model as m
from ..errors import Finding
from ..hexgrid import Cell, Grid, Hexside
from ..rules import combat as cb
from .policy import SEVERITY
from .provenance import Origin, origins

__all__ = ["HANDLERS", "HOW", "Acc", "Context", "decimals", "handles", "num", "same", "show"]

HOW = ("engine", "data", "arithmetic")
"""How a stated value was recomputed: ``engine``, a rule procedure of the engine gave it (combat, movement, supply
...); ``data``, it was compared with the value an encoded rule field holds (a fact the book states twice);
``arithmetic``, the book's own arithmetic was redone from its inputs."""

WHY = ("book", "context", "unreachable", "engine")
"""Why a stated value was not recomputed, so that a designer can tell Hexforge's gaps from the book's: ``book``,
the rulebook does not give an input the value depends on (the CRT's cells, the map, where the units stand at that
moment, the roll, a unit's strength); ``context``, the value is no claim of the rules (history, a bibliography,
another game's illustration, the book's wording, a qualifier such as "about"); ``unreachable``, the rules as
encoded give another value, but only in positions no game reaches (so it is no erratum, and no agreement either);
``engine``, a rule the engine does not compute (yet).  Anything not marked otherwise is ``engine``: an unexplained
gap counts against Hexforge."""


class Claim(NamedTuple):
    """One value an example states, and what became of it."""

    example: str
    key: str
    status: str
    """How it was recomputed (:data:`HOW`), ``mismatch``, or ``unchecked``."""
    reason: str = ""
    """Why it was not recomputed (``unchecked`` only)."""
    why: str = ""
    """The reason's category (:data:`WHY`; ``unchecked`` only)."""
    twice: bool = False
    """Checked against the data, and the book states the fact a second time (``Example.stated_elsewhere``): the
    comparison is one of two statements of the book, not of a field with the sentence it was typed from."""
    basis: str = ""
    """What a recomputed value is evidence of (:data:`.provenance.BASES`: ``independent``, ``cross-check``,
    ``echo``); empty for a value not recomputed."""
    echo: str = ""
    """Why it is an echo (``basis == "echo"`` only)."""


# =================================================================================================== values
def num(x: Any) -> Fraction | None:
    """A stated number as a fraction: 3, 2.5, "2/3", "1 in 6", "33%", "27/7"; None when it is not a number."""
    if isinstance(x, bool):
        return None
    if isinstance(x, int | Fraction):
        return Fraction(x)
    if isinstance(x, float):
        return Fraction(str(x))
    if isinstance(x, str):
        s = x.strip().replace(",", "")
        if mt := re.fullmatch(r"(\d+)\s+in\s+(\d+)", s):
            return Fraction(int(mt.group(1)), int(mt.group(2)))
        if mt := re.fullmatch(r"(-?\d+(?:\.\d+)?)\s*%", s):
            return Fraction(mt.group(1)) / 100
        try:
            return Fraction(s)
        except (ValueError, ZeroDivisionError):
            return None
    return None


def decimals(x: Any) -> int | None:
    """Decimal places of a stated decimal (3.71 -> 2), None for exact values."""
    s = str(x).strip()
    if isinstance(x, float) or re.fullmatch(r"-?\d+\.\d+", s):
        return len(s.split(".")[1]) if "." in s else 0
    return None


def show(x: Any) -> str:
    """A value as a report prints it: fractions as 2/3, booleans as true/false, lists and maps inline."""
    if x is None:
        return "unknown"
    if isinstance(x, Fraction):
        return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    if isinstance(x, list | tuple):
        return "[" + ", ".join(show(v) for v in x) + "]"
    if isinstance(x, dict):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in x.items()) + "}"
    return str(x)


def same(stated: Any, computed: Any, *, unordered: bool = False, approx: bool = False) -> bool:
    """Does the book's value equal the computed one?  Numbers exactly, or to the decimals the book gives (3.71);
    with ``approx`` (unit conversions) a whole number in the book is compared with the rounded result."""
    if isinstance(stated, dict) and isinstance(computed, dict):
        return set(map(str, stated)) == set(map(str, computed)) and all(
            same(v, computed[k] if k in computed else computed.get(str(k))) for k, v in stated.items()
        )
    if isinstance(stated, bool) or isinstance(computed, bool):
        return stated is computed or (isinstance(stated, str) and str(stated).lower() == str(computed).lower())
    if isinstance(stated, list | tuple) and isinstance(computed, list | tuple):
        if len(stated) != len(computed):
            return False
        if unordered:
            rest = list(computed)
            for s in stated:
                hit = next((i for i, c in enumerate(rest) if same(s, c)), None)
                if hit is None:
                    return False
                rest.pop(hit)
            return True
        return all(same(s, c) for s, c in zip(stated, computed, strict=True))
    if isinstance(stated, str) and isinstance(computed, str) and "/" in stated + computed:
        # "0/1" is a pair of losses or hits (attacker/defender, normal/all-out), not the fraction 0: compare the
        # pair as written; a fraction the engine computes arrives as a number, not as a string
        return "".join(stated.split()).lower() == "".join(computed.split()).lower()
    ns, nc = num(stated), num(computed)
    if ns is not None and nc is not None:
        d = decimals(stated)
        if d is None and approx:
            d = 0
        if d is not None and decimals(computed) is None:
            return round(float(nc), d) == float(ns)
        return ns == nc
    return str(stated).strip().lower() == str(computed).strip().lower()


def _root(key: str) -> str:
    """The ``states`` key a sub-key such as ``legal[1]`` or ``losses.ger-9ss`` belongs to."""
    return key.split("[")[0].split(".")[0]


# =================================================================================================== tally
@dataclass
class Acc:
    """What one example's recomputation found."""

    ex: m.Example
    known_given: set[str] = field(default_factory=set)
    done: set[str] = field(default_factory=set)
    mismatches: list[tuple[str, Any, Any, str]] = field(default_factory=list)
    passed: list[tuple[str, Any, Any]] = field(default_factory=list)
    unchecked: dict[str, str] = field(default_factory=dict)
    why: dict[str, str] = field(default_factory=dict)
    """Unchecked key -> the category of its reason (:data:`WHY`)."""
    choices: set[str] = field(default_factory=set)
    """Keys whose stated value is a player's choice among legal ones (who advances): what is checked is that the
    choice is legal, so another legal choice passes too (:mod:`.sites` counts it as equivalent, not an echo)."""
    invalid: list[str] = field(default_factory=list)
    where: dict[str, str] = field(default_factory=dict)
    """The CRT cell or column the example reads (reported with its findings)."""
    how: dict[str, str] = field(default_factory=dict)
    """``states`` key -> how it was recomputed (one of :data:`HOW`)."""
    uses: set[str] = field(default_factory=set)
    """The data sites the recomputation read: ``crt:<column>:<row>`` (``crt[<section>]:...``,
    ``crt.secondary:...``), ``shift:<id>``, ``terrain:<id>`` (its combat effect), ``terrain:<id>:movement``
    (``terrain:*:movement``: every terrain's costs), ``unit:<id>``, ``hex:<label>``, ``table:<id>``,
    ``path:<dotted path>`` (ids in brackets: ``combat.shifts[mud].shift``).  Findings carry them, so that a change
    to any of them is traced to the examples it touches; :mod:`.sites` names them and checks, by mutating each
    site, that no read goes unrecorded (tests/test_metamorphic.py)."""
    partial: dict[str, str] = field(default_factory=dict)
    """Mismatched ``states`` key -> why the data cannot decide it (a map the data marks partial): reported as a
    warning with that reason, never withheld."""

    def given(self, key: str, default: Any = None) -> Any:
        self.known_given.add(key)
        return self.ex.given.get(key, default)

    def has(self, key: str) -> bool:
        self.known_given.add(key)
        return key in self.ex.given

    def use(self, *sites: str) -> None:
        self.uses.update(sites)

    def check(
        self,
        key: str,
        computed: Any,
        note: str = "",
        *,
        unordered: bool = False,
        approx: bool = False,
        partial_map: str | None = None,
        how: str = "engine",
    ) -> None:
        """Compare states[key] with ``computed`` (nothing happens when the example states no such key)."""
        if key not in self.ex.states:
            return
        self.check_value(
            key,
            self.ex.states[key],
            computed,
            note,
            unordered=unordered,
            approx=approx,
            partial_map=partial_map,
            how=how,
        )

    def check_value(
        self,
        key: str,
        stated: Any,
        computed: Any,
        note: str = "",
        *,
        unordered: bool = False,
        approx: bool = False,
        partial_map: str | None = None,
        how: str = "engine",
    ) -> None:
        """Record whether the book's ``stated`` value equals ``computed``.  A value the engine computed is always
        recorded as passed or mismatched, never turned into "not recomputed": ``partial_map`` (the map's status when
        the value comes from map features and the map is not complete) only adds the reason the data may not
        decide it, and :func:`.examples.report` reports such a mismatch as a warning with that reason."""
        assert how in HOW, how
        self.done.add(_root(key))
        if computed is None:
            self.skip(key, note or "the engine cannot compute it from the data", gap(note))
        elif same(stated, computed, unordered=unordered, approx=approx):
            self.passed.append((key, stated, computed))
            self.how.setdefault(_root(key), how)
            self.unchecked.pop(key, None)  # a later handler recomputed what an earlier one could not
        else:
            self.mismatches.append((key, stated, computed, note))
            self.how.setdefault(_root(key), how)
            self.unchecked.pop(key, None)
            if partial_map:
                self.partial[key] = (
                    f"the map is {partial_map}: features the data does not describe may make up the difference"
                )

    def skip(self, key: str, reason: str, why: str = "engine") -> None:
        """Mark ``key`` not recomputed, with a one-line reason and its category (:data:`WHY`), unless another
        handler already recomputed it."""
        assert why in WHY, why
        self.done.add(_root(key))
        if not any(k == key for k, _, _ in self.passed) and not any(k == key for k, *_ in self.mismatches):
            self.unchecked[key] = reason
            self.why[key] = why


def gap(reason: str) -> str:
    """The category (:data:`WHY`) of a reason worded elsewhere (a strength or column helper): ``book`` when it
    says that an input is not given or not known, else ``engine``."""
    return "book" if _NOT_GIVEN.search(reason) else "engine"


_NOT_GIVEN = re.compile(r"\bnot (?:given|known)\b|\bno column, attack or defen[cs]e given\b")


Handler = Callable[["Context", Acc], None]
HANDLERS: dict[m.ExampleKind, list[Handler]] = defaultdict(list)
"""Example kind -> the handlers that recompute its keys, in registration order."""


def handles(*kinds: m.ExampleKind) -> Callable[[Handler], Handler]:
    """Register a handler ``(ctx, acc) -> None`` for examples of these kinds.  Several handlers may serve one kind;
    each checks the keys it knows, and a key none of them checks is reported as not recomputed."""

    def deco(fn: Handler) -> Handler:
        for k in kinds:
            HANDLERS[k].append(fn)
        return fn

    return deco


# =================================================================================================== context
class Context:
    """One game as the checks see it: the data, the map helpers, and the findings gathered so far."""

    def __init__(self, game: m.Game) -> None:
        self.game = game
        self.combat = game.combat
        self.crt = game.combat.crt
        self.grid: Grid = game.map.grid.grid()
        self.findings: list[Finding] = []
        self.sides = [s.id for s in game.game.sides]
        self.units = {u.id: u for u in game.units}
        self.shifts = {s.id: s for s in game.combat.shifts}
        self.hexsides: dict[Hexside, set[str]] = {}
        for hs in game.map.hexsides:
            try:
                a, b = self.grid.parse(hs.between[0]), self.grid.parse(hs.between[1])
                self.hexsides.setdefault(self.grid.side(a, b), set()).update(hs.features)
            except ValueError:
                continue
        # (section, column, row, part) -> [(value, example id, rule)]
        self.implied: dict[tuple[str, str, str, str], list[tuple[str, str, str]]] = defaultdict(list)
        self.passed: dict[str, list[tuple[str, str, str, str]]] = {}
        """Example id -> the (key, book, rules, how) values that were recomputed and agreed."""
        self.claims: list[Claim] = []
        """Every value the examples state, and what became of it."""
        status = game.map.status
        self.partial_map = None if status is m.MapStatus.COMPLETE else status.value
        self.choices: set[tuple[str, str]] = set()
        """(example id, key) of the values that are a choice among legal ones (:attr:`Acc.choices`)."""
        self.origins: dict[str, Origin] = origins(game)
        """Where the data's values were typed from (:func:`.provenance.origins`)."""
        self.uses: dict[str, set[str]] = {}
        """Example id -> the data sites its recomputation read (:attr:`Acc.uses`; :mod:`.sites` checks them)."""

    def add(
        self,
        kind: str,
        rule: str | None,
        message: str,
        *,
        stated: Any = None,
        computed: Any = None,
        ref: str | None = None,
        **extra: Any,
    ) -> None:
        if kind not in SEVERITY:  # every kind's severity is the policy's: a kind it does not list is a bug
            raise ValueError(f"finding kind {kind!r} is not in forge.verifier.policy.KINDS")
        self.findings.append(
            Finding(
                kind,
                rule,
                message,
                None if stated is None else show(stated),
                None if computed is None else show(computed),
                ref,
                {k: show(v) for k, v in sorted(extra.items()) if v is not None},
            )
        )

    def cell(self, label: Any) -> Cell | None:
        try:
            c = self.grid.parse(str(label))
        except ValueError:
            return None
        return c if self.grid.contains(c) else None

    def terrain_ids(self, label: str) -> set[str] | None:
        """The terrain a defender in the hex fights as (:func:`forge.rules.combat.combat_terrain`); None when the
        map does not say (no default terrain)."""
        info = self.game.map.hexes.get(label)
        base = (info.terrain if info else None) or self.game.map.default_terrain
        if base is None:
            return None
        return cb.combat_terrain(self.game.terrain, base, info.features if info else [])

    def is_river(self, feature: str) -> bool:
        t = self.game.terrain.get(feature)
        return "river" in feature.lower() or (t is not None and "river" in t.name.lower())

    def river_between(self, a: Cell, b: Cell) -> bool:
        try:
            side = self.grid.side(a, b)
        except ValueError:
            return False
        return any(self.is_river(f) for f in self.hexsides.get(side, ()))

    def position(self, uid: str) -> str | None:
        u = self.units.get(uid)
        if u is None:
            return None
        if u.setup is not None:
            return u.setup
        return u.entry.hex if u.entry is not None else None
