"""Class handouts: ``options.sets`` complete sets of a game for a classroom, each marked with its own set
code.

A set holds everything one pair of students needs, in this order:

1. the map, tiled on the set's paper (or one sheet when it fits), with its assembly page;
2. the counter sheets (fronts and backs interleaved, every back and every page marked with the set code);
3. a player aid per side (that side's units, the sequence of play, the CRT and column shifts), on one page
   when it fits there (its type is made a little smaller when that is all it takes), else split between
   sections, never inside a short chart, with a split chart's title repeated, marked "continued";
4. the rules and tables: every other table (a weather or mud roll ...), the limits and the stacking rule, the
   special rules with their text, the combat notes, the victory conditions (when there is no record sheet for
   them) and the scenarios, drawn by the reference cards' own block functions (:mod:`forge.render.cards`: one
   text of each rule, on the cards and here);
5. a set-up sheet: every unit with the values its counters print, an empty box for each value the rules do
   not give (copied in from the published counter sheet, then onto the counter), where it sets up or enters,
   and the reinforcements by turn;
6. a turn-by-turn victory point record, for a game that scores victory points (no other).

Every page carries the set code, worded "class set S01" or boxed beside a page title, never alone where it
could be read as a hex or a tile number.  The palette is always greyscale-safe: school printers are black and
white.  The map pages, the counter sheets and each player aid start on a fresh sheet of paper (an odd page),
and each map page has a blank back (a tile is cut out and glued, so nothing may be printed behind it), so the
whole file can be printed double-sided: the counters' fronts and backs stay paired, and every set starts on a
fresh sheet and takes the same, even, number of pages (its last page's back left blank when it ends on a front).

:func:`render` knows a set's pages once it has drawn the first: it tells ``options.report`` the count per set and
in total, and refuses (:class:`forge.builder.TooManyPages`, nothing written) a handout of more than
``options.max_pages`` pages before it draws the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import dataclasses
import functools
import re
from collections.abc import Callable, Sequence

from reportlab.pdfgen.canvas import Canvas

from .. import units as U
from ..errors import collect_warnings
from ..model import Game, Unit
from ..notation import UNKNOWN_MARK
from ..pdf import FONT_BOLD, new_canvas, render_pdf, text_width
from . import cards
from . import map as map_
from .blocks import Block, Heading, Para, Piece, TextStyle
from .cards.flow import Keep, Region
from .cards.styles import Styles, _side_name, esc, heading, note
from .cards.tables import grid_table
from .cards.turns import _turn_length
from ..canvas import Canvas as Surface, PdfCanvas, Recorder
from .counters import draw_counter_pages, fit_text, sheet_count

if TYPE_CHECKING:  # build imports the renderers: a runtime import would be circular
    from ..builder import BuildOptions

__all__ = [
    "WriteIn",
    "aid_scales",
    "render",
    "rules_blocks",
    "set_code",
    "set_page_count",
    "set_pages",
    "vp_record_used",
]

MARGIN = U.length("0.5in")
HEAD_H = 22.0
FOOT_H = 14.0


def set_code(index: int) -> str:
    """The short code printed on every page and counter back of set ``index`` (1-based).

    >>> set_code(1), set_code(12)
    ('S01', 'S12')
    """
    return f"S{index:02d}"


def _greyscale(options: BuildOptions) -> BuildOptions:
    return dataclasses.replace(options, greyscale=True)


# ------------------------------------------------------------------------------------------------ page chrome
def _page_region(options: BuildOptions) -> Callable[[int], Region]:
    pw, ph = options.paper_size()

    def region(i: int) -> Region:
        return (MARGIN, MARGIN, pw - 2 * MARGIN, ph - 2 * MARGIN)

    return region


def _chrome(game: Game, st: Styles, code: str, title: str) -> Callable[[PdfCanvas, int, Region], Region]:
    def chrome(c: PdfCanvas, index: int, r: Region) -> Region:
        x, y, w, h = r
        top = c.top - y - h  # the region's top, y down
        ink = st.c("ink")
        # Set code, boxed, top right: it tells the sets apart at a glance.
        cw = text_width(code, 12, FONT_BOLD) + 10
        c.rect(x + w - cw, top, cw, 17, stroke=ink, width=1.2)
        c.text(x + w - cw / 2, top + 12.5, code, font=FONT_BOLD, size=12, anchor="middle", fill=ink)
        head = f"{title}{' (continued)' if index else ''}"
        shown, fs = fit_text(head, w - cw - 10, 12, FONT_BOLD, what="handout page header")
        c.text(x, top + 12.5, shown, font=FONT_BOLD, size=fs, fill=ink)
        c.line(x, top + HEAD_H - 2, x + w, top + HEAD_H - 2, stroke=ink, width=0.6)
        foot, ffs = fit_text(
            f"{game.game.title}: class set {code}",
            w,
            7,
            where=("game", "title"),
            what="handout page footer",
            name=game.game.title,
        )
        c.text(x, top + h, foot, size=ffs, fill=ink)
        return (x, y + FOOT_H, w, h - HEAD_H - FOOT_H - 4)

    return chrome


SCALES = (1.0, 0.94, 0.88)
"""Type sizes tried, in order, for a part that should fit on one page (a player aid): the first that fits wins;
when none does, the part runs on at full size, split between sections."""


def _page_body_height(options: BuildOptions) -> float:
    """Height of a page's content area (what :func:`_chrome` leaves)."""
    return options.paper_size()[1] - 2 * MARGIN - HEAD_H - FOOT_H - 4


