"""Stacking, limits and counts: claims about how many units share a hex, how many markers or attacks the rules
allow, how many counters of a kind the game has, and how printed notations read; and every example's stacks and
listed counts checked against the encoded limits (``example-illegal`` when the book's own example breaks them).

The ``given`` keys read here (docs/FORMAT.md, "Stacking and limits"): ``units`` with ``legal`` /
``<class>_units`` states; ``largest`` (states key -> ``{class, side, with}``); ``limits`` (states key -> limit id);
``count_of`` (states key -> unit or marker ids); ``printed`` (a strength); ``unit`` (+ ``step``) with states
``printed`` / ``attack`` / ``defense`` / ``movement`` (what that unit's counter face prints); ``special_rule``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from .. import model as m
from ..notation import STRENGTH_FORMS, Strength
from ..rules.kit import limits as lk
from ..rules.kit import stacking as sk
from .core import HANDLERS, Acc, Context, handles

K = m.ExampleKind


# ============================================================ stacking claims
def _stack_of(ctx: Context, ids: Sequence[Any]) -> list[tuple[m.Unit, int | None]]:
    out = []
    for uid in ids:
        u = ctx.units.get(str(uid))
        if u is None:
            raise KeyError(f"unit {uid!r} is not in the data")
        out.append((u, sk.full_steps(u)))
    return out


def ex_stacking(ctx: Context, acc: Acc) -> None:
    rules = ctx.game.rules.stacking
    st = acc.ex.states
    classes = {c.id for c in rules.classes} | {rules.default_class} if rules else set()
    class_keys = [k for k in st if k.endswith("_units") and k.removesuffix("_units") in classes]
    if ("legal" in st or class_keys) and acc.has("units") and isinstance(acc.ex.given["units"], list):
        if rules is None:
            for k in ["legal", *class_keys]:
                if k in st:
                    acc.skip(k, "the data encodes no stacking rules (rules.stacking)")
        else:
            stack = _stack_of(ctx, acc.given("units"))
            acc.use("path:rules.stacking", *(f"unit:{u.id}" for u, _ in stack))
            v = sk.verdict(rules, stack)
            acc.check("legal", v.legal, f"rules.stacking: {v.reason}")
            for k in class_keys:
                cls = k.removesuffix("_units")
                acc.check(k, v.counts.get(cls, 0) if v.counts or v.legal is not None else None, "stacking classes")
    if acc.has("largest"):
        if rules is None:
            for k in acc.given("largest"):
                acc.skip(str(k), "the data encodes no stacking rules (rules.stacking)")
            return
        side_default = acc.given("side")
        acc.use("path:rules.stacking")
        for key, q in dict(acc.given("largest")).items():
            side = q.get("side", side_default)
            withs = q.get("with", {})
            results = {
                sk.largest(rules, str(side), str(q["class"]), given={str(a): int(b) for a, b in w.items()})
                for w in (withs if isinstance(withs, list) else [withs])
            }
            got = results.pop() if len(results) == 1 else sorted(r for r in results if r is not None) or None
            acc.check(str(key), got, f"largest legal {q['class']} for {side} in rules.stacking")


# ============================================================ limits and counts
def ex_limit_claims(ctx: Context, acc: Acc) -> None:
    if acc.has("limits"):
        for key, ref in dict(acc.given("limits")).items():
            lim_id, _, bound = str(ref).partition(":")
            lim = lk.find(ctx.game, lim_id)
            if lim is None:
                raise KeyError(f"no limit {lim_id!r} in rules.limits")
            acc.use(f"path:rules.limits.{lim_id}")
            acc.check(str(key), lk.value(lim, bound or "max"), f"rules.limits {lim_id}", how="data")
    if acc.has("exempt"):
        _exempt_claims(ctx, acc)
    if acc.has("count_of") or ("count" in acc.ex.states and acc.has("units") and not acc.has("count_of")):
        spec = dict(acc.given("count_of") or {"count": acc.given("units")})
        for key, ids in spec.items():
            acc.check(str(key), _count(ctx, acc, ids), "counters of these units and markers in the data", how="data")


def _exempt_claims(ctx: Context, acc: Acc) -> None:
    """``given.exempt: {states key: {limit, counters}}``: the bound the limit puts on those counters -- ``unlimited``
    when the limit exempts every one of them (``rules.limits[].exempt``), else the limit's maximum."""
    markers = {mk.id for mk in ctx.game.markers}
    for key, spec in dict(acc.given("exempt")).items():
        lim_id = str(spec["limit"])
        lim = lk.find(ctx.game, lim_id)
        if lim is None:
            raise KeyError(f"no limit {lim_id!r} in rules.limits")
        ids = [str(c) for c in spec["counters"]]
        unknown = [c for c in ids if c not in markers]
        if unknown:
            raise KeyError(f"no marker {unknown[0]!r} in markers")
        acc.use(f"path:rules.limits.{lim_id}")
        free = [c for c in ids if c in lim.exempt]
        got: Any = "unlimited" if len(free) == len(ids) else lk.value(lim, "max")
        acc.check(
            str(key),
            got,
            f"rules.limits {lim_id}: exempt {', '.join(lim.exempt) or 'none'}"
            + ("" if len(free) == len(ids) else f"; bound by the limit: {', '.join(c for c in ids if c not in free)}"),
            how="data",
        )


