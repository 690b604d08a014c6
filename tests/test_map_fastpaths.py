"""The large-map fast paths of the map renderer give what the plain paths give (issue 11, item 3).

- ``MapGeometry.center``/``corners`` write ``Grid.center``/``Grid.corners``' arithmetic out for hexes: the same
  floats, to the last bit, for every kind, orientation and parity;
- ``PathBatch.polygon`` (one ``fp_str`` per polygon) writes the operators and the batches of
  ``moveTo``/``lineTo``/``close``;
- the thumbnail form takes the sheet form's fills and hex lines (``_GridReplay``): the map's bytes are those of
  the thumbnail drawn again.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

from forge.builder import BuildOptions
from forge.hexgrid import Cell, Grid, GridKind, Orientation, Parity
from forge.loader import load
from forge.render import map as M
from forge.render.style import PathBatch

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("kind", list(GridKind))
@pytest.mark.parametrize("orientation", list(Orientation))
@pytest.mark.parametrize("parity", list(Parity))
def test_geometry_matches_grid(kind: GridKind, orientation: Orientation, parity: Parity) -> None:
    for cols, rows in ((9, 7), (1, 4), (4, 1), (1, 1)):
        grid = Grid(kind, cols, rows, orientation=orientation, parity=parity)
        for size in (36.0, 0.6 * 72, 17.3, 0.75 * 72):
            geom = M.MapGeometry(grid, size, 12.345, 27.9)
            for c in [*grid.cells(), Cell(-1, -3), Cell(40, 41)]:
                want = [(geom.ox + x, geom.oy + y) for x, y in grid.corners(c, size)]
                assert repr(geom.corners(c)) == repr(want)
                x, y = grid.center(c, size)
                assert repr(geom.center(c)) == repr((geom.ox + x, geom.oy + y))


def _batched(polys: list[list[tuple[float, float]]], fast: bool) -> str:
    c = Canvas(None)  # type: ignore[arg-type]
    start = len(c._code)
    pb = PathBatch(c, stroke=True, fill=True, limit=150.0)  # small: several batches
    for pts in polys:
        if fast:
            pb.polygon([v for p in pts for v in p])
        else:
            pb.moveTo(*pts[0])
            for p in pts[1:]:
                pb.lineTo(*p)
            pb.lineTo(*pts[0])
            pb.close()
    pb.flush()
    return "\n".join(c._code[start:])


def test_path_batch_polygon_matches_line_by_line() -> None:
    rnd = random.Random(7)
    polys = [
        [(rnd.uniform(-50, 600), rnd.uniform(-50, 800)) for _ in range(rnd.choice((1, 3, 4, 6, 6, 6)))]
        for _ in range(200)
    ]
    slow = _batched(polys, fast=False)
    assert slow.count("B*") > 3  # the limit split it into batches
    assert _batched(polys, fast=True) == slow


def test_thumbnail_replay_gives_the_same_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load(ROOT / "data" / "hells_gate.yaml")
    opts = BuildOptions(paper="letter")  # tiled: a sheet form and its thumbnail
    public = M.render(game, opts)  # an ordinary map draws its thumbnail again
    monkeypatch.setattr(M, "COMPACT_EVERY", 8)  # ... a large one replays the sheet's drawing
    used = []
    replay = M._GridReplay.replay

    def counted(self: M._GridReplay, rl: object) -> bool:
        used.append(replay(self, rl))
        return used[-1]

    monkeypatch.setattr(M._GridReplay, "replay", counted)
    fast = M.render(game, opts)
    assert used
    assert all(used)
    monkeypatch.setattr(M._GridReplay, "replay", lambda self, rl: False)
    assert M.render(game, opts) == fast == public
