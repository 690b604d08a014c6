"""What every run compiles at start-up, kept per installation (issue 23: start-up to the floor).

Two kinds of work are done again by every process on the same input text, with results that depend on that text
and on the interpreter only:

* **Regular expressions.**  ``re`` parses a pattern and turns it into the list of integers its matcher runs
  (``re._compiler``), then makes the pattern object from that list (``_sre.compile``, fast).  The first step is slow
  for some patterns, and most of them are compiled when a module is imported: PyYAML's reader builds a class of
  printable characters (about 10 ms), reportlab's paragraph module a URI pattern (about 40 ms), and the standard
  library, forge and the other packages a few dozen more.
* **Dataclasses' methods.**  ``@dataclass`` writes each generated method (``__init__``, ``__eq__``, ``__lt__`` ...)
  as Python source and compiles it with ``exec``: about 1.5 ms a class, most of it the compiler, and a build
  defines about 50 dataclasses (forge's and its libraries').

So :func:`preload`, called before anything else is imported, (1) puts the pattern objects of earlier runs into
``re``'s own cache (``re._cache``, where ``re.compile`` looks first), made from the stored lists, and (2) gives the
``dataclasses`` module an ``exec`` that takes the compiled code of a source text it has seen before from the store
instead of compiling it again (the same code: ``compile(text, "<string>", "exec")``, which ``exec`` of a text does;
the module's own ``exec`` calls are the only ones affected).  :func:`save`, at the end of a run, stores what this
run compiled that the files did not hold.  A regular expression's list is stored only when the pattern object made
from it compares equal (``==``: same text, flags and code) to the one ``re`` compiled.

The cache is ``$XDG_CACHE_HOME/hexforge/start/`` (``~/.cache/hexforge/start/`` when ``XDG_CACHE_HOME`` is unset),
two files per interpreter (named by its version, build and ``_sre``'s magic number), written atomically (a
temporary file renamed into place).  A file that is missing, unreadable, corrupted (a CRC-32 guards it) or of
another interpreter is ignored, and so is anything unexpected in ``re``'s internals (another Python): the work is
then done as usual.  Deleting the directory is always safe.  Only the standard library is imported here.
"""

from __future__ import annotations

import os
import sys
from typing import Any

FORMAT = 1
"""Bumped whenever what is stored changes."""
MAX_PATTERNS = 1500
"""At most this many patterns are stored (a run that would store more keeps the newest)."""
MAX_TEXT = 20_000
"""Longer patterns are not stored (none of forge's or its libraries' is near this)."""
MAX_PENDING = 64_000
"""The patterns waiting for a second run hold at most this many characters, the newest kept (reportlab's
changing patterns add about 10,000 a run; the other new patterns of a command, a few thousand once)."""
MAX_SOURCES = 5000
"""At most this many compiled method sources are stored."""

_FAILURES = (OSError, EOFError, ValueError, TypeError, RuntimeError, AttributeError, ImportError, LookupError,
             OverflowError)
"""What a missing, damaged or foreign file, an unwritable folder or another Python's ``re`` internals raise here
(a bad marshal stream, a wrong shape, code ``_sre`` refuses, a missing private name): each means doing the work
as usual."""

_seeded: set[tuple[type, str | bytes, int]] = set()
_stored: list[tuple[Any, ...]] = []
_codes: dict[str, bytes] = {}
"""Method source -> its marshalled code: from the file, and what this run compiled."""
_new_codes: set[str] = set()
_command = [""]
"""The command the files are for (each command keeps its own: ``forge check`` loads only what a check compiles)."""


def _ident() -> str:
    import zlib

    import _sre  # type: ignore[import-not-found]

    build = zlib.crc32(sys.version.encode("utf-8", "replace"))
    return f"{sys.implementation.cache_tag}-{build:08x}-sre{_sre.MAGIC}-{_sre.CODESIZE}-f{FORMAT}"