def select_counters(game: m.Game, spec: dict[str, Any]) -> list[str]:
    """The units (``side``, ``type``, ``size``: each unit matching every one given) and markers (``markers: all``,
    or a ``side``'s) a ``count_of`` mapping selects."""
    fields = {k: str(v) for k, v in spec.items() if k in ("side", "type", "size")}
    unknown = set(spec) - {"side", "type", "size", "markers"}
    if unknown or not spec:
        raise KeyError(f"count_of selects by side, type, size or markers: all, not {sorted(unknown) or 'nothing'}")
    out = []
    if set(fields) - {"side"} or "markers" not in spec:
        out = [u.id for u in game.units if all(str(getattr(u, k)) == v for k, v in fields.items())]
    if spec.get("markers") == "all":
        out += [mk.id for mk in game.markers if "side" not in fields or mk.side == fields["side"]]
    return out


def _count(ctx: Context, acc: Acc, ids: Sequence[Any] | dict[str, Any]) -> int | None:
    if isinstance(ids, dict):
        ids = select_counters(ctx.game, ids)
    markers = {mk.id: mk for mk in ctx.game.markers}
    n = 0
    for i in ids:
        i = str(i)
        if i in ctx.units:
            n += ctx.units[i].copies
            acc.use(f"unit:{i}")
        elif i in markers:
            c = markers[i].count
            if not isinstance(c, int):
                return None
            n += c
        else:
            raise KeyError(f"{i!r} is neither a unit nor a marker")
    return n


# ============================================================ notation and components
_FACE_WORDS = {"full": 0, "reduced": 1}


def _face_step(u: m.Unit, step: Any) -> int:
    """The step index an example's ``step`` names: a 0-based index, or ``full`` / ``reduced``."""
    i = _FACE_WORDS.get(str(step), step) if isinstance(step, str) else step
    if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(u.steps):
        raise KeyError(
            f"step {step!r} is not a step of {u.id} (expected 0 to {len(u.steps) - 1}, 'full' or 'reduced')"
        )
    return i


def _unit_face(ctx: Context, acc: Acc) -> None:
    """``given: {unit, step}`` with states ``printed`` (the face as the counter prints it: ``10-4``; a colour
    mark ``red:10-4`` is compared too) and ``attack`` / ``defense`` / ``movement`` (the values it carries): the
    unit's data read in the game's notation."""
    st = acc.ex.states
    uid = str(acc.given("unit"))
    u = ctx.units.get(uid)
    if u is None:
        raise KeyError(f"unit {uid!r} is not in the data")
    step = _face_step(u, acc.given("step", 0))
    acc.use(f"unit:{uid}")
    form = ctx.game.game.strength_format.value
    s = u.strengths()[step]
    where = f"units.{uid}.steps[{step}] in the {form} notation"
    if "printed" in st:
        stated = str(st["printed"]).strip()
        acc.check_value("printed", stated, str(s) if ":" in stated else s.plain(), where, how="data")
    for key in ("attack", "defense", "movement"):
        if key not in st:
            continue
        if key == "movement" and "movement" not in STRENGTH_FORMS[form]:
            acc.skip(key, f"the {form} notation prints no movement allowance on the counter", "context")
        else:
            acc.check(key, getattr(s, key), where if getattr(s, key) is not None else f"{where}: not given", how="data")


