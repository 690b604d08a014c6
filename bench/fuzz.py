"""Structural fuzzing of every data/*.yaml and of the build options (issue 9, item 5).

A case is one seed game with one to three structural mutations (a key or item deleted or duplicated, a value
retyped, a huge, negative or zero number, a zero divisor such as ``1/0in`` or ``1:0``, unicode, deep nesting, a
duplicated key line) and a set of ``forge build`` options, some of them bad.  It runs ``forge check``, then, when the
check passes, ``forge build`` and ``forge verify``, all in one process through :func:`forge.cli.main`.  A case
*crashes* when anything raises, exits with a status other than 0, 1 or 2, writes an output file on exit 2, or (in
subprocess mode) runs out of memory or time.

The mutator is shared with ``tests/test_fuzz.py`` (which drives it with hypothesis' derandomized ``Random``).

Run: python bench/fuzz.py --cases N [--seed S] [--timeout SECONDS] [--memory MB] [--jobs J]
  runs N cases, each in a subprocess with an address-space cap and a timeout, writes each crasher to
  tests/corpus/ as a YAML file (its options and what happened in the header comments) and prints a summary;
  exit 1 when something crashed.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import hashlib
import io
import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
CORPUS = ROOT / "tests" / "corpus"
sys.path.insert(0, str(ROOT))

import yaml

ALLOWED_EXITS = (0, 1, 2)
HEADER = "# fuzz-argv: "  # the corpus file's options, as JSON, on its first line
FOUND = "# fuzz-found: "

# Values a mutation puts in place of another: wrong types, extremes, zero divisors, unicode, nesting.
NASTY: list[Any] = [
    None,
    True,
    0,
    -1,
    -(10**9),
    10**9,
    10**30,
    2**63,
    1.5,
    -0.0,
    1e308,
    float("inf"),
    float("nan"),
    "",
    " ",
    "?",
    "unknown",
    "1/0in",
    "0in",
    "-1in",
    "1e308in",
    "1e-308in",
    "nanin",
    "infmm",
    "0x0in",
    "100000x100000in",
    "1:0",
    "0:0",
    "0:1",
    "-1:1",
    "99999999999999999999:1",
    "1/0",
    "0/0",
    "[0]",
    "(0)",
    "-",
    "+",
    "A0",
    "ZZ99",
    "0000",
    "9999",
    "-1-1",
    "Ω ≥ × ½ 日本",
    "\u202eevil",
    "e\u0301",
    "\U0001f600",
    "a\tb",
    "x" * 5000,
    "#zzzzzz",
    "#fff",
    [],
    {},
    [None],
    {"": None},
    {"?": "?"},
]


def deep(depth: int, leaf: Any = 1) -> Any:
    """A value nested ``depth`` levels, alternating lists and mappings."""
    v = leaf
    for i in range(depth):
        v = [v] if i % 2 else {"a": v}
    return v


def seed_files() -> list[Path]:
    return sorted(DATA.glob("*.yaml"))


_DOCS: dict[Path, Any] = {}


def seed_doc(path: Path) -> Any:
    """The seed file as plain Python data (parsed once; callers get a deep copy)."""
    if path not in _DOCS:
        _DOCS[path] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return copy.deepcopy(_DOCS[path])


Path_ = tuple[Any, ...]


def sites(doc: Any) -> list[Path_]:
    """Every key path in ``doc`` (the root excluded), in document order."""
    out: list[Path_] = []

    def walk(v: Any, p: Path_) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                out.append((*p, k))
                walk(x, (*p, k))
        elif isinstance(v, list):
            for i, x in enumerate(v):
                out.append((*p, i))
                walk(x, (*p, i))

    walk(doc, ())
    return out


def _parent(doc: Any, p: Path_) -> Any:
    for k in p[:-1]:
        doc = doc[k]
    return doc


def _nasty(rng: random.Random, avoid: Collection[str]) -> Any:
    return rng.choice([v for v in NASTY if not (isinstance(v, str) and v in avoid)])


def _retype(v: Any, rng: random.Random, avoid: Collection[str] = ()) -> Any:
    """Another value for ``v``: nasty, scaled, or the same text with unicode around it."""
    roll = rng.random()
    if isinstance(v, bool) or v is None:
        return _nasty(rng, avoid)
    if isinstance(v, int | float) and roll < 0.5:
        return rng.choice([v * 10**6, -v, v * 10**15, 0, v + 0.5, -v - 1, str(v)])
    if isinstance(v, str) and roll < 0.4:
        return rng.choice([v + "\u0301", "Ω" + v, v * 50, v.upper(), v[::-1], v + ":0", "-" + v, v + "/0", v + "in"])
    return _nasty(rng, avoid)


# The sites most code reads (geometry, sizes, the CRT, the turn track): a third of the mutations go there.
HOT = re.compile(
    r"^(format|game(\.\w+)*|map\.(grid|sheet|hex_size|status|default_terrain)(\.\w+)?|combat\.crt(\.\w+)*|turns)$"
)


def mutate_once(doc: Any, rng: random.Random, avoid: Collection[str] = ()) -> tuple[Any, str]:
    """Apply one structural mutation; return the document and what was done."""
    all_sites = sites(doc)
    if not all_sites:
        return _nasty(rng, avoid), "root replaced"
    hot = [q for q in all_sites if len(q) <= 4 and HOT.match(".".join(map(str, q)))]
    p = rng.choice(hot if hot and rng.random() < 1 / 3 else all_sites)
    parent = _parent(doc, p)
    key = p[-1]
    where = ".".join(map(str, p))
    op = rng.choice(["delete", "duplicate", "retype", "retype", "retype", "nest", "newkey", "swap"])
    if op == "delete":
        del parent[key]
    elif op == "duplicate":
        if isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        else:
            parent[f"{key}"] = copy.deepcopy(parent[key])
            sibling = rng.choice(list(parent))  # a sibling's value under this key
            parent[key] = copy.deepcopy(parent[sibling])
            where += f" <- {sibling}"
    elif op == "retype":
        parent[key] = _retype(parent[key], rng, avoid)
    elif op == "nest":
        n = rng.choice([3, 30, 200, 5000])
        # deeply nested flow text replaces this placeholder after dumping (PyYAML's dumper recurses per level)
        parent[key] = deep(n, parent[key]) if n <= 30 else f"__DEEP_{n}__"
    elif op == "newkey":
        if isinstance(parent, dict):
            parent[rng.choice(["extra", "Ω", "", "__class__", "1", "null"])] = _nasty(rng, avoid)
        else:
            parent.append(_nasty(rng, avoid))
    else:  # swap with another site's value (a value of the right type in the wrong place)
        other = rng.choice(all_sites)
        with contextlib.suppress(KeyError, IndexError, TypeError):
            parent[key] = copy.deepcopy(_parent(doc, other)[other[-1]])
        where += f" <- {'.'.join(map(str, other))}"
    return doc, f"{op} {where}"


def text_mutation(text: str, rng: random.Random) -> tuple[str, str]:
    """A mutation only text can express: a duplicated key line, a tab, a truncation."""
    lines = text.split("\n")
    keyed = [i for i, line in enumerate(lines) if re.match(r"\s*[A-Za-z_][\w-]*:", line)]
    op = rng.choice(["dupkey", "tab", "truncate"])
    if op == "dupkey" and keyed:
        i = rng.choice(keyed)
        lines.insert(i + 1, lines[i])
        return "\n".join(lines), f"duplicate key line {i + 2}"
    if op == "tab" and keyed:
        i = rng.choice(keyed)
        lines[i] = "\t" + lines[i]
        return "\n".join(lines), f"tab on line {i + 1}"
    cut = rng.randrange(len(text) + 1)
    return text[:cut], f"truncated at {cut}"


def dump(doc: Any) -> str:
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's dumper is 5x faster where it is built
    text = yaml.dump(doc, Dumper=dumper, allow_unicode=True, sort_keys=False, width=10**6)
    return re.sub(r"__DEEP_(\d+)__", lambda m: "[" * int(m.group(1)) + "1" + "]" * int(m.group(1)), text)


@dataclass
class Case:
    """One fuzz case: the text of a game file and the options its build runs with."""

    seed: str
    text: str
    build_argv: list[str]
    verify_argv: list[str]
    what: list[str] = field(default_factory=list)


BAD_OFFSETS = ["1/0in,0", "1e308in,0", "nan,0", "inf,inf", "-999in,0", "0,", "a,b", ",", "1mm,2mm,3mm", "1:0,0"]
SETS = [None, None, None, 1, 2, 0, -1, 201, 10**20]


def build_options(rng: random.Random, *, max_sets: int = 200, avoid: Collection[str] = ()) -> list[str]:
    """``forge build`` options: mostly good, sometimes bad (bad ones must be refused with exit 2); an option value
    in ``avoid`` (a known crasher) is left out."""
    from forge.builder import COMPONENTS
    from forge.units import COUNTER_SIZES, PAPER

    argv: list[str] = []
    if rng.random() < 0.5:
        argv += ["--paper", rng.choice([*PAPER, "b5", ""])]
    if rng.random() < 0.8:
        k = rng.randint(1, 2)
        argv += ["--only", ",".join(rng.sample(list(COMPONENTS), k)) if rng.random() < 0.9 else "maps,,"]
    if rng.random() < 0.4:
        argv += ["--counter-size", rng.choice([s for s in [*COUNTER_SIZES, "1/0in", "0in"] if s not in avoid])]
    if rng.random() < 0.3:
        argv += ["--flip", rng.choice(["long", "short", "sideways"])]
    if rng.random() < 0.3:
        argv += ["--back-offset", rng.choice(["0.5mm,-0.3mm", "1,0", *(o for o in BAD_OFFSETS if o not in avoid)])]
    if rng.random() < 0.2:
        argv.append("--bleed")
    if rng.random() < 0.2:
        argv.append("--greyscale")
    sets = rng.choice(SETS)
    if sets is not None and (sets <= max_sets or sets > 200):
        argv += ["--sets", str(sets)]
    return argv


def make_case(rng: random.Random, *, max_sets: int = 200, avoid: Collection[str] = ()) -> Case:
    path = rng.choice(seed_files())
    doc = seed_doc(path)
    what = [path.name]
    for _ in range(rng.choice([1, 1, 2, 3])):
        doc, w = mutate_once(doc, rng, avoid)
        what.append(w)
    text = dump(doc)
    if rng.random() < 0.1:
        text, w = text_mutation(text, rng)
        what.append(w)
    verify_argv = rng.choice([["--no-print-check"], ["--no-print-check"], [], ["--format", "json", "--no-print-check"]])
    return Case(path.stem, text, build_options(rng, max_sets=max_sets, avoid=avoid), verify_argv, what)


@dataclass
class Outcome:
    """What one ``forge`` command did."""

    command: str
    status: int | None
    stderr: str
    crash: str | None = None
    """None when the command behaved, else why not (a traceback, a bad status, a file written on exit 2)."""


def run_cli(argv: list[str], out_dir: Path | None = None) -> Outcome:
    """``forge ARGV`` in this process, its output captured.  An exception forge lets escape is not caught here: it
    propagates to the caller (hypothesis in the test, a traceback and a non-zero status in a bench child)."""
    from forge.cli import main

    err, out = io.StringIO(), io.StringIO()
    crash = None
    status: int | None
    print(f"forge {argv[0]}", file=sys.__stderr__ if _CHILD else io.StringIO(), flush=True)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as e:  # argparse refuses an option
            status = e.code if isinstance(e.code, int) else 2 if e.code else 0
    if status not in ALLOWED_EXITS:
        crash = f"exit status {status}"
    elif status == 2 and out_dir is not None and out_dir.exists():
        written = sorted(str(p.relative_to(out_dir)) for p in out_dir.rglob("*") if p.is_file())
        if written:
            crash = f"exit 2, but files were written: {written[:5]}"
    if crash is None and status == 2 and not err.getvalue().strip():
        crash = "exit 2 without a message"
    return Outcome(argv[0], status, err.getvalue(), crash)


_CHILD = False


def run_case(case: Case, workdir: Path) -> list[Outcome]:
    """Check, then build and verify when the check passes; stop at the first crash."""
    game = workdir / "game.yaml"
    game.write_text(case.text, encoding="utf-8")
    outcomes = [run_cli(["check", "-q", str(game)])]
    if outcomes[-1].crash or outcomes[-1].status != 0:
        return outcomes
    out = workdir / "out"
    out.mkdir(exist_ok=True)
    outcomes.append(run_cli(["build", str(game), "--out", str(out), "-q", *case.build_argv], out))
    if outcomes[-1].crash:
        return outcomes
    report = workdir / "report" / "r.txt"
    outcomes.append(run_cli(["verify", str(game), "--report", str(report), *case.verify_argv], report.parent))
    return outcomes


def corpus_text(case: Case, outcome: Outcome) -> str:
    """The crasher as a corpus file: its options and what happened in comments, then the game."""
    argv = {"build": case.build_argv, "verify": case.verify_argv}
    found = (outcome.crash or "").strip().splitlines()
    summary = f"{outcome.command}: {found[-1] if found else '?'}"
    mutations = "; ".join(case.what)
    return f"{HEADER}{json.dumps(argv)}\n{FOUND}{summary}\n# fuzz-mutations: {mutations}\n{case.text}"


def read_corpus(path: Path) -> tuple[list[str], list[str]]:
    """The build and verify options a corpus file was found with (none when it has no header)."""
    first = path.read_bytes().split(b"\n", 1)[0].decode("utf-8", "replace")
    if first.startswith(HEADER):
        argv = json.loads(first[len(HEADER) :])
        return list(argv.get("build", [])), list(argv.get("verify", []))
    return [], ["--no-print-check"]


def _limit(memory_mb: int, seconds: int) -> Callable[[], None]:
    def apply() -> None:
        import resource

        cap = memory_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        resource.setrlimit(resource.RLIMIT_CPU, (seconds + 5, seconds + 10))

    return apply


CHILD = """
import json, sys, tempfile
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import fuzz
from fuzz import Case, run_case
fuzz._CHILD = True
case = Case(**json.loads(sys.stdin.read()))
with tempfile.TemporaryDirectory() as d:
    outs = run_case(case, Path(d))
