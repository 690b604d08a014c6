"""Greyscale with many terrain types (issue 25, item 30): a synthetic game with 50, 100, 200 (and more) terrain types,
built in colour and with ``--greyscale``.

Each game is bench/_kits.py's 20x20 synthetic game with N extra terrain types (fills round the first ``--patterns``
patterns, default 2: plain and trees; one in ten a hexside terrain and one in ten a path terrain; colours from a
seeded generator), every described hex on one of the fill types.  Colours that must be told apart in greyscale are
spread at least 20 L* apart (forge.render.style); with tens of types per pattern the greys run out and each further
colour is put as far from the others as it can go.  That search was cubic in the number of types (every candidate
grey against every grey taken, for each colour; and the reference cards' terrain key computes the palette once per
sample): 200 types took 41 s in greyscale against 3 s in colour.

The table: seconds for one ``Palette.of`` (greyscale), CPU seconds of a build of map, counters and cards in colour
and in greyscale (each a child process; CPU time is steadier than wall time on a shared machine).

Run: python bench/bench_greyscale.py [--types 50,100,200] [--patterns 2] [--no-build]
  prints a table; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _kits import synthetic

PATTERNS = ["none", "trees", "dots", "hatch", "crosshatch", "marsh", "hills", "waves", "brick"]


def many_types(n: int, patterns: int = 2, seed: int = 30) -> str:
    """YAML text of the synthetic game with ``n`` more terrain types (see the module's docstring)."""
    doc: dict[str, Any] = yaml.safe_load(synthetic(20, 20, listed=400))
    rng = random.Random(seed)
    fills = []
    for k in range(n):
        colour = f"#{rng.randrange(1 << 24):06x}"
        kind = "hexside" if k % 10 == 8 else "path" if k % 10 == 9 else "hex"
        entry: dict[str, Any] = {"name": f"Terrain {k}", "colour": colour, "movement": {"all": 1}}
        if kind == "hex":
            entry["pattern"] = PATTERNS[k % patterns]
            fills.append(f"t{k}")
        else:
            entry["kind"] = kind
        doc["terrain"][f"t{k}"] = entry
    for i, label in enumerate(doc["map"]["hexes"]):
        doc["map"]["hexes"][label]["terrain"] = fills[i % len(fills)]
    return yaml.safe_dump(doc, sort_keys=False)


def build_cpu(game: Path, out: Path, greyscale: bool) -> float:
    """CPU seconds of ``forge build`` (map, counters, cards) of ``game`` in a child process."""
    argv = [sys.executable, "-m", "forge", "build", "-q", str(game), "--out", str(out), "--only", "map,counters,cards"]
    before = os.times()
    subprocess.run([*argv, *(["--greyscale"] if greyscale else [])], cwd=ROOT, check=True, capture_output=True)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--types", default="50,100,200", help="numbers of terrain types, comma-separated")
    ap.add_argument("--patterns", type=int, default=2, help="fill patterns the types share (1 to 9; default 2)")
    ap.add_argument("--no-build", action="store_true", help="time the palette only")
    a = ap.parse_args()
    from forge.loader import loads
    from forge.render.style import Palette

    print(f"{'types':>6} {'palette s':>10} {'colour s':>9} {'greyscale s':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in [int(x) for x in a.types.split(",")]:
            text = many_types(n, a.patterns)
            game_file = Path(tmp) / f"types{n}.yaml"
            game_file.write_text(text, encoding="utf-8")
            game = loads(text, str(game_file))
            t0 = time.perf_counter()
            Palette.of(game, greyscale=True)
            palette = time.perf_counter() - t0
            if a.no_build:
                print(f"{n:>6} {palette:>10.3f}", flush=True)
                continue
            colour = build_cpu(game_file, Path(tmp) / "out", False)
            grey = build_cpu(game_file, Path(tmp) / "out", True)
            print(f"{n:>6} {palette:>10.3f} {colour:>9.1f} {grey:>12.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
