"""forge.verifier.crosscheck: values the data holds twice agree, and the worked examples are possible.

Properties:
- the five seed games as encoded raise no cross-check finding (no false alarm);
- one planted change to a seed file (a terrain chart shift, a modifier, an entry turn, a hex name, an example)
  raises exactly the planted finding, with the severity the policy gives it;
- a mismatch the engine computed is never withheld: not on a partial map, not for an example that names units
  and a turn the recomputation does not need.
"""

from __future__ import annotations

from functools import cache

import pytest

from forge.loader import loads
from forge.model import Game
from forge.verifier import severity, verify
from forge.verifier.core import Acc
from forge.verifier.policy import SEVERITY
from conftest import DATA

CROSS = {
    "terrain-shift",
    "terrain-modifier",
    "unit-entry",
    "unit-entry-text",
    "place-name",
    "place-duplicate",
    "example-illegal",
}


@cache
def text_of(name: str) -> str:
    return (DATA / f"{name}.yaml").read_text(encoding="utf-8")


def planted(name: str, *edits: tuple[str, str], examples: str = "") -> Game:
    """A seed game with each ``old`` replaced by ``new`` (``old`` must occur once) and ``examples`` appended."""
    text = text_of(name)
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    if examples:
        assert text.rstrip().splitlines()[-1].startswith("    ")  # the file ends inside the examples list
        text = text.rstrip("\n") + "\n" + examples
    return loads(text, f"{name}.yaml")


@cache
def seed(name: str) -> Game:
    return loads(text_of(name), f"{name}.yaml")


def keys(game: Game) -> set[tuple[str, str, str]]:
    return {(f.kind, f.ref or "", f.message) for f in verify(game)}


def added(name: str, game: Game) -> list[tuple[str, str, str]]:
    """The findings ``game`` has and the unchanged seed game has not (info included)."""
    return sorted(keys(game) - keys(seed(name)))


SEEDS = ["hells_gate", "first_panzer_army", "ukraine_43", "escape_from_hells_gate", "tabletop_hells_gate"]


@pytest.mark.parametrize("name", SEEDS)
def test_seed_games_raise_no_cross_check_finding(name: str) -> None:
    assert [k for k in keys(seed(name)) if k[0] in CROSS] == []


def test_new_kinds_are_in_the_policy() -> None:
    assert {k: SEVERITY[k] for k in sorted(CROSS | {"example-map-gap"})} == {
        "example-illegal": "warning",
        "example-map-gap": "warning",
        "place-duplicate": "warning",
        "place-name": "error",
        "terrain-modifier": "error",
        "terrain-shift": "error",
        "unit-entry": "error",
        "unit-entry-text": "warning",
    }


# ------------------------------------------------------------------------------------------------ terrain
def test_terrain_chart_shift_against_the_shift_list() -> None:
    g = planted(
        "hells_gate",
        (
            'combat: {text: "One column left; tanks attack at double strength", shift: -1}',
            'combat: {text: "One column left; tanks attack at double strength", shift: -2}',
        ),
    )
    new = added("hells_gate", g)
    assert [(k, r) for k, r, _ in new] == [("terrain-shift", "terrain.woods")]
    for needle in ("-2", "woods -1"):
        assert needle in new[0][2]


def test_shift_list_value_is_tied_to_its_terrain_by_id_and_by_text() -> None:
    # the woods shift also stands for Cherkassy's city hex (its text names Cherkassy, the city terrain's name)
    g = planted(
        "hells_gate",
        (
            'when: "Defender in woods or in Cherkassy (F6)", shift: -1,',
            'when: "Defender in woods or in Cherkassy (F6)", shift: -2,',
        ),
    )
    refs = {r for k, r, _ in added("hells_gate", g) if k == "terrain-shift"}
    assert refs == {"terrain.woods", "terrain.city"}


def test_river_condition_against_the_terrain_chart() -> None:
    g = planted(
        "hells_gate",
        (
            'shift_when: "at least half the attackers across river hexsides"',
            'shift_when: "all attackers across river hexsides"',
        ),
    )
    new = added("hells_gate", g)
    assert [(k, r) for k, r, _ in new] == [("terrain-shift", "terrain.river")]
    assert "half-across-river" in new[0][2]


def test_shift_by_side_against_the_shift_list() -> None:
    g = planted(
        "first_panzer_army",
        (
            'german: {text: "Two columns left", shift: -2,',
            'german: {text: "Two columns left", shift: -3,',
        ),
    )
    new = added("first_panzer_army", g)
    assert [(k, r) for k, r, _ in new] == [("terrain-shift", "terrain.fortified_locality")]
    assert "fort-german" in new[0][2]


