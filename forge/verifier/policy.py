"""The severity policy of ``forge verify``, written once.

* **error** -- the rules as encoded give another value than the book states (an erratum, or an encoding mistake).
* **warning** -- the book contradicts itself, or the data records a doubt about it.
* **info** -- something was not checked, with the reason in one line; or a remark the data addresses to its
  designer (a data note), listed so that it is read where the checking happens rather than printed for players.

Kinds of finding and their severity (:data:`SEVERITY`; the CLI exits 1 when any finding is an error or a warning):

=====================  ========  ===================================================================================
kind                   severity  meaning
=====================  ========  ===================================================================================
``crt-columns``        error     CRT columns out of order, or a heading that is no odds/differential
``crt-rows``           error     the die rows do not cover every roll of the CRT's dice
``crt-unknown``        warning   cells the rulebook does not give (listed); the engine cannot resolve combat there
``crt-odds``           warning   a cell is worse for the attacker than the cell at lower odds on the same die roll
``crt-odds-dist``      warning   a column's distribution is worse for the attacker than the column to its left
``crt-all-out``        warning   an all-out result below the normal result of the same cell
``crt-die``            warning   a cell against the table's die direction (found from the majority of the table)
``crt-band``           info      cells against that direction holding the value of most of their die row: taken as a
                                 designed band (FPA's EX on every 6), so not reported as crt-die
``example-mismatch``   error     an example's stated outcome differs from what the rules give
``example-conflict``   error     two examples imply different results for the same CRT cell
``example-unmodelled`` warning   the rules give another value, but the example involves inputs the engine does not
                                 model, which may explain the difference
``example-doubt``      warning   the data records a doubt about the example (its text)
``example-invalid``    warning   an example's inputs cannot be used (unknown column, hex off the map ...)
``example-map-gap``    warning   the map data gives another value, but the data marks the map partial: features it
                                 does not describe may explain the difference (never withheld as unchecked)
``example-illegal``    warning   a worked example is impossible under the book's own rules: a unit on the map
                                 before it enters, an attacker not next to the defender (crosscheck.py); a stack
                                 over the stacking limit, a count over a rules.limits limit (ex_limits.py)
``terrain-shift``      error     the terrain chart's column shift differs from the CRT shift list's value the engine
                                 applies for that terrain (crosscheck.py)
``terrain-modifier``   error     the terrain chart's defence multiplier or bonus differs from a modifier naming that
                                 terrain; the engine applies both (crosscheck.py)
``unit-entry``         error     a unit's entry turn is off the turn track, contradicts its setup, or differs from
                                 the turns its own entry rule (special rule, turn mark) gives (crosscheck.py)
``unit-entry-text``    warning   a special rule of another number names the unit's arrival on other turns: the book
                                 contradicts itself (crosscheck.py)
``place-name``         error     the rules' text or map.places puts a named place in another hex than the map, whose
                                 names are printed and resolve examples (crosscheck.py)
``place-duplicate``    warning   two hexes share a name and no map.places entry declares one place (crosscheck.py)
``example-unchecked``  info      stated outcomes the engine cannot recompute, with the reason
``crt-implied``        info      a CRT cell the rulebook does not print but an example implies
``print-mismatch``     error     the printed cards show a value other than the one the engine uses (roundtrip.py)
``print-missing``      warning   something the engine uses is not in the printed cards' text (roundtrip.py)
``print-unchecked``    info      a printed component that could not be read back (roundtrip.py)
``print-layout``       warning   the counter sheets or the map place a text outside its frame, over another text or
                                 a symbol, a mark over content, or anything in the printer margin; the cards a text
                                 over another or in the margin (forge.layout)
``data-note``          info      a remark the data addresses to its designer (``data_note``: sources, unknowns,
                                 derivations), which no component prints (notes.py)
``book-*``             (book.py) ``forge verify --book``: the rulebook's numbering, contents, cross-references,
                                 places, arithmetic and counts; ``book-not-encoded`` (info) lists each numeric or
                                 positional statement no example encodes
=====================  ========  ===================================================================================

"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..errors import Finding

if TYPE_CHECKING:
    from .core import Claim

__all__ = ["RANK", "SEVERITY", "Findings", "exit_code", "severity"]

SEVERITY: dict[str, str] = {
    "crt-columns": "error",
    "crt-rows": "error",
    "crt-unknown": "warning",
    "crt-odds": "warning",
    "crt-odds-dist": "warning",
    "crt-all-out": "warning",
    "crt-die": "warning",
    "crt-band": "info",
    "example-mismatch": "error",
    "example-conflict": "error",
    "example-unmodelled": "warning",
    "example-doubt": "warning",
    "example-invalid": "warning",
    "example-map-gap": "warning",
    "example-illegal": "warning",
    "terrain-shift": "error",
    "terrain-modifier": "error",
    "unit-entry": "error",
    "unit-steps": "error",
    "unit-entry-text": "warning",
    "place-name": "error",
    "place-duplicate": "warning",
    "example-unchecked": "info",
    "crt-implied": "info",
    "print-mismatch": "error",
    "print-missing": "warning",
    "print-unchecked": "info",
    "print-layout": "warning",
    "data-note": "info",
    # forge verify --book: the rulebook read itself (book.py)
    "book-numbering": "warning",
    "book-order": "info",
    "book-contents": "warning",
    "book-xref": "error",
    "book-xref-topic": "warning",
    "book-xref-unchecked": "info",
    "book-place": "error",
    "book-place-twice": "warning",
    "book-arithmetic": "error",
    "book-count": "error",
    "book-not-encoded": "info",
}
"""Severity of each kind of finding; kinds not listed are warnings."""

RANK = {"error": 0, "warning": 1, "info": 2}


def severity(f: Finding) -> str:
    """``error``, ``warning`` or ``info`` for a finding (by its kind, :data:`SEVERITY`)."""
    return f.extra.get("severity") or SEVERITY.get(f.kind, "warning")


def exit_code(findings: Iterable[Finding]) -> int:
    """1 when any finding is an error or a warning, else 0 (info findings never fail a run)."""
    return 1 if any(severity(f) in ("error", "warning") for f in findings) else 0


class Findings(list[Finding]):
    """The findings of one game, with the game id and the example tally for the summary."""

    def __init__(
        self,
        items: Iterable[Finding] = (),
        *,
        game: str = "",
        examples: int = 0,
        passed: dict[str, list[tuple[str, str, str, str]]] | None = None,
        claims: list[Claim] | None = None,
    ) -> None:
        super().__init__(items)
        self.game = game
        self.examples = examples
        self.passed = passed or {}
        """Example id -> the (key, book, rules, how) values that were recomputed and agreed."""
        self.claims = claims or []
        self.book: dict[str, Any] | None = None
        """With ``--book``: how many of the book's numeric and positional statements an example encodes
        (:func:`.book.book_coverage`); the report's headline then gives coverage of the book."""
        """Every value an example states (:class:`.core.Claim`): status is ``engine``, ``data`` or ``arithmetic``
        (how it was recomputed), ``mismatch`` or ``unchecked`` (with the reason and its category)."""
