"""Glyph coverage: printable text with characters the bundled fonts cannot draw, found before anything is drawn.

A PDF draws a character its font lacks as an empty box (the font's ``.notdef`` glyph), silently.  DejaVu Sans
covers Latin, Greek, Cyrillic and much more, but not CJK, most emoji and many other scripts; :func:`uncovered_text`
walks a loaded game for the text that is printed on a component and names every such character, and
:func:`coverage_warnings` turns what it finds into located warnings (``forge check``, ``build`` and ``verify``
print them; they never change the exit status).

What is printable: every text the renderers may print.  Ids, rule numbers, colours and closed vocabularies are
ASCII by their patterns, so they never warn; the free-text fields that no component prints are listed in
:data:`NOT_PRINTED` (a field missing from it is treated as printed: a warning too many beats a silent box).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any


from . import model as m
from .errors import Problem
from .keypath import Document, PathT, dotted

__all__ = ["NOT_PRINTED", "Uncovered", "coverage_warnings", "face_coverage", "file_warnings", "uncovered_text"]

ALL = frozenset({"*"})
NOT_PRINTED: dict[str, frozenset[str]] = {
    "Example": ALL,  # worked examples: recomputed by forge verify, never printed on a component
    "CapReading": ALL,  # another reading of a cap, never applied nor printed
    "DieModifier": ALL,  # engine input; the cards print the tables, not these
    "Info": frozenset({"source", "notes", "edition"}),
    "Unit": frozenset({"note"}),
    "HexInfo": frozenset({"note"}),
    "HexsideInfo": frozenset({"note"}),
    "Limit": frozenset({"note"}),
    "MoveAllowance": frozenset({"note"}),
    "RuleEffect": ALL,  # what the engine does for a special rule: references to places, never printed
}
"""Model class name -> its fields that no component prints (``*``: the whole class).  The reason an ``Unknown``
value is unknown is printed only for table cells (``... cells unknown (why)``), so it is checked there only."""

MAX_LISTED = 12
"""Most characters one warning lists (a whole paragraph in another script would otherwise fill the screen)."""

_SKIPPED_CATEGORIES = {"Cc", "Cf", "Zl", "Zp"}
"""Control and format characters (tab, line breaks, soft hyphen, joiners): nothing is drawn for them."""


COVERAGE_FILE = "coverage.txt"
"""In forge/fonts/: the code points each bundled face has a glyph for, as ranges (written by
:func:`write_coverage` from the faces' cmaps; tests/test_fonts.py checks it against them), so that ``forge check``
reads the coverage without importing a PDF library or parsing a font."""


def _ranges(cps: frozenset[int]) -> str:
    out: list[str] = []
    ordered = sorted(cps)
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        out.append(f"{ordered[i]:x}" if i == j else f"{ordered[i]:x}-{ordered[j]:x}")
        i = j + 1
    return " ".join(out)


def coverage_text(faces: dict[str, frozenset[int]]) -> str:
    """The text of forge/fonts/coverage.txt for ``faces`` (face name: code points)."""
    lines = ["# Code points each bundled face has a glyph for, in hex ranges (python -c 'from forge.glyphs import",
             "# write_coverage; write_coverage()' rewrites it from the fonts' cmaps; do not edit by hand)."]
    lines += [f"{name}: {_ranges(cps)}" for name, cps in faces.items()]
    return "\n".join(lines) + "\n"


def parsed_coverage() -> dict[str, frozenset[int]]:
    """Code points each bundled face has a glyph for, read from the fonts' cmaps (through reportlab)."""
    from reportlab.pdfbase import pdfmetrics

    from .pdf import FONT_FACES, register_fonts

    register_fonts()
    return {name: frozenset(pdfmetrics.getFont(name).face.charToGlyph) for name in FONT_FACES}


def write_coverage() -> None:
    from .pdf import FONTS_DIR

    (FONTS_DIR / COVERAGE_FILE).write_text(coverage_text(parsed_coverage()), encoding="utf-8")


@cache
def face_coverage() -> dict[str, frozenset[int]]:
    """Code points each bundled face has a glyph for (forge/fonts/coverage.txt, read once per process)."""
    from pathlib import Path

    text = (Path(__file__).parent / "fonts" / COVERAGE_FILE).read_text(encoding="utf-8")
    faces: dict[str, frozenset[int]] = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        name, _, spans = line.partition(": ")
        cps: set[int] = set()
        for span in spans.split():
            lo, _, hi = span.partition("-")
            cps.update(range(int(lo, 16), int(hi or lo, 16) + 1))
        faces[name] = frozenset(cps)
    return faces


@dataclass(frozen=True)
class Uncovered:
    """Printable text at ``path`` with characters some bundled face lacks."""

    path: PathT
    """Key path into the document (the model's field names are the file's keys)."""
    is_key: bool
    """The text is a mapping key (a place name), not a value."""
    missing: tuple[str, ...]
    """Characters no bundled face has, in order of first appearance."""
    partly: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Characters some faces have and others lack, with the faces that lack them."""

    def message(self) -> str:
        parts = []
        if self.missing:
            parts.append(f"{_listed(self.missing)} {'is' if len(self.missing) == 1 else 'are'} in no bundled font")
        for ch, faces in self.partly:
            parts.append(f"{_listed((ch,))} is not in {', '.join(_face_name(f) for f in faces)}")
        return (
            "; ".join(parts)
            + ": printed as an empty box (the bundled DejaVu Sans covers Latin, Greek, Cyrillic and more, not CJK "
            "or most emoji)"
        )


def _listed(chars: tuple[str, ...]) -> str:
    shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in chars[:MAX_LISTED])
    return shown + (f" and {len(chars) - MAX_LISTED} more" if len(chars) > MAX_LISTED else "")


def _face_name(face: str) -> str:
    return face.replace("DejaVuSans", "DejaVu Sans").replace("-", " ")


def _texts(obj: Any, path: PathT = ()) -> Iterator[tuple[PathT, str, bool]]:
    """Every printable text in ``obj`` with its key path; True marks a mapping key."""
    if isinstance(obj, m.Unknown):
        if "cells" in path:
            yield (*path, "unknown"), obj.unknown, False
    elif isinstance(obj, m.Base):
        skip = NOT_PRINTED.get(type(obj).__name__, frozenset())
        if skip is ALL:
            return
        for name in type(obj).model_fields:
            if name not in skip and name != "data_note":  # a data note is for the designer: never printed
                yield from _texts(getattr(obj, name), (*path, name))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(k, str):
                yield (*path, k), k, True
            yield from _texts(v, (*path, k))
    elif isinstance(obj, list | tuple):
        for i, v in enumerate(obj):
            yield from _texts(v, (*path, i))
    elif isinstance(obj, str):
        yield path, obj, False


_PRINTED_FIELDS: dict[Any, tuple[str, ...]] = {}
"""A model class -> its fields :func:`_texts` walks (in order)."""


def _printed_fields(cls: Any) -> tuple[str, ...]:
    names = _PRINTED_FIELDS.get(cls)
    if names is None:
        skip = NOT_PRINTED.get(cls.__name__, frozenset())
        names = () if skip is ALL else tuple(n for n in cls.model_fields if n not in skip and n != "data_note")
        _PRINTED_FIELDS[cls] = names
    return names


def _foreign_texts(obj: Any, path: PathT, out: list[tuple[PathT, str, bool]]) -> None:
    """The texts :func:`_texts` yields that are not all ASCII, in its order, appended to ``out``: the same walk
    without a generator's cost per text (every printable ASCII character is in every face, so only these can
    lack a glyph)."""
    if isinstance(obj, str):
        if not obj.isascii():
            out.append((path, obj, False))
    elif isinstance(obj, m.Unknown):
        if "cells" in path and not obj.unknown.isascii():
            out.append(((*path, "unknown"), obj.unknown, False))
    elif isinstance(obj, m.Base):
        for name in _printed_fields(type(obj)):
            value = getattr(obj, name)
            if value is not None and not isinstance(value, int | float):
                _foreign_texts(value, (*path, name), out)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(k, str) and not k.isascii():
                out.append(((*path, k), k, True))
            if v is not None and not isinstance(v, int | float):
                _foreign_texts(v, (*path, k), out)
    elif isinstance(obj, list | tuple):
        for i, v in enumerate(obj):
            if v is not None and not isinstance(v, int | float):
                _foreign_texts(v, (*path, i), out)


def uncovered_text(game: m.Game) -> list[Uncovered]:
    """The printable texts of ``game`` with characters a bundled face lacks, one entry per text."""
    out = []
    found: list[tuple[PathT, str, bool]] = []
    _foreign_texts(game, (), found)
    for path, text, is_key in found:
        chars = [
            ch for ch in dict.fromkeys(text) if ord(ch) > 0x7E and unicodedata.category(ch) not in _SKIPPED_CATEGORIES
        ]
        if not chars:
            continue
        faces = face_coverage()
        missing, partly = [], []
        for ch in chars:
            lacking = tuple(f for f, cps in faces.items() if ord(ch) not in cps)
            if len(lacking) == len(faces):
                missing.append(ch)
            elif lacking:
                partly.append((ch, lacking))
        if missing or partly:
            out.append(Uncovered(path, is_key, tuple(missing), tuple(partly)))
    return out


def coverage_warnings(game: m.Game, file: str, doc: Document | None = None) -> list[Problem]:
    """Located warnings for :func:`uncovered_text`; without ``doc`` (the file's marks) they name the key path
    only."""
    problems = []
    for u in uncovered_text(game):
        mk = doc.mark(u.path, key=u.is_key) if doc is not None else None
        problems.append(Problem(file, mk[0] if mk else None, mk[1] if mk else None, dotted(u.path), u.message()))
    return sorted(problems, key=lambda p: (p.line or 0, p.column or 0, p.path))


def file_warnings(game: m.Game, file: str) -> list[Problem]:
    """:func:`coverage_warnings` for ``game`` as loaded from ``file``.  The file's marks are read again only when
    there is something to warn about (the loaded game keeps none); if the file cannot be read again, the warnings
    name the key path only."""
    from pathlib import Path

    from .errors import LoadError
    from .loader import parse_yaml

    if not uncovered_text(game):
        return []
    try:
        doc: Document | None = parse_yaml(Path(file).read_bytes().decode("utf-8-sig"), file)
    except (OSError, UnicodeDecodeError, LoadError):  # changed since it was loaded: the key path still says where
        doc = None
    return coverage_warnings(game, file, doc)
