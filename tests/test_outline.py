"""`forge build --outline-text`: every glyph drawn as a filled path from the bundled fonts' outlines (forge.outline),
so that the PDFs hold no font.  Read back from real builds (Hell's Gate's counters and cards) and from small pages
drawn here: no font, no text operator, the same pixels as the text, CMYK under --pdfx, the same bytes twice."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pypdf
import pypdfium2 as pdfium
import pytest
from conftest import DATA
from PIL import Image, ImageFilter
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph, Table
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject
from test_pdfx import _colour_ops, _streams

from forge.builder import build, preset_options
from forge.canvas import PdfCanvas
from forge.cli import build_parser
from forge.loader import load
from forge.pdf import FONT, FONT_BOLD, FONT_ITALIC, PageFinish, new_canvas, page_finish

PDFS = ("counters", "cards")
TEXT_OPS = {b"BT", b"ET", b"Tj", b"TJ", b"Tf", b"'", b'"', b"Td", b"TD", b"Tm", b"T*"}

DPI = 300
BLUR = 2.0
"""The pixel comparison: both renderings at 300 dpi, each blurred (Gaussian, 2 px), and the largest difference of a
pixel (0 .. 255).  At 150 dpi a 1 pt move is 2 px, no more than what anti-aliasing alone gives; at 300 dpi it is 4 px.
Text and its outlines differ only where pdfium's text rasteriser and its path rasteriser anti-alias an edge
differently (its text a little darker, a stem a pixel sharper), and where pdfium rounds a TrueType font's widths to
whole thousandths of an em, so that the text, not the outline, drifts by up to a pixel along a long line (poppler
does not: the outlines stand where the widths put them).  Seen: 48 on the page drawn here, 71 to 88 on the pages of
Hell's Gate compared below (up to 109 on a map page of long lines); a string moved 1 pt gives 114 (6 pt) to 147."""
PAGE_BOUND = 80
"""The page drawn here: its outlines within it of its text, any one string moved 1 pt well beyond it."""
BUILD_BOUND = 105
"""A page of a build."""


def _finish(**kw: object) -> PageFinish:
    return PageFinish(outline_text=True, **kw)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Hell's Gate's counters and cards, with text and with outlines."""
    game = load(DATA / "hells_gate.yaml")
    plain, outlined = tmp_path_factory.mktemp("plain"), tmp_path_factory.mktemp("outlined")
    build(game, plain, preset_options(only=PDFS))
    build(game, outlined, preset_options(only=PDFS, outline_text=True))
    return plain / "hells_gate", outlined / "hells_gate"


def _reader(data: bytes) -> pypdf.PdfReader:
    return pypdf.PdfReader(io.BytesIO(data))


def _ops(data: bytes) -> set[bytes]:
    stream = pypdf.generic.DecodedStreamObject()
    stream.set_data(data)
    return {op for _, op in pypdf.generic.ContentStream(stream, None).operations}


def _fonts(data: bytes) -> tuple[int, set[bytes]]:
    """How many fonts the pages' resources name, and the text operators of every page and form."""
    reader = _reader(data)
    named = 0
    for page in reader.pages:
        fonts = page["/Resources"].get_object().get("/Font")
        named += len(fonts.get_object()) if fonts is not None else 0
    ops: set[bytes] = set()
    for _, stream in _streams(reader):
        ops |= _ops(stream) & TEXT_OPS
    return named, ops


def _image(pdf: bytes, page: int = 0, top: float = 1.0) -> Image.Image:
    """Page ``page`` at :data:`DPI`, its top ``top`` (a fraction of its height) only."""
    sheet = pdfium.PdfDocument(pdf)[page]
    crop = (0, sheet.get_height() * (1 - top), 0, 0)
    return sheet.render(scale=DPI / 72, crop=crop).to_pil().convert("L")


def _difference(a: Image.Image, b: Image.Image) -> float:
    x, y = (np.asarray(i.filter(ImageFilter.GaussianBlur(BLUR)), dtype=float) for i in (a, b))
    return float(np.abs(x - y).max())


