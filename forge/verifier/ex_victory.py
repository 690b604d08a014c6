"""Victory point arithmetic between items: what a side loses when one award falls back to another is the
difference of their VP (``victory.points``).

Input read from ``given`` (docs/FORMAT.md, "Examples and claims"): ``vp_difference: {states key: [item id, item
id]}`` -- the first item's VP minus the second's.
"""

from __future__ import annotations

from .. import model as m
from .core import Acc, Context, handles

K = m.ExampleKind


@handles(K.VP, K.CLAIM)
def ex_vp_difference(ctx: Context, acc: Acc) -> None:
    spec = acc.given("vp_difference")
    if not isinstance(spec, dict):
        return
    v = ctx.game.victory
    items = {p.id: p for p in (v.points if v else []) if p.id}
    acc.use("path:victory")
    for key, pair in spec.items():
        if key not in acc.ex.states:
            raise KeyError(f"vp_difference names {key!r}, which the example does not state")
        a, b = (items[str(x)] for x in pair)
        if isinstance(a.vp, int) and isinstance(b.vp, int):
            acc.check(str(key), a.vp - b.vp, f"{a.id} {a.vp} - {b.id} {b.vp} = {a.vp - b.vp}", how="arithmetic")
        else:
            acc.skip(str(key), f"the VP of {a.id} or {b.id} is not given", "book")
