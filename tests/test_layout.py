"""forge.layout: the checker of what the drawing layer places (issue 10, item 1).

Properties:
- each rule finds what it is about, on a drawing made for it: a text out of its frame, a text over another text or
  over a symbol, a mark over content, anything in the printer margin; and spares what is drawn to overlap by
  design (text on its own badge, symbols side by side, a cover patch over what lies below it);
- every seed game, built with a matrix of options in which every option value occurs at least once (paper
  letter/a4/tabloid, counter sizes 1/2, 5/8, 3/4 in, flip long/short, bleed, greyscale, class sets), places its
  map, counter sheets and handout without a single violation;
- ``forge verify`` reports a violation as a ``print-layout`` warning; ``--no-print-check`` reports none.

Cards and the handout's player aids and sheets are blocks drawn through the canvas and recorded too; their PDF is also
checked for overlapping text and text in the margin (``layout.check_pdf``).
"""

from __future__ import annotations

import re

import pytest
from conftest import DATA, seed_game

from forge import layout
from forge.builder import BuildOptions
from forge.canvas import Canvas, PdfCanvas, Recorder, SvgCanvas
from forge.cli import main
from forge.pdf import FONT, render_pdf
from forge.render import cards, counters, handout
from forge.render import map as map_
from forge.verifier import policy
from forge.verifier.readback import roundtrip

W, H = 200.0, 200.0


def violations(draw: object, margin: float | None = None) -> list[layout.Violation]:
    rec = Recorder("test")
    rec.page(W, H, "p1", margin=margin)
    c = SvgCanvas(W, H, recorder=rec)
    draw(c)  # type: ignore[operator]
    return layout.check(rec)


# ------------------------------------------------------------------------------------------------ each rule
def test_text_out_of_its_frame() -> None:
    def draw(c: Canvas) -> None:
        with c.frame("container", 20, 20, 30, 20, "counter"):
            c.text(22, 32, "fits", size=6, font=FONT)
            c.text(22, 38, "much too long for it", size=6)

    (v,) = violations(draw)
    assert v.rule == "outside"
    assert "'much too long for it'" in v.message
    assert "'counter'" in v.message


def test_text_over_text_and_over_a_symbol() -> None:
    def draw(c: Canvas) -> None:
        c.text(20, 30, "0101", size=8)
        c.text(30, 31, "Korsun", size=8)  # over the label
        with c.frame("symbol", 100, 20, 20, 20, "city"):
            c.rect(100, 20, 20, 20, fill="#000000")
        c.text(95, 30, "Kiev", size=8)  # over the city symbol, not on it by design

    found = violations(draw)
    assert [v.rule for v in found] == ["overlap", "overlap"]
    assert "'Korsun'" in found[0].message
    assert "'0101'" in found[0].message
    assert "'Kiev'" in found[1].message
    assert "'city'" in found[1].message


def test_designed_overlaps_are_declared_not_tolerated() -> None:
    def draw(c: Canvas) -> None:
        with c.frame("symbol", 20, 20, 30, 12, "VP badge"):  # text on its own badge
            c.rect(20, 20, 30, 12, fill="#ffffff", stroke="#000000")
            c.text(35, 29, "2 VP", size=7, anchor="middle")
        with c.frame("symbol", 60, 20, 20, 20, "town"), c.frame("symbol", 70, 20, 20, 20, "road"):
            pass  # symbols side by side may share room
        c.text(100, 30, "0707", size=8)  # content ...
        with c.frame("symbol", 98, 20, 40, 14, "overlap label", cover=True):  # ... a cover patch laid over it
            c.text(100, 31, "overlap", size=8)

    assert violations(draw) == []

    def later(c: Canvas) -> None:  # what is drawn after a cover is not under it
        with c.frame("symbol", 98, 20, 40, 14, "overlap label", cover=True):
            c.text(100, 31, "overlap", size=8)
        c.text(100, 30, "0707", size=8)

    assert [v.rule for v in violations(later)] == ["overlap", "overlap"]  # over the patch and over its text


