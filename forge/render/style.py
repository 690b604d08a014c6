"""Shared drawing style of the printed components: colour roles, greyscale, terrain fill patterns.

The public API is deliberately small so that every renderer draws terrain and colours the same way:

- :data:`DEFAULT_COLORS` -- named colour roles (``#rrggbb``) for what is not a game colour;
- :func:`grey` -- a ``#rrggbb`` colour's luminance as a grey ``#rrggbb``;
- :func:`colour` -- a game (or role) colour as a reportlab ``Color``, grey when ``options.greyscale``;
- :func:`mix` -- blend two ``#rrggbb`` colours (ink for a pattern drawn over its fill);
- :func:`draw_pattern` -- a terrain :class:`forge.model.Pattern` drawn inside a polygon on a reportlab canvas;
- :class:`Palette` -- the colours one build prints, for the map, counters, cards and handout alike: the game's
  own, or (``--greyscale``) greys spread so that what must be told apart differs by at least
  :data:`MIN_CONTRAST` in CIE L*, with a marking where greys run out;
- :func:`lightness` -- a colour's CIE L*.

>>> grey("#ff0000")
'#4c4c4c'
>>> mix("#000000", "#ffffff", 0.5)
'#808080'
"""

from __future__ import annotations

import bisect
import functools
import heapq
import math
import operator
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import Canvas

from ..model import CombatEffect, Game, Pattern, TerrainKind
from ..pdf import end_form_sealed, place_form

__all__ = [
    "BATCH_LENGTH",
    "DEFAULT_COLORS",
    "MARKINGS",
    "MIN_CONTRAST",
    "Palette",
    "PathBatch",
    "colour",
    "combat_facts",
    "draw_pattern",
    "grey",
    "grey_of_lightness",
    "lightness",
    "mix",
]

DEFAULT_COLORS: dict[str, str] = {
    "paper": "#ffffff",  # sheet background
    "ink": "#1a1a1a",
    "hex_edge": "#555555",
    "label": "#333333",
    "name": "#111111",
    "halo": "#ffffff",
    "river": "#2f6fc4",
    "road": "#a0522d",
    "railway": "#1a1a1a",
    "mark": "#c8102e",  # special-rule reminders: red on a real turn track
    "vp": "#b0001e",
    "unknown": "#b4b4b4",  # hatching of hexes whose terrain the rulebook does not give
    "reconstructed": "#6a3d9a",
    "panel": "#fbf8ef",  # background of the charts and the turn track
    "panel_edge": "#3a3a3a",
    "panel_head": "#3a3a3a",  # header bars of charts (white text on them)
    "overlap": "#9a9a9a",
    "crop": "#000000",
}
"""Colour roles (``#rrggbb``); a renderer takes a ``colors`` mapping that overrides any of them."""


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    if len(h) != 6:
        raise ValueError(f"{hex_colour!r} is not a colour (expected #rrggbb)")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _hex(r: float, g: float, b: float) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(max(0, min(255, round(v))) for v in (r, g, b)))


def grey(hex_colour: str) -> str:
    """The grey of the same luminance (ITU-R BT.601 weights, as a greyscale printer sees it)."""
    r, g, b = _rgb(hex_colour)
    y = 0.299 * r + 0.587 * g + 0.114 * b
    return _hex(y, y, y)


def mix(a: str, b: str, t: float) -> str:
    """``a`` blended towards ``b`` by ``t`` (0: ``a``, 1: ``b``)."""
    ra, ga, ba = _rgb(a)
    rb, gb, bb = _rgb(b)
    return _hex(ra + (rb - ra) * t, ga + (gb - ga) * t, ba + (bb - ba) * t)


def combat_facts(effect: CombatEffect, side_name: Callable[[str], str] = str) -> list[str]:
    """A terrain's combat effect as short phrases, worded the same on the map's chart and on the cards.

    >>> combat_facts(CombatEffect(shift=-1, defense_bonus=2))
    ['1 column left', 'defence +2']
    """
    out: list[str] = []
    if effect.shift:
        n = abs(effect.shift)
        out.append(
            f"{n} column{'s' if n != 1 else ''} {'left' if effect.shift < 0 else 'right'}"
            + (f" when {effect.shift_when}" if effect.shift_when else "")
        )
    if effect.defense_multiplier:
        out.append(f"defence ×{effect.defense_multiplier}")
    if effect.defense_bonus:
        out.append(f"defence {effect.defense_bonus:+d}")
    if effect.crt_row:
        out.append(f"CRT row {effect.crt_row}")
    if effect.no_concentric:
        out.append("no concentric bonus")
    if effect.ignore_retreat:
        out.append("retreats ignored")
    for sid, eff in sorted(effect.by_side.items()):
        what = eff.text or "; ".join(combat_facts(eff, side_name))
        out.append(f"{side_name(sid)} defending: {what}")
    return out


