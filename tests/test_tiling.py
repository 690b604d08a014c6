"""Tests of forge.tiling: the pure plan of how a large map sheet is cut into pages.

Properties (hypothesis, any sheet from 1 to 60 in and any paper, margin and overlap):
- the tiles cover the whole sheet and nothing outside it;
- tiles in a row (column) all have the same size, and each neighbour overlaps the next by exactly ``overlap``;
- every tile fits the paper's printable area (paper less ``margin`` each side) and sits inside it on the page;
- tiles are numbered in reading order from 1 (never a hex-like A1), each once;
- the chosen orientation needs no more tiles than the other one.
"""

from __future__ import annotations

import doctest
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import forge.tiling
from forge import units as U
from forge.tiling import DEFAULT_MARGIN, DEFAULT_OVERLAP, fits, plan
import itertools

EPS = 1e-6
IN = 72.0

papers = st.sampled_from(sorted(U.PAPER)).map(U.paper)
sheets = st.tuples(st.floats(1 * IN, 60 * IN), st.floats(1 * IN, 60 * IN))
margins = st.floats(0, 0.6 * IN)
overlaps = st.floats(0, 1 * IN)


def test_doctests() -> None:
    assert doctest.testmod(forge.tiling).failed == 0


def _spans(p: forge.tiling.TilePlan, axis: str) -> list[tuple[float, float]]:
    if axis == "x":
        return sorted({(t.source.x, t.source.right) for t in p.tiles if t.row == 0})
    return sorted({(t.source.y, t.source.bottom) for t in p.tiles if t.column == 0})


@given(sheets, papers, margins, overlaps)
def test_tiles_cover_the_sheet_with_exact_overlap(sheet, paper, margin, overlap) -> None:
    sw, sh = sheet
    p = plan(sw, sh, *paper, margin=margin, overlap=overlap)
    assert len(p.tiles) == p.rows * p.columns
    for axis, length in (("x", sw), ("y", sh)):
        spans = _spans(p, axis)
        assert spans[0][0] == pytest.approx(0, abs=EPS)
        assert spans[-1][1] == pytest.approx(length, abs=EPS)
        for (_, end), (start, _) in itertools.pairwise(spans):
            assert end - start == pytest.approx(overlap, abs=EPS)  # neighbours overlap by exactly `overlap`
        sizes = [b - a for a, b in spans]
        assert max(sizes) - min(sizes) < EPS  # equal tiles (to float precision, not to the 6th decimal)
    # Every tile agrees with its row's and column's spans, so the union is the whole sheet.
    xs, ys = _spans(p, "x"), _spans(p, "y")
    for t in p.tiles:
        assert (t.source.x, t.source.right) == pytest.approx(xs[t.column], abs=EPS)
        assert (t.source.y, t.source.bottom) == pytest.approx(ys[t.row], abs=EPS)


@given(sheets, papers, margins, overlaps)
def test_every_tile_fits_the_printable_area(sheet, paper, margin, overlap) -> None:
    p = plan(*sheet, *paper, margin=margin, overlap=overlap)
    assert sorted((p.paper_w, p.paper_h)) == pytest.approx(sorted(paper))
    for t in p.tiles:
        assert t.source.w <= p.paper_w - 2 * margin + EPS
        assert t.source.h <= p.paper_h - 2 * margin + EPS
        x, y = p.placement(t)
        assert x >= margin - EPS
        assert y >= margin - EPS
        assert x + t.source.w <= p.paper_w - margin + EPS
        assert y + t.source.h <= p.paper_h - margin + EPS


@given(sheets, papers, margins, overlaps)
def test_overlap_strips_are_shared_with_the_named_neighbour(sheet, paper, margin, overlap) -> None:
    p = plan(*sheet, *paper, margin=margin, overlap=overlap)
    for t in p.tiles:
        for strip in t.strips:
            other = p.tile(strip.neighbour)
            assert abs(other.row - t.row) + abs(other.column - t.column) == 1
            short = strip.rect.w if strip.side in ("left", "right") else strip.rect.h
            assert short == pytest.approx(overlap, abs=EPS)
            back = {s.neighbour: s.rect for s in other.strips}[t.name]
            assert (back.x, back.y, back.w, back.h) == pytest.approx(
                (strip.rect.x, strip.rect.y, strip.rect.w, strip.rect.h), abs=EPS
            )


@given(sheets, papers)
def test_names_and_orientation(sheet, paper) -> None:
    p = plan(*sheet, *paper)
    names = [t.name for t in p.tiles]
    assert names == [str(k + 1) for k in range(p.rows * p.columns)]  # reading order, no hex-like letters
    assert all(t.describe(p).startswith(f"tile {t.name} of {len(names)} — ") for t in p.tiles)

    def count(w: float, h: float) -> int:
        pw, ph = w - 2 * DEFAULT_MARGIN, h - 2 * DEFAULT_MARGIN
        n = 1 if sheet[0] <= pw + EPS else math.ceil((sheet[0] - DEFAULT_OVERLAP) / (pw - DEFAULT_OVERLAP) - 1e-9)
        m = 1 if sheet[1] <= ph + EPS else math.ceil((sheet[1] - DEFAULT_OVERLAP) / (ph - DEFAULT_OVERLAP) - 1e-9)
        return n * m

    short, long_ = sorted(paper)
    assert len(p.tiles) == min(count(short, long_), count(long_, short))


def test_hells_gate_sheet_on_letter_is_two_by_two_landscape() -> None:
    p = plan(17 * IN, 11 * IN, *U.paper("letter"))
    assert (p.rows, p.columns, p.landscape) == (2, 2, True)
    assert (p.paper_w, p.paper_h) == (11 * IN, 8.5 * IN)
    a2 = p.tile("2")
    assert a2.describe(p) == "tile 2 of 4 — row 1 of 2, column 2 of 2"
    assert [s.side for s in a2.strips] == ["left", "bottom"]
    assert a2.source.w == pytest.approx((17 + 0.5) / 2 * IN)


def test_fits_either_way() -> None:
    assert fits(17 * IN, 11 * IN, *U.paper("tabloid"))
    assert fits(11 * IN, 17 * IN, *U.paper("tabloid"))
    assert not fits(17 * IN, 11 * IN, *U.paper("letter"))
    assert not fits(17 * IN, 11 * IN, *U.paper("a3"))  # 297 x 420 mm is 16.5 in long
    assert fits(8.5 * IN, 11 * IN, *U.paper("letter"))


def test_a_sheet_that_fits_the_printable_area_is_one_tile() -> None:
    p = plan(7 * IN, 9 * IN, *U.paper("letter"))
    assert [t.name for t in p.tiles] == ["1"]
    assert p.tiles[0].strips == ()


@pytest.mark.parametrize(
    ("sheet_w", "paper_w", "margin", "overlap"),
    [(0.0, 612.0, 28.8, 36.0), (100.0, 612.0, -1.0, 36.0), (100.0, 612.0, 28.8, math.nan), (100.0, 60.0, 28.8, 36.0)],
)
def test_bad_input_is_rejected(sheet_w, paper_w, margin, overlap) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - several different messages
        plan(sheet_w, 500.0, paper_w, 792.0, margin=margin, overlap=overlap)
