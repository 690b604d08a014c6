"""Data sites and single-site mutations: the soundness check of ``forge verify`` (issue 8, item 4).

A *site* is one value of a game's data that a recomputation may read -- a CRT cell, a shift's value, a terrain's
movement cost or combat shift, a unit's printed strength on one face, or a value an example states.  Its name is
the one :attr:`.core.Acc.uses` records:

* ``crt:<column>:<row>``, ``crt[<section>]:<column>:<row>``, ``crt.secondary:<column>:<row>`` -- a CRT cell;
* ``shift:<id>`` -- a column shift's value;
* ``terrain:<id>`` -- a terrain's combat effect (shift, defence), ``terrain:<id>:movement`` -- its movement costs;
* ``unit:<id>`` -- a unit's steps (strengths on each face, and how many);
* ``example:<id>:<key>`` -- a value an example states (``<key>`` a dotted path below the ``states`` key).

:func:`mutate` changes one site to another valid value of the same type and :func:`outcome` says what ``verify``
made of it: the contract is that a change to a site some recomputed claim depends on is reported by a finding that
names it, that a site nothing depends on changes nothing, and that the stated value of a claim the engine cannot
recompute is listed as unchecked before and after.  ``bench/bench_metamorphic.py`` runs every mutation,
``tests/test_metamorphic.py`` a sample.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .. import model as m
from ..errors import Finding
from ..notation import DiffColumn, OddsColumn
from .core import Acc, Context, Handler, num, same, show
from .policy import severity

__all__ = [
    "ANY_MOVEMENT",
    "CATEGORIES",
    "Baseline",
    "Mutation",
    "Outcome",
    "Site",
    "baseline",
    "column_sites",
    "crt_site",
    "hex_sites",
    "mentioned_by",
    "movement_sites",
    "mutate",
    "mutations",
    "outcome",
    "records",
    "run",
    "sites",
]

RECOMPUTED = ("engine", "data", "arithmetic", "mismatch")
"""Claim statuses that mean the engine recomputed the value."""

CATEGORIES = ("detected", "equivalent", "declared", "unread", "MISSED")
"""What a mutation came to: ``detected``, a new (or vanished) error/warning finding names the site;
``equivalent``, the site is depended on but no recomputed value changed (the mutated data still gives every
value the book states); ``declared``, the stated value of a claim the report lists as unchecked, before and after;
``unread``, no recomputation reads the site and nothing changed; ``MISSED``, anything else (a soundness bug)."""


# =================================================================================================== names
def crt_site(column: str, row: str, section: str | None = None, *, secondary: bool = False) -> str:
    """The site name of a CRT cell (see the module docstring)."""
    if secondary:
        return f"crt.secondary:{column}:{row}"
    return f"crt[{section}]:{column}:{row}" if section else f"crt:{column}:{row}"


def column_sites(crt: m.Crt, column: str, section: str | None = None, *, secondary: bool = False) -> list[str]:
    """Every cell of one column (a distribution or a "the result must be on the column" check reads them all)."""
    rows = crt.secondary.rows if secondary and crt.secondary is not None else crt.rows
    return [crt_site(column, r, section, secondary=secondary) for r in rows]


def hex_sites(ctx: Context, label: str | None) -> list[str]:
    """What the terrain a defender fights as (:meth:`.core.Context.terrain_ids`) is read from: the hex, and the
    combat effect of its base terrain and of each feature (a feature with an effect stands in for the base)."""
    if label is None:
        return []
    info = ctx.game.map.hexes.get(str(label))
    base = (info.terrain if info else None) or ctx.game.map.default_terrain
    feats = list(info.features) if info else []
    return [f"hex:{label}", *(f"terrain:{t}" for t in ([base] if base else []) + feats)]


ANY_MOVEMENT = "terrain:*:movement"
"""The use that stands for every terrain's movement costs."""


def movement_sites(game: m.Game, terrain: list[str] | None = None) -> list[str]:
    """The movement costs of ``terrain``; by default :data:`ANY_MOVEMENT`, every terrain's (the movement kit prices
    whatever a board, a path or a crossing holds, so a recomputation through it may read any of them)."""
    if terrain is None:
        return [ANY_MOVEMENT]
    return [f"terrain:{t}:movement" for t in terrain]


