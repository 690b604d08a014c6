"""The claim vocabulary: for each example kind, the ``given`` and ``states`` keys some handler of that kind reads.

One registry, :data:`GIVEN` and :data:`STATES` (literal keys, and templates such as ``<side>_vp``), with the keys
an example itself names (:func:`named_states`: the keys of a ``limits``/``data_fields``/... mapping, a table's rows,
a unit id ...) and the inputs that are accepted only to be named when a value differs (:data:`UNMODELLED`).
``forge check`` refuses any other key, at its line and column, with the keys that would work (:mod:`forge.check`,
which imports nothing of the verifier); docs/FORMAT.md's table is :func:`markdown_table` (a test keeps them equal);
tests/test_claim_keys.py runs every handler over the data games and fails when one reads a key that
is not declared here, so that a key a handler starts to read is declared with it.
"""

from __future__ import annotations

import datetime as _dt
import difflib
import re
from collections.abc import Iterator
from typing import Any

from . import model as m

K = m.ExampleKind

__all__ = [
    "GIVEN",
    "NAMING",
    "REASONS",
    "STATES",
    "UNMODELLED",
    "accepted",
    "markdown_table",
    "named_states",
    "refusal",
]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_PLACES = "arrives at city enters hex name place town"
"""Keys every kind but ``hex`` reads to compare a named place with the map (crosscheck.py)."""