def ex_notation(ctx: Context, acc: Acc) -> None:
    st = acc.ex.states
    if acc.has("unit") and {"printed", "attack", "defense", "movement"} & set(st):
        _unit_face(ctx, acc)
    elif acc.has("printed") and {"attack", "defense", "movement"} & set(st):
        fmt = ctx.game.game.strength_format.value
        text = str(acc.given("printed"))
        try:
            s, form_ok = Strength.parse(text, fmt), True
        except ValueError:  # a single-strength game's book may still teach the genre's other notations
            s = Strength.parse(text)
            form_ok = fmt == "single"
        for key, v in (("attack", s.attack), ("defense", s.defense), ("movement", s.movement)):
            acc.check(key, v if form_ok else None, f"notation in game.strength_format {s.form}")
    if "ma" in st and acc.has("units") and isinstance(acc.ex.given["units"], list):
        # a stack moves at the rate of its slowest unit: the smallest printed movement of the units named
        ids = [str(u) for u in acc.given("units")]
        mas = [ctx.units[u].strengths()[0].movement if u in ctx.units else None for u in ids]
        missing = [u for u, v in zip(ids, mas, strict=True) if v is None]
        if missing:
            acc.skip(
                "ma", f"the printed movement of {', '.join(missing)} is not given (and of any unit not named)", "book"
            )
        else:
            acc.check("ma", min(v for v in mas if v is not None), "slowest printed movement of the units")
    if "map_inches" in st:
        sheet = ctx.game.map.sheet
        got = None
        if sheet:
            dims = sorted(Fraction(x) for x in sheet.removesuffix("in").split("x")) if sheet.endswith("in") else None
            want = sorted(Fraction(x) for x in str(st["map_inches"]).split("x"))
            got = st["map_inches"] if dims == want else sheet
        acc.check("map_inches", got, "map.sheet (either way up)", how="data")
    if "counters" in st and not acc.has("count_of"):
        acc.skip("counters", *_counter_reason(ctx))
    if "counter_inches" in st:
        acc.skip(
            "counter_inches", "the counter size is a build option (--counter-size), not game data", "context"
        )
    for uid in [k for k in st if k in ctx.units]:
        _erratum(ctx, acc, uid)


def _counter_reason(ctx: Context) -> tuple[str, str]:
    n = sum(u.copies * len(u.counter_faces()) for u in ctx.game.units) + sum(
        mk.count for mk in ctx.game.markers if isinstance(mk.count, int)
    )
    unknown = sum(1 for mk in ctx.game.markers if not isinstance(mk.count, int))
    more = f"; {unknown} marker counts are unknown" if unknown else ""
    return (
        f"the data holds {n} counters, but the rulebook does not list the whole counter mix (units only where "
        f"the rules name them{more})",
        "book",
    )


def _erratum(ctx: Context, acc: Acc, uid: str) -> None:
    """A claim keyed by a unit id states what its counter should print, then (optionally) what the physical counter
    misprints: the first word is compared with the unit's label or its full-strength notation; the misprint is
    not in the data (it holds the corrected counter), so that part is reported unchecked."""
    u = ctx.units[uid]
    acc.given("units")
    text = str(acc.ex.states[uid])
    first = text.split(",")[0].split(" ")[0]
    acc.use(f"unit:{uid}")
    face = u.strengths()[0].plain()  # as the counter prints it: marks, no colour names
    want = first if first in (u.label, u.steps[0], face) else f"{u.label} / {face}"
    acc.check_value(f"{uid}.id", first, want, "the unit's label and printed strength in the data", how="data")
    if text.strip() != first:
        acc.skip(
            f"{uid}.note",
            "what the physical counter misprints is not in the data (it holds the corrected one)",
            "context",
        )


