"""Sentences read more than one way: an example with ``readings`` is recomputed once per reading, and a value that
disagrees with the rules is an error only when every reading disagrees.

A worked example's sentence can attach a phrase to more than one word (a unit moves to 1918 and back into an
enemy's zone of control, and the sentence names hex 1919: is 1919 where the unit ends, or where the enemy
stands?).  The data then gives each reading its own ``given`` and ``states`` (:class:`forge.model.Reading`), on
top of what the readings share.  Each reading is
recomputed on its own, with nothing reported; a reading *disagrees* when a value it states differs from what the
rules give, or when it makes the example impossible under the rules (an ``example-illegal``).  Then:

* some reading agrees (nothing it states disagrees): the first such reading is the example as reported -- its
  values are counted, its unchecked values listed -- and each reading that disagrees is quoted in one
  ``example-reading`` warning (:mod:`.policy`): the book is not wrong on every reading of its sentence;
* every reading disagrees: the first reading is reported as any example is (its errors stand), and each error
  says that every reading disagrees, with what the others give.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace

from .. import model as m
from ..errors import Finding
from .core import Acc, Context, show
from .policy import severity

__all__ = ["check_readings", "read", "reading_examples"]


def read(ex: m.Example, reading: m.Reading) -> m.Example:
    """``ex`` as one reading of its sentence: the reading's ``given`` and ``states`` over the example's own."""
    return ex.model_copy(
        update={
            "given": {**ex.given, **reading.given},
            "states": {**ex.states, **reading.states},
            "readings": [],
        }
    )


def reading_examples(ex: m.Example) -> list[m.Example]:
    """Every reading of ``ex`` as an example of its own (``[ex]`` when it is read one way only)."""
    return [read(ex, r) for r in ex.readings] if ex.readings else [ex]


def _scratch(ctx: Context) -> Context:
    """A copy of ``ctx`` whose collections are fresh: a reading recomputed in it reports nothing to the game."""
    s = copy.copy(ctx)
    s.findings = []
    s.implied = defaultdict(list)
    s.passed = {}
    s.claims = []
    s.choices = set()
    s.uses = {}
    return s


def _disagreements(acc: Acc, found: list[Finding]) -> list[str]:
    """What disagrees with the rules on one reading, in words (empty: nothing does)."""
    out = [
        f"{key} = {show(stated)}, the rules give {show(computed)}{' (' + note + ')' if note else ''}"
        for key, stated, computed, note in acc.mismatches
    ]
    out += [f"cannot recompute the example: {msg}" for msg in acc.invalid]
    out += [_strip(f, acc.ex.id) for f in found if severity(f) != "info"]
    return out


def _strip(f: Finding, ref: str) -> str:
    return f.message[len(ref) + 2 :] if f.message.startswith(f"{ref}: ") else f.message


def check_readings(
    ctx: Context,
    ex: m.Example,
    recompute: Callable[[Context, m.Example], Acc],
    report: Callable[[Context, Acc], None],
) -> None:
    """Recompute every reading of ``ex`` with ``recompute`` and report with ``report`` (the example checker's own,
    passed in so that this module does not import it back) as the module doc says."""
    outcomes = []
    for k, r in enumerate(ex.readings, 1):
        s = _scratch(ctx)
        acc = recompute(s, read(ex, r))
        outcomes.append((k, r, _disagreements(acc, s.findings)))
    agree = [o for o in outcomes if not o[2]]
    if agree:
        k, chosen, _ = agree[0]
        report(ctx, recompute(ctx, read(ex, chosen)))
        rest = [o for o in outcomes if o[2]]
        if rest:
            lines = "; ".join(f"on reading {j} ({r.reading}): {', '.join(d)}" for j, r, d in rest)
            ctx.add(
                "example-reading",
                ex.rule,
                f"{ex.id}: the book's sentence reads {len(outcomes)} ways. On reading {k} ({chosen.reading}) nothing "
                f"it states disagrees with the rules, so the book is not wrong on every reading; {lines}",
                ref=ex.id,
                source_line=ex.source_line,
                reading=str(k),
            )
        return
    start = len(ctx.findings)
    report(ctx, recompute(ctx, read(ex, ex.readings[0])))
    others = "; ".join(f"reading {j} ({r.reading}): {', '.join(d)}" for j, r, d in outcomes[1:])
    tail = (
        f"; the sentence reads {len(outcomes)} ways and every reading disagrees with the rules (reading 1: "
        f"{ex.readings[0].reading}; {others})"
    )
    for i in range(start, len(ctx.findings)):
        f = ctx.findings[i]
        if severity(f) != "info" and f.kind != "example-doubt":
            ctx.findings[i] = replace(f, message=f.message + tail, extra={**f.extra, "readings": str(len(outcomes))})
