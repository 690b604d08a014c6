"""`forge build --preset`: home changes nothing, print-shop meets docs/PRINTING.md's requirements, greyscale-laser
prints with black toner only.  Every requirement is read back from the files the build wrote (pypdf for the page
boxes, fonts and transparency, pypdfium2 for the crop marks' pixels, Pillow for the images)."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pypdf
import pypdfium2 as pdfium
import pytest
from conftest import DATA
from PIL import Image

from forge.builder import PRESETS, BuildOptions, build, preset_options
from forge.cli import build_parser
from forge.loader import load
from forge.render.counters import render as render_counters
from forge.pdf import CROP_MARK_LENGTH, CROP_MARK_OFFSET, PAGE_BLEED, new_canvas
from forge.units import length

MM = 72 / 25.4
PDFS = ("map", "counters", "cards")


@pytest.fixture(scope="module")
def print_shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("print_shop")
    build(load(DATA / "hells_gate.yaml"), out, preset_options("print-shop"))
    return out / "hells_gate"


@pytest.fixture(scope="module")
def laser(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("laser")
    build(load(DATA / "hells_gate.yaml"), out, preset_options("greyscale-laser"))
    return out / "hells_gate"


def _box(page: Any, name: str) -> tuple[float, float, float, float]:
    return tuple(float(v) for v in page[name])  # type: ignore[return-value]


def _inside(inner: tuple[float, ...], outer: tuple[float, ...], tol: float = 1e-3) -> bool:
    return (
        inner[0] >= outer[0] - tol
        and inner[1] >= outer[1] - tol
        and inner[2] <= outer[2] + tol
        and inner[3] <= outer[3] + tol
    )


# ------------------------------------------------------------------------------------------------ presets
def test_home_is_every_options_own_default() -> None:
    """`--preset home` (the default) is BuildOptions(): today's output, byte for byte (the golden and rebuild tests
    pin those bytes), and a canvas made outside a build is reportlab's own, unfinished."""
    assert PRESETS["home"] == {}
    assert preset_options("home") == BuildOptions()
    assert type(new_canvas(io.BytesIO(), (100, 100))).__name__ == "Canvas"


def test_an_explicit_option_wins_over_the_preset() -> None:
    parser = build_parser()
    args = parser.parse_args(["build", "--preset", "print-shop", "--no-bleed", "--only", "cards", "x.yaml"])
    assert (args.preset, args.bleed, args.only, args.print_marks) == ("print-shop", False, ("cards",), None)
    opts = preset_options("print-shop", bleed=args.bleed, only=args.only, print_marks=args.print_marks)
    assert (opts.bleed, opts.only, opts.print_marks, opts.tile) == (False, ("cards",), True, False)
    assert preset_options("greyscale-laser", greyscale=False).greyscale is False
    with pytest.raises(ValueError, match="unknown preset"):
        preset_options("offset")


# ------------------------------------------------------------------------------------------------ print-shop
def test_print_shop_writes_one_component_per_file(print_shop: Path) -> None:
    """Map, counters and cards each in their own PDF, every counter face in its own image; no handout (it binds
    several components into one file)."""
    names = sorted(p.name for p in print_shop.iterdir())
    assert names == [".hexforge-manifest.json", "cards.pdf", "counters.pdf", "images", "map.pdf"]
    for name in PDFS:
        title = pypdf.PdfReader(print_shop / f"{name}.pdf").metadata.title
        assert title.split(": ")[-1].split(" — ")[-1] in ("map", "counters", "reference cards"), title