# ============================================================ the book's arithmetic
def ex_claim_arithmetic(ctx: Context, acc: Acc) -> None:
    st = acc.ex.states
    g = acc.ex.given
    if "min_lines" in st and acc.has("hexes_per_turn") and acc.has("per_railhead"):
        acc.check("min_lines", math.ceil(int(g["hexes_per_turn"]) / int(g["per_railhead"])), how="arithmetic")
    if "turns" in st and acc.has("die") and acc.has("rounding") and isinstance(st["turns"], list):
        lo, hi = (int(x) for x in str(g["die"]).split("-"))
        rnd = math.ceil if g["rounding"] == "up" else math.floor
        acc.check("turns", sorted({rnd(Fraction(d, 2)) for d in range(lo, hi + 1)}), "half the die", how="arithmetic")
    if acc.has("dice_sum") and "sum_range" in st:
        n = int(g["dice_sum"])
        acc.check("sum_range", f"{n}-{6 * n}", f"{n}d6", how="arithmetic")
    if acc.has("dice_difference") and "difference_range" in st:
        n = int(g["dice_difference"])
        # the difference of two nd6 totals, ties rerolled: 1 .. 5n
        acc.check(
            "difference_range", f"1-{6 * n - n}", f"difference of two {n}d6 totals, ties rerolled", how="arithmetic"
        )
    if "remaining" in st and acc.has("cas_markers") and acc.has("used"):
        acc.check("remaining", int(g["cas_markers"]) - int(g["used"]), "markers less those used", how="arithmetic")
    if "bombardment_value" in st and acc.has("bombardment_support") and acc.has("counter_battery_support"):
        v = sum(int(x) for x in g["bombardment_support"]) - sum(int(x) for x in g["counter_battery_support"])
        acc.check("bombardment_value", max(v, 0), "bombardment minus counter-battery markers", how="arithmetic")
    if "max_markers" in st and acc.has("active_units") and acc.has("pool_sizes") and acc.has("limits_per"):
        lim = lk.find(ctx.game, str(g["limits_per"]))
        per = lk.value(lim) if lim else None
        if per is None:
            acc.skip("max_markers", "no per-unit limit in rules.limits")
        else:
            acc.use(f"path:rules.limits.{lim.id}")  # type: ignore[union-attr]
            pools, active = dict(g["pool_sizes"]), dict(g["active_units"])
            got = {k: min(int(pools[k]), per * int(n)) for k, n in active.items()}
            acc.check("max_markers", got, "min(pool, active units x the per-unit limit)", how="engine")


# ============================================================ sequence, rules, turns
def ex_sequence(ctx: Context, acc: Acc) -> None:
    st = acc.ex.states
    seq = ctx.game.sequence
    if "phases" in st and seq:
        if all(p.side is None for p in seq):
            acc.check("phases", len(seq), "phases of the sequence of play (each player turn)", how="data")
        else:
            acc.skip("phases", "the sequence lists phases by side, not one player turn")
    if "player_turns" in st and seq and all(p.side is None for p in seq):
        acc.check("player_turns", len(ctx.sides), "each side plays the whole sequence", how="data")
    if "attack_steps" in st:
        # the steps the book lists for one attack, against the numbered rules it then gives each step (the combat
        # phase's rule number, one level down: 4.1 ... 4.4, with 4.4.1 and 4.4.2 inside 4.4)
        combat = [p for p in seq if m.PhaseActivity.COMBAT in p.activities and p.rule]
        heads = {str(p.rule) for p in combat}
        steps = sorted(
            {
                ".".join(r.rule.split(".")[:2])
                for r in ctx.game.special_rules
                for h in heads
                if r.rule.startswith(h + ".")
            }
        )
        if len(heads) != 1 or not steps:
            acc.skip("attack_steps", "the sequence of play names no combat phase whose rule has numbered sub-rules")
        else:
            acc.use("path:special_rules")
            acc.check(
                "attack_steps",
                len(steps),
                f"the numbered rules under the combat phase's rule {heads.pop()}: {', '.join(steps)}",
                how="data",
            )
    if "max_attacks_per_turn" in st and acc.has("side"):
        side = str(acc.given("side"))
        mine = [p for p in seq if p.side in (side, None)]
        if mine and all(p.activities for p in mine):
            n = sum(1 for p in mine if m.PhaseActivity.COMBAT in p.activities)
            acc.check("max_attacks_per_turn", n, f"combat phases of {side} in the sequence, one attack each")
        else:
            acc.skip("max_attacks_per_turn", "the sequence of play does not mark which phases have combat")
    if "applies_turns" in st:
        title = acc.given("special_rule")
        rules = [r for r in ctx.game.special_rules if (r.title == title if title else r.rule == acc.ex.rule)]
        turns = {tuple(r.turns) for r in rules}
        acc.check(
            "applies_turns",
            list(turns.pop()) if len(turns) == 1 else None,
            "special_rules turns",
            how="data",
        )


