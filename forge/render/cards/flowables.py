"""The drawn pieces a block may hold besides text: :class:`CardBreak` (a new card unless there is room),
:class:`ShiftArrow` (a column shift's count and arrow) and :class:`Swatch` (a terrain sample, the map key's own),
blocks (:mod:`forge.render.blocks`) drawn on a :class:`forge.canvas.Canvas`, y down."""

from __future__ import annotations

from dataclasses import dataclass

from ...canvas import Canvas
from ...model import Game, TerrainKind
from ...pdf import FONT_BOLD, text_width
from ..blocks import Block, Piece
from .styles import Styles


@dataclass
class CardBreak:
    """Start a new card unless at least ``min_space`` points are left on this one (:func:`flow` reads it; it
    takes no room and draws nothing)."""

    min_space: float = 0.0
    space_before: float = 0.0
    space_after: float = 0.0

    def measure(self, width: float) -> float:
        return 0.0

    def split(self, width: float, height: float) -> tuple[Block, Block] | None:
        return None

    def draw(self, c: Canvas, x: float, y: float, width: float) -> None:
        pass


class ShiftArrow(Piece):
    """A column shift: the count and an arrow pointing the way the column moves."""

    label = "shift arrow"

    def __init__(self, shift: int, st: Styles, width: float = 34) -> None:
        self.shift, self.st, self.width, self.height = shift, st, width, 9.0

    def draw(self, c: Canvas, x: float, y: float, width: float) -> None:
        n = abs(self.shift)
        txt = f"{n} {'R' if self.shift > 0 else 'L'}" if n else "0"
        ink = self.st.c("ink")
        bottom = y + self.height  # the drawing's measures are from its foot
        c.text(x, bottom - 1.5, txt, font=FONT_BOLD, size=7.5, fill=ink)
        if not n:
            return
        x0 = x + text_width(txt, 7.5, FONT_BOLD) + 3
        x1 = x + self.width - 2
        ay = bottom - 4.2
        c.line(x0, ay, x1, ay, stroke=ink, width=1.1)
        tip, tail = (x1, x1 - 4) if self.shift > 0 else (x0, x0 + 4)
        c.polygon([(tip, ay), (tail, ay - 2.6), (tail, ay + 2.6)], fill=ink)


class Swatch(Piece):
    """A terrain sample: its colour and pattern, or its line for hexside and path terrain.  Given the game and
    the terrain's id, it is the map legend's own sample (:func:`forge.render.map.draw_terrain_sample`), so a
    city or an airfield shows the icon printed on the map."""

    label = "terrain sample"

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
        self.fill, self.pattern, self.kind, self.st = fill, pattern, kind, st
        self.game, self.tid = game, tid
        self.width = self.height = size

    def draw(self, c: Canvas, x: float, y: float, width: float) -> None:
        s = self.width
        if self.game is not None and self.tid is not None:
            from ..map import draw_terrain_sample  # the map's legend sample: one look on map and cards

            draw_terrain_sample(c, self.game, self.st.options, self.tid, s, x, y)
            return
        edge = self.st.c("hex_edge")
        with c.frame("symbol", x, y, s, s, self.label):
            if self.kind in (TerrainKind.HEXSIDE, TerrainKind.PATH):
                c.rect(x, y, s, s, fill=self.st.c("paper"), stroke=edge, width=0.4)
                dash = (3.0, 1.5) if self.kind is TerrainKind.PATH else None
                wide = 2.4 if self.kind is TerrainKind.HEXSIDE else 1.8
                c.line(x + 1, y + s / 2, x + s - 1, y + s / 2, stroke=self.st.c(self.fill), width=wide, dash=dash)
                return
            c.rect(x, y, s, s, fill=self.st.c(self.fill), stroke=edge, width=0.4)
            square = [(x, y), (x + s, y), (x + s, y + s), (x, y + s)]
            c.pattern([square], self.pattern, self.st.c("ink"), s * 3)