def _flow(
    c: Canvas,
    options: BuildOptions,
    game: Game,
    st: Styles,
    code: str,
    title: str,
    items: list[Block],
    recorder: Recorder | None = None,
) -> int:
    from ..tiling import PRINTABLE_MARGIN

    chrome = _chrome(game, st, code, title)
    return cards.flow(c, items, regions_per_page=1, region=_page_region(options), chrome=chrome, recorder=recorder,
                      margin=PRINTABLE_MARGIN)  # fmt: skip


def _pages_needed(options: BuildOptions, game: Game, st: Styles, title: str, items: list[Block]) -> int:
    """Pages ``items`` take, poured on a throwaway canvas (its warnings are dropped: only the kept try reports)."""
    import io

    with collect_warnings():
        return _flow(new_canvas(io.BytesIO(), options.paper_size()), options, game, st, "S00", title, items)


def _one_page_scale(
    options: BuildOptions, game: Game, title: str, make: Callable[[Styles, float], list[Block]]
) -> float:
    """The first of :data:`SCALES` at which ``make``'s part fits on one page; 1.0 when none does (it then runs on
    at full size, split between sections)."""
    width = _page_region(options)(0)[2]
    for scale in SCALES:
        st = Styles.make(options, scale=scale)
        if _pages_needed(options, game, st, title, make(st, width)) == 1:
            return scale
    return 1.0


def _part(
    c: Canvas,
    options: BuildOptions,
    game: Game,
    code: str,
    title: str,
    make: Callable[[Styles, float], list[Block]],
    *,
    fresh: bool = True,
    scale: float = 1.0,
    recorder: Recorder | None = None,
) -> None:
    """One part of a set, made by ``make(styles, width)`` with type at ``scale``, on a fresh sheet (an odd page)
    when it is handed out on its own; a ``recorder`` notes what its pages place (:mod:`forge.layout`)."""
    if fresh:
        _to_odd_page(c, game, code)
    st = Styles.make(options, scale=scale)
    _flow(c, options, game, st, code, title, make(st, _page_region(options)(0)[2]), recorder)


def _blank_page(c: Canvas, game: Game, code: str, why: str = "") -> None:
    """A page left blank on purpose, saying so (and why), then ended."""
    w, h = c._pagesize
    shown, fs = fit_text(
        f"{game.game.title}: class set {code}. This page is left blank on purpose{why}.",
        w - 72,
        8,
        where=("game", "title"),
        what="handout blank page",
        name=game.game.title,
    )
    PdfCanvas(c, top=h).text(w / 2, h / 2, shown, size=fs, anchor="middle")
    c.showPage()


def _to_odd_page(c: Canvas, game: Game, code: str) -> None:
    """Leave the back of the previous sheet blank (with a note) so that what follows starts on a front."""
    if c.getPageNumber() % 2 == 0:
        _blank_page(c, game, code)


