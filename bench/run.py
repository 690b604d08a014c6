"""Issue 11's performance table, measured as whole processes and written to bench/RESULTS.md.

Every row runs a command in a child process N times after one untimed warm-up run (so bytecode is cached, in a
scratch folder whatever PYTHONDONTWRITEBYTECODE says, and the files are in the page cache, as in the issue's
measurements), and records the best and the median wall time, the
best CPU time (user + system: steadier than wall time on a shared machine) and the peak RSS (``os.wait4``'s
``ru_maxrss`` of each child).  The play row runs bench/bench_play.py and reads its games per CPU second.

Rows (``--rows`` takes their names, comma-separated):

  small      forge build bench/kits/small.yaml --counter-size 1/2in          (7x7 map, 70 counters, cards)
  large      forge build bench/kits/large.yaml --paper tabloid --counter-size 1/2in   (1,200 hexes, 280 counters)
  build      forge build data/hells_gate.yaml                                (map, counters, cards)
  check      forge check data/hells_gate.yaml
  verify     forge verify data/hells_gate.yaml                               (with the print check's read-back)
  play       python bench/bench_play.py GAMES                                (random games per CPU second)
  huge       a 1,000 x 1,000 hex map, --only map: opt-in with --huge (minutes, gigabytes)
  wide       forge verify of a 1,000 x 100 map of 0.25 in hexes, tiled on Letter: opt-in with --huge (a minute)

The bench has a memory: the figures committed in bench/RESULTS.md (its ``json`` block, written by this script)
are the *before* of every run.  The table is printed as it goes, then a comparison of each row run with the
committed figures (before, now and the change in per cent, of the best time and of the CPU time), so that a change
that costs start-up time shows the first time anyone runs the bench.  With ``--record``, bench/RESULTS.md is
rewritten with this run's figures (the date, the machine, the figures beside the issue's targets and its own
measurements: Hexforge then, and LaTeX's `wargame` package); rows not run this time are carried over from the
previous RESULTS.md with the date they were measured.  Without it, nothing is written.  Nothing here asserts a time.

Run: python bench/run.py [--quick] [-n N] [--rows small,large] [--huge] [--results FILE] [--record]
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from _kits import KITS, synthetic

RESULTS = ROOT / "bench" / "RESULTS.md"
DATA_HEAD = "## Data"
DATA_FENCE = "```json"
DATA_MARK = "<!-- bench-data "
"""The older form of the data (one HTML comment), still read."""
PLAY_GAMES = 300
HUGE: dict[str, Any] = {"columns": 1000, "rows": 1000, "units_per_side": 10, "listed": 20_000, "hex_size": "0.6in"}
HUGE_ARGS = ("--only", "map")
WIDE: dict[str, Any] = {"columns": 1000, "rows": 100, "units_per_side": 10, "listed": 20_000, "hex_size": "0.25in"}


@dataclass(frozen=True)
class Row:
    """One row of the issue's table: what is run, and what the issue says about it."""

    name: str
    workload: str
    then: str
    """The issue's measurement of Hexforge before the work."""
    latex: float | None
    """The issue's measurement of LaTeX's `wargame` package, seconds."""
    target: str
    max_seconds: float | None = None
    min_rate: float | None = None
    max_rss_mb: float | None = None
    min_latex_ratio: float | None = None
    opt_in: bool = False


