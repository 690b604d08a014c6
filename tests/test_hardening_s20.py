"""Hostile inputs of issue 25 (items 26-28): dice with no faces, control characters in printed text, an unbounded
first row or column.  Each test fails without its fix."""

from __future__ import annotations

import re

import pytest
from conftest import DATA

from forge.errors import LoadError
from forge.loader import loads

FERRY = (DATA / "ferry_point.yaml").read_text("utf-8")
HELLS_GATE = (DATA / "hells_gate.yaml").read_text("utf-8")


def _problems(text: str) -> list[str]:
    with pytest.raises(LoadError) as e:
        loads(text, "game.yaml")
    return [str(p) for p in e.value.problems]


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ("d0", "a die of 2 to 100 faces, not 0"),
        ("1d0", "a die of 2 to 100 faces, not 0"),
        ("d00", "a die of 2 to 100 faces, not 00"),
        ("d1", "a die of 2 to 100 faces, not 1"),
        ("0d6", "1 to 10 dice, not 0"),
        ("1d6 to 3d0 by magnitude", "a die of 2 to 100 faces, not 0"),
        ("six", "dice such as 'd6'"),
    ],
)
def test_dice_without_faces_are_refused_where_they_stand(dice: str, expected: str) -> None:
    """``combat.crt.dice: d0`` passed check, and verify then divided by zero (``Fraction(0, 0)`` in die_faces)."""
    text = re.sub(r"(?m)^(    dice: )1d6$", rf"\g<1>{dice}", FERRY, count=1)
    assert text != FERRY
    line = next(i for i, s in enumerate(text.splitlines(), 1) if s == f"    dice: {dice}")
    msgs = _problems(text)
    assert len(msgs) == 1, msgs
    assert msgs[0].startswith(f"game.yaml:{line}:5: combat.crt.dice: expected {expected}"), msgs


@pytest.mark.parametrize("dice", ["d6", "2d6", "1d6 to 3d6 by magnitude (red primary)", "d100"])
def test_dice_that_name_real_dice_are_accepted(dice: str) -> None:
    loads(re.sub(r"(?m)^(    dice: )1d6$", rf"\g<1>{dice}", FERRY, count=1), "game.yaml")


@pytest.mark.parametrize(("escape", "code"), [("\\r", "000D"), ("\\N", "0085"), ("\\L", "2028"), ("\\P", "2029")])
def test_a_foreign_line_break_in_a_printed_text_is_refused(escape: str, code: str) -> None:
    """A carriage return (or NEL, LS, PS) in ``game.title`` passed check and build, and ``forge export vassal``
    died in Pillow's text layout.  "\\n" is the one line break a text may hold, everywhere."""
    text = re.sub(r"(?m)^  title: .*$", lambda _: f'  title: "Ferry{escape}Point"', FERRY, count=1)
    msgs = _problems(text)
    assert len(msgs) == 1, msgs
    assert "game.title: character U+" + code in msgs[0], msgs
    assert "the one line break in a text is \\n" in msgs[0]


def test_a_newline_in_a_title_is_still_a_text() -> None:
    game = loads(re.sub(r"(?m)^  title: .*$", lambda _: '  title: "Ferry\\nPoint"', FERRY, count=1), "game.yaml")
    assert game.game.title == "Ferry\nPoint"


@pytest.mark.parametrize("first", [10**9, 5 * 10**9, 1001])
def test_a_lettered_axis_cannot_start_past_its_bound(first: int) -> None:
    """A letter-row grid with ``first_row: 10**9`` made check write 461 MB of messages (each quoting a label of 38
    million letters); at 5 * 10**9 it died of a MemoryError.  The field is bounded and the message is short."""
    text = HELLS_GATE.replace(
        "labels: letter-row, rows_up: true}", f"labels: letter-row, rows_up: true, first_row: {first}}}"
    )
    assert text != HELLS_GATE
    msgs = _problems(text)
    assert len(msgs) == 1, msgs
    assert "first_row must be a whole number from 1 to 1000 with labels letter-row" in msgs[0]
    assert len(msgs[0]) < 300


@pytest.mark.parametrize("die", [0, 7, 12])
def test_a_combat_example_rolling_what_the_dice_cannot_is_refused(die: int) -> None:
    """An example with ``die: 7`` in a one-die game passed check, and verify then stopped with "no row of the CRT
    holds a roll of 7".  Check refuses it where it stands, naming the dice and what they roll."""
    m = re.search(r"(?m)^(    given: \{[^}\n]*\bdie: )(\d+)", FERRY)
    assert m is not None
    text = FERRY[: m.start(2)] + str(die) + FERRY[m.end(2) :]
    line = FERRY[: m.start()].count("\n") + 1
    msgs = _problems(text)
    assert len(msgs) == 1, msgs
    assert msgs[0].startswith(f"game.yaml:{line}:"), msgs
    assert f"given.die: die {die} is no roll of the CRT's dice '1d6' (expected 1 to 6)" in msgs[0]
