"""Pouring blocks into cards or pages (:func:`flow`), with the card rules of issues 10 and 12: a heading stays
with the start of its table, a block split onto the next card starts there under its heading marked continued, a
table's notes stay with its last rows (:func:`_keep_notes`), and no table is split to leave a row or two alone on
either side (:data:`MIN_SPLIT_ROWS`, :func:`_too_few_rows`).  A block too big for a whole card and that cannot
split is printed cut, with a warning."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Frame, KeepInFrame, Paragraph, Table

from ...errors import warn
from .styles import _plain_lines
from .flowables import CardBreak
from .size import CardSizeError


Region = tuple[float, float, float, float]  # x, y (bottom, y-up), width, height


def flow(
    c: Canvas,
    items: list[Flowable],
    *,
    regions_per_page: int,
    region: Callable[[int], Region],
    chrome: Callable[[Canvas, int, Region], Region],
    check: Callable[[Flowable, int, Frame], None] | None = None,
) -> int:
    """Pour ``items`` into regions (cards or pages), ``regions_per_page`` to a page; return the regions used.

    ``region(i)`` is the i-th region on its page (``i`` counts within the page); ``chrome`` draws a region's
    frame and title and returns the inner area the content may use.  Flowables that do not fit are split
    (tables by rows, paragraphs by lines); :class:`CardBreak` starts a new region when little room is left.
    A block split onto the next region starts there with its heading again, marked continued (the heading's
    ``again()``, :func:`heading`); a heading is never left at the foot of a region without the start of its
    table; a table's notes (:func:`note`'s ``table_note``) go with its last rows (:func:`_keep_notes`).
    ``check(f, region index, frame)`` sees each flowable before it is placed and may raise; with it, a flowable
    too big for a whole region is refused (:class:`CardSizeError`) instead of printed cut.
    """
    items = list(items)
    used = 0
    title: Flowable | None = None  # the heading of the block being poured (its again() heads a continuation)
    while items:
        slot = used % regions_per_page
        if used and slot == 0:
            c.showPage()
        x, y, w, h = chrome(c, used, region(slot))
        frame = Frame(x, y, w, h, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0, showBoundary=0)
        placed = False
        after_heading = False  # the last thing placed on this region is a heading
        bare = True  # nothing is on this region yet but (perhaps) one heading
        while items:
            f = items[0]
            if isinstance(f, CardBreak):
                items.pop(0)
                if placed and frame._y - frame._y1p < f.min_space:
                    break
                continue
            keep = float(getattr(f, "keep_next", 0.0))
            if not placed and title is not None and not keep and isinstance(f, Table | Paragraph):
                # the rest of a block begun on an earlier region: its heading again, unless only without it
                # does the start of the rest fit
                again = title.again()
                if _starts(frame, [again], f) or not _starts(frame, [], f):
                    items.insert(0, again)
                    continue
            if check is not None:
                check(f, used, frame)
            if keep and placed:  # a heading needs room for some of what follows it
                _, fh = f.wrap(frame._getAvailableWidth(), frame._y - frame._y1p)
                if frame._y - frame._y1p - fh - f.getSpaceBefore() < keep:
                    break
            if not _keep_notes(frame, items, may_move=placed and not after_heading):
                break
            f = items[0]  # the table's first part, when it was split to keep its notes with its last rows
            if frame.add(f, c, trySplit=1):
                items.pop(0)
                bare = not placed and bool(keep)
                placed = True
                after_heading = bool(keep)
                if callable(getattr(f, "again", None)):
                    title = f
                continue
            parts = frame.split(f, c)
            if len(parts) > 1:
                if placed and not after_heading and _too_few_rows(parts, f, frame):
                    break  # a longer table starts the next region rather than leave a row or two here
                items[0:1] = parts
                continue
            if not placed or (bare and not _starts(frame, [], f, bare=True)):
                # too big for a whole region (under its heading) and cannot split: print what fits, visibly cut
                if check is not None:
                    raise CardSizeError(
                        used, "down", _least_height(f, frame._getAvailableWidth(), frame._aH), frame._aH
                    )
                items.pop(0)
                if not isinstance(f, _Cut):  # once: what a region with no room at all cannot take even cut is left out
                    items.insert(0, _too_big(f))
                continue
            break
        used += 1
    c.showPage()
    return used


def _room_after(frame: Frame, seq: Sequence[Flowable]) -> float | None:
    """The height left in ``frame`` once ``seq`` is placed one after the other as :meth:`Frame.add` would place it
    (space before and after included), or None when they do not all fit."""
    y, at_top, prev = frame._y, frame._atTop, frame._prevASpace
    aw = frame._getAvailableWidth()
    for f in seq:
        s = 0.0
        if not at_top:
            s = f.getSpaceBefore()
            if frame._oASpace:
                s = max(s - prev, 0.0)
        _, fh = f.wrap(aw, max(y - frame._y1p - s, 0.0))
        y -= fh + s
        if y < frame._y1p - 1e-6:
            return None
        prev = f.getSpaceAfter()
        y -= prev
        at_top = False
    return max(y - frame._y1p, 0.0)


def _keep_notes(frame: Frame, items: list[Flowable], *, may_move: bool) -> bool:
    """Keep a table's notes with it, and its heading with its start, for the block at the head of ``items``
    (a heading and its table, or a table, then the notes marked ``table_note``).  When the table fits what is
    left of the region and its notes do not, the table is split so that its last rows (three, or one of a
    table of three rows or fewer, under the repeated header) go on to the next region with the notes, and a table
    of four or five rows moves whole where a region holds it (``items`` is changed so once the table is at the
    head, after :func:`flow`'s check has seen it whole; there :func:`flow` sets the heading again, marked
    continued).  False when the block must move whole to the next region: the table cannot be split so, or the
    heading would stand at the foot without its table's header and a row under it; only when ``may_move``
    (something other than this block's heading is on the region already: else it flows as ever)."""
    i = 1 if callable(getattr(items[0], "again", None)) and len(items) > 1 else 0
    table = items[i]
    if not isinstance(table, Table):
        return True
    head = items[:i]
    n = 0
    while i + 1 + n < len(items) and getattr(items[i + 1 + n], "table_note", False):
        n += 1
    notes = items[i + 1 : i + 1 + n]
    if not notes and not (head and may_move):
        return True  # nothing to keep together here
    room = _room_after(frame, head)
    if room is None:
        return True  # the heading itself does not fit: the usual rules take it on
    fits_table = _room_after(frame, [*head, table]) is not None
    if notes and fits_table and _room_after(frame, [*head, table, *notes]) is None:
        rows = list(table._rowHeights)  # set by the wrap above
        _, body = _body_rows(table)
        # the rows that go on with the notes: at least MIN_SPLIT_ROWS when both parts can keep that many, else one
        go = MIN_SPLIT_ROWS if body >= 2 * MIN_SPLIT_ROWS else 1
        parts = table.split(frame._getAvailableWidth(), min(room, sum(rows[:-go])) + 1e-6)
        if len(parts) == 2:
            short = MIN_SPLIT_ROWS < body < 2 * MIN_SPLIT_ROWS  # no split leaves MIN_SPLIT_ROWS on both sides
            if head and may_move and short and _fits_empty(frame, [*head, table, *notes]):
                return False  # a chart of a few rows is not split for its notes when a card holds it whole
            if not head:  # split when the table is at the head (after flow's check has seen it whole)
                items[0:1] = [parts[0], CardBreak(1e9), parts[1]]
            return True
        return not may_move
    if head and not fits_table and may_move:  # the heading needs its table's header and a row under it
        return _starts(frame, head, table)
    return True


def _starts(frame: Frame, head: Sequence[Flowable], f: Flowable, *, bare: bool = False) -> bool:
    """Whether ``f`` fits, or its first part when split, under ``head`` in what is left of ``frame`` (``bare``: in
    the whole of an empty frame of its size)."""
    aw = frame._getAvailableWidth()
    if bare:
        _, fh = f.wrap(aw, frame._aH)
        return bool(fh <= frame._aH + 1e-6 or len(f.split(aw, frame._aH)) > 1)
    room = _room_after(frame, head)
    if room is None:
        return False
    if _room_after(frame, [*head, f]) is not None:
        return True
    parts = f.split(aw, room)
    return len(parts) > 1 and not _too_few_rows(parts, f, frame)


MIN_SPLIT_ROWS = 3
"""Body rows a table split across regions keeps in the first: a table of more rows that would leave fewer, and
that a region holds whole, starts the next region instead (with its heading), as a typesetter avoids an orphan."""


def _body_rows(table: Table) -> tuple[int, int]:
    """The header rows a table repeats when split, and its other rows."""
    head = table.repeatRows if isinstance(table.repeatRows, int) else len(table.repeatRows)
    return head, len(table._cellvalues) - head


def _fits_empty(frame: Frame, seq: Sequence[Flowable]) -> bool:
    """Whether ``seq`` fits, one after the other, an empty region the size of ``frame``."""
    empty = Frame(0, 0, frame._getAvailableWidth(), frame._aH, leftPadding=0, rightPadding=0, topPadding=0,
                  bottomPadding=0)  # fmt: skip
    return _room_after(empty, seq) is not None


def _too_few_rows(parts: Sequence[Flowable], whole: Flowable, frame: Frame) -> bool:
    """Whether splitting table ``whole`` into ``parts`` leaves fewer than :data:`MIN_SPLIT_ROWS` of its body rows
    in either part (in the first, or carried on to the next region), and an empty region like ``frame`` would hold
    it whole (else it is split wherever it starts, and moving it only wastes the room left here)."""
    if not (isinstance(whole, Table) and isinstance(parts[0], Table)):
        return False
    head, body = _body_rows(whole)
    first = len(parts[0]._cellvalues) - head
    # a row or two left behind, or carried on alone ("continued" over one row): a short table is not split at all
    if first >= MIN_SPLIT_ROWS and body - first >= MIN_SPLIT_ROWS:
        return False
    return whole.wrap(frame._getAvailableWidth(), frame._aH)[1] <= frame._aH


def _too_big(f: Flowable) -> Flowable:
    text = " ".join(_plain_lines(getattr(f, "text", "") or "")) or type(f).__name__
    short = text if len(text) <= 40 else text[:37] + "..."
    warn((), f"reference card: {short!r} is taller than a whole card and cannot be split; only what fits is printed")
    return _Cut(0, 0, [f], mode="truncate")


class _Cut(KeepInFrame):
    """A flowable cut to what fits its region (:func:`_too_big`)."""


def _least_height(f: Flowable, width: float, height: float) -> float:
    """How tall ``f`` is at its least (a table: its repeated header and its tallest row, where it can split)."""
    _, h = f.wrap(width, height)
    if isinstance(f, Table) and f._rowHeights:
        rows = list(f._rowHeights)
        head = f.repeatRows if isinstance(f.repeatRows, int) else len(f.repeatRows)
        return float(sum(rows[:head]) + max(rows[head:], default=0.0))
    return float(h)
