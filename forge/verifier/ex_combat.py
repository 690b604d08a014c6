"""Combat examples: odds and differentials, column shifts, CRT results, probabilities, strengths, magnitudes and
step losses, recomputed with :mod:`forge.rules.combat`."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from .. import model as m
from ..hexgrid import Cell
from ..notation import DiffColumn, OddsColumn, fraction
from ..rules import combat as cb
from ..rules.kit import conditions as cnd
from ..rules.kit.movement import mobility_of
from .core import Acc, Context, gap, handles, num, same, show
from .sites import column_sites, crt_site, hex_sites

K = m.ExampleKind


def _usable_modifiers(ctx: Context, role: str) -> list[m.Modifier]:
    """Modifiers the engine can evaluate: those with a terrain, unit-type or condition trigger.  A modifier
    whose condition exists only in words (``when``) is left out: applying it always would be wrong."""
    return [
        md
        for md in ctx.combat.modifiers
        if md.role == role and (md.terrain is not None or md.unit_types is not None or md.condition is not None)
    ]


def _fighters(
    ctx: Context, ids: Sequence[str], role: str, sit: cnd.Situation | None = None
) -> tuple[list[cb.Fighter], list[str]]:
    out, unknown = [], []
    group = (sit.attackers if role == "attacker" else sit.defenders) if sit is not None else None
    for k, uid in enumerate(ids):
        u = ctx.units.get(str(uid))
        if u is None:
            raise ValueError(f"unknown unit {uid!r}")
        st = u.strengths()[0]
        value = st.attack if role == "attacker" else st.defense
        if value is None:
            unknown.append(uid)
        facts = group[k] if group is not None and len(group) == len(ids) else _facts(ctx, u)
        out.append(cb.Fighter(value, u.type.value, label=uid, facts=facts))
    return out, unknown


def _facts(ctx: Context, u: m.Unit, supplied: bool | None = None, across: frozenset[str] | None = None) -> (
    cnd.UnitFacts
):
    return cnd.UnitFacts(
        side=u.side,
        unit_type=u.type.value,
        mobility=mobility_of(ctx.game, u.type.value),
        supplied=supplied,
        across=across,
    )


def side_strength(
    ctx: Context,
    acc: Acc,
    role: str,
    ids: Sequence[str],
    defender_hex: str | None,
    conditions: set[str],
    sit: cnd.Situation | None = None,
) -> tuple[Fraction | None, str]:
    """A side's strength from its units (full strength) and the modifiers the engine can evaluate; ``sit``: the
    example's facts that decide the modifiers' conditions (:mod:`forge.rules.kit.conditions`)."""
    fighters, unknown = _fighters(ctx, ids, role, sit)
    acc.use(*(f"unit:{uid}" for uid in ids))
    terrain = ctx.terrain_ids(defender_hex) if defender_hex else None
    acc.use(*hex_sites(ctx, defender_hex))
    conds = set(conditions) | {"defender-terrain"}
    if role == "defender" and terrain:
        # terrain's own defence effects become stack modifiers
        extra = []
        for tid in sorted(terrain):
            eff = ctx.game.terrain[tid].combat if tid in ctx.game.terrain else None
            if eff and (eff.defense_multiplier or eff.defense_bonus):
                extra.append(
                    m.Modifier(
                        id=f"terrain-{tid}",
                        role="defender",
                        when=eff.text or tid,
                        multiply=eff.defense_multiplier,
                        add=eff.defense_bonus or None,
                        per_unit=False,
                        terrain=[tid],
                    )
                )
    else:
        extra = []
    mods = _usable_modifiers(ctx, role) + extra
    total = cb.combat_strength(
        fighters,
        mods,
        role="attacker" if role == "attacker" else "defender",
        defender_terrain=terrain,
        conditions=conds,
        situation=sit or cnd.Situation(),
    )
    if unknown:
        return None, f"the strength of {', '.join(unknown)} is not given"
    if total.total is None:
        if terrain is None and any(md.terrain is not None for md in mods):
            return None, f"the terrain of {defender_hex} is not known"
        return None, _undecided(mods, role, sit or cnd.Situation(), fighters)
    acc.use(*(f"modifier:{mid}" for used in total.applied for mid in used), *(
        f"modifier:{mid}" for mid in total.stack_applied if not mid.startswith("terrain-")))
    return total.total, ""


def _undecided(
    mods: Sequence[m.Modifier], role: str, sit: cnd.Situation, fighters: Sequence[cb.Fighter] = ()
) -> str:
    """Why the modifiers' conditions cannot be decided (the first reason found)."""
    for md in mods:
        if md.role != role or md.condition is None:
            continue
        units = [f.facts for f in fighters] if md.per_unit and fighters else [None]
        for u in units:
            v = cnd.holds(md.condition, sit, unit=u, role=role)
            if v.value is None:
                return f"whether modifier {md.id} applies is not known: {v.why}"
    return "a modifier's condition cannot be decided"


def total_modifiers(
    ctx: Context, role: str, total: Fraction | None, sit: cnd.Situation
) -> tuple[Fraction | None, str, tuple[str, ...]]:
    """A side's total as the book gives it (its units' strengths added up), changed by the modifiers that
    apply to a whole side whatever its units: those with a condition and neither ``unit_types`` nor
    ``terrain`` (a mud halving of every attack).  Returns (total, why unknown, modifiers applied); a per-unit
    multiplier that rounds cannot be applied to a total (the units are not given)."""
    if total is None:
        return None, "", ()
    mods = [
        md
        for md in ctx.combat.modifiers
        if md.role == role
        and md.condition is not None
        and md.unit_types is None
        and md.terrain is None
        and md.condition != cnd.TERRAIN_GIVES
    ]
    if not mods:
        return total, "", ()
    live = []
    for md in mods:
        v = cnd.holds(md.condition, sit, role=role)
        if v.value is None:
            return None, f"whether modifier {md.id} applies is not known: {v.why}", ()
        if v.value:
            live.append(md)
    if not live:
        return total, "", ()
    if any(md.per_unit and md.multiply is not None and md.rounding != "none" for md in live):
        return None, "a modifier rounds each unit's strength, and only the side's total is given", ()
    res = cb.combat_strength(
        [cb.Fighter(total)],
        [md.model_copy(update={"condition": None}) for md in live],
        role="attacker" if role == "attacker" else "defender",
        defender_terrain=set(),
    )
    return res.total, "", tuple(md.id for md in live)


def _sum_parts(ctx: Context, given: Mapping[str, Any], acc: Acc, side: str) -> Fraction | None:
    """attack/defense from the example's numbers: the value itself, or its breakdown (see :meth:`_breakdown`)."""
    short = "attack" if side == "attack" else "defense"
    if acc.has(short) and num(given[short]) is not None:
        return num(given[short])
    return _breakdown(ctx, given, acc, side)


