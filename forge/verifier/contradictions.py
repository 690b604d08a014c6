"""Rule against rule: statements that something may, or may not, be done under a condition (``rules.permissions``)
compared pairwise.

A statement forbids or permits some actions, for a side or both, under a condition of the shared vocabulary
(:class:`forge.model.Condition`).  Two statements of opposite ``allowed`` that share an action and a side, whose
conditions can hold at once (no field on which both name values and none in common), say opposite things of one
situation: the book contradicts itself, reported once per pair as a ``rule-contradiction`` warning at the later
statement, quoting both book lines.  A pair the data marks as rule and exception (``exception_to``) is none: the
book makes the one an exception to the other.

An example (a step of a worked turn, a worked case) that ``does`` an action is compared with the forbidding
statements too, but only where its own facts meet the statement's condition: its weather (``given.weather``, else
the turn track's weather for ``given.turn``) among the statement's, its ``phase`` among the statement's, and its
``side`` the statement's side.  A fact the example does not fix (a turn whose weather is rolled) decides nothing,
so nothing is reported: the turn may well have had other weather.
"""

from __future__ import annotations

from .. import model as m
from .core import Context

__all__ = ["can_hold_together", "check_contradictions", "contradictions", "forbidden_doings", "meets"]

_LISTS = ("weather", "terrain", "across", "unit_types", "mobility", "phase")
_SCALARS = ("attacker_side", "defender_side", "supply", "role")


def can_hold_together(a: m.Condition | None, b: m.Condition | None) -> bool:
    """Whether some situation meets both conditions (None: always).  A list field holds when any of its values does,
    so two lists exclude each other only when they share no value; two set scalars only when they differ."""
    if a is None or b is None:
        return True
    for f in _LISTS:
        x, y = getattr(a, f), getattr(b, f)
        if x and y and not set(map(str, x)) & set(map(str, y)):
            return False
    return all(getattr(a, f) is None or getattr(b, f) is None or getattr(a, f) == getattr(b, f) for f in _SCALARS)


def _condition_words(c: m.Condition | None) -> str:
    if c is None:
        return "always"
    parts = [f"{f} {'/'.join(map(str, getattr(c, f)))}" for f in _LISTS if getattr(c, f)]
    parts += [f"{f} {getattr(c, f)}" for f in _SCALARS if getattr(c, f) is not None]
    return ", ".join(parts)


def contradictions(perms: list[m.Permission]) -> list[tuple[int, int, list[str]]]:
    """(earlier index, later index, shared actions) for each pair of statements that contradict each other."""
    out = []
    for j, b in enumerate(perms):
        for i in range(j):
            a = perms[i]
            if a.allowed == b.allowed or a.id in b.exception_to or b.id in a.exception_to:
                continue
            if a.side is not None and b.side is not None and a.side != b.side:
                continue
            shared = [x for x in b.actions if x in a.actions]
            if shared and can_hold_together(a.when, b.when):
                out.append((i, j, shared))
    return out


def check_contradictions(ctx: Context) -> None:
    """One ``rule-contradiction`` warning per pair of opposite statements of ``rules.permissions``."""
    perms = ctx.game.rules.permissions
    for i, j, shared in contradictions(perms):
        a, b = perms[i], perms[j]
        no, yes = (a, b) if not a.allowed else (b, a)
        ctx.add(
            "rule-contradiction",
            b.rule or a.rule,
            f"{_said(no)}; {_said(yes)}: both speak of {', '.join(shared)}, and the conditions can hold at once",
            stated=b.summary or _said(b),
            computed=a.summary or _said(a),
            ref=f"rules.permissions[{b.id}]",
            source_line=b.source_line,
            against=a.id,
            other_line=a.source_line,
        )


    for ex_i, ex_j, shared in forbidden_doings(ctx.game):
        ex, no = ctx.game.examples[ex_i], perms[ex_j]
        ctx.add(
            "rule-contradiction",
            ex.rule,
            f"example {ex.id} does {', '.join(shared)} when its turn's facts meet the condition under which "
            f"{_said(no)}",
            stated=f"{ex.id}: {ex.summary}",
            computed=no.summary or _said(no),
            ref=ex.id,
            against=no.id,
            other_line=no.source_line,
        )


def _facts(game: m.Game, ex: m.Example) -> dict[str, str | None]:
    """The facts of a condition an example fixes: weather, phase and side (None: the example does not say); a step
    of a worked turn takes those it does not give from the steps it follows."""
    g = dict(ex.given)
    by_id = {e.id: e for e in game.examples}
    seen = {ex.id}
    step = ex
    while step.follows is not None and step.follows in by_id and step.follows not in seen:
        step = by_id[step.follows]  # an earlier step of the same worked turn: its facts hold unless restated
        seen.add(step.id)
        for k in ("weather", "turn"):  # one worked turn: its weather; phase and side change from step to step
            g.setdefault(k, step.given.get(k))
    weather = g.get("weather")
    turn = g.get("turn")
    if weather is None and isinstance(turn, int) and 1 <= turn <= len(game.turns.turns):
        weather = game.turns.turns[turn - 1].weather
    phase, side = g.get("phase"), g.get("side")
    return {
        "weather": weather if isinstance(weather, str) else None,
        "phase": phase if isinstance(phase, str) else None,
        "side": side if isinstance(side, str) else None,
    }


def meets(facts: dict[str, str | None], p: m.Permission) -> bool:
    """Whether the facts an example fixes meet ``p``'s condition and side, every part of it: a part the example does
    not fix, or a condition on facts an example cannot state (terrain, supply ...), decides nothing (False)."""
    c = p.when
    if p.side is not None and facts["side"] != p.side:
        return False
    if c is None:
        return True
    others = [f for f in (*_LISTS, *_SCALARS, "units") if f not in ("weather", "phase")]
    if any(getattr(c, f) not in (None, [], "all") for f in others):
        return False
    return all(not getattr(c, f) or facts[f] in getattr(c, f) for f in ("weather", "phase"))


def forbidden_doings(game: m.Game) -> list[tuple[int, int, list[str]]]:
    """(example index, statement index, actions) for each example that does what a statement forbids, its facts
    meeting the statement's condition, and no statement recorded as that one's exception permitting the action."""
    perms = game.rules.permissions
    out = []
    for i, ex in enumerate(game.examples):
        does = ex.given.get("does")
        if not does:
            continue
        acts = [str(a) for a in (does if isinstance(does, list) else [does])]
        facts = _facts(game, ex)
        for j, p in enumerate(perms):
            if p.allowed or not meets(facts, p):
                continue
            excepted = {a for q in perms if p.id in q.exception_to and meets(facts, q) for a in q.actions}
            shared = [a for a in acts if a in p.actions and a not in excepted]
            if shared:
                out.append((i, j, shared))
    return out


def _said(p: m.Permission) -> str:
    where = f"rule {p.rule}" if p.rule else p.id
    line = f" (line {p.source_line})" if p.source_line else ""
    who = f"{p.side}: " if p.side else ""
    verb = "permits" if p.allowed else "forbids"
    return f"{where}{line} {verb} {who}{', '.join(p.actions)} when {_condition_words(p.when)}"
