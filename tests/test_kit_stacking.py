"""The stacking and limits kit (forge/rules/kit/stacking.py, limits.py) and the claims and legality checks built
on it (forge/verifier/ex_limits.py): hypothesis properties plus the seed games' own rules."""

from __future__ import annotations


import pytest
from hypothesis import given
from hypothesis import strategies as st

from forge import model as m
from forge.rules.kit import limits as lk
from forge.rules.kit import stacking as sk
from forge.verifier import verify
from conftest import seed_game, seed_report


game = seed_game
report = seed_report


def unit(uid: str, side: str = "red", type_: str = "infantry", size: str | None = "XX", steps: int = 1) -> m.Unit:
    return m.Unit(id=uid, side=side, name=uid, label=uid, type=type_, size=size, steps=["2"] * steps)


# ------------------------------------------------------------------------------------------------ properties
CLASSES = ["combat", "support"]
allowances = st.lists(
    st.dictionaries(st.sampled_from([*CLASSES, "total"]), st.integers(0, 4), min_size=1).map(
        lambda d: m.StackAllowance(max=d)
    ),
    min_size=1,
    max_size=3,
)
RULES_SUPPORT = [m.StackClass(id="support", types=[m.UnitType.ARTILLERY])]


def _rules(allow: list[m.StackAllowance]) -> m.StackingRules:
    return m.StackingRules(
        classes=RULES_SUPPORT,
        default_class="combat",
        exempt=[m.UnitSelector(types=[m.UnitType.HQ])],
        limits=[m.StackLimit(allow=allow)],
    )


def _stack(n_combat: int, n_support: int, n_hq: int = 0) -> list[tuple[m.Unit, int | None]]:
    return (
        [(unit(f"c{i}"), 1) for i in range(n_combat)]
        + [(unit(f"s{i}", type_="artillery"), 1) for i in range(n_support)]
        + [(unit(f"h{i}", type_="hq"), 1) for i in range(n_hq)]
    )


@given(allowances, st.integers(0, 5), st.integers(0, 5))
def test_removing_a_unit_keeps_a_legal_stack_legal(allow: list[m.StackAllowance], c: int, s: int) -> None:
    """Without minimums, a limit is downward closed: a sub-stack of a legal stack is legal."""
    rules = _rules(allow)
    if sk.legal(rules, _stack(c, s)):
        assert sk.legal(rules, _stack(max(c - 1, 0), s))
        assert sk.legal(rules, _stack(c, max(s - 1, 0)))


@given(allowances, st.integers(0, 5), st.integers(0, 5), st.integers(1, 4))
def test_units_without_stacking_value_never_matter(allow: list[m.StackAllowance], c: int, s: int, h: int) -> None:
    rules = _rules(allow)
    assert sk.legal(rules, _stack(c, s)) == sk.legal(rules, _stack(c, s, h))


@given(allowances, st.integers(0, 4))
def test_largest_is_the_edge_of_legal(allow: list[m.StackAllowance], with_support: int) -> None:
    """:func:`largest` gives n with n combat units legal beside the support units, and n + 1 not."""
    rules = _rules(allow)
    n = sk.largest(rules, "red", "combat", given={"support": with_support})
    if n is None:
        assert not sk.legal(rules, _stack(0, with_support))
    else:
        assert sk.legal(rules, _stack(n, with_support))
        assert not sk.legal(rules, _stack(n + 1, with_support))


@given(st.integers(0, 9), st.integers(0, 12))
def test_limit_over_is_a_comparison(cap: int, n: int) -> None:
    lim = m.Limit(id="x", what="things", per="turn", max=cap)
    assert lk.over(lim, n) is (n > cap)
    assert f"at most {cap} per turn" in lk.card_line(lim)


# ------------------------------------------------------------------------------------------------ pieces
def test_steps_measure_unknown_steps_is_decided_only_when_certain() -> None:
    rules = m.StackingRules(limits=[m.StackLimit(measure="steps", allow=[m.StackAllowance(max={"total": 2})])])
    two = [(unit("a"), None), (unit("b"), None)]
    three = [*two, (unit("c"), None)]
    assert sk.legal(rules, two) is None  # each may have more than one step left
    assert sk.legal(rules, three) is False  # three steps at the least
    assert sk.legal(rules, [(unit("a"), 1), (unit("b"), 1)]) is True