def _breakdown(ctx: Context, given: Mapping[str, Any], acc: Acc, side: str) -> Fraction | None:
    """A strength the book builds from parts: units' values (``attack_values``, ``unit_attack``,
    ``defense_printed``) plus support (``attack_support`` list, ``defense_support_total``), then for the
    defence the terrain bonuses of a given ``terrain`` (stack modifiers of the data)."""
    short = "attack" if side == "attack" else "defense"
    acc.given(f"{short}_support_markers")
    total: Fraction | None = None
    for key in (
        f"unit_{short}",
        f"{short}_values",
        f"{short}_printed",
        f"{short}_support",
        f"{short}_support_total",
    ):
        if acc.has(key):
            v = given[key]
            vals = v if isinstance(v, list) else [v]
            nums = [n for n in (num(x) for x in vals) if n is not None]
            if len(nums) != len(vals):
                return None
            total = (total or Fraction(0)) + sum(nums, Fraction(0))
    terrain = acc.given("terrain")
    if total is not None and short == "defense" and terrain is not None:
        mods = [md for md in _usable_modifiers(ctx, "defender") if not md.per_unit]
        res = cb.defense_strength(
            [cb.Fighter(total)], mods, defender_terrain={str(terrain)}, conditions={"defender-terrain"}
        )
        total = res.total
    return total


def situation(
    ctx: Context,
    acc: Acc,
    attackers: Sequence[str],
    defender_hex: str | None,
    turn: int | None,
    defenders: Sequence[str] | None = None,
) -> tuple[cnd.Situation, str]:
    """The facts of the example's combat that conditions read (:mod:`forge.rules.kit.conditions`): the weather
    (given ``weather`` or ``ground``, else the turn's), the phase, the sides, the defender's terrain, and each
    unit's supply (given ``unsupplied``) and, for attackers, the hexside features it attacks across (from
    ``attacker_hexes`` or the units' set-up hexes).  Returns the situation and why the attackers' positions are
    not known ('' when they are)."""
    dcell = ctx.cell(defender_hex) if defender_hex else None
    weather = acc.given("weather") or acc.given("ground")
    if weather is None and isinstance(turn, int) and 1 <= turn <= len(ctx.game.turns.turns):
        weather = ctx.game.turns.turns[turn - 1].weather
    positions: list[Cell] | None = None
    pos_reason = "the attackers or the defender's hex are not given"
    hexes = acc.given("attacker_hexes")
    if dcell is not None and attackers:
        if hexes:
            hx = hexes if isinstance(hexes, list) else [hexes]
            cells = [ctx.cell(h) for h in hx]
            if len(hx) == 1 and cells[0] is not None:
                positions = [cells[0]] * len(attackers)
            elif len(hx) == len(attackers) and all(cells):
                positions = [c for c in cells if c is not None]
            else:
                pos_reason = "attacker_hexes must be one hex for all attackers or one per attacker"
        else:
            cells = [ctx.cell(ctx.position(a) or "") for a in attackers]
            if all(c is not None and ctx.grid.adjacent(c, dcell) for c in cells):
                positions = [c for c in cells if c is not None]
                pos_reason = ""
            else:
                moved = [
                    a for a, c in zip(attackers, cells, strict=True) if c is None or not ctx.grid.adjacent(c, dcell)
                ]
                pos_reason = f"{', '.join(moved)} not next to {defender_hex} at setup/entry (they moved)"
    if positions is not None:
        pos_reason = ""
    unsupplied = acc.given("unsupplied")
    if unsupplied is None:
        unsupplied = acc.given("out_of_supply")
    out = None if unsupplied is None else {str(u) for u in unsupplied}

    def crossed(p: Cell) -> frozenset[str]:
        assert dcell is not None
        try:
            feats = set(ctx.hexsides.get(ctx.grid.side(p, dcell), ()))
        except ValueError:
            feats = set()
        return frozenset(feats | ({cnd.RIVER} if any(ctx.is_river(f) for f in feats) else set()))

    def facts(ids: Sequence[str], across: Sequence[frozenset[str] | None] | None) -> tuple[cnd.UnitFacts, ...]:
        res = []
        for k, uid in enumerate(ids):
            u = ctx.units.get(uid)
            sup = None if out is None else uid not in out
            acr = across[k] if across is not None else None
            res.append(
                _facts(ctx, u, sup, acr) if u is not None else cnd.UnitFacts(supplied=sup, across=acr)
            )
        return tuple(res)

    if defenders is None:
        defenders = [str(x) for x in acc.given("defenders") or []]
    side = _side_of(ctx, acc, attackers)
    others = [x for x in ctx.sides if x != side] if side is not None else []
    dside = ctx.units[defenders[0]].side if defenders and defenders[0] in ctx.units else None
    if dside is None and len(others) == 1:
        dside = others[0]
    terrain = ctx.terrain_ids(defender_hex) if defender_hex else None
    phase = acc.given("phase")
    sit = cnd.Situation(
        weather=None if weather is None else str(weather),
        phase=None if phase is None else str(phase),
        attacker_side=side,
        defender_side=dside,
        defender_terrain=None if terrain is None else frozenset(terrain),
        attackers=facts(attackers, None if positions is None else [crossed(p) for p in positions])
        if attackers
        else None,
        defenders=facts(defenders, None) if defenders else None,
    )
    return sit, pos_reason


_LEGACY_WHY = {
    "weather": "the ground condition on that turn is not known",
    "supply": "the units' supply state at that moment is not in the data",
}


def shift_state(
    ctx: Context, acc: Acc, attackers: Sequence[str], defender_hex: str | None, turn: int | None
) -> tuple[set[str], set[str], dict[str, str]]:
    """Evaluate each shift's condition with :func:`forge.rules.kit.conditions.holds`: (apply, do not apply,
    undecidable with reasons)."""
    yes: set[str] = set()
    no: set[str] = set()
    why: dict[str, str] = {}
    sit, pos_reason = situation(ctx, acc, attackers, defender_hex, turn)
    terrain = ctx.terrain_ids(defender_hex) if defender_hex else None
    # the terrain table decides which defender-terrain shifts the hex gives
    owned: set[str] = set()
    for sh in ctx.combat.shifts:
        if sh.condition != cnd.TERRAIN_GIVES or terrain is None:
            continue
        verdict = _terrain_shift(ctx, sh, terrain)
        acc.use(*hex_sites(ctx, defender_hex))
        acc.use(*(f"shift:{s.id}" for s in ctx.combat.shifts if s.condition == cnd.TERRAIN_GIVES))
        if verdict is None:
            why[sh.id] = "which terrain this shift belongs to is ambiguous"
        elif verdict:
            owned.add(sh.id)
    sit = replace(sit, terrain_shifts=None if terrain is None else frozenset(owned))
    decided = cb.applicable_shifts([sh for sh in ctx.combat.shifts if sh.id not in why], sit)
    yes.update(decided.apply)
    no.update(decided.skip)
    supply_given = any(k in acc.ex.given for k in ("unsupplied", "out_of_supply"))
    for sid, reason in decided.unknown.items():
        sh = ctx.shifts[sid]
        try:
            cond = cnd.resolve(sh.condition)
        except KeyError:
            why[sid] = f"condition {sh.condition!r} is not evaluated by the engine"
            continue
        if cond == cnd.TERRAIN_GIVES:
            why[sid] = "the defender's hex or its terrain is not known"
        elif isinstance(cond, m.Condition):
            why[sid] = _why(cond, sit, pos_reason, reason, supply_given)
        else:
            why[sid] = f"condition {cond!r} is not evaluated by the engine" if cond else "a condition in words"
    for sid in yes | no:
        sh = ctx.shifts[sid]
        if isinstance(sh.condition, m.Condition) and sh.condition.terrain:
            acc.use(*hex_sites(ctx, defender_hex))
    return yes, no, why


