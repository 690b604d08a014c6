"""The one palette (forge.render.style.Palette) and greyscale that works: what must be told apart in a
greyscale print is at least MIN_CONTRAST apart in CIE L*, or carries a distinct pattern or marking that is drawn.

"Told apart": the formations of one side (unit counter colours), the sides, and the terrain types of one kind
(hex fills, hexside lines, path lines).  Checked on every data file, on what the counters actually draw (their
faces), and on the map, whose greys come from the same palette.
"""

from __future__ import annotations

import io
import re
import itertools
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest
from conftest import data_files
from test_render_counters import Recorder

from forge.builder import BuildOptions
from forge.loader import load
from forge.model import Game, Pattern, TerrainKind
from forge.render import cards, counters
from forge.render import map as map_render
from forge.render.style import MARKINGS, MIN_CONTRAST, Palette, grey_of_lightness, lightness
from forge.units import length

ROOT = Path(__file__).resolve().parent.parent


def _apart(a: str, b: str) -> bool:
    return abs(lightness(a) - lightness(b)) >= MIN_CONTRAST


@pytest.fixture(scope="module")
def hg() -> Game:
    return load(ROOT / "data" / "hells_gate.yaml")


def many_formations(base: Game, n: int = 8) -> Game:
    """``base`` whose first side has ``n`` formations of distinct colours, each with units: more than the greys
    that fit, so some share a grey and need a marking."""
    cols = ["#c8102e", "#8b4a2b", "#ffc58a", "#8e5ea2", "#d2691e", "#f5d90a", "#800000", "#b2beb5", "#4a78b5"]
    side = base.game.sides[0]
    groups = {f"f{i}": cols[i % len(cols)] for i in range(n)}
    own = [u for u in base.units if u.side == side.id]
    units = [
        u.model_copy(update={"group": f"f{own.index(u) % n}"}) if u.side == side.id else u for u in base.units
    ]
    sides = [side.model_copy(update={"groups": groups}), *base.game.sides[1:]]
    return base.model_copy(update={"units": units, "game": base.game.model_copy(update={"sides": sides})})


def test_lightness_and_its_inverse() -> None:
    assert lightness("#ffffff") == pytest.approx(100.0)
    assert lightness("#000000") == pytest.approx(0.0)
    for v in (0.0, 12.0, 37.5, 50.0, 81.0, 100.0):
        assert lightness(grey_of_lightness(v)) == pytest.approx(v, abs=0.3)


@pytest.mark.parametrize("path", data_files(), ids=lambda p: p.stem)
def test_colour_palette_prints_colours_as_given(path: Path) -> None:
    game = load(path)
    p = Palette.of(game)
    assert not p.greyscale
    assert p.mapping() == {}
    for s in game.game.sides:
        assert p(s.colour) == s.colour
    for t in game.terrain.values():
        assert p(t.colour) == t.colour


@pytest.mark.parametrize("path", [*data_files(), "many-formations"], ids=lambda p: getattr(p, "stem", str(p)))
def test_counters_in_greyscale_tell_formations_and_sides_apart(path: Path | str, hg: Game) -> None:
    """Two unit counters of different colours in the game: in greyscale their fills are >= 20 L* apart, or
    they differ in marking (same side) or in the frame that marks the second side."""
    game = many_formations(hg) if path == "many-formations" else load(path)
    faces = [(p.key.split("#")[0], p.front) for g in counters.pieces(game, mode="grey") for p in g]
    unit_faces = [(k, f) for k, f in faces if f.kind == "unit"]
    colour_of = {u.id: Palette.unit_colour(game, u.side, u.group) for u in game.units}
    side_of = {u.id: u.side for u in game.units}
    checked = 0
    for (ka, a), (kb, b) in itertools.combinations(unit_faces, 2):
        if colour_of[ka].lower() == colour_of[kb].lower():
            continue  # the game prints them alike in colour too
        checked += 1
        if side_of[ka] != side_of[kb]:
            assert _apart(a.background, b.background) or a.frame != b.frame, (ka, kb)
        else:
            assert _apart(a.background, b.background) or a.marking != b.marking, (ka, kb)
    assert checked or len({c.lower() for c in colour_of.values()}) <= 1
    # and the class handout's counters use the very same palette
    klass = [p.front.background for g in counters.pieces(game, mode="class") for p in g]
    assert klass == [f.background for _, f in faces]


def test_hells_gate_soviet_fronts_differ_in_grey(hg: Game) -> None:
    """The issue's case: the brown (1st Ukrainian Front) and the red (2nd) Soviet counters."""
    p = Palette.of(hg, greyscale=True)
    assert _apart(p("#8b4a2b"), p("#c8102e"))
    fpa = load(ROOT / "data" / "first_panzer_army.yaml")
    q = Palette.of(fpa, greyscale=True)
    assert _apart(q("#8b4a2b"), q("#c8102e"))


