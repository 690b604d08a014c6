"""Counter images (forge.render.images): one SVG and one 300 dpi PNG per face of every distinct counter.

Properties: every SVG parses and is exactly the counter (plus bleed) in points; every PNG is
round(inches * 300) pixels a side and says 300 dpi; the index lists exactly the files written; names are safe;
same input, same bytes; and a face drawn through the PDF backend looks like the same face through SVG -> PNG.
"""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from conftest import data_files
from PIL import Image, ImageChops, ImageFilter, ImageStat

from forge.builder import BuildOptions, build
from forge.canvas import PdfCanvas
from forge.loader import load
from forge.model import Game
from forge.pdf import render_pdf
from forge.render import counters, images
from forge.render.counters import Face
from forge.units import length

SVG = "{http://www.w3.org/2000/svg}"
DATA = Path(__file__).resolve().parent.parent / "data"


@pytest.fixture(scope="module")
def hg() -> Game:
    return load(DATA / "hells_gate.yaml")


@pytest.fixture(scope="module")
def fpa() -> Game:
    return load(DATA / "first_panzer_army.yaml")


@pytest.fixture(scope="module")
def hg_files(hg: Game) -> dict[str, bytes]:
    return images.render(hg, BuildOptions())


def index_rows(files: dict[str, bytes]) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(files["index.csv"].decode("utf-8"))))


def png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def test_every_svg_parses_and_is_the_counter_size(hg_files: dict[str, bytes]) -> None:
    svgs = [name for name in hg_files if name.endswith(".svg")]
    assert svgs
    for name in svgs:
        root = ET.fromstring(hg_files[name])
        assert root.tag == f"{SVG}svg", name
        assert root.get("viewBox") == "0 0 45 45", name
        assert (root.get("width"), root.get("height")) == ("45pt", "45pt"), name


def test_every_png_is_300_dpi(hg_files: dict[str, bytes]) -> None:
    side = round(length("5/8in") / 72 * 300)
    pngs = [name for name in hg_files if name.endswith(".png")]
    assert len(pngs) == sum(1 for n in hg_files if n.endswith(".svg"))
    for name in pngs:
        img = png(hg_files[name])
        assert img.size == (side, side), name
        assert img.info.get("dpi") == pytest.approx((300, 300), abs=0.1), name


@pytest.mark.parametrize("size", ["1/2in", "9/16in", "3/4in"])
@pytest.mark.parametrize("bleed", [False, True])
def test_sizes_and_bleed(hg: Game, size: str, bleed: bool) -> None:
    face = images.face_images(hg)[0].image
    s = length(size)
    b = counters.BLEED if bleed else 0.0
    svg = images.face_svg(face, s=s, bleed=b)
    root = ET.fromstring(svg)
    total = s + 2 * b
    assert [float(v) for v in (root.get("viewBox") or "").split()] == pytest.approx([0, 0, total, total])
    assert png(images.face_png(svg, points=total)).size == (round(total / 72 * 300),) * 2


def test_bleed_extends_the_colour_and_keeps_the_trim(hg: Game) -> None:
    """With bleed the background covers the whole image and the face sits 1/8 in in from every edge."""
    files = images.render(hg, BuildOptions(bleed=True))
    row = next(r for r in index_rows(files) if r["id"] == "sov-29tc" and r["file"].endswith("front.png"))
    img = png(files[row["file"]]).convert("RGB")
    assert img.size == (263, 263)  # (5/8 + 2/8) in * 300 = 262.5, rounded up: never under 300 dpi
    corner, centre_bg = img.getpixel((2, 2)), img.getpixel((40, 120))
    assert corner == centre_bg  # the side colour runs to the image's edge
    svg = ET.fromstring(files[row["file"].replace(".png", ".svg")])
    assert svg.get("viewBox") == "0 0 63 63"
    (g,) = svg.findall(f"{SVG}g")
    assert g.get("transform") == "translate(9 9)"