def _why(cond: m.Condition, sit: cnd.Situation, pos_reason: str, default: str, supply_given: bool) -> str:
    """Why a condition cannot be decided, in the words of the fact that is missing."""
    if cond.weather and sit.weather is None:
        return _LEGACY_WHY["weather"]
    group = sit.attackers if cond.role == "attacker" else sit.defenders
    if cond.across and (group is None or any(u.across is None for u in group)):
        return pos_reason or "the attackers' positions are not known"
    if cond.supply is not None:
        if not supply_given:
            return _LEGACY_WHY["supply"]
        if group is None:
            return "the units are not given"
    return default


def reachable_supply_situation(
    ctx: Context, shift_ids: Sequence[str], side: str | None, turn: Any
) -> tuple[bool | None, str]:
    """Can the supply situation the given shifts need arise in a game (:func:`forge.rules.combat.
    unsupplied_possible` for each side that must be unsupplied)?  (True, "") when no supply shift is involved."""
    needs: dict[str, str] = {}
    for sid in shift_ids:
        sh = ctx.shifts.get(sid)
        try:
            cond = cnd.resolve(sh.condition) if sh is not None else None
        except KeyError:
            cond = None
        role = cond.role if isinstance(cond, m.Condition) and cond.supply == "unsupplied" else None
        if role is None:
            continue
        if side is None:
            return None, "the attacking side is not given"
        if role == "attacker":
            needs[side] = sid
        else:
            others = [s for s in ctx.sides if s != side]
            if len(others) != 1:
                return None, "the defending side is not known"
            needs[others[0]] = sid
    if not needs:
        return True, ""
    if turn is None:
        return None, "the turn is not given"
    first = ctx.game.turns.turns[0].number
    verdicts = [
        cb.unsupplied_possible(ctx.game.sequence, who, side or "", int(turn), first_turn=first) for who in sorted(needs)
    ]
    for ok, why in verdicts:
        if ok is False:
            return False, why
    for ok, why in verdicts:
        if ok is None:
            return None, why
    return True, "; ".join(why for _, why in verdicts)


def _unreachable_mismatches(
    ctx: Context, acc: Acc, shift_ids: Sequence[str], side: str | None, turn: Any, widened: dict[str, Any]
) -> None:
    """A disagreement about supply shifts counts only if a game can reach the situation.

    Only the part of a disagreement that the book's other statement of a cap explains is exempt: ``widened`` holds
    each value as computed with ``combat.cap_readings`` applied too.  A stated value that equals it, in a situation
    no position can reach (or the engine cannot tell), is reported unchecked with the reason; any other
    disagreement stays an erratum, and without a recorded other reading nothing is exempt."""
    if not acc.mismatches or not ctx.combat.cap_readings:
        return
    ok, why = reachable_supply_situation(ctx, shift_ids, side, turn)
    if ok:
        return
    lead = "no reachable position shows the difference" if ok is False else "cannot tell whether a game reaches it"
    sources = " and ".join(sorted({r.source for r in ctx.combat.cap_readings}))
    for key, stated, computed, note in list(acc.mismatches):
        if key not in widened or not _value_matches(ctx, key, stated, widened[key]):
            continue
        acc.mismatches.remove((key, stated, computed, note))
        acc.how.pop(key, None)
        acc.skip(
            key,
            f"the rules as encoded give {show(computed)}, the book {show(stated)}, which is the cap as {sources} "
            f"states it, but {lead}: {why}",
            "unreachable" if ok is False else "engine",
        )


def _value_matches(ctx: Context, key: str, stated: Any, computed: Any) -> bool:
    if key == "column" and isinstance(computed, str):
        return _column_matches(ctx, stated, computed)
    return same(stated, computed)


def _other_reading(ctx: Context) -> list[m.ShiftCap]:
    """The shift caps with the book's other statements of them (``combat.cap_readings``) added."""
    return [*ctx.combat.shift_caps, *ctx.combat.cap_readings]


def _terrain_shift(ctx: Context, sh: m.Shift, terrain: set[str]) -> bool | None:
    """Does a defender-terrain shift apply to a hex of ``terrain``?"""
    terrain_shifts = [s for s in ctx.combat.shifts if s.condition == "defender-terrain"]
    owners = set()
    for tid in terrain:
        t = ctx.game.terrain.get(tid)
        if t is None or not t.combat.shift:
            continue
        if tid in ctx.shifts:
            owners.add(tid)
            continue
        same = [s.id for s in terrain_shifts if s.shift == t.combat.shift and s.id not in ctx.game.terrain]
        same = same or [s.id for s in terrain_shifts if s.shift == t.combat.shift]
        if len(same) != 1:
            return None
        owners.add(same[0])
    return sh.id in owners


def _shift_models(ctx: Context, ids: Sequence[str], acc: Acc | None = None) -> list[m.Shift]:
    out = []
    for sid in ids:
        if sid not in ctx.shifts:
            raise ValueError(f"unknown shift {sid!r}")
        out.append(ctx.shifts[sid])
        if acc is not None:
            acc.use(f"shift:{sid}")
    return out


def _side_of(ctx: Context, acc: Acc, ids: Sequence[str]) -> str | None:
    side = acc.given("side")
    if side is None and ids:
        u = ctx.units.get(str(ids[0]))
        side = u.side if u else None
    return side


