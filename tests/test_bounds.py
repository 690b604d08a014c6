"""Issue 9, input bounds: each bad value is one located error at check time (file:line:col, what is allowed), exit 2."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from forge.cli import main

SEED = Path(__file__).resolve().parent.parent / "data" / "hells_gate.yaml"


def _game(tmp_path: Path, old: str, new: str) -> Path:
    text = SEED.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "game.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        rc = main(list(argv))
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else 2
    out = capsys.readouterr()
    return rc, out.out + out.err


@pytest.mark.parametrize(
    ("old", "new", "where", "expected"),
    [
        ("hex_size: 1.75in", "hex_size: 1/0in", ":45:3: map.hex_size:", "divides by zero"),
        ("hex_size: 1.75in", "hex_size: 0in", ":45:3: map.hex_size:", "greater than zero"),
        ("hex_size: 1.75in", "hex_size: " + "9" * 300 + "in", ":45:3: map.hex_size:", "too many digits"),
        ("hex_size: 1.75in", "hex_size: 1000000000000in", ":45:3: map.hex_size:", "at most 12 digits"),
        ("hex_size: 1.75in", "hex_size: 7in", ":45:3: map.hex_size:", "from 0.25in to 6in"),
        ("sheet: 17x11in", "sheet: 1x1pt", ":44:10: map.sheet:", "smaller than one hex"),
        ("sheet: 17x11in", "sheet: 8x6in", ":44:10: map.sheet:", "does not fit the 8x6in sheet either way"),
        ("sheet: 17x11in", "sheet: 12x11in", ":44:10: map.sheet:", "a hex_size of at most 1.63in"),
        ("sheet: 17x11in", "sheet: 200x11in", ":44:3: map.sheet:", "larger than 100in"),
        ('"<1:1", "1:1"', '"<1:1", "1:0"', ":223:23: combat.crt.columns[1]:", "divides by zero"),
        ("labels: letter-row", "labels: letter-row, first_row: 0", ":43:3: map.grid:", "first_row must be"),
        ("labels: letter-row", "labels: letter-row, first_column: -1", ":43:3: map.grid:", "from 0 to 1000000"),
        ("  id: hells_gate", "  id: " + "a" * 300, ":11:3: game.id:", "at most 64 characters"),
        ('count: 1, rule: "10.0"', 'count: 1000000000, rule: "10.0"', "markers[0].count:", "expected 0 to 10,000"),
        ("turns: [4], summary", "turns: [1000000000], summary", "special_rules[0].turns[0]:", "expected 1 to 8"),
    ],
)
def test_bad_value_is_one_located_error(tmp_path, capsys, old, new, where, expected) -> None:
    path = _game(tmp_path, old, new)
    rc, out = _run(capsys, "check", str(path))
    assert rc == 2
    assert "Traceback" not in out
    assert f"{path}{where}" in out or where in out, out
    assert expected in out, out
    assert out.count("1 problem") == 1


def test_crt_column_dividing_by_zero_is_refused_by_verify(tmp_path, capsys) -> None:
    path = _game(tmp_path, '"<1:1", "1:1"', '"<1:1", "1:0"')
    rc, out = _run(capsys, "verify", str(path))
    assert rc == 2
    assert "combat.crt.columns[1]: '1:0' divides by zero" in out


@pytest.mark.parametrize(
    ("offset", "expected"),
    [
        ("1/0in,0", "divides by zero"),
        ("9" * 400 + ",0", "at most 5 mm"),
        ("9" * 400 + "mm,0", "too many digits"),
        ("30,0", "calibration page"),
        ("0,-6mm", "at most 5 mm"),
    ],
)
def test_bad_back_offset_names_the_option(tmp_path, capsys, offset, expected) -> None:
    rc, out = _run(capsys, "build", str(SEED), "--out", str(tmp_path / "out"), f"--back-offset={offset}")
    assert rc == 2
    assert "--back-offset" in out, out
    assert expected in out, out
    assert not (tmp_path / "out").exists()


def test_back_offset_bare_numbers_are_millimetres() -> None:
    """The calibration page's scales are in millimetres, so a bare measurement is read in millimetres (issue 10)."""
    from forge.cli import _offset

    dx, dy = _offset("1,-2.5")
    assert dx == pytest.approx(72 / 25.4)
    assert dy == pytest.approx(-2.5 * 72 / 25.4)
    assert _offset("0.5mm,3pt") == pytest.approx((0.5 * 72 / 25.4, 3.0))
    assert _offset("5,-5") == pytest.approx((5 * 72 / 25.4, -5 * 72 / 25.4))


