"""``forge play`` (forge/commands/play.py) and the engine registry (forge/rules/engines.py).

* Each game the engine plays finishes 20 games through the command: exit 0, one statistic a line (winners and
  draws adding up to the games, the turns the games ended on, each side's final VP), the same lines for the same
  seed and different ones for another seed, and the greedy policy plays too.
* Hell's Gate without an assumption is one message listing what its data lacks (the unknown strengths), exit 2,
  nothing on standard output; with ``--assume strength=N`` the output says which assumption was used.
* The engine is chosen from the data: a CRT of result codes is not this engine's, and its problems say so.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from forge.cli import main
from forge.loader import load
from forge.rules.engines import Assumptions, engine_for

ROOT = Path(__file__).resolve().parent.parent
PLAYABLE = {
    "hells_gate": (ROOT / "data" / "hells_gate.yaml", ["--assume", "strength=3"]),
    "ferry_point": (ROOT / "data" / "ferry_point.yaml", []),
    "synthetic_tabletop": (ROOT / "tests" / "data" / "synthetic_tabletop.yaml", []),
}


def play(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    status = main(["play", *argv])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


@pytest.mark.parametrize("name", sorted(PLAYABLE))
def test_twenty_games_finish_and_print_one_statistic_a_line(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path, extra = PLAYABLE[name]
    status, lines, err = play(capsys, str(path), "--games", "20", *extra)
    assert status == 0, err
    assert err == ""  # no progress: standard error is not a terminal here
    game = load(path)
    sides = [s.id for s in game.game.sides]
    body = [x for x in lines if not x.startswith("assumed: ")]
    assert body[0] == f"{game.game.title}: 20 games, seeds 0..19, random play (odds or dice-pool hits)"
    won = [int(x.rsplit(": ", 1)[1]) for x in body if x.startswith("won by ")]
    draws = next(int(x.rsplit(": ", 1)[1]) for x in body if x.startswith("draws: "))
    assert len(won) == len(sides)
    assert sum(won) + draws == 20
    ended = {int(m[1]): int(m[2]) for x in body if (m := re.fullmatch(r"ended on turn (\d+): (\d+)", x))}
    assert sum(ended.values()) == 20
    assert all(1 <= t <= len(game.turns.turns) for t in ended)
    for side in sides:
        (vp,) = [x for x in body if x.startswith(f"final VP {side}: ")]
        mean, lo, hi = re.fullmatch(r"final VP \S+: mean (-?[\d.]+), min (-?\d+), max (-?\d+)", vp).groups()  # type: ignore[union-attr]
        assert int(lo) <= float(mean) <= int(hi)
    assert len(body) == 1 + len(sides) + 1 + len(ended) + len(sides)
    again = play(capsys, str(path), "--games", "20", *extra)
    assert again == (0, lines, "")
    other = play(capsys, str(path), "--games", "20", "--seed", "1000", *extra)
    assert other[0] == 0
    assert other[1] != lines
    assert "seeds 1000..1019" in other[1][len(lines) - len(body)]


@pytest.mark.parametrize("name", sorted(PLAYABLE))
def test_the_greedy_policy_plays_whole_games(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path, extra = PLAYABLE[name]
    status, lines, err = play(capsys, str(path), "--games", "5", "--policy", "greedy", *extra)
    assert status == 0, err
    assert any("greedy play" in x for x in lines)
    assert play(capsys, str(path), "--games", "5", "--policy", "greedy", *extra)[1] == lines


def test_hells_gate_without_an_assumption_lists_what_it_lacks(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, err = play(capsys, str(ROOT / "data" / "hells_gate.yaml"), "--games", "3")
    assert status == 2
    assert lines == []
    assert err.startswith("forge play: ")
    assert "cannot be played; its data lacks:" in err
    assert "39 unit faces have a strength the data does not give" in err
    assert "--assume strength=N" in err
    assert "Traceback" not in err


def test_the_output_says_which_assumption_was_used(capsys: pytest.CaptureFixture[str]) -> None:
    _, lines, _ = play(capsys, str(ROOT / "data" / "hells_gate.yaml"), "--games", "2", "--assume", "strength=4")
    assert lines[0] == "assumed: strength=4 (39 unit faces the data does not give)"
    _, lines, _ = play(capsys, str(ROOT / "data" / "ferry_point.yaml"), "--games", "2", "--assume", "strength=4")
    assert lines[0] == "assumed: strength=4 (not needed)"


def test_a_game_the_data_does_not_let_the_engine_play(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, err = play(capsys, str(ROOT / "data" / "tabletop_hells_gate.yaml"))
    assert status == 2
    assert lines == []
    assert "the game has no units (units)" in err
    assert err.count("\n  - ") >= 3


def test_bad_options_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    hg = str(ROOT / "data" / "hells_gate.yaml")
    for argv in (["--assume", "strength=x"], ["--assume", "speed=3"], ["--games", "0"], ["--policy", "clever"]):
        with pytest.raises(SystemExit) as e:
            main(["play", hg, *argv])
        assert e.value.code == 2
    assert "expected KEY=VALUE with KEY one of strength" in capsys.readouterr().err


def test_the_engine_is_chosen_from_the_data() -> None:
    fpa = load(ROOT / "data" / "first_panzer_army.yaml")  # an odds CRT of result codes: the codes engine
    engine = engine_for(fpa)
    assert engine.name == "odds or differential CRT with result codes"
    assert any("map.default_terrain" in p for p in engine.problems(fpa))  # its map is not in the book
    hg = load(ROOT / "data" / "hells_gate.yaml")
    strengths = Assumptions(strength=5).strengths(hg)
    assert strengths is not None
    assert all(v for v in strengths.values())
    assert Assumptions().strengths(hg) is None
    assert Assumptions(strength=5).strengths(load(ROOT / "data" / "ferry_point.yaml")) is None


def test_assumed_strengths_are_worked_out_once_per_game_and_assumption(monkeypatch: pytest.MonkeyPatch) -> None:
    """HitsEngine.initial keeps the strengths an assumption gives with the game's Board: later games of the same
    game and assumption do not read the printed strengths again, and start exactly as the first did; another
    assumption, or another Game object, gets its own."""
    from forge.rules.state import State

    calls: list[int | None] = []
    real = Assumptions.strengths

    def counted(self: Assumptions, game: object) -> object:
        calls.append(self.strength)
        return real(self, game)  # type: ignore[arg-type]

    monkeypatch.setattr(Assumptions, "strengths", counted)
    game = load(ROOT / "data" / "hells_gate.yaml")
    engine = engine_for(game)
    two, three = Assumptions(strength=2), Assumptions(strength=3)
    first = [engine.initial(game, two) for _ in range(4)]
    assert len(calls) <= 2  # the first call builds the Board; the second keeps the strengths with it
    engine.initial(game, three)
    engine.initial(game, three)
    engine.initial(game, three)
    assert calls.count(3) <= 1
    expected = State.initial(game, strengths=real(two, game))
    for s in first:
        assert s.strength == expected.strength
        assert s.pos == expected.pos
    assert first[0].strength != engine.initial(game, three).strength
    other = load(ROOT / "data" / "hells_gate.yaml")
    before = len(calls)
    engine.initial(other, two)
    assert len(calls) == before + 1
