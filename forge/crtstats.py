"""The CRT's exact outcome charts, for ``forge analyze`` and the teacher's pack: per column and attack kind, the
probability of each printed result and the expected losses of each side, the first column at which an attack
"pays", and what one column shift changes.

Everything is computed by :mod:`forge.rules.combat` (``distribution``, ``magnitude_distribution``,
``expected_losses``): this module only walks the table's columns and attack kinds and names the results.  The base
table is read as printed: no die modifier, no re-roll, no shift.

>>> from forge.model import Combat, Crt
>>> crt = Crt(columns=["1:1", "2:1"], rows=["1-3", "4-6"], cells=[["0/0", "0/1"], ["0/1", "1/2"]],
...           cell_format="hits-normal/all-out")
>>> t = tables(Combat(kind="odds", crt=crt))[0]
>>> t.name, [str(c.defender) for c in t.columns], t.pays
('normal attack', ['0', '1/2'], '2:1')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .model import CellFormat, Combat, CombatKind, Crt
from .rules import combat as cb

__all__ = ["Column", "ShiftStep", "Table", "describe_losses", "game_shifts", "shift_steps", "tables"]


@dataclass(frozen=True)
class Column:
    """One column of one attack kind."""

    label: str
    """The column heading as printed (``3:1``, ``+2``)."""
    outcomes: tuple[tuple[str, Fraction], ...] = ()
    """Each result (as printed, or ``2 hits``) with its probability, in the table's order of first appearance."""
    attacker: Fraction | None = None
    """Expected steps the attacker loses (None: unknown, see :attr:`unknown`)."""
    defender: Fraction | None = None
    """Expected steps (hits) the defender loses."""
    retreat: Fraction = Fraction(0)
    """Expected hexes the defender retreats."""
    attacker_retreat: Fraction = Fraction(0)
    defender_eliminated: Fraction = Fraction(0)
    """Probability that the result eliminates every defender whatever its steps (not counted in :attr:`defender`)."""
    attacker_eliminated: Fraction = Fraction(0)
    unknown: str | None = None
    """Why this column's chart cannot be computed (cells the book does not give), or None."""


@dataclass(frozen=True)
class Table:
    """One attack kind of the CRT (``normal attack``, ``all-out attack``, a terrain section, a number of dice)."""

    name: str
    columns: tuple[Column, ...]
    notes: tuple[str, ...] = ()
    """What the expectations leave out (an elimination's or an exchange's unknown step count)."""

    @property
    def pays(self) -> str | None:
        """The first column (left to right) at which an attack pays: the defender's expected step losses are at
        least the attacker's, the defender is at least as likely to be eliminated outright, and one of the two is
        above zero."""
        for c in self.columns:
            if c.defender is None or c.attacker is None:
                continue
            hurts = c.defender > 0 or c.defender_eliminated > 0
            if hurts and c.defender >= c.attacker and c.defender_eliminated >= c.attacker_eliminated:
                return c.label
        return None

    @property
    def one_step(self) -> str | None:
        """The first column at which the defender expects to lose at least one step."""
        for c in self.columns:
            if c.defender is not None and c.defender >= 1:
                return c.label
        return None


@dataclass(frozen=True)
class ShiftStep:
    """Moving one column right, from ``left`` to ``right``: the change in each expectation."""

    left: str
    right: str
    defender: Fraction
    attacker: Fraction
    defender_eliminated: Fraction


def describe_losses(x: cb.Losses) -> str:
    """A magnitude combat's summed result: ``A1 D2 R2`` (attacker steps, defender steps, retreat hexes)."""
    parts = [f"A{x.attacker}" if x.attacker else "", f"D{x.defender}" if x.defender else ""]
    parts += [f"R{x.retreat}" if x.retreat else "", "DE" if x.defender_eliminated else ""]
    return " ".join(p for p in parts if p) or "no effect"


def _one_die(crt: Crt) -> Crt:
    """The CRT with a dice text the combat module reads: ``1d6 to 3d6 by magnitude`` rolls one d6 per die."""
    try:
        cb.dice_spec(crt.dice)
        return crt
    except ValueError:
        m = re.search(r"(\d*)d(\d+)", crt.dice)
        return crt.model_copy(update={"dice": f"{(m.group(1) or 1) if m else 1}d{m.group(2) if m else 6}"})


def _hits_column(crt: Crt, j: int, attack: cb.Attack) -> Column:
    label = crt.columns[j]
    try:
        dist = cb.distribution(crt, j, attack=attack)
    except cb.UnknownValueError as e:
        return Column(label, unknown=str(e))
    ex = cb.expected_losses(dist)
    outcomes = tuple((f"{h} hit{'s' if h != 1 else ''}", p) for h, p in sorted(dist.items()))
    return Column(label, outcomes, ex.attacker, ex.defender)


