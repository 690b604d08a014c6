"""Worked examples: every example is handed to the handlers registered for its kind (:func:`.core.handles`), and
what they found is reported: mismatches as errors, values no handler recomputed as info with the reason."""

from __future__ import annotations

from . import ex_claims, ex_combat, ex_map  # noqa: F401  (they register their handlers)
from . import ex_classic  # noqa: F401  (attacks played by the odds-CRT engine: results, exchanges, advance)
from . import ex_limits  # noqa: F401  (stacking, limits, counts, notation)
from . import ex_movement  # noqa: F401  (movement points and zones of control)
from . import ex_rules  # noqa: F401  (supply, retreat and advance, victory, weather, tables)
from . import ex_results  # noqa: F401  (combat results, combat rule facts, table probabilities)
from . import ex_zoc_groups  # noqa: F401  (infiltration costs, organisational groups)
from . import ex_units  # noqa: F401  (units' step counts against the step rule)
from . import ex_support  # noqa: F401  (the defence after committed support markers)
from . import ex_sequence  # noqa: F401  (positions carried through a worked sequence)
from . import ex_refs  # noqa: F401  (the book's cross-references against the data's rule numbers)
from . import ex_modifiers, ex_move_rules, ex_phases, ex_scenario, ex_victory  # noqa: F401  (table DRMs, lone HQs, off-map moves, disruption, phase steps, scenario set-up, returns, VP differences)
from .. import model as m
from .core import HANDLERS, Acc, Claim, Context, _root, show
from .provenance import basis

__all__ = ["check_examples", "recompute", "report"]


def check_examples(ctx: Context) -> None:
    """Run every example through its kind's handlers, then report the CRT cells the examples imply."""
    from .readings import check_readings

    for ex in ctx.game.examples:
        if ex.readings:
            check_readings(ctx, ex, recompute, report)
        else:
            report(ctx, recompute(ctx, ex))
    report_implied(ctx)


def recompute(ctx: Context, ex: m.Example) -> Acc:
    """What the handlers of ``ex``'s kind found (nothing reported yet)."""
    acc = Acc(ex)
    for handler in HANDLERS.get(ex.kind, ()):
        try:
            handler(ctx, acc)
        except (ValueError, KeyError, TypeError, IndexError, ZeroDivisionError, AttributeError) as e:
            # an example's free-form inputs of the wrong shape (a list where a mapping is read ...)
            acc.invalid.append(f"{type(e).__name__}: {e}")
    return acc