def test_every_page_has_trim_inside_bleed_inside_media_with_3mm_bleed(print_shop: Path) -> None:
    assert pytest.approx(3 * MM) == PAGE_BLEED
    for name in PDFS:
        reader = pypdf.PdfReader(print_shop / f"{name}.pdf")
        for i, page in enumerate(reader.pages):
            where = f"{name}.pdf page {i + 1}"
            assert "/TrimBox" in page, where
            assert "/BleedBox" in page, where
            media, bleed, trim = _box(page, "/MediaBox"), _box(page, "/BleedBox"), _box(page, "/TrimBox")
            assert _inside(trim, bleed), where
            assert _inside(bleed, media), where
            widths = [trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3]]
            assert widths == pytest.approx([8.504] * 4, abs=0.001), where  # 3 mm
            # the media holds the marks beyond the bleed: the gap and the marks' length on every side
            room = [bleed[0] - media[0], bleed[1] - media[1], media[2] - bleed[2], media[3] - bleed[3]]
            assert room == pytest.approx([CROP_MARK_OFFSET + CROP_MARK_LENGTH] * 4, abs=0.01), where


def test_the_trim_is_the_page_as_designed(print_shop: Path) -> None:
    """Counters trim to the paper (letter), each reference card to its own size (one card a page), the map to its
    sheet, whole (17 x 11 in, never tiled)."""
    from forge.render.cards import single_card_size

    letter = (8.5 * 72, 11 * 72)
    card = single_card_size(preset_options("print-shop"))
    for name, size in (("counters", letter), ("cards", card), ("map", (17 * 72, 11 * 72))):
        for page in pypdf.PdfReader(print_shop / f"{name}.pdf").pages:
            x0, y0, x1, y1 = _box(page, "/TrimBox")
            assert (x1 - x0, y1 - y0) == pytest.approx(size, abs=0.01), name


def _crop_mark_segments(page: Any) -> list[tuple[float, float, float, float]]:
    data = page.get_contents().get_data().decode("latin-1")
    marks = re.findall(r"q 1 1 1 1 K [\d.]+ w 0 J \[\] 0 d (.*?) S Q", data)
    assert len(marks) == 1
    nums = [float(v) for v in re.findall(r"(-?[\d.]+) (-?[\d.]+) m (-?[\d.]+) (-?[\d.]+) l", marks[0]) for v in v]
    return [tuple(nums[i : i + 4]) for i in range(0, len(nums), 4)]  # type: ignore[misc]


def test_crop_marks_lie_outside_the_bleed_on_the_trim_lines(print_shop: Path) -> None:
    """Eight marks a page, each on the extension of a trim edge, wholly outside the bleed box (print marks may not
    reach the bleed), and in registration colour so that every separation carries them."""
    for name in PDFS:
        for page in pypdf.PdfReader(print_shop / f"{name}.pdf").pages:
            tx0, ty0, tx1, ty1 = _box(page, "/TrimBox")
            bx0, by0, bx1, by1 = _box(page, "/BleedBox")
            segments = _crop_mark_segments(page)
            assert len(segments) == 8
            for x0, y0, x1, y1 in segments:
                vertical = x0 == x1
                on = (x0, (tx0, tx1)) if vertical else (y0, (ty0, ty1))
                assert min(abs(on[0] - t) for t in on[1]) < 0.001, (x0, y0, x1, y1)
                if vertical:
                    assert max(y0, y1) <= by0 - CROP_MARK_OFFSET + 1e-3 or min(y0, y1) >= by1 + CROP_MARK_OFFSET - 1e-3
                else:
                    assert max(x0, x1) <= bx0 - CROP_MARK_OFFSET + 1e-3 or min(x0, x1) >= bx1 + CROP_MARK_OFFSET - 1e-3


def test_crop_marks_print(print_shop: Path) -> None:
    """The marks are really drawn: dark pixels on the trim line's extension beyond the bleed, white between."""
    pdf = pdfium.PdfDocument(print_shop / "counters.pdf")
    page = pdf[0]
    scale = 4.0
    img = page.render(scale=scale).to_pil().convert("L")
    tx0 = pypdf.PdfReader(print_shop / "counters.pdf").pages[0]["/TrimBox"][0]
    x = round(float(tx0) * scale)
    h = img.height
    mark = [img.getpixel((x + dx, h - 1 - round(CROP_MARK_LENGTH / 2 * scale))) for dx in (-1, 0, 1)]
    assert min(mark) < 128  # the lower left vertical mark
    gap = img.getpixel((x, h - 1 - round((CROP_MARK_LENGTH + CROP_MARK_OFFSET / 2) * scale)))
    assert gap > 240  # the gap between the mark and the bleed box is clear


