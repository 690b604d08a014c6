"""Ukraine '43's rule claims that the engine recomputes from structured data (issue 8): table die-roll modifiers,
lone HQs' defence, units that come back after elimination, a scenario's markers and fortification hexes, off-map
rail links, disruption after a move, phase steps, and a VP difference.

Properties:
- on the book as encoded every one of these claims is recomputed and agrees;
- changing the claimed value, or the data it is computed from, gives an error finding that names the example and
  the key (both directions, for every claim);
- a rail link must join map-edge hexes; a scenario cannot put more markers on the map than the game has; a
  modifier the example names must exist (reported, never a traceback);
- the claims whose inputs the book does not give say so (``book``), not "not modelled".
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from forge.cli import main
from forge.loader import load, loads
from forge.model import Game
from forge.verifier import verify
from forge.verifier.policy import severity
from conftest import DATA

U43 = DATA / "ukraine_43.yaml"


@cache
def text() -> str:
    return U43.read_text(encoding="utf-8")


def planted(*edits: tuple[str, str]) -> Game:
    t = text()
    for old, new in edits:
        assert t.count(old) == 1, old
        t = t.replace(old, new)
    return loads(t, "ukraine_43.yaml")


def claim(game: Game, example: str, key: str) -> tuple[str, str, str]:
    c = next(c for c in verify(game).claims if (c.example, c.key) == (example, key))
    return c.status, c.reason, c.why


# (example, key, how it is recomputed, an edit of the stated value, an edit of the data it is computed from)
CASES = [
    (
        "airborne",
        "drm_axis_zoc",
        "data",
        ("early_limit: 1, drm_axis_zoc: 2}", "early_limit: 1, drm_axis_zoc: 3}"),
        ('add: 2, rule: "20.3"}]', 'add: 1, rule: "20.3"}]'),
    ),
    (
        "tiger-stug-return",
        "turns_later",
        "data",
        ("states: {turns_later: 4}", "states: {turns_later: 5}"),
        ('size: II, steps: ["?-?-?"], returns_after: 4,', 'size: II, steps: ["?-?-?"], returns_after: 3,'),
    ),
    (
        "ds-pz-corps-alone",
        "defense_alone",
        "data",
        ("states: {defense_alone: 2}", "states: {defense_alone: 3}"),
        ('defense: 2, rule: "23.3"}', 'defense: 1, rule: "23.3"}'),
    ),
    (
        "railheads",
        "in_scenario",
        "data",
        ("states: {markers: 8, in_scenario: 6}", "states: {markers: 8, in_scenario: 5}"),
        ("markers: {railhead: 6}", "markers: {railhead: 7}"),
    ),
    (
        "scenario-4-bridgeheads",
        "count",
        "data",
        ("states: {count: 3, fortification: soviet}", "states: {count: 4, fortification: soviet}"),
        ('hexes: ["1714", "3223", "3323"], rule: "19.5"}', 'hexes: ["1714", "3223", "3323", "3324"], rule: "19.5"}'),
    ),
    (
        "scenario-4-bridgeheads",
        "fortification",
        "data",
        ("states: {count: 3, fortification: soviet}", "states: {count: 3, fortification: german}"),
        ("{feature: fortification, side: soviet,", "{feature: fortification, side: german,"),
    ),
    (
        "rail-exit",
        "legal",
        "data",
        (
            "side: soviet, movement: rail}\n    states: {legal: true}",
            "side: soviet, movement: rail}\n    states: {legal: false}",
        ),
        ('returns: ["6024", "6026", "6031"]', 'returns: ["6024", "6026"]'),
    ),
    (
        "artillery-ma",
        "disrupted_if_hexes_over",
        "data",
        ("disrupted_if_hexes_over: 1}", "disrupted_if_hexes_over: 2}"),
        ("types: [artillery], over_hexes: 1,", "types: [artillery], over_hexes: 2,"),
    ),
    (
        "dam-vp",
        "lost_if_retaken_and_destroyed",
        "arithmetic",
        ("lost_if_retaken_and_destroyed: 2}", "lost_if_retaken_and_destroyed: 3}"),
        ('captured intact", vp: 4,', 'captured intact", vp: 5,'),
    ),
    (
        "em-marker-removal",
        "em_markers_removed",
        "data",
        ("em_markers_removed: end of Movement Phase", "em_markers_removed: start of Movement Phase"),
        (
            'at: end, text: "Extended Movement markers come off", rule: "3.C.2"',
            'at: start, text: "Extended Movement markers come off", rule: "3.C.2"',
        ),
    ),
    (
        "em-marker-removal",
        "early_pontoon_roll",
        "data",
        ("early_pontoon_roll: start of Exploitation Phase", "early_pontoon_roll: end of Exploitation Phase"),
        ("{id: early-pontoon-roll, at: start,", "{id: early-pontoon-roll, at: end,"),
    ),
]


@cache
def book() -> Game:
    return load(U43)


@pytest.mark.parametrize(("example", "key", "how"), [c[:3] for c in CASES])
def test_the_book_as_encoded_agrees(example: str, key: str, how: str) -> None:
    assert claim(book(), example, key)[0] == how


def _named_error(game: Game, example: str, key: str) -> list[str]:
    return [
        f.kind
        for f in verify(game)
        if severity(f) == "error" and f.ref == example and str(f.extra.get("key", "")).split("[")[0] == key
    ]


@pytest.mark.parametrize(("example", "key", "stated", "data"), [(c[0], c[1], c[3], c[4]) for c in CASES])
def test_a_changed_claim_or_changed_data_is_reported(
    example: str, key: str, stated: tuple[str, str], data: tuple[str, str]
) -> None:
    for edit in (stated, data):
        game = planted(edit)
        assert claim(game, example, key)[0] == "mismatch", edit
        assert _named_error(game, example, key) == ["example-mismatch"], edit


def test_the_same_claim_and_data_changed_together_agree_again() -> None:
    # the computation follows the data, not the book: 5 turns stated and encoded passes
    game = planted(
        ("states: {turns_later: 4}", "states: {turns_later: 5}"),
        ('size: II, steps: ["?-?-?"], returns_after: 4,', 'size: II, steps: ["?-?-?"], returns_after: 5,'),
        ('size: X, steps: ["?-?-?"], returns_after: 4,', 'size: X, steps: ["?-?-?"], returns_after: 5,'),
    )
    assert claim(game, "tiger-stug-return", "turns_later")[0] == "data"


def test_a_rail_link_joins_map_edge_hexes_only() -> None:
    game = planted(
        ('given: {from: "6021", to:', 'given: {from: "5921", to:'),
        ('exits: ["6021"]', 'exits: ["5921"]'),
    )
    status, _, _ = claim(game, "rail-exit", "legal")
    assert status == "mismatch"
    f = next(f for f in verify(game) if f.ref == "rail-exit" and f.kind == "example-mismatch")
    assert "5921 is not on the map edge" in f.message


def test_the_link_is_for_its_side_only() -> None:
    game = planted(("side: soviet, movement: rail}\n", "side: german, movement: rail}\n"))
    assert claim(game, "rail-exit", "legal")[0] == "mismatch"


def test_a_unit_no_rule_covers_is_never_disrupted_by_moving() -> None:
    game = planted(("given: {unit: sov-art-div}", "given: {unit: sov-zhukov}"))
    f = next(f for f in verify(game) if f.ref == "artillery-ma" and f.extra.get("key") == "disrupted_if_hexes_over")
    assert (f.kind, f.stated, f.computed) == ("example-mismatch", "1", "never")


def test_more_markers_on_the_map_than_the_game_has_is_reported() -> None:
    game = planted(("markers: {railhead: 6}", "markers: {railhead: 9}"))
    msgs = [f.message for f in verify(game) if f.kind == "example-invalid" and f.ref == "railheads"]
    assert len(msgs) == 1
    assert "has only 8" in msgs[0]


def test_a_missing_modifier_is_an_invalid_example_not_a_crash() -> None:
    game = planted(("table_modifiers: {drm_axis_zoc: axis-zoc}", "table_modifiers: {drm_axis_zoc: no-such}"))
    msgs = [f.message for f in verify(game) if f.kind == "example-invalid" and f.ref == "airborne"]
    assert len(msgs) == 1
    assert "no modifier 'no-such'" in msgs[0]


@pytest.mark.parametrize(
    ("example", "key", "why", "words"),
    [
        ("first-tank-army", "defense", "book", "no unit's defence is given"),
        ("rail-repair-line", "instant_repair", "book", "the map is partial"),
        ("izium-bend", "inner_river_ignored", "engine", "not modelled"),
    ],
)
def test_what_stays_unchecked_says_why(example: str, key: str, why: str, words: str) -> None:
    status, reason, got = claim(book(), example, key)
    assert (status, got) == ("unchecked", why)
    assert words in reason


def test_ukraine_coverage_of_the_claims() -> None:
    claims = verify(book()).claims
    checked = [c for c in claims if c.status != "unchecked"]
    assert len(checked) / len(claims) >= 0.9
    assert sum(1 for c in claims if c.status == "unchecked" and c.why == "engine") <= 1


def test_forge_check_locates_a_bad_scenario_marker_and_feature_hex(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "u.yaml"
    bad.write_text(
        text()
        .replace("markers: {railhead: 6}", "markers: {railheads: 6}")
        .replace('hexes: ["1714", "3223", "3323"], rule', 'hexes: ["1714", "3223", "9923"], rule'),
        "utf-8",
    )
    assert main(["check", str(bad)]) == 2
    err = capsys.readouterr().err
    lines = bad.read_text("utf-8").splitlines()
    at = {n for n, ln in enumerate(lines, 1) if "railheads: 6" in ln or '"9923"' in ln}
    assert {int(m) for m in re.findall(r"u\.yaml:(\d+):\d+:", err)} == at
    assert "'railheads' is not a known marker id (did you mean 'railhead'?)" in err
    assert "hex '9923' is off the map" in err
    assert "Traceback" not in err
