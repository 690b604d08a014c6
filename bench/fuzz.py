"""Structural fuzzing of every data/*.yaml and of forge's command line (issue 9, items 5 and 6).

Two kinds of case:

* a *game* case is one seed game with one to three structural mutations (a key or item deleted or duplicated, a
  value retyped, a huge, negative or zero number, a zero divisor such as ``1/0in`` or ``1:0``, unicode -- right to
  left, combining marks, CJK, emoji, NUL, very long strings and words --, deep nesting, anchors and aliases up to an
  alias bomb), sometimes a text mutation (a duplicated key line, a tab, a truncation, a surrogate escape, a
  recursive alias), and a set of ``forge build`` options, some of them bad.  It runs ``forge check``, then, when the
  check passes, ``forge build`` and ``forge verify``.
* a *command-line* case is an argument list for ``forge`` (check, build, verify, schema, none, or a bogus command)
  with option values that are bad, huge, negative, empty or unicode, arguments missing or extra, and paths that are
  folders, FIFOs, ``/dev/null``, missing, unwritable or very long, or an ``--out`` whose game folder holds ``images``
  and ``board`` as symbolic links to a folder of the user's (which must be refused, untouched, no ``.old`` left).

A case *crashes* when an exception escapes ``forge.cli.main``, it exits with a status other than 0, 1 or 2, it exits
2 without a message naming the file or the option, it writes an output file on exit 2 or leaves a temporary behind,
or it runs out of memory or time.  Every case runs in a forked child of a process that has imported forge already
(:func:`run_forked`), with an address-space cap and a timeout.

The mutators are shared with ``tests/test_fuzz.py`` (which drives them with hypothesis' derandomized ``Random``).

Run: python bench/fuzz.py --cases N [--kind game|cli|both] [--seed S] [--timeout SECONDS] [--memory MB] [--jobs J]
  runs N cases (``both``: one in five a command-line case), writes each kind of crasher to tests/corpus/ (a game
  case as a YAML file with its options and what happened in header comments, a command-line case as a
  ``cli-*.json`` file) and prints a summary; exit 1 when something crashed.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import hashlib
import io
import json
import os
import pickle
import random
import re
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Sequence
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

RTL = "\u202eevil \u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627"  # an override, Hebrew, Arabic
COMBINING = "e" + "\u0301\u0302\u0303\u0308" * 40  # one letter under 160 combining marks
CJK = "\u65e5\u672c\u8a9e\u306e\u99d2\u3000\u4e2d\u6587\ud55c\uad6d\uc5b4"
EMOJI = "\U0001f600\U0001f468\u200d\U0001f469\u200d\U0001f467\U0001f3f3\ufe0f\u200d\U0001f308"  # ZWJ sequences
CONTROL = "a\x00b\x07c\x1b[31md\x85e\u2028f\ufeffg\ufffeh\U0010ffff"  # NUL, bell, ANSI escape, NEL, LS, BOM, ...

# Values a mutation puts in place of another: wrong types, extremes, zero divisors, unicode, nesting.
NASTY: list[Any] = [
    None,
    True,
    0,
    -1,
    -(10**9),
    10**9,
    10**30,
    -(10**30),
    2**63,
    10**400,
    1.5,
    -0.0,
    1e308,
    -1e308,
    5e-324,
    float("inf"),
    float("-inf"),
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
    "9" * 5000,
    "[0]",
    "(0)",
    "-",
    "+",
    "A0",
    "ZZ99",
    "0000",
    "9999",
    "-1-1",
    "\u03a9 \u2265 \u00d7 \u00bd \u65e5\u672c",
    "\u202eevil",
    RTL,
    "e\u0301",
    COMBINING,
    CJK,
    CJK * 300,
    "\U0001f600",
    EMOJI,
    CONTROL,
    "\x00",
    "a\tb",
    "x" * 5000,  # a very long word
    "word " * 4000,  # a very long text
    "\u00e9" * 100_000,  # 200 kB of two-byte characters
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


def laughs(levels: int, width: int = 10) -> list[Any]:
    """A "billion laughs" value: ``levels`` nested lists of ``width`` references to the level below.  The dumper
    writes each shared list once with an anchor and then aliases it, so the text stays small while the expansion is
    ``width ** levels`` values."""
    v: list[Any] = ["lol"] * width
    for _ in range(levels - 1):
        v = [v] * width
    return v


def bomb_text(levels: int = 9, width: int = 10) -> str:
    """A game file that starts with an alias bomb (``width ** levels`` values when expanded)."""
    lines = [f"a0: &a0 [{', '.join(['lol'] * width)}]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]")
    return "\n".join(lines) + "\nformat: 1\ngame: {id: bomb}\n"


def seed_files() -> list[Path]:
    return sorted(DATA.glob("*.yaml"))


_DOCS: dict[Path, Any] = {}


def seed_doc(path: Path) -> Any:
    """The seed file as plain Python data (parsed once; callers get a deep copy)."""
    if path not in _DOCS:
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        _DOCS[path] = pickle.dumps(yaml.load(path.read_text(encoding="utf-8"), Loader=loader))
    return pickle.loads(_DOCS[path])  # a deep copy, 5x faster than copy.deepcopy


Path_ = tuple[Any, ...]


def sites(doc: Any) -> list[Path_]:
    """Every key path in ``doc`` (the root excluded), in document order (a value shared by aliases: once)."""
    out: list[Path_] = []
    seen: set[int] = set()

    def walk(v: Any, p: Path_) -> None:
        if isinstance(v, dict | list):
            if id(v) in seen:
                return
            seen.add(id(v))
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
        return rng.choice([v * 10**6, -v, v * 10**15, 0, v + 0.5, -v - 1, str(v), v * 10**300, f"{v}/0"])
    if isinstance(v, str) and roll < 0.4:
        return rng.choice(
            [
                v + "\u0301",
                "\u03a9" + v,
                v * 50,
                v.upper(),
                v[::-1],
                v + ":0",
                "-" + v,
                v + "/0",
                v + "in",
                "\u202e" + v,
                v + "\x00",
                v + EMOJI,
                CJK + v,
                v + "\u0308" * 200,
                v.replace(" ", "") * 200,
                re.sub(r"[0-9]+", "0", v),  # a zero where a count was: d0, 1:0, 0in
                re.sub(r"[0-9]+", "00", v),
                v + rng.choice(["\r", "\x0b", "\x0c", "\x85", "\u2028", "\x1b[31m"]),  # control characters in text
            ]
        )
    return _nasty(rng, avoid)


# The sites most code reads (geometry, sizes, the CRT, the turn track): a third of the mutations go there.
HOT = re.compile(
    r"^(format|game(\.\w+)*|map\.(grid|sheet|hex_size|status|default_terrain)(\.\w+)?|combat\.crt(\.\w+)*|turns)$"
)

OPS = ["delete", "duplicate", "retype", "retype", "retype", "nest", "newkey", "swap", "alias", "bomb", "absent"]

# Optional keys that are absent from most games, given a value at or past their bounds by the "absent" mutation (a
# default is never mutated otherwise: first_row 10**9 on a lettered grid once wrote 461 MB of messages).
OPTIONAL_NUMBERS = ["first_column", "first_row", "copies", "count", "returns_after", "max", "die", "hexes"]
BOUND_VALUES = [10**9, 5 * 10**9, 10**4, 10**4 + 1, -1, 0, 2**63]


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
    op = rng.choice(OPS)
    if op == "delete":
        del parent[key]
    elif op == "duplicate":
        if isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        else:
            sibling = rng.choice(list(parent))  # a sibling's value under this key
            parent[key] = copy.deepcopy(parent[sibling])
            where += f" <- {sibling}"
    elif op == "retype":
        parent[key] = _retype(parent[key], rng, avoid)
    elif op == "nest":
        n = rng.choice([3, 30, 63, 64, 65, 200, 5000])
        # deeply nested flow text replaces this placeholder after dumping (PyYAML's dumper recurses per level)
        parent[key] = deep(n, parent[key]) if n <= 30 else f"__DEEP_{n}__"
        where += f" ({n} levels)"
    elif op == "newkey":
        if isinstance(parent, dict):
            parent[rng.choice(["extra", "\u03a9", "", "__class__", "1", "null", "<<", "\x00", "x" * 300])] = _nasty(
                rng, avoid
            )
        else:
            parent.append(_nasty(rng, avoid))
    elif op == "alias":  # the same list or mapping in two places: the dumper writes an anchor and an alias
        shared = [q for q in all_sites if isinstance(_parent(doc, q)[q[-1]], dict | list)]
        if shared:
            other = rng.choice(shared)
            parent[key] = _parent(doc, other)[other[-1]]
            where += f" <- *{'.'.join(map(str, other))}"
    elif op == "absent":
        target = parent if isinstance(parent, dict) else _parent(doc, p[:-1]) if len(p) > 1 else doc
        if isinstance(target, dict):
            name, value = rng.choice(OPTIONAL_NUMBERS), rng.choice(BOUND_VALUES)
            target[name] = value
            where += f" +{name}={value}"
    elif op == "bomb":
        levels = rng.choice([3, 5, 7, 9, 12])
        parent[key] = laughs(levels)
        where += f" (10**{levels} values)"
    else:  # swap with another site's value (a value of the right type in the wrong place)
        other = rng.choice(all_sites)
        with contextlib.suppress(KeyError, IndexError, TypeError):
            parent[key] = copy.deepcopy(_parent(doc, other)[other[-1]])
        where += f" <- {'.'.join(map(str, other))}"
    return doc, f"{op} {where}"


def text_mutation(text: str, rng: random.Random) -> tuple[str, str]:
    """A mutation only text can express: a duplicated key line, a tab, a truncation, a surrogate or NUL escape, a
    recursive alias, a merge of a scalar, a stray BOM, a raw control character."""
    lines = text.split("\n")
    keyed = [i for i, line in enumerate(lines) if re.match(r"\s*[A-Za-z_][\w-]*:", line)]
    op = rng.choice(["dupkey", "tab", "truncate", "escape", "recursive", "merge", "bom", "control"])
    if op == "control":  # a raw character YAML refuses (or, for NEL and LS, a line break)
        at = rng.randrange(len(text) + 1)
        ch = rng.choice(["\x0c", "\x01", "\x7f", "\x1b", "\ufffe", "\x85", "\u2028", "\r"])
        return text[:at] + ch + text[at:], f"raw U+{ord(ch):04X} at {at}"
    if keyed and op in ("dupkey", "tab", "escape", "recursive", "merge", "bom"):
        i = rng.choice(keyed)
        line = lines[i]
        head = line[: line.index(":") + 1]
        if op == "dupkey":
            lines.insert(i + 1, line)
            return "\n".join(lines), f"duplicate key line {i + 2}"
        if op == "tab":
            lines[i] = "\t" + line
            return "\n".join(lines), f"tab on line {i + 1}"
        if op == "escape":  # libyaml refuses surrogate escapes; \0 and \x00 give a NUL inside a string
            esc = rng.choice([r"\ud800", r"\uDFFF", r"\uD83D\uDE00", r"\0", r"\x00", r"\U0010FFFF", r"\N\L\P", r"\_"])
            lines[i] = f'{head} "x{esc}y"'
            return "\n".join(lines), f"escape {esc} on line {i + 1}"
        if op == "recursive":
            lines[i] = f"{head} &loop [*loop]"
            return "\n".join(lines), f"recursive alias on line {i + 1}"
        if op == "merge":
            indent = line[: len(line) - len(line.lstrip())]
            lines.insert(i + 1, f"{indent}<<: {rng.choice(['1', '[1, 2]', '*nowhere', '{}', '[{a: 1}, 2]'])}")
            return "\n".join(lines), f"merge key after line {i + 1}"
        lines[i] = "\ufeff" + line
        return "\n".join(lines), f"BOM on line {i + 1}"
    cut = rng.randrange(len(text) + 1)
    return text[:cut], f"truncated at {cut}"


def dump(doc: Any) -> str:
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's dumper is 5x faster where it is built
    text = yaml.dump(doc, Dumper=dumper, allow_unicode=True, sort_keys=False, width=10**6)
    return re.sub(r"__DEEP_(\d+)__", lambda m: "[" * int(m.group(1)) + "1" + "]" * int(m.group(1)), text)


@dataclass
class Case:
    """One game case: the text of a game file and the options its build runs with."""

    seed: str
    text: str
    build_argv: list[str]
    verify_argv: list[str]
    what: list[str] = field(default_factory=list)


BAD_OFFSETS = ["1/0in,0", "1e308in,0", "nan,0", "inf,inf", "-999in,0", "0,", "a,b", ",", "1mm,2mm,3mm", "1:0,0"]
SETS = [None, None, None, 1, 2, 0, -1, 201, 10**20]


def build_options(
    rng: random.Random, *, max_sets: int = 200, avoid: Collection[str] = (), good: bool = False
) -> list[str]:
    """``forge build`` options: mostly good, sometimes bad (bad ones must be refused with exit 2), only good ones
    when ``good``; an option value in ``avoid`` (a known crasher) is left out."""
    from forge.builder import COMPONENTS
    from forge.units import COUNTER_SIZES, PAPER

    def pick(ok: list[str], bad: list[str]) -> str:
        return rng.choice([v for v in (ok if good else ok + bad) if v not in avoid])

    argv: list[str] = []
    if rng.random() < 0.5:
        argv += ["--paper", pick(list(PAPER), ["b5", ""])]
    if rng.random() < 0.8:
        k = rng.randint(1, 2)
        argv += ["--only", ",".join(rng.sample(list(COMPONENTS), k)) if good or rng.random() < 0.9 else "maps,,"]
    if rng.random() < 0.4:
        argv += ["--counter-size", pick(list(COUNTER_SIZES), ["1/0in", "0in"])]
    if rng.random() < 0.3:
        argv += ["--flip", pick(["long", "short"], ["sideways"])]
    if rng.random() < 0.3:
        argv += ["--back-offset", pick(["0.5mm,-0.3mm", "1,0", "5,-5"], BAD_OFFSETS)]
    if rng.random() < 0.2:
        argv.append("--bleed")
    if rng.random() < 0.2:
        argv.append("--greyscale")
    sets = rng.choice([s for s in SETS if not good or s is None or 1 <= s <= 200])
    if sets is not None and (sets <= max_sets or sets > 200):
        argv += ["--sets", str(sets)]
    return argv


TEXT_KEYS = {"name", "title", "subtitle", "label", "note", "summary", "text", "description", "notes"}


def decorate(doc: Any, rng: random.Random) -> tuple[Any, str]:
    """Put unicode into one free-text value (a name, a title, a label, a note): a mutation most games still pass
    the check with, so that the renderers meet it."""
    spots = [q for q in sites(doc) if isinstance(q[-1], str) and q[-1] in TEXT_KEYS]
    spots = [q for q in spots if isinstance(_parent(doc, q)[q[-1]], str)]
    if not spots:
        return doc, "no text to decorate"
    q = rng.choice(spots)
    parent = _parent(doc, q)
    v = parent[q[-1]]
    extra = rng.choice(
        [RTL, COMBINING, CJK, EMOJI, "\x00", "\u0301" * 50, "x" * 300, "word " * 300, CJK * 20, "\U0010ffff", "&<>\"'%"]
    )
    parent[q[-1]] = rng.choice([v + " " + extra, extra + v, extra])
    return doc, f"decorate {'.'.join(map(str, q))}"


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


def _files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() or p.is_symlink()}


def run_cli(argv: list[str], out_dir: Path | None = None) -> Outcome:
    """``forge ARGV`` in this process, its output captured.  An exception forge lets escape is not caught here: it
    propagates to the caller (hypothesis in the test, a traceback in a forked child)."""
    from forge.cli import main

    err, out = io.StringIO(), io.StringIO()
    crash = None
    status: int | None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as e:  # argparse refuses an option (or prints --help / --version)
            status = e.code if isinstance(e.code, int) else 2 if e.code else 0
    command = next((a for a in argv if a in ("check", "build", "verify", "schema")), "-")
    if status not in ALLOWED_EXITS:
        crash = f"exit status {status}"
    elif status == 2 and out_dir is not None and out_dir.exists():
        written = sorted(_files(out_dir))
        if written:
            crash = f"exit 2, but files were written: {written[:5]}"
    if crash is None and status == 2 and not err.getvalue().strip():
        no_command = not [a for a in argv if not a.startswith("-")]
        if not (no_command and out.getvalue().startswith("usage: forge")):  # `forge` alone: help on stdout (cli.py)
            crash = "exit 2 without a message"
    if crash is None and "Traceback (most recent call last)" in err.getvalue():
        crash = "a traceback on standard error"
    return Outcome(command[:40], status, err.getvalue(), crash)


def run_case(case: Case, workdir: Path) -> list[Outcome]:
    """Check, then build and verify when the check passes; stop at the first crash."""
    game = workdir / "game.yaml"
    game.write_text(case.text, encoding="utf-8", errors="surrogateescape")
    outcomes = [run_cli(["check", "-q", str(game)])]
    if outcomes[-1].crash or outcomes[-1].status != 0:
        return outcomes
    out = workdir / "out"
    out.mkdir(exist_ok=True)
    argv = ["build", str(game), "--out", str(out), "-q", *case.build_argv]
    outcomes.append(run_cli(argv, out))
    if outcomes[-1].crash:
        return outcomes
    if outcomes[-1].status == 2 and not _located(outcomes[-1].stderr, argv):
        outcomes[-1].crash = f"exit 2, but the message names no argument: {outcomes[-1].stderr.strip()[:300]!r}"
        return outcomes
    if outcomes[-1].status == 0 and (left := sorted(f for f in _files(out) if f.endswith(".tmp"))):
        outcomes[-1].crash = f"temporaries left behind: {left[:3]}"
        return outcomes
    report = workdir / "report" / "r.txt"
    outcomes.append(run_cli(["verify", str(game), "--report", str(report), *case.verify_argv], report.parent))
    return outcomes


# ------------------------------------------------------------------------------------------ command-line cases
GOOD_GAME = "tabletop_hells_gate"  # a seed that checks, builds and verifies quickly

# Placeholders a command-line case's arguments use; run_cli_case makes them in its working folder.
PLACES = {
    "{game}": "a copy of a seed game that checks",
    "{bad}": "a game file that does not check",
    "{empty}": "an empty file",
    "{dir}": "a folder",
    "{fifo}": "a FIFO (named pipe)",
    "{file}": "a regular file that is not YAML",
    "{missing}": "a path that does not exist",
    "{unwritable}": "a folder under /proc, where nothing can be made",
    "{long}": "a path longer than PATH_MAX",
    "{longname}": "a file name longer than NAME_MAX",
    "{linkout}": "an output folder whose game folder holds images/ and board/ as links to a folder of the user's",
}

PATHS = [
    "{game}",
    "{game}",
    "{game}",
    "{bad}",
    "{empty}",
    "{dir}",
    "{fifo}",
    "{file}",
    "{missing}",
    "{unwritable}",
    "{long}",
    "{longname}",
    "/dev/null",
    "/dev/zero",
    "",
    "-",
    ".",
    "\u03a9\u65e5\u672c.yaml",
    "\u202egame.yaml",
    "{game}\x00x",
    "{dir}/",
    "{file}/sub.yaml",
]

WORDS = ["", " ", "-", "--", "-1", "0", "1e999", "nan", "\u03a9", "\U0001f600", "x" * 5000, "\x00", "--out"]


def _values(option: str) -> list[str]:
    """Values for an option: its good ones and bad, huge, negative, empty and unicode ones."""
    from forge.builder import COMPONENTS
    from forge.units import COUNTER_SIZES, PAPER

    by_option = {
        "--out": [
            *("{dir}/out", "{dir}/out", "{missing}/a/b", "{file}", "{file}/out", "{fifo}", "/dev/null"),
            *("{unwritable}", "{long}", "{longname}", "\u03a9\u65e5\u672c", "-"),
            "{linkout}",  # OUT/<game>/images and board are symbolic links to a folder of the user's
        ],
        "--paper": [*PAPER, "A4", "b5", "letter ", "\u00e9"],
        "--only": [*COMPONENTS, "map,counters", "cards,cards", ",", "map,", "MAP", "map;cards", "handout,images"],
        "--counter-size": [*COUNTER_SIZES, "5/8", "1/0in", "0in", "-5/8in", "5/8 in"],
        "--flip": ["long", "short", "Long", "sideways"],
        "--back-offset": [
            *("0,0", "0.5,-0.3", "0.5mm,-0.3mm", "5,5", "-5,-5", "5.0001,0", "0.1in,0", "1pt,1pt", *BAD_OFFSETS),
            *("1e999,0", "0x10,0", "1_0,0", "\u0663,\u0663", "\uff15,0", "+1,+1", "--1,0", "1e-400,0"),
        ],
        "--sets": ["1", "2", "0", "-1", "201", "200", str(10**20), "9" * 5000, "1.5", "1_0", "\u0663", " 1", "0x1"],
        "--format": ["text", "json", "markdown", "JSON", "xml", "md"],
        "--report": [
            *("{dir}/r.md", "{missing}/r.md", "{dir}", "{fifo}", "/dev/null", "/dev/full", "{file}/r.md"),
            *("{unwritable}/r.md", "{long}", "{longname}", "x/", "{dir}/\u03a9.md"),
            *("{game}", "{bad}", "{gamelink}", "{gamehard}", "{dir}/../game.yaml"),  # a user's file is never lost
        ],
    }
    return by_option.get(option, []) + WORDS


OPTIONS = {
    "check": ["-q", "--quiet"],
    "build": [
        *("--out", "--paper", "--only", "--counter-size", "--flip", "--back-offset", "--bleed", "--greyscale"),
        *("--sets", "-q", "--quiet"),
    ],
    "verify": ["--format", "--report", "--no-print-check"],
    "schema": [],
}
FLAGS = {"-q", "--quiet", "--bleed", "--greyscale", "--no-print-check", "--help", "-h", "--version"}


@dataclass
class CliCase:
    """One command-line case: ``forge ARGV`` with placeholders for paths (see ``PLACES``)."""

    argv: list[str]
    what: str = ""


def make_cli_case(rng: random.Random) -> CliCase:
    """An argument list: a command (sometimes none, or a bogus one), zero to three game paths (some of them not
    games), options of this command or another one, with good or bad values, sometimes without their value."""
    command = rng.choice(["check", "build", "build", "verify", "verify", "schema", None, "bogus", "chek", "b"])
    argv: list[str] = []
    if rng.random() < 0.05:
        argv.append(rng.choice(["--version", "--help", "-h", "--bogus", "-x"]))
    if command is not None:
        argv.append(command)
    n_files = rng.choice([0, 1, 1, 1, 1, 2, 3]) if command != "schema" else rng.choice([0, 0, 0, 1])
    files = [rng.choice(PATHS) for _ in range(n_files)]
    options = OPTIONS.get(command or "", [])
    others = [o for os_ in OPTIONS.values() for o in os_]
    opts: list[str] = []
    for _ in range(rng.choice([0, 1, 2, 3, 4])):
        option = rng.choice(options) if options and rng.random() < 0.85 else rng.choice([*others, "--bogus", "-z"])
        if rng.random() < 0.1 and option.startswith("--") and len(option) > 4:
            option = option[: rng.randint(3, len(option) - 1)]  # an abbreviation, which argparse may accept
        opts.append(option)
        full = next((o for o in OPTIONS.get(command or "", []) + others if o.startswith(option)), option)
        if full not in FLAGS and rng.random() < 0.95:
            opts.append(rng.choice(_values(full)))
    mix = files + opts
    if rng.random() < 0.5:  # options before, between and after the files
        rng.shuffle(mix)
    if rng.random() < 0.05:
        mix.insert(rng.randrange(len(mix) + 1), "--")
    if rng.random() < 0.05:
        mix.append(rng.choice(WORDS))  # an extra argument
    argv += mix
    return CliCase(argv, f"forge {' '.join(a[:30] for a in argv)}")


def _setup_places(workdir: Path) -> dict[str, str]:
    """Make what the placeholders name, in ``workdir``; return placeholder -> path."""
    game = workdir / "game.yaml"
    game.write_bytes((DATA / f"{GOOD_GAME}.yaml").read_bytes())
    (workdir / "bad.yaml").write_text("format: 1\ngame: {id: x, title: [}\n", encoding="utf-8")
    (workdir / "empty.yaml").write_bytes(b"")
    (workdir / "dir").mkdir()
    fifo = workdir / "fifo"
    os.mkfifo(fifo)
    (workdir / "file.txt").write_bytes(b"\x89PNG\r\n\x1a\n not a game\n")
    (workdir / "gamelink.yaml").symlink_to(game)
    os.link(game, workdir / "gamehard.yaml")
    linked = workdir / "linkout" / GOOD_GAME
    linked.mkdir(parents=True)
    (workdir / "mine").mkdir()
    (workdir / "mine" / "keep.txt").write_bytes(b"the user's")
    for component in ("images", "board"):
        (linked / component).symlink_to(workdir / "mine", target_is_directory=True)
    return {
        "{game}": str(game),
        "{gamelink}": str(workdir / "gamelink.yaml"),
        "{gamehard}": str(workdir / "gamehard.yaml"),
        "{bad}": str(workdir / "bad.yaml"),
        "{empty}": str(workdir / "empty.yaml"),
        "{dir}": str(workdir / "dir"),
        "{fifo}": str(fifo),
        "{file}": str(workdir / "file.txt"),
        "{missing}": str(workdir / "missing"),
        "{linkout}": str(workdir / "linkout"),
        "{unwritable}": "/proc/hexforge-fuzz",
        "{long}": f"{workdir}/" + ("a" * 200 + "/") * 25 + "x.yaml",  # 5,000 characters (PATH_MAX is 4,096)
        "{longname}": str(workdir / ("n" * 300 + ".yaml")),
    }


def _read_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _substitute(arg: str, places: dict[str, str]) -> str:
    for k, v in places.items():
        arg = arg.replace(k, v)
    return arg


def _located(stderr: str, argv: list[str]) -> bool:
    """Whether a refusal names what it refuses: an argument given (a file or an option, as given or as its
    ``repr``), or argparse's own naming of a missing or unknown argument."""
    if re.search(r"error: (argument |the following arguments are required|unrecognized arguments)", stderr):
        return True
    for a in argv:
        if (a == "-" and re.search(r"(?m)^-: ", stderr)) or (a == "" and "''" in stderr):  # '-', or an empty name
            return True
        if not a or a in ("-", "--", "check", "build", "verify", "schema"):
            continue
        for form in (a, repr(a)[1:-1], a[:30], repr(a[:30])[1:-1]):
            if form and form in stderr:
                return True
    return False


