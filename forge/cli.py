"""``forge``: the command line.  Exit 0 when all is well, 1 when checks find something, 2 for bad input."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import stat
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from . import __version__

# Only what every command needs is imported here: each command imports its own modules when it runs, so that
# `forge --version` loads neither pydantic nor yaml and `forge check` no renderer (tests/test_startup.py).
if TYPE_CHECKING:
    from .builder import BuildOptions
    from .errors import BuildWarning, LoadError, Problem
    from .keypath import Document
    from .model import Game
    from .templates import Templates

EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT = 0, 1, 2


def _n(count: int, singular: str, plural: str = "") -> str:
    """``1 modifier``, ``2 modifiers``, ``0 hexes``: a count and its noun."""
    return f"{count} {singular if count == 1 else plural or singular + 's'}"


def _summary(game: Game) -> str:
    from .model import Unknown

    g = game.game
    grid = game.map.grid
    lines = [f"{game.game.title}{' — ' + g.subtitle if g.subtitle else ''}  [{g.id}]"]
    lines.append(
        f"  map      {grid.kind.value} {grid.columns}x{grid.rows} ({grid.labels.value} labels), "
        f"{game.map.status.value}; "
        f"{_n(len(game.map.hexes), 'hex', 'hexes')} described, {_n(len(game.map.hexsides), 'hexside')}, "
        f"{_n(len(game.map.paths), 'path')}; {_n(sum(1 for h in game.map.hexes.values() if h.supply), 'supply source')}"
    )
    per_side = Counter(u.side for u in game.units for _ in range(u.copies))
    steps: Counter[str] = Counter()
    for u in game.units:
        steps[u.side] += len(u.steps) * u.copies
    reinf = sum(len(v) for v in game.reinforcements().values())
    side_txt = ", ".join(f"{s.name} {per_side.get(s.id, 0)} ({_n(steps.get(s.id, 0), 'step')})" for s in g.sides)
    arrive = "arrives as a reinforcement" if reinf == 1 else "arrive as reinforcements"
    lines.append(f"  units    {sum(per_side.values())}: {side_txt}; {reinf} {arrive}")
    if game.map.setup_zones:
        from .rules.kit import setup as kit

        how = Counter(s.how for s in kit.starts(game))
        lines.append(
            f"           {_n(len(game.map.setup_zones), 'set-up zone')} "
            f"{'holds' if len(game.map.setup_zones) == 1 else 'hold'} {_n(how['zone'], 'unit')}; "
            f"{how['pool']} {'starts' if how['pool'] == 1 else 'start'} in the pool"
        )
    unknown_str = sum(1 for u in game.units for s in u.strengths() if not s.known)
    if unknown_str:
        lines.append(f"           {_n(unknown_str, 'unit face')} with a strength the rulebook does not give")
    lines.append(f"  markers  {_n(len(game.markers), 'kind')}")
    lines.append(f"  turns    {len(game.turns.turns)}")
    c = game.combat
    if c.crt is not None:
        crt = c.crt
        if isinstance(crt.cells, Unknown):
            state = "cells unknown"
        elif isinstance(crt.cells, dict):
            state = _n(len(crt.sections or []), "terrain section")
        else:
            known = sum(1 for row in crt.cells for x in row if x != "?")
            state = f"{known}/{len(crt.rows) * len(crt.columns)} cells known"
        lines.append(
            f"  combat   {c.kind.value} CRT {len(crt.rows)}x{len(crt.columns)} "
            f"({crt.columns[0]} .. {crt.columns[-1]}), {state}; {_n(len(c.shifts), 'shift')}, "
            f"{_n(len(c.modifiers), 'modifier')}"
        )
    else:
        lines.append(f"  combat   {c.kind.value}; {_n(len(c.modifiers), 'modifier')}")
    lines.append(f"  tables   {len(game.tables)}: {', '.join(t.id for t in game.tables) or '-'}")
    kinds = Counter(e.kind.value for e in game.examples)
    lines.append(
        f"  examples {len(game.examples)}"
        + (f" ({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))})" if kinds else "")
    )
    if game.scenarios:
        lines.append(f"  scenarios {len(game.scenarios)}: {', '.join(s.id for s in game.scenarios)}")
    return "\n".join(lines)


def _print_located_warnings(warnings: Sequence[Problem]) -> None:
    """The one format of every warning (glyphs no font has, texts cut short): ``file:line:col: warning: key: ...``
    on stderr; the exit status is not changed."""
    for w in warnings:
        where = ":".join(str(x) for x in (w.file, w.line, w.column) if x is not None)
        print(f"{where}: warning: {w.path + ': ' if w.path else ''}{w.message}", file=sys.stderr)


def _warn_glyphs(game: Game, path: str) -> None:
    """Warn of each printable text with characters no bundled font has."""
    from .glyphs import file_warnings

    _print_located_warnings(file_warnings(game, path))


def _load_or_report(
    path: str, options: BuildOptions | None = None, documents: dict[str, Document] | None = None
) -> Game | None:
    """The game in ``path``, or None after printing every problem in it (one per line, then a count); with
    ``options``, also None when rendering it so is estimated to cost too much (forge.estimate: nothing rendered).
    ``documents`` receives the document it was read from (its marks locate findings), under ``path``."""
    from .errors import LoadError
    from .loader import load_document

    try:
        game, doc = load_document(path)
        if documents is not None:
            documents[path] = doc
        _warn_glyphs(game, path)
        if options is not None:
            from .estimate import refuse

            refuse(game, options, path)
            if options.card_size is not None:  # lays the cards out: refuse a chart the card cannot hold first
                from .render.cards.sized import refuse_card_size

                refuse_card_size(game, options, path)
        return game
    except LoadError as e:
        _print_problems(e, path or repr(path))
        return None


def _print_warnings(path: str, warnings: Sequence[BuildWarning]) -> None:
    """The build's warnings, located at the value each one's key path names in ``path`` (the file is read again for
    the positions only)."""
    if not warnings:
        return
    from .errors import LoadError, Problem
    from .keypath import dotted
    from .loader import _decode, parse_yaml

    try:
        doc = parse_yaml(_decode(Path(path).read_bytes(), path), path)
    except (OSError, LoadError):  # changed or gone since it was loaded: print the warnings without positions
        doc = None
    located = []
    for w in warnings:
        mark = doc.mark(w.path) if doc is not None and w.path else None
        located.append(Problem(path, mark[0] if mark else None, mark[1] if mark else None, dotted(w.path), w.message))
    _print_located_warnings(located)


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


def _print_problems(e: LoadError, what: str) -> None:
    """Each located problem on its own line of standard error, then ``what``'s count of them."""
    for p in e.problems:
        print(p, file=sys.stderr)
    n = len(e.problems)
    print(f"{what}: {n} problem{'s' if n != 1 else ''}", file=sys.stderr)


