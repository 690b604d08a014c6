"""``forge build``: load -> render -> impose -> write each component atomically under ``<out>/<game id>/``."""

from __future__ import annotations

import errno
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from . import units as U

if TYPE_CHECKING:  # BuildOptions alone (verify --no-print-check, the estimate) needs neither pydantic nor reportlab
    from . import model as m
    from .errors import BuildWarning
    from .templates import Templates

COMPONENTS = ("map", "counters", "cards", "handout", "images", "board", "teacher")
DEFAULT_COMPONENTS = ("map", "counters", "cards")
FOLDER_COMPONENTS = frozenset({"images", "board"})
"""The components written as a folder of files (``OUT/<game>/images/``), replaced whole on every build."""
_MAP_INPUTS = ("format", "game", "map", "terrain", "units", "turns", "special_rules", "scenarios", "rules")
_COUNTER_INPUTS = ("format", "game", "units", "markers", "terrain", "rules")
_PRINTED = (*_MAP_INPUTS, "markers", "combat", "tables", "sequence", "victory")
COMPONENT_INPUTS: dict[str, tuple[str, ...]] = {
    "map": _MAP_INPUTS,  # the grid, its terrain chart and key, the turn track (reinforcements, special rules' badges)
    "board": _MAP_INPUTS,
    "counters": _COUNTER_INPUTS,
    "images": _COUNTER_INPUTS,
    "cards": _PRINTED,
    "handout": _PRINTED,  # the map, the counters and the cards' blocks
}
"""The sections of a game (top-level keys of :class:`forge.model.Game`) each component's renderer reads: ``forge
watch`` rebuilds a component only when one of them changed (:func:`inputs_of`; tests/test_watch.py records what
each renderer reads).  A component not listed here reads every section."""


def inputs_of(component: str) -> tuple[str, ...]:
    """The sections of the game ``component`` reads (:data:`COMPONENT_INPUTS`; every section when not listed)."""
    from .model import Game

    return COMPONENT_INPUTS.get(component, tuple(Game.model_fields))


MAX_PAGES = 300
"""The most pages a class handout may have unless ``--max-pages`` raises it: about a ream of paper, printed
double-sided; ten sets of a big game are twice that (Ukraine '43: 70 pages a set)."""


class TooManyPages(ValueError):
    """A class handout longer than its page limit (``BuildOptions.max_pages``): refused before it is written."""

    def __init__(self, sets: int, each: int, limit: int) -> None:
        self.sets, self.each, self.limit = sets, each, limit
        super().__init__(
            f"the handout would be {sets * each} pages ({sets} set{'s' * (sets != 1)} of {each}), more than the "
            f"limit of {limit} pages; print fewer sets (--sets), or raise the limit with --max-pages {sets * each}"
        )


@dataclass(frozen=True)
class BuildOptions:
    """Everything a user can choose about the printed components; renderers take what they need."""

    paper: str = "letter"
    """Paper the components are printed on: letter, a4, tabloid, a3, arch-b (12 x 18 in)."""
    only: tuple[str, ...] = DEFAULT_COMPONENTS
    counter_size: str | None = None
    """Counter edge, e.g. ``5/8in``; None: the game's own (or 5/8in)."""
    flip: str = "long"
    """Duplex flip edge of the printer: long or short."""
    back_offset: tuple[float, float] = (0.0, 0.0)
    """Measured front/back misregistration in points (dx, dy), subtracted from the backs."""
    bleed: bool = False
    """1/8 in of colour past each counter's trim (counter sheets and counter images)."""
    greyscale: bool = False
    """Grey palette, and every colour written as a grey level (DeviceGray), never RGB."""
    sets: int = 1
    """Handout: number of complete class sets."""
    max_pages: int = MAX_PAGES
    """Handout: the most pages it may have (``--max-pages``); a longer one is refused (:class:`TooManyPages`)
    before it is written."""
    calibration: bool = True
    """Counters: begin with the duplex calibration sheet (two pages on which a home printer's front/back
    misregistration is measured, for ``back_offset``); a print shop registers its own sheets and would print them."""
    print_marks: bool = False
    """Each page as drawn is the trim: a page bleed (``page_bleed``), crop marks outside it, TrimBox and BleedBox."""
    page_bleed: float | None = None
    """Width of the page bleed ``print_marks`` adds, in points (``--page-bleed``); None: 3 mm
    (:data:`forge.pdf.PAGE_BLEED`).  Not the counters' own bleed (``bleed``)."""
    tile: bool = True
    """Tile a map sheet larger than the paper; False prints each sheet whole at its own size (a print shop's
    poster)."""
    cards_per_page: int = 2
    """Reference cards on a page: 2, two to a page of ``paper`` (home); 1, each card its own page at its own size
    (its trim), for a print service that cuts cards (``--cards-per-page``)."""
    card_size: str | None = None
    """``--card-size``: each reference card its own page of this card service's size (a name of
    :data:`forge.render.cards.CARD_SIZES` or ``WIDTHxHEIGHT`` lengths), its charts laid out again for it
    (:func:`forge.render.cards.sized_cards`); None: ``cards_per_page`` decides."""
    pdfx: bool = False
    """Every PDF a PDF/X-1a:2003 file: colours separated to CMYK through ``output_intent``'s profile, the output
    intent embedded (docs/PRINTING.md; :mod:`forge.pdfx`)."""
    output_intent: str = "fogra39"
    """The printing condition of ``pdfx``: a key of :data:`forge.pdfx.OUTPUT_INTENTS` (fogra39, gracol)."""
    outline_text: bool = False
    """Every glyph of every PDF drawn as a filled path from the bundled fonts' outlines, no font in the files
    (``--outline-text``; :mod:`forge.outline`).  Off in every preset: outlined text cannot be searched or read
    back."""
    progress: Callable[[str], None] | None = field(default=None, compare=False)
    report: Callable[[str], None] | None = field(default=None, compare=False)
    """Told a line for the user before anything is written: the handout's page count per set and in total."""
    templates: Templates | None = field(default=None, compare=False)
    """Layout templates (``--templates``, :func:`forge.templates.load`); None: the shipped ones."""

    def paper_size(self) -> tuple[float, float]:
        return U.paper(self.paper)

    def counter_points(self) -> float:
        return U.length(self.counter_size or "5/8in")


