"""Issue 25, print 4: on a map whose grid fills the sheet's height the one-line title box ("<game> — map, sheet 1
of 2") was drawn over the bottom row of hexes and the build said nothing.  It now goes, wrapped, into the gap
beside the grid when there is one; with no room at all, the box is left to the charts sheet that carries the
title block (a warning is kept for a single sheet, which a grid filling its sheet never leaves)."""

from __future__ import annotations

from pathlib import Path

from forge.builder import BuildOptions
from forge.errors import collect_warnings
from forge.loader import load
from forge.model import Game
from forge.render import map as M
from forge.render.map.base import _Ctx

ROOT = Path(__file__).parent.parent


def _with_sheet(sheet: str) -> Game:
    game = load(ROOT / "data" / "ferry_point.yaml")
    return game.model_copy(update={"map": game.map.model_copy(update={"sheet": sheet})})


def _title(game: Game) -> tuple[str, object, list[str]]:
    with collect_warnings() as found:
        lay = M.sheet_layout(game, BuildOptions())
        t, _, r = M._compact_title_box(_Ctx.build(game, BuildOptions(), {}), lay, 0)
    return t, (lay, r), [w.message for w in found]


def test_title_box_beside_a_grid_that_fills_the_sheets_height() -> None:
    game = _with_sheet("11x7.1in")  # Ferry Point's grid is 6.875 in tall: no strip above or below it for the box
    t, (lay, r), warnings = _title(game)
    g = lay.geometry
    assert not lay.title_on_map
    assert g.oy < r.h + 4
    assert lay.sheet_h - g.oy - g.extent[1] < r.h + 4
    assert r.x + r.w <= g.ox or r.x >= g.ox + g.extent[0]  # clear of the grid
    assert r.y >= 0
    assert r.y + r.h <= lay.sheet_h
    assert "Ferry Point" in t
    assert "sheet 1 of 2" in t.replace("\n", " ")
    assert warnings == []


def test_no_room_anywhere_leaves_the_box_to_the_charts_sheet() -> None:
    """The grid and nothing else on the sheet (a tabletop board cut to its grid): the title block is on the charts
    sheet, so no box goes over the hexes of sheet 1, and the build has nothing to warn about."""
    game = _with_sheet("7.95x6.875in")  # the grid and nothing else
    t, (lay, r), warnings = _title(game)
    assert len(lay.pages) > 1  # the title block's sheet
    assert t == ""
    assert (r.w, r.h) == (0.0, 0.0)
    assert warnings == []
    with collect_warnings() as found:
        M.render(game, BuildOptions(only=("map",), paper="tabloid"))
    assert not any("title box" in w.message for w in found)