ROWS = [
    Row("small", "small kit (map, counters, cards)", "0.523 s", 3.58, "≤ 0.30 s (≥ 12×)", 0.30,
        min_latex_ratio=12),
    Row("large", "large kit (1,200 hexes tiled + 280 counters + cards)", "1.001 s", 23.2, "≤ 0.55 s (≥ 42×)", 0.55,
        min_latex_ratio=42),
    Row("build", "Hell's Gate full build", "0.58 s", None, "≤ 0.30 s", 0.30),
    Row("check", "`forge check` Hell's Gate", "0.285 s", None, "≤ 0.12 s", 0.12),
    Row("verify", "`forge verify` Hell's Gate (with read-back)", "0.75 s", None, "≤ 0.40 s", 0.40),
    Row("play", "random Hell's Gate games, one core", "185 games/s", None, "≥ 1,000 games/s", min_rate=1000),
    Row("huge", "1,000 × 1,000 hex map", "149 s, 2.6 GB", None, "≤ 60 s, ≤ 1 GB peak RSS", 60, max_rss_mb=1000,
        opt_in=True),
    Row("wide", "`forge verify` of a 1,000 × 100 map of 0.25 in hexes (read-back of 39 tiles)", "69 s, 423 MB", None,
        "≤ 69 s, ≤ 423 MB peak RSS", 69, max_rss_mb=423, opt_in=True),
]
BY_NAME = {r.name: r for r in ROWS}


@dataclass
class Run:
    """One child process: wall and CPU seconds, peak RSS in bytes, exit status, and what it printed."""

    wall: float
    cpu: float
    rss: float
    status: int
    out: str
    err: str


@dataclass
class Result:
    """A row's figures (what RESULTS.md records)."""

    name: str
    command: str
    measured: str
    """UTC date and time of the measurement."""
    n: int = 0
    best: float | None = None
    median: float | None = None
    cpu: float | None = None
    rss_mb: float | None = None
    unit: str = "s"
    """``s`` (seconds, less is better) or ``games/s`` (more is better)."""
    note: str = ""
    error: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


@functools.cache
def forge_cmd() -> list[str]:
    """The ``forge`` console script beside this interpreter (what a user runs) when it runs this checkout's forge,
    else ``python -m forge`` from this checkout (a git worktree beside an editable install of another checkout
    would otherwise measure that other checkout's code)."""
    script = Path(sys.executable).parent / "forge"
    if script.is_file():
        where = subprocess.run([sys.executable, "-c", "import forge; print(forge.__file__)"], cwd=script.parent,
                               capture_output=True, text=True, check=False).stdout.strip()
        if where and Path(where).resolve().parent.parent == ROOT:
            return [str(script)]
    return [sys.executable, "-m", "forge"]


def run_once(cmd: list[str], cap_bytes: int | None = None) -> Run:
    """Run ``cmd`` in a child (its output to temporary files, so no pipe can fill) and measure it."""

    def limit() -> None:
        if cap_bytes is not None:
            resource.setrlimit(resource.RLIMIT_AS, (cap_bytes, cap_bytes))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err, cwd=ROOT, preexec_fn=limit)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Run(
            wall,
            usage.ru_utime + usage.ru_stime,
            usage.ru_maxrss * 1024.0,  # KiB on Linux
            proc.returncode,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
        )


def _tail(text: str, n: int = 300) -> str:
    return " ".join(text.split())[-n:]


def measure(
    row: Row,
    cmd: list[str],
    n: int,
    ok: tuple[int, ...] = (0,),
    warm: bool = True,
    rate: Callable[[Run], float | None] | None = None,
    cap_bytes: int | None = None,
) -> Result:
    """``n`` timed runs of ``cmd`` (after a warm-up run unless ``warm`` is false); with ``rate``, the figure is
    what ``rate`` reads from each run's output (more is better) instead of its wall time."""
    shown = " ".join(_show(c) for c in cmd)
    res = Result(row.name, shown, _now(), unit="games/s" if rate else "s")
    if warm:
        first = run_once(cmd, cap_bytes)
        if first.status not in ok:
            res.error = f"exit {first.status}: {_tail(first.err or first.out)}"
            return res
    runs = []
    for _ in range(n):
        r = run_once(cmd, cap_bytes)
        if r.status not in ok:
            res.error = f"exit {r.status}: {_tail(r.err or r.out)}"
            return res
        runs.append(r)
    res.n = len(runs)
    if rate is not None:
        rates = [rate(r) for r in runs]
        if any(x is None for x in rates):
            res.error = "could not read the rate from the output: " + _tail(runs[0].out)
            return res
        vals = [x for x in rates if x is not None]
        res.best, res.median = max(vals), statistics.median(vals)
    else:
        walls = [r.wall for r in runs]
        res.best, res.median = min(walls), statistics.median(walls)
    res.cpu = min(r.cpu for r in runs)
    res.rss_mb = max(r.rss for r in runs) / 1e6
    return res


