"""Counter sheets (forge.render.counters): page sizes, pitch, duplex backs behind fronts, text, sizes,
goldens.

Positions are read back from the PDF itself (pypdf's text visitor gives each string's text and transformation
matrices), so the checks measure what a printer would print.
"""

from __future__ import annotations

import io
import math
import re
import os
from dataclasses import dataclass, replace
from pathlib import Path

import pypdf
import pytest
from conftest import data_files

from forge.builder import BuildOptions
from forge.canvas import SvgCanvas
from forge.units import COUNTER_SIZES
from forge.loader import load
from forge.model import Game, Marker, Unit, UnitType
from forge.pdf import FONT, FONT_BOLD, FONT_ITALIC, text_width
from forge.render import counters
from forge.units import length
import itertools

MM = 72 / 25.4
TOL = 0.1 * MM
GOLDEN = Path(__file__).parent / "golden"


# ------------------------------------------------------------------------------------------------ PDF reading
@dataclass(frozen=True)
class Text:
    text: str
    x: float
    """Origin of the string on the page (PDF points, y up)."""
    y: float
    size: float
    """Effective size at print scale."""
    ux: float
    """Direction of the string's baseline."""
    uy: float
    font: str

    def centre(self) -> tuple[float, float]:
        """The middle of the baseline."""
        w = text_width(self.text, self.size, self.font)
        return (self.x + self.ux * w / 2, self.y + self.uy * w / 2)


def _mul(m: list[float], n: list[float]) -> list[float]:
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return [
        a * a2 + b * c2,
        a * b2 + b * d2,
        c * a2 + d * c2,
        c * b2 + d * d2,
        e * a2 + f * c2 + e2,
        e * b2 + f * d2 + f2,
    ]


def _font(fd: object) -> str:
    name = str(fd.get("/BaseFont", "")) if isinstance(fd, dict) else ""  # type: ignore[union-attr]
    if "Bold" in name:
        return FONT_BOLD
    if "Oblique" in name or "Italic" in name:
        return FONT_ITALIC
    return FONT


def page_texts(pdf: bytes | pypdf.PdfReader, index: int) -> list[Text]:
    """Every string drawn on a page with its position, direction and effective size."""
    reader = pdf if isinstance(pdf, pypdf.PdfReader) else pypdf.PdfReader(io.BytesIO(pdf))
    out: list[Text] = []

    def visit(text: str, cm: list[float], tm: list[float], fd: object, fs: float) -> None:
        t = text.strip("\n")
        if not t.strip():
            return
        m = _mul([float(v) for v in tm], [float(v) for v in cm])
        scale = math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))
        n = math.hypot(m[0], m[1]) or 1.0
        out.append(Text(t, m[4], m[5], float(fs) * scale, m[0] / n, m[1] / n, _font(fd)))

    reader.pages[index].extract_text(visitor_text=visit)
    return out


def all_texts(pdf: bytes) -> list[list[Text]]:
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    return [page_texts(reader, i) for i in range(len(reader.pages))]


# ------------------------------------------------------------------------------------------------ fixtures
@pytest.fixture(scope="module")
def hg() -> Game:
    return load(Path(__file__).resolve().parent.parent / "data" / "hells_gate.yaml")


def numbered_game(base: Game, n: int = 30) -> Game:
    """``base`` with ``n`` two-step units whose strengths are unique: front i, back 100 + i."""
    sides = [s.id for s in base.game.sides]
    units = [
        Unit(
            id=f"u{i}",
            side=sides[i % 2],
            name=f"Unit {i}",
            label=f"L{i}",
            type="infantry",
            size="XX",
            steps=[str(i), str(100 + i)],
            setup=None,
        )
        for i in range(1, n + 1)
    ]
    markers = [Marker(id="m", name="Marker", front="Front", back="Back", count=3)]
    return base.model_copy(update={"units": units, "markers": markers})


def _opts(**kw: object) -> BuildOptions:
    return BuildOptions(**kw)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------------ tests
@pytest.mark.parametrize(("paper", "size"), [("letter", (612.0, 792.0)), ("a4", (595.276, 841.89))])
def test_page_sizes_and_interleaving(hg: Game, paper: str, size: tuple[float, float]) -> None:
    pdf = counters.render(hg, _opts(paper=paper))
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) % 2 == 0
    assert len(reader.pages) >= 4
    for p in reader.pages:
        assert float(p.mediabox.width) == pytest.approx(size[0], abs=0.01)
        assert float(p.mediabox.height) == pytest.approx(size[1], abs=0.01)
    heads = [reader.pages[i].extract_text() for i in range(len(reader.pages))]
    assert "Duplex calibration: FRONT" in heads[0]
    assert "Duplex calibration: BACK" in heads[1]
    for i in range(2, len(heads), 2):
        assert "FRONTS" in heads[i]
        assert f"BACKS (reverse of page {i + 1})" in heads[i + 1]


