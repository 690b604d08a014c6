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
* :mod:`.contradictions` -- rule against rule: statements that something may or may not be done under a condition
  (``rules.permissions``), opposite ones whose conditions can hold at once;
* :mod:`.notes` -- the data notes (``data_note``), remarks for the designer that no component prints;
* :mod:`.readback` -- the printed PDFs read back (run by the CLI unless ``--no-print-check``).
* :mod:`.book` -- the rulebook itself (run by the CLI with ``--book RULES``): numbering, contents,
  cross-references, places with hexes, arithmetic, counts, and the statements no example encodes.

Severity follows one written policy (:mod:`.policy`, docs/VERIFY.md): **error**, the rules as encoded give another
value than the book on every reading of its sentence; **warning**, the book contradicts itself or the data records a
doubt; **info**, not checked, with the reason.  Each finding carries the key path, line and column of the value it
concerns in the game file and the rulebook line it comes from (:mod:`.locate`).
An example's value counts as recomputed only when a handler recomputed it; a value nothing recomputes is never
counted as passed.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import model as m
from ..keypath import Document
from .contradictions import check_contradictions
from .core import Context
from .crosscheck import check_crosscheck
from .examples import check_examples
from .locate import locate
from .notes import check_notes
from .policy import SEVERITY, Findings, exit_code, severity
from .report import render_findings
from .tables import check_tables

__all__ = [
    "CHECKS",
    "SEVERITY",
    "Findings",
    "exit_code",
    "locate",
    "render_findings",
    "severity",
    "verify",
]

CHECKS: list[Callable[[Context], None]] = [
    check_tables,
    check_examples,
    check_crosscheck,
    check_contradictions,
    check_notes,
]
"""The check families :func:`verify` runs, in order."""


def verify(game: m.Game, doc: Document | None = None) -> Findings:
    """Every finding for ``game``: each family of :data:`CHECKS` in turn (tables, then the examples in file order
    and the CRT cells they imply), each with the key path of the value it concerns and the rulebook line it comes
    from, and, given the document the game was loaded from (:func:`forge.loader.load_document`), its line and
    column in the file (:func:`.locate.locate`)."""
    ctx = Context(game)
    for check in CHECKS:
        check(ctx)
    found = Findings(ctx.findings, game=game.game.id, examples=len(game.examples), passed=ctx.passed, claims=ctx.claims)
    return locate(found, game, doc)