def report(ctx: Context, acc: Acc) -> None:
    """Report one example.  A value the rules computed differently is always reported: as an error, or as a
    warning when the example also involves inputs the engine does not model (they may explain the difference).
    A value nothing recomputed is reported as info with its reason; the data's doubt about the example is a
    warning with its text."""
    ex = acc.ex
    if acc.passed:
        ctx.passed[ex.id] = [(k, show(s), show(c), acc.how.get(_root(k), "engine")) for k, s, c in acc.passed]
    unmodelled = sorted(set(ex.given) - acc.known_given)
    ctx.uses[ex.id] = set(acc.uses)
    uses = ", ".join(sorted(acc.uses)) or None
    for msg in acc.invalid:
        ctx.add("example-invalid", ex.rule, f"{ex.id}: cannot recompute the example: {msg}", ref=ex.id, uses=uses)
    mismatched: set[str] = set()
    for key, stated, computed, note in acc.mismatches:
        mismatched.add(_root(key))
        common = dict(
            stated=stated,
            computed=computed,
            ref=ex.id,
            key=key,
            how=acc.how.get(_root(key), "engine"),
            source_line=ex.source_line,
            uses=uses,
            derivation=note or None,
            **acc.where,
        )
        if key in acc.partial:
            ctx.add(
                "example-map-gap",
                ex.rule,
                f"{ex.id}: the book states {key} = {show(stated)}, the map data gives {show(computed)}; "
                f"{acc.partial[key]}{' (' + note + ')' if note else ''}",
                **common,
            )
            continue
        if common["how"] == "data" and _root(key) in ex.stated_otherwise:
            ctx.add(
                "example-contradiction",
                ex.rule,
                f"{ex.id}: the book states {key} = {show(stated)} here and {show(computed)} at line "
                f"{ex.stated_otherwise[_root(key)]}, which the data follows: the book contradicts itself"
                f"{' (' + note + ')' if note else ''}",
                other_line=ex.stated_otherwise[_root(key)],
                **common,
            )
            continue
        if unmodelled:
            ctx.add(
                "example-unmodelled",
                ex.rule,
                f"{ex.id}: the book states {key} = {show(stated)}, the rules as encoded give {show(computed)}; the "
                f"example also involves {', '.join(unmodelled)}, which the engine does not model and which may "
                f"explain the difference{' (' + note + ')' if note else ''}",
                unmodelled=", ".join(unmodelled),
                **common,
            )
            continue
        ctx.add(
            "example-mismatch",
            ex.rule,
            f"{ex.id}: the book states {key} = {show(stated)}, the rules give {show(computed)}"
            f"{' (' + note + ')' if note else ''}",
            **common,
        )
    for key in ex.states:
        if key not in acc.done:
            acc.unchecked.setdefault(key, f"no engine rule recomputes {key!r} for a {ex.kind.value} example")
    if acc.unchecked:
        keys = sorted(acc.unchecked)
        reasons = "; ".join(f"{k}: {acc.unchecked[k]}" for k in keys)
        stated = {_root(k): ex.states.get(_root(k)) for k in keys if _root(k) in ex.states}
        ctx.add(
            "example-unchecked",
            ex.rule,
            f"{ex.id}: not recomputed -- {reasons}",
            stated=stated or None,
            ref=ex.id,
            keys=", ".join(keys),
        )
    if ex.doubt:
        ctx.add("example-doubt", ex.rule, f"{ex.id}: {ex.doubt}", ref=ex.id, source_line=ex.source_line)
    ctx.choices.update((ex.id, k) for k in acc.choices)
    unchecked_roots = {_root(k) for k in acc.unchecked}
    for key in ex.states:
        if key in mismatched:
            status = "mismatch"
        elif key in unchecked_roots:
            status = "unchecked"
        else:
            status = acc.how.get(key, "engine")
        reason = why = ""
        if status == "unchecked":  # the key's own reason, else those of its sub-keys (partial_attack.a+b ...)
            reason = acc.unchecked.get(key) or "; ".join(
                f"{k}: {r}" for k, r in sorted(acc.unchecked.items()) if _root(k) == key
            )
            whys = {acc.why.get(k, "engine") for k in acc.unchecked if k == key or _root(k) == key}
            # the category that says least against the book wins: Hexforge's gap, then an unreachable difference
            why = next(w for w in ("engine", "unreachable", "book", "context") if w in whys)
        base = echo = ""
        if status != "unchecked":
            base, echo = basis(ex, key, acc.how.get(key, "engine"), acc.uses, ctx.origins)
        twice = status == "data" and key in ex.stated_elsewhere
        ctx.claims.append(Claim(ex.id, key, status, reason, why, twice, base, echo))


def report_implied(ctx: Context) -> None:
    for (section, column, row, part), seen in sorted(ctx.implied.items()):
        values = sorted({v for v, _, _ in seen})
        refs = ", ".join(sorted({r for _, r, _ in seen}))
        where = f"{section + ', ' if section else ''}{column}, die {row}{' (' + part + ')' if part else ''}"
        if len(values) > 1:
            detail = "; ".join(f"{r} says {v}" for v, r, _ in seen)
            ctx.add(
                "example-conflict",
                seen[0][2],
                f"examples disagree on the CRT cell {where}: {detail}",
                stated=values,
                ref=refs,
                section=section or None,
                column=column,
                row=row,
                part=part or None,
            )
        else:
            ctx.add(
                "crt-implied",
                seen[0][2],
                f"the CRT cell {where} is not printed; {refs} implies {values[0]}",
                computed=values[0],
                ref=refs,
                section=section or None,
                column=column,
                row=row,
                part=part or None,
                result=values[0],
            )
