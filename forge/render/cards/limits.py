"""Limits (how many of what, per turn or per hex), stacking, victory (points, levels, handicaps) and the
scenarios."""

from __future__ import annotations

from ..blocks import Block

from ...model import Game, StackAllowance, UnitSelector, Unknown, VictoryLevel
from .styles import esc, heading, note, _num, P, _side_name, Styles, UNKNOWN_NOTE
from .tables import grid_table


def limit_rows(game: Game) -> list[list[str]]:
    """The limits card's rows as plain text (what, side, at most / at least, per, rule); the read-back uses the
    same rows."""
    lim = game.rules.limits
    rows = []
    for x in lim.counts if lim else []:
        bound = " ".join(
            part
            for part in (
                f"at least {x.min}" if x.min is not None else "",
                f"at most {_num(x.max)}" if x.max is not None else "",
            )
            if part
        )
        side = _side_name(game, x.side) if x.side else "each side"
        rows.append([x.what, side, bound, x.per.replace("-", " "), x.rule or ""])
    return rows


def limit_blocks(game: Game, st: Styles, avail: float) -> list[Block]:
    """How many of a thing the rules allow (markers, attacks, rebuilds ...), from ``rules.limits``."""
    rows = limit_rows(game)
    if not rows:
        return []
    return [
        heading(st, "Limits"),
        grid_table(
            st,
            ["Limit", "Side", "Count", "Per", "Rule"],
            [[esc(a), esc(b), f"<b>{esc(c)}</b>", esc(d), esc(e)] for a, b, c, d, e in rows],
            avail,
            flex=0,
        ),
    ]


def _selector_words(game: Game, sel: UnitSelector) -> str:
    """Units a stacking selector covers, in words: ``German Tiger, StuG``, ``Soviet artillery``, ``hq, leader``."""
    labels = {u.id: u.label for u in game.units}
    parts = [labels.get(u, u) for u in sel.units]
    kinds = " ".join(x for x in (", ".join(str(t) for t in sel.sizes), ", ".join(str(t) for t in sel.types)) if x)
    if kinds:
        parts.append(kinds)
    words = ", ".join(parts) or "all units"
    return f"{_side_name(game, sel.side)} {words}" if sel.side else words


def _allowance_words(a: StackAllowance, measure: str) -> str:
    def counts(d: dict[str, int]) -> str:
        one = measure.removesuffix("s")
        return ", ".join(
            f"{n} {one if n == 1 else measure}" if cls == "total" else f"{n} {cls}" for cls, n in d.items()
        )

    txt = f"at most {counts(a.max)}"
    if a.min:
        txt += f" with at least {counts(a.min)}"
    return txt


def stacking_lines(game: Game) -> list[str]:
    """The stacking rules as plain sentences, generated from ``rules.stacking``: the limit of each side (one of
    its allowances), what is not counted, when the limit is checked (``when``); the read-back uses the same."""
    sr = game.rules.stacking
    if sr is None:
        return []
    out = ["No stacking limit."] if sr.unlimited else []
    for lim in sr.limits:
        who = _side_name(game, lim.side) if lim.side else "Each side"
        classes = any(k != "total" for a in lim.allow for k in a.max)
        measure = lim.measure
        allow = "; or ".join(_allowance_words(a, measure) for a in lim.allow)
        counted = f" ({measure} counted)" if classes else ""
        rule = f" ({lim.rule})" if lim.rule and lim.rule != sr.rule else ""
        out.append(f"{who}: {allow} in a hex{counted}{rule}.")
    members: dict[str, list[str]] = {}
    for c in sr.classes:
        members.setdefault(c.id, []).append(_selector_words(game, c))
    if members:
        out += [f"{cid.capitalize()}: {'; '.join(who)}." for cid, who in members.items()]
        out.append(f"{sr.default_class.capitalize()}: any other unit.")
    if sr.exempt:
        out.append("Not counted: " + "; ".join(_selector_words(game, x) for x in sr.exempt) + ".")
    if sr.enemy_together:
        out.append("Opposing units may share a hex.")
    if sr.when:
        out.append(f"Checked {sr.when}.")
    return out


def stacking_blocks(game: Game, st: Styles, avail: float) -> list[Block]:
    """The stacking rule, from ``rules.stacking`` (limits by side, exemptions, when it is checked)."""
    lines = stacking_lines(game)
    if not lines:
        return []
    sr = game.rules.stacking
    return [heading(st, "Stacking", sr.rule if sr else None), P("<br/>".join(esc(x) for x in lines), st.body)]


def level_words(game: Game, lv: VictoryLevel) -> tuple[str, str, str]:
    """A victory level as the card prints it: its name, who it favours, its final score (``32 or more``,
    ``28 to 31``, ``27 or less``) and/or its condition in words."""
    name = lv.id.replace("-", " ").replace("_", " ")
    name = name[:1].upper() + name[1:]
    who = f"{_side_name(game, lv.side)} wins" if lv.side else "Draw"
    if lv.min is not None and lv.max is not None:
        score = str(lv.min) if lv.min == lv.max else f"{lv.min} to {lv.max}"
    elif lv.min is not None:
        score = f"{lv.min} or more"
    elif lv.max is not None:
        score = f"{lv.max} or less"
    else:
        score = ""
    if lv.condition:
        score = f"{score}; {lv.condition}" if score else lv.condition
    return name, who, score


def victory_blocks(game: Game, st: Styles, avail: float) -> list[Block]:
    v = game.victory
    if v is None:
        return []
    out: list[Block] = [heading(st, "Victory", v.rule), P(esc(v.summary), st.body)]
    if v.points:
        rows = [
            [
                esc(p.text),
                f"<b>{_num(p.vp)}</b>",
                esc(_side_name(game, p.side) if p.side else "each side"),
                esc(p.rule or ""),
            ]
            for p in v.points
        ]
        out.append(grid_table(st, ["Victory points for", "VP", "Scored by", "Rule"], rows, avail, flex=0))
    if v.handicap:
        out.append(
            note(
                st,
                "Added at the end: "
                + ", ".join(f"{esc(_side_name(game, s))} +{n} VP" for s, n in sorted(v.handicap.items())),
                table_note=bool(v.points),  # the VP table's totals
            )
        )
    if any(isinstance(p.vp, Unknown) for p in v.points):
        out.append(note(st, UNKNOWN_NOTE, table_note=True))
    if v.levels:
        rows = [
            [f"<b>{esc(name)}</b>", esc(who), esc(score), esc(lv.rule or "")]
            for lv in v.levels
            for name, who, score in [level_words(game, lv)]
        ]
        out.append(grid_table(st, ["Victory level", "Result", "Final score or condition", "Rule"], rows, avail, flex=2))
    return out


def scenario_blocks(game: Game, st: Styles, avail: float) -> list[Block]:
    if not game.scenarios:
        return []
    rows = []
    for s in game.scenarios:
        turns = f"{s.first_turn}-{s.last_turn}" if s.last_turn else f"from {s.first_turn}"
        rows.append([f"<b>{esc(s.name)}</b>", esc(turns), esc(s.summary or ""), esc(s.rule or "")])
    return [
        heading(st, "Scenarios"),
        grid_table(st, ["Scenario", "Turns", "Summary", "Rule"], rows, avail, flex=2),
    ]
