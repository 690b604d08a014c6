"""``forge analyze`` (forge/commands/analyze.py), the CRT charts (forge/crtstats.py) and the simulation's statistics
(forge/balance.py).

* A one-column CRT's charts are the ones computed by hand: outcomes, expected losses, the column that pays, what a
  shift changes; for any hits table the expectation is the mean of its cells (hypothesis).
* The statistics against textbook values: Wilson intervals, chi-square tails, the exact binomial test, the turn a
  game is decided.
* The command: the same seed writes the same bytes (report and charts); ``--jobs 2`` writes what ``--jobs 1`` does;
  its games are ``forge play``'s; a game the engine cannot play still gets its CRT part; without matplotlib the
  report is written and says how to get the charts; a bad class-results CSV is one located message, exit 2.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from forge import balance as bal
from forge import crtstats as cs
from forge.cli import main
from forge.model import Combat, Crt, ResultCode

ROOT = Path(__file__).resolve().parent.parent
FERRY = ROOT / "data" / "ferry_point.yaml"
HG = ROOT / "data" / "hells_gate.yaml"


# ------------------------------------------------------------------------------------------------ CRT charts
def test_one_column_hits_crt_by_hand() -> None:
    """Die 1-2 gives 0/1 and 3-6 gives 1/2: normal 0 hits 1/3, 1 hit 2/3 (mean 2/3); all-out 1 hit 1/3, 2 hits
    2/3 (mean 5/3)."""
    crt = Crt(columns=["2:1"], rows=["1-2", "3-6"], cells=[["0/1"], ["1/2"]], cell_format="hits-normal/all-out")
    normal, allout = cs.tables(Combat(kind="odds", crt=crt))
    assert normal.name == "normal attack"
    assert allout.name == "all-out attack"
    (c,) = normal.columns
    assert c.outcomes == (("0 hits", Fraction(1, 3)), ("1 hit", Fraction(2, 3)))
    assert (c.attacker, c.defender) == (0, Fraction(2, 3))
    (c,) = allout.columns
    assert c.outcomes == (("1 hit", Fraction(1, 3)), ("2 hits", Fraction(2, 3)))
    assert c.defender == Fraction(5, 3)
    assert normal.pays == "2:1"
    assert normal.free  # a table of the defender's hits never charges the attacker
    assert normal.one_step is None
    assert allout.one_step == "2:1"


def test_code_crt_expectations_pays_and_shifts_by_hand() -> None:
    """Two columns of codes through a legend: 1:1 is AL1 on 1-4, EX on 5-6 (attacker 4/6 + 2/6 = 1, defender 1/3);
    2:1 is DR on 1-3, EX on 4-5, DE on 6 (attacker 1/3, defender 1/3, retreat 3 x 1/2, eliminated 1/6)."""
    legend = {
        "AL1": ResultCode(meaning="attacker loses a step", attacker_steps=1),
        "EX": ResultCode(meaning="exchange", attacker_steps=1, defender_steps=1),
        "DR": ResultCode(meaning="defender retreats", defender_retreat=3),
        "DE": ResultCode(meaning="defender eliminated", defender_steps={"unknown": "all"}, defender_eliminated=True),
    }
    crt = Crt(
        columns=["1:1", "2:1"],
        rows=["1", "2", "3", "4", "5", "6"],
        cells=[["AL1", "DR"], ["AL1", "DR"], ["AL1", "DR"], ["AL1", "EX"], ["EX", "EX"], ["EX", "DE"]],
    )
    combat = Combat(kind="odds", crt=crt, results=legend, shifts=[{"id": "up", "when": "always", "shift": 1}])
    (t,) = cs.tables(combat)
    a, b = t.columns
    assert a.outcomes == (("AL1", Fraction(2, 3)), ("EX", Fraction(1, 3)))
    assert (a.attacker, a.defender, a.defender_eliminated) == (1, Fraction(1, 3), 0)
    assert b.outcomes == (("DR", Fraction(1, 2)), ("EX", Fraction(1, 3)), ("DE", Fraction(1, 6)))
    assert (b.attacker, b.defender, b.retreat, b.defender_eliminated) == (
        Fraction(1, 3), Fraction(1, 3), Fraction(3, 2), Fraction(1, 6))
    assert t.pays == "2:1"  # 1:1 costs the attacker more than the defender
    assert not t.free
    assert any("DE" in n for n in t.notes)  # the elimination's unknown steps are said to be left out
    (step,) = cs.shift_steps(t)
    assert (step.left, step.right, step.defender, step.attacker) == ("1:1", "2:1", 0, Fraction(-2, 3))
    (g,) = cs.game_shifts(combat, t)
    assert (g["columns"], g["defender_change_min"], g["defender_change_max"]) == (1, 0, 0)


def test_unknown_cells_are_said_not_guessed() -> None:
    crt = Crt(columns=["1:1", "2:1"], rows=["1-3", "4-6"], cells=[["0/0", "?"], ["0/1", "1/1"]],
              cell_format="hits-normal/all-out")
    normal, _ = cs.tables(Combat(kind="odds", crt=crt))
    assert normal.columns[0].unknown is None
    assert normal.columns[1].defender is None
    assert "unknown" in (normal.columns[1].unknown or "")
    assert normal.pays is None  # 1:1 expects no hit on a normal attack; 2:1 is unknown
    assert cs.shift_steps(normal) == []


cells = st.tuples(st.integers(0, 3), st.integers(0, 3)).map(lambda t: f"{t[0]}/{t[0] + t[1]}")


@given(st.lists(st.lists(cells, min_size=6, max_size=6), min_size=1, max_size=5))
def test_hits_expectation_is_the_mean_of_the_column(columns: list[list[str]]) -> None:
    """For any 1d6 hits CRT, a column's expected hits are the mean of its six cells' hits; the column that pays is
    the first with any hit expected (the table charges the attacker nothing)."""
    n = len(columns)
    crt = Crt(columns=[f"{j + 1}:1" for j in range(n)], rows=[str(i) for i in range(1, 7)],
              cells=[[columns[j][i] for j in range(n)] for i in range(6)], cell_format="hits-normal/all-out")
    normal, allout = cs.tables(Combat(kind="odds", crt=crt))
    for j in range(n):
        hits = [tuple(int(x) for x in c.split("/")) for c in columns[j]]
        assert normal.columns[j].defender == Fraction(sum(h[0] for h in hits), 6)
        assert allout.columns[j].defender == Fraction(sum(h[1] for h in hits), 6)
        assert sum(p for _, p in normal.columns[j].outcomes) == 1
    first = next((crt.columns[j] for j in range(n) if any(c.split("/")[0] != "0" for c in columns[j])), None)
    assert normal.pays == first


# ------------------------------------------------------------------------------------------------ statistics
def test_wilson_interval_textbook_values() -> None:
    lo, hi = bal.wilson(81, 263)  # Wilson (1927) as worked in Newcombe (1998): 0.2553 to 0.3662
    assert round(lo, 4) == 0.2553
    assert round(hi, 4) == 0.3662
    assert bal.wilson(0, 10)[0] == 0.0
    assert round(bal.wilson(0, 10)[1], 4) == 0.2775


@given(st.integers(1, 5000), st.data())
def test_wilson_holds_the_proportion(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    lo, hi = bal.wilson(k, n)
    assert 0 <= lo <= k / n <= hi <= 1


@pytest.mark.parametrize(
    ("x", "df", "p"),
    [(3.841, 1, 0.05), (6.635, 1, 0.01), (5.991, 2, 0.05), (7.815, 3, 0.05), (9.488, 4, 0.05), (11.070, 5, 0.05)],
)
def test_chi_square_tail_at_the_tables_critical_values(x: float, df: int, p: float) -> None:
    assert bal.chi_square_p(x, df) == pytest.approx(p, abs=5e-4)


def test_binomial_test() -> None:
    assert bal.binomial_p(5, 10, 0.5) == pytest.approx(1.0)
    assert bal.binomial_p(10, 10, 0.5) == pytest.approx(2 / 1024)
    # P(0) = 0.9^20 = 0.1216; the outcomes no likelier are 0 and 4 or more (P(4) = 0.0898, P(3) = 0.1901):
    # 0.1216 + 1 - (0.1216 + 0.2702 + 0.2852 + 0.1901) = 0.2546
    assert bal.binomial_p(0, 20, 0.1) == pytest.approx(0.2546, abs=1e-4)


def test_decided_turn() -> None:
    a_leads_late = [(1, {"a": 0, "b": 2}), (2, {"a": 1, "b": 1}), (3, {"a": 3, "b": 1}), (4, {"a": 4, "b": 1})]
    assert bal.decided_turn("a", a_leads_late) == 3
    assert bal.decided_turn("b", [(1, {"a": 0, "b": 2}), (2, {"a": 5, "b": 2}), (3, {"a": 0, "b": 2})]) == 3
    assert bal.decided_turn(None, a_leads_late) is None


# ------------------------------------------------------------------------------------------------ the command
def analyze(tmp: Path, *argv: str) -> tuple[int, Path]:
    status = main(["analyze", *argv, "--out", str(tmp), "-q"])
    return status, tmp


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_same_seed_same_bytes_and_jobs_do_not_matter(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    a = tmp_path / "a"
    b = tmp_path / "b"
    c = tmp_path / "c"
    assert main(["analyze", str(FERRY), "--games", "12", "--seed", "5", "--out", str(a), "-q"]) == 0
    assert main(["analyze", str(FERRY), "--games", "12", "--seed", "5", "--out", str(b), "-q"]) == 0
    assert main(["analyze", str(FERRY), "--games", "12", "--seed", "5", "--jobs", "1", "--out", str(c), "-q"]) == 0
    fa, fb, fc = (files(x / "ferry_point" / "analysis") for x in (a, b, c))
    assert {"report.md", "report.json", "crt_outcomes.svg", "crt_outcomes.png", "balance.svg", "balance.png"} <= set(fa)
    assert fa == fb
    assert fa == fc
    report = json.loads(fa["report.json"])
    assert report["balance"]["policies"]["random"]["games"] == 12
    d = tmp_path / "d"
    assert main(["analyze", str(FERRY), "--games", "12", "--seed", "6", "--out", str(d), "-q"]) == 0
    assert files(d / "ferry_point" / "analysis")["report.json"] != fa["report.json"]


def test_the_games_use_every_core_unless_told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A teacher who types only ``forge analyze GAME`` waits for the games: they run on every core by default
    (the report does not depend on it, test above); ``--jobs 1`` keeps them in one process."""
    asked: list[int] = []
    real = bal.simulate_policies

    def spy(*a: Any, **k: Any) -> Any:
        asked.append(k["jobs"])
        return real(*a, **{**k, "jobs": 1})  # (the pool itself is tested below)

    monkeypatch.setattr(bal, "simulate_policies", spy)
    assert main(["analyze", str(FERRY), "--games", "2", "--out", str(tmp_path), "-q"]) == 0
    assert main(["analyze", str(FERRY), "--games", "2", "--jobs", "1", "--out", str(tmp_path), "-q"]) == 0
    assert asked == [0, 1]
    monkeypatch.setattr(bal.os, "cpu_count", lambda: 3)
    assert [bal.jobs_for(j) for j in asked] == [3, 1]


