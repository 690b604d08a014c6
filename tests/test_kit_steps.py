"""The unit-steps kit (forge/rules/kit/steps.py), the step-count claims and counter-mix check built on it
(forge/verifier/ex_units.py) and the defence after support markers (forge/verifier/ex_support.py): hypothesis properties
plus the First Panzer Army seed examples."""

from __future__ import annotations

from functools import cache
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from forge import model as m
from forge.loader import load
from forge.rules.kit import steps as ks
from forge.verifier import verify
from conftest import DATA


@cache
def fpa() -> m.Game:
    return load(DATA / "first_panzer_army.yaml")


def unit(uid: str, side: str, size: str | None, n: int, known: bool = True) -> m.Unit:
    return m.Unit(
        id=uid, side=side, name=uid, label=uid, type="armour", size=size, steps=["2-1" if known else "?-?"] * n
    )


def claims(game: m.Game) -> dict[tuple[str, str], str]:
    return {(e, k): s for e, k, s, *_ in verify(game).claims}


def with_changes(game: m.Game, **changes: Any) -> m.Game:
    """The game with some top-level parts replaced (re-validated)."""
    d = game.model_dump(mode="python", by_alias=True, exclude_none=True)
    d.update(changes)
    return m.Game.model_validate(d)


def edit_example(game: m.Game, ex_id: str, part: str, key: str, value: Any) -> m.Game:
    d = game.model_dump(mode="python", by_alias=True, exclude_none=True)
    for ex in d["examples"]:
        if ex["id"] == ex_id:
            ex[part][key] = value
    return m.Game.model_validate(d)


# ------------------------------------------------------------------------------------------------ properties
RULES = st.builds(
    lambda mx, counts, only: m.StepRules(
        max=mx, more=[m.StepCount(id="div", side="german", sizes=["XX"], counts=counts, only=only)]
    ),
    st.integers(1, 3),
    st.lists(st.integers(3, 10), min_size=1, max_size=4),
    st.booleans(),
)


@given(RULES, st.sampled_from(["german", "soviet"]), st.sampled_from(["XX", "XXX"]), st.integers(1, 10))
def test_violation_iff_count_not_allowed(rules: m.StepRules, side: str, size: str, n: int) -> None:
    """A unit whose step count is known is flagged exactly when its count is not among those allowed; the units the
    entry covers may have one of its counts (and up to ``max`` too unless ``only``), the others 1..max."""
    u = unit("u", side, size, n)
    ok = ks.allowed(rules, u)
    assert ok is not None
    covered = side == "german" and size == "XX"
    expect = set(rules.more[0].counts) if covered else set()
    if not covered or not rules.more[0].only:
        assert rules.max is not None
        expect |= set(range(1, rules.max + 1))
    assert set(ok) == expect
    flagged = ks.violations(rules, [u])
    assert bool(flagged) == (n not in expect)


@given(RULES, st.integers(2, 10))
def test_unknown_single_step_is_never_flagged(rules: m.StepRules, n: int) -> None:
    """One placeholder step (``?-?``) says nothing about the count: never a violation; several placeholders count."""
    assert ks.step_count(unit("u", "german", "XX", 1, known=False)) is None
    assert ks.violations(rules, [unit("u", "german", "XX", 1, known=False)]) == []
    several = unit("u", "soviet", "XX", n, known=False)
    assert ks.step_count(several) == n
    assert bool(ks.violations(rules, [several])) == (rules.max is not None and n > rules.max)


# ------------------------------------------------------------------------------------------------ seed game
def test_fpa_division_steps_claim_and_counter_mix() -> None:
    """2.6: the claim [4, 6, 8] is compared with rules.steps; every unit of the data fits the rule."""
    g = fpa()
    assert claims(g)[("division-steps", "german_division_steps")] == "data"
    assert not [f for f in verify(g) if f.kind == "unit-steps"]
    assert ks.allowed(g.rules.steps, g.unit("ger-9ss")) == [1, 2, 4, 6, 8]
    assert ks.allowed(g.rules.steps, g.unit("sov-9mech")) == [1, 2]


def test_fpa_step_rule_changes_are_caught() -> None:
    """Another count in the rule makes the claim disagree; a three-step unit breaks the rule."""
    g = fpa()
    d = g.rules.model_dump(mode="python", exclude_none=True)
    d["steps"]["more"][0]["counts"] = [4, 6]
    assert claims(with_changes(g, rules=d))[("division-steps", "german_division_steps")] == "mismatch"
    units = [u.model_dump(mode="python", exclude_none=True) for u in g.units]
    for u in units:
        if u["id"] == "sov-9mech":
            u["steps"] = ["?-?"] * 3
    bad = [f for f in verify(with_changes(g, units=units)) if f.kind == "unit-steps"]
    assert [f.ref for f in bad] == ["sov-9mech"]


def test_fpa_defense_after_air_support() -> None:
    """L975: one German air point makes 8 to 9 into 9 to 9: the defence stays 9 (air adds to the attack only)."""
    g = fpa()
    assert claims(g)[("ex-t-attack1-odds", "defense")] == "engine"
    assert claims(edit_example(g, "ex-t-attack1-odds", "states", "defense", 10))[("ex-t-attack1-odds", "defense")] == (
        "mismatch"
    )
    # a defender-side marker would add to it
    g2 = edit_example(g, "ex-t-attack1-odds", "given", "modifier_counts", {"cas-attack": 1, "cas-german-defense": 1})
    assert claims(g2)[("ex-t-attack1-odds", "defense")] == "mismatch"


# ------------------------------------------------------------------------------ limits in probability examples
@cache
def ukraine() -> m.Game:
    return load(DATA / "ukraine_43.yaml")


def test_ukraine_limits_named_by_examples() -> None:
    """18.5D (4 pontoon bridges), 21 (three hexes), 26.2 (three Manstein attempts) are compared with rules.limits,
    also from probability examples; another bound in the data makes each disagree."""
    g = ukraine()
    got = claims(g)
    keys = [("pontoon", "max_bridges"), ("security-range", "release_range"), ("manstein-example", "attempts_used")]
    assert all(got[k] == "data" for k in keys)
    d = g.rules.model_dump(mode="python", exclude_none=True)
    for lim in d["limits"]["counts"]:
        if lim["id"] in ("pontoon-bridges", "security-release-range", "manstein-attempts"):
            lim["max"] += 1
    bad = claims(with_changes(g, rules=d))
    assert all(bad[k] == "mismatch" for k in keys)
