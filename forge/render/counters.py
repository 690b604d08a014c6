"""Counter sheets: every unit and marker as a die-cut-style square, fronts and backs interleaved for duplex
printing.

``render(game, options)`` returns a PDF whose first two pages are a duplex calibration sheet (left out with
``--no-calibration-page``, as the print-shop preset does) and whose further pages come in pairs: a sheet of
counter fronts, then the same sheet's backs, mirrored for the printer's flip edge (:mod:`forge.impose` does all
placement).  Counters are exactly ``options.counter_points()`` across.

The class handout reuses :func:`draw_counter_pages` with a set code printed on every back and the greyscale
palette.

Colours come from :class:`forge.render.style.Palette`, as on the map and the cards: with ``--greyscale`` the
formations of a side get greys far enough apart to tell at a glance, or a marked symbol box where greys run out.
A number the rules do not give (``?`` in the data) prints as an empty write-in box, sized for a pencilled digit.
A unit's face prints as its game's notation writes it (:class:`forge.notation.Strength`: ``8-4``, ``[6]``, ``(4)``);
a value printed in a colour of its own (``red:8``) is drawn in it, on a chip where the counter's colour would hide
it, and underlined in the ink in greyscale.
"""

from __future__ import annotations

import functools
import hashlib
import re
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal, TYPE_CHECKING

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import Canvas

from .. import units as U
from ..canvas import Anchor
from ..canvas import Canvas as DrawCanvas
from ..canvas import paints
from ..canvas import Box, PdfCanvas, Recorder
from ..impose import (
    Flip,
    SheetLayout,
    Slot,
    back_rect,
    back_rotation,
    counter_sheet,
    crop_marks,
    cut_lines,
    flip_point,
    offset_on_front,
    place,
)
from ..model import Game, Marker, Unit, UnitSize, UnitType, Unknown
from ..notation import Strength
from ..errors import LoadError, Problem, Where
from ..tiling import PRINTABLE_MARGIN
from ..pdf import FONT, FONT_BOLD, FONT_ITALIC, render_pdf, text_width
from ..templates import ELEMENT, SIZES, CounterLayout, CounterTemplate, Templates, Text, WriteIn, counter_layout
from ..templates import current as current_templates
from ..templates import shipped, use
from . import nato
from .fit import MIN_TEXT_PT, fit, fit_line
from .style import DEFAULT_COLORS, MARKINGS, Palette, grey, mix

if TYPE_CHECKING:  # build imports the renderers: a runtime import would be circular
    from ..builder import BuildOptions

__all__ = [
    "MIN_TEXT_PT",
    "UNKNOWN_MARKER_COUNT",
    "WRITE_IN",
    "Face",
    "Piece",
    "check_template",
    "draw_calibration",
    "draw_counter_pages",
    "draw_face",
    "pieces",
    "render",
    "sheet_layout",
]

UNKNOWN_MARKER_COUNT = 4
"""How many of a marker to print when the rules do not give its count (said so in the page footer)."""
BLEED = U.length("1/8in")
MARGIN = (U.length("0.5in"), U.length("0.75in"))
"""Sheet margins (horizontal, vertical): room for crop marks, the header and the footer."""

Mode = Literal["colour", "grey", "class"]
"""Palette: the game's colours, or their greys (``--greyscale``); ``class`` (the handout's) is the greyscale
palette too, so a class set looks like the greyscale counters and map."""

_NEUTRAL = "#efe6c8"  # markers that belong to neither side: buff card
_CUT = "#8c8c8c"
WRITE_IN = re.compile(r"(?<![^\W\d_])\?(?![^\W\d_])")
"""A ``?`` that stands for a number (not one ending a word, as in "Surrender?"): printed as a write-in box."""
_STAND_IN = "\u25a1"  # measured (and fitted) in place of a write-in box: a little wider than a digit
_WRITE_IN_FILL, _WRITE_IN_EDGE = "#ffffff", "#000000"
WRITE_IN_BOX = "write-in box"
"""The label of a write-in box's frame (the layout check tells it from the text around it)."""


# ----------------------------------------------------------------------------------------------- text helpers
def fit_text(
    text: str,
    width: float,
    size: float,
    font: str = FONT,
    *,
    where: Where = (),
    what: str = "",
    name: str | None = None,
    report: bool = True,
) -> tuple[str, float]:
    """``text`` on one line ``width`` wide at the largest size <= ``size`` (never below 5 pt); what cannot fit
    even at 5 pt is cut, marked and reported (:func:`forge.render.fit.fit_line`).

    >>> fit_text("Korsun", 100, 8)
    ('Korsun', 8)
    """
    return fit_line(text, width, size, font=font, where=where, what=what, name=name, report=report)


def wrap_text(
    text: str,
    width: float,
    height: float,
    size: float,
    font: str = FONT,
    leading: float = 1.12,
    *,
    where: Where = (),
    what: str = "",
) -> tuple[list[str], float]:
    """``text`` wrapped into ``width`` x ``height`` at the largest size <= ``size`` (>= 5 pt) that fits; see
    :func:`forge.render.fit.fit`."""
    r = fit(text, width, height, size, font=font, leading=leading, where=where, what=what)
    return list(r.lines), r.size


def stand_in(text: str) -> str:
    """``text`` with each write-in ``?`` (:data:`WRITE_IN`) replaced by the character that stands for its box
    when the text is measured and fitted.

    >>> stand_in("4-?-7"), stand_in("Surrender?")
    ('4-\u25a1-7', 'Surrender?')
    """
    return WRITE_IN.sub(_STAND_IN, text)


def draw_write_in_text(
    c: DrawCanvas,
    x: float,
    y: float,
    text: str,
    *,
    font: str,
    size: float,
    fill: str,
    anchor: Anchor = "start",
    box: WriteIn | None = None,
) -> list[tuple[float, float, float, float]]:
    """Draw ``text`` (already passed through :func:`stand_in`) with its baseline at ``y``: the runs of text as
    text, each stand-in as an empty write-in box (white, thin black outline) the height of a capital and a bit,
    shaped as ``box`` says (the current counter template's ``write_in`` by default); return the boxes drawn as
    ``(x, y, w, h)``."""
    if _STAND_IN not in text:
        c.text(x, y, text, font=font, size=size, anchor=anchor, fill=fill)
        return []
    wi = box or current_templates().counter.write_in
    total = text_width(text, size, font)
    x0 = x - (total / 2 if anchor == "middle" else total if anchor == "end" else 0.0)
    box_w = text_width(_STAND_IN, size, font)
    boxes: list[tuple[float, float, float, float]] = []
    for i, run in enumerate(text.split(_STAND_IN)):
        if i:
            bx, bw, bh = x0 + box_w * wi.inset, box_w * wi.width, size * wi.height
            with c.frame("symbol", bx, y - size * wi.top, bw, bh, WRITE_IN_BOX):
                lw = max(wi.min_line_pt, size * wi.line)
                c.rect(bx, y - size * wi.top, bw, bh, fill=_WRITE_IN_FILL, stroke=_WRITE_IN_EDGE, width=lw)
            boxes.append((bx, y - size * wi.top, bw, bh))
            x0 += box_w
        if run:
            c.text(x0, y, run, font=font, size=size, anchor="start", fill=fill)
            x0 += text_width(run, size, font)
    return boxes


def _luma(hex_colour: str) -> float:
    return int(grey(hex_colour)[1:3], 16) / 255.0


def readable_ink(background: str, preferred: str) -> str:
    """``preferred`` if it stands out on ``background`` (greyscale contrast), else black or white."""
    if abs(_luma(background) - _luma(preferred)) >= 0.42:
        return preferred
    return "#000000" if _luma(background) > 0.5 else "#ffffff"


def _c(hex_colour: str) -> Color:
    return HexColor(hex_colour)


