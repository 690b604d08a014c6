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
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from forge.builder import BuildOptions, build
from forge.loader import load, loads


def large_game(columns: int = 50, rows: int = 40, counters_per_side: int = 300) -> str:
    """YAML text of a synthetic game big enough to stress the renderers."""
    terrains = ["clear", "woods", "marsh", "hills"]
    hexes: dict[str, Any] = {}
    for c in range(columns):
        for r in range(rows):
            t = terrains[(c * 7 + r * 3) % 4]
            label = f"{c + 1:02d}{r + 1:02d}"
            entry: dict[str, Any] = {"terrain": t}
            if (c + r) % 37 == 0:
                entry["name"] = f"Town {label}"
                entry["features"] = ["town"]
            hexes[label] = entry
    units = []
    types = ["infantry", "armour", "mechanised", "cavalry", "artillery"]
    for side in ("red", "blue"):
        for i in range(counters_per_side):
            col = (i % columns) + 1
            row = 1 + (i // columns) % rows if side == "red" else rows - (i // columns) % rows
            units.append(
                {
                    "id": f"{side}-{i}",
                    "side": side,
                    "name": f"{i + 1}th {types[i % 5].title()}",
                    "label": str(i + 1),
                    "type": types[i % 5],
                    "size": ["X", "XX", "XXX"][i % 3],
                    "steps": [f"{4 + i % 5}-{3 + i % 4}-{6 + i % 3}", f"{2 + i % 3}-{1 + i % 2}-{6 + i % 3}"],
                    "setup": f"{col:02d}{row:02d}",
                }
            )
    game = {
        "format": 1,
        "game": {
            "id": "large",
            "title": "Large Synthetic Game",
            "source": "bench/bench_build.py",
            "scale": {"km_per_hex": 10, "days_per_turn": 2},
            "sides": [
                {"id": "red", "name": "Red", "colour": "#c8102e"},
                {"id": "blue", "name": "Blue", "colour": "#1f4e9c"},
            ],
            "first_side": "red",
            "strength_format": "attack-defense-movement",
        },
        "map": {
            "grid": {"kind": "hex", "orientation": "flat", "parity": "even", "columns": columns, "rows": rows},
            "sheet": "34x22in",
            "hex_size": "0.6in",
            "status": "complete",
            "default_terrain": "clear",
            "hexes": hexes,
            "paths": [{"kind": "road", "hexes": [f"{c:02d}05" for c in range(1, columns + 1)]}],
        },
        "terrain": {
            "clear": {"name": "Clear", "movement": {"all": 1}},
            "woods": {"name": "Woods", "pattern": "trees", "colour": "#9cc47f", "movement": {"all": 2}},
            "marsh": {"name": "Marsh", "pattern": "marsh", "colour": "#b7d3c8", "movement": {"all": 3}},
            "hills": {"name": "Hills", "pattern": "hills", "colour": "#d9c29a", "movement": {"all": 2}},
            "town": {"name": "Town", "kind": "feature", "symbol": "town", "movement": {"all": 1}},
            "road": {"name": "Road", "kind": "path", "colour": "#7a5a3a", "movement": {"all": 0.5}},
        },
        "units": units,
        "turns": {"turns": [{"number": n} for n in range(1, 13)]},
        "combat": {
            "kind": "odds",
            "crt": {
                "columns": ["1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"],
                "rows": ["1", "2", "3", "4", "5", "6"],
                "cells": [["AE", "AR", "DR", "DR", "DE", "DE", "DE"]] * 6,
            },
            "results": {
                "AE": {"meaning": "Attacker eliminated"},
                "AR": {"meaning": "Attacker retreats"},
                "DR": {"meaning": "Defender retreats"},
                "DE": {"meaning": "Defender eliminated"},
            },
        },
    }
    return yaml.safe_dump(game, sort_keys=False)


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
