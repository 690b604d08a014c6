"""Tests of forge.render.map: page sizes, true scale, tiling, text read back, determinism, a golden image.

Positions are checked two ways: through the geometry the renderer uses (:func:`forge.render.map.sheet_layout`)
and by reading where pdfium finds the printed hex labels on the pages, to 0.1 mm.
"""

from __future__ import annotations

import io
import itertools
import math
import os
import re
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageStat

from forge import tiling
from forge import units as U
from forge.builder import BuildOptions
from forge.hexgrid import Cell
from forge.loader import load
from forge.model import MapStatus
from forge.render import map as M

ROOT = Path(__file__).resolve().parent.parent
DATA = sorted((ROOT / "data").glob("*.yaml"))
GOLDEN = Path(__file__).resolve().parent / "golden"
MM = 72 / 25.4
TOL = 0.1 * MM  # 0.1 mm in points


@pytest.fixture(scope="module")
def game():
    return load(ROOT / "data" / "hells_gate.yaml")


@pytest.fixture(scope="module")
def tabloid(game) -> bytes:
    return M.render(game, BuildOptions(paper="tabloid"))


@pytest.fixture(scope="module")
def letter(game) -> bytes:
    return M.render(game, BuildOptions(paper="letter"))


def _sizes(pdf: bytes) -> list[tuple[float, float]]:
    return [(float(p.mediabox.width), float(p.mediabox.height)) for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def _text(pdf: bytes, page: int | None = None) -> str:
    """The text of one page or all, read back with pypdf (which separates strings drawn apart)."""
    pages = pypdf.PdfReader(io.BytesIO(pdf)).pages
    chosen = pages if page is None else [pages[page]]
    return "\n".join(p.extract_text() for p in chosen)


def _fast_text(pdf: bytes, page: int) -> str:
    """One page's text read back with pdfium: much faster than pypdf on tile pages, which all hold their
    whole sheet, but it may run neighbouring strings together."""
    return pdfium.PdfDocument(pdf)[page].get_textpage().get_text_range()


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _label_boxes(
    pdf: bytes, page: int, label: str, within: tuple[float, float, float, float]
) -> list[tuple[float, float, float, float]]:
    """Loose boxes (left, bottom, right, top; pdfium's y up) of each occurrence of ``label`` on a page whose
    centre lies in ``within`` (x0, x1 left to right, y0, y1 down from the page's top).  Not whole-word search:
    pdfium runs a hex label into the supply letter printed just after it."""
    doc = pdfium.PdfDocument(pdf)
    height = doc[page].get_height()
    tp = doc[page].get_textpage()
    out = []
    search = tp.search(label, match_case=True)
    x0, x1, y0, y1 = within
    while (hit := search.get_next()) is not None:
        i, n = hit
        before = tp.get_text_range(i - 1, 1) if i > 0 else " "
        after = tp.get_text_range(i + n, 1)
        if before.isalnum() or after.isdigit():  # part of a longer label
            continue
        first, last = tp.get_charbox(i, loose=True), tp.get_charbox(i + n - 1, loose=True)
        cx, cy = (first[0] + last[2]) / 2, height - (first[1] + first[3]) / 2
        if x0 <= cx <= x1 and y0 <= cy <= y1:
            out.append((first[0], first[1], last[2], last[3]))
    return out


# ------------------------------------------------------------------------------------------------ page sizes
def test_tabloid_prints_the_sheet_on_one_page(tabloid) -> None:
    assert _sizes(tabloid) == [(17 * 72, 11 * 72)]


def test_letter_tiles_two_by_two_then_assembly(letter) -> None:
    sizes = _sizes(letter)
    assert sizes == [(11 * 72, 8.5 * 72)] * 5  # four tiles, landscape letter, and the assembly page
    for i, (row, column) in enumerate([(1, 1), (1, 2), (2, 1), (2, 2)]):
        text = _flat(_fast_text(letter, i))
        assert f"tile {i + 1} of 4 — row {row} of 2, column {column} of 2" in text  # never a hex-like "A1"
        assert "Hell's Gate" in text
    assert "overlap — glue under tile 2" in _flat(_fast_text(letter, 0))
    assert "Assembly" in _fast_text(letter, 4)


@pytest.mark.parametrize(("paper", "pages"), [("a4", 5), ("a3", 3), ("tabloid", 1)])
def test_other_papers(game, paper, pages) -> None:
    pdf = M.render(game, BuildOptions(paper=paper))
    sizes = _sizes(pdf)
    assert len(sizes) == pages
    if pages == 1:
        assert sizes == [(17 * 72, 11 * 72)]
    else:
        w, h = U.paper(paper)
        assert all(sorted(s) == pytest.approx(sorted((w, h))) for s in sizes)


# ---------------------------------------------------------------------------------------------- true scale
def test_hex_pitch_in_the_geometry(game) -> None:
    geom = M.sheet_layout(game).geometry
    size = U.length(game.map.hex_size)
    assert geom.size == size
    grid = geom.grid
    for cell in grid.cells():
        for n in grid.neighbours(cell):
            assert math.dist(geom.center(cell), geom.center(n)) == pytest.approx(size, abs=TOL)


def test_hex_pitch_on_the_printed_sheet(game, tabloid) -> None:
    """Hex labels are centred on their hexes: their printed centres are one hex_size apart along a row and
    sit exactly where the geometry puts the hexes."""
    lay = M.sheet_layout(game)
    geom, grid = lay.geometry, lay.geometry.grid
    size = U.length(game.map.hex_size)
    gw, gh = geom.extent
    on_grid = (geom.ox, geom.ox + gw, geom.oy, geom.oy + gh)
    centres = []
    for col in range(grid.columns):
        label = grid.label(Cell(col, 2))
        (box,) = _label_boxes(tabloid, 0, label, on_grid)
        centres.append((box[0] + box[2]) / 2)
        assert centres[-1] == pytest.approx(geom.center(Cell(col, 2))[0], abs=TOL)
    for a, b in itertools.pairwise(centres):
        assert b - a == pytest.approx(size, abs=TOL)
    # Rows: 1.5 hex radii apart (pointy hexes), measured on the labels' baselines (pdfium's y is up).
    (c3,) = _label_boxes(tabloid, 0, "C3", on_grid)
    (d3,) = _label_boxes(tabloid, 0, "D3", on_grid)
    rows_apart = geom.center(grid.parse("D3"))[1] - geom.center(grid.parse("C3"))[1]
    assert abs(rows_apart) == pytest.approx(1.5 * size / math.sqrt(3), abs=TOL)
    assert c3[1] - d3[1] == pytest.approx(rows_apart, abs=TOL)


def test_tiles_print_the_sheet_at_true_scale(game, letter) -> None:
    """On every tile page, each hex label lies where the sheet puts it, shifted by the tile's placement only."""
    lay = M.sheet_layout(game)
    geom, grid = lay.geometry, lay.geometry.grid
    plan = tiling.plan(lay.sheet_w, lay.sheet_h, *U.paper("letter"))
    assert (plan.rows, plan.columns) == (2, 2)
    gw, gh = geom.extent
    for index, tile in enumerate(plan.tiles):
        px, py = plan.placement(tile)
        src = tile.source
        # The tile's part of the grid, less the overlap strips (their labels name the neighbours).
        x0, x1 = max(src.x, geom.ox), min(src.right, geom.ox + gw)
        y0, y1 = max(src.y, geom.oy), min(src.bottom, geom.oy + gh)
        for strip in tile.strips:
            x0 = src.x + plan.overlap if strip.side == "left" else x0
            x1 = src.right - plan.overlap if strip.side == "right" else x1
            y0 = src.y + plan.overlap if strip.side == "top" else y0
            y1 = src.bottom - plan.overlap if strip.side == "bottom" else y1
        on_page = (px + x0 - src.x, px + x1 - src.x, py + y0 - src.y, py + y1 - src.y)
        seen = 0
        for cell in grid.cells():
            cx, cy = geom.center(cell)
            label_y = cy - 0.7 * geom.inner
            if not (x0 + 10 < cx < x1 - 10 and y0 + 5 < label_y < y1 - 5):
                continue
            (box,) = _label_boxes(letter, index, grid.label(cell), on_page)
            page_x = (box[0] + box[2]) / 2
            assert page_x - px + src.x == pytest.approx(cx, abs=TOL)
            seen += 1
        assert seen >= 6


# ------------------------------------------------------------------------------------------------ contents
def test_text_read_back(game, tabloid, letter) -> None:
    for pdf in (tabloid, letter):
        text = _text(pdf, 0)  # a tile page holds its whole sheet (a shared form), clipped to the tile
        words = set(text.split())
        flat = _flat(text)
        grid = game.map.grid.grid()
        for cell in grid.cells():
            assert grid.label(cell) in words
        for info in game.map.hexes.values():
            if info.name:
                assert info.name in flat
        for terrain in game.terrain.values():
            assert terrain.name in flat
            assert terrain.rule in words
        for units in game.reinforcements().values():
            for u in units:
                assert u.label in words
        assert "MAP: RECONSTRUCTED" in flat
        assert "1 hex = 20 km" in flat


def test_turn_track_holds_the_reinforcements(game, tabloid) -> None:
    flat = _flat(_text(tabloid))
    assert flat.count("armour XX · hex B7") == 2  # 11th and 14th Panzer, turn 1
    assert "armour XX · hex ? *1" in flat  # the 24th Panzer: no entry hex, conditional
    assert "conditional entry (6.2)" in flat
    for turn in game.turns.turns:
        for mark in turn.marks:
            assert mark in flat
    assert "rebuild one reduced corps" in flat


def test_no_text_below_5pt(tabloid) -> None:
    sizes: list[float] = []

    def visit(text, cm, tm, font, size) -> None:
        if text.strip():
            sizes.append(size * math.hypot(tm[0], tm[1]) * math.hypot(cm[0], cm[1]))

    pypdf.PdfReader(io.BytesIO(tabloid)).pages[0].extract_text(visitor_text=visit)
    assert sizes
    assert min(sizes) >= 5.0 - 1e-6


def test_deterministic(game, tabloid, letter) -> None:
    assert M.render(game, BuildOptions(paper="tabloid")) == tabloid
    assert M.render(game, BuildOptions(paper="letter")) == letter


def test_greyscale_has_no_colour(game) -> None:
    pdf = M.render(game, BuildOptions(paper="tabloid", greyscale=True))
    img = pdfium.PdfDocument(pdf)[0].render(scale=20 / 72).to_pil().convert("RGB")
    r, g, b = img.split()
    assert ImageChops.difference(r, g).getextrema()[1] <= 2
    assert ImageChops.difference(g, b).getextrema()[1] <= 2


def _golden(pdf: bytes, name: str, dpi: int = 40) -> None:
    img = pdfium.PdfDocument(pdf)[0].render(scale=dpi / 72).to_pil().convert("RGB")
    path = GOLDEN / name
    if os.environ.get("HEXFORGE_UPDATE_GOLDEN") == "1" or not path.exists():
        if os.environ.get("HEXFORGE_UPDATE_GOLDEN") != "1":
            pytest.fail(f"no golden image {path}; run with HEXFORGE_UPDATE_GOLDEN=1 to create it")
        GOLDEN.mkdir(exist_ok=True)
        img.save(path)
    ref = Image.open(path).convert("RGB")
    assert ref.size == img.size
    diff = ImageStat.Stat(ImageChops.difference(ref, img)).mean
    assert max(diff) < 2.0, f"mean difference {diff} from {path}"


def test_golden_hells_gate_sheet(tabloid) -> None:
    _golden(tabloid, "map_hells_gate.png")


# -------------------------------------------------------------------------------------------- other games
@pytest.mark.parametrize("path", DATA, ids=[p.stem for p in DATA])
def test_every_game_renders(path) -> None:
    game = load(path)
    pdf = M.render(game, BuildOptions(paper="letter"))
    lay = M.sheet_layout(game)
    sizes = _sizes(pdf)
    letter = U.paper("letter")
    sheet = (lay.sheet_w, lay.sheet_h)
    assert all(sorted(s) == pytest.approx(sorted(letter)) or s == pytest.approx(sheet) for s in sizes)
    # pdfium reads text fast; each tile page carries its whole sheet (a shared form), so one page per sheet.
    doc = pdfium.PdfDocument(pdf)
    plan = tiling.plan(lay.sheet_w, lay.sheet_h, *letter)
    first_pages = [0] if len(doc) == len(lay.pages) else [0, len(plan.tiles)][: len(lay.pages)]
    flat = _flat(" ".join(doc[i].get_textpage().get_text_range() for i in first_pages))
    assert f"MAP: {game.map.status.value.upper()}" in flat
    assert game.game.title in flat
    for p in lay.pages:
        for placed in p.placed:  # every chart lies on its sheet
            assert placed.x >= 0
            assert placed.x + placed.w <= lay.sheet_w + 1e-6
            assert placed.y + placed.item.height <= lay.sheet_h + 1e-6


def test_partial_map_hatches_unknown_terrain(game) -> None:
    partial = game.model_copy(
        update={"map": game.map.model_copy(update={"status": MapStatus.PARTIAL, "default_terrain": None})}
    )
    pdf = M.render(partial, BuildOptions(paper="tabloid"))
    flat = _flat(_text(pdf))
    assert "MAP: PARTIAL" in flat
    assert "Terrain unknown" in flat
    assert "?" in flat.split()


def test_without_a_sheet_the_sheet_fits_grid_and_charts(game) -> None:
    loose = game.model_copy(update={"map": game.map.model_copy(update={"sheet": None})})
    lay = M.sheet_layout(loose)
    gw, gh = lay.geometry.extent
    assert lay.sheet_w > gw + 2 * 72
    assert lay.sheet_h >= gh
    assert len(lay.pages) == 1
    assert lay.title_on_map
    pdf = M.render(loose, BuildOptions(paper="letter"))
    assert "Hell's Gate" in _text(pdf)


def test_grid_larger_than_the_sheet_enlarges_it_with_a_note(game) -> None:
    small = game.model_copy(update={"map": game.map.model_copy(update={"sheet": "8x6in"})})
    lay = M.sheet_layout(small)
    gw, gh = lay.geometry.extent
    assert lay.sheet_w >= gw
    assert lay.sheet_h >= gh
    assert lay.sheet_note is not None
    assert "larger than the stated 8x6in sheet" in lay.sheet_note


def _kitchen_sink(game):
    """Hell's Gate plus every pattern, symbol, path and hexside style the renderer knows, VP and setup codes,
    and three mobility classes."""
    d = game.model_dump(mode="python")
    t = d["terrain"]
    for i, (tid, pattern) in enumerate(
        [("marsh", "marsh"), ("hills", "hills"), ("steppe", "dots"), ("rough", "hatch"), ("mountain", "crosshatch"),
         ("lake", "waves"), ("urban", "brick")]
    ):  # fmt: skip
        t[tid] = {"name": tid.capitalize(), "colour": "#c0b090", "pattern": pattern, "rule": f"7.{i + 3}"}
    t["hills"]["movement"] = {"all": "prohibited"}
    t["steppe"]["movement"] = {"all": 1.5}
    t["urban"]["symbol"] = "town"
    for tid in ("town", "village", "fort"):
        t[tid] = {"name": tid.capitalize(), "kind": "feature", "symbol": tid, "colour": "#c0c0c0", "rule": "8.1"}
    for tid in ("major_river", "bridge", "border"):
        t[tid] = {"name": tid.replace("_", " ").capitalize(), "kind": "hexside", "colour": "#2f6fc4", "rule": "8.2"}
    for tid in ("road", "railway", "trail"):
        t[tid] = {"name": tid.capitalize(), "kind": "path", "colour": "#a0522d", "rule": "8.3"}
    h = d["map"]["hexes"]
    h["A3"] = {"terrain": "marsh", "vp": 2, "setup": "A"}
    h["A4"] = {"terrain": "hills", "features": ["fort"], "name": "Fort Hill", "vp": 4, "supply": "german"}
    h["A5"] = {"terrain": "steppe"}
    h["B4"] = {"terrain": "rough", "features": ["town", "village"], "name": "Twin Villages"}
    h["B5"] = {"terrain": "mountain", "setup": "G-3"}
    h["C4"] = {"terrain": "lake"}
    h["D4"] = {"terrain": "urban", "name": "Sprawlburg", "vp": {"unknown": "not given"}}
    h["E4"] = {"features": ["village"], "name": "A very long village name for the test", "reconstructed": True}
    d["map"]["hexsides"] += [
        {"between": ["E4", "E5"], "features": ["major_river", "bridge"]},
        {"between": ["F4", "F5"], "features": ["border"]},
    ]
    d["map"]["paths"] = [
        {"kind": "road", "hexes": ["G1", "F2", "F3", "E3", "E4", "E5"]},
        {"kind": "railway", "hexes": ["G3", "F4", "E4", "D4", "C4"]},
        {"kind": "trail", "hexes": ["G5", "G6", "F6"]},
    ]
    d["game"]["mobility_classes"] = ["foot", "mechanised", "cavalry"]
    d["turns"]["turns"][3]["replacements"] = {"soviet": 2, "german": {"unknown": "not given"}}
    return type(game).model_validate(d)


def test_kitchen_sink(game) -> None:
    sink = _kitchen_sink(game)
    pdf = M.render(sink, BuildOptions(paper="tabloid", greyscale=True))
    flat = _flat(_text(pdf))
    for name in (
        "Fort Hill",
        "Twin Villages",
        "Sprawlburg",
        "2 VP",
        "4 VP",
        "? VP",
        "G-3",
        "Repl.: Soviet 2, German ?",
    ):
        assert name in flat
    for tid, terrain in sink.terrain.items():
        assert terrain.name in flat, tid
    assert "1½" in flat.split()  # steppe: a cost of 1.5 printed as a fraction
    assert "Victory points for the hex" in flat
    assert "Setup code" in flat


def test_doctests() -> None:
    import doctest

    import forge.render.style

    assert doctest.testmod(M).failed == 0
    assert doctest.testmod(forge.render.style).failed == 0


def test_patterns_are_tiles_placed_many_times() -> None:
    """A map-wide hatch is one small periodic tile (a form XObject) placed wherever it is needed: the file stays
    small, and no painted path is long (pdfium stops rasterising one path past a few million cells, which once
    cut the hatch of large partial maps off along a diagonal)."""
    from reportlab.lib.colors import black
    from reportlab.pdfgen.canvas import Canvas

    from forge.render.style import draw_pattern

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(4000, 2400), pageCompression=0, invariant=1)
    draw_pattern(c, [(0, 0), (4000, 0), (4000, 2400), (0, 2400)], "hatch", black, 72)
    c.showPage()
    c.save()
    content = buf.getvalue().decode("latin-1")
    tiles = math.ceil(4000 / 72) * math.ceil(2400 / 72)
    assert content.count(" Do") == tiles
    assert content.count("/Subtype /Form") == 1
    assert len(buf.getvalue()) < 400_000