def colour(game_colour: str, options: Any = None) -> Color:
    """``game_colour`` (``#rrggbb``) as a reportlab colour, converted to grey when ``options.greyscale``.

    ``options`` is anything with a ``greyscale`` attribute (a :class:`forge.builder.BuildOptions`) or None.
    """
    if options is not None and getattr(options, "greyscale", False):
        game_colour = grey(game_colour)
    return HexColor(game_colour)


# ------------------------------------------------------------------------------------------------ palette
MIN_CONTRAST = 20.0
"""Least difference in CIE L* (0 black .. 100 white) between two greys that must be told apart at a glance."""
_GAP = MIN_CONTRAST + 1.0  # spread a little wider: rounding a grey to 8 bits moves its L* by up to ~0.3
MARKINGS = ("none", "solid symbol box", "hatched symbol box", "double symbol box")
"""How unit counters of one side whose formations share a grey are told apart in greyscale (index 0: none)."""
_UNIT_RANGE = (12.0, 96.0)  # counter fills: from near black (white print on it) to near white
_LINE_RANGE = (0.0, 72.0)  # rivers and roads: dark enough to show on the lightest terrain
_FILL_RANGE = (40.0, 100.0)  # terrain fills: light enough for hex labels and names printed on them


def _linear(v: float) -> float:
    v /= 255.0
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def lightness(hex_colour: str) -> float:
    """CIE L* (D65) of an sRGB ``#rrggbb`` colour: 0 black, 100 white; equal steps look equally far apart.

    >>> round(lightness("#ffffff"), 1), round(lightness("#000000"), 1), round(lightness("#777777"), 1)
    (100.0, 0.0, 50.0)
    """
    r, g, b = (_linear(v) for v in _rgb(hex_colour))
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return 116 * y ** (1 / 3) - 16 if y > 216 / 24389 else y * 24389 / 27


def grey_of_lightness(l_star: float) -> str:
    """The grey ``#rrggbb`` whose CIE L* is closest to ``l_star``.

    >>> grey_of_lightness(50.0)
    '#777777'
    """
    l_star = max(0.0, min(100.0, l_star))
    y = ((l_star + 16) / 116) ** 3 if l_star > 8 else l_star * 27 / 24389
    v = 12.92 * y if y <= 0.0031308 else 1.055 * y ** (1 / 2.4) - 0.055
    return _hex(v * 255, v * 255, v * 255)