def test_a_mark_over_content() -> None:
    def draw(c: Canvas) -> None:
        c.text(20, 30, "turn 7", size=8)
        with c.frame("mark", 25, 20, 10, 10, "registration mark"):
            c.circle(30, 25, 4, stroke="#000000")
        with c.frame("mark", 100, 100, 10, 10, "registration mark"):
            pass  # clear of everything

    (v,) = violations(draw)
    assert v.rule == "mark"
    assert "'turn 7'" in v.message


def test_nothing_in_the_printer_margin() -> None:
    def draw(c: Canvas) -> None:
        c.text(20, 30, "inside", size=8)
        c.text(2, 100, "edge", size=8)
        with c.frame("mark", 195, 100, 4, 4, "crop mark"):
            pass

    found = violations(draw, margin=14.17)
    assert sorted(v.rule for v in found) == ["margin", "margin"]
    assert violations(draw, margin=None) == []  # a page that declares no margin (an image)


def test_a_recording_build_gives_the_same_bytes() -> None:
    game = seed_game("hells_gate")
    opts = BuildOptions()
    assert map_.render(game, opts) == map_.render(game, opts, recorder=Recorder())
    assert counters.render(game, opts) == counters.render(game, opts, recorder=Recorder())


# ------------------------------------------------------------------------------------------------ seed games
GAMES = sorted(p.stem for p in DATA.glob("*.yaml"))

# Each option value at least once, never the full product (a sweep of every paper x counter size x flip x bleed on
# every game found nothing more): the map of every game on one paper (letter, a4, tabloid twice each, half of them
# in greyscale); the counters of every game in three of the settings below, of the two games with the most
# counters in all six; the class handout (sets) of the two smaller games.
MAPS = {
    "escape_from_hells_gate": BuildOptions(paper="letter"),
    "ferry_point": BuildOptions(paper="a4", greyscale=True),
    "first_panzer_army": BuildOptions(paper="tabloid"),
    "halden_line": BuildOptions(paper="letter"),
    "hells_gate": BuildOptions(paper="letter", greyscale=True),
    "tabletop_hells_gate": BuildOptions(paper="a4"),
    "ukraine_43": BuildOptions(paper="tabloid", greyscale=True),
}
COUNTERS = [
    BuildOptions(paper="letter", counter_size="1/2in", flip="long"),
    BuildOptions(paper="a4", counter_size="5/8in", flip="short", bleed=True),
    BuildOptions(paper="tabloid", counter_size="3/4in", flip="long", greyscale=True),
    BuildOptions(paper="letter", counter_size="3/4in", flip="short", bleed=True, greyscale=True),
    BuildOptions(paper="a4", counter_size="1/2in", flip="short", greyscale=True),
    BuildOptions(paper="letter", counter_size="5/8in", flip="long", bleed=True, back_offset=(2.0, -1.5)),
]
HANDOUTS = [("hells_gate", BuildOptions(paper="letter", sets=2)), ("ferry_point", BuildOptions(paper="a4", sets=1))]


def _assert_clean(rec: Recorder) -> None:
    found = layout.check(rec)
    assert rec.items, "nothing was recorded"
    assert not found, "\n".join(str(v) for v in found[:20])


@pytest.mark.parametrize("name", GAMES)
def test_seed_maps_have_no_layout_violations(name: str) -> None:
    rec = Recorder(f"{name} map")
    map_.render(seed_game(name), MAPS[name], recorder=rec)
    assert any(it.kind == "text" for it in rec.items)
    assert any(p.printable for p in rec.pages)
    _assert_clean(rec)


