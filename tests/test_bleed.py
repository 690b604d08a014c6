"""The page bleed of a print-shop build: its width (``--page-bleed``), the boxes and crop marks that follow it, and
what the map prints in it (terrain, hex lines, hexside features and roads run on past the trim; nothing inside
the trim moves)."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pypdf
import pypdfium2 as pdfium
import pytest
from conftest import DATA, seed_game
from PIL import Image, ImageChops

from forge.builder import BuildOptions, build, page_bleed, preset_options
from forge.cli import main
from forge.hexgrid import Hexside
from forge.pdf import CROP_MARK_LENGTH, CROP_MARK_OFFSET, PAGE_BLEED, PAGE_BLEED_RANGE, PageFinish, page_finish
from forge.render import map as map_
from forge.tiling import TRIM_SAFE_MARGIN
from forge.units import length

INCH_8 = length("1/8in")  # 9 pt: DriveThruCards' and North American services' bleed
PDFS = ("map", "counters", "cards", "handout")  # every component with pages (the images have none)


def _box(page: Any, name: str) -> tuple[float, float, float, float]:
    return tuple(float(v) for v in page[name])  # type: ignore[return-value]


@pytest.fixture(scope="module")
def eighth(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Hell's Gate built for a North American service: print-shop with a 1/8 in page bleed, and the handout."""
    out = tmp_path_factory.mktemp("eighth")
    options = preset_options("print-shop", only=PDFS, page_bleed=INCH_8)
    build(seed_game("hells_gate"), out, options)
    return out / "hells_gate"


# ------------------------------------------------------------------------------------------------ the width
def test_the_default_page_bleed_is_3mm_and_the_option_is_only_used_with_print_marks() -> None:
    assert page_bleed(preset_options("print-shop")) == pytest.approx(3 * 72 / 25.4)
    assert page_bleed(preset_options("print-shop")) == PAGE_BLEED == page_bleed(BuildOptions(print_marks=True))
    assert page_bleed(preset_options("print-shop", page_bleed=INCH_8)) == 9.0
    assert page_bleed(BuildOptions(page_bleed=INCH_8)) == 0.0  # no print marks: the page is the paper
    assert PAGE_BLEED_RANGE[0] <= PAGE_BLEED < INCH_8 <= PAGE_BLEED_RANGE[1]
    with pytest.raises(ValueError, match="page bleed"):
        page_bleed(BuildOptions(print_marks=True, page_bleed=72.0))
    # The safe zone inside the trim is the cut's tolerance, not the bleed: at least what either service asks.
    assert max(PAGE_BLEED, INCH_8) - 1e-9 <= TRIM_SAFE_MARGIN


def test_the_bleed_box_follows_the_option_on_every_page_of_every_component(eighth: Path) -> None:
    for name in PDFS:
        pages = pypdf.PdfReader(eighth / f"{name}.pdf").pages
        assert len(pages) >= 1
        for i, page in enumerate(pages):
            where = f"{name}.pdf page {i + 1}"
            media, bleed, trim = _box(page, "/MediaBox"), _box(page, "/BleedBox"), _box(page, "/TrimBox")
            widths = [trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3]]
            assert widths == pytest.approx([9.0] * 4, abs=0.001), where
            room = [bleed[0] - media[0], bleed[1] - media[1], media[2] - bleed[2], media[3] - bleed[3]]
            assert room == pytest.approx([CROP_MARK_OFFSET + CROP_MARK_LENGTH] * 4, abs=0.001), where


def _crop_marks(page: Any) -> list[tuple[float, ...]]:
    """The segments of the first stroked path of the page (the crop marks, drawn before anything else)."""
    data = page.get_contents().get_data().decode("latin-1")
    block = re.search(r"q\b(.*?)\bS Q", data, re.S)
    assert block is not None
    nums = re.findall(r"(-?[\d.]+) (-?[\d.]+) m (-?[\d.]+) (-?[\d.]+) l", block.group(1))
    return [tuple(float(v) for v in seg) for seg in nums]


def test_crop_marks_stay_outside_the_wider_bleed_box(eighth: Path) -> None:
    for name in PDFS:
        for page in pypdf.PdfReader(eighth / f"{name}.pdf").pages:
            tx0, ty0, tx1, ty1 = _box(page, "/TrimBox")
            bx0, by0, bx1, by1 = _box(page, "/BleedBox")
            segments = _crop_marks(page)
            assert len(segments) == 8, name
            for x0, y0, x1, y1 in segments:
                if x0 == x1:  # vertical: on a trim line's extension, above or below the bleed box
                    assert min(abs(x0 - tx0), abs(x0 - tx1)) < 1e-3
                    assert max(y0, y1) <= by0 - CROP_MARK_OFFSET + 1e-3 or min(y0, y1) >= by1 + CROP_MARK_OFFSET - 1e-3
                else:
                    assert min(abs(y0 - ty0), abs(y0 - ty1)) < 1e-3
                    assert max(x0, x1) <= bx0 - CROP_MARK_OFFSET + 1e-3 or min(x0, x1) >= bx1 + CROP_MARK_OFFSET - 1e-3


