"""The large-map fast paths of the map renderer give what the plain paths give (issue 11, item 3).

- ``MapGeometry.center``/``corners`` write ``Grid.center``/``Grid.corners``' arithmetic out for hexes: the same
  floats, to the last bit, for every kind, orientation and parity;
- ``PathBatch.polygon`` (one ``fp_str`` per polygon) writes the operators and the batches of
  ``moveTo``/``lineTo``/``close``;
- the thumbnail form takes the sheet form's fills and hex lines (``_GridReplay``): the map's bytes are those of
  the thumbnail drawn again;
- a hex's polygon from its column's and its row's numbers (``_Corners.pdf_polygon``, ``PathBatch.polygon_of``)
  writes what the polygon of its corners writes;
- text formatted without reportlab's text object (``canvas._text_code``) is reportlab's, and registers the same
  glyphs in the same font subsets; a stream's text encoded as ASCII (``pdf.pdfdoc_bytes``) is ``pdfdocEnc``'s;
- the registration marks, each strip's clearances measured once for both its tiles, stand where they stood;
- above ``FAST_PATHS_ABOVE`` hexes the bytes change (runs of labels share a text object, the forms are compressed
  faster) but not the picture: every page rasterises to the same pixels and reads back the same text, and the
  layout checker's record is the same.
"""

from __future__ import annotations

import io
import math
import random
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfdoc import pdfdocEnc
from reportlab.pdfgen.canvas import Canvas

from forge import tiling
from forge.builder import BuildOptions
from forge.canvas import PdfCanvas, Recorder
from forge.hexgrid import Cell, Grid, GridKind, Orientation, Parity
from forge.loader import load
from forge.pdf import FONT, FONT_BOLD, new_canvas, pdfdoc_bytes
from forge.render import map as M
from forge.render.style import PathBatch

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("kind", list(GridKind))
@pytest.mark.parametrize("orientation", list(Orientation))
@pytest.mark.parametrize("parity", list(Parity))
def test_geometry_matches_grid(kind: GridKind, orientation: Orientation, parity: Parity) -> None:
    for cols, rows in ((9, 7), (1, 4), (4, 1), (1, 1)):
        grid = Grid(kind, cols, rows, orientation=orientation, parity=parity)
        for size in (36.0, 0.6 * 72, 17.3, 0.75 * 72):
            geom = M.MapGeometry(grid, size, 12.345, 27.9)
            for c in [*grid.cells(), Cell(-1, -3), Cell(40, 41)]:
                want = [(geom.ox + x, geom.oy + y) for x, y in grid.corners(c, size)]
                assert repr(geom.corners(c)) == repr(want)
                x, y = grid.center(c, size)
                assert repr(geom.center(c)) == repr((geom.ox + x, geom.oy + y))


def _batched(polys: list[list[tuple[float, float]]], fast: bool) -> str:
    c = Canvas(None)  # type: ignore[arg-type]
    start = len(c._code)
    pb = PathBatch(c, stroke=True, fill=True, limit=150.0)  # small: several batches
    for pts in polys:
        if fast:
            pb.polygon([v for p in pts for v in p])
        else:
            pb.moveTo(*pts[0])
            for p in pts[1:]:
                pb.lineTo(*p)
            pb.lineTo(*pts[0])
            pb.close()
    pb.flush()
    return "\n".join(c._code[start:])


def test_path_batch_polygon_matches_line_by_line() -> None:
    rnd = random.Random(7)
    polys = [
        [(rnd.uniform(-50, 600), rnd.uniform(-50, 800)) for _ in range(rnd.choice((1, 3, 4, 6, 6, 6)))]
        for _ in range(200)
    ]
    slow = _batched(polys, fast=False)
    assert slow.count("B*") > 3  # the limit split it into batches
    assert _batched(polys, fast=True) == slow