def _fonts(resources: Any) -> list[Any]:
    found = []
    if resources is None:
        return found
    resources = resources.get_object()
    for font in (resources.get("/Font") or {}).values():
        found.append(font.get_object())
    for xobj in (resources.get("/XObject") or {}).values():
        xobj = xobj.get_object()
        if xobj.get("/Subtype") == "/Form":
            found.extend(_fonts(xobj.get("/Resources")))
    return found


def test_all_fonts_are_embedded(print_shop: Path) -> None:
    for name in PDFS:
        fonts = []
        for page in pypdf.PdfReader(print_shop / f"{name}.pdf").pages:
            fonts.extend(_fonts(page.get("/Resources")))
        assert fonts, name
        for font in fonts:
            descendants = font.get("/DescendantFonts")
            face = descendants[0].get_object() if descendants else font
            descriptor = face["/FontDescriptor"].get_object()
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), (name, font["/BaseFont"])


def test_no_transparency_in_the_print_shop_pdfs(print_shop: Path) -> None:
    """PDF/X-1a (DriveThruCards, many offset printers) forbids transparency: no soft masks, no constant alpha
    below 1, no blend mode but Normal, and no image with an alpha channel.  (A tiled map's overlap strips are
    translucent; print-shop prints the map's sheets whole.)"""
    for name in PDFS:
        raw = (print_shop / f"{name}.pdf").read_bytes()
        reader = pypdf.PdfReader(io.BytesIO(raw))
        for page in reader.pages:
            resources = page["/Resources"].get_object()
            for gs in (resources.get("/ExtGState") or {}).values():
                gs = gs.get_object()
                assert float(gs.get("/ca", 1)) == 1, name
                assert float(gs.get("/CA", 1)) == 1, name
                assert gs.get("/SMask", "/None") == "/None", name
                assert gs.get("/BM", "/Normal") in ("/Normal", "/Compatible"), name
        assert b"/SMask" not in raw, name


def test_counter_images_are_300_dpi_at_print_size_with_bleed(print_shop: Path) -> None:
    """Every counter face as its own PNG: at least 300 pixels per inch of the printed size, 1/8 in of bleed past
    the 5/8 in trim on every side, no alpha channel."""
    pngs = sorted((print_shop / "images").glob("*.png"))
    assert pngs
    printed_in = (length("5/8in") + 2 * length("1/8in")) / 72
    for path in pngs:
        with Image.open(path) as img:
            assert img.mode == "RGB", path.name
            assert img.width == img.height, path.name
            assert img.width / printed_in >= 300, (path.name, img.width)
            assert img.info["dpi"][0] == pytest.approx(300, abs=0.01)


def test_the_map_runs_into_the_page_bleed() -> None:
    """Where the map's art reaches the trim, it runs on across the 3 mm bleed (a cut that drifts outward shows no
    white sliver): the tabletop map's squares fill its sheet, so its bleed band is terrain on all four sides, and
    its charts sheet, white paper at the trim, keeps a white bleed."""
    from forge.pdf import PageFinish, page_finish
    from forge.render import map as map_

    with page_finish(PageFinish(bleed=PAGE_BLEED)):
        pdf = map_.render(load(DATA / "tabletop_hells_gate.yaml"), preset_options("print-shop"))
    doc = pdfium.PdfDocument(pdf)
    scale = 0.5
    for n, least_ink in ((0, 0.95), (1, 0.0)):
        page = doc[n]
        h = page.get_size()[1]
        img = page.render(scale=scale).to_pil().convert("L")
        tx0, ty0, tx1, ty1 = page.get_trimbox()
        bx0, by0, bx1, by1 = page.get_bleedbox()

        def px(x: float, y: float, img: Any = img, h: float = h) -> int:
            return int(img.getpixel((int(x * scale), int((h - y) * scale))))

        # The band between bleed box and trim box, sampled 1 pt inside both, along every side.
        band = [(x, y) for x in range(int(bx0) + 1, int(bx1) - 1, 3) for y in (by0 + 1, ty0 - 1, ty1 + 1, by1 - 1)]
        band += [(x, y) for y in range(int(by0) + 1, int(by1) - 1, 3) for x in (bx0 + 1, tx0 - 1, tx1 + 1, bx1 - 1)]
        inked = sum(px(x, y) < 250 for x, y in band) / len(band)
        assert inked >= least_ink, (n, inked)
        if least_ink == 0.0:
            assert inked == 0.0  # paper continues as paper


