"""The combat blocks: the combat results table (and a secondary dice table), the results' meanings, column
shifts and their limits, strength modifiers, a dice pool's hits, and the combat notes (limits on attackers and
defenders, the game's own note)."""

from __future__ import annotations

from collections.abc import Sequence
import re

from ...model import CellFormat, Crt, Game, Grid2D, Unknown
from ...pdf import FONT_BOLD, text_width
from ...templates import card_layout
from ..blocks import Block, Row, Table
from ..fit import MIN_TEXT_PT
from .styles import esc, heading, note, _num, P, _rule, _side_name, Styles, _turn_list
from .flowables import ShiftArrow
from .tables import grid_table, write_in, WRITE_IN_NOTE


RETREAT_RED = "#c8102e"


def _hits_cell(text: str, crt: Crt, st: Styles) -> str:
    """``normal/all-out`` hits; numbers at or above the mandatory-retreat threshold in red (bold and
    underlined in greyscale, where red would not stand out)."""
    mr = crt.mandatory_retreat
    out = []
    for p in text.split("/"):
        s = esc(p)
        if mr is not None and p.strip().isdigit() and int(p) >= mr.min_hits:
            s = f"<u><b>{s}</b></u>" if st.greyscale else f'<font color="{RETREAT_RED}"><b>{s}</b></font>'
        out.append(s)
    return "/".join(out)


def _cell_markup(text: str, crt: Crt, st: Styles) -> str:
    if crt.cell_format is CellFormat.HITS_NORMAL_ALLOUT:
        return _hits_cell(text, crt, st)
    return esc(text)


def _grid_rows(cells: list[list[str]] | Unknown, rows: Sequence[str], n_cols: int) -> list[list[str]]:
    if isinstance(cells, Unknown):
        return [["?"] * n_cols for _ in rows]
    return [list(r) + ["?"] * (n_cols - len(r)) for r in cells]


def _has_unknown(grid: list[list[str]]) -> bool:
    return any(x.strip() == "?" for row in grid for x in row)


def _dice_label(crt: Crt) -> str:
    return crt.dice if len(crt.dice) <= 5 else "Die"


def _crt_widths(
    columns: Sequence[str],
    first: Sequence[str],
    grid: list[list[str]],
    avail: float,
    size: float,
    *,
    grow: bool,
) -> list[float]:
    """Die column plus equal odds columns wide enough for every cell; ``grow`` widens them (up to 56 pt) so
    the main table reads easily across a card."""
    pad = 10 if grow else 7
    first_w = max([text_width(x, size, FONT_BOLD) for x in first] + [14.0]) + pad
    need = max(
        [text_width(c, 7.5, FONT_BOLD) + pad for c in columns]
        + [text_width(x, size, FONT_BOLD) + pad for r in grid for x in r]
        + [22.0]
    )
    col = max(need, 34.0) if grow else need
    col = min(max(col, min(need, 56.0)), 56.0, (avail - first_w) / len(columns)) if grow else col
    col = min(col, (avail - first_w) / len(columns))
    return [first_w] + [col] * len(columns)


def _crt_least(
    columns: Sequence[str], first: Sequence[str], grid: list[list[str]], size: float, *, grow: bool
) -> float:
    """The narrowest a results table can be with every header and cell inside its column (:func:`_crt_widths`'
    widths before they are fitted to the room)."""
    widths = _crt_widths(columns, first, grid, float("inf"), size, grow=False)
    if grow:  # the die column's wider padding
        widths[0] += 3
    return sum(widths)


def _crt_table(
    crt: Crt,
    grid: list[list[str]],
    row_labels: Sequence[str],
    st: Styles,
    avail: float,
    *,
    corner: str,
    markup: bool = True,
    title: str | None = None,
    grow: bool = True,
) -> Table:
    crt_style = card_layout().crt
    big = st.cell_c.but(size=max(MIN_TEXT_PT, crt_style.size), leading=crt_style.leading)
    rows: list[list[Block | None]] = [
        [P(f"<b>{esc(lab)}</b>", big), *[P(_cell_markup(x, crt, st) if markup else esc(x), big) for x in r]]
        for lab, r in zip(row_labels, grid, strict=False)
    ]
    header = [esc(corner)] + [esc(c) for c in crt.columns]
    widths = _crt_widths(crt.columns, [*row_labels, corner], grid, avail, big.size, grow=grow)
    least = _crt_least(crt.columns, [*row_labels, corner], grid, big.size, grow=grow)
    spans: dict[int, str] = {}
    if title is not None:  # a section's name across the top
        rows = [[P(f"<b>{esc(title)}</b>", st.head_c), *[None] * len(crt.columns)], *rows]
        spans[1] = "#6b6b6b"
    return grid_table(st, header, rows, avail, widths=widths, centre_from=0, spans=spans, align="centre", least=least)


