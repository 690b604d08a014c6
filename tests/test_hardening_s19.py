"""Hardening of session 19's surfaces (bench/fuzz_options.py --only-new found these): formation markers
(``markers[].group``) and the counter template's ``marker.group_y``, and the model's non-negative and positive
quantities (``Count``, ``Amount``, ``Positive``).  Each test fails without its fix."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import DATA

from forge import templates as T
from forge.errors import LoadError
from forge.loader import loads
from forge.render import counters

SHIPPED_COUNTER = (Path(__file__).resolve().parent.parent / "templates" / "counter.yaml").read_text("utf-8")
FERRY = (DATA / "ferry_point.yaml").read_text("utf-8")


def _problems(text: str) -> list[str]:
    with pytest.raises(LoadError) as e:
        loads(text, "game.yaml")
    return [str(p) for p in e.value.problems]


# ----------------------------------------------------------------------------------- counter template: group_y
@pytest.mark.parametrize("group_y", ["0", "0.05"])
def test_a_group_y_that_puts_a_markers_text_over_its_code_is_refused(tmp_path: Path, group_y: str) -> None:
    """``marker.group_y: 0`` lets a formation's marker text fill the face up to its top, over the formation's
    code: the template check passed it (its sample marker's two short lines stayed in the middle) and the counters
    printed the text over the code without a word.  The check now draws a marker whose text fills its box too."""
    (tmp_path / "counter.yaml").write_text(SHIPPED_COUNTER.replace("group_y: 0.25", f"group_y: {group_y}"), "utf-8")
    with pytest.raises(LoadError) as e:
        counters.check_template(T.load(tmp_path))
    msgs = [str(p) for p in e.value.problems]
    assert any("the marker overlaps the label" in m and f"{tmp_path / 'counter.yaml'}:" in m for m in msgs), msgs


def test_the_shipped_group_y_still_passes() -> None:
    counters.check_template(T.shipped())


# ------------------------------------------------------------------------------------------- markers[].group
def test_a_group_on_a_side_with_no_groups_says_the_side_has_none() -> None:
    """Was: "'A' is not a known group of side 'red' (known: )" -- an empty list to choose from."""
    doc = yaml.safe_load(FERRY)
    doc["markers"].append({"id": "fz", "name": "fz", "front": "F", "side": "red", "group": "A"})
    doc["units"][0]["group"] = "B"  # a unit of a side with no groups, the same way
    msgs = _problems(yaml.safe_dump(doc, sort_keys=False))
    assert len(msgs) == 2, msgs
    marker = next(m for m in msgs if "markers[3].group" in m)
    unit = next(m for m in msgs if "units[0].group" in m)
    assert marker.startswith("game.yaml:")
    assert "'A' is not a group of side 'red': it has none" in marker
    assert "game.sides[1].groups" in marker
    assert "known: )" not in marker
    assert "'B' is not a group of side 'blue': it has none" in unit
    assert "game.sides[0].groups" in unit


@pytest.mark.parametrize("code", ["", " "])
def test_a_blank_formation_code_on_a_marker_is_refused(code: str) -> None:
    """A side's group may be named "" or " " and a marker could belong to it: its counters then printed no code,
    nothing to tell the pool apart in greyscale, without a word."""
    doc = yaml.safe_load(FERRY)
    doc["game"]["sides"][0]["groups"] = {code: "#8e5ea2"}
    doc["markers"].append({"id": "fz", "name": "fz", "front": "F", "side": "blue", "group": code})
    msgs = _problems(yaml.safe_dump(doc, sort_keys=False))
    assert len(msgs) == 1, msgs
    assert "markers[3].group: " in msgs[0]
    assert "is blank" in msgs[0]


# ----------------------------------------------------------------------------------- Count, Amount, Positive
@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ("km_per_hex: 5", "km_per_hex: 1e400", "game.scale.km_per_hex"),  # YAML reads 1e400 as a string: inf
        ("days_per_turn: 1}", "days_per_turn: 1e999}", "game.scale.days_per_turn"),
        ("{mp: 1, rule", "{mp: 1e400, rule", "rules.movement.allowances[1].mp"),
    ],
)
def test_an_infinite_quantity_is_refused(old: str, new: str, where: str) -> None:
    """An ``Amount`` or ``Positive`` of ``1e400`` was read as infinity: the map printed "1 hex = inf km" and the
    verifier reported "cannot recompute the example: ValueError: Invalid literal for Fraction: 'inf'"."""
    assert FERRY.count(old) == 1
    msgs = _problems(FERRY.replace(old, new))
    assert len(msgs) == 1, msgs
    assert f": {where}: " in msgs[0]
    assert "finite number" in msgs[0]


@pytest.mark.parametrize(
    ("where", "value"),
    [
        (("combat", "results", "DE", "defender_steps"), 10**30),
        (("combat", "results", "DE", "defender_steps"), 10_001),
        (("rules", "movement", "allowances", 1, "mp"), 10_000.5),
        (("game", "scale", "km_per_hex"), 1.0e30),
    ],
)
def test_a_quantity_past_the_bound_is_refused(where: tuple[str | int, ...], value: float) -> None:
    """A combat result's loss of 10**30 steps passed the check, and ``forge verify`` then counted up to it
    (forge/verifier/tables.py compares the chance of each loss from 1 to the largest): a hang.  Every quantity is
    now 10,000 at most (docs/FORMAT.md, *Bounds*)."""
    doc = yaml.safe_load(FERRY)
    doc["combat"]["results"] = {"DE": {"meaning": "defender eliminated", "defender_steps": 1}}
    assert loads(yaml.safe_dump(doc, sort_keys=False), "game.yaml")  # Ferry Point takes this results table
    node = doc
    for k in where[:-1]:
        node = node[k]
    node[where[-1]] = value
    msgs = _problems(yaml.safe_dump(doc, sort_keys=False))
    dotted = ".".join(str(k) for k in where).replace(".1.", "[1].")
    assert len(msgs) == 1, msgs
    assert f"{dotted}: " in msgs[0]
    assert "expected at most 10000" in msgs[0]


@pytest.mark.parametrize("value", ["true", "false"])
def test_a_yes_or_no_is_not_a_quantity(value: str) -> None:
    """pydantic reads a YAML ``true`` as the number 1: ``km_per_hex: true`` made a 1 km hex out of a slip."""
    msgs = _problems(FERRY.replace("km_per_hex: 5", f"km_per_hex: {value}"))
    assert len(msgs) == 1, msgs
    assert "game.scale.km_per_hex: " in msgs[0]
    assert "is not a number" in msgs[0]
    mp = _problems(FERRY.replace("{mp: 1, rule", f"{{mp: {value}, rule"))
    assert len(mp) == 1, mp
    assert "rules.movement.allowances[1].mp: " in mp[0]
    assert f"{value} is not a number" in mp[0]


def test_an_unknown_with_a_stray_key_names_keys_of_the_file() -> None:
    """``{unknown: why, x: 1}`` where a number may be unknown: the key path named pydantic's union tag
    (``km_per_hex.constrained-float``) and the stray key's message listed no accepted key."""
    msgs = _problems(FERRY.replace("km_per_hex: 5", "km_per_hex: {unknown: why, x: 1}"))
    assert not any("constrained" in m for m in msgs), msgs
    stray = next(m for m in msgs if "unknown key 'x'" in m)
    assert "game.scale.km_per_hex.x: " in stray
    assert "(accepted keys: unknown)" in stray
