"""Rule against rule (issue 22): ``rules.permissions`` statements that forbid or permit an action under a condition,
compared with each other and with the examples that ``does`` the action (forge/verifier/contradictions.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import forge_run
from forge import model as m
from forge.errors import LoadError
from forge.loader import loads_document
from forge.verifier import verify
from forge.verifier.contradictions import can_hold_together
from forge.verifier.policy import SEVERITY

ROOT = Path(__file__).resolve().parents[1]

NO_FLYING = {
    "id": "storm-grounds", "actions": ["strike", "patrol"], "allowed": False, "when": {"weather": "storm"},
    "rule": "9.1", "source_line": 40, "summary": "Storm: no air unit flies.",
}
BLUE_PATROLS = {
    "id": "blue-patrols", "actions": ["patrol"], "side": "blue", "allowed": True, "when": {"weather": "storm"},
    "rule": "9.2", "source_line": 44, "summary": "Storm step: Blue may patrol.",
}


def _game(permissions: list[dict[str, Any]], examples: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A small game written for these tests: two sides, three weathers, three turns (the third of rolled weather)."""
    return {
        "format": 1,
        "game": {
            "id": "skies", "title": "Skies", "source": "test",
            "scale": {"km_per_hex": 10, "days_per_turn": 1},
            "sides": [
                {"id": "red", "name": "Red", "colour": "#c8102e"},
                {"id": "blue", "name": "Blue", "colour": "#1f4e9c"},
            ],
            "first_side": "red",
        },
        "map": {
            "grid": {"kind": "hex", "columns": 4, "rows": 3, "labels": "col,row"},
            "hex_size": "1in", "status": "complete", "default_terrain": "clear",
        },
        "terrain": {"clear": {"name": "Clear", "movement": {"all": 1}}},
        "units": [{"id": "r1", "side": "red", "name": "One", "label": "1", "type": "armour", "steps": ["2"]}],
        "turns": {
            "weather": {"states": ["clear", "rain", "storm"], "initial": "clear"},
            "turns": [{"number": 1, "weather": "clear"}, {"number": 2, "weather": "storm"}, {"number": 3}],
        },
        "combat": {
            "kind": "odds",
            "crt": {"columns": ["1:1", "2:1"], "rows": ["1", "2"], "cells": [["AE", "DE"], ["AE", "DE"]]},
            "results": {"AE": {"meaning": "Attacker eliminated"}, "DE": {"meaning": "Defender eliminated"}},
        },
        "rules": {"permissions": permissions},
        "examples": examples or [],
    }


def _load(game: dict[str, Any]) -> tuple[m.Game, Any]:
    return loads_document(yaml.safe_dump(game, sort_keys=False), "skies.yaml")


def _found(game: dict[str, Any]) -> list[Any]:
    g, doc = _load(game)
    return [f for f in verify(g, doc) if f.kind == "rule-contradiction"]


def test_the_kind_is_a_warning() -> None:
    assert SEVERITY["rule-contradiction"] == "warning"


def test_a_permission_against_a_prohibition_under_its_condition_is_one_warning() -> None:
    found = _found(_game([NO_FLYING, BLUE_PATROLS]))
    assert len(found) == 1
    f = found[0]
    assert f.path == ("rules", "permissions", 1)
    assert f.line is not None
    assert f.book_line == 44
    assert f.extra["other_line"] == "40"
    assert "patrol" in f.message
    assert "storm" in f.message
    assert f.stated == "Storm step: Blue may patrol."
    assert f.computed == "Storm: no air unit flies."


@pytest.mark.parametrize(
    "change",
    [
        {"when": {"weather": "rain"}},  # another condition
        {"actions": ["bomb"]},  # another action
        {"exception_to": ["storm-grounds"]},  # the book makes it the rule's exception
        {"allowed": False},  # both forbid
    ],
)
def test_no_contradiction_where_the_statements_do_not_meet(change: dict[str, Any]) -> None:
    assert _found(_game([NO_FLYING, {**BLUE_PATROLS, **change}])) == []


def test_statements_for_two_sides_do_not_meet() -> None:
    red_no = {**NO_FLYING, "side": "red"}
    assert _found(_game([red_no, BLUE_PATROLS])) == []
    assert len(_found(_game([{**red_no, "side": "blue"}, BLUE_PATROLS]))) == 1


def _doing(**given: Any) -> dict[str, Any]:
    return {"id": "turn-step", "rule": "9.3", "kind": "claim", "summary": "Blue patrols in the worked turn.",
            "given": {"does": ["patrol"], "side": "blue", **given}, "states": {}, "source_line": 60}


def test_an_example_doing_it_under_the_condition_is_one_warning_at_its_does() -> None:
    found = _found(_game([NO_FLYING], [_doing(turn=2)]))  # turn 2's weather is storm
    assert len(found) == 1
    assert found[0].path == ("examples", 0, "given", "does")
    assert found[0].book_line == 60
    assert found[0].extra["other_line"] == "40"


@pytest.mark.parametrize("given_", [{"turn": 1}, {"turn": 3}, {"weather": "rain"}, {}])
def test_an_example_whose_weather_is_another_or_unknown_is_nothing(given_: dict[str, Any]) -> None:
    # turn 1 is clear; turn 3's weather is rolled (unknown): it may well not have been a storm
    assert _found(_game([NO_FLYING], [_doing(**given_)])) == []


