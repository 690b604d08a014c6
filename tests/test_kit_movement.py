"""The movement and zone-of-control kit (forge/rules/kit/movement.py, zoc.py) and the handlers built on it
(forge/verifier/ex_movement.py): hypothesis properties on any grid, small hand-made boards, and the seed games."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import cells_on, small_grids

from forge import model as m
from forge.hexgrid import Cell, Grid, GridKind
from forge.rules.kit import movement as mk
from forge.rules.kit import zoc as kz
from forge.verifier import verify
import itertools
from conftest import seed_game, seed_report


seed = seed_game
report = seed_report


def make_game(
    rules: dict[str, Any] | None = None,
    terrain: dict[str, Any] | None = None,
    *,
    classes: list[str] | None = None,
    tables: list[dict[str, Any]] | None = None,
) -> m.Game:
    """A tiny game whose only content is movement data."""
    return m.Game.model_validate(
        {
            "format": 1,
            "game": {
                "id": "t",
                "title": "t",
                "source": "s",
                "scale": {"km_per_hex": 1, "days_per_turn": 1},
                "sides": [
                    {"id": "red", "name": "Red", "colour": "#ff0000"},
                    {"id": "blue", "name": "Blue", "colour": "#0000ff"},
                ],
                "first_side": "red",
                "mobility_classes": classes or ["all"],
            },
            "map": {"grid": {"columns": 9, "rows": 9}, "status": "complete", "default_terrain": "clear"},
            "terrain": terrain
            or {
                "clear": {"name": "Clear", "movement": {"all": 1}},
                "woods": {"name": "Woods", "movement": {"all": 2}},
                "river": {"name": "River", "kind": "hexside", "movement": {"all": 1}},
                "road": {"name": "Road", "kind": "path", "movement": {"all": 0.5}},
            },
            "turns": {"turns": [{"number": 1}]},
            "combat": {"kind": "odds"},
            "tables": tables or [],
            "rules": rules or {},
        }
    )


PLAIN = make_game({"movement": {"allowances": [{"mp": 4}]}})
MV = mk.Mover("all")


def board_of(game: m.Game, grid: Grid) -> mk.Board:
    return mk.Board(grid, default=game.map.default_terrain)


# ------------------------------------------------------------------------------------------------ properties
@settings(max_examples=60, deadline=None)
@given(st.data(), small_grids(), st.integers(0, 4))
def test_reach_on_uniform_ground_is_the_distance_ball(data: st.DataObject, grid: Grid, mp: int) -> None:
    """With every step costing 1 and nothing in the way, the reachable set is exactly the on-map cells within
    ``mp`` steps -- and each costs its grid distance -- on hex and square grids alike."""
    start = data.draw(cells_on(grid))
    reach = mk.reachable(PLAIN, board_of(PLAIN, grid), MV, start, Fraction(mp))
    ball = _bfs(grid, start, mp)
    assert reach == {c: Fraction(d) for c, d in ball.items()}


def _bfs(grid: Grid, start: Cell, radius: int) -> dict[Cell, int]:
    seen = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for c in frontier:
            for n in grid.neighbours(c):
                if n not in seen and seen[c] < radius:
                    seen[n] = seen[c] + 1
                    nxt.append(n)
        frontier = nxt
    return seen


@settings(max_examples=60, deadline=None)
@given(st.data(), small_grids(), st.sets(st.integers(0, 48), max_size=20), st.sets(st.integers(0, 48), max_size=8))
def test_cheapest_path_costs_what_it_says_and_beats_any_walk(
    data: st.DataObject, grid: Grid, woods: set[int], roads: set[int]
) -> None:
    """The cheapest path's own cost is the cost returned, and no random walk between the same cells is cheaper."""
    board = board_of(PLAIN, grid)
    cells = list(grid.cells())
    for i in woods:
        if i < len(cells):
            board.base[cells[i]] = "woods"
    start = data.draw(cells_on(grid))
    walk = [start]
    for _ in range(data.draw(st.integers(0, 6))):
        walk.append(data.draw(st.sampled_from(grid.neighbours(walk[-1]) or [walk[-1]])))
    walk = [c for i, c in enumerate(walk) if i == 0 or c != walk[i - 1]]
    for a, b in itertools.pairwise(walk):
        if cells.index(a) in roads:
            board.paths[grid.side(a, b)] = {"road"}
    found = mk.cheapest(PLAIN, board, MV, start, walk[-1])
    assert found is not None
    cost, path = found
    assert path[0] == start
    assert path[-1] == walk[-1]
    assert mk.path_cost(PLAIN, board, MV, path) == cost
    walked = mk.path_cost(PLAIN, board, MV, walk)
    assert isinstance(walked, Fraction)
    assert cost <= walked


