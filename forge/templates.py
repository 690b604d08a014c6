"""Layout templates: where each part of a counter face goes (``templates/counter.yaml``), and the measures and type
sizes of the reference cards (``templates/card.yaml``).

The shipped templates live in the repository's ``templates/`` folder; ``forge build --templates DIR`` reads a user's
copies from ``DIR`` instead (a file missing there falls back to the shipped one).  A template is read by the same
YAML reader and reported through the same located errors as a game file (:mod:`forge.loader`): a bad key or value
is a :class:`forge.errors.LoadError` naming the template's file, line and column.

A counter template is also checked against the layout checker's rules before anything is printed
(:func:`forge.render.counters.check_template`, which the CLI runs after :func:`load`):
sample faces are drawn with it at every counter size on a recording canvas (:class:`forge.canvas.Recorder`), and a
text that runs off the face, or two parts that overlap, is a located error naming the parts.  An error, not a
warning: the template is the designer's own file, the fault is the same on every counter of every game, and it is
found before a single file is written.

Renderers ask for the layout of the counter size they draw (:func:`counter_layout`); the builder makes a user's
templates current for one build with :func:`use`.

A counter template's lengths are fractions of the counter's edge, from the face's edges; a card template's are
points.  docs/TEMPLATES.md describes the format; ``templates/counter.schema.json`` and ``templates/card.schema.json``
are the JSON Schemas (``python -m forge.templates counter > templates/counter.schema.json``, likewise ``card``).
The classes are :mod:`forge.modelkit` Structs, as the game model's: a good template is read by msgspec without
pydantic; a refused one is read again by the pydantic mirror (:mod:`forge.modelmirror`) for its located messages,
which also writes the schemas.
A card template's margin is checked against the printer margin (:func:`check_card`); the cards' PDF is
checked for overlaps (:func:`forge.layout.check_pdf`), so the rest of a card template is checked by its schema only.
"""

import json
import os
import types
import typing
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, TypeVar

import msgspec

from .errors import LoadError, Problem
from .keypath import Document
from .modelkit import Base, Field, construct, field_validator, model_validator, type_hints, validate

__all__ = [
    "SHIPPED",
    "CardTemplate",
    "CounterLayout",
    "CounterTemplate",
    "Templates",
    "Text",
    "WriteIn",
    "card_layout",
    "check_card",
    "counter_layout",
    "load",
    "schema_json",
    "shipped",
    "use",
]

_T = TypeVar("_T", bound=Base)

SHIPPED = Path(__file__).parent / "_templates"
"""The shipped templates: the repository's ``templates/`` folder, which ``forge/_templates`` links to, so that a
wheel carries them as package data (pyproject.toml) and an editable install reads the folder itself."""
COUNTER_FILE = "counter.yaml"
CARD_FILE = "card.yaml"
SIZES = ("1/2in", "9/16in", "5/8in", "3/4in")
"""The counter sizes a template may override values for (``forge build --counter-size``)."""

Positive = Annotated[float, Field(gt=0.0, le=2.0)]


class _Part(Base):
    # A number is not text in a template (``margin: 25`` is refused, not read as "25"): pydantic's default, which the
    # game model changes (forge.modelkit).
    __text_from_numbers__ = False


class _PlacedBy:
    """What a part placed by x or right, and y or bottom, has: the check that it gives one of each, and its place on a
    face (a mixin: msgspec's classes take one parent with fields, and Symbol and Steps are lines too)."""

    __slots__ = ()
    x: float | None
    right: float | None
    y: float | None
    bottom: float | None

    @model_validator(mode="after")
    def _one_of_each(self) -> Any:
        for a, b in (("x", "right"), ("y", "bottom")):
            if (getattr(self, a) is None) == (getattr(self, b) is None):
                raise ValueError(f"give either {a!r} or {b!r} (one of them, not both)")
        return self

    def px(self, s: float, w: float = 0.0) -> float:
        """The x of the part (of a part ``w`` points wide: its left edge) on a face ``s`` points across."""
        return s * self.x if self.x is not None else s - s * (self.right or 0.0) - w

    def py(self, s: float, h: float = 0.0) -> float:
        """The y of the part (of a part ``h`` points high: its top), from the top edge."""
        return s * self.y if self.y is not None else s - s * (self.bottom or 0.0) - h


