"""Reference cards: the combat results table, shifts, modifiers, terrain effects, sequence of play, every
other table, victory and special rules, two cards to a page (or one card a page, at its own size, for a card
service: ``--cards-per-page 1``; or one a page at a card service's product size, laid out again for it:
``--card-size``, :func:`sized_cards`).

Each fact is printed from its one source in the model: the CRT from ``game.combat.crt``, the terrain effects
from ``game.terrain``, the turn record's reinforcements from ``game.reinforcements()``.  The blocks are
blocks (:mod:`forge.render.blocks`) poured card after card by :func:`flow`; the class handout reuses the same blocks.

The parts, one module each: :mod:`.styles` (type, text helpers, paragraphs, headings, notes), :mod:`.flowables`
(card break, shift arrow, terrain swatch), :mod:`.tables` (column widths, the house chart), the blocks by family
(:mod:`.combat`, :mod:`.terrain`, :mod:`.turns`, :mod:`.limits`), :mod:`.story` (the blocks in card order),
:mod:`.flow` (pouring blocks into cards, the keep-together rules), :mod:`.chrome` (card regions, outline and title
bar, full bleed), :mod:`.size` (``--card-size`` and its error), :mod:`.sized` (the cards laid out for a card size)
and :mod:`.pages` (the component's pages).  They import one way: styles <- flowables, tables <- each family of
blocks <- story; size <- flow <- chrome <- sized <- pages.  Every name the single module had is still importable
from here.
"""

from __future__ import annotations

from .styles import (
    esc,
    _fonts,
    heading,
    note,
    _num,
    P,
    _Para,
    _plain_lines,
    _printed,
    _rule,
    _side_name,
    Styles,
    _TAG,
    _turn_list,
    NO_MOVE_EFFECT,
    NO_MOVE_EFFECT_NOTE,
    UNKNOWN_NOTE,
)
from .flowables import (
    CardBreak,
    ShiftArrow,
    Swatch,
)
from .tables import (
    auto_widths,
    Chart,
    _column_measures,
    grid_table,
    _natural,
    write_in,
    WRITE_IN_NOTE,
)
from .combat import (
    all_out_sentence,
    _cell_markup,
    combat_blocks,
    combat_note_blocks,
    crt_blocks,
    _crt_least,
    _crt_table,
    _crt_widths,
    _dice_label,
    dice_pool_blocks,
    _grid_rows,
    _has_unknown,
    _hits_cell,
    modifier_blocks,
    result_blocks,
    RETREAT_RED,
    _secondary,
    _section_name,
    shift_blocks,
    _shift_name,
    _side_by_side,
    _steps,
)
from .terrain import (
    _move_cost,
    named_hexsides,
    table_blocks,
    terrain_blocks,
)
from .turns import (
    _phase_text,
    sequence_blocks,
    special_rule_blocks,
    STEP_AT,
    turn_blocks,
    _turn_length,
)
from .limits import (
    _allowance_words,
    level_words,
    limit_blocks,
    limit_rows,
    scenario_blocks,
    _selector_words,
    stacking_blocks,
    stacking_lines,
    victory_blocks,
)
from .story import (
    story,
)
from .flow import (
    _body_rows,
    _Cut,
    _fits_empty,
    flow,
    Frame,
    _FUZZ,
    _is_table_note,
    Keep,
    _keep_notes,
    _least_height,
    MIN_SPLIT_ROWS,
    Region,
    _room_after,
    _starts,
    _too_big,
    _too_few_rows,
)
from .chrome import (
    _card_chrome,
    card_regions,
    _full_bleed_frame,
    single_card_size,
)
from .size import (
    card_size,
    CARD_SIZE_RANGE,
    CARD_SIZES,
    CardSizeError,
    _inches,
)
from .sized import (
    _block_where,
    _charts,
    refuse_card_size,
    _Refused,
    _sized,
    sized_cards,
    SizedCards,
)
from .pages import (
    render,
)

__all__ = [
    "CARD_SIZES",
    "CardBreak",
    "CardSizeError",
    "Styles",
    "card_size",
    "combat_blocks",
    "crt_blocks",
    "flow",
    "refuse_card_size",
    "render",
    "sequence_blocks",
    "shift_blocks",
    "single_card_size",
    "sized_cards",
    "story",
]
"""The public names (every other name above is importable too, for the modules and tests that use it)."""
_PARTS = (
    all_out_sentence,
    _allowance_words,
    auto_widths,
    _block_where,
    _body_rows,
    _card_chrome,
    card_regions,
    CARD_SIZE_RANGE,
    _cell_markup,
    Chart,
    _charts,
    _column_measures,
    combat_note_blocks,
    _crt_least,
    _crt_table,
    _crt_widths,
    _Cut,
    _dice_label,
    dice_pool_blocks,
    esc,
    _fits_empty,
    _fonts,
    Frame,
    _FUZZ,
    _is_table_note,
    Keep,
    _printed,
    _full_bleed_frame,
    _grid_rows,
    grid_table,
    _has_unknown,
    heading,
    _hits_cell,
    _inches,
    _keep_notes,
    _least_height,
    level_words,
    limit_blocks,
    limit_rows,
    MIN_SPLIT_ROWS,
    modifier_blocks,
    _move_cost,
    named_hexsides,
    _natural,
    note,
    _num,
    P,
    _Para,
    _phase_text,
    _plain_lines,
    _Refused,
    Region,
    result_blocks,
    RETREAT_RED,
    _room_after,
    _rule,
    scenario_blocks,
    _secondary,
    _section_name,
    _selector_words,
    _shift_name,
    ShiftArrow,
    _side_by_side,
    _side_name,
    _sized,
    SizedCards,
    special_rule_blocks,
    stacking_blocks,
    stacking_lines,
    _starts,
    STEP_AT,
    _steps,
    Swatch,
    table_blocks,
    _TAG,
    terrain_blocks,
    _too_big,
    _too_few_rows,
    turn_blocks,
    _turn_length,
    _turn_list,
    NO_MOVE_EFFECT,
    NO_MOVE_EFFECT_NOTE,
    UNKNOWN_NOTE,
    victory_blocks,
    write_in,
    WRITE_IN_NOTE,
)
