"""Supply, retreat and advance, victory points, the entry schedule and weather, and claims read from tables:
examples recomputed with the rules kit (:mod:`forge.rules.kit.supply`, :mod:`.retreat`, :mod:`.victory`)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from .. import model as m
from ..hexgrid import Cell
from ..rules import combat as cb
from ..rules.kit import retreat as kr
from ..rules.kit import stacking as sk
from ..rules.kit import supply as ks
from ..rules.kit import victory as kv
from .core import Acc, Context, handles, num
from .sites import column_sites

_RETREAT_IF = {"strength-at-least-losses": "defender CS >= losses"}
"""``rules.retreat.allowed_if`` -> the condition in the examples' notation (defender's combat strength, losses)."""

K = m.ExampleKind

__all__ = ["die_set", "ex_retreat", "ex_rules_claim", "ex_supply", "ex_table", "ex_vp", "position"]


# =================================================================================================== helpers
def _norm(text: Any) -> str:
    return re.sub(r"[^a-z0-9]+", "_", str(text).lower()).strip("_")


def die_set(value: Any) -> set[int] | None:
    """The die rolls a stated value names: ``6``, ``"1-4"``, ``[1, 2]`` (a two-item list is a range: ``[1, 3]``
    is 1-3), ``[1, 2, 5]``; None when it names none."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return {value}
    if isinstance(value, list) and value and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return set(range(value[0], value[1] + 1)) if len(value) == 2 else set(value)
    if isinstance(value, str):
        mt = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+))?\s*", value)
        if mt:
            lo = int(mt.group(1))
            return set(range(lo, int(mt.group(2) or lo) + 1))
    return None


def _as_stated(stated: Any, rolls: set[int]) -> Any:
    """Rolls written the way the book wrote its value (so the report shows like with like)."""
    lo, hi = min(rolls), max(rolls)
    contiguous = rolls == set(range(lo, hi + 1))
    if isinstance(stated, list):
        return [lo, hi] if len(stated) == 2 and contiguous else sorted(rolls)
    if isinstance(stated, int):
        return lo if lo == hi else sorted(rolls)
    if contiguous:
        return str(lo) if lo == hi else f"{lo}-{hi}"
    return ", ".join(map(str, sorted(rolls)))


def position(ctx: Context, spec: Mapping[str, Any]) -> dict[str, str]:
    """Hex label -> side for an example's ``position``: every unit at its setup hex, then ``moved``
    (unit -> hex, as the example tells), ``arrived`` (reinforcements at their entry hexes) and ``removed``."""
    where: dict[str, str | None] = {u.id: u.setup for u in ctx.game.units}
    for uid, hx in (spec.get("moved") or {}).items():
        if uid not in ctx.units:
            raise ValueError(f"position.moved: no unit {uid!r}")
        where[uid] = str(hx)
    for uid in spec.get("arrived") or []:
        u = ctx.units[uid]
        if u.entry is None or not u.entry.hex:
            raise ValueError(f"position.arrived: {uid} has no entry hex")
        where[uid] = u.entry.hex
    for uid in spec.get("removed") or []:
        where[uid] = None
    out: dict[str, str] = {}
    for uid, hx in where.items():
        if hx is None:
            continue
        side = ctx.units[uid].side
        if out.setdefault(hx, side) != side:
            raise ValueError(f"position: {hx} holds units of both sides")
    return out


def _table(ctx: Context, tid: Any) -> m.Table | None:
    return next((t for t in ctx.game.tables if t.id == str(tid)), None)


def _die_columns(t: m.Table) -> dict[int, int] | None:
    """Die roll -> column index when every column heading is one roll (``1`` ... ``6``)."""
    try:
        return {int(c): j for j, c in enumerate(t.columns)}
    except ValueError:
        return None


