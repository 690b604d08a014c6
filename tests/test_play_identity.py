"""The engine plays the same games for the same seeds as it did before its special rules became data effects.

The dumps (tests/play_identity.py) of 300 seeded random games of each game the engine plays -- every legal-action
list, every chosen action, supplied units, dice, log, final map and score -- hash to the digests recorded from the
engine before the refactor.  Any change of play, of an action's text or of a log line changes a digest.
"""

from __future__ import annotations

import pytest

from play_identity import RECORDED, digest


@pytest.mark.parametrize("name", sorted(RECORDED[300]))
def test_300_seeded_games_are_the_recorded_ones(name: str) -> None:
    assert digest(name, 300) == RECORDED[300][name]


def test_another_run_of_seeds_has_another_digest() -> None:
    """The digest sees the games: 20 seeds are not 300."""
    assert digest("ferry_point", 20) == RECORDED[20]["ferry_point"] != RECORDED[300]["ferry_point"]
