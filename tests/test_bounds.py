"""Issue 9, input bounds: each bad value is one located error at check time (file:line:col, what is allowed), exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

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
        ("sheet: 17x11in", "sheet: 8x6in", ":44:10: map.sheet:", "larger than the whole 8x6in sheet"),
        ("sheet: 17x11in", "sheet: 200x11in", ":44:3: map.sheet:", "larger than 100in"),
        ('"<1:1", "1:1"', '"<1:1", "1:0"', ":222:23: combat.crt.columns[1]:", "divides by zero"),
        ("labels: letter-row", "labels: letter-row, first_row: 0", ":43:3: map.grid:", "first_row must be"),
        ("labels: letter-row", "labels: letter-row, first_column: -1", ":43:3: map.grid:", ">= 0"),
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
