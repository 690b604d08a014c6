"""The engine's kept and incremental results equal a recomputation from scratch (issue 11, engine speed).

The engine (forge.rules.engine) keeps derived results between decisions rather than recomputing them:

* ``state.scratch``: the movement phase's options and legal actions (dropping each unit as it moves), the ways
  to open an attack in a combat phase (kept per turn, phase and number of hexes attacked), the ways to absorb a
  pending hit;
* State's occupancy tables (``count``, ``held`` and its bit masks ``held_mask``) and the VP tally, updated on every
  move (``State._relocate``);
* the compiled rules' tables (``adjacent``, ``enterable``, ``ends_by_middle``, their bit masks ``step_masks`` and
  ``far_ends``) and the searches that use them: the set-based ``zone_of_table`` and ``flood``, and the bit-mask
  ``Masks.spread`` and ``bitboard.flood`` (forge.rules.bitboard).

Hypothesis plays random legal games of every game the engine plays (Hell's Gate with the tests' assumed
strengths, Ferry Point, the synthetic tabletop scenario) and, at every decision, compares the engine's answer
with the answer of a copy whose scratch is emptied (so everything is recomputed), and the tables with a recount;
the searches are compared with the generic ones (``zone_of``, ``reachable``) on random graphs.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forge.loader import load
from forge.rules import bitboard as bb
from forge.rules import engine as hg
from forge.rules.state import Phase, State
from forge.rules.supply import flood, reachable
from forge.rules.zoc import zone_of, zone_of_table
from test_hells_gate import ASSUMED, GAME

ROOT = Path(__file__).resolve().parent.parent
GAMES = {
    "hells_gate": (GAME, ASSUMED),
    "ferry_point": (load(ROOT / "data" / "ferry_point.yaml"), None),
    "synthetic_tabletop": (load(ROOT / "tests" / "data" / "synthetic_tabletop.yaml"), None),
}


def fresh(s: State) -> State:
    """A copy of ``s`` with nothing kept: every derived result is computed again."""
    c = s.copy()
    c.scratch.clear()
    return c


def supplied_from_scratch(s: State, side: int, max_length: int | None) -> set[int]:
    """5.1 by the generic search (forge.rules.supply.reachable) over sets built from the units' positions."""
    b = s.board
    mine = {s.pos[u] for u in s.on_map(side)}
    enemy = {s.pos[u] for u in s.on_map(1 - side)}
    blocked = (zone_of(enemy, b.neighbours.__getitem__) | set(b.sources[1 - side])) - mine
    return set(reachable(b.sources[side], b.neighbours.__getitem__, blocked | enemy, max_length))


def check(s: State) -> None:
    """Everything kept or updated in place equals its recomputation."""
    b = s.board
    n_sides = len(b.sides)
    assert s.active == b.sequence[s.step][1]  # kept with the step
    for side in range(n_sides):
        count = [sum(1 for u in occ if b.unit_side[u] == side) for occ in s.occupants]
        assert s.count[side] == count
        assert s.held[side] == {h for h, n in enumerate(count) if n}
        assert s.held_mask[side] == bb.mask_of(s.held[side])
    assert s.vp == s.vp_from_scratch()
    for u, h in enumerate(s.pos):
        assert (h >= 0) == any(u in occ for occ in s.occupants)
        if h >= 0:
            assert u in s.occupants[h]
    for side in range(n_sides):
        for limit in (None, 3):
            assert hg._supplied_hexes(s, side, limit) == supplied_from_scratch(s, side, limit)
    if s.result is not None:
        return
    kept = hg.legal_actions(s)
    assert kept == hg.legal_actions(fresh(s))
    assert hg.legal_actions(s) == kept  # asking twice changes nothing
    if s.phase is Phase.COMBAT and s.hits is None and s.attack_target < 0:
        assert hg._openings(s) == hg._declarable(fresh(s))
    if s.phase is Phase.MOVEMENT and not s.breakout_open:
        kept_options = hg._move_options(s)
        assert kept_options == hg._compute_move_options(fresh(s))
        assert all(not s.moved[u] for u in kept_options)
        assert hg._move_phase(s)[2] == [u for u, (moves, _) in kept_options.items() for _ in moves]
        r = s.rules
        for u, (moves, dests) in kept_options.items():  # the masks and memos against the search of one unit
            routes = [h for h in hg._routes(s, u) if r.stacking is None or hg._stack_ok(s, u, h)]
            assert list(dests) == routes
            assert list(moves) == [r.actions.moves[u][h] for h in routes]


