"""The hits engine plays each game by its own data: the crowding limit and the flip order of an all-out attack
(``combat.crt.all_out``), the weather states and every other fact a shift's or a modifier's condition reads (the
shared vocabulary of forge.conditions), and victory points by their ``per`` keys.  Each test plays a variant of Ferry
Point whose data differs from Hell's Gate's values, so that an engine holding those values in code fails it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from forge.errors import LoadError
from forge.loader import loads
from forge.model import Game
from forge.rules import engine as hg
from forge.rules.board import UnplayableGameError
from forge.rules.state import State, UnitStatus

ROOT = Path(__file__).resolve().parent.parent
FERRY = (ROOT / "data" / "ferry_point.yaml").read_text(encoding="utf-8").split("\nexamples:\n")[0] + "\n"
"""Ferry Point without its worked examples (which name the shifts a variant replaces)."""
ALL_OUT = '    all_out: {flip_first: [armour], crowded_units: 5, rule: "T5"}'


def variant(*edits: tuple[str, str]) -> Game:
    """Ferry Point with each ``(old, new)`` text replaced once (every ``old`` must occur exactly once)."""
    text = FERRY
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return loads(text, "ferry_point.yaml")


def all_out(value: str) -> tuple[str, str]:
    return (ALL_OUT, f"    all_out: {value}")


COVER = '{id: cover, when: "woods or a village", shift: -1, condition: defender-terrain}'


def shifts(*lines: str, cover: bool = True) -> tuple[str, str]:
    """Replace Ferry Point's shifts with ``lines`` (flow mappings), after its terrain shift unless ``cover`` is
    false (the engine refuses terrain with a column shift that no defender-terrain shift gives)."""
    start = FERRY.index("  shifts:\n")
    end = FERRY.index("  modifiers:\n")
    return (FERRY[start:end], "  shifts:\n" + "".join(f"    - {x}\n" for x in (COVER,) * cover + lines))


WEATHER = ("turns:\n  rule: \"T2\"\n", "turns:\n  rule: \"T2\"\n  weather: {{states: [dry, wet], initial: {}}}\n")


def weather(initial: str) -> tuple[str, str]:
    return (WEATHER[0], WEATHER[1].format(initial))


def start(game: Game) -> State:
    return State.initial(game, log=True)


def put(s: State, unit: str, label: str) -> None:
    """Test surgery: move a unit anywhere on the map, bypassing the rules."""
    b = s.board
    u = b.unit(unit)
    if s.pos[u] >= 0:
        s._lift(u)
    s._place(u, b.hex(label))
    s.scratch.clear()


def declare(s: State, target: str, *units: str) -> list[str]:
    for u in units:
        hg.apply(s, hg.Declare(u, target), hg.Dice(1))
    return [str(a) for a in hg.legal_actions(s) if isinstance(a, hg.Resolve)]


# ===================================================================================== all-out attacks
def test_the_crowding_limit_is_the_datas() -> None:
    """Three unretreated defenders crowd the hex when the data says three (Hell's Gate's five would not)."""
    for limit, crowded in ((3, True), (5, False), (None, False)):
        value = "{flip_first: [armour]}" if limit is None else f"{{flip_first: [armour], crowded_units: {limit}}}"
        s = start(variant(all_out(value)))
        put(s, "red-1", "0402")
        put(s, "red-3", "0402")  # red-1, red-2, red-3 in 0402
        pv = hg.preview_attack(s, "0402", ["blue-1"])
        assert pv.overconcentrated is crowded
        assert (pv.normal == pv.all_out) is crowded
        resolves = declare(s, "0402", "blue-1")
        assert resolves == (["resolve"] if crowded else ["resolve", "resolve all-out flipping blue-1"])


def test_the_unit_flipped_first_is_of_the_types_the_data_lists() -> None:
    expected = {
        "{flip_first: [armour]}": ["resolve", "resolve all-out flipping blue-4"],
        "{flip_first: [infantry, armour]}": ["resolve", "resolve all-out flipping blue-1"],
        "{flip_first: [cavalry, armour]}": ["resolve", "resolve all-out flipping blue-4"],
        "{}": ["resolve", "resolve all-out flipping blue-1", "resolve all-out flipping blue-4"],
    }
    for value, resolves in expected.items():
        s = start(variant(all_out(value)))
        assert declare(s, "0402", "blue-1", "blue-4") == resolves, value


def test_a_flip_the_data_does_not_allow_is_illegal() -> None:
    s = start(variant(all_out("{flip_first: [infantry]}")))
    declare(s, "0402", "blue-1", "blue-4")
    with pytest.raises(hg.IllegalAction):
        hg.apply(s, hg.Resolve("blue-4"), hg.Dice(1))


def test_a_crt_of_hits_without_all_out_rules_is_not_played() -> None:
    line = next(x for x in FERRY.splitlines(keepends=True) if x.startswith(ALL_OUT))
    game = variant((line, ""))
    found = hg.problems(game)
    assert any("combat.crt.all_out" in p for p in found), found
    with pytest.raises(UnplayableGameError, match="all_out"):
        start(game)


def test_all_out_on_a_crt_of_codes_is_refused_located() -> None:
    text = (ROOT / "data" / "halden_line.yaml").read_text(encoding="utf-8")
    anchor = "    cell_format: code\n"
    assert text.count(anchor) == 1
    with pytest.raises(LoadError) as e:
        loads(text.replace(anchor, anchor + "    all_out: {crowded_units: 5}\n"), "halden_line.yaml")
    (msg,) = [str(p) for p in e.value.problems]
    assert re.search(r"halden_line\.yaml:\d+:\d+", msg)
    assert "combat.crt.all_out" in msg
    assert "hits-normal/all-out" in msg


# ================================================================================= conditions
def test_a_weather_state_of_another_name_drives_a_shift_and_a_modifier() -> None:
    """``wet`` (not Hell's Gate's ``mud``) shifts one column left and halves the attack, through the vocabulary."""
    edits = (
        shifts('{id: wet, when: "wet ground", shift: -1, condition: {weather: [wet]}}'),
        (
            '    - {id: armour-clear,',
            '    - {id: wet-half, role: attacker, when: "wet", multiply: "1/2", rounding: down, per_unit: false, '
            'condition: {weather: wet}}\n    - {id: armour-clear,',
        ),
    )
    wet = hg.preview_attack(start(variant(weather("wet"), *edits)), "0402", ["blue-1", "blue-2"])
    dry = hg.preview_attack(start(variant(weather("dry"), *edits)), "0402", ["blue-1", "blue-2"])
    assert (dry.attack, dry.shifts) == (8, ())
    assert (wet.attack, wet.shifts) == (4, ("wet",))
    assert wet.net_shift == -1


def test_the_old_weather_key_reads_the_games_own_state_of_that_name() -> None:
    edits = (shifts('{id: mud, when: "mud", shift: -1, condition: mud}'),)
    mud = (WEATHER[0], WEATHER[1].replace("[dry, wet]", "[dry, mud]").format("mud"))
    assert hg.preview_attack(start(variant(mud, *edits)), "0402", ["blue-1"]).shifts == ("mud",)


def test_sides_phases_and_unit_types_are_read_by_shifts() -> None:
    game = variant(
        shifts(
            '{id: blue-attacks, when: "Blue attacks", shift: 1, condition: {attacker_side: blue}}',
            '{id: red-phase, when: "in Red Combat", shift: 1, condition: {phase: [Red Combat]}}',
            '{id: blue-phase, when: "in Blue Combat", shift: 1, condition: {phase: [Blue Combat]}}',
            '{id: tanks, when: "armour attacks", shift: 1, condition: {role: attacker, unit_types: [armour], '
            "units: any}}",
            '{id: red-defends-foot, when: "only infantry defends", shift: -1, condition: {role: defender, '
            "unit_types: [infantry]}}",
        )
    )
    s = start(game)
    assert hg.preview_attack(s, "0402", ["blue-1"]).shifts == ("blue-attacks", "blue-phase", "red-defends-foot")
    assert hg.preview_attack(s, "0402", ["blue-1", "blue-4"]).shifts == (
        "blue-attacks",
        "blue-phase",
        "tanks",
        "red-defends-foot",
    )
    put(s, "red-4", "0402")  # a tank among the defenders
    assert hg.preview_attack(s, "0402", ["blue-1"]).shifts == ("blue-attacks", "blue-phase")


def test_each_defender_terrain_shift_comes_from_its_own_terrain() -> None:
    """Two terrain shifts of different sizes: the village hex gives the village's, not both."""
    game = variant(
        ('combat: {text: "One column left; each village is a Red supply source", shift: -1}',
         'combat: {text: "Two columns left", shift: -2}'),
        shifts(
            '{id: woods, when: "woods", shift: -1, condition: defender-terrain}',
            '{id: village, when: "village", shift: -2, condition: defender-terrain}',
            cover=False,
        ),
    )
    s = start(game)
    assert hg.preview_attack(s, "0403", ["blue-2"]).shifts == ("village",)
    assert hg.preview_attack(s, "0402", ["blue-2"]).shifts == ()


