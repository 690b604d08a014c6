"""A small drawing surface in points, y down, with two backends: PDF (reportlab) and SVG (svgwrite).

Renderers that draw through :class:`Canvas` draw the same picture into a PDF page and into an SVG file (and from
there, with cairosvg, into a PNG).  The coordinate system is the one :mod:`forge.hexgrid` and :mod:`forge.impose`
use: origin at the top-left, x to the right, y *down*, lengths in points; :meth:`Canvas.rotate` turns clockwise as
seen on the page.

Style is given per call, never left behind as state: ``fill`` and ``stroke`` are ``#rrggbb`` colours or None
(don't paint); ``width`` is the stroke width in points; ``dash`` an on/off pattern in points.  Only transforms and
clips live in the save/restore state.  Line caps are butt and joins mitred on both backends.

>>> svg = SvgCanvas(20, 10)
>>> svg.rect(0, 0, 20, 10, fill="#ff0000")
>>> svg.text(10, 8, "29", size=6, anchor="middle")
>>> b'<rect fill="#ff0000" height="10" stroke="none" width="20" x="0" y="0" />' in svg.tobytes()
True
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Literal, Protocol, TypeAlias

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas as ReportlabCanvas

from .pdf import FONT, FONT_BOLD, FONT_ITALIC, register_fonts

__all__ = [
    "SVG_FONT_FAMILY",
    "Anchor",
    "Canvas",
    "Colour",
    "Path",
    "PdfCanvas",
    "Point",
    "SvgCanvas",
]

Colour: TypeAlias = str | None
"""``#rrggbb``, or None for "don't paint"."""
Point: TypeAlias = tuple[float, float]
Anchor = Literal["start", "middle", "end"]
"""Where ``(x, y)`` sits on a text's baseline: its start, its middle or its end."""

SVG_FONT_FAMILY = "'DejaVu Sans', 'Bitstream Vera Sans', sans-serif"
"""The PDF embeds DejaVu Sans (forge/fonts/); Bitstream Vera, its ancestor, has the same Latin metrics, so fitted
text still fits where only Vera is installed.  SVG names the family: the viewer's own copy draws it."""
_SVG_FONTS: dict[str, tuple[str | None, str | None]] = {
    FONT: (None, None),
    FONT_BOLD: ("bold", None),
    FONT_ITALIC: (None, "italic"),
}
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def _hex(colour: str) -> str:
    if not _HEX.match(colour):
        raise ValueError(f"{colour!r} is not a colour (expected #rrggbb or None)")
    return colour.lower()


def _font(font: str) -> str:
    if font not in _SVG_FONTS:
        raise ValueError(f"unknown font {font!r} (expected one of {', '.join(_SVG_FONTS)})")
    return font


class Path:
    """An outline built from moves, straight lines and cubic Béziers, drawn by :meth:`Canvas.path`.

    >>> Path().move_to(0, 0).line_to(10, 0).curve_to(12, 0, 12, 5, 10, 5).close().svg_d()
    'M 0 0 L 10 0 C 12 0 12 5 10 5 Z'
    """

    def __init__(self) -> None:
        self.ops: list[tuple[str, tuple[float, ...]]] = []

    def move_to(self, x: float, y: float) -> Path:
        self.ops.append(("M", (x, y)))
        return self

    def line_to(self, x: float, y: float) -> Path:
        self.ops.append(("L", (x, y)))
        return self

    def curve_to(self, x1: float, y1: float, x2: float, y2: float, x: float, y: float) -> Path:
        """A cubic Bézier to ``(x, y)`` with control points ``(x1, y1)`` and ``(x2, y2)``."""
        self.ops.append(("C", (x1, y1, x2, y2, x, y)))
        return self

    def close(self) -> Path:
        self.ops.append(("Z", ()))
        return self

    def svg_d(self) -> str:
        return " ".join(" ".join([op, *map(_num, args)]) for op, args in self.ops)


