"""The odds-CRT play engine (forge/rules/classic.py), mechanic by mechanic on small hand-made positions, plus
properties over random positions and seeded random games of the demonstration game (data/halden_line.yaml).

Properties (hypothesis):
* every ordinary move the engine offers ends where the movement kit's own search (kit.movement.reachable) says the
  unit can get, never in an enemy hex, and inside the stacking limit;
* a retreat never enters an enemy zone when ``rules.retreat.enemy_zoc`` is ``always``, nor an enemy hex;
* random play from any seed ends with a result.
"""

from __future__ import annotations

import copy
import random
from fractions import Fraction
from typing import Any

import pytest
from conftest import DATA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forge import model as m
from forge.errors import LoadError
from forge.loader import load, loads
from forge.rules import classic as C
from forge.rules.board import UnplayableGameError
from forge.rules.kit import movement as mk

# ================================================================================================ a tiny game
ROWS = ["1", "2", "3", "4", "5", "6"]
CODES = ["DE", "DR", "EX", "AR", "AE", "NE"]
"""The test CRT gives the same code in every column of a row: die n gives CODES[n-1]."""


def _tiny(units: list[dict[str, Any]], **rules: Any) -> dict[str, Any]:
    play = {
        "phases": [{"phase": "Mechanized Movement", "mobility": ["mech"]}],
        "control": {"places": ["city"], "initial": {"b": ["0403"], "a": ["0101"]}},
        "replacements": {"place": ["city"], "controlled": True, "communication": True},
    }
    d: dict[str, Any] = {
        "format": 1,
        "game": {
            "id": "tiny",
            "title": "Tiny",
            "source": "tests",
            "scale": {"km_per_hex": 1, "days_per_turn": 1},
            "sides": [{"id": "a", "name": "A", "colour": "#aa0000"}, {"id": "b", "name": "B", "colour": "#0000aa"}],
            "first_side": "a",
            "strength_format": "attack-defense-movement",
            "mobility_classes": ["foot", "mech"],
        },
        "map": {
            "grid": {"kind": "hex", "orientation": "flat", "parity": "odd", "columns": 7, "rows": 5},
            "status": "complete",
            "default_terrain": "clear",
            "hexes": {
                "0403": {"name": "Cap", "features": ["city"], "vp": 5},
                "0101": {"name": "Home", "features": ["city"], "vp": 1},
                "0503": {"terrain": "forest"},
            },
            "paths": [{"kind": "rail", "hexes": ["0101", "0201", "0301", "0401", "0501", "0601", "0701"]}],
        },
        "terrain": {
            "clear": {"name": "Clear", "movement": {"foot": 1, "mech": 1}},
            "forest": {"name": "Forest", "movement": {"foot": 2, "mech": 3}, "combat": {"defense_multiplier": "2"}},
            "city": {"name": "City", "kind": "feature", "movement": {"foot": 0, "mech": 0}},
            "rail": {"name": "Rail", "kind": "path"},
        },
        "units": units,
        "turns": {
            "weather": {"states": ["dry", "mud"], "initial": "dry"},
            "turns": [{"number": 1, "weather": "dry"}, {"number": 2, "weather": "mud"}],
        },
        "combat": {
            "kind": "odds",
            "crt": {
                "columns": ["1:2", "1:1", "2:1", "3:1"],
                "rows": ROWS,
                "cells": [[c] * 4 for c in CODES],
                "below": {"result": "AE"},
                "above": {"column": "3:1"},
            },
            "results": {
                "DE": {"meaning": "x", "defender_eliminated": True},
                "DR": {"meaning": "x", "defender_retreat": 2},
                "EX": {"meaning": "x", "defender_eliminated": True, "exchange": "strength"},
                "AR": {"meaning": "x", "attacker_retreat": 1},
                "AE": {"meaning": "x", "attacker_eliminated": True},
                "NE": {"meaning": "x"},
            },
        },
        "sequence": [
            {"name": "Replacements", "each_side": True, "activities": ["reinforcement"]},
            {"name": "Movement", "each_side": True, "activities": ["movement"]},
            {"name": "Combat", "each_side": True, "activities": ["combat"]},
            {"name": "Mechanized Movement", "each_side": True, "activities": ["movement"]},
        ],
        "rules": {
            "movement": {
                "mobility": {"mech": ["armour"]},
                "default_mobility": "foot",
                "allowances": [
                    {"mobility": ["mech"], "when": ["mud"], "hexes": 1},
                    {"mp": "printed", "when": ["mud"], "multiply": "1/2", "rounding": "up"},
                    {"mp": "printed"},
                ],
                "modes": [{"id": "train", "path": "rail", "hexes": 4, "phases": ["Movement"], "enemy_zoc": "no-entry"}],
            },
            "zoc": {"stop_on_enter": True},
            "stacking": {"limits": [{"allow": [{"max": {"total": 2}}]}]},
            "supply": {
                "enemy_units": "always",
                "enemy_zoc": "unless-friendly",
                "enemy_sources": "never",
                "edges": [
                    {"side": "a", "first": "0101", "last": "0105", "edges": ["west"]},
                    {"side": "b", "first": "0701", "last": "0705", "edges": ["east"]},
                ],
            },
            "retreat": {
                "enemy_units": "always",
                "enemy_zoc": "always",
                "enemy_sources": "never",
                "advance": {"all": 1},
                "advance_into": "vacated-hex",
            },
            "play": play,
        },
    }
    for k, v in rules.items():
        d["rules"]["play"][k] = v
    return d


def inf(
    uid: str, side: str, hex_: str | None, steps: tuple[str, ...] = ("4-4-3", "2-2-3"), **kw: Any
) -> dict[str, Any]:
    return (
        {"id": uid, "side": side, "name": uid, "label": uid, "type": "infantry", "steps": list(steps)}
        | ({"setup": hex_} if hex_ else {})
        | kw
    )


