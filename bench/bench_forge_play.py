"""``forge play --games N`` on every game the engine plays, timed: one row per game and policy.

Run: .venv/bin/python bench/bench_forge_play.py [GAMES] [--policy random|greedy|both]  -- prints a table; asserts
nothing.  Each row runs ``python -m forge play GAME.yaml --games N`` (Hell's Gate with ``--assume strength=3``: its
rulebook leaves most strengths unknown) as a child process of this tree, and reports its wall-clock seconds, its
CPU seconds (``resource.getrusage`` of the children), games per CPU second (start-up included) and the winners
line of its output.  Seeds 0..N-1, so a row is repeatable.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = [
    ("Hell's Gate", ROOT / "data" / "hells_gate.yaml", ["--assume", "strength=3"]),
    ("Ferry Point", ROOT / "data" / "ferry_point.yaml", []),
    ("synthetic tabletop", ROOT / "tests" / "data" / "synthetic_tabletop.yaml", []),
]


def run(path: Path, extra: list[str], games: int, policy: str) -> tuple[float, float, list[str]]:
    """Wall and CPU seconds of one ``forge play`` child, and its output lines."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    cmd = [sys.executable, "-m", "forge", "play", str(path), "--games", str(games), "--policy", policy, *extra]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=ROOT, env=env)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout.splitlines()


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--policy")]
    games = int(args[0]) if args else 1000
    policy = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--policy=")), "random")
    policies = ["random", "greedy"] if policy == "both" else [policy]
    header = f"{'game':<20} {'policy':<7} {'games':>6} {'wall s':>8} {'CPU s':>8} {'games/CPU s':>12}  winners"
    print(header)
    print("-" * len(header))
    for name, path, extra in GAMES:
        for pol in policies:
            wall, cpu, lines = run(path, extra, games, pol)
            won = ", ".join(x.replace("won by ", "") for x in lines if x.startswith(("won by ", "draws")))
            print(f"{name:<20} {pol:<7} {games:>6} {wall:>8.2f} {cpu:>8.2f} {games / cpu:>12.1f}  {won}")


if __name__ == "__main__":
    main()
