"""Checks of the combat results table on its own: column order, die rows, unknown cells, and cells that run against
the table's own grain (higher odds worse for the attacker, an all-out result below the normal one, a die roll
against the table's direction)."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from .. import model as m
from ..notation import DiffColumn, OddsColumn
from ..rules import combat as cb
from .core import Context, show

__all__ = ["check_tables"]


def check_tables(ctx: Context) -> None:
    crt = ctx.crt
    if crt is None:
        return
    ref = "crt"
    differential = ctx.combat.kind is m.CombatKind.DIFFERENTIAL
    lows: list[Fraction] = []
    for label in crt.columns:
        try:
            col = DiffColumn.parse(label) if differential else OddsColumn.parse(label)
        except ValueError as e:
            ctx.add("crt-columns", crt.rule, str(e), ref=ref, column=label)
            return
        if not col.below:
            lows.append(Fraction(col.low))
    bad = [i for i in range(1, len(lows)) if lows[i] <= lows[i - 1]]
    if bad:
        ctx.add("crt-columns", crt.rule, "CRT columns are not in increasing order", stated=crt.columns, ref=ref)
    try:
        cb.row_probabilities(crt.rows, _dice(crt.dice))
    except ValueError as e:
        ctx.add("crt-rows", crt.rule, str(e), stated=crt.rows, ref=ref)
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
            ctx.add(
                "crt-unknown",
                crt.rule,
                f"the CRT's cells{where} are unknown{': ' + why if why else ''}",
                ref=ref,
                section=section,
            )
            continue
        check_grid(ctx, grid, crt.rows, crt.columns, crt.cell_format, section, "CRT")
    if crt.secondary is not None:
        sec = crt.secondary
        if isinstance(sec.cells, m.Unknown):
            ctx.add("crt-unknown", crt.rule, "the secondary-dice table is unknown", ref="crt.secondary")
        else:
            check_grid(
                ctx, sec.cells, sec.rows, crt.columns, m.CellFormat.LOSSES_ATTACKER_DEFENDER, None, "secondary table"
            )
    check_ends(ctx, crt)


def _parts(ctx: Context, cell: str, fmt: m.CellFormat) -> dict[str, cb.Losses | int | None]:
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
    return {"": cb.rank_losses(cell, ctx.combat.results)}


def _band(row: list[dict[str, Any]], j: int, part: str) -> list[int]:
    """The columns of die row ``row`` holding column ``j``'s value (in ``part``) when that value fills more than half
    of the row, a designed band (First Panzer Army's EX on every 6) rather than a one-cell slip; else []."""
    same = [k for k, cell in enumerate(row) if cell.get(part) == row[j][part]]
    return same if 2 * len(same) > len(row) else []


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
    ctx: Context,
    grid: list[list[str]],
    rows: list[str],
    columns: list[str],
    fmt: m.CellFormat,
    section: str | None,
    what: str,
) -> None:
    crt = ctx.crt
    assert crt is not None
    rule = crt.rule
    ref = "crt" if what == "CRT" else "crt.secondary"
    sec = f" ({section})" if section else ""
    unknown = [(columns[j], rows[i]) for i, row in enumerate(grid) for j, c in enumerate(row) if "?" in c]
    if unknown:
        listed = ", ".join(f"{c}/{r}" for c, r in unknown)
        ctx.add(
            "crt-unknown",
            rule,
            f"{len(unknown)} of {len(rows) * len(columns)} cells of the {what}{sec} are unknown: {listed}",
            ref=ref,
            section=section,
            cells=listed,
        )
    parts = [[_parts(ctx, c, fmt) for c in row] for row in grid]
    # higher odds never worse, die by die
    for i, row in enumerate(parts):
        for j in range(1, len(row)):
            for part, val in row[j].items():
                if _cmp(val, row[j - 1][part]) == -1:
                    p = f" ({part})" if part else ""
                    ctx.add(
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
                    ctx.add(
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
                c = _cmp(val, parts[i0][j][part])
                if c:
                    votes += c
                    pairs.append((j, i0, i1, part, c))
    if votes:
        direction = 1 if votes > 0 else -1
        word = "higher" if direction > 0 else "lower"
        bands: dict[tuple[int, str], list[int]] = {}
        i0s: dict[tuple[int, str], int] = {}
        for j, i0, i1, part, c in pairs:
            if c == direction:
                continue
            run = _band(parts[i1], j, part)
            if run:
                bands[(i1, part)] = sorted(set(bands.get((i1, part), [])) | set(run))
                i0s[(i1, part)] = i0
                continue
            p = f" ({part})" if part else ""
            ctx.add(
                "crt-die",
                rule,
                f"{what}{sec} {columns[j]}: die {rows[i1]} gives {grid[i1][j]!r}, "
                f"{'worse' if c < 0 else 'better'} for the attacker{p} than {grid[i0][j]!r} on die "
                f"{rows[i0]}, against the direction the rest of the table runs ({word} rolls better for the "
                "attacker)",
                stated=grid[i1][j],
                ref=ref,
                section=section,
                column=columns[j],
                row=rows[i1],
                other_column=columns[j],
                other_row=rows[i0],
            )
        for (i1, part), run in sorted(bands.items()):
            p = f" ({part})" if part else ""
            ctx.add(
                "crt-band",
                rule,
                f"{what}{sec}: die {rows[i1]} gives {grid[i1][run[0]]!r}{p} in {len(run)} of its {len(columns)} "
                f"columns ({columns[run[0]]} to {columns[run[-1]]}); where die {rows[i0s[(i1, part)]]} is worse for "
                f"the attacker this runs against the rest of the table ({word} rolls better), but a value filling "
                "most of a die row is taken as designed, not as a misprint",
                stated=grid[i1][run[0]],
                ref=ref,
                section=section,
                row=rows[i1],
                other_row=rows[i0s[(i1, part)]],
                columns=", ".join(columns[k] for k in run),
            )
    # distributions: each column no worse than the one to its left
    if fmt is m.CellFormat.LOSSES_ATTACKER_DEFENDER:
        return
    for attack in ("normal", "all-out") if fmt is m.CellFormat.HITS_NORMAL_ALLOUT else ("normal",):
        prev: tuple[str, Any] | None = None
        for j, label in enumerate(columns):
            try:
                tmp = crt.model_copy(update={"cells": grid, "sections": None, "rows": rows})
                dist = cb.losses_distribution(tmp, j, ctx.combat.results, attack=attack, ranking=True)
            except (cb.UnknownValueError, ValueError):
                prev = None
                continue
            e = cb.expected_losses(dist)
            cur = (label, (dist, e))
            if prev is not None:
                bad_because = _dist_worse(prev[1], cur[1])
                if bad_because:
                    a_txt = f" ({attack} attack)" if fmt is m.CellFormat.HITS_NORMAL_ALLOUT else ""
                    ctx.add(
                        "crt-odds-dist",
                        rule,
                        f"{what}{sec}: column {label} is worse for the attacker than {prev[0]}{a_txt}: {bad_because}",
                        ref=ref,
                        section=section,
                        column=label,
                        other_column=prev[0],
                    )
            prev = cur


def check_ends(ctx: Context, crt: m.Crt) -> None:
    """Automatic results below/above the table should be no better (below) / no worse (above) than the cells
    of the end column they continue."""
    grid = cb.grid_of(crt, None) if not isinstance(crt.cells, dict) else None
    if grid is None or crt.cell_format is not m.CellFormat.CODE:
        return
    for end, j, sign in (("below", 0, 1), ("above", len(crt.columns) - 1, -1)):
        auto = getattr(crt, end)
        if auto is None or auto.result is None:
            continue
        loss = cb.rank_losses(auto.result, ctx.combat.results)
        for i, row in enumerate(grid):
            c = _cmp(cb.rank_losses(row[j], ctx.combat.results), loss)
            if c is not None and c * sign < 0:
                ctx.add(
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


def _dice(spec: str) -> str:
    """The die of a CRT's dice text: ``"1d6 to 3d6 by magnitude"`` rolls one d6 per die."""
    mt = re.search(r"(\d*)d(\d+)", spec)
    return f"{mt.group(1) or 1}d{mt.group(2)}" if mt else "1d6"


def _dist_worse(left: tuple[Any, cb.Expected], right: tuple[Any, cb.Expected]) -> str:
    """Why the right column's distribution is worse for the attacker than the left one ('' when it is not).

    An elimination counts as every step and as any retreat (it is never worse for the attacker than a step loss
    or a retreat): where one is possible, the expected counts it would distort are not compared, only the chance
    of each count being reached.  Likewise the attacker's expected steps where a strength exchange or an
    attacker elimination makes them unknown."""
    dl, el = left
    dr, er = right
    outcomes = [*dl, *dr]
    elim = any(k.defender_eliminated for k in outcomes)
    a_unknown = any(k.attacker_eliminated or k.exchange == "strength" for k in outcomes)
    reasons = []
    if er.defender < el.defender and not elim:
        reasons.append(f"expected defender losses {show(er.defender)} < {show(el.defender)}")
    if er.attacker > el.attacker and not a_unknown:
        reasons.append(f"expected attacker losses {show(er.attacker)} > {show(el.attacker)}")
    if er.retreat < el.retreat and not elim:
        reasons.append(f"expected retreat {show(er.retreat)} < {show(el.retreat)}")
    if er.attacker_retreat > el.attacker_retreat and not a_unknown:
        reasons.append(f"expected attacker retreat {show(er.attacker_retreat)} > {show(el.attacker_retreat)}")
    top = max([k.defender for k in outcomes], default=0) + (1 if elim else 0)
    for k in range(1, top + 1):
        pl = sum((p for x, p in dl.items() if x.defender >= k or x.defender_eliminated), Fraction(0))
        pr = sum((p for x, p in dr.items() if x.defender >= k or x.defender_eliminated), Fraction(0))
        if pr < pl:
            reasons.append(f"P(defender loses >= {k}) {show(pr)} < {show(pl)}")
    if elim:
        tops = max([k.retreat for k in outcomes], default=0)
        for k in range(1, tops + 1):
            pl = sum((p for x, p in dl.items() if x.retreat >= k or x.defender_eliminated), Fraction(0))
            pr = sum((p for x, p in dr.items() if x.retreat >= k or x.defender_eliminated), Fraction(0))
            if pr < pl:
                reasons.append(f"P(defender retreats >= {k} or is eliminated) {show(pr)} < {show(pl)}")
    return "; ".join(reasons)
