"""Issue 25, print 7: the CRT's legend said what a cell holds ("Each cell: hits on the defender ...") and the book's
note under it said it again ("Note: Each cell is the defender's hits ..."), on every card and player aid."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pypdf
import pytest

from forge.builder import BuildOptions
from forge.loader import load
from forge.render import cards, handout

ROOT = Path(__file__).parent.parent
GAMES = sorted((ROOT / "data").glob("*.yaml"))


def _text(pdf: bytes) -> str:
    return " ".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages).replace("\n", " ")


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_what_a_cell_holds_is_said_once(path: Path) -> None:
    game = load(path)
    text = _text(cards.render(game, BuildOptions(only=("cards",))))
    assert len(re.findall(r"\bEach cell\b", text, re.IGNORECASE)) <= 1


def test_hells_gate_cards_and_aids_keep_the_books_note() -> None:
    game = load(ROOT / "data" / "hells_gate.yaml")
    for pdf in (cards.render(game, BuildOptions(only=("cards",))), handout.render(game, BuildOptions(sets=1))):
        text = _text(pdf)
        assert "Each cell is the defender's hits" in text
        assert "Each cell: hits on the defender" not in text