PRESETS: dict[str, dict[str, object]] = {
    "home": {},
    "print-shop": {
        "only": ("map", "counters", "cards", "images"),
        "bleed": True,
        "print_marks": True,
        "tile": False,
        "cards_per_page": 1,
        "pdfx": True,
        "calibration": False,
    },
    "greyscale-laser": {"greyscale": True, "bleed": False, "print_marks": False},
}
"""``--preset``: defaults for the options of :class:`BuildOptions` (docs/PRINTING.md says why each).  ``home`` is
every option's own default.  ``print-shop``: one file per component (the handout, which binds several, is left
out), counters with bleed and their 300 dpi images, every page finished for a trimming press (page bleed, crop
marks, TrimBox and BleedBox), the counter sheets without the home printer's calibration pages, each reference
card its own page at its own size (a card service cuts cards one by
one), and the map's sheets whole at their own size (a shop prints a poster, not tiles to glue; and a tiled map's
overlap strips are translucent, which PDF/X-1a forbids), and every PDF a PDF/X-1a:2003 file
(colours separated to CMYK, the output intent embedded: :mod:`forge.pdfx`).  ``greyscale-laser``: the grey
palette written as grey levels (black toner only), no bleed, so that counters keep the cut lines along their
edges."""


def page_bleed(options: BuildOptions) -> float:
    """The page bleed every page of a build with ``options`` is finished with, in points: 0 without print marks,
    else ``options.page_bleed`` (3 mm when None).  Raises ValueError outside :data:`forge.pdf.PAGE_BLEED_RANGE`
    (the command line says so before it builds: ``--page-bleed``)."""
    from .pdf import PAGE_BLEED, PAGE_BLEED_RANGE

    if not options.print_marks:
        return 0.0
    if options.page_bleed is None:
        return PAGE_BLEED
    lo, hi = PAGE_BLEED_RANGE
    if not lo - 1e-9 <= options.page_bleed <= hi + 1e-9:
        raise ValueError(f"a page bleed of {options.page_bleed:g} pt is outside 1 mm to 1/2 in")
    return float(options.page_bleed)


class _LazyImageModule:
    """A finder (on ``sys.meta_path``) that imports Pillow's ``PIL.Image`` lazily: its module is made at once and
    run on first use (``importlib.util.LazyLoader``).  reportlab imports it unconditionally, for images a build
    draws only with ``--only images`` or ``--pdfx``, and its import (with ``PIL.ExifTags``) was about 5 % of a
    small kit's build."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != "PIL.Image":
            return None
        import importlib.machinery
        import importlib.util

        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return None
        spec.loader = importlib.util.LazyLoader(spec.loader)
        return spec


def defer_image_library() -> None:
    """Have ``PIL.Image`` imported lazily from now on (:class:`_LazyImageModule`): the command line's build, before
    it imports reportlab.  Nothing changes once the module is imported, nor for a second call."""
    import sys

    if "PIL.Image" in sys.modules or any(isinstance(f, _LazyImageModule) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, _LazyImageModule())


def preset_options(preset: str = "home", **given: object) -> BuildOptions:
    """:class:`BuildOptions` from ``preset``'s defaults, with every option in ``given`` that is not None winning
    over them (an option given explicitly on the command line)."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r} (expected one of {', '.join(PRESETS)})")
    values = {**PRESETS[preset], **{k: v for k, v in given.items() if v is not None}}
    return BuildOptions(**values)  # type: ignore[arg-type]


