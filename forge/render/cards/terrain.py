"""The terrain effects chart (a sample of each terrain beside its movement cost and combat effect, the
named hexsides) and every other table of the game (weather, river crossing, movement factors ...)."""

from __future__ import annotations

from ..blocks import Block

from ...model import Game, TerrainKind, Unknown
from ..style import combat_facts
from .styles import esc, heading, note, _num, _side_name, Styles, NO_MOVE_EFFECT, NO_MOVE_EFFECT_NOTE, UNKNOWN_NOTE
from .flowables import Swatch
from .tables import auto_widths, grid_table, write_in, WRITE_IN_NOTE


def _move_cost(v: object) -> str:
    if isinstance(v, Unknown):
        return "?"
    return _num(v)


def terrain_blocks(game: Game, st: Styles, avail: float) -> list[Block]:
    """The terrain effects chart, printed from ``game.terrain``."""
    if not game.terrain:
        return []
    classes = game.game.mobility_classes
    rows = []
    unknown = no_effect = False
    for tid, t in game.terrain.items():
        moves = []
        costs = t.costs
        for cls in [*classes, *[k for k in costs if k not in classes]]:
            if cls in costs:
                v = _move_cost(costs[cls])
                unknown |= v == "?"
                moves.append(v if len(classes) == 1 and cls == classes[0] else f"{esc(cls)}: {v}")
        if t.movement == "none":
            moves.append(NO_MOVE_EFFECT)
            no_effect = True
        elif not costs:
            moves.append("?")
            unknown = True
        move_txt = "<br/>".join(moves)
        if t.movement_note:
            move_txt += f'<br/><font size="6">{esc(t.movement_note)}</font>'
        ce = t.combat
        facts = [esc(f) for f in combat_facts(ce, lambda sid: _side_name(game, sid))]
        combat = esc(ce.text) if ce.text else "; ".join(facts)
        if ce.text and facts:
            combat += f'<br/><font size="6">[{"; ".join(facts)}]</font>'
        name = f"<b>{esc(t.name)}</b>"
        if t.kind is not TerrainKind.HEX:
            name += f'<br/><font size="6">{esc(t.kind.value)}</font>'
        swatch = Swatch(t.colour, t.pattern.value, t.kind, st, game=game, tid=tid)
        rows.append([swatch, name, move_txt, combat or "-", esc(t.rule or "")])
    head = ["", "Terrain", "Movement cost" + ("" if len(classes) == 1 else " by class"), "Combat", "Rule"]
    widths = auto_widths(head, rows, avail, flex=3, size=st.cell.size)
    out: list[Block] = [heading(st, "Terrain effects"), grid_table(st, head, rows, avail, widths=widths)]
    if unknown:
        out.append(note(st, UNKNOWN_NOTE, table_note=True))
    if no_effect:
        out.append(note(st, NO_MOVE_EFFECT_NOTE, table_note=True))
    named = named_hexsides(game)
    if named:
        out.append(note(st, "<b>Named hexsides</b> (between the hexes given): " + esc(named), table_note=True))
    return out


def named_hexsides(game: Game) -> str:
    """The named hexsides (a river's name) and where they lie, in map order: ``Turiya B7/B6; Tiassmin D7/D6``.
    A name too long for a hexside's edge of the map goes with the terrain chart, where the rules that use it are
    read, and each name is said once with every hexside that bears it."""
    by_name: dict[str, list[str]] = {}
    for hs in game.map.hexsides:
        if hs.name:
            by_name.setdefault(hs.name, []).append(f"{hs.between[0]}/{hs.between[1]}")
    return "; ".join(f"{name} {', '.join(where)}" for name, where in by_name.items())


def table_blocks(game: Game, st: Styles, avail: float) -> list[Block]:
    """Every other table of the game (weather, river crossing, movement factors, mud roll ...)."""
    out: list[Block] = []
    for t in game.tables:
        n = len(t.columns)
        # a cell the rules do not give is an empty box to write the published value in, as on the CRT
        cells = write_in([list(r.cells) for r in t.rows])
        rows = [
            [f"<b>{esc(r.label)}</b>"] + [esc(x) for x in c] + [""] * (n - len(c))
            for r, c in zip(t.rows, cells, strict=True)
        ]
        block: list[Block] = [
            heading(st, t.title, t.rule),
            grid_table(st, [esc(t.row_header)] + [esc(c) for c in t.columns], rows, avail, centre_from=1),
        ]
        for n_ in t.notes:
            block.append(note(st, esc(n_), table_note=True))
        if any(x.strip() == "?" for r in t.rows for x in r.cells):
            block.append(note(st, WRITE_IN_NOTE, table_note=True))
        out += block
    return out