Edge = Annotated[float, Field(ge=-1.0, le=2.0)]
PLACED = ("x", "right", "y", "bottom")


class _Placed(_Part, _PlacedBy, kw_only=True):
    """A part placed by x (from the left edge) or right (from the right edge), and y (from the top edge) or bottom
    (from the bottom edge): one of each."""

    x: Edge | None = None
    """From the face's left edge (or give right)."""
    right: Edge | None = None
    """From the face's right edge (or give x)."""
    y: Edge | None = None
    """From the face's top edge (or give bottom)."""
    bottom: Edge | None = None
    """From the face's bottom edge (or give y)."""


class Text(_Placed, kw_only=True):
    """A text placed by its anchor point: x (or right) is where the anchor sits, y (or bottom) the baseline."""

    anchor: Literal["start", "middle", "end"]
    """Which end of the text sits at x: start (runs right from x), middle (centred on x), end (ends at x)."""
    size: Positive
    """Largest font size, as a fraction of the edge (a text that does not fit its width is set smaller, never below
    5 pt)."""
    width: Positive
    """Room the text may take."""
    font: Literal["regular", "bold"]
    """Typeface: regular or bold."""


class Corner(Text, kw_only=True):
    """The top-right corner of a unit face: setup hex, or "sub" (in italic) on a substitute counter."""

    gap: Annotated[float, Field(ge=0.0, le=1.0)]
    """Space kept between the label and the corner."""


class SetCode(Text, kw_only=True):
    """The set code on a unit face (class sets), in the top row."""

    gap: Annotated[float, Field(ge=0.0, le=1.0)]
    """Space kept between the set code and the corner to its left."""


class Line(_Part, kw_only=True):
    line: Annotated[float, Field(gt=0.0, le=0.5)]
    """Line width, as a fraction of the edge."""
    min_line_pt: Annotated[float, Field(gt=0.0, le=5.0)]
    """The line is never thinner than this, in points."""


class Frame(Line, kw_only=True):
    """The inner frame that tells a second side apart where colour cannot (greyscale palettes)."""

    inset: Annotated[float, Field(ge=0.0, le=0.5)]
    """Distance from the edge."""


class Entry(Line, kw_only=True):
    """The circled entry turn of a reinforcement, in the corner's place (the entry hex left of it).  The circle's
    measures are multiples of the turn number's font size."""

    size: Positive
    """Font size of the turn number, as a fraction of the edge."""
    max_pt: Annotated[float, Field(gt=0.0, le=72.0)]
    """The turn number is never larger than this, in points."""
    hex_gap: Annotated[float, Field(ge=0.0, le=1.0)]
    """Space between the entry hex and the circle."""
    circle_pad: Annotated[float, Field(ge=0.0, le=2.0)]
    """The circle's radius: half the number's width and this much (x the font size)."""
    circle_min: Annotated[float, Field(gt=0.0, le=3.0)]
    """The circle's least radius (x the font size)."""
    write_in_radius: Annotated[float, Field(gt=0.0, le=3.0)]
    """Radius of the empty circle printed when the rules do not give the turn (x the font size)."""
    centre_raise: Annotated[float, Field(ge=-2.0, le=2.0)]
    """The circle's centre above the number's baseline (x the font size)."""


class SideText(Text, kw_only=True):
    """A text on its side (reading downwards), centred on (x, y)."""

    shift: Annotated[float, Field(ge=-2.0, le=2.0)]
    """Its baseline this much right of x (x its font size)."""


