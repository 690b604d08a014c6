"""VASSAL 3.7 module export: the game as a ``.vmod`` that VASSAL opens and plays.

Intended command line (``forge export vassal GAME.yaml [--out DIR]``): :func:`export` writes
``DIR/<game id>/<game id>.vmod`` (``DIR`` defaults to ``output``), built with the ``pywargame`` library (the optional
extra ``hexforge[vassal]``).  The module holds:

- **the map** as one board image (the printed map sheet, untiled, at ``dpi``, 300 by default) with a hidden hex
  (or square) grid whose numbering gives every space the name the printed map gives it, in any label scheme
  (letter-row, letter-column, xxyy, col,row; rows counted up or down).  The grid's origin, spacing and numbering
  are computed from :mod:`forge.hexgrid`'s exact geometry (:func:`grid_spec`);
- **every counter** as a piece: its front image with its back as a flip layer (Ctrl-F), the faces drawn by
  :mod:`forge.render.images`, the same code that draws the counter sheets;
- **at start**: each unit's counter on its setup hex; reinforcements in an *Entry* window, one box per entry turn
  (and one for those whose turn the rules do not give, one for units with neither a setup hex nor an entry);
  substitute counters and markers in a *Trays* window, one box per kind; units that set up in a zone
  (``map.setup_zones``) in a *Set-up* window, one at-start stack per zone named for it, and units that start in
  the pool in one stack per turn they become available; a unit that starts reduced shows that face; every box of
  these windows is a zone named for it, so that VASSAL reports a piece there as in its box, not "offboard";
- **charts**: every reference card (the CRT and its shifts, the terrain effects chart, the other tables, the
  sequence of play, victory ...) as an image in a *Charts* window;
- **the game's dice** as a button.

The same game and ``dpi`` give the same bytes: the zip's entries are written in a fixed order with a fixed
timestamp, and every image is rendered deterministically.  A map whose board image would be too large for VASSAL
(or for memory) at the ``dpi`` asked for, or whose grid VASSAL's numbering cannot name, is refused with one located
:class:`~forge.errors.LoadError` before anything is written; without ``--dpi`` the command line exports a large
sheet at the resolution :func:`fit_dpi` chooses instead (and says so).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import io
import math
import re
import sys
import warnings
import zipfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from . import model as m
from . import units as U
from .errors import LoadError, Problem, Where
from .hexgrid import Grid, GridKind, LabelScheme, Orientation, Parity

if TYPE_CHECKING:
    from .templates import Templates

__all__ = [
    "MAX_BOARD_PIXELS",
    "GridSpec",
    "VassalUnavailable",
    "export",
    "fit_dpi",
    "grid_spec",
    "problems",
    "pywargame",
    "refuse",
    "snap",
]

VASSAL_VERSION = "3.7.0"
"""The VASSAL version the module declares (``moduledata``)."""

MAX_BOARD_PIXELS = 80_000_000
"""Largest board image: a 34x22 in sheet at 300 dpi is 67 million pixels; VASSAL tiles big images, but decoding a
larger one needs more than about a gigabyte here and in VASSAL."""

MIN_DPI, MAX_DPI = 20, 600

DEFAULT_DPI = 300
"""The resolution a module is exported at when ``--dpi`` is not given, lowered by :func:`fit_dpi` for a sheet
whose board image would be larger than :data:`MAX_BOARD_PIXELS`."""

ZIP_DATE = (2000, 1, 1, 0, 0, 0)
"""Timestamp of every zip entry: the same input gives the same bytes."""

DATE_SAVED_MS = 946_684_800_000
"""The module's ``dateSaved`` (milliseconds since 1970): :data:`ZIP_DATE`, 2000-01-01 00:00 UTC, the same fixed
instant as the zip's entries.  Not the clock (the same game must give the same bytes) and not 0 (VASSAL would show
the module as saved in 1970); a date derived from the game file's content would be an arbitrary-looking instant
that changes with every edit without meaning anything, so one documented fixed value is used."""

FLIP_KEY = "70,130"
"""Ctrl-F in VASSAL's key-stroke encoding (key code 70, modifier 130 = Ctrl): flips a counter."""

_TRAY_COLUMNS = 6
_PIECE_KEY = re.compile(r"^(?P<marker>marker:)?(?P<id>[^#]+)#(?P<n>\d+)(?:@(?P<copy>\d+))?$")
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


class VassalUnavailable(ImportError):
    """pywargame is missing (or fails to import): the export cannot run.  The message says how to install it."""


# ================================================================================================= pywargame
# pywargame 0.8 (the current release) uses a Python 3.12 f-string form (a backslash inside an f-string's braces)
# in three modules, none of which the export uses; on Python 3.11 those lines are rewritten as they are imported.
_PY311_FIXES: dict[str, list[tuple[bytes, bytes]]] = {
    "pywargame.vassal.traits.sheet": [
        (b"""f'{e["value"].replace("\\n",LINE_DELIM)}'""", b"""str(e["value"].replace(chr(10),LINE_DELIM))"""),
    ],
    "pywargame.vassal.merger": [
        (b"""{"\\n".join(""", b"""{chr(10).join("""),
        (b"""{f"\\n{v.i}".join(""", b"""{(chr(10)+f"{v.i}").join("""),
    ],
    "pywargame.zuntzu.exporter": [
        (b"""{'\\n'.join(""", b"""{chr(10).join("""),
    ],
}


