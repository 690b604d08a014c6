"""Properties of counter-sheet imposition (forge.impose): pure placement, no drawing.

The duplex property is checked against the physical model of a printed sheet, written out here independently
of the module: the printer displaces back-page content by the measured offset, then the paper is turned over
along its long edge (a back point (x, y) lies behind the front point (W - x, y)) or its short edge ((x, H -
y)).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forge import impose
from forge.impose import Rect, Slot, SheetLayout, back_position, back_rect, counter_sheet, crop_marks, place

MM = 72 / 25.4
TOL = 0.1 * MM  # 0.1 mm
PAPERS = [(612.0, 792.0), (595.2756, 841.8898), (792.0, 1224.0), (841.8898, 1190.5512)]
COUNTERS = [36.0, 40.5, 45.0, 54.0]


def _layout(
    paper: tuple[float, float], counter: float, mx: float, my: float, bleed: float, gutter: float
) -> SheetLayout:
    return counter_sheet(paper[0], paper[1], counter, margin=(mx, my), bleed=bleed, gutter=gutter)


layouts = st.builds(
    _layout,
    st.one_of(st.sampled_from(PAPERS), st.tuples(st.floats(300, 1300), st.floats(300, 1300))),
    st.one_of(st.sampled_from(COUNTERS), st.floats(20, 90)),
    st.floats(0, 72),
    st.floats(0, 72),
    st.sampled_from([0.0, 9.0, 4.5]),
    st.sampled_from([0.0, 0.0, 3.0]),
)
flips = st.sampled_from(["long", "short"])
offsets = st.tuples(st.floats(-12, 12), st.floats(-12, 12))


def physical_front_position(printed_back: Rect, layout: SheetLayout, flip: str) -> Rect:
    """Where a rectangle printed on the back page lies, seen through the paper from the front."""
    if flip == "long":
        return Rect(layout.paper_w - printed_back.right, printed_back.y, printed_back.w, printed_back.h)
    return Rect(printed_back.x, layout.paper_h - printed_back.bottom, printed_back.w, printed_back.h)


def close(a: Rect, b: Rect, tol: float = TOL) -> bool:
    return all(abs(p - q) <= tol for p, q in ((a.x, b.x), (a.y, b.y), (a.w, b.w), (a.h, b.h)))


@settings(max_examples=150, deadline=None)
@given(layouts, flips, offsets)
def test_every_back_lands_on_its_front(layout: SheetLayout, flip: str, offset: tuple[float, float]) -> None:
    """Drawn where back_rect says, displaced by the printer's misregistration, then turned over: each back
    covers its own front to 0.1 mm."""
    for slot in layout.slots():
        drawn = back_rect(slot, layout, flip=flip, back_offset=offset)  # type: ignore[arg-type]
        printed = drawn.shifted(*offset)
        assert close(physical_front_position(printed, layout, flip), layout.trim(slot))


@settings(max_examples=100, deadline=None)
@given(layouts, flips)
def test_back_position_is_the_mirror_slot(layout: SheetLayout, flip: str) -> None:
    """Long-edge flip mirrors the column, short-edge flip the row; both are involutions onto the grid."""
    for slot in layout.slots():
        b = back_position(slot, layout, flip)  # type: ignore[arg-type]
        assert 0 <= b.col < layout.columns
        assert 0 <= b.row < layout.rows
        if flip == "long":
            assert b == Slot(layout.columns - 1 - slot.col, slot.row)
        else:
            assert b == Slot(slot.col, layout.rows - 1 - slot.row)
        assert back_position(b, layout, flip) == slot  # type: ignore[arg-type]
    assert impose.back_rotation("long") == 0
    assert impose.back_rotation("short") == 180


@settings(max_examples=100, deadline=None)
@given(layouts)
def test_counters_do_not_overlap_and_stay_printable(layout: SheetLayout) -> None:
    """No two counters' printed areas (bleed included) overlap, and all lie inside the margins."""
    boxes = [layout.bleed_box(s) for s in layout.slots()]
    printable = layout.printable()
    assert all(printable.contains(b) for b in boxes)
    # Neighbours in a row and a column are the closest pairs on a regular grid.
    for s in layout.slots():
        here = layout.bleed_box(s)
        for nb in (Slot(s.col + 1, s.row), Slot(s.col, s.row + 1), Slot(s.col + 1, s.row + 1)):
            if nb.col < layout.columns and nb.row < layout.rows:
                assert not here.overlaps(layout.bleed_box(nb))
    if len(boxes) <= 120:
        for i, a in enumerate(boxes):
            assert not any(a.overlaps(b) for b in boxes[i + 1 :])


