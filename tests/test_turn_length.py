"""Turns of different lengths (issue 21): ``turns.turns[].length``, read by forge check, printed on the turn track,
the turn record and the VP record, and summed by ``forge verify`` for a game's ``duration``.

The game is The Halden Line, whose opening turn is one day long and the six after it three days (the scale's).
"""

from __future__ import annotations

import functools
import re
from fractions import Fraction
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forge import model as m
from forge import turnlength as TL
from forge.builder import BuildOptions
from forge.errors import LoadError
from forge.loader import loads
from forge.verifier import verify
from strategies import examples

ROOT = Path(__file__).resolve().parent.parent
HALDEN = (ROOT / "data" / "halden_line.yaml").read_text(encoding="utf-8")
FERRY = (ROOT / "data" / "ferry_point.yaml").read_text(encoding="utf-8")
FIRST = "    - {number: 1, length: {days: 1}, weather: dry"


@functools.cache
def halden() -> m.Game:
    return loads(HALDEN, "halden_line.yaml")


def _with(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def _claims(game: m.Game, example: str) -> dict[str, str]:
    return {c.key: c.status for c in verify(game).claims if c.example == example}


def _mismatches(game: m.Game) -> list[str]:
    return [f.message for f in verify(game) if f.kind == "example-mismatch"]


def _pdf_text(pdf: bytes) -> str:
    doc = pdfium.PdfDocument(pdf)
    return " ".join(re.sub(r"\s+", " ", doc[i].get_textpage().get_text_range()) for i in range(len(doc)))


# ------------------------------------------------------------------------------------------------ the data
def test_the_length_loads_and_the_default_stays_the_scale() -> None:
    game = halden()
    track = game.turns.turns
    assert track[0].length == m.TurnLength(days=1)
    assert [TL.turn_hours(game, t) for t in track] == [24] + [72] * 6
    assert TL.turns_that_differ(game) == [track[0]]
    assert TL.duration(game, track) == 19 * 24


@pytest.mark.parametrize(
    ("length", "expect"),
    [
        ("{days: 2, hours: 3}", "turns.turns[0].length: expected one of 'days' or 'hours'"),
        ("{}", "turns.turns[0].length: expected one of 'days' or 'hours'"),
        ("{hour: 12}", "turns.turns[0].length.hour: unknown key 'hour' (did you mean 'hours'?)"),
        ("{days: 0}", "turns.turns[0].length.days: expected more than 0"),
    ],
)
def test_check_refuses_a_bad_length_located(length: str, expect: str) -> None:
    text = _with(HALDEN, FIRST, FIRST.replace("{days: 1}", length))
    with pytest.raises(LoadError) as info:
        loads(text, "halden_line.yaml")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("    - {number: 1,"))
    (problem,) = [str(p) for p in info.value.problems]
    assert problem.startswith(f"halden_line.yaml:{line}:")
    assert expect in problem


def test_an_unknown_length_is_no_duration() -> None:
    game = loads(_with(HALDEN, FIRST, FIRST.replace("{days: 1}", "{hours: unknown}")), "h.yaml")
    assert TL.duration(game, game.turns.turns) is None
    assert _claims(game, "campaign-length") == {"duration": "unchecked"}


# ------------------------------------------------------------------------------------------------ verify
def test_the_duration_is_recomputed_from_the_track() -> None:
    assert _claims(halden(), "campaign-length") == {"duration": "engine"}
    assert _mismatches(halden()) == []


def test_a_wrong_duration_is_reported() -> None:
    """21 days is what seven three-day turns would give, and wrong once the first turn is one day."""
    game = loads(_with(HALDEN, "states: {duration: 19 days}", "states: {duration: 21 days}"), "h.yaml")
    (msg,) = _mismatches(game)
    assert "duration = 21 days" in msg
    assert "19 days" in msg


def test_the_scale_days_of_the_first_turns_follow_the_track() -> None:
    """``days`` for the first N turns sums the track when a turn's length differs (4 turns: 1 + 3 x 3 = 10)."""
    ex = "states: {duration: 19 days}"
    good = loads(_with(HALDEN, ex, "given: {turns: 4}\n    states: {days: 10}"), "h.yaml")
    assert _claims(good, "campaign-length") == {"days": "engine"}
    bad = loads(_with(HALDEN, ex, "given: {turns: 4}\n    states: {days: 12}"), "h.yaml")
    assert len(_mismatches(bad)) == 1
    part = loads(_with(HALDEN, ex, "given: {turns: 2}\n    states: {duration: 4 days}"), "h.yaml")
    assert _claims(part, "campaign-length") == {"duration": "engine"}