def tank(uid: str, side: str, hex_: str, steps: tuple[str, ...] = ("6-4-6", "3-2-6")) -> dict[str, Any]:
    return inf(uid, side, hex_, steps) | {"type": "armour"}


def game_of(d: dict[str, Any]) -> m.Game:
    return m.Game.model_validate(d)


def at_phase(s: C.State, name: str, side: str, turn: int = 1) -> C.State:
    """Put ``s`` at the start of ``side``'s phase ``name`` on ``turn`` (no settling: the test decides)."""
    s.turn = turn
    s.slot = next(i for i, sl in enumerate(s.rules.slots) if sl.phase.name == name and sl.side == side)
    s.tasks = []
    s.fight = None
    C._enter_slot(s)
    return s


def start(units: list[dict[str, Any]], **kw: Any) -> C.State:
    g = game_of(_tiny(units, **kw))
    assert C.problems(g) == []
    return C.initial(g)


def moves_of(s: C.State, uid: str, mode: str | None = None) -> set[str]:
    return {
        a.to for a in C.legal_actions(s) if isinstance(a, C.Move) and a.unit == uid and (mode is None or a.mode == mode)
    }


# ================================================================================================ movement
def test_rail_moves_only_along_the_line_from_a_hex_of_it() -> None:
    s = at_phase(start([inf("r1", "a", "0201"), inf("r2", "a", "0202"), inf("e", "b", "0705")]), "Movement", "a")
    rail = moves_of(s, "r1", "train")
    assert rail == {"0101", "0301", "0401", "0501", "0601"}  # four hexes each way along the line, no more
    assert moves_of(s, "r2", "train") == set()  # it does not start on the line
    ordinary = moves_of(s, "r1", C.ORDINARY)
    assert "0601" not in ordinary
    assert "0501" in ordinary


def test_rail_may_not_enter_an_enemy_zone() -> None:
    s = at_phase(start([inf("r1", "a", "0101"), inf("e", "b", "0402")]), "Movement", "a")
    # 0402 controls 0301? compute the zone the engine uses and check the rail stops short of it
    zone = C._zone(s, "a")
    rail = {s.rules.grid.parse(h) for h in moves_of(s, "r1", "train")}
    assert rail
    assert not rail & zone
    line = [s.rules.grid.parse(h) for h in ("0201", "0301", "0401", "0501")]
    first_zoned = next(i for i, c in enumerate(line) if c in zone)
    assert rail == set(line[:first_zoned])


def test_the_mechanized_phase_moves_only_its_class() -> None:
    s = at_phase(
        start([inf("i", "a", "0203"), tank("t", "a", "0204"), inf("e", "b", "0705")]), "Mechanized Movement", "a"
    )
    movers = {a.unit for a in C.legal_actions(s) if isinstance(a, C.Move)}
    assert movers == {"t"}
    assert not any(isinstance(a, C.Move) and a.mode == "train" for a in C.legal_actions(s))  # rail: Movement only
    at_phase(s, "Movement", "a")
    assert {a.unit for a in C.legal_actions(s) if isinstance(a, C.Move)} == {"i", "t"}


def test_a_zone_of_control_stops_a_move() -> None:
    units = [tank("t", "a", "0103"), inf("e1", "b", "0402"), inf("e2", "b", "0404")]
    s = at_phase(start(units), "Movement", "a")
    zone = C._zone(s, "a")
    reach = {s.rules.grid.parse(h) for h in moves_of(s, "t")}
    assert reach & zone  # it may enter the zone ...
    # ... but goes no further: whatever it reaches outside the zone it reaches without touching it
    g = s.game
    mv = C._mover(s, "t")
    start_ = s.pos["t"]
    assert start_ is not None
    around = mk.reachable(g, s.rules.ordinary_board, mv, start_, Fraction(6), s.states, enemy=zone, ezoc=set())
    assert reach - zone <= set(around)
    d = _tiny(units)
    d["rules"]["zoc"] = {"stop_on_enter": False}
    s2 = at_phase(C.initial(game_of(d)), "Movement", "a")
    assert {s2.rules.grid.parse(h) for h in moves_of(s2, "t")} - reach


def test_mud_caps_armour_at_one_hex_and_halves_foot() -> None:
    s = at_phase(start([tank("t", "a", "0103"), inf("i", "a", "0105"), inf("e", "b", "0705")]), "Movement", "a", turn=2)
    g = s.rules.grid
    assert all(g.distance(g.parse("0103"), g.parse(h)) == 1 for h in moves_of(s, "t", C.ORDINARY))
    assert max(g.distance(g.parse("0105"), g.parse(h)) for h in moves_of(s, "i", C.ORDINARY)) == 2  # 3 -> 2


def test_each_unit_moves_once_a_phase() -> None:
    s = at_phase(start([inf("i", "a", "0203"), inf("e", "b", "0705")]), "Movement", "a")
    C.apply(s, C.Move("i", "0303"))
    assert not any(isinstance(a, C.Move) and a.unit == "i" for a in C.legal_actions(s))
    with pytest.raises(C.IllegalAction):
        C.apply(s, C.Move("i", "0304"))


# ================================================================================================ combat
def fight(
    units: list[dict[str, Any]], target: str, attackers: tuple[str, ...], die: int, d: dict[str, Any] | None = None
) -> C.State:
    s = at_phase(C.initial(game_of(d)) if d is not None else start(units), "Combat", "a")
    C.apply(s, C.Attack(target, attackers), C.ScriptedDice([die]))
    return s


def test_a_retreat_with_no_open_hex_eliminates_the_unit() -> None:
    # d in 0103 on the west edge: every hex two steps back is off the map, held or in a zone of a's units
    units = [inf("d", "b", "0102"), inf("a1", "a", "0202"), inf("a2", "a", "0201"), inf("a3", "a", "0103")]
    s = fight(units, "0102", ("a1",), CODES.index("DR") + 1)
    assert s.status["d"] == "eliminated"


