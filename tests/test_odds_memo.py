"""The engine remembers an attack's net column shift per (shifts that apply, caps in force, caps of the turn, side),
not per base column and turn (forge/rules/engine.py, ``_odds``), and works the final column out as the base plus
the net, clamped to the table.  At every open attack of random games of each playable odds game, what ``_odds``
gives must equal :func:`forge.rules.combat.apply_shifts` run from scratch on the base column with the same shifts
and caps, whatever the memo already held (a second, emptied-memo pass over the same positions agrees too).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from forge.loader import load
from forge.rules import combat
from forge.rules import engine as E
from forge.rules.engines import Assumptions, engine_for
from forge.rules.state import State

ROOT = Path(__file__).resolve().parent.parent
GAMES = {
    "hells_gate": (ROOT / "data" / "hells_gate.yaml", 3),
    "ferry_point": (ROOT / "data" / "ferry_point.yaml", None),
    "synthetic_tabletop": (ROOT / "tests" / "data" / "synthetic_tabletop.yaml", None),
}


def from_scratch(s: State, target: int, attackers: list[int], base: int, ids: tuple[str, ...]) -> tuple[int, int]:
    """The final column and net shift as combat.apply_shifts gives them for this base column and turn."""
    r = s.rules
    in_force = tuple(E._holds(s, x[0], x[1], x[2], target, attackers) for x in r.effects.caps_holding)
    aside = r.effects.caps_set_aside(in_force)
    caps = [cap for i, cap in enumerate(r.caps) if i not in aside]
    shifts = [sh for sh in r.shifts if sh.id in ids]
    res = combat.apply_shifts(
        r.odds_crt.columns, base, shifts, caps, turn=s.turn, side=s.board.sides[s.active], role="attacking"
    )
    assert res.index is not None
    return res.index, res.net


@pytest.mark.parametrize("name", sorted(GAMES))
def test_remembered_shifts_equal_apply_shifts_from_scratch(name: str) -> None:
    path, strength = GAMES[name]
    game = load(path)
    engine = engine_for(game)
    assume = Assumptions(strength=strength)
    positions: list[tuple[State, int, list[int]]] = []
    for seed in range(12):
        rng = random.Random(seed)
        dice = engine.dice(seed)
        state = engine.initial(game, assume)
        if state.rules.pool is not None:
            pytest.skip("dice-pool combat has no odds column")
        while engine.outcome(state) is None:
            if state.attack_target >= 0:
                positions.append((state.copy(), state.attack_target, list(state.attackers)))
            engine.apply(state, rng.choice(engine.legal_actions(state)), dice)
    assert len(positions) > 50
    shifted = clamped = 0
    for emptied in (False, True):
        if emptied:
            positions[0][0].rules.memo.clear()
        for s, target, attackers in positions:
            _, _, _, base, ids, final, net, _ = E._odds(s, target, attackers)
            assert (final, net) == from_scratch(s, target, attackers, base, ids)
            shifted += net != 0
            clamped += not 0 <= base + net < s.rules.n_columns
    assert shifted > 0
    if name == "hells_gate":
        assert clamped > 0  # shifts past an end of the table happen, and are clamped as apply_shifts clamps them
