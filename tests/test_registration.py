"""Registration marks of a tiled map: the two tiles that share an overlap strip print its marks at the same place
on the sheet, so a player gluing them can lay one mark on the other.

Each tile once kept the marks clear of the strip's label as that tile would have worded it ("glue under tile 9"
on tile 10, "glue under tile 10" on tile 9: other widths), so on First Panzer Army's map on Letter tiles 9 and 10
printed the marks of their strip 54 pt apart.  A strip has one label, printed by the tile that goes under: both
tiles measure that one."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path

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
    ("hells_gate", "tabloid"),
    ("small", "tabloid"),
    ("halden_line", "tabloid"),
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


def _same(a: list[Point], b: list[Point]) -> bool:
    """The same points, to a millionth of a point (each tile's page places them through its own offset)."""
    if len(a) != len(b):
        return False
    return all(abs(x - u) < 1e-6 and abs(y - v) < 1e-6 for (x, y), (u, v) in zip(a, b, strict=True))


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
def test_both_tiles_of_a_strip_print_its_marks_at_the_same_place(path: Path, paper: str) -> None:
    """Every tiled seed map (the six data files on Letter, A4 and tabloid, the large bench kit on tabloid): for
    every strip two tiles share, the marks each tile prints there stand at the same sheet coordinates, inside the
    strip."""
    marks = _marks_by_strip(path, paper)
    options = replace(BuildOptions(), paper=paper)
    lay = M.sheet_layout(load(path), options)
    tplan = tiling.plan(lay.sheet_w, lay.sheet_h, *options.paper_size())
    pairs = 0
    for (sheet, name, k), points in marks.items():
        strip = tplan.tile(name).strips[k]
        r = strip.rect
        assert 1 <= len(points) <= 2, (sheet, name, strip.side)
        assert all(r.x <= x <= r.x + r.w and r.y <= y <= r.y + r.h for x, y in points)
        other = tplan.tile(strip.neighbour)
        (j,) = [j for j, s in enumerate(other.strips) if s.neighbour == name]
        theirs = marks[(sheet, other.name, j)]
        assert _same(points, theirs), f"sheet {sheet + 1}: tile {name} {strip.side} {points}, {other.name} {theirs}"
        pairs += 1
    assert pairs >= 2 * (tplan.rows * (tplan.columns - 1) + tplan.columns * (tplan.rows - 1))


def test_first_panzer_army_on_letter_tiles_9_and_10_line_up() -> None:
    """The defect as found, on the whole rendered map: tiles 9 and 10 of First Panzer Army on Letter printed the
    marks of their strip at sheet y = 1434 and 1380 pt.  Read from the recording canvas of the real pages: every
    shared strip's marks coincide, and the layout checker finds no mark over a label or symbol."""
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
            return [(x, y) for x, y in marks[name] if abs(x - (r.x + r.w / 2)) < 1e-6 and r.y <= y <= r.y + r.h]
        return [(x, y) for x, y in marks[name] if abs(y - (r.y + r.h / 2)) < 1e-6 and r.x <= x <= r.x + r.w]

    nine, ten = tplan.tile("9"), tplan.tile("10")
    (right,) = [s for s in nine.strips if s.neighbour == "10"]
    (left,) = [s for s in ten.strips if s.neighbour == "9"]
    assert (right.side, left.side) == ("right", "left")
    assert right.rect == left.rect
    assert in_strip("9", right)
    assert _same(in_strip("9", right), in_strip("10", left)), (in_strip("9", right), in_strip("10", left))
    shared = 0
    for tile in tplan.tiles:
        for strip in tile.strips:
            if tile.name in marks and strip.neighbour in marks:
                (back,) = [s for s in tplan.tile(strip.neighbour).strips if s.neighbour == tile.name]
                assert _same(in_strip(tile.name, strip), in_strip(strip.neighbour, back)), (tile.name, strip.side)
                shared += 1
    assert shared > 20
    assert [v for v in layout.check(rec) if v.rule == "mark"] == []