def test_a_retreat_goes_two_hexes_and_never_into_a_zone() -> None:
    units = [inf("d", "b", "0403"), inf("x", "a", "0303")]
    s = fight(units, "0403", ("x",), CODES.index("DR") + 1)
    acts = C.legal_actions(s)
    assert acts
    assert all(isinstance(a, C.Retreat) for a in acts)
    zone = C._zone(s, "b")
    for a in acts:
        assert isinstance(a, C.Retreat)
        assert len(a.path) == 2
        assert not {s.rules.grid.parse(h) for h in a.path} & zone


def test_an_exchange_costs_the_attacker_at_least_the_defence_lost() -> None:
    # defender 4 defence; attackers 4-4 and 6-4 (steps worth 2 and 3 attack): losing the tank's first step (3)
    # is not enough, a second step must go
    units = [inf("d", "b", "0403", ("2-4-3",)), inf("i", "a", "0303"), tank("t", "a", "0402")]
    s = fight(units, "0403", ("i", "t"), CODES.index("EX") + 1)
    assert s.status["d"] == "eliminated"
    assert set(C.legal_actions(s)) == {C.LoseStep("i"), C.LoseStep("t")}
    C.apply(s, C.LoseStep("t"))  # 6 -> 3: three attack factors, short of 4
    assert set(C.legal_actions(s)) == {C.LoseStep("i"), C.LoseStep("t")}
    C.apply(s, C.LoseStep("i"))  # 4 -> 2: five in all
    assert not any(isinstance(a, C.LoseStep) for a in C.legal_actions(s))
    assert s.steps["t"] == 1
    assert s.steps["i"] == 1


def test_advance_after_combat_takes_the_emptied_hex_and_its_control() -> None:
    units = [inf("d", "b", "0403"), inf("x", "a", "0303"), inf("y", "a", "0504")]
    s = fight(units, "0403", ("x", "y"), CODES.index("DE") + 1)
    acts = C.legal_actions(s)
    assert set(acts) == {C.Advance("x", "0403"), C.Advance("y", "0403"), C.EndAdvance()}
    assert s.control[s.rules.grid.parse("0403")] == "b"
    C.apply(s, C.Advance("y", "0403"))
    assert s.pos["y"] == s.rules.grid.parse("0403")
    assert s.control[s.rules.grid.parse("0403")] == "a"


def test_each_unit_and_each_hex_once_a_phase() -> None:
    units = [inf("d", "b", "0403"), inf("d2", "b", "0404"), inf("x", "a", "0303"), inf("y", "a", "0304")]
    s = fight(units, "0403", ("x",), CODES.index("NE") + 1)
    targets = {(a.target, a.attackers) for a in C.legal_actions(s) if isinstance(a, C.Attack)}
    assert all(t != "0403" for t, _ in targets)
    assert all("x" not in atk for _, atk in targets)
    with pytest.raises(C.IllegalAction):
        C.apply(s, C.Attack("0403", ("y",)), C.ScriptedDice([6]))


def test_odds_floor_and_ceiling_and_terrain() -> None:
    s = at_phase(start([inf("d", "b", "0503"), inf("x", "a", "0403")]), "Combat", "a")
    g = s.rules.grid
    assert C.odds(s, g.parse("0503"), ["x"])[:2] == (4, 8)  # forest doubles
    assert C.crt_cell(s, g.parse("0503"), ["x"], C.ScriptedDice([1]))[0] == "DE"  # 4:8 is 1:2, die 1
    s2 = at_phase(start([inf("d", "b", "0603", ("1-1-3",)), tank("x", "a", "0503", ("9-1-6",))]), "Combat", "a")
    assert C.crt_cell(s2, g.parse("0603"), ["x"], C.ScriptedDice([4]))[1].startswith("3:1")  # 9:1 read at 3:1
    s3 = at_phase(start([inf("d", "b", "0603", ("1-9-3",)), inf("x", "a", "0503", ("1-1-3",))]), "Combat", "a")
    cell, _ = C.crt_cell(s3, g.parse("0603"), ["x"], C.ScriptedDice([]))  # below 1:2: no roll
    assert cell == "AE"


# ================================================================================================ replacements
def _cut_off(ring: tuple[str, ...]) -> dict[str, Any]:
    d = _tiny([inf("a1", "a", "0203"), inf("gone", "a", "0204"), *(inf(f"b{k}", "b", h) for k, h in enumerate(ring))])
    d["map"]["hexes"]["0606"] = {}
    d["map"]["hexes"]["0605"] = {"name": "Far", "features": ["city"]}
    d["rules"]["play"]["control"]["initial"]["a"] = ["0101", "0605"]
    d["turns"]["turns"][0]["replacements"] = {"a": 2}
    return d


def test_replacements_only_in_communication_and_lost_if_unused() -> None:
    d = _cut_off(("0705",))
    s = C.initial(game_of(d))
    C._eliminate(s, "gone")
    s.steps["a1"] = 1
    at_phase(s, "Replacements", "a")
    acts = set(C.legal_actions(s))
    assert C.Restore("a1") in acts
    assert C.Return("gone", "0101") in acts
    assert C.Return("gone", "0605") not in acts  # in the zone of the enemy unit in 0705
    # b's units across the map between 0605 and the west edge: no line, so no return there even out of zones
    d2 = _cut_off(("0401", "0402", "0403", "0404", "0405", "0705"))
    d2["rules"]["play"]["replacements"]["not_in_enemy_zoc"] = False
    s2 = C.initial(game_of(d2))
    C._eliminate(s2, "gone")
    at_phase(s2, "Replacements", "a")
    acts2 = set(C.legal_actions(s2))
    assert C.Return("gone", "0101") in acts2
    assert C.Return("gone", "0605") not in acts2
    d2["rules"]["play"]["replacements"]["communication"] = False
    s2b = C.initial(game_of(d2))
    C._eliminate(s2b, "gone")
    at_phase(s2b, "Replacements", "a")
    assert C.Return("gone", "0605") in set(C.legal_actions(s2b))  # the line was what kept it out
    C.apply(s2, C.EndPhase())
    assert s2.points.get("a", 0) == 0  # unused points are lost
    # with carry_over the points stay
    d3 = copy.deepcopy(d2)
    d3["rules"]["play"]["replacements"]["carry_over"] = True
    s3 = C.initial(game_of(d3))
    at_phase(s3, "Replacements", "a")
    before = s3.points["a"]
    C.apply(s3, C.EndPhase())
    assert s3.points["a"] == before >= 2