def _map_pages(c: Canvas, game: Game, options: BuildOptions, code: str, recorder: Recorder | None = None) -> None:
    """The map, tiled on the set's paper (or whole when it fits), each page on a sheet of its own: a tile is cut
    out and glued, so its back stays blank."""

    def end_page(cv: Canvas) -> None:
        cv.showPage()
        _blank_page(cv, game, code, " (the back of a map page)")

    _to_odd_page(c, game, code)
    map_.draw(c, game, options, set_code=code, end_page=end_page, recorder=recorder)
    c.setPageSize(options.paper_size())  # the map's pages set their own size; the rest of the set is on the paper


# ------------------------------------------------------------------------------------------ keeping together
def _sections(st: Styles, items: list[Block], page_height: float) -> list[Block]:
    """Group ``items`` into sections at each heading (kept together when they fit a page); a chart split between
    pages starts its rest with its section's heading again, marked "(continued)" (the heading's ``again()``, which
    :func:`forge.render.cards.flow` sets there), and a chart's notes go with its last rows."""
    out: list[Block] = []
    section: list[Block] = []

    def close() -> None:
        if section:
            out.append(Keep(list(section), page_height))
            section.clear()

    for f in items:
        if isinstance(f, Heading):
            close()
            f.again_as = _continued(f.text, f.style)
        section.append(f)
    close()
    return out


def _continued(text: str, style: TextStyle) -> Callable[[], Heading]:
    """The heading ``text`` again, marked "(continued)", for the rest of its chart on the next page."""

    def again() -> Heading:
        return Heading(f"{text} (continued)", style, again=again)

    return again


# ------------------------------------------------------------------------------------------------ content
ZONE_GLYPHS = {"cross": "✚", "circle": "●", "triangle": "▲", "square": "■", "star": "★", "diamond": "◆"}
"""The character printed for each set-up zone's mark (forge.render.map draws the same shapes on the map)."""


def _zone_phrase(game: Game, zid: str) -> str:
    """``any hex marked ✚ (German set-up)``."""
    zone = game.map.setup_zones[zid]
    return f"any hex marked {ZONE_GLYPHS[zone.symbol.value]} ({map_.zone_name(game, zid)})"


def _reduced(u: Unit) -> str:
    """``, starts reduced (step 2 of 3)`` for a unit that starts below full strength, else nothing."""
    if not u.start_step:
        return ""
    return f", starts reduced (step {u.start_step + 1} of {len(u.steps)}: {u.steps[u.start_step]})"


def _placement(u: Unit, game: Game | None = None) -> str:
    return _placement_base(u, game) + _reduced(u)


def _placement_base(u: Unit, game: Game | None) -> str:
    if u.setup:
        return f"sets up in {u.setup}"
    if game is not None:
        from ..rules.kit import setup as kit

        zid = kit.zone_of(game, u)
        if zid is not None and zid in game.map.setup_zones:
            return f"sets up in {_zone_phrase(game, zid)}"
    if u.pool is not None:
        later = f" from turn {u.pool.from_turn}" if u.pool.from_turn > 1 else ""
        return f"starts off the map in the pool of eliminated units, a replacement{later}"
    if u.entry is not None:
        where = f" at {u.entry.hex}" if u.entry.hex else ""
        cond = f", {u.entry.condition}" if u.entry.condition else ""  # a condition is its own phrase ("only if ...")
        turn = f"turn {u.entry.turn}" if isinstance(u.entry.turn, int) else "on a turn the rules do not give"
        return f"enters {turn}{where}{cond}"
    return "not given by the rules"


def _grouped(
    st: Styles, units: Sequence[Unit], row: Callable[[Unit], list[Any]], n: int
) -> tuple[list[list[Any]], dict[int, str]]:
    """Rows for ``units`` under a spanned row naming each formation (group) where the side has several, and those
    group rows (numbered from 1 under the header) with their fill: one line per unit instead of the group under
    every name."""
    order = {g: i for i, g in reversed(list(enumerate(u.group for u in units)))}  # first appearance
    groups = set(order)
    if len(groups) > 1:
        units = sorted(units, key=lambda u: order[u.group])  # stable: the file's order within a formation
    rows: list[list[Any]] = []
    spans: dict[int, str] = {}
    last: str | None = None
    for u in units:
        if len(groups) > 1 and u.group and u.group != last:
            r = len(rows) + 1  # row 0 is the header
            rows.append([f"<b>{esc(u.group)}</b>"] + [None] * (n - 1))
            spans[r] = "#d9d9d9"
        last = u.group
        rows.append(row(u))
    return rows, spans