@pytest.mark.parametrize("size", COUNTER_SIZES)
def test_counter_pitch_is_the_counter_size(hg: Game, size: str) -> None:
    """Neighbouring counters' labels are exactly one counter apart (no bleed: counters butt together)."""
    game = numbered_game(hg, 40)
    pdf = counters.render(game, _opts(counter_size=size))
    labels = [t for t in page_texts(pdf, 2) if t.text.startswith("L")]
    rows: dict[float, list[float]] = {}
    for t in labels:
        rows.setdefault(round(t.y, 2), []).append(t.x)
    edge = length(size)
    pairs = 0
    for xs in rows.values():
        xs.sort()
        for a, b in itertools.pairwise(xs):
            assert b - a == pytest.approx(edge, abs=TOL)
            pairs += 1
    ys = sorted(rows)
    for a, b in itertools.pairwise(ys):
        assert b - a == pytest.approx(edge, abs=TOL)
    assert pairs > 5


def test_bleed_separates_counters(hg: Game) -> None:
    game = numbered_game(hg, 20)
    pdf = counters.render(game, _opts(bleed=True))
    xs = sorted(t.x for t in page_texts(pdf, 2) if t.text in {"L1", "L3", "L5"})  # one side: one row
    assert xs[1] - xs[0] == pytest.approx(length("5/8in") + 2 * length("1/8in"), abs=TOL)


@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("offset_mm", [(0.0, 0.0), (1.5, -2.0)])
def test_each_back_prints_behind_its_front(hg: Game, flip: str, offset_mm: tuple[float, float]) -> None:
    """Turn the printed back over (after the printer's misregistration, which ``back_offset`` corrects): the
    back's strength sits exactly behind the front's, to 0.1 mm.  On short-edge sheets this needs the 180°
    turn."""
    game = numbered_game(hg, 30)
    dx, dy = offset_mm[0] * MM, offset_mm[1] * MM
    pdf = counters.render(game, _opts(flip=flip, back_offset=(dx, dy)))
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    w, h = float(reader.pages[2].mediabox.width), float(reader.pages[2].mediabox.height)
    front = {t.text: t for t in page_texts(reader, 2)}
    back = {t.text: t for t in page_texts(reader, 3)}
    checked = 0
    for i in range(1, 31):
        f, b = front[str(i)], back[str(100 + i)]
        bx, by = b.centre()
        bx, by = bx + dx, by - dy  # the printer displaces the back page by (dx, dy), y down
        px, py = (w - bx, by) if flip == "long" else (bx, h - by)
        fx, fy = f.centre()
        assert (px, py) == pytest.approx((fx, fy), abs=TOL), f"unit {i}"
        if flip == "short":
            assert (b.ux, b.uy) == pytest.approx((-1.0, 0.0))  # drawn upside down on the back page
        checked += 1
    assert checked == 30


def test_calibration_scales_are_signed_like_the_flip(hg: Game) -> None:
    """A back misregistration (dx, dy) > 0 shows the ring on the side of the cross labelled DX+ / DY+."""
    from forge import impose

    for flip in ("long", "short"):
        pdf = counters.render(hg, _opts(flip=flip))
        reader = pypdf.PdfReader(io.BytesIO(pdf))
        w, h = float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)
        cx, cy = w / 2, h / 2
        near = [t for t in page_texts(reader, 0) if abs(t.x - cx) < 40 and abs(t.y - cy) < 40]
        dxp = next(t for t in near if t.text == "DX+")
        dyp = next(t for t in near if t.text == "DY+")
        u, v = impose.offset_on_front((1.0, 1.0), flip)  # type: ignore[arg-type]  # y down
        assert math.copysign(1, dxp.centre()[0] - cx) == math.copysign(1, u)
        assert math.copysign(1, cy - dyp.centre()[1]) == math.copysign(1, v)  # page y up -> y down


def test_calibration_rings_sit_behind_the_crosses(hg: Game) -> None:
    """With no misregistration the back's rings land on the front's crosses (drawn like counter backs)."""
    for flip in ("long", "short"):
        opts = _opts(flip=flip)
        layout = counters.sheet_layout(opts)
        from forge import impose

        for px, py in counters.calibration_points(layout):
            bx, by = impose.flip_point((px, py), layout, flip)  # type: ignore[arg-type]
            assert impose.flip_point((bx, by), layout, flip) == pytest.approx((px, py))  # type: ignore[arg-type]