def test_a_restored_step_costs_points() -> None:
    d = _tiny([inf("a1", "a", "0203"), inf("e", "b", "0705")])
    d["turns"]["turns"][0]["replacements"] = {"a": 1}
    s = C.initial(game_of(d))
    s.steps["a1"] = 1
    s.lost_steps["a"] = 1
    at_phase(s, "Replacements", "a")
    C.apply(s, C.Restore("a1"))
    assert s.steps["a1"] == 2
    assert s.points["a"] == 0
    assert s.lost_steps["a"] == 0


# ================================================================================================ control, victory
def test_control_changes_on_entry() -> None:
    s = at_phase(start([inf("x", "a", "0303"), inf("e", "b", "0705")]), "Movement", "a")
    g = s.rules.grid
    assert s.control[g.parse("0403")] == "b"
    C.apply(s, C.Move("x", "0403"))
    assert s.control[g.parse("0403")] == "a"


def test_victory_by_holding_and_by_levels() -> None:
    hold = [{"hexes": ["0403"], "at": "end"}]
    s = start([inf("x", "a", "0303"), inf("e", "b", "0705")], hold=hold)
    s.control[s.rules.grid.parse("0403")] = "a"
    assert C._final(s).winner == "a"
    s.control[s.rules.grid.parse("0403")] = "b"
    assert C._final(s).winner == "b"
    # levels on the VP difference (a's VP less b's): a holds Home (1), b holds Cap (5) -> -4
    d = _tiny([inf("x", "a", "0303"), inf("e", "b", "0705")])
    d["victory"] = {
        "summary": "x",
        "points": [{"text": "steps", "per": "enemy-step", "vp": 1}],
        "levels": [{"id": "a-wins", "side": "a", "min": 0}, {"id": "b-wins", "side": "b", "max": -1}],
    }
    s2 = C.initial(game_of(d))
    r = C._final(s2)
    assert (r.vp, r.winner, r.level) == ((1, 5), "b", "b-wins")
    s2.lost_steps["b"] = 4  # four enemy steps: 1 + 4 - 5 = 0
    assert C._final(s2).level == "a-wins"


def test_sudden_death_ends_the_game_at_the_end_of_a_turn() -> None:
    hold = [{"hexes": ["0403"], "side": "a", "at": "turn-end"}]
    s = start([inf("x", "a", "0303"), inf("e", "b", "0705")], hold=hold)
    s.control[s.rules.grid.parse("0403")] = "a"
    s.slot = len(s.rules.slots) - 1
    s.tasks = []
    C._end_slot(s)
    assert s.result is not None
    assert s.result.winner == "a"
    assert s.turn == 1


def test_problems_name_what_is_missing() -> None:
    d = _tiny([inf("x", "a", "0303")])
    d["combat"]["crt"]["cells"][0][0] = "ZZ"
    d["rules"]["play"]["score"] = "nobody"
    d["turns"]["turns"][0]["weather"] = None
    got = C.problems(game_of(d))
    assert any("'ZZ'" in p for p in got)
    assert any("rules.play.score" in p for p in got)
    assert any("turn 1: the weather" in p for p in got)
    with pytest.raises(UnplayableGameError):
        C.initial(game_of(d))


def test_the_engine_is_chosen_by_the_crt_cells() -> None:
    assert C.selects(load(DATA / "halden_line.yaml"))
    assert not C.selects(load(DATA / "hells_gate.yaml"))
    assert C.ENGINE.problems(load(DATA / "hells_gate.yaml"))


# ================================================================================================ properties
HEXES = [f"{c:02d}{r:02d}" for c in range(1, 8) for r in range(1, 6)]


@st.composite
def positions(draw: st.DrawFn) -> tuple[m.Game, str]:
    cells = draw(st.lists(st.sampled_from(HEXES), min_size=3, max_size=9, unique=True))
    n_a = draw(st.integers(1, len(cells) - 1))
    units = [(tank if draw(st.booleans()) else inf)(f"u{k}", "a" if k < n_a else "b", h) for k, h in enumerate(cells)]
    mud = draw(st.booleans())
    return game_of(_tiny(units)), "mud" if mud else "dry"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_every_offered_move_is_one_the_kit_allows(pos: tuple[m.Game, str]) -> None:
    g, weather = pos
    s = at_phase(C.initial(g), "Movement", "a", turn=2 if weather == "mud" else 1)
    grid = s.rules.grid
    enemy = set(s.cells_of("b"))
    board = mk.Board.of(g)
    for a in C.legal_actions(s):
        if not isinstance(a, C.Move):
            continue
        to = grid.parse(a.to)
        assert to not in enemy
        assert C._stack_ok(s, a.unit, to)
        start_ = s.pos[a.unit]
        assert start_ is not None
        mv = C._mover(s, a.unit)
        if a.mode == C.ORDINARY:
            entry = mk.allowance_entry(g, mv, s.states)
            assert entry is not None
            mp = mk.allowance(g, mv, s.states)
            if mp is not None and entry.hexes is None:
                reach = mk.reachable(
                    g, s.rules.ordinary_board, mv, start_, mp, s.states, enemy=enemy, ezoc=C._zone(s, "a")
                )
                assert to in reach
            else:
                assert entry.hexes is not None
                assert grid.distance(start_, to) <= entry.hexes
        else:
            md = s.rules.modes[a.mode]
            path = _rail_path(s, start_, to, md.path)
            v = mk.mode_verdict(g, board, mv, md, path, s.states, enemy=enemy, ezoc=C._zone(s, "a"))
            assert v.legal is True, v.why


