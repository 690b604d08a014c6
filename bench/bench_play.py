"""How many complete games of Hell's Gate random play one core runs per second (target: 1,000 or more, issue 11).

Run: .venv/bin/python bench/bench_play.py [GAMES]   -- prints a table; asserts nothing.

Random play: at every decision a uniformly random legal action (``random.Random(seed).choice``), dice from
``Dice(seed)``; seeds 0..GAMES-1, so runs are repeatable.  Strengths are the tests' documented assumptions
(``tests/test_hells_gate.py``): the rulebook does not give most of them.  The first game is timed apart: it
pays for compiling the rules and filling the engine's memo of strengths and odds.  Games per second are
counted in CPU time of this process (``time.process_time``), so other work on the machine does not skew them;
the wall-clock rate is printed beside it.  The games are played twice: once as they are, for the games per second,
and once with a clock read around every call, for the split between ``legal_actions`` and ``apply`` (three clock
reads per action cost about as much as a fifth of a game's own work, so they stay out of the rate).
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))  # this checkout's forge, not an editable install of another one (bench/run.py's play row)

from test_hells_gate import ASSUMED, GAME

from forge.rules.engine import Dice, apply, legal_actions
from forge.rules.state import State


def play_untimed(seed: int) -> tuple[State, int]:
    """One game, as :func:`play` plays it, without the clock; returns the final state and the number of actions."""
    rng = random.Random(seed)
    dice = Dice(seed)
    state = State.initial(GAME, strengths=ASSUMED)
    n = 0
    while state.result is None:
        apply(state, rng.choice(legal_actions(state)), dice)
        n += 1
    return state, n


def play(seed: int) -> tuple[State, int, float, float]:
    """One game; returns the final state, the number of actions and the seconds in legal_actions and apply."""
    rng = random.Random(seed)
    dice = Dice(seed)
    state = State.initial(GAME, strengths=ASSUMED)
    n = 0
    t_legal = t_apply = 0.0
    clock = time.perf_counter
    while state.result is None:
        t0 = clock()
        actions = legal_actions(state)
        t1 = clock()
        apply(state, rng.choice(actions), dice)
        t_apply += clock() - t1
        t_legal += t1 - t0
        n += 1
    return state, n, t_legal, t_apply


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    t = time.perf_counter()
    play(10**6)
    cold = time.perf_counter() - t

    winners: Counter[str] = Counter()
    actions = 0
    vp = [0, 0]
    cpu = time.process_time()
    t = time.perf_counter()
    for seed in range(games):
        state, n = play_untimed(seed)
        assert state.result is not None
        winners[state.result.winner or "tie"] += 1
        actions += n
        vp = [a + b for a, b in zip(vp, state.result.vp, strict=True)]
    wall = time.perf_counter() - t
    cpu = time.process_time() - cpu

    legal = applied = 0.0
    timed = 0
    for seed in range(games):
        _, n, tl, ta = play(seed)
        timed += n
        legal += tl
        applied += ta
    assert timed == actions, "the timed games differ from the untimed ones"

    rows = [
        ("games", f"{games}"),
        ("games per CPU second (one core)", f"{games / cpu:.1f}"),
        ("games per wall-clock second", f"{games / wall:.1f}"),
        ("CPU ms per game", f"{cpu / games * 1000:.2f}"),
        ("first game (cold) ms", f"{cold * 1000:.1f}"),
        ("actions per game", f"{actions / games:.1f}"),
        ("us per action (legal_actions + apply, wall)", f"{(legal + applied) / actions * 1e6:.1f}"),
        ("  in legal_actions", f"{legal / actions * 1e6:.1f}"),
        ("  in apply", f"{applied / actions * 1e6:.1f}"),
        ("Soviet / German / tie wins", f"{winners['soviet']} / {winners['german']} / {winners['tie']}"),
        ("mean final VP Soviet : German", f"{vp[0] / games:.1f} : {vp[1] / games:.1f}"),
    ]
    width = max(len(k) for k, _ in rows)
    print(f"{'Hell' + chr(39) + 's Gate random play':<{width}}  {'value':>12}")
    for k, v in rows:
        print(f"{k:<{width}}  {v:>12}")


if __name__ == "__main__":
    main()
