"""Compiled regular expressions, kept per installation (issue 23: start-up to the floor).

Compiling a regular expression is pure work on its text: Python's ``re`` parses the pattern and turns it into the
list of integers its matcher runs (``re._compiler``), then makes the pattern object from that list
(``_sre.compile``, fast).  The first step is slow for some patterns, and most of them are compiled when a module is
imported: PyYAML's reader builds a character class of printable characters (about 10 ms on this project's machine),
reportlab's paragraph module a URI pattern (about 40 ms), and the standard library, forge and the other packages
another few dozen (in all about a fifth of a ``forge build``'s CPU time).  The result depends on the pattern, its
flags and the interpreter, and on nothing else.

So :func:`preload`, called before anything else is imported, puts the pattern objects of earlier runs into ``re``'s
own cache (``re._cache``, where ``re.compile`` looks first), made from the stored lists; and :func:`save`, at the
end of a run, stores the lists of patterns compiled in this run that the file did not hold.  A stored list is kept
only when the pattern object made from it compares equal (``==``: same text, flags and code) to the one ``re``
compiled; so a seeded pattern matches exactly as a freshly compiled one would.

The cache is ``$XDG_CACHE_HOME/hexforge/regex/`` (``~/.cache/hexforge/regex/`` when ``XDG_CACHE_HOME`` is unset),
one file per interpreter (named by its version, build and ``_sre``'s magic number), written atomically (a temporary
file renamed into place).  A file that is missing, unreadable, corrupted (a CRC-32 guards it) or of another
interpreter is ignored, and anything unexpected in ``re``'s internals (another Python) turns this module into doing
nothing: every pattern is then compiled as usual.  Deleting the directory is always safe.  Only the standard
library is imported here, and nothing that ``python -m`` has not imported already but ``marshal`` and ``zlib``.
"""

from __future__ import annotations

import os
import sys

FORMAT = 1
"""Bumped whenever what is stored changes."""
MAX_PATTERNS = 1500
"""At most this many patterns are stored (a run that would store more keeps its own and the newest of the rest)."""
MAX_TEXT = 20_000
"""Longer patterns are not stored (none of forge's or its libraries' is near this)."""

_seeded: set[tuple[type, str | bytes, int]] = set()
_stored: list[tuple[object, ...]] = []


def _ident() -> str:
    import zlib

    import _sre

    build = zlib.crc32(sys.version.encode("utf-8", "replace"))
    return f"{sys.implementation.cache_tag}-{build:08x}-sre{_sre.MAGIC}-{_sre.CODESIZE}-f{FORMAT}"


def cache_file() -> str | None:
    """The file that holds this interpreter's compiled patterns (None without a cache folder: no home folder)."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    root = base if os.path.isabs(base) else os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(root):
        return None
    return os.path.join(root, "hexforge", "regex", _ident() + ".marshal")


def _usable() -> bool:
    """Whether ``re`` is the one this module knows (CPython 3.11 to 3.13 keep compiled patterns in ``re._cache``,
    keyed by the pattern's type, text and integer flags, and make them with ``_sre.compile``)."""
    import re

    return (
        sys.implementation.name == "cpython"
        and isinstance(getattr(re, "_cache", None), dict)
        and hasattr(re, "_compiler")
        and hasattr(re, "_parser")
    )


def preload() -> int:
    """Seed ``re``'s cache with the stored patterns; return how many were seeded (0 when there is no usable file)."""
    try:
        if not _usable():
            return 0
        import marshal
        import re
        import zlib

        import _sre

        path = cache_file()
        if path is None:
            return 0
        with open(path, "rb") as fh:
            raw = fh.read()
        if len(raw) < 4 or int.from_bytes(raw[:4], "little") != zlib.crc32(raw[4:]):
            return 0
        entries = marshal.loads(raw[4:])
        cache = re._cache  # type: ignore[attr-defined]
        for entry in entries:
            is_bytes, text, flags, final, code, groups, groupindex, indexgroup = entry
            key = (bytes if is_bytes else str, text, flags)
            if key not in cache:
                cache[key] = _sre.compile(text, final, code, groups, groupindex, indexgroup)
            _seeded.add(key)
        _stored[:] = entries
        return len(entries)
    except Exception:  # a cache only: anything unexpected means compiling as usual
        _seeded.clear()
        _stored.clear()
        return 0


def _entry(key: tuple[type, str | bytes, int], compiled: object) -> tuple[object, ...] | None:
    """What is stored of one pattern, or None when what it would make differs from ``compiled``."""
    import _sre
    from re import _compiler, _parser  # type: ignore[attr-defined]

    kind, text, flags = key
    if kind not in (str, bytes) or not isinstance(flags, int) or len(text) > MAX_TEXT:
        return None
    p = _parser.parse(text, flags)
    code = [int(c) for c in _compiler._code(p, flags)]  # opcodes are an int subclass, which marshal refuses
    groupindex = dict(p.state.groupdict)
    indexgroup: list[str | None] = [None] * p.state.groups
    for name, i in groupindex.items():
        indexgroup[i] = name
    entry = (kind is bytes, text, flags, flags | p.state.flags, code, p.state.groups - 1, groupindex, tuple(indexgroup))
    if _sre.compile(text, *entry[3:]) != compiled:
        return None
    return entry


def save() -> int:
    """Store the patterns compiled in this run that the file did not hold; return how many were added."""
    try:
        if not _usable():
            return 0
        import marshal
        import re
        import zlib

        new = []
        for key, compiled in list(re._cache.items()):  # type: ignore[attr-defined]
            if key in _seeded or not (isinstance(key, tuple) and len(key) == 3):
                continue
            entry = _entry(key, compiled)
            if entry is not None:
                new.append(entry)
        if not new:
            return 0
        entries = [*_stored, *new][-MAX_PATTERNS:]
        payload = marshal.dumps(entries)
        path = cache_file()
        if path is None:
            return 0
        folder = os.path.dirname(path)
        os.makedirs(folder, exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        try:
            with open(tmp, "wb") as fh:
                fh.write(zlib.crc32(payload).to_bytes(4, "little") + payload)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        return len(new)
    except Exception:  # an unwritable cache only means compiling every time
        return 0