def run_cli_case(case: CliCase, workdir: Path) -> Outcome:
    """``forge ARGV`` with the placeholders made real, in ``workdir`` (the current folder there, so that the default
    ``--out output`` lands in it).  A crash besides :func:`run_cli`'s: exit 2 with a message that names no argument;
    a file written on exit 2 (beyond the good game's own output when a good game came first); a temporary left."""
    places = _setup_places(workdir)
    argv = [_substitute(a, places) for a in case.argv]
    before = _files(workdir)
    inputs = {name: (workdir / name).read_bytes() for name in ("game.yaml", "bad.yaml", "file.txt")}
    old = os.getcwd()
    os.chdir(workdir)
    try:
        o = run_cli(argv)
    finally:
        os.chdir(old)
    if o.crash:
        return o
    new = sorted(_files(workdir) - before)
    if lost := [name for name, data in inputs.items() if _read_or_none(workdir / name) != data]:
        o.crash = f"a user's file was replaced or removed: {lost}"
        return o
    if o.status == 2 and argv == []:
        return o
    if o.status == 2 and not _located(o.stderr, argv):
        o.crash = f"exit 2, but the message names no argument: {o.stderr.strip()[:300]!r}"
    elif o.status == 2 and (stray := [f for f in new if not re.search(r"(^|/)tabletop_hells_gate/", f)]):
        o.crash = f"exit 2, but files were written: {stray[:5]}"
    elif left := [str(p) for p in workdir.rglob(".*") if p.name.endswith((".tmp", ".old"))]:
        o.crash = f"temporaries left behind: {left[:3]}"
    elif sorted(p.name for p in (workdir / "mine").iterdir()) != ["keep.txt"]:
        o.crash = "a folder a symbolic link in the output pointed to was written into"
    return o