def _steps_markup(u: Unit) -> str:
    """The unit's faces as the counters print them, a coloured value in its colour."""
    sts = u.strengths()
    if not any(s.coloured for s in sts):
        return esc(" / ".join(u.steps))
    return " / ".join(
        "".join(esc(t) if c is None else f'<font color="{c}">{esc(t)}</font>' for t, c in s.runs()) for s in sts
    )


def _write_in(u: Unit, step: int, st: Styles) -> WriteIn:
    s = u.strengths()[step]
    return WriteIn(u.steps[step], st, runs=s.runs() if s.coloured else ())


def _steps_write_in(u: Unit, st: Styles, more: str = "") -> WriteIn:
    """The unit's faces as the counters print them, with an empty box for each value the rules do not give."""
    runs: list[tuple[str, str | None]] = []
    for i, s in enumerate(u.strengths()):
        if i:
            runs.append((" / ", None))
        runs += list(s.runs()) if s.coloured else [(u.steps[i], None)]
    size = st.cell.size
    return WriteIn("", st, size=size, runs=[*runs, *([(more, None)] if more else [])], box=size * 1.1)


def _unit_row(u: Unit, game: Game | None = None, st: Styles | None = None) -> list[Any]:
    counters = f" ({len(u.counter_faces())} counters)" if len(u.counter_faces()) > 1 else ""
    copies = f" x{u.copies}" if u.copies > 1 else ""
    steps: Any = _steps_markup(u) + esc(counters)
    if st is not None and any(UNKNOWN_MARK in s for s in u.steps):  # never "?": a box, as on the counters
        steps = _steps_write_in(u, st, counters)
    return [
        f"<b>{esc(u.label)}</b>{esc(copies)}",
        esc(u.name),
        esc(u.type.value),
        esc(u.size.value if u.size else ""),
        steps,
        esc(_placement(u, game)),
    ]


UNKNOWN_AID_NOTE = (
    "An empty box: a value the rules do not give; copy it from the published counter sheet (the set-up sheet has "
    "a box for each one)"
)


def _aid_for(game: Game, side_id: str, st: Styles, avail: float) -> list[Block]:
    return _aid(game, st, avail, side_id)


def _aid(game: Game, st: Styles, avail: float, side_id: str) -> list[Block]:
    side = game.side(side_id)
    units = [u for u in game.units if u.side == side_id]
    out: list[Block] = []
    if units:
        values = "Strength-movement" if game.game.strength_format.value == "strength-movement" else "Strength"
        head = ["Counter", "Unit", "Type", "Size", f"{values} by step", "Placement"]
        rows, spans = _grouped(st, units, functools.partial(_unit_row, game=game, st=st), len(head))
        out += [heading(st, f"{side.name} units"), grid_table(st, head, rows, avail, flex=5, spans=spans)]
        if any(UNKNOWN_MARK in s for u in units for s in u.steps):
            out.append(note(st, UNKNOWN_AID_NOTE, table_note=True))
    out += cards.sequence_blocks(game, st, avail)
    out += cards.crt_blocks(game, st, avail) + cards.dice_pool_blocks(game, st, avail)
    out += cards.shift_blocks(game, st, avail) + cards.modifier_blocks(game, st, avail)
    return out


# ------------------------------------------------------------------------------------------- write-in values
WRITE_IN_NOTE = (
    "An empty box is a value the rules do not give: copy it from the published counter sheet, then onto the counter."
)
BOX = 12.0
"""Edge of a write-in box on the set-up sheet: room for a pencilled digit."""