class WriteIn(_Part, kw_only=True):
    """The empty box printed for a number the rules do not give (in a strength or a marker's text).  Its measures
    are multiples of the text's font size (width: of the width of a digit-sized box character)."""

    inset: Annotated[float, Field(ge=0.0, le=1.0)]
    """From the left of the character's room."""
    width: Positive
    """Of the character's room."""
    height: Positive
    """Height (x the font size)."""
    top: Annotated[float, Field(ge=-2.0, le=2.0)]
    """Top edge above the baseline (x the font size)."""
    line: Annotated[float, Field(gt=0.0, le=0.5)]
    """Line width (x the font size)."""
    min_line_pt: Annotated[float, Field(gt=0.0, le=5.0)]
    """The line is never thinner than this, in points."""


class Area(_Placed, kw_only=True):
    """A box: x (or right) its left (right) edge, y (or bottom) its top (bottom) edge."""

    w: Positive
    """Width."""
    h: Positive
    """Height."""


class Symbol(Line, _PlacedBy, kw_only=True):
    """The NATO symbol box of a unit face."""

    # An Area and a Line: the fields in the order that inheriting from both gave them (pydantic's)
    __field_docs__: ClassVar[dict[str, str]] = {**dict.fromkeys(PLACED, "_Placed"), "w": "Area", "h": "Area"}
    x: Edge | None = None
    right: Edge | None = None
    y: Edge | None = None
    bottom: Edge | None = None
    w: Positive
    h: Positive


class SizeMark(_Part, kw_only=True):
    """The unit size mark (I, II, X, XX ...), centred above the symbol box."""

    h: Positive
    """Height."""
    gap: Annotated[float, Field(ge=0.0, le=1.0)]
    """Space between the mark and the symbol box."""


class Steps(Line, _PlacedBy, kw_only=True):
    """The step dots of a reduced unit face: one per step, filled for the steps left, read in rows; (x, y) is the
    centre of the first dot."""

    # placed, and a line: the fields in the order that inheriting from both gave them (pydantic's)
    __field_docs__: ClassVar[dict[str, str]] = dict.fromkeys(PLACED, "_Placed")
    x: Edge | None = None
    right: Edge | None = None
    y: Edge | None = None
    bottom: Edge | None = None
    r: Positive
    """Dot radius."""
    pitch: Positive
    """From one dot's centre to the next (across and down)."""
    per_row: Annotated[int, Field(ge=1, le=12)]
    """Dots in a row."""


class MarkerText(Area, kw_only=True):
    """A marker's text, wrapped and centred in this box."""

    size: Positive
    """Largest font size, as a fraction of the edge."""
    leading: Annotated[float, Field(ge=0.8, le=3.0)]
    """Line spacing, as a multiple of the font size."""
    font: Literal["regular", "bold"]
    """Typeface: regular or bold."""
    group_y: Annotated[float, Field(ge=0.0, le=1.0)]
    """The box's top edge on the faces of a marker that belongs to a formation (``markers[].group``): its code is
    printed in the label's place, top left, and the text keeps to the box below it."""


class CounterLayout(_Part, kw_only=True):
    """The layout of a counter face at one size."""

    padding: Annotated[float, Field(ge=0.0, le=0.5)]
    """Inner margin of the face."""
    frame: Frame
    label: Text
    """Unit faces: the unit's id, top left; a formation's marker: the formation's code."""
    corner: Corner
    entry: Entry
    set_code: SetCode
    set_code_side: SideText
    """Unit faces with a set code when the top row is taken: on its side along the right edge, centred on (x, y)."""
    symbol: Symbol
    size_mark: SizeMark
    steps: Steps
    strength: Text
    """Unit faces: the strength along the foot."""
    marker: MarkerText
    back_label: Text
    """Plain backs: the unit's id."""
    back_set_code: Text
    """Marker faces and plain backs with a set code."""
    write_in: WriteIn


class TextStyle(_Part, kw_only=True):
    """A text style of the cards' charts."""

    size: Annotated[float, Field(gt=0.0, le=72.0)]
    """Font size in points (never set below 5 pt)."""
    font: Literal["regular", "bold"]
    """Typeface: regular or bold."""


