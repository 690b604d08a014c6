"""``forge verify``: the tables, the worked examples and the printed components of a game checked against the rules
engine.

:func:`verify` returns :class:`~.policy.Findings` -- possible errata.  Nothing here edits data: an example that
disagrees with the rules is reported with what the book states and what the rules give.

The checks are families of plain functions ``(ctx) -> None`` that add findings to a shared
:class:`~.core.Context`; :data:`CHECKS` lists them in the order they run, so adding a check means adding one
function:

* :mod:`.tables` -- the CRT on its own (order, rows, unknown cells, cells against the table's grain);
* :mod:`.examples` -- every worked example and numeric claim, by kind (:mod:`.ex_combat`, :mod:`.ex_map`,
  :mod:`.ex_claims`);
* :mod:`.crosscheck` -- facts the data holds twice (terrain chart and shift list, entry turns and turn track,
  hex names and the places the rules and examples name) and the legality of the worked examples;
* :mod:`.notes` -- the data notes (``data_note``), remarks for the designer that no component prints;
* :mod:`.readback` -- the printed PDFs read back (run by the CLI unless ``--no-print-check``).
* :mod:`.book` -- the rulebook itself (run by the CLI with ``--book RULES``): numbering, contents,
  cross-references, places with hexes, arithmetic, counts, and the statements no example encodes.

Severity follows one written policy (:mod:`.policy`): **error**, the rules as encoded give another value than the
book; **warning**, the book contradicts itself or the data records a doubt; **info**, not checked, with the reason.
An example's value counts as recomputed only when a handler recomputed it; a value nothing recomputes is never
counted as passed.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import model as m
from .core import Context
from .crosscheck import check_crosscheck
from .examples import check_examples
from .notes import check_notes
from .policy import SEVERITY, Findings, exit_code, severity
from .report import render_findings
from .tables import check_tables

__all__ = ["CHECKS", "SEVERITY", "Findings", "exit_code", "render_findings", "severity", "verify"]

CHECKS: list[Callable[[Context], None]] = [check_tables, check_examples, check_crosscheck, check_notes]
"""The check families :func:`verify` runs, in order."""


def verify(game: m.Game) -> Findings:
    """Every finding for ``game``: each family of :data:`CHECKS` in turn (tables, then the examples in file order
    and the CRT cells they imply)."""
    ctx = Context(game)
    for check in CHECKS:
        check(ctx)
    return Findings(ctx.findings, game=game.game.id, examples=len(game.examples), passed=ctx.passed, claims=ctx.claims)