# ------------------------------------------------------------------------------------------------ the runner
def _vm_bytes() -> int:
    """This process's address-space size (Linux), 0 where unknown."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


WALL_FACTOR = 5
"""A child gets ``timeout`` seconds of CPU and ``WALL_FACTOR`` times as many seconds of wall-clock time: the CPU cap
catches a runaway computation whatever the machine's load, the wall cap a child blocked without computing."""


def run_forked(fn: Callable[[Path], Any], *, timeout: float, memory_mb: int) -> tuple[str, Any]:
    """``fn(workdir)`` in a forked child with ``memory_mb`` MB of address space beyond the parent's, ``timeout``
    seconds of CPU and ``WALL_FACTOR * timeout`` seconds in all.

    Returns ``("ok", result)`` with fn's JSON-able result, ``("crash", traceback text)`` when it raised,
    ``("oom", text)`` on a MemoryError, ``("slow", "")`` when it used up its CPU time, ``("hang", "")`` when it ran
    out of wall-clock time, ``("killed", signal)``."""
    child = start_forked(fn, timeout=timeout, memory_mb=memory_mb)
    while not child.poll():
        child.wait(0.05)
    return child.result()


@dataclass
class Child:
    pid: int
    result_file: Path
    tmp: tempfile.TemporaryDirectory[str]
    deadline: float
    timeout: float
    status: int | None = None
    killed: bool = False
    pidfd: int | None = None

    def poll(self) -> bool:
        """Whether the child has ended (killed at its deadline)."""
        if self.status is not None:
            return True
        pid, status = os.waitpid(self.pid, os.WNOHANG)
        if pid:
            self.status = status
            if self.pidfd is not None:
                os.close(self.pidfd)
                self.pidfd = None
            return True
        if time.monotonic() > self.deadline and not self.killed:
            os.kill(self.pid, signal.SIGKILL)
            self.killed = True
        return False

    def wait(self, seconds: float) -> None:
        """Sleep until the child ends or ``seconds`` pass."""
        if self.pidfd is not None:
            import select

            select.select([self.pidfd], [], [], seconds)
        else:
            time.sleep(seconds)

    def result(self) -> tuple[str, Any]:
        try:
            if self.killed:
                return "hang", ""
            assert self.status is not None
            if os.WIFSIGNALED(self.status):
                if os.WTERMSIG(self.status) in (signal.SIGXCPU, signal.SIGKILL):  # the CPU caps, soft and hard
                    return "slow", ""
                return "killed", f"killed by signal {os.WTERMSIG(self.status)}"
            text = self.result_file.read_text(encoding="utf-8", errors="replace") if self.result_file.exists() else ""
            code = os.WEXITSTATUS(self.status)
            if code == 0 and text:
                return "ok", json.loads(text)
            if "MemoryError" in text:
                return "oom", text
            return "crash", text or f"the child exited {code} without a result"
        finally:
            self.tmp.cleanup()


