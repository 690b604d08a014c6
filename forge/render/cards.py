"""Reference cards: the combat results table, shifts, modifiers, terrain effects, sequence of play, every
other table, victory and special rules, two cards to a page (or one card a page, at its own size, for a card
service: ``--cards-per-page 1``; or one a page at a card service's product size, laid out again for it:
``--card-size``, :func:`sized_cards`).

Each fact is printed from its one source in the model: the CRT from ``game.combat.crt``, the terrain effects
from ``game.terrain``, the turn record's reinforcements from ``game.reinforcements()``.  The blocks are
platypus flowables poured card after card by :func:`flow`; the class handout reuses the same blocks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
import re
from typing import Any, TYPE_CHECKING
from ..markup import escape, unescape

from reportlab.lib.colors import Color
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import registerFontFamily
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Frame, KeepInFrame, Paragraph, Table, TableStyle
from reportlab.platypus.doctemplate import ActionFlowable

from ..model import (
    CellFormat,
    Crt,
    Game,
    Grid2D,
    Phase,
    StackAllowance,
    TerrainKind,
    Turn,
    UnitSelector,
    Unknown,
    VictoryLevel,
)
from .. import turnlength as TL
from ..pdf import FONT, FONT_BOLD, FONT_ITALIC, page_bleed, register_fonts, render_pdf, text_width
from ..errors import BuildWarning, collect_warnings, warn
from ..templates import Heading, card_layout
from ..tiling import TRIM_SAFE_MARGIN
from .fit import LONG_WORD, MIN_TEXT_PT, fit_line, soft_hyphens
from .style import DEFAULT_COLORS, colour, combat_facts, draw_pattern

if TYPE_CHECKING:  # build imports the renderers: a runtime import would be circular
    from ..builder import BuildOptions

__all__ = [
    "CARD_SIZES",
    "CardBreak",
    "CardSizeError",
    "Styles",
    "card_size",
    "combat_blocks",
    "crt_blocks",
    "flow",
    "refuse_card_size",
    "render",
    "sequence_blocks",
    "shift_blocks",
    "single_card_size",
    "sized_cards",
    "story",
]

UNKNOWN_NOTE = "? = not given by the rules"
RETREAT_RED = "#c8102e"


def _fonts() -> None:
    register_fonts()
    registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT_ITALIC, boldItalic=FONT_BOLD)


def esc(text: object) -> str:
    """``text`` escaped for a paragraph, its very long words breakable with a hyphen (:func:`soft_hyphens`)."""
    return escape(soft_hyphens(str(text)))


def _rule(rule: str | None) -> str:
    return f"({esc(rule)})" if rule else ""


def _num(v: object) -> str:
    """Numbers as printed: unknown as ``?``, whole floats without a point."""
    if isinstance(v, Unknown):
        return "?"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


# ------------------------------------------------------------------------------------------------ styles
@dataclass
class Styles:
    """Paragraph styles and colours for one build (greyscale-aware)."""

    options: BuildOptions
    body: ParagraphStyle
    small: ParagraphStyle
    cell: ParagraphStyle
    cell_c: ParagraphStyle
    head: ParagraphStyle
    head_c: ParagraphStyle
    h1: ParagraphStyle
    h2: ParagraphStyle

    @classmethod
    def make(cls, options: BuildOptions, *, scale: float = 1.0) -> Styles:
        _fonts()
        ink = colour(DEFAULT_COLORS["ink"], options)
        white = colour("#ffffff", options)

        tpl = card_layout()  # templates/card.yaml
        fonts = {"regular": FONT, "bold": FONT_BOLD}

        def ps(name: str, **kw: Any) -> ParagraphStyle:
            style = getattr(tpl.styles, name)
            size = max(MIN_TEXT_PT, style.size * scale)
            if isinstance(style, Heading):
                kw.update(spaceBefore=style.space_before, spaceAfter=style.space_after)
            return ParagraphStyle(
                name,
                fontName=fonts[style.font],
                fontSize=size,
                leading=size * tpl.leading,
                textColor=kw.pop("textColor", ink),
                **kw,
            )

        return cls(
            options=options,
            body=ps("body"),
            small=ps("small"),
            cell=ps("cell"),
            cell_c=ps("cell_c", alignment=1),
            head=ps("head", textColor=white),
            head_c=ps("head_c", textColor=white, alignment=1),
            h1=ps("h1"),
            h2=ps("h2"),
        )

    def c(self, role_or_hex: str) -> Color:
        return colour(DEFAULT_COLORS.get(role_or_hex, role_or_hex), self.options)

    @property
    def greyscale(self) -> bool:
        return bool(self.options.greyscale)


class CardBreak(Flowable):
    """Start a new card unless at least ``min_space`` points are left on this one."""

    def __init__(self, min_space: float = 0.0) -> None:
        super().__init__()
        self.min_space = min_space

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        return (0, 0)

    def draw(self) -> None:
        pass


class ShiftArrow(Flowable):
    """A column shift: the count and an arrow pointing the way the column moves."""

    def __init__(self, shift: int, st: Styles, width: float = 34) -> None:
        super().__init__()
        self.shift, self.st, self.width, self.height = shift, st, width, 9.0

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        return (self.width, self.height)

    def draw(self) -> None:
        c = self.canv
        n = abs(self.shift)
        txt = f"{n} {'R' if self.shift > 0 else 'L'}" if n else "0"
        c.setFillColor(self.st.c("ink"))
        c.setStrokeColor(self.st.c("ink"))
        c.setFont(FONT_BOLD, 7.5)
        c.drawString(0, 1.5, txt)
        if not n:
            return
        x0 = text_width(txt, 7.5, FONT_BOLD) + 3
        x1 = self.width - 2
        y = 4.2
        c.setLineWidth(1.1)
        c.line(x0, y, x1, y)
        tip, tail = (x1, x1 - 4) if self.shift > 0 else (x0, x0 + 4)
        p = c.beginPath()
        p.moveTo(tip, y)
        p.lineTo(tail, y + 2.6)
        p.lineTo(tail, y - 2.6)
        p.close()
        c.drawPath(p, stroke=0, fill=1)


class Swatch(Flowable):
    """A terrain sample: its colour and pattern, or its line for hexside and path terrain.  Given the game and
    the terrain's id, it is the map legend's own sample (:func:`forge.render.map.draw_terrain_sample`), so a
    city or an airfield shows the icon printed on the map."""

    def __init__(
        self,
        fill: str,
        pattern: str,
        kind: TerrainKind,
        st: Styles,
        size: float = 16,
        *,
        game: Game | None = None,
        tid: str | None = None,
    ) -> None:
        super().__init__()
        self.fill, self.pattern, self.kind, self.st = fill, pattern, kind, st
        self.game, self.tid = game, tid
        self.width = self.height = size

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        return (self.width, self.height)

    def draw(self) -> None:
        c, s = self.canv, self.width
        if self.game is not None and self.tid is not None:
            from .map import draw_terrain_sample  # the map's legend sample: one look on map and cards

            draw_terrain_sample(c, self.game, self.st.options, self.tid, s)
            return
        ink = self.st.c("ink")
        if self.kind in (TerrainKind.HEXSIDE, TerrainKind.PATH):
            c.setFillColor(self.st.c("paper"))
            c.setStrokeColor(self.st.c("hex_edge"))
            c.setLineWidth(0.4)
            c.rect(0, 0, s, s, stroke=1, fill=1)
            c.setStrokeColor(self.st.c(self.fill))
            c.setLineWidth(2.4 if self.kind is TerrainKind.HEXSIDE else 1.8)
            if self.kind is TerrainKind.PATH:
                c.setDash(3, 1.5)
            c.line(1, s / 2, s - 1, s / 2)
            return
        c.setFillColor(self.st.c(self.fill))
        c.setStrokeColor(self.st.c("hex_edge"))
        c.setLineWidth(0.4)
        c.rect(0, 0, s, s, stroke=1, fill=1)
        pat_ink = colour(DEFAULT_COLORS["ink"], self.st.options)
        draw_pattern(c, [(0, 0), (s, 0), (s, s), (0, s)], self.pattern, pat_ink, s * 3)
        c.setStrokeColor(ink)


# ---------------------------------------------------------------------------------------------- table helpers
class _Para(Paragraph):
    """A paragraph that remembers its last wrap: :func:`flow` measures what is to come (a heading with its table,
    a table with its notes) at the very width and height the frame then wraps it at, and a paragraph's wrap
    (breaking its lines) is the costly part of laying out cards.  Wrapping again with other arguments, or a split,
    recomputes as before."""

    _wrapped: tuple[float, float] | None = None

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        if self._wrapped == (availWidth, availHeight):
            return self.width, self.height
        out = super().wrap(availWidth, availHeight)
        self._wrapped = (availWidth, availHeight)
        return out


def P(text: str, style: ParagraphStyle) -> Paragraph:
    return _Para(text, style)


_TAG = re.compile(r"<[^>]+>")


def _plain_lines(markup: str) -> list[str]:
    return [unescape(_TAG.sub("", part)) for part in re.split(r"<br\s*/?>", markup)]


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


def heading(st: Styles, text: str, rule: str | None = None, *, level: int = 1, continued: bool = False) -> Paragraph:
    """A heading that :func:`flow` keeps with at least a few lines of what follows.  Its ``again()`` is the same
    heading marked continued ("Stacking limits (5), continued"), which :func:`flow` sets above the rest of a block
    split onto the next card."""
    style = st.h1 if level == 1 else st.h2
    small = f'<font name="{FONT}" size="{style.fontSize - 1.5:g}">'
    r = f" {small}{_rule(rule)}</font>" if rule else ""
    more = f"{small}, continued</font>" if continued else ""
    p = P(f"{esc(text)}{r}{more}", style)
    p.keep_next = 40.0
    p.block_title = text  # the chart it heads, named in --card-size's refusal (:func:`sized_cards`)
    p.again = lambda: heading(st, text, rule, level=level, continued=True)
    return p


def note(st: Styles, text: str, *, table_note: bool = False) -> Paragraph:
    """A note in small type.  ``table_note``: it explains the table just before it (a column, a mark, an empty
    cell), and :func:`flow` keeps it on the card of that table's last rows."""
    p = P(text, st.small)
    if table_note:
        p.table_note = True
    return p


