"""`forge build --pdfx` (set by `--preset print-shop`): every PDF is PDF/X-1a:2003.  Each requirement is read back
from the files a real print-shop build of Hell's Gate wrote (pypdf for the objects and the decoded content streams,
pypdfium2 for the pixels), and the colour conversion is checked against Pillow's ImageCms run here on its own."""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pypdf
import pypdfium2 as pdfium
import pytest
from conftest import DATA
from PIL import Image, ImageChops, ImageCms
from reportlab.lib.rl_accel import fp_str

from forge import pdfx
from forge.builder import build, preset_options
from forge.cli import main
from forge.loader import load
from forge.pdf import PageFinish, new_canvas, page_finish

PDFS = ("map", "counters", "cards")
COLOUR_OPS = {b"rg", b"RG", b"k", b"K", b"g", b"G", b"sc", b"SC", b"scn", b"SCN", b"cs", b"CS"}


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The print-shop preset's PDFs (its counter images, which are PNGs, left out: they are not PDF/X's)."""
    out = tmp_path_factory.mktemp("pdfx")
    build(load(DATA / "hells_gate.yaml"), out, preset_options("print-shop", only=PDFS))
    return out / "hells_gate"


def _reader(path: Path) -> pypdf.PdfReader:
    return pypdf.PdfReader(io.BytesIO(path.read_bytes()))


def _streams(reader: pypdf.PdfReader) -> Iterator[tuple[str, bytes]]:
    """Every page's content and every form XObject's, however deeply nested, decoded."""
    seen: set[int] = set()

    def forms(resources: Any) -> Iterator[tuple[str, bytes]]:
        for name, ref in ((resources or {}).get("/XObject") or {}).items():
            xobj = ref.get_object()
            assert xobj.get("/Subtype") == "/Form", name  # no raster image in any PDF
            if ref.idnum in seen:
                continue
            seen.add(ref.idnum)
            yield name, xobj.get_data()
            yield from forms(xobj.get("/Resources"))

    for n, page in enumerate(reader.pages):
        yield f"page {n + 1}", page.get_contents().get_data()
        yield from forms(page["/Resources"].get_object())


def _colour_ops(data: bytes) -> set[bytes]:
    """The colour operators of a content stream, parsed (so that text reading "CS losses" is no operator)."""
    stream = pypdf.generic.DecodedStreamObject()
    stream.set_data(data)
    ops = pypdf.generic.ContentStream(stream, None).operations
    return {op for _, op in ops if op in COLOUR_OPS}


def _intent(reader: pypdf.PdfReader) -> Any:
    intents = reader.trailer["/Root"]["/OutputIntents"]
    assert len(intents) == 1
    return intents[0].get_object()


# ------------------------------------------------------------------------------------------------ the files
def test_the_output_intent_is_pdfx_with_an_embedded_cmyk_output_profile(shop: Path) -> None:
    for name in PDFS:
        oi = _intent(_reader(shop / f"{name}.pdf"))
        assert oi["/Type"] == "/OutputIntent"
        assert oi["/S"] == "/GTS_PDFX"
        assert oi["/OutputConditionIdentifier"] == "FOGRA39"
        assert oi["/RegistryName"] == "http://www.color.org"
        assert oi["/OutputCondition"]
        assert oi["/Info"]
        stream = oi["/DestOutputProfile"].get_object()
        assert stream["/N"] == 4
        icc = stream.get_data()
        assert icc == (pdfx.ICC_DIR / "FOGRA39L_coated.icc").read_bytes()
        assert int.from_bytes(icc[:4], "big") == len(icc)
        assert (icc[12:16], icc[16:20], icc[36:40]) == (b"prtr", b"CMYK", b"acsp")  # class, colour space, magic
        assert icc[8] == 2  # ICC version 2, as PDF 1.4 reads


def test_the_info_dictionary_and_trailer_identify_pdfx_1a_2003(shop: Path) -> None:
    for name in PDFS:
        raw = (shop / f"{name}.pdf").read_bytes()
        assert raw.startswith((b"%PDF-1.3", b"%PDF-1.4")), name
        reader = _reader(shop / f"{name}.pdf")
        info = reader.trailer["/Info"].get_object()
        assert info["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
        assert info["/GTS_PDFXConformance"] == "PDF/X-1a:2003"
        assert info["/Trapped"] == "/False"
        assert info["/Title"].startswith("Hell's Gate")
        assert info["/CreationDate"] == info["/ModDate"] == "D:20000101000000+00'00'"  # fixed: same bytes each time
        ids = reader.trailer["/ID"]
        assert len(ids) == 2
        assert ids[0] == ids[1]
        assert len(bytes(ids[0].original_bytes)) == 16
        assert "/Encrypt" not in reader.trailer


def test_every_colour_is_cmyk_or_grey_never_rgb(shop: Path) -> None:
    """Only DeviceCMYK (k / K) and DeviceGray (g / G) colour operators, in every page and every form XObject; no
    colour space is set (sc / scn / cs would name one), none is defined, and no RGB colour space is named anywhere
    in the file."""
    for name in PDFS:
        reader = _reader(shop / f"{name}.pdf")
        found: set[bytes] = set()
        for where, data in _streams(reader):
            ops = _colour_ops(data)
            assert ops <= {b"k", b"K", b"g", b"G"}, (name, where, ops)
            found |= ops
        assert b"k" in found, name
        for page in reader.pages:
            assert "/ColorSpace" not in page["/Resources"].get_object()
        dictionaries = (shop / f"{name}.pdf").read_bytes()  # reportlab compresses streams, never dictionaries
        assert not re.search(rb"/(DeviceRGB|CalRGB|Lab|ICCBased|Pattern|Shading)\b", dictionaries), name


def test_every_page_has_a_trim_box(shop: Path) -> None:
    for name in PDFS:
        for page in _reader(shop / f"{name}.pdf").pages:
            assert "/TrimBox" in page, name


def test_a_palette_colour_is_what_imagecms_gives(shop: Path) -> None:
    """The map's clear terrain (#f2ecd0) is written as the CMYK that littleCMS gives through the FOGRA39 profile,
    relative colorimetric with black-point compensation, each ink to a thousandth."""
    game = load(DATA / "hells_gate.yaml")
    clear = next(t.colour for t in game.terrain.values() if t.colour.lower() == "#f2ecd0")
    rgb = tuple(int(clear[i : i + 2], 16) for i in (1, 3, 5))
    transform = ImageCms.buildTransform(
        ImageCms.createProfile("sRGB"),
        ImageCms.getOpenProfile(str(pdfx.ICC_DIR / "FOGRA39L_coated.icc")),
        "RGB",
        "CMYK",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
    )
    out = ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), transform)
    assert out is not None
    expected = tuple(round(v / 255, 3) for v in out.getpixel((0, 0)))  # type: ignore[union-attr]
    assert pdfx.cmyk(rgb) == expected  # type: ignore[arg-type]
    assert any(expected[:3])  # a colour, with some cyan, magenta or yellow
    op = f"{fp_str(*expected)} k".encode()
    assert any(op in data for _, data in _streams(_reader(shop / "map.pdf")))


def test_neutral_greys_are_black_ink_alone() -> None:
    """The profile builds a grey from all four inks (black text would misregister on press); Hexforge prints every
    neutral grey with black ink alone, darker for darker greys, from no ink for white to solid black."""
    transform = pdfx._transforms("fogra39")[0]
    four = ImageCms.applyTransform(Image.new("RGB", (1, 1), (128, 128, 128)), transform)
    assert four is not None
    assert min(four.getpixel((0, 0))[:3]) > 0  # type: ignore[index]
    tints = []
    for level in range(0, 256, 15):
        c, m, y, k = pdfx.cmyk((level, level, level))
        assert (c, m, y) == (0, 0, 0)
        tints.append(k)
    assert tints[0] == 1.0
    assert tints[-1] == 0.0
    assert all(a > b for a, b in itertools.pairwise(tints))
    assert pdfx.cmyk((0, 0, 0), "gracol") == (0.0, 0.0, 0.0, 1.0)


def test_black_text_prints_in_black_ink_alone(shop: Path) -> None:
    text = b"".join(data for _, data in _streams(_reader(shop / "counters.pdf")))
    assert b"0 0 0 1 k" in text
    assert not re.search(rb"(?<![\w.])(?:0?\.\d+|1) (?:0?\.\d+|1) (?:0?\.\d+|1) 1 k", text)  # no rich black


XMP = {
    "x": "adobe:ns:meta/",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "dc": "http://purl.org/dc/elements/1.1/",
    "xmp": "http://ns.adobe.com/xap/1.0/",
    "pdf": "http://ns.adobe.com/pdf/1.3/",
    "pdfx": "http://ns.adobe.com/pdfx/1.3/",
    "pdfxid": "http://www.npes.org/pdfx/ns/id/",
}


def _xmp(reader: pypdf.PdfReader) -> tuple[Any, bytes]:
    """The catalog's metadata stream (its dictionary) and its undecoded bytes."""
    stream = reader.trailer["/Root"]["/Metadata"].get_object()
    return stream, stream._data


