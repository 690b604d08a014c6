"""The engine's speed-ups keep its behaviour (issue 11, engine speed): the per-game compiled rules and the caches
they feed must not change a game.

* :func:`forge.rules.supply.reachable` with the merged blocked set finds what :func:`supplied_cells` finds, in the
  same order;
* a remembered opening (``State.initial`` copies it) is never shared: playing one game leaves the next start as
  fresh as the first, with or without its log, and bad arguments still fail;
* an action typed by a user (``parse_action``) plays exactly like the engine's own listed object, and the
  hexes each side holds (``State.held``, kept up to date by every change) match the unit counts;
* the precomputed two-hex routes by end hex are the routes, regrouped.
"""

from __future__ import annotations

import random

import pytest
from test_hells_gate import ASSUMED, GAME

from forge.rules import engine as hg
from forge.rules.state import State
from forge.rules.supply import reachable, supplied_cells


def _random_graph(rng: random.Random, n: int) -> dict[int, list[int]]:
    nb: dict[int, list[int]] = {i: [] for i in range(n)}
    for a in range(n):
        for b in range(a + 1, n):
            if rng.random() < 0.25:
                nb[a].append(b)
                nb[b].append(a)
    return nb


def test_reachable_with_merged_sets_is_supplied_cells() -> None:
    rng = random.Random(11)
    for _ in range(300):
        n = rng.randint(1, 14)
        nb = _random_graph(rng, n)
        cells = range(n)
        enemy = {c for c in cells if rng.random() < 0.2}
        friendly = {c for c in cells if rng.random() < 0.3} - enemy
        blocked = {c for c in cells if rng.random() < 0.4}
        sources = rng.sample(list(cells), rng.randint(0, n))
        limit = rng.choice([None, 0, 1, 2, 3])
        want = supplied_cells(
            sources, nb.__getitem__, enemy_occupied=enemy, friendly_occupied=friendly, blocked=blocked, max_length=limit
        )
        got = reachable(sources, nb.__getitem__, enemy | (blocked - friendly), limit)
        assert list(got.items()) == list(want.items())


def test_reachable_refuses_a_negative_length() -> None:
    with pytest.raises(ValueError, match="max_length"):
        reachable([0], {0: []}.__getitem__, set(), -1)


def _picture(s: State) -> tuple[object, ...]:
    return (s.describe(), s.steps[:], s.oos[:], s.vp[:], s.turn, s.step, s.weather, [sorted(x) for x in s.held])


def test_a_remembered_start_is_never_shared() -> None:
    first = State.initial(GAME, strengths=ASSUMED, log=True)
    fresh = _picture(first)
    start_log = list(first.log or [])
    assert start_log, "the opening phases write to the log"
    rng, dice = random.Random(5), hg.Dice(5)
    for _ in range(60):
        hg.apply(first, rng.choice(hg.legal_actions(first)), dice)
    assert _picture(first) != fresh
    again = State.initial(GAME, strengths=ASSUMED, log=True)
    assert _picture(again) == fresh
    assert again.log == start_log
    quiet = State.initial(GAME, strengths=ASSUMED)
    assert quiet.log is None
    assert _picture(quiet) == fresh
    with pytest.raises(ValueError, match="ger-5ss"):
        State.initial(GAME, strengths=dict(ASSUMED, **{"ger-5ss": [1, 1]}))
    with pytest.raises(KeyError):
        State.initial(GAME, strengths=ASSUMED, scenario="no such scenario")


def test_typed_actions_play_like_listed_ones() -> None:
    s = State.initial(GAME, strengths=ASSUMED, log=True)
    rng, dice = random.Random(3), hg.Dice(3)
    tried = 0
    while s.result is None and tried < 150:
        actions = hg.legal_actions(s)
        listed = rng.choice(actions)
        typed = hg.parse_action(str(listed))
        assert typed == listed
        assert typed is not listed
        a, b = s.copy(), s.copy()
        hg.apply(a, listed, hg.Dice(tried))
        hg.apply(b, typed, hg.Dice(tried))
        assert (a.log, _picture(a)) == (b.log, _picture(b))
        hg.apply(s, listed, dice)
        assert [sorted(x) for x in s.held] == [[h for h, n in enumerate(c) if n] for c in s.count]
        tried += 1
    assert tried == 150


def test_two_hex_routes_by_end_regroup_the_routes() -> None:
    r = hg.rules_of(State.initial(GAME, strengths=ASSUMED).board)
    for routes, middles in zip(r.routes, r.middles, strict=True):
        assert any(routes)
        for h, pairs in enumerate(routes):
            assert set(middles[h]) == {m for _, m in pairs}
            for m, ns in middles[h].items():
                assert list(ns) == [n for n, end in pairs if end == m]
