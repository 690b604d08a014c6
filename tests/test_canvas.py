"""forge.canvas: the y-down Canvas protocol and its PDF (reportlab) and SVG (svgwrite) backends.

Properties: both backends put the same primitive in the same place (y down, clockwise rotation), so a drawing
rasterised from the PDF (pypdfium2) and from the SVG (cairosvg) look alike; SVG output is well-formed,
sized in points, deterministic, with sequential ids; colours are validated.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import xml.etree.ElementTree as ET
from collections.abc import Callable

import cairosvg
import pypdf
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageStat

import forge.canvas
import forge.pdf
from forge.canvas import Box, Canvas, Path, PdfCanvas, Recorder, SvgCanvas
from forge.pdf import FONT, FONT_BOLD, FONT_ITALIC, render_pdf

SVG = "{http://www.w3.org/2000/svg}"
W, H = 120.0, 80.0


def pdf_image(draw: Callable[[Canvas], None], w: float = W, h: float = H, dpi: float = 72) -> Image.Image:
    pdf = render_pdf((w, h), lambda c: draw(PdfCanvas(c, top=h)))
    return pdfium.PdfDocument(pdf)[0].render(scale=dpi / 72).to_pil().convert("L")


def svg_bytes(draw: Callable[[Canvas], None], w: float = W, h: float = H) -> bytes:
    c = SvgCanvas(w, h)
    draw(c)
    return c.tobytes()


def svg_image(draw: Callable[[Canvas], None], w: float = W, h: float = H, dpi: float = 72) -> Image.Image:
    png = cairosvg.svg2png(
        bytestring=svg_bytes(draw, w, h), output_width=round(w * dpi / 72), output_height=round(h * dpi / 72)
    )
    return Image.open(io.BytesIO(png)).convert("L")


def svg_on_white(draw: Callable[[Canvas], None], dpi: float = 72) -> Image.Image:
    """cairosvg leaves unpainted pixels transparent; a PDF page is white."""

    def with_paper(c: Canvas) -> None:
        c.rect(0, 0, W, H, fill="#ffffff")
        draw(c)

    return svg_image(with_paper, dpi=dpi)


def mean_diff(a: Image.Image, b: Image.Image) -> float:
    assert a.size == b.size
    return float(ImageStat.Stat(ImageChops.difference(a, b)).mean[0])


def test_doctests() -> None:
    assert doctest.testmod(forge.canvas).failed == 0


def test_both_backends_implement_the_protocol() -> None:
    members = [n for n in vars(Canvas) if not n.startswith("_")]
    assert {
        "save",
        "restore",
        "translate",
        "rotate",
        "rect",
        "line",
        "polyline",
        "polygon",
        "circle",
        "ellipse",
        "rounded_rect",
        "text",
        "path",
        "clip_rect",
        "saved",
    } <= set(members)
    for cls in (PdfCanvas, SvgCanvas):
        for name in members:
            assert callable(getattr(cls, name, None)), f"{cls.__name__}.{name}"


def test_y_down_rect_lands_in_the_same_pixels() -> None:
    """A black rectangle at y-down (10, 10) is near the top of the page in both backends."""

    def draw(c: Canvas) -> None:
        c.rect(10, 10, 20, 5, fill="#000000")

    for img in (pdf_image(draw), svg_on_white(draw)):
        assert img.getpixel((20, 12)) < 30
        assert img.getpixel((20, 30)) > 225  # where a y-up backend would have drawn nothing either
        assert img.getpixel((20, int(H) - 12)) > 225  # ... and not at the bottom


def test_rotation_is_clockwise_on_the_page() -> None:
    """After translate(60, 40) and rotate(90) the x axis points down the page."""

    def draw(c: Canvas) -> None:
        with c.saved():
            c.translate(60, 40)
            c.rotate(90)
            c.rect(0, -2, 30, 4, fill="#000000")

    for img in (pdf_image(draw), svg_on_white(draw)):
        assert img.getpixel((60, 60)) < 30  # 20 pt below the origin
        assert img.getpixel((80, 40)) > 225  # not to its right
        assert img.getpixel((60, 20)) > 225  # not above


def test_text_position_and_direction_in_the_pdf() -> None:
    def draw(c: Canvas) -> None:
        c.text(10, 20, "Korsun", size=9, font=FONT_BOLD)
        with c.saved():
            c.translate(60, 40)
            c.rotate(180)
            c.text(0, 0, "upside", size=9)

    pdf = render_pdf((W, H), lambda c: draw(PdfCanvas(c, top=H)))
    seen: dict[str, tuple[float, float, float]] = {}

    def visit(text: str, cm: list[float], tm: list[float], fd: object, fs: float) -> None:
        if text.strip():
            a, b, _, _, e, f = (float(v) for v in tm)
            ca, cb, cc, cd, ce, cf = (float(v) for v in cm)
            seen[text.strip()] = (e * ca + f * cc + ce, e * cb + f * cd + cf, a * ca + b * cc)

    pypdf.PdfReader(io.BytesIO(pdf)).pages[0].extract_text(visitor_text=visit)
    x, y, _ = seen["Korsun"]
    assert (x, y) == pytest.approx((10, H - 20), abs=0.01)  # reportlab y-up
    x, y, ux = seen["upside"]
    assert (x, y) == pytest.approx((60, H - 40), abs=0.01)
    assert ux < 0  # drawn right to left


def test_backends_look_alike() -> None:
    """Every primitive, drawn by both backends, rasterises to nearly the same picture."""

    def draw(c: Canvas) -> None:
        c.rect(0, 0, W, H, fill="#ffffff")
        c.rect(4, 4, 30, 20, fill="#c8102e", stroke="#000000", width=1.5)
        c.rounded_rect(40, 4, 30, 20, 5, fill="#2f6fc4")
        c.line(76, 4, 116, 24, stroke="#000000", width=2)
        c.line(76, 24, 116, 4, stroke="#000000", width=1, dash=[3, 2])
        c.polyline([(4, 30), (20, 46), (36, 30)], stroke="#1a1a1a", width=2)
        c.polygon([(40, 46), (55, 30), (70, 46)], fill="#9aa08c", stroke="#000000", width=1)
        c.circle(90, 38, 8, fill="#000000")
        c.ellipse(108, 38, 8, 5, stroke="#000000", width=1.5)
        c.path(Path().move_to(4, 60).curve_to(20, 50, 30, 70, 44, 60).close(), fill="#efe6c8", stroke="#000000")
        with c.saved():
            c.clip_rect(50, 52, 20, 20)
            c.circle(60, 62, 14, fill="#555555")  # clipped to a square
        with c.saved():
            c.translate(95, 64)
            c.rotate(30)
            c.text(0, 0, "29", size=12, font=FONT_BOLD, anchor="middle")
        c.text(116, 78, "end", size=7, font=FONT_ITALIC, anchor="end")
        c.text(2, 78, "start", size=7, font=FONT)

    a, b = pdf_image(draw, dpi=144), svg_image(draw, dpi=144)  # 144 dpi: whole pixels in both
    assert mean_diff(a, b) < 2.0
    # The clip held: the corner of the clip square is painted, outside it is not.
    for img in (a, b):
        k = 2
        assert img.getpixel((round(51 * k), round(53 * k))) < 120
        assert img.getpixel((round(60 * k), round(50 * k))) > 225


def test_svg_is_well_formed_and_sized_in_points() -> None:
    svg = svg_bytes(lambda c: c.text(5, 10, "A & <B>", size=8))
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == "0 0 120 80"
    assert (root.get("width"), root.get("height")) == ("120pt", "80pt")
    text = root.find(f".//{SVG}text")
    assert text is not None
    assert text.text == "A & <B>"
    assert "Bitstream Vera Sans" in (text.get("font-family") or "")


def test_svg_text_fonts_and_anchors() -> None:
    def draw(c: Canvas) -> None:
        c.text(1, 1, "r", size=5)
        c.text(1, 1, "b", size=5, font=FONT_BOLD, anchor="middle")
        c.text(1, 1, "i", size=5, font=FONT_ITALIC, anchor="end", fill="#C8102E")

    r, b, i = ET.fromstring(svg_bytes(draw)).iter(f"{SVG}text")
    assert r.get("font-weight") is None
    assert r.get("text-anchor") is None
    assert (b.get("font-weight"), b.get("text-anchor")) == ("bold", "middle")
    assert (i.get("font-style"), i.get("text-anchor"), i.get("fill")) == ("italic", "end", "#c8102e")


def test_svg_ids_are_sequential_and_prefixed() -> None:
    def draw(c: Canvas) -> None:
        for k in range(3):
            with c.saved():
                c.clip_rect(k, k, 5, 5)
                c.rect(0, 0, 10, 10, fill="#000000")

    c = SvgCanvas(20, 20, id_prefix="u7-")
    draw(c)
    root = ET.fromstring(c.tobytes())
    ids = [e.get("id") for e in root.iter(f"{SVG}clipPath")]
    assert ids == ["u7-clip1", "u7-clip2", "u7-clip3"]
    groups = [g.get("clip-path") for g in root.iter(f"{SVG}g")]
    assert groups == ["url(#u7-clip1)", "url(#u7-clip2)", "url(#u7-clip3)"]


def test_svg_transforms_nest_and_unwind() -> None:
    c = SvgCanvas(50, 50)
    with c.saved():
        c.translate(10, 10)
        c.rotate(180)
        c.translate(-10, -10)
        c.rect(0, 0, 5, 5, fill="#000000")
    c.rect(0, 0, 1, 1, fill="#ffffff")
    root = ET.fromstring(c.tobytes())
    (g,) = root.findall(f"{SVG}g")
    assert g.get("transform") == "translate(10 10) rotate(180) translate(-10 -10)"  # merged into one group
    assert [e.get("fill") for e in root.findall(f"{SVG}rect")] == ["#ffffff"]  # after restore: outside
    with pytest.raises(RuntimeError):
        c.restore()


def test_none_means_unpainted() -> None:
    root = ET.fromstring(svg_bytes(lambda c: (c.rect(0, 0, 5, 5, stroke="#000000"), c.rect(0, 0, 5, 5))))
    rects = root.findall(f"{SVG}rect")
    assert len(rects) == 1  # neither fill nor stroke: nothing drawn
    assert rects[0].get("fill") == "none"


@pytest.mark.parametrize("bad", ["red", "#fff", "#12345g", "000000"])
def test_colours_are_validated(bad: str) -> None:
    with pytest.raises(ValueError, match="not a colour"):
        SvgCanvas(5, 5).rect(0, 0, 1, 1, fill=bad)
    with pytest.raises(ValueError, match="not a colour"):
        render_pdf((5, 5), lambda c: PdfCanvas(c).circle(1, 1, 1, stroke=bad))


def test_unknown_font_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown font"):
        SvgCanvas(5, 5).text(0, 0, "x", size=5, font="Helvetica")


def test_svg_is_deterministic() -> None:
    def draw(c: Canvas) -> None:
        with c.saved():
            c.clip_rect(0, 0, 10, 10)
            c.circle(3.3333333, 1 / 3, 2, fill="#123456", stroke="#000000", width=0.1, dash=[0.5, 0.25])
        c.text(1, 2, "x", size=6)

    a, b = svg_bytes(draw), svg_bytes(draw)
    assert a == b
    assert b'cx="3.333"' in a
    assert b'stroke-dasharray="0.5,0.25"' in a
    assert b"<?xml" in a[:10]


# ----------------------------------------------------------------------------------- what the map needs too
def test_map_primitives_look_alike() -> None:
    """Batched polygons, scaling, forms, fill alpha, line caps and joins and terrain patterns rasterise alike in
    both backends (the map draws with them)."""

    def draw(c: Canvas) -> None:
        c.rect(0, 0, W, H, fill="#ffffff")
        c.polygons([[(4, 4), (20, 4), (12, 18)], [(24, 4), (40, 4), (32, 18)]], fill="#2f6fc4", stroke="#000000")
        c.polyline([(46, 6), (70, 6), (70, 18)], stroke="#000000", width=4, cap="round", join="round")
        c.rect(76, 4, 30, 14, fill="#000000", alpha=0.3)
        c.pattern([[(4, 30), (60, 30), (60, 76), (4, 76)]], "hatch", "#1a1a1a", 200.0)  # 1.3 pt lines, 20 pt apart
        c.begin_form("badge", 20, 10)
        c.rounded_rect(0, 0, 20, 10, 3, fill="#c8102e")
        c.end_form()
        with c.saved():
            c.translate(70, 30)
            c.use_form("badge")
            c.translate(0, 20)
            c.scale(2)
            c.use_form("badge")

    a, b = pdf_image(draw, dpi=144), svg_image(draw, dpi=144)
    assert mean_diff(a, b) < 4.0  # cairosvg blurs pattern tiles a little: the stripes lie in the same places
    k = 2
    for img in (a, b):
        assert img.getpixel((round(12 * k), round(8 * k))) < 200  # inside the first polygon
        assert img.getpixel((round(22 * k), round(16 * k))) > 225  # between the two
        assert 120 < img.getpixel((round(90 * k), round(10 * k))) < 230  # 30 % black
        assert img.getpixel((round(80 * k), round(35 * k))) < 200  # the form, at (70, 30)
        assert img.getpixel((round(100 * k), round(65 * k))) < 200  # ... and twice the size at (70, 50)
        assert img.getpixel((round(100 * k), round(45 * k))) > 225


def test_pattern_none_and_degenerate_polygons_draw_nothing() -> None:
    def draw(c: Canvas) -> None:
        c.pattern([[(0, 0), (5, 5)]], "hatch", "#000000", 20)
        c.pattern([[(0, 0), (5, 0), (5, 5)]], "none", "#000000", 20)

    svg = svg_bytes(draw)
    assert b"<path" not in svg
    assert b"<pattern" not in svg


# ------------------------------------------------------------------------------------------------- recording
def test_no_recorder_records_and_tracks_nothing() -> None:
    c = SvgCanvas(20, 20)
    with c.frame("container", 0, 0, 10, 10, "face"), c.saved():
        c.translate(3, 3)
        c.text(0, 5, "x", size=5)
    assert c.recorder is None
    assert c._states == []
    assert c._m == (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@pytest.mark.parametrize("backend", ["pdf", "svg"])
def test_recorded_boxes_are_in_page_coordinates(backend: str) -> None:
    """Boxes come out in page coordinates (y down) after translations, rotations and scaling, in the frame they
    were drawn in; a clip cuts what it hides."""
    rec = Recorder("test")
    rec.page(W, H, "p1", margin=5)

    def draw(c: Canvas) -> None:
        with c.saved():
            c.translate(20, 30)
            with c.frame("container", 0, 0, 40, 20, "face"):
                c.text(2, 10, "AB", size=10)
                with c.saved():
                    c.rotate(90)
                    c.text(0, 0, "AB", size=10)  # runs down the page from (20, 30)
        with c.saved():
            c.translate(80, 10)
            c.scale(2)
            with c.frame("symbol", 0, 0, 5, 5, "badge"):
                pass
        with c.saved():
            c.clip_rect(0, 0, 100, 60)
            c.text(95, 65, "cut", size=10)  # baseline below the clip: only its top shows

    if backend == "pdf":
        render_pdf((W, H), lambda rc: draw(PdfCanvas(rc, top=H, recorder=rec)))
    else:
        c = SvgCanvas(W, H, recorder=rec)
        draw(c)
    face, ab, down, badge, cut = rec.items
    assert (face.kind, face.box, face.parent) == ("container", Box(20, 30, 60, 50), None)
    top, bottom = forge.canvas.ink_extent("AB", FONT, 10)
    wide = forge.pdf.text_width("AB", 10)
    assert ab.parent == 0
    assert ab.box == pytest.approx(Box(22, 40 - top, 22 + wide, 40 - bottom))
    assert down.parent == 0
    assert (down.box.x0, down.box.x1) == pytest.approx((20 + bottom, 20 + top))
    assert (down.box.y0, down.box.y1) == pytest.approx((30, 30 + wide))
    assert badge.box == pytest.approx(Box(80, 10, 90, 20))
    assert cut.clipped
    assert cut.box.y1 == pytest.approx(60)


def test_forms_are_recorded_once_and_placed_wherever_used() -> None:
    rec = Recorder()
    c = SvgCanvas(W, H, recorder=rec)
    c.begin_form("sheet", 50, 50)
    with c.frame("container", 0, 0, 50, 50, "hex"):
        c.text(10, 10, "0101", size=6)
    c.end_form()
    rec.page(W, H, "tile")
    with c.saved():
        c.clip_rect(0, 0, 30, 30)
        c.translate(5, 5)
        c.use_form("sheet")
        c.use_form("sheet", record=False)
    hexes = [it for it in rec.items if it.page == 0]
    assert [it.kind for it in hexes] == ["container", "text"]
    assert hexes[0].clipped
    assert hexes[0].box == Box(5, 5, 30, 30)
    assert hexes[1].parent == 0
    assert hexes[1].box.x0 == pytest.approx(15)


@pytest.mark.parametrize("font", [FONT, FONT_BOLD, FONT_ITALIC])
def test_glyph_extents_read_on_demand(font: str) -> None:
    """A face's outline extents are read a character at a time, only for the characters asked for, and each is
    the glyph's ``glyf`` header (yMax, yMin over the em) as the whole table read at once gives it: every code of
    the face, a space (no outline) and a code not in the face."""
    import struct

    from reportlab.pdfbase import pdfmetrics

    forge.pdf.register_fonts()
    face = pdfmetrics.getFont(font).face
    glyf, em, pos = face.table["glyf"]["offset"], float(face.unitsPerEm), face.glyphPos
    fresh = forge.canvas._GlyphExtents(font)
    top, bottom = forge.canvas.ink_extent("Ag", font, 10)  # the shared reader of the face
    assert set(forge.canvas._glyph_extents(font)._known) >= {ord("A"), ord("g")}
    assert len(forge.canvas._glyph_extents(font)._known) < len(face.charToGlyph) / 10
    for code, gid in face.charToGlyph.items():
        if gid + 1 >= len(pos) or pos[gid] == pos[gid + 1]:
            want = None
        else:
            _, _, y_min, _, y_max = struct.unpack(">hhhhh", face._ttf_data[glyf + pos[gid] : glyf + pos[gid] + 10])
            want = (y_max / em, y_min / em)
        assert fresh.get(code) == want, chr(code)
    assert fresh.get(ord(" ")) is None
    assert fresh.get(0x10FFFD) is None  # a private-use code no DejaVu face has
    assert (top, bottom) == (10 * fresh.get(ord("A"))[0], 10 * fresh.get(ord("g"))[1])


def test_text_only_records_every_shape_and_paints_none() -> None:
    """Inside ``forge.canvas.text_only`` a PdfCanvas records what it is given exactly as outside, writes the same
    text, and paints no shape: for verify's in-memory copies, read back for their text alone."""
    import ctypes

    import pypdfium2.raw as raw

    def draw(c: Canvas) -> None:
        c.rect(10, 10, 50, 30, fill="#336699", stroke="#000000")
        c.circle(80, 30, 10, fill="#ff0000")
        c.line(0, 0, 100, 100, stroke="#00ff00", width=2)
        c.path(Path().move_to(5, 5).line_to(40, 5).curve_to(50, 10, 50, 20, 40, 25).close(), fill="#cccccc")
        with c.frame("container", 10, 10, 50, 30, "box"):
            c.text(12, 30, "Hex 0805", size=9)

    def page(quiet: bool) -> tuple[bytes, list[forge.canvas.Placed]]:
        rec = Recorder("x.pdf")
        rec.page(120, 120)
        with forge.canvas.text_only() if quiet else contextlib.nullcontext():
            pdf = render_pdf((120, 120), lambda rc: draw(PdfCanvas(rc, top=120, recorder=rec)))
        return pdf, rec.items

    def painted(pdf: bytes) -> int:
        n = 0
        for obj in pdfium.PdfDocument(pdf)[0].get_objects(filter=[raw.FPDF_PAGEOBJ_PATH]):
            fill, stroke = ctypes.c_int(), ctypes.c_int()
            raw.FPDFPath_GetDrawMode(obj, fill, stroke)
            n += bool(fill.value or stroke.value)
        return n

    (full, drawn), (quiet, noted) = page(False), page(True)
    assert noted == drawn
    assert painted(full) == 4
    assert painted(quiet) == 0
    text = [pdfium.PdfDocument(p)[0].get_textpage().get_text_range() for p in (full, quiet)]
    assert text[0] == text[1] == "Hex 0805"
    assert painted(page(False)[0]) == 4  # after the block: painted again


def test_a_recorder_takes_anothers_records_and_refuses_a_streaming_one() -> None:
    """Recorder.take: a renderer that lays a component out two ways keeps the records of the way it prints."""
    from forge.canvas import Recorder

    kept, other = Recorder("cards.pdf"), Recorder("scratch")
    kept.page(100, 100, "old")
    other.page(50, 60, "new", margin=5)
    other.page(50, 60, "newer")
    kept.take(other)
    assert kept.component == "cards.pdf"
    assert [(p.width, p.height, p.name) for p in kept.pages] == [(50, 60, "new"), (50, 60, "newer")]
    with pytest.raises(ValueError, match="sink"):
        Recorder("map.pdf", sink=lambda r: None).take(other)
