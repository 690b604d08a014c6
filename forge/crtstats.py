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
    def free(self) -> bool:
        """The table never costs the attacker anything (a table of the defender's hits): every column that hurts
        the defender at all pays."""
        return all(c.attacker == 0 and not c.attacker_eliminated for c in self.columns if c.attacker is not None)

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


# ================================================================================================ discussion
@dataclass(frozen=True)
class Question:
    """A discussion question built from the game's own numbers, with its answer."""

    question: str
    answer: str


def _n(x: Fraction | None) -> str:
    return "unknown" if x is None else f"{float(x):.2f}"


def _p(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator} ({100 * float(x):.0f} %)" if 0 < x < 1 else f"{100 * float(x):.0f} %"


def _losses(c: Column) -> str:
    """``defender 0.50 steps, attacker 0.17 steps`` (and each side's chance to be eliminated outright, when it
    has one)."""
    d = f"defender {_n(c.defender)} steps"
    d += f" and eliminated {100 * float(c.defender_eliminated):.0f} % of the time" if c.defender_eliminated else ""
    a = f"attacker {_n(c.attacker)} steps"
    a += f" and eliminated {100 * float(c.attacker_eliminated):.0f} % of the time" if c.attacker_eliminated else ""
    return f"{d}; {a}"


def _known(t: Table) -> list[Column]:
    return [c for c in t.columns if c.defender is not None and c.attacker is not None]


def discussion(combat: Combat) -> list[Question]:
    """Questions for a class on the game's CRT, each answered from the exact charts (:func:`tables`): why the
    column that pays rather than the one before it, normal against all-out, a column shift's worth, the most
    likely result, and which column two strengths fall in.  Only what the data gives: a table whose cells are
    unknown asks nothing."""
    tabs = [t for t in tables(combat) if len(_known(t)) >= 2]
    out: list[Question] = []
    if not tabs:
        return out
    t = tabs[0]
    cols = t.columns
    pays = t.pays
    j = next((k for k, c in enumerate(cols) if c.label == pays), None)
    if j is not None and j > 0 and cols[j - 1].defender is not None:
        lo, hi = cols[j - 1], cols[j]
        out.append(
            Question(
                f"Why attack at {hi.label} rather than {lo.label}? ({t.name}) Expected losses at {lo.label}: "
                f"{_losses(lo)}. At {hi.label}: {_losses(hi)}.",
                (
                    f"{hi.label} is the first column where this attack hurts the defender at all; below it the "
                    "attack achieves nothing on average, and the table itself never costs the attacker a step. "
                    if t.free
                    else f"{hi.label} is the first column where the attack pays: the defender expects to lose at "
                    "least as much as the attacker (and is at least as likely to be eliminated). "
                )
                + f"Going from {lo.label} to "
                f"{hi.label} changes the defender's expected losses by {_signed(hi.defender, lo.defender)} and the "
                f"attacker's by {_signed(hi.attacker, lo.attacker)} steps"
                + (
                    f", the defender's chance to be eliminated by "
                    f"{_signed(hi.defender_eliminated, lo.defender_eliminated)}"
                    if hi.defender_eliminated != lo.defender_eliminated
                    else ""
                )
                + ".",
            )
        )
    if t.one_step is not None and t.one_step != pays:
        c1 = next(c for c in cols if c.label == t.one_step)
        out.append(
            Question(
                f"From which column does the defender expect to lose at least one whole step? ({t.name})",
                f"{c1.label}: {_losses(c1)}. Below it an attack wears the defender down less than a step on average.",
            )
        )
    best = max(_known(t), key=lambda c: (c.defender or 0) - (c.attacker or 0))
    first = next(c for c in _known(t) if c.defender is not None)
    if best.label != first.label:
        out.append(
            Question(
                f"How much more does an attack at {best.label} take from the defender than one at {first.label}? "
                "What must the attacker bring together to reach it?",
                f"At {first.label}: {_losses(first)}. At {best.label}: {_losses(best)}. Reaching "
                f"{best.label} needs more attack strength against the same defence, or shifts in the attacker's "
                "favour.",
            )
        )
    if len(tabs) >= 2 and tabs[0].name == "normal attack" and tabs[1].name == "all-out attack":
        a, b = tabs
        k = next((i for i, c in enumerate(a.columns) if c.label == (a.pays or a.columns[0].label)), 0)
        ca, cb_ = a.columns[k], b.columns[k]
        if ca.defender is not None and cb_.defender is not None:
            out.append(
                Question(
                    f"At {ca.label}, is an all-out attack worth what it costs?",
                    f"An all-out attack at {ca.label} expects {_n(cb_.defender)} hits on the defender against "
                    f"{_n(ca.defender)} for a normal attack ({_signed(cb_.defender, ca.defender)}). The table "
                    "charges the attacker nothing: the cost is in the rules, so weigh it against those extra hits.",
                )
            )
    shifts = game_shifts(combat, t)
    if shifts and j is not None:
        s = max(shifts, key=lambda g: (abs(g["columns"]), g["id"]))
        k = j + s["columns"]
        if 0 <= k < len(cols) and cols[k].defender is not None:
            way = f"{abs(s['columns'])} column{'s' if abs(s['columns']) != 1 else ''} " + (
                "right" if s["columns"] > 0 else "left")
            out.append(
                Question(
                    f"The shift '{s['when']}' moves an attack {way}. What does it do to an attack at {cols[j].label}?",
                    f"It moves the attack from {cols[j].label} ({_losses(cols[j])}) to {cols[k].label} "
                    f"({_losses(cols[k])}).",
                )
            )
    mid = cols[j] if j is not None else _known(t)[len(_known(t)) // 2]
    if mid.outcomes:
        o, p = max(mid.outcomes, key=lambda op: op[1])
        out.append(
            Question(
                f"Roll one attack at {mid.label} ({t.name}). What is the most likely result, and how likely is it?",
                f"{o}: {_p(p)}. All results at {mid.label}: "
                + ", ".join(f"{name} {_p(q)}" for name, q in mid.outcomes)
                + ".",
            )
        )
    crt = combat.crt
    if combat.kind is CombatKind.ODDS and crt is not None:
        try:
            one = cb.column_for_odds(crt, 7, 3)
            two = cb.column_for_odds(crt, 9, 3)
        except (ValueError, TypeError):
            one = two = None  # type: ignore[assignment]
        if one is not None and two is not None and one.index is not None and two.index is not None:
            c1, c2 = t.columns[one.index], t.columns[two.index]
            out.append(
                Question(
                    "Units with 7 attack strength attack a hex defended by 3. Which column do they use? What do two "
                    "more attack points change?",
                    f"7 to 3 is {7 / 3:.2f} to 1, read on {one.label} ({_losses(c1)}); 9 to 3 is 3 to 1, read on "
                    f"{two.label} ({_losses(c2)}), before any shift.",
                )
            )
    return out


def _signed(a: Fraction | None, b: Fraction | None) -> str:
    if a is None or b is None:
        return "unknown"
    v = float(a - b)
    return f"{v:+.2f}" if round(v, 2) else "±0.00"