# ------------------------------------------------------------------------------------------------ the builds
def test_outlined_pdfs_hold_no_font_and_no_text_operator(builds: tuple[Path, Path]) -> None:
    plain, outlined = builds
    for name in PDFS:
        data = (outlined / f"{name}.pdf").read_bytes()
        assert _fonts(data) == (0, set()), name
        assert b"/FontFile" not in data, name
        assert b"/Type /Font" not in data, name
        # ... where the same build without the option has both (so this test can fail)
        named, ops = _fonts((plain / f"{name}.pdf").read_bytes())
        assert named > 0, name
        assert {b"BT", b"Tj", b"Tf"} <= ops, name


def test_outlined_pages_look_like_the_text(builds: tuple[Path, Path]) -> None:
    plain, outlined = builds
    for name, page in (("counters", 2), ("cards", 0)):  # a sheet of counter fronts; the CRT card
        a = _image((plain / f"{name}.pdf").read_bytes(), page, top=0.4)
        b = _image((outlined / f"{name}.pdf").read_bytes(), page, top=0.4)
        ink = 255 - np.asarray(a, dtype=float)  # pdfium's text is a little darker than its paths: 1 % at most
        assert abs(ink.sum() - (255 - np.asarray(b, dtype=float)).sum()) < 0.02 * ink.sum(), name
        assert _difference(a, b) < BUILD_BOUND, name


def test_an_outlined_rebuild_is_byte_identical(builds: tuple[Path, Path], tmp_path: Path) -> None:
    build(load(DATA / "hells_gate.yaml"), tmp_path, preset_options(only=("counters",), outline_text=True))
    assert (tmp_path / "hells_gate" / "counters.pdf").read_bytes() == (builds[1] / "counters.pdf").read_bytes()


