"""Command-line conventions (issue 12, item 5): `forge --help` lists every command with an example, the exit
statuses are documented, results go to standard output and everything else to standard error, and the progress
bar is drawn only on a terminal and never with -q."""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA

from forge.cli import EXAMPLES, Progress, build_parser

ROOT = DATA.parent
GAME = str(DATA / "ferry_point.yaml")


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def test_help_lists_every_command_with_one_example() -> None:
    parser = build_parser()
    text = parser.format_help()
    commands = _commands(parser)
    assert set(commands) == set(EXAMPLES)  # a new command needs its example
    examples = text.split("examples, one per command:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    for name, sub in commands.items():
        mine = [line for line in examples if line.split()[:2] == ["forge", name]]
        assert len(mine) == 1, (name, examples)
        assert f"example: {EXAMPLES[name]}" in " ".join(sub.format_help().split())  # and in the command's own help
        # the example parses as a command line of that command (the shell redirection aside)
        argv = EXAMPLES[name].split(">")[0].split()[1:]
        argv = [a.strip("'") for a in argv]
        if name == "new":
            argv = ["new", "River Crossing", "--grid", "square"]
        assert build_parser().parse_args(argv).command == name


def test_help_documents_every_exit_status() -> None:
    text = build_parser().format_help()
    status = text.split("exit status:\n", 1)[1]
    for code in ("0", "1", "2", "130", "143"):
        assert f"  {code} " in status or f" {code} stopped" in status, code
    readme = (ROOT / "README.md").read_text()
    assert "### Exit codes" in readme


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "forge", *argv], cwd=ROOT, capture_output=True, text=True, check=False, timeout=120
    )


def test_piped_build_has_no_progress_bar_and_results_on_stdout(tmp_path: Path) -> None:
    r = _run("build", GAME, "--only", "cards,counters", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [str(tmp_path / "ferry_point" / f"{n}.pdf") for n in ("cards", "counters")]
    assert "\r" not in r.stderr
    assert "[#" not in r.stderr
    assert "[." not in r.stderr
    assert r.stderr.startswith(f"building {GAME} -> ")


def test_quiet_build_prints_only_the_files(tmp_path: Path) -> None:
    r = _run("build", "-q", GAME, "--only", "cards", "--out", str(tmp_path))
    assert r.returncode == 0
    assert r.stderr == ""
    assert r.stdout == f"{tmp_path / 'ferry_point' / 'cards.pdf'}\n"


def test_bad_input_goes_to_stderr_with_exit_2(tmp_path: Path) -> None:
    r = _run("build", str(tmp_path / "missing.yaml"), "--out", str(tmp_path))
    assert r.returncode == 2
    assert r.stdout == ""
    assert "missing.yaml" in r.stderr
    assert "Traceback" not in r.stderr


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal_only() -> None:
    tty = _Tty()
    bar = Progress(4, stream=tty)
    for name in ("map", "counters", "cards", "images"):
        bar.step(f"hells_gate: rendering {name}")
    bar.close()
    out = tty.getvalue()
    assert out.count("\r\x1b[K[") == 4
    assert "] 3/4 hells_gate: rendering images" in out
    assert "[" + "#" * 18 + "." * 6 + "] 3/4" in out
    assert out.endswith("\r\x1b[K")  # the line is cleared for what follows

    quiet = _Tty()
    bar = Progress(4, quiet=True, stream=quiet)
    bar.step("map")
    bar.close()
    assert quiet.getvalue() == ""

    piped = io.StringIO()
    bar = Progress(4, stream=piped)
    bar.step("map")
    bar.close()
    assert piped.getvalue() == ""



def test_a_handout_build_reports_each_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ten-set handout is most of a build's time: the bar moves once a set, not once for the whole handout, and
    it counts exactly the steps the build reports."""
    import forge.cli as cli

    seen: list[tuple[int, int, str]] = []
    real_step = Progress.step

    def step(self: Progress, label: str) -> None:
        seen.append((self.done, self.total, label))
        real_step(self, label)

    monkeypatch.setattr(cli.Progress, "step", step)
    game = str(DATA / "hells_gate.yaml")
    assert cli.main(["build", game, "--only", "map,handout", "--sets", "3", "--out", str(tmp_path), "-q"]) == 0
    labels = [label for _, _, label in seen]
    assert labels == [
        "hells_gate: rendering map",
        "hells_gate: rendering handout, set 1 of 3",
        "hells_gate: rendering handout, set 2 of 3",
        "hells_gate: rendering handout, set 3 of 3",
    ]
    assert [(done, total) for done, total, _ in seen] == [(0, 4), (1, 4), (2, 4), (3, 4)]