@settings(max_examples=100, deadline=None)
@given(layouts)
def test_pitch_and_gutter(layout: SheetLayout) -> None:
    """Without bleed counters butt (pitch == counter unless a gutter is asked for); with bleed the gutter is
    at least twice the bleed; the grid is as large as the margins allow and centred."""
    assert layout.pitch == pytest.approx(layout.counter + layout.gutter)
    assert layout.gutter >= 2 * layout.bleed - 1e-9
    r0, r1 = layout.trim(Slot(0, 0)), layout.trim(Slot(min(1, layout.columns - 1), 0))
    if layout.columns > 1:
        assert r1.x - r0.x == pytest.approx(layout.pitch, abs=TOL)
    ext = layout.extent()
    # One more column or row would not fit inside the margins.
    assert ext.w + layout.pitch > layout.paper_w - 2 * layout.margin_x - 1e-6
    assert ext.h + layout.pitch > layout.paper_h - 2 * layout.margin_y - 1e-6
    assert ext.x == pytest.approx(layout.paper_w - ext.right)
    assert ext.y == pytest.approx(layout.paper_h - ext.bottom)


@pytest.mark.parametrize("counter", COUNTERS)
@pytest.mark.parametrize("paper", PAPERS[:2])
def test_plain_sheets_butt_counters(counter: float, paper: tuple[float, float]) -> None:
    lay = counter_sheet(*paper, counter, margin=36)
    assert lay.pitch == counter
    assert lay.trim(Slot(1, 1)).x - lay.trim(Slot(0, 0)).x == pytest.approx(counter, abs=TOL)
    assert lay.trim(Slot(1, 1)).y - lay.trim(Slot(0, 0)).y == pytest.approx(counter, abs=TOL)


def test_bleed_gutter_is_twice_the_bleed() -> None:
    lay = counter_sheet(612, 792, 45, margin=36, bleed=9)
    assert lay.gutter == 18
    assert lay.pitch == 63
    assert lay.bleed_box(Slot(0, 0)).right == pytest.approx(lay.bleed_box(Slot(1, 0)).x)


def test_too_small_paper_is_an_error() -> None:
    with pytest.raises(ValueError, match="does not fit"):
        counter_sheet(100, 100, 54, margin=30)


items_lists = st.lists(st.one_of(st.none(), st.integers(0, 10_000)), max_size=400)


@settings(max_examples=100, deadline=None)
@given(items_lists, st.sampled_from(COUNTERS))
def test_place_keeps_order_and_places_each_item_once(items: list[int | None], counter: float) -> None:
    lay = counter_sheet(612, 792, counter, margin=(36, 54))
    pages = place(items, lay)
    flat = [it for p in pages for _, it in p.items]
    assert flat == [it for it in items if it is not None]
    for p in pages:
        slots = [s for s, _ in p.items]
        assert len(set(slots)) == len(slots)
        assert slots == sorted(slots, key=lambda s: (s.row, s.col))
    assert [p.number for p in pages] == list(range(len(pages)))
    assert place(items, lay) == pages  # deterministic


def test_place_none_leaves_a_gap() -> None:
    lay = counter_sheet(300, 300, 50, margin=0)
    (page,) = place(["a", None, "b"], lay)
    assert [s for s, _ in page.items] == [Slot(0, 0), Slot(2, 0)]


@settings(max_examples=80, deadline=None)
@given(layouts, st.data())
def test_crop_marks_stay_outside_the_counters_and_on_the_paper(
    layout: SheetLayout, data: st.DataObject
) -> None:
    slots = data.draw(st.lists(st.sampled_from(layout.slots()), min_size=1, max_size=30))
    marks = crop_marks(layout, slots, length=10, gap=3, edge=18)
    boxes = [layout.bleed_box(s) for s in slots]
    for (x1, y1), (x2, y2) in marks:
        for x, y in ((x1, y1), (x2, y2)):
            assert 18 - 1e-6 <= x <= layout.paper_w - 18 + 1e-6
            assert 18 - 1e-6 <= y <= layout.paper_h - 18 + 1e-6
        seg = Rect(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1))
        assert not any(b.expanded(1.0).overlaps(seg) for b in boxes)
    # every mark lies on a trim line of the chosen counters
    xs = [v for s in slots for v in (layout.trim(s).x, layout.trim(s).right)]
    ys = [v for s in slots for v in (layout.trim(s).y, layout.trim(s).bottom)]
    for (x1, y1), (x2, _) in marks:
        assert any(abs((x1 if x1 == x2 else y1) - v) < 1e-4 for v in (xs if x1 == x2 else ys))


def test_cut_lines_share_edges() -> None:
    lay = counter_sheet(300, 300, 50, margin=0)
    lines = impose.cut_lines(lay, [Slot(0, 0), Slot(1, 0)])
    assert len(lines) == 7  # two squares sharing one edge


def test_offset_on_front_matches_the_physical_flip() -> None:
    """A back misregistration seen from the front: the sign the calibration page's scales are labelled
    with."""
    lay = counter_sheet(612, 792, 45, margin=36)
    r = lay.trim(Slot(3, 4))
    for flip in ("long", "short"):
        dx, dy = 2.0, -3.0
        b = back_rect(Slot(3, 4), lay, flip=flip)  # type: ignore[arg-type]
        seen = physical_front_position(b.shifted(dx, dy), lay, flip)
        assert (seen.x - r.x, seen.y - r.y) == pytest.approx(impose.offset_on_front((dx, dy), flip))  # type: ignore[arg-type]
