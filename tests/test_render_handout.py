"""Class handouts (forge.render.handout): set codes everywhere, duplex pairing, greyscale, content, text
sizes.  Complete sets (map included), pagination and write-in boxes: tests/test_handout_sets.py."""

from __future__ import annotations

import functools
import io
import re
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest
from conftest import data_files
from test_render_counters import page_texts

from forge.builder import BuildOptions
from forge.loader import load
from forge.model import Game
from forge.render import counters, handout
from forge.render.counters import MIN_TEXT_PT

ROOT = Path(__file__).resolve().parent.parent


def texts(pdf: bytes) -> list[str]:
    """Each page's text, whitespace collapsed (pypdfium2: fast on map pages too)."""
    doc = pdfium.PdfDocument(pdf)
    return [re.sub(r"\s+", " ", doc[i].get_textpage().get_text_range()) for i in range(len(doc))]


@functools.cache
def _hg_two_sets() -> tuple[Game, bytes, list[str]]:
    game = load(ROOT / "data" / "hells_gate.yaml")
    pdf = handout.render(game, BuildOptions(sets=2))
    return game, pdf, texts(pdf)


def test_set_codes_on_every_page() -> None:
    _, _, pages = _hg_two_sets()
    first = [i for i, t in enumerate(pages) if "S01" in t]
    second = [i for i, t in enumerate(pages) if "S02" in t]
    assert first
    assert second
    assert sorted(first + second) == list(range(len(pages)))  # every page carries its set's code
    assert max(first) < min(second)  # sets do not interleave
    assert min(second) % 2 == 0  # the second set starts on a fresh sheet (page numbers from 1: odd)


def test_counter_backs_carry_the_set_code() -> None:
    game, pdf, pages = _hg_two_sets()
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    n_pieces = sum(len(g) for g in counters.pieces(game))
    for code in ("S01", "S02"):
        backs = [i for i, t in enumerate(pages) if "BACKS" in t and code in t]
        assert backs
        assert sum(1 for i in backs for t in page_texts(reader, i) if t.text == code) >= n_pieces


def test_counter_fronts_start_a_sheet() -> None:
    _, _, pages = _hg_two_sets()
    fronts = [i for i, t in enumerate(pages) if "FRONTS" in t]
    assert len(fronts) == 2
    for i in fronts:
        assert i % 2 == 0  # page i + 1 is odd: a front
        assert f"reverse of page {i + 1}" in pages[i + 1]


def test_player_aids_setup_and_vp_record() -> None:
    game, _, pages = _hg_two_sets()
    set1 = " ".join(t for t in pages if "S01" in t)
    for side in game.game.sides:
        assert f"Player aid: {side.name}" in set1
        aid = " ".join(t for t in pages if f"Player aid: {side.name}" in t and "S01" in t)
        for u in game.units:
            if u.side == side.id:
                assert u.name in aid
        assert "Combat Results Table" in aid
        assert "Column shifts" in aid
        assert "Sequence of play" in aid
    setup = " ".join(t for t in pages if "Set-up sheet" in t and "S01" in t)
    for u in game.units:
        if u.setup:
            assert re.search(rf"\b{re.escape(u.setup)}\b", setup)
    for turn, units in game.reinforcements().items():
        for u in units:
            assert u.name in setup, (turn, u.id)
    vp = " ".join(t for t in pages if "Victory point record" in t and "S01" in t)
    for t in game.turns.turns:
        assert re.search(rf"\b{t.number}\b", vp)
    assert "Handicap" in vp
    assert "+10" in vp


def test_always_greyscale() -> None:
    _, pdf, _ = _hg_two_sets()
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    ops = 0
    for p in reader.pages:
        for stream in [p.get_contents(), *[x.get_object() for x in (p["/Resources"].get("/XObject") or {}).values()]]:
            if stream is None:
                continue
            content = stream.get_data().decode("latin-1")
            for r, g, b in re.findall(r"([\d.]+) ([\d.]+) ([\d.]+) (?:rg|RG)", content):
                ops += 1
                assert float(r) == pytest.approx(float(g), abs=0.01) == pytest.approx(float(b), abs=0.01)
    assert ops  # colours were read, the map's (drawn in forms) among them


def test_page_size_a4() -> None:
    game = load(ROOT / "data" / "hells_gate.yaml")
    pdf = handout.render(game, BuildOptions(paper="a4"))
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    pages = texts(pdf)
    for p, t in zip(reader.pages, pages, strict=True):
        size = (float(p.mediabox.width), float(p.mediabox.height))
        if "tile " in t or "Assembly" in t or "back of a map page" in t:  # map tiles: A4 turned as the plan says
            assert sorted(size) == pytest.approx([595.276, 841.89], abs=0.01)
        else:
            assert size == pytest.approx((595.276, 841.89), abs=0.01)


@pytest.mark.parametrize("path", data_files(), ids=lambda p: p.stem)
def test_every_data_file_renders_with_readable_text(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The handout's own pages (the map is the map renderer's, tested there and in test_handout_sets)."""
    monkeypatch.setattr(handout, "_map_pages", lambda *args: None)
    game = load(path)
    pdf = handout.render(game, BuildOptions(sets=1))
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) % 2 == 0 or len(reader.pages) >= 4
    for i in range(len(reader.pages)):
        page = page_texts(reader, i)
        assert not [(t.text, t.size) for t in page if t.size < MIN_TEXT_PT - 1e-6]
        assert any("S01" in t.text for t in page)


def test_deterministic() -> None:
    game = load(ROOT / "data" / "hells_gate.yaml")
    assert handout.render(game, BuildOptions(sets=1)) == handout.render(game, BuildOptions(sets=1))
