"""The map as board images: each map sheet, whole, as a 300 dpi PNG (``forge build --only board``).

For a service that prints a game board from an image rather than a PDF (The Game Crafter's boards and mats take
an image per piece; docs/PRINTING.md), and for anyone who wants the map as a picture.  ``render(game, options)``
returns a folder of files by relative path (written under ``<out>/<game id>/board/``):

- ``map-<n>.png``: page ``n`` of the map drawn whole at its own size (as ``--no-tile`` prints it), at 300 dpi
  (``pHYs`` says so), RGB without alpha; with ``--print-marks`` the image takes in the page bleed
  (``--page-bleed``), whose terrain runs on past the trim as on the PDF, and stops at the bleed's edge: the crop
  marks lie outside it and are left out.

The pages are the map component's own (:func:`forge.render.map.render`), rasterised by pdfium: one drawing, so the
board and ``map.pdf`` cannot differ.  Colours are the screen's sRGB, also under ``--pdfx`` (an image is not a
PDF/X file: the service separates it); ``--greyscale`` gives grey levels.  The build refuses an image larger than
:data:`forge.estimate.BOARD_MAX_PIXELS` before anything is drawn.
"""

from __future__ import annotations

import dataclasses
import io
import math
from typing import TYPE_CHECKING

from ..model import Game
from ..pdf import PageFinish, page_finish

if TYPE_CHECKING:  # build imports the renderers: a runtime import would be circular
    from ..builder import BuildOptions

__all__ = ["DPI", "render"]

DPI = 300
"""The images' resolution: what print services ask for."""


def render(game: Game, options: BuildOptions) -> dict[str, bytes]:
    """``{"map-1.png": ..., ...}``: every page of the map, whole, at :data:`DPI`, cropped to its bleed box."""
    import pypdfium2 as pdfium

    from ..builder import page_bleed
    from . import map as map_

    whole = dataclasses.replace(options, tile=False, pdfx=False)
    with page_finish(PageFinish(bleed=page_bleed(options), grey_ink=options.greyscale)):
        pdf = map_.render(game, whole)
    files: dict[str, bytes] = {}
    doc = pdfium.PdfDocument(pdf)
    try:
        for n in range(len(doc)):
            page = doc[n]
            try:
                files[f"map-{n + 1}.png"] = _png(page)
            finally:
                page.close()
    finally:
        doc.close()
    return files


def _png(page: object) -> bytes:
    """One page, cropped to its bleed box (the page itself when it has none), as a PNG of at least :data:`DPI`:
    the box's width in inches times DPI, rounded up, pixels across (a service divides pixels by inches)."""
    mx0, _, _, my1 = page.get_mediabox()  # type: ignore[attr-defined]
    bx0, by0, bx1, by1 = page.get_bleedbox()  # type: ignore[attr-defined]  # falls back to the media box
    w = math.ceil((bx1 - bx0) / 72 * DPI - 1e-6)
    h = math.ceil((by1 - by0) / 72 * DPI - 1e-6)
    scale = w / (bx1 - bx0)
    # The whole page, then the box cut out in pixels (pdfium's own crop rounds each side up, which can lose one).
    full = page.render(scale=scale, may_draw_forms=True).to_pil().convert("RGB")  # type: ignore[attr-defined]
    left, top = round((bx0 - mx0) * scale), round((my1 - by1) * scale)
    image = full.crop((left, top, left + w, top + h))
    buf = io.BytesIO()
    image.save(buf, format="PNG", dpi=(DPI, DPI), optimize=False, compress_level=6)
    return buf.getvalue()