def play(name: str, seed: int) -> None:
    game, strengths = GAMES[name]
    rng = random.Random(seed)
    dice = hg.Dice(seed)
    s = State.initial(game, strengths=strengths)
    twin: State | None = None
    while s.result is None:
        check(s)
        actions = hg.legal_actions(s)
        if twin is None and rng.random() < 0.05:  # a copy taken now must play on unaffected by the original
            twin, twin_dice, twin_rng = s.copy(), hg.Dice(seed + 1), random.Random(seed + 1)
        hg.apply(s, rng.choice(actions), dice)
    check(s)
    if twin is not None:
        while twin.result is None:
            check(twin)
            hg.apply(twin, twin_rng.choice(hg.legal_actions(twin)), twin_dice)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_kept_results_equal_recomputation_in_hells_gate(seed: int) -> None:
    play("hells_gate", seed)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_kept_results_equal_recomputation_in_ferry_point(seed: int) -> None:
    play("ferry_point", seed)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_kept_results_equal_recomputation_in_the_tabletop_scenario(seed: int) -> None:
    play("synthetic_tabletop", seed)


def test_the_compiled_tables_agree_with_the_board() -> None:
    s = State.initial(GAME, strengths=ASSUMED)
    b, r = s.board, s.rules
    for h, nbrs in enumerate(b.neighbours):
        assert r.adjacent[h] == set(nbrs)
        assert list(nbrs) == sorted(nbrs)  # the engine relies on table order being index order
    for u in range(len(b.units)):
        routes = r.routes[u]
        for h in range(len(b.labels)):
            assert r.enterable[u][h] == tuple(n for n in b.neighbours[h] if n not in r.no_entry[u])
            regrouped = [(n, m) for n, ends in r.ends_by_middle[u][h].items() for m in ends]
            assert regrouped == list(routes[h])  # routes are listed middle by middle, in route order
            assert bb.hexes(r.step_masks[u][h]) == r.enterable[u][h]
            ne = r.no_entry[u]
            far = {n: bb.mask_of(m for m in e if m not in ne) for n, e in r.ends_by_middle[u][h].items()}
            assert r.far_ends[u][h] == far
    masks = r.masks
    for h in range(len(b.labels)):
        assert masks.bit[h] == 1 << h
        assert masks.neighbours[h] == bb.mask_of(b.neighbours[h])
    assert [bb.mask_of(x) for x in b.sources] == list(r.source_mask)
    assert r.effects.trip_mask == bb.mask_of(h for _, hexes in r.effects.triggers for h in hexes)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_board_spreads_are_the_neighbour_tables_union(name: str) -> None:
    """Each playable board's shifts (hex and square grids) give exactly the union of its neighbour table."""
    game, strengths = GAMES[name]
    s = State.initial(game, strengths=strengths)
    b, masks = s.board, s.rules.masks
    assert len(masks.offsets) <= bb._MAX_OFFSETS  # these grids take the shifts, not the per-hex loop
    rng = random.Random(name)
    n = len(b.labels)
    for mask in [0, masks.full, *(rng.getrandbits(n) for _ in range(200))]:
        cells = bb.hexes(mask)
        assert masks.spread(mask) == bb.mask_of(zone_of(cells, b.neighbours.__getitem__))


@st.composite
def graphs(draw: st.DrawFn) -> tuple[list[set[int]], set[int], set[int], int | None]:
    """A random symmetric graph, sources, closed cells and a length limit."""
    n = draw(st.integers(1, 25))
    adjacent: list[set[int]] = [set() for _ in range(n)]
    for a, b in draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=60)):
        if a != b:
            adjacent[a].add(b)
            adjacent[b].add(a)
    sources = draw(st.sets(st.integers(0, n - 1), max_size=4))
    closed = draw(st.sets(st.integers(0, n - 1), max_size=n))
    limit = draw(st.none() | st.integers(0, 6))
    return adjacent, sources, closed, limit


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_set_searches_equal_the_generic_ones(g: tuple[list[set[int]], set[int], set[int], int | None]) -> None:
    adjacent, sources, closed, limit = g
    nbrs = [sorted(x) for x in adjacent]
    assert flood(sources, adjacent, closed, limit) == set(reachable(sources, nbrs.__getitem__, closed, limit))
    assert zone_of_table(closed, adjacent) == zone_of(closed, nbrs.__getitem__)
    # the bit-mask searches, with both ways of spreading (shifts by offset, and one OR per hex)
    masks = bb.Masks.of(nbrs)
    full, closed_mask = masks.full, bb.mask_of(closed)
    reached = bb.mask_of(reachable(sources, nbrs.__getitem__, closed, limit))
    zone = bb.mask_of(zone_of(closed, nbrs.__getitem__))
    for spread in (bb._shifts(masks.offsets), bb._by_hex(masks.neighbours)):
        assert spread(closed_mask) == zone
        assert bb.flood(bb.mask_of(sources), full & ~closed_mask, spread, limit) == reached