@pytest.mark.parametrize("name", GAMES)
def test_seed_counter_sheets_have_no_layout_violations(name: str) -> None:
    for i, opts in enumerate(COUNTERS):
        if i % 2 and name not in ("hells_gate", "ukraine_43"):
            continue  # every setting on the two games with the most counters, every other one on the rest
        rec = Recorder(f"{name} counters {opts.counter_size} {opts.paper} {opts.flip}")
        counters.render(seed_game(name), opts, recorder=rec)
        assert any(it.kind == "container" for it in rec.items)
        _assert_clean(rec)


@pytest.mark.parametrize(("name", "opts"), HANDOUTS)
def test_seed_handouts_have_no_layout_violations(name: str, opts: BuildOptions) -> None:
    rec = Recorder(f"{name} handout")
    pdf = handout.render(seed_game(name), opts, recorder=rec)
    assert any("S02" in p.name for p in rec.pages) == (opts.sets == 2)
    _assert_clean(rec)
    assert any(it.label.startswith("region") for it in rec.items)  # the player aids and sheets are recorded too
    assert layout.check_pdf(pdf, f"{name} handout") == []


def test_the_defects_of_the_print_run_would_be_caught_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Undo two fixes of issue 10 and the checker reports them on the real pages: the tile footer and scale bar run
    across the crop marks; registration marks placed blind to what the strip holds cover hex labels."""
    game = seed_game("hells_gate")
    monkeypatch.setattr(map_.tiles, "CROP_CLEAR", -30.0)
    rec = Recorder("hells_gate map")
    map_.render(game, BuildOptions(), recorder=rec)
    found = layout.check(rec)
    assert found
    assert {v.rule for v in found} == {"mark"}
    assert any("crop mark" in v.message and "'Print at 100 %" in v.message for v in found)
    monkeypatch.undo()

    blind = map_.registration_points
    monkeypatch.setattr(
        map_.tiles, "registration_points", lambda strip, obstacles=(), *, tile: blind(strip, (), tile=tile)
    )
    rec = Recorder("ferry_point map")
    # Ferry Point on A4: Hell's Gate's glue strips (the only strips marked) hold nothing a blind mark would cover
    map_.render(seed_game("ferry_point"), BuildOptions(paper="a4"), recorder=rec)
    assert any(v.rule == "mark" and "registration mark" in v.message for v in layout.check(rec))


def test_a_trimmed_map_page_keeps_to_the_trims_safe_zone_not_the_printer_margin() -> None:
    """A map sheet printed whole is checked against the 5 mm printer margin when its page is the paper, and
    against the 1/8 in safe zone inside the trim when a print shop trims it (a page finished with a bleed):
    First Panzer Army's top row of hex labels, 3.7 mm inside the sheet, is in the first and clear of the second."""
    from forge.pdf import PAGE_BLEED, PageFinish, page_finish
    from forge.tiling import PRINTABLE_MARGIN, TRIM_SAFE_MARGIN

    assert 3 * 72 / 25.4 <= TRIM_SAFE_MARGIN < PRINTABLE_MARGIN  # meets both the 3 mm and the 1/8 in asks
    game = seed_game("first_panzer_army")
    found = {}
    for name, finish in (("paper", None), ("trimmed", PageFinish(bleed=PAGE_BLEED))):
        rec = Recorder("map.pdf")
        with page_finish(finish):
            map_.render(game, BuildOptions(only=("map",), tile=False), recorder=rec)
        found[name] = [v for v in layout.check(rec) if v.rule == "margin"]
    assert found["paper"]
    # the top row's labels (and their reconstructed marks), 10.4 pt = 3.7 mm below the sheet's top edge
    assert all(re.search(r" at \([\d.]+, 10\.\d\)", v.message) for v in found["paper"]), found["paper"][:3]
    assert found["trimmed"] == []


# ------------------------------------------------------------------------------------------------ verify
def test_verify_reports_layout_violations_as_print_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(counters, "PRINTABLE_MARGIN", 100.0)  # a printer that cannot print near the edge
    found = [f for f in roundtrip(seed_game("hells_gate")) if f.kind == "print-layout"]
    assert found
    assert all(policy.severity(f) == "warning" for f in found)
    assert all(f.ref in ("outside", "overlap", "mark", "margin") for f in found)
    assert any("printer margin" in f.message and "counters.pdf" in f.message for f in found)


