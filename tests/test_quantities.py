"""Quantities that cannot be negative (lengths in hexes, steps, movement points, counts) or zero (the map's and the
turn's scale) are refused where they stand: a sign typed by mistake must not reach the rules engine or a card."""

from __future__ import annotations

import pytest
from conftest import DATA

from forge.loader import LoadError, loads

HG = (DATA / "hells_gate.yaml").read_text("utf-8")


@pytest.mark.parametrize(
    ("old", "new", "path", "expected"),
    [
        ("{mp: 2, unit_types: [armour,", "{mp: -2, unit_types: [armour,", "rules.movement.allowances[0].mp", ">= 0"),
        ("scale: {km_per_hex: 20,", "scale: {km_per_hex: 0,", "game.scale.km_per_hex", "> 0"),
        ("days_per_turn: 3, source", "days_per_turn: -3, source", "game.scale.days_per_turn", "> 0"),
    ],
)
def test_a_quantity_with_an_impossible_sign_is_refused_located(old: str, new: str, path: str, expected: str) -> None:
    assert HG.count(old) == 1, old
    text = HG.replace(old, new)
    with pytest.raises(LoadError) as ei:
        loads(text.encode("utf-8"), "g.yaml")
    (problem,) = ei.value.problems
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if new in ln)
    assert (problem.line, problem.path) == (line, path)
    word = {">= 0": "at least 0", "> 0": "more than 0"}[expected]
    assert problem.message.startswith(f"expected {word} or 'unknown', got ")


def test_unknown_stays_allowed_where_a_quantity_is_refused() -> None:
    text = HG.replace("scale: {km_per_hex: 20,", "scale: {km_per_hex: unknown,")
    assert loads(text.encode("utf-8"), "g.yaml").game.scale.km_per_hex.unknown == ""  # type: ignore[union-attr]