print(json.dumps([o.__dict__ for o in outs]))
"""


def run_subprocess(case: Case, *, timeout: int, memory_mb: int) -> tuple[Outcome | None, str]:
    """The case in a child process with a memory cap and a timeout: the crash (or None), and how far it got."""
    payload = json.dumps(case.__dict__)
    try:
        r = subprocess.run(
            [sys.executable, "-c", CHILD, str(ROOT / "bench")],
            input=payload,
            capture_output=True,
            text=True,
            timeout=timeout,
            preexec_fn=_limit(memory_mb, timeout),
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
    except subprocess.TimeoutExpired:
        return Outcome("?", None, "", f"hang: no result in {timeout}s"), "hang"
    if r.returncode != 0:
        lines = r.stderr.strip().splitlines()
        command = next((x.split()[1] for x in reversed(lines) if re.fullmatch(r"forge \w+", x)), "?")
        tail = "\n".join(lines[-12:])
        why = f"killed by signal {-r.returncode} (CPU limit {timeout}s?)" if r.returncode < 0 else "traceback"
        if "MemoryError" in r.stderr:
            why = f"out of memory (cap {memory_mb} MB)"
        return Outcome(command, None, r.stderr, f"{why}:\n{tail}"), "crash"
    outs = [Outcome(**o) for o in json.loads(r.stdout.strip().splitlines()[-1])]
    return next((o for o in outs if o.crash), None), " ".join(f"{o.command} {o.status}" for o in outs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=int, default=60, help="seconds per case (default 60)")
    ap.add_argument("--memory", type=int, default=2048, help="address-space cap per case in MB (default 2048)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-write", action="store_true", help="do not write crashers to tests/corpus/")
    a = ap.parse_args()

    from concurrent.futures import ThreadPoolExecutor

    cases = [make_case(random.Random(f"{a.seed}:{i}")) for i in range(a.cases)]
    crashes: list[tuple[int, Case, Outcome]] = []

    stages: Counter[str] = Counter()

    def one(i: int) -> tuple[int, Outcome | None]:
        crash, stage = run_subprocess(cases[i], timeout=a.timeout, memory_mb=a.memory)
        stages[stage] += 1
        return i, crash

    with ThreadPoolExecutor(a.jobs) as pool:
        for n, (i, crash) in enumerate(pool.map(one, range(len(cases))), 1):
            if crash:
                crashes.append((i, cases[i], crash))
                last = (crash.crash or "").strip().splitlines()[-1:]
                print(f"case {i} CRASH in {crash.command}: {last} [{'; '.join(cases[i].what)}]", flush=True)
            if n % 50 == 0:
                print(f"... {n}/{len(cases)} cases, {len(crashes)} crashes", file=sys.stderr, flush=True)
    if not a.no_write:
        CORPUS.mkdir(exist_ok=True)
        seen: set[str] = set()
        for _, case, crash in crashes:  # one file per kind of crash: the same error line from the same command
            kind = f"{crash.command}: {(crash.crash or '').strip().splitlines()[-1:]}"
            if kind in seen:
                continue
            seen.add(kind)
            text = corpus_text(case, crash)
            name = f"{case.seed}-{hashlib.sha256(text.encode()).hexdigest()[:10]}.yaml"
            (CORPUS / name).write_text(text, encoding="utf-8")
    for stage, n in stages.most_common():
        print(f"{n:6d}  {stage}")
    print(f"{len(cases)} cases (seed {a.seed}), {len(crashes)} crashes" + ("" if a.no_write else f" -> {CORPUS}"))
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