@pytest.mark.parametrize("path", data_files(), ids=lambda p: p.stem)
def test_every_data_file_prints_every_unit_label(path: Path) -> None:
    game = load(path)
    pdf = counters.render(game, _opts())
    pages = all_texts(pdf)
    fronts = [t.text for i in range(2, len(pages), 2) for t in pages[i]]
    for u in game.units:
        n = u.copies * len(u.counter_faces())
        assert fronts.count(u.label) >= n, u.id
    for m in game.markers:
        n = counters.marker_count(m)
        assert sum(1 for t in fronts if t in m.front or m.front.startswith(t)) >= n, m.id


@pytest.mark.parametrize("path", data_files(), ids=lambda p: p.stem)
@pytest.mark.parametrize("size", ["1/2in", "5/8in"])
def test_no_text_below_five_points(path: Path, size: str) -> None:
    game = load(path)
    for opts in (
        _opts(counter_size=size),
        _opts(counter_size=size, flip="short", greyscale=True, bleed=True),
    ):
        for page in all_texts(counters.render(game, opts)):
            small = [(t.text, round(t.size, 2)) for t in page if t.size < counters.MIN_TEXT_PT - 1e-6]
            assert not small


def test_unknown_marker_counts_are_said(hg: Game) -> None:
    pdf = counters.render(hg, _opts())
    text = pypdf.PdfReader(io.BytesIO(pdf)).pages[2].extract_text()
    assert "marker counts not given by the rules: 4 printed" in text
    fronts = [t.text for t in page_texts(pdf, 2)]
    assert fronts.count("OOS") == counters.UNKNOWN_MARKER_COUNT


class Recorder(SvgCanvas):
    """An SVG canvas that also keeps every rectangle and circle drawn: ``(kind, args, style)``."""

    def __init__(self, size: float) -> None:
        super().__init__(size, size)
        self.shapes: list[tuple[str, tuple[float, ...], dict[str, object]]] = []

    def rect(self, x: float, y: float, w: float, h: float, **kw: object) -> None:  # type: ignore[override]
        self.shapes.append(("rect", (x, y, w, h), kw))
        super().rect(x, y, w, h, **kw)  # type: ignore[arg-type]

    def circle(self, cx: float, cy: float, r: float, **kw: object) -> None:  # type: ignore[override]
        self.shapes.append(("circle", (cx, cy, r), kw))
        super().circle(cx, cy, r, **kw)  # type: ignore[arg-type]

    def write_ins(self) -> list[tuple[str, tuple[float, ...]]]:
        """The write-in fields drawn: white inside, thin black outline."""
        return [(k, a) for k, a, st in self.shapes if st.get("fill") == "#ffffff" and st.get("stroke") == "#000000"]


def _face(**kw: object) -> counters.Face:
    base: dict[str, object] = {"kind": "unit", "background": "#9aa08c", "ink": "#000000", "label": "389"}
    return counters.Face(**{**base, **kw})  # type: ignore[arg-type]


def _pdf_texts(pdf: bytes, first: int = 2) -> list[str]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    return [doc[i].get_textpage().get_text_range() for i in range(first, len(doc))]


@pytest.mark.parametrize("path", data_files(), ids=lambda p: p.stem)
def test_unknown_values_print_no_question_mark(path: Path) -> None:
    """Every number the rules do not give (a strength, a support value, an entry turn) is a write-in field on
    the counter sheets, fronts and backs: no "?" is printed for it."""
    game = load(path)
    unknown = [u for u in game.units if any("?" in st for st in u.steps)]
    pages = _pdf_texts(counters.render(game, _opts(counter_size="1/2in")))
    assert not [ln for page in pages for ln in page.splitlines() if counters.WRITE_IN.search(ln)]
    if unknown:  # the units with unknown strengths are still there, labelled
        assert all(any(u.label in page for page in pages) for u in unknown)


def test_write_in_boxes_are_drawn_where_the_strength_is_unknown(hg: Game) -> None:
    s = length("1/2in")
    sizes = {}
    for strength, n in (("?", 1), ("[?]", 1), ("4-?-7", 1), ("?-?-?", 3), ("3", 0), ("[2]", 0)):
        rec = Recorder(s)
        counters.draw_face(rec, _face(strength=strength, unit_type="infantry"), s=s)
        boxes = [a for k, a in rec.write_ins() if k == "rect"]
        assert len(boxes) == n, strength
        for x, y, w, h in boxes:
            assert x > 0
            assert x + w < s
            assert s * 0.55 < y
            assert y + h < s
            sizes[strength] = (w, h)
    w, h = sizes["?-?-?"]  # the tightest: still room for a pencilled digit on a 1/2 in counter
    assert w >= 2.4 * MM
    assert h >= 2.5 * MM
    assert sizes["?"][0] >= 2.7 * MM
    assert sizes["?"][1] >= 2.8 * MM


