"""Every block of the reference cards in card order, in four groups that each start a fresh card unless the
current one has room (:func:`story`)."""

from __future__ import annotations

from ..blocks import Block

from ...model import Game
from .styles import Styles
from .flowables import CardBreak
from .combat import combat_blocks
from .terrain import table_blocks, terrain_blocks
from .turns import sequence_blocks, special_rule_blocks, turn_blocks
from .limits import limit_blocks, scenario_blocks, stacking_blocks, victory_blocks


def story(game: Game, st: Styles, avail: float) -> list[Block]:
    """Every block of the reference cards in card order: combat; terrain and tables; turns and sequence;
    special rules, victory and scenarios.  Each group starts a fresh card unless the current one has room."""
    groups: list[list[Block]] = [
        combat_blocks(game, st, avail),
        terrain_blocks(game, st, avail) + table_blocks(game, st, avail),
        sequence_blocks(game, st, avail)
        + turn_blocks(game, st, avail)
        + limit_blocks(game, st, avail)
        + stacking_blocks(game, st, avail),
        special_rule_blocks(game, st, avail) + victory_blocks(game, st, avail) + scenario_blocks(game, st, avail),
    ]
    out: list[Block] = []
    for g in groups:
        if not g:
            continue
        if out:
            out.append(CardBreak(min_space=150))
        out += g
    return out
