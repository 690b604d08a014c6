"""``forge verify``: the tables and the worked examples of a game checked against the rules engine.

:func:`verify` returns a list of :class:`~forge.errors.Finding` -- possible errata.  Nothing here edits data: an
example that disagrees with the rules is reported with what the book states and what the rules give.

Kinds of finding and their severity (:data:`SEVERITY`; the CLI exits 1 when any finding is an error or a warning):

=====================  ========  ===================================================================================
kind                   severity  meaning
=====================  ========  ===================================================================================
``crt-columns``        error     CRT columns out of order, or a heading that is no odds/differential
``crt-rows``           error     the die rows do not cover every roll of the CRT's dice
``crt-unknown``        warning   cells the rulebook does not give (listed); the engine cannot resolve combat there
``crt-odds``           warning   a cell is worse for the attacker than the cell at lower odds on the same die roll
``crt-odds-dist``      warning   a column's distribution is worse for the attacker than the column to its left
``crt-all-out``        warning   an all-out result below the normal result of the same cell
``crt-die``            warning   a cell against the table's die direction (found from the majority of the table)
``example-mismatch``   error     an example's stated outcome differs from what the rules give
``example-conflict``   error     two examples imply different results for the same CRT cell
``example-invalid``    warning   an example's inputs cannot be used (unknown column, hex off the map ...)
``example-unchecked``  info      stated outcomes the engine cannot recompute, with the reason
``crt-implied``        info      a CRT cell the rulebook does not print but an example implies
``print-mismatch``     error     the printed cards show a value other than the one the engine uses (roundtrip.py)
``print-missing``      warning   something the engine uses is not in the printed cards' text (roundtrip.py)
``print-unchecked``    info      a printed component that could not be read back (roundtrip.py)
=====================  ========  ===================================================================================

An example is **checked** when every value it states was recomputed and agreed; a value the engine cannot
recompute is never counted as passed: it is reported as ``example-unchecked``.  When an example's ``given`` carries
inputs the engine does not model (a leader, support markers) and the rules disagree with the book, the disagreement
is reported as unchecked (naming those inputs), not as a mismatch.

:func:`render_findings` prints findings as text, Markdown or JSON.  The JSON shape is stable, with sorted keys::

    {"game": "hells_gate",
     "findings": [{"kind": "...", "severity": "error|warning|info", "rule": "7.2" | null, "message": "...",
                   "stated": "..." | null, "computed": "..." | null, "ref": "example or table id" | null,
                   "extra": {"column": "3:1", "row": "4", ...}}],
     "summary": {"total": 3, "error": 0, "warning": 0, "info": 3, "by_kind": {"example-unchecked": 3},
                 "examples": {"total": 27, "checked": 20, "mismatched": 0, "unchecked": 7}, "exit": 0}}
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from . import model as m
from .errors import Finding
from .hexgrid import Cell, Grid, Hexside
from .notation import DiffColumn, OddsColumn, Strength, fraction
from .rules import combat as cb

__all__ = ["SEVERITY", "Findings", "exit_code", "render_findings", "severity", "verify"]

SEVERITY: dict[str, str] = {
    "crt-columns": "error",
    "crt-rows": "error",
    "crt-unknown": "warning",
    "crt-odds": "warning",
    "crt-odds-dist": "warning",
    "crt-all-out": "warning",
    "crt-die": "warning",
    "example-mismatch": "error",
    "example-conflict": "error",
    "example-invalid": "warning",
    "example-unchecked": "info",
    "crt-implied": "info",
    "print-mismatch": "error",
    "print-missing": "warning",
    "print-unchecked": "info",
}
"""Severity of each kind of finding; kinds not listed are warnings."""

_RANK = {"error": 0, "warning": 1, "info": 2}


def severity(f: Finding) -> str:
    """``error``, ``warning`` or ``info`` for a finding (by its kind, :data:`SEVERITY`)."""
    return f.extra.get("severity") or SEVERITY.get(f.kind, "warning")


def exit_code(findings: Iterable[Finding]) -> int:
    """1 when any finding is an error or a warning, else 0 (info findings never fail a run)."""
    return 1 if any(severity(f) in ("error", "warning") for f in findings) else 0


class Findings(list[Finding]):
    """The findings of one game, with the game id and the example tally for the summary."""

    def __init__(
        self,
        items: Iterable[Finding] = (),
        *,
        game: str = "",
        examples: int = 0,
        passed: dict[str, list[tuple[str, str, str]]] | None = None,
    ) -> None:
        super().__init__(items)
        self.game = game
        self.examples = examples
        self.passed = passed or {}
        """Example id -> the (key, book, rules) values that were recomputed and agreed."""


# =================================================================================================== values
def _num(x: Any) -> Fraction | None:
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


def _decimals(x: Any) -> int | None:
    """Decimal places of a stated decimal (3.71 -> 2), None for exact values."""
    s = str(x).strip()
    if isinstance(x, float) or re.fullmatch(r"-?\d+\.\d+", s):
        return len(s.split(".")[1]) if "." in s else 0
    return None


def _show(x: Any) -> str:
    if x is None:
        return "unknown"
    if isinstance(x, Fraction):
        return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    if isinstance(x, list | tuple):
        return "[" + ", ".join(_show(v) for v in x) + "]"
    if isinstance(x, dict):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in x.items()) + "}"
    return str(x)


def _same(stated: Any, computed: Any, *, unordered: bool = False, approx: bool = False) -> bool:
    """Does the book's value equal the computed one?  Numbers exactly, or to the decimals the book gives (3.71);
    with ``approx`` (unit conversions) a whole number in the book is compared with the rounded result."""
    if isinstance(stated, dict) and isinstance(computed, dict):
        return set(map(str, stated)) == set(map(str, computed)) and all(
            _same(v, computed[k] if k in computed else computed.get(str(k))) for k, v in stated.items()
        )
    if isinstance(stated, bool) or isinstance(computed, bool):
        return stated is computed or (isinstance(stated, str) and str(stated).lower() == str(computed).lower())
    if isinstance(stated, list | tuple) and isinstance(computed, list | tuple):
        if len(stated) != len(computed):
            return False
        if unordered:
            rest = list(computed)
            for s in stated:
                hit = next((i for i, c in enumerate(rest) if _same(s, c)), None)
                if hit is None:
                    return False
                rest.pop(hit)
            return True
        return all(_same(s, c) for s, c in zip(stated, computed, strict=True))
    ns, nc = _num(stated), _num(computed)
    if ns is not None and nc is not None:
        d = _decimals(stated)
        if d is None and approx:
            d = 0
        if d is not None and _decimals(computed) is None:
            return round(float(nc), d) == float(ns)
        return ns == nc
    return str(stated).strip().lower() == str(computed).strip().lower()


# =================================================================================================== the run
@dataclass
class _Acc:
    """What one example's recomputation found."""

    ex: m.Example
    known_given: set[str] = field(default_factory=set)
    done: set[str] = field(default_factory=set)
    mismatches: list[tuple[str, Any, Any, str]] = field(default_factory=list)
    passed: list[tuple[str, Any, Any]] = field(default_factory=list)
    unchecked: dict[str, str] = field(default_factory=dict)
    invalid: list[str] = field(default_factory=list)
    where: dict[str, str] = field(default_factory=dict)
    """The CRT cell or column the example reads (reported with its findings)."""

    def given(self, key: str, default: Any = None) -> Any:
        self.known_given.add(key)
        return self.ex.given.get(key, default)

    def has(self, key: str) -> bool:
        self.known_given.add(key)
        return key in self.ex.given

    def check(
        self,
        key: str,
        computed: Any,
        note: str = "",
        *,
        unordered: bool = False,
        approx: bool = False,
        partial_map: str | None = None,
    ) -> None:
        """Compare states[key] with ``computed``."""
        if key not in self.ex.states:
            return
        self.check_value(
            key, self.ex.states[key], computed, note, unordered=unordered, approx=approx, partial_map=partial_map
        )
        self.done.add(key)

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
    ) -> None:
        """``partial_map``: the map's status when the value comes from map features and the map is not complete;
        a disagreement is then reported as unchecked (the data may just not describe the feature)."""
        self.done.add(key.split("[")[0].split(".")[0])
        if computed is None:
            self.skip(key, note or "the engine cannot compute it from the data")
        elif _same(stated, computed, unordered=unordered, approx=approx):
            self.passed.append((key, stated, computed))
        elif partial_map:
            self.skip(
                key,
                f"the map data gives {_show(computed)}, but the map is {partial_map}: features it does "
                "not describe may make up the difference",
            )
        else:
            self.mismatches.append((key, stated, computed, note))

    def skip(self, key: str, reason: str) -> None:
        self.done.add(key.split("[")[0].split(".")[0])
        self.unchecked[key] = reason