def test_tiles_of_bare_paper_are_not_printed() -> None:
    """Escape from Hell's Gate states a 22x34 in sheet, but its data draws only the top of it (a partial map and its
    charts): the tiles of bare paper are left out and marked "blank: not printed" on the assembly plan.  A tile
    whose only content lies in the strip it shares with the tile above or to the left is bare too (that tile
    prints it).  Every tile of Hell's Gate's sheet holds map, so all are printed."""
    data = Path(__file__).parent.parent / "data"
    esc = load(data / "escape_from_hells_gate.yaml")
    lay = M.sheet_layout(esc, BuildOptions())
    plan = tiling.plan(lay.sheet_w, lay.sheet_h, *BuildOptions().paper_size())
    g = lay.geometry
    drawn = [tiling.Rect(g.ox, g.oy, *g.grid.extent(g.size))]
    drawn += [tiling.Rect(p.x, p.y, p.w, p.item.height) for p in lay.pages[0].placed]

    def holds_something(t: tiling.Tile) -> bool:
        top = plan.overlap if t.row else 0.0
        left = plan.overlap if t.column else 0.0
        own = tiling.Rect(t.source.x + left, t.source.y + top, t.source.w - left, t.source.h - top)
        return any(own.intersection(r) is not None for r in drawn)

    printed = [t for t in plan.tiles if holds_something(t)]
    assert 0 < len(printed) < len(plan.tiles) == 12
    pdf = pdfium.PdfDocument(M.render(esc, BuildOptions()))
    assembly = pdf[len(pdf) - 1].get_textpage().get_text_range()
    assert len(pdf) == len(printed) + 1  # the tiles that hold something, and the assembly page
    assert assembly.count("blank: not printed") == len(plan.tiles) - len(printed)
    assert f"on {len(printed)} letter pages" in assembly
    hg = pdfium.PdfDocument(M.render(load(data / "hells_gate.yaml"), BuildOptions()))
    assert "blank: not printed" not in hg[len(hg) - 1].get_textpage().get_text_range()


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_registration_marks_cover_no_map_content(paper: str) -> None:
    """Every registration mark (its circle and cross) stands clear of every hex label, of the symbols, names and
    badges of the hexes that have them, and of the charts and title: a mark goes where its strip is clearest, and
    is left out when the strip's other mark is clear and it is not (issue 10: marks covered a turn badge)."""
    from dataclasses import replace

    data = Path(__file__).parent.parent / "data"
    marks = 0
    for path in sorted(data.glob("*.yaml")):
        game = load(path)
        options = replace(BuildOptions(), paper=paper)
        lay = M.sheet_layout(game, options)
        pw, ph = options.paper_size()
        ctx = M._Ctx.build(game, options, {})
        for i in range(len(lay.pages)):
            if tiling.fits(lay.sheet_w, lay.sheet_h, pw, ph):
                continue
            obstacles = M.mark_obstacles(ctx, lay, i)
            for tile in tiling.plan(lay.sheet_w, lay.sheet_h, pw, ph).tiles:
                for strip in tile.strips:
                    points = M.registration_points(strip, obstacles, tile=tile.name)
                    assert 1 <= len(points) <= 2
                    r = strip.rect
                    # the strip's one "overlap — glue under tile N", printed by whichever of its tiles goes under
                    label = M._overlap_label_box(strip, tile.name)
                    for x, y in points:
                        marks += 1
                        assert r.x <= x <= r.x + r.w
                        assert r.y <= y <= r.y + r.h
                        clear = M._clearance(x, y, [*obstacles, label])
                        assert clear >= M.REG_REACH, (path.stem, tile.name, strip.side)
    assert marks > 100


def test_a_large_map_sealed_early_gives_the_same_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A map of more than COMPACT_EVERY hexes joins its operators as it goes (forge.pdf.compact_code) and its
    thumbnail replays the sheet's fills (every form is compressed as it ends, forge.pdf.end_form_sealed, whatever
    its size); a map of ordinary size draws the thumbnail again.  Both must write the same file: here Hell's Gate
    is drawn both ways."""
    game = load(ROOT / "data" / "hells_gate.yaml")
    public = M.render(game, BuildOptions(paper="letter"))
    monkeypatch.setattr(M.grid, "COMPACT_EVERY", 8)
    sealed = M.render(game, BuildOptions(paper="letter"))
    assert sealed == public