def _compare_shift_sets(
    ctx: Context,
    acc: Acc,
    key: str,
    claimed: Sequence[str],
    yes: set[str],
    no: set[str],
    why: dict[str, str],
    *,
    report_undecided: bool = True,
) -> None:
    """The shifts the book applies against those the map decides.  ``report_undecided``: list the shifts the
    engine cannot decide as unchecked (for a stated "no other shifts apply")."""
    claimed_set = set(claimed)
    wrong_in = sorted(claimed_set & no)
    missing = sorted(yes - claimed_set)
    if wrong_in or missing:
        bits = ([f"{', '.join(wrong_in)} do(es) not apply by the map"] if wrong_in else []) + (
            [f"{', '.join(missing)} apply(ies) by the map"] if missing else []
        )
        acc.mismatches.append((key, sorted(claimed_set), sorted((claimed_set - no) | yes), "; ".join(bits)))
    else:
        decided = sorted(yes | no)
        acc.passed.append((key, sorted(claimed_set), f"consistent with the data on {', '.join(decided) or 'none'}"))
    undecided = sorted(s for s in why if s not in claimed_set)
    if undecided and report_undecided:
        acc.unchecked[f"{key}[{','.join(undecided)}]"] = (
            "; ".join(sorted({why[s] for s in undecided})) + f" ({', '.join(undecided)})"
        )
    acc.done.add(key)


def _odds_ladder(ctx: Context, crt: m.Crt) -> list[Fraction]:
    return [OddsColumn.parse(c).low for c in crt.columns]


def _column_matches(ctx: Context, stated: Any, label: str | None) -> bool:
    if label is None:
        return False
    if same(stated, label):
        return True
    crt = ctx.crt
    if crt is None:
        return False
    try:
        if ctx.combat.kind is m.CombatKind.DIFFERENTIAL:
            return cb.column_for_diff(crt, DiffColumn.parse(str(stated)).low).label == label
        col = OddsColumn.parse(str(stated))
        return not col.below and cb.column_for_odds(crt, col.low, 1).label == label
    except ValueError:
        return False


def _check_column(ctx: Context, acc: Acc, key: str, pick: cb.ColumnPick, note: str = "") -> None:
    if key not in acc.ex.states:
        return
    stated = acc.ex.states[key]
    acc.done.add(key)
    if pick.result is not None and pick.index is None:
        computed: Any = f"automatic {pick.result}"
        ok = same(stated, pick.result) or same(stated, computed)
    else:
        computed = pick.label
        ok = _column_matches(ctx, stated, pick.label)
    if ok:
        acc.passed.append((key, stated, computed))
    else:
        acc.mismatches.append((key, stated, computed, note or pick.note))


def base_column(ctx: Context, acc: Acc) -> tuple[cb.ColumnPick | None, str]:
    """The column before shifts: given column/base_column, or from attack and defence."""
    crt = ctx.crt
    if crt is None:
        return None, "the game has no CRT"
    for key in ("base_column", "column"):
        if acc.has(key):
            label = str(acc.ex.given[key])
            i = cb.column_index(crt, label)
            return cb.ColumnPick(i, label), ""
    if acc.has("base_odds"):
        return None, "base_odds is outside the CRT"
    a = _sum_parts(ctx, acc.ex.given, acc, "attack")
    d = _sum_parts(ctx, acc.ex.given, acc, "defense")
    if a is None or d is None:
        return None, "no column, attack or defence given"
    attackers = [str(x) for x in acc.given("attackers") or []]
    sit, _ = situation(ctx, acc, attackers, acc.given("defender_hex"), acc.given("turn"))
    a, why_a, used_a = total_modifiers(ctx, "attacker", a, sit)
    d, why_d, used_d = total_modifiers(ctx, "defender", d, sit)
    acc.use(*(f"modifier:{x}" for x in (*used_a, *used_d)))
    if a is None or d is None:
        return None, why_a or why_d
    if ctx.combat.kind is m.CombatKind.DIFFERENTIAL:
        return cb.column_for_diff(crt, math.floor(a - d)), ""
    return cb.column_for_odds(crt, a, d), ""


@handles(K.ODDS)
def ex_odds(ctx: Context, acc: Acc) -> None:
    g = acc.ex.given
    st = acc.ex.states
    crt = ctx.crt
    attackers = [str(x) for x in acc.given("attackers") or []]
    defenders = [str(x) for x in acc.given("defenders") or []]
    dhex = acc.given("defender_hex")
    turn = acc.given("turn")
    conds: set[str] = set()
    sit, _ = situation(ctx, acc, attackers, dhex, turn)
    # strengths from the units
    att_units, att_why = (
        side_strength(ctx, acc, "attacker", attackers, dhex, conds, sit)
        if attackers
        else (None, "no attacking units given")
    )
    def_units, def_why = (
        side_strength(ctx, acc, "defender", defenders, dhex, conds, sit)
        if defenders
        else (None, "no defending units given")
    )
    att_given = _sum_parts(ctx, g, acc, "attack")
    def_given = _sum_parts(ctx, g, acc, "defense")
    att_parts = _breakdown(ctx, g, acc, "attack")
    def_parts = _breakdown(ctx, g, acc, "defense")
    if att_parts is not None:
        att_units = att_parts  # the book's own breakdown (units plus support) is the fuller account
    if def_parts is not None:
        def_units = def_parts
    if "attack" in st:
        if att_units is not None:
            acc.check("attack", att_units, "from the units' printed strengths, modifiers and support")
        else:
            why = att_why if attackers else "only the total is given (no units or parts)"
            acc.skip("attack", why, gap(why))
    if "defense" in st:
        if def_units is not None:
            acc.check("defense", def_units, "from the units' printed strengths, terrain and support")
        else:
            why = def_why if defenders else "only the total is given (no units or parts)"
            acc.skip("defense", why, gap(why))
    partial = st.get("partial_attack")
    if isinstance(partial, dict):
        acc.done.add("partial_attack")
        for group, stated in partial.items():
            ids = str(group).split("+")
            val, why = side_strength(ctx, acc, "attacker", ids, dhex, conds, _sub(sit, attackers, ids))
            acc.check_value(f"partial_attack.{group}", stated, val, why)
    # the numbers the column is computed from: the units', else the book's own, else the given ones (which are
    # the units' strengths added up: the modifiers that change a whole side -- a weather halving -- still apply)
    mod_why = ""
    attack = att_units if att_units is not None else num(st.get("attack"))
    if attack is None and att_given is not None:
        attack, mod_why, used = total_modifiers(ctx, "attacker", att_given, sit)
        acc.use(*(f"modifier:{x}" for x in used))
    defense = def_units if def_units is not None else num(st.get("defense"))
    if defense is None and def_given is not None:
        defense, why_d, used = total_modifiers(ctx, "defender", def_given, sit)
        mod_why = mod_why or why_d
        acc.use(*(f"modifier:{x}" for x in used))
    if attack is None or defense is None:
        for key in ("ratio", "quotient", "odds", "column", "differential"):
            if key in st:
                acc.skip(key, mod_why or "attack or defence unknown", gap(mod_why) if mod_why else "engine")
    elif crt is not None:
        if "ratio" in st:
            acc.check("ratio", cb.odds_ratio(attack, defense), _ratio_note(attack, defense))
        if "quotient" in st:
            acc.check("quotient", cb.odds_ratio(attack, defense), _ratio_note(attack, defense))
        if ctx.combat.kind is m.CombatKind.DIFFERENTIAL:
            acc.check("differential", attack - defense, f"attack {show(attack)} - defense {show(defense)}")
            pick = cb.column_for_diff(crt, math.floor(attack - defense))
        else:
            pick = cb.column_for_odds(crt, attack, defense)
        _check_column(ctx, acc, "odds", pick, _column_note(ctx, attack, defense, pick))
        # shifts: the book's (given or stated) or the ones the map decides
        yes, no, shift_why = shift_state(ctx, acc, attackers, dhex, turn)
        claimed = acc.given("shifts")
        if claimed is None:
            claimed = st.get("shifts")
        if claimed is not None and (attackers or dhex):
            _compare_shift_sets(ctx, acc, "shifts", [str(s) for s in claimed], yes, no, shift_why)
        elif "shifts" in st:
            acc.skip("shifts", "no attackers or defender hex to evaluate the shifts with")
        use = [str(s) for s in claimed] if claimed is not None else sorted(yes)
        if "column" in st and pick.index is not None and not pick.automatic:
            res = cb.apply_shifts(
                crt.columns,
                pick.index,
                _shift_models(ctx, use, acc),
                ctx.combat.shift_caps,
                turn=turn,
                side=_side_of(ctx, acc, attackers),
                below=crt.below,
                above=crt.above,
            )
            side = _side_of(ctx, acc, attackers)
            note = _shift_note(ctx, str(pick.label), _shift_models(ctx, use), res, turn, side) if use else ""
            _check_column(ctx, acc, "column", res, note)
        elif "column" in st:
            _check_column(ctx, acc, "column", pick)
    for key in ("attack", "defense"):
        if key in st and key not in acc.done:
            acc.skip(key, "not computable")


