"""Worked attacks the odds-CRT play engine recomputes (:mod:`forge.rules.classic`), in games whose CRT cells are
result codes: the result of an attack in a position, the units it eliminates, the strength an exchange costs the
attacker, and who may advance.

A ``combat`` example names ``attackers``, ``defender_hex`` and ``die`` (none for an automatic result), and
optionally ``attacker_hexes`` (one hex for all attackers, or one per attacker), ``turn`` (its weather) and
``removed`` (units off the map); every other unit stands at its set-up hex.  States: ``result`` (the code),
``eliminated`` (the units the result removes at once), ``exchange_at_least`` (the printed defence the defender
lost, in the unit of the result's ``exchange``: steps or printed strength), ``may_advance`` (the attackers free to
advance into the emptied hex when nothing else is pending).

A ``hex`` example that names a ``unit`` and states ``hexes`` claims the hexes the unit may set up in (a fixed hex,
or every hex of its set-up zone: :mod:`forge.rules.kit.setup`).
"""

from __future__ import annotations

from typing import Any

from .. import model as m
from ..rules import combat as cb
from .core import Acc, Context, handles
from .sites import crt_site, hex_sites

K = m.ExampleKind


@handles(K.COMBAT)
def ex_classic_attack(ctx: Context, acc: Acc) -> None:
    g = acc.ex.given
    if "attackers" not in g or "defender_hex" not in g:
        return
    from ..rules import classic as C

    game = ctx.game
    if not C.selects(game):
        return
    keys = [k for k in ("result", "eliminated", "exchange_at_least", "may_advance") if k in acc.ex.states]
    if not keys:
        return
    if C.problems(game):
        return  # a game the engine cannot play: the other handlers say what they can of the example
    attackers = [str(u) for u in acc.given("attackers")]
    target_label = str(acc.given("defender_hex"))
    die = acc.given("die")
    turn = acc.given("turn")
    removed = [str(u) for u in acc.given("removed", [])]
    s = C.initial(game)
    grid = s.rules.grid
    if turn is not None:
        s.turn = int(turn)
    for u in removed:
        C._eliminate(s, u)
    hexes: Any = acc.given("attacker_hexes")
    if hexes is not None:
        spots = [hexes] * len(attackers) if isinstance(hexes, str) else list(hexes)
        for u, h in zip(attackers, spots, strict=True):
            s.status[u] = "map"
            C._enter(s, u, grid.parse(str(h)))
    side = s.rules.pieces[attackers[0]].side
    s.slot = next(i for i, sl in enumerate(s.rules.slots) if sl.kind == "combat" and sl.side == side)
    s.tasks = []
    C._enter_slot(s)
    target = grid.parse(target_label)
    defenders = s.at(target)
    acc.use(*(f"unit:{u}" for u in [*attackers, *defenders]), *hex_sites(ctx, target_label))
    rolls = [] if die is None else [int(die)]
    odds = C.assess(s, target, attackers)
    acc.use(*(f"shift:{sid}" for sid, _ in odds.shifts if sid in {sh.id for sh in game.combat.shifts}))
    acc.use(*(f"modifier:{mid}" for mid in odds.modifiers))
    cell, how = C.crt_cell(s, target, attackers, C.ScriptedDice(list(rolls)))
    crt = game.combat.crt
    assert crt is not None
    if rolls and ", die " in how:
        column = how.split(", die ")[0]
        row = crt.rows[cb.row_for_die(crt.rows, rolls[0]) or 0]
        acc.use(crt_site(column, row))
        acc.where["cell"] = f"{column}, die {rolls[0]}"
    else:
        acc.use("path:combat.crt.below.result", "path:combat.crt.above.result")
    acc.use(*(f"path:combat.results.{c.strip()}" for c in cell.split("+")))
    acc.check("result", cell, f"the odds in the example's position ({how})")
    before = {u for u, st in s.status.items() if st == "eliminated"}
    C._resolve(s, C.Attack(target_label, tuple(attackers)), C.ScriptedDice(list(rolls)))
    gone = sorted(u for u, st in s.status.items() if st == "eliminated" and u not in before)
    acc.check("eliminated", gone, "removed by the result at once", unordered=True)
    fight = s.fight
    exchange = any(t.kind == "exchange" for t in s.tasks)
    if "exchange_at_least" in acc.ex.states:
        if exchange and fight is not None:
            rc, need = C._exchange_due(s, fight)
            what = "steps" if rc.exchange == "steps" else "printed strength"
            acc.check("exchange_at_least", need, f"the {what} the defender lost (combat.results exchange)")
        else:
            acc.check("exchange_at_least", 0, f"{cell or 'no effect'} is no exchange (combat.results exchange)")
    if "may_advance" in acc.ex.states:
        pending = [t for t in s.tasks if t.kind != "advance"]
        adv = next((t for t in s.tasks if t.kind == "advance"), None)
        if pending:
            acc.skip("may_advance", f"the attacker has {pending[0].kind} to settle first; who survives is his choice")
        else:
            acc.use("path:rules.retreat.advance" if not s.rules.result_advance else "path:combat.results")
            acc.check(
                "may_advance", [] if adv is None else C._advancers(s, adv), "advance after combat", unordered=True
            )


@handles(K.HEX)
def ex_setup_hexes(ctx: Context, acc: Acc) -> None:
    """``given: {unit}``, states ``hexes``: where the unit may set up (its hex, or its set-up zone's hexes)."""
    if not acc.has("unit") or "hexes" not in acc.ex.states or acc.has("units"):
        return
    from ..rules.kit import setup as kit_setup

    uid = str(acc.given("unit"))
    if uid not in ctx.units:
        raise KeyError(f"unit {uid!r} is not in the data")
    acc.use(f"unit:{uid}")
    st = next(x for x in kit_setup.starts(ctx.game) if x.unit == uid and x.copy == 0)
    how = {"hex": "its set-up hex", "zone": f"the hexes of set-up zone {st.zone}"}.get(st.how, f"it starts by {st.how}")
    acc.check("hexes", list(st.hexes), f"units[{uid}]: {how}", unordered=True, how="data")
