"""Soundness cross-checks: facts the data holds twice must agree, and the worked examples must be possible.

A rulebook states many facts twice -- a terrain's column shift on the terrain chart and in the CRT's shift list, a
unit's arrival on the turn track and in a special rule, a town's hex on the map and in the rules' text -- and the
data keeps both, because both are printed.  :func:`check_crosscheck` compares each pair.  The severity follows the
policy (:mod:`.policy`): a difference is an **error** when one of the two values is what the engine (or a printed
component) uses, since the rules as encoded then give another value than the book in the other place; it is a
**warning** when neither drives anything and both are the book's own words (the book contradicts itself).

=====================  ========  ==================================================================================
kind                   severity  why that severity
=====================  ========  ==================================================================================
``terrain-shift``      error     the CRT shift list's value is the one the engine applies to the column, so a
                                 terrain chart that says otherwise disagrees with the encoded rules; so does a
                                 river shift whose condition (half/all across) contradicts the chart
``terrain-modifier``   error     the engine adds the terrain chart's defence effect and the modifiers both: a
                                 modifier naming the terrain with another value changes the computed strength
``unit-entry``         error     the unit's ``entry`` (or ``setup``) is what the engine schedules and the turn track
                                 prints; a rule with the same number, or a turn mark of it, that says otherwise
                                 comes from the same rule of the book, so the encoding disagrees with the book
``unit-entry-text``    warning   a special rule of another number names the unit's arrival on other turns: two
                                 places of the book disagree
``place-name``         error     the map's hex names are printed on the map and resolve every place an example
                                 names; a "Name (hex)" of the rules' text that puts the place elsewhere disagrees
                                 with what is printed
``place-duplicate``    warning   two hexes carry one name and no ``map.places`` entry says it is one place
``example-illegal``    warning   a worked example is impossible under the book's own rules (a unit on the map
                                 before it arrives, an attacker not next to the defender): a self-contradiction
=====================  ========  ==================================================================================

Where a position, a turn or a terrain is unknown, these checks say nothing: they report only what the data
decides.  The example handlers here (:func:`ex_legal`, :func:`ex_places`) read the example's context keys
(attackers, defenders, unit, turn, hexes), so a mismatch another handler computes for such an example is an
``example-mismatch``, not downgraded for "inputs the engine does not model".
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from .. import model as m
from ..notation import fraction
from .core import Acc, Context, handles

__all__ = ["NAME_KEYS", "check_crosscheck", "check_places", "hex_names", "place_hexes"]

K = m.ExampleKind

NAME_KEYS = ("name", "town", "city", "place", "at", "arrives")
"""``given``/``states`` keys that name a place (by name, or by label when the value is a hex on the map)."""

_CLAIM = re.compile(r"((?:[A-ZÀ-Þ][\w'’-]*\s+)*[A-ZÀ-Þ][\w'’-]*)\s*\(([^()]{1,80})\)")
_SPLIT = re.compile(r"\s*(?:/|,|\bor\b|\band\b)\s*")
_BEARING = re.compile(r"\b(?:north|south|east|west|beyond|behind|outside)(?:-?\w+)?\s+(?:of\s+)?(?:the\s+)?$", re.I)
"""Text before a name whose bracketed hexes are then where the sentence's subject lies, not the named place
("bridgeheads south of Kiev (1714, 3223, 3323)")."""


def check_crosscheck(ctx: Context) -> None:
    """Every cross-check of values the data holds twice (see the module's table)."""
    _terrain_shifts(ctx)
    _terrain_modifiers(ctx)
    _unit_entries(ctx)
    _places(ctx)


# ================================================================================================ places, helpers
def _canon(ctx: Context, label: Any) -> str | None:
    """A hex label in the map's own spelling, None when it is not a hex on the map."""
    c = ctx.cell(str(label))
    return None if c is None else ctx.grid.label(c)


def hex_names(ctx: Context) -> dict[str, str]:
    """Canonical label -> the name the map gives the hex."""
    out = {}
    for label, info in ctx.game.map.hexes.items():
        c = _canon(ctx, label)
        if c is not None and info.name:
            out[c] = info.name
    return out


def place_hexes(ctx: Context, name: str) -> set[str]:
    """The hexes the map names ``name`` (case-insensitive), with a declared place's hexes."""
    key = name.strip().casefold()
    found = {h for h, n in hex_names(ctx).items() if n.casefold() == key}
    for pname, labels in ctx.game.map.places.items():
        if pname.casefold() == key:
            found |= {c for x in labels if (c := _canon(ctx, x)) is not None}
    return found


def _names_of(ctx: Context, label: str) -> set[str]:
    """Every name the map gives a hex: its own and the places that hold it (case-folded)."""
    out = set()
    if (n := hex_names(ctx).get(label)) is not None:
        out.add(n.casefold())
    for pname, labels in ctx.game.map.places.items():
        if label in {_canon(ctx, x) for x in labels}:
            out.add(pname.casefold())
    return out


def check_places(ctx: Context, acc: Acc, *, how: str = "data") -> None:
    """An example's place claims against the map: a named place and the hex it ``states`` (name -> hex), a hex and
    the name it states (hex -> name), and for a ``unit`` with a ``turn`` its arrival (``arrives``: the entry turn
    and hex) or its presence (``at``: not before it enters)."""
    g, st = acc.ex.given, acc.ex.states
    if "unit" in g and any(k in g or k in st for k in NAME_KEYS):
        acc.has("unit")  # the subject of the place claim, not an input the comparison depends on
    _named_hexes(ctx, acc)
    # name -> hex
    for key in NAME_KEYS:
        if key not in g:
            continue
        acc.has(key)
        if "hex" not in st:
            continue
        value = str(g[key])
        if _canon(ctx, value) is not None or _NAMED_HEX.fullmatch(value.strip()):
            continue  # a label, not a name; or a name with its hex (_named_hexes)
        found = place_hexes(ctx, value)
        acc.use(*(f"hex:{h}" for h in sorted(found)))
        stated = _canon(ctx, st["hex"])
        if not found:
            acc.skip("hex", f"the map names no hex {value!r}")
        elif stated in found:
            acc.check_value("hex", st["hex"], st["hex"], how=how)
        else:
            acc.check_value(
                "hex", st["hex"], sorted(found)[0] if len(found) == 1 else sorted(found), "map.hexes by name", how=how
            )
    # hex -> name
    if "hex" in g and _canon(ctx, g["hex"]) is not None:
        acc.has("hex")
        label = _canon(ctx, g["hex"])
        assert label is not None
        acc.use(f"hex:{label}")
        names = _names_of(ctx, label)
        for key in NAME_KEYS:
            if key not in st:
                continue
            if not names:
                acc.skip(key, f"the map gives {label} no name")
            elif str(st[key]).strip().casefold() in names:
                acc.check_value(key, st[key], st[key], how=how)
            else:
                own = hex_names(ctx).get(label)
                acc.check_value(key, st[key], own if own else sorted(names), "map.hexes", how=how)
    # a unit and a turn
    uid, turn = g.get("unit"), g.get("turn")
    if uid is None or not isinstance(turn, int):
        return
    acc.has("unit")
    acc.has("turn")
    u = ctx.units.get(str(uid))
    if u is None or u.entry is None or not isinstance(u.entry.turn, int):
        return
    acc.use(f"unit:{u.id}")
    if "arrives" in g or "enters" in g:
        acc.has("enters")
        acc.check_value("turn", turn, u.entry.turn, f"units.{u.id}.entry.turn", how=how)
        if "hex" in st and u.entry.hex is not None:
            acc.check_value(
                "hex", st["hex"], _canon(ctx, u.entry.hex) or u.entry.hex, f"units.{u.id}.entry.hex", how=how
            )
    elif turn < u.entry.turn:
        ctx.add(
            "example-illegal",
            acc.ex.rule,
            f"{acc.ex.id}: {u.id} is on the map on turn {turn}, but it enters only on turn {u.entry.turn} "
            f"(units[{u.id}].entry)",
            stated=turn,
            computed=u.entry.turn,
            ref=acc.ex.id,
            unit=u.id,
            turn=turn,
            source_line=acc.ex.source_line,
        )


_NAMED_HEX = re.compile(r"(.*\S)\s*\(([^()]+)\)")
"""A place key's value that names a place with its hex: ``Velka (E3)``."""


def _named_hexes(ctx: Context, acc: Acc) -> None:
    """Place claims the name -> hex and hex -> name directions do not cover, each compared with the map: a place key
    whose value names the place with its hex (``at: "Velka (E3)"``, in ``given`` or ``states``), a place key with a
    ``hex`` beside it in ``given``, and a place key with a ``hex`` beside it in ``states`` (no ``given`` hex)."""
    g, st = acc.ex.given, acc.ex.states
    pairs: list[tuple[str, str, str, Any]] = []  # (part, key, name, label)
    for part, d in (("given", g), ("states", st)):
        for key in NAME_KEYS:
            mt = _NAMED_HEX.fullmatch(d[key].strip()) if key in d and isinstance(d[key], str) else None
            if mt and _canon(ctx, mt.group(2)) is not None and _canon(ctx, mt.group(1)) is None:
                pairs.append((part, key, mt.group(1), mt.group(2)))
    for part, d in (("given", g), ("states", st)):
        if "hex" not in d or (part == "states" and "hex" in g):
            continue
        for key in NAME_KEYS:
            if key in d and not any(p == part and k == key for p, k, _, _ in pairs) and _canon(ctx, d[key]) is None:
                pairs.append((part, key, str(d[key]), d["hex"]))
    for part, key, name, label in pairs:
        if part == "given":
            acc.has(key)
        found = place_hexes(ctx, name)
        stated = _canon(ctx, label)
        acc.use(*(f"hex:{h}" for h in sorted(found)))
        if stated is None or not found:
            if part == "states":
                acc.skip(key, f"the map names no hex {name!r}" if not found else f"{label!r} is not a hex on the map")
            continue
        if part == "states" and "hex" in st and st.get(key) == name:  # a name and a hex side by side in states
            acc.skip(key, "names the place whose stated hex is compared with the map", "context")
            acc.check_value("hex", st["hex"], st["hex"] if stated in found else _one(found), "map.hexes by name")
        elif part == "states":
            computed = st[key] if stated in found else f"{name} ({_one(found)})"
            acc.check_value(key, st[key], computed, "map.hexes by name")
        elif stated not in found:
            ctx.add(
                "place-name",
                acc.ex.rule,
                f"examples[{acc.ex.id}].given puts {name} in {stated}, but the map names {', '.join(sorted(found))} "
                f"{name}",
                stated=stated,
                computed=", ".join(sorted(found)),
                ref=f"examples[{acc.ex.id}]",
                place=name,
                key=key,
                source_line=acc.ex.source_line,
            )


def _one(found: set[str]) -> Any:
    return sorted(found)[0] if len(found) == 1 else sorted(found)


@handles(*(k for k in K if k is not K.HEX))
def ex_places(ctx: Context, acc: Acc) -> None:
    """Place claims in examples of every kind but ``hex`` (whose handler, :func:`.ex_map.ex_hex`, does them)."""
    g = acc.ex.given
    if any(k in g or k in acc.ex.states for k in NAME_KEYS):
        check_places(ctx, acc)


def _text_sources(game: m.Game) -> Iterator[tuple[str, str]]:
    """(where, text) for every text of the data that may name a place with its hex."""
    for sr in game.special_rules:
        yield f"special_rules[{sr.rule}]", f"{sr.title}. {sr.summary}"
    for sh in game.combat.shifts:
        yield f"combat.shifts[{sh.id}]", sh.when
    for i, cap in enumerate(game.combat.shift_caps):
        if cap.when:
            yield f"combat.shift_caps[{i}]", cap.when
    for md in game.combat.modifiers:
        yield f"combat.modifiers[{md.id}]", md.when
    for tid, t in game.terrain.items():
        yield f"terrain.{tid}", " ".join(x for x in (t.name, t.combat.text, t.combat.shift_when, t.movement_note) if x)
    for u in game.units:
        if u.entry is not None and u.entry.condition:
            yield f"units[{u.id}].entry.condition", u.entry.condition
    if game.victory is not None:
        yield "victory.summary", game.victory.summary
        for i, p in enumerate(game.victory.points):
            yield f"victory.points[{i}]", p.text
    for sc in game.scenarios:
        if sc.summary:
            yield f"scenarios[{sc.id}]", sc.summary
    for ex in game.examples:
        yield f"examples[{ex.id}]", ex.summary


def _places(ctx: Context) -> None:
    names = hex_names(ctx)
    # places declared over several hexes
    declared: dict[str, set[str]] = {}
    for pname, labels in ctx.game.map.places.items():
        cells = set()
        for x in labels:
            c = _canon(ctx, x)
            if c is None:
                ctx.add(
                    "place-name", None, f"map.places: {pname} lists {x!r}, which is not a hex on the map", ref=pname
                )
                continue
            cells.add(c)
            if (n := names.get(c)) is not None and n.casefold() != pname.casefold():
                ctx.add(
                    "place-name",
                    None,
                    f"map.places puts {pname} in {c}, but the map names {c} {n}",
                    stated=pname,
                    computed=n,
                    ref=pname,
                    hex=c,
                )
        declared[pname.casefold()] = cells
    # one name on several hexes
    by_name: dict[str, list[str]] = defaultdict(list)
    for label, n in names.items():
        by_name[n.casefold()].append(label)
    for key, labels in sorted(by_name.items()):
        if len(labels) > 1 and not set(labels) <= declared.get(key, set()):
            shown = names[labels[0]]
            ctx.add(
                "place-duplicate",
                None,
                f"{len(labels)} hexes are named {shown} ({', '.join(sorted(labels))}); if it is one place over "
                "several hexes, declare it in map.places, else one of the names is wrong",
                ref=shown,
                hexes=", ".join(sorted(labels)),
            )
    # "Name (hex)" in the rules' text
    known = set(by_name) | set(declared)
    for where, text in _text_sources(ctx.game):
        for mt in _CLAIM.finditer(text):
            parts = [p for p in _SPLIT.split(mt.group(2).strip()) if p]
            if _BEARING.search(text[: mt.start(1)]):
                continue
            maybe = [_canon(ctx, p) for p in parts]
            labels = [lb for lb in maybe if lb is not None]
            if not parts or len(labels) != len(parts):
                continue
            words = mt.group(1).split()
            cands = [" ".join(words[i:]) for i in range(len(words))]
            name = next((c for c in cands if c.casefold() in known), None)
            if name is not None:
                expected = place_hexes(ctx, name)
                bad = [lb for lb in labels if lb not in expected]
                if bad:
                    there = "; ".join(f"{b} is {names[b]}" for b in bad if b in names)
                    ctx.add(
                        "place-name",
                        None,
                        f"{where} puts {name} in {', '.join(map(str, bad))}, but the map names "
                        f"{', '.join(sorted(expected))} {name}{' (' + there + ')' if there else ''}",
                        stated=", ".join(map(str, labels)),
                        computed=", ".join(sorted(expected)),
                        ref=where,
                        place=name,
                    )
                continue
            for lb in labels:
                own = names.get(str(lb))
                if own is None:
                    continue
                close = [c for c in cands if difflib.SequenceMatcher(None, c.casefold(), own.casefold()).ratio() >= 0.8]
                if close:
                    ctx.add(
                        "place-name",
                        None,
                        f"{where} calls {lb} {close[0]}, but the map names it {own}",
                        stated=close[0],
                        computed=own,
                        ref=where,
                        hex=lb,
                    )


# ================================================================================================ terrain
def _keywords(tid: str, t: m.TerrainType) -> set[str]:
    """Words that name a terrain in a shift's text: its id, its name and the name's bracketed part."""
    out = {tid.replace("_", " ").casefold()}
    name = t.name.casefold()
    out.add(re.sub(r"\s*\(.*?\)", "", name).strip())
    out.update(x.strip() for x in re.findall(r"\((.*?)\)", name))
    return {x for x in out if x}


def _mentions(text: str, words: set[str]) -> bool:
    low = text.casefold()
    return any(re.search(rf"\b{re.escape(w)}\b", low) for w in words)


def _side_words(ctx: Context, side: str) -> set[str]:
    s = next((x for x in ctx.game.game.sides if x.id == side), None)
    words = {side.casefold()}
    if s is not None:
        words |= {s.name.casefold(), s.name.casefold() + "s"}
    return words


def _terrain_shifts(ctx: Context) -> None:
    shifts = ctx.combat.shifts
    river_conds = {"half-across-river": "half", "all-across-river": "all"}
    for tid, t in sorted(ctx.game.terrain.items()):
        eff = t.combat
        words = _keywords(tid, t)
        by_id = ctx.shifts.get(tid)
        if t.kind is m.TerrainKind.HEXSIDE:
            tied = [by_id] if by_id is not None else []
            if not tied and ctx.is_river(tid):
                tied = [s for s in shifts if s.condition in river_conds]
            for s in tied:
                if eff.shift and s.shift != eff.shift:
                    _shift_finding(ctx, tid, eff.shift, s, "")
                if eff.shift_when and s.condition in river_conds:
                    says = "half" if "half" in eff.shift_when.casefold() else "all"
                    if says != river_conds[s.condition]:
                        ctx.add(
                            "terrain-shift",
                            s.rule or t.rule,
                            f"the terrain chart applies the {tid} shift when {eff.shift_when}, but the shift "
                            f"{s.id} is conditioned on {s.condition}",
                            stated=eff.shift_when,
                            computed=s.condition,
                            ref=f"terrain.{tid}",
                            shift=s.id,
                        )
            continue
        terrain_shifts = [s for s in shifts if s.condition == "defender-terrain" and s.id not in ctx.game.terrain]
        if eff.by_side:
            for side, sub in sorted(eff.by_side.items()):
                sw = _side_words(ctx, side)
                cands = [
                    s
                    for s in terrain_shifts
                    if _mentions(s.when, words) and (side in s.id.split("-") or _mentions(s.when, sw))
                ]
                if sub.shift and cands and all(s.shift != sub.shift for s in cands):
                    _shift_finding(ctx, f"{tid} ({side})", sub.shift, cands[0], "")
            continue
        if by_id is not None:
            if by_id.shift != eff.shift:
                _shift_finding(ctx, tid, eff.shift, by_id, "")
            continue
        if not eff.shift:
            continue
        cands = [s for s in shifts if s.condition == "defender-terrain" and _mentions(s.when, words)]
        if cands and all(s.shift != eff.shift for s in cands):
            _shift_finding(ctx, tid, eff.shift, cands[0], f" (its text names {tid})")


def _shift_finding(ctx: Context, what: str, chart: int, s: m.Shift, why: str) -> None:
    ctx.add(
        "terrain-shift",
        s.rule,
        f"the terrain chart gives {what} a shift of {chart:+d}, the CRT's shift list gives {s.id}{why} "
        f"{s.shift:+d}, which the engine applies",
        stated=chart,
        computed=s.shift,
        ref=f"terrain.{what.split(' ')[0]}",
        shift=s.id,
    )


def _terrain_modifiers(ctx: Context) -> None:
    for tid, t in sorted(ctx.game.terrain.items()):
        eff = t.combat
        mods = [
            md
            for md in ctx.combat.modifiers
            if md.role == "defender" and md.terrain and tid in md.terrain and md.unit_types is None
        ]
        mults = [md for md in mods if md.multiply is not None]
        adds = [md for md in mods if md.add is not None]
        if eff.defense_multiplier is not None and mults:
            mine = fraction(eff.defense_multiplier)
            vals = [fraction(md.multiply) for md in mults if md.multiply is not None]
            prod = Fraction(1)
            for v in vals:
                prod *= v
            if mine not in vals and mine != prod:
                _mod_finding(ctx, tid, "multiplies the defence by", eff.defense_multiplier, mults[0], mults[0].multiply)
        if eff.defense_bonus and adds:
            vals_a = [md.add for md in adds if md.add is not None]
            if eff.defense_bonus not in vals_a and eff.defense_bonus != sum(vals_a):
                _mod_finding(ctx, tid, "adds to the defence", eff.defense_bonus, adds[0], adds[0].add)


def _mod_finding(ctx: Context, tid: str, what: str, chart: Any, md: m.Modifier, value: Any) -> None:
    ctx.add(
        "terrain-modifier",
        md.rule,
        f"the terrain chart's {tid} {what} {chart}, the modifier {md.id} naming {tid} gives {value}; "
        "the engine applies both",
        stated=chart,
        computed=value,
        ref=f"terrain.{tid}",
        modifier=md.id,
    )


# ================================================================================================ units
_ARRIVAL = re.compile(r"\b(arriv|enter|reinforce|appear)", re.IGNORECASE)


def _unit_entries(ctx: Context) -> None:
    game = ctx.game
    numbers = {t.number for t in game.turns.turns}
    for u in game.units:
        e = u.entry
        if e is None:
            continue
        if u.setup is not None:
            ctx.add(
                "unit-entry",
                e.rule,
                f"{u.id} both sets up in {u.setup} and enters as a reinforcement"
                f"{' on turn ' + str(e.turn) if isinstance(e.turn, int) else ''}; the engine places it at {u.setup}",
                stated=e.turn if isinstance(e.turn, int) else None,
                computed=u.setup,
                ref=u.id,
            )
        if not isinstance(e.turn, int):
            continue
        if e.turn not in numbers:
            ctx.add(
                "unit-entry",
                e.rule,
                f"{u.id} enters on turn {e.turn}, which is not on the turn track (turns {min(numbers)}-{max(numbers)})",
                computed=e.turn,
                ref=u.id,
            )
        for sr in game.special_rules:
            if not sr.turns or e.turn in sr.turns:
                continue
            same_rule = e.rule is not None and sr.rule == e.rule
            text = f"{sr.title} {sr.summary}"
            named = u.name.casefold() in text.casefold() and _ARRIVAL.search(sr.summary) is not None
            if not (same_rule or named):
                continue
            ctx.add(
                "unit-entry" if same_rule else "unit-entry-text",
                sr.rule,
                f"{u.id} enters on turn {e.turn} (units[{u.id}].entry), but special rule {sr.rule} "
                f"({sr.title}) {'is its entry rule and ' if same_rule else 'names its arrival and '}"
                f"applies on turn(s) {', '.join(map(str, sr.turns))}",
                stated=sr.turns,
                computed=e.turn,
                ref=u.id,
            )
        if e.rule is not None:
            marked = [t.number for t in game.turns.turns if e.rule in t.marks]
            if marked and e.turn not in marked:
                ctx.add(
                    "unit-entry",
                    e.rule,
                    f"{u.id} enters on turn {e.turn} by rule {e.rule}, but the turn track marks {e.rule} on "
                    f"turn(s) {', '.join(map(str, marked))} only",
                    stated=marked,
                    computed=e.turn,
                    ref=u.id,
                )


# ================================================================================================ example legality
def _start_hex(ctx: Context, uid: str) -> str | None:
    """Where a unit stands on turn 1: its setup hex, or its entry hex when it enters on turn 1."""
    u = ctx.units.get(uid)
    if u is None:
        return None
    if u.setup is not None:
        return u.setup
    return u.entry.hex if u.entry is not None and u.entry.turn == 1 else None


def _ids(v: Any) -> list[str]:
    if v is None:
        return []
    return [str(x) for x in v] if isinstance(v, list) else [str(v)]


@handles(K.ODDS, K.SHIFTS, K.COMBAT, K.MAGNITUDE, K.RETREAT)
def ex_legal(ctx: Context, acc: Acc) -> None:
    """Is the combat possible: every unit it names on the map on its turn, every attacker next to the defender
    (or within the example's ``range``) when the example gives the attackers' hexes?  Unknown positions or turns
    decide nothing."""
    ex = acc.ex
    turn = acc.given("turn")
    attackers = _ids(acc.given("attackers"))
    roles = {"attackers": "attacks", "defenders": "defends", "unit": "fights", "units": "fight"}
    if isinstance(turn, int):
        for key, verb in roles.items():
            for uid in _ids(acc.given(key)):
                u = ctx.units.get(uid)
                if u is None or u.entry is None or not isinstance(u.entry.turn, int) or u.setup is not None:
                    continue
                if turn < u.entry.turn:
                    where = f" at {u.entry.hex}" if u.entry.hex else ""
                    ctx.add(
                        "example-illegal",
                        ex.rule,
                        f"{ex.id}: {uid} {verb} on turn {turn}, but it enters only on turn {u.entry.turn}{where} "
                        f"(units[{uid}].entry)",
                        stated=turn,
                        computed=u.entry.turn,
                        ref=ex.id,
                        unit=uid,
                        turn=turn,
                        source_line=ex.source_line,
                    )
    dhex, hexes = acc.given("defender_hex"), acc.given("attacker_hexes")
    acc.given("defenders")
    if not hexes and turn == 1 and "position" not in ex.given:
        # no hexes given: on turn 1 the attackers stand where they set up (or enter), which is also where the
        # column's terrain and river shifts are computed from
        placed = [_start_hex(ctx, uid) for uid in attackers]
        hexes = placed if all(placed) else None
    if dhex is None or not hexes or not attackers:
        return
    d = ctx.cell(dhex)
    hx = _ids(hexes)
    if len(hx) == 1:
        hx = hx * len(attackers)
    if d is None or len(hx) != len(attackers):
        return
    reach = ex.given.get("range")
    rng = int(reach) if isinstance(reach, int) and reach > 0 else 1
    cells = "squares" if ctx.game.map.grid.kind is m.GridKind.SQUARE else "hexes"
    if reach is not None:
        acc.given("range")
    for uid, h in zip(attackers, hx, strict=True):
        c = ctx.cell(h)
        if c is None:
            continue
        dist = ctx.grid.distance(c, d)
        if dist == 0 or dist > rng:
            what = (
                "the defender's own hex"
                if dist == 0
                else f"{dist} {cells} away" + ("" if rng == 1 else f" (range {rng})")
            )
            ctx.add(
                "example-illegal",
                ex.rule,
                f"{ex.id}: {uid} attacks {dhex} from {h}, {what}"
                f"{' on turn ' + str(turn) if turn is not None else ''}: attackers must be "
                f"{'next to' if rng == 1 else f'within {rng} {cells} of'} the defender",
                stated=h,
                computed=f"distance {dist}",
                ref=ex.id,
                unit=uid,
                hex=h,
                turn=turn,
                source_line=ex.source_line,
            )
