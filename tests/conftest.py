"""Shared fixtures: the repository's data files and a loaded Hell's Gate game."""

from __future__ import annotations

import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests import the shared strategies module

# The font cache (forge.fontcache) of the tests, and of the processes they start, is a fresh folder of their own:
# a run never reads a developer's ~/.cache (or a previous run's), so every session parses the fonts once.
os.environ["XDG_CACHE_HOME"] = _CACHE = tempfile.mkdtemp(prefix="hexforge-test-cache-")
atexit.register(shutil.rmtree, _CACHE, True)

# Hypothesis profiles: "default" is the suite's everyday run; HYPOTHESIS_PROFILE=thorough runs every property with
# more examples (the counts a property names with strategies.examples(quick, thorough), and 500 instead of 100 where
# a property names none), for a run before a release or after a change to the code a property covers.
settings.register_profile("thorough", max_examples=500)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(scope="session")
def hells_gate_path() -> Path:
    return DATA / "hells_gate.yaml"


@pytest.fixture(scope="session")
def hells_gate(hells_gate_path: Path):  # type: ignore[no-untyped-def]
    from forge.loader import load

    return load(hells_gate_path)


@cache
def seed_game(name: str):  # type: ignore[no-untyped-def]
    """A seed game from data/, loaded once per session."""
    from forge.loader import load

    return load(DATA / f"{name}.yaml")


@cache
def seed_report(name: str):  # type: ignore[no-untyped-def]
    """``forge verify``'s findings for a seed game, computed once per session."""
    from forge.verifier import verify

    return verify(seed_game(name))


def _changed(options: dict[str, object]) -> tuple[tuple[str, object], ...]:
    """The options that differ from BuildOptions' defaults, sorted: one cache key for equal options."""
    from forge.builder import BuildOptions

    default = BuildOptions()
    return tuple(sorted((k, v) for k, v in options.items() if getattr(default, k) != v))


def seed_render(component: str, name: str, **options: object) -> tuple[bytes, tuple[str, ...]]:
    """A data/ game's component as ``forge.render.<component>.render`` draws it with ``BuildOptions(**options)``,
    and the lines its ``report`` was told, drawn once per session (per xdist worker): several files read the same
    handout or cards (a renderer never changes the game it is given, and the same input gives the same bytes)."""
    return _seed_render(component, name, _changed(options))


@cache
def _seed_render(component: str, name: str, options: tuple[tuple[str, object], ...]) -> tuple[bytes, tuple[str, ...]]:
    import importlib

    from forge.builder import BuildOptions

    told: list[str] = []
    pdf = importlib.import_module(f"forge.render.{component}").render(
        seed_game(name), BuildOptions(report=told.append, **dict(options))  # type: ignore[arg-type]
    )
    return pdf, tuple(told)


def seed_page_texts(component: str, name: str, **options: object) -> tuple[str, ...]:
    """Each page's text of :func:`seed_render`'s PDF as pdfium reads it (loading a page of a map that holds its
    whole sheet is the slow part, so it is read once per session too)."""
    return _seed_page_texts(component, name, _changed(options))


@cache
def _seed_page_texts(component: str, name: str, options: tuple[tuple[str, object], ...]) -> tuple[str, ...]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(_seed_render(component, name, options)[0])
    return tuple(doc[i].get_textpage().get_text_range() for i in range(len(doc)))


def forge_run(*argv: str) -> subprocess.CompletedProcess[str]:
    """``forge ARGV`` run in this process (``forge.cli.main``), its exit status and output as a finished
    ``subprocess.run`` would give them.  For a test about a command's message and status, not about the process:
    a Python start and forge's imports cost more than the check itself.  An exception escaping main() fails the
    test (where a real process would have printed a traceback).  The tests about processes (exit codes through a
    real start, Ctrl-C, start-up module sets, closed pipes) start real ones."""
    import contextlib
    import io

    from forge.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(list(argv))
        except SystemExit as e:  # argparse's usage errors
            rc = e.code if isinstance(e.code, int) else 2
    return subprocess.CompletedProcess(["forge", *argv], rc, out.getvalue(), err.getvalue())


def data_files() -> list[Path]:
    return sorted(DATA.glob("*.yaml"))


def seeds_dir() -> Path | None:
    """The folder of the seed rulebooks (../shared/seeds beside the checkout, as CI has it), or None on a machine
    without them: the rulebooks are never part of the project."""
    for p in (Path("/work/shared/seeds"), ROOT.parent / "shared" / "seeds", ROOT.parent.parent / "shared" / "seeds"):
        if p.is_dir() and any(p.glob("000_*.txt")):
            return p
    return None


def seed_book(path: Path) -> Path | None:
    """The seed rulebook a data/ game was made from (its ``game.source`` names the file), or None when the game has
    no seed book (written for Hexforge) or the seeds are not on this machine."""
    from forge.loader import load

    seeds = seeds_dir()
    if seeds is None:
        return None
    book = seeds / load(path).game.source
    return book if book.is_file() else None


def has_seed_book(path: Path) -> bool:
    """Whether a data/ game names a seed rulebook as its source (whether or not the seeds are on this machine)."""
    from forge.loader import load

    return re.fullmatch(r"\d{3}_[0-9a-f]+\.txt", load(path).game.source) is not None