class WriteIn(Piece):
    """A printed strength with an empty box for each number the rules do not give (``[?]`` -> ``[ ]``,
    ``?-3-?`` -> ``[ ]-3-[ ]``): the box is where the value from the published counter sheet is written."""

    label = "write-in value"

    def __init__(
        self,
        text: str,
        st: Styles,
        size: float | None = None,
        runs: Sequence[tuple[str, str | None]] = (),
        box: float = BOX,
    ) -> None:
        """``runs``: ``text`` in runs of one colour (``#rrggbb``; None: the ink) where a value is printed in a
        colour of its own (:meth:`forge.notation.Strength.runs`); ``box``: the write-in box's edge."""
        self.box = box
        self.runs = [(t, c) for t, c in runs] or [(text, None)]
        self.parts = [p for t, _ in self.runs for p in t.split(UNKNOWN_MARK)]
        self.st = st
        self.size = size or st.cell.size + 0.5
        self.boxes = sum(t.count(UNKNOWN_MARK) for t, _ in self.runs)
        self.width = sum(text_width(t, self.size, FONT_BOLD) for t in self.parts) + self.boxes * (box + 4)
        self.height = max(box, self.size * 0.9) if self.boxes else self.size * 1.2

    def draw(self, c: Surface, x: float, y: float, width: float) -> None:
        ink = self.st.c("ink")
        base = y + self.height - (self.height - self.size * 0.7) / 2  # the baseline, y down
        box_top = y + (self.height - self.box) / 2
        at = x
        for run, colour in self.runs:
            fill = ink if colour is None else colour.lower()  # a side's colour as the counters print it
            parts = run.split(UNKNOWN_MARK)
            for i, t in enumerate(parts):
                if t:
                    c.text(at, base, t, font=FONT_BOLD, size=self.size, fill=fill)
                    at += text_width(t, self.size, FONT_BOLD)
                if i < len(parts) - 1:
                    c.rect(at + 2, box_top, self.box, self.box, stroke=ink, width=0.7)
                    at += self.box + 4


def _value_rows(game: Game, st: Styles, u: Unit) -> list[list[Any]]:
    """One row per physical counter of ``u``: label, name, front and back values (write-in boxes where the rules
    give none), where the unit starts, and a box to tick when it is placed."""
    faces = u.counter_faces()
    rows: list[list[Any]] = []
    for i, (front, back) in enumerate(faces):
        copies = f" x{u.copies}" if u.copies > 1 else ""
        name = esc(u.name) if i == 0 else f"{esc(u.name)}: substitute counter {i + 1} of {len(faces)}"
        rows.append(
            [
                f"<b>{esc(u.label)}</b>{esc(copies)}",
                name,
                _write_in(u, front, st),
                _write_in(u, back, st) if back is not None else "(blank)",
                esc(_placement(u, game)) if i == 0 else "",
                WriteIn(UNKNOWN_MARK, st, size=st.cell.size) if i == 0 else "",
            ]
        )
    return rows


def _start_key(game: Game, u: Unit) -> tuple[Any, ...]:
    """Set-up units first, by hex; then reinforcements by turn; then the rest, in the file's order."""
    if u.setup:
        return (0, *_hex_key(game, u.setup))
    zones = list(game.map.setup_zones)
    if zones:
        from ..rules.kit import setup as kit

        zid = kit.zone_of(game, u)
        if zid in zones:
            return (0, 20_000, zones.index(zid), "")  # after the fixed hexes, zone by zone
    if u.pool is not None:
        return (1, u.pool.from_turn, 1, "")
    if u.entry is not None and isinstance(u.entry.turn, int):
        return (1, u.entry.turn, 0, "")
    return (2, 0, 0, "")


def _values(game: Game, st: Styles, avail: float) -> list[Block]:
    """Per side, every unit's counters with their printed values and write-in boxes, in set-up order."""
    out: list[Block] = []
    unknown = any(UNKNOWN_MARK in s for u in game.units for s in u.steps)
    if unknown:
        out.append(Para(f"<b>{esc(WRITE_IN_NOTE)}</b>", st.body))
    for side in game.game.sides:
        units = sorted((u for u in game.units if u.side == side.id), key=lambda u: _start_key(game, u))
        if not units:
            continue
        rows = [r for u in units for r in _value_rows(game, st, u)]
        head = ["Counter", "Unit", "Front", "Back", "Starts", "Placed"]
        widths = _value_widths(st, rows, avail)
        out += [
            heading(st, f"{side.name} counters: values and set-up"),
            grid_table(st, head, rows, avail, widths=widths),
        ]
    return out


