"""Where each finding is in the game file: a key path to the value it concerns, resolved to a line and column with
the marks the loader keeps for every value (:class:`forge.keypath.Document`), as ``forge check`` locates its
problems; and the rulebook line the value comes from, where the data records it.

A finding names what it concerns by its ``ref`` (an example id, a unit, table or terrain id, a place name, or a
dotted path such as ``tables[weather]`` or ``combat.shifts.river``) and, for an example's stated value, its
``key``.  :func:`key_path` turns that into the key path of the value in the file -- the stated value itself
(``examples[40].states.enemy_hex``, or in a reading's ``states``), an example's ``doubt`` or ``readings``, the item
a data note is on -- and :func:`locate` adds its line and column.
"""

from __future__ import annotations

import copy
import re
from dataclasses import replace
from typing import Any


from .. import model as m
from ..errors import Finding
from ..keypath import Document, PathT
from .policy import Findings

__all__ = ["key_path", "locate"]

_SEG = re.compile(r"\[([^\]]*)\]|([^.\[\]]+)")
_FIELDS = ("id", "rule", "name", "title", "number")
"""What names a list item in a dotted reference, tried in this order (after a list index)."""


def _segments(ref: str) -> list[str]:
    return [a or b for a, b in _SEG.findall(ref)]


def _resolve(game: m.Game, segs: list[str]) -> PathT:
    """The longest key path into ``game`` that ``segs`` name (empty when the first names nothing)."""
    obj: Any = game
    path: list[str | int] = []
    for seg in segs:
        nxt: Any = None
        key: str | int = seg
        if isinstance(obj, m.Base):
            if seg in type(obj).model_fields:
                nxt, key = getattr(obj, seg), seg
        elif isinstance(obj, dict):
            hit = seg if seg in obj else next((k for k in obj if not isinstance(k, str) and str(k) == seg), None)
            if hit is not None:
                nxt, key = obj[hit], hit
        elif isinstance(obj, list):
            if seg.isdigit() and int(seg) < len(obj):
                nxt, key = obj[int(seg)], int(seg)
            else:
                for name in _FIELDS:
                    i = next((i for i, v in enumerate(obj) if str(getattr(v, name, None)) == seg), None)
                    if i is not None:
                        nxt, key = obj[i], i
                        break
        if nxt is None:
            break
        obj = nxt
        path.append(key)
    return tuple(path)


def _dotted(game: m.Game, ref: str) -> PathT:
    """A dotted reference (``tables[weather]``, ``combat.shifts.river``, ``crt.secondary``) as a key path: from
    the top of the file, or from inside one of its sections (``crt`` is ``combat.crt``)."""
    segs = _segments(ref)
    if not segs:
        return ()
    path = _resolve(game, segs)
    if path:
        return path
    for top in type(game).model_fields:
        path = _resolve(game, [top, *segs])
        if len(path) > 1:
            return path
    return ()


def _key(key: str) -> list[str | int]:
    """A stated value's key as path segments: ``legal[1]`` -> ``['legal', 1]``, ``losses.ger-9ss`` too."""
    return [int(s) if s.isdigit() else s for s in _segments(key)]


def _example_path(game: m.Game, i: int, f: Finding) -> PathT:
    ex = game.examples[i]
    base: PathT = ("examples", i)
    if f.kind == "example-doubt" and ex.doubt:
        return (*base, "doubt")
    if f.kind == "example-reading":
        return (*base, "readings")
    if f.kind == "rule-contradiction" and "does" in ex.given:
        return (*base, "given", "does")
    keys = [k.strip() for k in (f.extra.get("key") or f.extra.get("keys") or "").split(",") if k.strip()]
    for key in keys:
        segs = _key(key)
        if segs[0] in ex.states:
            return (*base, "states", *segs)
        for j, r in enumerate(ex.readings):
            if segs[0] in r.states:
                return (*base, "readings", j, "states", *segs)
    if f.kind in ("example-illegal", "example-invalid"):
        return (*base, "given")
    return base


