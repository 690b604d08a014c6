"""`forge verify` time for each data file, with and without the printed-table round trip (target: < 2 s each,
round trip included), printed as a table.

Run: .venv/bin/python bench/bench_verify.py   — asserts nothing.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from forge.loader import load
from forge.verifier.readback import roundtrip
from forge.verifier import verify


def best(fn, n: int = 3) -> float:  # type: ignore[no-untyped-def]
    out = float("inf")
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - t)
    return out


def main() -> None:
    rows = []
    for path in sorted((ROOT / "data").glob("*.yaml")):
        game = load(path)
        v = best(lambda g=game: verify(g))
        r = best(lambda g=game: roundtrip(g))
        cli = best(
            lambda p=path: subprocess.run(
                [sys.executable, "-m", "forge", "verify", str(p)], capture_output=True, check=False
            ),
            n=2,
        )
        rows.append((path.name, v, r, cli))
    w = max(len(r[0]) for r in rows)
    print(f"{'game':<{w}}  {'examples+tables s':>17}  {'print check s':>13}  {'forge verify end to end s':>25}")
    for name, v, r, cli in rows:
        print(f"{name:<{w}}  {v:17.3f}  {r:13.3f}  {cli:25.3f}")


if __name__ == "__main__":
    main()