class _Py311Loader(importlib.machinery.SourceFileLoader):
    def get_data(self, path: str) -> bytes:
        data = super().get_data(path)
        if path.endswith(".py"):
            for old, new in _PY311_FIXES.get(self.name, []):
                data = data.replace(old, new)
        return data


class _Py311Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None) -> Any:
        if name not in _PY311_FIXES:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.origin is None:
            return None
        spec.loader = _Py311Loader(name, spec.origin)
        return spec


@contextmanager
def _py311_fixes() -> Iterator[None]:
    finder = _Py311Finder()
    sys.meta_path.insert(0, finder)
    keep = sys.dont_write_bytecode
    sys.dont_write_bytecode = True  # never cache the rewritten modules as if they were the originals
    try:
        yield
    finally:
        sys.dont_write_bytecode = keep
        sys.meta_path.remove(finder)


def pywargame() -> Any:
    """The ``pywargame.vassal`` module; :class:`VassalUnavailable` with the remedy when it cannot be imported."""
    hint = "forge export vassal needs the pywargame library: pip install 'hexforge[vassal]'"
    try:
        with warnings.catch_warnings():  # its sources have invalid escapes: a warning at compile time, not ours
            warnings.simplefilter("ignore")
            if sys.version_info < (3, 12):
                with _py311_fixes():
                    return importlib.import_module("pywargame.vassal")
            return importlib.import_module("pywargame.vassal")
    except ImportError as e:
        raise VassalUnavailable(f"{hint} ({e})") from None
    except SyntaxError as e:  # a pywargame release with 3.12-only syntax this module does not know how to read
        raise VassalUnavailable(
            f"{hint}: this pywargame does not import on Python {sys.version_info.major}.{sys.version_info.minor} "
            f"({e.filename}:{e.lineno}); use Python 3.12 or newer, or pywargame 0.8"
        ) from None


# ====================================================================================================== grid
@dataclass(frozen=True)
class GridSpec:
    """A VASSAL grid and its numbering, in board pixels: the attributes written to ``buildFile.xml``.

    ``kind`` is ``hex`` (``VASSAL.build.module.map.boardPicker.board.HexGrid``) or ``square``.  A hex grid that is
    not ``sideways`` has flat-topped hexes in columns ``dx`` apart, ``dy`` apart down a column, odd columns (counted
    from the origin) half a hex lower; ``sideways`` swaps x and y (pointy hexes in rows).  ``x0``, ``y0`` is the
    centre of the space VASSAL counts as column 0, row 0 (for a sideways grid in the swapped frame).
    """

    kind: str
    sideways: bool
    x0: int
    y0: int
    dx: float
    dy: float
    numbering: dict[str, str] = field(default_factory=dict)


def _line_origin(index: int, spacing: float) -> float:
    """Centre of zig-zag line ``index`` along its axis, as :meth:`Grid.center` puts it (``radius * (1 + 1.5 i)``)."""
    return spacing / 1.5 * (1 + 1.5 * index)


