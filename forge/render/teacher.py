"""The teacher's pack (``forge build --only teacher``): teacher.pdf, for the class that plays the game's sets.

1. Outcome charts of the CRT: for every attack kind (normal and all-out, each terrain section, each number of
   dice), a bar per column stacked with the probability of each result, and under it each side's expected losses;
   the column where an attack first pays is marked (:mod:`forge.crtstats` defines it and computes every figure).
2. A page of discussion questions built from the game's own numbers (:func:`forge.crtstats.discussion`), and the
   answer key on a page of its own (so the questions can be copied without it).
3. A record sheet for the class's results whose columns are exactly the header ``forge analyze --class-results``
   reads (:func:`forge.balance.csv_columns`).

Drawn on :class:`forge.canvas.PdfCanvas` in greys only, so that a black-and-white school printer (and
``--greyscale``) loses nothing: results are told apart by grey level, by their labels in the bars and by the legend.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from reportlab.pdfgen.canvas import Canvas as ReportlabCanvas

from .. import units as U
from ..balance import csv_columns, scores_vp
from ..canvas import PdfCanvas
from ..crtstats import Column, Question, Table, discussion, tables
from ..model import Game
from ..pdf import FONT, FONT_BOLD, FONT_ITALIC, render_pdf, text_width

if TYPE_CHECKING:  # build imports the renderers: a runtime import would be circular
    from ..builder import BuildOptions

__all__ = ["GREYS", "render", "wrap"]

MARGIN = U.length("0.5in")
GREYS = ("#f2f2f2", "#bdbdbd", "#7a7a7a", "#3d3d3d", "#d9d9d9", "#9c9c9c", "#5c5c5c", "#1f1f1f")
"""Fills of the results in a chart, in the order they first appear; told apart by level (and by the labels)."""
RECORD_ROWS = 20


def wrap(text: str, width: float, size: float, font: str = FONT) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` (a word wider than the line stands alone).

    >>> wrap("one two three", 60, 10)
    ['one two', 'three']
    """
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and text_width(trial, size, font) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines


def _ink(fill: str) -> str:
    """Black or white text on a fill of this grey."""
    return "#000000" if int(fill[1:3], 16) > 0x90 else "#ffffff"


def _f(x: object) -> str:
    return "?" if x is None else f"{float(x):.2f}"  # type: ignore[arg-type]


