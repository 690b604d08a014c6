"""Class handouts: ``options.sets`` complete sets of a game for a classroom, each marked with its own set
code.

A set is: its counter sheets (fronts and backs interleaved, every back and every page marked with the set
code), a player aid per side (that side's units, the sequence of play, the CRT and column shifts), a setup
sheet (units by hex, reinforcements by turn) and a turn-by-turn victory point record.  The palette is always
greyscale-safe: school printers are black and white.  The counter sheets and each player aid start on a fresh
sheet of paper (an odd page), so the counters' fronts and backs stay paired when the whole file is printed
double-sided, and every set starts on a fresh sheet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import dataclasses
from collections.abc import Callable, Sequence

from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph

from .. import units as U
from ..model import Game, Unit
from ..pdf import FONT, FONT_BOLD, render_pdf, text_width
from . import cards
from .cards import Region, Styles, esc, grid_table, heading, note
from .counters import draw_counter_pages, fit_text

if TYPE_CHECKING:  # build imports the renderers: a runtime import would be circular
    from ..builder import BuildOptions

__all__ = ["render", "set_code", "set_pages"]

MARGIN = U.length("0.5in")
HEAD_H = 22.0
FOOT_H = 14.0


def set_code(index: int) -> str:
    """The short code printed on every page and counter back of set ``index`` (1-based).

    >>> set_code(1), set_code(12)
    ('S01', 'S12')
    """
    return f"S{index:02d}"


def _greyscale(options: BuildOptions) -> BuildOptions:
    return dataclasses.replace(options, greyscale=True)


# ------------------------------------------------------------------------------------------------ page chrome
def _page_region(options: BuildOptions) -> Callable[[int], Region]:
    pw, ph = options.paper_size()

    def region(i: int) -> Region:
        return (MARGIN, MARGIN, pw - 2 * MARGIN, ph - 2 * MARGIN)

    return region


def _chrome(game: Game, st: Styles, code: str, title: str) -> Callable[[Canvas, int, Region], Region]:
    def chrome(c: Canvas, index: int, r: Region) -> Region:
        x, y, w, h = r
        ink: Color = st.c("ink")
        c.setFillColor(ink)
        c.setStrokeColor(ink)
        # Set code, boxed, top right: it tells the sets apart at a glance.
        c.setFont(FONT_BOLD, 12)
        cw = text_width(code, 12, FONT_BOLD) + 10
        c.setLineWidth(1.2)
        c.rect(x + w - cw, y + h - 17, cw, 17, stroke=1, fill=0)
        c.drawCentredString(x + w - cw / 2, y + h - 12.5, code)
        head = f"{title}{' (continued)' if index else ''}"
        shown, fs = fit_text(head, w - cw - 10, 12, FONT_BOLD, what="handout page header")
        c.setFont(FONT_BOLD, fs)
        c.drawString(x, y + h - 12.5, shown)
        c.setLineWidth(0.6)
        c.line(x, y + h - HEAD_H + 2, x + w, y + h - HEAD_H + 2)
        foot, ffs = fit_text(
            f"{game.game.title}: class set {code}",
            w,
            7,
            where=("game", "title"),
            what="handout page footer",
            name=game.game.title,
        )
        c.setFont(FONT, ffs)
        c.drawString(x, y, foot)
        return (x, y + FOOT_H, w, h - HEAD_H - FOOT_H - 4)

    return chrome


def _part(
    c: Canvas,
    options: BuildOptions,
    game: Game,
    st: Styles,
    code: str,
    title: str,
    items: list[Flowable],
    *,
    fresh: bool = True,
) -> None:
    """One part of a set, on a fresh sheet (an odd page) when it is handed out on its own."""
    if fresh:
        _to_odd_page(c, game, code)
    cards.flow(
        c, items, regions_per_page=1, region=_page_region(options), chrome=_chrome(game, st, code, title)
    )


def _to_odd_page(c: Canvas, game: Game, code: str) -> None:
    """Leave the back of the previous sheet blank (with a note) so that what follows starts on a front."""
    if c.getPageNumber() % 2 == 0:
        w, h = c._pagesize
        shown, fs = fit_text(
            f"{game.game.title}: class set {code}. This page is left blank on purpose.",
            w - 72,
            8,
            where=("game", "title"),
            what="handout blank page",
            name=game.game.title,
        )
        c.setFont(FONT, fs)
        c.drawCentredString(w / 2, h / 2, shown)
        c.showPage()


# ------------------------------------------------------------------------------------------------ content
def _placement(u: Unit) -> str:
    if u.setup:
        return f"sets up in {u.setup}"
    if u.entry is not None:
        where = f" at {u.entry.hex}" if u.entry.hex else ""
        cond = f", {u.entry.condition}" if u.entry.condition else ""  # a condition is its own phrase ("only if ...")
        return f"enters turn {u.entry.turn}{where}{cond}"
    return "?"


def _unit_rows(game: Game, units: Sequence[Unit]) -> list[list[str]]:
    rows = []
    for u in units:
        steps = " / ".join(u.steps)
        counters = f" ({len(u.counter_faces())} counters)" if len(u.counter_faces()) > 1 else ""
        copies = f" x{u.copies}" if u.copies > 1 else ""
        rows.append(
            [
                f"<b>{esc(u.label)}</b>{esc(copies)}",
                esc(u.name) + (f'<br/><font size="6">{esc(u.group)}</font>' if u.group else ""),
                esc(u.type.value),
                esc(u.size.value if u.size else ""),
                esc(steps + counters),
                esc(_placement(u)),
            ]
        )
    return rows


def _aid(game: Game, st: Styles, avail: float, side_id: str) -> list[Flowable]:
    side = game.side(side_id)
    units = [u for u in game.units if u.side == side_id]
    out: list[Flowable] = []
    if units:
        out += [
            heading(st, f"{side.name} units"),
            grid_table(
                st,
                ["Counter", "Unit", "Type", "Size", "Strength by step", "Placement"],
                _unit_rows(game, units),
                avail,
                flex=5,
            ),
        ]
        if any("?" in s for u in units for s in u.steps):
            out.append(note(st, cards.UNKNOWN_NOTE))
    out += cards.sequence_blocks(game, st, avail)
    out += cards.crt_blocks(game, st, avail) + cards.dice_pool_blocks(game, st, avail)
    out += cards.shift_blocks(game, st, avail) + cards.modifier_blocks(game, st, avail)
    return out


def _hex_key(game: Game, label: str) -> tuple[int, int, str]:
    try:
        cell = game.map.grid.grid().parse(label)
        return (cell.row, cell.col, label)
    except ValueError:
        return (10_000, 10_000, label)


def _setup(game: Game, st: Styles, avail: float) -> list[Flowable]:
    out: list[Flowable] = []
    for side in game.game.sides:
        by_hex: dict[str, list[Unit]] = {}
        for u in game.units:
            if u.side == side.id and u.setup:
                by_hex.setdefault(u.setup, []).append(u)
        if not by_hex:
            continue
        rows = []
        for hx in sorted(by_hex, key=lambda h: _hex_key(game, h)):
            us = by_hex[hx]
            rows.append(
                [f"<b>{esc(hx)}</b>", ", ".join(f"<b>{esc(u.label)}</b> {esc(u.name)}" for u in us), "[  ]"]
            )
        out += [
            heading(st, f"{side.name} set-up, by hex"),
            grid_table(st, ["Hex", "Units", "Placed"], rows, avail, flex=1),
        ]
    reinf = game.reinforcements()
    rows = []
    for turn, us in reinf.items():
        for u in us:
            e = u.entry
            rows.append(
                [
                    f"<b>{turn}</b>",
                    esc(cards._side_name(game, u.side)),
                    f"<b>{esc(u.label)}</b> {esc(u.name)}",
                    esc(e.hex or "?") if e else "?",
                    esc(e.condition or "") if e else "",
                ]
            )
    for u in game.unscheduled():
        e = u.entry
        rows.append(
            [
                "<b>?</b>",
                esc(cards._side_name(game, u.side)),
                f"<b>{esc(u.label)}</b> {esc(u.name)}",
                esc(e.hex or "?") if e else "?",
                esc((e.condition or "") if e else ""),
            ]
        )
    if rows:
        out += [
            heading(st, "Reinforcements by turn"),
            grid_table(st, ["Turn", "Side", "Unit", "Enters at", "Condition"], rows, avail, flex=4),
        ]
        out.append(note(st, "? = not given by the rules"))
    for sc in game.scenarios:
        if sc.setup:
            rows = [
                [
                    f"<b>{esc(game.unit(uid).label if any(u.id == uid for u in game.units) else uid)}</b>",
                    esc(hx),
                ]
                for uid, hx in sorted(sc.setup.items())
            ]
            out += [
                heading(st, f"Scenario {sc.name}: set-up changes", sc.rule),
                grid_table(st, ["Unit", "Sets up in"], rows, avail),
            ]
    if not out:
        out.append(Paragraph("The rules give no set-up.", st.body))
    return out


def _vp_record(game: Game, st: Styles, avail: float) -> list[Flowable]:
    sides = game.game.sides
    head = ["Turn"] + [x for s in sides for x in (f"{s.name} VP this turn", f"{s.name} total")] + ["Notes"]
    rows: list[list[str]] = [
        [f"<b>{t.number}</b>" + (f" ({esc(t.date)})" if t.date else "")] + [""] * (2 * len(sides)) + [""]
        for t in game.turns.turns
    ]
    v = game.victory
    if v is not None and v.handicap:
        rows.append(
            ["<b>Handicap</b>"]
            + [x for s in sides for x in ("", f"+{v.handicap[s.id]}" if s.id in v.handicap else "")]
            + [""]
        )
    rows.append(["<b>Final</b>"] + [""] * (2 * len(sides)) + ["Winner:"])
    turn_w = 56.0
    side_w = 62.0
    widths = [turn_w] + [side_w] * (2 * len(sides)) + [avail - turn_w - side_w * 2 * len(sides)]
    t = grid_table(st, head, rows, avail, widths=widths, centre_from=1, row_height=22.0)  # room to write in
    out: list[Flowable] = [t]
    if v is not None:
        out += [heading(st, "How points are scored", v.rule), Paragraph(esc(v.summary), st.body)]
        out += cards.victory_blocks(game, st, avail)[2:]
    return out


# ----------------------------------------------------------------------------------------------- entry points
def set_pages(c: Canvas, game: Game, options: BuildOptions, index: int) -> None:
    """Draw class set ``index`` (1-based) on ``c``, starting on a fresh sheet."""
    opts = _greyscale(options)
    st = Styles.make(opts)
    code = set_code(index)
    _, _, w, _ = _page_region(opts)(0)
    avail = w
    _to_odd_page(c, game, code)
    draw_counter_pages(c, game, opts, mode="class", set_code=code, first_page=c.getPageNumber())
    for side in game.game.sides:
        _part(c, opts, game, st, code, f"Player aid: {side.name}", _aid(game, st, avail, side.id))
    _part(c, opts, game, st, code, "Set-up sheet", _setup(game, st, avail))
    _part(c, opts, game, st, code, "Victory point record", _vp_record(game, st, avail), fresh=False)


def render(game: Game, options: BuildOptions) -> bytes:
    """``options.sets`` complete class sets, greyscale-safe, each marked with its set code (S01, S02 ...)."""

    def draw(c: Canvas) -> None:
        for i in range(1, max(1, options.sets) + 1):
            set_pages(c, game, options, i)

    return render_pdf(options.paper_size(), draw, title=f"{game.game.title}: class handout")