def _rail_path(s: C.State, a: Any, b: Any, kind: str) -> list[Any]:
    """The shortest path from a to b along ``kind`` (breadth first)."""
    board = s.rules.board
    prev = {a: None}
    frontier = [a]
    while frontier:
        nxt = []
        for c in frontier:
            for n in s.rules.nbrs[c]:
                if n not in prev and kind in board.path_kinds(c, n):
                    prev[n] = c
                    nxt.append(n)
        frontier = nxt
    out = [b]
    while out[-1] != a:
        out.append(prev[out[-1]])
    return out[::-1]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_a_retreat_never_enters_an_enemy_zone_or_hex(pos: tuple[m.Game, str]) -> None:
    g, _ = pos
    s = C.initial(g)
    for u in s.on_map("b"):
        for path in C.retreat_paths(s, u, 2):
            cells = set(path)
            enemy = set(s.cells_of("a"))
            near_enemy = {n for c in enemy for n in s.rules.nbrs[c]}
            assert not cells & enemy
            assert not cells & near_enemy  # rules.retreat.enemy_zoc: always


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(0, 10**6))
def test_random_play_always_ends_with_a_result(pos: tuple[m.Game, str], seed: int) -> None:
    """Random legal actions end the game, and after every action no hex holds both sides or more than the
    stacking limit, and every unit on the map has a step left."""
    g, _ = pos
    s = C.initial(g)
    rng = random.Random(seed)
    dice = C.Dice(seed)
    for _ in range(5000):
        if s.result is not None:
            break
        acts = C.legal_actions(s)
        C.apply(s, acts[rng.randrange(len(acts))], dice)
        for us in s.occupancy().values():
            assert len({s.rules.pieces[u].side for u in us}) == 1, s.log[-3:]
            if not s.tasks:  # a retreat or an advance in progress may pass through a full hex
                assert len(us) <= 2
            assert all(s.steps[u] >= 1 for u in us)
    assert s.result is not None
    assert C.legal_actions(s) == []


# ================================================================================================ the demo game
@pytest.fixture(scope="module")
def halden() -> m.Game:
    return load(DATA / "halden_line.yaml")


def test_the_demo_game_is_playable(halden: m.Game) -> None:
    assert C.problems(halden) == []
    s = C.initial(halden)
    assert s.current.phase.name == "Movement"
    assert s.current.side == "red"
    assert len(s.on_map()) == 32
    assert sum(1 for v in s.status.values() if v == "waiting") == 4


def test_twenty_seeded_demo_games_finish_deterministically(halden: m.Game) -> None:
    digests = {}
    for seed in range(20):
        s = C.play_random(halden, seed)
        assert s.result is not None
        assert s.turn == 7 or s.result.reason.startswith("holds")
        digests[seed] = s.digest()
    for seed in (0, 7, 19):
        assert C.play_random(halden, seed).digest() == digests[seed]
    assert len(set(digests.values())) == 20  # the seeds do play different games


def test_rail_across_the_demo_map(halden: m.Game) -> None:
    s = C.initial(halden)
    assert moves_of(s, "v-a1", "rail") == set()  # red's phase: a blue unit is not offered
    at_phase(s, "Movement", "blue")
    rail = moves_of(s, "v-a1", "rail")
    assert {"0305", "0405", "0605", "0706", "0707"} <= rail  # both ways along the trunk line and the Brask branch
    assert "0805" not in rail  # the 7th Division's hex, but next to Korrin's 4th Infantry: no train into a zone
    assert Fraction(0) not in C.ordinary_moves(s, "v-a1").values()


# ================================================================================================ forge check
HALDEN = (DATA / "halden_line.yaml").read_text("utf-8")


@pytest.mark.parametrize(
    ("old", "new", "where", "expected"),
    [
        ("path: railway, hexes: 12", "path: railroad, hexes: 12", "rules.movement.modes[0].path", "path terrain"),
        (
            "- {phase: Mechanized Movement, mobility",
            "- {phase: Mech Movement, mobility",
            "rules.play.phases[0].phase",
            "did you mean 'Mechanized Movement'",
        ),
        ("    hold:\n", "    exchange: [EX]\n    hold:\n", "rules.play.exchange", "unknown key"),
        ('{hexes: ["0305"], side: red', '{hexes: ["1305"], side: red', "rules.play.hold[0].hexes[0]", "off the map"),
        ("initial: {red: [", "initial: {reds: [", "rules.play.control.initial.reds", "did you mean 'red'"),
        ("score: difference", "score: total", "rules.play.score", "'difference' or a side"),
    ],
)
def test_check_locates_bad_names_in_modes_and_play(old: str, new: str, where: str, expected: str) -> None:
    assert old in HALDEN
    with pytest.raises(LoadError) as e:
        loads(HALDEN.replace(old, new), "game.yaml")
    msgs = [str(p) for p in e.value.problems]
    assert len(msgs) == 1
    assert msgs[0].startswith("game.yaml:")
    assert where in msgs[0]
    assert expected in msgs[0]


# ================================================================================================ more mechanics
def test_a_rate_mode_pays_from_the_allowance_and_ignores_mud() -> None:
    d = _tiny([inf("r", "a", "0201"), inf("e", "b", "0705")])
    d["rules"]["movement"]["modes"] = [
        {"id": "road-march", "path": "rail", "rate": 0.5, "ignores": ["mud"], "enemy_zoc": "as-movement"}
    ]
    s = at_phase(C.initial(game_of(d)), "Movement", "a", turn=2)  # mud: ordinary moves have 2 of 3 MPs
    g = s.rules.grid
    road = moves_of(s, "r", "road-march")
    assert road == {"0101", "0301", "0401", "0501", "0601", "0701"}  # 3 MPs at 1/2 a hex: all of the line
    assert max(g.distance(g.parse("0201"), g.parse(h)) for h in moves_of(s, "r", C.ORDINARY)) == 2
    d["rules"]["movement"]["modes"][0]["ignores"] = []
    s2 = at_phase(C.initial(game_of(d)), "Movement", "a", turn=2)
    assert moves_of(s2, "r", "road-march") == {"0101", "0301", "0401", "0501", "0601"}  # 2 MPs: four hexes


