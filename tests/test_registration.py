"""Registration marks of a tiled map: only the tile whose strip goes under its neighbour (the glue strip) prints
the strip's marks, so that none is left on the play area of the assembled map (issue 25, print 2: a crosshair on
the woods of C5 on Hell's Gate's tile 4, printed by the tile on top).

Each tile once kept the marks clear of the strip's label as that tile would have worded it ("glue under tile 9"
on tile 10, "glue under tile 10" on tile 9: other widths), so on First Panzer Army's map on Letter tiles 9 and 10
printed the marks of their strip 54 pt apart.  A strip has one label, printed by the tile that goes under: both
tiles measure that one."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from reportlab.pdfgen.canvas import Canvas

from forge import layout, tiling
from forge.builder import BuildOptions
from forge.canvas import PdfCanvas, Recorder
from forge.loader import load
from forge.render import map as M
from forge.render.style import DEFAULT_COLORS

ROOT = Path(__file__).parent.parent
WHOLE = {
    ("ferry_point", "letter"),
    ("ferry_point", "tabloid"),
    ("halden_line", "tabloid"),
    ("hells_gate", "tabloid"),
    ("small", "tabloid"),
}
"""Seed maps whose sheets fit the paper whole: no tiles (the test below checks the others are tiled)."""
TILED = [
    (p, paper)
    for p, papers in [(p, ("letter", "a4", "tabloid")) for p in sorted((ROOT / "data").glob("*.yaml"))]
    + [(p, ("tabloid",)) for p in sorted((ROOT / "bench" / "kits").glob("*.yaml"))]
    for paper in papers
    if (p.stem, paper) not in WHOLE
]

Point = tuple[float, float]


def _marks_by_strip(path: Path, paper: str) -> dict[tuple[int, str, int], list[Point]]:
    """Every overlap strip of every tile of the map, drawn by the tiles' own strip code (``_tile_strips``) onto a
    recording canvas, one strip a page: ``(sheet, tile, strip index)`` -> its marks' centres in sheet coordinates."""
    game = load(path)
    options = replace(BuildOptions(), paper=paper)
    lay = M.sheet_layout(game, options)
    pw, ph = options.paper_size()
    assert not tiling.fits(lay.sheet_w, lay.sheet_h, pw, ph), (path.name, paper)  # a map printed in tiles
    ctx = M._Ctx.build(game, options, {})
    tplan = tiling.plan(lay.sheet_w, lay.sheet_h, pw, ph)
    rec = Recorder("marks")
    c = Canvas(io.BytesIO(), pagesize=(pw, ph))
    keys = []
    for i in range(len(lay.pages)):
        obstacles = M.mark_obstacles(ctx, lay, i)
        for tile in tplan.tiles:
            px, py = tplan.placement(tile)
            for k, strip in enumerate(tile.strips):
                rec.page(pw, ph, f"sheet {i} tile {tile.name} strip {k}")
                keys.append(((i, tile.name, k), px - tile.source.x, py - tile.source.y))
                pen = M.Pen(PdfCanvas(c, top=ph, recorder=rec), options, DEFAULT_COLORS)
                M._tile_strips(pen, replace(tile, strips=(strip,)), px, py, obstacles)
    out: dict[tuple[int, str, int], list[Point]] = {key: [] for key, _, _ in keys}
    for item in rec.items:
        if item.label == "registration mark":
            key, dx, dy = keys[item.page]
            out[key].append(((item.box.x0 + item.box.x1) / 2 - dx, (item.box.y0 + item.box.y1) / 2 - dy))
    return out