def grid_spec(grid: Grid, size: float, ox: float, oy: float, scale: float, board: tuple[int, int]) -> GridSpec:
    """The VASSAL grid that names every space of ``grid`` as the printed map does.

    ``size`` is the cell size in points (across the flats), ``ox``, ``oy`` the sheet position of the grid's bounding
    box in points, ``scale`` pixels per point and ``board`` the board image's size in pixels (VASSAL counts
    descending numbers from it).  ValueError when VASSAL's numbering cannot give the labels (a label scheme or
    start it has no form for).
    """
    _, bh = board
    letters = grid.labels in (LabelScheme.LETTER_ROW, LabelScheme.LETTER_COLUMN)
    col_type = "A" if grid.labels is LabelScheme.LETTER_COLUMN else "N"
    row_type = "A" if grid.labels is LabelScheme.LETTER_ROW else "N"
    if grid.labels is LabelScheme.XXYY:
        # An xxyy part has two digits, or as many as its largest number needs (hexgrid's rule); VASSAL pads a
        # number to "leading" + 1 digits.
        col_lead = max(2, len(str(grid.first_column + grid.columns - 1))) - 1
        row_lead = max(2, len(str(grid.first_row + grid.rows - 1))) - 1
    else:
        col_lead = row_lead = 0
    sep = "," if grid.labels is LabelScheme.COL_ROW else ""
    column_first = grid.labels is not LabelScheme.LETTER_ROW
    if letters and (grid.first_row if row_type == "A" else grid.first_column) < 1:  # pragma: no cover - loader
        raise ValueError("letters start at A")

    def base(first: int, kind: str) -> int:
        return first - 1 if kind == "A" else first  # VASSAL's letter 0 is A; the game's letter 1 is

    px = scale
    if grid.kind is GridKind.SQUARE:
        x0, y0 = ox + size / 2, oy + size / 2
        spec_x0, spec_y0 = round(x0 * px), round(y0 * px)
        dx = dy = size * px
        max_rows = int(bh / dy + 0.5)
        h_off = base(grid.first_column, col_type)
        if grid.rows_up:
            v_off = grid.rows - 1 + base(grid.first_row, row_type) - max_rows
        else:
            v_off = base(grid.first_row, row_type)
        numbering = _numbering(
            first="H" if column_first else "V",
            sep=sep,
            h=(col_type, col_lead, h_off, False),
            v=(row_type, row_lead, v_off, grid.rows_up),
        )
        return GridSpec("square", False, spec_x0, spec_y0, dx, dy, numbering)

    # Hexes and bricks: VASSAL's hex grid zig-zags along "lines" (flat hex columns; pointy hex or brick rows, as a
    # sideways grid).  VASSAL shoves odd lines counted from its origin; the game shoves odd or even ones.
    flat = grid.kind is GridKind.HEX and grid.orientation is Orientation.FLAT
    sideways = not flat
    shift = 0 if grid.parity is Parity.ODD else 1  # VASSAL line = game line + shift
    if grid.kind is GridKind.OFFSET_SQUARE:
        line_step = along = size  # bricks: rows one square apart, squares one square apart
        line0 = oy + size / 2 - shift * size
    else:
        along = size
        line_step = 1.5 * size / math.sqrt(3.0)  # 1.5 radius between hex columns (rows)
        line0 = (ox if flat else oy) + _line_origin(-shift, line_step)
    lines = grid.columns if flat else grid.rows
    # Along a line: an unshoved line's first centre, as Grid.center places it (a single shoved line starts flush).
    lone = 0.5 if lines == 1 and grid.parity is Parity.EVEN else 0.0
    along0 = (oy if flat else ox) + along * (0.5 - lone)
    spec_x0, spec_y0 = round(line0 * px), round(along0 * px)  # for a sideways grid, in the swapped frame
    dx, dy = line_step * px, along * px
    # VASSAL's "maximum rows" behind descending numbers: the board's height over dx, rounded (HexGridNumbering).
    max_rows = math.floor(bh / dx + 0.5)
    if flat:  # H = columns (lines), V = rows (along)
        h = (col_type, col_lead, base(grid.first_column, col_type) - shift, False)
        if grid.rows_up:
            v = (row_type, row_lead, grid.rows - 1 + base(grid.first_row, row_type) - max_rows, True)
        else:
            v = (row_type, row_lead, base(grid.first_row, row_type), False)
        first = "H" if column_first else "V"
    else:  # sideways: H = rows (lines), V = columns (along); vDescend counts the rows (lines) down
        if grid.rows_up:
            h = (row_type, row_lead, grid.rows - 1 + base(grid.first_row, row_type) - max_rows + shift, False)
        else:
            h = (row_type, row_lead, base(grid.first_row, row_type) - shift, False)
        v = (col_type, col_lead, base(grid.first_column, col_type), grid.rows_up)
        first = "V" if column_first else "H"
    numbering = _numbering(first=first, sep=sep, h=h, v=v)
    return GridSpec("hex", sideways, spec_x0, spec_y0, dx, dy, numbering)


def _java_round(x: float) -> int:
    return math.floor(x + 0.5)  # Java's Math.round: halves up, not to even


def snap(spec: GridSpec, x: float, y: float) -> tuple[int, int]:
    """The pixel VASSAL snaps a piece dropped in the space whose exact centre is ``x``, ``y`` (board pixels) to.

    VASSAL 3.7's ``HexGrid.snapToHex`` finds the space's raw index and puts its centre at ``(int)(dx * nx + x0)``,
    ``(int)(dy * ny + y0)`` (odd lines ``(int)(dy / 2)`` lower), truncating; ``SquareGrid.snapTo`` rounds
    ``x0 + nx * dx`` (in a sideways hex grid x and y are swapped).  An at-start piece placed there is where VASSAL
    would put it if it were picked up and dropped again, rather than up to 1.4 px off.
    """
    if spec.kind == "square":
        nx, ny = _java_round((x - spec.x0) / spec.dx), _java_round((y - spec.y0) / spec.dy)
        return spec.x0 + _java_round(nx * spec.dx), spec.y0 + _java_round(ny * spec.dy)
    if spec.sideways:
        x, y = y, x
    dx, dy, x0, y0 = spec.dx, spec.dy, spec.x0, spec.y0
    nx = math.floor((x - x0 + dx / 2) / dx)
    even = nx % 2 == 0
    ny = math.floor((y - y0 + dy / 2) / dy) if even else math.floor((y - y0) / dy)
    cx = math.trunc(dx * nx + x0)
    cy = math.trunc(dy * ny + y0) if even else math.trunc(dy * ny + math.trunc(dy / 2) + y0)
    return (cy, cx) if spec.sideways else (cx, cy)