# ---------------------------------------------------------------------------------------- counts and the estimate
def _tiny(**change: object) -> dict[str, Any]:
    """A small valid game as data; ``change`` replaces top-level sections (``map``, ``units`` ...)."""
    game: dict[str, Any] = {
        "format": 1,
        "game": {
            "id": "tiny",
            "title": "Tiny",
            "source": "test",
            "scale": {"km_per_hex": 10, "days_per_turn": 1},
            "sides": [
                {"id": "red", "name": "Red", "colour": "#c8102e"},
                {"id": "blue", "name": "Blue", "colour": "#1f4e9c"},
            ],
            "first_side": "red",
        },
        "map": {
            "grid": {"kind": "hex", "columns": 4, "rows": 3, "labels": "col,row"},
            "hex_size": "1in",
            "status": "complete",
            "default_terrain": "clear",
        },
        "terrain": {"clear": {"name": "Clear", "movement": {"all": 1}}},
        "units": [{"id": "r1", "side": "red", "name": "One", "label": "1", "type": "armour", "steps": ["2"]}],
        "turns": {"turns": [{"number": 1}, {"number": 2}]},
        "combat": {
            "kind": "odds",
            "crt": {"columns": ["1:1", "2:1"], "rows": ["1", "2"], "cells": [["AE", "DE"], ["AE", "DE"]]},
            "results": {"AE": {"meaning": "Attacker eliminated"}, "DE": {"meaning": "Defender eliminated"}},
        },
    }
    game.update(change)
    return game


def _write(tmp_path: Path, game: dict[str, Any]) -> Path:
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(game, sort_keys=False), encoding="utf-8")
    return path


def _units(n: int, copies: int = 1, steps: int = 1) -> list[dict[str, Any]]:
    return [
        {"id": f"u{i}", "side": "red", "name": f"U{i}", "label": str(i), "type": "infantry",
         "steps": [str(k + 1) for k in range(steps)], "copies": copies}
        for i in range(n)
    ]


def _markers(*counts: int) -> list[dict[str, Any]]:
    return [{"id": f"m{i}", "name": f"M{i}", "front": "M", "count": n} for i, n in enumerate(counts)]


def _grid(columns: int, rows: int, hex_size: str = "0.6in", **more: str) -> dict[str, Any]:
    grid = {"kind": "hex", "columns": columns, "rows": rows, "labels": "col,row"}
    return {"grid": grid, "hex_size": hex_size, "status": "complete", "default_terrain": "clear", **more}


def test_tiny_game_is_valid(tmp_path, capsys) -> None:
    rc, out = _run(capsys, "check", "-q", str(_write(tmp_path, _tiny())))
    assert rc == 0, out


@pytest.mark.parametrize(
    ("change", "where", "expected"),
    [
        ({"map": _grid(1000, 101)}, "map.grid", "1000x101 = 101,000 hexes (expected at most 100,000"),
        ({"units": _units(101, copies=100)}, "units", "10,100 units with their copies (expected at most 10,000)"),
        ({"markers": _markers(6000, 4001)}, "markers", "10,001 markers of all kinds together (expected at most 10,"),
        ({"units": _units(100, copies=70, steps=6)}, "units", "21,000 counters"),
        ({"turns": {"turns": [{"number": n} for n in range(1, 1002)]}}, "turns.turns",
         "1,001 turns (expected at most 1,000)"),
        ({"sequence": [{"name": "Move", "summary": "x" * 5001}]}, "sequence[0].summary",
         "5,001 characters of text (expected at most 5,000"),
        ({"map": _grid(60, 10, "1in", sheet="34x22in")}, "map.sheet",
         "does not fit the 34x22in sheet either way (expected a sheet at least 60.25in x"),
    ],
)
def test_count_over_its_bound_is_one_located_error(tmp_path, capsys, change, where, expected) -> None:
    path = _write(tmp_path, _tiny(**change))
    rc, out = _run(capsys, "check", str(path))
    assert rc == 2
    assert re.search(rf"{re.escape(str(path))}:\d+:\d+: {re.escape(where)}: ", out), out
    assert expected in out, out
    assert out.count("1 problem") == 1, out