DIFFICULT = (
    'cavalry ignores it"\n    combat: {text: "Defender x2; tank units attack it at x2", defense_multiplier: "2"}'
)


def test_terrain_defence_against_the_modifiers() -> None:
    hills = '    pattern: hills\n    movement: {all: 1}\n    combat: {text: "Defender +2", defense_bonus: 2}'
    g = planted("ukraine_43", (hills, hills.replace("defense_bonus: 2", "defense_bonus: 3")))
    new = [x for x in added("ukraine_43", g) if x[0] in CROSS]
    assert [(k, r) for k, r, _ in new] == [("terrain-modifier", "terrain.hills")]
    g = planted(
        "tabletop_hells_gate",
        (
            DIFFICULT,
            DIFFICULT.replace('multiplier: "2"', 'multiplier: "3"'),
        ),
    )
    new = [x for x in added("tabletop_hells_gate", g) if x[0] in CROSS]
    assert [(k, r) for k, r, _ in new] == [("terrain-modifier", "terrain.difficult")]


# ------------------------------------------------------------------------------------------------ units
ENTRY_24 = 'entry: {turn: 4, condition: "only if a Soviet unit has ever entered A2, A3, A4, A5 or A6", rule: "6.2"}'


def test_entry_turn_against_its_own_special_rule() -> None:
    g = planted("hells_gate", (ENTRY_24, ENTRY_24.replace("turn: 4", "turn: 5")))
    new = added("hells_gate", g)
    assert [(k, r) for k, r, _ in new] == [("unit-entry", "ger-24pz")]
    for needle in ("6.2", "turn 5"):
        assert needle in new[0][2]


def test_entry_turn_against_another_rule_naming_the_arrival_is_a_warning() -> None:
    g = planted(
        "hells_gate",
        (
            '  - {rule: "11.5", title: Turn 8,',
            '  - {rule: "11.9", title: Late panzers, turns: [6], summary: "The 24th Panzer Division arrives."}\n'
            '  - {rule: "11.5", title: Turn 8,',
        ),
    )
    new = added("hells_gate", g)
    assert [(k, r) for k, r, _ in new] == [("unit-entry-text", "ger-24pz")]
    assert SEVERITY["unit-entry-text"] == "warning"


def test_entry_turn_against_the_turn_marks() -> None:
    g = planted("hells_gate", ('    - {number: 3, marks: ["11.3"]}', '    - {number: 3, marks: ["11.3", "6.2"]}'))
    assert [(k, r) for k, r, _ in added("hells_gate", g)] == [("unit-entry", "ger-24pz")]


def test_setup_and_entry_together_and_an_entry_off_the_track() -> None:
    # the loader refuses both (setup with entry, an entry after the last turn); a game built in code is still checked
    hg = seed("hells_gate")

    def with_11pz(**update: object) -> Game:
        units = [u.model_copy(update=update) if u.id == "ger-11pz" else u for u in hg.units]
        return hg.model_copy(update={"units": units})

    entry = hg.unit("ger-11pz").entry
    assert entry is not None
    both = with_11pz(setup="B7")
    assert [(k, r) for k, r, _ in added("hells_gate", both) if k in CROSS] == [("unit-entry", "ger-11pz")]
    late = with_11pz(entry=entry.model_copy(update={"turn": 9}))
    assert [(k, r) for k, r, _ in added("hells_gate", late) if k in CROSS] == [
        ("example-illegal", "t1-b6-odds"),  # it attacks B6 on turn 1
        ("unit-entry", "ger-11pz"),
    ]


# ------------------------------------------------------------------------------------------------ places
def test_a_place_the_rules_put_in_another_hex() -> None:
    g = planted("hells_gate", ("units in or next to Korsun (E3) stay put", "units in or next to Korsun (E4) stay put"))
    new = added("hells_gate", g)
    assert [(k, r) for k, r, _ in new] == [("place-name", "special_rules[11.2]")]
    for needle in ("E4", "E3"):
        assert needle in new[0][2]


def test_a_hex_the_rules_call_by_another_spelling() -> None:
    g = planted("hells_gate", ("No German entry into Tichonovka (B3)", "No German entry into Tichonowka (B3)"))
    new = added("hells_gate", g)
    assert [(k, r) for k, r, _ in new] == [("place-name", "special_rules[11.2]")]
    for needle in ("Tichonowka", "Tichonovka"):
        assert needle in new[0][2]


def test_hexes_placed_by_bearing_from_a_named_place_are_not_its_hexes() -> None:
    g = planted(
        "hells_gate",
        (
            "units in or next to Korsun (E3) stay put",
            "units in or next to Korsun (E3) or south of Korsun (D3) stay put",
        ),
    )
    assert [k for k in added("hells_gate", g) if k[0] in CROSS] == []


