"""The greedy policy's ranking of moves (forge/rules/engines.py, ``HitsEngine._rank_moves``) remembers, within one
movement phase, each action's value and the distance map it was read from.  Whatever it remembers must equal a
ranking from scratch: at every movement decision of greedy games of each playable game, and after ranking a branch
(a copied state in which a unit has moved, which shares the phase's kept options with the original), the ranking
equals the one made with the memory emptied.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from forge.loader import load
from forge.rules import engines
from forge.rules.board import Phase
from forge.rules.engines import Assumptions, engine_for

ROOT = Path(__file__).resolve().parent.parent
GAMES = {
    "hells_gate": (ROOT / "data" / "hells_gate.yaml", 3),
    "ferry_point": (ROOT / "data" / "ferry_point.yaml", None),
    "synthetic_tabletop": (ROOT / "tests" / "data" / "synthetic_tabletop.yaml", None),
}


def fresh(engine: engines.HitsEngine, state: object, actions: list[object]) -> list[float]:
    engines._LAST_DIST.clear()
    return engine.rank(state, actions)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_remembered_move_ranks_equal_fresh_ones(name: str) -> None:
    path, strength = GAMES[name]
    game = load(path)
    engine = engine_for(game)
    assert isinstance(engine, engines.HitsEngine)
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        dice = engine.dice(seed)
        state = engine.initial(game, Assumptions(strength=strength))
        while engine.outcome(state) is None:
            actions = engine.legal_actions(state)
            scores = engine.rank(state, actions)
            if state.phase is Phase.MOVEMENT and len(actions) > 1:
                again = engine.rank(state, actions)  # from memory, when nothing has changed
                branch = state.copy()  # a unit moves in a branch, then the original is ranked again
                engine.apply(branch, rng.choice(actions[:-1] or actions), engine.dice(seed + 1000))
                if engine.outcome(branch) is None:
                    engine.rank(branch, engine.legal_actions(branch))
                after_branch = engine.rank(state, actions)
                expected = fresh(engine, state, actions)
                assert scores == again == after_branch == expected
                checked += 1
            best = max(scores)
            choices = [a for a, v in zip(actions, scores, strict=True) if v == best]
            engine.apply(state, rng.choice(choices), dice)
    assert checked > 20


def test_a_new_phase_with_the_enemy_where_it_was_is_ranked_afresh() -> None:
    """The same enemy positions (so the same distance map) but a new movement phase, in which a unit stands
    elsewhere with the same Move objects (the engine's actions are one object per unit and hex): the values
    remembered from the old phase must not be reused."""
    game = load(GAMES["hells_gate"][0])
    engine = engine_for(game)
    assert isinstance(engine, engines.HitsEngine)
    rng = random.Random(7)
    dice = engine.dice(7)
    state = engine.initial(game, Assumptions(strength=3))
    tried = differs = 0
    while engine.outcome(state) is None and tried < 30:
        actions = engine.legal_actions(state)
        if state.phase is Phase.MOVEMENT and len(actions) > 2:
            engine.rank(state, actions)  # remembered for this phase
            for move in actions:
                if not isinstance(move, engines._hits.Move):
                    continue
                branch = state.copy()
                engine.apply(branch, move, engine.dice(0))
                if engine.outcome(branch) is not None or branch.phase is not Phase.MOVEMENT:
                    continue
                u = branch.board.unit(move.unit)
                branch.moved[u] = False  # by hand: the unit may move again from its new hex, in a new phase
                branch.scratch.clear()
                # its moves that the old phase listed too: the same objects, ranked from another hex now
                seen = {id(a) for a in actions}
                again = [
                    a for a in engine.legal_actions(branch) if id(a) in seen and getattr(a, "unit", None) == move.unit
                ]
                if again:
                    engine.rank(state, actions)
                    got = engine.rank(branch, again)
                    want = fresh(engine, branch, again)
                    assert got == want
                    differs += want != fresh(engine, state, again)
                    tried += 1
        engine.apply(state, rng.choice(actions), dice)
    assert tried >= 10
    assert differs  # some of them are worth something else from the new hex
