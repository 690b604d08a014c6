"""Counter images for print services and digital play: every counter face as an SVG and a 300 dpi PNG.

``render(game, options)`` returns a folder of files by relative path (``forge build --only images`` writes them
under ``<out>/<game id>/images/``):

- ``<unit id>-front.svg`` / ``-back.svg`` for each unit's (first) counter, ``<unit id>-sub<k>-front.svg`` ... for
  the substitute counters of a multi-counter unit, ``marker-<marker id>-front.svg`` / ``-back.svg`` for markers;
- the same names with ``.png``: rendered from the SVG with cairosvg at 300 dpi (``pHYs`` says so);
- ``index.csv``: one row per file (file, kind, id, side, face, counter, step, strength, copies, note).

The faces are drawn by :func:`forge.render.counters.draw_face` through :class:`forge.canvas.SvgCanvas`: the same
code that draws the PDF counter sheets.  Each image is exactly the counter (``options.counter_points()``), plus
1/8 in of bleed on every side with ``options.bleed``; ``options.greyscale`` uses the grey palette.  Identical
counters (copies of a unit, several of a marker) are written once; ``copies`` in the index says how many to print.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..canvas import SvgCanvas
from ..model import Game, Unknown
from . import counters
from .counters import Face, Piece

if TYPE_CHECKING:  # build imports the renderers: a runtime import would be circular
    from ..builder import BuildOptions

__all__ = ["DPI", "FaceImage", "face_images", "face_png", "face_svg", "pixels", "render"]

DPI = 300
"""Resolution of the PNGs: what print services ask for."""

FONTCONFIG = Path(__file__).resolve().parent.parent / "fonts" / "fonts.conf"
"""The fontconfig file the PNGs are rendered with: the bundled faces only (forge/fonts/), as in the PDFs."""


def _cairosvg() -> Any:
    """cairosvg, with fontconfig pointed at the bundled fonts (unless the user chose a FONTCONFIG_FILE): set before
    cairo's first font lookup, which reads it once per process."""
    os.environ.setdefault("FONTCONFIG_FILE", str(FONTCONFIG))
    import cairosvg

    return cairosvg

_KEY = re.compile(r"^(?P<marker>marker:)?(?P<id>[^#]+)#(?P<n>\d+)(?:@\d+)?$")
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def pixels(points: float, dpi: int = DPI) -> int:
    """Pixels across ``points`` at ``dpi``, rounded up: an image is never under ``dpi`` at its print size (a
    5/8 in counter with 1/8 in bleed is 262.5 px at 300 dpi: 263, not 262).

    >>> pixels(45.0), pixels(36.0), pixels(54.0), pixels(63.0)
    (188, 150, 225, 263)
    """
    return math.ceil(points / 72 * dpi - 1e-9)


def face_svg(face: Face, *, s: float, bleed: float = 0.0, id_prefix: str = "") -> bytes:
    """``face`` as a standalone SVG ``s + 2 * bleed`` points square (the trim box inset by ``bleed``);
    ``id_prefix`` keeps its element ids unique when several SVGs are inlined into one page."""
    size = s + 2 * bleed
    c = SvgCanvas(size, size, id_prefix=id_prefix)
    if bleed:
        c.translate(bleed, bleed)
    counters.draw_face(c, face, s=s, bleed=bleed)
    return c.tobytes()


def face_png(svg: bytes, *, points: float, dpi: int = DPI) -> bytes:
    """Rasterise a square SVG ``points`` across to a PNG of :func:`pixels` ``(points, dpi)`` pixels a side."""
    px = pixels(points, dpi)
    png: bytes = _cairosvg().svg2png(bytestring=svg, dpi=dpi, output_width=px, output_height=px)
    return _with_resolution(png, dpi)


def _with_resolution(png: bytes, dpi: int) -> bytes:
    """Add a ``pHYs`` chunk (cairo writes none) so that image tools and print services see ``dpi``."""
    if png[12:16] != b"IHDR" or b"pHYs" in png[:64]:
        return png
    ppm = round(dpi / 0.0254)  # pixels per metre
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    end_of_ihdr = 8 + 4 + 4 + 13 + 4  # signature, length, type, data, crc
    return png[:end_of_ihdr] + chunk + png[end_of_ihdr:]


