"""How long `forge check` takes on each data file and on each kind of bad input (target: well under a second).

Run: .venv/bin/python bench/bench_load.py   — prints a table; asserts nothing.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from forge.errors import LoadError
from forge.loader import load, loads
from test_load import BAD
import contextlib


def best_of(fn, n: int = 5) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(n):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    rows = []
    for path in sorted((ROOT / "data").glob("*.yaml")):
        rows.append((f"load {path.name}", best_of(lambda p=path: load(p))))
    for name, raw in sorted(BAD.items()):

        def bad(raw: bytes = raw) -> None:
            with contextlib.suppress(LoadError):
                loads(raw, "bad.yaml")

        rows.append((f"reject {name}", best_of(bad)))
    width = max(len(r[0]) for r in rows)
    print(f"{'case':<{width}}  {'ms (best of 5)':>14}")
    for name, secs in rows:
        print(f"{name:<{width}}  {secs * 1000:14.1f}")


if __name__ == "__main__":
    main()