# ============================================================ legality of examples
def example_legality(ctx: Context, acc: Acc) -> None:
    """The book's example must keep its own stacking and count limits: a stack it places in one hex, or a list of
    markers (attackers ...) longer than a limit allows, is reported as ``example-illegal``."""
    g = acc.ex.given
    rules = ctx.game.rules.stacking
    if rules is not None:
        for ids, where in _placed(g):
            units = [ctx.units[str(u)] for u in ids if str(u) in ctx.units]
            if len(units) < 2:
                continue
            # the steps each unit has left are not known: only a stack illegal at one step a unit is reported
            v = sk.verdict(rules, [(u, None) for u in units])
            if v.legal is False:
                ctx.add(
                    "example-illegal",
                    acc.ex.rule,
                    f"{acc.ex.id}: the example stacks {', '.join(u.id for u in units)} in {where}, which the "
                    f"stacking rules forbid ({v.reason})",
                    ref=acc.ex.id,
                    hex=where,
                    source_line=acc.ex.source_line,
                )
    lim_rules = ctx.game.rules.limits
    for lim in lim_rules.counts if lim_rules else []:
        if lim.turns and g.get("turn") not in lim.turns:
            continue  # the limit binds other turns (or the example does not say which turn it is)
        for key in lim.counts:
            if key not in g:
                continue
            acc.known_given.add(key)
            val = g[key]
            n = lk.listed(ctx.game, lim, val) if isinstance(val, list) else (int(val) if lim.side is None else None)
            if n is not None and lk.over(lim, n):
                ctx.add(
                    "example-illegal",
                    lim.rule or acc.ex.rule,
                    f"{acc.ex.id}: the example has {n} for {key}, over the limit '{lk.card_line(lim)}'",
                    ref=acc.ex.id,
                    stated=n,
                    limit=lim.id,
                    source_line=acc.ex.source_line,
                )


def _placed(g: Mapping[str, Any]) -> list[tuple[list[Any], str]]:
    """(unit ids, hex) for every group of units an example puts in one hex."""
    out: list[tuple[list[Any], str]] = []
    if isinstance(g.get("defenders"), list) and isinstance(g.get("defender_hex"), str):
        out.append((g["defenders"], g["defender_hex"]))
    att, hexes = g.get("attackers"), g.get("attacker_hexes")
    if isinstance(att, list) and isinstance(hexes, list):
        if len(hexes) == 1:
            out.append((att, str(hexes[0])))
        elif len(hexes) == len(att):
            by: dict[str, list[Any]] = {}
            for u, h in zip(att, hexes, strict=True):
                by.setdefault(str(h), []).append(u)
            out += [(us, h) for h, us in by.items()]
    if isinstance(g.get("units"), list) and isinstance(g.get("hex"), str):
        out.append((g["units"], g["hex"]))
    return out


# ============================================================ registration
handles(K.CLAIM)(ex_stacking)
handles(K.CLAIM, K.SCALE)(ex_limit_claims)
handles(K.CLAIM, K.STRENGTH)(ex_notation)
handles(K.CLAIM, K.STRENGTH)(ex_claim_arithmetic)
handles(K.CLAIM)(ex_sequence)
for _kind in K:
    if example_legality not in HANDLERS[_kind]:
        HANDLERS[_kind].append(example_legality)

__all__ = [
    "ex_claim_arithmetic",
    "ex_limit_claims",
    "ex_notation",
    "ex_sequence",
    "ex_stacking",
    "example_legality",
]
