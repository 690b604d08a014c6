"""What the engine keeps and updates in place for speed (issue 23 item 5) stays each State's own, and the memos
that fill during play fill cheaply.

* A move cuts its unit out of the kept movement phase's lists in place: a copied State must have its own lists, so
  that a move in one leaves the other's legal actions as they were (both ways round).
* An odds CRT's column headings are parsed once, not at every new ratio the engine meets mid-game.
"""

from __future__ import annotations

import random

import pytest

from forge.notation import OddsColumn
from forge.rules import combat
from forge.rules import engine as hg
from forge.rules.state import Phase, State
from test_hells_gate import ASSUMED, GAME


def movement_states(seeds: range, per_game: int = 3) -> list[State]:
    """States at a movement decision with at least two units still to move, on turns where a move keeps the phase's
    options (no effect makes one unit's move change another's), from random games."""
    out: list[State] = []
    for seed in seeds:
        rng, dice = random.Random(seed), hg.Dice(seed)
        s = State.initial(GAME, strengths=ASSUMED)
        found = 0
        while s.result is None and found < per_game:
            actions = hg.legal_actions(s)
            kept = s.turn not in s.rules.effects.interacting_turns and s.rules.stacking is None
            if kept and s.phase is Phase.MOVEMENT and len({a.unit for a in actions if isinstance(a, hg.Move)}) >= 2:
                out.append(s.copy())
                found += 1
            hg.apply(s, rng.choice(actions), dice)
    return out


@pytest.mark.parametrize("move_in", ["copy", "original"])
def test_a_move_in_one_state_leaves_a_copys_moves_alone(move_in: str) -> None:
    states = movement_states(range(8))
    assert len(states) >= 10
    for s in states:
        hg.legal_actions(s)  # the phase's options are kept in s.scratch now
        twin = s.copy()
        before = list(map(str, hg.legal_actions(s)))
        assert twin.scratch["options"][0] is s.scratch["options"][0]  # the options are shared, not recomputed
        mover, other = (twin, s) if move_in == "copy" else (s, twin)
        move = next(a for a in hg.legal_actions(mover) if isinstance(a, hg.Move))
        hg.apply(mover, move, hg.ScriptedDice([]))
        assert list(map(str, hg.legal_actions(other))) == before
        assert move.unit not in {a.unit for a in hg.legal_actions(mover) if isinstance(a, hg.Move)}


def test_the_odds_columns_are_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    crt = GAME.combat.crt
    assert crt is not None
    pairs = ((1, 3), (7, 2), (40, 3), (5, 5), (13, 4), (9, 1))
    first = [combat.column_for_odds(crt, a, d).label for a, d in pairs]
    calls: list[str] = []
    parse = OddsColumn.parse.__func__  # type: ignore[attr-defined]

    def counting(cls: type[OddsColumn], text: str) -> OddsColumn:
        calls.append(text)
        return parse(cls, text)  # type: ignore[no-any-return]

    monkeypatch.setattr(OddsColumn, "parse", classmethod(counting))
    assert [combat.column_for_odds(crt, a, d).label for a, d in pairs] == first
    assert calls == []
    assert first == ["<1:1", "3:1", "8:1+", "1:1", "3:1", "8:1+"]
