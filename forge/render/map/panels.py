"""The charts beside the grid: the title block, the turn record track, the terrain effects chart and the key,
each a :class:`Block` of items laid out top to bottom at its own origin.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ... import model as m
from ... import turnlength as TL
from ... import units as U
from ...hexgrid import Cell, Grid, GridKind, LabelScheme
from ...pdf import (
    FONT,
    FONT_BOLD,
    FONT_ITALIC,
    text_width,
)
from .. import fit
from ..style import combat_facts, grey
from .base import (
    INCH,
    MIN_PT,
    PATTERN_MAX,
    TEC_MIN_COMBAT,
    TURN_BOX_MIN_W,
    Pen,
    _clip_lines,
    _fit,
    _inches,
    _maybe,
    _num,
    _wrap,
)
from .grid import (
    _reconstructed_mark,
    _setup_symbol,
    _supply_symbol,
    _swatch,
    _unknown_swatch,
    _vp_symbol,
    _zone_symbol,
    zone_name,
)

if TYPE_CHECKING:
    from .base import _Ctx
    from .sheet import MapLayout


# ======================================================================================================= blocks
DrawFn = Callable[[Pen, float, float, float], None]


@dataclass(frozen=True)
class Item:
    """A piece of the charts panel: its height at the width it was built for, and how to draw it at
    ``(x, y_top, width)``."""

    height: float
    draw: DrawFn


class Block:
    """A run of items laid out top to bottom, possibly across columns and pages; built lazily per width."""

    def peek(self, width: float, max_height: float) -> Item | None:  # pragma: no cover - interface
        raise NotImplementedError

    def advance(self) -> None:  # pragma: no cover - interface
        raise NotImplementedError


def _head_bar(pen: Pen, x: float, y: float, w: float, title: str, rule: str | None) -> float:
    """A dark title bar across a chart; returns its height."""
    h = 13.0
    pen.rect(x, y, w, h, fill="panel_head")
    right = f"({rule})" if rule else ""
    rw = text_width(right, 6.5, FONT) + 6 if right else 0
    t, s = _fit(title.upper(), w - 8 - rw, 8.0, FONT_BOLD)
    pen.text(x + 4, y + 9.3, t, size=s, font=FONT_BOLD, fill="#ffffff")
    if right:
        pen.text(x + w - 4, y + 9.3, right, size=6.5, fill="#ffffff", align="right")
    return h


class _Single(Block):
    def __init__(self, build: Callable[[float, float], Item]) -> None:
        self._build = build
        self._done = False

    def peek(self, width: float, max_height: float) -> Item | None:
        return None if self._done else self._build(width, max_height)

    def advance(self) -> None:
        self._done = True


# ------------------------------------------------------------------------------------------------ title block
def _noun(grid: Grid) -> str:
    """What the game calls its spaces: ``hex`` or ``square``."""
    return "hex" if grid.kind is GridKind.HEX else "square"


def _status_text(ctx: _Ctx) -> str:
    many = "hexes" if ctx.grid.kind is GridKind.HEX else "squares"
    status = ctx.game.map.status
    if status is m.MapStatus.COMPLETE:
        return f"Every {_noun(ctx.grid)} as printed in the game."
    if status is m.MapStatus.RECONSTRUCTED:
        return (
            f"{many.capitalize()} the rulebook names are placed as stated; the rest is reconstructed. "
            f"{many.capitalize()} marked with a small diamond are inferred, not stated."
        )
    return f"Only the {many} the rulebook names are known. Hatched {many}: terrain unknown, not invented."


def _scale_text(game: m.Game) -> str:
    sc = game.game.scale
    n = _noun(game.map.grid.grid())
    days = sc.days_per_turn
    unit = "day" if days == 1 or str(days) == "1" else "days"
    # Turns of another length print theirs in their boxes; the title block says the scale's is not every turn's.
    other = " unless its box says otherwise" if TL.turns_that_differ(game) else ""
    return f"1 {n} = {_maybe(sc.km_per_hex)} km  ·  1 turn = {_maybe(days)} {unit}{other}"


def _size_text(game: m.Game, lay: MapLayout) -> str:
    """Cell and sheet size as the game states them (``1.75in``, ``10cm``), the sheet in inches if changed."""
    grid = game.map.grid.grid()
    cells = "Hexes" if grid.kind is GridKind.HEX else "Squares"
    across = " across the flats" if grid.kind is GridKind.HEX else " a side"
    stated = game.map.sheet
    same = stated is not None and U.size(stated) == (lay.sheet_w, lay.sheet_h)
    sheet = stated if same and stated else f"{_inches(lay.sheet_w)} x {_inches(lay.sheet_h)}"
    return f"{cells} {game.map.hex_size}{across}  ·  sheet {sheet}"


def _title_item(ctx: _Ctx, lay: MapLayout, width: float, max_height: float = 1e9) -> Item:
    """The title box: title and subtitle wrap onto two lines each, the credits onto three, the map's note onto
    what the column leaves (at least seven lines); text that does not fit even at 5 pt is cut and reported."""
    g = ctx.game.game
    pad = 6.0
    inner = width - 2 * pad
    what = "map title box"
    tfit = fit.fit(
        g.title,
        inner,
        2 * 20.0 * 1.05,
        20.0,
        font=FONT_BOLD,
        leading=1.05,
        shrink=0.5,  # one line down to 10 pt, as printed titles are
        where=("game", "title"),
        what=what,
    )
    tsize = tfit.size
    sub = (
        fit.fit(
            g.subtitle, inner, 2 * 10.5, 9.0, font=FONT_ITALIC, leading=10.5 / 9, where=("game", "subtitle"), what=what
        )
        if g.subtitle
        else None
    )
    sub_lines, sub_size = (list(sub.lines), sub.size) if sub else ([], 9.0)
    credits = [x for x in (f"Design: {g.designer}" if g.designer else "", g.publisher or "") if x]
    cfit = fit.fit(
        "  ·  ".join(credits), inner, 3 * 7.2, 6.0, leading=1.2, shrink=1.0, where=("game", "designer"), what=what
    )
    credit_lines = [ln for ln in cfit.lines if ln]
    scale = _scale_text(ctx.game)
    sheet = _size_text(ctx.game, lay)
    status_word = f"MAP: {ctx.game.map.status.value.upper()}"
    set_word = f"CLASS SET {ctx.set_code}" if ctx.set_code else ""
    if set_word and text_width(status_word, 7.5, FONT_BOLD) + text_width(set_word, 7.5, FONT_BOLD) + 28 > inner:
        status_word = f"{status_word}  ·  {set_word}"  # no room beside it: one box says both
        set_word = ""
    status_lines = _wrap(_status_text(ctx), inner, 6.0)
    warn_lines = _wrap(lay.sheet_note, inner, 6.0, FONT_BOLD) if lay.sheet_note else []
    h = pad + tsize * 1.05 * len(tfit.lines) + len(sub_lines) * 10.5 + 4
    h += 9 * 2  # scale and sheet lines
    h += len(credit_lines) * 7.2
    h += 4 + 12 + len(status_lines) * 7.2 + len(warn_lines) * 7.2 + pad
    note_lines: list[str] = []
    note_size = 5.5
    if ctx.game.map.note:
        room = max(max_height - h, 7 * 6.6)
        nfit = fit.fit(
            ctx.game.map.note,
            inner,
            room,
            5.5,
            font=FONT_ITALIC,
            leading=1.2,
            shrink=1.0,  # body text: wrapped at its size, not shrunk onto one line
            where=("map", "note"),
            what=what,
        )
        note_lines, note_size = list(nfit.lines), nfit.size
    note_lead = note_size * 1.2
    h += len(note_lines) * note_lead

    def draw(pen: Pen, x: float, y: float, w: float) -> None:
        pen.rect(x, y, w, h, fill="paper", stroke="ink", width=1.4)
        pen.rect(x + 2.2, y + 2.2, w - 4.4, h - 4.4, stroke="ink", width=0.4)
        yy = y + pad + tsize * 0.85
        for i, line in enumerate(tfit.lines):
            pen.text(x + w / 2, yy + i * tsize * 1.05, line, size=tsize, font=FONT_BOLD, align="centre")
        yy += tsize * 1.05 * (len(tfit.lines) - 1)
        yy += tsize * 0.2
        for line in sub_lines:
            yy += 10.5
            pen.text(x + w / 2, yy - 2, line, size=sub_size, font=FONT_ITALIC, align="centre")
        yy += 4
        for line in (scale, sheet):
            yy += 9
            t, s = _fit(line, inner, 6.8, what=what)
            pen.text(x + w / 2, yy, t, size=s, align="centre")
        for line in credit_lines:
            yy += 7.2
            pen.text(x + w / 2, yy, line, size=cfit.size, align="centre", fill="label")
        yy += 4
        sw = text_width(status_word, 7.5, FONT_BOLD) + 10
        pen.rect(x + pad, yy, sw, 11, fill="ink")
        pen.text(x + pad + 5, yy + 8, status_word, size=7.5, font=FONT_BOLD, fill="#ffffff")
        if set_word:  # a class handout's set code, boxed at the right of the status row
            cw = text_width(set_word, 7.5, FONT_BOLD) + 10
            pen.rect(x + w - pad - cw, yy, cw, 11, fill="paper", stroke="ink", width=0.8)
            pen.text(x + w - pad - cw / 2, yy + 8, set_word, size=7.5, font=FONT_BOLD, align="centre")
        yy += 12
        for line in status_lines:
            yy += 7.2
            pen.text(x + pad, yy, line, size=6.0)
        for line in note_lines:
            yy += note_lead
            pen.text(x + pad, yy, line, size=note_size, font=FONT_ITALIC, fill="label")
        for line in warn_lines:
            yy += 7.2
            pen.text(x + pad, yy, line, size=6.0, font=FONT_BOLD, fill="mark")

    return Item(h, draw)


# ---------------------------------------------------------------------------------------------- turn track
@dataclass
class _Line:
    height: float
    draw: Callable[[Pen, float, float, float], None]
    """Draws at (x, y_top, width)."""


def _text_line(
    text: str, size: float, *, font: str = FONT, fill: str = "ink", lead: float = 1.2, indent: float = 0.0
) -> _Line:
    def draw(pen: Pen, x: float, y: float, w: float) -> None:
        t, s = _fit(text, w - indent, size, font)
        pen.text(x + indent, y + size * 0.92, t, size=s, font=font, fill=fill)

    return _Line(size * lead, draw)


def _luminance(hex_colour: str) -> float:
    return int(grey(hex_colour)[1:3], 16) / 255


def _unit_colour(ctx: _Ctx, u: m.Unit) -> tuple[str, str]:
    """Fill and ink of a unit's chip: its group's colour (else its side's) and the side's text colour, unless
    that would not read on the fill (black on a black panzer group): then black or white, whichever reads."""
    side = ctx.side(u.side)
    fill = side.colour if side else "#ffffff"
    if side and u.group and u.group in side.groups:
        fill = side.groups[u.group]
    ink = side.text_colour if side else "#000000"
    if abs(_luminance(fill) - _luminance(ink)) < 0.4:
        ink = "#000000" if _luminance(fill) > 0.5 else "#ffffff"
    return fill, ink


def _chip(pen: Pen, ctx: _Ctx, u: m.Unit, x: float, y: float, w: float, h: float) -> None:
    """A miniature counter: the unit's colours and its label."""
    fill, ink = _unit_colour(ctx, u)
    with pen.frame("symbol", x, y, w, h, f"counter {u.label}"):
        pen.rect(x, y, w, h, fill=fill, stroke="ink", width=0.4, radius=1.2)
        t, s = _fit(u.label, w - 2, 5.8, FONT_BOLD)
        pen.text(x + w / 2, y + h / 2 + s * 0.36, t, size=s, font=FONT_BOLD, fill=ink, align="centre")


def _chip_width(u: m.Unit) -> float:
    return max(15.0, min(text_width(u.label, 5.8, FONT_BOLD) + 4, 34.0))


class _TurnTrack(Block):
    def __init__(self, ctx: _Ctx) -> None:
        self.ctx = ctx
        self.turns = sorted(ctx.game.turns.turns, key=lambda t: t.number)
        self.reinf = ctx.game.reinforcements()
        self.idx = 0
        self.pending = 0
        self.footer_done = False
        # Conditional entries get numbered footnotes in track order.
        self.notes: dict[str, int] = {}
        for t in self.turns:
            for u in self._units(t.number):
                if u.entry is not None and u.entry.condition:
                    self.notes[u.id] = len(self.notes) + 1

    def _units(self, turn: int) -> list[m.Unit]:
        order = {s.id: i for i, s in enumerate(self.ctx.game.game.sides)}
        return sorted(self.reinf.get(turn, []), key=lambda u: order.get(u.side, 9))

    def _weather(self, t: m.Turn) -> str | None:
        if t.weather:
            return t.weather.capitalize()
        w = self.ctx.game.turns.weather
        if w is None:
            return None
        return " / ".join(s.capitalize() for s in w.states) + (" (roll)" if w.table else "")

    def _box_lines(self, t: m.Turn, w: float, limit: int | None) -> list[_Line]:
        """Everything printed in one turn's box, below its number row."""
        lines: list[_Line] = []
        if TL.differs(self.ctx.game, t):
            assert t.length is not None
            hours = TL.hours_of(t.length)
            lines.append(_text_line(TL.text(hours) if hours is not None else "length ?", 6.2, font=FONT_BOLD))
        if t.date:
            for s in _clip_lines(_wrap(t.date, w, 6.5, FONT_BOLD), 2, w, 6.5, FONT_BOLD):
                lines.append(_text_line(s, 6.5, font=FONT_BOLD))
        weather = self._weather(t)
        if weather:
            lines.append(_text_line(weather, 6.0, font=FONT_ITALIC, fill="label"))
        if t.note:
            fill = "mark" if t.marks else "label"
            for s in _clip_lines(_wrap(t.note, w, 5.5, FONT_ITALIC), 3, w, 5.5, FONT_ITALIC):
                lines.append(_text_line(s, 5.5, font=FONT_ITALIC, fill=fill))
        if t.replacements:
            names = {s.id: s.name for s in self.ctx.game.game.sides}
            text = "Repl.: " + ", ".join(f"{names.get(k, k)} {_maybe(v)}" for k, v in t.replacements.items())
            for s in _wrap(text, w, 5.8):
                lines.append(_text_line(s, 5.8))
        units = self._units(t.number)
        if units:
            lines.append(_Line(2.0, lambda pen, x, y, w: None))
        shown = units if limit is None else units[:limit]
        for u in shown:
            lines.append(self._unit_line(u, w))
        if len(shown) < len(units):
            lines.append(_text_line(f"+{len(units) - len(shown)} more: see the counter sheet", 5.5, font=FONT_ITALIC))
        return lines

    def _unit_line(self, u: m.Unit, w: float) -> _Line:
        cw = _chip_width(u)
        assert u.entry is not None
        bits = [u.type.value]
        if u.size is not None:
            bits.append(u.size.value)
        if u.copies > 1:
            bits.append(f"×{u.copies}")
        where = f"hex {u.entry.hex}" if u.entry.hex else "hex ?"
        text = " ".join(bits) + f" · {where}"
        note = self.notes.get(u.id)
        if note is not None:
            text += f" *{note}"
        tw = w - cw - 3
        wrapped = _clip_lines(_wrap(text, tw, 5.8), 2, tw, 5.8)
        h = max(10.5, 7.0 * len(wrapped) + 3)

        def draw(pen: Pen, x: float, y: float, ww: float) -> None:
            _chip(pen, self.ctx, u, x, y + 0.5, cw, 9.5)
            for i, s in enumerate(wrapped):
                fill = "mark" if note is not None else "ink"
                pen.text(x + cw + 3, y + 7.2 + 7.0 * i, s, size=5.8, fill=fill)

        return _Line(h, draw)

    def _box(
        self, t: m.Turn, w: float, limit: int | None
    ) -> tuple[float, Callable[[Pen, float, float, float, float], None]]:
        pad = 3.0
        inner = w - 2 * pad
        lines = self._box_lines(t, inner, limit)
        top = 15.0
        h = pad + top + sum(ln.height for ln in lines) + pad

        def draw(pen: Pen, x: float, y: float, ww: float, hh: float) -> None:
            pen.rect(x, y, ww, hh, fill="paper", stroke="ink", width=0.8)
            num = str(t.number)
            pen.text(x + pad + 1, y + pad + 11.5, num, size=13.0, font=FONT_BOLD)
            # Special-rule marks: red badges at the top right, as a printed track shows rule reminders.
            bx = x + ww - pad
            for mark in reversed(t.marks):
                mt, ms = _fit(mark, ww / 2, 6.5, FONT_BOLD)
                bw = text_width(mt, ms, FONT_BOLD) + 5
                bx -= bw
                if bx < x + pad + text_width(num, 13.0, FONT_BOLD) + 2:
                    break
                with pen.frame("symbol", bx, y + pad + 1, bw, 10, f"turn mark {mt}"):
                    pen.rect(bx, y + pad + 1, bw, 10, fill="mark", radius=2)
                    pen.text(bx + bw / 2, y + pad + 8.6, mt, size=ms, font=FONT_BOLD, fill="#ffffff", align="centre")
                bx -= 2
            yy = y + pad + top
            for ln in lines:
                ln.draw(pen, x + pad, yy, inner)
                yy += ln.height

        return h, draw

    def _per_row(self, width: float) -> int:
        return max(1, min(len(self.turns), int((width + 3) // (TURN_BOX_MIN_W + 3))))

    def _weather_summary(self) -> list[str]:
        w = self.ctx.game.turns.weather
        if w is None:
            return []
        text = f"Weather: {' / '.join(w.states)}; starts {w.initial}."
        if w.summary:
            text += f" {w.summary}"
        if w.rule:
            text += f" ({w.rule})"
        return [text]

    def peek(self, width: float, max_height: float) -> Item | None:
        if self.idx < len(self.turns):
            n = self._per_row(width)
            row = self.turns[self.idx : self.idx + n]
            first = self.idx == 0
            head_lines = _wrap(self._weather_summary()[0], width - 6, 6.0) if first and self._weather_summary() else []
            head_h = (13.0 + 3 + 7.2 * len(head_lines) + 2) if first else 0.0
            bw = (width - 3 * (n - 1)) / n
            limit: int | None = None
            boxes = [self._box(t, bw, limit) for t in row]
            box_h = max(b[0] for b in boxes)
            # Truncate long reinforcement lists rather than overflow the column.
            while head_h + box_h > max_height and (limit is None or limit > 1):
                most = max(len(self._units(t.number)) for t in row)
                limit = (most if limit is None else limit) - 1
                if limit < 1:
                    break
                boxes = [self._box(t, bw, limit) for t in row]
                box_h = max(b[0] for b in boxes)
            self.pending = len(row)
            total = head_h + box_h + 3

            def draw(pen: Pen, x: float, y: float, w: float) -> None:
                yy = y
                if first:
                    _head_bar(pen, x, yy, w, "Turn record track", self.ctx.game.turns.rule)
                    yy += 13.0 + 3
                    for s in head_lines:
                        yy += 7.2
                        pen.text(x + 3, yy - 1.5, s, size=6.0, font=FONT_ITALIC)
                    yy += 2
                for i, (_, fn) in enumerate(boxes):
                    fn(pen, x + i * (bw + 3), yy, bw, box_h)

            return Item(total, draw)
        if not self.footer_done:
            lines = self._footer_lines(width)
            if not lines:
                self.pending = 0
                self.footer_done = True
                return None
            h = sum(ln.height for ln in lines) + 2

            def draw_footer(pen: Pen, x: float, y: float, w: float) -> None:
                yy = y
                for ln in lines:
                    ln.draw(pen, x, yy, w)
                    yy += ln.height

            return Item(h, draw_footer)
        return None

    def _footer_lines(self, width: float) -> list[_Line]:
        out: list[_Line] = []
        marks = sorted({mk for t in self.turns for mk in t.marks}, key=_rule_key)
        titles = {r.rule: r.title for r in self.ctx.game.special_rules}
        if marks:
            grey_on = getattr(self.ctx.options, "greyscale", False)  # say what the print shows
            text = (
                ("Dark grey badges" if grey_on else "Red marks")
                + ": special rules that apply on the turn — "
                + "; ".join(f"{mk} {titles[mk]}" if mk in titles else mk for mk in marks)
                + "."
            )
            out += [_text_line(s, 5.8, fill="mark") for s in _wrap(text, width, 5.8)]
        if self.reinf:
            text = "Reinforcements (from the counter data): unit, type and size, entry hex."
            out += [_text_line(s, 5.8, fill="label") for s in _wrap(text, width, 5.8)]
        for uid, n in self.notes.items():
            u = self.ctx.game.unit(uid)
            assert u.entry is not None
            rule = f" ({u.entry.rule})" if u.entry.rule else ""
            text = f"*{n} {u.label} ({u.name}), conditional entry{rule}: {u.entry.condition}."
            out += [_text_line(s, 5.8, fill="mark") for s in _wrap(text, width, 5.8)]
        return out

    def advance(self) -> None:
        if self.idx < len(self.turns):
            self.idx += self.pending
        else:
            self.footer_done = True


def _rule_key(rule: str) -> tuple[Any, ...]:
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in rule.replace("-", ".").split("."))


# --------------------------------------------------------------------------------------- terrain effects chart
_KIND_ORDER = {m.TerrainKind.HEX: 0, m.TerrainKind.FEATURE: 1, m.TerrainKind.HEXSIDE: 2, m.TerrainKind.PATH: 3}


_UNKNOWN = re.compile(r"(?<![^\W\d_])\?(?![^\W\d_])")
"""A ``?`` standing alone (a value the rules do not give), not one in a word or a question."""


def _cost(value: Any) -> str:
    if isinstance(value, m.Unknown) or value is None:
        return "?"
    if value == "prohibited":
        return "prohib."
    if value == "varies":
        return "varies"
    return _num(value)


NO_EFFECT = "\u2014"
"""Printed for a terrain with no movement effect of its own (``movement: none``), in every class's column."""


def _costs(t: m.TerrainType, classes: list[str]) -> list[str]:
    """The chart's cost for each mobility class; a cost given for ``all`` applies to every class the game names."""
    if t.movement == "none":
        return [NO_EFFECT for _ in classes]
    return [_cost(t.movement.get(c, t.movement.get("all"))) for c in classes]


def _combat_text(t: m.TerrainType, ctx: _Ctx) -> str:
    def side_name(side_id: str) -> str:
        side = ctx.side(side_id)
        return side.name if side else side_id

    c = t.combat
    parts = [c.text] if c.text else combat_facts(c, side_name)
    if c.text:
        parts += [
            f
            for f in combat_facts(c.model_copy(update={"shift": 0, "shift_when": None}), side_name)
            if "defending:" in f
        ]
    return "; ".join(parts) if parts else "—"


class _Tec(Block):
    def __init__(self, ctx: _Ctx, size: float) -> None:
        self.ctx = ctx
        self.size = size
        items = list(ctx.game.terrain.items())
        self.rows = sorted(items, key=lambda kv: _KIND_ORDER[kv[1].kind])  # stable: data order within a kind
        self.classes = list(ctx.game.game.mobility_classes)
        # Rule numbers are short ("7.2"), but some games cite sections by name ("setup.map").
        widest = max((text_width(t.rule or "—", 6.0) for _, t in self.rows), default=0.0)
        self.rule_w = min(max(24.0, widest + 6), 60.0)
        self.idx = 0

    def _columns(self, width: float) -> tuple[float, float, float, float, float]:
        """Widths: swatch, name, each movement class, combat, rule.  The combat text gets at least
        :data:`TEC_MIN_COMBAT` when the column allows it; names and costs give way first."""
        sw = 26.0
        rule = self.rule_w
        n = len(self.classes)
        move = 26.0 if n == 1 else 30.0
        rest = width - sw - rule - move * n
        name = max(48.0, rest * 0.36)
        if rest - name < TEC_MIN_COMBAT and n > 1:
            move = max(20.0, (width - sw - rule - 48.0 - TEC_MIN_COMBAT) / n)
            rest = width - sw - rule - move * n
        if rest - name < TEC_MIN_COMBAT:
            name = max(40.0, rest - TEC_MIN_COMBAT)
        return sw, name, move, rest - name, rule

    def _header(self, width: float) -> tuple[float, DrawFn]:
        sw, name, move, combat, rule = self._columns(width)
        labels = ["Move" if self.classes == ["all"] else c.replace("-", " ") for c in self.classes]
        # Class names that do not fit across their column are printed upwards, as on many printed charts.
        upright = all(text_width(lb, 5.5, FONT_BOLD) <= move - 2 for lb in labels)
        fitted = [_fit(lb, move - 2 if upright else 48.0, 5.5, FONT_BOLD) for lb in labels]
        hh = 9.0 if upright else max(text_width(t, z, FONT_BOLD) for t, z in fitted) + 5
        combat_head = _fit("Combat effect / notes", combat - 4, 5.8, FONT_BOLD)
        h = 13.0 + hh + 1

        def draw(pen: Pen, x: float, y: float, w: float) -> None:
            _head_bar(pen, x, y, w, "Terrain effects chart", None)
            yy = y + 13
            base = yy + hh - 2.5
            pen.rect(x, yy, w, hh, fill="#e6e1d3", stroke="ink", width=0.5)
            pen.text(x + 2, base, "Terrain", size=5.8, font=FONT_BOLD)
            mx = x + sw + name
            for t, z in fitted:
                if upright:
                    pen.text(mx + move / 2, base, t, size=z, font=FONT_BOLD, align="centre")
                else:
                    pen.text(mx + move / 2 + z * 0.35, base, t, size=z, font=FONT_BOLD, angle=90)
                mx += move
            pen.text(mx + 2, base, combat_head[0], size=combat_head[1], font=FONT_BOLD)
            pen.text(x + w - rule / 2, base, "Rule", size=5.8, font=FONT_BOLD, align="centre")

        return h, draw

    def _row(self, tid: str, t: m.TerrainType, width: float) -> tuple[float, DrawFn]:
        sw, name, move, combat, rule = self._columns(width)
        kind_word = {"hex": "", "feature": "in hex", "hexside": "hexside", "path": "path"}[t.kind.value]
        nfit = fit.fit(
            t.name,
            name - 4,
            3 * 7.2,
            6.4,
            font=FONT_BOLD,
            leading=7.2 / 6.4,
            where=("terrain", tid, "name"),
            what="terrain effects chart",
        )
        names, nsize = list(nfit.lines), nfit.size
        ctext = _wrap(_combat_text(t, self.ctx), combat - 4, 5.8)
        ntext = _wrap(t.movement_note, combat - 4, 5.5, FONT_ITALIC) if t.movement_note else []
        costs = _costs(t, self.classes)
        h = max(24.0, 7.2 * len(names) + (6.5 if kind_word else 0) + 4, 6.8 * len(ctext) + 6.4 * len(ntext) + 5)
        rule_text = t.rule or "—"

        def draw(pen: Pen, x: float, y: float, w: float) -> None:
            pen.rect(x, y, w, h, fill="paper", stroke="ink", width=0.5)
            _swatch(pen, self.ctx, tid, t, x + 2, y + (h - 22) / 2, 22.0, min(self.size, PATTERN_MAX))
            yy = y + 3
            for s in names:
                yy += 7.2
                pen.text(x + sw + 2, yy - 1, s, size=nsize, font=FONT_BOLD)
            if kind_word:
                pen.text(x + sw + 2, yy + 5.5, kind_word, size=5.5, font=FONT_ITALIC, fill="label")
            mx = x + sw + name
            for cst in costs:
                pen.line_v(mx, y, h)
                if cst == "prohib." and text_width(cst, MIN_PT, FONT_BOLD) > move - 2:
                    cst = "P"  # explained under the chart
                ct, cs = _fit(cst, move - 2, 7.0, FONT_BOLD)
                pen.text(mx + move / 2, y + h / 2 + 2.5, ct, size=cs, font=FONT_BOLD, align="centre")
                mx += move
            pen.line_v(mx, y, h)
            yy = y + 2
            for s in ctext:
                yy += 6.8
                pen.text(mx + 2, yy, s, size=5.8)
            for s in ntext:
                yy += 6.4
                pen.text(mx + 2, yy, s, size=5.5, font=FONT_ITALIC, fill="label")
            pen.line_v(x + w - rule, y, h)
            rt, rs = _fit(rule_text, rule - 2, 6.0)
            pen.text(x + w - rule / 2, y + h / 2 + 2, rt, size=rs, align="centre")

        return h, draw

    def _prints_unknown(self) -> bool:
        """Some cell of the chart prints ``?``: a cost, or a combat effect, the rules do not give."""
        for _, t in self.rows:
            if "?" in _costs(t, self.classes):
                return True
            if _UNKNOWN.search(_combat_text(t, self.ctx)):
                return True
        return False

    def peek(self, width: float, max_height: float) -> Item | None:
        if self.idx > len(self.rows):
            return None
        if self.idx == len(self.rows):
            text = f"Costs are movement points to enter a {_noun(self.ctx.grid)} (or cross a side, or use a path)."
            if self._prints_unknown():  # the key to "?" only under a chart that prints one
                text = text[:-1] + "; ? = not given by the rulebook."
            if any("prohibited" in t.costs.values() for _, t in self.rows):
                text += " P, prohib. = prohibited."
            if any(t.movement == "none" for _, t in self.rows):
                text += f" {NO_EFFECT} = no movement effect of its own: the hex's terrain counts."
            lines = _wrap(text, width, 5.5, FONT_ITALIC)

            def draw_foot(pen: Pen, x: float, y: float, w: float) -> None:
                for i, s in enumerate(lines):
                    pen.text(x, y + 6.5 + 6.6 * i, s, size=5.5, font=FONT_ITALIC, fill="label")

            return Item(6.6 * len(lines) + 3, draw_foot)
        tid, t = self.rows[self.idx]
        rh, rdraw = self._row(tid, t, width)
        if self.idx == 0:
            hh, hdraw = self._header(width)

            def draw_first(pen: Pen, x: float, y: float, w: float) -> None:
                hdraw(pen, x, y, w)
                rdraw(pen, x, y + hh, w)

            return Item(hh + rh, draw_first)
        return Item(rh, rdraw)

    def advance(self) -> None:
        self.idx += 1


# ------------------------------------------------------------------------------------------------------ key
def _label_scheme_text(grid: Grid) -> str:
    return {
        LabelScheme.LETTER_ROW: "row letter, column number",
        LabelScheme.LETTER_COLUMN: "column letter, row number",
        LabelScheme.XXYY: "column number, then row number",
        LabelScheme.COL_ROW: "column, row",
    }[grid.labels]


def _label_icon(pen: Pen, x: float, y: float, *, text: str) -> None:
    t, size = _fit(text, 20.0, 7.0, FONT_BOLD)
    pen.text(x, y + 2.5, t, size=size, font=FONT_BOLD, align="centre", fill="label")


def _setup_icon(pen: Pen, x: float, y: float, *, code: str) -> None:
    t, size = _fit(code, 18.0, 6.0, FONT_BOLD)
    _setup_symbol(pen, x, y, t, size)


def _zone_icon(pen: Pen, x: float, y: float, *, ctx: _Ctx, zid: str) -> None:
    _zone_symbol(pen, ctx, zid, x, y, 5.5)


def _supply_icon(pen: Pen, x: float, y: float, *, r: float, side: m.Side) -> None:
    _supply_symbol(pen, x, y, r, side)


class _Key(Block):
    """The map key: what the symbols printed on the map mean (only those the map uses)."""

    def __init__(self, ctx: _Ctx) -> None:
        self.ctx = ctx
        self.entries: list[tuple[Callable[[Pen, float, float], None], str]] = []
        r = 7.5
        example = ctx.grid.label(Cell(min(2, ctx.grid.columns - 1), min(2, ctx.grid.rows - 1)))
        self.entries.append(
            (
                functools.partial(_label_icon, text=example),
                f"{_noun(ctx.grid).capitalize()} label ({_label_scheme_text(ctx.grid)})",
            )
        )
        for side in ctx.supply_sides():
            self.entries.append((functools.partial(_supply_icon, r=r, side=side), f"{side.name} supply source"))
        if ctx.any_vp:
            self.entries.append((lambda pen, x, y: _vp_symbol(pen, x, y, "n", 6.0), "Victory points for the hex"))
        if ctx.any_setup:
            code = next(h.setup for h in ctx.hexes.values() if h.setup)
            self.entries.append((functools.partial(_setup_icon, code=code), "Setup code"))
        for zid, zone in ctx.game.map.setup_zones.items():
            each = f", {zone.per_hex} unit{'s' if zone.per_hex != 1 else ''} each" if zone.per_hex else ""
            self.entries.append(
                (
                    functools.partial(_zone_icon, ctx=ctx, zid=zid),
                    f"{zone_name(ctx.game, zid)} hex{each}" + (f" ({zone.rule})" if zone.rule else ""),
                )
            )
        if ctx.any_reconstructed:
            self.entries.append(
                (lambda pen, x, y: _reconstructed_mark(pen, x, y, 3.2), "Reconstructed hex (inferred, not stated)")
            )
        if ctx.any_unknown:
            self.entries.append((functools.partial(_unknown_swatch, r=9.0, grid=ctx.grid), "Terrain unknown"))
        self.idx = 0

    def _rows(self, width: float) -> list[list[tuple[Callable[[Pen, float, float], None], str]]]:
        n = max(1, int(width // (1.55 * INCH)))
        return [self.entries[i : i + n] for i in range(0, len(self.entries), n)]

    def peek(self, width: float, max_height: float) -> Item | None:
        rows = self._rows(width)
        if self.idx >= len(rows):
            return None
        row = rows[self.idx]
        n = max(1, int(width // (1.55 * INCH)))
        cw = width / n
        first = self.idx == 0
        texts = [_clip_lines(_wrap(label, cw - 24, 5.8), 2, cw - 24, 5.8) for _, label in row]
        rh = max(18.0, max(6.8 * len(t) for t in texts) + 6)
        head = 16.0 if first else 0.0
        last = self.idx == len(rows) - 1

        def draw(pen: Pen, x: float, y: float, w: float) -> None:
            yy = y
            if first:
                _head_bar(pen, x, yy, w, "Map key", None)
                yy += 13 + 3
            pen.rect(x, yy - (3 if first else 0), w, rh + (3 if first else 0), fill="paper")
            pen.line_v(x, yy - 3 if first else yy, rh + (3 if first else 0))
            pen.line_v(x + w, yy - 3 if first else yy, rh + (3 if first else 0))
            if last:
                pen.polyline([(x, yy + rh), (x + w, yy + rh)], stroke="ink", width=0.5)
            for i, ((icon, _), lines) in enumerate(zip(row, texts, strict=True)):
                cx = x + i * cw
                icon(pen, cx + 11, yy + rh / 2)
                for j, s in enumerate(lines):
                    pen.text(cx + 22, yy + rh / 2 + 2 - 3.4 * (len(lines) - 1) + 6.8 * j, s, size=5.8)

        return Item(head + rh, draw)

    def advance(self) -> None:
        self.idx += 1
