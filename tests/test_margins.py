"""The printer margin every layout assumes (``forge.tiling.PRINTABLE_MARGIN``, 5 mm): nothing is printed closer to
a paper edge, on any page of the map tiles, the counter sheets or the cards, for every game on Letter and A4.

The one exception is a map sheet printed whole, on a page the size of the sheet rather than of the paper (Hell's
Gate's 17x11 in on tabloid): the sheet's own edge is the page's, as on the published map, and its edge hexes run
off it by design.  A sheet that is the paper's size (Ferry Point's 11x8.5 in on Letter) is checked.  Pages are
rasterised at 36 dpi: a pixel is 0.7 mm, so the band checked is the margin less one pixel.
"""

from __future__ import annotations

import importlib
from dataclasses import replace

import numpy as np
import pypdfium2 as pdfium
import pytest
from conftest import DATA

from forge import tiling
from forge.builder import BuildOptions
from forge.loader import load

DPI = 36
GAMES = sorted(p.stem for p in DATA.glob("*.yaml"))


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("name", GAMES)
def test_nothing_is_printed_in_the_printer_margin(name: str, paper: str) -> None:
    game = load(DATA / f"{name}.yaml")
    options = replace(BuildOptions(), paper=paper)
    pw, ph = options.paper_size()
    band = tiling.PRINTABLE_MARGIN / 72 * DPI - 1  # pixels
    for component in ("map", "counters", "cards"):
        pdf = pdfium.PdfDocument(importlib.import_module(f"forge.render.{component}").render(game, options))
        for i in range(len(pdf)):
            page = pdf[i]
            w, h = page.get_size()
            if component == "map" and (abs(w - pw) > 1 or abs(h - ph) > 1) and (abs(w - ph) > 1 or abs(h - pw) > 1):
                continue  # a whole sheet on a page of its own size: its edge is the map's (see the module doc)
            pixels = np.asarray(page.render(scale=DPI / 72, grayscale=True).to_pil().convert("L"))
            ink = np.argwhere(pixels < 250)
            if not len(ink):
                continue
            rows, cols = pixels.shape
            nearest = min(ink[:, 0].min(), ink[:, 1].min(), rows - 1 - ink[:, 0].max(), cols - 1 - ink[:, 1].max())
            assert nearest >= band, f"{name} {paper} {component} page {i + 1}: ink {nearest / DPI * 25.4:.1f} mm in"
