"""Greyscale with many terrain types (issue 25, item 30): the greys of colours that cannot all be kept apart are
given near-linearly, and exactly as the former quadratic-per-colour search gave them (the data/ games' greyscale
PDFs stay byte for byte the same)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from forge.render.style import _GAP, MIN_CONTRAST, _Free, lightness


def _nearest_free_reference(want: float, taken: list[float], lo: float, hi: float) -> float:
    """The search :class:`_Free` replaced (every candidate against every taken L*), as the oracle."""
    candidates = [min(max(want, lo), hi), lo, hi]
    for t in taken:
        candidates += [t - _GAP, t + _GAP]
    ok = [c for c in candidates if lo <= c <= hi and all(abs(c - t) >= _GAP - 1e-9 for t in taken)]
    if ok:
        return min(ok, key=lambda c: (abs(c - want), c))
    return max((c for c in candidates if lo <= c <= hi), key=lambda c: (min(abs(c - t) for t in taken), -c))


def _reference(wants: list[float], fixed: list[float], lo: float, hi: float) -> list[float]:
    taken = list(fixed)
    out = []
    for w in wants:
        v = _nearest_free_reference(w, taken, lo, hi)
        taken.append(v)
        out.append(v)
    return out


def _fast(wants: list[float], fixed: list[float], lo: float, hi: float) -> list[float]:
    spread = _Free(fixed, lo, hi)
    return [spread.place(w) for w in wants]


RANGES = [(12.0, 96.0), (0.0, 72.0), (40.0, 100.0)]
lstar = st.floats(min_value=0.0, max_value=100.0, allow_nan=False)


@settings(max_examples=300, deadline=None)
@given(
    wants=st.lists(lstar, max_size=40).map(sorted),
    fixed=st.lists(st.one_of(lstar, st.sampled_from([12.0, 33.0, 40.0, 61.0, 72.0, 96.0, 100.0])), max_size=6),
    bounds=st.sampled_from(RANGES),
)
def test_the_fast_spread_gives_the_former_greys(wants: list[float], fixed: list[float], bounds: tuple) -> None:
    """Same L*, to the last bit, for any wants and fixed L* (exact ties and values on a rung included)."""
    assert _fast(wants, fixed, *bounds) == _reference(wants, fixed, *bounds)


def test_two_hundred_terrain_fills_as_before_and_as_far_apart_as_they_go() -> None:
    """200 fill colours of one pattern (3 greys fit in the fills' range): the same L* as before; each in the range;
    the first three at least MIN_CONTRAST apart; the later ones spread over more greys than three."""
    rng = random.Random(30)
    wants = sorted(lightness(f"#{rng.randrange(1 << 24):06x}") for _ in range(200))
    lo, hi = RANGES[2]
    got = _fast(wants, [], lo, hi)
    assert got == _reference(wants, [], lo, hi)
    assert all(lo <= v <= hi for v in got)
    first = sorted(got[:3])
    assert first[1] - first[0] >= MIN_CONTRAST
    assert first[2] - first[1] >= MIN_CONTRAST
    assert len(set(got)) > 3  # greys ran out: later ones still spread, not all on one rung


def test_the_estimate_counts_terrain_types(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """Each terrain type is drawn in the map's key and on the cards: the estimate grows with their number, and a
    game with 10,000 of them is refused at ``terrain`` with how many would fit."""
    import sys

    from conftest import ROOT

    from forge.builder import BuildOptions
    from forge.cli import main
    from forge.estimate import estimate
    from forge.loader import loads

    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import bench_greyscale
    finally:
        sys.path.remove(str(ROOT / "bench"))
    few = estimate(loads(bench_greyscale.many_types(10)), BuildOptions())
    many = estimate(loads(bench_greyscale.many_types(1000)), BuildOptions())
    assert many.seconds - few.seconds > 990 * 2 * 4e-3  # measured 4.1 ms a type on the map and on the cards
    assert many.driver().path == ("terrain",)
    game = tmp_path / "types.yaml"
    game.write_text(bench_greyscale.many_types(10_000), encoding="utf-8")
    assert main(["build", "-q", str(game), "--out", str(tmp_path / "out")]) == 2
    assert not (tmp_path / "out").exists()
    err = capsys.readouterr().err
    assert f"{game}:" in err
    assert ": terrain: 10,005 terrain types, each drawn in the map's key and the cards' terrain chart:" in err
    assert "terrain types with these options (expected fewer terrain types)" in err
