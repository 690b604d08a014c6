"""Deterministic PDF plumbing shared by every renderer: embedded fonts, a reproducible canvas, atomic writes."""

from __future__ import annotations

import contextlib
import contextvars
import errno
import functools
import io
import os
import re
import shutil
import signal
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any

from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject

FONTS_DIR = Path(__file__).parent / "fonts"
"""The bundled DejaVu Sans faces (Debian's fonts-dejavu 2.37-6; see fonts/README.md and fonts/LICENSE)."""
FONT = "DejaVuSans"
"""Regular text face: DejaVu Sans (Vera's Latin metrics, plus Latin extended, Greek, Cyrillic ...), embedded as a
subset in every PDF we write.  Renderers name faces only through these constants."""
FONT_BOLD = "DejaVuSans-Bold"
FONT_ITALIC = "DejaVuSans-Oblique"
FONT_FACES = (FONT, FONT_BOLD, FONT_ITALIC)
"""Every face a renderer may use; each is the file ``FONTS_DIR / f"{name}.ttf"``."""

_registered = False

_NOT_PDFDOC = re.compile("[\x18-\x1f]")
"""The ASCII characters PDFDocEncoding has no code for (its 0x18-0x1f are accents): the only ones whose
``extpdfdoc`` encoding is not their ASCII byte (it refuses them)."""


def _pdfdoc_encoded(x: Any, _charmap: Callable[[Any], Any] = pdfdoc.pdfdocEnc) -> Any:
    """reportlab's ``pdfdocEnc`` (a str to PDFDocEncoding bytes, bytes as they are), the same bytes, faster.

    reportlab encodes every object it writes, page and form streams included, with the ``extpdfdoc`` charmap
    codec, a table lookup per character: 4 % of a verify's instructions, on streams that are ASCII (operators,
    numbers, and text as octal escapes).  A str of ASCII characters that PDFDocEncoding codes as themselves is
    encoded as ASCII (the same bytes: tests/test_pdf_encoding.py compares every code point); anything else goes
    through reportlab's own function, errors and all."""
    if isinstance(x, str) and x.isascii() and _NOT_PDFDOC.search(x) is None:
        return x.encode("ascii")
    return _charmap(x)


pdfdoc.pdfdocEnc = _pdfdoc_encoded  # pdfdoc's functions look the name up in their module when they run


def register_fonts() -> None:
    """Register the bundled TrueType fonts (embedded as subsets) once per process, each parsed once per
    installation (:mod:`forge.fontcache`)."""
    global _registered
    if _registered:
        return
    from .fontcache import ttfont

    for name in FONT_FACES:
        pdfmetrics.registerFont(ttfont(name, FONTS_DIR / f"{name}.ttf"))
    _registered = True


MM = 72 / 25.4
PAGE_BLEED = 3 * MM
"""The print-shop page bleed: 3 mm (8.504 pt) past the trim on every side (docs/PRINTING.md); ``--page-bleed``
sets another."""
PAGE_BLEED_RANGE = (1 * MM, 0.5 * 72)
"""The page bleeds ``--page-bleed`` takes, in points: 1 mm to 1/2 in.  Services ask for 2 mm to 6 mm (1/8 in in
North America); less than 1 mm absorbs no cut, more than 1/2 in is no bleed but a margin."""
CROP_MARK_OFFSET = 3.0
"""Points between the bleed box and the start of a crop mark: the marks never reach the bleed."""
CROP_MARK_LENGTH = 18.0
CROP_MARK_WIDTH = 0.25
"""A hairline, but above the 0.2 pt that print shops give as the thinnest line they hold."""


@dataclass(frozen=True)
class PageFinish:
    """How every page of a PDF is finished for the printer it goes to (see :func:`page_finish`)."""

    bleed: float = 0.0
    """Page bleed in points; above 0, each page as drawn is the trim: the page grows by the bleed and the crop
    marks around it, and gets a TrimBox and a BleedBox (the print-shop preset)."""
    grey_ink: bool = False
    """Every colour written as a DeviceGray level (``g``/``G``), never RGB: a colour laser prints it with its black
    toner alone, and a PDF/X workflow reads grey, not RGB (``--greyscale``)."""
    pdfx: str | None = None
    """The output intent (a key of :data:`forge.pdfx.OUTPUT_INTENTS`) of a PDF/X-1a:2003 file (``--pdfx``): every
    colour separated to DeviceCMYK through its profile (grey levels stay DeviceGray with ``grey_ink``), the output
    intent and the PDF/X keys written, a TrimBox on every page; None: a plain PDF."""
    outline_text: bool = False
    """Every glyph drawn as a filled path from the bundled fonts' outlines, not as text: the PDF holds no font
    (``--outline-text``, for print services that ask for fonts converted to outlines; :mod:`forge.outline`)."""

    @property
    def margin(self) -> float:
        """What each page grows by on every side: the bleed, the gap and the crop marks."""
        return self.bleed + CROP_MARK_OFFSET + CROP_MARK_LENGTH if self.bleed > 0 else 0.0