@settings(max_examples=40, deadline=None)
@given(st.data(), small_grids(st.just(GridKind.HEX)), st.integers(0, 3))
def test_limits_bind_the_search(data: st.DataObject, grid: Grid, cap: int) -> None:
    """On a board of woods with at most ``cap`` woods per move, nothing farther than ``cap`` hexes is reached."""
    game = make_game(
        {"movement": {"allowances": [{"mp": 10}], "limits": [{"terrain": "woods", "max": cap}]}},
        {"woods": {"name": "Woods", "movement": {"all": 1}}},
    )
    board = mk.Board(grid, default="woods")
    start = data.draw(cells_on(grid))
    reach = mk.reachable(game, board, MV, start, Fraction(10))
    assert max(grid.distance(start, c) for c in reach) <= cap


@settings(max_examples=40, deadline=None)
@given(st.data(), small_grids())
def test_zones_are_mutual_and_adjacent(data: st.DataObject, grid: Grid) -> None:
    """Every controlled cell is next to a unit, and two units next to each other are each in the other's zone."""
    a = data.draw(cells_on(grid))
    zone = kz.controlled(grid, m.ZocRules(), [a])
    assert zone == set(grid.neighbours(a))
    for b in grid.neighbours(a):
        assert (b in zone) == (a in kz.controlled(grid, m.ZocRules(), [b]))


# ------------------------------------------------------------------------------------------------ zoc kit
def test_zoc_options() -> None:
    grid = Grid(GridKind.HEX, 9, 9)
    mid = kz.middle(grid)
    nb = grid.neighbours(mid)
    assert kz.zone_size(grid, m.ZocRules()) == 6
    assert kz.zone_size(Grid(GridKind.SQUARE, 9, 9), m.ZocRules()) == 4
    assert mid in kz.controlled(grid, m.ZocRules(own_hex=True), [mid])
    assert kz.controlled(grid, m.ZocRules(not_when=["storm"]), [mid], states={"storm"}) == set()
    assert kz.controlled(grid, m.ZocRules(not_exerted_by=["hq"]), {mid: ["hq"]}) == set()
    blocked = kz.controlled(grid, m.ZocRules(blocked_by=["major"]), [mid], hexsides={grid.side(mid, nb[0]): {"major"}})
    assert blocked == set(nb[1:])
    assert kz.controlled(grid, m.ZocRules(negated_by_friendly=True), [mid], friendly=[nb[0]]) == set(nb[1:])


def test_zoc_costs_stops_and_locking() -> None:
    grid = Grid(GridKind.HEX, 9, 9)
    enemy = kz.middle(grid)
    ring = grid.neighbours(enemy)
    sticky = make_game({"movement": {"allowances": [{"mp": 6}]}, "zoc": {"leave_cost": 2}})
    board = board_of(sticky, grid)
    ez = kz.controlled(grid, sticky.rules.zoc, [enemy])
    out = next(n for n in grid.neighbours(ring[0]) if n not in ez and n != enemy)
    assert mk.step_cost(sticky, board, MV, ring[0], out, ezoc=ez) == 3
    assert mk.step_cost(sticky, board, MV, out, ring[0], ezoc=ez) == 1
    assert mk.step_cost(sticky, board, MV, out, enemy, enemy={enemy}) == mk.PROHIBITED
    stop = make_game({"movement": {"allowances": [{"mp": 6}]}, "zoc": {"stop_on_enter": True, "locking": True}})
    far = next(c for c in grid.cells() if grid.distance(c, enemy) == 3)
    reach = mk.reachable(stop, board, MV, far, Fraction(6), enemy=[enemy])
    # the zone is entered but never crossed: nothing on the enemy's far side at distance 2 behind the ring
    assert all(grid.distance(c, enemy) >= 1 for c in reach)
    inside = [c for c in reach if c in set(ring)]
    assert inside
    v = mk.path_verdict(stop, board, MV, [ring[0], ring[1]], enemy=[enemy])
    assert v.legal is False
    assert "enemy zone to enemy zone" in v.why