def start_forked(fn: Callable[[Path], Any], *, timeout: float, memory_mb: int) -> Child:
    """Fork a child that runs ``fn(workdir)`` under the caps (see :func:`run_forked`)."""
    tmp = tempfile.TemporaryDirectory(prefix="forge-fuzz-")
    workdir = Path(tmp.name) / "w"
    workdir.mkdir()
    result_file = Path(tmp.name) / "result.json"
    cap = _vm_bytes() + memory_mb * 2**20
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 3
        try:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
            cpu = max(1, round(timeout))
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 2))
            out = fn(workdir)
            result_file.write_text(json.dumps(out), encoding="utf-8")
            code = 0
        except BaseException:  # the fuzz target's crash (a MemoryError too), written for the parent to report
            with contextlib.suppress(BaseException):
                result_file.write_text(traceback.format_exc(), encoding="utf-8")
        finally:
            os._exit(code)
    pidfd = None
    if hasattr(os, "pidfd_open"):
        with contextlib.suppress(OSError):
            pidfd = os.pidfd_open(pid)
    return Child(pid, result_file, tmp, time.monotonic() + WALL_FACTOR * timeout, timeout, pidfd=pidfd)


def outcome_of(kind: str, value: Any, timeout: float, memory_mb: int) -> list[Outcome]:
    """The outcomes of a forked case (a crash outcome when the child did not finish)."""
    if kind == "ok":
        return [Outcome(**o) for o in value]
    what = {
        "hang": f"hang: no result in {WALL_FACTOR * timeout:g}s",
        "slow": f"hang: more than {timeout:g}s of CPU",
        "oom": f"out of memory (cap {memory_mb} MB beyond the runner's)",
        "killed": str(value),
    }.get(kind, "traceback")
    tail = "\n".join(str(value).strip().splitlines()[-12:]) if kind not in ("hang", "slow") else ""
    command = (re.findall(r"in cmd_(\w+)", str(value)) or ["?"])[-1]  # the command whose code raised
    return [Outcome(command, None, str(value), f"{what}:\n{tail}" if tail else what)]


