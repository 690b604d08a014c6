"""Combat results and combat facts: what a result does to the defender (the results legend), the facts a claim
states about the combat rules (compared with the fields the engine uses), table probabilities, and sums the book
builds its odds from.

Handlers here add to those of :mod:`.ex_combat` (several handlers serve one example kind; each checks the keys it
knows).  Inputs they read from ``given``:

* ``data_fields: {states key: path}`` -- a claim about the combat rules compared with the rule field at ``path``
  (``combat.crt.above.result``, ``combat.shifts[concentric-german].shift``, ``combat.modifiers[def-city].add``,
  ``combat.crt.columns[0]``); only ``combat.`` paths, the fields the engine resolves combats with;
* ``defender_steps_left`` -- steps the defending unit has before the combat (the example's text says it is
  depleted, or at full strength); a one-step unit needs none;
* ``result``, ``defender_steps_available``, ``all_attackers`` (a side) -- a result read through the legend and the
  conversions (:func:`forge.rules.combat.convert_result`);
* ``table``, ``row`` (or ``event``, a row label), ``drm``, ``outcome`` (the cell the event is), ``rolls`` -- a
  die-roll table read for the die values that give the event;
* ``modifier_counts: {modifier id: n}`` -- support added to a given ``attack`` (n times the modifier's ``add``).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from .. import model as m
from ..notation import OddsColumn, Strength, fraction
from ..rules import combat as cb
from ..rules import dicepool as dpl
from .core import Acc, Context, handles, num, show

K = m.ExampleKind

__all__ = ["resolve_path"]

_STEP_LOSS = {"step-loss", "stiff-resistance", "step"}
"""Names a book gives the defender's choice of losing a step instead of retreating."""


# =================================================================================================== data paths
_TOKEN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)((?:\[[^\]]+\])*)")


def resolve_path(game: m.Game, path: str) -> Any:
    """The value of a combat rule field: ``combat.crt.columns[-1]``, ``combat.shifts[rough].shift``.

    ``[n]`` indexes a list, ``[id]`` picks the list item with that ``id`` (or the mapping's key).  Only paths under
    ``combat`` are read: they are what the engine resolves combats with.  KeyError when the path leads nowhere.
    """
    if not path.startswith("combat."):
        raise KeyError(f"{path!r}: only combat.* fields are compared here")
    node: Any = game
    for part in path.split("."):
        mt = _TOKEN.fullmatch(part)
        if mt is None:
            raise KeyError(f"{path!r}: cannot read {part!r}")
        name, subs = mt.groups()
        if isinstance(node, dict):
            node = node[name]
        elif hasattr(node, name):
            node = getattr(node, name)
        else:
            raise KeyError(f"{path!r}: no field {name!r}")
        for sub in re.findall(r"\[([^\]]+)\]", subs or ""):
            if isinstance(node, dict):
                node = node[sub]
            elif isinstance(node, list) and re.fullmatch(r"-?\d+", sub):
                node = node[int(sub)]
            elif isinstance(node, list):
                hits = [x for x in node if getattr(x, "id", None) == sub]
                if len(hits) != 1:
                    raise KeyError(f"{path!r}: no single item {sub!r}")
                node = hits[0]
            else:
                raise KeyError(f"{path!r}: {name} is not a list or a mapping")
        if node is None:
            raise KeyError(f"{path!r}: {name} is not set")
    return node.value if hasattr(node, "value") and not isinstance(node, m.Base) else node


@handles(K.CLAIM, K.SHIFTS)
def ex_rule_fields(ctx: Context, acc: Acc) -> None:
    """A claim about the combat rules compared with the field the engine uses (``given.data_fields``)."""
    fields = acc.given("data_fields")
    if not isinstance(fields, dict):
        return
    for key, path in fields.items():
        if key not in acc.ex.states:
            raise KeyError(f"data_fields names {key!r}, which the example does not state")
        acc.use(f"path:{path}")
        value = resolve_path(ctx.game, str(path))
        acc.check(key, value, f"{path} = {show(value)}", how="data")
    for key, value in acc.ex.states.items():
        if key not in fields and isinstance(value, list) and value and all(str(v) in ctx.shifts for v in value):
            acc.skip(key, "names the data's own shift ids; their values are what is compared")