# ------------------------------------------------------------------------------------------------ the pieces
@dataclass(frozen=True)
class Face:
    """One printed side of a counter, ready to draw (colours already chosen for the palette)."""

    kind: Literal["unit", "marker", "plain"]
    background: str
    ink: str
    label: str = ""
    """Unit id as printed (units), the formation's code (a formation's markers), or the caption of a plain back."""
    unit_type: UnitType | None = None
    size: UnitSize | None = None
    strength: str | None = None
    """The printed values as the book prints them, without colours (``[6]-4``; ``?`` for a write-in box)."""
    strength_runs: tuple[tuple[str, str | None, bool], ...] = ()
    """Where some value is printed in a colour of its own: ``strength`` in runs of (text, colour or None for the
    ink, underlined); empty when all of it is in the ink.  Greyscale prints a coloured value in the ink, underlined,
    so that it still stands apart."""
    steps: int = 1
    """Steps of the unit (a face with ``step > 0`` shows the step track)."""
    step: int = 0
    """Step this face shows: 0 is full strength."""
    setup: str | None = None
    """Setup hex, printed in the top-right corner."""
    entry_turn: str | None = None
    """Reinforcement turn (``?`` when the rules do not give it), printed circled in the top-right corner."""
    entry_hex: str | None = None
    substitute: bool = False
    """A substitute counter of a multi-counter unit (marked "sub")."""
    text: str | None = None
    """Marker text."""
    set_code: str | None = None
    frame: bool = False
    """Draw an inner frame: tells the second side apart where colour cannot (greyscale palettes)."""
    marking: int = 0
    """Index into :data:`forge.render.style.MARKINGS`: how the symbol box tells apart formations that share a
    grey (greyscale palettes; 0 is none)."""
    origin: Where = ()
    """Key path of the unit or marker in the game file (``("units", 3)``): where a text that does not fit is
    reported."""
    text_key: str = "front"
    """The marker field this face's text comes from (``front`` or ``back``)."""


@dataclass(frozen=True)
class Piece:
    """One physical counter: its front and its back."""

    key: str
    """Stable id: ``unit-id#k`` (k-th counter of the unit, copy c as ``@c``) or ``marker:id#n``."""
    front: Face
    back: Face


def _side_index(game: Game, side_id: str | None) -> int | None:
    for i, s in enumerate(game.game.sides):
        if s.id == side_id:
            return i
    return None


def _palette(game: Game, mode: Mode) -> Palette:
    return Palette.of(game, greyscale=mode != "colour")


def _unit_colours(game: Game, unit: Unit, palette: Palette) -> tuple[str, str, bool, int]:
    """Background, ink, frame (second side, greyscale) and marking of ``unit``'s counters."""
    side = game.side(unit.side)
    idx = _side_index(game, unit.side) or 0
    game_bg = Palette.unit_colour(game, unit.side, unit.group)
    bg = palette(game_bg)
    if palette.greyscale:
        return bg, readable_ink(bg, "#000000"), idx == 1, palette.marking(unit.side, game_bg)
    return bg, readable_ink(bg, side.text_colour), False, 0


def _marker_colours(game: Game, marker: Marker, palette: Palette) -> tuple[str, str, bool]:
    idx = _side_index(game, marker.side)
    if marker.group is not None and marker.side is not None:
        # A formation's own markers are printed in its colour, like its units (Escape's support fire pools).
        bg = palette(Palette.unit_colour(game, marker.side, marker.group))
    else:
        # A paler tint of the side's colour (as printed): a marker, not a unit.
        bg = palette(_NEUTRAL) if idx is None else mix(palette(game.game.sides[idx].colour), "#ffffff", 0.55)
    if palette.greyscale:
        return bg, readable_ink(bg, "#000000"), idx == 1
    return bg, readable_ink(bg, "#000000"), False


def _strength_runs(st: Strength, greyscale: bool) -> tuple[tuple[str, str | None, bool], ...]:
    """``st``'s runs of one colour for a face (:attr:`Face.strength_runs`): empty when all of it is in the ink."""
    if not st.coloured:
        return ()
    return tuple((text, None if greyscale else colour, greyscale and colour is not None) for text, colour in st.runs())


def _make_unit_face(
    unit: Unit,
    step: int,
    *,
    bg: str,
    ink: str,
    frame: bool,
    sub: bool,
    set_code: str | None,
    origin: Where = (),
    marking: int = 0,
    greyscale: bool = False,
) -> Face:
    st = unit.strengths()[step]
    placed = step == 0  # setup hex and entry turn go on the full-strength face only
    return Face(
        kind="unit",
        background=bg,
        ink=ink,
        label=unit.label,
        unit_type=unit.type,
        size=unit.size,
        strength=st.plain(),
        strength_runs=_strength_runs(st, greyscale),
        steps=len(unit.steps),
        step=step,
        setup=unit.setup if placed else None,
        entry_turn=str(unit.entry.turn) if placed and unit.entry is not None else None,
        entry_hex=unit.entry.hex if placed and unit.entry is not None else None,
        substitute=sub,
        set_code=set_code,
        frame=frame,
        origin=origin,
        marking=marking,
    )


def _origin(game: Game, kind: str, item: object) -> Where:
    items: Sequence[object] = game.units if kind == "units" else game.markers
    for i, x in enumerate(items):
        if x is item:
            return (kind, i)
    return ()


def _unit_pieces(game: Game, unit: Unit, palette: Palette, set_code: str | None) -> list[Piece]:
    bg, ink, frame, marking = _unit_colours(game, unit, palette)
    origin = _origin(game, "units", unit)
    out: list[Piece] = []
    for copy in range(unit.copies):
        for k, (front_step, back_step) in enumerate(unit.counter_faces()):
            sub = k > 0
            front = _make_unit_face(
                unit,
                front_step,
                bg=bg,
                ink=ink,
                frame=frame,
                sub=sub,
                set_code=None,
                origin=origin,
                marking=marking,
                greyscale=palette.greyscale,
            )
            if back_step is None:
                back = Face(
                    kind="plain",
                    background=bg,
                    ink=ink,
                    label=unit.label,
                    set_code=set_code,
                    frame=frame,
                    origin=origin,
                )
            else:
                back = _make_unit_face(
                    unit,
                    back_step,
                    bg=bg,
                    ink=ink,
                    frame=frame,
                    sub=sub,
                    set_code=set_code,
                    origin=origin,
                    marking=marking,
                    greyscale=palette.greyscale,
                )
            suffix = f"@{copy + 1}" if unit.copies > 1 else ""
            out.append(Piece(f"{unit.id}#{k}{suffix}", front, back))
    return out


def marker_count(marker: Marker, unknown: int = UNKNOWN_MARKER_COUNT) -> int:
    """How many of ``marker`` to print: its count, or ``unknown`` when the rules do not give one."""
    return unknown if isinstance(marker.count, Unknown) else marker.count


def _marker_pieces(game: Game, marker: Marker, palette: Palette, set_code: str | None) -> list[Piece]:
    bg, ink, frame = _marker_colours(game, marker, palette)
    origin = _origin(game, "markers", marker)
    code = marker.group or ""  # a formation's marker names it: its colour alone does not survive greyscale
    front = Face(kind="marker", background=bg, ink=ink, label=code, text=marker.front, frame=frame, origin=origin)
    if marker.back:
        back = Face(
            kind="marker",
            background=bg,
            ink=ink,
            label=code,
            text=marker.back,
            set_code=set_code,
            frame=frame,
            origin=origin,
            text_key="back",
        )
    else:
        back = Face(kind="plain", background=bg, ink=ink, label="", set_code=set_code, frame=frame, origin=origin)
    return [Piece(f"marker:{marker.id}#{i + 1}", front, back) for i in range(marker_count(marker))]


def pieces(game: Game, *, mode: Mode = "colour", set_code: str | None = None) -> list[list[Piece]]:
    """Every counter of the game, in groups that each start a new row: one group per side (units in the data's
    order, grouped by formation colour), then the markers."""
    palette = _palette(game, mode)
    groups: list[list[Piece]] = []
    for side in game.game.sides:
        order = {g: i for i, g in enumerate(side.groups)}
        units = [u for u in game.units if u.side == side.id]
        units.sort(key=lambda u: order.get(u.group or "", len(order)))  # stable: data order within a group
        group: list[Piece] = []
        for u in units:
            group += _unit_pieces(game, u, palette, set_code)
        if group:
            groups.append(group)
    markers: list[Piece] = []
    for mk in game.markers:
        markers += _marker_pieces(game, mk, palette, set_code)
    if markers:
        groups.append(markers)
    return groups