def cache_file(kind: str = "regex") -> str | None:
    """The file that holds this interpreter's compiled ``kind`` (``regex``, ``dataclass``) for the command given to
    :func:`preload`; None without a cache folder (no home folder)."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    root = base if os.path.isabs(base) else os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(root):
        return None
    command = _command[0]
    name = command if command.isascii() and command.isalpha() and len(command) <= 20 else "other"
    return os.path.join(root, "hexforge", "start", f"{kind}-{name}-{_ident()}.marshal")


def _read(kind: str) -> Any:
    """The object stored for ``kind``, or None (no file, or a damaged one)."""
    import marshal
    import zlib

    path = cache_file(kind)
    if path is None:
        return None
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    if len(raw) < 4 or int.from_bytes(raw[:4], "little") != zlib.crc32(raw[4:]):
        return None
    return marshal.loads(raw[4:])


def _write(kind: str, obj: Any) -> bool:
    """Store ``obj`` for ``kind``; False when there is no cache folder."""
    import marshal
    import zlib

    path = cache_file(kind)
    if path is None:
        return False
    payload = marshal.dumps(obj)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as fh:
            fh.write(zlib.crc32(payload).to_bytes(4, "little") + payload)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return True


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


def preload(command: str = "") -> int:
    """Seed ``re``'s cache with the patterns stored for ``command`` (the first argument: ``check``, ``build`` ...)
    and give ``dataclasses`` the stored methods' code; return how many patterns and method sources were found (0
    when there are no usable files)."""
    _command[0] = command
    if not enabled():
        return 0
    return _preload_patterns() + _preload_codes()


def save() -> int:
    """Store the patterns and method sources compiled in this run that the files did not hold; return how many."""
    if not enabled():
        return 0
    return _save_patterns() + _save_codes()


def enabled() -> bool:
    """Whether the cache is used: ``HEXFORGE_START_CACHE=0`` (or ``off``, ``no``, ``false``) turns it off, so that
    a run compiles everything itself and reads or writes no file here (for a suspected cache problem, or a
    measurement of the cold start)."""
    return os.environ.get("HEXFORGE_START_CACHE", "").strip().lower() not in ("0", "off", "no", "false")


# ------------------------------------------------------------------------------------------ regular expressions
def _preload_patterns() -> int:
    try:
        if not _usable():
            return 0
        import re

        import _sre

        entries = _read("regex")
        if not isinstance(entries, list):
            return 0
        cache = re._cache  # type: ignore[attr-defined]
        for entry in entries:
            is_bytes, text, flags, final, code, groups, groupindex, indexgroup = entry
            key = (bytes if is_bytes else str, text, flags)
            if key not in cache:
                cache[key] = _sre.compile(text, final, code, groups, groupindex, indexgroup)
            _seeded.add(key)
        _stored[:] = entries
        return len(entries)
    except _FAILURES:  # a cache only: anything unexpected means compiling as usual
        _seeded.clear()
        _stored.clear()
        return 0


def _entry(key: tuple[type, str | bytes, int], compiled: object) -> tuple[Any, ...] | None:
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


def _save_patterns() -> int:
    try:
        if not _usable():
            return 0
        import re

        fresh = [
            (key, compiled)
            for key, compiled in list(re._cache.items())  # type: ignore[attr-defined]
            if key not in _seeded and isinstance(key, tuple) and len(key) == 3 and key[0] in (str, bytes)
        ]
        # A pattern is stored once two runs in a row have compiled it: a pattern made from a set's order (reportlab
        # joins a set of names into one) differs from run to run and would otherwise be added by every run.
        pending = _read("regex-new")
        pending = pending if isinstance(pending, list) else []
        seen_before = set(pending)
        new, later, promoted = [], [], set()
        for key, compiled in fresh:
            name = (key[0] is bytes, key[1], key[2])
            if name not in seen_before:
                later.append(name)
                continue
            promoted.add(name)
            entry = _entry(key, compiled)
            if entry is not None:
                new.append(entry)
        # the candidates: the newest MAX_PENDING of earlier runs' and this run's (``forge verify`` and ``forge
        # verify --no-print-check`` share a file and compile different patterns: neither forgets the other's)
        fresh_names = promoted | set(later)
        waiting = [*(n for n in pending if n not in fresh_names), *later]
        size = 0
        for i in range(len(waiting) - 1, -1, -1):
            size += len(waiting[i][1])
            if size > MAX_PENDING:
                waiting = waiting[i + 1 :]
                break
        if waiting != pending:
            _write("regex-new", waiting)
        if not new:
            return 0
        return len(new) if _write("regex", [*_stored, *new][-MAX_PATTERNS:]) else 0
    except _FAILURES:  # an unwritable cache only means compiling every time
        return 0


# ------------------------------------------------------------------------------------------- dataclass methods
def _exec(source: Any, globals: Any = None, locals: Any = None, /, **kw: Any) -> None:
    """``exec`` as the dataclasses module calls it, with the compiled code of a source text seen before."""
    if globals is None:  # exec's defaults: the caller's namespaces (the dataclasses module's)
        frame = sys._getframe(1)
        globals = frame.f_globals
        if locals is None:
            locals = frame.f_locals
    if isinstance(source, str):
        import marshal

        stored = _codes.get(source)
        code = None
        if stored is not None:
            try:
                code = marshal.loads(stored)
            except (ValueError, EOFError, TypeError):
                code = None
        if code is None:
            code = compile(source, "<string>", "exec", dont_inherit=True)  # as exec compiles a text
            if stored is None and len(_codes) < MAX_SOURCES:
                _codes[source] = marshal.dumps(code)
                _new_codes.add(source)
        source = code
    exec(source, globals, locals, **kw)


def _preload_codes() -> int:
    try:
        import dataclasses

        if getattr(dataclasses, "exec", None) is not None:  # already given (a second preload) or the module's own
            return len(_codes)
        stored = _read("dataclass")
        if isinstance(stored, dict):
            _codes.update(stored)
        dataclasses.exec = _exec  # type: ignore[attr-defined]  # found before the builtin by the module's code
        return len(stored) if isinstance(stored, dict) else 0
    except _FAILURES:  # a cache only
        _codes.clear()
        return 0


def _save_codes() -> int:
    if not _new_codes:
        return 0
    try:
        if not _write("dataclass", _codes):
            return 0
    except _FAILURES:  # an unwritable cache only means compiling every time
        return 0
    n = len(_new_codes)
    _new_codes.clear()
    return n
