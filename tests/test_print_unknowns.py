"""Issue 25, print 6: "? = not given by the rulebook" is printed only under a terrain chart that prints a "?", and a
player aid prints an empty write-in box, never "?", for a counter value the rules do not give (as the counters and
the set-up sheet do; README)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest
from conftest import seed_page_texts, seed_render

from forge.builder import BuildOptions
from forge.loader import load
from forge.render import map as M
from forge.render.map.panels import _costs, _Tec

ROOT = Path(__file__).parent.parent
GAMES = sorted((ROOT / "data").glob("*.yaml"))
KEY = "? = not given by the rulebook"


def _text(pdf: bytes) -> str:
    """Every page's text, whitespace collapsed: read with pdfium, ~75x faster than pypdf on a map page of thousands
    of hex labels (the key is one string, which both read whole)."""
    doc = pdfium.PdfDocument(pdf)
    return re.sub(r"\s+", " ", " ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc))))


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_terrain_chart_keys_a_question_mark_only_where_it_prints_one(path: Path) -> None:
    game = load(path)
    text = _text(M.render(game, BuildOptions(only=("map",), tile=False)))
    classes = game.game.mobility_classes
    costs = {c for t in game.terrain.values() for c in _costs(t, classes)}
    if "?" in costs:
        assert KEY in text
    tec = _Tec.__new__(_Tec)  # only what _prints_unknown reads
    ctx = M._Ctx.build(game, BuildOptions(), {})
    tec.ctx, tec.classes, tec.rows = ctx, classes, list(game.terrain.items())
    assert (KEY in text) == tec._prints_unknown()


def test_ferry_point_terrain_chart_has_no_question_mark_key() -> None:
    text = _text(M.render(load(ROOT / "data" / "ferry_point.yaml"), BuildOptions(only=("map",), tile=False)))
    assert "TERRAIN EFFECTS CHART" in text.upper()
    assert KEY not in text


def test_player_aid_prints_no_question_mark_for_a_counter_value() -> None:
    """Hell's Gate's aids printed "3 / ?", "? / ?" and "[2] / [?]" in the strength column."""
    pdf, _ = seed_render("handout", "hells_gate")
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    # pypdf reads the lines the regexes below need; pdfium (fast) picks the pages it reads: any page whose text
    # holds the heading at all, so that the heading test below still decides which pages are aids.
    maybe = [i for i, text in enumerate(seed_page_texts("handout", "hells_gate")) if "Player aid:" in text]
    aids = [t for t in (reader.pages[i].extract_text() for i in maybe) if re.search(r"Player aid: \w+\n", t)]
    assert len(aids) == 2
    for text in aids:
        assert not re.search(r"(^|[\s/\[])\?(\s*/|\]|\s*$)", text.split("Sequence of play")[0], re.M), text[:400]
        assert "An empty box: a value the rules do not give" in text
