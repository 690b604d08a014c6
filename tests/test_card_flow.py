"""How the reference cards' blocks pour from card to card (:func:`forge.render.cards.flow`).

The blocks are :mod:`forge.render.blocks`' since issue 23 item 2 (platypus before): only the construction of
the inputs changed (their types, the frame and spacer made here), not what the tests assert.

Properties: on Ukraine '43 and Escape from Hell's Gate (whose cards once began with notes cut off from their
tables), every card begins with a heading, never with a table's note; a card that begins with the rest of a split
table begins with that table's heading marked continued; a table's notes are on the card of its last rows; no card
ends with a heading.  Poured into a small region, a table whose notes do not fit under it is split so that its
last row goes on with the notes (under its heading marked continued); a table that cannot be split so moves whole
with its heading; on an empty region it flows as ever; a heading whose table cannot start under it moves on."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

import pypdfium2 as pdfium
import pytest
from conftest import seed_game
from reportlab.pdfgen import canvas


from forge.builder import BuildOptions
from forge.pdf import render_pdf
from forge.render import cards
from forge.render.blocks import Block as Flowable
from forge.render.blocks import Para as Paragraph
from forge.render.blocks import Spacer, Table

OPTIONS = BuildOptions(only=("cards",))
Log = list[tuple[int, Flowable]]  # (card, flowable), each flowable as flow is about to place it, in order


def _plain(f: Flowable) -> str:
    return " ".join(" ".join(cards._plain_lines(f.text)).split())


def _is_heading(f: Flowable) -> bool:
    return callable(getattr(f, "again", None))


@cache
def _poured(name: str) -> tuple[list[str], Log, tuple[Flowable, ...]]:
    """The cards of ``name`` as :func:`cards.render` makes them two to a page: each card's text (read back from the
    PDF, its title bar left out, whitespace made single spaces), what flow placed on each card, and the story."""
    game = seed_game(name)
    log: Log = []
    stories: list[list[Flowable]] = []
    real = cards.flow

    def recording(c: Any, items: list[Flowable], **kw: Any) -> int:
        stories.append(list(items))
        return real(c, items, check=lambda f, card, frame: log.append((card, f)), **kw)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cards.pages, "flow", recording)  # the two-up cards pour through pages.render
        pdf = cards.render(game, OPTIONS)
    region = cards.card_regions(OPTIONS)
    texts = []
    doc = pdfium.PdfDocument(pdf)
    for page in doc:
        tp = page.get_textpage()
        for slot in range(2):
            x, y, w, h = region(slot)
            lines = [ln.strip() for ln in tp.get_text_bounded(left=x, bottom=y, right=x + w, top=y + h).splitlines()]
            lines = [ln for ln in lines if ln]
            if lines:
                assert re.search(r"Reference card \d+$", lines[0])  # the title bar
                texts.append(" ".join(" ".join(lines[1:]).split()))
    doc.close()
    assert len(stories) == 1
    assert len(texts) == max(card for card, _ in log) + 1
    return texts, log, tuple(stories[0])


def _headings(story: tuple[Flowable, ...]) -> set[str]:
    titles = {_plain(f) for f in story if _is_heading(f)}
    return titles | {f"{t}, continued" for t in titles}


GAMES = ["ukraine_43", "escape_from_hells_gate"]


@pytest.mark.parametrize("name", GAMES)
def test_every_card_begins_with_a_heading_never_a_note(name: str) -> None:
    texts, _, story = _poured(name)
    notes = [_plain(f) for f in story if getattr(f, "table_note", False)]
    assert notes
    titles = sorted(_headings(story), key=len, reverse=True)
    for n, text in enumerate(texts, 1):
        assert not any(text.startswith(note[:30]) for note in notes), f"card {n} begins with a note: {text[:80]!r}"
        assert any(text.startswith(t) for t in titles), f"card {n} begins with no heading: {text[:80]!r}"


@pytest.mark.parametrize("name", GAMES)
def test_a_card_that_continues_a_table_begins_with_its_title_marked_continued(name: str) -> None:
    _, log, story = _poured(name)
    whole = {id(f) for f in story}
    cards_ = sorted({card for card, _ in log})
    continued = 0
    for card in cards_[1:]:
        placed = [f for k, f in log if k == card]
        assert _is_heading(placed[0]), f"card {card + 1}"
        first = next((f for f in placed if not _is_heading(f)), None)
        if isinstance(first, Table) and id(first) not in whole:  # the rest of a table split over cards
            assert _plain(placed[0]).endswith(", continued"), f"card {card + 1}"
            continued += 1
    assert continued  # both games have a table split over cards


@pytest.mark.parametrize("name", GAMES)
def test_a_tables_notes_are_on_the_card_of_its_last_rows(name: str) -> None:
    _, log, _ = _poured(name)
    last = {id(f): i for i, (_, f) in enumerate(log)}  # where each was placed at last (after any move)
    checked = 0
    for i, (card, f) in enumerate(log):
        if not getattr(f, "table_note", False) or last[id(f)] != i:
            continue
        table = next(k for k, g in reversed(log[:i]) if isinstance(g, Table))
        assert table == card, f"{_plain(f)[:40]!r} on card {card + 1}, its table's last rows on card {table + 1}"
        checked += 1
    assert checked


@pytest.mark.parametrize("name", GAMES)
def test_no_card_ends_with_a_heading(name: str) -> None:
    texts, _, story = _poured(name)
    for t in sorted(_headings(story), key=len, reverse=True):
        for n, text in enumerate(texts, 1):
            assert not text.endswith(t), f"card {n} ends with the heading {t!r}"


def test_the_notes_once_cut_off_now_follow_their_tables() -> None:
    """Card 8 of Ukraine '43 began with the write-in note of the stacking limits that end card 7; card 4 of Escape
    with three notes of the support fire markers' table that ends card 3."""
    texts, _, _ = _poured("ukraine_43")
    stacking = next(t for t in texts if "HQs, leaders and markers do not count" in t)
    # four rows: no split leaves three on each side, so the table moves whole with its notes (MIN_SPLIT_ROWS)
    assert stacking.startswith("Stacking limits (5) Combat units in hex German support units")
    assert stacking.index("0 3 1 2 2") < stacking.index("not allowed") < stacking.index("HQs, leaders")
    assert stacking.index("HQs, leaders") < stacking.index("An empty cell")
    assert sum(t.count("3 1 not allowed") for t in texts) == 1  # printed once
    texts, _, _ = _poured("escape_from_hells_gate")
    fire = next(t for t in texts if "All markers are available every turn" in t)
    # sixteen rows: the last three go on with the notes, under the title marked continued
    assert fire.startswith("Support fire markers by organisational group (15.1), continued Group Side Colour")
    assert fire.index("Encircled Force") < fire.index("Relief Force") < fire.index("Luftwaffe Air Support")
    assert fire.index("Luftwaffe Air Support") < fire.index("All markers are available")
    for row in ("Encircled Force German green", "Relief Force German grey", "Luftwaffe Air Support German light blue"):
        assert sum(t.count(row) for t in texts) == 1