# ------------------------------------------------------------------------------------------------ the CRT
def _hits_cell(text: str, crt: Crt, st: Styles) -> str:
    """``normal/all-out`` hits; numbers at or above the mandatory-retreat threshold in red (bold and
    underlined in greyscale, where red would not stand out)."""
    mr = crt.mandatory_retreat
    out = []
    for p in text.split("/"):
        s = esc(p)
        if mr is not None and p.strip().isdigit() and int(p) >= mr.min_hits:
            s = f"<u><b>{s}</b></u>" if st.greyscale else f'<font color="{RETREAT_RED}"><b>{s}</b></font>'
        out.append(s)
    return "/".join(out)


def _cell_markup(text: str, crt: Crt, st: Styles) -> str:
    if crt.cell_format is CellFormat.HITS_NORMAL_ALLOUT:
        return _hits_cell(text, crt, st)
    return esc(text)


def _grid_rows(cells: list[list[str]] | Unknown, rows: Sequence[str], n_cols: int) -> list[list[str]]:
    if isinstance(cells, Unknown):
        return [["?"] * n_cols for _ in rows]
    return [list(r) + ["?"] * (n_cols - len(r)) for r in cells]


def _has_unknown(grid: list[list[str]]) -> bool:
    return any(x.strip() == "?" for row in grid for x in row)


def write_in(grid: list[list[str]]) -> list[list[str]]:
    """A results table as players get it: a cell the rules do not give is left empty, a box to write the published
    value in, never a "?" to play with (as on the counters)."""
    return [["" if x.strip() == "?" else x for x in row] for row in grid]


WRITE_IN_NOTE = "An empty cell is a result the rules do not print: write it in from the published table."


def _dice_label(crt: Crt) -> str:
    return crt.dice if len(crt.dice) <= 5 else "Die"


def _crt_widths(
    columns: Sequence[str],
    first: Sequence[str],
    grid: list[list[str]],
    avail: float,
    size: float,
    *,
    grow: bool,
) -> list[float]:
    """Die column plus equal odds columns wide enough for every cell; ``grow`` widens them (up to 56 pt) so
    the main table reads easily across a card."""
    pad = 10 if grow else 7
    first_w = max([text_width(x, size, FONT_BOLD) for x in first] + [14.0]) + pad
    need = max(
        [text_width(c, 7.5, FONT_BOLD) + pad for c in columns]
        + [text_width(x, size, FONT_BOLD) + pad for r in grid for x in r]
        + [22.0]
    )
    col = max(need, 34.0) if grow else need
    col = min(max(col, min(need, 56.0)), 56.0, (avail - first_w) / len(columns)) if grow else col
    col = min(col, (avail - first_w) / len(columns))
    return [first_w] + [col] * len(columns)


def _crt_least(
    columns: Sequence[str], first: Sequence[str], grid: list[list[str]], size: float, *, grow: bool
) -> float:
    """The narrowest a results table can be with every header and cell inside its column (:func:`_crt_widths`'
    widths before they are fitted to the room)."""
    widths = _crt_widths(columns, first, grid, float("inf"), size, grow=False)
    if grow:  # the die column's wider padding
        widths[0] += 3
    return sum(widths)


def _crt_table(
    crt: Crt,
    grid: list[list[str]],
    row_labels: Sequence[str],
    st: Styles,
    avail: float,
    *,
    corner: str,
    markup: bool = True,
    title: str | None = None,
    grow: bool = True,
) -> Table:
    crt_style = card_layout().crt
    big = ParagraphStyle("crt", parent=st.cell_c, fontSize=max(MIN_TEXT_PT, crt_style.size), leading=crt_style.leading)
    rows = [
        [P(f"<b>{esc(lab)}</b>", big)] + [P(_cell_markup(x, crt, st) if markup else esc(x), big) for x in r]
        for lab, r in zip(row_labels, grid, strict=False)
    ]
    header = [esc(corner)] + [esc(c) for c in crt.columns]
    widths = _crt_widths(crt.columns, [*row_labels, corner], grid, avail, big.fontSize, grow=grow)
    least = _crt_least(crt.columns, [*row_labels, corner], grid, big.fontSize, grow=grow)
    extra: list[tuple[Any, ...]] = [("ALIGN", (0, 0), (-1, -1), "CENTER")]
    if title is not None:  # a section's name across the top
        rows = [[P(f"<b>{esc(title)}</b>", st.head_c)] + [""] * len(crt.columns), *rows]
        extra += [("SPAN", (0, 1), (-1, 1)), ("BACKGROUND", (0, 1), (-1, 1), st.c("#6b6b6b"))]
    return grid_table(st, header, rows, avail, widths=widths, centre_from=0, extra=extra, least=least)