def test_print_shop_counters_have_no_calibration_pages(print_shop: Path) -> None:
    """The duplex calibration sheet is for a home printer's --back-offset: a print shop would print it as two
    pages of the product.  Print-shop's counters.pdf begins with the first sheet of fronts; home keeps the sheet,
    and an explicit --calibration-page wins over the preset."""
    shop = [p.extract_text() for p in pypdf.PdfReader(print_shop / "counters.pdf").pages]
    assert not any("calibration" in t.lower() for t in shop)
    home_pdf = render_counters(load(DATA / "hells_gate.yaml"), BuildOptions(only=("counters",)))
    home = pypdf.PdfReader(io.BytesIO(home_pdf))
    assert len(home.pages) == len(shop) + 2
    assert "Duplex calibration: FRONT" in home.pages[0].extract_text()
    assert preset_options("print-shop", calibration=True).calibration
    args = build_parser().parse_args(["build", "--preset", "print-shop", "--calibration-page", "x.yaml"])
    assert args.calibration_page is True


def test_counter_sheets_have_bleed(print_shop: Path) -> None:
    """Each counter's colour runs 1/8 in past its trim on the sheets too (the preset turns on --bleed)."""
    assert preset_options("print-shop").bleed


# ------------------------------------------------------------------------------------------------ greyscale-laser
def test_greyscale_laser_writes_grey_levels_only_and_no_print_marks(laser: Path) -> None:
    """Every colour is a DeviceGray level (g / G), never RGB or CMYK: a colour laser prints it with black toner
    alone.  No bleed, no crop marks: the page is the paper."""
    for name in PDFS:
        for page in pypdf.PdfReader(laser / f"{name}.pdf").pages:
            assert "/TrimBox" not in page
            assert "/BleedBox" not in page
            streams = [page.get_contents().get_data()]
            for xobj in (page["/Resources"].get_object().get("/XObject") or {}).values():
                streams.append(xobj.get_object().get_data())
            for data in streams:
                ops = set(re.findall(rb"(?<![\w/])(rg|RG|k|K|g|G)(?=\s)", data))
                assert ops <= {b"g", b"G"}, (name, ops)
                assert b"g" in ops or b"G" in ops or not data.strip()


def test_counter_sheets_on_a_card_printers_12_by_18_sheet(tmp_path: Path) -> None:
    """Print & Play Games prints card and counter sheets on 12 x 18 in (docs/PRINTING.md): ``--paper arch-b``
    trims every counter page to that sheet, with more counters to a sheet than letter, fronts and backs alternating."""
    game = load(DATA / "ukraine_43.yaml")
    sheets = {}
    for paper in ("letter", "arch-b"):
        build(game, tmp_path / paper, preset_options("print-shop", paper=paper, only=("counters",)))
        sheets[paper] = pypdf.PdfReader(tmp_path / paper / "ukraine_43" / "counters.pdf").pages
    for page in sheets["arch-b"]:
        x0, y0, x1, y1 = _box(page, "/TrimBox")
        assert (x1 - x0, y1 - y0) == pytest.approx((12 * 72, 18 * 72), abs=0.01)
    assert len(sheets["arch-b"]) < len(sheets["letter"])  # Ukraine '43: one sheet instead of two
    sides = [p.extract_text().split("\n")[0] for p in sheets["arch-b"]]
    assert ["FRONTS" in t for t in sides] == [i % 2 == 0 for i in range(len(sides))], sides