# ------------------------------------------------------------------------------------------ a constructed story
WIDTH = 300.0


@cache
def _styles() -> cards.Styles:
    return cards.Styles.make(BuildOptions())


def _pour(items: list[Flowable], height: float) -> list[str]:
    """``items`` poured into regions ``WIDTH`` x ``height``, one a page: each region's text, single-spaced."""

    def draw(c: canvas.Canvas) -> None:
        cards.flow(c, items, regions_per_page=1, region=lambda _: (10, 10, WIDTH, height), chrome=lambda c, i, r: r)

    pdf = render_pdf((WIDTH + 20, height + 20), draw)
    doc = pdfium.PdfDocument(pdf)
    out = [" ".join(p.get_textpage().get_text_range().split()) for p in doc]
    doc.close()
    return out


def _block(rows: int, *, tall: bool = False) -> list[Flowable]:
    st = _styles()
    body = [[f"{i}", f"result {i}" + ("<br/>more<br/>more<br/>more" if tall else "")] for i in range(1, rows + 1)]
    return [
        cards.heading(st, "Mud table", "7.1"),
        cards.grid_table(st, ["Die", "Result"], body, WIDTH),
        cards.note(st, "First note on the mud table.", table_note=True),
        cards.note(st, "Second note on the mud table.", table_note=True),
    ]


def _height(items: list[Flowable]) -> float:
    """The height ``items`` take one after another in a fresh region (as flow places them)."""
    frame = cards.Frame(0, 0, WIDTH, 10_000)
    room = cards._room_after(frame, items)
    assert room is not None
    return 10_000 - room


def _filler(lines: int) -> Paragraph:
    return cards.note(_styles(), "<br/>".join(f"filler {i}" for i in range(lines)))


def test_a_table_whose_notes_do_not_fit_sends_its_last_rows_on_with_them() -> None:
    """Six rows or more: the last three go on with the notes (MIN_SPLIT_ROWS on each side); three rows or fewer:
    the last one."""
    notes = "First note on the mud table. Second note on the mud table."
    for rows, go in ((6, 3), (9, 3), (3, 1)):
        items = _block(rows)
        height = _height(items[:2]) + 1  # the heading and the table fit, the notes do not
        first, second = _pour(items, height)
        assert first.startswith("Mud table (7.1) Die Result 1 result 1")
        assert f"result {rows - go}" in first
        assert f"result {rows - go + 1}" not in first
        assert "note" not in first
        moved = " ".join(f"{i} result {i}" for i in range(rows - go + 1, rows + 1))
        assert second == f"Mud table (7.1), continued Die Result {moved} {notes}"