# ============================================================================================== result legend
def _attacker_sides(ctx: Context, acc: Acc) -> set[str] | None:
    side = acc.given("all_attackers")
    if side is not None:
        return {str(side)}
    ids = [str(x) for x in acc.given("attackers") or []]
    if ids and all(i in ctx.units for i in ids):
        return {ctx.units[i].side for i in ids}
    return None


@handles(K.CLAIM)
def ex_result_reading(ctx: Context, acc: Acc) -> None:
    """A result read through the legend: ``becomes`` (a conversion for the attacking force), ``losses``
    (attacker/defender steps), ``attacker_steps`` and ``defender_steps`` (with ``defender_steps_available``)."""
    st = acc.ex.states
    code = acc.given("result")
    if code is None or not any(k in st for k in ("becomes", "losses", "attacker_steps", "defender_steps")):
        return
    code = str(code)
    if code not in ctx.combat.results:
        return
    sides = _attacker_sides(ctx, acc)
    read, rules = cb.convert_result(code, ctx.combat.conversions, sides)
    acc.use(f"result:{code}", f"result:{read}")
    if "becomes" in st:
        if sides is None:
            acc.skip("becomes", "the attacking force's side is not given")
        else:
            acc.check(
                "becomes",
                read,
                f"{code} for an all-{'/'.join(sorted(sides))} attack ({', '.join(rules) or 'no conversion'})",
            )
    has = acc.given("defender_steps_available")
    loss = cb.code_losses(read, ctx.combat.results, defender_has=None if has is None else int(has))
    if loss is None:
        for k in ("losses", "attacker_steps", "defender_steps"):
            if k in st:
                acc.skip(k, f"the legend does not give the step counts of {read}")
        return
    note = f"{read} in the results legend" + (f", the defender having {has} step(s)" if has is not None else "")
    if "losses" in st:
        acc.check("losses", f"{loss.attacker}/{loss.defender}", note)
    acc.check("attacker_steps", loss.attacker, note)
    acc.check("defender_steps", loss.defender, note)


def _result_of(ctx: Context, acc: Acc) -> tuple[str | None, str]:
    """The combat's result code: the CRT cell when the example gives its column and die and the cell is printed
    (how ``engine``), else the result the book states (how ``data``: the legend read on the book's result)."""
    crt = ctx.crt
    column, die, dice = acc.given("column"), acc.given("die"), acc.given("dice")
    if die is None and isinstance(dice, list) and dice:
        die = dice[0]
    elif die is None and isinstance(dice, int):
        die = dice
    if crt is not None and column is not None and die is not None:
        try:
            grid = cb.grid_of(crt, acc.given("section"))
            i = cb.row_for_die(crt.rows, int(die))
            j = cb.column_index(crt, str(column))
            if grid is not None and i is not None and "?" not in grid[i][j]:
                return grid[i][j], "engine"
        except ValueError:
            pass
    st = acc.ex.states
    for key in ("primary", "result"):
        if key in st:
            return str(st[key]), "data"
    return None, ""