_FINISH: contextvars.ContextVar[PageFinish | None] = contextvars.ContextVar("forge_page_finish", default=None)


@contextlib.contextmanager
def page_finish(finish: PageFinish | None) -> Iterator[None]:
    """Finish every canvas made by :func:`new_canvas` inside the block so (the build sets it per component, so that
    no renderer needs to know about page boxes)."""
    plain = finish is None or not (finish.bleed > 0 or finish.grey_ink or finish.pdfx or finish.outline_text)
    token = _FINISH.set(None if plain else finish)
    try:
        yield
    finally:
        _FINISH.reset(token)


_COMPRESS: contextvars.ContextVar[int] = contextvars.ContextVar("forge_pdf_compress", default=1)


@contextlib.contextmanager
def uncompressed() -> Iterator[None]:
    """Every canvas made by :func:`new_canvas` inside the block writes its streams (pages, forms, font subsets)
    as they are, not zlib-compressed: for a PDF that is read back in memory and thrown away (``forge verify``'s
    print check), where compressing costs and saves nothing.  Nothing else in the file changes but the streams'
    ``/Filter`` and lengths; a written file is always compressed."""
    token = _COMPRESS.set(0)
    try:
        yield
    finally:
        _COMPRESS.reset(token)


def _grey_level(colour: Any) -> tuple[float, float | None]:
    """The grey (0 black .. 1 white) of a reportlab colour, by luminance (ITU-R BT.601, as forge.render.style's
    greys), and its alpha."""
    if isinstance(colour, str):
        colour = toColor(colour)
    elif isinstance(colour, (tuple, list)):
        colour = Color(*colour) if len(colour) == 3 else CMYKColor(*colour)
    if isinstance(colour, CMYKColor):
        r, g, b = colour.rgb()
    else:
        r, g, b = colour.red, colour.green, colour.blue
    level = round(0.299 * r + 0.587 * g + 0.114 * b, 4)
    return min(1.0, max(0.0, level)), getattr(colour, "alpha", None)


class _GreyInk:
    """Colour setters that write every colour as its grey level (mixed into the canvas and its text objects)."""

    def setFillColor(self, aColor: Any, alpha: float | None = None) -> None:
        level, own = _grey_level(aColor)
        self.setFillGray(level)  # type: ignore[attr-defined]
        if alpha is not None or own is not None:
            self.setFillAlpha(alpha if alpha is not None else own)  # type: ignore[attr-defined]

    def setStrokeColor(self, aColor: Any, alpha: float | None = None) -> None:
        level, own = _grey_level(aColor)
        self.setStrokeGray(level)  # type: ignore[attr-defined]
        if alpha is not None or own is not None:
            self.setStrokeAlpha(alpha if alpha is not None else own)  # type: ignore[attr-defined]


class _GreyText(_GreyInk, PDFTextObject):
    pass


@functools.cache
def _outlining(base: type[PDFTextObject], grey: bool) -> type[PDFTextObject]:
    """forge.outline's text object (imported only with ``--outline-text``), with grey colour setters when
    ``grey``."""
    return type("_GreyOutlineText", (_GreyInk, base), {}) if grey else base


