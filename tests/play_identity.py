"""The identity dump of seeded random games: the same games for the same seeds, before and after a refactor.

For each game the engine plays (Hell's Gate with the tests' assumed strengths, Ferry Point, the synthetic tabletop
scenario) and each seed, a random game (``random.Random(seed).choice`` of the legal actions, ``Dice(seed)``) is
written out: every legal-action list in order, the chosen action, every 7th decision's supplied units of each side,
the dice, the event log, the final picture of the map and the score.  :func:`digest` hashes the dumps of a run of
seeds; ``tests/test_play_identity.py`` compares them with the digests recorded from the engine before its special
rules became data effects (:data:`RECORDED`).

Run ``python tests/play_identity.py [SEEDS]`` from the repository root to print the digests (300 seeds by default).
"""

from __future__ import annotations

import hashlib
import random
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from forge.loader import load  # noqa: E402  (run as a script: the tree above first)
from forge.model import Game  # noqa: E402
from forge.rules import engine  # noqa: E402
from forge.rules.state import State  # noqa: E402

RECORDED = {
    # seeds 0..299, recorded from main at 63b1ba2 (before the special rules became data effects)
    300: {
        "hells_gate": "5fe7b9bf811281f7cbf456b244b4e59ab7182f23f49aeb946101c005dca60647",
        "ferry_point": "48c2aa59b24bf082fdb0ced4f02e9bd41e4de86a6c31570b6d15ec3fa6ddae9c",
        "synthetic_tabletop": "34e1743a09743face7a42772775b86db0b1acfc629439dbf75b93a80bb2dbb8b",
    },
    # seeds 0..19
    20: {
        "hells_gate": "74e0452f2d44a486935bdb75e1037aac74f2acf268f6e17124d57d93b24457d2",
        "ferry_point": "5c62d4963fe2afbf87851821c9392cfface6b207a3191c39ad4ba8e31307e8d5",
        "synthetic_tabletop": "781e335106834c03343a29efd17b2bdff3428c4bae8aecd1e94bdb9c45d957a7",
    },
}


def games() -> dict[str, tuple[Game, Mapping[str, Sequence[int]] | None]]:
    """The games the engine plays, with the strengths each needs assumed (None: the data gives them)."""
    from test_hells_gate import ASSUMED, GAME

    return {
        "hells_gate": (GAME, ASSUMED),
        "ferry_point": (load(ROOT / "data" / "ferry_point.yaml"), None),
        "synthetic_tabletop": (load(ROOT / "tests" / "data" / "synthetic_tabletop.yaml"), None),
    }


def dump(game: Game, strengths: Mapping[str, Sequence[int]] | None, seed: int) -> str:
    """One seeded random game, written out decision by decision."""
    rng = random.Random(seed)
    dice = engine.Dice(seed)
    s = State.initial(game, strengths=strengths, log=True)
    out: list[str] = []
    n = 0
    while s.result is None:
        actions = engine.legal_actions(s)
        out.append(" | ".join(map(str, actions)))
        a = rng.choice(actions)
        out.append(f"> {a}")
        if n % 7 == 0:
            for side in s.board.sides:
                out.append(f"supplied {side}: {' '.join(engine.supplied_units(s, side))}")
        engine.apply(s, a, dice)
        n += 1
    out.append(f"dice {dice.history}")
    out.extend(s.log or ())
    out.append(s.describe())
    out.append(f"score {s.score()} result {s.result}")
    return "\n".join(out)


def digest(name: str, seeds: int) -> str:
    game, strengths = games()[name]
    h = hashlib.sha256()
    for seed in range(seeds):
        h.update(dump(game, strengths, seed).encode())
        h.update(b"\0")
    return h.hexdigest()


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    for name in games():
        print(f"{name} {n} {digest(name, n)}", flush=True)
