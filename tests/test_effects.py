"""Special rules' effects (``special_rules[*].effects``, forge.rules.effects) are general mechanisms with their
places in the data: they work on a game they were not written for (Ferry Point), and ``forge check`` refuses an
unknown kind, a key the kind does not take, a missing key, or a place, side, unit or table the game lacks, located.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from forge.errors import LoadError
from forge.loader import loads
from forge.model import Game
from forge.rules import engine as hg
from forge.rules.state import Phase, State, UnitStatus

ROOT = Path(__file__).resolve().parent.parent
FERRY = (ROOT / "data" / "ferry_point.yaml").read_text(encoding="utf-8")
ANCHOR = "special_rules:\n"


def ferry(*effects: str, turns: str = "[1]", extra: str = "") -> Game:
    """Ferry Point with one more special rule ("X1") that has ``effects`` (YAML flow mappings)."""
    rule = f'  - {{rule: "X1", title: Test, turns: {turns}, summary: "test", effects: [{", ".join(effects)}]}}\n'
    assert FERRY.count(ANCHOR) == 1
    return loads(FERRY.replace(ANCHOR, ANCHOR + rule + extra), "ferry_point.yaml")


def refused(*effects: str) -> list[str]:
    with pytest.raises(LoadError) as e:
        ferry(*effects)
    return [str(p) for p in e.value.problems]


def to_movement(s: State, side: str) -> State:
    """End phases until ``side``'s movement phase of the current turn (or the next)."""
    for _ in range(200):
        if s.phase is Phase.MOVEMENT and s.active_side == side:
            return s
        acts = hg.legal_actions(s)
        hg.apply(s, hg.EndPhase() if hg.EndPhase() in acts else acts[0], hg.Dice(1))
    raise AssertionError("no movement phase")


def moves(s: State) -> set[tuple[str, str]]:
    return {(a.unit, a.to) for a in hg.legal_actions(s) if isinstance(a, hg.Move)}


# ============================================================================================= forge check
def test_an_unknown_kind_is_refused_with_the_accepted_kinds_and_a_suggestion() -> None:
    (msg,) = refused("{kind: no-entri, side: red, places: [Holm]}")
    assert "ferry_point.yaml:" in msg
    assert "special_rules[0].effects[0].kind" in msg
    assert "'no-entry'" in msg
    assert "'breakout'" in msg
    assert "did you mean 'no-entry'" in msg


def test_a_key_the_kind_does_not_take_or_a_missing_key_is_refused() -> None:
    (msg,) = refused("{kind: supply-max-length, side: red, length: 2, radius: 1}")
    assert "special_rules[0].effects[0]" in msg
    assert "'radius' does not apply" in msg
    assert "side, length" in msg
    (msg,) = refused("{kind: freeze, side: red, places: [Holm], radius: 1}")
    assert "needs 'released_by'" in msg


def test_an_unknown_place_side_unit_or_table_is_refused_located() -> None:
    msgs = refused(
        "{kind: no-entry, side: redd, places: [Hol]}",
        "{kind: arrival-if-entered, side: blue, units: [red-9], hexes: ['0909']}",
        "{kind: breakout, table: nope, radius: 2}",
    )
    text = "\n".join(msgs)
    assert "effects[0].side: 'redd' is not a known side (did you mean 'red'?)" in text
    assert "effects[0].places[0]: 'Hol' is not a known place" in text
    assert "did you mean 'Holm'?" in text
    assert "effects[1].units[0]: 'red-9' is not a known unit id" in text
    assert "effects[1].hexes[0]: hex '0909' is off the map" in text
    assert "effects[2].table: 'nope' is not a known table id" in text
    assert all(":" in m.split(" ")[0] for m in msgs)  # each one located: file:line:column


# ========================================================================================= the mechanisms
def test_no_entry_closes_a_place_to_one_side_on_the_rule_turns() -> None:
    plain = to_movement(State.initial(ferry("{kind: no-entry, side: red, places: [Holm]}", turns="[6]")), "blue")
    closed = to_movement(State.initial(ferry("{kind: no-entry, side: blue, hexes: ['0401']}")), "blue")
    assert any(to == "0401" for _, to in moves(plain))
    assert moves(closed)
    assert not any(to == "0401" for _, to in moves(closed))
    # nor through it: the tank's two-hex moves whose only route crosses 0401 are gone too
    assert moves(plain) - moves(closed) == {(u, "0401") for u in ("blue-1", "blue-4")} | {
        ("blue-4", "0501"),
        ("blue-4", "0502"),
    }