def test_write_ins_for_marker_values_and_entry_turns() -> None:
    s = length("5/8in")
    rec = Recorder(s)
    counters.draw_face(rec, _face(kind="marker", text="+?"), s=s)
    assert len(rec.write_ins()) == 1
    rec = Recorder(s)
    counters.draw_face(rec, _face(kind="marker", text="Surrender?"), s=s)  # a question, not a number
    assert rec.write_ins() == []
    rec = Recorder(s)
    counters.draw_face(rec, _face(strength="3", unit_type="armour", entry_turn="?"), s=s)
    assert [k for k, _ in rec.write_ins()] == ["circle"]
    rec = Recorder(s)
    counters.draw_face(rec, _face(strength="3", unit_type="armour", entry_turn="4"), s=s)
    assert rec.write_ins() == []


def test_hells_gate_prints_write_in_boxes_not_question_marks(hg: Game) -> None:
    fronts = [t.text for t in page_texts(counters.render(hg, _opts()), 2)]
    assert "[2]" in fronts
    assert "3" in fronts
    assert "[?]" not in fronts
    assert "?" not in fronts
    assert fronts.count("[") == 6
    assert fronts.count("]") == 6


def test_multi_counter_units_mark_substitutes() -> None:
    game = load(Path(__file__).resolve().parent.parent / "data" / "first_panzer_army.yaml")
    multi = [u for u in game.units if len(u.counter_faces()) > 1]
    if not multi:
        pytest.skip("no multi-counter unit in the data")
    pdf = counters.render(game, _opts())
    texts = [t.text for page in all_texts(pdf)[2:] for t in page]
    assert texts.count("sub") >= 2 * sum(len(u.counter_faces()) - 1 for u in multi)


def test_pieces_pair_faces_by_step(hg: Game) -> None:
    groups = counters.pieces(hg)
    flat = {p.key: p for g in groups for p in g}
    two = flat["ger-389th#0"]
    assert (two.front.step, two.back.step) == (0, 1)
    assert two.back.kind == "unit"
    one = flat["sov-373rd#0"]
    assert one.back.kind == "plain"
    assert one.back.label == "373"


def test_set_code_on_backs_only(hg: Game) -> None:
    groups = counters.pieces(hg, set_code="S07", mode="class")
    for p in (p for g in groups for p in g):
        assert p.back.set_code == "S07"
        assert p.front.set_code is None


def test_deterministic(hg: Game) -> None:
    opts = _opts(flip="short", bleed=True, back_offset=(1.0, -2.0))
    assert counters.render(hg, opts) == counters.render(hg, opts)


def _golden(name: str, pdf: bytes, page: int) -> None:
    import pypdfium2 as pdfium
    from PIL import Image, ImageChops, ImageStat

    img = pdfium.PdfDocument(pdf)[page].render(scale=40 / 72).to_pil().convert("L")
    path = GOLDEN / f"{name}.png"
    if os.environ.get("HEXFORGE_UPDATE_GOLDEN") == "1" or not path.exists():
        if os.environ.get("HEXFORGE_UPDATE_GOLDEN") != "1":
            pytest.fail(f"missing golden image {path} (set HEXFORGE_UPDATE_GOLDEN=1 to create it)")
        path.parent.mkdir(parents=True, exist_ok=True)
        img.save(path)
    ref = Image.open(path).convert("L")
    assert ref.size == img.size
    diff = ImageStat.Stat(ImageChops.difference(ref, img)).mean[0]
    assert diff < 3.0, f"{name}: mean difference {diff:.2f} / 255"


def test_golden_counter_sheet(hg: Game) -> None:
    _golden("counters_hells_gate_sheet1", counters.render(hg, _opts()), 2)


def test_golden_counter_backs_short_flip(hg: Game) -> None:
    _golden("counters_hells_gate_backs_short", counters.render(hg, replace(_opts(), flip="short")), 3)


# ------------------------------------------------------------------------------------------------ draw once, place many
def _form_uses(pdf: bytes) -> tuple[int, int]:
    """How many form XObjects the document holds, and how many times its pages place one (``Do``)."""
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    forms = pdf.count(b"/Subtype /Form")
    uses = sum(len(re.findall(rb"/[\w.]+ Do\b", page.get_contents().get_data())) for page in reader.pages)
    return forms, uses