class FinishedCanvas(Canvas):
    """A canvas that finishes each page as its :class:`PageFinish` says.

    With a bleed, the page as the renderer drew it becomes the trim: on ``showPage`` its drawing is moved in by
    :attr:`PageFinish.margin` and clipped to the bleed box, crop marks are drawn outside the bleed box in
    registration colour (every separation), and the page gets its TrimBox and BleedBox; the MediaBox holds the
    marks.  Renderers keep drawing in the trim's coordinates and never see the margin."""

    _pagesize: tuple[float, float]

    def __init__(self, *args: Any, finish: PageFinish, **kwargs: Any) -> None:
        self._finish = finish
        super().__init__(*args, **kwargs)
        if finish.pdfx:
            from . import pdfx

            pdfx.identify(self, finish.pdfx)
            if not finish.grey_ink:  # reportlab's colour hook: the canvas and its text objects (platypus too)
                self._enforceColorSpace = pdfx.enforcer(finish.pdfx)

    def beginText(self, x: float = 0, y: float = 0, direction: Any = None) -> PDFTextObject:
        if self._finish.outline_text:  # every string drawn (canvas, platypus, forge.canvas) passes here
            from .outline import OutlineText

            return _outlining(OutlineText, self._finish.grey_ink)(self, x, y, direction=direction)
        if self._finish.grey_ink:
            return _GreyText(self, x, y, direction=direction)
        return super().beginText(x, y, direction=direction)

    @property
    def outline_text(self) -> bool:
        """Whether text is drawn as glyph outlines (forge.canvas then leaves its text to :meth:`beginText`)."""
        return self._finish.outline_text

    def setFont(self, psfontname: str, size: float, leading: float | None = None) -> None:
        if self._finish.outline_text and psfontname not in FONT_FACES:  # it would name the font in the page
            raise NotImplementedError(f"--outline-text draws the bundled faces only, not {psfontname!r}")
        super().setFont(psfontname, size, leading)

    def drawText(self, aTextObject: PDFTextObject) -> None:
        if self._finish.outline_text and not hasattr(aTextObject, "_shown"):
            raise NotImplementedError("--outline-text: a text object not made by beginText would embed a font")
        super().drawText(aTextObject)

    def setFillColor(self, aColor: Any, alpha: float | None = None) -> None:
        if self._finish.grey_ink:
            _GreyInk.setFillColor(self, aColor, alpha)
        else:
            super().setFillColor(aColor, alpha)

    def setStrokeColor(self, aColor: Any, alpha: float | None = None) -> None:
        if self._finish.grey_ink:
            _GreyInk.setStrokeColor(self, aColor, alpha)
        else:
            super().setStrokeColor(aColor, alpha)

    def setFillAlpha(self, a: float) -> None:
        self._opaque(a)
        super().setFillAlpha(a)

    def setStrokeAlpha(self, a: float) -> None:
        self._opaque(a)
        super().setStrokeAlpha(a)

    def _opaque(self, a: float) -> None:
        if self._finish.pdfx and a < 1:  # forge build refuses --pdfx with what would draw it (a tiled map)
            raise ValueError(f"PDF/X-1a forbids transparency (alpha {a})")

    def showPage(self) -> None:
        f = self._finish
        if f.bleed <= 0:
            if f.pdfx:  # PDF/X wants a TrimBox on every page: here the page is the trim
                self._trimBox = (0.0, 0.0, *self._pagesize)
            super().showPage()
            return
        w, h = self._pagesize
        m, b = f.margin, f.bleed
        n = _num
        # The marks first, in the grown page's own coordinates; then the drawing, moved and clipped to the bleed box
        # (it cannot reach the marks, and a state the drawing leaves open cannot move them).
        self._code[0:0] = [
            _crop_marks(w, h, f),
            f"q 1 0 0 1 {n(m)} {n(m)} cm {n(-b)} {n(-b)} {n(w + 2 * b)} {n(h + 2 * b)} re W n",
        ]
        self._code.append("Q")
        self._trimBox = (m, m, m + w, m + h)
        self._bleedBox = (m - b, m - b, m + w + b, m + h + b)
        grown = (w + 2 * m, h + 2 * m)
        self._pagesize = grown
        try:
            super().showPage()
        finally:
            if self._pagesize == grown:  # the next page is drawn at the trim's size again
                self._pagesize = (w, h)


class _Encoded:
    """A stream filter whose encoding was done ahead (:func:`seal_form`): it names the filter, and leaves the
    content as it is."""

    def __init__(self, pdfname: str) -> None:
        self.pdfname = pdfname

    def encode(self, content: Any) -> Any:
        return content


_PDFDOC_HOLES = tuple(map(chr, range(0x18, 0x20)))
"""The ASCII characters reportlab's PDFDocEncoding codec does not map to themselves (it refuses them)."""