def _value_widths(st: Styles, rows: list[list[Any]], avail: float) -> list[float]:
    def widest(col: int, least: float) -> float:
        return max([least] + [float(r[col].width) + 8 for r in rows if isinstance(r[col], WriteIn)])

    label = max(text_width(re.sub(r"<[^>]+>", "", str(r[0])), 7.5, FONT_BOLD) for r in rows) + 8
    label = min(max(label, 40.0), 70.0)
    front, back, placed = widest(2, 38.0), widest(3, 38.0), 34.0
    rest = avail - label - front - back - placed
    return [label, rest * 0.55, front, back, rest * 0.45, placed]


def _hex_key(game: Game, label: str) -> tuple[int, int, str]:
    try:
        cell = game.map.grid.grid().parse(label)
        return (cell.row, cell.col, label)
    except ValueError:
        return (10_000, 10_000, label)


def _zones(game: Game, st: Styles) -> list[Block]:
    """Per set-up zone, the units that set up in it; then the pool."""
    from ..rules.kit import setup as kit

    out: list[Block] = []
    by_zone: dict[str, list[Unit]] = {}
    for u in game.units:
        zid = kit.zone_of(game, u) if u.setup is None else None
        if zid in game.map.setup_zones:
            by_zone.setdefault(zid, []).append(u)
    pool = [u for u in game.units if u.pool is not None]
    if not by_zone and not pool:
        return out
    out.append(heading(st, "Set-up zones and pool"))
    for zid, us in by_zone.items():
        zone = game.map.setup_zones[zid]
        each = f", at most {zone.per_hex} to a hex" if zone.per_hex else ""
        n = sum(u.copies for u in us)
        rule = f" ({esc(zone.rule)})" if zone.rule else ""
        out.append(
            Para(
                f"<b>Set up in {esc(_zone_phrase(game, zid))}</b>{esc(each)}{rule} ({n} unit{'s' * (n != 1)}): "
                + "; ".join(esc(_unit_words(u)) for u in us),
                st.body,
            )
        )
    if pool:
        out.append(
            Para(
                "<b>Off-map pool</b> (start eliminated; they come back only as replacements): "
                + "; ".join(
                    esc(_unit_words(u) + (f", from turn {u.pool.from_turn}" if u.pool and u.pool.from_turn > 1 else ""))
                    for u in pool
                ),
                st.body,
            )
        )
    return out


def _unit_words(u: Unit) -> str:
    copies = f" x{u.copies}" if u.copies > 1 else ""
    return f"{u.label}{copies} {u.name}" + _reduced(u)


def _setup(game: Game, st: Styles, avail: float) -> list[Block]:
    out: list[Block] = _zones(game, st) + _values(game, st, avail)
    reinf = game.reinforcements()
    rows = []
    for turn, us in reinf.items():
        for u in us:
            e = u.entry
            rows.append(
                [
                    f"<b>{turn}</b>",
                    esc(_side_name(game, u.side)),
                    f"<b>{esc(u.label)}</b> {esc(u.name)}",
                    esc(e.hex or "?") if e else "?",
                    esc(e.condition or "") if e else "",
                ]
            )
    for u in game.unscheduled():
        e = u.entry
        rows.append(
            [
                "<b>?</b>",
                esc(_side_name(game, u.side)),
                f"<b>{esc(u.label)}</b> {esc(u.name)}",
                esc(e.hex or "?") if e else "?",
                esc((e.condition or "") if e else ""),
            ]
        )
    if rows:
        out += [
            heading(st, "Reinforcements by turn"),
            grid_table(st, ["Turn", "Side", "Unit", "Enters at", "Condition"], rows, avail, flex=4),
        ]
        out.append(note(st, "? = not given by the rules", table_note=True))
    for sc in game.scenarios:
        if sc.setup:
            rows = [
                [
                    f"<b>{esc(game.unit(uid).label if any(u.id == uid for u in game.units) else uid)}</b>",
                    esc(hx),
                ]
                for uid, hx in sorted(sc.setup.items())
            ]
            out += [
                heading(st, f"Scenario {sc.name}: set-up changes", sc.rule),
                grid_table(st, ["Unit", "Sets up in"], rows, avail),
            ]
    if not out:
        out.append(Para("The rules give no set-up.", st.body))
    return out