def test_a_terrain_shift_no_shift_entry_gives_makes_the_game_unplayable() -> None:
    found = hg.problems(variant(shifts('{id: other, when: "other", shift: 1, condition: {attacker_side: red}}',
                                       cover=False)))
    assert any("terrain 'woods'" in p and "defender-terrain" in p for p in found), found


def test_conditions_the_engine_cannot_decide_make_the_game_unplayable() -> None:
    game = variant(
        shifts(
            '{id: air, when: "air support", shift: 1, condition: air-support}',
            '{id: words, when: "when the attacker feels lucky", shift: 1}',
        )
    )
    found = hg.problems(game)
    assert any("shift 'air'" in p and "declared by a player" in p for p in found), found
    assert any("shift 'words'" in p and "in words only" in p for p in found), found


# ================================================================================= victory points
def test_victory_points_are_read_from_per_never_from_the_words() -> None:
    anchor = '    - {id: steps, per: enemy-step, text: "Each step of enemy units destroyed", vp: 1, rule: "T8"}\n'
    words = variant((anchor, '    - {text: "Each step of enemy units destroyed", vp: 1, rule: "T8"}\n'))
    assert any("per" in p and "victory.points" in p for p in hg.problems(words)), hg.problems(words)
    reduced = variant((anchor, anchor + '    - {per: enemy-reduced, text: "reduced", vp: 5}\n'))
    s = start(reduced)
    before = s.score()["blue"]
    s._set_steps(s.board.unit("red-1"), 1)
    assert s.score()["blue"] == before + 5
    assert s.vp_from_scratch() == s.vp
    s._set_status(s.board.unit("red-1"), UnitStatus.DESTROYED)
    assert s.score()["blue"] == before + 2  # two destroyed steps, no longer a reduced unit in play


