"""Infiltration (forge/rules/kit/infiltration.py, rules.zoc.infiltration) and the claims built on it and on a
side's organisational groups (forge/verifier/ex_zoc_groups.py): properties, a tiny board, and the seed games."""

from __future__ import annotations

import math
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from forge import model as m
from forge.rules.kit import infiltration as kinf
from forge.rules.kit import movement as mk
from forge.rules.kit import zoc as kz
from forge.verifier import verify
from forge.verifier.ex_movement import open_board
from conftest import seed_game


seed = seed_game


def claims(game: m.Game) -> dict[tuple[str, str], tuple[str, str]]:
    return {(e, k): (s, why) for e, k, s, why, *_ in verify(game).claims}


def with_zoc(game: m.Game, **update: Any) -> m.Game:
    zoc = game.rules.zoc.model_copy(update=update)  # type: ignore[union-attr]
    return game.model_copy(update={"rules": game.rules.model_copy(update={"zoc": zoc})})


# ------------------------------------------------------------------------------------------------ properties
@settings(max_examples=80, deadline=None)
@given(st.integers(0, 30), st.integers(1, 5), st.sampled_from(["up", "down"]), st.booleans())
def test_cost_follows_the_entry(ma: int, terrain: int, rounding: str, plus: bool) -> None:
    """``all`` takes the whole printed allowance whatever the terrain; a fraction takes that share, rounded as the
    entry says, plus the terrain when ``plus_terrain``."""
    mv = SimpleNamespace(printed_ma=Fraction(ma))
    assert kinf.cost(m.Infiltration(cost="all"), mv, Fraction(terrain)) == ma
    inf = m.Infiltration(fraction="1/2", rounding=rounding, plus_terrain=plus)  # type: ignore[arg-type]
    share = math.floor(Fraction(ma, 2)) if rounding == "down" else math.ceil(Fraction(ma, 2))
    assert kinf.cost(inf, mv, Fraction(terrain)) == share + (terrain if plus else 0)
    assert kinf.cost(inf, mv, "prohibited") == "prohibited"
    assert kinf.cost(inf, SimpleNamespace(printed_ma=None), Fraction(terrain)) is None


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(2, 20), st.integers(1, 4)), min_size=3, max_size=8, unique_by=lambda x: x[0]),
    st.sampled_from(["all", "down", "up"]),
)
def test_describe_names_the_rule_that_made_the_costs(samples: list[tuple[int, int]], rule: str) -> None:
    """Costs made by a rule are described by that rule's words (odd allowances tell the roundings apart)."""
    samples = [*samples, (7, 1), (9, 2)]
    inf = m.Infiltration(cost="all") if rule == "all" else m.Infiltration(fraction="1/2", rounding=rule)  # type: ignore[arg-type]
    costs = {(ma, t): kinf.cost(inf, SimpleNamespace(printed_ma=Fraction(ma)), Fraction(t)) for ma, t in samples}
    want = "all MA" if rule == "all" else f"half printed MA, rounded {rule}, plus terrain cost"
    assert kinf.describe(costs) == want
    assert kinf.describe({(ma, t): v + 1 for (ma, t), v in costs.items()}) != want


# ------------------------------------------------------------------------------------------------ the kit's step
def test_step_cost_charges_infiltration_only_from_zone_to_zone() -> None:
    """On the seed game's open ground: zone to adjacent zone costs per class; into or out of a zone costs terrain."""
    g = seed("escape_from_hells_gate")
    board = open_board(g)
    enemy = kz.middle(board.grid)
    ezoc = kz.controlled(board.grid, g.rules.zoc, [enemy], hexsides=board.sides)
    ring = board.grid.neighbours(enemy)
    a = ring[0]
    b = next(n for n in ring if n != a and board.grid.adjacent(a, n))
    out = next(n for n in board.grid.neighbours(a) if n not in ezoc)
    leg, mobile = mk.Mover("leg", printed_ma=Fraction(6)), mk.Mover("mobile", printed_ma=Fraction(9))
    assert mk.step_cost(g, board, leg, a, b, ezoc=ezoc, enemy={enemy}) == 6
    assert mk.step_cost(g, board, mobile, a, b, ezoc=ezoc, enemy={enemy}) == 4 + 1
    assert mk.step_cost(g, board, mobile, a, out, ezoc=ezoc, enemy={enemy}) == 1
    assert mk.step_cost(g, board, mobile, out, a, ezoc=ezoc, enemy={enemy}) == 1
    assert mk.mobility_of(g, "armour") == "mobile"
    assert mk.mobility_of(g, "infantry") == "leg"


# ------------------------------------------------------------------------------------------------ the seed claims
def test_seed_infiltration_and_groups_claims_agree() -> None:
    c = claims(seed("escape_from_hells_gate"))
    assert c[("infiltration-cost", "leg")][0] == "engine"
    assert c[("infiltration-cost", "mobile")][0] == "engine"
    assert c[("sf-pool-counts", "soviet_groups")][0] == "data"


def test_a_changed_infiltration_rule_is_named() -> None:
    """Rounding up, no terrain on top, or a leg unit paying half: each makes the book's words disagree."""
    g = seed("escape_from_hells_gate")
    leg, mobile = g.rules.zoc.infiltration  # type: ignore[union-attr]
    for inf in (
        [leg, mobile.model_copy(update={"rounding": "up"})],
        [leg, mobile.model_copy(update={"plus_terrain": False})],
        [leg.model_copy(update={"cost": None, "fraction": "1/2"}), mobile],
    ):
        c = claims(with_zoc(g, infiltration=inf))
        assert "mismatch" in {c[("infiltration-cost", "leg")][0], c[("infiltration-cost", "mobile")][0]}


def test_a_changed_group_count_is_named() -> None:
    g = seed("escape_from_hells_gate")
    sov = g.game.sides[0]
    fewer = sov.model_copy(update={"groups": dict(list(sov.groups.items())[:-1])})
    info = g.game.model_copy(update={"sides": [fewer, *g.game.sides[1:]]})
    assert claims(g.model_copy(update={"game": info}))[("sf-pool-counts", "soviet_groups")][0] == "mismatch"


def test_unchecked_claims_carry_a_precise_reason() -> None:
    c = claims(seed("escape_from_hells_gate"))
    for key in (
        ("background-dates", "fronts_met"),
        ("crt-orientation", "column_axis_per_terrain_rule"),
        ("rebuild-limits", "eliminated_rebuild_steps"),
    ):
        status, why = c[key]
        assert status == "unchecked"
        assert why
        assert "no engine rule recomputes" not in why
