"""``forge``: the command line.  Exit 0 when all is well, 1 when checks find something, 2 for bad input."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from . import __version__
from .errors import LoadError
from .units import COUNTER_SIZES, PAPER

if TYPE_CHECKING:
    from .model import Game

EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT = 0, 1, 2


def _summary(game: Game) -> str:
    from .model import Unknown

    g = game.game
    grid = game.map.grid
    lines = [f"{game.game.title}{' — ' + g.subtitle if g.subtitle else ''}  [{g.id}]"]
    lines.append(
        f"  map      {grid.kind.value} {grid.columns}x{grid.rows} ({grid.labels.value} labels), "
        f"{game.map.status.value}; "
        f"{len(game.map.hexes)} hexes described, {len(game.map.hexsides)} hexsides, {len(game.map.paths)} paths; "
        f"{sum(1 for h in game.map.hexes.values() if h.supply)} supply sources"
    )
    per_side = Counter(u.side for u in game.units for _ in range(u.copies))
    steps: Counter[str] = Counter()
    for u in game.units:
        steps[u.side] += len(u.steps) * u.copies
    reinf = sum(len(v) for v in game.reinforcements().values())
    side_txt = ", ".join(f"{s.name} {per_side.get(s.id, 0)} ({steps.get(s.id, 0)} steps)" for s in g.sides)
    lines.append(f"  units    {sum(per_side.values())}: {side_txt}; {reinf} arrive as reinforcements")
    unknown_str = sum(1 for u in game.units for s in u.strengths() if not s.known)
    if unknown_str:
        lines.append(f"           {unknown_str} unit faces with a strength the rulebook does not give")
    lines.append(f"  markers  {len(game.markers)} kinds")
    lines.append(f"  turns    {len(game.turns.turns)}")
    c = game.combat
    if c.crt is not None:
        crt = c.crt
        if isinstance(crt.cells, Unknown):
            state = "cells unknown"
        elif isinstance(crt.cells, dict):
            state = f"{len(crt.sections or [])} terrain sections"
        else:
            known = sum(1 for row in crt.cells for x in row if x != "?")
            state = f"{known}/{len(crt.rows) * len(crt.columns)} cells known"
        lines.append(
            f"  combat   {c.kind.value} CRT {len(crt.rows)}x{len(crt.columns)} "
            f"({crt.columns[0]} .. {crt.columns[-1]}), {state}; {len(c.shifts)} shifts, {len(c.modifiers)} modifiers"
        )
    else:
        lines.append(f"  combat   {c.kind.value}; {len(c.modifiers)} modifiers")
    lines.append(f"  tables   {len(game.tables)}: {', '.join(t.id for t in game.tables) or '-'}")
    kinds = Counter(e.kind.value for e in game.examples)
    lines.append(
        f"  examples {len(game.examples)}"
        + (f" ({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))})" if kinds else "")
    )
    if game.scenarios:
        lines.append(f"  scenarios {len(game.scenarios)}: {', '.join(s.id for s in game.scenarios)}")
    return "\n".join(lines)


def _load_or_report(path: str) -> Game | None:
    """The game in ``path``, or None after printing every problem in it (one per line, then a count)."""
    from .load import load

    try:
        return load(path)
    except LoadError as e:
        for p in e.problems:
            print(p, file=sys.stderr)
        n = len(e.problems)
        print(f"{path}: {n} problem{'s' if n != 1 else ''}", file=sys.stderr)
        return None


def cmd_check(args: argparse.Namespace) -> int:
    status = EXIT_OK
    for path in args.files:
        game = _load_or_report(path)
        if game is None:
            status = EXIT_BAD_INPUT
            continue
        if not args.quiet:
            print(f"{path}: ok")
            print(_summary(game))
    return status


def cmd_schema(args: argparse.Namespace) -> int:
    from .model import Game

    schema = Game.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Hexforge game"
    sys.stdout.write(json.dumps(schema, indent=2, sort_keys=True) + "\n")
    return EXIT_OK


def _offset(text: str) -> tuple[float, float]:
    from . import units

    parts = text.split(",")
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"{text!r}: expected DX,DY (e.g. 0.5mm,-0.3mm or 1,0 in points)")
    out = []
    for p in parts:
        p = p.strip()
        try:
            out.append(float(p) if p.lstrip("+-").replace(".", "", 1).isdigit() else _signed_length(p, units))
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    return out[0], out[1]


def _signed_length(text: str, units: Any) -> float:
    sign = -1.0 if text.startswith("-") else 1.0
    return sign * units.length(text.lstrip("+-"))


def _components(text: str) -> tuple[str, ...]:
    from .build import COMPONENTS

    parts = tuple(p.strip() for p in text.split(",") if p.strip())
    bad = [p for p in parts if p not in COMPONENTS]
    if bad or not parts:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a comma-separated list of {', '.join(COMPONENTS)}")
    return parts


def cmd_build(args: argparse.Namespace) -> int:
    import time
    from pathlib import Path

    from .build import DEFAULT_COMPONENTS, BuildOptions, build

    only = args.only or (DEFAULT_COMPONENTS + (("handout",) if args.sets else ()))
    if args.sets is not None and not 1 <= args.sets <= 200:
        print("forge build: --sets must be between 1 and 200", file=sys.stderr)
        return EXIT_BAD_INPUT
    t0 = time.perf_counter()

    def progress(msg: str) -> None:
        if not args.quiet:
            print(f"  {msg} ...", file=sys.stderr, flush=True)

    options = BuildOptions(
        paper=args.paper,
        only=only,
        counter_size=args.counter_size,
        flip=args.flip,
        back_offset=args.back_offset,
        bleed=args.bleed,
        greyscale=args.greyscale,
        sets=args.sets or 1,
        progress=progress,
    )
    status = EXIT_OK
    for path in args.files:
        game = _load_or_report(path)
        if game is None:
            status = EXIT_BAD_INPUT
            continue
        if not args.quiet:
            print(f"building {path} -> {Path(args.out) / game.game.id}/", file=sys.stderr)
        folder = Path(args.out) / game.game.id
        sub: dict[Path, int] = {}
        for written in build(game, Path(args.out), options):
            if written.parent == folder:
                print(written)
            else:  # a folder component (the images): one line for the folder, not one per file
                top = folder / written.relative_to(folder).parts[0]
                sub[top] = sub.get(top, 0) + 1
        for top, n in sub.items():
            print(f"{top}/ ({n} files)")
    if not args.quiet and status == EXIT_OK:
        print(f"done in {time.perf_counter() - t0:.2f}s", file=sys.stderr)
    return status


def cmd_verify(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .pdf import write_atomic
    from .verify import exit_code, render_findings, verify

    status = EXIT_OK
    reports = []
    for path in args.files:
        game = _load_or_report(path)
        if game is None:
            status = EXIT_BAD_INPUT
            continue
        findings = verify(game)
        if not args.no_print_check:
            from .verify.readback import roundtrip

            findings.extend(roundtrip(game))
        reports.append(render_findings(findings, args.format, game=game.game.id, title=game.game.title))
        if status != EXIT_BAD_INPUT:
            status = max(status, exit_code(findings))
    text = "\n".join(reports)
    if args.report and status == EXIT_BAD_INPUT:  # a partial report must not replace a whole one (docs/errata/)
        print(f"forge verify: {args.report} not written: bad input", file=sys.stderr)
    elif args.report:
        write_atomic(Path(args.report), text.encode("utf-8"))
    else:
        sys.stdout.write(text if text.endswith("\n") or not text else text + "\n")
    return status


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="forge",
        description="Hexforge: make and check hex-and-counter wargames on paper from one YAML file.",
        epilog="Exit status: 0 ok, 1 findings, 2 bad input.",
    )
    p.add_argument("--version", action="version", version=f"forge {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    c = sub.add_parser("check", help="validate game files and summarise what each holds")
    c.add_argument("files", nargs="+", metavar="GAME.yaml")
    c.add_argument("-q", "--quiet", action="store_true", help="print problems only")
    c.set_defaults(func=cmd_check)

    b = sub.add_parser("build", help="build print-ready PDFs: map, counters, reference cards, class handouts")
    b.add_argument("files", nargs="+", metavar="GAME.yaml")
    b.add_argument("--out", default="output", help="output folder (default: output); files go to OUT/<game id>/")
    b.add_argument(
        "--paper",
        default="letter",
        choices=list(PAPER),
        help="paper size (default letter)",
    )
    b.add_argument(
        "--only",
        type=_components,
        help="comma-separated components: map,counters,cards,handout,images (SVG + 300 dpi PNG per counter face)",
    )
    b.add_argument("--counter-size", choices=COUNTER_SIZES, help="counter edge (default 5/8in)")
    b.add_argument("--flip", default="long", choices=["long", "short"], help="duplex flip edge (default long)")
    b.add_argument(
        "--back-offset",
        type=_offset,
        default=(0.0, 0.0),
        metavar="DX,DY",
        help="measured front/back offset from the calibration page, e.g. 0.5mm,-0.3mm",
    )
    b.add_argument("--bleed", action="store_true", help="add 1/8in bleed around counters for print services")
    b.add_argument("--greyscale", action="store_true", help="greyscale palette for black-and-white printers")
    b.add_argument("--sets", type=int, metavar="N", help="also build a class handout with N complete sets")
    b.add_argument("-q", "--quiet", action="store_true", help="print only the files written")
    b.set_defaults(func=cmd_build)

    v = sub.add_parser(
        "verify",
        help="recompute the rulebook's examples and check the tables and the printed components against the rules",
        description="Exit status: 0 nothing disagrees, 1 findings (errors or warnings), 2 invalid input.",
    )
    v.add_argument("files", nargs="+", metavar="GAME.yaml")
    v.add_argument(
        "--format",
        default="text",
        choices=["text", "json", "markdown"],
        help="report format (default text); markdown is an errata report: findings by rule, coverage, not checked",
    )
    v.add_argument("--report", metavar="FILE", help="write the report to FILE instead of standard output")
    v.add_argument("--no-print-check", action="store_true", help="skip building the PDFs and reading their tables back")
    v.set_defaults(func=cmd_verify)

    s = sub.add_parser("schema", help="print the JSON Schema of the game format (for editor completion)")
    s.set_defaults(func=cmd_schema)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