def test_print_shop_with_outlines_stays_pdfx_and_cmyk(tmp_path: Path) -> None:
    build(load(DATA / "hells_gate.yaml"), tmp_path, preset_options("print-shop", only=("cards",), outline_text=True))
    data = (tmp_path / "hells_gate" / "cards.pdf").read_bytes()
    assert _fonts(data) == (0, set())
    reader = _reader(data)
    found: set[bytes] = set()
    for where, stream in _streams(reader):
        ops = _colour_ops(stream)
        assert ops <= {b"k", b"K", b"g", b"G"}, (where, ops)
        found |= ops
    assert b"k" in found
    assert b"DeviceRGB" not in data
    assert reader.trailer["/Info"].get_object()["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
    assert all("/TrimBox" in page for page in reader.pages)


def test_the_option_is_off_by_default_and_in_every_preset() -> None:
    for preset in ("home", "print-shop", "greyscale-laser"):
        assert preset_options(preset).outline_text is False
    assert preset_options("print-shop", outline_text=True).outline_text is True
    parser = build_parser()
    assert parser.parse_args(["build", "g.yaml", "--outline-text"]).outline_text is True
    assert parser.parse_args(["build", "g.yaml", "--no-outline-text"]).outline_text is False
    assert parser.parse_args(["build", "g.yaml"]).outline_text is None


# ------------------------------------------------------------------------------------------------ pages drawn here
LINES = (
    (FONT, 6, "Each cell: hits on the defender, normal attack"),
    (FONT_BOLD, 7, "1/2 0/1 3:2 <1:1 Тихоновка"),
    (FONT_ITALIC, 8, "Soviet retreat, if able \u00a0(7.5)"),
    (FONT, 10, "Tiger I  88 mm \u2460"),
    (FONT_BOLD, 12, "Combat Results Table"),
)
"""Strings in the three faces at the sizes forge prints, Cyrillic, a no-break space and a character
(U+2460) that DejaVu Sans lacks (the .notdef box)."""


def _page(finish: PageFinish | None, draw: Callable[[Canvas], None]) -> bytes:
    buf = io.BytesIO()
    with page_finish(finish):
        c = new_canvas(buf, (320, 300))
        draw(c)
        c.showPage()
        c.save()
    return buf.getvalue()


def _lines(moved: int | None = None) -> Callable[[Canvas], None]:
    def draw(c: Canvas) -> None:
        c.setFillColorRGB(0.1, 0.2, 0.5)
        for k, (face, size, text) in enumerate(LINES):
            c.setFont(face, size)
            c.drawString(12 + (1 if k == moved else 0), 285 - 22 * k, text)
        c.drawCentredString(160, 170, "centred")
        c.drawRightString(300, 160, "right")
        c.drawString(12, 150, "spaced out", charSpace=1.5)
        c.drawString(12, 140, "two words apart", wordSpace=6)
        t = c.beginText(150, 140)
        t.setFont(FONT, 8)
        t.setHorizScale(120)
        t.textOut("wide ")
        t.setRise(3)
        t.textOut("risen")
        t.setRise(0)
        t.setTextRenderMode(3)
        t.textOut(" hidden")
        t.setTextRenderMode(0)
        t.textLine(" back")
        t.setHorizScale(100)  # text state outlasts its text object (reportlab leaves it to the caller)
        t.textLines("second line\nthird line")
        c.drawText(t)
        style = ParagraphStyle("p", fontName=FONT, fontSize=7, leading=9, alignment=4)  # justified: word spacing
        para = Paragraph(
            "A justified paragraph with <b>bold</b>, <i>oblique</i>, <font color='#aa0000'>red</font> and "
            "<super>raised</super> words, long enough to wrap over three lines of the column it is set in.",
            style,
        )
        para.wrapOn(c, 140, 100)
        para.drawOn(c, 12, 20)
        table = Table([["d6", "1:1", "3:2"], ["1", "0/0", "0/1"]], style=[("FONTNAME", (0, 0), (-1, -1), FONT_BOLD)])
        table.wrapOn(c, 140, 60)
        table.drawOn(c, 170, 40)
        pc = PdfCanvas(c, top=300)
        pc.join_text = True  # a map's hex labels
        for k in range(4):
            pc.text(170 + 30 * k, 110, f"{k + 1:02d}{k + 7:02d}", size=6, anchor="middle", fill="#333333")

    return draw


def test_a_page_of_every_kind_of_text_looks_the_same_outlined_and_moved_text_does_not() -> None:
    plain = _page(None, _lines())
    outlined = _page(_finish(), _lines())
    assert _fonts(outlined) == (0, set())
    assert _fonts(plain)[0] > 0
    a, b = _image(plain), _image(outlined)
    assert _difference(a, b) < PAGE_BOUND
    for k in range(len(LINES)):  # one string 1 pt to the right: far outside the bound
        assert _difference(a, _image(_page(_finish(), _lines(moved=k)))) > PAGE_BOUND + 20, k


def test_outlines_are_placed_once_per_glyph_and_take_the_fill_colour() -> None:
    def draw(c: Canvas) -> None:
        c.setFont(FONT, 9)
        c.setFillColorRGB(1, 0, 0)
        c.drawString(10, 10, "aaa")

    reader = _reader(_page(_finish(), draw))
    forms = reader.pages[0]["/Resources"]["/XObject"]
    assert len(forms) == 1  # one form for the glyph "a", drawn three times
    (form,) = (ref.get_object() for ref in forms.values())
    assert _colour_ops(form.get_data()) == set()
    content = reader.pages[0].get_contents().get_data()
    assert content.count(b" Do") == 3
    assert b"1 0 0 rg" in content


def test_grey_ink_holds_for_outlined_text() -> None:
    data = _page(_finish(grey_ink=True), _lines())
    for where, stream in _streams(_reader(data)):
        assert _colour_ops(stream) <= {b"g", b"G"}, where


def _leave(c: Canvas, change: Callable[[PDFTextObject], None]) -> None:
    t = c.beginText(10, 10)
    change(t)
    t.textOut("left so")
    c.drawText(t)


@pytest.mark.parametrize(
    "draw",
    [
        lambda c: c.drawString(10, 10, "stroked", mode=1),
        lambda c: c.drawString(10, 10, "clipped", mode=7),
        lambda c: c.setFont("Helvetica", 9),
        lambda c: _leave(c, lambda t: t.setHorizScale(90)),
        lambda c: _leave(c, lambda t: t.setCharSpace(1)),
    ],
    ids=["stroked", "clipping", "another font", "scale left set", "spacing left set"],
)
def test_what_forge_never_draws_is_refused_not_drawn_wrong(draw: Callable[[Canvas], None]) -> None:
    with pytest.raises(NotImplementedError, match="--outline-text"):
        _page(_finish(), draw)