class Heading(TextStyle, kw_only=True):
    space_before: Annotated[float, Field(ge=0.0, le=72.0)]
    """Space above, in points."""
    space_after: Annotated[float, Field(ge=0.0, le=72.0)]
    """Space below, in points."""


class CardStyles(_Part, kw_only=True):
    """The text styles of the charts (cards and the class handout's player aids)."""

    body: TextStyle
    """Running text: notes, the sequence of play."""
    small: TextStyle
    """Footnotes."""
    cell: TextStyle
    """Table cells."""
    cell_c: TextStyle
    """Centred table cells (numbers)."""
    head: TextStyle
    """Table headers."""
    head_c: TextStyle
    """Centred table headers."""
    h1: Heading
    """A chart's title."""
    h2: Heading
    """A section inside a chart."""


class TitleBar(_Part, kw_only=True):
    """The coloured bar across the top of each card (points)."""

    height: Annotated[float, Field(gt=0.0, le=144.0)]
    title_size: Annotated[float, Field(gt=0.0, le=72.0)]
    """The game's title, left."""
    title_baseline: Annotated[float, Field(ge=0.0, le=144.0)]
    """Above the bar's bottom edge."""
    label_size: Annotated[float, Field(gt=0.0, le=72.0)]
    """"Reference card N", right."""
    label_baseline: Annotated[float, Field(ge=0.0, le=144.0)]
    gap: Annotated[float, Field(ge=0.0, le=144.0)]
    """Least space between the title and the label."""


class TableLayout(_Part, kw_only=True):
    """The charts' tables (points)."""

    padding_x: Annotated[float, Field(ge=0.0, le=36.0)]
    """Cell padding, left and right."""
    padding_y: Annotated[float, Field(ge=0.0, le=36.0)]
    """Cell padding, top and bottom."""
    rule: Annotated[float, Field(ge=0.0, le=6.0)]
    """Width of the rule below each row."""
    outline: Annotated[float, Field(ge=0.0, le=6.0)]
    """Width of the table's outline."""


class CrtStyle(_Part, kw_only=True):
    """The combat results table's cells."""

    size: Annotated[float, Field(gt=0.0, le=72.0)]
    """Font size in points."""
    leading: Annotated[float, Field(gt=0.0, le=144.0)]
    """Line spacing in points."""


class CardTemplate(_Part, kw_only=True):
    """templates/card.yaml: the layout of the reference cards and the type sizes of the charts (points)."""

    margin: str
    """Around and between the cards of a page: a length with its unit (0.35in, 9mm, 25pt)."""
    padding: Annotated[float, Field(ge=0.0, le=144.0)]
    """Inside a card, between its edge and its charts."""
    corner_radius: Annotated[float, Field(ge=0.0, le=72.0)]
    edge_line: Annotated[float, Field(ge=0.0, le=12.0)]
    """Width of the card's outline."""
    title_bar: TitleBar
    leading: Annotated[float, Field(ge=0.8, le=3.0)]
    """Line spacing of every text style, as a multiple of its size."""
    styles: CardStyles
    table: TableLayout
    crt: CrtStyle

    @field_validator("margin")
    @classmethod
    def _length(cls, v: str) -> str:
        from . import units as U

        if U.length(v) > 144.0:
            raise ValueError(f"{v!r} is more than 2in (a card margin)")
        return v

    @property
    def margin_pt(self) -> float:
        from . import units as U

        return U.length(self.margin)


def _not_both(self: Any) -> Any:
    """A per-size override places a part by x or right (y or bottom), not both: the other is the template's."""
    for a, b in (("x", "right"), ("y", "bottom")):
        if getattr(self, a) is not None and getattr(self, b) is not None:
            raise ValueError(f"give either {a!r} or {b!r} (one of them, not both)")
    return self