class Canvas(Protocol):
    """What a renderer may ask of a drawing surface (points, y down, clockwise rotation)."""

    def save(self) -> None:
        """Push the transform and clip; :meth:`restore` pops them."""

    def restore(self) -> None: ...

    def saved(self) -> AbstractContextManager[None]:
        """``with canvas.saved():`` save on entry, restore on exit."""

    def translate(self, dx: float, dy: float) -> None: ...

    def rotate(self, degrees: float) -> None:
        """Turn what is drawn next clockwise (as seen on the page) about the current origin."""

    def clip_rect(self, x: float, y: float, w: float, h: float) -> None:
        """Clip what is drawn next (until :meth:`restore`) to a rectangle."""

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        """A rectangle whose top-left corner is ``(x, y)``."""

    def rounded_rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        r: float,
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None: ...

    def line(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        *,
        stroke: Colour = "#000000",
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None: ...

    def polyline(
        self,
        points: Sequence[Point],
        *,
        stroke: Colour = "#000000",
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        """An open chain of straight lines."""

    def polygon(
        self,
        points: Sequence[Point],
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        """A closed outline."""

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None: ...

    def ellipse(
        self,
        cx: float,
        cy: float,
        rx: float,
        ry: float,
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None: ...

    def path(
        self,
        path: Path,
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None: ...

    def text(
        self,
        x: float,
        y: float,
        s: str,
        *,
        font: str = FONT,
        size: float,
        anchor: Anchor = "start",
        fill: Colour = "#000000",
    ) -> None:
        """``s`` on the baseline ``y``; ``anchor`` says which point of the baseline ``x`` is.  ``font`` is one of
        :data:`forge.pdf.FONT`, ``FONT_BOLD``, ``FONT_ITALIC`` (Bitstream Vera)."""


class _Base:
    def save(self) -> None:
        raise NotImplementedError

    def restore(self) -> None:
        raise NotImplementedError

    @contextmanager
    def saved(self) -> Iterator[None]:
        self.save()
        try:
            yield
        finally:
            self.restore()


# ------------------------------------------------------------------------------------------------------- PDF
class PdfCanvas(_Base):
    """Draws on a reportlab canvas, whose space is y *up*.

    ``top`` is the reportlab y of this canvas' origin: ``PdfCanvas(c, top=page_height)`` draws a whole page with
    the origin at its top-left corner; ``PdfCanvas(c)`` (top 0) puts the origin at reportlab's current origin,
    for a component the caller has already translated to its top-left corner.  Every y-down to y-up conversion
    is in :meth:`_y`, :meth:`translate` and :meth:`rotate`.
    """

    def __init__(self, c: ReportlabCanvas, *, top: float = 0.0) -> None:
        register_fonts()
        self.c = c
        self.top = top

    # -- the conversion
    def _y(self, y: float) -> float:
        return self.top - y

    def translate(self, dx: float, dy: float) -> None:
        self.c.translate(dx, -dy)

    def rotate(self, degrees: float) -> None:
        if self.top:
            self.c.translate(0, self.top)
        self.c.rotate(-degrees)  # clockwise on the page is negative in reportlab's y-up space
        if self.top:
            self.c.translate(0, -self.top)

    # -- state
    def save(self) -> None:
        self.c.saveState()

    def restore(self) -> None:
        self.c.restoreState()

    def clip_rect(self, x: float, y: float, w: float, h: float) -> None:
        p = self.c.beginPath()
        p.rect(x, self._y(y + h), w, h)
        self.c.clipPath(p, stroke=0, fill=0)

    def _style(self, fill: Colour, stroke: Colour, width: float, dash: Sequence[float] | None) -> tuple[int, int]:
        """Set the paint of the next shape (all of it, every time: the wrapped canvas may be shared); return
        reportlab's ``stroke`` and ``fill`` flags."""
        if fill is not None:
            self.c.setFillColor(HexColor(_hex(fill)))
        if stroke is not None:
            self.c.setStrokeColor(HexColor(_hex(stroke)))
            self.c.setLineWidth(width)
            if dash:
                self.c.setDash([float(d) for d in dash], 0)
            else:
                self.c.setDash()
            self.c.setLineCap(0)
            self.c.setLineJoin(0)
        return (1 if stroke is not None else 0), (1 if fill is not None else 0)

    # -- shapes
    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        s, f = self._style(fill, stroke, width, dash)
        if s or f:
            self.c.rect(x, self._y(y + h), w, h, stroke=s, fill=f)

    def rounded_rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        r: float,
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        s, f = self._style(fill, stroke, width, dash)
        if s or f:
            self.c.roundRect(x, self._y(y + h), w, h, r, stroke=s, fill=f)

    def line(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        *,
        stroke: Colour = "#000000",
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        if stroke is not None:
            self._style(None, stroke, width, dash)
            self.c.line(x1, self._y(y1), x2, self._y(y2))

    def _points(
        self,
        points: Sequence[Point],
        close: bool,
        fill: Colour,
        stroke: Colour,
        width: float,
        dash: Sequence[float] | None,
    ) -> None:
        s, f = self._style(fill, stroke, width, dash)
        if not (s or f) or not points:
            return
        p = self.c.beginPath()
        p.moveTo(points[0][0], self._y(points[0][1]))
        for x, y in points[1:]:
            p.lineTo(x, self._y(y))
        if close:
            p.close()
        self.c.drawPath(p, stroke=s, fill=f)

    def polyline(
        self,
        points: Sequence[Point],
        *,
        stroke: Colour = "#000000",
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        self._points(points, False, None, stroke, width, dash)

    def polygon(
        self,
        points: Sequence[Point],
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        self._points(points, True, fill, stroke, width, dash)

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        s, f = self._style(fill, stroke, width, dash)
        if s or f:
            self.c.circle(cx, self._y(cy), r, stroke=s, fill=f)

    def ellipse(
        self,
        cx: float,
        cy: float,
        rx: float,
        ry: float,
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        s, f = self._style(fill, stroke, width, dash)
        if s or f:
            y = self._y(cy)
            self.c.ellipse(cx - rx, y - ry, cx + rx, y + ry, stroke=s, fill=f)

    def path(
        self,
        path: Path,
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        s, f = self._style(fill, stroke, width, dash)
        if not (s or f) or not path.ops:
            return
        p = self.c.beginPath()
        for op, a in path.ops:
            if op == "M":
                p.moveTo(a[0], self._y(a[1]))
            elif op == "L":
                p.lineTo(a[0], self._y(a[1]))
            elif op == "C":
                p.curveTo(a[0], self._y(a[1]), a[2], self._y(a[3]), a[4], self._y(a[5]))
            else:
                p.close()
        self.c.drawPath(p, stroke=s, fill=f)

    def text(
        self,
        x: float,
        y: float,
        s: str,
        *,
        font: str = FONT,
        size: float,
        anchor: Anchor = "start",
        fill: Colour = "#000000",
    ) -> None:
        if fill is None:
            return
        self._style(fill, None, 1.0, None)
        self.c.setFont(_font(font), size)
        draw = {"start": self.c.drawString, "middle": self.c.drawCentredString, "end": self.c.drawRightString}
        draw[anchor](x, self._y(y), s)


# ------------------------------------------------------------------------------------------------------- SVG
def _num(v: float) -> str:
    """Fixed formatting: at most three decimals (a thousandth of a point), no trailing zeros, no ``-0``.

    >>> _num(1.0), _num(0.12349), _num(-0.0001), _num(45)
    ('1', '0.123', '0', '45')
    """
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


class SvgCanvas(_Base):
    """Draws into an svgwrite ``Drawing`` ``width`` x ``height`` points (a viewBox in points).

    Output is deterministic: attributes sorted, numbers formatted with :func:`_num`, element ids sequential
    (``<id_prefix>clip1``, ``clip2``, ...) and no dates.  Text is real text in :data:`SVG_FONT_FAMILY`.
    Transforms become nested groups; :meth:`save` / :meth:`restore` open and close them.
    """

    def __init__(self, width: float, height: float, *, id_prefix: str = "") -> None:
        self.width, self.height = width, height
        import svgwrite  # only SVG output needs it: keep PDF builds' start-up light

        self.dwg = svgwrite.Drawing(
            size=(f"{_num(width)}pt", f"{_num(height)}pt"),
            viewBox=f"0 0 {_num(width)} {_num(height)}",
            debug=False,
        )
        self._prefix = id_prefix
        self._ids = 0
        self._groups: list[object] = [self.dwg]
        self._frames: list[int] = [0]
        """Per save: how many groups it opened (popped again on restore)."""
        self._fresh: object | None = None
        """The transform group opened last, while still empty: a further transform joins its attribute."""

    def _next_id(self, kind: str) -> str:
        self._ids += 1
        return f"{self._prefix}{kind}{self._ids}"

    def _open(self, **attrs: str) -> object:
        g = self.dwg.g(**attrs)
        self._add(g)
        self._groups.append(g)
        self._frames[-1] += 1
        return g

    def _add(self, element: object) -> None:
        self._groups[-1].add(element)  # type: ignore[attr-defined]
        self._fresh = None

    # -- state
    def save(self) -> None:
        self._frames.append(0)
        self._fresh = None

    def restore(self) -> None:
        if len(self._frames) == 1:
            raise RuntimeError("restore() without save()")
        for _ in range(self._frames.pop()):
            self._groups.pop()
        self._fresh = None

    def _transform(self, t: str) -> None:
        if self._fresh is not None:
            g = self._fresh
            g.attribs["transform"] += " " + t  # type: ignore[attr-defined]
            return
        g = self._open(transform=t)
        self._fresh = g

    def translate(self, dx: float, dy: float) -> None:
        self._transform(f"translate({_num(dx)} {_num(dy)})")

    def rotate(self, degrees: float) -> None:
        self._transform(f"rotate({_num(degrees)})")  # SVG's y-down rotation is already clockwise

    def clip_rect(self, x: float, y: float, w: float, h: float) -> None:
        cid = self._next_id("clip")
        cp = self.dwg.defs.add(self.dwg.clipPath(id=cid))
        cp.add(self.dwg.rect(insert=(_num(x), _num(y)), size=(_num(w), _num(h))))
        self._open(clip_path=f"url(#{cid})")

    # -- shapes
    @staticmethod
    def _paint(fill: Colour, stroke: Colour, width: float, dash: Sequence[float] | None) -> dict[str, str]:
        a = {"fill": "none" if fill is None else _hex(fill), "stroke": "none" if stroke is None else _hex(stroke)}
        if stroke is not None:
            a["stroke_width"] = _num(width)
            if dash:
                a["stroke_dasharray"] = ",".join(_num(d) for d in dash)
        return a

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        if fill is None and stroke is None:
            return
        a = self._paint(fill, stroke, width, dash)
        self._add(self.dwg.rect(insert=(_num(x), _num(y)), size=(_num(w), _num(h)), **a))

    def rounded_rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        r: float,
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        if fill is None and stroke is None:
            return
        a = self._paint(fill, stroke, width, dash)
        self._add(self.dwg.rect(insert=(_num(x), _num(y)), size=(_num(w), _num(h)), rx=_num(r), ry=_num(r), **a))

    def line(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        *,
        stroke: Colour = "#000000",
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        if stroke is None:
            return
        a = self._paint(None, stroke, width, dash)
        del a["fill"]
        self._add(self.dwg.line(start=(_num(x1), _num(y1)), end=(_num(x2), _num(y2)), **a))

    @staticmethod
    def _pts(points: Sequence[Point]) -> list[tuple[str, str]]:
        return [(_num(x), _num(y)) for x, y in points]

    def polyline(
        self,
        points: Sequence[Point],
        *,
        stroke: Colour = "#000000",
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        if stroke is None or not points:
            return
        self._add(self.dwg.polyline(points=self._pts(points), **self._paint(None, stroke, width, dash)))

    def polygon(
        self,
        points: Sequence[Point],
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        if (fill is None and stroke is None) or not points:
            return
        self._add(self.dwg.polygon(points=self._pts(points), **self._paint(fill, stroke, width, dash)))

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        if fill is None and stroke is None:
            return
        a = self._paint(fill, stroke, width, dash)
        self._add(self.dwg.circle(center=(_num(cx), _num(cy)), r=_num(r), **a))

    def ellipse(
        self,
        cx: float,
        cy: float,
        rx: float,
        ry: float,
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        if fill is None and stroke is None:
            return
        a = self._paint(fill, stroke, width, dash)
        self._add(self.dwg.ellipse(center=(_num(cx), _num(cy)), r=(_num(rx), _num(ry)), **a))

    def path(
        self,
        path: Path,
        *,
        fill: Colour = None,
        stroke: Colour = None,
        width: float = 1.0,
        dash: Sequence[float] | None = None,
    ) -> None:
        if (fill is None and stroke is None) or not path.ops:
            return
        self._add(self.dwg.path(d=path.svg_d(), **self._paint(fill, stroke, width, dash)))

    def text(
        self,
        x: float,
        y: float,
        s: str,
        *,
        font: str = FONT,
        size: float,
        anchor: Anchor = "start",
        fill: Colour = "#000000",
    ) -> None:
        if fill is None:
            return
        weight, style = _SVG_FONTS[_font(font)]
        a = {"font_family": SVG_FONT_FAMILY, "font_size": _num(size), "fill": _hex(fill)}
        if anchor != "start":
            a["text_anchor"] = anchor
        if weight:
            a["font_weight"] = weight
        if style:
            a["font_style"] = style
        self._add(self.dwg.text(s, insert=(_num(x), _num(y)), **a))

    # -- output
    def tobytes(self) -> bytes:
        """The finished SVG document (UTF-8, with its XML declaration)."""
        buf = io.StringIO()
        self.dwg.write(buf, pretty=False)
        return buf.getvalue().encode("utf-8")