def test_no_print_check_reports_no_layout_findings(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(counters, "PRINTABLE_MARGIN", 100.0)
    main(["verify", str(DATA / "ferry_point.yaml"), "--no-print-check"])
    assert "print-layout" not in capsys.readouterr().out


# ------------------------------------------------------------------------------------------------ cards (PDF)
def test_pdf_check_finds_overlapping_text_and_text_in_the_margin() -> None:
    def draw(c: object) -> None:
        pc = PdfCanvas(c, top=300)  # type: ignore[arg-type]
        pc.text(50, 50, "Combat results", size=10)
        pc.text(60, 52, "Terrain", size=10)  # over the first
        pc.text(50, 100, "clear", size=10)
        pc.text(3, 200, "edge", size=10)  # in the margin

    found = layout.check_pdf(render_pdf((300, 300), draw), "test.pdf")
    assert sorted(v.rule for v in found) == ["margin", "overlap"]


@pytest.mark.parametrize("name", GAMES)
def test_seed_cards_have_no_layout_violations(name: str) -> None:
    """The cards are drawn through the canvas (forge.render.blocks): each card's content area and each chart cell is
    a container, and every text stays inside its own."""
    opts = BuildOptions(paper="a4", greyscale=True) if name in ("ferry_point", "ukraine_43") else BuildOptions()
    rec = Recorder(f"{name} cards")
    cards.render(seed_game(name), opts, recorder=rec)
    containers = [it for it in rec.items if it.kind == "container"]
    assert any(it.label.startswith("region") for it in containers)
    assert sum(" column " in it.label for it in containers) > 20  # the charts' cells
    texts = [it for it in rec.items if it.kind == "text"]
    assert sum(it.parent is not None and " column " in rec.items[it.parent].label for it in texts) > 20
    _assert_clean(rec)


@pytest.mark.parametrize("name", GAMES)
def test_seed_cards_have_no_overlapping_text(name: str) -> None:
    opts = BuildOptions(paper="a4", greyscale=True) if name in ("ferry_point", "ukraine_43") else BuildOptions()
    assert layout.check_pdf(cards.render(seed_game(name), opts), f"{name} cards") == []


def _outside(i: int, label: str = "hex") -> layout.Violation:
    return layout.Violation(
        "outside", "map.pdf", f"tile {i % 3 + 1}",
        f"text '{i},1' at ({i}.5, 1.0)-({i + 1}.5, 2.0) pt runs out of its container '{label} {i},1' at "
        "(0, 0)-(9, 9) pt",
    )


def test_many_violations_of_one_shape_are_one_finding_that_counts_them() -> None:
    """A drawing defect repeated on every hex of a large map (labels too large for small hexes) is one thing to
    fix: more than layout.GROUP violations of one shape are one finding with their number and the first of them;
    fewer, or of other shapes, stay one finding each (issue 25, item 31: 46,182 warnings)."""
    few = [_outside(i) for i in range(layout.GROUP)]
    assert len(layout.findings(few)) == layout.GROUP
    many = [_outside(i) for i in range(layout.GROUP + 1)]
    other = layout.Violation("margin", "map.pdf", "tile 1", "text 'A1' at (1, 1)-(2, 2) pt lies in the printer margin")
    found = layout.findings([*many, other, _outside(99, "chart cell")])
    assert len(found) == 3
    grouped = found[0]
    assert grouped.kind == "print-layout"
    assert grouped.ref == "outside"
    assert f"{layout.GROUP + 1:,} alike on 3 pages" in grouped.message
    assert str(many[0]) in grouped.message  # the first, whole, so the reader can find it
    assert str(other) in found[1].message
    assert "chart cell" in found[2].message