@pytest.mark.parametrize(("path", "paper"), TILED, ids=[f"{p.stem}-{paper}" for p, paper in TILED])
def test_marks_only_in_the_strip_that_goes_under(path: Path, paper: str) -> None:
    """Every tiled seed map (the data files on Letter, A4 and tabloid, the large bench kit on tabloid): every
    strip shared by two tiles has its one or two marks inside it on the tile whose strip goes under (its right or
    bottom strip), and none on the tile that lies on top (its left or top strip: the assembled map's play area)."""
    marks = _marks_by_strip(path, paper)
    options = replace(BuildOptions(), paper=paper)
    lay = M.sheet_layout(load(path), options)
    tplan = tiling.plan(lay.sheet_w, lay.sheet_h, *options.paper_size())
    under = 0
    for (sheet, name, k), points in marks.items():
        strip = tplan.tile(name).strips[k]
        r = strip.rect
        if strip.side in ("left", "top"):
            assert points == [], f"sheet {sheet + 1}: tile {name} prints marks on the map it lays over: {points}"
            continue
        assert 1 <= len(points) <= 2, (sheet, name, strip.side)
        assert all(r.x <= x <= r.x + r.w and r.y <= y <= r.y + r.h for x, y in points)
        under += 1
    assert under >= tplan.rows * (tplan.columns - 1) + tplan.columns * (tplan.rows - 1)


def test_first_panzer_army_on_letter_tiles_9_and_10_marks_under_only() -> None:
    """The defect as found, on the whole rendered map: tiles 9 and 10 of First Panzer Army on Letter printed the
    marks of their strip at sheet y = 1434 and 1380 pt; tile 10's lay on the assembled map.  Read from the
    recording canvas of the real pages: tile 9's glue strip has the marks, no tile marks a strip that lies on top,
    and the layout checker finds no mark over a label or symbol."""
    game = load(ROOT / "data" / "first_panzer_army.yaml")
    options = BuildOptions(paper="letter", only=("map",))
    rec = Recorder("map")
    M.render(game, options, recorder=rec)
    lay = M.sheet_layout(game, options)
    tplan = tiling.plan(lay.sheet_w, lay.sheet_h, *options.paper_size())
    marks: dict[str, list[Point]] = {}
    for item in rec.items:
        m = re.fullmatch(r"map sheet 1, tile (\d+)", rec.pages[item.page].name)
        if item.label == "registration mark" and m:
            tile = tplan.tile(m.group(1))
            px, py = tplan.placement(tile)
            cx, cy = (item.box.x0 + item.box.x1) / 2, (item.box.y0 + item.box.y1) / 2
            marks.setdefault(tile.name, []).append((cx - px + tile.source.x, cy - py + tile.source.y))

    def in_strip(name: str, strip: tiling.Strip) -> list[Point]:
        """The tile's marks on the strip's centre line (a mark of another strip could stand in a corner)."""
        r = strip.rect
        if strip.side in ("left", "right"):
            return [(x, y) for x, y in marks.get(name, []) if abs(x - (r.x + r.w / 2)) < 1e-6 and r.y <= y <= r.y + r.h]
        return [(x, y) for x, y in marks.get(name, []) if abs(y - (r.y + r.h / 2)) < 1e-6 and r.x <= x <= r.x + r.w]

    nine, ten = tplan.tile("9"), tplan.tile("10")
    (right,) = [s for s in nine.strips if s.neighbour == "10"]
    (left,) = [s for s in ten.strips if s.neighbour == "9"]
    assert (right.side, left.side) == ("right", "left")
    assert right.rect == left.rect
    assert in_strip("9", right)  # the glue strip of tile 9, under tile 10
    assert in_strip("10", left) == []  # tile 10 lies on top: its part of the map unmarked
    for tile in tplan.tiles:
        for strip in tile.strips:
            if strip.side in ("left", "top") and tile.name in marks:
                assert in_strip(tile.name, strip) == [], (tile.name, strip.side)
    assert [v for v in layout.check(rec) if v.rule == "mark"] == []


def test_assembly_page_names_the_paper_as_written() -> None:
    """The A4 assembly page read "on 4 a4 pages" (issue 25, print 8)."""
    game = load(ROOT / "data" / "hells_gate.yaml")
    doc = pdfium.PdfDocument(M.render(game, BuildOptions(paper="a4", only=("map",))))
    text = " ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))  # pdfium: tiles read fast
    assert re.search(r"on \d+ A4 pages", text)
    assert " a4 pages" not in text
    assert M.tiles._paper_name("arch-b") == "Arch B"
    assert M.tiles._paper_name("letter") == "letter"