def _isotonic(targets: list[float]) -> list[float]:
    """The non-decreasing sequence closest to ``targets`` in least squares (pool adjacent violators)."""
    blocks: list[list[float]] = []  # [mean, weight]
    for t in targets:
        blocks.append([t, 1.0])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            m2, w2 = blocks.pop()
            m1, w1 = blocks.pop()
            blocks.append([(m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2])
    return [m for m, w in blocks for _ in range(round(w))]


def _spread(natural: list[float], lo: float, hi: float) -> list[float]:
    """New L* for values sorted ascending: same order, at least ``_GAP`` apart, in ``[lo, hi]``, as close to the
    natural ones as possible (needs ``len(natural) <= (hi - lo) / _GAP + 1``)."""
    n = len(natural)
    u = _isotonic([v - _GAP * i for i, v in enumerate(natural)])  # u_i = new_i - GAP*i must not decrease
    top = hi - _GAP * (n - 1)
    return [min(max(v, lo), top) + _GAP * i for i, v in enumerate(u)]


class _Free:
    """The L* :func:`_assign` gives, one after another, to colours greys alone cannot keep apart: each the L* in
    ``[lo, hi]`` nearest its own that is at least ``_GAP`` from every L* taken so far (``fixed``, then each one
    placed), or, when there is none, the one farthest from them (ties: the darker).  The L* looked at are the ends
    of the range, the colour's own (clamped to it) and each taken L* plus or minus ``_GAP``.

    Near-linear in the number of colours (it was cubic: every candidate checked against every taken L*): the taken
    L* are kept sorted (a candidate's distance to them is the distance to its two neighbours there), the candidates
    still far enough from all of them in a sorted list (a candidate once too close stays so), and every candidate in
    a heap by its distance, which only shrinks as L* are taken (refreshed when it comes to the top)."""

    def __init__(self, fixed: Iterable[float], lo: float, hi: float) -> None:
        self.lo, self.hi = lo, hi
        self.taken: list[float] = sorted(fixed)
        self.free: list[float] = []  # sorted: the candidates at least _GAP from every taken L*
        self.heap: list[tuple[float, float]] = []  # (-distance to the taken L*, candidate): distances only shrink
        for c in [lo, hi, *(t + d for t in self.taken for d in (-_GAP, _GAP))]:
            self._candidate(c)

    def _distance(self, c: float) -> float:
        """The distance from ``c`` to the nearest taken L* (that of its neighbours in the sorted list: the same
        float as the least over all of them, a difference being monotonic under rounding)."""
        k = bisect.bisect_left(self.taken, c)
        return min((abs(c - t) for t in self.taken[max(0, k - 1) : k + 1]), default=math.inf)

    def _candidate(self, c: float) -> None:
        if not self.lo <= c <= self.hi:
            return
        d = self._distance(c)
        heapq.heappush(self.heap, (-d, c))
        if d >= _GAP - 1e-9:
            bisect.insort(self.free, c)

    def place(self, want: float) -> float:
        """The L* for a colour whose own is ``want``; it is taken from now on."""
        own = min(max(want, self.lo), self.hi)
        best: float | None = None
        if self._distance(own) >= _GAP - 1e-9:
            best = own
        k = bisect.bisect_left(self.free, want)
        for c in self.free[max(0, k - 1) : k + 1]:  # the nearest far-enough candidate below and above ``want``
            if best is None or (abs(c - want), c) < (abs(best - want), best):
                best = c
        if best is None:  # none far enough: the farthest, the heap's top once its distance is up to date
            while True:
                d, c = self.heap[0]
                now = -self._distance(c)
                if now == d:
                    break
                heapq.heapreplace(self.heap, (now, c))
            d_own = self._distance(own)
            best = own if (d_own, -own) > (-d, -c) else c
        self._take(best)
        return best

    def _take(self, v: float) -> None:
        bisect.insort(self.taken, v)
        a = bisect.bisect_left(self.free, v - _GAP)
        b = bisect.bisect_right(self.free, v + _GAP)
        self.free[a:b] = [c for c in self.free[a:b] if abs(c - v) >= _GAP - 1e-9]
        for c in (v - _GAP, v + _GAP):
            self._candidate(c)


class Palette:
    """The colours one build prints, shared by the map, the counters, the cards and the handout.

    In colour, every colour prints as given.  In greyscale, each set of colours that must be told apart --
    the unit colours of one side (its formations), the sides, the hexside terrains, the path terrains, the
    terrain fills that share a pattern -- is spread to greys at least :data:`MIN_CONTRAST` apart in CIE L*,
    keeping their order from dark to light and staying as close to their own lightness as that allows.  A side
    with more formation colours than distinct greys fit (five) shares greys between formations and tells them
    apart by a :data:`MARKINGS` entry on the counter.  Any other colour prints as its luminance (:func:`grey`).

    >>> from pathlib import Path
    >>> from forge.loader import load
    >>> hg = load(Path(__file__).parent.parent.parent / "data" / "hells_gate.yaml")
    >>> p = Palette.of(hg, greyscale=True)
    >>> abs(lightness(p("#8b4a2b")) - lightness(p("#c8102e"))) >= MIN_CONTRAST  # the two Soviet fronts
    True
    >>> Palette.of(hg)("#8b4a2b")
    '#8b4a2b'
    """

    def __init__(self, greyscale: bool, greys: dict[str, str], markings: dict[tuple[str, str], int]) -> None:
        self.greyscale = greyscale
        self.greys = greys
        """Game colour (lower case) -> the grey printed for it (greyscale only)."""
        self.markings = markings
        """(side id, unit colour (lower case)) -> index into :data:`MARKINGS` (greyscale only)."""

    def __call__(self, hex_colour: str) -> str:
        """``hex_colour`` as printed."""
        if not self.greyscale:
            return hex_colour
        return self.greys.get(hex_colour.lower()) or grey(hex_colour)

    def color(self, hex_colour: str) -> Color:
        """``hex_colour`` as printed, as a reportlab colour."""
        return HexColor(self(hex_colour))

    def mapping(self) -> dict[str, str]:
        """Every spread game colour -> its grey (empty in colour): for a renderer's ``colors`` override table."""
        return dict(self.greys) if self.greyscale else {}

    def marking(self, side_id: str, hex_colour: str) -> int:
        """The :data:`MARKINGS` index a unit counter of ``side_id`` filled with ``hex_colour`` carries."""
        return self.markings.get((side_id, hex_colour.lower()), 0) if self.greyscale else 0

    @staticmethod
    def unit_colour(game: Game, side_id: str, group: str | None) -> str:
        """The game colour of a unit counter: its formation's, else its side's."""
        side = game.side(side_id)
        return side.groups.get(group or "", side.colour)

    @classmethod
    def of(cls, game: Game, greyscale: Any = False) -> Palette:
        """The palette of ``game``; ``greyscale`` is a bool or anything with a ``greyscale`` attribute (build
        options)."""
        grey_on = bool(getattr(greyscale, "greyscale", greyscale))
        if not grey_on:
            return cls(False, {}, {})
        known = _PALETTES.get(id(game))
        if known is not None and known[0]() is game:  # a game is frozen: its greys are worked out once
            return known[1]
        palette = cls._greyscale(game)
        key = id(game)
        _PALETTES[key] = (weakref.ref(game, lambda _: _PALETTES.pop(key, None)), palette)
        return palette

    @classmethod
    def _greyscale(cls, game: Game) -> Palette:
        greys: dict[str, float] = {}  # colour -> L*
        markings: dict[tuple[str, str], int] = {}
        _assign(greys, [s.colour.lower() for s in game.game.sides], *_UNIT_RANGE)  # sides first: then formations
        for side in game.game.sides:
            used = [cls.unit_colour(game, u.side, u.group).lower() for u in game.units if u.side == side.id]
            _assign(greys, sorted(set(used)), *_UNIT_RANGE, markings=markings, side=side.id)
        for kind in (TerrainKind.HEXSIDE, TerrainKind.PATH):
            _assign(greys, [t.colour.lower() for t in game.terrain.values() if t.kind is kind], *_LINE_RANGE)
        by_pattern: dict[str, list[str]] = {}
        for t in game.terrain.values():
            if t.kind is TerrainKind.HEX:
                by_pattern.setdefault(Pattern(t.pattern).value, []).append(t.colour.lower())
        for _, fills in sorted(by_pattern.items()):
            _assign(greys, fills, *_FILL_RANGE)
        return cls(True, {c: grey_of_lightness(v) for c, v in sorted(greys.items())}, markings)


_PALETTES: dict[int, tuple[weakref.ref[Game], Palette]] = {}
"""The greyscale palette of each loaded game still alive, by ``id``: the terrain key of the reference cards asks for
it once per sample."""


def _fit_around(wants: list[float], fixed: list[float], lo: float, hi: float) -> list[float] | None:
    """L* for values ``wants`` (ascending) in ``[lo, hi]``, at least ``_GAP`` from each other and from every
    ``fixed`` value, in the same order and as close to ``wants`` as may be; None when they do not fit."""
    gaps: list[tuple[float, float]] = []  # the stretches of [lo, hi] far enough from every fixed value
    start = lo
    for t in sorted(fixed):
        if t - _GAP >= start - 1e-9:
            gaps.append((start, t - _GAP))
        start = max(start, t + _GAP)
    if hi >= start - 1e-9:
        gaps.append((start, hi))
    caps = [int((b - a) // _GAP + 1e-9) + 1 for a, b in gaps]

    def splits(n: int, i: int) -> Iterator[tuple[int, ...]]:
        if i == len(caps):
            if n == 0:
                yield ()
            return
        for k in range(min(n, caps[i]) + 1):
            for rest in splits(n - k, i + 1):
                yield (k, *rest)

    best: tuple[float, list[float]] | None = None
    for counts in splits(len(wants), 0):
        placed: list[float] = []
        for (a, b), k in zip(gaps, counts, strict=True):
            if k:
                placed += _spread(wants[len(placed) : len(placed) + k], a, b)
        cost = sum(abs(p - w) for p, w in zip(placed, wants, strict=True))
        if best is None or cost < best[0] - 1e-9:
            best = (cost, placed)
    return None if best is None else best[1]


def _assign(
    greys: dict[str, float],
    colours: list[str],
    lo: float,
    hi: float,
    *,
    markings: dict[tuple[str, str], int] | None = None,
    side: str = "",
) -> None:
    """Give each of ``colours`` (distinct ones must be told apart) an L* in ``greys``; colours already there keep
    theirs.  With ``markings``, a set larger than the greys that fit shares greys and gets markings."""
    distinct = sorted(set(colours), key=lambda c: (lightness(grey(c)), c))
    free = [c for c in distinct if c not in greys]
    if not free:
        return
    fixed = [greys[c] for c in distinct if c in greys]
    wants = [lightness(grey(c)) for c in free]
    placed = _fit_around(wants, fixed, lo, hi)
    if placed is not None:
        greys.update(zip(free, placed, strict=True))
        return
    if markings is None:  # greys alone cannot do it: as far apart as they go
        spread = _Free(fixed, lo, hi)
        for c, w in zip(free, wants, strict=True):
            greys[c] = spread.place(w)
        return
    # More colours than greys: a ladder of greys _GAP apart (through a fixed one, if any); consecutive colours
    # share a rung and are told apart by their markings.
    anchor = min(fixed) if fixed else lo
    rungs = [anchor + k * _GAP for k in range(-int((anchor - lo) // _GAP), int((hi - anchor) // _GAP) + 1)]
    for i, c in enumerate(free):
        greys[c] = rungs[i * len(rungs) // len(free)]
    for rung in rungs:
        on = [d for d in distinct if abs(greys[d] - rung) < _GAP / 2]
        on.sort(key=lambda d: (d in free, lightness(grey(d)), d))  # fixed ones first: they keep no marking
        for k, d in enumerate(on):
            markings[(side, d)] = min(k, len(MARKINGS) - 1)


Polygon = Sequence[tuple[float, float]]
Box = tuple[float, float, float, float]


def _bbox(points: Polygon) -> Box:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _polygons(path: Polygon | Sequence[Polygon]) -> list[Polygon]:
    """One polygon or several, as a list of polygons."""
    if not path:
        return []
    first = path[0]
    if isinstance(first[0], int | float):
        return [path]  # type: ignore[list-item]
    return list(path)  # type: ignore[arg-type]


def _lattice(boxes: list[Box], dx: float, dy: float, stagger: bool) -> list[tuple[int, int, float, float]]:
    """Lattice points ``(i, j, x, y)`` covering each box (plus one step around it), each point once, in a fixed
    order.  The lattice is anchored at the origin, so neighbouring cells' patterns join into one texture."""
    seen: dict[tuple[int, int], tuple[float, float]] = {}
    for x0, y0, x1, y1 in boxes:
        for j in range(math.floor(y0 / dy) - 1, math.ceil(y1 / dy) + 2):
            shift = dx / 2 if stagger and j % 2 else 0.0
            for i in range(math.floor((x0 - shift) / dx) - 1, math.ceil((x1 - shift) / dx) + 2):
                seen.setdefault((i, j), (i * dx + shift, j * dy))
    return [(i, j, x, y) for (i, j), (x, y) in sorted(seen.items(), key=lambda kv: (kv[0][1], kv[0][0]))]


def _jitter(i: int, j: int, salt: int = 0) -> float:
    """A repeatable pseudo-random number in [0, 1) for lattice point ``(i, j)``: integer hashing, so the same
    map gives the same bytes on every platform."""
    h = (i * 73856093) ^ (j * 19349663) ^ (salt * 83492791)
    h = (h ^ (h >> 13)) * 1274126177
    return ((h ^ (h >> 16)) & 0xFFFF) / 65536.0


def _union(boxes: list[Box]) -> Box:
    return min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)


BATCH_LENGTH = 15_000.0
"""Most path length (points) painted by one PDF operator.  pdfium (Chrome's PDF engine) silently stops
rasterising a single path past a few million cells, so a map-wide hatch drawn as one path loses its corner
when zoomed in or printed at high resolution; batches of this length stay far below that at 1200 dpi."""


@functools.cache
def _polygon_code(n: int, move: bool, back: bool = True) -> str:
    """The format of a closed ``n``-corner polygon's path operators, filled from ``fp_str``'s ``2n`` numbers:
    ``x0 y0 m x1 y1 l ... [x0 y0 l] h`` (``back``: a line back to the first corner before ``h``; ``move``: with
    the ``m``)."""
    parts = [f"{{{2 * i}}} {{{2 * i + 1}}} l" for i in range(1, n)] + (["{0} {1} l"] if back else []) + ["h"]
    return " ".join(["{0} {1} m", *parts] if move else parts)


class PathBatch:
    """A reportlab path that paints itself in batches of at most :data:`BATCH_LENGTH` points of outline.

    Use it like a ``PDFPathObject`` (``moveTo``, ``lineTo``, ``curveTo``, ``circle``, ``arc``, ``close``), then
    call :meth:`flush`; a batch is painted whenever a new subpath would take it past the limit.
    """

    def __init__(self, canvas: Canvas, *, stroke: bool, fill: bool, limit: float = BATCH_LENGTH) -> None:
        self.canvas = canvas
        self.stroke, self.fill = int(stroke), int(fill)
        self.limit = limit
        self._path = canvas.beginPath()
        self._length = 0.0
        self._empty = True
        self._at = (0.0, 0.0)

    def _grow(self, length: float) -> None:
        self._length += length
        self._empty = False

    def moveTo(self, x: float, y: float) -> None:
        if self._length >= self.limit:
            self.flush()
        self._path.moveTo(x, y)
        self._at = (x, y)

    def lineTo(self, x: float, y: float) -> None:
        # The hottest call of a large map (every corner of every hex): reportlab's lineTo and _grow, inlined.
        self._length += math.dist(self._at, (x, y))
        self._empty = False
        self._path._code_append(f"{fp_str(x, y)} l")
        self._at = (x, y)

    def polygon(self, flat: list[float]) -> None:
        """A closed polygon given as ``[x0, y0, x1, y1, ...]`` (reportlab coordinates): the same operators and
        the same batching as ``moveTo`` to its first corner, ``lineTo`` each next corner and back to the first,
        then ``close``, written with one ``fp_str`` and one formatted string (every hex of a large map)."""
        if self._length >= self.limit:
            self.flush()
        x0, y0 = flat[0], flat[1]
        length, at = self._length, (x0, y0)
        for i in range(2, len(flat), 2):  # added one side at a time, as lineTo does: the same batches
            pt = (flat[i], flat[i + 1])
            length += math.dist(at, pt)
            at = pt
        self._length = length + math.dist(at, (x0, y0))
        self._empty = False
        n = len(flat) // 2
        tokens = fp_str(*flat).split(" ")
        path = self._path
        if path._code:
            path._code_append(_polygon_code(n, True).format(*tokens))
        else:  # a path's first operator must be reportlab's own moveTo
            path.moveTo(x0, y0)
            path._code_append(_polygon_code(n, False).format(*tokens))
        self._at = (x0, y0)

    def polygon_of(self, x0: float, y0: float, sides: Iterable[float], head: str, rest: str) -> None:
        """:meth:`polygon` of a polygon whose numbers the caller has worked out (a hex of a large map, from its
        column's and its row's): its first corner, its sides' lengths in drawing order, the first corner's two
        ``fp_str`` tokens (``head``) and the operators after its ``m`` (``rest``).  The same operators, and the same
        batches: the lengths are added one at a time, in order."""
        if self._length >= self.limit:
            self.flush()
        self._length = functools.reduce(operator.add, sides, self._length)
        self._empty = False
        path = self._path
        if path._code:
            path._code_append(f"{head} m {rest}")
        else:  # a path's first operator must be reportlab's own moveTo
            path.moveTo(x0, y0)
            path._code_append(rest)
        self._at = (x0, y0)

    def curveTo(self, x1: float, y1: float, x2: float, y2: float, x3: float, y3: float) -> None:
        self._grow(math.dist(self._at, (x1, y1)) + math.dist((x1, y1), (x2, y2)) + math.dist((x2, y2), (x3, y3)))
        self._path.curveTo(x1, y1, x2, y2, x3, y3)
        self._at = (x3, y3)

    def circle(self, x: float, y: float, r: float) -> None:
        if self._length >= self.limit:
            self.flush()
        self._grow(2 * math.pi * r)
        self._path.circle(x, y, r)

    def arc(self, x1: float, y1: float, x2: float, y2: float, startAng: float = 0, extent: float = 90) -> None:
        if self._length >= self.limit:
            self.flush()
        self._grow(math.pi * max(abs(x2 - x1), abs(y2 - y1)) * abs(extent) / 360)
        self._path.arc(x1, y1, x2, y2, startAng=startAng, extent=extent)

    def close(self) -> None:
        self._path.close()

    def flush(self) -> None:
        """Paint what has been collected (if anything) and start a new batch."""
        if not self._empty:
            self.canvas.drawPath(self._path, stroke=self.stroke, fill=self.fill)
        self._path = self.canvas.beginPath()
        self._length = 0.0
        self._empty = True


def draw_pattern(
    canvas: Canvas,
    path: Polygon | Sequence[Polygon],
    pattern: Pattern | str,
    colour: Color,
    cell_size: float,
) -> None:
    """Draw ``pattern`` in ``colour`` inside the polygon ``path`` (or each of several polygons) on ``canvas``.

    ``path`` is a polygon's corners -- or a list of polygons, e.g. every hex of one terrain, which is much
    faster than one call per hex -- in the canvas's current (reportlab, y-up) coordinates; the pattern is
    clipped to it.  ``cell_size`` is the size of the cell being filled (a hex across its flats, a swatch's
    width): the marks scale with it.  The fill under the pattern is the caller's; ``none`` draws nothing.

    The marks are drawn once into a periodic tile (a PDF form XObject) which is then placed wherever the
    polygons need it, anchored to the coordinate origin so that neighbouring cells join into one texture.
    A 2,000-hex map thus carries a few dozen marks per terrain instead of tens of thousands.
    """
    p = Pattern(pattern)
    polys = [q for q in _polygons(path) if len(q) >= 3]
    if p is Pattern.NONE or not polys:
        return
    s = max(cell_size, 4.0)
    name, tw, th = _tile(canvas, p, colour, s)
    canvas.saveState()
    clip = canvas.beginPath()
    clip.moveTo(*polys[0][0])  # a path's first operator is reportlab's own moveTo; the rest formatted at once
    for k, q in enumerate(polys):
        tokens = fp_str(*[v for pt in q for v in pt]).split(" ")
        clip._code_append(_polygon_code(len(q), k > 0, back=False).format(*tokens))
    canvas.clipPath(clip, stroke=0, fill=0)
    spots: set[tuple[int, int]] = set()
    for x0, y0, x1, y1 in (_bbox(q) for q in polys):
        for ti in range(math.floor(x0 / tw), math.ceil(x1 / tw)):
            for tj in range(math.floor(y0 / th), math.ceil(y1 / th)):
                spots.add((ti, tj))
    place_form(canvas, name, [(ti * tw, tj * th) for ti, tj in sorted(spots, key=lambda t: (t[1], t[0]))])
    canvas.restoreState()


def _tile(canvas: Canvas, p: Pattern, colour: Color, s: float) -> tuple[str, float, float]:
    """The form XObject holding one period of ``p`` (made on first use per canvas): name, width, height."""
    forms: dict[tuple[str, str, float], tuple[str, float, float]] = canvas.__dict__.setdefault("_hexforge_tiles", {})
    key = (p.value, colour.hexval(), round(s, 4))
    if key in forms:
        return forms[key]
    draw, width, period = _PATTERNS[p]
    px, py = period(s)
    nx, ny = max(1, math.ceil(s / px)), max(1, math.ceil(s / py))
    tw, th = nx * px, ny * py
    name = f"HexforgePattern{len(forms) + 1}"
    canvas.beginForm(name, 0, 0, tw, th)
    canvas.setStrokeColor(colour)
    canvas.setFillColor(colour)
    canvas.setLineCap(1)
    canvas.setLineJoin(1)
    canvas.setLineWidth(width(s))
    strokes = PathBatch(canvas, stroke=True, fill=False)
    fills = PathBatch(canvas, stroke=False, fill=True)
    draw(strokes, fills, [(0.0, 0.0, tw, th)], s, (tw, th))
    strokes.flush()
    fills.flush()
    end_form_sealed(canvas, name, canvas.endForm)  # reportlab's bytes, encoded faster (forge.pdf.end_form_sealed)
    forms[key] = (name, tw, th)
    return forms[key]


# Each pattern adds its marks to a stroke batch and a fill batch; its line width is in _PATTERNS.
def _trees(st: PathBatch, fi: PathBatch, boxes: list[Box], s: float, tile: tuple[float, float]) -> None:
    step = s / 6.0
    ni, nj = round(tile[0] / step), round(tile[1] / (step * 0.8))  # jitter repeats with the tile: seamless
    for i0, j0, x, y in _lattice(boxes, step, step * 0.8, stagger=True):
        i, j = i0 % ni, j0 % nj
        x += (_jitter(i, j, 1) - 0.5) * step * 0.35
        y += (_jitter(i, j, 2) - 0.5) * step * 0.3
        r = step * (0.26 + 0.1 * _jitter(i, j, 3))
        st.moveTo(x, y - r * 1.75)  # trunk
        st.lineTo(x, y - r * 0.5)
        fi.circle(x, y, r)  # canopy


def _dots(st: PathBatch, fi: PathBatch, boxes: list[Box], s: float, tile: tuple[float, float]) -> None:
    step = s / 9
    for _, _, x, y in _lattice(boxes, step, step * 0.87, stagger=True):
        fi.circle(x, y, step * 0.16)


def _lines(st: PathBatch, box: Box, step: float, slope: int) -> None:
    x0, y0, x1, y1 = box
    h = y1 - y0
    for i in range(math.floor((x0 - h) / step) - 1, math.ceil(x1 / step) + 2):
        x = i * step
        if slope > 0:
            st.moveTo(x, y0)
            st.lineTo(x + h, y1)
        else:
            st.moveTo(x + h, y0)
            st.lineTo(x, y1)


def _hatch(st: PathBatch, fi: PathBatch, boxes: list[Box], s: float, tile: tuple[float, float]) -> None:
    _lines(st, _union(boxes), s / 10, 1)


def _crosshatch(st: PathBatch, fi: PathBatch, boxes: list[Box], s: float, tile: tuple[float, float]) -> None:
    box = _union(boxes)
    _lines(st, box, s / 8, 1)
    _lines(st, box, s / 8, -1)


def _marsh(st: PathBatch, fi: PathBatch, boxes: list[Box], s: float, tile: tuple[float, float]) -> None:
    step = s / 5
    w = step * 0.32
    for _, _, x, y in _lattice(boxes, step, step * 0.6, stagger=True):
        st.moveTo(x - w, y)  # water line
        st.lineTo(x + w, y)
        for dx, hh in ((-w * 0.5, 0.45), (0.0, 0.7), (w * 0.5, 0.45)):  # reed tufts
            st.moveTo(x + dx, y)
            st.lineTo(x + dx * 1.3, y + w * hh)


def _hills(st: PathBatch, fi: PathBatch, boxes: list[Box], s: float, tile: tuple[float, float]) -> None:
    step = s / 4
    r = step * 0.3
    for _, _, x, y in _lattice(boxes, step, step * 0.6, stagger=True):
        st.arc(x - r, y - r * 0.7, x + r, y + r * 0.9, startAng=0, extent=180)


def _waves(st: PathBatch, fi: PathBatch, boxes: list[Box], s: float, tile: tuple[float, float]) -> None:
    x0, y0, x1, y1 = _union(boxes)
    step = s / 7
    amp = step * 0.22
    wl = step * 1.2
    for j in range(math.floor(y0 / step) - 1, math.ceil(y1 / step) + 2):
        y = j * step
        x = math.floor(x0 / wl) * wl - wl
        st.moveTo(x, y)
        while x < x1 + wl:
            st.curveTo(x + wl / 4, y + amp * 1.3, x + wl / 4, y + amp * 1.3, x + wl / 2, y)
            st.curveTo(x + 3 * wl / 4, y - amp * 1.3, x + 3 * wl / 4, y - amp * 1.3, x + wl, y)
            x += wl


def _brick(st: PathBatch, fi: PathBatch, boxes: list[Box], s: float, tile: tuple[float, float]) -> None:
    x0, y0, x1, y1 = _union(boxes)
    bw, bh = s / 5, s / 10
    for j in range(math.floor(y0 / bh) - 1, math.ceil(y1 / bh) + 1):
        y = j * bh
        st.moveTo(x0 - bw, y)
        st.lineTo(x1 + bw, y)
    for _, _, x, y in _lattice(boxes, bw, bh, stagger=True):
        st.moveTo(x, y)
        st.lineTo(x, y + bh)


_Draw = Callable[[PathBatch, PathBatch, list[Box], float, tuple[float, float]], None]
_PATTERNS: dict[Pattern, tuple[_Draw, Callable[[float], float], Callable[[float], tuple[float, float]]]] = {
    # pattern: (marks, line width, period (x, y) of the marks for a cell size s)
    Pattern.TREES: (_trees, lambda s: max(0.3, s / 300), lambda s: (s / 6, 2 * 0.8 * s / 6)),
    Pattern.DOTS: (_dots, lambda s: 0.4, lambda s: (s / 9, 2 * 0.87 * s / 9)),
    Pattern.HATCH: (_hatch, lambda s: max(0.4, s / 150), lambda s: (s / 10, s / 10)),
    Pattern.CROSSHATCH: (_crosshatch, lambda s: max(0.35, s / 180), lambda s: (s / 8, s / 8)),
    Pattern.MARSH: (_marsh, lambda s: max(0.4, s / 160), lambda s: (s / 5, 2 * 0.6 * s / 5)),
    Pattern.HILLS: (_hills, lambda s: max(0.45, s / 140), lambda s: (s / 4, 2 * 0.6 * s / 4)),
    Pattern.WAVES: (_waves, lambda s: max(0.4, s / 170), lambda s: (1.2 * s / 7, s / 7)),
    Pattern.BRICK: (_brick, lambda s: max(0.35, s / 200), lambda s: (s / 5, 2 * s / 10)),
}