@handles(K.COMBAT)
def ex_defender_outcome(ctx: Context, acc: Acc) -> None:
    """What the result does to the defender (``defender``, ``defender_eliminated``), the choice it leaves
    (``defender_choice``, ``retreat_possible``) and the steps a chosen step loss costs (``defender_steps``)."""
    st = acc.ex.states
    keys = [k for k in ("defender", "defender_eliminated", "defender_choice", "defender_steps") if k in st]
    if "retreat_possible" in st:
        acc.skip(
            "retreat_possible",
            "depends on where every unit around the defender stands, which the example does not give",
            "book",
        )
    if "text" in st:
        acc.skip("text", "the book's wording of the result (the result itself is compared)", "context")
    if not keys:
        return
    code, how = _result_of(ctx, acc)
    if code is None or ctx.crt is None or ctx.crt.cell_format is not m.CellFormat.CODE:
        return
    if isinstance(acc.given("dice"), list) and len(acc.given("dice")) > 1:
        for k in keys:
            acc.skip(
                    k,
                    "the defender's steps before the attack are not given (nor are secondary dice read for it)",
                    "book",
                )
        return
    code, _ = cb.convert_result(code, ctx.combat.conversions, _attacker_sides(ctx, acc))
    acc.use(*(f"result:{c.strip()}" for c in code.split("+")))
    options = cb.retreat_choices(code, ctx.combat.results)
    stated_choice = st.get("defender_choice")
    choice = None
    if stated_choice is not None:
        choice = "step-loss" if str(stated_choice) in _STEP_LOSS else str(stated_choice)
        ok = choice in options
        acc.check(
            "defender_choice",
            stated_choice if ok else f"one of {options}" if options else "no choice",
            f"{code} leaves the defender {' or '.join(options) or 'no choice'}",
            how=how,
        )
    can_retreat = st.get("retreat_possible")
    if can_retreat is not None:
        how = "arithmetic"  # the book's own premise (it cannot retreat) carried through the legend
    left = acc.given("defender_steps_left")
    defenders = [str(x) for x in acc.given("defenders") or []]
    if left is None and len(defenders) == 1 and defenders[0] in ctx.units:
        u = ctx.units[defenders[0]]
        if len(u.steps) == 1 and u.copies == 1:
            left = 1
    outcome, why = cb.defender_outcome(
        code,
        ctx.combat.results,
        None if left is None else int(left),
        choice=choice,
        can_retreat=None if can_retreat is None else bool(can_retreat),
    )
    if "defender" in st:
        if outcome is None:
            acc.skip("defender", why)
        else:
            acc.check("defender", outcome, why, how=how)
    if "defender_eliminated" in st:
        if outcome is None:
            acc.skip("defender_eliminated", why)
        else:
            acc.check("defender_eliminated", outcome == "eliminated", why, how=how)
    already = any(k == "defender_steps" for k, *_ in acc.passed) or any(
        k == "defender_steps" for k, *_ in acc.mismatches
    )
    if "defender_steps" in st and not already and choice == "step-loss":
        loss = cb.code_losses(code, ctx.combat.results)
        if loss is not None:
            acc.check(
                "defender_steps",
                loss.defender + 1,
                f"{code}: {loss.defender} step(s) + 1 instead of the retreat",
                how=how,
            )


@handles(K.COMBAT, K.CLAIM)
def ex_result_terms(ctx: Context, acc: Acc) -> None:
    """What a result makes the attacker do, from the legend: an exchange recomputed
    (:func:`forge.rules.combat.exchange_losses`: ``attacker_loses_at_least`` from ``given.defender_lost``, and
    ``attacker_loses``, the least whole-unit loss, from the ``attackers``' printed strengths or steps), the results
    the attacker may choose between (``attacker_choices``) and who may advance how far (``advance_by``: attacker,
    defender, either or none; ``advance_hexes``, with ``given.unit_class`` for ``rules.retreat.advance``)."""
    st = acc.ex.states
    keys = [k for k in ("attacker_loses_at_least", "attacker_loses", "attacker_choices", "advance_by",
                                                  "advance_hexes")
            if k in st]
    if not keys:
        return
    code, how = _result_of(ctx, acc)
    if code is None:
        code = None if acc.given("result") is None else str(acc.given("result"))
        how = "data"
    if code is None:
        for k in keys:
            acc.skip(k, "the result is not given", "book")
        return
    results = ctx.combat.results
    acc.use(*(f"result:{c.strip()}" for c in code.split("+")))
    if "attacker_choices" in st:
        acc.check("attacker_choices", cb.attacker_choices(code, results), f"{code} in the results legend", how=how)
    if "advance_by" in st or "advance_hexes" in st:
        unit_class = acc.given("unit_class")
        default = None
        if unit_class is not None and ctx.game.rules.retreat is not None:
            from ..rules.kit.retreat import advance_length

            default = advance_length(ctx.game.rules.retreat, str(unit_class))
            acc.use("path:rules.retreat.advance")
        who, hexes = cb.advance_after(code, results, default)
        acc.check("advance_by", who or "none", f"{code} in the results legend", how=how)
        acc.check("advance_hexes", hexes if who else 0, f"{code}: {who or 'nobody'} advances", how=how)
    ex = [results[c.strip()] for c in code.split("+") if c.strip() in results and results[c.strip()].exchange]
    if not ex:
        for k in ("attacker_loses_at_least", "attacker_loses"):
            if k in st:
                acc.check(k, 0, f"{code} is no exchange in the results legend", how=how)
        return
    lost = num(acc.given("defender_lost"))
    if lost is None:
        for k in ("attacker_loses_at_least", "attacker_loses"):
            if k in st:
                acc.skip(k, "what the defender lost is not given (given.defender_lost)", "book")
        return
    rc = ex[0]
    values: list[Fraction] | None = None
    ids = [str(x) for x in acc.given("attackers") or []]
    if ids and all(i in ctx.units for i in ids):
        values = []
        for i in ids:
            u = ctx.units[i]
            acc.use(f"unit:{i}")
            if rc.exchange == "steps":
                values.append(Fraction(len(u.steps)))
                continue
            a = Strength.parse(u.steps[0]).attack
            if a is None or rc.exchange_strength == "current":
                values = None
                break
            values.append(Fraction(a))
    res = cb.exchange_losses(rc, lost, values)
    acc.check("attacker_loses_at_least", res.at_least, f"{code}: {res}", how=how)
    if "attacker_loses" in st:
        if res.least is None:
            why = ("the attacking units' current strengths are not given" if rc.exchange_strength == "current"
                   else "the attacking units are not given")
            acc.skip("attacker_loses", why, "book")
        else:
            acc.check("attacker_loses", res.least, f"{code}: {res}", how=how)