def unknown_marker_note(game: Game) -> str | None:
    """The footer line saying which marker counts were made up, or None when the rules give them all."""
    names = [m.name for m in game.markers if isinstance(m.count, Unknown)]
    if not names:
        return None
    return (
        f"marker counts not given by the rules: {UNKNOWN_MARKER_COUNT} printed of each ({', '.join(names)})"
    )


def marking_note(game: Game, mode: Mode) -> str | None:
    """The footer line naming the formations whose counters carry a marked symbol box (greyscale palettes when
    a side has more formation colours than distinct greys), or None."""
    palette = _palette(game, mode)
    by_kind: dict[int, list[str]] = {}
    for side in game.game.sides:
        for group, col in side.groups.items():
            k = palette.marking(side.id, col)
            if k and any(u.side == side.id and u.group == group for u in game.units):
                by_kind.setdefault(k, []).append(group)
    if not by_kind:
        return None
    parts = [f"{MARKINGS[k]}: {', '.join(names)}" for k, names in sorted(by_kind.items())]
    return "Formations that share a grey are told apart by the symbol box (" + "; ".join(parts) + ")."


def counter_key(game: Game, groups: Sequence[Sequence[Piece]]) -> list[tuple[str | None, str]]:
    """The key to the marks the counters in ``groups`` actually carry, as (swatch colour or None, text) entries
    in the order they are printed in the sheet's margin: nothing is explained that no counter shows."""
    faces = [f for g in groups for p in g for f in (p.front, p.back)]
    units = [f for f in faces if f.kind == "unit"]
    out: list[tuple[str | None, str]] = []
    if any(f.setup for f in units):
        out.append((None, "top right: set-up hex"))
    if any(f.entry_turn is not None and not WRITE_IN.fullmatch(f.entry_turn) for f in units):
        where = " (hex beside it: where)" if any(f.entry_hex for f in units) else ""
        out.append((None, "circled number: turn of entry" + where))
    if any(f.entry_turn is not None and WRITE_IN.fullmatch(f.entry_turn) for f in units):
        out.append((None, "empty circle: entry turn not given by the rules"))
    if any(f.substitute for f in units):
        out.append((None, "sub: substitute counter"))
    if any(f.step > 0 and f.steps > 1 for f in units):
        out.append((None, "dots: steps, filled for those left"))
    marks = {m for f in units for m in re.findall(r"[\[(]", f.strength or "")}
    if "[" in marks:
        out.append((None, "[n]: bracketed value, as the rules print it (their effect: see the rules)"))
    if "(" in marks:
        out.append((None, "(n): value in parentheses, as the rules print it (see the rules)"))
    if any(f.strength_runs for f in units):
        out.append((None, "a coloured (greyscale: underlined) value: singled out by the rules"))
    if any(WRITE_IN.search(f.strength or "") for f in units):
        out.append((None, "empty box: value not given by the rules, write it in"))
    if any(f.frame for f in faces):
        out.append((None, f"inner frame: {game.game.sides[1].name}"))
    shown: dict[tuple[str, str], str] = {}
    for g in groups:
        for p in g:
            f = p.front
            if f.kind != "unit":
                continue
            u = game.units[int(f.origin[1])] if f.origin[:1] == ("units",) else None
            if u is not None and u.group:
                shown.setdefault((u.side, u.group), f.background)
    names = [g for _, g in shown]
    for (side, group), bg in shown.items():  # a name two sides share says whose it is
        out.append((bg, f"{game.side(side).name} {group}" if names.count(group) > 1 else group))
    return out


KeyEntry = tuple[str | None, str]
"""One entry of the counter key: a swatch colour (or None) and its text."""


def _key_lines(entries: Sequence[KeyEntry], width: float, size: float) -> list[list[KeyEntry]]:
    """``entries`` broken into lines no wider than ``width`` (as :func:`_draw_key` sets them)."""
    lines: list[list[KeyEntry]] = [[]]
    x = text_width("Key: ", size, FONT_BOLD)
    for sw, text in entries:
        w = text_width(text + _KEY_SEP, size, FONT) + (size + 2 if sw else 0)
        if lines[-1] and x + w > width:
            lines.append([])
            x = 0.0
        lines[-1].append((sw, text))
        x += w
    return lines


# --------------------------------------------------------------------------------------------- drawing a face
# Faces are drawn on a forge.canvas.Canvas (y down, origin at the trim box's top-left corner), so the same code
# draws the PDF sheets and the SVG/PNG images (forge.render.images).
_FONTS = {"regular": FONT, "bold": FONT_BOLD}
_ITALIC = {FONT: FONT_ITALIC, FONT_BOLD: FONT_ITALIC}


_SEEN: weakref.WeakKeyDictionary[Canvas, set[str]] = weakref.WeakKeyDictionary()
"""Per PDF document, the elements (form names) drawn once in place so far: a second makes the form."""


@functools.lru_cache(maxsize=4096)
def _form_name(key: tuple[object, ...]) -> str:
    """The form XObject name of an element drawn once (:func:`_reused`): the same in every run."""
    return "el_" + hashlib.sha1(repr(key).encode(), usedforsecurity=False).hexdigest()[:16]


def _reused(
    c: DrawCanvas, key: tuple[object, ...], x: float, y: float, w: float, h: float, draw: Callable[[float, float], None]
) -> None:
    """Draw once, place many: ``draw(ox, oy)`` draws an element whose area (``w`` x ``h``, room for its strokes
    included) has its top-left corner at ``(ox, oy)``; here that corner is ``(x, y)``.  On a PDF canvas the first
    element of its ``key`` (everything that shapes the drawing) is drawn in place; the second is drawn once into a
    form XObject that it and every later one place (a form used once only costs bytes and time).  A form placed
    records what its drawing recorded, so the layout check sees the same frames and text.

    Other canvases (the SVG of a counter image: one face per document, every element used once) draw in place,
    where a ``<use>`` would only add bytes."""
    if not isinstance(c, PdfCanvas):
        draw(x, y)
        return
    name = _form_name(key)
    if not c.has_form(name):
        seen = _SEEN.setdefault(c.c, set())
        if name not in seen:  # the first of its kind is drawn in place: most elements seen once are seen once only
            seen.add(name)
            draw(x, y)
            return
        c.begin_form(name, w, h)
        draw(0.0, 0.0)
        c.end_form()
    with c.saved():
        c.translate(x, y)
        c.use_form(name)


@contextmanager
def _part(c: DrawCanvas, s: float, name: str) -> Iterator[None]:
    """Draw one part of the layout template (``name``: its key in templates/counter.yaml): on a recording canvas
    what is drawn inside belongs to a frame the size of the face named after the part, so that the template check
    (:func:`check_template`) can say which part runs off the face or overlaps another."""
    with c.frame("container", 0, 0, s, s, ELEMENT + name):
        yield