class _Verifier:
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
        self.passed: dict[str, list[tuple[str, str, str]]] = {}
        status = game.map.status
        self.partial_map = None if status is m.MapStatus.COMPLETE else status.value

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
        self.findings.append(
            Finding(
                kind,
                rule,
                message,
                None if stated is None else _show(stated),
                None if computed is None else _show(computed),
                ref,
                {k: _show(v) for k, v in sorted(extra.items()) if v is not None},
            )
        )

    # ------------------------------------------------------------------------------------------------ map
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

    # --------------------------------------------------------------------------------------------- tables
    def check_tables(self) -> None:
        crt = self.crt
        if crt is None:
            return
        ref = "crt"
        differential = self.combat.kind is m.CombatKind.DIFFERENTIAL
        lows: list[Fraction] = []
        for label in crt.columns:
            try:
                col = DiffColumn.parse(label) if differential else OddsColumn.parse(label)
            except ValueError as e:
                self.add("crt-columns", crt.rule, str(e), ref=ref, column=label)
                return
            if not col.below:
                lows.append(Fraction(col.low))
        bad = [i for i in range(1, len(lows)) if lows[i] <= lows[i - 1]]
        if bad:
            self.add("crt-columns", crt.rule, "CRT columns are not in increasing order", stated=crt.columns, ref=ref)
        try:
            cb.row_probabilities(crt.rows, _dice(crt.dice))
        except ValueError as e:
            self.add("crt-rows", crt.rule, str(e), stated=crt.rows, ref=ref)
            return
        sections: list[str | None] = list(crt.sections) if isinstance(crt.cells, dict) and crt.sections else [None]
        for section in sections:
            grid = cb.grid_of(crt, section)
            where = f" ({section})" if section else ""
            if grid is None:
                why = ""
                cells = crt.cells
                if isinstance(cells, dict) and section is not None and isinstance(cells.get(section), m.Unknown):
                    why = cells[section].unknown  # type: ignore[union-attr]
                elif isinstance(cells, m.Unknown):
                    why = cells.unknown
                self.add(
                    "crt-unknown",
                    crt.rule,
                    f"the CRT's cells{where} are unknown{': ' + why if why else ''}",
                    ref=ref,
                    section=section,
                )
                continue
            self.check_grid(grid, crt.rows, crt.columns, crt.cell_format, section, "CRT")
        if crt.secondary is not None:
            sec = crt.secondary
            if isinstance(sec.cells, m.Unknown):
                self.add("crt-unknown", crt.rule, "the secondary-dice table is unknown", ref="crt.secondary")
            else:
                self.check_grid(
                    sec.cells, sec.rows, crt.columns, m.CellFormat.LOSSES_ATTACKER_DEFENDER, None, "secondary table"
                )
        self.check_ends(crt)

    def _parts(self, cell: str, fmt: m.CellFormat) -> dict[str, cb.Losses | int | None]:
        """A cell as comparable parts: hits per attack type, or losses."""
        if fmt is m.CellFormat.HITS_NORMAL_ALLOUT:
            try:
                n, a = cb.parse_hits(cell)
            except ValueError:
                return {"normal": None, "all-out": None}
            return {"normal": n, "all-out": a}
        if fmt is m.CellFormat.LOSSES_ATTACKER_DEFENDER:
            try:
                return {"": cb.parse_losses(cell)}
            except ValueError:
                return {"": None}
        return {"": cb.code_losses(cell, self.combat.results)}

    @staticmethod
    def _cmp(a: cb.Losses | int | None, b: cb.Losses | int | None) -> int | None:
        """+1 when ``a`` is better for the attacker than ``b``."""
        if a is None or b is None:
            return None
        if isinstance(a, int) and isinstance(b, int):
            return (a > b) - (a < b)
        if isinstance(a, cb.Losses) and isinstance(b, cb.Losses):
            return cb.compare_for_attacker(a, b)
        return None

    def check_grid(
        self,
        grid: list[list[str]],
        rows: list[str],
        columns: list[str],
        fmt: m.CellFormat,
        section: str | None,
        what: str,
    ) -> None:
        crt = self.crt
        assert crt is not None
        rule = crt.rule
        ref = "crt" if what == "CRT" else "crt.secondary"
        sec = f" ({section})" if section else ""
        unknown = [(columns[j], rows[i]) for i, row in enumerate(grid) for j, c in enumerate(row) if "?" in c]
        if unknown:
            listed = ", ".join(f"{c}/{r}" for c, r in unknown)
            self.add(
                "crt-unknown",
                rule,
                f"{len(unknown)} of {len(rows) * len(columns)} cells of the {what}{sec} are unknown: {listed}",
                ref=ref,
                section=section,
                cells=listed,
            )
        parts = [[self._parts(c, fmt) for c in row] for row in grid]
        # higher odds never worse, die by die
        for i, row in enumerate(parts):
            for j in range(1, len(row)):
                for part, val in row[j].items():
                    if self._cmp(val, row[j - 1][part]) == -1:
                        p = f" ({part})" if part else ""
                        self.add(
                            "crt-odds",
                            rule,
                            f"{what}{sec}, die {rows[i]}: {columns[j]} gives {grid[i][j]!r}, worse for the "
                            f"attacker{p} than {grid[i][j - 1]!r} at the lower {columns[j - 1]}",
                            stated=grid[i][j],
                            computed=f">= {grid[i][j - 1]}",
                            ref=ref,
                            section=section,
                            column=columns[j],
                            row=rows[i],
                            other_column=columns[j - 1],
                            other_row=rows[i],
                        )
        # all-out never weaker than normal
        if fmt is m.CellFormat.HITS_NORMAL_ALLOUT:
            for i, row in enumerate(parts):
                for j, cell in enumerate(row):
                    n, a = cell["normal"], cell["all-out"]
                    if isinstance(n, int) and isinstance(a, int) and a < n:
                        self.add(
                            "crt-all-out",
                            rule,
                            f"{what}{sec} {columns[j]}, die {rows[i]}: the all-out result {a} is below the "
                            f"normal result {n}",
                            stated=grid[i][j],
                            ref=ref,
                            section=section,
                            column=columns[j],
                            row=rows[i],
                        )
        # die direction: the majority of the table decides, the exceptions are reported
        probs = cb.row_probabilities(rows, _dice(crt.dice))
        live = [i for i, p in enumerate(probs) if p]
        votes = 0
        pairs: list[tuple[int, int, int, str, int]] = []
        for j in range(len(columns)):
            for k in range(1, len(live)):
                i0, i1 = live[k - 1], live[k]
                for part, val in parts[i1][j].items():
                    c = self._cmp(val, parts[i0][j][part])
                    if c:
                        votes += c
                        pairs.append((j, i0, i1, part, c))
        if votes:
            direction = 1 if votes > 0 else -1
            word = "higher" if direction > 0 else "lower"
            for j, i0, i1, part, c in pairs:
                if c != direction:
                    p = f" ({part})" if part else ""
                    self.add(
                        "crt-die",
                        rule,
                        f"{what}{sec} {columns[j]}: die {rows[i1]} gives {grid[i1][j]!r}, "
                        f"{'worse' if c < 0 else 'better'} for the attacker{p} than {grid[i0][j]!r} on die "
                        f"{rows[i0]}, against the table's rule that {word} rolls are better",
                        stated=grid[i1][j],
                        ref=ref,
                        section=section,
                        column=columns[j],
                        row=rows[i1],
                        other_column=columns[j],
                        other_row=rows[i0],
                    )
        # distributions: each column no worse than the one to its left
        if fmt is m.CellFormat.LOSSES_ATTACKER_DEFENDER:
            return
        for attack in ("normal", "all-out") if fmt is m.CellFormat.HITS_NORMAL_ALLOUT else ("normal",):
            prev: tuple[str, Any] | None = None
            for j, label in enumerate(columns):
                try:
                    tmp = crt.model_copy(update={"cells": grid, "sections": None, "rows": rows})
                    dist = cb.losses_distribution(tmp, j, self.combat.results, attack=attack)
                except (cb.UnknownValueError, ValueError):
                    prev = None
                    continue
                e = cb.expected_losses(dist)
                cur = (label, (dist, e))
                if prev is not None:
                    bad_because = _dist_worse(prev[1], cur[1])
                    if bad_because:
                        a_txt = f" ({attack} attack)" if fmt is m.CellFormat.HITS_NORMAL_ALLOUT else ""
                        self.add(
                            "crt-odds-dist",
                            rule,
                            f"{what}{sec}: column {label} is worse for the attacker than {prev[0]}{a_txt}: "
                            f"{bad_because}",
                            ref=ref,
                            section=section,
                            column=label,
                            other_column=prev[0],
                        )
                prev = cur

    def check_ends(self, crt: m.Crt) -> None:
        """Automatic results below/above the table should be no better (below) / no worse (above) than the cells
        of the end column they continue."""
        grid = cb.grid_of(crt, None) if not isinstance(crt.cells, dict) else None
        if grid is None or crt.cell_format is not m.CellFormat.CODE:
            return
        for end, j, sign in (("below", 0, 1), ("above", len(crt.columns) - 1, -1)):
            auto = getattr(crt, end)
            if auto is None or auto.result is None:
                continue
            loss = cb.code_losses(auto.result, self.combat.results)
            for i, row in enumerate(grid):
                c = self._cmp(cb.code_losses(row[j], self.combat.results), loss)
                if c is not None and c * sign < 0:
                    self.add(
                        "crt-odds",
                        auto.rule or crt.rule,
                        f"the automatic result {end} the table ({auto.result}) is "
                        f"{'better' if end == 'below' else 'worse'} for the attacker than {row[j]!r} at "
                        f"{crt.columns[j]}, die {crt.rows[i]}",
                        stated=auto.result,
                        ref="crt",
                        column=end,
                        row=None,
                        other_column=crt.columns[j],
                        other_row=crt.rows[i],
                    )

    # ------------------------------------------------------------------------------------------- examples
    def check_examples(self) -> None:
        handlers = {
            m.ExampleKind.ODDS: self.ex_odds,
            m.ExampleKind.SHIFTS: self.ex_shifts,
            m.ExampleKind.COMBAT: self.ex_combat,
            m.ExampleKind.PROBABILITY: self.ex_probability,
            m.ExampleKind.STRENGTH: self.ex_strength,
            m.ExampleKind.STEPS: self.ex_steps,
            m.ExampleKind.VP: self.ex_vp,
            m.ExampleKind.MAGNITUDE: self.ex_magnitude,
            m.ExampleKind.SCALE: self.ex_scale,
            m.ExampleKind.HEX: self.ex_hex,
            m.ExampleKind.MOVEMENT: self.ex_movement,
            m.ExampleKind.RETREAT: self.ex_retreat,
            m.ExampleKind.SUPPLY: self.ex_supply,
            m.ExampleKind.CLAIM: self.ex_claim,
        }
        for ex in self.game.examples:
            acc = _Acc(ex)
            try:
                handlers[ex.kind](acc)
            except (ValueError, KeyError, TypeError, IndexError, ZeroDivisionError) as e:
                acc.invalid.append(f"{type(e).__name__}: {e}")
            self.report(acc)
        self.report_implied()

    def report(self, acc: _Acc) -> None:
        ex = acc.ex
        if acc.passed:
            self.passed[ex.id] = [(k, _show(s), _show(c)) for k, s, c in acc.passed]
        unmodelled = sorted(set(ex.given) - acc.known_given)
        doubt = ex.doubt
        for msg in acc.invalid:
            self.add("example-invalid", ex.rule, f"{ex.id}: cannot recompute the example: {msg}", ref=ex.id)
        for key, stated, computed, note in acc.mismatches:
            if unmodelled:
                acc.unchecked[key] = (
                    f"the rules give {_show(computed)} but the example also involves "
                    f"{', '.join(unmodelled)}, which the engine does not model{'; ' + note if note else ''}"
                )
                continue
            self.add(
                "example-mismatch",
                ex.rule,
                f"{ex.id}: the book states {key} = {_show(stated)}, the rules give {_show(computed)}"
                f"{' (' + note + ')' if note else ''}",
                stated=stated,
                computed=computed,
                ref=ex.id,
                key=key,
                doubt=doubt,
                source_line=ex.source_line,
                **acc.where,
            )
        for key in ex.states:
            if key not in acc.done:
                acc.unchecked.setdefault(key, f"no engine rule recomputes {key!r} for a {ex.kind.value} example")
        if acc.unchecked:
            keys = sorted(acc.unchecked)
            reasons = "; ".join(f"{k}: {acc.unchecked[k]}" for k in keys)
            stated = {k.split("[")[0]: ex.states.get(k.split("[")[0]) for k in keys if k.split("[")[0] in ex.states}
            self.add(
                "example-unchecked",
                ex.rule,
                f"{ex.id}: not recomputed -- {reasons}",
                stated=stated or None,
                ref=ex.id,
                keys=", ".join(keys),
            )

    def report_implied(self) -> None:
        for (section, column, row, part), seen in sorted(self.implied.items()):
            values = sorted({v for v, _, _ in seen})
            refs = ", ".join(sorted({r for _, r, _ in seen}))
            where = f"{section + ', ' if section else ''}{column}, die {row}{' (' + part + ')' if part else ''}"
            if len(values) > 1:
                detail = "; ".join(f"{r} says {v}" for v, r, _ in seen)
                self.add(
                    "example-conflict",
                    seen[0][2],
                    f"examples disagree on the CRT cell {where}: {detail}",
                    stated=values,
                    ref=refs,
                    section=section or None,
                    column=column,
                    row=row,
                    part=part or None,
                )
            else:
                self.add(
                    "crt-implied",
                    seen[0][2],
                    f"the CRT cell {where} is not printed; {refs} implies {values[0]}",
                    computed=values[0],
                    ref=refs,
                    section=section or None,
                    column=column,
                    row=row,
                    part=part or None,
                    result=values[0],
                )

    # ---------------------------------------------------------------------------------------- strengths
    def _usable_modifiers(self, role: str) -> list[m.Modifier]:
        """Modifiers the engine can evaluate: those with a terrain, unit-type or condition trigger.  A modifier
        whose condition exists only in words (``when``) is left out: applying it always would be wrong."""
        return [
            md
            for md in self.combat.modifiers
            if md.role == role and (md.terrain is not None or md.unit_types is not None or md.condition is not None)
        ]

    def _fighters(self, ids: Sequence[str], role: str) -> tuple[list[cb.Fighter], list[str]]:
        out, unknown = [], []
        for uid in ids:
            u = self.units.get(str(uid))
            if u is None:
                raise ValueError(f"unknown unit {uid!r}")
            st = Strength.parse(u.steps[0])
            value = st.attack if role == "attacker" else st.defense
            if value is None:
                unknown.append(uid)
            out.append(cb.Fighter(value, u.type.value, label=uid))
        return out, unknown

    def side_strength(
        self, acc: _Acc, role: str, ids: Sequence[str], defender_hex: str | None, conditions: set[str]
    ) -> tuple[Fraction | None, str]:
        """A side's strength from its units (full strength) and the modifiers the engine can evaluate."""
        fighters, unknown = self._fighters(ids, role)
        terrain = self.terrain_ids(defender_hex) if defender_hex else None
        conds = set(conditions) | {"defender-terrain"}
        if role == "defender" and terrain:
            # terrain's own defence effects become stack modifiers
            extra = []
            for tid in sorted(terrain):
                eff = self.game.terrain[tid].combat if tid in self.game.terrain else None
                if eff and (eff.defense_multiplier or eff.defense_bonus):
                    extra.append(
                        m.Modifier(
                            id=f"terrain-{tid}",
                            role="defender",
                            when=eff.text or tid,
                            multiply=eff.defense_multiplier,
                            add=eff.defense_bonus or None,
                            per_unit=False,
                            terrain=[tid],
                        )
                    )
        else:
            extra = []
        total = cb.combat_strength(
            fighters,
            self._usable_modifiers(role) + extra,
            role="attacker" if role == "attacker" else "defender",
            defender_terrain=terrain,
            conditions=conds,
        )
        if unknown:
            return None, f"the strength of {', '.join(unknown)} is not given"
        if total.total is None:
            return None, f"the terrain of {defender_hex} is not known"
        return total.total, ""

    def _sum_parts(self, given: Mapping[str, Any], acc: _Acc, side: str) -> Fraction | None:
        """attack/defense from the example's numbers: the value itself, or its breakdown (see :meth:`_breakdown`)."""
        short = "attack" if side == "attack" else "defense"
        if acc.has(short) and _num(given[short]) is not None:
            return _num(given[short])
        return self._breakdown(given, acc, side)

    def _breakdown(self, given: Mapping[str, Any], acc: _Acc, side: str) -> Fraction | None:
        """A strength the book builds from parts: units' values (``attack_values``, ``unit_attack``,
        ``defense_printed``) plus support (``attack_support`` list, ``defense_support_total``), then for the
        defence the terrain bonuses of a given ``terrain`` (stack modifiers of the data)."""
        short = "attack" if side == "attack" else "defense"
        acc.given(f"{short}_support_markers")
        total: Fraction | None = None
        for key in (
            f"unit_{short}",
            f"{short}_values",
            f"{short}_printed",
            f"{short}_support",
            f"{short}_support_total",
        ):
            if acc.has(key):
                v = given[key]
                vals = v if isinstance(v, list) else [v]
                nums = [n for n in (_num(x) for x in vals) if n is not None]
                if len(nums) != len(vals):
                    return None
                total = (total or Fraction(0)) + sum(nums, Fraction(0))
        terrain = acc.given("terrain")
        if total is not None and short == "defense" and terrain is not None:
            mods = [md for md in self._usable_modifiers("defender") if not md.per_unit]
            res = cb.defense_strength(
                [cb.Fighter(total)], mods, defender_terrain={str(terrain)}, conditions={"defender-terrain"}
            )
            total = res.total
        return total

    # ------------------------------------------------------------------------------------------- shifts
    def shift_state(
        self, acc: _Acc, attackers: Sequence[str], defender_hex: str | None, turn: int | None
    ) -> tuple[set[str], set[str], dict[str, str]]:
        """Evaluate each shift's condition: (apply, do not apply, undecidable with reasons)."""
        yes: set[str] = set()
        no: set[str] = set()
        why: dict[str, str] = {}
        dcell = self.cell(defender_hex) if defender_hex else None
        weather = acc.given("weather") or acc.given("ground")
        if weather is None and turn is not None and 1 <= turn <= len(self.game.turns.turns):
            weather = self.game.turns.turns[turn - 1].weather
        # attacker positions
        positions: list[Cell] | None = None
        pos_reason = "the attackers or the defender's hex are not given"
        hexes = acc.given("attacker_hexes")
        if dcell is not None and attackers:
            if hexes:
                hx = hexes if isinstance(hexes, list) else [hexes]
                cells = [self.cell(h) for h in hx]
                if len(hx) == 1 and cells[0] is not None:
                    positions = [cells[0]] * len(attackers)
                elif len(hx) == len(attackers) and all(cells):
                    positions = [c for c in cells if c is not None]
                else:
                    pos_reason = "attacker_hexes must be one hex for all attackers or one per attacker"
            else:
                cells = [self.cell(self.position(a) or "") for a in attackers]
                if all(c is not None and self.grid.adjacent(c, dcell) for c in cells):
                    positions = [c for c in cells if c is not None]
                    pos_reason = ""
                else:
                    moved = [
                        a
                        for a, c in zip(attackers, cells, strict=True)
                        if c is None or not self.grid.adjacent(c, dcell)
                    ]
                    pos_reason = f"{', '.join(moved)} not next to {defender_hex} at setup/entry (they moved)"
        terrain = self.terrain_ids(defender_hex) if defender_hex else None
        unsupplied = acc.given("unsupplied")
        if unsupplied is None:
            unsupplied = acc.given("out_of_supply")
        for sh in self.combat.shifts:
            cond = sh.condition
            if cond == "mud":
                if weather is None:
                    why[sh.id] = "the ground condition on that turn is not known"
                else:
                    (yes if "mud" in str(weather).lower() else no).add(sh.id)
            elif cond == "defender-terrain":
                if terrain is None:
                    why[sh.id] = "the defender's hex or its terrain is not known"
                    continue
                verdict = self._terrain_shift(sh, terrain)
                if verdict is None:
                    why[sh.id] = "which terrain this shift belongs to is ambiguous"
                else:
                    (yes if verdict else no).add(sh.id)
            elif cond in ("half-across-river", "all-across-river"):
                if positions is None or dcell is None:
                    why[sh.id] = pos_reason
                    continue
                across = sum(self.river_between(p, dcell) for p in positions)
                holds = across * 2 >= len(positions) if cond == "half-across-river" else across == len(positions)
                (yes if holds and across else no).add(sh.id)
            elif cond in (
                "defender-all-unsupplied",
                "defender-some-unsupplied",
                "attacker-all-unsupplied",
                "attacker-some-unsupplied",
            ):
                if unsupplied is None:
                    why[sh.id] = "the units' supply state at that moment is not in the data"
                    continue
                group = attackers if cond.startswith("attacker") else list(acc.given("defenders") or [])
                if not group:
                    why[sh.id] = "the units are not given"
                    continue
                out = [u for u in group if u in set(unsupplied)]
                holds = len(out) == len(group) if "-all-" in cond else 0 < len(out) < len(group)
                (yes if holds else no).add(sh.id)
            else:
                why[sh.id] = f"condition {cond!r} is not evaluated by the engine" if cond else "a condition in words"
        return yes, no, why

    def _terrain_shift(self, sh: m.Shift, terrain: set[str]) -> bool | None:
        """Does a defender-terrain shift apply to a hex of ``terrain``?"""
        terrain_shifts = [s for s in self.combat.shifts if s.condition == "defender-terrain"]
        owners = set()
        for tid in terrain:
            t = self.game.terrain.get(tid)
            if t is None or not t.combat.shift:
                continue
            if tid in self.shifts:
                owners.add(tid)
                continue
            same = [s.id for s in terrain_shifts if s.shift == t.combat.shift and s.id not in self.game.terrain]
            same = same or [s.id for s in terrain_shifts if s.shift == t.combat.shift]
            if len(same) != 1:
                return None
            owners.add(same[0])
        return sh.id in owners

    def _shift_models(self, ids: Sequence[str]) -> list[m.Shift]:
        out = []
        for sid in ids:
            if sid not in self.shifts:
                raise ValueError(f"unknown shift {sid!r}")
            out.append(self.shifts[sid])
        return out

    def _side_of(self, acc: _Acc, ids: Sequence[str]) -> str | None:
        side = acc.given("side")
        if side is None and ids:
            u = self.units.get(str(ids[0]))
            side = u.side if u else None
        return side

    def _compare_shift_sets(
        self,
        acc: _Acc,
        key: str,
        claimed: Sequence[str],
        yes: set[str],
        no: set[str],
        why: dict[str, str],
        *,
        report_undecided: bool = True,
    ) -> None:
        """The shifts the book applies against those the map decides.  ``report_undecided``: list the shifts the
        engine cannot decide as unchecked (for a stated "no other shifts apply")."""
        claimed_set = set(claimed)
        wrong_in = sorted(claimed_set & no)
        missing = sorted(yes - claimed_set)
        if wrong_in or missing:
            bits = ([f"{', '.join(wrong_in)} do(es) not apply by the map"] if wrong_in else []) + (
                [f"{', '.join(missing)} apply(ies) by the map"] if missing else []
            )
            acc.mismatches.append((key, sorted(claimed_set), sorted((claimed_set - no) | yes), "; ".join(bits)))
        else:
            decided = sorted(yes | no)
            acc.passed.append((key, sorted(claimed_set), f"consistent with the data on {', '.join(decided) or 'none'}"))
        undecided = sorted(s for s in why if s not in claimed_set)
        if undecided and report_undecided:
            acc.unchecked[f"{key}[{','.join(undecided)}]"] = (
                "; ".join(sorted({why[s] for s in undecided})) + f" ({', '.join(undecided)})"
            )
        acc.done.add(key)

    # ------------------------------------------------------------------------------------------- columns
    def _odds_ladder(self, crt: m.Crt) -> list[Fraction]:
        return [OddsColumn.parse(c).low for c in crt.columns]

    def _column_matches(self, stated: Any, label: str | None) -> bool:
        if label is None:
            return False
        if _same(stated, label):
            return True
        crt = self.crt
        if crt is None:
            return False
        try:
            if self.combat.kind is m.CombatKind.DIFFERENTIAL:
                return cb.column_for_diff(crt, DiffColumn.parse(str(stated)).low).label == label
            col = OddsColumn.parse(str(stated))
            return not col.below and cb.column_for_odds(crt, col.low, 1).label == label
        except ValueError:
            return False

    def _check_column(self, acc: _Acc, key: str, pick: cb.ColumnPick, note: str = "") -> None:
        if key not in acc.ex.states:
            return
        stated = acc.ex.states[key]
        acc.done.add(key)
        if pick.result is not None and pick.index is None:
            computed: Any = f"automatic {pick.result}"
            ok = _same(stated, pick.result) or _same(stated, computed)
        else:
            computed = pick.label
            ok = self._column_matches(stated, pick.label)
        if ok:
            acc.passed.append((key, stated, computed))
        else:
            acc.mismatches.append((key, stated, computed, note or pick.note))

    def base_column(self, acc: _Acc) -> tuple[cb.ColumnPick | None, str]:
        """The column before shifts: given column/base_column, or from attack and defence."""
        crt = self.crt
        if crt is None:
            return None, "the game has no CRT"
        for key in ("base_column", "column"):
            if acc.has(key):
                label = str(acc.ex.given[key])
                i = cb.column_index(crt, label)
                return cb.ColumnPick(i, label), ""
        if acc.has("base_odds"):
            return None, "base_odds is outside the CRT"
        a = self._sum_parts(acc.ex.given, acc, "attack")
        d = self._sum_parts(acc.ex.given, acc, "defense")
        if a is None or d is None:
            return None, "no column, attack or defence given"
        if self.combat.kind is m.CombatKind.DIFFERENTIAL:
            return cb.column_for_diff(crt, math.floor(a - d)), ""
        return cb.column_for_odds(crt, a, d), ""

    # -------------------------------------------------------------------------------------------- kinds
    def ex_odds(self, acc: _Acc) -> None:
        g = acc.ex.given
        st = acc.ex.states
        crt = self.crt
        attackers = [str(x) for x in acc.given("attackers") or []]
        defenders = [str(x) for x in acc.given("defenders") or []]
        dhex = acc.given("defender_hex")
        turn = acc.given("turn")
        conds: set[str] = set()
        # strengths from the units
        att_units, att_why = (
            self.side_strength(acc, "attacker", attackers, dhex, conds)
            if attackers
            else (None, "no attacking units given")
        )
        def_units, def_why = (
            self.side_strength(acc, "defender", defenders, dhex, conds)
            if defenders
            else (None, "no defending units given")
        )
        att_given = self._sum_parts(g, acc, "attack")
        def_given = self._sum_parts(g, acc, "defense")
        att_parts = self._breakdown(g, acc, "attack")
        def_parts = self._breakdown(g, acc, "defense")
        if att_parts is not None:
            att_units = att_parts  # the book's own breakdown (units plus support) is the fuller account
        if def_parts is not None:
            def_units = def_parts
        if "attack" in st:
            if att_units is not None:
                acc.check("attack", att_units, "from the units' printed strengths, modifiers and support")
            else:
                acc.skip("attack", att_why if attackers else "only the total is given (no units or parts)")
        if "defense" in st:
            if def_units is not None:
                acc.check("defense", def_units, "from the units' printed strengths, terrain and support")
            else:
                acc.skip("defense", def_why if defenders else "only the total is given (no units or parts)")
        partial = st.get("partial_attack")
        if isinstance(partial, dict):
            acc.done.add("partial_attack")
            for group, stated in partial.items():
                ids = str(group).split("+")
                val, why = self.side_strength(acc, "attacker", ids, dhex, conds)
                acc.check_value(f"partial_attack.{group}", stated, val, why)
        # the numbers the column is computed from: the units', else the book's own, else the given ones
        attack = att_units if att_units is not None else _num(st.get("attack")) or att_given
        defense = def_units if def_units is not None else _num(st.get("defense")) or def_given
        if attack is None or defense is None:
            for key in ("ratio", "quotient", "odds", "column", "differential"):
                if key in st:
                    acc.skip(key, "attack or defence unknown")
        elif crt is not None:
            if "ratio" in st:
                acc.check("ratio", cb.odds_ratio(attack, defense))
            if "quotient" in st:
                acc.check("quotient", cb.odds_ratio(attack, defense))
            if self.combat.kind is m.CombatKind.DIFFERENTIAL:
                acc.check("differential", attack - defense)
                pick = cb.column_for_diff(crt, math.floor(attack - defense))
            else:
                pick = cb.column_for_odds(crt, attack, defense)
            self._check_column(acc, "odds", pick)
            # shifts: the book's (given or stated) or the ones the map decides
            yes, no, shift_why = self.shift_state(acc, attackers, dhex, turn)
            claimed = acc.given("shifts")
            if claimed is None:
                claimed = st.get("shifts")
            if claimed is not None and (attackers or dhex):
                self._compare_shift_sets(acc, "shifts", [str(s) for s in claimed], yes, no, shift_why)
            elif "shifts" in st:
                acc.skip("shifts", "no attackers or defender hex to evaluate the shifts with")
            use = [str(s) for s in claimed] if claimed is not None else sorted(yes)
            if "column" in st and pick.index is not None and not pick.automatic:
                res = cb.apply_shifts(
                    crt.columns,
                    pick.index,
                    self._shift_models(use),
                    self.combat.shift_caps,
                    turn=turn,
                    side=self._side_of(acc, attackers),
                    below=crt.below,
                    above=crt.above,
                )
                note = f"{pick.label} shifted by {res.net}" if use else ""
                self._check_column(acc, "column", res, note)
            elif "column" in st:
                self._check_column(acc, "column", pick)
        for key in ("attack", "defense"):
            if key in st and key not in acc.done:
                acc.skip(key, "not computable")

    def ex_shifts(self, acc: _Acc) -> None:
        crt = self.crt
        st = acc.ex.states
        if crt is None:
            return
        attackers = [str(x) for x in acc.given("attackers") or []]
        acc.given("defenders")
        dhex = acc.given("defender_hex")
        turn = acc.given("turn")
        ids = [str(s) for s in acc.given("shifts") or []]
        if acc.has("base_odds"):
            self._shift_odds_ladder(acc)
            return
        shifts: list[m.Shift | int] = list(self._shift_models(ids))
        if acc.has("net_shift"):
            shifts.append(int(acc.ex.given["net_shift"]))
        side = self._side_of(acc, attackers)
        if attackers or dhex:
            yes, no, why_ = self.shift_state(acc, attackers, dhex, turn)
            if ids:
                self._compare_shift_sets(acc, "given.shifts", ids, yes, no, why_, report_undecided=False)
        pick, why = self.base_column(acc)
        if pick is None or pick.index is None:
            # the net shift needs no column: shift on a table wide enough never to clamp
            wide = [str(i) for i in range(2 * 64 + 1)]
            net = cb.apply_shifts(wide, 64, shifts, self.combat.shift_caps, turn=turn, side=side)
            acc.check("net_shift", net.net, "; ".join(net.capped))
            for key in ("column", "odds"):
                if key in st:
                    acc.skip(key, why or "the combat is off the table before shifts")
            if "all_out_allowed" in st:
                self._all_out(acc, attackers)
            return
        self._check_column(acc, "odds", pick)
        res = cb.apply_shifts(
            crt.columns,
            pick.index,
            shifts,
            self.combat.shift_caps,
            turn=turn,
            side=side,
            below=crt.below,
            above=crt.above,
        )
        acc.check("net_shift", res.net, "; ".join(res.capped))
        self._check_column(
            acc,
            "column",
            res,
            f"{pick.label} shifted by {res.net}" + (f" ({'; '.join(res.capped)})" if res.capped else ""),
        )
        if "all_out_allowed" in st:
            self._all_out(acc, attackers)

    def _shift_odds_ladder(self, acc: _Acc) -> None:
        """Shifting odds beyond the printed columns (Ukraine '43 8.8: 7-1 with three shifts is 10-1)."""
        crt = self.crt
        assert crt is not None
        base = OddsColumn.parse(str(acc.ex.given["base_odds"])).low
        n = int(acc.given("net_shift") or 0) + sum(
            s.shift for s in self._shift_models([str(x) for x in acc.given("shifts") or []])
        )
        ladder = [c for c in self._odds_ladder(crt) if c > 0]
        top = max([*ladder, base])
        while len([x for x in ladder if x >= base]) <= abs(n) + 1 or max(ladder) < top + abs(n):
            ladder.append(Fraction(math.floor(max(ladder)) + 1))
        ladder = sorted(set(ladder))
        i = max(k for k, low in enumerate(ladder) if low <= base)
        j = min(max(i + n, 0), len(ladder) - 1)
        value = ladder[j]
        computed = f"{value}-1" if value >= 1 else f"1-{int(1 / value)}"
        if "odds" in acc.ex.states:
            stated = acc.ex.states["odds"]
            acc.done.add("odds")
            try:
                ok = OddsColumn.parse(str(stated)).low == value
            except ValueError:
                ok = False
            if ok:
                acc.passed.append(("odds", stated, computed))
            else:
                acc.mismatches.append(("odds", stated, computed, "odds steps beyond the table are whole numbers"))

    def _all_out(self, acc: _Acc, attackers: Sequence[str]) -> None:
        if self.crt is None or self.crt.cell_format is not m.CellFormat.HITS_NORMAL_ALLOUT or not attackers:
            acc.skip("all_out_allowed", "no all-out attacks in this CRT or no attackers given")
            return
        can = any(len(self.units[a].steps) >= 2 for a in attackers if a in self.units)
        acc.check(
            "all_out_allowed",
            can,
            "an all-out attack flips a full-strength two-step attacker (attackers taken at full strength)",
        )

    def _cell_at(
        self, section: str | None, column: str, die: int, grid_rows: list[str] | None = None, secondary: bool = False
    ) -> tuple[str | None, str | None]:
        """(cell, row label) for a die on a column; cell None when unknown."""
        crt = self.crt
        assert crt is not None
        if secondary:
            assert crt.secondary is not None
            rows = crt.secondary.rows
            grid = None if isinstance(crt.secondary.cells, m.Unknown) else crt.secondary.cells
        else:
            rows = crt.rows
            grid = cb.grid_of(crt, section)
        i = cb.row_for_die(rows, die)
        if i is None:
            raise ValueError(f"no row of the {'secondary table' if secondary else 'CRT'} holds a roll of {die}")
        j = cb.column_index(crt, column)
        if grid is None or "?" in grid[i][j]:
            return None, rows[i]
        return grid[i][j], rows[i]

    def _imply(self, acc: _Acc, section: str | None, column: str, row: str, part: str, value: Any) -> None:
        self.implied[(section or "", column, row, part)].append((_show(value), acc.ex.id, acc.ex.rule))

    def ex_combat(self, acc: _Acc) -> None:
        crt = self.crt
        st = acc.ex.states
        if crt is None:
            return
        section = acc.given("section")
        attack = str(acc.given("attack") or "normal")
        if attack not in ("normal", "all-out"):
            attack = "normal"
        pick, why = self.base_column(acc)
        if acc.has("shifts") and pick is not None and pick.index is not None and not acc.has("column"):
            pick = cb.apply_shifts(
                crt.columns,
                pick.index,
                self._shift_models(acc.ex.given["shifts"]),
                self.combat.shift_caps,
                turn=acc.given("turn"),
                below=crt.below,
                above=crt.above,
            )
        dice = acc.given("dice")
        die = acc.given("die")
        acc.given("magnitude")
        if dice is None and die is not None:
            dice = [die]
        if isinstance(dice, int):
            dice = [dice]
        if pick is None or pick.index is None or pick.label is None:
            for key in st:
                acc.skip(key, why or "the combat is off the table")
            return
        column = pick.label
        if not dice:
            # no roll: a stated result must at least be possible on the column
            if "result" in st and (grid := cb.grid_of(crt, section)) is not None:
                j = cb.column_index(crt, column)
                cells = [row[j] for row in grid]
                if "?" not in "".join(cells):
                    acc.check(
                        "result",
                        st["result"] if any(_same(st["result"], c) for c in cells) else f"one of {sorted(set(cells))}",
                        "no die roll given: the result must be on the column",
                    )
            for key in st:
                if key not in acc.done:
                    acc.skip(key, "no die roll given")
            return
        primary, *secondary = (int(x) for x in dice)
        cell, row = self._cell_at(section, column, primary)
        assert row is not None
        acc.where = {"column": column, "row": row} | ({"section": section} if section else {})
        hits_fmt = crt.cell_format is m.CellFormat.HITS_NORMAL_ALLOUT
        # the primary result
        if hits_fmt:
            if "hits" in st:
                if cell is None or cb.hits_of(cell, attack) is None:  # type: ignore[arg-type]
                    self._imply(acc, section, column, row, attack, st["hits"])
                    acc.skip("hits", f"the cell {column}/{row} is not printed (recorded as implied)")
                else:
                    acc.check("hits", cb.hits_of(cell, attack), f"{column}, die {row}: {cell}")  # type: ignore[arg-type]
        else:
            for key in ("result", "primary"):
                if key in st:
                    if cell is None:
                        self._imply(acc, section, column, row, "primary" if secondary else "", st[key])
                        acc.skip(key, f"the cell {column}/{row} is not printed (recorded as implied)")
                    else:
                        acc.check(key, cell, f"{column}, die {row}")
        # secondary dice (magnitude)
        sec_cells: list[str | None] = []
        if secondary:
            stated_sec = st.get("secondary")
            for k, d in enumerate(secondary):
                c, r = self._cell_at(section, column, d, secondary=True)
                sec_cells.append(c)
                s_val = stated_sec[k] if isinstance(stated_sec, list) and k < len(stated_sec) else None
                if c is None and s_val is not None and r is not None:
                    self._imply(acc, section, column, r, "secondary", s_val)
            if isinstance(stated_sec, list):
                acc.done.add("secondary")
                if all(c is not None for c in sec_cells):
                    acc.check_value("secondary", stated_sec, sec_cells)
                else:
                    acc.skip("secondary", "secondary cells not printed (recorded as implied)")
        # totals
        loss: cb.Losses | None = None
        if hits_fmt:
            h = cb.hits_of(cell, attack) if cell is not None else None  # type: ignore[arg-type]
            loss = cb.Losses(0, h) if h is not None else None
        else:
            code = (
                cell
                if cell is not None
                else (str(st.get("primary") or st.get("result")) if ("primary" in st or "result" in st) else None)
            )
            loss = cb.code_losses(code, self.combat.results) if code is not None else None
            if loss is not None and secondary:
                stated_sec = st.get("secondary")
                for k, c in enumerate(sec_cells):
                    cc = (
                        c
                        if c is not None
                        else (stated_sec[k] if isinstance(stated_sec, list) and k < len(stated_sec) else None)
                    )
                    sl = cb.parse_losses(str(cc)) if cc is not None else None
                    loss = None if (sl is None or loss is None) else loss.plus(sl)
        for key, idx in (
            ("attacker_steps", 0),
            ("defender_steps", 1),
            ("defender_retreat", 2),
            ("attacker_retreat", 3),
        ):
            if key in st:
                if hits_fmt and key in ("defender_retreat", "attacker_retreat"):
                    acc.skip(key, "a retreat is the defender's choice in this system")
                    continue
                acc.check(
                    key,
                    None if loss is None else loss[idx],
                    "from the result legend" + (" and the secondary dice" if secondary else ""),
                )

    def ex_probability(self, acc: _Acc) -> None:
        crt = self.crt
        st = acc.ex.states
        event = acc.given("event")
        if crt is None or not isinstance(event, dict):
            for key in st:
                acc.skip(key, "no CRT event to compute (probabilities of other tables are not modelled)")
            return
        section = acc.given("section")
        attack = str(acc.given("attack") or "normal")
        pick, why = self.base_column(acc)
        if pick is None or pick.index is None:
            acc.skip("probability", why or "off the table")
            return
        acc.where = {"column": str(pick.label)}
        n_dice = int(acc.given("dice") or 1) if not isinstance(acc.given("dice"), list) else 1
        try:
            if n_dice > 1:
                dist: dict[Any, Fraction] = cb.magnitude_distribution(
                    crt, pick.index, self.combat.results, dice=n_dice, section=section
                )
            elif crt.cell_format is m.CellFormat.HITS_NORMAL_ALLOUT:
                dist = cb.distribution(crt, pick.index, attack=attack, section=section)  # type: ignore[arg-type]
            else:
                dist = cb.distribution(crt, pick.index, section=section)
        except cb.UnknownValueError as e:
            acc.skip("probability", str(e))
            return
        p = _event_probability(dist, event, self.combat.results)
        if p is None:
            acc.skip("probability", f"event {event} is not one the engine knows")
        else:
            acc.check("probability", p, f"{pick.label}, {attack}: {_show(dist)}")
        if "expected_hits" in st:
            acc.check("expected_hits", cb.expected_losses(dist).defender)

    def ex_strength(self, acc: _Acc) -> None:
        g = acc.ex.given
        st = acc.ex.states
        rounding = acc.given("rounding")
        values = acc.given("values")
        mults = acc.given("multipliers")
        unit_mults = acc.given("unit_multipliers")
        units = [str(u) for u in acc.given("units") or []]
        acc.given("terrain")
        acc.given("unit_type")
        bonus = acc.given("bonus")
        if values is not None:
            vals = [Fraction(_num(v) or 0) for v in values]
            if unit_mults is None and mults is not None and len(vals) > 1 and len(mults) == len(vals):
                unit_mults = [[x] for x in mults]  # one multiplier per unit (see the report)
            per_unit = unit_mults if unit_mults is not None else [mults or []] * len(vals)
            exact = [
                v * math.prod((fraction(x) for x in mm), start=Fraction(1))
                for v, mm in zip(vals, per_unit, strict=True)
            ]
            how = str(rounding or "none")
            rounded = [
                Fraction(math.ceil(x)) if how == "up" else Fraction(math.floor(x)) if how == "down" else x
                for x in exact
            ]
            total = sum(rounded, Fraction(0)) + (Fraction(_num(bonus) or 0) if bonus is not None else 0)
            if len(exact) == 1:
                acc.check("product", exact[0])
            acc.check("values", rounded)
            acc.check("total", total, "each unit multiplied, then rounded" + (f", plus {bonus}" if bonus else ""))
        elif units:
            dhex = acc.given("defender_hex")
            role = str(acc.given("role") or "attacker")
            val, why = self.side_strength(acc, role, units, dhex, set())
            acc.check("total", val, why)
        for side in ("attack", "defense"):
            if side in st or f"{side}_before_support" in st:
                before = None
                for key in (f"{side}_values", f"unit_{side}"):
                    if acc.has(key):
                        v = g[key]
                        before = sum((Fraction(_num(x) or 0) for x in (v if isinstance(v, list) else [v])), Fraction(0))
                acc.check(f"{side}_before_support", before)
                acc.check(side, self._sum_parts(g, acc, side))
        if "max_bonus" in st and acc.has("printed_defense") and acc.has("cap_multiplier"):
            acc.check("max_bonus", Fraction(_num(g["printed_defense"]) or 0) * Fraction(_num(g["cap_multiplier"]) or 0))

    def ex_steps(self, acc: _Acc) -> None:
        losses = acc.given("losses")
        if not isinstance(losses, dict):
            return
        by_side: dict[str, int] = defaultdict(int)
        for key, n in losses.items():
            if key in self.sides:
                by_side[key] += int(n)
                continue
            u = self.units.get(str(key))
            if u is None:
                raise ValueError(f"unknown unit {key!r}")
            if int(n) > len(u.steps) * u.copies:
                acc.mismatches.append((f"losses.{key}", n, len(u.steps), f"{key} has only {len(u.steps)} step(s)"))
            by_side[u.side] += int(n)
        for side in self.sides:
            acc.check(side, by_side.get(side, 0), "summed from the units' losses")

    def ex_vp(self, acc: _Acc) -> None:
        st = acc.ex.states
        v = self.game.victory
        side = acc.given("side")
        if "handicap" in st:
            acc.check("handicap", v.handicap.get(str(side), 0) if v and side else None, "victory.handicap")
        if "per_hex" in st and acc.has("hexes"):
            hx = acc.ex.given["hexes"]
            vps = [self.game.map.hexes[h].vp if h in self.game.map.hexes else None for h in hx]
            if all(isinstance(x, int) for x in vps):
                acc.check("per_hex", vps[0] if len(set(vps)) == 1 else vps, "map.hexes.*.vp")
                for s in self.sides:
                    if s in st:
                        acc.check(s, sum(v for v in vps if isinstance(v, int)), "the hexes' VP")

    def ex_magnitude(self, acc: _Acc) -> None:
        a, d = acc.given("attacker_steps"), acc.given("defender_steps")
        fewest = acc.given("fewest_steps")
        values: list[int] = []
        if a is not None and d is not None:
            values = [min(int(a), int(d))]
        elif fewest is not None:
            s = str(fewest)
            lo, hi = cb.row_range(s)
            lo = 1 if lo is None else lo
            values = list(range(lo, (hi if hi is not None else lo + 3) + 1))
        if not values:
            return
        mags = {cb.magnitude(v, v) for v in values}
        note = "magnitude thresholds 1-3: 1, 4-5: 2, 6+: 3 (the engine default; the model has no field for them)"
        mag = mags.pop() if len(mags) == 1 else None
        acc.check("magnitude", mag, note)
        acc.check("dice", mag, note)

    def ex_scale(self, acc: _Acc) -> None:
        g, st = acc.ex.given, acc.ex.states
        sc = self.game.game.scale
        km_per_mile = Fraction(1609344, 1000000)
        turns = acc.given("turns")
        dpt = acc.given("days_per_turn")
        if dpt is None and not isinstance(sc.days_per_turn, m.Unknown):
            dpt = sc.days_per_turn
        if "days_per_turn" in st:
            acc.check(
                "days_per_turn",
                None if isinstance(sc.days_per_turn, m.Unknown) else sc.days_per_turn,
                "game.scale.days_per_turn",
            )
        if "km_per_hex" in st:
            if acc.has("miles_per_hex"):
                acc.check("km_per_hex", _num(g["miles_per_hex"]) * km_per_mile, "1 mile = 1.609 km", approx=True)  # type: ignore[operator]
            else:
                acc.check("km_per_hex", None if isinstance(sc.km_per_hex, m.Unknown) else sc.km_per_hex)
        if "miles_per_hex" in st and not isinstance(sc.km_per_hex, m.Unknown):
            acc.check(
                "miles_per_hex",
                Fraction(str(sc.km_per_hex)) / km_per_mile,
                f"game.scale.km_per_hex {sc.km_per_hex} / 1.609",
                approx=True,
            )
        if "days" in st and turns is not None and dpt is not None:
            acc.check("days", Fraction(int(turns)) * Fraction(str(dpt)))
        if "last_turn" in st:
            acc.check("last_turn", len(self.game.turns.turns), "turns on the track")
        if "turns" in st and not acc.has("turns"):
            acc.check("turns", len(self.game.turns.turns), "turns on the track")
        if "end" in st and acc.has("start") and "days" in st:
            start = _date(str(g["start"]))
            if start is not None:
                end = start + _dt.timedelta(days=int(_num(st["days"]) or 0) - 1)
                acc.check("end", end.strftime("%-d %b %Y"), "the last day counted inclusively")
        if "ground_scale" in st and acc.has("km_per_hex") and acc.has("hex_size"):
            from .units import length

            cm = Fraction(str(length(str(g["hex_size"])))) / Fraction(72) * Fraction(254, 100)
            ratio = Fraction(str(g["km_per_hex"])) * 100000 / cm
            acc.check("ground_scale", f"1:{round(ratio):,}", "km per cell / cell size")
        if "cs_total" in st and acc.has("cs_per_side") and acc.has("sides"):
            acc.check("cs_total", int(g["cs_per_side"]) * int(g["sides"]))

    def ex_hex(self, acc: _Acc) -> None:
        g, st = acc.ex.given, acc.ex.states
        if acc.has("name") and "hex" in st:
            found = sorted(
                h
                for h, info in self.game.map.hexes.items()
                if info.name and info.name.lower() == str(g["name"]).lower()
            )
            acc.check("hex", found[0] if len(found) == 1 else (found or None), "map.hexes by name")
        if acc.has("hex"):
            label = str(g["hex"])
            c = self.cell(label)
            if c is None:
                raise ValueError(f"{label!r} is not a hex on the map")
            info = self.game.map.hexes.get(label)
            if "name" in st:
                acc.check("name", info.name if info else None, "map.hexes")
            if "terrain" in st:
                t = self.terrain_ids(label)
                acc.check(
                    "terrain", (info.terrain if info and info.terrain else self.game.map.default_terrain) if t else None
                )
            for key in ("river_hexsides", "rivers"):
                if key in st:
                    n = sum(1 for nb in self.grid.all_neighbours(c) if self.river_between(c, nb))
                    acc.check(key, n, "hexsides of the hex with a river in map.hexsides", partial_map=self.partial_map)
        if acc.has("from") and acc.has("to"):
            a, b = self.cell(g["from"]), self.cell(g["to"])
            if a is None or b is None:
                raise ValueError("from/to is not a hex on the map")
            acc.check("distance", self.grid.distance(a, b))
            acc.check("adjacent", self.grid.adjacent(a, b))
        if acc.has("units") and "hexes" in st:
            acc.check("hexes", [self.position(str(u)) for u in g["units"]], "the units' setup hexes")

    def _path_facts(self, path: Sequence[str]) -> dict[str, Any]:
        cells = [self.cell(h) for h in path]
        if any(c is None for c in cells):
            raise ValueError(f"path {path} leaves the map")
        cs = [c for c in cells if c is not None]
        adjacent = all(self.grid.adjacent(cs[i - 1], cs[i]) for i in range(1, len(cs)))
        rivers = sum(self.river_between(cs[i - 1], cs[i]) for i in range(1, len(cs)))
        entered: dict[str, int] = defaultdict(int)
        for label in path[1:]:
            for t in self.terrain_ids(label) or ():
                entered[t] += 1
        return {"adjacent": adjacent, "rivers": rivers, "entered": entered, "hexes": len(path) - 1}

    def ex_movement(self, acc: _Acc) -> None:
        st = acc.ex.states
        acc.given("unit")
        acc.given("units")
        paths = acc.given("paths")
        path = acc.given("path")
        if paths is None and path is not None:
            paths = [path]
        if not paths:
            return
        single = path is not None and acc.given("paths") is None
        facts = [self._path_facts([str(h) for h in p]) for p in paths]

        def pick(values: list[Any]) -> Any:
            return values[0] if single else values

        acc.check(
            "rivers_crossed",
            pick([f["rivers"] for f in facts]),
            "river hexsides in map.hexsides",
            partial_map=self.partial_map,
        )
        for key in st:
            mt = re.fullmatch(r"(\w+)_entered", key)
            tid = None
            if mt:
                stem = mt.group(1)
                tid = stem if stem in self.game.terrain else stem[:-1] if stem[:-1] in self.game.terrain else None
            if tid is not None:
                acc.check(
                    key,
                    pick([f["entered"].get(tid, 0) for f in facts]),
                    "terrain of the hexes entered",
                    partial_map=self.partial_map,
                )
        acc.check("hexes", pick([f["hexes"] for f in facts]))
        if "legal" in st:
            stated = st["legal"] if isinstance(st["legal"], list) else [st["legal"]]
            notes = []
            for k, f in enumerate(facts):
                s = stated[k] if k < len(stated) else None
                if not f["adjacent"]:
                    acc.check_value(f"legal[{k}]", s, False, "the path jumps between hexes that are not adjacent")
                else:
                    notes.append(k)
            if notes:
                acc.skip(
                    "legal",
                    "the path is continuous; whether the move is allowed depends on movement rules "
                    "given in words (terrain movement notes, unit states)",
                )

    def ex_retreat(self, acc: _Acc) -> None:
        g, st = acc.ex.given, acc.ex.states
        frm = acc.given("from")
        acc.given("side")
        acc.given("turn")
        acc.given("hit_hexes")
        acc.given("unit")
        acc.given("column")
        if frm is None:
            return
        origin = self.cell(frm)
        if origin is None:
            raise ValueError(f"{frm!r} is not a hex on the map")
        for key in ("hexes", "normal_hexes", "to"):
            if key not in st:
                continue
            stated = st[key] if isinstance(st[key], list) else [st[key]]
            far = [h for h in stated if (c := self.cell(h)) is None or not self.grid.adjacent(c, origin)]
            if far:
                acc.mismatches.append(
                    (
                        key,
                        stated,
                        f"{', '.join(map(str, far))} not next to {frm}",
                        "a retreat of one hex ends next to where it started",
                    )
                )
                acc.done.add(key)
            else:
                acc.skip(
                    key,
                    f"next to {frm} as the rules need; which neighbours are open depends on where every "
                    "unit stands at that moment (zones of control, occupied and already-hit hexes), which the "
                    "data does not hold",
                )
        if g.get("column") and "result" in st and self.crt is not None:
            grid = cb.grid_of(self.crt, acc.given("section"))
            if grid is not None:
                j = cb.column_index(self.crt, str(g["column"]))
                cells = {row[j] for row in grid}
                acc.check(
                    "result",
                    st["result"] if st["result"] in cells else f"one of {sorted(cells)}",
                    "no die roll given: the result must be on the column",
                )

    def ex_supply(self, acc: _Acc) -> None:
        g = acc.ex.given
        if acc.has("from") and acc.has("supply_source"):
            a, b = self.cell(g["from"]), self.cell(g["supply_source"])
            if a is not None and b is not None:
                acc.check("distance", self.grid.distance(a, b))

    def ex_claim(self, acc: _Acc) -> None:
        st = acc.ex.states
        c = self.combat
        if "max_defenders" in st:
            acc.check("max_defenders", dict(c.max_defenders) or None, "combat.max_defenders")
        for key in ("max_attackers_per_hexside", "max_attackers_per_square"):
            if key in st:
                v = c.max_attackers_per_hexside
                acc.check(key, None if v is None or isinstance(v, m.Unknown) else v, "combat.max_attackers_per_hexside")
        if "handicap" in st and self.game.victory is not None:
            acc.check("handicap", dict(self.game.victory.handicap) or None)