# =================================================================================================== tables
@handles(K.CLAIM, K.SUPPLY, K.VP, K.RETREAT)
def ex_table(ctx: Context, acc: Acc) -> None:
    """A claim that names a ``table``: each stated key is read from the table's cells.

    Die tables (columns ``1`` ... ``6``): a key that is a row label gives the rolls of one outcome on that row
    (the outcome at the first stated roll, or ``given.outcome``); a key that is a die range gives the cell
    those rolls share; a key that is a cell value (or ``<value>_on``) gives the rolls that produce it; with
    ``given.die`` the cell at that roll is the table's result.  Named-row tables (a numeric column, and maybe
    a side column): a key names a row by its abbreviation or words, a side key maps names to counts."""
    tid = acc.given("table")
    if tid is None:
        return
    t = _table(ctx, tid)
    if t is None:
        raise ValueError(f"no table {tid!r}")
    acc.use(f"table:{t.id}")
    addressed = acc.given("cells") or {}
    for key, (row_label, col_label) in addressed.items():
        row = next((r for r in t.rows if _norm(r.label) == _norm(row_label)), None)
        cols = [j for j, c in enumerate(t.columns) if _norm(c) == _norm(col_label)]
        if row is None or len(cols) != 1:
            raise ValueError(f"table {t.id} has no cell ({row_label}, {col_label})")
        acc.check(key, _cell_value(row.cells[cols[0]]), f"table {t.id}, {row.label} / {col_label}", how="data")
    dies = _die_columns(t)
    if dies is not None:
        _die_table(ctx, acc, t, dies)
    else:
        _named_rows(ctx, acc, t)
    _counter_faces(ctx, acc)
    for key in acc.ex.states:
        if key not in acc.done:
            acc.skip(key, f"not a cell of table {t.id}: the value is in the rule's words or the table's notes")


def _counter_faces(ctx: Context, acc: Acc) -> None:
    """``given.counter_face: {states key: {side, type, size, face}}``: the strength printed on that face
    (``full`` or ``reduced``) of the data's units of that kind, when they all print the same known one."""
    for key, spec in dict(acc.given("counter_face") or {}).items():
        kind = f"{spec['side']} {spec['type']} {spec.get('size', '')}".strip()
        size = spec.get("size")
        units = [
            u
            for u in ctx.game.units
            if u.side == spec["side"] and u.type == spec["type"] and (size is None or u.size == size)
        ]
        if not units:
            acc.skip(
                str(key),
                f"a printed strength of a {kind} counter: the data has no such unit, as the book prints none (its "
                "counter mix is not in the text)",
                "book",
            )
            continue
        for u in units:
            acc.use(f"unit:{u.id}")
        faces = {u.strengths()[0 if spec["face"] == "full" else -1].plain() for u in units if len(u.steps) > 1}
        if len(faces) != 1 or "?" in next(iter(faces)):
            acc.skip(str(key), f"the {spec['face']} face of the {kind} units is not known (not given)", "book")
            continue
        acc.check(str(key), faces.pop(), f"the {spec['face']} face of the data's {kind} units", how="data")


def _die_table(ctx: Context, acc: Acc, t: m.Table, dies: dict[int, int]) -> None:
    st = acc.ex.states
    labels = {_norm(r.label): r for r in t.rows}
    single = t.rows[0] if len(t.rows) == 1 else None
    outcome = acc.given("outcome")
    die = acc.given("die")
    for key, stated in st.items():
        row = labels.get(_norm(key))
        if row is not None:  # petrol: '8-10' -> the rolls of one outcome
            # what is checked depends on the key only, never on the stated value's form (a value the table cannot
            # hold is a disagreement, not an unchecked claim)
            valid = (die_set(stated) or set()) & set(dies)
            first = min(valid) if valid else min(dies)
            want = outcome if outcome is not None else row.cells[dies[first]]
            got = {d for d, j in dies.items() if row.cells[j] == want}
            acc.check(key, _as_stated(stated, got), f"table {t.id}, row {row.label}: rolls giving {want!r}", how="data")
            continue
        if single is None:
            continue
        rolls = die_set(key)
        if rolls is not None and rolls <= set(dies):  # central front: '3-5' -> the shared cell
            cells = {single.cells[dies[d]] for d in rolls}
            acc.check(
                key,
                num(next(iter(cells)))
                if len(cells) == 1 and num(next(iter(cells))) is not None
                else (next(iter(cells)) if len(cells) == 1 else sorted(cells)),
                f"table {t.id} on rolls {key}",
                how="data",
            )
            continue
        value = re.sub(r"_on$", "", _norm(key))
        got = {d for d, j in dies.items() if _norm(single.cells[j]) == value}
        if got:  # weather: 'clear' -> '1-4'
            acc.check(key, _as_stated(stated, got), f"table {t.id}: rolls giving {value!r}", how="data")
    if die is not None and single is not None and isinstance(die, int) and die in dies:
        result = single.cells[dies[die]]
        turn = acc.given("turn")
        if "return_turn" in st and isinstance(turn, int) and num(result) is not None:
            acc.check("return_turn", turn + int(num(result) or 0), f"turn {turn} + table {t.id} at {die}")