SHORT = [(str(ROOT) + "/", ""), (sys.executable, "python")]
"""Prefixes shown shorter in the commands (main adds the temporary folder as ``TMP/``)."""


def _show(arg: str) -> str:
    """``arg`` as it would be typed, with the repository's paths made relative."""
    for prefix, short in SHORT:
        if arg.startswith(prefix):
            arg = short + arg[len(prefix):]
    if arg.endswith("/forge") and "/bin/" in arg:
        arg = "forge"
    return arg if re.fullmatch(r"[\w./:,=-]+", arg) else repr(arg)


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _play_rate(r: Run) -> float | None:
    m = re.search(r"games per CPU second \(one core\)\s+([\d.,]+)", r.out)
    return float(m.group(1).replace(",", "")) if m else None


def cached_bytecode(tmp: Path) -> None:
    """Let the children cache their bytecode, as an installed forge has it (the warm-up run writes it): in a
    scratch folder (``PYTHONPYCACHEPREFIX``), so that nothing is written beside the sources, and whatever
    ``PYTHONDONTWRITEBYTECODE`` says (a shell that sets it would have every run compile every module again,
    tens of milliseconds a command that no user pays).  Likewise forge's own user cache (the parsed fonts) starts
    empty in a scratch folder and is warm after the warm-up run."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    os.environ["XDG_CACHE_HOME"] = str(tmp / "cache")  # the font cache too (forge.fontcache): fresh, then warm


def run_row(row: Row, n: int, tmp: Path, cap_gib: float) -> Result:
    """Measure ``row``."""
    forge = forge_cmd()
    out = str(tmp / "out")
    if row.name in KITS:
        kit = KITS[row.name]
        return measure(row, [*forge, "build", "-q", str(kit.path), *kit.build_args, "--out", out], n)
    hg = str(ROOT / "data" / "hells_gate.yaml")
    if row.name == "build":
        return measure(row, [*forge, "build", "-q", hg, "--out", out], n)
    if row.name == "check":
        return measure(row, [*forge, "check", hg], n)
    if row.name == "verify":
        return measure(row, [*forge, "verify", hg], n, ok=(0, 1))  # 1: findings (possible errata), as expected
    if row.name == "play":
        cmd = [sys.executable, str(ROOT / "bench" / "bench_play.py"), str(PLAY_GAMES)]
        return measure(row, cmd, n, rate=_play_rate)
    if row.name == "huge":
        return run_huge(row, tmp, cap_gib)
    if row.name == "wide":  # issue 25, item 31: the printed read-back of a large tiled map
        game = tmp / "wide.yaml"
        game.write_text(synthetic(**WIDE, game_id="bench_wide", title="Bench Wide Map"), encoding="utf-8")
        return measure(row, [*forge, "verify", "-q", str(game)], 1, warm=False, ok=(0, 1))
    raise ValueError(row.name)


def run_huge(row: Row, tmp: Path, cap_gib: float) -> Result:
    """The 1,000 x 1,000 map, once: ``forge build`` as a user runs it; when forge refuses the size (its bounds or
    its cost estimate), the same build in a child of this script with those two guards lifted, so that the
    renderer's own time and memory are still measured (the refusal is recorded beside the figures)."""
    game = tmp / "huge.yaml"
    game.write_text(synthetic(**HUGE, game_id="bench_huge", title="Bench Huge Map"), encoding="utf-8")
    cap = int(cap_gib * 1024**3)
    cmd = [*forge_cmd(), "build", "-q", str(game), *HUGE_ARGS, "--out", str(tmp / "out")]
    res = measure(row, cmd, 1, warm=False, cap_bytes=cap)
    if not res.error:
        return res
    refusal = res.error.replace(str(game), game.name)
    child = [sys.executable, str(Path(__file__).resolve()), "--child-build", str(game), str(tmp / "out"), *HUGE_ARGS]
    res = measure(row, child, 1, warm=False, cap_bytes=cap)
    res.command = f"{' '.join(_show(c) for c in cmd)}  (refused; measured: {' '.join(_show(c) for c in child)})"
    res.note = f"`forge build` refuses it ({refusal}); the figures are the same build with the guards lifted"
    res.extra["refused"] = refusal
    if res.error and "MemoryError" in res.error:
        res.error += f" (address space capped at {cap_gib:g} GiB: --cap-gib)"
    return res


