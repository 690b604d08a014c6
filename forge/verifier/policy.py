"""The severity policy of ``forge verify``, written once: every finding's severity is its kind's, from
:data:`KINDS` (no check sets a severity of its own; a kind not listed here cannot be reported).

* **error** -- the rules as encoded give another value than the book states, on every reasonable reading of the
  book's sentence (an erratum, or an encoding mistake).  Where the data records several readings of a sentence
  (an example's ``readings``) and one of them agrees, the others' disagreement is a warning, never an error.
* **warning** -- the book contradicts itself (two statements of one fact disagree; an example is impossible under
  the book's own rules; a reading of an ambiguous sentence disagrees where another agrees), or the data records a
  doubt about it, or the data cannot decide (the map is partial, the example involves inputs the engine does not
  model).
* **info** -- something was not checked, with the reason in one line; or a remark the data addresses to its
  designer (a data note), listed so that it is read where the checking happens rather than printed for players.

The CLI exits 1 when any finding is an error or a warning.  docs/VERIFY.md holds the same table
(:func:`policy_table`; a test keeps the two equal).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..errors import Finding

if TYPE_CHECKING:
    from .core import Claim

__all__ = ["KINDS", "RANK", "SEVERITY", "Findings", "exit_code", "policy_table", "severity"]

KINDS: dict[str, tuple[str, str]] = {
    "crt-columns": ("error", "CRT columns out of order, or a heading that is no odds/differential column"),
    "crt-rows": ("error", "the die rows do not cover every roll of the CRT's dice"),
    "crt-unknown": ("warning", "cells the rulebook does not give (listed); the engine cannot resolve combat there"),
    "crt-odds": ("warning", "a cell is worse for the attacker than the cell at lower odds on the same die roll"),
    "crt-odds-dist": ("warning", "a column's distribution is worse for the attacker than the column to its left"),
    "crt-all-out": ("warning", "an all-out result below the normal result of the same cell"),
    "crt-die": ("warning", "a cell against the table's die direction (found from the majority of the table)"),
    "crt-band": (
        "info",
        "cells against that direction holding the value of most of their die row: taken as a designed band, so "
        "not reported as crt-die",
    ),
    "example-mismatch": (
        "error",
        "an example's stated value differs from what the rules give (on every reading, where the data records "
        "several)",
    ),
    "example-conflict": ("error", "two examples imply different results for the same unprinted CRT cell"),
    "example-reading": (
        "warning",
        "the book's sentence reads several ways (readings): one agrees with the rules, the others are quoted with "
        "what disagrees on them",
    ),
    "example-contradiction": (
        "warning",
        "a value compared with the data differs, and the data records that the book states it otherwise at another "
        "line (stated_otherwise), which the data follows: the book contradicts itself",
    ),
    "example-unmodelled": (
        "warning",
        "the rules give another value, but the example involves inputs the engine does not model, which may explain "
        "the difference",
    ),
    "example-doubt": ("warning", "the data records a doubt about the example (its text)"),
    "example-invalid": ("warning", "an example's inputs cannot be used (unknown column, hex off the map ...)"),
    "example-map-gap": (
        "warning",
        "the map data gives another value, but the data marks the map partial: features it does not describe may "
        "explain the difference",
    ),
    "example-illegal": (
        "warning",
        "a worked example is impossible under the book's own rules (a unit on the map before it enters, an "
        "attacker not next to the defender, a stack over its limit)",
    ),
    "rule-contradiction": (
        "warning",
        "two statements of rules.permissions say opposite things (one forbids, one permits) of an action, side and "
        "condition they share, neither marked as the other's exception, or an example does what one forbids where "
        "its own facts (weather, phase, side) meet the condition: the book contradicts itself",
    ),
    "terrain-shift": (
        "error",
        "the terrain chart's column shift differs from the CRT shift list's value the engine applies",
    ),
    "terrain-modifier": (
        "error",
        "the terrain chart's defence effect differs from a modifier naming that terrain; the engine applies both",
    ),
    "unit-entry": (
        "error",
        "a unit's entry turn is off the turn track, contradicts its setup, or differs from its own entry rule",
    ),
    "unit-steps": ("error", "a unit's step count differs from the step rule"),
    "unit-entry-text": (
        "warning",
        "a special rule of another number names the unit's arrival on other turns: the book contradicts itself",
    ),
    "place-name": (
        "error",
        "the rules' text or map.places puts a named place in another hex than the map, whose names are printed",
    ),
    "place-duplicate": ("warning", "two hexes share a name and no map.places entry declares one place"),
    "example-unchecked": ("info", "stated values the engine cannot recompute, with the reason"),
    "crt-implied": ("info", "a CRT cell the rulebook does not print but an example implies"),
    "print-mismatch": ("error", "the printed cards show a value other than the one the engine uses"),
    "print-missing": ("warning", "something the engine uses is not in the printed cards' text"),
    "print-unchecked": ("info", "a printed component that could not be read back"),
    "print-layout": (
        "warning",
        "a printed text outside its frame, over another text or a symbol, a mark over content, or in the printer "
        "margin",
    ),
    "data-note": (
        "info",
        "a remark the data addresses to its designer (data_note), which no component prints",
    ),
    # forge verify --book: the rulebook read itself (book.py)
    "book-numbering": ("warning", "the book uses a rule number twice, or skips one"),
    "book-order": ("info", "a case printed before its predecessor in the book's text"),
    "book-contents": ("warning", "the book's table of contents disagrees with its body"),
    "book-xref": ("error", "a cross-reference to a rule the book does not have"),
    "book-xref-topic": (
        "warning",
        "a cross-reference whose target is about something else: both are quoted, with the rule that fits",
    ),
    "book-xref-unchecked": ("info", "a reference beyond the book's last rule, or to cases its text never numbers"),
    "book-place": ("error", "the book puts a place the map names in another hex"),
    "book-place-twice": ("warning", "the book gives one place two hexes (both lines quoted)"),
    "book-arithmetic": ("error", "a written-out sum, quotient, odds ratio or loss in the book is wrong"),
    "book-count": ("error", "the game's length or counter total in the book differs from the data"),
    "book-not-encoded": ("info", "a numeric or positional statement of the book that no example encodes"),
}
"""Every kind of finding: its severity and what it means."""

SEVERITY: dict[str, str] = {k: sev for k, (sev, _) in KINDS.items()}
"""Severity of each kind of finding."""


def policy_table() -> str:
    """The kinds as a Markdown table, grouped by severity (docs/VERIFY.md holds it verbatim)."""
    rows = ["| kind | severity | meaning |", "| --- | --- | --- |"]
    for sev in ("error", "warning", "info"):
        rows += [f"| `{k}` | {s} | {meaning} |" for k, (s, meaning) in KINDS.items() if s == sev]
    return "\n".join(rows) + "\n"


RANK = {"error": 0, "warning": 1, "info": 2}


def severity(f: Finding) -> str:
    """``error``, ``warning`` or ``info`` for a finding: its kind's (:data:`SEVERITY`), nothing else."""
    return SEVERITY[f.kind]


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
        """Every value an example states (:class:`.core.Claim`): status is ``engine``, ``data`` or ``arithmetic``
        (how it was recomputed), ``mismatch`` or ``unchecked`` (with the reason and its category)."""
        self.book: dict[str, Any] | None = None
        """With ``--book``: how many of the book's numeric and positional statements an example encodes
        (:func:`.book.book_coverage`); the report's headline then gives coverage of the book."""
        self.where: dict[tuple[str, str], tuple[int, int]] = {}
        """(example id, key) -> the line and column of that stated value in the game file (set by
        :func:`.locate.locate` when the file's marks are at hand)."""