def _cell_value(text: str) -> Any:
    """A printed cell as a value: a qualifier in brackets dropped ('+1 (not bombardment)' -> 1), numbers as
    numbers."""
    core = re.sub(r"\s*\([^)]*\)", "", text).strip()
    return num(core) if num(core) is not None else core


def _named_rows(ctx: Context, acc: Acc, t: m.Table) -> None:
    value_cols = [
        j for j in range(len(t.columns)) if all(num(r.cells[j]) is not None for r in t.rows if j < len(r.cells))
    ]
    if len(value_cols) != 1 and len(t.columns) == 1:
        value_cols = [0]  # one column of text: a value with a qualifier in brackets ('2-3 (usually)')
    if len(value_cols) != 1:
        return
    vj = value_cols[0]

    def cell(r: m.TableRow) -> Any:
        return _cell_value(r.cells[vj])

    side_col = next((j for j, c in enumerate(t.columns) if _norm(c) == "side"), None)
    names = {_norm(s.id): _norm(s.name) for s in ctx.game.game.sides}

    def find(key: str, rows: list[m.TableRow]) -> m.TableRow | None:
        k = re.sub(r"(_\d+)+$", "", _norm(key))
        abbrev = [r for r in rows if (a := re.search(r"\(([^)]*)\)", r.label)) and _norm(a.group(1)) == k]
        if len(abbrev) == 1:
            return abbrev[0]
        words = [r for r in rows if f"_{k}_" in f"_{_norm(r.label)}_"]
        return words[0] if len(words) == 1 else None

    for key, stated in acc.ex.states.items():
        if isinstance(stated, dict) and _norm(key) in names and side_col is not None:
            rows = [r for r in t.rows if _norm(r.cells[side_col]) in (names[_norm(key)], _norm(key))]
            got: dict[str, Any] = {}
            for k in stated:
                r = find(str(k), rows)
                got[k] = cell(r) if r is not None else None
            if all(v is not None for v in got.values()):
                acc.check(key, got, f"table {t.id}, column {t.columns[vj]}", how="data")
            continue
        r = find(key, list(t.rows))
        if r is not None:
            acc.check(key, cell(r), f"table {t.id}, {r.label}", how="data")


