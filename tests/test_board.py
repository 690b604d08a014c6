"""``forge build --only board``: the map's sheets as 300 dpi PNG images.

Properties:
- one image per page of the map drawn whole, never under 300 dpi at its printed size (and less than a pixel over),
  RGB, its resolution recorded in the file;
- the same pixels as ``map.pdf`` printed whole (one drawing: the board cannot differ from the PDF);
- with print marks, the image is the bleed box: the page bleed's terrain is in it, the crop marks are not;
- the same bytes on a rebuild; a sheet too large for an image is refused before anything is drawn, at the value
  that makes it so, with exit status 2 and nothing written.
"""

from __future__ import annotations

import io
import math
from functools import cache
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from conftest import DATA
from PIL import Image

from forge.builder import BuildOptions, build
from forge.cli import main
from forge.loader import load
from forge.render import board


@cache
def game(name: str):  # type: ignore[no-untyped-def]
    return load(DATA / f"{name}.yaml")


def _pages(pdf: bytes) -> list[tuple[float, float, float, float]]:
    doc = pdfium.PdfDocument(pdf)
    try:
        return [tuple(doc[i].get_bleedbox()) for i in range(len(doc))]  # type: ignore[misc]
    finally:
        doc.close()


def test_one_image_per_sheet_at_300_dpi_the_same_pixels_as_the_pdf(tmp_path: Path) -> None:
    g = game("hells_gate")
    files = board.render(g, BuildOptions(only=("board",)))
    from forge.render import map as map_

    pdf = map_.render(g, BuildOptions(tile=False))
    boxes = _pages(pdf)
    assert sorted(files) == [f"map-{n + 1}.png" for n in range(len(boxes))]
    doc = pdfium.PdfDocument(pdf)
    for n, (x0, y0, x1, y1) in enumerate(boxes):
        im = Image.open(io.BytesIO(files[f"map-{n + 1}.png"]))
        assert im.mode == "RGB"
        assert im.info["dpi"] == pytest.approx((300, 300), abs=0.01)
        w_in, h_in = (x1 - x0) / 72, (y1 - y0) / 72
        assert im.size == (math.ceil(w_in * 300 - 1e-6), math.ceil(h_in * 300 - 1e-6))
        assert im.size[0] / w_in >= 300
        again = doc[n].render(scale=im.size[0] / (x1 - x0)).to_pil().convert("RGB").crop((0, 0, *im.size))
        assert again.tobytes() == im.tobytes()
    doc.close()


def test_with_print_marks_the_image_is_the_bleed_box_without_the_marks(tmp_path: Path) -> None:
    g = game("tabletop_hells_gate")  # a square grid: terrain reaches the trim on all four sides
    opts = BuildOptions(only=("board",), print_marks=True, page_bleed=9.0)
    files = board.render(g, opts)
    from forge.builder import page_bleed
    from forge.pdf import PageFinish, page_finish
    from forge.render import map as map_

    with page_finish(PageFinish(bleed=page_bleed(opts))):
        pdf = map_.render(g, BuildOptions(tile=False, print_marks=True, page_bleed=9.0))
    (x0, y0, x1, y1), *_ = _pages(pdf)
    im = Image.open(io.BytesIO(files["map-1.png"]))
    assert im.size == (math.ceil((x1 - x0) / 72 * 300 - 1e-6), math.ceil((y1 - y0) / 72 * 300 - 1e-6))
    grey = im.convert("L")
    w, h = grey.size
    for x, y in ((2, 2), (w - 3, 2), (2, h - 3), (w - 3, h - 3), (w // 2, 2), (2, h // 2)):
        assert grey.getpixel((x, y)) < 250, f"white paper at ({x}, {y}): the bleed holds no terrain"  # type: ignore[operator]


def test_a_rebuild_gives_the_same_bytes(tmp_path: Path) -> None:
    g = game("ferry_point")
    a = build(g, tmp_path / "a", BuildOptions(only=("board",)))
    b = build(g, tmp_path / "b", BuildOptions(only=("board",)))
    assert [p.read_bytes() for p in a] == [p.read_bytes() for p in b]
    assert [p.name for p in a] == ["map-1.png", "map-2.png"]  # the grid's sheet, then the charts' sheet


def test_a_sheet_too_large_for_an_image_is_refused_where_it_is_stated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (DATA / "ferry_point.yaml").read_text("utf-8")
    big = text.replace("  sheet: 11x8.5in\n", "  sheet: 60x40in\n", 1)
    assert "sheet: 60x40in" in big
    f = tmp_path / "big.yaml"
    f.write_text(big, "utf-8")
    out = tmp_path / "out"
    # in this process (the message and the exit status are the point; an escaping exception fails the test)
    rc = main(["build", str(f), "--only", "board", "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 2, err
    line = next(i for i, ln in enumerate(big.splitlines(), 1) if "sheet: 60x40in" in ln)
    assert f"big.yaml:{line}:" in err
    assert "pixels at 300 dpi, more than the 80,000,000 a board image may have" in err
    assert "Traceback" not in err
    assert not out.exists()