def pdfdoc_bytes(text: str) -> bytes:
    """``text`` encoded as reportlab encodes a stream's text (``pdfdocEnc``), the same bytes: operators are ASCII
    (text strings are escaped), which encodes to itself, forty times faster than reportlab's charmap codec."""
    from reportlab.pdfbase import pdfdoc

    if text.isascii() and not any(c in text for c in _PDFDOC_HOLES):
        return text.encode("ascii")
    return pdfdoc.pdfdocEnc(text)


def end_form_sealed(
    canvas: Canvas, name: str, end_form: Callable[[], None], *, level: int = -1, ascii85: bool = True
) -> None:
    """End the form XObject ``name`` being drawn on ``canvas`` (``end_form`` ends it) and encode its stream at
    once, as ``canvas.save()`` would (Flate, then ASCII85 when reportlab's ``useA85`` says so): the file is the
    same byte for byte.  A map sheet of a million hexes is thus held as its compressed bytes, not its text, until
    the document is written; and its text is compressed piece by piece (:func:`compact_code`'s chunks), never
    joined and encoded whole, which would hold it three times over.  ``level`` is zlib's (-1: its default, as
    reportlab's; a lower one trades bytes for time, and the file is no longer reportlab's byte for byte);
    ``ascii85=False`` leaves the stream binary where reportlab's ``useA85`` would wrap it in ASCII85 (a fifth fewer
    bytes to hold and write, and any PDF reader reads either)."""
    import zlib

    from reportlab import rl_config
    from reportlab.pdfbase import pdfdoc

    compact_code(canvas)
    code: list[str] = canvas._code
    body = code[:-1]
    del code[:-1]  # reportlab joins only the last operator into the form; the rest is compressed here
    canvas.__dict__.pop("_hexforge_compacted", None)
    pieces = [canvas._preamble, *body, *code]
    del body
    end_form()
    form = canvas._doc.idToObject.get(pdfdoc.xObjectName(name))
    if not isinstance(form, pdfdoc.PDFFormXObject) or form.Contents:  # pragma: no cover - not reportlab's form
        raise ValueError(f"no form {name!r} was just ended")
    if not form.compression:
        form.setStreamList(pieces)
        return
    packer = zlib.compressobj(level)  # zlib.compress's parameters: the same bytes, whatever the pieces
    packed = []
    step = 1 << 20
    run: list[str] = []  # small pieces are joined into runs of about a megabyte: fewer calls

    def emit(text: str) -> None:
        for at in range(0, len(text), step):  # a megabyte at a time: no whole encoded copy of a large piece
            packed.append(packer.compress(pdfdoc_bytes(text[at : at + step])))

    size = 0
    for k, piece in enumerate(pieces):
        pieces[k] = ""
        if k:
            run.append("\n")
            size += 1
        if len(piece) >= step:
            emit("".join(run))
            run, size = [], 0
            emit(piece)
            continue
        run.append(piece)
        size += len(piece)
        if size >= step:
            emit("".join(run))
            run, size = [], 0
    emit("".join(run))
    packed.append(packer.flush())
    content: Any = b"".join(packed)
    a85 = rl_config.useA85 and ascii85
    filters = [pdfdoc.PDFBase85Encode, pdfdoc.PDFZCompress] if a85 else [pdfdoc.PDFZCompress]
    if a85:  # as bytes: reportlab's save() would encode the text (pdfdocEnc), to the same bytes
        content = pdfdoc_bytes(pdfdoc.PDFBase85Encode.encode(content))
    stream = pdfdoc.PDFStream(content=content, filters=[_Encoded(f.pdfname) for f in filters])
    stream.__Comment__ = "xobject form stream"
    form.stream = None
    form.Contents = stream
    form.compression = 0


def place_form(canvas: Canvas, name: str, at: Iterable[tuple[float, float]]) -> None:
    """Place form ``name`` at each offset ``(dx, dy)`` of ``at`` (the canvas's current user space), each in its own
    graphics state: the operators ``saveState()``, ``translate(dx, dy)``, ``doForm(name)``, ``restoreState()``
    write, the same bytes, without pushing and popping reportlab's state for each (a pair leaves it as it found
    it; a large map places a pattern tile some 5,000 times, a counter sheet its parts some 1,500)."""
    from reportlab.lib.rl_accel import fp_str

    do = f"/{canvas._doc.getXObjectName(name)} Do"
    code = canvas._code
    used = canvas._formsinuse
    for dx, dy in at:
        code += ("q", f"1 0 0 1 {fp_str(dx, dy)} cm", do, "Q")
        used.append(name)