@pytest.mark.parametrize(
    "change",
    [
        {"map": _grid(1000, 100)},
        {"units": _units(100, copies=100)},
        {"markers": _markers(6000, 4000)},
        {"units": _units(100, copies=50, steps=8)},
        {"turns": {"turns": [{"number": n} for n in range(1, 1001)]}},
        {"sequence": [{"name": "Move", "summary": "word " * 1000}]},
        {"map": _grid(41, 10, "0.8in", sheet="22x34in")},
    ],
)
def test_count_at_its_bound_passes_check(tmp_path, capsys, change) -> None:
    rc, out = _run(capsys, "check", "-q", str(_write(tmp_path, _tiny(**change))))
    assert rc == 0, out


def test_estimate_is_linear_and_names_its_driver() -> None:
    """Twice the hexes (counters, sets) cost more; the costliest part is the driver; nothing is rendered."""
    from forge.builder import BuildOptions
    from forge.estimate import estimate
    from forge.loader import loads

    def est(game: dict[str, Any], **options: Any) -> Any:
        return estimate(loads(yaml.safe_dump(game), "g.yaml"), BuildOptions(**options))

    small, big = est(_tiny(map=_grid(50, 40))), est(_tiny(map=_grid(100, 80)))
    assert big.bytes > small.bytes
    assert big.seconds > small.seconds
    assert big.pages > small.pages
    assert big.driver().what.startswith("map 100x80 hexes = 8,000 hexes")
    sets = est(_tiny(units=_units(300, steps=2)), only=("handout",), sets=20)
    assert sets.driver().option == "--sets 20"
    assert est(_tiny(units=_units(300, steps=2)), only=("handout",), sets=40).seconds > sets.seconds


def test_estimate_of_issue_9s_map_is_conservative() -> None:
    """Issue 9 measured 1,000 x 1,000 hexes at 149 s and 2.6 GB: the estimate is over, not absurdly."""
    from forge.builder import BuildOptions
    from forge.estimate import estimate
    from forge.model import Game

    game = Game.model_validate(_tiny(map=_grid(1000, 1000)))  # over the check-time bound: not via the loader
    est = estimate(game, BuildOptions(only=("map",)))
    assert 2.6e9 <= est.bytes <= 2 * 2.6e9
    assert 149 <= est.seconds <= 3 * 149


@pytest.mark.parametrize(
    ("change", "argv", "where", "expected"),
    [
        # 100,000 hexes pass check, but 6 in hexes make a sheet of some 3,500 letter tiles
        ({"map": _grid(1000, 100, "6in")}, [], "map.grid:", "at most about"),
        ({"units": _units(500, steps=2)}, ["--sets", "200"], "--sets 200:", "sets of this game"),
        ({"units": _units(1000, steps=20)}, ["--only", "images", "--counter-size", "3/4in", "--bleed"],
         "--only images:", "at most about"),
    ],
)
def test_build_estimated_too_costly_is_refused_at_once(tmp_path, capsys, change, argv, where, expected) -> None:
    path = _write(tmp_path, _tiny(**change))
    if "images" not in argv:  # (20,000 steps take a second to load: load that game once)
        assert _run(capsys, "check", "-q", str(path))[0] == 0
    out_dir = tmp_path / "out"
    rc, out = _run(capsys, "build", str(path), "--out", str(out_dir), *argv)
    assert rc == 2
    assert "Traceback" not in out
    assert where in out, out
    assert expected in out, out
    assert "estimated" in out, out
    assert out.count("1 problem") == 1, out
    assert not out_dir.exists()


def test_map_refusal_is_located_and_verify_refuses_too(tmp_path, capsys) -> None:
    path = _write(tmp_path, _tiny(map=_grid(1000, 100, "6in")))
    rc, out = _run(capsys, "build", str(path), "--out", str(tmp_path / "out"))
    assert rc == 2
    located = rf"{re.escape(str(path))}:\d+:\d+: map.grid: map 1000x100 hexes = 100,000 hexes, [\d,]+ letter tiles"
    assert re.search(located, out), out
    assert "GB of memory (at most 1 GB)" in out, out
    rc, out = _run(capsys, "verify", str(path))
    assert rc == 2
    assert "map.grid: map 1000x100" in out, out