# =================================================================================================== claims
@handles(K.CLAIM)
def ex_rules_claim(ctx: Context, acc: Acc) -> None:
    """Weather on the turn track, special rules' turns, advance lengths, victory levels, the book's halving."""
    st = acc.ex.states
    turns = ctx.game.turns.turns
    for key in st:
        mt = re.fullmatch(r"turn_(\d+)", key)
        if mt and acc.has("table") and ctx.game.turns.weather is not None:
            n = int(mt.group(1))
            w = next((x.weather for x in turns if x.number == n), None)
            acc.check(key, w, f"the turn track's weather on turn {n}", how="data")
        mt = re.fullmatch(r"(\w+)_turns", key)
        if mt and ctx.game.turns.weather is not None:
            state = mt.group(1)
            sel = [x.number for x in turns if (x.weather is None if state == "rolled" else x.weather == state)]
            if state == "rolled" or state in ctx.game.turns.weather.states:
                span = [min(sel), max(sel)] if sel else None
                if span and sel != list(range(span[0], span[1] + 1)):
                    span = sel  # not one run of turns: list them all
                acc.check(key, span, "the turn track's weather (first and last turn)", how="data")
    if "from_turn" in st and acc.has("table") and ctx.game.turns.weather is not None:
        wx = ctx.game.turns.weather
        if wx.table == str(acc.ex.given["table"]):
            rolled = [x.number for x in turns if x.weather is None]
            acc.check("from_turn", min(rolled) if rolled else None, "first turn the track leaves unset", how="data")
    if "applies_turns" in st:
        found = {tuple(s.turns) for s in ctx.game.special_rules if s.rule == acc.ex.rule}
        acc.check(
            "applies_turns",
            list(found.pop()) if len(found) == 1 else None,
            f"special rule {acc.ex.rule}",
            how="data",
        )
    # halving a roll (a delay of half a die, rounded as given)
    die, rounding, divisor = acc.given("die"), acc.given("rounding"), acc.given("divisor")
    if divisor is not None:
        rnd = math.ceil if (rounding or "up") == "up" else math.floor
        rolls = die_set(die)
        if "turns" in st and rolls:
            acc.check("turns", sorted({rnd(d / int(divisor)) for d in rolls}), "each roll divided", how="arithmetic")
        if "halved" in st and isinstance(die, int):
            acc.check("halved", rnd(die / int(divisor)), f"{die} / {divisor}", how="arithmetic")
    # advance after combat by unit class
    adv = ctx.game.rules.retreat.advance if ctx.game.rules.retreat is not None else {}
    if adv and st and all(kr.advance_length(ctx.game.rules.retreat, k) is not None for k in st):
        for k in st:
            acc.check(k, kr.advance_length(ctx.game.rules.retreat, k), "rules.retreat.advance", how="data")
    _levels(ctx, acc)
    terr = acc.given("terrain")
    if terr is not None and ("ignore" in st or "must_retreat" in st):
        got = kr.in_terrain(ctx.game.rules.retreat, [str(terr)])
        if got is not None:
            acc.check("ignore", got[0], "rules.retreat.in_terrain", unordered=True, how="data")
            acc.check("must_retreat", got[1], "rules.retreat.in_terrain", unordered=True, how="data")
    if "min_per_side" in st or "max_per_side" in st:
        r = ctx.game.rules.supply
        rng = r.sources_per_side if r is not None else None
        acc.check("min_per_side", rng[0] if rng else None, "rules.supply.sources_per_side", how="data")
        acc.check("max_per_side", rng[1] if rng else None, "rules.supply.sources_per_side", how="data")
        if "where" in st:
            if any(h.supply for h in ctx.game.map.hexes.values()):
                acc.skip("where", "where the sources lie is said in words (the scenario marks them)")
            else:  # nothing to hold the words against: no hex of the map is a source
                acc.skip(
                    "where",
                    "no hex of the map data is a supply source (the book's map, if it has one, is not in its text), "
                    "so there are no sources to compare with where the book says they lie",
                    "book",
                )


def _levels(ctx: Context, acc: Acc) -> None:
    v = ctx.game.victory
    if v is None or not v.levels:
        return
    for key, _stated in acc.ex.states.items():
        mt = re.fullmatch(r"(\w+?)_(at_least|at_most|below|above)", key)
        if mt:
            lv = kv.find_level(v, mt.group(1))
            if lv is None:
                continue
            bound = {
                "at_least": lv.min,
                "at_most": lv.max,
                "below": None if lv.max is None else lv.max + 1,
                "above": None if lv.min is None else lv.min - 1,
            }[mt.group(2)]
            acc.check(key, bound, f"victory.levels {lv.id}", how="data")
        elif (lv := kv.find_level(v, key)) is not None and (lv.min is not None or lv.max is not None):
            acc.check(key, kv.level_range(lv), f"victory.levels {lv.id}", how="data")