def _read(code: str, combat: Combat, notes: set[str]) -> cb.Losses | None:
    """A code cell's losses: the step counts the legend gives; an elimination or exchange whose step count is
    unknown reads as 0 steps (its probability is shown apart) and says so in ``notes``."""
    exact = cb.code_losses(code, combat.results)
    if exact is not None:
        return exact
    ranked = cb.rank_losses(code, combat.results)
    if ranked is None:
        return None
    for part in code.split("+"):
        rc = combat.results.get(part.strip())
        if rc is None:
            continue
        if rc.defender_eliminated:
            notes.add(f"{part.strip()}: eliminates the defenders whatever their steps (as P(defender eliminated))")
        if rc.attacker_eliminated:
            notes.add(f"{part.strip()}: eliminates the attackers whatever their steps (as P(attacker eliminated))")
        if rc.exchange == "strength":
            notes.add(
                f"{part.strip()}: the attacker also loses at least the strength the defender lost "
                "(not in the attacker's expected steps)"
            )
    return ranked


def _code_column(crt: Crt, j: int, combat: Combat, section: str | None, notes: set[str]) -> Column:
    label = crt.columns[j]
    try:
        dist = cb.distribution(crt, j, section=section)
    except cb.UnknownValueError as e:
        return Column(label, unknown=str(e))
    a = d = r = ar = de = ae = Fraction(0)
    outcomes: list[tuple[str, Fraction]] = []
    for cell in cb.column_cells(crt, j, section):
        code = cell.strip()
        if code in dist and code not in (o for o, _ in outcomes):
            outcomes.append((code, dist[code]))
    for code, p in dist.items():
        x = _read(str(code), combat, notes)
        if x is None:
            return Column(label, tuple(outcomes), unknown=f"result {code!r} has no step counts in the legend")
        a += x.attacker * p
        d += x.defender * p
        r += x.retreat * p
        ar += x.attacker_retreat * p
        de += p if x.defender_eliminated else 0
        ae += p if x.attacker_eliminated else 0
    return Column(label, tuple(outcomes), a, d, r, ar, de, ae)


def _magnitude_column(crt: Crt, j: int, combat: Combat, dice: int) -> Column:
    label = crt.columns[j]
    try:
        dist = cb.magnitude_distribution(crt, j, combat.results, dice=dice)
    except (cb.UnknownValueError, ValueError) as e:
        return Column(label, unknown=str(e))
    ex = cb.expected_losses(dist)
    merged: dict[str, Fraction] = {}
    for x, p in dist.items():
        merged[describe_losses(x)] = merged.get(describe_losses(x), Fraction(0)) + p
    de = sum((p for x, p in dist.items() if x.defender_eliminated), Fraction(0))
    return Column(label, tuple(merged.items()), ex.attacker, ex.defender, ex.retreat, ex.attacker_retreat, de)


def tables(combat: Combat) -> list[Table]:
    """Every attack kind of the game's CRT, each column charted (none for a game without a CRT)."""
    crt = combat.crt
    if crt is None:
        return []
    crt = _one_die(crt)
    n = len(crt.columns)
    if crt.cell_format is CellFormat.HITS_NORMAL_ALLOUT:
        note = ("the table gives the defender's hits only: what an attack costs the attacker is in the rules, "
                "not in the table, and is not counted",)
        return [
            Table(f"{attack} attack", tuple(_hits_column(crt, j, attack) for j in range(n)), note)
            for attack in ("normal", "all-out")
        ]
    if combat.kind is CombatKind.MAGNITUDE and crt.secondary is not None:
        most = max(k for _, k in cb.MAGNITUDE_STEPS)
        return [
            Table(
                f"{k} {'die' if k == 1 else 'dice'}",
                tuple(_magnitude_column(crt, j, combat, k) for j in range(n)),
            )
            for k in range(1, most + 1)
        ]
    out = []
    sections: list[str | None] = [*crt.sections] if crt.sections else [None]
    for section in sections:
        notes: set[str] = set()
        cols = tuple(_code_column(crt, j, combat, section, notes) for j in range(n))
        out.append(Table(section or "normal attack", cols, tuple(sorted(notes))))
    return out


def shift_steps(table: Table) -> list[ShiftStep]:
    """Each one-column shift to the right (reversed, to the left) and what it changes, where both columns are
    known."""
    out = []
    for a, b in zip(table.columns, table.columns[1:], strict=False):
        if a.attacker is None or a.defender is None or b.attacker is None or b.defender is None:
            continue
        out.append(
            ShiftStep(a.label, b.label, b.defender - a.defender, b.attacker - a.attacker,
                      b.defender_eliminated - a.defender_eliminated)
        )
    return out


def game_shifts(combat: Combat, table: Table) -> list[dict[str, Any]]:
    """The game's own column shifts, each with the range of change of the defender's expected losses it makes on
    ``table`` (over every column it moves from and to on the table)."""
    out = []
    cols = table.columns
    for s in combat.shifts:
        deltas = []
        for j, c in enumerate(cols):
            k = j + s.shift
            if not 0 <= k < len(cols) or c.defender is None or cols[k].defender is None:
                continue
            other = cols[k].defender
            assert other is not None
            deltas.append(other - c.defender)
        out.append(
            {
                "id": s.id,
                "when": s.when,
                "rule": s.rule,
                "columns": s.shift,
                "defender_change_min": min(deltas) if deltas else None,
                "defender_change_max": max(deltas) if deltas else None,
            }
        )
    return out