def _partial(model: type[Base], name: str) -> type[Base]:
    """``model`` with every field optional (a per-size override gives only what changes), with the same bounds: an
    override that :meth:`CounterTemplate.at` merges into a valid layout is a valid layout.  One class per part
    class, made when this module is imported (a module-level name, as the pydantic mirror finds its classes)."""
    made = globals().get(name)
    if made is not None:
        return typing.cast(type[Base], made)
    ns: dict[str, Any] = {"__module__": __name__, "__qualname__": name, "__doc__": None}
    notes: dict[str, Any] = {}
    docs: dict[str, str] = {}
    hints = type_hints(model)  # not fields_of: msgspec's field list evaluates the annotations again
    for key in model.__struct_fields__:
        tp: Any = hints[key]
        if isinstance(tp, type) and issubclass(tp, Base):
            tp = _partial(tp, tp.__name__ + "Override")
        notes[key] = tp | None
        ns[key] = None
        docs[key] = next(c.__name__ for c in model.__mro__ if key in vars(c).get("__annotations__", {}))
    ns["__annotations__"] = notes
    ns["__field_docs__"] = {k: getattr(model, "__field_docs__", {}).get(k, d) for k, d in docs.items()}
    if set(PLACED) <= set(notes):
        ns["_not_both"] = model_validator(mode="after")(_not_both)
    made = types.new_class(name, (_Part,), {}, lambda body: body.update(ns))
    globals()[name] = made
    return made


LayoutOverride: Any = _partial(CounterLayout, "LayoutOverride")


class CounterTemplate(CounterLayout, kw_only=True):
    """templates/counter.yaml: the layout of a counter face (fractions of the edge, from the top-left corner)."""

    sizes: dict[Literal["1/2in", "9/16in", "5/8in", "3/4in"], "LayoutOverride"] = msgspec.field(default_factory=dict)
    """Per counter size: any of the parts above, with only the values that change at that size."""

    def at(self, size: str | None) -> CounterLayout:
        """The layout at counter size ``size`` (``5/8in``): this template with that size's overrides.  Not validated
        again: the template and its overrides were (the overrides have the layout's bounds, and place a part from
        one edge of each pair at most), so the merge is a valid layout (tests/test_startup.py checks it)."""
        values = {key: getattr(self, key) for key in CounterLayout.__struct_fields__}
        over = self.sizes.get(size) if size else None  # type: ignore[call-overload]
        if over is not None:
            for key in over.__struct_fields__:
                value = getattr(over, key)
                if value is None:
                    continue
                if isinstance(value, Base):
                    part = values[key]
                    merged = {k: getattr(part, k) for k in part.__struct_fields__}
                    given = {k: v for k in value.__struct_fields__ if (v := getattr(value, k)) is not None}
                    for a, b in (("x", "right"), ("y", "bottom"), ("right", "x"), ("bottom", "y")):
                        if a in given and b in merged:
                            merged[b] = None  # the override places it from the other edge
                    value = construct(type(part), {**merged, **given})
                values[key] = value
        return construct(CounterLayout, values)


@dataclass(frozen=True, eq=False)
class Source:
    """Where a template came from: its file, and the position of each key in it."""

    file: str
    doc: Document | None = None

    def problem(self, path: tuple[str | int, ...], message: str) -> Problem:
        from .keypath import dotted

        mark = self.doc.mark(path, key=True) if self.doc is not None else None
        return Problem(self.file, mark[0] if mark else None, mark[1] if mark else None, dotted(path), message)


@dataclass(frozen=True, eq=False)
class Templates:
    """The templates of one build."""

    counter: CounterTemplate
    counter_source: Source
    card: CardTemplate

    def counter_at(self, points: float) -> CounterLayout:
        return _at(self, _size_name(points))


@lru_cache(maxsize=32)
def _at(t: Templates, size: str | None) -> CounterLayout:
    return t.counter.at(size)


@lru_cache(maxsize=64)
def _size_name(points: float) -> str | None:
    """The name of the counter size ``points`` across (None: not one of :data:`SIZES`); asked once per counter
    face, and a size's name is parsed with fractions (kept: 6 % of a sheet's drawing)."""
    from . import units as U

    return next((n for n in SIZES if abs(U.length(n) - points) < 1e-6), None)


