"""Reference cards (forge.render.cards): every CRT cell and table printed from its source, text sizes,
goldens."""

from __future__ import annotations

import functools
import io
import re
from pathlib import Path

import pypdf
import pytest
from conftest import data_files
from test_render_counters import _golden, all_texts

from forge.builder import BuildOptions
from forge.loader import load
from forge.model import Game, Unknown
from forge.render import cards
from forge.render.counters import MIN_TEXT_PT

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def hg() -> Game:
    return load(ROOT / "data" / "hells_gate.yaml")


def _tokens(pdf: bytes) -> list[str]:
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    return [ln.strip() for p in reader.pages for ln in p.extract_text().splitlines() if ln.strip()]


def _text(pdf: bytes) -> str:
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in reader.pages))


@functools.cache
def _rendered(path: Path) -> tuple[Game, bytes, list[str], str]:
    """Each data file's cards, rendered and read back once for all the tests below."""
    game = load(path)
    pdf = cards.render(game, BuildOptions())
    return game, pdf, _tokens(pdf), _text(pdf)


def _contains_run(tokens: list[str], run: list[str]) -> bool:
    n = len(run)
    return any(tokens[i : i + n] == run for i in range(len(tokens) - n + 1))


@pytest.mark.parametrize(("paper", "size"), [("letter", (612.0, 792.0)), ("a4", (595.276, 841.89))])
def test_page_size(hg: Game, paper: str, size: tuple[float, float]) -> None:
    reader = pypdf.PdfReader(io.BytesIO(cards.render(hg, BuildOptions(paper=paper))))
    for p in reader.pages:
        assert (float(p.mediabox.width), float(p.mediabox.height)) == pytest.approx(size, abs=0.01)


def test_hells_gate_crt_rows_read_back_in_order(hg: Game) -> None:
    """Each die row prints its label then its cells, column by column, exactly as in the data."""
    crt = hg.combat.crt
    assert crt is not None
    assert isinstance(crt.cells, list)
    tokens = _tokens(cards.render(hg, BuildOptions()))
    assert _contains_run(tokens, [crt.dice, *crt.columns])
    for label, row in zip(crt.rows, crt.cells, strict=True):
        assert _contains_run(tokens, [label, *row]), label


def test_mandatory_retreat_numbers_are_red_and_explained(hg: Game) -> None:
    pdf = cards.render(hg, BuildOptions())
    text = _text(pdf)
    assert "2 or more hits" in text
    assert "must retreat" in text
    assert "(7.6)" in text
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    content = reader.pages[0].get_contents().get_data().decode("latin-1")  # type: ignore[union-attr]
    assert re.search(r"\.784314 \.062745 \.180392 rg", content)  # #c8102e
    grey = _text(cards.render(hg, BuildOptions(greyscale=True)))
    assert "bold underlined" in grey


@pytest.mark.parametrize("path", data_files(), ids=lambda p: p.stem)
def test_every_crt_cell_and_table_is_printed(path: Path) -> None:
    game, _, tokens, text = _rendered(path)
    crt = game.combat.crt
    if crt is not None:
        for col in crt.columns:
            assert col in tokens, col
        grids: list[list[list[str]]] = []
        if isinstance(crt.cells, list):
            grids.append(crt.cells)
            for label, row in zip(crt.rows, crt.cells, strict=False):  # an unknown cell is an empty write-in cell
                assert _contains_run(tokens, [label, *[c for c in row if c != "?"]]), label
        elif isinstance(crt.cells, dict):
            grids += [g for g in crt.cells.values() if isinstance(g, list)]
        for g in grids:
            for row in g:
                for cell in row:
                    assert cell == "?" or cell in tokens, cell
        if crt.secondary is not None and isinstance(crt.secondary.cells, list):
            for label, row in zip(crt.secondary.rows, crt.secondary.cells, strict=False):
                assert _contains_run(tokens, [label, *[c for c in row if c != "?"]])
        if any(c == "?" for g in grids for row in g for c in row):
            assert "write it in from the published table" in text  # the runs above hold: no "?" between cells
        elif isinstance(crt.cells, Unknown):
            assert "not given by the rules" in text or "Every cell is unknown" in text
        for code in game.combat.results:
            assert code in tokens
    for t in game.tables:
        assert re.sub(r"\s+", " ", t.title) in text
        for r in t.rows:
            for cell in r.cells:
                assert cell.split()[0] in text
    for s in game.combat.shifts:
        assert s.when.split()[0] in text
    for ter in game.terrain.values():
        assert ter.name.split()[0] in text
    for ph in game.sequence:
        assert ph.name.split()[0] in text
    if game.victory is not None:
        for vp in game.victory.points:
            assert vp.text.split()[0] in text
    for sr in game.special_rules:
        assert sr.title.split()[0] in text


@pytest.mark.parametrize("path", data_files(), ids=lambda p: p.stem)
def test_no_text_below_five_points(path: Path) -> None:
    _, pdf, _, _ = _rendered(path)
    for page in all_texts(pdf):
        assert not [(t.text, t.size) for t in page if t.size < MIN_TEXT_PT - 1e-6]


def test_greyscale_uses_only_greys(hg: Game) -> None:
    reader = pypdf.PdfReader(io.BytesIO(cards.render(hg, BuildOptions(greyscale=True))))
    for p in reader.pages:
        content = p.get_contents().get_data().decode("latin-1")  # type: ignore[union-attr]
        for r, g, b in re.findall(r"([\d.]+) ([\d.]+) ([\d.]+) (?:rg|RG)", content):
            assert float(r) == pytest.approx(float(g), abs=0.01) == pytest.approx(float(b), abs=0.01)


def test_turn_record_reinforcements_come_from_the_units(hg: Game) -> None:
    text = _text(cards.render(hg, BuildOptions()))
    for turn, units in hg.reinforcements().items():
        for u in units:
            assert u.label in text, (turn, u.id)


def test_auto_widths_fit_the_space() -> None:
    widths = cards.auto_widths(["A", "B"], [["short", "a much longer cell " * 8]], 200, flex=1)
    assert sum(widths) == pytest.approx(200, abs=0.5)
    natural = cards.auto_widths(["A", "B"], [["x", "y"]], 500, flex=1)
    assert sum(natural) == pytest.approx(500)
    assert natural[0] < 40


def test_deterministic(hg: Game) -> None:
    assert cards.render(hg, BuildOptions()) == cards.render(hg, BuildOptions())


def test_golden_first_card_page(hg: Game) -> None:
    _golden("cards_hells_gate_p1", cards.render(hg, BuildOptions()), 0)