def documented_model() -> Any:
    """The pydantic mirror of forge.model's classes (forge.modelmirror), with the fields' docstrings as their
    descriptions (the JSON Schema's): a namespace of the classes by name.  The model every command uses is
    msgspec's, which reads no docstrings (docs/PERFORMANCE.md)."""
    import types

    from . import model
    from .modelmirror import mirrors

    global _DOCUMENTED
    if _DOCUMENTED is None:
        _DOCUMENTED = types.SimpleNamespace(**mirrors(model.__name__, documented=True))
    return _DOCUMENTED


_DOCUMENTED: Any = None


def schema_json() -> str:
    """The JSON Schema of the game format, as ``forge schema`` prints it (docs/hexforge.schema.json)."""
    import json

    schema = documented_model().Game.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Hexforge game"
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def cmd_schema(args: argparse.Namespace) -> int:
    sys.stdout.write(schema_json())
    return EXIT_OK


def cmd_new(args: argparse.Namespace) -> int:
    from . import new

    try:
        written = new.write(args.name, args.grid, Path(args.out), schema_json(), args.system)
    except new.NewGameError as e:
        print(f"forge new: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(written)
    if not args.quiet:
        print(
            f"next: forge check {written}  ·  forge build {written}  ·  forge verify {written}",
            file=sys.stderr,
        )
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    from . import vassal
    from .errors import LoadError

    templates = _templates_or_report(args.templates)  # as build reads them: located problems, exit 2
    if templates is False:
        return EXIT_BAD_INPUT
    status = EXIT_OK
    steps = len(vassal.EXPORT_STEPS)
    bar = Progress(len(args.files) * steps, quiet=args.quiet)
    for i, path in enumerate(args.files):
        bar.done = i * steps
        game = _load_or_report(path)
        if game is None:
            status = EXIT_BAD_INPUT
            continue
        dpi = args.dpi if args.dpi is not None else vassal.fit_dpi(game)
        if dpi < vassal.DEFAULT_DPI and args.dpi is None:
            print(
                f"forge export: {path}: the map sheet is too large for a {vassal.DEFAULT_DPI} dpi board image; "
                f"exporting at {dpi} dpi (--dpi to choose)",
                file=sys.stderr,
            )
        try:
            vassal.refuse(game, path, dpi=dpi)  # a located error before anything is rendered
            if not args.quiet:
                print(f"exporting {path} -> {Path(args.out) / game.game.id}/", file=sys.stderr)
            gid = game.game.id

            def stage(step: str, gid: str = gid) -> None:
                bar.step(f"{gid}: {step}")

            try:
                written = vassal.export(
                    game, Path(args.out), dpi=dpi, file=path, progress=stage, templates=templates
                )
            finally:
                bar.close()
        except vassal.VassalUnavailable as e:  # an ImportError: pywargame is not installed
            print(f"forge export: {e}", file=sys.stderr)
            return EXIT_BAD_INPUT
        except LoadError as e:
            for problem in e.problems:
                print(problem, file=sys.stderr)
            n = len(e.problems)
            print(f"{path}: {n} problem{'s' if n != 1 else ''}", file=sys.stderr)
            status = EXIT_BAD_INPUT
            continue
        print(written)
    return status


MAX_BACK_OFFSET_MM = 5.0  # the calibration page's scales reach 6 mm; a printer off by more needs servicing
_MM_PT = 72 / 25.4


def _offset(text: str) -> tuple[float, float]:
    """``DX,DY`` as measured on the calibration page: bare numbers are millimetres (its scales), or give a unit."""
    from . import units

    parts = text.split(",")
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"{text[:40]!r}: expected DX,DY in mm (e.g. 0.5,-0.3 or 0.5mm,-0.3mm)")
    out = []
    for p in parts:
        p = p.strip()
        try:
            bare = p.lstrip("+-").replace(".", "", 1).isdigit()
            out.append(float(p) * _MM_PT if bare else _signed_length(p, units))
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
        if not abs(out[-1]) <= MAX_BACK_OFFSET_MM * _MM_PT + 1e-9:
            raise argparse.ArgumentTypeError(
                f"{p[:30]!r}: an offset is at most {MAX_BACK_OFFSET_MM:g} mm each way; measure it on the calibration "
                "page (build --only counters prints one) and give what its rulers show"
            )
    return out[0], out[1]


def _signed_length(text: str, units: Any) -> float:
    sign = -1.0 if text.startswith("-") else 1.0
    return sign * units.length(text.lstrip("+-"))


def _page_bleed(text: str) -> float:
    """``--page-bleed``: a length with its unit (``3mm``, ``1/8in``, ``9pt``), within the range print services
    use (:data:`forge.pdf.PAGE_BLEED_RANGE`)."""
    from . import units
    from .pdf import PAGE_BLEED_RANGE

    try:
        value = units.length(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    lo, hi = PAGE_BLEED_RANGE
    if not lo - 1e-9 <= value <= hi + 1e-9:
        raise argparse.ArgumentTypeError(
            f"{text[:30]!r}: a page bleed is 1mm to 1/2in (services ask for 2mm to 6mm; 3mm or 1/8in is usual)"
        )
    return value


def _card_size(text: str) -> str:
    """``--card-size``: a card service's size by name or as ``WIDTHxHEIGHT`` (:func:`forge.render.cards.card_size`)."""
    from .render.cards.size import card_size

    try:
        card_size(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text.strip().lower()


def _components(text: str) -> tuple[str, ...]:
    from .builder import COMPONENTS

    parts = tuple(p.strip() for p in text.split(",") if p.strip())
    bad = [p for p in parts if p not in COMPONENTS]
    if bad or not parts:
        import difflib

        close = {p: difflib.get_close_matches(p, COMPONENTS, n=1, cutoff=0.6) for p in bad}
        hint = "".join(f"; {p!r}: did you mean {c[0]!r}?" for p, c in close.items() if c)
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected a comma-separated list of {', '.join(COMPONENTS)}{hint}"
        )
    return parts


def _blocker(path: Path) -> str | None:
    """Why no folder can be at ``path`` (or be made there), or None when one can."""
    for q in (path, *path.parents):
        try:
            mode = os.stat(q).st_mode
        except (FileNotFoundError, NotADirectoryError):
            continue  # not there yet (or under a file: found further up)
        except OSError as e:
            return f"{q}: {e.strerror}"
        if stat.S_ISDIR(mode):
            return None
        return f"{q} is a file, not a folder" if q == path else f"{q} is a file, so no folder can be made under it"
    return None


def _positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a whole number of pages, 1 or more")
    return n


def _out_folder(text: str) -> str:
    """``--out``: a folder, or a path where one can be made."""
    if "\0" in text:
        raise argparse.ArgumentTypeError(f"{text!r}: a folder name cannot contain a NUL character")
    why = _blocker(Path(text))
    if why:
        raise argparse.ArgumentTypeError(f"{text!r}: {why} (expected a folder to write into, or where one can be made)")
    return text


def _export_dpi(text: str) -> int:
    """``forge export --dpi``: a whole number in the range the export accepts."""
    from .vassal import MAX_DPI, MIN_DPI

    try:
        dpi = int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a whole number of dots per inch") from None
    if not MIN_DPI <= dpi <= MAX_DPI:
        raise argparse.ArgumentTypeError(f"{dpi}: expected {MIN_DPI} to {MAX_DPI} dots per inch")
    return dpi


def _report_file(text: str) -> str:
    """``--report``: a regular file (new or to be replaced) in a folder that is, or can be made."""
    if not text or "\0" in text or text.endswith(("/", os.sep)):
        raise argparse.ArgumentTypeError(f"{text!r}: expected a file name")
    p = Path(text)
    try:
        mode: int | None = os.stat(p).st_mode
    except (FileNotFoundError, NotADirectoryError):
        mode = None
    except OSError as e:
        raise argparse.ArgumentTypeError(f"{text!r}: {e.strerror}") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise argparse.ArgumentTypeError(f"{text!r} is a folder (expected a file name, e.g. {text}/report.md)")
    if mode is not None and not stat.S_ISREG(mode):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a regular file (expected a file to write; leave --report out for standard output)"
        )
    why = _blocker(p.parent)
    if why:
        raise argparse.ArgumentTypeError(f"{text!r}: {why} (expected a file in a folder)")
    return text