# --------------------------------------------------------------------------------------------------- reading
def _read(path: Path) -> bytes:
    """The bytes of a template: a regular file of at most 8 MiB, like a game file (a FIFO would block, /dev/zero
    never end), else a located :class:`LoadError`."""
    from .loader import read_regular

    return read_regular(path, "a YAML layout template")


def _parse(path: Path, model: type[_T]) -> tuple[_T, Source]:
    """The template in ``path``, validated (forge.modelkit: msgspec for a good file; a bad one gets pydantic's
    messages from the model's mirror, located in the file)."""
    from .loader import _decode, _schema_problems, parse_yaml

    file = str(path)
    raw = _read(path)
    if not raw.strip():
        raise LoadError([Problem(file, None, None, "", "the template is empty (expected a mapping of layout values)")])
    doc = parse_yaml(_decode(raw, file), file, top="a mapping of layout values")
    try:
        tpl = validate(model, doc.data)
    except ValueError as e:  # pydantic's ValidationError, from the mirror
        from pydantic import ValidationError

        from .modelmirror import mirror_of

        if not isinstance(e, ValidationError):  # pragma: no cover - validate raises nothing else
            raise
        raise LoadError(_schema_problems(doc, file, e, root=mirror_of(model))) from None
    return tpl, Source(file, doc)


def load(folder: str | Path | None = None) -> Templates:
    """The templates in ``folder`` (each file missing there: the shipped one), checked; the shipped templates when
    ``folder`` is None.  Raises :class:`LoadError` naming the file, line and column of a problem (the problems of
    every file at once)."""
    if folder is None:
        return _shipped()
    if not str(folder):  # Path("") is the current folder: say what was given instead
        what = "an empty folder name (--templates expects a folder of templates)"
        raise LoadError([Problem("''", None, None, "", what)])
    d = Path(folder)
    if not d.is_dir():
        what = "no such folder" if not d.exists() else "is not a folder"
        raise LoadError([Problem(str(d), None, None, "", f"{what} (--templates expects a folder of templates)")])
    shipped = _shipped()
    problems: list[Problem] = []
    counter, counter_source, card = shipped.counter, shipped.counter_source, shipped.card
    if os.path.lexists(d / COUNTER_FILE):  # a broken link or a link loop is an error, not a missing file
        try:
            counter, counter_source = _parse(d / COUNTER_FILE, CounterTemplate)
        except LoadError as e:
            problems += e.problems
    if os.path.lexists(d / CARD_FILE):
        try:
            card, card_source = _parse(d / CARD_FILE, CardTemplate)
            problems += check_card(card, card_source)
        except LoadError as e:
            problems += e.problems
    if problems:
        raise LoadError(problems)
    return Templates(counter, counter_source, card)


@lru_cache(maxsize=1)
def shipped() -> Templates:
    """The shipped templates (``templates/``)."""
    return _shipped()


@lru_cache(maxsize=1)
def _shipped() -> Templates:
    counter, source = _parse(SHIPPED / COUNTER_FILE, CounterTemplate)
    card, _ = _parse(SHIPPED / CARD_FILE, CardTemplate)
    return Templates(counter, source, card)


# ------------------------------------------------------------------------------------------------ current
_current: ContextVar[Templates | None] = ContextVar("forge_templates", default=None)


@contextmanager
def use(templates: Templates | None) -> Iterator[None]:
    """Make ``templates`` the ones renderers use inside the ``with`` block (None: the shipped ones)."""
    token = _current.set(templates)
    try:
        yield
    finally:
        _current.reset(token)


def current() -> Templates:
    return _current.get() or _shipped()


def counter_layout(points: float) -> CounterLayout:
    """The counter layout for an edge of ``points`` in the current templates."""
    return current().counter_at(points)


def card_layout() -> CardTemplate:
    """The card layout in the current templates."""
    return current().card


# ----------------------------------------------------------------------------------------------- checking
ELEMENT = "template part "
"""Prefix of the label of the frame each part of a face is drawn in (a recording canvas names the part)."""