def test_a_duration_longer_than_the_track_is_not_guessed() -> None:
    game = loads(
        _with(HALDEN, "states: {duration: 19 days}", "given: {turns: 9}\n    states: {duration: 25 days}"), "h"
    )
    assert _claims(game, "campaign-length") == {"duration": "unchecked"}


@settings(max_examples=examples(15, thorough=40), deadline=None)
@given(
    lengths=st.lists(
        st.one_of(
            st.none(),
            st.tuples(st.just("days"), st.integers(1, 5)),
            st.tuples(st.just("hours"), st.sampled_from([6, 12, 18, 36])),
        ),
        min_size=7,
        max_size=7,
    ),
    off=st.sampled_from([0, 1, -1]),
)
def test_any_track_sums_to_its_duration(lengths: list[tuple[str, int] | None], off: int) -> None:
    """Whatever the turns' lengths, the duration that is their sum passes and one a day off is a mismatch."""
    text = HALDEN
    total = Fraction(0)
    for n, length in enumerate(lengths, 1):
        line = next(t for t in text.splitlines() if t.startswith(f"    - {{number: {n},"))
        bare = re.sub(r" length: \{[^}]*\},", "", line)
        if length is not None:
            unit, k = length
            bare = bare.replace(f"{{number: {n},", f"{{number: {n}, length: {{{unit}: {k}}},")
        text = text.replace(line, bare)
        total += 72 if length is None else k * (24 if unit == "days" else 1)
    stated = TL.text(total + 24 * off)
    game = loads(text.replace("states: {duration: 19 days}", f"states: {{duration: {stated}}}"), "h.yaml")
    assert TL.duration(game, game.turns.turns) == total
    assert _claims(game, "campaign-length") == {"duration": "engine" if off == 0 else "mismatch"}


@given(st.integers(0, 400), st.integers(0, 23))
def test_text_and_parse_round_trip(days: int, hours: int) -> None:
    h = Fraction(days * 24 + hours)
    if h:
        assert TL.parse(TL.text(h)) == h


def test_parse_refuses_what_is_no_duration() -> None:
    assert TL.parse("a fortnight") is None
    assert TL.parse("10 days, more or less") is None
    assert TL.parse(True) is None
    assert TL.parse(10) == 240
    assert TL.parse("2 days and 12 hours") == 60


def test_doctests() -> None:
    import doctest

    assert doctest.testmod(TL).failed == 0


# ------------------------------------------------------------------------------------------------ printed
def test_the_turn_track_prints_a_length_that_differs_and_says_so_in_the_scale() -> None:
    from forge.canvas import Recorder
    from forge.render import map as M

    rec = Recorder("halden map")
    text = _pdf_text(M.render(halden(), BuildOptions(only=("map",), tile=False), recorder=rec))
    assert "1 turn = 3 days unless its box says otherwise" in text
    assert "1 day" in text


def test_a_track_without_lengths_prints_none() -> None:
    from forge.render import map as M

    text = _pdf_text(M.render(loads(FERRY, "ferry_point.yaml"), BuildOptions(only=("map",), tile=False)))
    assert "unless its box says otherwise" not in text


def test_a_length_equal_to_the_scale_is_not_printed() -> None:
    from forge.render import map as M

    game = loads(_with(HALDEN, FIRST, FIRST.replace("{days: 1}", "{hours: 72}")), "h.yaml")
    assert TL.turns_that_differ(game) == []
    text = _pdf_text(M.render(game, BuildOptions(only=("map",), tile=False)))
    assert "unless its box says otherwise" not in text
    assert "3 days" in text


def test_the_turn_record_card_and_the_vp_record_show_the_length() -> None:
    from forge.render import cards, handout

    text = _pdf_text(cards.render(halden(), BuildOptions(only=("cards",))))
    assert "Turn Length Weather" in text
    assert "1 1 day dry" in text
    assert "1 (1 day)" in _pdf_text(handout.render(halden(), BuildOptions()))
    other = _pdf_text(cards.render(loads(FERRY, "ferry_point.yaml"), BuildOptions(only=("cards",))))
    assert "Length" not in other