def _vp_record(game: Game, st: Styles, avail: float) -> list[Block]:
    sides = game.game.sides
    head = ["Turn"] + [x for s in sides for x in (f"{s.name} VP this turn", f"{s.name} total")] + ["Notes"]
    rows: list[list[str]] = [
        [f"<b>{t.number}</b>" + "".join(f" ({esc(x)})" for x in (_turn_length(game, t), t.date) if x)]
        + [""] * (2 * len(sides))
        + [""]
        for t in game.turns.turns
    ]
    v = game.victory
    if v is not None and v.handicap:
        rows.append(
            ["<b>Handicap</b>"]
            + [x for s in sides for x in ("", f"+{v.handicap[s.id]}" if s.id in v.handicap else "")]
            + [""]
        )
    rows.append(["<b>Final</b>"] + [""] * (2 * len(sides)) + ["Winner:"])
    turn_w = 56.0
    side_w = 62.0
    widths = [turn_w] + [side_w] * (2 * len(sides)) + [avail - turn_w - side_w * 2 * len(sides)]
    t = grid_table(st, head, rows, avail, widths=widths, centre_from=1, row_height=22.0)  # room to write in
    out: list[Block] = [t]
    if v is not None:
        out += [heading(st, "How points are scored", v.rule), Para(esc(v.summary), st.body)]
        out += cards.victory_blocks(game, st, avail)[2:]
    return out


def vp_record_used(game: Game) -> bool:
    """Whether a set holds a victory point record: only for a game whose victory scores points."""
    return game.victory is not None and bool(game.victory.points)


def rules_blocks(game: Game, st: Styles, avail: float) -> list[Block]:
    """The rules and tables a set needs beyond its map (which prints the terrain chart and the turn track), its
    player aids (units, sequence of play, CRT, shifts, modifiers) and its set-up sheet: each drawn by the
    reference cards' own function, so that a rule has one text, printed the same on the cards and in the set."""
    out = cards.table_blocks(game, st, avail)
    out += cards.special_rule_blocks(game, st, avail)
    out += cards.limit_blocks(game, st, avail) + cards.stacking_blocks(game, st, avail)
    out += cards.combat_note_blocks(game, st, avail)
    if not vp_record_used(game):  # else the record sheet prints the victory conditions beside the record
        out += cards.victory_blocks(game, st, avail)
    out += cards.scenario_blocks(game, st, avail)
    return out


# ----------------------------------------------------------------------------------------------- entry points
def _sectioned(
    options: BuildOptions, make: Callable[[Styles, float], list[Block]]
) -> Callable[[Styles, float], list[Block]]:
    page_h = _page_body_height(options)
    return lambda st, width: _sections(st, make(st, width), page_h)


def _aid_maker(game: Game, options: BuildOptions, side_id: str) -> Callable[[Styles, float], list[Block]]:
    return _sectioned(options, functools.partial(_aid_for, game, side_id))


def aid_scales(game: Game, options: BuildOptions) -> dict[str, float]:
    """The type scale of each side's player aid (:data:`SCALES`): the same in every set, so worked out once."""
    opts = _greyscale(options)
    return {
        side.id: _one_page_scale(opts, game, f"Player aid: {side.name}", _aid_maker(game, opts, side.id))
        for side in game.game.sides
    }