@pytest.mark.parametrize(
    ("name", "line", "place"),
    [
        ("first_panzer_army", '    Vinnitsa: ["4513", "4612", "4613"]', "Vinnitsa"),
    ],
)
def test_one_name_on_several_hexes_needs_a_place(name: str, line: str, place: str) -> None:
    text = text_of(name)
    start = text.index("  places:\n" + line)
    g = planted(name, (text[start : text.index("\n", start + len("  places:\n")) + 1], ""))
    new = added(name, g)
    assert [(k, r) for k, r, _ in new] == [("place-duplicate", place)]
    assert SEVERITY["place-duplicate"] == "warning"


def test_a_declared_place_must_lie_on_the_map() -> None:
    g = planted("hells_gate", ("  hexes:\n    A1:", "  places:\n    Cherkassy: [F6, E3]\n  hexes:\n    A1:"))
    new = [k for k in added("hells_gate", g) if k[0].startswith("place-")]  # cherkassy-f7's message changes too
    assert [(k, r) for k, r, _ in new] == [("place-name", "Cherkassy")]
    assert "Korsun" in new[0][2]


EX = '  - {{id: {id}, rule: "11.2", kind: {kind}, summary: planted, given: {given}, states: {states}}}\n'


def test_example_places_both_ways() -> None:
    ok = "".join(
        [
            EX.format(id="p1", kind="hex", given="{name: Korsun}", states="{hex: E3}"),
            EX.format(id="p2", kind="hex", given="{name: Cherkassy}", states="{hex: F6}"),
            EX.format(id="p3", kind="hex", given="{hex: F6}", states="{town: Cherkassy}"),
            EX.format(id="p4", kind="hex", given="{unit: ger-24pz, turn: 4, arrives: Korsun}", states="{hex: E3}"),
        ]
    )
    g = planted("hells_gate", examples=ok)
    f = verify(g)
    assert [x for x in f if severity(x) != "info"] == [x for x in verify(seed("hells_gate")) if severity(x) != "info"]
    assert {k for k, *_ in f.passed["p1"]} == {"hex"}
    assert {k for k, *_ in f.passed["p3"]} == {"town"}
    assert {k for k, *_ in f.passed["p4"]} == {"hex", "turn"}
    bad = "".join(
        [
            EX.format(id="q1", kind="hex", given="{name: Korsun}", states="{hex: E4}"),
            EX.format(id="q2", kind="hex", given="{hex: E3}", states="{town: Yanovka}"),
        ]
    )
    new = added("hells_gate", planted("hells_gate", examples=bad))
    assert [(k, r) for k, r, _ in new] == [("example-mismatch", "q1"), ("example-mismatch", "q2")]


def test_places_in_examples_of_other_kinds() -> None:
    ex = EX.format(id="m1", kind="movement", given="{unit: ger-24pz, turn: 5, at: Korsun}", states="{hex: E4}")
    new = added("hells_gate", planted("hells_gate", examples=ex))
    assert [(k, r) for k, r, _ in new] == [("example-mismatch", "m1")]
    assert "E3" in new[0][2]


def test_an_example_with_a_unit_and_a_turn_against_its_entry() -> None:
    arrives = EX.format(id="a1", kind="hex", given="{unit: ger-24pz, turn: 3, arrives: Korsun}", states="{hex: E3}")
    new = added("hells_gate", planted("hells_gate", examples=arrives))
    assert [(k, r) for k, r, _ in new] == [("example-mismatch", "a1")]
    for needle in ("turn = 3", "4"):
        assert needle in new[0][2]
    at = EX.format(id="a2", kind="hex", given="{unit: ger-24pz, turn: 2, at: Korsun}", states="{hex: E3}")
    new = added("hells_gate", planted("hells_gate", examples=at))
    assert [(k, r) for k, r, _ in new] == [("example-illegal", "a2")]
    for needle in ("ger-24pz", "turn 2"):
        assert needle in new[0][2]


# ------------------------------------------------------------------------------------------------ legality
def test_an_attacker_before_it_arrives() -> None:
    ex = EX.format(
        id="l1",
        kind="odds",
        given="{turn: 1, attackers: [ger-11pz, ger-24pz], defenders: [sov-29tc], defender_hex: B6, "
        "attack: 15, defense: 2}",
        states='{column: "6:1-7:1"}',
    )
    new = added("hells_gate", planted("hells_gate", examples=ex))
    assert [(k, r) for k, r, _ in new] == [("example-illegal", "l1")]
    for needle in ("ger-24pz", "turn 1", "turn 4"):
        assert needle in new[0][2]