def _dice(spec: str) -> str:
    """The die of a CRT's dice text: ``"1d6 to 3d6 by magnitude"`` rolls one d6 per die."""
    mt = re.search(r"(\d*)d(\d+)", spec)
    return f"{mt.group(1) or 1}d{mt.group(2)}" if mt else "1d6"


def _date(text: str) -> _dt.date | None:
    for fmt in ("%d %b %Y", "%d %B %Y", "%Y-%m-%d"):
        try:
            return _dt.datetime.strptime(text.strip(), fmt).date()
        except ValueError:
            continue
    return None


def _dist_worse(left: tuple[Any, cb.Expected], right: tuple[Any, cb.Expected]) -> str:
    """Why the right column's distribution is worse for the attacker than the left one ('' when it is not)."""
    dl, el = left
    dr, er = right
    reasons = []
    if er.defender < el.defender:
        reasons.append(f"expected defender losses {_show(er.defender)} < {_show(el.defender)}")
    if er.attacker > el.attacker:
        reasons.append(f"expected attacker losses {_show(er.attacker)} > {_show(el.attacker)}")
    if er.retreat < el.retreat:
        reasons.append(f"expected retreat {_show(er.retreat)} < {_show(el.retreat)}")
    if er.attacker_retreat > el.attacker_retreat:
        reasons.append(f"expected attacker retreat {_show(er.attacker_retreat)} > {_show(el.attacker_retreat)}")
    top = max([k.defender for k in list(dl) + list(dr)], default=0)
    for k in range(1, top + 1):
        pl = sum((p for x, p in dl.items() if x.defender >= k), Fraction(0))
        pr = sum((p for x, p in dr.items() if x.defender >= k), Fraction(0))
        if pr < pl:
            reasons.append(f"P(defender loses >= {k}) {_show(pr)} < {_show(pl)}")
    return "; ".join(reasons)