def test_a_table_of_four_or_five_rows_moves_whole_with_its_notes() -> None:
    """No split of four or five rows leaves three on each side: after other content, the table goes on whole with its
    heading and notes to a region that holds them (no "continued")."""
    for rows in (4, 5):
        items = [_filler(3), *_block(rows)]
        height = _height(items) - 5  # everything but the last note fits; the block alone fits an empty region
        first, second = _pour(items, height)
        assert first == "filler 0 filler 1 filler 2"
        assert second.startswith("Mud table (7.1) Die Result 1 result 1")
        assert "continued" not in second
        assert f"result {rows} First note" in second


def test_a_table_that_cannot_be_split_so_moves_whole_with_its_heading() -> None:
    items = [_filler(3), *_block(1)]
    height = _height(items[:3]) + 1  # filler, heading and table fit, the notes do not
    first, second = _pour(items, height)
    assert first == "filler 0 filler 1 filler 2"
    assert second.startswith("Mud table (7.1) Die Result 1 result 1 First note")


def test_a_table_first_on_an_empty_region_flows_as_ever() -> None:
    items = _block(1)
    height = _height(items[:2]) + 1
    first, second = _pour(items, height)
    assert first == "Mud table (7.1) Die Result 1 result 1"
    assert second == "Mud table (7.1), continued First note on the mud table. Second note on the mud table."


def test_a_heading_moves_on_when_its_table_cannot_start_under_it() -> None:
    """The heading has its 40 points of room under it (keep_next), but not its table's header and first (tall)
    row: it goes on to the next region with its table instead of standing alone at the foot."""
    block = _block(2, tall=True)
    height = _height(block) + 1
    heading_room = _height([Spacer(50), block[0]]) - 50 + 42  # the heading and 42 points under it
    filler = Spacer(height - heading_room)
    frame = cards.Frame(0, 0, WIDTH, height)
    frame.add(filler, None)
    assert not cards._starts(frame, [block[0]], block[1])  # the header and a row do not fit under the heading
    first, second = _pour([filler, *block], height)
    assert "Mud table" not in first
    assert second.startswith("Mud table (7.1) Die Result 1 result 1")


def test_a_block_split_by_its_size_repeats_its_heading_marked_continued() -> None:
    items = _block(12)
    pages = _pour(items, _height(items[:2]) / 2)
    assert len(pages) >= 2
    assert pages[0].startswith("Mud table (7.1) Die Result")
    for page in pages[1:]:
        assert page.startswith("Mud table (7.1), continued Die Result")
    assert "Second note" in pages[-1]
    assert "result 12" in pages[-1]


def test_heading_again_is_marked_continued() -> None:
    again: Callable[[], Flowable] = cards.heading(_styles(), "Stacking limits", "5").again
    p = again()
    assert _plain(p) == "Stacking limits (5), continued"
    assert p.keep_next == 40.0
    assert _plain(p.again()) == "Stacking limits (5), continued"


def test_a_table_that_would_leave_a_row_or_two_starts_the_next_region_whole() -> None:
    """Filler, then an 8-row table with room under its heading for its header and two rows only: the heading and
    the table go on together to the next region, which holds them whole (no orphaned rows, no continued title)."""
    block = _block(8, tall=True)  # rows four lines deep: two of them are more than the heading's 40 points
    whole = _height(block) + 1
    two_rows = _height([*_block(2, tall=True)[:2]])
    filler = Spacer(whole - two_rows - 1)
    first, second = _pour([filler, *block], whole)
    assert "Mud table" not in first
    assert second.startswith("Mud table (7.1) Die Result 1 result 1")
    assert "continued" not in second
    assert "result 8" in second


def test_a_table_no_region_holds_whole_is_split_where_it_starts() -> None:
    """Moving a table that will be split wherever it starts only wastes the room left: with room for its header
    and two rows after the filler, a table taller than any region starts here all the same."""
    st = _styles()

    def table(n: int) -> Table:
        return cards.grid_table(st, ["Die", "Result"], [[f"{i}", f"result {i}"] for i in range(1, n + 1)], WIDTH)

    height = _height([table(30)]) / 3
    for rows, starts_here in ((30, True), (8, False)):  # 8 rows fit a region whole: they move on instead
        filler = Spacer(height - _height([table(2)]) - 1)
        first = _pour([filler, table(rows)], height)[0]
        assert ("Die Result 1 result 1" in first) is starts_here, (rows, first)