def compact_code_after(canvas: Any) -> None:
    """Let :func:`compact_code` leave the operators drawn so far on ``canvas`` as they are (a few long strings
    already, such as batched paths: joining them would only copy them)."""
    code = getattr(canvas, "_code", None)
    if isinstance(code, list):
        canvas.__dict__["_hexforge_compacted"] = (id(code), len(code))


def compact_code(canvas: Any) -> None:
    """Join the operators drawn on ``canvas``'s current page or form since the last call (all but the last one)
    into one string, as reportlab joins a page's or a form's operators when it writes them (with newlines): the
    same bytes, without a string object per operator (a map of a million hexes draws tens of millions).  The last
    operator is left alone: reportlab merges a following ``cm`` into it.  A canvas that is not reportlab's is
    left as it is."""
    code = getattr(canvas, "_code", None)
    if not isinstance(code, list):
        return
    # The number of joined chunks at the head of the list (by the list's id: a form starts a new list; should an
    # id come again, joining any run of operators still gives the same bytes).
    mark = canvas.__dict__.get("_hexforge_compacted")
    done = mark[1] if mark is not None and mark[0] == id(code) else 0
    done = min(done, len(code) - 1)
    if len(code) - 1 - done > 1:
        code[done:-1] = ["\n".join(code[done:-1])]
        done += 1
    canvas.__dict__["_hexforge_compacted"] = (id(code), done)


def page_bleed(canvas: Canvas) -> float:
    """The page bleed ``canvas`` finishes its pages with (0 when the page is the paper): a renderer whose art
    reaches the page's edge runs it this far past the trim (the map sheet)."""
    return canvas._finish.bleed if isinstance(canvas, FinishedCanvas) else 0.0


def _num(x: float) -> str:
    return f"{x:.3f}".rstrip("0").rstrip(".") or "0"


def _crop_marks(w: float, h: float, f: PageFinish) -> str:
    """The eight crop marks of a ``w`` x ``h`` trim (in the grown page's coordinates): each on a trim line's
    extension, from the media edge to :data:`CROP_MARK_OFFSET` short of the bleed box."""
    m, n, ml = f.margin, _num, CROP_MARK_LENGTH
    x0, x1, y0, y1 = m, m + w, m, m + h
    right, top = w + 2 * m, h + 2 * m
    lines = [
        (x0, 0, x0, ml), (x1, 0, x1, ml), (x0, top - ml, x0, top), (x1, top - ml, x1, top),
        (0, y0, ml, y0), (0, y1, ml, y1), (right - ml, y0, right, y0), (right - ml, y1, right, y1),
    ]  # fmt: skip
    path = " ".join(f"{n(a)} {n(b)} m {n(c)} {n(d)} l" for a, b, c, d in lines)
    return f"q 1 1 1 1 K {n(CROP_MARK_WIDTH)} w 0 J [] 0 d {path} S Q"


def new_canvas(buffer: io.BytesIO, pagesize: tuple[float, float], title: str = "", subject: str = "") -> Canvas:
    """A reportlab canvas whose output depends only on what is drawn (``invariant=1``: fixed dates and ids); a
    :class:`FinishedCanvas` inside :func:`page_finish`."""
    register_fonts()
    # reportlab's initial font is Helvetica, which it names (unembedded) in every page's resources even when no
    # text uses it; starting in our own face leaves only embedded fonts in the file.
    finish = _FINISH.get()
    compress = _COMPRESS.get()
    if finish is not None:
        c: Canvas = FinishedCanvas(
            buffer, pagesize=pagesize, invariant=1, pageCompression=compress, initialFontName=FONT, finish=finish
        )
    else:
        c = Canvas(buffer, pagesize=pagesize, invariant=1, pageCompression=compress, initialFontName=FONT)
    c.setTitle(title)
    c.setSubject(subject)
    c.setCreator("Hexforge")
    c.setAuthor("Hexforge")
    return c