def test_an_attacker_not_next_to_the_defender() -> None:
    far = EX.format(
        id="l2",
        kind="odds",
        given="{turn: 1, attackers: [sov-29tc], defenders: [ger-106th], defender_hex: B7, attacker_hexes: [A1], "
        "attack: 6, defense: 4}",
        states='{column: "3:2"}',
    )
    new = added("hells_gate", planted("hells_gate", examples=far))
    assert [(k, r) for k, r, _ in new if k in CROSS] == [("example-illegal", "l2")]
    for needle in ("sov-29tc", "A1", "B7", "turn 1"):
        assert needle in new[0][2]
    # within a range the example gives it is legal
    near = far.replace("attacker_hexes: [A1],", "attacker_hexes: [A1], range: 6,")
    assert [k for k in added("hells_gate", planted("hells_gate", examples=near)) if k[0] in CROSS] == []


def test_on_turn_1_an_attacker_stands_where_it_sets_up() -> None:
    """No attacker hexes given: on turn 1 the attackers are where they set up (where the engine reads the river and
    terrain from), so one set up far away is not next to the defender."""
    far = EX.format(
        id="l3",
        kind="odds",
        given="{turn: 1, attackers: [sov-29tc, sov-5gtc], defenders: [ger-106th, ger-3pz], defender_hex: B7, "
        "defense: 4}",
        states='{column: "2:1"}',
    )
    new = [(k, r, msg) for k, r, msg in added("hells_gate", planted("hells_gate", examples=far)) if k in CROSS]
    assert [(k, r) for k, r, _ in new] == [("example-illegal", "l3")]
    for needle in ("sov-5gtc", "B1", "B7", "turn 1"):
        assert needle in new[0][2]
    # on a later turn the units may have moved: their set-up hexes decide nothing
    later = far.replace("{turn: 1,", "{turn: 3,")
    assert [k for k in added("hells_gate", planted("hells_gate", examples=later)) if k[0] in CROSS] == []


# ------------------------------------------------------------------------------------------------ never withheld
def test_a_mismatch_with_units_and_a_turn_is_an_error_not_unmodelled() -> None:
    ex = EX.format(
        id="w1",
        kind="combat",
        given="{turn: 1, attackers: [ger-11pz, ger-14pz], defenders: [sov-29tc], defender_hex: B6, "
        'column: "4:1-5:1", die: 2, attack: all-out}',
        states="{hits: 2}",
    )
    new = added("hells_gate", planted("hells_gate", examples=ex))
    assert [(k, r) for k, r, _ in new] == [("example-mismatch", "w1")]


def test_a_mismatch_on_a_partial_map_is_a_warning_with_its_reason() -> None:
    """Never withheld: the seed Ukraine '43 gives the Izium Bend four river hexsides, the partial map data none;
    the designer is shown the difference, as a warning that says the map is partial."""
    izium = [f for f in verify(seed("ukraine_43")) if f.ref == "izium-bend" and f.kind == "example-map-gap"]
    assert [(f.stated, f.computed, severity(f)) for f in izium] == [("4", "0", "warning")]
    assert "partial" in izium[0].message
    # planted: a unit's move on a turn across hexsides the partial map does not describe
    ex = EX.format(
        id="w2",
        kind="movement",
        given='{unit: ger-16pz, turn: 1, path: ["2218", "2119"]}',
        states="{rivers_crossed: 1}",
    )
    new = added("first_panzer_army", planted("first_panzer_army", examples=ex))
    assert [(k, r) for k, r, _ in new] == [("example-map-gap", "w2")]


def test_more_features_than_the_book_states_is_never_excused_by_a_partial_map() -> None:
    """A partial map that describes a river the book says is not crossed disagrees with the book: undescribed
    features cannot explain a feature too many."""
    ex = EX.format(
        id="w3",
        kind="movement",
        given='{unit: ger-16pz, turn: 1, path: ["2218", "2119"]}',
        states="{rivers_crossed: 0}",
    )
    river = ("  hexsides: []", '  hexsides:\n    - {between: ["2218", "2119"], features: [river]}')
    new = added("first_panzer_army", planted("first_panzer_army", river, examples=ex))
    assert [(k, r) for k, r, _ in new if r == "w3"] == [("example-map-gap", "w3")]


def test_check_value_records_a_partial_map_mismatch() -> None:
    ex = seed("ukraine_43").examples[0]
    acc = Acc(ex)
    acc.check_value("k", 4, 0, partial_map="partial")
    acc.skip("k", "a later handler cannot compute it")
    assert acc.mismatches == [("k", 4, 0, "")]
    assert "k" in acc.partial
    assert acc.unchecked == {}