def test_markings_are_used_when_greys_run_out_and_are_drawn(hg: Game) -> None:
    game = many_formations(hg, 8)
    p = Palette.of(game, greyscale=True)
    side = game.game.sides[0]
    kinds = {p.marking(side.id, c) for c in side.groups.values()}
    assert {0, 1} <= kinds  # 8 colours, fewer greys: some share one, told apart by their symbol boxes
    note = counters.marking_note(game, "grey")
    assert note is not None
    assert MARKINGS[1] in note
    s = length("5/8in")
    drawn: dict[int, bytes] = {}
    for k in range(len(MARKINGS)):
        rec = Recorder(s)
        face = counters.Face(
            kind="unit", background="#777777", ink="#000000", label="5G", unit_type="infantry", strength="3",
            marking=k,
        )  # fmt: skip
        counters.draw_face(rec, face, s=s)
        svg = rec.tobytes()
        drawn[k] = svg
        if k == 1:  # the symbol box filled with the ink
            assert any(kind == "rect" and st.get("fill") == "#000000" for kind, _, st in rec.shapes)
        if k == 2:
            assert svg.count(b"<line") > 6  # hatching
    assert len(set(drawn.values())) == len(MARKINGS)  # each marking draws something different


def test_second_side_frame_is_drawn() -> None:
    s = length("5/8in")
    plain, framed = Recorder(s), Recorder(s)
    base = {"kind": "unit", "background": "#777777", "ink": "#000000", "label": "3", "strength": "3"}
    counters.draw_face(plain, counters.Face(**base), s=s)  # type: ignore[arg-type]
    counters.draw_face(framed, counters.Face(**base, frame=True), s=s)  # type: ignore[arg-type]
    assert len(framed.shapes) == len(plain.shapes) + 1
    assert any(st.get("stroke") == "#000000" and st.get("fill") is None for _, _, st in framed.shapes)


@pytest.mark.parametrize("path", data_files(), ids=lambda p: p.stem)
def test_sides_and_terrain_types_apart_in_greyscale(path: Path) -> None:
    game = load(path)
    p = Palette.of(game, greyscale=True)
    sides = game.game.sides
    for a, b in itertools.combinations(sides, 2):
        if a.colour.lower() != b.colour.lower():
            assert _apart(p(a.colour), p(b.colour)), (a.id, b.id)
    hexes = [t for t in game.terrain.values() if t.kind is TerrainKind.HEX]
    for a, b in itertools.combinations(hexes, 2):
        if a.colour.lower() != b.colour.lower():
            assert _apart(p(a.colour), p(b.colour)) or Pattern(a.pattern) != Pattern(b.pattern), (a.name, b.name)
    for kind in (TerrainKind.HEXSIDE, TerrainKind.PATH):
        lines = [t for t in game.terrain.values() if t.kind is kind]
        for a, b in itertools.combinations(lines, 2):
            if a.colour.lower() != b.colour.lower():
                assert _apart(p(a.colour), p(b.colour)), (a.name, b.name)
    features = [t for t in game.terrain.values() if t.kind is TerrainKind.FEATURE]
    symbols = [map_render._symbol_kind(tid, t) for tid, t in game.terrain.items() if t in features]
    assert len(set(symbols)) == len(symbols)  # features are told apart by their symbols


def _colours_used(pdf: bytes) -> set[str]:
    """Every ``r g b rg`` / ``RG`` colour set in the PDF's content streams (pages and forms), as ``#rrggbb``."""
    import re

    reader = pypdf.PdfReader(io.BytesIO(pdf))
    streams = []
    for i in range(1, int(reader.trailer["/Size"])):
        obj = reader.get_object(i)
        if isinstance(obj, pypdf.generic.StreamObject) and "/Length1" not in obj:  # not a font program
            streams.append(obj.get_data())
    out: set[str] = set()
    for s in streams:
        for m in re.finditer(rb"([\d.]+) ([\d.]+) ([\d.]+) (?:rg|RG)\b", s):
            r, g, b = (round(float(v) * 255) for v in m.groups())
            out.add(f"#{r:02x}{g:02x}{b:02x}")
    return out


def test_map_in_greyscale_uses_the_palette() -> None:
    """First Panzer Army's minor and major rivers: the map prints the palette's greys for them (their plain
    luminances are too close), and no colour at all."""
    game = load(ROOT / "data" / "first_panzer_army.yaml")
    p = Palette.of(game, greyscale=True)
    river, major = (t.colour for t in game.terrain.values() if t.kind is TerrainKind.HEXSIDE)
    assert _apart(p(river), p(major))
    used = _colours_used(map_render.render(game, BuildOptions(greyscale=True, paper="tabloid")))
    assert {p(river), p(major)} <= used
    assert all(c[1:3] == c[3:5] == c[5:7] for c in used)  # greys only


def test_greyscale_legend_says_what_the_print_shows(hg: Game) -> None:
    def text(opts: BuildOptions) -> str:
        doc = pdfium.PdfDocument(map_render.render(hg, opts))  # pdfium: ~50x faster than pypdf on a map page
        return re.sub(r"\s+", " ", " ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc))))

    colour, grey = text(BuildOptions(paper="tabloid")), text(BuildOptions(paper="tabloid", greyscale=True))
    assert "Red marks" in colour
    assert "Red marks" not in grey
    assert "Dark grey badges" in grey


def test_card_swatches_draw_the_map_icons(hg: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cards' terrain chart shows a city and an airfield as the map draws them (the map's own symbol)."""
    drawn: list[str] = []
    real = map_render._feature_symbol

    def spy(pen: map_render.Pen, kind: str, *args: object, **kw: object) -> None:
        drawn.append(kind)
        real(pen, kind, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(map_render.grid, "_feature_symbol", spy)
    for greyscale in (False, True):
        drawn.clear()
        cards.render(hg, BuildOptions(greyscale=greyscale))
        assert {"city", "airfield"} <= set(drawn)