def test_a_phase_limited_to_some_turns_is_skipped_on_the_others() -> None:
    d = _tiny([tank("t", "a", "0203"), inf("e", "b", "0705")])
    d["rules"]["play"]["phases"][0]["turns"] = [2]
    s = C.initial(game_of(d))
    seen = []
    while s.result is None:
        seen.append((s.turn, s.current.phase.name, s.current.side))
        C.apply(s, C.EndPhase())
    assert (1, "Mechanized Movement", "a") not in seen
    assert (2, "Mechanized Movement", "a") in seen


def test_a_phase_limited_to_unit_types() -> None:
    d = _tiny([tank("t", "a", "0203"), inf("i", "a", "0205"), inf("e", "b", "0705")])
    d["rules"]["play"]["phases"][0] = {"phase": "Mechanized Movement", "unit_types": ["infantry"]}
    s = at_phase(C.initial(game_of(d)), "Mechanized Movement", "a")
    assert {a.unit for a in C.legal_actions(s) if isinstance(a, C.Move)} == {"i"}


def test_reinforcements_arrive_at_their_hex_unless_the_enemy_holds_it() -> None:
    d = _tiny([inf("late", "a", None, entry={"turn": 1, "hex": "0103"}), inf("e", "b", "0705")])
    s = C.initial(game_of(d))
    assert s.status["late"] == "map"
    assert s.pos["late"] == s.rules.grid.parse("0103")
    d2 = _tiny([inf("late", "a", None, entry={"turn": 1, "hex": "0103"}), inf("e", "b", "0103")])
    s2 = C.initial(game_of(d2))
    assert s2.status["late"] == "waiting"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_the_fast_search_finds_what_the_general_one_finds(pos: tuple[m.Game, str]) -> None:
    """The search on hex numbers (no per-move limits) and the general search over (hex, limits, stop) agree."""
    g, weather = pos
    s = at_phase(C.initial(g), "Movement", "a", turn=2 if weather == "mud" else 1)
    for u in s.on_map("a"):
        mv = C._mover(s, u)
        entry = mk.allowance_entry(g, mv, s.states)
        assert entry is not None
        mp = mk.allowance(g, mv, s.states)
        budget = mp if mp is not None else Fraction(10**6)
        cap = entry.hexes if isinstance(entry.hexes, int) else None
        start_ = s.pos[u]
        assert start_ is not None
        enemy = set(s.cells_of("b"))
        ezoc = C._zone(s, "a")
        fast = C._search_fast(s, mv, start_, budget, cap, s.states, enemy, ezoc)
        slow = C._search(s, mv, start_, budget, cap, s.states, enemy, ezoc)
        assert fast == slow


# ================================================================================================ forge verify
@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ("exchange_at_least: 4}", "exchange_at_least: 5}", "exchange_at_least"),
        ("may_advance: [k-a2, k-a3]", "may_advance: [k-a2]", "may_advance"),
        ("states: {result: AE, eliminated: [k-1, k-2]}", "states: {result: AR, eliminated: [k-1, k-2]}", "result"),
        ('states: {hexes: ["0802", "0804",', 'states: {hexes: ["0803", "0804",', "hexes"),
        ("states: {result: AE, eliminated: [k-9]}", "states: {result: AE, eliminated: []}", "eliminated"),
    ],
)
def test_verify_plays_combat_examples_through_the_engine(old: str, new: str, key: str) -> None:
    from forge.verifier import verify

    assert old in HALDEN
    clean = verify(loads(HALDEN, "game.yaml"))
    assert not [f for f in clean if f.kind.startswith("example")]
    found = verify(loads(HALDEN.replace(old, new, 1), "game.yaml"))
    bad = [f for f in found if f.kind == "example-mismatch"]
    assert len(bad) == 1
    assert f"states {key} =" in bad[0].message


def test_step_losses_and_a_step_instead_of_a_retreat() -> None:
    d = _tiny([inf("d1", "b", "0403"), inf("d2", "b", "0403"), inf("x", "a", "0303")])
    d["combat"]["results"]["NE"] = {"meaning": "x", "defender_steps": 1}
    d["combat"]["results"]["DR"] = {"meaning": "x", "defender_retreat": 2, "step_instead_of_retreat": True}
    s = fight(d["units"], "0403", ("x",), 6, d=d)
    assert set(C.legal_actions(s)) == {C.LoseStep("d1"), C.LoseStep("d2")}  # the defender chooses who pays
    C.apply(s, C.LoseStep("d2"))
    assert s.steps["d2"] == 1
    assert s.steps["d1"] == 2
    s2 = fight(d["units"], "0403", ("x",), CODES.index("DR") + 1, d=d)
    acts = C.legal_actions(s2)
    assert C.LoseStep("d1") in acts
    assert any(isinstance(a, C.Retreat) for a in acts)


def test_a_differential_crt() -> None:
    d = _tiny([inf("d", "b", "0403"), inf("x", "a", "0303", ("9-1-3",))])
    d["combat"]["kind"] = "differential"
    d["combat"]["crt"]["columns"] = ["-1", "0", "+1", "+3+"]
    d["combat"]["crt"].pop("below")
    d["combat"]["crt"].pop("above")
    d["combat"]["crt"]["cells"] = [["NE", "NE", "DR", "DE"]] * 6
    s = at_phase(C.initial(game_of(d)), "Combat", "a")
    assert C.crt_cell(s, s.rules.grid.parse("0403"), ["x"], C.ScriptedDice([2]))[0] == "DE"  # 9 - 4 = +5