# =================================================================================================== retreat
@handles(K.RETREAT)
def ex_retreat(ctx: Context, acc: Acc) -> None:
    g, st = acc.ex.given, acc.ex.states
    frm = acc.given("from")
    side = acc.given("side")
    turn = acc.given("turn")
    hit = acc.given("hit_hexes") or []
    acc.given("unit")
    acc.given("column")
    rr = ctx.game.rules.retreat
    if rr is not None:
        for key, val in (
            ("retreat_hexes", rr.hexes),
            ("extra_for_overstack", rr.extra_if_overstacked or None),
            ("rally_stop_after", rr.rally_stop_after),
            ("loss_reduction_max", rr.loss_reduction_max),
            ("voluntary", rr.voluntary),
        ):
            if key in st:
                acc.check(key, val if not isinstance(val, m.Unknown) else None, "rules.retreat", how="data")
        if "allowed_when" in st:
            acc.use("path:rules.retreat.allowed_if")
            acc.check(
                "allowed_when",
                _RETREAT_IF.get(rr.allowed_if or "", "whenever the result allows"),
                f"rules.retreat.allowed_if: {rr.allowed_if or 'none'}",
                how="data",
            )
    if frm is not None:
        origin = ctx.cell(frm)
        if origin is None:
            raise ValueError(f"{frm!r} is not a hex on the map")
        spec = acc.given("position")
        if spec is not None and rr is not None and side is not None:
            _retreat_in_position(ctx, acc, origin, str(side), spec, turn, hit)
        else:
            _retreat_adjacent(ctx, acc, origin, str(frm))
    if g.get("column") and "result" in st and ctx.crt is not None:
        grid = cb.grid_of(ctx.crt, acc.given("section"))
        if grid is not None:
            j = cb.column_index(ctx.crt, str(g["column"]))
            cells = {row[j] for row in grid}
            acc.use(*column_sites(ctx.crt, str(g["column"]), acc.given("section")))
            if st["result"] in cells:  # a necessary condition only: any result on the column would pass
                acc.skip(
                    "result",
                    f"no die roll given: {st['result']} is one of the column's results, which is all "
                    "that can be checked",
                    "book",
                )
            else:
                acc.check("result", f"one of {sorted(cells)}", "no die roll given: the result must be on the column")
    advancing(ctx, acc)
    if "advance_to" in st and frm is not None:
        if rr is not None and rr.advance_into == "vacated-hex":
            acc.check("advance_to", frm, "rules.retreat.advance_into: the hex the defenders left", how="data")
        else:
            acc.skip("advance_to", "where the victors may advance is not in the rules kit's data for this game")


@handles(K.COMBAT)
def ex_combat_aftermath(ctx: Context, acc: Acc) -> None:
    """What a combat example says happens after the result: whether the attackers may advance (from the result
    the book gives and ``rules.retreat.advance_after``), where the defender retreats, who advances."""
    st = acc.ex.states
    rr = ctx.game.rules.retreat
    if "advance" in st and rr is not None and rr.advance_after == "defender-retreat" and "result" in st:
        code = ctx.combat.results.get(str(st["result"]))
        if code is not None:
            retreats = isinstance(code.defender_retreat, int) and code.defender_retreat > 0
            acc.check(
                "advance",
                retreats,
                f"rules.retreat.advance_after: the book's result {st['result']} "
                f"{'retreats' if retreats else 'does not retreat'} the defender",
                how="data",
            )
    if "to" in st and "result" in st:
        acc.skip(
            "to",
            "where the defender retreats depends on where every unit stands, which the example does not give",
            "book",
        )
    advancing(ctx, acc)