def records(what: Callable[[m.Game], list[str]]) -> Callable[[Handler], Handler]:
    """A handler that reads sites it cannot easily list one by one (the movement kit prices whatever a board
    holds): when it recomputed any value of the example, ``what(game)`` is added to the example's uses."""

    def deco(fn: Handler) -> Handler:
        @functools.wraps(fn)
        def wrapper(ctx: Context, acc: Acc) -> None:
            before = (set(acc.done), len(acc.passed), len(acc.mismatches))
            try:
                fn(ctx, acc)
            finally:
                if (set(acc.done), len(acc.passed), len(acc.mismatches)) != before:
                    acc.use(*what(ctx.game))

        return wrapper

    return deco


# =================================================================================================== sites
@dataclass(frozen=True)
class Site:
    """One mutable value of a game: its name, where it lives in the model's dump, its value and what it may become."""

    kind: str
    """``crt``, ``shift``, ``terrain``, ``unit`` or ``stated``."""
    name: str
    path: tuple[str | int, ...]
    old: Any
    candidates: tuple[Any, ...]
    example: str | None = None
    key: str | None = None
    """For a stated value: the ``states`` key it belongs to (its root)."""
    crt: tuple[str | None, str, str, bool] | None = None
    """For a CRT cell: (section, column, row, secondary)."""
    dotted: str = ""
    """The site as a data path with ids (``combat.shifts[mud].shift``, ``terrain.woods.movement.all``): a use
    ``path:<p>`` names the site when ``p`` is this path or a part of it."""


@dataclass(frozen=True)
class Mutation:
    game: str
    site: Site
    new: Any

    def __str__(self) -> str:
        return f"{self.game}: {self.site.name} {show(self.site.old)!s} -> {show(self.new)}"


def _num_candidates(x: int | float) -> tuple[Any, ...]:
    if isinstance(x, bool):
        return (not x,)
    out = [x + 1, x - 1] if x > 0 else [x + 1, x + 2] if x == 0 else [x - 1, x + 1]
    return tuple(type(x)(v) for v in out if v != x)


_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _numeric_text_candidates(s: str) -> tuple[str, ...]:
    """Each number in a text one more (and one less when positive): "4-3" -> "5-3", "3-3", "4-4", "4-2"."""
    out: list[str] = []
    for mt in _NUMBER.finditer(s):
        text = mt.group()
        dec = len(text.split(".")[1]) if "." in text else 0
        for delta in (1, -1):
            v = float(text) + delta
            if v < 0:
                continue
            rep = f"{v:.{dec}f}"
            new = s[: mt.start()] + rep + s[mt.end() :]
            if new != s and new not in out:
                out.append(new)
    return tuple(out)


class _Vocab:
    """Values of the same type that a stated string may be replaced by: ids, column labels, result codes."""

    def __init__(self, game: m.Game) -> None:
        crt = game.combat.crt
        self.columns = list(crt.columns) if crt else []
        self.kind = game.combat.kind
        self.codes: set[str] = set()
        if crt is not None:
            for grid in _grids(crt):
                self.codes.update(c for row in grid[1] for c in row if "?" not in c)
        self.codes.update(game.combat.results)
        self.shifts = [s.id for s in game.combat.shifts]
        self.units = [u.id for u in game.units]
        self.terrain = list(game.terrain)
        self.sides = [s.id for s in game.game.sides]
        self.hexes = sorted(game.map.hexes)
        self.grid = game.map.grid.grid()

    def _col(self, s: str) -> int | None:
        """The CRT column a stated odds/differential falls on."""
        if not self.columns:
            return None
        if s in self.columns:
            return self.columns.index(s)
        try:
            if self.kind is m.CombatKind.DIFFERENTIAL:
                d = DiffColumn.parse(s)
                cols = [DiffColumn.parse(c) for c in self.columns]
            else:
                d = OddsColumn.parse(s)  # type: ignore[assignment]
                cols = [OddsColumn.parse(c) for c in self.columns]  # type: ignore[misc]
        except ValueError:
            return None
        hits = [i for i, c in enumerate(cols) if not c.below and c.low <= d.low]
        return hits[-1] if hits else None

    def candidates(self, s: str) -> tuple[Any, ...]:
        for pool in (self.shifts, self.units, self.terrain, self.sides):
            if s in pool:
                return tuple(x for x in pool if x != s)[:3]
        if s in self.codes:
            return tuple(sorted(c for c in self.codes if c != s))[:3]
        if s not in self.columns and num(s) is not None:
            return _numeric_text_candidates(s)[:3] or (s + "1",)
        j = self._col(s)
        if j is not None:
            return tuple(c for i, c in enumerate(self.columns) if i != j)[:3]
        try:
            c = self.grid.parse(s)
        except ValueError:
            c = None
        if c is not None and self.grid.contains(c):
            nbs = [n for n in self.grid.all_neighbours(c) if self.grid.contains(n)]
            return tuple(self.grid.label(n) for n in nbs[:2])
        if nums := _numeric_text_candidates(s):
            return nums[:3]
        return (s + " (mutated)",)


