"""``forge build``: load -> render -> impose -> write each component atomically under ``<out>/<game id>/``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import model as m
from . import units as U
from .pdf import write_atomic

COMPONENTS = ("map", "counters", "cards", "handout")
DEFAULT_COMPONENTS = ("map", "counters", "cards")
COUNTER_SIZES = ("1/2in", "9/16in", "5/8in", "3/4in")


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


def build(game: m.Game, out: Path, options: BuildOptions) -> list[Path]:
    """Render the requested components of ``game`` and write them to ``out/<game id>/``; return the files."""
    from .render import cards, counters, handout, map as map_  # renderers import reportlab: load them lazily

    renderers: dict[str, Callable[[m.Game, BuildOptions], bytes]] = {
        "map": map_.render,
        "counters": counters.render,
        "cards": cards.render,
        "handout": handout.render,
    }
    folder = out / game.game.id
    pdfs: dict[str, bytes] = {}
    for name in options.only:
        if options.progress:
            options.progress(f"rendering {name}")
        pdfs[name] = renderers[name](game, options)
    written = []
    for name, data in pdfs.items():  # write only once everything rendered: a failure leaves no partial set
        path = folder / f"{name}.pdf"
        write_atomic(path, data)
        written.append(path)
    return written