def test_a_phase_limited_to_a_movement_mode() -> None:
    d = _tiny([inf("r", "a", "0201"), inf("e", "b", "0705")])
    d["rules"]["play"]["phases"].append({"phase": "Movement", "modes": ["train"]})
    s = at_phase(C.initial(game_of(d)), "Movement", "a")
    moves = [a for a in C.legal_actions(s) if isinstance(a, C.Move)]
    assert moves
    assert {a.mode for a in moves} == {"train"}
    d["rules"]["play"]["phases"][-1]["modes"] = ["ordinary"]
    s2 = at_phase(C.initial(game_of(d)), "Movement", "a")
    assert {a.mode for a in C.legal_actions(s2) if isinstance(a, C.Move)} == {C.ORDINARY}
    d["rules"]["play"]["phases"][-1]["modes"] = ["trian"]
    assert any("'trian'" in p for p in C.problems(game_of(d)))


# ================================================================================================ the combat kit
def _combat_game(units: list[dict[str, Any]], **combat: Any) -> dict[str, Any]:
    d = _tiny(units)
    d["combat"].update(combat)
    return d


def test_mud_halves_the_attack_in_play() -> None:
    # 17 against 4: 4.25 to 1 on a dry turn (read on 3:1, the last column); halved to 8 in mud: 2:1
    mud = {"id": "mud", "role": "attacker", "when": "mud", "multiply": "1/2", "rounding": "down", "per_unit": False,
           "condition": {"weather": "mud"}}
    units = [inf("d", "b", "0403"), inf("x", "a", "0303", ("9-4-3",)), inf("y", "a", "0504", ("8-4-3",))]
    g = game_of(_combat_game(units, modifiers=[mud]))
    assert C.problems(g) == []
    for turn, att, column in ((1, 17, "3:1"), (2, 8, "2:1")):
        s_ = at_phase(C.initial(g), "Combat", "a", turn=turn)
        assert C.odds(s_, s_.rules.grid.parse("0403"), ["x", "y"])[:2] == (att, 4)
        C.apply(s_, C.Attack("0403", ("x", "y")), C.ScriptedDice([6]))
        assert f"({column}, die 6)" in s_.log[-1]
    # per unit and rounded up instead: 5 + 4 = 9 against 4 is 2:1 as well, but the total differs
    each = mud | {"per_unit": True, "rounding": "up"}
    s = at_phase(C.initial(game_of(_combat_game(units, modifiers=[each]))), "Combat", "a", turn=2)
    assert C.odds(s, s.rules.grid.parse("0403"), ["x", "y"])[:2] == (9, 4)


def test_a_conditioned_shift_is_played() -> None:
    # a river between 0303 and 0403: an attack made only across it shifts one column left
    river = {"id": "river", "when": "all across", "shift": -1,
             "condition": {"role": "attacker", "across": ["river"], "units": "all"}}
    defended = {"id": "held", "when": "b defends", "shift": 1, "condition": {"defender_side": "a"}}
    units = [inf("d", "b", "0403"), inf("x", "a", "0303"), inf("y", "a", "0504")]
    d = _combat_game(units, shifts=[river, defended])
    d["terrain"]["river"] = {"name": "River", "kind": "hexside", "movement": {"foot": 1, "mech": 1}}
    d["map"]["hexsides"] = [{"between": ["0303", "0403"], "features": ["river"]}]
    g = game_of(d)
    assert C.problems(g) == []
    s = at_phase(C.initial(g), "Combat", "a")
    target = s.rules.grid.parse("0403")
    assert C.assess(s, target, ["x"]).shifts == (("river", -1),)
    assert C.odds(s, target, ["x"]) == (4, 4, -1)
    assert C.crt_cell(s, target, ["x"], C.ScriptedDice([6]))[1] == "1:2, die 6"  # 1:1 shifted left
    assert C.assess(s, target, ["x", "y"]).shifts == ()  # y does not attack across the river
    assert C.crt_cell(s, target, ["x", "y"], C.ScriptedDice([6]))[1] == "2:1, die 6"


def test_an_exchange_in_steps_and_one_that_takes_every_attacker() -> None:
    # the defender (two steps) is eliminated: the attacker loses at least two steps
    units = [inf("d", "b", "0403"), inf("x", "a", "0303"), inf("y", "a", "0504")]
    d = _tiny(units)
    d["combat"]["results"]["EX"]["exchange"] = "steps"
    s = fight(units, "0403", ("x", "y"), CODES.index("EX") + 1, d)
    assert s.status["d"] == "eliminated"
    assert set(C.legal_actions(s)) == {C.LoseStep("x"), C.LoseStep("y")}
    C.apply(s, C.LoseStep("x"))
    assert set(C.legal_actions(s)) == {C.LoseStep("x"), C.LoseStep("y")}  # one step of two
    C.apply(s, C.LoseStep("y"))
    assert not any(isinstance(a, C.LoseStep) for a in C.legal_actions(s))
    assert (s.steps["x"], s.steps["y"]) == (1, 1)
    # in strength points: a defence of 7 (4 to 7 is 1:2) against one 4-4-3 (4 points in all): the attacker is
    # eliminated
    units = [inf("d", "b", "0403", ("2-7-3",)), inf("x", "a", "0303", ("4-4-3", "2-2-3"))]
    s = fight(units, "0403", ("x",), CODES.index("EX") + 1, _tiny(units))
    assert s.status["d"] == "eliminated"
    assert s.status["x"] == "eliminated"


def test_advance_only_after_the_results_that_allow_it() -> None:
    units = [inf("d", "b", "0403"), inf("x", "a", "0303"), inf("d2", "b", "0405")]
    d = _tiny(units)
    d["combat"]["results"]["DR"]["advance"] = "attacker"  # DE (and EX) without: the hex is left empty
    s = fight(units, "0403", ("x",), CODES.index("DE") + 1, d)
    assert s.status["d"] == "eliminated"
    assert not any(isinstance(a, C.Advance) for a in C.legal_actions(s))
    s = fight(units, "0403", ("x",), CODES.index("DR") + 1, d)
    while s.tasks and s.tasks[0].kind == "retreat":
        C.apply(s, C.legal_actions(s)[0])
    assert C.Advance("x", "0403") in C.legal_actions(s)