def test_opposing_units_and_unlimited_stacking() -> None:
    unlimited = m.StackingRules(unlimited=True)
    assert sk.legal(unlimited, [(unit(f"u{i}"), 1) for i in range(20)]) is True
    assert sk.legal(unlimited, [(unit("a"), 1), (unit("b", side="blue"), 1)]) is False
    with pytest.raises(ValueError, match="exclude"):
        m.StackingRules(unlimited=True, limits=[m.StackLimit(allow=[m.StackAllowance(max={"total": 1})])])


def test_exception_units_make_an_over_limit_stack_undecided() -> None:
    rules = m.StackingRules(
        exceptions=[m.UnitSelector(units=["hq"])],
        limits=[m.StackLimit(allow=[m.StackAllowance(max={"total": 1})])],
    )
    assert sk.legal(rules, [(unit("a"), 1), (unit("b"), 1)]) is False
    assert sk.legal(rules, [(unit("a"), 1), (unit("b"), 1), (unit("hq"), 1)]) is None


def test_limit_bounds_and_listed_counts() -> None:
    g = game("escape_from_hells_gate")
    lim = lk.find(g, "air-supply-per-turn")
    assert lim is not None
    assert lk.value(lim) == 1
    assert lim.side == "german"
    assert lk.listed(g, lim, ["air-supply", "sf-27a"]) == 1  # one German, one Soviet marker
    assert lk.listed(g, lim, ["no-such-marker"]) is None
    early = lk.find(game("ukraine_43"), "airborne-early-drops")
    assert early is not None
    assert lk.value(early, "last_turn") == 7
    with pytest.raises(ValueError, match="bound"):
        lk.value(early, "most")
    assert lk.card_lines(g)[0][0] == "8.3"


# ------------------------------------------------------------------------------------------------ the seed rules
def test_ukraine_stacking_rules_as_the_book_states_them() -> None:
    g = game("ukraine_43")
    rules = g.rules.stacking
    assert rules is not None
    u = {x.id: x for x in g.units}
    mech, bde = u["sov-gds-mech-786"], u["sov-tank-bde-216"]
    assert sk.classify(rules, mech) == "combat"
    assert sk.classify(rules, bde) == "support"
    assert sk.classify(rules, u["ger-tiger"]) == "support"
    assert sk.classify(rules, u["ger-manstein"]) is None
    assert sk.legal(rules, [(mech, 1), (mech, 1), (bde, 1)]) is True
    assert sk.legal(rules, [(bde, 1)] * 3) is True
    assert sk.legal(rules, [(mech, 1)] * 3) is False  # two Soviet combat units at most (5.3)
    assert sk.legal(rules, [(mech, 1)] * 3 + [(u["sov-shock-army"], 1)]) is None  # 23.4 lifts the limit in words
    assert sk.largest(rules, "german", "combat") == 3
    assert sk.largest(rules, "german", "support", given={"combat": 3}) == 1
    assert sk.largest(rules, "german", "support", given={"combat": 1}) == 2


def test_first_panzer_army_step_limits() -> None:
    rules = game("first_panzer_army").rules.stacking
    assert rules is not None
    assert sk.largest(rules, "german", "other") == 9
    assert sk.largest(rules, "soviet", "other") == 4
    assert sk.largest(rules, "soviet", "artillery") == 1