class Progress:
    """A one-line progress bar on standard error, drawn only when standard error is a terminal and the command
    is not quiet (``-q``): piped or redirected, nothing is drawn.  No dependency: a bar this simple is a few lines,
    and the commands that show one start fast (tests/test_startup.py)."""

    WIDTH = 24

    def __init__(self, total: int, *, quiet: bool = False, stream: Any = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total = max(1, total)
        self.done = 0
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = not quiet and bool(isatty and isatty())
        self._shown = False

    def step(self, label: str) -> None:
        """Start the next of ``total`` steps, named ``label``."""
        self.draw(label)
        self.done = min(self.total, self.done + 1)

    def draw(self, label: str) -> None:
        if not self.enabled:
            return
        filled = self.WIDTH * self.done // self.total
        bar = "#" * filled + "." * (self.WIDTH - filled)
        self.stream.write(f"\r\x1b[K[{bar}] {self.done}/{self.total} {label[:60]}")
        self.stream.flush()
        self._shown = True

    def close(self) -> None:
        """Clear the bar's line (what follows is printed from the start of a clean line)."""
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False


def cmd_build(args: argparse.Namespace) -> int:
    import time

    from .builder import defer_image_library, progress_steps

    t0 = time.perf_counter()
    defer_image_library()  # before anything imports reportlab, which imports Pillow's PIL.Image
    options = _build_options(args)
    if isinstance(options, int):
        return options
    bar = Progress(len(args.files) * progress_steps(options), quiet=args.quiet)
    status = EXIT_OK
    try:
        for path in args.files:
            status = max(status, _build_one(args, path, options, bar))
    finally:
        bar.close()
    if not args.quiet and status == EXIT_OK:
        print(f"done in {time.perf_counter() - t0:.2f}s", file=sys.stderr)
    return status


def _build_options(args: argparse.Namespace) -> BuildOptions | int:
    """The build options ``forge build`` (or ``forge watch``) was given, or the exit status after saying why they
    cannot be used together."""
    from .builder import DEFAULT_COMPONENTS, PRESETS, preset_options

    preset = PRESETS[args.preset]
    default_only: tuple[str, ...] = preset.get("only", DEFAULT_COMPONENTS)  # type: ignore[assignment]
    only = args.only or (default_only + (("handout", "teacher") if args.sets else ()))
    if args.sets is not None and not 1 <= args.sets <= 200:
        print("forge build: --sets must be between 1 and 200", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.sets is not None and "handout" not in only:
        print(
            f"forge build: --sets {args.sets}: the sets are class handouts, and --only {','.join(only)} leaves the "
            "handout out (add handout to --only, or drop --sets)",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    if args.max_pages is not None and "handout" not in only:
        print(
            f"forge build: --max-pages {args.max_pages} limits the class handout's pages, and --only "
            f"{','.join(only)} leaves the handout out (add handout to --only, or drop --max-pages)",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    marks = args.print_marks if args.print_marks is not None else preset.get("print_marks", False)
    if args.page_bleed is not None and not marks:
        print(
            "forge build: --page-bleed: a page bleed is added only to pages finished with --print-marks ("
            + ("--no-print-marks was given" if args.print_marks is False else f"--preset {args.preset} has none")
            + "); add --print-marks or use --preset print-shop",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    if args.card_size is not None and (args.cards_per_page == 2 or "cards" not in only):
        why = f"--only {','.join(only)} has none"
        if "cards" in only:
            why = "--cards-per-page 2 puts two on a page of --paper"
        print(
            f"forge build: --card-size {args.card_size}: prints each reference card on its own page of that size, "
            f"and {why} (drop one of them)",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    templates = _templates_or_report(args.templates)
    if templates is False:
        return EXIT_BAD_INPUT
    options = preset_options(
        args.preset,
        paper=args.paper,
        only=only,
        counter_size=args.counter_size,
        flip=args.flip,
        back_offset=args.back_offset,
        bleed=args.bleed,
        greyscale=args.greyscale,
        print_marks=args.print_marks,
        page_bleed=args.page_bleed,
        tile=args.tile,
        cards_per_page=1 if args.card_size is not None else args.cards_per_page,
        card_size=args.card_size,
        pdfx=args.pdfx,
        output_intent=args.output_intent,
        calibration=args.calibration_page,
        outline_text=args.outline_text,
        sets=args.sets or 1,
        max_pages=args.max_pages,
        templates=templates,
    )
    if args.output_intent and not options.pdfx:
        print("forge build: --output-intent is the printing condition of --pdfx: add --pdfx", file=sys.stderr)
        return EXIT_BAD_INPUT
    if options.pdfx and options.tile and {"map", "handout"} & set(options.only):
        print(
            "forge build: --pdfx: a tiled map's overlap strips are translucent, which PDF/X-1a forbids; "
            "give --no-tile (each map sheet whole, as the print-shop preset does) or --no-pdfx",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    return options


def _templates_or_report(folder: str | None) -> Templates | Literal[False] | None:
    """The layout templates in ``folder`` (``--templates``; None: the shipped ones), or False after printing every
    problem in them (located like a game file's)."""
    if folder is None:
        return None
    from .errors import LoadError
    from .render.counters import check_template
    from .templates import load

    try:
        templates = load(folder)
        check_template(templates)  # the layout checker's rules, on sample faces at every counter size
        return templates
    except LoadError as e:
        _print_problems(e, f"--templates {folder}")
        return False


@contextlib.contextmanager
def _collector_paused() -> Iterator[Callable[[], None]]:
    """Python's cyclic collector off for the block, which sets up what lives to the end of the command (its
    modules, the loaded game, the fonts): each collection would scan all of it again, and it holds next to no
    cyclic garbage.  The ``keep()`` the block gets sets aside everything made so far (``gc.freeze``: never
    scanned again) and turns the collector back on as the caller had it, for the drawing, whose garbage grows
    with the map.  On leaving, nothing stays frozen and the collector is as the caller had it (commands also run
    in-process, in tests)."""
    import gc

    enabled = gc.isenabled()
    gc.disable()

    def keep() -> None:
        gc.freeze()
        if enabled:
            gc.enable()

    try:
        yield keep
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()


def _build_one(args: argparse.Namespace, path: str, options: BuildOptions, bar: Progress) -> int:
    """Build one game file for ``cmd_build``, each component a step of ``bar``; its exit status."""
    with _collector_paused() as keep:  # (docs/PERFORMANCE.md: 4 % of the small kit's build)
        game = _load_or_report(path, options)
        if game is not None:  # the fonts' parsed tables (from forge.fontcache) live to the end too
            from .pdf import register_fonts

            register_fonts()
        keep()  # the game, the fonts and every module so far; the components are drawn with the collector on
        return _build_loaded(args, path, options, bar, game)


def _build_loaded(args: argparse.Namespace, path: str, options: BuildOptions, bar: Progress, game: Game | None) -> int:
    """:func:`_build_one` once the game is loaded (None: it could not be)."""
    import dataclasses

    from .builder import TooManyPages, build, progress_steps

    if game is None:
        bar.done += progress_steps(options)
        return EXIT_BAD_INPUT
    if not args.quiet:
        bar.close()
        print(f"building {path} -> {Path(args.out) / game.game.id}/", file=sys.stderr)
    gid = game.game.id
    folder = Path(args.out) / gid
    sub: dict[Path, int] = {}
    def report(line: str) -> None:  # the handout's page count, before anything is written
        if not args.quiet:
            bar.close()
            print(f"{path}: {line}", file=sys.stderr)

    try:
        built = build(
            game,
            Path(args.out),
            dataclasses.replace(options, progress=lambda msg: bar.step(f"{gid}: {msg}"), report=report),
        )
    except TooManyPages as e:
        bar.close()
        print(f"forge build: {path}: {e} (nothing written)", file=sys.stderr)
        return EXIT_BAD_INPUT
    bar.close()
    _print_warnings(path, built.warnings)
    for gone in built.removed:  # said, so that a user is never surprised by a file gone from the folder
        print(f"{path}: removed {gone} (an earlier build's output this build does not write)", file=sys.stderr)
    for written in built:
        if written.parent == folder:
            print(written)
        else:  # a folder component (the images): one line for the folder, not one per file
            top = folder / written.relative_to(folder).parts[0]
            sub[top] = sub.get(top, 0) + 1
    for top, n in sub.items():
        print(f"{top}/ ({n} files)")
    sys.stdout.flush()
    return EXIT_OK


def cmd_watch(args: argparse.Namespace) -> int:
    """``forge watch``: build, then on every save of the file build again the components whose inputs changed
    (:mod:`forge.watch`), until Ctrl-C (exit 0)."""
    import dataclasses

    from . import watch
    from .builder import TooManyPages, build

    if len(args.files) != 1:
        print(f"forge watch: watches one game file, and {len(args.files)} were given", file=sys.stderr)
        return EXIT_BAD_INPUT
    options = _build_options(args)
    if isinstance(options, int):
        return options
    path = args.files[0]

    def say(line: str) -> None:
        print(f"{path}: {line}", file=sys.stderr)

    def rebuild(game: Game, opts: BuildOptions, keep: dict[str, Any]) -> Any:
        try:
            built = build(game, Path(args.out), dataclasses.replace(opts, report=say), keep=keep)
        except TooManyPages as e:
            print(f"forge watch: {path}: {e} (nothing written)", file=sys.stderr)
            return None
        except OSError as e:
            print(_os_error(args, e), file=sys.stderr)
            return None
        _print_warnings(path, built.warnings)
        return built

    def echo(line: str) -> None:
        print(line, flush=True)

    watcher = watch.Watcher(path, options, load=lambda p: _load_or_report(p, options), build=rebuild, echo=echo)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how a watch ends: quietly, exit status 0
        watch.run(watcher, watch.changes(path))
    return EXIT_OK


_GAME_FILE_SNIFF = 1 << 16
"""How much of an existing file :func:`_holds_game` reads: a game file names ``format`` and ``game`` at its top."""


def _holds_game(path: Path) -> bool:
    """Whether ``path`` is a file that reads like a game file (top-level ``format:`` and ``game:`` keys), so that a
    report written over it would lose someone's game."""
    import re

    try:
        with path.open("rb") as f:
            head = f.read(_GAME_FILE_SNIFF).decode("utf-8", "replace")
    except OSError:
        return False
    return bool(re.search(r"(?m)^format[ \t]*:", head) and re.search(r"(?m)^game[ \t]*:", head))


def _report_over_input(report: str, inputs: Sequence[str | Path]) -> str | None:
    """Why ``--report FILE`` must not be written (None: it may): FILE is one of the command's inputs (the same
    file by its device and inode, so a second name, a hard link or a symbolic link is caught too), or FILE already
    holds a game file.  A user's file is never replaced by a report."""
    target = Path(report)
    try:
        st = target.stat()
    except OSError:
        return None  # nothing there yet: nothing to lose
    for given in inputs:
        try:
            other = Path(given).stat()
        except OSError:
            continue
        if (st.st_dev, st.st_ino) == (other.st_dev, other.st_ino):
            return f"--report {report} is the input {given}: writing the report there would replace it"
    if _holds_game(target):
        return f"--report {report} holds a game file: writing the report there would replace it"
    return None


def cmd_verify(args: argparse.Namespace) -> int:
    # What verify loads and checks (its modules, the game, the engine's tables) holds next to no cyclic garbage
    # (about 1,300 objects on Hell's Gate), which the collector would go over some 150 times, a tenth of the run:
    # each game is loaded and checked, and the print check set up, with it off (_collector_paused); the print
    # check's renders, whose garbage grows with the map, run with it on.
    with _collector_paused() as keep:  # from the imports of the verifier on
        return _verify(args, keep)


def _verify(args: argparse.Namespace, keep: Callable[[], None]) -> int:
    import gc

    from .builder import BuildOptions
    from .verifier import exit_code, locate, render_findings, verify

    if args.report:
        inputs: list[str | Path] = list(args.files)
        if getattr(args, "book", None):
            inputs.append(args.book)  # the user's rulebook: a report over it would lose it
        if args.templates:
            with contextlib.suppress(OSError):
                inputs.extend(sorted(Path(args.templates).iterdir()))
        why = _report_over_input(args.report, inputs)
        if why:
            suggestion = Path(args.report).with_suffix(".md" if args.format == "markdown" else f".{args.format}")
            if suggestion.suffix == ".text":
                suggestion = suggestion.with_suffix(".txt")
            print(
                f"forge verify: {why} (expected a new file name for the report, e.g. "
                f"{suggestion.with_stem(suggestion.stem + '-report')}); nothing written",
                file=sys.stderr,
            )
            return EXIT_BAD_INPUT
    templates = _templates_or_report(args.templates)  # as build reads them: located problems, exit 2
    if templates is False:
        return EXIT_BAD_INPUT
    book = None
    if getattr(args, "book", None):
        from .verifier.book import BookError, read_book

        try:
            book = read_book(args.book)
        except BookError as e:
            print(f"forge verify: --book {e}", file=sys.stderr)
            return EXIT_BAD_INPUT
    status = EXIT_OK
    reports = []
    for path in args.files:
        # The print check renders the map, counters and cards: refuse what would cost too much first.
        documents: dict[str, Document] = {}
        gc.disable()  # off again for each game (keep() turned it on for the previous game's renders)
        game = _load_or_report(path, None if args.no_print_check else BuildOptions(templates=templates), documents)
        if game is None:
            status = EXIT_BAD_INPUT
            continue
        findings = verify(game, documents[path])
        if not args.no_print_check:
            from .verifier.readback import prepare, roundtrip

            prepare()  # the renderers, the fonts, pdfium: set up once, kept to the end
            keep()

            findings.extend(roundtrip(game, templates=templates))
            findings = locate(findings, game, documents[path])  # the read-back's findings too
        if book is not None:
            from .verifier.book import book_coverage, check_book

            found, statements = check_book(game, book)
            findings.extend(found)
            findings.book = book_coverage(statements)
        title = ", ".join(x for x in (game.game.title, game.game.edition) if x)  # errata are of one edition
        rendered = render_findings(findings, args.format, game=game.game.id, title=title, file=path)
        reports.append(_quiet_report(rendered) if args.quiet and args.format == "text" else rendered)
        if status != EXIT_BAD_INPUT:
            status = max(status, exit_code(findings))
    text = "\n".join(reports)
    if args.report and status == EXIT_BAD_INPUT:  # a partial report must not replace a whole one (docs/errata/)
        print(f"forge verify: {args.report} not written: bad input", file=sys.stderr)
    elif args.report:
        from .pdf import remove_stale, write_atomic

        report = Path(args.report)
        remove_stale(report.parent, [report.name])
        write_atomic(report, text.encode("utf-8"))
        if not args.quiet:
            print(report)  # a written file is listed on standard output, as build lists its files
    else:
        sys.stdout.write(text if text.endswith("\n") or not text else text + "\n")
    return status


def _quiet_report(text: str) -> str:
    """A text report cut to its headline and its error and warning blocks (``forge verify -q``): the sections
    "not checked (...)" and "data notes (...)" (each a line at the margin, then indented lines) are left out."""
    out: list[str] = []
    skipping = False
    for line in text.splitlines():
        if not line.startswith(" "):
            skipping = line.startswith(("not checked (", "data notes ("))
        if not skipping:
            out.append(line)
    return "\n".join(out) + "\n"


EXAMPLES = {
    "check": "forge check data/hells_gate.yaml",
    "build": "forge build data/hells_gate.yaml --preset print-shop --out print/",
    "watch": "forge watch data/hells_gate.yaml --only map,cards",
    "verify": "forge verify data/hells_gate.yaml --format markdown --report errata.md",
    "schema": "forge schema > hexforge.schema.json",
    "new": "forge new 'River Crossing' --grid square",
    "export": "forge export vassal data/hells_gate.yaml --out modules/",
    "play": "forge play data/hells_gate.yaml --games 1000 --assume strength=3",
    "diff": "forge diff data/hells_gate.yaml tests/data/hells_gate_2e.yaml --format markdown",
    "analyze": "forge analyze data/hells_gate.yaml --assume strength=3 --games 500 --seed 7",
}
"""One example per command, in ``forge --help`` and each command's own help (tests/test_cli.py checks that every
command has one)."""

HELP_EPILOG = (
    "examples, one per command:\n"
    + "".join(f"  {e}\n" for e in EXAMPLES.values())
    + "\nexit status:\n"
    "  0    ok (verify: nothing disagrees)\n"
    "  1    verify found errors or warnings (possible errata); diff: the two editions differ\n"
    "  2    bad input: a game file, an option or a name; nothing half-written\n"
    "  130  interrupted (Ctrl-C); 143 stopped by SIGTERM, 129 by SIGHUP; no temporary left behind\n"
    "\nResults (files written, reports, summaries) go to standard output; errors, warnings and progress to\n"
    "standard error. A progress bar is drawn only when standard error is a terminal, never with -q."
)


def _templates_option(parser: argparse.ArgumentParser, what: str = "") -> None:
    """``--templates DIR``, the same option on every command that draws counters or cards (read by
    :func:`_templates_or_report`)."""
    parser.add_argument(
        "--templates",
        metavar="DIR",
        help="folder of layout templates (counter.yaml, card.yaml) to use instead of the shipped ones in "
        f"templates/{what}; a file missing there falls back to the shipped one. See docs/TEMPLATES.md",
    )


COMMANDS = ("check", "build", "watch", "verify", "schema", "new", "export", "play", "diff", "analyze")
"""The commands :func:`build_parser` adds, in its order (tests/test_cli_lazy.py compares)."""


class _Skipped:
    """A command's parser that is not built: every call on it does nothing (see :func:`build_parser`)."""

    def __getattr__(self, name: str) -> Any:
        return lambda *a, **kw: self


class _OnlySubParsers:
    """``add_subparsers()``'s action, adding only the parser of one command (all of them when ``only`` is None)."""

    def __init__(self, action: Any, only: str | None) -> None:
        self.action, self.only = action, only

    def add_parser(self, name: str, **kw: Any) -> Any:
        if self.only is None or name == self.only or (name, self.only) == ("build", "watch"):  # watch's parent
            return self.action.add_parser(name, **kw)
        return _Skipped()


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``only`` (a name in :data:`COMMANDS`), the parser of that command alone is
    built (``forge check x.yaml`` parses the same; the other nine parsers cost a few milliseconds of every run)."""
    from .units import COUNTER_SIZES, PAPER

    p = argparse.ArgumentParser(
        prog="forge",
        description="Hexforge: make and check hex-and-counter wargames on paper from one YAML file.",
        epilog=HELP_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"forge {__version__}")
    sub: Any = _OnlySubParsers(p.add_subparsers(dest="command", metavar="COMMAND"), only)

    c = sub.add_parser(
        "check",
        help="validate game files and summarise what each holds",
        description="Exit status: 0 every file valid, 2 bad input.",
        epilog=f"example: {EXAMPLES['check']}",
    )
    c.add_argument("files", nargs="+", metavar="GAME.yaml")
    c.add_argument("-q", "--quiet", action="store_true", help="print problems only")
    c.set_defaults(func=cmd_check)

    b = sub.add_parser(
        "build",
        help="build print-ready PDFs: map, counters, reference cards, class handouts",
        description="Exit status: 0 built, 2 bad input (nothing written). A preset sets defaults for the options "
        "below; an option given with it wins (--preset print-shop --no-bleed has no counter bleed).",
        epilog=f"example: {EXAMPLES['build']}",
    )
    b.add_argument("files", nargs="+", metavar="GAME.yaml")
    b.add_argument(
        "--out",
        default="output",
        type=_out_folder,
        help="output folder (default: output); files go to OUT/<game id>/",
    )
    b.add_argument(
        "--preset",
        default="home",
        choices=["home", "print-shop", "greyscale-laser"],
        help="defaults for a kind of printer (default home: every option's own default). print-shop: map, counters, "
        "cards and counter images, one file each; counter bleed, --print-marks, map sheets whole (--no-tile), "
        "one card a page (--cards-per-page 1), PDF/X-1a (--pdfx). "
        "greyscale-laser: --greyscale, --no-bleed. Options given explicitly win over the preset's. "
        "See docs/PRINTING.md",
    )
    b.add_argument(
        "--paper",
        default="letter",
        choices=list(PAPER),
        help="paper size (default letter); arch-b is 12 x 18 in, a card and counter printer's press sheet",
    )
    b.add_argument(
        "--only",
        type=_components,
        help="comma-separated components: map,counters,cards,handout,images (SVG + 300 dpi PNG per counter face),"
        "board (each map sheet whole as a 300 dpi PNG, for services that print a board from an image),"
        "teacher (the teacher's pack: CRT outcome charts, discussion questions and answers, a class record sheet)",
    )
    b.add_argument("--counter-size", choices=COUNTER_SIZES, help="counter edge (default 5/8in)")
    b.add_argument("--flip", default="long", choices=["long", "short"], help="duplex flip edge (default long)")
    b.add_argument(
        "--back-offset",
        type=_offset,
        default=(0.0, 0.0),
        metavar="DX,DY",
        help="front/back offset measured on the calibration page, in mm unless a unit is given (e.g. 0.5,-0.3); "
        "at most 5 mm",
    )
    b.add_argument(
        "--bleed",
        action=argparse.BooleanOptionalAction,
        help="COUNTER bleed: each counter's colour runs 1/8in past its cut (sheets and images) for print services "
        "(default: the preset's; off). Not the page bleed (--page-bleed)",
    )
    b.add_argument(
        "--greyscale",
        action=argparse.BooleanOptionalAction,
        help="greyscale palette, written as grey levels (black toner only), for black-and-white and laser printers "
        "(default: the preset's; off)",
    )
    b.add_argument(
        "--print-marks",
        action=argparse.BooleanOptionalAction,
        help="each page is the trim: a page bleed (--page-bleed), crop marks outside it, TrimBox and BleedBox on "
        "every page (default: the preset's; off)",
    )
    b.add_argument(
        "--page-bleed",
        type=_page_bleed,
        metavar="LENGTH",
        help="PAGE bleed: how far each page's art runs past its trim with --print-marks (default 3mm, as European "
        "printers ask; 1/8in for DriveThruCards and North American services); 1mm to 1/2in. Not the counter "
        "bleed (--bleed)",
    )
    b.add_argument(
        "--tile",
        action=argparse.BooleanOptionalAction,
        help="tile a map larger than --paper; --no-tile prints each map sheet whole at its own size "
        "(default: the preset's; on)",
    )
    b.add_argument(
        "--cards-per-page",
        type=int,
        choices=[1, 2],
        help="reference cards on a page: 2, two to a page of --paper; 1, each card its own page at its own size, "
        "colours to the edge, for a card service (default: the preset's; 2, print-shop 1)",
    )
    b.add_argument(
        "--card-size",
        type=_card_size,
        metavar="NAME|WxH",
        help="each reference card its own page at a card service's size, its charts laid out again for it (on its "
        "side or upright, whichever takes fewer cards): poker (2.5x3.5in), tarot (2.75x4.75in), jumbo (3.5x5.5in), "
        "or WIDTHxHEIGHT (70x120mm, 3.5x3.5in); a chart too wide or tall for it is refused. "
        "Implies --cards-per-page 1. See docs/PRINTING.md",
    )
    b.add_argument(
        "--pdfx",
        action=argparse.BooleanOptionalAction,
        help="write every PDF as PDF/X-1a:2003: colours separated to CMYK through the --output-intent profile, "
        "the output intent embedded; needs --no-tile for a map (default: the preset's; off, print-shop on)",
    )
    b.add_argument(
        "--output-intent",
        choices=["fogra39", "gracol"],
        help="printing condition of --pdfx: fogra39 (coated offset, ISO 12647-2; the default) or gracol "
        "(GRACoL 2006, CGATS TR 006, North America)",
    )
    b.add_argument(
        "--calibration-page",
        action=argparse.BooleanOptionalAction,
        help="begin counters.pdf with the duplex calibration sheet (pages 1-2), on which a home printer's "
        "--back-offset is measured (default: the preset's; on, print-shop off: a print shop registers its own)",
    )
    b.add_argument(
        "--outline-text",
        action=argparse.BooleanOptionalAction,
        help="draw every glyph as a filled path from the bundled fonts' outlines, so that the PDFs hold no font, "
        "for a print service that asks for fonts converted to outlines (default off, in every preset: outlined "
        "text cannot be searched or copied)",
    )
    b.add_argument(
        "--sets", type=int, metavar="N", help="also build a class handout with N complete sets (and, without --only, "
        "the teacher's pack)"
    )
    b.add_argument(
        "--max-pages",
        type=_positive_int,
        metavar="P",
        help="the most pages the class handout may have (default 300): a longer one is refused before "
        "it is written; the page count per set and in total is printed first",
    )
    _templates_option(b)
    b.add_argument("-q", "--quiet", action="store_true", help="print only the files written")
    b.set_defaults(func=cmd_build)

    w = sub.add_parser(
        "watch",
        parents=[b],
        add_help=False,
        help="build, then build again on every save of the game file: only the components whose inputs changed",
        description="Takes the options of forge build. A file with an error prints its problems and the watch goes "
        "on; Ctrl-C stops it (exit status 0). Exit status 2: bad options.",
        epilog=f"example: {EXAMPLES['watch']}",
    )
    w.set_defaults(func=cmd_watch)

    v = sub.add_parser(
        "verify",
        help="recompute the rulebook's examples and check the tables and the printed components against the rules",
        description="Exit status: 0 nothing disagrees, 1 findings (errors or warnings), 2 invalid input.",
        epilog=f"example: {EXAMPLES['verify']}",
    )
    v.add_argument("files", nargs="+", metavar="GAME.yaml")
    v.add_argument(
        "--format",
        default="text",
        choices=["text", "json", "markdown"],
        help="report format (default text); markdown is an errata report: findings by rule, coverage, not checked",
    )
    v.add_argument(
        "--report",
        metavar="FILE",
        type=_report_file,
        help="write the report to FILE instead of standard output (and print the path written)",
    )
    v.add_argument("--no-print-check", action="store_true", help="skip building the PDFs and reading their tables back")
    v.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="text format: print only each game's headline and its errors and warnings (no 'not checked' or data "
        "notes); with --report, do not print the path written",
    )
    v.add_argument(
        "--book",
        metavar="RULES",
        help="also read the rulebook (.txt, .md or .pdf) and check its numbering, cross-references, places, "
        "arithmetic and counts; the headline then gives coverage of the book",
    )
    _templates_option(v, ", for the components the print check builds and reads back")
    v.set_defaults(func=cmd_verify)

    s = sub.add_parser(
        "schema",
        help="print the JSON Schema of the game format (for editor completion)",
        description="Exit status: 0.",
        epilog=f"example: {EXAMPLES['schema']}",
    )
    s.set_defaults(func=cmd_schema)

    n = sub.add_parser(
        "new",
        help="write a complete, playable game to start from (Ferry Point, a teaching game)",
        description="Writes OUT/<id>.yaml (the id from NAME: 'River Crossing' -> river_crossing) and the JSON Schema "
        "beside it. Exit status: 0 written, 2 bad name or the file exists (never overwritten).",
        epilog=f"example: {EXAMPLES['new']}",
    )
    n.add_argument("name", metavar="NAME", help="the game's title, e.g. 'River Crossing'")
    n.add_argument("--grid", default="hex", help="hex (default) or square")
    n.add_argument("--system", default="hits", help="hits (default: Ferry Point's rules) or classic (the standard kit)")
    n.add_argument("--out", default=".", type=_out_folder, help="folder to write into (default: the current one)")
    n.add_argument("-q", "--quiet", action="store_true", help="print only the file written")
    n.set_defaults(func=cmd_new)

    e = sub.add_parser(
        "export",
        help="export a game as a digital play module (VASSAL)",
        description="Exit status: 0 ok, 2 bad input (or pywargame missing: pip install 'hexforge[vassal]').",
        epilog=f"example: {EXAMPLES['export']}",
    )
    e.add_argument("format", choices=["vassal"], help="module format: vassal (a VASSAL 3.7 .vmod)")
    e.add_argument("files", nargs="+", metavar="GAME.yaml")
    e.add_argument(
        "--out",
        default="output",
        type=_out_folder,
        help="output folder (default: output); the module goes to OUT/<game id>/<game id>.vmod",
    )
    _templates_option(e, ", for the pieces' images and the charts")
    e.add_argument(
        "--dpi",
        type=_export_dpi,
        default=None,
        help="resolution of the board and counter images (default: 300, lowered to fit a large map sheet)",
    )
    e.add_argument("-q", "--quiet", action="store_true", help="print only the files written")
    e.set_defaults(func=cmd_export)

    from .commands import play

    pl = sub.add_parser(
        "play",
        help="play N complete games with a random or greedy policy and print how they came out",
        description="Seeds S..S+N-1; the same seeds print the same lines. Exit status: 0 every game finished, "
        "2 bad input or a game its data does not let the engine play (the message lists what it lacks).",
        epilog=f"example: {EXAMPLES['play']}",
    )
    play.add_arguments(pl)
    pl.set_defaults(func=play.run)

    from .commands import diff_options as diff  # the module itself is imported by ``forge diff`` alone

    df = sub.add_parser(
        "diff",
        help="the errata between two editions: every changed value, its effect on combat outcomes, and the "
        "verify findings it fixes or introduces",
        description="Exit status: 0 the two files are the same game, 1 they differ, 2 bad input (either file).",
        epilog=f"example: {EXAMPLES['diff']}",
    )
    diff.add_arguments(df)
    df.set_defaults(func=diff.run)
    from .commands import analyze

    an = sub.add_parser(
        "analyze",
        help="the CRT's exact outcome charts and the game's balance by simulation (report, charts)",
        description="Writes OUT/<game id>/analysis/report.md, report.json and, with matplotlib "
        "(pip install 'hexforge[analyze]'), charts as SVG and PNG. The same seed writes the same bytes, whatever "
        "--jobs. Exit status: 0 written, 2 bad input (a bad game file or class-results CSV).",
        epilog=f"example: {EXAMPLES['analyze']}",
    )
    analyze.add_arguments(an)
    an.set_defaults(func=analyze.run)
    return p


class Terminated(BaseException):
    """SIGTERM or SIGHUP, raised in the main thread like SIGINT's KeyboardInterrupt: unwinding removes the
    temporaries (a BaseException, so that no ``except Exception`` on the way swallows it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _signals() -> list[signal.Signals]:
    return [signal.SIGINT, signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])


def _unraisable(frame: object) -> bool:
    """Whether an exception raised in ``frame`` would be swallowed ("Exception ignored in ..."): importlib's
    module-lock weakref callback, or a ``__del__``, where an interrupt must not land."""
    code = getattr(frame, "f_code", None)
    if code is None:
        return False
    return code.co_name == "__del__" or (code.co_name == "cb" and "importlib" in code.co_filename)


def _raise_for_signal(signum: int, frame: object) -> None:
    if _unraisable(frame):
        _deliver_later(signum)
        return
    for s in _signals():  # a second signal while the first unwinds: leave at once (a later run removes leftovers)
        signal.signal(s, _exit_now)
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Terminated(signum)


_HELD: list[tuple[int, Any]] = []
"""The signal :func:`_deliver_later` holds back, and the SIGALRM handler to put back when it is delivered."""


def _deliver_later(signum: int) -> None:
    """Send ``signum`` again a millisecond from now, when the frame it landed in has returned.  Raised there the
    interrupt would be printed as ignored and lost; sent again at once (``signal.raise_signal``), it is taken at
    this handler's very next instruction, still under that frame, and lost the same way (CI saw it once).  So a
    one-shot timer (SIGALRM) sends it: the callback is a few instructions long.  Without interval timers
    (Windows), it is sent again at once, as the best there is."""
    if not hasattr(signal, "setitimer"):
        signal.raise_signal(signum)
        return
    alarm = _HELD[0][1] if _HELD else signal.getsignal(signal.SIGALRM)
    _HELD[:] = [(signum, alarm)]
    signal.signal(signal.SIGALRM, _deliver_held)
    signal.setitimer(signal.ITIMER_REAL, 0.001)


def _deliver_held(_alarm: int, frame: object) -> None:
    if _unraisable(frame):  # the timer went off in such a frame too: a millisecond more
        signal.setitimer(signal.ITIMER_REAL, 0.001)
        return
    signum = _HELD[0][0]
    _drop_held()
    signal.raise_signal(signum)


def _drop_held() -> None:
    """Stop :func:`_deliver_later`'s timer, if one is set, and put the SIGALRM handler back."""
    if _HELD:
        alarm = _HELD.pop()[1]
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, alarm if alarm is not None else signal.SIG_DFL)


def _exit_now(signum: int, frame: object) -> None:
    os.write(2, f"forge: {signal.Signals(signum).name} again: stopped at once\n".encode())
    os._exit(128 + signum)


@contextlib.contextmanager
def _signals_raised() -> Iterator[None]:
    """Turn SIGINT, SIGTERM and SIGHUP into exceptions while a command runs; the caller's handlers come back after
    (``main`` is called in-process by tests and programs)."""
    if threading.current_thread() is not threading.main_thread():  # only the main thread may set handlers
        yield
        return
    old = {s: signal.signal(s, _raise_for_signal) for s in _signals()}
    try:
        yield
    finally:
        _drop_held()  # a signal still held back: the command is over, nothing is left to interrupt
        for s, handler in old.items():
            signal.signal(s, handler)


def _os_error(args: argparse.Namespace, e: OSError) -> str:
    """One line for a file that cannot be written, naming the option that chose it."""
    where = f"{e.filename}: " if e.filename else "the output: "
    what = e.strerror or str(e)
    option = {"build": ("--out", "out"), "verify": ("--report", "report")}.get(getattr(args, "command", None) or "")
    if option and getattr(args, option[1], None):
        what += f" (from {option[0]} {getattr(args, option[1])})"
    return f"forge {getattr(args, 'command', None) or ''}: cannot write {where}{what}".replace("forge : ", "forge: ")


def _joined_offsets(argv: Sequence[str]) -> list[str]:
    """``--back-offset -0.5,0.3`` as ``--back-offset=-0.5,0.3``: argparse takes a value starting with '-' for an option,
    and a measured offset is often negative."""
    out: list[str] = []
    it = iter(argv)
    for a in it:
        if a == "--back-offset":
            nxt = next(it, None)
            if nxt is not None and nxt.startswith("-") and (nxt[1:2].isdigit() or nxt[1:2] == "."):
                out.append(f"{a}={nxt}")
                continue
            out.append(a)
            if nxt is not None:
                out.append(nxt)
            continue
        if a == "--":
            out.append(a)
            out.extend(it)
            break
        out.append(a)
    return out


def _dashes_as_value(parser: argparse.ArgumentParser, argv: Sequence[str]) -> None:
    """Refuse ``--option=--`` (before a bare ``--``): Python 3.11's argparse drops a value of exactly ``--`` and gives
    the option an empty list, unchecked against its type and choices, which later code cannot use."""
    for a in argv:
        if a == "--":
            return
        name, eq, value = a.partition("=")
        if a.startswith("--") and eq and value == "--":
            parser.error(f"argument {name}: expected a value, got '--' (which marks the end of the options)")


def _command_typo(parser: argparse.ArgumentParser, argv: Sequence[str]) -> None:
    """Refuse a mistyped command with the closest one (``forge bild``: did you mean 'build'?), which argparse's
    "invalid choice" does not suggest."""
    if not argv or argv[0].startswith("-"):
        return
    from .errors import suggest

    commands = [
        name
        for a in parser._actions
        if isinstance(a, argparse._SubParsersAction)
        for name in a.choices
    ]
    if argv[0] in commands:
        return
    hint = suggest(argv[0], commands)
    if hint:
        parser.error(f"argument COMMAND: {argv[0]!r} is not a command{hint} (choose from {', '.join(commands)})")


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return its exit status.  This is the one place where exceptions become messages: a
    signal (exit 128 + its number), a file that cannot be written (exit 2), a closed standard output."""
    args = argparse.Namespace()
    with _signals_raised():
        try:
            given = _joined_offsets(sys.argv[1:] if argv is None else argv)
            parser = build_parser(given[0] if given and given[0] in COMMANDS else None)
            _dashes_as_value(parser, given)
            _command_typo(parser, given)
            args = parser.parse_args(given)
            if not getattr(args, "func", None):
                parser.print_help()
                return EXIT_BAD_INPUT
            status = int(args.func(args))
            sys.stdout.flush()  # a full disk or a closed pipe shows here, not at exit
            return status
        except (KeyboardInterrupt, Terminated, RuntimeError) as e:
            # A signal inside a class body's __set_name__ (a module imported late) comes out as a RuntimeError
            # caused by it: the same interruption.
            sig = _signal_behind(e)
            if sig is None:
                raise
            if isinstance(sig, Terminated):
                name = signal.Signals(sig.signum).name
                print(f"forge: stopped by {name}; no output was half-written", file=sys.stderr)
                return 128 + sig.signum
            print("forge: interrupted (SIGINT); no output was half-written", file=sys.stderr)
            return 128 + signal.SIGINT
        except BrokenPipeError:  # the reader left (forge schema | head): stop quietly, and quietly at exit too
            _stdout_to_devnull()
            return EXIT_OK
        except OSError as e:
            print(_os_error(args, e), file=sys.stderr)
            return EXIT_BAD_INPUT


def _signal_behind(e: BaseException) -> KeyboardInterrupt | Terminated | None:
    """The interruption (Ctrl-C, or a signal turned into :class:`Terminated`) that ``e`` is or was raised because
    of (its cause or context, at any depth); None when there is none."""
    seen: set[int] = set()
    cur: BaseException | None = e
    while cur is not None and id(cur) not in seen:
        if isinstance(cur, KeyboardInterrupt | Terminated):
            return cur
        seen.add(id(cur))
        cur = cur.__cause__ or cur.__context__
    return None


def _stdout_to_devnull() -> None:
    """Point the process's standard output at /dev/null, so that flushing it at exit does not fail again."""
    out = sys.__stdout__
    if out is None or sys.stdout is not out:  # replaced (a test, a program calling main): not ours to redirect
        return
    try:
        fd = out.fileno()
    except (AttributeError, ValueError, OSError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
