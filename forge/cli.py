"""``forge``: the command line.  Exit 0 when all is well, 1 when checks find something, 2 for bad input."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence

from . import __version__
from .errors import LoadError

EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT = 0, 1, 2


def _summary(game) -> str:  # type: ignore[no-untyped-def]
    from .model import Unknown

    g = game.game
    grid = game.map.grid
    lines = [f"{game.game.title}{' — ' + g.subtitle if g.subtitle else ''}  [{g.id}]"]
    lines.append(
        f"  map      {grid.kind.value} {grid.columns}x{grid.rows} ({grid.labels.value} labels), {game.map.status.value}; "
        f"{len(game.map.hexes)} hexes described, {len(game.map.hexsides)} hexsides, {len(game.map.paths)} paths; "
        f"{sum(1 for h in game.map.hexes.values() if h.supply)} supply sources"
    )
    per_side = Counter(u.side for u in game.units for _ in range(u.copies))
    steps = Counter()
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
        f"  examples {len(game.examples)}" + (f" ({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))})" if kinds else "")
    )
    if game.scenarios:
        lines.append(f"  scenarios {len(game.scenarios)}: {', '.join(s.id for s in game.scenarios)}")
    return "\n".join(lines)


def cmd_check(args: argparse.Namespace) -> int:
    from .load import load

    status = EXIT_OK
    for path in args.files:
        try:
            game = load(path)
        except LoadError as e:
            for p in e.problems:
                print(p, file=sys.stderr)
            n = len(e.problems)
            print(f"{path}: {n} problem{'s' if n != 1 else ''}", file=sys.stderr)
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