# ------------------------------------------------------------------------------------------------ allowances and costs
def test_allowances_tables_bonuses_and_rounding() -> None:
    table = {
        "id": "mf",
        "title": "MF",
        "row_header": "Weather",
        "columns": ["foot", "motor"],
        "rows": [{"label": "storm", "cells": ["5", "7"]}, {"label": "frost", "cells": ["9", "13"]}],
    }
    game = make_game(
        {
            "movement": {
                "mobility": {"motor": ["armour"]},
                "allowances": [
                    {"table": "mf", "side": "red", "when": ["out-of-supply"], "multiply": "1/2", "rounding": "up"},
                    {"table": "mf"},
                ],
                "bonuses": [{"mode": "extended", "add": 3}],
            }
        },
        {"clear": {"name": "Clear", "movement": {"foot": 1, "motor": 1}}},
        classes=["foot", "motor"],
        tables=[table],
    )
    tank = mk.Mover(mk.mobility_of(game, "armour"), "armour", "red")
    assert mk.mobility_of(game, "infantry") == "foot"
    assert mk.allowance(game, tank, {"frost"}) == 13
    assert mk.allowance(game, tank, {"storm", "out-of-supply"}) == 4  # 7 / 2 rounded up
    assert mk.allowance(game, tank, {"storm"}, "extended") == 10
    assert mk.allowance(game, tank, set()) is None  # no weather: the table gives nothing


def test_crossing_rolls_and_cancels() -> None:
    table = {
        "id": "rc",
        "title": "RC",
        "row_header": "Weather",
        "columns": ["1", "2", "3", "4+"],
        "rows": [{"label": "thaw", "cells": ["+0", "+1", "+2", "+3"]}],
    }
    rules = {
        "movement": {
            "allowances": [{"mp": 10}],
            "cancels": {"bridge": ["river"]},
            "crossing_rolls": [
                {
                    "hexsides": ["river", "major"],
                    "table": "rc",
                    "die_modifier": {"major": 1},
                    "free_when": ["frost"],
                    "free_at": ["town"],
                    "optional_cost": 3,
                }
            ],
        }
    }
    terrain = {
        "clear": {"name": "Clear", "movement": {"all": 1}},
        "town": {"name": "Town", "kind": "feature", "movement": {"all": 1}},
        "river": {"name": "River", "kind": "hexside", "movement": {"all": "varies"}},
        "major": {"name": "Major", "kind": "hexside", "movement": {"all": "varies"}},
        "bridge": {"name": "Bridge", "kind": "hexside", "movement": {"all": 0}},
    }
    game = make_game(rules, terrain, tables=[table])
    assert mk.crossing_cost(game, "river", "all", {"thaw"}, die=2) == 1
    assert mk.crossing_cost(game, "major", "all", {"thaw"}, die=3) == 3  # 3 + 1 reads the 4+ column
    assert mk.crossing_cost(game, "river", "all", {"frost"}) == 0
    assert mk.crossing_cost(game, "river", "all", {"thaw"}, features_either_side=["town"]) == 0
    assert mk.crossing_cost(game, "river", "all", {"optional"}) == 3
    assert mk.crossing_cost(game, "river", "all", {"thaw"}) is None  # no die rolled: not known
    grid = Grid(GridKind.HEX, 5, 5)
    board = board_of(game, grid)
    a, b = Cell(2, 2), grid.neighbours(Cell(2, 2))[0]
    board.sides[grid.side(a, b)] = {"river", "bridge"}
    assert mk.step_cost(game, board, MV, a, b, {"thaw"}) == 1  # the bridge cancels the river