def game_job(case: Case) -> Callable[[Path], Any]:
    return lambda workdir: [o.__dict__ for o in run_case(case, workdir)]


def cli_job(case: CliCase) -> Callable[[Path], Any]:
    return lambda workdir: [run_cli_case(case, workdir).__dict__]


def run_many(
    jobs: Sequence[Callable[[Path], Any]], *, parallel: int, timeout: float, memory_mb: int
) -> Iterator[tuple[int, str, Any]]:
    """Run the jobs in forked children, ``parallel`` at a time, each under the caps of :func:`run_forked`; yield
    ``(index, kind, value)`` as each ends.  A job that makes its case in the child spreads that work too."""
    running: dict[int, Child] = {}
    todo = list(range(len(jobs)))[::-1]
    while todo or running:
        while todo and len(running) < max(1, parallel):
            i = todo.pop()
            running[i] = start_forked(jobs[i], timeout=timeout, memory_mb=memory_mb)
        finished = [i for i, ch in running.items() if ch.poll()]
        if not finished:
            next(iter(running.values())).wait(0.02)
            continue
        for i in finished:
            yield (i, *running.pop(i).result())


def make_any(seed: int, i: int, kind: str = "both") -> Case | CliCase:
    """Case ``i`` of a run: a game case, or (``cli``, or one in five for ``both``) a command-line case."""
    rng = random.Random(f"{seed}:{i}")
    cli = kind == "cli" or (kind == "both" and i % 5 == 4)
    return make_cli_case(rng) if cli else make_case(rng)


