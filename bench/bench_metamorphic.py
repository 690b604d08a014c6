"""Every single-site mutation of every game through ``forge verify`` (issue 8, item 4): the soundness table.

A mutation changes one CRT cell, shift value, terrain movement cost or combat shift, unit strength, or value an
example states (:mod:`forge.verifier.sites`) and verifies the game again in-process (no printed read-back).  Per game
and kind of site it prints how many mutations ran and what they came to:

* detected -- a new (or vanished) error/warning finding names the site;
* equivalent -- a recomputation reads the site, but the book's values still agree with the mutated data;
* declared -- the claim is listed as unchecked (info), before and after (or the mutated data makes it so);
* unread -- no recomputation reads the site, and nothing changed;
* MISSED -- anything else: a soundness bug, listed below the table.

Then, per game: sites, sites a recomputed claim depends on, and the unread unit/shift/terrain sites that an example
names in its inputs (coverage gaps: the example takes the value from its own numbers, not from the data).

Run: python bench/bench_metamorphic.py [--verbose]   -- asserts nothing; exit 1 when something is MISSED.
"""

from __future__ import annotations

import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from forge.errors import LoadError
from forge.loader import load
from forge.verifier import sites as S

KINDS = ("crt", "shift", "terrain", "unit", "stated")


def main(argv: list[str]) -> int:
    verbose = "--verbose" in argv
    t0 = time.perf_counter()
    table: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    per_game: list[tuple[str, int, int, list[str]]] = []
    missed: list[S.Outcome] = []
    for path in sorted((ROOT / "data").glob("*.yaml")):
        try:
            game = load(path)
        except LoadError as e:
            print(f"{path.stem}: does not load, skipped ({str(e).splitlines()[0]})")
            continue
        base = S.run(game)
        sites = S.sites(game)
        gaps = []
        for site in sites:
            cats = Counter()
            for new in site.candidates:
                o = S.outcome(base, site, new)
                table[(path.stem, site.kind)][o.category] += 1
                cats[o.category] += 1
                if o.category == "MISSED":
                    missed.append(o)
            if cats.get("unread") and (by := S.mentioned_by(game, site)):
                gaps.append(f"{site.name} (named by {', '.join(by)})")
        per_game.append((path.stem, len(sites), sum(S.depended(base, s) for s in sites), gaps))
    w = max(len(g) for g, _ in table)
    cols = ("mutations", *S.CATEGORIES)
    print(f"{'game':<{w}}  {'kind':<8}" + "".join(f"{c:>11}" for c in cols))
    total: Counter[str] = Counter()
    for (g, kind), c in sorted(table.items(), key=lambda kv: (kv[0][0], KINDS.index(kv[0][1]))):
        n = sum(c.values())
        total.update(c)
        print(f"{g:<{w}}  {kind:<8}{n:>11}" + "".join(f"{c.get(cat, 0):>11}" for cat in S.CATEGORIES))
    print(f"{'all':<{w}}  {'':<8}{sum(total.values()):>11}" + "".join(f"{total.get(c, 0):>11}" for c in S.CATEGORIES))
    print()
    print(f"{'game':<{w}}  {'sites':>6}  {'depended on':>11}  {'named by an example, unread':>27}")
    for g, n, d, gaps in per_game:
        print(f"{g:<{w}}  {n:>6}  {d:>11}  {len(gaps):>27}")
        if verbose:
            for gap in gaps:
                print(f"    {gap}")
    if missed:
        print(f"\nMISSED ({len(missed)}):")
        for o in missed:
            print(f"  {o.mutation}: {o.why}")
    print(f"\n{sum(total.values())} mutations in {time.perf_counter() - t0:.1f} s")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