def check_card(card: CardTemplate, source: Source) -> list[Problem]:
    """What the layout checker's margin rule says of ``card`` before anything is drawn: a card (its outline and title
    bar) must stay out of the printer margin (:data:`forge.tiling.PRINTABLE_MARGIN`)."""
    from .tiling import PRINTABLE_MARGIN

    if card.margin_pt + 1e-9 < PRINTABLE_MARGIN:
        need = f"{PRINTABLE_MARGIN / 72 * 25.4:g} mm"
        return [source.problem(("margin",), f"{card.margin!r} puts the cards in the printer margin (at least {need})")]
    crt = card.crt
    if crt.leading + 1e-9 < CRT_MIN_LEADING * crt.size:  # a point size with its line spacing, as the styles' leading
        return [
            source.problem(
                ("crt", "leading"),
                f"{crt.leading:g} pt is less than {CRT_MIN_LEADING:g} x crt.size {crt.size:g} pt: the table's lines "
                f"would print over each other (expected at least {CRT_MIN_LEADING * crt.size:g} pt)",
            )
        ]
    return _check_card_room(card, source)


CRT_MIN_LEADING = 0.8
"""The least line spacing of the combat results table, as a multiple of its type size: the least ``leading`` the
text styles take (less and a cell's lines print over each other)."""


CARD_ROOM = (144.0, 72.0)
"""The least room (points across, down) the charts of a card may have: 2 x 1 in.  Less, and a chart cannot be
printed even cut short (a card whose room is negative would take no chart at all)."""


def _check_card_room(card: CardTemplate, source: Source) -> list[Problem]:
    """The room a card leaves its charts, on the smallest card of every paper: two cards to a page, ``margin``
    around and between them, the title bar and ``padding`` inside (as :func:`forge.render.cards.card_regions` and
    its chrome lay them out: the charts start ``padding`` below the bar and end 0.8 x ``padding`` above the foot)."""
    from . import units as U

    m, pad, bar = card.margin_pt, card.padding, card.title_bar.height
    worst: tuple[float, float, str] | None = None
    for paper, (pw_text, ph_text) in U.PAPER.items():
        w = U.length(pw_text) - 2 * m - 2 * pad
        h = (U.length(ph_text) - 3 * m) / 2 - bar - 1.2 * pad
        if (w < CARD_ROOM[0] or h < CARD_ROOM[1]) and (worst is None or min(w, h) < min(worst[0], worst[1])):
            worst = (w, h, paper)
    if worst is None:
        return []
    w, h, paper = worst
    # Name the measure this template changed (the margin, the padding or the title bar), the padding when none.
    base = _shipped().card
    key: tuple[str, ...] = next(
        (k for k, a, b in (
            (("padding",), pad, base.padding),
            (("margin",), m, base.margin_pt),
            (("title_bar", "height"), bar, base.title_bar.height),
        ) if a != b),
        ("padding",),
    )
    return [
        source.problem(
            key,
            f"margin {card.margin}, padding {pad:g} and title_bar.height {bar:g} leave the charts of a card "
            f"{w:.0f} x {h:.0f} pt on {paper} paper (expected at least {CARD_ROOM[0]:g} x {CARD_ROOM[1]:g} pt: "
            "a smaller margin, padding or title bar)",
        )
    ]


# ------------------------------------------------------------------------------------------------- schema
def schema_json(kind: str = "counter") -> str:
    """The JSON Schema of templates/<kind>.yaml (templates/<kind>.schema.json): ``counter`` or ``card``: the pydantic
    mirror's (forge.modelmirror), with the fields' docstrings as descriptions."""
    from .modelmirror import mirror_of

    model = mirror_of(CounterTemplate if kind == "counter" else CardTemplate, documented=True)
    schema = model.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = f"Hexforge {kind} template"
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":  # python -m forge.templates counter|card > templates/<kind>.schema.json
    import sys

    sys.stdout.write(schema_json(sys.argv[1] if len(sys.argv) > 1 else "counter"))
