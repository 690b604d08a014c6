"""Rule claims that were "[not modelled]" and are now compared with structured data (issue 8, the verifier's
reach): Escape's air markers bombarding at any range (``rules.limits[].exempt``) and the 5th GTA's activation on
contact (``special_rules[].activates``), First Panzer Army's cost of leaving the map (``rules.movement.exit_mp``)
and the tabletop variant's condition for a retreat (``rules.retreat.allowed_if``).

Properties:
- on the book as encoded each of these claims agrees, counted as compared with the data;
- changing the claimed value, or the data field it is read from, gives an ``example-mismatch`` error naming the
  example and the key (both directions, for every claim; a warning where the example gives inputs no rule field
  holds, First Panzer Army's exit hexes);
- a claim whose input the book does not give says so (``book``, a rifle corps's reduced face: no such counter),
  one that is no rule says that (``context``, how a printed unit ID reads), never "not modelled";
- a marker the example names that the game does not have is reported, never a traceback.
"""

from __future__ import annotations

from functools import cache

import pytest
from conftest import DATA, forge_run

from forge.loader import loads
from forge.model import Game
from forge.verifier import verify
from forge.verifier.policy import severity


@cache
def text(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def planted(name: str, *edits: tuple[str, str]) -> Game:
    t = text(name)
    for old, new in edits:
        assert t.count(old) == 1, old
        t = t.replace(old, new)
    return loads(t, name)


def claim(game: Game, example: str, key: str) -> tuple[str, str, str]:
    c = next(c for c in verify(game).claims if (c.example, c.key) == (example, key))
    return c.status, c.reason, c.why


ESCAPE = "escape_from_hells_gate.yaml"
FPA = "first_panzer_army.yaml"
TABLETOP = "tabletop_hells_gate.yaml"

# (file, example, key, an edit of the stated value, an edit of the data it is read from)
CASES = [
    (
        ESCAPE,
        "bombardment-range",
        "air_range",
        ("states: {range_hexes: 2, air_range: unlimited}", "states: {range_hexes: 2, air_range: 2}"),
        ("max: 2, exempt: [sf-luftwaffe, sf-red-air]", "max: 2, exempt: [sf-luftwaffe]"),
    ),
    (
        ESCAPE,
        "fifth-gta-activation",
        "activated",
        ('states: {activated: "all units of that corps"}', 'states: {activated: "all units the rule holds"}'),
        ("title: 5th Guards Tank Army, activates: group,", "title: 5th Guards Tank Army, activates: unit,"),
    ),
    (
        FPA,
        "exit-vp",
        "exit_mp",
        ("states: {per_corps: 1, max: 4, exit_mp: 1}", "states: {per_corps: 1, max: 4, exit_mp: 2}"),
        ("    exit_mp: 1   #", "    exit_mp: 3   #"),
    ),
    (
        TABLETOP,
        "retreat-reduction",
        "allowed_when",
        ('allowed_when: "defender CS >= losses"', 'allowed_when: "whenever the result allows"'),
        ("    allowed_if: strength-at-least-losses", "    # allowed_if: strength-at-least-losses"),
    ),
]


@pytest.mark.parametrize(("name", "example", "key"), [c[:3] for c in CASES])
def test_the_book_as_encoded_agrees(name: str, example: str, key: str) -> None:
    status, reason, _ = claim(planted(name), example, key)
    assert status == "data", reason


def _named(game: Game, example: str, key: str) -> list[str]:
    return [
        f.kind
        for f in verify(game)
        if severity(f) != "info" and f.ref == example and str(f.extra.get("key", "")).split("[")[0] == key
    ]


# exit-vp also gives the exit hexes, which no rule field holds: its disagreement is a warning saying so
KIND = {"exit-vp": "example-unmodelled"}


@pytest.mark.parametrize(("name", "example", "key", "stated", "data"), CASES)
def test_a_changed_claim_or_changed_data_is_reported(
    name: str, example: str, key: str, stated: tuple[str, str], data: tuple[str, str]
) -> None:
    for edit in (stated, data):
        game = planted(name, edit)
        assert claim(game, example, key)[0] == "mismatch", edit
        assert _named(game, example, key) == [KIND.get(example, "example-mismatch")], edit


def test_the_claims_nothing_can_compute_say_why() -> None:
    status, reason, why = claim(planted(ESCAPE), "designation-reading", "4/47")
    assert (status, why) == ("unchecked", "context")
    assert "no bearing on play" in reason
    status, reason, why = claim(planted(FPA), "rifle-corps-return", "strength")
    assert (status, why) == ("unchecked", "book")
    assert "no such unit" in reason


def test_a_reduced_face_the_data_gives_is_compared() -> None:
    # a rifle corps counter in the data makes the claim checkable: its reduced face is read, both ways
    unit = (
        '  - {id: sov-rc, side: soviet, group: non-mechanized, name: A rifle corps, label: "1", type: infantry, '
        'size: XXX, steps: ["3-3", "REDUCED"]}\n'
    )
    anchor = "  - {id: sov-9mech,"
    for face, status in (("1-1", "data"), ("2-1", "mismatch")):
        game = planted(FPA, (anchor, unit.replace("REDUCED", face) + anchor))
        assert claim(game, "rifle-corps-return", "strength")[0] == status


def test_an_unknown_marker_is_reported_not_raised() -> None:
    game = planted(ESCAPE, ("counters: [sf-luftwaffe, sf-red-air]}}}", "counters: [sf-luftwaffe, sf-nowhere]}}}"))
    findings = [f for f in verify(game) if f.ref == "bombardment-range"]
    assert any("sf-nowhere" in f.message for f in findings)


def _check_refuses(tmp_path, game: str, old: str, new: str) -> str:  # type: ignore[no-untyped-def]
    """`forge check` of ``game`` with its one ``old`` made ``new``: exit 2, located at the line of ``new``; the
    message."""

    text = (DATA / game).read_text("utf-8")
    assert text.count(old) == 1
    bad = tmp_path / "g.yaml"
    bad.write_text(text.replace(old, new), "utf-8")
    r = forge_run("check", str(bad))
    assert r.returncode == 2, r.stderr
    line = next(i for i, ln in enumerate(bad.read_text("utf-8").splitlines(), 1) if new.strip() in ln)
    assert f"g.yaml:{line}:" in r.stderr
    return r.stderr


def test_check_refuses_an_exemption_that_names_no_counter(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A misspelt id in a limit's ``exempt`` would silently bind the counter: `forge check` names it, located."""
    err = _check_refuses(
        tmp_path, ESCAPE, "exempt: [sf-luftwaffe, sf-red-air]", "exempt: [sf-luftwafe, sf-red-air]"
    )
    assert "'sf-luftwafe' is not a known unit or marker id (did you mean 'sf-luftwaffe'?)" in err


def test_a_negative_cost_of_leaving_the_map_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``exit_mp`` is a cost in movement points: a negative one is a typing slip, refused where it stands."""
    err = _check_refuses(tmp_path, FPA, "    exit_mp: 1   #", "    exit_mp: -1   #")
    # the member that takes ``unknown`` is named as such, not as "expected a mapping" (its YAML form)
    assert "rules.movement.exit_mp: expected at least 0 or 'unknown', got -1" in err