@handles(K.COMBAT, K.CLAIM)
def ex_attack_limits(ctx: Context, acc: Acc) -> None:
    """Whether another attack is allowed this combat phase (``may_attack``), from the attacks already made by each
    attacking unit (``given.unit_attacks: {unit: n}``) and on the defender (``given.hex_attacks``), by
    ``combat.attacks_per_unit`` and ``combat.attacks_per_defender`` (:func:`forge.rules.combat.may_attack`)."""
    if "may_attack" not in acc.ex.states:
        return
    made = acc.given("unit_attacks") or {}
    if not isinstance(made, dict):
        raise KeyError("unit_attacks: expected a mapping from unit id to the attacks it has made this phase")
    acc.use("path:combat.attacks_per_unit", "path:combat.attacks_per_defender")
    counts = {str(k): int(v) for k, v in made.items()}
    ok, why = cb.may_attack(ctx.combat, unit_attacks=counts, hex_attacks=int(acc.given("hex_attacks") or 0))
    acc.check("may_attack", ok, why or "within combat.attacks_per_unit and combat.attacks_per_defender", how="data")


# ============================================================================================ table probabilities
@handles(K.PROBABILITY)
def ex_table_roll(ctx: Context, acc: Acc) -> None:
    """A die-roll table read exactly: the die values (after ``drm``) whose cell is the event, their probability,
    the cell's value, and the results of given rolls."""
    tid = acc.given("table")
    if tid is None:
        return
    tables = {t.id: t for t in ctx.game.tables}
    if tid not in tables:
        raise KeyError(f"unknown table {tid!r}")
    table = tables[tid]
    acc.use(f"table:{tid}")
    st = acc.ex.states
    label = acc.given("row") or acc.given("event")
    rows = table.rows
    if len(rows) > 1:
        rows = [r for r in rows if str(r.label).lower() == str(label).lower()]
    if len(rows) != 1:
        for k in st:
            acc.skip(k, f"the table {tid} has several rows and the example names none of them")
        return
    row = rows[0]
    drm = int(acc.given("drm") or 0)
    outcome = acc.given("outcome")
    faces = 6

    def cell(die: int) -> str | None:
        i = cb.row_for_die(table.columns, die + drm)
        return None if i is None else row.cells[i]

    def hit(c: str | None) -> bool | None:
        if c is None or c.strip() == "?":
            return None
        if outcome is not None:
            return c.strip().lower() == str(outcome).strip().lower()
        n = num(c)
        return None if n is None else n > 0

    verdicts = {d: hit(cell(d)) for d in range(1, faces + 1)}
    where = f"table {tid}, row {row.label}" + (f", die {drm:+d}" if drm else "")
    if any(v is None for v in verdicts.values()):
        for k in st:
            acc.skip(k, f"{where}: some cells are unknown or not numbers (name the event's cell in given.outcome)")
        return
    on = [d for d, v in verdicts.items() if v]
    note = f"{where}: the event on {show(on)}"
    for key, value in st.items():
        if isinstance(value, list) and value and all(isinstance(x, int) for x in value):
            acc.check(key, on, note)
    if "probability" in st:
        acc.check("probability", Fraction(len(on), faces), note)
    values = {num(cell(d)) for d in on}
    if "steps" in st:
        acc.check("steps", values.pop() if len(values) == 1 and None not in values else None, note)
    for key in st:
        done = {k for k, *_ in acc.passed} | {k for k, *_ in acc.mismatches}
        if key not in done and (acc.unchecked.get(key, "").startswith("no CRT event") or key not in acc.unchecked):
            acc.skip(key, f"not a value of table {tid}")
    rolls = acc.given("rolls")
    if isinstance(st.get("results"), list) and isinstance(rolls, list):
        acc.unchecked.pop("results", None)
        acc.done.add("results")
        for i, stated in enumerate(st["results"]):
            if i < len(rolls):
                v = hit(cell(int(rolls[i])))
                acc.check_value(
                    f"results[{i}]", stated, "success" if v else "failure", f"roll {rolls[i]}: {cell(int(rolls[i]))}"
                )
            else:
                acc.skip(f"results[{i}]", "the roll is not given", "book")