def test_an_xmp_metadata_stream_says_what_the_info_dictionary_says(shop: Path) -> None:
    """pdf_oxide's PDF/X validator (bench/preflight.py) stops at a PDF/X file without XMP metadata: PDF/X-1a:2003 does
    not ask for it, PDF/X-4 does.  The catalog has one, uncompressed, with the same identification, title, creator,
    producer, dates and trapping as the Info dictionary (a checker compares the two)."""
    from xml.etree import ElementTree

    for name in PDFS:
        reader = _reader(shop / f"{name}.pdf")
        info = reader.trailer["/Info"].get_object()
        stream, raw = _xmp(reader)
        assert (stream["/Type"], stream["/Subtype"]) == ("/Metadata", "/XML")
        assert "/Filter" not in stream  # plain text: a tool that does not parse PDF finds the packet
        assert raw.startswith(b'<?xpacket begin="\xef\xbb\xbf"')
        assert raw.endswith(b'<?xpacket end="w"?>')
        desc = ElementTree.fromstring(raw).find("rdf:RDF/rdf:Description", XMP)
        assert desc is not None

        def text(path: str, d: Any = desc) -> str | None:
            return d.findtext(path, namespaces=XMP)

        assert text("pdfxid:GTS_PDFXVersion") == info["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
        assert text("pdfx:GTS_PDFXVersion") == info["/GTS_PDFXVersion"]
        assert text("pdfx:GTS_PDFXConformance") == info["/GTS_PDFXConformance"]
        assert text("dc:title/rdf:Alt/rdf:li") == info["/Title"]
        assert text("dc:creator/rdf:Seq/rdf:li") == info["/Author"]
        assert text("xmp:CreatorTool") == info["/Creator"]
        assert text("pdf:Producer") == info["/Producer"]
        assert text("pdf:Trapped") == "False"
        assert info["/Trapped"] == "/False"
        assert text("xmp:CreateDate") == text("xmp:ModifyDate") == "2000-01-01T00:00:00+00:00"  # Info's D:2000010100...
        assert reader.xmp_metadata is not None
        assert reader.xmp_metadata.xmp_create_date.isoformat() == "2000-01-01T00:00:00"


def test_the_xmp_packet_escapes_the_title_and_only_pdfx_has_one() -> None:
    def save(finish: PageFinish | None) -> pypdf.PdfReader:
        out = io.BytesIO()
        with page_finish(finish):
            c = new_canvas(out, (100, 100), title="Fish & Chips <1944>", subject='a "test"')
        c.showPage()
        c.save()
        return pypdf.PdfReader(io.BytesIO(out.getvalue()))

    reader = save(PageFinish(pdfx="gracol"))
    xmp = reader.xmp_metadata
    assert xmp is not None
    assert xmp.dc_title == {"x-default": "Fish & Chips <1944>"}
    assert xmp.dc_description == {"x-default": 'a "test"'}
    assert b"Fish &amp; Chips &lt;1944&gt;" in _xmp(reader)[1]
    assert "/Metadata" not in save(None).trailer["/Root"]  # the home build's files are what they were


def test_only_the_crop_marks_pass_the_total_ink_limit(shop: Path) -> None:
    """Ghostscript's separations (bench/preflight.py) find at most 218 % of ink inside the BleedBox; here, on the
    colours written: every colour totals at most 300 % (FOGRA39's and GRACoL's limit) except the crop marks'
    registration colour (400 %), which is set once a page, first, in the marks' own block outside the bleed box."""
    for name in PDFS:
        reader = _reader(shop / f"{name}.pdf")
        for where, data in _streams(reader):
            stream = pypdf.generic.DecodedStreamObject()
            stream.set_data(data)
            ops = pypdf.generic.ContentStream(stream, None).operations
            inks = [(n, sum(float(v) for v in args)) for n, (args, op) in enumerate(ops) if op in (b"k", b"K")]
            over = [(n, total) for n, total in inks if total > 3.0]
            if where.startswith("page"):
                assert over == inks[:1], (name, where, over[:3])  # the page's first colour, and its only one
                assert over[0][1] == 4.0
                assert data.startswith(b"1 0 0 1 0 0 cm \nq 1 1 1 1 K ")
            else:
                assert over == [], (name, where)


def test_a_rebuild_is_byte_identical(shop: Path, tmp_path: Path) -> None:
    build(load(DATA / "hells_gate.yaml"), tmp_path, preset_options("print-shop", only=PDFS))
    for name in PDFS:
        assert (tmp_path / "hells_gate" / f"{name}.pdf").read_bytes() == (shop / f"{name}.pdf").read_bytes(), name


def test_cmyk_renders_close_to_the_rgb_build(shop: Path, tmp_path: Path) -> None:
    """pdfium paints DeviceCMYK naively (no profile), so the separated map is not the RGB one to the pixel; but
    its light paper-coloured terrain stays within a few levels, and nothing turns another colour."""
    build(load(DATA / "hells_gate.yaml"), tmp_path, preset_options("print-shop", only=("map",), pdfx=False))
    pages = []
    for folder in (tmp_path / "hells_gate", shop):
        doc = pdfium.PdfDocument(str(folder / "map.pdf"))
        pages.append(doc[0].render(scale=0.25).to_pil().convert("RGB"))
        doc.close()
    rgb, cmyk = pages
    assert rgb.size == cmyk.size
    # Each pixel's largest channel difference, counted: the median pixel (the terrain) moves by a few levels, and
    # hardly any by much.
    r, g, b = ImageChops.difference(rgb, cmyk).split()
    counts = ImageChops.lighter(ImageChops.lighter(r, g), b).histogram()
    total = sum(counts)

    def share_within(level: int) -> float:
        return sum(counts[: level + 1]) / total

    assert share_within(12) >= 0.5
    assert share_within(40) >= 0.99


# ------------------------------------------------------------------------------------------------ options
def test_print_shop_sets_pdfx_and_an_explicit_no_pdfx_wins() -> None:
    assert preset_options("print-shop").pdfx is True
    assert preset_options("print-shop", pdfx=False).pdfx is False
    assert preset_options("home").pdfx is False
    assert preset_options("home").output_intent == pdfx.DEFAULT_OUTPUT_INTENT


def test_the_cli_offers_the_intents_forge_pdfx_has(capsys: pytest.CaptureFixture[str]) -> None:
    from forge.cli import build_parser

    parser = build_parser()
    for name in pdfx.OUTPUT_INTENTS:
        assert parser.parse_args(["build", "x.yaml", "--output-intent", name]).output_intent == name
    with pytest.raises(SystemExit):
        parser.parse_args(["build", "x.yaml", "--output-intent", "swop"])
    assert "--output-intent" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--pdfx"], "--pdfx: a tiled map's overlap strips are translucent"),
        (["--output-intent", "gracol"], "--output-intent is the printing condition of --pdfx"),
    ],
)
def test_bad_option_combinations_are_one_message_and_exit_2(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["build", str(DATA / "hells_gate.yaml"), "--out", str(tmp_path), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err
    assert not any(tmp_path.iterdir())


def test_gracol_and_grey_ink_and_a_page_without_bleed(tmp_path: Path) -> None:
    """--output-intent gracol embeds the GRACoL profile; with --greyscale every colour stays a grey level
    (DeviceGray is PDF/X-1a too); without --print-marks each page is its own TrimBox."""
    opts = preset_options("home", only=("cards",), pdfx=True, output_intent="gracol", greyscale=True)
    build(load(DATA / "hells_gate.yaml"), tmp_path, opts)
    reader = _reader(tmp_path / "hells_gate" / "cards.pdf")
    oi = _intent(reader)
    assert oi["/OutputConditionIdentifier"] == "CGATS TR 006"
    assert oi["/DestOutputProfile"].get_object().get_data() == (pdfx.ICC_DIR / "GRACoL_TR006_coated.icc").read_bytes()
    for _, data in _streams(reader):
        assert _colour_ops(data) <= {b"g", b"G"}
    for page in reader.pages:
        assert [float(v) for v in page["/TrimBox"]] == [float(v) for v in page.mediabox]


def test_transparency_is_refused_on_a_pdfx_canvas() -> None:
    with page_finish(PageFinish(pdfx="fogra39")):
        c = new_canvas(io.BytesIO(), (100, 100))
    c.setFillAlpha(1)
    with pytest.raises(ValueError, match="transparency"):
        c.setFillAlpha(0.5)


def test_the_profiles_ship_in_the_wheel() -> None:
    pyproject = (Path(__file__).parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert '"icc/*.icc"' in pyproject
    for oi in pdfx.OUTPUT_INTENTS.values():
        assert oi.path.is_file()
        assert oi.profile in (pdfx.ICC_DIR / "README.md").read_text(encoding="utf-8")
