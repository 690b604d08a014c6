"""What a build will cost, before anything is rendered: pages, drawing operations, peak memory and time.

``forge build`` calls :func:`refuse` after loading a game and before rendering it: a build estimated to need more
than :data:`MAX_BYTES` of memory or :data:`MAX_SECONDS` of time is refused with one message that names what drives
the cost (the map's grid, the counter mix, ``--sets`` ...) and how far it could go, and nothing is written.

The constants are measured, not guessed: ``bench/bench_estimate.py`` builds synthetic games of growing size in
child processes and prints this estimate beside the real wall and CPU time and peak RSS.  They are rounded up so
that the estimate errs high (by about 1.2-2x for memory and 1.5-3x for time on large builds, more on small ones
where the fixed costs dominate), never low.  Arithmetic on the model, but for the class handout's page count,
which is the handout's own layout (:func:`set_pages`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import model as m
from . import tiling
from . import units as U

if TYPE_CHECKING:
    from .builder import BuildOptions

__all__ = ["MAX_BYTES", "MAX_SECONDS", "Estimate", "Part", "estimate", "refuse"]

MAX_BYTES = 1.0e9
"""Largest peak memory a build may be estimated to need (about 1 GB)."""
MAX_SECONDS = 600.0
"""Longest a build may be estimated to take (10 minutes on this project's 2-core machine)."""

# --- measured constants (bench/bench_estimate.py on the 2-core machine), rounded up -----------------------------
# Times are per CPU second of the build (wall time on an idle machine); the bench prints both.
BASE_BYTES = 80e6
"""Peak RSS of building a tiny game: the interpreter, pydantic, reportlab, the fonts (measured 55 MB)."""
BASE_SECONDS = 1.0
"""Measured 0.7 s."""
HEX_BYTES, HEX_SECONDS = 1.6e3, 0.1e-3
"""One drawing of a hex the file does not list (default terrain: fill, outline, label).  Measured per tiled hex
(drawn twice): 2.6 KB and 0.14 ms; issue 9's 1,000 x 1,000 map took 2.6 GB and 149 s."""
LISTED_BYTES, LISTED_SECONDS = 2.0e3, 0.12e-3
"""What one drawing of a hex the file lists (terrain pattern, features, name), a hexside or a path step adds.
Measured per tiled hex: 1.9-2.3 KB and 0.13-0.19 ms."""
TILE_BYTES, TILE_SECONDS = 30e3, 3e-3
"""One tile page of a map larger than the paper (measured 24 KB and 2.2 ms)."""
COUNTER_BYTES, COUNTER_SECONDS = 12e3, 1.0e-3
"""One unit's counter on the counter sheets, front and back (measured 6.5-8.4 KB and 0.6-0.7 ms)."""
MARKER_BYTES, MARKER_SECONDS = 2e3, 0.25e-3
"""One marker on the counter sheets: a word or two on each face (measured under 1 KB and 0.1 ms)."""
CARD_BYTES, CARD_SECONDS = 6e3, 0.4e-3
"""One unit or turn on the reference cards (measured 4.3 KB and 0.17 ms)."""
HANDOUT_BYTES, HANDOUT_SECONDS = 3e3, 1.2e-3
"""One counter, unit line, turn or sheet of one handout set (measured 1.6-2.3 KB and 0.6-0.75 ms)."""
TERRAIN_BYTES, TERRAIN_SECONDS = 60e3, 6e-3
"""One terrain type in the map's key or the reference cards' terrain chart: its sample (the fill and pattern,
symbol or line the map draws) and its name and effects (measured on bench/bench_greyscale.py's games, 50 to 1,600
types: 42 KB and 4.1 ms on each component, greyscale no dearer since its greys are spread in n log n).  A handout
set's key counts each type as one of its items (measured 1.4 ms a type a set)."""
IMAGE_BYTES, IMAGE_SECONDS = 40e3, 10e-3
"""One counter face as an SVG and a 300 dpi PNG (cairosvg), held until written (measured 16-25 KB and 5.5 ms)."""

BOARD_PIXEL_BYTES, BOARD_PIXEL_SECONDS = 12, 0.2e-6
"""One pixel of a 300 dpi board image (``--only board``): pdfium's bitmap, Pillow's RGB copy and the PNG, and the
time to rasterise and compress it (measured on the large kit's 22 x 34 in sheet, 67 million pixels: about 10 bytes
and 0.15 microseconds a pixel)."""
BOARD_MAX_PIXELS = 80_000_000
"""Largest board image (``--only board``): a 34 x 22 in sheet with a 1/8 in bleed at 300 dpi is about 69 million
pixels (the VASSAL board's limit, :data:`forge.vassal.MAX_BOARD_PIXELS`, for the same reason: decoding more needs
over a gigabyte).  :func:`refuse` refuses a larger one, whatever the memory estimate says."""

COUNTERS_PER_PAGE_5_8 = 120
"""Counters of 5/8 in on a Letter page (for the page count only)."""


@dataclass(frozen=True)
class Part:
    """One thing a build makes, and what it costs."""

    what: str
    """The driver in words: ``map 1000x1000 hexes = 1,000,000 hexes``."""
    seconds: float
    bytes: float
    pages: int
    ops: int
    path: tuple[str | int, ...] | None = None
    """Key path into the game file of what drives the cost (``map.grid``), or None."""
    option: str | None = None
    """The build option that multiplies it (``--sets 200``), or None."""
    limit: str = ""
    """How far it could go within the limits (``at most 380,000 hexes at this hex size``)."""


@dataclass(frozen=True)
class Estimate:
    parts: tuple[Part, ...]

    @property
    def seconds(self) -> float:
        return BASE_SECONDS + sum(p.seconds for p in self.parts)

    @property
    def bytes(self) -> float:
        """Peak memory: every component is rendered (and kept) before any is written."""
        return BASE_BYTES + sum(p.bytes for p in self.parts)

    @property
    def pages(self) -> int:
        return sum(p.pages for p in self.parts)

    @property
    def ops(self) -> int:
        return sum(p.ops for p in self.parts)

    def driver(self) -> Part:
        """The part that costs most, by its share of the limits."""
        return max(self.parts, key=lambda p: max(p.bytes / MAX_BYTES, p.seconds / MAX_SECONDS))

    def too_big(self) -> bool:
        return self.bytes > MAX_BYTES or self.seconds > MAX_SECONDS


def _room(per_item_bytes: float, per_item_seconds: float, other: Estimate, this: Part) -> int:
    """How many items of ``this`` part fit in what the other parts leave of the limits."""
    free_b = MAX_BYTES - (other.bytes - this.bytes)
    free_s = MAX_SECONDS - (other.seconds - this.seconds)
    return max(0, int(min(free_b / per_item_bytes, free_s / per_item_seconds)))


def pieces(game: m.Game) -> int:
    """Counters on the counter sheets: every unit's counters times its copies, and every marker."""
    return unit_pieces(game) + marker_pieces(game)


def unit_pieces(game: m.Game) -> int:
    return sum(u.copies * len(u.counter_faces()) for u in game.units)


def marker_pieces(game: m.Game) -> int:
    from .check import UNKNOWN_MARKERS

    return sum(mk.count if isinstance(mk.count, int) else UNKNOWN_MARKERS for mk in game.markers)


def faces(game: m.Game) -> int:
    """Distinct counter faces (the images component writes each once, copies included in its index)."""
    return sum(2 * len(u.counter_faces()) for u in game.units) + 2 * len(game.markers)


def map_sheet(game: m.Game) -> tuple[float, float]:
    """The map sheet in points: the stated one, else the grid plus margins and a chart column (as
    forge.render.map sizes it, slightly over)."""
    from .check import SHEET_BLEED

    gw, gh = game.map.grid.grid().extent(U.length(game.map.hex_size))
    if game.map.sheet is not None:
        sw, sh = U.size(game.map.sheet)
        for w, h in ((sw, sh), (sh, sw)):  # turned if only then the grid fits
            if gw <= w + SHEET_BLEED and gh <= h + SHEET_BLEED:
                return w, h
        return max(sw, gw), max(sh, gh)  # a game not loaded from a file (the check refuses this one)
    return gw + 72 + 4 * 72, max(gh + 72, 8 * 72)


def _fmt(n: float) -> str:
    return f"{n:,.0f}"


def _about(n: int) -> str:
    """``n`` rounded down to two significant digits, for "at most about" (54,999 -> 54,000)."""
    step = 10 ** max(0, len(str(n)) - 2)
    return _fmt(n // step * step)


def _map_part(game: m.Game, options: BuildOptions) -> Part:
    """The map at ``options.paper``: its grid drawn (twice when tiled: the sheet and its miniature) and its tiles."""
    g = game.map.grid
    hexes = g.columns * g.rows
    listed = min(hexes, len(game.map.hexes)) + len(game.map.hexsides) + sum(len(p.hexes) for p in game.map.paths)
    sw, sh = map_sheet(game)
    pw, ph = options.paper_size()
    tiled = options.tile and not tiling.fits(sw, sh, pw, ph)  # --no-tile: each sheet whole
    tiles = _tiles(sw, sh, pw, ph) if tiled else 0
    draws = 2 if tiled else 1  # a tiled sheet is drawn twice: the sheet itself and its miniature
    what = f"map {g.columns}x{g.rows} hexes = {_fmt(hexes)} hexes"
    if tiled:
        what += f", {_fmt(tiles)} {options.paper} tiles of a {sw / 72:,.0f} x {sh / 72:,.0f} in sheet"
    return Part(
        what=what,
        seconds=draws * (hexes * HEX_SECONDS + listed * LISTED_SECONDS) + tiles * TILE_SECONDS,
        bytes=draws * (hexes * HEX_BYTES + listed * LISTED_BYTES) + tiles * TILE_BYTES,
        pages=tiles + 1,
        ops=draws * (hexes * 4 + listed * 8) + tiles * 40,
        path=("map", "grid"),
        limit="hexes",
    )


def estimate(game: m.Game, options: BuildOptions, *, exact_pages: bool = True) -> Estimate:
    """Pages, drawing operations, peak memory and time of building ``game`` with ``options``.

    The class handout's pages are exact (:func:`set_pages`, which lays its text out) with ``exact_pages`` and when
    the handout is within the limits; else (:func:`refuse`, which reads no page count, and a handout too big to
    build) a rough count from the model that leaves out the flowed parts' continuation pages."""
    parts: list[Part] = []
    if "map" in options.only:
        parts.append(_map_part(game, options))
    n = pieces(game)
    per_page = max(1, int(COUNTERS_PER_PAGE_5_8 * (U.length("5/8in") / options.counter_points()) ** 2))
    if "counters" in options.only:
        parts.append(
            Part(
                what=f"{_fmt(n)} counters",
                seconds=unit_pieces(game) * COUNTER_SECONDS + marker_pieces(game) * MARKER_SECONDS,
                bytes=unit_pieces(game) * COUNTER_BYTES + marker_pieces(game) * MARKER_BYTES,
                pages=2 + 2 * math.ceil(n / per_page),
                ops=n * 24,
                path=("units",),
                limit="counters",
            )
        )
    items = len(game.units) + len(game.turns.turns)
    if "cards" in options.only:
        parts.append(
            Part(
                what=f"reference cards for {_fmt(len(game.units))} units and {_fmt(len(game.turns.turns))} turns",
                seconds=items * CARD_SECONDS,
                bytes=items * CARD_BYTES,
                pages=4 + items // 60,
                ops=items * 20,
                path=("units",),
                limit="units and turns",
            )
        )
    keys = ("map" in options.only) + ("cards" in options.only)  # the map's key, the cards' terrain chart
    if keys:
        types = len(game.terrain)
        parts.append(
            Part(
                what=f"{_fmt(types)} terrain types, each drawn in the "
                + " and the ".join(
                    k for k, on in (("map's key", "map"), ("cards' terrain chart", "cards")) if on in options.only
                ),
                seconds=types * keys * TERRAIN_SECONDS,
                bytes=types * keys * TERRAIN_BYTES,
                pages=0,
                ops=types * keys * 20,
                path=("terrain",),
                limit="terrain types",
            )
        )
    if "handout" in options.only:
        sets = max(1, options.sets)
        per_set = n + 2 * len(game.units) + len(game.turns.turns) + 30  # counters, aids' unit lines, turns, sheets
        per_set += len(game.terrain)  # the terrain key
        mp = _map_part(game, options)  # every set holds the map, each page with a blank back
        seconds = sets * (per_set * HANDOUT_SECONDS + mp.seconds)
        bytes_ = sets * (per_set * HANDOUT_BYTES + mp.bytes)
        if exact_pages and seconds <= MAX_SECONDS and bytes_ <= MAX_BYTES:
            each = set_pages(game, options)
        else:  # the map with blank backs, the counters, a sheet for each aid, the rules, the set-up and the record
            each = 2 * mp.pages + 2 * math.ceil(n / per_page) + 2 * (len(game.game.sides) + 2)
        parts.append(
            Part(
                what=f"--sets {sets}: {sets} handout sets of {_fmt(n)} counters = {_fmt(sets * n)} counters, "
                f"each with the map ({mp.what})",
                seconds=seconds,
                bytes=bytes_,
                pages=sets * each,
                ops=sets * (per_set * 24 + mp.ops),
                option=f"--sets {sets}",
                limit="sets",
            )
        )
    if "images" in options.only:
        f = faces(game)
        # Bigger counters (bleed included) cost more: measured at 5/8 in, 3/4 in with bleed (2.6 times the pixels)
        # took 1.25 times the time and about the same memory; scaled here by the edge, which is over.
        edge = options.counter_points() + (2 * U.length("1/8in") if options.bleed else 0.0)
        area = max(1.0, edge / U.length("5/8in"))
        parts.append(
            Part(
                what=f"--only images: {_fmt(f)} counter faces as SVG and 300 dpi PNG",
                seconds=f * IMAGE_SECONDS * area,
                bytes=f * IMAGE_BYTES * area,
                pages=0,
                ops=f * 24,
                option="--only images",
                limit="faces",
            )
        )
    if "board" in options.only:
        import dataclasses

        whole = _map_part(game, dataclasses.replace(options, tile=False))
        sw, sh = map_sheet(game)
        px = board_pixels(game, options)
        parts.append(
            Part(
                what=f"--only board: a {sw / 72:,.0f} x {sh / 72:,.0f} in map sheet as a 300 dpi image of "
                f"{_fmt(px)} pixels",
                seconds=whole.seconds + px * BOARD_PIXEL_SECONDS,
                bytes=whole.bytes + px * BOARD_PIXEL_BYTES,
                pages=0,
                ops=whole.ops,
                path=("map", "sheet") if game.map.sheet else ("map", "grid"),
                limit="pixels",
            )
        )
    return Estimate(tuple(parts))


def set_pages(game: m.Game, options: BuildOptions) -> int:
    """Pages of one class set, exact: laid out as the handout lays it out (:func:`forge.render.handout.
    set_page_count`: the map's tiles and sheets, the counter sheets, and the player aids, rules and tables, set-up
    sheet and record poured without drawing), not counted from the model, since the flowed parts' length is the
    text's.  The one place the estimate imports a renderer; a build that writes the handout imports it anyway."""
    from .render.handout import set_page_count

    return set_page_count(game, options)


def board_pixels(game: m.Game, options: BuildOptions) -> int:
    """Pixels of the largest board image (``--only board``): the map sheet with its page bleed at 300 dpi."""
    from .builder import page_bleed

    bleed = page_bleed(options)
    sw, sh = map_sheet(game)
    return math.ceil((sw + 2 * bleed) / 72 * 300) * math.ceil((sh + 2 * bleed) / 72 * 300)


def _tiles(sw: float, sh: float, pw: float, ph: float) -> int:
    """Tiles of the paper a sheet is cut into: tiling.plan's count, without making the tiles."""
    margin, overlap = tiling.DEFAULT_MARGIN, tiling.DEFAULT_OVERLAP
    printable = (pw - 2 * margin, ph - 2 * margin)
    return min(
        tiling._count(sw, a, overlap) * tiling._count(sh, b, overlap) for a, b in (printable, printable[::-1])
    )


def refuse(game: m.Game, options: BuildOptions, file: str) -> None:
    """Raise :class:`forge.errors.LoadError` with one problem when building ``game`` with ``options`` is estimated
    to need more than :data:`MAX_BYTES` or :data:`MAX_SECONDS`; the problem names the driver and its limit.  Also
    when ``--no-tile`` would print a map sheet larger than a sheet may be (:data:`forge.units.MAX_LENGTH`; a grid
    without ``map.sheet`` sizes its own): a PDF page is at most 200 in a side."""
    if "board" in options.only and (px := board_pixels(game, options)) > BOARD_MAX_PIXELS:
        from .errors import LoadError, Problem
        from .loader import locate_in_file

        sw, sh = map_sheet(game)
        line, col, path = locate_in_file(file, ("map", "sheet") if game.map.sheet else ("map", "grid"))
        msg = (
            f"--only board: a {sw / 72:,.0f} x {sh / 72:,.0f} in map sheet is {_fmt(px)} pixels at 300 dpi, more than "
            f"the {_fmt(BOARD_MAX_PIXELS)} a board image may have (expected a sheet of at most about 34 x 22 in, or "
            "map.pdf, which is vector, instead)"
        )
        raise LoadError([Problem(file, line, col, path, msg)])
    if not options.tile and {"map", "handout"} & set(options.only):
        sw, sh = map_sheet(game)
        if max(sw, sh) > 0.9 * U.MAX_LENGTH:  # near the limit: the sheet as the map lays it out, not estimated
            from .render.map import sheet_layout

            lay = sheet_layout(game, options)
            sw, sh = lay.sheet_w, lay.sheet_h
        if max(sw, sh) > U.MAX_LENGTH + 1e-6:
            from .errors import LoadError, Problem
            from .loader import locate_in_file

            line, col, path = locate_in_file(file, ("map", "grid"))
            msg = (
                f"--no-tile prints the map sheet whole, and this grid's sheet is {sw / 72:,.0f} x {sh / 72:,.0f} in, "
                f"larger than the {U.fmt(U.MAX_LENGTH)} a map sheet may be (expected --tile, which the print-shop "
                "preset turns off, or fewer columns and rows, or a smaller hex_size)"
            )
            raise LoadError([Problem(file, line, col, path, msg)])
    est = estimate(game, options, exact_pages=False)  # the limits are of memory and time: no page count needed
    if not est.too_big():
        return
    from .errors import LoadError, Problem
    from .loader import locate_in_file

    part = est.driver()
    over = []
    if est.bytes > MAX_BYTES:
        over.append(f"{est.bytes / 1e9:.1f} GB of memory (at most {MAX_BYTES / 1e9:g} GB)")
    if est.seconds > MAX_SECONDS:
        over.append(f"{est.seconds / 60:,.0f} minutes (at most {MAX_SECONDS / 60:g})")
    msg = f"{part.what}: the build would need an estimated {' and '.join(over)}; {_advice(game, options, est, part)}"
    line = col = None
    path = ""
    if part.option is None and part.path is not None:
        line, col, path = locate_in_file(file, part.path)
    raise LoadError([Problem(file, line, col, path, msg)])


def _advice(game: m.Game, options: BuildOptions, est: Estimate, part: Part) -> str:
    """What would fit: the most hexes (counters, sets, faces) the limits allow, all else equal."""
    if part.limit == "hexes":
        g = game.map.grid
        hexes = g.columns * g.rows
        room = _room(part.bytes / hexes, part.seconds / hexes, est, part)
        return f"at most about {_about(room)} hexes at this hex size and paper (expected fewer columns x rows)"
    if part.limit == "sets":
        room = _room(part.bytes / max(1, options.sets), part.seconds / max(1, options.sets), est, part)
        return f"at most {room} sets of this game (expected a smaller --sets, or several runs)"
    if part.limit == "faces":
        f = max(1, faces(game))
        room = _room(part.bytes / f, part.seconds / f, est, part)
        return f"at most about {_about(room)} faces (expected fewer units, or the PDF counter sheets instead)"
    if part.limit == "terrain types":
        types = max(1, len(game.terrain))
        room = _room(part.bytes / types, part.seconds / types, est, part)
        return f"at most about {_about(room)} terrain types with these options (expected fewer terrain types)"
    if part.limit == "pixels":
        return (
            "a smaller map sheet (expected fewer columns and rows, a smaller hex_size, or map.pdf, which is vector, "
            "instead)"
        )
    n = max(1, pieces(game))
    room = _room(part.bytes / n, part.seconds / n, est, part)
    return f"at most about {_about(room)} counters with these options (expected fewer units, copies or markers)"


