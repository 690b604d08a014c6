"""``forge watch GAME.yaml [build options]``: build, then build again on every save of the file, only the
components whose inputs changed.

Each component's inputs are the sections of the validated game its renderer reads
(:data:`forge.builder.COMPONENT_INPUTS`); their fingerprint (:func:`fingerprints`, a SHA-256 of those sections as
JSON) decides what a save rebuilds: a CRT edit changes ``combat``, which the cards and the handout read and the
map does not.  A component not rebuilt is written again as it was rendered last (:func:`forge.builder.build`'s
``keep``), so the output folder always holds every component asked for.  A file that does not load prints its
problems and the watch goes on, with the last good build kept.

:class:`Watcher` does one round (:meth:`Watcher.step`); :func:`run` drives it from a stream of change batches
(watchfiles' by default, any iterable in a test).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .builder import Built, BuildOptions, Rendered
    from .model import Game

__all__ = ["Watcher", "changes", "fingerprints", "run"]


def fingerprints(game: Game, components: Iterable[str]) -> dict[str, str]:
    """Per component, the SHA-256 of the sections of ``game`` it reads (:func:`forge.builder.inputs_of`)."""
    from .builder import inputs_of

    data = game.model_dump(mode="json")
    out = {}
    for name in components:
        part = {k: data.get(k) for k in inputs_of(name)}
        out[name] = hashlib.sha256(json.dumps(part, sort_keys=True).encode()).hexdigest()
    return out


class Watcher:
    """One game file watched: :meth:`step` loads it and rebuilds what changed since the last good build.

    ``load(path)`` returns the game, or None after printing its problems; ``build(game, options, keep)`` writes
    the components ``options.only`` names (those in ``keep`` as they are) and returns :class:`forge.builder.Built`,
    or None after printing why it could not; ``echo`` prints one line."""

    def __init__(
        self,
        path: str,
        options: BuildOptions,
        *,
        load: Callable[[str], Game | None],
        build: Callable[[Game, BuildOptions, dict[str, Rendered]], Built | None],
        echo: Callable[[str], None],
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.path, self.options = path, options
        self.load, self.build, self.echo, self.clock = load, build, echo, clock
        self.prints: dict[str, str] = {}
        self.rendered: dict[str, Rendered] = {}
        self.rebuilds: list[tuple[str, ...]] = []
        """The components each round rebuilt (an empty tuple: nothing changed), in order."""

    def step(self) -> tuple[str, ...] | None:
        """Load the file and rebuild the components whose fingerprint changed; return them (None: the file did
        not load, or the build failed; the last good build stays)."""
        import dataclasses

        t0 = self.clock()
        game = self.load(self.path)
        if game is None:
            return None
        now = fingerprints(game, self.options.only)
        todo = tuple(c for c in self.options.only if self.prints.get(c) != now[c] or c not in self.rendered)
        if not todo:
            self.rebuilds.append(())
            self.echo(f"{time.strftime('%H:%M:%S')} {self.path}: no component's inputs changed, nothing rebuilt")
            return ()
        keep = {c: r for c, r in self.rendered.items() if c not in todo}
        built = self.build(game, dataclasses.replace(self.options, progress=None), keep)
        if built is None:
            return None
        self.rendered = dict(built.rendered)
        self.prints.update({c: now[c] for c in todo})
        self.rebuilds.append(todo)
        self.echo(f"{time.strftime('%H:%M:%S')} {self.path}: built {', '.join(todo)} in {self.clock() - t0:.2f}s")
        return todo


def changes(path: str, *, debounce_ms: int = 300, stop: object | None = None) -> Iterator[object]:
    """Batches of file-system changes to ``path`` (watchfiles): its folder is watched, not the file, because
    many editors save by writing a new file and renaming it over the old one."""
    from watchfiles import watch

    target = Path(path).resolve()

    def ours(_change: object, name: str) -> bool:
        return Path(name).resolve() == target

    yield from watch(target.parent, watch_filter=ours, debounce=debounce_ms, stop_event=stop, recursive=False)  # type: ignore[arg-type]


def run(watcher: Watcher, events: Iterable[object], *, max_rounds: int | None = None) -> int:
    """Build once, then once per batch of ``events``, ``max_rounds`` rounds in all (None: until the events end);
    the number of rounds done."""
    rounds = 0
    watcher.step()
    rounds += 1
    if max_rounds is not None and rounds >= max_rounds:
        return rounds
    for _ in events:
        watcher.step()
        rounds += 1
        if max_rounds is not None and rounds >= max_rounds:
            break
    return rounds