def test_repeated_symbols_size_marks_and_step_dots_are_drawn_once(hg: Game) -> None:
    game = numbered_game(hg, 30)  # 30 two-step infantry divisions: the same symbol, size mark and dots per side
    pdf = counters.render(game, _opts())
    faces = [f for g in counters.pieces(game) for p in g for f in (p.front, p.back) if f.kind == "unit"]
    assert len(faces) == 60
    reduced = sum(1 for f in faces if f.step > 0)
    colourings = {(f.ink, f.background) for f in faces}  # each side's faces, full strength and reduced alike
    forms, uses = _form_uses(pdf)
    assert forms == 3 * len(colourings)  # a symbol, a size mark and the dots per colouring, each drawn once
    # A symbol and a size mark on every unit face, dots on each reduced one: the first of each kind is drawn in
    # place, the others place its form.
    assert uses == 60 + 60 + reduced - forms
    assert counters.render(game, _opts()) == pdf


def test_an_element_drawn_once_makes_no_form(hg: Game) -> None:
    game = numbered_game(hg, 1)  # one unit: its symbol and size mark on both faces, its dots on the back only
    assert _form_uses(counters.render(game, _opts())) == (2, 2)


def test_a_placed_symbol_records_what_it_draws() -> None:
    """The layout recorder sees the text drawn inside a reused symbol (SEC) at every face that places it, inside
    that face's symbol frame."""
    from forge.canvas import Recorder

    game = load(Path(__file__).resolve().parent.parent / "data" / "ukraine_43.yaml")
    rec = Recorder()
    counters.render(game, _opts(), recorder=rec)
    faces = [f for g in counters.pieces(game) for p in g for f in (p.front, p.back) if f.kind == "unit"]
    symbols = [i for i, it in enumerate(rec.items) if it.label == "unit symbol"]
    assert len(symbols) == sum(1 for f in faces if f.unit_type is not None)
    sec = [it for it in rec.items if it.kind == "text" and it.label == "SEC"]
    assert len(sec) == sum(1 for f in faces if f.unit_type is UnitType.SECURITY) > 0
    for it in sec:
        assert it.parent in symbols
        frame = rec.items[it.parent].box
        assert frame.x0 - 0.01 <= it.box.x0
        assert it.box.x1 <= frame.x1 + 0.01
        assert frame.y0 - 0.01 <= it.box.y0
        assert it.box.y1 <= frame.y1 + 0.01


# ------------------------------------------------------------------------------------------------ the key
def _key_texts(game: Game) -> list[str]:
    return [t for _, t in counters.counter_key(game, counters.pieces(game))]


def test_counter_key_explains_what_the_counters_carry(hg: Game) -> None:
    """Hell's Gate's counters carry set-up hexes, circled entry turns, step dots, bracketed tank strengths and
    formation colours: the key names each, with a swatch of each formation's colour."""
    texts = " | ".join(_key_texts(hg))
    for part in ("set-up hex", "turn of entry", "dots", "[n]", "write it in"):
        assert part in texts
    swatches = {t: sw for sw, t in counters.counter_key(hg, counters.pieces(hg)) if sw is not None}
    groups = {g for s in hg.game.sides for g in s.groups if any(u.group == g for u in hg.units)}
    assert set(swatches) == groups
    sov = hg.side("soviet")
    assert {swatches[g] for g in sov.groups if g in swatches} == {c.lower() for c in sov.groups.values()}


def test_counter_key_says_nothing_no_counter_shows(hg: Game) -> None:
    """A mark no counter carries is not explained: a game of plain one-step units with no set-up hex, no
    entry and known strengths has no key entries but its formations."""
    plain = numbered_game(hg, 4)
    one_step = plain.model_copy(update={"units": [u.model_copy(update={"steps": u.steps[:1]}) for u in plain.units]})
    assert _key_texts(one_step) == []
    assert "dots: steps, filled for those left" in _key_texts(plain)  # reduced faces show the dots


def test_counter_key_is_printed_on_both_pages(hg: Game) -> None:
    pdf = counters.render(hg, _opts(paper="letter"))
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    for i in (2, 3):  # fronts and backs (pages 1-2 are the duplex calibration)
        text = reader.pages[i].extract_text()
        assert "Key:" in text
        assert "set-up hex" in text
        assert "2nd Ukrainian Front" in text
    # every key line stays inside the page's printable area
    for t in page_texts(pdf, 2):
        assert t.y >= counters.PRINTABLE_MARGIN - 0.01