def seeded_job(seed: int, i: int, kind: str) -> Callable[[Path], Any]:
    """A job that makes case ``i`` in the child and runs it."""

    def job(workdir: Path) -> Any:
        c = make_any(seed, i, kind)
        return (cli_job(c) if isinstance(c, CliCase) else game_job(c))(workdir)

    return job


def warm_up() -> None:
    """Import every forge module, so that a forked case does not pay for it and every case runs the same code (a
    module a child imported itself would be read from disk as it is then, perhaps half-way through an edit)."""
    import importlib
    import pkgutil

    import forge

    for m in pkgutil.walk_packages(forge.__path__, "forge."):
        if m.name != "forge.__main__":
            importlib.import_module(m.name)

    for p in seed_files():
        seed_doc(p)
    with tempfile.TemporaryDirectory() as d:  # and build the validators and caches once
        text = (DATA / f"{GOOD_GAME}.yaml").read_text(encoding="utf-8")
        run_case(Case(GOOD_GAME, text, ["--only", "cards"], ["--no-print-check"]), Path(d))


# ----------------------------------------------------------------------------------------------- the corpus
def corpus_text(case: Case, outcome: Outcome) -> str:
    """The crasher as a corpus file: its options and what happened in comments, then the game."""
    argv = {"build": case.build_argv, "verify": case.verify_argv}
    found = (outcome.crash or "").strip().splitlines()
    summary = f"{outcome.command}: {found[-1] if found else '?'}"
    mutations = "; ".join(case.what)
    return f"{HEADER}{json.dumps(argv)}\n{FOUND}{summary}\n# fuzz-mutations: {mutations}\n{case.text}"


