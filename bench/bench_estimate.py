"""Calibrate forge.estimate: build synthetic games of growing size as whole processes and print estimate vs actual.

Each case writes a synthetic game (a grid of hexes, units per side, markers, turns) and runs ``forge build`` on
it in a child process with its address space capped (``RLIMIT_AS``, 3 GiB by default, so that no case can take
the machine down); the child's wall time and peak RSS (``os.wait4`` rusage ``ru_maxrss``) are compared with
``forge.estimate.estimate`` on the same game and options.  The estimate should be over, not under, and not
absurdly so: the ratio columns say by how much.

The ratio columns are estimate / CPU seconds (the wall time of an idle machine; on a busy one wall time runs
longer) and estimate / peak RSS.  Last run (2-core machine, 22 cases from 400 to 90,000 hexes, 600 to 5,000
counters, 5 to 200 handout sets, 400 to 1,200 images): time 1.5-2.5x over, memory 1.25-1.8x over, none under.

Run: python bench/bench_estimate.py [--quick] [--match TEXT] [--cap-gib 3]   -- prints a table; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _kits import synthetic

from forge.builder import BuildOptions
from forge.errors import LoadError
from forge.estimate import estimate
from forge.loader import loads

def run(game_file: Path, out: Path, args: list[str], cap: int) -> tuple[float, float, float, int]:
    """Wall seconds, CPU seconds, peak RSS in bytes and exit status of a build in a child capped at ``cap`` bytes
    (CPU time is steadier than wall time on a shared machine)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    cmd = [sys.executable, __file__, "--child", str(game_file), str(out), *args]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=limit)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    secs = time.perf_counter() - t0
    if proc.returncode not in (0,):
        sys.stderr.write(err.decode("utf-8", "replace")[-400:])
    return secs, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024.0, proc.returncode


CASES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("hexes 20x20", {"columns": 20, "rows": 20}, ["--only", "map"]),
    ("hexes 50x40", {"columns": 50, "rows": 40}, ["--only", "map"]),
    ("hexes 100x100", {"columns": 100, "rows": 100}, ["--only", "map"]),
    ("hexes 100x100 tabloid", {"columns": 100, "rows": 100}, ["--only", "map", "--paper", "tabloid"]),
    ("hexes 100x100 grey", {"columns": 100, "rows": 100}, ["--only", "map", "--greyscale"]),
    ("hexes 200x150", {"columns": 200, "rows": 150}, ["--only", "map"]),
    ("hexes 300x300 unlisted", {"columns": 300, "rows": 300, "listed": 0}, ["--only", "map"]),
    ("hexes 40x40 of 6in", {"columns": 40, "rows": 40, "hex_size": "6in"}, ["--only", "map"]),
    ("units 300/side", {"columns": 20, "rows": 20, "units_per_side": 300}, ["--only", "counters"]),
    ("units 1000/side", {"columns": 20, "rows": 20, "units_per_side": 1000}, ["--only", "counters"]),
    ("units 2500/side", {"columns": 20, "rows": 20, "units_per_side": 2500}, ["--only", "counters"]),
    ("markers 5000", {"columns": 20, "rows": 20, "markers": 5000}, ["--only", "counters"]),
    ("units 1000/side 3/4in bleed", {"columns": 20, "rows": 20, "units_per_side": 1000},
     ["--only", "counters", "--counter-size", "3/4in", "--bleed"]),
    ("cards 300 units 300 turns", {"columns": 20, "rows": 20, "units_per_side": 150, "turns": 300},
     ["--only", "cards"]),
    ("cards 2000 units 1000 turns", {"columns": 20, "rows": 20, "units_per_side": 1000, "turns": 1000},
     ["--only", "cards"]),
    ("handout 300/side x 5 sets", {"columns": 20, "rows": 20, "units_per_side": 300},
     ["--only", "handout", "--sets", "5"]),
    ("handout 300/side x 20 sets", {"columns": 20, "rows": 20, "units_per_side": 300},
     ["--only", "handout", "--sets", "20"]),
    ("handout 20/side x 200 sets", {"columns": 20, "rows": 20, "units_per_side": 20},
     ["--only", "handout", "--sets", "200"]),
    ("images 100/side", {"columns": 20, "rows": 20, "units_per_side": 100}, ["--only", "images"]),
    ("images 300/side", {"columns": 20, "rows": 20, "units_per_side": 300}, ["--only", "images"]),
    ("images 300/side 3/4in bleed", {"columns": 20, "rows": 20, "units_per_side": 300},
     ["--only", "images", "--counter-size", "3/4in", "--bleed"]),
    ("all 50x40 600 units", {"columns": 50, "rows": 40, "units_per_side": 300}, []),
]
QUICK = {"hexes 20x20", "hexes 50x40", "units 300/side", "cards 300 units 300 turns", "handout 300/side x 5 sets",
         "images 100/side", "all 50x40 600 units"}


def options(args: list[str]) -> BuildOptions:
    """The BuildOptions the CLI makes of ``args`` (the few this bench uses)."""
    kw: dict[str, Any] = {}
    it = iter(args)
    for a in it:
        if a == "--only":
            kw["only"] = tuple(next(it).split(","))
        elif a == "--paper":
            kw["paper"] = next(it)
        elif a == "--sets":
            kw["sets"] = int(next(it))
        elif a == "--counter-size":
            kw["counter_size"] = next(it)
        elif a == "--bleed":
            kw["bleed"] = True
        elif a == "--greyscale":
            kw["greyscale"] = True
    if "only" not in kw:
        kw["only"] = ("map", "counters", "cards") + (("handout",) if "sets" in kw else ())
    return BuildOptions(**kw)


def child(game_file: str, out: str, args: list[str]) -> None:
    """What ``forge build`` does, without its refusal: load, render, write (so that refused sizes can be timed)."""
    from forge.builder import build
    from forge.loader import load

    build(load(game_file), Path(out), options(args))


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], sys.argv[3], sys.argv[4:])
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="only the small cases")
    ap.add_argument("--cap-gib", type=float, default=3.0, help="address-space cap per child (GiB)")
    ap.add_argument("--match", default="", help="only cases whose name contains this")
    a = ap.parse_args()
    cap = int(a.cap_gib * 1024**3)
    print(
        f"{'case':<30} {'est s':>7} {'wall s':>7} {'cpu s':>7} {'ratio':>6} {'est MB':>7} {'real MB':>7} {'ratio':>6}"
        "  pages  driver"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for name, params, args in CASES:
            if (a.quick and name not in QUICK) or a.match not in name:
                continue
            text = synthetic(**params)
            game_file = Path(tmp) / "game.yaml"
            game_file.write_text(text, encoding="utf-8")
            try:
                est = estimate(loads(text, str(game_file)), options(args))
            except LoadError as e:
                print(f"{name:<30} not loadable: {str(e)[:200]}")
                continue
            secs, cpu, rss, rc = run(game_file, Path(tmp) / "out", args, cap)
            flag = "" if rc == 0 else f"  (exit {rc})"
            print(
                f"{name:<30} {est.seconds:7.1f} {secs:7.1f} {cpu:7.1f} {est.seconds / cpu:6.2f} {est.bytes / 1e6:7.0f} "
                f"{rss / 1e6:7.0f} {est.bytes / rss:6.2f} {est.pages:6}  {est.driver().what}{flag}",
                flush=True,
            )


if __name__ == "__main__":
    main()
