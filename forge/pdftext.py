"""The text of a PDF, read with pdfium's C API through ctypes: what ``forge verify``'s print check reads back.

pypdfium2 ships pdfium (``pypdfium2_raw``) with Python bindings for all of its API, 1,500 functions: importing them
(a generated ctypes module, its helpers, ``logging``, ``subprocess`` for ``ctypes.util``) cost a verify about
90 M instructions, the read-back itself a few.  The read-back needs a dozen functions, declared here on the same
library file (its own ``ctypes.CDLL`` handle, so pypdfium2's declarations in the same process are untouched); the
calls are the ones pypdfium2's ``PdfTextPage.get_text_range``, ``count_rects``, ``get_rect`` and
``get_text_bounded`` make, so the text is the same (tests/test_pdftext.py compares them on every game's cards,
counters and map).  Where pypdfium2's package holds no library file (a build against a system pdfium), the library
pypdfium2 loaded is used.

pdfium keeps one global state: :func:`library` initialises it once (``FPDF_InitLibrary`` returns at once when
pypdfium2 already has), and never destroys it (pypdfium2 does at exit when it was imported).
"""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_P = ctypes.c_void_p
_I = ctypes.c_int
_D = ctypes.c_double
_DP = ctypes.POINTER(ctypes.c_double)
_US = ctypes.POINTER(ctypes.c_ushort)
_SIGNATURES: dict[str, tuple[Any, tuple[Any, ...]]] = {
    "FPDF_InitLibrary": (None, ()),
    "FPDF_LoadMemDocument64": (_P, (ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p)),
    "FPDF_CloseDocument": (None, (_P,)),
    "FPDF_GetPageCount": (_I, (_P,)),
    "FPDF_LoadPage": (_P, (_P, _I)),
    "FPDF_ClosePage": (None, (_P,)),
    "FPDF_GetPageHeightF": (ctypes.c_float, (_P,)),
    "FPDFText_LoadPage": (_P, (_P,)),
    "FPDFText_ClosePage": (None, (_P,)),
    "FPDFText_CountChars": (_I, (_P,)),
    "FPDFText_GetTextIndexFromCharIndex": (_I, (_P, _I)),
    "FPDFText_GetText": (_I, (_P, _I, _I, _US)),
    "FPDFText_CountRects": (_I, (_P, _I, _I)),
    "FPDFText_GetRect": (_I, (_P, _I, _DP, _DP, _DP, _DP)),
    "FPDFText_GetBoundedText": (_I, (_P, _D, _D, _D, _D, _US, _I)),
}

_loaded: list[Any] = []


def _library_file() -> str | None:
    """The pdfium that pypdfium2 ships, found without importing pypdfium2 (None: not there)."""
    import os
    from importlib.util import find_spec

    try:
        spec = find_spec("pypdfium2_raw")
    except (ImportError, ValueError):
        return None
    name = (
        "pdfium.dll" if sys.platform.startswith(("win32", "cygwin", "msys"))
        else "libpdfium.dylib" if sys.platform.startswith(("darwin", "ios"))
        else "libpdfium.so"
    )
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            return path
    return None


def library() -> Any:
    """pdfium, loaded, declared and initialised once per process."""
    if not _loaded:
        path = _library_file()
        if path is None:  # a pypdfium2 built on a system pdfium: the library it loaded
            import pypdfium2_raw.bindings as bindings  # type: ignore[import-untyped]

            path = bindings._libs["pdfium"]._name
        lib = ctypes.CDLL(path)
        for name, (restype, argtypes) in _SIGNATURES.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = restype, argtypes
        lib.FPDF_InitLibrary()
        _loaded.append(lib)
    return _loaded[0]


class TextPage:
    """One page's text, as pdfium's text page reads it (the page's own handle, and its height in points)."""

    def __init__(self, lib: Any, handle: int, height: float) -> None:
        self._lib, self._h, self.height = lib, handle, height

    def text(self) -> str:
        """All the page's text in content-stream order (``PdfTextPage.get_text_range()``: the characters pdfium
        marks as not in the text left off both ends)."""
        lib, h = self._lib, self._h
        n = lib.FPDFText_CountChars(h)
        if n < 0:
            raise ValueError("pdfium could not count the page's characters")
        start, end = 0, n - 1
        while start <= end and lib.FPDFText_GetTextIndexFromCharIndex(h, start) == -1:
            start += 1
        while start <= end and lib.FPDFText_GetTextIndexFromCharIndex(h, end) == -1:
            end -= 1
        if start > end:
            return ""
        first = lib.FPDFText_GetTextIndexFromCharIndex(h, start)
        last = lib.FPDFText_GetTextIndexFromCharIndex(h, end)
        size = last + 2 - first  # with the closing NUL
        buffer = (ctypes.c_ushort * size)()
        out = lib.FPDFText_GetText(h, start, end - start + 1, buffer)
        return bytes(memoryview(buffer).cast("B")[: 2 * max(out - 1, 0)]).decode("utf-16-le", errors="ignore")

    def rects(self) -> Iterator[tuple[float, float, float, float]]:
        """The page's text rectangles (left, bottom, right, top in points, y up), one per run of text."""
        lib, h = self._lib, self._h
        n = lib.FPDFText_CountRects(h, 0, -1)
        if n < 0:
            raise ValueError("pdfium could not count the page's text rectangles")
        left, top, right, bottom = _D(), _D(), _D(), _D()
        for i in range(n):
            if not lib.FPDFText_GetRect(h, i, left, top, right, bottom):
                raise ValueError(f"pdfium could not give text rectangle {i}")
            yield left.value, bottom.value, right.value, top.value

    def bounded(self, left: float, bottom: float, right: float, top: float) -> str:
        """The text inside a rectangle (``PdfTextPage.get_text_bounded``)."""
        lib, h = self._lib, self._h
        n = lib.FPDFText_GetBoundedText(h, left, top, right, bottom, None, 0)
        if n <= 0:
            return ""
        buffer = (ctypes.c_ushort * n)()
        lib.FPDFText_GetBoundedText(h, left, top, right, bottom, buffer, n)
        return bytes(memoryview(buffer).cast("B")).decode("utf-16-le", errors="ignore")


class Document:
    """An open PDF: its page count, and each page's text on demand (:meth:`page`)."""

    def __init__(self, lib: Any, handle: int) -> None:
        self._lib, self._h = lib, handle
        self.count = int(lib.FPDF_GetPageCount(handle))

    @contextmanager
    def page(self, index: int) -> Iterator[TextPage]:
        """The text of page ``index`` (from 0), only while the block runs."""
        lib = self._lib
        page = lib.FPDF_LoadPage(self._h, index)
        if not page:
            raise ValueError(f"pdfium could not load page {index + 1}")
        try:
            text = lib.FPDFText_LoadPage(page)
            if not text:
                raise ValueError(f"pdfium could not read the text of page {index + 1}")
            try:
                yield TextPage(lib, text, lib.FPDF_GetPageHeightF(page))
            finally:
                lib.FPDFText_ClosePage(text)
        finally:
            lib.FPDF_ClosePage(page)


@contextmanager
def document(pdf: bytes) -> Iterator[Document]:
    """The PDF ``pdf`` (its bytes), open while the block runs.  ValueError when pdfium cannot open it."""
    lib = library()
    handle = lib.FPDF_LoadMemDocument64(pdf, len(pdf), None)
    if not handle:
        raise ValueError("pdfium could not open the PDF")
    try:
        yield Document(lib, handle)
    finally:
        lib.FPDF_CloseDocument(handle)