def corpus_cli_text(case: CliCase, outcome: Outcome) -> str:
    found = (outcome.crash or "").strip().splitlines()
    return json.dumps({"argv": case.argv, "found": found[-1] if found else "?"}, ensure_ascii=True, indent=1) + "\n"


def read_corpus(path: Path) -> tuple[list[str], list[str]]:
    """The build and verify options a corpus file was found with (none when it has no header)."""
    first = path.read_bytes().split(b"\n", 1)[0].decode("utf-8", "replace")
    if first.startswith(HEADER):
        argv = json.loads(first[len(HEADER) :])
        return list(argv.get("build", [])), list(argv.get("verify", []))
    return [], ["--no-print-check"]


def read_cli_corpus(path: Path) -> CliCase:
    return CliCase(list(json.loads(path.read_text(encoding="utf-8"))["argv"]), path.name)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("--kind", choices=["game", "cli", "both"], default="both")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--timeout", type=int, default=30, help=f"CPU seconds per case (default 30; {WALL_FACTOR}x in wall-clock time)"
    )
    ap.add_argument("--memory", type=int, default=2048, help="address space per case in MB (default 2048)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-write", action="store_true", help="do not write crashers to tests/corpus/")
    a = ap.parse_args()
    if os.environ.get("PYTHONHASHSEED") != "0":  # the same cases give the same runs: restart with a fixed hash seed
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})

    t0 = time.monotonic()
    warm_up()
    crashes: list[tuple[int, Case | CliCase, Outcome]] = []
    stages: Counter[str] = Counter()
    jobs = [seeded_job(a.seed, i, a.kind) for i in range(a.cases)]
    for done, (i, kind, value) in enumerate(run_many(jobs, parallel=a.jobs, timeout=a.timeout, memory_mb=a.memory), 1):
        outs = outcome_of(kind, value, a.timeout, a.memory)
        c = make_any(a.seed, i, a.kind) if kind != "ok" or any(o.crash for o in outs) else None
        prefix = "cli " if (i % 5 == 4 and a.kind == "both") or a.kind == "cli" else ""
        stages[prefix + (" ".join(f"{o.command} {o.status}" for o in outs) if kind == "ok" else kind)] += 1
        crash = next((o for o in outs if o.crash), None)
        if crash and c is not None:
            crashes.append((i, c, crash))
            last = (crash.crash or "").strip().splitlines()[-1:]
            what = c.what if isinstance(c, CliCase) else "; ".join(c.what)
            print(f"case {i} CRASH in {crash.command}: {last} [{what[:300]}]", flush=True)
        if done % 500 == 0:
            print(f"... {done}/{a.cases} cases, {len(crashes)} crashes, {time.monotonic() - t0:.0f}s", flush=True)
    if not a.no_write:
        CORPUS.mkdir(exist_ok=True)
        seen: set[str] = set()
        kept = {"\n".join(p.read_text(encoding="utf-8", errors="replace").split("\n")[:3:2]) for p in CORPUS.iterdir()}
        for _, case, crash in crashes:  # one file per kind of crash: the same error line from the same command
            kind = f"{crash.command}: {(crash.crash or '').strip().splitlines()[-1:]}"
            if kind in seen:
                continue
            seen.add(kind)
            if isinstance(case, CliCase):
                text = corpus_cli_text(case, crash)
                name = f"cli-{hashlib.sha256(text.encode()).hexdigest()[:10]}.json"
            else:
                text = corpus_text(case, crash)
                if "\n".join(text.split("\n")[:3:2]) in kept:  # the same options and mutations: found before
                    continue
                name = f"{case.seed}-{hashlib.sha256(text.encode('utf-8', 'surrogateescape')).hexdigest()[:10]}.yaml"
            (CORPUS / name).write_text(text, encoding="utf-8", errors="surrogateescape")
    for stage, n in stages.most_common():
        print(f"{n:6d}  {stage}")
    print(
        f"{a.cases} cases (seed {a.seed}, {a.kind}), {len(crashes)} crashes in {time.monotonic() - t0:.0f}s"
        + ("" if a.no_write else f" -> {CORPUS}")
    )
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