GIVEN: dict[m.ExampleKind, frozenset[str]] = {
    K.CLAIM: _words("""
        defender_lost unit_attacks hex_attacks
        cites step
        <side>_mech_ma <side>_mech_ma_max active_units all_attackers assault_marker_cost
        attack attack_support attacker_hexes attackers bridge cas_markers cells count_of
        counter_face data_fields defender_steps_available defenders defense_support
        defense_support_markers die divisor enemy engineers exempt extended_bonus first_cost
        end from game ground group_word start groups_of hex_terrain hexes_per_turn ids in_supply largest
        dice_difference dice_sum limits limits_per ma markers mobile_assault_min_cost mobility movement
        outcome per_railhead phase_steps pool_sizes printed result rounding scenario_markers
        second_hex_adjacent_to_enemy side special_rule states step_counts table table_modifiers
        terrain turn unit unit_class unit_types units units_in_target used
        vp_difference weather
    """),
    K.COMBAT: _words("""
        phase defender_lost unit_attacks hex_attacks
        actual_magnitude all_attackers attack attack_printed attack_support
        attack_support_markers attack_support_total attack_values attacker_hexes attackers base_column
        base_odds bombardment column defender_hex defender_steps_left defenders defense
        defense_printed defense_support defense_support_markers defense_support_total defense_values
        dice die enemy hex_terrain leader magnitude markers position range result
        section shifts terrain turn unit unit_attack unit_defense units weather removed
    """),
    K.HEX: _words("""
        attacker_hexes attackers defenders from hex_terrain hexes scenario to turn unit units
    """),
    K.MAGNITUDE: _words("""
        attacker_hexes attacker_steps attackers defender_hex defender_steps defenders
        fewest_steps hex_terrain position range turn unit units
    """),
    K.MOVEMENT: _words("""
        assault_marker_cost attack_support attacker_hexes attackers bridge
        defenders defense_support defense_support_markers enemy enemy_hexes engineers extended_bonus
        first_cost from ground hex_terrain in_supply ma markers mobile_assault_min_cost mobility
        movement path paths second_hex_adjacent_to_enemy side states table terrain to turn unit
        unit_class unit_types units weather
    """),
    K.ODDS: _words("""
        phase
        attack attack_printed attack_support attack_support_markers attack_support_total
        attack_values attacker_hexes attackers defender_hex defenders defense defense_printed
        defense_support defense_support_markers defense_support_total defense_values enemy
        ground hex_terrain markers modifier_counts out_of_supply position range shifts side
        terrain turn unit unit_attack unit_defense units unsupplied weather
    """),
    K.PROBABILITY: _words("""
        attack attacker_hexes attackers base_column base_odds column count_of defenders dice drm
        event exempt hex_terrain limits outcome rolls row section side table table_modifiers
        terrain turn unit units
    """),
    K.RETREAT: _words("""
        attacker_hexes attackers cells column counter_face defender_hex defenders die enemy
        from hex_terrain hit_hexes outcome position range result section side table turn
        unit units
    """),
    K.SCALE: _words("""
        attack_support attacker_hexes attackers count_of cs_per_side days_per_turn defenders
        defense_support defense_support_markers exempt hex_size hex_terrain km_per_hex limits
        markers men_per_point miles_per_hex sides start turn turns unit units
    """),
    K.SHIFTS: _words("""
        phase
        attack attack_printed attack_support attack_support_markers attack_support_total
        attack_values attacker_hexes attackers base_column base_odds column data_fields
        defender_hex defenders defense defense_printed defense_support defense_support_markers
        defense_support_total defense_values enemy ground hex_terrain net_shift
        out_of_supply position range shifts side terrain turn unit unit_attack unit_defense units
        unsupplied weather
    """),
    K.STEPS: _words("""
        attack attacker_hexes attackers defenders hex_terrain losses turn unit units units_in_target
    """),
    K.STRENGTH: _words("""
        unsupplied out_of_supply
        phase
        assault_marker_cost attack attack_printed attack_support attack_support_markers
        attack_support_total attack_values attacker_hexes attackers bombardment_support bonus bridge
        cap_multiplier counter_battery_support defender_hex defenders defense defense_printed
        defense_support defense_support_markers defense_support_total defense_values engineers
        extended_bonus first_cost ground hex_terrain in_supply ma markers
        mobile_assault_min_cost mobility movement multipliers printed printed_defense role dice_sum dice_difference
        rounding second_hex_adjacent_to_enemy side states step table terrain turn unit unit_attack
        unit_class unit_defense unit_multipliers unit_type unit_types units values weather
    """),
    K.SUPPLY: _words("""
        attack_support attacker_hexes attackers cells counter_face defenders defense_support
        defense_support_markers die distance_over enemy from hex_terrain markers outcome
        supply_source table turn unit unit_types units
    """),
    K.VP: _words("""
        <side> <side>_removed attacker_hexes attackers benchmark cells counter_face defenders die
        exited_steps hex_terrain hexes item margin max_steps mechanized out_of_command
        outcome side steps_per_removal table turn unit units vp_difference vp_x10_box vp_x1_box
    """),
}
"""Example kind -> the ``given`` keys its handlers read (``<side>`` stands for a side's id)."""
_EVERY = "does"
"""Keys every kind reads besides the places: ``does``, the actions the example's units take, compared with the
statements of ``rules.permissions`` (forge/verifier/contradictions.py)."""
for _k in K:
    GIVEN[_k] |= _words(_PLACES) | _words(_EVERY)

UNMODELLED: dict[m.ExampleKind, frozenset[str]] = {
    K.CLAIM: _words(
        "attacking_force dice engineer figure_scale first_turn hexside initial line range shifts turns zone_hexes"
    ),
    K.COMBAT: _words("engineer"),
    K.MOVEMENT: _words("advanced assault_cost defender_hex first_result result road_hexes road_rate"),
    K.ODDS: _words("cas_markers"),
    K.SHIFTS: _words("kg_hex"),
    K.STRENGTH: _words("across_river target_terrain"),
    K.SUPPLY: _words("attacking_units engineers hexes"),
}
"""Example kind -> ``given`` keys that describe the situation but that no handler reads: an input the engine does
not model (an engineer's presence, the force's make-up ...).  A value the rules compute differently is then
reported as a warning naming them ("the example also involves ..."), never as an error; they are listed here, not
accepted silently."""