def _sub(sit: cnd.Situation, attackers: Sequence[str], ids: Sequence[str]) -> cnd.Situation:
    """The situation of a part of the attacking force (each unit keeps its own facts)."""
    if sit.attackers is None or len(sit.attackers) != len(attackers):
        return cnd.Situation(**{**sit.__dict__, "attackers": None})
    by_id = dict(zip(attackers, sit.attackers, strict=True))
    if not all(i in by_id for i in ids):
        return cnd.Situation(**{**sit.__dict__, "attackers": None})
    return cnd.Situation(**{**sit.__dict__, "attackers": tuple(by_id[i] for i in ids)})


@handles(K.SHIFTS)
def ex_shifts(ctx: Context, acc: Acc) -> None:
    crt = ctx.crt
    st = acc.ex.states
    if crt is None:
        return
    attackers = [str(x) for x in acc.given("attackers") or []]
    acc.given("defenders")
    dhex = acc.given("defender_hex")
    turn = acc.given("turn")
    ids = [str(s) for s in acc.given("shifts") or []]
    if acc.has("base_odds"):
        _shift_odds_ladder(ctx, acc)
        return
    shifts: list[m.Shift | int] = list(_shift_models(ctx, ids, acc))
    if acc.has("net_shift"):
        shifts.append(int(acc.ex.given["net_shift"]))
    side = _side_of(ctx, acc, attackers)
    if attackers or dhex:
        yes, no, why_ = shift_state(ctx, acc, attackers, dhex, turn)
        if ids:
            _compare_shift_sets(ctx, acc, "given.shifts", ids, yes, no, why_, report_undecided=False)
    pick, why = base_column(ctx, acc)
    if pick is None or pick.index is None:
        # the net shift needs no column: shift on a table wide enough never to clamp
        wide = [str(i) for i in range(2 * 64 + 1)]
        net = cb.apply_shifts(wide, 64, shifts, ctx.combat.shift_caps, turn=turn, side=side)
        acc.check("net_shift", net.net, _shift_note(ctx, None, shifts, net, turn, side))
        for key in ("column", "odds"):
            if key in st:
                acc.skip(key, why or "the combat is off the table before shifts", gap(why))
        if "all_out_allowed" in st:
            _all_out(ctx, acc, attackers)
        return
    _check_column(ctx, acc, "odds", pick)
    res = cb.apply_shifts(
        crt.columns,
        pick.index,
        shifts,
        ctx.combat.shift_caps,
        turn=turn,
        side=side,
        below=crt.below,
        above=crt.above,
    )
    acc.check("net_shift", res.net, _shift_note(ctx, None, shifts, res, turn, side))
    _check_column(
        ctx,
        acc,
        "column",
        res,
        _shift_note(ctx, str(pick.label), shifts, res, turn, side),
    )
    if "all_out_allowed" in st:
        _all_out(ctx, acc, attackers)
    other = cb.apply_shifts(
        crt.columns,
        pick.index,
        shifts,
        _other_reading(ctx),
        turn=turn,
        side=side,
        below=crt.below,
        above=crt.above,
    )
    _unreachable_mismatches(ctx, acc, ids, side, turn, {"net_shift": other.net, "column": other.label})


def _shift_odds_ladder(ctx: Context, acc: Acc) -> None:
    """Shifting odds beyond the printed columns (Ukraine '43 8.8: 7-1 with three shifts is 10-1)."""
    crt = ctx.crt
    assert crt is not None
    base = OddsColumn.parse(str(acc.ex.given["base_odds"])).low
    n = int(acc.given("net_shift") or 0) + sum(
        s.shift for s in _shift_models(ctx, [str(x) for x in acc.given("shifts") or []], acc)
    )
    ladder = [c for c in _odds_ladder(ctx, crt) if c > 0]
    top = max([*ladder, base])
    while len([x for x in ladder if x >= base]) <= abs(n) + 1 or max(ladder) < top + abs(n):
        ladder.append(Fraction(math.floor(max(ladder)) + 1))
    ladder = sorted(set(ladder))
    i = max(k for k, low in enumerate(ladder) if low <= base)
    j = min(max(i + n, 0), len(ladder) - 1)
    value = ladder[j]
    computed = f"{value}-1" if value >= 1 else f"1-{int(1 / value)}"
    if "odds" in acc.ex.states:
        stated = acc.ex.states["odds"]
        acc.done.add("odds")
        try:
            ok = OddsColumn.parse(str(stated)).low == value
        except ValueError:
            ok = False
        if ok:
            acc.passed.append(("odds", stated, computed))
        else:
            note = f"{acc.ex.given['base_odds']} moved {n:+d} steps; odds steps beyond the table are whole numbers"
            acc.mismatches.append(("odds", stated, computed, note))


