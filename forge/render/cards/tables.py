"""Charts: column widths from their content (:func:`auto_widths`), the house table (:func:`grid_table`: a dark
header, thin rules, light zebra rows, a :class:`forge.render.blocks.Table` that knows the narrowest it can be,
what ``--card-size`` checks), and a results table's unknown cells left empty to write in (:func:`write_in`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...pdf import FONT, FONT_BOLD, text_width
from ...templates import card_layout
from ..blocks import Align, Block, Piece, Row, Table
from ..fit import LONG_WORD
from .styles import P, _plain_lines, Styles


def _natural(v: Any, size: float, bold: bool = False, pad: float = 8.0) -> tuple[float, float]:
    """(natural width, narrowest sensible width) of a cell at ``size``, with ``pad`` points of cell padding."""
    if v is None:  # an empty cell (a spanned row's rest)
        v = ""
    if isinstance(v, Piece):
        w = float(v.width)
        return w + pad - 1, w + pad - 1
    font = FONT_BOLD if bold or "<b>" in str(v) else FONT
    lines = _plain_lines(str(v))
    widest = max(text_width(ln, size, font) for ln in lines) if lines else 0.0
    # A word longer than LONG_WORD letters can break (esc puts soft hyphens in it): it asks for no more room.
    words = [w.replace("\xad", "")[: LONG_WORD + 1] for ln in lines for w in ln.split()]
    longest_word = max((text_width(w, size, font) for w in words), default=0.0)
    return widest + pad, min(widest, max(longest_word, 22.0)) + pad


def _column_measures(
    header: Sequence[Any], rows: Sequence[Sequence[Any]], size: float
) -> tuple[list[float], list[float], list[float]]:
    """Each column's natural width, narrowest sensible width (its longest word) and floor (a drawing's width, or a
    letter and the cell padding), at ``size``."""
    n = len(header)
    nat = [0.0] * n
    low = [0.0] * n
    pad = max(8.0, 2 * card_layout().table.padding_x + 2)  # the cells' padding, left and right, and some air
    floor = [pad] * n  # what a column cannot give up: a drawing's width, or a letter and the cell padding
    for ri, r in enumerate([list(header), *[list(r) for r in rows]]):
        for i, v in enumerate(r[:n]):
            a, b = _natural(v, size, bold=ri == 0, pad=pad)
            nat[i], low[i] = max(nat[i], a), max(low[i], b)
            if isinstance(v, Piece):
                floor[i] = max(floor[i], b)
    low = [min(lo, na) for lo, na in zip(low, nat, strict=True)]
    return nat, low, floor


def auto_widths(
    header: Sequence[Any],
    rows: Sequence[Sequence[Any]],
    avail: float,
    *,
    flex: int | None = None,
    size: float = 7.0,
) -> list[float]:
    """Column widths from the content: natural widths when they fit (the ``flex`` column takes what is left),
    otherwise wide columns give up room in proportion to how far they can shrink before their longest word."""
    nat, low, floor = _column_measures(header, rows, size)
    total = sum(nat)
    if total <= avail:
        if flex is not None:
            nat[flex] += avail - total
        return nat
    give = [na - lo for na, lo in zip(nat, low, strict=True)]
    need = total - avail
    room: float = sum(give)
    if room <= 0:
        return [avail * na / total for na in nat]
    share = min(1.0, need / room)  # of each column's slack, given up
    out = [na - g * share for na, g in zip(nat, give, strict=True)]
    if need > room:  # even at their narrowest the columns overflow: text columns shrink further (cells wrap)
        spare = sum(out) - sum(floor)
        over = sum(out) - avail
        if spare > over:
            out = [f + (w - f) * (1 - over / spare) for w, f in zip(out, floor, strict=True)]
        else:
            out = [w * avail / sum(out) for w in out]
    return out


Chart = Table
"""A chart's table (:class:`forge.render.blocks.Table`): its ``least()`` is the narrowest it can be without a
cell's text running out of its column, what the check of ``--card-size`` (:func:`sized_cards`) compares with a
card's room; the parts a split makes have none (their columns are the whole's)."""


def grid_table(
    st: Styles,
    header: Sequence[str],
    rows: Sequence[Sequence[Any]],
    avail: float,
    *,
    widths: Sequence[float] | None = None,
    flex: int | None = None,
    centre_from: int | None = None,
    zebra: bool = True,
    spans: Mapping[int, str] | None = None,
    align: Align = "left",
    row_height: float | None = None,
    least: float | None = None,
) -> Table:
    """A chart: a dark header row, thin rules, light zebra rows.  Cells that are strings become paragraphs;
    column widths come from the content unless given; ``row_height`` fixes the body rows' height (forms).
    ``spans``: body rows (numbered from 1, under the header) whose first cell spans the row, each with its fill (a
    section's or a formation's name).  ``align``: where a drawing sits in its cell.  ``least``: the narrowest the
    chart can be without a cell's text running out of its column (its columns' longest words, :func:`auto_widths`,
    unless given): what ``--card-size`` checks (:class:`Chart`)."""
    spans = spans or {}

    def cell(v: Any, col: int) -> Block | None:
        if isinstance(v, str):
            style = st.cell_c if centre_from is not None and col >= centre_from else st.cell
            return P(v, style)
        assert v is None or isinstance(v, Block), v
        return v

    if widths is None:
        widths = auto_widths(header, rows, avail, flex=flex, size=max(st.cell.size, st.cell_c.size))
    head = [P(h, st.head_c if centre_from is not None and i >= centre_from else st.head) for i, h in enumerate(header)]
    zebra_fill, head_fill = st.c("#f1efe8"), st.c("panel_head")
    data = [Row(list(head), fill=head_fill)]
    for r, values in enumerate(rows, 1):
        fill = zebra_fill if zebra and r % 2 == 0 else None
        data.append(
            Row(
                [cell(v, i) for i, v in enumerate(values)],
                fill=st.c(spans[r]) if r in spans else fill,
                span=r in spans,
                height=row_height,
            )
        )
    size = max(st.cell.size, st.cell_c.size)
    tb = card_layout().table
    # The template's cell padding, but never more than leaves a column a point of room: a wide padding in a user's
    # card.yaml meets a narrow column of a wide table.
    pad_x = max(0.0, min(tb.padding_x, (min(widths, default=2.0) - 1.0) / 2))
    return Chart(
        data,
        list(widths),
        head=1,
        pad=(tb.padding_y, tb.padding_y, pad_x, pad_x),
        valign="middle",
        align=align,
        rule=(tb.rule, st.c("#9a9a9a")),
        outline=(tb.outline, st.c("panel_edge")),
        least=(lambda: least) if least is not None else (lambda: sum(_column_measures(header, rows, size)[1])),
        label=_plain_lines(header[0])[0] if header and isinstance(header[0], str) and header[0] else "chart",
    )


def write_in(grid: list[list[str]]) -> list[list[str]]:
    """A results table as players get it: a cell the rules do not give is left empty, a box to write the published
    value in, never a "?" to play with (as on the counters)."""
    return [["" if x.strip() == "?" else x for x in row] for row in grid]


WRITE_IN_NOTE = "An empty cell is a result the rules do not print: write it in from the published table."