def test_free_zone_and_mobile_assault() -> None:
    game = make_game(
        {
            "movement": {
                "allowances": [{"mp": 4}],
                "free_zones": [
                    {"markers": ["kg"], "side": "red", "radius": 1, "not_when": ["storm"], "negated_by_ezoc": True}
                ],
                "mobile_assault": {"cost": 2, "road_rate": 1},
            }
        }
    )
    grid = Grid(GridKind.HEX, 9, 9)
    board = board_of(game, grid)
    mid = kz.middle(grid)
    free = mk.free_cells(game, board, [mid], "red", set(), set())
    assert free == set(grid.within(mid, 1))
    assert mk.free_cells(game, board, [mid], "red", {"storm"}, set()) == set()
    assert mk.free_cells(game, board, [mid], "red", set(), {grid.neighbours(mid)[0]}) == set()
    a = grid.neighbours(mid)[0]
    assert mk.path_cost(game, board, MV, [a, mid], free=free) == 0
    assert mk.mobile_assault_cost(game, MV, "woods") == 4
    assert mk.mobile_assault_cost(game, MV, "woods", road=True) == 3


def test_path_verdicts() -> None:
    game = make_game(
        {
            "movement": {
                "allowances": [{"mp": 2, "unit_types": ["armour"], "when": ["dry"]}, {"mp": 1}],
                "limits": [{"terrain": "river", "max": 1, "unit_types": ["armour"]}],
            }
        },
        {
            "clear": {"name": "Clear", "movement": {"all": 1}},
            "river": {"name": "River", "kind": "hexside", "movement": {"all": 0}},
        },
    )
    grid = Grid(GridKind.HEX, 9, 9)
    board = board_of(game, grid)
    a = kz.middle(grid)
    b = grid.neighbours(a)[0]
    c = next(n for n in grid.neighbours(b) if grid.distance(n, a) == 2)
    tank = mk.Mover("all", "armour")
    assert mk.path_verdict(game, board, tank, [a, b, c], {"dry"}, enemy=[]).legal is True
    assert mk.path_verdict(game, board, tank, [a, b, c], {"dry"}).legal is None  # enemy positions unknown
    assert mk.path_verdict(game, board, tank, [a, b, c], set(), enemy=[]).legal is False  # 2 MP over 1
    assert mk.path_verdict(game, board, tank, [a, c], {"dry"}, enemy=[]).legal is False  # not adjacent
    board.sides = {grid.side(a, b): {"river"}, grid.side(b, c): {"river"}}
    v = mk.path_verdict(game, board, tank, [a, b, c], {"dry"})
    assert v.legal is False
    assert "river" in v.why


# ------------------------------------------------------------------------------------------------ seed games
SEED_PASSES = [
    ("hells_gate", "t1-5gtc-move", "legal"),
    ("hells_gate", "t1-11pz-routes", "legal[1]"),
    ("escape_from_hells_gate", "zoc-hexes", "zoc_hexes"),
    ("escape_from_hells_gate", "road-trail-cost", "road"),
    ("escape_from_hells_gate", "road-trail-cost", "trail"),
    ("escape_from_hells_gate", "ex3-mobile-movement", "river_cost_paid"),
    ("tabletop_hells_gate", "fast-move", "squares"),
    ("tabletop_hells_gate", "fast-move", "max_difficult"),
    ("tabletop_hells_gate", "fast-move", "max_rivers"),
    ("tabletop_hells_gate", "fast-move", "other_units"),
    ("tabletop_hells_gate", "oos-move", "squares"),
    ("first_panzer_army", "storm-mf", "mf"),
    ("first_panzer_army", "kg-free-move", "mp_inside_range"),
    ("first_panzer_army", "river-optional", "extra_mf"),
    ("first_panzer_army", "major-river-roll", "free_crossing_cost"),
    ("ukraine_43", "marsh-cost", "mechanized"),
    ("ukraine_43", "marsh-cost", "non_mechanized"),
    ("ukraine_43", "interdicted-bridge", "extra_mp"),
    ("ukraine_43", "zoc-exit", "exit_extra_mp"),
    ("ukraine_43", "em-past-enemy", "infantry_second_hex_legal"),
    ("ukraine_43", "two-mobile-assaults", "second_assault"),
    ("ukraine_43", "oos-movement", "if_not"),
]


@pytest.mark.parametrize(("name", "example", "key"), SEED_PASSES)
def test_seed_movement_claims_recompute(name: str, example: str, key: str) -> None:
    passed = {k for k, *_ in report(name).passed.get(example, [])}
    assert key in passed