def _event_probability(
    dist: Mapping[Any, Fraction], event: Mapping[str, Any], results: Mapping[str, m.ResultCode]
) -> Fraction | None:
    """P(event) for {hits: k}, {hits_at_most: k}, {hits_at_least: k}, {result: code} (cells containing the code),
    {defender_steps_at_least: k}, {attacker_steps_at_least: k}, {retreat: true}."""
    (key, value), *rest = event.items()
    if rest:
        return None

    def losses(k: Any) -> cb.Losses | None:
        if isinstance(k, cb.Losses):
            return k
        if isinstance(k, int):
            return cb.Losses(0, k)
        return cb.code_losses(str(k), results)

    if key == "result":
        return cb.probability(dist, lambda k: str(value) in str(k).split("+") or str(k) == str(value))
    tests = {
        "hits": lambda lo: lo.defender == int(value),
        "hits_at_most": lambda lo: lo.defender <= int(value),
        "hits_at_least": lambda lo: lo.defender >= int(value),
        "defender_steps": lambda lo: lo.defender == int(value),
        "defender_steps_at_least": lambda lo: lo.defender >= int(value),
        "attacker_steps": lambda lo: lo.attacker == int(value),
        "attacker_steps_at_least": lambda lo: lo.attacker >= int(value),
        "retreat": lambda lo: (lo.retreat > 0) == bool(value),
    }
    test = tests.get(key)
    if test is None:
        return None
    total = Fraction(0)
    for k, p in dist.items():
        lo = losses(k)
        if lo is None:
            return None
        if test(lo):
            total += p
    return total


