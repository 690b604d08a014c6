"""Pouring blocks into cards or pages (:func:`flow`), with the card rules of issues 10 and 12: a heading stays
with the start of its table, a block split onto the next card starts there under its heading marked continued, a
table's notes stay with its last rows (:func:`_keep_notes`), and no table is split to leave a row or two alone on
either side (:data:`MIN_SPLIT_ROWS`, :func:`_too_few_rows`).  A block too big for a whole card and that cannot
split is printed cut, with a warning.

The blocks are :mod:`forge.render.blocks`' and draw on a :class:`forge.canvas.PdfCanvas`; a region's room is
kept by :class:`Frame`, a cursor of this module's own (where the next block goes, whether the region is still
empty, the space the last block left below it)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas as ReportlabCanvas

from ...canvas import Canvas, PdfCanvas, Recorder
from ...errors import warn
from ..blocks import Block, Heading, Para, Table
from .flowables import CardBreak
from .size import CardSizeError
from .styles import _plain_lines

Region = tuple[float, float, float, float]  # x, y (bottom, y up, as reportlab has it), width, height
_FUZZ = 1e-6


class Frame:
    """The room of one region: ``width`` x ``height`` with its top-left at ``(x, top)`` on the page (y down), and
    a cursor: ``used`` points from the top, ``at_top`` (nothing placed yet: a block's space before is dropped),
    ``prev_space`` (the last block's space after, which the next block's space before overlaps)."""

    def __init__(self, x: float, top: float, width: float, height: float) -> None:
        self.x, self.top, self.width, self.height = x, top, width, height
        self.used = 0.0
        self.at_top = True
        self.prev_space = 0.0

    @property
    def room(self) -> float:
        """The height left."""
        return self.height - self.used

    def space_before(self, f: Block) -> float:
        """The space above ``f`` were it placed next (none at the top; overlapping the last block's space after)."""
        return 0.0 if self.at_top else max(f.space_before - self.prev_space, 0.0)

    def add(self, f: Block, c: Canvas | None) -> bool:
        """Place ``f`` (drawn on ``c`` unless None) if it fits what is left; False when it does not."""
        s = self.space_before(f)
        if self.room - s <= 0:
            return False
        h = f.measure(self.width)
        if isinstance(f, _Cut):
            h = min(h, self.room - s)
        if self.used + s + h > self.height + _FUZZ:
            return False
        y = self.top + self.used + s
        if c is not None:
            if isinstance(f, _Cut):  # what fits, clipped at the foot of the region
                with c.saved():
                    c.clip_rect(self.x, y, self.width, h)
                    f.block.draw(c, self.x, y, self.width)
            else:
                f.draw(c, self.x, y, self.width)
        if s + h + f.space_after:
            self.at_top = False
        self.used += s + h + f.space_after
        self.prev_space = f.space_after
        return True

    def split(self, f: Block) -> tuple[Block, Block] | None:
        return f.split(self.width, self.room - self.space_before(f))


@dataclass
class Keep:
    """A section (a heading, its chart and notes) kept on one region when it fits on one, else poured as usual:
    :func:`flow` unpacks it where it comes, after a :class:`CardBreak` that asks for its whole height when it fits
    an empty region but not the room left (``page_height``: an empty region's)."""

    content: list[Block]
    page_height: float
    space_before: float = 0.0
    space_after: float = 0.0

    def height(self, width: float) -> float:
        return sum(f.measure(width) + f.space_before + f.space_after for f in self.content)

    def unpack(self, width: float, room: float) -> list[Block]:
        need = self.height(width)
        if room + 1e-6 < need <= self.page_height:  # does not fit here but on a page of its own: start one
            return [CardBreak(need), *self.content]
        return [CardBreak(0.0), *self.content]

    def measure(self, width: float) -> float:
        return self.height(width)

    def split(self, width: float, height: float) -> tuple[Block, Block] | None:
        return None

    def draw(self, c: Canvas, x: float, y: float, width: float) -> None:  # pragma: no cover - unpacked, never drawn
        pass


def flow(
    c: ReportlabCanvas,
    items: Sequence[Block],
    *,
    regions_per_page: int,
    region: Callable[[int], Region],
    chrome: Callable[[PdfCanvas, int, Region], Region],
    check: Callable[[Block, int, Frame], None] | None = None,
    recorder: Recorder | None = None,
    margin: float | None = None,
) -> int:
    """Pour ``items`` into regions (cards or pages), ``regions_per_page`` to a page; return the regions used.

    ``region(i)`` is the i-th region on its page (``i`` counts within the page); ``chrome`` draws a region's
    frame and title on the page's canvas and returns the inner area the content may use.  Blocks that do not fit
    are split (tables by rows, paragraphs by lines); :class:`CardBreak` starts a new region when little room is
    left; :class:`Keep` keeps a section on one region.  A block split onto the next region starts there with its
    heading again, marked continued (the heading's ``again()``, :func:`heading`); a heading is never left at the
    foot of a region without the start of its table; a table's notes (:func:`note`'s ``table_note``) go with its
    last rows (:func:`_keep_notes`).  ``check(f, region index, frame)`` sees each block before it is placed and may
    raise; with it, a block too big for a whole region is refused (:class:`CardSizeError`) instead of printed cut.
    A ``recorder`` notes what each page places (:mod:`forge.layout`: every block and table cell is a container),
    each page with ``margin`` as its printer margin (None: none checked).
    """
    items = list(items)
    used = 0
    title: Heading | None = None  # the heading of the block being poured (its again() heads a continuation)
    while items:
        slot = used % regions_per_page
        if used and slot == 0:
            c.showPage()
        pw, ph = c._pagesize
        if recorder is not None and slot == 0:
            recorder.page(pw, ph, f"page {c.getPageNumber()}", margin=margin)
        page = PdfCanvas(c, top=ph, recorder=recorder)
        x, y, w, h = chrome(page, used, region(slot))
        frame = Frame(x, page.top - y - h, w, h)
        with page.frame("container", x, frame.top, w, h, f"region {used + 1}"):  # what a card or page holds
            placed = False
            after_heading = False  # the last thing placed on this region is a heading
            bare = True  # nothing is on this region yet but (perhaps) one heading
            while items:
                f = items[0]
                if isinstance(f, CardBreak):
                    items.pop(0)
                    if placed and frame.room < f.min_space:
                        break
                    continue
                if isinstance(f, Keep):
                    items[0:1] = f.unpack(frame.width, frame.room - frame.space_before(f))
                    continue
                keep = f.keep_next if isinstance(f, Heading) else 0.0
                if not placed and title is not None and not keep and isinstance(f, Table | Para):
                    # the rest of a block begun on an earlier region: its heading again, unless only without it
                    # does the start of the rest fit
                    again = title.again()
                    if _starts(frame, [again], f) or not _starts(frame, [], f):
                        items.insert(0, again)
                        continue
                if check is not None:
                    check(f, used, frame)
                if keep and placed:  # a heading needs room for some of what follows it
                    fh = f.measure(frame.width)
                    if frame.room - fh - f.space_before < keep:
                        break
                if not _keep_notes(frame, items, may_move=placed and not after_heading):
                    break
                f = items[0]  # the table's first part, when it was split to keep its notes with its last rows
                if frame.add(f, page):
                    items.pop(0)
                    bare = not placed and bool(keep)
                    placed = True
                    after_heading = bool(keep)
                    if isinstance(f, Heading):
                        title = f
                    continue
                parts = frame.split(f)
                if parts is not None:
                    if placed and not after_heading and _too_few_rows(parts, f, frame):
                        break  # a longer table starts the next region rather than leave a row or two here
                    items[0:1] = list(parts)
                    continue
                if not placed or (bare and not _starts(frame, [], f, bare=True)):
                    # too big for a whole region (under its heading) and cannot split: print what fits, visibly cut
                    if check is not None:
                        raise CardSizeError(used, "down", _least_height(f, frame.width), frame.height)
                    items.pop(0)
                    if not isinstance(f, _Cut):  # once: what a region with no room at all cannot take even cut
                        items.insert(0, _too_big(f))  # is left out
                    continue
                break
        used += 1
    c.showPage()
    return used


def _room_after(frame: Frame, seq: Sequence[Block]) -> float | None:
    """The height left in ``frame`` once ``seq`` is placed one after the other as :meth:`Frame.add` would place it
    (space before and after included), or None when they do not all fit."""
    used, at_top, prev = frame.used, frame.at_top, frame.prev_space
    for f in seq:
        s = 0.0 if at_top else max(f.space_before - prev, 0.0)
        used += f.measure(frame.width) + s
        if used > frame.height + _FUZZ:
            return None
        prev = f.space_after
        used += prev
        at_top = False
    return max(frame.height - used, 0.0)


def _keep_notes(frame: Frame, items: list[Block], *, may_move: bool) -> bool:
    """Keep a table's notes with it, and its heading with its start, for the block at the head of ``items``
    (a heading and its table, or a table, then the notes marked ``table_note``).  When the table fits what is
    left of the region and its notes do not, the table is split so that its last rows (three, or one of a
    table of three rows or fewer, under the repeated header) go on to the next region with the notes, and a table
    of four or five rows moves whole where a region holds it (``items`` is changed so once the table is at the
    head, after :func:`flow`'s check has seen it whole; there :func:`flow` sets the heading again, marked
    continued).  False when the block must move whole to the next region: the table cannot be split so, or the
    heading would stand at the foot without its table's header and a row under it; only when ``may_move``
    (something other than this block's heading is on the region already: else it flows as ever)."""
    i = 1 if isinstance(items[0], Heading) and len(items) > 1 else 0
    table = items[i]
    if not isinstance(table, Table):
        return True
    head = items[:i]
    n = 0
    while i + 1 + n < len(items) and _is_table_note(items[i + 1 + n]):
        n += 1
    notes = items[i + 1 : i + 1 + n]
    if not notes and not (head and may_move):
        return True  # nothing to keep together here
    room = _room_after(frame, head)
    if room is None:
        return True  # the heading itself does not fit: the usual rules take it on
    fits_table = _room_after(frame, [*head, table]) is not None
    if notes and fits_table and _room_after(frame, [*head, table, *notes]) is None:
        rows = table.row_heights()
        body = table.body_rows
        # the rows that go on with the notes: at least MIN_SPLIT_ROWS when both parts can keep that many, else one
        go = MIN_SPLIT_ROWS if body >= 2 * MIN_SPLIT_ROWS else 1
        parts = table.split(frame.width, min(room, sum(rows[:-go])) + 1e-6)
        if parts is not None:
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


def _is_table_note(f: Block) -> bool:
    return isinstance(f, Para) and f.table_note


def _starts(frame: Frame, head: Sequence[Block], f: Block, *, bare: bool = False) -> bool:
    """Whether ``f`` fits, or its first part when split, under ``head`` in what is left of ``frame`` (``bare``: in
    the whole of an empty frame of its size)."""
    if bare:
        fh = f.measure(frame.width)
        return bool(fh <= frame.height + 1e-6 or f.split(frame.width, frame.height) is not None)
    room = _room_after(frame, head)
    if room is None:
        return False
    if _room_after(frame, [*head, f]) is not None:
        return True
    parts = f.split(frame.width, room)
    return parts is not None and not _too_few_rows(parts, f, frame)


MIN_SPLIT_ROWS = 3
"""Body rows a table split across regions keeps in the first: a table of more rows that would leave fewer, and
that a region holds whole, starts the next region instead (with its heading), as a typesetter avoids an orphan."""


def _body_rows(table: Table) -> tuple[int, int]:
    """The header rows a table repeats when split, and its other rows."""
    return table.head, table.body_rows


def _fits_empty(frame: Frame, seq: Sequence[Block]) -> bool:
    """Whether ``seq`` fits, one after the other, an empty region the size of ``frame``."""
    return _room_after(Frame(0, 0, frame.width, frame.height), seq) is not None


def _too_few_rows(parts: Sequence[Block], whole: Block, frame: Frame) -> bool:
    """Whether splitting table ``whole`` into ``parts`` leaves fewer than :data:`MIN_SPLIT_ROWS` of its body rows
    in either part (in the first, or carried on to the next region), and an empty region like ``frame`` would hold
    it whole (else it is split wherever it starts, and moving it only wastes the room left here)."""
    if not (isinstance(whole, Table) and isinstance(parts[0], Table)):
        return False
    body = whole.body_rows
    first = parts[0].body_rows
    # a row or two left behind, or carried on alone ("continued" over one row): a short table is not split at all
    if first >= MIN_SPLIT_ROWS and body - first >= MIN_SPLIT_ROWS:
        return False
    return whole.measure(frame.width) <= frame.height


def _too_big(f: Block) -> Block:
    text = (" ".join(_plain_lines(f.text)) if isinstance(f, Para) else "") or type(f).__name__
    short = text if len(text) <= 40 else text[:37] + "..."
    warn((), f"reference card: {short!r} is taller than a whole card and cannot be split; only what fits is printed")
    return _Cut(f)


@dataclass
class _Cut:
    """A block cut to what fits its region (:func:`_too_big`): :meth:`Frame.add` gives it the room left, and it
    draws its block clipped to that."""

    block: Block
    space_before: float = 0.0
    space_after: float = 0.0
    label: str = "cut block"

    def measure(self, width: float) -> float:
        return self.block.measure(width)

    def split(self, width: float, height: float) -> tuple[Block, Block] | None:
        return None

    def draw(self, c: Canvas, x: float, y: float, width: float) -> None:
        pass  # drawn by Frame.add, which knows the room and clips the block to it


def _least_height(f: Block, width: float) -> float:
    """How tall ``f`` is at its least (a table: its repeated header and its tallest row, where it can split)."""
    if isinstance(f, Table) and f.rows:
        rows = f.row_heights()
        return float(sum(rows[: f.head]) + max(rows[f.head :], default=0.0))
    return float(f.measure(width))
