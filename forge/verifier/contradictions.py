"""Rule against rule: statements that something may, or may not, be done under a condition (``rules.permissions``)
compared pairwise.

A statement forbids or permits some actions, for a side or both, under a condition of the shared vocabulary
(:class:`forge.model.Condition`).  Two statements of opposite ``allowed`` that share an action and a side, whose
conditions can hold at once (no field on which both name values and none in common), say opposite things of one
situation: the book contradicts itself, reported once per pair as a ``rule-contradiction`` warning at the later
statement, quoting both book lines.  A pair the data marks as rule and exception (``exception_to``) is none: the
book makes the one an exception to the other.
"""

from __future__ import annotations

from .. import model as m
from .core import Context

__all__ = ["can_hold_together", "check_contradictions", "contradictions"]

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


def _said(p: m.Permission) -> str:
    where = f"rule {p.rule}" if p.rule else p.id
    line = f" (line {p.source_line})" if p.source_line else ""
    who = f"{p.side}: " if p.side else ""
    verb = "permits" if p.allowed else "forbids"
    return f"{where}{line} {verb} {who}{', '.join(p.actions)} when {_condition_words(p.when)}"