def test_one_pool_for_every_policy_plays_each_policys_own_games() -> None:
    """simulate_policies (one pool of processes for both policies) gives, per policy, the records of simulate with
    that policy alone, in seed order; its progress counts every game of every policy once."""
    seen: list[int] = []
    both = bal.simulate_policies(str(FERRY), None, seed=4, games=7, policies=("random", "greedy"), jobs=2,
                                 progress=seen.append)
    assert list(both) == ["random", "greedy"]
    for pol in ("random", "greedy"):
        alone = bal.simulate(str(FERRY), None, seed=4, games=7, policy=pol, jobs=1)
        assert both[pol] == alone
        assert [r.seed for r in both[pol]] == list(range(4, 11))
    assert both["random"] != both["greedy"]
    assert seen == sorted(seen)
    assert seen[-1] == 14


def test_the_games_are_forge_plays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The greedy games of ``forge analyze --seed 3 --games 8`` come out as ``forge play --policy greedy`` prints."""
    assert main(["play", str(FERRY), "--games", "8", "--seed", "3", "--policy", "greedy"]) == 0
    lines = capsys.readouterr().out.splitlines()
    won = {m[1]: int(m[2]) for x in lines if (m := re.fullmatch(r"won by (\S+): (\d+)", x))}
    draws = next(int(x.split(": ")[1]) for x in lines if x.startswith("draws: "))
    assert main(["analyze", str(FERRY), "--games", "8", "--seed", "3", "--out", str(tmp_path), "-q"]) == 0
    report = json.loads((tmp_path / "ferry_point" / "analysis" / "report.json").read_text())
    greedy = report["balance"]["policies"]["greedy"]
    assert {s: w["games"] for s, w in greedy["win"].items()} == won
    assert greedy["draws"] == draws


def test_hells_gate_report_names_the_columns_and_the_assumption(tmp_path: Path) -> None:
    assert main(["analyze", str(HG), "--games", "4", "--assume", "strength=3", "--out", str(tmp_path), "-q"]) == 0
    md = (tmp_path / "hells_gate" / "analysis" / "report.md").read_text()
    assert "| 3:1 | 0 hits 0.50, 1 hit 0.50 | 0.00 | 0.50 |" in md  # die 1-3 no hit, 4-6 one hit
    assert "| 3:1 | 0 hits 0.17, 1 hit 0.33, 2 hits 0.50 | 0.00 | 1.33 |" in md  # all-out
    assert "Assumed: strength=3" in md
    assert "| 2:1 → 3:1 | +0.17 | ±0.00 |" in md


def test_a_game_the_engine_cannot_play_still_gets_its_crt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["analyze", str(ROOT / "data" / "first_panzer_army.yaml"), "--out", str(tmp_path)])
    assert status == 0
    err = capsys.readouterr().err
    assert "not simulated" in err
    md = (tmp_path / "first_panzer_army" / "analysis" / "report.md").read_text()
    assert "Not simulated: the engine cannot play" in md
    assert "the weather is not given" in md  # what the data lacks, as forge play says it
    assert "| 3:1 | DL1+DR 0.17, DL1 0.17, DR 0.33, AS 0.17, EX 0.17 | 0.17 | 0.50 |" in md


def test_without_matplotlib_the_report_says_how_to_get_charts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    assert main(["analyze", str(FERRY), "--games", "2", "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    folder = tmp_path / "ferry_point" / "analysis"
    assert sorted(p.name for p in folder.iterdir()) == ["report.json", "report.md"]
    assert "pip install 'hexforge[analyze]'" in err
    assert "pip install 'hexforge[analyze]'" in (folder / "report.md").read_text()


# ------------------------------------------------------------------------------------------------ class results
def test_class_results_compared(tmp_path: Path) -> None:
    csv = tmp_path / "class.csv"
    csv.write_text("pair,winner,decided_turn,vp_blue,vp_red\nA,red,5,2,6\nB,Blue,6,7,4\nC,red,,3,5\nD,draw,,,\n")
    argv = ["analyze", str(FERRY), "--games", "10", "--class-results", str(csv), "--out", str(tmp_path), "-q"]
    assert main(argv) == 0
    md = (tmp_path / "ferry_point" / "analysis" / "report.md").read_text()
    report = json.loads((tmp_path / "ferry_point" / "analysis" / "report.json").read_text())
    cmp = report["class"]["random"]
    assert cmp["games"] == 4
    assert {r["winner"]: r["observed"] for r in cmp["winners"]} == {"blue": 1, "red": 2, "draw": 1}
    assert cmp["vp"]["blue"]["mean"] == pytest.approx(4.0)
    assert "exact binomial test p = " in md
    assert "4 games from class.csv" in md


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("pair,winer,vp_blue\n", r"class\.csv:1:2: unknown column 'winer' \(did you mean 'winner'\?\); the columns "),
        ("", r"class\.csv:1: expected a header row: pair,winner,decided_turn,vp_blue,vp_red"),
        ("pair,winner\nA,green\n", r"class\.csv:2: winner: 'green' is not a side; expected one of blue, red, draw"),
        ("winner,vp_red\nred,six\n", r"class\.csv:2: vp_red: 'six' is not a whole number"),
        ("winner,decided_turn\nred,40\n", r"class\.csv:2: decided_turn: 40 is out of range \(expected 1 to 6\)"),
        ("winner,vp_red\n", r"class\.csv:2: no games recorded under the header"),
        ("pair,vp_red\nA,3\n", r"class\.csv:1: the column 'winner' is missing"),
    ],
)
def test_bad_class_results_is_one_located_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    csv = tmp_path / "class.csv"
    csv.write_text(text)
    status = main(["analyze", str(FERRY), "--games", "1", "--class-results", str(csv), "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 2
    assert re.search(message, err), err
    assert "Traceback" not in err
    assert not (tmp_path / "ferry_point").exists()  # nothing simulated or written for a bad CSV


def test_only_analyze_imports_matplotlib(tmp_path: Path) -> None:
    """The charts' library is analyze's alone: neither ``forge check`` nor ``forge build --only teacher`` (whose
    charts are drawn on the project's canvas) imports it."""
    from tests.test_startup import imported, under

    names, r = imported("check", str(HG))
    assert r.returncode == 0, r.stderr[-2000:]
    assert under(names, ("matplotlib", "forge.crtstats", "forge.balance")) == []
    names, r = imported("build", str(HG), "--only", "teacher", "--out", str(tmp_path), "-q")
    assert r.returncode == 0, r.stderr[-2000:]
    assert (tmp_path / "hells_gate" / "teacher.pdf").is_file()
    assert "forge.crtstats" in names  # the teacher's pack was drawn ...
    assert under(names, ("matplotlib",)) == []  # ... without matplotlib


@pytest.mark.parametrize("module", [cs, bal])
def test_doctests(module: object) -> None:
    import doctest

    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0
