"""``forge analyze GAME.yaml``: the CRT's exact outcome charts and the game's balance by simulation.

Writes ``OUT/<game id>/analysis/report.md`` and ``report.json`` (sorted keys; the same seed gives the same bytes)
and, when matplotlib is installed (``pip install 'hexforge[analyze]'``), the charts as SVG and PNG beside them.

* The CRT (:mod:`forge.crtstats`): per column and attack kind, the probability of each result and each side's
  expected losses; the first column where an attack pays; what one column shift changes.
* Balance (:mod:`forge.balance`): ``--games N`` games per policy (random and greedy, as ``forge play`` plays them,
  seeds S..S+N-1), over ``--jobs`` processes; win rates with Wilson 95 % intervals, the VP distribution, the turn
  games are decided on.  A game the engine cannot play gets the list of what its data lacks instead.
* ``--class-results FILE.csv``: a class's record sheet compared with the simulation.

Only the standard library is imported here: the work is imported when the command runs.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .play import POLICIES, _count, assumption

EXIT_OK, EXIT_BAD_INPUT = 0, 2
CHARTS_HINT = "charts not written: matplotlib is not installed (pip install 'hexforge[analyze]')"


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a whole number of processes (0: every core)") from None
    if not 0 <= n <= 256:
        raise argparse.ArgumentTypeError(f"{text!r}: expected 0 (every core) to 256 processes")
    return n


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``forge analyze`` (forge.cli calls this when it builds its parser)."""
    p.add_argument("file", metavar="GAME.yaml")
    p.add_argument("--out", default="output", help="output folder (default: output); the report goes to "
                   "OUT/<game id>/analysis/")
    p.add_argument("--games", type=_count, default=2000, metavar="N",
                   help="games simulated per policy (default: 2,000)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the first game's seed (default: 0)")
    p.add_argument("--jobs", type=_jobs, default=0, metavar="J",
                   help="processes to play the games in (default: 0, every core); the report does not depend on it")
    p.add_argument("--class-results", metavar="FILE.csv", default=None,
                   help="a class's record sheet (columns as the teacher's pack prints them) to compare with the "
                   "simulation")
    p.add_argument(
        "--assume",
        type=assumption,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a value to assume where the data says unknown, as for forge play: strength=N",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="print only the files written")


def _f(x: Any, digits: int = 2) -> str:
    return "unknown" if x is None else f"{float(x):.{digits}f}"


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def crt_part(game: Any) -> tuple[list[str], dict[str, Any], list[Any]]:
    """The CRT section of the report: markdown lines, its JSON, and the tables (for the charts)."""
    from .. import crtstats as cs

    combat = game.combat
    tabs = cs.tables(combat)
    md = ["## The combat results table", ""]
    js: dict[str, Any] = {"tables": []}
    if not tabs:
        md += [f"This game has no CRT ({combat.kind.value} combat): nothing to chart.", ""]
        return md, js, tabs
    crt = combat.crt
    md += [
        f"Every figure is exact, from the table as printed ({crt.dice}; no die modifier, re-roll or shift). "
        "Losses are in steps (a hit is a step).",
        "",
        "An attack **pays** at a column when the defender's expected step losses are at least the attacker's, "
        "the defender is at least as likely to be eliminated outright as the attacker, and one of the two is above "
        "zero. The first such column, left to right, is given for each kind of attack.",
        "",
    ]
    for t in tabs:
        md += [f"### {t.name[0].upper() + t.name[1:]}", ""]
        extra = [(k, head) for k, head in _EXTRA if any(getattr(c, k) for c in t.columns)]
        md += ["| column | results (probability) | attacker loses | defender loses |"
               + "".join(f" {h} |" for _, h in extra), "|---|---|---|---|" + "---|" * len(extra)]
        cols = []
        for c in t.columns:
            if c.unknown:
                md.append(f"| {c.label} | unknown: {c.unknown} | | |" + " |" * len(extra))
            else:
                res = ", ".join(f"{o} {_f(p)}" for o, p in c.outcomes)
                md.append(f"| {c.label} | {res} | {_f(c.attacker)} | {_f(c.defender)} |"
                          + "".join(f" {_f(getattr(c, k))} |" for k, _ in extra))
            cols.append(
                {
                    "column": c.label,
                    "outcomes": [[o, str(p), round(float(p), 6)] for o, p in c.outcomes],
                    "attacker": None if c.attacker is None else str(c.attacker),
                    "defender": None if c.defender is None else str(c.defender),
                    "retreat": str(c.retreat),
                    "attacker_retreat": str(c.attacker_retreat),
                    "defender_eliminated": str(c.defender_eliminated),
                    "attacker_eliminated": str(c.attacker_eliminated),
                    "unknown": c.unknown,
                }
            )
        md.append("")
        md.append(f"The attack pays from **{t.pays}**." if t.pays else "No column of this table pays (or its "
                  "cells are unknown).")
        if t.one_step:
            md[-1] += f" The defender expects to lose at least one step from **{t.one_step}**."
        if t.free:
            md[-1] += (" The table never charges the attacker, so every column that hurts the defender at all pays: "
                       "the column of a whole step is the more telling one.")
        md.append("")
        steps = cs.shift_steps(t)
        if steps:
            md += ["One column shift (right; a shift left is the opposite):", "",
                   "| from → to | defender's expected losses | attacker's |"
                   + (" defender eliminated |" if any(s.defender_eliminated for s in steps) else ""),
                   "|---|---|---|" + ("---|" if any(s.defender_eliminated for s in steps) else "")]
            for s in steps:
                md.append(f"| {s.left} → {s.right} | {_signed(s.defender)} | {_signed(s.attacker)} |"
                          + (f" {_signed(s.defender_eliminated)} |" if any(x.defender_eliminated for x in steps)
                             else ""))
            md.append("")
        shifts = cs.game_shifts(combat, t)
        if shifts:
            md += ["The game's shifts:", "", "| shift | rule | columns | defender's expected losses change by |",
                   "|---|---|---|---|"]
            for g in shifts:
                lo, hi = g["defender_change_min"], g["defender_change_max"]
                effect = f"{_signed(lo)} to {_signed(hi)}" if lo is not None else "off the table from every column"
                md.append(f"| {g['id']} ({g['when']}) | {g['rule'] or ''} | {g['columns']:+d} | {effect} |")
            md.append("")
        for note in t.notes:
            md.append(f"- Not counted: {note}.")
        if t.notes:
            md.append("")
        js["tables"].append(
            {
                "name": t.name,
                "columns": cols,
                "pays": t.pays,
                "one_step": t.one_step,
                "notes": list(t.notes),
                "shift_steps": [
                    {"from": s.left, "to": s.right, "defender": str(s.defender), "attacker": str(s.attacker),
                     "defender_eliminated": str(s.defender_eliminated)}
                    for s in steps
                ],
                "game_shifts": [
                    {**g, "defender_change_min": None if g["defender_change_min"] is None
                     else str(g["defender_change_min"]),
                     "defender_change_max": None if g["defender_change_max"] is None
                     else str(g["defender_change_max"])}
                    for g in shifts
                ],
            }
        )
    return md, js, tabs


_EXTRA = (
    ("retreat", "defender retreats (hexes)"),
    ("attacker_retreat", "attacker retreats (hexes)"),
    ("defender_eliminated", "defender eliminated"),
    ("attacker_eliminated", "attacker eliminated"),
)
"""Columns shown only for a table where one of them is ever above zero."""


def _signed(x: Any) -> str:
    v = float(x)
    return f"{v:+.2f}" if round(v, 2) else "±0.00"


def balance_part(summaries: dict[str, Any], sides: list[str], titles: dict[str, str], args: Any,
                 engine: str, assumed: str = "") -> list[str]:
    n = args.games
    md = [
        "## Balance by simulation",
        "",
        f"{n} games per policy, seeds {args.seed}..{args.seed + n - 1}, played as `forge play` plays them "
        f"({engine}). Random: every decision a uniformly random legal action. Greedy: the action the engine "
        "ranks highest (the best odds available, else a move toward the enemy), ties at random.",
        "",
        "A game is *decided* on the first turn from whose end the eventual winner leads on victory points at "
        "every later turn's end (the last turn when it did not lead before the finish); a draw is decided on no "
        "turn. Intervals are Wilson 95 % intervals.",
        "",
    ]
    if assumed:
        md += [assumed, ""]
    for pol in POLICIES:
        s = summaries[pol]
        md += [f"### {pol.capitalize()} play", "", "| side | wins | win rate | 95 % interval | VP mean | VP sd | "
               "VP min | VP 10 % | VP median | VP 90 % | VP max |", "|---|---|---|---|---|---|---|---|---|---|---|"]
        for side in sides:
            w, v = s["win"][side], s["vp"][side]
            md.append(
                f"| {titles[side]} | {w['games']} | {_pct(w['rate'])} | {_pct(w['low95'])} to {_pct(w['high95'])} "
                f"| {v['mean']:.2f} | {v['sd']:.2f} | {v['min']} | {v['p10']:.1f} | {v['median']:.1f} | "
                f"{v['p90']:.1f} | {v['max']} |"
            )
        md += ["", f"Draws: {s['draws']}.", ""]
        dec = ", ".join(f"turn {t}: {k}" for t, k in s["decided"].items()) or "none"
        end = ", ".join(f"turn {t}: {k}" for t, k in s["ended"].items())
        md += [f"Decided on: {dec}.", "", f"Ended on: {end}.", ""]
    return md


def class_part(cmp: dict[str, Any], path: str, policy: str, titles: dict[str, str]) -> list[str]:
    n = cmp["games"]
    md = [f"### Against {policy} play", "", "| winner | observed | expected | simulated rate |", "|---|---|---|---|"]
    for r in cmp["winners"]:
        name = titles.get(r["winner"], r["winner"])
        md.append(f"| {name} | {r['observed']} | {r['expected']:.1f} | {_pct(r['simulated_rate'])} |")
    chi = cmp["chi_square"]
    md += [""]
    if chi["df"] > 0:
        md.append(
            f"Chi-square test of the winners: χ² = {chi['statistic']:.2f} with {chi['df']} degree"
            f"{'s' if chi['df'] != 1 else ''} of freedom, p = {chi['p']:.3f}: "
            + _plainly(chi["p"])
            + (" (few games: some expected counts are under 5, so read the p-value as rough)" if chi["rough"] else "")
            + "."
        )
    for side, b in cmp["binomial"].items():
        md.append(
            f"- {titles[side]} won {b['observed']} of {n} (the simulation: {_pct(b['p_sim'])}); exact binomial "
            f"test p = {b['p']:.3f}: {_plainly(b['p'])}."
        )
    for side, v in cmp["vp"].items():
        md.append(
            f"- {titles[side]}'s VP: class mean {v['mean']:.2f} over {v['games']} games, simulated mean "
            f"{v['simulated_mean']:.2f}; {_pct(v['simulated_at_most'])} of the simulated games end at or below the "
            "class mean."
        )
    if "decided" in cmp:
        d = cmp["decided"]
        sim = "none decided" if d["simulated_mean"] is None else f"{d['simulated_mean']:.2f}"
        md.append(f"- Turn decided: class mean {d['mean']:.2f} over {d['games']} games, simulated mean {sim}.")
    md.append("")
    return md


def _plainly(p: float) -> str:
    if p < 0.05:
        return (f"a result this far from the simulation would come up about {max(1, round(100 * p))} times in 100 "
                "if the class played like the simulated players, so the class played differently")
    return "the class's results are within what the simulation expects"


def run(args: argparse.Namespace) -> int:
    import contextlib
    import functools
    import json
    import time
    from pathlib import Path

    from .. import balance as bal
    from ..rules.board import UnknownStrengthError, UnplayableGameError
    from ..rules.engines import Assumptions, engine_for
    from . import load_or_say
    from .play import what_it_lacks

    path = args.file
    game = load_or_say(path)
    if game is None:
        return EXIT_BAD_INPUT
    sides = [s.id for s in game.game.sides]
    titles = {s.id: (s.name if getattr(s, "name", None) else s.id) for s in game.game.sides}
    turns = _turns(game)
    class_rows = None
    if args.class_results:
        try:
            class_rows = bal.read_class_results(args.class_results, sides, titles, turns, bal.scores_vp(game))
        except bal.CsvError as e:
            for problem in e.problems:
                print(problem, file=sys.stderr)
            return EXIT_BAD_INPUT
    given = dict(args.assume)
    assume = Assumptions(strength=given.get("strength"))
    engine = engine_for(game)
    lacks = what_it_lacks(game, engine, assume)
    unknown = assume.unknown_faces(game)
    title = game.game.title
    md = [f"# {title}: analysis", ""]
    report: dict[str, Any] = {"game": game.game.id, "title": title, "seed": args.seed, "games": args.games}
    crt_md, crt_js, tabs = crt_part(game)
    md += crt_md
    report["crt"] = crt_js
    summaries: dict[str, Any] = {}
    records: dict[str, list[Any]] = {}
    folder = Path(args.out) / game.game.id / "analysis"
    drawn: list[list[str] | None] = []

    def crt_charts() -> None:  # the CRT's charts depend on no game: drawn while the workers play (--jobs)
        folder.mkdir(parents=True, exist_ok=True)
        drawn.append(write_charts(folder, tabs, {}, sides, titles))

    t0 = time.perf_counter()
    if lacks:
        md += ["## Balance by simulation", "", f"Not simulated: the engine cannot play {title}; its data lacks:", ""]
        md += [f"- {x}" for x in lacks] + [""]
        report["balance"] = {"playable": False, "lacks": lacks}
        if not args.quiet:
            print(f"forge analyze: {path}: not simulated; the data lacks {len(lacks)} thing"
                  f"{'s' if len(lacks) != 1 else ''} (listed in the report)", file=sys.stderr)
    else:
        from .play import _Progress

        setup = (game, engine, assume)
        bar = _Progress(len(POLICIES) * args.games)
        try:
            records = bal.simulate_policies(path, assume.strength, seed=args.seed, games=args.games,
                                            policies=POLICIES, jobs=args.jobs, setup=setup,
                                            progress=functools.partial(_show, bar, 0), meanwhile=crt_charts)
            for pol in POLICIES:
                summaries[pol] = bal.summary(records[pol], sides)
        except (UnplayableGameError, UnknownStrengthError, ValueError) as e:
            bar.close()
            for c in (drawn[0] or []) if drawn else []:  # no report: none of its charts either
                for ext in ("svg", "png"):
                    (folder / f"{c}.{ext}").unlink(missing_ok=True)
            for d in (folder, folder.parent) if drawn else ():
                with contextlib.suppress(OSError):  # only when empty (another run's files stay)
                    d.rmdir()
            print(f"forge analyze: {path}: {e}", file=sys.stderr)
            return EXIT_BAD_INPUT
        bar.close()
        assumed = ""
        if assume.strength is not None:
            faces = f"{unknown} unit face{'s' if unknown != 1 else ''}"
            used = f"{faces} the data does not give" if unknown else "not needed"
            assumed = f"Assumed: strength={assume.strength} ({used})."
        md += balance_part(summaries, sides, titles, args, engine.name, assumed)
        report["balance"] = {"playable": True, "engine": engine.name, "assumed": str(assume), "policies": summaries}
    if class_rows is not None:
        md += ["## The class's results", "", f"{len(class_rows)} games from {Path(args.class_results).name}.", ""]
        if records:
            report["class"] = {}
            for pol in POLICIES:
                cmp = bal.compare(class_rows, records[pol], sides)
                report["class"][pol] = cmp
                md += class_part(cmp, args.class_results, pol, titles)
        else:
            md += ["Not compared: the game was not simulated (see above).", ""]
    seconds = time.perf_counter() - t0
    if not drawn:  # (not drawn while the games were played: none were)
        crt_charts()
    charts = drawn[0]
    if charts is not None:
        charts += write_charts(folder, [], summaries, sides, titles) or []
    if charts is None:
        md += [f"_{CHARTS_HINT}._", ""]
    elif charts:
        md += ["## Charts", ""] + [f"![{c}]({c}.svg)" for c in charts] + [""]
    written = [folder / "report.md", folder / "report.json"]
    _write(written[0], "\n".join(md).rstrip() + "\n")
    _write(written[1], json.dumps(report, sort_keys=True, indent=1, default=str) + "\n")
    for c in charts or []:
        written += [folder / f"{c}.svg", folder / f"{c}.png"]
    for w in written:
        print(w)
    if not args.quiet:
        if charts is None:
            print(CHARTS_HINT, file=sys.stderr)
        if records:
            print(f"simulated {2 * args.games} games in {seconds:.1f} s", file=sys.stderr)
    return EXIT_OK


def _show(bar: Any, before: int, done: int) -> None:
    bar.show(before + done)


def _turns(game: Any) -> int | None:
    """How many turns the game lasts (a decided turn past it is a slip of the pen), or None."""
    return len(game.turns.turns) if game.turns is not None else None


def _write(path: Any, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def write_charts(folder: Any, tabs: list[Any], summaries: dict[str, Any], sides: list[str],
                 titles: dict[str, str]) -> list[str] | None:
    """The charts as SVG and PNG (fixed hash salt, no dates: the same figures give the same bytes); None when
    matplotlib is not installed.

    Drawn for speed (docs/ANALYZE.md, "Speed"): Figure objects without pyplot, margins fixed in inches instead of
    a layout pass (tight_layout draws the whole figure once more to measure it), titles and axis labels at fixed
    offsets (so that no draw measures the tick labels to place them), and each figure drawn once per format."""
    try:
        import matplotlib
    except ImportError:
        return None
    matplotlib.use("Agg", force=True)
    from matplotlib.figure import Figure

    names: list[str] = []
    style: Any = {"svg.hashsalt": "hexforge", "svg.fonttype": "path", "font.size": 9, "axes.grid": True,
                  "grid.alpha": 0.3, "axes.titley": 1.0}  # a fixed title height: no bounding boxes per draw
    with matplotlib.rc_context(style):
        known = [t for t in tabs if any(c.defender is not None for c in t.columns)]
        if known:
            fig = Figure(figsize=(7, 2.6 * len(known)))
            axes = fig.subplots(len(known), 1, squeeze=False)
            _margins(fig, left=0.8, right=0.15, top=0.3, bottom=0.35, hgap=0.65)
            for ax, t in zip(axes[:, 0], known, strict=True):
                labels = [c.label for c in t.columns]
                xs = range(len(labels))
                d = [float(c.defender) if c.defender is not None else float("nan") for c in t.columns]
                a = [float(c.attacker) if c.attacker is not None else float("nan") for c in t.columns]
                ax.bar([x - 0.2 for x in xs], d, 0.4, label="defender", color="#444444")
                ax.bar([x + 0.2 for x in xs], a, 0.4, label="attacker", color="#bbbbbb", hatch="//")
                ax.set_xticks(list(xs), labels)
                _label(fig, ax.yaxis, "expected steps lost", 0.5)
                ax.set_title(f"{t.name}" + (f" (pays from {t.pays})" if t.pays else ""))
                ax.legend(loc="upper left")
            _save(fig, folder, "crt_expected")
            names.append("crt_expected")
            fig = Figure(figsize=(7, 2.8 * len(known)))
            axes = fig.subplots(len(known), 1, squeeze=False)
            every: list[str] = [o for t in known for c in t.columns for o, _ in c.outcomes]
            legend = 0.45 + 0.065 * max(map(len, every), default=0)  # the legend's width at 7 points, in inches
            _margins(fig, left=0.8, right=0.15 + legend, top=0.3, bottom=0.35, hgap=0.65)
            greys = matplotlib.colormaps["Greys"]
            for ax, t in zip(axes[:, 0], known, strict=True):
                outcomes: list[str] = []
                for c in t.columns:
                    outcomes += [o for o, _ in c.outcomes if o not in outcomes]
                labels = [c.label for c in t.columns]
                bottom = [0.0] * len(labels)
                for k, o in enumerate(outcomes):
                    ys = [float(dict(c.outcomes).get(o, 0)) for c in t.columns]
                    ax.bar(labels, ys, 0.7, bottom=bottom, label=o,
                           color=greys(0.15 + 0.7 * k / max(1, len(outcomes) - 1)), edgecolor="black", linewidth=0.4)
                    bottom = [b + y for b, y in zip(bottom, ys, strict=True)]
                ax.set_ylim(0, 1)
                _label(fig, ax.yaxis, "probability", 0.5)
                ax.set_title(t.name)
                ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=7)
            _save(fig, folder, "crt_outcomes")
            names.append("crt_outcomes")
        if summaries:
            fig = Figure(figsize=(8, 2.4 * (1 + len(sides))))
            axes = fig.subplots(1 + len(sides), len(POLICIES), squeeze=False)
            _margins(fig, left=0.55, right=0.15, top=0.3, bottom=0.35, hgap=0.65, wgap=0.75)
            for j, pol in enumerate(POLICIES):
                s = summaries[pol]
                ax = axes[0, j]
                rates = [s["win"][sd]["rate"] for sd in sides]
                err = [[r - s["win"][sd]["low95"] for r, sd in zip(rates, sides, strict=True)],
                       [s["win"][sd]["high95"] - r for r, sd in zip(rates, sides, strict=True)]]
                ax.bar([titles[sd] for sd in sides], rates, yerr=err, capsize=4, color="#777777")
                ax.set_ylim(0, 1)
                ax.set_title(f"{pol} play: win rate (95 %)")
                for i, sd in enumerate(sides):
                    ax2 = axes[1 + i, j]
                    counts = s["vp"][sd]["counts"]
                    ax2.bar([int(v) for v in counts], list(counts.values()), 0.8, color="#555555")
                    ax2.set_title(f"{pol} play: {titles[sd]} VP")
            _save(fig, folder, "balance")
            names.append("balance")
            fig = Figure(figsize=(8, 2.6))
            axes = fig.subplots(1, len(POLICIES), squeeze=False)
            _margins(fig, left=0.55, right=0.15, top=0.3, bottom=0.6, wgap=0.75)
            for j, pol in enumerate(POLICIES):
                dec = summaries[pol]["decided"]
                ax = axes[0, j]
                ax.bar([int(t) for t in dec], list(dec.values()), 0.8, color="#555555")
                _label(fig, ax.xaxis, "turn decided", 0.3)
                ax.set_title(f"{pol} play")
            _save(fig, folder, "decided")
            names.append("decided")
    return names


def _margins(fig: Any, *, left: float, right: float, top: float, bottom: float, hgap: float = 0.0,
             wgap: float = 0.0) -> None:
    """Fixed margins and gaps between the panels, in inches (what tight_layout would find for these charts,
    without drawing the figure to measure it)."""
    w, h = fig.get_size_inches()
    gs = fig.axes[0].get_gridspec()
    rows, cols = gs.get_geometry()
    inner_w, inner_h = w - left - right, h - top - bottom
    panel_w, panel_h = (inner_w - wgap * (cols - 1)) / cols, (inner_h - hgap * (rows - 1)) / rows
    fig.subplots_adjust(left=left / w, right=1 - right / w, top=1 - top / h, bottom=bottom / h,
                        wspace=wgap / panel_w, hspace=hgap / panel_h)


def _label(fig: Any, axis: Any, text: str, inches: float) -> None:
    """An axis's label ``inches`` outside the axes, beside the middle of the axis (placed by hand: left to itself,
    matplotlib measures the tick labels at every draw to place it)."""
    from matplotlib.transforms import ScaledTranslation

    axis.set_label_text(text)
    x = axis.axis_name == "x"
    shift = ScaledTranslation(0, -inches, fig.dpi_scale_trans) if x else ScaledTranslation(-inches, 0,
                                                                                          fig.dpi_scale_trans)
    axis.set_label_coords(0.5 if x else 0, 0 if x else 0.5, transform=axis.axes.transAxes + shift)


def _save(fig: Any, folder: Any, name: str) -> None:
    fig.savefig(folder / f"{name}.svg", format="svg", metadata={"Date": None})
    fig.savefig(folder / f"{name}.png", format="png", dpi=110, metadata={"Software": None})
