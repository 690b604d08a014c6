"""Issue 25 on tiled map pages.  Print 11: Ferry Point on A4 warned "map tile footer ... printed cut short" and ended
the printing hint in "…" on all four tiles: beside the scale bar there is no room for it, under the bar there is."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from forge.builder import BuildOptions
from forge.errors import collect_warnings
from forge.loader import load
from forge.render import map as M

ROOT = Path(__file__).parent.parent
HINT = "Print at 100 % (actual size). Trim at the crop marks; glue each shaded strip under its neighbour."


@pytest.mark.parametrize(("game", "paper"), [("ferry_point", "a4"), ("hells_gate", "letter"), ("hells_gate", "a4")])
def test_tile_footer_printed_whole(game: str, paper: str) -> None:
    with collect_warnings() as found:
        pdf = M.render(load(ROOT / "data" / f"{game}.yaml"), BuildOptions(paper=paper, only=("map",)))
    assert not [w for w in found if "map tile footer" in w.message]
    # Each page's text read once, with pdfium: a tile page holds its whole sheet, which pypdf reads ~50x slower.
    doc = pdfium.PdfDocument(pdf)
    pages = [" ".join(doc[i].get_textpage().get_text_range().split()) for i in range(len(doc))]
    tiles = [text for text in pages if "tile " in text and "Assembly" not in text]
    assert tiles
    for text in tiles:
        assert HINT in text
        assert "…" not in text


class _Lines:
    """A stand-in canvas that keeps the polylines drawn on it."""

    def __init__(self) -> None:
        self.lines: list[tuple[list[tuple[float, float]], str | None]] = []

    def polyline(self, points: list[tuple[float, float]], *, stroke: str | None = None, **kw: object) -> None:
        self.lines.append((list(points), stroke))


@pytest.mark.parametrize("greyscale", [False, True])
def test_a_river_in_greyscale_keeps_a_pattern(greyscale: bool) -> None:
    """Issue 25, print 12: in greyscale a river was a plain thick grey hexside, like any border.  It now carries a
    wave in the paper's colour along its band (greyscale only: in colour its blue says water)."""
    from dataclasses import replace

    from forge.render.map import grid
    from forge.render.map.base import Pen, _Ctx

    game = load(ROOT / "data" / "hells_gate.yaml")
    (tid, river) = next((k, t) for k, t in game.terrain.items() if grid._is_river(k, t))
    options = replace(BuildOptions(), greyscale=greyscale)
    canvas = _Lines()
    pen = Pen(canvas, options, {"river": "#3a78c9"})  # type: ignore[arg-type]
    grid._draw_hexside(pen, _Ctx.build(game, options, {}), tid, river, ((0.0, 0.0), (0.0, 90.0)), 126.0)
    waves = [pts for pts, stroke in canvas.lines if len(pts) > 2]
    if not greyscale:
        assert waves == []
        return
    (wave,) = waves
    assert {round(p[1], 6) for p in (wave[0], wave[-1])} == {0.0, 90.0}  # from end to end of the hexside
    assert max(abs(x) for x, _ in wave) > 0.3  # it leaves the straight line: a pattern, not a line
    assert [s for pts, s in canvas.lines if pts is wave] == ["#ffffff"]
