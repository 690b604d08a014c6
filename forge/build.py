"""``forge build``: load -> render -> impose -> write each component atomically under ``<out>/<game id>/``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from . import model as m
from . import units as U
from .pdf import write_atomic

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


def build(game: m.Game, out: Path, options: BuildOptions) -> list[Path]:
    """Render the requested components of ``game`` and write them to ``out/<game id>/``; return the files."""
    import importlib

    def renderer(name: str) -> Callable[[m.Game, BuildOptions], Rendered]:
        # Import only what is asked for: the images need cairosvg, the cards reportlab's platypus.
        module = importlib.import_module(f".render.{name}", __package__)
        return module.render

    folder = out / game.game.id
    rendered: dict[str, Rendered] = {}
    for name in options.only:
        if options.progress:
            options.progress(f"rendering {name}")
        rendered[name] = renderer(name)(game, options)
    targets = [t for name, data in rendered.items() for t in _targets(folder, name, data)]
    written = []
    for path, data in targets:  # write only once everything rendered: a failure leaves no partial set
        write_atomic(path, data)
        written.append(path)
    return written