def test_a_later_step_of_a_worked_turn_takes_the_turn_from_the_first() -> None:
    first = {"id": "turn-start", "rule": "9.3", "kind": "claim", "summary": "The worked turn begins.",
             "given": {"turn": 2}, "states": {}, "source_line": 58}
    later = {**_doing(), "follows": "turn-start"}
    assert len(_found(_game([NO_FLYING], [first, later]))) == 1
    first["given"] = {"turn": 1}
    assert _found(_game([NO_FLYING], [first, later])) == []


def test_an_exception_permits_the_example() -> None:
    exc = {**BLUE_PATROLS, "exception_to": ["storm-grounds"]}
    assert _found(_game([NO_FLYING, exc], [_doing(turn=2)])) == []


@settings(max_examples=60, deadline=None)
@given(
    a=st.lists(st.sampled_from(["clear", "rain", "storm"]), max_size=3),
    b=st.lists(st.sampled_from(["clear", "rain", "storm"]), max_size=3),
    sa=st.sampled_from([None, "supplied", "unsupplied"]),
    sb=st.sampled_from([None, "supplied", "unsupplied"]),
)
def test_conditions_hold_together_exactly_when_some_situation_meets_both(
    a: list[str], b: list[str], sa: str | None, sb: str | None
) -> None:
    ca, cb = m.Condition(weather=a, supply=sa), m.Condition(weather=b, supply=sb)
    situations = [(w, s) for w in ("clear", "rain", "storm") for s in ("supplied", "unsupplied")]

    def meets(c: m.Condition, w: str, s: str) -> bool:
        return (not c.weather or w in c.weather) and (c.supply is None or c.supply == s)

    expected = any(meets(ca, w, s) and meets(cb, w, s) for w, s in situations)
    assert can_hold_together(ca, cb) == expected == can_hold_together(cb, ca)
    assert can_hold_together(None, cb)
    assert can_hold_together(ca, None)


def _problems(game: dict[str, Any]) -> list[Any]:
    with pytest.raises(LoadError) as e:
        _load(game)
    return e.value.problems


def test_check_refuses_an_unknown_key_located_with_the_accepted_keys() -> None:
    bad = {**BLUE_PATROLS, "forbids": ["patrol"]}
    (p,) = _problems(_game([NO_FLYING, bad]))
    assert p.path == "rules.permissions[1].forbids"
    assert p.line is not None
    assert "actions" in p.message
    assert "allowed" in p.message
    assert "exception_to" in p.message


@pytest.mark.parametrize(
    ("change", "path", "words"),
    [
        ({"when": {"weather": "snow"}}, "rules.permissions[1].when.weather[0]", "not a weather state"),
        ({"side": "green"}, "rules.permissions[1].side", "not a known side"),
        ({"actions": ["patroll"]}, "rules.permissions[1].actions[0]", "did you mean 'patrol'"),
        ({"exception_to": ["storm-ground"]}, "rules.permissions[1].exception_to[0]", "storm-grounds"),
        ({"allowed": False, "exception_to": ["storm-grounds"]}, "rules.permissions[1].exception_to[0]",
         "opposite"),
        ({"id": "storm-grounds"}, "rules.permissions[1].id", "used twice"),
    ],
)
def test_check_refuses_a_malformed_statement(change: dict[str, Any], path: str, words: str) -> None:
    problems = _problems(_game([NO_FLYING, {**BLUE_PATROLS, **change}]))
    assert [p.path for p in problems] == [path], problems
    assert words in problems[0].message
    assert problems[0].line is not None


def test_check_refuses_an_example_doing_an_action_no_statement_names() -> None:
    ex = _doing(turn=2)
    ex["given"]["does"] = ["patorl"]
    (p,) = _problems(_game([NO_FLYING], [ex]))
    assert p.path == "examples[0].given.does[0]"
    assert "did you mean 'patrol'" in p.message
    assert "strike" in p.message
    assert p.line is not None


def test_cli_check_exits_2_on_a_malformed_statement(tmp_path: Path) -> None:
    game = _game([NO_FLYING, {**BLUE_PATROLS, "side": "green"}])
    path = tmp_path / "skies.yaml"
    path.write_text(yaml.safe_dump(game, sort_keys=False), encoding="utf-8")
    run = forge_run("check", str(path))
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert "rules.permissions[1].side" in run.stderr + run.stdout


def test_ukraine_reports_rain_against_das_once() -> None:
    from forge.loader import load_document

    g, doc = load_document(ROOT / "data" / "ukraine_43.yaml")
    found = [f for f in verify(g, doc) if f.kind == "rule-contradiction"]
    assert len(found) == 1
    f = found[0]
    assert f.book_line == 1111
    assert f.extra["other_line"] == "1095"
    assert "das" in f.message
    assert f.path[:2] == ("rules", "permissions")
    assert f.line is not None


def test_the_data_games_are_unchanged_without_statements() -> None:
    # a game without rules.permissions gets no finding of the kind (the check adds nothing elsewhere)
    g, doc = _load(_game([]))
    assert g.rules.permissions == []
    assert not [f for f in verify(g, doc) if f.kind == "rule-contradiction"]
