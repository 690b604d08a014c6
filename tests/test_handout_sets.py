"""Class sets hold everything one pair of students needs (issue 10): the map on the set's paper, the counters,
the player aids, the set-up sheet with write-in boxes and the record sheet, each page marked with the set code,
and the whole file printable double-sided."""

from __future__ import annotations

import functools
import io
import re
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest
from test_render_counters import numbered_game
from test_render_handout import texts

from forge.builder import BuildOptions
from forge.estimate import estimate
from forge.loader import load
from forge.model import Game
from forge.notation import UNKNOWN_MARK
from forge.render import handout
from forge.render import map as map_
from forge.render.cards import Styles

ROOT = Path(__file__).resolve().parent.parent
MAP_PAGE = re.compile(r"tile (\d+) of (\d+)|Assembly —")


@functools.cache
def _game(name: str) -> Game:
    return load(ROOT / "data" / f"{name}.yaml")


@functools.cache
def _pdf(name: str, paper: str = "letter", sets: int = 1) -> bytes:
    """The greyscale handout, drawn once per worker for the tests below that read it."""
    return handout.render(_game(name), BuildOptions(sets=sets, paper=paper, greyscale=True))


@functools.cache
def _handout(name: str, paper: str = "letter", sets: int = 1) -> tuple[bytes, list[str], list[tuple[float, float]]]:
    pdf = _pdf(name, paper, sets)
    doc = pdfium.PdfDocument(pdf)
    return pdf, texts(pdf), [tuple(doc[i].get_size()) for i in range(len(doc))]  # type: ignore[misc]


@pytest.mark.parametrize("name", ["hells_gate", "escape_from_hells_gate"])
def test_a_set_holds_the_whole_map_each_page_on_a_sheet_of_its_own(name: str) -> None:
    _, pages, sizes = _handout(name)
    own = texts(map_.render(_game(name), BuildOptions(paper="letter", greyscale=True)))
    tiles = {m.group(1) for t in own if (m := MAP_PAGE.search(t)) and m.group(1)}
    found = {m.group(1): i for i, t in enumerate(pages) if (m := MAP_PAGE.search(t)) and m.group(1)}
    assert tiles
    assert set(found) == tiles  # every tile the map component prints, once (a second sheet repeats numbers)
    assert any("Assembly —" in t for t in pages)
    for i, t in enumerate(pages):
        if MAP_PAGE.search(t):
            assert "Class set S01" in t
            assert i % 2 == 0  # page i + 1 is odd: a front, so the tile can be cut out ...
            assert "back of a map page" in pages[i + 1]  # ... with nothing printed behind it
            assert sizes[i + 1] == sizes[i]
    fronts = [i for i, t in enumerate(pages) if "FRONTS" in t]
    assert fronts
    assert fronts[0] > max(found.values())
    assert all(i % 2 == 0 and "BACKS" in pages[i + 1] for i in fronts)  # duplex pairs still line up
    assert [t for t in pages if "Player aid" in t]
    assert [t for t in pages if "Set-up sheet" in t]
    assert [t for t in pages if "Rules and tables" in t]
    # a record of victory points only for a game that scores them (Escape from Hell's Gate counts units)
    assert bool([t for t in pages if "Victory point record" in t]) == handout.vp_record_used(_game(name))


def test_each_set_prints_its_own_code_on_its_map() -> None:
    """The map's sheets are drawn once per set (the title box says which set), not shared between sets."""
    _, pages, _ = _handout("hells_gate", sets=2)
    for code, other in (("S01", "S02"), ("S02", "S01")):
        tiles = [t for t in pages if MAP_PAGE.search(t) and f"Class set {code}" in t]
        assert len(tiles) == 5  # four tiles and the assembly page
        assert all(f"CLASS SET {code}" in t and other not in t for t in tiles if re.search(r"tile \d+ of", t))