# ==================================================================================================== odds sums
@handles(K.ODDS)
def ex_odds_sums(ctx: Context, acc: Acc) -> None:
    """The book's own sums: a total from its stated parts (``partial_attack``), and an attack from its given units'
    total plus support (``modifier_counts`` times each modifier's ``add``)."""
    st = acc.ex.states
    parts = st.get("partial_attack")
    if "attack" in st and isinstance(parts, dict) and parts:
        vals = [num(v) for v in parts.values()]
        if all(v is not None for v in vals):
            total = sum((v for v in vals if v is not None), Fraction(0))
            acc.check("attack", total, " + ".join(show(v) for v in vals) + " (the book's parts)", how="arithmetic")
    counts = acc.given("modifier_counts")
    base = num(acc.ex.given.get("attack")) if "attack" in acc.ex.given else None
    if isinstance(counts, dict) and base is not None and "attack" in st:
        mods = {md.id: md for md in ctx.combat.modifiers}
        total = base
        bits = [show(base)]
        for mid, n in counts.items():
            md = mods.get(str(mid))
            if md is None or md.add is None or md.role != "attacker":
                raise KeyError(f"modifier_counts: {mid!r} is no additive attacker modifier")
            acc.use(f"modifier:{mid}")
            total += int(n) * md.add
            bits.append(f"{n} × {md.add} ({mid})")
        acc.check("attack", total, " + ".join(bits))
    if "raw" in st:
        acc.skip("raw", "restates the example's own inputs", "context")
    if "printed_as" in st:
        acc.skip("printed_as", "how the book prints its subtraction; the differential itself is compared", "context")


# ==================================================================================================== high odds
@handles(K.SHIFTS)
def ex_high_odds(ctx: Context, acc: Acc) -> None:
    """Whether shifted odds reach the CRT's high-odds result (``Crt.high_odds``)."""
    st = acc.ex.states
    crt = ctx.crt
    if "high_odds" not in st or crt is None or not acc.has("base_odds"):
        return
    if crt.high_odds is None or crt.high_odds.from_odds is None:
        acc.skip("high_odds", "the CRT has no high-odds result")
        return
    base = OddsColumn.parse(str(acc.ex.given["base_odds"])).low
    n = int(acc.given("net_shift") or 0)
    odds = cb.odds_after_shifts(crt.columns, base, n)
    need = OddsColumn.parse(crt.high_odds.from_odds).low
    acc.use("path:combat.crt.high_odds")
    acc.check(
        "high_odds",
        odds >= need,
        f"{show(base)}-1 shifted {n:+d} is {show(odds)}-1; high odds from {crt.high_odds.from_odds}",
    )