STATES: dict[m.ExampleKind, frozenset[str]] = {
    K.CLAIM: _words("""
        advance_by advance_hexes attacker_choices attacker_loses attacker_loses_at_least may_attack
        rule cited_rule printed
        replacements entry_turn entry_hex
        bombardment_value
        <side> activated advance_to advancing allotments applies_turns attack attack_steps attacker
        attacker_steps automatic_hit_at automatic_hit_per base_mp becomes benefit bonus_mp bridge
        cavalry count counter_inches counters defender_extra defender_steps defense defense_alone
        die_modifier difference_range end enemy_hex enter_extra_mp examples exit_cost_each exit_extra_mp
        extra_defender_losses extra_mf extra_mp from_turn free_crossing_cost ground halved handicap hex
        hit_on_at_most if_attacking if_not ignore infantry_second_hex_legal losses ma map_inches
        max_attackers_per_hexside max_attackers_per_square max_attacks_per_turn max_defenders
        max_markers max_per_side mechanized mf min_lines min_per_side move movement mp_inside_range
        multipliers must_retreat non_mechanized other_units pages phases player_turns remainder_rolled
        remaining remaining_mp return_turn river_cost_paid road road_rate_into_target round_after_all
        rounding second_assault squares start sum_range trail turn turns turns_later unit units weather
        where year zoc_hexes
    """),
    K.COMBAT: _words("""
        advance_by advance_hexes attacker_choices attacker_loses attacker_loses_at_least may_attack
        advance advance_to advancing attacker_retreat attacker_steps base_column column defender
        defender_choice defender_eliminated defender_retreat defender_steps enemy_hex hex hits primary
        result retreat_possible second_attack_allowed secondary text to turn
        eliminated exchange_at_least may_advance
    """),
    K.HEX: _words("""
        adjacent count distance fortification hex hexes inner_river_ignored instant_repair name
        river_hexsides rivers terrain
    """),
    K.MAGNITUDE: _words("""
        dice hex magnitude turn
    """),
    K.MOVEMENT: _words("""
        <terrain>_entered max_hexes_<who> crossing_cost_<who>
        <side>
        advance_to advancing base_mp bonus_mp bridge die_modifier enemy_hex
        enter_extra_mp exit_cost_each exit_extra_mp extra_mf extra_mp free_crossing_cost ground hex
        if_attacking if_not infantry_second_hex_legal ma max_difficult
        max_rivers mechanized mf move mp_inside_range non_mechanized
        other_units remaining_mp river_cost_paid rivers_crossed road road_rate_into_target
        second_assault squares trail turn unit units weather zoc_hexes
    """),
    K.ODDS: _words("""
        advance_to advancing attack column defense differential enemy_hex hex odds partial_attack
        printed_as quotient ratio raw shifts to turn
    """),
    K.PROBABILITY: _words("""
        count
        base_column column early_on expected_hits hex loses_on_die on_primary probability results steps
        success_on turn
    """),
    K.RETREAT: _words("""
        advance_to advancing allowed_when chosen enemy_hex extra_for_overstack hex hexes
        loss_reduction_max normal_hexes rally_stop_after result retreat_hexes return_turn to turn
        voluntary
    """),
    K.SCALE: _words("""
        count
        approximate cs_total dates days days_per_turn duration elite_bonus end ground_scale height_km hex
        km_per_hex last_turn men men_per_point miles_per_hex turn turns turns_max turns_min width_km
    """),
    K.SHIFTS: _words("""
        advance_to advancing all_out_allowed base_column column enemy_hex hex high_odds net_shift odds
        to turn
    """),
    K.STEPS: _words("""
        <side> attacker automatic_hit_at automatic_hit_per defender_extra extra_defender_losses hex
        hit_on_at_most multipliers remainder_rolled round_after_all rounding turn
    """),
    K.STRENGTH: _words("""
        <side> counter_inches counters defense_alone defense_before_support map_inches max_markers mechanized
        min_lines non_mechanized remaining turns
        attack attack_before_support base_mp bombardment_value bonus_mp bridge defense die_modifier
        enter_extra_mp exception exit_cost_each exit_extra_mp extra_mf extra_mp free_crossing_cost
        ground hex if_attacking if_not infantry_second_hex_legal ma max_bonus mf move
        mp_inside_range other_units product remaining_mp river_cost_paid road road_rate_into_target
        second_assault squares total trail turn unit units values weather zoc_hexes printed movement
    """),
    K.SUPPLY: _words("""
        <side>_entry <side>_sources advance_to advancing cited_rule distance enemy_hex exempt hex
        hq_range mobile_units_in_supply must_roll out_of_supply overland overland_to_hq return_turn to
        turn
    """),
    K.VP: _words("""
        <side> <side>_steps_owed <side>_vp <side>_wins_with counted_steps destroyed exit_mp
        fortified_locality handicap hex intact lost_if_retaken_and_destroyed max per_corps per_cs_loss
        per_enemy_supply_base per_hex per_source result return_turn town turn
    """),
}
"""Example kind -> the ``states`` keys its handlers recompute or give a reason for."""
for _k in K:
    STATES[_k] |= _words("arrives at city hex name place town")