# ===================================================================================================== API
def verify(game: m.Game) -> Findings:
    """Every finding for ``game``: table checks first, then the examples in file order, then implied cells."""
    v = _Verifier(game)
    v.check_tables()
    v.check_examples()
    return Findings(v.findings, game=game.game.id, examples=len(game.examples), passed=v.passed)


def _summary(findings: Sequence[Finding]) -> dict[str, Any]:
    by_sev = dict.fromkeys(_RANK, 0)
    by_kind: dict[str, int] = defaultdict(int)
    for f in findings:
        by_sev[severity(f)] += 1
        by_kind[f.kind] += 1
    out: dict[str, Any] = {
        "total": len(findings),
        **by_sev,
        "by_kind": dict(sorted(by_kind.items())),
        "exit": exit_code(findings),
    }
    total = getattr(findings, "examples", None)
    if total is not None:
        ex_refs = {f.ref for f in findings if f.kind.startswith("example-") and f.kind != "example-conflict"}
        mism = {f.ref for f in findings if f.kind == "example-mismatch"}
        unch = {f.ref for f in findings if f.kind == "example-unchecked"} - mism
        out["examples"] = {
            "total": total,
            "checked": total - len(ex_refs),
            "mismatched": len(mism),
            "unchecked": len(unch),
        }
    return out