def test_a_wrong_rule_is_reported() -> None:
    """Change what the data says and the same examples disagree: the checks can fail."""
    g = seed("ukraine_43")
    zoc = g.rules.zoc.model_copy(update={"leave_cost": 3})  # type: ignore[union-attr]
    bad = g.model_copy(update={"rules": g.rules.model_copy(update={"zoc": zoc})})
    r = verify(bad)
    keys = {(f.ref, f.extra.get("key")) for f in r if f.kind in ("example-mismatch", "example-unmodelled")}
    assert ("zoc-exit", "exit_extra_mp") in keys
    assert ("em-past-enemy", "exit_cost_each") in keys
    hg = seed("hells_gate")
    mv = hg.rules.movement
    assert mv is not None
    loose = mv.model_copy(update={"limits": []})
    bad_hg = hg.model_copy(update={"rules": hg.rules.model_copy(update={"movement": loose})})
    passed = {k for k, *_ in verify(bad_hg).passed.get("t1-11pz-routes", [])}
    assert "legal[1]" not in passed  # without the river limit the two-river route is no longer shown illegal


def test_unknown_positions_stay_unchecked() -> None:
    """Where the example does not say where enemy units stand, a legal move is not claimed as checked."""
    claims = {(e, k): (s, why) for e, k, s, why, *_ in report("hells_gate").claims}
    status, why = claims[("t1-11pz-routes", "legal")]
    assert status == "unchecked"
    assert "enemy units" in why
    fpa = {(e, k): s for e, k, s, *_ in report("first_panzer_army").claims}
    assert fpa[("ex-t-probe-19pz", "to")] == "unchecked"


def test_ex_map_no_longer_handles_movement() -> None:
    from forge.verifier import ex_map

    assert not hasattr(ex_map, "ex_movement")
    assert not hasattr(ex_map, "_path_facts")


def test_hells_gate_engine_takes_its_two_hex_routes_from_the_kit() -> None:
    """forge.rules.engine filters 8.2's two-hex moves with the kit's limits for each unit's type: tanks have fewer
    routes than infantry (whom no limit names); drop the limits from the data and tanks have every route."""
    from forge.rules import engine as hg
    from forge.rules.state import Board

    g = seed("hells_gate")
    b = Board.of(g)
    r = hg.rules_of(b)
    tank, foot = b.unit("sov-29tc"), b.unit("sov-48rc")
    assert r.routes[tank] != r.routes[foot]
    assert all(set(t) <= set(f) for t, f in zip(r.routes[tank], r.routes[foot], strict=True))
    mv = g.rules.movement
    assert mv is not None
    loose = g.model_copy(
        update={"rules": g.rules.model_copy(update={"movement": mv.model_copy(update={"limits": []})})}
    )
    r2 = hg.rules_of(Board.of(loose))
    assert r2.routes[tank] == r2.routes[foot] == r.routes[foot]


@pytest.mark.parametrize("side", ["soviet", "german"])
def test_mobile_assault_budget(side: str) -> None:
    passed = {k for k, *_ in report("ukraine_43").passed.get("exploitation-mobile-assault-budget", [])}
    assert side in passed


@pytest.mark.parametrize(
    "name", ["hells_gate", "escape_from_hells_gate", "tabletop_hells_gate", "first_panzer_army", "ukraine_43"]
)
def test_seed_movement_data_names_only_what_exists(name: str) -> None:
    assert mk.problems(seed(name)) == []


def test_a_misspelt_terrain_in_the_movement_rules_is_reported() -> None:
    game = make_game({"movement": {"limits": [{"terrain": "wods", "max": 1}]}, "zoc": {"no_end_in_ezoc": ["extended"]}})
    found = mk.problems(game)
    assert any("'wods'" in p for p in found)
    assert any("'extended'" in p for p in found)


def test_hells_gate_fast_units_come_from_the_allowances() -> None:
    from forge.rules import engine as hg
    from forge.rules.state import Board

    g = seed("hells_gate")
    r = hg.rules_of(Board.of(g))
    types = Board.of(g).unit_type
    assert [f for f, t in zip(r.fast, types, strict=True) if t is m.UnitType.INFANTRY] == [False] * sum(
        t is m.UnitType.INFANTRY for t in types
    )
    assert any(r.fast)
    mv = g.rules.movement
    assert mv is not None
    slow = g.model_copy(
        update={
            "rules": g.rules.model_copy(update={"movement": mv.model_copy(update={"allowances": mv.allowances[1:]})})
        }
    )
    assert not any(hg.rules_of(Board.of(slow)).fast)
