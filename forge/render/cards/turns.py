"""The sequence of play (phases and their steps), the turn record (each turn's length, date, reinforcements,
replacements, weather and notes) and the special rules by turn."""

from __future__ import annotations

from typing import Any

from ..blocks import Block

from ...model import Game, Phase, Turn
from ... import turnlength as TL
from .styles import esc, heading, note, _num, P, _rule, _side_name, Styles, _turn_list
from .tables import grid_table


STEP_AT = {"start": "At the start", "end": "At the end", "during": "During"}
"""How a phase step's ``at`` reads on the sequence of play."""


def _phase_text(p: Phase) -> str:
    """A phase's "What happens" cell: its summary, then each step that says what is done, in the phase's order
    of start, during and end, each on a line of its own with its rule."""
    lines = [esc(p.summary)] if p.summary else []
    order = {"start": 0, "during": 1, "end": 2}
    for s in sorted((s for s in p.steps if s.text), key=lambda s: order[s.at]):
        rule = f" {_rule(s.rule)}" if s.rule else ""
        lines.append(f"<i>{STEP_AT[s.at]}:</i> {esc(s.text)}{rule}")
    return "<br/>".join(lines)


def sequence_blocks(game: Game, st: Styles, avail: float) -> list[Block]:
    if not game.sequence:
        return []
    rows = [
        [
            str(i),
            f"<b>{esc(p.name)}</b>",
            esc(_side_name(game, p.side)),
            _phase_text(p),
            esc(p.rule or ""),
        ]
        for i, p in enumerate(game.sequence, 1)
    ]
    return [
        heading(st, "Sequence of play"),
        grid_table(st, ["#", "Phase", "Side", "What happens", "Rule"], rows, avail, flex=3),
    ]


def _turn_length(game: Game, t: Turn) -> str:
    """A turn's length where it differs from the scale's days per turn (``2 days``), else empty."""
    if not TL.differs(game, t) or t.length is None:
        return ""
    hours = TL.hours_of(t.length)
    return TL.text(hours) if hours is not None else "?"


def turn_blocks(game: Game, st: Styles, avail: float) -> list[Block]:
    """The turn record: date, weather, reinforcements (from the units' entries), replacements, reminders."""
    tr = game.turns
    reinf = game.reinforcements()
    specials: dict[int, list[str]] = {}
    for sr in game.special_rules:
        for n in sr.turns:
            specials.setdefault(n, []).append(sr.rule)
    cols: list[tuple[str, list[str]]] = [
        ("Turn", []),
        ("Length", []),
        ("Date", []),
        ("Weather", []),
        ("Reinforcements", []),
        ("Replacements", []),
        ("Rules", []),
        ("Note", []),
    ]
    for t in tr.turns:
        units = reinf.get(t.number, [])
        arr = ", ".join(
            u.label
            + (f" ({u.entry.hex})" if u.entry and u.entry.hex else "")
            + ("*" if u.entry and u.entry.condition else "")
            for u in units
        )
        repl = ", ".join(f"{_side_name(game, s)} {_num(v)}" for s, v in sorted(t.replacements.items()))
        marks = list(dict.fromkeys([*t.marks, *specials.get(t.number, [])]))
        values = [
            f"<b>{t.number}</b>",
            esc(_turn_length(game, t)),
            esc(t.date or ""),
            esc(t.weather or ""),
            esc(arr),
            esc(repl),
            esc(", ".join(marks)),
            esc(t.note or ""),
        ]
        for (_, col), v in zip(cols, values, strict=True):
            col.append(v)
    kept = [(h, col) for i, (h, col) in enumerate(cols) if i == 0 or any(col)]  # drop columns the data leaves empty
    head = [h for h, _ in kept]
    rows = [list(r) for r in zip(*[col for _, col in kept], strict=True)]
    out: list[Block] = [
        heading(st, "Turn record", tr.rule),
        grid_table(st, head, rows, avail, flex=len(head) - 1),
    ]
    conditional = [u for us in reinf.values() for u in us if u.entry and u.entry.condition]
    if conditional:
        out.append(
            note(
                st,
                "* arrives only on a condition: "
                + "; ".join(f"{esc(u.label)}: {esc(u.entry.condition)}" for u in conditional if u.entry),
                table_note=True,
            )
        )
    unsched = game.unscheduled()
    if unsched:
        out.append(
            note(
                st,
                "Reinforcements whose turn the rules do not give (?): "
                + ", ".join(esc(f"{u.label} ({u.name})") for u in unsched),
                table_note=True,
            )
        )
    w = tr.weather
    if w is not None:
        txt = f"<b>Weather</b> {_rule(w.rule)}: states {esc(', '.join(w.states))}; starts {esc(w.initial)}."
        if w.table:
            title = next((t.title for t in game.tables if t.id == w.table), w.table)
            txt += f" Rolled on: {esc(title)}."
        if w.summary:
            txt += f" {esc(w.summary)}"
        out.append(P(txt, st.small))
    return out


def special_rule_blocks(game: Game, st: Styles, avail: float) -> list[Block]:
    if not game.special_rules:
        return []

    def key(sr: Any) -> tuple[int, str]:
        return (min(sr.turns) if sr.turns else 10_000, sr.rule)

    # A rule of no particular turn (the pieces, supply, combat ...) is a rule of the game, not a special rule of a
    # turn: it goes in a table of its own, without a Turn column.
    rows, core = [], []
    for sr in sorted(game.special_rules, key=key):
        if not sr.turns:
            core.append([f"<b>{esc(sr.title)}</b>", esc(sr.summary), esc(sr.rule)])
            continue
        rows.append([esc(_turn_list(sr.turns)), f"<b>{esc(sr.title)}</b>", esc(sr.summary), esc(sr.rule)])
    out: list[Block] = []
    if core:
        out += [heading(st, "Rules in brief"), grid_table(st, ["Title", "Summary", "Rule"], core, avail, flex=1)]
    if rows:
        out += [
            heading(st, "Special rules by turn"),
            grid_table(st, ["Turn", "Title", "Summary", "Rule"], rows, avail, flex=2),
        ]
    return out