def _side_by_side(tables: Sequence[Table], avail: float, gap: float = 8.0) -> list[Block]:
    """Small tables laid out in rows across the card (each row of the layout splits onto the next card)."""
    if not tables:
        return []
    w = max(t.width for t in tables)
    per_row = max(1, int((avail + gap) // (w + gap)))
    if per_row == 1:
        return list(tables)
    data: list[list[Block | None]] = [list(tables[i : i + per_row]) for i in range(0, len(tables), per_row)]
    data[-1] += [None] * (per_row - len(data[-1]))
    return [Table([Row(r) for r in data], [w + gap] * per_row, head=0, pad=(0.0, 5.0, 0.0, 0.0), valign="top",
                  label="charts side by side")]  # fmt: skip


def _section_name(game: Game, sec: str) -> str:
    return game.terrain[sec].name if sec in game.terrain else sec.replace("-", " ").replace("_", " ")


def crt_blocks(game: Game, st: Styles, avail: float) -> list[Block]:
    """The CRT with its columns and die rows, legend, automatic results, secondary table, sections and
    notes."""
    crt = game.combat.crt
    if crt is None:
        return []
    out: list[Block] = [heading(st, crt.title, crt.rule)]
    corner = _dice_label(crt)
    if corner != crt.dice:
        out.append(P(f"<b>Dice:</b> {esc(crt.dice)}", st.small))
    n = len(crt.columns)
    unknown_any = False
    whole_unknown: str | None = None
    if crt.sections and isinstance(crt.cells, dict):
        tables: list[Block] = []
        for sec in crt.sections:
            sec_cells = crt.cells.get(sec, Unknown(unknown="section not given"))
            if isinstance(sec_cells, Unknown):
                out_note = f"{_section_name(game, sec)}: every cell unknown ({sec_cells.unknown or 'not given'})"
                tables.append(note(st, esc(out_note), table_note=True))
            grid = _grid_rows(sec_cells, crt.rows, n)
            unknown_any |= _has_unknown(grid)
            tables.append(
                _crt_table(
                    crt, write_in(grid), crt.rows, st, avail, corner=corner, title=_section_name(game, sec), grow=False
                )
            )
        out += _side_by_side([t for t in tables if isinstance(t, Table)], avail)
        out += [t for t in tables if not isinstance(t, Table)]
    else:
        cells = crt.cells if not isinstance(crt.cells, dict) else Unknown(unknown="sections without a section list")
        grid = _grid_rows(cells, crt.rows, n)
        unknown_any |= _has_unknown(grid)
        out.append(_crt_table(crt, write_in(grid), crt.rows, st, avail, corner=corner))
        if isinstance(cells, Unknown):
            whole_unknown = cells.unknown or "the rules do not print it"
    legend: list[str] = []
    if whole_unknown:
        legend.append(f"<b>Every cell is unknown:</b> {esc(whole_unknown)}")
    # A note that says itself what a cell holds (the book's words, often with more) is not said twice.
    says_cells = crt.note is not None and re.search(r"\beach cell\b", crt.note, re.IGNORECASE) is not None
    if crt.cell_format is CellFormat.HITS_NORMAL_ALLOUT and not says_cells:
        legend.append("Each cell: hits on the defender, <b>normal</b> attack / <b>all-out</b> attack.")
    elif crt.cell_format is CellFormat.LOSSES_ATTACKER_DEFENDER and not says_cells:
        legend.append("Each cell: attacker / defender step losses (- = none).")
    if (all_out := all_out_sentence(game, crt)) is not None:
        legend.append(all_out)
    mr = crt.mandatory_retreat
    if mr is not None:
        look = "<u><b>bold underlined</b></u>" if st.greyscale else f'<font color="{RETREAT_RED}"><b>red</b></font>'
        legend.append(
            f"Numbers in {look} ({mr.min_hits} or more hits): a {esc(_side_name(game, mr.side))} defender "
            f"suffering them must retreat if it can {_rule(mr.rule)}."
        )
    for where, auto, col in (("Below", crt.below, crt.columns[0]), ("Above", crt.above, crt.columns[-1])):
        if auto is None:
            continue
        if auto.result:
            what = f"<b>{esc(auto.result)}</b>, no roll"
        elif auto.column:
            what = f"use the <b>{esc(auto.column)}</b> column"
        elif auto.no_effect:
            what = "no effect, no roll"
        else:
            what = "?"
        extra_note = f" {esc(auto.note)}" if auto.note else ""
        legend.append(f"<b>{where} {esc(col)}:</b> {what} {_rule(auto.rule)}.{extra_note}")
    if unknown_any:
        legend.append(f"<b>{esc(WRITE_IN_NOTE)}</b>")
    out += [note(st, line, table_note=True) for line in legend]  # the legend of the table above
    if crt.secondary is not None:
        out += _secondary(crt, crt.secondary, st, avail)
    if crt.note:
        # right under the legend it is the table's too; after the secondary table it is not that table's
        out.append(note(st, f"<i>Note:</i> {esc(crt.note)}", table_note=crt.secondary is None))
    out += result_blocks(game, st, avail)
    return out


def all_out_sentence(game: Game, crt: Crt) -> str | None:
    """What ``combat.crt.all_out`` makes the engine do, in one sentence for the CRT's legend (None on a CRT without
    it): which attacker an all-out attack flips, and the crowded hex that takes the all-out result of every attack.
    """
    ao = crt.all_out
    if ao is None or crt.cell_format is not CellFormat.HITS_NORMAL_ALLOUT:
        return None
    if ao.flip_first:
        order = ", then ".join(esc(t.value) for t in ao.flip_first[1:])
        pref = f"{esc(ao.flip_first[0].value)} first" + (f", then {order}" if order else "")
    else:
        pref = "the attacker's choice"
    text = f"An <b>all-out</b> attack flips one full-strength attacker ({pref})"
    if ao.crowded_units is not None:
        own = ao.crowded_rule is not None and ao.crowded_rule != ao.rule
        if own:  # each half cites its own rule
            text = f"{text} {_rule(ao.rule)}".rstrip()
        cell = "square" if game.map.grid.grid().kind.value == "square" else "hex"
        text += (
            f"; a {cell} of {ao.crowded_units} or more unretreated units takes the all-out result of every attack"
        )
        if own:
            return f"{text} {_rule(ao.crowded_rule)}." if ao.crowded_rule else f"{text}."
    return f"{text} {_rule(ao.rule)}".rstrip() + "."


def _secondary(crt: Crt, sec: Grid2D, st: Styles, avail: float) -> list[Block]:
    grid = _grid_rows(sec.cells, sec.rows, len(crt.columns))
    out: list[Block] = [
        heading(st, "Secondary dice: extra step losses, attacker / defender (- = none)", level=2),
        _crt_table(crt, write_in(grid), sec.rows, st, avail, corner="Die", markup=False),
    ]
    if _has_unknown(grid):
        out.append(note(st, WRITE_IN_NOTE, table_note=True))
    if isinstance(sec.cells, Unknown):
        out.append(note(st, f"Every secondary cell is unknown: {esc(sec.cells.unknown)}", table_note=True))
    return out


def _steps(n: object, what: str) -> str:
    v = _num(n)
    return f"{what} {v} step{'' if v == '1' else 's'}"


def result_blocks(game: Game, st: Styles, avail: float) -> list[Block]:
    """The legend of result codes."""
    results = game.combat.results
    if not results:
        return []
    rows = []
    for code in sorted(results):
        r = results[code]
        eff = []
        if r.attacker_choice:
            eff.append("attacker's choice of " + " or ".join(r.attacker_choice))
        if r.attacker_eliminated:  # every attacking unit, whatever its steps: no count to print
            eff.append("A eliminated")
        elif r.exchange == "steps":
            eff.append("A loses as many steps as D")
        elif r.exchange == "strength":  # a strength exchange has no step count: say what it costs
            eff.append(f"A loses at least D's loss in {r.exchange_strength} strength points")
        elif r.attacker_steps != 0:
            eff.append(_steps(r.attacker_steps, "A loses"))
        if r.defender_eliminated:
            eff.append("D eliminated")
        elif r.defender_steps != 0:
            eff.append(_steps(r.defender_steps, "D loses"))
        if r.defender_retreat != 0:
            eff.append(f"D retreats {_num(r.defender_retreat)}")
        if r.attacker_retreat != 0:
            eff.append(f"A retreats {_num(r.attacker_retreat)}")
        if r.advance is not None:
            who = {"attacker": "A", "defender": "D", "either": "the victor"}[r.advance]
            n = r.advance_hexes
            far = "" if n is None else f" {_num(n)} hex{'' if n == 1 else 'es'}"
            eff.append(f"{who} may advance{far}")
        rows.append([f"<b>{esc(code)}</b>", esc(r.meaning), esc("; ".join(eff)), esc(r.rule or "")])
    return [
        heading(st, "Results", level=2),
        grid_table(st, ["Code", "Meaning", "Effect", "Rule"], rows, avail, flex=1),
    ]


# ------------------------------------------------------------------------------------------ shifts, modifiers
def _shift_name(game: Game, sid: str) -> str:
    for s in game.combat.shifts:
        if s.id == sid:
            return s.when
    return sid


def shift_blocks(game: Game, st: Styles, avail: float) -> list[Block]:
    """Column shifts (arrow and count, condition, rule) and the caps on them."""
    c = game.combat
    if not c.shifts and not c.shift_caps:
        return []
    out: list[Block] = [heading(st, "Column shifts")]
    if c.shifts:
        rows = [[ShiftArrow(s.shift, st), esc(s.when), esc(s.rule or "")] for s in c.shifts]
        out.append(grid_table(st, ["Shift", "When", "Rule"], rows, avail, flex=1))
        out.append(
            note(
                st,
                "R = right (towards the attacker), L = left (towards the defender). Net the shifts, "
                "then move the column.",
                table_note=True,
            )
        )
    if c.shift_caps:
        out.append(heading(st, "Limits on shifts", level=2))
        for cap in c.shift_caps:
            if cap.turns:
                turns = ("turn " if len(cap.turns) == 1 else "turns ") + _turn_list(cap.turns)
            else:
                turns = "every turn"
            who = _side_name(game, cap.side) if cap.side else "either side"
            role = {"attacking": "attacking", "defending": "defending", "both": "attacking or defending"}[cap.role]
            col = "column" if cap.max_columns == 1 else "columns"
            what = esc(cap.when) if cap.when else "from: " + "; ".join(esc(_shift_name(game, s)) for s in cap.shifts)
            limit = f"<b>At most {cap.max_columns} {col}</b> ({turns}; {esc(who)} {role})"
            text = f"{limit}: {what} {_rule(cap.rule)}"
            out.append(P(text, st.small))
    return out


def modifier_blocks(game: Game, st: Styles, avail: float) -> list[Block]:
    mods = game.combat.modifiers
    if not mods:
        return []
    rows = []
    for m in mods:
        eff = []
        if m.multiply:
            eff.append(f"×{esc(m.multiply)}")
        if m.add is not None:
            eff.append(f"{m.add:+d}")
        if m.cap is not None:
            eff.append(f"max {m.cap}")
        if m.rounding != "none":
            eff.append(f"round {m.rounding}")
        eff.append("each unit" if m.per_unit else "on the total" if m.multiply else "per stack")
        who = []
        if m.unit_types:
            who.append(", ".join(t.value for t in m.unit_types))
        if m.terrain:
            who.append("in " + ", ".join(game.terrain[t].name if t in game.terrain else t for t in m.terrain))
        rows.append([esc(m.role), esc(m.when), esc("; ".join(eff)), esc("; ".join(who)), esc(m.rule or "")])
    return [
        heading(st, "Strength modifiers"),
        grid_table(st, ["Who", "When", "Effect", "Applies to", "Rule"], rows, avail, flex=1),
    ]


def dice_pool_blocks(game: Game, st: Styles, avail: float) -> list[Block]:
    dp = game.combat.dice_pool
    if dp is None:
        return []
    lines = [f"Each unit rolls one d{dp.die}"]
    if dp.hits_on_at_most_strength:
        lines.append("it scores a hit on a roll at or under its modified strength")
    if dp.automatic_hit_every:
        lines.append(f"every full {dp.automatic_hit_every} of strength is an automatic hit; the rest is rolled")
    lines.append(f"fractions round {dp.rounding}")
    out: list[Block] = [heading(st, "Combat dice", dp.rule), P(esc("; ".join(lines)) + ".", st.body)]
    if dp.note:
        out.append(note(st, esc(dp.note)))
    return out


def combat_blocks(game: Game, st: Styles, avail: float) -> list[Block]:
    """Everything about combat: CRT (or dice), shifts and caps, modifiers, limits and notes."""
    out = crt_blocks(game, st, avail) + dice_pool_blocks(game, st, avail)
    out += shift_blocks(game, st, avail) + modifier_blocks(game, st, avail)
    return out + combat_note_blocks(game, st, avail)


def combat_note_blocks(game: Game, st: Styles, avail: float) -> list[Block]:
    """The combat notes: the attackers and defenders a hexside or hex allows, and ``combat.note``."""
    c = game.combat
    out: list[Block] = []
    limits = []
    if isinstance(c.max_attackers_per_hexside, Unknown):  # never "at most ?" on what players hold
        limits.append("attackers per hexside: the rules give no limit")
    elif c.max_attackers_per_hexside is not None:
        limits.append(f"attackers per hexside: at most {_num(c.max_attackers_per_hexside)}")
    for sid, n in sorted(c.max_defenders.items()):
        limits.append(f"{_side_name(game, sid)} defenders per hex: at most {n}")
    if limits or c.note:
        out.append(heading(st, "Combat notes", c.rule, level=2))
        if limits:
            out.append(P(esc("; ".join(limits)) + ".", st.small))
        if c.note:
            out.append(P(esc(c.note), st.small))
    return out
