"""Data notes (``data_note``): remarks for the designer stay off what players hold and are listed by
``forge verify`` (forge/verifier/notes.py).

Properties: no data note of a seed game is printed on its cards or handout (text read back from the PDFs),
while the player notes beside them are (so the read-back can see a note when one is printed); every data note is
one ``data-note`` info finding, with its item's rule and key path; every model class whose note is printed also
takes a ``data_note``.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from conftest import data_files, seed_game, seed_page_texts, seed_report
from pydantic import BaseModel

from forge import model as m
from forge.builder import BuildOptions
from forge.glyphs import NOT_PRINTED, uncovered_text
from forge.loader import loads
from forge.render import cards
from forge.verifier import exit_code, render_findings, severity, verify
from forge.verifier.notes import data_notes

ROOT = Path(__file__).resolve().parent.parent
GAMES = [p.stem for p in data_files() if p.stem != "ferry_point"]  # the teaching game has no rulebook, no data notes
WINDOW = 6
"""Words in a row that count as a note being printed (a wrapped or hyphenated line still leaves such runs)."""


def _words(text: str) -> list[str]:
    return re.findall(r"[\w'.:/+-]+", text.replace("\u00ad", "").replace("\u2010", "-").lower())


def _runs(text: str) -> set[tuple[str, ...]]:
    w = _words(text)
    return {tuple(w[i : i + WINDOW]) for i in range(max(1, len(w) - WINDOW + 1))}


def _pdf_text(pdf: bytes) -> str:
    doc = pdfium.PdfDocument(pdf)
    return " ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))


@functools.cache
def _printed(game_id: str) -> set[tuple[str, ...]]:
    """Every run of WINDOW words printed on the game's cards and one handout set."""
    text = " ".join(seed_page_texts("cards", game_id)) + " " + " ".join(seed_page_texts("handout", game_id))
    return _runs(text)


def _player_notes(game: m.Game) -> list[str]:
    """The printed notes of the cards: the CRT's, the combat notes, the tables' (long enough to test the read-back)."""
    out = [x for x in (game.combat.note, game.combat.crt.note if game.combat.crt else None) if x]
    out += [n for t in game.tables for n in t.notes]
    return [n for n in out if len(_words(n)) >= WINDOW + 2]


@pytest.mark.parametrize("game_id", GAMES)
def test_no_data_note_is_printed(game_id: str) -> None:
    game = seed_game(game_id)
    printed = _printed(game_id)
    notes = data_notes(game)
    assert notes
    for where, _, _, text in notes:
        shown = _runs(text) & printed
        assert not shown, f"{game_id} {where}: data note printed: {' '.join(sorted(shown)[0])}"
    players = _player_notes(game)
    assert players
    for text in players:  # the same read-back finds the notes that are meant to be printed
        assert _runs(text) & printed, (game_id, text)


@pytest.mark.parametrize("game_id", GAMES)
def test_verify_lists_every_data_note(game_id: str) -> None:
    game = seed_game(game_id)
    found = [f for f in seed_report(game_id) if f.kind == "data-note"]
    notes = data_notes(game)
    assert [(f.ref, f.rule) for f in found] == [(where, rule) for where, _, rule, _ in notes]
    for f, (_, what, _, text) in zip(found, notes, strict=True):
        assert severity(f) == "info"
        assert f.message == f"data note on {what}: {' '.join(text.split())}"


def test_the_seed_notes_that_address_the_designer() -> None:
    """The remarks the issue names are data notes now, and off the cards."""
    esc, ukr, tab = (seed_game(g) for g in ("escape_from_hells_gate", "ukraine_43", "tabletop_hells_gate"))
    for g in (esc, ukr):
        crt = g.combat.crt
        assert crt is not None
        assert "CRT values" in (crt.data_note or "")
        assert "CRT values" not in (crt.note or "")
    printed = " ".join(n for t in tab.tables for n in t.notes)
    listed = " ".join(text for _, _, _, text in data_notes(tab))
    for remark in ("Tabulated by us", "The post does not say"):
        assert remark not in printed
        assert remark in listed


HG = (ROOT / "data" / "hells_gate.yaml").read_text(encoding="utf-8")


def _hg_with(old: str, new: str) -> m.Game:
    assert HG.count(old) == 1, old
    return loads(HG.replace(old, new, 1), "variant.yaml")


def test_a_data_note_anywhere_is_listed_and_never_printed() -> None:
    game = _hg_with(
        "  - id: mud-roll\n",
        '  - id: mud-roll\n    data_note: "Zyxwv qutsr ponml kjihg fedcb azyxw 坦."\n',
    )
    table = next(t for t in game.tables if t.id == "mud-roll")
    found = [f for f in verify(game) if f.kind == "data-note"]
    assert [(f.ref, f.rule) for f in found] == [("map", None), ("tables[mud-roll]", table.rule)]
    assert found[1].message.startswith(f"data note on table {table.title}: Zyxwv")
    assert exit_code(found) == 0
    assert "Zyxwv qutsr" in render_findings(found, "markdown")
    assert "Zyxwv" not in _pdf_text(cards.render(game, BuildOptions()))
    assert not [u for u in uncovered_text(game) if "data_note" in u.path]  # never printed, so never a glyph warning


def test_every_printed_note_has_a_data_note_beside_it() -> None:
    classes = {
        obj
        for obj in vars(m).values()
        if isinstance(obj, type) and issubclass(obj, BaseModel) and obj.__module__ == m.__name__
    }
    for cls in classes:
        fields = set(cls.model_fields)
        printed = {"note", "notes", "movement_note"} & fields - NOT_PRINTED.get(cls.__name__, frozenset())
        if printed:
            assert "data_note" in fields, cls.__name__


def test_handout_entry_condition_reads_as_one_phrase() -> None:
    text = " ".join(" ".join(seed_page_texts("handout", "hells_gate")).split())
    assert "if only if" not in text
    assert "enters turn 4, only if a Soviet unit has ever entered" in text