def child_build(game_file: str, out: str, args: list[str]) -> None:
    """``forge build`` without its guards on size (forge.check's hex bound, forge.estimate's refusal): load,
    render, write.  For the huge row only, when forge refuses it."""
    from forge import check

    if hasattr(check, "MAX_HEXES"):
        check.MAX_HEXES = 10**7
    from forge.builder import BuildOptions, build
    from forge.loader import load

    it = iter(args)
    kw: dict[str, Any] = {}
    for a in it:
        if a == "--only":
            kw["only"] = tuple(next(it).split(","))
        elif a == "--paper":
            kw["paper"] = next(it)
    build(load(game_file), Path(out), BuildOptions(**kw))


# --- the table -----------------------------------------------------------------------------------------------------


def _fmt(res: Result, x: float | None) -> str:
    if x is None:
        return "–"
    if res.unit == "games/s":
        return f"{x:,.0f}"
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


def verdict(row: Row, res: Result) -> str:
    """Whether the best figure meets the issue's target: ``yes``, ``no`` (with what misses) or ``–``."""
    if res.error or res.best is None:
        return "–"
    miss = []
    if row.max_seconds is not None and res.best > row.max_seconds:
        miss.append("time")
    if row.min_rate is not None and res.best < row.min_rate:
        miss.append("rate")
    if row.max_rss_mb is not None and res.rss_mb is not None and res.rss_mb > row.max_rss_mb:
        miss.append("memory")
    slow = row.min_latex_ratio is not None and row.latex is not None and row.latex / res.best < row.min_latex_ratio
    if slow and "time" not in miss:
        miss.append("ratio")
    return "yes" if not miss else "no (" + ", ".join(miss) + ")"


def ratio(row: Row, res: Result) -> str:
    if row.latex is None or res.best is None or res.error:
        return "–"
    return f"{row.latex / res.best:.1f}×"


HEAD = ["row", "N", "best", "median", "CPU s", "peak RSS MB", "target (issue)", "meets", "LaTeX ÷ best"]


def console_line(row: Row, res: Result) -> str:
    if res.error:
        return f"{row.name:<7} ERROR {res.error}"
    unit = " games/s" if res.unit == "games/s" else " s"
    cpu = "–" if res.cpu is None else f"{res.cpu:.3f}"
    rss = "–" if res.rss_mb is None else f"{res.rss_mb:.0f}"
    return (
        f"{row.name:<7} {res.n:>3} {_fmt(res, res.best) + unit:>14} {_fmt(res, res.median) + unit:>14} {cpu:>8} "
        f"{rss:>7}  {row.target:<24} {verdict(row, res):<14} {ratio(row, res)}"
    )


