"""bench/: the kits are valid games and what bench/_kits.py writes, and bench/run.py starts.

Nothing here is timed: the figures live in bench/RESULTS.md (``python bench/run.py``), never in a test.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import _kits  # noqa: E402  (bench/_kits.py: the kits' generator)

from forge.cli import main as forge_main  # noqa: E402

_spec = importlib.util.spec_from_file_location("bench_run", ROOT / "bench" / "run.py")
assert _spec is not None
assert _spec.loader is not None
run = importlib.util.module_from_spec(_spec)
sys.modules["bench_run"] = run  # dataclasses look their module up by name
_spec.loader.exec_module(run)


@pytest.mark.parametrize("name", sorted(_kits.KITS))
def test_kit_file_is_what_the_generator_writes(name: str) -> None:
    kit = _kits.KITS[name]
    assert kit.path.read_text(encoding="utf-8") == kit.text(), f"rerun: python bench/_kits.py ({kit.path.name})"


@pytest.mark.parametrize("name", sorted(_kits.KITS))
def test_kit_passes_forge_check(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert forge_main(["check", str(_kits.KITS[name].path)]) == 0
    out = capsys.readouterr()
    assert out.err == ""


def test_kits_hold_what_the_issue_describes() -> None:
    """Small: 7x7 hexes, 70 double-sided counters; large: 30x40 hexes on 22x34 in, 280 counters, tabloid, 1/2 in."""
    from forge.loader import load

    small = load(_kits.KITS["small"].path)
    large = load(_kits.KITS["large"].path)
    for game, (cols, rows), counters in ((small, (7, 7), 70), (large, (30, 40), 280)):
        assert (game.map.grid.columns, game.map.grid.rows) == (cols, rows)
        assert sum(u.copies for u in game.units) == counters
        assert all(len(u.steps) == 2 for u in game.units)  # one double-sided counter each
        assert game.combat.crt is not None
    assert large.map.sheet == "22x34in"
    assert _kits.KITS["large"].build_args == ("--paper", "tabloid", "--counter-size", "1/2in")
    assert _kits.KITS["small"].build_args == ("--counter-size", "1/2in")


def test_run_help() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "run.py"), "--help"], capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "--huge" in proc.stdout
    assert "--quick" in proc.stdout
    assert "--rows" in proc.stdout


def test_run_refuses_an_unknown_row(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        run.main(["--rows", "small,nope", "--no-results"])
    assert e.value.code == 2
    assert "'nope'" in capsys.readouterr().err


def test_results_round_trip(tmp_path: Path) -> None:
    """A row not rerun is carried over from the previous RESULTS.md, marked with its own date; nothing is timed."""
    res = run.Result("check", "forge check data/hells_gate.yaml", "2026-01-01 00:00 UTC", n=3, best=0.1,
                     median=0.2, cpu=0.09, rss_mb=40.0)
    info = {"date": "2026-01-02 00:00 UTC", "cores": "2", "cpu": "x", "memory": "1 GiB", "python": "3.11",
            "os": "linux", "load": "0", "commit": "abc"}
    out = tmp_path / "RESULTS.md"
    run.write_results(out, {"check": res}, set(), info)
    assert run.previous(out)["check"]["best"] == 0.1
    text = out.read_text(encoding="utf-8")
    assert "| `forge check` Hell's Gate | 3 | 0.100 s | 0.200 s |" in text
    assert "yes" in text.split("`forge check` Hell's Gate")[1].splitlines()[0]
    assert "issue's measurements" in text
    carried = {k: run.Result(**v) for k, v in run.previous(out).items()}
    run.write_results(out, carried, {"check"}, info)
    assert "†(2026-01-01 00:00 UTC)" in out.read_text(encoding="utf-8")


def _tiny(row: object, n: int, tmp: Path, cap_gib: float) -> object:
    """A fake workload: a Python that does nothing, measured as run.py measures a row (a real child process)."""
    return run.measure(row, [sys.executable, "-c", "pass"], n, warm=False)


def test_run_compares_with_the_committed_figures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """run.py reads the figures RESULTS.md records and prints before, now and the change; only --record rewrites
    the file (nothing here is timed: the workload is a Python that does nothing)."""
    info = {"date": "2026-01-02 00:00 UTC", "cores": "2", "cpu": "x", "memory": "1 GiB", "python": "3.11",
            "os": "linux", "load": "0", "commit": "abc"}
    old = run.Result("check", "forge check data/hells_gate.yaml", "2026-01-01 00:00 UTC", n=3, best=1000.0,
                     median=1000.0, cpu=1000.0, rss_mb=40.0)
    results = tmp_path / "RESULTS.md"
    run.write_results(results, {"check": old}, set(), info)
    committed = results.read_text(encoding="utf-8")
    assert "```json" in committed
    monkeypatch.setattr(run, "run_row", _tiny)
    assert run.main(["--rows", "check", "-n", "1", "--results", str(results)]) == 0
    out = capsys.readouterr().out
    head = next(line for line in out.splitlines() if line.startswith("row ") and "before" in line)
    assert head.split()[:5] == ["row", "before", "now", "change", "CPU"]
    line = next(line for line in out.splitlines() if line.startswith("check ") and "1000" in line)
    cells = line.split()
    assert cells[1:3] == ["1000.0", "s"]  # before: the committed best
    assert cells[5].startswith("-")
    assert cells[5].endswith("%")
    assert "better" in line
    assert "2026-01-01 00:00 UTC" in line
    assert results.read_text(encoding="utf-8") == committed  # not recorded without --record
    assert run.main(["--rows", "check", "-n", "1", "--results", str(results), "--record"]) == 0
    assert run.previous(results)["check"]["best"] < 1000.0


def test_a_row_never_recorded_is_compared_with_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(run, "run_row", _tiny)
    assert run.main(["--rows", "check", "-n", "1", "--results", str(tmp_path / "none.md")]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("check ") and "not recorded" in x)
    assert line.split()[1] == "–"


def test_the_older_embedded_figures_are_still_read(tmp_path: Path) -> None:
    old = tmp_path / "RESULTS.md"
    old.write_text('# x\n\n<!-- bench-data {"rows": {"check": {"best": 0.25, "name": "check"}}} -->\n',
                   encoding="utf-8")
    assert run.previous(old) == {"check": {"best": 0.25, "name": "check"}}
    assert run.previous(ROOT / "bench" / "RESULTS.md")["small"]["best"] > 0  # the committed file parses