def _grids(crt: m.Crt) -> Iterator[tuple[str | None, list[list[str]], bool]]:
    """(section, grid, secondary) for every printed grid of the CRT."""
    if isinstance(crt.cells, dict):
        for sec, grid in crt.cells.items():
            if not isinstance(grid, m.Unknown):
                yield sec, grid, False
    elif not isinstance(crt.cells, m.Unknown):
        yield None, crt.cells, False
    if crt.secondary is not None and not isinstance(crt.secondary.cells, m.Unknown):
        yield None, crt.secondary.cells, True


def _leaves(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            yield from _leaves(v, (*path, i))
    else:
        yield path, value


def sites(game: m.Game) -> list[Site]:
    """Every mutable site of a game, each with the values it may be changed to."""
    out: list[Site] = []
    crt = game.combat.crt
    if crt is not None:
        for section, grid, secondary in _grids(crt):
            rows = crt.secondary.rows if secondary and crt.secondary else crt.rows
            codes = sorted({c for row in grid for c in row if "?" not in c})
            base: tuple[str | int, ...] = (
                ("combat", "crt", "secondary", "cells") if secondary else ("combat", "crt", "cells")
            )
            if section is not None:
                base = (*base, section)
            for i, row in enumerate(grid):
                for j, cell in enumerate(row):
                    if "?" in cell:
                        continue
                    cands = tuple(c for c in codes if c != cell)
                    if not cands:
                        continue
                    out.append(
                        Site(
                            "crt",
                            crt_site(crt.columns[j], rows[i], section, secondary=secondary),
                            (*base, i, j),
                            cell,
                            _spread(cands),
                            crt=(section, crt.columns[j], rows[i], secondary),
                            dotted=".".join(str(p) for p in (*base, i, j)[:-2]) + f"[{crt.columns[j]}][{rows[i]}]",
                        )
                    )
    for k, sh in enumerate(game.combat.shifts):
        out.append(
            Site(
                "shift",
                f"shift:{sh.id}",
                ("combat", "shifts", k, "shift"),
                sh.shift,
                _num_candidates(sh.shift),
                dotted=f"combat.shifts[{sh.id}].shift",
            )
        )
    for tid, t in game.terrain.items():
        for cls, cost in t.costs.items():
            if isinstance(cost, int | float) and not isinstance(cost, bool):
                out.append(
                    Site(
                        "terrain",
                        f"terrain:{tid}:movement",
                        ("terrain", tid, "movement", cls),
                        cost,
                        _num_candidates(cost),
                        dotted=f"terrain.{tid}.movement.{cls}",
                    )
                )
        out.append(
            Site(
                "terrain",
                f"terrain:{tid}",
                ("terrain", tid, "combat", "shift"),
                t.combat.shift,
                _num_candidates(t.combat.shift),
                dotted=f"terrain.{tid}.combat.shift",
            )
        )
    for k, u in enumerate(game.units):
        for s, face in enumerate(u.steps):
            cands = _numeric_text_candidates(face)
            if cands:
                out.append(
                    Site(
                        "unit",
                        f"unit:{u.id}",
                        ("units", k, "steps", s),
                        face,
                        cands,
                        dotted=f"units[{u.id}].steps[{s}]",
                    )
                )
    vocab = _Vocab(game)
    for k, ex in enumerate(game.examples):
        for key, value in ex.states.items():
            for path, leaf in _leaves(value, (key,)):
                if leaf is None:
                    continue
                if isinstance(leaf, bool | int | float):
                    new: tuple[Any, ...] = _num_candidates(leaf)
                else:
                    new = vocab.candidates(str(leaf))
                if not new:
                    continue
                dotted = ".".join(str(p) for p in path)
                out.append(
                    Site(
                        "stated",
                        f"example:{ex.id}:{dotted}",
                        ("examples", k, "states", *path),
                        leaf,
                        new,
                        example=ex.id,
                        key=key,
                        dotted=f"examples[{ex.id}].states.{dotted}",
                    )
                )
    return out


def _spread(cands: tuple[str, ...], n: int = 3) -> tuple[str, ...]:
    """At most ``n`` candidates, spread over the sorted codes (first, middle, last)."""
    if len(cands) <= n:
        return cands
    return tuple(dict.fromkeys(cands[round(i * (len(cands) - 1) / (n - 1))] for i in range(n)))


def mutations(game: m.Game) -> list[Mutation]:
    """Every single-site mutation of a game."""
    return [Mutation(game.game.id, s, new) for s in sites(game) for new in s.candidates]


def mutate(game: m.Game, site: Site, new: Any, dump: dict[str, Any] | None = None) -> m.Game:
    """The game with one site changed (validated again: the mutated file stays loadable).  ``dump``: the game's
    ``model_dump()``, to save dumping it again; it is not modified."""
    data = game.model_dump() if dump is None else dump
    top: Any = dict(data)
    node = top
    for p in site.path[:-1]:
        child = node[p]
        child = dict(child) if isinstance(child, dict) else list(child)
        node[p] = child
        node = child
    node[site.path[-1]] = new
    return m.Game.model_validate(top)


# =================================================================================================== runs
@dataclass
class Baseline:
    """One verify run: its error/warning findings, every claim's status and computed value, and the data sites
    each example's recomputation read."""

    game: m.Game
    findings: list[Finding]
    loud: set[tuple[Any, ...]]
    claims: dict[tuple[str, str], tuple[str, str, str]]
    """(example, key) -> (status, computed value, reason)."""
    uses: dict[str, set[str]]
    depended: set[str] = field(default_factory=set)
    """Data sites some example with a recomputed claim read."""
    choices: set[tuple[str, str]] = field(default_factory=set)
    """(example, key) of the values that are a choice among legal ones (:attr:`.core.Context.choices`)."""
    dump: dict[str, Any] = field(default_factory=dict)
    unreachable: set[tuple[str, str]] = field(default_factory=set)
    """(example, key) of the values the rules as encoded give differently only in positions no game reaches: the
    engine computed them, so a stated value changed to the rules' own passes, and rightly."""

    def status(self, example: str, key: str) -> str | None:
        c = self.claims.get((example, key))
        return c[0] if c else None


def _fkey(f: Finding) -> tuple[Any, ...]:
    return (f.kind, f.ref, f.message, f.stated, f.computed, tuple(sorted(f.extra.items())))


def run(game: m.Game) -> Baseline:
    """Verify a game in-process (no printed read-back: it compares the cards with data built from the same data,
    so it cannot see a data mutation) and keep what :func:`outcome` compares."""
    from . import CHECKS

    ctx = Context(game)
    for check in CHECKS:
        check(ctx)
    computed: dict[tuple[str, str], str] = {}
    for ex_id, rows in ctx.passed.items():
        for key, _book, rules, _how in rows:
            computed[(ex_id, key)] = rules
    for f in ctx.findings:
        if f.kind in ("example-mismatch", "example-unmodelled") and f.ref:
            computed[(f.ref, str(f.extra.get("key")))] = str(f.computed)
    claims: dict[tuple[str, str], tuple[str, str, str]] = {}
    for c in ctx.claims:
        ex_id, key, status, reason = c.example, c.key, c.status, c.reason
        sub = sorted(
            v for (e, k), v in computed.items() if e == ex_id and (k == key or k.startswith((key + "[", key + ".")))
        )
        claims[(ex_id, key)] = (status, "; ".join(sub), reason)
    uses: dict[str, set[str]] = dict(getattr(ctx, "uses", {}))
    recomputed = {e for (e, _k), (st, _c, _r) in claims.items() if st in RECOMPUTED}
    depended = set().union(*(u for e, u in uses.items() if e in recomputed)) if uses else set()
    loud = {_fkey(f) for f in ctx.findings if severity(f) != "info"}
    unreachable = {(c.example, c.key) for c in ctx.claims if c.status == "unchecked" and c.why == "unreachable"}
    return Baseline(
        game, list(ctx.findings), loud, claims, uses, depended, ctx.choices, game.model_dump(), unreachable
    )


def baseline(game: m.Game) -> Baseline:
    return run(game)


def names(f: Finding, site: Site) -> bool:
    """Does the finding name the site: its example (a stated value), its ``uses``, a ref ``<kind>.<id>`` or an
    extra ``<kind>: <id>`` (``terrain.town``, ``shift: town``), or (a CRT cell) its column and row?"""
    used = set(str(f.extra.get("uses", "")).split(", "))
    if site.kind == "stated":  # its own example's finding, or a later step's that carried the value (ex_sequence)
        return (site.example is not None and site.example in str(f.ref or "").split(", ")) or site.name in used
    if _read(site, used):
        return True
    kind, ident = site.name.split(":")[:2]
    if site.kind != "crt" and (f.ref in (f"{kind}.{ident}", f"{kind}:{ident}") or f.extra.get(kind) == ident):
        return True  # a check of the data on its own (terrain chart against shift list ...) names what it compares
    if site.crt is None:
        return False
    section, column, row, secondary = site.crt
    if (f.extra.get("section") or None) != section:
        return False
    on_secondary = f.ref == "crt.secondary" or f.extra.get("part") == "secondary"
    if on_secondary != secondary:
        return False
    return any(
        f.extra.get(c_key) == column and f.extra.get(r_key, row) == row
        for c_key, r_key in (("column", "row"), ("other_column", "other_row"))
    )


@dataclass(frozen=True)
class Outcome:
    mutation: Mutation
    category: str
    why: str
    new: tuple[Finding, ...] = ()
    gone: tuple[Finding, ...] = ()


def depended(base: Baseline, site: Site) -> bool:
    """Is the site read by a recomputed claim (data), or is it the stated value of one?"""
    if site.kind == "stated":
        return base.status(str(site.example), str(site.key)) in RECOMPUTED
    return _read(site, base.depended)


def _read(site: Site, uses: set[str]) -> bool:
    """Is the site among ``uses``: by its name, ``terrain:<id>`` for its movement costs too, or a ``path:`` use
    that is the site's data path or a part of it?"""
    if site.name in uses:
        return True
    if site.name.endswith(":movement") and (site.name.removesuffix(":movement") in uses or ANY_MOVEMENT in uses):
        return True
    d = site.dotted
    return any(
        u.startswith("path:") and d.startswith(p := u[5:]) and (len(d) == len(p) or d[len(p)] in ".[") for u in uses
    )


def outcome(base: Baseline, site: Site, new: Any) -> Outcome:
    """Mutate one site, verify, and say what came of it (one of :data:`CATEGORIES`)."""
    mut = Mutation(base.game.game.id, site, new)
    try:
        game = mutate(base.game, site, new, base.dump)
    except ValueError as e:  # pydantic's ValidationError is a ValueError
        return Outcome(mut, "MISSED", f"the mutated game does not load: {e}")
    after = run(game)
    if site.kind == "stated" and not depended(base, site):
        key = (str(site.example), str(site.key))
        now = after.claims.get(key)
        if now is not None and now[0] in RECOMPUTED and now[0] != "mismatch" and key in base.unreachable:
            return Outcome(
                mut,
                "equivalent",
                f"the new value is the one the rules as encoded give ({now[0]}); the book's differed from it only in "
                "positions no game reaches",
            )
        if now is not None and now[0] in RECOMPUTED and now[0] != "mismatch":
            return Outcome(
                mut,
                "MISSED",
                f"an unchecked claim passes with another value ({now[0]}): its check is one-sided "
                f"(before: {base.claims[key][2]})",
            )
    new_f = tuple(f for f in after.findings if severity(f) != "info" and _fkey(f) not in base.loud)
    gone = tuple(f for f in base.findings if severity(f) != "info" and _fkey(f) not in after.loud)
    if any(names(f, site) for f in new_f + gone):
        return Outcome(mut, "detected", "a finding names it", new_f, gone)
    if new_f or gone:
        return Outcome(mut, "MISSED", "the report changed, but no finding names the site", new_f, gone)
    changed = sorted(k for k in set(base.claims) | set(after.claims) if _value(base, k) != _value(after, k))
    if site.kind == "stated":
        key = (str(site.example), str(site.key))
        if depended(base, site):
            c = after.claims.get(key)
            if c is not None and c[0] in RECOMPUTED:
                if new != site.old and same(site.old, new):
                    return Outcome(
                        mut,
                        "MISSED",
                        f"the comparison cannot tell the book's {show(site.old)} from {show(new)} "
                        f"(core.same), so the changed value passes against {c[1]}",
                    )
                if c[1] != base.claims[key][1] and key in base.choices:
                    return Outcome(mut, "equivalent", f"another legal choice, which the rules accept too ({c[1]})")
                if c[1] != base.claims[key][1]:
                    return Outcome(
                        mut,
                        "MISSED",
                        f"an echo: the value the rules give follows the book's ({base.claims[key][1]} -> {c[1]}), "
                        "so any value passes",
                    )
                return Outcome(mut, "equivalent", f"the rules accept the new value as well ({c[1]})")
            return Outcome(
                mut,
                "MISSED",
                f"the claim was recomputed; with the new value it is {c[0]}, and no finding reports it: {c[2]}"
                if c
                else "the claim was recomputed; with the new value it is gone",
            )
        if base.status(*key) == "unchecked" and after.status(*key) == "unchecked":
            return Outcome(mut, "declared", "listed as unchecked before and after")
        return Outcome(
            mut, "MISSED", f"claim status {base.status(*key)} -> {after.status(*key)} (before: {base.claims[key][2]})"
        )
    if changed and not depended(base, site):
        return Outcome(
            mut,
            "MISSED",
            "recomputed values changed, but no recomputation records reading the site: "
            + ", ".join(f"{e}:{k}" for e, k in changed[:5]),
        )
    if changed:
        lost = [k for k in changed if base.status(*k) in RECOMPUTED and after.status(*k) == "unchecked"]
        hidden = [k for k in lost if _HIDDEN.search(after.claims[k][2])]
        if hidden:
            return Outcome(
                mut,
                "MISSED",
                "the rules give another value, but it is reported as unchecked: "
                + ", ".join(f"{k[0]}:{k[1]} ({after.claims[k][2]})" for k in hidden[:3]),
            )
        if lost:
            return Outcome(
                mut,
                "declared",
                "the changed data makes the engine unable to recompute "
                + ", ".join(f"{k[0]}:{k[1]} ({after.claims[k][2]})" for k in lost[:3]),
            )
        return Outcome(mut, "equivalent", "recomputed values changed, but the book's values still agree with them")
    if depended(base, site):
        return Outcome(mut, "equivalent", "read by a recomputation, but every recomputed value is unchanged")
    return Outcome(mut, "unread", "no recomputation reads it, and nothing changed")


def mentioned_by(game: m.Game, site: Site) -> list[str]:
    """Examples whose inputs name a unit, shift or terrain site's id (a weak link: an example may name a unit only
    for its position, or give its strength as a number of its own)."""
    if site.kind not in ("unit", "shift", "terrain"):
        return []
    ident = site.name.split(":")[1]
    return [ex.id for ex in game.examples if ident in {str(v) for _, v in _leaves(ex.given)} | set(ex.given)]


_HIDDEN = re.compile(r"\b(the rules as encoded give|the map data gives)\b")
"""How an unchecked claim's reason says that the engine did compute a value (and it differs from the book's)."""


def _value(b: Baseline, k: tuple[str, str]) -> tuple[str, str] | None:
    """A claim's status and computed value (the book's value and the reason text left out)."""
    c = b.claims.get(k)
    return None if c is None else (c[0], c[1])