def machine() -> dict[str, str]:
    """Cores, CPU model, memory, Python and OS of this machine, and the load when measured."""
    model = "unknown"
    mem = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 1024**2:.0f} GiB"
                break
    except OSError:
        pass
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return {
        "cores": str(os.cpu_count()),
        "cpu": model,
        "memory": mem,
        "python": platform.python_version(),
        "os": platform.platform(),
        "load": load,
    }


def _git_commit() -> str:
    """The checked-out commit, with ``+changes`` when the work tree differs from it (read-only git calls)."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + (" + uncommitted changes" if dirty else "")


def previous(path: Path) -> dict[str, Any]:
    """The figures a previous RESULTS.md recorded (its ``json`` block under "## Data", or the older embedded
    comment), by row name; {} when there are none or they cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return {}
    raw = None
    head = text.find("\n" + DATA_HEAD + "\n")
    start = text.find(DATA_FENCE + "\n", head) if head >= 0 else -1
    end = text.find("\n```", start + len(DATA_FENCE)) if start >= 0 else -1
    if start >= 0 and end >= 0:
        raw = text[start + len(DATA_FENCE):end]
    else:
        start = text.find(DATA_MARK)
        end = text.find("-->", start)
        if start >= 0 and end >= 0:
            raw = text[start + len(DATA_MARK):end]
    if raw is None:
        return {}
    try:
        data = json.loads(raw)
    except ValueError:
        return {}
    rows = data.get("rows", {}) if isinstance(data, dict) else {}
    return rows if isinstance(rows, dict) else {}


def _data_block(results: dict[str, Result]) -> list[str]:
    """The machine-readable figures: one JSON object, a row a line (so that a rerun's diff shows the rows that
    changed)."""
    rows = [f"  {json.dumps(k)}: {json.dumps(asdict(results[k]), sort_keys=True)}" for k in sorted(results)]
    return [DATA_HEAD, "", "The figures above, read by `python bench/run.py` as the *before* of its comparison:", "",
            DATA_FENCE, '{"rows": {', ",\n".join(rows), "}}", "```"]


def change(before: float | None, now: float | None) -> float | None:
    """The change from ``before`` to ``now`` in per cent of ``before`` (None when either is missing)."""
    if before is None or now is None or before == 0:
        return None
    return (now - before) / before * 100.0


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x:+.1f}%"


def _verdict(pct: float | None, unit: str, noise: float = 5.0) -> str:
    """Better, worse or the same (within ``noise`` per cent, a shared machine's jitter) for a change ``pct``."""
    if pct is None:
        return ""
    if abs(pct) < noise:
        return "same"
    better = pct > 0 if unit == "games/s" else pct < 0
    return "better" if better else "WORSE"


COMPARE_HEAD = ["row", "before", "now", "change", "CPU before", "CPU now", "CPU change", "", "before measured"]


