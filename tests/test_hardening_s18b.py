"""Hostile input on the surfaces of session 18: the print-shop build options (``--page-bleed``, ``--pdfx``,
``--output-intent``, ``--cards-per-page``, ``--calibration-page``, ``--only board``, ``--templates`` on verify and
export) and the new data fields (``examples[].stated_elsewhere``, ``rules.limits.counts[].exempt``,
``rules.movement.exit_mp``, ``special_rules[].activates``, ``rules.retreat.allowed_if``).  Each test is a defect
bench/fuzz_options.py found, and failed before its fix: bad input is one located message and exit status 2, never a
traceback."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import DATA, ROOT

from forge import templates as T
from forge.cli import main
from forge.errors import LoadError

FERRY = DATA / "ferry_point.yaml"


# ---------------------------------------------------------------------------------------- options given as '--'
@pytest.mark.parametrize(
    "argv",
    [
        ["build", "{game}", "--preset", "print-shop", "--page-bleed=--"],
        ["build", "{game}", "--sets=--"],
        ["build", "{game}", "--paper=--"],
        ["build", "{game}", "--only=--"],
        ["build", "{game}", "--out=--"],
        ["build", "{game}", "--back-offset=--"],
        ["verify", "{game}", "--templates=--"],
        ["verify", "{game}", "--report=--"],
    ],
)
def test_an_option_whose_value_is_two_dashes_is_refused_naming_it(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python 3.11's argparse gave ``--page-bleed=--`` an empty list (unchecked against the option's type), and the
    build raised a TypeError comparing it with the allowed range."""
    monkeypatch.chdir(tmp_path)
    argv = [a.replace("{game}", str(FERRY)) for a in argv]
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    option = next(a for a in argv if a.endswith("=--")).split("=")[0]
    assert f"argument {option}: expected a value, got '--'" in err
    assert "Traceback" not in err
    assert not any(tmp_path.iterdir())  # nothing written


def test_two_dashes_after_the_end_of_the_options_are_a_file_name_not_refused_as_a_value() -> None:
    from forge.cli import _dashes_as_value, build_parser

    _dashes_as_value(build_parser(), ["check", "--", "--sets=--"])  # no SystemExit: '--' ended the options


# ------------------------------------------------------------------------ a CRT whose lines print over each other
CARD = (ROOT / "templates" / "card.yaml").read_text(encoding="utf-8")


def test_a_crt_line_spacing_below_its_type_size_is_refused_at_the_template(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """crt.size 40 with the shipped crt.leading 10.5 built cards.pdf with exit 0 and no warning, its table's digits
    printed over each other (``forge verify --templates`` then reported 181 overlaps)."""
    assert "  size: 8.5" in CARD
    (tmp_path / "card.yaml").write_text(CARD.replace("  size: 8.5", "  size: 40"), encoding="utf-8")
    with pytest.raises(LoadError) as e:
        T.load(tmp_path)
    [p] = e.value.problems
    assert p.path == "crt.leading"
    assert p.line is not None
    assert "at least 32 pt" in p.message
    out = tmp_path / "out"
    assert main(["build", str(FERRY), "--only", "cards", "--templates", str(tmp_path), "--out", str(out)]) == 2
    assert "crt.leading" in capsys.readouterr().err
    assert not out.exists()
    # A leading of 0.8 x the size is still taken (as the text styles' least leading).
    (tmp_path / "card.yaml").write_text(CARD.replace("  size: 8.5", "  size: 13.125"), encoding="utf-8")
    assert T.load(tmp_path).card.crt.size == 13.125


# -------------------------------------------------------------- --no-tile on a map larger than a sheet may be
def _grid_game(tmp_path: Path, columns: int) -> Path:
    sys.path.insert(0, str(ROOT / "bench"))
    import _kits  # bench/_kits.py: synthetic games

    path = tmp_path / f"grid{columns}.yaml"
    path.write_text(_kits.synthetic(columns, 60, hex_size="1in", listed=200), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "options", [["--only", "map", "--no-tile"], ["--preset", "print-shop"], ["--only", "handout", "--no-tile"]]
)
def test_no_tile_refuses_a_grid_whose_own_sheet_is_over_100in(
    options: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A grid without map.sheet sizes its own sheet; --no-tile (and the print-shop preset, which sets it) printed a
    300 x 60 hex grid of 1 in hexes as one 265 x 302 in page, past the 200 in a PDF page may be and the 100 in a
    stated sheet may be.  112 columns make a 102 in sheet: refused, located at map.grid, nothing written."""
    game = _grid_game(tmp_path, 112)
    out = tmp_path / "out"
    assert main(["build", str(game), "--out", str(out), "-q", *options]) == 2
    err = capsys.readouterr().err
    assert f"{game}:" in err
    assert ": map.grid: --no-tile prints the map sheet whole" in err
    assert "102 x 62 in" in err
    assert "Traceback" not in err
    assert not out.exists()


def test_no_tile_takes_a_grid_whose_own_sheet_is_just_under_100in(tmp_path: Path) -> None:
    from forge.builder import preset_options
    from forge.estimate import refuse
    from forge.loader import load
    from forge.render.map import sheet_layout

    game = load(_grid_game(tmp_path, 109))
    options = preset_options("print-shop")
    assert 99 * 72 < sheet_layout(game, options).sheet_w < 100 * 72
    refuse(game, options, "grid109.yaml")  # no LoadError: built as one page of 99.35 x 61.5 in


# ---------------------------------------------------------------- a signal wrapped by class creation (CI, stop 18)
def _interrupt_in_set_name() -> None:
    """What CPython does when Ctrl-C lands inside a descriptor's ``__set_name__`` while a module defines a class
    (seen in CI: ipaddress's cached_property, imported by pathlib): a RuntimeError caused by the interrupt."""

    class Trap:
        def __set_name__(self, owner: type, name: str) -> None:
            raise KeyboardInterrupt

    type("Owner", (), {"trap": Trap()})


def test_an_interrupt_wrapped_by_class_creation_is_still_an_interrupt(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(RuntimeError) as raised:
        _interrupt_in_set_name()
    assert isinstance(raised.value.__cause__, KeyboardInterrupt)  # the shape the handlers must see through

    import forge.cli as cli

    def late_import(args: object) -> int:
        _interrupt_in_set_name()
        return 0

    monkeypatch.setattr(cli, "cmd_check", late_import)
    assert main(["check", str(DATA / "ferry_point.yaml")]) == 130
    err = capsys.readouterr().err
    assert "interrupted (SIGINT)" in err
    assert "Traceback" not in err


def test_an_interrupt_while_forge_is_imported_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """forge/__main__.py's own handler (an interrupt before forge.cli exists) sees through the same wrapping, and
    lets any other RuntimeError through."""
    import builtins

    import forge.__main__ as entry

    real_import = builtins.__import__

    def importing(name: str, *args: object, **kwargs: object) -> object:
        if name == "cli":
            _interrupt_in_set_name()
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", importing)
    assert entry.run() == 130
    monkeypatch.setattr(builtins, "__import__", real_import)
    assert not entry._caused_by_interrupt(RuntimeError("something else"))


def test_sets_without_the_handout_is_refused_not_ignored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--sets N`` asks for N class handouts; with an ``--only`` that leaves the handout out it was silently
    ignored.  Now one line naming both options, exit 2, nothing written."""
    out = tmp_path / "out"
    assert main(["build", str(DATA / "ferry_point.yaml"), "--only", "map", "--sets", "3", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--sets 3: the sets are class handouts, and --only map leaves the handout out" in err
    assert not out.exists()
