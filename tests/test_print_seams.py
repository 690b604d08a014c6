"""Issue 25, print 3: a chart on a tiled map sheet is never sliced at a tile's edge.  Hell's Gate on Letter put the
turn track's footnotes across the strip between tiles 2 and 4, so tile 2 printed their last line cut at its foot.
Every chart item of every seed map on every paper it is tiled on lies wholly on one side of each horizontal cut,
or wholly inside the overlap strip (printed whole on both tiles)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from forge import tiling
from forge.builder import BuildOptions
from forge.loader import load
from forge.render import map as M

ROOT = Path(__file__).parent.parent
CASES = [(p, paper) for p in sorted((ROOT / "data").glob("*.yaml")) for paper in ("letter", "a4")]


@pytest.mark.parametrize(("path", "paper"), CASES, ids=[f"{p.stem}-{paper}" for p, paper in CASES])
def test_no_chart_is_cut_at_a_seam(path: Path, paper: str) -> None:
    game = load(path)
    options = replace(BuildOptions(), paper=paper)
    lay = M.sheet_layout(game, options)
    pw, ph = options.paper_size()
    if tiling.fits(lay.sheet_w, lay.sheet_h, pw, ph):
        pytest.skip("printed whole")
    tplan = tiling.plan(lay.sheet_w, lay.sheet_h, pw, ph)
    strips = {(s.rect.y, s.rect.y + s.rect.h) for t in tplan.tiles for s in t.strips if s.side == "bottom"}
    tile_h = min(t.source.h for t in tplan.tiles)
    for page in lay.pages:
        for p in page.placed:
            top, foot = p.y, p.y + p.item.height
            if foot - top > tile_h - 2 * tiling.DEFAULT_OVERLAP:
                continue  # taller than a tile: no place keeps it whole
            for a, b in strips:
                whole = foot <= a + 1e-6 or top >= b - 1e-6 or (top >= a - 1e-6 and foot <= b + 1e-6)
                assert whole, f"{page.kind} sheet: chart item {top:.1f}-{foot:.1f} cut by the strip {a:.1f}-{b:.1f}"


def test_hells_gate_letter_turn_track_footnotes_off_the_seam() -> None:
    """The case as found: the footnote item ran from 391 to 428 pt across the strip 378-414 pt."""
    game = load(ROOT / "data" / "hells_gate.yaml")
    lay = M.sheet_layout(game, replace(BuildOptions(), paper="letter"))
    for p in lay.pages[0].placed:
        top, foot = p.y, p.y + p.item.height
        assert not (top < 414 - 1e-6 and foot > 378 + 1e-6 and not (top >= 378 and foot <= 414)), (top, foot)
