"""Issue 25 on the reference cards.  Print 7: the CRT's legend said what a cell holds ("Each cell: hits on the
defender ...") and the book's note under it said it again ("Note: Each cell is the defender's hits
..."), on every card and player aid.  Print 9: short tables split across cards."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest

from forge.builder import BuildOptions
from forge.loader import load
from forge.render import cards, handout

ROOT = Path(__file__).parent.parent
GAMES = sorted((ROOT / "data").glob("*.yaml"))


def _text(pdf: bytes) -> str:
    """Every page's text, whitespace collapsed, read with pdfium: the same words as pypdf reads, ~20x faster (the
    handout's map pages hold thousands of strings)."""
    doc = pdfium.PdfDocument(pdf)
    return re.sub(r"\s+", " ", " ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc))))


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


def test_ferry_points_short_tables_are_not_split() -> None:
    """Issue 25, print 9: Ferry Point's card 3 opened with "Turn record (T2), continued" holding only turn 6, and
    its two-row Victory table was split across cards 3 and 4.  No card carries a table on with fewer than three of
    its rows, and the Victory table's two rows are on one card."""
    game = load(ROOT / "data" / "ferry_point.yaml")
    pdf = cards.render(game, BuildOptions(only=("cards",)))
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    pages = [p.extract_text() for p in reader.pages]
    text = " ".join(pages)
    assert "continued" not in text
    together = [t for t in pages if "Each enemy supply source held" in t]
    assert len(together) == 1
    assert "Each step of enemy units destroyed" in together[0]
    # every turn row of the turn record on one card
    (turns,) = [t for t in pages if "Turn record" in t]
    assert "5 (0103)" in turns
    assert "R (0703)" in turns


def test_rules_of_no_turn_are_not_special_rules_by_turn() -> None:
    """Issue 25, print 10: Ferry Point's core rules (pieces, zones of control, supply, combat, movement) printed
    under "Special rules by turn" with "all" in the Turn column.  They print under "Rules in brief", without a
    Turn column; a game's turn rules (Hell's Gate's) keep their table with the turns."""
    fp = _text(cards.render(load(ROOT / "data" / "ferry_point.yaml"), BuildOptions(only=("cards",))))
    assert "Rules in brief" in fp
    assert "Zones of control" in fp
    assert "Special rules by turn" not in fp  # every Ferry Point rule is of no particular turn
    hg_game = load(ROOT / "data" / "hells_gate.yaml")
    hg = _text(cards.render(hg_game, BuildOptions(only=("cards",))))
    assert "Special rules by turn" in hg
    assert ("Rules in brief" in hg) == any(not r.turns for r in hg_game.special_rules)
    assert not re.search(r"Special rules by turn Turn Title Summary Rule all\b", hg)