def _chart(pc: PdfCanvas, t: Table, x: float, y: float, w: float, h: float) -> None:
    """One attack kind's chart in the box (x, y, w, h), y down."""
    pc.text(x, y + 12, t.name[0].upper() + t.name[1:], font=FONT_BOLD, size=11)
    mark, why = _marked(t)
    if mark:
        pc.text(x + w, y + 12, f"{why} {mark} (dashed)", font=FONT_ITALIC, size=8.5, anchor="end")
    outcomes: list[str] = []
    for c in t.columns:
        outcomes += [o for o, _ in c.outcomes if o not in outcomes]
    fills = {o: GREYS[k % len(GREYS)] for k, o in enumerate(outcomes)}
    legend_h = 14.0 * ((len(outcomes) + 4) // 5)
    axis_w = 26.0
    top = y + 22
    rows: list[tuple[str, Callable[[Column], object]]] = [
        ("defender loses", lambda c: c.defender),
        ("attacker loses", lambda c: c.attacker),
    ]
    if any(c.defender_eliminated for c in t.columns):
        rows.append(("P(defender elim.)", lambda c: None if c.unknown else c.defender_eliminated))
    if any(c.attacker_eliminated for c in t.columns):
        rows.append(("P(attacker elim.)", lambda c: None if c.unknown else c.attacker_eliminated))
    table_h = 22.0 + 11 * len(rows)  # the column labels and the rows of expectations under the bars
    bar_h = h - 22 - table_h - legend_h
    left = x + axis_w + 52
    slot = (x + w - left) / max(1, len(t.columns))
    base = top + bar_h
    for frac in (0.0, 0.25, 0.5, 0.75, 1.0):  # the probability axis
        yy = base - bar_h * frac
        pc.line(left - 4, yy, x + w, yy, stroke="#cccccc", width=0.4)
        pc.text(left - 6, yy + 3, f"{frac:.2f}".rstrip("0").rstrip(".") if frac not in (0.0, 1.0) else f"{frac:.0f}",
                size=7, anchor="end")
    pc.text(x, top + bar_h / 2, "probability", size=7.5)
    for j, c in enumerate(t.columns):
        bx = left + j * slot + slot * 0.15
        bw = slot * 0.7
        cx = bx + bw / 2
        if mark == c.label:
            pc.rect(left + j * slot + 2, top - 4, slot - 4, bar_h + table_h, stroke="#000000", width=1.2,
                    dash=(3, 2))
        if c.unknown or not c.outcomes:
            pc.rect(bx, top, bw, bar_h, stroke="#888888", width=0.6, dash=(2, 2))
            pc.text(cx, top + bar_h / 2, "not given", size=7, anchor="middle", fill="#444444")
        else:
            yy = base
            for o, p in c.outcomes:
                hh = bar_h * float(p)
                pc.rect(bx, yy - hh, bw, hh, fill=fills[o], stroke="#000000", width=0.5)
                if hh >= 10 and text_width(o, 7) <= bw - 2:
                    pc.text(cx, yy - hh / 2 + 2.5, o, size=7, anchor="middle", fill=_ink(fills[o]))
                yy -= hh
        pc.text(cx, base + 11, c.label, font=FONT_BOLD, size=8.5, anchor="middle")
        for k, (_, value) in enumerate(rows):
            pc.text(cx, base + 23 + 11 * k, _f(value(c)), size=8, anchor="middle")
    pc.text(x, base + 11, "column", size=7.5)
    for k, (name, _) in enumerate(rows):
        pc.text(x, base + 23 + 11 * k, name, size=7.5)
    ly = base + table_h + 10
    lx = x
    col_w = (w - 4) / 5
    for k, o in enumerate(outcomes):
        px = lx + (k % 5) * col_w
        py = ly + (k // 5) * 14
        pc.rect(px, py - 8, 10, 10, fill=fills[o], stroke="#000000", width=0.5)
        pc.text(px + 14, py, o, size=7.5)


def _marked(t: Table) -> tuple[str | None, str]:
    """The column a chart marks and why: where the attack first pays; for a table that never charges the attacker
    (every column pays as soon as it hurts the defender at all), where the defender first expects a whole step."""
    if t.free and t.one_step:
        return t.one_step, "the defender expects to lose a step from"
    return t.pays, "the attack pays from"


def _footer(pc: PdfCanvas, game: Game, pw: float, ph: float, page: int) -> None:
    pc.text(MARGIN, ph - MARGIN / 2, f"{game.game.title}: teacher's pack", size=7.5, fill="#444444")
    pc.text(pw - MARGIN, ph - MARGIN / 2, f"page {page}", size=7.5, anchor="end", fill="#444444")


def _notes(t: Table) -> list[str]:
    return [f"Not counted: {n}." for n in t.notes]


def _text_block(pc: PdfCanvas, lines: list[tuple[str, str, float]], x: float, y: float, w: float) -> float:
    """Paragraphs ``(text, font, size)`` wrapped to ``w`` from baseline ``y``; returns the y after them."""
    for text, font, size in lines:
        for line in wrap(text, w, size, font):
            y += size * 1.35
            pc.text(x, y, line, font=font, size=size)
        y += size * 0.6
    return y


def _questions_page(pc: PdfCanvas, qs: list[Question], x: float, y: float, w: float, *, answers: bool) -> None:
    what = "Answer key" if answers else "Questions for discussion"
    y = _text_block(pc, [(what, FONT_BOLD, 16)], x, y, w)
    intro = (
        "Every number comes from the game's own combat results table (exact probabilities of one die roll)."
        if not answers
        else "Keep this page apart from the questions. The figures are exact, from the table as printed."
    )
    y = _text_block(pc, [(intro, FONT_ITALIC, 9)], x, y, w) + 6
    for k, q in enumerate(qs, start=1):
        y = _text_block(pc, [(f"{k}. {q.question}", FONT_BOLD if answers else FONT, 10.5)], x, y, w)
        if answers:
            y = _text_block(pc, [(q.answer, FONT, 10)], x + 14, y, w - 14)
        else:
            for _ in range(3):  # room to write
                y += 20
                pc.line(x + 14, y, x + w, y, stroke="#bbbbbb", width=0.5)
        y += 8


def _record_sheet(pc: PdfCanvas, game: Game, x: float, y: float, w: float, h: float) -> None:
    sides = [s.id for s in game.game.sides]
    vp = scores_vp(game)
    cols = csv_columns(sides, vp)
    names = {s.id: s.name for s in game.game.sides}
    y = _text_block(pc, [("Class results", FONT_BOLD, 16)], x, y, w)
    turns = len(game.turns.turns) if game.turns is not None else None
    hints = {
        "pair": "students' names or pair number",
        "winner": " / ".join([*sides, "draw"]),
        "decided_turn": f"turn 1 to {turns}" if turns else "turn",
    }
    hints.update({f"vp_{s}": f"{names[s]}'s final VP" for s in sides})
    explain = (
        "One row per game a pair of students plays. Winner: the side's code as the header shows it, or draw. "
        "Decided turn: the first turn from whose end the winner stayed ahead on victory points to the finish. "
        f"Type the rows into a CSV file whose first line is exactly: {','.join(cols)} "
        "and run forge analyze GAME.yaml --class-results class.csv to compare the class with thousands of "
        "simulated games."
    )
    y = _text_block(pc, [(explain, FONT, 9)], x, y, w) + 8
    widths = {"pair": 2.2, "winner": 1.4, "decided_turn": 1.0}
    weights = [widths.get(c, 1.0) for c in cols]
    unit = w / sum(weights)
    xs = [x]
    for wt in weights:
        xs.append(xs[-1] + wt * unit)
    head = 30.0
    pc.rect(x, y, w, head, fill="#e6e6e6", stroke="#000000", width=0.8)
    for c, x0, x1 in zip(cols, xs, xs[1:], strict=False):
        pc.text((x0 + x1) / 2, y + 12, c, font=FONT_BOLD, size=9, anchor="middle")
        hint = hints.get(c, "")
        size = 6.5
        while text_width(hint, size) > (x1 - x0) - 4 and size > 4.5:
            size -= 0.5
        pc.text((x0 + x1) / 2, y + 24, hint, size=size, anchor="middle", fill="#333333")
    row_h = min(26.0, (h - y - head - 10) / RECORD_ROWS)
    yy = y + head
    for _ in range(RECORD_ROWS):
        pc.rect(x, yy, w, row_h, stroke="#000000", width=0.5)
        yy += row_h
    for x0 in xs[1:-1]:
        pc.line(x0, y, x0, yy, stroke="#000000", width=0.5)


def render(game: Game, options: BuildOptions) -> bytes:
    """teacher.pdf: the CRT's outcome charts, the discussion questions, their answer key and the record sheet."""
    pw, ph = options.paper_size()
    w = pw - 2 * MARGIN
    tabs = tables(game.combat)
    qs = discussion(game.combat)

    def draw(c: ReportlabCanvas) -> None:
        page = 0

        def new_page() -> PdfCanvas:
            nonlocal page
            if page:
                c.showPage()
            page += 1
            pc = PdfCanvas(c, top=ph)
            _footer(pc, game, pw, ph, page)
            return pc

        pc = new_page()
        y = _text_block(pc, [(f"{game.game.title}: teacher's pack", FONT_BOLD, 18)], MARGIN, MARGIN - 8, w)
        y = _text_block(pc, [(
            "The combat results table as charts: each bar is a column, split by the probability of each result of "
            "one roll. Under it, each side's expected losses in steps (a hit is a step), exact, from the table as "
            "printed (no modifier, re-roll or shift). An attack pays where the defender expects to lose at least "
            "as much as the attacker and is at least as likely to be eliminated outright.", FONT, 8.5)], MARGIN, y, w)
        if not tabs:
            _text_block(pc, [(f"This game has no combat results table ({game.combat.kind.value} combat): "
                              "no outcome charts.", FONT, 10)], MARGIN, y, w)
        chart_h = (ph - 2 * MARGIN - 150) / 2
        for k, t in enumerate(tabs):
            if k and k % 2 == 0:
                pc = new_page()
                y = MARGIN
            y = _text_block(pc, [(n, FONT_ITALIC, 8) for n in _notes(t)], MARGIN, y, w)
            _chart(pc, t, MARGIN, y + 4, w, chart_h)
            y += chart_h + 14
        pc = new_page()
        if qs:
            _questions_page(pc, qs, MARGIN, MARGIN - 8, w, answers=False)
            pc = new_page()
            _questions_page(pc, qs, MARGIN, MARGIN - 8, w, answers=True)
        else:
            _text_block(pc, [("Questions for discussion", FONT_BOLD, 16),
                             ("The rulebook does not give enough of the combat results table to ask about it.",
                              FONT, 10)], MARGIN, MARGIN - 8, w)
        pc = new_page()
        _record_sheet(pc, game, MARGIN, MARGIN - 8, w, ph - MARGIN)

    return render_pdf((pw, ph), draw, title=f"{game.game.title}: teacher's pack")
