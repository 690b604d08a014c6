"""Issue 25 on tiled map pages.  Print 11: Ferry Point on A4 warned "map tile footer ... printed cut short" and ended
the printing hint in "…" on all four tiles: beside the scale bar there is no room for it, under the bar there is."""

from __future__ import annotations

import io
from pathlib import Path

import pypdf
import pytest

from forge.builder import BuildOptions
from forge.errors import collect_warnings
from forge.loader import load
from forge.render import map as M

ROOT = Path(__file__).parent.parent
HINT = "Print at 100 % (actual size). Trim at the crop marks; glue each shaded strip under its neighbour."


@pytest.mark.parametrize(("game", "paper"), [("ferry_point", "a4"), ("hells_gate", "letter"), ("hells_gate", "a4")])
def test_tile_footer_printed_whole(game: str, paper: str) -> None:
    with collect_warnings() as found:
        pdf = M.render(load(ROOT / "data" / f"{game}.yaml"), BuildOptions(paper=paper, only=("map",)))
    assert not [w for w in found if "map tile footer" in w.message]
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    tiles = [p for p in reader.pages if "tile " in p.extract_text() and "Assembly" not in p.extract_text()]
    assert tiles
    for page in tiles:
        text = " ".join(page.extract_text().split())
        assert HINT in text and "…" not in text