def _side_by_side(tables: Sequence[Flowable], avail: float, gap: float = 8.0) -> list[Flowable]:
    """Small tables laid out in rows across the card (each row of the layout splits onto the next card)."""
    if not tables:
        return []
    w = max(t.wrap(avail, 10_000)[0] for t in tables)
    per_row = max(1, int((avail + gap) // (w + gap)))
    if per_row == 1:
        return list(tables)
    data = [list(tables[i : i + per_row]) for i in range(0, len(tables), per_row)]
    data[-1] += [""] * (per_row - len(data[-1]))
    outer = Table(data, colWidths=[w + gap] * per_row, hAlign="LEFT")
    outer.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), FONT),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 5),
                ("TOPPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    return [outer]


def _section_name(game: Game, sec: str) -> str:
    return game.terrain[sec].name if sec in game.terrain else sec.replace("-", " ").replace("_", " ")


def crt_blocks(game: Game, st: Styles, avail: float) -> list[Flowable]:
    """The CRT with its columns and die rows, legend, automatic results, secondary table, sections and
    notes."""
    crt = game.combat.crt
    if crt is None:
        return []
    out: list[Flowable] = [heading(st, crt.title, crt.rule)]
    corner = _dice_label(crt)
    if corner != crt.dice:
        out.append(P(f"<b>Dice:</b> {esc(crt.dice)}", st.small))
    n = len(crt.columns)
    unknown_any = False
    whole_unknown: str | None = None
    if crt.sections and isinstance(crt.cells, dict):
        tables: list[Flowable] = []
        for sec in crt.sections:
            sec_cells = crt.cells.get(sec, Unknown(unknown="section not given"))
            if isinstance(sec_cells, Unknown):
                out_note = f"{_section_name(game, sec)}: every cell unknown ({sec_cells.unknown or 'not given'})"
                tables.append(note(st, esc(out_note), table_note=True))
            grid = _grid_rows(sec_cells, crt.rows, n)
            unknown_any |= _has_unknown(grid)
            tables.append(
                _crt_table(
                    crt, write_in(grid), crt.rows, st, avail, corner=corner, title=_section_name(game, sec), grow=False
                )
            )
        out += _side_by_side([t for t in tables if isinstance(t, Table)], avail)
        out += [t for t in tables if not isinstance(t, Table)]
    else:
        cells = crt.cells if not isinstance(crt.cells, dict) else Unknown(unknown="sections without a section list")
        grid = _grid_rows(cells, crt.rows, n)
        unknown_any |= _has_unknown(grid)
        out.append(_crt_table(crt, write_in(grid), crt.rows, st, avail, corner=corner))
        if isinstance(cells, Unknown):
            whole_unknown = cells.unknown or "the rules do not print it"
    legend: list[str] = []
    if whole_unknown:
        legend.append(f"<b>Every cell is unknown:</b> {esc(whole_unknown)}")
    # A note that says itself what a cell holds (the book's words, often with more) is not said twice.
    says_cells = crt.note is not None and re.search(r"\beach cell\b", crt.note, re.IGNORECASE) is not None
    if crt.cell_format is CellFormat.HITS_NORMAL_ALLOUT and not says_cells:
        legend.append("Each cell: hits on the defender, <b>normal</b> attack / <b>all-out</b> attack.")
    elif crt.cell_format is CellFormat.LOSSES_ATTACKER_DEFENDER and not says_cells:
        legend.append("Each cell: attacker / defender step losses (- = none).")
    if (all_out := all_out_sentence(game, crt)) is not None:
        legend.append(all_out)
    mr = crt.mandatory_retreat
    if mr is not None:
        look = "<u><b>bold underlined</b></u>" if st.greyscale else f'<font color="{RETREAT_RED}"><b>red</b></font>'
        legend.append(
            f"Numbers in {look} ({mr.min_hits} or more hits): a {esc(_side_name(game, mr.side))} defender "
            f"suffering them must retreat if it can {_rule(mr.rule)}."
        )
    for where, auto, col in (("Below", crt.below, crt.columns[0]), ("Above", crt.above, crt.columns[-1])):
        if auto is None:
            continue
        if auto.result:
            what = f"<b>{esc(auto.result)}</b>, no roll"
        elif auto.column:
            what = f"use the <b>{esc(auto.column)}</b> column"
        elif auto.no_effect:
            what = "no effect, no roll"
        else:
            what = "?"
        extra_note = f" {esc(auto.note)}" if auto.note else ""
        legend.append(f"<b>{where} {esc(col)}:</b> {what} {_rule(auto.rule)}.{extra_note}")
    if unknown_any:
        legend.append(f"<b>{esc(WRITE_IN_NOTE)}</b>")
    out += [note(st, line, table_note=True) for line in legend]  # the legend of the table above
    if crt.secondary is not None:
        out += _secondary(crt, crt.secondary, st, avail)
    if crt.note:
        # right under the legend it is the table's too; after the secondary table it is not that table's
        out.append(note(st, f"<i>Note:</i> {esc(crt.note)}", table_note=crt.secondary is None))
    out += result_blocks(game, st, avail)
    return out


def all_out_sentence(game: Game, crt: Crt) -> str | None:
    """What ``combat.crt.all_out`` makes the engine do, in one sentence for the CRT's legend (None on a CRT without
    it): which attacker an all-out attack flips, and the crowded hex that takes the all-out result of every attack.
    """
    ao = crt.all_out
    if ao is None or crt.cell_format is not CellFormat.HITS_NORMAL_ALLOUT:
        return None
    if ao.flip_first:
        order = ", then ".join(esc(t.value) for t in ao.flip_first[1:])
        pref = f"{esc(ao.flip_first[0].value)} first" + (f", then {order}" if order else "")
    else:
        pref = "the attacker's choice"
    text = f"An <b>all-out</b> attack flips one full-strength attacker ({pref})"
    if ao.crowded_units is not None:
        cell = "square" if game.map.grid.grid().kind.value == "square" else "hex"
        text += (
            f"; a {cell} of {ao.crowded_units} or more unretreated units takes the all-out result of every attack"
        )
    return f"{text} {_rule(ao.rule)}".rstrip() + "."


def _secondary(crt: Crt, sec: Grid2D, st: Styles, avail: float) -> list[Flowable]:
    grid = _grid_rows(sec.cells, sec.rows, len(crt.columns))
    out: list[Flowable] = [
        heading(st, "Secondary dice: extra step losses, attacker / defender (- = none)", level=2),
        _crt_table(crt, write_in(grid), sec.rows, st, avail, corner="Die", markup=False),
    ]
    if _has_unknown(grid):
        out.append(note(st, WRITE_IN_NOTE, table_note=True))
    if isinstance(sec.cells, Unknown):
        out.append(note(st, f"Every secondary cell is unknown: {esc(sec.cells.unknown)}", table_note=True))
    return out


def _steps(n: object, what: str) -> str:
    v = _num(n)
    return f"{what} {v} step{'' if v == '1' else 's'}"


def result_blocks(game: Game, st: Styles, avail: float) -> list[Flowable]:
    """The legend of result codes."""
    results = game.combat.results
    if not results:
        return []
    rows = []
    for code in sorted(results):
        r = results[code]
        eff = []
        if r.attacker_choice:
            eff.append("attacker's choice of " + " or ".join(r.attacker_choice))
        if r.attacker_eliminated:  # every attacking unit, whatever its steps: no count to print
            eff.append("A eliminated")
        elif r.exchange == "steps":
            eff.append("A loses as many steps as D")
        elif r.exchange == "strength":  # a strength exchange has no step count: say what it costs
            eff.append(f"A loses at least D's loss in {r.exchange_strength} strength points")
        elif r.attacker_steps != 0:
            eff.append(_steps(r.attacker_steps, "A loses"))
        if r.defender_eliminated:
            eff.append("D eliminated")
        elif r.defender_steps != 0:
            eff.append(_steps(r.defender_steps, "D loses"))
        if r.defender_retreat != 0:
            eff.append(f"D retreats {_num(r.defender_retreat)}")
        if r.attacker_retreat != 0:
            eff.append(f"A retreats {_num(r.attacker_retreat)}")
        if r.advance is not None:
            who = {"attacker": "A", "defender": "D", "either": "the victor"}[r.advance]
            n = r.advance_hexes
            far = "" if n is None else f" {_num(n)} hex{'' if n == 1 else 'es'}"
            eff.append(f"{who} may advance{far}")
        rows.append([f"<b>{esc(code)}</b>", esc(r.meaning), esc("; ".join(eff)), esc(r.rule or "")])
    return [
        heading(st, "Results", level=2),
        grid_table(st, ["Code", "Meaning", "Effect", "Rule"], rows, avail, flex=1),
    ]


# ------------------------------------------------------------------------------------------ shifts, modifiers
def _shift_name(game: Game, sid: str) -> str:
    for s in game.combat.shifts:
        if s.id == sid:
            return s.when
    return sid


def _turn_list(turns: Sequence[int]) -> str:
    ts = sorted(turns)
    if len(ts) > 2 and ts == list(range(ts[0], ts[-1] + 1)):
        return f"{ts[0]}-{ts[-1]}"
    return ", ".join(str(t) for t in ts)


def shift_blocks(game: Game, st: Styles, avail: float) -> list[Flowable]:
    """Column shifts (arrow and count, condition, rule) and the caps on them."""
    c = game.combat
    if not c.shifts and not c.shift_caps:
        return []
    out: list[Flowable] = [heading(st, "Column shifts")]
    if c.shifts:
        rows = [[ShiftArrow(s.shift, st), esc(s.when), esc(s.rule or "")] for s in c.shifts]
        out.append(grid_table(st, ["Shift", "When", "Rule"], rows, avail, flex=1))
        out.append(
            note(
                st,
                "R = right (towards the attacker), L = left (towards the defender). Net the shifts, "
                "then move the column.",
                table_note=True,
            )
        )
    if c.shift_caps:
        out.append(heading(st, "Limits on shifts", level=2))
        for cap in c.shift_caps:
            if cap.turns:
                turns = ("turn " if len(cap.turns) == 1 else "turns ") + _turn_list(cap.turns)
            else:
                turns = "every turn"
            who = _side_name(game, cap.side) if cap.side else "either side"
            role = {"attacking": "attacking", "defending": "defending", "both": "attacking or defending"}[cap.role]
            col = "column" if cap.max_columns == 1 else "columns"
            what = esc(cap.when) if cap.when else "from: " + "; ".join(esc(_shift_name(game, s)) for s in cap.shifts)
            limit = f"<b>At most {cap.max_columns} {col}</b> ({turns}; {esc(who)} {role})"
            text = f"{limit}: {what} {_rule(cap.rule)}"
            out.append(P(text, st.small))
    return out


def modifier_blocks(game: Game, st: Styles, avail: float) -> list[Flowable]:
    mods = game.combat.modifiers
    if not mods:
        return []
    rows = []
    for m in mods:
        eff = []
        if m.multiply:
            eff.append(f"×{esc(m.multiply)}")
        if m.add is not None:
            eff.append(f"{m.add:+d}")
        if m.cap is not None:
            eff.append(f"max {m.cap}")
        if m.rounding != "none":
            eff.append(f"round {m.rounding}")
        eff.append("each unit" if m.per_unit else "on the total" if m.multiply else "per stack")
        who = []
        if m.unit_types:
            who.append(", ".join(t.value for t in m.unit_types))
        if m.terrain:
            who.append("in " + ", ".join(game.terrain[t].name if t in game.terrain else t for t in m.terrain))
        rows.append([esc(m.role), esc(m.when), esc("; ".join(eff)), esc("; ".join(who)), esc(m.rule or "")])
    return [
        heading(st, "Strength modifiers"),
        grid_table(st, ["Who", "When", "Effect", "Applies to", "Rule"], rows, avail, flex=1),
    ]


def dice_pool_blocks(game: Game, st: Styles, avail: float) -> list[Flowable]:
    dp = game.combat.dice_pool
    if dp is None:
        return []
    lines = [f"Each unit rolls one d{dp.die}"]
    if dp.hits_on_at_most_strength:
        lines.append("it scores a hit on a roll at or under its modified strength")
    if dp.automatic_hit_every:
        lines.append(f"every full {dp.automatic_hit_every} of strength is an automatic hit; the rest is rolled")
    lines.append(f"fractions round {dp.rounding}")
    out: list[Flowable] = [heading(st, "Combat dice", dp.rule), P(esc("; ".join(lines)) + ".", st.body)]
    if dp.note:
        out.append(note(st, esc(dp.note)))
    return out


def combat_blocks(game: Game, st: Styles, avail: float) -> list[Flowable]:
    """Everything about combat: CRT (or dice), shifts and caps, modifiers, limits and notes."""
    out = crt_blocks(game, st, avail) + dice_pool_blocks(game, st, avail)
    out += shift_blocks(game, st, avail) + modifier_blocks(game, st, avail)
    return out + combat_note_blocks(game, st, avail)


def combat_note_blocks(game: Game, st: Styles, avail: float) -> list[Flowable]:
    """The combat notes: the attackers and defenders a hexside or hex allows, and ``combat.note``."""
    c = game.combat
    out: list[Flowable] = []
    limits = []
    if isinstance(c.max_attackers_per_hexside, Unknown):  # never "at most ?" on what players hold
        limits.append("attackers per hexside: the rules give no limit")
    elif c.max_attackers_per_hexside is not None:
        limits.append(f"attackers per hexside: at most {_num(c.max_attackers_per_hexside)}")
    for sid, n in sorted(c.max_defenders.items()):
        limits.append(f"{_side_name(game, sid)} defenders per hex: at most {n}")
    if limits or c.note:
        out.append(heading(st, "Combat notes", c.rule, level=2))
        if limits:
            out.append(P(esc("; ".join(limits)) + ".", st.small))
        if c.note:
            out.append(P(esc(c.note), st.small))
    return out


# ------------------------------------------------------------------------------------------------ terrain
def _move_cost(v: object) -> str:
    if isinstance(v, Unknown):
        return "?"
    return _num(v)


def terrain_blocks(game: Game, st: Styles, avail: float) -> list[Flowable]:
    """The terrain effects chart, printed from ``game.terrain``."""
    if not game.terrain:
        return []
    classes = game.game.mobility_classes
    rows = []
    unknown = False
    for tid, t in game.terrain.items():
        moves = []
        for cls in [*classes, *[k for k in t.movement if k not in classes]]:
            if cls in t.movement:
                v = _move_cost(t.movement[cls])
                unknown |= v == "?"
                moves.append(v if len(classes) == 1 and cls == classes[0] else f"{esc(cls)}: {v}")
        if not t.movement:
            moves.append("?")
            unknown = True
        move_txt = "<br/>".join(moves)
        if t.movement_note:
            move_txt += f'<br/><font size="6">{esc(t.movement_note)}</font>'
        ce = t.combat
        facts = [esc(f) for f in combat_facts(ce, lambda sid: _side_name(game, sid))]
        combat = esc(ce.text) if ce.text else "; ".join(facts)
        if ce.text and facts:
            combat += f'<br/><font size="6">[{"; ".join(facts)}]</font>'
        name = f"<b>{esc(t.name)}</b>"
        if t.kind is not TerrainKind.HEX:
            name += f'<br/><font size="6">{esc(t.kind.value)}</font>'
        swatch = Swatch(t.colour, t.pattern.value, t.kind, st, game=game, tid=tid)
        rows.append([swatch, name, move_txt, combat or "-", esc(t.rule or "")])
    head = ["", "Terrain", "Movement cost" + ("" if len(classes) == 1 else " by class"), "Combat", "Rule"]
    widths = auto_widths(head, rows, avail, flex=3, size=st.cell.fontSize)
    out: list[Flowable] = [heading(st, "Terrain effects"), grid_table(st, head, rows, avail, widths=widths)]
    if unknown:
        out.append(note(st, UNKNOWN_NOTE, table_note=True))
    named = named_hexsides(game)
    if named:
        out.append(note(st, "<b>Named hexsides</b> (between the hexes given): " + esc(named), table_note=True))
    return out


def named_hexsides(game: Game) -> str:
    """The named hexsides (a river's name) and where they lie, in map order: ``Turiya B7/B6; Tiassmin D7/D6``.
    A name too long for a hexside's edge of the map goes with the terrain chart, where the rules that use it are
    read, and each name is said once with every hexside that bears it."""
    by_name: dict[str, list[str]] = {}
    for hs in game.map.hexsides:
        if hs.name:
            by_name.setdefault(hs.name, []).append(f"{hs.between[0]}/{hs.between[1]}")
    return "; ".join(f"{name} {', '.join(where)}" for name, where in by_name.items())


# ----------------------------------------------------------------------------------------------- other tables
def table_blocks(game: Game, st: Styles, avail: float) -> list[Flowable]:
    """Every other table of the game (weather, river crossing, movement factors, mud roll ...)."""
    out: list[Flowable] = []
    for t in game.tables:
        n = len(t.columns)
        # a cell the rules do not give is an empty box to write the published value in, as on the CRT
        cells = write_in([list(r.cells) for r in t.rows])
        rows = [
            [f"<b>{esc(r.label)}</b>"] + [esc(x) for x in c] + [""] * (n - len(c))
            for r, c in zip(t.rows, cells, strict=True)
        ]
        block: list[Flowable] = [
            heading(st, t.title, t.rule),
            grid_table(st, [esc(t.row_header)] + [esc(c) for c in t.columns], rows, avail, centre_from=1),
        ]
        for n_ in t.notes:
            block.append(note(st, esc(n_), table_note=True))
        if any(x.strip() == "?" for r in t.rows for x in r.cells):
            block.append(note(st, WRITE_IN_NOTE, table_note=True))
        out += block
    return out


# -------------------------------------------------------------------------------------------- sequence, turns
def _side_name(game: Game, sid: str | None) -> str:
    if sid is None:
        return "both"
    for s in game.game.sides:
        if s.id == sid:
            return s.name
    return sid


STEP_AT = {"start": "At the start", "end": "At the end", "during": "During"}
"""How a phase step's ``at`` reads on the sequence of play."""


def _phase_text(p: Phase) -> str:
    """A phase's "What happens" cell: its summary, then each step that says what is done, in the phase's order
    of start, during and end, each on a line of its own with its rule."""
    lines = [esc(p.summary)] if p.summary else []
    order = {"start": 0, "during": 1, "end": 2}
    for s in sorted((s for s in p.steps if s.text), key=lambda s: order[s.at]):
        rule = f" {_rule(s.rule)}" if s.rule else ""
        lines.append(f"<i>{STEP_AT[s.at]}:</i> {esc(s.text)}{rule}")
    return "<br/>".join(lines)


def sequence_blocks(game: Game, st: Styles, avail: float) -> list[Flowable]:
    if not game.sequence:
        return []
    rows = [
        [
            str(i),
            f"<b>{esc(p.name)}</b>",
            esc(_side_name(game, p.side)),
            _phase_text(p),
            esc(p.rule or ""),
        ]
        for i, p in enumerate(game.sequence, 1)
    ]
    return [
        heading(st, "Sequence of play"),
        grid_table(st, ["#", "Phase", "Side", "What happens", "Rule"], rows, avail, flex=3),
    ]


def _turn_length(game: Game, t: Turn) -> str:
    """A turn's length where it differs from the scale's days per turn (``2 days``), else empty."""
    if not TL.differs(game, t) or t.length is None:
        return ""
    hours = TL.hours_of(t.length)
    return TL.text(hours) if hours is not None else "?"


def turn_blocks(game: Game, st: Styles, avail: float) -> list[Flowable]:
    """The turn record: date, weather, reinforcements (from the units' entries), replacements, reminders."""
    tr = game.turns
    reinf = game.reinforcements()
    specials: dict[int, list[str]] = {}
    for sr in game.special_rules:
        for n in sr.turns:
            specials.setdefault(n, []).append(sr.rule)
    cols: list[tuple[str, list[str]]] = [
        ("Turn", []),
        ("Length", []),
        ("Date", []),
        ("Weather", []),
        ("Reinforcements", []),
        ("Replacements", []),
        ("Rules", []),
        ("Note", []),
    ]
    for t in tr.turns:
        units = reinf.get(t.number, [])
        arr = ", ".join(
            u.label
            + (f" ({u.entry.hex})" if u.entry and u.entry.hex else "")
            + ("*" if u.entry and u.entry.condition else "")
            for u in units
        )
        repl = ", ".join(f"{_side_name(game, s)} {_num(v)}" for s, v in sorted(t.replacements.items()))
        marks = list(dict.fromkeys([*t.marks, *specials.get(t.number, [])]))
        values = [
            f"<b>{t.number}</b>",
            esc(_turn_length(game, t)),
            esc(t.date or ""),
            esc(t.weather or ""),
            esc(arr),
            esc(repl),
            esc(", ".join(marks)),
            esc(t.note or ""),
        ]
        for (_, col), v in zip(cols, values, strict=True):
            col.append(v)
    kept = [(h, col) for i, (h, col) in enumerate(cols) if i == 0 or any(col)]  # drop columns the data leaves empty
    head = [h for h, _ in kept]
    rows = [list(r) for r in zip(*[col for _, col in kept], strict=True)]
    out: list[Flowable] = [
        heading(st, "Turn record", tr.rule),
        grid_table(st, head, rows, avail, flex=len(head) - 1),
    ]
    conditional = [u for us in reinf.values() for u in us if u.entry and u.entry.condition]
    if conditional:
        out.append(
            note(
                st,
                "* arrives only on a condition: "
                + "; ".join(f"{esc(u.label)}: {esc(u.entry.condition)}" for u in conditional if u.entry),
                table_note=True,
            )
        )
    unsched = game.unscheduled()
    if unsched:
        out.append(
            note(
                st,
                "Reinforcements whose turn the rules do not give (?): "
                + ", ".join(esc(f"{u.label} ({u.name})") for u in unsched),
                table_note=True,
            )
        )
    w = tr.weather
    if w is not None:
        txt = f"<b>Weather</b> {_rule(w.rule)}: states {esc(', '.join(w.states))}; starts {esc(w.initial)}."
        if w.table:
            title = next((t.title for t in game.tables if t.id == w.table), w.table)
            txt += f" Rolled on: {esc(title)}."
        if w.summary:
            txt += f" {esc(w.summary)}"
        out.append(P(txt, st.small))
    return out


def special_rule_blocks(game: Game, st: Styles, avail: float) -> list[Flowable]:
    if not game.special_rules:
        return []

    def key(sr: Any) -> tuple[int, str]:
        return (min(sr.turns) if sr.turns else 10_000, sr.rule)

    # A rule of no particular turn (the pieces, supply, combat ...) is a rule of the game, not a special rule of a
    # turn: it goes in a table of its own, without a Turn column.
    rows, core = [], []
    for sr in sorted(game.special_rules, key=key):
        if not sr.turns:
            core.append([f"<b>{esc(sr.title)}</b>", esc(sr.summary), esc(sr.rule)])
            continue
        rows.append([esc(_turn_list(sr.turns)), f"<b>{esc(sr.title)}</b>", esc(sr.summary), esc(sr.rule)])
    out: list[Flowable] = []
    if core:
        out += [heading(st, "Rules in brief"), grid_table(st, ["Title", "Summary", "Rule"], core, avail, flex=1)]
    if rows:
        out += [
            heading(st, "Special rules by turn"),
            grid_table(st, ["Turn", "Title", "Summary", "Rule"], rows, avail, flex=2),
        ]
    return out


def limit_rows(game: Game) -> list[list[str]]:
    """The limits card's rows as plain text (what, side, at most / at least, per, rule); the read-back uses the
    same rows."""
    lim = game.rules.limits
    rows = []
    for x in lim.counts if lim else []:
        bound = " ".join(
            part
            for part in (
                f"at least {x.min}" if x.min is not None else "",
                f"at most {_num(x.max)}" if x.max is not None else "",
            )
            if part
        )
        side = _side_name(game, x.side) if x.side else "each side"
        rows.append([x.what, side, bound, x.per.replace("-", " "), x.rule or ""])
    return rows


def limit_blocks(game: Game, st: Styles, avail: float) -> list[Flowable]:
    """How many of a thing the rules allow (markers, attacks, rebuilds ...), from ``rules.limits``."""
    rows = limit_rows(game)
    if not rows:
        return []
    return [
        heading(st, "Limits"),
        grid_table(
            st,
            ["Limit", "Side", "Count", "Per", "Rule"],
            [[esc(a), esc(b), f"<b>{esc(c)}</b>", esc(d), esc(e)] for a, b, c, d, e in rows],
            avail,
            flex=0,
        ),
    ]


def _selector_words(game: Game, sel: UnitSelector) -> str:
    """Units a stacking selector covers, in words: ``German Tiger, StuG``, ``Soviet artillery``, ``hq, leader``."""
    labels = {u.id: u.label for u in game.units}
    parts = [labels.get(u, u) for u in sel.units]
    kinds = " ".join(x for x in (", ".join(str(t) for t in sel.sizes), ", ".join(str(t) for t in sel.types)) if x)
    if kinds:
        parts.append(kinds)
    words = ", ".join(parts) or "all units"
    return f"{_side_name(game, sel.side)} {words}" if sel.side else words


def _allowance_words(a: StackAllowance, measure: str) -> str:
    def counts(d: dict[str, int]) -> str:
        one = measure.removesuffix("s")
        return ", ".join(
            f"{n} {one if n == 1 else measure}" if cls == "total" else f"{n} {cls}" for cls, n in d.items()
        )

    txt = f"at most {counts(a.max)}"
    if a.min:
        txt += f" with at least {counts(a.min)}"
    return txt


def stacking_lines(game: Game) -> list[str]:
    """The stacking rules as plain sentences, generated from ``rules.stacking``: the limit of each side (one of
    its allowances), what is not counted, when the limit is checked (``when``); the read-back uses the same."""
    sr = game.rules.stacking
    if sr is None:
        return []
    out = ["No stacking limit."] if sr.unlimited else []
    for lim in sr.limits:
        who = _side_name(game, lim.side) if lim.side else "Each side"
        classes = any(k != "total" for a in lim.allow for k in a.max)
        measure = lim.measure
        allow = "; or ".join(_allowance_words(a, measure) for a in lim.allow)
        counted = f" ({measure} counted)" if classes else ""
        rule = f" ({lim.rule})" if lim.rule and lim.rule != sr.rule else ""
        out.append(f"{who}: {allow} in a hex{counted}{rule}.")
    members: dict[str, list[str]] = {}
    for c in sr.classes:
        members.setdefault(c.id, []).append(_selector_words(game, c))
    if members:
        out += [f"{cid.capitalize()}: {'; '.join(who)}." for cid, who in members.items()]
        out.append(f"{sr.default_class.capitalize()}: any other unit.")
    if sr.exempt:
        out.append("Not counted: " + "; ".join(_selector_words(game, x) for x in sr.exempt) + ".")
    if sr.enemy_together:
        out.append("Opposing units may share a hex.")
    if sr.when:
        out.append(f"Checked {sr.when}.")
    return out


def stacking_blocks(game: Game, st: Styles, avail: float) -> list[Flowable]:
    """The stacking rule, from ``rules.stacking`` (limits by side, exemptions, when it is checked)."""
    lines = stacking_lines(game)
    if not lines:
        return []
    sr = game.rules.stacking
    return [heading(st, "Stacking", sr.rule if sr else None), P("<br/>".join(esc(x) for x in lines), st.body)]


def level_words(game: Game, lv: VictoryLevel) -> tuple[str, str, str]:
    """A victory level as the card prints it: its name, who it favours, its final score (``32 or more``,
    ``28 to 31``, ``27 or less``) and/or its condition in words."""
    name = lv.id.replace("-", " ").replace("_", " ")
    name = name[:1].upper() + name[1:]
    who = f"{_side_name(game, lv.side)} wins" if lv.side else "Draw"
    if lv.min is not None and lv.max is not None:
        score = str(lv.min) if lv.min == lv.max else f"{lv.min} to {lv.max}"
    elif lv.min is not None:
        score = f"{lv.min} or more"
    elif lv.max is not None:
        score = f"{lv.max} or less"
    else:
        score = ""
    if lv.condition:
        score = f"{score}; {lv.condition}" if score else lv.condition
    return name, who, score


def victory_blocks(game: Game, st: Styles, avail: float) -> list[Flowable]:
    v = game.victory
    if v is None:
        return []
    out: list[Flowable] = [heading(st, "Victory", v.rule), P(esc(v.summary), st.body)]
    if v.points:
        rows = [
            [
                esc(p.text),
                f"<b>{_num(p.vp)}</b>",
                esc(_side_name(game, p.side) if p.side else "each side"),
                esc(p.rule or ""),
            ]
            for p in v.points
        ]
        out.append(grid_table(st, ["Victory points for", "VP", "Scored by", "Rule"], rows, avail, flex=0))
    if v.handicap:
        out.append(
            note(
                st,
                "Added at the end: "
                + ", ".join(f"{esc(_side_name(game, s))} +{n} VP" for s, n in sorted(v.handicap.items())),
                table_note=bool(v.points),  # the VP table's totals
            )
        )
    if any(isinstance(p.vp, Unknown) for p in v.points):
        out.append(note(st, UNKNOWN_NOTE, table_note=True))
    if v.levels:
        rows = [
            [f"<b>{esc(name)}</b>", esc(who), esc(score), esc(lv.rule or "")]
            for lv in v.levels
            for name, who, score in [level_words(game, lv)]
        ]
        out.append(grid_table(st, ["Victory level", "Result", "Final score or condition", "Rule"], rows, avail, flex=2))
    return out


def scenario_blocks(game: Game, st: Styles, avail: float) -> list[Flowable]:
    if not game.scenarios:
        return []
    rows = []
    for s in game.scenarios:
        turns = f"{s.first_turn}-{s.last_turn}" if s.last_turn else f"from {s.first_turn}"
        rows.append([f"<b>{esc(s.name)}</b>", esc(turns), esc(s.summary or ""), esc(s.rule or "")])
    return [
        heading(st, "Scenarios"),
        grid_table(st, ["Scenario", "Turns", "Summary", "Rule"], rows, avail, flex=2),
    ]


# --------------------------------------------------------------------------------------------- story and flow
def story(game: Game, st: Styles, avail: float) -> list[Flowable]:
    """Every block of the reference cards in card order: combat; terrain and tables; turns and sequence;
    special rules, victory and scenarios.  Each group starts a fresh card unless the current one has room."""
    groups: list[list[Flowable]] = [
        combat_blocks(game, st, avail),
        terrain_blocks(game, st, avail) + table_blocks(game, st, avail),
        sequence_blocks(game, st, avail)
        + turn_blocks(game, st, avail)
        + limit_blocks(game, st, avail)
        + stacking_blocks(game, st, avail),
        special_rule_blocks(game, st, avail) + victory_blocks(game, st, avail) + scenario_blocks(game, st, avail),
    ]
    out: list[Flowable] = []
    for g in groups:
        if not g:
            continue
        if out:
            out.append(CardBreak(min_space=150))
        out += g
    return out


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
            if isinstance(f, ActionFlowable):  # KeepTogether's frame breaks when split
                items.pop(0)
                if placed and f.action and f.action[0] in ("frameEnd", "pageEnd", "newPage"):
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


# ------------------------------------------------------------------------------------------------ the cards
# The card's measures come from templates/card.yaml (forge.templates.card_layout).
def card_regions(options: BuildOptions) -> Callable[[int], Region]:
    pw, ph = options.paper_size()
    m = card_layout().margin_pt
    h = (ph - 3 * m) / 2

    def region(i: int) -> Region:
        return (m, ph - m - (i + 1) * h - i * m, pw - 2 * m, h)

    return region


def _card_chrome(game: Game, st: Styles, *, trim: float | None = None) -> Callable[[Canvas, int, Region], Region]:
    """Draw a card's frame and title; return the area its charts may use.  With ``trim`` (a single card's page,
    :func:`single_card_size`), the card has no outline: its colours fill the page, which stands ``trim`` points
    outside the region, and run on into the page bleed; the title and charts stay where they are on the region."""
    tpl = card_layout()
    bar = tpl.title_bar
    bar_h, pad, radius = bar.height, tpl.padding, tpl.corner_radius

    def chrome(c: Canvas, index: int, r: Region) -> Region:
        x, y, w, h = r
        if trim is not None:
            _full_bleed_frame(c, st, r, trim, bar_h)
        else:
            c.setStrokeColor(st.c("panel_edge"))
            c.setLineWidth(tpl.edge_line)
            c.setFillColor(st.c("panel"))
            c.roundRect(x, y, w, h, radius, stroke=1, fill=1)
            c.setFillColor(st.c("panel_head"))
            p = c.beginPath()
            p.roundRect(x, y + h - bar_h, w, bar_h, radius)
            c.saveState()
            clip = c.beginPath()
            clip.rect(x, y + h - bar_h, w, bar_h)
            c.clipPath(clip, stroke=0, fill=0)
            c.drawPath(p, stroke=0, fill=1)
            c.restoreState()
            c.rect(x, y + h - bar_h, w, bar_h / 2, stroke=0, fill=1)
        c.setFillColor(st.c("#ffffff"))
        right = f"Reference card {index + 1}"
        rw = text_width(right, bar.label_size, FONT)
        title, fs = fit_line(
            game.game.title,
            w - 2 * pad - rw - bar.gap,
            bar.title_size,
            font=FONT_BOLD,
            where=("game", "title"),
            what="reference card title",
        )
        c.setFont(FONT_BOLD, fs)
        c.drawString(x + pad, y + h - bar_h + bar.title_baseline, title)
        c.setFont(FONT, bar.label_size)
        c.drawRightString(x + w - pad, y + h - bar_h + bar.label_baseline, right)
        return (x + pad, y + pad * 0.8, w - 2 * pad, h - bar_h - pad * 1.2)

    return chrome


def _full_bleed_frame(c: Canvas, st: Styles, r: Region, trim: float, bar_h: float) -> None:
    """A single card's background and title bar, to the page's edges and on into the page bleed (art to the bleed,
    as card services ask): drawn ``trim`` points past the region and the bleed further, so that a cut anywhere in
    the bleed shows no white edge.  No outline: a line along the cut would show every drift of the cutter."""
    x, y, w, h = r
    out = trim + page_bleed(c)
    c.setFillColor(st.c("panel"))
    c.rect(x - out, y - out, w + 2 * out, h + 2 * out, stroke=0, fill=1)
    c.setFillColor(st.c("panel_head"))
    c.rect(x - out, y + h - bar_h, w + 2 * out, bar_h + out, stroke=0, fill=1)


def single_card_size(options: BuildOptions) -> tuple[float, float]:
    """The page (the trim) of one card with ``--cards-per-page 1``: the card of the two-up page, the same size so
    that its charts pour exactly as they do there, grown by the 1/8 in safe zone on every side
    (:data:`forge.tiling.TRIM_SAFE_MARGIN`), so that its title and charts keep that far inside the cut."""
    _, _, w, h = card_regions(options)(0)
    return (w + 2 * TRIM_SAFE_MARGIN, h + 2 * TRIM_SAFE_MARGIN)


# ------------------------------------------------------------------------------------------------ --card-size
CARD_SIZES: dict[str, tuple[str, str]] = {
    "poker": ("2.5in", "3.5in"),
    "tarot": ("2.75in", "4.75in"),
    "jumbo": ("3.5in", "5.5in"),
}
"""``--card-size`` names: card services' products, width x height upright.  docs/PRINTING.md (*Card sizes*) gives
each one's source; a size not listed is given as lengths (``WIDTHxHEIGHT``)."""

CARD_SIZE_RANGE = (1.5 * 72, 14 * 72)
"""The shortest and longest side a ``--card-size`` may have, in points (1.5 in to 14 in): a smaller card leaves its
charts less than an inch across (the safe zone and padding take 0.5 in), and a larger one is a sheet, not a card."""


def card_size(text: str) -> tuple[float, float]:
    """The trim (width, height; points, as given) of ``--card-size TEXT``: a name of :data:`CARD_SIZES` or two
    lengths ``WIDTHxHEIGHT`` (``70x120mm``, ``2.75inx4.75in``; a bare first number takes the second's unit).
    ValueError naming what was expected."""
    from .. import units as U

    key = text.strip().lower()
    expected = f"one of {', '.join(CARD_SIZES)}, or WIDTHxHEIGHT with a unit (70x120mm, 2.75inx4.75in)"
    if key in CARD_SIZES:
        w_text, h_text = CARD_SIZES[key]
        return U.length(w_text), U.length(h_text)
    parts = [p.strip() for p in key.replace("\u00d7", "x").split("x")]  # no unit has an x in it
    if len(parts) != 2 or not all(parts):
        raise ValueError(f"{text[:30]!r} is not a card size (expected {expected})")
    unit = re.search(r"(pt|in|mm|cm)$", parts[1])  # the second length's unit, for a bare first number
    if unit and re.fullmatch(r"[\d./]+", parts[0]):
        parts[0] += unit.group(0)
    try:
        w, h = U.length(parts[0]), U.length(parts[1])
    except ValueError as e:
        what = str(e).split(" (expected ")[0]  # the length's own "(expected ...)" would stand beside this one
        raise ValueError(f"{text[:30]!r}: {what} (expected {expected})") from None
    lo, hi = CARD_SIZE_RANGE
    if not (lo - 1e-9 <= min(w, h) and max(w, h) <= hi + 1e-9):
        raise ValueError(f"{text[:30]!r}: a card's sides are {lo / 72:g}in to {hi / 72:g}in (expected {expected})")
    return w, h


def _inches(points: float) -> str:
    return f"{points / 72:.2f}".rstrip("0").rstrip(".")


class CardSizeError(ValueError):
    """A chart that does not fit the card of ``--card-size``: ``need`` points ``direction`` ("across" or "down")
    where the card gives its charts ``have``.  The sized renderer names the chart (``block``, the heading above it)
    and where it comes from in the game file (``where``)."""

    def __init__(self, card: int, direction: str, need: float, have: float) -> None:
        super().__init__(f"reference card {card + 1}: needs {_inches(need)} in {direction}, has {_inches(have)} in")
        self.card, self.direction, self.need, self.have = card, direction, need, have
        self.block = ""
        self.where: tuple[str | int, ...] = ()


def _charts(f: Flowable) -> list[float]:
    """The least widths of the charts in ``f`` that know theirs (charts side by side in a table too)."""
    out: list[float] = []
    if isinstance(f, Chart) and f.least is not None:
        out.append(f.least())
    if isinstance(f, Table):
        for row in f._cellvalues:
            for v in row:
                for x in v if isinstance(v, list | tuple) else [v]:
                    if isinstance(x, Flowable):
                        out += _charts(x)
    return out


def _least_height(f: Flowable, width: float, height: float) -> float:
    """How tall ``f`` is at its least (a table: its repeated header and its tallest row, where it can split)."""
    _, h = f.wrap(width, height)
    if isinstance(f, Table) and f._rowHeights:
        rows = list(f._rowHeights)
        head = f.repeatRows if isinstance(f.repeatRows, int) else len(f.repeatRows)
        return float(sum(rows[:head]) + max(rows[head:], default=0.0))
    return float(h)


def _block_where(game: Game, title: str) -> tuple[str | int, ...]:
    """The key path in the game file of the chart headed ``title`` (empty when it is not one chart's)."""
    crt = game.combat.crt
    if crt is not None and title == crt.title:
        return ("combat", "crt")
    if title.startswith("Secondary dice"):
        return ("combat", "crt", "secondary")
    for i, t in enumerate(game.tables):
        if t.title == title:
            return ("tables", i)
    named: dict[str, tuple[str, ...]] = {
        "Results": ("combat", "results"),
        "Combat dice": ("combat", "dice_pool"),
        "Column shifts": ("combat", "shifts"),
        "Limits on shifts": ("combat", "shift_caps"),
        "Strength modifiers": ("combat", "modifiers"),
        "Combat notes": ("combat",),
        "Terrain effects": ("terrain",),
        "Sequence of play": ("sequence",),
        "Turn record": ("turns",),
        "Limits": ("rules", "limits"),
        "Stacking": ("rules", "stacking"),
        "Special rules by turn": ("special_rules",),
        "Rules in brief": ("special_rules",),
        "Victory": ("victory",),
        "Scenarios": ("scenarios",),
    }
    return named.get(title, ())


@dataclass(frozen=True)
class SizedCards:
    """The reference cards laid out on the card of ``--card-size``: one card a page, ``trim`` its size (upright or
    on its side), ``cards`` of them."""

    trim: tuple[float, float]
    pdf: bytes
    cards: int


def _sized(game: Game, options: BuildOptions, trim: tuple[float, float]) -> SizedCards:
    """The cards laid out anew on pages of ``trim`` (the card), their charts ``TRIM_SAFE_MARGIN`` and the padding
    inside the cut at the template's type sizes; :class:`CardSizeError` for the first chart that does not fit."""
    st = Styles.make(options)
    inset = TRIM_SAFE_MARGIN
    w, h = trim[0] - 2 * inset, trim[1] - 2 * inset
    avail = w - 2 * card_layout().padding
    block = [""]

    def check(f: Flowable, card: int, frame: Frame) -> None:
        title = getattr(f, "block_title", None)
        if isinstance(title, str):
            block[0] = title
        room = frame._getAvailableWidth()
        need = max(_charts(f), default=0.0)
        if need > room + 0.01:
            raise CardSizeError(card, "across", need, room)

    used = [0]

    def draw(c: Canvas) -> None:
        chrome = _card_chrome(game, st, trim=inset)
        region = (inset, inset, w, h)
        used[0] = flow(
            c, story(game, st, avail), regions_per_page=1, region=lambda _: region, chrome=chrome, check=check
        )

    try:
        pdf = render_pdf(trim, draw, title=f"{game.game.title}: reference cards")
    except CardSizeError as e:
        e.block, e.where = block[0], _block_where(game, block[0])
        raise
    return SizedCards(trim, pdf, used[0])


def sized_cards(game: Game, options: BuildOptions) -> SizedCards:
    """The reference cards on the card of ``options.card_size`` (:func:`card_size`), one a page, laid out again for
    it (not scaled) at the template's type sizes: on its side (wide charts read across) and upright, whichever
    takes fewer cards (on its side when they tie; a square card has one way).  :class:`CardSizeError` when a
    chart fits neither way: a table's columns narrower than their longest entries, or a part that cannot be split
    taller than the card, would print over its neighbours or off the card."""
    assert options.card_size is not None
    a, b = card_size(options.card_size)
    shapes = [(max(a, b), min(a, b))] + ([(min(a, b), max(a, b))] if a != b else [])
    done: list[tuple[SizedCards, list[BuildWarning]]] = []
    failed: list[CardSizeError] = []
    for trim in shapes:
        with collect_warnings() as said:  # only the way taken speaks: a title cut short upright, not on its side
            try:
                laid = _sized(game, options, trim)
            except CardSizeError as e:
                failed.append(e)
                continue
        done.append((laid, said))
    if done:
        laid, said = min(done, key=lambda d: d[0].cards)
        for w in said:
            warn(w.path, w.message)
        return laid
    first = failed[0]
    ways = []
    for why, way in zip(failed, ["on its side, " if a != b else "", "upright, "], strict=False):
        what = "its columns' longest entries" if why.direction == "across" else "a part that cannot be split"
        chart = f"{way}{why.block or 'a chart'!r} (reference card {why.card + 1})"
        if why.have <= 0:  # a template's padding wider than the card
            ways.append(f"{chart} has no room {why.direction}: the safe zone and the card template's padding take it")
            continue
        ways.append(
            f"{chart} needs {_inches(why.need)} in {why.direction} for {what} and gets {_inches(why.have)} in"
        )
    tpl = card_layout()
    across = first.direction == "across"
    around = 2 * TRIM_SAFE_MARGIN + (2 * tpl.padding if across else tpl.title_bar.height + 1.2 * tpl.padding)
    least = first.need + around  # the side of the card (on its side: the long one across, the short one down)
    pick = max if across else min
    fits = [n for n in CARD_SIZES if pick(card_size(n)) + 1e-6 >= least and sorted(card_size(n)) != sorted((a, b))]
    raise _Refused(
        first,
        f"a {_inches(max(a, b))} x {_inches(min(a, b))} in card is too small for the charts: {'; '.join(ways)} "
        f"(the room inside the 1/8 in safe zone and the card's padding); expected a card whose "
        f"{'long' if across else 'short'} side is at least {_inches(least)} in"
        + (f" ({', '.join(fits)})" if fits else "")
        + ", by name or as WIDTHxHEIGHT",
    )


class _Refused(CardSizeError):
    """:func:`sized_cards`' refusal: the first chart that fits no way, with the message naming both ways."""

    def __init__(self, cause: CardSizeError, message: str) -> None:
        super().__init__(cause.card, cause.direction, cause.need, cause.have)
        self.block, self.where = cause.block, cause.where
        self.args = (message,)


def refuse_card_size(game: Game, options: BuildOptions, file: str) -> None:
    """Raise :class:`forge.errors.LoadError` with one problem, located at the chart's key in ``file``, when the
    reference cards cannot be laid out on the card of ``options.card_size`` (:func:`sized_cards`): before anything
    is rendered or written, as :func:`forge.estimate.refuse` refuses a build too big."""
    if options.card_size is None or "cards" not in options.only:
        return
    from ..errors import LoadError, Problem
    from ..loader import locate_in_file
    from ..templates import use

    try:
        with use(options.templates):
            sized_cards(game, options)
    except CardSizeError as e:
        line, col, path = locate_in_file(file, e.where)
        raise LoadError([Problem(file, line, col, path, f"--card-size {options.card_size}: {e}")]) from None


def render(game: Game, options: BuildOptions) -> bytes:
    """Reference cards, two to a page of ``options.paper``; or, with ``options.cards_per_page`` 1, each card its
    own page of :func:`single_card_size`, its colours to the page's edges (and into the page bleed); or, with
    ``options.card_size``, each card its own page of that size (:func:`sized_cards`)."""
    if options.card_size is not None:
        return sized_cards(game, options).pdf
    st = Styles.make(options)
    region = card_regions(options)
    _, _, w, h = region(0)
    avail = w - 2 * card_layout().padding
    title = f"{game.game.title}: reference cards"
    if options.cards_per_page == 1:
        inset = TRIM_SAFE_MARGIN

        def single(c: Canvas) -> None:
            chrome = _card_chrome(game, st, trim=inset)
            flow(c, story(game, st, avail), regions_per_page=1, region=lambda _: (inset, inset, w, h), chrome=chrome)

        return render_pdf(single_card_size(options), single, title=title)

    def draw(c: Canvas) -> None:
        flow(c, story(game, st, avail), regions_per_page=2, region=region, chrome=_card_chrome(game, st))

    return render_pdf(options.paper_size(), draw, title=title)