def _step_track(c: DrawCanvas, face: Face, s: float, t: CounterLayout) -> None:
    """Dots left of the symbol, read like text in rows (``steps.per_row``): one per step, filled for the steps the
    face still has, hollow for those lost (a reduced two-step unit shows one filled dot and one hollow)."""
    st = t.steps
    r = s * st.r
    gap = s * st.pitch
    left = face.steps - face.step
    x0 = st.px(s)
    y0 = st.py(s)
    width = max(st.min_line_pt, s * st.line)
    cols, rows = min(face.steps, st.per_row), -(-face.steps // st.per_row)
    out = r + width / 2
    fw, fh = (cols - 1) * gap + 2 * out, (rows - 1) * gap + 2 * out
    edge = out + width  # the form a stroke's width larger all round: nothing of the dots is cut at its edge

    def dots(ox: float, oy: float) -> None:
        for i in range(face.steps):
            row, col = divmod(i, st.per_row)
            fill = face.ink if i < left else None
            c.circle(ox + edge + col * gap, oy + edge + row * gap, r, fill=fill, stroke=face.ink, width=width)

    key = ("steps", face.steps, left, st.per_row, r, gap, width, face.ink)
    with c.frame("symbol", x0 - out, y0 - out, fw, fh, "step dots"):
        _reused(c, key, x0 - edge, y0 - edge, fw + 2 * width, fh + 2 * width, dots)


def _corner(c: DrawCanvas, face: Face, s: float, t: CounterLayout, label_right: float, right: float) -> float:
    """Draw the top-right corner (setup hex, entry turn circled, or "sub") ending at ``right``; return its left
    edge."""
    ink = face.ink
    co, en = t.corner, t.entry
    base = co.py(s)
    font = _FONTS[co.font]
    fs_max = max(MIN_TEXT_PT, s * co.size)
    left = right
    if face.entry_turn is not None:
        num = face.entry_turn
        fs = max(MIN_TEXT_PT, min(s * en.size, en.max_pt))
        lw = max(en.min_line_pt, s * en.line)
        if WRITE_IN.fullmatch(num):  # turn not given: an empty white circle to write it in
            r = fs * en.write_in_radius
            cx, cy = right - r, base - fs * en.centre_raise
            with c.frame("symbol", cx - r, cy - r, 2 * r, 2 * r, "entry turn write-in circle"):
                c.circle(cx, cy, r, fill=_WRITE_IN_FILL, stroke=_WRITE_IN_EDGE, width=lw)
        else:
            r = max(text_width(num, fs, FONT_BOLD) / 2 + fs * en.circle_pad, fs * en.circle_min)
            cx, cy = right - r, base - fs * en.centre_raise
            with c.frame("symbol", cx - r, cy - r, 2 * r, 2 * r, "entry turn circle"):
                c.circle(cx, cy, r, fill=face.background, stroke=ink, width=lw)
                c.text(cx, base, num, font=FONT_BOLD, size=fs, anchor="middle", fill=ink)
        left = cx - r
        if face.entry_hex:
            gap = s * en.hex_gap
            room = max(left - gap - label_right, s * co.width)
            shown, fs_h = fit_text(
                face.entry_hex, room, fs_max, font, where=(*face.origin, "entry", "hex"), what="counter entry hex"
            )
            c.text(left - gap, base, shown, font=font, size=fs_h, anchor="end", fill=ink)
            left -= gap + text_width(shown, fs_h, font)
        return left
    text = "sub" if face.substitute else face.setup
    if not text:
        return right
    if face.substitute:
        font = _ITALIC[font]
    shown, fs = fit_text(
        text,
        max(right - label_right, s * co.width),
        fs_max,
        font,
        where=() if face.substitute else (*face.origin, "setup"),
        what="counter setup hex",
    )
    c.text(right, base, shown, font=font, size=fs, anchor="end", fill=ink)
    return right - text_width(shown, fs, font)


def _anchored(x: float, width: float, anchor: str) -> float:
    """The left edge of a text ``width`` wide anchored at ``x``."""
    return x - (width if anchor == "end" else width / 2 if anchor == "middle" else 0.0)


def draw_face(
    c: DrawCanvas | Canvas, face: Face, *, s: float, bleed: float = 0.0, rotate: int = 0, name: str = ""
) -> None:
    """Draw ``face`` as a counter ``s`` points across whose trim box's top-left corner is the origin of ``c``
    (a :class:`forge.canvas.Canvas`, y down); colour runs ``bleed`` past the trim line; ``rotate`` 180 turns the
    face about its centre (the backs of a short-edge-flip sheet).  Where each part goes comes from the current
    counter template (templates/counter.yaml, :func:`forge.templates.counter_layout`).

    A bare reportlab canvas is accepted too, as before the canvas protocol: its current origin is then the trim
    box's lower-left corner (reportlab's y-up space).  On a recording canvas the face is the container of what
    is drawn on it (``name``: which counter, for the layout report).
    """
    if isinstance(c, Canvas):
        c = PdfCanvas(c, top=s)
    t = counter_layout(s)
    ink = face.ink
    with c.saved(), c.frame("container", 0, 0, s, s, name or f"counter {face.label or face.text or ''}".strip()):
        if rotate:
            c.translate(s / 2, s / 2)
            c.rotate(rotate)
            c.translate(-s / 2, -s / 2)
        c.rect(-bleed, -bleed, s + 2 * bleed, s + 2 * bleed, fill=face.background)
        if face.frame:
            inset = s * t.frame.inset
            lw = max(t.frame.min_line_pt, s * t.frame.line)
            c.rect(inset, inset, s - 2 * inset, s - 2 * inset, stroke=ink, width=lw)
        if face.kind == "unit":
            _unit_face(c, face, s, t)
        elif face.kind == "marker":
            # The whole box: a long reminder wraps onto as many lines as the counter holds.  A formation's marker
            # prints the formation's code in the label's place, and its text keeps to the box below.
            mk = t.marker
            font = _FONTS[mk.font]
            mw, mh = s * mk.w, s * mk.h
            box_top = mk.py(s, mh)
            if face.label:
                code_at = (*face.origin, "group")
                _fitted(c, s, "label", t.label, face.label, ink, where=code_at, what="marker formation code")
                mh = max(0.0, box_top + mh - s * mk.group_y)
                box_top = s * mk.group_y
            with _part(c, s, "marker"):
                lines, fs = wrap_text(
                    stand_in(face.text or ""),
                    mw,
                    mh,
                    max(MIN_TEXT_PT, s * mk.size),
                    font,
                    leading=mk.leading,
                    where=(*face.origin, face.text_key),
                    what="counter marker text",
                )
                lead = fs * mk.leading
                # Centred in the box (0.8: a line's baseline below its top).
                top = box_top + mh / 2 - len(lines) * lead / 2 + fs * 0.8
                cx = mk.px(s, mw) + mw / 2
                for i, ln in enumerate(lines):
                    draw_write_in_text(
                        c, cx, top + i * lead, ln, font=font, size=fs, anchor="middle", fill=ink, box=t.write_in
                    )
        elif face.label:
            label_at = (*face.origin, "label")
            _fitted(c, s, "back_label", t.back_label, face.label, ink, where=label_at, what="counter back label")
        if face.set_code and face.kind != "unit":  # a unit face has it in its top row (off the strength)
            _fitted(c, s, "back_set_code", t.back_set_code, face.set_code, ink, what="counter set code (--sets)")


def _fitted(
    c: DrawCanvas, s: float, name: str, part: Text, text: str, ink: str, *, where: Where = (), what: str
) -> None:
    """``text`` in the template's text ``part`` (its key ``name``), set smaller to fit its width (never below
    :data:`MIN_TEXT_PT`; cut short with a warning located at ``where`` if even that does not fit)."""
    font = _FONTS[part.font]
    with _part(c, s, name):
        shown, fs = fit_text(text, s * part.width, max(MIN_TEXT_PT, s * part.size), font, where=where, what=what)
        c.text(part.px(s), part.py(s), shown, font=font, size=fs, anchor=part.anchor, fill=ink)


def _draw_marked_symbol(c: DrawCanvas, face: Face, x: float, y: float, w: float, h: float, lw: float) -> None:
    """The unit's NATO symbol, its box marked as :data:`forge.render.style.MARKINGS` ``[face.marking]`` says:
    plain; solid (filled with the ink, the icon in the background colour); hatched; or framed twice."""
    assert face.unit_type is not None
    kind = MARKINGS[min(face.marking, len(MARKINGS) - 1)]
    ink, bg = face.ink, face.background
    if kind == "solid symbol box":
        nato.draw_symbol(c, face.unit_type, x=x, y=y, w=w, h=h, ink=bg, fill=ink, line_width=lw)
        c.rect(x, y, w, h, stroke=ink, width=lw)
        return
    if kind == "hatched symbol box":
        with c.saved():
            c.clip_rect(x, y, w, h)
            step = h / 3.5
            k = 0.0
            while k < w + h:
                c.line(x + k, y, x + k - h, y + h, stroke=ink, width=lw * 0.45)
                k += step
    if kind == "double symbol box":
        gap = lw * 1.6
        c.rect(x - gap, y - gap, w + 2 * gap, h + 2 * gap, stroke=ink, width=lw * 0.6)
    nato.draw_symbol(c, face.unit_type, x=x, y=y, w=w, h=h, ink=ink, line_width=lw)


def _unit_face(c: DrawCanvas, face: Face, s: float, t: CounterLayout) -> None:
    ink = face.ink
    # Label (the unit's id) top-left; the corner (setup hex / entry turn / "sub") top-right.
    lb, co, sc = t.label, t.corner, t.set_code
    lfont = _FONTS[lb.font]
    label_max = max(MIN_TEXT_PT, s * lb.size)
    where = (*face.origin, "label")
    label, fs = fit_text(face.label, s * lb.width, label_max, lfont, report=False)
    label_x = _anchored(lb.px(s), text_width(label, fs, lfont), lb.anchor)
    label_right = label_x + text_width(label, fs, lfont)
    right = co.px(s)
    if face.set_code:  # at the foot it would run into the strength
        side = face.setup or face.entry_turn is not None or face.substitute
        tc: Text = t.set_code_side if side else sc
        font = _FONTS[tc.font]
        with _part(c, s, "set_code_side" if side else "set_code"):
            code, cfs = fit_text(
                face.set_code, s * tc.width, max(MIN_TEXT_PT, s * tc.size), font, what="counter set code (--sets)"
            )
            if side:
                # The top row is taken: on its side along the right edge (its baseline shift x its size right of x).
                with c.saved():
                    c.translate(tc.px(s) - cfs * t.set_code_side.shift, tc.py(s))
                    c.rotate(-90)
                    c.text(0, 0, code, font=font, size=cfs, anchor=tc.anchor, fill=ink)
            else:
                c.text(sc.px(s), sc.py(s), code, font=font, size=cfs, anchor=sc.anchor, fill=ink)
                right = _anchored(sc.px(s), text_width(code, cfs, font), sc.anchor) - s * sc.gap
    gap = s * co.gap
    with _part(c, s, "corner"):
        corner_left = _corner(c, face, s, t, label_right + gap, right)
    room = s * lb.width
    if label_right > corner_left - gap:  # share the row: give the label what the corner leaves
        room = corner_left - gap - label_x
    label, fs = fit_text(face.label, room, label_max, lfont, where=where, what="counter label")
    with _part(c, s, "label"):
        c.text(lb.px(s), lb.py(s), label, font=lfont, size=fs, anchor=lb.anchor, fill=ink)
    # The symbol box, with its size mark above it.
    sy = t.symbol
    bw, bh = s * sy.w, s * sy.h
    bx, by = sy.px(s, bw), sy.py(s, bh)  # by: the box's top edge
    with _part(c, s, "symbol"):
        if face.unit_type is not None:
            # The HQ staff hangs 30% of the frame's height below it: a shorter frame keeps it off the strength.
            fh = bh / 1.3 if face.unit_type is UnitType.HQ else bh
            lw = max(sy.min_line_pt, s * sy.line)
            pad = 3 * lw  # the frame's stroke, a double box; the HQ staff is inside bh
            key = ("symbol", face.unit_type, face.marking, bw, bh, fh, lw, ink, face.background)
            with c.frame("symbol", bx, by, bw, bh, "unit symbol"):
                _reused(
                    c,
                    key,
                    bx - pad,
                    by - pad,
                    bw + 2 * pad,
                    bh + 2 * pad,
                    lambda ox, oy: _draw_marked_symbol(c, face, ox + pad, oy + pad, bw, fh, lw),
                )
    if face.size is not None:
        sm = t.size_mark
        mh = s * sm.h
        mw = nato.size_mark_width(face.size, mh)
        cx, gap_y = bx + bw / 2, s * sm.gap
        size, pad = face.size, mh  # room for the strokes' width and caps
        with _part(c, s, "size_mark"), c.frame("symbol", cx - mw / 2, by - gap_y - mh, mw, mh, "size mark"):
            _reused(
                c,
                ("size mark", size, mh, ink),
                cx - mw / 2 - pad,
                by - gap_y - mh - pad,
                mw + 2 * pad,
                mh + 2 * pad,
                lambda ox, oy: nato.draw_size_mark(c, size, cx=ox + pad + mw / 2, y=oy + pad + mh, height=mh, ink=ink),
            )
    # Steps lost, shown on reduced faces.
    if face.step > 0 and face.steps > 1:
        with _part(c, s, "steps"):
            _step_track(c, face, s, t)
    # Strength along the foot.
    if face.strength is not None:  # numbers the rules do not give are write-in boxes
        st = t.strength
        font = _FONTS[st.font]
        with _part(c, s, "strength"):
            shown, fs = fit_text(
                stand_in(face.strength),
                s * st.width,
                max(MIN_TEXT_PT, s * st.size),
                font,
                where=(*face.origin, "steps", face.step),
                what="counter strength",
            )
            if face.strength_runs and shown == stand_in(face.strength):
                _draw_runs(c, face, st.px(s), st.py(s), font=font, size=fs, anchor=st.anchor, box=t.write_in)
            else:
                draw_write_in_text(
                    c, st.px(s), st.py(s), shown, font=font, size=fs, anchor=st.anchor, fill=ink, box=t.write_in
                )


def _backing(colour: str | None, background: str) -> str | None:
    """The chip a value printed in ``colour`` needs on ``background`` to be read (white, or black for a light
    colour), or None when the colour stands out on its own: apart in lightness or in hue.

    >>> _backing("#c8102e", "#c8102e"), _backing("#c8102e", "#efe6c8"), _backing("#c8102e", "#2f5d9e")
    ('#ffffff', None, None)
    """
    if colour is None:
        return None
    a, b = HexColor(colour), HexColor(background)
    apart = ((a.red - b.red) ** 2 + (a.green - b.green) ** 2 + (a.blue - b.blue) ** 2) ** 0.5
    if apart >= 0.55 or abs(_luma(colour) - _luma(background)) >= 0.42:
        return None
    return "#ffffff" if _luma(colour) < 0.5 else "#000000"


def _draw_runs(
    c: DrawCanvas, face: Face, x: float, y: float, *, font: str, size: float, anchor: Anchor, box: WriteIn
) -> None:
    """``face``'s strength in its runs of colour (:attr:`Face.strength_runs`), placed as the whole text would be;
    an underlined run (a coloured value in greyscale) is underlined in the ink."""
    runs = [(stand_in(text), colour, under) for text, colour, under in face.strength_runs]
    total = sum(text_width(text, size, font) for text, _, _ in runs)
    x0 = x - (total / 2 if anchor == "middle" else total if anchor == "end" else 0.0)
    for text, colour, under in runs:
        w = text_width(text, size, font)
        chip = _backing(colour, face.background)
        if chip is not None:  # a value in (nearly) the counter's own colour would vanish: print it on a chip
            pad = size * 0.08
            c.rect(x0 - pad, y - size * 0.8, w + 2 * pad, size * 0.92, fill=chip, stroke=None, width=0)
        draw_write_in_text(c, x0, y, text, font=font, size=size, anchor="start", fill=colour or face.ink, box=box)
        if under:
            uy = y + size * 0.06
            c.line(x0, uy, x0 + w, uy, stroke=face.ink, width=max(0.4, size * 0.07))
        x0 += w


# ------------------------------------------------------------------------------------------------ sheets
def _text(c: Canvas, x: float, y: float, text: str, size: float, font: str, anchor: str = "left") -> None:
    """Page-level text on the reportlab canvas (y up)."""
    c.setFont(font, size)
    if anchor == "centre":
        c.drawCentredString(x, y, text)
    elif anchor == "right":
        c.drawRightString(x, y, text)
    else:
        c.drawString(x, y, text)


def sheet_layout(options: BuildOptions) -> SheetLayout:
    """The counter grid for ``options``' paper, counter size and bleed."""
    w, h = options.paper_size()
    return counter_sheet(w, h, options.counter_points(), margin=MARGIN, bleed=BLEED if options.bleed else 0.0)


def _pad_groups(groups: Sequence[Sequence[Piece]], columns: int) -> list[Piece | None]:
    items: list[Piece | None] = []
    for g in groups:
        if items and len(items) % columns:
            items += [None] * (columns - len(items) % columns)
        items += list(g)
    return items


def _flip(options: BuildOptions) -> Flip:
    return "short" if options.flip == "short" else "long"


def _inch_label(points: float) -> str:
    named = {36.0: "1/2 in", 40.5: "9/16 in", 45.0: "5/8 in", 54.0: "3/4 in"}
    return named.get(round(points, 3), f"{points / 72:.3g} in")


def _page_furniture(
    c: Canvas,
    layout: SheetLayout,
    *,
    left: str,
    right: str,
    footer: Sequence[str],
    scale_bar: bool,
    title: str = "",
    recorder: Recorder | None = None,
    key: Sequence[tuple[str | None, str]] = (),
) -> None:
    """Header (top margin) and footer lines (bottom margin), drawn through a y-down canvas (recording them when
    ``recorder`` is given); the counter ``key`` (:func:`counter_key`) follows the footer lines."""
    w, h = layout.paper_w, layout.paper_h
    pc = PdfCanvas(c, top=h, recorder=recorder)
    ink = DEFAULT_COLORS["ink"]
    x0, x1 = layout.margin_x, w - layout.margin_x
    ext = layout.extent()
    top_base = min(30.0, max(ext.y - 26.0, 24.0))
    right_w = text_width(right, 8, FONT_BOLD) if right else 0.0
    shown, fs = fit_line(
        left, x1 - x0 - right_w - 12, 8.5, font=FONT_BOLD, where=("game", "title"), what="sheet header", name=title
    )
    pc.text(x0, top_base, shown, size=fs, font=FONT_BOLD, fill=ink)
    if right:
        pc.text(x1, top_base, right, size=8, font=FONT_BOLD, anchor="end", fill=ink)
    y = h - max(h - ext.bottom - 22.0, 28.0)
    bar = U.length("2in") if scale_bar else 0.0
    key_lines = _key_lines(key, x1 - x0, _KEY_PT) if key else []
    n = len(footer) + len(key_lines)
    lead = 8.0 if ext.bottom + 8.0 * n + 6.0 <= h - PRINTABLE_MARGIN else 7.0
    # Every line above the printer's unprintable edge (the grid's foot leaves at least the sheet's margin).
    y = max(ext.bottom + 9.0, min(y, h - PRINTABLE_MARGIN - 2.0 - lead * (n - 1)))
    for i, line in enumerate(footer):
        room = x1 - x0 - (bar + 10 if i == 0 else 0)
        shown, fs = fit_text(line, room, 6.5, FONT, what="sheet footer")
        pc.text(x0, y + i * lead, shown, size=fs, font=FONT, fill=ink)
    for i, entries in enumerate(key_lines):
        _draw_key(pc, x0, y + (len(footer) + i) * lead, entries, first=i == 0, ink=ink)
    if scale_bar:
        bx = x1 - bar
        with pc.frame("symbol", bx, y - 5.5 - 0.3, bar, 3.5 + 0.6, "scale bar"):
            pc.line(bx, y - 2, x1, y - 2, stroke=ink, width=0.6)
            for k in range(9):
                t = 3.5 if k % 4 == 0 else 2.0
                pc.line(bx + k * bar / 8, y - 2, bx + k * bar / 8, y - 2 - t, stroke=ink, width=0.6)
        pc.text(bx - 3, y, "2 in:", size=5.5, font=FONT, anchor="end", fill=ink)


_KEY_PT = 6.5
_KEY_SEP = " \u00b7  "


def _draw_key(
    pc: DrawCanvas, x: float, y: float, entries: Sequence[tuple[str | None, str]], *, first: bool, ink: str
) -> None:
    """One line of the counter key at baseline ``y``: "Key:" on the first, a swatch before a formation's name."""
    fs = _KEY_PT
    if first:
        pc.text(x, y, "Key:", size=fs, font=FONT_BOLD, fill=ink)
        x += text_width("Key: ", fs, FONT_BOLD)
    for i, (sw, text) in enumerate(entries):
        if sw is not None:
            with pc.frame("symbol", x, y - fs * 0.75, fs * 0.9, fs * 0.9, f"key swatch {text}"):
                pc.rect(x, y - fs * 0.75, fs * 0.9, fs * 0.9, fill=sw, stroke=ink, width=0.3)
            x += fs + 2
        pc.text(x, y, text + (_KEY_SEP.rstrip() if i < len(entries) - 1 else ""), size=fs, font=FONT, fill=ink)
        x += text_width(text + _KEY_SEP, fs, FONT)


def _draw_marks(c: Canvas, layout: SheetLayout, slots: list[Slot], recorder: Recorder | None = None) -> None:
    """Cut lines along the counters' edges (sheets without bleed) and crop marks around the printed block."""
    h = layout.paper_h
    paint = paints()  # not inside forge verify's text-only copies (forge.canvas.text_only)
    if not layout.bleed and paint:
        c.setStrokeColor(_c(_CUT))
        c.setLineWidth(0.3)
        for (xa, ya), (xb, yb) in cut_lines(layout, slots):
            c.line(xa, h - ya, xb, h - yb)
    if paint:
        c.setStrokeColor(_c(DEFAULT_COLORS["crop"]))
        c.setLineWidth(0.4)
    for (xa, ya), (xb, yb) in crop_marks(layout, slots, edge=20.0, length=10.0):
        if paint:
            c.line(xa, h - ya, xb, h - yb)
        if recorder is not None:
            box = Box(min(xa, xb) - 0.2, min(ya, yb) - 0.2, max(xa, xb) + 0.2, max(ya, yb) + 0.2)
            recorder.add("mark", box, "crop mark")


def sheet_count(game: Game, options: BuildOptions, *, mode: Mode | None = None, set_code: str | None = None) -> int:
    """Counter sheets :func:`draw_counter_pages` draws (each a front page and a back page), without drawing."""
    layout = sheet_layout(options)
    groups = pieces(game, mode=mode or ("grey" if options.greyscale else "colour"), set_code=set_code)
    return len(place(_pad_groups(groups, layout.columns), layout))


def draw_counter_pages(
    c: Canvas,
    game: Game,
    options: BuildOptions,
    *,
    mode: Mode | None = None,
    set_code: str | None = None,
    first_page: int = 1,
    recorder: Recorder | None = None,
) -> int:
    """Draw the counter sheets of ``game`` on ``c``, front page then back page for each sheet; return how many
    pages were drawn.  ``first_page`` is the PDF page number the first front lands on (for the back-page
    notes). ``set_code`` is printed on every back and in every header (class sets).  A ``recorder`` notes what
    each page places (:mod:`forge.layout`)."""
    layout = sheet_layout(options)
    flip = _flip(options)
    mode = mode or ("grey" if options.greyscale else "colour")
    groups = pieces(game, mode=mode, set_code=set_code)
    items = _pad_groups(groups, layout.columns)
    pages = place(items, layout)
    s = layout.counter
    h = layout.paper_h
    bleed = layout.bleed
    rot = back_rotation(flip)
    size_txt = _inch_label(s)
    mm = s * 25.4 / 72
    note = unknown_marker_note(game)
    marks = marking_note(game, mode)
    footer = [
        f"Counters {size_txt} ({mm:.1f} mm). Print at 100% / actual size, double-sided, "
        f"flip on the {flip} edge.",
        *([note] if note else []),
        *([marks] if marks else []),
    ]
    title = game.game.title
    tag = f"Set {set_code}" if set_code else ""
    key = counter_key(game, groups)
    for page in pages:
        n = len(pages)
        front_no = first_page + 2 * page.number
        sheet = f"{set_code + ' ' if set_code else ''}counter sheet {page.number + 1}"
        # Front.
        if recorder is not None:
            recorder.page(layout.paper_w, h, f"{sheet} fronts", margin=PRINTABLE_MARGIN)
        _page_furniture(
            c,
            layout,
            left=f"{title}: counters, sheet {page.number + 1} of {n}, FRONTS",
            right=tag,
            footer=footer,
            scale_bar=True,
            title=title,
            recorder=recorder,
            key=key,
        )
        for k, (slot, piece) in enumerate(page.items):
            r = layout.trim(slot)
            c.saveState()
            c.translate(r.x, h - r.bottom)  # reportlab origin at the trim lower-left: the face top is s above
            face = PdfCanvas(c, top=s, recorder=recorder)
            draw_face(face, piece.front, s=s, bleed=bleed, name=f"counter {k + 1} front ({piece.front.label})")
            c.restoreState()
        _draw_marks(c, layout, [slot for slot, _ in page.items], recorder)
        c.showPage()
        # Back: each back behind its front, mirrored for the flip, corrected for the printer's offset.
        if recorder is not None:
            recorder.page(layout.paper_w, h, f"{sheet} backs", margin=PRINTABLE_MARGIN)
        _page_furniture(
            c,
            layout,
            left=f"{title}: counters, sheet {page.number + 1} of {n}, BACKS (reverse of page {front_no})",
            right=tag,
            footer=footer,
            scale_bar=False,
            title=title,
            recorder=recorder,
            key=key,
        )
        # No guides on the backs: sheets are cut from the front.
        for k, (slot, piece) in enumerate(page.items):
            r = back_rect(slot, layout, flip=flip, back_offset=options.back_offset)
            c.saveState()
            c.translate(r.x, h - r.bottom)
            face = PdfCanvas(c, top=s, recorder=recorder)
            draw_face(face, piece.back, s=s, bleed=bleed, rotate=rot, name=f"counter {k + 1} back ({piece.back.label})")
            c.restoreState()
        c.showPage()
    return 2 * len(pages)


# ------------------------------------------------------------------------------------------------ calibration
_MM = 72 / 25.4


def calibration_points(layout: SheetLayout) -> list[tuple[float, float]]:
    """Where the calibration crosses sit on the front (y-down): the centre and four points near the
    corners."""
    w, h = layout.paper_w, layout.paper_h
    dx, dy = U.length("1.6in"), U.length("2.4in")
    return [(w / 2, h / 2), (dx, dy), (w - dx, dy), (dx, h - dy), (w - dx, h - dy)]


def _cross_with_scales(c: Canvas, *, x: float, y: float, sx: int, sy: int) -> None:
    """A cross at ``(x, y)`` (y-up) whose arms are ±6 mm scales: ticks every 0.5 mm, numbers every 2 mm, and
    the sign of the offset at each end (``sx``/``sy``: the sign of a ring seen right of / below the cross)."""
    arm = 7 * _MM
    c.setLineWidth(0.5)
    c.line(x - arm, y, x + arm, y)
    c.line(x, y - arm, x, y + arm)
    c.setLineWidth(0.3)
    # Pinwheel: each half-arm carries its ticks and numbers on its own side: no two scales share a quadrant.
    for k in range(-12, 13):
        if k == 0:
            continue
        d = k * 0.5 * _MM
        t = 4.5 if k % 4 == 0 else (3.2 if k % 2 == 0 else 2.0)
        side = 1 if k > 0 else -1
        c.line(x + d, y, x + d, y - side * t)  # horizontal: right half below the arm, left half above
        c.line(x, y - d, x - side * t, y - d)  # vertical: lower half left of the arm, upper half right
        if k % 4 == 0:
            n = str(abs(k) // 2)
            _text(c, x + d, y - 10 if k > 0 else y + 6.5, n, 5, FONT, "centre")
            _text(c, x - 6.5 if k > 0 else x + 6.5, y - d - 1.8, n, 5, FONT, "right" if k > 0 else "left")
    sign = {1: "+", -1: "\u2212"}
    _text(c, x + arm + 2, y - 1.9, f"DX{sign[sx]}", 5.5, FONT_BOLD)
    _text(c, x - arm - 2, y - 1.9, f"DX{sign[-sx]}", 5.5, FONT_BOLD, "right")
    _text(c, x, y - arm - 7, f"DY{sign[sy]}", 5.5, FONT_BOLD, "centre")
    _text(c, x, y + arm + 2.5, f"DY{sign[-sy]}", 5.5, FONT_BOLD, "centre")


def _ruler(c: Canvas, *, x: float, y: float, length_mm: int) -> None:
    c.setLineWidth(0.35)
    c.line(x, y, x + length_mm * _MM, y)
    for k in range(length_mm + 1):
        t = 7.0 if k % 10 == 0 else (4.5 if k % 5 == 0 else 2.5)
        c.line(x + k * _MM, y, x + k * _MM, y + t)
        if k % 10 == 0:
            _text(c, x + k * _MM, y + 9, str(k // 10), 5.5, FONT, "centre")
    _text(c, x + length_mm * _MM + 4, y + 1, "cm", 6, FONT)


def _inch_ruler(c: Canvas, *, x: float, y: float, inches: int) -> None:
    c.setLineWidth(0.35)
    c.line(x, y, x + inches * 72, y)
    for k in range(inches * 8 + 1):
        t = 7.0 if k % 8 == 0 else (4.5 if k % 4 == 0 else 2.5)
        c.line(x + k * 9, y, x + k * 9, y - t)
        if k % 8 == 0:
            _text(c, x + k * 9, y - 14, str(k // 8), 5.5, FONT, "centre")
    _text(c, x + inches * 72 + 4, y - 5, "in", 6, FONT)


def draw_calibration(c: Canvas, options: BuildOptions, *, title: str = "") -> int:
    """A duplex calibration sheet (front page, then back page); returns 2.

    The front carries crosses with ±5 mm scales and two rulers; the back carries rings at the matching
    positions, drawn exactly as counter backs are (mirrored for the flip, with the current ``back_offset``
    applied).  Held to the light, each ring's centre falls on the scales at the offset still to correct,
    labelled so it can be passed straight to ``--back-offset`` (added to the offset already in use).
    """
    layout = sheet_layout(options)
    flip = _flip(options)
    w, h = layout.paper_w, layout.paper_h
    ink = _c(DEFAULT_COLORS["ink"])
    # Signs: a back misregistration (dx, dy) shows from the front as offset_on_front((dx, dy)).
    ux, _ = offset_on_front((1.0, 0.0), flip)
    _, vy = offset_on_front((0.0, 1.0), flip)
    cur = options.back_offset
    cur_txt = f"{cur[0] / _MM:+.1f}mm,{cur[1] / _MM:+.1f}mm"
    # ---- front
    c.setFillColor(ink)
    c.setStrokeColor(ink)
    head, hs = fit_line(
        f"Duplex calibration: FRONT{(' (' + title + ')') if title else ''}",
        w - 108,
        14,
        font=FONT_BOLD,
        where=("game", "title"),
        what="calibration page title",
        name=title or None,
    )
    _text(c, 54, h - 60, head, hs, FONT_BOLD)
    how = (
        f"Print pages 1-2 double-sided at 100% (actual size), flipping on the {flip} edge. Hold the sheet "
        "to the light: read where the centre of each ring printed on the back falls on the cross's scales "
        "(in mm, sign at the arm's end) and pass it as --back-offset DXmm,DYmm, added to the offset in use "
        f"(now {cur_txt})."
    )
    lines, fs = wrap_text(how, w - 108, 60, 8.5, FONT)
    for i, ln in enumerate(lines):
        _text(c, 54, h - 80 - i * fs * 1.3, ln, fs, FONT)
    for px, py in calibration_points(layout):
        # A ring seen u mm right of the cross means dx = u * ux; v mm below it (y-down) means dy = v * vy.
        _cross_with_scales(c, x=px, y=h - py, sx=int(ux), sy=int(vy))
    _ruler(c, x=72, y=110, length_mm=100)
    _inch_ruler(c, x=72, y=86, inches=4)
    _text(
        c,
        72,
        60,
        "100 mm and 4 in rulers: measure them to check the printer did not scale the page.",
        7,
        FONT,
    )
    c.showPage()
    # ---- back
    c.setFillColor(ink)
    c.setStrokeColor(ink)
    _text(c, 54, h - 60, "Duplex calibration: BACK (reverse of page 1)", 14, FONT_BOLD)
    shown, fs = fit_text(
        "The rings below should sit exactly behind the crosses on the front when the offset is right.",
        w - 108,
        8.5,
    )
    _text(c, 54, h - 80, shown, fs, FONT)
    dx, dy = cur
    for px, py in calibration_points(layout):
        bx, by = flip_point((px, py), layout, flip)  # the flip is an involution: front point -> back point
        bx, by = bx - dx, by - dy
        x, y = bx, h - by
        c.setLineWidth(1.2)
        c.circle(x, y, 3.5 * _MM, stroke=1, fill=0)
        c.setLineWidth(0.5)
        c.line(x - 3.5 * _MM, y, x + 3.5 * _MM, y)
        c.line(x, y - 3.5 * _MM, x, y + 3.5 * _MM)
        c.circle(x, y, 0.6, stroke=0, fill=1)
    c.showPage()
    return 2


# ------------------------------------------------------------------------------------------ template check
def _samples() -> list[Face]:
    """Faces that use every part of the layout, with typical content."""
    ink, bg = "#000000", "#c8d8e8"

    def unit(label: str, strength: str, kind: UnitType = UnitType.INFANTRY, **more: Any) -> Face:
        return Face("unit", bg, ink, label, kind, UnitSize.DIVISION, strength, **more)

    return [
        unit("2/101", "6-4-5", steps=2, setup="0412", frame=True),
        unit("2/101", "3-4-5", steps=4, step=2, substitute=True, set_code="A"),
        unit("11", "4-6", entry_turn="12", entry_hex="W", set_code="A"),
        unit("XL", "1-1", UnitType.HQ, set_code="A"),
        Face("marker", bg, ink, text="Out of Supply", set_code="A"),
        Face("plain", bg, ink, "2/101", set_code="A", frame=True),
        # What the faces above leave out: a one-letter label or back (the largest type, never shrunk to fit),
        # brackets (deeper than digits), write-in boxes in a strength, a marker's text and the entry circle.
        unit("B", "[?]-(3)", UnitType.ARMOUR, entry_turn="?", entry_hex="W"),
        Face("marker", bg, ink, text="? VP", set_code="A"),
        Face("plain", bg, ink, "B"),
        # A formation's marker: its code in the label's place, a two-line text below it.
        Face("marker", bg, ink, "5GCC", text="Support +2", set_code="A"),
        # and one whose text fills the box below the code: a box that reaches up to the code shows here.
        Face("marker", bg, ink, "5GCC", text="Support fire: two columns left, once a turn"),
    ]


def check_template(templates: Templates) -> None:
    """The layout checker on a counter template (``forge build --templates``): draw sample faces with ``templates``
    at every counter size on a recording canvas; raise a :class:`LoadError` located at the template's parts when a
    text runs off the face or two parts overlap.

    An error, not a warning: the template is the designer's own file, the fault is the same on every counter of
    every game, and it is found before a single file is written."""
    import io

    from ..layout import TOUCH

    source = templates.counter_source
    found: dict[tuple[tuple[str, ...], str], list[str]] = {}  # (parts, what) -> the sizes it happens at
    with use(templates):
        for size in SIZES:
            s = U.length(size)
            rec = Recorder("template check")
            rec.page(s * 4, s * 4, size)
            c = Canvas(io.BytesIO(), pagesize=(s * 4, s * 4))
            for k, face in enumerate(_samples()):
                c.saveState()
                c.translate(s, s)
                draw_face(PdfCanvas(c, top=s, recorder=rec), face, s=s, name=f"sample {k + 1}")
                c.restoreState()
            for parts, message in _violations(rec, TOUCH):
                sizes = found.setdefault((parts, message), [])
                if size not in sizes:
                    sizes.append(size)
    base = shipped().counter
    problems: list[Problem] = []
    for (parts, message), sizes in found.items():
        at_sizes = "at every counter size" if len(sizes) == len(SIZES) else "at " + ", ".join(sizes)
        # Blame the parts this template changes from the shipped one (all of them when it changes none or all).
        changed = [p for p in parts if _changed(templates.counter, base, p, sizes)]
        for part in changed if 0 < len(changed) < len(parts) else parts:
            if len(parts) == 2:  # an overlap
                other = parts[1] if part == parts[0] else parts[0]
                message = f"the {part} overlaps the {other} on the counter face"
            problems.append(source.problem(_where(templates.counter, part, sizes), f"{message} ({at_sizes})"))
    if problems:
        raise LoadError(problems)


def _changed(tpl: CounterTemplate, shipped: CounterTemplate, part: str, sizes: list[str]) -> bool:
    return any(getattr(tpl.at(size), part) != getattr(shipped.at(size), part) for size in sizes)


def _where(tpl: CounterTemplate, part: str, sizes: list[str]) -> tuple[str | int, ...]:
    """The key path of ``part`` in the template: its per-size override when one of ``sizes`` overrides it."""
    for size in sizes:
        over = tpl.sizes.get(size)  # type: ignore[call-overload]
        if over is not None and getattr(over, part, None) is not None:
            return ("sizes", size, part)
    return (part,)


def _violations(rec: Recorder, touch: float) -> Iterator[tuple[tuple[str, ...], str]]:
    """(parts, message) for each text or symbol that leaves its face and each overlap of two parts on one face (texts
    and symbols alike: unlike on a map, no two parts of a counter are drawn to share room)."""
    items = rec.items

    def lineage(i: int) -> tuple[str | None, int | None]:
        part, p = None, items[i].parent
        while p is not None and p >= 0:
            label = items[p].label
            if part is None and label.startswith(ELEMENT):
                part = label[len(ELEMENT) :]
            if items[p].kind == "container" and label.startswith("sample"):
                return part, p
            p = items[p].parent
        return part, None

    drawn: list[tuple[int, str, int]] = []
    for i, it in enumerate(items):
        if it.kind not in ("text", "symbol"):
            continue
        part, face = lineage(i)
        if part is None or face is None:
            continue
        if not it.box.inside(items[face].box, touch):  # a symbol off its face lands on the next counter
            yield (part,), f"the {part} runs off the counter face"
        drawn.append((i, part, face))
    for n, (a, pa, fa) in enumerate(drawn):
        for b, pb, fb in drawn[n + 1 :]:
            if fa != fb or items[a].box.overlap(items[b].box) <= touch:
                continue
            if pa == pb:  # one part's own pieces: only a write-in box over the text around it is a fault
                boxed = [x for x in (a, b) if items[x].label == WRITE_IN_BOX]
                if len(boxed) != 1:
                    continue
                yield ("write_in", pa), "overlap"  # the write_in template part shapes the box
                continue
            yield (pa, pb), "overlap"



# ------------------------------------------------------------------------------------------------ entry point
def render(game: Game, options: BuildOptions, *, recorder: Recorder | None = None) -> bytes:
    """The counters PDF: a duplex calibration sheet (unless ``options.calibration`` is off), then each counter
    sheet's fronts and backs (a ``recorder`` notes what the counter sheets place, :mod:`forge.layout`)."""

    def draw(c: Canvas) -> None:
        n = draw_calibration(c, options, title=game.game.title) if options.calibration else 0
        draw_counter_pages(c, game, options, first_page=n + 1, recorder=recorder)

    return render_pdf(options.paper_size(), draw, title=f"{game.game.title}: counters")