def _all_out(ctx: Context, acc: Acc, attackers: Sequence[str]) -> None:
    if ctx.crt is None or ctx.crt.cell_format is not m.CellFormat.HITS_NORMAL_ALLOUT or not attackers:
        acc.skip("all_out_allowed", "no all-out attacks in this CRT or no attackers given")
        return
    can = any(len(ctx.units[a].steps) >= 2 for a in attackers if a in ctx.units)
    acc.use(*(f"unit:{a}" for a in attackers if a in ctx.units))
    acc.check(
        "all_out_allowed",
        can,
        "an all-out attack flips a full-strength two-step attacker (attackers taken at full strength)",
    )


def _cell_at(
    ctx: Context,
    section: str | None,
    column: str,
    die: int,
    grid_rows: list[str] | None = None,
    secondary: bool = False,
) -> tuple[str | None, str | None]:
    """(cell, row label) for a die on a column; cell None when unknown."""
    crt = ctx.crt
    assert crt is not None
    if secondary:
        assert crt.secondary is not None
        rows = crt.secondary.rows
        grid = None if isinstance(crt.secondary.cells, m.Unknown) else crt.secondary.cells
    else:
        rows = crt.rows
        grid = cb.grid_of(crt, section)
    i = cb.row_for_die(rows, die)
    if i is None:
        raise ValueError(f"no row of the {'secondary table' if secondary else 'CRT'} holds a roll of {die}")
    j = cb.column_index(crt, column)
    if grid is None or "?" in grid[i][j]:
        return None, rows[i]
    return grid[i][j], rows[i]


def _imply(ctx: Context, acc: Acc, section: str | None, column: str, row: str, part: str, value: Any) -> None:
    ctx.implied[(section or "", column, row, part)].append((show(value), acc.ex.id, acc.ex.rule))


@handles(K.COMBAT)
def ex_combat(ctx: Context, acc: Acc) -> None:
    crt = ctx.crt
    st = acc.ex.states
    if crt is None:
        return
    section = acc.given("section")
    attack = str(acc.given("attack") or "normal")
    if attack not in ("normal", "all-out"):
        attack = "normal"
    pick, why = base_column(ctx, acc)
    if acc.has("shifts") and pick is not None and pick.index is not None and not acc.has("column"):
        pick = cb.apply_shifts(
            crt.columns,
            pick.index,
            _shift_models(ctx, acc.ex.given["shifts"], acc),
            ctx.combat.shift_caps,
            turn=acc.given("turn"),
            below=crt.below,
            above=crt.above,
        )
    dice = acc.given("dice")
    die = acc.given("die")
    acc.given("magnitude")
    if dice is None and die is not None:
        dice = [die]
    if isinstance(dice, int):
        dice = [dice]
    if pick is None or pick.index is None or pick.label is None:
        for key in st:
            acc.skip(key, why or "the combat is off the table", gap(why))
        return
    column = pick.label
    if not dice:
        # no roll: a stated result must at least be possible on the column
        if "result" in st and (grid := cb.grid_of(crt, section)) is not None:
            j = cb.column_index(crt, column)
            cells = [row[j] for row in grid]
            acc.use(*column_sites(crt, column, section))
            if "?" not in "".join(cells):
                acc.check(
                    "result",
                    st["result"] if any(same(st["result"], c) for c in cells) else f"one of {sorted(set(cells))}",
                    "no die roll given: the result must be on the column",
                )
        for key in st:
            if key not in acc.done:
                acc.skip(key, "no die roll given")
        return
    primary, *secondary = (int(x) for x in dice)
    if ctx.combat.die_modifiers:  # combat.die_modifiers: the roll read on the CRT is the modified one
        weather = acc.given("weather")
        turn = acc.given("turn")
        if weather is None and isinstance(turn, int) and 1 <= turn <= len(ctx.game.turns.turns):
            weather = ctx.game.turns.turns[turn - 1].weather
        drm, drm_ids = cb.die_modifier(
            ctx.combat.die_modifiers, weather=weather, bombardment=bool(acc.given("bombardment"))
        )
        if drm is None:
            for key in st:
                acc.skip(key, "the weather is not known, and it changes the die roll (combat.die_modifiers)")
            return
        acc.use(*(f"die_modifier:{d}" for d in drm_ids))
        primary += drm
    cell, row = _cell_at(ctx, section, column, primary)
    assert row is not None
    acc.use(crt_site(column, row, section))
    acc.where = {"column": column, "row": row} | ({"section": section} if section else {})
    hits_fmt = crt.cell_format is m.CellFormat.HITS_NORMAL_ALLOUT
    # the primary result
    if hits_fmt:
        if "hits" in st:
            if cell is None or cb.hits_of(cell, attack) is None:  # type: ignore[arg-type]
                _imply(ctx, acc, section, column, row, attack, st["hits"])
                acc.skip("hits", f"the cell {column}/{row} is not printed (recorded as implied)")
            else:
                note = f"the CRT reads {cell} (normal/all-out) at {column}, die {row}; {attack} attack"
                acc.check("hits", cb.hits_of(cell, attack), note)  # type: ignore[arg-type]
    else:
        for key in ("result", "primary"):
            if key in st:
                if cell is None:
                    _imply(ctx, acc, section, column, row, "primary" if secondary else "", st[key])
                    acc.skip(key, f"the cell {column}/{row} is not printed (recorded as implied)")
                else:
                    acc.check(key, cell, f"the CRT reads {cell} at {column}, die {row}")
    # secondary dice (magnitude)
    sec_cells: list[str | None] = []
    if secondary:
        stated_sec = st.get("secondary")
        for k, d in enumerate(secondary):
            c, r = _cell_at(ctx, section, column, d, secondary=True)
            if r is not None:
                acc.use(crt_site(column, r, secondary=True))
            sec_cells.append(c)
            s_val = stated_sec[k] if isinstance(stated_sec, list) and k < len(stated_sec) else None
            if c is None and s_val is not None and r is not None:
                _imply(ctx, acc, section, column, r, "secondary", s_val)
        if isinstance(stated_sec, list):
            acc.done.add("secondary")
            if all(c is not None for c in sec_cells):
                acc.check_value(
                    "secondary", stated_sec, sec_cells, f"secondary dice {show(secondary)} read on column {column}"
                )
            else:
                acc.skip("secondary", "secondary cells not printed (recorded as implied)")
    # totals
    loss: cb.Losses | None = None
    if hits_fmt:
        h = cb.hits_of(cell, attack) if cell is not None else None  # type: ignore[arg-type]
        loss = cb.Losses(0, h) if h is not None else None
    else:
        code = (
            cell
            if cell is not None
            else (str(st.get("primary") or st.get("result")) if ("primary" in st or "result" in st) else None)
        )
        loss = cb.code_losses(code, ctx.combat.results) if code is not None else None
        if loss is not None and secondary:
            stated_sec = st.get("secondary")
            for k, c in enumerate(sec_cells):
                cc = (
                    c
                    if c is not None
                    else (stated_sec[k] if isinstance(stated_sec, list) and k < len(stated_sec) else None)
                )
                sl = cb.parse_losses(str(cc)) if cc is not None else None
                loss = None if (sl is None or loss is None) else loss.plus(sl)
    leader = cb.find_leader(ctx.combat.leaders, ctx.units, acc.ex.given.get("leader"))
    if leader is not None:
        acc.given("leader")  # modelled only when the data has the leader's effect
    if loss is not None and leader is not None and leader.attacker_steps:
        loss = loss.plus(cb.Losses(leader.attacker_steps, 0))  # the leader's own step (combat.leaders)
        acc.use(f"unit:{leader.unit}")
    for key, idx in (
        ("attacker_steps", 0),
        ("defender_steps", 1),
        ("defender_retreat", 2),
        ("attacker_retreat", 3),
    ):
        if key in st:
            if hits_fmt and key in ("defender_retreat", "attacker_retreat"):
                acc.skip(key, "a retreat is the defender's choice in this system")
                continue
            if key == "attacker_steps" and loss is not None and loss.exchange == "strength":
                acc.skip(
                    key,
                    "an exchange in strength points: the attacker's steps depend on the units it gives up "
                    "(compared as attacker_loses with given.defender_lost)",
                    "book",
                )
                continue
            acc.check(
                key,
                None if loss is None else loss[idx],
                (
                    f"{cell if cell is not None else 'the stated result'} at {column}, die {row}, read by the result "
                    "legend" + (f", plus {show(sec_cells)} from the secondary dice" if secondary else "")
                )
                if loss is not None
                else f"the result at {column}, die {row} is neither printed nor stated, or not in the result legend",
            )