def _numbering(*, first: str, sep: str, h: tuple[str, int, int, bool], v: tuple[str, int, int, bool]) -> dict[str, str]:
    def b(x: bool) -> str:
        return "true" if x else "false"

    return {
        "first": first,
        "sep": sep,
        "hType": h[0],
        "hLeading": str(h[1]),
        "hOff": str(h[2]),
        "hDescend": b(h[3]),
        "vType": v[0],
        "vLeading": str(v[1]),
        "vOff": str(v[2]),
        "vDescend": b(v[3]),
        "stagger": "false",
    }


# ================================================================================================== refusals
def _board_pixels(game: m.Game, dpi: int) -> tuple[int, int]:
    from .builder import BuildOptions
    from .render.map import sheet_layout

    lay = sheet_layout(game, BuildOptions())
    return math.ceil(lay.sheet_w / 72 * dpi), math.ceil(lay.sheet_h / 72 * dpi)


def _largest_dpi(sheet_w: float, sheet_h: float, want: int) -> int:
    """The largest resolution at most ``want`` at which a ``sheet_w`` x ``sheet_h`` point sheet's board image has
    at most :data:`MAX_BOARD_PIXELS` pixels (:func:`_board_pixels` rounds each side up); :data:`MIN_DPI` when
    none does (the export then refuses it)."""

    def pixels(dpi: int) -> int:
        return math.ceil(sheet_w / 72 * dpi) * math.ceil(sheet_h / 72 * dpi)

    dpi = min(want, math.floor(math.sqrt(MAX_BOARD_PIXELS / max(sheet_w / 72 * sheet_h / 72, 1e-9))))
    while dpi > MIN_DPI and pixels(dpi) > MAX_BOARD_PIXELS:
        dpi -= 1
    return max(dpi, MIN_DPI)


def fit_dpi(game: m.Game, want: int = DEFAULT_DPI) -> int:
    """The resolution to export ``game`` at: ``want``, or the largest one below it at which the map sheet's board
    image fits :data:`MAX_BOARD_PIXELS` (a 56x32in sheet is exported at about 208 dpi rather than refused).  The
    command line uses it when ``--dpi`` is not given, and says so on stderr when it lowers the resolution."""
    from .builder import BuildOptions
    from .render.map import sheet_layout

    lay = sheet_layout(game, BuildOptions())
    return _largest_dpi(lay.sheet_w, lay.sheet_h, want)


def problems(game: m.Game, *, dpi: int = 300) -> list[tuple[Where, str]]:
    """Why ``game`` cannot be exported at ``dpi``, as (key path, message) pairs; empty when it can."""
    out: list[tuple[Where, str]] = []
    g = game.map.grid.grid()
    w, h = _board_pixels(game, dpi)
    if w * h > MAX_BOARD_PIXELS:
        sheet = f"{game.map.sheet} " if game.map.sheet else ""
        area = MAX_BOARD_PIXELS / dpi**2
        fits = fit_dpi(game, dpi)
        remedy = (
            f"export it at --dpi {fits} or less (without --dpi the resolution is lowered to fit)"
            if fits < dpi and math.prod(_board_pixels(game, fits)) <= MAX_BOARD_PIXELS
            else "expected a smaller map sheet"
        )
        out.append(
            (
                ("map", "sheet") if game.map.sheet else ("map", "grid"),
                f"the {sheet}map sheet is {w}x{h} pixels at {dpi} dpi, more than the {MAX_BOARD_PIXELS:,} a VASSAL "
                f"board image may have here (a sheet of at most about {area:,.0f} square inches at {dpi} dpi): "
                f"{remedy}",
            )
        )
    from .rules.combat import dice_spec

    try:
        dice_spec(game.game.dice)
    except ValueError as e:
        out.append((("game", "dice"), f"{e}: the module's dice button needs plain dice"))
    if g.labels is LabelScheme.COL_ROW and (g.first_column < 0 or g.first_row < 0):  # pragma: no cover - loader
        out.append((("map", "grid"), "VASSAL cannot number negative columns or rows"))
    try:
        grid_spec(g, U.length(game.map.hex_size), 0.0, 0.0, dpi / 72, (max(w, 1), max(h, 1)))
    except ValueError as e:
        out.append((("map", "grid"), f"VASSAL's grid numbering cannot name these spaces: {e}"))
    return out


def refuse(game: m.Game, file: str, *, dpi: int = 300) -> None:
    """Raise :class:`LoadError` with every reason ``game`` (read from ``file``) cannot be exported, located at the
    value in ``file`` it comes from; return when it can."""
    found = problems(game, dpi=dpi)
    if not found:
        return
    raise LoadError([_problem(file, path, msg) for path, msg in found])


def _problem(file: str, path: Where, message: str) -> Problem:
    from .loader import locate_in_file

    line, col, dotted = locate_in_file(file, path) if file else (None, None, ".".join(str(p) for p in path))
    return Problem(file or "<game>", line, col, dotted, message)


# ==================================================================================================== images
def _png(image: Any) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False, compress_level=6)
    return buf.getvalue()