NAMING = (
    "data_fields",
    "largest",
    "limits",
    "count_of",
    "groups_of",
    "exempt",
    "counter_face",
    "table_modifiers",
    "scenario_markers",
    "phase_steps",
    "vp_difference",
    "cells",
    "step_counts",
)
"""``given`` mappings whose keys name the ``states`` keys they compute (``limits: {max_per_hex: stack-limit}``)."""


def _templates(keys: frozenset[str], game: m.Game) -> set[str]:
    """``keys`` with ``<side>`` replaced by each side's id."""
    out = set()
    for k in keys:
        if "<side>" in k:
            out |= {k.replace("<side>", s.id) for s in game.game.sides}
        else:
            out.add(k)
    return out


def _date(value: Any) -> bool:
    """A stated date of the history (the forms :func:`forge.verifier.ex_claims._date` reads)."""
    if not isinstance(value, str) or sum(ch.isdigit() for ch in value) < 5:
        return False  # every form has a four-digit year and a day: no strptime (its import and locale tables)
    for fmt in ("%d %b %Y", "%d %B %Y", "%Y-%m-%d"):
        try:
            _dt.datetime.strptime(value.strip(), fmt)
        except ValueError:
            continue
        return True
    return False


def named_states(game: m.Game, ex: m.Example) -> Iterator[tuple[str, str]]:
    """(key, why it is read) for the ``states`` keys this example makes readable by naming them itself."""
    g, st = ex.given, ex.states
    for name in NAMING:
        v = g.get(name)
        if isinstance(v, dict):
            for k in v:
                yield str(k), f"named by given.{name}"
    if ex.kind is K.STEPS and isinstance(g.get("losses"), dict):
        for k in g["losses"]:
            yield str(k), "named by given.losses"
    units = {u.id for u in game.units}
    classes: set[str] = set()
    if game.rules.stacking is not None:
        classes = {c.id for c in game.rules.stacking.classes} | {game.rules.stacking.default_class}
    weathers = set(game.turns.weather.states) if game.turns.weather else set()
    for k, v in st.items():
        k = str(k)
        if "table" in g and ex.kind in (K.CLAIM, K.SUPPLY, K.VP, K.RETREAT):
            yield k, "a cell, row or roll of the given table"
        elif ex.kind is K.CLAIM and ("game" in g or "ids" in g):
            yield k, "an illustration from another game, or how a printed ID reads"
        elif ex.kind is K.MOVEMENT and (
            (
                k.endswith("_entered")
                and {k.removesuffix("_entered"), k.removesuffix("_entered")[:-1]} & set(game.terrain)
            )
            or re.fullmatch(r"(max_hexes|crossing_cost)_\w+", k)
        ):
            yield k, "a terrain entered, or a crossing rule of a unit type or class"
        elif k.startswith("column_axis"):
            yield k, "a reading of the CRT's axes"
        elif ex.kind is K.CLAIM and k in units:
            yield k, "a unit id: how its counter prints"
        elif ex.kind is K.CLAIM and k.endswith("_units") and k.removesuffix("_units") in classes:
            yield k, "a stacking class's count in the given stack"
        elif ex.kind is K.CLAIM and (re.fullmatch(r"turn_\d+", k) or k.removesuffix("_turns") in weathers | {"rolled"}):
            yield k, "the weather of a turn, or the turns of a weather"
        elif ex.kind is K.CLAIM and _date(v):
            yield k, "a date of the history"
        elif ex.kind in (K.CLAIM, K.MOVEMENT) and isinstance(v, str) and re.search(r"\bMA\b", v):
            yield k, "a cost in words (a share of the movement allowance)"