Rendered = bytes | dict[str, bytes]
"""What a renderer returns: one PDF (written as ``<name>.pdf``), or a folder of files by relative path (written
under ``<name>/``, e.g. the images)."""


class Built(list[Path]):
    """The files :func:`build` wrote, the ``warnings`` the renderers gave (texts cut short ...; and each earlier
    output kept because it changed since), and the earlier outputs it ``removed``."""

    def __init__(
        self,
        paths: list[Path],
        warnings: list[BuildWarning],
        removed: list[Path] | None = None,
        rendered: dict[str, Rendered] | None = None,
    ) -> None:
        super().__init__(paths)
        self.warnings = warnings
        self.removed = removed or []
        self.rendered = rendered or {}
        """What each component rendered to (by name), for a later build to ``keep``."""


MANIFEST = ".hexforge-manifest.json"
"""The file in ``OUT/<game>/`` that lists what the last build wrote there (each file's path, size and SHA-256),
replaced with the build's files in one step; the next build removes what it lists, unchanged since, and does not
write again (:func:`stale_outputs`)."""
MANIFEST_FORMAT = "hexforge build manifest 1"
OUTPUT_NAMES = frozenset(n if n in FOLDER_COMPONENTS else f"{n}.pdf" for n in COMPONENTS)
"""The only names (directly in ``OUT/<game>/``) a build ever removes."""


def _digest(data: bytes) -> dict[str, object]:
    import hashlib

    return {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def manifest_bytes(files: dict[str, bytes]) -> bytes:
    """The manifest of a build that wrote ``files`` (path relative to the game's folder, POSIX form: contents)."""
    import json

    doc = {
        "format": MANIFEST_FORMAT,
        "note": "written by forge build: the files its last build wrote in this folder (the next build removes those "
        "it does not write again, if unchanged)",
        "files": {rel: _digest(files[rel]) for rel in sorted(files)},
    }
    return (json.dumps(doc, indent=1, sort_keys=False) + "\n").encode()


def read_manifest(folder: Path) -> dict[str, dict[str, object]]:
    """The files the previous build recorded in ``folder``'s manifest; empty when there is none or it cannot be
    read as one (then nothing is removed: a build never guesses what it wrote)."""
    import json

    path = folder / MANIFEST
    try:
        if path.is_symlink() or not path.is_file():
            return {}
        doc = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    files = doc.get("files") if isinstance(doc, dict) and doc.get("format") == MANIFEST_FORMAT else None
    if not isinstance(files, dict):
        return {}
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, dict)}


def _unchanged(path: Path, record: dict[str, object]) -> bool:
    """``path`` is a regular file (not a link) with the size and SHA-256 ``record`` gives."""
    import hashlib

    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size != record.get("size"):
            return False
        return hashlib.sha256(path.read_bytes()).hexdigest() == record.get("sha256")
    except OSError:
        return False


def stale_outputs(
    folder: Path, previous: dict[str, dict[str, object]], writing: set[str]
) -> tuple[list[Path], list[Path]]:
    """The earlier outputs in ``folder`` to remove and those to keep: each top-level name the ``previous`` manifest
    lists (only component names: :data:`OUTPUT_NAMES`) that this build is not ``writing``.  A file goes when it is
    the file recorded (size and SHA-256); a folder (``images/``) when it holds exactly the files recorded, each
    unchanged.  Anything else there (a user's file in it, a file changed since) is kept; a name gone is neither."""
    tops: dict[str, dict[str, dict[str, object]]] = {}
    for rel, record in previous.items():
        parts = PurePosixPath(rel).parts
        if parts and parts[0] in OUTPUT_NAMES and parts[0] not in writing and ".." not in parts:
            tops.setdefault(parts[0], {})[rel] = record
    remove: list[Path] = []
    keep: list[Path] = []
    for top, records in sorted(tops.items()):
        path = folder / top
        if not (path.is_symlink() or path.exists()):
            continue
        if top in FOLDER_COMPONENTS:
            ok = path.is_dir() and not path.is_symlink()
            try:
                found = {p.relative_to(folder).as_posix(): p for p in path.rglob("*")} if ok else {}
            except OSError:  # a subfolder that cannot be read: not what the build wrote
                ok = False
            if ok:
                dirs = {
                    PurePosixPath(rel).parents[i].as_posix()
                    for rel in records
                    for i in range(len(PurePosixPath(rel).parts) - 1)
                }
                ok = set(found) == set(records) | (dirs - {top})
                ok = ok and all(_unchanged(found[rel], record) for rel, record in records.items())
        else:
            ok = top in records and _unchanged(path, records[top])
        (remove if ok else keep).append(path)
    return remove, keep