def test_index_lists_exactly_the_files(hg: Game, hg_files: dict[str, bytes]) -> None:
    rows = index_rows(hg_files)
    assert list(rows[0]) == ["file", "kind", "id", "side", "face", "counter", "step", "strength", "copies", "note"]
    assert sorted(r["file"] for r in rows) == sorted(n for n in hg_files if n != "index.csv")
    sides = {s.id for s in hg.game.sides}
    for u in hg.units:
        mine = [r for r in rows if r["id"] == u.id]
        assert {(r["face"], r["file"].rsplit(".", 1)[1]) for r in mine} == {
            (f, e) for f in ("front", "back") for e in ("svg", "png")
        }, u.id
        assert all(r["side"] == u.side and r["side"] in sides and r["kind"] == "unit" for r in mine)
        assert all(int(r["copies"]) == u.copies for r in mine)
    for m in hg.markers:
        mine = [r for r in rows if r["id"] == m.id and r["kind"] == "marker"]
        assert len(mine) == 4, m.id
        assert all(int(r["copies"]) == counters.marker_count(m) for r in mine)
    # Copies add up to what the counter sheets print.
    fronts = [r for r in rows if r["face"] == "front" and r["file"].endswith(".svg")]
    assert sum(int(r["copies"]) for r in fronts) == sum(len(g) for g in counters.pieces(hg))


def test_unknown_marker_counts_are_noted(hg: Game, hg_files: dict[str, bytes]) -> None:
    unknown = {m.id for m in hg.markers if counters.marker_count(m, unknown=-1) == -1}
    rows = index_rows(hg_files)
    for r in rows:
        if r["kind"] == "marker":
            assert ("not given by the rules" in r["note"]) == (r["id"] in unknown)