def advancing(ctx: Context, acc: Acc) -> None:
    """The units a combat example says advance after it (``advancing``): which of them advance is the attacker's
    choice, but the choice must be legal, and that is checked: every one of them attacked (``given.attackers``),
    the result let the attackers advance (``rules.retreat.advance_after``), and together they stack legally in
    the hex they enter (``rules.stacking``; the steps they have left are not given, so only a stack too big even
    at one step a unit is a disagreement)."""
    st = acc.ex.states
    if "advancing" not in st:
        return
    stated = [str(u) for u in (st["advancing"] if isinstance(st["advancing"], list) else [st["advancing"]])]
    attackers = acc.given("attackers")
    if not isinstance(attackers, list):
        acc.skip(
            "advancing",
            "which attackers advance is the attacker's choice, and the example does not name its attackers, so "
            "not even the choice's legality can be checked",
            "book",
        )
        return
    unknown = [u for u in stated if u not in ctx.units]
    if unknown:
        raise KeyError(f"unit {unknown[0]!r} is not in the data")
    wrong: list[str] = []
    stray = [u for u in stated if u not in {str(a) for a in attackers}]
    if stray:
        wrong.append(f"{', '.join(stray)} did not attack")
    rr = ctx.game.rules.retreat
    result = st.get("result", acc.ex.given.get("result"))
    code = ctx.combat.results.get(str(result)) if result is not None else None
    if stated and rr is not None and code is not None and not code.defender_eliminated:
        retreats = code.defender_retreat != 0  # an unknown retreat (?) may vacate the hex too
        if rr.advance_after == "defender-retreat" and not retreats:
            acc.use("path:rules.retreat")
            wrong.append(f"{result} does not retreat the defender, so nobody may advance")
        elif rr.advance_into == "vacated-hex" and not retreats and code.defender_steps == 0:
            acc.use("path:rules.retreat")
            wrong.append(f"{result} leaves the defender in its hex, so nobody may advance into it")
    notes = ["every advancing unit attacked"]
    rules = ctx.game.rules.stacking
    if rules is not None and stated:
        acc.use("path:rules.stacking", *(f"unit:{u}" for u in stated))
        v = sk.verdict(rules, [(ctx.units[u], None) for u in stated])
        if v.legal is False:
            wrong.append(f"together they break the stacking limit: {v.reason}")
        else:
            notes.append(f"stacking {v.reason}")
    acc.choices.add("advancing")
    acc.check(
        "advancing",
        "; ".join(wrong) if wrong else st["advancing"],
        "the attacker chooses who advances; the choice is legal: " + ", ".join(notes) if not wrong else
        "who may advance after combat",
    )


def _retreat_adjacent(ctx: Context, acc: Acc, origin: Cell, frm: str) -> None:
    st = acc.ex.states
    for key in ("hexes", "normal_hexes", "to", "chosen"):
        if key not in st:
            continue
        stated = st[key] if isinstance(st[key], list) else [st[key]]
        far = [h for h in stated if (c := ctx.cell(h)) is None or not ctx.grid.adjacent(c, origin)]
        if far:
            acc.mismatches.append(
                (
                    key,
                    stated,
                    f"{', '.join(map(str, far))} not next to {frm}",
                    "a retreat of one hex ends next to where it started",
                )
            )
            acc.done.add(key)
        else:
            acc.skip(
                key,
                f"next to {frm} as the rules need; which neighbours are open depends on where every "
                "unit stands at that moment (zones of control, occupied and already-hit hexes), which the "
                "example does not give",
                "book",
            )


