"""Build time of every data file and of a generated large game, printed as a table.

The large game: a 50 x 40 = 2,000-hex map tiled on Letter, and 600 double-sided counters (300 per side).
Targets on a 2-core machine: Hell's Gate complete build < 0.6 s end to end; the large game < 3 s.
For scale, LaTeX's `wargame` package takes ~9 ms per hex and ~20 ms per counter here.

Run: .venv/bin/python bench/bench_build.py   — asserts nothing.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _kits import synthetic

from forge.builder import BuildOptions, build
from forge.loader import load, loads


def large_game(columns: int = 50, rows: int = 40, counters_per_side: int = 300) -> str:
    """YAML text of a synthetic game big enough to stress the renderers (bench/_kits.py makes it)."""
    return synthetic(
        columns,
        rows,
        counters_per_side,
        setup=True,  # no sheet: sized to the grid (26 x 24 in of 0.6 in hexes: 34x22in no longer holds it)
        road=True,
        game_id="large",
        title="Large Synthetic Game",
        source="bench/bench_build.py",
    )


def timed(fn) -> float:  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> None:
    rows: list[tuple[str, float, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        hg = ROOT / "data" / "hells_gate.yaml"
        # end to end, as a user runs it (process start, imports, load, render, write)
        secs = min(
            timed(lambda: subprocess.run([sys.executable, "-m", "forge", "build", "-q", "--out", tmp, str(hg)],
                                         check=True, capture_output=True))
            for _ in range(3)
        )
        rows.append(("hells_gate.yaml end to end (forge build)", secs, ""))
        for path in sorted((ROOT / "data").glob("*.yaml")):
            game = load(path)
            opts = BuildOptions()
            build(game, out, opts)  # warm caches (fonts)
            secs = min(timed(lambda g=game, o=opts: build(g, out, o)) for _ in range(3))
            rows.append((f"{path.name} (in process)", secs, ""))
        text = large_game()
        t0 = time.perf_counter()
        game = loads(text, "large.yaml")
        load_s = time.perf_counter() - t0
        n_hex = game.map.grid.columns * game.map.grid.rows
        n_counters = sum(len(u.counter_faces()) for u in game.units)
        rows.append(("large: load 2,000 hexes + 600 units", load_s, ""))
        for comp in ("map", "counters"):
            opts = BuildOptions(only=(comp,))
            secs = min(timed(lambda o=opts: build(game, out, o)) for _ in range(2))
            per = secs / (n_hex if comp == "map" else n_counters) * 1000
            rows.append((f"large: {comp}", secs, f"{per:.3f} ms per {'hex' if comp == 'map' else 'counter'}"))
        secs = min(timed(lambda: build(game, out, BuildOptions())) for _ in range(2))
        rows.append(("large: full build (map, counters, cards)", load_s + secs, ""))
    w = max(len(r[0]) for r in rows)
    print(f"{'case':<{w}}  {'seconds':>8}  per item")
    for name, secs, per in rows:
        print(f"{name:<{w}}  {secs:8.3f}  {per}")


if __name__ == "__main__":
    main()