@dataclass(frozen=True)
class FaceImage:
    """One image to write: a face of a distinct counter."""

    stem: str
    """File name without its extension: ``sov-29tc-front``."""
    kind: str
    """``unit`` or ``marker``."""
    id: str
    side: str
    """The game side's id; empty for markers that belong to neither side."""
    face: str
    """``front`` or ``back``."""
    counter: int
    """0 for a unit's first counter, k for its k-th substitute counter; 0 for markers."""
    copies: int
    """How many of this counter the game has (the counter sheets print that many)."""
    image: Face
    note: str = ""


def _safe(text: str) -> str:
    """A file-name-safe rendering of an id: letters, digits, ``_ . -``; never hidden, never empty."""
    return _UNSAFE.sub("_", text).lstrip(".") or "_"


def face_images(game: Game, *, greyscale: bool = False) -> list[FaceImage]:
    """Every distinct counter face of ``game`` in counter-sheet order, fronts before backs."""
    mode: counters.Mode = "grey" if greyscale else "colour"
    distinct: dict[tuple[bool, str, int], list[Piece]] = {}
    for group in counters.pieces(game, mode=mode):
        for piece in group:
            m = _KEY.match(piece.key)
            if m is None:  # pragma: no cover - counters' key format is documented and tested
                raise ValueError(f"unexpected counter key {piece.key!r}")
            is_marker = m["marker"] is not None
            k = 0 if is_marker else int(m["n"])  # every marker of a kind is the same counter
            distinct.setdefault((is_marker, m["id"], k), []).append(piece)
    markers = {mk.id: mk for mk in game.markers}
    out: list[FaceImage] = []
    taken: set[str] = set()
    for (is_marker, ident, k), copies in distinct.items():
        piece = copies[0]
        if is_marker:
            marker = markers[ident]
            base, side, kind = f"marker-{_safe(ident)}", marker.side or "", "marker"
            note = (
                f"count not given by the rules: the counter sheets print {counters.UNKNOWN_MARKER_COUNT}"
                if isinstance(marker.count, Unknown)
                else ""
            )
        else:
            base, side, kind, note = _safe(ident), game.unit(ident).side, "unit", ""
            if k:
                base += f"-sub{k}"
        stem = base
        n = 2
        while stem in taken:  # two ids that only differ in unsafe characters
            stem, n = f"{base}-{n}", n + 1
        taken.add(stem)
        for face_name, face in (("front", piece.front), ("back", piece.back)):
            out.append(FaceImage(f"{stem}-{face_name}", kind, ident, side, face_name, k, len(copies), face, note))
    return out


_COLUMNS = ("file", "kind", "id", "side", "face", "counter", "step", "strength", "copies", "note")


def render(game: Game, options: BuildOptions) -> dict[str, bytes]:
    """The image folder of ``game``: ``{relative path: bytes}`` for every SVG, PNG and the ``index.csv``."""
    s = options.counter_points()
    bleed = counters.BLEED if options.bleed else 0.0
    files: dict[str, bytes] = {}
    index = io.StringIO()
    table = csv.writer(index, lineterminator="\n")
    table.writerow(_COLUMNS)
    for img in face_images(game, greyscale=options.greyscale):
        svg = face_svg(img.image, s=s, bleed=bleed, id_prefix=f"c-{img.stem}-")
        files[f"{img.stem}.svg"] = svg
        files[f"{img.stem}.png"] = face_png(svg, points=s + 2 * bleed)
        f = img.image
        step = str(f.step) if f.kind == "unit" else ""
        strength = f.strength if f.kind == "unit" and f.strength is not None else ""
        for ext in ("svg", "png"):
            table.writerow(
                [
                    f"{img.stem}.{ext}",
                    img.kind,
                    img.id,
                    img.side,
                    img.face,
                    img.counter,
                    step,
                    strength,
                    img.copies,
                    img.note,
                ]
            )
    files["index.csv"] = index.getvalue().encode("utf-8")
    return files