class _Index:
    """What :func:`key_path` looks names up in, built once per game: a report may hold tens of thousands of
    findings (a layout warning per hex of a large map), and a scan of the map per finding made locating them
    quadratic (minutes on a 40,000-hex map)."""

    def __init__(self, game: m.Game) -> None:
        self.examples = {ex.id: i for i, ex in enumerate(game.examples)}
        self.items: dict[str, tuple[str, int]] = {}
        for section, items in (
            ("units", game.units),
            ("tables", game.tables),
            ("markers", game.markers),
            ("scenarios", game.scenarios),
        ):
            for i, x in enumerate(items):
                ident = getattr(x, "id", None)
                if isinstance(ident, str):
                    self.items.setdefault(ident, (section, i))  # the first section that has it, as before
        self.names: dict[str, str] = {}
        for h, info in game.map.hexes.items():
            if info.name:
                self.names.setdefault(info.name.casefold(), h)  # the first hex of that name, as before
        self.dotted: dict[str, PathT] = {}

    def dotted_path(self, game: m.Game, ref: str) -> PathT:
        if ref not in self.dotted:
            self.dotted[ref] = _dotted(game, ref)
        return self.dotted[ref]


def key_path(game: m.Game, f: Finding, index: _Index | None = None) -> PathT:
    """The key path in the game file of the value ``f`` concerns (empty when nothing in the file matches).
    ``index``: the game's lookups built once (:func:`locate` passes one for all its findings)."""
    if f.path:
        return f.path
    ix = index if index is not None else _Index(game)
    ref = (f.ref or "").strip()
    first = ref.split(",")[0].strip()  # a CRT cell several examples imply: the first of them
    if first in ix.examples:
        return _example_path(game, ix.examples[first], f)
    if f.kind == "data-note":  # the item's dotted path (notes.py), and on it the note itself
        path = ix.dotted_path(game, ref)
        return (*path, "data_note") if path else ()
    if ref in game.map.places:
        return ("map", "places", ref)
    if ref in ix.items:
        return ix.items[ref]
    if ref in game.terrain:
        return ("terrain", ref)
    for label in [ref, *(h.strip() for h in f.extra.get("hexes", "").split(",")), f.extra.get("hex", "")]:
        if label and label in game.map.hexes:
            return ("map", "hexes", label)
    named = ix.names.get(ref.casefold())
    if named is not None:
        return ("map", "hexes", named)
    return ix.dotted_path(game, ref) if ref else ()


def _book_line(game: m.Game, f: Finding, path: PathT) -> int | None:
    if f.book_line is not None:
        return f.book_line
    if len(path) >= 2 and path[0] == "examples" and isinstance(path[1], int):
        return game.examples[path[1]].source_line
    line = f.extra.get("source_line")
    return int(line) if line and line.isdigit() else None


def locate(findings: Findings, game: m.Game, doc: Document | None = None) -> Findings:
    """``findings`` with each one's key path, rulebook line and, given the document the game was loaded from, its
    line and column in the file; also every stated value's line and column (``Findings.where``)."""
    out = []
    index = _Index(game)
    for f in findings:
        path = key_path(game, f, index)
        mark = doc.mark(path) if doc is not None and path else None
        out.append(
            replace(
                f,
                path=path,
                line=mark[0] if mark else f.line,
                column=mark[1] if mark else f.column,
                book_line=_book_line(game, f, path),
            )
        )
    located = copy.copy(findings)  # every attribute kept (the game, the claims ...), the findings replaced
    located[:] = out
    located.where = dict(getattr(findings, "where", {}))
    if doc is not None:
        by_id = {ex.id: i for i, ex in enumerate(game.examples)}
        for c in findings.claims:
            i = by_id.get(c.example)
            if i is None:
                continue
            probe = Finding("example-unchecked", None, "", ref=c.example, extra={"key": c.key})
            mark = doc.mark(_example_path(game, i, probe))
            if mark is not None:
                located.where[(c.example, c.key)] = mark
    return located
