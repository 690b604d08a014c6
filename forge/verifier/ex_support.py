"""The defence after support: an odds example that commits support markers (``given.modifier_counts``) to a
combat whose raw ``attack`` and ``defense`` the book gives -- the defence it states is recomputed from the raw
defence plus the markers of the data's defender-role modifiers (an attacker's markers never add to it).

:mod:`.ex_results` recomputes the attack from the same inputs; this handler adds the other side.
"""

from __future__ import annotations

from fractions import Fraction

from .. import model as m
from .core import Acc, Context, handles, num, show

K = m.ExampleKind

__all__ = ["ex_defense_support"]


@handles(K.ODDS)
def ex_defense_support(ctx: Context, acc: Acc) -> None:
    """``defense`` = given raw defence + n x ``add`` for each defender-role modifier in ``modifier_counts``."""
    st = acc.ex.states
    counts = acc.given("modifier_counts")
    if "defense" not in st or not isinstance(counts, dict) or not acc.has("defense"):
        return
    base = num(acc.ex.given["defense"])
    if base is None:
        return
    mods = {md.id: md for md in ctx.combat.modifiers}
    total: Fraction = base
    bits = [f"{show(base)} (raw)"]
    for mid, n in counts.items():
        md = mods.get(str(mid))
        if md is None:
            raise KeyError(f"modifier_counts: no modifier {mid!r}")
        acc.use(f"modifier:{mid}")
        if md.role != "defender":
            bits.append(f"{mid} supports the {md.role}")
            continue
        if md.add is None:
            raise KeyError(f"modifier_counts: {mid!r} is no additive defender modifier")
        total += int(n) * md.add
        bits.append(f"{n} × {md.add} ({mid})")
    acc.check("defense", total, " + ".join(bits) if len(bits) > 1 else bits[0])
