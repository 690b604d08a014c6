"""Deterministic PDF plumbing shared by every renderer: embedded fonts, a reproducible canvas, atomic writes."""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

FONT = "Vera"
"""Regular text face: Bitstream Vera, shipped with reportlab and embedded in every PDF we write."""
FONT_BOLD = "VeraBd"
FONT_ITALIC = "VeraIt"

_registered = False


def register_fonts() -> None:
    """Register the Vera TrueType fonts (embedded as subsets) once per process."""
    global _registered
    if _registered:
        return
    folder = Path(reportlab.__file__).parent / "fonts"
    for name in (FONT, FONT_BOLD, FONT_ITALIC):
        pdfmetrics.registerFont(TTFont(name, str(folder / f"{name}.ttf")))
    _registered = True


def new_canvas(buffer: io.BytesIO, pagesize: tuple[float, float], title: str = "", subject: str = "") -> Canvas:
    """A reportlab canvas whose output depends only on what is drawn (``invariant=1``: fixed dates and ids)."""
    register_fonts()
    c = Canvas(buffer, pagesize=pagesize, invariant=1, pageCompression=1)
    c.setTitle(title)
    c.setSubject(subject)
    c.setCreator("Hexforge")
    c.setAuthor("Hexforge")
    return c


def text_width(text: str, size: float, font: str = FONT) -> float:
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


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a reader sees the old file or the whole new one, never a truncated one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes 0600; an output is as readable as any file the user makes
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def render_pdf(pagesize: tuple[float, float], draw: Callable[[Canvas], None], title: str = "") -> bytes:
    """Run ``draw`` on a fresh deterministic canvas and return the finished PDF's bytes."""
    buf = io.BytesIO()
    c = new_canvas(buf, pagesize, title=title)
    draw(c)
    c.save()
    return buf.getvalue()
