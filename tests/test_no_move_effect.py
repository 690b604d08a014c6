"""``movement: none``: a path, hexside or feature with no movement effect of its own (The Halden Line's railway,
which only rail movement follows).  The charts print a dash with its key, never "?" (README: an unknown value is
never printed as "?", and this one is not unknown); the movement kit follows no path of it and adds nothing for
crossing it; ``forge check`` refuses it on a hex terrain; an omitted ``movement`` stays unknown."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forge import model as m
from forge.builder import BuildOptions
from forge.cli import main
from forge.hexgrid import Cell, Hexside
from forge.loader import load
from forge.render import cards
from forge.render import map as M
from forge.render.map.panels import NO_EFFECT, _costs
from forge.rules.kit import movement as mk

ROOT = Path(__file__).parent.parent
HALDEN = ROOT / "data" / "halden_line.yaml"
DASH = "\u2014"


def _text(pdf: bytes) -> str:
    """Every page's text, whitespace collapsed, read with pdfium (the same words as pypdf, ~20-75x faster)."""
    doc = pdfium.PdfDocument(pdf)
    return re.sub(r"\s+", " ", " ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc))))


def _check(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str, str]:
    """``forge check PATH`` in this process (its exit status, standard output and error): the message is the
    point here, not the process (tests/test_cli_conventions.py starts real ones); an exception escaping main()
    fails the test as a traceback would."""
    rc = main(["check", str(path)])
    out = capsys.readouterr()
    return rc, out.out, out.err


def _with_terrain(game: m.Game, tid: str, **update: object) -> m.Game:
    terrain = dict(game.terrain)
    terrain[tid] = terrain[tid].model_copy(update=update)
    return game.model_copy(update={"terrain": terrain})


def test_halden_railway_has_no_movement_effect_of_its_own() -> None:
    game = load(HALDEN)
    assert game.terrain["railway"].movement == "none"
    assert game.terrain["railway"].costs == {}


def test_cards_terrain_chart_prints_a_dash_and_its_key_not_a_question_mark() -> None:
    text = _text(cards.render(load(HALDEN), BuildOptions(only=("cards",))))
    chart = text[text.index("Terrain effects") :]
    row = chart[chart.index("Railway") : chart.index("Railway") + 40]
    assert DASH in row, row
    assert "?" not in row, row
    assert cards.UNKNOWN_NOTE not in text  # no cost of Halden's chart is unknown now
    assert cards.NO_MOVE_EFFECT_NOTE in text


def test_map_terrain_chart_prints_a_dash_in_every_class_and_its_key() -> None:
    game = load(HALDEN)
    assert _costs(game.terrain["railway"], game.game.mobility_classes) == [NO_EFFECT, NO_EFFECT]
    text = _text(M.render(game, BuildOptions(only=("map",), tile=False)))
    assert "no movement effect of its own" in text
    assert "? = not given by the rulebook" not in text


def test_an_omitted_movement_stays_unknown() -> None:
    """A path that leaves ``movement`` out is still "not given" on both charts and to the kit."""
    game = _with_terrain(load(HALDEN), "railway", movement={})
    assert _costs(game.terrain["railway"], game.game.mobility_classes) == ["?", "?"]
    assert mk.terrain_cost(game, "railway", "foot") is None
    text = _text(cards.render(game, BuildOptions(only=("cards",))))
    assert cards.UNKNOWN_NOTE in text
    assert cards.NO_MOVE_EFFECT_NOTE not in text


def _pairs(game: m.Game) -> list[tuple[Cell, Cell]]:
    grid = mk.Board.of(game).grid
    return [(a, b) for a in grid.cells() for b in grid.neighbours(a) if grid.contains(b)]


@pytest.mark.parametrize("mobility", ["foot", "mechanized"])
def test_kit_follows_no_railway_step_costs_as_without_it(mobility: str) -> None:
    """Every ordinary step of the Halden map costs what it would if the railways were not drawn at all."""
    game = load(HALDEN)
    bare = game.model_copy(
        update={"map": game.map.model_copy(update={"paths": [p for p in game.map.paths if p.kind != "railway"]})}
    )
    with_rail, without = mk.Board.of(game), mk.Board.of(bare)
    mv = mk.Mover(mobility)
    pairs = _pairs(game)
    assert any(with_rail.path_kinds(a, b) == {"railway"} for a, b in pairs)
    for a, b in pairs:
        assert mk.step_cost(game, with_rail, mv, a, b) == mk.step_cost(bare, without, mv, a, b)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["foot", "mechanized"]), st.integers(0, 10_000))
