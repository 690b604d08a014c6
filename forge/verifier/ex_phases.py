"""When a step of the sequence of play happens: claims that a step (markers removed, a roll made) comes at the
start or end of a phase, compared with the phases' ``steps`` in ``sequence``.

Input read from ``given`` (docs/FORMAT.md, "Examples and claims"): ``phase_steps: {states key: step id}``; the
stated value reads ``<start|end> of <phase> Phase`` (``during <phase> Phase``), the phase named without its
side.
"""

from __future__ import annotations

from .. import model as m
from .core import Acc, Context, handles

K = m.ExampleKind


def phase_name(game: m.Game, phase: m.Phase) -> str:
    """A phase's name without the side that plays it: ``Soviet Movement`` -> ``Movement``."""
    name = phase.name
    if phase.side is not None:
        side = next((s.name for s in game.game.sides if s.id == phase.side), None)
        if side and name.lower().startswith(side.lower() + " "):
            name = name[len(side) + 1 :]
    return name.removesuffix(" Phase")


def when(game: m.Game, phase: m.Phase, step: m.PhaseStep) -> str:
    where = "during" if step.at == "during" else f"{step.at} of"
    return f"{where} {phase_name(game, phase)} Phase"


@handles(K.CLAIM)
def ex_phase_steps(ctx: Context, acc: Acc) -> None:
    spec = acc.given("phase_steps")
    if not isinstance(spec, dict):
        return
    acc.use("path:sequence")
    for key, sid in spec.items():
        if key not in acc.ex.states:
            raise KeyError(f"phase_steps names {key!r}, which the example does not state")
        found = {when(ctx.game, ph, stp) for ph in ctx.game.sequence for stp in ph.steps if stp.id == str(sid)}
        if not found:
            raise KeyError(f"no phase of the sequence has a step {sid!r}")
        got = found.pop() if len(found) == 1 else sorted(found)
        acc.check(str(key), got, f"sequence: step {sid} comes at the {got}" if isinstance(got, str) else "", how="data")


@handles(K.CLAIM)
def ex_phase_count(ctx: Context, acc: Acc) -> None:
    """``phases`` a ``side`` plays, where the sequence lists phases by side (a sequence of one player turn that
    every side plays is counted whole by :func:`.ex_limits.ex_sequence`)."""
    seq = ctx.game.sequence
    if "phases" not in acc.ex.states or not acc.has("side") or not any(p.side for p in seq):
        return
    side = str(acc.given("side"))
    acc.use("path:sequence")
    n = sum(1 for p in seq if p.side == side)
    acc.check("phases", n, f"phases of the sequence with side {side}", how="data")
