"""The drawn pieces a block may hold besides text: :class:`CardBreak` (a new card unless there is room),
:class:`ShiftArrow` (a column shift's count and arrow) and :class:`Swatch` (a terrain sample, the map key's own)."""

from __future__ import annotations

from reportlab.platypus import Flowable

from ...model import Game, TerrainKind
from ...pdf import FONT_BOLD, text_width
from ..style import DEFAULT_COLORS, colour, draw_pattern
from .styles import Styles


class CardBreak(Flowable):
    """Start a new card unless at least ``min_space`` points are left on this one."""

    def __init__(self, min_space: float = 0.0) -> None:
        super().__init__()
        self.min_space = min_space

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        return (0, 0)

    def draw(self) -> None:
        pass


class ShiftArrow(Flowable):
    """A column shift: the count and an arrow pointing the way the column moves."""

    def __init__(self, shift: int, st: Styles, width: float = 34) -> None:
        super().__init__()
        self.shift, self.st, self.width, self.height = shift, st, width, 9.0

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        return (self.width, self.height)

    def draw(self) -> None:
        c = self.canv
        n = abs(self.shift)
        txt = f"{n} {'R' if self.shift > 0 else 'L'}" if n else "0"
        c.setFillColor(self.st.c("ink"))
        c.setStrokeColor(self.st.c("ink"))
        c.setFont(FONT_BOLD, 7.5)
        c.drawString(0, 1.5, txt)
        if not n:
            return
        x0 = text_width(txt, 7.5, FONT_BOLD) + 3
        x1 = self.width - 2
        y = 4.2
        c.setLineWidth(1.1)
        c.line(x0, y, x1, y)
        tip, tail = (x1, x1 - 4) if self.shift > 0 else (x0, x0 + 4)
        p = c.beginPath()
        p.moveTo(tip, y)
        p.lineTo(tail, y + 2.6)
        p.lineTo(tail, y - 2.6)
        p.close()
        c.drawPath(p, stroke=0, fill=1)


class Swatch(Flowable):
    """A terrain sample: its colour and pattern, or its line for hexside and path terrain.  Given the game and
    the terrain's id, it is the map legend's own sample (:func:`forge.render.map.draw_terrain_sample`), so a
    city or an airfield shows the icon printed on the map."""

    def __init__(
        self,
        fill: str,
        pattern: str,
        kind: TerrainKind,
        st: Styles,
        size: float = 16,
        *,
        game: Game | None = None,
        tid: str | None = None,
    ) -> None:
        super().__init__()
        self.fill, self.pattern, self.kind, self.st = fill, pattern, kind, st
        self.game, self.tid = game, tid
        self.width = self.height = size

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        return (self.width, self.height)

    def draw(self) -> None:
        c, s = self.canv, self.width
        if self.game is not None and self.tid is not None:
            from ..map import draw_terrain_sample  # the map's legend sample: one look on map and cards

            draw_terrain_sample(c, self.game, self.st.options, self.tid, s)
            return
        ink = self.st.c("ink")
        if self.kind in (TerrainKind.HEXSIDE, TerrainKind.PATH):
            c.setFillColor(self.st.c("paper"))
            c.setStrokeColor(self.st.c("hex_edge"))
            c.setLineWidth(0.4)
            c.rect(0, 0, s, s, stroke=1, fill=1)
            c.setStrokeColor(self.st.c(self.fill))
            c.setLineWidth(2.4 if self.kind is TerrainKind.HEXSIDE else 1.8)
            if self.kind is TerrainKind.PATH:
                c.setDash(3, 1.5)
            c.line(1, s / 2, s - 1, s / 2)
            return
        c.setFillColor(self.st.c(self.fill))
        c.setStrokeColor(self.st.c("hex_edge"))
        c.setLineWidth(0.4)
        c.rect(0, 0, s, s, stroke=1, fill=1)
        pat_ink = colour(DEFAULT_COLORS["ink"], self.st.options)
        draw_pattern(c, [(0, 0), (s, 0), (s, s), (0, s)], self.pattern, pat_ink, s * 3)
        c.setStrokeColor(ink)
