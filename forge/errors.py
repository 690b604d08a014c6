"""Errors and findings: every problem names its file, line, column and key path."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with an input file, located as precisely as the input allows."""

    file: str
    """Path of the file as the user gave it."""
    line: int | None
    """1-based line, or None when the problem is not tied to a place (an empty file, bad encoding at EOF)."""
    column: int | None
    """1-based column."""
    path: str
    """Dotted key path into the document (``units[3].setup``), empty for the whole file."""
    message: str
    """What is wrong and what was expected."""

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.path + ': ' if self.path else ''}{self.message}"


class LoadError(Exception):
    """Raised by the loader with every problem it found in one file."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = sorted(set(problems), key=lambda p: (p.line or 0, p.column or 0, p.path, p.message))
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass(frozen=True)
class Finding:
    """A disagreement found by ``forge verify``: a possible erratum."""

    kind: str
    """Short machine-readable category: ``crt-monotone``, ``example-mismatch``, ..."""
    rule: str | None
    """The rule number the finding cites, when there is one."""
    message: str
    """What disagrees, in one sentence."""
    stated: str | None = None
    """What the book (or the printed table) says."""
    computed: str | None = None
    """What the rules give."""
    ref: str | None = None
    """The example or table id in the data file."""
    extra: dict[str, str] = field(default_factory=dict)
    path: tuple[str | int, ...] = ()
    """Key path in the game file of the value the finding concerns (``("examples", 40, "states", "enemy_hex")``),
    set by :func:`forge.verifier.locate.locate`; empty when it concerns no value of the file."""
    line: int | None = None
    """1-based line of that value in the game file (None when the file's marks are not at hand)."""
    column: int | None = None
    """1-based column of that value."""
    book_line: int | None = None
    """Line of the rulebook the value comes from (an example's ``source_line``), when the data records it."""


Where = tuple[str | int, ...]
"""Key path of a value in the game file: ``("units", 3, "label")``; empty when the value is not from the file."""


@dataclass(frozen=True)
class BuildWarning:
    """Something the build printed less well than asked (a text cut short, a glyph missing): the files are
    still written; the CLI prints it located as ``file:line:col: warning: ...`` (exit status unchanged)."""

    path: Where
    """Where in the game file the value comes from (empty: not from the file)."""
    message: str
    """What was printed wrong and on which component."""


_warnings: ContextVar[list[BuildWarning] | None] = ContextVar("forge_build_warnings", default=None)


def warn(path: Where, message: str) -> None:
    """THE warning channel of the build: record a :class:`BuildWarning` for the innermost
    :func:`collect_warnings` (each distinct warning once); without one it is dropped (a renderer called on its own)."""
    sink = _warnings.get()
    if sink is not None:
        w = BuildWarning(tuple(path), message)
        if w not in sink:
            sink.append(w)


@contextmanager
def collect_warnings() -> Iterator[list[BuildWarning]]:
    """Collect the warnings given inside the ``with`` block into the list it yields (in the order given)."""
    sink: list[BuildWarning] = []
    token = _warnings.set(sink)
    try:
        yield sink
    finally:
        _warnings.reset(token)

def suggest(word: str, choices: Iterable[str]) -> str:
    """Return ``" (did you mean 'x'?)"`` for the closest choice, or an empty string.

    >>> suggest("terain", ["terrain", "name"])
    " (did you mean 'terrain'?)"
    >>> suggest("zzz", ["terrain"])
    ''
    """
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""