def _retreat_in_position(
    ctx: Context, acc: Acc, origin: Cell, side: str, spec: Mapping[str, Any], turn: Any, hit: list[Any]
) -> None:
    rr = ctx.game.rules.retreat
    assert rr is not None
    st = acc.ex.states
    pos = position(ctx, spec)
    grid = ctx.grid
    friendly = {grid.parse(h) for h, s in pos.items() if s == side}
    enemy = {grid.parse(h) for h, s in pos.items() if s != side}
    own = ks.source_hexes(ctx.game, side)
    theirs: set[Cell] = set()
    for s in ctx.sides:
        if s != side:
            theirs |= ks.source_hexes(ctx.game, s)
    during = spec.get("during") or next((s for s in ctx.sides if s != side), None)
    hits = {c for h in hit if (c := ctx.cell(h)) is not None}
    acc.use("path:rules.retreat", *(f"hex:{h}" for h in pos))

    def open_hexes(special: bool) -> list[str]:
        cells = kr.retreat_hexes(
            rr,
            origin,
            side,
            grid.neighbours,
            friendly=friendly,
            enemy=enemy,
            own_sources=own,
            enemy_sources=theirs,
            hit=hits,
            turn=turn if isinstance(turn, int) else None,
            during=during,
            special=special,
        )
        return sorted(grid.label(c) for c in cells)

    note = "rules.retreat in the example's position"
    acc.check("hexes", open_hexes(True), note, unordered=True)
    acc.check("normal_hexes", open_hexes(False), note + ", without the turn's special limits", unordered=True)
    for key in ("chosen", "to"):
        if key in st:
            legal = open_hexes(True)
            acc.check(key, st[key] if str(st[key]) in legal else f"one of {legal}", note + ": the hex is open")


# =================================================================================================== supply
@handles(K.SUPPLY)
def ex_supply(ctx: Context, acc: Acc) -> None:
    g, st = acc.ex.given, acc.ex.states
    if acc.has("from") and acc.has("supply_source"):
        a, b = ctx.cell(g["from"]), ctx.cell(g["supply_source"])
        if a is not None and b is not None:
            acc.check("distance", ctx.grid.distance(a, b))
    for key in ("out_of_supply", "mobile_units_in_supply"):
        if key in st:
            acc.skip(
                key,
                "needs where every unit and bridge stands at that moment, which the example and the "
                "partial map do not give",
                "book",
            )
    if "cited_rule" in st:
        acc.skip("cited_rule", "a cross-reference in the book's text, not a value of the rules", "context")
    r = ctx.game.rules.supply
    if r is None:
        return
    for s in ctx.sides:
        key = f"{s}_sources"
        if key in st:
            runs = [[e.first, e.last] for e in r.edges if e.side == s and e.role == "source"]
            acc.check(key, runs[0] if len(runs) == 1 else None, "rules.supply.edges", unordered=True, how="data")
    if "hq_range" in st:
        acc.check(
            "hq_range",
            r.command_range if isinstance(r.command_range, int) else None,
            "rules.supply.command_range",
            how="data",
        )
    if "overland" in st:
        acc.check("overland", ks.line_limit(r, "", overland=True), "rules.supply.overland", how="data")
    if "overland_to_hq" in st:
        acc.check(
            "overland_to_hq", ks.line_limit(r, "", overland=True, to_hq=True), "rules.supply.overland_to_hq", how="data"
        )
    for s in ctx.sides:
        key = f"{s}_entry"
        if key in st:
            ends = sorted({h for e in r.edges if e.side == s and e.role == "entry" for h in (e.first, e.last)})
            acc.check(
                key, ends or None, "rules.supply.edges (role entry): first and last hexes", unordered=True, how="data"
            )
    types = acc.given("unit_types")
    over = acc.given("distance_over")
    if isinstance(types, dict) and isinstance(over, int) and r.petrol is not None:
        must: list[str] = []
        exempt: list[str] = []
        for name, typ in types.items():
            u = m.Unit(id="x", side=ctx.sides[0], name=str(name), label="x", type=typ, steps=["1"])
            (must if ks.petrol_must_roll(r, u, over + 1) else exempt).append(str(name))
        acc.use(f"table:{r.petrol.table}")
        acc.check("must_roll", must, "rules.supply.petrol: unit types past its distance", unordered=True)
        acc.check("exempt", exempt, "rules.supply.petrol: unit types past its distance", unordered=True)