def test_attacks_per_unit_and_per_defender_from_the_data() -> None:
    units = [inf("d", "b", "0403"), inf("x", "a", "0303"), inf("y", "a", "0304")]
    d = _combat_game(units, attacks_per_defender=2, attacks_per_unit=1)
    s = fight(units, "0403", ("x",), CODES.index("NE") + 1, d)
    attacks = {a for a in C.legal_actions(s) if isinstance(a, C.Attack)}
    assert C.Attack("0403", ("y",)) in attacks  # the hex may be attacked once more
    assert all("x" not in a.attackers for a in attacks)
    C.apply(s, C.Attack("0403", ("y",)), C.ScriptedDice([6]))
    assert not any(isinstance(a, C.Attack) for a in C.legal_actions(s))
    with pytest.raises(C.IllegalAction):
        C.apply(s, C.Attack("0403", ("x",)), C.ScriptedDice([6]))


def test_problems_name_the_combat_rules_not_played() -> None:
    units = [inf("x", "a", "0303")]
    d = _combat_game(
        units,
        shifts=[{"id": "words", "when": "a KG is near", "shift": 1},
                {"id": "air", "when": "air support", "shift": 1, "condition": "air-support"}],
        modifiers=[{"id": "m", "role": "attacker", "when": "x", "multiply": "2", "condition": {"weather": "mud"}}],
    )
    d["combat"]["results"]["EX"]["exchange_strength"] = "current"
    d["combat"]["results"]["NE"]["attacker_choice"] = ["DR", "AR"]
    d["combat"]["results"]["DR"]["advance"] = "either"
    got = C.problems(game_of(d))
    assert any("'words'" in p and "in words only" in p for p in got)
    assert any("'air'" in p and "air support" in p for p in got)
    assert not any("modifier" in p for p in got)  # a modifier on the weather is played
    assert any("exchange_strength" in p for p in got)
    assert any("attacker_choice" in p for p in got)
    assert any("EX" not in p and ".advance" in p for p in got)


def test_the_demo_game_starts_from_zones_reduced_steps_and_the_pool(halden: m.Game) -> None:
    from forge.rules.kit import setup as kit_setup

    s = C.initial(halden)
    zone = set(kit_setup.zone_hexes(halden, "sellin-line"))
    line = [u for u in s.pos if halden.units[[x.id for x in halden.units].index(u)].setup_zone == "sellin-line"]
    assert len(line) == 6
    assert all(s.label(c) in zone for u in line if (c := s.pos[u]) is not None)
    assert (s.steps["v-2"], s.steps["k-11"], s.steps["k-1"]) == (1, 1, 2)
    assert {u for u, st in s.status.items() if st == "eliminated"} == {"k-13", "v-12", "v-13"}
    assert s.face("k-a1").attack == s.face("k-a1").defense == 8  # strength-movement: "8-6"
    assert s.rules.pool_from == {"k-13": 4, "v-12": 3, "v-13": 5}


def test_the_demo_games_mud_example_gives_in_play_what_verify_gives(halden: m.Game) -> None:
    # examples "mud-halves-the-attack": 6 + 6 + 5 = 17 on turn 3 (mud), halved to 8, against 4: 2:1, no river shift
    s = at_phase(C.initial(halden), "Combat", "red", turn=3)
    g = s.rules.grid
    for u, h in (("k-m1", "0801"), ("k-m2", "0803"), ("k-1", "0902")):
        C._enter(s, u, g.parse(h))
    o = C.assess(s, g.parse("0802"), ["k-m1", "k-m2", "k-1"])
    assert (o.attack, o.defense, o.shifts, o.modifiers) == (8, 4, (), ("mud",))
    assert C.crt_cell(s, g.parse("0802"), ["k-m1", "k-m2", "k-1"], C.ScriptedDice([3])) == ("EX", "2:1, die 3")
    s.turn = 1  # dry: 17 to 4 is 4:1
    assert C.crt_cell(s, g.parse("0802"), ["k-m1", "k-m2", "k-1"], C.ScriptedDice([3]))[1] == "4:1, die 3"


def test_a_supply_condition_reads_the_position() -> None:
    # attacking out of supply halves a unit's strength; a wall of enemy units in column 02 cuts x off from its edge
    half = {"id": "oos", "role": "attacker", "when": "unsupplied", "multiply": "1/2",
            "condition": "attacker-unsupplied"}
    units = [inf("d", "b", "0403"), inf("x", "a", "0303")]
    g = game_of(_combat_game(units, modifiers=[half]))
    assert C.problems(g) == []
    s = at_phase(C.initial(g), "Combat", "a")
    assert C.odds(s, s.rules.grid.parse("0403"), ["x"])[:2] == (4, 4)
    wall = [inf(f"w{r}", "b", f"020{r}") for r in range(1, 6)]
    s = at_phase(C.initial(game_of(_combat_game([*units, *wall], modifiers=[half]))), "Combat", "a")
    assert C.odds(s, s.rules.grid.parse("0403"), ["x"])[:2] == (2, 4)


def test_replacing_a_pool_unit_or_a_reduced_start_is_no_negative_loss(halden: m.Game) -> None:
    # turn 3: Varland has 2 points; the 2nd Division started reduced and the 12th is in the pool (from turn 3)
    s = C.initial(halden)
    while not (s.turn == 3 and s.current.kind == "reinforcement" and s.current.side == "blue"):
        C.apply(s, C.EndPhase() if not s.tasks else C.legal_actions(s)[0], C.Dice(0))
    s.lost_steps["blue"] = 0
    acts = C.legal_actions(s)
    back = next(a for a in acts if isinstance(a, C.Return) and a.unit == "v-12")
    C.apply(s, back)
    assert s.lost_steps["blue"] == 0
    assert C.score(s)["red"] >= 0
