"""``forge new`` and the teaching game it writes (Ferry Point, data/ferry_point.yaml).

Properties:
- the game ``forge new`` writes, on hexes and on squares, passes ``check`` and ``verify`` with nothing to report and
  every worked example's values recomputed, and the engine plays it to the end from its data alone;
- data/ferry_point.yaml is exactly ``forge new "Ferry Point"`` (one source: forge/games/new_hex.yaml);
- every value a counter prints is known: no write-in box, no "?";
- a bad name, an unknown grid or an existing file is one message and exit status 2, and nothing is written.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import DATA

from forge.cli import main
from forge.loader import loads
from forge.new import GRIDS, game_id, game_text
from forge.rules.engine import Dice, apply, legal_actions
from forge.rules.state import State
from forge.verifier import severity, verify
from forge.verifier.report import coverage


@pytest.mark.parametrize("grid", GRIDS)
def test_the_new_game_verifies_clean_with_every_example_recomputed(grid: str) -> None:
    game = loads(game_text("River Crossing", grid), f"river_crossing_{grid}.yaml")
    assert game.game.id == "river_crossing"
    findings = verify(game)
    assert [f.message for f in findings if severity(f) != "info"] == []
    cv = coverage(findings.claims)
    assert cv["total"] >= 10
    assert cv["percent"] == 100.0
    assert all(u.strengths() and all(s.known for s in u.strengths()) for u in game.units)


@pytest.mark.parametrize("grid", GRIDS)
def test_the_engine_plays_the_new_game_to_the_end(grid: str) -> None:
    game = loads(game_text("River Crossing", grid), f"river_crossing_{grid}.yaml")
    for seed in range(5):
        rng, dice = random.Random(seed), Dice(seed)
        state = State.initial(game)  # every strength is known: nothing to assume
        for _ in range(5000):
            if state.result is not None:
                break
            apply(state, rng.choice(legal_actions(state)), dice)
        assert state.result is not None, f"{grid} seed {seed}: no result after 5000 actions"
        assert state.turn == len(game.turns.turns)


def test_every_value_the_teaching_game_prints_is_known() -> None:
    """No write-in box and no "?": the counters print every unit's strengths, front and back."""
    import pypdfium2 as pdfium

    from forge.builder import BuildOptions
    from forge.render import counters

    game = loads((DATA / "ferry_point.yaml").read_text(encoding="utf-8"), "ferry_point.yaml")
    pdf = pdfium.PdfDocument(counters.render(game, BuildOptions()))
    text = "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    assert "?" not in text
    for u in game.units:
        for step in u.steps:
            assert step in text, (u.id, step)


def test_the_teaching_game_in_data_is_what_forge_new_writes() -> None:
    committed = (DATA / "ferry_point.yaml").read_text(encoding="utf-8")
    assert committed == game_text("Ferry Point", "hex", schema="../docs/hexforge.schema.json"), (
        "data/ferry_point.yaml differs from forge/games/new_hex.yaml; refresh it with: python -c "
        "\"from forge.new import game_text; open('data/ferry_point.yaml', 'w').write("
        "game_text('Ferry Point', 'hex', schema='../docs/hexforge.schema.json'))\""
    )


def test_forge_new_writes_the_game_and_its_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "River Crossing", "--grid", "square", "--out", str(tmp_path)]) == 0
    written = tmp_path / "river_crossing.yaml"
    assert str(written) in capsys.readouterr().out
    text = written.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=./hexforge.schema.json\n")
    schema = json.loads((tmp_path / "hexforge.schema.json").read_text(encoding="utf-8"))
    assert schema["title"] == "Hexforge game"
    assert main(["check", str(written)]) == 0
    assert main(["verify", str(written), "--no-print-check"]) == 0


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["new", "1st game"], "expected a name starting with a letter"),
        (["new", "Ferry", "--grid", "triangle"], "triangle"),
    ],
)
def test_a_bad_name_or_grid_is_one_message(
    argv: list[str], expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert expected in err
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_an_existing_game_is_never_overwritten(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "ferry_point.yaml").write_text("mine\n", encoding="utf-8")
    assert main(["new", "Ferry Point", "--out", str(tmp_path)]) == 2
    assert "exists" in capsys.readouterr().err
    assert (tmp_path / "ferry_point.yaml").read_text(encoding="utf-8") == "mine\n"


def test_game_ids() -> None:
    assert game_id("Ferry Point") == "ferry_point"
    assert game_id("  the-Big  push 2 ") == "the_big_push_2"
