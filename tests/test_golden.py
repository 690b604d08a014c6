"""Visual regression: one page of each component of each seed game, rendered at 100 dpi and compared with the
golden image in tests/golden/ (issue 10, item 5).

Properties:
- every page below looks as it did when its golden image was last refreshed: an unintended visual change (a moved
  label, a lost symbol, another colour) fails, while anti-aliasing noise from another PDFium build does not;
- a missing golden image fails (it is never created silently).

Refresh every golden image after an intended change with one command, then look at the new images:

    HEXFORGE_UPDATE_GOLDEN=1 python -m pytest -q -k golden

On a failure the page as rendered now and a difference image are written next to the test's temporary folder and
named in the message, so the change can be looked at before refreshing.
"""

from __future__ import annotations

import os
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from conftest import DATA

from forge import model as m
from forge.builder import BuildOptions
from forge.loader import load

GOLDEN = Path(__file__).parent / "golden" / "pages"
DPI = 100
GAMES = sorted(p.stem for p in DATA.glob("*.yaml"))

# (component, page, options): the first map tile, the fronts and backs of the first counter sheet (pages 1 and 2 are
# the duplex calibration), the first card
PAGES = [
    ("map", 0, {}),
    ("counters", 2, {}),
    ("counters", 3, {}),
    ("cards", 0, {}),
]
# the class handout and the greyscale palette, on the game a teacher prints
EXTRA = [
    ("hells_gate", "handout", 0, {"sets": 1}),
    ("hells_gate", "handout", 12, {"sets": 1}),  # the Soviet player aid
    ("hells_gate", "handout", 16, {"sets": 1}),  # the rules and tables (mud roll, breakout roll, special rules)
    ("hells_gate", "handout", 18, {"sets": 1}),  # the set-up sheet with its write-in boxes
    ("hells_gate", "map", 0, {"greyscale": True}),
    ("hells_gate", "counters", 2, {"greyscale": True}),
]

CHANGED_LEVEL = 64
"""A pixel counts as changed when one of its colour channels moved by more than this (of 255): anti-aliased edges
move less."""
CHANGED_SHARE = 0.0001
"""A page fails when more than this share of its pixels changed (0.01 %: about 90 pixels on a Letter page, less
than one changed word of small print: 0.05 % let "at most ?" become "the rules give no limit" unnoticed)."""


@cache
def _game(name: str) -> m.Game:
    return load(DATA / f"{name}.yaml")


@cache
def _pdf(name: str, component: str, opts: tuple[tuple[str, object], ...]) -> bytes:
    import importlib

    options = replace(BuildOptions(), **dict(opts))
    module = importlib.import_module(f"forge.render.{component}")
    return module.render(_game(name), options)  # type: ignore[no-any-return]


def _golden_name(name: str, component: str, page: int, opts: dict[str, object]) -> str:
    extra = "".join(f"_{k}" if v is True else f"_{k}{v}" for k, v in sorted(opts.items()))
    return f"{component}_{name}_p{page + 1}{extra}"


def check_golden(golden: str, pdf: bytes, page: int, tmp: Path) -> None:
    """Compare page ``page`` of ``pdf`` with tests/golden/<golden>.png (or write it when refreshing)."""
    import pypdfium2 as pdfium
    from PIL import Image, ImageChops

    doc = pdfium.PdfDocument(pdf)
    assert page < len(doc), f"{golden}: the PDF has {len(doc)} pages"
    img = doc[page].render(scale=DPI / 72).to_pil().convert("RGB")
    path = GOLDEN / f"{golden}.png"
    if os.environ.get("HEXFORGE_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        img.save(path, optimize=True)
        return
    if not path.exists():
        pytest.fail(f"missing golden image {path}; create it with: HEXFORGE_UPDATE_GOLDEN=1 python -m pytest -k golden")
    ref = Image.open(path).convert("RGB")
    assert ref.size == img.size, f"{golden}: page size {img.size} px, golden {ref.size} px"
    # the largest change of the three channels, per pixel: a colour swapped for one as light counts too
    r, g, b = ImageChops.difference(ref, img).split()
    diff = ImageChops.lighter(ImageChops.lighter(r, g), b)
    changed = diff.point(lambda v: 255 if v > CHANGED_LEVEL else 0).histogram()[255]
    share = changed / (img.size[0] * img.size[1])
    if share > CHANGED_SHARE:
        now, where = tmp / f"{golden}.now.png", tmp / f"{golden}.diff.png"
        img.save(now)
        diff.point(lambda v: 255 - min(255, v * 4)).save(where)
        pytest.fail(
            f"{golden}: {changed} pixels changed ({share:.3%}, at most {CHANGED_SHARE:.3%}); now: {now}, "
            f"difference: {where}. If the change is intended: HEXFORGE_UPDATE_GOLDEN=1 python -m pytest -k golden"
        )


@pytest.mark.parametrize(("component", "page", "opts"), PAGES, ids=[f"{c}-p{p + 1}" for c, p, _ in PAGES])
@pytest.mark.parametrize("name", GAMES)
def test_golden_page(name: str, component: str, page: int, opts: dict[str, object], tmp_path: Path) -> None:
    pdf = _pdf(name, component, tuple(sorted(opts.items())))
    check_golden(_golden_name(name, component, page, opts), pdf, page, tmp_path)


@pytest.mark.parametrize(
    ("name", "component", "page", "opts"), EXTRA, ids=[f"{n}-{c}-{'-'.join(o)}" for n, c, _, o in EXTRA]
)
def test_golden_extra_page(name: str, component: str, page: int, opts: dict[str, object], tmp_path: Path) -> None:
    pdf = _pdf(name, component, tuple(sorted(opts.items())))
    check_golden(_golden_name(name, component, page, opts), pdf, page, tmp_path)
