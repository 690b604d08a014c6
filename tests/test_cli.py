"""The command line: exit statuses, summaries, schema, and no tracebacks on bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA

from forge import __version__
from forge.cli import main


def test_check_summary_matches_data(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(DATA / "hells_gate.yaml")]) == 0
    out = capsys.readouterr().out
    assert "hex 7x7" in out
    assert "odds CRT 6x8 (<1:1 .. 8:1+), 48/48 cells known" in out
    assert "Soviet 14" in out
    assert "German 14" in out


def test_check_bad_file_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: 1\nformat: 1\n")
    assert main(["check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:2:1: format: duplicate key" in err


def test_schema_is_json_and_matches_committed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["title"] == "Hexforge game"
    assert "game" in schema["properties"]
    committed = json.loads((DATA.parent / "docs" / "hexforge.schema.json").read_text())
    assert committed == schema, "docs/hexforge.schema.json is stale: run `forge schema > docs/hexforge.schema.json`"


def test_version_and_module_entry_point() -> None:
    r = subprocess.run([sys.executable, "-m", "forge", "--version"], capture_output=True, text=True, check=False)
    assert r.returncode == 0
    assert r.stdout.strip() == f"forge {__version__}"


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage: forge" in capsys.readouterr().out


def test_bad_option_exit_2() -> None:
    with pytest.raises(SystemExit) as e:
        main(["build", "--paper", "legal", "x.yaml"])
    assert e.value.code == 2


def test_build_writes_the_default_components(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "-q", "--out", str(tmp_path), str(DATA / "hells_gate.yaml")]) == 0
    written = sorted(p.name for p in (tmp_path / "hells_gate").iterdir())
    assert written == [".hexforge-manifest.json", "cards.pdf", "counters.pdf", "map.pdf"]  # and the record of them
    assert all((tmp_path / "hells_gate" / n).read_bytes().startswith(b"%PDF") for n in written[1:])
    assert not list(tmp_path.rglob("*.tmp"))  # atomic writes leave no temporaries


def test_build_bad_input_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text((DATA / "hells_gate.yaml").read_text().replace("labels: letter-row", "labels: nope"))
    assert main(["build", "-q", "--out", str(tmp_path / "out"), str(bad)]) == 2
    assert not (tmp_path / "out").exists()


def test_verify_json_report_and_exit_status(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    status = main(["verify", "--format", "json", "--report", str(report), str(DATA / "hells_gate.yaml")])
    data = json.loads(report.read_text())
    assert data["game"] == "hells_gate"
    errors = [f for f in data["findings"] if f["severity"] == "error"]
    assert errors == []  # the reference sheet's supply cap differs from 11.1 only where no game can reach
    warnings = [f["ref"] for f in data["findings"] if f["severity"] == "warning"]
    assert warnings == ["cherkassy-f7"]  # the turn-1 example's Cherkassy hex F7 against the rules' F6
    assert status == 1


def test_outputs_honour_the_umask(tmp_path: Path) -> None:
    """A written file gets the permissions any file the user makes gets (0644 under umask 022), not mkstemp's 0600."""
    import os
    import stat

    from forge.pdf import write_atomic

    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "a.pdf", b"x")
        os.umask(0o077)
        write_atomic(tmp_path / "b.pdf", b"x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a.pdf").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "b.pdf").stat().st_mode) == 0o600