def _reroll_faces(ctx: Context, acc: Acc) -> tuple[list[int] | None, str]:
    """Faces the attacker must roll again (``combat.rerolls``), from the example's attackers and defenders."""
    if not ctx.combat.rerolls:
        return [], ""
    att = [ctx.units[str(a)] for a in acc.given("attackers") or [] if str(a) in ctx.units]
    dfn = [ctx.units[str(d)] for d in acc.given("defenders") or [] if str(d) in ctx.units]
    side = acc.given("side") or (att[0].side if att else None)
    share = None
    groups = {rr.group for rr in ctx.combat.rerolls if rr.group}
    if att and len(groups) == 1:
        group = groups.pop()
        counts = {k: v for rr in ctx.combat.rerolls for k, v in rr.step_counts.items()}
        steps = [(counts.get(u.id, len(u.steps)), u.group == group) for u in att]
        total = sum(n for n, _ in steps)
        share = Fraction(sum(n for n, g in steps if g), total) if total else None
    return cb.reroll_faces(
        ctx.combat.rerolls,
        attacker_side=None if side is None else str(side),
        defender_sides={u.side for u in dfn} if dfn else None,
        group_share=share,
    )


@handles(K.PROBABILITY)
def ex_probability(ctx: Context, acc: Acc) -> None:
    crt = ctx.crt
    st = acc.ex.states
    event = acc.given("event")
    if crt is None or not isinstance(event, dict):
        for key in st:
            acc.skip(key, "no CRT event to compute (probabilities of other tables are not modelled)")
        return
    section = acc.given("section")
    attack = str(acc.given("attack") or "normal")
    pick, why = base_column(ctx, acc)
    if pick is None or pick.index is None:
        acc.skip("probability", why or "off the table")
        return
    acc.where = {"column": str(pick.label)}
    n_dice = int(acc.given("dice") or 1) if not isinstance(acc.given("dice"), list) else 1
    acc.use(*column_sites(crt, str(pick.label), section))
    if n_dice > 1:
        acc.use(*column_sites(crt, str(pick.label), secondary=True))
    reroll, reroll_why = _reroll_faces(ctx, acc)
    if reroll is None:
        acc.skip("probability", f"whether the attacker re-rolls is not known: {reroll_why}")
        return
    try:
        if n_dice > 1:
            dist: dict[Any, Fraction] = cb.magnitude_distribution(
                crt, pick.index, ctx.combat.results, dice=n_dice, section=section, reroll=reroll
            )
        elif crt.cell_format is m.CellFormat.HITS_NORMAL_ALLOUT:
            dist = cb.distribution(crt, pick.index, attack=attack, section=section, reroll=reroll)  # type: ignore[arg-type]
        else:
            dist = cb.distribution(crt, pick.index, section=section, reroll=reroll)
    except cb.UnknownValueError as e:
        acc.skip("probability", str(e))
        return
    p = _event_probability(dist, event, ctx.combat.results)
    if p is None:
        acc.skip("probability", f"event {event} is not one the engine knows")
    else:
        acc.check("probability", p, f"{pick.label}, {attack}: {show(dist)}")
    if "expected_hits" in st:
        acc.check("expected_hits", cb.expected_losses(dist).defender, f"the mean over {pick.label}: {show(dist)}")


@handles(K.STRENGTH)
def ex_strength(ctx: Context, acc: Acc) -> None:
    g = acc.ex.given
    st = acc.ex.states
    rounding = acc.given("rounding")
    values = acc.given("values")
    mults = acc.given("multipliers")
    unit_mults = acc.given("unit_multipliers")
    units = [str(u) for u in acc.given("units") or []]
    acc.given("terrain")
    acc.given("unit_type")
    bonus = acc.given("bonus")
    if values is not None:
        vals = [Fraction(num(v) or 0) for v in values]
        if unit_mults is None and mults is not None and len(vals) > 1 and len(mults) == len(vals):
            unit_mults = [[x] for x in mults]  # one multiplier per unit (see the report)
        per_unit = unit_mults if unit_mults is not None else [mults or []] * len(vals)
        exact = [
            v * math.prod((fraction(x) for x in mm), start=Fraction(1)) for v, mm in zip(vals, per_unit, strict=True)
        ]
        how = str(rounding or "none")
        rounded = [
            Fraction(math.ceil(x)) if how == "up" else Fraction(math.floor(x)) if how == "down" else x for x in exact
        ]
        total = sum(rounded, Fraction(0)) + (Fraction(num(bonus) or 0) if bonus is not None else 0)
        if len(exact) == 1:
            acc.check("product", exact[0], " × ".join(show(x) for x in [vals[0], *(fraction(y) for y in per_unit[0])]))
        acc.check("values", rounded, f"{show(exact)} rounded {how}")
        acc.check(
            "total",
            total,
            " + ".join([*(show(x) for x in rounded), *([str(bonus)] if bonus else [])])
            + f" = {show(total)}: each unit multiplied, then rounded {how}",
        )
    elif units:
        dhex = acc.given("defender_hex")
        role = str(acc.given("role") or "attacker")
        attacking = role == "attacker"
        sit, _ = situation(ctx, acc, units if attacking else [], dhex, acc.given("turn"), None if attacking else units)
        val, why = side_strength(ctx, acc, role, units, dhex, set(), sit)
        acc.check("total", val, why)
    for side in ("attack", "defense"):
        if side in st or f"{side}_before_support" in st:
            before = None
            for key in (f"{side}_values", f"unit_{side}"):
                if acc.has(key):
                    v = g[key]
                    before = sum((Fraction(num(x) or 0) for x in (v if isinstance(v, list) else [v])), Fraction(0))
            acc.check(f"{side}_before_support", before)
            acc.check(side, _sum_parts(ctx, g, acc, side))
    if "max_bonus" in st and acc.has("printed_defense") and acc.has("cap_multiplier"):
        acc.check("max_bonus", Fraction(num(g["printed_defense"]) or 0) * Fraction(num(g["cap_multiplier"]) or 0))