@functools.lru_cache(maxsize=8192)
def text_width(text: str, size: float, font: str = FONT) -> float:
    """The width of ``text`` set in ``font`` at ``size``, in points.  Kept for the last 8,192 texts asked: a build
    measures the same words, labels and numbers again and again (four times in five for Hell's Gate: 8,448 calls,
    1,719 texts), and the fonts never change once registered."""
    register_fonts()
    return float(pdfmetrics.stringWidth(text, font, size))


def fit_font_size(text: str, max_width: float, size: float, minimum: float = 5.0, font: str = FONT) -> float | None:
    """The largest size <= ``size`` at which ``text`` fits ``max_width``; None if even ``minimum`` overflows."""
    w = text_width(text, size, font)
    if w <= max_width:
        return size
    fitted = size * max_width / w
    return fitted if fitted >= minimum else None


def _umask() -> int:
    """The process's umask (reading it means setting it, so it is set straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# Temporaries are named ``.<target name>.<pid>.<random>.tmp`` (a file or a folder being written) and
# ``.<target name>.<pid>.<random>.old`` (a folder's previous set, moved aside while the new one moves in), next to
# their target: the pid lets a later run tell the leftovers of a killed run (kill -9) from a run in progress.
_STAGED = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[A-Za-z0-9_]+\.(?P<what>tmp|old)$")


def _prefix(path: Path) -> str:
    return f".{path.name}.{os.getpid()}."


def _write_fd(fd: int, data: bytes, name: Path, mode: int | None = None) -> None:
    """Write ``data`` to ``fd`` (and close it), durably; ``name`` is the target, for messages."""
    try:
        with os.fdopen(fd, "wb") as fh:
            if mode is not None:
                os.fchmod(fh.fileno(), mode)
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as e:  # a full disk says which file it was writing
        if e.filename is None:
            e.filename = str(name)
        raise


def stage_file(path: Path, data: bytes) -> Path:
    """Write ``data`` to a temporary next to ``path`` (made as readable as any file the user makes); return it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=_prefix(path), suffix=".tmp", dir=path.parent)
    try:
        _write_fd(fd, data, path, 0o666 & ~_umask())  # mkstemp makes 0600
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def stage_folder(path: Path, files: Iterable[tuple[PurePath, bytes]]) -> Path:
    """Write ``files`` (relative paths) into a temporary folder next to ``path``; return the folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=_prefix(path), suffix=".tmp", dir=path.parent))
    try:
        os.chmod(tmp, 0o777 & ~_umask())  # mkdtemp makes 0700
        for rel, data in files:
            target = tmp.joinpath(rel)
            target.parent.mkdir(parents=True, exist_ok=True)
            _write_fd(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), data, path.joinpath(rel))
    except BaseException:
        discard(tmp)
        raise
    return tmp


def discard(tmp: Path) -> None:
    """Remove a temporary file or folder, if it is still there."""
    if tmp.is_dir() and not tmp.is_symlink():
        shutil.rmtree(tmp)
    else:
        tmp.unlink(missing_ok=True)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP back (they are delivered on the way out): renames that belong together are
    never interrupted halfway."""
    held = {signal.SIGINT, signal.SIGTERM} | ({signal.SIGHUP} if hasattr(signal, "SIGHUP") else set())
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def commit(staged: Sequence[tuple[Path, Path]], remove: Sequence[Path] = ()) -> None:
    """Move each staged temporary onto its target, all together: a reader sees the old files or the new ones.

    A folder replaces a folder whole (the old one is moved aside, then removed), so a set of files such as the
    images and their ``index.csv`` is never a mix of two runs.  Each file or folder of ``remove`` (an earlier
    build's output this one does not write) is moved aside first, in the same uninterruptible step, and deleted
    with the replaced folders.  Raises :class:`OSError` before anything is moved when a target is of the wrong
    kind (a folder where a file goes, or the reverse).
    """
    for tmp, target in staged:
        if tmp.is_dir() and target.is_symlink():
            raise linked_folder(target)
        if tmp.is_dir() and (target.is_symlink() or target.exists()) and not target.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, "is not a folder (a set of files goes there)", str(target))
        if not tmp.is_dir() and target.is_dir():
            raise IsADirectoryError(errno.EISDIR, "is a folder (a file goes there)", str(target))
    aside: list[Path] = []
    removed: list[tuple[Path, Path]] = []
    try:
        with _signals_held():
            try:
                for gone in remove:
                    removed.append((_move_aside(gone), gone))
                _replace_all(staged, aside)
            except BaseException:  # the last target (a build's manifest) was not replaced: what it lists goes back
                for old, gone in reversed(removed):
                    if not (gone.is_symlink() or gone.exists()):
                        os.replace(old, gone)
                raise
    finally:
        for old in aside:
            discard(old)
        for old, _ in removed:
            discard(old)