def render_findings(findings: Sequence[Finding], fmt: str = "text", *, game: str | None = None) -> str:
    """Findings as ``text`` (one block per finding), ``markdown`` (a table) or ``json`` (see the module doc)."""
    gid = game or getattr(findings, "game", "") or ""
    summary = _summary(findings)
    if fmt == "json":
        doc = {
            "game": gid,
            "findings": [
                {
                    "kind": f.kind,
                    "severity": severity(f),
                    "rule": f.rule,
                    "message": f.message,
                    "stated": f.stated,
                    "computed": f.computed,
                    "ref": f.ref,
                    "extra": {k: v for k, v in f.extra.items() if k != "severity"},
                }
                for f in findings
            ],
            "summary": summary,
        }
        return json.dumps(doc, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    ex = summary.get("examples")
    ex_txt = (
        (
            f"; examples: {ex['total']} ({ex['checked']} checked, {ex['mismatched']} mismatched, "
            f"{ex['unchecked']} not fully recomputed)"
        )
        if ex
        else ""
    )
    head = (
        f"{gid or 'game'}: {summary['total']} findings ({summary['error']} errors, {summary['warning']} warnings, "
        f"{summary['info']} info){ex_txt}"
    )
    if fmt == "markdown":
        lines = [
            f"## {gid or 'game'}",
            "",
            head,
            "",
            "| severity | kind | rule | ref | finding | stated | rules give |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        for f in findings:
            cells = [severity(f), f.kind, f.rule or "", f.ref or "", f.message, f.stated or "", f.computed or ""]
            lines.append("| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |")
        return "\n".join(lines) + "\n"
    if fmt != "text":
        raise ValueError(f"{fmt!r} is not a findings format (expected 'text', 'markdown' or 'json')")
    lines = [head]
    for f in findings:
        lines.append(f"{severity(f):7} {f.kind:18} {f.rule or '-':8} {f.message}")
        if f.stated is not None or f.computed is not None:
            lines.append(f"{'':36}book: {f.stated or '-'}   rules: {f.computed or '-'}")
    return "\n".join(lines) + "\n"
