"""The bundled TrueType faces, parsed once per installation (issue 23).

reportlab parses a TrueType file (its cmap, metrics and glyph locations: ``TTFontFile.extractInfo``) each time a
process registers it: about 0.08 s a face, three faces a build.  What the parse yields depends only on the file's
bytes and on reportlab's version, so :func:`face` keeps it in the user's cache directory and later processes load it
(a few milliseconds) instead.  The file's own bytes are still read on every run: the embedded subsets are cut from
them, so a PDF is the same byte for byte with or without the cache.

The cache is ``$XDG_CACHE_HOME/hexforge/fonts/`` (``~/.cache/hexforge/fonts/`` when ``XDG_CACHE_HOME`` is unset),
one file per face, named by the face, the font file's size and CRC-32, reportlab's version and Python's.  It is written
atomically (a temporary file renamed into place); a cache that is missing, unreadable, corrupted or of another font
file or reportlab is ignored and the font parsed, and an unwritable cache directory only means parsing every time.
Deleting the directory is always safe.
"""

from __future__ import annotations

import contextlib
import functools
import os
import pickle
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

FORMAT = 2
"""Bumped whenever what is stored changes (2: without ``glyphToChar``)."""
_REQUIRED = ("charToGlyph", "charWidths", "glyphPos", "hmetrics", "table", "unitsPerEm", "name")
_UNSTORED = ("_ttf_data", "glyphToChar")
"""What the cache does not keep: the file's bytes (read on every run), and the glyph-to-characters table, which
only the parse itself reads (two thirds of a face's unpickling time: 5,918 lists)."""


class PdfScale:
    """The face's font-units-to-PDF-units scale (reportlab keeps a lambda, which does not pickle): the same
    arithmetic, ``x * (1000 / unitsPerEm)`` (``x`` itself at 1,000 units an em)."""

    def __init__(self, units_per_em: int) -> None:
        self.units_per_em = units_per_em
        self.mult = 1000 / units_per_em

    def __call__(self, x: float) -> float:
        return x if self.units_per_em == 1000 else x * self.mult


@functools.cache
def _face_class() -> Any:
    from reportlab.pdfbase.ttfonts import TTFontFace

    class CachedFace(TTFontFace):
        """A face from the cache: a parsed face's attributes but ``glyphToChar``, which is parsed from the file
        if anything ever asks for it (reportlab reads it only while parsing)."""

        def __getattr__(self, name: str) -> Any:
            if name != "glyphToChar" or "filename" not in self.__dict__:
                raise AttributeError(name)
            value = TTFontFace(self.filename).glyphToChar
            self.glyphToChar = value
            return value

    return CachedFace



def cache_dir() -> Path:
    """Where parsed faces are kept: ``$XDG_CACHE_HOME/hexforge/fonts`` (default ``~/.cache``)."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / "hexforge" / "fonts"


def _digest(data: bytes) -> str:
    """What names a font file's bytes: their size and CRC-32 (a third of a millisecond for a DejaVu face; a hash
    that resists forgery has nothing to guard here and costs 2 ms a face)."""
    return f"{len(data)}-{zlib.crc32(data):08x}"


def _key(path: Path, data: bytes, digest: str | None = None) -> str:
    from reportlab import Version

    py = f"{sys.version_info[0]}.{sys.version_info[1]}"
    return f"{path.stem}-{digest or _digest(data)}-rl{Version}-py{py}-f{FORMAT}.pickle"


def _load(file: Path, data: bytes, digest: str | None = None) -> Any | None:
    """The cached face in ``file``, or None when there is none or it is not a face of ``data`` (``digest``: its
    :func:`_digest`, when the caller has it)."""
    try:
        with open(file, "rb") as fh:
            stored = pickle.load(fh)  # the user's own cache, written by _save
        state = stored["state"]
        if stored.get("digest") != (digest or _digest(data)) or not all(k in state for k in _REQUIRED):
            return None
        cls = _face_class()
        face = cls.__new__(cls)
        face.__dict__.update(state)
    except (
        OSError,
        EOFError,
        pickle.UnpicklingError,
        ValueError,
        TypeError,
        AttributeError,
        KeyError,
        IndexError,
        ImportError,
    ):
        # what a damaged, cut-short or foreign file raises: parse instead
        return None
    face._ttf_data = data
    return face


def _save(file: Path, face: Any, data: bytes) -> None:
    """Keep ``face``'s parsed state in ``file`` (atomically); any failure is silent."""
    state = {k: v for k, v in face.__dict__.items() if k not in _UNSTORED}
    state["_pdfScale"] = PdfScale(face.unitsPerEm)
    tmp = None
    try:
        blob = pickle.dumps({"digest": _digest(data), "state": state}, pickle.HIGHEST_PROTOCOL)
        file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=file.name + ".", suffix=".tmp", dir=file.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(blob)
        os.replace(tmp, file)
        tmp = None
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        # an unwritable or full cache directory, or a face that does not pickle
        pass
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def face(path: Path) -> Any:
    """reportlab's parsed face (``TTFontFace``) of the TrueType file ``path``: from the cache when it holds this
    file's, else parsed (and cached for the next process)."""
    from reportlab.pdfbase.ttfonts import TTFontFace

    data = path.read_bytes()
    digest = _digest(data)  # once: a face's CRC-32 was worked out twice, for the file's name and to check it
    try:
        file: Path | None = cache_dir() / _key(path, data, digest)
    except (RuntimeError, OSError, KeyError):  # no home folder to put ~/.cache in: parse, as without a cache
        file = None
    cached = None if file is None else _load(file, data, digest)
    if cached is not None:
        cached.filename = str(path)
        return cached
    parsed = TTFontFace(str(path))
    if file is not None:
        _save(file, parsed, data)
    return parsed


def ttfont(name: str, path: Path) -> Any:
    """reportlab's ``TTFont(name, path)``, its face from :func:`face`: what ``TTFont.__init__`` sets, without the
    parse (tests/test_fontcache.py checks the attributes are a parsed font's)."""
    from fnmatch import fnmatch
    from weakref import WeakKeyDictionary

    from reportlab import rl_config
    from reportlab.pdfbase.ttfonts import TTEncoding, TTFont

    font = TTFont.__new__(TTFont)
    font.fontName = name
    font.face = face(path)
    font.encoding = TTEncoding()
    font.state = WeakKeyDictionary()
    font._asciiReadable = rl_config.ttfAsciiReadable
    font.shapable = not any(fnmatch(name, g) for g in rl_config.unShapedFontGlob)
    return font
