"""Charts: column widths from their content (:func:`auto_widths`), the house table (:func:`grid_table`: a dark
header, thin rules, light zebra rows), :class:`Chart`, a table that knows the narrowest it can be (what
``--card-size`` checks), and a results table's unknown cells left empty to write in (:func:`write_in`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from reportlab.platypus import Flowable, Table, TableStyle

from ...pdf import FONT, FONT_BOLD, text_width
from ...templates import card_layout
from ..fit import LONG_WORD
from .styles import P, _plain_lines, Styles


def _natural(v: Any, size: float, bold: bool = False, pad: float = 8.0) -> tuple[float, float]:
    """(natural width, narrowest sensible width) of a cell at ``size``, with ``pad`` points of cell padding."""
    if isinstance(v, Flowable):
        w = float(getattr(v, "width", 20))
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
            if isinstance(v, Flowable):
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


class Chart(Table):
    """A chart's table, which knows the narrowest it can be (``least()``, in points) without a cell's text running
    out of its column: the check of ``--card-size`` (:func:`sized_cards`) compares it with a card's room.  The
    parts a split makes (reportlab builds them with the same class) have none: their columns are the whole's."""

    _wrapped: tuple[float, float] | None = None

    def __init__(self, *args: Any, least: Callable[[], float] | None = None, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.least = least

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        """The table's size; a second wrap at the same width and height (:func:`flow` measures before it places)
        reuses the first's, as :class:`_Para` does."""
        if self._wrapped == (availWidth, availHeight):
            return self._width, self._height
        out = super().wrap(availWidth, availHeight)
        self._wrapped = (availWidth, availHeight)
        return out


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
    extra: Sequence[tuple[Any, ...]] = (),
    row_height: float | None = None,
    least: float | None = None,
) -> Table:
    """A chart: a dark header row, thin rules, light zebra rows.  Cells that are strings become paragraphs;
    column widths come from the content unless given; ``row_height`` fixes the body rows' height (forms).
    ``least``: the narrowest the chart can be without a cell's text running out of its column (its columns' longest
    words, :func:`auto_widths`, unless given): what ``--card-size`` checks (:class:`Chart`)."""

    def cell(v: Any, col: int) -> Any:
        if isinstance(v, str):
            style = st.cell_c if centre_from is not None and col >= centre_from else st.cell
            return P(v, style)
        return v

    if widths is None:
        widths = auto_widths(header, rows, avail, flex=flex, size=max(st.cell.fontSize, st.cell_c.fontSize))
    head = [P(h, st.head_c if centre_from is not None and i >= centre_from else st.head) for i, h in enumerate(header)]
    data = [head] + [[cell(v, i) for i, v in enumerate(r)] for r in rows]
    heights = None if row_height is None else [None] + [row_height] * (len(data) - 1)
    size = max(st.cell.fontSize, st.cell_c.fontSize)
    t = Chart(
        data,
        colWidths=list(widths),
        rowHeights=heights,
        repeatRows=1,
        hAlign="LEFT",
        least=(lambda: least) if least is not None else (lambda: sum(_column_measures(header, rows, size)[1])),
    )
    tb = card_layout().table
    # The template's cell padding, but never more than leaves a column a point of room (reportlab refuses a cell
    # narrower than its padding): a wide padding in a user's card.yaml meets a narrow column of a wide table.
    pad_x = max(0.0, min(tb.padding_x, (min(widths, default=2.0) - 1.0) / 2))
    cmds: list[tuple[Any, ...]] = [
        ("FONTNAME", (0, 0), (-1, -1), FONT),  # not reportlab's default Helvetica, which a print service rejects
        ("BACKGROUND", (0, 0), (-1, 0), st.c("panel_head")),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, 0), (-1, -1), tb.rule, st.c("#9a9a9a")),
        ("BOX", (0, 0), (-1, -1), tb.outline, st.c("panel_edge")),
        ("TOPPADDING", (0, 0), (-1, -1), tb.padding_y),
        ("BOTTOMPADDING", (0, 0), (-1, -1), tb.padding_y),
        ("LEFTPADDING", (0, 0), (-1, -1), pad_x),
        ("RIGHTPADDING", (0, 0), (-1, -1), pad_x),
    ]
    if zebra:
        for i in range(2, len(data), 2):
            cmds.append(("BACKGROUND", (0, i), (-1, i), st.c("#f1efe8")))
    cmds += list(extra)
    t.setStyle(TableStyle(cmds))
    return t


def write_in(grid: list[list[str]]) -> list[list[str]]:
    """A results table as players get it: a cell the rules do not give is left empty, a box to write the published
    value in, never a "?" to play with (as on the counters)."""
    return [["" if x.strip() == "?" else x for x in row] for row in grid]


WRITE_IN_NOTE = "An empty cell is a result the rules do not print: write it in from the published table."