# =================================================================================================== dice pools
@handles(K.CLAIM, K.STEPS)
def ex_dice_pool(ctx: Context, acc: Acc) -> None:
    """Claims about dice-pool combat, recomputed with :mod:`forge.rules.dicepool` and the game's pool: the
    multipliers and their rounding, how hits are scored, the extra losses of all-out attacks and crowded targets."""
    model = ctx.combat.dice_pool
    if model is None:
        return
    pool = dpl.Pool.of(model)
    st = acc.ex.states
    acc.use("path:combat.dice_pool")
    if "multipliers" in st:
        mods = ctx.combat.modifiers
        vals = sorted({fraction(md.multiply) for md in mods if md.multiply is not None})
        computed = [show(v) for v in vals] + [f"{md.add:+d}" for md in mods if md.add is not None]
        acc.use(*(f"modifier:{md.id}" for md in mods))
        acc.check(
            "multipliers", computed, "the distinct multipliers of combat.modifiers (and any additions)", how="data"
        )
    if "rounding" in st:
        half = dpl.modified_strength(1, ["1/2"], pool.rounding)
        acc.check("rounding", "up" if half == 1 else "down" if half == 0 else None, f"1 × 1/2 becomes {show(half)}")
    if "round_after_all" in st:
        probe = dpl.modified_strength(1, ["1/2", "3"], pool.rounding, round_once=pool.round_once)
        exact = dpl.modified_strength(1, ["1/2", "3"], None)
        acc.check(
            "round_after_all",
            probe == dpl.modified_strength(exact, [], pool.rounding),
            f"1 × 1/2 × 3 becomes {show(probe)} (exactly {show(exact)})",
        )
    d = pool.die
    if "hit_on_at_most" in st:
        ok = all(dpl.unit_hits(s, pool).get(1) == Fraction(s, d) for s in range(1, d))
        acc.check(
            "hit_on_at_most",
            "modified_cs" if ok else "not the modified strength",  # the rule's name in the format, not an echo
            f"a unit of strength s < {d} hits with probability s/{d}",
        )
    sure = [s for s in range(1, 4 * d + 1) if dpl.unit_hits(s, pool) == {1: Fraction(1)}]
    twice = [s for s in range(1, 4 * d + 1) if dpl.unit_hits(s, pool) == {2: Fraction(1)}]
    if "automatic_hit_at" in st:
        acc.check("automatic_hit_at", sure[0] if sure else None, "the least strength that hits without a roll")
    if "automatic_hit_per" in st:
        per = twice[0] - sure[0] if sure and twice else None
        acc.check("automatic_hit_per", per, "strength between one and two sure hits")
    if "remainder_rolled" in st and sure:
        acc.check(
            "remainder_rolled",
            len(dpl.unit_hits(sure[0] + 1, pool)) == 2,
            f"strength {sure[0] + 1}: {show(dpl.unit_hits(sure[0] + 1, pool))}",
        )
    if str(acc.given("attack") or "") == "all-out" and ("defender_extra" in st or "attacker" in st):
        a, dl = dpl.combat_losses(0, pool, all_out=True)
        acc.check("defender_extra", dl, "an all-out attack's extra losses (combat.dice_pool)")
        acc.check("attacker", a, "an all-out attack's cost (combat.dice_pool)")
    n = acc.given("units_in_target")
    if n is not None and "extra_defender_losses" in st:
        acc.check(
            "extra_defender_losses",
            dpl.combat_losses(0, pool, units_in_target=int(n))[1],
            f"a target of {n} units (crowded from {pool.crowded_units})",
        )


# ====================================================================================================== leaders
@handles(K.COMBAT)
def ex_leader(ctx: Context, acc: Acc) -> None:
    """A leader joining a combat (``combat.leaders``): the magnitude it raises, its range, and whether the result
    allows a second attack (``second_attack_allowed``).  Its extra step is added by :func:`.ex_combat.ex_combat`."""
    leader = cb.find_leader(ctx.combat.leaders, ctx.units, acc.ex.given.get("leader"))
    if leader is None:
        return
    acc.given("leader")
    acc.use(f"unit:{leader.unit}")
    actual, dist = acc.given("actual_magnitude"), acc.given("range")
    dice = acc.given("dice")
    if actual is not None and isinstance(dice, list):
        raised = int(actual) + leader.magnitude
        if leader.max_magnitude is not None:
            raised = min(raised, leader.max_magnitude)
        if raised != len(dice):
            acc.invalid.append(f"magnitude {actual} raised by the leader is {raised}, but {len(dice)} dice are rolled")
    if dist is not None and leader.range is not None and int(dist) > leader.range:
        acc.invalid.append(f"the defender is {dist} hexes from the leader, beyond its range of {leader.range}")
    if "second_attack_allowed" in acc.ex.states:
        code, _how = _result_of(ctx, acc)
        if code is None:
            acc.skip("second_attack_allowed", "the primary result is not known")
        else:
            acc.check(
                "second_attack_allowed",
                code in leader.second_attack_on,
                f"primary {code}; a second attack follows {', '.join(leader.second_attack_on)}",
            )