def _raster(pdf: bytes, dpi: int) -> list[Any]:
    """Each page of ``pdf`` as a PIL image (RGB) at ``dpi``."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        out = []
        for i in range(len(doc)):
            page = doc[i]
            out.append(page.render(scale=dpi / 72, may_draw_forms=False).to_pil().convert("RGB"))
            page.close()
        return out
    finally:
        doc.close()


def _card_images(game: m.Game, dpi: int) -> list[tuple[str, bytes]]:
    """The reference cards, one image each, named by their first heading."""
    import pypdfium2 as pdfium

    from .builder import BuildOptions
    from .errors import collect_warnings
    from .render import cards

    options = BuildOptions()
    with collect_warnings():  # the build reports the cards' own warnings; the export draws the same cards
        pdf = cards.render(game, options)
    region = cards.card_regions(options)
    _, ph = options.paper_size()
    s = dpi / 72
    out: list[tuple[str, bytes]] = []
    doc = pdfium.PdfDocument(pdf)
    try:
        for i in range(len(doc)):
            page = doc[i]
            text = page.get_textpage()
            image = page.render(scale=s, may_draw_forms=False).to_pil().convert("RGB")
            for slot in range(2):
                x, y, w, h = region(slot)
                inside = text.get_text_bounded(left=x, bottom=y, right=x + w, top=y + h).split("\n")
                lines = [t.strip() for t in inside if t.strip()]
                if not lines:
                    continue
                heading = lines[1] if len(lines) > 1 else lines[0]
                n = len(out) + 1
                box = (math.floor(x * s), math.floor((ph - y - h) * s), math.ceil((x + w) * s), math.ceil((ph - y) * s))
                name = f"Card {n}: {heading[:40]}"
                out.append((name, _png(image.crop(box))))
            text.close()
            page.close()
    finally:
        doc.close()
    return out


@dataclass
class _Counter:
    key: str
    name: str
    front: str
    back: str
    where: str
    """``setup`` (on the map at ``hex``), ``entry`` (box ``box`` of the Entry window), ``zone`` or ``pool`` (box
    ``box`` of the Set-up window) or ``tray``."""
    box: str = ""
    hex: str = ""
    level: int = 1
    """The face shown at start: 1 the front, 2 the back (a unit that starts reduced)."""


def _counters(game: m.Game, dpi: int) -> tuple[list[_Counter], dict[str, bytes], int]:
    """Every physical counter, the face images (by file name) and the counter's edge in pixels."""
    from .builder import BuildOptions
    from .render import counters, images

    options = BuildOptions()
    s = options.counter_points()
    names: dict[tuple[bool, str, int, str], str] = {}
    files: dict[str, bytes] = {}
    for img in images.face_images(game):
        names[(img.kind == "marker", img.id, img.counter, img.face)] = f"{img.stem}.png"
        svg = images.face_svg(img.image, s=s, id_prefix=f"c-{img.stem}-")
        files[f"{img.stem}.png"] = images.face_png(svg, points=s, dpi=dpi)
    from .rules.kit import setup as kit

    out: list[_Counter] = []
    units = {u.id: u for u in game.units}
    markers = {mk.id: mk for mk in game.markers}
    zone_of = {u.id: kit.zone_of(game, u) for u in game.units} if game.map.setup_zones else {}
    for group in counters.pieces(game):
        for piece in group:
            km = _PIECE_KEY.match(piece.key)
            if km is None:  # pragma: no cover - counters' key format is documented and tested
                raise ValueError(f"unexpected counter key {piece.key!r}")
            is_marker = km["marker"] is not None
            k = 0 if is_marker else int(km["n"])
            front, back = (names[(is_marker, km["id"], k, face)] for face in ("front", "back"))
            if is_marker:
                mk = markers[km["id"]]
                out.append(_Counter(piece.key, mk.name, front, back, "tray", box=f"Markers: {mk.name}"))
                continue
            u = units[km["id"]]
            name = u.name + (f" ({k + 1})" if k else "") + (f" #{km['copy']}" if km["copy"] else "")
            # The counter that shows the unit's starting step is the one set up, turned to that step (the back
            # for a unit that starts reduced); a unit's other counters are substitutes.
            faces = u.counter_faces()
            first = next((i for i, f in enumerate(faces) if u.start_step in f), 0)
            level = 2 if faces[first][1] == u.start_step and u.start_step != faces[first][0] else 1
            zid = zone_of.get(u.id)
            placed = u.setup is not None or zid in game.map.setup_zones or u.pool is not None
            if placed and k != first:
                out.append(_Counter(piece.key, name, front, back, "tray", box="Substitute counters"))
            elif u.setup is not None:
                out.append(_Counter(piece.key, name, front, back, "setup", hex=u.setup, level=level))
            elif zid is not None and zid in game.map.setup_zones:
                box = f"Set up: {_zone_title(game, zid)}"
                out.append(_Counter(piece.key, name, front, back, "zone", box=box, level=level))
            elif u.pool is not None:
                box = "Pool" + (f" from turn {u.pool.from_turn}" if u.pool.from_turn > 1 else "")
                out.append(_Counter(piece.key, name, front, back, "pool", box=box, level=level))
            elif u.entry is not None:  # every counter of a reinforcement waits in its box (as before zones)
                level = level if k == first else 1
                turn = u.entry.turn
                box = f"Turn {turn}" if isinstance(turn, int) else "Turn not given"
                out.append(_Counter(piece.key, name, front, back, "entry", box=box, level=level))
            else:
                out.append(_Counter(piece.key, name, front, back, "entry", box="No setup or entry"))
    return out, files, images.pixels(s, dpi)