# ================================================================================= dice-pool combat
def test_dice_pool_modifiers_read_a_weather_state_of_another_name() -> None:
    """The tabletop rules' defender doubling in mud, with the state named ``wet``: doubled in wet, not in easy."""
    text = (ROOT / "tests" / "data" / "synthetic_tabletop.yaml").read_text(encoding="utf-8")
    for old, new in (
        ("states: [easy, mud]", "states: [easy, wet]"),
        ('multiply: "2", condition: mud}', 'multiply: "2", condition: {weather: [wet]}}'),
        ("cells: [mud, mud, no mud", "cells: [wet, wet, no mud"),
    ):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    s = State.initial(loads(text, "synthetic_tabletop.yaml"))
    g1 = s.board.unit("g-1")
    target = s.pos[g1]
    easy = hg._pool_strength(s, g1, target, "defender")
    s.weather = "wet"
    assert hg._pool_strength(s, g1, target, "defender") == 2 * easy


def test_a_phase_without_activities_is_not_played_from_its_name() -> None:
    """A phase's kind is data (``activities``), never the words of its name: "Blue Combat" without activities is
    named among the problems (with the key to give) and the game is not played, though its name says combat."""
    game = variant(
        (
            'summary: "Attack adjacent Red hexes", activities: [combat]}',
            'summary: "Attack adjacent Red hexes"}',
        )
    )
    found = hg.problems(game)
    assert [p for p in found if "Blue Combat" in p] == [
        "phase 'Blue Combat' does not say what happens in it (expected sequence[1].activities, any of: supply, "
        "reinforcement, combat, movement, recovery, housekeeping)"
    ]
    with pytest.raises(UnplayableGameError, match=re.escape("sequence[1].activities")):
        start(game)


def _play(game: Game, seed: int) -> tuple[object, ...]:
    import random

    from forge.rules.engines import Assumptions, HitsEngine

    eng = HitsEngine()
    s = eng.initial(game, Assumptions())
    rnd = random.Random(seed)
    for step in range(20_000):
        if (out := eng.outcome(s)) is not None:
            return out.winner, dict(out.vp), out.turn
        acts = eng.legal_actions(s)
        eng.apply(s, acts[rnd.randrange(len(acts))], eng.dice(seed * 100_003 + step))
    raise AssertionError("the game did not end")


def test_phase_names_do_not_decide_what_a_phase_does() -> None:
    """Ferry Point with every phase renamed to words that name no kind (or the wrong one) plays exactly as the
    original: each phase does what its activities say."""
    names = re.findall(r"\{name: ([^,]+), ", FERRY.split("\nsequence:\n")[1].split("\nvictory:")[0])
    assert len(names) == 9
    wrong = ["Combat", "Movement", "Supply", "Rally", "Housekeeping", "Attack", "Move", "Administrative", "Reinforce"]
    renamed = variant(*((f"{{name: {n}, ", f"{{name: Step {w}, ") for n, w in zip(names, wrong, strict=True)))
    assert hg.problems(renamed) == []
    original = variant()
    for seed in range(3):
        assert _play(renamed, seed) == _play(original, seed)