def test_an_explicit_3mm_is_the_default_byte_for_byte() -> None:
    game = seed_game("ferry_point")
    pdfs = []
    for value in (None, length("3mm")):
        options = preset_options("print-shop", page_bleed=value)
        with page_finish(PageFinish(bleed=page_bleed(options))):
            pdfs.append(map_.render(game, options))
    assert pdfs[0] == pdfs[1]


# ------------------------------------------------------------------------------------------------ option errors
@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--preset", "print-shop", "--page-bleed", "0mm"], "greater than zero"),
        (["--preset", "print-shop", "--page-bleed", "3"], "not a length"),
        (["--preset", "print-shop", "--page-bleed", "1in"], "1mm to 1/2in"),
        (["--preset", "print-shop", "--page-bleed", "0.5mm"], "1mm to 1/2in"),
        (["--page-bleed", "1/8in"], "--print-marks"),
        (["--preset", "print-shop", "--no-print-marks", "--page-bleed", "1/8in"], "--no-print-marks was given"),
    ],
)
def test_a_bad_page_bleed_is_one_message_naming_the_option_and_exit_2(
    argv: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    try:
        rc = main(["build", str(DATA / "hells_gate.yaml"), "--out", str(out), *argv])
    except SystemExit as e:  # argparse's own error exit
        rc = e.code if isinstance(e.code, int) else 2
    err = capsys.readouterr().err
    assert rc == 2
    assert "--page-bleed" in err, err
    assert says in err, err
    assert "Traceback" not in err
    assert not out.exists()  # nothing written


# ------------------------------------------------------------------------------------------------ the map's bleed
class _Page:
    """A rendered finished page, sampled in its trim's coordinates (points, y down from the trim's top)."""

    def __init__(self, pdf: bytes, scale: float, n: int = 0) -> None:
        page = pdfium.PdfDocument(pdf)[n]
        self.scale, self.h = scale, page.get_size()[1]
        self.trim, self.bleed = page.get_trimbox(), page.get_bleedbox()
        self.img: Image.Image = page.render(scale=scale).to_pil().convert("RGB")

    def px(self, x: float, y: float) -> tuple[int, int, int]:
        tx0, ty1 = self.trim[0], self.trim[3]
        return self.img.getpixel((int((tx0 + x) * self.scale), int((self.h - ty1 + y) * self.scale)))  # type: ignore[return-value]

    def darkest(self, x: float, y: float, axis: int, reach: float = 1.0) -> int:
        """The darkest grey level within ``reach`` points of (x, y) along ``axis`` (0: x)."""
        steps = [k / self.scale for k in range(-int(reach * self.scale), int(reach * self.scale) + 1)]
        pts = [(x + d, y) if axis == 0 else (x, y + d) for d in steps]
        return min(sum(self.px(*p)) // 3 for p in pts)


def test_the_tabletop_maps_bleed_carries_its_grid_lines_and_fills_its_corners() -> None:
    """The 6 x 6 squares fill the sheet: every line between two squares meets the trim and runs on across the
    bleed band (dark where the line is, terrain beside it), and the band's corners are terrain too (they were
    white: two strips of one terrain overlapping there cancelled out under the even-odd fill)."""
    game = seed_game("tabletop_hells_gate")
    options = preset_options("print-shop")
    with page_finish(PageFinish(bleed=PAGE_BLEED)):
        page = _Page(map_.render(game, options), 2.0)
    cell = length(game.map.hex_size)
    w = page.trim[2] - page.trim[0]
    b = PAGE_BLEED
    for k in range(1, 6):
        v = k * cell
        for x, y, axis in ((v, -b / 2, 0), (v, w + b / 2, 0), (-b / 2, v, 1), (w + b / 2, v, 1)):
            # 2 pt inside the trim from the same edge: the line there
            ix = x if axis == 0 else min(max(x, 2.0), w - 2.0)
            iy = y if axis == 1 else min(max(y, 2.0), w - 2.0)
            assert page.darkest(ix, iy, axis) < 150, (k, "trim")
            assert page.darkest(x, y, axis) < 150, (k, x, y)  # and its continuation in the bleed
            bx, by = (x + cell / 3, y) if axis == 0 else (x, y + cell / 3)
            assert page.darkest(bx, by, axis, 0.3) > 150, (k, "terrain beside the line")
    for x in (-b / 2, w + b / 2):
        for y in (-b / 2, w + b / 2):
            assert sum(page.px(x, y)) // 3 < 250, ("corner", x, y)


@pytest.fixture(scope="module")
def cut_map(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Hell's Gate with a road F3-F2-F1 and a river between G1 and G2, its grid placed so that the trim cuts it
    on every side: F1's centre lies 0.05 hex past the left trim, in the bleed, and the top row's hexes poke out
    across the top trim, the hexsides between them ending 2 pt past it.  Rendered with a 1/8 in page bleed, and
    without one (the page is the trim)."""
    text = (DATA / "hells_gate.yaml").read_text(encoding="utf-8")
    road = (
        '  road:\n    name: Road\n    kind: path\n    colour: "#d03020"\n    movement: {all: 1}\n'
        '    combat: {text: "No effect"}\n    rule: "7.2"\n'
    )
    text = text.replace("\nterrain:\n", "\nterrain:\n" + road, 1)
    text = text.replace(
        "  hexsides:\n",
        "  paths:\n    - {kind: road, hexes: [F3, F2, F1]}\n  hexsides:\n"
        "    - {between: [G1, G2], features: [river]}\n",
        1,
    )
    path = tmp_path_factory.mktemp("cut") / "cut.yaml"
    path.write_text(text, encoding="utf-8")
    from forge.loader import load

    game = load(path)
    options = preset_options("print-shop")
    home = map_.sheet_layout(game, options)
    size = home.geometry.size
    radius = size / math.sqrt(3)
    geom = map_.MapGeometry(home.geometry.grid, size, -0.55 * size, -radius / 2 - 2.0)
    lay = map_.MapLayout(5 * size, 4.5 * size, geom, [map_.SheetPage("map")], title_on_map=True)
    pdfs = {}
    original = map_.pages.sheet_layout  # what render() lays the sheet out with
    try:
        map_.pages.sheet_layout = lambda *a, **k: lay
        for name, bleed in (("trim", 0.0), ("bleed", INCH_8)):
            with page_finish(PageFinish(bleed=bleed)):
                pdfs[name] = map_.render(game, options)
    finally:
        map_.pages.sheet_layout = original
    return {"game": game, "lay": lay, **pdfs}


def test_roads_rivers_and_hex_lines_run_on_into_the_bleed(cut_map: dict[str, Any]) -> None:
    lay, game = cut_map["lay"], cut_map["game"]
    geom, grid = lay.geometry, lay.geometry.grid
    page = _Page(cut_map["bleed"], 4.0)
    # The road ends at F1's centre, past the left trim, heading out: it runs on to the bleed's edge in its colour.
    fx, fy = geom.center(grid.parse("F1"))
    assert -INCH_8 < fx < 0
    r, g, b = page.px(-INCH_8 + 0.5, fy)
    assert r > 150, (r, g, b)  # the road's red, half a point from the bleed's edge
    assert max(g, b) < 110, (r, g, b)
    # The river between G1 and G2 crosses the top trim and ends 2 pt past it; it runs on across the band.
    top = map_._trim_edges(lay.sheet_w, lay.sheet_h, INCH_8)[0]
    seg = geom.side_segment(Hexside.between(grid.parse("G1"), grid.parse("G2")))
    cross = map_._trim_crossing(seg[0], seg[1], top)
    assert cross is not None
    assert min(seg[0][1], seg[1][1]) == pytest.approx(-2.0)
    r, g, b = page.px(cross[0], -INCH_8 + 0.5)
    assert b > 150, (r, g, b)  # the river's blue
    assert r < 120, (r, g, b)
    # Every other hex line that crosses the top trim (G2-G3, G3-G4 ...) runs on to the bleed's edge too.
    spans = map_._bleed_spans(geom, lay.sheet_w, lay.sheet_h, INCH_8)
    sides = [v for k, v in map_._bleed_sides(spans, map_._trim_edges(lay.sheet_w, lay.sheet_h, INCH_8)) if k == 0]
    assert len(sides) >= 4
    for v in sides:
        beside = sum(page.px(v + 3, -INCH_8 + 0.5)) // 3
        if abs(v - cross[0]) > 3:
            assert page.darkest(v, -INCH_8 + 0.5, 0) < beside - 60, v
        assert beside > 200, v  # the terrain either side of the line (clear), not the line's ink
    assert game.map.paths
    assert game.map.hexsides


def test_nothing_inside_the_trim_moves(cut_map: dict[str, Any]) -> None:
    """The trim of the page with a bleed renders the same pixels as the page without one, to antialiasing's
    rounding (whole pixels apart: the 1/8 in bleed puts the trim 30 pt into the page, 120 px at 4x)."""
    with_bleed, without = _Page(cut_map["bleed"], 4.0), _Page(cut_map["trim"], 4.0)
    w, h = without.img.size
    m = round((with_bleed.trim[0]) * 4.0)
    assert m == 120
    inner = with_bleed.img.crop((m + 2, m + 2, m + w - 2, m + h - 2))
    diff = ImageChops.difference(inner, without.img.crop((2, 2, w - 2, h - 2)))
    assert max(diff.tobytes()) <= 3  # antialiasing's rounding at most: nothing moved
    # while the bleed band itself is drawn: the road, the river, the lines and the terrain past the trim
    band = with_bleed.img.crop((m - 30, m + 2, m - 6, m + h - 2))
    assert min(band.convert("L").tobytes()) < 100