def set_pages(
    c: Canvas,
    game: Game,
    options: BuildOptions,
    index: int,
    *,
    scales: dict[str, float] | None = None,
    recorder: Recorder | None = None,
) -> None:
    """Draw class set ``index`` (1-based) on ``c``, starting on a fresh sheet: the map, the counters, the player
    aids, the rules and tables, the set-up sheet and the victory point record (for a game that scores points),
    every page marked with the set's code, ending on the back of a sheet (a blank one if need be).  ``scales`` is
    :func:`aid_scales` (worked out here when not given).  A ``recorder`` notes what the map and counter pages place
    and the player aids and sheets (blocks, :mod:`forge.render.blocks`: each table cell a container) place
(:mod:`forge.layout`)."""
    opts = _greyscale(options)
    code = set_code(index)
    scales = scales if scales is not None else aid_scales(game, options)
    _map_pages(c, game, opts, code, recorder)
    _to_odd_page(c, game, code)
    draw_counter_pages(c, game, opts, mode="class", set_code=code, first_page=c.getPageNumber(), recorder=recorder)
    for side in game.game.sides:
        aid = _aid_maker(game, opts, side.id)
        _part(c, opts, game, code, f"Player aid: {side.name}", aid, scale=scales.get(side.id, 1.0), recorder=recorder)
    rules = _sectioned(opts, lambda st, width: rules_blocks(game, st, width))
    if rules(Styles.make(opts), _page_region(opts)(0)[2]):
        _part(c, opts, game, code, "Rules and tables", rules, recorder=recorder)
    setup = _sectioned(opts, lambda st, width: _setup(game, st, width))
    _part(c, opts, game, code, "Set-up sheet", setup, recorder=recorder)
    if vp_record_used(game):
        record = functools.partial(_vp_record, game)
        _part(c, opts, game, code, "Victory point record", record, fresh=False, recorder=recorder)
    _to_odd_page(c, game, code)  # the next set starts on a fresh sheet; every set has the same count of pages


def set_page_count(game: Game, options: BuildOptions) -> int:
    """Pages one class set takes (every set takes as many), as :func:`set_pages` lays them out, without drawing the
    map or the counters: the map's pages (:func:`forge.render.map.page_count`) each with its blank back, the counter
    sheets' fronts and backs, and each flowed part (player aids, rules and tables, set-up sheet, record) poured on a
    throwaway canvas, every part handed out on its own starting on a fresh sheet.  For :func:`forge.estimate`."""
    opts = _greyscale(options)
    code = set_code(1)
    scales = aid_scales(game, options)
    page = 1  # the page about to be drawn; a set starts on a fresh sheet

    def fresh() -> None:
        nonlocal page
        page += page % 2 == 0

    def part(title: str, make: Callable[[Styles, float], list[Block]], scale: float = 1.0) -> int:
        st = Styles.make(opts, scale=scale)
        return _pages_needed(opts, game, st, title, make(st, _page_region(opts)(0)[2]))

    page += 2 * map_.page_count(game, opts, set_code=code)
    fresh()
    page += 2 * sheet_count(game, opts, mode="class", set_code=code)
    for side in game.game.sides:
        fresh()
        page += part(f"Player aid: {side.name}", _aid_maker(game, opts, side.id), scales.get(side.id, 1.0))
    rules = _sectioned(opts, lambda st, width: rules_blocks(game, st, width))
    if rules(Styles.make(opts), _page_region(opts)(0)[2]):
        fresh()
        page += part("Rules and tables", rules)
    fresh()
    page += part("Set-up sheet", _sectioned(opts, lambda st, width: _setup(game, st, width)))
    if vp_record_used(game):
        page += part("Victory point record", lambda st, width: _vp_record(game, st, width))
    fresh()
    return page - 1


def render(game: Game, options: BuildOptions, *, recorder: Recorder | None = None) -> bytes:
    """``options.sets`` complete class sets, greyscale-safe, each marked with its set code (S01, S02 ...).

    Once the first set is drawn, its page count and the total go to ``options.report``; a total over
    ``options.max_pages`` raises :class:`forge.builder.TooManyPages` before another set is drawn."""
    from ..builder import TooManyPages

    def draw(c: Canvas) -> None:
        scales = aid_scales(game, options)
        n = max(1, options.sets)
        for i in range(1, n + 1):
            if options.progress:  # one step a set (forge.builder.SELF_REPORTING): most of a big build's time
                options.progress(f"rendering handout, set {i} of {n}")
            set_pages(c, game, options, i, scales=scales, recorder=recorder)
            if i == 1:
                each = c.getPageNumber() - 1  # every set takes as many pages as the first
                if options.report:
                    options.report(page_count_line(n, each))
                if n * each > options.max_pages:
                    raise TooManyPages(n, each, options.max_pages)

    return render_pdf(options.paper_size(), draw, title=f"{game.game.title}: class handout")


def page_count_line(sets: int, each: int) -> str:
    """``handout: 3 sets of 24 pages, 72 pages in total``: what ``forge build`` prints before it writes one."""
    return f"handout: {sets} set{'s' * (sets != 1)} of {each} pages, {sets * each} pages in total"