@pytest.mark.parametrize(
    ("name", "example", "keys"),
    [
        ("ukraine_43", "german-stacking", ["max_combat", "support_with_3", "support_with_1_or_2"]),
        ("ukraine_43", "soviet-stacking-example", ["legal", "combat_units", "support_units"]),
        ("ukraine_43", "soviet-stacking-brigades", ["legal", "combat_units", "support_units"]),
        ("ukraine_43", "air-limits", ["per_base", "per_side_per_combat", "missions_per_turn"]),
        ("ukraine_43", "army-hq-count", ["tank_armies", "shock_armies"]),
        ("ukraine_43", "rail-repair-rate", ["min_lines"]),
        ("first_panzer_army", "stacking-limits", ["german_steps", "soviet_non_artillery_steps"]),
        ("first_panzer_army", "kg-count", ["markers", "max_per_hex"]),
        ("first_panzer_army", "four-attacks", ["max_attacks_per_turn"]),
        ("first_panzer_army", "rifle-corps-delay-range", ["turns"]),
        ("first_panzer_army", "cas-range", ["sum_range", "difference_range"]),
        ("escape_from_hells_gate", "strength-reading", ["attack", "defense", "movement"]),
        ("escape_from_hells_gate", "support-limits", ["max_markers_per_side_per_combat"]),
        ("escape_from_hells_gate", "fifth-gta-cap", ["max_markers"]),
        ("tabletop_hells_gate", "turn-structure", ["phases", "player_turns"]),
        ("tabletop_hells_gate", "attackers-per-square", ["attacks_per_unit", "attacks_per_target"]),
        ("escape_from_hells_gate", "counter-battery", ["bombardment_value"]),
        ("escape_from_hells_gate", "air-supply-counts", ["air_supply_markers", "luftwaffe_markers", "max_per_turn"]),
        ("escape_from_hells_gate", "errata-ids", ["ger-14pz-103.id", "ger-72-266-adhoc.id"]),
        ("first_panzer_army", "components", ["map_inches"]),
        ("first_panzer_army", "hitler-order", ["applies_turns"]),
        ("first_panzer_army", "garrison-count", ["count"]),
        ("first_panzer_army", "ex-t-air-left", ["remaining"]),
        ("ukraine_43", "airborne", ["brigades", "early_limit", "early_limit_turns"]),
        ("ukraine_43", "pz-corps-count", ["count"]),
    ],
)
def test_seed_claims_recompute(name: str, example: str, keys: list[str]) -> None:
    passed = {k for k, *_ in report(name).passed.get(example, [])}
    assert set(keys) <= passed


def test_an_example_over_its_own_limits_is_a_warning() -> None:
    g = game("escape_from_hells_gate")
    bad = m.Example(
        id="bad-stack",
        rule="5.3",
        kind=m.ExampleKind.COMBAT,
        summary="two units in one hex, three support markers",
        given={"defenders": ["ger-14pz-103", "ger-72-266"], "defender_hex": "0101", "attack_support": [2, 2, 2]},
    )
    findings = verify(g.model_copy(update={"examples": [bad]}))
    illegal = [f for f in findings if f.kind == "example-illegal"]
    assert len(illegal) == 2
    assert any("stacking" in f.message for f in illegal)
    assert any("3 for attack_support" in f.message for f in illegal)
    mine = ("stacking rules forbid", "over the limit")
    for name in ("escape_from_hells_gate", "first_panzer_army", "ukraine_43"):
        assert not [f for f in report(name) if f.kind == "example-illegal" and any(s in f.message for s in mine)]


def test_scale_and_count_claims_without_independent_data_stay_unchecked() -> None:
    """A figure the data cannot recompute independently is reported with its reason, never passed."""
    claims = {(e, k): (s, why) for e, k, s, why, *_ in report("tabletop_hells_gate").claims}
    status, why = claims[("example-map-size", "width_km")]
    assert status == "unchecked"
    assert "partial" in why
    assert claims[("modest-game", "men")] == ("unchecked", claims[("modest-game", "men")][1])
    assert "550,000" in claims[("modest-game", "men")][1]
    fpa = {(e, k): (s, why) for e, k, s, why, *_ in report("first_panzer_army").claims}
    assert fpa[("components", "counters")][0] == "unchecked"
    assert "counter mix" in fpa[("components", "counters")][1]


def test_doctests() -> None:
    import doctest

    assert doctest.testmod(sk).failed == 0
    assert doctest.testmod(lk).failed == 0


@pytest.mark.parametrize(("turn", "flagged"), [(1, True), (2, False), (None, False)])
def test_a_limit_binds_only_its_turns(turn: int | None, flagged: bool) -> None:
    g = game("escape_from_hells_gate")
    lim = m.Limit(id="first", what="markers", per="combat", max=1, turns=[1], counts=["attack_support"])
    rules = g.rules.model_copy(update={"limits": m.LimitRules(counts=[lim])})
    given = {"attack_support": [2, 2]} | ({"turn": turn} if turn else {})
    ex = m.Example(id="t", rule="1", kind=m.ExampleKind.STRENGTH, summary="two markers", given=given)
    findings = verify(g.model_copy(update={"rules": rules, "examples": [ex]}))
    assert any(f.kind == "example-illegal" for f in findings) is flagged