@pytest.mark.parametrize("how", ["same", "spelled", "symlink", "hardlink", "another-game"])
def test_verify_report_never_replaces_a_game_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    """``forge verify G --report G`` once replaced the game with its report.  A report path that is an input (by
    any name: the same path, another spelling, a symbolic or a hard link) or that holds a game file is refused with
    one line naming it, exit 2, and every file is left as it was."""
    import os

    game = tmp_path / "game.yaml"
    original = (DATA / "ferry_point.yaml").read_bytes()
    game.write_bytes(original)
    other = tmp_path / "other.yaml"
    other.write_bytes((DATA / "hells_gate.yaml").read_bytes())
    (tmp_path / "sub").mkdir()
    report = {
        "same": game,
        "spelled": tmp_path / "sub" / ".." / "game.yaml",
        "symlink": tmp_path / "link.yaml",
        "hardlink": tmp_path / "hard.yaml",
        "another-game": other,
    }[how]
    if how == "symlink":
        report.symlink_to(game)
    if how == "hardlink":
        os.link(game, report)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    assert main(["verify", str(game), "--no-print-check", "--report", str(report)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"--report {report}" in err
    assert "nothing written" in err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before
    assert game.read_bytes() == original


def test_verify_report_still_replaces_an_earlier_report(tmp_path: Path) -> None:
    """The refusal above is not a refusal to overwrite: an earlier report is replaced as before."""
    report = tmp_path / "errata.md"
    report.write_text("an earlier report\n")
    game = tmp_path / "game.yaml"
    game.write_bytes((DATA / "ferry_point.yaml").read_bytes())
    assert main(["verify", str(game), "--no-print-check", "--format", "markdown", "--report", str(report)]) in (0, 1)
    assert "an earlier report" not in report.read_text()


def test_verify_report_never_replaces_the_rulebook(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--book RULES --report RULES`` would replace the user's rulebook with the report: refused like a game."""
    book = tmp_path / "rules.txt"
    book.write_text("1.0 Introduction\n1.1 Two players.\n")
    game = tmp_path / "game.yaml"
    game.write_bytes((DATA / "ferry_point.yaml").read_bytes())
    assert main(["verify", str(game), "--no-print-check", "--book", str(book), "--report", str(book)]) == 2
    assert f"--report {book} is the input {book}" in capsys.readouterr().err
    assert book.read_text() == "1.0 Introduction\n1.1 Two players.\n"


# ------------------------------------------------------------------------------------- did you mean; -q; plurals
def test_a_mistyped_command_gets_the_closest(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["bild", "x.yaml"])
    assert e.value.code == 2
    assert "did you mean 'build'?" in capsys.readouterr().err


def test_a_mistyped_component_gets_the_closest(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["build", "--only", "map,handot", str(DATA / "hells_gate.yaml")])
    assert e.value.code == 2
    assert "'handot': did you mean 'handout'?" in capsys.readouterr().err


def test_a_mistyped_game_path_gets_a_close_file_in_its_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "hells_gate.yaml").write_bytes((DATA / "hells_gate.yaml").read_bytes())
    (tmp_path / "notes.txt").write_text("x")
    assert main(["check", str(tmp_path / "hells_gat.yaml")]) == 2
    err = capsys.readouterr().err
    assert f"no such file (did you mean {str(tmp_path / 'hells_gate.yaml')!r}?)" in err
    assert main(["check", str(tmp_path / "zzzz.yaml")]) == 2
    assert "did you mean" not in capsys.readouterr().err


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.yaml")))
def test_check_summary_counts_agree_with_their_nouns(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    import re

    assert main(["check", str(DATA / name)]) == 0
    out = capsys.readouterr().out
    assert not re.search(r"(?<![\d./:])1 (?:[a-z-]+ )?(?:modifiers|shifts|hexes|hexsides|paths|steps|supply sources|"
                         r"kinds|unit faces|terrain sections|set-up zones|units)\b", out), out


def test_check_summary_plural_of_one_modifier(capsys: pytest.CaptureFixture[str]) -> None:
    from forge.cli import _n

    assert [_n(0, "modifier"), _n(1, "modifier"), _n(2, "hex", "hexes")] == ["0 modifiers", "1 modifier", "2 hexes"]


def test_verify_quiet_prints_the_headline_and_the_findings_that_fail(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = str(DATA / "hells_gate.yaml")
    loud = main(["verify", "--no-print-check", game])
    full = capsys.readouterr().out
    assert "not checked (" in full  # so that leaving it out is seen
    assert main(["verify", "--no-print-check", "-q", game]) == loud
    quiet = capsys.readouterr().out
    assert quiet.splitlines()[0] == full.splitlines()[0]
    assert "not checked (" not in quiet
    assert "data notes (" not in quiet
    assert [ln for ln in full.splitlines() if ln.startswith(("error", "warning"))] == [
        ln for ln in quiet.splitlines() if ln.startswith(("error", "warning"))
    ]
    report = tmp_path / "r.txt"
    main(["verify", "--no-print-check", "-q", "--report", str(report), game])
    assert capsys.readouterr().out == ""
    assert report.read_text() == quiet
