"""``forge analyze`` draws the CRT's charts while its workers play (``simulate_policies(meanwhile=...)``): the work
is done once, the records do not change, and a simulation that fails leaves no chart behind (as before, when the
charts were drawn only after the games)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from forge import balance as bal
from forge.cli import main

ROOT = Path(__file__).resolve().parent.parent
FERRY = ROOT / "data" / "ferry_point.yaml"


@pytest.mark.parametrize("jobs", [1, 2])
def test_meanwhile_runs_once_and_the_games_do_not_change(jobs: int) -> None:
    calls: list[int] = []
    seen: list[int] = []
    got = bal.simulate_policies(str(FERRY), None, seed=3, games=6, policies=("random", "greedy"), jobs=jobs,
                                progress=seen.append, meanwhile=lambda: calls.append(len(seen)))
    assert calls == [0]  # once, before any result was taken
    for pol in ("random", "greedy"):
        assert got[pol] == bal.simulate(str(FERRY), None, seed=3, games=6, policy=pol, jobs=1)


def test_a_failed_simulation_leaves_no_chart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")

    def failing(*args: Any, meanwhile: Any = None, **kw: Any) -> Any:
        meanwhile()  # the CRT's charts are drawn, then a game fails
        raise ValueError("an assumed strength the data contradicts")

    monkeypatch.setattr(bal, "simulate_policies", failing)
    assert main(["analyze", str(FERRY), "--games", "4", "--jobs", "2", "--out", str(tmp_path)]) == 2
    assert "an assumed strength the data contradicts" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_the_crt_charts_come_first_in_the_report(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    assert main(["analyze", str(FERRY), "--games", "3", "--jobs", "2", "--out", str(tmp_path), "-q"]) == 0
    md = (tmp_path / "ferry_point" / "analysis" / "report.md").read_text()
    charts = [x for x in md.splitlines() if x.startswith("![")]
    assert charts == [f"![{c}]({c}.svg)" for c in ("crt_expected", "crt_outcomes", "balance", "decided")]