def test_file_names_are_safe(hg_files: dict[str, bytes]) -> None:
    for name in hg_files:
        assert re.fullmatch(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*", name), name
    assert "sov-29tc-front.svg" in hg_files
    assert "sov-29tc-back.png" in hg_files
    assert any(n.startswith("marker-") for n in hg_files)


def test_unit_labels_and_strengths_are_in_the_svg(hg: Game, hg_files: dict[str, bytes]) -> None:
    for u in hg.units:
        root = ET.fromstring(hg_files[f"{images._safe(u.id)}-front.svg"])
        texts = [t.text for t in root.iter(f"{SVG}text")]
        assert u.label in texts, u.id
        strength = u.strengths()[0]
        if strength.known:
            assert str(strength) in texts, u.id
        else:  # a number the rules do not give is a write-in box, not a "?"
            assert not any(t and "?" in t for t in texts), u.id


def test_substitute_counters_get_their_own_files(fpa: Game) -> None:
    multi = [u for u in fpa.units if len(u.counter_faces()) > 1]
    if not multi:
        pytest.skip("no multi-counter unit in the data")
    faces = {fi.stem: fi for fi in images.face_images(fpa)}
    for u in multi:
        for k in range(1, len(u.counter_faces())):
            front = faces[f"{u.id}-sub{k}-front"]
            assert front.counter == k
            assert front.image.substitute
            assert front.image.step == u.counter_faces()[k][0]
        assert not faces[f"{u.id}-front"].image.substitute


def test_greyscale_images_are_grey(hg: Game) -> None:
    for fi in images.face_images(hg, greyscale=True)[:12]:
        root = ET.fromstring(images.face_svg(fi.image, s=45.0))
        for e in root.iter():
            for attr in ("fill", "stroke"):
                v = e.get(attr)
                if v and v.startswith("#"):
                    assert v[1:3] == v[3:5] == v[5:7], (fi.stem, v)


def test_deterministic(hg: Game, hg_files: dict[str, bytes]) -> None:
    assert images.render(hg, BuildOptions()) == hg_files


def _pdf_face(face: Face, s: float, dpi: float) -> Image.Image:
    pdf = render_pdf((s, s), lambda c: counters.draw_face(PdfCanvas(c, top=s), face, s=s))
    return pdfium.PdfDocument(pdf)[0].render(scale=dpi / 72).to_pil().convert("L")


def _svg_face(face: Face, s: float, dpi: float) -> Image.Image:
    return png(images.face_png(images.face_svg(face, s=s), points=s, dpi=round(dpi))).convert("L")


def _difference(a: Image.Image, b: Image.Image, blur: float = 0.0) -> float:
    assert a.size == b.size
    if blur:
        a, b = a.filter(ImageFilter.GaussianBlur(blur)), b.filter(ImageFilter.GaussianBlur(blur))
    return float(ImageStat.Stat(ImageChops.difference(a, b)).mean[0])


LOOK_ALIKE = 3.0
"""Mean difference (/255) of the two backends' rasters, blurred by 1.5 px at 96 dpi: the blur forgives where
cairo and pdfium put glyphs to a fraction of a pixel (and DejaVu's few redrawn glyphs); same faces measure
1-2.3, the front and back of one counter about 4.7."""


@pytest.mark.parametrize(
    ("game", "stem"),
    [
        ("hells_gate", "sov-29tc-front"),
        ("hells_gate", "sov-29tc-back"),
        ("hells_gate", "marker-retreated-front"),
        ("first_panzer_army", "ger-9ss-sub1-front"),
    ],
)
def test_pdf_and_svg_faces_look_alike(game: str, stem: str) -> None:
    """The same face through PdfCanvas (pypdfium2) and SvgCanvas (cairosvg) rasterises to nearly the same
    pixels: the port draws one picture, not two.  Without its text the face matches almost exactly."""
    faces = {fi.stem: fi for fi in images.face_images(load(DATA / f"{game}.yaml"))}
    if stem not in faces:
        pytest.skip(f"{stem} not in {game}")
    face = faces[stem].image
    a, b = _pdf_face(face, 45.0, 96), _svg_face(face, 45.0, 96)  # 45 pt at 96 dpi: 60 px in both
    assert a.size == b.size == (60, 60)
    diff = _difference(a, b, blur=1.5)
    assert diff < LOOK_ALIKE, f"{stem}: mean difference {diff:.2f} / 255"
    bare = replace(face, label="", strength=None, setup=None, entry_turn=None, substitute=False, text=None)
    diff = _difference(_pdf_face(bare, 45.0, 96), _svg_face(bare, 45.0, 96))
    assert diff < 1.0, f"{stem} without text: mean difference {diff:.2f} / 255"


def test_look_alike_tells_faces_apart(hg: Game) -> None:
    """The tolerance is tight enough to see a different face (the back of the same counter)."""
    faces = {fi.stem: fi.image for fi in images.face_images(hg)}
    a = _pdf_face(faces["sov-29tc-front"], 45.0, 96)
    b = _svg_face(faces["sov-29tc-back"], 45.0, 96)
    assert _difference(a, b, blur=1.5) > LOOK_ALIKE


@pytest.mark.parametrize("path", data_files(), ids=lambda p: p.stem)
def test_every_data_file_has_an_image_per_face(path: Path) -> None:
    game = load(path)
    faces = images.face_images(game)
    stems = [f.stem for f in faces]
    assert len(stems) == len(set(stems))
    distinct_units = sum(len(u.counter_faces()) for u in game.units)
    assert len(faces) == 2 * (distinct_units + len(game.markers))


def test_build_writes_the_folder(hg: Game, tmp_path: Path) -> None:
    written = build(hg, tmp_path, BuildOptions(only=("images",)))
    folder = tmp_path / hg.game.id / "images"
    assert (folder / "index.csv").is_file()
    assert (folder / "sov-29tc-front.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(written) == sorted(folder.iterdir())
    assert not list(folder.glob(".*"))  # no temporary files left behind


@pytest.mark.parametrize("bad", ["../escape.svg", "/abs.svg", "a/../../b.svg", ""])
def test_build_refuses_paths_outside_the_folder(bad: str, tmp_path: Path) -> None:
    from forge.builder import _targets

    with pytest.raises(ValueError, match="not a path inside"):
        _targets(tmp_path, "images", {bad: b""})
