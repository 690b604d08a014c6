"""Notations round-trip: ``X.parse(str(x)) == x``; bad text raises ValueError; doctests of the pure modules pass."""

from __future__ import annotations

import doctest
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import forge.errors
import forge.hexgrid
import forge.notation
import forge.units
from forge.notation import DiffColumn, Figure, OddsColumn, Strength, fraction
from forge.units import length, size

maybe = st.one_of(st.none(), st.integers(0, 99))
strengths = st.one_of(
    st.builds(lambda v, b: Strength((Figure(v, "[" if b else ""),), "single"), maybe, st.booleans()),
    st.builds(lambda a, d: Strength((Figure(a), Figure(d)), "attack-defense"), maybe, maybe),
    st.builds(
        lambda a, d, m: Strength((Figure(a), Figure(d), Figure(m)), "attack-defense-movement"), maybe, maybe, maybe
    ),
)


@given(strengths)
def test_strength_round_trip(s: Strength) -> None:
    assert Strength.parse(str(s)) == s


@given(st.integers(1, 20), st.integers(1, 20))
def test_odds_column_round_trip(a: int, b: int) -> None:
    for text in (f"{a}:{b}", f"{a}:{b}+", f"<{a}:{b}", f"{a}-{b}"):
        col = OddsColumn.parse(text)
        assert str(col) == text
        assert col.low == Fraction(a, b)


def test_odds_merged_and_decimal() -> None:
    assert OddsColumn.parse("4:1-5:1").low == 4
    assert OddsColumn.parse("1.5-1").low == Fraction(3, 2)
    assert OddsColumn.parse("<1:1").below


@given(st.integers(-30, 30))
def test_diff_column_round_trip(n: int) -> None:
    text = f"{n:+d}" if n else "0"
    assert DiffColumn.parse(text).low == n
    assert str(DiffColumn.parse(text)) == text


@pytest.mark.parametrize("bad", ["", "3:", ":2", "a:b", "0:1", "three"])
def test_bad_odds(bad: str) -> None:
    with pytest.raises(ValueError, match="odds"):
        OddsColumn.parse(bad)


@pytest.mark.parametrize("bad", ["", "[3", "3-", "3--4", "x", "1-2-3-4", "[1-2]"])
def test_bad_strength(bad: str) -> None:
    with pytest.raises(ValueError, match="strength"):
        Strength.parse(bad)


@given(st.integers(1, 100), st.sampled_from(["pt", "in", "mm", "cm"]))  # lengths are bounded at 100in
def test_length_scales(n: int, unit: str) -> None:
    per = {"pt": 1, "in": 72, "mm": 72 / 25.4, "cm": 72 / 2.54}[unit]
    assert length(f"{n}{unit}") == pytest.approx(n * per)


@pytest.mark.parametrize("bad", ["", "3", "in", "-1in", "0mm", "3 furlongs"])
def test_bad_length(bad: str) -> None:
    with pytest.raises(ValueError, match=r"length|greater"):
        length(bad)


def test_size_and_fraction() -> None:
    assert size("17x11in") == (1224.0, 792.0)
    assert fraction("x1/2") == Fraction(1, 2)
    with pytest.raises(ValueError, match="multiplier"):
        fraction("half")


@pytest.mark.parametrize("module", [forge.notation, forge.units, forge.errors, forge.hexgrid])
def test_doctests(module: object) -> None:
    result = doctest.testmod(module, raise_on_error=False)  # type: ignore[arg-type]
    assert result.failed == 0
