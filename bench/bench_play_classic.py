"""How many complete games of random play the odds-CRT engine (forge/rules/classic.py) runs per second on its
demonstration game, The Halden Line (data/halden_line.yaml).

Run: .venv/bin/python bench/bench_play_classic.py [GAMES]   -- prints a table; asserts nothing.

Random play: at every decision a uniformly random legal action (``random.Random(seed).randrange``), dice from
``Dice(seed)`` (:func:`forge.rules.classic.play_random`); seeds 0..GAMES-1, so runs are repeatable.  The first game
is timed apart: it pays for compiling the rules and filling the engine's memos (step costs by class and weather,
zones, stacks).  Games per second are counted in CPU time of this process (``time.process_time``), so other work
on the machine does not skew them; the wall-clock rate is printed beside it.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from forge.loader import load
from forge.rules import classic as C


def main(games: int = 20) -> None:
    game = load(ROOT / "data" / "halden_line.yaml")
    t0 = time.process_time()
    C.play_random(game, 0)
    first = time.process_time() - t0
    t1, w1 = time.process_time(), time.perf_counter()
    results: Counter[str] = Counter()
    actions = 0
    for seed in range(1, games + 1):
        s = C.play_random(game, seed)
        assert s.result is not None
        results[s.result.winner or "draw"] += 1
        actions += s.version
    cpu, wall = time.process_time() - t1, time.perf_counter() - w1
    print(f"{'game':<14}{'games':>7}{'first (s)':>11}{'games/s cpu':>13}{'games/s wall':>14}{'versions/game':>15}")
    print(
        f"{'halden_line':<14}{games:>7}{first:>11.2f}{games / cpu:>13.2f}{games / wall:>14.2f}{actions / games:>15.0f}"
    )
    print("results:", ", ".join(f"{k} {v}" for k, v in sorted(results.items())))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