def test_a_road_shared_with_a_no_effect_path_keeps_its_rate(mobility: str, k: int) -> None:
    """A hexside that a road and a ``movement: none`` path both follow costs the road's rate, whatever the hex
    (an unknown path cost there drops the step to the hex's terrain)."""
    game = load(HALDEN)
    board = mk.Board.of(game)
    pairs = _pairs(game)
    a, b = pairs[k % len(pairs)]
    paths = {**board.paths, Hexside.between(a, b): {"road", "railway"}}
    shared = mk.Board(board.grid, board.base, board.features, board.sides, paths, board.default)
    assert mk.step_cost(game, shared, mk.Mover(mobility), a, b) == Fraction(1, 2)


def test_a_hexside_with_no_effect_adds_nothing_to_cross() -> None:
    game = _with_terrain(load(HALDEN), "river", movement="none")
    for mobility in ("foot", "mechanized"):
        assert mk.crossing_cost(game, "river", mobility) == 0
        assert mk.crossing_cost(load(HALDEN), "river", mobility) == {"foot": 1, "mechanized": 2}[mobility]


def test_check_refuses_none_on_a_hex_terrain_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = HALDEN.read_text(encoding="utf-8")
    clear = '    movement: {foot: 1, mechanized: 1}\n    combat: {text: "No effect"}'
    assert clear in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(clear, '    movement: none\n    combat: {text: "No effect"}', 1), encoding="utf-8")
    line = text[: text.index(clear)].count("\n") + 1
    rc, out, err = _check(capsys, bad)
    assert rc == 2
    assert f"bad.yaml:{line}:" in out + err
    assert "terrain.clear.movement" in out + err
    assert "Traceback" not in err


def test_check_suggests_none_for_a_misspelling(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = HALDEN.read_text(encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("    movement: none\n", "    movement: nune\n", 1), encoding="utf-8")
    rc, out, err = _check(capsys, bad)
    assert rc == 2
    assert "terrain.railway.movement" in out + err
    assert "'none'" in out + err


def test_check_refuses_adding_to_a_path_with_no_effect(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``rules.movement.changes`` may ``set`` a rate along a ``movement: none`` path in some states; an ``add``
    would have nothing to add to, and the kit would never apply it."""
    text = HALDEN.read_text(encoding="utf-8")
    anchor = "  # -- movement and zones of control\n  movement:\n"
    assert anchor in text
    change = "    changes: [{terrain: railway, when: [mud], add: 1}]\n"
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(anchor, anchor + change, 1), encoding="utf-8")
    rc, out, err = _check(capsys, bad)
    out += err
    assert rc == 2
    assert "rules.movement.changes[0].add" in out
    line = text[: text.index(anchor)].count("\n") + 3
    assert f"bad.yaml:{line}:" in out
    ok = tmp_path / "ok.yaml"
    ok.write_text(text.replace(anchor, anchor + change.replace("add: 1", "set: 1"), 1), encoding="utf-8")
    rc, out, err = _check(capsys, ok)
    assert rc == 0, out + err


def test_a_set_rate_makes_the_path_a_rate_in_its_states() -> None:
    game = load(HALDEN)
    mr = game.rules.movement
    assert mr is not None
    change = m.MoveCostChange(terrain="railway", when=["mud"], set=1)
    game = game.model_copy(
        update={"rules": game.rules.model_copy(update={"movement": mr.model_copy(update={"changes": [change]})})}
    )
    board = mk.Board.of(game)
    a, b = next((a, b) for a, b in _pairs(game) if board.path_kinds(a, b) == {"railway"})
    plain = mk.step_cost(game, board, mk.Mover("foot"), a, b)
    assert plain == mk.terrain_cost(game, board.terrain(b), "foot")
    assert mk.step_cost(game, board, mk.Mover("foot"), a, b, ["mud"]) == 1
