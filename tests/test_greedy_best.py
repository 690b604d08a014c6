"""The greedy policy's shortcut (``HitsEngine.best``) gives the list it stands for: the legal actions ``rank``
ranks highest, in legal order, at every decision of greedy and random games of each game the hits engine plays,
from a memory kept across decisions and from scratch alike, and after a branch (a copied state in which a unit has
moved, sharing the phase's kept options) has been asked.  ``forge play --policy greedy`` and ``forge analyze`` choose
with ``rng.choice`` from that list, so the same list (same actions, same order) is the same game.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from forge.commands.play import _ranked_best, play_one
from forge.loader import load
from forge.rules import engines
from forge.rules.engines import Assumptions, engine_for, top_ranked

ROOT = Path(__file__).resolve().parent.parent
GAMES = {
    "hells_gate": (ROOT / "data" / "hells_gate.yaml", 2),
    "ferry_point": (ROOT / "data" / "ferry_point.yaml", None),
    "synthetic_tabletop": (ROOT / "tests" / "data" / "synthetic_tabletop.yaml", None),
    "ferry_point_attack_defense": (ROOT / "data" / "ferry_point.yaml", None),  # rewritten by attack_defense
}


def attack_defense(path: Path, folder: Path) -> Path:
    """The game with every face printed attack-defence, the defence twice the attack ("4" -> "4-8"), so
    that a ranking reading one number for the other is seen."""

    def face(m: re.Match[str]) -> str:
        return f'"{m[1]}-{2 * int(re.sub(r"[^0-9]", "", m[1]))}"'

    text = path.read_text(encoding="utf-8").replace("strength_format: single", "strength_format: attack-defense", 1)
    text = re.sub(r'steps: (\[(?:"[^"]*"(?:, )?)*\])', lambda m: "steps: " + re.sub(r'"([^"]+)"', face, m[1]), text)
    assert '"4-8"' in text
    out = folder / path.name
    out.write_text(text, encoding="utf-8")
    return out


def from_scratch(engine: Any, state: Any) -> list[Any]:
    engines._LAST_DIST.clear()
    engines._BEST_MOVES.clear()
    actions = engine.legal_actions(state)
    return top_ranked(actions, engine.rank(state, actions))


@pytest.mark.parametrize("policy", ["greedy", "random"])
@pytest.mark.parametrize("name", sorted(GAMES))
def test_best_is_the_top_ranked_legal_actions(name: str, policy: str, tmp_path: Path) -> None:
    path, strength = GAMES[name]
    if name.endswith("attack_defense"):
        path = attack_defense(path, tmp_path)
    game = load(path)
    engine = engine_for(game)
    assert isinstance(engine, engines.HitsEngine)
    checked = moves = 0
    for seed in range(3):
        rng = random.Random(seed)
        dice = engine.dice(seed)
        state = engine.initial(game, Assumptions(strength=strength))
        while engine.outcome(state) is None:
            legal = engine.legal_actions(state)
            got = engine.best(state)  # from what the memory holds
            if len(legal) > 1 and checked % 3 == 0:
                branch = state.copy()
                engine.apply(branch, rng.choice(legal[:-1] or legal), engine.dice(seed + 1000))
                if engine.outcome(branch) is None:
                    engine.best(branch)
                assert engine.best(state) == got
            want = from_scratch(engine, state)
            assert got == want, (state.turn, state.phase_name)
            assert engine.best(state) == want  # and from the memory just refilled
            checked += 1
            moves += isinstance(want[0], engines._hits.Move)
            engine.apply(state, rng.choice(got if policy == "greedy" else legal), dice)
    assert checked > 100
    assert moves > 20


def test_greedy_games_are_those_of_the_ranking() -> None:
    """Whole greedy games with the shortcut and with the ranking alone come out the same."""
    path, strength = GAMES["hells_gate"]
    game = load(path)
    engine = engine_for(game)
    assume = Assumptions(strength=strength)

    class RankOnly:  # the same engine without its shortcut: play_one falls back to rank
        def __getattr__(self, name: str) -> Any:
            if name == "best":
                raise AttributeError(name)
            return getattr(engine, name)

    for seed in range(12):
        assert play_one(engine, game, assume, seed, "greedy") == play_one(RankOnly(), game, assume, seed, "greedy")


def test_ranked_best_keeps_ties_in_order() -> None:
    class Fixed:
        def legal_actions(self, state: Any) -> list[str]:
            return ["a", "b", "c", "d"]

        def rank(self, state: Any, actions: list[str]) -> list[float]:
            return [1, 2.0, 0.5, 2]

    assert _ranked_best(Fixed(), None) == ["b", "d"]
    assert top_ranked([], []) == []


def plain_distances(state: Any) -> list[int]:
    """Steps from the enemy's held hexes and supply sources, by a breadth-first search over the neighbour lists."""
    b = state.board
    enemy = 1 - state.active
    far = len(b.labels)
    dist = [far] * far
    ring = sorted(state.held[enemy] | set(b.sources[enemy]))
    for h in ring:
        dist[h] = 0
    while ring:
        nxt = []
        for h in ring:
            for n in b.neighbours[h]:
                if dist[n] == far:
                    dist[n] = dist[h] + 1
                    nxt.append(n)
        ring = nxt
    return dist


@pytest.mark.parametrize("name", ["hells_gate", "synthetic_tabletop"])
def test_distances_by_rings_of_bits_are_a_plain_search(name: str) -> None:
    path, strength = GAMES[name]
    game = load(path)
    engine = engine_for(game)
    assert isinstance(engine, engines.HitsEngine)
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        dice = engine.dice(seed)
        state = engine.initial(game, Assumptions(strength=strength))
        while engine.outcome(state) is None:
            if state.phase.value == "movement":
                assert engine._distances(state) == plain_distances(state)
                engines._LAST_DIST.clear()
                assert engine._distances(state) == plain_distances(state)
                checked += 1
            engine.apply(state, rng.choice(engine.best(state)), dice)
    assert checked > 50
