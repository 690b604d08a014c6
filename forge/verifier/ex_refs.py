"""Cross-references in the book's text, checked against the rule numbers the data holds.

A rulebook sends the reader elsewhere -- "roll on the Petrol Shortage table (14.9)", "see rule 9" -- and its
headings number the rules those references mean.  A ``claim`` example records one reference: ``given.cites`` names
the item of the data the text means (a dotted reference: ``tables[petrol-shortage]``, ``combat.modifiers[att-oos]``,
``rules.zoc``, ``examples[los-length]``), and ``states.rule`` is the number the text gives it.  It is compared with
the item's own ``rule``; a reference to a part of that rule (``14.3C`` for 14.3, ``13.8.2`` for 13.8) agrees.

The item's number comes from the book's heading.  A reference that gives another number is the book contradicting
itself: the example names the heading's line in ``stated_otherwise`` (``{rule: LINE}``), and the difference is
reported as a warning (:mod:`.policy`, ``example-contradiction``), not as an error of the rules.

``states.cited_rule`` (a reference recorded with no item of the data to compare it with) is listed as not
checked; the example's ``doubt`` says what is wrong with it.
"""

from __future__ import annotations

import re
from typing import Any


from .. import model as m
from .core import Acc, Context, handles
from .locate import _dotted, _segments

__all__ = ["ex_cross_reference", "within"]

K = m.ExampleKind


def within(cited: str, rule: str) -> bool:
    """Does a reference to ``cited`` point into rule ``rule`` (the rule itself, or one of its parts)?

    >>> within("14.3C", "14.3"), within("13.8.2", "13.8"), within("14.3", "14.3")
    (True, True, True)
    >>> within("14.5", "14.3"), within("14.30", "14.3"), within("13.2", "13")
    (False, False, False)

    A bare section number ("13", "6.0") is a whole section: a reference to one of its numbered rules is another
    rule, not a part of it (rule 13.2 is not "rule 13"); a lettered part (14.3C) or a sub-rule (13.8.2) of a
    numbered rule is part of it.
    """
    c, r = cited.strip().casefold(), rule.strip().casefold()
    if c == r or c == r.removesuffix(".0"):
        return True
    if "." not in r.removesuffix(".0"):
        return False
    return c.startswith(r) and bool(re.match(r"[a-z]|\.\d", c[len(r) :]))


def _item(game: m.Game, ref: str) -> Any:
    """The data item a dotted reference names (KeyError when it names nothing, or only part of the way)."""
    path = _dotted(game, ref)
    if len(path) < len(_segments(ref)):
        raise KeyError(f"cites {ref!r}, which names no item of the data")
    obj: Any = game
    for seg in path:
        obj = getattr(obj, str(seg)) if isinstance(obj, m.Base) else obj[seg]
    return obj


@handles(K.CLAIM)
def ex_cross_reference(ctx: Context, acc: Acc) -> None:
    """``given.cites`` with ``states.rule``: the number a reference of the text gives an item, against the item's."""
    st = acc.ex.states
    ref = acc.given("cites")
    if ref is None:
        if "cited_rule" in st:
            acc.skip(
                "cited_rule",
                "a reference of the book's text to a rule the data holds no item for, so no number to compare it "
                "with (the example's doubt says what is wrong with it)",
                "book",
            )
        return
    if "rule" not in st:
        return
    item = _item(ctx.game, str(ref))
    rule = getattr(item, "rule", None)
    acc.use(f"path:{ref}")
    if rule is None:
        acc.skip("rule", f"{ref} has no rule number in the data", "book")
        return
    cited = str(st["rule"])
    computed = cited if within(cited, str(rule)) else str(rule)
    acc.check("rule", computed, f"{ref} is rule {rule}", how="data")