# =================================================================================================== victory
@handles(K.VP)
def ex_vp(ctx: Context, acc: Acc) -> None:
    st = acc.ex.states
    v = ctx.game.victory
    side = acc.given("side")
    if "handicap" in st:
        acc.check("handicap", v.handicap.get(str(side), 0) if v and side else None, "victory.handicap", how="data")
    if "per_hex" in st and acc.has("hexes"):
        hx = acc.ex.given["hexes"]
        vps = [kv.hex_vp(ctx.game, h) for h in hx]
        if all(isinstance(x, int) for x in vps):
            acc.check("per_hex", vps[0] if len(set(vps)) == 1 else vps, "map.hexes.*.vp")
            for s in ctx.sides:
                if s in st:
                    acc.check(s, sum(x for x in vps if isinstance(x, int)), "the hexes' VP")
    if v is None:
        return
    acc.use("path:victory")
    matched: list[m.VpItem] = []
    for key, _stated in st.items():
        item = kv.find_item(v, key)
        if item is not None:
            matched.append(item)
            acc.check(key, item.vp if isinstance(item.vp, int) else None, f"victory.points {item.id}", how="data")
    if "max" in st and len(matched) == 1:
        acc.check("max", matched[0].max, f"victory.points {matched[0].id}.max", how="data")
    if "exit_mp" in st:
        mv = ctx.game.rules.movement
        exit_mp = None if mv is None or isinstance(mv.exit_mp, m.Unknown) else mv.exit_mp
        acc.use("path:rules.movement.exit_mp")
        acc.check(
            "exit_mp",
            exit_mp,
            "rules.movement.exit_mp (no cost encoded)" if exit_mp is None else "rules.movement.exit_mp",
            how="data",
        )
    if "lost_if_retaken_and_destroyed" in st:
        acc.skip("lost_if_retaken_and_destroyed", "what happens to VP already scored is said in words")
    # starting VP on the track (the book's boxes: x1 and x10)
    for s in ctx.sides:
        if s in st and s in v.start and acc.has("vp_x1_box"):
            acc.given("vp_x10_box")
            acc.check(s, v.start[s], "victory.start", how="data")
    # a unit's full step count (a division destroyed out of command)
    uid = acc.given("unit")
    if uid is not None and uid in ctx.units:
        items = [p for p in v.points if p.per == "unit-steps"]
        acc.given("max_steps")
        acc.given("out_of_command")
        for s in ctx.sides:
            if s in st and len(items) == 1 and items[0].side in (None, s):
                acc.use(f"unit:{uid}")
                acc.check(s, kv.unit_steps_vp(ctx.units[uid]), f"victory.points {items[0].id}: the unit's steps")
    # the result a score gives
    score = next((acc.given(s) for s in ctx.sides if isinstance(acc.ex.given.get(s), int)), None)
    if "result" in st and isinstance(score, int):
        lv = kv.level(v, score)
        acc.check("result", lv.id if lv else None, "victory.levels")
    _levels(ctx, acc)
    # sudden death: a benchmark plus the margin
    if any(k.endswith("_wins_with") for k in st):
        b, mgn = acc.given("benchmark"), acc.given("margin")
        acc.given("turn")
        for k in st:
            if k.endswith("_wins_with") and isinstance(b, int) and isinstance(mgn, int):
                acc.check(k, b + mgn, f"benchmark {b} + margin {mgn}", how="arithmetic")
    # map exit: steps count in pairs; each pair owes one enemy step; each step not removed scores
    ex, per = acc.given("exited_steps"), acc.given("steps_per_removal")
    if isinstance(ex, int) and isinstance(per, int):
        acc.given("mechanized")
        removed: dict[str, int] = {}
        for s in ctx.sides:
            removed.update(acc.given(f"{s}_removed") or {})
        counted = ex - ex % per
        owed = counted // per
        acc.check("counted_steps", counted, f"{ex} exited, counted in {per}s", how="arithmetic")
        for s in ctx.sides:
            acc.check(f"{s}_steps_owed", owed, f"one step per {per} counted", how="arithmetic")
        item = next((p for p in v.points if p.id == acc.given("item")), None)
        if item is not None and isinstance(item.vp, int) and item.side is not None:
            acc.check(
                f"{item.side}_vp", item.vp * (owed - sum(removed.values())), "owed minus removed", how="arithmetic"
            )