def test_a_freeze_holds_units_near_a_place_until_the_other_side_comes_near() -> None:
    g = ferry("{kind: freeze, side: blue, hexes: ['0302'], radius: 1, released_by: red}")
    s = to_movement(State.initial(g), "blue")
    frozen = {"blue-1", "blue-2", "blue-4"}  # in 0302 or next to it
    assert {u for u, _ in moves(s)}.isdisjoint(frozen)
    assert moves(s)
    s.tripped[:] = [True] * len(s.tripped)  # a red unit has entered a hex around 0302
    s.scratch.clear()
    assert frozen <= {u for u, _ in moves(s)}


def test_only_types_move_with_a_cap_on_the_units_that_move() -> None:
    s = to_movement(State.initial(ferry("{kind: only-types-move, side: blue, types: [armour]}")), "blue")
    assert {u for u, _ in moves(s)} == {"blue-4"}
    g = ferry("{kind: only-types-move, side: blue, types: [armour, infantry], max_units: 1}")
    s = to_movement(State.initial(g), "blue")
    assert len({u for u, _ in moves(s)}) == 4
    hg.apply(s, next(a for a in hg.legal_actions(s) if isinstance(a, hg.Move)), hg.Dice(1))
    assert (s.turn, s.active_side) == (1, "red")  # the one move ended blue's movement phase
    uncapped = to_movement(State.initial(ferry("{kind: only-types-move, side: blue, types: [infantry]}")), "blue")
    hg.apply(uncapped, next(a for a in hg.legal_actions(uncapped) if isinstance(a, hg.Move)), hg.Dice(1))
    assert uncapped.phase is Phase.MOVEMENT
    assert uncapped.active_side == "blue"
    assert moves(uncapped)


def test_supply_max_length_shortens_the_side_lines_when_judged() -> None:
    s = State.initial(ferry("{kind: supply-max-length, side: blue, length: 0}"))
    assert all(s.oos[u] == (s.pos[u] not in s.board.sources[0]) for u in s.on_map(0))
    assert any(s.oos[u] for u in s.on_map(0))
    long = State.initial(ferry("{kind: supply-max-length, side: blue, length: 9}"))
    assert not any(long.oos[u] for u in long.on_map(0))


def test_an_arrival_waits_on_an_entry_and_never_comes_without_it() -> None:
    text = "{kind: arrival-if-entered, side: blue, units: [red-5], hexes: ['0701']}"
    g = ferry(text, turns="[3]")
    g = g.model_copy(
        update={
            "units": [
                u.model_copy(update={"entry": u.entry.model_copy(update={"condition": "if blue reached 0701"})})
                if u.id == "red-5" and u.entry is not None
                else u
                for u in g.units
            ]
        }
    )
    s = State.initial(g)
    for _ in range(400):
        if s.turn > 3:
            break
        acts = hg.legal_actions(s)
        hg.apply(s, hg.EndPhase() if hg.EndPhase() in acts else acts[0], hg.Dice(1))
    assert s.status_of("red-5") is UnitStatus.WITHDRAWN


def test_a_condition_no_effect_plays_is_a_problem_not_ignored() -> None:
    g = loads(FERRY, "ferry_point.yaml")
    g = g.model_copy(
        update={
            "units": [
                u.model_copy(update={"entry": u.entry.model_copy(update={"condition": "only if it rains"})})
                if u.id == "red-5" and u.entry is not None
                else u
                for u in g.units
            ]
        }
    )
    assert any("'red-5' arrives on a condition no effect plays" in p for p in hg.problems(g))
    assert not hg.problems(loads(FERRY, "ferry_point.yaml"))


def test_an_effect_that_would_do_nothing_is_refused() -> None:
    """Caps that no shift cap cites, a breakout table without its escaping column: refused, not ignored."""
    (msg,) = refused("{kind: caps-while-holding, side: red, holds: Holm, places: [Holm]}")
    assert "effects[0].kind: no shift cap cites rule 'X1'" in msg
    extra = (
        '  - {id: escape, title: Escape, row_header: Roll, columns: ["1-4", "5-6"],\n'
        "     rows: [{label: R, cells: [a, b]}]}\n"
    )
    text = FERRY.replace(ANCHOR, ANCHOR + '  - {rule: "X1", title: T, turns: [1], summary: s, effects: '
                         "[{kind: breakout, table: escape, radius: 2}]}\n")
    assert "\ntables:" not in text
    with pytest.raises(LoadError) as e:
        loads(text + "\ntables:\n" + extra, "ferry_point.yaml")
    assert any("effects[0].table: table 'escape' has no column 'N+'" in str(p) for p in e.value.problems)