def test_thumbnail_replay_gives_the_same_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load(ROOT / "data" / "hells_gate.yaml")
    opts = BuildOptions(paper="letter")  # tiled: a sheet form and its thumbnail
    public = M.render(game, opts)  # every tiled map replays the sheet's drawing in its thumbnail ...
    monkeypatch.setattr(M.grid, "COMPACT_EVERY", 8)  # ... a large one also joins its operators as it goes
    used = []
    replay = M._GridReplay.replay

    def counted(self: M._GridReplay, rl: object) -> bool:
        used.append(replay(self, rl))
        return used[-1]

    monkeypatch.setattr(M._GridReplay, "replay", counted)
    fast = M.render(game, opts)
    assert used
    assert all(used)
    monkeypatch.setattr(M._GridReplay, "replay", lambda self, rl: False)
    assert M.render(game, opts) == fast == public


def test_an_ordinary_tiled_map_replays_its_sheet_in_the_thumbnail(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hell's Gate (49 hexes) on Letter: its thumbnail takes the sheet's drawing too (before, only a map of more than
    COMPACT_EVERY hexes did), to the bytes of the thumbnail drawn again."""
    game = load(ROOT / "data" / "hells_gate.yaml")
    opts = BuildOptions(paper="letter")
    used: list[bool] = []
    replay = M._GridReplay.replay
    monkeypatch.setattr(M._GridReplay, "replay", lambda self, rl: used.append(replay(self, rl)) or used[-1])
    fast = M.render(game, opts)
    assert used == [True]
    monkeypatch.setattr(M._GridReplay, "replay", lambda self, rl: False)
    assert M.render(game, opts) == fast


@pytest.mark.parametrize("kind", [GridKind.HEX, GridKind.SQUARE])
@pytest.mark.parametrize("orientation", list(Orientation))
@pytest.mark.parametrize("parity", list(Parity))
def test_hex_polygons_from_their_column_and_row(kind: GridKind, orientation: Orientation, parity: Parity) -> None:
    grid = Grid(kind, 23, 17, orientation=orientation, parity=parity)
    geom = M.MapGeometry(grid, 0.6 * 72, 12.345, 27.9)
    codes = []
    for own in (True, False):
        c = Canvas(None)  # type: ignore[arg-type]
        pc = PdfCanvas(c, top=1234.5)
        polys = [M._Corners(geom, cell) for cell in grid.cells()]
        pc.polygons(polys if own else [list(p) for p in polys], fill="#abcdef", stroke="#123456")
        codes.append(c._code)
    assert codes[0] == codes[1]
    assert sum(op.endswith("B*") for op in codes[0]) > 1  # several batches (BATCH_LENGTH)
    has_own = M._Corners(geom, Cell(0, 0)).pdf_polygon(0.0) is not None
    assert has_own == (kind is GridKind.HEX)


_MANY = "".join(map(chr, [*range(0x100, 0x17F), *range(0x391, 0x3A2), *range(0x3A3, 0x3CA), *range(0x410, 0x450)]))
"""More characters than the first font subset has room for: the text runs on into a second one."""
_SAMPLES = [
    ("0805", FONT, 6.0, "middle", "#333333"),
    ("C6", FONT_BOLD, 7.0, "start", "#000000"),
    ("Тихоновка", FONT, 8.0, "end", "#1a2b3c"),
    ("(paren) back\\slash", FONT, 6.0, "middle", "#333333"),
    ("1,2", FONT, 6.0, "middle", "#333333"),
    (_MANY, FONT, 6.0, "start", "#333333"),
    ("Γιάνοβκα ŁŽ 12", FONT, 6.0, "middle", "#333333"),
    ("", FONT, 6.0, "middle", "#333333"),
    ("1,3", FONT, 6.0, "middle", "#333333"),
]


def _draw_texts(how: str) -> tuple[list[str], bytes]:
    buf = io.BytesIO()
    c = new_canvas(buf, (612, 792))
    pc = PdfCanvas(c, top=792.0)
    pc.join_text = how == "joined"
    for i, (s, font, size, anchor, fill) in enumerate(_SAMPLES):
        x, y = 20.0 if s is _MANY else 300.0, 40.0 + 80 * i
        if how == "reportlab":
            c.setFillColor(HexColor(fill))
            c.setFont(font, size)
            draw = {"start": c.drawString, "middle": c.drawCentredString, "end": c.drawRightString}[anchor]
            draw(x, 792.0 - y, s)
        else:
            pc.text(x, y, s, font=font, size=size, anchor=anchor, fill=fill)  # type: ignore[arg-type]
    ops = list(c._code)
    c.showPage()
    c.save()
    return ops, buf.getvalue()


def test_text_operators_are_reportlabs() -> None:
    ours, pdf = _draw_texts("ours")
    theirs, pdf_rl = _draw_texts("reportlab")
    assert ours == theirs
    assert any("/F1+1 " in op for op in ours)  # a second subset was needed
    assert pdf == pdf_rl  # the same glyphs embedded in the same subsets


def _pixels(pdf: bytes, dpi: float = 36) -> list[bytes]:
    doc = pdfium.PdfDocument(pdf)
    return [page.render(scale=dpi / 72).to_pil().convert("RGB").tobytes() for page in doc]


def _texts(pdf: bytes) -> list[str]:
    return [page.get_textpage().get_text_range() for page in pdfium.PdfDocument(pdf)]


def test_joined_text_objects_look_the_same() -> None:
    plain, pdf = _draw_texts("ours")
    joined, pdf_joined = _draw_texts("joined")
    assert sum(op.startswith("BT") for op in joined) < sum(op.startswith("BT") for op in plain)
    assert pdf_joined != pdf
    assert _pixels(pdf_joined, 72) == _pixels(pdf, 72)
    assert _texts(pdf_joined) == _texts(pdf)


def test_stream_text_encodes_as_reportlab_encodes_it() -> None:
    rnd = random.Random(3)
    samples = ["", "0 0 m 1 1 l h\nBT (x) Tj ET", "\x7f~ (\\050)", "caf\xe9", "\u2022 \u2013", "tab\there"]
    samples += ["".join(chr(rnd.randrange(32, 127)) for _ in range(rnd.randrange(1, 300))) for _ in range(200)]
    for text in samples:
        assert pdfdoc_bytes(text) == pdfdocEnc(text)
    for hole in range(0x18, 0x20):  # characters reportlab's codec refuses: refused here too
        with pytest.raises(UnicodeEncodeError):
            pdfdocEnc(f"a{chr(hole)}b")
        with pytest.raises(UnicodeEncodeError):
            pdfdoc_bytes(f"a{chr(hole)}b")


def _reference_points(strip: tiling.Strip, obstacles: Sequence[tiling.Rect], tile: str) -> list[tuple[float, float]]:
    """registration_points as it was before each strip's clearances were kept for its second tile (measuring the
    strip's one label, as it does since both tiles measure the same)."""
    r = strip.rect
    vertical = strip.side in ("left", "right")
    length = r.h if vertical else r.w
    box = tiling.Rect(r.x - 72, r.y - 72, r.w + 144, r.h + 144)
    near = [o for o in obstacles if o.intersection(box)]
    _, size, tw = M._overlap_label(strip, tile)
    if vertical:
        near.append(tiling.Rect(r.x + r.w / 2 - size * 0.75, r.y + r.h / 2 - tw / 2, size * 1.5, tw))
    else:
        near.append(tiling.Rect(r.x + r.w / 2 - tw / 2, r.y + r.h / 2 - size * 0.75, tw, size * 1.5))

    def at(t: float) -> tuple[float, float]:
        return (r.x + r.w / 2, r.y + t) if vertical else (r.x + t, r.y + r.h / 2)

    enough = 4 * M.REG_REACH
    start = r.y if vertical else r.x
    bins: dict[int, list[tuple[float, float, float, float]]] = {}
    for o in near:
        a0, a1 = (o.y, o.y + o.h) if vertical else (o.x, o.x + o.w)
        for k in range(math.floor((a0 - start - enough) / enough), math.floor((a1 - start + enough) / enough) + 1):
            bins.setdefault(k, []).append((o.x, o.y, o.x + o.w, o.y + o.h))
    best: list[tuple[float, float]] = []
    for lo, hi, quarter in ((0.08, 0.5, 0.25), (0.5, 0.92, 0.75)):
        best_t, best_key = quarter * length, (-math.inf, 0.0)
        t = lo * length
        while t <= hi * length:
            clear = min(M._clear_of(*at(t), bins.get(math.floor(t / enough), ())), enough)
            key = (clear, -abs(t - quarter * length))
            if key > best_key:
                best_t, best_key = t, key
            t += 3.6
        best.append((best_key[0], best_t))
    kept = [(c, t) for c, t in best if c >= M.REG_REACH]
    return [at(t) for _, t in (kept or [max(best)])]


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_registration_marks_stand_where_they_stood(paper: str) -> None:
    checked = 0
    for path in sorted((ROOT / "data").glob("*.yaml")):
        game = load(path)
        options = replace(BuildOptions(), paper=paper)
        lay = M.sheet_layout(game, options)
        pw, ph = options.paper_size()
        if tiling.fits(lay.sheet_w, lay.sheet_h, pw, ph):
            continue
        ctx = M._Ctx.build(game, options, {})
        for i in range(len(lay.pages)):
            obstacles = M.mark_obstacles(ctx, lay, i)  # kept per strip for the second tile
            plain = list(obstacles)  # measured afresh every time
            for tile in tiling.plan(lay.sheet_w, lay.sheet_h, pw, ph).tiles:
                for strip in tile.strips:
                    want = _reference_points(strip, plain, tile.name)
                    assert M.registration_points(strip, obstacles, tile=tile.name) == want
                    assert M.registration_points(strip, plain, tile=tile.name) == want
                    checked += 1
            assert not obstacles.strips  # every strip asked for by both its tiles
    assert checked > 20


def test_any_unknown_without_every_cell() -> None:
    for path in sorted((ROOT / "data").glob("*.yaml")):
        ctx = M._Ctx.build(load(path), BuildOptions(), {})
        assert ctx.any_unknown == any(ctx.terrain_of[c] is None for c in ctx.grid.cells())
        assert len(ctx.terrain_of) == sum(1 for _ in ctx.grid.cells())


def test_large_map_fast_paths_keep_the_picture(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hell's Gate drawn as a map above FAST_PATHS_ABOVE hexes is drawn (and sealed early, COMPACT_EVERY): other
    bytes, the same pages, pixels, text and layout record."""
    game = load(ROOT / "data" / "hells_gate.yaml")
    opts = BuildOptions(paper="letter")
    plain_rec, fast_rec = Recorder("plain"), Recorder("fast")
    plain = M.render(game, opts, recorder=plain_rec)
    monkeypatch.setattr(M.grid, "COMPACT_EVERY", 8)
    monkeypatch.setattr(M.grid, "FAST_PATHS_ABOVE", 8)
    fast = M.render(game, opts, recorder=fast_rec)
    assert fast != plain
    assert fast.count(b"FlateDecode") == plain.count(b"FlateDecode")
    assert fast.count(b"ASCII85Decode") == plain.count(b"ASCII85Decode") - 2  # the two forms are left binary
    assert _texts(fast) == _texts(plain)
    assert _pixels(fast) == _pixels(plain)
    assert fast_rec.items == plain_rec.items
    assert any(p.kind == "text" and p.label == "C6" for p in fast_rec.forms["sheet0"])