def comparison(results: dict[str, Result], before: dict[str, Any]) -> list[str]:
    """The table of this run's rows against the committed figures ``before`` (previous()'s rows): the best figure
    and the CPU seconds, before, now and the change in per cent."""
    table = [COMPARE_HEAD]
    for row in ROWS:
        res = results.get(row.name)
        if res is None:
            continue
        old = before.get(row.name)
        old_res = None
        if isinstance(old, dict):
            try:
                old_res = Result(**old)
            except TypeError:
                old_res = None
        if old_res is not None and (old_res.error or old_res.unit != res.unit):
            old_res = None
        unit = " games/s" if res.unit == "games/s" else " s"
        now = "failed" if res.error else _fmt(res, res.best) + unit
        if old_res is None:
            table.append([row.name, "–", now, "–", "–", "–" if res.cpu is None else f"{res.cpu:.3f}", "–", "",
                          "not recorded"])
            continue
        d = None if res.error else change(old_res.best, res.best)
        dc = None if res.error else change(old_res.cpu, res.cpu)
        table.append([
            row.name,
            _fmt(old_res, old_res.best) + unit,
            now,
            _pct(d),
            "–" if old_res.cpu is None else f"{old_res.cpu:.3f}",
            "–" if res.cpu is None else f"{res.cpu:.3f}",
            _pct(dc),
            _verdict(dc if dc is not None and res.unit == "s" else d, res.unit),
            old_res.measured,
        ])
    widths = [max(len(r[i]) for r in table) for i in range(len(COMPARE_HEAD))]
    left = (0, 7, 8)
    return ["  ".join(c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
            .rstrip() for r in table]


def write_results(path: Path, results: dict[str, Result], carried: set[str], info: dict[str, str]) -> None:
    """bench/RESULTS.md: the machine, the table beside the issue's targets and measurements, the commands."""
    lines = [
        "# Benchmark results (issue 11)",
        "",
        "Written by `python bench/run.py` (do not edit by hand): every row is a whole process, run N times after one",
        "untimed warm-up run; *best* and *median* are wall-clock seconds (for the play row, random games per CPU",
        "second of one core, more is better), *CPU s* is the best user + system time, *peak RSS* the largest",
        "resident set of any run. *Meets* compares the best figure with the issue's target.",
        "",
        f"- measured: {info['date']} (rows marked † were carried over from an earlier run, with their own date)",
        f"- machine: {info['cores']} cores, {info['cpu']}, {info['memory']} RAM; {info['os']}",
        f"- Python {info['python']}; commit {info['commit']}",
        f"- load average when the run started: {info['load']} (the machine is shared: wall times are noisy, CPU times",
        "  less so)",
        "",
        "| workload | N | best | median | CPU s | peak RSS MB | target (issue) | meets | LaTeX ÷ best |"
        " issue: Hexforge then | issue: LaTeX |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in ROWS:
        res = results.get(row.name)
        latex = "–" if row.latex is None else f"{row.latex:g} s"
        if res is None:
            why = "opt-in (`--huge`), not run yet" if row.opt_in else "not run yet"
            lines.append(f"| {row.workload} | | {why} | | | | {row.target} | – | – | {row.then} | {latex} |")
            continue
        dagger = f" †({res.measured})" if row.name in carried else ""
        if res.error:
            lines.append(
                f"| {row.workload}{dagger} | | failed: {res.error.replace('|', '/')} | | | | {row.target} | – | – "
                f"| {row.then} | {latex} |"
            )
            continue
        unit = " games/s" if res.unit == "games/s" else " s"
        cpu = "–" if res.cpu is None else f"{res.cpu:.3f}"
        rss = "–" if res.rss_mb is None else f"{res.rss_mb:,.0f}"
        lines.append(
            f"| {row.workload}{dagger} | {res.n} | {_fmt(res, res.best)}{unit} | {_fmt(res, res.median)}{unit} | {cpu} "
            f"| {rss} | {row.target} | {verdict(row, res)} | {ratio(row, res)} | {row.then} | {latex} |"
        )
    lines += [
        "",
        "The last two columns, and the LaTeX figures the ratio column divides by, are **the issue's measurements**",
        "(issue 11: LaTeX's `wargame` package 0.3.2 with pdflatex, on the same content), not ours: this script does",
        "not run LaTeX. The kits are in bench/kits/ so that the LaTeX side can be rerun on the same content.",
        "",
        "## Commands",
        "",
    ]
    for row in ROWS:
        res = results.get(row.name)
        if res is not None:
            lines.append(f"- {row.name}: `{res.command}`" + (f"; {res.note}" if res.note else ""))
    lines += [
        "",
        "The kits: bench/kits/small.yaml (a 7x7 hex map on a 7x8 in sheet, a CRT, 70 double-sided counters: 35",
        "two-step units a side) and bench/kits/large.yaml (a 30x40 = 1,200-hex map of 0.83 in hexes on a 22x34 in",
        "sheet, tiled on tabloid; 280 double-sided counters: 140 two-step units a side), both with terrain, towns, a",
        "road and a river, a 12-turn track and the cards; counters at 1/2 in. The huge map is generated at run time:",
        f"{HUGE['columns']:,} x {HUGE['rows']:,} hexes of {HUGE['hex_size']} ({HUGE['listed']:,} listed with varied "
        "terrain, the rest the default), tiled on Letter, `--only map`.",
        "",
        *_data_block(results),
        "",
    ]
    path.write_text("\n".join(lines), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child-build"]:
        child_build(argv[1], argv[2], argv[3:])
        return 0
    ap = argparse.ArgumentParser(
        prog="bench/run.py",
        description="Measure issue 11's performance table as whole processes and compare it with the figures "
        "committed in bench/RESULTS.md (before, now, change); --record rewrites that file. Asserts nothing.",
    )
    ap.add_argument("-n", type=int, default=None, help="timed runs per row (default 10; 3 with --quick)")
    ap.add_argument("--quick", action="store_true", help="3 runs per row")
    ap.add_argument("--rows", default="", help=f"comma-separated rows to run, of: {', '.join(BY_NAME)} "
                    "(default: all but huge)")
    ap.add_argument("--huge", action="store_true", help="also run the 1,000 x 1,000 hex map (minutes, gigabytes)")
    ap.add_argument("--cap-gib", type=float, default=8.0, help="address-space cap of the huge row's child (GiB)")
    ap.add_argument("--results", type=Path, default=RESULTS,
                    help="figures to compare with, and with --record to rewrite (default bench/RESULTS.md)")
    ap.add_argument("--record", action="store_true",
                    help="rewrite the results file with this run's figures (rows not run are carried over)")
    ap.add_argument("--no-results", action="store_true", help="print the measurements only: no comparison")
    a = ap.parse_args(argv)
    n = a.n if a.n is not None else (3 if a.quick else 10)
    if n < 1:
        ap.error("-n: expected a number of runs of at least 1")
    names = [x.strip() for x in a.rows.split(",") if x.strip()]
    bad = [x for x in names if x not in BY_NAME]
    if bad:
        ap.error(f"--rows: unknown row {', '.join(map(repr, bad))} (expected some of {', '.join(BY_NAME)})")
    if not names:
        names = [r.name for r in ROWS if not r.opt_in or a.huge]
    elif a.huge:
        names += [r.name for r in ROWS if r.opt_in and r.name not in names]

    info = machine()
    info["date"] = _now()
    info["commit"] = _git_commit()
    print(f"{info['date']}; {info['cores']} cores, {info['cpu']}; Python {info['python']}; load {info['load']}")
    print(f"{'row':<7} {'N':>3} {'best':>14} {'median':>14} {'CPU s':>8} {'RSS MB':>7}  {'target':<24} "
          f"{'meets':<14} LaTeX÷best")
    results: dict[str, Result] = {}
    with tempfile.TemporaryDirectory(prefix="hexforge-bench-") as tmp:
        SHORT.append((tmp + "/", "TMP/"))
        cached_bytecode(Path(tmp))
        for row in ROWS:
            if row.name not in names:
                continue
            res = run_row(row, n, Path(tmp), a.cap_gib)
            results[row.name] = res
            print(console_line(row, res), flush=True)
            if res.note:
                print(f"        {res.note}", flush=True)
    if a.no_results:
        return 0
    before = previous(a.results)
    print()
    print(f"compared with {_show(str(a.results))} (best figure and CPU seconds; within 5% of CPU: same):")
    for line in comparison(results, before):
        print(line)
    if not a.record:
        print("(not recorded: --record rewrites it)")
        return 0
    carried = set()
    for name, data in before.items():
        if name in BY_NAME and name not in results and isinstance(data, dict):
            try:
                results[name] = Result(**data)
            except TypeError:
                continue
            carried.add(name)
    write_results(a.results, results, carried, info)
    print(f"wrote {_show(str(a.results))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