REASONS: dict[m.ExampleKind, frozenset[str]] = {
    k: _words("""
        fronts_met comparison eliminated_rebuild_steps combat_penalty row_without_engineer row_used troops_min
        troops_max without_c1
    """)
    for k in K
}
"""``states`` keys a handler gives a fixed reason for when nothing recomputed them (:data:`.verifier.ex_zoc_groups._WHY`
for every kind, :data:`.verifier.ex_movement._WHY` for movement and claim examples; a test keeps them equal)."""
for _k in (K.MOVEMENT, K.CLAIM):
    REASONS[_k] |= _words("to hexes exception legal disrupted_if_hexes_over total_mp diagram_mp_labels")


def accepted(game: m.Game, ex: m.Example, part: str) -> set[str]:
    """Every key this example may use in ``part`` (``given`` or ``states``)."""
    if part == "given":
        return _templates(GIVEN.get(ex.kind, frozenset()) | UNMODELLED.get(ex.kind, frozenset()), game)
    own = _templates(STATES.get(ex.kind, frozenset()) | REASONS[ex.kind], game)
    return own | {k for k, _ in named_states(game, ex)}


def refusal(game: m.Game, ex: m.Example, part: str, key: str) -> str | None:
    """Why ``key`` of ``part`` is refused (with the keys that would work), None when some handler reads it."""
    ok = accepted(game, ex, part)
    if key in ok:
        return None
    listed = GIVEN if part == "given" else STATES
    shown = sorted(
        listed.get(ex.kind, frozenset()) | (UNMODELLED.get(ex.kind, frozenset()) if part == "given" else frozenset())
    )
    more = "" if part == "given" else ", or a key the example names itself (given.limits, data_fields, ...)"
    return (
        f"{key!r} is not a {part} key any check of a {ex.kind.value} example reads{_suggest(key, ok)} "
        f"(known: {', '.join(shown)}{more}; see docs/FORMAT.md, Examples and claims)"
    )


def _suggest(key: str, choices: set[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest key; short keys (``mp``) differ by a letter in half their length,
    so they are matched more loosely than :func:`forge.errors.suggest` does."""
    close = difflib.get_close_matches(key, sorted(choices), n=1, cutoff=0.6 if len(key) > 3 else 0.5)
    return f" (did you mean {close[0]!r}?)" if close else ""


def markdown_table() -> str:
    """docs/FORMAT.md's table of the keys of each kind (between its ``keys-table`` markers)."""
    rows = ["| kind | given | states |", "| --- | --- | --- |"]
    places = _words(_PLACES) | _words(_EVERY)
    for k in K:
        given = sorted(GIVEN[k] - places)
        unm = sorted(UNMODELLED.get(k, frozenset()))
        states = sorted(STATES.get(k, frozenset()))
        g = ", ".join(f"`{x}`" for x in given) + ("; named only: " + ", ".join(f"`{x}`" for x in unm) if unm else "")
        rows.append(f"| `{k.value}` | {g} | {', '.join(f'`{x}`' for x in states)} |")
    return "\n".join(rows) + "\n"