def _replace_all(staged: Sequence[tuple[Path, Path]], aside: list[Path]) -> None:
    """:func:`commit`'s renames, in order, each folder replaced being moved aside (to ``aside``) first."""
    for tmp, target in staged:
        if not tmp.is_dir():
            os.replace(tmp, target)
            continue
        if target.is_dir():
            old = Path(tempfile.mkdtemp(prefix=_prefix(target), suffix=".old", dir=target.parent))
            try:
                os.replace(target, old)  # onto an empty folder: allowed
            except BaseException:
                old.rmdir()  # never leave the empty stand-in behind
                raise
            aside.append(old)
            try:
                os.replace(tmp, target)
            except OSError:
                os.replace(old, target)
                aside.remove(old)
                raise
        else:
            os.replace(tmp, target)


def _move_aside(path: Path) -> Path:
    """Rename ``path`` (a file or a folder) to a temporary next to it, named as :func:`remove_stale` knows a
    killed run's leftovers (``.<name>.<pid>.<random>.old``); return the temporary."""
    if path.is_dir() and not path.is_symlink():
        old = Path(tempfile.mkdtemp(prefix=_prefix(path), suffix=".old", dir=path.parent))
    else:
        fd, name = tempfile.mkstemp(prefix=_prefix(path), suffix=".old", dir=path.parent)
        os.close(fd)
        old = Path(name)
    try:
        os.replace(path, old)  # onto an empty folder, or an empty file: allowed
    except BaseException:
        discard(old)
        raise
    return old


def linked_folder(target: Path) -> OSError:
    """The error for a folder component (``images/``, ``board/``) whose place is a symbolic link: a set of files is
    replaced whole by renaming folders, which would replace the link itself, not what it points to; so the build
    refuses it (the user made the link on purpose) before anything is written."""
    return FileExistsError(
        errno.EEXIST,
        "is a symbolic link: this folder is replaced whole on every build, which would replace the link, not what "
        "it points to (remove the link; to write the files elsewhere, give that place as --out)",
        str(target),
    )


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a reader sees the old file or the whole new one, never a truncated one.

    A symbolic link is written through (the file it points to is replaced, not the link)."""
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    tmp = stage_file(path, data)
    try:
        commit([(tmp, path)])
    except BaseException:
        discard(tmp)
        raise


def _alive(pid: int) -> bool:
    if pid == os.getpid() or os.name != "posix":  # elsewhere os.kill(pid, 0) would end the process
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    except (OverflowError, ValueError):  # not a pid at all
        return False
    return True


def _holds(entry: Path) -> bool:
    """A file or a folder moved aside holds something (an empty one is the stand-in made before the move)."""
    if entry.is_dir() and not entry.is_symlink():
        return any(entry.iterdir())
    return entry.stat().st_size > 0


def remove_stale(folder: Path, names: Iterable[str]) -> list[Path]:
    """Remove the temporaries that a killed run (kill -9, power cut) left next to the targets ``names`` in
    ``folder``; a folder's old set, or an earlier output being removed (:func:`commit`'s ``remove``), that was moved
    aside and whose place is still empty is moved back.  Return what was removed or restored.  Temporaries of a
    live process are left alone."""
    names = set(names)
    done: list[Path] = []
    try:
        entries = sorted(folder.iterdir())
    except (FileNotFoundError, NotADirectoryError):
        return done
    for entry in entries:
        m = _STAGED.match(entry.name)
        if m is None or m["name"] not in names or _alive(int(m["pid"])):
            continue
        target = folder / m["name"]
        if m["what"] == "old" and not (target.is_symlink() or target.exists()) and _holds(entry):
            os.replace(entry, target)
        else:
            discard(entry)
        done.append(entry)
    return done


def render_pdf(pagesize: tuple[float, float], draw: Callable[[Canvas], None], title: str = "") -> bytes:
    """Run ``draw`` on a fresh deterministic canvas and return the finished PDF's bytes."""
    buf = io.BytesIO()
    c = new_canvas(buf, pagesize, title=title)
    draw(c)
    c.save()
    return buf.getvalue()
