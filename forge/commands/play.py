"""``forge play GAME.yaml``: play N complete games with a simple policy and print how they came out.

Seeds S..S+N-1: game ``i`` draws its choices from ``random.Random(S + i)`` and its dice from the engine's dice
seeded with ``S + i``, so the same seeds print the same lines.  Policies:

* ``random``: a uniformly random legal action at every decision.
* ``greedy``: the action the engine ranks highest (:meth:`forge.rules.engines.Engine.rank`: the attack with the
  best odds, else a move toward the enemy and its supply sources), ties broken at random.

The game's engine is chosen from its data (:func:`forge.rules.engines.engine_for`).  A game it cannot play gets
one message listing what the data lacks, exit 2; ``--assume strength=N`` fills every strength the data leaves
unknown, and the output says so.  Progress goes to standard error, only when it is a terminal.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
from collections import Counter
from typing import Any

EXIT_OK, EXIT_BAD_INPUT = 0, 2
POLICIES = ("random", "greedy")


def assumption(text: str) -> tuple[str, int]:
    """``strength=N`` as ("strength", N); argparse's type for ``--assume``."""
    key, eq, value = text.partition("=")
    known = ("strength",)
    if not eq or key.strip() not in known:
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected KEY=VALUE with KEY one of {', '.join(known)} (e.g. strength=3)"
        )
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: a strength is a whole number (e.g. strength=3)") from None
    if not 0 <= n <= 10_000:
        raise argparse.ArgumentTypeError(f"{text!r}: a strength is 0 to 10,000")
    return key.strip(), n


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``forge play`` (forge.cli calls this when it builds its parser)."""
    p.add_argument("file", metavar="GAME.yaml")
    p.add_argument("--games", type=_count, default=100, metavar="N", help="how many games to play (default: 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the first game's seed (default: 0)")
    p.add_argument("--policy", choices=POLICIES, default="random", help="how each side chooses (default: random)")
    p.add_argument(
        "--assume",
        type=assumption,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a value to assume where the data says unknown: strength=N gives every unknown unit strength N",
    )


def _count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a whole number of games") from None
    if not 1 <= n <= 1_000_000:
        raise argparse.ArgumentTypeError(f"{text!r}: expected 1 to 1,000,000 games")
    return n


class _Progress:
    """A one-line count on standard error while games are played, only when standard error is a terminal."""

    def __init__(self, total: int) -> None:
        isatty = getattr(sys.stderr, "isatty", None)
        self.enabled = bool(isatty and isatty())
        self.total = total

    def show(self, done: int) -> None:
        if self.enabled and (done % 10 == 0 or done == self.total):
            sys.stderr.write(f"\r\x1b[Kplaying: {done}/{self.total}")
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def play_one(engine: Any, game: Any, assume: Any, seed: int, policy: str, seen: Any = None) -> Any:
    """One complete game; returns its :class:`~forge.rules.engines.Outcome`.  ``seen``: called with the state
    after every action (``forge analyze`` follows the score with it)."""
    rng = random.Random(seed)
    dice = engine.dice(seed)
    state = engine.initial(game, assume)
    # greedy: the actions ranked highest, from the engine's own shortcut when it has one (the same list)
    best = (getattr(engine, "best", None) or functools.partial(_ranked_best, engine)) if policy == "greedy" else None
    while (outcome := engine.outcome(state)) is None:
        actions = engine.legal_actions(state) if best is None else best(state)
        engine.apply(state, rng.choice(actions), dice)
        if seen is not None:
            seen(state)
    return outcome


def _ranked_best(engine: Any, state: Any) -> list[Any]:
    """The legal actions ``engine.rank`` ranks highest, in legal order (the greedy policy's choices)."""
    from ..rules.engines import top_ranked

    actions = engine.legal_actions(state)
    return top_ranked(actions, engine.rank(state, actions))


def report(title: str, outcomes: list[Any], sides: list[str], *, seed: int, policy: str, engine: str) -> list[str]:
    """The printed lines: one per statistic."""
    n = len(outcomes)
    lines = [f"{title}: {n} game{'s' if n != 1 else ''}, seeds {seed}..{seed + n - 1}, {policy} play ({engine})"]
    won = Counter(o.winner for o in outcomes)
    for side in sides:
        lines.append(f"won by {side}: {won[side]}")
    lines.append(f"draws: {won[None]}")
    for turn, k in sorted(Counter(o.turn for o in outcomes).items()):
        lines.append(f"ended on turn {turn}: {k}")
    for side in sides:
        vps = [o.vp[side] for o in outcomes]
        lines.append(f"final VP {side}: mean {sum(vps) / n:.2f}, min {min(vps)}, max {max(vps)}")
    return lines


def what_it_lacks(game: Any, engine: Any, assume: Any) -> list[str]:
    """What the data lacks for ``engine`` to play ``game`` under the stated assumptions (``forge play`` and
    ``forge analyze`` refuse the game with this list; empty: it can be played)."""
    lacks = list(engine.problems(game))
    unknown = assume.unknown_faces(game)
    if unknown and assume.strength is None:
        lacks.append(
            f"{unknown} unit face{'s' if unknown != 1 else ''} {'have' if unknown != 1 else 'has'} a strength the "
            "data does not give (units[*].steps); assume one with --assume strength=N"
        )
    return lacks


def run(args: argparse.Namespace) -> int:
    from ..rules.board import UnknownStrengthError, UnplayableGameError
    from ..rules.engines import Assumptions, engine_for
    from . import load_or_say

    path = args.file
    game = load_or_say(path)
    if game is None:
        return EXIT_BAD_INPUT
    given = dict(args.assume)
    assume = Assumptions(strength=given.get("strength"))
    engine = engine_for(game)
    lacks = what_it_lacks(game, engine, assume)
    unknown = assume.unknown_faces(game)
    if lacks:
        print(f"forge play: {path}: {game.game.title} cannot be played; its data lacks:", file=sys.stderr)
        for x in lacks:
            print(f"  - {x}", file=sys.stderr)
        return EXIT_BAD_INPUT
    bar = _Progress(args.games)
    outcomes = []
    try:
        for i in range(args.games):
            outcomes.append(play_one(engine, game, assume, args.seed + i, args.policy))
            bar.show(i + 1)
    except (UnplayableGameError, UnknownStrengthError, ValueError) as e:  # an assumed value the data contradicts
        bar.close()
        print(f"forge play: {path}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    bar.close()
    if assume.strength is not None:
        used = f"{unknown} unit face{'s' if unknown != 1 else ''} the data does not give" if unknown else "not needed"
        print(f"assumed: strength={assume.strength} ({used})")
    sides = [s.id for s in game.game.sides]
    for line in report(game.game.title, outcomes, sides, seed=args.seed, policy=args.policy, engine=engine.name):
        print(line)
    return EXIT_OK
