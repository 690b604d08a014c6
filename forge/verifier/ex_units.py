"""Claims about units' steps, compared with the step rule the engine checks the counter mix against
(:class:`forge.model.StepRules`, :mod:`forge.rules.kit.steps`).

Input read from ``given``: ``step_counts: {states key: entry}`` -- the states key is compared with the step counts
the rules allow a unit of that ``more`` entry (by id), or with ``1..max`` for ``max``.  The same handler checks every
unit of the data whose step count is known against the rule (finding ``unit-steps``): the rule field is then used
by a legality check, not only by the claim.
"""

from __future__ import annotations

from .. import model as m
from ..rules.kit import steps as kst
from .core import Acc, Context, handles, show
from .ex_limits import ex_limit_claims

K = m.ExampleKind

__all__ = ["check_unit_steps", "ex_step_counts"]


def check_unit_steps(ctx: Context) -> None:
    """Report every unit whose number of steps the step rule does not allow."""
    rules = ctx.game.rules.steps
    if rules is None:
        return
    for u, n, ok in kst.violations(rules, ctx.game.units):
        ctx.add(
            "unit-steps",
            rules.rule,
            f"{u.id} has {n} steps; the step rule allows {show(ok)}",
            stated=n,
            computed=ok,
            ref=u.id,
        )


@handles(K.CLAIM)
def ex_step_counts(ctx: Context, acc: Acc) -> None:
    """Step counts a claim states, compared with the step rule (``given.step_counts``)."""
    spec = acc.given("step_counts")
    if not isinstance(spec, dict):
        return
    rules = ctx.game.rules.steps
    for key, entry in spec.items():
        if key not in acc.ex.states:
            raise KeyError(f"step_counts names {key!r}, which the example does not state")
        if rules is None:
            acc.skip(str(key), "the data has no step rule (rules.steps)")
            continue
        acc.use("path:rules.steps")
        if str(entry) == "max":
            value = None if rules.max is None else list(range(1, rules.max + 1))
            where = f"rules.steps.max = {show(rules.max)}"
        else:
            hit = next((e for e in rules.more if e.id == str(entry)), None)
            if hit is None:
                raise KeyError(f"step_counts: no rules.steps.more entry {entry!r}")
            value = sorted(hit.counts)
            where = f"rules.steps.more[{entry}].counts = {show(value)}"
        acc.check(str(key), value, where, unordered=True, how="data")
    check_unit_steps(ctx)


# The limits a probability example names (``given.limits``: a die-roll table's example that also states a cap, such
# as the most pontoon bridges in play or the attempts a leader has a turn) are compared like a claim's.
handles(K.PROBABILITY)(ex_limit_claims)
