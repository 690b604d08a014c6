"""``forge build``: load -> render -> impose -> write each component atomically under ``<out>/<game id>/``."""

from __future__ import annotations

import errno
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from . import units as U

if TYPE_CHECKING:  # BuildOptions alone (verify --no-print-check, the estimate) needs neither pydantic nor reportlab
    from . import model as m
    from .errors import BuildWarning

COMPONENTS = ("map", "counters", "cards", "handout", "images")
DEFAULT_COMPONENTS = ("map", "counters", "cards")


@dataclass(frozen=True)
class BuildOptions:
    """Everything a user can choose about the printed components; renderers take what they need."""

    paper: str = "letter"
    """Paper the components are printed on: letter, a4, tabloid, a3."""
    only: tuple[str, ...] = DEFAULT_COMPONENTS
    counter_size: str | None = None
    """Counter edge, e.g. ``5/8in``; None: the game's own (or 5/8in)."""
    flip: str = "long"
    """Duplex flip edge of the printer: long or short."""
    back_offset: tuple[float, float] = (0.0, 0.0)
    """Measured front/back misregistration in points (dx, dy), subtracted from the backs."""
    bleed: bool = False
    greyscale: bool = False
    sets: int = 1
    """Handout: number of complete class sets."""
    progress: Callable[[str], None] | None = field(default=None, compare=False)

    def paper_size(self) -> tuple[float, float]:
        return U.paper(self.paper)

    def counter_points(self) -> float:
        return U.length(self.counter_size or "5/8in")


Rendered = bytes | dict[str, bytes]
"""What a renderer returns: one PDF (written as ``<name>.pdf``), or a folder of files by relative path (written
under ``<name>/``, e.g. the images)."""


class Built(list[Path]):
    """The files :func:`build` wrote, and the ``warnings`` the renderers gave (texts cut short ...)."""

    def __init__(self, paths: list[Path], warnings: list[BuildWarning]) -> None:
        super().__init__(paths)
        self.warnings = warnings


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


def build(game: m.Game, out: Path, options: BuildOptions) -> Built:
    """Render the requested components of ``game`` and write them to ``out/<game id>/``; return the files (with
    the renderers' warnings as ``.warnings``: see :func:`forge.errors.warn`).

    Everything is rendered first, then written to temporaries next to the targets (a folder component such as the
    images to a temporary folder), then moved into place together: an error or an interruption (SIGINT, SIGTERM)
    leaves the previous files as they were and no temporary behind, and a reader never sees a mix of two runs.
    Temporaries left by a killed run (kill -9) are removed first.  Raises :class:`OSError` when ``out`` cannot hold
    the files (e.g. a file named like the folder).
    """
    import importlib

    from .errors import collect_warnings
    from .pdf import commit, discard, remove_stale, stage_file, stage_folder

    def renderer(name: str) -> Callable[[m.Game, BuildOptions], Rendered]:
        # Import only what is asked for: the images need cairosvg, the cards reportlab's platypus.
        module = importlib.import_module(f".render.{name}", __package__)
        return module.render

    folder = out / game.game.id
    rendered: dict[str, Rendered] = {}
    with collect_warnings() as warnings:
        for name in options.only:
            if options.progress:
                options.progress(f"rendering {name}")
            rendered[name] = renderer(name)(game, options)
    targets = {name: _targets(folder, name, data) for name, data in rendered.items()}  # refuse bad paths first
    if (folder.is_symlink() or folder.exists()) and not folder.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "is not a folder (the game's files go in one)", str(folder))
    folder.mkdir(parents=True, exist_ok=True)
    remove_stale(folder, [f"{n}.pdf" for n in COMPONENTS] + list(COMPONENTS))
    staged: list[tuple[Path, Path]] = []
    try:
        for name, data in rendered.items():
            if isinstance(data, bytes):
                staged.append((stage_file(folder / f"{name}.pdf", data), folder / f"{name}.pdf"))
            else:
                files = [(path.relative_to(folder / name), blob) for path, blob in targets[name]]
                staged.append((stage_folder(folder / name, files), folder / name))
        commit(staged)
    except BaseException:
        for tmp, _ in staged:
            discard(tmp)
        raise
    return Built([path for name in rendered for path, _ in targets[name]], warnings)
