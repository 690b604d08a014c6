"""Where a checked value's evidence comes from: the one place that decides whether a recomputed claim is an
independent check of the book, a cross-check of two of its statements, or an echo (issue 22, item 2).

A worked example states a value; ``forge verify`` recomputes it from the data.  That only tests the book when the
data it is recomputed from was typed from *another* statement of the book.  The data says where its values come
from: ``source_line`` on a data item (a CRT, a unit, a shift, a modifier, a terrain, the scale) names the seed-text
line it was typed from, and ``implied_by`` the examples it was worked out from (a CRT cell the book prints nowhere
but an example reveals, a strength only an example's sum gives).  The rule (docs/VERIFY.md, *Echoes*):

* a value compared with a data field (``data``) is a **cross-check** when the example names the book's second
  statement of the fact (``stated_elsewhere``, or ``stated_otherwise`` where the two differ and the data follows the
  other), else an **echo**: the field was typed from the same sentence;
* a value the engine recomputed, or whose arithmetic was redone (``engine``, ``arithmetic``, or a disagreement),
  is an **echo** when any data site the example's recomputation read (:attr:`.core.Acc.uses`) is ``implied_by``
  that example or was typed from the example's own ``source_line``; otherwise it is **independent**.

The sites an example reads are recorded per example, not per stated value, so one echo site makes every value the
example recomputes an echo: the count errs towards fewer checks, never more.  A data item without ``source_line``
or ``implied_by`` is taken to come from the book's rules or charts, not from an example: marking a value taken from
an example is the data's duty, and ``forge check`` refuses an ``implied_by`` that names no example.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .. import model as m

__all__ = ["BASES", "Origin", "basis", "origins"]

BASES = ("independent", "cross-check", "echo")
"""What a recomputed claim is evidence of: ``independent``, recomputed from values of other statements of the book;
``cross-check``, compared with a data field the book states a second time; ``echo``, checked against a value typed
from the claim's own sentence (never counted as checked)."""


@dataclass(frozen=True)
class Origin:
    """Where one data site's value was typed from."""

    line: int | None = None
    implied_by: tuple[str, ...] = ()


def _crt_site(c: m.ImpliedCell) -> str:
    if c.secondary:
        return f"crt.secondary:{c.column}:{c.row}"
    return f"crt[{c.section}]:{c.column}:{c.row}" if c.section else f"crt:{c.column}:{c.row}"


def origins(game: m.Game) -> dict[str, Origin]:
    """Site name (:attr:`.core.Acc.uses`) or site prefix (``crt``, ``path:game.scale``) -> where its value was
    typed from; only the sites whose data records a ``source_line`` or an ``implied_by``."""
    out: dict[str, Origin] = {}

    def put(site: str, line: int | None, implied: Iterable[str] = ()) -> None:
        if line is not None or implied:
            out[site] = Origin(line, tuple(implied))

    crt = game.combat.crt
    if crt is not None:
        put("crt", crt.source_line)
        for c in crt.implied_by:
            out[_crt_site(c)] = Origin(None, (c.example,))
    for u in game.units:
        put(f"unit:{u.id}", u.source_line, u.implied_by)
    for s in game.combat.shifts:
        put(f"shift:{s.id}", s.source_line, s.implied_by)
    for md in game.combat.modifiers:
        put(f"modifier:{md.id}", md.source_line, md.implied_by)
    for tid, t in game.terrain.items():
        put(f"terrain:{tid}", t.source_line)
        put(f"terrain:{tid}:movement", t.source_line)
    put("path:game.scale", game.game.scale.source_line)
    return out


def _origin(site: str, table: dict[str, Origin]) -> Origin | None:
    """A site's origin: its own, else (a CRT cell without ``implied_by``) the table's."""
    if site in table:
        return table[site]
    if site.startswith("crt") and "crt" in table:
        return table["crt"]
    if site.startswith("path:game.scale") and "path:game.scale" in table:
        return table["path:game.scale"]
    return None


def basis(ex: m.Example, key: str, how: str, uses: Iterable[str], table: dict[str, Origin]) -> tuple[str, str]:
    """``(basis, why)`` of the value ``ex.states[key]``, recomputed ``how`` (``engine``, ``data``, ``arithmetic``;
    a disagreement passes the way it was computed), from the data sites ``uses``; ``why`` says what makes an echo
    one (empty otherwise).  ``table`` is :func:`origins` of the game."""
    if how == "data":
        if key in ex.stated_elsewhere or key in ex.stated_otherwise:
            return "cross-check", ""  # the field was typed from the book's other statement of the fact
        return "echo", "compared with a data field typed from the same sentence (no stated_elsewhere)"
    own: list[str] = []
    for site in sorted(uses):
        o = _origin(site, table)
        if o is None:
            continue
        if ex.id in o.implied_by:
            own.append(f"{site} is implied_by this example")
        elif o.line is not None and o.line == ex.source_line:
            own.append(f"{site} was typed from this example's line {o.line}")
    if own:
        return "echo", "recomputed from data taken from its own sentence: " + "; ".join(own)
    return "independent", ""