def _targets(folder: Path, name: str, data: Rendered) -> list[tuple[Path, bytes]]:
    if isinstance(data, bytes):
        return [(folder / f"{name}.pdf", data)]
    out = []
    for rel, blob in sorted(data.items()):
        parts = PurePosixPath(rel).parts
        if not parts or PurePosixPath(rel).is_absolute() or ".." in parts:
            raise ValueError(f"{name}: {rel!r} is not a path inside the component's folder")
        out.append((folder / name / Path(*parts), blob))
    return out


SELF_REPORTING = frozenset({"handout"})
"""Components whose renderer tells ``options.progress`` of its own parts (the handout: each set as it starts, a
ten-set handout being most of a build's time) instead of :func:`build` announcing the component once."""


def progress_steps(options: BuildOptions) -> int:
    """How many times :func:`build` (with its renderers) calls ``options.progress``: once per component, the
    handout once per set.  The command line's progress bar counts these."""
    return sum(max(1, options.sets) if name in SELF_REPORTING else 1 for name in options.only)


def build(game: m.Game, out: Path, options: BuildOptions, *, keep: dict[str, Rendered] | None = None) -> Built:
    """Render the requested components of ``game`` and write them to ``out/<game id>/``; return the files (with
    the renderers' warnings as ``.warnings``: see :func:`forge.errors.warn`).  A component in ``keep`` (an earlier
    build's ``Built.rendered``, whose inputs have not changed: ``forge watch``) is written as it was, not rendered.

    Everything is rendered first, then written to temporaries next to the targets (a folder component such as the
    images to a temporary folder), then moved into place together: an error or an interruption (SIGINT, SIGTERM)
    leaves the previous files as they were and no temporary behind, and a reader never sees a mix of two runs.
    Temporaries left by a killed run (kill -9) are removed first.  Raises :class:`OSError` when ``out`` cannot hold
    the files (e.g. a file named like the folder).
    """
    import importlib

    from .errors import BuildWarning as BuildWarningType
    from .errors import collect_warnings
    from .pdf import PageFinish, commit, discard, linked_folder, page_finish, remove_stale, stage_file, stage_folder
    from .templates import use as use_templates

    def renderer(name: str) -> Callable[[m.Game, BuildOptions], Rendered]:
        # Import only what is asked for: the images need cairosvg.
        module = importlib.import_module(f".render.{name}", __package__)
        return module.render

    folder = out / game.game.id
    for name in options.only:  # a folder component's place as a link: refused before anything is rendered
        if name in FOLDER_COMPONENTS and (folder / name).is_symlink():
            raise linked_folder(folder / name)
    rendered: dict[str, Rendered] = {}
    finish = PageFinish(
        bleed=page_bleed(options),
        grey_ink=options.greyscale,
        pdfx=options.output_intent if options.pdfx else None,
        outline_text=options.outline_text,
    )
    with collect_warnings() as warnings, page_finish(finish), use_templates(options.templates):
        for name in options.only:
            if keep is not None and name in keep:
                rendered[name] = keep[name]
                continue
            if options.progress and name not in SELF_REPORTING:
                options.progress(f"rendering {name}")
            rendered[name] = renderer(name)(game, options)
    targets = {name: _targets(folder, name, data) for name, data in rendered.items()}  # refuse bad paths first
    if (folder.is_symlink() or folder.exists()) and not folder.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "is not a folder (the game's files go in one)", str(folder))
    folder.mkdir(parents=True, exist_ok=True)
    remove_stale(folder, [*OUTPUT_NAMES, MANIFEST])
    written = {path.relative_to(folder).as_posix(): blob for name in rendered for path, blob in targets[name]}
    writing = {PurePosixPath(rel).parts[0] for rel in written}
    gone, kept = stale_outputs(folder, read_manifest(folder), writing)
    for path in kept:
        warnings.append(
            BuildWarningType(
                (),
                f"kept {path}{'/' if path.is_dir() else ''}: an earlier build wrote it, and it has changed since "
                "(remove it yourself if it is no longer wanted)",
            )
        )
    staged: list[tuple[Path, Path]] = []
    try:
        for name, data in rendered.items():
            if isinstance(data, bytes):
                staged.append((stage_file(folder / f"{name}.pdf", data), folder / f"{name}.pdf"))
            else:
                files = [(path.relative_to(folder / name), blob) for path, blob in targets[name]]
                staged.append((stage_folder(folder / name, files), folder / name))
        staged.append((stage_file(folder / MANIFEST, manifest_bytes(written)), folder / MANIFEST))  # moved in last
        commit(staged, remove=gone)
    except BaseException:
        for tmp, _ in staged:
            discard(tmp)
        raise
    return Built([path for name in rendered for path, _ in targets[name]], warnings, gone, rendered)
