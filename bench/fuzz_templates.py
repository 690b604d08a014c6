"""Fuzzing of the layout templates (``forge build --templates DIR``): mutations of the shipped counter.yaml and
card.yaml values, each run through what the command line does with a template.

A case is the shipped template with one to three mutations: a number set to a bound, just past it, zero, a tiny
or a huge value, negative, NaN or infinity, a value retyped (a string, a list, a mapping, null, a boolean), a key
deleted or misspelt, or a per-size override (``sizes: {1/2in: {part: {...}}}``) of a random part.  The case is
read (:func:`forge.templates.load`), checked (:func:`forge.render.counters.check_template`) and, when it passes,
drawn: the counter sheets of two seed games on a recording canvas, every counter size, with set codes, and their
layout checked (:func:`forge.layout.check`); a card template draws Ferry Point's and Hell's Gate's cards.

Outcomes: ``ok`` (drawn, and nothing overlaps or runs off), ``refused`` (a :class:`LoadError` whose every problem
names the template file and a line), and the faults: ``unlocated`` (a refusal without a line), ``silent`` (the
check passed but a drawn counter has a layout violation: a fault printed without a word), ``crash`` (any other
exception), ``hang`` (more than ``--timeout`` seconds of CPU), ``oom``.  Each case runs in a forked child with
caps on its CPU time and memory (bench/fuzz.py's runner).

Run: python bench/fuzz_templates.py [--cases N] [--seed S] [--kind counter|card|both] [--timeout SECONDS]
  prints each fault with its mutations and a summary; exit 1 when a case crashed, hung or was unlocated (``silent``
  is reported and counted, and fails the run with ``--strict``).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml

SHIPPED = ROOT / "templates"
GAMES = ("ferry_point", "hells_gate")
SIZES = ("1/2in", "9/16in", "5/8in", "3/4in")

# What a numeric value is set to: bounds of the schema (0, 0.5, 1, 2 ...), just past them, extremes, non-numbers.
NUMBERS: list[Any] = [
    0,
    1e-9,
    0.001,
    0.01,
    0.05,
    0.1,
    0.3,
    0.5,
    0.51,
    0.8,
    1,
    1.5,
    2,
    2.01,
    3,
    12,
    13,
    72,
    73,
    144,
    145,
    -0.01,
    -1,
    -2,
    1e308,
    1e400,
    10**30,
    float("nan"),
    float("inf"),
    float("-inf"),
]
RETYPED: list[Any] = [None, True, False, "", "0.5", "0.5in", "abc", [], [0.5], {}, {"x": 1}, "\u202e", "😀" * 50]


def leaves(doc: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every (path, value) of the scalar leaves of ``doc``."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from leaves(v, (*path, k))
    else:
        yield path, doc


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    for k in path[:-1]:
        doc = doc[k]
    doc[path[-1]] = value


def mutate(doc: dict[str, Any], rng: random.Random, kind: str) -> str:
    """Mutate ``doc`` in place once; return what was done."""
    paths = [p for p, _ in leaves(doc) if p and p[0] != "sizes"]
    path = rng.choice(paths)
    r = rng.random()
    if r < 0.3:  # a plausible value: what a designer's edit gives, within or near the schema's bounds
        value: Any = round(rng.uniform(0.0, 1.0 if kind == "counter" else 40.0), 3)
        _set(doc, path, value)
        return f"{'.'.join(map(str, path))} = {value!r}"
    if r < 0.5:
        value = rng.choice(NUMBERS)
        _set(doc, path, value)
        return f"{'.'.join(map(str, path))} = {value!r}"
    if r < 0.6:
        old = doc
        for k in path[:-1]:
            old = old[k]
        value = old[path[-1]]
        if isinstance(value, int | float) and not isinstance(value, bool):
            value = value * rng.choice([0.5, 2, 3, 10, -1])
            _set(doc, path, value)
            return f"{'.'.join(map(str, path))} scaled to {value!r}"
    if r < 0.7:
        value = rng.choice(RETYPED)
        _set(doc, path, value)
        return f"{'.'.join(map(str, path))} = {value!r}"
    if r < 0.78:
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        del parent[path[-1]]
        return f"{'.'.join(map(str, path))} deleted"
    if r < 0.82:
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        parent[str(path[-1]) + "x"] = parent.pop(path[-1])
        return f"{'.'.join(map(str, path))} misspelt"
    if kind == "counter":  # a per-size override of one value of a part
        size = rng.choice(SIZES)
        part = path[0]
        over = doc.setdefault("sizes", {}) or {}
        doc["sizes"] = over
        entry = over.setdefault(size, {})
        if len(path) == 1:
            entry[part] = rng.choice(NUMBERS)
            return f"sizes.{size}.{part} = {entry[part]!r}"
        key = path[-1]
        value = rng.choice(NUMBERS + ([None] if rng.random() < 0.1 else []))
        if key in ("x", "right", "y", "bottom") and rng.random() < 0.5:  # placed from the other edge
            key = {"x": "right", "right": "x", "y": "bottom", "bottom": "y"}[key]
        entry.setdefault(part, {})[key] = value
        return f"sizes.{size}.{part}.{key} = {value!r}"
    value = rng.choice(NUMBERS)
    _set(doc, path, value)
    return f"{'.'.join(map(str, path))} = {value!r}"


@dataclass
class Case:
    kind: str  # counter | card
    text: str
    mutations: list[str]


def make_case(seed: int, i: int, kind: str = "both") -> Case:
    return case_from(random.Random(f"{seed}-{i}"), kind)


def case_from(rng: random.Random, kind: str = "both") -> Case:
    """A case drawn with ``rng`` (tests/test_hardening_s18.py passes hypothesis' derandomized one)."""
    which = kind if kind != "both" else rng.choice(["counter", "counter", "card"])
    doc = yaml.safe_load((SHIPPED / f"{which}.yaml").read_text(encoding="utf-8"))
    done = [mutate(doc, rng, which) for _ in range(rng.randint(1, 3))]
    text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
    return Case(which, text, done)


def run_case(case: Case, folder: Path, games: dict[str, Any]) -> tuple[str, str]:
    """(outcome, detail) of one case that ends: ``ok``, ``refused``, ``unlocated`` or ``silent``; an exception
    escapes (:func:`main` runs this in a forked child, :func:`fuzz.run_forked`, which reports it as a crash)."""
    from forge import layout
    from forge.builder import BuildOptions
    from forge.canvas import Recorder
    from forge.errors import LoadError, Problem
    from forge.render import cards, counters
    from forge.templates import load, use

    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{case.kind}.yaml"
    target.write_text(case.text, encoding="utf-8")
    problems: list[Problem] = []
    try:
        tpl = load(folder)
        counters.check_template(tpl)
    except LoadError as e:
        problems = e.problems
    if problems:
        unlocated = [str(p) for p in problems if p.line is None or p.file != str(target)]
        return ("unlocated", "\n".join(unlocated)) if unlocated else ("refused", str(problems[0]))
    found: list[str] = []
    with use(tpl):
        for name, game in games.items():
            if case.kind == "card":
                cards.render(game, BuildOptions(only=("cards",)))
                continue
            for size in SIZES:
                rec = Recorder(f"{name} {size}")
                counters.render(game, BuildOptions(only=("counters",), counter_size=size, sets=2), recorder=rec)
                found += [f"{name} {size}: {v}" for v in layout.check(rec)[:3]]
    return ("silent", "\n".join(found[:6])) if found else ("ok", "")


FAULTS = ("crash", "hang", "oom", "unlocated")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--kind", choices=["counter", "card", "both"], default="both")
    ap.add_argument("--timeout", type=float, default=30.0, help="CPU seconds a case may take (5x as many in all)")
    ap.add_argument("--strict", action="store_true", help="a silent layout violation fails the run too")
    ap.add_argument("-v", "--verbose", action="store_true", help="print the refusals too")
    args = ap.parse_args()
    from forge.loader import load

    import fuzz  # bench/fuzz.py: the forked runner (CPU, memory and wall-clock caps)

    games = {name: load(ROOT / "data" / f"{name}.yaml") for name in GAMES}
    tally: Counter[str] = Counter()
    for i in range(args.cases):
        case = make_case(args.seed, i, args.kind)
        kind, value = fuzz.run_forked(
            lambda work, case=case: list(run_case(case, work / "t", games)), timeout=args.timeout, memory_mb=2048
        )
        if kind == "ok":
            outcome, detail = value
        else:  # the child did not end with a result: crash (a traceback), killed, oom, or hang/slow (the caps)
            outcome, detail = {"slow": "hang", "killed": "crash"}.get(kind, kind), value
        tally[outcome] += 1
        if outcome not in ("ok", "refused") or args.verbose:
            print(f"--- case {args.seed}-{i} {case.kind}: {outcome}: {'; '.join(case.mutations)}")
            print(str(detail).strip()[-1500:])
    print(" ".join(f"{k}={v}" for k, v in sorted(tally.items())))
    bad = sum(tally[k] for k in FAULTS) + (tally["silent"] if args.strict else 0)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
