"""Key paths into a game file and where each value came from: shared by the loader, which records the marks, and
the cross-reference checks, which report problems at them (neither imports the other for these)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PathT = tuple[str | int, ...]
"""A key path into the document: mapping keys and list indices, ``('units', 3, 'setup')``."""
Mark = tuple[int, int]
"""A 1-based (line, column)."""


@dataclass
class Document:
    """Plain Python data plus where each value came from."""

    data: Any
    marks: dict[PathT, Mark] = field(default_factory=dict)
    key_marks: dict[PathT, Mark] = field(default_factory=dict)

    def mark(self, path: PathT, key: bool = False) -> Mark | None:
        """Closest known position for a path: the key itself, or the nearest enclosing value."""
        p = tuple(path)
        if key and p in self.key_marks:
            return self.key_marks[p]
        while p:
            if p in self.marks:
                return self.marks[p]
            if p in self.key_marks:
                return self.key_marks[p]
            p = p[:-1]
        return self.marks.get((), None)


def dotted(path: PathT) -> str:
    """``('units', 3, 'setup')`` -> ``units[3].setup``.

    >>> dotted(("units", 3, "setup"))
    'units[3].setup'
    >>> dotted(())
    ''

    A key longer than 40 characters is cut to 30, with its length, so that a message stays one readable line:

    >>> dotted(("map", "hexes", "A" + "9" * 5000))
    'map.hexes.A99999999999999999999999999999...(5001 characters)'
    """
    out = ""
    for p in path:
        if isinstance(p, int):
            out += f"[{p}]"
        else:
            key = str(p) if len(str(p)) <= 40 else f"{str(p)[:30]}...({len(str(p))} characters)"
            out += ("." if out else "") + key
    return out