def test_a_map_that_fits_the_paper_is_one_sheet_with_the_set_code() -> None:
    _, pages, sizes = _handout("hells_gate", paper="tabloid")
    assert sizes[0] == pytest.approx((17 * 72, 11 * 72))
    assert "CLASS SET S01" in pages[0]
    assert "back of a map page" in pages[1]
    assert sizes[2] == pytest.approx((11 * 72, 17 * 72))  # the rest of the set on the paper, upright
    assert "FRONTS" in pages[2]


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_hells_gates_player_aids_fit_one_page(paper: str) -> None:
    """The aid used to spill two rows of the column shifts onto a mostly empty page."""
    _, pages, _ = _handout("hells_gate", paper=paper)
    for side in _game("hells_gate").game.sides:
        aid = [t for t in pages if f"Player aid: {side.name}" in t]
        assert len(aid) == 1, side.name
        assert "Column shifts" in aid[0]
        assert "Strength modifiers" in aid[0]


def test_a_long_chart_is_split_with_its_heading_repeated_and_short_ones_are_kept_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(handout, "_map_pages", lambda *args: None)
    game = numbered_game(_game("hells_gate"), n=150)
    pages = texts(handout.render(game, BuildOptions(sets=1)))
    soviet = [t for t in pages if "Player aid: Soviet" in t]
    assert len(soviet) >= 2
    assert "Soviet units (continued)" in soviet[1]
    assert "Counter Unit Type" in soviet[1]  # the chart's header row too
    for chart in ("Column shifts", "Combat Results Table", "Sequence of play"):
        assert len([t for t in soviet if chart in t]) == 1, chart  # short charts are never split


def test_the_set_up_sheet_has_a_write_in_box_for_each_value_the_rules_do_not_give() -> None:
    game = _game("hells_gate")
    pdf, pages, _ = _handout("hells_gate")
    index = next(i for i, t in enumerate(pages) if "Set-up sheet" in t)
    setup = pages[index]
    assert "copy it from the published counter sheet, then onto the counter" in setup
    for u in game.units:
        assert u.name in setup
    unknown = sum(
        u.steps[s].count(UNKNOWN_MARK) for u in game.units for face in u.counter_faces() for s in face if s is not None
    )
    assert unknown >= 30  # 22 of 28 fronts and most backs
    content = pypdf.PdfReader(io.BytesIO(pdf)).pages[index].get_contents().get_data().decode("latin-1")  # type: ignore[union-attr]
    boxes = len(re.findall(rf" {handout.BOX:g} {handout.BOX:g} re\b", content))
    assert boxes == unknown + len(game.units)  # a box per unknown value and one to tick per unit placed
    assert "[2]" in setup  # known values are printed as the counters print them
    assert re.search(r"\b3\b", setup)


def test_write_in_boxes_replace_each_unknown_number() -> None:
    st = Styles.make(BuildOptions(greyscale=True))
    assert handout.WriteIn("?-3-?", st).boxes == 2
    assert handout.WriteIn("[?]", st).boxes == 1
    assert handout.WriteIn("4-3-7", st).boxes == 0
    assert handout.WriteIn("[?]", st).width > handout.WriteIn("?", st).width > handout.BOX


def test_the_estimate_counts_each_sets_map() -> None:
    game = _game("hells_gate")
    one = estimate(game, BuildOptions(only=("handout",), sets=1, paper="letter"))
    big = estimate(game, BuildOptions(only=("handout",), sets=1, paper="tabloid"))
    assert one.pages > big.pages  # four letter tiles and their backs against one tabloid sheet
    assert "each with the map" in one.driver().what


_PAGES_CASES = [(p.stem, "letter") for p in sorted((ROOT / "data").glob("*.yaml"))]
_PAGES_CASES += [("ferry_point", "a4"), ("escape_from_hells_gate", "a4"), ("first_panzer_army", "a4")]
"""Every data/ game on letter, and on A4 those whose set has other pages there (a map's tiles, an aid's split)."""


@pytest.mark.parametrize(("name", "paper"), _PAGES_CASES)
def test_the_estimate_counts_a_sets_pages_exactly(name: str, paper: str) -> None:
    """The estimate's handout pages are the pages ``forge build --only handout --sets 1`` writes, exactly: the map's
    tiles and sheets, the counter sheets, the player aids, the rules and tables (issue 24's part, drawn by the
    cards' blocks) and the set-up sheet and record, each part's blank backs included; three sets take three times
    as many."""
    game = _game(name)
    real = len(pdfium.PdfDocument(_pdf(name, paper)))
    assert estimate(game, BuildOptions(only=("handout",), sets=3, paper=paper)).pages == 3 * real