def test_build_just_under_the_limits_is_not_refused(tmp_path, capsys) -> None:
    """The most sets the refusal names are allowed and one more is not; the largest checkable map at 0.6 in
    builds within the limits (nothing is built here)."""
    from forge.builder import BuildOptions
    from forge.estimate import estimate
    from forge.loader import load, loads

    path = _write(tmp_path, _tiny(units=_units(500, steps=2)))
    rc, out = _run(capsys, "build", str(path), "--out", str(tmp_path / "out"), "--sets", "200")
    found = re.search(r"at most (\d+) sets of this game", out)
    assert rc == 2
    assert found, out
    most = int(found.group(1))
    game = load(path)
    with_sets = BuildOptions(only=("map", "counters", "cards", "handout"), sets=most)
    assert not estimate(game, with_sets).too_big()
    assert estimate(game, dataclasses.replace(with_sets, sets=most + 1)).too_big()
    big_map = loads(yaml.safe_dump(_tiny(map=_grid(1000, 100))), "g.yaml")
    assert not estimate(big_map, BuildOptions()).too_big()


def test_check_and_estimate_mirror_the_renderers() -> None:
    """The check's sheet tolerance and unknown-marker count are the map's and the counter sheets' own."""
    from forge import check
    from forge.render import counters
    from forge.render import map as map_

    assert check.SHEET_BLEED == map_.BLEED_TOLERANCE
    assert check.UNKNOWN_MARKERS == counters.UNKNOWN_MARKER_COUNT


def test_a_crt_row_that_is_no_die_roll_is_refused_at_check(tmp_path, capsys) -> None:
    """Verify and the cards read CRT rows as die results; a label that is none is a located error at check time."""
    text = SEED.read_text(encoding="utf-8")
    assert '    rows: ["1", "2", "3", "4", "5", "6"]' in text
    path = tmp_path / "g.yaml"
    path.write_text(text.replace('    rows: ["1", "2",', '    rows: ["1\u0308", "2",', 1), encoding="utf-8")
    rc, out = _run(capsys, "check", str(path))
    assert rc == 2
    assert "combat.crt.rows[0]" in out, out
    assert "is not a die-roll row" in out


def test_a_word_too_long_to_break_is_refused_at_check(tmp_path, capsys) -> None:
    text = SEED.read_text(encoding="utf-8")
    path = tmp_path / "g.yaml"
    title = 'title: "Hell\'s Gate"'
    path.write_text(text.replace(title, title[:-1] + " " + "x" * 101 + '"', 1), encoding="utf-8")
    rc, out = _run(capsys, "check", str(path))
    assert rc == 2
    assert "game.title: a word of 101 characters" in out, out
    path.write_text(text.replace(title, title[:-1] + " " + "x" * 100 + '"', 1), encoding="utf-8")
    assert _run(capsys, "check", str(path))[0] == 0


def test_a_strength_with_thousands_of_digits_is_a_short_located_message(tmp_path, capsys) -> None:
    """Every number of the format has at most 12 digits; the message shows the start and the length, not Python's
    own limit on converting long digit strings."""
    fpa = SEED.parent / "first_panzer_army.yaml"
    text = fpa.read_text(encoding="utf-8")
    old = 'label: "96", type: infantry, size: XX, steps: ["?-?"]'
    assert old in text
    path = tmp_path / "g.yaml"
    path.write_text(text.replace(old, old.replace('["?-?"]', '["' + "9" * 5000 + '-2"]'), 1), encoding="utf-8")
    rc, out = _run(capsys, "check", str(path))
    assert rc == 2
    assert "(5,002 characters) is not a strength" in out, out
    assert "int_max_str_digits" not in out
    assert len(out) < 1000


def test_a_negative_back_offset_needs_no_equals_sign() -> None:
    """A printer that shifts the backs left measures a negative DX, which argparse alone takes for an option."""
    from forge.cli import _joined_offsets

    assert _joined_offsets(["build", "g.yaml", "--back-offset", "-0.5,0.3", "-q"]) == [
        "build",
        "g.yaml",
        "--back-offset=-0.5,0.3",
        "-q",
    ]
    assert _joined_offsets(["build", "--back-offset", "-q"]) == ["build", "--back-offset", "-q"]  # still an error
    assert _joined_offsets(["build", "--", "--back-offset", "-1,0"]) == ["build", "--", "--back-offset", "-1,0"]