def _zone_title(game: m.Game, zid: str) -> str:
    """A set-up zone as its Set-up window box names it: ``Red set-up (cross)``."""
    from .render.map import zone_name

    return f"{zone_name(game, zid)} ({game.map.setup_zones[zid].symbol.value})"


def _font(px: int) -> Any:
    from PIL import ImageFont

    return ImageFont.truetype(str(Path(__file__).resolve().parent / "fonts" / "DejaVuSans-Bold.ttf"), px)


Box = tuple[int, int, int, int]


def _tray(
    title: str, boxes: list[tuple[str, int]], piece: int
) -> tuple[bytes, int, int, dict[str, list[tuple[int, int]]], dict[str, Box]]:
    """A plain board with one labelled box per ``(name, counters)``: the PNG, its size, each box's slots and each
    box's rectangle (left, top, right, bottom, in pixels)."""
    from PIL import Image, ImageDraw

    pad = max(4, piece // 6)
    head = max(12, piece // 3)
    slot = piece + pad
    width = pad + _TRAY_COLUMNS * slot + pad
    y = pad + head + pad
    layout: list[tuple[str, int, int, int]] = []
    for name, n in boxes:
        rows = max(1, math.ceil(n / _TRAY_COLUMNS))
        layout.append((name, n, y, rows))
        y += head + rows * slot + 2 * pad
    height = y
    img = Image.new("RGB", (width + 2 * pad, height), (245, 242, 232))
    draw = ImageDraw.Draw(img)
    font = _font(max(8, head * 3 // 4))
    draw.text((pad, pad), title, fill=(20, 20, 20), font=font)
    slots: dict[str, list[tuple[int, int]]] = {}
    rects: dict[str, Box] = {}
    for name, n, top, rows in layout:
        rects[name] = (pad, top, width + pad, top + head + rows * slot + pad)
        draw.rectangle(rects[name], outline=(90, 90, 90), width=2)
        draw.text((2 * pad, top + 2), name, fill=(20, 20, 20), font=font)
        cells = []
        for i in range(n):
            r, c = divmod(i, _TRAY_COLUMNS)
            cells.append((2 * pad + c * slot + piece // 2, top + head + pad + r * slot + piece // 2))
        slots[name] = cells
    return _png(img), img.width, img.height, slots, rects


def _zones(board: Any, rects: dict[str, Box]) -> None:
    """A zone per box of a window's board, named for the box: VASSAL reports a piece there as in that box (its
    location is the box's name) rather than "offboard", which a board without a grid would."""
    zoned = board.addZonedGrid()
    for name, (x0, y0, x1, y1) in rects.items():
        zoned.addZone(name=name, locationFormat="$name$", path=f"{x0},{y0};{x1},{y0};{x1},{y1};{x0},{y1}")


# ==================================================================================================== module
def _plain(name: str) -> str:
    """A piece name without the characters VASSAL's piece encoding splits on (``/ ; , |``, tab, backslash)."""
    return re.sub(r"\s*[/;,|\\\t]+\s*", " - ", name).strip(" -") or "piece"


def _safe(text: str) -> str:
    return _UNSAFE.sub("_", text).lstrip(".") or "_"


def _dice_buttons(game: m.Game) -> list[tuple[int, int]]:
    """The game's dice, then the CRT's if they differ and are plain dice (not "1d6 to 3d6 by magnitude")."""
    from .rules.combat import dice_spec

    out = [dice_spec(game.game.dice)]
    crt = game.combat.crt
    if crt is not None:
        try:
            extra = dice_spec(crt.dice)
        except ValueError:
            extra = out[0]
        if extra not in out:
            out.append(extra)
    return out


EXPORT_STEPS = ("board", "counters", "charts", "module")
"""The stages :func:`export` reports to its ``progress`` callback, in order (the command line's progress bar)."""


def build(
    game: m.Game,
    *,
    dpi: int = 300,
    progress: Callable[[str], None] | None = None,
    templates: Templates | None = None,
) -> dict[str, bytes]:
    """The module's files by name (``buildFile.xml``, ``moduledata``, ``images/...``); ``progress`` is told each
    stage of :data:`EXPORT_STEPS` but the last as it starts.  Counters, board and cards are drawn with the layout
    ``templates`` (``forge export --templates``, :func:`forge.templates.load`; None: the shipped ones), as
    ``forge build --templates`` draws them."""
    from .templates import use

    with use(templates):
        return _build(game, dpi=dpi, progress=progress)


def _build(game: m.Game, *, dpi: int, progress: Callable[[str], None] | None) -> dict[str, bytes]:
    from .builder import BuildOptions
    from .errors import collect_warnings
    from .render import map as map_

    v = pywargame()
    options = BuildOptions()
    files: dict[str, bytes] = {}
    gid = _safe(game.game.id)

    tell = progress or (lambda step: None)
    # --- the board
    tell("board")
    lay = map_.sheet_layout(game, options)
    with collect_warnings():  # a build reports the map's own warnings (texts cut short ...); this is the same map
        sheet = map_.sheet_pdf(game, options, layout=lay)
    (board_img,) = _raster(sheet, dpi)
    board_name = f"images/{gid}-map.png"
    files[board_name] = _png(board_img)
    bw, bh = board_img.size
    scale = dpi / 72
    geom = lay.geometry
    spec = grid_spec(geom.grid, geom.size, geom.ox, geom.oy, scale, (bw, bh))

    tell("counters")
    counters, faces, piece_px = _counters(game, dpi)
    for name, data in faces.items():
        files[f"images/{name}"] = data

    build = v.BuildFile()
    title = game.game.title
    mod = build.addGame(
        name=title, version="1", VassalVersion=VASSAL_VERSION, description=f"{title}: exported by Hexforge"
    )
    mod.addBasicCommandEncoder()
    mod.addGlobalOptions()
    roster = mod.addPlayerRoster()
    for side in game.game.sides:
        roster.addSide(side.name)
    mod.addDocumentation()

    # --- the main map
    main = mod.addMap(mapName="Map", markUnmovedText="Clear moved")
    _map_basics(main)
    picker = main.addBoardPicker()
    board = picker.addBoard(name="Map", image=board_name.removeprefix("images/"), width=bw, height=bh)
    if spec.kind == "hex":
        grid = board.addHexGrid(
            color=v.rgb(0, 0, 0),
            dx=spec.dx,
            dy=spec.dy,
            sideways=spec.sideways,
            x0=spec.x0,
            y0=spec.y0,
            visible=False,
            snapTo=True,
        )
    else:
        grid = board.addSquareGrid(dx=spec.dx, dy=spec.dy, x0=spec.x0, y0=spec.y0, visible=False, snapTo=True)
    grid.addNumbering(color=v.rgb(255, 0, 0), visible=False, locationFormat="$gridLocation$", **spec.numbering)

    def piece_slot(c: _Counter) -> Any:
        gpid = mod.nextPieceSlotId()
        face = v.LayerTrait(
            images=[c.front, c.back],
            newNames=["", " (back)"],
            activateName="",
            decreaseName="",
            increaseName="Flip",
            increaseKey=FLIP_KEY,
            decreaseKey="",
            name="Face",
        )
        if c.level != 1:
            face.setLevel(c.level)
        traits = [face, v.BasicTrait(name=_plain(c.name), filename=c.front, gpid=gpid)]
        return traits, gpid

    def at_start(owner: Any, board_name_: str, name: str, x: int, y: int, items: list[_Counter]) -> None:
        stack = owner.addAtStart(name=name, location="", useGridLocation=False, owningBoard=board_name_, x=x, y=y)
        for c in items:
            traits, gpid = piece_slot(c)
            stack.add(v.PieceSlot, entryName=c.key, gpid=gpid, traits=traits, width=piece_px, height=piece_px)

    by_hex: dict[str, list[_Counter]] = {}
    for c in counters:
        if c.where == "setup":
            by_hex.setdefault(c.hex, []).append(c)
    g = geom.grid
    for label in sorted(by_hex, key=lambda lb: g.parse(lb)):
        x, y = geom.center(g.parse(label))
        sx, sy = snap(spec, x * scale, y * scale)  # where VASSAL's own snap puts a piece in this space
        at_start(main, "Map", label, sx, sy, by_hex[label])

    # --- the Entry and Trays windows
    for window, where, icon in (("Entry", "entry", "/images/map.gif"), ("Trays", "tray", "/images/map.gif")):
        boxes: dict[str, list[_Counter]] = {}
        for c in counters:
            if c.where == where:
                boxes.setdefault(c.box, []).append(c)
        if not boxes:
            continue
        order = sorted(boxes, key=_box_key)
        png, tw, th, slots, rects = _tray(
            f"{title}: {window.lower()}", [(b, len(boxes[b])) for b in order], piece_px
        )
        image = f"{gid}-{window.lower()}.png"
        files[f"images/{image}"] = png
        wmap = mod.addMap(mapName=window, buttonName=window, launch="true", icon=icon, hotkey="")
        _map_basics(wmap)
        wboard = wmap.addBoardPicker().addBoard(name=window, image=image, width=tw, height=th)
        _zones(wboard, rects)
        for b in order:
            for c, (x, y) in zip(boxes[b], slots[b], strict=True):
                at_start(wmap, window, f"{b}: {c.key}", x, y, [c])

    # --- the Set-up window: one at-start stack per set-up zone, named for it, and one per pool turn
    boxes = {}
    for c in counters:
        if c.where in ("zone", "pool"):
            boxes.setdefault(c.box, []).append(c)
    if boxes:
        zone_boxes = [f"Set up: {_zone_title(game, zid)}" for zid in game.map.setup_zones]
        order = [b for b in zone_boxes if b in boxes] + sorted((b for b in boxes if b not in zone_boxes), key=_pool_key)
        png, tw, th, slots, rects = _tray(f"{title}: set-up", [(b, 1) for b in order], piece_px)
        image = f"{gid}-setup.png"
        files[f"images/{image}"] = png
        smap = mod.addMap(mapName="Set-up", buttonName="Set-up", launch="true", icon="/images/map.gif", hotkey="")
        _map_basics(smap)
        _zones(smap.addBoardPicker().addBoard(name="Set-up", image=image, width=tw, height=th), rects)
        for b in order:
            ((x, y),) = slots[b]
            at_start(smap, "Set-up", b, x, y, boxes[b])

    # --- charts
    tell("charts")
    cards = _card_images(game, min(dpi, 150))
    if cards:
        charts = mod.addChartWindow(name="Charts", text="Charts", tooltip="Reference cards", description="")
        tabs = charts.addTabs(entryName="Charts")
        for i, (name, png) in enumerate(cards, start=1):
            image = f"{gid}-card{i}.png"
            files[f"images/{image}"] = png
            tabs.addChart(chartName=name, description=name, fileName=image)

    # --- dice: the game's, and the CRT's when it names other dice
    for n, sides in _dice_buttons(game):
        label = f"{n}d{sides}"
        mod.addDiceButton(name=label, text=label, tooltip=f"Roll {label}", nDice=n, nSides=sides, reportTotal=n > 1)

    data = v.ModuleData()
    d = data.addData()
    d.addVersion(version="1")
    d.addVASSALVersion(version=VASSAL_VERSION)
    d.addName(name=title)
    d.addDescription(description=f"{title}: exported by Hexforge")
    d.addDateSaved(milisecondsSinceEpoch=DATE_SAVED_MS)
    files["buildFile.xml"] = build.encode()
    files["moduledata"] = data.encode()
    return files


def _pool_key(name: str) -> tuple[int, str]:
    m_ = re.fullmatch(r"Pool from turn (\d+)", name)
    return (int(m_.group(1)) if m_ else 1, name)


def _box_key(name: str) -> tuple[int, int, str]:
    m_ = re.fullmatch(r"Turn (\d+)", name)
    if m_:
        return (0, int(m_.group(1)), name)
    return (1, 0, name)


def _map_basics(mp: Any) -> None:
    mp.addStackMetrics()
    mp.addForwardToChatter()
    mp.addMenuDisplayer()
    mp.addMapCenterer()
    mp.addStackExpander()
    mp.addPieceMover()
    mp.addKeyBufferer()
    mp.addSelectionHighlighters()
    mp.addHighlightLastMoved()
    mp.addCounterDetailViewer()
    mp.addZoomer()


def zip_bytes(files: dict[str, bytes]) -> bytes:
    """The files as a zip with fixed timestamps and order (``buildFile.xml`` and ``moduledata`` first)."""
    first = ["buildFile.xml", "moduledata"]
    names = [n for n in first if n in files] + sorted(n for n in files if n not in first)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name in names:
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_STORED if name.endswith(".png") else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            z.writestr(info, files[name])
    return buf.getvalue()


def export(
    game: m.Game,
    out_dir: Path | str,
    *,
    dpi: int = 300,
    file: str = "",
    progress: Callable[[str], None] | None = None,
    templates: Templates | None = None,
) -> Path:
    """Write ``out_dir/<game id>/<game id>.vmod`` and return its path.

    The command line is ``forge export vassal GAME.yaml [--out DIR] [--templates DIR]`` (``--out`` defaults to
    ``output``).  ``dpi`` is the board's and the counters' resolution (300 for play; tests use less).  ``file`` is
    the game file's name, for locating a refusal; ``templates`` the layout templates to draw with (:func:`build`).
    Raises :class:`LoadError` (one problem per reason) when the map cannot be exported, :class:`VassalUnavailable`
    when pywargame is missing, OSError when the file cannot be written; the module is written to a temporary next
    to its target and moved into place, so a failure leaves the previous one as it was.
    """
    from .pdf import commit, discard, stage_file

    if not (MIN_DPI <= dpi <= MAX_DPI):
        raise ValueError(f"dpi {dpi} is out of range (expected {MIN_DPI} to {MAX_DPI})")
    found = problems(game, dpi=dpi)
    if found:
        raise LoadError([_problem(file, path, msg) for path, msg in found])
    pywargame()  # fail before rendering when the library is missing
    files = build(game, dpi=dpi, progress=progress, templates=templates)
    if progress:
        progress("module")
    data = zip_bytes(files)
    folder = Path(out_dir) / game.game.id
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{game.game.id}.vmod"
    tmp = stage_file(target, data)
    try:
        commit([(tmp, target)])
    except BaseException:
        discard(tmp)
        raise
    return target