@handles(K.STEPS)
def ex_steps(ctx: Context, acc: Acc) -> None:
    losses = acc.given("losses")
    if not isinstance(losses, dict):
        return
    by_side: dict[str, int] = defaultdict(int)
    for key, n in losses.items():
        if key in ctx.sides:
            by_side[key] += int(n)
            continue
        u = ctx.units.get(str(key))
        if u is None:
            raise ValueError(f"unknown unit {key!r}")
        acc.use(f"unit:{key}")
        if int(n) > len(u.steps) * u.copies:
            acc.mismatches.append((f"losses.{key}", n, len(u.steps), f"{key} has only {len(u.steps)} step(s)"))
        by_side[u.side] += int(n)
    for side in ctx.sides:
        acc.check(
            side,
            by_side.get(side, 0),
            "summed from the units' losses: " + ", ".join(f"{k} {n}" for k, n in losses.items()),
        )


@handles(K.MAGNITUDE)
def ex_magnitude(ctx: Context, acc: Acc) -> None:
    a, d = acc.given("attacker_steps"), acc.given("defender_steps")
    fewest = acc.given("fewest_steps")
    values: list[int] = []
    if a is not None and d is not None:
        values = [min(int(a), int(d))]
    elif fewest is not None:
        s = str(fewest)
        lo, hi = cb.row_range(s)
        lo = 1 if lo is None else lo
        values = list(range(lo, (hi if hi is not None else lo + 3) + 1))
    if not values:
        return
    mags = {cb.magnitude(v, v) for v in values}
    note = "magnitude thresholds 1-3: 1, 4-5: 2, 6+: 3 (the engine default; the model has no field for them)"
    mag = mags.pop() if len(mags) == 1 else None
    acc.check("magnitude", mag, note)
    acc.check("dice", mag, note)


def _event_probability(
    dist: Mapping[Any, Fraction], event: Mapping[str, Any], results: Mapping[str, m.ResultCode]
) -> Fraction | None:
    """P(event) for {hits: k}, {hits_at_most: k}, {hits_at_least: k}, {result: code} (cells containing the code),
    {defender_steps_at_least: k}, {attacker_steps_at_least: k}, {retreat: true}."""
    (key, value), *rest = event.items()
    if rest:
        return None

    def losses(k: Any) -> cb.Losses | None:
        lo: cb.Losses | None
        if isinstance(k, cb.Losses):
            lo = k
        elif isinstance(k, int):
            return cb.Losses(0, k)
        else:
            lo = cb.code_losses(str(k), results)
        if lo is not None and lo.exchange == "strength" and key.startswith("attacker"):
            return None  # the attacker's steps in a strength exchange depend on the units it gives up
        return lo

    if key == "result":
        return cb.probability(dist, lambda k: str(value) in str(k).split("+") or str(k) == str(value))
    tests = {
        "hits": lambda lo: lo.defender == int(value),
        "hits_at_most": lambda lo: lo.defender <= int(value),
        "hits_at_least": lambda lo: lo.defender >= int(value),
        "defender_steps": lambda lo: lo.defender == int(value),
        "defender_steps_at_least": lambda lo: lo.defender >= int(value),
        "attacker_steps": lambda lo: lo.attacker == int(value),
        "attacker_steps_at_least": lambda lo: lo.attacker >= int(value),
        "retreat": lambda lo: (lo.retreat > 0) == bool(value),
    }
    test = tests.get(key)
    if test is None:
        return None
    total = Fraction(0)
    for k, p in dist.items():
        lo = losses(k)
        if lo is None:
            return None
        if test(lo):
            total += p
    return total


# =================================================================================================== derivation notes
# How a value was got, in words; examples.report puts the note of a value that disagrees into the finding's
# ``derivation``.  Notes only: nothing here decides a value.
def _ratio_note(attack: Fraction, defense: Fraction) -> str:
    return f"attack {show(attack)} ÷ defense {show(defense)} = {float(attack / defense):.2f}" if defense else ""


def _column_note(ctx: Context, attack: Fraction, defense: Fraction, pick: cb.ColumnPick) -> str:
    if ctx.combat.kind is m.CombatKind.DIFFERENTIAL:
        how = f"attack {show(attack)} - defense {show(defense)} = {show(attack - defense)}"
    else:
        how = _ratio_note(attack, defense)
    where = pick.label if pick.label is not None else f"automatic {pick.result}"
    return f"{how}, on the CRT {where}" + (f" ({pick.note})" if pick.note else "")


def _shift_note(
    ctx: Context,
    start: str | None,
    shifts: Sequence[m.Shift | int],
    res: cb.ShiftResult,
    turn: Any,
    side: str | None,
) -> str:
    """``1:1 moved by kg-attack +1 and concentric-german +2 (+3 columns; no shift cap cuts it) is 4:1``; without
    ``start`` just the sum."""
    parts = [f"{s.id} {s.shift:+d}" if isinstance(s, m.Shift) else f"a given net {s:+d}" for s in shifts]
    named = " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts) or "no shift"
    total = f"{res.raw:+d} column{'' if abs(res.raw) == 1 else 's'}"
    if res.capped:
        total += f", cut to {res.net:+d} by {'; '.join(res.capped)}"
    elif ctx.combat.shift_caps:
        total += "; no shift cap cuts it" + (f" on turn {turn}" if turn is not None else "")
        total += f" for the {side} side" if side else ""
    if start is None:
        return f"{named}: {total}"
    lands = res.label if res.label is not None else f"automatic {res.result}"
    return f"{start} moved by {named} ({total}) is {lands}" + (f" ({res.note})" if res.note else "")
