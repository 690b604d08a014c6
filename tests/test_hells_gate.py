"""The Hell's Gate engine (forge.rules.engine, forge.rules.state).

* Scripted replays of the rulebook's turn-1 example with fixed dice, step by step: odds, shifts, hits, the
  only legal retreats, movement, supply, the turn-2 supply limit.
* Special rules set up on purpose: 6.1/6.2 reinforcements, 7.4 overconcentration, 7.5 automatic elimination,
  7.6 mandatory retreats and retreated units left alone, 11.2 Tichonovka, the Korsun freeze and the mud roll,
  11.4 rebuilds, 11.5 breakouts, 12.0 end-of-game supply and scoring.
* Hypothesis: a RuleBasedStateMachine plays random legal actions and checks invariants after every one -- no
  hex holds both sides; steps never grow except by an 11.4 rebuild; the VP tally equals a recount from
  scratch; every offered retreat is into a hex an independent reading of 7.6/11.1/11.2 allows; a combat never
  costs the defender more steps than it had, nor more than its hits unless 7.5/7.6 eliminate the hex.

The rulebook does not give most strengths: :func:`assumed_strengths_for_testing` supplies them, and every
value is an assumption chosen to make the turn-1 example's arithmetic come out as printed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from forge.loader import load
from forge.model import Game, Scenario
from forge.rules import engine as hg
from forge.rules.engine import (
    Action,
    Attack,
    Breakout,
    Declare,
    Dice,
    EndPhase,
    IllegalAction,
    LoseStep,
    Move,
    Rebuild,
    Reinforce,
    Resolve,
    Retreat,
    ScriptedDice,
    apply,
    legal_actions,
    parse_action,
    preview_attack,
    supplied_units,
)
from forge.rules.state import Phase, State, UnitStatus, UnknownStrengthError
from strategies import examples

GAME = load(Path(__file__).resolve().parent.parent / "data" / "hells_gate.yaml")


# ============================================================================================ assumptions
def assumed_strengths_for_testing(game: Game) -> dict[str, list[int]]:
    """Strengths for every Hell's Gate unit, full step first.  ASSUMPTIONS, not the game's values.

    Printed values (the data's) are kept; the rest is chosen so the turn-1 example's arithmetic holds:

    * 29th and 20th Tank Corps [2]: reduced [1] assumed.  48th and 75th Rifle Corps 3: reduced 2 assumed.
    * 21st + 26th Guards Rifle Corps make 7 (the C6 attack): 4 and 3 assumed; reduced 2 each.
    * 20th Guards + 373rd + 294th make 7 (the D6 attack): 3, 2 and 2 assumed; the 254th 2 (like its sisters).
    * 5th Guards Tank Corps: [2] tripled against the 198th's 2 makes 3:1, and with the two C1 divisions (3)
      4:1 (the B2 attack): 5th Guards [2]/[1], 198th 2/1, 180th 2, 337th 1.
    * 180th + 337th (3) against the southern 88th make 3:1: the 88th (south) 1; its northern half 1.
    * 106th + 3rd Panzer defend with 4: 2 and [2]; reduced 1 each.  389th 2 (printed): reduced 1.
    * 72nd 4 (printed), reduced 2.  5th SS [1]: doubled in the C5 woods against the reduced 20th's [1] is 2:1,
      minus woods and one capped supply column = 1:1, as the example says.
    * 11th + 14th Panzer make 5 (tripled 15): [3] and [2]; reduced [2] and [1].  24th Panzer [3]/[2] (a
      guess).
    * 206th 2 (2:1 against one Korps Abteilung B unit of 1); the 34th 2/1 (a guess).
    """
    assumed = {
        "sov-29tc": [2, 1], "sov-20tc": [2, 1], "sov-48rc": [3, 2], "sov-75rc": [3, 2],
        "sov-21grc": [4, 2], "sov-26grc": [3, 2], "sov-20grc": [3, 2],
        "sov-373rd": [2], "sov-294th": [2], "sov-254th": [2],
        "sov-5gtc": [2, 1], "sov-180th": [2], "sov-337th": [1], "sov-206th": [2],
        "ger-389th": [2, 1], "ger-106th": [2, 1], "ger-3pz": [2, 1], "ger-72nd": [4, 2], "ger-5ss": [1],
        "ger-88th-s": [1], "ger-88th-n": [1], "ger-198th": [2, 1], "ger-34th": [2, 1],
        "ger-kab-1": [1], "ger-kab-2": [1], "ger-11pz": [3, 2], "ger-14pz": [2, 1], "ger-24pz": [3, 2],
    }  # fmt: skip
    known = {u.id for u in game.units}
    return {k: v for k, v in assumed.items() if k in known}


ASSUMED = assumed_strengths_for_testing(GAME)


def new_game(game: Game = GAME, **kw: object) -> State:
    return State.initial(game, strengths=ASSUMED, log=True, **kw)  # type: ignore[arg-type]


def strs(actions: Iterable[Action]) -> list[str]:
    return [str(a) for a in actions]


def do(state: State, dice: hg.DiceSource | None, *actions: str | Action) -> State:
    for a in actions:
        apply(state, parse_action(a) if isinstance(a, str) else a, dice)
    return state


def put(state: State, unit: str, label: str | None) -> None:
    """Test surgery: move a unit anywhere (or off the map with None), bypassing the rules."""
    b = state.board
    u = b.unit(unit)
    if state.pos[u] >= 0:
        state._lift(u)
    if label is None:
        state._set_status(u, UnitStatus.WITHDRAWN)
    else:
        if state.status[u] is not UnitStatus.ON_MAP:
            state._set_status(u, UnitStatus.ON_MAP)
        state._place(u, b.hex(label))
    state.scratch.clear()


def advance(state: State, dice: hg.DiceSource, until: object) -> State:
    """Play "end phase" (or the first legal action when ending is not allowed) until ``until(state)``."""
    for _ in range(2000):
        if until(state):  # type: ignore[operator]
            return state
        acts = legal_actions(state)
        assert acts, "the game ended first"
        apply(state, EndPhase() if EndPhase() in acts else acts[0], dice)
    raise AssertionError("never got there")


def at(turn: int, phase: Phase, side: str) -> object:
    return lambda s: s.turn == turn and s.phase is phase and s.active_side == side


def scenario_game(first_turn: int, setup: dict[str, str] | None = None) -> Game:
    sc = Scenario(id="test", name="test", first_turn=first_turn, setup=setup or {})
    return GAME.model_copy(update={"scenarios": [sc]})


def test_doctests() -> None:
    import doctest

    import forge.rules.state

    for module in (hg, forge.rules.state):
        assert doctest.testmod(module).failed == 0


# ============================================================================================= strengths
def test_unknown_strengths_are_refused() -> None:
    with pytest.raises(UnknownStrengthError) as info:
        State.initial(GAME)
    assert "sov-21grc" in info.value.missing
    partial = dict(ASSUMED)
    del partial["ger-72nd"]
    with pytest.raises(UnknownStrengthError) as info:
        State.initial(GAME, strengths=partial)
    assert set(info.value.missing) == {"ger-72nd"}


def test_assumptions_may_not_overrule_the_book() -> None:
    wrong = dict(ASSUMED, **{"sov-29tc": [3, 1]})  # printed [2]
    with pytest.raises(ValueError, match="sov-29tc"):
        State.initial(GAME, strengths=wrong)
    with pytest.raises(ValueError, match="step"):
        State.initial(GAME, strengths=dict(ASSUMED, **{"ger-5ss": [1, 1]}))


def test_initial_state() -> None:
    s = new_game()
    assert s.turn == 1
    assert s.phase is Phase.COMBAT
    assert s.side_to_act == "soviet"
    assert s.weather == "snow"
    assert s.units_at("C7") == ["sov-29tc", "sov-20tc", "sov-48rc", "sov-75rc"]
    assert s.status_of("ger-11pz") is UnitStatus.PENDING
    assert s.score() == {"soviet": 0, "german": 10}
    assert not any(s.is_oos(u) for u in s.board.unit_ids if s.hex_of(u))  # example: all Soviets supplied


def test_actions_round_trip() -> None:
    s = new_game()
    for a in legal_actions(s):
        assert parse_action(str(a)) == a
        assert eval(repr(a), vars(hg)) == a
    for text in (
        "end phase",
        "resolve",
        "resolve all-out flipping sov-20tc",
        "lose step ger-389th",
        "retreat ger-389th to D6",
        "move sov-5gtc to C2 via C1",
        "reinforce ger-24pz at A2",
        "rebuild sov-20tc",
        "break out ger-72nd",
        "attack B7 with sov-29tc+sov-48rc",
    ):
        assert str(parse_action(text)) == text
    with pytest.raises(ValueError, match="not an action"):
        parse_action("fly to the moon")


# ========================================================================================= turn-1 example
TURN1_SOVIET_COMBAT = [
    "attack B7 with sov-29tc+sov-48rc",
    "lose step ger-106th",
    "attack C6 with sov-75rc+sov-20tc+sov-21grc+sov-26grc all-out flipping sov-20tc",
    "lose step ger-389th",
    "retreat ger-389th to D6",
    "attack D6 with sov-20grc+sov-373rd+sov-294th",
    "attack B2 with sov-5gtc all-out flipping sov-5gtc",
    "lose step ger-198th",
    "attack C2 with sov-180th+sov-337th",
    "retreat ger-88th-s to D2",
]
TURN1_DICE = [5, 3, 4, 2, 5, 2]
TURN1_SOVIET_MOVES = ["end phase", "move sov-5gtc to C2 via C1", "move sov-20tc to C5", "move sov-29tc to B6"]
TURN1_GERMAN = [
    "attack B6 with ger-11pz+ger-14pz all-out flipping ger-14pz",
    "retreat sov-29tc to B5",
    "end phase",
    "move ger-11pz to C6",
]


def turn_one(n_actions: int) -> tuple[State, ScriptedDice]:
    """The example's first ``n_actions`` actions played with its dice."""
    s = new_game()
    dice = ScriptedDice(TURN1_DICE)
    do(s, dice, *(TURN1_SOVIET_COMBAT + TURN1_SOVIET_MOVES + TURN1_GERMAN)[:n_actions])
    return s, dice


def test_b7_attack_2_to_1_rolling_5_is_one_hit_and_the_only_retreat_is_a6() -> None:
    s = new_game()
    first = preview_attack(s, "B7", ["sov-75rc", "sov-48rc"])
    assert (first.attack, first.defense, first.column) == (6, 4, "3:2")
    pv = preview_attack(s, "B7", ["sov-29tc", "sov-48rc"])
    assert (pv.attack, pv.defense, pv.column, pv.shifts) == (9, 4, "2:1", ())
    do(s, ScriptedDice([5]), "declare sov-29tc on B7", "declare sov-48rc on B7")
    assert "resolve all-out flipping sov-29tc" in strs(legal_actions(s))  # the tank, never the 48th (7.3)
    assert "resolve all-out flipping sov-48rc" not in strs(legal_actions(s))
    do(s, ScriptedDice([5]), "resolve")
    assert s.last_combat is not None
    assert s.last_combat.hits == 1
    assert s.side_to_act == "german"
    # 7.6: from a German supply source only into another: A6, across the river
    assert strs(legal_actions(s)) == [
        "lose step ger-106th", "lose step ger-3pz", "retreat ger-106th to A6", "retreat ger-3pz to A6",
    ]  # fmt: skip


def test_c6_all_out_8_to_1_rolling_3_is_two_hits_and_the_389th_retreats_only_to_d6() -> None:
    s, dice = turn_one(2)
    pv = preview_attack(s, "C6", ["sov-75rc", "sov-20tc", "sov-21grc", "sov-26grc"])
    assert (pv.attack, pv.defense, pv.column) == (16, 2, "8:1+")
    assert pv.normal[1] == Fraction(2, 3)  # "a 2/3 chance of the 389th surviving with a single Hit"
    do(s, dice, TURN1_SOVIET_COMBAT[2])
    assert s.last_combat is not None
    assert s.last_combat.hits == 2
    assert s.last_combat.die == 3
    assert s.steps_of("sov-20tc") == 1
    assert strs(legal_actions(s)) == ["lose step ger-389th"]  # the first hit cannot be a retreat
    do(s, dice, "lose step ger-389th")
    # 11.1: B6 and C5 would do normally; on turn 1 only German-held or German supply hexes not hit: D6
    assert strs(legal_actions(s)) == ["lose step ger-389th", "retreat ger-389th to D6"]
    do(s, dice, "retreat ger-389th to D6")
    assert s.is_retreated("ger-389th")
    assert s.hex_of("ger-389th") == "D6"


def test_d6_attack_ignores_the_retreated_389th_and_the_river_shift() -> None:
    s, dice = turn_one(5)
    pv = preview_attack(s, "D6", ["sov-20grc", "sov-373rd", "sov-294th"])
    assert (pv.attack, pv.defense, pv.column, pv.shifts, pv.defenders) == (7, 4, "3:2", (), ("ger-72nd",))
    alone = preview_attack(s, "D6", ["sov-20grc"])
    assert alone.shifts == ("river",)  # across the Tiassmin on its own
    do(s, dice, TURN1_SOVIET_COMBAT[5])
    assert s.last_combat is not None
    assert s.last_combat.hits == 0
    assert s.side_to_act == "soviet"


def test_b2_attack_two_per_hexside_and_the_river_shift() -> None:
    s, dice = turn_one(6)
    assert (preview_attack(s, "B2", ["sov-5gtc"]).column) == "3:1"
    with_c1 = preview_attack(s, "B2", ["sov-5gtc", "sov-180th", "sov-337th"])
    assert (with_c1.base_column, with_c1.shifts, with_c1.column) == ("4:1-5:1", ("river",), "3:1")
    do(s, dice, TURN1_SOVIET_COMBAT[6])
    assert s.last_combat is not None
    assert s.last_combat.hits == 1
    assert "retreat ger-198th to A2" in strs(legal_actions(s))


def test_c2_attack_woods_shift_normal_only_and_the_88th_retreats_to_d2() -> None:
    s, dice = turn_one(8)
    do(s, dice, "declare sov-180th on C2", "declare sov-337th on C2")
    assert strs(legal_actions(s)) == ["resolve"]  # one-step attackers: no all-out (7.3)
    pv = preview_attack(s, "C2", ["sov-180th", "sov-337th"])
    assert (pv.base_column, pv.shifts, pv.column) == ("3:1", ("woods",), "2:1")
    do(s, dice, "resolve")
    assert s.last_combat is not None
    assert s.last_combat.hits == 1
    # B2 was hit this turn (11.1): the only retreat is to the rest of the 88th in D2
    assert [a for a in strs(legal_actions(s)) if a.startswith("retreat")] == ["retreat ger-88th-s to D2"]


def test_hexside_and_once_per_turn_limits() -> None:
    s = new_game()
    do(s, None, "declare sov-29tc on C6", "declare sov-20tc on C6")
    assert not any(isinstance(a, Declare) and a.unit in ("sov-48rc", "sov-75rc") for a in legal_actions(s))
    assert "declare sov-21grc on C6" in strs(legal_actions(s))
    with pytest.raises(IllegalAction):
        apply(s, Declare("sov-48rc", "C6"))
    with pytest.raises(IllegalAction):
        apply(s, Declare("sov-21grc", "D6"))  # one attack at a time
    do(s, ScriptedDice([1]), "resolve")
    assert not any(
        isinstance(a, Declare) and (a.target == "C6" or a.unit == "sov-29tc") for a in legal_actions(s)
    )


def test_soviet_turn1_movement() -> None:
    s, dice = turn_one(len(TURN1_SOVIET_COMBAT) + 1)
    assert s.phase is Phase.MOVEMENT
    movers = {a.unit for a in legal_actions(s) if isinstance(a, Move)}
    assert movers == {"sov-29tc", "sov-20tc", "sov-5gtc"}  # 11.1: only the three tank units
    assert EndPhase() not in legal_actions(s)  # 11.1: the 29th and 20th must not end together in C7
    do(s, dice, "move sov-5gtc to C2 via C1")  # one river and one woods: allowed (8.2)
    do(s, dice, "move sov-20tc to C5")
    assert "move sov-29tc to C5" not in strs(legal_actions(s))
    do(s, dice, "move sov-29tc to B6")
    assert s.active_side == "german"  # nothing else may move: the phase ends by itself


def test_german_supply_after_the_soviet_turn1() -> None:
    s, _ = turn_one(len(TURN1_SOVIET_COMBAT) + len(TURN1_SOVIET_MOVES))
    oos = {u for u in s.board.unit_ids if s.hex_of(u) and s.is_oos(u)}
    assert oos == {"ger-389th", "ger-72nd", "ger-5ss", "ger-88th-s", "ger-88th-n", "ger-kab-1", "ger-kab-2"}
    assert s.units_at("B7") == ["ger-106th", "ger-3pz", "ger-11pz", "ger-14pz"]  # reinforcements (6.0)


def test_german_turn1_combat() -> None:
    s, dice = turn_one(len(TURN1_SOVIET_COMBAT) + len(TURN1_SOVIET_MOVES))
    attackers = {a.unit for a in legal_actions(s) if isinstance(a, Declare)}
    assert attackers == {"ger-3pz", "ger-5ss", "ger-11pz", "ger-14pz"}  # 11.1
    c5 = preview_attack(s, "C5", ["ger-5ss"])
    assert (c5.base_column, set(c5.shifts), c5.net_shift, c5.column) == (
        "2:1",
        {"woods", "att-all-oos"},
        -2,
        "1:1",
    )
    b6 = preview_attack(s, "B6", ["ger-11pz", "ger-14pz"])
    assert (b6.attack, b6.defense, b6.base_column, b6.column) == (15, 2, "6:1-7:1", "4:1-5:1")
    do(s, dice, "declare ger-11pz on B6", "declare ger-14pz on B6")
    assert strs(legal_actions(s)) == [
        "resolve",
        "resolve all-out flipping ger-11pz",
        "resolve all-out flipping ger-14pz",
    ]
    do(s, dice, "resolve all-out flipping ger-14pz")
    assert s.last_combat is not None
    assert s.last_combat.hits == 1
    assert {a.to for a in legal_actions(s) if isinstance(a, Retreat)} == {"A5", "B5"}  # the book takes B5
    do(s, dice, "retreat sov-29tc to B5")
    assert s.is_retreated("sov-29tc")


def test_german_turn1_movement_and_the_two_river_rule() -> None:
    s, dice = turn_one(len(TURN1_SOVIET_COMBAT) + len(TURN1_SOVIET_MOVES) + 3)
    assert s.phase is Phase.MOVEMENT
    assert s.active_side == "german"
    assert {a.unit for a in legal_actions(s) if isinstance(a, Move)} == {
        "ger-3pz",
        "ger-5ss",
        "ger-11pz",
        "ger-14pz",
    }
    trial = s.copy()
    apply(trial, Move("ger-11pz", "A5", via="B6"))  # one river: allowed
    with pytest.raises(IllegalAction):
        apply(s.copy(), Move("ger-11pz", "A5", via="A6"))  # two rivers (8.2)
    do(s, dice, "move ger-11pz to C6")
    assert s.turn == 2
    assert s.active_side == "soviet"


def test_turn2_soviet_supply_lines_are_three_hexes_long() -> None:
    s, _ = turn_one(len(TURN1_SOVIET_COMBAT) + len(TURN1_SOVIET_MOVES) + len(TURN1_GERMAN))
    assert s.turn == 2
    assert s.is_oos("sov-20tc")
    assert s.is_oos("sov-29tc")
    assert {"sov-20tc", "sov-29tc"} <= set(supplied_units(s, "soviet"))  # ... despite a longer line via C2
    assert not s.is_oos("sov-5gtc")
    # four German and two Soviet steps lost so far (12.0: one VP each for a reduced two-step unit)
    assert s.score() == {"soviet": 4, "german": 2 + 10}
    assert s.vp == s.vp_from_scratch()


# ======================================================================================== special rules
def test_tichonovka_and_the_korsun_freeze_on_turn2() -> None:
    s = new_game()
    dice = ScriptedDice([6] * 40)
    advance(s, dice, at(2, Phase.MOVEMENT, "german"))
    moves = {(a.unit, a.to) for a in legal_actions(s) if isinstance(a, Move)}
    assert ("ger-198th", "B3") not in moves  # 11.2: no German entry into Tichonovka on turn 2
    assert not any(u == "ger-kab-1" for u, _ in moves)  # F3 is next to Korsun (E3): frozen
    assert any(u == "ger-kab-2" for u, _ in moves)
    s.tripped[:] = [True] * len(s.tripped)  # a Soviet unit has been next to Korsun: the freeze ends
    s.scratch.clear()
    assert any(a.unit == "ger-kab-1" for a in legal_actions(s) if isinstance(a, Move))


def test_the_mud_roll_starts_on_turn2() -> None:
    s = new_game()
    dice = ScriptedDice([1])
    advance(s, dice, at(2, Phase.COMBAT, "soviet"))
    assert s.weather == "snow"
    assert dice.history == []
    advance(s, dice, at(3, Phase.COMBAT, "soviet"))
    assert s.weather == "mud"
    assert dice.history == [1]
    assert all(
        not hg._routes(s, u) or max(len(v) for v in hg._routes(s, u).values()) >= 1 for u in s.on_map(0)
    )
    tanks = [s.board.unit("sov-29tc"), s.board.unit("sov-5gtc")]
    for u in tanks:  # mud: one hex for everybody
        assert set(hg._routes(s, u)) <= set(s.board.neighbours[s.pos[u]])
    assert "mud" in preview_attack(s, "C6", ["sov-48rc"]).shifts


def test_no_mud_on_a_3_to_6() -> None:
    s = new_game()
    dice = ScriptedDice([3, 4, 5, 6, 6, 6])
    advance(s, dice, at(4, Phase.COMBAT, "soviet"))
    assert s.weather == "snow"
    assert dice.history[:2] == [3, 4]


def test_the_24th_panzer_never_comes_without_the_trigger() -> None:
    s = new_game()
    advance(s, Dice(1), at(4, Phase.COMBAT, "german"))
    assert not any(s.tripped)
    assert s.status_of("ger-24pz") is UnitStatus.WITHDRAWN
    assert s.vp == s.vp_from_scratch()


def test_the_24th_panzer_comes_when_a_soviet_unit_has_entered_a2_to_a6() -> None:
    s = new_game()
    dice = Dice(2)
    advance(s, dice, at(3, Phase.MOVEMENT, "soviet"))
    put(s, "sov-254th", "A4")  # surgery stands in for a move ...
    hg._trip(s, s.board.unit("sov-254th"), s.board.hex("A4"))  # ... which notes the 6.2 trigger
    assert s.tripped[s.rules.effects.arrival[s.board.unit("ger-24pz")]]
    advance(s, dice, lambda x: x.turn == 4 and x.active_side == "german")
    # no entry hex in the data: every vacant or German-held German source is offered (6.1, a reading)
    if s.status_of("ger-24pz") is UnitStatus.PENDING:
        acts = legal_actions(s)
        assert acts
        assert all(isinstance(a, Reinforce) for a in acts)
        with pytest.raises(IllegalAction):
            apply(s, EndPhase())
        do(s, dice, acts[0])
    assert s.status_of("ger-24pz") is UnitStatus.ON_MAP
    h = s.hex_of("ger-24pz")
    assert h is not None
    assert s.board.source_of[s.board.hex(h)] == s.board.side("german")


def test_a_reinforcement_whose_hex_is_held_arrives_at_the_nearest_source_or_is_lost() -> None:
    g = scenario_game(1)
    s = State.initial(g, strengths=ASSUMED, scenario="test")
    dice = ScriptedDice([])
    advance(s, dice, at(1, Phase.MOVEMENT, "soviet"))
    put(s, "ger-106th", "A1")
    put(s, "ger-3pz", "A1")
    put(s, "sov-254th", "B7")  # the 11th and 14th Panzer's entry hex is now Soviet-held
    while s.active_side == "soviet":
        acts = legal_actions(s)
        apply(s, EndPhase() if EndPhase() in acts else acts[0], dice)
    assert s.hex_of("ger-11pz") == "A6"
    assert s.hex_of("ger-14pz") == "A6"
    s2 = State.initial(g, strengths=ASSUMED, scenario="test")
    advance(s2, dice, at(1, Phase.MOVEMENT, "soviet"))
    for label in ("A1", "A2", "A6", "B7"):
        for u in s2.units_at(label):
            put(s2, u, None)
    for label, unit in zip(
        ("A1", "A2", "A6", "B7"), ("sov-254th", "sov-206th", "sov-180th", "sov-337th"), strict=True
    ):
        put(s2, unit, label)
    while s2.active_side == "soviet":
        acts = legal_actions(s2)
        apply(s2, EndPhase() if EndPhase() in acts else acts[0], dice)
    assert s2.status_of("ger-11pz") is UnitStatus.LOST  # no German source left (6.1)


def test_overconcentration_takes_the_all_out_result_without_a_flip() -> None:
    s = new_game()
    for u in ("ger-34th", "ger-198th", "ger-88th-n", "ger-kab-1"):
        put(s, u, "C6")  # five units in C6 with the 389th
    do(s, None, "declare sov-48rc on C6")
    assert strs(legal_actions(s))[-1] == "resolve"  # no flip offered: 7.4 gives the all-out result anyway
    pv = preview_attack(s, "C6", ["sov-48rc"])
    assert pv.overconcentrated
    assert pv.normal == pv.all_out
    column = pv.column_index
    do(s, ScriptedDice([6]), "resolve")
    assert s.last_combat is not None
    assert s.last_combat.overconcentrated
    assert s.last_combat.hits == hg.rules_of(s.board).hits[6][column][1]


def test_automatic_elimination() -> None:
    s = new_game()
    put(s, "ger-88th-s", "C6")  # 389th (2 steps) and the one-step 88th: 3 steps
    put(s, "ger-389th", None)
    do(s, ScriptedDice([6]), "attack C6 with sov-75rc+sov-20tc+sov-21grc+sov-26grc all-out flipping sov-20tc")
    # 16 against 1 at 8:1, all-out on a 6: 3 hits against 1 step -> all eliminated, excess ignored (7.5)
    assert s.last_combat is not None
    assert s.last_combat.hits == 3
    assert s.units_at("C6") == []
    assert s.status_of("ger-88th-s") is UnitStatus.DESTROYED
    assert s.side_to_act == "soviet"
    assert s.vp == s.vp_from_scratch()


def test_two_step_units_lose_steps_first() -> None:
    s = new_game()
    put(s, "ger-88th-s", "C6")
    do(s, ScriptedDice([6]), "attack C6 with sov-75rc+sov-20tc")  # 9 against 2+1: 3:1, 6 -> 1 hit
    assert s.last_combat is not None
    assert s.last_combat.hits == 1
    assert "lose step ger-88th-s" not in strs(legal_actions(s))
    assert "lose step ger-389th" in strs(legal_actions(s))


def test_strongest_units_defend_up_to_the_limit() -> None:
    s = new_game()
    for u in ("ger-72nd", "ger-106th", "ger-88th-s"):
        put(s, u, "C6")  # 389th 2, 72nd 4, 106th 2, 88th 1: the best three defend
    pv = preview_attack(s, "C6", ["sov-48rc"])
    assert pv.defense == 8
    assert "ger-88th-s" not in pv.defenders


def test_soviet_forces_hit_twice_must_retreat_if_they_can() -> None:
    s = new_game()
    advance(s, ScriptedDice([6] * 10), at(1, Phase.COMBAT, "german"))
    put(s, "sov-48rc", "A5")  # a two-step corps alone, next to the panzers in B6
    put(s, "ger-11pz", "B6")
    put(s, "ger-14pz", "B6")
    do(s, ScriptedDice([3]), "attack A5 with ger-11pz+ger-14pz all-out flipping ger-14pz")
    assert s.last_combat is not None
    assert s.last_combat.hits == 2
    assert strs(legal_actions(s)) == ["lose step sov-48rc"]
    do(s, None, "lose step sov-48rc")
    acts = legal_actions(s)
    assert acts
    assert all(isinstance(a, Retreat) for a in acts)
    do(s, None, acts[0])
    assert s.is_retreated("sov-48rc")
    assert s.steps_of("sov-48rc") == 1


@pytest.mark.parametrize("absorb", ["lose step ger-88th-s", "retreat ger-88th-s to D5"])
def test_retreated_units_left_alone_are_eliminated(absorb: str) -> None:
    s, _ = turn_one(5)  # the 389th has retreated into D6, next to the 72nd
    put(s, "ger-72nd", None)
    put(s, "ger-88th-s", "D6")
    do(s, ScriptedDice([2]), "attack D6 with sov-20grc+sov-373rd+sov-294th")  # 7 against 1: 6:1, a 2: 1 hit
    assert s.last_combat is not None
    assert s.last_combat.hits == 1
    assert absorb in strs(legal_actions(s))
    do(s, None, absorb)
    assert s.status_of("ger-389th") is UnitStatus.DESTROYED  # 7.6
    assert s.vp == s.vp_from_scratch()


def test_a_retreated_unit_alone_cannot_absorb_hits() -> None:
    s, _dice = turn_one(5)
    put(s, "ger-72nd", None)  # only the retreated 389th is left in D6
    pv = preview_attack(s, "D6", ["sov-373rd"])
    assert pv.defense == 0
    assert pv.column == "8:1+"
    do(s, ScriptedDice([1]), "attack D6 with sov-373rd")
    assert s.status_of("ger-389th") is UnitStatus.DESTROYED
    assert s.vp == s.vp_from_scratch()


def test_rebuild_on_turn5() -> None:
    s = new_game()
    do(s, ScriptedDice([1]), "attack C6 with sov-29tc+sov-20tc all-out flipping sov-20tc")
    advance(s, ScriptedDice([6] * 30), at(5, Phase.SUPPLY, "soviet"))
    if s.status_of("sov-20tc") is not UnitStatus.ON_MAP or s.is_oos("sov-20tc"):
        pytest.skip("the 20th did not survive in supply")
    assert "rebuild sov-20tc" in strs(legal_actions(s))
    german_vp = s.vp[1]
    do(s, None, "rebuild sov-20tc")
    assert s.steps_of("sov-20tc") == 2
    assert s.vp[1] == german_vp - 1
    assert s.phase is not Phase.SUPPLY


def north_cut_off() -> dict[str, str]:
    """Where the units stand after the example's Soviet turn 1: the Germans in the north are cut off."""
    s, _ = turn_one(len(TURN1_SOVIET_COMBAT) + len(TURN1_SOVIET_MOVES))
    return {u: h for u in s.board.unit_ids if (h := s.hex_of(u)) is not None}


def test_breakout_on_turn8() -> None:
    g = scenario_game(8, north_cut_off())
    s = State.initial(g, strengths=ASSUMED, scenario="test")
    advance(s, ScriptedDice([]), at(8, Phase.MOVEMENT, "german"))
    oos = [
        u for u in s.board.unit_ids if s.hex_of(u) and s.board.unit_side[s.board.unit(u)] == 1 and s.is_oos(u)
    ]
    assert oos  # the northern units
    apply(s, EndPhase())
    acts = legal_actions(s)
    assert all(isinstance(a, Breakout | EndPhase) for a in acts)
    tries = [a for a in acts if isinstance(a, Breakout)]
    for a in tries:
        u = s.board.unit(a.unit)
        refuges = dict(hg._breakout_candidates(s))[u]
        apply(s, a, ScriptedDice([5 - refuges]))  # exactly 5: breaks out
        assert s.status_of(a.unit) is UnitStatus.BROKEN_OUT
        assert s.vp == s.vp_from_scratch()
        break


def test_end_of_game_supply_and_score() -> None:
    g = scenario_game(8, north_cut_off())
    s = State.initial(g, strengths=ASSUMED, scenario="test")
    advance(s, ScriptedDice([]), lambda x: x.result is not None)
    assert s.result is not None
    assert s.phase is Phase.GAME_OVER
    assert legal_actions(s) == []
    # the isolated northern Germans cannot trace supply at the end: eliminated, 1 VP per step to the Soviets
    gone = set(s.result.eliminated)
    assert {"ger-kab-1", "ger-kab-2", "ger-88th-n"} <= gone
    assert s.result.vp == tuple(s.score().values())
    assert s.vp == s.vp_from_scratch()
    with pytest.raises(IllegalAction):
        apply(s, EndPhase())


def test_illegal_actions_leave_the_state_alone() -> None:
    s = new_game()
    before = s.describe()
    for bad in (
        Move("sov-29tc", "B6"),
        LoseStep("ger-389th"),
        Resolve(),
        Rebuild("sov-20tc"),
        Attack("B7", ("ger-3pz",)),
        Attack("C6", ("sov-29tc", "sov-20tc", "sov-48rc")),
        Attack("C6", ("sov-29tc",), all_out="sov-48rc"),
        Declare("nobody", "C6"),
        Declare("sov-29tc", "Z9"),
    ):
        with pytest.raises(IllegalAction):
            apply(s, bad, ScriptedDice([1]))
        assert s.describe() == before


# =================================================================================== random play, invariants
def no_hex_holds_both_sides(s: State) -> None:
    for h, occ in enumerate(s.occupants):
        sides = {s.board.unit_side[u] for u in occ}
        assert len(sides) <= 1, (s.board.labels[h], occ)
        for u in occ:
            assert s.pos[u] == h
            assert s.status[u] is UnitStatus.ON_MAP
            assert s.steps[u] >= 1
    for side in range(2):
        assert s.count[side] == [sum(1 for u in occ if s.board.unit_side[u] == side) for occ in s.occupants]


def check_retreat_offers(s: State) -> None:
    """Every retreat offered is into a hex an independent reading of 7.6, 11.1 and 11.2 allows."""
    if s.hits is None:
        return
    b = s.board
    grid = b.grid
    origin = s.hits.hex
    side = s.to_act
    enemy = 1 - side
    enemy_at = {s.pos[u] for u in s.on_map(enemy)}
    friend_at = {s.pos[u] for u in s.on_map(side)}
    cells = list(grid.cells())

    def legal(h: int) -> bool:
        in_ezoc = any(grid.adjacent(cells[h], cells[e]) for e in enemy_at)
        if not grid.adjacent(cells[h], cells[origin]) or h in enemy_at:
            return False
        if (in_ezoc or b.source_of[h] == enemy) and h not in friend_at:
            return False
        if b.source_of[origin] == side and b.source_of[h] != side:
            return False
        if (
            s.turn == 1
            and b.sides[side] == "german"
            and s.active_side == "soviet"
            and (h in s.hit_hexes or not (b.source_of[h] == side or h in friend_at))
        ):
            return False
        return not (s.turn == 2 and b.sides[side] == "german" and b.labels[h] == "B3")

    def ezoc(h: int) -> bool:
        return any(grid.adjacent(cells[h], cells[e]) for e in enemy_at)

    offered = {b.hex(a.to) for a in legal_actions(s) if isinstance(a, Retreat)}
    for h in offered:
        assert legal(h), (b.labels[origin], b.labels[h])
    if s.hits.destinations is None and offered:
        free = [h for h in range(len(cells)) if legal(h) and not ezoc(h)]
        if free:
            assert offered == set(free)


class Tracker:
    """Follows one combat from the roll to the last hit absorbed, to check its losses."""

    def __init__(self) -> None:
        self.open: tuple[int, dict[int, int], int, int] | None = None

    def before(self, s: State, action: Action) -> None:
        if isinstance(action, Resolve | Attack):
            t = s.attack_target if isinstance(action, Resolve) else s.board.hex(action.target)
            self.open = (
                t,
                {u: s.steps[u] for u in s.occupants[t]},
                len([u for u in s.occupants[t] if not s.retreated[u]]),
                0,
            )

    def after(self, s: State) -> None:
        if self.open is None or s.hits is not None:
            return
        t, steps, _, _ = self.open
        rec = s.last_combat
        assert rec is not None
        lost = sum(n - (s.steps[u] if s.status[u] is UnitStatus.ON_MAP else 0) for u, n in steps.items())
        assert 0 <= lost <= sum(steps.values())  # never more steps than were present
        wiped = all(s.status[u] is not UnitStatus.ON_MAP or s.pos[u] != t for u in steps)
        if not wiped:
            assert lost <= rec.hits  # and never more than the hits, unless the hex was emptied (7.5, 7.6)
        self.open = None


def step(s: State, action: Action, dice: hg.DiceSource, tracker: Tracker) -> None:
    steps_before = list(s.steps)
    status_before = list(s.status)
    tracker.before(s, action)
    apply(s, action, dice)
    tracker.after(s)
    for u, (a, b) in enumerate(zip(steps_before, s.steps, strict=True)):
        if b > a and status_before[u] is UnitStatus.ON_MAP:
            assert isinstance(action, Rebuild)
            assert action.unit == s.board.unit_ids[u]
            assert s.turn in (5, 7)
    no_hex_holds_both_sides(s)
    assert s.vp == s.vp_from_scratch()
    check_retreat_offers(s)
    if s.result is None:
        assert legal_actions(s), "a live game must offer an action"


@pytest.mark.parametrize("seed", range(6))
def test_random_games_finish_with_the_invariants(seed: int) -> None:
    rng = random.Random(seed)
    dice = Dice(seed)
    s = State.initial(GAME, strengths=ASSUMED)
    tracker = Tracker()
    for _ in range(5000):
        if s.result is not None:
            break
        step(s, rng.choice(legal_actions(s)), dice, tracker)
    assert s.result is not None
    assert s.turn == 8
    final = s.score()
    assert s.result.vp == (final["soviet"], final["german"])
    assert s.result.winner in (None, "soviet", "german")


class HellsGateMachine(RuleBasedStateMachine):
    """Random legal play with invariants checked after every action."""

    def __init__(self) -> None:
        super().__init__()
        self.state = State.initial(GAME, strengths=ASSUMED)
        self.dice: hg.DiceSource = Dice(0)
        self.tracker = Tracker()

    @initialize(seed=st.integers(0, 2**32 - 1))
    def seed_dice(self, seed: int) -> None:
        self.dice = Dice(seed)

    @rule(pick=st.integers(0, 1023))
    def act(self, pick: int) -> None:
        s = self.state
        if s.result is not None:  # the game is over: it stays over
            event("game over")
            assert s.turn == 8
            assert s.phase is Phase.GAME_OVER
            assert legal_actions(s) == []
            assert s.result.vp == tuple(s.score().values())
            return
        acts = legal_actions(s)
        if pick % 16 == 0:  # now and then: a copy played one step must not disturb the original
            before = s.describe()
            twin = s.copy()
            apply(twin, acts[(pick // 16) % len(acts)], Dice(pick))
            assert s.describe() == before
        step(s, acts[pick % len(acts)], self.dice, self.tracker)

    @invariant()
    def consistent(self) -> None:
        no_hex_holds_both_sides(self.state)
        assert self.state.vp == self.state.vp_from_scratch()


HellsGateMachine.TestCase.settings = settings(
    max_examples=examples(10, thorough=25),
    stateful_step_count=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large],
)
TestHellsGateMachine = HellsGateMachine.TestCase
